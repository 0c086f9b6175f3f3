# The end-to-end driver: the real GDB and the real LLDB 14 behind one set of
# helpers, and every place where the two differ, once, named per debugger.
# Source it after tests/lib.sh.
#
# A scenario (tests/e2e/test_*.sh) runs under $DEBUGGER, gdb or lldb:
# tests/run runs each one once per debugger, as suites e2e/gdb/NAME and
# e2e/lldb/NAME, so a failure names the debugger. A scenario
#   - starts the debugger through dbg_batch (batch mode; commands after a
#     crash as -k) or dbg_session (a script of commands, a failing one not
#     ending the session), irsnap loaded and run directories under $RUNS;
#   - spells the few commands that differ with dbg_cmd (breakpoints,
#     settings, markers, frames, cores); the ir-* commands are the same;
#   - matches what the debugger itself prints with the DBG_* patterns and
#     dbg_says, and cuts its output at markers with dbg_section;
#   - guards a check that only one debugger can make with
#     `only_under DEBUGGER WHY`.
# Suites that drive GDB or LLDB by name (tests/robust, tests/replay,
# tests/cli, and the parity scenario, which runs both) call
# require_debuggers and use the halves directly: run_gdb, gdb_batch,
# gdb_session, run_lldb, lldb_batch, lldb_session, lldb_wrapper.
LLDB_BIN=${LLDB_BIN:-lldb-14}
LAYOUT=$FIXTURES/toyc/toyc.lua
DEMO=$FIXTURES/toyc/demo.ir
# Run directories, in both debuggers (GDB's default is $IRSNAP_DIR, which a
# caller of run_gdb may set per call).
RUNS=$TMP/runs
export IRSNAP_DIR=$RUNS

# require_debuggers NAME...: each of gdb and lldb named is installed, or the
# suite fails here with the command that installs it (never a skip).
require_debuggers() {
	local d bin pkg
	for d in "$@"; do
		case $d in
		gdb) bin=gdb pkg=gdb ;;
		lldb) bin=$LLDB_BIN pkg=lldb-14 ;;
		*)
			not_ok "DEBUGGER is gdb or lldb" "DEBUGGER='$d'"
			done_testing
			exit 1 ;;
		esac
		if ! command -v "$bin" >/dev/null 2>&1; then
			not_ok "$bin is installed" "install it: scripts/install-deps (Debian: apt-get install $pkg)"
			done_testing
			exit 1
		fi
	done
}

# ==== Neutral helpers ===================================================

# toyc_dump FILE WHEN PASS N: the N-th "; *** IR Dump WHEN PASS ***"
# section of FILE (toyc's stderr), without its banner.
toyc_dump() {
	awk -v want="; *** IR Dump $2 $3 ***" -v n="$4" '
		/^; \*\*\* IR Dump / { on = ($0 == want && ++k == n); next }
		/^toyc: / { on = 0 }
		on { print }' "$1"
}

# json_get FILE PYEXPR: evaluates PYEXPR with `d` the parsed JSON of FILE.
json_get() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"
}

# latest_run: the run directory `latest` points at.
latest_run() { readlink -f "$RUNS/latest"; }

# events RUN: "seq pass phase text-path" per event of the run.
events() {
	run_json "$1" '"\n".join("%s %s %s %s" % (e["seq"], e["pass"], e["phase"], (e.get("snapshot") or {}).get("text") or "-") for e in d["events"])'
}

# bug_pass BUG: the pass toyc's --bug=help says BUG lives in.
bug_pass() { "$TOYC" --bug=help | awk -v b="$1" '$1 == b { print $2 }'; }

# show_log FILE [N]: the last lines of a log, as TAP diagnostics.
# A debugger that died of a signal printed its own backtrace: show all of
# it, since a flaky crash may not come back when rerun.
show_log() {
	if grep -q '^Fatal signal' "$1" 2>/dev/null; then
		sed -n '/^Fatal signal/,$p' "$1" | head -80
	else
		tail -"${2:-8}" "$1"
	fi
}

# ==== GDB ===============================================================

# The library GDB loads is the one this build made; a sanitized build's
# unsanitized copy (mk/gdb.mk: GDB cannot host the ASan runtime).
export IRSNAP_LIB=$BUILD/libirsnap.so
if [ -f "$BUILD/plain/libirsnap.so" ]; then
	IRSNAP_LIB=$BUILD/plain/libirsnap.so
fi
# GDB 13 cannot call debuggee functions on AMX CPUs without this shim (see
# gdb/xstate_fix.c); it is harmless elsewhere.
GDB_PRELOAD=$BUILD/libirsnap-gdb-xstate.so

