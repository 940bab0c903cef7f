#!/usr/bin/env bash
# The patched ld.lld end to end on SQLite, against the stock ld.lld of the
# same LLVM, the LTO modes shared out between the two builds' suites
# (on_llvm; each build also links both modes for other targets, e2e_cross):
#  - ThinLTO (LLVM 19's suite): with the option off, the shell is
#    byte-identical to stock's; with --thinlto-mtpc-jobs=2 and threshold 0
#    (every module split) it answers the queries as stock's, with the same
#    global symbols, and the same bytes at one job; --thinlto-cache-dir: an
#    unchanged module is not recompiled, a changed one is; --time-trace
#    shows the partitions and never more at once than the jobs allow;
#  - full LTO (-flto, LLVM 22's suite) with --lto-mtpc-jobs=2: off
#    byte-identical, split, speedtest1 the same behaviour and global symbols,
#    the same bytes at one job, and a relink after a scripted edit with the
#    warm cache byte-identical to a cold link.
# (speedtest1 split by ThinLTO against stock is e2e_pgo's, the shell by
# full LTO e2e_cross's and e2e_coff's, for other targets.)
#
#   tests/e2e/lld-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
lld=$build/bin/ld.lld
stock=/usr/lib/llvm-$version/bin/ld.lld
[ -x "$lld" ] || { echo "no $lld: run lld-patches/build-lld.sh" >&2; exit 1; }
cc="clang-$version -O2 -flto=thin"
mtpc="-Wl,--thinlto-mtpc-jobs=2,--thinlto-mtpc-threshold=0,--thinlto-jobs=2"

src=$("$root/scripts/fetch-inputs.sh" sqlite)

if on_llvm 19; then
  # SQLite: three ThinLTO modules.
  "$here/sqlite-thin.sh" "$build" sqlite3.o
  $cc -c "$src/shell.c" -I"$src" -o shell.o
  link() { local ld=$1 out=$2; shift 2; clang-$version -flto=thin -fuse-ld=lld --ld-path="$ld" "$@" -o "$out" -lm -lpthread -ldl; }

  link "$stock" shell-stock shell.o sqlite3.o
  link "$lld" shell-off shell.o sqlite3.o
  cmp shell-stock shell-off
  echo "option off: byte-identical to stock ld.lld-$version"

  # With --time-trace, which the bytes must not depend on (checked below), and
  # an empty cache, which the cache checks below start from.
  rm -rf cache
  link "$lld" shell-mtpc shell.o sqlite3.o $mtpc -Wl,--thinlto-mtpc-stats=shell.stats \
    -Wl,--time-trace=trace.json,--thinlto-cache-dir=cache
  grep -q "sqlite3.o: [0-9]* partitions" shell.stats
  grep -q "shell.o: [0-9]* partitions" shell.stats
  for v in stock mtpc; do
    ./shell-$v :memory: < "$here/sqlite-queries.sql" > queries-$v.out 2>&1
    globals shell-$v > shell-$v.syms
  done
  diff -u queries-stock.out queries-mtpc.out
  diff -u shell-stock.syms shell-mtpc.syms
  grep -q '^ok$' queries-mtpc.out
  echo "sqlite: the shell agrees with stock"

  # The same output whatever --thinlto-mtpc-jobs says, and without the cache.
  link "$lld" shell-mtpc1 shell.o sqlite3.o -Wl,--thinlto-mtpc-jobs=1,--thinlto-mtpc-threshold=0
  cmp shell-mtpc shell-mtpc1

  # C++ programs, as executables and shared libraries: tests/cxx/cxx-corpus.sh.

  # The ThinLTO cache: the first link (shell-mtpc's) filled it, an unchanged
  # module is not compiled again (no mtpc report for it), a changed one is.
  link "$lld" shell-c2 shell.o sqlite3.o $mtpc -Wl,--thinlto-cache-dir=cache,--thinlto-mtpc-stats=c2.stats
  if [ -s c2.stats ] && grep -q "sqlite3.o" c2.stats; then echo "cached module recompiled" >&2; exit 1; fi
  cmp shell-mtpc shell-c2
  $cc -DSQLITE_DEFAULT_CACHE_SIZE=-4000 -c "$src/sqlite3.c" -o sqlite3-changed.o
  link "$lld" shell-c3 shell.o sqlite3-changed.o $mtpc -Wl,--thinlto-cache-dir=cache,--thinlto-mtpc-stats=c3.stats
  grep -q "sqlite3-changed.o" c3.stats
  ./shell-c3 :memory: < "$here/sqlite-queries.sql" > queries-c3.out 2>&1
  diff -u queries-stock.out queries-c3.out
  echo "cache: hits are not recompiled, changes are"

  # --time-trace (shell-mtpc's link): every partition's optimization and code
  # generation.
  grep -q '"name":"mtpc partition"' trace.json
  grep -q '"name":"mtpc optimize"' trace.json
  grep -q '"name":"mtpc codegen"' trace.json
  # The budget: both modules split, each with 2 workers, yet never more than
  # max(--thinlto-jobs, --thinlto-mtpc-jobs) = 2 partitions compiling at once.
  "$here/../peak-concurrency.py" trace.json 2
