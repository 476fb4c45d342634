#!/bin/bash
# usage: run.sh BUILD_DIR WORK_DIR "LIBRARIES"
# Installs the build tree into a scratch prefix, then builds one tiny
# consumer per installed library (LIBRARIES: morphkit, morphkit_assets,
# morphkit_gl) twice: with find_package(morphkit) (shared and static
# targets) and with pkg-config (morphkit.pc, morphkit_assets.pc,
# morphkit_gl.pc). Each consumer links its own library alone (and what
# that library requires), never more.
set -euo pipefail
build=$1; work=$2; libs=${3:-morphkit morphkit_assets morphkit_gl}
libs=${libs//;/ }
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"; mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
if [ -e "$build/morphkit" ]; then
    test -x "$prefix/bin/morphkit"
    "$prefix/bin/morphkit" --version
fi

comp_of() { local c=${1#morphkit}; c=${c#_}; echo "${c:-runtime}"; }

cmake -S "$here/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
      -DMK_CONSUMERS="${libs// /;}" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
for lib in $libs; do
    c=$(comp_of "$lib")
    "$work/cmake-build/consumer_${c}_shared" | grep "morphkit consumer ok" >/dev/null
    "$work/cmake-build/consumer_${c}_static" | grep "morphkit consumer ok" >/dev/null
    # The shared consumer needs its own library, the static one none of ours.
    ldd "$work/cmake-build/consumer_${c}_shared" | grep "lib${lib}\.so" >/dev/null
    if ldd "$work/cmake-build/consumer_${c}_static" | grep "libmorphkit" >/dev/null; then
        echo "consumer_${c}_static links a shared morphkit library"; exit 1
    fi
    echo "cmake consumer $lib ok"
done

pcdir=$(dirname "$(find "$prefix" -name morphkit.pc | head -n1)")
export PKG_CONFIG_PATH=$pcdir
for lib in $libs; do
    c=$(comp_of "$lib")
    test -f "$pcdir/$lib.pc"
    cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/consumer/consumer_$c.c" \
       -o "$work/consumer_${c}_pc" $(pkg-config --cflags --libs "$lib")
    LD_LIBRARY_PATH=$(pkg-config --variable=libdir "$lib") "$work/consumer_${c}_pc" |
        grep "morphkit consumer ok" >/dev/null
    # Static linking through pkg-config --static (the .a files only).
    cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/consumer/consumer_$c.c" \
       -o "$work/consumer_${c}_pc_static" $(pkg-config --cflags "$lib") \
       -Wl,-Bstatic $(pkg-config --libs-only-L --libs-only-l "$lib" | sed 's/-lepoxy//') \
       -Wl,-Bdynamic $(pkg-config --static --libs "$lib" | grep -oE -- '-l(epoxy|meshoptimizer)') -lm
    "$work/consumer_${c}_pc_static" | grep "morphkit consumer ok" >/dev/null
    echo "pkg-config consumer $lib ok"
done
echo "install consumer ok"
