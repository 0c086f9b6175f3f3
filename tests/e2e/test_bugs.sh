#!/usr/bin/env bash
# Each toyc bug mode traced under $DEBUGGER in batch mode: crashes and
# assertions give a failure.json naming the right pass and signal with that
# pass's before snapshot, and the debugger's exit status is the one it
# gives for a program that died; --verify catches the invariant-breaking
# bug at the pass that broke it, not at the one that crashed later; memory
# corruption gives snapshots with recorded walk errors, and never a hang;
# the intermittent crash is caught whenever it happens.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

# trace_bug BUG LOG [TRACE-OPTIONS]: traces toyc --bug=BUG on the demo;
# appends the debugger's status to LOG and prints the run directory.
trace_bug() {
	local bug=$1 log=$2; shift 2
	rm -f "$RUNS/latest"
	dbg_batch "$log" -o "ir-trace on $*" -o run \
		-- "$TOYC" --bug="$bug" "$DEMO"
	echo "status $?" >>"$log"
	latest_run
}
# died_of SIGNO LOG: LOG ends with the status of a batch whose program
# died of SIGNO.
died_of() { tail -1 "$2" | grep -qxE "status $(dbg_says crash-status "$1")"; }

# fj RUN PYEXPR: a value from RUN's failure.json.
fj() { json_get "$1/failure.json" "$2"; }

check "toyc lists its bugs" test "$("$TOYC" --bug=help | wc -l)" -ge 7

# --- a deterministic crash and an assertion ------------------------------
for spec in crash:SIGSEGV:11 assert:SIGABRT:6; do
	IFS=: read -r bug sig signo <<<"$spec"
	pass=$(bug_pass "$bug")
	# (in a subshell that does not exec toyc, so that the shell's crash
	# notice goes to /dev/null)
	( "$TOYC" --print-before-all --bug="$bug" "$DEMO" >/dev/null \
		2>"$TMP/$bug.err"; : ) 2>/dev/null
	# toyc's last "Before" dump is the input of the pass that died.
	last=$(grep -c "^; \*\*\* IR Dump Before $pass \*\*\*" "$TMP/$bug.err")
	toyc_dump "$TMP/$bug.err" Before "$pass" "$last" >"$TMP/$bug.want"
	run=$(trace_bug "$bug" "$TMP/$bug.log")
	check_eq "--bug=$bug: failure.json names $sig in pass $pass" \
		"signal $sig $pass" \
		"$(fj "$run" 'd["kind"] + " " + d["signal"]["name"] + " " + d["pass"]["name"]')"
	check_files_eq "--bug=$bug: its before snapshot is $pass's input" \
		"$TMP/$bug.want" \
		"$run/$(fj "$run" 'd["before_snapshot"]["text"]')"
	check "--bug=$bug: $DBG_NAME printed where failure.json is" \
		grep -q "^irsnap: $sig in pass '$pass' (seq [0-9]*); failure report: $run/failure.json" \
		"$TMP/$bug.log"
	check "--bug=$bug: the backtrace goes through pm_run_pass" \
		test "$(fj "$run" '[f["function"] for f in d["backtrace"]].count("pm_run_pass")')" -ge 1
	check_eq "--bug=$bug: the manifest says the run failed" failed \
		"$(json_get "$run/manifest.json" 'd["status"]')"
	check "--bug=$bug: the run validates" "$IRSNAP" validate "$run"
	check "--bug=$bug: $DBG_BATCH exits with status $(dbg_says crash-status "$signo")" \
		died_of "$signo" "$TMP/$bug.log"
	# The default format (auto) writes the JSON graph only where the
	# failure needs it: the pass's input, walked at the crash over the
	# IR's bytes kept at the pass's entry, and the crash. Each is what a
	# trace writing both formats everywhere writes, and so is the input's
	# event in the manifest.
	bj=$(fj "$run" 'd["before_snapshot"]["json"]')
	cj=$(fj "$run" 'd["crash_snapshot"]["json"]')
	check_eq "--bug=$bug: format auto: JSON for the failing pass's input and the crash alone" \
		"$(basename "$bj") $(basename "$cj")" \
		"$(ls "$run/snapshots" | grep '\.json$' | tr '\n' ' ' | sed 's/ $//')"
	rm -f "$RUNS/latest"
	dbg_batch "$TMP/$bug.both.log" -o "$(dbg_cmd set format both)" \
		-o 'ir-trace on' -o run -- "$TOYC" --bug="$bug" "$DEMO"
	both=$(latest_run)
	check_files_eq "--bug=$bug: the input's graph equals format both's" \
		"$both/$bj" "$run/$bj"
	check_files_eq "--bug=$bug: the crash's graph equals format both's" \
		"$both/$cj" "$run/$cj"
	ev='[(e["nodes"], e["bytes"], e["text_bytes"], e["json_bytes"], e["hash"], e["snapshot"]) for e in d["events"] if e["phase"] == "before"][-1]'
	check_eq "--bug=$bug: and so is the input's event in the manifest" \
		"$(run_json "$both" "$ev")" \
		"$(run_json "$run" "$ev")"
done

