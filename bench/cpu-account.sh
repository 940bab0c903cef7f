#!/usr/bin/env bash
# The split's CPU against the serial compile, part by part, for one module:
# where CPU(split) - CPU(serial) goes. Each compile's CPU is measured plain
# (no account) at -j1 and -jJ, alternating, medians of --runs runs; then one
# --stats=account run of each at -j1 says where each job's thread CPU went:
# target machines, optimization of the partition's own definitions, of the
# available_externally copies it drops, of clones (optimized in every
# partition that holds one), of the module as a whole, code generation (and
# of it, that of the clones a partition other than their owner keeps,
# measured by code-generating it again without them), and the loads,
# setup and frees around them; the serial phases (read, plan, bitcode,
# merge) are the main thread's. "Contention" is CPU(-jJ) - CPU(-j1): the
# same work, on J threads at once.
#
#   bench/cpu-account.sh [--module cppcheck|sqlite|postgres|FILE.bc] [--runs N] [--jobs J]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MTPC_BUILD_DIR:-$root/build}
runs=3 jobs=2 size=0 module=cppcheck
. "$root/bench/common.sh"
bench_module_options "$@"
mtpc=$build/bin/mtpc
bench_need "$mtpc" "build mtpc first (scripts/test.sh)"
bc=$(bench_bitcode "$module")
work=${MTPC_BENCH_DIR:-$build/bench-cpu-account/$(basename "$bc" .bc)}
mkdir -p "$work" && cd "$work"

rm -f serial.stats split1.stats splitj.stats
for _ in $(seq "$runs"); do
  measure serial "$mtpc" compile "$bc" -o serial.o --partitions 1 -j1
  measure split1 "$mtpc" compile "$bc" -o split1.o -j1
  measure splitj "$mtpc" compile "$bc" -o splitj.o -j"$jobs"
done
"$mtpc" compile "$bc" -o serial.o --partitions 1 -j1 --stats=account 2> serial-account.txt
"$mtpc" compile "$bc" -o split1.o -j1 --stats=account 2> split-account.txt

# account FILE: the sums of the job lines (job load target own copies clones
# module codegen codegen-clones release rest) and the serial phases (read
# plan bitcode merge).
account() {
  awk '$1 == "account" && $2 ~ /^[0-9]+$/ {for (k = 3; k <= 13; k++) s[k] += $k}
       /serial: read/ {gsub(/[s,]/, " "); r = $3; p = $5; b = $7; m = $9}
       END {for (k = 3; k <= 13; k++) printf "%f ", s[k]; printf "%f %f %f %f\n", r, p, b, m}' "$1"
}
read -r _ s_load s_tm s_own s_copy s_clone s_mod s_cg s_cgc s_free s_rest s_read s_plan s_bc s_merge \
  < <(account serial-account.txt)
read -r _ p_load p_tm p_own p_copy p_clone p_mod p_cg p_cgc p_free p_rest p_read p_plan p_bc p_merge \
  < <(account split-account.txt)
partitions=$(sed -nE 's/^mtpc stats: ([0-9]+) partitions?.*/\1/p' split-account.txt)
cpu_serial=$(col serial 2) cpu_split1=$(col split1 2) cpu_splitj=$(col splitj 2)
wall_serial=$(col serial 1) wall_splitj=$(col splitj 1)

row() { # label serial split
  awk -v l="$1" -v a="$2" -v b="$3" -v base="$cpu_serial" \
    'BEGIN {printf "  %-44s %9.2f %9.2f %+9.2f %+7.1f%%\n", l, a, b, b - a, 100 * (b - a) / base}'
}
sum() { awk 'BEGIN {s = 0; for (i = 1; i < ARGC; i++) s += ARGV[i]; printf "%f", s}' "$@"; }

echo "CPU account of $(basename "$bc") ($(du -h "$bc" | cut -f1)): the serial compile (--partitions 1 -j1) against mtpc -j1 ($partitions partitions); process CPU medians of $runs alternating runs, parts from one --stats=account run each"
printf '  %-44s %9s %9s %9s %8s\n' "part (CPU seconds)" serial split extra "of serial"
row "serial phases: read, plan, bitcode, merge" "$(sum "$s_read" "$s_plan" "$s_bc" "$s_merge")" \
  "$(sum "$p_read" "$p_plan" "$p_bc" "$p_merge")"
row "per job: load (read, form, verify)" "$s_load" "$p_load"
row "per job: target machines" "$s_tm" "$p_tm"
row "per job: release (free the context)" "$s_free" "$p_free"
row "per job: the rest (pipeline setup, cache...)" "$s_rest" "$p_rest"
row "optimization: own definitions" "$s_own" "$p_own"
row "optimization: module passes" "$s_mod" "$p_mod"
row "optimization: copies (dropped after)" "$s_copy" "$p_copy"
row "optimization: clones (in each holder)" "$s_clone" "$p_clone"
row "code generation: own definitions" "$(sum "$s_cg" "-$s_cgc")" "$(sum "$p_cg" "-$p_cgc")"
row "code generation: clones (where kept)" "$s_cgc" "$p_cgc"
acc_s=$(sum "$s_read" "$s_plan" "$s_bc" "$s_merge" "$s_load" "$s_tm" "$s_free" "$s_rest" "$s_own" "$s_mod" "$s_copy" "$s_clone" "$s_cg")
acc_p=$(sum "$p_read" "$p_plan" "$p_bc" "$p_merge" "$p_load" "$p_tm" "$p_free" "$p_rest" "$p_own" "$p_mod" "$p_copy" "$p_clone" "$p_cg")
row "accounted" "$acc_s" "$acc_p"
row "process CPU, -j1 (the rest: outside jobs)" "$cpu_serial" "$cpu_split1"
row "process CPU, -j$jobs (contention: -j$jobs less -j1)" "$cpu_serial" "$cpu_splitj"
printf '  %-44s %9s %9s %9s\n' "ratios to the serial compile" "" "" ""
printf '  %-44s %9s\n' "CPU, -j1 split / serial" "$(ratio "$cpu_split1" "$cpu_serial")"
printf '  %-44s %9s\n' "CPU, -j$jobs split / serial" "$(ratio "$cpu_splitj" "$cpu_serial")"
printf '  %-44s %9s   (serial %ss)\n' "wall, -j$jobs split / serial" "$(ratio "$wall_splitj" "$wall_serial")" "$wall_serial"
# A round's three runs are minutes apart; the medians above may pair a run
# of a slow spell with one of a fast one, so each round's ratios as well.
echo "  per round (serial, split -j1, split -j$jobs, in that order):"
echo "    CPU -j1: $(pair_ratios serial split1 2)"
echo "    CPU -j$jobs: $(pair_ratios serial splitj 2)"
echo "    wall -j$jobs: $(pair_ratios serial splitj 1)"
