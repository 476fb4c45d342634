#!/bin/bash
# Every --json document parses as JSON, carries "version": 1 first, and has
# the top-level keys docs/json.md documents. python3's json module is the
# independent parser.
TOOL=$1 SRC=$2 TMP=$3
mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
K=$SRC/assets/demo/knight
G=$SRC/tests/data/gltf/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf

check_json() { # check_json KEYS... : $out must be one JSON object with these keys
    if ! printf '%s' "$out" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
keys = sys.argv[1:]
assert isinstance(doc, dict), "not an object"
assert list(doc)[0] == "version" and doc["version"] == 1, "version must come first and be 1"
for k in keys:
    assert k in doc, "missing key " + k
' "$@"; then
        echo "FAIL: not the documented JSON: ${out:0:200}"
        fails=$((fails + 1))
    fi
}

expect 0 validate --json "$K";                      check_json units valid
expect 0 validate --json "$G";                      check_json units valid
expect 0 info --json "$K";                          check_json units
expect 0 info --json "$G";                          check_json gltf
expect 0 sample --json "$K" --time 0 --time 0.35;   check_json samples
expect 0 sample --json "$G" --time 1;               check_json samples

# An invalid unit still gives a valid document.
mkdir -p "$TMP/bad"; cp "$K"/* "$TMP/bad/"; head -c 200 "$K/Walk_3.obj" >"$TMP/bad/Walk_3.obj"
expect 1 validate --json "$TMP/bad";                check_json units valid
has "$out" '"check": "file"'

# repair: the unit copied (nothing to repair) and its report
expect 0 repair --json "$K" --out "$TMP/fixed";     check_json unit frames repaired
finish
