-- Hung the debugger before layout_strlib.c: table.move loops over its
-- whole range in C, present elements or not.
layout { name = "bomb", root = "Module" }
table.move({}, 1, 1 << 50, 2)
