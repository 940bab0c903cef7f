#!/usr/bin/env bash
# Windows (COFF) through the patched lld, against the stock lld of the same
# LLVM, the programs run under wine, every module split (threshold 0),
# ThinLTO and full LTO:
#   - MinGW: the SQLite shell for x86_64-w64-mingw32 with -g (DWARF), linked
#     by the MinGW driver (ld.lld -m i386pep, as clang runs it) with its
#     --thinlto-mtpc-* options: the same answers to sqlite-queries.sql, the
#     same global symbols, .text within 1%, and a relink from a warm
#     --thinlto-cache-dir equal to the cold link;
#   - MSVC: tests/e2e/coff/*.c compiled as clang-cl compiles (CodeView,
#     x86_64-pc-windows-msvc) and linked by lld-link with its
#     /thinlto-mtpc-*: options, without a C runtime: the same output, the
#     same exports and PDB publics, and a PDB with the same functions and
#     the same source lines in each (pdb-lines.py).
#   - one COFF object of partitions (no linker: lto-backend/merge/
#     coff_merge.c): the SQLite shell's sqlite3.c compiled by mtpc cc for
#     MinGW with DWARF and CodeView both (-g -gcodeview -gdwarf), and
#     tests/e2e/coff/*.c by mtpc cc for MSVC with CodeView, each linked by
#     stock lld beside clang's objects, with a PDB: the same answers, global
#     symbols and .text within 2% (mtpc cc's band on ELF too, bench/cc.sh:
#     the partitions inline across a cut less than one module does); a PDB
#     that llvm-pdbutil reads whole, in which every function the object
#     defines has its source lines under its name, and the MSVC program's
#     clang functions have the same lines as clang's (pdb-lines.py).
# Prints each link's time beside stock's. Both builds' suites run it, each
# with its patched linkers, sharing out (on_llvm) the MinGW shell's LTO mode
# (ThinLTO and its cache with LLVM 19, full LTO with 22) and mtpc cc's
# MinGW shell (LLVM 19); both run the MSVC program every way.
#
#   tests/e2e/coff-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
llvm=/usr/lib/llvm-$version/bin
for tool in "$build/bin/ld.lld" "$build/bin/lld-link"; do
  [ -x "$tool" ] || { echo "no $tool: run lld-patches/build-lld.sh" >&2; exit 1; }
done
wine=/usr/lib/wine/wine64
kernel32=/usr/x86_64-w64-mingw32/lib/libkernel32.a
[ -x "$wine" ] && [ -f "$kernel32" ] || { echo "no wine64 or mingw-w64: scripts/install-deps.sh" >&2; exit 1; }
export WINEPREFIX=$work/wine WINEDEBUG=-all
# The prefix is made by the first program wine runs, which says so on stderr.
"$wine" cmd /c exit > /dev/null 2>&1 || true
src=$("$root/scripts/fetch-inputs.sh" sqlite)

text_size() { "$llvm/llvm-size" "$1" | tail -1 | cut -f1 | tr -d ' '; }
seconds() { local start=$(date +%s.%N); "$@"; echo "$(date +%s.%N) - $start" | bc; }
within_1pct() { [ $(($1 * 100)) -le $(($2 * 101)) ] && [ $(($1 * 100)) -ge $(($2 * 99)) ]; }
within_2pct() { [ $(($1 * 100)) -le $(($2 * 102)) ] && [ $(($1 * 100)) -ge $(($2 * 98)) ]; }
# Under load wine itself sometimes faults (at a program's exit, after all
# its output; stock's programs too): a run whose output has wine's report
# runs again, up to three times, so a program that faults every time still
# fails. Standard input comes from $RUN_INPUT (default /dev/null).
# A PDB llvm-pdbutil dumps whole without a complaint.
pdb_reads_whole() {
  "$llvm/llvm-pdbutil" dump -all "$1" > /dev/null 2> "$1.errors"
  [ ! -s "$1.errors" ] || { cat "$1.errors" >&2; return 1; }
}
run() {
  local out attempt
  for attempt in 1 2 3; do
    out=$("$wine" "$@" < "${RUN_INPUT:-/dev/null}" 2>&1 | tr -d '\r'; echo .)
    case $out in *"wine: Unhandled"*) ;; *) break ;; esac
  done
  printf '%s' "${out%.}"
}
split_at_least_twice() { grep -Eq ": ([2-9]|[1-9][0-9]+) partitions" "$1"; }

