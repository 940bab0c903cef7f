#!/usr/bin/env python3
"""Edits of sqlite3.c for the incremental-build tests and benchmark.

Every edit but line: keeps the file's line count, because sqlite3.c puts
__LINE__ into the code of many functions (SQLITE_CORRUPT_BKPT): a shifted
line changes functions the edit never touched.

  sqlite-edit.py functions SQLITE3_C            name, brace line, size (-O0 IR)
  sqlite-edit.py pick SQLITE3_C --seed S --count N
                                                N functions of all sizes
  sqlite-edit.py at SQLITE3_C FRACTION          the first function whose body
                                                opens that far into the file,
                                                and that line: NAME LINE
  sqlite-edit.py apply SQLITE3_C OUT EDIT...    writes the edited file
  sqlite-edit.py build [-g] [--full-lto] SQLITE3_C DIR [EDIT...]
                                                DIR/sqlite3.c, edited, compiled
                                                to DIR/sqlite3.o (clang-N -O2
                                                -flto=thin, or -flto with
                                                --full-lto; with -g: and -g), in
                                                DIR, as a rebuild at the same path

An EDIT is one of
  body:NAME      a statement added at the top of NAME's body
  string:NAME    a statement naming a new string literal, at the top of
                 NAME's body (clang's later .str.N constants renumber)
  line:NAME      a line inserted after the one that opens NAME's body (the
                 only edit that moves lines: every later function's lines)
  grow:NAME      as many instructions added to NAME as it has (-O0 IR)
  add:NAME       a new external function, on the line that closes NAME,
                 and a call to it at the top of NAME's body
  delete:NAME    NAME's lines blanked (NAME must be unused)
  init:NAME      the number initializing global NAME (on its line) changed
  field:STRUCT   a field added at the end of struct STRUCT
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

# The LLVM whose tools build and read the inputs (the build under test).
LLVM_VERSION = os.environ.get("MTPC_LLVM_VERSION", "19")

SUBPROGRAM = re.compile(
    r'^(!\d+) = distinct !DISubprogram\(name: "([^"]+)".*?line: (\d+),.*?scopeLine: (\d+),'
    r'.*spFlags: [^,]*DISPFlagDefinition')
DEFINE = re.compile(r'^define .*@("?[^(" ]+"?)\(.*!dbg (!\d+)')


def functions(source):
    """{name: (first line, brace line, -O0 instruction count)} of source's
    definitions, from clang's debug info (1-based lines)."""
    with tempfile.NamedTemporaryFile(suffix=".ll") as ir:
        subprocess.run([f"clang-{LLVM_VERSION}", "-O0", "-g", "-S", "-emit-llvm", source, "-o", ir.name],
                       check=True, stderr=subprocess.DEVNULL)
        lines = open(ir.name).read().splitlines()
    subprograms = {}
    for line in lines:
        m = SUBPROGRAM.match(line)
        if m:
            subprograms[m.group(1)] = (m.group(2), int(m.group(3)), int(m.group(4)))
    found, current, size = {}, None, 0
    for line in lines:
        m = DEFINE.match(line)
        if m and m.group(2) in subprograms:
            current, size = subprograms[m.group(2)], 0
        elif current and line == "}":
            found[current[0]] = (current[1], current[2], size)
            current = None
        elif current and line.startswith("  ") and not line.startswith("  call void @llvm.dbg"):
            size += 1
    return found


