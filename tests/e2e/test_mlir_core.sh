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
# first_before PASS OUT: the tool's own text of the op PASS is first
# given in $PIPE over $input: its first section `Before PASS`, less the
# blank line MLIR's printer ends a section with.
first_before() {
	"$MLIR_OPT" --mlir-disable-threading --mlir-print-op-generic \
		--print-ir-before-all -pass-pipeline="$PIPE" "$input" \
		-o /dev/null 2>"$2.out"
	awk -v want=" $1 " '/^\/\/ -----\/\/ IR Dump Before / { k = index($0, want) > 0; n += k; on = k && n == 1; next } on' \
		"$2.out" | sed '$d' >"$2"
}
PIPE='builtin.func(canonicalize,cse)'
first_before CSE "$TMP/want.ir"
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

# --- the kernel core of a crash deep inside canonicalize ----------------------
# crash_shim.c (LD_PRELOAD; MLIR is not patched) writes through NULL at
# the third allocation made while mlir::applyPatternsAndFoldGreedily, the
# exported function canonicalize does its work through, is on the stack:
# a SIGSEGV five frames below OpToOpPassAdaptor::run, whose argument
# registers are the callees' by then.
PIPE='builtin.func(cse,canonicalize,sccp),symbol-dce'
first_before Canonicalizer "$TMP/want2.ir"
cc -shared -fPIC -O1 -o "$TMP/crash_shim.so" \
	"$FIXTURES/real/llvm-shim/crash_shim.c" -ldl
SYM=$(nm -D /usr/lib/llvm-14/lib/libMLIR.so.14 |
	awk '$3 ~ /^_ZN4mlir28applyPatternsAndFoldGreedilyEN4llvm15MutableArrayRef/ { print $3 }')
check "libMLIR.so.14 exports applyPatternsAndFoldGreedily ($SYM)" test -n "$SYM"
shim() {
	IRSNAP_CRASH_SYMBOL=$SYM IRSNAP_CRASH_AFTER=3 \
		LD_PRELOAD=$TMP/crash_shim.so "$@"
}
# GDB reads the default kernel core (coredump_filter 0x33: no file-backed
# page). LLDB 14's expression evaluator reads only what a core holds (its
# `memory read` falls back to the file, its expressions do not): the
# pass's getName() code, which the boundary's name expressions decode,
# reads as zeros from such a core, and the pass has no name. So LLDB
# reads a kernel core that keeps file-backed pages too (0x37, bit 2: what
# docs/layout.md tells LLDB users to set).
kernel_core() {	# DIR FILTER: the crash's kernel core in DIR
	mkdir -p "$1"
	(
		cd "$1" && ulimit -c unlimited && echo "$2" >/proc/self/coredump_filter &&
		shim "$MLIR_OPT" --mlir-disable-threading \
			-pass-pipeline="$PIPE" "$input" -o /dev/null
	) >"$1.log" 2>&1
	ls "$1"/core* 2>/dev/null | head -1
}
for debugger in gdb lldb; do
	filter=0x33
	[ "$debugger" = lldb ] && filter=0x37
	kcore=$(kernel_core "$TMP/kernel-$debugger" $filter)
	check "$debugger: the shim crashed the tool in canonicalize into a kernel core (core_pattern $(cat /proc/sys/kernel/core_pattern), coredump_filter $filter)" \
		test -n "$kcore"
	IRSNAP_DEBUG=S DEBUGGER=$debugger DBG_TIMEOUT=300 dbg_batch \
		"$TMP/kcore-$debugger.log" \
		-o "ir-dump --boundary -o $TMP/kcore-$debugger.ir" \
		-o 'ir-report' -c "${kcore:-/nonexistent}" "$MLIR_OPT"
	rm -f "$kcore"	# (LLDB's holds the libraries' code: 100s of MB)
	line=$(grep -m1 "^ir-dump: pass" "$TMP/kcore-$debugger.log")
	frame=$(sed -n "s/^ir-dump: pass 'Canonicalizer' at frame #\([0-9]*\) .*/\1/p" \
		"$TMP/kcore-$debugger.log")
	check "kernel core, $debugger: ir-dump --boundary finds canonicalize's boundary below the crash ($line)" \
		test "${frame:-0}" -gt 0
	check "kernel core, $debugger: the pass from a register its frame saved" \
		grep -qE "^irsnap: \\\$arg0 0x[0-9a-f]+ from (rbx|rbp|r1[2-5]|sp\+[0-9]+) of frame $frame" \
		"$TMP/kcore-$debugger.log"
	check "kernel core, $debugger: no walk error" \
		grep -q ", 0 walk errors, " "$TMP/kcore-$debugger.log"
	check_files_eq "kernel core, $debugger: the op canonicalize was given, byte for byte the tool's section" \
		"$TMP/want2.ir" "$TMP/kcore-$debugger.ir"
	fail=$(sed -n 's/^ir-report: .*: \(.*failure.json\)$/\1/p' "$TMP/kcore-$debugger.log")
	check_eq "kernel core, $debugger: ir-report: the crashing pass" \
		"SIGSEGV Canonicalizer" \
		"$(json_get "${fail:-/nonexistent}" 'd["signal"]["name"] + " " + d["pass"]["name"]' 2>/dev/null)"
	eval "fail_$debugger=\$fail"