# MinGW: the SQLite shell, this build's LTO mode.
if on_llvm 19; then mingw_lto=thin; else mingw_lto=full; fi
cc="clang-$version --target=x86_64-w64-mingw32 -O2 -g -gcodeview -gdwarf -flto=$mingw_lto"
$cc -c "$src/sqlite3.c" -o sqlite3-$mingw_lto.o & $cc -c "$src/shell.c" -I"$src" -o shell-$mingw_lto.o
wait $!; wait
for lto in $mingw_lto; do
  case $lto in thin) jobs=--thinlto-mtpc-jobs=2 ;; full) jobs=--lto-mtpc-jobs=2 ;; esac
  link() {
    local ld=$1 out=$2; shift 2
    clang-$version --target=x86_64-w64-mingw32 -flto=$lto -fuse-ld=lld --ld-path="$ld" \
      shell-$lto.o sqlite3-$lto.o -Wl,--no-insert-timestamp "$@" -o "$out"
  }
  stock_s=$(seconds link "$llvm/ld.lld" shell-stock.exe)
  split_s=$(seconds link "$build/bin/ld.lld" shell-split.exe \
    -Wl,$jobs,--thinlto-mtpc-threshold=0,--thinlto-mtpc-stats=split.stats)
  split_at_least_twice split.stats
  for v in stock split; do
    RUN_INPUT=$here/sqlite-queries.sql run ./shell-$v.exe :memory: > queries-$v.out
    globals shell-$v.exe > shell-$v.syms
  done
  grep -q '^5000|12502500|' queries-stock.out
  diff -u queries-stock.out queries-split.out
  diff -u shell-stock.syms shell-split.syms
  stock_text=$(text_size shell-stock.exe) split_text=$(text_size shell-split.exe)
  within_1pct "$split_text" "$stock_text"
  if [ $lto = thin ]; then
    link "$build/bin/ld.lld" cold.exe -Wl,$jobs,--thinlto-mtpc-threshold=0,--thinlto-cache-dir=cache
    link "$build/bin/ld.lld" warm.exe -Wl,$jobs,--thinlto-mtpc-threshold=0,--thinlto-cache-dir=cache
    cmp shell-split.exe cold.exe
    cmp shell-split.exe warm.exe
  fi
  printf 'MinGW %s LTO: the same answers and symbols; .text %s / %s; link %.2f s against stock %.2f s\n' \
    "$lto" "$split_text" "$stock_text" "$split_s" "$stock_s"
done

# MSVC: clang-cl's objects (no security cookie: there is no runtime to check
# it), lld-link with a PDB.
for lto in thin full; do
  case $lto in thin) jobs=/thinlto-mtpc-jobs:2 ;; full) jobs=/lto-mtpc-jobs:2 ;; esac
  for f in main table; do
    clang-$version --driver-mode=cl /nologo /c /O2 /Z7 /GS- -flto=$lto /Fo:$f-$lto.obj -- "$here/coff/$f.c"
  done
  link() {
    local ld=$1 out=$2; shift 2
    "$ld" /nodefaultlib /entry:start /subsystem:console /debug /brepro main-$lto.obj table-$lto.obj \
      "$kernel32" "$@" /out:"$out"
  }
  stock_s=$(seconds link "$llvm/lld-link" win-stock.exe)
  split_s=$(seconds link "$build/bin/lld-link" win-split.exe $jobs /thinlto-mtpc-threshold:0 \
    /thinlto-mtpc-partitions:4 /thinlto-mtpc-stats:win.stats)
  split_at_least_twice win.stats
  for v in stock split; do
    run ./win-$v.exe > win-$v.out
    "$llvm/llvm-readobj" --coff-exports win-$v.exe | grep 'Name:' > win-$v.exports
    "$llvm/llvm-pdbutil" dump --publics win-$v.pdb | grep -o 'S_PUB32 .*' | sed 's/\[size = [0-9]*\] //' |
      sort > win-$v.publics
    python3 "$here/pdb-lines.py" "$llvm/llvm-pdbutil" win-$v.pdb > win-$v.lines
  done
  grep -q '^primes below 200000: 17984$' win-stock.out
  diff -u win-stock.out win-split.out
  diff -u win-stock.exports win-split.exports
  diff -u win-stock.publics win-split.publics
  diff -u win-stock.lines win-split.lines
  printf 'MSVC %s LTO: the same output, exports, publics and PDB lines (%s functions); link %.2f s against stock %.2f s\n' \
    "$lto" "$(wc -l < win-stock.lines)" "$split_s" "$stock_s"
