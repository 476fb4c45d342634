#!/bin/bash
# Blender's own OBJ exporter, as it is: a scene built in real Blender (a tube
# skinned to two bones, actions Bend on frames 1-12 and Twist on 20-30) is
# exported with Animation on and default settings (Bend1.obj .. Bend12.obj,
# Twist20.obj .. Twist30.obj, .mtl files beside them). The folder must
# validate with no warning, and `sample` at every frame time (100 ms frames:
# no animation.cfg) and between frames must give Blender's evaluated vertex
# positions (and their linear blend). Also: a name ending in a digit
# exported as `Twist2_.obj`, the legacy exporter's Twist_000020.obj ...,
# and a frame whose vertices Blender re-sorted (validate names it, repair
# puts it back), and the folder packed with --no-texcoords (its texture
# seam welded); and bench/blender_unit.py's Suzanne, packed the same way.
# Skipped only without Blender.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
if ! command -v blender >/dev/null; then
    echo "SKIP: blender is not installed (Debian package 'blender')"; exit 77
fi
BL="$SRC/tests/blender"
blender_py() { # SCRIPT ARGS...: runs a Python script in headless Blender
    local script=$1; shift
    blender -b --factory-startup --python-exit-code 1 --python "$script" -- "$@" \
        >"$TMP/blender.log" 2>&1 || { echo "FAIL: blender $script:"; tail -20 "$TMP/blender.log"; return 1; }
}
u=$TMP/unit; mkdir -p "$u"
blender_py "$BL/export_obj.py" "$u" "$TMP/expected.json" "$TMP" || exit 1

[ -f "$u/Bend1.obj" ] && [ -f "$u/Bend12.obj" ] && [ -f "$u/Twist20.obj" ] && [ -f "$u/Twist30.obj" ] \
    || { echo "FAIL: Blender did not write Bend1..12 / Twist20..30:"; ls "$u" | head; exit 1; }
expect 0 validate "$u"
has "$out" "ok: 2 animations, 23 frames, 40 vertices, 64 triangles, 0 warnings"
expect 0 info "$u"
has "$out" "Bend              12 frames  Bend1.obj .. Bend12.obj"
has "$out" "Twist             11 frames  Twist20.obj .. Twist30.obj"

check() { # ANIM FRAMES: frame times k/10 s and the midpoints between them
    local anim=$1 n=$2 args=() starts
    for t in $(awk -v n="$n" 'BEGIN { for (k = 0; k < n; k++) printf "%g %g ", k / 10, (k + .5) / 10 }'); do
        args+=(--time "$t")
    done
    starts=$(awk -v n="$n" 'BEGIN { for (k = 0; k <= n; k++) printf "%s%g", k ? "," : "", k / 10 }')
    expect 0 sample "$u" --anim "$anim" --json "${args[@]}"
    printf '%s' "$out" > "$TMP/sample_$anim.json"
    blender_py "$BL/compare.py" "$TMP/expected.json" "$TMP/sample_$anim.json" "$anim" "$starts" 1e-5 \
        || fails=$((fails + 1))
    grep -h "samples, largest" "$TMP/blender.log"
}
check Bend 12
check Twist 11

# packed without texture coordinates: the tube's seam (a column at u 0 and
# at u 1) is one vertex again, 45 render vertices -> its 40 `v`, and the
# pack still plays Blender's positions (plain: floats as they are)
expect 0 info "$u"
has "$out" "40 (v lines), 45 render vertices"
expect 0 pack "$u" -o "$TMP/tube.glb" --plain --no-texcoords --quiet
expect 0 info "$TMP/tube.glb"
has "$out" "40 (v lines), 40 render vertices"
has "$out" "texcoords: no"
u=$TMP/tube.glb
check Bend 12
check Twist 11
u=$TMP/unit

# a unit as an artist exports it (bench/blender_unit.py: Suzanne subdivided
# once, 2 012 `v`, smooth shaded, Smart UV Project's texture seams, 60
# frames): it validates, and packed with --no-texcoords its seams are
# welded back to one vertex per `v` (smooth shading: one normal each); the
# pack plays the folder's positions within the error pack reports
blender_py "$SRC/bench/blender_unit.py" "$TMP/suzanne" || exit 1
expect 0 validate "$TMP/suzanne"
has "$out" "ok: 3 animations, 60 frames, 2012 vertices, 3936 triangles, 0 warnings"
expect 0 pack "$TMP/suzanne" -o "$TMP/suzanne.glb" --no-texcoords --compress
max_error=$(printf '%s\n' "$out" | tail -1 | awk '{ print $(NF - 2) }')
expect 0 info "$TMP/suzanne.glb"
has "$out" "2012 (v lines), 2012 render vertices"
has "$out" "texcoords: no"
times=(--time 0.05 --time 0.73 --anim Walk --then Attack@1.1 --time 1.6)
expect 0 sample "$TMP/suzanne" --json "${times[@]}"
printf '%s' "$out" > "$TMP/suzanne_folder.json"
expect 0 sample "$TMP/suzanne.glb" --json "${times[@]}"
printf '%s' "$out" > "$TMP/suzanne_pack.json"
if ! python3 - "$TMP/suzanne_folder.json" "$TMP/suzanne_pack.json" "$max_error" <<'PY'
import json, sys
a, b = (json.load(open(p))["samples"] for p in sys.argv[1:3])
bound = float(sys.argv[3]) * 1.005 + 1e-7  # the summary prints 3 digits, sample 8
assert len(a) == len(b) == 3 and bound > 0
for x, y in zip(a, b):
    assert (x["animation"], x["frame"], x["weight"]) == (y["animation"], y["frame"], y["weight"])
    p, q = x["meshes"][0]["positions"], y["meshes"][0]["positions"]
    assert len(p) == len(q) == 3 * 2012
    d = max(abs(s - t) for s, t in zip(p, q))
    assert d <= bound, (x["time"], d, bound)
print("suzanne: folder and pack within", bound)
PY
then
    echo "FAIL: the packed suzanne does not play the folder's positions"
    fails=$((fails + 1))
fi

# a name ending in a digit, written as Twist2_.obj: Twist2_20.obj .. Twist2_30.obj
expect 0 info "$TMP/digit"
has "$out" "Twist2            11 frames  Twist2_20.obj .. Twist2_30.obj"
# the legacy exporter (Keep Vertex Order): Twist_000020.obj .. Twist_000030.obj
expect 0 validate "$TMP/digit" "$TMP/legacy"
has "$out" "digit: ok: 1 animation, 11 frames, 40 vertices, 64 triangles, 0 warnings"
has "$out" "legacy: ok: 1 animation, 11 frames, 40 vertices, 64 triangles, 0 warnings"
u=$TMP/legacy
check Twist 11

# Twist frame by frame, Twist25.obj after Blender's Sort Mesh Elements put
# the vertices in random order: named as the same mesh renumbered, and
# repaired back into Blender's own order (sample against Blender's positions)
expect 1 validate "$TMP/sorted"
has "$out" "Twist25.obj is the same mesh as Twist20.obj with a different vertex order"
expect 0 repair "$TMP/sorted" --out "$TMP/sorted.fixed"
has "$out" "Twist25.obj: renumbered: the same mesh as Twist20.obj in another vertex order"
has "$out" "1 of 11 frames repaired, 0 could not be repaired"
expect 0 validate "$TMP/sorted.fixed"
has "$out" "ok: 1 animation, 11 frames, 40 vertices, 64 triangles, 0 warnings"
u=$TMP/sorted.fixed
check Twist 11
finish
