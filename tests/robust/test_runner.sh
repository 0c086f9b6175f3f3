#!/usr/bin/env bash
# tests/run stops a suite that hangs (IRSNAP_SUITE_TIMEOUT) and counts it
# as a failure, saying so, and the run goes on to its totals: one hung
# suite (a sanitized unit test's child deadlocked in ASan's allocator)
# once held a whole CI run until it was cut off at 90 minutes. Run on a
# tree of its own: tests/run and two suites, one that passes and one that
# never ends.
. "$(dirname "$0")/../lib.sh"

tree=$TMP/tree
mkdir -p "$tree/tests/quick" "$tree/tests/stuck" "$tree/build"
cp "$IRSNAP_ROOT/tests/run" "$tree/tests/run"
printf '#!/usr/bin/env bash\necho "ok 1 - quick"\n' >"$tree/tests/quick/test_quick.sh"
# prints its first check, then waits for good, as a hung debugger would
printf '#!/usr/bin/env bash\necho "ok 1 - started"\nexec sleep 600\n' \
	>"$tree/tests/stuck/test_stuck.sh"

t0=$SECONDS
IRSNAP_SUITE_TIMEOUT=2 BUILD=$tree/build timeout 120 "$tree/tests/run" \
	>"$TMP/run.out" 2>&1
status=$?
check_eq "tests/run exits 1 (a suite failed), not killed by the guard" 1 "$status"
check "the run took well under the stuck suite's 600 s ($((SECONDS - t0)) s)" \
	test $((SECONDS - t0)) -lt 100
check "the quick suite passed" \
	grep -qE '^quick/test_quick.sh +1 passed +0 failed' "$TMP/run.out"
check "the stuck suite counts its check and one failure" \
	grep -qE '^stuck/test_stuck.sh +1 passed +1 failed' "$TMP/run.out"
check "it says why" grep -qF \
	"not ok - stuck/test_stuck.sh was stopped after 2 s (IRSNAP_SUITE_TIMEOUT): it hung or ran far too long" \
	"$TMP/run.out"
check_eq "the totals" "2 passed, 1 failed" "$(tail -1 "$TMP/run.out")"
[ "$status" -eq 1 ] || sed 's/^/# /' "$TMP/run.out"
done_testing
