#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/fuzz_*.c, built by mk/fuzz.mk): each
# runs a few seconds over its seed corpus, then every input saved in
# tests/fuzz/regress/<target>/ (a crasher found once, kept as a regression
# test) is replayed. One TAP line per target and per regression input.
# FUZZ_TEST_SECONDS sets the time per target (default 3).
. "$(dirname "$0")/../lib.sh"

secs=${FUZZ_TEST_SECONDS:-3}
FUZZ=$BUILD/fuzz

if ! command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
	not_ok "clang is installed (libFuzzer)" \
		"install it: scripts/install-deps (Debian: apt-get install clang libclang-rt-14-dev)"
	done_testing
	exit 1
fi
# BUILD as `make` spells it (relative to the tree): the dependency files
# name their targets that way, and with an absolute BUILD make would not
# match them, leaving objects stale after a header changes.
if ! make --no-print-directory -s -j"$(nproc)" -C "$IRSNAP_ROOT" \
		BUILD="$(realpath --relative-to="$IRSNAP_ROOT" "$BUILD")" \
		fuzz-build >"$TMP/build.log" 2>&1; then
	not_ok "the fuzz targets build" "$(grep -E 'error|Error' "$TMP/build.log" | head -5)"
	done_testing
	exit 1
fi

# Open issues (fixed elsewhere) that the short runs step past; their
# regression inputs below still fail until they are fixed.
tolerate=$(sed -n 's/^\([a-z0-9-]*\)[[:space:]].*/\1/p' \
	"$IRSNAP_ROOT/tests/fuzz/known-open" 2>/dev/null | paste -sd, -)

# A sanitizer or oracle report in LOG, as TAP diagnostics.
report() {
	grep -A3 -E 'ERROR:|fuzz oracle:|runtime error' "$1" |
		grep -vE ' in (fuzzer::|__sanitizer|__asan|__interceptor|abort|raise|__pthread)|libc.so|^--$' |
		head -14
}

mkdir -p "$FUZZ/findings"
for bin in "$FUZZ"/fuzz_*; do
	[ -x "$bin" ] || continue
	t=${bin##*/fuzz_}
	mkdir -p "$TMP/work-$t"
	seeds=()
	for d in "$IRSNAP_ROOT/tests/fuzz/corpus/$t" "$FUZZ/seeds/$t"; do
		[ -d "$d" ] && seeds+=("$d")
	done
	dict=()
	[ -f "$IRSNAP_ROOT/tests/fuzz/dict/$t.dict" ] &&
		dict=(-dict="$IRSNAP_ROOT/tests/fuzz/dict/$t.dict")
	log=$TMP/$t.log
	IRSNAP_FUZZ_TOLERATE=$tolerate "$bin" -max_total_time="$secs" \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$FUZZ/findings/$t-" "${dict[@]}" \
		"$TMP/work-$t" "${seeds[@]}" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	nseeds=$(find "${seeds[@]}" -type f ! -name '.*' | wc -l)
	if [ "$rc" -eq 0 ] && [ "${runs:-0}" -gt 0 ]; then
		ok "fuzz_$t: $runs runs in $secs s from $nseeds seeds, nothing found"
	else
		not_ok "fuzz_$t: $secs s from $nseeds seeds (exit $rc)" \
			"$(report "$log")" \
			"input kept in $FUZZ/findings/; replay: $bin FILE"
	fi
	for f in "$IRSNAP_ROOT/tests/fuzz/regress/$t"/*; do
		[ -f "$f" ] || continue
		case $f in *.md|*.txt) continue ;; esac
		log=$TMP/regress.log
		if "$bin" -timeout=10 -runs=3 "$f" >"$log" 2>&1; then
			ok "fuzz_$t replays regress/$t/${f##*/}"
		else
			not_ok "fuzz_$t replays regress/$t/${f##*/}" \
				"$(report "$log")"
		fi
	done
done
done_testing
