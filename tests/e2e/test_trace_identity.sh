#!/usr/bin/env bash
# A trace snapshot is what a full walk gives at the same stop, byte for
# byte (issue 18): ir-trace on and ir-break --both together under
# $DEBUGGER, and at every stop a fresh `ir-dump --boundary -f FORMAT`.
# Each snapshot the trace wrote, walked or copied from an earlier walk
# (same_as), must equal that dump: the text, the JSON graph (but for the
# name of its text file), and the manifest's node count, bytes read and
# content hash against the dump's summary. A text-only trace walks
# function by function, each reading for itself what a dump reads once
# for all (an opcode's name), but a walk counts what its caches saved it
# as read, so the counts agree, and so does where max-bytes cuts the IR
# (issue 32 item 12: a trace cut it where a dump at the same stop was
# whole). The pipeline mixes passes that
# change one function of many (toyc's commute) with ones that change most
# of them, so whatever the trace reuses from an earlier snapshot is held
# to a walk: the copies (same_as) in both formats, and in text only the
# functions emitted from the per-unit render cache (IRSNAP_DEBUG=S says
# how many).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

input=$TMP/gen.ir
"$TOYC" --gen=4000 --seed=5 -o "$input"
pipeline=commute,constfold,commute,commute,dce,commute
npasses=6
# identity FORMAT [MAX_BYTES]: the scenario with `set irsnap format
# FORMAT` (and max-bytes).
identity() {
local format=$1 k text json nodes bytes hash how dumpf=$1 name=$1
# auto writes the text (and keeps the IR's bytes at each entry)
[ "$format" = auto ] && dumpf=text
args=(-o "$(dbg_cmd set format "$format")")
if [ -n "${2:-}" ]; then
	args+=(-o "$(dbg_cmd set max-bytes "$2")")
	name="$format, max-bytes $2"
fi
args+=(-o 'ir-trace on' -o 'ir-break --both' -o run)
for k in $(seq 1 $((2 * npasses))); do
	args+=(-o "ir-dump --boundary -f $dumpf -o $TMP/full.$k.ir")
	args+=(-o continue)
done
rm -f "$TMP"/full.*
IRSNAP_DEBUG=S DBG_TIMEOUT=120 dbg_batch "$TMP/trace.log" "${args[@]}" -- \
	"$TOYC" --passes=$pipeline "$input" -o /dev/null
check_eq "$name: $DBG_NAME traced and stopped at every boundary (exit 0)" \
	0 "$?"
run=$(latest_run)
check_eq "$name: one dump per stop" "$((2 * npasses))" \
	"$(ls "$TMP"/full.*.ir 2>/dev/null | wc -l)"

# "k text json nodes hash same_as" per event, in order.
PYTHONPATH=$IRSNAP_ROOT/tests python3 - "$run" >"$TMP/events" <<-'PY'
	import json, sys, run_doc
	d = run_doc.load(sys.argv[1])
	for k, e in enumerate(d["events"], 1):
	    snap = e.get("snapshot") or {}
	    print(k, snap.get("text") or "-", snap.get("json") or "-",
	          e["nodes"], e["bytes"], e["hash"],
	          "copy" if e.get("same_as") else "walk")
	PY
check_eq "$name: two events per pass" "$((2 * npasses))" "$(wc -l <"$TMP/events")"
# The dumps' summaries, in stop order: "nodes bytes hash".
grep -E '^ir-dump: pass ' "$TMP/trace.log" |
	sed -E 's/.*: ([0-9]+) nodes, ([0-9]+) bytes read, .* hash ([0-9a-f]+), .*/\1 \2 \3/' \
	>"$TMP/summaries"

# The one line a snapshot's JSON and a dump's may differ in.
nofile='s/^"text_file":"[^"]*",$/"text_file":-,/'
bad=""
copies=0
while read -r k text json nodes bytes hash how; do
	[ "$how" = copy ] && copies=$((copies + 1))
	cmp -s "$run/$text" "$TMP/full.$k.ir" || bad="$bad $k:text"
	if [ "$format" = both ]; then
		cmp -s <(sed "$nofile" "$run/$json") \
			<(sed "$nofile" "$TMP/full.$k.ir.json") ||
			bad="$bad $k:json"
	fi
	read -r dnodes dbytes dhash < <(sed -n "${k}p" "$TMP/summaries")
	[ "$nodes $hash" = "$dnodes $dhash" ] || bad="$bad $k:counts"
	[ "$bytes" = "$dbytes" ] || bad="$bad $k:bytes($bytes/$dbytes)"
done <"$TMP/events"
check_eq "$name: every snapshot (text, JSON), its node count, bytes read and hash equal a full ir-dump at its stop" \
	"" "$bad"
# Nothing runs between a pass's after and the next one's before: those
# befores are copies, and were held to a walk like the rest above.
check_eq "$name: the later passes' befores are copies (same_as)" \
	"$((npasses - 1))" "$copies"
[ -n "${2:-}" ] ||	# a cut text may end before the change
	check "$name: the commute passes changed the IR" \
		bash -c "! cmp -s '$TMP/full.1.ir' '$TMP/full.2.ir'"
}

identity both
check "both: with the JSON graph, no unit comes from the cache" \
	bash -c "! grep -qE ': [1-9][0-9]* units from the cache' '$TMP/trace.log'"
identity auto
identity text
# After a commute pass, all but the changed function (and any sharing a
# page with it) come from the cache.
check_eq "text: each commute's after snapshot takes most functions from the cache" \
	"4" "$(grep -E 'commute\.after\.ir: [0-9]+ units from the cache' "$TMP/trace.log" |
	awk '$4 > 80 && $9 < 10' | wc -l)"
# A byte limit just above what the dumps read: each dump is whole, and so
# must each snapshot be; one of half that: both cut at one place.
most=$(awk '{ print $2 }' "$TMP/summaries" | sort -n | tail -1)
identity text "$((most + 1))"
check "text, max-bytes $((most + 1)): no snapshot is cut" \
	bash -c "! grep -l '<truncated>' '$(latest_run)'/snapshots/*.ir"
identity text "$((most / 2))"
check "text, max-bytes $((most / 2)): the snapshots are cut" \
	grep -ql '<truncated>' "$(latest_run)"/snapshots/*.ir

done_testing
