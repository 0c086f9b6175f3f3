#!/usr/bin/env bash
# Hostile and broken inputs at the front end (issue 14), under $DEBUGGER:
# a layout's expressions never call into the debuggee, a call verifier is
# a call of a named function and runs only under --verify, a verifier
# that cannot run or crashes still leaves the compiler's crash reported,
# and a frame without a function name (a jump through a bad function
# pointer, live or on a core of another program) is just a frame: the
# debugger never aborts.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
source "$IRSNAP_ROOT/tests/frontend/frontend_lib.sh"

tiny_build
# fresh: a new working directory, where ./pwned would appear (a shell
# started by an earlier run may still be creating the last one's).
fresh() { mkdir -p "$TMP/work$1" && cd "$TMP/work$1" || exit 1; }
fresh 0

# trace LOG LAYOUT TRACE-ARGS PROGRAM ARGS...: ir-trace of PROGRAM with
# LAYOUT (loaded first, in place of toyc's) in batch mode: LLDB ends the
# batch when the layout is refused, GDB goes on without one. LOG ends
# "status N", the debugger's status; the run is then $(latest_run).
trace() {
	local log=$1 layout=$2 how=$3; shift 3
	rm -f "$RUNS/latest"
	LAYOUT=$layout dbg_batch "$log" -o "ir-trace $how" -o run -- "$@"
	echo "status $?" >>"$log"
}
# by_itself LOG: the debugger ended by itself, neither aborting (134) nor
# killed by the test's timeout (124 and up, but for the crash's 139).
by_itself() {
	grep -qE '^status ([0-9]|[0-9][0-9]|1[01][0-9]|12[0-3]|139)$' "$1"
}
crash_of() { fj "$1" 'd["kind"] + " " + d["signal"]["name"] + " " + d["pass"]["name"]'; }
# crash_reported RUN LOG PASS: the compiler's SIGSEGV in PASS is the run's
# failure, or, when a verifier caught the broken IR in an earlier pass
# first (toyc's Lua verifier operand-defs still runs when the call
# verifier cannot), failure.json is that verifier failure and LOG names
# the crash in PASS as its consequence (issue 31 item 3).
crash_reported() {
	local f
	f=$(fj "$1" 'd["kind"] + " " + (d["signal"] or {}).get("name", "-") + " " + d["pass"]["name"]')
	case $f in
	"signal SIGSEGV $3") return 0 ;;
	"verifier - "*)
		grep -q "SIGSEGV in pass '$3' (seq [0-9]*), after pass '${f#verifier - }' (seq [0-9]*) broke the IR (the crash is its consequence)" "$2" ;;
	*) echo "failure.json: $f" >&2; return 1 ;;
	esac
}

# The lines of toyc.lua's boundary and call verifier, which the errors name.
bline=$(grep -n '^boundary {' "$FIXTURES/toyc/toyc.lua" | cut -d: -f1)
vline=$(grep -n '^verifier { name = "toyc_verify"' "$FIXTURES/toyc/toyc.lua" | cut -d: -f1)

# --- a layout's expressions only read ------------------------------------
toyc_layout_with "$TMP/system.lua" \
	's|ir = "m"|ir = "((int)system(\\"touch pwned\\"), m)"|'
trace "$TMP/system.log" "$TMP/system.lua" on "$TOYC" "$DEMO"
check "an ir expression calling system() runs nothing" test ! -e pwned
check_eq "... it is one layout error naming the boundary's line" 1 \
	"$(grep -c "system.lua:$bline: boundary: .*system" "$TMP/system.log")"

# A rerun template is the command's words, not a shell's (issue 32, 3):
# "...{input}; touch PWNED #" went into failure.json's reduce_command and
# `irsnap replay --reduce auto` ran it. Refused when the layout loads.
fresh rerun
rline=$(grep -n 'rerun = "{exe} {flags} --passes' "$FIXTURES/toyc/toyc.lua" | cut -d: -f1)
rdecl=$(grep -n '^reduce {' "$FIXTURES/toyc/toyc.lua" | cut -d: -f1)
toyc_layout_with "$TMP/rerun.lua" \
	"s|{flags} --passes={pass} {input}|{flags} --passes={pass} {input}; touch $TMP/pwned-rerun #|"
check "the hostile template is in the layout (line $rline)" \
	grep -q "touch $TMP/pwned-rerun" "$TMP/rerun.lua"
