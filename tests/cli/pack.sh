#!/bin/bash
# morphkit pack: folder -> .glb, then validate/info/sample on the .glb give
# what they give on the folder (sample: the same JSON, numbers within the
# float rounding of base + delta); invalid units are not packed; outputs are
# replaced atomically (a failing write leaves the old file and no temp file).
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
DEMO=$SRC/assets/demo

# same_json A B [TOL]: identical text once numbers are blanked, numbers within TOL (1e-6)
same_json() {
    local tol=${3:-1e-6}
    if [ "$(sed 's/-\{0,1\}[0-9][0-9.e+-]*/N/g' <<<"$1")" != "$(sed 's/-\{0,1\}[0-9][0-9.e+-]*/N/g' <<<"$2")" ]; then
        echo "FAIL: sample output differs in structure"; diff <(echo "$1") <(echo "$2") | head -5
        fails=$((fails + 1)); return
    fi
    paste <(grep -o -- '-\{0,1\}[0-9][0-9.e+-]*' <<<"$1") <(grep -o -- '-\{0,1\}[0-9][0-9.e+-]*' <<<"$2") |
        awk -v tol="$tol" '{ d = $1 - $2; if (d < 0) d = -d; if (d > tol) { print "FAIL: " $1 " vs " $2; bad = 1 } } END { exit bad }' ||
        fails=$((fails + 1))
}

# ---- one unit -------------------------------------------------------------
# --plain: float data, read back within float rounding
expect 0 pack "$DEMO/knight" -o "$TMP/knight.glb" --plain
has "$out" "knight.glb"
has "$out" "15       14"        # frames, targets
has "$out" "float"
# the default: quantized, 13 bits keep the error under 1e-4 of the size
expect 0 pack "$DEMO/knight" -o "$TMP/knight_q.glb"
has "$out" "   13 "
err_rel=$(printf '%s\n' "$out" | tail -1 | awk '{ print $(NF - 1) }')   # "of size"; then "normals"
has "$out" " stored"
awk -v e="$err_rel" 'BEGIN { exit !(e > 0 && e <= 1e-4) }' || { echo "FAIL: relative error $err_rel"; fails=$((fails + 1)); }
expect 0 pack "$DEMO/knight" -o "$TMP/knight_b8.glb" --bits 8
has "$out" "    8 "
expect 2 pack "$DEMO/knight" -o "$TMP/x.glb" --bits 16
expect 2 pack "$DEMO/knight" -o "$TMP/x.glb" --normal-bits 9
expect 2 pack "$DEMO/knight" -o "$TMP/x.glb" --max-error 0
[ -f "$TMP/knight.glb" ] || { echo "FAIL: no knight.glb"; fails=$((fails + 1)); }
[ "$(head -c 4 "$TMP/knight.glb")" = "glTF" ] || { echo "FAIL: not a GLB"; fails=$((fails + 1)); }
ls "$TMP" | grep -q tmp && { echo "FAIL: a temporary file was left"; fails=$((fails + 1)); }

T="--time 0 --time 0.05 --time 0.15 --time 0.349 --time 0.351 --time 0.43 --time 0.6 --time 0.83 --time 0.9 --time 2.5 --time 7.77"
for args in "--anim Attack" "--anim Walk" "--anim Idle --then Attack@0.3 --then Walk@1.2" "--anim Walk --then Attack@0.1"; do
    # shellcheck disable=SC2086
    expect 0 sample "$DEMO/knight" $T $args --json; a=$out
    # shellcheck disable=SC2086
    expect 0 sample "$TMP/knight.glb" $T $args --json; b=$out
    same_json "$a" "$b"
    # shellcheck disable=SC2086
    expect 0 sample "$TMP/knight_q.glb" $T $args --json
    same_json "$a" "$out" 3e-2   # 8-bit normals; positions within 4e-4
    # shellcheck disable=SC2086
    expect 0 sample "$DEMO/knight" $T $args; a=$out
    # shellcheck disable=SC2086
    expect 0 sample "$TMP/knight.glb" $T $args
    [ "$a" = "$out" ] || { echo "FAIL: sample text differs for $args"; fails=$((fails + 1)); }
done

# --flat-normals: the knight is flat shaded; packed without normals (on a
# grid two bits finer, for its small faces), smaller, and read back with
# its normals within 1 degree wherever a frame shows whole (step blending)
expect 0 pack "$DEMO/knight" -o "$TMP/knight_flat.glb" --flat-normals
has "$out" "   15 "
has "$out" " flat"
[ "$(wc -c < "$TMP/knight_flat.glb")" -lt "$(wc -c < "$TMP/knight_q.glb")" ] ||
    { echo "FAIL: the flat pack is not smaller"; fails=$((fails + 1)); }
grep -q '"NORMAL"' "$TMP/knight_flat.glb" && { echo "FAIL: NORMAL in the flat pack"; fails=$((fails + 1)); }
# shellcheck disable=SC2086
expect 0 sample "$DEMO/knight" $T --anim Attack --interpolation step --json; a=$out
# shellcheck disable=SC2086
expect 0 sample "$TMP/knight_flat.glb" $T --anim Attack --interpolation step --json
same_json "$a" "$out" 1.8e-2
# 16-bit normals are stored, flat or not
expect 0 pack "$DEMO/knight" -o "$TMP/knight_flat.glb" --flat-normals --normal-bits 16
has "$out" " stored"

