-- Seed for fuzz_layout: a zip of parallel arrays under one count (the
-- operand kinds and the operand unions of an instruction, side by side).
layout { name = "zip", root = "Function" }

struct "Instr" {
  fields = {
    id  = scalar "id",
    z   = zip { count = "nops", text = "{k}:{w}", of = {
      k = { ptr = "ops", of = u32 {}, stride = 16 },
      w = { ptr = "ops", of = u64 {}, stride = 8 },
    } },
    d   = zip { count = "nops", of = { a = { ptr = "ops", of = i32 {} } } },
  },
  text = "{id} [{z*, }] {d} {?z}y{/}\n",
  ref = "%{id}",
}

struct "Function" {
  fields = {
    params = zip { count = "nparams", of = { p = { ptr = "params", of = ref "Instr" } },
                   text = "{@p}" },
  },
  text = "({params*, })",
}
