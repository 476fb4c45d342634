#!/bin/bash
# Skinned glTF in the tool: sample --space world (hand-computed on
# SimpleSkin), info's skins and what animations drive, validate's skin
# checks on hand-broken copies, and the usage errors of --space.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
D=$SRC/tests/data/gltf

# arr NAME K: the numbers of the K-th `"NAME": [...]` array in $out, one a line
arr() { printf '%s' "$out" | grep -o "\"$1\": \[[^]]*\]" | sed -n "${2}p" | sed 's/.*\[//; s/\]//' | tr ',' '\n' | tr -d ' '; }
near() { # near NAME K INDEX WANT TOL
    local got
    got=$(arr "$1" "$2" | sed -n "$(($3 + 1))p")
    awk -v g="$got" -v w="$4" -v t="$5" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }' ||
        { echo "FAIL: $1[$3] of entry $2 is '$got', expected $4 +- $5"; fails=$((fails + 1)); }
}

# ---- sample --space world: SimpleSkin --------------------------------------
# Joint 0 (node 1) at the origin, joint 1 (node 2) at (0, 1, 0); inverse
# binds undo those. At t = 1 s joint 1's rotation key is (0, 0, .707, .707):
# 90 degrees about z, so J1 = T(0,1,0) Rz90 T(0,-1,0) and J0 = I. Every
# vertex has joints (0, 1):
#   v2 (-0.5, 0.5) weights (.75, .25): J1 gives (0.5, 0.5), mean (-0.25, 0.5)
#   v4 (-0.5, 1.0) weights (.5, .5):   J1 gives (0, 0.5),   mean (-0.25, 0.75)
#   v8 (-0.5, 2.0) weights (0, 1):     J1 gives (-1, 0.5)
# At t = 0 the key is the identity: the bind pose, positions as stored.
expect 0 sample "$D/SimpleSkin/glTF/SimpleSkin.gltf" --time 1 --time 0 --json --space world
has "$out" '"space": "world"'
has "$out" '"skin": 0'
near positions 1 6 -0.25 1e-5
near positions 1 7 0.5 1e-5
near positions 1 12 -0.25 1e-5
near positions 1 13 0.75 1e-5
near positions 1 24 -1 1e-5
near positions 1 25 0.5 1e-5
near positions 2 24 -0.5 1e-6
near positions 2 25 2 1e-6
# The default stays local: morph only, no skin, no "space".
expect 0 sample "$D/SimpleSkin/glTF/SimpleSkin.gltf" --time 1 --json
near positions 1 24 -0.5 0
near positions 1 25 2 0
if printf '%s' "$out" | grep -q '"space"'; then echo "FAIL: local output names a space"; fails=$((fails + 1)); fi
# Not skinned: the entries say skin null.
expect 0 sample "$D/BoxAnimated/glTF-Binary/BoxAnimated.glb" --time 0 --json --space world
has "$out" '"skin": null'
expect 2 sample "$D/SimpleSkin/glTF/SimpleSkin.gltf" --time 1 --space world
has "$err" "--space world is for a .gltf/.glb file with --json"
expect 2 sample "$D/SimpleSkin/glTF/SimpleSkin.gltf" --time 1 --json --space up
has "$err" "--space wants local or world"

# HybridBar: morph targets under a skin. Vertex 8 (-0.5, 2, 0): the default
# weights (0.5, 0.25, 0) widen it by 0.5*0.2 + 0.25*0.4 = 0.2 to (-0.7, 2);
# at 1 s joint 1 is turned 45 degrees about (0, 1): (-0.7, 1) turns to
# (-1.7 c, 0.3 c) with c = cos 45, so (-1.2020815, 1.2121320).
expect 0 sample "$SRC/tests/data/gltf/HybridBar/HybridBar.gltf" --time 1 --json --space world
near positions 1 24 -1.2020815 1e-5
near positions 1 25 1.2121320 1e-5

# ---- info ------------------------------------------------------------------
expect 0 info "$D/RiggedFigure/glTF-Binary/RiggedFigure.glb"
has "$out" "skins:      1"
has "$out" "19 joints, 4 influences per vertex, inverse binds given, used by node 1"
has "$out" "drives joints"
expect 0 info --json "$D/SimpleSkin/glTF/SimpleSkin.gltf"
has "$out" '"skins": ['
has "$out" '{"skin": 0, "name": null, "joints": 2, "influences": 4, "inverse_bind_matrices": true, "skeleton": null, "nodes": [0]}'
has "$out" '"drives": ["joints"]'
expect 0 info --json "$D/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb"
has "$out" '"drives": ["weights"]'
has "$out" '"skins": []'

# ---- validate --------------------------------------------------------------
expect 0 validate "$D/SimpleSkin/glTF/SimpleSkin.gltf"
has "$out" "ok:"
# A copy whose skin lists one joint only: JOINTS_0 holds 1.
mkdir -p "$TMP/one"
cp "$D"/SimpleSkin/glTF/*.bin "$TMP/one/"
sed 's/"joints" *: *\[ *1, *2 *\]/"joints":[1]/' "$D/SimpleSkin/glTF/SimpleSkin.gltf" > "$TMP/one/s.gltf"
grep -q '"joints":\[1\]' "$TMP/one/s.gltf" || { echo "FAIL: could not edit the copy"; fails=$((fails + 1)); }
expect 1 validate "$TMP/one/s.gltf"
has "$out" "JOINTS_0: joint index 1 is not below the 1 joints of skin 0"
# A joint that is not a node.
sed 's/"joints" *: *\[ *1, *2 *\]/"joints":[1,7]/' "$D/SimpleSkin/glTF/SimpleSkin.gltf" > "$TMP/one/n.gltf"
expect 1 validate "$TMP/one/n.gltf"
has "$out" "skins[0]: joints[1] is not one of the 3 nodes"
# Inverse bind matrices that are all zero: not invertible.
mkdir -p "$TMP/zero"
cp "$D"/SimpleSkin/glTF/*.gltf "$D"/SimpleSkin/glTF/*.bin "$TMP/zero/"
head -c 128 /dev/zero > "$TMP/zero/inverseBindMatrices.bin"
expect 1 validate "$TMP/zero/SimpleSkin.gltf"
has "$out" "skins[0]: inverse bind matrix 0 (joint node 1) is not invertible"
# HybridBar with its weights halved (a warning: morphkit normalizes them)
# and with one weight negative (an error).
python3 - "$SRC/tests/data/gltf/HybridBar/HybridBar.gltf" "$TMP" <<'PY'
import base64, json, struct, sys
doc = json.load(open(sys.argv[1]))
for name, scale, neg in (("half", 0.5, False), ("neg", 1.0, True)):
    d = json.loads(json.dumps(doc))
    buf = bytearray(base64.b64decode(d["buffers"][0]["uri"].split(",")[1]))
    acc = d["accessors"][d["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"]]
    off = d["bufferViews"][acc["bufferView"]]["byteOffset"]
    for i in range(acc["count"] * 4):
        v = struct.unpack_from("<f", buf, off + 4 * i)[0] * scale
        struct.pack_into("<f", buf, off + 4 * i, -0.25 if neg and i == 9 else v)
    d["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(bytes(buf)).decode()
    json.dump(d, open(sys.argv[2] + "/" + name + ".gltf", "w"))
PY
expect 0 validate "$TMP/half.gltf"
has "$out" "1 warning"
expect 0 validate --json "$TMP/half.gltf"
has "$out" "the skin weights of 10 of 10 vertices do not sum to 1"
expect 1 validate "$TMP/neg.gltf"
has "$out" "vertex 2 influence 1: weight -0.25 is negative"
finish
