#!/usr/bin/env bash
# LuaJIT 2.1's trace compiler under $DEBUGGER with the shipped layout
# (common/layouts/luajit.lua): at the boundary where a trace's IR is
# final (lj_asm_trace, after DCE, loop optimization and sinking),
# `ir-dump --boundary` of J->cur is byte-identical to the IR section that
# `luajit -jdump=i` prints for that trace number in the same process (at
# trace stop, once assembled), for every trace of every program of the
# corpus (tests/fixtures/real/corpus/*.lua: loops, numbers, tables, calls,
# side traces, loop optimization, sinking); then the same from a core file
# of a luajit stopped there. The IR holds addresses (`{0x...}` of a
# table constant), so the bytes compare only within one process.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

REAL=${IRSNAP_REAL:-$BUILD/real}
LUAJIT=$REAL/luajit/bin/luajit
out=$(BUILD=$BUILD scripts/real-compilers luajit 2>&1)
check "scripts/real-compilers built luajit ($out)" test -x "$LUAJIT"
export LUA_PATH="$REAL/luajit/bin/?.lua;;"	# -jdump loads jit/dump.lua
LAYOUT=$IRSNAP_ROOT/common/layouts/luajit.lua	# dbg_batch loads it

# luajit_run DUMP FILE: the $DEBUGGER command that runs luajit on FILE
# with -jdump=i writing to DUMP, the program's own output to /dev/null.
luajit_run() {
	case $DEBUGGER in
	gdb) echo "run -jdump=i,$1 $2 > /dev/null" ;;
	lldb) echo "process launch -o /dev/null -- -jdump=i,$1 $2" ;;
	esac
}

# jdump_ir DUMP N: the IR section -jdump=i printed for trace N, from its
# "---- TRACE N IR" line to the line before "---- TRACE N stop".
jdump_ir() {
	awk -v h="---- TRACE $2 IR" '
		$0 == h { on = 1 }
		on && /^---- TRACE [0-9]+ (stop|abort)/ { on = 0 }
		on' "$1"
}

