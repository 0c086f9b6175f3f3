-- The layout of LuaJIT 2.1's trace IR (lj_ir.h, lj_jit.h): how irsnap
-- finds the trace being compiled in the jit_State and prints its IR
-- exactly as `luajit -jdump=i` does (jit/dump.lua's dump_ir, without
-- snapshots or registers). docs/layout.md, section "LuaJIT 2.1
-- (luajit.lua)", explains it; tests/e2e/test_luajit.sh proves it on every
-- trace of the corpus.

layout { name = "luajit", root = "GCtrace" }

-- Strings (lj_obj.h): a GCstr header of 24 bytes, its bytes right after
-- it (strdata(s) is s + 1), len of them: the struct is declared 32 bytes
-- wide, so that chars() may start at its end.
struct "GCstr" {
  node = false,
  size = 32,
  fields = {
    len = scalar "len",
    str = chars({ offset = 24 }, "len"),
  },
  text = "{str}",
}

-- A prototype: where a Lua function was defined (chunkname, firstline).
-- GCRef and MRef are one 64-bit word (GC64): read as integers, masked.
struct "GCproto" {
  node = false,
  fields = {
    chunkname = ptr("chunkname.gcptr64", "GCstr") { mask = -1 },
    firstline = scalar "firstline",
  },
}

-- A function: ffid 0 is a Lua function, whose pc points at the bytecode
-- just past its GCproto (funcproto(fn) is pc - sizeof(GCproto): `past`),
-- 1 a C function (f), anything else a fast function of the VM.
struct "GCfuncC" {
  node = false,
  fields = {
    ffid = u8 "ffid",
    f    = u64 "f",
    pt   = union { tag = "ffid", cases = {
      [0] = ptr("pc.ptr64", "GCproto") { mask = -1, past = true },
    }, default = u8 "ffid" },
  },
}

-- An IR instruction or constant: one 8-byte slot of J->cur.ir (op1, op2,
-- the type t, the opcode o, and prev, whose low byte r the sinking pass
-- sets to RID_SINK). A 64-bit constant (KNUM, KINT64, and under GC64 KGC,
-- KPTR, KKPTR) keeps its value in the next slot: the layout declares the
-- slot 16 bytes wide and the array steps by 8, so each element reads its
-- successor too (k), and only the constants that own it look at it.
struct "IRIns" {
  node = false,
  size = 16,
  fields = {
    op1  = u16 "op1",
    op2  = u16 "op2",
    t    = u8 "t",                               -- IRT_* plus guard (0x80), phi (0x40)
    o    = enum("o", { type = "IROp", strip = "IR_" }),
    r    = u8 "r",
    i    = i32 "i",                              -- KINT
    -- names of literal operands, from the compiler's own enums
    fl   = enum("op2", { type = "IRFieldID", strip = "IRFL_", lower = true }),
    fpm  = enum("op2", { type = "IRFPMathOp", strip = "IRFPM_", lower = true }),
    call = enum("op2", { type = "IRCallID", strip = "IRCALL_" }),
    k    = union { tag = "o", cases = {
      KNUM   = f64(8),                           -- ir_knum: ir[1].tv.n
      KINT64 = i64(8),                           -- ir_kint64: ir[1].tv.u64
      KPTR   = u64(8),
      KKPTR  = u64(8),
      KGC    = union { tag = "ty", cases = {     -- ir_kgc: ir[1].gcr
        [4] = ptr({ offset = 8 }, "GCstr"),      -- IRT_STR
        [8] = ptr({ offset = 8 }, "GCfuncC"),    -- IRT_FUNC
      }, default = u64(8) },                     -- tables, cdata: the address
    }, default = u8 "o" },
    ty   = bits { at = "t", bit = 0, width = 5 },
  },
}

-- jit/dump.lua's irtype_text, vmdef.lua's ffnames: the names the
-- printer uses that the compiler keeps in no table of its own.
local irtype = { [0] = "nil", "fal", "tru", "lud", "str", "p32", "thr",
  "pro", "fun", "p64", "cdt", "tab", "udt", "flt", "num", "i8 ", "u8 ",
  "i16", "u16", "int", "u32", "i64", "u64", "sfp" }
