#!/usr/bin/env bash
# ir-trace and ir-break under $DEBUGGER in batch mode on toyc's whole
# pipeline: one before/after pair per pass in order, each snapshot equal to
# toyc's own --print-before-all/--print-after-all dump, CPU times, the exit
# recorded, --changed-only skipping exactly the passes that changed
# nothing, a pass filter, stopping after a pass, and a second `run` in one
# session getting a run directory of its own.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

"$TOYC" --print-before-all --print-after-all "$DEMO" >/dev/null \
	2>"$TMP/toyc.err"
passes=$(sed -n 's/^; \*\*\* IR Dump After \(.*\) \*\*\*$/\1/p' "$TMP/toyc.err")
npasses=$(wc -l <<<"$passes")
check_eq "toyc runs its ten-pass pipeline" 10 "$npasses"

# compare_snapshots RUN DUMPS: every snapshot of RUN against toyc's dumps
# in DUMPS; prints one line per mismatch.
compare_snapshots() {
	local run=$1 dumps=$2 seq pass phase text n when
	declare -A seen=()
	while read -r seq pass phase text; do
		when=Before; [ "$phase" = after ] && when=After
		n=$(( ${seen[$when$pass]:-0} + 1 )); seen[$when$pass]=$n
		[ "$text" = - ] && continue
		toyc_dump "$dumps" "$when" "$pass" "$n" >"$TMP/want.ir"
		cmp -s "$TMP/want.ir" "$run/$text" || echo "differs: $text"
	done < <(events "$run")
}

# --- the whole pipeline, as in the README --------------------------------
DBG_TIMEOUT=90 dbg_batch "$TMP/trace.log" -o 'ir-trace on' -o run \
	-o 'ir-status' -- "$TOYC" "$DEMO"
check_eq "$DBG_BATCH exits 0 when the program does" 0 "$?"
run=$(latest_run)
check "$DBG_BATCH traced into a run directory" test -f "$run/manifest.json"
expected=$(awk '{ n++; print n, $0, "before"; print n, $0, "after" }' \
	<<<"$passes")
check_eq "one before/after pair per pass, in toyc's order" "$expected" \
	"$(events "$run" | cut -d' ' -f1-3)"
check_eq "every snapshot equals toyc's own dump of that pass" "" \
	"$(compare_snapshots "$run" "$TMP/toyc.err")"
# The default format (auto) writes the JSON graph only where a failure
# needs it: none in a run that completed.
check_eq "format auto: the text of every snapshot, no JSON graph" \
	"$((2 * npasses)) 0 text" \
	"$(ls "$run"/snapshots/*.ir | wc -l) $(ls "$run"/snapshots/ | grep -c '\.json$') $(json_get "$run/manifest.json" '" ".join(d["options"]["formats"])')"
# Nothing runs between one pass's return and the next pass's entry: those
# befores are copies of the previous after (same_as), not walks, and the
# comparison above holds them to toyc's dumps like the rest.
check_eq "each later pass's before is a copy of the previous pass's after" \
	"$(seq 1 $((npasses - 1)) | tr '\n' ' ')" \
	"$(run_json "$run" '" ".join(str(e["same_as"]["seq"]) for e in d["events"] if e["phase"] == "before" and e.get("same_as", {}).get("phase") == "after" and e["same_as"]["seq"] == e["seq"] - 1) + " "')"
# A copy costs no bytes: it is a hard link to the file it copies.
links=""
for k in $(seq 2 "$npasses"); do
	b=$(ls "$run"/snapshots/"$(printf %04d "$k")"-*.before.ir)
	a=$(ls "$run"/snapshots/"$(printf %04d $((k - 1)))"-*.after.ir)
	[ "$(stat -c %i "$b")" = "$(stat -c %i "$a")" ] || links+=" $k"
done
check_eq "each such copy is a hard link to the previous after's text" "" \
	"$links"
# The run directory a person keeps: at most 3x the bytes of toyc's own
# --print-after-all (issue 18), counting a linked file once (du does).
toyc_paa=$("$TOYC" --print-after-all "$DEMO" 2>&1 >/dev/null | wc -c)
snap_bytes=$(du -sb --apparent-size "$run/snapshots" | cut -f1)
check "the snapshots ($snap_bytes bytes) are at most 3x --print-after-all ($toyc_paa)" \
	test "$snap_bytes" -le $((3 * toyc_paa))
check_eq "CPU time recorded for every pass" "$npasses" \
	"$(run_json "$run" \
		'sum(isinstance(e["cpu_s"], (int, float)) and e["cpu_s"] >= 0 for e in d["events"] if e["phase"] == "after")')"
