#!/bin/sh
# The main job on the bundled demo units: validate them, print their info
# and a sampled (blended) pose. Called by `make demo` with the build folder.
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
