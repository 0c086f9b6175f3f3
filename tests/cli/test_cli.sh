#!/usr/bin/env bash
# `irsnap validate`, `irsnap show` and `irsnap diff` through build/irsnap:
# on a run directory written here by hand (every member known), on damaged
# copies of it, and on real runs traced by GDB over toyc, including one
# whose debugger was SIGKILLed mid-trace.
source "$(dirname "$0")/../lib.sh"

# {==== A run written by hand =============================================

ID=20261130-051500-4242
RUNS=$TMP/runs
RUN=$RUNS/$ID
mkdir -p "$RUN/snapshots"
ln -s "$ID" "$RUNS/latest"

# xxh64 FILE: the file's XXH64 as irsnap hashes snapshot text.
xxh64() {
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import gen_run
print("%016x" % gen_run.xxh64(open(sys.argv[2], "rb").read()))' \
		"$IRSNAP_ROOT/tests/report" "$1"
}
snapshot_json() {	# NAME TEXTFILE NODES...(id:type:parent)
	local name=$1 text=$2; shift 2
	local nodes="" sep="" n=0 id type parent
	for spec in "$@"; do
		IFS=: read -r id type parent <<<"$spec"
		[ "$parent" = - ] && parent=null || parent="\"$parent\""
		nodes+="$sep{\"id\": \"$id\", \"type\": \"$type\", \"parent\": $parent, \"fields\": {}}"
		sep=", "; n=$((n + 1))
	done
	# The stats say what the files hold, as irsnap writes them.
	cat >"$RUN/snapshots/$name" <<-EOF
	{ "schema": "irsnap.snapshot/1", "layout": "toyc",
	  "root": { "address": "0x1000", "type": "Module" },
	  "text_file": "$text",
	  "nodes": [ $nodes ],
	  "errors": [],
	  "stats": { "nodes": $n, "bytes": 64,
	             "text_bytes": $(stat -c %s "$RUN/snapshots/$text"),
	             "truncated": false,
	             "hash": "$(xxh64 "$RUN/snapshots/$text")" } }
	EOF
}

printf 'module @m\nfunc @f() {\nentry:\n  %%1 = add 1, 2\n  ret %%1\n}\n' \
	>"$RUN/snapshots/0001-constfold.before.ir"
printf 'module @m\nfunc @f() {\nentry:\n  ret 3\n}\n' \
	>"$RUN/snapshots/0001-constfold.after.ir"
cp "$RUN/snapshots/0001-constfold.after.ir" "$RUN/snapshots/0002-cse.before.ir"
snapshot_json 0001-constfold.before.json 0001-constfold.before.ir \
	0x1000:Module:- 0x2000:Function:0x1000 \
	0x3000:Block:0x2000 0x4000:Instr:0x3000 0x4100:Instr:0x3000
snapshot_json 0001-constfold.after.json 0001-constfold.after.ir \
	0x1000:Module:- 0x2000:Function:0x1000 \
	0x3000:Block:0x2000 0x4200:Instr:0x3000
snapshot_json 0002-cse.before.json 0002-cse.before.ir \
	0x1000:Module:- 0x2000:Function:0x1000 0x3000:Block:0x2000 \
	0x4200:Instr:0x3000

