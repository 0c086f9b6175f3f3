-- The layout of Lua 5.4's function prototypes (lobject.h, lopcodes.h of
-- the reference compiler): how irsnap finds a compiled chunk in luac and
-- prints its Proto tree exactly as `luac -l -l` does (luac.c's
-- PrintFunction). docs/layout.md, section "Lua 5.4 (lua54.lua)", explains
-- it; tests/e2e/test_lua54.sh proves it on every file of the corpus.
--
-- Everything is a template, compiled to C when the layout loads: a dump
-- runs no Lua. Lua builds the per-opcode templates when the layout loads.

layout { name = "lua54", root = "Proto" }

-- Strings. Both short and long strings keep their bytes inline after the
-- header (char contents[1] is a flexible tail); the tag says where the
-- length is: shrlen for a short string, u.lnglen for a long one.
struct "TString" {
  node = false,
  fields = {
    tt  = u8 "tt",
    str = union { tag = "tt", cases = {
      [0x04] = chars("contents", "shrlen"),     -- LUA_VSHRSTR
      [0x14] = chars("contents", "u.lnglen"),   -- LUA_VLNGSTR
    } },
  },
  text = "{str}",
}

-- A chunk's source, as PrintHeader names it: "@file" and "=name" without
-- their mark (skip = 1), a binary chunk "(bstring)", any other source
-- text "(string)". The same TString, under another name: c0 is the first
-- byte of its contents (64 '@', 61 '=', 27 ESC).
struct "Source" {
  ctype = "TString",
  node = false,
  fields = {
    tt   = u8 "tt",
    c0   = u8 "contents",
    name = union { tag = "tt", cases = {
      [0x04] = chars("contents", "shrlen") { skip = 1 },
      [0x14] = chars("contents", "u.lnglen") { skip = 1 },
    } },
  },
  text = "{?c0 == 64 or c0 == 61}{name}{:}"
      .. "{?c0 == 27}(bstring){:}(string){/}{/}",
}

