"""A MemorySanitizer report without what changes from run to run
(addresses, process ids, offsets in the binary): the warning, where the
value was created, the frames' functions and source lines, and how many
warnings a recovering program reported (cc-msan.test)."""
import re
import sys

for line in open(sys.argv[1]):
    m = re.search(r"WARNING: MemorySanitizer: ([a-z-]+)", line)
    if m:
        print("WARNING: MemorySanitizer:", m.group(1))
    m = re.search(r"(Uninitialized value was (created|stored) by [^(]*)", line)
    if m:
        print(m.group(1).strip())
    m = re.search(r"MemorySanitizer: \d+ warnings? reported", line)
    if m:
        print(m.group(0))
    m = re.match(r"\s*#\d+ 0x[0-9a-f]+ in (\S+) (\S+)", line)
    if m and not m.group(2).startswith("("):
        print(m.group(1), m.group(2))
