#!/usr/bin/env bash
# ir-dump and friends under the real $DEBUGGER at a pm_run_pass stop of the
# real toyc: the text equals toyc's own printer byte for byte, by any
# spelling of the root expression, printed or written, and inside the pass
# through --boundary; the JSON is a valid snapshot with a node per
# function, block, instruction and parameter; max-nodes stops the walk;
# ir-layout show, ir-status, help and (GDB) completion.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

"$TOYC" --print-before-all "$DEMO" >/dev/null 2>"$TMP/toyc.err"
toyc_dump "$TMP/toyc.err" Before cse 1 >"$TMP/expected.ir"
check "toyc dumps a module before its first cse" \
	grep -q '^module @' "$TMP/expected.ir"

dbg_batch "$TMP/log" -o 'ir-break ^cse$' -o run \
	-o "ir-dump -o $TMP/both.ir -f both m" \
	-o "ir-dump -f text -o $TMP/text.ir m Module" \
	-o "ir-dump -f text -o $TMP/cast.ir \"(Module *)m\"" \
	-o "ir-dump -f json -o $TMP/only.json '(Module *)m'" \
	-o "$(dbg_cmd echo @@BREAKS)" -o "$(dbg_cmd breakpoints)" \
	-o "$(dbg_cmd echo @@PRINT)" -o 'ir-dump m' \
	-o "$(dbg_cmd echo @@LIMIT)" \
	-o "$(dbg_cmd set max-nodes 5)" -o "$(dbg_cmd show max-nodes)" \
	-o "ir-dump -f text -o $TMP/limited.ir m" \
	-o "$(dbg_cmd set max-nodes 0)" \
	-o "$(dbg_cmd echo @@SHOW)" \
	-o 'ir-layout show' -o 'ir-status' -o 'help ir-dump' \
	-o "$(dbg_cmd echo @@BOUNDARY)" \
	-o 'ir-break off' -o "$(dbg_cmd break pass_cse)" -o continue \
	-o "ir-dump --boundary -o $TMP/boundary.ir -f text" \
	-o "$(dbg_cmd frame)" \
	-o "$(dbg_cmd echo @@END)" -o kill \
	-- "$TOYC" "$DEMO"
check_eq "$DBG_BATCH ran every command and exited 0" "0 1" \
	"$? $(grep -c '^@@END$' "$TMP/log")"
check "ir-break stopped before pass cse" \
	grep -q "^irsnap: stopped before pass 'cse'" "$TMP/log"
# The debugger's own stop line names an ordinary, numbered breakpoint (an
# internal one's "Breakpoint -1" means nothing to a user), which its list
# of breakpoints shows at the boundary function.
case $DEBUGGER in
gdb) stop_re='^Breakpoint [1-9][0-9]*, pm_run_pass ' ;;
lldb) stop_re='stop reason = breakpoint [1-9][0-9]*\.[0-9]+$' ;;
esac
check "the stop line names a numbered breakpoint" \
	grep -Eq "$stop_re" "$TMP/log"
check "... never a negative (internal) one" \
	test -z "$(grep -Ei '(^Breakpoint|stop reason = breakpoint) -[0-9]' "$TMP/log")"
dbg_section "$TMP/log" @@BREAKS @@PRINT >"$TMP/breaks.txt"
check "the debugger's breakpoint list shows irsnap's at pm_run_pass" \
	grep -q 'pm_run_pass' "$TMP/breaks.txt"

check_files_eq "ir-dump -o PATH -f both: text equals toyc --print-before-all" \
	"$TMP/expected.ir" "$TMP/both.ir"
check_files_eq "ir-dump -f text with an explicit TYPE: the same text" \
	"$TMP/expected.ir" "$TMP/text.ir"
check_files_eq "ir-dump \"(Module *)m\": an expression with blanks" \
	"$TMP/expected.ir" "$TMP/cast.ir"
check "-f both writes the JSON to PATH.json, and it validates" \
	"$IRSNAP" validate "$TMP/both.ir.json"
check_eq "the JSON is an irsnap.snapshot/1 rooted at a Module" \
	"irsnap.snapshot/1 Module" \
	"$(json_get "$TMP/both.ir.json" 'd["schema"] + " " + d["root"]["type"]')"
check "-f json -o PATH writes the JSON to PATH exactly" \
	python3 -m json.tool "$TMP/only.json"
