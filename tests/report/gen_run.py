#!/usr/bin/env python3
"""Writes a synthetic run directory of N passes, fast, for scale tests of
`irsnap show`, `report` and `validate` (tracing 40,000 passes under a
debugger would take hours).

usage: gen_run.py DIR N [--changed K] [--names M] [--lines L]
  every K-th pass changes the IR (default 10), the others leave it alone;
  pass names cycle through M distinct names (default 50); the IR has L
  instructions (default 1), every one of them changed by a change.

The snapshots are small but real: their text, JSON graph, byte counts and
XXH64 hashes agree with the manifest, so `irsnap validate DIR` passes.
"""
import functools
import json
import os
import sys

M64 = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F,
                      0x165667B19E3779F9, 0x85EBCA77C2B2AE63,
                      0x27D4EB2F165667C5)


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def rnd(acc, lane):
    acc = (acc + lane * P2) & M64
    return (rotl(acc, 31) * P1) & M64


def merge(acc, v):
    acc ^= rnd(0, v)
    return (acc * P1 + P4) & M64


def xxh64(data, seed=0):
    """XXH64, as libxxhash computes it (irsnap hashes snapshot text so)."""
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M64, (seed + P2) & M64, seed,
             (seed - P1) & M64]
        while i + 32 <= n:
            for k in range(4):
                v[k] = rnd(v[k], int.from_bytes(data[i:i + 8], "little"))
                i += 8
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) +
             rotl(v[3], 18)) & M64
        for k in range(4):
            h = merge(h, v[k])
    else:
        h = (seed + P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        h ^= rnd(0, int.from_bytes(data[i:i + 8], "little"))
        h = (rotl(h, 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h ^= (int.from_bytes(data[i:i + 4], "little") * P1) & M64
        h = (rotl(h, 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h ^= (data[i] * P5) & M64
        h = (rotl(h, 11) * P1) & M64
        i += 1
    h ^= h >> 33
    h = (h * P2) & M64
    h ^= h >> 29
    h = (h * P3) & M64
    h ^= h >> 32
    return h


def ir_text(version, lines=1):
    body = "".join("  %%%d = add %d, %d\n" % (i + 1, i, version)
                   for i in range(lines))
    return ("module m\nfunc @main() {\nentry:\n%s  ret %%1\n}\n"
            % body).encode()


@functools.lru_cache(maxsize=None)
def snapshot_parts(version, text):
    """What a snapshot of @p text holds besides its text file's name,
    made once per version (pure-Python XXH64 is the slow part)."""
    nodes = [
        {"id": "0x1000", "type": "Module", "parent": None, "fields": {}},
        {"id": "0x2000", "type": "Function", "parent": "0x1000",
         "span": [9, len(text)], "fields": {"name": "main"}},
        {"id": "0x3000", "type": "Instr", "parent": "0x2000",
         "span": [30, 45], "fields": {"op": "add", "k": version}},
    ]
    stats = {"nodes": len(nodes), "bytes": 96, "text_bytes": len(text),
             "walk_errors": 0, "truncated": False,
             "hash": "%016x" % xxh64(text)}
    return ",\n".join(json.dumps(x) for x in nodes), json.dumps(stats), stats


ir_text_once = functools.lru_cache(maxsize=None)(ir_text)


def snapshot_json(text_file, version, text):
    nodes, stats_json, stats = snapshot_parts(version, text)
    doc = ('{"schema":"irsnap.snapshot/1",\n"layout":"gen",\n'
           '"root":{"address":"0x1000","type":"Module"},\n'
           '"text_file":%s,\n"nodes":[\n%s\n],\n"errors":[\n\n],\n'
           '"stats":%s}\n' % (json.dumps(text_file), nodes, stats_json))
    return doc.encode(), stats


def main():
    args = sys.argv[1:]
    opts = {"--changed": 10, "--names": 50, "--lines": 1}
    pos = []
    while args:
        a = args.pop(0)
        if a in opts:
            opts[a] = int(args.pop(0))
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.exit(__doc__)
    root, n = pos[0], int(pos[1])
    snaps = os.path.join(root, "snapshots")
    os.makedirs(snaps, exist_ok=True)
    events, version = [], 0
    for seq in range(1, n + 1):
        name = "pass%d" % (seq % opts["--names"])
        for phase in ("before", "after"):
            if phase == "after" and seq % opts["--changed"] == 0:
                version += 1
            base = "%04d-%s.%s" % (seq, name, phase)
            text = ir_text_once(version, opts["--lines"])
            jdoc, st = snapshot_json(base + ".ir", version, text)
            with open(os.path.join(snaps, base + ".ir"), "wb") as f:
                f.write(text)
            with open(os.path.join(snaps, base + ".json"), "wb") as f:
                f.write(jdoc)
            ev = {"seq": seq, "pass": name, "phase": phase,
                  "snapshot": {"text": "snapshots/" + base + ".ir",
                               "json": "snapshots/" + base + ".json"},
                  "nodes": st["nodes"], "bytes": st["bytes"],
                  "text_bytes": st["text_bytes"], "json_bytes": len(jdoc),
                  "truncated": False, "hash": st["hash"], "walk_errors": 0,
                  "cpu_s": None, "verifiers": []}
            if phase == "after":
                ev["cpu_s"] = 0.0001 * (seq % 7)
                ev["changed"] = seq % opts["--changed"] == 0
            events.append(ev)
    man = {"schema": "irsnap.manifest/1", "run_id": "20260101-000000-1",
           "irsnap_version": "0.1.0", "created": "2026-01-01T00:00:00Z",
           "updated": "2026-01-01T00:00:00Z", "status": "completed",
           "exit_status": 0, "debugger": "gen_run.py",
           "debuggee": {"exe": "/bin/true", "args": None, "pid": 1},
           "layout": {"path": None, "name": "gen"},
           "options": {"changed_only": False, "formats": ["text", "json"]},
           "events": events, "failure": None}
    # one event a line: readable, and json's C encoder (indent= is Python)
    with open(os.path.join(root, "manifest.json"), "w") as f:
        head = json.dumps(dict(man, events=[]))
        f.write(head[:head.rindex('"events": []')] + '"events": [\n')
        f.write(",\n".join(json.dumps(e) for e in events))
        f.write(head[head.rindex('"events": []') + len('"events": ['):] + "\n")


if __name__ == "__main__":
    main()
