#!/bin/sh
# usage: build_config.sh SOURCE_DIR WORK_DIR C_COMPILER runtime|nogl
# Configures and builds one reduced configuration of the project into
# WORK_DIR and checks what it produced.
#   runtime: -DMK_BUILD_ASSETS=OFF -DMK_BUILD_GL=OFF with CXX=/bin/false
#            (C++ must not be needed): libmorphkit.a and .so, nothing else.
#   nogl:    -DMK_BUILD_GL=OFF: runtime + assets + a tool whose preview and
#            view say the GL layer is missing (exit 2).
set -eu
src=$1; work=$2; cc=$3; kind=$4
rm -rf "$work"; mkdir -p "$work"
case $kind in
runtime)
    CXX=/bin/false cmake -S "$src" -B "$work" -DCMAKE_C_COMPILER="$cc" -DMK_WERROR=ON \
        -DMK_BUILD_ASSETS=OFF -DMK_BUILD_GL=OFF -DBUILD_TESTING=OFF >"$work/configure.log" 2>&1 ||
        { cat "$work/configure.log"; exit 1; }
    cmake --build "$work" -j 2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    # C++ was not enabled: CXX=/bin/false would have failed the configure.
    test -f "$work/libmorphkit.a" || { echo "no libmorphkit.a"; exit 1; }
    test -f "$work/libmorphkit.so" || { echo "no libmorphkit.so"; exit 1; }
    for other in libmorphkit_assets.a libmorphkit_gl.a morphkit; do
        if [ -e "$work/$other" ]; then echo "runtime-only build made $other"; exit 1; fi
    done
    ;;
nogl)
    cmake -S "$src" -B "$work" -DCMAKE_C_COMPILER="$cc" -DMK_WERROR=ON -DMK_BUILD_GL=OFF \
        -DBUILD_TESTING=OFF -DMK_BUILD_BENCH=OFF -DMK_BUILD_EXAMPLES=OFF >"$work/configure.log" 2>&1 ||
        { cat "$work/configure.log"; exit 1; }
    cmake --build "$work" -j 2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    test -f "$work/libmorphkit_assets.a" || { echo "no libmorphkit_assets.a"; exit 1; }
    test ! -e "$work/libmorphkit_gl.a" || { echo "GL-off build made libmorphkit_gl.a"; exit 1; }
    set +e
    "$work/morphkit" preview "$src/assets/demo/knight" 2>"$work/err.txt"
    rc=$?
    set -e
    [ $rc -eq 2 ] || { echo "preview exit $rc, want 2"; exit 1; }
    grep -q "no GL layer" "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
    ;;
*) echo "unknown kind $kind"; exit 2 ;;
esac
echo "build_config $kind ok"