# --- an invariant broken in one pass, a crash in a later one -------------
# The first failure is the failure: the crash that follows is its
# consequence, and failure.json, show, ir-status --check and the reduce
# command go on blaming the pass the verifier blamed. (This test asserted
# the opposite before: failure.json naming the later crash in constfold.)
broken=$(bug_pass break-invariant)
rm -f "$RUNS/latest"
dbg_batch "$TMP/inv.log" -o 'ir-trace on --verify' -o run \
	-k 'ir-status --check' -- "$TOYC" --bug=break-invariant "$DEMO"
run=$(latest_run)
check "break-invariant: the crash itself comes later, in constfold, as its consequence" \
	grep -q "^irsnap: SIGSEGV in pass 'constfold' (seq [0-9]*), after pass '$broken' (seq [0-9]*) broke the IR (the crash is its consequence); failure report: $run/failure.json" \
	"$TMP/inv.log"
check_eq "--verify: failure.json is still the verifier failure in $broken" \
	"verifier $broken" "$(fj "$run" 'd["kind"] + " " + d["pass"]["name"]')"
check "--verify: its reduce command reruns $broken, not constfold" \
	grep -q -- "--passes=$broken " <<<"$(fj "$run" 'd["reduce_command"]')"
check "--verify: irsnap show names the verifier failure in $broken" \
	grep -q "^failure: verifier .* after pass $broken (seq [0-9]*)" \
	<("$IRSNAP" show "$run")
check "--verify: ir-status --check names $broken first, then the crash" \
	grep -q "ir-status: a verifier failed: pass '$broken' (seq [0-9]* of $run) broke the IR; the program then died: SIGSEGV in pass 'constfold'" \
	"$TMP/inv.log"
check_eq "--verify: the first pass whose output fails a verifier is $broken" \
	"$broken" \
	"$(run_json "$run" \
		'[e["pass"] for e in d["events"] if any(v["problems"] for v in e["verifiers"])][0]')"
check "--verify: the in-process verifier ran (a call $DBG_NAME made)" \
	test "$(run_json "$run" \
		'sum(1 for e in d["events"] for v in e["verifiers"] if v["name"] == "toyc_verify")')" -ge 1
check "--verify: $DBG_NAME named the pass that broke the IR" \
	grep -q "^irsnap: pass '$broken' (seq [0-9]*) broke the IR" \
	"$TMP/inv.log"
run=$(trace_bug break-invariant "$TMP/stop.log" --stop-on-verify)
check_eq "--stop-on-verify: failure.json is a verifier failure in $broken" \
	"verifier $broken" "$(fj "$run" 'd["kind"] + " " + d["pass"]["name"]')"
check "--stop-on-verify: the debuggee stopped before the later crash" \
	bash -c "! grep -q SIGSEGV '$TMP/stop.log'"
check "--stop-on-verify: and the run validates" "$IRSNAP" validate "$run"
check "--stop-on-verify: with the JSON graph of $broken's input (format auto)" \
	test -s "$run/$(fj "$run" 'd["before_snapshot"]["json"] or "-"')"

# --- memory corruption: walk errors, bounded walks ------------------------
# A walk that never ended would hit the debugger's timeout, and "finished
# on its own" would fail: no wall-clock bar here (a loaded machine took 73 s).
for bug in corrupt-dangling corrupt-cycle corrupt-count; do
	run=$(trace_bug "$bug" "$TMP/$bug.log")
	check "--bug=$bug: $DBG_NAME finished on its own, no hang" \
		died_of 11 "$TMP/$bug.log"
	check "--bug=$bug: failure.json for the crash" \
		test "$(fj "$run" 'd["signal"]["name"]')" = SIGSEGV
	nerr=$(PYTHONPATH=$IRSNAP_ROOT/tests python3 - "$run" <<-'EOF'
	import json, os, sys, run_doc
	run = sys.argv[1]
	f = json.load(open(os.path.join(run, "failure.json")))
	m = run_doc.load(run)
	crash = (f.get("crash_snapshot") or {}).get("walk_errors") or []
	walked = sum(e["walk_errors"] for e in m["events"])
	print(len(crash) + walked)
	EOF
	)
	check "--bug=$bug: the snapshots record walk errors ($nerr)" \
		test "$nerr" -gt 0
done

# --- the intermittent crash: every run either completes or is caught ------
pass=$(bug_pass flaky)
bad=""
for i in 1 2 3; do
	run=$(trace_bug flaky "$TMP/flaky$i.log")
	status=$(json_get "$run/manifest.json" 'd["status"]')
	if [ "$status" = completed ] && [ "$(tail -1 "$TMP/flaky$i.log")" = "status 0" ]; then
		:
	elif [ "$status" = failed ] && died_of 11 "$TMP/flaky$i.log"; then
		[ "$(fj "$run" 'd["signal"]["name"] + " " + d["pass"]["name"]')" \
		  = "SIGSEGV $pass" ] || bad+="run $i: wrong failure; "
	else
		bad+="run $i: $status, $(tail -1 "$TMP/flaky$i.log"); "
	fi
done
check_eq "--bug=flaky: each run completes, or fails in $pass with SIGSEGV" \
	"" "$bad"

done_testing
