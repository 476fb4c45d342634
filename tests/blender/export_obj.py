"""Blender's own OBJ exporter on the armature scene: each action exported
with Animation on into OUT (Bend1.obj .. Bend12.obj, Twist20.obj ..
Twist30.obj), default settings otherwise. Writes the evaluated positions
of every exported frame to EXPECTED (JSON). Into EXTRA: Twist again as
`Twist2_.obj` (EXTRA/digit: a name ending in a digit, Twist2_20.obj ..) and
with the legacy Python exporter of Blender 3.4 (EXTRA/legacy: Twist_000020.obj
.., "Keep Vertex Order" on). And Twist frame by frame into EXTRA/sorted
(Twist20.obj .. Twist30.obj), Twist25.obj after Blender's Sort Mesh
Elements put the tube's vertices in random order (what a script that
re-sorts does: the same mesh, numbered differently).
usage: blender -b --factory-startup --python export_obj.py -- OUT EXPECTED EXTRA"""
import json
import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene  # noqa: E402

out, expected_path, extra = sys.argv[sys.argv.index("--") + 1:][:3]
tube, arm = scene.armature_scene()
conv = scene.obj_axes()  # the exporter's defaults: -Z forward, Y up
expected = {"animations": {}}
for act in (bpy.data.actions["Bend"], bpy.data.actions["Twist"]):
    arm.animation_data.action = act
    first, last = (int(f) for f in act.frame_range)
    bpy.ops.wm.obj_export(filepath=os.path.join(out, act.name + ".obj"),
                          export_animation=True, start_frame=first, end_frame=last)
    expected["animations"][act.name] = {
        "first": first,
        "frames": [scene.evaluated_positions(tube, f, conv) for f in range(first, last + 1)],
    }
first, last = (int(f) for f in act.frame_range)  # Twist is active
for sub in ("digit", "legacy"):
    os.makedirs(os.path.join(extra, sub), exist_ok=True)
bpy.ops.wm.obj_export(filepath=os.path.join(extra, "digit", "Twist2_.obj"),
                      export_animation=True, start_frame=first, end_frame=last)
scn = bpy.context.scene
scn.frame_start, scn.frame_end = first, last  # the legacy exporter's range
tube.select_set(True)  # the armature has no geometry: the legacy exporter complains
bpy.ops.export_scene.obj(filepath=os.path.join(extra, "legacy", "Twist.obj"),
                         use_selection=True, use_animation=True, keep_vertex_order=True)
# frame by frame, the re-sorted frame last (its order then stays)
os.makedirs(os.path.join(extra, "sorted"), exist_ok=True)
for f in [k for k in range(first, last + 1) if k != 25] + [25]:
    if f == 25:
        bpy.context.view_layer.objects.active = tube
        bpy.ops.object.mode_set(mode="EDIT")
        bpy.ops.mesh.select_all(action="SELECT")
        bpy.ops.mesh.sort_elements(type="RANDOMIZE", elements={"VERT"}, seed=7)
        bpy.ops.object.mode_set(mode="OBJECT")
    scn.frame_set(f)
    bpy.ops.wm.obj_export(filepath=os.path.join(extra, "sorted", "Twist%d.obj" % f),
                          export_animation=False)
with open(expected_path, "w") as f:
    json.dump(expected, f)
