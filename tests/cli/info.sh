#!/bin/bash
# morphkit info on the demo units (counts checked against the generator's
# own statement of 152 v / 114 quads for the knight).
TOOL=$1 SRC=$2 TMP=$3
mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"

expect 0 info "$SRC/assets/demo/knight"
has "$out" "unit knight"
has "$out" "152 (v lines)"
has "$out" "triangles:  228"
has "$out" "frames:     15, normals: yes, texcoords: yes"
# Walk: 6 x 120 ms, Loop Walk 1; Attack: 200 + 80 + 150 + 150 + 250 ms, then Idle
has "$out" "Walk               6 frames  Walk_1.obj .. Walk_6.obj  720 ms, loops to 1, linear"
has "$out" "Attack             5 frames  Attack_1.obj .. Attack_5.obj  830 ms, once, then Idle, linear"
has "$out" "config:     animation.cfg"

expect 0 info --json "$SRC/assets/demo"
has "$out" '"name": "knight"'
has "$out" '"name": "wing"'
has "$out" '"vertices": 152'
has "$out" '"triangles": 228'
bytes=$(cat "$SRC"/assets/demo/knight/*.obj | wc -c)
has "$out" "\"disk_bytes\": $bytes"

expect 1 info "$TMP/nothing-here"
expect 1 info a b                  # several paths are fine; these do not exist
has "$err" "a: no such file or folder"
has "$err" "b: no such file or folder"
finish
