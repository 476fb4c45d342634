#!/bin/bash
# morphkit sample / info / validate on glTF files: the sample models in
# tests/data/gltf against the values tests/test_gltf_samples.c derived by hand
# (and with a few lines of Python from the .bin files), hand-made broken and
# suspicious files, and the error exits.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
D=$SRC/tests/data/gltf

# arr NAME K: the numbers of the K-th (1-based) `"NAME": [...]` array in $out, one a line
arr() { printf '%s' "$out" | grep -o "\"$1\": \[[^]]*\]" | sed -n "${2}p" | sed 's/.*\[//; s/\]//' | tr ',' '\n' | tr -d ' '; }
# near NAME K INDEX WANT TOL: element INDEX (0-based) of that array is WANT within TOL
near() {
    local got
    got=$(arr "$1" "$2" | sed -n "$(($3 + 1))p")
    awk -v g="$got" -v w="$4" -v t="$5" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }' ||
        { echo "FAIL: $1[$3] of entry $2 is '$got', expected $4 +- $5"; fails=$((fails + 1)); }
}
count() { # count NAME K WANT: the array has WANT numbers
    local n
    n=$(arr "$1" "$2" | grep -c .)
    [ "$n" = "$3" ] || { echo "FAIL: $1 of entry $2 has $n numbers, expected $3"; fails=$((fails + 1)); }
}
hasnt() {
    if printf '%s' "$1" | grep -qF -- "$2"; then
        echo "FAIL: output contains '$2'"; fails=$((fails + 1))
    fi
}

# ---- sample --json ---------------------------------------------------------
# SimpleMorph: keys 0..4 s, weights (0,0) (0,1) (1,1) (1,0) (0,0); at 1.5 s
# w = (0.5, 1), vertex 2 = (0.5,0.5,0) + 0.5 (-1,1,0) + (1,1,0) = (1, 2, 0).
for f in glTF/SimpleMorph.gltf glTF-Embedded/SimpleMorph.gltf; do
    expect 0 sample "$D/SimpleMorph/$f" --time 1.5 --json
    has "$out" '"time": 1.5, "animation": null, "animation_index": 0,'   # unnamed: null and the index
    has "$out" '{"node": 0, "mesh": 0, "primitive": 0, "name": null'
    has "$out" '"weights": [0.5, 1]'
    has "$out" '"positions": [0, 0, 0, 1, 0, 0, 1, 2, 0]'
    hasnt "$out" '"normals"'
    hasnt "$out" '"frame"'
    hasnt "$out" '"weight":'
done
# before the first key and after the last the end values hold (both (0, 0))
expect 0 sample "$D/SimpleMorph/glTF/SimpleMorph.gltf" --time 0 --time 99 --json
has "$out" '"time": 99,'
near weights 2 1 0 0
near positions 2 7 0.5 0

# AnimatedMorphCube "Square": LINEAR, 127 keys; at 2.5 s w = (0.441, 0.559);
# vertex 5 = (-0.00999999, 0.00946822, -0.01); normal 12 = (0, -0.904760, -0.425922);
# tangent 12 = (1, 0, 0, 1) (the tangent deltas are zero there).
for f in glTF/AnimatedMorphCube.gltf glTF-Binary/AnimatedMorphCube.glb; do
    expect 0 sample "$D/AnimatedMorphCube/$f" --time 2.5 --json
    has "$out" '"animation": "Square"'
    has "$out" '"name": "Cube", "node_name": "AnimatedMorphCube"'
    near weights 1 0 0.441 2e-5
    near weights 1 1 0.559 2e-5
    count positions 1 72
    count normals 1 72
    count tangents 1 96
    near positions 1 15 -0.00999999 1e-7
    near positions 1 16 0.00946822 1e-6
    near positions 1 17 -0.01 1e-7
    near normals 1 36 0 1e-6
    near normals 1 37 -0.904760 2e-5
    near normals 1 38 -0.425922 2e-5
    near tangents 1 48 1 1e-6
    near tangents 1 51 1 0
