#!/usr/bin/env bash
# Writes that fail: a file size limit (`ulimit -f`, and the limit lowered
# under a running debugger, as a disk filling up) hit in the middle of an
# `ir-dump -o` and in the middle of a trace; an output directory that is
# missing, not a directory, or not writable. Each time: one error line
# naming the file, no half-written file under the name asked for (a file
# already there keeps its content), a run directory that validates with
# its earlier snapshots exact, and a debugger whose next command works.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb
source "$IRSNAP_ROOT/tests/robust/robust_lib.sh"

# A module whose text (about 410 KiB) fits in 1 MiB and whose JSON
# (about 6.5 MiB) does not.
"$TOYC" --gen=20000 -o "$TMP/big.ir"
"$TOYC" --print-before-all --print-after-all -o /dev/null "$TMP/big.ir" \
	2>"$TMP/ref.err"
split_dumps "$TMP/ref.err" "$TMP/ref"
first=$TMP/ref/0001-constfold.before.ir
check "the module's text fits in 1 MiB and not in 64 KiB" \
	test "$(stat -c %s "$first")" -lt 1048576 -a \
	"$(stat -c %s "$first")" -gt 65536

# after MARK LOG: the lines of LOG after the line MARK.
after() { sed -n "/^$1\$/,\$p" "$2" | sed 1d; }
# console_text MARK LOG: what `ir-dump m` printed after MARK, without its
# summary line (nor LLDB's echo of the command).
console_text() {
	after "$1" "$2" | grep -v '^(lldb) ' | sed '/^ir-dump: .* at 0x/,$d'
}
# one_line NAME PATTERN TEXT: TEXT has exactly one line matching PATTERN.
one_line() {
	local n
	n=$(grep -cE -- "$2" <<<"$3")
	if [ "$n" -eq 1 ]; then ok "$1"
	else not_ok "$1" "want one line matching: $2" "$(tail -5 <<<"$3")"; fi
}
# no_temp NAME DIR: no temporary file left in DIR.
no_temp() { check_eq "$1" 0 "$(ntemp "$2")"; }

# --- ir-dump -o under `ulimit -f` ------------------------------------------
# The debugger's output goes through a pipe, which the limit does not
# apply to.
for dbg in GDB LLDB; do
	out=$TMP/out-$dbg
	mkdir -p "$out"
	printf 'previous\n' >"$out/old.ir"
	log=$TMP/ulimit-$dbg.log
	bad "ir-dump -f json -o past ulimit -f ($dbg)"
	bad "ir-dump -f both -o past ulimit -f ($dbg)"
	bad "ir-dump -f text -o past a limit lowered under $dbg"
	if [ "$dbg" = GDB ]; then
		( ulimit -f 1024
		  run_gdb /dev/stdout -ex "ir-layout load $LAYOUT" \
			-ex 'break pm_run_pass' -ex run \
			-ex "ir-dump -f json -o $out/only.json m" \
			-ex "ir-dump -f both -o $out/old.ir m" \
			-ex "ir-dump -f text -o $out/fits.ir m" \
			-ex 'shell prlimit --pid $PPID --fsize=65536' \
			-ex "ir-dump -f text -o $out/old.ir m" \
			-ex 'ir-status' -ex 'echo @@CONSOLE\n' -ex 'ir-dump m' \
			--args "$TOYC" -o /dev/null "$TMP/big.ir" ) | cat >"$log"
	else
		cat >"$TMP/ulimit.cmds" <<-EOF
		plugin load $PLUGIN
		ir-layout load $LAYOUT
		breakpoint set -n pm_run_pass
		run
		ir-dump -f json -o $out/only.json m
		ir-dump -f both -o $out/old.ir m
		ir-dump -f text -o $out/fits.ir m
		platform shell prlimit --pid \$PPID --fsize=65536
		ir-dump -f text -o $out/old.ir m
		ir-status
		platform shell echo @@CONSOLE
		ir-dump m
		kill
		EOF
		( ulimit -f 1024
		  lldb_session /dev/stdout "$TMP/ulimit.cmds" \
			-- "$TOYC" -o /dev/null "$TMP/big.ir" ) | cat >"$log"
	fi
	errs=$(grep -E '(^|error: )ir-dump: ' "$log")
	one_line "$dbg, -f json past the limit: one error naming the file" \
		"^(error: )?ir-dump: $out/only\.json: .*File too large$" "$errs"
	check "$dbg: ... and leaves no file under that name" \
		test ! -e "$out/only.json"
	one_line "$dbg, -f both, the JSON past the limit: one error naming it" \
		"^(error: )?ir-dump: $out/old\.ir\.json: .*File too large$" "$errs"
	check_eq "$dbg: ... the text written beside it is dropped: the old file stays" \
		previous "$(cat "$out/old.ir")"
	check "$dbg: ... and no JSON file" test ! -e "$out/old.ir.json"
	check_files_eq "$dbg, the next ir-dump that fits the limit works" \
		"$first" "$out/fits.ir"
	one_line "$dbg, the limit lowered mid-session, the text past it: one error naming the file" \
		"^(error: )?ir-dump: $out/old\.ir: .*File too large$" "$errs"
	check_eq "$dbg: ... the file already there keeps its content" \
		previous "$(cat "$out/old.ir")"
	no_temp "$dbg: no temporary file left behind" "$out"
	check "$dbg: ir-status still answers" \
		grep -q "^layout 'toyc' (" "$log"
	check_files_eq "$dbg: and ir-dump to the console still works" \
		"$first" <(console_text @@CONSOLE "$log")
