#!/usr/bin/env bash
# toyc, the fixture compiler every irsnap test runs against: text round
# trip, generator, verifier, each pass against golden output, dumps, the
# command line, and every --bug= reproducing in the pass it names.
# TOYC_UPDATE=1 rewrites the golden *.expected files from toyc's output
# (review the diff before committing).
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CASES=$IRSNAP_ROOT/tests/toyc/cases
DEMO=$FIXTURES/toyc/demo.ir
PHI=$FIXTURES/toyc/phi.ir
DEFAULT_PIPELINE=constfold,copyprop,cse,dce,simplifycfg,strength,constfold,cse,dce,simplifycfg

if [ ! -x "$TOYC" ]; then
	not_ok "toyc is built" "missing $TOYC: run make build/toyc"
	done_testing
	exit
fi

# rc CMD...: runs CMD (stdout to $TMP/out, stderr to $TMP/err), prints its
# exit status; 128+N when signal N killed it.
rc() { "$@" >"$TMP/out" 2>"$TMP/err"; echo $?; }
# golden NAME EXPECTED ACTUAL: byte-identical, or rewritten under TOYC_UPDATE.
golden() {
	if [ "${TOYC_UPDATE:-}" = 1 ]; then cp "$3" "$2"; ok "$1 (updated)"
	else check_files_eq "$1" "$2" "$3"; fi
}
# first_dump: the module text after the first dump banner, up to the next.
first_dump() { awk 'NR == 1 { next } /^; \*\*\* IR Dump / { exit } { print }'; }
# instrs FILE: the number of instructions in a module's text.
instrs() { grep -c '^  ' "$1"; }

# ---- text round trip ------------------------------------------------------

"$TOYC" --gen=5000 --seed=11 >"$TMP/gen.ir"
for input in "$DEMO" "$TMP/gen.ir" "$CASES/pipeline-default.ir" "$PHI"; do
	name=$(basename "$input")
	"$TOYC" --passes=dce --print-before-all "$input" >/dev/null 2>"$TMP/dumps"
	first_dump <"$TMP/dumps" >"$TMP/first"
	check_files_eq "round trip: $name's first --print-before-all dump is the input" \
		"$input" "$TMP/first"
	"$TOYC" --passes= "$input" >"$TMP/same"
	check_files_eq "round trip: toyc --passes= prints $name unchanged" \
		"$input" "$TMP/same"
