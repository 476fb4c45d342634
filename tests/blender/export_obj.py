"""Blender's own OBJ exporter on the armature scene: each action exported
with Animation on into OUT (Bend1.obj .. Bend12.obj, Twist20.obj ..
Twist30.obj), default settings otherwise. Writes the evaluated positions
of every exported frame to EXPECTED (JSON).
usage: blender -b --factory-startup --python export_obj.py -- OUT EXPECTED"""
import json
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene  # noqa: E402

out, expected_path = sys.argv[sys.argv.index("--") + 1:][:2]
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
with open(expected_path, "w") as f:
    json.dump(expected, f)
