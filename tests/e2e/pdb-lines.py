#!/usr/bin/env python3
"""Prints what a debugger reads of a PDB's functions: each procedure's name
and the source lines of its code, in address order, one line per procedure
sorted by name (addresses, modules and record kinds left out, so that a
split link's PDB compares with a serial one's).

    pdb-lines.py LLVM_PDBUTIL FILE.pdb
"""
import re
import subprocess
import sys


def dump(pdbutil, pdb, *what):
    return subprocess.run([pdbutil, "dump", *what, pdb], check=True, capture_output=True,
                          text=True).stdout


def procedures(text):
    """(segment, offset) -> name of every S_GPROC32/S_LPROC32."""
    found = {}
    name = None
    for line in text.splitlines():
        m = re.search(r"S_[GL]PROC32(?:_ID)? \[size = \d+\] `(.*)`", line)
        if m:
            name = m.group(1)
            continue
        m = re.search(r"addr = (\d+):(\d+), code size = \d+", line)
        if m and name is not None:
            found[(int(m.group(1)), int(m.group(2)))] = name
            name = None
    return found


def line_blocks(text):
    """(segment, start offset, file, [lines]) of every block of a line table."""
    blocks = []
    source = None
    for line in text.splitlines():
        m = re.match(r"^(\S.*) \((?:MD5|None|SHA1|SHA256)[^)]*\)$", line)
        if m:
            source = m.group(1)
            continue
        m = re.match(r"^\s+([0-9A-F]{4}):([0-9A-F]{8})-[0-9A-F]{8}, line/addr entries", line)
        if m:
            blocks.append([int(m.group(1), 16), int(m.group(2), 16), source, []])
            continue
        if blocks and re.match(r"^\s+\d+ [0-9A-F]{8} ", line):
            blocks[-1][3].extend(int(n) for n in re.findall(r"(\d+) [0-9A-F]{8} ", line))
    return blocks


def main():
    pdbutil, pdb = sys.argv[1:3]
    names = procedures(dump(pdbutil, pdb, "--symbols"))
    rows = []
    for segment, start, source, lines in line_blocks(dump(pdbutil, pdb, "-l")):
        name = names.get((segment, start))
        if name is None:
            sys.exit(f"pdb-lines: no procedure at {segment:04X}:{start:08X} in {pdb}")
        rows.append(f"{name}: {source}: {' '.join(map(str, lines))}")
    if not rows:
        sys.exit(f"pdb-lines: no line information in {pdb}")
    print("\n".join(sorted(rows)))


main()
