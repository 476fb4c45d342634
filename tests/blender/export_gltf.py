"""Blender's glTF exporter on the hybrid scene (scene.hybrid_scene: skinned
tube, armature and shape-key NLA tracks named Bend): writes OUT/hybrid.glb
with shape keys, skinning and animations grouped by NLA track (the
settings docs/blender.md gives), and OUT/weights.txt: for frames 1..12 at
24 fps, the time frame/24 s (glTF time = frame / fps) and the Up value
Blender evaluates there.
usage: blender -b --factory-startup --python export_gltf.py -- OUT"""
import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene  # noqa: E402

out = sys.argv[sys.argv.index("--") + 1]
bpy.context.scene.render.fps = 24
tube, arm, key = scene.hybrid_scene()
bpy.ops.export_scene.gltf(filepath=os.path.join(out, "hybrid.glb"), export_format='GLB',
                          export_morph=True, export_skins=True, export_animations=True,
                          export_nla_strips=True)
with open(os.path.join(out, "weights.txt"), "w") as f:
    for frame in range(1, 13):
        bpy.context.scene.frame_set(frame)
        f.write("%.9g %.9g\n" % (frame / 24, key.key_blocks["Up"].value))
