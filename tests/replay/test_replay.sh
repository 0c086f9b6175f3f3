#!/usr/bin/env bash
# irsnap replay: toyc's intermittent crash (--bug=flaky, about one run in
# three) is found under GDB and under LLDB within 30 runs, identical
# failures are counted in one group, and the reduced input still crashes
# with the same signature.
. "$(dirname "$0")/../lib.sh"
# The debuggers as the end-to-end suites run them: GDB with the library
# it can host ($IRSNAP_LIB: a sanitized build's unsanitized copy), LLDB
# with the runtimes a sanitized plugin needs (found in PATH as lldb-14).
. "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb
lldb_wrapper "$TMP/lldb-bin"
PATH=$TMP/lldb-bin:$PATH

LAYOUT=$FIXTURES/toyc/toyc.lua
DEMO=$FIXTURES/toyc/demo.ir
FLAKY=(--bug=flaky "$DEMO")
# A crash test for the reducer: the failing pass alone, with the bug on.
CRASH_CMD='{exe} --bug=flaky --passes={pass} {}'

# json FILE EXPR: a value from a JSON file (EXPR in Python, `d` the document).
json() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
# The signature of one failure.json, computed here independently of irsnap:
# signal (or kind), pass, top three functions past the C library's abort
# path (raise, abort, __*).
signature() {
	python3 - "$1" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
sig = f["signal"]["name"] if f.get("signal") else f["kind"]
fns = [fr.get("function") or "?" for fr in f["backtrace"]]
top = 0
while top < len(fns) and (fns[top].startswith("__") or fns[top] in ("raise", "abort", "gsignal")):
    top += 1
frames = fns[top if top < len(fns) else 0:][:3]
print("|".join([sig, f["pass"]["name"]] + frames))
EOF
}
# replay_status DIR ARGS...: runs irsnap replay with IRSNAP_DIR=DIR, output
# in DIR.out, and prints its exit status.
# (No other command in here: one test runs it with an empty PATH.)
replay_status() {
	local dir=$1; shift
	IRSNAP_DIR=$dir "$IRSNAP" replay "$@" >"$dir.out" 2>&1
	echo $?
}

# ---- usage -----------------------------------------------------------------
usage_cases=(
	""
	"--layout"
	"--runs 0 --layout $LAYOUT -- $TOYC"
	"--runs many --layout $LAYOUT -- $TOYC"
	"--debugger dbx --layout $LAYOUT -- $TOYC"
	"--layout $LAYOUT --"
	"-- $TOYC"
	"--frobnicate --layout $LAYOUT -- $TOYC"
)
for args in "${usage_cases[@]}"; do
	# shellcheck disable=SC2086
	check_eq "bad arguments '$args' exit 2" 2 "$(replay_status "$TMP/usage" $args)"
done
rc=$(replay_status "$TMP/nolayout" --layout "$TMP/missing.lua" -- "$TOYC" "$DEMO")
check_eq "a missing layout file exits 2" 2 "$rc"
check "... naming the file" grep -q "missing.lua" "$TMP/nolayout.out"
rc=$(replay_status "$TMP/noprog" --layout "$LAYOUT" -- "$TMP/no-such-compiler")
check_eq "a missing program exits 2" 2 "$rc"
check "... naming it" grep -q "no-such-compiler" "$TMP/noprog.out"

# A layout that does not load, under either debugger: exit 2 with the
# layout's own FILE:LINE: message.
printf 'layout { name = "bad", root = "Module" }\nstruct "Module" { fields = { x = nosuch "x" } }\n' >"$TMP/bad.lua"
for dbg in gdb lldb; do
	rc=$(replay_status "$TMP/badlayout-$dbg" --debugger $dbg --layout "$TMP/bad.lua" \
		-- "$TOYC" "$DEMO")
	check_eq "$dbg: a bad layout exits 2" 2 "$rc"
	check "$dbg: ... quoting the layout error" grep -q "bad.lua:2: " "$TMP/badlayout-$dbg.out"
