"""A unit as an artist's Blender exports it, for the size benchmark
(bench/pack_vs_gltfpack.mjs, bench_pack --unit): Suzanne subdivided once
(2 012 vertices, 3 936 triangles), smooth shaded, with Smart UV Project's
texture seams and one material, deformed by a two-bone armature (the
Blender tests' rig, tests/blender/scene.py) through three actions (Idle,
frames 1-20; Walk, 1-24; Attack, 1-16), each exported by Blender's own
OBJ exporter with Animation on (Idle1.obj .. Attack16.obj; 60 frames,
about 16 MB).
usage: blender -b --factory-startup --python bench/blender_unit.py -- OUT_DIR"""
import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "blender"))
import scene  # noqa: E402

out = sys.argv[sys.argv.index("--") + 1]
scene.clear_scene()
bpy.ops.mesh.primitive_monkey_add(size=2, location=(0, 0, 1))
body = bpy.context.active_object
body.name = "Suzanne"
body.modifiers.new("Subdivision", 'SUBSURF').levels = 1
bpy.ops.object.modifier_apply(modifier="Subdivision")
bpy.ops.object.mode_set(mode='EDIT')
bpy.ops.mesh.select_all(action='SELECT')
bpy.ops.uv.smart_project()
bpy.ops.object.mode_set(mode='OBJECT')
bpy.ops.object.shade_smooth()
skin = bpy.data.materials.new("Skin")
skin.diffuse_color = (0.8, 0.5, 0.3, 1)
body.data.materials.append(skin)
rig = scene.rig_two_bones(body, 0.6)

rest = {"Lower": (0, 0, 0), "Upper": (0, 0, 0)}
actions = []
for name, keys in (
        ("Idle", [(1, rest), (10, {"Lower": (3, 0, 0), "Upper": (-5, 0, 0)}), (20, rest)]),
        ("Walk", [(1, {"Lower": (0, 0, -10), "Upper": (0, 5, 8)}),
                  (12, {"Lower": (0, 0, 10), "Upper": (0, -5, -8)}),
                  (24, {"Lower": (0, 0, -10), "Upper": (0, 5, 8)})]),
        ("Attack", [(1, rest), (6, {"Lower": (-20, 0, 0), "Upper": (-30, 0, 0)}),
                    (9, {"Lower": (25, 0, 0), "Upper": (45, 0, 0)}), (16, rest)])):
    act = bpy.data.actions.new(name)
    scene.key_bones(rig, act, keys)
    actions.append(act)
os.makedirs(out, exist_ok=True)
bpy.ops.object.select_all(action='DESELECT')
body.select_set(True)
for act in actions:
    rig.animation_data.action = act
    first, last = (int(f) for f in act.frame_range)
    bpy.ops.wm.obj_export(filepath=os.path.join(out, act.name + ".obj"), export_animation=True,
                          start_frame=first, end_frame=last, export_selected_objects=True)
