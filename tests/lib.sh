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
trap 'rm -rf "$TMP"' EXIT

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
# done_testing: exit status says whether every check passed.
done_testing() { echo "1..$_tap_n"; [ "$_tap_failed" -eq 0 ]; }
