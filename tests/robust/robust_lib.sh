# Helpers for the fault-injection tests (tests/robust/test_*.sh): counting
# the bad inputs a script tries, timing a debugger command, finding and
# reaping the processes a killed debugger leaves, and checking that a run
# directory's snapshots are exactly toyc's own dumps. Source it after
# tests/lib.sh and the debugger driver (tests/e2e/debugger.sh).

# A debugger killed mid-trace leaves its debuggee to die of a stray
# breakpoint trap: no core files in the tree.
ulimit -c 0

# bad KIND: counts one bad input (a fault, a broken layout, corrupt IR)
# the script tried; bad_summary prints the counts as TAP comments.
declare -A _bad_kinds=()
_bad_order=()
_bad_total=0
bad() {
	[ -n "${_bad_kinds[$1]:-}" ] || _bad_order+=("$1")
	_bad_kinds[$1]=$(( ${_bad_kinds[$1]:-0} + 1 ))
	_bad_total=$((_bad_total + 1))
}
bad_summary() {
	local k
	echo "# bad inputs tried: $_bad_total"
	for k in "${_bad_order[@]}"; do
		echo "#   ${_bad_kinds[$k]} x $k"
	done
}

# STAMP_GDB, STAMP_LLDB: the command that makes GDB (`shell`) or LLDB
# (`platform shell`) print "T<seconds since the epoch> <user> <system>",
# the last two the CPU time the debugger has used so far, in clock ticks;
# elapsed LOG: "WALL CPU" in seconds between consecutive pairs of those
# lines in LOG, one pair a line. CPU time is what a budget limits, and
# what a busy machine does not inflate.
# (A script, since LLDB's `platform shell` leaves $(...) unexpanded.)
cat >"$TMP/.stamp" <<'EOF'
echo "T$(date +%s.%N) $(cut -d' ' -f14,15 "/proc/$1/stat")"
EOF
STAMP_GDB="shell sh $TMP/.stamp \$PPID"
STAMP_LLDB="platform shell sh $TMP/.stamp \$PPID"
elapsed() {
	awk -v hz="$(getconf CLK_TCK)" '/^T[0-9]+\.[0-9]+ [0-9]+ [0-9]+$/ {
		t = substr($1, 2); c = ($2 + $3) / hz
		if (++k % 2 == 0) printf "%.3f %.3f\n", t - pt, c - pc
		pt = t; pc = c }' "$1"
}

# robust_session DBG LOG SECONDS CMD... -- PROGRAM ARGS...: PROGRAM under
# DBG (GDB or LLDB) with irsnap loaded runs each CMD (in DBG's own syntax;
# =STAMP is DBG's STAMP_* command), then prints @@END; LLDB then kills
# PROGRAM, which batch mode would wait on. DBG gets SECONDS, LOG all it
# prints; returns DBG's status.
robust_session() {
	local dbg=$1 log=$2 secs=$3 args=()
	shift 3
	if [ "$dbg" = GDB ]; then
		while [ "$1" != -- ]; do
			case $1 in
			=STAMP) args+=(-ex "$STAMP_GDB") ;;
			*) args+=(-ex "$1") ;;
			esac
			shift
		done
		shift
		GDB_TIMEOUT=$secs run_gdb "$log" "${args[@]}" \
			-ex 'echo @@END\n' --args "$@"
	else
		{
			echo "plugin load $PLUGIN"
			while [ "$1" != -- ]; do
				case $1 in
				=STAMP) echo "$STAMP_LLDB" ;;
				*) echo "$1" ;;
				esac
				shift
			done
			echo 'platform shell echo @@END'
			echo kill
		} >"$log.cmds"
		shift
		LLDB_TIMEOUT=$secs lldb_session "$log" "$log.cmds" -- "$@"
	fi
}

# descendants PID: every process below PID, parents first.
descendants() {
	local p
	for p in $(pgrep -P "$1"); do
		echo "$p"
		descendants "$p"
	done
}

