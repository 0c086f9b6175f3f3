#!/usr/bin/env bash
# Faults from the layout and from the debuggee, under GDB and LLDB:
#  - layouts that loop forever or allocate without bound, in every way we
#    know (VM loops, recursion, runaway string and table functions, C work
#    behind cheap instructions such as sorting a big table or comparing
#    long strings, a computed field at walk time), or nest unions without
#    end or in themselves (once a heap corruption in the compiler): each is
#    stopped by its budget with a FILE:LINE error within a few seconds (the
#    figures are printed), the previous layout stays in place and the next
#    ir-dump works;
#  - the debuggee SIGKILLed from outside while irsnap walks a module of two
#    million instructions: an error or a completed dump with walk errors,
#    never a hang, and the session goes on.
# Every debugger session is bounded by a watchdog that kills it, so a hang
# shows as failed checks, not as a stuck `make test`.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb
source "$IRSNAP_ROOT/tests/robust/robust_lib.sh"

"$TOYC" --print-before-all -o /dev/null "$DEMO" 2>"$TMP/demo.err"
toyc_dump "$TMP/demo.err" Before constfold 1 >"$TMP/first.ir"


# --- layouts that never finish loading ------------------------------------
# A hog that keeps what it allocates is the memory budget's, but on a busy
# machine the collector's work behind its few instructions can make the
# CPU-time charge stop it first: either refusal is right, so those accept
# both (test_sandbox, which can widen the instruction budget, checks that
# memory is the one that trips).
# name|what it does|line 2 of the layout|what the error says. Line 1
# declares the layout; line 2 runs away.
runaways='loop|an endless loop|while true do end|instruction budget
tailcall|endless tail calls|local function f(n) return f(n + 1) end f(1)|instruction budget
recursion|endless recursion|local function f(n) return 1 + f(n + 1) end f(1)|memory budget .*endless recursion
table|a table growing forever|local t = {} while true do t[#t + 1] = #t end|(memory|instruction) budget
strings|small strings kept forever|local t = {} while true do t[#t + 1] = "s" .. #t end|(memory|instruction) budget
doubling|a string doubling forever|local s = "x" while true do s = s .. s end|memory budget
keys|small strings as keys kept forever|local t = {} for i = 1, 1e12 do t["k" .. i] = true end|(memory|instruction) budget
reps|string.rep pieces kept forever|local t = {} for i = 1, 1e12 do t[i] = ("x"):rep(100) .. i end|(memory|instruction) budget
closures|closures kept forever|local t = {} for i = 1, 1e12 do t[i] = function() return i end end|(memory|instruction) budget
garbage|concatenations thrown away forever|for i = 1, 1e12 do local s = "s" .. i end|instruction budget
pattern|a backtracking pattern|local s = ("a"):rep(30) s:find(("a*"):rep(30) .. "b")|instruction budget
move|table.move over 2^63 slots|table.move({}, 1, math.maxinteger - 1, 2)|instruction budget
gsub|a gsub callback that never returns|local s = ("x"):gsub(".", function() while true do end end)|instruction budget
hugerep|one string of a terabyte|local s = ("x"):rep(1 << 40)|(too large|memory budget)
nest200|unions nested 200 deep|local f = scalar "id" for i = 1, 200 do f = union { tag = "op", cases = { OP_ADD = f } } end struct "Instr" { fields = { op = enum "op", u = f } } struct "Module" { }|fields nested more than 16 deep
nest60|unions nested 60 deep|local f = scalar "id" for i = 1, 60 do f = union { tag = "op", cases = { OP_ADD = f } } end struct "Instr" { fields = { op = enum "op", u = f } } struct "Module" { }|fields nested more than 16 deep
selfunion|a union that is its own case|local c = {} local u = union { tag = "op", cases = c } c.OP_ADD = u struct "Instr" { fields = { op = enum "op", u = u } } struct "Module" { }|contains itself
sort|table.sort of 200000 integers forever|local t = {} for i = 1, 2e5 do t[i] = (i * 7919) % 1000003 end while true do table.sort(t) end|instruction budget
concat|table.concat of a million empty strings forever|local t = {} for i = 1, 1e6 do t[i] = "" end while true do local s = table.concat(t) end|instruction budget
insert|table.insert(t, 1, x) into a million elements forever|local t = {} for i = 1, 1e6 do t[i] = i end while true do table.insert(t, 1, 0) t[#t] = nil end|instruction budget
strcmp|two 5 MB strings compared forever|local a, b = ("x"):rep(5e6), ("x"):rep(5e6) while true do local c = a == b or a < b end|instruction budget
utf8len|utf8.len of 10 MB forever|local s = ("x"):rep(1e7) while true do local n = utf8.len(s) end|instruction budget
unpack|table.unpack of 300000 values forever|local t = {} for i = 1, 3e5 do t[i] = i end while true do local a = table.unpack(t) end|instruction budget
bigset|a pattern set of a million characters|local p = "[" .. ("a"):rep(1e6) .. "]" local i = ("b"):rep(1e6):find(p)|instruction budget'
# C work behind cheap VM instructions: each iteration is a few
# instructions and a 4 MiB string built (and collected), so the
# instruction budget alone would take hours to run out.
cwork='cwork|4 MiB strings built in a loop|for i = 1, 1 << 40 do local s = ("x"):rep(1 << 22) end|instruction budget'

# write_layouts LIST: one file $TMP/lay/NAME.lua per line of LIST.
write_layouts() {
	local name what body _
	mkdir -p "$TMP/lay"
	while IFS='|' read -r name what body _; do
		printf 'layout { name = "%s", root = "Module" }\n%s\n' \
			"$name" "$body" >"$TMP/lay/$name.lua"
	done <<<"$1"
}
write_layouts "$runaways"
write_layouts "$cwork"
# The toyc layout with a Lua verifier that never returns.
vline=$(grep -n '^verifier { name = "operand-defs", check = function(snap)$' \
	"$LAYOUT" | cut -d: -f1)
sed "${vline}a\\  while true do end" "$LAYOUT" >"$TMP/lay/verifyloop.lua"

# load_session DBG LOG LIST SECS: DBG at toyc's first boundary, with the
# toyc layout loaded, then each layout of LIST loaded between two time
# stamps, then `ir-layout show` and an ir-dump to $TMP/after-DBG.ir, then
# ir-verify with a runaway verifier between two more; bounded to SECS
# seconds. Returns the session's status (124: killed by
# the watchdog).
load_session() {
	local dbg=$1 log=$2 list=$3 secs=$4 name _ args=() cmds=$TMP/$1.cmds
	if [ "$dbg" = GDB ]; then
		args=(-ex "ir-layout load $LAYOUT" -ex 'break pm_run_pass' -ex run)
		while IFS='|' read -r name _; do
			args+=(-ex "$STAMP_GDB" -ex "ir-layout load $TMP/lay/$name.lua"
			       -ex "$STAMP_GDB")
		done <<<"$list"
		args+=(-ex 'ir-layout show'
		       -ex "ir-dump -f text -o $TMP/after-$dbg.ir m"
		       -ex "ir-layout load $TMP/lay/verifyloop.lua"
		       -ex "$STAMP_GDB" -ex 'ir-verify' -ex "$STAMP_GDB"
		       -ex 'echo @@END\n')
		GDB_TIMEOUT=60 bounded "$secs" run_gdb "$log" "${args[@]}" \
			--args "$TOYC" -o /dev/null "$DEMO"
	else
		{
			echo "plugin load $PLUGIN"
			echo "ir-layout load $LAYOUT"
			echo 'breakpoint set -n pm_run_pass'
			echo run
			while IFS='|' read -r name _; do
				echo "$STAMP_LLDB"
				echo "ir-layout load $TMP/lay/$name.lua"
				echo "$STAMP_LLDB"
			done <<<"$list"
			echo 'ir-layout show'
			echo "ir-dump -f text -o $TMP/after-$dbg.ir m"
			echo "ir-layout load $TMP/lay/verifyloop.lua"
			echo "$STAMP_LLDB"
			echo 'ir-verify'
			echo "$STAMP_LLDB"
			echo 'platform shell echo @@END'
			echo kill
		} >"$cmds"
		bounded "$secs" lldb_session "$log" "$cmds" \
			-- "$TOYC" -o /dev/null "$DEMO"
	fi
}

# check_loads DBG LOG LIST: the errors of a load_session, and the CPU and
# wall time each runaway took, as figures (make bench measures speed; the
# session's own bound catches a hang).
check_loads() {
	local dbg=$1 log=$2 list=$3 name what body msg i=0 wall cpu
	mapfile -t times < <(elapsed "$log")
	while IFS='|' read -r name what body msg; do
		bad "a layout with $what ($dbg)"
		read -r wall cpu <<<"${times[$i]:-}"
		i=$((i + 1))
		figure "$dbg: $what stopped after ${cpu:-(never)} s CPU, ${wall:-(never)} s wall"
		check "$dbg: $what: FILE:LINE error saying why" \
			grep -qE "^(error: )?$TMP/lay/$name\.lua:2: .*$msg" "$log"
		check "$dbg: $what: stopped (its time is a figure)" \
			test -n "$cpu"
	done <<<"$list"
}

for dbg in GDB LLDB; do
	log=$TMP/load-$dbg.log
	# 25 runaways of about a second of CPU each: 150 s of wall time is
	# a hang, not a loaded machine.
	load_session $dbg "$log" "$runaways" 150
	st=$?
	check_eq "$dbg: the session survived every runaway layout" \
		"$(failed_status $dbg)" "$st"
	check_loads $dbg "$log" "$runaways"
	check "$dbg: the toyc layout is still the one loaded" \
		grep -q "^layout toyc (.*toyc.lua), root Module" "$log"
	check_files_eq "$dbg: and the next ir-dump works with it" \
		"$TMP/first.ir" "$TMP/after-$dbg.ir"
	bad "a Lua verifier that never returns ($dbg)"
	# the pair of time stamps after those of the runaway layouts
	n=$(( $(wc -l <<<"$runaways") + 1 ))
	read -r wall cpu <<<"$(elapsed "$log" | sed -n "${n}p")"
	figure "$dbg: ir-verify with a runaway verifier returned after ${cpu:-(never)} s CPU, ${wall:-(never)} s wall"
	check "$dbg: ir-verify with a runaway verifier: stopped (its time is a figure)" \
		test -n "$cpu"
	check "$dbg: ... saying which verifier could not run, with FILE:LINE" \
		grep -qE "^verifier operand-defs: could not run: $TMP/lay/verifyloop\.lua:$((vline + 1)): instruction budget" \
		"$log"
	check "$dbg: ... and not calling the IR clean" \
		grep -qE "^ir-verify: pass 'constfold', Module at 0x[0-9a-f]+: no problem found, but a verifier could not run$" \
		"$log"

	log=$TMP/cwork-$dbg.log
	rm -f "$TMP/after-$dbg.ir"
	# Two runaways of about a second of CPU each: 60 s of wall time is a
	# hang, not a loaded machine (6 s was not enough beside make bench).
	load_session $dbg "$log" "$cwork" 60
	st=$?
	check_eq "$dbg: the session survived C work behind cheap instructions" \
		"$(failed_status $dbg)" "$st"
	check_loads $dbg "$log" "$cwork"
	check_files_eq "$dbg: and the next ir-dump works with the toyc layout" \
		"$TMP/first.ir" "$TMP/after-$dbg.ir"
done

# --- a computed field that never returns, at walk time --------------------
# The toyc layout plus a field computed for every instruction by a
# function that loops: one budget per call would be one per node of the
# module, thousands of seconds on the demo's.
idline=$(grep -n '^    id *= scalar "id",$' "$LAYOUT" | cut -d: -f1)
sed "${idline}a\\    spin = computed(function(node) while true do end end)," \
	"$LAYOUT" >"$TMP/lay/spin.lua"
bad "a computed field that loops forever, walked over the demo (GDB)"
# One budget per walk is about a second; one per call, thousands: 60 s
# tells them apart on a loaded machine too.
bounded 60 robust_session GDB "$TMP/spin.log" 60 \
	"ir-layout load $TMP/lay/spin.lua" 'break pm_run_pass' run \
	=STAMP "ir-dump -f both -o $TMP/spin.ir m" =STAMP \
	"ir-layout load $LAYOUT" "ir-dump -f text -o $TMP/after-spin.ir m" \
	-- "$TOYC" -o /dev/null "$DEMO"
check_eq "GDB: the session survived a runaway computed field" 0 "$?"
read -r wall cpu <<<"$(elapsed "$TMP/spin.log")"
figure "GDB: ir-dump with a runaway computed field returned after ${cpu:-(never)} s CPU, ${wall:-(never)} s wall"
check "GDB: that ir-dump returned (its time is a figure)" test -n "$cpu"
check "GDB: with walk errors naming the layout's FILE:LINE" \
	grep -qE "walk error: .*spin\.lua:$((idline + 1)): instruction budget" \
	"$TMP/spin.log"
check "GDB: and a snapshot that validates" "$IRSNAP" validate "$TMP/spin.ir.json"
check_files_eq "GDB: the next layout and ir-dump work" \
	"$TMP/first.ir" "$TMP/after-spin.ir"

# --- the debuggee killed while irsnap walks it ----------------------------
"$TOYC" --gen=2000000 -o "$TMP/huge.ir"

# killer OUT: once ir-dump's temporary file for OUT appears, waits 0.2 s
# and kills toyc (found among this script's processes) with SIGKILL.
killer() {
	local pid
	wait_for 60 compgen -G "$1.tmp.*" >/dev/null || return
	nap 0.2
	pid=$(pid_named $$ toyc) && kill -9 "$pid"
	echo "$(now_us) $pid" >"$1.killed"
}

for dbg in GDB LLDB; do
	out=$TMP/huge-$dbg.ir
	log=$TMP/huge-$dbg.log
	bad "the debuggee SIGKILLed mid-walk ($dbg)"
	killer "$out" &
	kpid=$!
	t0=$(now_us)
	# (LLDB's closing kill finds toyc gone: one more error line)
	bounded 60 robust_session $dbg "$log" 90 "ir-layout load $LAYOUT" \
		"$(spell ${dbg,,} break pm_run_pass)" run \
		=STAMP "ir-dump -f both -o $out m" =STAMP ir-status \
		"ir-dump -f text -o $out.next m" \
		-- "$TOYC" -o /dev/null "$TMP/huge.ir"
	status=$?
	total=$(( ($(now_us) - t0) / 1000 ))
	wait "$kpid"
	check_eq "$dbg: the session finished on its own (in $total ms)" \
		"$(failed_status $dbg)" "$status"
	secs=$(elapsed "$log" | cut -d' ' -f1)
	killed_at=0
	[ -s "$out.killed" ] && read -r killed_at _ <"$out.killed"
	began=$(grep -m1 '^T[0-9]' "$log" | cut -d' ' -f1 | tr -d T)
	into=$(awk -v k="$killed_at" -v b="$began" \
		'BEGIN { printf "%.3f", k / 1e6 - b }')
	figure "$dbg: toyc killed $into s into ir-dump of 2M instructions, which returned after ${secs:-(never)} s"
	check "$dbg: toyc was killed while ir-dump walked it ($into s of ${secs:-?} s)" \
		awk -v i="$into" -v s="${secs:-0}" 'BEGIN { exit !(i > 0 && i < s) }'
	check "$dbg: that ir-dump returned (after ${secs:-never} s)" \
		test -n "$secs"
	if [ -e "$out.json" ]; then
		check "$dbg: it wrote a snapshot with walk errors recorded" \
			grep -qE "^ir-dump: Module at 0x[0-9a-f]+: [0-9]+ nodes, [0-9]+ bytes read, [1-9][0-9]* walk errors" "$log"
		check "$dbg: ... which validates" "$IRSNAP" validate "$out.json"
	else
		check "$dbg: it gave one error line, and no file" \
			grep -qE "^(error: )?ir-dump: " "$log"
	fi
	no_tmp=$(compgen -G "$out*.tmp.*" | wc -l)
	check_eq "$dbg: no temporary file left behind" 0 "$no_tmp"
	check "$dbg: ir-status still answers" grep -q "^layout 'toyc' (" "$log"
	check "$dbg: the next ir-dump says the process is gone, in one line" \
		grep -qE "^(error: )?ir-dump: .*(process [0-9]+ has exited|no process)" \
		"$log"
	check "$dbg: ... and the session ran to its last command" \
		grep -q '^@@END' "$log"
done

bad_summary
done_testing
