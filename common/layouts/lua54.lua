-- The layout of Lua 5.4's function prototypes (lobject.h, lopcodes.h of
-- the reference compiler): how irsnap finds a compiled chunk in luac and
-- prints its Proto tree exactly as `luac -l -l` does (luac.c's
-- PrintFunction). docs/layout.md, section "Lua 5.4 (lua54.lua)", explains
-- it; tests/e2e/test_lua54.sh proves it on every file of the corpus.

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

-- A constant: a TValue, its union chosen by the type tag tt_ (variant bits
-- 4-5 over the basic type, bit 6 set for collectable values).
struct "TValue" {
  node = false,
  fields = {
    tt = u8 "tt_",
    v  = union { tag = "tt", cases = {
      [0x03] = scalar "value_.i",                  -- LUA_VNUMINT
      [0x13] = scalar "value_.n",                  -- LUA_VNUMFLT
      [0x44] = ptr("value_.gc", "TString"),        -- LUA_VSHRSTR | BIT_ISCOLLECTABLE
      [0x54] = ptr("value_.gc", "TString"),        -- LUA_VLNGSTR | BIT_ISCOLLECTABLE
    }, default = u8 "tt_" },                       -- nil, false, true: the tag says it
  },
}

-- An instruction is one 32-bit word (lopcodes.h): the opcode in bits 0-6,
-- then A (8 bits), k (1), B (8), C (8); or A and Bx (17), or Ax / sJ (25).
-- The layout decodes every field; the signed ones (sBx, sJ, sB, sC) are
-- stored in excess-K and the printer subtracts K.
local function field(bit, width)
  return bits { offset = 0, bit = bit, width = width }
end
struct "Instruction" {
  node = false,
  size = 4,
  fields = {
    op   = enum({ offset = 0, size = 4, bit = 0, width = 7 }, { type = "OpCode" }),
    name = global("opnames")[field(0, 7)],      -- luac's own opcode names
    a    = field(7, 8),
    k    = field(15, 1),
    b    = field(16, 8),
    c    = field(24, 8),
    bx   = field(15, 17),
    ax   = field(7, 25),
    -- the metamethod event an OP_MMBIN* names: luac's tmname[C]
    ev   = union { tag = "op", cases = {
      OP_MMBIN  = global("tmname")[field(24, 8)],
      OP_MMBINI = global("tmname")[field(24, 8)],
      OP_MMBINK = global("tmname")[field(24, 8)],
    }, default = field(0, 7) },   -- other opcodes: no event
  },
}

struct "Upvaldesc" {
  node = false,
  fields = { name = ptr("name", "TString"), instack = scalar "instack",
             idx = scalar "idx" },
}

struct "LocVar" {
  node = false,
  fields = { name = ptr("varname", "TString"), startpc = scalar "startpc",
             endpc = scalar "endpc" },
}

struct "AbsLineInfo" {
  node = false,
  fields = { pc = scalar "pc", line = scalar "line" },
}

-- PrintConstant: how a constant prints in a comment and in "constants".
local escapes = { [34] = '\\"', [92] = "\\\\", [7] = "\\a", [8] = "\\b",
                  [12] = "\\f", [10] = "\\n", [13] = "\\r", [9] = "\\t",
                  [11] = "\\v" }
local function quote(s)
  return '"' .. s:gsub('[%c"\\\128-\255]', function(ch)
    local c = ch:byte()
    return escapes[c] or string.format("\\%03d", c)
  end) .. '"'
end
local function constant(k)
  local tt = k.tt
  if tt == 0x03 then return string.format("%d", k.v)
  elseif tt == 0x13 then
    local s = string.format("%.14g", k.v)
    if s:find("^[-0-9]*$") then s = s .. ".0" end
    return s
  elseif tt == 0x44 or tt == 0x54 then return quote(k.v.str)
  elseif tt == 0x00 then return "nil"
  elseif tt == 0x01 then return "false"
  elseif tt == 0x11 then return "true"
  end
  return "?" .. tt
