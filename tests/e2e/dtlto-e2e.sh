#!/usr/bin/env bash
# LLVM 22 lld's distributed ThinLTO (DTLTO) with `mtpc distribute` as the
# distributor: the SQLite shell and the C++ corpus's programs are linked by
# clang-22 stock, through `mtpc distribute` with clang-22 as the remote
# compiler, and through `mtpc distribute` with `mtpc backend` (every module
# split, -j2); they must behave alike (and the shells define the same global
# symbols). A job that fails must fail the link with its message and leave no
# program.
#
#   tests/e2e/dtlto-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
src=$("$root/scripts/fetch-inputs.sh" sqlite)

distribute="-fthinlto-distributor=$mtpc -Xthinlto-distributor=distribute,-j2"
with_mtpc="-Wl,--thinlto-remote-compiler=$mtpc,--thinlto-remote-compiler-prepend-arg=backend"
with_mtpc="$with_mtpc,--thinlto-remote-compiler-arg=--threshold=0,--thinlto-remote-compiler-arg=-j2"
# link WAY OUTPUT CLANG ARGS...: WAY is stock, clang (mtpc distribute runs
# clang-22 jobs) or mtpc (mtpc distribute runs mtpc backend jobs).
link() {
  local way=$1 out=$2 cc=$3; shift 3
  case $way in
  stock) $cc -flto=thin -fuse-ld=lld "$@" -o "$out" ;;
  clang) $cc -flto=thin -fuse-ld=lld $distribute "$@" -o "$out" ;;
  mtpc) $cc -flto=thin -fuse-ld=lld $distribute $with_mtpc "$@" -o "$out" ;;
  esac
}
ways="stock clang mtpc"

"$here/sqlite-thin.sh" "$build" sqlite3.o
clang-22 -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o
for way in $ways; do
  link $way shell-$way clang-22 shell.o sqlite3.o -lm -lpthread -ldl
  ./shell-$way :memory: < "$here/sqlite-queries.sql" > queries-$way.out 2>&1
done
for way in clang mtpc; do
  diff -u queries-stock.out queries-$way.out
  diff -u <(globals shell-stock) <(globals shell-$way)
done
echo "SQLite shell through mtpc distribute (clang-22 jobs, mtpc backend jobs): as stock"

for program in exceptions statics lowlevel; do
  mkdir -p $program
  objects=()
  for f in "$here/../cxx/$program"/*.cpp; do
    o=$program/$(basename "$f" .cpp).o
    clang++-22 -O2 -std=c++17 -flto=thin -c "$f" -o "$o"
    objects+=("$o")
  done
  for way in $ways; do
    link $way $program/prog-$way clang++-22 "${objects[@]}" -lpthread
    status=0
    (cd $program && timeout 60 ./prog-$way > $way.out 2>&1) || status=$?
    echo "exit status $status" >> $program/$way.out
  done
  grep -q "exit status 0" $program/stock.out || { echo "$program: the stock build fails"; exit 1; }
  diff -u $program/stock.out $program/clang.out
  diff -u $program/stock.out $program/mtpc.out
done
echo "C++ programs through mtpc distribute: as stock"

# A failing job (an injected code generation fault) fails the link.
status=0
MTPC_FAULT=codegen=all link mtpc shell-bad clang-22 shell.o sqlite3.o -lm -lpthread -ldl \
  2> bad.err || status=$?
[ $status -ne 0 ] || { echo "the link with a failing job succeeded"; exit 1; }
grep -q "^mtpc: error: .*injected fault" bad.err || { echo "no job message:"; cat bad.err; exit 1; }
grep -q "^mtpc: error: the backend job for '.*' failed (exit code 1)" bad.err ||
  { echo "no distributor message:"; cat bad.err; exit 1; }
[ ! -e shell-bad ] || { echo "a failed link left shell-bad"; exit 1; }
leftovers=$(ls | grep -E 'native\.o|dist-file\.json' || true)
[ -z "$leftovers" ] || { echo "a failed link left: $leftovers"; exit 1; }
echo "a failing job fails the link with its message; nothing left behind"
