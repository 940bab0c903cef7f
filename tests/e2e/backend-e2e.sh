#!/usr/bin/env bash
# Distributed ThinLTO with `mtpc backend`: the SQLite shell linked with
# --thinlto-index-only, then one backend job per module run by clang (stock;
# clang-19 or clang-22, as MTPC_LLVM_VERSION says) and by `mtpc backend`
# (every module split, -j2). The shells must answer tests/e2e/sqlite-queries.sql
# alike and define the same global symbols; below the threshold `mtpc backend`
# writes clang's object byte for byte; bad jobs (a missing index, an index
# naming a missing module, a malformed index) fail with one error line and
# write nothing.
#
#   tests/e2e/backend-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
cc=clang-$version
src=$("$root/scripts/fetch-inputs.sh" sqlite)

"$here/sqlite-thin.sh" "$build" sqlite3.o
"$cc" -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o
"$cc" -flto=thin -fuse-ld=lld -Wl,--thinlto-index-only shell.o sqlite3.o -o shell -lm -lpthread -ldl
for m in shell sqlite3; do
  [ -s $m.o.thinlto.bc ] || { echo "no index for $m.o"; exit 1; }
  "$cc" -c -O2 -x ir $m.o -fthinlto-index=$m.o.thinlto.bc -o $m.stock.o
  "$mtpc" backend -c -O2 -x ir $m.o -fthinlto-index=$m.o.thinlto.bc -o $m.mtpc.o \
    --threshold=0 -j2 -Wno-unused-command-line-argument
done
for v in stock mtpc; do
  "$cc" -fuse-ld=lld shell.$v.o sqlite3.$v.o -o shell-$v -lm -lpthread -ldl
  ./shell-$v :memory: < "$here/sqlite-queries.sql" > queries-$v.out 2>&1
done
diff -u queries-stock.out queries-mtpc.out
diff -u <(globals shell-stock) <(globals shell-mtpc)
echo "index-only SQLite shell: mtpc backend jobs (every module split) agree with clang's"

"$mtpc" backend -c -O2 -x ir shell.o -fthinlto-index=shell.o.thinlto.bc -o shell.below.o \
  --threshold=100000000
cmp shell.below.o shell.stock.o
echo "below the threshold: clang's object, byte for byte"

# bad_job NAME EXPECTED-MESSAGE ARGS...: exit 1, one error line, no output.
bad_job() {
  local name=$1 expected=$2; shift 2
  local status=0
  "$mtpc" backend "$@" -o bad.o 2> bad.err || status=$?
  [ $status -eq 1 ] && [ "$(grep -c "" bad.err)" -eq 1 ] && grep -q "^mtpc: error: .*$expected" bad.err ||
    { echo "$name: exit $status:"; cat bad.err; exit 1; }
  [ ! -e bad.o ] || { echo "$name: left bad.o"; exit 1; }
}
bad_job "missing index" "missing.thinlto.bc" -c -x ir sqlite3.o -fthinlto-index=missing.thinlto.bc
mkdir -p moved && cp shell.o shell.o.thinlto.bc moved/
(cd moved && bad_job "missing module" "cannot read 'sqlite3.o', which it imports from" \
  -c -x ir shell.o -fthinlto-index=shell.o.thinlto.bc)
echo "not an index" > garbage.thinlto.bc
bad_job "malformed index" "garbage.thinlto.bc" -c -x ir sqlite3.o -fthinlto-index=garbage.thinlto.bc
echo "bad jobs: one error line each, nothing written"