end
local ktype = { [0x00] = "N", [0x01] = "B", [0x11] = "B", [0x03] = "I",
                [0x13] = "F", [0x44] = "S", [0x54] = "S" }

local function plural(n) return n == 1 and "" or "s" end
local OFFSET_sBx, OFFSET_sJ, OFFSET_sC = 65535, 16777215, 127

-- PrintCode's operands and comment, one function per opcode (the names of
-- lopcodes.h): OP[name](i, x) gives what follows the name's column, for
-- instruction i (its decoded fields) in the context x of its prototype:
-- x.pc (0-based), x.K(n) constant n, x.U(n) upvalue n's name, x.next the
-- instruction after (EXTRAARG), x.p the nested prototypes' ids.
local fmt = string.format
local OP = {}
local function shape(names, f) for _, n in ipairs(names) do OP[n] = f end end
shape({ "LOADFALSE", "LFALSESKIP", "LOADTRUE", "CLOSE", "TBC", "RETURN1",
        "VARARGPREP" }, function(i) return fmt("%d", i.a) end)
shape({ "MOVE", "UNM", "BNOT", "NOT", "LEN", "CONCAT" },
      function(i) return fmt("%d %d", i.a, i.b) end)
shape({ "GETTABLE", "GETI", "ADD", "SUB", "MUL", "MOD", "POW", "DIV", "IDIV",
        "BAND", "BOR", "BXOR", "SHL", "SHR" },
      function(i) return fmt("%d %d %d", i.a, i.b, i.c) end)
shape({ "EQ", "LT", "LE", "TESTSET" },
      function(i) return fmt("%d %d %d", i.a, i.b, i.k) end)
shape({ "EQI", "LTI", "LEI", "GTI", "GEI" },
      function(i) return fmt("%d %d %d", i.a, i.b - OFFSET_sC, i.k) end)
shape({ "ADDK", "SUBK", "MULK", "MODK", "POWK", "DIVK", "IDIVK", "BANDK",
        "BORK", "BXORK", "GETFIELD" },
      function(i, x) return fmt("%d %d %d\t; %s", i.a, i.b, i.c, x.K(i.c)) end)
shape({ "LOADI", "LOADF" },
      function(i) return fmt("%d %d", i.a, i.bx - OFFSET_sBx) end)
shape({ "ADDI", "SHRI", "SHLI" },
      function(i) return fmt("%d %d %d", i.a, i.b, i.c - OFFSET_sC) end)
shape({ "GETUPVAL", "SETUPVAL" },
      function(i, x) return fmt("%d %d\t; %s", i.a, i.b, x.U(i.b)) end)
shape({ "SETTABLE", "SETI", "SELF" }, function(i, x)
  local s = fmt("%d %d %d%s", i.a, i.b, i.c, i.k ~= 0 and "k" or "")
  return i.k ~= 0 and s .. "\t; " .. x.K(i.c) or s
end)
shape({ "FORLOOP", "TFORLOOP" },
      function(i, x) return fmt("%d %d\t; to %d", i.a, i.bx, x.pc - i.bx + 2) end)
OP.LOADK = function(i, x) return fmt("%d %d\t; %s", i.a, i.bx, x.K(i.bx)) end
OP.LOADKX = function(i, x) return fmt("%d\t; %s", i.a, x.K(x.next.ax)) end
OP.LOADNIL = function(i) return fmt("%d %d\t; %d out", i.a, i.b, i.b + 1) end
OP.GETTABUP = function(i, x)
  return fmt("%d %d %d\t; %s %s", i.a, i.b, i.c, x.U(i.b), x.K(i.c))
end
OP.SETTABUP = function(i, x)
  local s = fmt("%d %d %d%s\t; %s %s", i.a, i.b, i.c, i.k ~= 0 and "k" or "",
                x.U(i.a), x.K(i.b))
  return i.k ~= 0 and s .. " " .. x.K(i.c) or s
