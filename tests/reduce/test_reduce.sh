#!/usr/bin/env bash
# End-to-end tests of `irsnap reduce` on toyc's bugs: real processes, real
# crashes, real signals. Each check is one TAP line (tests/lib.sh).
source "$(dirname "$0")/../lib.sh"
# A private TMPDIR: the scratch-directory checks must not count other
# reductions running on the same machine.
export TMPDIR="$TMP/tmp"
mkdir -p "$TMPDIR"

CRASHSIG=$BUILD/libirsnap-crashsig.so
for f in "$IRSNAP" "$TOYC" "$CRASHSIG"; do
	[ -x "$f" ] || [ -f "$f" ] || { not_ok "built: $f" "run make first"; done_testing; exit 1; }
done

# The library GDB loads (--layout, the traced crash below): the one this
# build made, or a sanitized build's unsanitized copy (mk/gdb.mk).
export IRSNAP_LIB=$BUILD/libirsnap.so
if [ -f "$BUILD/plain/libirsnap.so" ]; then IRSNAP_LIB=$BUILD/plain/libirsnap.so; fi

# sig FILE ARGS...: "signal N / first frame" of toyc's crash on FILE, taken
# with the preload library directly (not through irsnap), or "none".
sig() {
	local file=$1; shift
	rm -f "$TMP/sig"
	IRSNAP_CRASHSIG_FILE=$TMP/sig LD_PRELOAD=$CRASHSIG "$TOYC" "$@" "$file" \
		>/dev/null 2>&1
	if [ -f "$TMP/sig" ]; then sed -n '2,3p' "$TMP/sig" | tr '\n' ' '; else echo none; fi
}
# instrs FILE: instruction lines (indented) of a toyc module.
instrs() { grep -c '^  ' "$1"; }
tests_of() { sed -n 's/^reduced .* bytes, \([0-9]*\) tests, .*/\1/p' "$1"; }
# "reduced ..." must be the last line: irsnap replay reads it.
last_is_summary() { tail -1 "$1" | grep -qE '^reduced [0-9]+ -> [0-9]+ lines, [0-9]+ -> [0-9]+ bytes, [0-9]+ tests, [0-9.]+ s: .+$'; }

"$TOYC" --gen=5000 --seed=1 >"$TMP/big.ir"
n_big=$(instrs "$TMP/big.ir")

# ---- the deterministic crash, >= 5000 instructions -----------------------
"$IRSNAP" reduce "$TMP/big.ir" --crash "$TOYC --bug=crash {}" -o "$TMP/big.out" \
	>"$TMP/big.log" 2>&1
rc=$?
check_eq "reduce --crash on $n_big instructions exits 0" 0 "$rc"
check "the last line says reduced A -> B lines, X -> Y bytes, T tests, S s: PATH" \
	last_is_summary "$TMP/big.log"
check "counts line splits the test runs" \
	grep -qE '^tests: [0-9]+ interesting, [0-9]+ not interesting, [0-9]+ timed out, [0-9]+ cache hits(; [0-9]+ candidates the printer rejected, untested)?$' "$TMP/big.log"
want=$(sig "$TMP/big.ir" --bug=crash)
check_eq "the result crashes with the input's signature" "$want" "$(sig "$TMP/big.out" --bug=crash)"
n=$(instrs "$TMP/big.out")
# The true minimum is 2 instructions (`%1 = xor %a, %a` on a parameter, and
# `ret`); this input has such a function, but the reduction keeps the first
# crashing function that chunked deletion leaves, whose operand comes from a
# load: 3 instructions (load, xor, ret), and no single deletion, block
# merge or constant operand makes that smaller. At most 3 is asserted.
if [ "$n" -le 3 ] && [ "$n" -ge 2 ]; then ok "the result has $n instructions (<= 3)"
else not_ok "the result has at most 3 instructions" "it has $n" "$(cat "$TMP/big.out")"; fi
check "the result is one block (blocks were merged)" test "$(grep -c ':$' "$TMP/big.out")" -eq 1
check "OUT.repro.sh beside the result reproduces the crash" sh "$TMP/big.out.repro.sh"
big_tests=$(tests_of "$TMP/big.log")

