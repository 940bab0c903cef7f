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
#
# Prints the directory it prepared.
set -euo pipefail

cache=${MTPC_CACHE:-/var/cache/mtpc}
src_list=/etc/apt/sources.list.d/mtpc-deb-src.sources

# The two LLVM versions' test suites run side by side (scripts/test.sh) and
# fetch the same inputs: one fetch at a time.
mkdir -p "$cache"
exec 9> "$cache/.fetch-inputs.lock"
flock 9

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

# fetch_source PACKAGE UPSTREAM DIR: unpacks bookworm's source package PACKAGE
# into DIR/src. A tree already there is kept only when its upstream version is
# UPSTREAM: an input fetched while apt listed another suite (trixie's cppcheck
# is 2.17) is fetched again, with the builds made from it.
fetch_source() {
  local pkg=$1 upstream=$2 dir=$3
  if [ -d "$dir/src" ]; then
    case $(source_version "$dir/src") in
      $upstream-*|$upstream+*|$upstream) return 0 ;;
    esac
    echo "fetch-inputs: $dir holds $pkg $(source_version "$dir/src"), not $upstream: fetching it again" >&2
    rm -rf "$dir"
  fi
  ensure_deb_src
  local work
  work=$(mktemp -d "$cache/.fetch.XXXXXX")
  (cd "$work" && apt-get source -qq --download-only "$pkg/bookworm" >/dev/null 2>&1 \
     && dpkg-source --no-check -x ./*.dsc src >/dev/null) ||
    { rm -rf "$work"; echo "fetch-inputs: could not fetch $pkg's source from bookworm's deb-src" >&2; return 1; }
  mkdir -p "$dir"
  mv "$work/src" "$dir/src"
  rm -rf "$work"
}

# source_version DIR: the Debian version of the source tree DIR.
source_version() { head -1 "$1/debian/changelog" | sed 's/.*(\(.*\)).*/\1/'; }

prepare_sqlite() {
  local dir=$cache/sqlite
  fetch_source sqlite3 3.40.1 "$dir"
  if [ -f "$dir/sqlite3.c" ] && [ -f "$dir/shell.c" ] && [ -f "$dir/speedtest1.c" ]; then
    echo "$dir"; return 0
  fi
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
  fetch_source duktape 2.7.0 "$dir"
  echo "$dir/src"
}

prepare_postgres() {
  local dir=$cache/postgres
  fetch_source postgresql-15 '15.*' "$dir"
  [ -f "$dir/version" ] || source_version "$dir/src" > "$dir/version"
  echo "$dir/src"
}

prepare_cppcheck() {
  local dir=$cache/cppcheck
  fetch_source cppcheck 2.10 "$dir"
  [ -f "$dir/version" ] || source_version "$dir/src" > "$dir/version"
  echo "$dir/src"
}

mkdir -p "$cache"
case "${1:-}" in
  sqlite) prepare_sqlite ;;
  duktape) prepare_duktape ;;
  postgres) prepare_postgres ;;
  cppcheck) prepare_cppcheck ;;
  *) echo "usage: $0 sqlite|duktape|postgres|cppcheck" >&2; exit 2 ;;
esac
