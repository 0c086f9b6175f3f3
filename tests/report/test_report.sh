#!/usr/bin/env bash
# irsnap report: the HTML page of a real run directory (toyc traced under
# GDB until its assertion fails in strength, the sixth pass, then reduced)
# loads in headless Chromium without console errors, shows every pass and the
# failure, and renders to a screenshot; damaged run directories give one
# clear line naming the file.
. "$(dirname "$0")/../lib.sh"
. "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb

. "$(dirname "$0")/chrome_lib.sh"
# console_errors LOG: JavaScript errors Chromium logged while loading.
console_errors() { grep -E 'Uncaught|ERROR:CONSOLE|CONSOLE\(.*(Error|error)' "$1"; }

# gdb_trace DIR ARGS...: toyc ARGS traced under GDB into DIR; prints the run.
gdb_trace() {
	IRSNAP_DIR=$1 gdb_trace_toyc "$1.log" "${@:2}"
	readlink -f "$1/latest"
}

# ---- a failed run: trace, crash, reduce, report ------------------------------
RUN=$(gdb_trace "$TMP/out" --bug=assert "$DEMO")
check "gdb traced toyc into a run directory" test -f "$RUN/manifest.json"
check "the run failed (failure.json)" test -f "$RUN/failure.json"
pass=$(json_get "$RUN/failure.json" 'd["pass"]["name"]')
"$IRSNAP" reduce "$RUN" --crash "$TOYC --bug=assert --passes=$pass {}" \
	>"$TMP/reduce.log" 2>&1
check "the failing pass's input was reduced into RUN/repro/" \
	test -s "$RUN/repro/reduced.ir"

HTML=$TMP/report.html
check "irsnap report writes the page" "$IRSNAP" report "$RUN" -o "$HTML"
check "the page is not empty" test -s "$HTML"
check "no external resource: no src= or <link> to load" \
	bash -c "! grep -qiE '<link|src=|@import|url\\(' '$HTML'"
check "no network address in it" bash -c "! grep -qiE '(https?|ftp)://' '$HTML'"

chrome --dump-dom "file://$HTML" >"$TMP/dom.html" 2>"$TMP/chrome.log"
check "Chromium loaded the page" grep -q "</html>" "$TMP/dom.html"
errs=$(console_errors "$TMP/chrome.log")
check_eq "no console errors while loading" "" "$errs"
# The check above must be able to fail: the same detector on a page with a
# script error.
printf '<!DOCTYPE html><title>x</title><script>nosuch();</script>\n' >"$TMP/bad.html"
chrome --dump-dom "file://$TMP/bad.html" >/dev/null 2>"$TMP/bad.log"
check "(the console error detector catches a script error)" \
	console_errors "$TMP/bad.log"

# Every pass of the run, in order, on the timeline.
passes=$(json_get "$RUN/manifest.json" '" ".join(dict.fromkeys(e["pass"] for e in d["events"]))')
npasses=$(json_get "$RUN/manifest.json" 'len(set(e["seq"] for e in d["events"]))')
echo "# run has $npasses passes: $passes"
check "the run has more than one pass" test "$npasses" -gt 1
rows=$(python3 - "$TMP/dom.html" <<'EOF'
import re, sys, html
dom = open(sys.argv[1]).read()
table = dom.split('class="timeline"', 1)[1].split("</table>", 1)[0]
for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]:
    cells = [html.unescape(re.sub("<[^>]+>", "", c)).strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    print(cells[0], cells[1])
EOF
)
want=$(json_get "$RUN/manifest.json" '"\n".join("%d %s" % k for k in dict.fromkeys((e["seq"], e["pass"]) for e in d["events"]))')
check_eq "the timeline has one row per pass, in order" "$want" "$rows"
for p in $passes; do
	check "the page shows pass '$p' with its diff" \
		grep -q "id=\"pass-[0-9]*\".*> $p <" "$TMP/dom.html"
