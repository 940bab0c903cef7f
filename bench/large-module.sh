#!/usr/bin/env bash
# A module ten times sqlite3.c's: PostgreSQL 15's server joined into one
# module (scripts/build-postgres.sh), compiled unsplit (--partitions 1 -j1,
# as a stock backend) against `mtpc compile -j2`, side by side (alternating;
# each figure the median of --runs runs). Prints the wall, CPU and peak RSS
# ratios, each serial phase as a share of the unsplit time, how far the
# slowest partition's share of the time exceeds its share of the cost, and
# the --stats projections at 16 and 64 cores.
#
#   bench/large-module.sh [--runs N] [--jobs J]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=1 jobs=2 size=0
. "$root/bench/common.sh"
bench_options "$@"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
pg=$("$root/scripts/build-postgres.sh")
work=${MTPC_BENCH_DIR:-$build/bench-large}
mkdir -p "$work" && cd "$work"

rm -f unsplit.stats split.stats
for i in $(seq "$runs"); do
  measure unsplit "$mtpc" compile "$pg/postgres.bc" -o unsplit.o --partitions 1 -j1
  measure split sh -c '"$0" compile "$1" -o split.o -j"$2" --stats 2> split-stats.txt' \
    "$mtpc" "$pg/postgres.bc" "$jobs"
done

wall_u=$(col unsplit 1) wall_s=$(col split 1)
cpu_u=$(col unsplit 2) cpu_s=$(col split 2)
rss_u=$(col unsplit 3) rss_s=$(col split 3)
partitions=$(sed -nE 's/^mtpc stats: ([0-9]+) partitions.*/\1/p' split-stats.txt)
read -r read_s plan_s bitcode_s merge_s < <(sed -nE \
  's/.*serial: read ([0-9.]+)s, plan ([0-9.]+)s, bitcode ([0-9.]+)s, merge ([0-9.]+)s.*/\1 \2 \3 \4/p' split-stats.txt)
# Per partition: cost and load + opt + codegen seconds; the largest ratio of
# a partition's share of the time to its share of the cost.
skew=$(awk '$1 ~ /^[0-9]+$/ && NF == 10 {c[$1] = $2; t[$1] = $5 + $6 + $7 + $8; sc += $2; st += $5 + $6 + $7 + $8}
  END {for (p in c) if (c[p] > 0) {r = (t[p] / st) / (c[p] / sc); if (r > m) {m = r; w = p}}
       printf "%.2f (partition %s: %.1f%% of the time, %.1f%% of the cost)", m, w, 100 * t[w] / st, 100 * c[w] / sc}' split-stats.txt)
proj16=$(sed -nE 's/.*16 cores ([0-9.]+)x.*/\1/p' split-stats.txt)
proj64=$(sed -nE 's/.*64 cores ([0-9.]+)x.*/\1/p' split-stats.txt)
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f%%", 100 * a / b}'; }

echo "PostgreSQL 15 server, one module ($(du -h "$pg/postgres.bc" | cut -f1) of bitcode): unsplit -j1 vs mtpc -j$jobs ($partitions partitions), median of $runs runs"
printf '  %-24s %10s %10s %8s   %s\n' figure unsplit split ratio target
printf '  %-24s %10s %10s %8s   %s\n' "wall (s)" "$wall_u" "$wall_s" "$(ratio "$wall_s" "$wall_u")" "<= 0.55"
printf '  %-24s %10s %10s %8s   %s\n' "cpu (s)" "$cpu_u" "$cpu_s" "$(ratio "$cpu_s" "$cpu_u")" "<= 1.10"
printf '  %-24s %10s %10s %8s   %s\n' "peak rss (KiB)" "$rss_u" "$rss_s" "$(ratio "$rss_s" "$rss_u")" "<= 1.30"
echo "serial phases of the split compile, share of the unsplit wall time (target: <= 3% together):"
printf '  read %s, plan %s, bitcode %s, merge %s; together %s\n' "$(pct "$read_s" "$wall_u")" \
  "$(pct "$plan_s" "$wall_u")" "$(pct "$bitcode_s" "$wall_u")" "$(pct "$merge_s" "$wall_u")" \
  "$(pct "$(awk -v a="$read_s" -v b="$plan_s" -v c="$bitcode_s" -v d="$merge_s" 'BEGIN {print a + b + c + d}')" "$wall_u")"
echo "slowest partition for its cost (time share / cost share; target <= 1.5): $skew"
echo "projected speedup (--stats): 16 cores ${proj16}x (target >= 10), 64 cores ${proj64}x (target >= 20)"
