#!/usr/bin/env python3
"""How many partitions hold code whose lines a line inserted at LINE moves.

  moved-partitions.py DIR LINE

DIR holds the partitions of a link with --save-temps and
--thinlto-mtpc-jobs (<module>.part<K>.3.import.bc, each partition's module
as formed). A partition holds moved code when its module has a location, a
defined subprogram or a defined variable on a line after LINE: what it owns,
copies or imports from there, and what clang inlined from there into its
functions. Lines are not told apart by file, so LINE must lie beyond the
last line of the other sources linked (shell.c: about 30,000).

Prints one line per module: its name, the partitions that hold moved code
and how many partitions it has.
"""
import glob
import os
import re
import subprocess
import sys

# The LLVM whose tools build and read the inputs (the build under test).
LLVM_VERSION = os.environ.get("MTPC_LLVM_VERSION", "19")

LINES = re.compile(r'(?:!DILocation\(line: |distinct !DISubprogram\(.*?line: '
                   r'|distinct !DIGlobalVariable\(.*?line: )(\d+)')
PART = re.compile(r'^(.*)\.part(\d+)\.3\.import\.bc$')


def holds_moved(path, line):
    ir = subprocess.run([f"llvm-dis-{LLVM_VERSION}", path, "-o", "-"], check=True, capture_output=True,
                        text=True).stdout
    return any(int(found) > line for found in LINES.findall(ir))


def main():
    directory, line = sys.argv[1], int(sys.argv[2])
    modules = {}
    for path in glob.glob(os.path.join(directory, "*.part*.3.import.bc")):
        m = PART.match(os.path.basename(path))
        if m:
            modules.setdefault(m.group(1), []).append(path)
    for module in sorted(modules):
        moved = sum(holds_moved(path, line) for path in modules[module])
        print(module, moved, len(modules[module]))


if __name__ == "__main__":
    main()