local ffnames, nff = {}, 0
for name in ([[
  Lua C assert type next pairs ipairs_aux ipairs getmetatable setmetatable
  getfenv setfenv rawget rawset rawequal unpack select tonumber tostring
  error pcall xpcall loadfile load loadstring dofile gcinfo collectgarbage
  newproxy print coroutine.status coroutine.running coroutine.isyieldable
  coroutine.create coroutine.yield coroutine.resume coroutine.wrap_aux
  coroutine.wrap math.abs math.floor math.ceil math.sqrt math.log10
  math.exp math.sin math.cos math.tan math.asin math.acos math.atan
  math.sinh math.cosh math.tanh math.frexp math.modf math.log math.atan2
  math.pow math.fmod math.ldexp math.min math.max math.random
  math.randomseed bit.tobit bit.bnot bit.bswap bit.lshift bit.rshift
  bit.arshift bit.rol bit.ror bit.band bit.bor bit.bxor bit.tohex
  string.byte string.char string.sub string.rep string.reverse string.lower
  string.upper string.dump string.find string.match string.gmatch_aux
  string.gmatch string.gsub string.format table.maxn table.insert
  table.concat table.sort table.new table.clear io.method.close
  io.method.read io.method.write io.method.flush io.method.seek
  io.method.setvbuf io.method.lines io.method.__gc io.method.__tostring
  io.open io.popen io.tmpfile io.close io.read io.write io.flush io.input
  io.output io.lines io.type os.execute os.remove os.rename os.tmpname
  os.getenv os.exit os.clock os.date os.time os.difftime os.setlocale
  debug.getregistry debug.getmetatable debug.setmetatable debug.getfenv
  debug.setfenv debug.getinfo debug.getlocal debug.setlocal
  debug.getupvalue debug.setupvalue debug.upvalueid debug.upvaluejoin
  debug.sethook debug.gethook debug.debug debug.traceback jit.on jit.off
  jit.flush jit.status jit.security jit.attach jit.util.funcinfo
  jit.util.funcbc jit.util.funck jit.util.funcuvname jit.util.traceinfo
  jit.util.traceir jit.util.tracek jit.util.tracesnap jit.util.tracemc
  jit.util.traceexitstub jit.util.ircalladdr jit.opt.start
  jit.profile.start jit.profile.stop jit.profile.dumpstack ffi.meta.__index
  ffi.meta.__newindex ffi.meta.__eq ffi.meta.__len ffi.meta.__lt
  ffi.meta.__le ffi.meta.__concat ffi.meta.__call ffi.meta.__add
  ffi.meta.__sub ffi.meta.__mul ffi.meta.__div ffi.meta.__mod
  ffi.meta.__pow ffi.meta.__unm ffi.meta.__tostring ffi.meta.__pairs
  ffi.meta.__ipairs ffi.clib.__index ffi.clib.__newindex ffi.clib.__gc
  ffi.callback.free ffi.callback.set ffi.cdef ffi.new ffi.cast ffi.typeof
  ffi.typeinfo ffi.istype ffi.sizeof ffi.alignof ffi.offsetof ffi.errno
  ffi.string ffi.copy ffi.fill ffi.abi ffi.metatype ffi.gc ffi.load
  buffer.method.free buffer.method.reset buffer.method.skip
  buffer.method.set buffer.method.put buffer.method.putf buffer.method.get
  buffer.method.putcdata buffer.method.reserve buffer.method.commit
  buffer.method.ref buffer.method.encode buffer.method.decode
  buffer.method.__gc buffer.method.__tostring buffer.method.__len
  buffer.new buffer.encode buffer.decode ]]):gmatch("%S+") do
  ffnames[nff], nff = name, nff + 1
end

local fmt = string.format

