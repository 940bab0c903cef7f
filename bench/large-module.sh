#!/usr/bin/env bash
# A large module compiled unsplit (--partitions 1 -j1, as a stock backend)
# against `mtpc compile -j2`, side by side (alternating; each figure the
# median of --runs runs): PostgreSQL 15's server as one module
# (scripts/build-postgres.sh; C, ten times sqlite3.c), or cppcheck 2.10's
# library (scripts/build-cppcheck.sh; C++ with -g, 50 MB of bitcode). Prints
# the wall, CPU and peak RSS ratios (of the medians, and each alternating
# pair's with their median), each serial phase as a share of the
# unsplit time, how far the slowest partition's share of the time exceeds
# its share of the cost, and the --stats projections at 16 and 64 cores
# beside the cap that the heaviest partition (the largest function, where it
# is alone) puts on any number of cores.
#
# For cppcheck also what the split does to the program: its debug info
# against the unsplit object's (llvm-dwarfdump --statistics: call sites,
# location coverage; .debug_* bytes; every type the unsplit object defines),
# .text, the instructions cppcheck runs on two of its own sources
# (callgrind), and the global and weak symbols.
#
#   bench/large-module.sh [--module postgres|cppcheck] [--runs N] [--jobs J]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=1 jobs=2 size=0 module=postgres
. "$root/bench/common.sh"
bench_module_options "$@"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
case $module in
  postgres)
    dir=$("$root/scripts/build-postgres.sh")
    bc=$dir/postgres.bc label="PostgreSQL 15 server" ;;
  cppcheck)
    dir=$("$root/scripts/build-cppcheck.sh")
    bc=$dir/cppcheck.bc label="cppcheck 2.10 library (C++, -g)" ;;
  *) echo "usage: $0 [--module postgres|cppcheck] [--runs N] [--jobs J]" >&2; exit 2 ;;
esac
work=${MTPC_BENCH_DIR:-$build/bench-large-$module}
mkdir -p "$work" && cd "$work"

rm -f unsplit.stats split.stats
for i in $(seq "$runs"); do
  measure unsplit "$mtpc" compile "$bc" -o unsplit.o --partitions 1 -j1
  measure split sh -c '"$0" compile "$1" -o split.o -j"$2" --stats 2> split-stats.txt' \
    "$mtpc" "$bc" "$jobs"
done

wall_u=$(col unsplit 1) wall_s=$(col split 1)
cpu_u=$(col unsplit 2) cpu_s=$(col split 2)
rss_u=$(col unsplit 3) rss_s=$(col split 3)
partitions=$(sed -nE 's/^mtpc stats: ([0-9]+) partitions.*/\1/p' split-stats.txt)
read -r read_s plan_s bitcode_s merge_s < <(sed -nE \
  's/.*serial: read ([0-9.]+)s, plan ([0-9.]+)s, bitcode ([0-9.]+)s, merge ([0-9.]+)s.*/\1 \2 \3 \4/p' split-stats.txt)
