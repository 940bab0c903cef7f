#!/usr/bin/env bash
# DTLTO with LLVM 22: the SQLite shell (shell.c + sqlite3.c) linked by clang-22
# with lld's in-process ThinLTO backends (--thinlto-jobs=2) against DTLTO with
# `mtpc distribute -j2` running `mtpc backend` jobs (default threshold: both
# modules split), which share the two slots through the jobserver. Links
# alternate; medians of --runs runs. Prints the wall and CPU ratios.
#
#   bench/dtlto.sh [--runs N]     (needs the LLVM 22 build, build-22/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD22_DIR:-$root/build-22}
runs=3 jobs=2 size=0
. "$root/bench/common.sh"
bench_options "$@"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc against LLVM 22 first (scripts/test.sh)"
bench_enter dtlto
[ -f sqlite3.o ] || clang-22 -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.o
[ -f shell.o ] || clang-22 -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o

link_stock() { clang-22 -flto=thin -fuse-ld=lld -Wl,--thinlto-jobs=$jobs "$@"; }
link_mtpc() {
  clang-22 -flto=thin -fuse-ld=lld -fthinlto-distributor="$mtpc" \
    -Xthinlto-distributor=distribute,-j$jobs -Wl,--thinlto-remote-compiler="$mtpc" \
    -Wl,--thinlto-remote-compiler-prepend-arg=backend "$@"
}
rm -f stock.stats mtpc.stats
for _ in $(seq "$runs"); do
  for v in stock mtpc; do
    bench_time $v link_$v shell.o sqlite3.o -o shell-$v -lm -lpthread -ldl
  done
done
echo "SELECT sqlite_version(), 6*7;" | ./shell-mtpc :memory: > /dev/null

printf "SQLite shell, clang-22 ThinLTO link: lld in-process --thinlto-jobs=%s vs DTLTO mtpc distribute -j%s + mtpc backend, median of %s runs\n" "$jobs" "$jobs" "$runs"
wall_cpu_table stock dtlto ''
