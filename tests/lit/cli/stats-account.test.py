"""Reads mtpc plan's output and two --stats=account reports (stats-account.test)."""
import re
import sys

COLUMNS = ("job", "load", "target", "own", "copies", "clones", "module", "codegen",
           "codegen_clones", "release", "rest")


def accounts(path):
    rows = {}
    for line in open(path):
        m = re.match(r"\s*account (\d+) (.*)", line)
        if m:
            rows[int(m.group(1))] = dict(zip(COLUMNS, map(float, m.group(2).split())))
    return rows


def planned(path, kind):
    """Partitions whose plan lists a `kind` (clone, copy) function."""
    found, partition = set(), None
    for line in open(path):
        m = re.match(r"partition (\d+):", line)
        if m:
            partition = int(m.group(1))
        elif line.split()[:2] == [kind, "function"]:
            found.add(partition)
    return found


def within(name, rows):
    # The parts are measured inside the job's own interval; the clock's
    # granularity is nanoseconds, the report's 0.1 ms.
    bad = [p for p, r in rows.items() if r["rest"] < -0.0002 or r["job"] <= 0]
    print(f"{name}: {len(rows)} jobs, " + ("each within its CPU" if not bad else f"over: {bad}"))


plan, split, serial = sys.argv[1:]
rows = accounts(split)
within("split", rows)
clones, copies = planned(plan, "clone"), planned(plan, "copy")
optimized = {p for p, r in rows.items() if r["clones"] > 0}
generated = {p for p, r in rows.items() if r["codegen_clones"] > 0}
copied = {p for p, r in rows.items() if r["copies"] > 0}
# A clone is code-generated only where it is kept (clone_keepers.h).
if optimized != clones or not generated <= clones or copied != copies:
    print(f"split: planned clones {sorted(clones)} copies {sorted(copies)}; "
          f"accounted {sorted(optimized)} {sorted(generated)} {sorted(copied)}")
print(f"split: clones optimized in {len(optimized)} partitions, code-generated in {len(generated)}")
print(f"split: copies optimized in {len(copied)} partitions")
rows = accounts(serial)
within("serial", rows)
extra = sum(r["copies"] + r["clones"] + r["codegen_clones"] for r in rows.values())
print("serial: " + ("no copies, no clones" if extra == 0 else f"{extra} s of copies and clones"))
