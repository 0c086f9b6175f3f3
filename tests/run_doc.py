"""A run directory as irsnap's readers see it, for the tests.

irsnap.manifest/2 keeps the run's header and summary in manifest.json and
its events in events.jsonl, one JSON object a line; a later line of an
event (the same seq and phase) stands for the earlier one, and a last line
without its newline (a debugger killed as it wrote it) is ignored.
irsnap.manifest/1 (earlier runs) kept the events in the manifest.

    python3 tests/run_doc.py RUN PYEXPR   prints PYEXPR, `d` the run
    import run_doc; run_doc.load(RUN)      the same document
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), "..", "scripts"))
from irsnap_run import log_events  # noqa: E402


def events(run):
    """The events of RUN's events.jsonl, in log order, merged."""
    return log_events(os.path.join(run, "events.jsonl"))


def edit_events(run, fn):
    """Rewrites RUN's events.jsonl with fn(event) applied to each line's
    event (to forge runs)."""
    path = os.path.join(run, "events.jsonl")
    with open(path) as f:
        evs = [json.loads(line) for line in f if line.strip()]
    with open(path, "w") as f:
        for ev in evs:
            fn(ev)
            f.write(json.dumps(ev) + "\n")


def load(run):
    """RUN's manifest, with its events as "events" (both versions)."""
    with open(os.path.join(run, "manifest.json")) as f:
        d = json.load(f)
    if d.get("schema") != "irsnap.manifest/1":
        d["events"] = events(run)
    return d


if __name__ == "__main__":
    d = load(sys.argv[1])
    print(eval(sys.argv[2]))
