#!/usr/bin/env bash
# `mtpc cc` on real programs with the flags production builds pass:
#   - SQLite's shell with Ubuntu 24.04's hardening flags (and -pie, -z now):
#     sqlite3.c split, its global symbols and endbr64 landing pads as
#     clang's, the queries answered as a plain build answers them;
#   - PGO: the shell instrumented (-fprofile-instr-generate) through mtpc cc,
#     run on the queries: the same counters as clang's instrumentation gives
#     (at -O1: the front end's counters depend on the level only through
#     __OPTIMIZE__, which -O1 defines as -O2 does); its
#     profile drives a split -fprofile-instr-use compile that clang's
#     -Werror=profile-instr-out-of-date accepts, and the PGO shell answers
#     the same;
#   - ASan: split, and the shell runs the queries under ASan with the same
#     answers;
#   - DFSan (with an ABI list for glibc's fcntl64, which clang's own build
#     needs too): split, clang's global symbols, the same answers;
#   - libFuzzer with ASan: SQLite's fuzz target on a split sqlite3.c runs the
#     queries as a corpus, its counters and coverage within 2% of clang's;
#   - a C++20 compile of a large C++ file (cppcheck's tokenize.cpp, 9,900
#     lines): split, with clang's global and undefined symbols.
#
#   tests/e2e/cc-flags-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
sqlite=$("$root/scripts/fetch-inputs.sh" sqlite)
cppcheck=$("$root/scripts/fetch-inputs.sh" cppcheck)
cc=clang-$version
launch=("$build/bin/mtpc-cc" -j2)
queries=$here/sqlite-queries.sql

# shell NAME LINK_FLAGS... : links NAME from NAME-sqlite3.o and NAME-shell.o.
shell() {
  local name=$1
  shift
  "$cc" "$@" "$name-sqlite3.o" "$name-shell.o" -o "$name" -lm -lpthread -ldl
}
# compile NAME FLAGS... : sqlite3.c and shell.c through the launcher, its
# notes to NAME.log.
compile() {
  local name=$1
  shift
  for f in sqlite3 shell; do
    "${launch[@]}" --verbose "$cc" "$@" -I"$sqlite" -c "$sqlite/$f.c" -o "$name-$f.o" \
      2>> "$name.log"
  done
}
answers() { "./$1" :memory: < "$queries" > "$1.out" 2>&1; }

# The reference answers: a plain, quickly built shell.
for f in sqlite3 shell; do "$cc" -O0 -I"$sqlite" -c "$sqlite/$f.c" -o "plain-$f.o"; done
shell plain
answers plain
test "$(wc -l < plain.out)" -gt 50

# Hardening.
hardening=(-g -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fstack-protector-strong
  -fstack-clash-protection -Wformat -Werror=format-security -fcf-protection -Wdate-time
  -D_FORTIFY_SOURCE=3)
compile hardened "${hardening[@]}"
grep -q "sqlite3.c: split into [0-9]* partitions" hardened.log || { cat hardened.log; exit 1; }
"$cc" "${hardening[@]}" -I"$sqlite" -c "$sqlite/sqlite3.c" -o clang-hardened.o
diff <(globals clang-hardened.o) <(globals hardened-sqlite3.o)
endbr() { llvm-objdump-$version -d "$1" | grep -c endbr64; }
test "$(endbr clang-hardened.o)" = "$(endbr hardened-sqlite3.o)"
shell hardened -pie -Wl,-z,relro,-z,now
answers hardened
diff -u plain.out hardened.out

# PGO, instrumented then used.
compile instr -O2 -fprofile-instr-generate
grep -q "sqlite3.c: split into [0-9]* partitions" instr.log || { cat instr.log; exit 1; }
shell instr -fprofile-instr-generate
LLVM_PROFILE_FILE=instr.profraw answers instr
diff -u plain.out instr.out
for f in sqlite3 shell; do
  "$cc" -O1 -fprofile-instr-generate -I"$sqlite" -c "$sqlite/$f.c" -o "clang-instr-$f.o"
done
shell clang-instr -fprofile-instr-generate
LLVM_PROFILE_FILE=clang-instr.profraw answers clang-instr
for run in instr clang-instr; do
  llvm-profdata-$version merge "$run.profraw" -o "$run.profdata"
  llvm-profdata-$version show --all-functions --counts "$run.profdata" > "$run.counts"
done
diff -q clang-instr.counts instr.counts
test "$(grep -c 'Function count: [1-9]' instr.counts)" -gt 500
compile pgo -O2 -fprofile-instr-use=instr.profdata -Werror=profile-instr-out-of-date
grep -q "sqlite3.c: split into [0-9]* partitions" pgo.log || { cat pgo.log; exit 1; }
shell pgo
answers pgo
diff -u plain.out pgo.out

