"""The add-on tools/blender/morphkit_export.py on two scenes built here:
 - OUT/blob: shape-key actions Inflate and Wave (scene.shape_key_scene),
   exported one frame per keyframe, default axes, running morphkit validate
   from Blender (its report is saved to OUT/blob_report.txt) and pack;
 - OUT/tube: the armature actions Bend and Twist (scene.armature_scene),
   every frame, axes forward Y / up Z (Blender's own) and scale 2;
 - OUT/nla: the same actions as two NLA tracks, Twist moved to 40-50;
 - OUT/markers: one shape-key action cut by timeline markers Grow, Rise.
At 24 fps. Writes OUT/expected_<unit>.json: per animation, Blender's
evaluated positions at the frames the add-on is meant to export, the start
time of each (round(1000 (f - f0) / 24) ms) and the loop end, the no-blend
frames; and OUT/times_<unit>_<anim>.txt, the times to sample.
usage: blender -b --factory-startup --python export_addon.py -- SRC OUT TOOL"""
import json
import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

src, out, tool = sys.argv[sys.argv.index("--") + 1:][:3]
sys.path.insert(0, os.path.join(src, "tests", "blender"))
sys.path.insert(0, os.path.join(src, "tools", "blender"))
import morphkit_export  # noqa: E402
import scene  # noqa: E402

morphkit_export.register()
FPS = 24
expected = {}


def expect(unit, ob, owner, anim, frames, loop_end, noblend, conv, scale, action=None,
           action_frames=None):
    """frames: the timeline frames to be exported; loop_end: the frame that
    closes the loop, or None for a once-only animation. The poses are those
    of action (default: the action named anim) alone, at action_frames
    (default: frames)."""
    for kb in getattr(owner, "key_blocks", []):  # no value left by another action
        kb.value = 0
    owner.animation_data.action = bpy.data.actions[action or anim]
    starts = [round(1000 * (f - frames[0]) / FPS) / 1000 for f in frames]
    end = round(1000 * (loop_end - frames[0]) / FPS) / 1000 if loop_end else starts[-1] + 1
    times = [starts[k] for k in range(len(frames))]
    times += [(starts[k] + (starts + [end])[k + 1]) / 2
              for k in range(len(frames) - (0 if loop_end else 1))]
    expected.setdefault(unit, {"animations": {}})["animations"][anim] = {
        "first": 1, "starts": starts + [end], "noblend": noblend,
        "frames": [scene.evaluated_positions(ob, f, conv, scale) for f in action_frames or frames]}
    with open(os.path.join(out, "times_%s_%s.txt" % (unit, anim)), "w") as f:
        f.write(" ".join("--time %g" % t for t in times) + "\n")
    owner.animation_data.action = None


bpy.context.scene.render.fps = FPS
blob, key = scene.shape_key_scene()
bpy.ops.export_scene.morphkit_unit(directory=os.path.join(out, "blob"), source='ACTIONS',
                                   frames='KEYS', run_validate=True, run_pack=True, tool=tool)
with open(os.path.join(out, "blob_report.txt"), "w") as f:
    f.write(bpy.data.texts[morphkit_export.REPORT_TEXT].as_string())
conv = scene.obj_axes()
expect("blob", blob, key, "Inflate", [1, 5, 9, 17], None, [], conv, 1.0)
expect("blob", blob, key, "Wave", [1, 7, 13, 19], 25, [2], conv, 1.0)

tube, arm = scene.armature_scene()
arm.animation_data.action = bpy.data.actions["Twist"]
bpy.context.scene.frame_set(7)
bpy.ops.export_scene.morphkit_unit(directory=os.path.join(out, "tube"), source='ACTIONS',
                                   frames='ALL', forward_axis='Y', up_axis='Z', global_scale=2.0)
# the scene is left as it was
assert arm.animation_data.action.name == "Twist", arm.animation_data.action
assert bpy.context.scene.frame_current == 7, bpy.context.scene.frame_current
conv = scene.obj_axes('Y', 'Z')
expect("tube", tube, arm, "Bend", list(range(1, 13)), None, [], conv, 2.0)
expect("tube", tube, arm, "Twist", list(range(20, 31)), None, [], conv, 2.0)
# NLA tracks: Bend at frames 1-12, Twist's frames 20-30 placed at 40-50
tube, arm = scene.armature_scene()
ad = arm.animation_data
ad.action = None
for name, start in (("Bend", 1), ("Twist", 40)):
    ad.nla_tracks.new().name = name + "Track"
    ad.nla_tracks[-1].strips.new(name, start, bpy.data.actions[name])
bpy.ops.export_scene.morphkit_unit(directory=os.path.join(out, "nla"), source='NLA')
conv = scene.obj_axes()
ad.use_nla = False
expect("nla", tube, arm, "BendTrack", [1, 12], None, [], conv, 1.0, "Bend")
expect("nla", tube, arm, "TwistTrack", [40, 50], None, [], conv, 1.0, "Twist", [20, 30])

# marker ranges over one shape-key action: Grow = frames 1-10 (Wide up and
# back down by frame 9: a loop closed at 9), Rise = frames 11-20 (Up keyed
# at 11, 15, 20: plays once); an event marker at 5
blob, key = scene.shape_key_scene()
act = bpy.data.actions.new("All")
key.animation_data.action = act
for block, keys in (("Wide", [(1, 0), (5, 1), (9, 0)]), ("Up", [(11, 0), (15, 1), (20, .5)])):
    for frame, value in keys:
        key.key_blocks[block].value = value
        key.key_blocks[block].keyframe_insert("value", frame=frame)
sc = bpy.context.scene
sc.frame_end = 20
for name, frame in (("Grow", 1), ("Rise", 11), ("event:puff", 5)):
    sc.timeline_markers.new(name, frame=frame)
bpy.ops.export_scene.morphkit_unit(directory=os.path.join(out, "markers"), source='MARKERS')
expect("markers", blob, key, "Grow", [1, 5], 9, [], conv, 1.0, "All")
expect("markers", blob, key, "Rise", [11, 15, 20], None, [], conv, 1.0, "All")

for unit, data in expected.items():
    with open(os.path.join(out, "expected_%s.json" % unit), "w") as f:
        json.dump(data, f)
