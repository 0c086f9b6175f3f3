"""A run directory's events as irsnap's readers see them, for the
scripts (llvm-compare, mlir-compare): events.jsonl's lines, a later line
of an event (the same seq and phase) standing for the earlier and a torn
last line left out (docs/formats.md), or a version-1 manifest's list."""
import json
import os


def log_events(path):
    """The events of event log PATH, in log order, merged."""
    out, at = [], {}
    with open(path, "rb") as f:
        for line in f.read().split(b"\n")[:-1]:   # the last: "" or torn
            e = json.loads(line)
            k = (e.get("seq"), e.get("phase"))
            if k in at:
                out[at[k]] = e
            else:
                at[k] = len(out)
                out.append(e)
    return out


def run_events(run):
    path = os.path.join(run, "events.jsonl")
    if not os.path.exists(path):
        with open(os.path.join(run, "manifest.json")) as f:
            return json.load(f)["events"]
    return log_events(path)