done
sig=$(json_get "$RUN/failure.json" 'd["signal"]["name"]')
check "the page shows the signal ($sig)" grep -q ">$sig<" "$TMP/dom.html"
check "... in the failing pass ($pass)" \
	grep -q "in pass <a class=\"pass\" href=\"#pass-[0-9]*\">$pass</a>" "$TMP/dom.html"
top=$(json_get "$RUN/failure.json" 'd["backtrace"][0]["function"]')
check "the backtrace table shows the crashing function ($top)" \
	grep -q "<td class=\"mono\">$top</td>" "$TMP/dom.html"
check "the reduce command is shown" grep -q "irsnap reduce" "$TMP/dom.html"
check "the reduced file's text is shown, whole" python3 -c '
import html, sys
text = open(sys.argv[1]).read()
sys.exit(not text or html.escape(text, quote=False) not in open(sys.argv[2]).read())
' "$RUN/repro/reduced.ir" "$TMP/dom.html"
check "the diffs are folded in <details>" grep -q "<details class=\"pass\"" "$TMP/dom.html"
check "a changed pass shows added and removed lines" \
	grep -q '<span class="add">+' "$TMP/dom.html"

chrome --screenshot="$TMP/shot.png" --window-size=1280,2000 "file://$HTML" \
	>/dev/null 2>"$TMP/shot.log"
size=$(stat -c %s "$TMP/shot.png" 2>/dev/null || echo 0)
check "a screenshot was taken ($size bytes)" test "$size" -gt 30000
check "it is a PNG" bash -c "head -c 8 '$TMP/shot.png' | od -An -c | grep -q 'P   N   G'"
mkdir -p "$BUILD/test-artifacts" && cp "$TMP/shot.png" "$HTML" "$BUILD/test-artifacts/" 2>/dev/null

# ---- a completed run: no failure section ---------------------------------------
RUN2=$(gdb_trace "$TMP/out2" "$DEMO")
check "irsnap report of a completed run" "$IRSNAP" report "$RUN2" -o "$TMP/ok.html"
check "it says completed" grep -q 'class="status good">completed<' "$TMP/ok.html"
check "and has no failure section" bash -c "! grep -q 'id=\"failure\"' '$TMP/ok.html'"

# ---- damaged run directories -----------------------------------------------------
damaged() {	# NAME EXPECTED-FILE-IN-MESSAGE DIR
	local out rc
	out=$("$IRSNAP" report "$3" -o "$TMP/damaged.html" 2>&1); rc=$?
	check_eq "$1: exit status 2" 2 "$rc"
	check_eq "$1: one line" 1 "$(printf '%s\n' "$out" | wc -l)"
	case "$out" in
	*"$2"*) ok "$1: the message names $2" ;;
	*) not_ok "$1: the message names $2" "got: $out" ;;
	esac
}
cp -r "$RUN" "$TMP/d1" && head -c 200 "$RUN/manifest.json" >"$TMP/d1/manifest.json"
damaged "truncated manifest" "d1/manifest.json" "$TMP/d1"
cp -r "$RUN" "$TMP/d2" && echo '{"schema": "irsnap.failure/1"}' >"$TMP/d2/failure.json"
damaged "failure.json missing members" "d2/failure.json" "$TMP/d2"
cp -r "$RUN" "$TMP/d3"
snap=$(json_get "$RUN/manifest.json" 'd["events"][0]["snapshot"]["text"]')
rm "$TMP/d3/$snap"
damaged "a snapshot the manifest names is gone" "$(basename "$snap")" "$TMP/d3"
damaged "no such directory" "$TMP/nothere" "$TMP/nothere"
mkdir -p "$TMP/empty"
rc=0; (cd "$TMP/empty" && IRSNAP_DIR= "$IRSNAP" report) >/dev/null 2>&1 ||
	rc=$?
check_eq "no run directory given, and no ./irsnap-out/latest: exit status 2" \
	2 "$rc"
check "a damaged run leaves no page behind" test ! -e "$TMP/damaged.html"

done_testing
