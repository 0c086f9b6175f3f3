#!/usr/bin/env bash
# A flake hunt split into shards: `irsnap replay --shard K/N` run by the
# real GNU parallel, then `irsnap merge`, finds the same signatures and
# counts as one `irsnap replay` over the same attempts; -j runs attempts
# side by side; shards that die, repeat a number or come from an older
# irsnap are reported one line each and the rest is merged;
# --stop-after-failures stops every shard of the hunt.
. "$(dirname "$0")/../lib.sh"
. "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb
. "$IRSNAP_ROOT/tests/replay/replay_lib.sh"

if ! command -v parallel >/dev/null 2>&1; then
	not_ok "GNU parallel is installed" "install it: scripts/install-deps (Debian: apt-get install parallel)"
	done_testing
	exit 1
fi

# ---- which attempts crash, from toyc alone -------------------------------
expect=
for n in $(seq 1 $RUNS); do
	"$TOYC" --bug=flaky --flaky-seed=$n "$DEMO" >/dev/null 2>&1 || expect="$expect${expect:+,}$n"
done
case $expect in
*,*) ok "toyc's seeded flaky crash fails attempts $expect of $RUNS" ;;
*) not_ok "the seeded flaky crash fails at least twice in $RUNS" "failing: '$expect'" ;;
esac

# ---- one replay, -j 2 -------------------------------------------------------
"$IRSNAP" replay --runs $RUNS --all -j 2 --dir "$TMP/one" --layout "$LAYOUT" \
	-- "${PROG[@]}" >"$TMP/one.out" 2>"$TMP/one.err"
check_eq "replay -j 2 exits 1: a failure found" 1 $?
one=$(ls -d "$TMP"/one/replay-*/ | head -1)
check_eq "replay -j 2 made every attempt" $RUNS "$(json_get "$one/replay.json" 'len(d["attempts"])')"
check_eq "replay.json is irsnap.replay/2, completed, jobs 2" "irsnap.replay/2 completed 2" \
	"$(json_get "$one/replay.json" 'd["schema"] + " " + d["status"] + " " + str(d["jobs"])')"
check_eq "attempts are listed in number order" "$(seq -s, 1 $RUNS)" \
	"$(json_get "$one/replay.json" '",".join(str(a["attempt"]) for a in d["attempts"])')"
check_eq "the failing attempts are toyc's own" "$expect" \
	"$(json_get "$one/replay.json" '",".join(str(a["attempt"]) for a in d["attempts"] if a["status"] == "failed")')"
# Two debuggers at once: the attempts' start and end times overlap.
overlap=$(python3 - "$one" <<'PY'
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "replay.json")))
spans = []
for a in d["attempts"]:
    log = os.path.join(sys.argv[1], "attempt-%03d" % a["attempt"], "debugger.log")
    end = os.stat(log).st_mtime
    spans.append((end - a["seconds"], end))
spans.sort()
print(any(spans[i + 1][0] < spans[i][1] - 0.05 for i in range(len(spans) - 1)))
PY
)
check_eq "-j 2 ran two attempts at the same time" True "$overlap"
check "irsnap validate accepts the -j replay directory" "$IRSNAP" validate "$one"

# ---- four shards under GNU parallel, merged ------------------------------
parallel -j 4 --halt never "$IRSNAP" replay --runs $RUNS --all --shard {}/4 \
	--dir "$TMP/hunt" --layout "$LAYOUT" -- "${PROG[@]}" \
	'>' "$TMP/shard-{}.out" '2>&1' ::: 0 1 2 3
shards=$(ls -d "$TMP"/hunt/replay-*-s?-of-4 2>/dev/null | wc -l)
check_eq "GNU parallel ran 4 shards, one replay directory each" 4 "$shards"
ids=$(for d in "$TMP"/hunt/replay-*; do json_get "$d/replay.json" 'd["replay_id"]'; done | sort -u | wc -l)
check_eq "the shards' replay ids differ" 4 "$ids"
host=$(json_get "$(ls -d "$TMP"/hunt/replay-* | head -1)/replay.json" 'd["host"]')
case $(ls "$TMP/hunt") in *"-$host-"*) ok "the host name is in the replay id ($host)" ;;
*) not_ok "the host name is in the replay id" "$(ls "$TMP/hunt")" ;; esac
numbers=$(for d in "$TMP"/hunt/replay-*; do json_get "$d/replay.json" '"\n".join(str(a["attempt"]) for a in d["attempts"])'; done | sort -n | tr '\n' ,)
check_eq "the shards made attempts 1..$RUNS, each once" "$(seq -s, 1 $RUNS)," "$numbers"
"$IRSNAP" merge -o "$TMP/merged" "$TMP/hunt" >"$TMP/merge.out" 2>"$TMP/merge.err"
check_eq "merge exits 1: failures found" 1 $?
check_eq "merge: no problem line for four whole shards" "" "$(cat "$TMP/merge.err")"
check_files_eq "merge finds the signatures, counts and attempts of one replay" \
	<(hunt_summary "$one/replay.json") <(hunt_summary "$TMP/merged/replay.json")