end
OP.SETFIELD = function(i, x)
  local s = fmt("%d %d %d%s\t; %s", i.a, i.b, i.c, i.k ~= 0 and "k" or "",
                x.K(i.b))
  return i.k ~= 0 and s .. " " .. x.K(i.c) or s
end
OP.NEWTABLE = function(i, x)   -- C + EXTRAARG * (MAXARG_C + 1) when k
  local extra = i.k ~= 0 and x.next.ax * 256 or 0
  return fmt("%d %d %d\t; %d", i.a, i.b, i.c, i.c + extra)
end
OP.MMBIN = function(i) return fmt("%d %d %d\t; %s", i.a, i.b, i.c, render(i, "ev")) end
OP.MMBINI = function(i)
  return fmt("%d %d %d %d\t; %s%s", i.a, i.b - OFFSET_sC, i.c, i.k,
             render(i, "ev"), i.k ~= 0 and " flip" or "")
end
OP.MMBINK = function(i, x)
  return fmt("%d %d %d %d\t; %s %s%s", i.a, i.b, i.c, i.k, render(i, "ev"),
             x.K(i.b), i.k ~= 0 and " flip" or "")
end
OP.JMP = function(i, x)
  local sj = i.ax - OFFSET_sJ
  return fmt("%d\t; to %d", sj, sj + x.pc + 2)
end
OP.EQK = function(i, x) return fmt("%d %d %d\t; %s", i.a, i.b, i.k, x.K(i.b)) end
OP.TEST = function(i) return fmt("%d %d", i.a, i.k) end
OP.CALL = function(i)
  return fmt("%d %d %d\t; %s in %s", i.a, i.b, i.c,
             i.b == 0 and "all" or i.b - 1,
             i.c == 0 and "all out" or i.c - 1 .. " out")
end
OP.TAILCALL = function(i)
  return fmt("%d %d %d%s\t; %d in", i.a, i.b, i.c, i.k ~= 0 and "k" or "",
             i.b - 1)
end
OP.RETURN = function(i)
  return fmt("%d %d %d%s\t; %s", i.a, i.b, i.c, i.k ~= 0 and "k" or "",
             i.b == 0 and "all out" or i.b - 1 .. " out")
end
OP.RETURN0 = function() return "" end
OP.FORPREP = function(i, x)
  return fmt("%d %d\t; exit to %d", i.a, i.bx, x.pc + i.bx + 3)
end
OP.TFORPREP = function(i, x)
  return fmt("%d %d\t; to %d", i.a, i.bx, x.pc + i.bx + 2)
end
OP.TFORCALL = function(i) return fmt("%d %d", i.a, i.c) end
OP.SETLIST = function(i, x)
  local s = fmt("%d %d %d", i.a, i.b, i.c)
  return i.k ~= 0 and s .. fmt("\t; %d", i.c + x.next.ax * 256) or s
end
OP.CLOSURE = function(i, x)
  return fmt("%d %d\t; %s", i.a, i.bx, x.p[i.bx + 1])
end
OP.VARARG = function(i)
  return fmt("%d %d\t; %s", i.a, i.c, i.c == 0 and "all out" or i.c - 1 .. " out")
end
OP.EXTRAARG = function(i) return fmt("%d", i.ax) end

local function code(p)
  local out, ins, k, ups = {}, p.code, p.k, p.upvalues
  local x = { p = p.p }
  function x.K(n) return constant(k[n + 1]) end
  function x.U(n)
    local u = ups[n + 1]
    return u and u.name and u.name.str or "-"
  end
  -- luaG_getfuncline, one instruction after the other: the line before
  -- plus the delta, or an absolute line where abslineinfo has one
  local line, abs, ai = p.linedefined, p.abslineinfo, 1
  local deltas = p.lineinfo or {}        -- NULL: no debug information
  local haslines = #deltas > 0
  for pc = 0, #ins - 1 do
    local i = ins[pc + 1]
    local a = abs[ai]
    if a and a.pc == pc then
      line, ai = a.line, ai + 1
    elseif haslines then
      line = line + deltas[pc + 1]
    end
    x.pc, x.next = pc, ins[pc + 2]
    local op = OP[i.name]
    out[#out + 1] = fmt("\t%d\t%s\t%-9s\t%s\n", pc + 1,
      haslines and line > 0 and "[" .. line .. "]" or "[-]", i.name,
      op and op(i, x) or "")
  end
  return table.concat(out)
