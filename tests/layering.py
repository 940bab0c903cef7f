#!/usr/bin/env python3
"""The layering rule, checked: each file includes only its own room and the
rooms docs/design.rst's table of rooms says it may include; every room named
there sits earlier in the table (no room includes a room above it, so rooms
have no cycle), and the files of one room include each other without a cycle.

    tests/layering.py SOURCE_DIR     (exit 1 and one line per breach)
    tests/layering.py SOURCE_DIR --edges   (the includes between rooms)"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".c", ".h", ".cpp", ".def")


def rooms_table(root):
    """[(room, [rooms it may include])] in the order of design.rst's table of
    rooms: the simple table after ".. rooms-table", whose first column is the
    room and whose last column names the rooms it may include."""
    lines = open(os.path.join(root, "docs", "design.rst")).read().split("\n")
    start = lines.index(".. rooms-table")
    borders = [i for i in range(start, len(lines)) if re.fullmatch(r"=+( +=+)+", lines[i])][:3]
    spans = [m.span() for m in re.finditer(r"=+", lines[borders[0]])]
    last_column = spans[-1][0]
    rows = []
    for line in lines[borders[1] + 1:borders[2]]:
        first, last = line[:spans[0][1]].strip(), line[last_column:]
        if first:
            rows.append((first.strip("`"), []))
        rows[-1][1].extend(re.findall(r"``([^`]+)``", last))
    return rows


def room_of(path, rooms):
    """The longest room that is a prefix of path (a directory), or None."""
    best = None
    for room in rooms:
        if path == room or path.startswith(room + "/"):
            if best is None or len(room) > len(best):
                best = room
    return best


def source_files(root, rooms):
    for room in rooms:
        for dirpath, _, names in os.walk(os.path.join(root, room)):
            for name in sorted(names):
                if name.endswith(SOURCES):
                    path = os.path.relpath(os.path.join(dirpath, name), root)
                    if room_of(path, rooms) == room:
                        yield path


def resolve(root, path, target):
    """The tree's file an #include "target" in path names, or None."""
    for base in (os.path.dirname(path), "", "include"):
        candidate = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def main():
    root = sys.argv[1]
    table = rooms_table(root)
    order = [room for room, _ in table]
    allowed = dict(table)
    problems = []
    for i, (room, may) in enumerate(table):
        for other in may:
            if other not in order[:i]:
                problems.append(f"design.rst: {room} may include {other}, "
                                "which is not a room above it in the table")
    includes = {}
    edges = set()
    for path in source_files(root, order):
        room = room_of(path, order)
        text = open(os.path.join(root, path)).read()
        includes[path] = []
        for target in INCLUDE.findall(text):
            found = resolve(root, path, target)
            if found is None:
                continue  # a system or LLVM header
            other = room_of(found, order)
            if other is None:
                problems.append(f"{path}: includes {found}, which is in no room")
                continue
            if other == room:
                includes[path].append(found)
            else:
                edges.add((room, other))
                if other not in allowed[room]:
                    problems.append(f"{path}: includes {found}: {room} may not include {other}")
    problems += file_cycles(includes)
    if "--edges" in sys.argv:
        for room, other in sorted(edges):
            print(f"{room} -> {other}")
        return 0
    for p in problems:
        print(f"layering: {p}")
    print(f"layering: {len(includes)} files in {len(order)} rooms, "
          f"{len(problems)} breaches")
    return 1 if problems else 0


def file_cycles(includes):
    """One line per include cycle among the files of a room."""
    state, found = {}, []

    def visit(path, stack):
        state[path] = "open"
        stack.append(path)
        for target in includes.get(path, []):
            if state.get(target) == "open":
                cycle = stack[stack.index(target):] + [target]
                found.append("include cycle: " + " -> ".join(cycle))
            elif target not in state:
                visit(target, stack)
        stack.pop()
        state[path] = "done"

    for path in sorted(includes):
        if path not in state:
            visit(path, [])
    return found


if __name__ == "__main__":
    sys.exit(main())
