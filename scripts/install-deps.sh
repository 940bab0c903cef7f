#!/usr/bin/env bash
# Installs the Debian 12 packages mtpc builds and tests with. Idempotent; run as root.
#   scripts/install-deps.sh [--build]
# --build: only what building mtpc and the patched ld.lld against LLVM 19
# needs, so that scripts/test.sh can build while the rest installs.
set -euo pipefail

build_packages=(
  llvm-19-dev clang-19 lld-19 liblld-19-dev llvm-19-tools
  libxxhash-dev libzstd-dev zlib1g-dev libjemalloc-dev cmake ninja-build python3 make xz-utils patch
)
packages=(
  "${build_packages[@]}" tcl hyperfine time bc dpkg-dev valgrind csmith libcsmith-dev pkgconf
  libclang-rt-19-dev libomp-19-dev gdb gdb-multiarch lldb-19 ccache
  llvm-22-dev clang-22 lld-22 liblld-22-dev llvm-22-tools libclang-rt-22-dev
  libc6-dev-arm64-cross libgcc-12-dev-arm64-cross libstdc++-12-dev-arm64-cross qemu-user \
  libc6-dev-riscv64-cross libgcc-12-dev-riscv64-cross libstdc++-12-dev-riscv64-cross
  mingw-w64-x86-64-dev gcc-mingw-w64-x86-64-posix wine64
)

case ${1:-} in
  --build) packages=("${build_packages[@]}") ;;
  "") ;;
  *) echo "usage: $0 [--build]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: need root to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
