# morphkit_export.py - Blender add-on "Export morphkit unit" (Blender 3.4+).
#
# Writes a morphkit unit folder from the scene: every animation (each action,
# each NLA track, or each timeline-marker range) becomes `<Animation>_<N>.obj`
# frames, N = 1, 2, ..., written by Blender's own OBJ exporter (vertex order
# kept, modifiers applied, normals and UVs, the chosen axes and scale), plus
# an `animation.cfg` whose durations are the spacing of the exported frames
# on the timeline at the scene's frame rate. Optionally runs `morphkit
# validate` and `morphkit pack` and shows their report in Blender (a text
# block named "morphkit report").
#
# Which frames: "Keyframes" exports one frame per keyframe of the animation
# (rounded to whole frames) plus every marker frame; "Every frame" exports
# each scene frame of the range. morphkit blends linearly between exported
# frames, so "Keyframes" matches Blender exactly at the keys only.
#
# Loops: an animation whose last exported pose equals its first is a loop
# (that last frame is not written: the one before it blends back into the
# first). So is an action with "Cyclic Animation" and a manual frame range,
# whose end closes the loop. Anything else plays once and holds its last
# frame (`Once`).
#
# Markers (the action's pose markers; the scene's timeline markers for NLA
# and marker ranges), names case-insensitive:
#   noblend         the frame at the marker is shown without blending (NoBlend)
#   event:NAME      the frame at the marker reports event NAME (Event)
#   loop            the animation loops back to the frame at the marker (Loop)
# Any other timeline marker name starts a range in "Marker ranges" mode.
#
# Durations are whole milliseconds (animation.cfg's unit): frame k starts at
# round(1000 * (f_k - f_0) / fps) ms, so rounding never accumulates.
#
# Install: Edit > Preferences > Add-ons > Install..., pick this file. Or, for
# scripts: sys.path.insert(0, "tools/blender"); import morphkit_export;
# morphkit_export.register(); bpy.ops.export_scene.morphkit_unit(directory=...).

bl_info = {
    "name": "Export morphkit unit",
    "author": "morphkit",
    "version": (1, 0, 0),
    "blender": (3, 4, 0),
    "location": "File > Export > morphkit unit (folder of .obj)",
    "description": "Writes each animation as <Animation>_<N>.obj frames and an animation.cfg",
    "category": "Import-Export",
}

import os
import re
import subprocess

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty

AXES = [("X", "X", ""), ("Y", "Y", ""), ("Z", "Z", ""),
        ("NEGATIVE_X", "-X", ""), ("NEGATIVE_Y", "-Y", ""), ("NEGATIVE_Z", "-Z", "")]
REPORT_TEXT = "morphkit report"


def safe_name(name):
    """A name usable in file names and as one word in animation.cfg."""
    s = re.sub(r"[^A-Za-z0-9_.-]", "_", name.strip())
    return s or "Anim"


class Clip:
    """One animation to export: frames on the timeline and how to pose them."""

    def __init__(self, name, start, end, keys, markers, cyclic_end=None, setup=None):
        self.name = safe_name(name)
        self.start, self.end = start, end
        self.keys = keys            # timeline frames of interest (keys, markers)
        self.markers = markers      # [(frame, name)]
        self.cyclic_end = cyclic_end
        self.setup = setup or (lambda: None)


# ---- finding the objects and animations ----------------------------------

def export_meshes(context, selected_only):
    obs = [o for o in context.scene.objects if o.type == 'MESH' and o.visible_get()]
    sel = [o for o in obs if o.select_get()]
    return sel if (selected_only and sel) else obs


def anim_owners(meshes):
    """The ids whose animation poses the meshes: the meshes, the armatures
    deforming them, their shape keys. [(id, id_root)]"""
    owners = []
    for ob in meshes:
        owners.append((ob, 'OBJECT'))
        for mod in ob.modifiers:
            if mod.type == 'ARMATURE' and mod.object and all(mod.object != o for o, _ in owners):
                owners.append((mod.object, 'OBJECT'))
        if ob.data.shape_keys:
            owners.append((ob.data.shape_keys, 'KEY'))
    return owners


def action_owner(action, owners):
    """The owner an action animates, judged by its F-Curve paths."""
    for owner, root in owners:
        if action.id_root not in (root, 'NONE'):
            continue
        for fc in action.fcurves:
            try:
                owner.path_resolve(fc.data_path)
                return owner
            except (ValueError, AttributeError):
                pass
    return None


def action_keys(action, offset=0.0, scale=1.0):
    keys = set()
    for fc in action.fcurves:
        for kp in fc.keyframe_points:
            keys.add(round(offset + kp.co.x * scale))
    return keys


