#!/usr/bin/env bash
# The report looked at in a real browser, at a laptop's width: headless
# Chromium opens the page of a run whose verifier failed (toyc's
# break-invariant under GDB with --verify, then reduced) at 1366 px and a
# probe script measures what a reader would see there: diff hunks headed
# by their function, no link to "", the failure's snapshot called what it
# is, the timeline's columns, no line of the reproducer cut behind a
# scrollbar, the control-flow pictures drawn (SVG, inside their frames);
# a screenshot is kept in $BUILD/test-artifacts/. Then a crash's page, and
# a run whose IR text holds markup: every picture's text escaped.
. "$(dirname "$0")/../lib.sh"
. "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb

. "$(dirname "$0")/chrome_lib.sh"
if ! command -v dot >/dev/null; then
	not_ok "Graphviz's dot is installed" "install it: apt-get install graphviz" \
		"(scripts/install-deps does)"
	done_testing
	exit 1
fi

# probe PAGE OUT: PAGE opened at 1366x768 with a script that measures it,
# the measures (JSON) in OUT. The page's own script runs first.
probe() {
	local page=$1 out=$2 probed=${1%.html}.probe.html
	python3 - "$page" "$probed" <<-'EOF'
	import sys
	page = open(sys.argv[1]).read()
	js = r"""<script>
	(function () {
	  var q = function (s) { return Array.prototype.slice.call(document.querySelectorAll(s)); };
	  var text = function (e) { return e.textContent.trim(); };
	  var m = {
	    width: window.innerWidth,
	    page_overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
	    hunks: q("pre.diff .hunk").map(text),
	    empty_links: q("a").filter(function (a) { return a.getAttribute("href") === ""; }).length,
	    run_dir_href: (q("dl.meta a")[0] || {getAttribute: function () { return null; }}).getAttribute("href"),
	    h3: q("h3").map(text),
	    columns: q("table.timeline th").map(text),
	    cut: q("#failure pre.cmd, #failure details.repro pre").filter(function (p) {
	      return p.scrollWidth > p.clientWidth + 1; }).map(function (p) {
	      return p.textContent.slice(0, 60); }),
	    svgs: q(".cfg figure").map(function (f) {
	      var s = f.querySelector("svg");
	      if (!s) return null;
	      var r = s.getBoundingClientRect();
	      return { w: Math.round(r.width), h: Math.round(r.height),
	               inside: r.width <= f.clientWidth + 1,
	               boxes: s.querySelectorAll("g.node").length,
	               arrows: s.querySelectorAll("g.edge").length }; }),
	    figcaptions: q(".cfg figcaption").map(text),
	    headline: text(document.querySelector(".headline") || document.body)
	  };
	  var pre = document.createElement("pre");
	  pre.id = "probe";
	  pre.textContent = JSON.stringify(m);
	  document.body.appendChild(pre);
	})();
	</script>"""
	open(sys.argv[2], "w").write(page.replace("</body>", js + "</body>"))
	EOF
	chrome --window-size=1366,768 --virtual-time-budget=5000 --dump-dom \
		"file://$probed" 2>"$out.log" |
		python3 -c 'import sys, re, html
m = re.search(r"<pre id=\"probe\">(.*?)</pre>", sys.stdin.read(), re.S)
print(html.unescape(m.group(1)) if m else "{}")' >"$out"
}
# m OUT PYEXPR: PYEXPR over `m`, the measures in OUT.
m() { python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"; }

# ---- a verifier failure, reduced --------------------------------------------
dbg=$TMP/v.log
IRSNAP_DIR=$TMP/v run_gdb "$dbg" -ex "ir-layout load $LAYOUT" \
	-ex 'ir-trace on --verify' -ex run --args "$TOYC" \
	--bug=break-invariant --passes=cse,simplifycfg,dce "$DEMO" </dev/null
RUN=$(readlink -f "$TMP/v/latest")
check "a verifier failure's run, with failure.json" test -f "$RUN/failure.json"
"$IRSNAP" reduce "$RUN" -j2 >"$TMP/reduce.log" 2>&1
check "reduced into RUN/repro/" test -s "$RUN/repro/repro.sh"
# the page inside the run, as irsnap report writes it by default
(cd "$TMP" && IRSNAP_DIR=$TMP/v "$IRSNAP" report) >"$TMP/report.out" 2>&1
PAGE=$RUN/report.html
check "irsnap report with no RUN wrote \$IRSNAP_DIR/latest's page" test -s "$PAGE"
probe "$PAGE" "$TMP/v.json"
check_eq "Chromium measured the page at 1366 px" 1366 "$(m "$TMP/v.json" 'm["width"]')"
check "every diff hunk names what encloses it (its function), as irsnap diff does" \
	test "$(m "$TMP/v.json" 'len(m["hunks"]) > 0 and all(__import__("re").match(r"@@ .* @@ (func @|module @)", h) for h in m["hunks"]) and any(" @@ func @" in h for h in m["hunks"])')" = True
check_eq "no link goes to \"\"" 0 "$(m "$TMP/v.json" 'm["empty_links"]')"
check_eq "the run directory's link, from a page inside it, is ./" ./ \
	"$(m "$TMP/v.json" 'm["run_dir_href"]')"
check "the verifier's snapshot is 'The IR the verifier rejected', not a crash's" \
	test "$(m "$TMP/v.json" '"The IR the verifier rejected" in m["h3"] and "Crash snapshot" not in m["h3"]')" = True
check_eq "the headline names the verifier and the pass, by seq" \
	"verifier toyc_verify found $(json_get "$RUN/failure.json" 'd["verifier"]["problems"]') problems after pass simplifycfg (seq 2)" \
	"$(m "$TMP/v.json" 'm["headline"]')"
check_eq "the timeline's columns say seq, lines and text bytes, as irsnap show" \
	"seq pass CPU ms CPU time lines text bytes IR verifier" \
	"$(m "$TMP/v.json" '" ".join(m["columns"])')"
check_eq "no line of the reduce command or repro.sh is cut behind a scrollbar" \
	"[]" "$(m "$TMP/v.json" 'm["cut"]')"
check_eq "the page does not scroll sideways at 1366 px" False \
	"$(m "$TMP/v.json" 'm["page_overflow"]')"
check_eq "two control-flow pictures, before and after" \
	"before the pass|after the pass, rejected by the verifier" \
	"$(m "$TMP/v.json" '"|".join(c.split(" ")[0] + " " + " ".join(c.split(" ")[1:-2]) for c in m["figcaptions"])')"
check "... drawn: boxes and arrows, inside their frames" \
	test "$(m "$TMP/v.json" 'all(s and s["w"] > 100 and s["h"] > 100 and s["inside"] and s["boxes"] > 1 and s["arrows"] > 0 for s in m["svgs"])')" = True
# simplifycfg dropped terminators: the picture after has fewer arrows
check "... the one after the broken pass has fewer arrows (terminators dropped)" \
	test "$(m "$TMP/v.json" 'm["svgs"][1]["arrows"] < m["svgs"][0]["arrows"]')" = True
chrome --window-size=1366,768 --screenshot="$TMP/laptop.png" "file://$PAGE" \
	>/dev/null 2>"$TMP/shot.log"
check_eq "a screenshot at a laptop's size (1366x768 PNG)" "1366 768" \
	"$(python3 -c 'import struct, sys
b = open(sys.argv[1], "rb").read(24)
print(*struct.unpack(">II", b[16:24]) if b[:8] == b"\x89PNG\r\n\x1a\n" else "-")' "$TMP/laptop.png" 2>/dev/null)"
mkdir -p "$BUILD/test-artifacts" &&
	cp "$TMP/laptop.png" "$BUILD/test-artifacts/report-verifier-1366.png" &&
	cp "$PAGE" "$BUILD/test-artifacts/report-verifier.html"

# ---- a crash ------------------------------------------------------------------
IRSNAP_DIR=$TMP/c gdb_trace_toyc "$TMP/c.log" --bug=crash "$DEMO"
CRUN=$(readlink -f "$TMP/c/latest")
"$IRSNAP" report "$CRUN" -o "$TMP/crash.html" >/dev/null 2>&1
probe "$TMP/crash.html" "$TMP/c.json"
check "a crash's snapshot is the 'Crash snapshot'" \
	test "$(m "$TMP/c.json" '"Crash snapshot" in m["h3"]')" = True
check "... its headline: the signal in the pass, by seq" \
	test "$(m "$TMP/c.json" '__import__("re").fullmatch(r"SIGSEGV \(signal 11\) in pass constfold \(seq \d+\)", m["headline"]) is not None')" = True
check_eq "... and a page beside the run links the run directory by a path" \
	False "$(m "$TMP/c.json" 'm["run_dir_href"] in ("", None)')"

# ---- the pictures escape the IR's text ----------------------------------------
# The same verifier run with markup in its IR (same length, so the JSON
# spans still hold): nothing of it may become markup of the page.
cp -r "$RUN" "$TMP/h"
rm -rf "$TMP/h/repro" "$TMP/h/report.html"
sed -i 's/@read/<svg>/g; s/@ext\.hash/<script>/g' "$TMP/h"/snapshots/*.ir
"$IRSNAP" report "$TMP/h" -o "$TMP/hostile.html" >/dev/null 2>&1
check "the hostile run's page was written" test -s "$TMP/hostile.html"
check_eq "... with exactly its two pictures' <svg> elements, and no <script> but its own" \
	"2 1" "$(grep -o '<svg' "$TMP/hostile.html" | wc -l) $(grep -o '<script>' "$TMP/hostile.html" | wc -l)"
check "... the IR's markup shown as text" grep -q '&lt;svg&gt;' "$TMP/hostile.html"

done_testing
