-- Hung the debugger before layout_strlib.c: Lua's matcher backtracks in C,
-- where the instruction budget cannot see it (O(n^30) here).
layout { name = "bomb", root = "Module" }
local s = ("a"):rep(30)
local i = s:find(("a*"):rep(30) .. "b")
