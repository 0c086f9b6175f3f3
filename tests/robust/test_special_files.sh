#!/usr/bin/env bash
# Files that are not files (issue 14, item 4): a layout, a run directory's
# manifest or snapshot, or a path given to `irsnap validate` that is a
# device, a FIFO nobody writes, or a huge sparse file. Each time: one
# error line naming the file, within seconds, memory bounded, and the
# debugger alive for its next command. Every command runs under a timeout,
# so a hang fails its check instead of the suite.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb
source "$IRSNAP_ROOT/tests/robust/robust_lib.sh"

mkfifo "$TMP/fifo.lua" "$TMP/fifo.json"
truncate -s 1G "$TMP/sparse.lua"	# no disk used, 1 GiB to read

# --- ir-layout load FILE ---------------------------------------------------
# peak KB of the command's process tree, from GNU time
peak() { sed -n 's/^PEAK \([0-9]*\)$/\1/p' "$1"; }
for dbg in GDB LLDB; do
	for f in /dev/zero "$TMP/fifo.lua" "$TMP/sparse.lua"; do
		bad "ir-layout load of a special file ($dbg)"
		log=$TMP/load-$dbg-$(basename "$f").log
		# ulimit -d: a debugger reading /dev/zero into memory (as it
		# once did, at 600 MB/s) fails to allocate instead of taking
		# the machine's memory.
		if [ "$dbg" = GDB ]; then
			( ulimit -d 1500000
			  GDB_TIMEOUT=15 /usr/bin/time -f 'PEAK %M' -o "$log.time" \
				bash -c 'source "$1/tests/lib.sh" >/dev/null; source "$1/tests/e2e/debugger.sh"
					run_gdb "$2" -ex "ir-layout load $3" -ex "ir-layout load $4" -ex "echo @@END\n" "$5"' \
				_ "$IRSNAP_ROOT" "$log" "$f" "$LAYOUT" "$TOYC" )
		else
			printf '%s\n' "plugin load $PLUGIN" "ir-layout load $f" \
				"ir-layout load $LAYOUT" "platform shell echo @@END" \
				>"$log.cmds"
			# A sanitized plugin brings ASan into LLDB, whose shadow
			# memory cannot be mapped under ulimit -d; the peak RSS
			# check still bounds it.
			( [ -n "$LLDB_PRELOAD" ] || ulimit -d 1500000
			  /usr/bin/time -f 'PEAK %M' -o "$log.time" \
				env LLDB_TIMEOUT=15 bash -c 'source "$1/tests/lib.sh" >/dev/null; source "$1/tests/e2e/debugger.sh"
					shift; run_lldb "$@"' _ "$IRSNAP_ROOT" -b \
				-o "command source -e false -- $log.cmds" "$TOYC" \
				</dev/null >"$log" 2>&1 )
		fi
		what="$dbg, ir-layout load $f"
		n=$(grep -cF "$f: " "$log")
		if [ "$n" -eq 1 ]; then ok "$what: one error line naming it"
		else not_ok "$what: one error line naming it" "$(tail -4 "$log")"; fi
		check "$what: ... saying what it is" \
			grep -qE "$f: (a character device|a FIFO), not a regular file|$f: too large to read \(1073741824 bytes; the limit is 16 MiB\)" "$log"
		check "$what: the debugger goes on (the next layout loads)" \
			grep -q "loaded layout 'toyc'" "$log"
		check "$what: ... to its last command" grep -q '@@END' "$log"
		kb=$(peak "$log.time")
		figure "$what: peak RSS ${kb:-?} KB"
		check "$what: memory stays below 400 MB" test "${kb:-999999999}" -lt 400000
	done
done

# --- irsnap validate PATH ----------------------------------------------------
for f in /dev/zero "$TMP/fifo.json"; do
	bad "irsnap validate of a special file"
	out=$(timeout 10 "$IRSNAP" validate "$f" 2>&1); rc=$?
	check_eq "irsnap validate $f: exit 2 at once (not a hang)" 2 "$rc"
	check "irsnap validate $f: one line naming it" \
		test "$(grep -c "^irsnap: $f: .*not a regular file" <<<"$out")" -eq 1
done

# --- a run directory with a FIFO or a device inside ------------------------
run_gdb "$TMP/trace.log" -ex "ir-layout load $LAYOUT" -ex 'ir-trace on' -ex run \
	--args "$TOYC" --passes=constfold,cse -o /dev/null "$DEMO"
RUN=$(latest_run)
check "a traced run to copy" "$IRSNAP" validate "$RUN"
# damaged NAME FILE KIND: a copy of the run whose FILE is a FIFO (KIND
# fifo) or a character device (KIND chr: a symlink to /dev/zero would be
# refused as a link; a device node needs root, a FIFO stands in without).
damaged() {
	local d=$TMP/$1
	rm -rf "$d"; cp -r "$RUN" "$d"; rm -f "$d/$2"
	if [ "$3" = chr ] && mknod "$d/$2" c 1 5 2>/dev/null; then :
	else mkfifo "$d/$2"; fi
	echo "$d"
}
snap=$(run_json "$RUN" 'd["events"][1]["snapshot"]["text"]')
for spec in "manifest.json:fifo" "manifest.json:chr" "$snap:fifo" "$snap:chr"; do
	file=${spec%:*} kind=${spec#*:}
	d=$(damaged "bad-$kind-$(basename "$file")" "$file" "$kind")
	for cmd in validate show report; do
		bad "a run directory holding a special file ($cmd)"
		args=("$d"); [ "$cmd" = report ] && args+=(-o "$TMP/r.html")
		out=$(timeout 10 "$IRSNAP" "$cmd" "${args[@]}" 2>&1 </dev/null); rc=$?
		what="irsnap $cmd, $file a $kind"
		if [ "$rc" = 124 ]; then
			not_ok "$what: answers (no hang)" "timed out"
			continue
		fi
		ok "$what: answers (no hang)"
		# show reads only the manifest; a snapshot FIFO is not its business
		if [ "$cmd" = show ] && [ "$file" != manifest.json ]; then
			check_eq "$what: shows the run" 0 "$rc"
			continue
		fi
		check "$what: a failure status" test "$rc" -ne 0
		check "$what: a line naming the file" \
			grep -qF "$file" <<<"$out"
	done
done

bad_summary
done_testing
