-- Seed for fuzz_layout: pure Lua text functions and computed fields.
layout { name = "pure", root = "Function" }

struct "Instr" {
  fields = { id = scalar "id", nops = u32 "nops",
             even = computed(pure(function(n) return n.id % 2 == 0 end)),
             half = computed(function(n) return n.id // 2 end) { pure = true } },
  text = pure(function(n) return string.format("%%%d/%d\n", n.id, n.nops) end),
  ref = pure(function(n) return "%" .. n.id end),
}

struct "Function" {
  fields = { params = array { ptr = "params", count = "nparams", of = ptr "Instr" } },
  text = "({@params*, }) {params}",
}

struct "Block" {
  fields = { label = chars "label", parent = ref("parent", "Function") },
  text = pure(function(b) return b.label .. ":" .. (render(b, "label") or "")
                .. tostring(deref(b, "parent") ~= nil) end),
}
