#!/usr/bin/env bash
# Incremental relinks with the partition cache (ld.lld --thinlto-cache-dir):
# scripted edits of sqlite3.c (bench/sqlite-edit.py), each relinked against a
# copy of the warm cache of the build before it, without -g and then with
# -g (a new string literal; with -g a statement added in place, which
# changes the file's MD5, and a line inserted, which moves every later
# line); then the same bitcode at another path. Each relink must
#  - recompile at most the partitions the edit touches, counted over both
#    modules (a count per edit),
#  - be byte-identical to a link from an empty cache,
#  - run the shell's queries as the unedited build does.
# The unedited build's link from an empty cache is two links at once into
# it, which must agree. Then: corrupt entries, and --thinlto-cache-policy
# pruning the partitions' entries.
#
#   tests/e2e/incremental-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
lld=$build/bin/ld.lld
[ -x "$lld" ] || { echo "no $lld: run lld-patches/build-lld.sh" >&2; exit 1; }
src=$("$root/scripts/fetch-inputs.sh" sqlite)
edit=$root/bench/sqlite-edit.py
mkdir -p s sg && cp "$src/sqlite3.h" s/ && cp "$src/sqlite3.h" sg/
clang-$version -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o
clang-$version -O2 -g -flto=thin -c "$src/shell.c" -I"$src" -o shell-g.o
debug=() shell=shell.o dir=s # -g or not; where sqlite3.o is built

# bitcode EDIT...: $dir/sqlite3.o from sqlite3.c with the edits (none: as
# is), always at the same path, as a rebuild writes it.
bitcode() { python3 "$edit" build "${debug[@]}" "$src/sqlite3.c" "$dir" "$@"; }

# link CACHE OUTPUT [STATS]: the shell, with every module over 20000
# instructions split.
link() {
  clang-$version -flto=thin -fuse-ld=lld --ld-path="$lld" "$shell" "$dir/sqlite3.o" -o "$2" \
    -Wl,--thinlto-jobs=2,--thinlto-mtpc-jobs=2,--thinlto-cache-dir="$1" \
    -Wl,--thinlto-mtpc-stats="${3:-stats.txt}" -lm -lpthread -ldl
}

# What the partition caches of both modules say: "hits misses".
cache_counts() {
  awk '/partition cache:/ {h += $3; m += $5} END {print h + 0, m + 0}' "${1:-stats.txt}"
}

queries() { "./$1" :memory: < "$here/sqlite-queries.sql" > "$1.out" 2>&1; }

# Two links at once into one empty cache: the same executable.
bitcode
cp "$dir/sqlite3.o" base.o
link base shell-base &
link base shell-base2 stats2.txt
wait $!
cmp shell-base shell-base2
echo "two links sharing one empty cache: identical"
queries shell-base

# relink FROM NAME LIMIT EDIT...: the edited build relinked from a copy of
# cache FROM; at most LIMIT partitions recompiled.
relink() {
  local from=$1 name=$2 limit=$3
  shift 3
  bitcode "$@"
  rm -rf warm cold && cp -r "$from" warm
  link warm shell-warm
  local misses
  misses=$(cache_counts | cut -d' ' -f2)
  echo "$name: $misses partitions recompiled of $(($(cache_counts | tr ' ' '+')))"
  [ "$misses" -le "$limit" ] || {
    echo "$name: more than $limit partitions recompiled" >&2
    exit 1
  }
  link cold shell-cold
  cmp shell-warm shell-cold
  queries shell-warm
  diff -u shell-base.out shell-warm.out
}

relink base "small function's body" 2 body:jsonAppendRaw
cp "$dir/sqlite3.o" edited.o
cp shell-cold edited-cold
relink base "function added" 2 add:backupOnePage
relink base "large function doubled" 2 grow:sqlite3VdbeExec
relink base "global's initializer" 2 init:sqlite3PendingByte
relink base "new string literal" 2 string:jsonAppendRaw