trace "$TMP/rerun.log" "$TMP/rerun.lua" on "$TOYC" --bug=crash "$DEMO"
check_eq "a rerun template with shell syntax is one layout error at reduce's line" 1 \
	"$(grep -c "rerun.lua:$rdecl: reduce: 'rerun': ';' is shell syntax: the template lists the command's words, run without a shell" "$TMP/rerun.log")"
check "... and the debugger ended by itself" by_itself "$TMP/rerun.log"
lldb_wrapper "$TMP/lldb-bin"	# a sanitized plugin needs its runtimes
PATH=$TMP/lldb-bin:$PATH IRSNAP_DIR=$TMP/rerun-hunt \
	"$IRSNAP" replay --runs 1 --debugger "$DEBUGGER" \
	--layout "$TMP/rerun.lua" --reduce auto -- "$TOYC" --bug=crash "$DEMO" \
	>"$TMP/rerun-replay.log" 2>&1
check "irsnap replay --reduce auto with that layout runs nothing" \
	test ! -e "$TMP/pwned-rerun"
check "... and says why in the attempt's line" \
	grep -q "reduce: 'rerun': ';' is shell syntax" "$TMP/rerun-replay.log"

fresh hook
tiny_layout "$TMP/hook.lua" '"((*hook)(), n)"'
trace "$TMP/hook.log" "$TMP/hook.lua" on "$TMP/tiny"
check "an ir expression calling through a function pointer runs nothing" \
	test ! -e pwned
check_eq "... and the boundary says why in one line" 1 \
	"$(grep -c "^irsnap: at run_pass: cannot evaluate '((\*hook)(), n)': " \
		"$TMP/hook.log")"

fresh vsys
toyc_layout_with "$TMP/vsys.lua" \
	's|call = "toyc_verify({ir}, stderr)"|call = "((int)system(\\"touch pwned\\"), toyc_verify({ir}, stderr))"|'
trace "$TMP/vsys.log" "$TMP/vsys.lua" 'on --verify' "$TOYC" "$DEMO"
check "a call verifier that is not a plain call runs nothing" test ! -e pwned
check_eq "... it is one layout error naming the verifier's line" 1 \
	"$(grep -c "vsys.lua:$vline: verifier 'toyc_verify': " "$TMP/vsys.log")"
fresh varg
toyc_layout_with "$TMP/varg.lua" \
	's|call = "toyc_verify({ir}, stderr)"|call = "toyc_verify({ir}, system(\\"touch pwned\\"))"|'
trace "$TMP/varg.log" "$TMP/varg.lua" 'on --verify' "$TOYC" "$DEMO"
check "a call verifier's arguments cannot call either" test ! -e pwned
check_eq "... also a layout error naming the line" 1 \
	"$(grep -c "varg.lua:$vline: verifier 'toyc_verify': " "$TMP/varg.log")"

fresh pwnv
tiny_layout "$TMP/pwnv.lua" '"n"' '"pwn()"'
trace "$TMP/pwnv.log" "$TMP/pwnv.lua" on "$TMP/tiny"
check "a call verifier does not run without --verify" test ! -e pwned
trace "$TMP/pwnv2.log" "$TMP/pwnv.lua" 'on --verify' "$TMP/tiny"
check "... and runs under --verify, where the user asked for it" \
	test -e pwned

trace "$TMP/verify.log" "$LAYOUT" 'on --verify' "$TOYC" "$DEMO"
npasses=$(run_json "$(latest_run)" \
	'sum(e["phase"] == "after" for e in d["events"])')
check_eq "toyc's own verifier still runs clean after every pass" \
	"$npasses" \
	"$(run_json "$(latest_run)" \
		'sum(v["name"] == "toyc_verify" and v["status"] == "ok" and v["problems"] == 0 and v["value"] == 0 and v["call"].endswith(", stderr)") for e in d["events"] for v in e["verifiers"])')"
dbg_batch "$TMP/irverify.log" -o 'ir-break cse' -o run -o ir-verify \
	-- "$TOYC" "$DEMO"
check "... and ir-verify calls it at a stop" \
	grep -q '^verifier toyc_verify: ok$' "$TMP/irverify.log"

