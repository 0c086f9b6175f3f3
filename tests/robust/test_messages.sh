#!/usr/bin/env bash
# Messages (issue 14, item 13): text from a layout, a run directory or the
# debuggee reaches the terminal with its control characters escaped, so a
# hostile name cannot rewrite it (under GDB, LLDB and the CLI); and the
# messages that named the wrong place or said too little: an absurd count
# blamed on the node that met it, a run directory's error naming its file
# twice, `irsnap reduce DIR` saying ":-1:", `irsnap diff DIR` saying "no
# such file", a truncated core not saying so.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers lldb

ESC=$'\e' BEL=$'\a' CR=$'\r'
# raw NAME FILE: FILE holds no ESC, BEL or CR byte.
raw() {
	if LC_ALL=C grep -q "[$ESC$BEL$CR]" "$2"; then
		not_ok "$1" "$(LC_ALL=C grep -n "[$ESC$BEL$CR]" "$2" | head -3 | cat -v)"
	else ok "$1"; fi
}

# ---- a layout whose error message is an escape sequence -------------------
printf 'error("\\27]0;owned\\7\\27[2J\\rline1\\nline2")\n' >"$TMP/hostile.lua"
odd=$TMP/$'odd\e[31mname.lua'
run_gdb "$TMP/gdb.log" -ex "ir-layout load $TMP/hostile.lua" \
	-ex "ir-layout load $odd" -ex 'echo @@END\n' "$TOYC"
printf '%s\n' "plugin load $PLUGIN" "ir-layout load $TMP/hostile.lua" \
	"ir-layout load $odd" "platform shell echo @@END" >"$TMP/lldb.cmds"
lldb_session "$TMP/lldb.log" "$TMP/lldb.cmds" "$TOYC"
# (LLDB echoes each command of the script, odd name and all: not irsnap's)
grep -v '^(lldb) ' "$TMP/lldb.log" >"$TMP/lldb.out"
cp "$TMP/gdb.log" "$TMP/gdb.out"
for dbg in gdb lldb; do
	log=$TMP/$dbg.out
	check "$dbg ran every command" grep -q '^@@END' "$log"
	raw "$dbg: no ESC, BEL or CR reaches the terminal" "$log"
	check "$dbg: the layout's message, escaped, on one line" \
		grep -qF 'hostile.lua:1: \e]0;owned\x07\e[2J\rline1\nline2' "$log"
	check "$dbg: a file name with control characters, escaped" \
		grep -qF 'odd\e[31mname.lua: cannot open: No such file' "$log"
done

# ---- a run directory with control characters in its names -----------------
gdb_trace_toyc "$TMP/trace.log" --bug=assert "$DEMO"
RUN=$(latest_run)
H=$TMP/hostile-run
cp -r "$RUN" "$H"
python3 - "$H" <<'EOF'
import json, os, sys
d = sys.argv[1]
bad = "\x1b]0;owned\x07\x1b[2J\r"
m = json.load(open(os.path.join(d, "manifest.json")))
for e in m["events"]:
    e["pass"] += bad
m["debuggee"]["args"] = bad
m["layout"]["name"] = bad
json.dump(m, open(os.path.join(d, "manifest.json"), "w"))
f = json.load(open(os.path.join(d, "failure.json")))
f["pass"]["name"] += bad
f["message"] = bad + "boom"
f["backtrace"][0]["function"] = bad
f["run_id"] = "x" + bad     # also a validate problem, quoting it
json.dump(f, open(os.path.join(d, "failure.json"), "w"))
EOF
"$IRSNAP" show "$H" >"$TMP/show.out" 2>&1
raw "show: no ESC, BEL or CR from the run reaches the terminal" "$TMP/show.out"
check "show: the names shown escaped" grep -qF 'constfold\e]0;owned\x07\e[2J\r' "$TMP/show.out"
"$IRSNAP" validate "$H" >"$TMP/validate.out" 2>&1
raw "validate: none in its problems either" "$TMP/validate.out"
check "validate: the problem quotes the value escaped" \
	grep -qF '$.run_id: "x\e]0;owned\x07\e[2J\r"' "$TMP/validate.out"
