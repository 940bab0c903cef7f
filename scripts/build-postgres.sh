#!/usr/bin/env bash
# PostgreSQL 15's server as one LLVM module: what a unity build of it would
# give, ten times sqlite3.c's backend. Debian's postgresql-15 source is
# configured out of tree and built with clang-19 -O2 -g -flto=thin (a
# production build's flags, with debug information), so that every object is
# ThinLTO bitcode; the objects the `postgres` binary is linked from
# (src/backend/**/objfiles.txt, not the libpgcommon_srv/libpgport_srv
# archives) are joined by llvm-link into postgres.bc.
#
#   scripts/build-postgres.sh   -> prints the directory holding
#       build/        the built tree (make check runs there)
#       postgres.bc   the server's module
#       link-args.txt what links the server besides the module's object
#       check-stock.log  make check of the stock (ThinLTO) server
#
# Cached under $MTPC_CACHE/postgres/<key>, the key a hash of the source
# package's version, clang's and the configure arguments; built once.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${MTPC_CACHE:-/var/cache/mtpc}
src=$("$root/scripts/fetch-inputs.sh" postgres)
configure_args=(CC=clang-19 "CFLAGS=-O2 -g -flto=thin" LDFLAGS=-fuse-ld=lld --without-readline
  --without-zlib --without-icu --disable-nls)
key=$( { cat "$src/../version"; clang-19 --version | head -1; echo "${configure_args[@]}"; } |
  sha256sum | cut -c1-16)
out=$cache/postgres/$key
# configure writes absolute paths into the tree: a tree configured at another
# place (a cache directory copied or moved) is built again here.
configured_at() {
  sed -n 's/^abs_top_\(build\|src\)dir = //p' "$out/build/src/Makefile.global" 2>/dev/null | tr '\n' ' '
}
if [ -d "$out" ] && [ "$(configured_at)" != "$out/build $src " ]; then
  echo "build-postgres: $out was configured at another place: building it again" >&2
  rm -rf "$out"
fi
if [ -f "$out/postgres.bc" ]; then
  echo "$out"
  exit 0
fi
# A tree left by an interrupted build has no postgres.bc: make goes on.
mkdir -p "$out/build"
cd "$out/build"
if [ ! -f config.status ]; then
  "$src/configure" "${configure_args[@]}" --prefix="$out/install" > configure.log ||
    { rm -f config.status; exit 1; }
fi
make -s -j"$(nproc)" > make.log 2>&1 || { tail -40 make.log >&2; exit 1; }
# The postgres binary's own objects, as its Makefile's expand_subsys lists
# them (paths relative to the top of the tree).
objects=$(cat src/backend/*/objfiles.txt src/timezone/objfiles.txt)
llvm-link-19 $objects -o "$out/postgres.bc.tmp"
libs=$(sed -n 's/^LIBS = //p' src/Makefile.global)
echo "$out/build/src/common/libpgcommon_srv.a $out/build/src/port/libpgport_srv.a" \
  "-Wl,--export-dynamic $libs" > "$out/link-args.txt"
# The stock server's regression results, which split builds must match.
"$root/scripts/postgres-check.sh" "$out" "$out/stock-check"
mv "$out/stock-check/check.log" "$out/check-stock.log" && rm -rf "$out/stock-check"
mv "$out/postgres.bc.tmp" "$out/postgres.bc"
echo "$out"
