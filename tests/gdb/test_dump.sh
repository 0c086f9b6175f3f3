#!/usr/bin/env bash
# ir-dump and friends under the real GDB at a pm_run_pass stop of the real
# toyc: the text equals toyc's own printer byte for byte, the JSON is a
# valid snapshot, and bad layouts, expressions and settings leave GDB
# running with the next command working.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/gdb/gdb_lib.sh"

"$TOYC" --print-before-all "$DEMO" >/dev/null 2>"$TMP/toyc.err"
toyc_dump "$TMP/toyc.err" Before cse 1 >"$TMP/expected.ir"
check "toyc printed its before-cse dump" test -s "$TMP/expected.ir"

# A layout with a syntax error on line 3.
printf 'layout { name = "bad", root = "Module" }\n\nstruct "Module" {{\n' \
	>"$TMP/bad.lua"

run_gdb "$TMP/gdb.log" -ex "ir-layout load $LAYOUT" \
	-ex 'break pm_run_pass if $_streq(pass->name, "cse")' -ex run \
	-ex "ir-dump -o $TMP/both.ir -f both m" \
	-ex "ir-dump -f text -o $TMP/text.ir m Module" \
	-ex "ir-dump -f json -o $TMP/only.json '(Module *)m'" \
	-ex 'ir-dump m' \
	-ex 'echo @@ERRORS\n' \
	-ex 'ir-dump nosuch_symbol' \
	-ex 'ir-dump m Bogus' \
	-ex "ir-dump '(Module *)8'" \
	-ex "ir-layout load $TMP/bad.lua" \
	-ex "ir-layout load $TMP/missing.lua" \
	-ex 'set irsnap format xml' \
	-ex 'set irsnap max-depth deep' \
	-ex 'show irsnap max-depth' \
	-ex "ir-dump -o $TMP/after-errors.ir -f text m" \
	-ex 'echo @@LIMIT\n' \
	-ex 'set irsnap max-nodes 5' \
	-ex 'show irsnap max-nodes' \
	-ex "ir-dump -f text -o $TMP/limited.ir m" \
	-ex 'set irsnap max-nodes 0' \
	-ex 'echo @@SHOW\n' \
	-ex 'ir-layout show' \
	-ex 'ir-status' \
	-ex 'help ir-dump' \
	-ex 'complete ir-dump --max-n' \
	-ex 'complete ir-trace o' \
	-ex 'complete ir-dump -o /tmp/x Mod' \
	-ex "complete ir-layout load $FIXTURES/toyc/toyc.l" \
	-ex 'echo @@END\n' \
	--args "$TOYC" "$DEMO"
check "gdb -batch ran to the end" grep -q '^@@END' "$TMP/gdb.log"

check_files_eq "ir-dump -o PATH -f both: text equals toyc --print-before-all" \
	"$TMP/expected.ir" "$TMP/both.ir"
check_files_eq "ir-dump -f text with an explicit TYPE: the same text" \
	"$TMP/expected.ir" "$TMP/text.ir"
check "-f both writes the JSON to PATH.json, and it validates" \
	"$IRSNAP" validate "$TMP/both.ir.json"
check_eq "the JSON is an irsnap.snapshot/1 rooted at a Module" \
	"irsnap.snapshot/1 Module" \
	"$(json_get "$TMP/both.ir.json" 'd["schema"] + " " + d["root"]["type"]')"
check "-f json -o PATH writes the JSON to PATH exactly" \
	python3 -m json.tool "$TMP/only.json"
check "... and no text file beside it" test ! -e "$TMP/only.json.json"
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
awk '/^ir-dump: Module at /{k++; next} k == 3 && !/^@@/' "$TMP/gdb.log" \
	| sed '/^@@ERRORS/,$d' >"$TMP/printed.ir"
check_files_eq "ir-dump without -o prints exactly the text" \
	"$TMP/expected.ir" "$TMP/printed.ir"
check "the summary names nodes, bytes, walk errors and the hash" \
	grep -qE '^ir-dump: Module at 0x[0-9a-f]+: [0-9]+ nodes, [0-9]+ bytes read, 0 walk errors, hash [0-9a-f]{16}, ' \
	"$TMP/gdb.log"

errors=$(sed -n '/^@@ERRORS/,/^@@LIMIT/p' "$TMP/gdb.log")
check_eq "a bad expression: one line naming it and GDB's reason" \
	"ir-dump: cannot evaluate 'nosuch_symbol': No symbol \"nosuch_symbol\" in current context." \
	"$(grep "nosuch_symbol" <<<"$errors")"
