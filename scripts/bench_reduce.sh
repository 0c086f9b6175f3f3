#!/usr/bin/env bash
# Benchmark: irsnap reduce against C-Vise on the same crashing input and the
# same interestingness test, one after the other (SPEC section 9: a result
# no larger, in at most a quarter of C-Vise's time and test runs).
#
# Usage: scripts/bench_reduce.sh [N] [SEED]   (default N=5000, SEED=1)
# Writes $BENCH_OUT (default $BUILD/bench-reduce-toyc.json) and prints a
# table. The corpus of real cases is scripts/bench-reduce's.
# Needs cvise (scripts/install-deps --bench installs it).
# Environment:
#   BENCH_CVISE_TIMEOUT=S  stop C-Vise after S seconds (default 0: no limit);
#                          its figures are then lower bounds ("timed_out")
#                          and its result is the best it had at that moment
#   BENCH_SKIP_CVISE=1     run irsnap only (C-Vise's figures are null)
#   BENCH_REDUCE_RUNS=R    run irsnap R times, keep the fastest (default 1);
#                          C-Vise always runs once
#   BENCH_REDUCE_KEEP=DIR  where both results are kept ($BUILD/bench-reduce)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
N=${1:-5000}
SEED=${2:-1}
JOBS=2
OUT=${BENCH_OUT:-$BUILD/bench-reduce-toyc.json}
CVISE_TIMEOUT=${BENCH_CVISE_TIMEOUT:-0}
SKIP_CVISE=${BENCH_SKIP_CVISE:-0}
RUNS=${BENCH_REDUCE_RUNS:-1}
TOYC=$PWD/$BUILD/toyc
IRSNAP=$PWD/$BUILD/irsnap

if [ "$SKIP_CVISE" != 1 ] && ! command -v cvise >/dev/null; then
	echo "bench_reduce: cvise is missing: scripts/install-deps --bench" >&2
	exit 2
