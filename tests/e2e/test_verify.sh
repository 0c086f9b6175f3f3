#!/usr/bin/env bash
# Verifiers under $DEBUGGER, as a user reads their results: a call
# verifier is never called on a root that is not the IR (ir-verify 0 must
# not crash the debuggee and blame a pass), one that did not run is "not
# run" with its reason in the manifest, `irsnap show` and the report, one
# that ran has its output captured into the manifest event (not lost to
# the debuggee's stderr) and the count it found, and one that never
# returns is interrupted after the call-timeout setting, the run going on.
# A verifier failure without --stop-on-verify has its failure report, told
# as a verifier's (not a crash's) by irsnap show, and irsnap reduce RUN
# shrinks its input while the compiler's own verifier reports the same
# check after the pass; a layout without verifiers says "no verifier".
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

# verifier RUN NAME PYEXPR: PYEXPR over `v`, NAME's results in RUN's
# manifest (with e, their events), one line each.
verifier() {
	python3 - "$1/manifest.json" "$2" "$3" <<-'EOF2'
	import json, sys
	d = json.load(open(sys.argv[1]))
	for e in d["events"]:
	    for v in e["verifiers"]:
	        if v["name"] == sys.argv[2]:
	            print(eval(sys.argv[3]))
	EOF2
}

# --- ir-verify on a NULL root: no call, no crash, no failure report --------
dbg_batch "$TMP/null.log" -o 'ir-trace on' -o 'ir-break ^cse$' -o run \
	-o 'ir-verify 0' -o 'ir-break off' -o continue -- "$TOYC" "$DEMO"
check_eq "$DBG_BATCH exits 0: the program ran to its end" 0 "$?"
run=$(latest_run)
check "ir-verify 0: the call verifier is not called on a NULL root" \
	grep -q "^verifier toyc_verify: could not run: the IR root (Module) is a NULL pointer$" \
	"$TMP/null.log"
check "... so the debuggee never got a signal" \
	bash -c "! grep -q SIGSEGV '$TMP/null.log'"
check "... and ir-verify does not call that clean" \
	grep -q "^ir-verify: Module at 0x0: no problem found, but a verifier could not run$" \
	"$TMP/null.log"
check "... and no failure.json blames a pass" test ! -e "$run/failure.json"
check_eq "... and the run completed" completed \
	"$(json_get "$run/manifest.json" 'd["status"]')"

# --- a verifier that finds problems: output captured, the real count -------
dbg_batch "$TMP/inv.log" -o 'ir-trace on --verify' -o run \
	-- "$TOYC" --bug=break-invariant "$DEMO"
run=$(latest_run)
broken=$(bug_pass break-invariant)
first=$(verifier "$run" toyc_verify \
	'"%d %s" % (e["seq"], e["pass"]) if v["status"] == "failed" else ""' |
	grep -v '^$' | head -1)
check_eq "toyc_verify fails first after $broken" "$broken" "${first#* }"
seq=${first%% *}
got=$(verifier "$run" toyc_verify \
	'"%s %d %d %d" % (v["status"], v["problems"], v["value"], sum(l.startswith("verify: @") for l in v["output"].splitlines())) if e["seq"] == '"$seq"' else ""' |
	grep -v '^$')
count=$(cut -d' ' -f2 <<<"$got")
check "the count is what toyc_verify returned, many, not 1" \
	test "${count:-0}" -gt 1
check_eq "... its output lines, captured into the event, are as many" \
	"failed $count $count $count" "$got"
check "... and the problems went to the run, not to the debuggee's stderr" \
	bash -c "! grep -q '^verify: @' '$TMP/inv.log'"
check "$DBG_NAME says the count" \
	grep -q "^  verifier toyc_verify: $count problems (toyc_verify((Module \*)0x[0-9a-f]*, stderr) = $count, expected 0)$" \
	"$TMP/inv.log"
"$IRSNAP" show "$run" >"$TMP/inv.show" 2>&1
check "irsnap show: $broken has $count problems, not \"1 problem\"" \
	grep -qE "^ +$seq +$broken .* $count problems$" "$TMP/inv.show"
"$IRSNAP" report "$run" -o "$TMP/inv.html" >/dev/null 2>&1
check "the report says $count problems" \
	grep -q ">$count problems<" "$TMP/inv.html"
check "the run validates" "$IRSNAP" validate "$run"

# --- a verifier that cannot run: "not run", with the reason, everywhere ----
sed 's|call = "toyc_verify({ir}, stderr)"|call = "no_such_verifier({ir})"|' \
	"$LAYOUT" >"$TMP/nov.lua"
dbg_batch "$TMP/nov.log" -o "ir-layout load $TMP/nov.lua" \
	-o "ir-trace on --verify" -o run -- "$TOYC" --passes=cse,dce "$DEMO"
run=$(latest_run)
check_eq "not run: each pass's result says so in the manifest" \
	"not run
not run" "$(verifier "$run" toyc_verify 'v["status"]')"
check "... with the reason" test "$(verifier "$run" toyc_verify \
	'"no_such_verifier" in v["reason"]' | sort -u)" = True
"$IRSNAP" show "$run" >"$TMP/nov.show" 2>&1
check_eq "irsnap show: 'ok, 1 not run', never a bare ok" 2 \
	"$(grep -cE '^ +[12] +(cse|dce) .* ok, 1 not run$' "$TMP/nov.show")"
"$IRSNAP" report "$run" -o "$TMP/nov.html" >/dev/null 2>&1
check "the report: 'ok, 1 not run'" grep -q '>ok, 1 not run<' "$TMP/nov.html"
check "the run validates" "$IRSNAP" validate "$run"

