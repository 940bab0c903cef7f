#!/usr/bin/env python3
"""The design's rule: C++ is under a fifth of the library's lines.

C++ lines are the .cpp files, the headers only C++ includes (no extern "C"),
and the C++ tail of a mixed header (after `#ifdef __cplusplus` closes its
extern "C" block). Prints the share; exits 1 when it is a fifth or more."""
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
files = sorted(p for d in ("support", "partitioner", "lto-backend", "include/mtpc")
               for p in (root / d).rglob("*") if p.suffix in (".c", ".h", ".cpp"))


def cxx_lines(path, lines):
    if path.suffix == ".cpp":
        return len(lines)
    if path.suffix != ".h":
        return 0
    text = "".join(lines)
    if 'extern "C"' not in text:
        return len(lines) if "namespace " in text else 0
    for i in range(len(lines) - 1):
        if lines[i].strip() == "#ifdef __cplusplus" and lines[i + 1].strip() == "}":
            tail = lines[i + 2:]
            return len(tail) if any("namespace " in l for l in tail) else 0
    return 0


total = cxx = 0
for path in files:
    lines = path.read_text().splitlines(keepends=True)
    total += len(lines)
    cxx += cxx_lines(path, lines)
share = cxx / total
print(f"C++: {cxx} of {total} library lines ({share:.1%})")
sys.exit(0 if share < 0.2 else 1)
