#!/usr/bin/env bash
# Split DWARF (-gsplit-dwarf) with every module split:
#  - through the patched ld.lld (-plugin-opt=dwo_dir): each partition writes
#    <task>.part<K>.dwo beside <task>.dwo, each skeleton unit names its own;
#    the shell behaves as the stock build;
#  - gdb breaks in a function owned by a partition other than 0 and prints
#    its locals, reading the .dwo files;
#  - llvm-dwp packs them into a .dwp that llvm-dwarfdump --verify accepts, and
#    a debugger reads the .dwp alone: lldb-19 the DWARF 5 one, gdb a DWARF 4
#    one (gdb 13.1 crashes on llvm-dwp-19's DWARF 5 packages, stock lld's
#    included);
#  - mtpc backend takes clang's split-DWARF flags (-gsplit-dwarf,
#    -split-dwarf-file/-output) and writes one .dwo, as clang does, holding
#    every partition's units, which each skeleton names; below the threshold
#    it writes clang's object and .dwo byte for byte.
#
#   tests/e2e/split-dwarf-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
lld=$build/bin/ld.lld
# lldb-19 reads both versions' .dwp files: Debian's lldb-19 and lldb-22
# cannot be installed together (their python3-lldb packages conflict).
# Where clang -gsplit-dwarf has the linker put the .dwo files: <output>_dwo
# (clang 19), <output>-dwo (clang 21 and later).
dwos=_dwo; [ "$version" -lt 21 ] || dwos=-dwo
stock=/usr/lib/llvm-$version/bin/ld.lld
[ -x "$lld" ] || { echo "no $lld: run lld-patches/build-lld.sh" >&2; exit 1; }
src=$("$root/scripts/fetch-inputs.sh" sqlite)
split="-Wl,--thinlto-mtpc-jobs=2,--thinlto-mtpc-threshold=0"
link() { local ld=$1 out=$2; shift 2; clang-$version -flto=thin -fuse-ld=lld --ld-path="$ld" -gsplit-dwarf "$@" -o "$out" -lm -lpthread -ldl; }
compile() { # compile SUFFIX FLAGS...
  local suffix=$1; shift
  clang-$version -O2 -flto=thin "$@" -c "$src/sqlite3.c" -o "sqlite3$suffix.o" &
  clang-$version -O2 -flto=thin "$@" -I"$src" -c "$src/shell.c" -o "shell$suffix.o"
  wait
}
queries() { "./$1" :memory: < "$here/sqlite-queries.sql" 2>&1; }
echo "create table t(a, b); insert into t values(1, 2); select sum(a + b) from t;" > query.sql