done

# --- a limit reached in the middle of a trace ------------------------------
# Traced to the end of cse, then the limit drops under the debugger: below
# the snapshots' size, and (GDB) also below the manifest's.
for spec in GDB:262144 GDB:2048 LLDB:262144; do
	dbg=${spec%:*} limit=${spec#*:}
	label="$dbg, limit $limit"
	root=$TMP/trace-$dbg-$limit
	log=$TMP/trace-$dbg-$limit.log
	bad "ir-trace past a ${limit}-byte file size limit ($dbg)"
	if [ "$dbg" = GDB ]; then
		IRSNAP_DIR=$root run_gdb /dev/stdout \
			-ex "ir-layout load $LAYOUT" -ex 'set irsnap format both' \
			-ex 'ir-trace on' -ex 'ir-break --after cse' -ex run \
			-ex "shell prlimit --pid \$PPID --fsize=$limit" \
			-ex 'ir-break off' -ex continue \
			-ex 'ir-status' -ex 'echo @@END\n' \
			--args "$TOYC" -o /dev/null "$TMP/big.ir" | cat >"$log"
	else
		cat >"$TMP/trace.cmds" <<-EOF
		plugin load $PLUGIN
		ir-set dir $root
		ir-layout load $LAYOUT
		ir-set format both
		ir-trace on
		ir-break --after cse
		run
		platform shell prlimit --pid \$PPID --fsize=$limit
		ir-break off
		continue
		ir-status
		platform shell echo @@END
		EOF
		lldb_session /dev/stdout "$TMP/trace.cmds" \
			-- "$TOYC" -o /dev/null "$TMP/big.ir" | cat >"$log"
	fi
	run=$(readlink -f "$root/latest")
	check "$label: the run directory validates" "$IRSNAP" validate "$run"
	check_eq "$label: it keeps the snapshots of the passes before the limit" \
		6 "$(nevents "$run")"
	check_eq "$label: ... each exactly toyc's dump" "" \
		"$(snapshot_problems "$run" "$TMP/ref")"
	# Passes 4 to 10 find the disk full: one line each, naming the file
	# (each keeps its seq: the next pass's files do not take its name).
	fails=$(grep -cE "^(error: )?irsnap: pass '[a-z]+': $run/snapshots/00(0[4-9]|10)-[a-z]+\.before\.(ir|json): .*File too large$" "$log")
	check_eq "$label: one error line per pass that could not be written, naming its file" \
		7 "$fails"
	no_temp "$label: no temporary file left in the run" "$run"
	if [ "$limit" = 2048 ]; then
		check_eq "$label: the manifest could not be closed: it says running" \
			running "$(json_get "$run/manifest.json" 'd["status"]')"
		one_line "$label: ... and the debugger said why, naming the manifest" \
			"$run/manifest\.json: .*File too large$" "$(cat "$log")"
	else
		check_eq "$label: the run is closed as completed" completed \
			"$(json_get "$run/manifest.json" 'd["status"]')"
		# ... but not as whole: the manifest lists what was lost.
		check_eq "$label: the manifest says the run is incomplete" True \
			"$(json_get "$run/manifest.json" 'd.get("incomplete")')"
		check_eq "$label: ... and lists the 7 lost passes, seq 4 to 10, with why" \
			"4-10 before 7 File too large" \
			"$(json_get "$run/manifest.json" '"%d-%d %s %d %s" % (d["lost"][0]["seq"], d["lost"][-1]["seq"], " ".join(sorted(set(l["phase"] for l in d["lost"]))), sum("File too large" in l["error"] for l in d["lost"]), "File too large")')"
		"$IRSNAP" show "$run" >"$TMP/show-$dbg-$limit.txt" 2>&1
		check "$label: irsnap show says it is incomplete" \
			grep -q "^run .*  completed, INCOMPLETE  " "$TMP/show-$dbg-$limit.txt"
		check "$label: ... and how many snapshots were lost" \
			grep -q "^incomplete: 7 snapshots lost to write errors" "$TMP/show-$dbg-$limit.txt"
		check "$label: the debugger said so when the debuggee exited" \
			grep -q "incomplete: 7 snapshots lost to write errors" "$log"
	fi
	check "$label: ir-status still answers" grep -q "^layout 'toyc' (" "$log"
	check "$label: the debugger ran every command to the end" \
		grep -q '^@@END' "$log"
done

# --- output directories that cannot be written -----------------------------
# sysfs refuses new files to everyone, root included.
touch "$TMP/afile"
out=$TMP/readonly
bad "ir-dump -o into a missing directory"
bad "ir-dump -o into a path through a file"
bad "ir-dump -o into a directory nobody may write"
bad "ir-trace into a run root nobody may write"
bad "ir-trace into a run root through a file"
run_gdb "$TMP/dirs.log" -ex "ir-layout load $LAYOUT" \
	-ex "set irsnap dir /sys/irsnap-test-runs" -ex "ir-trace on" \
	-ex "ir-break --after copyprop" -ex run \
	-ex "ir-dump -o $TMP/missing/dir/x.ir m" \
	-ex "ir-dump -o $TMP/afile/x.ir m" \
	-ex "ir-dump -f both -o /sys/irsnap-test.ir m" \
	-ex "set irsnap dir $TMP/afile/runs" -ex "ir-break --after cse" \
	-ex continue \
	-ex "set irsnap dir $TMP/good" -ex 'ir-break off' -ex continue \
	-ex 'echo @@END\n' \
	--args "$TOYC" -o /dev/null "$TMP/big.ir"
log=$(cat "$TMP/dirs.log")
one_line "a missing directory: one error naming the file" \
	"^ir-dump: $TMP/missing/dir/x\.ir: cannot create: No such file or directory$" "$log"
one_line "a path through a file: one error naming it" \
	"^ir-dump: $TMP/afile/x\.ir: cannot create: Not a directory$" "$log"
one_line "a directory nobody may write: one error naming the file" \
	"^ir-dump: /sys/irsnap-test\.ir(\.json)?: cannot create: Permission denied$" "$log"
check_eq "a run root nobody may write: one error, at the first traced pass, naming it" \
	1 "$(grep -cE "^irsnap: pass 'constfold': .*/sys/irsnap-test-runs: .*(not permitted|denied)" <<<"$log")"
check_eq "... and none at the next pass (tracing is off until a setting changes)" 0 \
	"$(grep -cE "^irsnap: pass 'copyprop': .*/sys/irsnap-test-runs" <<<"$log")"
check_eq "a run root through a file: the same" 1 \
	"$(grep -cE "^irsnap: pass 'cse': .*$TMP/afile/runs: .*Not a directory" <<<"$log")"
run=$(readlink -f "$TMP/good/latest")
check "a writable run root set afterwards: tracing goes on there" \
	"$IRSNAP" validate "$run"
check_eq "... from the next pass on: dce and the six after it" "dce 14" \
	"$(run_json "$run" 'd["events"][0]["pass"] + " " + str(len(d["events"]))')"
check_eq "... each snapshot toyc's own dump" "" \
	"$(snapshot_problems "$run" "$TMP/ref" 3)"
check "GDB ran every command to the end" grep -q '^@@END' "$TMP/dirs.log"

bad_summary
done_testing
