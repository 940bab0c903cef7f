#!/usr/bin/env python3
"""Prints an object's CodeView records as `llvm-readobj --codeview` reads
them, one record per line, sorted: type records, symbol records, line
tables, inlinee lines, file checksums, frame data. What a merge renumbers
is left out (type indices, string and checksum offsets, section numbers,
record pointers, offsets from the start of a .text section), what it
resolves is kept (each index's type name, each file's name, each
relocation's symbol), so that a merged object's records compare with a
serial compile's (each type name once).

    llvm-readobj --codeview FILE | codeview-records.py
"""
import re
import sys

OPEN = re.compile(r"^(\s*)(\w[\w ]*?)(?: \(0x[0-9A-F]+\))? ?[\[{](?: \(0x[0-9A-F]+\))?$")
LEFT_OUT = re.compile(r"^\s*(Section|Magic|SubSectionSize|SubSectionType|PtrParent|PtrEnd|PtrNext"
                      r"|Segment|ISectStart|Signature|RelocOffset|RelocSegment): ")
NUMBERS = re.compile(r" \(0x[0-9A-F]+\)|\b0x1[0-9A-F]{3,}\b|(?<=\.text)\+0x[0-9A-F]+")

# Blocks printed as one record each, at whatever depth they open.
RECORDS = ("Sym", "FunctionLineTable", "InlineeSourceLine", "FileChecksum", "FrameData")


def is_record(name, depth, in_types):
    return (in_types and depth == 1) or any(name.endswith(r) for r in RECORDS)


def main():
    records, current, depth, in_types = [], None, 0, False
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line.startswith("CodeViewTypes ["):
            in_types = True
        elif line.startswith("CodeViewDebugInfo ["):
            in_types = False
        m = OPEN.match(line)
        if m and current is None and is_record(m.group(2), len(m.group(1)) // 2, in_types):
            current, depth = [m.group(2)], 1
            continue
        if current is None:
            continue
        if m:
            depth += 1
        elif line.strip() in ("}", "]"):
            depth -= 1
            if depth == 0:
                records.append(" ".join(current))
                current = None
                continue
        if not LEFT_OUT.match(line):
            current.append(NUMBERS.sub("", line.strip()))
    # Equal type names say no more twice than once (a serial compile writes
    # a struct's and its typedef's; a split one, in two partitions, one).
    names = {r for r in records if r.startswith("UDTSym ")}
    records = [r for r in records if not r.startswith("UDTSym ")] + list(names)
    print("\n".join(sorted(records)))


main()