# scaled SECONDS: a hang guard stretched by $IRSNAP_TIMEOUT_SCALE (tests/run
# sets 3 for the sanitized run, whose LLDB takes minutes to load
# libLLVM-14's symbols); a guard, never a bar a test asserts.
scaled() { echo $(($1 * ${IRSNAP_TIMEOUT_SCALE:-1})); }

# gdb_bare OUT ARGS...: GDB in batch mode, irsnap not loaded, bounded in
# time; everything it prints goes to OUT. Returns GDB's status.
gdb_bare() {
	local out=$1; shift
	# -k: a GDB busy in C ignores SIGTERM; SIGKILL it 5 s later.
	LD_PRELOAD=$GDB_PRELOAD timeout -k 5 "$(scaled "${GDB_TIMEOUT:-60}")" \
		gdb -nx -q -batch "$@" >"$out" 2>&1
}

# run_gdb OUT ARGS...: the same with irsnap loaded first.
run_gdb() {
	local out=$1; shift
	gdb_bare "$out" -ex "source $IRSNAP_ROOT/gdb/irsnap.py" "$@"
}

# _gdb_words ARGS...: lldb_batch's words after its commands, appended to
# the caller's array `args` as GDB's: -o CMD and -k CMD both become -ex CMD
# (GDB goes on with its commands after the program crashed, so "only after
# a crash" needs no word of its own); "-- PROGRAM ARGS..." becomes --args;
# "-c CORE PROGRAM" becomes "PROGRAM CORE"; "-p PID" (attach) stays.
_gdb_words() {
	while [ $# -gt 0 ]; do
		case $1 in
		-o | -k) args+=(-ex "$2"); shift 2 ;;
		-c) args+=("$3" "$2"); shift 3 ;;
		-p) args+=(-p "$2"); shift 2 ;;
		--) shift; args+=(--args "$@"); return 0 ;;
		*) echo "gdb: unknown driver word '$1'" >&2; return 2 ;;
		esac
	done
}

# gdb_batch LOG ARGS...: lldb_batch for GDB: `gdb -batch` with irsnap, run
# directories under $RUNS (`set irsnap dir`) and the toyc layout, then ARGS
# (see _gdb_words). Everything GDB prints goes to LOG; returns its status.
gdb_batch() {
	local log=$1; shift
	local args=(-ex "set irsnap dir $RUNS" -ex "ir-layout load $LAYOUT")
	_gdb_words "$@" || return
	run_gdb "$log" "${args[@]}" </dev/null
}

# gdb_session LOG SCRIPT ARGS...: GDB with irsnap and run directories under
# $RUNS running the commands of SCRIPT (no layout loaded: SCRIPT loads it),
# a failing one not ending the session. Each line is one -ex: GDB runs
# every -ex whatever the one before did, while `source SCRIPT` would stop
# at the first error.
gdb_session() {
	local log=$1 script=$2 line; shift 2
	local args=(-ex "set irsnap dir $RUNS")
	while IFS= read -r line; do
		args+=(-ex "$line")
	done <"$script"
	_gdb_words "$@" || return
	run_gdb "$log" "${args[@]}" </dev/null
}

# gdb_trace_toyc LOG ARGS...: `toyc ARGS` traced under gdb -batch with the
# toyc layout (ir-trace on) in format $TRACE_FORMAT (default auto), run
# directories under $IRSNAP_DIR (default $RUNS); the run is then
# $IRSNAP_DIR/latest. Returns GDB's status.
gdb_trace_toyc() {
	local log=$1; shift
	run_gdb "$log" -ex "ir-layout load $LAYOUT" \
		-ex "set irsnap format ${TRACE_FORMAT:-auto}" \
		-ex 'ir-trace on' -ex run --args "$TOYC" "$@" </dev/null
}

# gdb_crash_core LOG DUMP CORE -- PROGRAM ARGS...: see dbg_crash_core. GDB
# saves the core of the very process it traced, with gcore.
gdb_crash_core() {
	local log=$1 dump=$2 core=$3; shift 3
	gdb_batch "$log" -o 'ir-trace on' -o run \
		-k "ir-dump --boundary -f text -o $dump" -k "gcore $core" "$@"
}

# ==== LLDB ==============================================================