# ---- slippage: two bugs in one input, the original one is kept -----------
# With crash and assert on, the input dies in constfold (SIGSEGV); a
# candidate without `xor %x, %x` but with `mul %x, 0` dies in strength
# (SIGABRT) instead, and must not count as interesting.
both="--bug=crash --bug=assert"
want=$(sig "$TMP/big.ir" $both)
"$IRSNAP" reduce "$TMP/big.ir" --crash "$TOYC $both {}" -o "$TMP/slip.out" >/dev/null 2>&1
got=$(sig "$TMP/slip.out" $both)
check_eq "two-bug input: the result keeps the original crash" "$want" "$got"
case "$got" in "signal 11 "*) ok "two-bug input: still SIGSEGV, not the assertion's SIGABRT" ;;
*) not_ok "two-bug input: still SIGSEGV" "got: $got" ;; esac

# ---- the intermittent bug, with --retries --------------------------------
# 16 retries: the input shows its crash in 17 tries but for (2/3)^17 = 0.1%
# of the time; 6 left it at 6%, a flaky test.
"$IRSNAP" reduce "$TMP/big.ir" --crash "$TOYC --bug=flaky {}" --retries 16 \
	-o "$TMP/flaky.out" >"$TMP/flaky.log" 2>&1
check_eq "flaky bug: reduce --retries 16 exits 0" 0 "$?"
want=none
for i in $(seq 30); do
	want=$(sig "$TMP/big.ir" --bug=flaky)
	[ "$want" != none ] && break
done
crashes=0
for i in $(seq 30); do
	[ "$(sig "$TMP/flaky.out" --bug=flaky)" = "$want" ] && crashes=$((crashes + 1))
done
if [ "$crashes" -gt 0 ]; then ok "flaky result still crashes the same way ($crashes of 30 runs)"
else not_ok "flaky result still crashes" "0 of 30 runs"; fi
n=$(instrs "$TMP/flaky.out")
if [ "$n" -le 20 ]; then ok "flaky result is small ($n instructions)"
else not_ok "flaky result is small" "$n instructions"; fi

# ---- timeouts kill the whole process group --------------------------------
{ echo needle; echo keepme; for i in $(seq 30); do echo "filler $i"; done; } >"$TMP/lines.txt"
cat >"$TMP/hang.sh" <<EOF
grep -q needle "\$1" || exit 1
if ! grep -q keepme "\$1"; then
	sleep 300 & echo \$! >>"$TMP/sleepers"
	wait
fi
exit 0
EOF
"$IRSNAP" reduce "$TMP/lines.txt" --test "sh $TMP/hang.sh {}" --timeout 0.5 -j 2 \
	-o "$TMP/lines.out" >"$TMP/hang.log" 2>&1
check_eq "hanging tests: reduce exits 0" 0 "$?"
# (joined into one line, or not: the test does not mind line breaks)
check_eq "hanging tests: result keeps needle and keepme, nothing else" "needlekeepme" \
	"$(tr -d '\n ' <"$TMP/lines.out")"
timed=$(sed -n 's/.* \([0-9]*\) timed out.*/\1/p' "$TMP/hang.log")
if [ "${timed:-0}" -ge 1 ]; then ok "hanging tests count as timed out ($timed)"
else not_ok "hanging tests count as timed out" "$(cat "$TMP/hang.log")"; fi
alive=0
# Dead means gone or a zombie (whoever inherited it may reap it late).
for p in $(cat "$TMP/sleepers" 2>/dev/null); do
	state=$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)
	[ -n "$state" ] && [ "$state" != Z ] && alive=$((alive + 1))
done
nsleep=$(wc -l <"$TMP/sleepers" 2>/dev/null || echo 0)
if [ "$nsleep" -ge 1 ] && [ "$alive" -eq 0 ]; then
	ok "the hung tests' background children were killed ($nsleep of $nsleep)"
else not_ok "hung tests' children killed" "$alive of $nsleep still alive"; fi

