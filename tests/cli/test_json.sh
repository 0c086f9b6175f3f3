#!/usr/bin/env bash
# --json for scripts: irsnap show, diff and validate each print one
# document that irsnap validate accepts against its schema (show-1,
# diff-1, validate-1) and that says what the text says: the passes and the
# failure of a real run (a verifier failure under GDB, reduced), the hunks
# of a pass with their functions, the problems of a damaged run; the exit
# statuses stay those of the text.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb

# j FILE PYEXPR: PYEXPR over `d`, the document in FILE.
j() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"; }

IRSNAP_DIR=$TMP/runs run_gdb "$TMP/gdb.log" -ex "ir-layout load $LAYOUT" \
	-ex 'ir-trace on --verify' -ex run --args "$TOYC" \
	--bug=break-invariant --passes=cse,simplifycfg,dce "$DEMO" </dev/null
RUN=$(readlink -f "$TMP/runs/latest")
"$IRSNAP" reduce "$RUN" -j2 >/dev/null 2>&1

# ---- show --json --------------------------------------------------------------
"$IRSNAP" show --json "$RUN" >"$TMP/show.json" 2>"$TMP/show.err"
check_eq "irsnap show --json: exit 0, nothing on stderr" "0 " "$? $(cat "$TMP/show.err")"
check "... a document irsnap validate accepts (irsnap.show/1)" \
	"$IRSNAP" validate "$TMP/show.json"
check_eq "... its passes are the run's, by seq" \
	"$(events "$RUN" | awk '$3 == "before" { print $1, $2 }')" \
	"$(j "$TMP/show.json" '"\n".join("%d %s" % (p["seq"], p["pass"]) for p in d["passes"])')"
"$IRSNAP" show "$RUN" >"$TMP/show.txt" 2>&1
check_eq "... with the lines and verdicts the table shows" \
	"$(awk '/^ *[0-9]+  / { v = $7; for (i = 8; i <= NF; i++) v = v " " $i; print $1, $4, v }' "$TMP/show.txt")" \
	"$(j "$TMP/show.json" '"\n".join("%d %d %s" % (p["seq"], p["text_lines"], p["verifier"]) for p in d["passes"])')"
check_eq "... the failure: a verifier's, in simplifycfg (seq 2), reduced" \
	"verifier toyc_verify simplifycfg 2 repro/reduced.ir" \
	"$(j "$TMP/show.json" '" ".join(str(d["failure"][k]) for k in ("kind", "verifier", "pass", "seq")) + " " + d["failure"]["reduced"]["file"]')"
check_eq "... its problem count is failure.json's" \
	"$(json_get "$RUN/failure.json" 'd["verifier"]["problems"]')" \
	"$(j "$TMP/show.json" 'd["failure"]["problems"]')"

# ---- diff --json ----------------------------------------------------------------
"$IRSNAP" diff --json "$RUN" 2 >"$TMP/diff.json" 2>"$TMP/diff.err"
check_eq "irsnap diff --json RUN 2: exit 1 (they differ), as without --json" 1 "$?"
check "... a document irsnap validate accepts (irsnap.diff/1)" \
	"$IRSNAP" validate "$TMP/diff.json"
"$IRSNAP" diff "$RUN" 2 >"$TMP/diff.txt" 2>&1
check_eq "... its hunk headers are the text diff's" \
	"$(grep '^@@ ' "$TMP/diff.txt")" \
	"$(j "$TMP/diff.json" '"\n".join(h["header"] for h in d["hunks"])')"
check "... each hunk's function, as its header names it" \
	test "$(j "$TMP/diff.json" 'all(h["function"] and h["header"].endswith(" " + h["function"]) for h in d["hunks"])')" = True
check_eq "... and the counts the text gives" \
	"$(sed -n 's/^\([0-9]*\) lines\? removed, \([0-9]*\) added$/\1 \2/p' "$TMP/diff.txt")" \
	"$(j "$TMP/diff.json" '"%d %d" % (d["lines_removed"], d["lines_added"])')"
check_eq "... which the hunks' lines add up to" \
	"$(j "$TMP/diff.json" '"%d %d" % (d["lines_removed"], d["lines_added"])')" \
	"$(j "$TMP/diff.json" '"%d %d" % (sum(l[0] == "-" for h in d["hunks"] for l in h["lines"]), sum(l[0] == "+" for h in d["hunks"] for l in h["lines"]))')"
before=$RUN/snapshots/0002-simplifycfg.before.ir
"$IRSNAP" diff --json "$before" "$before" >"$TMP/same.json" 2>&1
check_eq "irsnap diff --json of a file with itself: exit 0, same, no hunk" \
	"0 True 0" "$? $(j "$TMP/same.json" 'd["same"]') $(j "$TMP/same.json" 'len(d["hunks"])')"
check_eq "... and with both graphs, the node changes (none)" "0 0" \
	"$(j "$TMP/same.json" '"%d %d" % (len(d["nodes"]["added"]), len(d["nodes"]["removed"]))')"

# ---- validate --json --------------------------------------------------------------
"$IRSNAP" validate --json "$RUN" >"$TMP/valid.json" 2>&1
check_eq "irsnap validate --json of the run: exit 0, valid, no problem" \
	"0 True 0" "$? $(j "$TMP/valid.json" 'd["valid"]') $(j "$TMP/valid.json" 'len(d["problems"])')"
cp -r "$RUN" "$TMP/bad"
python3 - "$TMP/bad/manifest.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["events"][0]["hash"] = 5
json.dump(d, open(sys.argv[1], "w"))
EOF
"$IRSNAP" validate --json "$TMP/bad" >"$TMP/bad.json" 2>&1
check_eq "irsnap validate --json of a damaged copy: exit 1, not valid" \
	"1 False" "$? $(j "$TMP/bad.json" 'd["valid"]')"
check "... a document irsnap validate accepts (irsnap.validate/1)" \
	"$IRSNAP" validate "$TMP/bad.json"
check_eq "... naming the file, the JSON path and what is wrong" \
	"$TMP/bad/manifest.json|\$.events[0].hash|expected string, got integer" \
	"$(j "$TMP/bad.json" '"|".join([d["problems"][0]["file"], d["problems"][0]["where"], d["problems"][0]["message"]])')"
check_eq "... as many problems as the text counts" \
	"$("$IRSNAP" validate "$TMP/bad" | sed -n 's/.*: invalid: \([0-9]*\) problems\? in .*/\1/p')" \
	"$(j "$TMP/bad.json" 'd["problem_count"]')"

done_testing
