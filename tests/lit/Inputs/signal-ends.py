"""Ends a command with a signal while it waits, and says what it left.

  signal-ends.py SIGNAL TMPDIR FIFO PATTERN -- COMMAND...

Runs COMMAND with TMPDIR set, alone in its own session (so the signal
reaches it alone, as `timeout` or `kill` sends one, not its children).
Once a file matching PATTERN is in TMPDIR (the command is then waiting on
a child that reads FIFO, which no one writes), sends SIGNAL (TERM, INT,
HUP) to the command and waits for it. Prints how it ended, what it left in
TMPDIR, and whether anything still has FIFO open for reading: a child that
outlived it."""
import errno
import fnmatch
import os
import signal
import subprocess
import sys
import time

name, tmpdir, fifo, pattern = sys.argv[1:5]
command = sys.argv[sys.argv.index("--") + 1:]
number = getattr(signal, "SIG" + name)


def left():
    found = []
    for root, dirs, files in os.walk(tmpdir):
        found += [os.path.relpath(os.path.join(root, f), tmpdir) for f in dirs + files]
    return sorted(found)


def default_disposition():
    # A shell's background job starts with SIGINT ignored, and an ignored
    # signal stays ignored across exec: the command must see the default.
    signal.signal(number, signal.SIG_DFL)


env = dict(os.environ, TMPDIR=tmpdir)
child = subprocess.Popen(command, env=env, start_new_session=True,
                         preexec_fn=default_disposition)
deadline = time.time() + 120
while not any(fnmatch.fnmatch(os.path.basename(f), pattern) for f in left()):
    if child.poll() is not None or time.time() > deadline:
        print("the command never got to", pattern, "(exit", child.poll(), ")")
        os.killpg(child.pid, signal.SIGKILL)
        sys.exit(1)
    time.sleep(0.05)
time.sleep(0.2)
child.send_signal(number)
try:
    status = child.wait(timeout=60)
except subprocess.TimeoutExpired:
    print("the command did not end")
    os.killpg(child.pid, signal.SIGKILL)
    sys.exit(1)
print("ended by", "SIG" + name if status == -number else "exit %d" % status)
print("left:", " ".join(left()) or "nothing")
try:
    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    os.close(fd)  # the reader that outlived it gets its end of file and goes
    print("fifo reader: still there")
except OSError as e:
    print("fifo reader:", "none" if e.errno == errno.ENXIO else e.strerror)