done
# by name and by index; after the last key (4.2 s): (0, -1.5258789e-07)
expect 0 sample "$D/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf" --anim Square --time 9 --json
near weights 1 0 0 1e-9
near weights 1 1 -1.5258789e-07 1e-12
expect 0 sample "$D/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf" --anim 0 --time 2.5 --json
near weights 1 1 0.559 2e-5
# quantized: u8n weights are keys 112/255 and 143/255 at 2.5 s; vertex 5's
# y = 5451 + 112/255 5188 + 143/255 5451 = 10786.486 (u16 / i16 positions)
expect 0 sample "$D/AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf" --time 2.5 --json
near weights 1 0 0.4392157 1e-6
near weights 1 1 0.5607843 1e-6
near positions 1 16 10786.486 2e-3
near normals 1 37 -0.903273 2e-5
near normals 1 38 -0.429066 2e-5
hasnt "$out" '"tangents"'

# MorphPrimitivesTest: no animation, mesh.weights [0.5] on node 1's two
# primitives; the targets lift vertices 0.2 in y: prim 0 vertex 13
# (-0.25,0,0.25) -> (-0.25,0.1,0.25), prim 1 vertex 5 (0,0,0) -> (0,0.1,0).
for f in glTF/MorphPrimitivesTest.gltf glTF-Binary/MorphPrimitivesTest.glb; do
    expect 0 sample "$D/MorphPrimitivesTest/$f" --time 0 --json
    has "$out" '"animation": null'
    has "$out" '{"node": 1, "mesh": 0, "primitive": 0,'
    has "$out" '{"node": 1, "mesh": 0, "primitive": 1,'
    near weights 1 0 0.5 0
    near weights 2 0 0.5 0
    count positions 1 63
    count positions 2 27
    near positions 1 39 -0.25 1e-7
    near positions 1 40 0.1 1e-7
    near positions 1 41 0.25 1e-7
    near positions 1 0 -0.5 0
    near positions 2 16 0.1 1e-7
done
expect 0 sample "$D/MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf" --time 1 --time 2
has "$out" "(default weights)"
has "$out" "0.500000"
expect 2 sample "$D/MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf" --anim 0 --time 0
has "$err" "has no animations"

# text table: time, animation, node/mesh/primitive, weights
expect 0 sample "$D/SimpleMorph/glTF/SimpleMorph.gltf" --time 1.5 --time 2.5
has "$out" "time         animation             node  mesh  prim  weights"
has "$out" "0.500000 1.000000"
has "$out" "1.000000 0.500000"
# a name with any case of the extension is glTF
cp "$D/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb" "$TMP/CUBE.GLB"
expect 0 sample "$TMP/CUBE.GLB" --time 2.5
has "$out" "Square"

# ---- sample: usage and input errors ----------------------------------------
expect 2 sample "$D/SimpleMorph/glTF/SimpleMorph.gltf" --then Other@1 --time 1
has "$err" "--then is meaningless for glTF"
expect 2 sample "$D/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf" --anim Nope --time 1
has "$err" "has no animation 'Nope'; it has: 0 (Square)"
expect 2 sample "$D/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf" --anim 1 --time 1
expect 1 sample "$TMP/missing.glb" --time 0
has "$err" "morphkit: $TMP/missing.glb: no such file or folder"

