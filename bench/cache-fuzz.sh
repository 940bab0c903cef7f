#!/usr/bin/env bash
# The cache-consistency fuzzer over a longer seed range than the test
# suite's (tests/fuzz/cache-fuzz.py, which says what each case does):
#
#   bench/cache-fuzz.sh [FIRST_SEED [COUNT]]     (default: 1001 2000)
#
# Prints each difference and the summary; exits 1 on a difference.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
first=${1:-1001} count=${2:-2000}
exec python3 "$root/tests/fuzz/cache-fuzz.py" "$build" "$build/bench/cache-fuzz" "$first" "$count" \
  --jobs "$(nproc)"