done

# --- failure.json -> irsnap reduce RUN -> a reproducer ------------------------
# (GDB's run; LLDB's failure.json is checked to say the same)
# shellcheck disable=SC2154
krun=$(dirname "${fail_gdb:-/nonexistent/x}")
json_get "${fail_gdb:-/nonexistent}" 'd["reduce_command"]' >"$TMP/rc.txt" 2>&1
snap=$krun/snapshots/0000-Canonicalizer.crash.ir
check "failure.json: the reduce command reruns canonicalize alone on the crash snapshot ($(cat "$TMP/rc.txt"))" \
	grep -qxF "irsnap reduce $snap --crash '$MLIR_OPT --mlir-disable-threading --pass-pipeline='\\''builtin.func(canonicalize)'\\'' {}'" \
	"$TMP/rc.txt"
# shellcheck disable=SC2154
check_eq "and LLDB's says the same of its run" \
	"$(sed "s|$krun|RUN|g" "$TMP/rc.txt")" \
	"$(json_get "${fail_lldb:-/nonexistent}" 'd["reduce_command"]' 2>&1 |
		sed "s|$(dirname "${fail_lldb:-/x/y}")|RUN|g")"
(
	ulimit -c 0
	# (the shim is for the tool; a sanitized irsnap would refuse to
	# start with another library preloaded before the ASan runtime)
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	shim "$IRSNAP" reduce "$krun"
) >"$TMP/reduce.log" 2>&1
check "irsnap reduce RUN runs the reduce command from failure.json" \
	grep -qF "irsnap reduce: running the --crash command from $krun/failure.json: $MLIR_OPT --mlir-disable-threading" \
	"$TMP/reduce.log"
red=$krun/repro/reduced.ir
read -r in_lines in_bytes <<<"$(wc -lc <"$snap")"
read -r out_lines out_bytes <<<"$(wc -lc <"$red" 2>/dev/null || echo "0 0")"
check "the reproducer is smaller: $in_bytes -> $out_bytes bytes ($in_lines -> $out_lines lines)" \
	test -s "$red" -a "$out_bytes" -lt "$in_bytes"
figure "$(grep '^reduced ' "$TMP/reduce.log")"
check "the reproducer parses and verifies (the tool, no shim)" \
	"$MLIR_OPT" "$red" -o /dev/null
(
	ulimit -c 0
	shim "$MLIR_OPT" --mlir-disable-threading \
		--pass-pipeline='builtin.func(canonicalize)' "$red" -o /dev/null
) >"$TMP/repro.log" 2>&1
status=$?
check_eq "and still crashes the tool's canonicalize with SIGSEGV (128 + 11)" \
	139 "$status"
check "in applyPatternsAndFoldGreedily (its stack dump)" \
	grep -q "mlir::applyPatternsAndFoldGreedily(" "$TMP/repro.log"

done_testing
