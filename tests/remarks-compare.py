#!/usr/bin/env python3
"""Compares two YAML optimization-remark files as multisets of (kind, pass,
name, function): the split compile's must be the serial one's, give or take
remarks about the functions that available_externally copies duplicate
(optimized in more than one partition, or inlined where a copy was). A
missed inlining counts whatever its reason: the split says NoDefinition for
a callee in another partition where the serial compile says TooCostly.

  remarks-compare.py SERIAL.yaml SPLIT.yaml [COPIED_FUNCTION...]
"""
import collections
import re
import sys


def remarks(path):
    found = collections.Counter()
    current = None
    with open(path) as f:
        for line in f:
            if line.startswith("--- !"):
                if current:
                    found[key(current)] += 1
                current = [line[5:].strip(), "", "", ""]
            elif current and (m := re.match(r"(Pass|Name|Function):\s+(.*)", line)):
                value = re.sub(r"\.llvm\.mtpc[0-9a-f]+", "", m.group(2).strip().strip("'"))
                current[["Pass", "Name", "Function"].index(m.group(1)) + 1] = value
    if current:
        found[key(current)] += 1
    return found


def key(remark):
    kind, pass_name, name, function = remark
    return (kind, pass_name, "" if (kind, pass_name) == ("Missed", "inline") else name, function)


def main():
    serial, split = remarks(sys.argv[1]), remarks(sys.argv[2])
    copied = set(sys.argv[3:])
    bad = [(key, serial[key], split[key]) for key in sorted(set(serial) | set(split))
           if serial[key] != split[key] and key[3] not in copied]
    print(f"serial {sum(serial.values())} remarks, split {sum(split.values())}, "
          f"{len(bad)} differing outside copied functions")
    for key, a, b in bad:
        print(f"  {a} -> {b}: {' '.join(key)}")
    sys.exit(1 if bad or not serial else 0)


if __name__ == "__main__":
    main()
