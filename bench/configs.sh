#!/usr/bin/env bash
# The SQLite shell's ThinLTO link (shell.c + sqlite3.c) in the configurations
# production builds use: Debian's stock ld.lld-19 --thinlto-jobs=J against the
# patched ld.lld --thinlto-jobs=J --thinlto-mtpc-jobs=J, side by side,
# alternating, medians, in each of
#   plain, g (-g), split-dwarf (-g -gsplit-dwarf), ir-pgo, sample-pgo,
#   cspgo-use.
# Then the debug statistics of the -g links (call-site DIEs, location
# coverage, .debug_* bytes; tests/debug-stats.py) and the .dwo and .dwp bytes
# of the -gsplit-dwarf links.
#
# Profiles come from running the shell on tests/e2e/sqlite-queries.sql: IR
# PGO from an instrumented build; the sample profile is written from an
# instrumented run (this machine has no LBR: tests/e2e/make-sample-profile.py);
# each way's CS profile from its own --lto-cs-profile-generate link.
#
#   bench/configs.sh [--runs N] [--jobs J] [--llvm 19|22]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3 jobs=2 size=0 # size: unused (bench_options takes it)
. "$root/bench/common.sh"
bench_options "$@"
lld=$build/bin/ld.lld
dwo=_dwo; [ "$version" -lt 21 ] || dwo=-dwo # clang -gsplit-dwarf's .dwo directory
stock=/usr/lib/llvm-$version/bin/ld.lld
bench_need "$lld" "build ld.lld first (lld-patches/build-lld.sh)"
bench_enter configs
queries=$root/tests/e2e/sqlite-queries.sql

compile() { # compile SUFFIX FLAGS...: shell$SUFFIX.o and sqlite3$SUFFIX.o
  local suffix=$1 f
  shift
  for f in sqlite3 shell; do
    [ -f "$f$suffix.o" ] || clang-$version -O2 -flto=thin "$@" -I"$src" -c "$src/$f.c" -o "$f$suffix.o" &
  done
  wait
}
link() { # link LD OUTPUT SUFFIX FLAGS...
  local ld=$1 out=$2 suffix=$3
  shift 3
  clang-$version -flto=thin -fuse-ld=lld --ld-path="$ld" "shell$suffix.o" "sqlite3$suffix.o" -o "$out" \
    -Wl,--thinlto-jobs="$jobs" "$@" -lm -lpthread -ldl
}
train() { "./$1" :memory: < "$queries" > /dev/null 2>&1; }
mtpc="-Wl,--thinlto-mtpc-jobs=$jobs"

