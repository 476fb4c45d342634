#!/bin/bash
# Blender's glTF exporter, for the hybrid path (docs/blender.md): a tube
# skinned to two bones with a shape key, armature and shape-key NLA tracks
# of one name. The .glb validates with no warning, the two tracks named Bend
# are one animation with the weights channel, and `sample` gives the shape
# key's value Blender evaluates at every frame time (an eased curve, so a
# wrong time mapping shows), and vertex 1 moved by it (x = 0.5 (1 + w/2)).
# Skipped without Blender or without NumPy, which Blender's glTF exporter
# needs (Debian packages 'blender', 'python3-numpy').
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
if ! command -v blender >/dev/null; then
    echo "SKIP: blender is not installed (Debian package 'blender')"; exit 77
fi
if ! blender -b --factory-startup --python-exit-code 1 --python-expr "import numpy" >/dev/null 2>&1; then
    echo "SKIP: Blender's glTF exporter needs NumPy (Debian package 'python3-numpy')"; exit 77
fi
blender -b --factory-startup --python-exit-code 1 --python "$SRC/tests/blender/export_gltf.py" \
    -- "$TMP" >"$TMP/blender.log" 2>&1 || { echo "FAIL: blender:"; tail -20 "$TMP/blender.log"; exit 1; }

g=$TMP/hybrid.glb
expect 0 validate "$g"
has "$out" "ok: 1 mesh, 1 primitive, 45 vertices, 1 morph target, 2 animations, 0 warnings"
expect 0 info "$g"
has "$out" "target names: 0:Up"
has "$out" 'animation 0 "Bend": 0.5 s, 7 channels'
has "$out" "weights     linear      12 keys, ends at 0.5 s"
has "$out" 'animation 1 "Twist": 1.25 s, 6 channels'

while read -r t w; do
    expect 0 sample "$g" --anim Bend --time "$t" --json
    got=$(printf '%s' "$out" | grep -o '"weights": \[[^]]*' | sed 's/.*\[//')
    x=$(printf '%s' "$out" | grep -o '"positions": \[[^,]*' | sed 's/.*\[//')
    awk -v a="$got" -v b="$w" -v x="$x" 'BEGIN { d = a - b; e = x - 0.5 * (1 + b / 2);
        exit !(d < 1e-6 && d > -1e-6 && e < 1e-6 && e > -1e-6) }' \
        || { echo "FAIL: at $t s weight $got, x $x; Blender: weight $w"; fails=$((fails + 1)); }
done < "$TMP/weights.txt"
finish
