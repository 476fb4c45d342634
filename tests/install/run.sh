#!/bin/bash
# Installs the build tree into a scratch prefix, then builds one tiny program
# against it twice: with find_package(morphkit) and with pkg-config.
set -euo pipefail
build=$1; work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"; mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
test -x "$prefix/bin/morphkit"
"$prefix/bin/morphkit" --version

cmake -S "$here/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/consumer_shared" | grep -q "morphkit consumer ok"
"$work/cmake-build/consumer_static" | grep -q "morphkit consumer ok"

libdir=$(dirname "$(find "$prefix" -name morphkit.pc | head -n1)")
export PKG_CONFIG_PATH=$libdir
cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/consumer/consumer.c" -o "$work/consumer_pc" \
   $(pkg-config --cflags --libs morphkit)
LD_LIBRARY_PATH=$(pkg-config --variable=libdir morphkit) "$work/consumer_pc" | grep -q "morphkit consumer ok"
echo "install consumer ok"
