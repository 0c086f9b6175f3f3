-- Seed for fuzz_layout: toyc's operand union nested several levels deep
-- (tests/fuzz/README.md), over the least of toyc's layout that reaches it.
layout { name = "unions", root = "Instr" }

struct "Instr" {
  fields = {
    id  = scalar "id",
    ops = array { ptr = "ops", count = "nops", of = "Operand" },
  },
  text = "  %{id} = {ops*, }\n",
  ref  = "%{id}",
}

struct "Block" {
  fields = { label = chars "label" },
  text = "{label}:\n",
  ref  = "^{label}",
}

-- Unions in unions (a case, a default, a shared descriptor), as deep as a
-- loop makes them: the compiler once corrupted its heap past a few levels.
local value = ref("u.def", "Instr")
local leaf = union { tag = "kind", cases = {
  OPK_VALUE = value,
  OPK_CONST = scalar "u.cidx",
  OPK_BLOCK = ref("u.block", "Block"),
} }
local nested = leaf
for i = 1, 6 do
  nested = union { tag = "kind", cases = { OPK_VALUE = nested, [1] = leaf },
                   default = nested }
end

struct "Operand" {
  node = false,
  fields = {
    kind = enum "kind",
    u = nested,
    same = union { tag = "kind", cases = { OPK_VALUE = value, OPK_BLOCK = leaf },
                   default = leaf },
  },
  text = "{u}{?same}{/}",
}