check_eq "the merged document is irsnap.hunt/1 over 4 shards" "irsnap.hunt/1 4 4" \
	"$(json_get "$TMP/merged/replay.json" 'd["schema"] + " " + str(d["shard_count"]) + " " + str(len(d["shards"]))')"
first=${expect%%,*}
check_eq "first seen: the lowest failing attempt, its shard and run" \
	"$first $(( (first - 1) % 4 )) True" \
	"$(json_get "$TMP/merged/replay.json" 'str(d["groups"][0]["first_seen"]["attempt"]) + " " + str(d["groups"][0]["first_seen"]["shard"]) + " " + str(__import__("os").path.isfile(d["groups"][0]["first_seen"]["run"] + "/failure.json"))')"
per=$(json_get "$TMP/merged/replay.json" 'sum(s["count"] for s in d["groups"][0]["shards"])')
check_eq "per-shard counts add up to the group's" "$(json_get "$TMP/merged/replay.json" 'd["groups"][0]["count"]')" "$per"
check "irsnap validate accepts the merged hunt" "$IRSNAP" validate "$TMP/merged/replay.json"
check "irsnap validate accepts a shard's replay directory" "$IRSNAP" validate "$(ls -d "$TMP"/hunt/replay-* | head -1)"
grep -q '^signature  *count  shards  first' "$TMP/merge.out" &&
	ok "merge prints the table" || not_ok "merge prints the table" "$(cat "$TMP/merge.out")"

# ---- the merged hunt's page and its reduction --------------------------
"$IRSNAP" report "$TMP/merged" -o "$TMP/hunt.html" >/dev/null 2>"$TMP/report.err"
check_eq "irsnap report renders the merged hunt" 0 $?
rows=$(grep -c '<tr><td class=n>[0-3]/4</td>' "$TMP/hunt.html")
check_eq "the page has a row per shard" 4 "$rows"
grep -q 'SIGSEGV in dce at dce_function &lt; pass_dce &lt; pm_run_pass' "$TMP/hunt.html" &&
	ok "the page names the signature, escaped" || not_ok "the page names the signature" "$(head -c 600 "$TMP/hunt.html")"
grep -q "attempt $first on shard $(( (first - 1) % 4 ))" "$TMP/hunt.html" &&
	ok "the page says where the flake was first seen" || not_ok "the page says where it was first seen"
# Strings from the files are escaped: a hostile signature stays text.
cp -r "$TMP/merged" "$TMP/evil"
python3 - "$TMP/evil/replay.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["groups"][0]["signature"] = "<script>alert(1)</script>"
d["shards"][0]["host"] = "<img src=x onerror=alert(2)>"
json.dump(d, open(sys.argv[1], "w"))
PY
"$IRSNAP" report "$TMP/evil" -o "$TMP/evil.html" >/dev/null 2>&1
if grep -q '<script>\|<img' "$TMP/evil.html"; then not_ok "the hunt page escapes what the files say" "$(grep -o '<script>.\{0,20\}\|<img.\{0,20\}' "$TMP/evil.html")"
else grep -q '&lt;script&gt;alert(1)' "$TMP/evil.html" && ok "the hunt page escapes what the files say" ||
	not_ok "the hunt page shows the escaped signature"; fi
"$IRSNAP" merge -o "$TMP/merged-r" --reduce auto "$TMP/hunt" >"$TMP/merge-r.out" 2>"$TMP/merge-r.err"
check_eq "merge --reduce auto exits 1" 1 $?
check_eq "one signature, reduced" reduced \
	"$(json_get "$TMP/merged-r/replay.json" 'd["groups"][0]["reduce"]["status"]')"