check "... and no text file beside it" test ! -e "$TMP/only.json.json"
check "... and it validates" "$IRSNAP" validate "$TMP/only.json"
check_eq "... with a node per function and per block of the text" \
	"$(grep -c '^func ' "$TMP/expected.ir") $(grep -c '^[^ ].*:$' "$TMP/expected.ir")" \
	"$(json_get "$TMP/only.json" '"%d %d" % tuple(sum(1 for n in d["nodes"] if n["type"] == t) for t in ("Function", "Block"))')"
# Functions, blocks, instructions and parameters (Instr nodes too) of the
# text, against the JSON graph's nodes of each type.
counts() {
	python3 - "$@" <<-'EOF'
	import json, re, sys
	text = open(sys.argv[1]).read().splitlines()
	funcs = [l for l in text if l.startswith("func @")]
	params = sum(len([p for p in l[l.index("(") + 1:l.rindex(")")].split(",")
	                  if p.strip()]) for l in funcs)
	blocks = [l for l in text if re.match(r"^[A-Za-z0-9_.]+:$", l)]
	insts = [l for l in text if l.startswith("  ")]
	print(len(funcs), len(blocks), len(insts) + params)
	if len(sys.argv) > 2:
	    d = json.load(open(sys.argv[2]))
	    n = [x["type"] for x in d["nodes"]]
	    print(n.count("Function"), n.count("Block"), n.count("Instr"))
	EOF
}
check_eq "a JSON node per function, block, instruction and parameter" \
	"$(counts "$TMP/expected.ir" | sed -n 1p)" \
	"$(counts "$TMP/expected.ir" "$TMP/both.ir.json" | sed -n 2p)"

# Without -o the text goes to the console, then a summary line.
printed=$(dbg_section "$TMP/log" @@PRINT @@LIMIT)
grep -v '^ir-dump: Module at ' <<<"$printed" >"$TMP/printed.ir"
check_files_eq "ir-dump without -o prints exactly the text" \
	"$TMP/expected.ir" "$TMP/printed.ir"
check "the summary names nodes, bytes, walk errors and the hash" \
	grep -qE '^ir-dump: Module at 0x[0-9a-f]+: [0-9]+ nodes, [0-9]+ bytes read, 0 walk errors, hash [0-9a-f]{16}, ' \
	<<<"$printed"

limit=$(dbg_section "$TMP/log" @@LIMIT @@SHOW)
check_eq "$DBG_NAME's own set and show of irsnap's max-nodes" 1 \
	"$(grep -cxF "$(dbg_says shown max-nodes 5)" <<<"$limit")"
check_eq "the walk stops at max-nodes and says so" 1 \
	"$(grep -c '^ir-dump: Module at .*: 5 nodes, .*(truncated by a limit)' <<<"$limit")"
check "... and writes what it walked" test -s "$TMP/limited.ir"

show=$(dbg_section "$TMP/log" @@SHOW @@BOUNDARY)
check_eq "ir-layout show: types with sizes and offsets, boundaries" \
	"struct Instr: 72 bytes, node
  pm_run_pass: pass pass->name, ir m (Module)" \
	"$(grep -E '^struct Instr:|^  pm_run_pass:' <<<"$show")"
check_eq "ir-status names the layout, root and boundary" 1 \
	"$(grep -c "^layout 'toyc' (.*toyc.lua): [0-9]* types, root Module, boundaries: pm_run_pass" <<<"$show")"
check_eq "help ir-dump has the usage and an example" 2 \
	"$(grep -cE "^($DBG_HELP_USAGE|Example: ir-dump -o)" <<<"$show")"

# --boundary from inside a pass: the innermost pm_run_pass frame.
boundary=$(dbg_section "$TMP/log" @@BOUNDARY @@END)
check_files_eq "ir-dump --boundary inside pass_cse dumps cse's input" \
	"$TMP/expected.ir" "$TMP/boundary.ir"
check_eq "... and names the pass and the frame" 1 \
	"$(grep -c "^ir-dump: pass 'cse' at frame #1 (pm_run_pass): Module at" <<<"$boundary")"
check_eq "... and leaves frame 0 selected" 1 \
	"$(grep -cE "$(dbg_says frame0 pass_cse)" <<<"$boundary")"

