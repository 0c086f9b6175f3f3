#!/usr/bin/env bash
# The shipped layout common/layouts/llvm14.lua prints Debian's release
# opt-14 (no debug info, types from its donor) as opt-14 prints itself
# (issue 28 items 4, 5): corpus programs traced under GDB and under LLDB,
# every after snapshot byte-identical to the section of opt-14's own
# -print-after-all that the same command, on the same input, writes after
# that pass on that function (scripts/llvm-compare, which also checks
# that the passes come in opt's order, and counts them), and GDB's
# snapshots the same bytes as LLDB's. Sections of passes the layout's
# boundary pattern cannot stop at (the templated InvalidateAnalysisPass<...>
# and RequireAnalysisPass<...>, whose inline run has no symbol in
# libLLVM) are left out by --only and counted; module, CGSCC and loop
# sections are not function sections.
# It drives both debuggers by name, so tests/run runs it once (e2e_both).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb

source "$IRSNAP_ROOT/tests/e2e/llvm.sh"

PIPE=sroa,early-cse,instcombine,simplifycfg,gvn,reassociate,sccp,dse,adce,instcombine
# the class names the layout's boundary pattern takes (its FUNCTION_PASS)
ONLY='[A-Za-z0-9_]+Pass|InjectTLIMappings|ReplaceWithVeclib|PGOMemOPSizeOpt|StripGCRelocates|AAEvaluator'

# The donor, built as a user builds it (the system's c++, g++: LLDB 14
# finds none of its types by name, lldb/target.cpp's find_donor_type does).
# A cache of its own: test_llvm builds a donor of the same bytes (same
# cache entry) from a copy in its $TMP, stale once that suite is done.
LAYOUT=$IRSNAP_ROOT/common/layouts/llvm14.lua
export IRSNAP_CACHE=$TMP/donor-cache
mkdir -p "$IRSNAP_CACHE"
build_donor "$LAYOUT" "$TMP/donor.log"
check "irsnap donor builds llvm14.lua's donor ($(tail -1 "$TMP/donor.log"))" \
	grep -q "^irsnap donor: built .*/donor.o in" "$TMP/donor.log"

# trace DEBUGGER LOG PIPELINE INPUT: opt-14 traced with llvm14.lua into
# $RUNS; the run directory on stdout.
trace() {
	local debugger=$1 log=$2 pipe=$3 input=$4
	DBG_TIMEOUT=300 DEBUGGER=$debugger dbg_batch "$log" \
		-o 'ir-trace on' -o run -- opt-14 -passes="$pipe" \
		-disable-output "$input"
	latest_run
}

# NAME LEVEL PIPELINE: the -O2 programs through default<O2> (loops,
# vectors, switch tables; dbg.c with -g: !dbg, llvm.dbg.value; state.c,
# written after the layout: overflow intrinsics, i128, atomics, a VLA;
# bundle.c, written after it too: llvm.assume's operand bundles), one
# -O0 program through ten function passes.
total=0
while read -r name level pipe; do
	g=; [ "$name" = dbg ] && g=-g
	opts=-O2; [ "$level" = O0 ] && opts="-O0 -Xclang -disable-O0-optnone"
	# shellcheck disable=SC2086
	clang-14 $g $opts -S -emit-llvm "$FIXTURES/real/llvm/$name.c" \
		-o "$TMP/$name.$level.ll"
	opt-14 -passes="$pipe" -print-after-all -disable-output \
		"$TMP/$name.$level.ll" 2>"$TMP/$name.$level.paa"
	for debugger in gdb lldb; do
		run=$(trace "$debugger" "$TMP/$debugger-$name.$level.log" \
			"$pipe" "$TMP/$name.$level.ll")
		scripts/llvm-compare --only "$ONLY" "$run" \
			"$TMP/$name.$level.paa" >"$TMP/$debugger-$name.$level.cmp"
		status=$?
		check_eq "$name.$level, $pipe, $debugger: every function section byte-identical ($(sed -n 1p "$TMP/$debugger-$name.$level.cmp"))" \
			0 "$status"
		[ "$status" = 0 ] || show_log "$TMP/$debugger-$name.$level.cmp"
		eval "run_$debugger=\$run"
	done
	n=$(sed -n 's/^\([0-9]*\) sections, \1 byte-identical$/\1/p' \
		"$TMP/gdb-$name.$level.cmp")
	check "$name.$level: sections were compared (${n:-none})" \
		test "${n:-0}" -ge 20
	total=$((total + ${n:-0}))
	# shellcheck disable=SC2154
	check_eq "$name.$level: GDB's snapshots are LLDB's, byte for byte" "" \
		"$(diff -r "$run_gdb/snapshots" "$run_lldb/snapshots" 2>&1 | head -5)"
