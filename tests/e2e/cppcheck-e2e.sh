#!/usr/bin/env bash
# A large C++ module with debug info: cppcheck 2.10's library as one module
# (scripts/build-cppcheck.sh: -O2 -g -flto=thin, joined by llvm-link, 50 MB
# of bitcode), compiled by `mtpc compile -j2`, against an unsplit compile:
#
# - the same global and weak symbols;
# - llvm-dwarfdump --verify is clean, and every class, struct, union and enum
#   the unsplit object defines is defined in the split one;
# - cppcheck's own test suite (testrunner, 4,206 tests) linked against the
#   split object gives the stock ThinLTO build's output, line for line;
# - gdb stops in a method that a partition other than 0 owns and prints
#   *this, whose class partition 0 describes (its home), and standard
#   containers (libstdc++'s printers need their whole template).
#
#   tests/e2e/cppcheck-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
dir=$("$root/scripts/build-cppcheck.sh")

"$mtpc" compile "$dir/cppcheck.bc" -o split.o -j2 --stats 2> stats.txt
grep -q "partitions, 2 jobs, split" stats.txt || { cat stats.txt; exit 1; }
"$mtpc" compile "$dir/cppcheck.bc" -o unsplit.o --partitions 1 -j2

globals split.o > split.syms
globals unsplit.o > unsplit.syms
diff -u unsplit.syms split.syms
test "$(wc -l < split.syms)" -gt 4000

llvm-dwarfdump-$version --verify --quiet split.o
LLVM_DWARFDUMP=llvm-dwarfdump-$version "$here/../debug-types.sh" unsplit.o > unsplit.types
LLVM_DWARFDUMP=llvm-dwarfdump-$version "$here/../debug-types.sh" split.o > split.types
missing=$(comm -23 unsplit.types split.types)
[ -z "$missing" ] || { echo "types the split object no longer defines:"; echo "$missing"; exit 1; }
test "$(wc -l < unsplit.types)" -gt 5000

clang++-$version -fuse-ld=lld split.o $(cat "$dir/tests.txt") -pthread -o testrunner
"$root/scripts/cppcheck-check.sh" "$dir" testrunner > check.log || true
diff -u "$dir/check-stock.log" check.log
grep -q "^Tests failed: 0$" check.log || grep -A20 "^Testing Complete" check.log

# gdb: a method outside partition 0, its class and containers partition 0's.
method=_ZN14SymbolDatabase33createSymbolDatabaseFindAllScopesEv
owner=$("$mtpc" plan "$dir/cppcheck.bc" | awk -v m="$method" '/^partition/ {p = $2} $2 == "function" && $3 == m {print p}')
[ -n "$owner" ] && [ "$owner" != "0:" ] || { echo "$method is in partition '$owner'"; exit 1; }
clang++-$version -fuse-ld=lld split.o "$dir/main.o" -pthread -o cppcheck
ln -sfn "$dir/tree/cfg" cfg
printf 'int main(void) { int x = 1; return x - 1; }\n' > input.c
gdb -batch -nx -ex "break symboldatabase.cpp:145" -ex run -ex "print scopeList" \
  -ex "print functionScopes" -ex "set print max-depth 1" -ex "print *this" -ex "bt 2" \
  --args ./cppcheck -q input.c > gdb.log 2>&1 || true
for expected in "Breakpoint 1, SymbolDatabase::createSymbolDatabaseFindAllScopes (this=" \
    "= std::__cxx11::list = {[0] = {check = " "type = Scope::eGlobal" \
    "= std::vector of length 0, capacity 0" "= {scopeList = std::__cxx11::list" \
    "mIsCpp = false" "in SymbolDatabase::SymbolDatabase (this="; do
  grep -qF -- "$expected" gdb.log || { echo "gdb: no '$expected'"; cat gdb.log; exit 1; }
done
echo "cppcheck e2e: $(grep -c '' split.syms) global symbols as unsplit," \
  "$(wc -l < split.types) types defined, $(sed -n 's/^Number of tests: //p' check.log) tests as stock," \
  "split into $(sed -nE 's/^mtpc stats: ([0-9]+) partitions.*/\1/p' stats.txt) partitions; gdb in partition ${owner%:}"
