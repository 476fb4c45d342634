#!/bin/sh
# CTest entry for the three.js / glTF-Validator cross-check: TOOL SRC.
# Exit 77 (skipped) without node >= 18 or without tests/js/node_modules.
command -v node >/dev/null 2>&1 || { echo "SKIP: node not found"; exit 77; }
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)
[ "${major:-0}" -ge 18 ] 2>/dev/null || { echo "SKIP: node ${major:-?} is older than 18"; exit 77; }
exec node "$(dirname "$0")/crosscheck.mjs" "$1" "$2"
