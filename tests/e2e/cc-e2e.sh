#!/usr/bin/env bash
# `mtpc cc` in an ordinary CMake build (tests/e2e/cc: SQLite's shell and
# speedtest1 on a static libsqlite3, Duktape's command line), built with
# make -j2 stock and with the launcher, then through
# ccache with the launcher (mtpc-cc) as its prefix:
#   - sqlite3.c, shell.c and duktape.c are split, the small files pass through;
#   - every object has the global and undefined symbols of the stock one,
#     and the same dependency file; its address-significance table is one
#     a linker reads (not the void one ld -r leaves) and names the stock
#     table's symbols, but where the split's inlining left other code;
#   - the programs give the stock programs' output;
#   - a second ccache build hits every compile.
#
#   tests/e2e/cc-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
sqlite=$("$root/scripts/fetch-inputs.sh" sqlite)
duktape=$("$root/scripts/fetch-inputs.sh" duktape)

# configure DIR [CMAKE ARGS...]
configure() {
  local dir=$1
  shift
  cmake -S "$here/cc" -B "$dir" -G "Unix Makefiles" -DCMAKE_C_COMPILER="clang-$version" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DSQLITE_DIR="$sqlite" -DDUKTAPE_DIR="$duktape" "$@" > /dev/null
}
# build DIR: make -j2, its compilers' messages to DIR.log.
build() {
  make -C "$1" -j2 > "$1.raw" 2>&1 || { cat "$1.raw"; exit 1; }
  grep -v '^make\|^\[' "$1.raw" > "$1.log" || true
}

configure stock
configure mtpc "-DCMAKE_C_COMPILER_LAUNCHER=$build/bin/mtpc-cc;--verbose"
build stock
build mtpc
for f in sqlite3.c shell.c duktape.c; do
  grep -q "$f: split into [0-9]* partitions" mtpc.log || { echo "$f was not split" >&2; cat mtpc.log; exit 1; }
done
for f in speedtest1.c duk_cmdline.c duk_console.c; do
  grep -q "$f: passed through: a small source" mtpc.log || { echo "$f did not pass through" >&2; exit 1; }
done
if grep -v 'mtpc: note:' mtpc.log | grep . >/dev/null; then
  echo "unexpected output from the launcher build:" >&2; cat mtpc.log; exit 1
fi

# addrsig OBJECT: the names its address-significance table lists, sorted.
addrsig() { llvm-readobj-$version --addrsig "$1" | sed -n 's/^ *Sym: \([^ ]*\) .*/\1/p' | sort; }
# live_addrsig OBJECT: its table points at the symbol table (sh_link).
live_addrsig() { llvm-readelf-$version -S "$1" | awk '/ LLVM_ADDRSIG / && $(NF-2) != 0 { live = 1 } END { exit !live }'; }
objects=$(cd stock && find . -name '*.o' | sort)
for o in $objects; do
  diff <(globals "stock/$o") <(globals "mtpc/$o")
  diff <(llvm-nm-$version -u "stock/$o") <(llvm-nm-$version -u "mtpc/$o")
  live_addrsig "mtpc/$o" || { echo "$o: no live address-significance table" >&2; exit 1; }
  # A function the split inlined everywhere is gone, one it no longer calls
  # through a pointer is not listed: at most 3% of the names differ.
  listed=$(addrsig "stock/$o" | wc -l)
  differ=$(comm -3 <(addrsig "stock/$o") <(addrsig "mtpc/$o") | wc -l)
  test $((differ * 33)) -le $((listed + 33)) ||
    { echo "$o: $differ of $listed address-significant names differ" >&2; exit 1; }
  cmp "stock/$o.d" "mtpc/$o.d"
done
test "$(globals stock/CMakeFiles/sqlite3.dir$sqlite/sqlite3.c.o | wc -l)" -gt 200
test "$(addrsig stock/CMakeFiles/sqlite3.dir$sqlite/sqlite3.c.o | wc -l)" -gt 200
# ld.lld's safe identical code folding reads those tables; it warns about a
# void one (ld -r's), which --fatal-warnings makes an error.
"clang-$version" -fuse-ld=lld -Wl,--icf=safe -Wl,--fatal-warnings -o mtpc/icf-shell \
  "mtpc/CMakeFiles/sqlite3-shell.dir$sqlite/shell.c.o" mtpc/libsqlite3.a -lm

# run_programs VARIANT: the shell's queries, a short speedtest1 (its checks,
# not its timings) and Duktape's scripts, to VARIANT.out.
run_programs() {
  local dir=$1
  {
    "$dir/sqlite3-shell" :memory: < "$here/sqlite-queries.sql" 2>&1
    "$dir/speedtest1" --size 3 --verify 2>&1 | grep -v ' [0-9.]*s$' | grep -iv 'time'
    for js in "$here"/js/*.js "$duktape/mandel.js" "$duktape/examples/guide/fib.js"; do
      "$dir/duk" "$js" 2>&1 || echo "exit $?"
    done
  } > "$dir.out"
}
run_programs stock
run_programs mtpc
diff -u stock.out mtpc.out
mtpc/icf-shell :memory: < "$here/sqlite-queries.sql" > icf.out 2>&1
diff -u <(stock/sqlite3-shell :memory: < "$here/sqlite-queries.sql" 2>&1) icf.out
grep -q '^ok$' stock.out
test "$(wc -l < stock.out)" -gt 150

# ccache with the launcher as its prefix: a miss runs the launcher, which
# splits; after a clean, a second build hits and gives the same programs.
export CCACHE_DIR=$work/ccache CCACHE_PREFIX=$build/bin/mtpc-cc MTPC_CC_VERBOSE=1
configure cached -DCMAKE_C_COMPILER_LAUNCHER=ccache
build cached
grep -q "sqlite3.c: split into" cached.log
make -s -C cached clean
ccache --zero-stats > /dev/null
build cached
# (A hit replays the launcher's notes with the compiler's other output.)
ccache --print-stats > ccache.stats
grep -q '^cache_miss[[:space:]]*0$' ccache.stats || { echo "ccache missed" >&2; cat ccache.stats; exit 1; }
run_programs cached
diff -u stock.out cached.out
echo "cc e2e: $(echo "$objects" | wc -l) objects with stock symbols and dependency files; $(wc -l < stock.out) lines of program output agree, stock, launcher and ccache"