# --- a verifier failure without a stop: its report, label, reduction -------
# (a pipeline that ends after the broken pass's successor: no later crash)
dbg_batch "$TMP/vf.log" -o 'ir-trace on --verify' -o run \
	-- "$TOYC" --bug=break-invariant --passes=cse,simplifycfg,dce "$DEMO"
run=$(latest_run)
check_eq "--verify, no --stop-on-verify: failure.json names the verifier that failed" \
	"verifier simplifycfg toyc_verify" \
	"$(json_get "$run/failure.json" 'd["kind"] + " " + d["pass"]["name"] + " " + d["verifier"]["name"]')"
nprob=$(json_get "$run/failure.json" 'd["verifier"]["problems"]')
check "... with its count ($nprob), its own problems as the message" \
	test "$(json_get "$run/failure.json" 'd["verifier"]["problems"] > 1 and d["message"].startswith("verify: @")')" = True
check "the run validates" "$IRSNAP" validate "$run"
"$IRSNAP" show "$run" >"$TMP/vf.show" 2>&1
check "irsnap show: the failing verifier and its count, after the pass" \
	grep -q "^failure: verifier toyc_verify found $nprob problems after pass simplifycfg (seq 2)$" \
	"$TMP/vf.show"
check "... not the verifier that passed" \
	bash -c "! grep -q 'operand-defs: ok' '$TMP/vf.show'"
check "... the IR it rejected labelled after:, not crash:" \
	grep -q '^  after:   snapshots/0002-simplifycfg.broken.ir$' "$TMP/vf.show"
check "... and a reduce command that tests the verifier, not a crash" \
	grep -q "^  reduce:  irsnap reduce $run/snapshots/0002-simplifycfg.before.ir --verifier '$TOYC --bug=break-invariant --verify --passes=simplifycfg {}' --problem " \
	"$TMP/vf.show"
"$IRSNAP" reduce "$run" -j2 >"$TMP/vf.reduce" 2>&1
check_eq "irsnap reduce RUN reduces the verifier failure: exit 0" 0 "$?"
red=$run/repro/reduced.ir
check "... to a handful of lines ($(wc -l <"$red" 2>/dev/null))" \
	test "$(wc -l <"$red" 2>/dev/null || echo 999)" -le 20
check "... which toyc takes as valid input" "$TOYC" "$red" -o /dev/null
first=$(sed -n 's/^irsnap reduce: the verifier reports "\(.*\)" on the input.*/\1/p' "$TMP/vf.reduce")
check "... on which simplifycfg still breaks the IR with the check the input's first problem had ($first)" \
	bash -c "test -n '$first' && '$TOYC' --bug=break-invariant --verify --passes=simplifycfg '$red' 2>&1 | grep -qF ': $first'"
check "... and its repro.sh says it reproduces" "$run/repro/repro.sh"
"$IRSNAP" show "$run" >"$TMP/vf.show2" 2>&1
check "irsnap show then names the reduction" \
	grep -q '^  reduced: repro/reduced.ir ([0-9]* lines); rerun it: repro/repro.sh$' "$TMP/vf.show2"

# --- --verify when the layout declares no verifier: "no verifier", never ok
{ echo 'verifier = function() end  -- this copy of toyc.lua declares none'
  cat "$LAYOUT"; } >"$TMP/nover.lua"
dbg_batch "$TMP/nover.log" -o "ir-layout load $TMP/nover.lua" \
	-o 'ir-trace on --verify' -o run -- "$TOYC" --passes=cse,dce "$DEMO"
run=$(latest_run)
check "$DBG_NAME says the layout declares no verifier" \
	grep -q "^irsnap: layout 'toyc' declares no verifier: --verify has nothing to run" \
	"$TMP/nover.log"
"$IRSNAP" show "$run" >"$TMP/nover.show" 2>&1
check_eq "irsnap show: 'no verifier' for each pass, not ok" 2 \
	"$(grep -cE '^ +[12] +(cse|dce) .* no verifier$' "$TMP/nover.show")"
"$IRSNAP" report "$run" -o "$TMP/nover.html" >/dev/null 2>&1
check_eq "the report: 'no verifier' for each pass" 2 \
	"$(grep -o '>no verifier<' "$TMP/nover.html" | wc -l)"
check "the run validates" "$IRSNAP" validate "$run"

# --- a verifier that never returns: interrupted, reported, the run goes on -
dbg_batch "$TMP/hang.log" -o "$(dbg_cmd set call-timeout 2)" \
	-o 'ir-trace on --verify' -o run \
	-- "$TOYC" --bug=verify-hang --passes=cse,dce "$DEMO"
check_eq "a hanging verifier: $DBG_BATCH ends by itself, with 0" 0 "$?"
run=$(latest_run)
check_eq "... the program ran to its end" "completed 0" \
	"$(json_get "$run/manifest.json" 'd["status"] + " " + str(d["exit_status"])')"
check_eq "... each call is not run, for the timeout" \
	"not run True
not run True" "$(verifier "$run" toyc_verify \
	'v["status"] + " " + str("did not return within 2 s" in v["reason"])')"
check "$DBG_NAME said so" grep -q \
	"^  verifier toyc_verify: could not run: 'toyc_verify((Module \*)0x[0-9a-f]*, stderr)' did not return within 2 s (the call-timeout setting), so it was interrupted and unwound$" \
	"$TMP/hang.log"
check_eq "... and its stdout, redirected around the call, came back" 1 \
	"$(grep -c '^module @' "$TMP/hang.log")"

done_testing
