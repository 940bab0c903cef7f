#!/usr/bin/env bash
# `clang-19 -O2 -c sqlite3.c` against `mtpc cc -j2 clang-19 -O2 -c sqlite3.c`,
# side by side in one run (alternating; each figure the median of --runs
# runs), and beside them the other place to cut clang's pipeline: its ThinLTO
# pre-link pipeline (-flto=thin -c) then `mtpc compile -j2` of that module.
# Then a full CMake build of tests/e2e/cc (SQLite's shell and speedtest1,
# Duktape's command line), stock against the launcher, each with make -j2,
# and what a compile the launcher passes through pays (hyperfine).
# With a distribution's hardening flags (Ubuntu's defaults:
# -fstack-protector-strong -fstack-clash-protection -fcf-protection
# -D_FORTIFY_SOURCE=2 -g), the same comparison of sqlite3.c.
# For MinGW (x86_64-w64-mingw32, COFF, -g), whose partitions mtpc merges
# into one COFF object itself, the same comparison of sqlite3.c, with DWARF
# and with CodeView (-gcodeview: one type stream made of the partitions').
# Prints ratios against the targets.
#
#   bench/cc.sh [--runs N] [--jobs J] [--speedtest-size S]
# Needs valgrind (for the instruction count).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3 jobs=2 size=100
. "$root/bench/common.sh"
bench_options "$@"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
bench_enter cc
duktape=$("$root/scripts/fetch-inputs.sh" duktape)
cflags="-O2 -DSQLITE_THREADSAFE=0 -I$src"
[ -f speedtest1.o ] || clang-19 -O2 -c "$src/speedtest1.c" -I"$src" -o speedtest1.o

prelink_then_split() {
  clang-19 $cflags -flto=thin -c "$src/sqlite3.c" -o prelink.bc
  "$mtpc" compile prelink.bc -o prelink.o -j"$jobs"
}

hardened="$cflags -g -fstack-protector-strong -fstack-clash-protection -fcf-protection -D_FORTIFY_SOURCE=2 -Wformat -Werror=format-security"
mingw="--target=x86_64-w64-mingw32 $cflags -g"
rm -f stock.stats mtpc.stats prelink.stats stock-hard.stats mtpc-hard.stats stock-mingw.stats \
  mtpc-mingw.stats stock-cv.stats mtpc-cv.stats
for i in $(seq "$runs"); do
  measure stock clang-19 $cflags -c "$src/sqlite3.c" -o stock.o
  measure mtpc "$mtpc" cc -j"$jobs" clang-19 $cflags -c "$src/sqlite3.c" -o mtpc.o
  bench_time prelink prelink_then_split
  measure stock-hard clang-19 $hardened -c "$src/sqlite3.c" -o stock-hard.o
  measure mtpc-hard "$mtpc" cc -j"$jobs" clang-19 $hardened -c "$src/sqlite3.c" -o mtpc-hard.o
  measure stock-mingw clang-19 $mingw -c "$src/sqlite3.c" -o stock-mingw.o
  measure mtpc-mingw "$mtpc" cc -j"$jobs" clang-19 $mingw -c "$src/sqlite3.c" -o mtpc-mingw.o
  measure stock-cv clang-19 $mingw -gcodeview -c "$src/sqlite3.c" -o stock-cv.o
  measure mtpc-cv "$mtpc" cc -j"$jobs" clang-19 $mingw -gcodeview -c "$src/sqlite3.c" -o mtpc-cv.o
done
# sqlite3.c's own defaults (threads on), once: the .text and what the split
# leaves that nothing references (docs/design.rst, Dead promoted definitions).
clang-19 -O2 -I"$src" -c "$src/sqlite3.c" -o stock-default.o
"$mtpc" cc -j"$jobs" clang-19 -O2 -I"$src" -c "$src/sqlite3.c" -o mtpc-default.o
partitions=$(MTPC_CC_VERBOSE=1 "$mtpc" cc -j"$jobs" clang-19 $cflags -c "$src/sqlite3.c" -o mtpc.o 2>&1 |
  sed -nE 's/.*split into ([0-9]+) partitions.*/\1/p')

for v in stock mtpc prelink; do
  clang-19 -fuse-ld=lld speedtest1.o $v.o -o speedtest1-$v -lm
done
speedtest_runs "$size" $((2 * runs + 1)) stock mtpc
declare -A insns
for v in stock mtpc prelink; do insns[$v]=$(instructions ./speedtest1-$v --size 10); done

