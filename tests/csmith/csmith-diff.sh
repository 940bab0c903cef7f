#!/usr/bin/env bash
# Differential testing with Csmith: every random program is built five ways
# and its checksum compared:
#   stock  clang-19 ThinLTO, linked by Debian's ld.lld-19;
#   lld    the patched ld.lld splitting every module into as many partitions
#          as it has groups (--thinlto-mtpc-threshold=0);
#   dup    mtpc compile --partitions max --import-instr-limit=1000 (aggressive
#          duplication), linked as a plain object;
#   full   clang-19 -flto (full LTO), linked by Debian's ld.lld-19, against
#   fulls  the same linked by the patched ld.lld with --lto-mtpc-jobs, the
#          merged module split into as many partitions as it has groups.
# Programs whose stock build times out or crashes are skipped and counted. A
# mismatch, crash, verifier failure or link error fails the run and leaves
# the program in WORK_DIR/failures, unless the dup build behaves exactly as
# the same module compiled unsplit (`mtpc compile --partitions 1`): then the
# difference from stock is the program's undefined behavior meeting a
# different pipeline (a plain clang -O2 build shows it too), not the split;
# such programs are counted as "unstable".
#
#   tests/csmith/csmith-diff.sh BUILD_DIR WORK_DIR FIRST_SEED COUNT
set -uo pipefail
build=$(cd "$1" && pwd)
version=${MTPC_LLVM_VERSION:-19} # the LLVM mtpc and its ld.lld are built against
work=$2
first=$3
count=$4
lld=$build/bin/ld.lld
mtpc=$build/bin/mtpc
[ -x "$lld" ] && [ -x "$mtpc" ] || { echo "build mtpc and ld.lld first" >&2; exit 2; }
command -v csmith >/dev/null || { echo "csmith is not installed (scripts/install-deps.sh)" >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work/failures"
cd "$work"

ok=0 skipped=0 failed=0 unstable=0
start=$(date +%s)
fail() {
  local seed=$1 why=$2
  echo "seed $seed: $why" | tee -a failures/summary.txt
  cp "p$seed.c" failures/ 2>/dev/null
  failed=$((failed + 1))
}
run() { # EXE: output and exit status in EXE.out; fails if it crashed or hung
  local status=0
  timeout 10 "./$1" > "$1.out" 2>&1 || status=$?
  echo "exit status $status" >> "$1.out"
  [ "$status" -lt 124 ]
}

for seed in $(seq "$first" $((first + count - 1))); do
  csmith --seed "$seed" --no-packed-struct > "p$seed.c" 2>/dev/null
  if ! clang-$version -O2 -flto=thin -w -I/usr/include/csmith -c "p$seed.c" -o "p$seed.o" 2>/dev/null; then
    skipped=$((skipped + 1)); rm -f "p$seed.c"; continue
  fi
  clang-$version -flto=thin -fuse-ld=lld --ld-path=/usr/lib/llvm-$version/bin/ld.lld "p$seed.o" -o stock
  if ! run stock || ! grep -q "^exit status 0$" stock.out; then
    skipped=$((skipped + 1)); rm -f "p$seed".*; continue
  fi
  if ! clang-$version -flto=thin -fuse-ld=lld --ld-path="$lld" "p$seed.o" -o lld \
       -Wl,--thinlto-mtpc-jobs=2,--thinlto-mtpc-threshold=0,--thinlto-mtpc-partitions=100000 2> lld.err; then
    fail "$seed" "lld link failed: $(head -1 lld.err)"; continue
  fi
  if ! "$mtpc" compile "p$seed.o" -o "p$seed.dup.o" --partitions max --import-instr-limit=1000 -j2 2> dup.err ||
     ! clang-$version "p$seed.dup.o" -o dup 2>> dup.err; then
    fail "$seed" "mtpc compile failed: $(head -1 dup.err)"; continue
  fi
  if ! clang-$version -O2 -flto -w -I/usr/include/csmith -c "p$seed.c" -o "p$seed.full.o" 2> full.err ||
     ! clang-$version -flto -fuse-ld=lld --ld-path=/usr/lib/llvm-$version/bin/ld.lld "p$seed.full.o" -o full 2>> full.err ||
     ! clang-$version -flto -fuse-ld=lld --ld-path="$lld" "p$seed.full.o" -o fulls 2>> full.err \
       -Wl,--lto-mtpc-jobs=2,--thinlto-mtpc-threshold=0,--thinlto-mtpc-partitions=100000; then
    fail "$seed" "full LTO build failed: $(head -1 full.err)"; continue
  fi
  run full || true
  run fulls || true
  if ! cmp -s full.out fulls.out; then
    fail "$seed" "full LTO split: '$(tr '\n' ' ' < fulls.out)' != stock's '$(tr '\n' ' ' < full.out)'"; continue
  fi
  for v in lld dup; do
    run $v || true
    cmp -s stock.out $v.out && continue
    if [ $v = dup ] && "$mtpc" compile "p$seed.o" -o "p$seed.one.o" --partitions 1 &&
       clang-$version "p$seed.one.o" -o one && { run one || true; } && cmp -s one.out dup.out; then
      echo "seed $seed: unstable: stock '$(tr '\n' ' ' < stock.out)', unsplit and dup '$(tr '\n' ' ' < dup.out)'"
      unstable=$((unstable + 1)); continue 2
    fi
    fail "$seed" "$v: '$(tr '\n' ' ' < $v.out)' != stock '$(tr '\n' ' ' < stock.out)'"; continue 2
  done
  ok=$((ok + 1))
  rm -f "p$seed".*
done
echo "csmith seeds $first..$((first + count - 1)): $ok agree, $skipped skipped, $unstable unstable, $failed failed, $(( $(date +%s) - start ))s"
echo "$ok passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
