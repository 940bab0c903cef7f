"""Runs a command that must fail on its command line: exit status 2, one
line on standard error (copied to standard output, for FileCheck), nothing
else on standard output, and no file at the path after -o."""
import os
import subprocess
import sys

args = sys.argv[1:]
run = subprocess.run(args, capture_output=True, text=True)
output = args[args.index("-o") + 1] if "-o" in args else None
problems = []
if run.returncode != 2:
    problems.append(f"exit status {run.returncode}, not 2")
if len(run.stderr.splitlines()) != 1:
    problems.append(f"{len(run.stderr.splitlines())} lines on standard error, not 1")
if run.stdout:
    problems.append("output on standard output")
if output and os.path.exists(output):
    problems.append(f"{output} was written")
sys.stdout.write(run.stderr)
for problem in problems:
    print("usage-error.py: " + problem)
sys.exit(1 if problems else 0)
