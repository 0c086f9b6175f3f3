# GDB, for scripts/bench's LLVM step: what stopping at llvm14.lua's
# boundaries costs without irsnap. A breakpoint at the entry of each
# function pass's run in libLLVM (the symbols whose names
# $BENCH_LLVM_RE matches, read with nm as irsnap reads them itself), and
# one at each return address seen (frame 1's pc at an entry), as
# `after = "caller"` has; each lets opt-14 go on at once.
import os
import re
import subprocess

import gdb

PATTERN = re.compile(os.environ["BENCH_LLVM_RE"])
LIB = os.environ["BENCH_LLVM_LIB"]
SEEN = set()
RETURNS = []


class Return(gdb.Breakpoint):
    def stop(self):
        return False


class Entry(gdb.Breakpoint):
    def stop(self):
        pc = gdb.newest_frame().older().pc()
        if pc not in SEEN:
            SEEN.add(pc)
            RETURNS.append(Return("*%d" % pc, internal=True))
        return False


def forget(_event):
    # return addresses are the process's: gone with it (irsnap keeps its
    # own while the process lives, too)
    for b in RETURNS:
        b.delete()
    RETURNS.clear()
    SEEN.clear()


def names():
    out = subprocess.run(["nm", "-D", "--demangle", "--defined-only", LIB],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "TW":
            name = parts[2].split("@@")[0]
            if PATTERN.search(name):
                yield name


gdb.execute("set breakpoint pending on")
gdb.events.exited.connect(forget)
N = 0
for n in names():
    Entry("'%s'" % n, internal=True)
    N += 1
print("@@breaks %d" % N)
