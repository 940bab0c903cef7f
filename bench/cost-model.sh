#!/usr/bin/env bash
# How well the planner's cost (partitioner/cost.h: instructions, debug
# records, initializer data) predicts compile time:
# compiles a module on one thread (so timings do not contend) and
# correlates each partition's cost with its measured load + optimize +
# codegen + release seconds.
#   sqlite   (default) sqlite3.c's ThinLTO module at the finest split, then
#            the balance of its default plan
#   postgres PostgreSQL's server as one module (scripts/build-postgres.sh)
#            at its default plan: the finest split would be 17,836
#            partitions of a 45 MB module
#   bench/cost-model.sh [sqlite|postgres]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
module=${1:-sqlite}
. "$root/bench/common.sh"
case $module in
  sqlite)
    bench_enter sqlite
    [ -f sqlite3.bc ] || clang-19 -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.bc
    "$build/bin/mtpc" compile sqlite3.bc -o finest.o --partitions max -j1 --stats 2> finest-stats.txt
    ;;
  postgres)
    pg=$("$root/scripts/build-postgres.sh")
    work=${MTPC_BENCH_DIR:-$build/bench-cost-postgres}
    mkdir -p "$work" && cd "$work"
    "$build/bin/mtpc" compile "$pg/postgres.bc" -o default.o -j1 --stats 2> finest-stats.txt
    ;;
  *) echo "usage: $0 [sqlite|postgres]" >&2; exit 2 ;;
esac

# Rows: partition cost imported functions load opt cg free mem rss
awk '$1 ~ /^[0-9]+$/ && NF == 10 {print $2, $3, $5 + $6 + $7 + $8}' finest-stats.txt > cost-time.txt
# Pearson on all partitions is dominated by the largest one, so also report
# it without that one, and Spearman's rank correlation.
sort -g -k1 cost-time.txt | head -n -1 > cost-time-rest.txt
pearson() {
  awk -v col="$2" '{x = (col == 1) ? $1 : $1 + $2; y = $3; n++; sx += x; sy += y; sxx += x*x; syy += y*y; sxy += x*y}
    END {printf "%.3f", (n*sxy - sx*sy) / sqrt((n*sxx - sx*sx) * (n*syy - sy*sy))}' "$1"
}
ranks() { awk -v col="$1" '{print (col == 1) ? $1 : $3}' cost-time.txt | nl -ba | sort -g -k2 | awk '{print $1, NR}' | sort -n | awk '{print $2}'; }
spearman=$(paste <(ranks 1) <(ranks 3) | awk '{n++; d = $1 - $2; s += d*d} END {printf "%.3f", 1 - 6*s/(n*(n*n-1))}')
echo "partitions: $(wc -l < cost-time.txt), largest: $(sort -g -k1 cost-time.txt | tail -1 | awk '{print $1 " cost, " $3 " s"}')"
echo "pearson r, cost vs time, all partitions:          $(pearson cost-time.txt 1)"
echo "pearson r, cost vs time, without the largest:     $(pearson cost-time-rest.txt 1)"
echo "pearson r, cost + copied cost, without largest:   $(pearson cost-time-rest.txt 2)"
echo "spearman rank correlation, cost vs time:          $spearman"
awk '{x = $1; y = $3; n++; sx += x; sy += y; sxx += x*x; sxy += x*y}
  END {b = (n*sxy - sx*sy) / (n*sxx - sx*sx); printf "fit without the largest: %.1f ms per 1000 cost + %.1f ms per partition\n", b*1e6, (sy - b*sx)/n*1e3}' cost-time-rest.txt
# Issue 15's balance figure: the largest share of the time over share of the
# cost, and the partition it belongs to (the row number is its index); then
# the same against the model with a fixed time per partition (the fit on all
# partitions), which the planner cannot balance away: every partition pays it.
balance() {
  awk '{c[NR] = $1; t[NR] = $3; sc += $1; st += $3}
    END {for (i = 1; i <= NR; i++) {r = (t[i] / st) / (c[i] / sc); if (r > worst) {worst = r; at = i - 1}}
         printf "slowest partition for its cost (time share / cost share; target <= 1.5): %.2f (partition %d)\n", worst, at}' "$1"
  awk '{x[NR] = $1; y[NR] = $3; n++; sx += $1; sy += $3; sxx += $1*$1; sxy += $1*$3}
    END {b = (n*sxy - sx*sy) / (n*sxx - sx*sx); a = (sy - b*sx)/n
         for (i = 1; i <= n; i++) {m = a + b*x[i]; sm += m}
         for (i = 1; i <= n; i++) {r = (y[i] / sy) / ((a + b*x[i]) / sm); if (r > worst) {worst = r; at = i - 1}}
         printf "slowest partition for its modelled time (%.1f ms per 1000 cost + %.0f ms): %.2f (partition %d)\n", b*1e6, a*1e3, worst, at}' "$1"
}
balance cost-time.txt
# The finest split measures the model; balance matters at the default plan.
if [ "$module" = sqlite ]; then
  "$build/bin/mtpc" compile sqlite3.bc -o default.o -j1 --stats 2> default-stats.txt
  awk '$1 ~ /^[0-9]+$/ && NF == 10 {print $2, $3, $5 + $6 + $7 + $8}' default-stats.txt > default-cost-time.txt
  echo "default plan, $(wc -l < default-cost-time.txt) partitions:"
  balance default-cost-time.txt
fi
