#!/bin/sh
# The one list of Debian packages morphkit needs; installs the missing ones
# (as root, or through sudo). Used by `make deps`, `make demo`, `make test`
# and `make fuzz`, never by `make build` or cmake. clang and its runtime
# libraries (libclang-rt-dev: libFuzzer, sanitizers) are for CI's clang
# build and the fuzz targets only.
set -e
PACKAGES="build-essential cmake pkg-config libmeshoptimizer-dev libtinyobjloader-dev libtinygltf-dev
  libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libglfw3-dev libpng-dev libgif-dev
  glslang-tools xvfb xauth clang libclang-rt-dev python3 blender python3-numpy"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