wall_s=$(col stock 1) wall_m=$(col mtpc 1) wall_p=$(col prelink 1)
cpu_s=$(col stock 2) cpu_m=$(col mtpc 2) cpu_p=$(col prelink 2)
rss_s=$(col stock 3) rss_m=$(col mtpc 3)
text_s=$(text_size stock.o) text_m=$(text_size mtpc.o) text_p=$(text_size prelink.o)
run_s=$(median < stock.run) run_m=$(median < mtpc.run)

echo "sqlite3.c -O2 -c: clang-19 against mtpc cc -j$jobs ($partitions partitions), median of $runs runs"
echo "speedtest1: --size $size for CPU time, --size 10 under callgrind for instructions"
printf '  %-22s %10s %10s %8s   %s\n' figure clang "mtpc cc" ratio target
printf '  %-22s %10s %10s %8s   %s\n' "wall (s)" "$wall_s" "$wall_m" "$(ratio "$wall_m" "$wall_s")" "<= 0.65"
printf '  %-22s %10s %10s %8s\n' "cpu (s)" "$cpu_s" "$cpu_m" "$(ratio "$cpu_m" "$cpu_s")"
printf '  %-22s %10s %10s %8s\n' "peak rss (KiB)" "$rss_s" "$rss_m" "$(ratio "$rss_m" "$rss_s")"
printf '  %-22s %10s %10s %8s   %s\n' ".text (bytes)" "$text_s" "$text_m" "$(ratio "$text_m" "$text_s")" "0.98 .. 1.02"
printf '  %-22s %10s %10s %8s\n' "speedtest1 cpu (s)" "$run_s" "$run_m" "$(ratio "$run_m" "$run_s")"
printf '  %-22s %10s %10s %8s   %s\n' "speedtest1 insns (M)" "$((insns[stock] / 1000000))" \
  "$((insns[mtpc] / 1000000))" "$(ratio "${insns[mtpc]}" "${insns[stock]}")" "0.995 .. 1.005"
endbr() { llvm-objdump-19 -d "$1" | grep -c endbr64; }
# unreferenced_functions SERIAL SPLIT: "count bytes" of SPLIT's functions that
# SERIAL does not define and no relocation of SPLIT names.
unreferenced_functions() {
  python3 - "$1" "$2" <<'PY'
import subprocess, sys
def functions(obj):
    out = subprocess.run(["llvm-nm-19", "-S", obj], capture_output=True, text=True, check=True)
    fields = (line.split() for line in out.stdout.splitlines())
    return {f[3]: int(f[1], 16) for f in fields if len(f) == 4 and f[2] in "tT"}
relocs = subprocess.run(["llvm-objdump-19", "-r", sys.argv[2]], capture_output=True, text=True,
                        check=True).stdout.splitlines()
named = {l.split()[2].split("+")[0].split("-")[0] for l in relocs if len(l.split()) == 3}
serial = functions(sys.argv[1])
dead = [size for name, size in functions(sys.argv[2]).items()
        if name not in serial and name not in named]
print(len(dead), sum(dead))
PY
}
echo "with sqlite3.c's default flags (threads on), one compile each:"
printf '  %-22s %10s %10s %8s   %s\n' ".text (bytes)" "$(text_size stock-default.o)" \
  "$(text_size mtpc-default.o)" "$(ratio "$(text_size mtpc-default.o)" "$(text_size stock-default.o)")" \
  "0.98 .. 1.02"
read -r dead_count dead_bytes < <(unreferenced_functions stock-default.o mtpc-default.o)
printf '  %-22s %10s %10s\n' "dead functions" 0 "$dead_count ($dead_bytes bytes)"
echo "with Ubuntu's hardening flags (-g, stack protector and clash protection, cf-protection, fortify):"
printf '  %-22s %10s %10s %8s   %s\n' "wall (s)" "$(col stock-hard 1)" "$(col mtpc-hard 1)" \
  "$(ratio "$(col mtpc-hard 1)" "$(col stock-hard 1)")" "<= 0.65"
printf '  %-22s %10s %10s %8s   %s\n' ".text (bytes)" "$(text_size stock-hard.o)" \
  "$(text_size mtpc-hard.o)" "$(ratio "$(text_size mtpc-hard.o)" "$(text_size stock-hard.o)")" "0.99 .. 1.01"
printf '  %-22s %10s %10s\n' "endbr64 landing pads" "$(endbr stock-hard.o)" "$(endbr mtpc-hard.o)"
echo "for MinGW (COFF, -g; one object merged by mtpc):"
printf '  %-22s %10s %10s %8s   %s\n' "wall (s)" "$(col stock-mingw 1)" "$(col mtpc-mingw 1)" \
  "$(ratio "$(col mtpc-mingw 1)" "$(col stock-mingw 1)")" "<= 0.65"
