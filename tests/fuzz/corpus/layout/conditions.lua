-- Seed for fuzz_layout: template conditions (comparisons, enum names,
-- and/or/not, parentheses) over the least of toyc's layout that has them.
layout { name = "conditions", root = "Instr" }

struct "Instr" {
  fields = {
    op         = enum("op", { strip = "OP_", lower = true }),
    id         = scalar "id",
    name       = cstr "name",
    has_result = scalar "has_result",   -- a bitfield: position from debug info
    ops        = array { ptr = "ops", count = "nops", of = "Operand" },
    nops       = scalar "nops",
  },
  text = "  {?has_result == 1 and not (id < 0)}{@ref} = {/}{op}{?ops and (nops > 0 or op == OP_RET)} {ops*, }{/}\n",
  ref  = "%{?name}{name}{:}{id}{/}",
}

struct "Block" {
  fields = { label = chars "label" },
  text = "{label}:\n",
  ref  = "^{label}",
}

struct "Operand" {
  node = false,
  fields = {
    kind = enum "kind",
    u = union { tag = "kind", cases = {
      OPK_VALUE = ref("u.def", "Instr"),
      OPK_CONST = scalar "u.cidx",
      OPK_BLOCK = ref("u.block", "Block"),
    } },
  },
  text = "{?kind == OPK_VALUE or kind ~= 1}{u}{:}{?u >= 0x0 and u <= -1}never{:}{u}{/}{/}",
}
