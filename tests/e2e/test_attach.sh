#!/usr/bin/env bash
# Attaching $DEBUGGER to a compiler that is already running (gdb -p PID,
# lldb -p PID), then ir-trace on or ir-break from there: the passes after
# the attach are traced as in a run the debugger started, the manifest
# says the run was attached and has the arguments from /proc/PID/cmdline,
# and the program goes on to its end. toyc --wait-for-debugger waits,
# before its first pass, until a debugger is attached.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

# start_waiting OUT ERR ARGS...: toyc --wait-for-debugger ARGS in the
# background, its pid in $pid once it says it waits (it never goes on
# before a debugger is attached, so there is no race to lose).
start_waiting() {
	local out=$1 err=$2; shift 2
	"$TOYC" --wait-for-debugger "$@" >"$out" 2>"$err" &
	pid=$!
	for _ in $(seq 1 600); do
		grep -q "^toyc: pid $pid waiting for a debugger$" "$err" && return 0
		sleep 0.05
	done
	return 1
}

"$TOYC" --print-before-all "$DEMO" >"$TMP/want.out" 2>"$TMP/toyc.err"
passes=$(grep -c '^; \*\*\* IR Dump Before ' "$TMP/toyc.err")

# --- ir-trace on after attaching ------------------------------------------
start_waiting "$TMP/trace.out" "$TMP/trace.err" "$DEMO"
check_eq "toyc --wait-for-debugger says its pid and waits" 0 "$?"
DBG_TIMEOUT=90 dbg_batch "$TMP/trace.log" -o 'ir-trace on' -o continue \
	-p "$pid"
check_eq "$DBG_BATCH -p PID, ir-trace on, continue: exits 0" 0 "$?"
wait "$pid"
check_eq "... the program ran to its end, exit status 0" 0 "$?"
check_files_eq "... printing what it prints unattached" \
	"$TMP/want.out" "$TMP/trace.out"
run=$(latest_run)
check_eq "every pass traced: $passes before/after pairs, the run completed" \
	"$((2 * passes)) completed 0" \
	"$(run_json "$run" 'str(len(d["events"])) + " " + d["status"] + " " + str(d["exit_status"])')"
check_eq "the manifest says it was attached, with the pid" \
	"True $pid" \
	"$(json_get "$run/manifest.json" 'str(d["debuggee"]["attached"]) + " " + str(d["debuggee"]["pid"])')"
check_eq "... and the arguments from /proc/PID/cmdline" \
	"--wait-for-debugger $DEMO" \
	"$(json_get "$run/manifest.json" 'd["debuggee"]["args"]')"
check_eq "... and the program it attached to" "$(readlink -f "$TOYC")" \
	"$(readlink -f "$(json_get "$run/manifest.json" 'd["debuggee"]["exe"]')")"
toyc_dump "$TMP/toyc.err" Before cse 1 >"$TMP/cse.ir"
check_files_eq "... its snapshots are the IR toyc prints" "$TMP/cse.ir" \
	"$run/$(run_json "$run" '[e["snapshot"]["text"] for e in d["events"] if e["pass"] == "cse" and e["phase"] == "before"][0]')"
check "the run validates" "$IRSNAP" validate "$run"

# --- ir-break after attaching ---------------------------------------------
start_waiting "$TMP/break.out" "$TMP/break.err" "$DEMO"
check_eq "a second toyc waits" 0 "$?"
DBG_TIMEOUT=90 dbg_batch "$TMP/break.log" -o 'ir-break ^dce$' -o continue \
	-o "ir-dump -f text -o $TMP/dce.ir m" -o 'ir-break off' -o continue \
	-p "$pid"
check_eq "$DBG_BATCH -p PID, ir-break dce: exits 0" 0 "$?"
wait "$pid"
check_eq "... and the program ran on to its end" 0 "$?"
check "ir-break stopped before dce in the attached process" \
	grep -q "^irsnap: stopped before pass 'dce'" "$TMP/break.log"
toyc_dump "$TMP/toyc.err" Before dce 1 >"$TMP/dce-want.ir"
check_files_eq "... where ir-dump shows dce's input" \
	"$TMP/dce-want.ir" "$TMP/dce.ir"

# A run the debugger started is not "attached".
dbg_batch "$TMP/plain.log" -o 'ir-trace on ^cse$' -o run -- "$TOYC" "$DEMO"
check_eq "a run the debugger started: attached false" False \
	"$(json_get "$(latest_run)/manifest.json" 'str(d["debuggee"]["attached"])')"

done_testing
