#!/usr/bin/env bash
# What `ir-dump -o PATH` writes when PATH is not a plain file (issue 14,
# item 5), under GDB and LLDB: a FIFO is written in place (its reader gets
# the text), a symbolic link keeps being a link and its target is
# replaced, a device stays a device (no PATH.json beside it), `-o -`
# prints to the console, and what cannot be written (a FIFO nobody reads,
# a dangling link, a directory) is one error line with nothing replaced.
# No real device is written over unless a private device node of the same
# kind came through unharmed first (as root; /dev/null only then).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers lldb
source "$IRSNAP_ROOT/tests/robust/robust_lib.sh"

"$TOYC" --print-before-all -o /dev/null "$DEMO" 2>"$TMP/toyc.err"
toyc_dump "$TMP/toyc.err" Before constfold 1 >"$TMP/want.ir"
check "toyc's own dump before its first pass" grep -q '^module @' "$TMP/want.ir"

readers=()
declare -A safe=()
# reader FIFO OUT: copies what comes through FIFO to OUT, in the background.
reader() { cat "$1" >"$2" & readers+=($!); }
stop_readers() {
	local p
	for p in "${readers[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	readers=()
}
trap 'stop_readers; rm -rf "$TMP"' EXIT
kind() { stat -c %F "$1" 2>/dev/null || echo missing; }

for dbg in GDB LLDB; do
	d=$TMP/$dbg
	mkdir -p "$d/cwd"
	mkfifo "$d/fifo" "$d/fifo2" "$d/deaf"
	reader "$d/fifo" "$d/fifo.got"
	reader "$d/fifo2" "$d/fifo2.got"
	printf 'old\n' >"$d/target.ir"
	ln -s target.ir "$d/link.ir"
	ln -s nowhere.ir "$d/dangling.ir"
	mkdir "$d/adir"
	have_node=no
	mknod "$d/null" c 1 3 2>/dev/null && have_node=yes
	cmds=(
		"ir-dump -f text -o $d/fifo m"
		"ir-dump -f both -o $d/fifo2 m"
		"ir-dump -f text -o $d/link.ir m"
		"ir-dump -f both -o $d/null m"
		"ir-dump -f text -o $d/deaf m"
		"ir-dump -f text -o $d/dangling.ir m"
		"ir-dump -f text -o $d/adir m"
		"ir-dump -f text -o - m"
		"ir-dump -f json -o - m"
	)
	bad "ir-dump -o a FIFO, a link, a device, - ($dbg)"
	log=$d/log
	if [ "$dbg" = GDB ]; then
		args=()
		for c in "${cmds[@]}"; do args+=(-ex "$c"); done
		( cd "$d/cwd" && GDB_TIMEOUT=60 run_gdb "$log" -ex "ir-layout load $LAYOUT" \
			-ex 'break pm_run_pass' -ex run "${args[@]}" -ex 'echo @@END\n' \
			--args "$TOYC" -o /dev/null "$DEMO" )
	else
		{ echo "plugin load $PLUGIN"; echo "ir-layout load $LAYOUT"
		  echo "breakpoint set -n pm_run_pass"; echo run
		  printf '%s\n' "${cmds[@]}"; echo "platform shell echo @@END"; echo kill
		} >"$d/cmds"
		( cd "$d/cwd" && LLDB_TIMEOUT=60 lldb_session "$log" "$d/cmds" \
			-- "$TOYC" -o /dev/null "$DEMO" )
	fi
	check "$dbg ran every command" grep -q '^@@END' "$log"
	# the readers have their text once the writer closed the FIFO
	sleep 0.2
	check_eq "$dbg, -o FIFO: still a FIFO" fifo "$(kind "$d/fifo")"
	check_files_eq "$dbg, -o FIFO: its reader got the text" "$TMP/want.ir" "$d/fifo.got"
	check_eq "$dbg, -f both -o FIFO: still a FIFO" fifo "$(kind "$d/fifo2")"
	check_eq "$dbg, -f both -o FIFO: no FIFO.json beside it" missing "$(kind "$d/fifo2.json")"
	check_files_eq "$dbg, -f both -o FIFO: the text first" "$TMP/want.ir" \
		<(head -n "$(wc -l <"$TMP/want.ir")" "$d/fifo2.got")
	check_eq "$dbg, -f both -o FIFO: then the JSON snapshot" irsnap.snapshot/1 \
		"$(tail -n +"$(( $(wc -l <"$TMP/want.ir") + 1 ))" "$d/fifo2.got" |
		   python3 -c 'import json,sys; print(json.load(sys.stdin)["schema"])' 2>&1)"
	check_eq "$dbg, -o LINK: still a link" "symbolic link" "$(kind "$d/link.ir")"
	check_files_eq "$dbg, -o LINK: the file it names got the text" \
		"$TMP/want.ir" "$d/target.ir"
	if [ "$have_node" = yes ]; then
		check_eq "$dbg, -f both -o a device node: still a character device" \
			"character special file" "$(kind "$d/null")"
		check_eq "$dbg, ... and no NODE.json made beside it" missing "$(kind "$d/null.json")"
	fi
	errs=$(grep -E '(^|error: )ir-dump: ' "$log")
	check "$dbg, -o a FIFO nobody reads: one error line, no wait" \
		test "$(grep -cE "ir-dump: $d/deaf: cannot open: a FIFO nobody reads" <<<"$errs")" -eq 1
	check_eq "$dbg, ... and it is still a FIFO" fifo "$(kind "$d/deaf")"
	check "$dbg, -o a dangling link: one error line" \
		test "$(grep -cE "ir-dump: $d/dangling\.ir: a symbolic link to a file that does not exist" <<<"$errs")" -eq 1
	check_eq "$dbg, ... nothing created through it" missing "$(kind "$d/nowhere.ir")"
	check "$dbg, -o a directory: one error line" \
		test "$(grep -cE "ir-dump: $d/adir: a directory" <<<"$errs")" -eq 1
	check_eq "$dbg, -o -: no file named - made" missing "$(kind "$d/cwd/-")"
	n=$(grep -c '^module @' "$log")
	check_eq "$dbg, -o - -f text: the text printed on the console" 1 "$n"
	check "$dbg, -o - -f json: the JSON printed on the console" \
		grep -q '^{"schema":"irsnap.snapshot/1",' "$log"
	check_eq "$dbg: no temporary file left" 0 "$(find "$d" -name '*.tmp.*' | wc -l)"
	stop_readers
	safe[$dbg]=$have_node
	[ "$have_node" = yes ] && [ "$(kind "$d/null")" = "character special file" ] &&
		[ ! -e "$d/null.json" ] || safe[$dbg]=no
done

# /dev/null itself, once a private node of it came through unharmed.
if [ "${safe[GDB]:-no}" = yes ] && [ ! -e /dev/null.json ]; then
	run_gdb "$TMP/devnull.log" -ex "ir-layout load $LAYOUT" -ex 'break pm_run_pass' \
		-ex run -ex 'ir-dump -f both -o /dev/null m' -ex 'echo @@END\n' \
		--args "$TOYC" -o /dev/null "$DEMO"
	check "GDB, -f both -o /dev/null: written" \
		grep -q '^ir-dump: wrote /dev/null (text, then JSON)' "$TMP/devnull.log"
	check_eq "... /dev/null is still a character device" "character special file" \
		"$(kind /dev/null)"
	check_eq "... and no /dev/null.json" missing "$(kind /dev/null.json)"
else
	echo "# /dev/null not tried: no private device node came through unharmed"
fi

bad_summary
done_testing