red=$(json_get "$TMP/merged-r/replay.json" 'd["groups"][0]["first_seen"]["run"]')/repro/reduced.ir
if [ -f "$red" ] && [ "$(wc -l <"$red")" -lt "$(wc -l <"$DEMO")" ]; then
	ok "the first failure's input is reduced ($(wc -l <"$red") of $(wc -l <"$DEMO") lines)"
else not_ok "the first failure's input is reduced" "$(tail -3 "$TMP/merge-r.err")"; fi

# ---- bad shards: a duplicate, an older schema, one killed mid-run -------
cp -r "$(ls -d "$TMP"/hunt/replay-*-s1-of-4)" "$TMP/hunt/replay-copy-of-s1"
old=$TMP/hunt/replay-old
mkdir -p "$old"
python3 - "$(ls -d "$TMP"/hunt/replay-*-s2-of-4)/replay.json" "$old/replay.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["schema"] = "irsnap.replay/1"
for k in ("status", "host", "shard", "jobs", "stop_after_failures"):
    d.pop(k, None)
json.dump(d, open(sys.argv[2], "w"))
PY
# A shard killed with SIGKILL after its first attempts: it leaves a
# replay.json that says "running" (rewritten after every attempt).
"$IRSNAP" replay --runs 400 --all --shard 0/1 --dir "$TMP/killed" \
	--layout "$LAYOUT" -- "${PROG[@]}" >"$TMP/killed.out" 2>&1 &
kpid=$!
for _ in $(seq 1 300); do
	[ -f "$(ls -d "$TMP"/killed/replay-* 2>/dev/null | head -1)/replay.json" ] && break
	sleep 0.1
done
kill -9 $kpid; wait $kpid 2>/dev/null
pkill -9 -f "$TMP/killed/" 2>/dev/null; sleep 0.5
check_eq "the killed shard left a replay.json saying running" running \
	"$(json_get "$(ls -d "$TMP"/killed/replay-*)/replay.json" 'd["status"]')"
"$IRSNAP" merge -o "$TMP/merged2" "$TMP/hunt" >"$TMP/merge2.out" 2>"$TMP/merge2.err"
check_eq "merge with a duplicate and an old shard still merges" 1 $?
check_eq "merge: one line for each shard it leaves out" 2 "$(wc -l <"$TMP/merge2.err")"
grep -q 'shard 1/4 again' "$TMP/merge2.err" && ok "merge names the duplicate shard" ||
	not_ok "merge names the duplicate shard" "$(cat "$TMP/merge2.err")"
grep -q 'irsnap.replay/1, from an irsnap before shards' "$TMP/merge2.err" &&
	ok "merge names the older schema" || not_ok "merge names the older schema" "$(cat "$TMP/merge2.err")"
check_files_eq "the rest merges to the same result" \
	<(hunt_summary "$TMP/merged/replay.json") <(hunt_summary "$TMP/merged2/replay.json")
check_eq "the hunt's problems list the two" 2 "$(json_get "$TMP/merged2/replay.json" 'len(d["problems"])')"
"$IRSNAP" merge -o "$TMP/merged3" "$(ls -d "$TMP"/killed/replay-*)" >"$TMP/merge3.out" 2>"$TMP/merge3.err"
grep -q 'did not finish (status running' "$TMP/merge3.err" &&
	ok "merge says the killed shard did not finish, and merges what it recorded" ||
	not_ok "merge reports the killed shard" "$(cat "$TMP/merge3.err")"
"$IRSNAP" merge -o "$TMP/merged4" "$TMP/nonesuch" >/dev/null 2>"$TMP/merge4.err"
check_eq "merge of nothing mergeable exits 2" 2 $?

# ---- --stop-after-failures: the hunt stops across shards ------------------
parallel -j 2 "$IRSNAP" replay --runs 60 --all --stop-after-failures 2 \
	--shard {}/2 --dir "$TMP/stop" --layout "$LAYOUT" -- "${PROG[@]}" \
	'>' "$TMP/stop-{}.out" '2>&1' ::: 0 1
marked=$(wc -l <"$TMP/stop/hunt-failures.txt")
made=$(for d in "$TMP"/stop/replay-*; do json_get "$d/replay.json" 'len(d["attempts"])'; done | awk '{ s += $1 } END { print s + 0 }')
if [ "$marked" -ge 2 ] && [ "$made" -lt 60 ]; then
	ok "--stop-after-failures 2: $marked failures marked, $made of 60 attempts made"
else not_ok "--stop-after-failures stops the shards" "marked $marked, made $made"; fi
done_testing