# ---- -j: tests run side by side, each in a directory of its own ----------
cat >"$TMP/slow.sh" <<EOF
pwd >>"$TMP/dirs"
echo "\$(date +%s%N) +1" >>"$TMP/events"
sleep 0.2
echo "\$(date +%s%N) -1" >>"$TMP/events"
grep -q needle "\$1"
EOF
"$IRSNAP" reduce "$TMP/lines.txt" --test "sh $TMP/slow.sh {}" -j 2 \
	-o "$TMP/slow.out" >"$TMP/slow.log" 2>&1
t=$(tests_of "$TMP/slow.log")
check_eq "each test ran in a directory of its own" "$t" "$(sort -u "$TMP/dirs" | grep -vc "^$TMP\$")"
# Counted, not timed: the most tests running at one moment, from each
# test's start and end stamps. With -j 2 and 0.2 s tests, two overlap.
peak=$(sort -n "$TMP/events" | awk '{ n += $2; if (n > m) m = n } END { print m + 0 }')
check_eq "-j 2 runs two tests at once ($t tests)" 2 "$peak"

# ---- the cache: no candidate runs twice; a rerun costs no more -----------
"$TOYC" --gen=1500 --seed=4 >"$TMP/mid.ir"
cat >"$TMP/logged.sh" <<EOF
md5sum <"\$1" >>"\$LOG"
"$TOYC" --bug=crash "\$1" >/dev/null 2>>"\$LOG.err"
[ \$? -eq 139 ]
EOF
LOG=$TMP/run1 "$IRSNAP" reduce "$TMP/mid.ir" --test "sh $TMP/logged.sh {}" \
	-o "$TMP/mid.out" >"$TMP/cache1.log" 2>&1
LOG=$TMP/run2 "$IRSNAP" reduce "$TMP/mid.ir" --test "sh $TMP/logged.sh {}" \
	-o "$TMP/mid2.out" >"$TMP/cache2.log" 2>&1
t1=$(tests_of "$TMP/cache1.log"); t2=$(tests_of "$TMP/cache2.log")
check_eq "every test run is counted (log lines = tests)" "$t1" "$(wc -l <"$TMP/run1")"
# The result itself runs three times more: the re-check before it is
# reported (the file's own hash shows which lines those are).
again=$(md5sum <"$TMP/mid.out")
check_eq "no candidate was tested twice (but the re-checked result)" \
	"$(grep -vcxF "$again" "$TMP/run1")" "$(grep -vxF "$again" "$TMP/run1" | sort -u | wc -l)"
check_eq "the result was re-checked: 3 runs besides the one that found it" 4 \
	"$(grep -cxF "$again" "$TMP/run1")"
if [ -n "$t1" ] && [ -n "$t2" ] && [ "$t2" -le "$t1" ]; then
	ok "reducing the same input again takes no more tests ($t2 <= $t1)"
else not_ok "second reduction takes no more tests" "first $t1, second $t2"; fi
# Def-use repair: no test is spent on a candidate that uses a deleted
# definition (toyc's parser would say so on stderr).
# The generic passes after them (lines, tokens) cut text blindly, as
# C-Vise does, so a few of their candidates may; at most 1 in 20 tests.
undef=$(grep -cE 'use of undefined value|branch to unknown block' "$TMP/run1.err")
if [ $((undef * 20)) -le "$t1" ]; then ok "few candidates used a deleted definition ($undef of $t1)"
else not_ok "few candidates used a deleted definition" "$undef of $t1"; fi
hits=$(sed -n 's/^tests: .* \([0-9]*\) cache hits.*$/\1/p' "$TMP/cache1.log")
if [ "${hits:-0}" -ge 1 ]; then ok "the cache answered $hits candidates"
else not_ok "the cache answered candidates" "$(cat "$TMP/cache1.log")"; fi

# ---- Ctrl-C keeps the best result so far ---------------------------------
# A private TMPDIR, so other reductions running on the machine do not count.
mkdir -p "$TMP/inttmp"
TMPDIR="$TMP/inttmp" "$IRSNAP" reduce "$TMP/big.ir" \
	--crash "sleep 0.1; $TOYC --bug=crash {}" -j 2 \
	-o "$TMP/int.out" >"$TMP/int.log" 2>&1 &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
