#!/usr/bin/env bash
# A core of the release MLIR tool (irsnap-mlir-opt: -O2, no -g, linking
# Debian's libMLIR.so.14) prints as the live process does (issue 29 item
# 5, "a core at a boundary"): GDB stops before CSE with ir-break, dumps
# the op it is given (ir-dump --boundary) and saves a gcore there; on
# that core, GDB and LLDB each dump the same op with mlir14.lua, byte for
# byte the live text and the tool's own `// -----// IR Dump Before CSE
# //----- //` section, without a walk error. Every builtin type and
# attribute is told by its TypeID, the address TypeIDExported::get<T>()
# returns: on a core, which holds no code, the getter's code is read from
# libMLIR.so.14 on disk, and where the library was mapped from the core's
# NT_FILE note. (LLDB 14 saves no core irsnap can read: `process
# save-core` writes a minidump of the stacks alone, and refuses
# --style=full; so LLDB reads GDB's gcore.)
# It drives both debuggers by name, so tests/run runs it once (e2e_both).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb

source "$IRSNAP_ROOT/tests/e2e/mlir.sh"

input=$FIXTURES/real/mlir/corpus/branches.mlir
PIPE='builtin.func(canonicalize,cse)'
# the tool's own text of the op CSE is first given: its first section
# `Before CSE`, less the blank line MLIR's printer ends a section with
"$MLIR_OPT" --mlir-disable-threading --mlir-print-op-generic \
	--print-ir-before-all -pass-pipeline="$PIPE" "$input" -o /dev/null \
	2>"$TMP/before.out"
awk '/^\/\/ -----\/\/ IR Dump Before / { n += ($0 ~ / CSE /); on = ($0 ~ / CSE /) && n == 1; next } on' \
	"$TMP/before.out" | sed '$d' >"$TMP/want.ir"
check "the tool printed the op before CSE" grep -q '"builtin.func"' "$TMP/want.ir"

# --- live, then a gcore at that boundary ------------------------------------
DEBUGGER=gdb DBG_TIMEOUT=300 dbg_batch "$TMP/live.log" \
	-o 'ir-break --before CSE' -o run \
	-o "ir-dump --boundary -o $TMP/live.ir" -o "gcore $TMP/cse.core" -- \
	"$MLIR_OPT" --mlir-disable-threading -pass-pipeline="$PIPE" "$input" \
	-o /dev/null
check_files_eq "live: the op before CSE, byte for byte the tool's section" \
	"$TMP/want.ir" "$TMP/live.ir"
check "gdb's gcore wrote a core at that boundary" test -s "$TMP/cse.core"

# --- the core, under each debugger -------------------------------------------
for debugger in gdb lldb; do
	DEBUGGER=$debugger DBG_TIMEOUT=300 dbg_batch "$TMP/core-$debugger.log" \
		-o "ir-dump --boundary -o $TMP/core-$debugger.ir" \
		-c "$TMP/cse.core" "$MLIR_OPT"
	line=$(grep -m1 "^ir-dump: pass" "$TMP/core-$debugger.log")
	check "core, $debugger: ir-dump --boundary names CSE at frame #0 ($line)" \
		grep -q "^ir-dump: pass 'CSE' at frame #0 " "$TMP/core-$debugger.log"
	check "core, $debugger: no walk error (every type and attribute known by its TypeID)" \
		grep -q ", 0 walk errors, " "$TMP/core-$debugger.log"
	check_files_eq "core, $debugger: byte for byte the live snapshot" \
		"$TMP/live.ir" "$TMP/core-$debugger.ir"
	check_files_eq "core, $debugger: and the tool's own section" \
		"$TMP/want.ir" "$TMP/core-$debugger.ir"
	[ -s "$TMP/core-$debugger.ir" ] || show_log "$TMP/core-$debugger.log" 20
done

done_testing
