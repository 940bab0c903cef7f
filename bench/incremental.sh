#!/usr/bin/env bash
# Incremental relinks of the SQLite shell: edits of sqlite3.c (20 single
# functions chosen by a fixed seed among functions of all sizes, then five
# edits of five functions each), each recompiled to bitcode and relinked
# against a warm --thinlto-cache-dir (the cache of the unedited build), with
# stock ld.lld-19 and with ld.lld --thinlto-mtpc-jobs=J, side by side. Each
# mtpc relink is also compared byte for byte with a link from an empty cache.
#
#   bench/incremental.sh [--jobs J] [--runs N]   (N: how many single edits)
# Prints partitions recompiled (median, largest) and the relink wall ratio.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=20 jobs=2 size=100
. "$root/bench/common.sh"
bench_options "$@"
lld=$build/bin/ld.lld
bench_need "$lld" "build ld.lld first (lld-patches/build-lld.sh)"
bench_enter incremental
edit=$root/bench/sqlite-edit.py
mkdir -p src && cp "$src/sqlite3.h" src/
[ -f shell.o ] || clang-19 -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o

# bitcode EDIT...: src/sqlite3.o from sqlite3.c with the edits (none: as is).
bitcode() { python3 "$edit" build "$src/sqlite3.c" src "$@"; }

# link NAME LD CACHE OUTPUT [flags]: the shell linked with CACHE, into NAME.stats.
link() {
  local name=$1 ld=$2 cache=$3 out=$4; shift 4
  measure "$name" clang-19 -flto=thin -fuse-ld=lld --ld-path="$ld" shell.o src/sqlite3.o \
    -o "$out" -Wl,--thinlto-jobs="$jobs" -Wl,--thinlto-cache-dir="$cache" "$@" -lm -lpthread -ldl
}

mtpc_flags=(-Wl,--thinlto-mtpc-jobs="$jobs" -Wl,--thinlto-mtpc-stats=stats.txt)

# The warm caches: those of the unedited build.
bitcode
rm -rf base-stock base-mtpc
link setup /usr/lib/llvm-19/bin/ld.lld base-stock shell-stock
link setup "$lld" base-mtpc shell-mtpc "${mtpc_flags[@]}"
total=$(sed -nE 's/^mtpc: .*sqlite3.o: ([0-9]+) partitions.*/\1/p' stats.txt)

# relink LABEL EDIT...: one edited build relinked both ways; appends
# "label recompiled partitions identical" to results.txt.
relink() {
  local label=$1; shift
  bitcode "$@"
  rm -rf cache-stock cache-mtpc cold && cp -r base-stock cache-stock && cp -r base-mtpc cache-mtpc
  link stock /usr/lib/llvm-19/bin/ld.lld cache-stock shell-stock
  link mtpc "$lld" cache-mtpc shell-mtpc "${mtpc_flags[@]}"
  local misses parts
  misses=$(awk '/^mtpc: .*sqlite3.o:/ {m = 1; next} /^mtpc: / {m = 0}
                m && /partition cache:/ {print $5}' stats.txt)
  parts=$(sed -nE 's/^mtpc: .*sqlite3.o: ([0-9]+) partitions.*/\1/p' stats.txt)
  link cold "$lld" cold shell-cold "${mtpc_flags[@]}"
  local same=no
  cmp -s shell-mtpc shell-cold && same=yes
  echo "$label ${misses:-?} ${parts:-?} $same" >> results.txt
  printf '  %-44s %3s of %-3s  %-9s %6s %6s\n' "$label" "${misses:-?}" "${parts:-?}" "$same" \
    "$(tail -1 stock.stats | cut -d' ' -f1)" "$(tail -1 mtpc.stats | cut -d' ' -f1)"
}

# summary FROM TO: median and largest recompiled, median wall ratio of
# results lines FROM..TO (stats lines alike).
summary() {
  local from=$1 to=$2
  local med max wall_s wall_m identical
  med=$(sed -n "${from},${to}p" results.txt | awk '{print $2}' | median)
  max=$(sed -n "${from},${to}p" results.txt | awk '{print $2}' | sort -g | tail -1)
  identical=$(sed -n "${from},${to}p" results.txt | awk '$4 == "yes"' | wc -l)
  wall_s=$(sed -n "${from},${to}p" stock.stats | awk '{print $1}' | median)
  wall_m=$(sed -n "${from},${to}p" mtpc.stats | awk '{print $1}' | median)
  echo "  partitions recompiled: median $med, largest $max (of about $total)"
  echo "  relink wall (s): stock $wall_s, mtpc $wall_m, ratio $(ratio "$wall_m" "$wall_s")"
  echo "  identical to a link from an empty cache: $identical of $((to - from + 1))"
}

rm -f results.txt stock.stats mtpc.stats cold.stats
echo "SQLite shell relinked after edits of sqlite3.c, warm --thinlto-cache-dir: stock ld.lld-19 vs --thinlto-mtpc-jobs=$jobs"
printf '  %-44s %10s  %-9s %6s %6s\n' edit recompiled identical stock mtpc
mapfile -t singles < <(python3 "$edit" pick "$src/sqlite3.c" --seed 1 --count "$runs")
for f in "${singles[@]}"; do
  relink "body:$f" "body:$f"
done
echo "single-function edits ($runs; targets: median <= 2, largest <= 4, wall ratio <= 0.25)"
summary 1 "$runs"

for seed in 2 3 4 5 6; do
  mapfile -t five < <(python3 "$edit" pick "$src/sqlite3.c" --seed "$seed" --count 5)
  relink "five-functions-seed-$seed" "${five[@]/#/body:}"
done
echo "five-function edits (5)"
summary $((runs + 1)) $((runs + 5))
