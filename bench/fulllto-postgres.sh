#!/usr/bin/env bash
# PostgreSQL 15's server linked with full LTO: its module
# (scripts/build-postgres.sh: the backend's ThinLTO objects joined by
# llvm-link, which carries no summary, so ld.lld links it as a regular LTO
# module) with the server's archives and libraries, by Debian's stock
# ld.lld-19 (--lto-partitions=1) and by the patched ld.lld
# --lto-mtpc-jobs=J, alternating, medians. Then PostgreSQL's own make check
# with each server: every test's verdict must be the same.
#
#   bench/fulllto-postgres.sh [--runs N] [--jobs J]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=1 jobs=2 size=0
. "$root/bench/common.sh"
bench_options "$@"
lld=$build/bin/ld.lld
bench_need "$lld" "build ld.lld first (lld-patches/build-lld.sh)"
pg=$("$root/scripts/build-postgres.sh")
work=${MTPC_BENCH_DIR:-$build/bench-fulllto-postgres}
mkdir -p "$work" && cd "$work"

# link NAME LD OUTPUT [flags]: the server's full LTO link, into NAME.stats.
link() {
  local name=$1 ld=$2 out=$3; shift 3
  # shellcheck disable=SC2046 # link-args.txt is a list of arguments
  measure "$name" clang-19 -flto -fuse-ld=lld --ld-path="$ld" "$pg/postgres.bc" \
    $(cat "$pg/link-args.txt") -o "$out" "$@"
}

rm -f stock.stats mtpc.stats
for i in $(seq "$runs"); do
  link stock /usr/lib/llvm-19/bin/ld.lld postgres-stock
  link mtpc "$lld" postgres-mtpc -Wl,--lto-mtpc-jobs="$jobs",--thinlto-mtpc-stats=stats.txt
done
partitions=$(sed -nE 's/^mtpc: ld-temp.o: ([0-9]+) partitions.*/\1/p' stats.txt)

# regress_results LOG: each test's name and verdict, from make check's log.
regress_results() {
  sed -nE 's/^(test)? +([a-z0-9_]+) +\.\.\. +(ok|FAILED|failed)( .*)?$/\2 \3/p' "$1" | sort
}
for v in stock mtpc; do
  "$root/scripts/postgres-check.sh" "$pg" "$work/check-$v" "$work/postgres-$v"
  regress_results "check-$v/check.log" > "$v.results"
done

echo "PostgreSQL 15 server, full LTO link: stock ld.lld-19 vs ld.lld --lto-mtpc-jobs=$jobs ($partitions partitions), median of $runs runs"
wall_cpu_table stock mtpc ""
printf '  %-12s %10s %10s %8s\n' "rss (KiB)" "$(col stock 3)" "$(col mtpc 3)" \
  "$(ratio "$(col mtpc 3)" "$(col stock 3)")"
for v in stock mtpc; do
  echo "  make check, $v server: $(grep -o 'All [0-9]* tests passed' "check-$v/check.log" ||
    grep -oE '[0-9]+ of [0-9]+ tests failed' "check-$v/check.log" || echo 'no summary')," \
    "$(wc -l < "$v.results") verdicts"
done
if diff -u stock.results mtpc.results > results.diff; then
  echo "  every test's verdict is the same"
else
  echo "  verdicts differ:"; cat results.diff; exit 1
fi
