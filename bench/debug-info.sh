#!/usr/bin/env bash
# Debug-info growth: sqlite3.c built with -O2 -g, its ThinLTO backend run
# unsplit (--partitions 1) and split (default plan), the .debug_* sections of
# the two objects compared section by section. Prints split / unsplit ratios
# and the struct and union definitions in each (the same types must be
# described; the split may describe a few twice).
#
#   bench/debug-info.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
. "$root/bench/common.sh"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
bench_enter debug-info
[ -f sqlite3-g.bc ] || clang-19 -O2 -g -flto=thin -c "$src/sqlite3.c" -o sqlite3-g.bc
"$mtpc" compile sqlite3-g.bc -o unsplit.o --partitions 1 -j2
"$mtpc" compile sqlite3-g.bc -o split.o -j2
partitions=$("$mtpc" plan sqlite3-g.bc | sed -n 's/^partitions: //p')

debug_sizes() { llvm-size-19 -A "$1" | awk '$1 ~ /^\.debug_/ {print $1, $2}' | sort; }
# Names of struct and union DIEs that are definitions (not declarations).
definitions() {
  llvm-dwarfdump-19 --debug-info "$1" | awk '
    /DW_TAG_(structure|union)_type/ {open = 1; name = ""; decl = 0; next}
    open && /DW_AT_name/ {name = $2}
    open && /DW_AT_declaration/ {decl = 1}
    open && /^$/ {if (name != "" && !decl) print name; open = 0}' | sort
}

echo "sqlite3.c -O2 -g, $partitions partitions: debug sections, split / unsplit"
join <(debug_sizes unsplit.o) <(debug_sizes split.o) | awk '
  {a += $2; b += $3; printf "  %-20s %9d %9d  %.2f\n", $1, $2, $3, $3 / $2}
  END {printf "  %-20s %9d %9d  %.3f (target <= 1.10)\n", "all .debug_*", a, b, b / a}'
definitions unsplit.o > unsplit.types
definitions split.o > split.types
echo "  struct/union definitions: unsplit $(wc -l < unsplit.types)," \
  "split $(wc -l < split.types) ($(uniq split.types | wc -l) distinct)"
if ! cmp -s <(uniq unsplit.types) <(uniq split.types); then
  echo "  types described unsplit but not split (or the reverse):"
  comm -3 <(uniq unsplit.types) <(uniq split.types)
  exit 1
fi
if llvm-dwarfdump-19 --verify --quiet split.o; then
  echo "  llvm-dwarfdump --verify: clean"
else
  echo "  llvm-dwarfdump --verify: ERRORS"
  exit 1
fi