# facts NAME: an event's counts and hash, from its snapshot's stats (what
# `irsnap validate` checks them against); made-up ones without a snapshot.
facts() {
	if [ "$1" = - ]; then
		echo '"nodes": 5, "bytes": 64, "text_bytes": 30, "text_lines": 3, "hash": "2222222222222222"'
		return
	fi
	python3 -c 'import json, os, sys
d = json.load(open(sys.argv[1]))["stats"]
lines = open(sys.argv[2], "rb").read().count(b"\n")
print("\"nodes\": %d, \"bytes\": %d, \"text_bytes\": %d, \"text_lines\": %d, \"json_bytes\": %d, \"hash\": \"%s\""
      % (d["nodes"], d["bytes"], d["text_bytes"], lines, os.path.getsize(sys.argv[1]), d["hash"]))' \
		"$RUN/snapshots/$1.json" "$RUN/snapshots/$1.ir"
}
event() {	# SEQ PASS PHASE SNAPSHOT-NAME|- EXTRA
	local snap=null
	[ "$4" != - ] && snap=$(snaps "$4")
	cat <<-EOF
	{ "seq": $1, "pass": "$2", "phase": "$3", "snapshot": $snap,
	  $(facts "$4"),
	  "walk_errors": 0, $5 }
	EOF
}
snaps() { echo "{ \"text\": \"snapshots/$1.ir\", \"json\": \"snapshots/$1.json\" }"; }
cat >"$RUN/manifest.json" <<EOF
{ "schema": "irsnap.manifest/1", "run_id": "$ID", "irsnap_version": "0.1.0",
  "created": "2026-11-30T05:15:00Z", "updated": "2026-11-30T05:15:02Z",
  "status": "failed", "debugger": "gdb 13.1",
  "debuggee": { "exe": "/work/main/build/toyc", "args": "--bug=crash demo.ir", "pid": 4242 },
  "layout": { "path": "/work/toyc.lua", "name": "toyc" },
  "options": { "changed_only": true, "formats": ["text", "json"] },
  "events": [
    $(event 1 constfold before 0001-constfold.before '"cpu_s": null, "verifiers": []'),
    $(event 1 constfold after 0001-constfold.after '"changed": true, "cpu_s": 0.0123, "verifiers": [ { "name": "toyc_verify", "problems": 0, "output": "" } ]'),
    $(event 2 dce before - '"cpu_s": null, "verifiers": []'),
    $(event 2 dce after - '"changed": false, "cpu_s": 0.5, "verifiers": [ { "name": "toyc_verify", "problems": 2, "output": "x\ny" } ]'),
    $(event 3 cse before 0002-cse.before '"cpu_s": null, "verifiers": []')
  ],
  "failure": "failure.json" }
EOF
cat >"$RUN/failure.json" <<EOF
{ "schema": "irsnap.failure/1", "run_id": "$ID", "kind": "signal",
  "signal": { "number": 11, "name": "SIGSEGV" }, "message": null,
  "pass": { "name": "cse", "seq": 3, "cpu_s": 0.0042 },
  "backtrace": [
    { "index": 0, "pc": "0x401234", "function": "cse_block", "file": "cse.c", "line": 88 },
    { "index": 1, "pc": "0x401300", "function": null, "file": null, "line": null }
  ],
  "before_snapshot": { "text": "snapshots/0002-cse.before.ir", "json": "snapshots/0002-cse.before.json" },
  "crash_snapshot": null,
  "reduce_command": "irsnap reduce $RUN/snapshots/0002-cse.before.ir --crash '/work/main/build/toyc --passes=cse {}'" }
EOF

# }==== validate ==========================================================

expect_rc "validate: a complete run directory is valid" 0 "$IRSNAP" validate "$RUN"
has "validate: says valid and how many files it checked" \
	"$RUN: valid (8 files checked)"
expect_rc "validate: the folder above, through latest" 0 "$IRSNAP" validate "$RUNS"
for f in "$RUN/snapshots/0001-constfold.before.json" "$RUN/failure.json" \
	 "$RUN/manifest.json"; do
	expect_rc "validate: one file, $(basename "$f"), schema from its member" \
		0 "$IRSNAP" validate "$f"
done

damaged() {	# copy of the run to break
	rm -rf "$TMP/bad" && cp -a "$RUN" "$TMP/bad"
}
damaged
head -c 300 "$RUN/manifest.json" >"$TMP/bad/manifest.json"
expect_rc "validate: a truncated manifest is invalid (exit 1)" 1 \
	"$IRSNAP" validate "$TMP/bad"
has "validate: ... naming the file and where the JSON broke" \
	"$TMP/bad/manifest.json: invalid JSON at line"
expect_rc "show: a truncated manifest is an input error (exit 2)" 2 \
	"$IRSNAP" show "$TMP/bad"
has "show: ... naming the file" "irsnap: $TMP/bad/manifest.json:"

damaged
rm "$TMP/bad/snapshots/0001-constfold.after.ir"
expect_rc "validate: a missing snapshot file is invalid" 1 \
	"$IRSNAP" validate "$TMP/bad"
has "validate: ... naming the manifest, the event and the file" \
	"$TMP/bad/manifest.json: \$.events[1].snapshot.text: names snapshots/0001-constfold.after.ir, which is missing"

