"""partition-load.test and partition-load-variables.test: the memory of the
partition that owns the probe function (its symbol the third argument, else
C++'s probe(Probe *)), in two compiles (PREFIX.plan and PREFIX.stats each),
and how much the module and that memory grew from the first to the second."""
import os
import re
import sys


def probe_memory(prefix, symbol):
    with open(prefix + ".plan") as f:
        partition = None
        for line in f:
            m = re.match(r"partition (\d+):", line)
            if m:
                partition = m.group(1)
            elif re.search(r"function %s " % re.escape(symbol), line):
                break
    with open(prefix + ".stats") as f:
        for line in f:
            fields = line.split()
            if len(fields) == 10 and fields[0] == partition:
                return float(fields[8])
    sys.exit("no stats for partition %s of %s" % (partition, prefix))


small, large = sys.argv[1], sys.argv[2]
symbol = sys.argv[3] if len(sys.argv) > 3 else "_Z5probeP5Probe"
grew = os.path.getsize(large + ".bc") / os.path.getsize(small + ".bc")
print("bitcode grew %.1fx" % grew)
a, b = probe_memory(small, symbol), probe_memory(large, symbol)
print("probe's partition memory grew %.2fx (%.1f -> %.1f MiB)" % (b / a, a, b))
