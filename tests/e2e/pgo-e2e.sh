#!/usr/bin/env bash
# Profile-guided builds through the patched ld.lld, every module split
# (threshold 0), against Debian's stock ld.lld-19: speedtest1 three ways.
#  - IR PGO: -fprofile-use at compile time; the plan reads the counts.
#  - Sample PGO (--lto-sample-profile): this machine has no LBR, so the
#    sample profile is written from an instrumented run
#    (make-sample-profile.py: coverage line counts plus each function's
#    declaration line from DWARF).
#  - Context-sensitive PGO: --lto-cs-profile-generate, run, merge,
#    --lto-cs-profile-file. Each way takes the CS profile it gathered.
# The outputs must equal the stock builds', and callgrind instruction counts
# must be within 0.3% of stock's; a split may run fewer (sample PGO does,
# see docs/testing.rst), never more. With full LTO (-flto, --lto-mtpc-jobs):
# CS on top of IR. Then the same profiles through mtpc
# backend (distributed ThinLTO): clang's objects below the threshold, the
# same behavior split.
#
#   tests/e2e/pgo-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
lld=$build/bin/ld.lld
[ -x "$lld" ] || { echo "no $lld: run lld-patches/build-lld.sh" >&2; exit 1; }
src=$("$root/scripts/fetch-inputs.sh" sqlite)
# ThinLTO first; the full LTO part below sets lto and split again.
lto=-flto=thin
cc() { clang-$version -O2 $lto -I"$src" "$@"; }
split="--ld-path=$lld -Wl,--thinlto-mtpc-jobs=2,--thinlto-mtpc-threshold=0"
link() { local out=$1; shift; clang-$version $lto -fuse-ld=lld -Wl,--thinlto-jobs=2 "$@" -o "$out" -lm -lpthread -ldl; }
# compile_pair SUFFIX FLAGS...: sqlite3$SUFFIX.o and speedtest1$SUFFIX.o
compile_pair() {
  local suffix=$1; shift
  cc "$@" -c "$src/sqlite3.c" -o "sqlite3$suffix.o" &
  cc "$@" -c "$src/speedtest1.c" -o "speedtest1$suffix.o"
  wait
}
train() { "./$1" --size 25 > /dev/null; }
# Instructions of a run (debug info stripped: valgrind 3.19 cannot read
# every DWARF 5 form LLVM writes).
instructions() {
  llvm-objcopy-$version --strip-debug "$1" "$1.stripped"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "./$1.stripped" --size 5 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
output() { "./$1" --size 5 2>&1 | sed -E 's/[0-9]+\.[0-9]+s$//'; }
# compare NAME: NAME-stock and NAME-split behave alike and run as fast.
compare() {
  local name=$1
  diff -u <(output "$name-stock") <(output "$name-split")
  local stock split
  stock=$(instructions "$name-stock")
  split=$(instructions "$name-split")
  python3 - "$name" "$stock" "$split" <<'PY'
import sys
name, stock, split = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ratio = split / stock
print(f"{name}: stock {stock} instructions, split {split} ({ratio:.4f}x)")
sys.exit(0 if ratio <= 1.003 else 1)
PY
}

# IR PGO: instrumented run, then -fprofile-use.
compile_pair -gen -fprofile-generate="$work/ir-raw"
link ir-gen sqlite3-gen.o speedtest1-gen.o -fprofile-generate
train ir-gen
llvm-profdata-$version merge ir-raw/*.profraw -o ir.profdata
compile_pair -ir -fprofile-use=ir.profdata
link ir-stock sqlite3-ir.o speedtest1-ir.o
link ir-split sqlite3-ir.o speedtest1-ir.o $split -Wl,--thinlto-mtpc-stats=ir.stats
grep -q "sqlite3-ir.o: [0-9]* partitions" ir.stats
compare ir

# Sample PGO from a profile written from coverage counts.
clang-$version -O0 -g -fprofile-instr-generate -fcoverage-mapping -I"$src" "$src/sqlite3.c" \
  "$src/speedtest1.c" -o coverage -lm -lpthread -ldl
LLVM_PROFILE_FILE=coverage.profraw ./coverage --size 25 > /dev/null
llvm-profdata-$version merge coverage.profraw -o coverage.profdata
llvm-cov-$version export -format=lcov -instr-profile coverage.profdata coverage > coverage.lcov
llvm-dwarfdump-$version --debug-info coverage > coverage.dwarf
"$here/make-sample-profile.py" coverage.dwarf coverage.lcov > sample.prof
llvm-profdata-$version show --sample sample.prof > /dev/null
sample="-fprofile-sample-use=$work/sample.prof"
compile_pair -sample -gline-tables-only -fdebug-info-for-profiling "$sample"
link sample-stock sqlite3-sample.o speedtest1-sample.o "$sample"
link sample-split sqlite3-sample.o speedtest1-sample.o "$sample" $split \
  -Wl,--thinlto-mtpc-stats=sample.stats
grep -q "sqlite3-sample.o: [0-9]* partitions" sample.stats
compare sample

# cs_pgo NAME IR-SUFFIX: context-sensitive PGO on top of the IR profile
# (objects sqlite3IR-SUFFIX.o, ...), each way with its own CS profile,
# NAME-stock and NAME-split compared.
cs_pgo() {
  local name=$1 ir=$2 way extra
  compile_pair "-${name}gen" -fprofile-use=ir.profdata -fcs-profile-generate="$work/$name-raw"
  for way in stock split; do
    extra=""
    [ $way = split ] && extra=$split
    rm -rf "$name-raw"
    link "$name-gen-$way" "sqlite3-${name}gen.o" "speedtest1-${name}gen.o" -fcs-profile-generate $extra
    train "$name-gen-$way"
    llvm-profdata-$version merge ir.profdata "$name-raw"/*.profraw -o "$name-$way.profdata"
    llvm-profdata-$version show --showcs "$name-$way.profdata" | grep "Total functions: [1-9]" >/dev/null
    link "$name-$way" "sqlite3$ir.o" "speedtest1$ir.o" -Wl,--lto-cs-profile-file="$name-$way.profdata" $extra
  done
  compare "$name"
}
cs_pgo cs -ir

# Full LTO (-flto): the IR profile with a CS profile on top (the IR
# profile's own build is the CS builds' objects), the merged module split by
# --lto-mtpc-jobs, against stock full LTO. (Full LTO with a sample profile is
# linked by lit's lld/cache.test and lld_cache_options, for the cache; its
# effect on a program is the ThinLTO way's above.)
lto=-flto
split="--ld-path=$lld -Wl,--lto-mtpc-jobs=2,--thinlto-mtpc-threshold=0"
compile_pair -fir -fprofile-use=ir.profdata
cs_pgo fcs -fir
echo "full LTO: IR and context-sensitive PGO split as stock"

# mtpc backend takes the profile flags clang's backend step takes: below the
# threshold its objects are clang's byte for byte; split, the program behaves.
backend_way() { # backend_way NAME OBJECT-SUFFIX FLAGS...
  local name=$1 suffix=$2 m
  shift 2
  clang-$version -flto=thin -fuse-ld=lld -Wl,--thinlto-index-only "sqlite3$suffix.o" \
    "speedtest1$suffix.o" -o index-only -lm -lpthread -ldl
  for m in sqlite3 speedtest1; do
    clang-$version -c -O2 -x ir "$m$suffix.o" -fthinlto-index="$m$suffix.o.thinlto.bc" "$@" -o same.o
    mv same.o "$m$suffix.clang.o"
    "$mtpc" backend -c -O2 -x ir "$m$suffix.o" -fthinlto-index="$m$suffix.o.thinlto.bc" "$@" \
      -o same.o --threshold=1000000000
    cmp "$m$suffix.clang.o" same.o
    "$mtpc" backend -c -O2 -x ir "$m$suffix.o" -fthinlto-index="$m$suffix.o.thinlto.bc" "$@" \
      -o "$m$suffix.mtpc.o" --threshold=0 -j2
  done
  clang-$version -fuse-ld=lld "sqlite3$suffix.clang.o" "speedtest1$suffix.clang.o" -o "$name-clang" -lm -lpthread -ldl
  clang-$version -fuse-ld=lld "sqlite3$suffix.mtpc.o" "speedtest1$suffix.mtpc.o" -o "$name-mtpc" -lm -lpthread -ldl
  diff -u <(output "$name-clang") <(output "$name-mtpc")
}
backend_way backend-sample -sample "$sample"
backend_way backend-cs -ir -fprofile-use=cs-stock.profdata
echo "mtpc backend: -fprofile-sample-use= and -fprofile-use= (context-sensitive) as clang's"
echo "pgo e2e: all checks passed"