check_eq "SIGINT: irsnap exits 130" 130 "$rc"
if [ -s "$TMP/int.out" ] && [ "$(wc -l <"$TMP/int.out")" -lt "$(wc -l <"$TMP/big.ir")" ]; then
	ok "SIGINT: the best result so far was written ($(wc -l <"$TMP/int.out") lines)"
else not_ok "SIGINT: best result written" "$(tail -3 "$TMP/int.log")"; fi
check_eq "SIGINT: that result still crashes the same way" \
	"$(sig "$TMP/big.ir" --bug=crash)" "$(sig "$TMP/int.out" --bug=crash)"
check "SIGINT: the summary line is still printed" grep -q '^reduced ' "$TMP/int.log"
leftover=$(ls -A "$TMP/inttmp" | wc -l)
check_eq "SIGINT: no scratch directory is left behind" 0 "$leftover"

# ---- a run directory: failure.json names the input and the command -------
run=$TMP/run
mkdir -p "$run/snapshots"
cp "$TMP/big.ir" "$run/snapshots/0001-constfold.before.ir"
cat >"$run/failure.json" <<EOF
{ "schema": "irsnap.failure/1", "kind": "signal",
  "signal": { "number": 11, "name": "SIGSEGV" },
  "pass": { "name": "constfold", "seq": 1 },
  "before_snapshot": { "text": "snapshots/0001-constfold.before.ir",
                       "json": "snapshots/0001-constfold.before.json" },
  "reduce_command": "irsnap reduce snapshots/0001-constfold.before.ir --crash '$TOYC --bug=crash --passes=constfold {}'" }
EOF
"$IRSNAP" reduce "$run" >"$TMP/run.log" 2>&1
check_eq "irsnap reduce RUN exits 0" 0 "$?"
check "RUN/repro/ holds the result, repro.sh and the log" \
	test -s "$run/repro/reduced.ir" -a -x "$run/repro/repro.sh" -a -s "$run/repro/reduce.log"
check "RUN/repro/repro.sh reproduces the crash" sh "$run/repro/repro.sh"
check_eq "RUN's result crashes in the failing pass" \
	"$(sig "$TMP/big.ir" --bug=crash --passes=constfold)" \
	"$(sig "$run/repro/reduced.ir" --bug=crash --passes=constfold)"

# ---- a real run directory: toyc's crash recorded under GDB ----------------
# irsnap replay writes the before snapshot's text and JSON graph; the
# reducer takes its units and def-use edges from the JSON.
(cd "$TMP" && "$IRSNAP" replay --runs 1 --layout "$FIXTURES/toyc/toyc.lua" \
	-- "$TOYC" --bug=crash big.ir >"$TMP/replay.log" 2>&1)
real=$(ls -d "$TMP"/irsnap-out/replay-*/attempt-001/2* 2>/dev/null | head -1)
if [ -n "$real" ] && [ -s "$real/snapshots/0001-constfold.before.json" ]; then
	"$IRSNAP" reduce "$real" --crash "$TOYC --passes=constfold --bug=crash {}" \
		>"$TMP/real.log" 2>&1
	check_eq "reduce of a replayed run exits 0" 0 "$?"
	check "its units came from the snapshot JSON" \
		grep -q 'units in 3 levels from snapshot' "$real/repro/reduce.log"
	n=$(instrs "$real/repro/reduced.ir")
	if [ "$n" -le 3 ]; then ok "snapshot-driven result has $n instructions (<= 3)"
	else not_ok "snapshot-driven result has at most 3 instructions" "$n"; fi
	check "its repro.sh reproduces the crash" sh "$real/repro/repro.sh"
else
	not_ok "irsnap replay recorded a run directory with a snapshot" "$(tail -5 "$TMP/replay.log")"
fi

