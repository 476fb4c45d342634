#!/bin/bash
# morphkit info on the demo units (counts checked against the generator's
# own statement of 152 v / 114 quads for the knight).
TOOL=$1 SRC=$2 TMP=$3
mkdir -p "$TMP"; . "$(dirname "$0")/common.sh"

expect 0 info "$SRC/assets/demo/knight"
has "$out" "unit knight"
has "$out" "152 (v lines)"
has "$out" "triangles:  228"
has "$out" "frames:     15, normals: yes, texcoords: yes"
has "$out" "Walk               6 frames  Walk_1.obj .. Walk_6.obj"
has "$out" "config:     animation.cfg"

expect 0 info --json "$SRC/assets/demo"
has "$out" '"name": "knight"'
has "$out" '"name": "wing"'
has "$out" '"vertices": 152'
has "$out" '"triangles": 228'
bytes=$(cat "$SRC"/assets/demo/knight/*.obj | wc -c)
has "$out" "\"disk_bytes\": $bytes"

expect 1 info "$TMP/nothing-here"
expect 2 info a b
finish
