#!/usr/bin/env python3
"""Writes the replay directories of a synthetic sharded hunt, fast, for
merge's scale and hostile-count tests (a real hunt of 200,000 attempts
would take days).

usage: gen_shards.py DIR SHARDS GROUPS ATTEMPTS [--count C]
  DIR/replay-...-sK-of-SHARDS/replay.json for K in 0..SHARDS-1, each
  schema-valid irsnap.replay/2 with GROUPS groups (signatures shared by
  every shard) of ATTEMPTS attempts each, the hunt's attempt numbers
  dealt round-robin over the shards (attempt a on shard (a - 1) % SHARDS,
  as `irsnap replay --shard` deals them); --count C: every group and
  shard claims C failures, whatever it lists.
"""
import json
import os
import sys


def main():
    args = sys.argv[1:]
    count = None
    if "--count" in args:
        i = args.index("--count")
        count = int(args[i + 1])
        del args[i:i + 2]
    out, nsh, ngroups, per = args[0], int(args[1]), int(args[2]), int(args[3])
    for k in range(nsh):
        rid = "20260101-000000-host-1-s%d-of-%d" % (k, nsh)
        d = os.path.join(out, "replay-" + rid)
        os.makedirs(d, exist_ok=True)
        groups, a = [], k + 1
        for g in range(ngroups):
            ats = list(range(a, a + per * nsh, nsh))
            a += per * nsh
            groups.append({
                "signature": "SIGSEGV in p%d at f%d < g < h" % (g, g),
                "signal": "SIGSEGV", "pass": "p%d" % g,
                "frames": ["f%d" % g, "g", "h"],
                "count": count if count is not None else per,
                "first_attempt": ats[0], "attempts": ats,
                "run": "attempt-%03d/20260101-000000-%d" % (ats[0], ats[0]),
                "reduce": None})
        doc = {"schema": "irsnap.replay/2", "replay_id": rid,
               "status": "completed", "host": "host",
               "shard": {"index": k, "count": nsh}, "jobs": 1,
               "stop_after_failures": None, "debugger": "gdb",
               "debugger_exe": "/usr/bin/gdb", "layout": "/x/toyc.lua",
               "trace": None,
               "command": ["/x/toyc", "--bug=flaky", "demo.ir"],
               "runs": max(1, a - 1), "all": True, "reduce": None,
               "failures": count if count is not None else ngroups * per,
               "timeouts": 0, "attempts": [], "groups": groups}
        with open(os.path.join(d, "replay.json"), "w") as f:
            json.dump(doc, f)


if __name__ == "__main__":
    main()
