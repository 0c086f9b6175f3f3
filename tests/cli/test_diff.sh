#!/usr/bin/env bash
# irsnap diff as a compiler engineer uses it on real runs (toyc traced by
# GDB): RUN SEQ and RUN PASS give a pass's before against after, two runs
# give the IR one pass left in each, hunk headers name the enclosing
# function (diff -p), node changes are named by their text rather than
# raw addresses, and on a terminal the diff is coloured (not in a pipe).
source "$(dirname "$0")/../lib.sh"

LAYOUT=$FIXTURES/toyc/toyc.lua
DEMO=$FIXTURES/toyc/demo.ir
trace() {
	local dir=$1; shift
	LD_PRELOAD=$BUILD/libirsnap-gdb-xstate.so timeout 120 gdb -batch -nx \
		-ex "source $IRSNAP_ROOT/gdb/irsnap.py" \
		-ex "set irsnap dir $dir" -ex "ir-layout load $LAYOUT" \
		-ex 'set irsnap format both' \
		-ex 'ir-trace on' -ex run --args "$TOYC" "$@" \
		>"$dir.log" 2>&1 </dev/null
	readlink -f "$dir/latest"
}
json() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

R1=$(trace "$TMP/one" "$DEMO")
R2=$(trace "$TMP/two" --passes=constfold,dce "$DEMO")
check "two traced runs" test -f "$R1/manifest.json" -a -f "$R2/manifest.json"
# a pass that runs once in the default pipeline and changes the IR
read -r seq pass < <(run_json "$R1" '[("%d %s" % (e["seq"], e["pass"])) for e in d["events"] if e["phase"] == "after" and e["changed"] and sum(x["pass"] == e["pass"] and x["phase"] == "after" for x in d["events"]) == 1][0]')
echo "# pass $seq $pass"

"$IRSNAP" diff "$R1" "$seq" >"$TMP/seq.out" 2>&1
check_eq "irsnap diff RUN SEQ: 1, the pass changed the IR" 1 "$?"
"$IRSNAP" diff "$R1" "$pass" >"$TMP/pass.out" 2>&1
check_eq "irsnap diff RUN PASS: the same" 1 "$?"
check_files_eq "... the same diff as RUN SEQ" "$TMP/seq.out" "$TMP/pass.out"
check "... its before against its after" grep -q "^+++ $R1/snapshots/$(printf %04d "$seq")-$pass.after.ir$" "$TMP/seq.out"
check "hunk headers name the enclosing function, as diff -p does" \
	grep -qE '^@@ -[0-9,]+ \+[0-9,]+ @@ func @[A-Za-z0-9_.]+\(.*\) \{$' "$TMP/seq.out"
hunks=$(grep -c '^@@ ' "$TMP/seq.out")
check_eq "... every one of them" "$hunks" \
	"$(grep -cE '^@@ -[0-9,]+ \+[0-9,]+ @@ (func @|module @)' "$TMP/seq.out")"
# the function named is the one the hunk's first line lies in
python3 - "$TMP/seq.out" "$R1/snapshots/$(printf %04d "$seq")-$pass.before.ir" >"$TMP/wrongfn" <<'PY'
import re, sys
before = open(sys.argv[2]).read().split("\n")
for m in re.finditer(r"^@@ -(\d+)(?:,\d+)? \+\S+ @@ (.*)$", open(sys.argv[1]).read(), re.M):
    line = int(m.group(1))
    heads = [l for l in before[:line - 1] if l.startswith("func ")]
    if not heads or heads[-1] != m.group(2):
        print(m.group(0))
PY
check_eq "... and it is the function the hunk lies in" "" "$(cat "$TMP/wrongfn")"
check "node changes are named by their text, not raw addresses" \
	grep -qE "^removed \([0-9]+\): (Instr|Block) '" "$TMP/seq.out"
check "... no address in the lists" \
	bash -c "! grep -E '^(removed|added) ' '$TMP/seq.out' | grep -q '0x[0-9a-f]'"

"$IRSNAP" diff "$R1" "$R2" dce >"$TMP/runs.out" 2>&1
check_eq "irsnap diff RUN1 RUN2 PASS: the IR dce left differs, 1" 1 "$?"
first_dce=$(run_json "$R1" '[e["snapshot"]["text"] for e in d["events"] if e["pass"] == "dce" and e["phase"] == "after"][-1]')
check "... RUN1's side is its last dce's after snapshot" \
	grep -qx -- "--- $R1/$first_dce" "$TMP/runs.out"
check "... RUN2's its dce's" grep -qE -- "^\+\+\+ $R2/snapshots/[0-9]+-dce.after.ir$" "$TMP/runs.out"
"$IRSNAP" diff "$R1" "$R1" >"$TMP/same.out" 2>&1
check_eq "irsnap diff RUN RUN: the same last IR, 0" 0 "$?"
check "... saying so" grep -q '^texts are identical' "$TMP/same.out"
"$IRSNAP" diff "$R1" "$R2" nosuchpass >"$TMP/nopass.out" 2>&1
check_eq "a pass neither run has: 2, one line" "2 1" "$? $(wc -l <"$TMP/nopass.out")"

check "in a pipe: no colour" bash -c "! grep -q $'\e' '$TMP/seq.out'"
script -qec "'$IRSNAP' diff '$R1' $seq" /dev/null >"$TMP/tty.out" 2>&1
check "on a terminal: added lines green, removed red, hunk headers cyan" \
	bash -c "grep -q $'\e\\[31m-' '$TMP/tty.out' && grep -q $'\e\\[36m@@ ' '$TMP/tty.out'"
NO_COLOR=1 script -qec "'$IRSNAP' diff '$R1' $seq" /dev/null >"$TMP/nocolor.out" 2>&1
check "... unless NO_COLOR is set" bash -c "! grep -q $'\e\\[3' '$TMP/nocolor.out'"

done_testing
