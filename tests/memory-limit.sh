#!/usr/bin/env bash
# --memory-limit at -j16 on sqlite3.c: the peak RSS stays under the limit
# (margin: none; the estimates are rounded up), fewer bytes than without
# it, and the object is byte-identical to the unlimited compile's.
#   memory-limit.sh <build dir> <work dir>
set -euo pipefail
build=$1 work=$2
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(grep -m1 '^MTPC_LLVM_VERSION' "$build/CMakeCache.txt" | sed 's/.*=//')
src=$("$root/scripts/fetch-inputs.sh" sqlite)
mkdir -p "$work" && cd "$work"
[ -f sqlite3.bc ] || "clang-$version" -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.bc
peak() { /usr/bin/time -f %M -o rss.txt "$build/bin/mtpc" compile sqlite3.bc "$@" && cat rss.txt; }
free_kib=$(peak -o free.o -j16 --partitions 16)
limit_kib=$((free_kib * 6 / 10))
limited_kib=$(peak -o limited.o -j16 --partitions 16 --memory-limit=${limit_kib}K --stats 2> stats.txt)
echo "unlimited ${free_kib} KiB, limit ${limit_kib} KiB, limited ${limited_kib} KiB"
grep "waited for the memory limit" stats.txt
[ "$limited_kib" -le "$limit_kib" ] || { echo "FAIL: peak over the limit"; exit 1; }
cmp free.o limited.o
echo "memory-limit: ok"
