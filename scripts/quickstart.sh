#!/usr/bin/env bash
# The main job on the bundled default input: installs everything, builds mtpc
# and the patched ld.lld, fetches SQLite 3.40.1 from Debian, compiles the
# SQLite shell (shell.c + sqlite3.c, 243K lines) as ThinLTO bitcode, and links
# it twice, side by side: with Debian's stock ld.lld-N --thinlto-jobs=J and
# with the patched ld.lld --thinlto-jobs=J --thinlto-mtpc-jobs=J. Prints both
# times and runs the shell linked with mtpc.
#
#   scripts/quickstart.sh [--llvm 19|22]   (default 19; 22 builds in build-22/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=19
case ${1:-} in
  --llvm) version=${2:?--llvm takes 19 or 22} ;;
  "") ;;
  *) echo "usage: $0 [--llvm 19|22]" >&2; exit 2 ;;
esac
case $version in
  19) build=${MTPC_BUILD_DIR:-$root/build} ;;
  22) build=${MTPC_BUILD_DIR:-$root/build-22} ;;
  *) echo "quickstart: --llvm $version: the versions are 19 and 22" >&2; exit 2 ;;
esac
work=${MTPC_WORK_DIR:-$build/quickstart}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMTPC_LLVM_VERSION="$version" >/dev/null
ninja -C "$build" >/dev/null
lld=$(MTPC_BUILD_DIR=$build "$root/lld-patches/build-lld.sh" --llvm "$version")
src=$("$root/scripts/fetch-inputs.sh" sqlite)
mkdir -p "$work"
cd "$work"
clang-$version -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.o
clang-$version -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o

jobs=$(nproc)
seconds() { local start=$(date +%s.%N); "$@"; echo "$(date +%s.%N) - $start" | bc -l; }
link() {
  local ld=$1 out=$2; shift 2
  clang-$version -flto=thin -fuse-ld=lld --ld-path="$ld" shell.o sqlite3.o -o "$out" \
    -Wl,--thinlto-jobs="$jobs" "$@" -lm -lpthread -ldl
}
stock=$(seconds link /usr/lib/llvm-$version/bin/ld.lld sqlite3-stock)
split=$(seconds link "$lld" sqlite3-mtpc -Wl,--thinlto-mtpc-jobs="$jobs")
echo "SELECT 'sqlite ' || sqlite_version() || ' linked with --thinlto-mtpc-jobs: ok';" | ./sqlite3-mtpc
printf 'SQLite shell ThinLTO link: stock ld.lld-%s %.2fs, ld.lld --thinlto-mtpc-jobs=%s %.2fs (%.2fx the time)\n' \
  "$version" "$stock" "$jobs" "$split" "$(echo "$split / $stock" | bc -l)"