-- A constant: a TValue, its union chosen by the type tag tt_ (variant bits
-- 4-5 over the basic type, bit 6 set for collectable values). Its `ref`
-- template is how an instruction's comment names it (PrintConstant: `:lua`
-- writes a float as %.14g plus ".0" when that looks like an integer, a
-- string quoted with C escapes); its `text` is its line in the
-- "constants" section ({=#}: its index there).
local TV = { NIL = 0x00, FALSE = 0x01, TRUE = 0x11, INT = 0x03,
             FLT = 0x13, SHRSTR = 0x44, LNGSTR = 0x54 }
local function by_tag(f)     -- { by = "tt", [tag] = f(letter, value) }
  return { by = "tt",
    [TV.NIL] = f("N", "nil"), [TV.FALSE] = f("B", "false"),
    [TV.TRUE] = f("B", "true"), [TV.INT] = f("I", "{v}"),
    [TV.FLT] = f("F", "{v:lua}"), [TV.SHRSTR] = f("S", "{v:lua}"),
    [TV.LNGSTR] = f("S", "{v:lua}"), default = f("?{tt}", "?{tt}") }
end
struct "TValue" {
  node = false,
  fields = {
    tt = u8 "tt_",
    v  = union { tag = "tt", cases = {
      [TV.INT]    = scalar "value_.i",
      [TV.FLT]    = scalar "value_.n",
      [TV.SHRSTR] = ptr("value_.gc", "TString"),
      [TV.LNGSTR] = ptr("value_.gc", "TString"),
    }, default = u8 "tt_" },            -- nil, false, true: the tag says it
  },
  ref  = by_tag(function(_, value) return value end),
  text = by_tag(function(letter)
    return "\t{=#}\t" .. letter .. "\t{@ref}\n"
  end),
}

struct "Upvaldesc" {
  node = false,
  fields = { name = ptr("name", "TString"), instack = scalar "instack",
             idx = scalar "idx" },
  ref  = "{?name}{name}{:}-{/}",                  -- luac's UPVALNAME
  text = "\t{=#}\t{@ref}\t{instack}\t{idx}\n",
}

struct "LocVar" {
  node = false,
  fields = { name = ptr("varname", "TString"), startpc = scalar "startpc",
             endpc = scalar "endpc" },
  text = "\t{=#}\t{name}\t{=startpc + 1}\t{=endpc + 1}\n",
}

struct "AbsLineInfo" {
  node = false,
  fields = { pc = scalar "pc", line = scalar "line" },
}

-- An instruction is one 32-bit word (lopcodes.h): the opcode in bits 0-6,
-- then A (8 bits), k (1), B (8), C (8); or A and Bx (17), or Ax / sJ (25).
-- The signed ones are stored in excess-K and the templates subtract K:
-- sBx = Bx - 65535, sJ = Ax - 16777215, sB = B - 127, sC = C - 127. The
-- struct is declared two words wide over an array of stride 4, so that
-- each instruction also reads the next one: LOADKX, NEWTABLE and SETLIST
-- take an argument from the EXTRAARG after them (nax).
local function field(bit, width, offset)
  return bits { offset = offset or 0, bit = bit, width = width }
end
local function at(bit, width, offset)  -- the same, as index()'s location
  return { offset = offset or 0, size = 4, bit = bit, width = width }
end
-- A union by opcode: `value` for the opcodes `names`, `otherwise` (the
-- raw operand) for the others. For the text only (json = false): the
-- JSON graph has the operands it is computed from.
local function only(names, value, otherwise)
  local cases = {}
  for _, n in ipairs(names) do cases["OP_" .. n] = value end
  return union { tag = "op", cases = cases, default = otherwise,
                 json = false }
end
local function ins(operands)   -- PrintCode's line; `operands` per opcode
  return "\t{=# + 1}\t{?line > 0}[{line}]{:}[-]{/}\t{name:%-9s}\t"
         .. operands .. "\n"
end
struct "Instruction" {
  node = false,
  size = 8,
  fields = {
    op   = enum(at(0, 7), { type = "OpCode" }),
    name = global("opnames")[field(0, 7)],      -- luac's own opcode names
    a    = field(7, 8),
    k    = field(15, 1),
    b    = field(16, 8),
    c    = field(24, 8),
    bx   = field(15, 17),
    ax   = field(7, 25),
    nax  = field(7, 25, 4) { json = false },    -- the next one's Ax
    -- what the comments name, by index into this Proto's arrays: the
    -- constants K[B], K[C], K[Bx] and K[Ax] of the next, upvalues' names,
    -- nested prototypes (printed as their address: Proto's ref). Only for
    -- the opcodes whose operand is such an index: on the others it is a
    -- register, maybe past the end of the array.
    kb   = only({ "SETTABUP", "SETFIELD", "MMBINK", "EQK" },
                index(at(16, 8), "Proto.k"), field(16, 8)),
    kc   = only({ "ADDK", "SUBK", "MULK", "MODK", "POWK", "DIVK", "IDIVK",
                  "BANDK", "BORK", "BXORK", "GETFIELD", "GETTABUP" },
                index(at(24, 8), "Proto.k"), field(24, 8)),
    -- C of a store or SELF: a constant with the k bit, else a register
    kck  = only({ "SETTABLE", "SETI", "SELF", "SETTABUP", "SETFIELD" },
                union { tag = "k", default = field(24, 8),
                        cases = { [1] = index(at(24, 8), "Proto.k") } },
                field(24, 8)),
    kbx  = only({ "LOADK" }, index(at(15, 17), "Proto.k"), field(15, 17)),
    knax = only({ "LOADKX" }, index(at(7, 25, 4), "Proto.k"), field(7, 25, 4)),
    ua   = only({ "SETTABUP" }, index(at(7, 8), "Proto.upvalues"), field(7, 8)),
    ub   = only({ "GETUPVAL", "SETUPVAL", "GETTABUP" },
                index(at(16, 8), "Proto.upvalues"), field(16, 8)),
    pbx  = only({ "CLOSURE" }, index(at(15, 17), "Proto.p"), field(15, 17)),
    -- the metamethod event an OP_MMBIN* names: luac's tmname[C]
    ev   = union { tag = "op", cases = {
      OP_MMBIN  = global("tmname")[field(24, 8)],
      OP_MMBINI = global("tmname")[field(24, 8)],
      OP_MMBINK = global("tmname")[field(24, 8)],
    }, default = field(0, 7) },   -- other opcodes: no event
    -- luaG_getfuncline: the line of the instruction before plus this
    -- one's delta, or an absolute line where abslineinfo has one; none
    -- (luac prints [-]) when the chunk has no line information
    line = delta { of = "Proto.lineinfo", base = "linedefined",
                   absolute = "abslineinfo", at = "pc", value = "line" },
  },
  -- PrintCode's operands and comment, per opcode (lopcodes.h's names)
  text = (function()
    local t = { by = "op" }
    local function shape(names, operands)
      for _, n in ipairs(names) do t["OP_" .. n] = ins(operands) end
    end
    local isk = "{?k}k{/}"
    shape({ "LOADFALSE", "LFALSESKIP", "LOADTRUE", "CLOSE", "TBC", "RETURN1",
            "VARARGPREP" }, "{a}")
    shape({ "MOVE", "UNM", "BNOT", "NOT", "LEN", "CONCAT" }, "{a} {b}")
    shape({ "GETTABLE", "GETI", "ADD", "SUB", "MUL", "MOD", "POW", "DIV",
            "IDIV", "BAND", "BOR", "BXOR", "SHL", "SHR" }, "{a} {b} {c}")
    shape({ "EQ", "LT", "LE", "TESTSET" }, "{a} {b} {k}")
    shape({ "EQI", "LTI", "LEI", "GTI", "GEI" }, "{a} {=b - 127} {k}")
    shape({ "ADDK", "SUBK", "MULK", "MODK", "POWK", "DIVK", "IDIVK", "BANDK",
            "BORK", "BXORK", "GETFIELD" }, "{a} {b} {c}\t; {kc}")
    shape({ "LOADI", "LOADF" }, "{a} {=bx - 65535}")
    shape({ "ADDI", "SHRI", "SHLI" }, "{a} {b} {=c - 127}")
    shape({ "GETUPVAL", "SETUPVAL" }, "{a} {b}\t; {ub}")
    shape({ "SETTABLE", "SETI", "SELF" },
          "{a} {b} {c}" .. isk .. "{?k}\t; {kck}{/}")
    shape({ "FORLOOP", "TFORLOOP" }, "{a} {bx}\t; to {=# - bx + 2}")
    shape({ "LOADK" }, "{a} {bx}\t; {kbx}")
    shape({ "LOADKX" }, "{a}\t; {knax}")
    shape({ "LOADNIL" }, "{a} {b}\t; {=b + 1} out")
    shape({ "GETTABUP" }, "{a} {b} {c}\t; {ub} {kc}")
    shape({ "SETTABUP" },
          "{a} {b} {c}" .. isk .. "\t; {ua} {kb}{?k} {kck}{/}")
    shape({ "SETFIELD" }, "{a} {b} {c}" .. isk .. "\t; {kb}{?k} {kck}{/}")
    -- C + EXTRAARG * (MAXARG_C + 1)
    shape({ "NEWTABLE" }, "{a} {b} {c}\t; {=c + nax * 256}")
    shape({ "MMBIN" }, "{a} {b} {c}\t; {ev}")
    shape({ "MMBINI" }, "{a} {=b - 127} {c} {k}\t; {ev}{?k} flip{/}")
    shape({ "MMBINK" }, "{a} {b} {c} {k}\t; {ev} {kb}{?k} flip{/}")
    shape({ "JMP" }, "{=ax - 16777215}\t; to {=ax - 16777215 + # + 2}")
    shape({ "EQK" }, "{a} {b} {k}\t; {kb}")
    shape({ "TEST" }, "{a} {k}")
    shape({ "CALL" }, "{a} {b} {c}\t; {?b == 0}all{:}{=b - 1}{/} in "
                      .. "{?c == 0}all out{:}{=c - 1} out{/}")
    shape({ "TAILCALL" }, "{a} {b} {c}" .. isk .. "\t; {=b - 1} in")
    shape({ "RETURN" }, "{a} {b} {c}" .. isk
                        .. "\t; {?b == 0}all out{:}{=b - 1} out{/}")
    shape({ "RETURN0" }, "")
    shape({ "FORPREP" }, "{a} {bx}\t; exit to {=# + bx + 3}")
    shape({ "TFORPREP" }, "{a} {bx}\t; to {=# + bx + 2}")
    shape({ "TFORCALL" }, "{a} {c}")
    shape({ "SETLIST" }, "{a} {b} {c}{?k}\t; {=c + nax * 256}{/}")
    shape({ "CLOSURE" }, "{a} {bx}\t; {pbx}")
    shape({ "VARARG" }, "{a} {c}\t; {?c == 0}all out{:}{=c - 1} out{/}")
    shape({ "EXTRAARG" }, "{ax}")
    t.default = ins("")
    return t
  end)(),
}

-- PrintHeader, PrintCode and PrintDebug of one prototype, then
-- PrintFunction's recursion into the nested ones ({p}). {&} is the
-- prototype's own address, as luac's printf("%p") writes it; {=#code}
-- the number of instructions. luac's SS(x): "s" unless x is 1.
local function plural(n) return "{?" .. n .. " != 1}s{/}" end
struct "Proto" {
  fields = {
    numparams       = scalar "numparams",
    is_vararg       = scalar "is_vararg",
    maxstacksize    = scalar "maxstacksize",
    linedefined     = scalar "linedefined",
    lastlinedefined = scalar "lastlinedefined",
    source          = ptr("source", "Source"),
    code        = array { ptr = "code", count = "sizecode", of = "Instruction",
                          stride = 4 },
    k           = array { ptr = "k", count = "sizek", of = "TValue" },
    upvalues    = array { ptr = "upvalues", count = "sizeupvalues",
                          of = "Upvaldesc" },
    locvars     = array { ptr = "locvars", count = "sizelocvars",
                          of = "LocVar" },
    -- luaG_getfuncline reads a delta per instruction whenever lineinfo is
    -- not NULL, whatever sizelineinfo says (luac's combine() of several
    -- files sets it to 0 and frees the array without clearing the pointer)
    lineinfo    = array { ptr = "lineinfo", count = "sizecode", of = i8 {} },
    abslineinfo = array { ptr = "abslineinfo", count = "sizeabslineinfo",
                          of = "AbsLineInfo" },
    p           = array { ptr = "p", count = "sizep", of = ptr "Proto" },
  },
  ref = "{&}",            -- a CLOSURE's comment names the prototype so
  text = "\n{?linedefined == 0}main{:}function{/} <{?source}{source}{:}?{/}:"
    .. "{linedefined},{lastlinedefined}> ({=#code} instruction"
    .. plural("#code") .. " at {&})\n"
    .. "{numparams}{?is_vararg}+{/} param" .. plural("numparams")
    .. ", {maxstacksize} slot" .. plural("maxstacksize")
    .. ", {=#upvalues} upvalue" .. plural("#upvalues") .. ", "
    .. "{=#locvars} local" .. plural("#locvars")
    .. ", {=#k} constant" .. plural("#k")
    .. ", {=#p} function" .. plural("#p") .. "\n"
    .. "{code}"
    .. "constants ({=#k}) for {&}:\n{k}"
    .. "locals ({=#locvars}) for {&}:\n{locvars}"
    .. "upvalues ({=#upvalues}) for {&}:\n{upvalues}"
    .. "{p}",
}

-- luac.c's pmain: the chunk is parsed and listed, then dumped.
boundary { functions = { "luaU_dump" }, ir = "f" }