done
n=0 bad=
for expected in "$CASES"/*.expected; do
	case $(basename "$expected") in pass-*|pipeline-*) ;; *) continue ;; esac
	n=$((n + 1))
	"$TOYC" --passes= "$expected" 2>&1 | cmp -s - "$expected" || bad="$bad $(basename "$expected")"
done
check_eq "round trip: every golden pass output ($n files) reprints unchanged" "" "$bad"

# ---- generator --------------------------------------------------------------

"$TOYC" --gen=3000 --seed=7 >"$TMP/a.ir"
"$TOYC" --gen=3000 --seed=7 >"$TMP/b.ir"
"$TOYC" --gen=3000 --seed=8 >"$TMP/c.ir"
check_files_eq "gen: same N and seed give the same bytes" "$TMP/a.ir" "$TMP/b.ir"
check "gen: another seed gives another module" \
	bash -c "! cmp -s '$TMP/a.ir' '$TMP/c.ir'"
"$TOYC" --gen=3000 >"$TMP/d.ir"
"$TOYC" --gen=3000 --seed=1 >"$TMP/e.ir"
check_files_eq "gen: the default seed is 1" "$TMP/d.ir" "$TMP/e.ir"
for n in 1 17 3000; do
	"$TOYC" --gen=$n --seed=3 >"$TMP/n.ir"
	check_eq "gen: --gen=$n writes $n instructions" "$n" "$(instrs "$TMP/n.ir")"
done
t0=$(date +%s%N)
"$TOYC" --gen=1000000 --seed=2 >"$TMP/big.ir"
ms=$((($(date +%s%N) - t0) / 1000000))
check_eq "gen: --gen=1000000 writes 1000000 instructions" 1000000 "$(instrs "$TMP/big.ir")"
# How long it takes is a figure, not a check (make bench measures speed).
figure "gen: --gen=1000000 took ${ms} ms"
fns=$(grep -c '^func ' "$TMP/a.ir")
check "gen: 3000 instructions come as many functions of tens ($fns)" \
	test "$fns" -ge 30 -a "$fns" -le 300
for pattern in 'condbr' ' = load ' '  store ' ' = call ' ' = copy ' 'br \^next'; do
	check "gen: the module has '$pattern'" grep -q -- "$pattern" "$TMP/a.ir"
done
check "gen: the module has self-xors (--bug=crash) a few per thousand" \
	test "$(grep -cE ' = xor (%[^,]+), \1$' "$TMP/a.ir")" -ge 3

# ---- verifier ---------------------------------------------------------------

for input in "$DEMO" "$TMP/gen.ir" "$TMP/big.ir" "$CASES/verify-valid.ir" "$PHI"; do
	check_eq "verify: $(basename "$input") is valid" "0:" \
		"$(rc "$TOYC" --passes= --verify "$input"):$(cat "$TMP/err")"
done
for input in "$CASES"/verify-*.ir; do
	name=$(basename "$input" .ir)
	[ "$name" = verify-valid ] && continue
	status=$(cd "$CASES" && rc "$TOYC" --passes= "$name.ir")
	check_eq "verify: $name.ir is rejected (exit 1)" 1 "$status"
	golden "verify: $name.ir gets the expected messages" \
		"$CASES/$name.expected" "$TMP/err"
done
# The verifier passes after every pass, on inputs of several sizes and seeds.
for spec in 200:1 2000:2 5000:3 20000:4; do
	"$TOYC" --gen="${spec%:*}" --seed="${spec#*:}" >"$TMP/v.ir"
	check_eq "verify: default pipeline, --verify after each pass, gen $spec" "0:" \
		"$(rc "$TOYC" --verify "$TMP/v.ir"):$(cat "$TMP/err")"
	check_eq "verify: the pipeline backwards, --verify after each pass, gen $spec" "0:" \
		"$(rc "$TOYC" --verify --passes=simplifycfg,dce,cse,constfold,strength,simplifycfg,dce,cse,copyprop,constfold "$TMP/v.ir"):$(cat "$TMP/err")"
done
check_eq "verify: default pipeline, --verify after each pass, demo.ir" "0:" \
	"$(rc "$TOYC" --verify "$DEMO"):$(cat "$TMP/err")"
# Phis: the passes that delete edges or merge blocks keep them consistent.
check_eq "verify: default pipeline, --verify after each pass, phi.ir" "0:" \
	"$(rc "$TOYC" --verify "$PHI"):$(cat "$TMP/err")"
check_eq "verify: the pipeline backwards, --verify after each pass, phi.ir" "0:" \
	"$(rc "$TOYC" --verify --passes=simplifycfg,dce,cse,constfold,strength,simplifycfg,dce,cse,copyprop,constfold "$PHI"):$(cat "$TMP/err")"

# ---- passes -----------------------------------------------------------------

for pass in constfold copyprop cse dce simplifycfg strength; do
	"$TOYC" --passes=$pass "$CASES/pass-$pass.ir" >"$TMP/out"
	golden "pass $pass: pass-$pass.ir gives the golden output" \
		"$CASES/pass-$pass.expected" "$TMP/out"
	"$TOYC" --passes=$pass "$TMP/gen.ir" >"$TMP/out"
	check "pass $pass: changes a generated module" \
		bash -c "! cmp -s '$TMP/gen.ir' '$TMP/out'"
done
# commute (for the benchmark) changes one function of many, in one line,
# and twice over gives the input back.
"$TOYC" --passes=commute "$TMP/gen.ir" >"$TMP/out"
check_eq "pass commute: changes one line of a generated module" 1 \
	"$(diff "$TMP/gen.ir" "$TMP/out" | grep -c '^>')"
"$TOYC" --passes=commute,commute "$TMP/gen.ir" >"$TMP/out"
check_files_eq "pass commute: twice gives the module back" "$TMP/gen.ir" \
	"$TMP/out"
"$TOYC" "$CASES/pipeline-default.ir" >"$TMP/out"
golden "pipeline: the default pipeline gives the golden output" \
	"$CASES/pipeline-default.expected" "$TMP/out"
"$TOYC" "$PHI" >"$TMP/out"
golden "pipeline: phi.ir: a folded branch and a merged block update the phis" \
	"$CASES/pipeline-phi.expected" "$TMP/out"
"$TOYC" --passes=$DEFAULT_PIPELINE "$DEMO" >"$TMP/explicit"
"$TOYC" "$DEMO" >"$TMP/implicit"
check_files_eq "pipeline: the default is $DEFAULT_PIPELINE" "$TMP/explicit" "$TMP/implicit"
check "pipeline: shrinks demo.ir" test "$(instrs "$TMP/implicit")" -lt "$(instrs "$DEMO")"

# ---- dumps ------------------------------------------------------------------

"$TOYC" --print-before-all --print-after-all "$TMP/gen.ir" >"$TMP/final" 2>"$TMP/dumps"
expected=$(echo "$DEFAULT_PIPELINE" | tr ',' '\n' |
	awk '{ print "; *** IR Dump Before " $0 " ***"; print "; *** IR Dump After " $0 " ***" }')
check_eq "dumps: one Before and one After banner per pass, in order" \
	"$expected" "$(grep '^; \*\*\* IR Dump' "$TMP/dumps")"
# Split into one file per dump: each After equals the next Before, and the
# last After is the output.
awk -v dir="$TMP" '/^; \*\*\* IR Dump / { n++; f = sprintf("%s/dump.%02d", dir, n); next }
	{ print > f }' "$TMP/dumps"
bad=
for k in $(seq 2 2 19); do
	next=$(printf '%02d' $((k + 1)))
	cur=$(printf '%02d' "$k")
	cmp -s "$TMP/dump.$cur" "$TMP/dump.$next" || bad="$bad $k"
done
check_eq "dumps: each After dump is the next pass's Before dump" "" "$bad"
check_files_eq "dumps: the last After dump is the output" "$TMP/final" "$TMP/dump.20"
"$TOYC" --passes=dce,cse,dce --print-after-all "$CASES/pass-dce.ir" >/dev/null 2>"$TMP/dumps"
check_eq "dumps: --passes= may repeat a pass" \
	"$(printf '; *** IR Dump After %s ***\n' dce cse dce)" \
	"$(grep '^; \*\*\* IR Dump' "$TMP/dumps")"

# ---- --per-function ---------------------------------------------------------

# The pipeline run over each function in turn, as LLVM's function pass
# manager runs it: the same passes, each function alone.
"$TOYC" --per-function --print-after-all "$TMP/gen.ir" >"$TMP/perfn" 2>"$TMP/dumps"
check_files_eq "per-function: gives the output of the module pipeline" \
	"$TMP/final" "$TMP/perfn"
nfunc=$(grep -c '^func @' "$TMP/gen.ir")
check_eq "per-function: one After banner per pass per function, naming it" \
	"$((10 * nfunc)) $((10 * nfunc))" \
	"$(grep -c '^; \*\*\* IR Dump After [a-z]* on @f[0-9]* \*\*\*$' "$TMP/dumps") $(grep -c '^; \*\*\* IR Dump' "$TMP/dumps")"
first=$(grep -m1 '^func @' "$TMP/gen.ir" | sed 's/^func \(@[^(]*\).*/\1/')
# (its second simplifycfg, the last pass of the pipeline)
awk -v b="; *** IR Dump After simplifycfg on $first ***" \
	'$0 == b { n++; next } /^; \*\*\* / { on = 0 } n == 2 && !done { on = 1; done = 1 }
	 on' "$TMP/dumps" >"$TMP/f0.after"