done

# mtpc cc's one COFF object: MinGW's sqlite3.c (beside clang's shell.c, both
# -O2 -g; LLVM 19's suite) and MSVC's program, each module split, linked by
# stock lld.
if on_llvm 19; then
  cc="clang-$version --target=x86_64-w64-mingw32 -O2 -g -gcodeview -gdwarf"
  $build/bin/mtpc-cc --verbose --threshold=0 $cc -c "$src/sqlite3.c" -o sqlite3-cc.o 2> cc.log &
  $cc -c "$src/sqlite3.c" -o sqlite3-clang.o
  wait $!
  grep -Eq 'sqlite3.c: split into ([2-9]|[1-9][0-9]+) partitions' cc.log
  $cc -c "$src/shell.c" -I"$src" -o shell-clang.o
  for v in cc clang; do
    link=(clang-$version --target=x86_64-w64-mingw32 -fuse-ld=lld --ld-path="$llvm/ld.lld"
          shell-clang.o sqlite3-$v.o -Wl,--no-insert-timestamp)
    "${link[@]}" -o shell-$v.exe
    RUN_INPUT=$here/sqlite-queries.sql run ./shell-$v.exe :memory: > queries-$v.out
    globals shell-$v.exe > shell-$v.syms
    # (A PDB link writes no symbol table.)
    "${link[@]}" -g -Wl,--pdb=shell-$v.pdb -o shell-pdb-$v.exe
    pdb_reads_whole shell-$v.pdb
    python3 "$here/pdb-lines.py" "$llvm/llvm-pdbutil" shell-$v.pdb > shell-$v.lines
    grep -F ": $src/sqlite3.c: " shell-$v.lines | cut -d: -f1 | sort -u > shell-$v.with-lines
    "$llvm/llvm-nm" --defined-only sqlite3-$v.o | awk '$2 == "t" || $2 == "T" { print $3 }' |
      grep -v '^\.' | sort -u > shell-$v.functions
    diff -u shell-$v.functions shell-$v.with-lines
  done
  grep -q '^5000|12502500|' queries-clang.out
  diff -u queries-clang.out queries-cc.out
  diff -u shell-clang.syms shell-cc.syms
  within_2pct "$(text_size shell-cc.exe)" "$(text_size shell-clang.exe)"
  printf 'MinGW mtpc cc: the same answers and symbols; .text %s / %s; PDB lines for all %s functions\n' \
    "$(text_size shell-cc.exe)" "$(text_size shell-clang.exe)" "$(wc -l < shell-cc.functions)"
fi
for f in main table; do
  $build/bin/mtpc-cc --partitions=3 --min-source-size=0 --threshold=0 --verbose \
    clang-$version --target=x86_64-pc-windows-msvc -O2 -g -gcodeview -c "$here/coff/$f.c" \
    -o $f-cc.obj 2> $f-cc.log
  clang-$version --target=x86_64-pc-windows-msvc -O2 -g -gcodeview -c "$here/coff/$f.c" \
    -o $f-clang.obj
done
grep -q 'main.c: split into 3 partitions' main-cc.log
for v in cc clang; do
  "$llvm/lld-link" /nodefaultlib /entry:start /subsystem:console /debug /brepro main-$v.obj \
    table-$v.obj "$kernel32" /out:msvc-$v.exe
  run ./msvc-$v.exe > msvc-$v.out
  pdb_reads_whole msvc-$v.pdb
  python3 "$here/pdb-lines.py" "$llvm/llvm-pdbutil" msvc-$v.pdb > msvc-$v.lines
done
grep -q '^primes below 200000: 17984$' msvc-clang.out
diff -u msvc-clang.out msvc-cc.out
# The split keeps some static functions out of line that clang inlined:
# each of clang's has the same lines.
LC_ALL=C comm -23 msvc-clang.lines msvc-cc.lines > msvc-lost.lines
[ -s msvc-clang.lines ] && [ ! -s msvc-lost.lines ]
echo "MSVC mtpc cc: the same output; clang's $(wc -l < msvc-clang.lines) functions' PDB lines"
