#!/usr/bin/env bash
# Duktape's command line (duktape.c, 101K lines, as one ThinLTO module), linked
# by stock ld.lld-19 and by the patched ld.lld with every module split: the
# same output for every JavaScript program here and Duktape's own examples.
# Then the same with full LTO (-flto): the merged module split by
# --lto-mtpc-jobs.
#
#   tests/e2e/duktape-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
lld=$build/bin/ld.lld
[ -x "$lld" ] || { echo "no $lld: run lld-patches/build-lld.sh" >&2; exit 1; }
src=$("$root/scripts/fetch-inputs.sh" duktape)

common="-O2 -std=c99 -I$src/src -I$src/examples/cmdline"
extras="print-alert console logging module-duktape"
sources="$src/src/duktape.c $src/examples/cmdline/duk_cmdline.c"
defines="-DDUK_CMDLINE_PRINTALERT_SUPPORT -DDUK_CMDLINE_CONSOLE_SUPPORT -DDUK_CMDLINE_LOGGING_SUPPORT -DDUK_CMDLINE_MODULE_SUPPORT"
for e in $extras; do
  common="$common -I$src/extras/$e"
  sources="$sources $(ls "$src/extras/$e"/*.c | grep -v test)"
done
scripts="$here/js/*.js $src/mandel.js $src/examples/guide/fib.js"

# check LTO SPLIT-FLAGS: duk-stock and duk-mtpc built with -flto=LTO, the
# latter split; every script gives the same output.
check() {
  local lto=$1 split=$2 objects="" s o js count=0
  for s in $sources; do
    o=$(basename "$s" .c).$lto.o
    clang-$version $common -flto=$lto $defines -c "$s" -o "$o"
    objects="$objects $o"
  done
  clang-$version -flto=$lto -fuse-ld=lld --ld-path=/usr/lib/llvm-$version/bin/ld.lld $objects -o duk-stock -lm
  clang-$version -flto=$lto -fuse-ld=lld --ld-path="$lld" $objects -o duk-mtpc -lm \
    -Wl,$split,--thinlto-mtpc-threshold=0,--thinlto-mtpc-stats=duk.stats
  for js in $scripts; do
    ./duk-stock "$js" > stock.out 2>&1 || echo "exit $?" >> stock.out
    ./duk-mtpc "$js" > mtpc.out 2>&1 || echo "exit $?" >> mtpc.out
    diff -u stock.out mtpc.out
    test -s stock.out
    if grep -q '^[A-Za-z]*Error: ' stock.out; then echo "uncaught error in $js" >&2; exit 1; fi
    count=$((count + 1))
  done
  echo "duktape e2e, -flto=$lto: $count scripts give the same output"
}
check thin --thinlto-mtpc-jobs=2
grep -q "duktape.thin.o: [0-9]* partitions" duk.stats
check full --lto-mtpc-jobs=2
grep -q "ld-temp.o: [0-9]* partitions" duk.stats
