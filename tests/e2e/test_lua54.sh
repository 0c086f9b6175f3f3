#!/usr/bin/env bash
# Lua 5.4's compiler under $DEBUGGER with the shipped layout
# (common/layouts/lua54.lua): at the boundary where luac's chunk is
# complete (luaU_dump), `ir-dump --boundary` of the main Proto is
# byte-identical to what `luac -l -l` printed in the same process, for
# every file of the corpus (tests/fixtures/real/corpus/*.lua, the LuaJIT
# programs, and tests/fixtures/real/lua54/*.lua, Lua 5.4's own shapes);
# live, at the crash of a luac patched to crash there, and from a core of
# that crash. The compiler's listing is the reference: its addresses
# (`at 0x...`) are the Proto's, so the bytes compare only within one process.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

REAL=${IRSNAP_REAL:-$BUILD/real}
LUAC=$REAL/lua5.4/bin/luac
out=$(BUILD=$BUILD scripts/real-compilers lua5.4 2>&1)
check "scripts/real-compilers built luac ($out)" test -x "$LUAC"
LAYOUT=$IRSNAP_ROOT/common/layouts/lua54.lua	# dbg_batch loads it

# luac_run LISTING FILE: the $DEBUGGER command that runs luac on FILE
# with its listing (-l -l) going to LISTING, the dump to /dev/null.
luac_run() {
	case $DEBUGGER in
	gdb) echo "run -l -l -o /dev/null $2 > $1" ;;
	lldb) echo "process launch -o $1 -- -l -l -o /dev/null $2" ;;
	esac
}

files=("$FIXTURES"/real/corpus/*.lua "$FIXTURES"/real/lua54/*.lua)
check "the corpus has at least 19 files" test "${#files[@]}" -ge 19
nsame=0
for f in "${files[@]}"; do
	name=$(basename "$(dirname "$f")")/$(basename "$f" .lua)
	t=$TMP/${name//\//-}
	dbg_batch "$t.log" -o 'ir-break' -o "$(luac_run "$t.luac" "$f")" \
		-o "ir-dump --boundary -f both -o $t.ir" -o continue -- "$LUAC"
	if cmp -s "$t.luac" "$t.ir" && test -s "$t.ir"; then
		nsame=$((nsame + 1))
		ok "$name: ir-dump at luaU_dump is luac -l -l's listing, byte for byte"
	else
		not_ok "$name: ir-dump at luaU_dump is luac -l -l's listing" \
			"$(diff "$t.luac" "$t.ir" 2>&1 | head -8)" "$(tail -4 "$t.log")"
	fi
	check_eq "$name: ... with no walk error" 1 \
		"$(grep -c "^ir-dump: pass 'luaU_dump' at frame #0 (luaU_dump): Proto at 0x[0-9a-f]*: [0-9]* nodes\?, [0-9]* bytes read, 0 walk errors" "$t.log")"
	check "$name: ... and its JSON graph validates" "$IRSNAP" validate "$t.ir.json"
done
figure "lua54 corpus byte-identical under $DEBUGGER: $nsame of ${#files[@]}"

# The listing is not trivially equal: nested protos, every section.
t=$TMP/lua54-02-upvalues
check_eq "a nested corpus file lists 5 nested functions" 5 \
	"$(grep -c '^function <' "$t.ir")"
check "... and its upvalues by name" grep -q "GETUPVAL.*; n$" "$t.ir"

# A nested prototype by expression, the type from the layout's root: its
# listing is the tail of luac's from its header on (the last child of the
# main chunk, so its subtree ends the listing), its address luac's own.
f=$FIXTURES/real/lua54/02-upvalues.lua
dbg_batch "$TMP/nested.log" -o 'ir-break' -o "$(luac_run "$TMP/nested.luac" "$f")" \
	-o "ir-dump -f text -o $TMP/nested.ir f->p[f->sizep - 1]" -o continue \
	-- "$LUAC"
addr=$(sed -n "s/^ir-dump: .*Proto at \(0x[0-9a-f]*\): .*/\1/p" "$TMP/nested.log")
check "ir-dump f->p[f->sizep - 1] names the Proto it read ($addr)" test -n "$addr"
awk -v a="$addr" 'index($0, " at " a ")") { on = 1; print "" } on' \
	"$TMP/nested.luac" >"$TMP/nested.want"
check "... which luac lists as a function" \
	grep -q "^function <.* at $addr)$" "$TMP/nested.want"
check_files_eq "... and its listing is luac's from that function on" \
	"$TMP/nested.want" "$TMP/nested.ir"

# Live at the crash of a luac whose luaU_dump crashes (test patch
# tests/fixtures/real/lua5.4/01-crash-at-dump.patch): the listing it
# flushed before dying is the reference.
f=$FIXTURES/real/lua54/06-methods.lua
IRSNAP_LUAC_CRASH=1 dbg_batch "$TMP/crash.log" -o "$(luac_run "$TMP/crash.luac" "$f")" \
	-k "ir-dump --boundary -f text -o $TMP/crash.ir" -- "$LUAC"
check "the patched luac crashed at the boundary under $DBG_NAME" \
	grep -q "ir-dump: pass 'luaU_dump' at frame #0 (luaU_dump)" "$TMP/crash.log"
check_files_eq "ir-dump --boundary at the crash is the crashed luac's listing" \
	"$TMP/crash.luac" "$TMP/crash.ir"

# A core of that crash (GDB's gcore, which writes the whole image; LLDB
# 14's save-core keeps the stacks only), then post-mortem under
# $DEBUGGER with no process at all.
IRSNAP_LUAC_CRASH=1 GDB_TIMEOUT=60 gdb_bare "$TMP/gcore.log" \
	-ex "run -l -l -o /dev/null $f > $TMP/core.luac" -ex "gcore $TMP/core" \
	--args "$LUAC"
check "gcore wrote a core of the crashed luac" test -s "$TMP/core"
dbg_batch "$TMP/core.log" -o "ir-dump --boundary -f both -o $TMP/core.ir" \
	-o "$(dbg_cmd echo @@END)" -c "$TMP/core" "$LUAC"
check_eq "$DBG_BATCH ran every command on the core and exited 0" "0 1" \
	"$? $(grep -c '^@@END$' "$TMP/core.log")"
check_eq "ir-dump --boundary on the core finds luaU_dump" 1 \
	"$(grep -c "^ir-dump: pass 'luaU_dump' at frame #[0-9]* (luaU_dump): Proto at" "$TMP/core.log")"
check_files_eq "... and reads the listing luac printed before the crash" \
	"$TMP/core.luac" "$TMP/core.ir"
check "... and its JSON validates" "$IRSNAP" validate "$TMP/core.ir.json"

# ir-trace over a whole luac run: one boundary (before and after
# luaU_dump, which writes the chunk out and changes nothing), a valid run
# directory.
f=$FIXTURES/real/lua54/02-upvalues.lua
dbg_batch "$TMP/trace.log" -o 'ir-trace on' -o "$(luac_run "$TMP/trace.luac" "$f")" \
	-- "$LUAC"
run=$(latest_run)
check_eq "ir-trace records luaU_dump, before and after" \
	"luaU_dump before luaU_dump after" \
	"$(json_get "$run/manifest.json" '" ".join(e["pass"] + " " + e["phase"] for e in d["events"])')"
check_files_eq "... whose before snapshot is luac's listing" "$TMP/trace.luac" \
	"$run/$(json_get "$run/manifest.json" 'd["events"][0]["snapshot"]["text"]')"
check "... and the run validates" "$IRSNAP" validate "$run"

done_testing