# the corpus, and LuaJIT's own shapes: long and escaped strings, buffers,
# FFI cdata, 64-bit integers and C calls, fast functions, varargs
# (tests/fixtures/real/luajit/*.lua, the crash program among them: it
# runs normally without $IRSNAP_LUAJIT_CRASH)
files=("$FIXTURES"/real/corpus/*.lua "$FIXTURES"/real/luajit/*.lua)
check "the corpus has at least 10 programs" \
	test "$(ls "$FIXTURES"/real/corpus/*.lua | wc -l)" -ge 10
ntraces=0 nsame=0
for f in "${files[@]}"; do
	name=$(basename "$(dirname "$f")")/$(basename "$f" .lua)
	t=$TMP/${name//\//-}
	# How many traces reach the assembler varies from run to run (a trace
	# that aborts is blacklisted after a random penalty: LuaJIT seeds its
	# PRNG from the OS), so a run outside the debugger only bounds the
	# number of stops: a dump after the program exited fails (and ends
	# LLDB's batch), and what counts is the stops of the debugged process
	# against what -jdump=i listed in that same process.
	max=$(( $("$LUAJIT" -jdump=i "$f" 2>/dev/null | grep -c '^---- TRACE [0-9]* IR$') + 4 ))
	args=(-o "$(dbg_cmd break lj_asm_trace)" -o "$(luajit_run "$t.dump" "$f")")
	for i in $(seq "$max"); do
		args+=(-o "ir-dump --boundary -f both -o $t.$i.ir" -o continue)
	done
	dbg_batch "$t.log" "${args[@]}" -- "$LUAJIT"
	n=$(grep -c '^---- TRACE [0-9]* IR$' "$t.dump")
	check "$name: luajit compiled at least one trace ($n)" test "$n" -ge 1
	check_eq "$name: $n stops at lj_asm_trace, each dumped with no walk error" "$n" \
		"$(grep -c "^ir-dump: pass 'lj_asm_trace#[0-9]*' at frame #0 (lj_asm_trace): GCtrace at 0x[0-9a-f]*: [0-9]* nodes\?, [0-9]* bytes read, 0 walk errors" "$t.log")"
	for i in $(seq "$n"); do
		tr=$(sed -n '1s/^---- TRACE \([0-9]*\) IR$/\1/p' "$t.$i.ir")
		ntraces=$((ntraces + 1))
		jdump_ir "$t.dump" "$tr" >"$t.$i.want"
		if test -n "$tr" && test -s "$t.$i.want" && cmp -s "$t.$i.want" "$t.$i.ir"; then
			nsame=$((nsame + 1))
			ok "$name trace $tr: ir-dump at lj_asm_trace is -jdump=i's IR, byte for byte"
		else
			not_ok "$name trace ${tr:-?}: ir-dump at lj_asm_trace is -jdump=i's IR" \
				"$(diff "$t.$i.want" "$t.$i.ir" 2>&1 | head -8)" "$(tail -4 "$t.log")"
		fi
		check "$name trace ${tr:-?}: ... and its JSON graph validates" \
			"$IRSNAP" validate "$t.$i.ir.json"
	done
done
figure "luajit traces byte-identical at lj_asm_trace under $DEBUGGER: $nsame of $ntraces, ${#files[@]} programs"
check "... at least 25 traces ($ntraces)" test "$ntraces" -ge 25

# A global the compiler declares extern in a header and defines in one
# file (lj_ir_mode: lj_ir.h, lj_ir.c), read by global() as the debugger
# itself reads it. GDB finds the declaration first (LOC_UNRESOLVED).
cat >"$TMP/modes.lua" <<'EOF'
layout { name = "modes", root = "GCtrace" }
struct "GCtrace" { node = false, fields = { m = global("lj_ir_mode")[38] },
                   text = "mode {m}\n" }
boundary { functions = { "lj_asm_trace" }, ir = "&J->cur" }
EOF
case $DEBUGGER in
gdb) show_mode='print/u lj_ir_mode[38]' ;;
lldb) show_mode='expression -f u -- lj_ir_mode[38]' ;;
esac
LAYOUT=$TMP/modes.lua dbg_batch "$TMP/modes.log" -o "$(dbg_cmd break lj_asm_trace)" \
	-o "$(luajit_run /dev/null "$FIXTURES/real/corpus/01-sum.lua")" \
	-o "$show_mode" -o "ir-dump --boundary" -- "$LUAJIT"
own=$(sed -n 's/^.*\$[0-9]* = \([0-9]*\)$/\1/p' "$TMP/modes.log" | head -1)
check_eq "global(\"lj_ir_mode\")[38], an extern declaration's table, reads as $DEBUGGER prints it (${own:-?})" \
	"mode ${own:-?}" "$(grep -m1 '^mode ' "$TMP/modes.log")"

# The corpus is not trivial: side traces, loop optimization (a LOOP
# rule, PHIs), sinking (`}` marks), guards, constants of every kind seen.
all=$(cat "$TMP"/*-*.[0-9]*.ir)
check "the corpus compiles side traces" grep -q '^---- TRACE [0-9]* start [0-9]*/[0-9]*' "$TMP"/*.dump
check "... loop-optimized traces (LOOP, PHI)" \
	eval 'grep -q "^[0-9]\{4\} ------ LOOP ------------$" <<<"$all" && grep -q " PHI  " <<<"$all"'
check "... sunk allocations (})" grep -q '^[0-9]\{4\} }  tab TDUP' <<<"$all"
check "... guards, string, function and float constants" \
	eval 'grep -q "^[0-9]\{4\} >" <<<"$all" && grep -q "HREFK  [0-9]*  \"" <<<"$all" && grep -q "fun EQ     [0-9]*  [0-9a-z-]*\.lua:[0-9]" <<<"$all" && grep -q "  +[0-9.]*e\?[-+0-9]*  *$" <<<"$all"'
check "... long strings cut at 20 (\"...\"~), FFI allocations and C calls" \
	eval 'grep -q "\"a very long string c\"~" <<<"$all" && grep -q " cdt CNEWI " <<<"$all" && grep -q " CALLXS \[0x[0-9a-f]*\](" <<<"$all"'

# A core of a luajit stopped at lj_asm_trace of a side trace (GDB's
# gcore, which writes the whole image; LLDB 14's save-core keeps the
# stacks only), then post-mortem under $DEBUGGER with no process at all:
# the same IR as the live dump in that process, and as -jdump=i's.
f=$FIXTURES/real/corpus/06-side-trace.lua
GDB_TIMEOUT=60 run_gdb "$TMP/gcore.log" -ex "ir-layout load $LAYOUT" \
	-ex "break lj_asm_trace" -ex "run -jdump=i,$TMP/core.dump $f > /dev/null" \
	-ex continue -ex "ir-dump --boundary -f text -o $TMP/live.ir" \
	-ex "gcore $TMP/core" -ex continue -ex continue -ex continue \
	-ex continue --args "$LUAJIT"
check "gcore wrote a core of luajit at lj_asm_trace of its second trace" \
	test -s "$TMP/core"
dbg_batch "$TMP/core.log" -o "ir-dump --boundary -f both -o $TMP/core.ir" \
	-o "ir-dump --boundary -f json -o $TMP/core-only.json" \
	-o "$(dbg_cmd echo @@END)" -c "$TMP/core" "$LUAJIT"
check_eq "$DBG_BATCH ran every command on the core and exited 0" "0 1" \
	"$? $(grep -c '^@@END$' "$TMP/core.log")"
check_eq "ir-dump --boundary on the core finds lj_asm_trace, for each of its 2 dumps" 2 \
	"$(grep -c "^ir-dump: pass 'lj_asm_trace#[0-9]*' at frame #[0-9]* (lj_asm_trace): GCtrace at 0x[0-9a-f]*: .* 0 walk errors" "$TMP/core.log")"
tr=$(sed -n '1s/^---- TRACE \([0-9]*\) IR$/\1/p' "$TMP/core.ir")
check "... whose IR is a side trace's (trace ${tr:-?})" \
	grep -q "^---- TRACE $tr start [0-9]*/[0-9]* " "$TMP/core.dump"
check_files_eq "... the live dump's in that process" "$TMP/live.ir" "$TMP/core.ir"
jdump_ir "$TMP/core.dump" "$tr" >"$TMP/core.want"
check_files_eq "... and -jdump=i's" "$TMP/core.want" "$TMP/core.ir"
check "... and its JSON validates" "$IRSNAP" validate "$TMP/core.ir.json"
check_eq "ir-dump -f json alone: its stats give the text's size and lines, not 0" \
	"$(stat -c %s "$TMP/core.ir") $(wc -l <"$TMP/core.ir")" \
	"$(json_get "$TMP/core-only.json" '"%d %d" % (d["stats"]["text_bytes"], d["stats"]["text_lines"])')"

# ir-trace over a whole luajit run: before and after every boundary of
# every trace (DCE and loop optimization for the root loop, sinking and
# the assembler for each trace; lj_opt_split exists on 32-bit targets
# only), loop optimization changing the IR, and each trace's snapshot
# before lj_asm_trace its -jdump=i IR; a valid run directory.
f=$FIXTURES/real/corpus/06-side-trace.lua
dbg_batch "$TMP/trace.log" -o 'ir-trace on' -o "$(luajit_run "$TMP/trace.dump" "$f")" \
	-- "$LUAJIT"
run=$(latest_run)
ntr=$(grep -c '^---- TRACE [0-9]* IR$' "$TMP/trace.dump")
trs=($(sed -n 's/^---- TRACE \([0-9]*\) IR$/\1/p' "$TMP/trace.dump"))
# the root loop, then the side traces; a pass is named for its trace
want="lj_opt_dce#${trs[0]} lj_opt_loop#${trs[0]} lj_opt_sink#${trs[0]} lj_asm_trace#${trs[0]}"
for tr in "${trs[@]:1}"; do want+=" lj_opt_sink#$tr lj_asm_trace#$tr"; done
check_eq "ir-trace records every boundary of the $ntr traces, before and after, by trace" "$want" \
	"$(run_json "$run" '" ".join(e["pass"] for e in d["events"] if e["phase"] == "before")')"
check_eq "... each before and after" "$want" \
	"$(run_json "$run" '" ".join(e["pass"] for e in d["events"] if e["phase"] == "after")')"
check_eq "... loop optimization is the one pass that changes the root trace" \
	"lj_opt_loop#${trs[0]}" "$("$IRSNAP" show "$run" | awk '$1 ~ /^[0-9]+$/ && $6 == "yes" { print $2 }')"
k=0
while read -r seq pass phase text; do
	[ "${pass%#*} $phase" = "lj_asm_trace before" ] || continue
	k=$((k + 1))
	tr=$(sed -n '1s/^---- TRACE \([0-9]*\) IR$/\1/p' "$run/$text")
	check_eq "... the pass $pass is named for the trace its IR is" "lj_asm_trace#$tr" "$pass"
	jdump_ir "$TMP/trace.dump" "$tr" >"$TMP/trace.$k.want"
	check_files_eq "... trace ${tr:-?}'s snapshot before lj_asm_trace is its -jdump=i IR" \
		"$TMP/trace.$k.want" "$run/$text"
done < <(events "$run")
check_eq "... one for each trace" "$ntr" "$k"
check "... a root trace and its side traces (at least 2)" test "$ntr" -ge 2
check "... and the run validates" "$IRSNAP" validate "$run"
# irsnap show sizes each pass by the lines of its IR text, which for a
# trace is its instructions (its graph is one node: the trace holds them)
"$IRSNAP" show "$run" >"$TMP/trace.show" 2>&1
check_eq "irsnap show: each row's lines are its snapshot's, not \"1\"" \
	"$(while read -r seq pass phase text; do [ "$phase" = after ] &&
		echo "$seq $(wc -l <"$run/$text")"; done < <(events "$run"))" \
	"$(awk '/^ *[0-9]+  / { print $1, $4 }' "$TMP/trace.show")"