class Restore:
    """Remembers animation assignments and NLA state to put them back."""

    def __init__(self, owners):
        self.owners = [o for o, _ in owners]
        self.saved = {}
        for owner in self.owners:
            ad = owner.animation_data
            if ad:
                self.saved[owner] = (ad.action, ad.use_nla,
                                     [(t, t.mute, t.is_solo) for t in ad.nla_tracks])

        # every property an action animates, as it is now: an action leaves
        # the properties it keys at its last evaluated value, and another
        # action that does not key them must not inherit that
        self.values = []
        for act in bpy.data.actions:
            owner = action_owner(act, owners)
            for fc in act.fcurves if owner else ():
                head, _, attr = fc.data_path.rpartition(".")
                try:
                    base = owner.path_resolve(head) if head else owner
                    value = getattr(base, attr)
                except (ValueError, AttributeError, TypeError):
                    continue  # custom properties and the like: left alone
                if hasattr(value, "__len__") and not isinstance(value, str):
                    self.values.append((base, attr, fc.array_index, value[fc.array_index]))
                else:
                    self.values.append((base, attr, None, value))

    def reset_values(self):
        for base, attr, index, value in self.values:
            if index is None:
                setattr(base, attr, value)
            else:
                getattr(base, attr)[index] = value

    def __call__(self):
        self.reset_values()
        for owner in self.owners:
            ad = owner.animation_data
            if owner not in self.saved:
                if ad:
                    ad.action = None
                continue
            action, use_nla, tracks = self.saved[owner]
            ad.action = action
            ad.use_nla = use_nla
            for t, mute, solo in tracks:
                t.is_solo = solo
                t.mute = mute


def silence(owners, keep=None):
    """No action and no NLA on every owner but keep."""
    for o, _ in owners:
        if o is not keep and o.animation_data:
            o.animation_data.action = None
            o.animation_data.use_nla = False


def clips_from_actions(owners):
    clips = []
    for act in sorted(bpy.data.actions, key=lambda a: a.name):
        owner = action_owner(act, owners)
        if owner is None:
            continue

        def setup(owner=owner, act=act, owners=owners):
            silence(owners)  # only this action moves anything
            owner.animation_data_create()
            owner.animation_data.action = act
        start, end = (round(f) for f in act.frame_range)
        keys = {k for k in action_keys(act) if start <= k <= end} | {start, end}
        markers = [(m.frame, m.name) for m in act.pose_markers]
        cyclic_end = end if (act.use_cyclic and act.use_frame_range) else None
        clips.append(Clip(act.name, start, end, keys, markers, cyclic_end, setup))
    return clips


def clips_from_nla(owners, scene):
    clips = []
    for owner, _ in owners:
        ad = owner.animation_data
        if not ad:
            continue
        for track in ad.nla_tracks:
            strips = [s for s in track.strips if s.action and not s.mute]
            if not strips:
                continue

            def setup(ad=ad, owner=owner, track=track, owners=owners):
                silence(owners, keep=owner)
                ad.action = None
                ad.use_nla = True
                for t in ad.nla_tracks:
                    t.mute = t != track
                    t.is_solo = False
            start = round(min(s.frame_start for s in strips))
            end = round(max(s.frame_end for s in strips))
            keys = {start, end}
            for s in strips:
                keys |= {k for k in action_keys(s.action, s.frame_start - s.action_frame_start * s.scale,
                                                s.scale) if start <= k <= end}
            markers = [(m.frame, m.name) for m in scene.timeline_markers if start <= m.frame <= end]
            clips.append(Clip(track.name, start, end, keys, markers, None, setup))
    return clips


SPECIAL = re.compile(r"^(noblend|loop|event:.+)$", re.IGNORECASE)


def clips_from_markers(owners, scene):
    """Each timeline marker whose name is not special starts a range that ends
    at the next such marker (which closes the loop) or at the scene's end."""
    starts = sorted((m.frame, m.name) for m in scene.timeline_markers if not SPECIAL.match(m.name))
    all_keys = set()
    for owner, _ in owners:
        ad = owner.animation_data
        if ad and ad.action:
            all_keys |= action_keys(ad.action)
    clips = []
    for i, (start, name) in enumerate(starts):
        last = i + 1 == len(starts)
        end = scene.frame_end if last else starts[i + 1][0]
        keys = {k for k in all_keys if start <= k < end} | {start}
        if last:
            keys.add(end)
        markers = [(m.frame, m.name) for m in scene.timeline_markers
                   if SPECIAL.match(m.name) and start <= m.frame <= end]
        clips.append(Clip(name, start, end, keys, markers, None if last else end))
    return clips


# ---- writing ----------------------------------------------------------------

