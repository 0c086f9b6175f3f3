#!/usr/bin/env bash
# A run's life under $DEBUGGER, as the user sees it: a trace that stops
# while the program runs on (a layout loaded, a setting changed, ir-trace
# on with other options) closes its run directory, saying why, instead of
# leaving it "running" for ever (issue 32, item 19); ir-status goes on
# showing the last run once the program exited, until a new one starts
# (issue 31, item 8); a layout of a hundred boundary functions is said in a
# line, with no line per breakpoint (issue 31, item 17).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

# status_of RUN: "STATUS STOPPED_BY" of a run directory's manifest.
status_of() {
	json_get "$1/manifest.json" 'd["status"] + " " + str(d.get("stopped_by"))'
}
# runs: the run directories under $RUNS, oldest first.
runs() { find "$RUNS" -mindepth 1 -maxdepth 1 -type d -name '2*' | sort; }

# ---- a trace stopped while the program runs on ---------------------------

# reload LOG CMD: traces toyc, stops before cse (its third pass), runs CMD,
# and lets the program run to its end, traced again.
reload() {
	rm -rf "$RUNS"
	dbg_batch "$1" -o 'ir-trace on' -o 'ir-break ^cse$' -o run \
		-o "$2" -o 'ir-break off' -o continue -- "$TOYC" "$DEMO"
}

reload "$TMP/layout.log" "ir-layout load $LAYOUT"
mapfile -t rs < <(runs)
check_eq "a layout loaded mid-trace: two runs, the second traced anew" 2 \
	"${#rs[@]}"
check_eq "... the first closed, saying why (not running for ever)" \
	"stopped a layout was loaded (ir-layout load)" "$(status_of "${rs[0]}")"
check_eq "... with the passes it saw: two, and cse begun" 5 \
	"$(run_json "${rs[0]}" 'len(d["events"])')"
check_eq "... the second completed with the program" "completed None" \
	"$(status_of "${rs[1]}")"
check "... both valid" "$IRSNAP" validate "${rs[0]}"
check "irsnap show says it stopped" \
	bash -c "'$IRSNAP' show '${rs[0]}' | grep -q '  stopped  '"

reload "$TMP/set.log" "$(dbg_cmd set format text)"
mapfile -t rs < <(runs)
check_eq "a setting changed mid-trace: the first run closed, saying why" \
	"2 stopped the format setting changed" \
	"${#rs[@]} $(status_of "${rs[0]}")"

reload "$TMP/changed.log" 'ir-trace on --changed-only'
mapfile -t rs < <(runs)
check_eq "ir-trace on with other options: the first run closed, saying why" \
	"2 stopped ir-trace on --changed-only" \
	"${#rs[@]} $(status_of "${rs[0]}")"
check_eq "... none says running" "" \
	"$(for r in "${rs[@]}"; do status_of "$r"; done | grep running)"

# ir-trace off, then on again as it was: the same run goes on, and ends
# with the program.
reload "$TMP/offon.log" 'ir-trace off'
mapfile -t rs < <(runs)
check_eq "ir-trace off mid-run: one run, completed with the program" \
	"1 completed None" "${#rs[@]} $(status_of "${rs[0]}")"

# ---- ir-status after the program exited ----------------------------------

rm -rf "$RUNS"
dbg_batch "$TMP/status.log" -o 'ir-trace on' -o run -o 'ir-status' \
	-- "$TOYC" "$DEMO"
run=$(latest_run)
check "ir-status after the exit still shows the run it traced" \
	grep -q "^run directory: $run$" "$TMP/status.log"
check "... as ended, and where the next one goes" \
	grep -q "^last run, ended (the next traced pass starts a new one under $RUNS):$" \
	"$TMP/status.log"
check "... with its passes and status" \
	grep -q "^status: completed, 10 passes (0 running)" "$TMP/status.log"
check "... not 'none yet'" \
	bash -c "! grep -q 'run directory: none yet' '$TMP/status.log'"

# ---- a hundred boundary functions ------------------------------------------

# A layout breaking on 100 of toyc's functions, as a user's does on a
# compiler's 98 step functions.
nm "$TOYC" | awk '$2 ~ /^[Tt]$/ && $3 !~ /^_|\./ { print $3 }' | sort -u |
	head -100 >"$TMP/fns"
check_eq "toyc has 100 functions to break on" 100 "$(wc -l <"$TMP/fns")"
{
	sed -n '/^boundary {/q; p' "$LAYOUT"
	printf 'boundary { functions = {'
	sed 's/.*/ "&",/' "$TMP/fns" | tr -d '\n'
	printf ' }, ir = "m" }\n'
} >"$TMP/many.lua"
dbg_batch "$TMP/many.log" -o "ir-layout load $TMP/many.lua" \
	-o 'ir-trace on' -o "$(dbg_cmd echo LISTED)" \
	-o "$(dbg_cmd breakpoints)" -- "$TOYC" "$DEMO"
dbg_section "$TMP/many.log" "" LISTED | grep -v '^LISTED$' >"$TMP/said"
first=$(head -5 "$TMP/fns" | paste -sd, | sed 's/,/, /g')
check "ir-layout load: the boundaries in a line, the first five and a count" \
	grep -qF "boundaries: $first and 95 more (ir-layout show lists them)" \
	"$TMP/said"
check "ir-trace on: a count and the first five" \
	grep -qF "(100 breakpoints: $first and 95 more)" "$TMP/said"
# Some end in tail calls (no return instruction): a line each for a few,
# one line for more.
check "functions without after snapshots: at most five lines" \
	test "$(grep -c 'no after snapshots' "$TMP/said")" -le 5
# Paths are not names: a checkout at /x/main would match the function main.
grep -v 'no after snapshots' "$TMP/said" | sed -E "s#/[^ )']*##g" >"$TMP/said2"
check_eq "no other line names another function" "" \
	"$(tail -95 "$TMP/fns" | grep -wFf - "$TMP/said2")"
check_eq "no line per breakpoint set" 0 \
	"$(grep -cE '^Breakpoint [0-9]+( at|:) ' "$TMP/said")"
check "... which are there all the same" \
	grep -qw "$(tail -1 "$TMP/fns")" "$TMP/many.log"

done_testing
