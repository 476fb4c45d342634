"""Test scenes built in Blender (3.4+) for the Blender tests: a tube skinned
to a two-bone armature with two actions, and a tube with shape-key actions.
Also the evaluated vertex positions, in the OBJ exporter's axes."""
import math

import bpy
from bpy_extras.io_utils import axis_conversion

RINGS, SEGMENTS, RADIUS, HEIGHT = 5, 8, 0.5, 2.0


def clear_scene():
    for ob in list(bpy.data.objects):
        bpy.data.objects.remove(ob)
    for act in list(bpy.data.actions):
        bpy.data.actions.remove(act)


def make_tube(name):
    """An open tube along +Z, RINGS x SEGMENTS vertices, quads, with UVs."""
    verts, faces = [], []
    for r in range(RINGS):
        z = HEIGHT * r / (RINGS - 1)
        for s in range(SEGMENTS):
            a = 2 * math.pi * s / SEGMENTS
            verts.append((RADIUS * math.cos(a), RADIUS * math.sin(a), z))
    for r in range(RINGS - 1):
        for s in range(SEGMENTS):
            a, b = r * SEGMENTS + s, r * SEGMENTS + (s + 1) % SEGMENTS
            faces.append((a, b, b + SEGMENTS, a + SEGMENTS))
    me = bpy.data.meshes.new(name)
    me.from_pydata(verts, [], faces)
    uv = me.uv_layers.new(name="UVMap")
    for poly in me.polygons:
        for li in poly.loop_indices:
            vi = me.loops[li].vertex_index
            s, r = vi % SEGMENTS, vi // SEGMENTS
            # the seam: the last quad's far side takes u = 1, not 0
            if s == 0 and any(me.loops[k].vertex_index % SEGMENTS == SEGMENTS - 1
                              for k in poly.loop_indices):
                s = SEGMENTS
            uv.data[li].uv = (s / SEGMENTS, r / (RINGS - 1))
    for poly in me.polygons:
        poly.use_smooth = True
    me.update()
    ob = bpy.data.objects.new(name, me)
    bpy.context.scene.collection.objects.link(ob)
    return ob


def key_bones(arm, action, keys):
    """keys: [(frame, {bone: (rx, ry, rz) degrees})]"""
    arm.animation_data.action = action
    for frame, poses in keys:
        for bone, rot in poses.items():
            pb = arm.pose.bones[bone]
            pb.rotation_mode = 'XYZ'
            pb.rotation_euler = [math.radians(x) for x in rot]
            pb.keyframe_insert("rotation_euler", frame=frame)


def rig_two_bones(ob, blend_from):
    """An armature Rig with bones Lower (z 0 to 1) and Upper (z 1 to 2)
    deforming ob: weights by height, all Lower below z blend_from, all
    Upper above blend_from + 1, linear between. Returns the armature."""
    arm_data = bpy.data.armatures.new("Rig")
    arm = bpy.data.objects.new("Rig", arm_data)
    bpy.context.scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode='EDIT')
    lower = arm_data.edit_bones.new("Lower")
    lower.head, lower.tail = (0, 0, 0), (0, 0, 1)
    upper = arm_data.edit_bones.new("Upper")
    upper.head, upper.tail = (0, 0, 1), (0, 0, 2)
    upper.parent = lower
    upper.use_connect = True
    bpy.ops.object.mode_set(mode='OBJECT')
    g_lower = ob.vertex_groups.new(name="Lower")
    g_upper = ob.vertex_groups.new(name="Upper")
    for v in ob.data.vertices:
        w = min(1.0, max(0.0, v.co.z - blend_from))
        if w < 1:
            g_lower.add([v.index], 1 - w, 'REPLACE')
        if w > 0:
            g_upper.add([v.index], w, 'REPLACE')
    mod = ob.modifiers.new("Armature", 'ARMATURE')
    mod.object = arm
    arm.animation_data_create()
    return arm


def armature_scene():
    """Tube skinned to Lower/Upper bones; actions Bend (frames 1-12) and
    Twist (frames 20-30). Returns (mesh object, armature object)."""
    clear_scene()
    tube = make_tube("Tube")
    arm = rig_two_bones(tube, 0.5)
    bend = bpy.data.actions.new("Bend")
    twist = bpy.data.actions.new("Twist")
    for act in (bend, twist):
        act.use_fake_user = True
    key_bones(arm, bend, [(1, {"Lower": (0, 0, 0), "Upper": (0, 0, 0)}),
                          (12, {"Lower": (-15, 0, 0), "Upper": (50, 0, 0)})])
    key_bones(arm, twist, [(20, {"Lower": (0, 0, 0), "Upper": (0, 0, 0)}),
                           (30, {"Lower": (0, 10, 0), "Upper": (0, 80, 0)})])
    return tube, arm