done
# A program that ends before its first pass: nothing was checked.
for dbg in gdb lldb; do
	rc=$(replay_status "$TMP/nopass-$dbg" --debugger $dbg --layout "$LAYOUT" \
		-- "$TOYC" "$TMP/no-such-input.ir")
	check_eq "$dbg: a program that exits before any pass: exit 2" 2 "$rc"
	check "$dbg: ... saying how it exited" grep -qE "traced no pass .*exited with (code|status = )" \
		"$TMP/nopass-$dbg.out"
done
# A broken front end: the Python exception, not its traceback, is quoted.
mkdir -p "$TMP/root/gdb"
echo 'raise OSError("libirsnap.so: file too short")' >"$TMP/root/gdb/irsnap.py"
rc=$(IRSNAP_ROOT=$TMP/root replay_status "$TMP/badroot" --layout "$LAYOUT" -- "$TOYC" "$DEMO")
check_eq "a broken gdb/irsnap.py (found through IRSNAP_ROOT) exits 2" 2 "$rc"
check "... quoting the exception" grep -q "OSError: libirsnap.so: file too short" "$TMP/badroot.out"

# A debugger that is not installed: one line with the install command.
mkdir -p "$TMP/emptybin"
for dbg in gdb lldb; do
	rc=$(PATH=$TMP/emptybin replay_status "$TMP/nodbg-$dbg" --debugger $dbg \
		--layout "$LAYOUT" -- "$TOYC" "$DEMO")
	check_eq "missing $dbg exits 2" 2 "$rc"
	check_eq "missing $dbg: one line" 1 "$(wc -l <"$TMP/nodbg-$dbg.out")"
	check "missing $dbg: says how to install it" \
		grep -q "apt-get install $( [ $dbg = gdb ] && echo gdb || echo lldb-14)" \
		"$TMP/nodbg-$dbg.out"
done

# ---- a program that never fails --------------------------------------------
rc=$(replay_status "$TMP/clean" --runs 2 --trace '^(cse|dce)$' --layout "$LAYOUT" \
	-- "$TOYC" "$DEMO")
check_eq "no failure in 2 runs exits 0" 0 "$rc"
replay=$(ls -d "$TMP"/clean/replay-* 2>/dev/null | head -1)
check "the replay directory has replay.json" test -f "$replay/replay.json"
check_eq "two attempts were made" "completed completed" \
	"$(json "$replay/replay.json" '" ".join(a["status"] for a in d["attempts"])')"
for n in 001 002; do
	check "attempt-$n has its own traced run directory" \
		test -f "$replay/attempt-$n/latest/manifest.json"
done
check "the summary says no failure" grep -q "2 attempts, no failure" "$TMP/clean.out"
check "irsnap validate accepts the replay directory, and checks its runs" \
	bash -c "'$IRSNAP' validate '$replay' | grep -q ': valid ([0-9]* files checked)'"
cp -r "$replay" "$TMP/clean-damaged"
rm -rf "$TMP"/clean-damaged/attempt-002/2*
check_eq "... and rejects one whose attempt lost its run directory" 1 \
	"$("$IRSNAP" validate "$TMP/clean-damaged" >"$TMP/damaged.out"; echo $?)"
check "... naming the attempt" grep -q 'replay.json: \$.attempts\[1\].run: names attempt-002/.*, which is missing' \
	"$TMP/damaged.out"
check_eq "--trace REGEX traced only the passes it matches" "cse dce" \
	"$(json "$replay/attempt-001/latest/manifest.json" '" ".join(dict.fromkeys(e["pass"] for e in d["events"]))')"

# An assertion: the signature names where it failed, not libc's abort path.
rc=$(replay_status "$TMP/assert" --runs 2 --layout "$LAYOUT" -- "$TOYC" --bug=assert "$DEMO")
check_eq "a deterministic crash is found on the first run" 1 "$rc"
replay=$(ls -d "$TMP"/assert/replay-* 2>/dev/null | head -1)
check_eq "an assertion's signature skips the abort path" \
	"$(signature "$replay"/attempt-001/latest/failure.json)" \
	"$(json "$replay/replay.json" '"|".join([d["groups"][0]["signal"], d["groups"][0]["pass"]] + d["groups"][0]["frames"])')"
