#!/usr/bin/env bash
# End to end on SQLite: sqlite3.c as ThinLTO bitcode, compiled by mtpc unsplit,
# split (-j2, default partitions) and split finest (one partition per group);
# the shell and speedtest1 linked against each must behave the same, and the
# split objects must define the same global and weak symbols. (--emit-llvm of
# the finest split is lit's emit-llvm.test.)
#
#   tests/e2e/sqlite-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
cc=clang-$version
src=$("$root/scripts/fetch-inputs.sh" sqlite)

"$here/sqlite-thin.sh" "$build" sqlite3.bc
"$cc" -O2 -c "$src/shell.c" -I"$src" -o shell.o
"$cc" -O2 -c "$src/speedtest1.c" -I"$src" -o speedtest1.o

"$mtpc" compile sqlite3.bc -o unsplit.o --partitions 1 -j1
"$mtpc" compile sqlite3.bc -o split.o -j2
"$mtpc" compile sqlite3.bc -o finest.o --partitions max -j2
finest=finest

globals unsplit.o > unsplit.syms
for v in split $finest; do
  globals $v.o > $v.syms
  diff -u unsplit.syms $v.syms
done

for v in unsplit split $finest; do
  "$cc" -fuse-ld=lld shell.o $v.o -o shell-$v -lm -lpthread -ldl
  "$cc" -fuse-ld=lld speedtest1.o $v.o -o speedtest1-$v -lm -lpthread -ldl
  ./shell-$v :memory: < "$here/sqlite-queries.sql" > queries-$v.out 2>&1
  # speedtest1 prints timings; keep the test names and what it checks.
  ./speedtest1-$v --size 5 --verify 2>&1 | sed -E 's/[0-9]+\.[0-9]+s$//' > speedtest1-$v.out
done

for v in split $finest; do
  diff -u queries-unsplit.out queries-$v.out
  diff -u speedtest1-unsplit.out speedtest1-$v.out
done
test "$(wc -l < queries-unsplit.out)" -gt 100
grep -q '^ok$' queries-unsplit.out
grep -q "TOTAL" speedtest1-unsplit.out
grep -q "Verification Hash" speedtest1-unsplit.out
echo "sqlite e2e: unsplit, split and finest builds agree ($(wc -l < queries-unsplit.out) lines of query output)"
