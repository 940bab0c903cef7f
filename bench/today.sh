#!/usr/bin/env bash
# Where mtpc stands today: the headline benchmarks, one after the other, and
# one table of their figures (figure, stock, mtpc, ratio, target). Each is
# measured side by side with its own stock in the same run; nothing else may
# run on the machine meanwhile.
#
#   bench/today.sh [--runs N] [--llvm 19|22]
# Each benchmark's whole output goes to <build>/bench-today/<name>.txt; the
# table is printed and written to <build>/bench-today/table.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3 jobs=2 size=100
. "$root/bench/common.sh"
bench_options "$@"
out=$build/bench-today
mkdir -p "$out"

# run NAME SCRIPT ARGS...: one benchmark, its output kept.
run() {
  local name=$1; shift
  echo "bench/today: $name ($*)" >&2
  MTPC_BUILD_DIR=$build "$@" > "$out/$name.txt" 2>&1 ||
    { tail -20 "$out/$name.txt" >&2; echo "bench/today: $name failed" >&2; exit 1; }
}

common=(--runs "$runs" --llvm "$version")
run sqlite-backend "$root/bench/sqlite-backend.sh" --runs "$runs"
run lld-link "$root/bench/lld-link.sh" "${common[@]}"
run fulllto "$root/bench/fulllto.sh" "${common[@]}"
run cc "$root/bench/cc.sh" --runs "$runs"
run incremental "$root/bench/incremental.sh" "${common[@]}"
run cxx-module "$root/bench/large-module.sh" --module cppcheck --runs 1
run cross "$root/bench/cross.sh" "${common[@]}"

python3 "$root/bench/today-table.py" "$out" "$version" | tee "$out/table.txt"
