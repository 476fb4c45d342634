#!/usr/bin/env python3
"""Writes HybridBar.gltf: the smallest "hybrid" character morphkit tests.

A bar of 10 vertices (x = +-0.5, y = 0, 0.5, 1, 1.5, 2, normals +z) on a
two-joint skin (joint 0 = node 1 at the origin, joint 1 = node 2 at
(0, 1, 0), its child; weights (1 - y/2, y/2)), with 3 morph targets that
are "frames" of a pulse (target t widens the bar by 0.1 (t + 1) y in x),
mesh.weights (0.5, 0.25, 0), extras.targetNames Pulse_1..3, and one
animation "Sway" that turns joint 1 about z: 0 s identity, 1 s 45 degrees,
2 s identity (LINEAR). Everything in one embedded base64 buffer.
Written for morphkit's tests; CC0."""
import base64, json, math, struct

xs, ys = (-0.5, 0.5), (0.0, 0.5, 1.0, 1.5, 2.0)
pos = [(x, y, 0.0) for y in ys for x in xs]
nrm = [(0.0, 0.0, 1.0)] * len(pos)
idx = []
for r in range(len(ys) - 1):
    a, b, c, d = 2 * r, 2 * r + 1, 2 * r + 2, 2 * r + 3
    idx += [a, b, d, a, d, c]
targets = [[(math.copysign(0.1 * (t + 1) * p[1], p[0]), 0.0, 0.0) for p in pos] for t in range(3)]
joints = [(0, 1, 0, 0)] * len(pos)
weights = [(1 - p[1] / 2, p[1] / 2, 0.0, 0.0) for p in pos]
ibm = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1]
times = [0.0, 1.0, 2.0]
s = math.sin(math.pi / 8)
rots = [(0, 0, 0, 1), (0, 0, s, math.cos(math.pi / 8)), (0, 0, 0, 1)]

buf, views, accessors = b"", [], []
def add(data, fmt, count, type_, ctype, minmax=None, target=None):
    global buf
    while len(buf) % 4:
        buf += b"\0"
    view = {"buffer": 0, "byteOffset": len(buf), "byteLength": len(data)}
    if target:
        view["target"] = target
    buf += data
    views.append(view)
    acc = {"bufferView": len(views) - 1, "componentType": ctype, "count": count, "type": type_}
    if minmax:
        acc["min"], acc["max"] = minmax
    accessors.append(acc)
    return len(accessors) - 1
def vec3(vs, bounds=False):
    mm = None
    if bounds:
        mm = ([min(v[i] for v in vs) for i in range(3)], [max(v[i] for v in vs) for i in range(3)])
    return add(b"".join(struct.pack("<3f", *v) for v in vs), None, len(vs), "VEC3", 5126, mm, 34962)

a_pos = vec3(pos, True)
a_nrm = vec3(nrm)
a_tg = [vec3(t, True) for t in targets]
a_j = add(b"".join(struct.pack("<4B", *j) for j in joints), None, len(pos), "VEC4", 5121, None, 34962)
a_w = add(b"".join(struct.pack("<4f", *w) for w in weights), None, len(pos), "VEC4", 5126, None, 34962)
a_idx = add(b"".join(struct.pack("<H", i) for i in idx) + b"\0\0" * (len(idx) % 2), None, len(idx), "SCALAR", 5123, None, 34963)
accessors[a_idx]["count"] = len(idx)
views[-1]["byteLength"] = 2 * len(idx)
a_ibm = add(struct.pack("<32f", *ibm), None, 2, "MAT4", 5126)
a_t = add(struct.pack("<3f", *times), None, 3, "SCALAR", 5126, ([0.0], [2.0]))
a_r = add(b"".join(struct.pack("<4f", *q) for q in rots), None, 3, "VEC4", 5126)

doc = {
    "asset": {"version": "2.0", "generator": "morphkit tests/data/gltf/HybridBar/make_hybrid_bar.py",
              "copyright": "CC0-1.0"},
    "scene": 0,
    "scenes": [{"nodes": [0, 1]}],
    "nodes": [{"name": "bar", "mesh": 0, "skin": 0},
              {"name": "root", "children": [2]},
              {"name": "top", "translation": [0, 1, 0]}],
    "meshes": [{"name": "bar", "weights": [0.5, 0.25, 0.0],
                "extras": {"targetNames": ["Pulse_1", "Pulse_2", "Pulse_3"]},
                "primitives": [{"attributes": {"POSITION": a_pos, "NORMAL": a_nrm, "JOINTS_0": a_j,
                                               "WEIGHTS_0": a_w},
                                "indices": a_idx,
                                "targets": [{"POSITION": a} for a in a_tg]}]}],
    "skins": [{"name": "rig", "joints": [1, 2], "inverseBindMatrices": a_ibm, "skeleton": 1}],
    "animations": [{"name": "Sway", "samplers": [{"input": a_t, "output": a_r}],
                    "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}]}],
    "buffers": [{"byteLength": len(buf),
                 "uri": "data:application/octet-stream;base64," + base64.b64encode(buf).decode()}],
    "bufferViews": views,
    "accessors": accessors,
}
with open("HybridBar.gltf", "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