def pick(found, seed, count):
    """count functions spread over all sizes: one from each of count size
    bands, by a seeded choice."""
    ranked = sorted(found, key=lambda name: (found[name][2], name))
    rng = random.Random(seed)
    chosen = []
    for band in range(count):
        lo = band * len(ranked) // count
        hi = max(lo + 1, (band + 1) * len(ranked) // count)
        chosen.append(ranked[rng.randrange(lo, hi)])
    return chosen


def open_brace_column(text, line_index):
    column = text[line_index].find("{")
    if column < 0:
        sys.exit(f"sqlite-edit: no '{{' on line {line_index + 1}")
    return column


def closing_line(text, brace_line):
    """The index of the line with the brace that closes the one opened on
    brace_line (sqlite3.c keeps braces out of strings in function bodies
    often enough; the edits check the result compiles)."""
    depth = 0
    for index in range(brace_line, len(text)):
        for char in text[index]:
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return index
    sys.exit("sqlite-edit: unbalanced braces")


def insert_after_brace(text, line_index, code):
    column = open_brace_column(text, line_index)
    row = text[line_index]
    text[line_index] = row[:column + 1] + " " + code + " " + row[column + 1:]


def apply(text, found, edit, serial):
    kind, _, name = edit.partition(":")
    var = f"mtpc_edit_{serial}"
    if kind in ("body", "string", "line", "grow", "add", "delete"):
        if name not in found:
            sys.exit(f"sqlite-edit: no function '{name}'")
        first, brace, size = found[name]
    if kind == "body":
        insert_after_brace(text, brace - 1, f"{{ static volatile int {var}; {var}++; }}")
    elif kind == "string":
        insert_after_brace(text, brace - 1, f"{{ static const char *volatile {var}; "
                           f"{var} = \"mtpc edit {serial}\"; }}")
    elif kind == "line":
        text[brace - 1] += f"\n  {{ static volatile int {var}; {var}++; }}"
    elif kind == "grow":
        adds = " ".join(f"{var}++;" for _ in range(max(1, size // 3)))
        insert_after_brace(text, brace - 1, f"{{ static volatile int {var}; {adds} }}")
    elif kind == "add":
        # Called from NAME, so that the link keeps it.
        end = closing_line(text, brace - 1)
        insert_after_brace(text, brace - 1, f"{{ int sqlite3_{var}(int); static volatile int "
                           f"{var}; {var} = sqlite3_{var}({var}); }}")
        text[end] += (f" __attribute__((noinline)) int sqlite3_{var}(int x)"
                      f" {{ return x * 7 + 3; }}")
    elif kind == "delete":
        end = closing_line(text, brace - 1)
        for index in range(first - 1, end + 1):
            text[index] = ""
    elif kind == "init":
        declaration = re.compile(r"^[A-Za-z].*\b" + re.escape(name) + r"\b[^;(]*= *(0x[0-9a-fA-F]+|\d+)")
        for index, row in enumerate(text):
            m = declaration.match(row)
            if m:
                text[index] = row[:m.start(1)] + f"({m.group(1)}+1)" + row[m.end(1):]
                return
        sys.exit(f"sqlite-edit: no number initializes '{name}' on its declaration's line")
    elif kind == "field":
        for index, row in enumerate(text):
            if row.startswith(f"struct {name} {{"):
                end = closing_line(text, index)
                text[end] = f"  int {var};" + text[end]
                return
        sys.exit(f"sqlite-edit: no struct '{name}'")
    else:
        sys.exit(f"sqlite-edit: unknown edit '{edit}'")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("functions").add_argument("source")
    at = sub.add_parser("at")
    at.add_argument("source")
    at.add_argument("fraction", type=float)
    p = sub.add_parser("pick")
    p.add_argument("source")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=20)
    a = sub.add_parser("apply")
    a.add_argument("source")
    a.add_argument("output")
    a.add_argument("edits", nargs="+")
    b = sub.add_parser("build")
    b.add_argument("-g", dest="debug", action="store_true")
    b.add_argument("--full-lto", dest="full_lto", action="store_true")
    b.add_argument("source")
    b.add_argument("directory")
    b.add_argument("edits", nargs="*")
    args = parser.parse_args()

    found = functions(args.source) if args.command != "build" or args.edits else {}
    if args.command == "functions":
        for name in sorted(found, key=lambda n: found[n][2]):
            print(name, found[name][1], found[name][2])
    elif args.command == "pick":
        print("\n".join(pick(found, args.seed, args.count)))
    elif args.command == "at":
        lines = open(args.source).read().count("\n") + 1
        later = sorted((found[n][1], n) for n in found if found[n][1] >= args.fraction * lines)
        print(later[0][1], later[0][0])
    else:
        text = open(args.source).read().split("\n")
        inserted = sum(1 for edit in args.edits if edit.startswith("line:"))
        lines = len(text)
        for serial, edit in enumerate(args.edits):
            apply(text, found, edit, serial)
        output = args.output if args.command == "apply" else f"{args.directory}/sqlite3.c"
        text = "\n".join(text)
        assert text.count("\n") + 1 == lines + inserted
        open(output, "w").write(text)
        if args.command == "build":
            debug = ["-g"] if args.debug else []
            lto = "-flto" if args.full_lto else "-flto=thin"
            subprocess.run([f"clang-{LLVM_VERSION}", "-O2", *debug, lto, "-c", "sqlite3.c", "-o",
                            "sqlite3.o"], cwd=args.directory, check=True)


if __name__ == "__main__":
    main()
