#!/usr/bin/env bash
# Corrupt IR in a live toyc, under GDB and under LLDB: stopped right after
# the pass that corrupts its memory (a dangling pointer, a cycle, an absurd
# count), `ir-dump` walks what is there in bounded time, records each walk
# error in the JSON and marks the place in the text, keeps the rest of the
# module, and the session goes on: a second ir-dump gives the same
# snapshot and ir-status answers. A string made unreadable from the
# debugger is marked and recorded the same way.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb
source "$IRSNAP_ROOT/tests/robust/robust_lib.sh"

# bug:marker, the marker docs/layout.md gives for that kind of damage.
specs="corrupt-dangling:<unreadable 0x[0-9a-f]+>
corrupt-cycle:<cycle at 0x[0-9a-f]+>
corrupt-count:<bad count 2147483647>"

# errors_of JSON: "count address-of-first-error" of a snapshot's errors,
# each checked to carry node, type, field and message.
errors_of() {
	python3 - "$1" 2>&1 <<-'EOF'
	import json, sys
	errs = json.load(open(sys.argv[1]))["errors"]
	bad = [e for e in errs if not all(e.get(k) for k in
	                                  ("node", "type", "field", "message"))]
	print(len(errs), "incomplete: %d" % len(bad))
	EOF
}

for dbg in GDB LLDB; do
	while IFS=: read -r bug marker; do
		pass=$(bug_pass "$bug")
		out=$TMP/$dbg-$bug
		log=$out.log
		bad "--bug=$bug under $dbg"
		# toyc's own dump of the corrupting pass's input: the functions
		# the snapshot must keep. (toyc dies later, in a subshell so
		# that the shell keeps its crash notice to itself.)
		( "$TOYC" --bug="$bug" --print-before-all -o /dev/null "$DEMO" \
			2>"$out.toyc" >/dev/null || : ) 2>/dev/null
		nfuncs=$(toyc_dump "$out.toyc" Before "$pass" 1 | grep -c '^func @')
		robust_session $dbg "$log" 30 "ir-layout load $LAYOUT" \
			"ir-break --after $pass" run \
			=STAMP "ir-dump -f both -o $out.1.ir m" \
			=STAMP "ir-dump -f both -o $out.2.ir m" ir-status \
			-- "$TOYC" --bug="$bug" -o /dev/null "$DEMO"
		label="$dbg, --bug=$bug, after $pass"
		check "$label: stopped after the corrupting pass" \
			grep -q "^irsnap: stopped after pass '$pass'" "$log"
		secs=$(elapsed "$log" | cut -d' ' -f1)
		figure "$label: ir-dump of the corrupt module took ${secs:-?} s"
		check "$label: ir-dump finished (its time is a figure)" \
			test -n "$secs"
		check "$label: the snapshot validates" \
			"$IRSNAP" validate "$out.1.ir.json"
		read -r nerr _ incomplete <<<"$(errors_of "$out.1.ir.json")"
		check "$label: the JSON records the walk errors ($nerr)" \
			test "${nerr:-0}" -gt 0
		check_eq "$label: each with node, type, field and message" \
			0 "$incomplete"
		summary=$(grep -cE "^ir-dump: Module at 0x[0-9a-f]+: [0-9]+ nodes, [0-9]+ bytes read, $nerr walk errors," "$log")
		check_eq "$label: the summary line says as many" 2 "$summary"
		nmark=$(grep -cE -- "$marker" "$out.1.ir")
		check "$label: the text marks the damage: $marker ($nmark)" \
			test "$nmark" -gt 0
		check "$label: ... and keeps every function of the module ($nfuncs)" \
			test "$nfuncs" -gt 0 -a \
			"$(grep -c '^func @' "$out.1.ir")" -eq "$nfuncs"
		check_files_eq "$label: a second ir-dump gives the same text" \
			"$out.1.ir" "$out.2.ir"
		check "$label: ir-status still answers" \
			grep -q "^layout 'toyc' (" "$log"
		check "$label: ... to its last command" grep -q '^@@END' "$log"
	done <<<"$specs"
done

# --- a string the debugger made unreadable ---------------------------------
# The first parameter's name pointed at address 0x10 from the debugger:
# where the text tested it ({?name} in the ref template) it was taken for
# NULL, with no walk error, and the snapshot had the intact IR's hash.
# Now it is marked in the text and recorded as a walk error.
for dbg in GDB LLDB; do
	out=$TMP/$dbg-badname
	log=$out.log
	bad "a name pointer set to 0x10 under $dbg"
	lhs='((Function *)m->funcs.next)->params[0]->name'
	assign="set var $lhs = (char *)16"
	[ $dbg = LLDB ] && assign="expression -- $lhs = (const char *)16"
	robust_session $dbg "$log" 30 "ir-layout load $LAYOUT" \
		"$(spell ${dbg,,} break pm_run_pass)" run \
		"ir-dump -f text -o $out.0.ir m" "$assign" \
		"ir-dump -f both -o $out.1.ir m" ir-status \
		-- "$TOYC" -o /dev/null "$DEMO"
	check "$dbg: the text marks the name: func @f0(%<unreadable 0x10>, ...)" \
		grep -q '^func @f0(%<unreadable 0x10>, %b) {$' "$out.1.ir"
	check "$dbg: ... and its uses: shr %<unreadable 0x10>, 9" \
		grep -q '^  %2 = shr %<unreadable 0x10>, 9$' "$out.1.ir"
	check "$dbg: the summary counts walk errors" \
		grep -qE "^ir-dump: Module at 0x[0-9a-f]+: [0-9]+ nodes, [0-9]+ bytes read, [1-9][0-9]* walk errors," "$log"
	check "$dbg: the snapshot's errors say which string" \
		grep -q '"message":"unreadable string at 0x10"' "$out.1.ir.json"
	check "$dbg: the snapshot validates" "$IRSNAP" validate "$out.1.ir.json"
	check "$dbg: the text differs from the intact one's (so does its hash)" \
		eval "! cmp -s $out.0.ir $out.1.ir"
	check "$dbg: the session goes on" grep -q '^@@END' "$log"
done

bad_summary
done_testing