if only_under gdb "LLDB 14 offers plugin commands no completion hook"; then
	cat >"$TMP/complete" <<-EOF
	ir-layout load $LAYOUT
	complete ir-dump --max-n
	complete ir-trace o
	complete ir-dump -o /tmp/x Mod
	complete ir-layout load $FIXTURES/toyc/toyc.l
	EOF
	dbg_session "$TMP/complete.log" "$TMP/complete" -- "$TOYC" "$DEMO"
	check_eq "completion of options" "ir-dump --max-nodes" \
		"$(grep '^ir-dump --max' "$TMP/complete.log")"
	check_eq "completion of ir-trace words" "ir-trace off ir-trace on" \
		"$(grep '^ir-trace o' "$TMP/complete.log" | sort | tr '\n' ' ' | sed 's/ $//')"
	check_eq "completion of layout types" "ir-dump -o /tmp/x Module" \
		"$(grep '^ir-dump -o /tmp/x Mod' "$TMP/complete.log")"
	check_eq "completion of file names after ir-layout load" \
		"ir-layout load $FIXTURES/toyc/toyc.lua" \
		"$(grep '^ir-layout load ' "$TMP/complete.log")"
fi

# --- completion goes on past the first word (GDB; LLDB 14 has no hook) ----
if only_under gdb "LLDB 14 offers plugin commands no completion hook"; then
	run_gdb "$TMP/complete2.log" -ex "ir-layout load $LAYOUT" \
		-ex 'complete ir-dump -f ' -ex 'complete ir-set format j' \
		-ex 'ir-break ^cse$' -ex run -ex 'complete ir-trace on c' -ex kill \
		--args "$TOYC" "$DEMO" </dev/null
	check_eq "ir-dump -f TAB: the formats" "ir-dump -f both
ir-dump -f json
ir-dump -f text" "$(grep '^ir-dump -f ' "$TMP/complete2.log")"
	check_eq "ir-set format j TAB: json" "ir-set format json" \
		"$(grep '^ir-set format ' "$TMP/complete2.log")"
	check_eq "ir-trace on c TAB: the passes seen" \
		"ir-trace on constfold
ir-trace on copyprop
ir-trace on cse" "$(grep '^ir-trace on ' "$TMP/complete2.log")"
fi

# --- -f json to the console is JSON alone, and reports the real hash -----
dbg_batch "$TMP/json.log" -o 'ir-break ^cse$' -o run \
	-o "$(dbg_cmd echo @@JSON)" -o 'ir-dump -f json m' \
	-o "$(dbg_cmd echo @@TEXT)" -o 'ir-dump m' \
	-o "$(dbg_cmd echo @@END)" -o kill -- "$TOYC" "$DEMO"
dbg_section "$TMP/json.log" @@JSON @@TEXT >"$TMP/console.json"
check "ir-dump -f json to the console: only JSON (no summary line after it)" \
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
	"$TMP/console.json"
text_hash=$(dbg_section "$TMP/json.log" @@TEXT @@END |
	sed -n 's/^ir-dump: .*, hash \([0-9a-f]*\), .*/\1/p')
check_eq "... and its hash is the text's (xxh64), not 0000000000000000" \
	"$text_hash" "$(json_get "$TMP/console.json" 'd["stats"]["hash"]')"
check "... which is a real one" test "${text_hash:-0000000000000000}" != 0000000000000000
if only_under gdb "LLDB 14 has no pipe command"; then
	run_gdb "$TMP/pipe.log" -ex "ir-layout load $LAYOUT" -ex 'ir-break ^cse$' \
		-ex run -ex 'pipe ir-dump -f json m | jq -r .schema' -ex kill \
		--args "$TOYC" "$DEMO" </dev/null
	check "gdb: pipe ir-dump -f json m | jq . reads it" \
		grep -qx 'irsnap.snapshot/1' "$TMP/pipe.log"
fi

# A JSON-only trace: every event has the text's hash, so 'changed' holds.
DBG_TIMEOUT=90 dbg_batch "$TMP/jtrace.log" -o "$(dbg_cmd set format json)" \
	-o 'ir-trace on' -o run -- "$TOYC" "$DEMO"
jrun=$(latest_run)
DBG_TIMEOUT=90 dbg_batch "$TMP/ttrace.log" -o "$(dbg_cmd set format text)" \
	-o 'ir-trace on' -o run -- "$TOYC" "$DEMO"
