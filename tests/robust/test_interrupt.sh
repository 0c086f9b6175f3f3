#!/usr/bin/env bash
# Ctrl-C under GDB and LLDB: SIGINT sent to the debugger (kill -INT, as the
# terminal sends it on Ctrl-C) while irsnap runs a layout that would run
# for hours (a loop on a budget of 10^12 instructions, IRSNAP_LUA_STEPS),
# a Lua verifier that never returns, and the walk of a module of four
# million instructions: each command stops at once with one "interrupted"
# line, the previous layout stays, no snapshot is written, and the
# debugger runs the next command (it used to ignore SIGINT until the
# budget ran out).
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb lldb
source "$IRSNAP_ROOT/tests/robust/robust_lib.sh"

# An hour of Lua per call, so that only SIGINT can stop the loops below.
export IRSNAP_LUA_STEPS=1000000000000

"$TOYC" --print-before-all -o /dev/null "$DEMO" 2>"$TMP/demo.err"
toyc_dump "$TMP/demo.err" Before constfold 1 >"$TMP/first.ir"
"$TOYC" --gen=4000000 -o "$TMP/huge.ir"
mkdir -p "$TMP/lay"
printf 'layout { name = "spin", root = "Module" }\nlocal n = 0 while true do n = n + 1 end\n' \
	>"$TMP/lay/spin.lua"
vline=$(grep -n '^verifier { name = "operand-defs", check = function(snap)$' \
	"$LAYOUT" | cut -d: -f1)
sed "${vline}a\\  while true do end" "$LAYOUT" >"$TMP/lay/verifyloop.lua"
# Values inside one node (issue 32 item 1): the module renders each of its
# constants through five value structs laid over it, each showing the
# next eight times (32768 steps a constant, under the load's bound),
# before any function: a walk that visits no node for minutes, where the
# walk used to look for Ctrl-C.
{
	sed 's|^  text = "module @{name}\\n{funcs}",$|  text = "module @{name}\\n{heavy}{funcs}",|' "$LAYOUT"
	cat <<-'EOF'
	for i = 1, 5 do
	  struct("C" .. i) { ctype = "Const", node = false,
	    fields = { a = embed({ offset = 0 }, i < 5 and "C" .. (i + 1)
	                                         or "Const") },
	    text = string.rep("{a}", 8) }
	end
	EOF
} >"$TMP/lay/values.lua"
sed -i 's|^    consts = array { ptr = "consts", count = "nconsts", of = "Const" },$|&\n    heavy  = array { ptr = "consts", count = "nconsts", of = "C1" },|' \
	"$TMP/lay/values.lua"


# interrupter COMM MARKER...: for each MARKER file in turn (the session
# touches it right before a long command), waits for it, half a second
# more, then sends SIGINT to the debugger, the process called COMM among
# this script's.
interrupter() {
	local comm=$1 m pid; shift
	for m in "$@"; do
		wait_for 60 test -e "$m" || return
		nap 0.5
		pid=$(pid_named $$ "$comm") && kill -INT "$pid"
	done
}

# session DBG NAME PROGRAM-INPUT CMD...: DBG stopped at toyc's first
# boundary with the toyc layout loaded, then CMD (in DBG's own syntax,
# "@MARK" touching marker $TMP/NAME-DBG.MARK), logged to $TMP/NAME-DBG.log.
session() {
	local dbg=$1 name=$2 input=$3 log=$TMP/$2-$1.log c args=() markers=()
	shift 3
	if [ "$dbg" = GDB ]; then
		args=(-ex "ir-layout load $LAYOUT" -ex 'break pm_run_pass' -ex run)
		for c in "$@"; do
			case $c in
			@*) args+=(-ex "shell touch $TMP/$name-$dbg.${c#@}")
			    markers+=("$TMP/$name-$dbg.${c#@}") ;;
			=STAMP) args+=(-ex "$STAMP_GDB") ;;
			*) args+=(-ex "$c") ;;
			esac
		done
		args+=(-ex 'echo @@END\n')
		interrupter gdb "${markers[@]}" &
		GDB_TIMEOUT=120 bounded 90 run_gdb "$log" "${args[@]}" \
			--args "$TOYC" -o /dev/null "$input"
	else
		{
			echo "plugin load $PLUGIN"
			echo "ir-layout load $LAYOUT"
			echo 'breakpoint set -n pm_run_pass'
			echo run
			for c in "$@"; do
				case $c in
				@*) echo "platform shell touch $TMP/$name-$dbg.${c#@}"
				    markers+=("$TMP/$name-$dbg.${c#@}") ;;
				=STAMP) echo "$STAMP_LLDB" ;;
				*) echo "$c" ;;
				esac
			done
			echo 'platform shell echo @@END'
			echo kill
		} >"$TMP/$name.cmds"
		# (markers again: the list above ran in a subshell)
		markers=()
		for c in "$@"; do
			case $c in @*) markers+=("$TMP/$name-$dbg.${c#@}") ;; esac
		done
		interrupter lldb-14 "${markers[@]}" &
		LLDB_TIMEOUT=120 bounded 90 lldb_session "$log" "$TMP/$name.cmds" \
			-- "$TOYC" -o /dev/null "$input"
	fi
	local status=$?
	wait
	return $status
}

