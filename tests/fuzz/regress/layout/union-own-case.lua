-- A union that is its own case: the compiler recursed until the C stack
-- ran out. Now "contains itself" at line 5.
layout { name = "self", root = "Module" }
local cases = {}
local u = union { tag = "op", cases = cases }
cases.OP_ADD = u
struct "Instr" { fields = { op = enum "op", u = u } }
struct "Module" { }