damaged
sed -i 's/"nodes": 5, "bytes": 64/"nodes": "five", "bytes": 64/' "$TMP/bad/manifest.json"
sed -i 's/"kind": "signal",//' "$TMP/bad/failure.json"
head -c 200 "$RUN/snapshots/0002-cse.before.json" >"$TMP/bad/snapshots/0002-cse.before.json"
expect_rc "validate: wrong type, missing member, truncated snapshot" 1 \
	"$IRSNAP" validate "$TMP/bad"
has "validate: the wrong type, by JSON path" \
	"$TMP/bad/manifest.json: \$.events[0].nodes: expected integer, got string"
has "validate: the missing member" \
	"$TMP/bad/failure.json: \$: missing member \"kind\""
has "validate: the truncated snapshot" \
	"$TMP/bad/snapshots/0002-cse.before.json: invalid JSON"
has "validate: a count of problems at the end" "$TMP/bad: invalid: "
lines_like "validate: every line names a file of the run" "^$TMP/bad"

expect_rc "validate: no such path is exit 2" 2 "$IRSNAP" validate "$TMP/nope"
has "validate: ... naming it" "irsnap: $TMP/nope:"
expect_rc "validate: a folder with no run is exit 2" 2 "$IRSNAP" validate "$TMP"
expect_rc "validate: no argument is a usage error" 2 "$IRSNAP" validate
echo '{"schema": "irsnap.other/3"}' >"$TMP/other.json"
expect_rc "validate: a file of an unknown schema is invalid" 1 \
	"$IRSNAP" validate "$TMP/other.json"
has "validate: ... saying so" "unknown schema \"irsnap.other/3\""

# }==== show ==============================================================

expect_rc "show: the run at a glance" 0 "$IRSNAP" show "$RUNS"
cp "$TMP/out" "$TMP/show.txt"
has "show: the run id, status and debuggee" "run $ID  failed"
has "show: the debuggee with its arguments" \
	"/work/main/build/toyc --bug=crash demo.ir  (pid 4242)"
has "show: a table header" "seq  pass"
row() { grep -E "^ +$1 +$2 " "$TMP/show.txt" | tr -s ' '; }
check_eq "show: constfold row (cpu ms, lines, text bytes, changed, verifier)" \
	" 1 constfold 12.3 5 39 yes ok" "$(row 1 constfold)"
check_eq "show: dce row, unchanged, verifier problems" \
	" 2 dce 500.0 3 30 no 2 problems" "$(row 2 dce)"
check_eq "show: cse row, the failing pass, CPU up to the crash" " 3 cse 4.2 5 39 FAILED -" \
	"$(row 3 cse)"
has "show: total CPU time, the crashed pass included" "3 passes, 516.5 ms CPU in passes"
has "show: the failure" "failure: SIGSEGV (signal 11) in pass cse (seq 3)"
has "show: the top frame" "#0  0x401234           cse_block at cse.c:88"
has "show: a frame without debug info" "#1  0x401300           ??"
has "show: the before snapshot" "before:  snapshots/0002-cse.before.ir"
has "show: the reduce command" \
	"reduce:  irsnap reduce $RUN/snapshots/0002-cse.before.ir --crash"
# A pass name as long as LLVM's: the column widens, so every row's
# figures stay under their headings.
mkdir -p "$TMP/long" && cp -a "$RUN" "$TMP/long/$ID"
sed -i 's/"pass": "dce"/"pass": "LoopSimplifyCFGPassWithTwentyMore"/g' \
	"$TMP/long/$ID/manifest.json"
"$IRSNAP" show "$TMP/long/$ID" >"$TMP/long.txt" 2>&1
check "show: a long pass name is shown whole" \
	grep -q "LoopSimplifyCFGPassWithTwentyMore" "$TMP/long.txt"
check_eq "show: ... and the columns still line up under the headings" \
	"4 rows, text bytes ending at one column" "$(python3 -c '
import sys
t = open(sys.argv[1]).read().splitlines()
h = [i for i, l in enumerate(t) if l.lstrip().startswith("seq  pass")][0]
end = t[h].index("text bytes") + len("text bytes")
rows = [t[h]] + [l for l in t[h + 1:h + 4]]
ok = all(l[end - 1].isalnum() and l[end] == " " for l in rows)
print(len(rows), "rows,", "text bytes ending at one column" if ok else
      "misaligned: " + repr(rows))' "$TMP/long.txt")"
