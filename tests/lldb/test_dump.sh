#!/usr/bin/env bash
# ir-dump under LLDB on a live toyc: at a pm_run_pass stop the snapshot text
# is byte for byte what toyc's --print-before-all prints for that pass, by
# any spelling of the root expression, printed or written, and inside the
# pass through --boundary.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lldb_lib.sh"

"$TOYC" --print-before-all "$DEMO" 2>"$TMP/toyc.err" >/dev/null
toyc_dump "$TMP/toyc.err" Before cse 1 >"$TMP/want.ir"
check "toyc dumps a module before its first cse" \
	grep -q '^module @' "$TMP/want.ir"

lldb_batch "$TMP/log" -o 'ir-break ^cse$' -o run \
	-o "ir-dump -f text -o $TMP/m.ir m" \
	-o "ir-dump -f text -o $TMP/cast.ir \"(Module *)m\"" \
	-o "ir-dump -f text -o $TMP/typed.ir m Module" \
	-o "ir-dump -f json -o $TMP/m.json m" \
	-o 'ir-dump m' -o 'ir-status' \
	-o 'breakpoint set -n pass_cse' -o 'ir-break off' -o continue \
	-o "ir-dump --boundary -f text -o $TMP/boundary.ir" \
	-o kill -- "$TOYC" "$DEMO"
check_eq "lldb -b ran every command" 0 "$?"
check "ir-break stopped before pass cse" \
	grep -q "^irsnap: stopped before pass 'cse'" "$TMP/log"
check_files_eq "ir-dump m equals toyc's dump before cse" \
	"$TMP/want.ir" "$TMP/m.ir"
check_files_eq "ir-dump \"(Module *)m\": an expression with blanks" \
	"$TMP/want.ir" "$TMP/cast.ir"
check_files_eq "ir-dump m Module: an explicit type" \
	"$TMP/want.ir" "$TMP/typed.ir"
check_files_eq "ir-dump --boundary from inside pass_cse" \
	"$TMP/want.ir" "$TMP/boundary.ir"
check "ir-dump --boundary named the pass and frame" \
	grep -q "^ir-dump: pass 'cse' at frame #1 (pm_run_pass): Module at" \
	"$TMP/log"
check_eq "JSON snapshot: schema and root type" \
	"irsnap.snapshot/1 Module" \
	"$(json_get "$TMP/m.json" 'd["schema"] + " " + d["root"]["type"]')"
check_eq "JSON snapshot: a node per function and per block of the text" \
	"$(grep -c '^func ' "$TMP/want.ir") $(grep -c '^[^ ].*:$' "$TMP/want.ir")" \
	"$(json_get "$TMP/m.json" '"%d %d" % tuple(sum(1 for n in d["nodes"] if n["type"] == t) for t in ("Function", "Block"))')"
check "JSON snapshot validates" "$IRSNAP" validate "$TMP/m.json"

# Printed to the console: the same text, line for line.
start=$(grep -n -m1 '^module @' "$TMP/log" | cut -d: -f1)
tail -n +"${start:-1}" "$TMP/log" | head -n "$(wc -l <"$TMP/want.ir")" \
	>"$TMP/console.ir"
check_files_eq "ir-dump m prints the text" "$TMP/want.ir" "$TMP/console.ir"
check "ir-status names the layout" grep -q "toyc" "$TMP/log"

done_testing
