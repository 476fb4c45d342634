#!/bin/bash
# What a new user ran into: a typo in animation.cfg, byte order marks,
# inconsistent commands, JSON details, sizes. (Pictures: preview.sh, view.sh.)
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
K=$SRC/assets/demo/knight

# --- a typo in animation.cfg: info still shows the unit and names every bad
# line; sample and validate stay strict but also name every bad line
cp -r "$K" "$TMP/typo"
printf 'FrameTime Walk 120\nFrameTiem Idle 100\nLoop Walk 99\nOnce Attack\n' > "$TMP/typo/animation.cfg"
expect 0 info "$TMP/typo"
has "$out" "Walk               6 frames"
has "$out" "720 ms"                      # line 1 still counts: 6 x 120 ms
has "$err" "animation.cfg:2: warning: unknown directive 'FrameTiem'"
has "$err" "animation.cfg:3: warning: animation 'Walk' has no frame 99"
expect 1 validate "$TMP/typo"
has "$out" "animation.cfg:2: unknown directive"
has "$out" "animation.cfg:3: animation 'Walk' has no frame 99"
expect 1 sample "$TMP/typo" --time 0
has "$err" "animation.cfg:2: unknown directive"
has "$err" "animation.cfg:3: animation 'Walk'"
# two settings in conflict: the later line is dropped, the earlier one stands
printf 'FrameTime Walk 50\nCycleTime Walk 600\n' > "$TMP/typo/animation.cfg"
expect 0 info "$TMP/typo"
has "$out" "300 ms"                      # 6 x 50 ms
has "$err" "animation.cfg:2: warning:"

# --- a UTF-8 byte order mark on animation.cfg and on an OBJ frame
cp -r "$K" "$TMP/bom"
printf '\xef\xbb\xbfFrameTime Walk 120\n' > "$TMP/bom/animation.cfg"
f=$TMP/bom/Idle_2.obj; { printf '\xef\xbb\xbf'; cat "$K/Idle_2.obj"; } > "$f.new" && mv "$f.new" "$f"
expect 0 validate "$TMP/bom"
expect 0 info "$TMP/bom"
has "$out" "720 ms"

# --- --json: valid UTF-8 always, errors only on stderr, shortest floats
expect 1 validate --json "$TMP/nosuch"
[ "$out" = '{"version": 1, "units": [], "valid": false}' ] || { echo "FAIL: validate --json nosuch printed: $out"; fails=$((fails + 1)); }
has "$err" "nosuch: no such file or folder"
# a Latin-1 folder name (byte e9): escaped as \u00e9, the document stays UTF-8
mkdir -p "$TMP/lib"; cp -r "$K" "$TMP/lib/caf$(printf '\xe9')"
expect 0 validate --json "$TMP/lib"
has "$out" 'caf\u00e9'
printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 || { echo "FAIL: validate --json is not UTF-8"; fails=$((fails + 1)); }
expect 0 info --json "$TMP/lib"
printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 || { echo "FAIL: info --json is not UTF-8"; fails=$((fails + 1)); }
# UTF-8 names pass through as they are
mkdir -p "$TMP/lib2"; cp -r "$K" "$TMP/lib2/ça"
expect 0 validate --json "$TMP/lib2"
has "$out" '/ça"'
# Idle: 250 ms frames; at 50 ms w = 50/250 = 0.2 exactly as a float prints
expect 0 sample "$K" --time 0.05 --json
has "$out" '"weight": 0.2,'
has "$out" '"weights": [0.8, 0.2]'
if command -v python3 >/dev/null; then
    for args in "validate --json $K" "info --json $K" "sample --json $K --time 0.3 --time 1"; do
        "$TOOL" $args | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["version"] == 1' \
            || { echo "FAIL: $args is not valid JSON with version 1"; fails=$((fails + 1)); }
    done
fi

