#!/usr/bin/env bash
# Long pipelines (issue 14, item 10): `irsnap show`, `report` and
# `validate` on a generated run of 40,000 passes (tests/report/gen_run.py:
# a manifest and small snapshots, consistent, in seconds), and a report of
# 2,000 passes whose every pass rewrites a 100-line IR. What is checked is
# the size and structure of what comes out, not time; the timeouts only
# stop a run gone quadratic (the old code took 89 s to show 40,000 passes,
# 2.5 min to validate them) from holding up the suite.
. "$(dirname "$0")/../lib.sh"

GEN=$IRSNAP_ROOT/tests/report/gen_run.py
python3 "$GEN" "$TMP/run40k" 40000
python3 "$GEN" "$TMP/heavy" 2000 --changed 1 --lines 100
check "the generated 40,000-pass run validates" \
	timeout 300 "$IRSNAP" validate "$TMP/run40k"

# ---- show ---------------------------------------------------------------
timeout 120 "$IRSNAP" show "$TMP/run40k" >"$TMP/show.txt" 2>&1
check_eq "show: answers for 40,000 passes" 0 "$?"
check "show: one row per pass and the total" \
	grep -q '^40000 passes, ' "$TMP/show.txt"
check_eq "show: rows in seq order, the last one last" "40000 pass0" \
	"$(grep -E '^ *[0-9]+  ' "$TMP/show.txt" | tail -1 | awk '{print $1, $2}')"

# ---- report -------------------------------------------------------------
timeout 120 "$IRSNAP" report "$TMP/run40k" -o "$TMP/40k.html" >/dev/null 2>&1
check_eq "report: answers for 40,000 passes" 0 "$?"
size=$(stat -c %s "$TMP/40k.html" 2>/dev/null || echo 0)
echo "# 40,000 passes: page of $size bytes"
check "report: the page stays under 8 MB" test "$size" -gt 0 -a "$size" -lt 8000000
python3 - "$TMP/40k.html" >"$TMP/structure.txt" <<'EOF'
import html, json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
tl = page.split('class="timeline"', 1)[1].split("</table>", 1)[0]
print("static rows", len(re.findall(r"<tr[^>]*>", tl)) - 1)
data = json.loads(html.unescape(re.search(
    r'<script type="application/json" id="rows">(.*?)</script>', page,
    re.S).group(1)))
print("data rows", len(data["rows"]), "names", len(data["names"]))
print("diffs", len(re.findall(r'<details class="pass"', page)))
print("by name", len(re.findall(r'<table class="by-name">', page)))
shown = [r[0] for r in data["rows"] if r[7]]
print("last shown", shown[-1] if shown else None, "count", len(shown))
EOF
check "report: the first page of the timeline is in the page" \
	grep -qx 'static rows 1000' "$TMP/structure.txt"
check "report: every pass is in the pager's data" \
	grep -qx 'data rows 40000 names 50' "$TMP/structure.txt"
check "report: diffs of 200 passes, not 40,000" \
	grep -qx 'diffs 200' "$TMP/structure.txt"
check "report: ... the last ones that changed the IR, linked from the timeline" \
	grep -qx 'last shown 40000 count 200' "$TMP/structure.txt"
check "report: a table of the passes by name" \
	grep -qx 'by name 1' "$TMP/structure.txt"
check "report: it says which diffs it leaves out" \
	grep -q 'Diffs of 200 of the 40000 passes' "$TMP/40k.html"

timeout 120 "$IRSNAP" report "$TMP/heavy" -o "$TMP/heavy.html" >/dev/null 2>&1
check_eq "report: 2,000 passes each rewriting 100 lines" 0 "$?"
size=$(stat -c %s "$TMP/heavy.html" 2>/dev/null || echo 0)
echo "# 2,000 changing passes: page of $size bytes"
check "report: ... a page under 8 MB (a diff per pass made it 20 MB)" \
	test "$size" -gt 0 -a "$size" -lt 8000000

# ---- the pager in a browser ------------------------------------------------
CHROMIUM=$(command -v chromium || true)
# dom URL NAME: the DOM Chromium renders of URL into $TMP/NAME.html; its
# console errors into $errs.
dom() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" \
		--enable-logging=stderr --v=0 \
		--dump-dom "$1" >"$TMP/$2.html" 2>"$TMP/$2.log"
	errs=$(grep -E 'Uncaught|ERROR:CONSOLE|CONSOLE\(.*(Error|error)' "$TMP/$2.log")
}
if [ -z "$CHROMIUM" ]; then
	not_ok "chromium is installed" "install it: apt-get install chromium"
else
	dom "file://$TMP/40k.html#page-40" dom
	check_eq "the page loads without console errors" "" "$errs"
	check "#page-40 shows the last page" \
		grep -q '<span id="page-info">rows 39001–40000 of 40000' "$TMP/dom.html"
	check "... its last row pass 40000, linked to its diff" \
		grep -q '<td class="num">40000</td><td><a href="#pass-40000">pass0</a>' "$TMP/dom.html"

	# A run claiming 1e308 CPU seconds for a pass (valid JSON, valid
	# schema): the page's data stays JSON (it said "max":inf, which
	# JSON.parse throws on, so the pager stopped).
	python3 "$GEN" "$TMP/huge-cpu" 1500
	python3 - "$TMP/huge-cpu/manifest.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["events"][3]["cpu_s"] = 1e308
json.dump(d, open(sys.argv[1], "w"))
PY
	"$IRSNAP" report "$TMP/huge-cpu" -o "$TMP/huge-cpu.html" >/dev/null 2>&1
	check_eq "report of a pass claiming 1e308 CPU seconds" 0 "$?"
	check "... embeds data that is JSON (no inf, no NaN)" python3 -c '
import json, re, sys
page = open(sys.argv[1]).read()
data = re.search(r"<script type=\"application/json\" id=\"rows\">(.*?)</script>", page, re.S).group(1)
def bad(c): raise ValueError("not JSON: " + c)
json.loads(data, parse_constant=bad)
assert not re.search(r"\b(inf|nan)\b", page, re.I), "inf or nan in the page"
' "$TMP/huge-cpu.html"
	dom "file://$TMP/huge-cpu.html#page-2" dom2
	check_eq "... which loads without console errors" "" "$errs"
	check "... and whose pager still turns to page 2" \
		grep -q '<span id="page-info">rows 1001–1500 of 1500' "$TMP/dom2.html"
fi

done_testing
