#!/bin/bash
# Seeing time: info's timelines, the events sample reports, sample
# --interpolation. Expected values from the knight's animation.cfg by hand:
# Attack durations 200, 80, 150 (NoBlend, event hit), 150, 250 -> starts
# 0, 200, 280, 430, 580, then Idle; Walk 6 x 120 ms, footstep on 2 and 5.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
K=$SRC/assets/demo/knight

expect 0 info "$K"
has "$out" "           3    280.0 ms  +  150.0  cut (NoBlend)  event hit"
has "$out" "           5    580.0 ms  +  250.0  then Idle"
has "$out" "      >    1      0.0 ms  +  120.0"           # Walk's loop start
has "$out" "           5    480.0 ms  +  120.0  event footstep"
has "$out" "           6    600.0 ms  +  120.0  then loops to 1"
# Once without Next: the last frame is held, not timed
cp -r "$K" "$TMP/k"; printf 'Once Walk\nFrameTime Walk 100\nLoop Idle 3\n' > "$TMP/k/animation.cfg"
expect 0 info "$TMP/k"
has "$out" "           6    500.0 ms   (held)"
has "$out" "      >    3    200.0 ms  +  100.0"            # Idle loops to 3 (default 100 ms)
expect 0 info --json "$K"
has "$out" '"loop_frame": null, "next": "Idle", "timeline": ['
has "$out" '{"frame": 3, "start_ms": 280, "duration_ms": 150, "no_blend": true, "events": ["hit"]}'
has "$out" '{"frame": 5, "start_ms": 480, "duration_ms": 120, "no_blend": false, "events": ["footstep"]}'
has "$out" '"loop_frame": 1, "next": null'
expect 0 info --json "$TMP/k"
has "$out" '{"frame": 6, "start_ms": 500, "duration_ms": null,'

# sample: the events fired since the previous sample (the first: since 0)
expect 0 sample "$K" --anim Walk --time 0 --time 0.13 --time 0.5 --time 1.2
has "$out" "0            Walk                  1      2  0.000000
0.13         Walk                  2      3  0.083333  footstep@Walk_2
0.5          Walk                  5      6  0.166667  footstep@Walk_5
1.2          Walk                  5      6  0.000000  footstep@Walk_2 footstep@Walk_5"
# an event exactly on a sample time belongs to that sample, not the next
expect 0 sample "$K" --anim Attack --time 0.28 --time 0.5 --time 0.9 --json
has "$out" '"weight": 0, "events": [{"name": "hit", "animation": "Attack", "frame": 3}]'
has "$out" '"time": 0.5, "animation": "Attack", "frame": 4, "next": 5, "weight": 0.46666667, "events": []'
# --then: Attack requested at 0.1 starts when Idle's frame 1 ends (250 ms);
# at 600 ms it is 350 ms in: frame 3 (280..430), held (NoBlend: w = 0), hit
expect 0 sample "$K" --anim Idle --then Attack@0.1 --time 0.05 --time 0.6
has "$out" "0.6          Attack                3      4  0.000000  hit@Attack_3"

# sample --interpolation: Walk at 60 of 120 ms is w 0.5 linear, 0 step,
# smooth: Catmull-Rom over frames 1 (twice: the start), 1, 2, 3 at t = 30/120:
# (-t^3+2t^2-t)/2, (3t^3-5t^2+2)/2, (-3t^3+4t^2+t)/2, (t^3-t^2)/2
expect 0 sample "$K" --anim Walk --time 0.06 --interpolation step
has "$out" "0.06         Walk                  1      2  0.000000"
expect 0 sample "$K" --anim Walk --time 0.03 --interpolation smooth --json
has "$out" '"frames": ["Walk_1", "Walk_1", "Walk_2", "Walk_3"], "weights": [-0.0703125, 0.8671875, 0.2265625, -0.0234375]'
expect 2 sample "$K" --time 0 --interpolation cubic
has "$err" "--interpolation wants linear, step or smooth"
expect 2 sample "$SRC/tests/data/gltf/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf" --time 0 --interpolation step
has "$err" "for unit folders"
finish
