#!/usr/bin/env bash
# Installs what mtpc needs (what the LLVM 19 build needs first, the rest
# while it builds), builds it twice (against LLVM 19 and LLVM 22, each
# with its patched lld) and runs the whole test suite of each build, the two
# side by side: LLVM 19's suite starts as soon as its build and linker are
# built, while LLVM 22's are built (every phase of the run is CPU-bound, and
# the suite fills the cores a build leaves idle: downloads, links,
# configure steps); each test's serial phases, one-file compiles and program
# runs leave a core the other suite takes; their outputs are printed one
# after the other. Then the concurrent-compile test under ThreadSanitizer (a
# third build, MTPC_SANITIZE=thread, ctest label tsan).
#   scripts/test.sh [ctest arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
build22=${MTPC_BUILD22_DIR:-$root/build-22}
build_tsan=${MTPC_BUILD_TSAN_DIR:-$root/build-tsan}

logs=$(mktemp -d)
"$root/scripts/install-deps.sh" --build
"$root/scripts/install-deps.sh" > "$logs/install.log" 2>&1 &
install=$!
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build"
MTPC_BUILD_DIR=$build "$root/lld-patches/build-lld.sh" >/dev/null
wait "$install" || { cat "$logs/install.log" >&2; echo "test.sh: installing the packages failed" >&2; exit 1; }

status=0
log_of() { echo "$logs/${1//\//_}.log"; } # log_of BUILD_DIR: its suite's log
suite() { # suite BUILD_DIR [ctest arguments...]: its ctest, into its log
  local dir=$1
  shift
  (cd "$dir" && ctest --output-on-failure "$@") > "$(log_of "$dir")" 2>&1
}
suite "$build" "$@" &
suite19=$!
suite22=""
if cmake -S "$root" -B "$build22" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     -DMTPC_LLVM_VERSION=22 >/dev/null &&
   ninja -C "$build22" &&
   MTPC_BUILD_DIR=$build22 "$root/lld-patches/build-lld.sh" --llvm 22 >/dev/null; then
  suite "$build22" "$@" &
  suite22=$!
else
  echo "test.sh: the LLVM 22 build failed" >&2
  status=1
fi
tsan_built=0
cmake -S "$root" -B "$build_tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMTPC_SANITIZE=thread -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null &&
  ninja -C "$build_tsan" tests/test_threads && tsan_built=1 || status=1

wait "$suite19" || status=1
[ -z "$suite22" ] || wait "$suite22" || status=1
for dir in "$build" "$build22"; do
  [ -f "$(log_of "$dir")" ] || continue
  echo "== ctest: $(grep -m1 '^MTPC_LLVM_VERSION' "$dir/CMakeCache.txt" | sed 's/.*=/LLVM /')"
  cat "$(log_of "$dir")"
done
rm -rf "$logs"
echo "== ctest: ThreadSanitizer"
if [ "$tsan_built" = 1 ]; then
  (cd "$build_tsan" && ctest --output-on-failure -L tsan) || status=1
else
  echo "test.sh: the ThreadSanitizer build failed" >&2
fi
exit $status
