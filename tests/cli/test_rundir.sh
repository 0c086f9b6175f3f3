#!/usr/bin/env bash
# A run directory is untrusted (issue 14, item 6). `irsnap validate` checks
# every snapshot against the manifest event naming it (bytes, hash, node
# count), and validate, show, report, diff and reduce refuse files reached
# through a symbolic link or a path leaving the run; the HTML report
# escapes what the run holds (pass names, IR text, file names, messages).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb

# A real run that failed: toyc's assertion in strength, the sixth pass,
# with the JSON graph of every snapshot (format both) to check them all.
TRACE_FORMAT=both gdb_trace_toyc "$TMP/trace.log" --bug=assert "$DEMO"
RUN=$(latest_run)
expect_rc "the traced run is valid" 0 "$IRSNAP" validate "$RUN"
B=snapshots/0001-constfold.before

copy() {	# NAME: a fresh copy of the run, its path printed
	rm -rf "$TMP/$1"; cp -r "$RUN" "$TMP/$1"; echo "$TMP/$1"
}
edit_json() {	# FILE STATEMENT: runs the Python STATEMENT on FILE's doc
	python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(doc, open(sys.argv[1], "w"))' "$1" "$2"
}

# ---- validate: snapshot files against the manifest ------------------------
d=$(copy cut); head -c 100 "$RUN/$B.ir" >"$d/$B.ir"
expect_rc "validate: a .ir cut to 100 bytes is invalid" 1 "$IRSNAP" validate "$d"
has "... its bytes, against the event's" \
	"$d/events.jsonl: line 1: \$.text_bytes: $(run_json "$RUN" 'd["events"][0]["text_bytes"]'), but $B.ir has 100 bytes"
has "... and its hash" "$d/events.jsonl: line 1: \$.hash: "

d=$(copy empty); : >"$d/$B.ir"
expect_rc "validate: an empty .ir is invalid" 1 "$IRSNAP" validate "$d"
has "... naming it" "but $B.ir has 0 bytes"

d=$(copy garbage); head -c "$(stat -c %s "$RUN/$B.ir")" /dev/urandom >"$d/$B.ir"
expect_rc "validate: garbage of the right length is invalid" 1 "$IRSNAP" validate "$d"
has "... by its hash" "but $B.ir hashes to"
hasnt "... (the length agrees)" "text_bytes"

d=$(copy ten)
edit_json "$d/$B.json" 'doc["nodes"] = doc["nodes"][:10]'
nodes=$(run_json "$RUN" 'd["events"][0]["nodes"]')
expect_rc "validate: a .json with 10 of its $nodes nodes is invalid" 1 "$IRSNAP" validate "$d"
has "... the event's node count" "line 1: \$.nodes: $nodes, but $B.json holds 10 nodes"
has "... and the snapshot's own stats" "$d/$B.json: \$.stats.nodes: $nodes, but the file holds 10 nodes"

d=$(copy stats)
edit_json "$d/$B.json" 'doc["stats"]["hash"] = "0123456789abcdef"'
expect_rc "validate: a .json whose stats say another hash is invalid" 1 "$IRSNAP" validate "$d"
has "... naming both" "says (its stats.hash) 0123456789abcdef"

# ---- links and paths leaving the run -------------------------------------
d=$(copy passwd); rm "$d/$B.ir"; ln -s /etc/passwd "$d/$B.ir"
expect_rc "validate: a snapshot that is a link to /etc/passwd is invalid" 1 "$IRSNAP" validate "$d"
has "... as a link" "$d/$B.ir: a symbolic link: irsnap follows no link inside a run directory"
expect_rc "report: refuses it" 2 "$IRSNAP" report "$d" -o "$TMP/passwd.html"
has "... naming it" "$d/$B.ir: a symbolic link"
check "... and no page holds /etc/passwd" \
	bash -c "! grep -qs 'root:x:0' '$TMP/passwd.html'"
expect_rc "diff RUN 1: refuses it" 2 "$IRSNAP" diff "$d" 1
has "... naming it" "$d/$B.ir: a symbolic link"

d=$(copy snapdir); rm -r "$d/snapshots"; ln -s "$RUN/snapshots" "$d/snapshots"
expect_rc "validate: snapshots/ a link to another run's is invalid" 1 "$IRSNAP" validate "$d"
has "... as a link" "$d/snapshots: a symbolic link"
expect_rc "report: refuses it" 2 "$IRSNAP" report "$d" -o "$TMP/x.html"

d=$(copy manlink); rm "$d/manifest.json"; ln -s "$RUN/manifest.json" "$d/manifest.json"
expect_rc "validate: a manifest.json that is a link is invalid" 1 "$IRSNAP" validate "$d"
has "... as a link" "$d/manifest.json: a symbolic link"
expect_rc "show: refuses it" 2 "$IRSNAP" show "$d"
has "... as a link" "$d/manifest.json: a symbolic link"
expect_rc "report: refuses it" 2 "$IRSNAP" report "$d" -o "$TMP/x.html"
has "... as a link" "$d/manifest.json: a symbolic link"

