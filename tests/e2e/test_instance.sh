#!/usr/bin/env bash
# A boundary's instance (issue 27 item 6) under $DEBUGGER: `instance =
# "m->name->data"`, a C string, labels each pass run by the module's name
# ("cse@gen"), in the events (with "instance"), the snapshot files, the
# stop messages, `irsnap show`, `diff` and `report`; `--instance REGEX`
# picks runs by it on ir-trace and ir-break, `--exact` takes the pass
# name whole (pass regexes are searches: 'cse' is in 'cse2'). A crash in
# such a pass names it in failure.json, and its reduce command reruns the
# pass, not the label.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

sed 's|^boundary { at = "pm_run_pass", pass = "pass->name", ir = "m" }$|boundary { at = "pm_run_pass", pass = "pass->name", ir = "m",\n           instance = "m->name->data" }|' \
	"$LAYOUT" >"$TMP/inst.lua"
check "the test layout has the instance" grep -q 'instance = "m->name->data"' \
	"$TMP/inst.lua"
module=$(sed -n 's/^module @\(.*\)$/\1/p' "$DEMO")

dbg_batch "$TMP/trace.log" -o "ir-layout load $TMP/inst.lua" \
	-o "ir-trace on cse --instance '^$module\$'" \
	-o "ir-break dce --exact --instance '$module'" -o run -o continue \
	-- "$TOYC" --passes=constfold,cse,dce,cse "$DEMO" -o /dev/null
check_eq "$DBG_NAME traced and stopped (exit 0)" 0 "$?"
check "ir-break stopped before 'dce@$module'" \
	grep -q "irsnap: stopped before pass 'dce@$module'" "$TMP/trace.log"
run=$(latest_run)
check_eq "cse's two runs traced, labelled by the instance" \
	"1 cse@$module before snapshots/0001-cse@$module.before.ir
1 cse@$module after snapshots/0001-cse@$module.after.ir
2 cse@$module before snapshots/0002-cse@$module.before.ir
2 cse@$module after snapshots/0002-cse@$module.after.ir" "$(events "$run")"
check_eq "each event carries its instance" "$module $module $module $module" \
	"$(run_json "$run" '" ".join(e["instance"] for e in d["events"])')"
check "irsnap show lists cse@$module" \
	bash -c "'$IRSNAP' show '$run' | grep -q 'cse@$module'"
check "irsnap diff of a pass run names it" \
	bash -c "'$IRSNAP' diff '$run' 1 | grep -q 'cse@$module'"
check "irsnap report shows it" \
	bash -c "'$IRSNAP' report '$run' -o '$TMP/r.html' && grep -q 'cse@$module' '$TMP/r.html'"
check "the run is valid" "$IRSNAP" validate "$run"

# an instance no run has: nothing traced, no stop
dbg_batch "$TMP/none.log" -o "ir-layout load $TMP/inst.lua" \
	-o "ir-trace on --instance nope" -o "ir-break --instance nope" -o run \
	-- "$TOYC" --passes=constfold,cse "$DEMO" -o /dev/null
check_eq "--instance nope: the program runs to its end (exit 0)" 0 "$?"
check "... with nothing traced" \
	bash -c "! grep -q 'tracing into' '$TMP/none.log'"

# a crash in an instance's pass: failure.json names it; {pass} is the pass
dbg_batch "$TMP/crash.log" -o "ir-layout load $TMP/inst.lua" \
	-o 'ir-trace on' -o run -- "$TOYC" --bug=crash "$DEMO" -o /dev/null
run=$(latest_run)
pass=$(bug_pass crash)
check_eq "failure.json: the pass and its instance" "$pass@$module $module" \
	"$(json_get "$run/failure.json" 'd["pass"]["name"] + " " + d["pass"]["instance"]')"
check "its reduce command reruns --passes=$pass" \
	bash -c "grep -q -- '--passes=$pass ' '$run/failure.json'"
done_testing
