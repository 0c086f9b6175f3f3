#!/usr/bin/env bash
# A layout whose only Lua is pure renders from the bytes it reads, so a
# trace copies a snapshot nothing it read has changed in (same_as), as
# docs/layout.md promises, under $DEBUGGER (issue 27 item 11). Here the
# Module has a pure computed field that reads nothing, and fields only Lua
# could read: the string table's newest chunk, which the test points at a
# megabyte of its own and writes into between two passes. A node table
# that read every field read that megabyte, and the next pass's before
# was walked again; one that reads what the function asks copies it.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

python3 - "$LAYOUT" "$TMP/pure.lua" <<'EOF'
import sys
src = open(sys.argv[1]).read()
src = src.replace('''struct "Module" {
  fields = {
''', '''-- what only Lua could read: the string table's newest chunk
struct "Chunk" { ctype = "Chunk", size = 65536, node = false,
                 fields = { tail = u64(40000) } }
struct "StrTab" { ctype = "StrTab", node = false,
                  fields = { chunk = ptr("chunk", "Chunk") } }

struct "Module" {
  fields = {
    nothing = computed(pure(function(n) return "" end)),
    st      = ptr("strtab", "StrTab"),
''', 1)
src = src.replace('text = "module @{name}\\n{funcs}"',
                  'text = "module @{name}{nothing}\\n{funcs}"', 1)
assert '{nothing}' in src
open(sys.argv[2], 'w').write(src)
EOF

# The chunk the layout reaches becomes a megabyte of its own (its own
# pages, which nothing the text shows shares), chained before the old one
# so toyc frees both; after the first pass, a byte of it changes.
case $DEBUGGER in
gdb)
	chunk=(-o 'set var $b = (Chunk *) calloc(1, 1 << 20)'
	       -o 'set var $b->prev = m->strtab->chunk'
	       -o 'set var m->strtab->chunk = $b')
	poke='set var ((char *)$b)[40000] = 7' ;;
lldb)
	chunk=(-o 'expr Chunk *$b = (Chunk *)(void *)calloc(1, 1 << 20)'
	       -o 'expr $b->prev = m->strtab->chunk'
	       -o 'expr m->strtab->chunk = $b')
	poke='expr ((char *)$b)[40000] = 7' ;;
esac
dbg_batch "$TMP/pure.log" -o "ir-layout load $TMP/pure.lua" \
	-o 'ir-trace on' -o 'ir-break --both' -o run "${chunk[@]}" \
	-o continue -o "$poke" -o continue -o continue -o continue \
	-- "$TOYC" --passes=constfold,dce "$DEMO" -o /dev/null
check_eq "$DBG_NAME traced two passes, stopping at each boundary (exit 0)" \
	0 "$?"
run=$(latest_run)
check_eq "four events: constfold and dce, before and after" \
	"constfold before,constfold after,dce before,dce after" \
	"$(events "$run" | awk '{ printf "%s%s %s", (NR > 1 ? "," : ""), $2, $3 }')"
check_eq "dce's before is a copy of constfold's after: what the layout read did not change" \
	"1 after" \
	"$(run_json "$run" \
		'"%d %s" % (d["events"][2]["same_as"]["seq"], d["events"][2]["same_as"]["phase"]) if "same_as" in d["events"][2] else "-"')"
done_testing