check_eq "the run completed with toyc's exit status" "completed 0" \
	"$(json_get "$run/manifest.json" 'd["status"] + " " + str(d["exit_status"])')"
check "the run directory validates" "$IRSNAP" validate "$run"
debugger=$(json_get "$run/manifest.json" 'd["debugger"]')
grep -qE "$DBG_MANIFEST" <<<"$debugger" && debugger=$DBG_NAME
check_eq "the manifest names $DBG_NAME, the debuggee and its arguments" \
	"$DBG_NAME $(readlink -f "$TOYC") $DEMO" \
	"$debugger $(json_get "$run/manifest.json" 'd["debuggee"]["exe"] + " " + d["debuggee"]["args"]')"
check "$DBG_NAME said where the run went" \
	grep -q "^irsnap: tracing into $run" "$TMP/trace.log"
# LLDB relays the debuggee's output (toyc prints the IR here) from its
# own thread, in chunks that need not end a line, while irsnap speaks at
# the _exit breakpoint: under load a chunk's tail can precede the message
# on its line (CI saw it once). The message is what is checked.
check "$DBG_NAME said the program exited and how many passes it traced" \
	grep -q "irsnap: debuggee exited (status 0): $npasses passes traced" \
	"$TMP/trace.log"
check "the debuggee never stopped for the user" \
	bash -c "! grep -qE '$DBG_USER_STOP' '$TMP/trace.log'"

# --- --changed-only ------------------------------------------------------
# A pipeline where running a pass twice leaves the second run nothing to do.
pipeline=constfold,dce,dce,cse,cse,simplifycfg,simplifycfg,strength,strength
"$TOYC" --passes=$pipeline --print-before-all --print-after-all "$DEMO" \
	>/dev/null 2>"$TMP/twice.err"