trun=$(latest_run)
check_eq "a JSON-only trace records the same hashes and changes as a text one" \
	"$(run_json "$trun" '[(e["hash"], e.get("changed")) for e in d["events"]]')" \
	"$(run_json "$jrun" '[(e["hash"], e.get("changed")) for e in d["events"]]')"
check "... and the JSON-only run validates" "$IRSNAP" validate "$jrun"

# ---- a Function dumped alone, from a frame up the stack ------------------
# `up`, then `ir-dump f Function`: the function finds its module through
# the layout's parent link (its calls name their callees, its globals
# resolve), with no walk error, as toyc's own per-function dump prints it.
fn0=$(sed -n 's/^func @\([^(]*\)(.*/\1/p' "$DEMO" | head -1)
"$TOYC" --per-function --print-before-all "$DEMO" >/dev/null 2>"$TMP/fn.err"
toyc_dump "$TMP/fn.err" Before "cse on @$fn0" 1 >"$TMP/fn.want"
check "toyc dumps @$fn0 alone before its cse, calls and all" \
	grep -q ' = call @' "$TMP/fn.want"
dbg_batch "$TMP/fn.log" -o "$(dbg_cmd break pass_cse_function)" -o run \
	-o up -o "ir-dump -f text -o $TMP/fn.ir f Function" \
	-o "$(dbg_cmd echo @@PRINT)" -o 'ir-dump f Function' \
	-o "$(dbg_cmd echo @@END)" -o kill \
	-- "$TOYC" --per-function "$DEMO"
check_files_eq "ir-dump f Function one frame up is toyc's dump of @$fn0" \
	"$TMP/fn.want" "$TMP/fn.ir"
check_eq "... with no walk error and no missing Module" "1 0" \
	"$(dbg_section "$TMP/fn.log" @@PRINT @@END | grep -c '^ir-dump: Function at 0x[0-9a-f]*: [0-9]* nodes, [0-9]* bytes read, 0 walk errors') $(grep -c 'no Module\|no enclosing' "$TMP/fn.log")"

# ---- the debugger's conventions: help, show, info ------------------------
nsettings=$("$IRSNAP" help settings | grep -c '^  [a-z]')
dbg_batch "$TMP/conv.log" -o "$(dbg_cmd echo @@SET)" -o 'help ir-set' \
	-o "$(dbg_cmd echo @@DUMP)" -o 'help ir-dump' \
	-o "$(dbg_cmd echo @@BREAK)" -o 'ir-break' -o 'ir-status' \
	-o "$(dbg_cmd echo @@END)" -- "$TOYC" "$DEMO"
for key in $("$IRSNAP" help settings | awk '/^  [a-z]/ { print $1 }'); do
	dbg_section "$TMP/conv.log" @@SET @@DUMP | grep -q -- "$key" ||
		missing_set+=" $key"
done
check_eq "help ir-set names every setting (call-timeout too)" "" "${missing_set:-}"
check_eq "help ir-dump names every option completion offers" \
	"--boundary --format --max-bytes --max-depth --max-nodes --output -f -o" \
	"$(dbg_section "$TMP/conv.log" @@DUMP @@BREAK | grep -oE -- '(^|[[ |])(--[a-z-]+|-[fo])\b' | tr -d '[ |' | sort -u | tr '\n' ' ' | sed 's/ $//')"
check_eq "ir-break alone says it stops at every pass, not at '.*'" \
	"irsnap: will stop before every pass (no PASS-REGEX given)
break: before every pass" \
	"$(dbg_section "$TMP/conv.log" @@BREAK @@END | grep -oE '^(irsnap: will stop before every pass \(no PASS-REGEX given\)|break: .*)')"
