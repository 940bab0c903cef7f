#!/usr/bin/env python3
"""Writes a sample profile in llvm-profdata's text format from an
instrumented run, since this machine has no LBR to sample with.

  make-sample-profile.py DWARFDUMP_OUTPUT LCOV > profile.txt

DWARFDUMP_OUTPUT is `llvm-dwarfdump --debug-info` of a -g build, which gives
each function's declaration line (a sample profile counts lines from it);
LCOV is `llvm-cov export -format=lcov` of a run of a -fprofile-instr-generate
-fcoverage-mapping build, which gives how often each line and each function
ran. Each function that ran becomes

  name:total:head
   line - declaration line: count
   ...

The counts are exact, where a real sampling profile's would be estimates.
"""
import collections
import re
import sys


def declarations(dwarfdump):
    """(file, name) -> declaration line of every function with code."""
    found = {}
    record = None

    def finish():
        if record and record.get("low_pc") and "name" in record and "line" in record:
            found.setdefault((record["file"], record["name"]), record["line"])

    for line in dwarfdump:
        if "DW_TAG_" in line:
            finish()
            record = {} if "DW_TAG_subprogram" in line else None
            continue
        if record is None:
            continue
        if "DW_AT_low_pc" in line:
            record["low_pc"] = True
        elif m := re.search(r'DW_AT_name\s+\("([^"]+)"\)', line):
            record["name"] = m.group(1)
        elif m := re.search(r'DW_AT_decl_file\s+\("([^"]+)"\)', line):
            record["file"] = m.group(1)
        elif m := re.search(r"DW_AT_decl_line\s+\((\d+)\)", line):
            record["line"] = int(m.group(1))
    finish()
    return found


def coverage(lcov):
    """file -> ({line: count}, {function: entry count})."""
    files = collections.defaultdict(lambda: ({}, {}))
    current = None
    for line in lcov:
        line = line.strip()
        if line.startswith("SF:"):
            current = files[line[3:]]
        elif line.startswith("DA:"):
            number, count = line[3:].split(",")[:2]
            current[0][int(number)] = int(count)
        elif line.startswith("FNDA:"):
            count, name = line[5:].split(",", 1)
            # A static function's is "file.c:name", as PGO names locals.
            current[1][name.rsplit(":", 1)[-1]] = int(count)
    return files


def main():
    with open(sys.argv[1]) as f:
        decls = declarations(f)
    with open(sys.argv[2]) as f:
        files = coverage(f)
    by_file = collections.defaultdict(list)
    for (path, name), line in decls.items():
        by_file[path].append((line, name))
    for path in sorted(by_file):
        lines, entries = files.get(path, ({}, {}))
        functions = sorted(by_file[path])
        for i, (start, name) in enumerate(functions):
            head = entries.get(name, 0)
            if head == 0:
                continue
            end = functions[i + 1][0] if i + 1 < len(functions) else float("inf")
            body = sorted((n, c) for n, c in lines.items() if start <= n < end and c > 0)
            if not body:
                continue
            print(f"{name}:{sum(c for _, c in body)}:{head}")
            for number, count in body:
                print(f" {number - start}: {count}")


if __name__ == "__main__":
    main()
