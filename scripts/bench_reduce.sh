#!/usr/bin/env bash
# Benchmark: irsnap reduce against C-Vise on the same crashing input and the
# same interestingness test, one after the other (SPEC section 9: a result
# no larger, in at most a quarter of C-Vise's time and test runs).
#
# Usage: scripts/bench_reduce.sh [N] [SEED]   (default N=5000, SEED=1)
# Writes $BENCH_OUT (default $BUILD/bench-reduce.json) and prints a table.
# Needs cvise (scripts/install-deps --bench installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
N=${1:-5000}
SEED=${2:-1}
JOBS=2
OUT=${BENCH_OUT:-$BUILD/bench-reduce.json}
TOYC=$PWD/$BUILD/toyc
IRSNAP=$PWD/$BUILD/irsnap

command -v cvise >/dev/null || { echo "bench_reduce: cvise is missing: scripts/install-deps --bench" >&2; exit 2; }
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

now() { date +%s.%N; }
instrs() { grep -c '^  ' "$1" || true; }

# irsnap
cp "$work/input.ir" "$work/irsnap.ir"
t0=$(now)
COUNTER=$work/irsnap.count "$IRSNAP" reduce "$work/irsnap.ir" \
	--test "$work/test.sh {}" -j "$JOBS" -o "$work/irsnap.out" >"$work/irsnap.log"
t1=$(now)
i_time=$(printf '%.3f' "$(echo "$t1 - $t0" | bc)")
i_tests=$(wc -l <"$work/irsnap.count")

# C-Vise, same input and test, run in a directory of its own
mkdir "$work/cvise"
cp "$work/input.ir" "$work/cvise/input.ir"
t0=$(now)
(cd "$work/cvise" && COUNTER=$work/cvise.count cvise --n "$JOBS" "$work/test.sh" input.ir \
	>"$work/cvise.log" 2>&1)
t1=$(now)
c_time=$(printf '%.3f' "$(echo "$t1 - $t0" | bc)")
c_tests=$(wc -l <"$work/cvise.count")

i_lines=$(wc -l <"$work/irsnap.out"); c_lines=$(wc -l <"$work/cvise/input.ir")
i_bytes=$(wc -c <"$work/irsnap.out"); c_bytes=$(wc -c <"$work/cvise/input.ir")
i_ins=$(instrs "$work/irsnap.out"); c_ins=$(instrs "$work/cvise/input.ir")
ratio() { printf '%.4f' "$(echo "scale=6; $1 / $2" | bc)"; }

printf '%-8s %8s %8s %8s %8s %10s\n' tool lines bytes instrs tests seconds
printf '%-8s %8s %8s %8s %8s %10.2f\n' irsnap "$i_lines" "$i_bytes" "$i_ins" "$i_tests" "$i_time"
printf '%-8s %8s %8s %8s %8s %10.2f\n' cvise "$c_lines" "$c_bytes" "$c_ins" "$c_tests" "$c_time"
echo "input: toyc --gen=$N --seed=$SEED ($(wc -l <"$work/input.ir") lines); -j/--n $JOBS"
echo "irsnap/cvise: tests $(ratio "$i_tests" "$c_tests"), time $(ratio "$i_time" "$c_time")"

mkdir -p "$(dirname "$OUT")"
cat >"$OUT" <<EOF
{ "benchmark": "reduce",
  "input": { "generator": "toyc --gen=$N --seed=$SEED", "lines": $(wc -l <"$work/input.ir") },
  "test": "toyc --bug=crash exits with SIGSEGV",
  "jobs": $JOBS,
  "irsnap": { "lines": $i_lines, "bytes": $i_bytes, "instructions": $i_ins,
              "tests": $i_tests, "seconds": $i_time },
  "cvise": { "lines": $c_lines, "bytes": $c_bytes, "instructions": $c_ins,
             "tests": $c_tests, "seconds": $c_time },
  "ratios": { "tests": $(ratio "$i_tests" "$c_tests"), "seconds": $(ratio "$i_time" "$c_time") },
  "goal_met": $([ "$i_bytes" -le "$c_bytes" ] && [ $((i_tests * 4)) -le "$c_tests" ] &&
		 [ "$(echo "$i_time * 4 <= $c_time" | bc)" -eq 1 ] && echo true || echo false) }
EOF
# Keep both results for a look.
mkdir -p "$BUILD/bench-reduce"
cp "$work/irsnap.out" "$BUILD/bench-reduce/irsnap.ir"
cp "$work/cvise/input.ir" "$BUILD/bench-reduce/cvise.ir"
echo "wrote $OUT; results in $BUILD/bench-reduce/"