# ---- broken and suspicious files ---------------------------------------------
cp "$D/SimpleMorph/glTF/"*.bin "$TMP/"
g=$D/SimpleMorph/glTF/SimpleMorph.gltf
# mesh.weights with 3 entries for 2 targets
sed '0,/"weights":\[/s//"weights":[0.25,/' "$g" > "$TMP/weights.gltf"
expect 1 sample "$TMP/weights.gltf" --time 0
has "$err" "morphkit: $TMP/weights.gltf: meshes[0]"
expect 1 validate "$TMP/weights.gltf"
has "$out" "$TMP/weights.gltf: INVALID: 1 error, 0 warnings"
has "$out" "error[gltf]: $TMP/weights.gltf: meshes[0]"
# a weights output that is one value short for 5 keys x 2 targets
sed 's/"count":10/"count":9/' "$g" > "$TMP/output.gltf"
expect 1 validate "$TMP/output.gltf"
has "$out" "animations[0].channels[0]: output accessor 5 has 9 elements, 5 keys need 10"
expect 1 validate --json "$TMP/output.gltf"
has "$out" '"format": "gltf", "valid": false, "errors": 1'
has "$out" '"check": "gltf"'
has "$out" '"valid": false}'
# broken JSON, a missing .bin, a missing file
head -c 300 "$g" > "$TMP/trunc.gltf"
expect 1 validate "$TMP/trunc.gltf"
has "$out" "invalid JSON"
sed 's/simpleMorphAnimation.bin/gone.bin/' "$g" > "$TMP/nobin.gltf"
expect 1 validate "$TMP/nobin.gltf"
has "$out" "buffers[1]"
expect 1 info "$TMP/trunc.gltf"
has "$err" "morphkit: $TMP/trunc.gltf:"
expect 1 validate "$TMP/missing.gltf"
has "$err" "no such file or folder"

# Loads, but: a target that moves nothing (an accessor without bufferView
# reads as zeros), a mesh no node uses, an unused sampler, a channel without
# a node, two channels on the same node and path. node.weights [2] beats
# mesh 1's default.
cat > "$TMP/warn.gltf" <<'EOF'
{
  "asset": {"version": "2.0"},
  "scenes": [{"nodes": [0, 1]}],
  "nodes": [{"mesh": 0, "name": "tri"}, {"mesh": 1, "weights": [2]}],
  "meshes": [
    {"name": "morph", "primitives": [{"attributes": {"POSITION": 1}, "targets": [{"POSITION": 2}, {"POSITION": 3}], "indices": 0}],
     "weights": [0.5, 0.5]},
    {"name": "flat", "primitives": [{"attributes": {"POSITION": 1}, "targets": [{"POSITION": 6}]}],
     "extras": {"targetNames": ["nothing"]}},
    {"primitives": [{"attributes": {"POSITION": 1}}]}
  ],
  "animations": [{
    "name": "Go",
    "samplers": [{"input": 4, "output": 5}, {"input": 4, "output": 5, "interpolation": "STEP"}],
    "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}},
                 {"sampler": 0, "target": {"node": 0, "path": "weights"}},
                 {"sampler": 0, "target": {"path": "weights"}}]
  }],
  "buffers": [{"uri": "simpleMorphGeometry.bin", "byteLength": 116},
              {"uri": "simpleMorphAnimation.bin", "byteLength": 60}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 6},
                  {"buffer": 0, "byteOffset": 8, "byteLength": 108, "byteStride": 12},
                  {"buffer": 1, "byteOffset": 0, "byteLength": 20},
                  {"buffer": 1, "byteOffset": 20, "byteLength": 40}],
  "accessors": [
    {"bufferView": 0, "componentType": 5123, "count": 3, "type": "SCALAR"},
    {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 0.5, 0]},
    {"bufferView": 1, "byteOffset": 36, "componentType": 5126, "count": 3, "type": "VEC3"},
    {"bufferView": 1, "byteOffset": 72, "componentType": 5126, "count": 3, "type": "VEC3"},
    {"bufferView": 2, "componentType": 5126, "count": 5, "type": "SCALAR", "min": [0], "max": [4]},
    {"bufferView": 3, "componentType": 5126, "count": 10, "type": "SCALAR"},
    {"componentType": 5126, "count": 3, "type": "VEC3"}
  ]
}
EOF
expect 0 validate "$TMP/warn.gltf"
has "$out" "$TMP/warn.gltf: ok: 3 meshes, 3 primitives, 9 vertices, 3 morph targets, 1 animation, 5 warnings"
has "$out" "warning[zero-target]: $TMP/warn.gltf: meshes[1].targets[0] ('nothing'): all its deltas are zero"
has "$out" "warning[unused-mesh]: $TMP/warn.gltf: meshes[2]: no node uses it"
has "$out" "warning[unused-sampler]: $TMP/warn.gltf: animations[0].samplers[1]: no channel uses it"
has "$out" "warning[ignored-channel]: $TMP/warn.gltf: animations[0].channels[2]: target.node is not given"
has "$out" "warning[duplicate-target]: $TMP/warn.gltf: animations[0].channels[1]: animates the weights of node 0 like channels[0]"
expect 0 validate --quiet "$TMP/warn.gltf"
hasnt "$out" ": ok:"
has "$out" "warning[unused-mesh]"
expect 0 validate --json "$TMP/warn.gltf"
has "$out" '"valid": true, "errors": 0, "warnings": 5'
has "$out" '"animations": [{"name": "Go", "channels": 3}]'
# sample: node 0 animated (1.5 s: (0.5, 1)), node 1 keeps node.weights [2]
expect 0 sample "$TMP/warn.gltf" --time 1.5 --json
has "$out" '"animation": "Go"'
has "$out" '{"node": 0, "mesh": 0, "primitive": 0, "name": "morph", "node_name": "tri", "weights": [0.5, 1]'
has "$out" '{"node": 1, "mesh": 1, "primitive": 0, "name": "flat", "node_name": null, "weights": [2]'
near positions 2 7 0.5 0

