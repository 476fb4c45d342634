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

finish
