#!/usr/bin/env bash
# Installs mtpc from a build tree into a fresh prefix, builds examples/embed.c
# against it twice (find_package(mtpc) and pkg-config), runs both, and checks
# the object they write links into a program that runs.
#   install-example.sh <build dir> <work dir>
set -euo pipefail
build=$1 work=$2
src=$(cd "$(dirname "$0")/.." && pwd)
version=$(grep -m1 '^MTPC_LLVM_VERSION' "$build/CMakeCache.txt" | sed 's/.*=//')
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/mtpc/mtpc.h" && test -f "$prefix/include/mtpc/llvm.h"
test ! -e "$prefix/include/mtpc/tools.h" # not part of the installed API
test -x "$prefix/bin/mtpc"
if [ -e "$build/bin/lld" ]; then
  test -x "$prefix/bin/ld.lld-mtpc-${MTPC_LLVM_VERSION:-19}" && test ! -e "$prefix/bin/ld.lld"
  # lld picks its driver from its name: lld-link's options under this one.
  # (Read whole first: grep -q would close the pipe while lld-link writes the
  # rest of its help, and SIGPIPE failed the pipeline, 5 runs in 50.)
  help=$("$prefix/bin/lld-link-mtpc-${MTPC_LLVM_VERSION:-19}" /help)
  grep -q '/thinlto-mtpc-jobs:' <<< "$help"
  test ! -e "$prefix/bin/lld-link"
fi

cmake -S "$src/examples" -B "$work/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
ninja -C "$work/cmake-build" >/dev/null
"$work/cmake-build/embed" "$work/cmake.o" 2

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
"clang-$version" -o "$work/embed-pc" "$src/examples/embed.c" $(pkg-config --cflags --libs mtpc)
"$work/embed-pc" "$work/pc.o" 1
cmp "$work/cmake.o" "$work/pc.o" # -j never changes the output

cat > "$work/main.c" <<'C'
#include <stdio.h>
long step0(long);
int main(void) { printf("%ld\n", step0(1)); return 0; }
C
"clang-$version" -o "$work/program" "$work/main.c" "$work/cmake.o"
test "$("$work/program")" = 19901 # 1 + (0 + 1 + ... + 199)
echo "install-example: ok"
