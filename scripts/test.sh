#!/usr/bin/env bash
# Installs what mtpc needs, builds it and the patched ld.lld, and runs the
# whole test suite.
#   scripts/test.sh [ctest arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build"
MTPC_BUILD_DIR=$build "$root/lld-patches/build-lld.sh" >/dev/null
cd "$build"
ctest --output-on-failure "$@"
