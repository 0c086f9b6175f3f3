#!/usr/bin/env bash
# irsnap report, as a new user reads it in headless Chromium: the page
# links every file of the run (manifest, failure report, each snapshot,
# repro/), the links resolve from where the page was written; the run
# directory shows by its real name, not `latest`; a pass that crashed
# before changing the IR says so rather than "unchanged"; and the
# verifier column gives the count a verifier found.
. "$(dirname "$0")/../lib.sh"

LAYOUT=$FIXTURES/toyc/toyc.lua
DEMO=$FIXTURES/toyc/demo.ir
json() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
CHROMIUM=$(command -v chromium || true)
if [ -z "$CHROMIUM" ]; then
	not_ok "chromium is installed" "install it: apt-get install chromium"
	done_testing
	exit 1
fi
dom() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking \
		--user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" \
		--dump-dom "file://$1" 2>/dev/null
}
# timeline_cell DOM SEQ COLUMN: the text of cell COLUMN (a Python index:
# -1 is the last) of the timeline's row for event SEQ.
timeline_cell() {
	python3 - "$@" <<'PY'
import html, re, sys
dom = open(sys.argv[1]).read()
table = dom.split('class="timeline"', 1)[1].split("</table>", 1)[0]
for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]:
    cells = [html.unescape(re.sub("<[^>]+>", "", c)).strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    if cells[0] == sys.argv[2]:
        print(cells[int(sys.argv[3])])
PY
}
# gdb_trace DIR TRACE-OPTIONS ARGS...: toyc ARGS traced under GDB into DIR.
gdb_trace() {
	local dir=$1 opts=$2; shift 2
	LD_PRELOAD=$BUILD/libirsnap-gdb-xstate.so timeout 120 gdb -batch -nx \
		-ex "source $IRSNAP_ROOT/gdb/irsnap.py" \
		-ex "set irsnap dir $dir" -ex "ir-layout load $LAYOUT" \
		-ex "ir-trace on $opts" -ex run --args "$TOYC" "$@" \
		>"$dir.log" 2>&1 </dev/null
}

# ---- a crash, reduced: the report from another directory -----------------
gdb_trace "$TMP/out" "" --bug=crash "$DEMO"
RUN=$(readlink -f "$TMP/out/latest")
check "the run failed" test -f "$RUN/failure.json"
"$IRSNAP" reduce "$RUN" >"$TMP/reduce.log" 2>&1
check "... and was reduced into repro/" test -s "$RUN/repro/reduced.ir"
mkdir -p "$TMP/pages"
"$IRSNAP" report "$TMP/out/latest" -o "$TMP/pages/run.html" >/dev/null 2>&1
dom "$TMP/pages/run.html" >"$TMP/dom.html"
check "Chromium rendered the page" grep -q "</html>" "$TMP/dom.html"

# links TARGETS: every <a class="file"> of the DOM, "href -> resolved".
python3 - "$TMP/dom.html" "$TMP/pages" >"$TMP/links" <<'PY'
import html, os, re, sys, urllib.parse
dom = open(sys.argv[1]).read()
for href, text in re.findall(r'<a class="file" href="([^"]*)">(.*?)</a>', dom):
    path = urllib.parse.unquote(html.unescape(href))
    print(os.path.normpath(os.path.join(sys.argv[2], path)), html.unescape(text))
PY
resolved() { cut -d' ' -f1 "$TMP/links" | sort -u; }
for f in manifest.json events.jsonl failure.json repro/reduced.ir repro/repro.sh; do
	check "the page links $f, and the link resolves to it" \
		grep -qx "$RUN/$f" <(resolved)
done
want=$(run_json "$RUN" '"\n".join(sorted(set(os.path.join(sys.argv[1], p) for e in d["events"] for p in (e["snapshot"] or {}).values() if p)))')
check_eq "... and every snapshot the manifest names" "$want" \
	"$(resolved | grep '/snapshots/.*\.\(ir\|json\)$' | grep -v crash | sort)"
check_eq "... and every link resolves to a file or directory of the run" "" \
	"$(while read -r p _; do [ -e "$p" ] || echo "$p"; done <"$TMP/links")"