def obj_axes(forward='-Z', up='Y'):
    return axis_conversion(to_forward=forward, to_up=up).to_4x4()


def evaluated_positions(ob, frame, conv, scale=1.0):
    """The deformed mesh at frame, world space, in the exporter's axes, as a
    flat list in vertex order."""
    scene = bpy.context.scene
    scene.frame_set(frame)
    dg = bpy.context.evaluated_depsgraph_get()
    ev = ob.evaluated_get(dg)
    me = ev.to_mesh()
    m = conv @ ev.matrix_world
    out = []
    for v in me.vertices:
        p = m @ v.co
        out += [p.x * scale, p.y * scale, p.z * scale]
    ev.to_mesh_clear()
    return out


def shape_key_scene():
    """Tube with shape keys Up (top rings raised and narrowed) and Wide
    (middle rings pushed out), animated by two actions on its shape keys:
    Inflate keys Wide at frames 1, 5, 9, 17 (last pose differs from the
    first: plays once); Wave keys Up at 1, 7, 13, 19, 25 with frame 25 equal
    to frame 1 (a loop), pose markers event:footstep at 7 and noblend at 13."""
    clear_scene()
    tube = make_tube("Blob")
    tube.shape_key_add(name="Basis")
    up = tube.shape_key_add(name="Up", from_mix=False)
    wide = tube.shape_key_add(name="Wide", from_mix=False)
    for i, v in enumerate(tube.data.vertices):
        r = i // SEGMENTS
        if r >= RINGS - 2:
            up.data[i].co = (v.co.x * 0.6, v.co.y * 0.6, v.co.z + 0.5 * (r - RINGS + 3))
        if 0 < r < RINGS - 1:
            wide.data[i].co = (v.co.x * 1.8, v.co.y * 1.8, v.co.z)
    key = tube.data.shape_keys
    key.animation_data_create()
    acts = {}
    for name, block, keys in (("Inflate", wide, [(1, 0), (5, .4), (9, .7), (17, 1)]),
                              ("Wave", up, [(1, 0), (7, 1), (13, .5), (19, .8), (25, 0)])):
        act = bpy.data.actions.new(name)
        act.use_fake_user = True
        key.animation_data.action = act
        for frame, value in keys:
            block.value = value
            block.keyframe_insert("value", frame=frame)
        acts[name] = act
    for frame, name in ((7, "event:footstep"), (13, "noblend")):
        acts["Wave"].pose_markers.new(name).frame = frame
    key.animation_data.action = None
    up.value = wide.value = 0
    return tube, key


def hybrid_scene():
    """The armature scene with the tube parented to the rig (a glTF skin)
    and a shape key Up (every vertex pushed out 1.5x from the axis), keyed
    0 at frame 1 and 1 at frame 12 (Blender's default Bezier ease). Armature
    actions and the shape-key action sit on NLA tracks; the shape keys'
    track is named Bend like the armature's, so glTF merges them."""
    tube, arm = armature_scene()
    tube.parent = arm
    tube.shape_key_add(name="Basis")
    up = tube.shape_key_add(name="Up", from_mix=False)
    for i, v in enumerate(tube.data.vertices):
        up.data[i].co = (v.co.x * 1.5, v.co.y * 1.5, v.co.z)
    key = tube.data.shape_keys
    key.animation_data_create()
    act = bpy.data.actions.new("BendFace")
    key.animation_data.action = act
    for frame, value in ((1, 0), (12, 1)):
        up.value = value
        up.keyframe_insert("value", frame=frame)
    key.animation_data.action = None
    up.value = 0
    track = key.animation_data.nla_tracks.new()
    track.name = "Bend"
    track.strips.new("BendFace", 1, act)
    arm.animation_data.action = None
    for name, start in (("Bend", 1), ("Twist", 20)):
        track = arm.animation_data.nla_tracks.new()
        track.name = name
        track.strips.new(name, start, bpy.data.actions[name])
    return tube, arm, key