# ASan: split, and the queries run clean under it.
compile asan -O1 -g -fsanitize=address -fno-omit-frame-pointer
grep -q "sqlite3.c: split into [0-9]* partitions" asan.log || { cat asan.log; exit 1; }
shell asan -fsanitize=address
answers asan
diff -u plain.out asan.out

# DataFlowSanitizer: split with an ABI list, clang's globals, the same answers.
printf 'fun:fcntl64=uninstrumented\nfun:fcntl64=discard\n' > dfsan-abi.txt
dfsan=(-O2 -fsanitize=dataflow -fsanitize-ignorelist=dfsan-abi.txt -DSQLITE_THREADSAFE=0
  -DSQLITE_OMIT_LOAD_EXTENSION)
compile dfsan "${dfsan[@]}"
grep -q "sqlite3.c: split into [0-9]* partitions" dfsan.log || { cat dfsan.log; exit 1; }
"$cc" "${dfsan[@]}" -I"$sqlite" -c "$sqlite/sqlite3.c" -o clang-dfsan.o
diff <(globals clang-dfsan.o) <(globals dfsan-sqlite3.o)
shell dfsan -fsanitize=dataflow
answers dfsan
diff -u plain.out dfsan.out

# libFuzzer (-fsanitize=fuzzer-no-link, with ASan, as OSS-Fuzz builds it):
# sqlite3.c split, SQLite's own fuzz target (test/ossfuzz.c) linked against
# it and against clang's object, both run over a corpus of the queries: the
# same inputs run clean, with inline counters and coverage within 2% of
# clang's (a function the split keeps out of line beside its inlined copies
# has counters of its own).
fuzz=(-O1 -g -fsanitize=fuzzer-no-link,address -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION)
"${launch[@]}" --verbose "$cc" "${fuzz[@]}" -I"$sqlite" -c "$sqlite/sqlite3.c" -o fuzz-sqlite3.o \
  2> fuzz.log
grep -q "sqlite3.c: split into [0-9]* partitions" fuzz.log || { cat fuzz.log; exit 1; }
"$cc" "${fuzz[@]}" -I"$sqlite" -c "$sqlite/sqlite3.c" -o clang-fuzz-sqlite3.o
diff <(globals clang-fuzz-sqlite3.o) <(globals fuzz-sqlite3.o)
rm -rf corpus && mkdir corpus
grep -v '^[.-]' "$queries" | split -l 1 - corpus/q
for obj in fuzz clang-fuzz; do
  "$cc" -O1 -fsanitize=fuzzer,address -I"$sqlite" "$sqlite/src/test/ossfuzz.c" "$obj-sqlite3.o" \
    -o "$obj-target" -lm
  "./$obj-target" -runs=0 corpus 2> "$obj.fuzz"
done
# within PERCENT A B: |A - B| <= B * PERCENT / 100
within() { test $(( ($2 - $3) * ($2 - $3) * 10000 )) -le $(( $3 * $3 * $1 * $1 )); }
counters() { grep -o '([0-9]* inline 8-bit counters)' "$1" | tr -dc 0-9; }
coverage() { grep -o 'DONE *cov: [0-9]*' "$1" | tr -dc 0-9; }
within 2 "$(counters fuzz.fuzz)" "$(counters clang-fuzz.fuzz)"
within 2 "$(coverage fuzz.fuzz)" "$(coverage clang-fuzz.fuzz)"
test "$(coverage fuzz.fuzz)" -gt 1000
fuzz_note="counters $(counters fuzz.fuzz) against $(counters clang-fuzz.fuzz), cov $(coverage fuzz.fuzz) against $(coverage clang-fuzz.fuzz)"

# C++20: a large C++ file.
includes=(-I"$cppcheck/lib" -I"$cppcheck/externals" -I"$cppcheck/externals/simplecpp"
  -I"$cppcheck/externals/tinyxml2" -I"$cppcheck/externals/picojson")
"${launch[@]}" --verbose "clang++-$version" -std=c++20 -O2 "${includes[@]}" \
  -c "$cppcheck/lib/tokenize.cpp" -o tokenize.o 2> tokenize.log
grep -q "tokenize.cpp: split into [0-9]* partitions" tokenize.log || { cat tokenize.log; exit 1; }
"clang++-$version" -std=c++20 -O2 "${includes[@]}" -c "$cppcheck/lib/tokenize.cpp" -o clang-tokenize.o
diff <(globals clang-tokenize.o) <(globals tokenize.o)
diff <(llvm-nm-$version -u clang-tokenize.o) <(llvm-nm-$version -u tokenize.o)
test "$(globals tokenize.o | wc -l)" -gt 300

echo "cc flags e2e: the hardened, instrumented, PGO, ASan and DFSan shells (all split) answer $(wc -l < plain.out) lines as a plain one; the instrumented split counts as clang's; SQLite's fuzz target on the split object runs the queries ($fuzz_note); a C++20 tokenize.cpp split with clang's symbols"
