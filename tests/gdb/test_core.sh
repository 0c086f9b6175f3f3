#!/usr/bin/env bash
# Post-mortem under `gdb -batch` on a core file of a crashed toyc:
# ir-dump --boundary and ir-report find the same pass as the live run and
# read the same IR straight from the core.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/gdb/gdb_lib.sh"

# Live: trace to the crash, then save a core of the dying process.
run_gdb "$TMP/live.log" -ex "ir-layout load $LAYOUT" -ex 'ir-trace on' \
	-ex run -ex "ir-dump --boundary -f text -o $TMP/live-crash.ir" \
	-ex "gcore $TMP/core" --args "$TOYC" --bug=crash "$DEMO"
live=$(latest_run)
check "gcore wrote a core file at the crash" test -s "$TMP/core"
live_pass=$(json_get "$live/failure.json" 'd["pass"]["name"]')
check_eq "the live run failed in constfold" constfold "$live_pass"

# Post-mortem, in a new GDB with no process at all.
run_gdb "$TMP/core.log" -ex "ir-layout load $LAYOUT" \
	-ex "ir-dump --boundary -f both -o $TMP/core.ir" \
	-ex 'ir-report' -ex 'ir-verify' -ex 'echo @@END\n' \
	"$TOYC" "$TMP/core"
check "gdb -batch ran every command on the core" grep -q '^@@END' \
	"$TMP/core.log"
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
check "ir-report: the backtrace comes from the core" \
	test "$(json_get "$core_run/failure.json" '[f["function"] for f in d["backtrace"]].count("pm_run_pass")')" -ge 1
check "ir-report: the run validates" "$IRSNAP" validate "$core_run"
check "ir-verify on a core skips verifiers that call the debuggee" \
	grep -q 'skipped (it calls into the debuggee: live process only)' \
	"$TMP/core.log"

done_testing
