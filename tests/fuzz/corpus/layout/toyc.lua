-- The layout of toyc's in-memory IR (tests/fixtures/toyc/ir.h): how irsnap
-- finds it, prints it exactly as toyc_print() does, where the passes start,
-- what to verify and what a reducer may delete. docs/layout.md explains
-- every construct; change this file and ir.h together.

layout { name = "toyc", root = "Module" }

local ilist = require "irsnap.list"    -- prelude: intrusive lists

-- Interned strings: pointer plus length, shared by whoever names them.
struct "Symbol" {
  node = false,                         -- a value, not a graph node
  fields = { data = strn("data", "len") },
  text = "{data}",
}

struct "Module" {
  fields = {
    name   = ptr("name", "Symbol"),
    funcs  = ilist.sentinel { head = "funcs", of = "Function", link = "link",
                              prev = "prev" },
    consts = array { ptr = "consts", count = "nconsts", of = "Const" },
  },
  text = "module @{name}\n{funcs}",
}

struct "Function" {
  fields = {
    name   = ptr("name", "Symbol"),
    params = array { ptr = "params", count = "nparams", of = ptr "Instr" },
    blocks = ilist.sentinel { head = "blocks", of = "Block", link = "link",
                              prev = "prev" },
  },
  -- the parameters are owned here but printed by name: {@params*, }
  text = "\nfunc @{name}({@params*, }) {{\n{blocks}}}\n",
}

struct "Block" {
  fields = {
    label = chars "label",
    insts = ilist.sentinel { head = "insts", of = "Instr", link = "link",
                             prev = "prev" },
  },
  text = "{label}:\n{insts}",
  ref  = "^{label}",                    -- how a branch target prints
}

struct "Instr" {
  fields = {
    op         = enum("op", { strip = "OP_", lower = true }),
    id         = scalar "id",
    name       = cstr "name",
    has_result = scalar "has_result",   -- a bitfield: position from debug info
    ops        = array { ptr = "ops", count = "nops", of = "Operand" },
  },
  text = "  {?has_result}{@ref} = {/}{op}{?ops} {ops*, }{/}\n",
  ref  = "%{?name}{name}{:}{id}{/}",    -- how a use prints
}

struct "Operand" {
  node = false,
  fields = {
    kind = enum "kind",
    u = union { tag = "kind", cases = {
      OPK_VALUE = ref("u.def", "Instr"),
      OPK_CONST = index("u.cidx", "Module.consts"),
      OPK_BLOCK = ref("u.block", "Block"),
    } },
  },
  text = "{u}",
}

struct "Const" {
  node = false,
  fields = {
    kind = enum "kind",
    u = union { tag = "kind", cases = {
      CK_INT = scalar "u.i", CK_FLOAT = scalar "u.f", CK_SYM = ptr("u.sym", "Symbol"),
    } },
  },
  text = { by = "kind", CK_INT = "{u}", CK_FLOAT = "{u:%.6e}", CK_SYM = "@{u}" },
}

boundary { at = "pm_run_pass", pass = "pass->name", ir = "m" }

-- toyc's own verifier, called in the debuggee; it prints its findings to
-- the FILE * it is given, so give it one.
verifier { name = "toyc_verify", call = "toyc_verify({ir}, stderr)", ok = 0 }

-- Every value an operand uses must be an instruction of this module: a use
-- of a freed or foreign instruction is a dangling pointer.
verifier { name = "operand-defs", check = function(snap)
  local problems = {}
  for n in snap:nodes "Instr" do
    for k, o in ipairs(n.ops) do
      if o.kind == "OPK_VALUE" and not snap:node(o.u) then
        problems[#problems + 1] = string.format(
          "%%%s: operand %d uses %s, which is no instruction of the module",
          n.name or n.id, k, o.u)
      end
    end
  end
  return problems
end }

reduce {
  units = { "Function", "Block", "Instr" },  -- deletable, outermost first
  defs  = "Instr",                           -- what uses refer to
  rerun = "{exe} {flags} --passes={pass} {input}",
}
