#!/usr/bin/env bash
# A session a user types into $DEBUGGER: bad layouts, bad expressions, bad
# types, bad roots and bad settings (irsnap's ir-set and the debugger's own
# setting commands) each give one error line naming what was wrong, and
# leave the debugger running with the previous layout and the next command
# working. Also loading irsnap twice, and (GDB) from a Python script.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

"$TOYC" --print-before-all "$DEMO" 2>"$TMP/toyc.err" >/dev/null
toyc_dump "$TMP/toyc.err" Before cse 1 >"$TMP/want.ir"

printf 'layout { name = "bad", root = "Module" }\nstruct "Module" {\n' \
	>"$TMP/syntax.lua"
# Broken on line 3 (Lua reports it where the file ends).
printf 'layout { name = "bad", root = "Module" }\n\nstruct "Module" {{\n' \
	>"$TMP/bad.lua"
printf 'layout { name = "bad", root = "Module" }\nstruct "Module" { fields = { x = scalar "no_such_field" } }\n' \
	>"$TMP/field.lua"
# A global the debuggee does not have, named on line 4.
sed 's/global("toyc_optab")/\n      global("no_such_table")/' "$LAYOUT" \
	>"$TMP/global.lua"
gline=$(grep -n 'no_such_table' "$TMP/global.lua" | cut -d: -f1)

cat >"$TMP/cmds" <<EOF
$(dbg_cmd load)
$(dbg_cmd echo @@LAYOUTS)
ir-layout load $TMP/syntax.lua
ir-layout load $LAYOUT
ir-layout load $TMP/bad.lua
ir-layout load $TMP/field.lua
ir-layout load $TMP/missing.lua
ir-layout load $TMP/global.lua
ir-layout show
$(dbg_cmd break pass_cse)
run
$(dbg_cmd echo @@DUMPS)
ir-dump no_such_variable
ir-dump m NoSuchType
ir-dump '(Module *)8'
ir-dump -f yaml m
ir-trace sideways
$(dbg_cmd echo @@IR-SET)
ir-set max-nodes lots
ir-set format xml
ir-set max-depth deep
ir-set max-depth
ir-set format json
ir-set
$(dbg_cmd echo @@NATIVE)
$(dbg_cmd set format xml)
$(dbg_cmd set max-depth deep)
$(dbg_cmd show max-depth)
$(dbg_cmd echo @@AFTER)
ir-dump -f text -o $TMP/after-errors.ir m
$(dbg_cmd echo @@END)
kill
EOF
dbg_session "$TMP/log" "$TMP/cmds" -- "$TOYC" "$DEMO"
status=$?
# ir-* commands failed: `gdb -batch` says so with 1 (irsnap's exit rule);
# LLDB's `command source -e false` was told to go on regardless.
session_status=0
[ "$DEBUGGER" = gdb ] && session_status=1
check_eq "$DBG_NAME read every command and exited with $session_status" "$session_status 1" \
	"$status $(grep -c '^@@END$' "$TMP/log")"

layouts=$(dbg_section "$TMP/log" @@LAYOUTS @@DUMPS)
check "a Lua syntax error names the file and line" \
	grep -qE "^$DBG_ERR$TMP/syntax\.lua:[0-9]+: " <<<"$layouts"
check_eq "a bad layout gives FILE:LINE: message" 1 \
	"$(grep -c "^$DBG_ERR$TMP/bad.lua:[0-9]*: " <<<"$layouts")"
check "a field missing from debug info names the field" \
	grep -qE "^$DBG_ERR.*field\.lua.*no_such_field" <<<"$layouts"
check_eq "a missing layout file is named" 1 \
	"$(grep -c "missing.lua" <<<"$layouts")"
check_eq "a missing global: one line naming it and the layout line" \
	"${DBG_ERR}$TMP/global.lua:$gline: Instr.op: global 'no_such_table': no such global variable in the debuggee (no global variable 'no_such_table')" \
	"$(grep "no_such_table" <<<"$layouts")"

dumps=$(dbg_section "$TMP/log" @@DUMPS @@IR-SET)
check_eq "a bad expression: one line naming it and $DBG_NAME's reason" \
	"${DBG_ERR}ir-dump: cannot evaluate 'no_such_variable': $(dbg_says no-symbol no_such_variable)" \
	"$(grep "no_such_variable" <<<"$dumps")"