awk -v f="$first" 'index($0, "func " f "(") == 1 { on = 1; print ""; }
	on { print } on && /^}$/ { exit }' "$TMP/final" >"$TMP/f0.want"
check_files_eq "per-function: a dump is the function as the module prints it" \
	"$TMP/f0.want" "$TMP/f0.after"
check_eq "per-function: --verify checks each function after each pass" 0 \
	"$(rc "$TOYC" --per-function --verify "$TMP/gen.ir")"
check_eq "per-function: a pass that breaks a function is named" \
	"1 toyc: the verifier found" \
	"$(rc "$TOYC" --per-function --verify --bug=break-invariant "$DEMO") $(grep -o '^toyc: the verifier found' "$TMP/err" | head -1)"

# ---- command line and bad inputs --------------------------------------------

status=$(rc "$TOYC" --passes=constfold,nosuch "$DEMO")
check_eq "cli: an unknown pass is a one-line error, exit 2" "2:1" \
	"$status:$(wc -l <"$TMP/err")"
status=$(rc "$TOYC" --frobnicate "$DEMO")
check_eq "cli: an unknown option is a one-line error, exit 2" "2:1" \
	"$status:$(wc -l <"$TMP/err")"
status=$(rc "$TOYC" --bug=nosuch "$DEMO")
check_eq "cli: an unknown bug is a one-line error, exit 2" "2:1" \
	"$status:$(wc -l <"$TMP/err")"
