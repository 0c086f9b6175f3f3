# Helpers for the LLDB end-to-end tests (tests/lldb/test_*.sh): the real
# LLDB 14, the real plugin and the real toyc. Source it after tests/lib.sh.
LLDB_BIN=${LLDB_BIN:-lldb-14}
if ! command -v "$LLDB_BIN" >/dev/null 2>&1; then
	not_ok "$LLDB_BIN is installed" "install it: scripts/install-deps (Debian: apt-get install lldb-14)"
	done_testing
	exit 1
fi
LLDB_EXE=$(command -v "$LLDB_BIN")
PLUGIN=$BUILD/libirsnap-lldb.so
LAYOUT=$FIXTURES/toyc/toyc.lua
DEMO=$FIXTURES/toyc/demo.ir
RUNS=$TMP/runs
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

# run_lldb ARGS...: LLDB with the sanitizer runtimes a sanitized build
# needs, bounded in time.
run_lldb() {
	ASAN_OPTIONS=$LLDB_ASAN_OPTIONS LD_PRELOAD=$LLDB_PRELOAD \
		timeout -k 5 "${LLDB_TIMEOUT:-60}" "$LLDB_BIN" -x \
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
	ASAN_OPTIONS="\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0" \\
	LD_PRELOAD="$LLDB_PRELOAD" exec "$LLDB_EXE" \\
		-O 'settings set target.env-vars LD_PRELOAD=' "\$@"
	EOF
	chmod +x "$1/lldb-14"
}

# lldb_batch LOG ARGS...: `lldb -b` with the plugin, run directories under
# $RUNS (set with ir-set) and the toyc layout, then ARGS (more -o and -k
# commands, then "-- PROGRAM ARGS..."). Everything LLDB prints goes to LOG;
# returns LLDB's status. Standard input is closed: after a crash LLDB reads
# commands from it.
lldb_batch() {
	local log=$1; shift
	run_lldb -b -o "plugin load $PLUGIN" -o "ir-set dir $RUNS" \
		-o "ir-layout load $LAYOUT" "$@" </dev/null >"$log" 2>&1
}

# lldb_session LOG SCRIPT ARGS...: LLDB running the commands of SCRIPT one
# after the other as a user types them, a failing one not ending the
# session (`command source -e false`; commands run synchronously).
lldb_session() {
	local log=$1 script=$2; shift 2
	run_lldb -b -o "command source -e false -- $script" "$@" \
		</dev/null >"$log" 2>&1
}

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

# events RUN: "seq pass phase text-path" per manifest event.
events() {
	python3 - "$1/manifest.json" <<-'EOF'
	import json, sys
	d = json.load(open(sys.argv[1]))
	for e in d["events"]:
	    snap = e.get("snapshot") or {}
	    print(e["seq"], e["pass"], e["phase"], snap.get("text") or "-")
	EOF
}

# bug_pass BUG: the pass toyc's --bug=help says BUG lives in.
bug_pass() { "$TOYC" --bug=help | awk -v b="$1" '$1 == b { print $2 }'; }