d=$(copy faillink); rm "$d/failure.json"; ln -s "$RUN/failure.json" "$d/failure.json"
expect_rc "reduce RUN: a failure.json link is refused" 2 "$IRSNAP" reduce "$d"
has "... as a link" "$d/failure.json: a symbolic link"

d=$(copy dotdot)
edit_json "$d/failure.json" 'doc["before_snapshot"]["text"] = "../../../../../../etc/passwd"'
expect_rc "reduce RUN: a before snapshot outside the run is refused" 2 \
	"$IRSNAP" reduce "$d" --test 'true {}'
has "... saying it leaves the run" "leaves the run directory"
check "... and nothing was reduced" test ! -e "$d/repro/reduced"

d=$(copy inputdotdot)
edit_json "$d/failure.json" 'doc["reduce_input"] = "../../../../../../etc/passwd"'
expect_rc "reduce RUN: a reduce_input outside the run is refused" 2 \
	"$IRSNAP" reduce "$d" --test 'true {}'
has "... saying it leaves the run" "leaves the run directory"
check "... and nothing was reduced" test ! -e "$d/repro/reduced"
expect_rc "validate: and the run is invalid" 1 "$IRSNAP" validate "$d"
has "... naming the member" "reduce_input"
d=$(copy inputnull)
edit_json "$d/failure.json" 'doc["reduce_input"] = None'
expect_rc "reduce RUN: a null reduce_input (the program was not copied) is an error" 2 \
	"$IRSNAP" reduce "$d" --test 'true {}'
has "... saying so" "no reduce_input to reduce (the program could not be copied)"

d=$(copy reprolink); mkdir -p "$TMP/elsewhere"; ln -s "$TMP/elsewhere" "$d/repro"
expect_rc "reduce RUN: a repro/ link is refused, nothing written through it" 2 \
	"$IRSNAP" reduce "$d" --test 'true {}'
has "... as a link" "$d/repro: a symbolic link"
check_eq "... the place it points at stays empty" "" "$(ls -A "$TMP/elsewhere")"

mkdir "$TMP/root"; ln -s "$RUN" "$TMP/root/latest"
expect_rc "show: a latest link out of its folder is refused" 2 "$IRSNAP" show "$TMP/root"
has "... naming it" "$TMP/root/latest: points at \"$RUN\", not at a run directory beside it"
expect_rc "validate: the same" 2 "$IRSNAP" validate "$TMP/root"
has "... naming it" "$TMP/root/latest: points at"

# ---- the report escapes what the run holds -------------------------------
H='<script>alert(1)</script>'
hd="$TMP/<b>&quot;run'\"<i>"
rm -rf "$hd"; cp -r "$RUN" "$hd"
PYTHONPATH=$IRSNAP_ROOT/tests python3 - "$hd" "$H" <<'EOF'
import json, os, sys, run_doc
d, h = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(d, "manifest.json")))
run_doc.edit_events(d, lambda e: e.update(
    {"pass": e["pass"] + h + '"onmouseover="alert(2)'}))
m["debuggee"]["args"] = h
json.dump(m, open(os.path.join(d, "manifest.json"), "w"), indent=2)
f = json.load(open(os.path.join(d, "failure.json")))
f["pass"]["name"] += h
f["message"] = "</pre>" + h
f["backtrace"][0]["function"] = h
f["reduce_command"] = "irsnap reduce x --crash '" + h + "'"
json.dump(f, open(os.path.join(d, "failure.json"), "w"), indent=2)
EOF
# IR text with markup
t=$hd/$(json_get "$hd/failure.json" 'd["before_snapshot"]["text"]')
printf '</pre>%s<img src=x onerror=alert(3)>\n' "$H" >>"$t"
mkdir -p "$hd/repro"
printf '%s\n' "$H" >"$hd/repro/<img src=x onerror=alert(4)>.log"
expect_rc "report: a run full of markup still gives a page" 0 \
	"$IRSNAP" report "$hd" -o "$TMP/h.html"
python3 - "$TMP/h.html" >"$TMP/out" <<'EOF'
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.bad = [], []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k.startswith("on"):
                self.bad.append("%s %s=%s" % (tag, k, v))
        if tag in ("img", "b", "i"):
            self.bad.append("<%s>" % tag)
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
print("scripts", p.tags.count("script"))
print("bad", " ".join(p.bad) or "none")
EOF
has "report: one <script> only, irsnap's own" "scripts 1"
has "report: no tag or handler from the run" "bad none"
page=$(cat "$TMP/h.html")
check "report: the pass names are shown, escaped" \
	grep -qF 'constfold&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover=&quot;alert(2)' "$TMP/h.html"
check "report: the IR text too" \
	grep -qF '&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(3)&gt;' "$TMP/h.html"
check "report: the run directory's name too" grep -qF '&lt;b&gt;&amp;quot;run&#39;&quot;&lt;i&gt;' "$TMP/h.html"
check "report: a repro file's name too" grep -qF 'repro/&lt;img src=x onerror=alert(4)&gt;.log' "$TMP/h.html"

done_testing
