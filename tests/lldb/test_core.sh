#!/usr/bin/env bash
# Post-mortem under `lldb -b` on a core file of a crashed toyc (written by
# GDB's gcore: LLDB 14's own save-core writes stacks only): ir-dump
# --boundary and ir-report find the same pass as the live run and read the
# same IR straight from the core, whichever way the core was opened.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lldb_lib.sh"

# Live, under LLDB: trace to the crash and dump the IR there.
lldb_batch "$TMP/live.log" -o 'ir-trace on' -o run \
	-k "ir-dump --boundary -f text -o $TMP/live-crash.ir" \
	-- "$TOYC" --bug=crash "$DEMO"
live=$(latest_run)
live_pass=$(json_get "$live/failure.json" 'd["pass"]["name"]')
check_eq "the live run failed in constfold" constfold "$live_pass"
check "-k commands ran after the crash" test -s "$TMP/live-crash.ir"

# The same crash, saved by gcore.
timeout 60 gdb -nx -q -batch -ex run -ex "gcore $TMP/core" \
	--args "$TOYC" --bug=crash "$DEMO" >"$TMP/gcore.log" 2>&1
check "gcore wrote a core file at the crash" test -s "$TMP/core"

# Post-mortem: `lldb -c CORE PROGRAM`, no process at all.
lldb_batch "$TMP/core.log" -o "ir-dump --boundary -f both -o $TMP/core.ir" \
	-o 'ir-report' -o 'ir-verify' -o 'ir-status' -c "$TMP/core" "$TOYC"
check_eq "lldb -b ran every command on the core" 0 "$?"
check_eq "ir-dump --boundary on the core names the live run's pass" 1 \
	"$(grep -c "^ir-dump: pass '$live_pass' at frame #[0-9]* (pm_run_pass): Module at" "$TMP/core.log")"
check_files_eq "... and reads the IR the live process had at the crash" \
	"$TMP/live-crash.ir" "$TMP/core.ir"
check_files_eq "... which is constfold's input: it died before changing any" \
	"$live/$(json_get "$live/failure.json" 'd["before_snapshot"]["text"]')" \
	"$TMP/core.ir"
check "... and its JSON validates" "$IRSNAP" validate "$TMP/core.ir.json"

core_run=$(latest_run)
check "ir-report on the core wrote a new run's failure.json" \
	test "$core_run" != "$live" -a -f "$core_run/failure.json"
check_eq "ir-report: the core's signal and the same pass" \
	"signal SIGSEGV $live_pass" \
	"$(json_get "$core_run/failure.json" 'd["kind"] + " " + d["signal"]["name"] + " " + d["pass"]["name"]')"
check_files_eq "ir-report: its crash snapshot is the same IR" \
	"$TMP/core.ir" \
	"$core_run/$(json_get "$core_run/failure.json" 'd["crash_snapshot"]["text"]')"
check_eq "ir-report: the backtrace comes from the core, as the live one" \
	"$(json_get "$live/failure.json" '[f["function"] for f in d["backtrace"]]')" \
	"$(json_get "$core_run/failure.json" '[f["function"] for f in d["backtrace"]]')"
check "ir-report: the run validates" "$IRSNAP" validate "$core_run"
check "ir-verify on a core skips verifiers that call the debuggee" \
	grep -q 'skipped (it calls into the debuggee: live process only)' \
	"$TMP/core.log"
check_eq "the manifest records the debuggee as the core's program" "$TOYC" \
	"$(json_get "$core_run/manifest.json" 'd["debuggee"]["exe"]')"

# `target create --core` after the plugin is loaded works the same.
run_lldb -b -o "plugin load $PLUGIN" \
	-o "target create --core $TMP/core $TOYC" \
	-o "ir-layout load $LAYOUT" \
	-o "ir-dump --boundary -f text -o $TMP/core2.ir" \
	</dev/null >"$TMP/core2.log" 2>&1
check_files_eq "target create --core: the same IR" \
	"$TMP/live-crash.ir" "$TMP/core2.ir"

done_testing
