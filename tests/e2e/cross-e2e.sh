#!/usr/bin/env bash
# AArch64 and RISC-V 64 through the patched ld.lld, against the stock
# ld.lld of the same LLVM, the programs run under qemu-user: the SQLite
# shell as ThinLTO and as full LTO, every module split (threshold 0), with
# -g. Each split program answers sqlite-queries.sql as the stock one does,
# has its global symbols and .text within 1% of it, and DWARF that
# llvm-dwarfdump --verify accepts (RISC-V's ADD/SUB relocation pairs and
# relaxation included). Prints each link's time beside stock's.
# Both builds' suites run it, each with its patched linker, the LTO modes
# shared out (on_llvm): LLVM 19 links AArch64 by ThinLTO and RISC-V by full
# LTO, LLVM 22 the other two.
#
#   tests/e2e/cross-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
lld=$build/bin/ld.lld
stock=/usr/lib/llvm-$version/bin/ld.lld
[ -x "$lld" ] || { echo "no $lld: run lld-patches/build-lld.sh" >&2; exit 1; }
src=$("$root/scripts/fetch-inputs.sh" sqlite)

text_size() { llvm-size-$version "$1" | tail -1 | cut -f1 | tr -d ' '; }
seconds() { local start=$(date +%s.%N); "$@"; echo "$(date +%s.%N) - $start" | bc; }

if on_llvm 19; then
  links="aarch64-linux-gnu:thin riscv64-linux-gnu:full"
else
  links="aarch64-linux-gnu:full riscv64-linux-gnu:thin"
fi
for target_lto in $links; do
  target=${target_lto%:*} lto=${target_lto#*:}
  arch=${target%%-*}
  [ -d "/usr/$target/lib" ] || { echo "no /usr/$target: scripts/install-deps.sh" >&2; exit 1; }
  cc="clang-$version --target=$target -O2 -g -flto=$lto"
  $cc -c "$src/sqlite3.c" -o sqlite3-$lto.o & $cc -c "$src/shell.c" -I"$src" -o shell-$lto.o
  wait $!; wait
  case $lto in thin) jobs=--thinlto-mtpc-jobs=2 ;; full) jobs=--lto-mtpc-jobs=2 ;; esac
  link() {
    local ld=$1 out=$2; shift 2
    clang-$version --target=$target -flto=$lto -fuse-ld=lld --ld-path="$ld" shell-$lto.o sqlite3-$lto.o \
      "$@" -o "$out" -lm -lpthread -ldl
  }
  stock_s=$(seconds link "$stock" shell-stock)
  split_s=$(seconds link "$lld" shell-split \
    -Wl,$jobs,--thinlto-mtpc-threshold=0,--thinlto-mtpc-stats=split.stats)
  grep -Eq ": ([2-9]|[1-9][0-9]+) partitions" split.stats
  for v in stock split; do
    qemu-$arch -L "/usr/$target" ./shell-$v :memory: < "$here/sqlite-queries.sql" > queries-$v.out 2>&1
    globals shell-$v > shell-$v.syms
  done
  diff -u queries-stock.out queries-split.out
  diff -u shell-stock.syms shell-split.syms
  stock_text=$(text_size shell-stock) split_text=$(text_size shell-split)
  [ $((split_text * 100)) -le $((stock_text * 101)) ] && [ $((split_text * 100)) -ge $((stock_text * 99)) ]
  llvm-dwarfdump-$version --verify shell-split 2>/dev/null | grep -q "No errors."
  printf '%s %s LTO: the same answers and symbols; .text %s / %s; link %.2f s against stock %.2f s\n' \
    "$arch" "$lto" "$split_text" "$stock_text" "$split_s" "$stock_s"
done
