#!/usr/bin/env bash
# A trace snapshot is what a full walk gives at the same stop, byte for
# byte (issue 18): ir-trace on and ir-break --both together under
# $DEBUGGER, and at every stop a fresh `ir-dump --boundary -f both`. Each
# snapshot the trace wrote, walked or copied from an earlier walk
# (same_as), must equal that dump: the text, the JSON graph (but for the
# name of its text file), and the manifest's node count and content hash
# the dump's summary gives. The pipeline mixes passes that change one
# function of many (toyc's commute) with ones that change most of them,
# so whatever the trace reuses from an earlier snapshot is held to a walk.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

input=$TMP/gen.ir
"$TOYC" --gen=4000 --seed=5 -o "$input"
pipeline=commute,constfold,commute,commute,dce,commute
npasses=6
args=(-o 'ir-trace on' -o 'ir-break --both' -o run)
for k in $(seq 1 $((2 * npasses))); do
	args+=(-o "ir-dump --boundary -f both -o $TMP/full.$k.ir")
	args+=(-o continue)
done
DBG_TIMEOUT=120 dbg_batch "$TMP/trace.log" "${args[@]}" -- \
	"$TOYC" --passes=$pipeline "$input" -o /dev/null
check_eq "$DBG_NAME traced and stopped at every boundary (exit 0)" 0 "$?"
run=$(latest_run)
check_eq "one dump per stop" "$((2 * npasses))" \
	"$(ls "$TMP"/full.*.ir | wc -l)"

# "k text json nodes hash same_as" per event, in order.
python3 - "$run/manifest.json" >"$TMP/events" <<-'PY'
	import json, sys
	d = json.load(open(sys.argv[1]))
	for k, e in enumerate(d["events"], 1):
	    snap = e.get("snapshot") or {}
	    print(k, snap.get("text") or "-", snap.get("json") or "-",
	          e["nodes"], e["hash"], "copy" if e.get("same_as") else "walk")
	PY
check_eq "two events per pass" "$((2 * npasses))" "$(wc -l <"$TMP/events")"
# The dumps' summaries, in stop order: "nodes hash".
grep -E '^ir-dump: pass ' "$TMP/trace.log" |
	sed -E 's/.*: ([0-9]+) nodes, .* hash ([0-9a-f]+), .*/\1 \2/' \
	>"$TMP/summaries"

# The one line a snapshot's JSON and a dump's may differ in.
nofile='s/^"text_file":"[^"]*",$/"text_file":-,/'
bad=""
copies=0
while read -r k text json nodes hash how; do
	[ "$how" = copy ] && copies=$((copies + 1))
	cmp -s "$run/$text" "$TMP/full.$k.ir" || bad="$bad $k:text"
	cmp -s <(sed "$nofile" "$run/$json") \
		<(sed "$nofile" "$TMP/full.$k.ir.json") || bad="$bad $k:json"
	[ "$nodes $hash" = "$(sed -n "${k}p" "$TMP/summaries")" ] ||
		bad="$bad $k:counts"
done <"$TMP/events"
check_eq "every snapshot, text and JSON, node count and hash, equals a full ir-dump at its stop" \
	"" "$bad"
# Nothing runs between a pass's after and the next one's before: those
# befores are copies, and were held to a walk like the rest above.
check_eq "the later passes' befores are copies (same_as)" \
	"$((npasses - 1))" "$copies"
check "the commute passes changed the IR" \
	bash -c "! cmp -s '$TMP/full.1.ir' '$TMP/full.2.ir'"
done_testing