fi
[ -x "$TOYC" ] && [ -x "$IRSNAP" ] || { echo "bench_reduce: run make first" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/irsnap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$TOYC" --gen="$N" --seed="$SEED" >"$work/input.ir"

# The one test both tools run: toyc --bug=crash dies with SIGSEGV. It takes
# the file as $1 (irsnap's {}) or, as C-Vise runs it, ./input.ir in its
# own directory; each run appends a line to a counter file.
cat >"$work/test.sh" <<EOF
#!/bin/sh
echo x >>"\$COUNTER"
"$TOYC" --bug=crash "\${1:-input.ir}" >/dev/null 2>&1
[ \$? -eq 139 ]
EOF
chmod +x "$work/test.sh"
# interesting FILE: the test passes on FILE (not counted).
interesting() { COUNTER=/dev/null "$work/test.sh" "$1"; }
if ! interesting "$work/input.ir"; then
	echo "bench_reduce: toyc --gen=$N --seed=$SEED does not crash under" \
		"--bug=crash; pick another size or seed" >&2
	exit 2
fi

now() { date +%s.%N; }
instrs() { grep -c '^  ' "$1" || true; }
bool() { if "$@"; then echo true; else echo false; fi; }

# irsnap, RUNS times; the fastest run's figures are kept.
i_time= i_tests=
for run in $(seq "$RUNS"); do
	cp "$work/input.ir" "$work/irsnap.ir"
	rm -f "$work/irsnap.count"
	t0=$(now)
	COUNTER=$work/irsnap.count "$IRSNAP" reduce "$work/irsnap.ir" \
		--test "$work/test.sh {}" -j "$JOBS" -o "$work/irsnap.out" >"$work/irsnap.log"
	t1=$(now)
	t=$(printf '%.3f' "$(echo "$t1 - $t0" | bc)")
	if [ -z "$i_time" ] || [ "$(echo "$t < $i_time" | bc)" -eq 1 ]; then
		i_time=$t
		i_tests=$(wc -l <"$work/irsnap.count")
	fi
done
i_lines=$(wc -l <"$work/irsnap.out"); i_bytes=$(wc -c <"$work/irsnap.out")
i_ins=$(instrs "$work/irsnap.out")
i_ok=$(bool interesting "$work/irsnap.out")

ratio() { printf '%.4f' "$(echo "scale=6; $1 / $2" | bc)"; }
c_timed_out=false
if [ "$SKIP_CVISE" = 1 ]; then
	c_lines=null c_bytes=null c_ins=null c_tests=null c_time=null c_ok=null
	ratios=null goal=null
else
	# C-Vise, same input and test, run in a directory of its own. It keeps
	# its best result in input.ir as it goes, so a cut run leaves a valid
	# (if larger) result there.
	mkdir "$work/cvise"
	cp "$work/input.ir" "$work/cvise/input.ir"
	t0=$(now)
	status=0
	if [ "$CVISE_TIMEOUT" != 0 ]; then
		(cd "$work/cvise" && COUNTER=$work/cvise.count timeout -k 10 "$CVISE_TIMEOUT" \
			cvise --n "$JOBS" "$work/test.sh" input.ir >"$work/cvise.log" 2>&1) || status=$?
	else
		(cd "$work/cvise" && COUNTER=$work/cvise.count cvise --n "$JOBS" "$work/test.sh" \
			input.ir >"$work/cvise.log" 2>&1) || status=$?
	fi
	t1=$(now)
	if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
		c_timed_out=true
	elif [ "$status" -ne 0 ]; then
		echo "bench_reduce: cvise failed (status $status):" >&2
		tail -5 "$work/cvise.log" >&2
		exit 1
	fi
	c_time=$(printf '%.3f' "$(echo "$t1 - $t0" | bc)")
	c_tests=$(wc -l <"$work/cvise.count")
	c_lines=$(wc -l <"$work/cvise/input.ir"); c_bytes=$(wc -c <"$work/cvise/input.ir")
	c_ins=$(instrs "$work/cvise/input.ir")
	c_ok=$(bool interesting "$work/cvise/input.ir")
	ratios="{ \"tests\": $(ratio "$i_tests" "$c_tests"), \"seconds\": $(ratio "$i_time" "$c_time") }"
	goal=$(bool eval '[ "$i_bytes" -le "$c_bytes" ] && [ $((i_tests * 4)) -le "$c_tests" ] &&
		 [ "$(echo "$i_time * 4 <= $c_time" | bc)" -eq 1 ]')
fi

printf '%-8s %8s %8s %8s %8s %10s\n' tool lines bytes instrs tests seconds
printf '%-8s %8s %8s %8s %8s %10.2f\n' irsnap "$i_lines" "$i_bytes" "$i_ins" "$i_tests" "$i_time"
if [ "$SKIP_CVISE" = 1 ]; then
	echo "cvise    (skipped: BENCH_SKIP_CVISE=1)"
else
	printf '%-8s %8s %8s %8s %8s %10.2f%s\n' cvise "$c_lines" "$c_bytes" "$c_ins" "$c_tests" \
		"$c_time" "$([ $c_timed_out = true ] && echo "  (cut at ${CVISE_TIMEOUT} s: lower bounds)")"
fi
echo "input: toyc --gen=$N --seed=$SEED ($(wc -l <"$work/input.ir") lines); -j/--n $JOBS"
[ "$SKIP_CVISE" = 1 ] ||
	echo "irsnap/cvise: tests $(ratio "$i_tests" "$c_tests"), time $(ratio "$i_time" "$c_time")"

mkdir -p "$(dirname "$OUT")"
cat >"$OUT" <<EOF
{ "benchmark": "reduce",
  "input": { "generator": "toyc --gen=$N --seed=$SEED", "lines": $(wc -l <"$work/input.ir"),
             "instructions": $(instrs "$work/input.ir") },
  "test": "toyc --bug=crash exits with SIGSEGV",
  "jobs": $JOBS,
  "irsnap": { "lines": $i_lines, "bytes": $i_bytes, "instructions": $i_ins,
              "tests": $i_tests, "seconds": $i_time, "runs": $RUNS,
              "interesting": $i_ok },
  "cvise": { "lines": $c_lines, "bytes": $c_bytes, "instructions": $c_ins,
             "tests": $c_tests, "seconds": $c_time, "interesting": $c_ok,
             "skipped": $([ "$SKIP_CVISE" = 1 ] && echo true || echo false),
             "timeout": $CVISE_TIMEOUT, "timed_out": $c_timed_out },
  "ratios": $ratios,
  "goal_met": $goal }
EOF
# Keep both results for a look.
keep=${BENCH_REDUCE_KEEP:-$BUILD/bench-reduce}
mkdir -p "$keep"
cp "$work/irsnap.out" "$keep/irsnap.ir"
[ "$SKIP_CVISE" = 1 ] || cp "$work/cvise/input.ir" "$keep/cvise.ir"
echo "wrote $OUT; results in $keep/"
