#!/usr/bin/env bash
# Post-mortem under $DEBUGGER in batch mode on a core file of a crashed
# toyc: ir-dump --boundary and ir-report find the same pass as the live run
# and read the same IR straight from the core, whichever way the core was
# opened (on the command line, or after irsnap was loaded).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

# Live: trace to the crash, dump the IR there, and keep a core of it.
dbg_crash_core "$TMP/live.log" "$TMP/live-crash.ir" "$TMP/core" \
	-- "$TOYC" --bug=crash "$DEMO"
live=$(latest_run)
live_pass=$(json_get "$live/failure.json" 'd["pass"]["name"]')
check_eq "the live run failed in constfold" constfold "$live_pass"
check "commands after the crash ran" test -s "$TMP/live-crash.ir"
check "gcore wrote a core file at the crash" test -s "$TMP/core"

# Post-mortem, in a new debugger with no process at all.
dbg_batch "$TMP/core.log" -o "ir-dump --boundary -f both -o $TMP/core.ir" \
	-o 'ir-report' -o 'ir-verify' -o 'ir-status' \
	-o "$(dbg_cmd echo @@END)" -c "$TMP/core" "$TOYC"
check_eq "$DBG_BATCH ran every command on the core and exited 0" "0 1" \
	"$? $(grep -c '^@@END$' "$TMP/core.log")"
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
check_eq "ir-report: ... and is the live one's" \
	"$(json_get "$live/failure.json" '[f["function"] for f in d["backtrace"]]')" \
	"$(json_get "$core_run/failure.json" '[f["function"] for f in d["backtrace"]]')"
check "ir-report: the run validates" "$IRSNAP" validate "$core_run"
check "ir-verify on a core does not run verifiers that call the debuggee" \
	grep -q '^verifier toyc_verify: could not run: it calls into the debuggee: live process only$' \
	"$TMP/core.log"
check "... and does not call that clean" \
	grep -q ': no problem found, but a verifier could not run$' "$TMP/core.log"
check_eq "the manifest records the debuggee as the core's program" "$TOYC" \
	"$(json_get "$core_run/manifest.json" 'd["debuggee"]["exe"]')"
check_eq "... with the core's arguments and pid, and that it is a core's run" \
	"--bug=crash $DEMO True True" \
	"$(json_get "$core_run/manifest.json" 'd["debuggee"]["args"] + " " + str(isinstance(d["debuggee"]["pid"], int) and d["debuggee"]["pid"] > 0) + " " + str(d["debuggee"]["core"])')"
check "$DBG_NAME does not say it killed a debuggee with 0 passes" \
	bash -c "! grep -q 'debuggee killed' '$TMP/core.log'"
check "ir-report on the core offers the crash snapshot to the reducer" \
	test "$(json_get "$core_run/failure.json" 'd["reduce_command"].startswith("irsnap reduce " + "'"$core_run"'/" + d["crash_snapshot"]["text"] + " --crash ")')" = True
"$IRSNAP" show "$core_run" >"$TMP/core.show" 2>&1
check "irsnap show on the core's run gives that reduce command" \
	grep -q "^  reduce:  irsnap reduce $core_run/snapshots/" "$TMP/core.show"

# No Python error from the debugger, live or on the core (LLDB 14 printed
# "ModuleNotFoundError: No module named 'lldb.embedded_interpreter'" at
# start and "NameError: name 'run_one_line'" on a core without its module
# on PYTHONPATH).
for log in live core; do
	check "$DBG_NAME printed no Python error ($log)" \
		bash -c "! grep -E 'Traceback|ModuleNotFoundError|NameError' '$TMP/$log.log'"
done

# The core opened after irsnap is loaded works the same.
cat >"$TMP/cmds" <<EOF
$(dbg_cmd open-core "$TMP/core" "$TOYC")
ir-layout load $LAYOUT
ir-dump --boundary -f text -o $TMP/core2.ir
EOF
dbg_session "$TMP/core2.log" "$TMP/cmds"
check_files_eq "a core opened after irsnap: the same IR" \
	"$TMP/live-crash.ir" "$TMP/core2.ir"

done_testing