# a unit folder and glTF files in one validate run: one report, exit 1 for the bad one
expect 1 validate "$SRC/assets/demo/wing" "$D/SimpleMorph/glTF/SimpleMorph.gltf" "$TMP/output.gltf"
has "$out" "wing: ok"
has "$out" "SimpleMorph.gltf: ok: 1 mesh, 1 primitive, 3 vertices, 2 morph targets, 1 animation, 0 warnings"
has "$out" "output.gltf: INVALID"
expect 0 validate "$D"/*/glTF*/*.gl*

# ---- info ----------------------------------------------------------------------
expect 0 info "$D/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf"
has "$out" "glTF $D/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf (JSON, 1 buffer"
has "$out" 'mesh 0 "Cube": 1 primitive, 2 targets, default weights [0 0]'
has "$out" "primitive 0: 24 vertices, TRIANGLES, 36 indices, POSITION NORMAL TANGENT; targets move POSITION NORMAL TANGENT"
has "$out" 'node 0 "AnimatedMorphCube": mesh 0, weights [0 0] (mesh.weights)'
has "$out" 'animation 0 "Square": 4.2 s, 1 channel, 1 sampler'
has "$out" "channel 0: node 0     weights     linear      127 keys, ends at 4.2 s"
expect 0 info "$D/AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf"
has "$out" "KHR_mesh_quantization"
expect 0 info "$D/MorphPrimitivesTest/glTF-Binary/MorphPrimitivesTest.glb"
has "$out" "(GLB, 1 buffer"
has "$out" "primitive 1: 9 vertices, TRIANGLES, 24 indices, POSITION NORMAL TEXCOORD_0; targets move POSITION"
has "$out" "animations: 0"
expect 0 info "$D/InterpolationTest/glTF/InterpolationTest.gltf"
has "$out" 'animation 2 "CubicSpline Scale": 1.66667 s'
has "$out" "channel 0: node 4     scale       cubicspline 5 keys"
expect 0 info "$TMP/warn.gltf"
has "$out" "target names: 0:nothing"
has "$out" 'node 1 (unnamed): mesh 1, weights [2] (node.weights)'
has "$out" "channel 2: (no node)  weights"
expect 0 info --json "$D/SimpleMorph/glTF/SimpleMorph.gltf"
has "$out" '"format": "gltf"'
has "$out" '"targets": 2, "target_names": null, "weights": [0.5, 0.5], "weights_given": true'
has "$out" '{"primitive": 0, "vertices": 3, "mode": "TRIANGLES", "indices": 3, "attributes": ["POSITION"], "target_attributes": ["POSITION"]}'
has "$out" '"weights_from": "mesh.weights"'
has "$out" '"duration": 4, "samplers": 1'
has "$out" '{"node": 0, "path": "weights", "interpolation": "linear", "sampler": 0, "keys": 5, "end": 4}'
expect 0 info --help
has "$out" ".gltf/.glb"
expect 0 validate --help
has "$out" ".gltf/.glb"
expect 0 sample --help
has "$out" "glTF"
finish