# With -g: a statement added in place, and lines inserted 80% into the file
# (at most the partitions that hold code after the line, plus 2:
# bench/moved-partitions.py counts them from a link of the unedited build).
debug=(-g) shell=shell-g.o dir=sg
bitcode
cp "$dir/sqlite3.o" base-g.o
link base-g shell-base-g
queries shell-base-g
cmp shell-base.out shell-base-g.out
relink base-g "-g: a statement added in place" 2 body:jsonAppendRaw
read -r name line < <(python3 "$edit" at "$src/sqlite3.c" 0.8)
cp base-g.o "$dir/sqlite3.o"
rm -rf temps && mkdir temps && cp "$shell" "$dir/sqlite3.o" temps/
(cd temps && clang-$version -flto=thin -fuse-ld=lld --ld-path="$lld" "$shell" sqlite3.o -o shell \
  -Wl,--thinlto-mtpc-jobs=2 -Wl,--save-temps -lm -lpthread -ldl)
moved=$(python3 "$root/bench/moved-partitions.py" temps "$line" | awk '{n += $2} END {print n}')
echo "a line inserted at $line ($name): $moved partitions hold code after it"
relink base-g "-g: a line inserted" $((moved + 2)) "line:$name"

# The same bitcode at another path hits every partition (lld's own entries
# for the modules left out: they would hit first).
rm -rf elsewhere && mkdir elsewhere && cp "$shell" elsewhere/ && cp base-g.o elsewhere/sqlite3.o
rm -rf moved-cache && cp -r base-g moved-cache
find moved-cache -name 'llvmcache-*' ! -name 'llvmcache-mtpc-*' -delete
dir=elsewhere shell=elsewhere/shell-g.o
link moved-cache shell-elsewhere
[ "$(cache_counts | cut -d' ' -f2)" = 0 ] || { echo "another path: partitions recompiled" >&2; exit 1; }
rm -rf cold && link cold shell-elsewhere-cold
cmp shell-elsewhere shell-elsewhere-cold
echo "the same bitcode at another path: every partition hit, identical to a cold link"
debug=() shell=shell.o dir=s

# Corrupt entries: each is a miss, compiled and written again (the first
# edit's bitcode, which lld's own entry for the module misses; its link from
# an empty cache is edited-cold).
cp edited.o "$dir/sqlite3.o"
rm -rf corrupt && cp -r base corrupt
entries=(corrupt/llvmcache-mtpc-*)
[ "${#entries[@]}" -gt 2 ]
head -c 100 "${entries[0]}" > cut && mv cut "${entries[0]}"
for f in "${entries[@]:1}"; do
  printf 'X' | dd of="$f" bs=1 seek=40 conv=notrunc 2>/dev/null
done
link corrupt shell-corrupt
[ "$(cache_counts | cut -d' ' -f1)" = 0 ]
cmp shell-corrupt edited-cold
# Written again: without lld's own entry for the module, every partition hits.
find corrupt -name 'llvmcache-*' ! -name 'llvmcache-mtpc-*' -delete
link corrupt shell-rewritten
[ "$(cache_counts | cut -d' ' -f2)" = 0 ]
cmp shell-rewritten edited-cold
echo "corrupt entries: recompiled and rewritten, output unchanged"
# --thinlto-cache-policy prunes the partitions' entries with lld's own.
rm -rf prune && cp -r base prune
[ "$(ls prune | grep -c '^llvmcache-mtpc-')" -gt 5 ]
clang-$version -flto=thin -fuse-ld=lld --ld-path="$lld" shell.o s/sqlite3.o -o shell-pruned \
  -Wl,--thinlto-mtpc-jobs=2,--thinlto-cache-dir=prune \
  -Wl,--thinlto-cache-policy=prune_interval=0s:cache_size_files=5 -lm -lpthread -ldl
[ "$(ls prune | grep -vc '^llvmcache.timestamp$')" -le 5 ]
echo "cache policy: partition entries pruned"
echo "incremental e2e: all checks passed"
