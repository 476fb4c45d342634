#!/bin/bash
# morphkit view: opens a GLFW window under Xvfb, renders a few frames, saves
# a screenshot that is not blank, quits on --frames. Exits 77 (skipped)
# without xvfb-run or where the X server cannot give an OpenGL 3.3 window.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
K=$SRC/assets/demo/knight

# usage errors need no display
expect 2 view
has "$err" "PATH is missing"
expect 2 view "$K" --frames 0
has "$err" "--frames"
expect 2 view "$K" --size 3x3
expect 1 view "$TMP/missing"
has "$err" "no such file or folder"
expect 0 view --help
has "$out" "Space"

command -v xvfb-run >/dev/null || { echo "skipped: xvfb-run not installed"; exit 77; }
run_view() { # run_view ARGS...: under a fresh Xvfb with GLX
    xvfb-run -a -s "-screen 0 1024x768x24 +extension GLX" "$TOOL" view "$@" \
        >"$TMP/out" 2>"$TMP/err"
}
run_view "$K" --anim Walk --frames 5 --size 200x150 --screenshot "$TMP/shot.png"
code=$?
if [ $code -ne 0 ] && grep -q "window\|GLX\|OpenGL" "$TMP/err"; then
    echo "skipped: $(cat "$TMP/err")"; exit 77
fi
[ $code -eq 0 ] || { echo "FAIL: view exited $code: $(cat "$TMP/err")"; fails=$((fails + 1)); }
[ -f "$TMP/shot.png" ] || { echo "FAIL: no screenshot"; fails=$((fails + 1)); }
size=$(od -An -tu1 -j16 -N8 "$TMP/shot.png" | awk '{print $3*256+$4, $7*256+$8}')
[ "$size" = "200 150" ] || { echo "FAIL: screenshot is $size"; fails=$((fails + 1)); }
# not blank: a picture of one colour compresses to almost nothing; the knight
# on a background does not
bytes=$(wc -c < "$TMP/shot.png")
[ "$bytes" -gt 600 ] || { echo "FAIL: screenshot looks blank ($bytes bytes)"; fails=$((fails + 1)); }
# glTF in the viewer too
run_view "$SRC/tests/data/gltf/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf" --frames 3 --size 64x64 \
    || { echo "FAIL: view of a glTF file: $(cat "$TMP/err")"; fails=$((fails + 1)); }
# scripted runs are reproducible: time advances 1/60 s a frame, not by the
# clock, so two identical runs give identical PNGs; a different count differs
run_view "$K" --anim Walk --frames 9 --size 120x90 --screenshot "$TMP/a.png"
run_view "$K" --anim Walk --frames 9 --size 120x90 --screenshot "$TMP/b.png"
cmp -s "$TMP/a.png" "$TMP/b.png" || { echo "FAIL: two identical view runs gave different screenshots"; fails=$((fails + 1)); }
run_view "$K" --anim Walk --frames 20 --size 120x90 --screenshot "$TMP/c.png"
cmp -s "$TMP/a.png" "$TMP/c.png" && { echo "FAIL: 9 and 20 frames of Walk gave the same screenshot"; fails=$((fails + 1)); }
finish
