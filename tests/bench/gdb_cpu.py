# CPU seconds rather than wall seconds for what scripts/bench times, for a
# machine others are loading (not part of `make test` or `make bench`).
# A GDB script, after `source gdb/irsnap.py`, with the toyc layout in
# BENCH_LAYOUT and toyc started by `--args`:
#
#   dump   (toyc INPUT -o /dev/null): at the first pm_run_pass, RUNS x
#          ir-dump -f text, in GDB's own CPU time, against RUNS x call
#          toyc_print(m, f), in the inferior's (its schedstat)
#   trace  (toyc [--passes=...] INPUT -o /dev/null): RUNS runs untraced,
#          then RUNS with ir-trace on (text), in GDB's CPU time
#   stops  (same): RUNS runs untraced, then RUNS with two bare
#          breakpoints (a Python stop() that returns False) where
#          ir-trace stops, in wall time: what the debugger's stops cost
#
# BENCH_CPU_MODE picks one; BENCH_RUNS (3); BENCH_WORK (/tmp) for files.
# Prints one line "RESULT ..." with the best of the runs.
import os
import re
import time

import gdb

MODE = os.environ.get("BENCH_CPU_MODE", "dump")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
WORK = os.environ.get("BENCH_WORK", "/tmp")


def inferior_cpu(pid):
    """The inferior's CPU seconds (ns resolution) from its schedstat."""
    with open("/proc/%d/task/%d/schedstat" % (pid, pid)) as f:
        return int(f.read().split()[0]) / 1e9


def dump():
    gdb.execute("break pm_run_pass", to_string=True)
    gdb.execute("run", to_string=True)
    pid = gdb.selected_inferior().pid
    walk, call = [], []
    for _ in range(RUNS):
        c0 = time.process_time()
        gdb.execute("ir-dump -f text -o %s/gdb_cpu.ir m" % WORK,
                    to_string=True)
        walk.append(time.process_time() - c0)
    for _ in range(RUNS):
        gdb.execute('set $bench_f = ((FILE *(*)(const char *, '
                    'const char *))fopen)("%s/gdb_cpu_call.ir", "w")'
                    % WORK)
        c0 = inferior_cpu(pid)
        gdb.execute("call toyc_print(m, $bench_f)", to_string=True)
        call.append(inferior_cpu(pid) - c0)
        gdb.execute("call (int)fclose($bench_f)", to_string=True)
    print("RESULT dump_gdb_cpu %.3f dump_gdb_call_cpu %.3f ratio %.2f"
          % (min(walk), min(call), min(walk) / min(call)))


def runs(clock):
    times = []
    for _ in range(RUNS):
        t0 = clock()
        gdb.execute("run", to_string=True)
        times.append(clock() - t0)
    return min(times)


def trace():
    untraced = runs(time.process_time)
    gdb.execute("ir-trace on", to_string=True)
    gdb.execute("set irsnap format text")
    traced = runs(time.process_time)
    print("RESULT untraced_cpu %.3f traced_text_cpu %.3f overhead %.3f"
          % (untraced, traced, traced - untraced))


class _Bare(gdb.Breakpoint):
    hits = 0

    def stop(self):
        _Bare.hits += 1
        return False


def stops():
    untraced = runs(time.perf_counter)
    # where ir-trace stops, once the program is loaded and relocated
    gdb.execute("ir-trace on", to_string=True)
    info = gdb.execute("info breakpoints", to_string=True)
    gdb.execute("ir-trace off", to_string=True)
    where = re.findall(r"(0x[0-9a-f]+)\s+in\s+\S+", info)
    bps = [_Bare("*" + a) for a in where]
    stopped = runs(time.perf_counter)
    hits = _Bare.hits // RUNS
    for bp in bps:
        bp.delete()
    print("RESULT untraced %.3f bare_stops %.3f stops_per_run %d "
          "per_stop_ms %.3f" % (untraced, stopped, hits,
                                (stopped - untraced) / max(hits, 1) * 1e3))


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("ir-layout load " + os.environ["BENCH_LAYOUT"], to_string=True)
{"dump": dump, "trace": trace, "stops": stops}[MODE]()
