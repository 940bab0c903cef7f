"""An AddressSanitizer report without what changes from run to run
(addresses, process ids, offsets in the binary): the error's kind, where
a global is, the stack objects by their names, and the frames' functions and source lines (cc-asan.test)."""
import re
import sys

for line in open(sys.argv[1]):
    m = re.search(r"ERROR: AddressSanitizer: ([a-z-]+)", line)
    if m:
        print("ERROR: AddressSanitizer:", m.group(1))
    m = re.search(r"(located \d+ bytes \w+ global variable '[^']*' defined in '[^']*')", line)
    if m:
        print(m.group(1))
    m = re.search(r"\[\d+, \d+\) '([^']*)'", line)
    if m:
        print(f"stack object '{m.group(1)}'")
    m = re.match(r"\s*#\d+ 0x[0-9a-f]+ in (\S+) (\S+)", line)
    if m and not m.group(2).startswith("("):
        print(m.group(1), m.group(2))
