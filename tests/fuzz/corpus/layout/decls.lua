-- Declarations besides structs: boundaries (a pass manager and pass
-- functions), verifiers (Lua and debuggee calls), what the reducer keeps.
layout { name = "decls", root = "Module" }

local ilist = require "irsnap.list"

struct "Symbol" { node = false, fields = { data = strn("data", "len") },
                  text = "{data}" }

struct "Module" {
  fields = {
    name = ptr("name", "Symbol"),
    funcs = ilist.sentinel { head = "funcs", of = "Function", link = "link" },
    n = computed(function(m) return #m.funcs end),
  },
  text = function(m)
    local parts = {}
    for i, f in ipairs(m.funcs) do parts[#parts + 1] = tostring(f) end
    return string.format("module %s (%d)\n%s", m.name and m.name.data or "?",
                         m.n, table.concat(parts, "\n"))
  end,
}

struct "Function" {
  fields = { name = ptr("name", "Symbol"), nparams = u32 "nparams",
             params = array { ptr = "params", count = "nparams",
                              of = ref "Instr" } },
  text = "func @{name}({nparams})",
}

struct "Instr" {
  fields = { op = enum("op", { strip = "OP_", lower = true }), id = scalar "id",
             name = cstr "name", dead = scalar "dead", spare = scalar "spare" },
  text = "{op} {id:%u}{?name} {name:%-10s}{/}",
  ref = "%{?name}{name}{:}{id}{/}",
}

boundary { at = "pm_run_pass", pass = "pass->name", ir = "m" }
boundary { functions = { "constfold", "dce", "cse" }, ir = "m", type = "Module" }
verifier { name = "self", call = "toyc_verify({ir}, 0)", ok = 0 }
verifier { name = "count", check = function(snap)
  local n = 0
  for node in snap:nodes() do n = n + 1 end
  if n ~= #snap then return { "count mismatch" } end
  return nil
end }
reduce { units = { "Function", "Instr" }, defs = "Instr",
         rerun = "{exe} --passes={pass} {input}" }

-- a boundary whose pass functions name their IR differently
boundary { functions = { "pass_cse", "pass_dce" }, ir = { "m", "mod" } }
