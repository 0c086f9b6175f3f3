#!/usr/bin/env bash
# `make bench`'s driver (scripts/bench) at a tiny size: it runs to the end,
# prints its table, writes every key of bench.json as a number, writes the
# README's performance section, and every dump it timed (GDB, the Python
# baseline, toyc_print called from GDB, LLDB, the core file) is toyc's own
# printer output byte for byte. The benchmark proper (a million
# instructions) is `make bench`, not part of `make test`.
source "$(dirname "$0")/../lib.sh"

out=$TMP/bench
work=$out/work
export BENCH_INSTRUCTIONS=2000 BENCH_TRACE_INSTRUCTIONS=2000
export BENCH_ONEFUNC_INSTRUCTIONS=2000 BENCH_EVENTS_INSTRUCTIONS=2000
export BENCH_REDUCE_INSTRUCTIONS=1000 BENCH_RUNS=2 BENCH_PY_RUNS=1
# Lua 5.4's step builds luac from Debian's source when build/real lacks
# it; a small chunk keeps the smoke run short.
export BENCH_LUA54_LINES=2000
export BENCH_MERGE_ATTEMPTS=2000 BENCH_MERGE_GROUPS=200
export BENCH_OUT=$out/bench.json BENCH_README=$out/bench-readme.md
export BENCH_WORK=$work BENCH_KEEP=1
# The reducer's corpus (scripts/bench-reduce) on its smallest case only:
# the whole corpus takes many minutes, which is make bench's business.
export BENCH_CASES=toyc-crash
# The LLVM step (opt-14 under GDB and LLDB, the donor built if the cache
# lacks it) on one program of the corpus.
export BENCH_LLVM_PROGRAMS=bundle BENCH_LLVM_RUNS=1
# C-Vise comes with `scripts/install-deps --bench`, which make test does not
# run: without it the smoke run skips it, and checks that it says so.
if command -v cvise >/dev/null; then
	have_cvise=1
	export BENCH_CVISE_TIMEOUT=3
else
	have_cvise=0
	export BENCH_SKIP_CVISE=1
fi

make --no-print-directory -s BUILD="$BUILD" "$BUILD/bench/walk_bench" >/dev/null
# A guard against a hang, not a bar: a quiet machine takes about a minute,
# one loaded to 18 took over 150 s.
timeout 600 scripts/bench >"$TMP/bench.log" 2>&1
status=$?
check_eq "scripts/bench at 2000 instructions exits 0" 0 "$status"
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/bench.log" | tail -15

sed -n '/^irsnap benchmark, /,/^$/p' "$TMP/bench.log" >"$TMP/table.txt"
check_eq "the table has a row per figure" \
	"dump_gdb dump_gdb dump_gdb_call dump_gdb_python dump_lldb dump_core trace trace_text print_after_all trace_one_function full_walk trace_events_gdb trace_events_gdb trace_events_gdb trace_events_gdb trace_events_lldb trace_events_lldb trace_events_lldb trace_events_lldb reduce reduce_tests reduce_lines walk_toyc walk_plain lua54_dump lua54_dump lua54_luac_l luajit_trace luajit_jdump llvm_trace llvm_trace llvm_trace_lldb llvm_trace_lldb llvm_print_after_all_lldb llvm_print_changed_lldb llvm_print_after_all llvm_print_changed llvm_bare llvm_breaks llvm_opt_paa llvm_opt_changed llvm_opt_bare merge_attempts_4x merge_attempts merge_groups_4x merge_groups peak_rss_gdb peak_rss_lldb peak_rss_gdb peak_rss_lldb" \
	"$(sed 1,2d "$TMP/table.txt" | awk 'NF { print $1 }' | tr '\n' ' ' | sed 's/ $//')"
check "each compared figure shows a ratio and whether its goal is met" \
	grep -qE '^dump_lldb +[0-9.]+ +[0-9.]+ +dump_gdb [0-9.]+ +[0-9.]+x +<= 1\.50x +(yes|no)$' \
	"$TMP/table.txt"

