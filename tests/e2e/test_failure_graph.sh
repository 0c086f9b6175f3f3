#!/usr/bin/env bash
# The JSON graph written at a failure in format auto equals format both's
# (issue 32, item 10), under $DEBUGGER. Format auto writes the text of each
# pass and keeps the bytes its walk read; at a crash the graph of the
# pass's input is walked from those bytes. A field the text does not show
# was not kept: here an opcode's name, a char * into the program's
# .rodata (the text prints the opcode from its enum). It read as
# {"error":"unreadable ..."}, 3,096 walk errors the manifest did not
# count, where format both had the names, and validate said valid. Memory
# nobody writes reads as it did; what is still not kept is a walk error of
# the graph that names its field, counted by its event, which validate
# holds the graph to.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

sed 's|^    op         = global("toyc_optab")\[scalar "op"\].name,.*|    op         = enum("op", { strip = "OP_", lower = true }),\n    opname     = global("toyc_optab")[scalar "op"].name,  -- not in the text|' \
	"$LAYOUT" >"$TMP/hidden.lua"
check "the layout's text prints the opcode from its enum, its name hidden" \
	grep -q '^    opname     = global("toyc_optab")' "$TMP/hidden.lua"

# graph FORMAT: a trace of toyc --bug=crash in FORMAT; the run in $run.
graph() {
	rm -rf "$RUNS"
	LAYOUT=$TMP/hidden.lua dbg_batch "$TMP/$1.log" \
		-o "$(dbg_cmd set format "$1")" -o 'ir-trace on' -o run \
		-- "$TOYC" --bug=crash "$DEMO"
	run=$(latest_run)
	cp -r "$run" "$TMP/run-$1"
	run=$TMP/run-$1
}
graph both
both=$run
graph auto
auto=$run
json=$(json_get "$auto/failure.json" 'd["before_snapshot"]["json"]')
check_eq "format auto wrote the failing pass's input graph at the crash" \
	snapshots/0001-constfold.before.json "$json"
check_eq "... whose every opcode name was read" "0 0" \
	"$(json_get "$auto/$json" 'str(d["stats"]["walk_errors"]) + " " + str(len(d["errors"]))')"
check_files_eq "... the same graph format both writes" \
	"$both/$json" "$auto/$json"
check_eq "the manifest counts the graph's walk errors" \
	"$(json_get "$auto/$json" 'd["stats"]["walk_errors"]')" \
	"$(run_json "$auto" 'd["events"][0]["walk_errors"]')"
check "the run validates" "$IRSNAP" validate "$auto"
# A graph whose errors its event does not count is refused.
python3 - "$auto/$json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["stats"]["walk_errors"] = 12
json.dump(d, open(sys.argv[1], "w"))
EOF
"$IRSNAP" validate "$auto" >"$TMP/validate.out" 2>&1
check_eq "a graph with 12 walk errors its event does not count: invalid (exit 1)" 1 $?
check "... saying which count differs" \
	grep -q 'walk_errors' "$TMP/validate.out"
done_testing
