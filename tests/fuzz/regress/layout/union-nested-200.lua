-- Corrupted the heap before the compiler bounded nesting (GDB aborted with
-- "corrupted double-linked list"): each level of compile_union kept values
-- on the Lua stack without making room for them. Now "fields nested more
-- than 16 deep" at line 7.
layout { name = "nest", root = "Module" }
local f = scalar "id"
for i = 1, 200 do f = union { tag = "op", cases = { OP_ADD = f } } end
struct "Instr" { fields = { op = enum "op", u = f } }
struct "Module" { }