for dbg in GDB LLDB; do
	# --- a layout that never finishes loading, a verifier that never
	# returns, on the demo
	log=$TMP/lua-$dbg.log
	bad "SIGINT while a layout loads ($dbg)"
	bad "SIGINT while a Lua verifier runs ($dbg)"
	session $dbg lua "$DEMO" \
		@load =STAMP "ir-layout load $TMP/lay/spin.lua" =STAMP \
		ir-status \
		"ir-layout load $TMP/lay/verifyloop.lua" \
		@verify =STAMP ir-verify =STAMP \
		"ir-layout load $LAYOUT" \
		"ir-dump -f text -o $TMP/after-$dbg.ir m"
	st=$?
	check_eq "$dbg: the session ran to its end on its own" \
		"$(failed_status $dbg)" "$st"
	mapfile -t times < <(elapsed "$log")
	read -r wall cpu <<<"${times[0]:-}"
	figure "$dbg: ir-layout load of an hour-long layout, SIGINT 0.5 s in, returned after ${cpu:-(never)} s CPU, ${wall:-(never)} s wall"
	check "$dbg: the load was interrupted at its line" \
		grep -qE "^(error: )?$TMP/lay/spin\.lua:2: interrupted$" "$log"
	check "$dbg: ... and the toyc layout is still the one loaded" \
		grep -q "^layout 'toyc' ($LAYOUT)" "$log"
	read -r wall cpu <<<"${times[1]:-}"
	figure "$dbg: ir-verify with a verifier that never returns, SIGINT 0.5 s in, returned after ${cpu:-(never)} s CPU, ${wall:-(never)} s wall"
	check "$dbg: the verifier was interrupted at its line" \
		grep -qE "^verifier operand-defs: could not run: $TMP/lay/verifyloop\.lua:$((vline + 1)): interrupted$" \
		"$log"
	check "$dbg: ... and ir-verify ran no more verifiers, calling nothing clean" \
		eval "! grep -q '^verifier toyc_verify' '$log' &&
		      grep -q 'no problem found, but a verifier could not run' '$log'"
	check_files_eq "$dbg: the next ir-dump works" \
		"$TMP/first.ir" "$TMP/after-$dbg.ir"
	check "$dbg: the debugger took no SIGINT for itself" \
		eval "! grep -qE '^Quit|KeyboardInterrupt|Interrupted' '$log'"

	# --- a walk of four million instructions
	log=$TMP/walk-$dbg.log
	out=$TMP/huge-$dbg.ir
	bad "SIGINT during the ir-dump of 4M instructions ($dbg)"
	session $dbg walk "$TMP/huge.ir" \
		@dump =STAMP "ir-dump -f both -o $out m" =STAMP \
		ir-status
	st=$?
	check_eq "$dbg: the session ran to its end on its own" \
		"$(failed_status $dbg)" "$st"
	read -r wall cpu <<<"$(elapsed "$log" | head -1)"
	figure "$dbg: ir-dump of 4M instructions, SIGINT 0.5 s in, returned after ${cpu:-(never)} s CPU, ${wall:-(never)} s wall"
	check "$dbg: the walk was interrupted, in one line" \
		grep -qE "^(error: )?ir-dump: interrupted after [0-9]+ nodes$" "$log"
	check "$dbg: ... writing no snapshot, and no temporary file" \
		eval "[ -z \"\$(compgen -G '$out*')\" ]"
	check "$dbg: ir-status still answers" grep -q "^layout 'toyc' (" "$log"
	check "$dbg: ... and the session ran to its last command" \
		grep -q '^@@END' "$log"

	# --- a walk of values only, inside the module node
	log=$TMP/values-$dbg.log
	out=$TMP/values-$dbg.ir
	bad "SIGINT while the walk renders values inside one node ($dbg)"
	session $dbg values "$TMP/huge.ir" "ir-layout load $TMP/lay/values.lua" \
		@dump =STAMP "ir-dump -f text -o $out m" =STAMP ir-status
	st=$?
	check_eq "$dbg: the session ran to its end on its own" \
		"$(failed_status $dbg)" "$st"
	read -r wall cpu <<<"$(elapsed "$log" | head -1)"
	figure "$dbg: ir-dump of values inside one node, SIGINT 0.5 s in, returned after ${cpu:-(never)} s CPU, ${wall:-(never)} s wall"
	check "$dbg: the walk was interrupted, in one line" \
		grep -qE "^(error: )?ir-dump: interrupted after [0-9]+ nodes$" "$log"
	check "$dbg: ... writing no snapshot" \
		eval "[ -z \"\$(compgen -G '$out*')\" ]"
	check "$dbg: ... and the session ran to its last command" \
		grep -q '^@@END' "$log"
done

bad_summary
done_testing