PLUGIN=$BUILD/libirsnap-lldb.so
# Resolved now, before a caller puts lldb_wrapper's directory in PATH.
LLDB_EXE=$(command -v "$LLDB_BIN")
# A sanitized build's plugin needs the sanitizer runtimes in LLDB (LLDB
# hosts them, unlike GDB). LLDB leaks by design, so LLDB alone runs
# without leak checking: the rest of tests/run's ASAN_OPTIONS (exitcode,
# log_path) stay, so a report from the plugin still fails the suite, and
# the sanitized irsnap the scripts run keeps its leak check. The debuggee
# is never sanitized: it gets an empty LD_PRELOAD.
LLDB_PRELOAD=
LLDB_ASAN_OPTIONS=${ASAN_OPTIONS:-}
if ldd "$BUILD/libirsnap.so" 2>/dev/null | grep -q libasan; then
	LLDB_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
	LLDB_ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
fi

# Debian's python3-lldb-14 installs LLDB's Python module where lldb-14
# does not look (`lldb-14 -P` names /usr/lib/local/...): without it on
# PYTHONPATH, LLDB starts with "ModuleNotFoundError: No module named
# 'lldb.embedded_interpreter'" (irs_lldb_python_dir() in launch.h; irsnap
# replay sets it the same way, and lldb/README.md tells users).
LLDB_PYTHON=
for _d in /usr/lib/llvm-14/lib/python3*/dist-packages; do
	[ -f "$_d/lldb/embedded_interpreter.py" ] && LLDB_PYTHON=$_d
done
LLDB_PYTHONPATH=$LLDB_PYTHON${PYTHONPATH:+:$PYTHONPATH}

# run_lldb ARGS...: LLDB with the sanitizer runtimes a sanitized build
# needs, bounded in time.
run_lldb() {
	PYTHONPATH=$LLDB_PYTHONPATH \
	ASAN_OPTIONS=$LLDB_ASAN_OPTIONS LD_PRELOAD=$LLDB_PRELOAD \
		timeout -k 5 "$(scaled "${LLDB_TIMEOUT:-60}")" "$LLDB_BIN" -x \
		-O 'settings set target.env-vars LD_PRELOAD=' "$@"
}

# lldb_wrapper DIR: when the plugin is sanitized, writes DIR/lldb-14, an
# LLDB started as run_lldb starts it, for programs that find LLDB in $PATH
# themselves (irsnap replay); put DIR first in PATH. Nothing otherwise.
lldb_wrapper() {
	[ -n "$LLDB_PRELOAD" ] || return 0
	mkdir -p "$1"
	cat >"$1/lldb-14" <<-EOF
	#!/bin/sh
	PYTHONPATH="$LLDB_PYTHONPATH" \\
	ASAN_OPTIONS="\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0" \\
	LD_PRELOAD="$LLDB_PRELOAD" exec "$LLDB_EXE" \\
		-O 'settings set target.env-vars LD_PRELOAD=' "\$@"
	EOF
	chmod +x "$1/lldb-14"
}

# lldb_batch LOG ARGS...: `lldb -b` with the plugin, run directories under
# $RUNS (set with ir-set) and the toyc layout, then ARGS (more -o and -k
# commands, then "-- PROGRAM ARGS..." or "-c CORE PROGRAM"). Everything
# LLDB prints goes to LOG; returns LLDB's status. Standard input is closed:
# after a crash LLDB reads commands from it.
lldb_batch() {
	local log=$1; shift
	run_lldb -b -o "plugin load $PLUGIN" -o "ir-set dir $RUNS" \
		-o "ir-layout load $LAYOUT" "$@" </dev/null >"$log" 2>&1
}

# lldb_session LOG SCRIPT ARGS...: LLDB running the commands of SCRIPT one
# after the other as a user types them, a failing one not ending the
# session (`command source -e false`; commands run synchronously). Nothing
# is loaded first: SCRIPT loads the plugin.
lldb_session() {
	local log=$1 script=$2; shift 2
	run_lldb -b -o "command source -e false -- $script" "$@" \
		</dev/null >"$log" 2>&1
}

# lldb_irsnap_session LOG SCRIPT ARGS...: gdb_session for LLDB: the plugin
# and run directories under $RUNS, then lldb_session. A crash ends it (LLDB
# in batch mode stops reading commands): use lldb_batch's -k for those.
lldb_irsnap_session() {
	local log=$1 script=$2; shift 2
	{
		echo "plugin load $PLUGIN"
		echo "ir-set dir $RUNS"
		cat "$script"
	} >"$script.lldb"
	lldb_session "$log" "$script.lldb" "$@"
}