expect_rc "show: a run directory given directly" 0 "$IRSNAP" show "$RUN"
expect_rc "show: not a run is exit 2" 2 "$IRSNAP" show "$TMP"
has "show: ... naming it" "irsnap: $TMP: not a run directory"

# }==== the same run as irsnap.manifest/2 ================================

# The header in manifest.json, the events one a line in events.jsonl: what
# irsnap writes now. Every reader reads it as it read the version-1 run.
V2=$TMP/v2/20261130-051500-4243
mkdir -p "$TMP/v2" && cp -a "$RUN" "$V2"
python3 - "$V2" <<'PY'
import json, os, sys
run = sys.argv[1]
m = json.load(open(os.path.join(run, "manifest.json")))
events = m.pop("events")
m["schema"] = "irsnap.manifest/2"
m["run_id"] = "20261130-051500-4243"
m["event_log"] = {"file": "events.jsonl", "schema": "irsnap.event/1"}
m["summary"] = {"events": len(events), "passes": 3}
m["failure"] = m.pop("failure")
json.dump(m, open(os.path.join(run, "manifest.json"), "w"), indent=2)
with open(os.path.join(run, "events.jsonl"), "w") as f:
    for e in events:
        f.write(json.dumps(e, separators=(",", ":")) + "\n")
PY
sed -i 's/"run_id": "[^"]*"/"run_id": "20261130-051500-4243"/' "$V2/failure.json"
expect_rc "v2: the run is valid" 0 "$IRSNAP" validate "$V2"
has "v2: ... its log and files checked" "$V2: valid (9 files checked)"
expect_rc "v2: the log alone is valid, as an event log" 0 \
	"$IRSNAP" validate "$V2/events.jsonl"
expect_rc "v2: show reads it" 0 "$IRSNAP" show "$V2"
check_eq "v2: ... the same passes as version 1" \
	"$(grep -E '^ +[0-9]+ ' "$TMP/show.txt")" "$(grep -E '^ +[0-9]+ ' "$TMP/out")"
expect_rc "v2: report reads it" 0 "$IRSNAP" report "$V2" -o "$TMP/v2.html"
expect_rc "v2: diff RUN PASS reads it" 1 "$IRSNAP" diff "$V2" constfold
has "v2: ... the pass's before and after" "+  ret 3"

# A debugger killed in the middle of a line leaves it cut short, without
# its newline: readers take the lines before it, validate says so.
printf '{"seq":3,"pass":"cse","phase":"after","snapsh' >>"$V2/events.jsonl"
expect_rc "v2: a torn last line: still valid" 0 "$IRSNAP" validate "$V2"
has "v2: ... noted" "$V2/events.jsonl: note: its last line was cut short (45 bytes"
expect_rc "v2: show reads the lines before it" 0 "$IRSNAP" show "$V2"
has "v2: ... and says so" "note: events.jsonl: its last line was cut short"
has "v2: ... the passes as before" "3 passes, 516.5 ms CPU in passes"
expect_rc "v2: report reads it" 0 "$IRSNAP" report "$V2" -o "$TMP/v2.html"

# An event written again (a verifier's result came later): the later line
# stands for the earlier.
python3 - "$V2/events.jsonl" <<'PY'
import json, sys
path = sys.argv[1]
lines = open(path).read().split("\n")
ev = json.loads(lines[3])		# dce's after
ev["verifiers"].append({"name": "late", "problems": 5, "output": ""})
lines.insert(len(lines) - 1, json.dumps(ev, separators=(",", ":")))
open(path, "w").write("\n".join(lines))
PY
expect_rc "v2: a later line of an event" 0 "$IRSNAP" show "$V2"
check_eq "v2: ... stands for the earlier (7 problems, one row)" \
	" 2 dce 500.0 3 30 no 7 problems" \
	"$(grep -E '^ +2 +dce ' "$TMP/out" | tr -s ' ')"
expect_rc "v2: ... and the run is valid" 0 "$IRSNAP" validate "$V2"