check "... and so names toyc's own code" bash -c "! grep -q 'SIGABRT in strength at __' '$TMP/assert.out'"

# Every attempt killed by --timeout: nothing was checked, so that is an error.
rc=$(replay_status "$TMP/slow" --runs 2 --timeout 0.05 --layout "$LAYOUT" \
	-- "$TOYC" "$DEMO")
check_eq "every attempt timing out exits 2" 2 "$rc"
check "... and says so" grep -q "every attempt timed out" "$TMP/slow.out"

# ---- GDB: every failure of 30 runs, grouped, the group reduced --------------
t0=$SECONDS
rc=$(replay_status "$TMP/gdb" --runs 30 --all --debugger gdb --layout "$LAYOUT" \
	--reduce auto -- "$TOYC" "${FLAKY[@]}")
echo "# gdb replay of 30 runs with reduction: $((SECONDS - t0)) s"
check_eq "gdb: a failure found exits 1" 1 "$rc"
replay=$(ls -d "$TMP"/gdb/replay-* 2>/dev/null | head -1)
RJ=$replay/replay.json
check_eq "gdb: all 30 runs were made (--all)" 30 "$(json "$RJ" 'len(d["attempts"])')"
check "gdb: the replay directory and its 30 runs validate" \
	"$IRSNAP" validate "$replay"
failures=$(json "$RJ" 'd["failures"]')
check "gdb: the flaky crash failed more than once in 30 runs ($failures)" \
	test "$failures" -ge 2
check_eq "gdb: failures counted = attempts that left a failure.json" \
	"$failures" "$(ls "$replay"/attempt-*/latest/failure.json | wc -l)"

# Group by signature here, from the failure.json files, and compare.
declare -A expect
for f in "$replay"/attempt-*/latest/failure.json; do
	s=$(signature "$f")
	expect[$s]=$((${expect[$s]:-0} + 1))
done
got=$(json "$RJ" '"\n".join(sorted("%s %d" % ("|".join([g["signal"], g["pass"]] + g["frames"]), g["count"]) for g in d["groups"]))')
want=$(for s in "${!expect[@]}"; do echo "$s ${expect[$s]}"; done | sort)
check_eq "gdb: groups and counts match the failure reports' signatures" "$want" "$got"
check_eq "gdb: the flaky crash is one group" 1 "$(json "$RJ" 'len(d["groups"])')"
gdb_sig=$(json "$RJ" '"|".join([d["groups"][0]["signal"], d["groups"][0]["pass"]] + d["groups"][0]["frames"])')
check_eq "gdb: it is a SIGSEGV in dce" "SIGSEGV|dce" "$(echo "$gdb_sig" | cut -d'|' -f1,2)"
first=$(json "$RJ" 'd["groups"][0]["first_attempt"]')
check_eq "gdb: the group's first attempt is the first failed one" \
	"$(json "$RJ" '[a["attempt"] for a in d["attempts"] if a["status"] == "failed"][0]')" "$first"
title=$(json "$RJ" 'd["groups"][0]["signature"]')
check "gdb: the summary table shows the group with its count" \
	grep -qE "^$(printf '%s' "$title" | sed 's/[][\.*^$|()+?]/\\&/g') +$failures +$first +" "$TMP/gdb.out"

# The reduction of the group's first failure.
run=$replay/$(json "$RJ" 'd["groups"][0]["run"]')
check_eq "gdb: --reduce auto kept the program's --bug=flaky" \
	"$TOYC --bug=flaky --passes=dce {}" \
	"$(json "$RJ" 'd["groups"][0]["reduce"]["crash_command"]')"
