# scripts/bench's trace_events step, the GDB side: one run of the program
# GDB was started on (toyc --per-function), after `source gdb/irsnap.py`.
#
#   BENCH_EVENTS_MODE  untraced  no breakpoint
#                      bare      a breakpoint at each boundary irsnap
#                                breaks on (BENCH_EVENTS_BREAKS: GDB
#                                locations, one a line) whose condition is
#                                false: GDB stops, finds it false and goes
#                                on, the cheapest stop it has
#                      traced    ir-trace on (the layout BENCH_LAYOUT)
#   BENCH_EVENTS_OUT   where to write {"wchar": bytes GDB wrote, "ok": ...}
import json
import os

import gdb

MODE = os.environ["BENCH_EVENTS_MODE"]
OUT = os.environ["BENCH_EVENTS_OUT"]


def io_written():
    with open("/proc/self/io") as f:
        return dict(line.split(": ") for line in f.read().splitlines())


def main():
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    if MODE == "traced":
        gdb.execute("ir-layout load " + os.environ["BENCH_LAYOUT"],
                    to_string=True)
        gdb.execute("ir-trace on", to_string=True)
    elif MODE == "bare":
        for spec in os.environ["BENCH_EVENTS_BREAKS"].split("\n"):
            gdb.Breakpoint(spec, internal=True).condition = "0"
    before = int(io_written()["wchar"])
    gdb.execute("run", to_string=True)
    written = int(io_written()["wchar"]) - before
    json.dump({"ok": True, "wchar": written}, open(OUT, "w"))


try:
    main()
except Exception as e:     # noqa: B902 -- said in the results
    json.dump({"ok": False, "error": str(e)}, open(OUT, "w"))
