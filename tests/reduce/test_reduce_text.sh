#!/usr/bin/env bash
# The reducer's generic passes on source text that is not IR (issue 17):
# Lua, checked by the real luac -p (Lua 5.4 from Debian's source package,
# scripts/real-compilers). Each case fails without the pass it names.
source "$(dirname "$0")/../lib.sh"
export TMPDIR="$TMP/tmp"
mkdir -p "$TMPDIR"
out=$(BUILD=$BUILD scripts/real-compilers lua5.4 2>&1)
LUAC=${IRSNAP_REAL:-$BUILD/real}/lua5.4/bin/luac
check "scripts/real-compilers built luac ($out)" test -x "$LUAC"

# interesting: valid Lua that still has a loop and its product
cat >"$TMP/loop.sh" <<EOF
#!/bin/sh
"$LUAC" -p "\$1" 2>/dev/null && grep -q 'for' "\$1" && grep -q '2\.5' "\$1"
EOF

# ---- a result keeps the input's lines (issue 30) -----------------------
# Lua does not mind line breaks, and joining the loop's three lines into
# one would save bytes; a person reading the reproducer minds. Every line
# of the result is one of the input's with words cut
# (scripts/joined_lines.py), the loop still three lines. (The comment lines
# make "--" the comment marker.)
cat >"$TMP/cols.lua" <<'LUA'
-- a loop at column 0
-- whose lines the reducer once joined
for i = 1, 10 do
x = i * 2.5
end
-- done
print(x)
LUA
check "the input is interesting" sh "$TMP/loop.sh" "$TMP/cols.lua"
"$IRSNAP" reduce "$TMP/cols.lua" --test "sh $TMP/loop.sh {}" -j 2 \
	-o "$TMP/cols.out" >"$TMP/cols.log" 2>&1
check_eq "reduce on Lua exits 0" 0 "$?"
check "the result is still interesting" sh "$TMP/loop.sh" "$TMP/cols.out"
expect_rc "no line of the result runs two of the input's together" 0 \
	python3 scripts/joined_lines.py "$TMP/cols.lua" "$TMP/cols.out"
check_eq "the loop keeps its three lines ($(tr '\n' '|' <"$TMP/cols.out"))" \
	3 "$(wc -l <"$TMP/cols.out")"

# ---- a name's qualifier: p.x -> x ---------------------------------------
# "p.x = ..." needs p to be a table; "x = ..." (a global) needs nothing.
cat >"$TMP/qual.lua" <<'LUA'
local function scale(n)
  p = {}
  for i = 1, n do
    p.x = i * 2.5
  end
end
scale(10)
LUA
check "the input is interesting" sh "$TMP/loop.sh" "$TMP/qual.lua"
"$IRSNAP" reduce "$TMP/qual.lua" --test "sh $TMP/loop.sh {}" -j 2 \
	-o "$TMP/qual.out" >"$TMP/qual.log" 2>&1
check_eq "reduce exits 0" 0 "$?"
check "the result is still interesting" sh "$TMP/loop.sh" "$TMP/qual.out"
check "the qualifier went, and the table with it ($(tr '\n' ' ' <"$TMP/qual.out"))" \
	bash -c "! grep -q 'p\.\|{' '$TMP/qual.out'"
figure "Lua text: $(sed -n 's/^reduced \(.*\) tests.*/\1/p' "$TMP/cols.log") tests; $(sed -n 's/^reduced \(.*\) tests.*/\1/p' "$TMP/qual.log") tests"
done_testing
