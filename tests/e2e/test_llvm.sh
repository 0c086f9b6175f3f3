#!/usr/bin/env bash
# irsnap on Debian's release opt-14 (libLLVM-14.so.1, no debug info),
# through a type donor (issue 28 items 1, 3, 5): `irsnap donor` builds it;
# ir-layout load says which command to run when it is missing or stale and
# refuses one built against other headers; a pattern finds the 140
# function passes' run(); each boundary's pass name comes from the
# symbol's class and its llvm::Function from %rdx (sret), read through the
# donor's types: its SubclassID, argument count and block count equal
# what opt's own -print-after-all shows of that function after that
# pass, pass by pass, live; from a gcore at a boundary; and from the
# kernel core of a crash injected deep into SROA (crash_shim.c), whose
# IR root the search finds in a callee-saved register; from that core,
# with the shipped llvm14.lua, failure.json names the crashing function's
# module as the reducer's input and `irsnap reduce RUN` shrinks it to a
# reproducer on which opt-14 -passes=sroa still crashes the same way.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
source "$IRSNAP_ROOT/tests/e2e/llvm.sh"

PIPE=sroa,early-cse,instcombine,simplifycfg,gvn,reassociate,sccp,dse,adce,instcombine

# The layout and its donor side by side; donors cached for every suite.
mkdir -p "$TMP/lay/llvm14"
cp "$FIXTURES/real/llvm/passes.lua" "$TMP/lay/passes.lua"
cp common/layouts/llvm14/donor.cpp "$TMP/lay/llvm14/donor.cpp"
LAYOUT=$TMP/lay/passes.lua

# --- missing, built, stale ------------------------------------------------
IRSNAP_CACHE=$TMP/empty dbg_batch "$TMP/missing.log" -- opt-14 --version
check "a missing donor: ir-layout load says which command builds it" \
	grep -q "passes.lua:9: donor: no type donor built for layout 'llvm14' .*: run \`irsnap donor $LAYOUT\`" "$TMP/missing.log"
build_donor "$LAYOUT" "$TMP/donor.log"
check "irsnap donor builds it ($(tail -1 "$TMP/donor.log"))" \
	grep -q "^irsnap donor: built .*/donor.o in" "$TMP/donor.log"
obj=$(sed -n 's/^irsnap donor: built \(.*\) in .*/\1/p' "$TMP/donor.log")
check_eq "the donor defines no code or data irsnap could take" "" \
	"$(nm --defined-only "$obj" | awk '$2 ~ /[TtDdBb]/')"