-- The operand modes of each opcode (lj_ir.h's IRDEF, what lj_ir_mode[o]
-- holds): r a reference, l a literal, c a constant's own value, _ none.
-- The layout spells them here rather than reading global("lj_ir_mode")
-- by each element's o: the second slot of a 64-bit constant is an element
-- of the overlapping array too, and its "o" is a byte of the constant,
-- often past the table's end (a walk error there).
local MODE = { r = 0, l = 1, c = 2, _ = 3 }
local modes = {}
for op, m1, m2 in ([[
  LT=rr GE=rr LE=rr GT=rr ULT=rr UGE=rr ULE=rr UGT=rr EQ=rr NE=rr ABC=rr
  RETF=rr NOP=__ BASE=ll PVAL=l_ GCSTEP=__ HIOP=rr LOOP=__ USE=r_ PHI=rr
  RENAME=rl PROF=__ KPRI=__ KINT=c_ KGC=c_ KPTR=c_ KKPTR=c_ KNULL=c_
  KNUM=c_ KINT64=c_ KSLOT=rl BNOT=r_ BSWAP=r_ BAND=rr BOR=rr BXOR=rr
  BSHL=rr BSHR=rr BSAR=rr BROL=rr BROR=rr ADD=rr SUB=rr MUL=rr DIV=rr
  MOD=rr POW=rr NEG=rr ABS=rr LDEXP=rr MIN=rr MAX=rr FPMATH=rl ADDOV=rr
  SUBOV=rr MULOV=rr AREF=rr HREFK=rr HREF=rr NEWREF=rr UREFO=rl UREFC=rl
  FREF=rl TMPREF=rl STRREF=rr LREF=__ ALOAD=r_ HLOAD=r_ ULOAD=r_ FLOAD=rl
  XLOAD=rl SLOAD=ll VLOAD=rl ALEN=rr ASTORE=rr HSTORE=rr USTORE=rr
  FSTORE=rr XSTORE=rr SNEW=rr XSNEW=rr TNEW=ll TDUP=r_ CNEW=rr CNEWI=rr
  BUFHDR=rl BUFPUT=rr BUFSTR=rr TBAR=r_ OBAR=rr XBAR=__ CONV=rl TOBIT=rr
  TOSTR=rl STRTO=r_ CALLN=rl CALLA=rl CALLL=rl CALLS=rl CALLXS=rr CARG=rr
]]):gmatch("(%w+)=(.)(.)") do
  modes[op] = MODE[m1] | MODE[m2] << 2
end
local REF_BIAS = 0x8000
local RID_SINK, RID_SUNK = 253, 254

-- dump.lua's litname: how a literal op2 prints, by opcode
local function sload(mode)
  local s = ""
  for bit, c in ipairs { "P", "F", "T", "C", "R", "I", "K" } do
    if mode & (1 << (bit - 1)) ~= 0 then s = s .. c end
  end
  return s
end
local function conv(mode)
  local s = irtype[(mode >> 5) & 31] .. "." .. irtype[mode & 31]
  if mode & 0x800 ~= 0 then s = s .. " sext" end
  local c = mode >> 12
  if c == 1 then s = s .. " none"
  elseif c == 2 then s = s .. " index"
  elseif c == 3 then s = s .. " check" end
  return s
end
local xload = { [0] = "", "R", "V", "RV", "U", "RU", "VU", "RVU" }
local tmpref = { [0] = "", "IN", "OUT", "INOUT", "", "", "OUT2", "INOUT2" }
local bufhdr = { [0] = "RESET", "APPEND", "WRITE" }
local tostr = { [0] = "INT", "NUM", "CHAR" }
local litname = {
  SLOAD = function(ins) return sload(ins.op2) end,
  XLOAD = function(ins) return xload[ins.op2] end,
  CONV = function(ins) return conv(ins.op2) end,
  FLOAD = function(ins) return type(ins.fl) == "string" and
                          (ins.fl:gsub("_", ".", 1)) or nil end,
  FPMATH = function(ins) return type(ins.fpm) == "string" and ins.fpm or nil end,
  TMPREF = function(ins) return tmpref[ins.op2] end,
  BUFHDR = function(ins) return bufhdr[ins.op2] end,
  TOSTR = function(ins) return tostr[ins.op2] end,
}
litname.FREF = litname.FLOAD

