# Shared by the benchmark scripts: sourced, not run.

# The LLVM the benchmark uses: its clang, its stock ld.lld, and the mtpc
# build (and patched ld.lld) made for it.
version=${MTPC_LLVM_VERSION:-19}

# The scripts enter a work directory: a relative MTPC_BUILD_DIR is the
# caller's. (The caller sets build before sourcing this.)
[ -d "${build:-}" ] && build=$(cd "$build" && pwd)

# bench_options ARGS...: --runs N, --jobs J, --speedtest-size S into runs,
# jobs and size (the caller sets their defaults first); --llvm 19|22 into
# version, with build-22/ as the build for 22 unless MTPC_BUILD_DIR says.
bench_options() {
  while [ $# -gt 0 ]; do
    case $1 in
      --runs) runs=$2; shift 2 ;;
      --jobs) jobs=$2; shift 2 ;;
      --speedtest-size) size=$2; shift 2 ;;
      --llvm) version=$2; shift 2 ;;
      *) echo "usage: $0 [--runs N] [--jobs J] [--speedtest-size S] [--llvm 19|22]" >&2; exit 2 ;;
    esac
  done
  case $version in
    19) ;;
    22) [ -n "${MTPC_BUILD_DIR:-}" ] || build=$root/build-22 ;;
    *) echo "$0: --llvm $version: the versions are 19 and 22" >&2; exit 2 ;;
  esac
  export MTPC_LLVM_VERSION=$version # for the edit scripts
}

# bench_module_options ARGS...: --module M into module (the caller sets its
# default first), the rest as bench_options takes them.
bench_module_options() {
  local rest=()
  while [ $# -gt 0 ]; do
    case $1 in
      --module) module=$2; shift 2 ;;
      *) rest+=("$1"); shift ;;
    esac
  done
  bench_options "${rest[@]+"${rest[@]}"}"
}

# bench_bitcode MODULE: the path of MODULE's bitcode (cppcheck, sqlite,
# postgres or a FILE.bc), built once.
bench_bitcode() {
  case $1 in
    cppcheck) echo "$("$root/scripts/build-cppcheck.sh")/cppcheck.bc" ;;
    postgres) echo "$("$root/scripts/build-postgres.sh")/postgres.bc" ;;
    sqlite)
      local src bc=$build/bench-cpu-account/sqlite3.bc
      src=$("$root/scripts/fetch-inputs.sh" sqlite)
      mkdir -p "$build/bench-cpu-account"
      [ -f "$bc" ] || "clang-$version" -O2 -flto=thin -c "$src/sqlite3.c" -o "$bc"
      echo "$bc" ;;
    *.bc) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;;
    *) echo "usage: $0 [--module cppcheck|sqlite|postgres|FILE.bc] ..." >&2; return 2 ;;
  esac
}

# bench_need FILE HINT: stops with HINT unless FILE is executable.
bench_need() { [ -x "$1" ] || { echo "$2" >&2; exit 1; }; }

# bench_enter NAME: fetches the SQLite sources once (src) and enters the work
# directory (work: $MTPC_BENCH_DIR, default $build/bench-NAME).
bench_enter() {
  src=$("$root/scripts/fetch-inputs.sh" sqlite)
  work=${MTPC_BENCH_DIR:-$build/bench-$1}
  mkdir -p "$work" && cd "$work"
}

# measure NAME COMMAND...: runs COMMAND under /usr/bin/time (standard output
# dropped; its diagnostics stay), appending "wall cpu maxrss_kb" to
# NAME.stats.
measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o time.out "$@" >/dev/null
  awk '{print $1, $2 + $3, $4}' time.out >> "$name.stats"
}

# median < numbers: the median of one number per line.
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# ratio A B: A / B with three decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a/b}'; }

# col NAME N: the median of column N of NAME.stats.
col() { awk -v c="$2" '{print $c}' "$1.stats" | median; }

# pair_ratios A B N: column N of B.stats over A.stats, line by line (the
# runs of one alternating pair each), then "median" and their median. The
# medians of the columns can pair a run of a slow spell with one of a fast
# spell; a pair's two runs are minutes apart.
pair_ratios() {
  local r
  r=$(paste -d' ' "$1.stats" "$2.stats" | awk -v c="$3" '{n = NF / 2; printf "%.3f\n", $(n + c) / $c}')
  echo "$(echo "$r" | tr '\n' ' ')median $(echo "$r" | median)"
}

# text_size OBJECT: bytes in .text sections.
text_size() { llvm-size-$version -A "$1" | awk '$1 ~ /^\.text/ {s += $2} END {print s}'; }

# speedtest_runs SIZE COUNT A B: runs ./speedtest1-A and ./speedtest1-B
# alternately COUNT times each, appending user + system CPU seconds to A.run
# and B.run.
speedtest_runs() {
  local size=$1 count=$2; shift 2
  local v
  for v in "$@"; do rm -f "$v.run"; done
  for _ in $(seq "$count"); do
    for v in "$@"; do
      /usr/bin/time -f "%U %S" -o time.out "./speedtest1-$v" --size "$size" >/dev/null 2>&1
      awk '{print $1 + $2}' time.out >> "$v.run"
    done
  done
}

# instructions COMMAND...: instructions executed, counted by callgrind, which
# is repeatable whatever else the machine does.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
}

# bench_time NAME COMMAND...: runs COMMAND (a function too), appending its wall
# and CPU (user + system, children included) seconds to NAME.stats.
bench_time() {
  local name=$1 TIMEFORMAT='%R %U %S'
  shift
  { time "$@" > /dev/null; } 2> time.out
  awk '{print $1, $2 + $3}' time.out >> "$name.stats"
}

# wall_cpu_table A-LABEL B-LABEL WALL-TARGET: the median wall and CPU seconds
# of stock.stats (A) and mtpc.stats (B), and B / A.
wall_cpu_table() {
  printf "  %-12s %10s %10s %8s %s\n" figure "$1" "$2" ratio target
  local c n name a b
  for c in 1:wall 2:cpu; do
    n=${c%%:*} name=${c#*:}
    a=$(col stock "$n") b=$(col mtpc "$n")
    printf "  %-12s %10s %10s %8s %s\n" "$name (s)" "$a" "$b" "$(ratio "$b" "$a")" \
      "$([ "$name" = wall ] && echo "$3")"
  done
}
