# The GDB side of `make bench` (scripts/bench): runs inside GDB, after
# `source gdb/irsnap.py`, and times only the work itself, with
# time.perf_counter() around gdb.execute(); GDB's start-up and the
# debuggee's run up to the stop are timed apart and never subtracted from
# or added to a figure.
#
# Environment (set by scripts/bench):
#   BENCH_MODE      live: stop at the first pm_run_pass, then ir-dump, the
#                   memory high-water mark, gcore, call toyc_print(), and
#                   the Python baseline;
#                   core: ir-dump on the core file GDB was started with;
#                   trace: untraced runs, then traced runs (ir-trace on);
#                   onefunc: ir-dump -f text at the first pm_run_pass of
#                   a pipeline of `commute` passes (each changes one
#                   function), then untraced and text-traced runs of it
#   BENCH_WORK      directory for outputs; results go to
#                   BENCH_WORK/gdb-MODE.json
#   BENCH_LAYOUT    the toyc layout
#   BENCH_RUNS      runs per figure (3)
#   BENCH_PY_RUNS   runs of the Python baseline (3; 0 skips it)
#   BENCH_HELPERS   this directory (tests/bench)
import json
import os
import re
import shutil
import time

import gdb

WORK = os.environ["BENCH_WORK"]
MODE = os.environ["BENCH_MODE"]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
PY_RUNS = int(os.environ.get("BENCH_PY_RUNS", "3"))
HERE = os.environ["BENCH_HELPERS"]
results = {}

SUMMARY = re.compile(r"^ir-dump: .* at 0x[0-9a-f]+: (\d+) nodes, (\d+) bytes "
                     r"read, (\d+) walk errors?.*, ([0-9.]+) s$", re.M)


def timed(cmd):
    """Runs a GDB command; returns (seconds, what it printed)."""
    t0 = time.perf_counter()
    out = gdb.execute(cmd, to_string=True)
    return time.perf_counter() - t0, out


def status_kb():
    """GDB's own VmRSS and VmHWM, in kB (/proc/self/status)."""
    kb = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, val = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                kb[key] = int(val.split()[0])
    return kb


def ir_dump(key):
    """RUNS timed `ir-dump -f text -o FILE m`: whole-command times, and
    the console's own walk-and-write times from its summary line."""
    whole, console = [], []
    for i in range(RUNS):
        path = os.path.join(WORK, "%s.%d.ir" % (key, i))
        secs, out = timed("ir-dump -f text -o %s m" % path)
        s = SUMMARY.search(out)
        if not s:
            raise gdb.GdbError("bench: no ir-dump summary in: " + out)
        if int(s.group(3)):
            raise gdb.GdbError("bench: walk errors: " + out)
        whole.append(secs)
        console.append(float(s.group(4)))
        results[key + "_nodes"] = int(s.group(1))
        results[key + "_bytes_read"] = int(s.group(2))
    results[key] = whole
    results[key + "_console"] = console


def call_print():
    """RUNS timed `call toyc_print(m, f)`: the file is opened before and
    closed after the timed call (toyc_print flushes it itself)."""
    times = []
    for i in range(RUNS):
        path = os.path.join(WORK, "dump_gdb_call.%d.ir" % i)
        gdb.execute('set $bench_f = ((FILE *(*)(const char *, '
                    'const char *))fopen)("%s", "w")' % path)
        if int(gdb.parse_and_eval("$bench_f")) == 0:
            raise gdb.GdbError("bench: the debuggee cannot open " + path)
        secs, _ = timed("call toyc_print(m, $bench_f)")
        gdb.execute("call (int)fclose($bench_f)", to_string=True)
        times.append(secs)
    results["dump_gdb_call"] = times


def python_walk():
    gdb.execute("source " + os.path.join(HERE, "gdb_python_dump.py"))
    times = []
    for i in range(PY_RUNS):
        path = os.path.join(WORK, "dump_gdb_python.%d.ir" % i)
        secs, _ = timed("bench-py-dump m " + path)
        times.append(secs)
    results["dump_gdb_python"] = times


def run_to_stop():
    gdb.execute("break pm_run_pass", to_string=True)
    secs, _ = timed("run")
    results["run_to_stop"] = secs
    if gdb.selected_frame().name() != "pm_run_pass":
        raise gdb.GdbError("bench: toyc did not stop in pm_run_pass")


def live():
    run_to_stop()
    before = status_kb()
    ir_dump("dump_gdb")
    after = status_kb()
    results["rss_before_kb"] = before["VmRSS"]
    results["hwm_before_kb"] = before["VmHWM"]
    results["hwm_after_kb"] = after["VmHWM"]
    # The core of the same state, for BENCH_MODE=core (not timed).
    gdb.execute("gcore " + os.path.join(WORK, "core"), to_string=True)
    call_print()
    python_walk()


def core():
    ir_dump("dump_core")


def trace_runs(key):
    """RUNS timed `run`s to the end of the program; each run's directory
    is removed after it (not timed), as it holds hundreds of MB."""
    runs_dir = os.environ["IRSNAP_DIR"]
    times = []
    for i in range(RUNS):
        secs, out = timed("run")
        times.append(secs)
        latest = os.path.join(runs_dir, "latest")
        if os.path.islink(latest):
            run = os.path.realpath(latest)
            if i == RUNS - 1:
                # Keep the last one for the driver's checks.
                keep = os.path.join(WORK, key + ".run")
                shutil.rmtree(keep, ignore_errors=True)
                os.rename(run, keep)
            else:
                shutil.rmtree(run)
            os.unlink(latest)
    results[key] = times


def trace():
    trace_runs("untraced")
    gdb.execute("ir-trace on", to_string=True)
    trace_runs("traced")
    gdb.execute("set irsnap format text")
    trace_runs("traced_text")


def onefunc():
    """The full walk and the trace of passes that change one function,
    on the same module: the walk at the first stop, then whole runs."""
    run_to_stop()
    ir_dump("full_walk")
    gdb.execute("kill", to_string=True)
    gdb.execute("delete", to_string=True)
    trace_runs("onefunc_untraced")
    gdb.execute("ir-trace on", to_string=True)
    gdb.execute("set irsnap format text")
    trace_runs("onefunc_traced")


try:
    gdb.execute("ir-layout load " + os.environ["BENCH_LAYOUT"],
                to_string=True)
    {"live": live, "core": core, "trace": trace,
     "onefunc": onefunc}[MODE]()
    results["ok"] = True
except Exception as e:  # gdb.error, gdb.GdbError, OSError: say it
    results["ok"] = False
    results["error"] = "%s: %s" % (type(e).__name__, e)
with open(os.path.join(WORK, "gdb-%s.json" % MODE), "w") as f:
    json.dump(results, f, indent=1)
