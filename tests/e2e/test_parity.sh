#!/usr/bin/env bash
# The same toyc runs traced under LLDB and under GDB give the same files:
# byte-identical snapshots (text and JSON, the count of debuggee bytes read
# included), equivalent manifests and failure reports (times, ids and the
# debugger's name aside), and the same layout as each debugger's debug info
# resolved it. A second LLDB run (LLDB runs the plugin on several threads)
# writes the same snapshots again.
# It drives both debuggers by name, so tests/run runs it once (e2e_both).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb

# comparable RUN FILE: FILE (manifest.json, with the run's events, or
# failure.json) of RUN without what differs between two debuggers by
# nature: ids, times, the debugger and the run's own path.
comparable() {
	PYTHONPATH=$IRSNAP_ROOT/tests python3 - "$1" "$2" <<-'EOF'
	import json, os, sys, run_doc
	run, name = sys.argv[1], sys.argv[2]
	d = run_doc.load(run) if name == "manifest.json" else \
	    json.load(open(os.path.join(run, name)))
	for k in ("run_id", "created", "updated", "debugger"):
	    d.pop(k, None)
	if "debuggee" in d:
	    d["debuggee"].pop("pid", None)
	for e in d.get("events", []) + [d.get("pass") or {}]:
	    e.pop("cpu_s", None)	# failure.json's pass too
	    e.pop("at_s", None)
	text = json.dumps(d, indent=1, sort_keys=True)
	print(text.replace(os.path.realpath(run), "RUN"))
	EOF
}

# same_snapshots A B: prints the snapshot files that differ (byte for byte)
# or are missing.
same_snapshots() {
	diff <(cd "$1/snapshots" && ls) <(cd "$2/snapshots" && ls)
	for f in "$1"/snapshots/*; do
		g=$2/snapshots/$(basename "$f")
		[ -e "$g" ] || continue
		cmp -s "$f" "$g" || echo "differs: $(basename "$f")"
	done
}

for bug in none crash; do
	args=("$DEMO")
	[ "$bug" = none ] || args=(--bug="$bug" "$DEMO")
	rm -f "$RUNS/latest"
	lldb_batch "$TMP/lldb-$bug.log" -o 'ir-layout show' \
		-o 'ir-trace on --verify' -o run -- "$TOYC" "${args[@]}"
	lrun=$(latest_run)
	rm -f "$RUNS/latest"
	GDB_TIMEOUT=90 gdb_batch "$TMP/gdb-$bug.log" -o 'ir-layout show' \
		-o 'ir-trace on --verify' -o run -- "$TOYC" "${args[@]}"
	grun=$(latest_run)
	check "--bug=$bug: two run directories" \
		test -n "$lrun" -a -n "$grun" -a "$lrun" != "$grun"
	check_eq "--bug=$bug: byte-identical snapshot files (text and JSON)" "" \
		"$(same_snapshots "$lrun" "$grun")"
	check "--bug=$bug: $(ls "$lrun/snapshots" | wc -l) snapshots compared" \
		test "$(ls "$lrun/snapshots" | wc -l)" -ge 4
	if [ "$bug" = none ]; then
		rm -f "$RUNS/latest"
		lldb_batch "$TMP/lldb-again.log" -o 'ir-trace on --verify' \
			-o run -- "$TOYC" "${args[@]}"
		again=$(latest_run)
		check "--bug=none: a second LLDB run directory" \
			test -n "$again" -a "$again" != "$lrun"
		check_eq "--bug=none: a second LLDB run writes the same snapshots" \
			"" "$(same_snapshots "$lrun" "$again")"
	fi
	comparable "$lrun" manifest.json >"$TMP/lldb-$bug.manifest"
	comparable "$grun" manifest.json >"$TMP/gdb-$bug.manifest"
	check_files_eq "--bug=$bug: equivalent manifests (events, passes, hashes, verifiers)" \
		"$TMP/gdb-$bug.manifest" "$TMP/lldb-$bug.manifest"
done
comparable "$lrun" failure.json >"$TMP/lldb.failure"
comparable "$grun" failure.json >"$TMP/gdb.failure"
check_files_eq "--bug=crash: equivalent failure reports (backtrace included)" \
	"$TMP/gdb.failure" "$TMP/lldb.failure"

# ir-layout show: the offsets, sizes and kinds each debugger resolved.
# (GDB's lines for the boundary breakpoints ir-trace sets are not the layout)
show() { sed -n '/^layout /,/^(lldb)\|^irsnap: tracing/p' "$1" |
	grep -v '^(lldb)\|^irsnap: \|^Breakpoint [0-9]* at '; }
show "$TMP/lldb-none.log" >"$TMP/lldb.show"
show "$TMP/gdb-none.log" >"$TMP/gdb.show"
check "ir-layout show printed a layout" test -s "$TMP/lldb.show"
check_files_eq "ir-layout show: the same resolved layout in both" \
	"$TMP/gdb.show" "$TMP/lldb.show"

done_testing
