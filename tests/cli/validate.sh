#!/bin/bash
# morphkit validate: the demo library is valid; broken units exit 1 and name
# file:line; usage errors exit 2.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"

expect 0 validate "$SRC/assets/demo"
has "$out" "assets/demo/knight: ok: 3 animations, 15 frames, 152 vertices"
has "$out" "assets/demo/wing: ok: 2 animations"

expect 0 validate --json "$SRC/assets/demo/knight"
has "$out" '"valid": true'
has "$out" '{"name": "Walk", "frames": 6}'

quad='v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
f 1 2 3
f 1 3 4'
mkdir -p "$TMP/bad"
printf '%s\n' "$quad" > "$TMP/bad/Idle_1.obj"
printf '%s\n' "$quad" | sed 's/^f 1 3 4$/f 1 4 3/' > "$TMP/bad/Idle_2.obj"
printf '%s\n' "$quad" > "$TMP/bad/Idle_4.obj"
expect 1 validate "$TMP/bad"
has "$out" "INVALID"
has "$out" "missing frame file 'Idle_3.obj'"
rm "$TMP/bad/Idle_4.obj"
expect 1 validate "$TMP/bad"
has "$out" "error[topology]: $TMP/bad/Idle_2.obj:6: triangle 2 is (1 4 3)"
has "$out" "(compared with $TMP/bad/Idle_1.obj:6)"
expect 1 validate --json "$TMP/bad"
has "$out" '"valid": false'
has "$out" '"check": "topology"'
has "$out" '"line": 6'

# one good and one bad path: 1, and both reported
expect 1 validate "$SRC/assets/demo/wing" "$TMP/bad"
has "$out" "wing: ok"
has "$out" "bad: INVALID"

expect 1 validate "$TMP/does-not-exist"
has "$err" "no such file or folder"
mkdir -p "$TMP/empty"
expect 1 validate "$TMP/empty"
has "$err" "neither a unit folder"

# a syntax error names file:line
mkdir -p "$TMP/syntax"
printf 'v 0 0 0\nv 1 0 zero\n' > "$TMP/syntax/Idle_1.obj"
expect 1 validate "$TMP/syntax"
has "$out" "$TMP/syntax/Idle_1.obj:2:"
# animation.cfg errors are reported with their line, beside frame checks
mkdir -p "$TMP/cfg"
printf '%s\n' "$quad" > "$TMP/cfg/Idle_1.obj"
printf '%s\n' "$quad" > "$TMP/cfg/Idle_2.obj"
printf '# ok\nFrameTime Idle 100\nDuration Idle 7 50\nBlend Idle\n' > "$TMP/cfg/animation.cfg"
expect 1 validate "$TMP/cfg"
has "$out" "2 errors"
has "$out" "error[config]: $TMP/cfg/animation.cfg:3:"
has "$out" "error[config]: $TMP/cfg/animation.cfg:4:"
finish