check_eq "an unknown TYPE lists the layout's types" 1 \
	"$(grep -c "^ir-dump: no type 'Bogus' in layout 'toyc' (types: .*Module" <<<"$errors")"
check_eq "an unreadable root is one ir-dump line naming the address" 1 \
	"$(grep -c '^ir-dump: .*0x8' <<<"$errors")"
check_eq "a bad layout gives FILE:LINE: message" 1 \
	"$(grep -c "^$TMP/bad.lua:[0-9]*: " <<<"$errors")"
check_eq "a missing layout file is named" 1 \
	"$(grep -c "missing.lua" <<<"$errors")"
check_eq "GDB refuses a format it does not know" 1 \
	"$(grep -c 'Undefined item: "xml"' <<<"$errors")"
check_eq "a bad setting is refused in one line" 1 \
	"$(grep -c "^ir-set: max-depth must be a count (like 1000, 64K, 4G), not 'deep'" <<<"$errors")"
check_eq "... and the setting keeps its value" 1 \
	"$(grep -c 'irsnap max-depth is 10000\.' <<<"$errors")"
check_files_eq "after all those errors the previous layout still dumps" \
	"$TMP/expected.ir" "$TMP/after-errors.ir"
check "no Python traceback reached the user" \
	bash -c "! grep -q Traceback '$TMP/gdb.log'"

limit=$(sed -n '/^@@LIMIT/,/^@@SHOW/p' "$TMP/gdb.log")
check_eq "set/show irsnap max-nodes" 1 \
	"$(grep -c 'irsnap max-nodes is 5\.' <<<"$limit")"
check_eq "the walk stops at max-nodes and says so" 1 \
	"$(grep -c '^ir-dump: Module at .*: 5 nodes, .*(truncated by a limit)' <<<"$limit")"

show=$(sed -n '/^@@SHOW/,/^@@END/p' "$TMP/gdb.log")
check_eq "ir-layout show: types with sizes and offsets, boundaries" \
	"struct Instr: 56 bytes, node
  pm_run_pass: pass pass->name, ir m (Module)" \
	"$(grep -E '^struct Instr:|^  pm_run_pass:' <<<"$show")"
check_eq "ir-status names the layout, root and boundary" 1 \
	"$(grep -c "^layout 'toyc' (.*toyc.lua): [0-9]* types, root Module, boundaries: pm_run_pass" <<<"$show")"
check_eq "help ir-dump has the usage and an example" 2 \
	"$(grep -cE '^(Usage: ir-dump|Example: ir-dump)' <<<"$show")"
check_eq "completion of options" "ir-dump --max-nodes" \
	"$(grep '^ir-dump --max' <<<"$show")"
check_eq "completion of ir-trace words" "ir-trace off ir-trace on" \
	"$(grep '^ir-trace o' <<<"$show" | sort | tr '\n' ' ' | sed 's/ $//')"
check_eq "completion of layout types" "ir-dump -o /tmp/x Module" \
	"$(grep '^ir-dump -o /tmp/x Mod' <<<"$show")"
check_eq "completion of file names after ir-layout load" \
	"ir-layout load $FIXTURES/toyc/toyc.lua" \
	"$(grep '^ir-layout load ' <<<"$show")"

# --boundary from inside a pass: the innermost pm_run_pass frame.
run_gdb "$TMP/boundary.log" -ex "ir-layout load $LAYOUT" \
	-ex 'break pass_cse' -ex run \
	-ex "ir-dump --boundary -o $TMP/boundary.ir -f text" \
	-ex 'frame' \
	--args "$TOYC" "$DEMO"
check_files_eq "ir-dump --boundary inside pass_cse dumps cse's input" \
	"$TMP/expected.ir" "$TMP/boundary.ir"
check_eq "... and names the pass and the frame" 1 \
	"$(grep -c "^ir-dump: pass 'cse' at frame #1 (pm_run_pass): Module at" "$TMP/boundary.log")"
check_eq "... and leaves frame 0 selected" 1 \
	"$(grep -c '^#0 .*pass_cse' "$TMP/boundary.log")"

# Loaded from a Python script (`gdb -x run.py` sourcing irsnap.py): GDB
# leaves __main__.__file__ naming the outer script, which irsnap.py once
# took for its own path and ran again.
cat >"$TMP/outer.py" <<EOF
import gdb
gdb.write("outer script ran\\n")
gdb.execute("source $IRSNAP_ROOT/gdb/irsnap.py")
gdb.execute("source $IRSNAP_ROOT/gdb/irsnap.py")
gdb.execute("ir-layout load $LAYOUT")
gdb.write("layout loaded\\n")
EOF
LD_PRELOAD=$GDB_PRELOAD timeout -k 5 60 gdb -nx -q -batch -x "$TMP/outer.py" "$TOYC" \
	>"$TMP/outer.log" 2>&1
check_eq "a Python script that sources irsnap.py runs once" 1 \
	"$(grep -c '^outer script ran' "$TMP/outer.log")"
check "... and irsnap's commands work from it" \
	grep -q '^layout loaded' "$TMP/outer.log"
check "... and sourcing it again says it is already loaded" \
	grep -q '^irsnap: already loaded' "$TMP/outer.log"

done_testing
