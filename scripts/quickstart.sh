#!/usr/bin/env bash
# The main job on the bundled default input: installs everything, builds mtpc
# and the patched ld.lld, fetches SQLite 3.40.1 from Debian, compiles the
# SQLite shell (shell.c + sqlite3.c, 243K lines) as ThinLTO bitcode, and links
# it twice, side by side: with Debian's stock ld.lld-19 --thinlto-jobs=N and
# with the patched ld.lld --thinlto-jobs=N --thinlto-mtpc-jobs=N. Prints both
# times and runs the shell linked with mtpc.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
work=${MTPC_WORK_DIR:-$build/quickstart}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build" >/dev/null
lld=$("$root/lld-patches/build-lld.sh")
src=$("$root/scripts/fetch-inputs.sh" sqlite)
mkdir -p "$work"
cd "$work"
clang-19 -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.o
clang-19 -O2 -flto=thin -c "$src/shell.c" -I"$src" -o shell.o

jobs=$(nproc)
seconds() { local start=$(date +%s.%N); "$@"; echo "$(date +%s.%N) - $start" | bc -l; }
link() {
  local ld=$1 out=$2; shift 2
  clang-19 -flto=thin -fuse-ld=lld --ld-path="$ld" shell.o sqlite3.o -o "$out" \
    -Wl,--thinlto-jobs="$jobs" "$@" -lm -lpthread -ldl
}
stock=$(seconds link /usr/lib/llvm-19/bin/ld.lld sqlite3-stock)
split=$(seconds link "$lld" sqlite3-mtpc -Wl,--thinlto-mtpc-jobs="$jobs")
echo "SELECT 'sqlite ' || sqlite_version() || ' linked with --thinlto-mtpc-jobs: ok';" | ./sqlite3-mtpc
printf 'SQLite shell ThinLTO link: stock ld.lld-19 %.2fs, ld.lld --thinlto-mtpc-jobs=%s %.2fs (%.2fx the time)\n' \
  "$stock" "$jobs" "$split" "$(echo "$split / $stock" | bc -l)"