# comm_of PID: the command name of process PID; empty when it is gone or
# a zombie.
comm_of() {
	local c stat
	{ read -r c <"/proc/$1/comm" && read -r stat <"/proc/$1/stat"; } \
		2>/dev/null || return 0
	stat=${stat##*) }
	[ "${stat%% *}" = Z ] || echo "$c"
}

# pid_named ROOT NAME: the first process below ROOT whose command is NAME.
pid_named() {
	local p
	for p in $(descendants "$1"); do
		if [ "$(comm_of "$p")" = "$2" ]; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# nap SECONDS: sleeps without starting a process (a read that times out
# on a FIFO nobody writes), so that polling stays fast and cheap.
mkfifo "$TMP/.nap"
exec {_nap_fd}<>"$TMP/.nap"
nap() { read -r -t "$1" -u "$_nap_fd" || :; }

# wait_for SECONDS CMD...: polls CMD every 2 ms until it succeeds; fails
# when SECONDS pass first.
wait_for() {
	local end=$((SECONDS + $1)); shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		nap 0.002
	done
}

# now_us: microseconds since the epoch, without starting a process.
now_us() { echo "${EPOCHREALTIME/./}"; }

# bounded SECONDS CMD...: runs CMD (a shell function too) and, if it runs
# longer than SECONDS, kills it and every process it started with SIGKILL
# (a debugger busy in C code ignores the SIGTERM of timeout(1)). Returns
# CMD's status, or 124 when it had to be killed.
bounded() {
	local end=$(( $(now_us) + $1 * 1000000 )) pid; shift
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$(now_us)" -gt "$end" ]; then
			# shellcheck disable=SC2046 # one pid a word
			kill -9 $(descendants "$pid") "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			return 124
		fi
		nap 0.01
	done
	wait "$pid"
}

# tree PID: "pid command" of PID and its live descendants, for reap.
tree() {
	local p c
	for p in "$1" $(descendants "$1"); do
		c=$(comm_of "$p")
		[ -z "$c" ] || echo "$p $c"
	done
}

# reap PID COMMAND...: kills with SIGKILL those of the processes (given as
# pairs, recorded while their parent lived) that still run the same
# command, and waits until they are gone.
reap() {
	local pid comm
	while [ $# -ge 2 ]; do
		pid=$1 comm=$2; shift 2
		[ "$(comm_of "$pid")" = "$comm" ] || continue
		kill -9 "$pid" 2>/dev/null
		wait_for 5 eval "[ \"\$(comm_of $pid)\" != '$comm' ]"
	done
}

# split_dumps ERR DIR: toyc's --print-before-all --print-after-all output
# ERR cut at its banner lines into DIR/NNNN-PASS.before.ir and .after.ir,
# NNNN counting the passes as they ran: the files an exact trace holds.
split_dumps() {
	mkdir -p "$2"
	awk -v dir="$2" '
		/^; \*\*\* IR Dump (Before|After) .* \*\*\*$/ {
			if (out) close(out)
			when = $5 == "Before" ? "before" : "after"
			if (when == "before") n++
			out = sprintf("%s/%04d-%s.%s.ir", dir, n, $6, when)
			printf "" >out
			next
		}
		/^toyc: / { if (out) close(out); out = ""; next }
		out { print >out }' "$1"
}

# snapshot_problems RUN REFDIR [SKIPPED]: every snapshot RUN's manifest
# names, against the file of the same pass and phase in REFDIR
# (split_dumps), the run having begun SKIPPED passes late (default 0); one
# line per problem, nothing when all are exact. A name that is not
# snapshots/NNNN-PASS.PHASE.ir/.json (a temporary file) is a problem too.
snapshot_problems() {
	PYTHONPATH=$IRSNAP_ROOT/tests python3 - "$1" "$2" "${3:-0}" 2>&1 <<-'EOF'
	import filecmp, json, os, sys, run_doc
	run, ref, skipped = sys.argv[1], sys.argv[2], int(sys.argv[3])
	m = run_doc.load(run)
	# the formats every snapshot has (format auto: the text alone)
	kinds = [("text", ".ir")]
	if "json" in m["options"]["formats"]:
	    kinds.append(("json", ".json"))
	for e in m["events"]:
	    snap = e.get("snapshot")
	    if not snap:
	        continue
	    base = "%04d-%s.%s" % (e["seq"], e["pass"], e["phase"])
	    for kind, ext in kinds:
	        name = snap.get(kind)
	        if name != "snapshots/" + base + ext:
	            print("event %s: %s is %r, not snapshots/%s%s"
	                  % (base, kind, name, base, ext))
	    text = os.path.join(run, snap.get("text") or "-")
	    want = os.path.join(ref, "%04d-%s.%s.ir" % (e["seq"] + skipped,
	                                                e["pass"], e["phase"]))
	    if not os.path.exists(want):
	        print("event %s: toyc ran no such pass" % base)
	    elif not os.path.exists(text):
	        print("event %s: %s is missing" % (base, text))
	    elif not filecmp.cmp(want, text, shallow=False):
	        print("event %s: text differs from toyc's dump" % base)
	EOF
}

# nevents RUN: how many events RUN's manifest lists.
nevents() { run_json "$1" 'len(d["events"])'; }

# ntemp DIR: temporary files (NAME.tmp.PID.N) under DIR.
ntemp() { find "$1" -name '*.tmp.*' | wc -l; }
