#!/usr/bin/env bash
# Peak RSS and wall time of `mtpc compile` on sqlite3.c at -j1, -j2, -j8 and
# -j16, without a memory limit and with --memory-limit set to the unsplit
# compile's peak RSS (a split never needs more memory than a serial compile)
# and to 1.5 times it. Each figure is the median of --runs runs; every
# limited object is compared with the unlimited one.
#
#   bench/memory.sh [--runs N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3
. "$root/bench/common.sh"
bench_options "$@"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
bench_enter memory
[ -f sqlite3.bc ] || clang-19 -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.bc

# run NAME ARGS...: one compile of sqlite3.bc, measured into NAME.stats
# (columns: wall, cpu, maxrss_kib).
run() {
  local name=$1; shift
  measure "$name" "$mtpc" compile sqlite3.bc "$@"
}

rm -f ./*.stats
for i in $(seq "$runs"); do run unsplit -o unsplit.o --partitions 1 -j1; done
limit_kib=$(col unsplit 3)
printf 'unsplit (--partitions 1 -j1): peak RSS %d MiB, wall %.2f s; limit = %d MiB\n' \
  $((limit_kib / 1024)) "$(col unsplit 1)" $((limit_kib / 1024))
high_kib=$((limit_kib * 3 / 2))
printf '%4s  %-14s %-14s %-14s  %s\n' jobs "no limit" "limit x1.0" "limit x1.5" "output"
printf '%4s  %-14s %-14s %-14s\n' "" "MiB    s" "MiB    s  /lim" "MiB    s  /lim"
for j in 1 2 8 16; do
  for i in $(seq "$runs"); do
    run free$j -o free$j.o -j"$j"
    run low$j -o low$j.o -j"$j" --memory-limit="${limit_kib}K"
    run high$j -o high$j.o -j"$j" --memory-limit="${high_kib}K"
  done
  same=identical
  cmp -s free$j.o low$j.o && cmp -s free$j.o high$j.o || same=DIFFERENT
  printf '%4s  %3d %6.2f    %3d %6.2f %s  %3d %6.2f %s  %s\n' "$j" \
    $(($(col free$j 3) / 1024)) "$(col free$j 1)" \
    $(($(col low$j 3) / 1024)) "$(col low$j 1)" "$(ratio "$(col low$j 3)" "$limit_kib")" \
    $(($(col high$j 3) / 1024)) "$(col high$j 1)" "$(ratio "$(col high$j 3)" "$high_kib")" "$same"
done
echo "/lim: limited peak / limit (at most 1.000 is under the limit)"
