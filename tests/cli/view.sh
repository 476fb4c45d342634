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
# a typo in animation.cfg: the unit is still shown, the problem is printed
# and drawn in a band at the top (so the picture differs from a clean run)
cp -r "$K" "$TMP/typo"
run_view "$TMP/typo" --anim Walk --frames 9 --size 120x90 --screenshot "$TMP/clean.png"
printf 'FrameTiem Walk 100\nFrameTime Walk 120\n' > "$TMP/typo/animation.cfg"
run_view "$TMP/typo" --anim Walk --frames 9 --size 120x90 --screenshot "$TMP/typo.png" \
    || { echo "FAIL: view with a typo in animation.cfg: $(cat "$TMP/err")"; fails=$((fails + 1)); }
grep -q "animation.cfg:1: warning: unknown directive 'FrameTiem'" "$TMP/err" \
    || { echo "FAIL: the typo was not reported: $(cat "$TMP/err")"; fails=$((fails + 1)); }
cmp -s "$TMP/clean.png" "$TMP/typo.png" && { echo "FAIL: the problem is not shown on screen"; fails=$((fails + 1)); }

# --watch: a changed frame reloads, a half-written one keeps the old frames
# and names the error, the fixed file reloads again; runs until killed
cp -r "$K" "$TMP/live"
xvfb-run -a -s "-screen 0 1024x768x24 +extension GLX" "$TOOL" view "$TMP/live" --watch \
    --frames 1000000000 --size 64x48 >"$TMP/wout" 2>"$TMP/werr" &
xpid=$!
stop_view() { # stop_view [quiet]: ends the view started by this script (its pid)
    local vpid
    vpid=$(command -v pgrep >/dev/null && pgrep -P "$xpid" -x morphkit)
    if [ -z "$vpid" ] && [ -z "$1" ] && command -v pgrep >/dev/null; then
        echo "FAIL: view --watch is no longer running: $(cat "$TMP/werr")"; fails=$((fails + 1))
    fi
    kill ${vpid:-$xpid} 2>/dev/null
    wait "$xpid" 2>/dev/null
}
wait_for() { # wait_for COUNT TEXT: until TEXT is in the log COUNT times (30 s at most:
    # the machine may be busy; the tool itself reloads within a second)
    for _ in $(seq 300); do
        [ "$(grep -c -- "$2" "$TMP/werr")" -ge "$1" ] && return 0; sleep 0.1
    done
    echo "FAIL: no '$2' (x$1) from view --watch: $(cat "$TMP/werr")"; fails=$((fails + 1)); return 1
}
if wait_for 1 "watching"; then
    sleep 0.3
    cp "$K/Idle_1.obj" "$TMP/live/Idle_2.obj"
    wait_for 1 ": reloaded"
    head -c 300 "$K/Idle_3.obj" > "$TMP/live/Idle_3.obj"          # half written
    wait_for 1 "not reloaded, the old frames stay"
    grep -q "Idle_3.obj:9: 'v' needs 3 numbers" "$TMP/werr" || { echo "FAIL: the error is not named: $(cat "$TMP/werr")"; fails=$((fails + 1)); }
    # a burst of 6 writes is debounced: far fewer reloads than writes (one,
    # when the writes come faster than the 250 ms quiet time; a loaded
    # machine may stretch them), and the fixed file ends it without an error
    events() { grep -c ': reloaded\|: unchanged\|not reloaded' "$TMP/werr"; }
    before=$(events)
    for k in 1 2 3 4 5; do cp "$K/Idle_$((k % 4 + 1)).obj" "$TMP/live/Idle_3.obj"; sleep 0.02; done
    cp "$K/Idle_3.obj" "$TMP/live/Idle_3.obj"
    wait_for $((before + 1)) ': reloaded\|: unchanged\|not reloaded'
    last=-1 # until no new event for 2 s
    for _ in $(seq 60); do
        now=$(events); [ "$now" = "$last" ] && break; last=$now; sleep 2
    done
    [ $((last - before)) -le 2 ] || { echo "FAIL: a burst of 6 writes was not debounced: $(cat "$TMP/werr")"; fails=$((fails + 1)); }
    grep ': reloaded\|: unchanged\|not reloaded' "$TMP/werr" | tail -n 1 | grep -q ': reloaded\|: unchanged' \
        || { echo "FAIL: the fixed file did not end the error: $(cat "$TMP/werr")"; fails=$((fails + 1)); }
    # a removed frame (a gap) keeps the old unit
    gaps=$(grep -c 'not reloaded' "$TMP/werr")
    rm "$TMP/live/Idle_2.obj"
    wait_for $((gaps + 1)) "not reloaded"
fi
stop_view

# --watch on a glTF file: a broken save keeps the old frames, the fixed one
# reloads; a log written beside it is not a change
G=$SRC/tests/data/gltf/AnimatedMorphCube/glTF
mkdir -p "$TMP/g"; cp "$G"/* "$TMP/g/"
xvfb-run -a -s "-screen 0 1024x768x24 +extension GLX" "$TOOL" view "$TMP/g/AnimatedMorphCube.gltf" \
    --watch --frames 1000000000 --size 64x64 >"$TMP/wout" 2>"$TMP/g/werr" &
xpid=$!
cp /dev/null "$TMP/werr"; ln -sf "$TMP/g/werr" "$TMP/werr" 2>/dev/null
if wait_for 1 "watching"; then
    sleep 0.3
    printf '{' > "$TMP/g/AnimatedMorphCube.gltf"
    wait_for 1 "not reloaded, the old frames stay"
    cp "$G/AnimatedMorphCube.gltf" "$TMP/g/"
    wait_for 1 ": reloaded"
    sleep 0.8
    [ "$(grep -c 'reloaded' "$TMP/werr")" = 2 ] || { echo "FAIL: glTF watch reloads too often: $(cat "$TMP/werr")"; fails=$((fails + 1)); }
fi
stop_view quiet

finish
