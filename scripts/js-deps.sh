#!/bin/sh
# Test-only npm packages for the cross-check in tests/js (three.js and the
# Khronos glTF-Validator, versions pinned in tests/js/package-lock.json).
# Never fails: without npm, or when the install fails, the js_crosscheck
# test skips itself (CTest exit code 77) and everything else runs as usual.
cd "$(dirname "$0")/../tests/js" || exit 0
if ! command -v npm >/dev/null 2>&1; then
    echo "js-deps: npm not found: the three.js/glTF-Validator cross-check will be skipped" >&2
    exit 0
fi
# Already installed from this lock file: nothing to do (no network).
if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
    exit 0
fi
echo "js-deps: installing tests/js packages with npm ci" >&2
if command -v timeout >/dev/null 2>&1; then T="timeout 300"; else T=""; fi
$T npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null 2>&1 ||
    echo "js-deps: npm ci failed: the cross-check will be skipped" >&2
exit 0
