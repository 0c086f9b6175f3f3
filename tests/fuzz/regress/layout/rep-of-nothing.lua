-- Hung the debugger before layout_strlib.c: string.rep loops n times in C
-- even when each copy is empty.
layout { name = "bomb", root = "Module" }
local s = ("").rep("", 1 << 62, "")
struct "Module" { text = s }
