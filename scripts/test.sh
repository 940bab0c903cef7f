#!/usr/bin/env bash
# Installs what mtpc needs, builds it twice (against LLVM 19 and LLVM 22, each
# with its patched lld) and runs the whole test suite of each build, the two
# side by side (each test's serial phases, one-file compiles and program
# runs, leave a core the other suite takes; their outputs are printed one
# after the other); then the concurrent-compile test under ThreadSanitizer
# (a third build, MTPC_SANITIZE=thread, ctest label tsan).
#   scripts/test.sh [ctest arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
build22=${MTPC_BUILD22_DIR:-$root/build-22}
build_tsan=${MTPC_BUILD_TSAN_DIR:-$root/build-tsan}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build"
MTPC_BUILD_DIR=$build "$root/lld-patches/build-lld.sh" >/dev/null
cmake -S "$root" -B "$build22" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMTPC_LLVM_VERSION=22 >/dev/null
ninja -C "$build22"
MTPC_BUILD_DIR=$build22 "$root/lld-patches/build-lld.sh" --llvm 22 >/dev/null
cmake -S "$root" -B "$build_tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMTPC_SANITIZE=thread -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
ninja -C "$build_tsan" tests/test_threads

status=0
logs=$(mktemp -d)
for dir in "$build" "$build22"; do
  (cd "$dir" && ctest --output-on-failure "$@") > "$logs/${dir//\//_}.log" 2>&1 &
done
for dir in "$build" "$build22"; do
  wait -n || status=1
done
for dir in "$build" "$build22"; do
  echo "== ctest: $(grep -m1 '^MTPC_LLVM_VERSION' "$dir/CMakeCache.txt" | sed 's/.*=/LLVM /')"
  cat "$logs/${dir//\//_}.log"
done
rm -rf "$logs"
echo "== ctest: ThreadSanitizer"
(cd "$build_tsan" && ctest --output-on-failure -L tsan) || status=1
exit $status
