#!/usr/bin/env bash
# The SQLite shell's link (shell.c + sqlite3.c, -O2) for AArch64, RISC-V 64
# and Windows (MinGW: the MinGW driver, which drives lld-link), each against
# its own stock lld, side by side in one run, alternating, medians: ThinLTO
# (stock --thinlto-jobs=J against --thinlto-mtpc-jobs=J) and full LTO (stock
# with one partition, its default, against --lto-mtpc-jobs=J). The programs
# are not run here (tests/e2e/cross-e2e.sh and coff-e2e.sh run them under
# qemu-user and wine).
#
#   bench/cross.sh [--target T]... [--runs N] [--jobs J] [--llvm 19|22]
#
# --target picks targets (aarch64-linux-gnu, riscv64-linux-gnu,
# x86_64-w64-mingw32; default: all three).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3 jobs=2 size=100
. "$root/bench/common.sh"
targets=() rest=()
while [ $# -gt 0 ]; do
  case $1 in
    --target) targets+=("$2"); shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(aarch64-linux-gnu riscv64-linux-gnu x86_64-w64-mingw32)
bench_options "${rest[@]+"${rest[@]}"}"
lld=$build/bin/ld.lld
stock=/usr/lib/llvm-$version/bin/ld.lld
bench_need "$lld" "build ld.lld first (lld-patches/build-lld.sh)"
bench_enter cross

echo "SQLite shell links for other targets: stock ld.lld-$version against the patched ld.lld, -j$jobs, median of $runs runs"
printf '  %-34s %10s %10s %8s   %s\n' figure stock mtpc ratio target
for target in "${targets[@]}"; do
  arch=${target%%-*} libs="-lm -lpthread -ldl" one_partition=-Wl,--lto-partitions=1 exe=
  # The MinGW driver has no --lto-partitions (lld-link's default is one).
  [ $target = x86_64-w64-mingw32 ] && arch=mingw libs= one_partition= exe=.exe
  for lto in thin full; do
    for f in sqlite3 shell; do
      [ -f $f-$arch-$lto.o ] ||
        clang-$version --target=$target -O2 -flto=$lto -c "$src/$f.c" -I"$src" -o $f-$arch-$lto.o
    done
    link() {
      local name=$1 ld=$2; shift 2
      measure "$name" clang-$version --target=$target -flto=$lto -fuse-ld=lld --ld-path="$ld" \
        shell-$arch-$lto.o sqlite3-$arch-$lto.o -o shell-$name$exe "$@" $libs
    }
    rm -f stock-$arch-$lto.stats mtpc-$arch-$lto.stats
    for i in $(seq "$runs"); do
      if [ $lto = thin ]; then
        link stock-$arch-$lto "$stock" -Wl,--thinlto-jobs="$jobs"
        link mtpc-$arch-$lto "$lld" -Wl,--thinlto-jobs="$jobs",--thinlto-mtpc-jobs="$jobs"
      else
        link stock-$arch-$lto "$stock" $one_partition
        link mtpc-$arch-$lto "$lld" -Wl,--lto-mtpc-jobs="$jobs"
      fi
    done 2>/dev/null # RISC-V's LTO warns of its ABI once per target machine
    target_ratio="<= 0.62"
    [ $lto = full ] && target_ratio="<= 0.55"
    wall_s=$(col stock-$arch-$lto 1) wall_m=$(col mtpc-$arch-$lto 1)
    cpu_s=$(col stock-$arch-$lto 2) cpu_m=$(col mtpc-$arch-$lto 2)
    printf '  %-34s %10s %10s %8s   %s\n' "$arch $lto LTO link wall (s)" "$wall_s" "$wall_m" \
      "$(ratio "$wall_m" "$wall_s")" "$target_ratio"
    printf '  %-34s %10s %10s %8s\n' "$arch $lto LTO link cpu (s)" "$cpu_s" "$cpu_m" \
      "$(ratio "$cpu_m" "$cpu_s")"
    printf '  %-34s %10s %10s %8s   %s\n' "$arch $lto LTO .text (bytes)" \
      "$(text_size shell-stock-$arch-$lto$exe)" "$(text_size shell-mtpc-$arch-$lto$exe)" \
      "$(ratio "$(text_size shell-mtpc-$arch-$lto$exe)" "$(text_size shell-stock-$arch-$lto$exe)")" "0.99 .. 1.01"
  done
done