if only_under gdb "help CLASS, info and show prefixes are GDB's"; then
	run_gdb "$TMP/gdbconv.log" -ex "ir-layout load $LAYOUT" \
		-ex 'echo @@HELP\n' -ex 'help irsnap' \
		-ex 'echo @@IR\n' -ex 'help ir' \
		-ex 'echo @@SHOW\n' -ex 'show irsnap' \
		-ex 'echo @@SETHELP\n' -ex 'help set irsnap' \
		-ex 'ir-trace on' -ex run -ex 'echo @@INFO\n' -ex 'info irsnap' \
		-ex 'echo @@END\n' --args "$TOYC" "$DEMO" </dev/null
	help=$(dbg_section "$TMP/gdbconv.log" @@HELP @@IR)
	check_eq "help irsnap lists the eight ir-* commands" 8 \
		"$(grep -cE '^  ir-[a-z]+ +-- ' <<<"$help")"
	check_eq "help ir is that overview, not ambiguous" "$help" \
		"$(dbg_section "$TMP/gdbconv.log" @@IR @@SHOW)"
	check_eq "show irsnap: a sentence per setting, as show irsnap KEY" \
		"$nsettings 0" \
		"$(dbg_section "$TMP/gdbconv.log" @@SHOW @@SETHELP | grep -cE '^irsnap [a-z-]+ is .*\.$') $(dbg_section "$TMP/gdbconv.log" @@SHOW @@SETHELP | grep -cvE '^irsnap [a-z-]+ is .*\.$')"
	check "help set irsnap names call-timeout in its first line" \
		grep -q '^Change irsnap settings: .*call-timeout' \
		<(dbg_section "$TMP/gdbconv.log" @@SETHELP @@INFO)
	info=$(dbg_section "$TMP/gdbconv.log" @@INFO @@END)
	check_eq "info irsnap lists the run's ten passes" 10 \
		"$(grep -cE '^  [0-9]{4} [a-z]+ ' <<<"$info")"
fi

# ---- ir-break --after while stopped before the pass ----------------------
# The README's sequence: stopped before cse, ir-break --after cse, continue:
# the stop is after that very cse (the pipeline's pass 3), not a later one,
# and each stop line says which pass run it is.
"$TOYC" --print-after-all "$DEMO" >/dev/null 2>"$TMP/after.err"
toyc_dump "$TMP/after.err" After cse 1 >"$TMP/after.want"
dbg_batch "$TMP/after.log" -o 'ir-break cse' -o run \
	-o 'ir-break --after cse' -o continue \
	-o "ir-dump --boundary -f text -o $TMP/after.ir" -o kill \
	-- "$TOYC" "$DEMO"
check_eq "stopped before cse, the pipeline's pass 3, then after it" \
	"irsnap: stopped before pass 'cse' (the pipeline's pass 3, untraced; IR: Module at
