#!/usr/bin/env bash
# Distributed ThinLTO's backend step for the SQLite shell (shell.c +
# sqlite3.c, linked with --thinlto-index-only): the backend jobs run two at a
# time (make -j2, as a build system would), once as clang-19 jobs and once
# as `mtpc backend -j2` jobs (default threshold: both modules are split),
# whose threads share make's two slots through its jobserver.
# Runs alternate; medians of --runs runs. Prints the wall-time ratio.
#
#   bench/index-only.sh [--runs N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3 jobs=2 size=0
. "$root/bench/common.sh"
bench_options "$@"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
bench_enter index-only
[ -f sqlite3.o ] || clang-19 -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.o
[ -f shell.o ] || clang-19 -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o
clang-19 -flto=thin -fuse-ld=lld -Wl,--thinlto-index-only shell.o sqlite3.o -o shell -lm -lpthread -ldl

# make -j2 runs the two jobs at once (largest first); the '+' hands mtpc's jobs
# make's jobserver, from which their threads take slots.
cat > jobs.mk <<MK
all: sqlite3.\$(WAY).o shell.\$(WAY).o
%.stock.o: %.o
	clang-19 -c -O2 -x ir \$< -fthinlto-index=\$<.thinlto.bc -o \$@
%.mtpc.o: %.o
	+$mtpc backend -c -O2 -x ir \$< -fthinlto-index=\$<.thinlto.bc -o \$@ -j$jobs
MK
two_at_a_time() { rm -f {sqlite3,shell}.$1.o && make -s -j2 -f jobs.mk WAY=$1; }

rm -f stock.stats mtpc.stats
for _ in $(seq "$runs"); do
  for v in stock mtpc; do
    bench_time $v two_at_a_time $v
  done
done
for v in stock mtpc; do
  clang-19 -fuse-ld=lld shell.$v.o sqlite3.$v.o -o shell-$v -lm -lpthread -ldl
done
echo "SELECT sqlite_version(), 6*7;" | ./shell-mtpc :memory: > /dev/null

printf "index-only SQLite shell: backend jobs 2 at a time, clang-19 vs mtpc backend -j%s, median of %s runs\n" "$jobs" "$runs"
wall_cpu_table clang mtpc '<= 0.62'
