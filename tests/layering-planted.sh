#!/usr/bin/env bash
# tests/layering.py must fail on an upward include: a copy of the tree's
# rooms in which partitioner/graph.c includes lto-backend/jobs/worker.h.
#   tests/layering-planted.sh SOURCE_DIR
set -euo pipefail
src=$1
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/docs"
cp "$src/docs/design.rst" "$copy/docs/"
cp -r "$src/include" "$src/support" "$src/partitioner" "$src/lto-backend" "$src/tools" "$copy/"
python3 "$src/tests/layering.py" "$copy" > /dev/null
sed -i '0,/^#include "/s||#include "lto-backend/jobs/worker.h"\n&|' "$copy/partitioner/graph.c"
if python3 "$src/tests/layering.py" "$copy" > "$copy/out"; then
  echo "layering.py passed a tree with an upward include" >&2
  exit 1
fi
grep -q "partitioner/graph.c: includes lto-backend/jobs/worker.h: partitioner may not include lto-backend/jobs" "$copy/out"
# and on a cycle within a room: support.h including files.h, which includes support.h
printf '#include "support/support.h"\n' >> "$copy/support/files.h"
sed -i '0,/^#include/s||#include "files.h"\n&|' "$copy/support/support.h"
cp "$src/partitioner/graph.c" "$copy/partitioner/graph.c"
if python3 "$src/tests/layering.py" "$copy" > "$copy/out"; then
  echo "layering.py passed a tree with an include cycle" >&2
  exit 1
fi
grep -q "include cycle: support/.*support/" "$copy/out"
echo "layering.py fails on a planted upward include and a planted cycle"