"$IRSNAP" diff "$run" lj_opt_sink >"$TMP/diff.hint" 2>&1
check_eq "irsnap diff RUN lj_opt_sink: no such pass, exit 2" 2 "$?"
check "... naming the passes called so, with their seq" grep -qE \
	"no pass 'lj_opt_sink' in the manifest; passes named like it: lj_opt_sink#${trs[0]} \(seq [0-9]+\), lj_opt_sink#" \
	"$TMP/diff.hint"
"$IRSNAP" diff "$run" "lj_opt_loop#${trs[0]}" >"$TMP/diff.loop" 2>&1
check_eq "... and irsnap diff RUN lj_opt_loop#${trs[0]} diffs it (exit 1: it changed)" \
	1 "$?"

# A test build whose sinking pass crashes on a rare IR shape, a hash
# store of a multiplication (tests/fixtures/real/luajit/01-crash-in-sink.patch,
# under $IRSNAP_LUAJIT_CRASH): ir-trace's failure.json names the pass and,
# in the IR it was given, the trace; the reducer shrinks the Lua program
# that triggered it to one that crashes the same way.
f=$FIXTURES/real/luajit/crash-sink.lua
check "luajit runs the crash program without \$IRSNAP_LUAJIT_CRASH" \
	"$LUAJIT" "$f"