# ---- a GDB-traced crash, reduced with failure.json's own command ----------
# toyc --bug=crash crashes in constfold; the layout's rerun template keeps
# the program's --bug=crash through {flags}, so `irsnap reduce RUN` alone
# (no --crash) has a command that crashes the same way.
if command -v gdb >/dev/null 2>&1; then
	(cd "$TMP" && IRSNAP_DIR=$TMP/traced LD_PRELOAD=$BUILD/libirsnap-gdb-xstate.so \
		timeout 120 gdb -nx -q -batch \
		-ex "source $IRSNAP_ROOT/gdb/irsnap.py" \
		-ex "ir-layout load $FIXTURES/toyc/toyc.lua" -ex 'ir-trace on' -ex run \
		--args "$TOYC" --bug=crash big.ir >"$TMP/traced.log" 2>&1)
	traced=$(readlink -f "$TMP/traced/latest")
	if [ -n "$traced" ] && [ -f "$traced/failure.json" ]; then
		rc_cmd=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["reduce_command"])' "$traced/failure.json")
		case "$rc_cmd" in *"--bug=crash --passes=constfold {}"*)
			ok "failure.json's reduce command keeps --bug=crash" ;;
		*) not_ok "failure.json's reduce command keeps --bug=crash" "$rc_cmd" ;; esac
		"$IRSNAP" reduce "$traced" >"$TMP/traced-reduce.log" 2>&1
		check_eq "irsnap reduce RUN of a GDB-traced --bug=crash run exits 0" 0 "$?"
		check "its result is smaller than the input" \
			test "$(wc -l <"$traced/repro/reduced.ir")" -lt "$(wc -l <"$TMP/big.ir")"
		check_eq "its result still crashes like the input" \
			"$(sig "$TMP/big.ir" --bug=crash)" "$(sig "$traced/repro/reduced.ir" --bug=crash)"
		check "its repro.sh reproduces the crash" sh "$traced/repro/repro.sh"
	else
		not_ok "GDB traced toyc --bug=crash into a failed run" "$(tail -5 "$TMP/traced.log")"
	fi
else
	not_ok "gdb is installed" "install it: scripts/install-deps (Debian: apt-get install gdb)"
fi

