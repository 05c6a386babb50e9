#!/usr/bin/env python3
"""
CPU of a command and of every process it started, orphans included: `python3 scripts/cpu-time.py
npm test -- <file>`. /usr/bin/time counts only the processes their parents waited for, so it
misses a process that outlives its parent, such as the git helper (src/sources/git-runner.ts),
which ends when the jest worker that started it has exited. This one runs the command as a child
subreaper (orphaned descendants are handed to it), waits for every descendant and prints wall
time and their user and system CPU on standard error. docs/development.md#how-long-the-suite-takes
"""
import ctypes
import os
import resource
import sys
import time

PR_SET_CHILD_SUBREAPER = 36

libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit("cannot become a child subreaper")
start = time.time()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
code = 1
while True:
    try:
        waited, status = os.wait()
    except ChildProcessError:
        break
    if waited == pid:
        code = os.waitstatus_to_exitcode(status)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(
    f"{time.time() - start:.2f} s wall {usage.ru_utime:.2f} user {usage.ru_stime:.2f} sys (every descendant)",
    file=sys.stderr,
)
sys.exit(code if code >= 0 else 128 - code)
