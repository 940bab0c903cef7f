#!/usr/bin/env bash
# --memory-limit at -j16 on sqlite3.c: the peak RSS stays under the limit
# (margin: none; the estimates are rounded up), fewer bytes than without
# it, and the object is byte-identical to the unlimited compile's. The
# limit lies halfway between the -j1 and the unlimited -j16 peaks: room for
# one thread and more, not for all sixteen. (A fixed fraction of the -j16
# peak fell below what one thread needs once jemalloc let the threads share
# arenas: 60% of 264 MB is under the 127 MB base plus a 42 MB partition.)
#   memory-limit.sh <build dir> <work dir>
set -euo pipefail
build=$1 work=$2
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(grep -m1 '^MTPC_LLVM_VERSION' "$build/CMakeCache.txt" | sed 's/.*=//')
src=$("$root/scripts/fetch-inputs.sh" sqlite)
mkdir -p "$work" && cd "$work"
MTPC_LLVM_VERSION=$version "$root/tests/e2e/sqlite-thin.sh" "$build" sqlite3.bc
peak() { /usr/bin/time -f %M -o rss.txt "$build/bin/mtpc" compile sqlite3.bc "$@" && cat rss.txt; }
one_kib=$(peak -o one.o -j1 --partitions 16)
free_kib=$(peak -o free.o -j16 --partitions 16)
limit_kib=$(((one_kib + free_kib) / 2))
limited_kib=$(peak -o limited.o -j16 --partitions 16 --memory-limit=${limit_kib}K --stats 2> stats.txt)
echo "-j1 ${one_kib} KiB, unlimited ${free_kib} KiB, limit ${limit_kib} KiB, limited ${limited_kib} KiB"
grep "waited for the memory limit" stats.txt
[ "$limited_kib" -le "$limit_kib" ] || { echo "FAIL: peak over the limit"; exit 1; }
cmp free.o limited.o
echo "memory-limit: ok"