t=$(json_get "$H/manifest.json" 'd["events"][0]["snapshot"]["text"]')
printf '; \e[2J\r\n' >>"$H/$t"
"$IRSNAP" diff "$H" 1 >"$TMP/diff.out" 2>&1
raw "diff: none in the IR text it shows" "$TMP/diff.out"

# ---- the place a message names ---------------------------------------------
run_gdb "$TMP/count.log" -ex "ir-layout load $LAYOUT" -ex 'break pm_run_pass' -ex run \
	-ex 'set var m->nconsts = 2147483648' -ex "ir-dump -f text -o $TMP/c.ir m" \
	--args "$TOYC" -o /dev/null "$DEMO"
check "nconsts = 2^31 is blamed on the Module's field consts" \
	grep -qE '^  walk error: Module at 0x[0-9a-f]+, field consts: count 2147483648 exceeds the limit' "$TMP/count.log"
check "... not on an Instr" bash -c "! grep -q 'Instr at .*, field consts' '$TMP/count.log'"
check "... and the operands say the count was refused, not that it is 0" \
	grep -q 'index 0 into Module.consts, whose count 2147483648 was refused' "$TMP/count.log"

mkdir -p "$TMP/empty"
"$IRSNAP" report "$TMP/empty" -o "$TMP/x.html" >"$TMP/report.out" 2>&1
check_eq "report of a folder with no run: one line" 1 "$(wc -l <"$TMP/report.out")"
check_eq "... naming the folder and its missing manifest once, as show does" \
	"1 1" "$(grep -c "^irsnap: $TMP/empty: not a run directory" "$TMP/report.out") $(grep -o "no manifest.json" "$TMP/report.out" | wc -l)"
"$IRSNAP" reduce "$TMP/empty" >"$TMP/reduce.out" 2>&1
check "reduce of a folder with no failure.json: no ':-1:'" \
	bash -c "! grep -q ':-1' '$TMP/reduce.out'"
check "... saying what is missing" grep -q "$TMP/empty: no failure.json" "$TMP/reduce.out"
"$IRSNAP" diff "$TMP/empty" "$TMP/empty" >"$TMP/diffdir.out" 2>&1
check "diff of a directory: not 'no such file'" \
	bash -c "! grep -q 'no such file' '$TMP/diffdir.out'"
check "... saying what to give" grep -q 'a directory, but not a run directory: give two snapshot files, a run directory and a pass, or two run directories' "$TMP/diffdir.out"
"$IRSNAP" diff "$RUN" 1 >/dev/null 2>&1
check_eq "diff RUN SEQ: the pass's before and after (they differ: exit 1)" 1 "$?"

# ---- a truncated core ------------------------------------------------------
run_gdb "$TMP/core.log" -ex "ir-layout load $LAYOUT" -ex run -ex "gcore $TMP/core" \
	--args "$TOYC" --bug=crash "$DEMO"
size=$(stat -c %s "$TMP/core")
head -c $((size * 98 / 100)) "$TMP/core" >"$TMP/core.cut"
printf '%s\n' "plugin load $PLUGIN" "ir-layout load $LAYOUT" \
	"ir-dump --boundary -f text -o $TMP/cut.ir" "platform shell echo @@END" \
	>"$TMP/cut.cmds"
lldb_session "$TMP/cut.log" "$TMP/cut.cmds" -c "$TMP/core.cut" "$TOYC"
check "LLDB on a truncated core: ir-dump --boundary says the core is truncated" \
	grep -qE "ir-dump: no pass boundary .*: core file $TMP/core.cut is truncated: [0-9]+ bytes, but its program headers say [0-9]+" "$TMP/cut.log"
lldb_session "$TMP/whole.log" "$TMP/cut.cmds" -c "$TMP/core" "$TOYC"
check "... and not on the whole core" bash -c "! grep -q 'truncated' '$TMP/whole.log'"

done_testing
