#!/usr/bin/env bash
# Installs what mtpc needs, builds it twice (against LLVM 19, with the patched
# ld.lld, and against LLVM 22, for DTLTO and the jobserver) and runs the whole
# test suite of each build.
#   scripts/test.sh [ctest arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
build22=${MTPC_BUILD22_DIR:-$root/build-22}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build"
MTPC_BUILD_DIR=$build "$root/lld-patches/build-lld.sh" >/dev/null
cmake -S "$root" -B "$build22" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMTPC_LLVM_VERSION=22 >/dev/null
ninja -C "$build22"

status=0
for dir in "$build" "$build22"; do
  echo "== ctest: $(grep -m1 '^MTPC_LLVM_VERSION' "$dir/CMakeCache.txt" | sed 's/.*=/LLVM /')"
  (cd "$dir" && ctest --output-on-failure "$@") || status=1
done
exit $status