printf '  %-22s %10s %10s %8s\n' "cpu (s)" "$(col stock-mingw 2)" "$(col mtpc-mingw 2)" \
  "$(ratio "$(col mtpc-mingw 2)" "$(col stock-mingw 2)")"
printf '  %-22s %10s %10s %8s   %s\n' ".text (bytes)" "$(text_size stock-mingw.o)" \
  "$(text_size mtpc-mingw.o)" "$(ratio "$(text_size mtpc-mingw.o)" "$(text_size stock-mingw.o)")" \
  "0.98 .. 1.02"
cv_size() { llvm-size-19 -A "$1" | awk '$1 ~ /^\.debug\$[ST]$/ { n += $2 } END { print n }'; }
echo "for MinGW with CodeView (-g -gcodeview; the partitions' type streams merged into one):"
printf '  %-22s %10s %10s %8s   %s\n' "wall (s)" "$(col stock-cv 1)" "$(col mtpc-cv 1)" \
  "$(ratio "$(col mtpc-cv 1)" "$(col stock-cv 1)")" "<= 0.65"
printf '  %-22s %10s %10s %8s\n' "cpu (s)" "$(col stock-cv 2)" "$(col mtpc-cv 2)" \
  "$(ratio "$(col mtpc-cv 2)" "$(col stock-cv 2)")"
printf '  %-22s %10s %10s %8s\n' ".debug\$S+T (bytes)" "$(cv_size stock-cv.o)" "$(cv_size mtpc-cv.o)" \
  "$(ratio "$(cv_size mtpc-cv.o)" "$(cv_size stock-cv.o)")"
echo "where to cut clang's pipeline (ratios to clang -c):"
printf '  %-34s %8s %8s %8s %8s\n' cut wall cpu .text insns
printf '  %-34s %8s %8s %8s %8s\n' "after the front end (mtpc cc)" "$(ratio "$wall_m" "$wall_s")" \
  "$(ratio "$cpu_m" "$cpu_s")" "$(ratio "$text_m" "$text_s")" "$(ratio "${insns[mtpc]}" "${insns[stock]}")"
printf '  %-34s %8s %8s %8s %8s\n' "after ThinLTO pre-link, mtpc -j$jobs" "$(ratio "$wall_p" "$wall_s")" \
  "$(ratio "$cpu_p" "$cpu_s")" "$(ratio "$text_p" "$text_s")" "$(ratio "${insns[prelink]}" "${insns[stock]}")"

# A full build, stock against the launcher, each with make -j2.
configure() {
  rm -rf "$1"
  cmake -S "$root/tests/e2e/cc" -B "$1" -G "Unix Makefiles" -DCMAKE_C_COMPILER=clang-19 \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DSQLITE_DIR="$src" \
    -DDUKTAPE_DIR="$duktape" "${@:2}" > /dev/null
}
configure build-stock
configure build-mtpc "-DCMAKE_C_COMPILER_LAUNCHER=$build/bin/mtpc-cc"
full_build() { make -s -C "$1" clean && make -s -C "$1" -j2 > /dev/null; }
rm -f build-stock.stats build-mtpc.stats
for i in $(seq "$runs"); do
  bench_time build-stock full_build build-stock
  bench_time build-mtpc full_build build-mtpc
done
b_s=$(col build-stock 1) b_m=$(col build-mtpc 1)
echo "CMake build of tests/e2e/cc, make -j2, median of $runs runs:"
printf '  %-22s %10s %10s %8s\n' "wall (s)" "$b_s" "$b_m" "$(ratio "$b_m" "$b_s")"
printf '  %-22s %10s %10s %8s\n' "cpu (s)" "$(col build-stock 2)" "$(col build-mtpc 2)" \
  "$(ratio "$(col build-mtpc 2)" "$(col build-stock 2)")"

# What a compile that passes through pays: clang-19 -O2 -c speedtest1.c
# (88 KB, under --min-source-size) alone and through mtpc-cc.
hyperfine -N -w 3 -r 20 --export-json passthrough.json \
  "clang-19 -O2 -c $src/speedtest1.c -I$src -o pass-direct.o" \
  "$build/bin/mtpc-cc clang-19 -O2 -c $src/speedtest1.c -I$src -o pass-launcher.o" > /dev/null
read -r pass_d pass_l < <(python3 -c 'import json,sys; r=json.load(open("passthrough.json"))["results"]; print(r[0]["median"], r[1]["median"])')
echo "a compile passed through (speedtest1.c), median of 20:"
printf '  %-22s %10.3f %10.3f %8s\n' "wall (s)" "$pass_d" "$pass_l" "$(ratio "$pass_l" "$pass_d")"