-- lj_debug_pushloc at pc 0: a Lua function is "file:line" (the chunk's
-- base name, its first line)
local function fmtfunc(fn)
  if type(fn) ~= "table" then return "(?)" end
  if fn.ffid == 0 then
    local pt = fn.pt
    local name = pt.chunkname and pt.chunkname.str or "?"
    local line = pt.firstline
    if line == 0xffffffff or line == -1 then return "builtin:" .. name end
    if name:sub(1, 1) == "@" then
      return (name:sub(2):match("[^/\\]*$")) .. ":" .. line
    elseif #name > 40 then
      return fmt("%s:%d", pt._addr or "?", line)
    elseif name:sub(1, 1) == "=" then
      return name:sub(2) .. ":" .. line
    end
    return fmt('"%s":%d', name, line)
  elseif fn.ffid == 1 then
    return fmt("C:%x", fn.f)
  end
  return ffnames[fn.ffid] or "(?)"
end

local function ctlsub(c)
  if c == "\n" then return "\\n"
  elseif c == "\r" then return "\\r"
  elseif c == "\t" then return "\\t"
  end
  return fmt("\\%03d", c:byte())
end

-- dump.lua's formatk without a snapshot entry: constant ref (biased)
local function formatk(K, ref)
  local ir, slot = K(ref), nil
  if ir.o == "KSLOT" then slot, ir = ir.op2, K(ir.op1) end
  local t, o, s = ir.ty, ir.o, nil
  if o == "KPRI" then
    s = t == 0 and "nil" or t == 1 and "false" or "true"
  elseif o == "KINT" then
    s = fmt("%+.14g", ir.i)
  elseif o == "KNUM" then
    local k = ir.k
    if k == 2^52 + 2^51 then s = "bias"
    else s = fmt(0 < k and k < 0x1p-1026 and "%+a" or "%+.14g", k) end
  elseif o == "KPTR" or o == "KKPTR" or o == "KNULL" then
    local k = o == "KNULL" and 0 or ir.k
    s = k == 0 and "NULL" or fmt("[0x%08x]", k)
  elseif o == "KINT64" then
    s = fmt("%d", ir.k)
    if t == 21 then
      if s:sub(1, 1) ~= "-" then s = "+" .. s end
    else
      s = fmt("%uULL", ir.k)
    end
  elseif o == "KGC" then
    if t == 4 then
      local str = ir.k.str
      s = fmt(#str > 20 and '"%.20s"~' or '"%s"', (str:gsub("%c", ctlsub)))
    elseif t == 8 then
      s = fmtfunc(ir.k)
    elseif t == 11 then
      s = fmt("{0x%x}", ir.k)
    elseif t == 12 then
      s = fmt("userdata:0x%x", ir.k)
    else
      s = ir.k == 0 and "NULL" or fmt("[0x%x]", ir.k)
    end
  else
    s = "?" .. tostring(o)
  end
  s = fmt("%-4s", s)
  if slot then s = fmt("%s @%d", s, slot) end
  return s
end

-- dump.lua's dump_ir(tr, false, false): the instructions from REF_BIAS + 1
-- to nins - 1, a LOOP as a rule, NOP, CARG and RENAME left out; operands
-- by mode (reference, literal, constant or none), constants by formatk.
local function listing(T)
  local ir, nk = T.ir, T.nk
  local function I(ref) return ir[ref - nk + 1] end
  -- prev is the chain link until lj_opt_sink sweeps it (only when there
  -- is an allocation to sink): r is a sink mark only then
  local swept = false
  for j = REF_BIAS - nk + 2, #ir do
    local o = ir[j].o
    if o == "TNEW" or o == "TDUP" or o == "CNEW" or o == "CNEWI" then
      swept = true
      break
    end
  end
  local out = { fmt("---- TRACE %d IR\n", T.traceno) }
  local function call_args(ref)     -- dumpcallargs
    if ref < REF_BIAS then return formatk(I, ref) end
    local a = I(ref)
    if a.o == "CARG" then
      local rhs = a.op2 < REF_BIAS and formatk(I, a.op2)
        or fmt("%04d", a.op2 - REF_BIAS)
      return call_args(a.op1) .. " " .. rhs
    end
    return fmt("%04d", ref - REF_BIAS)
  end
  for ref = REF_BIAS + 1, T.nins - 1 do
    local ins, n = I(ref), ref - REF_BIAS
    local op = ins.o
    if op == "LOOP" then
      out[#out + 1] = fmt("%04d ------ LOOP ------------\n", n)
    elseif op ~= "NOP" and op ~= "CARG" and op ~= "RENAME" then
      local t = ins.t
      local sunk = swept and (ins.r == RID_SINK or ins.r == RID_SUNK)
      local line = { fmt("%04d %s%s %s %-6s ", n,
        sunk and "}" or (t & 128 == 0 and " " or ">"),
        t & 64 == 0 and " " or "+", irtype[t & 31], op) }
      local m = modes[op] or 15
      local m1, m2 = m & 3, m & 12
      local op1, op2 = ins.op1, ins.op2
      if m1 == 0 then op1 = op1 - REF_BIAS end
      if m2 == 0 then op2 = op2 - REF_BIAS end
      if op:sub(1, 4) == "CALL" then
        local ctype
        if m2 == 4 then
          line[#line + 1] = fmt("%-10s  (", ins.call)
        else                                     -- dumpcallfunc
          local f = op2
          if f > 0 and I(f + REF_BIAS).ty == 0 then
            local a = I(f + REF_BIAS)
            f, ctype = a.op1 - REF_BIAS, formatk(I, a.op2)
          end
          if f < 0 then
            line[#line + 1] = fmt("[0x%x](", I(f + REF_BIAS).k)
          else
            line[#line + 1] = fmt("%04d (", f)
          end
        end
        if op1 ~= -1 then line[#line + 1] = call_args(op1 + REF_BIAS) end
        line[#line + 1] = ")"
        if ctype then line[#line + 1] = " ctype " .. ctype end
      elseif op == "CNEW" and op2 == -1 then
        line[#line + 1] = formatk(I, op1 + REF_BIAS)
      elseif m1 ~= 3 then
        if op1 < 0 then
          line[#line + 1] = formatk(I, op1 + REF_BIAS)
        else
          line[#line + 1] = fmt(m1 == 0 and "%04d" or "#%-3d", op1)
        end
        if m2 ~= 12 then
          if m2 == 4 then
            local lit = litname[op] and litname[op](ins)
            if lit then
              line[#line + 1] = "  " .. lit
            elseif op == "UREFO" or op == "UREFC" then
              line[#line + 1] = fmt("  #%-3d", op2 >> 8)
            else
              line[#line + 1] = fmt("  #%-3d", op2)
            end
          elseif op2 < 0 then
            line[#line + 1] = "  " .. formatk(I, op2 + REF_BIAS)
          else
            line[#line + 1] = fmt("  %04d", op2)
          end
        end
      end
      out[#out + 1] = table.concat(line) .. "\n"
    end
  end
  return table.concat(out)
end

-- The trace being compiled is J->cur (a GCtrace inside the jit_State);
-- its IR is ir[nk] .. ir[nins - 1], references biased by REF_BIAS, the
-- constants below it, the instructions from REF_BIAS + 1 on.
struct "GCtrace" {
  fields = {
    traceno = scalar "traceno",
    nk      = scalar "nk",
    nins    = scalar "nins",
    ir      = array { ptr = "ir", first = "nk", count = "nins", of = "IRIns",
                      stride = 8 },
    listing = computed(pure(listing)),
  },
  text = "{listing}",
}

-- lj_trace.c's trace_state, LJ_TRACE_END and LJ_TRACE_ASM: dead code
-- elimination, loop optimization (root loops), sinking, then the
-- assembler, each given the jit_State J. lj_opt_split runs between loop
-- optimization and sinking on 32-bit targets only; on x64 it is a macro
-- that does nothing, no function to break at: a 32-bit build's layout
-- adds "lj_opt_split" after "lj_opt_loop".
-- Every trace runs the same passes, so the trace number is part of a
-- pass's name: "lj_opt_sink#3" is sinking on trace 3 (instance).
boundary { functions = { "lj_opt_dce", "lj_opt_loop", "lj_opt_sink",
                         "lj_asm_trace" },
           ir = "&J->cur", type = "GCtrace", instance = "J->cur.traceno" }

-- What a failure is reduced on is the Lua program (input = "program": a
-- trace is compiled from the program as a whole, and luajit reads no IR
-- text): the run keeps a copy as input/NAME.lua, and the reduce_command
-- re-runs luajit on the reducer's candidate program with the options the
-- failing run had. Lua's comments start with "--".
reduce {
  units = { "GCtrace" },
  input = "program",
  rerun = "{exe} {flags} {input}",
  comment = "--",
}
