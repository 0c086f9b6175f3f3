#!/usr/bin/env bash
# failure.json's reduce command for a run of a release MLIR tool (issue 29
# item 4): mlir14.lua's boundary names the failing pass as -pass-pipeline
# does (its getArgument(), read from the pass's code), nested under the op
# it ran on, so the command reruns that pass alone on the before snapshot
# with the tool that ran it: `TOOL FLAGS --pass-pipeline='builtin.func(cse)'
# {}` for CSE on a function, `--pass-pipeline=symbol-dce` on the module;
# the user's own -pass-pipeline (one dash) is not carried along. The
# rerun runs: the tool parses the snapshot and runs the pass on it, and
# gives the same text as the after snapshot the trace took.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

source "$IRSNAP_ROOT/tests/e2e/mlir.sh"

input=$FIXTURES/real/mlir/corpus/branches.mlir
PIPE='builtin.func(canonicalize,cse),symbol-dce'
# the reduce command's input (the before snapshot), then the words of its
# --crash test, one a line
command_words() {
	json_get "$1/failure.json" 'd["reduce_command"]' | python3 -c '
import shlex, sys
w = shlex.split(sys.stdin.read())
print("\n".join([w[2]] + shlex.split(w[w.index("--crash") + 1])))'
}
for pass in CSE SymbolDCE; do
	DBG_TIMEOUT=300 dbg_batch "$TMP/$pass.log" -o 'ir-trace on' \
		-o "ir-break --before $pass" -o run \
		-o 'ir-report --signal SIGSEGV' -- "$MLIR_OPT" \
		--mlir-disable-threading --mlir-print-op-generic \
		-pass-pipeline="$PIPE" "$input" -o /dev/null
	run=$(latest_run)
	check "$pass: failure.json written ($(tail -1 "$TMP/$pass.log"))" \
		test -s "$run/failure.json"
	command_words "$run" >"$TMP/$pass.words"
	case $pass in
	CSE) want='builtin.func(cse)' ;;
	*) want='symbol-dce' ;;
	esac
	check_eq "$pass: the rerun is the tool, the user's flags, the pass alone, the candidate" \
		"$(printf '%s\n' "$MLIR_OPT" --mlir-disable-threading \
			--mlir-print-op-generic "--pass-pipeline=$want" '{}')" \
		"$(sed 1d "$TMP/$pass.words")"
	mapfile -t words <"$TMP/$pass.words"
	before=${words[0]}
	check "$pass: the command reduces the pass's before snapshot ($before)" \
		test -s "$before"
	words=("${words[@]:1}")
	words[${#words[@]}-1]=$before
	"${words[@]}" >"$TMP/$pass.rerun" 2>"$TMP/$pass.err"
	check_eq "$pass: the rerun runs the pass on the snapshot ($(head -1 "$TMP/$pass.err"))" \
		0 "$?"
	check "$pass: the rerun printed the function branches" \
		grep -q 'sym_name = "branches"' "$TMP/$pass.rerun"
done

# untraced: the stop's open boundary call read the same at its entry
DBG_TIMEOUT=300 dbg_batch "$TMP/untraced.log" -o "ir-break --before CSE" \
	-o run -o 'ir-report --signal SIGSEGV' -- "$MLIR_OPT" \
	--mlir-disable-threading -pass-pipeline="$PIPE" "$input" -o /dev/null
run=$(latest_run)
command_words "$run" >"$TMP/untraced.words"
check_eq "untraced: the rerun is the same ($(tail -1 "$TMP/untraced.log"))" \
	"$(printf '%s\n' "$MLIR_OPT" --mlir-disable-threading \
		"--pass-pipeline=builtin.func(cse)" '{}')" \
	"$(sed 1d "$TMP/untraced.words")"

done_testing
