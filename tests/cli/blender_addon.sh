#!/bin/bash
# The Blender add-on tools/blender/morphkit_export.py, headless in real
# Blender, on a shape-key scene (one frame per keyframe, keys unevenly spaced
# at 24 fps, a loop, an event and a no-blend marker; validate run from
# Blender) and an armature scene (every frame, axes forward Y / up Z, scale
# 2), the same actions as NLA tracks, and timeline-marker ranges over one
# shape-key action. Every folder validates with no warning, animation.cfg holds the
# durations computed by hand from the key spacing, and `sample` at every
# frame start and between frames gives Blender's evaluated positions (their
# linear blend between frames). Skipped only without Blender.
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
TOOL=$(cd "$(dirname "$TOOL")" && pwd)/$(basename "$TOOL")
# a stale frame of an earlier, longer export goes; other files stay
mkdir -p "$TMP/blob"; echo "v 0 0 0" > "$TMP/blob/Inflate_7.obj"; echo notes > "$TMP/blob/notes.txt"
blender_py "$BL/export_addon.py" "$SRC" "$TMP" "$TOOL" || exit 1

# the report shown in Blender
has "$(cat "$TMP/blob_report.txt")" "wrote 2 animations, 8 frames to $TMP/blob"
has "$(cat "$TMP/blob_report.txt")" "ok: 2 animations, 8 frames, 40 vertices, 64 triangles, 0 warnings"
# pack ran from Blender: where the tool has it, the file is valid; where it
# has not, the report shows the tool's answer
has "$(cat "$TMP/blob_report.txt")" "\$ morphkit pack"
if "$TOOL" pack --help >/dev/null 2>&1; then
    expect 0 validate "$TMP/blob.glb"
fi
# the closing pose of the Wave loop (frame 25 = frame 1) is not written
(cd "$TMP/blob" && LC_ALL=C ls) | tr '\n' ' ' > "$TMP/files"
has "$(cat "$TMP/files")" "Inflate_1.obj Inflate_2.obj Inflate_3.obj Inflate_4.obj Wave_1.obj Wave_2.obj Wave_3.obj Wave_4.obj animation.cfg notes.txt "
cfg=$(cat "$TMP/blob/animation.cfg")
# Inflate keys 1, 5, 9, 17 at 24 fps start at 0, 166.7, 333.3, 666.7 ms -> 0, 167, 333, 667
has "$cfg" "Duration Inflate 1 167"
has "$cfg" "Duration Inflate 2 166"
has "$cfg" "Duration Inflate 3 334"
has "$cfg" "Once Inflate"
# Wave keys every 6 frames = 250 ms; markers at frames 7 and 13 = frames 2 and 3
has "$cfg" "FrameTime Wave 250"
has "$cfg" "Event Wave 2 footstep"
has "$cfg" "NoBlend Wave 3"
cfg=$(cat "$TMP/tube/animation.cfg")
has "$cfg" "Duration Bend 1 42"   # 41.67 ms frames, rounded where they start
has "$cfg" "Duration Bend 2 41"
has "$cfg" "Duration Twist 10 42"
has "$cfg" "Once Twist"

# NLA tracks: keys 1, 12 (458.3 ms) and 40, 50 (416.7 ms)
cfg=$(cat "$TMP/nla/animation.cfg")
has "$cfg" "FrameTime BendTrack 458"
has "$cfg" "FrameTime TwistTrack 417"
# marker ranges: Grow keys 1, 5, 9 (9 = 1: the loop's end), event marker at 5
cfg=$(cat "$TMP/markers/animation.cfg")
has "$cfg" "Duration Grow 1 167"
has "$cfg" "Duration Grow 2 166"
has "$cfg" "Event Grow 2 puff"
has "$cfg" "Duration Rise 2 208"
has "$cfg" "Once Rise"

expect 0 validate "$TMP/blob" "$TMP/tube" "$TMP/nla" "$TMP/markers"
has "$out" "blob: ok: 2 animations, 8 frames, 40 vertices, 64 triangles, 0 warnings"
has "$out" "tube: ok: 2 animations, 23 frames, 40 vertices, 64 triangles, 0 warnings"
has "$out" "nla: ok: 2 animations, 4 frames, 40 vertices, 64 triangles, 0 warnings"
has "$out" "markers: ok: 2 animations, 5 frames, 40 vertices, 64 triangles, 0 warnings"
expect 0 info "$TMP/blob"
has "$out" "Inflate            4 frames  Inflate_1.obj .. Inflate_4.obj  667 ms, once, holds the last frame"
has "$out" "Wave               4 frames  Wave_1.obj .. Wave_4.obj  1000 ms, loops to 1"

check() { # UNIT ANIM
    local unit=$1 anim=$2
    # shellcheck disable=SC2046
    expect 0 sample "$TMP/$unit" --anim "$anim" --json $(cat "$TMP/times_${unit}_$anim.txt")
    printf '%s' "$out" > "$TMP/sample_${unit}_$anim.json"
    blender_py "$BL/compare.py" "$TMP/expected_$unit.json" "$TMP/sample_${unit}_$anim.json" "$anim" json 1e-5 \
        || fails=$((fails + 1))
    grep -h "samples, largest" "$TMP/blender.log"
}
check blob Inflate
check blob Wave
check tube Bend
check tube Twist
check nla BendTrack
check nla TwistTrack
check markers Grow
check markers Rise
finish
