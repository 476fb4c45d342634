"""A unit as an artist's Blender exports it, for the size benchmark
(bench/pack_vs_gltfpack.mjs, bench_pack --unit): Suzanne subdivided once
(2 012 vertices, 3 936 triangles), smooth shaded, with Smart UV Project's
texture seams and one material, deformed by a two-bone armature through
three actions (Idle, frames 1-20; Walk, 1-24; Attack, 1-16), each exported
by Blender's own OBJ exporter with Animation on (Idle1.obj .. Attack16.obj;
60 frames, about 16 MB).
usage: blender -b --factory-startup --python bench/blender_unit.py -- OUT_DIR"""
import math
import os
import sys

import bpy

out = sys.argv[sys.argv.index("--") + 1]
for ob in list(bpy.data.objects):
    bpy.data.objects.remove(ob)
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

# the rig: Low from the floor to z 1, Up on top; weights by height, blended
# over z 0.6 .. 1.6
rig_data = bpy.data.armatures.new("Rig")
rig = bpy.data.objects.new("Rig", rig_data)
bpy.context.scene.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode='EDIT')
low = rig_data.edit_bones.new("Low")
low.head, low.tail = (0, 0, 0), (0, 0, 1)
up = rig_data.edit_bones.new("Up")
up.head, up.tail = (0, 0, 1), (0, 0, 2)
up.parent = low
up.use_connect = True
bpy.ops.object.mode_set(mode='OBJECT')
g_low, g_up = body.vertex_groups.new(name="Low"), body.vertex_groups.new(name="Up")
for v in body.data.vertices:
    w = min(1.0, max(0.0, v.co.z - 0.6))
    if w < 1:
        g_low.add([v.index], 1 - w, 'REPLACE')
    if w > 0:
        g_up.add([v.index], w, 'REPLACE')
body.modifiers.new("Armature", 'ARMATURE').object = rig
rig.animation_data_create()


def action(name, keys):
    """keys: [(frame, {bone: (rx, ry, rz) degrees})], Blender's default ease"""
    act = bpy.data.actions.new(name)
    rig.animation_data.action = act
    for frame, poses in keys:
        for bone, rot in poses.items():
            pb = rig.pose.bones[bone]
            pb.rotation_mode = 'XYZ'
            pb.rotation_euler = [math.radians(x) for x in rot]
            pb.keyframe_insert("rotation_euler", frame=frame)
    return act


rest = {"Low": (0, 0, 0), "Up": (0, 0, 0)}
actions = [
    action("Idle", [(1, rest), (10, {"Low": (3, 0, 0), "Up": (-5, 0, 0)}), (20, rest)]),
    action("Walk", [(1, {"Low": (0, 0, -10), "Up": (0, 5, 8)}),
                    (12, {"Low": (0, 0, 10), "Up": (0, -5, -8)}),
                    (24, {"Low": (0, 0, -10), "Up": (0, 5, 8)})]),
    action("Attack", [(1, rest), (6, {"Low": (-20, 0, 0), "Up": (-30, 0, 0)}),
                      (9, {"Low": (25, 0, 0), "Up": (45, 0, 0)}), (16, rest)]),
]
os.makedirs(out, exist_ok=True)
bpy.ops.object.select_all(action='DESELECT')
body.select_set(True)
for act in actions:
    rig.animation_data.action = act
    first, last = (int(f) for f in act.frame_range)
    bpy.ops.wm.obj_export(filepath=os.path.join(out, act.name + ".obj"), export_animation=True,
                          start_frame=first, end_frame=last, export_selected_objects=True)
