#!/usr/bin/env bash
# Incremental relinks of the SQLite shell: edits of sqlite3.c, each
# recompiled to bitcode and relinked against a warm --thinlto-cache-dir (the
# cache of the unedited build), with stock ld.lld-19 and with ld.lld
# --thinlto-mtpc-jobs=J, side by side. The edits, each kind with functions
# chosen by a fixed seed among functions of all sizes:
#  - a statement added to one function (N), then to five functions (5);
#  - a statement naming a new string literal (N/2): clang renumbers every
#    later ".str.N";
#  - with -g (every file built -g): a statement added in place (N/2), which
#    changes the file's MD5; a line inserted a quarter into the file and
#    one 80% in, which move every later line;
#  - the unedited bitcode at another path.
# Each mtpc relink is also compared byte for byte with a link from an empty
# cache.
#
#   bench/incremental.sh [--jobs J] [--runs N] [--llvm 19|22]   (N: how many single edits)
# Prints, per kind, partitions recompiled (median, largest) and the relink
# wall ratio.
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
[ -f shell.o ] || clang-$version -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o
[ -f shell-g.o ] || clang-$version -O2 -g -flto=thin -c "$src/shell.c" -I"$src" -o shell-g.o
debug=() shell=shell.o dir=src # -g or not; the build's directory

# bitcode EDIT...: $dir/sqlite3.o from sqlite3.c with the edits (none: as is).
bitcode() { python3 "$edit" build "${debug[@]}" "$src/sqlite3.c" "$dir" "$@"; }

# link NAME LD CACHE OUTPUT [flags]: the shell linked with CACHE, into NAME.stats.
link() {
  local name=$1 ld=$2 cache=$3 out=$4; shift 4
  measure "$name" clang-$version -flto=thin -fuse-ld=lld --ld-path="$ld" "$shell" "$dir/sqlite3.o" \
    -o "$out" -Wl,--thinlto-jobs="$jobs" -Wl,--thinlto-cache-dir="$cache" "$@" -lm -lpthread -ldl
}

mtpc_flags=(-Wl,--thinlto-mtpc-jobs="$jobs" -Wl,--thinlto-mtpc-stats=stats.txt)

# The warm caches: those of the unedited build.
warm_caches() {
  bitcode
  rm -rf base-stock base-mtpc
  link setup /usr/lib/llvm-$version/bin/ld.lld base-stock shell-stock
  link setup "$lld" base-mtpc shell-mtpc "${mtpc_flags[@]}"
  total=$(sed -nE 's/^mtpc: .*sqlite3.o: ([0-9]+) partitions.*/\1/p' stats.txt)
}
warm_caches

# relink LABEL EDIT...: one edited build relinked both ways; appends
# "label recompiled partitions identical" to results.txt.
relink() {
  local label=$1; shift
  bitcode "$@"
  rm -rf cache-stock cache-mtpc cold && cp -r base-stock cache-stock && cp -r base-mtpc cache-mtpc
  link stock /usr/lib/llvm-$version/bin/ld.lld cache-stock shell-stock
  link mtpc "$lld" cache-mtpc shell-mtpc "${mtpc_flags[@]}"
  local misses parts
  # Both modules' partitions (shell.c's imports sqlite3.c's functions).
  misses=$(awk '/partition cache:/ {n += $5} END {print n}' stats.txt)
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
echo "SQLite shell relinked after edits of sqlite3.c, warm --thinlto-cache-dir: stock ld.lld-$version vs --thinlto-mtpc-jobs=$jobs"
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

# kind LABEL COUNT SEED EDIT: COUNT edits EDIT:<function> of functions
# picked with SEED, then their summary.
kind() {
  local label=$1 count=$2 seed=$3 edit_kind=$4 from
  from=$(($(wc -l < results.txt) + 1))
  mapfile -t picked < <(python3 "$edit" pick "$src/sqlite3.c" --seed "$seed" --count "$count")
  for f in "${picked[@]}"; do
    relink "$edit_kind:$f" "$edit_kind:$f"
  done
  echo "$label ($count)"
  summary "$from" $((from + count - 1))
}

kinds=$(((runs + 1) / 2))
kind "new string literal, no -g (targets: median <= 2, wall ratio <= 0.30)" "$kinds" 7 string

# With -g: every build and the warm caches.
debug=(-g) shell=shell-g.o dir=src-g
mkdir -p src-g && cp "$src/sqlite3.h" src-g/
warm_caches
kind "-g, a statement added in place (targets: median <= 2, wall ratio <= 0.30)" "$kinds" 8 body

# A line inserted: the partitions that hold code after it must recompile
# (bench/moved-partitions.py counts them from a link of the unedited build).
bitcode
rm -rf temps && mkdir temps && cp "$shell" "$dir/sqlite3.o" temps/
(cd temps && clang-$version -flto=thin -fuse-ld=lld --ld-path="$lld" "$shell" sqlite3.o -o shell \
  -Wl,--thinlto-mtpc-jobs="$jobs" -Wl,--save-temps -lm -lpthread -ldl)
for fraction in 0.25 0.8; do
  read -r name line < <(python3 "$edit" at "$src/sqlite3.c" "$fraction")
  moved=$(python3 "$root/bench/moved-partitions.py" temps "$line" | awk '{n += $2} END {print n}')
  relink "line:$name@$fraction" "line:$name"
  echo "-g, a line inserted $fraction into the file (target: at most $moved holding moved code + 2)"
  n=$(wc -l < results.txt)
  summary "$n" "$n"
done

# The same bitcode at another path, with lld's own cache entries for the
# modules left out (they would hit first): every partition must hit.
bitcode
rm -rf elsewhere && mkdir elsewhere && cp "$shell" "$dir/sqlite3.o" elsewhere/
rm -rf cache-mtpc && cp -r base-mtpc cache-mtpc
find cache-mtpc -name 'llvmcache-*' ! -name 'llvmcache-mtpc-*' -delete
dir=elsewhere shell=elsewhere/$shell
link mtpc "$lld" cache-mtpc shell-elsewhere "${mtpc_flags[@]}"
misses=$(awk '/partition cache:/ {n += $5} END {print n}' stats.txt)
rm -rf cold-elsewhere
link cold "$lld" cold-elsewhere shell-elsewhere-cold "${mtpc_flags[@]}"
same=no
cmp -s shell-elsewhere shell-elsewhere-cold && same=yes
echo "the same bitcode at another path (target: 0): $misses recompiled, identical to a link from an empty cache: $same"
