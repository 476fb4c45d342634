#!/bin/sh
# usage: coverage.sh FUZZER MIN_EDGES WORK_DIR [-dict=FILE] SEED...
# Runs a libFuzzer target once over its seeds (-runs=0) and checks the
# coverage it reports ("cov: N") is above MIN_EDGES: a build whose libraries
# lack the fuzzer instrumentation sees only the harness and fails this.
# With -dict=FILE the dictionary is loaded too (libFuzzer refuses a
# malformed one).
set -eu
fuzzer=$1; min=$2; work=$3; shift 3
dict=""
case "${1:-}" in -dict=*) dict=$1; shift ;; esac
rm -rf "$work"; mkdir -p "$work/corpus"
# numbered copies: seeds from different folders may share a name
i=0
for seed in "$@"; do i=$((i + 1)); cp "$seed" "$work/corpus/$i-$(basename "$seed")"; done
"$fuzzer" $dict -runs=0 "$work/corpus" >"$work/log.txt" 2>&1 || { cat "$work/log.txt"; exit 1; }
cov=$(grep -oE 'cov: [0-9]+' "$work/log.txt" | tail -n1 | cut -d' ' -f2)
[ -n "$cov" ] || { cat "$work/log.txt"; echo "coverage: no 'cov:' line"; exit 1; }
echo "coverage: $(basename "$fuzzer"): $cov edges over $# seeds (want > $min)"
[ "$cov" -gt "$min" ]