"$TOYC" --passes=cse -o "$TMP/o.ir" "$CASES/pass-cse.ir"
check_files_eq "cli: -o writes the output there" "$CASES/pass-cse.expected" "$TMP/o.ir"
"$TOYC" --passes=cse - <"$CASES/pass-cse.ir" >"$TMP/out"
check_files_eq "cli: input - is stdin" "$CASES/pass-cse.expected" "$TMP/out"
"$TOYC" --bug=help >"$TMP/help"
check_eq "cli: --bug=help lists the seven bugs with their passes" \
	"crash constfold|assert strength|break-invariant simplifycfg|corrupt-dangling cse|corrupt-cycle simplifycfg|corrupt-count copyprop|flaky dce" \
	"$(awk '{ printf "%s%s %s", (NR > 1 ? "|" : ""), $1, $2 }' "$TMP/help")"
for input in "$CASES"/parse-*.ir; do
	name=$(basename "$input" .ir)
	status=$(cd "$CASES" && rc "$TOYC" "$name.ir")
	check_eq "bad input: $name.ir fails with one FILE:LINE: error (exit 1)" "1:1" \
		"$status:$(grep -cE "^$name\.ir:[0-9]+: " "$TMP/err")"
	golden "bad input: $name.ir gets the expected message" \
		"$CASES/$name.expected" "$TMP/err"
done
printf 'module @m\n\nfunc @f() {\nentry:\n  ret 1, 2\n}\n' >"$TMP/bad.ir"
status=$(rc "$TOYC" "$TMP/bad.ir")
check_eq "bad input: an invalid input is refused before any pass (exit 1)" \
	"1:verify: @f: block entry: instruction 1 (ret): takes 0 to 1 operands, has 2" \
	"$status:$(head -1 "$TMP/err")"

# ---- bugs -------------------------------------------------------------------

