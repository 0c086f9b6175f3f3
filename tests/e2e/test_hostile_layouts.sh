#!/usr/bin/env bash
# Layouts that used to crash or hang $DEBUGGER, and walks that came out
# wrong (issue 32): each now gives one error line naming the layout's line,
# or a right answer, and the session goes on.
#  - item 2: expressions two million operators deep or a million terms
#    long ({=--...--id}, {=id+id+...}, {?id and id ...}) crashed the
#    debugger when the layout loaded or at ir-dump: refused at load.
#  - item 1: value structs 13 deep, each showing the next 8 times (7 *
#    10^10 leaves) hung it for good: refused at load.
#  - item 9: toyc.lua with Symbol a node wrote invalid JSON (`"fields":,`)
#    with 0 walk errors: ir-dump -o writes a valid graph.
#  - item 17: ir-dump -f text at max-bytes 150000, 350000 or 420000 ended
#    mid-line without the <truncated> marker: it always ends with it.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

"$TOYC" --print-before-all "$DEMO" 2>"$TMP/toyc.err" >/dev/null
toyc_dump "$TMP/toyc.err" Before constfold 1 >"$TMP/want.ir"
"$TOYC" --gen=20000 --seed=3 -o "$TMP/gen.ir"

# deep_layout NAME TEXT-EXPR: toyc's layout whose Instr text is the Lua
# expression TEXT-EXPR (built when the layout loads: one line of the file)
deep_layout() {
	sed "s|^  text = \"  {?has_result}{@ref} = {/}{op}\"\$|  text = $2 .. \"  {?has_result}{@ref} = {/}{op}\"|" \
		"$LAYOUT" >"$TMP/$1.lua"
	grep -q "string.rep" "$TMP/$1.lua"
}
deep_layout neg '"{=" .. string.rep("-", 2000000) .. "id}"' &&
deep_layout sum '"{=id" .. string.rep("+id", 1000000) .. "}"' &&
deep_layout and '"{?id" .. string.rep(" and id", 1000000) .. "}x{/}"'
check_eq "the deep layouts are written" 0 "$?"
iline=$(grep -n '^struct "Instr" {$' "$LAYOUT" | cut -d: -f1)

cat >"$TMP/exp.lua" <<'EOF'
layout { name = "exp", root = "V1" }
for i = 1, 13 do
  struct("V" .. i) { ctype = "Module", node = false,
    fields = { a = embed({ offset = 0 }, i < 13 and "V" .. (i + 1) or "M") },
    text = string.rep("{a}", 8) }
end
struct "M" { ctype = "Module", node = false, fields = { n = u32 "nconsts" },
             text = "{n}" }
EOF

sed '0,/^  node = false,                         -- a value, not a graph node$/s///' \
	"$LAYOUT" >"$TMP/symnode.lua"
check "the Symbol layout makes Symbol a node" \
	bash -c "! grep -q 'node = false,                         -- a value' '$TMP/symnode.lua'"

cat >"$TMP/cmds" <<EOF
$(dbg_cmd load)
ir-layout load $LAYOUT
$(dbg_cmd echo @@DEEP)
ir-layout load $TMP/neg.lua
ir-layout load $TMP/sum.lua
ir-layout load $TMP/and.lua
ir-layout load $TMP/exp.lua
ir-status
$(dbg_cmd echo @@DUMP)
$(dbg_cmd break pm_run_pass)
run
ir-dump -f text -o $TMP/after.ir m
ir-layout load $TMP/symnode.lua
ir-dump -f both -o $TMP/sym.ir m
$(dbg_cmd echo @@END)
kill
EOF
dbg_session "$TMP/log" "$TMP/cmds" -- "$TOYC" -o /dev/null "$DEMO"
check_eq "$DBG_NAME read every command" 1 "$(grep -c '^@@END$' "$TMP/log")"
deep=$(dbg_section "$TMP/log" @@DEEP @@DUMP)
for n in neg sum and; do
	check_eq "$n: one line naming the layout line: nested more than 256 deep" 1 \
		"$(grep -cE "^$DBG_ERR$TMP/$n\.lua:$iline: struct Instr: text \".{0,90}\": (expression|condition) '.{0,64}': nested more than 256 deep \(column 1\)$" <<<"$deep")"
done
check_eq "13 nested values, 8 times each: one line naming the struct" 1 \
	"$(grep -c "^$DBG_ERR$TMP/exp.lua:3: struct V1: its text runs more than 1000000 template steps for one V1 (V1 -> V2 -> V3" <<<"$deep")"
check "the toyc layout is still loaded" \
	grep -q "^layout 'toyc' ($LAYOUT)" <<<"$deep"
check_files_eq "and dumps as before" "$TMP/want.ir" "$TMP/after.ir"
check "Symbol as a node: ir-dump -o writes a graph that parses" \
	python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$TMP/sym.ir.json"
check_eq "... with no walk error" 0 \
	"$(json_get "$TMP/sym.ir.json" 'len(d["errors"])')"
check "... and irsnap validate takes it" "$IRSNAP" validate "$TMP/sym.ir.json"

# max-bytes anywhere: the text ends with <truncated>
bad=""
for max in 150000 350000 420000 100000 200000; do
	dbg_batch "$TMP/max.log" -o "$(dbg_cmd set max-bytes $max)" \
		-o "$(dbg_cmd break pm_run_pass)" -o run \
		-o "ir-dump -f text -o $TMP/max-$max.ir m" \
		-- "$TOYC" -o /dev/null "$TMP/gen.ir" >/dev/null
	[ "$(tail -c 11 "$TMP/max-$max.ir")" = "<truncated>" ] ||
		bad="$bad $max:$(tail -c 20 "$TMP/max-$max.ir" | tr '\n' '|')"
done
check_eq "max-bytes 150000 ... 420000: each text ends with <truncated>" "" "$bad"
done_testing
