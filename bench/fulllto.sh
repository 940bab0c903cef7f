#!/usr/bin/env bash
# The SQLite shell linked with full LTO (clang-19 -O2 -flto): Debian's stock
# ld.lld-19 with --lto-partitions=1 and =2 against the patched ld.lld
# --lto-mtpc-jobs=J, side by side, alternating, medians. Then what the
# split does to the program (speedtest1's instructions under callgrind,
# .text, the global symbols), and incremental relinks: one-function edits of
# sqlite3.c (bench/sqlite-edit.py, as bench/incremental.sh makes them),
# relinked against the warm --thinlto-cache-dir of the unedited build,
# against stock's relink (which recompiles everything), each compared byte
# for byte with a link from an empty cache.
#
#   bench/fulllto.sh [--runs N] [--jobs J] [--speedtest-size S] [--llvm 19|22]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3 jobs=2 size=100
. "$root/bench/common.sh"
bench_options "$@"
lld=$build/bin/ld.lld
stock=/usr/lib/llvm-$version/bin/ld.lld
bench_need "$lld" "build ld.lld first (lld-patches/build-lld.sh)"
bench_enter fulllto
edit=$root/bench/sqlite-edit.py
mkdir -p src && cp "$src/sqlite3.h" src/
for f in shell speedtest1; do
  [ -f $f.o ] || clang-$version -O2 -flto -c "$src/$f.c" -I"$src" -o $f.o
done
python3 "$edit" build --full-lto "$src/sqlite3.c" src

# link NAME LD OUTPUT MAIN [flags]: the full LTO link, measured into NAME.stats.
link() {
  local name=$1 ld=$2 out=$3 main=$4; shift 4
  measure "$name" clang-$version -flto -fuse-ld=lld --ld-path="$ld" $main.o src/sqlite3.o -o "$out" \
    "$@" -lm -lpthread -ldl
}
mtpc_flags=(-Wl,--lto-mtpc-jobs="$jobs" -Wl,--thinlto-mtpc-stats=stats.txt)

rm -f p1.stats p2.stats mtpc.stats
for i in $(seq "$runs"); do
  link p1 "$stock" shell-p1 shell -Wl,--lto-partitions=1
  link p2 "$stock" shell-p2 shell -Wl,--lto-partitions=2
  link mtpc "$lld" shell-mtpc shell "${mtpc_flags[@]}"
done
partitions=$(sed -nE 's/^mtpc: ld-temp.o: ([0-9]+) partitions.*/\1/p' stats.txt)
link other "$stock" speedtest1-stock speedtest1
link other "$lld" speedtest1-mtpc speedtest1 "${mtpc_flags[@]}"
insn_s=$(instructions ./speedtest1-stock --size 10)
insn_m=$(instructions ./speedtest1-mtpc --size 10)
speedtest_runs "$size" $((2 * runs + 1)) stock mtpc
LLVM_NM=llvm-nm-$version "$root/tests/global-symbols.sh" shell-p1 > p1.syms
LLVM_NM=llvm-nm-$version "$root/tests/global-symbols.sh" shell-mtpc > mtpc.syms

wall_1=$(col p1 1) wall_2=$(col p2 1) wall_m=$(col mtpc 1)
echo "SQLite shell, full LTO (-O2 -flto): stock ld.lld-$version vs ld.lld --lto-mtpc-jobs=$jobs ($partitions partitions), median of $runs runs"
printf '  %-30s %10s %10s %8s   %s\n' figure stock mtpc ratio target
printf '  %-30s %10s %10s %8s   %s\n' "wall (s), --lto-partitions=1" "$wall_1" "$wall_m" \
  "$(ratio "$wall_m" "$wall_1")" "<= 0.55"
printf '  %-30s %10s %10s %8s   %s\n' "wall (s), --lto-partitions=2" "$wall_2" "$wall_m" \
  "$(ratio "$wall_m" "$wall_2")" "<= 0.70"
printf '  %-30s %10s %10s %8s\n' "cpu (s), --lto-partitions=1" "$(col p1 2)" "$(col mtpc 2)" \
  "$(ratio "$(col mtpc 2)" "$(col p1 2)")"
printf '  %-30s %10s %10s %8s   %s\n' "peak rss (KiB), partitions=1" "$(col p1 3)" "$(col mtpc 3)" \
  "$(ratio "$(col mtpc 3)" "$(col p1 3)")" "<= 1.30"
printf '  %-30s %10s %10s %8s   %s\n' "shell .text (bytes)" "$(text_size shell-p1)" \
  "$(text_size shell-mtpc)" "$(ratio "$(text_size shell-mtpc)" "$(text_size shell-p1)")" "0.98 .. 1.02"
printf '  %-30s %10s %10s %8s   %s\n' "speedtest1 insns (M)" "$((insn_s / 1000000))" \
  "$((insn_m / 1000000))" "$(ratio "$insn_m" "$insn_s")" "0.995 .. 1.005"
printf '  %-30s %10s %10s %8s\n' "speedtest1 cpu (s)" "$(median < stock.run)" \
  "$(median < mtpc.run)" "$(ratio "$(median < mtpc.run)" "$(median < stock.run)")"
echo "  global symbols: stock $(wc -l < p1.syms), mtpc $(wc -l < mtpc.syms)," \
  "differing $(comm -3 p1.syms mtpc.syms | wc -l) (target 0)"

# Incremental: the warm caches of the unedited build, then each edit.
rm -rf base && link setup "$lld" shell-base shell "${mtpc_flags[@]}" -Wl,--thinlto-cache-dir=base
rm -f relink-stock.stats relink-mtpc.stats recompiled.txt
identical=0
mapfile -t picked < <(python3 "$edit" pick "$src/sqlite3.c" --seed 1 --count "$runs")
for f in "${picked[@]}"; do
  python3 "$edit" build --full-lto "$src/sqlite3.c" src "body:$f"
  rm -rf warm cold && cp -r base warm
  link relink-stock "$stock" shell-stock-edit shell
  link relink-mtpc "$lld" shell-mtpc-edit shell "${mtpc_flags[@]}" -Wl,--thinlto-cache-dir=warm
  awk '/partition cache:/ {print $5}' stats.txt >> recompiled.txt
  link cold "$lld" shell-cold shell "${mtpc_flags[@]}" -Wl,--thinlto-cache-dir=cold
  cmp -s shell-mtpc-edit shell-cold && identical=$((identical + 1))
done
echo "one-function edits of sqlite3.c ($runs), relinked with a warm cache:"
echo "  partitions recompiled: median $(median < recompiled.txt) of $partitions," \
  "identical to a link from an empty cache: $identical of $runs"
printf '  %-30s %10s %10s %8s   %s\n' "relink wall (s)" "$(col relink-stock 1)" \
  "$(col relink-mtpc 1)" "$(ratio "$(col relink-mtpc 1)" "$(col relink-stock 1)")" "<= 0.30"
