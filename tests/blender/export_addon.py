"""The add-on tools/blender/morphkit_export.py on two scenes built here:
 - OUT/blob: shape-key actions Inflate and Wave (scene.shape_key_scene),
   exported one frame per keyframe, default axes, running morphkit validate
   from Blender (its report is saved to OUT/blob_report.txt);
 - OUT/tube: the armature actions Bend and Twist (scene.armature_scene),
   every frame, axes forward Y / up Z (Blender's own) and scale 2.
At 24 fps. Writes OUT/expected_<unit>.json: per animation, Blender's
evaluated positions at the frames the add-on is meant to export, the start
time of each (round(1000 (f - f0) / 24) ms) and the loop end, the no-blend
frames; and OUT/times_<unit>_<anim>.txt, the times to sample.
usage: blender -b --factory-startup --python export_addon.py -- SRC OUT TOOL"""
import json
import os
import sys

import bpy

src, out, tool = sys.argv[sys.argv.index("--") + 1:][:3]
sys.path.insert(0, os.path.join(src, "tests", "blender"))
sys.path.insert(0, os.path.join(src, "tools", "blender"))
import morphkit_export  # noqa: E402
import scene  # noqa: E402

morphkit_export.register()
FPS = 24
expected = {}


def expect(unit, ob, owner, anim, frames, loop_end, noblend, conv, scale):
    """frames: the Blender frames to be exported; loop_end: the frame that
    closes the loop, or None for a once-only animation."""
    for kb in getattr(owner, "key_blocks", []):  # no value left by another action
        kb.value = 0
    owner.animation_data.action = bpy.data.actions[anim]
    starts = [round(1000 * (f - frames[0]) / FPS) / 1000 for f in frames]
    end = round(1000 * (loop_end - frames[0]) / FPS) / 1000 if loop_end else starts[-1] + 1
    times = [starts[k] for k in range(len(frames))]
    times += [(starts[k] + (starts + [end])[k + 1]) / 2
              for k in range(len(frames) - (0 if loop_end else 1))]
    expected.setdefault(unit, {"animations": {}})["animations"][anim] = {
        "first": 1, "starts": starts + [end], "noblend": noblend,
        "frames": [scene.evaluated_positions(ob, f, conv, scale) for f in frames]}
    with open(os.path.join(out, "times_%s_%s.txt" % (unit, anim)), "w") as f:
        f.write(" ".join("--time %g" % t for t in times) + "\n")
    owner.animation_data.action = None


bpy.context.scene.render.fps = FPS
blob, key = scene.shape_key_scene()
bpy.ops.export_scene.morphkit_unit(directory=os.path.join(out, "blob"), source='ACTIONS',
                                   frames='KEYS', run_validate=True, tool=tool)
with open(os.path.join(out, "blob_report.txt"), "w") as f:
    f.write(bpy.data.texts[morphkit_export.REPORT_TEXT].as_string())
conv = scene.obj_axes()
expect("blob", blob, key, "Inflate", [1, 5, 9, 17], None, [], conv, 1.0)
expect("blob", blob, key, "Wave", [1, 7, 13, 19], 25, [2], conv, 1.0)

tube, arm = scene.armature_scene()
arm.animation_data.action = None
bpy.ops.export_scene.morphkit_unit(directory=os.path.join(out, "tube"), source='ACTIONS',
                                   frames='ALL', forward_axis='Y', up_axis='Z', global_scale=2.0)
conv = scene.obj_axes('Y', 'Z')
expect("tube", tube, arm, "Bend", list(range(1, 13)), None, [], conv, 2.0)
expect("tube", tube, arm, "Twist", list(range(20, 31)), None, [], conv, 2.0)
for unit, data in expected.items():
    with open(os.path.join(out, "expected_%s.json" % unit), "w") as f:
        json.dump(data, f)