# lldb_crash_core LOG DUMP CORE -- PROGRAM ARGS...: see dbg_crash_core.
# LLDB 14's `process save-core` writes the stacks only, so GDB's gcore
# saves the core, of a second, identical run (toyc is deterministic).
lldb_crash_core() {
	local log=$1 dump=$2 core=$3 status; shift 3
	lldb_batch "$log" -o 'ir-trace on' -o run \
		-k "ir-dump --boundary -f text -o $dump" "$@"
	status=$?
	shift	# --
	GDB_TIMEOUT=60 gdb_bare "$log.gcore" -ex run -ex "gcore $core" \
		--args "$@"
	return $status
}

# ==== What the two print differently ===================================

# expect_output DEBUGGER: sets the DBG_* patterns (extended regular
# expressions) and names for what DEBUGGER itself prints.
expect_output() {
	case $1 in
	gdb)
		DBG_NAME=GDB
		DBG_BATCH="gdb -batch"
		DBG_ERR=""		# before an error line
		DBG_ECHO='^[(]gdb[)] '	# an echoed command (none in batch mode)
		DBG_MANIFEST='^gdb [0-9]'	# the manifest's "debugger"
		DBG_USER_STOP='^(Breakpoint [0-9]+, |Program received)'	# a stop shown (not "Breakpoint N at", which sets one)
		DBG_EXITED_0='exited normally'	# the program exited with 0
		DBG_INTERNAL_ERROR='Traceback'	# irsnap failed in the debugger
		DBG_HELP_USAGE='Usage: ir-dump'	# help's usage line
		;;
	lldb)
		DBG_NAME=LLDB
		DBG_BATCH="lldb -b"
		DBG_ERR="error: "
		DBG_ECHO='^[(]lldb[)] '
		DBG_MANIFEST='^lldb 14[. ]'
		DBG_USER_STOP='stop reason'
		DBG_EXITED_0='exited with status = 0'
		# (not Traceback: an LLDB without its Python prints one at
		# start-up)
		DBG_INTERNAL_ERROR='PLEASE submit a bug report|Stack dump:|terminate called'
		DBG_HELP_USAGE='Syntax: ir-dump'
		;;
	esac
}

# says DEBUGGER WHAT ARGS...: what DEBUGGER prints for
#   no-symbol NAME        its reason for an undefined NAME
#   shown KEY VALUE       `spell show KEY`, when KEY is VALUE
#   refused-format VALUE  `spell set format VALUE`
#   frame0 FUNCTION       `spell frame` in FUNCTION at frame 0 (a pattern)
#   crash-status SIGNO    its batch's exit status when the program died of
#                         SIGNO while irsnap traced it: both as a shell
#                         reports it, 128 + SIGNO (irs_console_exit_status)
says() {
	local debugger=$1 gdb lldb
	shift
	case $1 in
	no-symbol)
		gdb="No symbol \"$2\" in current context."
		lldb="use of undeclared identifier '$2'" ;;
	shown) gdb="irsnap $2 is $3." lldb="$2 $3" ;;
	refused-format)
		gdb="Undefined item: \"$2\"."
		lldb="error: ir-set: format must be auto, text, json or both, not '$2'" ;;
	frame0) gdb="^#0 .*$2" lldb="^frame #0: .*$2" ;;
	crash-status) gdb=$((128 + $2)) lldb=$((128 + $2)) ;;
	*) echo "says: nothing for '$1'" >&2; return 2 ;;
	esac
	case $debugger in
	gdb) printf '%s\n' "$gdb" ;;
	lldb) printf '%s\n' "$lldb" ;;
	esac
}

# failed_status DEBUGGER: the exit status of a session (gdb_session,
# lldb_session, run_gdb with -ex lines) in which an ir-* command failed and
# the program did not die: `gdb -batch` ends with 1 (irsnap's exit rule,
# irs_console_exit_status), LLDB's `command source -e false` with 0, as it
# was told to go on regardless. DEBUGGER is gdb, lldb, GDB or LLDB.
failed_status() {
	case $1 in
	gdb | GDB) echo 1 ;;
	*) echo 0 ;;
	esac
}

# ==== Commands that the two spell differently ===========================

