#!/usr/bin/env bash
# Builds ld.lld 19.1.7 with this directory's patches against the installed
# LLVM 19 and this checkout's libmtpc, and puts it at build/bin/ld.lld.
#
#   lld-patches/build-lld.sh [--source DIR]
#
# The source is Debian's llvm-toolchain-19 source package (fetched once), with
# the lld patch Debian applies to its ld.lld-19, unless --source names an
# llvm-project checkout of 19.1.7 of your own. The build directory is cached
# under $MTPC_CACHE/lld/<key>, the key hashing the lld source, the patches and
# the recipe version below; libmtpc is linked statically, so a change to it
# only re-links.
#
# Only lldELF (which the patches change) and lldCommon are compiled; the other
# drivers (COFF, MachO, MinGW, wasm) come from Debian's liblld-19-dev, built
# from the same 19.1.7 source, which halves the build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
cache=${MTPC_CACHE:-/var/cache/mtpc}
source_dir=""
while [ $# -gt 0 ]; do
  case $1 in
    --source) source_dir=$(cd "$2" && pwd); shift 2 ;;
    *) echo "usage: $0 [--source LLVM_PROJECT_DIR]" >&2; exit 2 ;;
  esac
done

log() { echo "build-lld: $*" >&2; }

fetch_debian_source() {
  local dir=$cache/llvm-toolchain-19
  if [ ! -d "$dir/src/lld" ]; then
    log "fetching Debian's llvm-toolchain-19 source package"
    "$root/scripts/fetch-inputs.sh" deb-src >/dev/null
    rm -rf "$dir" && mkdir -p "$dir/dl"
    (cd "$dir/dl" && apt-get source -qq --download-only llvm-toolchain-19 >/dev/null 2>&1)
    local orig
    orig=$(ls "$dir"/dl/llvm-toolchain-19_*.orig.tar.xz)
    mkdir -p "$dir/extract"
    tar -xJf "$orig" -C "$dir/extract" --wildcards '*/lld/*' '*/cmake/*' '*/libunwind/include/*'
    tar -xJf "$dir"/dl/llvm-toolchain-19_*.debian.tar.xz -C "$dir/extract" \
      debian/patches/env-lld-package-metadata.diff
    mv "$dir"/extract/llvm-toolchain-19_* "$dir/src"
    (cd "$dir/src" && patch -p1 -s < "$dir/extract/debian/patches/env-lld-package-metadata.diff")
    rm -rf "$dir/extract" "$dir/dl"
  fi
  echo "$dir/src"
}

[ -n "$source_dir" ] || source_dir=$(fetch_debian_source)
[ -f "$source_dir/lld/ELF/LTO.cpp" ] || { log "no lld sources in $source_dir"; exit 1; }

recipe=3 # bump when the configuration or link below changes
key=$( { (cd "$source_dir" && find lld cmake -type f -print0 | sort -z | xargs -0 sha256sum);
         cat "$here"/*.patch; echo "$recipe"; } | sha256sum | cut -c1-16)
work=$cache/lld/$key
prefix=$work/mtpc

# libmtpc, installed where the cached lld build expects it.
cmake -S "$root" -B "$build" -G Ninja >/dev/null
ninja -C "$build" mtpc >/dev/null
mkdir -p "$prefix/include/mtpc" "$prefix/lib"
cp -p "$root/include/mtpc/mtpc.h" "$prefix/include/mtpc/"
cmp -s "$build/libmtpc.a" "$prefix/lib/libmtpc.a" || cp "$build/libmtpc.a" "$prefix/lib/libmtpc.a"

if [ ! -f "$work/configured" ]; then
  log "patching and configuring lld in $work"
  rm -rf "$work/src" "$work/build"
  mkdir -p "$work/src"
  cp -r "$source_dir/lld" "$source_dir/cmake" "$work/src/"
  [ -d "$source_dir/libunwind" ] && mkdir -p "$work/src/libunwind" &&
    cp -r "$source_dir/libunwind/include" "$work/src/libunwind/"
  for p in "$here"/*.patch; do
    (cd "$work/src" && patch -p1 -s --no-backup-if-mismatch < "$p")
  done
  cmake -G Ninja -S "$work/src/lld" -B "$work/build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm \
    -DLLVM_LINK_LLVM_DYLIB=ON -DLLVM_INCLUDE_TESTS=OFF \
    -DLLD_VENDOR=Debian -DLLD_MTPC_DIR="$prefix" >/dev/null
  touch "$work/configured"
  log "building ld.lld (several minutes; later runs reuse this build)"
fi
ninja -C "$work/build" lldELF lldCommon tools/lld/CMakeFiles/lld.dir/lld.cpp.o \
  tools/lld/CMakeFiles/lld.dir/lld-driver.cpp.o >/dev/null
debian=/usr/lib/llvm-19/lib
(cd "$work/build" && clang++-19 -O2 -Wl,--export-dynamic -rdynamic \
  tools/lld/CMakeFiles/lld.dir/lld.cpp.o tools/lld/CMakeFiles/lld.dir/lld-driver.cpp.o \
  lib/liblldCommon.a $debian/liblldCOFF.a lib/liblldELF.a $debian/liblldMachO.a \
  $debian/liblldMinGW.a $debian/liblldWasm.a "$prefix/lib/libmtpc.a" $debian/liblldCOFF.a \
  lib/liblldCommon.a -lz -lzstd $debian/libLLVM.so.1 -Wl,-rpath,$debian \
  /usr/lib/x86_64-linux-gnu/libjemalloc_pic.a -ldl -lm -lpthread -o lld.new)
mkdir -p "$build/bin"
mv "$work/build/lld.new" "$build/bin/lld"
ln -sf lld "$build/bin/ld.lld"
echo "$build/bin/ld.lld"
