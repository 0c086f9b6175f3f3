-- Seed for fuzz_layout: raw reads by path whatever the member's type,
-- bits of a member by path, explicit locations sized by their type.
layout { name = "raw", root = "Instr" }

struct "Operand" { size = 16, node = false, fields = {
  k = u32 "kind", w = u64 "u", lo = bits { at = "u", bit = 0, width = 3 },
} }

struct "Instr" {
  fields = {
    opw  = u32 "op",
    hr   = bits { at = "has_result", bit = 0, width = 1 },
    wide = bits { offset = "op", bit = 1, width = 7 },
    link = u64 "link.next",
    e    = embed({ offset = 0 }, "Operand"),
    s    = scalar { offset = 8, size = 4 },
    ops  = array { ptr = "ops", count = "nops", of = "Operand" },
  },
  text = "{opw} {hr} {wide} {?hr == 1}r{/} {ops*,}\n",
}
