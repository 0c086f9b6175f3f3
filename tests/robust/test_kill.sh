#!/usr/bin/env bash
# kill -9 of GDB, and of LLDB, at random moments of `ir-trace on` over
# toyc's whole pipeline on a generated module, and over a per-function
# pipeline of 10,000 events (issue 26): each time the run directory
# validates, every line of its events.jsonl but a torn last one parses,
# it lists every snapshot that was complete before the kill, and each
# snapshot it lists is exactly toyc's own dump of that pass (no temporary
# file counted as a snapshot).
# FAULT_SEED=N repeats the moments of an earlier run (the log names it).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb
source "$IRSNAP_ROOT/tests/robust/robust_lib.sh"

seed=${FAULT_SEED:-$RANDOM}
RANDOM=$seed
echo "# kill moments drawn from seed $seed (FAULT_SEED=$seed repeats them)"

# Traced in format both: the graphs' big writes keep the trace going long
# enough for the kill to land in it, and in the middle of a file.
# Big enough for a trace to take a while, small enough for validating
# seven runs of 20 snapshots (their JSON is most of it) to stay quick.
# 12000: big enough that a trace outlasts the kill now that dumps are fast.
"$TOYC" --gen=12000 -o "$TMP/big.ir"
"$TOYC" --print-before-all --print-after-all -o /dev/null "$TMP/big.ir" \
	2>"$TMP/ref.err"
split_dumps "$TMP/ref.err" "$TMP/ref"
npass=$(find "$TMP/ref" -name '*.after.ir' | wc -l)
check_eq "toyc ran its ten passes on the generated module, dumping each" \
	10 "$npass"
nsnap=$((2 * npass))

