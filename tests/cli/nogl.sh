#!/bin/bash
# A tool built with MK_BUILD_GL=OFF: preview and view are listed as
# unavailable and say why with exit code 2; the other commands work.
TOOL=$1 SRC=$2 TMP=$3
mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"

expect 0 --help;  has "$out" "preview"; has "$out" "unavailable: built with MK_BUILD_GL=OFF"
expect 2 preview "$SRC/assets/demo/knight"
has "$err" "morphkit: preview: this build has no GL layer (built with MK_BUILD_GL=OFF)"
expect 2 view "$SRC/assets/demo/knight"
has "$err" "morphkit: view: this build has no GL layer (built with MK_BUILD_GL=OFF)"
expect 0 validate "$SRC/assets/demo/knight"
finish