check_eq "gdb: the group was reduced" reduced "$(json "$RJ" 'd["groups"][0]["reduce"]["status"]')"
reduced=$run/repro/reduced.ir
before=$run/$(json "$run/failure.json" 'd["before_snapshot"]["text"]')
check "gdb: the reduced input is in RUN/repro/" test -s "$reduced"
b=$(wc -l <"$before"); r=$(wc -l <"$reduced" 2>/dev/null || echo none)
echo "# reduced the dce input from $b to $r lines"
check "gdb: the reduced input is smaller ($b -> $r lines)" \
	test -s "$reduced" -a "$r" -lt "$b"

# Does it still crash the same way? Replay the failing pass on it, under
# GDB again, and compare signatures.
rc=$(replay_status "$TMP/again" --runs 30 --layout "$LAYOUT" -- "$TOYC" \
	--bug=flaky --passes=dce "$reduced")
check_eq "the reduced input still crashes" 1 "$rc"
[ "$rc" = 1 ] || sed 's/^/# /' "$TMP/again.out" | tail -3
again=$(ls -d "$TMP"/again/replay-* 2>/dev/null | head -1)
check_eq "... with the same signature" "$gdb_sig" \
	"$(signature "$again"/attempt-*/latest/failure.json 2>/dev/null | head -1)"
# repro.sh runs toyc alone (no debugger): its signature names the same
# frames as GDB's, functions inlined at them included (dce_function).
# The crash is intermittent: up to 30 tries, as a user would.
for _ in $(seq 30); do
	repro_out=$(cd / && "$run/repro/repro.sh" 2>&1) && break
done
check_eq "repro.sh reproduces the crash, naming GDB's frames" \
	"reproduced: SIGSEGV at $(json "$RJ" '" < ".join(d["groups"][0]["frames"])')" \
	"$(grep '^reproduced: ' <<<"$repro_out")"

# ---- LLDB: the first failure of up to 30 runs --------------------------------
t0=$SECONDS
rc=$(replay_status "$TMP/lldb" --runs 30 --debugger lldb --layout "$LAYOUT" \
	--reduce "$CRASH_CMD" -- "$TOYC" "${FLAKY[@]}")
echo "# lldb replay: $((SECONDS - t0)) s"
check_eq "lldb: a failure found exits 1" 1 "$rc"
replay=$(ls -d "$TMP"/lldb/replay-* 2>/dev/null | head -1)
RJ=$replay/replay.json
n=$(json "$RJ" 'len(d["attempts"])')
check "lldb: no Python error in any attempt's log (irsnap sets LLDB's PYTHONPATH)" \
	bash -c "! grep -lE 'Traceback|ModuleNotFoundError|NameError' '$replay'/attempt-*/debugger.log"
check_eq "lldb: it stopped at the first failure" failed \
	"$(json "$RJ" 'd["attempts"][-1]["status"]')"
check_eq "lldb: one failure, one group" "1 1" \
	"$(json "$RJ" '"%d %d" % (d["failures"], len(d["groups"]))')"
echo "# lldb found it at attempt $n"
lldb_sig=$(json "$RJ" '"|".join([d["groups"][0]["signal"], d["groups"][0]["pass"]] + d["groups"][0]["frames"])')
check_eq "lldb: the same signature as under gdb" "$gdb_sig" "$lldb_sig"
check_eq "lldb: the group's signature is the failure report's" \
	"$(signature "$replay"/attempt-*/latest/failure.json)" "$lldb_sig"
check_eq "lldb: --reduce CMD got {exe} and {pass} filled in" \
	"$TOYC --bug=flaky --passes=dce {}" \
	"$(json "$RJ" 'd["groups"][0]["reduce"]["crash_command"]')"
run=$replay/$(json "$RJ" 'd["groups"][0]["run"]')
check_eq "lldb: the group was reduced" reduced "$(json "$RJ" 'd["groups"][0]["reduce"]["status"]')"
check "lldb: into RUN/repro/" test -s "$run/repro/reduced.ir"

done_testing
