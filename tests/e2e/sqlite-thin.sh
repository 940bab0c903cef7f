#!/usr/bin/env bash
# sqlite3.c as `clang-N -O2 -flto=thin -c` compiles it, the bitcode several
# tests start from (e2e_sqlite, e2e_backend, memory_limit, e2e_lld,
# e2e_dtlto): compiled once per build directory, under a lock, keyed by
# clang's version and the source, and copied to OUT.
#
#   tests/e2e/sqlite-thin.sh BUILD_DIR OUT   (MTPC_LLVM_VERSION: N, 19 if unset)
set -euo pipefail
build=$1 out=$2
version=${MTPC_LLVM_VERSION:-19}
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$root/scripts/fetch-inputs.sh" sqlite)
dir=$build/e2e/inputs
key=$( { "clang-$version" --version | head -1; sha256sum < "$src/sqlite3.c"; } | sha256sum | cut -c1-16)
mkdir -p "$dir"
exec 9> "$dir/.lock"
flock 9
if [ ! -f "$dir/sqlite3-thin-$key.o" ]; then
  "clang-$version" -O2 -flto=thin -c "$src/sqlite3.c" -o "$dir/sqlite3-thin.tmp"
  mv "$dir/sqlite3-thin.tmp" "$dir/sqlite3-thin-$key.o"
fi
cp "$dir/sqlite3-thin-$key.o" "$out"