SEGV=139 ABRT=134
# bug, expected exit status, the pass that dies (in gdb's backtrace), the
# pass --verify blames (- when the bug kills the pass it is in).
while read -r bug status dies blamed; do
	min=$CASES/bug-$bug.ir
	check_eq "bug $bug: the minimal input is fine without the bug" 0 \
		"$(rc "$TOYC" "$min")"
	[ "$bug" = flaky ] && continue	# below: it fails in some runs only
	check_eq "bug $bug: the minimal input ($(instrs "$min") instructions) exits $status" \
		"$status" "$(rc "$TOYC" --bug="$bug" "$min")"
	if [ "$bug" = assert ]; then
		check "bug assert: the message is an assertion failure in strength.c" \
			grep -q 'strength.c:.*Assertion .* failed' "$TMP/err"
	fi
	check_eq "bug $bug: demo.ir exits $status" "$status" \
		"$(rc "$TOYC" --bug="$bug" "$DEMO")"
	check_eq "bug $bug: a generated 5000-instruction input exits $status" \
		"$status" "$(rc "$TOYC" --bug="$bug" "$TMP/gen.ir")"
	if [ "$blamed" != - ]; then
		status=$(rc "$TOYC" --verify --bug="$bug" "$min")
		check_eq "bug $bug: --verify blames $blamed (exit 1)" \
			"1:toyc: the verifier found 1 problem after pass $blamed" \
			"$status:$(tail -1 "$TMP/err")"
	fi
	if ! command -v gdb >/dev/null; then
		not_ok "bug $bug: gdb shows the crash" "gdb is missing: apt-get install gdb"
		continue
	fi
	gdb -q -batch -ex run -ex bt --args "$TOYC" --bug="$bug" "$min" >"$TMP/bt" 2>&1
	check "bug $bug: gdb's backtrace has pass_$dies under pm_run_pass" \
		awk -v p="pass_$dies" '$0 ~ (" " p " ") { s = 1 } s && / pm_run_pass / { f = 1 } END { exit !f }' "$TMP/bt"
done <<'TABLE'
crash 139 constfold -
assert 134 strength -
break-invariant 139 constfold simplifycfg
corrupt-dangling 139 dce cse
corrupt-cycle 139 strength simplifycfg
corrupt-count 139 cse copyprop
flaky 139 dce -
TABLE

# flaky: the same input fails in some runs only, each time in dce.
fails=0 others=0
for k in $(seq 30); do
	case $(rc "$TOYC" --bug=flaky "$DEMO") in
	$SEGV) fails=$((fails + 1)) ;;
	0) ;;
	*) others=$((others + 1)) ;;
	esac
done
# (1 to 25 of 30: with p = 1/3 either bound fails once in 10^5 runs)
check "bug flaky: demo.ir fails in some of 30 runs, not all ($fails)" \
	test "$fails" -ge 1 -a "$fails" -le 25
check_eq "bug flaky: the other runs succeed" 0 "$others"
fails=0
for k in $(seq 30); do
	[ "$(rc "$TOYC" --bug=flaky "$CASES/bug-flaky.ir")" = $SEGV ] && fails=$((fails + 1))
done
check "bug flaky: the minimal input ($(instrs "$CASES/bug-flaky.ir") instructions) fails in some of 30 runs, not all ($fails)" \
	test "$fails" -ge 1 -a "$fails" -le 25
# --flaky-seed=S: the draw is S's, the same every run; seeds differ.
seeded= again= fails=0
for k in $(seq 12); do
	seeded="$seeded$(rc "$TOYC" --bug=flaky --flaky-seed=$k "$DEMO") "
	again="$again$(rc "$TOYC" --bug=flaky --flaky-seed=$k "$DEMO") "
done
check_eq "bug flaky: --flaky-seed gives the same outcome every run" "$seeded" "$again"
fails=$(tr ' ' '\n' <<<"$seeded" | grep -c "^$SEGV$")
check "bug flaky: seeds 1..12 fail some runs, not all ($fails)" \
	test "$fails" -ge 1 -a "$fails" -le 11
check_eq "bug flaky: a bad seed is a usage error" 2 \
	"$(rc "$TOYC" --bug=flaky --flaky-seed=x "$DEMO")"
for k in $(seq 20); do
	gdb -q -batch -ex run -ex bt --args "$TOYC" --bug=flaky "$DEMO" >"$TMP/bt" 2>&1
	grep -q SIGSEGV "$TMP/bt" && break
done
check "bug flaky: gdb's backtrace has pass_dce under pm_run_pass" \
	awk '/ pass_dce / { s = 1 } s && / pm_run_pass / { f = 1 } END { exit !f }' "$TMP/bt"
# the crash pass's input is the module pm_run_pass had: the last Before dump
rc "$TOYC" --bug=crash --print-before-all "$CASES/bug-crash.ir" >/dev/null 2>&1
check_eq "bug crash: the last dump is the one before constfold" \
	"; *** IR Dump Before constfold ***" "$(grep '^; \*\*\*' "$TMP/err" | tail -1)"

done_testing