# nfinal ROOT N: true when ROOT's run holds N snapshot texts under their
# final names.
nfinal() {
	local files=("$1"/latest/snapshots/*.ir)
	[ -e "${files[0]}" ] && [ "${#files[@]}" -ge "$2" ]
}

# The trace kill_once runs: toyc's arguments and its snapshots in all.
trace_args=(-o /dev/null "$TMP/big.ir")

# kill_once DEBUGGER ROOT: traces toyc ${trace_args[@]} under DEBUGGER
# (gdb or lldb) into ROOT, and once the K-th snapshot text is in place (K
# random, before the last few), waits a random 0-9 ms and kills the
# debugger with SIGKILL; then kills what it left running. Sets `run` to
# the run directory, `k` to the snapshots in place just before the kill
# (K, unless the trace was slower) and `ms`.
kill_once() {
	local dbg=$1 root=$2 bg dpid procs comm=gdb
	[ "$dbg" = lldb ] && comm=$(basename "$LLDB_BIN")
	k=$((1 + RANDOM % (nsnap - 3)))
	ms=$((RANDOM % 10))
	# Niced from the start (the debugger and all it starts), they leave
	# the CPU to this script when both want it.
	if [ "$dbg" = gdb ]; then
		(renice -n 19 -p "$BASHPID" >/dev/null
		 IRSNAP_DIR=$root run_gdb "$root.log" \
			-ex "ir-layout load $LAYOUT" \
			-ex "set irsnap format $format" -ex 'ir-trace on' \
			-ex run --args "$TOYC" "${trace_args[@]}") 2>/dev/null &
	else
		(renice -n 19 -p "$BASHPID" >/dev/null
		 RUNS=$root lldb_batch "$root.log" -o "ir-set format $format" \
			-o 'ir-trace on' -o run \
			-- "$TOYC" "${trace_args[@]}") 2>/dev/null &
	fi
	bg=$!
	# The debugger and its processes are known once tracing began, so
	# the kill itself starts no process: it follows the K-th file closely.
	# Finding them forks, and on a busy machine that took longer than the
	# whole trace: the debugger is found before it traces, and stopped
	# (SIGSTOP, its tracee waits at the next boundary) while they are.
	wait_for 30 eval 'dpid=$(pid_named "$bg" "$comm")'
	wait_for 30 nfinal "$root" 1
	[ -z "$dpid" ] || kill -STOP "$dpid"
	procs=$(tree "${dpid:-$bg}")
	[ -z "$dpid" ] || kill -CONT "$dpid"
	wait_for 30 nfinal "$root" "$k" ||
		echo "# snapshot $k never appeared; killing anyway"
	nap "$(printf '0.%03d' "$ms")"
	# What the checks hold the run to: the snapshots in place now (a
	# glob, no fork), K or more; a slow trace (a busy machine, the
	# debugger niced) may not have reached K in the 30 s.
	local now=("$root"/latest/snapshots/*.ir)
	[ -e "${now[0]}" ] && k=${#now[@]}
	kill -9 "${dpid:-$bg}"
	wait "$bg"
	# shellcheck disable=SC2086 # pid/command pairs
	reap $procs
	run=$(readlink -f "$root/latest")
}

# kill_mid_trace DEBUGGER LABEL: kill_once until the kill lands before the
# trace ends (on a busy machine the trace may win the race; that moment
# tests nothing), at most five times.
kill_mid_trace() {
	local dbg=$1 label=$2 try
	for try in 1 2 3 4 5; do
		kill_once "$dbg" "$TMP/$label.$try"
		echo "# $label: $dbg killed $ms ms after snapshot $k of $nsnap was in place"
		grep -q '"status": "running"' "$run/manifest.json" && return
		echo "# $label: the trace had ended first; another moment"
	done
}

# check_killed_run LABEL: what a user checks in the directory of a run
# whose debugger was killed.
check_killed_run() {
	local label=$1 n
	check "$label: irsnap validate accepts the run directory" \
		"$IRSNAP" validate "$run"
	check_eq "$label: the manifest says the run never finished" running \
		"$(json_get "$run/manifest.json" 'd["status"]')"
	n=$(nevents "$run")
	check "$label: it lists every snapshot complete before the kill ($n >= $((k - 1)))" \
		test "$n" -ge $((k - 1))
	check_eq "$label: each one listed is toyc's own dump of that pass" "" \
		"$(snapshot_problems "$run" "$ref")"
	check_eq "$label: every line of events.jsonl but a torn last one parses" "" \
		"$(torn_lines "$run")"
	check "$label: irsnap show reads it" "$IRSNAP" show "$run"
	ntmp=$(ntemp "$run")
	echo "# $label: $n events listed, $ntmp temporary files left"
	[ "$ntmp" -eq 0 ] || midwrite=$((midwrite + 1))
}

# torn_lines RUN: the lines of RUN's events.jsonl that are no JSON object,
# but for a last one cut short (no newline): nothing when all is well.
torn_lines() {
	python3 - "$1/events.jsonl" <<-'EOF'
	import json, sys
	data = open(sys.argv[1], "rb").read()
	lines = data.split(b"\n")
	for n, line in enumerate(lines[:-1], 1):	# the last: "" or torn
	    try:
	        assert isinstance(json.loads(line), dict)
	    except (ValueError, AssertionError):
	        print("line %d: %r" % (n, line[:60]))
	if lines[-1]:
	    print("# a torn last line (%d bytes), as a kill may leave"
	          % len(lines[-1]), file=sys.stderr)
	EOF
}

midwrite=0
ref=$TMP/ref format=both

for i in 1 2 3 4; do
	bad "kill -9 of GDB mid-trace"
	kill_mid_trace gdb "gdb-kill$i"
	check_killed_run "GDB kill #$i"
done
for i in 1 2 3; do
	bad "kill -9 of LLDB mid-trace"
	kill_mid_trace lldb "lldb-kill$i"
	check_killed_run "LLDB kill #$i"
done

figure "$midwrite of 7 kills landed in the middle of writing a file (a temporary file left, named by nothing)"

# A per-function pipeline (toyc --per-function, as LLVM's function pass
# manager runs it): 523 functions, 5,230 pass runs, 10,460 events, traced
# in the default format, the debugger killed at random moments of it.
"$TOYC" --gen=21000 -o "$TMP/fn.ir"
"$TOYC" --per-function --print-before-all --print-after-all -o /dev/null \
	"$TMP/fn.ir" 2>"$TMP/fnref.err"
split_dumps "$TMP/fnref.err" "$TMP/fnref"
npass=$(find "$TMP/fnref" -name '*.after.ir' | wc -l)
nsnap=$((2 * npass))
check "toyc --per-function ran 5,000 pass runs or more (10,000 events: $nsnap), dumping each" \
	test "$nsnap" -ge 10000
trace_args=(--per-function -o /dev/null "$TMP/fn.ir")
ref=$TMP/fnref format=auto
for i in 1 2; do
	bad "kill -9 of GDB in a per-function trace"
	kill_mid_trace gdb "gdb-fnkill$i"
	check_killed_run "GDB per-function kill #$i"
done
bad "kill -9 of LLDB in a per-function trace"
kill_mid_trace lldb "lldb-fnkill1"
check_killed_run "LLDB per-function kill #1"
bad_summary
done_testing