# a header changed since: the stamp remembers another size for one
mkdir -p "$TMP/stale/donors"
cp -r "$(dirname "$obj")" "$TMP/stale/donors/"
stamp=$(ls "$TMP"/stale/donors/*/donor.stamp)
header=$(awk '$1 == "file" && $4 ~ /Function\.h$/ { print $4; exit }' "$stamp")
sed -i "s|^file \([0-9]*\) \(.*\) $header\$|file 1\1 \2 $header|" "$stamp"
IRSNAP_CACHE=$TMP/stale dbg_batch "$TMP/stale.log" -- opt-14 --version
check "a stale donor: ir-layout load names the header that changed" \
	grep -q "the type donor of layout 'llvm14' is stale ($header changed since it was built): run \`irsnap donor $LAYOUT\`" "$TMP/stale.log"

# --- a donor built against other headers is refused ----------------------
# (as a donor of an assertions build of LLVM would record: ABI-breaking
# checks on, where Debian's libLLVM-14 defines DisableABIBreakingChecks)
mkdir -p "$TMP/other/llvm14"
sed 's/"llvm14"/"llvm14-checks"/' "$LAYOUT" >"$TMP/other/passes.lua"
sed 's/irsnap_abi_breaking_checks = LLVM_ENABLE_ABI_BREAKING_CHECKS/irsnap_abi_breaking_checks = 1/' \
	common/layouts/llvm14/donor.cpp >"$TMP/other/llvm14/donor.cpp"
build_donor "$TMP/other/passes.lua" "$TMP/other.log"
# Every run that loads libLLVM-14's symbols gets the live runs' time: a
# sanitized LLDB takes over a minute to read and demangle them on a busy
# machine (the default 60 s cut it off mid-load, saying nothing).
LAYOUT=$TMP/other/passes.lua DBG_TIMEOUT=180 dbg_batch "$TMP/refused.log" \
	-o 'ir-layout show' -- opt-14 --version
check "a donor built with other ABI-breaking checks is refused in one line naming both" \
	grep -q "^${DBG_ERR}ir-layout: the type donor of layout 'llvm14-checks' does not fit the debuggee: it was built with irsnap_abi_breaking_checks 1 (.*donor.o) and libLLVM-14.so.1 has 0 (it defines llvm::DisableABIBreakingChecks): build it against the debuggee's headers with \`irsnap donor .*other/passes.lua\`" "$TMP/refused.log"
check_eq "and the layout is not loaded" 0 \
	"$(grep -c 'irsnap: loaded layout' "$TMP/refused.log")"

# --- the corpus, opt's own sections ----------------------------------------
for f in hash sort; do
	clang-14 -O0 -Xclang -disable-O0-optnone -S -emit-llvm \
		"$FIXTURES/real/llvm/$f.c" -o "$TMP/$f.ll"
	opt-14 -passes="$PIPE" -print-after-all -disable-output "$TMP/$f.ll" \
		2>"$TMP/$f.paa"
done

# summary PAA: "PASS args N blocks B" per function section of opt's print
summary() {
	python3 - "$1" <<-'PY'
	import re, sys
	cur = None
	def flush():
	    if cur:
	        m = re.search(r"^define [^(]*@[^(]*\((.*)\)[^(]*\{$", cur[1], re.M)
	        params = m.group(1) if m else ""
	        depth, n = 0, 1 if params.strip() else 0
	        for ch in params:
	            depth += ch in "([{<"; depth -= ch in ")]}>"
	            n += ch == "," and depth == 0
	        labels = len(re.findall(r"^[^ ;\n][^ \n]*:", cur[1], re.M))
	        print("%s args %d blocks %d" % (cur[0], n, labels + 1))
	for line in open(sys.argv[1]):
	    m = re.match(r"^\*\*\* IR Dump After (\S+) on (.*) \*\*\*$", line)
	    if m:
	        flush()
	        cur = None if m.group(2).startswith(("[module]", "loop")) else [m.group(1), ""]
	    elif cur:
	        cur[1] += line
	flush()
	PY
}
# trace RUN: "PASS args N blocks B" per after snapshot (id 0: a Function)
trace() {
	python3 - "$1" "$IRSNAP_ROOT/tests" <<-'PY'
	import os, sys
	sys.path.insert(0, sys.argv[2])
	import run_doc
	d = run_doc.load(sys.argv[1])
	for e in sorted((e for e in d["events"] if e["phase"] == "after"), key=lambda e: e["seq"]):
	    t = open(os.path.join(sys.argv[1], e["snapshot"]["text"])).read().split()
	    print(e["pass"], "args", t[4], "blocks", t[6]) if t[2] == "0" else print(e["pass"], "not a Function:", *t)
	PY
}

# --- live: every boundary, named by its class, its Function read ----------
for f in hash sort; do
	DBG_TIMEOUT=180 dbg_batch "$TMP/live-$f.log" -o 'ir-layout show' \
		-o 'ir-trace on' -o run -- opt-14 -passes="$PIPE" \
		-disable-output "$TMP/$f.ll"
	run=$(latest_run)
	check "$f: the trace's passes are opt's, in order (llvm-compare)" \
		scripts/llvm-compare --names "$run" "$TMP/$f.paa"
	check_eq "$f: each boundary's llvm::Function through the donor: args and blocks as opt prints them" \
		"$(summary "$TMP/$f.paa")" "$(trace "$run")"
done
check "ir-layout show lists the function passes the pattern finds" \
	grep -qx "  llvm::InstCombinePass::run(llvm::Function&, llvm::AnalysisManager<llvm::Function>&)" "$TMP/live-hash.log"
nfound=$(sed -n "s/^functions matching .* in the debuggee's modules: \([0-9]*\).*/\1/p" "$TMP/live-hash.log")
check "the pattern finds libLLVM-14's function passes ($nfound)" test "${nfound:-0}" -ge 100
check_eq "each event records its IR root" "" \
	"$(run_json "$(latest_run)" '" ".join(str(e["seq"]) for e in d["events"] if not e.get("root", "").startswith("0x") or e.get("root_type") != "Function")')"
check "the run validates" "$IRSNAP" validate "$(latest_run)"

# --- a gcore at a boundary -------------------------------------------------
cd "$TMP"
GDB_TIMEOUT=120 gdb_bare "$TMP/gcore.log" -ex 'set breakpoint pending on' \
	-ex 'break llvm::InstCombinePass::run(llvm::Function&, llvm::AnalysisManager<llvm::Function>&)' \
	-ex run -ex "gcore $TMP/boundary.core" \
	--args opt-14 -passes="$PIPE" -disable-output "$TMP/hash.ll"
cd "$IRSNAP_ROOT"
check "gcore wrote a core at the first InstCombinePass" test -s "$TMP/boundary.core"
DBG_TIMEOUT=180 dbg_batch "$TMP/gcore-dump.log" \
	-o "ir-dump --boundary -o $TMP/gcore.ir" \
	-c "$TMP/boundary.core" /usr/bin/opt-14
want=$(summary "$TMP/hash.paa" | awk '$1 == "EarlyCSEPass" { print; exit }' | cut -d' ' -f2-)
check_eq "on the gcore: ir-dump --boundary reads the Function InstCombinePass was given" \
	"function id 0 $want" "$(cat "$TMP/gcore.ir" 2>/dev/null)"
check "and names the pass" grep -q "ir-dump: pass 'InstCombinePass' at frame #0" "$TMP/gcore-dump.log"

# --- the kernel core of a crash deep inside SROA ---------------------------
cc -shared -fPIC -O1 -o "$TMP/crash_shim.so" \
	"$FIXTURES/real/llvm-shim/crash_shim.c" -ldl
(
	cd "$TMP" && ulimit -c unlimited &&
	IRSNAP_CRASH_IN=SROAPass IRSNAP_CRASH_AFTER=3 \
		LD_PRELOAD=$TMP/crash_shim.so opt-14 -passes="$PIPE" \
		-disable-output "$TMP/hash.ll"
) >"$TMP/crash.log" 2>&1
kcore=$(ls "$TMP"/core* 2>/dev/null | head -1)
check "the shim crashed opt-14 in SROA into a kernel core ($(cat /proc/sys/kernel/core_pattern))" \
	test -n "$kcore"
IRSNAP_DEBUG=S DBG_TIMEOUT=180 dbg_batch "$TMP/kcore.log" \
	-o "ir-dump --boundary -o $TMP/kcore.ir" -o 'ir-report' \
	-c "${kcore:-/nonexistent}" /usr/bin/opt-14
frame=$(sed -n "s/^ir-dump: pass 'SROAPass' at frame #\([0-9]*\) .*/\1/p" "$TMP/kcore.log")
check "ir-dump --boundary finds SROAPass's frame below the crash (#$frame)" \
	test "${frame:-0}" -gt 0
check "its root from a callee-saved register of that frame" \
	grep -qE "irsnap: IR root 0x[0-9a-f]+ from (rbx|rbp|r1[2-5]) of frame $frame" "$TMP/kcore.log"
want=$(summary "$TMP/hash.paa" | awk '$1 == "SROAPass" { print; exit }' | cut -d' ' -f2-)
check_eq "the Function SROA was given, read from the kernel core" \
	"function id 0 $want" "$(cat "$TMP/kcore.ir" 2>/dev/null)"
fail=$(sed -n 's/^ir-report: .*: \(.*failure.json\)$/\1/p' "$TMP/kcore.log")
check_eq "ir-report: the crashing pass" "SIGSEGV SROAPass" \
	"$(json_get "${fail:-/nonexistent}" 'd["signal"]["name"] + " " + d["pass"]["name"]' 2>/dev/null)"

# --- crash -> failure.json -> reduce -> reproducer -------------------------
# The same kernel core, with the shipped llvm14.lua (its donor is the one
# built above: same source, same cache entry): ir-report renders the
# failing Function's Module (reduce { input = "parent" }) as the
# reducer's input, and its reduce command re-runs SROA on it by opt's
# own name for it; `irsnap reduce RUN` shrinks that module while opt-14
# (the shim preloaded, as the test's environment has it) still crashes
# in SROA with SIGSEGV.
cp common/layouts/llvm14.lua "$TMP/lay/llvm14.lua"
LAYOUT=$TMP/lay/llvm14.lua IRSNAP_DEBUG=S DBG_TIMEOUT=180 dbg_batch \
	"$TMP/kcore-module.log" -o 'ir-report' \
	-c "${kcore:-/nonexistent}" /usr/bin/opt-14
fail=$(sed -n 's/^ir-report: .*: \(.*failure.json\)$/\1/p' "$TMP/kcore-module.log")
mrun=$(dirname "${fail:-/nonexistent/x}")
check_eq "failure.json: the reducer's input is the crashing function's module" \
	"input/0000-SROAPass.Module.ll" \
	"$(json_get "${fail:-/nonexistent}" 'd["reduce_input"]' 2>/dev/null)"
# (the debuggee as the debugger names it: GDB resolves opt-14's link)
OPT_EXE='(/usr/lib/llvm-14/bin/opt|/usr/bin/opt-14)'
json_get "${fail:-/nonexistent}" 'd["reduce_command"]' >"$TMP/rc.txt" 2>&1
check "and its reduce command re-runs -passes=sroa (SROAPass by opt's name) on it ($(cat "$TMP/rc.txt"))" \
	grep -qxE "irsnap reduce $mrun/input/0000-SROAPass.Module.ll --crash '$OPT_EXE -disable-output -passes=sroa \\{\\}'" "$TMP/rc.txt"
# (the shim crashes SROA before it changed the IR: the module at the
# crash is the module opt read, so its text is opt -S's, byte for byte)
opt-14 -S "$TMP/hash.ll" -o "$TMP/hash.S.ll"
check_eq "the module from the kernel core is byte-identical to opt-14 -S" "" \
	"$(diff "$TMP/hash.S.ll" "$mrun/input/0000-SROAPass.Module.ll" 2>&1 | head -5)"
check "opt-14 reads and verifies it" \
	opt-14 -verify -disable-output "$mrun/input/0000-SROAPass.Module.ll"
check "the run validates" "$IRSNAP" validate "$mrun"
# LLVM_DISABLE_SYMBOLIZATION: the crash's stack dump without llvm-symbolizer
# (each test's run of opt is the time a reduction takes)
(
	ulimit -c 0
	export IRSNAP_CRASH_IN=SROAPass IRSNAP_CRASH_AFTER=3 \
		LD_PRELOAD=$TMP/crash_shim.so LLVM_DISABLE_SYMBOLIZATION=1
	# The shim is for opt; a sanitized irsnap would refuse to start
	# with another library preloaded before the ASan runtime.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	"$IRSNAP" reduce "$mrun"
) >"$TMP/reduce.log" 2>&1
check "irsnap reduce RUN runs the reduce command from failure.json" \
	grep -qE "^irsnap reduce: running the --crash command from .*failure.json: $OPT_EXE -disable-output -passes=sroa \\{\\}" \
	"$TMP/reduce.log"
red=$mrun/repro/reduced.ll
read -r in_lines in_bytes <<<"$(wc -lc <"$mrun/input/0000-SROAPass.Module.ll")"
read -r out_lines out_bytes <<<"$(wc -lc <"$red" 2>/dev/null || echo "0 0")"
check "the reproducer is smaller: $in_lines -> $out_lines lines, $in_bytes -> $out_bytes bytes" \
	test -s "$red" -a "$out_lines" -lt "$in_lines" -a "$out_bytes" -lt "$in_bytes"
figure "$(grep '^reduced ' "$TMP/reduce.log")"
check "the reproducer is valid IR (opt-14 -verify, no shim)" \
	opt-14 -verify -disable-output "$red"
(
	ulimit -c 0
	IRSNAP_CRASH_IN=SROAPass IRSNAP_CRASH_AFTER=3 \
		LD_PRELOAD=$TMP/crash_shim.so \
		opt-14 -passes=sroa -disable-output "$red"
) >"$TMP/repro.log" 2>&1
status=$?
check_eq "and still crashes opt-14 -passes=sroa with SIGSEGV (128 + 11)" 139 "$status"
check "in SROAPass (its stack dump)" \
	grep -q "llvm::SROAPass::run(llvm::Function&" "$TMP/repro.log"

done_testing