# --- consistent commands
W=$SRC/assets/demo/wing
expect 0 info "$K" "$W"                          # several paths, like validate
has "$out" "unit knight"
has "$out" "unit wing"
expect 0 info --json "$K" "$W"
has "$out" '"name": "knight"'
has "$out" '"name": "wing"'
expect 2 info --json "$K" "$SRC/tests/data/gltf/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf"
has "$err" "one .gltf/.glb file"
# --anim takes an index too: knight's animations sorted are Attack, Idle, Walk
expect 0 sample "$K" --anim 2 --time 0.13        # Walk: 120 ms frames, 10 ms into frame 2
has "$out" "Walk                  2      3  0.083333"
expect 2 sample "$K" --anim 3 --time 0
has "$err" "no animation '3'"
# --screenshot must be a PNG (refused before any window opens)
expect 2 view "$K" --screenshot "$TMP/x.jpg"
has "$err" "--screenshot writes a PNG"
# morphkit help CMD is CMD --help
expect 0 help sample
has "$out" "usage: morphkit sample"
expect 2 help nosuch
has "$err" "unknown command 'nosuch'"
# -- ends options: a folder named -odd is a PATH after it
cp -r "$K" "$TMP/-odd"
( cd "$TMP" && "$TOOL" validate -- -odd >"$TMP/o" 2>&1 ) || { echo "FAIL: validate -- -odd: $(cat "$TMP/o")"; fails=$((fails + 1)); }
( cd "$TMP" && "$TOOL" info -- -odd >"$TMP/o" 2>&1 ) || { echo "FAIL: info -- -odd: $(cat "$TMP/o")"; fails=$((fails + 1)); }
( cd "$TMP" && "$TOOL" sample --time 0 -- -odd >"$TMP/o" 2>&1 ) || { echo "FAIL: sample -- -odd: $(cat "$TMP/o")"; fails=$((fails + 1)); }
expect 2 validate -odd
has "$err" "unknown option '-odd'"

# --- validate --strict, the summary line, naming notes
mkdir -p "$TMP/lib3"; cp -r "$K" "$W" "$TMP/lib3/"
cp "$K/Idle_1.obj" "$TMP/lib3/knight/base.obj"
cp "$K/Idle_2.obj" "$TMP/lib3/knight/Idle_2 copy.obj"
cp "$K/Idle_1.obj" "$TMP/lib3/knight/IDLE_1.obj"
expect 0 validate "$TMP/lib3"
has "$out" "note[naming]: $TMP/lib3/knight: 'base.obj' is not a frame"
has "$out" "'Idle_2 copy.obj' is not a frame"
has "$out" "animations 'IDLE' and 'Idle' differ only in case"
has "$out" "2 units: 2 valid, 0 invalid, 0 warnings"
expect 0 validate --json "$TMP/lib3/knight"
has "$out" '{"severity": "note", "check": "naming"'
# a frame three times too large: one jump warning, on that frame; --strict fails on it
cp -r "$W" "$TMP/lib3/jump"
awk '/^v /{printf "v %g %g %g\n",$2*3,$3*3,$4*3;next}{print}' "$W/Flap_2.obj" > "$TMP/lib3/jump/Flap_2.obj"
expect 0 validate "$TMP/lib3/jump"
expect 1 validate --strict "$TMP/lib3"
has "$out" "3 units: 3 valid, 0 invalid, 1 warning (--strict: warnings fail)"
expect 1 validate --strict --json "$TMP/lib3/jump"
has "$out" '"valid": false}'
mkdir -p "$TMP/lib4"; cp -r "$W" "$TMP/lib4/"
mkdir -p "$TMP/lib4/bad"; printf 'v 0 0\n' > "$TMP/lib4/bad/Idle_1.obj"
expect 1 validate "$TMP/lib4"
has "$out" "2 units: 1 valid, 1 invalid, 0 warnings"

# --- sizes for people in info (bytes stay in --json); glTF files get sizes
expect 0 info "$K"
has "$out" "memory:     166.6 KiB (frame set)"     # 170640 / 1024
has "$out" "on disk:    331.9 KiB in 15 files"     # 339894 / 1024
expect 0 info --json "$K"
has "$out" '"memory_bytes": 170640, "disk_bytes": 339894'
C=$SRC/tests/data/gltf/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf
gltf_bytes=$(( $(wc -c < "$C") + $(wc -c < "${C%.gltf}.bin") ))
expect 0 info "$C"
has "$out" "size:       $(awk -v b=$gltf_bytes 'BEGIN{printf "%.1f KiB", b/1024}') on disk, 4.2 KiB of buffers"
expect 0 info --json "$C"
has "$out" "\"disk_bytes\": $gltf_bytes, \"buffer_bytes\": 4284"

# info --json keeps what it could not show in the document
expect 1 info --json "$TMP/nosuch" "$K"
has "$out" '"errors": [{"path": "'"$TMP"'/nosuch", "message": "no such unit folder or glTF file"}]}'
has "$out" '"name": "knight"'
expect 1 info --json "$TMP/lib4/bad"
has "$out" '{"version": 1, "units": [], "errors": [{"path": "'"$TMP"'/lib4/bad", "message": "'"$TMP"'/lib4/bad/Idle_1.obj:1:'
finish