def evaluated_positions(context, meshes):
    dg = context.evaluated_depsgraph_get()
    out = []
    for ob in meshes:
        ev = ob.evaluated_get(dg)
        me = ev.to_mesh()
        mw = ev.matrix_world
        out += [mw @ v.co for v in me.vertices]
        ev.to_mesh_clear()
    return out


def same_pose(a, b):
    if len(a) != len(b) or not a:
        return False
    size = max((max(p[i] for p in a) - min(p[i] for p in a) for i in range(3)), default=0.0)
    tol = 1e-5 * max(size, 1e-3)
    return all((p - q).length <= tol for p, q in zip(a, b))


def ms(frame, first, fps):
    return round(1000.0 * (frame - first) / fps)


def remove_old_frames(directory, name):
    """Old frames of an animation being written would leave a stale tail."""
    pat = re.compile(re.escape(name) + r"[_.-]?[0-9]+\.(?i:obj|mtl)$")  # names are case-sensitive
    for f in os.listdir(directory):
        if pat.match(f):
            os.remove(os.path.join(directory, f))


def export_clip(op, context, clip, meshes, directory):
    """Writes clip's frames; returns its animation.cfg lines."""
    scene = context.scene
    fps = scene.render.fps / scene.render.fps_base
    clip.setup()
    frames = sorted(clip.keys | {round(f) for f, _ in clip.markers if clip.start <= f <= clip.end})
    scene.frame_set(frames[0])
    first_pose = evaluated_positions(context, meshes)
    scene.frame_set(frames[-1])
    loop_end = None
    if len(frames) > 1 and same_pose(first_pose, evaluated_positions(context, meshes)):
        loop_end = frames.pop()  # the closing pose is the first one again
    elif clip.cyclic_end is not None and clip.cyclic_end > frames[-1]:
        loop_end = clip.cyclic_end
    elif clip.cyclic_end is not None and len(frames) > 1 and clip.cyclic_end == frames[-1]:
        loop_end = frames.pop()
    remove_old_frames(directory, clip.name)
    for n, f in enumerate(frames, 1):
        scene.frame_set(f)
        bpy.ops.wm.obj_export(
            filepath=os.path.join(directory, "%s_%d.obj" % (clip.name, n)),
            export_animation=False, export_selected_objects=True, apply_modifiers=True,
            export_eval_mode='DAG_EVAL_VIEWPORT', forward_axis=op.forward_axis,
            up_axis=op.up_axis, global_scale=op.global_scale, export_uv=op.export_uv,
            export_normals=op.export_normals, export_materials=op.export_materials,
            export_triangulated_mesh=False, export_colors=False)
    ends = frames[1:] + ([loop_end] if loop_end is not None else [])
    durations = [max(1, ms(b, frames[0], fps) - ms(a, frames[0], fps)) for a, b in zip(frames, ends)]
    name = clip.name
    lines = ["# %s: Blender frames %s at %g fps" % (name, " ".join(str(f) for f in frames), fps)]
    loop_at = [round(f) for f, m in clip.markers if m.lower() == "loop" and round(f) in frames]
    if durations and len(set(durations)) == 1:
        lines.append("FrameTime %s %d" % (name, durations[0]))
    else:
        lines += ["Duration %s %d %d" % (name, n, d) for n, d in enumerate(durations, 1)]
    if loop_end is None:
        lines.append("Once %s" % name)
        if loop_at:
            op.report({'WARNING'}, "%s: 'loop' marker ignored: the animation does not loop "
                      "(its last pose differs from its first)" % name)
    elif loop_at:
        lines.append("Loop %s %d" % (name, frames.index(loop_at[0]) + 1))
    for f, m in sorted(clip.markers):
        if round(f) not in frames:
            continue
        n = frames.index(round(f)) + 1
        if m.lower() == "noblend":
            lines.append("NoBlend %s %d" % (name, n))
        elif m.lower().startswith("event:"):
            lines.append("Event %s %d %s" % (name, n, safe_name(m[6:])))
    return lines, len(frames)


def run_tool(args):
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
        return p.returncode, (p.stdout + p.stderr).strip()
    except (OSError, subprocess.SubprocessError) as e:
        return -1, "cannot run %s: %s" % (args[0], e)