# spell DEBUGGER VERB ARGS...: DEBUGGER's command line(s) for
#   load                    load irsnap (again)
#   break FUNCTION          a breakpoint at FUNCTION
#   delete-all              delete every breakpoint, asking nothing
#   echo TEXT               print TEXT on a line of its own (a marker)
#   set KEY VALUE           irsnap's setting, the debugger's own way
#   show KEY                print irsnap's setting, the debugger's own way
#   frame                   describe the selected frame
#   confirm-off             do not ask before killing the program
#   open-core CORE PROGRAM  open a core file, irsnap already loaded
# LLDB 14 lets a plugin add no `settings set` entries, so its own way is
# ir-set; its `script` needs a Python this LLDB may lack, so a marker is a
# shell's echo.
spell() {
	local debugger=$1 gdb lldb
	shift
	case $1 in
	load) gdb="source $IRSNAP_ROOT/gdb/irsnap.py" lldb="plugin load $PLUGIN" ;;
	break) gdb="break $2" lldb="breakpoint set -n $2" ;;
	breakpoints) gdb="info breakpoints" lldb="breakpoint list" ;;
	delete-all) gdb="delete" lldb="breakpoint delete -f" ;;
	echo) gdb="echo $2\\n" lldb="platform shell echo $2" ;;
	set) gdb="set irsnap $2 $3" lldb="ir-set $2 $3" ;;
	show) gdb="show irsnap $2" lldb="ir-set $2" ;;
	frame) gdb="frame" lldb="frame info" ;;
	confirm-off) gdb="set confirm off" lldb="settings set auto-confirm true" ;;
	open-core)
		gdb="file $3"$'\n'"core-file $2"
		lldb="target create --core $2 $3" ;;
	*) echo "spell: no verb '$1'" >&2; return 2 ;;
	esac
	case $debugger in
	gdb) printf '%s\n' "$gdb" ;;
	lldb) printf '%s\n' "$lldb" ;;
	esac
}

# ==== The debugger under test: $DEBUGGER ================================

# dbg_batch LOG ARGS...: $DEBUGGER in batch mode with irsnap, run
# directories under $RUNS and the toyc layout, then ARGS: -o CMD, -k CMD
# (run only after the program crashed: LLDB's -k; GDB runs it in turn),
# then "-- PROGRAM ARGS...", "-c CORE PROGRAM" or "-p PID" (attach to a
# running process). Under LLDB a failing -o
# ends the batch. $DBG_TIMEOUT bounds it (default 60 s). Returns the
# debugger's status.
dbg_batch() {
	GDB_TIMEOUT=${DBG_TIMEOUT:-60} LLDB_TIMEOUT=${DBG_TIMEOUT:-60} \
		"${DEBUGGER}_batch" "$@"
}
# dbg_session LOG SCRIPT [ARGS...]: $DEBUGGER with irsnap and run
# directories under $RUNS running SCRIPT's commands (one a line, no layout
# loaded first), a failing command not ending the session; a crash does
# under LLDB. ARGS as dbg_batch's after its commands.
dbg_session() {
	local fn=gdb_session
	[ "$DEBUGGER" = lldb ] && fn=lldb_irsnap_session
	GDB_TIMEOUT=${DBG_TIMEOUT:-60} LLDB_TIMEOUT=${DBG_TIMEOUT:-60} \
		"$fn" "$@"
}
# dbg_cmd VERB ARGS...: $DEBUGGER's command line(s) for VERB (spell).
dbg_cmd() { spell "$DEBUGGER" "$@"; }
# dbg_crash_core LOG DUMP CORE -- PROGRAM ARGS...: traces PROGRAM to its
# crash, dumps the IR of the pass boundary there into DUMP (text), and
# leaves a core file of that crash in CORE. Returns the debugger's status.
dbg_crash_core() { "${DEBUGGER}_crash_core" "$@"; }
# dbg_says WHAT ARGS...: what $DEBUGGER prints for WHAT (says).
dbg_says() { says "$DEBUGGER" "$@"; }

# dbg_section LOG [FROM [TO]]: the lines of LOG after the marker line FROM
# (`dbg_cmd echo FROM`; from the start when empty) and before TO (to the
# end when empty), without the commands the debugger echoes.
dbg_section() {
	awk -v from="${2:-}" -v to="${3:-}" -v echo_re="$DBG_ECHO" '
		BEGIN { on = (from == "") }
		on && to != "" && $0 == to { exit }
		$0 == from { on = 1; next }
		on && $0 !~ echo_re { print }' "$1"
}

# only_under DEBUGGER WHY: true under DEBUGGER. The checks it guards are
# that debugger's alone, for the reason WHY, which the other one's log
# says instead (a TAP comment: not a check, and not a skip).
only_under() {
	[ "$DEBUGGER" = "$1" ] && return 0
	echo "# $1 only: $2"
	return 1
}

if [ -n "${DEBUGGER:-}" ]; then
	require_debuggers "$DEBUGGER"
	expect_output "$DEBUGGER"
fi