IRSNAP_LUAJIT_CRASH=1 dbg_batch "$TMP/crash.log" -o 'ir-trace on' \
	-o "$(luajit_run /dev/null "$f")" -- "$LUAJIT"
run=$(latest_run)
check "the crash in lj_opt_sink wrote failure.json" test -s "$run/failure.json"
crash_pass=$(json_get "$run/failure.json" 'd["pass"]["name"]')
check_eq "... naming the signal and the pass" "SIGSEGV lj_opt_sink" \
	"$(json_get "$run/failure.json" 'd["signal"]["name"]') ${crash_pass%#*}"
check_eq "... innermost frames: the shape check, in lj_opt_sink" \
	"sink_check_shape lj_opt_sink" \
	"$(json_get "$run/failure.json" '" ".join(f["function"] for f in d["backtrace"][:2])')"
before=$run/$(json_get "$run/failure.json" 'd["before_snapshot"]["text"]')
check_eq "... and the trace, whose IR the pass was given ($(head -1 "$before"))" \
	"---- TRACE ${crash_pass#*#} IR" "$(head -1 "$before")"
# the shape: an HSTORE whose value is a MUL of the same trace
# (columns of -jdump=i: the opcode at 13-18, the operands at 20 and 26)
mul_stores=$(awk '{ op = substr($0, 13, 6) }
	op == "MUL   " { mul[$1] = 1 }
	op == "HSTORE" && mul[substr($0, 26, 4)] { n++ }
	END { print n + 0 }' "$before")
check "... and holds the shape it crashed on (HSTOREs of a MUL: $mul_stores)" \
	test "$mul_stores" -ge 1
check "... and the run validates" "$IRSNAP" validate "$run"

# What is reduced is the program (reduce { input = "program" }), copied
# into the run, and failure.json's reduce command runs luajit on it.
check_eq "... its reduce input is the run's copy of the Lua program" \
	"input/crash-sink.lua" "$(json_get "$run/failure.json" 'd["reduce_input"]')"
check_files_eq "... which is the program luajit ran" "$f" "$run/input/crash-sink.lua"
check_eq "... and its reduce command runs luajit on the candidate program" \
	"irsnap reduce $run/input/crash-sink.lua --crash '$LUAJIT -jdump=i,/dev/null {}'" \
	"$(json_get "$run/failure.json" 'd["reduce_command"]')"
IRSNAP_LUAJIT_CRASH=1 "$IRSNAP" reduce "$run" -o "$TMP/reduced.lua" >"$TMP/reduce.log" 2>&1
check "irsnap reduce RUN shrank the Lua program ($(tail -1 "$TMP/reduce.log"))" \
	test -s "$TMP/reduced.lua"
lines_before=$(wc -l <"$f") lines_after=$(wc -l <"$TMP/reduced.lua")
figure "luajit crash program reduced under $DEBUGGER: $lines_before -> $lines_after lines"
# Results keep the input's lines (issue 30): the loop in its function and
# the call, six lines (`end end` on one line was a join of two).
check "... to at most 6 lines ($lines_after)" test "$lines_after" -le 6
check "... which still stores a product into a table" grep -q '\*' "$TMP/reduced.lua"
IRSNAP_LUAJIT_CRASH=1 dbg_batch "$TMP/recrash.log" -o 'ir-trace on' \
	-o "$(luajit_run /dev/null "$TMP/reduced.lua")" -- "$LUAJIT"
check_eq "... and crashes the same way: SIGSEGV in lj_opt_sink at sink_check_shape" \
	"SIGSEGV lj_opt_sink sink_check_shape" \
	"$(json_get "$(latest_run)/failure.json" 'd["signal"]["name"] + " " + d["pass"]["name"].split("#")[0] + " " + d["backtrace"][0]["function"]')"

done_testing
