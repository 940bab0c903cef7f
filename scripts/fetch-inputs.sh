#!/usr/bin/env bash
# Fetches and prepares the real-world inputs mtpc is tested and measured on.
# Nothing lands in the checkout: everything goes under $MTPC_CACHE.
#
#   scripts/fetch-inputs.sh sqlite    -> $MTPC_CACHE/sqlite/{sqlite3.c,sqlite3.h,shell.c,speedtest1.c}
#   scripts/fetch-inputs.sh duktape   -> $MTPC_CACHE/duktape/src (Debian's duktape 2.7.0 source)
#   scripts/fetch-inputs.sh postgres  -> $MTPC_CACHE/postgres/src (Debian's postgresql-15 source;
#                                        scripts/build-postgres.sh builds it)
#   scripts/fetch-inputs.sh cppcheck  -> $MTPC_CACHE/cppcheck/src (Debian's cppcheck 2.10 source;
#                                        scripts/build-cppcheck.sh builds it)
#   scripts/fetch-inputs.sh deb-src   adds the deb-src entry apt-get source needs
#
# Prints the directory it prepared.
set -euo pipefail

cache=${MTPC_CACHE:-/var/cache/mtpc}
src_list=/etc/apt/sources.list.d/mtpc-deb-src.sources

ensure_deb_src() {
  if [ ! -f "$src_list" ]; then
    cat > "$src_list" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -qq
  fi
}

# fetch_source PACKAGE DIR: unpacks Debian's source package PACKAGE into DIR/src.
fetch_source() {
  local pkg=$1 dir=$2
  [ -d "$dir/src" ] && return 0
  ensure_deb_src
  local work
  work=$(mktemp -d "$cache/.fetch.XXXXXX")
  (cd "$work" && apt-get source -qq --download-only "$pkg" >/dev/null 2>&1 \
     && dpkg-source --no-check -x ./*.dsc src >/dev/null)
  mkdir -p "$dir"
  mv "$work/src" "$dir/src"
  rm -rf "$work"
}

prepare_sqlite() {
  local dir=$cache/sqlite
  if [ -f "$dir/sqlite3.c" ] && [ -f "$dir/shell.c" ] && [ -f "$dir/speedtest1.c" ]; then
    echo "$dir"; return 0
  fi
  fetch_source sqlite3 "$dir"
  local build=$dir/build
  rm -rf "$build"; mkdir -p "$build"
  (cd "$build" && ../src/configure --disable-tcl >/dev/null && make -s sqlite3.c shell.c >/dev/null 2>&1)
  cp "$build/sqlite3.c" "$build/sqlite3.h" "$build/shell.c" "$dir/"
  cp "$dir/src/test/speedtest1.c" "$dir/"
  rm -rf "$build"
  echo "$dir"
}

prepare_duktape() {
  local dir=$cache/duktape
  fetch_source duktape "$dir"
  echo "$dir/src"
}

prepare_postgres() {
  local dir=$cache/postgres
  fetch_source postgresql-15 "$dir"
  [ -f "$dir/version" ] || head -1 "$dir/src/debian/changelog" | sed 's/.*(\(.*\)).*/\1/' > "$dir/version"
  echo "$dir/src"
}

prepare_cppcheck() {
  local dir=$cache/cppcheck
  fetch_source cppcheck "$dir"
  [ -f "$dir/version" ] || head -1 "$dir/src/debian/changelog" | sed 's/.*(\(.*\)).*/\1/' > "$dir/version"
  echo "$dir/src"
}

mkdir -p "$cache"
case "${1:-}" in
  sqlite) prepare_sqlite ;;
  duktape) prepare_duktape ;;
  postgres) prepare_postgres ;;
  cppcheck) prepare_cppcheck ;;
  deb-src) ensure_deb_src ;;
  *) echo "usage: $0 sqlite|duktape|postgres|cppcheck|deb-src" >&2; exit 2 ;;
esac
