#!/usr/bin/env bash
# PostgreSQL 15's server as one module (scripts/build-postgres.sh: every
# backend object of a clang-19 -O2 -flto=thin build, joined by llvm-link),
# compiled by `mtpc compile -j2` (of the build's LLVM, which reads 19's
# bitcode) and linked into the server by that LLVM's clang; PostgreSQL's own regression
# tests (make check: pg_regress on a temporary instance, run as a non-root
# user) must give the results the stock ThinLTO server gives.
#
#   tests/e2e/postgres-e2e.sh BUILD_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
pg=$("$root/scripts/build-postgres.sh")

"$mtpc" compile "$pg/postgres.bc" -o postgres.o -j2 --stats 2> stats.txt
grep -q "partitions, 2 jobs, split" stats.txt || { cat stats.txt; exit 1; }

clang-$version -fuse-ld=lld postgres.o $(cat "$pg/link-args.txt") -o postgres
"$root/scripts/postgres-check.sh" "$pg" "$work/check" "$work/postgres"
# regress_results LOG: each test's name and verdict, from make check's log.
regress_results() {
  sed -nE 's/^(test)? +([a-z0-9_]+) +\.\.\. +(ok|FAILED|failed)( .*)?$/\2 \3/p' "$1" | sort
}
regress_results check/check.log > split.results
regress_results "$pg/check-stock.log" > stock.results
diff -u stock.results split.results
test "$(wc -l < split.results)" -gt 150
grep -q "All [0-9]* tests passed" check/check.log || { tail -30 check/check.log; exit 1; }
echo "postgres e2e: $(grep -o 'All [0-9]* tests passed' check/check.log) with the server split in $(sed -nE 's/^mtpc stats: ([0-9]+) partitions.*/\1/p' stats.txt) partitions, as with the stock server"