check_eq "an unknown TYPE lists the layout's types" 1 \
	"$(grep -c "^${DBG_ERR}ir-dump: no type 'NoSuchType' in layout 'toyc' (types: .*Module" <<<"$dumps")"
check_eq "an unreadable root is one ir-dump line naming the address" 1 \
	"$(grep -c "^${DBG_ERR}ir-dump: .*0x8" <<<"$dumps")"
check_eq "a bad format" 1 \
	"$(grep -c "^${DBG_ERR}ir-dump: -f takes text, json or both, not 'yaml'" <<<"$dumps")"
check_eq "a bad subcommand" 1 \
	"$(grep -c "^${DBG_ERR}ir-trace: usage: ir-trace on " <<<"$dumps")"

irset=$(dbg_section "$TMP/log" @@IR-SET @@NATIVE)
check_eq "ir-set: a bad count" 1 \
	"$(grep -c "^${DBG_ERR}ir-set: max-nodes must be a count (like 1000, 64K, 4G), not 'lots'" <<<"$irset")"
check_eq "ir-set: a bad format" 1 \
	"$(grep -c "^${DBG_ERR}ir-set: format must be auto, text, json or both, not 'xml'" <<<"$irset")"
check_eq "ir-set: a bad setting is refused in one line" 1 \
	"$(grep -c "^${DBG_ERR}ir-set: max-depth must be a count (like 1000, 64K, 4G), not 'deep'" <<<"$irset")"
check_eq "... and the setting keeps its value" 2 \
	"$(grep -cx 'max-depth 10000' <<<"$irset")"
check "ir-set shows the settings" grep -qx "format json" <<<"$irset"

native=$(dbg_section "$TMP/log" @@NATIVE @@AFTER)
check_eq "$DBG_NAME's own setting command refuses a format it does not know" 1 \
	"$(grep -cxF "$(dbg_says refused-format xml)" <<<"$native")"
# GDB's `set irsnap` is no ir-set: its errors do not say "ir-set:"
native_prefix="ir-set"
[ "$DEBUGGER" = gdb ] && native_prefix="irsnap"
check_eq "... and a bad count, in one line, as $(dbg_cmd set max-depth deep | cut -d' ' -f1-2)" 1 \
	"$(grep -c "^${DBG_ERR}$native_prefix: max-depth must be a count (like 1000, 64K, 4G), not 'deep'" <<<"$native")"
check_eq "... and the setting keeps its value" 1 \
	"$(grep -cxF "$(dbg_says shown max-depth 10000)" <<<"$native")"

check_files_eq "after all those errors the previous layout still dumps" \
	"$TMP/want.ir" "$TMP/after-errors.ir"
check "no internal error of irsnap reached the user" \
	bash -c "! grep -qE '$DBG_INTERNAL_ERROR' '$TMP/log'"

# Loaded from a Python script (`gdb -x run.py` sourcing irsnap.py): GDB
# leaves __main__.__file__ naming the outer script, which irsnap.py once
# took for its own path and ran again.
if only_under gdb "LLDB loads a plugin library: no script of its own to source it from"; then
	check "sourcing irsnap.py again says it is already loaded" \
		grep -q '^irsnap: already loaded' "$TMP/log"
	cat >"$TMP/outer.py" <<-EOF
	import gdb
	gdb.write("outer script ran\\n")
	gdb.execute("$(dbg_cmd load)")
	gdb.execute("$(dbg_cmd load)")
	gdb.execute("ir-layout load $LAYOUT")
	gdb.write("layout loaded\\n")
	EOF
	gdb_bare "$TMP/outer.log" -x "$TMP/outer.py" "$TOYC"
	check_eq "a Python script that sources irsnap.py runs once" 1 \
		"$(grep -c '^outer script ran' "$TMP/outer.log")"
	check "... and irsnap's commands work from it" \
		grep -q '^layout loaded' "$TMP/outer.log"
	check "... and sourcing it again says it is already loaded" \
		grep -q '^irsnap: already loaded' "$TMP/outer.log"
fi

# --- a root of the wrong type: one line, unless the user names the type --
cat >"$TMP/roots" <<EOF2
ir-layout load $LAYOUT
ir-break ^cse\$
run
$(dbg_cmd echo @@WRONG)
ir-dump pass
ir-verify pass
$(dbg_cmd echo @@NAMED)
ir-dump -f text -o $TMP/pass-as-module.ir pass Module
ir-dump -f text -o $TMP/m.ir m
$(dbg_cmd echo @@END)
kill
EOF2
dbg_session "$TMP/roots.log" "$TMP/roots" -- "$TOYC" "$DEMO"
check_eq "ir-dump pass (a Pass *): one line saying so, no walk of it" \
	"${DBG_ERR}ir-dump: 'pass' is a Pass *, not a Module * (layout type Module); to walk it as Module anyway, name the type: ir-dump pass Module
${DBG_ERR}ir-verify: 'pass' is a Pass *, not a Module * (layout type Module); to walk it as Module anyway, name the type: ir-verify pass Module" \
	"$(dbg_section "$TMP/roots.log" @@WRONG @@NAMED | grep -v '^$')"
check "... and naming the type walks it anyway" \
	test -e "$TMP/pass-as-module.ir"
check_files_eq "... while m, a Module *, dumps as before" "$TMP/want.ir" "$TMP/m.ir"

# --- a run directory that cannot be made: said once, not at every pass ----
dbg_batch "$TMP/nodir.log" -o "$(dbg_cmd set dir /proc/irsnap-cannot)" \
	-o 'ir-trace on' -o run -- "$TOYC" "$DEMO"
check_eq "an unusable dir: one error line for the whole run, not one per pass" 1 \
	"$(grep -c 'cannot create a run directory' "$TMP/nodir.log")"
check "... saying tracing is off until a setting changes" \
	grep -q 'no more tracing until a setting changes or ir-trace on is given again' \
	"$TMP/nodir.log"
check "... and the program still ran to its end" grep -q "$DBG_EXITED_0" \
	"$TMP/nodir.log"

# ---- help lists what a user may type, nothing internal ----------------------
if only_under lldb "GDB's help lists the ir-* commands under their own class; irsnap adds none internal there"; then
	dbg_batch "$TMP/help.log" -o help -- "$TOYC" "$DEMO"
	check "help lists the ir-* commands" grep -q '^  ir-dump  *-- ' "$TMP/help.log"
	check_eq "... and no internal one (the stop hook runs ir-report --at-stop)" "" \
		"$(grep -E '^  ir-_' "$TMP/help.log")"
fi

done_testing
