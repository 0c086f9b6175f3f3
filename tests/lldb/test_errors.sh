#!/usr/bin/env bash
# A session a user types into: bad layouts, bad expressions, bad types and
# bad settings each give one error line naming what was wrong, and leave
# LLDB running with the next command working. Also help and loading twice.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lldb_lib.sh"

printf 'layout { name = "bad", root = "Module" }\nstruct "Module" {\n' \
	>"$TMP/syntax.lua"
printf 'layout { name = "bad", root = "Module" }\nstruct "Module" { fields = { x = scalar "no_such_field" } }\n' \
	>"$TMP/field.lua"

cat >"$TMP/cmds" <<EOF
plugin load $PLUGIN
plugin load $PLUGIN
ir-layout load $TMP/syntax.lua
ir-layout load $LAYOUT
ir-layout load $TMP/field.lua
ir-layout show
breakpoint set -n pass_cse
run
ir-dump no_such_variable
ir-dump m NoSuchType
ir-dump -f yaml m
ir-set max-nodes lots
ir-set format json
ir-set
ir-trace sideways
ir-dump -f text -o $TMP/after-errors.ir m
help ir-dump
kill
EOF
lldb_session "$TMP/log" "$TMP/cmds" -- "$TOYC" "$DEMO"
check_eq "LLDB read every command and exited normally" 0 "$?"
check "a Lua syntax error names the file and line" \
	grep -qE "^error: .*syntax\.lua:[0-9]+: " "$TMP/log"
check "a field missing from debug info names the field" \
	grep -qE "^error: .*field\.lua.*no_such_field" "$TMP/log"
check "a bad expression: one error line naming it" \
	grep -q "^error: .*no_such_variable" "$TMP/log"
check "a type the layout lacks: named, with the types it has" \
	grep -q "^error: ir-dump: no type 'NoSuchType' in layout 'toyc'" \
	"$TMP/log"
check "a bad format" grep -q "^error: ir-dump: -f takes text, json or both" \
	"$TMP/log"
check "a bad count" grep -q "^error: .*max-nodes.*lots" "$TMP/log"
check "a bad subcommand" grep -q "^error: ir-trace: usage" "$TMP/log"
check "ir-set shows the settings" grep -qx "format json" "$TMP/log"
"$TOYC" --print-before-all "$DEMO" 2>"$TMP/toyc.err" >/dev/null
toyc_dump "$TMP/toyc.err" Before cse 1 >"$TMP/want.ir"
check_files_eq "after all that, the first layout is in place and ir-dump works" \
	"$TMP/want.ir" "$TMP/after-errors.ir"
check "help ir-dump shows the console's help with an example" \
	grep -q "Example: ir-dump -o" "$TMP/log"

done_testing
