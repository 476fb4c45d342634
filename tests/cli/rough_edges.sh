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

finish
