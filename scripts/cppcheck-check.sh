#!/usr/bin/env bash
# cppcheck's own test suite (testrunner) for a testrunner binary built from a
# tree scripts/build-cppcheck.sh made. It runs from a directory that mirrors
# the tree's top (its tests read cfg/, samples/ and test/ relative to it and
# write their scratch files there), with the binary beside them, where the
# tests look for cfg/ too. The sources of cli/, lib/ and test/ are copied,
# since the test of its file lister lists them and follows no symbolic link;
# the rest is linked.
#
#   scripts/cppcheck-check.sh CPPCHECK_DIR TESTRUNNER   -> testrunner's output
# Exits with testrunner's status.
set -euo pipefail
dir=$1 testrunner=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/cppcheck-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -C "$dir/tree" --exclude='*.o' -cf - cli lib test | tar -C "$work" -xf -
for entry in "$dir"/tree/*; do
  [ -e "$work/$(basename "$entry")" ] || ln -s "$entry" "$work/$(basename "$entry")"
done
cp "$testrunner" "$work/testrunner"
cd "$work"
./testrunner 2>&1