# Per partition: cost and load + opt + codegen + free seconds; the largest
# ratio of a partition's share of the time to its share of the cost, and the
# speedup no number of cores passes: serial + all partitions over serial +
# the slowest partition.
read -r skew cap < <(awk -v serial="$read_s + $plan_s + $bitcode_s + $merge_s" '
  BEGIN {split(serial, s, " \\+ "); for (i in s) ser += s[i]}
  $1 ~ /^[0-9]+$/ && NF == 10 {c[$1] = $2; t[$1] = $5 + $6 + $7 + $8; sc += $2; st += t[$1];
                               if (t[$1] > slowest) {slowest = t[$1]}}
  END {for (p in c) if (c[p] > 0) {r = (t[p] / st) / (c[p] / sc); if (r > m) {m = r; w = p}}
       printf "%.2f(partition_%s:_%.1f%%_of_the_time,_%.1f%%_of_the_cost) %.2f\n",
              m, w, 100 * t[w] / st, 100 * c[w] / sc, (ser + st) / (ser + slowest)}' split-stats.txt)
proj16=$(sed -nE 's/.*16 cores ([0-9.]+)x.*/\1/p' split-stats.txt)
proj64=$(sed -nE 's/.*64 cores ([0-9.]+)x.*/\1/p' split-stats.txt)
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f%%", 100 * a / b}'; }

echo "$label, one module ($(du -h "$bc" | cut -f1) of bitcode): unsplit -j1 vs mtpc -j$jobs ($partitions partitions), median of $runs runs"
printf '  %-24s %10s %10s %8s   %s\n' figure unsplit split ratio target
printf '  %-24s %10s %10s %8s   %s\n' "wall (s)" "$wall_u" "$wall_s" "$(ratio "$wall_s" "$wall_u")" "<= 0.55"
printf '  %-24s %10s %10s %8s   %s\n' "cpu (s)" "$cpu_u" "$cpu_s" "$(ratio "$cpu_s" "$cpu_u")" "<= 1.10"
printf '  %-24s %10s %10s %8s   %s\n' "peak rss (KiB)" "$rss_u" "$rss_s" "$(ratio "$rss_s" "$rss_u")" "<= 1.30"
echo "  per pair (unsplit, then split): wall $(pair_ratios unsplit split 1); cpu $(pair_ratios unsplit split 2)"
echo "serial phases of the split compile, share of the unsplit wall time (target: <= 3% together):"
printf '  read %s, plan %s, bitcode %s, merge %s; together %s\n' "$(pct "$read_s" "$wall_u")" \
  "$(pct "$plan_s" "$wall_u")" "$(pct "$bitcode_s" "$wall_u")" "$(pct "$merge_s" "$wall_u")" \
  "$(pct "$(awk -v a="$read_s" -v b="$plan_s" -v c="$bitcode_s" -v d="$merge_s" 'BEGIN {print a + b + c + d}')" "$wall_u")"
echo "slowest partition for its cost (time share / cost share; target <= 1.5): ${skew//_/ }"
echo "projected speedup (--stats): 16 cores ${proj16}x (target >= 10), 64 cores ${proj64}x (target >= 20);" \
  "cap of the slowest partition on any number of cores ${cap}x"

[ "$module" = cppcheck ] || exit 0

# What the split does to the program, once (these figures are repeatable).
here=$root/tests
debug_bytes() { llvm-size-19 -A "$1" | awk '$1 ~ /^\.debug_/ {s += $2} END {print s}'; }
llvm-dwarfdump-19 --statistics unsplit.o > unsplit.json
llvm-dwarfdump-19 --statistics split.o > split.json
echo "debug info, split against unsplit (llvm-dwarfdump --statistics):"
python3 "$here/debug-stats.py" unsplit.json split.json "$(debug_bytes unsplit.o)" "$(debug_bytes split.o)" |
  sed 's/^/  /' || true
LLVM_DWARFDUMP=llvm-dwarfdump-19 "$here/debug-types.sh" unsplit.o > unsplit.types
LLVM_DWARFDUMP=llvm-dwarfdump-19 "$here/debug-types.sh" split.o > split.types
echo "  types defined: unsplit $(wc -l < unsplit.types), split $(wc -l < split.types)," \
  "of the unsplit's missing in the split: $(comm -23 unsplit.types split.types | wc -l)"
printf '  %-24s %10s %10s %8s   %s\n' ".text (bytes)" "$(text_size unsplit.o)" "$(text_size split.o)" \
  "$(ratio "$(text_size split.o)" "$(text_size unsplit.o)")" "0.98 .. 1.02"
LLVM_NM=llvm-nm-19 "$here/global-symbols.sh" unsplit.o > unsplit.syms
LLVM_NM=llvm-nm-19 "$here/global-symbols.sh" split.o > split.syms
echo "  global and weak symbols: unsplit $(wc -l < unsplit.syms), split $(wc -l < split.syms)," \
  "differing $(comm -3 unsplit.syms split.syms | wc -l) (target 0)"
# cppcheck finds its cfg/ beside itself; valgrind 3.19 cannot read this
# DWARF 5, so the programs are counted without it.
ln -sfn "$dir/tree/cfg" cfg
for v in unsplit split; do
  clang++-19 -fuse-ld=lld "$v.o" "$dir/main.o" -pthread -o "cppcheck-$v"
  llvm-strip-19 --strip-debug "cppcheck-$v"
done
for input in lib/path.cpp cli/filelister.cpp; do
  a=$(instructions ./cppcheck-unsplit -q --enable=all "$dir/tree/$input")
  b=$(instructions ./cppcheck-split -q --enable=all "$dir/tree/$input")
  printf '  %-24s %14s %14s %8s   %s\n' "instructions, $input" "$a" "$b" "$(ratio "$b" "$a")" "<= 1.01"
done