echo "preparing objects and profiles in $work" >&2
compile "" && compile -g -g
compile -gen -fprofile-generate="$work/ir-raw"
if [ ! -f ir.profdata ]; then
  link "$stock" shell-gen -gen -fprofile-generate && train shell-gen
  llvm-profdata-$version merge ir-raw/*.profraw -o ir.profdata
fi
compile -ir -fprofile-use="$work/ir.profdata"
if [ ! -f sample.prof ]; then
  clang-$version -O0 -g -fprofile-instr-generate -fcoverage-mapping -I"$src" "$src/shell.c" \
    "$src/sqlite3.c" -o shell-coverage -lm -lpthread -ldl
  LLVM_PROFILE_FILE=coverage.profraw ./shell-coverage :memory: < "$queries" > /dev/null 2>&1
  llvm-profdata-$version merge coverage.profraw -o coverage.profdata
  llvm-cov-$version export -format=lcov -instr-profile coverage.profdata shell-coverage > coverage.lcov
  llvm-dwarfdump-$version --debug-info shell-coverage > coverage.dwarf
  "$root/tests/e2e/make-sample-profile.py" coverage.dwarf coverage.lcov > sample.prof
fi
sample="-fprofile-sample-use=$work/sample.prof"
compile -sample -gline-tables-only -fdebug-info-for-profiling "$sample"
compile -csgen -fprofile-use="$work/ir.profdata" -fcs-profile-generate="$work/cs-raw"
for way in stock mtpc; do
  [ -f cs-$way.profdata ] && continue
  rm -rf cs-raw
  if [ $way = stock ]; then link "$stock" cs-gen-$way -csgen -fcs-profile-generate
  else link "$lld" cs-gen-$way -csgen -fcs-profile-generate $mtpc; fi
  train cs-gen-$way
  llvm-profdata-$version merge ir.profdata cs-raw/*.profraw -o cs-$way.profdata
done

# name  object suffix  flags of both links (@ stands for each way's CS profile)
configs=(
  "plain       ''"
  "g           -g"
  "split-dwarf -g -gsplit-dwarf"
  "ir-pgo      -ir"
  "sample-pgo  -sample $sample"
  "cspgo-use   -ir -Wl,--lto-cs-profile-file=@"
)
for c in "${configs[@]}"; do
  read -r name suffix flags <<< "$c"
  [ "$suffix" = "''" ] && suffix=""
  rm -rf "$name-stock.stats" "$name-mtpc.stats" "$name"-*$dwo
  for _ in $(seq "$runs"); do
    rm -rf "$name-stock$dwo" "$name-mtpc$dwo"
    bench_time "$name-stock" link "$stock" "$name-stock" "$suffix" ${flags//@/cs-stock.profdata}
    bench_time "$name-mtpc" link "$lld" "$name-mtpc" "$suffix" ${flags//@/cs-mtpc.profdata} $mtpc
  done
  cmp -s <("./$name-stock" :memory: < "$queries" 2>&1) <("./$name-mtpc" :memory: < "$queries" 2>&1) ||
    { echo "$name: the programs' outputs differ" >&2; exit 1; }
done

echo "SQLite shell ThinLTO link: stock ld.lld-$version vs ld.lld --thinlto-mtpc-jobs=$jobs, --thinlto-jobs=$jobs, median of $runs runs"
printf '  %-14s %10s %10s %8s %10s %10s %8s\n' configuration "stock wall" "mtpc wall" ratio \
  "stock cpu" "mtpc cpu" ratio
for c in "${configs[@]}"; do
  read -r name _ <<< "$c"
  ws=$(col "$name-stock" 1) wm=$(col "$name-mtpc" 1) cs=$(col "$name-stock" 2) cm=$(col "$name-mtpc" 2)
  printf '  %-14s %10s %10s %8s %10s %10s %8s\n' "$name" "$ws" "$wm" "$(ratio "$wm" "$ws")" \
    "$cs" "$cm" "$(ratio "$cm" "$cs")"
done
echo "  (target: wall ratio at most 0.65 in every row)"

debug_bytes() { llvm-size-$version -A "$1" | awk '$1 ~ /^\.debug_/ {s += $2} END {print s}'; }
echo "debug info of the -g links, stock vs mtpc (tests/debug-stats.py):"
llvm-dwarfdump-$version --statistics g-stock > g-stock.json
llvm-dwarfdump-$version --statistics g-mtpc > g-mtpc.json
"$root/tests/debug-stats.py" g-stock.json g-mtpc.json "$(debug_bytes g-stock)" \
  "$(debug_bytes g-mtpc)" | sed 's/^/  /' || true
# Loose .dwo files each keep their own strings; llvm-dwp merges them. Each
# partition's unit keeps its own abbreviations and string offsets, which the
# .dwp does not merge; with the program's skeleton sections (dwp+exe) split
# DWARF costs what -g does.
dwo_bytes() { cat "$1$dwo"/*.dwo | wc -c; }
dwp_bytes() { llvm-dwp-$version -e "$1" -o "$1.dwp" && wc -c < "$1.dwp"; }
dwp+exe_bytes() { echo $(($(wc -c < "$1.dwp") + $(debug_bytes "$1"))); }
for measure in dwo dwp dwp+exe; do
  a=$(${measure}_bytes split-dwarf-stock) b=$(${measure}_bytes split-dwarf-mtpc)
  printf '  %-28s %8s %12s %7s\n' ".$measure bytes (split-dwarf)" "$a" "$b" "$(ratio "$b" "$a")"
done
