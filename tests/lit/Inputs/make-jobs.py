#!/usr/bin/env python3
"""make-jobs.py DIR COUNT [JOB=FLAG...]: a DTLTO job file, DIR/jobs.json, of
COUNT jobs run by fake-backend.sh; job i reads DIR/mod<i>.o (written here,
100*i bytes, so the last job is the largest) and writes DIR/out<i>.o. JOB=FLAG
gives job JOB an extra argument (--fail, --no-output)."""
import json
import os
import sys

directory, count = sys.argv[1], int(sys.argv[2])
extra = dict(arg.split("=") for arg in sys.argv[3:])
fake = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake-backend.sh")
jobs = []
for i in range(count):
    module = os.path.join(directory, f"mod{i}.o")
    with open(module, "w") as f:
        f.write("x" * (100 * i))
    args = [module, "-o", os.path.join(directory, f"out{i}.o")] + (
        [extra[str(i)]] if str(i) in extra else [])
    jobs.append({"args": args, "inputs": [module], "outputs": [args[2]]})
document = {"common": {"linker_output": "prog", "args": [fake, directory], "inputs": []},
            "jobs": jobs}
with open(os.path.join(directory, "jobs.json"), "w") as f:
    json.dump(document, f, indent=1)
