#!/usr/bin/env bash
# The ThinLTO backend of sqlite3.c, unsplit (--partitions 1 -j1) against
# mtpc -j2, side by side in one run. Runs alternate; each figure is the median
# of --runs runs. Prints ratios (split / unsplit) against the targets.
#
#   bench/sqlite-backend.sh [--runs N] [--jobs J] [--speedtest-size S]
# Needs valgrind (for the instruction count).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3 jobs=2 size=100
. "$root/bench/common.sh"
bench_options "$@"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
bench_enter sqlite
[ -f sqlite3.bc ] || clang-19 -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.bc
[ -f speedtest1.o ] || clang-19 -O2 -c "$src/speedtest1.c" -I"$src" -o speedtest1.o



rm -f unsplit.stats split.stats
for i in $(seq "$runs"); do
  measure unsplit "$mtpc" compile sqlite3.bc -o unsplit.o --partitions 1 -j1
  measure split "$mtpc" compile sqlite3.bc -o split.o -j"$jobs"
done
"$mtpc" compile sqlite3.bc -o split.o -j"$jobs" --stats 2> split-stats.txt

for v in unsplit split; do
  clang-19 -fuse-ld=lld speedtest1.o $v.o -o speedtest1-$v -lm -lpthread -ldl
done
# Run time: user + system CPU seconds, alternating, median of 2 * runs + 1.
speedtest_runs "$size" $((2 * runs + 1)) unsplit split
insn_u=$(instructions ./speedtest1-unsplit --size 10)
insn_s=$(instructions ./speedtest1-split --size 10)

wall_u=$(col unsplit 1) wall_s=$(col split 1)
cpu_u=$(col unsplit 2) cpu_s=$(col split 2)
rss_u=$(col unsplit 3) rss_s=$(col split 3)
text_u=$(text_size unsplit.o) text_s=$(text_size split.o)
run_u=$(median < unsplit.run) run_s=$(median < split.run)
proj16=$(sed -nE 's/.*16 cores ([0-9.]+)x.*/\1/p' split-stats.txt)
proj64=$(sed -nE 's/.*64 cores ([0-9.]+)x.*/\1/p' split-stats.txt)
partitions=$(sed -nE 's/^mtpc stats: ([0-9]+) partitions.*/\1/p' split-stats.txt)

echo "sqlite3.c ThinLTO backend: unsplit -j1 vs mtpc -j$jobs ($partitions partitions), median of $runs runs"
echo "speedtest1: --size $size for CPU time, --size 10 under callgrind for instructions"
printf '  %-22s %10s %10s %8s   %s\n' figure unsplit split ratio target
printf '  %-22s %10s %10s %8s   %s\n' "wall (s)" "$wall_u" "$wall_s" "$(ratio "$wall_s" "$wall_u")" "<= 0.56"
printf '  %-22s %10s %10s %8s   %s\n' "cpu (s)" "$cpu_u" "$cpu_s" "$(ratio "$cpu_s" "$cpu_u")" "<= 1.10"
printf '  %-22s %10s %10s %8s   %s\n' "peak rss (KiB)" "$rss_u" "$rss_s" "$(ratio "$rss_s" "$rss_u")" "<= 1.30"
printf '  %-22s %10s %10s %8s   %s\n' ".text (bytes)" "$text_u" "$text_s" "$(ratio "$text_s" "$text_u")" "0.99 .. 1.01"
printf '  %-22s %10s %10s %8s   %s\n' "speedtest1 cpu (s)" "$run_u" "$run_s" "$(ratio "$run_s" "$run_u")" "0.98 .. 1.02"
printf '  %-22s %10s %10s %8s\n' "speedtest1 insns (M)" "$((insn_u / 1000000))" "$((insn_s / 1000000))" "$(ratio "$insn_s" "$insn_u")"
printf '  %-22s %21s %8s   %s\n' "projected, 16 cores" "" "${proj16}x" ">= 7"
printf '  %-22s %21s %8s\n' "projected, 64 cores" "" "${proj64}x"
