#!/usr/bin/env bash
# Builds the libFuzzer target (clang-19, -fsanitize=fuzzer,address) in its own
# build directory and runs it for SECONDS over the seeds in tests/fuzz/seeds
# and tests/lit (assembled to bitcode). Crashing inputs are left in
# WORK_DIR/crashes and sorted: a crash LLVM's own reader (llvm-dis-19) also
# has is LLVM's; any other, or an mtpc command that does not answer it with
# one error line and exit status 1, fails the run. Needs build/bin/mtpc.
#
#   tests/fuzz/run-fuzz.sh WORK_DIR [SECONDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$1
seconds=${2:-60}
mkdir -p "$work/corpus" "$work/crashes"
cmake -S "$root" -B "$work/build" -G Ninja -DMTPC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address" \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address" >/dev/null
ninja -C "$work/build" fuzz-bitcode >/dev/null
for f in "$here"/seeds/*.ll "$root"/tests/lit/*.ll; do
  llvm-as-19 "$f" -o "$work/corpus/$(basename "$f" .ll).bc" 2>/dev/null || true
done
# LLVM-C leaks a buffer wrapper when the bitcode reader fails (docs/testing.rst),
# so leak detection is off; ASan still stops on any memory error. Fork mode
# goes on after a crash, so one run collects them all.
# SECONDS=0 only sorts the inputs already in WORK_DIR/crashes.
if [ "$seconds" -gt 0 ]; then
  ASAN_OPTIONS=detect_leaks=0 "$work/build/tests/fuzz-bitcode" "$work/corpus" \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=65536 \
    -artifact_prefix="$work/crashes/" > "$work/fuzz.log" 2>&1 || true
  grep -E "^#[0-9]+: cov" "$work/fuzz.log" | tail -1
fi

# Every input the target crashed, hung or ran out of memory on is sorted by
# the innermost frame of its stack that is not the sanitizer's, libFuzzer's
# or libc's: in libLLVM it is LLVM's (each partition passes the verifier
# before LLVM's passes see it, so LLVM is not crashing on IR mtpc wrote),
# otherwise mtpc's. The mtpc command must answer every crash and
# out-of-memory input of LLVM's with one error line and exit status 1 (or a
# compile: without ASan, LLVM's out-of-bounds read may go unnoticed), a hang
# inside LLVM's reader included (--read-time-limit).
owner() { # INPUT: "llvm" or "mtpc"
  ASAN_OPTIONS=detect_leaks=0 timeout 60 "$work/build/tests/fuzz-bitcode" -timeout=20 \
    -rss_limit_mb=4096 "$1" 2>&1 | grep -E '^ *#[0-9]+ 0x' |
    grep -vE 'libc\.so|sanitizer|fuzzer::|__interceptor|in (abort|raise|__pthread_kill|memcpy|memmove|memset|malloc|calloc|realloc|operator new)' |
    awk -v root="$root/" 'index($0, root) { print "mtpc"; exit } /libLLVM/ { print "llvm"; exit }' ||
    true
}
ours=0 llvm=0 hangs=0
for f in "$work"/crashes/*; do
  [ -e "$f" ] || continue
  who=$(owner "$f")
  if [ "$who" != llvm ]; then
    echo "mtpc's bug (${who:-no stack}): $f"; ours=$((ours + 1)); continue
  fi
  llvm=$((llvm + 1))
  status=0
  timeout 60 "$root/build/bin/mtpc" compile "$f" --read-time-limit=10 -o "$work/out.o" \
    2> "$work/err" || status=$?
  grep -q "bitcode reader did not finish" "$work/err" && hangs=$((hangs + 1))
  if [ "$status" -eq 0 ]; then
    : # compiles without the sanitizer and with the default partitions
  elif [ "$status" -ne 1 ] || [ "$(grep -c "" "$work/err")" -ne 1 ] || ! grep -q "^mtpc: error: " "$work/err"; then
    echo "mtpc command: exit $status on $f:"; cat "$work/err"; ours=$((ours + 1))
  fi
done
echo "fuzz: $(sed -nE 's/^#([0-9]+): cov.*/\1/p' "$work/fuzz.log" 2>/dev/null | tail -1) executions in ${seconds}s;" \
  "$llvm inputs crash, exhaust memory or hang in LLVM ($hangs hang in its bitcode reader)," \
  "each answered by the mtpc command with one error line; $ours are mtpc's bugs"
[ "$ours" -eq 0 ]
