#!/usr/bin/env python3
"""Compares the debug info of a split object with the unsplit one's, from
`llvm-dwarfdump --statistics` of each, and fails when the split falls below
the targets: call-site DIEs within 2%, bytes covered by DW_AT_location
(variables, parameters, local variables) within 1%.

  debug-stats.py UNSPLIT.json SPLIT.json [UNSPLIT-SIZE SPLIT-SIZE]

With the sizes of the two objects' .debug_* sections it also checks that
the split's are at most 10% larger. Prints one line per figure.
"""
import json
import sys

FIGURES = [
    ("call site DIEs", "#call site DIEs", 0.02),
    ("variable coverage", "sum_all_variables(#bytes in parent scope covered by DW_AT_location)", 0.01),
    ("parameter coverage", "sum_all_params(#bytes in parent scope covered by DW_AT_location)", 0.01),
    ("local variable coverage",
     "sum_all_local_vars(#bytes in parent scope covered by DW_AT_location)", 0.01),
]


def main():
    with open(sys.argv[1]) as f:
        unsplit = json.load(f)
    with open(sys.argv[2]) as f:
        split = json.load(f)
    failed = False
    for label, key, tolerance in FIGURES:
        a, b = unsplit.get(key, 0), split.get(key, 0)
        ratio = b / a if a else 1.0
        ok = abs(ratio - 1.0) <= tolerance
        failed |= not ok
        print(f"{label:24} {a:>12} {b:>12} {ratio:7.4f} (within {tolerance:.0%}){'' if ok else '  FAIL'}")
    if len(sys.argv) == 5:
        a, b = int(sys.argv[3]), int(sys.argv[4])
        ok = b <= a * 1.10
        failed |= not ok
        print(f"{'.debug_* bytes':24} {a:>12} {b:>12} {b / a:7.4f} (at most 1.10){'' if ok else '  FAIL'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