irsnap: stopped after pass 'cse' (the pipeline's pass 3, untraced; IR: Module at" \
	"$(grep -o "^irsnap: stopped .*; IR: Module at" "$TMP/after.log")"
check_files_eq "... and ir-dump --boundary there is the first cse's output" \
	"$TMP/after.want" "$TMP/after.ir"
DBG_TIMEOUT=90 dbg_batch "$TMP/after-traced.log" -o 'ir-trace on' \
	-o 'ir-break --both cse' -o run -o continue -o kill -- "$TOYC" "$DEMO"
check_eq "traced, the stop lines give the seq" \
	"irsnap: stopped before pass 'cse' (seq 3; IR: Module at
irsnap: stopped after pass 'cse' (seq 3; IR: Module at" \
	"$(grep -o "^irsnap: stopped .*; IR: Module at" "$TMP/after-traced.log")"

# ---- deleting irsnap's breakpoints ---------------------------------------
# The user deletes every breakpoint, irsnap's among them: irsnap says so
# in a line of its own, ir-status shows them gone, and the next ir-break
# sets them again (it used to answer as if they were there, and the
# program ran to its end).
dbg_batch "$TMP/del.log" -o 'ir-break ^cse$' -o run \
	-o "$(dbg_cmd delete-all)" -o "$(dbg_cmd echo @@STATUS)" -o 'ir-status' \
	-o "$(dbg_cmd echo @@AGAIN)" -o 'ir-break --after ^cse$' -o continue \
	-o "ir-dump --boundary -f text -o $TMP/del.ir" -o kill \
	-- "$TOYC" "$DEMO"
check_eq "delete: irsnap says, in a line of its own, which of its breakpoints went" \
	1 "$(grep -c "^irsnap: you deleted irsnap's breakpoints at pm_run_pass.*: no pass there is seen until ir-break or ir-trace sets them again$" "$TMP/del.log")"
check "... ir-status shows them deleted" \
	grep -q "^breakpoints at: .*; deleted by you: pm_run_pass" \
	<(dbg_section "$TMP/del.log" @@STATUS @@AGAIN)
check "... and ir-break --after then stops after that very cse" \
	grep -q "^irsnap: stopped after pass 'cse' (the pipeline's pass 3, untraced;" \
	<(dbg_section "$TMP/del.log" @@AGAIN)
check_files_eq "... whose output ir-dump --boundary gives" \
	"$TMP/after.want" "$TMP/del.ir"
dbg_batch "$TMP/del2.log" -o 'ir-break ^cse$' -o run \
	-o "$(dbg_cmd delete-all)" -o continue -- "$TOYC" "$DEMO"
check_eq "delete, then continue: the program runs to its end, one stop" \
	"0 1" "$? $(grep -c '^irsnap: stopped before pass' "$TMP/del2.log")"

# ---- phis: a zip of parallel arrays, chosen by a condition ---------------
# toyc's phi keeps its values and incoming blocks as parallel arrays; the
# layout zips them and picks them by the opcode. Live, through a trace
# whose passes fold, merge and delete what the phis name, and on a core.
PHI=$FIXTURES/toyc/phi.ir
"$TOYC" --print-before-all --print-after-all "$PHI" >/dev/null 2>"$TMP/phi.err"
toyc_dump "$TMP/phi.err" Before constfold 1 >"$TMP/phi.want"
check "toyc prints phis in phi.ir" grep -q ' = phi \[' "$TMP/phi.want"
dbg_batch "$TMP/phi.log" -o 'ir-break ^constfold$' -o run \
	-o "ir-dump -f both -o $TMP/phi.ir m" -o kill -- "$TOYC" "$PHI"
check_files_eq "phis: ir-dump equals toyc's printer" "$TMP/phi.want" "$TMP/phi.ir"
check_eq "... and the JSON zips each phi's value and block" \
	"[['OPK_CONST', True], ['OPK_VALUE', True]]" \
	"$(json_get "$TMP/phi.ir.json" 'next([[t["value"]["kind"], t["block"]["ref"] in {b["id"] for b in d["nodes"] if b["type"] == "Block"}] for t in n["fields"]["incoming"]] for n in d["nodes"] if n["type"] == "Instr" and n["fields"]["opcode"] == "OP_PHI")')"
check "... and validates" "$IRSNAP" validate "$TMP/phi.ir.json"
DBG_TIMEOUT=90 dbg_batch "$TMP/phi-trace.log" -o 'ir-trace on' -o run \
	-- "$TOYC" "$PHI"
prun=$(latest_run)
bad= n=0
declare -A nth=()
for snap in "$prun"/snapshots/*.after.ir; do	# in pipeline order
	name=$(basename "$snap" .after.ir) n=$((n + 1))
	pass=${name#*-}
	nth[$pass]=$((${nth[$pass]:-0} + 1))
	toyc_dump "$TMP/phi.err" After "$pass" "${nth[$pass]}" |
		cmp -s - "$snap" || bad="$bad $name"
done
check_eq "phis: the trace recorded the ten passes" 10 "$n"
check_eq "phis: every pass's after snapshot of the trace is toyc's dump" "" "$bad"
check "... and the passes changed the phis" \
	grep -q '%r = phi \[%y, \^entry\]$' "$prun"/snapshots/*simplifycfg.after.ir
# constfold crashes in @boom, before it changes the phis after it.
{ head -1 "$PHI"; printf '\nfunc @boom(%%x) {\nentry:\n  %%0 = xor %%x, %%x\n  ret %%0\n}\n'
  tail -n +2 "$PHI"; } >"$TMP/phi-crash.ir"
dbg_crash_core "$TMP/phi-live.log" "$TMP/phi-live.ir" "$TMP/phi.core" \
	-- "$TOYC" --bug=crash "$TMP/phi-crash.ir"
dbg_batch "$TMP/phi-core.log" -o "ir-dump --boundary -f text -o $TMP/phi-core.ir" \
	-c "$TMP/phi.core" "$TOYC"
"$TOYC" --passes= "$TMP/phi-crash.ir" >"$TMP/phi-crash.want"
check_files_eq "phis: ir-dump --boundary on a core equals toyc's printer" \
	"$TMP/phi-crash.want" "$TMP/phi-core.ir"

done_testing