# --- a verifier that cannot run, then a crash ----------------------------
# GDB 13 cannot call functions on an AMX CPU without the xstate shim; a
# failed call inside a breakpoint callback used to leave GDB waiting for
# ever at the next stop. Elsewhere the calls just work.
if only_under gdb "the xstate shim is GDB's (LLDB calls functions without it)"; then
	for bug in corrupt-dangling corrupt-count; do
		pass=$(crash_pass "$bug")
		GDB_PRELOAD= DBG_TIMEOUT=40 trace "$TMP/noshim-$bug.log" \
			"$LAYOUT" 'on --verify' "$TOYC" --bug="$bug" "$DEMO"
		check "no shim, --bug=$bug: GDB ends by itself" \
			by_itself "$TMP/noshim-$bug.log"
		check "... and the crash in $pass is reported" \
			crash_reported "$(latest_run)" "$TMP/noshim-$bug.log" "$pass"
	done
fi

# A verifier that crashes in the debuggee (toyc_verify writes its findings
# to a NULL FILE * once the IR is broken) is unwound, not taken for the
# compiler's crash, and the crash in dce is still the one reported.
fresh crashv
toyc_layout_with "$TMP/crashv.lua" \
	's|call = "toyc_verify({ir}, stderr)"|call = "toyc_verify({ir}, 0)"|'
trace "$TMP/crashv.log" "$TMP/crashv.lua" 'on --verify' \
	"$TOYC" --bug=corrupt-dangling "$DEMO"
check "a crashing verifier: the crash in dce is reported" \
	crash_reported "$(latest_run)" "$TMP/crashv.log" dce
check "... and the verifier could not run" \
	grep -q "verifier toyc_verify: could not run: " "$TMP/crashv.log"
fresh nov
toyc_layout_with "$TMP/nov.lua" \
	's|call = "toyc_verify({ir}, stderr)"|call = "no_such_verifier({ir})"|'
trace "$TMP/nov.log" "$TMP/nov.lua" 'on --verify' \
	"$TOYC" --bug=corrupt-dangling "$DEMO"
check "a verifier that does not exist: the crash in dce is reported" \
	crash_reported "$(latest_run)" "$TMP/nov.log" dce

# --- a frame without a function name -------------------------------------
fresh tiny
tiny_layout "$TMP/tiny.lua" '"n"'
rm -f "$RUNS/latest"
LAYOUT=$TMP/tiny.lua dbg_batch "$TMP/jump.log" -o run -k ir-report \
	-k 'ir-dump --boundary' -- "$TMP/tiny" crash
echo "status $?" >>"$TMP/jump.log"
check "a jump through a bad pointer: $DBG_NAME ends by itself" \
	by_itself "$TMP/jump.log"
check "... ir-report writes failure.json" test -f "$(latest_run)/failure.json"
check "... which validates" "$IRSNAP" validate "$(latest_run)"
check "... ir-dump --boundary finds the pass" \
	grep -q "^ir-dump: pass 'jump' at frame #1 (run_pass): Node at " \
	"$TMP/jump.log"

trace "$TMP/jumpt.log" "$TMP/tiny.lua" on "$TMP/tiny" crash
check_eq "traced, the crash handler ends $DBG_NAME with the crash's status" \
	"status 139" "$(grep '^status ' "$TMP/jumpt.log")"
check_eq "... failure.json names pass jump" "signal SIGSEGV jump" \
	"$(crash_of "$(latest_run)")"
check_eq "... and the manifest says the run failed" failed \
	"$(json_get "$(latest_run)/manifest.json" 'd["status"]')"

# A core of another program than the layout's (a core of tiny, opened with
# toyc and toyc's layout): every frame is nameless or foreign.
GDB_TIMEOUT=60 gdb_bare "$TMP/gcore.log" -ex run -ex "gcore $TMP/tiny.core" \
	--args "$TMP/tiny" crash
dbg_batch "$TMP/foreign.log" -o 'ir-report' -o 'ir-dump --boundary' \
	-c "$TMP/tiny.core" "$TOYC"
echo "status $?" >>"$TMP/foreign.log"
check "a core of another program: $DBG_NAME ends by itself" \
	by_itself "$TMP/foreign.log"
check "... ir-dump --boundary says there is no boundary" \
	grep -q "ir-dump: no pass boundary of layout 'toyc' in the backtrace" \
	"$TMP/foreign.log"
check "... and ir-report before it wrote failure.json" \
	grep -q "^ir-report: SIGSEGV: .*/failure.json" "$TMP/foreign.log"

done_testing
