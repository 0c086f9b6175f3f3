# Helpers for the GDB end-to-end tests (tests/gdb/test_*.sh); source it
# after tests/lib.sh. The tests drive the real GDB against the real toyc.
if ! command -v gdb >/dev/null 2>&1; then
	not_ok "gdb is installed" "install it: scripts/install-deps (Debian: apt-get install gdb)"
	done_testing
	exit 1
fi
LAYOUT=$FIXTURES/toyc/toyc.lua
DEMO=$FIXTURES/toyc/demo.ir
export IRSNAP_DIR=$TMP/runs
# The library GDB loads is the one this build made; a sanitized build's
# unsanitized copy (mk/gdb.mk: GDB cannot host the ASan runtime).
export IRSNAP_LIB=$BUILD/libirsnap.so
if [ -f "$BUILD/plain/libirsnap.so" ]; then
	IRSNAP_LIB=$BUILD/plain/libirsnap.so
fi
# GDB 13 cannot call debuggee functions on AMX CPUs without this shim (see
# gdb/xstate_fix.c); it is harmless elsewhere.
GDB_PRELOAD=$BUILD/libirsnap-gdb-xstate.so

# run_gdb OUT ARGS...: GDB in batch mode with irsnap loaded, bounded in
# time; everything it prints goes to OUT. Returns GDB's status.
run_gdb() {
	local out=$1; shift
	# -k: a GDB busy in C ignores SIGTERM; SIGKILL it 5 s later.
	LD_PRELOAD=$GDB_PRELOAD timeout -k 5 "${GDB_TIMEOUT:-60}" gdb -nx -q -batch \
		-ex "source $IRSNAP_ROOT/gdb/irsnap.py" "$@" >"$out" 2>&1
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
latest_run() { readlink -f "$IRSNAP_DIR/latest"; }

# show_log FILE: the last lines of a log, as TAP diagnostics.
show_log() { tail -"${2:-8}" "$1"; }