compile "" -g
link "$stock" shell-stock shell.o sqlite3.o
link "$lld" shell-split shell.o sqlite3.o $split
diff -u <(queries shell-stock) <(queries shell-split)
ls shell-split$dwos/*.part1.dwo > /dev/null
# Every skeleton names a .dwo of its own, and each exists.
names=$(llvm-dwarfdump-$version --debug-info shell-split | sed -n 's/.*DW_AT_dwo_name.*("\(.*\)")/\1/p' | sort)
[ "$(echo "$names" | uniq -d)" = "" ] || { echo "two skeletons name one .dwo" >&2; exit 1; }
for f in $names; do [ -f "$f" ] || { echo "missing $f" >&2; exit 1; }; done
[ "$(echo "$names" | wc -l)" -eq "$(ls shell-split$dwos | wc -l)" ]

# A function of sqlite3.c's task that a partition other than 0 defines.
defines() { llvm-dwarfdump-$version --debug-info --name="$1" "$2" 2>/dev/null | grep DW_AT_low_pc >/dev/null; }
function=""
for candidate in sqlite3VdbeExec sqlite3BtreeInsert sqlite3Prepare sqlite3VdbeHalt yy_reduce; do
  for dwo in shell-split$dwos/*.part*.dwo; do
    if defines "$candidate" "$dwo"; then function=$candidate; break 2; fi
  done
done
[ -n "$function" ] || { echo "no candidate function outside partition 0" >&2; exit 1; }
echo "breaking in $function, defined in $dwo"

gdb_locals() { # gdb_locals PROGRAM: the first frame and its locals at $function
  gdb -q -batch -ex "set pagination off" -ex "break $function" \
    -ex "run :memory: < query.sql" -ex "info locals" -ex "kill" "./$1" 2>&1
}
check_frame() { # check_frame DEBUGGER_OUTPUT
  grep -q "$function (" "$1" || { cat "$1"; echo "did not stop in $function" >&2; exit 1; }
  grep -qE "^[A-Za-z_][A-Za-z0-9_]* = " "$1" || { cat "$1"; echo "no locals" >&2; exit 1; }
}
gdb_locals shell-split > gdb-dwo.out
check_frame gdb-dwo.out

llvm-dwp-$version -e shell-split -o shell-split.dwp
llvm-dwarfdump-$version --verify shell-split.dwp | tail -1 | grep -q "No errors"
mv shell-split$dwos dwo-hidden
lldb-19 -b -o "breakpoint set -n $function" -o "process launch -i query.sql -- :memory:" \
  -o "frame variable" ./shell-split > lldb-dwp.out 2>&1
mv dwo-hidden shell-split$dwos
grep -q "stop reason = breakpoint" lldb-dwp.out || { cat lldb-dwp.out; exit 1; }
grep -qE "^\([^)]+\) [A-Za-z_][A-Za-z0-9_]* = " lldb-dwp.out || { cat lldb-dwp.out; exit 1; }

# gdb reads a DWARF 4 .dwp.
compile -4 -g -gdwarf-4
link "$lld" shell-split4 shell-4.o sqlite3-4.o $split
llvm-dwp-$version -e shell-split4 -o shell-split4.dwp
mv shell-split4$dwos dwo4-hidden
gdb_locals shell-split4 > gdb-dwp.out
check_frame gdb-dwp.out
echo "ld.lld: .dwo files, .dwp, gdb and lldb (and gdb over a DWARF 4 .dwp)"

# mtpc backend, index-only: the flags clang's backend step takes.
clang-$version -flto=thin -fuse-ld=lld --ld-path="$stock" -Wl,--thinlto-index-only shell.o sqlite3.o \
  -o index-only -lm -lpthread -ldl
"$mtpc" backend -c -O2 -x ir sqlite3.o -fthinlto-index=sqlite3.o.thinlto.bc -gsplit-dwarf \
  -o sqlite3.native.o --threshold=0 -j2
# One .dwo, as clang's backend step writes: every partition's units in it.
ls sqlite3.native.dwo > /dev/null
! ls sqlite3.native.part1.dwo 2> /dev/null
[ "$(llvm-dwarfdump-$version --debug-info sqlite3.native.dwo | grep -c DW_UT_split_compile)" -gt 1 ]
llvm-dwarfdump-$version --verify sqlite3.native.dwo | grep -q 'No errors'

"$mtpc" backend -c -O2 -x ir shell.o -fthinlto-index=shell.o.thinlto.bc -Xclang -split-dwarf-file \
  -Xclang shell.named.dwo -Xclang -split-dwarf-output -Xclang shell.named.dwo -o shell.native.o \
  --threshold=0 -j2
[ "$(llvm-dwarfdump-$version --debug-info shell.native.o | grep -c 'DW_AT_dwo_name.*"shell.named.dwo"')" -gt 1 ]
clang-$version -fuse-ld=lld shell.native.o sqlite3.native.o -o shell-backend -lm -lpthread -ldl
diff -u <(queries shell-stock) <(queries shell-backend)
gdb_locals shell-backend > gdb-backend.out
check_frame gdb-backend.out
# Below the threshold: clang's object and .dwo, byte for byte (the same
# names: the skeleton records the .dwo's).
clang-$version -c -O2 -x ir shell.o -fthinlto-index=shell.o.thinlto.bc -gsplit-dwarf -o same.o
mv same.o clang.o && mv same.dwo clang.dwo
"$mtpc" backend -c -O2 -x ir shell.o -fthinlto-index=shell.o.thinlto.bc -gsplit-dwarf -o same.o \
  --threshold=1000000000
cmp clang.o same.o
cmp clang.dwo same.dwo
echo "split dwarf e2e: all checks passed"
