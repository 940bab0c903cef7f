#!/usr/bin/env bash
# PostgreSQL's own regression tests (make check) for a server binary, run
# in a copy of a tree scripts/build-postgres.sh built, as `nobody` (initdb
# refuses root). The paths configure recorded follow the copy, with their
# files' times kept, so make rebuilds nothing.
#
#   scripts/postgres-check.sh PG_DIR WORK_DIR [SERVER]   -> WORK_DIR/check.log
# SERVER: the postgres binary to test (default: the tree's own, stock).
# Exits 0 whatever the tests say; the log tells.
set -euo pipefail
pg=$1 work=$2 server=${3:-}
grep -qx "abs_top_builddir = $pg/build" "$pg/build/src/Makefile.global" ||
  { echo "postgres-check: error: $pg/build was not configured there" >&2; exit 1; }
rm -rf "$work/tree" && mkdir -p "$work"
cp -a "$pg/build" "$work/tree"
grep -rlI --exclude='*.o' --exclude='*.log' "$pg/build" "$work/tree" | while read -r f; do
  sed -i "s|$pg/build|$work/tree|g" "$f" && touch -r "$pg/build/${f#"$work"/tree/}" "$f"
done
if [ -n "$server" ]; then
  cp "$server" "$work/tree/src/backend/postgres"
fi
chown -R nobody:nogroup "$work/tree"
setpriv --reuid=nobody --regid=nogroup --clear-groups -- \
  env HOME=/tmp make -s -C "$work/tree" check > "$work/check.log" 2>&1 || true
rm -rf "$work/tree"
