#!/usr/bin/env bash
# The main job on the bundled default input: installs everything, builds
# mtpc, fetches SQLite 3.40.1 from Debian, compiles sqlite3.c (243K lines) as
# ThinLTO bitcode, and compiles that module to an object twice: unsplit, one
# thread (what a stock ThinLTO backend does), and split by mtpc on every core.
# Links the SQLite shell against the split object and runs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
work=${MTPC_WORK_DIR:-$build/quickstart}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build" >/dev/null
src=$("$root/scripts/fetch-inputs.sh" sqlite)
mkdir -p "$work"
cd "$work"
clang-19 -O2 -flto=thin -c "$src/sqlite3.c" -o sqlite3.bc
clang-19 -O2 -c "$src/shell.c" -I"$src" -o shell.o

seconds() { local start=$(date +%s.%N); "$@"; echo "$(date +%s.%N) - $start" | bc -l; }
jobs=$(nproc)
serial=$(seconds "$build/bin/mtpc" compile sqlite3.bc -o serial.o --partitions 1 -j1)
split=$(seconds "$build/bin/mtpc" compile sqlite3.bc -o split.o -j"$jobs")
clang-19 -fuse-ld=lld shell.o split.o -o sqlite3-shell -lm -lpthread -ldl
echo "SELECT 'sqlite ' || sqlite_version() || ' built from a split module: ok';" | ./sqlite3-shell
printf 'sqlite3.c backend: unsplit %.2fs, mtpc -j%s %.2fs (%.2fx the time)\n' \
  "$serial" "$jobs" "$split" "$(echo "$split / $serial" | bc -l)"