class EXPORT_SCENE_OT_morphkit_unit(bpy.types.Operator):
    """Export every animation as a morphkit unit folder (<Animation>_<N>.obj frames and animation.cfg)"""
    bl_idname = "export_scene.morphkit_unit"
    bl_label = "Export morphkit unit"
    bl_options = {'REGISTER', 'PRESET'}

    directory: StringProperty(name="Folder", subtype='DIR_PATH')
    source: EnumProperty(name="Animations", default='ACTIONS', items=[
        ('ACTIONS', "Actions", "Each action that animates the meshes, their armature or shape keys"),
        ('NLA', "NLA tracks", "Each NLA track, played alone"),
        ('MARKERS', "Marker ranges", "Each range between timeline markers (named as the marker)")])
    frames: EnumProperty(name="Frames", default='KEYS', items=[
        ('KEYS', "Keyframes", "One frame per keyframe and marker"),
        ('ALL', "Every frame", "Every scene frame of the range")])
    selected_only: BoolProperty(name="Selected only", default=True,
                                description="Only the selected meshes (all visible meshes when none is)")
    forward_axis: EnumProperty(name="Forward", items=AXES, default='NEGATIVE_Z')
    up_axis: EnumProperty(name="Up", items=AXES, default='Y')
    global_scale: FloatProperty(name="Scale", default=1.0, min=1e-4, max=1e4)
    export_normals: BoolProperty(name="Normals", default=True)
    export_uv: BoolProperty(name="UVs", default=True)
    export_materials: BoolProperty(name="Materials (.mtl per frame)", default=False)
    run_validate: BoolProperty(name="Run morphkit validate", default=False)
    run_pack: BoolProperty(name="Run morphkit pack", default=False,
                           description="Pack the folder into <folder>.glb beside it")
    tool: StringProperty(name="morphkit", default="morphkit",
                         description="The morphkit program (a name on PATH or a path)")

    def invoke(self, context, event):
        context.window_manager.fileselect_add(self)
        return {'RUNNING_MODAL'}

    def execute(self, context):
        directory = bpy.path.abspath(self.directory).rstrip("/\\")
        if not directory:
            self.report({'ERROR'}, "no folder given")
            return {'CANCELLED'}
        os.makedirs(directory, exist_ok=True)
        meshes = export_meshes(context, self.selected_only)
        if not meshes:
            self.report({'ERROR'}, "no mesh to export")
            return {'CANCELLED'}
        owners = anim_owners(meshes)
        scene = context.scene
        if self.source == 'ACTIONS':
            clips = clips_from_actions(owners)
        elif self.source == 'NLA':
            clips = clips_from_nla(owners, scene)
        else:
            clips = clips_from_markers(owners, scene)
        if not clips:
            self.report({'ERROR'}, "no animation found (source: %s)" % self.source)
            return {'CANCELLED'}
        if self.frames == 'ALL':
            for c in clips:
                c.keys = set(range(c.start, c.end + 1))
        restore = Restore(owners)
        old_frame = scene.frame_current
        old_sel = {o: o.select_get() for o in scene.objects}
        cfg = ["# written by the Blender add-on \"Export morphkit unit\" from %s"
               % (os.path.basename(bpy.data.filepath) or "an unsaved scene")]
        total = 0
        try:
            for o in scene.objects:
                o.select_set(o in meshes)
            for c in clips:
                restore.reset_values()
                lines, n = export_clip(self, context, c, meshes, directory)
                cfg += lines
                total += n
        finally:
            restore()
            for o, s in old_sel.items():
                o.select_set(s)
            scene.frame_set(old_frame)
        with open(os.path.join(directory, "animation.cfg"), "w") as f:
            f.write("\n".join(cfg) + "\n")
        summary = "wrote %d animations, %d frames to %s" % (len(clips), total, directory)
        report, failed = [summary], False
        if self.run_validate:
            code, text = run_tool([self.tool, "validate", directory])
            report += ["$ morphkit validate", text]
            failed |= code != 0
        if self.run_pack:
            code, text = run_tool([self.tool, "pack", directory, "-o", directory + ".glb"])
            report += ["$ morphkit pack", text or "wrote " + directory + ".glb"]
            failed |= code != 0
        txt = bpy.data.texts.get(REPORT_TEXT) or bpy.data.texts.new(REPORT_TEXT)
        txt.from_string("\n".join(report) + "\n")
        self.report({'WARNING'} if failed else {'INFO'},
                    summary + ("; morphkit reported problems (see the text '%s')" % REPORT_TEXT
                               if failed else ""))
        return {'FINISHED'}

    def draw(self, context):
        layout = self.layout
        for prop in ("source", "frames", "selected_only", "forward_axis", "up_axis",
                     "global_scale", "export_normals", "export_uv", "export_materials",
                     "run_validate", "run_pack", "tool"):
            layout.prop(self, prop)


def menu_func(self, context):
    self.layout.operator(EXPORT_SCENE_OT_morphkit_unit.bl_idname, text="morphkit unit (folder of .obj)")


def register():
    bpy.utils.register_class(EXPORT_SCENE_OT_morphkit_unit)
    bpy.types.TOPBAR_MT_file_export.append(menu_func)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_func)
    bpy.utils.unregister_class(EXPORT_SCENE_OT_morphkit_unit)


if __name__ == "__main__":
    register()
