#!/bin/bash
# morphkit sample on small generated units, against hand-computed values.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"

u=$TMP/tri
mkdir -p "$u"
# Move: a triangle rising from z 0 to z 2 while its normal tips from +z to +y
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\n' > "$u/Move_1.obj"
printf 'v 0 0 2\nv 1 0 2\nv 0 1 2\nvn 0 1 0\nf 1//1 2//1 3//1\n' > "$u/Move_2.obj"
# Hold: two frames at x 5 and x 7
printf 'v 5 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\n' > "$u/Hold_1.obj"
printf 'v 7 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\n' > "$u/Hold_2.obj"
printf 'FrameTime Move 200\nDuration Hold 1 400\nOnce Hold\n' > "$u/animation.cfg"

# no Idle: the default is the first name in sorted order, Hold
expect 0 sample "$u" --time 0.1
has "$out" "Hold"
has "$out" "0.250000"          # 100 of 400 ms

# Move at 50 of 200 ms: w = 0.25, z = 0.5; normal (0, .25, .75) normalized
expect 0 sample "$u" --anim Move --time 0.05 --json
has "$out" '"time": 0.05, "animation": "Move", "frame": 1, "next": 2, "weight": 0.25'
has "$out" '"frames": ["Move_1", "Move_2"], "weights": [0.75, 0.25]'
has "$out" '"positions": [0, 0, 0.5, 1, 0, 0.5, 0, 1, 0.5]'
has "$out" '"normals": [0, 0.3162277'
# a frame boundary shows the new frame with weight 0; the loop wraps to frame 1
expect 0 sample "$u" --anim Move --time 0.2 --time 0.4 --json
has "$out" '"time": 0.2, "animation": "Move", "frame": 2, "next": 1, "weight": 0'
has "$out" '"positions": [0, 0, 2, 1, 0, 2, 0, 1, 2]'
has "$out" '"time": 0.4, "animation": "Move", "frame": 1, "next": 2, "weight": 0'

# switching: requested at 0.1 during Move frame 1, taken at 0.2 (end of its blend);
# Hold 1 then blends for 400 ms: at 0.3, w = 0.25 -> x = 5.5
expect 0 sample "$u" --anim Move --then Hold@0.1 --time 0.15 --time 0.3 --json
has "$out" '"time": 0.15, "animation": "Move", "frame": 1, "next": 2, "weight": 0.75'
has "$out" '"time": 0.3, "animation": "Hold", "frame": 1, "next": 2, "weight": 0.25'
has "$out" '"positions": [5.5, 0, 0'
# Once Hold finishes at 0.6 and holds frame 2
expect 0 sample "$u" --anim Move --then Hold@0.1 --time 0.6 --time 9 --json
has "$out" '"time": 9, "animation": "Hold", "frame": 2, "next": 2, "weight": 0'
# times may come in any order; each is exact
expect 0 sample "$u" --anim Move --time 0.3 --time 0.1
has "$out" "0.3          Move                  2      1  0.500000"
has "$out" "0.1          Move                  1      2  0.500000"

expect 2 sample "$u" --anim Run --time 0;   has "$err" "has no animation 'Run'; it has: Hold Move"
expect 2 sample "$u" --anim Move;           has "$err" "at least one --time"
expect 2 sample "$u" --time -1;             has "$err" "--time wants seconds"
expect 2 sample "$u" --then Hold --time 1;  has "$err" "--then wants NAME@SECONDS"
expect 1 sample "$TMP/none" --time 0
expect 0 sample --help;                     has "$out" "usage: morphkit sample"

# the demo knight: Walk frame 1 -> 2 at 60 of 120 ms is the mean of the two files' v 1
expect 0 sample "$SRC/assets/demo/knight" --anim Walk --time 0.06 --json
v1=$(awk '/^v /{print $2; exit}' "$SRC/assets/demo/knight/Walk_1.obj")
v2=$(awk '/^v /{print $2; exit}' "$SRC/assets/demo/knight/Walk_2.obj")
x=$(printf '%s' "$out" | grep -o '"positions": \[[^,]*' | head -1 | sed 's/.*\[//')
awk -v a="$v1" -v b="$v2" -v x="$x" 'BEGIN { d = (a + b) / 2 - x; exit !(d < 1e-6 && d > -1e-6) }' \
    || { echo "FAIL: knight v1 x $x is not the mean of $v1 and $v2"; fails=$((fails + 1)); }
finish
