#!/usr/bin/env bash
# Boundaries chosen by a pattern over symbol names (issue 27 item 7):
# `boundary { functions = { match = RE } }` takes every function of the
# debuggee's modules whose name RE finds, ir-layout show lists them before
# the program runs, and a trace stops at each, the pass named by RE's
# first group, in toyc's own order.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

# toyc's layout with its pass manager boundary replaced by its pass
# functions (pass_cse(Module *m, ...), pass_dce(Module *mod, ...)), found
# by a pattern; pass_lookup is no pass.
LAYOUT=$TMP/match.lua
# (a boundary may span lines: up to the one that closes it)
sed '/^boundary {/,/}[[:space:]]*$/d' "$FIXTURES/toyc/toyc.lua" >"$LAYOUT"
cat >>"$LAYOUT" <<'LUA'
boundary { functions = { match = "^pass_(co[a-z]+|cse|dce|s[a-z]+)$" },
           ir = { "m", "mod" } }
LUA

"$TOYC" --print-after-all "$DEMO" >/dev/null 2>"$TMP/toyc.err"
passes=$(sed -n 's/^; \*\*\* IR Dump After \(.*\) \*\*\*$/\1/p' "$TMP/toyc.err")
fns=$(nm "$TOYC" | awk '$2 == "T" && $3 ~ /^pass_(co[a-z]+|cse|dce|s[a-z]+)$/ { print $3 }' | sort)
check "toyc has pass functions the pattern finds" test -n "$fns"

# --- ir-layout show, before the program runs ------------------------------
dbg_batch "$TMP/show.log" -o 'ir-layout show' -- "$TOYC" "$DEMO"
check_eq "ir-layout show lists the functions the pattern finds" "$fns" \
	"$(sed -n 's/^  \(pass_[a-z]*\)$/\1/p' "$TMP/show.log" | sort)"
check "ir-layout show counts them" \
	grep -q "functions matching /^pass_(co\[a-z\]+|cse|dce|s\[a-z\]+)\$/ in the debuggee's modules: $(wc -l <<<"$fns")" "$TMP/show.log"

# --- a trace stops at each, named by the group -----------------------------
DBG_TIMEOUT=90 dbg_batch "$TMP/trace.log" -o 'ir-trace on' -o run \
	-- "$TOYC" "$DEMO"
check_eq "$DBG_BATCH exits 0 when the program does" 0 "$?"
run=$(latest_run)
check_eq "one before/after pair per pass, named by the match's group, in toyc's order" \
	"$(awk '{ n++; print n, $0, "before"; print n, $0, "after" }' <<<"$passes")" \
	"$(events "$run" | cut -d' ' -f1-3)"
bad=""
while read -r seq pass phase text; do
	[ "$phase" = after ] || continue
	n=$(events "$run" | awk -v p="$pass" -v s="$seq" '$2 == p && $3 == "after" && $1 <= s' | wc -l)
	toyc_dump "$TMP/toyc.err" After "$pass" "$n" >"$TMP/want.ir"
	cmp -s "$TMP/want.ir" "$run/$text" || bad+=" $text"
done < <(events "$run")
check_eq "every after snapshot equals toyc's own dump" "" "$bad"

# --- ir-trace filters the matched passes by their names -----------------
DBG_TIMEOUT=90 dbg_batch "$TMP/dce.log" -o 'ir-trace on ^dce$' -o run \
	-- "$TOYC" "$DEMO"
check_eq "ir-trace on ^dce\$ records only dce" \
	"$(grep -cx dce <<<"$passes")" \
	"$(events "$(latest_run)" | awk '$3 == "after"' | grep -c ' dce ')"

# --- a bad pattern is refused at its line ----------------------------------
printf 'layout { name = "m" }\nstruct "Module" { fields = {} }\nboundary { functions = { match = "(" }, ir = "m" }\n' >"$TMP/bad.lua"
LAYOUT=$TMP/bad.lua dbg_batch "$TMP/bad.log" -- "$TOYC" "$DEMO"
check "a pattern that does not compile is an error at its line" \
	grep -q "bad.lua:3: boundary: functions = { match = \"(\" }" "$TMP/bad.log"

done_testing
