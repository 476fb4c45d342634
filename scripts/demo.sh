#!/bin/sh
# The main job on the bundled demo units: validate them, print their info
# and a sampled (blended) pose, then render their animations to out/ as GIFs
# and contact sheets. Called by `make demo` with the build folder.
set -e
BUILD=${1:-build}
MK="$BUILD/morphkit"
echo "== morphkit validate assets/demo"
"$MK" validate assets/demo
echo
echo "== morphkit info assets/demo"
"$MK" info assets/demo
echo
echo "== morphkit sample: the knight walks, is told to attack at 0.2 s, then idles"
"$MK" sample assets/demo/knight --anim Walk --then Attack@0.2 \
    --time 0 --time 0.06 --time 0.2 --time 0.3 --time 0.5 --time 1.0 --time 1.2
echo
echo "== a blended pose: knight Walk, halfway from frame 1 to frame 2"
"$BUILD/examples/example_blend_pose" assets/demo/knight Walk 0.5
echo
echo "== pictures (morphkit preview, headless OpenGL) -> out/"
mkdir -p out
for anim in Idle Walk Attack; do
    "$MK" preview assets/demo/knight --anim $anim --size 320x320 --out out/knight_$anim.gif
    "$MK" preview assets/demo/knight --anim $anim --sheet --size 200x200 --out out/knight_${anim}_sheet.png
done
# The wing: linear blending shrinks the wings mid-stroke (Beat: straight
# chords between up and down); Flap with smooth interpolation passes through
# every frame on a curve. Linear on the left, smooth on the right.
"$MK" preview assets/demo/wing --anim Beat --size 320x240 --out out/wing_Beat_linear.gif
"$MK" preview assets/demo/wing --anim Beat --sheet --fps 10 --size 200x150 --out out/wing_Beat_linear_sheet.png
"$MK" preview assets/demo/wing --anim Flap --interpolation linear --beside smooth \
    --size 320x240 --out out/wing_Flap_linear_vs_smooth.gif
"$MK" preview assets/demo/wing --anim Flap --interpolation linear --beside smooth \
    --sheet --fps 6 --size 200x150 --out out/wing_Flap_linear_vs_smooth_sheet.png
