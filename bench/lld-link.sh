#!/usr/bin/env bash
# The SQLite shell's ThinLTO link (shell.c + sqlite3.c): Debian's stock
# ld.lld-19 --thinlto-jobs=J against the patched ld.lld --thinlto-jobs=J
# --thinlto-mtpc-jobs=J, side by side in one run, alternating, medians.
#
#   bench/lld-link.sh [--runs N] [--jobs J] [--speedtest-size S] [--llvm 19|22]
# speedtest1 runs --size S for CPU time and --size 10 under callgrind for a
# repeatable instruction count.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=5 jobs=2 size=100
. "$root/bench/common.sh"
bench_options "$@"
lld=$build/bin/ld.lld
bench_need "$lld" "build ld.lld first (lld-patches/build-lld.sh)"
bench_enter lld
for f in sqlite3 shell speedtest1; do
  [ -f $f.o ] || clang-$version -O2 -flto=thin -c "$src/$f.c" -I"$src" -o $f.o
done

# link NAME LD OUTPUT MAIN [flags]: the link, measured into NAME.stats.
link() {
  local name=$1 ld=$2 out=$3 main=$4; shift 4
  measure "$name" clang-$version -flto=thin -fuse-ld=lld --ld-path="$ld" $main.o sqlite3.o -o "$out" \
    -Wl,--thinlto-jobs="$jobs" "$@" -lm -lpthread -ldl
}

rm -f stock.stats mtpc.stats
for i in $(seq "$runs"); do
  link stock /usr/lib/llvm-$version/bin/ld.lld shell-stock shell
  link mtpc "$lld" shell-mtpc shell -Wl,--thinlto-mtpc-jobs="$jobs"
done
link other /usr/lib/llvm-$version/bin/ld.lld speedtest1-stock speedtest1
link other "$lld" speedtest1-mtpc speedtest1 -Wl,--thinlto-mtpc-jobs="$jobs"

speedtest_runs "$size" $((2 * runs + 1)) stock mtpc
insn_s=$(instructions ./speedtest1-stock --size 10)
insn_m=$(instructions ./speedtest1-mtpc --size 10)

wall_s=$(col stock 1) wall_m=$(col mtpc 1)
cpu_s=$(col stock 2) cpu_m=$(col mtpc 2)
rss_s=$(col stock 3) rss_m=$(col mtpc 3)
text_s=$(text_size shell-stock) text_m=$(text_size shell-mtpc)
run_s=$(median < stock.run) run_m=$(median < mtpc.run)

echo "SQLite shell ThinLTO link: stock ld.lld-$version vs ld.lld --thinlto-mtpc-jobs=$jobs, --thinlto-jobs=$jobs, median of $runs runs"
printf '  %-22s %10s %10s %8s   %s\n' figure stock mtpc ratio target
printf '  %-22s %10s %10s %8s   %s\n' "link wall (s)" "$wall_s" "$wall_m" "$(ratio "$wall_m" "$wall_s")" "<= 0.62"
printf '  %-22s %10s %10s %8s\n' "link cpu (s)" "$cpu_s" "$cpu_m" "$(ratio "$cpu_m" "$cpu_s")"
# The wall ratio of a link that spread stock's own CPU time over J cores
# with nothing serial left: below it, only less CPU than stock's goes.
printf '  %-22s %10s %10s %8s\n' "stock cpu / $jobs (s)" "$wall_s" \
  "$(awk -v c="$cpu_s" -v j="$jobs" 'BEGIN {printf "%.2f", c / j}')" "$(ratio "$(awk -v c="$cpu_s" -v j="$jobs" 'BEGIN {print c / j}')" "$wall_s")"
printf '  %-22s %10s %10s %8s   %s\n' "peak rss (KiB)" "$rss_s" "$rss_m" "$(ratio "$rss_m" "$rss_s")" "<= 1.30"
printf '  %-22s %10s %10s %8s   %s\n' "shell .text (bytes)" "$text_s" "$text_m" "$(ratio "$text_m" "$text_s")" "0.99 .. 1.01"
printf '  %-22s %10s %10s %8s   %s\n' "speedtest1 cpu (s)" "$run_s" "$run_m" "$(ratio "$run_m" "$run_s")" "0.98 .. 1.02"
printf '  %-22s %10s %10s %8s\n' "speedtest1 insns (M)" "$((insn_s / 1000000))" "$((insn_m / 1000000))" "$(ratio "$insn_m" "$insn_s")"