# A whole line that is no JSON is damage: validate names it.
sed -i '2s/.*/{"seq": 1, oops/' "$V2/events.jsonl"
expect_rc "v2: a damaged line is invalid" 1 "$IRSNAP" validate "$V2"
has "v2: ... naming the line" "$V2/events.jsonl: line 2: not a JSON object:"
sed -i '2d' "$V2/events.jsonl"
rm "$V2/events.jsonl"
expect_rc "v2: no events.jsonl is invalid" 1 "$IRSNAP" validate "$V2"
has "v2: ... naming it" "$V2/events.jsonl: cannot open"
expect_rc "v2: ... and show says so" 2 "$IRSNAP" show "$V2"

# }==== diff ==============================================================

S=$RUN/snapshots
expect_rc "diff: two different texts exit 1" 1 \
	"$IRSNAP" diff "$S/0001-constfold.before.ir" "$S/0001-constfold.after.ir"
cp "$TMP/out" "$TMP/diff.txt"
has "diff: unified headers" "--- $S/0001-constfold.before.ir"
has "diff: a hunk" "@@ -1,6 +1,5 @@"
has "diff: removed lines" "-  %1 = add 1, 2"
has "diff: added lines" "+  ret 3"
has "diff: a summary of lines" "2 lines removed, 1 added"
has "diff: node counts per type, from the JSON beside the texts" \
	"  Instr                            2         1        -1"
has "diff: removed nodes by address" "removed (2): 0x4000 Instr, 0x4100 Instr"
has "diff: added nodes by address" "added (1): 0x4200 Instr"
# The diff is a real patch: applied to A it gives B.
cp "$S/0001-constfold.before.ir" "$TMP/patched.ir"
sed -n '/^--- /,/^[0-9]* lines* removed/p' "$TMP/diff.txt" | sed '$d' \
	>"$TMP/p.diff"
check "diff: the output applies with patch(1)" \
	patch -s "$TMP/patched.ir" "$TMP/p.diff"
check_files_eq "diff: ... and gives B" "$S/0001-constfold.after.ir" \
	"$TMP/patched.ir"
expect_rc "diff: the JSON files find their texts" 1 \
	"$IRSNAP" diff "$S/0001-constfold.before.json" "$S/0001-constfold.after.json"
has "diff: ... and diff them too" "+  ret 3"
expect_rc "diff: identical snapshots exit 0" 0 \
	"$IRSNAP" diff "$S/0001-constfold.after.ir" "$S/0002-cse.before.ir"
has "diff: ... and say so" "texts are identical"
expect_rc "diff: a missing file is exit 2" 2 \
	"$IRSNAP" diff "$S/0001-constfold.after.ir" "$S/nope.ir"
has "diff: ... naming it" "irsnap: $S/nope.ir: no such file"
expect_rc "diff: one argument is a usage error" 2 "$IRSNAP" diff "$S/x"

# Random edits of a real IR text: every diff applies and gives B.
"$TOYC" --gen=300 --seed=7 >"$TMP/gen.ir" 2>/dev/null
bad_patches=0
for seed in $(seq 1 25); do
	awk -v s="$seed" 'BEGIN { srand(s) }
		{ r = rand() }
		r < 0.05 { next }
		r < 0.10 { print "  %new" NR " = add 1, " s }
		r < 0.12 { print; print; next }
		{ print }' "$TMP/gen.ir" >"$TMP/b.ir"
	"$IRSNAP" diff "$TMP/gen.ir" "$TMP/b.ir" >"$TMP/r.txt" 2>&1
	rc=$?
	cp "$TMP/gen.ir" "$TMP/a.ir"
	sed -n '/^--- /,$p' "$TMP/r.txt" | sed '$d' >"$TMP/r.diff"
	if [ "$rc" -ne 1 ] || ! patch -s "$TMP/a.ir" "$TMP/r.diff" \
		>/dev/null 2>&1 || ! cmp -s "$TMP/a.ir" "$TMP/b.ir"; then
		bad_patches=$((bad_patches + 1))
	fi
done
check_eq "diff: 25 random edits of a generated module all round-trip" 0 \
	"$bad_patches"

# }==== Real runs, traced by GDB over toyc ===============================