check "the run directory shows by its real name, not latest" \
	grep -q "<dt>run directory</dt><dd><a class=\"file\" href=\"[^\"]*\">$RUN</a></dd>" \
	"$TMP/dom.html"
check "... nowhere as latest" bash -c "! grep -q 'out/latest' '$TMP/dom.html'"
fpass=$(json "$RUN/failure.json" 'd["pass"]["seq"]')
summary=$(python3 - "$TMP/dom.html" "$fpass" <<'PY'
import html, re, sys
dom = open(sys.argv[1]).read()
m = re.search(r'<details class="pass" id="pass-%s"[^>]*><summary>(.*?)</summary>' % sys.argv[2], dom, re.S)
print(html.unescape(re.sub("<[^>]+>", "", m.group(1))).strip() if m else "")
PY
)
check "the crashing pass is labelled as crashed, not unchanged" \
	grep -q "crashed before changing the IR$" <<<"$summary"

# The crashed pass has no after event, so its CPU time comes from
# failure.json: the time from its before stop to the crash.
fcpu=$(json "$RUN/failure.json" 'd["pass"].get("cpu_s")')
check "failure.json gives the crashed pass's CPU time" \
	python3 -c 'import sys; sys.exit(not 0 < float(sys.argv[1]) < 60)' "$fcpu"
fcell=$(timeline_cell "$TMP/dom.html" "$fpass" 2)
check "... and the timeline's row of the crashed pass shows it in ms" \
	python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2]) * 1000) > 0.006)' \
	"${fcell:-x}" "$fcpu"

# ---- a verifier that finds many problems: the count, in the timeline ------
gdb_trace "$TMP/ver" "--verify" --bug=break-invariant "$DEMO"
VRUN=$(readlink -f "$TMP/ver/latest")
"$IRSNAP" report "$VRUN" -o "$TMP/ver.html" >/dev/null 2>&1
dom "$TMP/ver.html" >"$TMP/vdom.html"
read -r vseq vcount < <(run_json "$VRUN" '[("%d %d" % (e["seq"], sum(v["problems"] for v in e["verifiers"]))) for e in d["events"] if e["phase"] == "after" and any(v["problems"] for v in e["verifiers"])][0]')
check "the verifier found more than one problem" test "${vcount:-0}" -gt 1
cell=$(timeline_cell "$TMP/vdom.html" "$vseq" -1)
check_eq "the timeline's verifier cell says $vcount problems, not 1" \
	"$vcount problems" "$cell"

# CPU time: passes of a fraction of a millisecond show it, in the
# manifest's figures, and the page does not claim no pass used any.
check "the manifest has CPU time for the passes" \
	test "$(run_json "$VRUN" 'sum(1 for e in d["events"] if (e.get("cpu_s") or 0) > 0)')" -gt 0
check "... and the page does not say that none used measurable CPU time" \
	bash -c "! grep -q 'No pass used measurable CPU' '$TMP/vdom.html'"
cpu_bad=$(PYTHONPATH=$IRSNAP_ROOT/tests python3 - "$TMP/vdom.html" "$VRUN" <<'PY'
import html, json, re, sys, run_doc
dom = open(sys.argv[1]).read()
want = {e["seq"]: e["cpu_s"] for e in run_doc.load(sys.argv[2])["events"]
        if e["phase"] == "after" and e.get("cpu_s")}
table = dom.split('class="timeline"', 1)[1].split("</table>", 1)[0]
seen = 0
for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]:
    cells = [html.unescape(re.sub("<[^>]+>", "", c)).strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    seq = int(cells[0])
    if seq in want:
        seen += 1
        if abs(float(cells[2]) - want[seq] * 1000) > 0.006:
            print("pass %d: %s ms, manifest %.6f s" % (seq, cells[2], want[seq]))
print("" if seen else "no timeline row has CPU time")
PY
)
check_eq "... and its timeline shows each pass's CPU ms as the manifest has it" \
	"" "$(echo "$cpu_bad" | sed '/^$/d')"

done_testing
