#!/bin/sh
# usage: fuzz.sh BUILD_DIR SECONDS JOBS MERGE
# Runs every libFuzzer target of BUILD_DIR (a -DMK_LIBFUZZER=ON build; the
# seed list of each is BUILD_DIR/tests/fuzz_NAME.seeds) for SECONDS with
# JOBS parallel jobs, starting from its seeds and tests/fuzz/corpus/NAME/.
# MERGE=1 merges the inputs that add coverage into tests/fuzz/corpus/NAME/
# (`make fuzz`); MERGE=0 leaves the source tree alone (`make test`).
# Each target uses tests/fuzz/dict/NAME.dict when there is one, and the
# limits of the bar in tests/fuzz/README.md: 1 s per input, 2 GB.
# Fails, naming the file, when a target finds a crash, leak, timeout or OOM.
set -eu
build=$(cd "$1" && pwd); seconds=$2; jobs=$3; merge=$4
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for list in "$build"/tests/fuzz_*.seeds; do
    [ -f "$list" ] || { echo "fuzz: no fuzz targets in $build (configure with -DMK_LIBFUZZER=ON)"; exit 1; }
    name=$(basename "$list" .seeds)
    fuzzer=$build/tests/$name
    corpus=$root/tests/fuzz/corpus/${name#fuzz_}
    work=$build/fuzz-work/$name
    rm -rf "$work"; mkdir -p "$work/in" "$work/artifacts"
    # numbered copies: seeds from different folders may share a name
    i=0
    while IFS= read -r seed; do i=$((i + 1)); cp "$seed" "$work/in/$i-$(basename "$seed")"; done <"$list"
    if [ -d "$corpus" ]; then cp "$corpus"/* "$work/in/" 2>/dev/null || true; fi
    dict=$root/tests/fuzz/dict/${name#fuzz_}.dict
    set -- -timeout=1 -rss_limit_mb=2048 -malloc_limit_mb=2048
    [ -f "$dict" ] && set -- "$@" -dict="$dict"
    echo "fuzz: $name for ${seconds}s, $jobs job(s)"
    # Jobs write their logs (fuzz-N.log) into the current folder.
    (cd "$work" && "$fuzzer" "$@" -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" \
        -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/in" >"$work/run.log" 2>&1) || true
    found=$(ls "$work/artifacts")
    if [ -n "$found" ]; then
        echo "fuzz: $name FOUND: $(echo "$found" | tr '\n' ' ') (in $work/artifacts; log $work)"
        status=1
    else
        grep -hoE 'cov: [0-9]+' "$work"/*.log | tail -n1 | sed "s/^/fuzz: $name: /"
    fi
    if [ "$merge" = 1 ]; then
        mkdir -p "$corpus"
        "$fuzzer" -merge=1 "$corpus" "$work/in" >"$work/merge.log" 2>&1
        echo "fuzz: $name: $(ls "$corpus" | wc -l) inputs in tests/fuzz/corpus/${name#fuzz_}"
    fi
done
exit $status
