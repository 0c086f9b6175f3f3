-- Seed for fuzz_layout: globals by name and paths into them (an opcode
-- table subscripted by a field, members, constant subscripts, index()).
layout { name = "globals", root = "Instr" }

struct "OpInfo" { node = false, fields = { name = cstr "name", flags = u32 "flags" },
                  text = "{name}:{flags}" }

struct "Instr" {
  fields = {
    op    = global("toyc_optab")[scalar "op"].name,
    info  = global("toyc_optab")[u32 "op"],
    flags = global("toyc_optab")[scalar "op"].flags,
    first = global("toyc_optab")[0].name,
    again = index("op", global "toyc_optab"),
    id    = scalar "id",
  },
  text = "{op} {info} {flags} {first} {again} {op:%-6s}{?flags}f{/}\n",
}
