#!/bin/bash
# morphkit's top level: --help, --version, unknown commands, exit codes.
TOOL=$1 SRC=$2 TMP=$3
mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"

expect 0 --help;        has "$out" "validate"; has "$out" "info"; has "$out" "exit codes"
expect 0 --version;     has "$out" "morphkit 0."
expect 2;               has "$err" "usage: morphkit COMMAND"
expect 2 frobnicate;    has "$err" "unknown command 'frobnicate'"
for cmd in validate info; do
    expect 0 $cmd --help; has "$out" "usage: morphkit $cmd"
    expect 2 $cmd --no-such-option x; has "$err" "unknown option '--no-such-option'"
    expect 2 $cmd
done
finish
