#!/usr/bin/env python3
"""with-jobserver.py DIR TOKENS CMD...: runs CMD with a GNU make jobserver
(a FIFO in DIR holding TOKENS tokens, named in MAKEFLAGS as make 4.4 does),
then prints how many tokens are back in the FIFO. Exits with CMD's status."""
import os
import subprocess
import sys

directory, tokens, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
fifo = os.path.join(directory, "jobserver.fifo")
if os.path.exists(fifo):
    os.unlink(fifo)
os.mkfifo(fifo)
fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # keeps the tokens alive
os.write(fd, b"+" * tokens)
env = dict(os.environ, MAKEFLAGS=f"-j{tokens + 1} --jobserver-auth=fifo:{fifo}")
status = subprocess.run(command, env=env).returncode
back = 0
try:
    while os.read(fd, 1):
        back += 1
except BlockingIOError:
    pass
print(f"tokens back: {back}")
sys.exit(status)