done <<EOF
hash O2 default<O2>
switch O2 default<O2>
dbg O2 default<O2>
state O2 default<O2>
bundle O2 default<O2>
varargs O0 $PIPE
EOF
figure "$total sections byte-identical under each debugger"

# --- whole modules with debug info, as opt-14 -S prints them ---------------
# A module compiled with -g (the reducer's input when a pass of it fails)
# rendered whole from opt-14's memory at its first pass (the verifier: the
# Module in %rdx, sret), byte-identical to opt-14 -S of the same file and
# valid IR: every debug-info node (DICompileUnit, DIFile, DISubprogram,
# DILocation, DILocalVariable, the types, DIExpression...) numbered and
# printed as AsmWriter does; interp.c's blockaddress constants too, and
# cxx.cpp's comdats, C++ debug info (DIFlagProtected, static members,
# template parameters) and named struct types in TypeFinder's order.
# The inputs, compiled; then one session per debugger renders them all,
# opt-14 started once per input (loading libLLVM-14's symbols once).
inputs=()
while read -r file level; do
	name=${file%.*} cc=clang-14
	[ "$file" = "$name.cpp" ] && cc=clang++-14
	"$cc" -g "-$level" -S -emit-llvm "$FIXTURES/real/llvm/$file" \
		-o "$TMP/$name.g$level.ll"
	opt-14 -S "$TMP/$name.g$level.ll" -o "$TMP/$name.g$level.S.ll"
	inputs+=("$file $level")
done <<EOF
dbg.c O0
dbg.c O2
interp.c O2
cxx.cpp O0
EOF
for debugger in gdb lldb; do
	words=(-o "$(spell "$debugger" break llvm::VerifierPass::run)")
	# (GDB evaluates the cast as C in a frame without debug info)
	[ "$debugger" = gdb ] && words+=(-o 'set language c++')
	for i in "${!inputs[@]}"; do
		read -r file level <<<"${inputs[$i]}"
		args="-passes=verify -disable-output $TMP/${file%.*}.g$level.ll"
		if [ "$i" = 0 ]; then
			words+=(-o run)
		elif [ "$debugger" = gdb ]; then
			words+=(-o kill -o "run $args")
		else
			words+=(-o 'process kill' -o "process launch -- $args")
		fi
		words+=(-o "ir-dump -o $TMP/$debugger-${file%.*}.g$level.module.ll ((llvm::Module *)\$rdx) Module")
	done
	read -r file level <<<"${inputs[0]}"
	DBG_TIMEOUT=300 DEBUGGER=$debugger dbg_batch "$TMP/$debugger-modules.log" \
		"${words[@]}" -- opt-14 -passes=verify -disable-output \
		"$TMP/${file%.*}.g$level.ll"
	for input in "${inputs[@]}"; do
		read -r file level <<<"$input"
		base=$TMP/${file%.*}.g$level
		out=$TMP/$debugger-${file%.*}.g$level.module.ll
		ndi=$(grep -c '^![0-9]* = .*!DI' "$base.S.ll")
		check_eq "$file -g -$level, $debugger: the module is byte-identical to opt-14 -S ($ndi debug-info nodes)" \
			"" "$(diff "$base.S.ll" "$out" 2>&1 | head -5)"
		check "$file -g -$level, $debugger: opt-14 reads and verifies it" \
			opt-14 -verify -disable-output "$out"
	done
done

done_testing
