#!/usr/bin/env bash
# The split's work in instructions: the serial compile (--partitions 1 -j1)
# and the split at -j1, each run once under callgrind, which counts the
# instructions a process executes whatever else the machine does (the two
# run at once, one per core, without moving each other's count). Where CPU
# seconds on this machine spread by more than the margin to a target from
# run to run, the instruction ratio says whether the split does more work
# than the serial compile; the functions whose count grew most say where.
# (Instructions are not seconds: cache misses and contention are in the
# CPU account's -j2 runs, bench/cpu-account.sh.)
#
#   bench/work-instructions.sh [--module cppcheck|sqlite|postgres|FILE.bc] [--top N] [--llvm 19|22]
#                              [--report-only]  (the report of the last run's profiles)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=1 jobs=1 size=0 module=sqlite top=25 report_only=0
. "$root/bench/common.sh"
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --top) top=$2; shift 2 ;;
    --report-only) report_only=1; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
bench_module_options "${args[@]+"${args[@]}"}"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
command -v valgrind > /dev/null || { echo "$0: needs valgrind" >&2; exit 1; }
bc=$(bench_bitcode "$module")
work=${MTPC_BENCH_DIR:-$build/bench-work-instructions/$(basename "$bc" .bc)}
mkdir -p "$work" && cd "$work"

count() { # NAME ARGS...: one compile under callgrind, its profile in NAME.callgrind
  local name=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$name.callgrind" \
    "$mtpc" compile "$bc" -o "$name.o" "$@" > /dev/null 2> "$name.valgrind"
}
if [ "$report_only" = 0 ]; then
  count serial --partitions 1 -j1 &
  count split -j1 --stats &
  wait
fi
cmp -s serial.o split.o && echo "$0: the split made the serial object; nothing was split" >&2
partitions=$(sed -nE 's/^mtpc stats: ([0-9]+) partitions?.*/\1/p' split.valgrind)
total() { sed -nE 's/.*Collected : ([0-9]+).*/\1/p' "$1.valgrind"; }
serial=$(total serial) split=$(total split)

# by_function NAME yes|no: "instructions<TAB>function" for each function,
# its inclusive or own (self) count; the source file callgrind puts before
# a name is left out, so that two builds' profiles compare. A function
# whose code callgrind puts under several files (inlined from headers) has
# the sum of their own counts, and the largest of their inclusive ones
# (one of them may call the other).
by_function() {
  callgrind_annotate --inclusive="$2" --threshold=100 --auto=no "$1.callgrind" 2>/dev/null |
    awk -v inclusive="$([ "$2" = yes ] && echo 1 || echo 0)" '/file:function/ {table = 1; getline; next}
         table && /^$/ {exit}
         table {n = $1; gsub(/,/, "", n); n += 0; $1 = ""; sub(/^ +\([ 0-9.]+%\) +/, "");
                sub(/ \[[^]]*\]$/, ""); sub(/^[^:( ]+:/, "");
                c[$0] = inclusive ? (n > c[$0] ? n : c[$0]) : c[$0] + n}
         END {for (f in c) printf "%.0f\t%s\n", c[f], f}' |
    sort -t $'\t' -k2,2
}
# differences KIND: KIND.differences, each function's KIND (yes: inclusive,
# no: own) count, split less serial, sorted from the largest growth.
# Inclusive counts of more than a tenth of the serial compile are the
# drivers around everything (main, the pass managers) and left out.
differences() {
  by_function serial "$1" > "serial-$1.functions"
  by_function split "$1" > "split-$1.functions"
  join -t $'\t' -1 2 -2 2 -a 1 -a 2 -e 0 -o 0,1.1,2.1 "serial-$1.functions" "split-$1.functions" |
    awk -F '\t' -v base="$serial" -v kind="$1" '
      kind == "yes" && ($2 > base / 10 || $3 > base / 10) {next}
      {d = $3 - $2; printf "%.0f\t%+.3f%%\t%s\n", d, 100 * d / base, $1}' |
    sort -t $'\t' -k1,1 -g -r > "$1.differences"
}
# show: the lines it reads, as a table.
show() {
  awk -F '\t' '{f = $3; if (length(f) > 110) f = substr(f, 1, 107) "...";
                printf "  %14s %9s  %s\n", $1, $2, f}'
}
differences yes
differences no

echo "Work of $(basename "$bc") ($(du -h "$bc" | cut -f1)) in instructions (callgrind, one run each): the serial compile against the split at -j1 ($partitions partitions)"
printf '  %-20s %18s\n' serial "$serial" "split -j1" "$split"
printf '  %-20s %18s   (%+.2f%% of the serial compile)\n' "split / serial" "$(ratio "$split" "$serial")" \
  "$(awk -v a="$split" -v b="$serial" 'BEGIN {print 100 * (a - b) / b}')"
echo "  the $top functions whose instructions, callees included, grew most (split less serial, share of the serial compile):"
head -n "$top" yes.differences | show
echo "  the $top whose own instructions grew most:"
head -n "$top" no.differences | show
echo "  and the $top whose own instructions fell most:"
tail -n "$top" no.differences | tac | show
