# Shared helpers for end-to-end test scripts: TAP output, one line per check.
# Source it from tests/<area>/test_*.sh; every check is counted by tests/run.
set -u
IRSNAP_ROOT=${IRSNAP_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-build}
cd "$IRSNAP_ROOT" || exit 1
BUILD=$(cd "$BUILD" && pwd)
TOYC=$BUILD/toyc
IRSNAP=$BUILD/irsnap
FIXTURES=$IRSNAP_ROOT/tests/fixtures
_tap_n=0
_tap_failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/irsnap-test.XXXXXX")
# IRSNAP_KEEP_TMP=1 keeps it, to read what a failing suite left there.
[ -n "${IRSNAP_KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT

# ok NAME: record a passing check.
ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
# not_ok NAME [DETAIL...]: record a failing check with diagnostics.
not_ok() {
	_tap_n=$((_tap_n + 1)); _tap_failed=$((_tap_failed + 1))
	echo "not ok $_tap_n - $1"; shift
	local line
	for line in "$@"; do echo "# $line"; done
}
# check NAME CMD...: passes when CMD exits 0.
check() {
	local name=$1; shift
	local out
	if out=$("$@" 2>&1); then ok "$name"
	else not_ok "$name" "command: $*" "$(printf '%s' "$out" | tail -5)"; fi
}
# check_eq NAME EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"
	else not_ok "$1" "expected: $2" "actual:   $3"; fi
}
# check_files_eq NAME EXPECTED_FILE ACTUAL_FILE: byte-identical files.
check_files_eq() {
	if cmp -s "$2" "$3"; then ok "$1"
	else not_ok "$1" "$(diff "$2" "$3" 2>&1 | head -8)"; fi
}
# expect_rc NAME WANT CMD...: CMD (bounded to 60 s) exits WANT; what it
# printed, both streams, stays in $TMP/out for has, hasnt and lines_like.
expect_rc() {
	local name=$1 want=$2; shift 2
	timeout 60 "$@" >"$TMP/out" 2>&1
	local rc=$?
	if [ "$rc" = "$want" ]; then ok "$name"
	else not_ok "$name" "command: $*" "exit status $rc, wanted $want" \
		"$(tail -5 "$TMP/out")"; fi
}
# has NAME TEXT / hasnt NAME TEXT: $TMP/out holds (does not hold) the
# fixed string TEXT.
has() {
	if grep -qF -- "$2" "$TMP/out"; then ok "$1"
	else not_ok "$1" "wanted: $2" "$(head -12 "$TMP/out")"; fi
}
hasnt() {
	if ! grep -qF -- "$2" "$TMP/out"; then ok "$1"
	else not_ok "$1" "unwanted: $2" "$(grep -F -- "$2" "$TMP/out" | head -3)"; fi
}
# lines_like NAME REGEX: every line of $TMP/out matches REGEX.
lines_like() {
	local bad
	bad=$(grep -vE -- "$2" "$TMP/out" | head -3)
	if [ -z "$bad" ]; then ok "$1"; else not_ok "$1" "line: $bad"; fi
}
# run_json RUN PYEXPR: evaluates PYEXPR with `d` the run directory RUN as
# irsnap's readers see it: its manifest.json, its events (events.jsonl)
# as d["events"] (tests/run_doc.py).
run_json() { python3 "$IRSNAP_ROOT/tests/run_doc.py" "$1" "$2"; }
# figure TEXT: a measurement, as a TAP comment (tests/run quotes it): not
# a check, since speed is measured by make bench, not asserted in tests.
figure() { echo "# figure: $*"; }
# done_testing: exit status says whether every check passed.
done_testing() { echo "1..$_tap_n"; [ "$_tap_failed" -eq 0 ]; }