# GDB the way the end-to-end suites run it (library, preloads, time bound).
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb
export IRSNAP_DIR=$TMP/gdbruns
gdb_trace() {	# LOG TOYC-ARGS...
	local log=$1; shift
	GDB_TIMEOUT=120 run_gdb "$log" -ex "ir-layout load $LAYOUT" \
		-ex 'set irsnap format both' \
		-ex 'ir-trace on' -ex run --args "$TOYC" "$@"
}

gdb_trace "$TMP/crash.log" --passes=dce,cse,constfold --bug=crash \
	"$FIXTURES/toyc/demo.ir"
real=$(readlink -f "$IRSNAP_DIR/latest")
check "gdb traced a crashing toyc into a run directory" \
	test -f "$real/manifest.json"
expect_rc "validate: the real run is valid" 0 "$IRSNAP" validate "$real"
expect_rc "show: the real run" 0 "$IRSNAP" show "$IRSNAP_DIR"
has "show: the real failure is toyc's crash in constfold" \
	"failure: SIGSEGV (signal 11) in pass constfold"
has "show: with a ready reduce command" "reduce:  irsnap reduce $real/snapshots/"
first_before=$(ls "$real"/snapshots/0002-*.before.ir 2>/dev/null | head -1)
first_after=${first_before%.before.ir}.after.ir
if [ -f "$first_after" ]; then
	"$IRSNAP" diff "$first_before" "$first_after" >"$TMP/out" 2>&1
	rc=$?
	check "diff: the real first pass's before and after (exit 0 or 1)" \
		test "$rc" -le 1
	has "diff: the real snapshots' node table" "nodes: "
else
	not_ok "the real run has a first pass with before and after" \
		"$(ls "$real/snapshots" | head)"
fi
rm -rf "$TMP/realbad" && cp -a "$real" "$TMP/realbad"
victim=$(ls "$TMP"/realbad/snapshots/*.json | head -1)
truncate -s 100 "$victim"
rm -f "$(ls "$TMP"/realbad/snapshots/*.ir | tail -1)"
expect_rc "validate: a damaged copy of the real run is invalid" 1 \
	"$IRSNAP" validate "$TMP/realbad"
has "validate: ... names the truncated snapshot" "$victim: invalid JSON"
has "validate: ... and the missing text" ", which is missing"

# A large input traced through a long pipeline (seconds of tracing, so
# the kill lands mid-run however fast tracing gets), the debugger
# SIGKILLed mid-way: what was written is a valid run.
"$TOYC" --gen=20000 --seed=3 >"$TMP/big.ir" 2>/dev/null
long=$(printf 'dce,cse,constfold,copyprop,%.0s' $(seq 1 100))dce
export IRSNAP_DIR=$TMP/killed
gdb_trace "$TMP/killed.log" --passes="$long" "$TMP/big.ir" &
runner=$!
for _ in $(seq 1 150); do
	n=$(ls "$IRSNAP_DIR"/latest/snapshots 2>/dev/null | wc -l)
	[ "$n" -ge 6 ] && break
	sleep 0.2
done
# The gdb process under the runner (a subshell, then timeout, then gdb).
descendant() {	# NAME PID
	local kid
	for kid in $(pgrep -P "$2"); do
		if [ "$(cat /proc/"$kid"/comm 2>/dev/null)" = "$1" ]; then
			echo "$kid"; return
		fi
		descendant "$1" "$kid"
	done
}
gdbpid=$(descendant gdb "$runner")
toypid=
[ -n "$gdbpid" ] && toypid=$(pgrep -P "$gdbpid" toyc || true)
if [ -n "$gdbpid" ] && kill -KILL "$gdbpid" 2>/dev/null; then
	ok "the tracing debugger was killed mid-run"
else
	not_ok "the tracing debugger was killed mid-run" \
		"$(tail -3 "$TMP/killed.log")"
fi
wait "$runner" 2>/dev/null
[ -n "$toypid" ] && kill -KILL "$toypid" 2>/dev/null
killed=$(readlink -f "$IRSNAP_DIR/latest")
check "the killed run left snapshots behind" \
	test "$(ls "$killed/snapshots" | grep -c '\.ir$')" -ge 2
expect_rc "validate: the killed run is valid" 0 "$IRSNAP" validate "$killed"
check_eq "the killed run still says running" running \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' \
		"$killed/manifest.json")"

done_testing
