#!/usr/bin/env python3
"""bench/today.sh's table: one row per headline figure, read from each
benchmark's output (OUT/<name>.txt).

    bench/today-table.py OUT LLVM_VERSION"""
import re
import sys

# (figure, benchmark, the line's label, which of its lines with that label)
ROWS = [
    ("sqlite3.c backend, wall", "sqlite-backend", "wall (s)", 0),
    ("sqlite3.c backend, cpu", "sqlite-backend", "cpu (s)", 0),
    ("shell link, ThinLTO, wall", "lld-link", "link wall (s)", 0),
    ("shell link, full LTO, vs partitions=1", "fulllto", "wall (s), --lto-partitions=1", 0),
    ("shell link, full LTO, vs partitions=2", "fulllto", "wall (s), --lto-partitions=2", 0),
    ("full LTO one-function relink", "fulllto", "relink wall (s)", 0),
    ("mtpc cc sqlite3.c, wall", "cc", "wall (s)", 0),
    ("mtpc cc sqlite3.c for MinGW, wall", "cc", "wall (s)", 2),
    ("incremental relink, one function", "incremental", "relink wall (s)", 0),
    ("C++ module (cppcheck), wall", "cxx-module", "wall (s)", 0),
    ("AArch64 shell link, ThinLTO", "cross", "aarch64 thin LTO link wall (s)", 0),
    ("AArch64 shell link, full LTO", "cross", "aarch64 full LTO link wall (s)", 0),
    ("RISC-V shell link, ThinLTO", "cross", "riscv64 thin LTO link wall (s)", 0),
    ("RISC-V shell link, full LTO", "cross", "riscv64 full LTO link wall (s)", 0),
    ("MinGW shell link, ThinLTO", "cross", "mingw thin LTO link wall (s)", 0),
    ("MinGW shell link, full LTO", "cross", "mingw full LTO link wall (s)", 0),
]


def table_line(text, label, nth):
    """(stock, mtpc, ratio, target) of the nth line "  LABEL  a  b  ratio  [target]"
    or of the nth "  LABEL: stock a, mtpc b, ratio r" line."""
    found = []
    for line in text.split("\n"):
        cells = re.split(r"\s{2,}", line.strip())
        if cells[0] == label and len(cells) >= 4:
            found.append((cells[1], cells[2], cells[3], cells[4] if len(cells) > 4 else ""))
        m = re.match(r"\s*" + re.escape(label) + r": stock (\S+), mtpc (\S+), ratio (\S+)", line)
        if m:
            found.append((m.group(1), m.group(2), m.group(3), ""))
    return found[nth] if len(found) > nth else None


def main():
    out, version = sys.argv[1], sys.argv[2]
    targets = {"incremental relink, one function": "<= 0.25"}
    print(f"mtpc today (LLVM {version}; each figure beside its own stock, same run)")
    print(f"  {'figure':40} {'stock':>10} {'mtpc':>10} {'ratio':>8}   target")
    missing = 0
    for figure, bench, label, nth in ROWS:
        try:
            text = open(f"{out}/{bench}.txt").read()
        except OSError:
            text = ""
        row = table_line(text, label, nth)
        if not row:
            print(f"  {figure:40} {'(no figure in ' + bench + '.txt)'}")
            missing += 1
            continue
        stock, mtpc, ratio, target = row
        print(f"  {figure:40} {stock:>10} {mtpc:>10} {ratio:>8}   {target or targets.get(figure, '')}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