# Every key of the brief, a number; C-Vise's are null only when skipped.
keys=$(python3 - "$BENCH_OUT" "$have_cvise" <<-'PY'
	import json, numbers, sys
	d = json.load(open(sys.argv[1]))
	cvise = ("reduce_cvise_s", "reduce_cvise_tests", "reduce_cvise_lines")
	keys = ("dump_gdb_s dump_gdb_python_s dump_gdb_call_s dump_lldb_s "
	        "dump_core_s trace_s print_after_all_s reduce_s reduce_tests "
	        "reduce_lines reduce_cvise_s reduce_cvise_tests "
	        "reduce_cvise_lines peak_rss_gdb_mb peak_rss_lldb_mb "
	        "snapshot_text_mb instructions "
	        "reduce_corpus_toyc_crash_irsnap_lines "
	        "reduce_corpus_toyc_crash_irsnap_tests lua54_dump_s "
	        "lua54_luac_l_s lua54_lines walk_toyc_s walk_plain_s "
	        "walk_toyc_nodes_per_s trace_pure_copied trace_one_function_s "
	        "full_walk_s ratio_trace_one_function_to_full_walk luajit_trace_s "
	        "luajit_jdump_s luajit_traces luajit_traced merge_attempts_s "
	        "llvm_trace_s llvm_print_after_all_s llvm_print_changed_s "
	        "llvm_bare_s llvm_breaks_s llvm_trace_lldb_s "
	        "llvm_print_after_all_lldb_s llvm_print_changed_lldb_s "
	        "llvm_opt_bare_s llvm_events llvm_sections llvm_event_ms "
	        "merge_attempts_4x_s merge_groups_s merge_groups_4x_s").split()
	bad = []
	for k in keys:
	    v = d.get(k, "missing")
	    if k in cvise and sys.argv[2] == "0":
	        ok = v is None and d.get("reduce_cvise_skipped") is True
	    else:
	        ok = isinstance(v, numbers.Number) and not isinstance(v, bool)
	    if not ok:
	        bad.append("%s=%r" % (k, v))
	print(" ".join(bad) or "all numbers")
	PY
)
if [ "$have_cvise" = 1 ]; then
	check_eq "bench.json: every key is a number" "all numbers" "$keys"
else
	check_eq "bench.json: every key is a number, C-Vise's null as it is not installed" \
		"all numbers" "$keys"
fi
check_eq "instructions is the size of the dumped module" 2000 \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["instructions"])' "$BENCH_OUT")"
check_eq "times are positive and the Python baseline is the slowest dump" "ok" \
	"$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
t = [d[k] for k in ("dump_gdb_s", "dump_gdb_call_s", "dump_lldb_s", "dump_core_s")]
print("ok" if min(t) > 0 and d["dump_gdb_python_s"] > max(t) else t + [d["dump_gdb_python_s"]])' "$BENCH_OUT")"

check_eq "the traces copied every later pass's before snapshot (same_as)" \
	"9 9 9" "$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(d["trace_copied"], d["trace_text_copied"], d["trace_pure_copied"])' "$BENCH_OUT")"
check "... the one with a pure Lua text too, its snapshots toyc's dumps" \
	bash -c "! grep -q 'pure trace' '$TMP/bench.log'"

# The dumps against toyc's own printer, at the same state: before the
# first pass.
"$TOYC" --passes=constfold --print-before-all -o /dev/null "$work/input.ir" \
	2>&1 >/dev/null | sed 1d >"$TMP/expected.ir"
check_eq "toyc printed the 2000-instruction module" 2000 \
	"$(grep -c '^  ' "$TMP/expected.ir")"
for kind in dump_gdb dump_gdb_python dump_gdb_call dump_lldb dump_core; do
	n=2; [ $kind = dump_gdb_python ] && n=1
	bad=
	for i in $(seq 0 $((n - 1))); do
		cmp -s "$TMP/expected.ir" "$work/$kind.$i.ir" || bad="$bad $kind.$i.ir"
	done
	check_eq "$kind: each of its $n outputs is toyc's printer output" "" "$bad"
done

# The traced run's after snapshots are toyc's --print-after-all dumps.
"$TOYC" --print-after-all -o /dev/null "$work/trace-input.ir" 2>"$TMP/paa.txt"
bad=0 n=0
for snap in "$work"/traced.run/snapshots/*.after.ir; do
	n=$((n + 1))
	pass=$(basename "$snap" .after.ir); pass=${pass#*-}
	awk -v n=$n '/^; \*\*\* IR Dump /{k++; next} k == n' "$TMP/paa.txt" \
		| cmp -s - "$snap" || bad=$((bad + 1))
	grep -qx "; \*\*\* IR Dump After $pass \*\*\*" "$TMP/paa.txt" || bad=$((bad + 1))
done
check_eq "trace: ten after snapshots, each toyc's --print-after-all dump" \
	"10 0" "$n $bad"

check "lua54: each dump at luaU_dump is luac -l -l's listing" \
	cmp "$work/lua54.0.ir" "$work/lua54.listing"
check "... the second too" cmp "$work/lua54.1.ir" "$work/lua54.listing"
check "... of the whole chunk (luac printed it)" \
	test "$(grep -c '^function' "$work/lua54.listing")" -gt 1
check_eq "reduce: irsnap's result still crashes toyc --bug=crash" 139 \
	"$(sh -c '"$1" --bug=crash "$2" >/dev/null 2>&1; echo $?' sh "$TOYC" \
		"$out/bench-reduce/irsnap.ir")"

check "llvm: bundle.c's traced sections were compared with opt-14's, under GDB and LLDB" \
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["llvm_sections"] >= 100 and d["llvm_events"] >= 200))' "$BENCH_OUT"

# The table, for a look in the test log.
sed 's/^/# /' "$TMP/table.txt"
check "the README section is written, with the command" \
	grep -q '^make bench ' "$BENCH_README"
check_eq "... and a table row per figure" 25 \
	"$(grep -cE '^\| (dump|trace|print|reduce|peak)' "$BENCH_README")"

done_testing
