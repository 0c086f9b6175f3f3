#!/usr/bin/env bash
# Passes on several threads (issue 29 item 2): MLIR runs a function pass
# on a module's functions on its thread pool unless the tool is given
# --mlir-disable-threading. irsnap says so in one line, once, when a pass
# stops on a thread other than the main one or begins while another runs
# on another thread; with --mlir-disable-threading it says nothing. The
# real release tool (irsnap-mlir-opt), 32 functions, so that the pool's
# worker takes some of them (it needs to be scheduled once in 64 stops).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

source "$IRSNAP_ROOT/tests/e2e/mlir.sh"

input=$TMP/many.mlir
for i in $(seq 1 32); do
	printf 'func @f%d(%%a: i32) -> i32 {\n  %%c = arith.constant %d : i32\n  %%r = arith.addi %%a, %%c : i32\n  return %%r : i32\n}\n' "$i" "$i"
done >"$input"
check "the input parses" "$MLIR_OPT" "$input" -o /dev/null
SAID="^irsnap: pass '[A-Za-z]*' (runs on thread [0-9]*, not the main thread \([0-9]*\)|began on thread [0-9]* while pass '[A-Za-z]*' runs on thread [0-9]*): the pipeline runs passes on several threads, and snapshots may pair with the wrong pass; run it on one \(MLIR: --mlir-disable-threading\)$"

DBG_TIMEOUT=300 dbg_batch "$TMP/threads.log" -o 'ir-trace on' -o run -- \
	"$MLIR_OPT" -pass-pipeline='builtin.func(canonicalize,cse)' \
	"$input" -o /dev/null
check "with threads: irsnap says so in one line ($(grep -m1 '^irsnap: pass' "$TMP/threads.log"))" \
	grep -qE "$SAID" "$TMP/threads.log"
check_eq "with threads: once" 1 "$(grep -cE "$SAID" "$TMP/threads.log")"
# the thread it names is one of the process's, not the main one
tid=$(grep -m1 -oE 'runs on thread [0-9]+, not the main thread \([0-9]+\)' "$TMP/threads.log")
if [ -n "$tid" ]; then
	set -- $(echo "$tid" | grep -oE '[0-9]+')
	check "the thread named ($1) is not the process ($2)" test "$1" != "$2"
fi

DBG_TIMEOUT=300 dbg_batch "$TMP/one.log" -o 'ir-trace on' -o run -- \
	"$MLIR_OPT" --mlir-disable-threading \
	-pass-pipeline='builtin.func(canonicalize,cse)' "$input" -o /dev/null
check "with --mlir-disable-threading: traced ($(grep -m1 'passes traced' "$TMP/one.log"))" \
	grep -q "64 passes traced\|passes traced" "$TMP/one.log"
check "with --mlir-disable-threading: nothing said" \
	sh -c "! grep -qE \"\$1\" '$TMP/one.log'" _ "$SAID"

done_testing