expect 0 validate "$TMP/knight.glb"
has "$out" "ok: 3 animations, 15 frames, 152 vertices, 228 triangles"
expect 0 info "$TMP/knight.glb"
has "$out" "unit knight"
has "$out" "(packed: one file)"
has "$out" "Attack             5 frames  Attack_1.obj .. Attack_5.obj  830 ms, once, then Idle"
expect 0 info "$DEMO/knight" --json; a=$out
expect 0 info "$TMP/knight.glb" --json
has "$out" '"frames": 15, "normals": true, "texcoords": true'

# ---- .gltf + .bin ---------------------------------------------------------------
expect 0 pack "$DEMO/knight" -o "$TMP/knight gltf.gltf" --plain
[ -f "$TMP/knight gltf.bin" ] || { echo "FAIL: no .bin beside the .gltf"; fails=$((fails + 1)); }
grep -q '"uri":"knight%20gltf.bin"' "$TMP/knight gltf.gltf" || { echo "FAIL: buffer uri"; fails=$((fails + 1)); }
expect 0 sample "$DEMO/knight" $T --anim Walk --json; a=$out
expect 0 sample "$TMP/knight gltf.gltf" $T --anim Walk --json
same_json "$a" "$out"
expect 0 validate "$TMP/knight gltf.gltf"
has "$out" "ok: 3 animations, 15 frames"
# info counts the .bin too: disk_bytes is the two files' sizes
expect 0 info "$TMP/knight gltf.gltf"
has "$out" "(packed: the .gltf and its .bin)"
expect 0 info "$TMP/knight gltf.gltf" --json
has "$out" "\"disk_bytes\": $(( $(wc -c < "$TMP/knight gltf.gltf") + $(wc -c < "$TMP/knight gltf.bin") )),"
expect 0 pack "$DEMO/wing" -o "$TMP/wing_c.gltf" --compress
expect 0 sample "$TMP/wing_c.gltf" --time 0.45 --json
has "$out" '"animation": "Beat"'

# ---- a library, in parallel -------------------------------------------------
expect 0 pack "$DEMO" --out-dir "$TMP/lib" -j 2 --plain
has "$out" "knight.glb"
has "$out" "wing.glb"
cmp -s "$TMP/lib/knight.glb" "$TMP/knight.glb" || { echo "FAIL: library pack differs"; fails=$((fails + 1)); }
expect 0 sample "$DEMO/wing" --anim Flap $T --json; a=$out
expect 0 sample "$TMP/lib/wing.glb" --anim Flap $T --json
same_json "$a" "$out"

# ---- invalid input is not packed; the old output stays -----------------------
mkdir -p "$TMP/bad"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$TMP/bad/Walk_1.obj"
printf 'v 0 0 0\nv 1 0 0\nf 1 2 2\n' >"$TMP/bad/Walk_2.obj"
echo old >"$TMP/bad.glb"
expect 1 pack "$TMP/bad" -o "$TMP/bad.glb"
has "$out" "INVALID"
has "$out" "not packed"
has "$out" "error[vertex-count]"
[ "$(cat "$TMP/bad.glb")" = old ] || { echo "FAIL: invalid unit replaced the output"; fails=$((fails + 1)); }

# ---- materials: a missing .mtl is a warning, the unit is packed -------------------
mkdir -p "$TMP/mat"
for k in 1 2; do
    printf 'mtllib gone.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0.%d\nusemtl skin\nf 1 2 3\n' "$k" >"$TMP/mat/Walk_$k.obj"
done
expect 0 pack "$TMP/mat" -o "$TMP/mat.glb"
has "$out" "warning[file]"
has "$out" "cannot read the material library 'gone.mtl'"
grep -q '"materials":\[{"name":"skin"' "$TMP/mat.glb" || { echo "FAIL: no default material"; fails=$((fails + 1)); }

# ---- a write that fails half way (a full disk) leaves the old file ----------------
echo old >"$TMP/full.glb"
# (a file size limit of 4 KiB: the real write(2) fails with EFBIG part-way;
# SIGXFSZ is ignored so the tool sees the error instead of dying)
before=$(ls -A "$TMP" | wc -l)
out=$( (trap '' XFSZ; ulimit -f 4; "$TOOL" pack "$DEMO/wing" -o "$TMP/full.glb") 2>&1); code=$?
[ "$code" = 1 ] || { echo "FAIL: failing write exited $code"; fails=$((fails + 1)); }
has "$out" "any earlier file is unchanged"
[ "$(cat "$TMP/full.glb")" = old ] || { echo "FAIL: failed write replaced the output"; fails=$((fails + 1)); }
[ "$(ls -A "$TMP" | wc -l)" = "$before" ] || { echo "FAIL: temporary file left after a failed write"; ls -A "$TMP"; fails=$((fails + 1)); }
# an output folder that does not exist: the old file elsewhere is not touched, exit 1
expect 1 pack "$DEMO/wing" -o "$TMP/no/such/dir/wing.glb"
has "$err" "no/such/dir"

# ---- usage ------------------------------------------------------------------------
expect 2 pack "$DEMO/wing"
expect 2 pack "$DEMO/wing" -o a.glb --out-dir b
expect 2 pack "$DEMO/wing" -o a.glb -j 0
expect 1 pack "$DEMO" -o "$TMP/x.glb"   # a library needs --out-dir
expect 0 pack --help
has "$out" "usage: morphkit pack"

finish
