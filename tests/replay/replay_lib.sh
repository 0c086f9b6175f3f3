# What the hunt tests (tests/replay/test_*.sh) share; source it after
# tests/lib.sh and tests/e2e/debugger.sh.

# The hunt: toyc's flaky crash, seeded by the attempt number, so the same
# attempt fails or not whichever shard or machine runs it.
PROG=("$TOYC" --bug=flaky '--flaky-seed={attempt}' "$DEMO")
RUNS=12
export IRSNAP_ROOT

# hunt_summary FILE: "signature count attempts" per group of a replay.json
# (irsnap.replay/2 or irsnap.hunt/1), sorted, then the attempt and failure
# counts: what two hunts over the same attempts must agree on.
hunt_summary() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for g in sorted(d["groups"], key=lambda g: g["signature"]):
    print(g["signature"], g["count"], ",".join(map(str, g["attempts"])))
print("attempts", d["attempts"] if isinstance(d["attempts"], int) else len(d["attempts"]),
      "failures", d["failures"])
PY
}
