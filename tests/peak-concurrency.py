#!/usr/bin/env python3
"""peak-concurrency.py TRACE PEAK: succeeds when at most PEAK, and at some
moment exactly PEAK, "mtpc partition" events of a Chrome time trace overlap."""
import json
import sys

trace, wanted = sys.argv[1], int(sys.argv[2])
events = [e for e in json.load(open(trace))["traceEvents"]
          if e.get("ph") == "X" and e["name"] == "mtpc partition"]
# An end sorts before a start at the same moment: they do not overlap.
edges = sorted([(e["ts"], 1) for e in events] + [(e["ts"] + e["dur"], -1) for e in events])
busy = peak = 0
for _, step in edges:
    busy += step
    peak = max(peak, busy)
print(f"{len(events)} partitions, at most {peak} compiling at once")
sys.exit(0 if peak == wanted else 1)
