#!/bin/bash
# morphkit bench --quick: the smoke run of the user-facing benchmark. The
# JSON carries every documented key (python3's json module parses it), every
# ratio is the two timings' quotient, --simd picks the variant, and bad
# options are usage errors. Nothing about speed is asserted.
TOOL=$1 SRC=$2 TMP=$3
mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"

expect 0 bench --quick
has "$out" "ns/vertex"
has "$out" "players:"
expect 0 bench --quick --json --simd scalar
if ! printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert list(d)[0] == "version" and d["version"] == 1
assert d["simd"] == "scalar", d["simd"]
assert d["bandwidth_gbs"] > 0
kernels = [r["kernel"] for r in d["rows"]]
for k in ("blend", "qblend", "qblend_vs_float_copy", "pose_smooth", "morph_dense", "qmorph_dense",
          "morph_sparse"):
    assert kernels.count(k) == 2, k  # in cache and from memory
for r in d["rows"]:
    assert r["ns_per_vertex"] > 0 and r["copy_ns_per_vertex"] > 0
    assert abs(r["ratio"] - r["ns_per_vertex"] / r["copy_ns_per_vertex"]) <= 2e-3 * r["ratio"]
    assert (r["goal"] is None) == (r["met"] is None)
    if r["goal"] is not None:
        assert r["met"] == (r["ratio"] <= r["goal"])
t = d["threads"]
assert t["threads"] == 2 and t["speedup"] > 0
assert abs(t["speedup"] - t["one_thread_ms"] / t["threads_ms"]) <= 2e-3 * t["speedup"]
assert d["player"]["players"] > 0 and d["player"]["ns_per_update"] > 0
'; then
    echo "FAIL: bench --json is not the documented document: ${out:0:300}"
    fails=$((fails + 1))
fi
expect 0 bench --quick --json --simd sse2 --threads 1
has "$out" '"simd": "sse2"'
has "$out" '"threads": 1'
expect 2 bench --simd mmx
has "$err" "--simd takes"
expect 2 bench --threads 0
expect 2 bench --frobnicate
expect 0 bench --help
has "$out" "usage: morphkit bench"
finish