fi

if on_llvm 22; then
  # Full LTO (-flto): the merged module split by --lto-mtpc-jobs, every
  # partition as small as the plan allows.
  full="-Wl,--lto-mtpc-jobs=2,--thinlto-mtpc-threshold=0"
  for f in sqlite3 speedtest1; do
    clang-$version -O2 -flto -c "$src/$f.c" -I"$src" -o $f-full.o
  done
  flink() { local ld=$1 out=$2; shift 2; clang-$version -flto -fuse-ld=lld --ld-path="$ld" "$@" -o "$out" -lm -lpthread -ldl; }
  flink "$stock" full-stock speedtest1-full.o sqlite3-full.o
  flink "$lld" full-mtpc speedtest1-full.o sqlite3-full.o $full -Wl,--thinlto-mtpc-stats=full.stats
  flink "$lld" full-off speedtest1-full.o sqlite3-full.o
  cmp full-stock full-off
  flink "$lld" full-mtpc1 speedtest1-full.o sqlite3-full.o -Wl,--lto-mtpc-jobs=1,--thinlto-mtpc-threshold=0
  cmp full-mtpc full-mtpc1
  grep -q "ld-temp.o: [0-9]* partitions" full.stats
  for v in stock mtpc; do
    ./full-$v --size 5 --verify 2>&1 | sed -E 's/[0-9]+\.[0-9]+s$//' > full-speedtest1-$v.out
    globals full-$v > full-$v.syms
  done
  diff -u full-speedtest1-stock.out full-speedtest1-mtpc.out
  diff -u full-stock.syms full-mtpc.syms
  grep -q "Verification Hash" full-speedtest1-mtpc.out
  echo "full LTO: split, speedtest1 agrees with stock"

  # Incremental full LTO: a scripted edit of sqlite3.c relinked with the warm
  # cache of the unedited build recompiles few partitions and gives the bytes
  # of a link from an empty cache.
  rm -rf full-base && mkdir -p edited && cp "$src/sqlite3.h" edited/
  python3 "$root/bench/sqlite-edit.py" build --full-lto "$src/sqlite3.c" edited
  flink "$lld" full-unedited speedtest1-full.o edited/sqlite3.o $full -Wl,--thinlto-cache-dir=full-base
  # (The second of seed 3's picks, the edit this suite ran when each ran one.)
  for f in $(python3 "$root/bench/sqlite-edit.py" pick "$src/sqlite3.c" --seed 3 --count 2 | sed -n 2p); do
    python3 "$root/bench/sqlite-edit.py" build --full-lto "$src/sqlite3.c" edited "body:$f"
    rm -rf full-warm full-cold && cp -r full-base full-warm
    flink "$lld" full-edit-warm speedtest1-full.o edited/sqlite3.o $full \
      -Wl,--thinlto-cache-dir=full-warm,--thinlto-mtpc-stats=full-warm.stats
    flink "$lld" full-edit-cold speedtest1-full.o edited/sqlite3.o $full -Wl,--thinlto-cache-dir=full-cold
    cmp full-edit-warm full-edit-cold
    misses=$(awk '/partition cache:/ {print $5}' full-warm.stats)
    echo "full LTO, body:$f relinked warm: $misses partitions recompiled, identical to a cold link"
    [ "$misses" -le 4 ]
  done
fi

echo "lld e2e: all checks passed"