declare -A count=()
unchanged=""
for pass in ${pipeline//,/ }; do
	n=$(( ${count[$pass]:-0} + 1 )); count[$pass]=$n
	if cmp -s <(toyc_dump "$TMP/twice.err" Before "$pass" "$n") \
		  <(toyc_dump "$TMP/twice.err" After "$pass" "$n"); then
		unchanged+="$pass#$n "
	fi
done
check "some passes of that pipeline change nothing (the test can tell)" \
	test "$(wc -w <<<"$unchanged")" -ge 2
DBG_TIMEOUT=90 dbg_batch "$TMP/changed.log" -o 'ir-trace on --changed-only' \
	-o run -- "$TOYC" --passes=$pipeline "$DEMO"
run=$(latest_run)
skipped=$(PYTHONPATH=$IRSNAP_ROOT/tests python3 - "$run" <<-'EOF'
	import json, sys, run_doc
	d = run_doc.load(sys.argv[1])
	seen = {}
	for e in d["events"]:
	    if e["phase"] != "after":
	        continue
	    seen[e["pass"]] = seen.get(e["pass"], 0) + 1
	    if e["snapshot"] is None and e["changed"] is False:
	        print("%s#%d" % (e["pass"], seen[e["pass"]]), end=" ")
	EOF
)
check_eq "--changed-only skips exactly the passes that changed nothing" \
	"$unchanged" "$skipped"
check_eq "... and keeps the other snapshots exact" "" \
	"$(compare_snapshots "$run" "$TMP/twice.err")"
check_eq "... all of them: 9 before, $((9 - $(wc -w <<<"$unchanged"))) after" \
	"9 $((9 - $(wc -w <<<"$unchanged")))" \
	"$(ls "$run"/snapshots/*.before.ir | wc -l) $(ls "$run"/snapshots/*.after.ir | wc -l)"
check_eq "... which for this pipeline is 9 before, 5 after" "9 5" \
	"$(ls "$run"/snapshots/*.before.ir | wc -l) $(ls "$run"/snapshots/*.after.ir | wc -l)"
check "... and the run validates" "$IRSNAP" validate "$run"

# --- a pass filter and ir-break --after ----------------------------------
toyc_dump "$TMP/toyc.err" After dce 1 >"$TMP/after-dce.ir"
dbg_batch "$TMP/filter.log" -o "ir-trace on '^(cse|dce)\$'" \
	-o 'ir-break --after dce' -o run \
	-o "ir-dump -f text -o $TMP/stopped.ir m" -o 'ir-status' \
	-o 'ir-verify' -o "ir-dump --boundary -f text -o $TMP/boundary.ir" \
	-o 'ir-break off' -o 'ir-trace off' -o continue \
	-- "$TOYC" "$DEMO"
run=$(latest_run)
# Tracing stops at `ir-trace off`, after the first dce.
check_eq "a pass regex traces only the passes it matches" \
	"cse before
cse after
dce before
dce after" "$(events "$run" | cut -d' ' -f2-3)"
check_eq "... their files are numbered by seq (0001-cse), their events carry the pipeline position (cse is pass 3, dce 4)" \
	"1 3 snapshots/0001-cse.before.ir
1 3 snapshots/0001-cse.after.ir
2 4 snapshots/0002-dce.before.ir
2 4 snapshots/0002-dce.after.ir" \
	"$(run_json "$run" '"\n".join("%d %d %s" % (e["seq"], e["position"], e["snapshot"]["text"]) for e in d["events"])')"
check "ir-break --after dce stopped the debuggee after dce" \
	grep -q "^irsnap: stopped after pass 'dce'" "$TMP/filter.log"
check_files_eq "... where ir-dump shows dce's output" \
	"$TMP/after-dce.ir" "$TMP/stopped.ir"
check "ir-verify after the stop checks dce's output" \
	grep -q "^ir-verify: pass 'dce', Module at 0x[0-9a-f]*: no problem found" \
	"$TMP/filter.log"
check_files_eq "ir-dump --boundary after the stop dumps dce's output" \
	"$TMP/after-dce.ir" "$TMP/boundary.ir"
check "ir-status lists the passes with timings" \
	grep -qE '^ +0002 +dce +[0-9.]+ ms' "$TMP/filter.log"
check "after ir-break off and ir-trace off the program ran to its end" \
	grep -q "$DBG_EXITED_0" "$TMP/filter.log"

# --- pass functions as boundaries, their IR parameters named differently --
# pass_cse(Module *m, ...) and pass_dce(Module *mod, ...): one boundary
# with ir = { "m", "mod" } finds each one's IR, equal to toyc's dumps.
sed 's/^boundary { at = "pm_run_pass".*/boundary { functions = { "pass_cse", "pass_dce" }, ir = { "m", "mod" } }/' \
	"$LAYOUT" >"$TMP/fns.lua"
check "the pass-function layout has its boundary" \
	grep -q 'ir = { "m", "mod" }' "$TMP/fns.lua"
rm -rf "$RUNS"
DBG_TIMEOUT=90 dbg_batch "$TMP/fns.log" -o "ir-layout load $TMP/fns.lua" \
	-o 'ir-layout show' -o 'ir-trace on' -o run -- "$TOYC" "$DEMO"
check "ir-layout show gives both names, in order" \
	grep -q 'pass_dce: pass named pass_dce, ir m or mod (Module)' \
	"$TMP/fns.log"
run=$(latest_run)
check_eq "cse and dce, twice each, traced at their own functions" \
	"pass_cse pass_dce pass_cse pass_dce" \
	"$(events "$run" | awk '$3 == "before" { print $2 }' | paste -sd' ')"
mismatch=$(
	declare -A seen=()
	while read -r seq pass phase text; do
		when=Before; [ "$phase" = after ] && when=After
		p=${pass#pass_}
		n=$(( ${seen[$when$p]:-0} + 1 )); seen[$when$p]=$n
		[ "$text" = - ] && { echo "no text: $seq $phase"; continue; }
		toyc_dump "$TMP/toyc.err" "$when" "$p" "$n" >"$TMP/want.ir"
		cmp -s "$TMP/want.ir" "$run/$text" || echo "differs: $text"
	done < <(events "$run"))
check_eq "each snapshot, by m or by mod, equals toyc's own dump" "" \
	"$mismatch"

# --- a pipeline run per function, as LLVM's function pass manager runs it --
# toyc --per-function breaks at pm_run_function_pass(pm, pass, f): each
# snapshot is the function, its constants found through f->parent (the
# layout's `parent`), as toyc's own per-function dump prints it.
# compare_in_order RUN DUMPS: RUN's snapshots, in order, against the dumps
# toyc printed in DUMPS; a line per mismatch.
compare_in_order() {
	local run=$1 dumps=$2 want=$TMP/want.$RANDOM k=0 seq pass phase text
	awk -v dir="$want" '
		/^; \*\*\* IR Dump / { n++; f = sprintf("%s.%05d", dir, n); next }
		{ print > f }' "$dumps"
	while read -r seq pass phase text; do
		k=$((k + 1))
		cmp -s "$want.$(printf %05d "$k")" "$run/$text" ||
			echo "differs: $text"
	done < <(events "$run")
	rm -f "$want".*
}

"$TOYC" --gen=400 -o "$TMP/fn.ir"
"$TOYC" --per-function --print-before-all --print-after-all -o /dev/null \
	"$TMP/fn.ir" 2>"$TMP/fn.err"
nfn=$(grep -c '^func @' "$TMP/fn.ir")
rm -rf "$RUNS"
DBG_TIMEOUT=120 dbg_batch "$TMP/fn.log" -o 'ir-trace on' -o run \
	-o ir-status -- "$TOYC" --per-function -o /dev/null "$TMP/fn.ir"
run=$(latest_run)
check_eq "per-function: two events for each of the 10 passes on each of $nfn functions" \
	"$((20 * nfn)) completed" \
	"$(run_json "$run" 'str(len(d["events"])) + " " + d["status"]')"
check_eq "per-function: every snapshot is toyc's own dump of that function" \
	"" "$(compare_in_order "$run" "$TMP/fn.err" | head -3)"
check "per-function: the run validates" "$IRSNAP" validate "$run"

# --- boundary variables read from the debug info ---------------------------
# At an entry stop the boundary's variables (f, pass->name) are read where
# the DWARF says they are at that pc (console/framevar.c), not by the
# debugger's evaluator, once the first stop there showed the recipe reads
# the debugger's own answer. toyc as built (-O1: in registers, and the
# pass's name one load away), at -O0 by GCC (on the stack, from the CFA
# .eh_frame gives) and by Clang (from rbp, its frame base), and at -O2:
# every snapshot is toyc's own dump, and ir-status says how they were
# read. IRSNAP_FRAMEVARS=0 reads them through the debugger, to the same.
check_eq "toyc -O1: both variables read from the debug info" \
	"boundary variables: 2 of 2 read from the debug info, the rest by the debugger" \
	"$(grep '^boundary variables' "$TMP/fn.log")"
"$TOYC" --gen=120 -o "$TMP/fv.ir"
for build in "gcc -O0 2" "clang-14 -O0 2" "gcc -O2 2"; do
	read -r cc opt want <<<"$build"
	exe=$TMP/toyc-$cc$opt
	# (Clang has no noclone, and says so for each boundary)
	"$cc" -std=c11 -D_GNU_SOURCE -g "$opt" -o "$exe" \
		"$IRSNAP_ROOT"/tests/fixtures/toyc/*.c -lm 2>/dev/null
	"$exe" --per-function --print-before-all --print-after-all \
		-o /dev/null "$TMP/fv.ir" 2>"$TMP/fv.err"
	for fv in 1 0; do
		rm -rf "$RUNS"
		IRSNAP_FRAMEVARS=$fv DBG_TIMEOUT=120 dbg_batch "$TMP/fv.log" \
			-o 'ir-trace on' -o run -o ir-status \
			-- "$exe" --per-function -o /dev/null "$TMP/fv.ir"
		said="boundary variables: $want of 2 read from the debug info, the rest by the debugger"
		[ "$fv" = 0 ] &&
			said="boundary variables: read by the debugger (IRSNAP_FRAMEVARS=0)"
		check_eq "toyc by $cc $opt, IRSNAP_FRAMEVARS=$fv: $said" "$said" \
			"$(grep '^boundary variables' "$TMP/fv.log")"
		check_eq "toyc by $cc $opt, IRSNAP_FRAMEVARS=$fv: every snapshot is toyc's own dump" \
			"" "$(compare_in_order "$(latest_run)" "$TMP/fv.err" | head -3)"
	done
done

# --- `run` again while the first process lives: two runs, not one ---------
rm -rf "$RUNS"
DBG_TIMEOUT=90 dbg_batch "$TMP/rerun.log" -o "$(dbg_cmd confirm-off)" \
	-o 'ir-trace on' -o 'ir-break ^cse$' -o run -o 'ir-break off' -o run \
	-- "$TOYC" "$DEMO"
runs=$(ls -d "$RUNS"/2* 2>/dev/null | wc -l)
check_eq "a second run in one session gets its own run directory" 2 "$runs"
check "$DBG_NAME said the first process was killed" \
	grep -q "^irsnap: debuggee killed: 3 passes traced in " "$TMP/rerun.log"
check_eq "the second run traced the whole pipeline and completed" \
	"completed $((2 * npasses))" \
	"$(run_json "$(latest_run)" 'd["status"] + " " + str(len(d["events"]))')"

done_testing