# ---- --layout: a plain input snapshotted with the compiler's own parser --
# The demo input with comments the generic splitter would take for units:
# under --layout, toyc parses it under GDB and the reducer cuts what the
# layout's snapshot holds (functions > blocks > instructions, def-use).
if command -v gdb >/dev/null 2>&1; then
	{ echo "; a plain input, not a snapshot"; sed 's/^\(func .*\)$/; next function\n\1/' \
		"$FIXTURES/toyc/demo.ir"; } >"$TMP/plain.ir"
	before=$(ls -d "${TMPDIR:-/tmp}"/irsnap-layout.* 2>/dev/null | wc -l)
	IRSNAP_DEBUG=R "$IRSNAP" reduce "$TMP/plain.ir" --crash "$TOYC --bug=crash {}" \
		--layout "$FIXTURES/toyc/toyc.lua" -o "$TMP/plain.out" \
		>"$TMP/layout.out" 2>"$TMP/layout.err"
	check_eq "reduce --layout on a plain input exits 0" 0 "$?"
	check "its units came from the layout's snapshot (3 levels)" \
		grep -q 'units in 3 levels from snapshot' "$TMP/layout.err"
	check "the snapshot was taken under gdb" grep -q 'under gdb with layout' "$TMP/layout.err"
	check_eq "the --layout result crashes like the input" \
		"$(sig "$TMP/plain.ir" --bug=crash)" "$(sig "$TMP/plain.out" --bug=crash)"
	n=$(instrs "$TMP/plain.out")
	if [ "$n" -le 3 ]; then ok "the --layout result has $n instructions (<= 3)"
	else not_ok "the --layout result has at most 3 instructions" "$(cat "$TMP/plain.out")"; fi
	check "the --layout result is in toyc's printed form (no comments)" \
		test "$(grep -c '^;' "$TMP/plain.out")" -eq 0
	# IRSNAP_DEBUG=R keeps the snapshot to look at; it names where.
	kept=$(sed -n 's/.*under gdb with layout .*: \(.*\)\/snapshot.ir$/\1/p' "$TMP/layout.err")
	case "$kept" in */irsnap-layout.*) rm -rf "$kept" ;; esac
	# --exe: the test is a script; the compiler command says how to parse.
	printf '"%s" --bug=crash "$1" >/dev/null 2>&1\n[ $? -eq 139 ]\n' "$TOYC" >"$TMP/crashes.sh"
	"$IRSNAP" reduce "$TMP/plain.ir" --test "sh $TMP/crashes.sh {}" \
		--layout "$FIXTURES/toyc/toyc.lua" --exe "$TOYC {}" -o "$TMP/exe.out" \
		>"$TMP/exe.log" 2>&1
	check_eq "reduce --layout --exe with a --test script exits 0" 0 "$?"
	check "its result still crashes" sh "$TMP/crashes.sh" "$TMP/exe.out"
	# No snapshot: one line naming the input and saying why, exit 2. An
	# input toyc cannot parse ends it before its first pass; a program
	# without toyc's debug info cannot load the layout.
	echo garbage >"$TMP/bad.ir"
	out=$("$IRSNAP" reduce "$TMP/bad.ir" --crash "$TOYC --bug=crash {}" \
		--layout "$FIXTURES/toyc/toyc.lua" 2>&1 >/dev/null)
	rc=$?
	case "$rc:$out" in "2:irsnap: --layout: no snapshot of $TMP/bad.ir: $TOYC ended before its first pass boundary"*"exited with code 01"*"bad.ir:1: expected"*)
		ok "an unparsable input: exit 2, toyc's own error quoted" ;;
	*) not_ok "an unparsable input: exit 2, toyc's own error quoted" "rc=$rc" "$out" ;; esac
	check_eq "... in one line" 1 "$(printf '%s\n' "$out" | wc -l)"
	out=$("$IRSNAP" reduce "$TMP/plain.ir" --crash "$TOYC --bug=crash {}" \
		--layout "$FIXTURES/toyc/toyc.lua" --exe "true {}" 2>&1 >/dev/null)
	rc=$?
	case "$rc:$out" in "2:irsnap: --layout: no snapshot of $TMP/plain.ir:"*"toyc.lua:"*"unknown type"*)
		ok "a layout that does not load: exit 2, the layout's error quoted" ;;
	*) not_ok "a layout that does not load: exit 2, the layout's error quoted" "rc=$rc" "$out" ;; esac
	after=$(ls -d "${TMPDIR:-/tmp}"/irsnap-layout.* 2>/dev/null | wc -l)
	check_eq "no scratch snapshot directory is left behind, failed or not" "$before" "$after"
else
	not_ok "gdb is installed" "install it: scripts/install-deps (Debian: apt-get install gdb)"
fi

# ---- bad arguments: exit 2 with one line ----------------------------------
bad() {	# NAME EXPECTED-RC ARGS...
	local name=$1 want=$2; shift 2
	local out rc
	out=$("$IRSNAP" reduce "$@" 2>&1 >/dev/null); rc=$?
	if [ "$rc" -eq "$want" ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && [ -n "$out" ]; then
		ok "$name: exit $want, one line"
	else not_ok "$name: exit $want, one line" "rc=$rc" "$out"; fi
}
bad "no input" 2
bad "no test" 2 "$TMP/big.ir"
bad "both --test and --crash" 2 "$TMP/big.ir" --test true --crash true
bad "missing file" 2 "$TMP/nope.ir" --test true
bad "bad -j" 2 "$TMP/big.ir" --test true -j many
bad "bad --timeout" 2 "$TMP/big.ir" --test true --timeout -1
bad "unknown option" 2 "$TMP/big.ir" --test true --frobnicate
bad "input that does not fail: exit 1" 1 "$TMP/big.ir" --test false
bad "--layout with a run directory" 2 "$run" --layout "$FIXTURES/toyc/toyc.lua"
bad "--exe without --layout" 2 "$TMP/big.ir" --test true --exe "$TOYC {}"
out=$("$IRSNAP" reduce "$TMP/nope.ir" --test true 2>&1)
case "$out" in *nope.ir*) ok "the error names the input" ;; *) not_ok "the error names the input" "$out" ;; esac

echo "# deterministic crash: $n_big instructions reduced in $big_tests tests"
done_testing
