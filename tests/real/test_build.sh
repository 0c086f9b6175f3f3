#!/usr/bin/env bash
# The real compilers the tests use, from Debian's source packages
# (scripts/real-compilers): built with debug info, their own printers
# working on the corpus (tests/fixtures/real/corpus/*.lua). The layouts
# that read their IR are proven against these printers elsewhere.
. "$(dirname "$0")/../lib.sh"

out=$(BUILD=$BUILD scripts/real-compilers 2>&1)
check_eq "scripts/real-compilers builds luajit and lua5.4" 0 $?
REAL=${IRSNAP_REAL:-$BUILD/real}	# scripts/real-compilers built them there
LUAJIT=$REAL/luajit/bin/luajit
LUAC=$REAL/lua5.4/bin/luac
for p in "$LUAJIT" "$REAL/lua5.4/bin/lua" "$LUAC"; do
	[ -x "$p" ] && ok "built ${p#$BUILD/}" || not_ok "built ${p#$BUILD/}" "$out"
done
grep -q 'luajit_2\.1' "$REAL/src/luajit/.version" &&
	ok "LuaJIT is Debian's 2.1 source package ($(cat "$REAL/src/luajit/.version"))" ||
	not_ok "LuaJIT is Debian's 2.1 source package" "$(cat "$REAL/src/luajit/.version" 2>&1)"
grep -q 'lua5\.4_5\.4' "$REAL/src/lua5.4/.version" &&
	ok "Lua is Debian's 5.4 source package ($(cat "$REAL/src/lua5.4/.version"))" ||
	not_ok "Lua is Debian's 5.4 source package" "$(cat "$REAL/src/lua5.4/.version" 2>&1)"
again=$(BUILD=$BUILD scripts/real-compilers 2>&1)
case $again in *"up to date"*"up to date"*) ok "a second run reuses both builds" ;;
*) not_ok "a second run reuses both builds" "$again" ;; esac

# Debug info for the IR's types, unoptimized (-O0: every local visible).
ptype() { gdb -nx -q -batch -ex "ptype $2" "$1" 2>&1; }
case $(ptype "$LUAJIT" 'struct jit_State') in
*"GCtrace cur;"*"IRIns *irbuf;"*) ok "luajit's debug info describes jit_State (cur, irbuf)" ;;
*) not_ok "luajit's debug info describes jit_State" "$(ptype "$LUAJIT" 'struct jit_State' | head -5)" ;;
esac
case $(ptype "$LUAC" 'struct Proto') in
*"TValue *k;"*"Instruction *code;"*"struct Proto **p;"*) ok "luac's debug info describes Proto (code, k, p)" ;;
*) not_ok "luac's debug info describes Proto" "$(ptype "$LUAC" 'struct Proto' | head -5)" ;;
esac
case $(gdb -nx -q -batch -ex 'info line lj_opt_dce' "$LUAJIT" 2>&1) in
*"lj_opt_dce.c"*) ok "luajit has line info for the optimizer (lj_opt_dce)" ;;
*) not_ok "luajit has line info for lj_opt_dce" ;;
esac

# The compilers' own printers over the corpus.
ntraces=0 nside=0 nfiles=0
for f in "$FIXTURES"/real/corpus/*.lua; do
	nfiles=$((nfiles + 1))
	dump=$(LUA_PATH="$REAL/luajit/bin/?.lua;;" "$LUAJIT" -jdump=i "$f" 2>&1)
	n=$(grep -c '^---- TRACE [0-9]* IR$' <<<"$dump")
	side=$(grep -cE '^---- TRACE [0-9]+ start [0-9]+/[0-9]+ ' <<<"$dump")
	ntraces=$((ntraces + n)); nside=$((nside + side))
	[ "$n" -ge 1 ] && ok "luajit -jdump=i: $(basename "$f") compiles $n trace(s)" ||
		not_ok "luajit -jdump=i compiles a trace of $(basename "$f")" "$(head -5 <<<"$dump")"
	"$LUAC" -l -l -p "$f" >"$TMP/luac.out" 2>&1 &&
		grep -q '^main <' "$TMP/luac.out" && ok "luac -l -l: $(basename "$f")" ||
		not_ok "luac -l -l: $(basename "$f")" "$(head -3 "$TMP/luac.out")"
done
[ "$nfiles" -ge 10 ] && ok "the corpus has $nfiles Lua programs" || not_ok "the corpus has at least 10 programs" "$nfiles"
[ "$nside" -ge 1 ] && ok "the corpus makes side traces ($nside of $ntraces traces)" ||
	not_ok "the corpus makes side traces" "0 of $ntraces"
done_testing