end

-- PrintHeader, PrintCode and PrintDebug of one prototype; PrintFunction's
-- recursion into the nested ones is the template's {p}.
local function listing(p)
  local src = p.source and p.source.str or "=?"
  local c0 = src:sub(1, 1)
  if c0 == "@" or c0 == "=" then src = src:sub(2)
  elseif c0 == "\27" then src = "(bstring)"
  else src = "(string)" end
  -- a node's id is its address as luac's printf("%p") writes it (0x and
  -- lowercase hex), and so is a nested prototype's in x.p
  local me = p._id
  local out = {
    string.format("\n%s <%s:%d,%d> (%d instruction%s at %s)\n",
      p.linedefined == 0 and "main" or "function", src, p.linedefined,
      p.lastlinedefined, #p.code, plural(#p.code), me),
    string.format("%d%s param%s, %d slot%s, %d upvalue%s, ",
      p.numparams, p.is_vararg ~= 0 and "+" or "", plural(p.numparams),
      p.maxstacksize, plural(p.maxstacksize), #p.upvalues,
      plural(#p.upvalues)),
    string.format("%d local%s, %d constant%s, %d function%s\n",
      #p.locvars, plural(#p.locvars), #p.k, plural(#p.k), #p.p,
      plural(#p.p)),
    code(p),
    string.format("constants (%d) for %s:\n", #p.k, me),
  }
  for i, k in ipairs(p.k) do
    out[#out + 1] = string.format("\t%d\t%s\t%s\n", i - 1,
                                  ktype[k.tt] or "?" .. k.tt, constant(k))
  end
  out[#out + 1] = string.format("locals (%d) for %s:\n", #p.locvars, me)
  for i, l in ipairs(p.locvars) do
    out[#out + 1] = string.format("\t%d\t%s\t%d\t%d\n", i - 1, l.name.str,
                                  l.startpc + 1, l.endpc + 1)
  end
  out[#out + 1] = string.format("upvalues (%d) for %s:\n", #p.upvalues, me)
  for i, u in ipairs(p.upvalues) do
    out[#out + 1] = string.format("\t%d\t%s\t%d\t%d\n", i - 1,
                                  u.name and u.name.str or "-", u.instack,
                                  u.idx)
  end
  return table.concat(out)
end

struct "Proto" {
  fields = {
    numparams       = scalar "numparams",
    is_vararg       = scalar "is_vararg",
    maxstacksize    = scalar "maxstacksize",
    linedefined     = scalar "linedefined",
    lastlinedefined = scalar "lastlinedefined",
    source          = ptr("source", "TString"),
    code        = array { ptr = "code", count = "sizecode", of = "Instruction" },
    k           = array { ptr = "k", count = "sizek", of = "TValue" },
    upvalues    = array { ptr = "upvalues", count = "sizeupvalues", of = "Upvaldesc" },
    locvars     = array { ptr = "locvars", count = "sizelocvars", of = "LocVar" },
    -- luaG_getfuncline reads a delta per instruction whenever lineinfo is
    -- not NULL, whatever sizelineinfo says (luac's combine() of several
    -- files sets it to 0 and frees the array without clearing the pointer)
    lineinfo    = array { ptr = "lineinfo", count = "sizecode", of = i8 {} },
    abslineinfo = array { ptr = "abslineinfo", count = "sizeabslineinfo",
                          of = "AbsLineInfo" },
    p           = array { ptr = "p", count = "sizep", of = ptr "Proto" },
    listing     = computed(pure(listing)),
  },
  text = "{listing}{p}",
}

-- luac.c's pmain: the chunk is parsed and listed, then dumped.
boundary { functions = { "luaU_dump" }, ir = "f" }
