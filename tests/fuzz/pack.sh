#!/bin/sh
# usage: pack.sh OUT MAIN [FILE...]
# Writes a multi-file fuzz input (fuzz_vfs.h): MAIN's bytes (an empty
# string for none), then one "@@ NAME" record per FILE. Used to make the
# seeds in seeds/ from tests/data and assets/demo.
set -eu
out=$1; main=$2; shift 2
{
    [ -z "$main" ] || cat "$main"
    for f in "$@"; do
        printf '\n@@ %s\n' "$(basename "$f")"
        cat "$f"
    done
} >"$out"
