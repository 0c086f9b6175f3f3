-- LLVM 14's IR, read from a release build (Debian's opt-14 and
-- libLLVM-14.so.1: no debug info) through a type donor, and printed as
-- `opt-14 -print-after-all` prints a function after a function pass:
-- "; Function Attrs: ...", "define ... {", the blocks, "}".
--
--   irsnap donor common/layouts/llvm14.lua -I build/real/llvm-14-headers/lib/IR
--   (gdb) ir-layout load common/layouts/llvm14.lua
--   (gdb) ir-trace on
--   (gdb) run -passes=sroa,instcombine -disable-output prog.ll
--
-- Where LLVM keeps what it prints is often not where one would look; the
-- comments below say where, for the readers who will write the layout of
-- their own LLVM-based compiler from this one. Offsets come from the
-- donor's DWARF (members of base classes by name); what the donor cannot
-- say (an opcode's number, a bit inside SubclassData) is written here,
-- from LLVM 14's headers.
layout { name = "llvm14", root = "Function" }

donor {
  source  = "llvm14/donor.cpp",
  include = { "/usr/lib/llvm-14/include" },
  flags   = { "-std=c++17", "-DNDEBUG", "-fno-exceptions" },
  -- what the debuggee's libLLVM says of the headers it was built from
  fits = {
    { fact = "irsnap_llvm_version_major", library = "^libLLVM-([0-9]+)\\.so" },
    { fact = "irsnap_abi_breaking_checks", symbol = "llvm::EnableABIBreakingChecks", value = 1 },
    { fact = "irsnap_abi_breaking_checks", symbol = "llvm::DisableABIBreakingChecks", value = 0 },
  },
}

local llvm = require "irsnap.llvm"
local std = require "irsnap.std"

-- {====================================================== tables

-- Opcodes (llvm/IR/Instruction.def): an instruction's SubclassID is
-- Value::InstructionVal plus its opcode.
local OPCODES = {
  "ret", "br", "switch", "indirectbr", "invoke", "resume", "unreachable",
  "cleanupret", "catchret", "catchswitch", "callbr", "fneg", "add", "fadd",
  "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem",
  "frem", "shl", "lshr", "ashr", "and", "or", "xor", "alloca", "load",
  "store", "getelementptr", "fence", "cmpxchg", "atomicrmw", "trunc",
  "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp", "fptrunc",
  "fpext", "ptrtoint", "inttoptr", "bitcast", "addrspacecast",
  "cleanuppad", "catchpad", "icmp", "fcmp", "phi", "call", "select",
  "userop1", "userop2", "va_arg", "extractelement", "insertelement",
  "shufflevector", "extractvalue", "insertvalue", "landingpad", "freeze",
}
local OP = {}
for i, name in ipairs(OPCODES) do OP[name] = i end
-- Value::InstructionVal in LLVM 14 (Value.def), for conditions, which
-- take numbers (a cast's keys take "InstructionVal+N", from the donor).
-- TODO(h-lang): enum names in arithmetic, {?id >= InstructionVal + 1}.
local INSTRUCTION_VAL = 27

-- Attribute names (llvm/IR/Attributes.inc: ATTRIBUTE_ENUM(Name, text)):
-- the enumerators of Attribute::AttrKind as the IR spells them.
local ATTRS = {
  Alignment = "align", AllocSize = "allocsize", AlwaysInline = "alwaysinline",
  ArgMemOnly = "argmemonly", Builtin = "builtin", ByRef = "byref",
  ByVal = "byval", Cold = "cold", Convergent = "convergent",
  Dereferenceable = "dereferenceable",
  DereferenceableOrNull = "dereferenceable_or_null",
  DisableSanitizerInstrumentation = "disable_sanitizer_instrumentation",
  ElementType = "elementtype", Hot = "hot", ImmArg = "immarg",
  InAlloca = "inalloca", InReg = "inreg",
  InaccessibleMemOnly = "inaccessiblememonly",
  InaccessibleMemOrArgMemOnly = "inaccessiblemem_or_argmemonly",
  InlineHint = "inlinehint", JumpTable = "jumptable", MinSize = "minsize",
  MustProgress = "mustprogress", Naked = "naked", Nest = "nest",
  NoAlias = "noalias", NoBuiltin = "nobuiltin", NoCallback = "nocallback",
  NoCapture = "nocapture", NoCfCheck = "nocf_check",
  NoDuplicate = "noduplicate", NoFree = "nofree",
  NoImplicitFloat = "noimplicitfloat", NoInline = "noinline",
  NoMerge = "nomerge", NoProfile = "noprofile", NoRecurse = "norecurse",
  NoRedZone = "noredzone", NoReturn = "noreturn",
  NoSanitizeCoverage = "nosanitize_coverage", NoSync = "nosync",
  NoUndef = "noundef", NoUnwind = "nounwind", NonLazyBind = "nonlazybind",
  NonNull = "nonnull", NullPointerIsValid = "null_pointer_is_valid",
  OptForFuzzing = "optforfuzzing", OptimizeForSize = "optsize",
  OptimizeNone = "optnone", Preallocated = "preallocated",
  ReadNone = "readnone", ReadOnly = "readonly", Returned = "returned",
  ReturnsTwice = "returns_twice", SExt = "signext", SafeStack = "safestack",
  SanitizeAddress = "sanitize_address",
  SanitizeHWAddress = "sanitize_hwaddress",
  SanitizeMemTag = "sanitize_memtag", SanitizeMemory = "sanitize_memory",
  SanitizeThread = "sanitize_thread", ShadowCallStack = "shadowcallstack",
  Speculatable = "speculatable",
  SpeculativeLoadHardening = "speculative_load_hardening",
  StackAlignment = "alignstack", StackProtect = "ssp",
  StackProtectReq = "sspreq", StackProtectStrong = "sspstrong",
  StrictFP = "strictfp", StructRet = "sret", SwiftAsync = "swiftasync",
  SwiftError = "swifterror", SwiftSelf = "swiftself", UWTable = "uwtable",
  VScaleRange = "vscale_range", WillReturn = "willreturn",
  WriteOnly = "writeonly", ZExt = "zeroext",
}

-- Metadata kinds fixed at LLVMContext's creation (FixedMetadataKinds.def);
-- the others (a front end's !srcloc, !heapallocsite) are numbered by
-- first use, named in the context's CustomMDKindNames (MD_CUSTOM below).
local MD_KINDS = {
  [0] = "dbg", "tbaa", "prof", "fpmath", "range", "tbaa.struct",
  "invariant.load", "alias.scope", "noalias", "nontemporal",
  "llvm.mem.parallel_loop_access", "nonnull", "dereferenceable",
  "dereferenceable_or_null", "make.implicit", "unpredictable",
  "invariant.group", "align", "llvm.loop", "type", "section_prefix",
  "absolute_symbol", "associated", "callees", "irr_loop",
  "llvm.access.group", "callback", "llvm.preserve.access.index",
  "vcall_visibility", "noundef", "annotation",
}

-- An alignment is kept as its log2 in 6 bits; printed as the power.
-- TODO(h-lang): {=1 << a} once templates shift.
local POW2 = {}
for i = 0, 32 do POW2[i] = tostring(1 << i) end

-- Bits of Value::SubclassData, a 16-bit member of every Value, carved by
-- each class's Bitfield::Element aliases.
local function SD(bit, width) return { at = "SubclassData", bit = bit, width = width } end

local ORDERINGS = { [0] = "notatomic", "unordered", "monotonic", "consume",
                    "acquire", "release", "acq_rel", "seq_cst" }
local RMW_OPS = { [0] = "xchg", "add", "sub", "and", "nand", "or", "xor",
                  "max", "min", "umax", "umin", "fadd", "fsub" }

-- Calling conventions (CallingConv::ID, 10 bits) as printCallingConv
-- names them: the named ones opt-14 -S prints for "cc N", the others
-- "ccN". avr's two keep the blank LLVM 14 prints after them.
local CCS = {}
for i = 0, 1023 do CCS[i] = "cc" .. i end
local function ccs_from(first, names)
  for i, s in ipairs(names) do
    if s ~= "" then CCS[first + i - 1] = s end
  end
end
ccs_from(8, { "fastcc", "coldcc", "ghccc", "", "webkit_jscc", "anyregcc",
  "preserve_mostcc", "preserve_allcc", "swiftcc", "cxx_fast_tlscc",
  "tailcc", "cfguard_checkcc", "swifttailcc" })
ccs_from(64, { "x86_stdcallcc", "x86_fastcallcc", "arm_apcscc",
  "arm_aapcscc", "arm_aapcs_vfpcc", "msp430_intrcc", "x86_thiscallcc",
  "ptx_kernel", "ptx_device", "", "", "spir_func", "spir_kernel",
  "intel_ocl_bicc", "x86_64_sysvcc", "win64cc", "x86_vectorcallcc",
  "hhvmcc", "hhvm_ccc", "x86_intrcc", "avr_intrcc ", "avr_signalcc ", "",
  "amdgpu_vs", "amdgpu_gs", "amdgpu_ps", "amdgpu_cs", "amdgpu_kernel",
  "x86_regcallcc", "amdgpu_hs", "", "amdgpu_ls", "amdgpu_es",
  "aarch64_vector_pcs", "aarch64_sve_vector_pcs", "", "amdgpu_gfx" })

-- }======================================================

-- {====================================================== hash maps

-- A Value's name is not in the Value: LLVMContextImpl::ValueNames maps
-- it to a StringMapEntry<Value *>, whose chars follow its 16 bytes. An
-- instruction's metadata but !dbg is in LLVMContextImpl::ValueMetadata.
-- Both are DenseMaps keyed by the Value's address (irsnap.llvm.densemap).
struct "DenseMap" (llvm.densemap_struct())

struct "StringMap" (llvm.stringmap_struct())

struct "LLVMContextImpl" {
  ctype = "llvm::LLVMContextImpl", node = false,
  fields = {
    CustomMDKindNames = embed("CustomMDKindNames", "StringMap"),
    ValueNames    = embed("ValueNames", "DenseMap"),
    ValueMetadata = embed("ValueMetadata", "DenseMap"),
    GlobalObjectSections = embed("GlobalObjectSections", "DenseMap"),
  },
}

struct "LLVMContext" {
  ctype = "llvm::LLVMContext", node = false,
  fields = { pImpl = ptr("pImpl", "LLVMContextImpl") },
}

struct "ValueName" {
  ctype = "llvm::StringMapEntry<llvm::Value *>", node = false,
  fields = { key = chars({ at = "after" }, "keyLength") },
  text = "{key}",
}

-- }======================================================

-- {====================================================== types

-- A Type is printed wherever it is used, by its ref; its class is its ID.
local SIMPLE_TYPES = {
  HalfTyID = "half", BFloatTyID = "bfloat", FloatTyID = "float",
  DoubleTyID = "double", X86_FP80TyID = "x86_fp80", FP128TyID = "fp128",
  PPC_FP128TyID = "ppc_fp128", VoidTyID = "void", LabelTyID = "label",
  MetadataTyID = "metadata", X86_MMXTyID = "x86_mmx",
  X86_AMXTyID = "x86_amx", TokenTyID = "token",
}

local type_cases = {
  IntegerTyID = "IntegerType", PointerTyID = "PointerType",
  StructTyID = "StructType", ArrayTyID = "ArrayType",
  FixedVectorTyID = "FixedVectorType",
  ScalableVectorTyID = "ScalableVectorType",
  FunctionTyID = "FunctionType",
}
for id, kw in pairs(SIMPLE_TYPES) do
  type_cases[id] = "Ty_" .. kw
  struct ("Ty_" .. kw) { ctype = "llvm::Type", fields = {}, ref = kw }
end

struct "Type" {
  ctype = "llvm::Type",
  fields = {
    id  = enum "ID",
    ctx = ptr("Context", "LLVMContext"),
    -- for numbering module_types: the class's 24 bits (a struct's
    -- SCDB_IsLiteral is 4) and what every type contains (a typed
    -- pointer's pointee, an array's element, a struct's or a function
    -- type's members), as TypeFinder walks them
    sd  = scalar "SubclassData",
    sub = array { ptr = "ContainedTys", count = "NumContainedTys", of = ref "Type" },
  },
  cast = { by = "id", cases = type_cases },
  ref = "<type {id}>",
}

-- An integer type's width is its SubclassData.
struct "IntegerType" {
  ctype = "llvm::IntegerType",
  fields = { width = scalar "SubclassData" },
  ref = "i{width}",
}

-- Typed pointers (LLVM 14's default): the pointee, then '*'; the address
-- space is the SubclassData. An opaque pointer has no pointee.
struct "PointerType" {
  ctype = "llvm::PointerType",
  fields = { pointee = ref("PointeeTy", "Type"), as = scalar "SubclassData" },
  ref = "{?pointee}{pointee}{?as} addrspace({as}){/}*{:}ptr{?as} addrspace({as}){/}{/}",
}

-- (ielt: the element seen as an integer type, for its width)
struct "ArrayType" {
  ctype = "llvm::ArrayType",
  fields = { elt = ref("ContainedType", "Type"), n = scalar "NumElements",
             ielt = ref("ContainedType", "IntegerType") },
  ref = "[{n} x {elt}]",
}

struct "FixedVectorType" {
  ctype = "llvm::VectorType",
  fields = { elt = ref("ContainedType", "Type"), n = scalar "ElementQuantity",
             ielt = ref("ContainedType", "IntegerType") },
  ref = "<{n} x {elt}>",
}

struct "ScalableVectorType" {
  ctype = "llvm::VectorType",
  fields = { elt = ref("ContainedType", "Type"), n = scalar "ElementQuantity" },
  ref = "<vscale x {n} x {elt}>",
}

-- A named struct's name is the key of its SymbolTableEntry, a
-- StringMapEntry<StructType *> (a void * in the class): 16 bytes, then
-- the chars. Packed is bit 1 of SubclassData (SCDB_Packed).
struct "StructName" {
  size = 16, node = false,
  fields = { key = chars({ at = "after" }, 0) },
  text = "{key}",
}

local function struct_fields()
  return {
    name    = ptr("SymbolTableEntry", "StructName"),
    hasbody = bits { at = "SubclassData", bit = 0, width = 1 },
    packed  = bits { at = "SubclassData", bit = 1, width = 1 },
    elts    = array { ptr = "ContainedTys", count = "NumContainedTys",
                      of = ref "Type" },
  }
end
-- a struct's body: { i32, double }, <{ i8, i32 }> when packed
local STRUCT_BODY = "{?packed}<{/}{?elts}{{ {elts*, } }}{:}{{}}{/}{?packed}>{/}"
struct "StructType" {
  ctype = "llvm::StructType",
  fields = struct_fields(),
  ref = "{?name}%{name:llvm_name}{:}" .. STRUCT_BODY .. "{/}",
}

-- A function type: ContainedTys[0] the result, the parameters after it;
-- vararg when SubclassData is not 0.
struct "FunctionType" {
  ctype = "llvm::FunctionType",
  fields = {
    ret    = array { ptr = "ContainedTys", count = "NumContainedTys",
                     limit = 1, of = ref "Type" },
    params = array { ptr = "ContainedTys", skip = 8, count = "NumContainedTys",
                     drop = 1, of = ref "Type" },
    vararg = scalar "SubclassData",
  },
  ref = "{ret} ({params*, }{?vararg}{?params}, {/}...{/})",
}

-- }======================================================

-- {====================================================== values

-- Every Value: its type, its class (SubclassID) and its name.
local function value_fields(extra)
  local f = {
    -- a plain unsigned char, valued as Value::ValueTy
    id      = enum("SubclassID", { type = "llvm::Value::ValueTy" }),
    vty     = ref("VTy", "Type"),
    hasname = scalar "HasName",
    name    = llvm.densemap { map = "vty.ctx.pImpl.ValueNames",
                              of = ptr "ValueName" },
  }
  for k, v in pairs(extra or {}) do f[k] = v end
  return f
end

-- A local value's name, or its number in the function's slot tracker.
local LOCAL = "%{?hasname}{name:llvm_name}{:}{slot}{/}"

-- An operand: a Use, 32 bytes ({ Val, Next, Prev, Parent }).
struct "Use" {
  ctype = "llvm::Use", node = false,
  fields = { val = ref("Val", "Value") },
  text = "{val.vty} {val}",
}
-- The same printed without its type.
struct "UseV" {
  ctype = "llvm::Use", node = false,
  fields = { val = ref("Val", "Value") },
  text = "{val}",
}

-- A User's NumUserOperands Uses lie just before it; a PHI's, a switch's
-- and an indirectbr's (HasHungOffUses) behind a pointer 8 bytes before
-- it. These arrays give all of them, the first, the others, and the
-- last.
-- TODO(h-lang): {ops[0]}, {ops[1:]*, }, {ops[-1]} once templates index.
local function operands(f)
  local hung = { when = "HasHungOffUses", ptr = -8 }
  f.ops = array { at = "before", count = "NumUserOperands", of = "Use", alt = hung }
  f.opsv = array { at = "before", count = "NumUserOperands", of = "UseV", alt = hung }
  local before_last = { { "NumUserOperands", 32 }, -32 }
  f.op0 = array { at = "before", skip = before_last, count = "NumUserOperands",
                  limit = 1, of = "Use", alt = hung }
  f.rest = array { at = "before", count = "NumUserOperands", drop = 1,
                   of = "UseV", alt = { when = "HasHungOffUses", ptr = -8, skip = 32 } }
  f.restt = array { at = "before", count = "NumUserOperands", drop = 1,
                    of = "Use", alt = { when = "HasHungOffUses", ptr = -8, skip = 32 } }
  f.last = array { at = "before", count = "NumUserOperands", limit = 1,
                   of = "UseV", alt = { when = "HasHungOffUses", ptr = -8,
                                        skip = before_last } }
  f.butlast = array { at = "before", skip = 32, count = "NumUserOperands",
                      drop = 1, of = "Use" }
  return f
end

-- }======================================================

-- {====================================================== constants

struct "ConstantInt" {
  ctype = "llvm::ConstantInt",
  fields = value_fields {
    ity = ref("VTy", "IntegerType"),
    val = apint { value = "Val.U.VAL", words = "Val.U.pVal", width = "Val.BitWidth" },
  },
  -- an i1 is true or false, any other width signed
  ref = "{?ity.width == 1}{?val == 0}false{:}true{/}{:}{val}{/}",
}

-- An APFloat is an IEEEFloat (or, for ppc_fp128 only, a DoubleAPFloat):
-- its semantics, significand (one word, or behind a pointer when more
-- than 64 bits: x86_fp80's 64 + 1), exponent, category and sign.
struct "ConstantFP" {
  ctype = "llvm::ConstantFP",
  fields = value_fields {
    val = apfloat { semantics = "Val.U.IEEE.semantics",
                    significand = "Val.U.IEEE.significand",
                    exponent = "Val.U.IEEE.exponent",
                    category = "Val.U.IEEE.category", sign = "Val.U.IEEE.sign" },
  },
  ref = "{val}",
}

struct "ConstantPointerNull" { ctype = "llvm::ConstantPointerNull", fields = value_fields(), ref = "null" }
struct "UndefValue" { ctype = "llvm::UndefValue", fields = value_fields(), ref = "undef" }
struct "PoisonValue" { ctype = "llvm::PoisonValue", fields = value_fields(), ref = "poison" }
struct "ConstantAggregateZero" { ctype = "llvm::ConstantAggregateZero", fields = value_fields(), ref = "zeroinitializer" }
struct "ConstantTokenNone" { ctype = "llvm::ConstantTokenNone", fields = value_fields(), ref = "none" }
-- Inline asm, a call's callee: its text and constraints are std::strings
-- of the InlineAsm (libstdc++'s layout), printed escaped as AsmWriter does.
struct "InlineAsm" {
  ctype = "llvm::InlineAsm",
  fields = value_fields {
    asm = std.string "AsmString", constraints = std.string "Constraints",
    side = scalar "HasSideEffects", alignstack = scalar "IsAlignStack",
    dialect = scalar "Dialect", unwind = scalar "CanThrow",
  },
  ref = "asm {?side}sideeffect {/}{?alignstack}alignstack {/}"
      .. "{?dialect}inteldialect {/}{?unwind}unwind {/}"
      .. "\"{asm:escaped}\", \"{constraints:escaped}\"",
}

-- blockaddress(@f, %bb): a block's address, its two operands the
-- function and the block (numbered in its function, wherever the
-- constant is used: a global's initializer too).
struct "BlockAddress" {
  ctype = "llvm::BlockAddress", fields = operands(value_fields()),
  ref = "blockaddress({opsv*, })",
}
-- Aggregates: their elements are their operands, typed.
struct "ConstantStruct" {
  ctype = "llvm::ConstantStruct",
  fields = operands(value_fields { sty = ref("VTy", "StructType") }),
  ref = "{?sty.packed}<{/}{{ {ops*, } }}{?sty.packed}>{/}",
}
struct "ConstantArray" {
  ctype = "llvm::ConstantArray", fields = operands(value_fields()), ref = "[{ops*, }]",
}
struct "ConstantVector" {
  ctype = "llvm::ConstantVector", fields = operands(value_fields()), ref = "<{ops*, }>",
}

-- Constant data keeps its elements as raw bytes, as many as its type
-- says; each is printed with the element type.
local function data_fields(tyname)
  local ty = ref("VTy", tyname)
  local function seq(of) return array { ptr = "DataElements", length = "ty.n", of = of } end
  return value_fields {
    ty  = ty,
    i8  = seq(i8 {}), i16 = seq(i16 {}), i32 = seq(i32 {}), i64 = seq(i64 {}),
    f32 = seq("F32"), f64 = seq("F64"),
  }
end
struct "F32" { size = 4, node = false, fields = { v = apfloat { bits = u32(0), semantics = "float" } }, text = "float {v}" }
struct "F64" { size = 8, node = false, fields = { v = apfloat { bits = u64(0), semantics = "double" } }, text = "double {v}" }
local DATA = "{?ty.elt.id == FloatTyID}{f32*, }{/}{?ty.elt.id == DoubleTyID}{f64*, }{/}"
  .. "{?ty.elt.id == IntegerTyID}"
  .. "{?ty.ielt.width == 8}i8 {i8*, i8 }{/}{?ty.ielt.width == 16}i16 {i16*, i16 }{/}"
  .. "{?ty.ielt.width == 32}i32 {i32*, i32 }{/}{?ty.ielt.width == 64}i64 {i64*, i64 }{/}{/}"
struct "ConstantDataVector" {
  ctype = "llvm::ConstantDataVector", fields = data_fields("FixedVectorType"),
  ref = "<" .. DATA .. ">",
}
-- An array of i8 is a string (isString): c"...", a backslash doubled,
-- '"' and what does not print as \XX (printEscapedString).
local function c_string(n)
  local out = {}
  for i, c in ipairs(n.i8 or {}) do
    c = c & 255
    out[i] = c == 92 and "\\\\" or (c >= 32 and c < 127 and c ~= 34)
      and string.char(c) or string.format("\\%02X", c)
  end
  return table.concat(out)
end
local cda = data_fields("ArrayType")
cda.str = computed(pure(c_string))
struct "ConstantDataArray" {
  ctype = "llvm::ConstantDataArray", fields = cda,
  ref = "{?ty.elt.id == IntegerTyID and ty.ielt.width == 8}c\"{str}\"{:}["
     .. DATA .. "]{/}",
}

-- A constant expression: its opcode is its SubclassData; a GEP keeps its
-- source element type (GetElementPtrConstantExpr, a private class).
struct "ConstantExpr" {
  ctype = "llvm::ConstantExpr",
  fields = operands(value_fields {
    opcode = enum("SubclassData", { names = OPCODES }),
    flags  = scalar "SubclassOptionalData",
  }),
  ref = "{opcode} ({ops*, })",
}
-- A GEP constant may mark one index inrange (C++ vtables): the rest of
-- SubclassOptionalData is that index + 1 (GEPOperator::getInRangeIndex),
-- operand J = that + 1 printed after "inrange ". The operands before J
-- and from J on are arrays of their own for J up to 6.
-- TODO(h-lang): {?# == ^GEPConstantExpr.inrange}inrange {/} in an
-- operand's template instead.
local gep_fields = {
  src = ref("SrcElementTy", "Type"),
  inbounds = bits { at = "SubclassOptionalData", bit = 0, width = 1 },
  inrange = bits { at = "SubclassOptionalData", bit = 1, width = 6 },
}
local GEP_OPS = "{?inrange == 0}{ops*, }{/}"
for j = 1, 6 do
  gep_fields["pre" .. j] = array { at = "before", count = "NumUserOperands",
    skip = { { "NumUserOperands", 32 }, -32 * j }, limit = j, of = "Use" }
  gep_fields["post" .. j] = array { at = "before", count = "NumUserOperands",
    drop = j, of = "Use" }
  GEP_OPS = GEP_OPS .. "{?inrange == " .. j .. "}{pre" .. j .. "*, }, inrange {post"
    .. j .. "*, }{/}"
end
struct "GEPConstantExpr" {
  ctype = "llvm::GetElementPtrConstantExpr",
  fields = operands(value_fields(gep_fields)),
  ref = "getelementptr{?inbounds} inbounds{/} ({src}, " .. GEP_OPS .. ")",
}
local cast_ops = {}
for _, op in ipairs { "trunc", "zext", "sext", "fptoui", "fptosi", "uitofp",
                      "sitofp", "fptrunc", "fpext", "ptrtoint", "inttoptr",
                      "bitcast", "addrspacecast" } do
  cast_ops[OP[op]] = op
end
struct "CastConstantExpr" {
  ctype = "llvm::ConstantExpr",
  fields = operands(value_fields { opcode = enum("SubclassData", { names = cast_ops }) }),
  ref = "{opcode} ({op0} to {vty})",
}
struct "AnyConstantExpr" {
  ctype = "llvm::ConstantExpr",
  fields = { opcode = u16 "SubclassData" },
  cast = { by = "opcode", cases = (function()
    local c = { [OP.getelementptr] = "GEPConstantExpr" }
    for n in pairs(cast_ops) do c[n] = "CastConstantExpr" end
    return c end)(), default = "ConstantExpr" },
}

-- LLVM's identifier quoting (PrintLLVMName): bare when all of it is
-- [-a-zA-Z._0-9] but a leading digit, else "..." with \XX escapes.
local function quote(s)
  if s:match("^[%a%.%-_][%w%.%-_]*$") and not s:match("^%d") then return s end
  return '"' .. s:gsub('[^ !#-%[%]-~]', function(c)
    return string.format("\\%02X", c:byte()) end) .. '"'
end
-- " comdat" after a global object, and "($name)" when the comdat is
-- named otherwise (maybePrintComdat).
-- TODO(h-lang): {?comdat.name.key != name} once strings compare.
local function comdat_name(n)
  local c = n.comdat and n.comdat.name and n.comdat.name.key
  if not c or (n.name and c == n.name.key) then return "" end
  return "($" .. quote(c) .. ")"
end

-- Globals are named: @name.
local LINKAGES = {
  ExternalLinkage = "", AvailableExternallyLinkage = "available_externally ",
  LinkOnceAnyLinkage = "linkonce ", LinkOnceODRLinkage = "linkonce_odr ",
  WeakAnyLinkage = "weak ", WeakODRLinkage = "weak_odr ",
  AppendingLinkage = "appending ", InternalLinkage = "internal ",
  PrivateLinkage = "private ", ExternalWeakLinkage = "extern_weak ",
  CommonLinkage = "common ",
}
-- dso_local unless implied: by a local linkage, or by a visibility
-- other than default (but for extern_weak).
local DSO_LOCAL_VISIBILITY = "{?dsolocal and linkage != InternalLinkage"
  .. " and linkage != PrivateLinkage and (visibility == 0"
  .. " or linkage == ExternalWeakLinkage)}dso_local {/}"
  .. "{?visibility == 1}hidden {/}{?visibility == 2}protected {/}"
local function global_fields(extra)
  local f = value_fields(extra)
  -- printed as getLinkageNameWithSpace does: nothing when external
  f.linkage = enum("Linkage", { type = "llvm::GlobalValue::LinkageTypes",
                                rename = LINKAGES })
  f.visibility = scalar "Visibility"
  f.unnamed = scalar "UnnamedAddrVal"
  f.dsolocal = scalar "IsDSOLocal"
  return f
end
-- A global variable, as a module prints it (printGlobal): its
-- initializer is its one operand, the Use just before it (none for an
-- external declaration); constant, thread_local and the alignment are
-- bits of GlobalVariable, GlobalValue and GlobalObject.
local TLS = { [0] = "", "thread_local ", "thread_local(localdynamic) ",
              "thread_local(initialexec) ", "thread_local(localexec) " }
local GV_ALIGN = {}
for i = 1, 33 do GV_ALIGN[i] = tostring(1 << (i - 1)) end
struct "GlobalVariable" {
  ctype = "llvm::GlobalVariable",
  fields = global_fields {
    md = llvm.densemap { map = "vty.ctx.pImpl.ValueMetadata", of = "MDAttachments" },
    vt = ref("ValueType", "Type"),
    nops = scalar "NumUserOperands",
    init = array { at = "before", count = "NumUserOperands", of = "UseV" },
    isconst = scalar "isConstantGlobal",
    tls = enum("ThreadLocal", { names = TLS }),
    galign = enum({ at = "SubClassData", bit = 0, width = 6 }, { names = GV_ALIGN }),
    section = llvm.densemap { map = "vty.ctx.pImpl.GlobalObjectSections",
                              of = "SectionName" },
    comdat = ptr("ObjComdat", "Comdat"),
    comdat_name = computed(pure(comdat_name)),
  },
  ref = "@{name:llvm_name}",
  text = "@{name:llvm_name} = {?nops == 0 and linkage == ExternalLinkage}external {/}"
      .. "{linkage}" .. DSO_LOCAL_VISIBILITY .. "{tls}"
      .. "{?unnamed == 2}unnamed_addr {/}{?unnamed == 1}local_unnamed_addr {/}"
      .. "{?isconst}constant{:}global{/} {vt}{?nops} {init}{/}"
      .. "{?section}, section \"{section}\"{/}"
      .. "{?comdat}, comdat{comdat_name}{/}{?galign != 0}, align {galign}{/}{md}\n",
}

-- }======================================================

-- {====================================================== metadata

-- Metadata is numbered !N over the whole module, first use first, depth
-- first through each node's operands (numbering "md" below); a
-- DIExpression or DIArgList is printed whole wherever it is used.
local md_cases = {
  MDStringKind = "MDString", ConstantAsMetadataKind = "ValueAsMetadata",
  LocalAsMetadataKind = "ValueAsMetadata", DIExpressionKind = "DIExpression",
  DIArgListKind = "DIArgList",
}
-- An MDNode's operands lie just before it, NumOperands MDOperands.
local MDKIND = { type = "llvm::Metadata::MetadataKind" }
local function mdnode_fields(extra)
  local f = {
    id  = enum("SubclassID", MDKIND),
    ops = array { at = "before", count = "NumOperands", of = "MDOperand" },
    n   = num "md",
    -- numbered as the module printer does, when the Module is what is
    -- printed (its numbering below)
    mn  = num "module_md",
  }
  for k, v in pairs(extra or {}) do f[k] = v end
  return f
end
struct "MDOperand" {
  ctype = "llvm::MDOperand", node = false,
  fields = { md = ref("MD", "Metadata") },
  text = "{?md}{md}{:}null{/}",
}
struct "Metadata" {
  ctype = "llvm::Metadata",
  fields = { id = enum("SubclassID", MDKIND) },
  cast = { by = "id", cases = md_cases, default = "MDNode" },
}
-- A node is numbered by the printer of what is being printed: a
-- function (-print-after-all: the function's slot tracker) or, when a
-- Module encloses the walk, the module's (opt -S).
local MDNUM = "{?^Module}{mn}{:}{n}{/}"
struct "MDNode" { ctype = "llvm::MDNode", fields = mdnode_fields(), ref = "!" .. MDNUM }
-- An MDString's chars follow its StringMapEntry<MDString> (8 + 16 bytes).
struct "MDStringEntry" {
  size = 24, node = false,
  fields = { key = chars({ at = "after" }, 0) },
  text = "{key}",
}
struct "MDString" {
  ctype = "llvm::MDString",
  fields = { id = enum("SubclassID", MDKIND), entry = ptr("Entry", "MDStringEntry") },
  ref = "!{entry:quoted}",
}
struct "ValueAsMetadata" {
  ctype = "llvm::ValueAsMetadata",
  fields = { id = enum("SubclassID", MDKIND), v = ref("V", "Value") },
  ref = "{v.vty} {v}",
}
-- DWARF's names, as Dwarf.def (LLVM 14) spells them without their
-- DW_*_ prefix: a number with none prints as the number.
-- dwarf::TagString: DW_TAG_ + the name (Dwarf.def)
local DW_TAG = {
  [0x0] = "null", [0x1] = "array_type", [0x2] = "class_type",
  [0x3] = "entry_point", [0x4] = "enumeration_type",
  [0x5] = "formal_parameter", [0x8] = "imported_declaration",
  [0xa] = "label", [0xb] = "lexical_block", [0xd] = "member",
  [0xf] = "pointer_type", [0x10] = "reference_type", [0x11] = "compile_unit",
  [0x12] = "string_type", [0x13] = "structure_type",
  [0x15] = "subroutine_type", [0x16] = "typedef", [0x17] = "union_type",
  [0x18] = "unspecified_parameters", [0x19] = "variant",
  [0x1a] = "common_block", [0x1b] = "common_inclusion",
  [0x1c] = "inheritance", [0x1d] = "inlined_subroutine", [0x1e] = "module",
  [0x1f] = "ptr_to_member_type", [0x20] = "set_type",
  [0x21] = "subrange_type", [0x22] = "with_stmt",
  [0x23] = "access_declaration", [0x24] = "base_type",
  [0x25] = "catch_block", [0x26] = "const_type", [0x27] = "constant",
  [0x28] = "enumerator", [0x29] = "file_type", [0x2a] = "friend",
  [0x2b] = "namelist", [0x2c] = "namelist_item", [0x2d] = "packed_type",
  [0x2e] = "subprogram", [0x2f] = "template_type_parameter",
  [0x30] = "template_value_parameter", [0x31] = "thrown_type",
  [0x32] = "try_block", [0x33] = "variant_part", [0x34] = "variable",
  [0x35] = "volatile_type", [0x36] = "dwarf_procedure",
  [0x37] = "restrict_type", [0x38] = "interface_type", [0x39] = "namespace",
  [0x3a] = "imported_module", [0x3b] = "unspecified_type",
  [0x3c] = "partial_unit", [0x3d] = "imported_unit", [0x3f] = "condition",
  [0x40] = "shared_type", [0x41] = "type_unit",
  [0x42] = "rvalue_reference_type", [0x43] = "template_alias",
  [0x44] = "coarray_type", [0x45] = "generic_subrange",
  [0x46] = "dynamic_type", [0x47] = "atomic_type", [0x48] = "call_site",
  [0x49] = "call_site_parameter", [0x4a] = "skeleton_unit",
  [0x4b] = "immutable_type", [0x4081] = "MIPS_loop",
  [0x4101] = "format_label", [0x4102] = "function_template",
  [0x4103] = "class_template", [0x4104] = "GNU_BINCL",
  [0x4105] = "GNU_EINCL", [0x4106] = "GNU_template_template_param",
  [0x4107] = "GNU_template_parameter_pack",
  [0x4108] = "GNU_formal_parameter_pack", [0x4109] = "GNU_call_site",
  [0x410a] = "GNU_call_site_parameter", [0x4200] = "APPLE_property",
  [0x4201] = "SUN_function_template", [0x4202] = "SUN_class_template",
  [0x4203] = "SUN_struct_template", [0x4204] = "SUN_union_template",
  [0x4205] = "SUN_indirect_inheritance", [0x4206] = "SUN_codeflags",
  [0x4207] = "SUN_memop_info", [0x4208] = "SUN_omp_child_func",
  [0x4209] = "SUN_rtti_descriptor", [0x420a] = "SUN_dtor_info",
  [0x420b] = "SUN_dtor", [0x420c] = "SUN_f90_interface",
  [0x420d] = "SUN_fortran_vax_structure", [0x42ff] = "SUN_hi",
  [0x5101] = "ALTIUM_circ_type", [0x5102] = "ALTIUM_mwa_circ_type",
  [0x5103] = "ALTIUM_rev_carry_type", [0x5111] = "ALTIUM_rom",
  [0x6000] = "LLVM_annotation", [0x8004] = "GHS_namespace",
  [0x8005] = "GHS_using_namespace", [0x8006] = "GHS_using_declaration",
  [0x8007] = "GHS_template_templ_param", [0x8765] = "UPC_shared_type",
  [0x8766] = "UPC_strict_type", [0x8767] = "UPC_relaxed",
  [0xa000] = "PGI_kanji_type", [0xa020] = "PGI_interface_block",
  [0xb000] = "BORLAND_property", [0xb001] = "BORLAND_Delphi_string",
  [0xb002] = "BORLAND_Delphi_dynamic_array", [0xb003] = "BORLAND_Delphi_set",
  [0xb004] = "BORLAND_Delphi_variant",
}

-- dwarf::LanguageString: DW_LANG_ + the name
local DW_LANG = {
  [0x1] = "C89", [0x2] = "C", [0x3] = "Ada83", [0x4] = "C_plus_plus",
  [0x5] = "Cobol74", [0x6] = "Cobol85", [0x7] = "Fortran77",
  [0x8] = "Fortran90", [0x9] = "Pascal83", [0xa] = "Modula2", [0xb] = "Java",
  [0xc] = "C99", [0xd] = "Ada95", [0xe] = "Fortran95", [0xf] = "PLI",
  [0x10] = "ObjC", [0x11] = "ObjC_plus_plus", [0x12] = "UPC", [0x13] = "D",
  [0x14] = "Python", [0x15] = "OpenCL", [0x16] = "Go", [0x17] = "Modula3",
  [0x18] = "Haskell", [0x19] = "C_plus_plus_03", [0x1a] = "C_plus_plus_11",
  [0x1b] = "OCaml", [0x1c] = "Rust", [0x1d] = "C11", [0x1e] = "Swift",
  [0x1f] = "Julia", [0x20] = "Dylan", [0x21] = "C_plus_plus_14",
  [0x22] = "Fortran03", [0x23] = "Fortran08", [0x24] = "RenderScript",
  [0x25] = "BLISS", [0x8001] = "Mips_Assembler",
  [0x8e57] = "GOOGLE_RenderScript", [0xb000] = "BORLAND_Delphi",
}

-- dwarf::ConventionString: DW_CC_ + the name
local DW_CC = {
  [0x1] = "normal", [0x2] = "program", [0x3] = "nocall",
  [0x4] = "pass_by_reference", [0x5] = "pass_by_value",
  [0x40] = "GNU_renesas_sh", [0x41] = "GNU_borland_fastcall_i386",
  [0xb0] = "BORLAND_safecall", [0xb1] = "BORLAND_stdcall",
  [0xb2] = "BORLAND_pascal", [0xb3] = "BORLAND_msfastcall",
  [0xb4] = "BORLAND_msreturn", [0xb5] = "BORLAND_thiscall",
  [0xb6] = "BORLAND_fastcall", [0xc0] = "LLVM_vectorcall",
  [0xc1] = "LLVM_Win64", [0xc2] = "LLVM_X86_64SysV", [0xc3] = "LLVM_AAPCS",
  [0xc4] = "LLVM_AAPCS_VFP", [0xc5] = "LLVM_IntelOclBicc",
  [0xc6] = "LLVM_SpirFunction", [0xc7] = "LLVM_OpenCLKernel",
  [0xc8] = "LLVM_Swift", [0xc9] = "LLVM_PreserveMost",
  [0xca] = "LLVM_PreserveAll", [0xcb] = "LLVM_X86RegCall",
  [0xff] = "GDB_IBM_OpenCL",
}

-- dwarf::AttributeEncodingString: DW_ATE_ + the name
local DW_ATE = {
  [0x1] = "address", [0x2] = "boolean", [0x3] = "complex_float",
  [0x4] = "float", [0x5] = "signed", [0x6] = "signed_char",
  [0x7] = "unsigned", [0x8] = "unsigned_char", [0x9] = "imaginary_float",
  [0xa] = "packed_decimal", [0xb] = "numeric_string", [0xc] = "edited",
  [0xd] = "signed_fixed", [0xe] = "unsigned_fixed", [0xf] = "decimal_float",
  [0x10] = "UTF", [0x11] = "UCS", [0x12] = "ASCII",
  [0x81] = "HP_complex_float", [0x82] = "HP_float128",
  [0x83] = "HP_complex_float128", [0x84] = "HP_floathpintel",
  [0x85] = "HP_imaginary_float90", [0x86] = "HP_imaginary_float128",
}
-- A DIExpression is a std::vector<uint64_t> of DWARF operations and
-- their arguments; LLVM prints each operation by name (Dwarf.def, and
-- LLVM's own from 0x1000), its arguments as numbers, DW_OP_LLVM_convert's
-- encoding by name. The number of arguments depends on the operation
-- (DIExpression::ExprOperand::getSize): one pure Lua function, on the
-- bytes alone (an expression is rare: a dbg.value's).
local DW_OP = {
  [0x03] = "addr", [0x06] = "deref", [0x08] = "const1u", [0x09] = "const1s",
  [0x0a] = "const2u", [0x0b] = "const2s", [0x0c] = "const4u",
  [0x0d] = "const4s", [0x0e] = "const8u", [0x0f] = "const8s",
  [0x10] = "constu", [0x11] = "consts", [0x12] = "dup", [0x13] = "drop",
  [0x14] = "over", [0x15] = "pick", [0x16] = "swap", [0x17] = "rot",
  [0x18] = "xderef", [0x19] = "abs", [0x1a] = "and", [0x1b] = "div",
  [0x1c] = "minus", [0x1d] = "mod", [0x1e] = "mul", [0x1f] = "neg",
  [0x20] = "not", [0x21] = "or", [0x22] = "plus", [0x23] = "plus_uconst",
  [0x24] = "shl", [0x25] = "shr", [0x26] = "shra", [0x27] = "xor",
  [0x28] = "bra", [0x29] = "eq", [0x2a] = "ge", [0x2b] = "gt", [0x2c] = "le",
  [0x2d] = "lt", [0x2e] = "ne", [0x2f] = "skip", [0x30] = "lit0",
  [0x31] = "lit1", [0x32] = "lit2", [0x33] = "lit3", [0x34] = "lit4",
  [0x35] = "lit5", [0x36] = "lit6", [0x37] = "lit7", [0x38] = "lit8",
  [0x39] = "lit9", [0x3a] = "lit10", [0x3b] = "lit11", [0x3c] = "lit12",
  [0x3d] = "lit13", [0x3e] = "lit14", [0x3f] = "lit15", [0x40] = "lit16",
  [0x41] = "lit17", [0x42] = "lit18", [0x43] = "lit19", [0x44] = "lit20",
  [0x45] = "lit21", [0x46] = "lit22", [0x47] = "lit23", [0x48] = "lit24",
  [0x49] = "lit25", [0x4a] = "lit26", [0x4b] = "lit27", [0x4c] = "lit28",
  [0x4d] = "lit29", [0x4e] = "lit30", [0x4f] = "lit31", [0x50] = "reg0",
  [0x51] = "reg1", [0x52] = "reg2", [0x53] = "reg3", [0x54] = "reg4",
  [0x55] = "reg5", [0x56] = "reg6", [0x57] = "reg7", [0x58] = "reg8",
  [0x59] = "reg9", [0x5a] = "reg10", [0x5b] = "reg11", [0x5c] = "reg12",
  [0x5d] = "reg13", [0x5e] = "reg14", [0x5f] = "reg15", [0x60] = "reg16",
  [0x61] = "reg17", [0x62] = "reg18", [0x63] = "reg19", [0x64] = "reg20",
  [0x65] = "reg21", [0x66] = "reg22", [0x67] = "reg23", [0x68] = "reg24",
  [0x69] = "reg25", [0x6a] = "reg26", [0x6b] = "reg27", [0x6c] = "reg28",
  [0x6d] = "reg29", [0x6e] = "reg30", [0x6f] = "reg31", [0x70] = "breg0",
  [0x71] = "breg1", [0x72] = "breg2", [0x73] = "breg3", [0x74] = "breg4",
  [0x75] = "breg5", [0x76] = "breg6", [0x77] = "breg7", [0x78] = "breg8",
  [0x79] = "breg9", [0x7a] = "breg10", [0x7b] = "breg11", [0x7c] = "breg12",
  [0x7d] = "breg13", [0x7e] = "breg14", [0x7f] = "breg15", [0x80] = "breg16",
  [0x81] = "breg17", [0x82] = "breg18", [0x83] = "breg19", [0x84] = "breg20",
  [0x85] = "breg21", [0x86] = "breg22", [0x87] = "breg23", [0x88] = "breg24",
  [0x89] = "breg25", [0x8a] = "breg26", [0x8b] = "breg27", [0x8c] = "breg28",
  [0x8d] = "breg29", [0x8e] = "breg30", [0x8f] = "breg31", [0x90] = "regx",
  [0x91] = "fbreg", [0x92] = "bregx", [0x93] = "piece",
  [0x94] = "deref_size", [0x95] = "xderef_size", [0x96] = "nop",
  [0x97] = "push_object_address", [0x98] = "call2", [0x99] = "call4",
  [0x9a] = "call_ref", [0x9b] = "form_tls_address",
  [0x9c] = "call_frame_cfa", [0x9d] = "bit_piece", [0x9e] = "implicit_value",
  [0x9f] = "stack_value", [0xa0] = "implicit_pointer", [0xa1] = "addrx",
  [0xa2] = "constx", [0xa3] = "entry_value", [0xa4] = "const_type",
  [0xa5] = "regval_type", [0xa6] = "deref_type", [0xa7] = "xderef_type",
  [0xa8] = "convert", [0xa9] = "reinterpret",
  [0xe0] = "GNU_push_tls_address", [0xe1] = "HP_is_value",
  [0xe2] = "HP_fltconst4", [0xe3] = "HP_fltconst8", [0xe4] = "HP_mod_range",
  [0xe5] = "HP_unmod_range", [0xe6] = "HP_tls", [0xe8] = "INTEL_bit_piece",
  [0xed] = "WASM_location", [0xee] = "WASM_location_int",
  [0xf0] = "APPLE_uninit", [0xf3] = "GNU_entry_value",
  [0xf8] = "PGI_omp_thread_num", [0xfb] = "GNU_addr_index",
  [0xfc] = "GNU_const_index",
  [0x1000] = "LLVM_fragment", [0x1001] = "LLVM_convert",
  [0x1002] = "LLVM_tag_offset", [0x1003] = "LLVM_entry_value",
  [0x1004] = "LLVM_implicit_pointer", [0x1005] = "LLVM_arg",
}
local function dw_args(op)
  if op >= 0x70 and op <= 0x8f then return 1 end        -- bregN
  if op == 0x1001 or op == 0x1000 or op == 0x92 then return 2 end
  if op == 0x10 or op == 0x11 or op == 0x94 or op == 0x23 or op == 0x1002
     or op == 0x1003 or op == 0x1005 or op == 0x90 then return 1 end
  return 0
end
struct "DIExpression" {
  ctype = "llvm::DIExpression",
  fields = { id = enum("SubclassID", MDKIND),
             elts = range { begin = "Elements._M_impl._M_start",
                            finish = "Elements._M_impl._M_finish", of = u64 {} } },
  ref = pure(function(n)
    local out, e, i = {}, n.elts or {}, 1
    while i <= #e do
      local op = e[i]
      out[#out + 1] = "DW_OP_" .. (DW_OP[op] or tostring(op))
      local k = dw_args(op)
      for a = 1, k do
        local v = e[i + a]
        if v == nil then break end
        if op == 0x1001 and a == 2 then
          out[#out + 1] = "DW_ATE_" .. (DW_ATE[v] or tostring(v))
        else
          out[#out + 1] = string.format("%u", v)
        end
      end
      i = i + 1 + k
    end
    return "!DIExpression(" .. table.concat(out, ", ") .. ")"
  end),
}
-- A DIArgList's arguments are ValueAsMetadata, each printed typed.
struct "DIArgList" {
  ctype = "llvm::DIArgList",
  fields = { id = enum("SubclassID", MDKIND),
             args = llvm.small_vector("Args", ref "ValueAsMetadata") },
  ref = "!DIArgList({args*, })",
}

-- A Value that is metadata (a call's metadata argument).
struct "MetadataAsValue" {
  ctype = "llvm::MetadataAsValue",
  fields = value_fields { md = ref("MD", "Metadata") },
  ref = "{md}",
}

-- A metadata kind past the fixed ones is named by the key of the entry of
-- CustomMDKindNames (a StringMap<unsigned> from names to kinds) whose value
-- is the kind; its context is the attached node's: an MDNode's Context is
-- a PointerUnion<LLVMContext *, ReplaceableMetadataImpl *>, the context
-- when bit 2 is clear (a uniqued or distinct node, as attached nodes are).
local MD_FIXED = #MD_KINDS + 1
struct "MDKindName" {
  ctype = "llvm::StringMapEntry<unsigned int>", node = false,
  fields = { key = chars({ at = "after" }, "keyLength") },
  text = "{key}",
}
-- (The donor describes ContextAndReplaceableUses's one member, a
-- PointerUnion, without the bases that hold its word: read the word.)
struct "ContextRef" {
  size = 8, node = false,
  fields = { ctx = ptr(0, "LLVMContext") { mask = ~7 } },
}
struct "MDNodeContext" {
  ctype = "llvm::MDNode", node = false,
  fields = { ctx = embed("Context", "ContextRef") },
}
-- A SmallVector of { kind, node } attachments, NAME's each printed after
-- `lead` and sorted by kind (a struct LIST for the vector, NAME for one).
local function attachments(list, name, lead)
  struct(name) {
    ctype = "llvm::MDAttachments::Attachment", node = false,
    fields = {
      kind = enum("MDKind", { names = MD_KINDS }),
      md = ref("Node.Ref.MD", "Metadata"),
      node = ptr("Node.Ref.MD", "MDNodeContext"),
      custom = llvm.stringmap_find { map = "node.ctx.ctx.pImpl.CustomMDKindNames",
                                     key = "kind", of = ptr "MDKindName" },
    },
    text = lead .. "!{?kind < " .. MD_FIXED .. "}{kind}{:}{custom}{/} {md}",
  }
  struct(list) {
    ctype = "llvm::MDAttachments", node = false,
    fields = {
      all    = llvm.small_vector("Attachments", name),
      sorted = derived { from = "all", sort = "kind", of = ptr(name) },
    },
    text = "{sorted}",
  }
end
-- An instruction's attachments but !dbg, each after ", "; a function's,
-- after its header, each after a blank.
attachments("MDAttachments", "Attachment", ", ")
attachments("FnMDAttachments", "FnAttachment", " ")

-- }======================================================

-- {====================================================== attributes

-- An AttributeList points at an AttributeListImpl, which is followed by
-- NumAttrSets AttributeSets (index 0 the function's, 1 the result's, 2 and
-- on the parameters'); a set points at an AttributeSetNode, followed by
-- NumAttrs Attributes, each a pointer to an AttributeImpl of the class
-- KindID says.
struct "AttributeImpl" {
  ctype = "llvm::AttributeImpl",
  fields = { kindid = u8 "KindID" },
  cast = { by = "kindid", cases = { [0] = "EnumAttr", [1] = "IntAttr",
                                    [2] = "StringAttr", [3] = "TypeAttr" } },
}
local function attr_kind()
  return enum("Kind", { type = "llvm::Attribute::AttrKind", rename = ATTRS })
end
struct "EnumAttr" {
  ctype = "llvm::EnumAttributeImpl",
  fields = { kindid = u8 "KindID", kind = attr_kind() },
  ref = "{kind}",
}
-- align N, alignstack(N), dereferenceable(N)...
struct "IntAttr" {
  ctype = "llvm::IntAttributeImpl",
  fields = { kindid = u8 "KindID", kind = attr_kind(), val = scalar "Val" },
  -- allocsize keeps its two arguments in one word: the size's index
  -- above, the count's below (all ones: none)
  ref = "{?kind == Alignment}align {val}"
     .. "{:}{?kind == AllocSize}allocsize({=val >> 32}"
     .. "{?val & 0xffffffff != 0xffffffff},{=val & 0xffffffff}{/})"
     .. "{:}{kind}({val}){/}{/}",
}
struct "TypeAttr" {
  ctype = "llvm::TypeAttributeImpl",
  fields = { kindid = u8 "KindID", kind = attr_kind(), ty = ref("Ty", "Type") },
  ref = "{kind}({ty})",
}
-- "key"="value" (not shown in "; Function Attrs:")
struct "StringAttr" {
  ctype = "llvm::StringAttributeImpl",
  fields = { kindid = u8 "KindID",
             key = chars({ at = "after" }, "KindSize"),
             val = chars({ at = "after", skip = { { "KindSize", 1 }, 1 } }, "ValSize") },
  ref = "{key:quoted}{?val}={val:quoted}{/}",
}
struct "Attribute" {
  ctype = "llvm::Attribute", node = false,
  fields = { impl = ref("pImpl", "AttributeImpl") },
  text = "{impl}",
}
-- TODO(h-lang): the string attributes left out of "; Function Attrs:" by
-- a filter on KindID (a derived sequence does it: no attribute there is
-- a string one in this corpus but target-cpu and friends).
struct "AttributeSetNode" {
  ctype = "llvm::AttributeSetNode",
  fields = {
    attrs   = array { at = "after", count = "NumAttrs", of = ref "AttributeImpl" },
    plain   = derived { from = "attrs", where = "kindid != 2", of = ref "AttributeImpl" },
    n       = num "attrs",
    mn      = num "module_attrs",
  },
  ref = "{@attrs* }",
}
-- An AttributeSet (a pointer to its node) printed as `text` says.
local function attribute_set(name, text)
  struct(name) {
    ctype = "llvm::AttributeSet", node = false,
    fields = { node = ref("SetNode", "AttributeSetNode") },
    text = text,
  }
end
attribute_set("AttributeSet", "{node}")
-- The pieces a function or a call prints of its attribute sets: the
-- function's set as "#N" and as the "; Function Attrs:" comment (without
-- its string attributes), the result's before the result type.
-- (#N as the function's printer numbers it, or the module's: see MDNUM)
attribute_set("FnGroup", "{?node} #{?^Module}{node.mn}{:}{node.n}{/}{/}")
attribute_set("FnComment", "{?node.plain}; Function Attrs: {node.plain* }\n{/}")
attribute_set("RetSet", "{?node}{node} {/}")
struct "AttributeListImpl" {
  ctype = "llvm::AttributeListImpl",
  fields = {
    nsets   = scalar "NumAttrSets",
    fn      = array { at = "after", count = "NumAttrSets", limit = 1, of = "AttributeSet" },
    group   = array { at = "after", count = "NumAttrSets", limit = 1, of = "FnGroup" },
    comment = array { at = "after", count = "NumAttrSets", limit = 1, of = "FnComment" },
    ret     = array { at = "after", skip = 8, count = "NumAttrSets", drop = 1,
                      limit = 1, of = "RetSet" },
    -- every set, for the types a type attribute names (byval(T))
    all     = array { at = "after", count = "NumAttrSets", of = "AttributeSet" },
  },
}

-- }======================================================

-- {====================================================== instructions

-- Fields every instruction has; what its class adds in `extra`.
local function inst_fields(extra)
  local f = operands(value_fields {
    slot   = num "slot",
    nops   = scalar "NumUserOperands",
    parent = ref("Parent", "BasicBlock"),
    flags  = scalar "SubclassOptionalData",
    data   = scalar "SubclassData",
    dbg    = ref("DbgLoc.Loc.Ref.MD", "Metadata"),
    md     = llvm.densemap { map = "vty.ctx.pImpl.ValueMetadata", of = "MDAttachments" },
  })
  for k, v in pairs(extra or {}) do f[k] = v end
  return f
end

-- "  %x = " unless it is void; its metadata attachments after it.
local RESULT = "  {?hasname}%{name:llvm_name} = {:}{?vty.id != VoidTyID}%{slot} = {/}{/}"
local ATTACHED = "{?dbg}, !dbg {dbg}{/}{md}\n"

-- Each opcode a struct of its own, cast to from Value by SubclassID.
local inst_cases = {}
local function inst(opname, ctype, extra, body)
  local sname = "I_" .. opname
  inst_cases["InstructionVal+" .. OP[opname]] = sname
  struct (sname) {
    ctype = ctype,
    fields = inst_fields(extra),
    ref = LOCAL,
    text = RESULT .. body .. ATTACHED,
  }
end

-- nuw/nsw, exact, inbounds and the fast-math flags are bits of
-- SubclassOptionalData.
local function flag_bits(extra)
  extra = extra or {}
  extra.nuw = bits { at = "SubclassOptionalData", bit = 0, width = 1 }
  extra.nsw = bits { at = "SubclassOptionalData", bit = 1, width = 1 }
  return extra
end
local FAST = { "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn" }
local function fmf_bits(extra)
  extra = extra or {}
  for i, n in ipairs(FAST) do
    extra["f_" .. n] = bits { at = "SubclassOptionalData", bit = i - 1, width = 1 }
  end
  return extra
end
local FMF = "{?flags == 127} fast{:}"
for _, n in ipairs(FAST) do FMF = FMF .. "{?f_" .. n .. "} " .. n .. "{/}" end
FMF = FMF .. "{/}"

-- binary operators: add nsw i32 %a, %b
for _, op in ipairs { "add", "sub", "mul", "shl" } do
  inst(op, "llvm::BinaryOperator", flag_bits(),
       op .. "{?nuw} nuw{/}{?nsw} nsw{/} {op0}, {rest*, }")
end
for _, op in ipairs { "udiv", "sdiv", "lshr", "ashr" } do
  inst(op, "llvm::BinaryOperator",
       { exact = bits { at = "SubclassOptionalData", bit = 0, width = 1 } },
       op .. "{?exact} exact{/} {op0}, {rest*, }")
end
for _, op in ipairs { "urem", "srem", "and", "or", "xor" } do
  inst(op, "llvm::BinaryOperator", {}, op .. " {op0}, {rest*, }")
end
for _, op in ipairs { "fadd", "fsub", "fmul", "fdiv", "frem" } do
  inst(op, "llvm::BinaryOperator", fmf_bits(), op .. FMF .. " {op0}, {rest*, }")
end
inst("fneg", "llvm::UnaryOperator", fmf_bits(), "fneg" .. FMF .. " {op0}")
inst("freeze", "llvm::FreezeInst", {}, "freeze {op0}")

-- compares: the predicate is SubclassData's low 6 bits
inst("icmp", "llvm::ICmpInst",
     { pred = enum(SD(0, 6),
                   { type = "llvm::CmpInst::Predicate", strip = "ICMP_", lower = true }) },
     "icmp {pred} {op0}, {rest*, }")
inst("fcmp", "llvm::FCmpInst",
     fmf_bits { pred = enum(SD(0, 6),
                            { type = "llvm::CmpInst::Predicate", strip = "FCMP_", lower = true }) },
     "fcmp" .. FMF .. " {pred} {op0}, {rest*, }")

-- casts: sext i32 %x to i64
for n, op in pairs(cast_ops) do
  inst(op, "llvm::CastInst", {}, op .. " {op0} to {vty}")
end

-- memory: the alignment's log2, volatile and the ordering are bits of
-- SubclassData (alloca: align 0-5; load and store: volatile 0, align
-- 1-6, ordering 7-9)
-- alloca's count (its one operand) is shown unless it is the constant
-- i32 1 (a VLA's is a value): `big` holds the count when it is shown.
-- TODO(h-lang): {?ops[0].val...} in the condition, no fields of its own.
struct "AllocaCount" {
  ctype = "llvm::ConstantInt", node = false,
  fields = { id  = enum("SubclassID", { type = "llvm::Value::ValueTy" }),
             ity = ref("VTy", "IntegerType"),
             val = apint { value = "Val.U.VAL", words = "Val.U.pVal",
                           width = "Val.BitWidth" } },
}
struct "CountUse" {
  ctype = "llvm::Use", node = false,
  fields = { val = ref("Val", "AllocaCount") },
}
inst("alloca", "llvm::AllocaInst",
     { allocated = ref("AllocatedType", "Type"),
       count = array { at = "before", count = "NumUserOperands", of = "CountUse" },
       big = derived { from = "count", map = "val", of = ref "AllocaCount",
                       where = "val.id != ConstantIntVal or val.ity.width != 32"
                               .. " or val.val != 1" },
       align = enum(SD(0, 6), { names = POW2 }) },
     "alloca {allocated}{?big}, {ops*, }{/}, align {align}")
-- An atomic access names its synchronisation scope unless it is the
-- whole system (SyncScope::System, 1); LLVM 14 numbers singlethread 0.
-- TODO: scopes a target names (LLVMContextImpl::SSC), named in order.
local SCOPE = '{?ssid == 0} syncscope("singlethread"){/}'
local function volatile_align_ordering(extra)
  extra = extra or {}
  extra.volatile = bits { at = "SubclassData", bit = 0, width = 1 }
  extra.align = enum(SD(1, 6), { names = POW2 })
  extra.ordering = enum(SD(7, 3), { names = ORDERINGS })
  extra.ssid = scalar "SSID"
  return extra
end
inst("load", "llvm::LoadInst", volatile_align_ordering(),
     "load{?ordering != 0} atomic{/}{?volatile} volatile{/} {vty}, {op0}"
     .. "{?ordering != 0}" .. SCOPE .. " {ordering}{/}, align {align}")
inst("store", "llvm::StoreInst", volatile_align_ordering(),
     "store{?ordering != 0} atomic{/}{?volatile} volatile{/} {ops*, }"
     .. "{?ordering != 0}" .. SCOPE .. " {ordering}{/}, align {align}")
inst("getelementptr", "llvm::GetElementPtrInst",
     { src = ref("SourceElementType", "Type"),
       inbounds = bits { at = "SubclassOptionalData", bit = 0, width = 1 } },
     "getelementptr{?inbounds} inbounds{/} {src}, {ops*, }")
inst("atomicrmw", "llvm::AtomicRMWInst",
     { volatile = bits { at = "SubclassData", bit = 0, width = 1 },
       ordering = enum(SD(1, 3), { names = ORDERINGS }),
       op = enum(SD(4, 4), { names = RMW_OPS }),
       align = enum(SD(8, 6), { names = POW2 }),
       ssid = scalar "SSID" },
     "atomicrmw{?volatile} volatile{/} {op} {ops*, }" .. SCOPE
     .. " {ordering}, align {align}")
inst("cmpxchg", "llvm::AtomicCmpXchgInst",
     { volatile = bits { at = "SubclassData", bit = 0, width = 1 },
       weak = bits { at = "SubclassData", bit = 1, width = 1 },
       success = enum(SD(2, 3), { names = ORDERINGS }),
       failure = enum(SD(5, 3), { names = ORDERINGS }),
       align = enum(SD(8, 6), { names = POW2 }),
       ssid = scalar "SSID" },
     "cmpxchg{?weak} weak{/}{?volatile} volatile{/} {ops*, }" .. SCOPE
     .. " {success} {failure}, align {align}")
inst("fence", "llvm::FenceInst",
     { ordering = enum(SD(0, 3), { names = ORDERINGS }), ssid = scalar "SSID" },
     "fence" .. SCOPE .. " {ordering}")

-- others
inst("select", "llvm::SelectInst", fmf_bits(), "select" .. FMF .. " {ops*, }")
inst("extractelement", "llvm::ExtractElementInst", {}, "extractelement {ops*, }")
inst("insertelement", "llvm::InsertElementInst", {}, "insertelement {ops*, }")
inst("extractvalue", "llvm::ExtractValueInst",
     { idx = llvm.small_vector("Indices", u32 {}) },
     "extractvalue {op0}, {idx*, }")
inst("insertvalue", "llvm::InsertValueInst",
     { idx = llvm.small_vector("Indices", u32 {}) },
     "insertvalue {ops*, }, {idx*, }")
-- A shuffle's mask is a SmallVector<int> (-1: undef), printed as a
-- constant: zeroinitializer or undef when all of it is 0 or -1
-- (PrintShuffleMask).
struct "MaskElt" {
  size = 4, node = false,
  fields = { v = i32(0) },
  text = "i32 {?v == -1}undef{:}{v}{/}",
}
inst("shufflevector", "llvm::ShuffleVectorInst",
     { mask = llvm.small_vector("ShuffleMask", "MaskElt"),
       nonzero = derived { from = "mask", where = "v != 0", of = ptr "MaskElt" },
       defined = derived { from = "mask", where = "v != -1", of = ptr "MaskElt" } },
     "shufflevector {ops*, }, <{=#mask} x i32> "
     .. "{?nonzero}{?defined}<{mask*, }>{:}undef{/}{:}zeroinitializer{/}")
inst("va_arg", "llvm::VAArgInst", {}, "va_arg {op0}, {vty}")

-- terminators
inst("ret", "llvm::ReturnInst", {}, "ret{?ops} {ops*, }{:} void{/}")
inst("unreachable", "llvm::UnreachableInst", {}, "unreachable")
-- br's operands are [cond, false, true] (the last Use is successor 0):
-- printed condition, true, false.
inst("br", "llvm::BranchInst",
     { mid = array { at = "before", skip = 32, count = "NumUserOperands",
                     limit = 1, of = "Use" },
       tru = array { at = "before", count = "NumUserOperands", limit = 1, of = "Use" } },
     "br {?nops == 3}{op0}, {tru}, {mid}{:}{ops}{/}")
-- a switch's operands (hung off) are the condition, the default, then
-- value and destination pairs
struct "SwitchCase" {
  size = 64, node = false,
  fields = { v = embed({ offset = 0 }, "Use"), d = embed({ offset = 32 }, "Use") },
  text = "\n    {v}, {d}",
}
inst("switch", "llvm::SwitchInst",
     { default = array { ptr = -8, skip = 32, count = "NumUserOperands",
                         limit = 1, of = "Use" },
       cases = array { ptr = -8, skip = 64, count = "NumUserOperands", drop = 2,
                       divide = 2, of = "SwitchCase" } },
     "switch {op0}, {default} [{cases}\n  ]")
inst("indirectbr", "llvm::IndirectBrInst", {}, "indirectbr {op0}, [{restt*, }]")

-- A PHI's incoming values are its (hung-off) Uses; its blocks follow
-- the ReservedSpace Uses of that array.
inst("phi", "llvm::PHINode",
     fmf_bits { incoming = zip { count = "NumUserOperands", text = "[ {v}, {b} ]", of = {
       v = { ptr = -8, of = "UseV" },
       b = { ptr = -8, skip = { { "ReservedSpace", 32 } }, of = ref "Value" } } } },
     "phi{?vty.id == FloatTyID or vty.id == DoubleTyID}" .. FMF .. "{/} {vty} {incoming*, }")

-- A call: the callee is its last operand, the arguments the ones before
-- it (an invoke's two destinations between them); its attributes' sets
-- are 0 the function's, 1 the result's, 2 and on the arguments' (fewer
-- sets than arguments: the rest have none). The calling convention is
-- bits 2-11 of SubclassData, a call's tail kind bits 0-1.
--
-- Operand bundles (`[ "align"(i8* %0, i64 64) ]`): their inputs are
-- operands too, between the arguments and the callee. Each bundle is a
-- BundleOpInfo { StringMapEntry<uint32_t> *Tag; uint32_t Begin, End; }
-- naming its operands [Begin, End); the BundleOpInfo[] lies before the
-- Uses, below a size_t holding its bytes (User's "descriptor"), and only
-- when the Value's HasDescriptor bit is set. So the arguments are the
-- operands before the first bundle's Begin (all but the callee and an
-- invoke's destinations when there is none).
struct "DescriptorInfo" {
  size = 8, node = false,
  fields = { bytes = u64(0) },
}
local function call_fields(sname, extra, tail)
  extra.cc = enum(SD(2, 10), { names = CCS })
  extra.fty = ref("FTy", "FunctionType")
  extra.attrs = ptr("Attrs.pImpl", "AttributeListImpl")
  extra.args = zip { count = "NumUserOperands", drop = 1 + tail,
    text = "{u.val.vty}{?set} {@set}{/} {u.val}", of = {
      u = { at = "before", skip = 32 * (1 + tail), of = "Use" },
      set = { ptr = "Attrs.pImpl", skip = { "AttributeListImpl", 16 },
              count = "attrs.nsets", drop = 2, of = ref "AttributeSetNode" } } }
  extra.hasdesc = scalar "HasDescriptor"
  extra.desc = array { at = "before", skip = { { "NumUserOperands", 32 } },
                       count = "HasDescriptor", of = "DescriptorInfo" }
  extra.bundles = array { at = "before", skip = { 8, { "NumUserOperands", 32 } },
                          present = "hasdesc", length = "desc[0].bytes",
                          divide = 16, of = "Bundle_" .. sname }
  -- a bundle's inputs print as the operands they are (in `args`, past
  -- the attribute sets, so with none)
  struct ("Bundle_" .. sname) {
    size = 16, node = false,
    fields = { tag = ref(0, "MDKindName"), first = u32(8), last = u32(12) },
    text = '"{tag}"({^I_' .. sname .. '.args[first:last]*, })',
  }
  return extra
end
local CALLEE = " {?cc != 0}{cc} {/}{?attrs}{attrs.ret}{/}"
  .. "{?fty.vararg}{fty}{:}{fty.ret}{/} {last}({args[:bundles[0].first]*, })"
  .. "{?attrs}{attrs.group}{/}{?bundles} [ {bundles*, } ]{/}"
inst("call", "llvm::CallInst",
     call_fields("call", fmf_bits { tail = bits { at = "SubclassData", bit = 0, width = 2 } }, 0),
     "{?tail == 1}tail {/}{?tail == 2}musttail {/}{?tail == 3}notail {/}call"
     .. FMF .. CALLEE)
-- An invoke's operands: the arguments, the normal and the unwind
-- destination, the callee.
inst("invoke", "llvm::InvokeInst",
     call_fields("invoke", {
       normal = array { at = "before", skip = 64, count = "NumUserOperands",
                        limit = 1, of = "Use" },
       unwind = array { at = "before", skip = 32, count = "NumUserOperands",
                        limit = 1, of = "Use" } }, 2),
     "invoke" .. CALLEE .. "\n          to {normal} unwind {unwind}")
inst("resume", "llvm::ResumeInst", {}, "resume {op0}")
-- A landingpad's clauses are its (hung-off) operands: a catch names a
-- type, a filter an array of them. Bit 0 of SubclassData: cleanup.
struct "Clause" {
  ctype = "llvm::Use", node = false,
  fields = { val = ref("Val", "Value") },
  text = "\n          {?val.vty.id == ArrayTyID}filter{:}catch{/} {val.vty} {val}",
}
inst("landingpad", "llvm::LandingPadInst",
     { cleanup = bits { at = "SubclassData", bit = 0, width = 1 },
       clauses = array { ptr = -8, count = "NumUserOperands", of = "Clause" } },
     "landingpad {vty}{?cleanup}\n          cleanup{/}{clauses*}")

-- }======================================================

-- {====================================================== blocks, arguments

-- A block's predecessors: the terminators among its uses, in use-list
-- order, each by its block; a use of a block by a non-terminator (a
-- blockaddress) is none.
struct "BlockUse" {
  ctype = "llvm::Use", node = false,
  fields = { user = ref("Parent", "Instruction") },
}
-- TODO(h-lang): "{label}:" padded to column 50 ({:%-*s:50 - col()}):
-- until then a block's label line is made in Lua (pure: its bytes only).
struct "BasicBlock" {
  ctype = "llvm::BasicBlock",
  fields = value_fields {
    -- numbered in its own function, wherever it is printed: a
    -- blockaddress in a global's initializer or in another function
    -- names a block by its number there
    fn     = ref("Parent", "Function"),
    slot   = num "slot" { scope = "fn" },
    insts  = llvm.ilist("InstList", "Instruction", { link_offset = 24 }),
    uses   = list { head = "UseList", of = "BlockUse", link = "Next" },
    preds  = derived { from = "uses", where = "user.id >= " .. INSTRUCTION_VAL + OP.ret
                         .. " and user.id <= " .. INSTRUCTION_VAL + OP.callbr,
                       map = "user.parent", of = ref "BasicBlock" },
    label  = computed(pure(function(n)
      local l = (n.hasname ~= 0 and n.name and quote(n.name.key) or tostring(n.slot)) .. ":"
      return string.format("%-49s ;", l)
    end)),
  },
  ref = LOCAL,
  text = "{?# == 0}{?hasname}\n{name:llvm_name}:{/}\n{:}\n{label}"
      .. "{?preds} preds = {@preds*, }{:} No predecessors!{/}\n{/}{insts}",
}

struct "Argument" {
  ctype = "llvm::Argument",
  fields = value_fields { slot = num "slot", argno = scalar "ArgNo" },
  ref = LOCAL,
}

-- }======================================================

-- {====================================================== the function

-- Named metadata (!llvm.module.flags, !llvm.ident...): a NamedMDNode's
-- operands are a SmallVector<TrackingMDRef> behind a void *.
struct "MDRef" { size = 8, node = false, fields = { md = ref(0, "Metadata") },
                 text = "{md}" }
struct "MDRefVector" {
  size = 16, node = false,
  fields = { elts = array { ptr = 0, count = { offset = 8, size = 4 }, of = "MDRef" } },
}
struct "NamedMDNode" {
  ctype = "llvm::NamedMDNode", node = false,
  fields = { ops = ptr("Operands", "MDRefVector"), name = std.string "Name" },
  text = "!{name} = !{{{ops.elts*, }}}\n",
}

-- A function's blocks alone, for numbering module_attrs.
struct "FunctionBody" {
  ctype = "llvm::Function",
  fields = { blocks = llvm.ilist("BasicBlocks", "BasicBlock", { link_offset = 24 }) },
}

-- A named struct as the module defines it before its globals: its body,
-- or opaque without one (SCDB_HasBody, bit 0 of SubclassData).
struct "StructDef" {
  ctype = "llvm::StructType",
  fields = struct_fields(),
  ref = "%{name:llvm_name} = type {?hasbody}" .. STRUCT_BODY .. "{:}opaque{/}\n",
}

-- An attribute group as the module lists it after its functions.
struct "AttrGroup" {
  ctype = "llvm::AttributeSetNode",
  fields = {
    attrs = array { at = "after", count = "NumAttrs", of = ref "AttributeImpl" },
    mn    = num "module_attrs",
  },
  ref = "attributes #{mn} = {{ {@attrs* } }}\n",
}

-- {====================================================== debug info

-- A debug-info node (DebugInfoMetadata.h) as the module lists it:
-- `!N = [distinct ]!DIKind(field: value, ...)`, its fields in the order
-- AsmWriter's writeDIKind prints them, each left out when it has its
-- default (a null operand, an empty string, 0, false) unless LLVM always
-- prints it. Its metadata and strings are its operands, before it as
-- every MDNode's (ops[i], the i-th as DebugInfoMetadata.h's getRawX says);
-- the rest (a line, flags, a size) are members of its class.
--
-- The fields of a node are joined by ", " (AsmWriter's FieldSeparator):
-- a field that may be left out takes the comma only when a field before
-- it was printed, which di_template below writes as a condition over the
-- optional fields before it, until one that is always printed.
local function di_template(kind, specs)
  local out, before, always = { "!" .. kind .. "(" }, {}, false
  for _, f in ipairs(specs) do
    local sep = ""
    if always then sep = ", "
    elseif #before > 0 then sep = "{?" .. table.concat(before, " or ") .. "}, {/}" end
    if f.when then
      out[#out + 1] = "{?" .. f.when .. "}" .. sep .. f.text .. "{/}"
      before[#before + 1] = "(" .. f.when .. ")"
    else
      out[#out + 1] = sep .. f.text
      always = true
    end
  end
  out[#out + 1] = ")"
  return table.concat(out)
end
-- The kinds of field (MDFieldPrinter's printString, printMetadata...):
-- operand I a string or a node, left out when null unless `keep`;
local function S(name, i, keep)
  return { when = not keep and "s[" .. i .. "].md" or nil,
           text = name .. ": {s[" .. i .. "]}" }
end
local function M(name, i, keep)
  return { when = not keep and "ops[" .. i .. "].md" or nil,
           text = name .. ": {ops[" .. i .. "]}" }
end
-- a member: an integer left out when 0 unless `keep`, a bool left out
-- when it is `default` (never when there is none), an enum left out
-- when 0, flags left out when none;
local function I(name, f, keep)
  return { when = not keep and f or nil, text = name .. ": {" .. f .. "}" }
end
local function B(name, f, default)
  local when
  if default == true then when = "not " .. f elseif default == false then when = f end
  return { when = when, text = name .. ": {?" .. f .. "}true{:}false{/}" }
end
local function F(name, f)
  return { when = f .. " != 0", text = name .. ": {" .. f .. "_names}" }
end
-- a DWARF constant (an enum field whose names carry the prefix)
local function E(name, f, keep)
  return { when = not keep and f .. " != 0" or nil, text = name .. ": {" .. f .. "}" }
end

-- DIFlags and DISPFlags (DebugInfoFlags.def), printed as
-- DINode::splitFlags splits them: the accessibility (2 bits) and the
-- pointer-to-member representation (bits 16-17) as one name each,
-- IndirectVirtualBase (two bits) whole, then each bit by name, in the
-- order of the .def; what no name covers is printed as a number last.
local DI_FLAGS = {
  { 1 << 2, "FwdDecl" }, { 1 << 3, "AppleBlock" },
  { 1 << 4, "ReservedBit4" }, { 1 << 5, "Virtual" },
  { 1 << 6, "Artificial" }, { 1 << 7, "Explicit" },
  { 1 << 8, "Prototyped" }, { 1 << 9, "ObjcClassComplete" },
  { 1 << 10, "ObjectPointer" }, { 1 << 11, "Vector" },
  { 1 << 12, "StaticMember" }, { 1 << 13, "LValueReference" },
  { 1 << 14, "RValueReference" }, { 1 << 15, "ExportSymbols" },
  { 1 << 18, "IntroducedVirtual" }, { 1 << 19, "BitField" },
  { 1 << 20, "NoReturn" }, { 1 << 22, "TypePassByValue" },
  { 1 << 23, "TypePassByReference" }, { 1 << 24, "EnumClass" },
  { 1 << 25, "Thunk" }, { 1 << 26, "NonTrivial" },
  { 1 << 27, "BigEndian" }, { 1 << 28, "LittleEndian" },
  { 1 << 29, "AllCallsDescribed" },
}
local DISP_FLAGS = {
  { 1, "Virtual" }, { 2, "PureVirtual" },
  { 1 << 2, "LocalToUnit" }, { 1 << 3, "Definition" },
  { 1 << 4, "Optimized" }, { 1 << 5, "Pure" }, { 1 << 6, "Elemental" },
  { 1 << 7, "Recursive" }, { 1 << 8, "MainSubprogram" },
  { 1 << 9, "Deleted" }, { 1 << 11, "ObjCDirect" },
}
-- each bit of `bits` set in v by name, then what is left as a number
-- (out: the names split off before, by the caller)
local function split_bits(prefix, v, bits, out)
  for _, b in ipairs(bits) do
    if v & b[1] ~= 0 then
      out[#out + 1] = prefix .. b[2]
      v = v & ~b[1]
    end
  end
  if v ~= 0 or #out == 0 then out[#out + 1] = tostring(v) end
  return table.concat(out, " | ")
end
local ACCESS = { "Private", "Protected", "Public" }
local PTR_TO_MEMBER = { "SingleInheritance", "MultipleInheritance",
                        "VirtualInheritance" }
local INDIRECT_VIRTUAL_BASE = (1 << 2) | (1 << 5)
local function di_flags(v)
  local out = {}
  if v & 3 ~= 0 then
    out[#out + 1] = "DIFlag" .. ACCESS[v & 3]
    v = v & ~3
  end
  if v & (3 << 16) ~= 0 then
    out[#out + 1] = "DIFlag" .. PTR_TO_MEMBER[(v >> 16) & 3]
    v = v & ~(3 << 16)
  end
  if v & INDIRECT_VIRTUAL_BASE == INDIRECT_VIRTUAL_BASE then
    out[#out + 1] = "DIFlagIndirectVirtualBase"
    v = v & ~INDIRECT_VIRTUAL_BASE
  end
  return split_bits("DIFlag", v, DI_FLAGS, out)
end
local function with_prefix(t, prefix)
  local r = {}
  for k, v in pairs(t) do r[k] = prefix .. v end
  return r
end
local TAGS = with_prefix(DW_TAG, "DW_TAG_")
local LANGS = with_prefix(DW_LANG, "DW_LANG_")
local ATES = with_prefix(DW_ATE, "DW_ATE_")
local CCS_DW = with_prefix(DW_CC, "DW_CC_")

-- A string operand printed as a field: "chars", escaped as
-- printEscapedString does ("" for a null one, which `keep` prints).
struct "MDStrOperand" {
  ctype = "llvm::MDOperand", node = false,
  fields = { md = ref("MD", "MDString") },
  text = "\"{?md}{md.entry:escaped}{/}\"",
}
-- The fields every DI node has: an MDNode's, its operands as strings
-- too, its tag (SubclassData16) and what it adds.
local function di_fields(extra)
  local f = mdnode_fields {
    storage = scalar "Storage",
    s = array { at = "before", count = "NumOperands", of = "MDStrOperand" },
    tag = enum("SubclassData16", { names = TAGS }),
  }
  for k, v in pairs(extra or {}) do f[k] = v end
  return f
end
local function flags_of(path, fn)
  return computed(pure(function(n) return fn(n[path] or 0) end))
end
-- di(KIND, CTYPE, MEMBERS, SPECS): struct DIKind_Def printing the node.
local di_cases = { MDTupleKind = "MDTupleDef" }
local function di(kind, ctype, members, specs)
  members = members or {}
  if members.flags then members.flags_names = flags_of("flags", di_flags) end
  if members.spflags then
    members.spflags_names = flags_of("spflags", function(v)
      return split_bits("DISPFlag", v, DISP_FLAGS, {})
    end)
  end
  di_cases[kind .. "Kind"] = kind .. "Def"
  struct (kind .. "Def") {
    ctype = ctype,
    fields = di_fields(members),
    ref = "!{mn} = {?storage == 1}distinct {/}" .. di_template(kind, specs) .. "\n",
  }
end

di("DILocation", "llvm::DILocation",
   { line = scalar "SubclassData32", column = scalar "SubclassData16",
     implicit = scalar "SubclassData1" },
   { I("line", "line", true), I("column", "column"), M("scope", 0, true),
     M("inlinedAt", 1), B("isImplicitCode", "implicit", false) })
-- a subrange's bounds: a constant's value (ConstantAsMetadata of a
-- ConstantInt, signed) or a node
struct "BoundConst" {
  ctype = "llvm::ValueAsMetadata", node = false,
  fields = { v = ref("V", "ConstantInt") },
}
struct "BoundOperand" {
  ctype = "llvm::MDOperand", node = false,
  fields = { md = ref("MD", "Metadata"), c = ref("MD", "BoundConst") },
  text = "{?md.id == ConstantAsMetadataKind}{c.v.val}{:}{md}{/}",
}
local function BOUND(name, i)
  return { when = "b[" .. i .. "].md", text = name .. ": {b[" .. i .. "]}" }
end
di("DISubrange", "llvm::DISubrange",
   { b = array { at = "before", count = "NumOperands", of = "BoundOperand" } },
   { BOUND("count", 0), BOUND("lowerBound", 1), BOUND("upperBound", 2),
     BOUND("stride", 3) })
di("DIEnumerator", "llvm::DIEnumerator",
   { value = apint { value = "Value.U.VAL", words = "Value.U.pVal", width = "Value.BitWidth" },
     uvalue = apint { value = "Value.U.VAL", words = "Value.U.pVal",
                      width = "Value.BitWidth", signed = false },
     unsigned = scalar "SubclassData32" },
   { S("name", 0, true),
     { text = "value: {?unsigned}{uvalue}{:}{value}{/}" },
     B("isUnsigned", "unsigned", false) })
local function ditype(extra)
  extra = extra or {}
  extra.line = scalar "Line"
  extra.flags = scalar "Flags"
  extra.size = scalar "SizeInBits"
  extra.offset = scalar "OffsetInBits"
  extra.align = scalar "AlignInBits"
  return extra
end
di("DIBasicType", "llvm::DIBasicType", ditype { encoding = enum("Encoding", { names = ATES }) },
   { { when = "tag != DW_TAG_base_type", text = "tag: {tag}" }, S("name", 2),
     I("size", "size"), I("align", "align"), E("encoding", "encoding"),
     F("flags", "flags") })
di("DIDerivedType", "llvm::DIDerivedType",
   ditype { hasas = scalar "DWARFAddressSpace.Storage.hasVal",
            as = scalar "DWARFAddressSpace.Storage.value" },
   { E("tag", "tag", true), S("name", 2), M("scope", 1), M("file", 0),
     I("line", "line"), M("baseType", 3, true), I("size", "size"),
     I("align", "align"), I("offset", "offset"), F("flags", "flags"),
     M("extraData", 4), { when = "hasas", text = "dwarfAddressSpace: {as}" },
     M("annotations", 5) })
di("DICompositeType", "llvm::DICompositeType",
   ditype { lang = enum("RuntimeLang", { names = LANGS }) },
   { E("tag", "tag", true), S("name", 2), M("scope", 1), M("file", 0),
     I("line", "line"), M("baseType", 3), I("size", "size"),
     I("align", "align"), I("offset", "offset"), F("flags", "flags"),
     M("elements", 4), E("runtimeLang", "lang"), M("vtableHolder", 5),
     M("templateParams", 6), S("identifier", 7), M("discriminator", 8),
     M("dataLocation", 9), M("associated", 10), M("allocated", 11),
     M("rank", 12), M("annotations", 13) })
di("DISubroutineType", "llvm::DISubroutineType",
   ditype { cc = enum("CC", { names = CCS_DW }) },
   { F("flags", "flags"), E("cc", "cc"), M("types", 3, true) })
-- A file's checksum and source are members (Optional<...>), not operands.
local CHECKSUM_KINDS = { "CSK_MD5", "CSK_SHA1", "CSK_SHA256" }
di("DIFile", "llvm::DIFile",
   { hascs = scalar "Checksum.Storage.hasVal",
     cskind = enum("Checksum.Storage.value.Kind", { names = CHECKSUM_KINDS }),
     cs = ref("Checksum.Storage.value.Value", "MDString"),
     hassrc = scalar "Source.Storage.hasVal",
     src = ref("Source.Storage.value", "MDString") },
   { S("filename", 0, true), S("directory", 1, true),
     { when = "hascs", text = "checksumkind: {cskind}, checksum: \"{cs.entry:escaped}\"" },
     { when = "hassrc and src", text = "source: \"{src.entry:escaped}\"" } })
local EMISSION = { [0] = "NoDebug", "FullDebug", "LineTablesOnly", "DebugDirectivesOnly" }
local NAME_TABLES = { [0] = "Default", "GNU", "None" }
di("DICompileUnit", "llvm::DICompileUnit",
   { lang = enum("SourceLanguage", { names = LANGS }),
     optimized = scalar "IsOptimized", rtv = scalar "RuntimeVersion",
     emission = enum("EmissionKind", { names = EMISSION }),
     dwoid = scalar "DWOId", split = scalar "SplitDebugInlining",
     profiling = scalar "DebugInfoForProfiling",
     nametable = enum("NameTableKind", { names = NAME_TABLES }),
     ranges = scalar "RangesBaseAddress" },
   { E("language", "lang", true), M("file", 0, true), S("producer", 1),
     B("isOptimized", "optimized"), S("flags", 2), I("runtimeVersion", "rtv", true),
     S("splitDebugFilename", 3), { text = "emissionKind: {emission}" },
     M("enums", 4), M("retainedTypes", 5), M("globals", 6), M("imports", 7),
     M("macros", 8), I("dwoId", "dwoid"), B("splitDebugInlining", "split", true),
     B("debugInfoForProfiling", "profiling", false),
     { when = "nametable != 0", text = "nameTableKind: {nametable}" },
     B("rangesBaseAddress", "ranges", false), S("sysroot", 9), S("sdk", 10) })
di("DISubprogram", "llvm::DISubprogram",
   { line = scalar "Line", scopeline = scalar "ScopeLine",
     vindex = scalar "VirtualIndex", thisadj = scalar "ThisAdjustment",
     flags = scalar "Flags", spflags = scalar "SPFlags" },
   { S("name", 2), S("linkageName", 3), M("scope", 1, true), M("file", 0),
     I("line", "line"), M("type", 4), I("scopeLine", "scopeline"),
     M("containingType", 8),
     { when = "spflags & 3 != 0 or vindex != 0", text = "virtualIndex: {vindex}" },
     I("thisAdjustment", "thisadj"), F("flags", "flags"),
     { text = "spFlags: {spflags_names}" }, M("unit", 5),
     M("templateParams", 9), M("declaration", 6), M("retainedNodes", 7),
     M("thrownTypes", 10), M("annotations", 11) })
di("DILexicalBlock", "llvm::DILexicalBlock",
   { line = scalar "Line", column = scalar "Column" },
   { M("scope", 1, true), M("file", 0), I("line", "line"), I("column", "column") })
di("DILexicalBlockFile", "llvm::DILexicalBlockFile",
   { discriminator = scalar "Discriminator" },
   { M("scope", 1, true), M("file", 0), I("discriminator", "discriminator", true) })
di("DINamespace", "llvm::DINamespace",
   { export = scalar "ExportSymbols" },
   { S("name", 2), M("scope", 1, true), B("exportSymbols", "export", false) })
di("DIModule", "llvm::DIModule",
   { line = scalar "LineNo", decl = scalar "IsDecl" },
   { M("scope", 1, true), S("name", 2), S("configMacros", 3),
     S("includePath", 4), S("apinotes", 5), M("file", 0), I("line", "line"),
     B("isDecl", "decl", false) })
di("DITemplateTypeParameter", "llvm::DITemplateTypeParameter",
   { default = scalar "IsDefault" },
   { S("name", 0), M("type", 1, true), B("defaulted", "default", false) })
di("DITemplateValueParameter", "llvm::DITemplateValueParameter",
   { default = scalar "IsDefault" },
   { { when = "tag != DW_TAG_template_value_parameter", text = "tag: {tag}" },
     S("name", 0), M("type", 1), B("defaulted", "default", false),
     M("value", 2, true) })
local function divariable(extra)
  extra.line = scalar "Line"
  extra.align = scalar "AlignInBits"
  return extra
end
di("DIGlobalVariable", "llvm::DIGlobalVariable",
   divariable { islocal = scalar "IsLocalToUnit", isdef = scalar "IsDefinition" },
   { S("name", 1), S("linkageName", 5), M("scope", 0, true), M("file", 2),
     I("line", "line"), M("type", 3), B("isLocal", "islocal"),
     B("isDefinition", "isdef"), M("declaration", 6), M("templateParams", 7),
     I("align", "align"), M("annotations", 8) })
di("DILocalVariable", "llvm::DILocalVariable",
   divariable { arg = scalar "Arg", flags = scalar "Flags" },
   { S("name", 1), I("arg", "arg"), M("scope", 0, true), M("file", 2),
     I("line", "line"), M("type", 3), F("flags", "flags"), I("align", "align"),
     M("annotations", 4) })
di("DILabel", "llvm::DILabel", { line = scalar "Line" },
   { M("scope", 0, true), S("name", 1), M("file", 2), I("line", "line") })
di("DIGlobalVariableExpression", "llvm::DIGlobalVariableExpression", {},
   { M("var", 0), M("expr", 1) })
di("DIImportedEntity", "llvm::DIImportedEntity", { line = scalar "Line" },
   { E("tag", "tag", true), S("name", 2), M("scope", 0, true), M("entity", 1),
     M("file", 3), I("line", "line"), M("elements", 4) })

-- }======================================================

-- A metadata node as the module lists it after the named ones: a tuple
-- !N = !{...} (distinct: Storage 1). The specialized DI nodes
-- (DICompileUnit, DILocation...) have a printer each in LLVM, which this
-- layout does not have yet: such a node is a walk error naming its kind,
-- never wrong text.
struct "MDTupleDef" {
  ctype = "llvm::MDNode",
  fields = mdnode_fields { storage = scalar "Storage" },
  ref = "!{mn} = {?storage == 1}distinct {/}!{{{ops*, }}}\n",
}
struct "MDOtherDef" {
  ctype = "llvm::MDNode",
  fields = mdnode_fields(),
  ref = pure(function(n)
    error("!" .. tostring(n.mn) .. ": llvm14.lua does not print "
          .. tostring(n.id) .. " nodes yet")
  end),
}
struct "MDDef" {
  ctype = "llvm::MDNode",
  fields = { id = enum("SubclassID", MDKIND) },
  cast = { by = "id", cases = di_cases, default = "MDOtherDef" },
}

-- A module as `opt -S` prints it (AssemblyWriter::printModule): its
-- header, its globals, its functions (definitions as -print-after-all
-- prints them, declarations too), then what their text referred to by
-- number: attribute groups #N, named metadata, metadata !N. A walk whose
-- root is a Module numbers #N and !N as the module's printer does
-- (numberings module_attrs and module_md below; MDNUM), a walk rooted at
-- a Function as -print-after-all does.
-- TODO: aliases and ifuncs, module asm.
struct "Module" {
  ctype = "llvm::Module",
  fields = {
    globals   = llvm.ilist("GlobalList", "GlobalVariable", { link_offset = 56 }),
    functions = llvm.ilist("FunctionList", "Function", { link_offset = 56 }),
    named     = llvm.ilist("NamedMDList", "NamedMDNode", { link_offset = 0 }),
    bodies    = llvm.ilist("FunctionList", "FunctionBody", { link_offset = 56 }),
    -- std::strings of the Module and of its DataLayout
    id        = std.string "ModuleID",
    src       = std.string "SourceFileName",
    triple    = std.string "TargetTriple",
    dl        = std.string "DL.StringRepresentation",
    -- what the functions' text numbered, in the order of the numbers
    types     = derived { numbering = "module_types", of = ref "StructDef" },
    comdats   = derived { numbering = "module_comdats", of = ref "ComdatDef" },
    groups    = derived { numbering = "module_attrs", of = ref "AttrGroup" },
    mds       = derived { numbering = "module_md", of = ref "MDDef" },
  },
  text = "{?id}; ModuleID = '{id}'\n{/}"
      .. "{?src}source_filename = \"{src:escaped}\"\n{/}"
      .. "{?dl}target datalayout = \"{dl}\"\n{/}"
      .. "{?triple}target triple = \"{triple}\"\n{/}"
      .. "{?types}\n{types}{/}"
      .. "{?comdats}\n{comdats*\n}{/}"
      .. "{?globals}\n{globals}{/}"
      .. "{?functions}\n{functions*\n}{/}"
      .. "{?groups}\n{groups}{/}"
      .. "{?named}\n{named}{/}"
      .. "{?mds}\n{mds}{/}",
}

struct "SectionName" {
  ctype = "llvm::StringRef", node = false,
  fields = { s = strn("Data", "Length") },
  text = "{s:escaped}",
}
local GALIGN = {}
for i = 1, 33 do GALIGN[i] = tostring(1 << (i - 1)) end

-- A comdat is named by its entry in the module's ComdatSymTab, a
-- StringMapEntry<Comdat>: its length, the Comdat, then the chars (the
-- donor has no StringMapEntry<Comdat>: the base, and the Comdat skipped).
struct "ComdatName" {
  ctype = "llvm::StringMapEntryBase", node = false,
  fields = { key = chars({ at = "after", skip = { "Comdat" } }, "keyLength") },
}
struct "Comdat" {
  ctype = "llvm::Comdat", node = false,
  fields = { name = ptr("Name", "ComdatName") },
}
-- A comdat as the module lists it before its globals (Comdat::print),
-- in the order of the global objects that name it, functions first
-- (Module::global_objects), each once: numbering module_comdats.
local COMDAT_KINDS = { [0] = "any", "exactmatch", "largest", "nodeduplicate",
                       "samesize" }
struct "ComdatDef" {
  ctype = "llvm::Comdat",
  fields = { name = ptr("Name", "ComdatName"),
             kind = enum("SK", { names = COMDAT_KINDS }),
             -- (the name quoted as LLVM quotes a name)
             qname = computed(pure(function(n)
               return quote(n.name and n.name.key or "")
             end)) },
  ref = "${qname} = comdat {kind}\n",
}
numbering "module_comdats" {
  scope = "Module",
  { "functions", number = false, { "comdat" } },
  { "globals", number = false, { "comdat" } },
}

-- A parameter as the function's header prints it.
struct "ArgSlot" {
  ctype = "llvm::Argument", node = false,
  fields = value_fields { slot = num "slot" },
  text = LOCAL,
}

struct "Function" {
  ctype = "llvm::Function",
  fields = global_fields {
    fty    = ref("ValueType", "FunctionType"),
    valty  = ref("ValueType", "Type"),
    cc     = enum(SD(4, 10), { names = CCS }),
    -- a personality, a prefix and a prologue are hung-off operands 0-2,
    -- there when bit 3 of SubclassData says so
    haspers = bits { at = "SubclassData", bit = 3, width = 1 },
    pers   = array { ptr = -8, count = "NumUserOperands", limit = 1, of = "Use" },
    comdat = ptr("ObjComdat", "Comdat"),
    -- GlobalObject's bits of GlobalValue::SubClassData: the alignment
    -- (0 none, else log2 + 1), then whether it has a section, named in
    -- LLVMContextImpl::GlobalObjectSections
    galign = enum({ at = "SubClassData", bit = 0, width = 6 }, { names = GALIGN }),
    section = llvm.densemap { map = "vty.ctx.pImpl.GlobalObjectSections",
                              of = "SectionName" },
    -- " comdat", and its name when it is not the function's
    comdat_name = computed(pure(comdat_name)),
    -- (a ref: the function's snapshot does not walk its module)
    parent = ref("Parent", "Module"),
    blocks = llvm.ilist("BasicBlocks", "BasicBlock", { link_offset = 24 }),
    attrs  = ptr("AttributeSets.pImpl", "AttributeListImpl"),
    params = zip { count = "NumArgs", of = {
      a = { ptr = "Arguments", of = "ArgSlot" },
      set = { ptr = "AttributeSets.pImpl", skip = { "AttributeListImpl", 16 },
              count = "attrs.nsets", drop = 2, of = ref "AttributeSetNode" } },
      text = "{a.vty}{?set} {@set}{/} {a}" },
    -- a declaration's parameters: types and attributes, no names
    dparams = zip { count = "NumArgs", of = {
      a = { ptr = "Arguments", of = "ArgSlot" },
      set = { ptr = "AttributeSets.pImpl", skip = { "AttributeListImpl", 16 },
              count = "attrs.nsets", drop = 2, of = ref "AttributeSetNode" } },
      text = "{a.vty}{?set} {@set}{/}" },
    md     = llvm.densemap { map = "vty.ctx.pImpl.ValueMetadata", of = "FnMDAttachments" },
  },
  ref = "@{name:llvm_name}",
  text = "{?attrs}{attrs.comment}{/}"
      -- (a declaration, no blocks, only in a module: opt -S)
      .. "{?blocks}define {:}declare{md} {/}{linkage}" .. DSO_LOCAL_VISIBILITY
      .. "{?cc != 0}{cc} {/}{?attrs}{attrs.ret}{/}{fty.ret} @{name:llvm_name}("
      .. "{?blocks}{params*, }{:}{dparams*, }{/}"
      .. "{?fty.vararg}{?params}, {/}...{/})"
      .. "{?unnamed == 2} unnamed_addr{/}{?unnamed == 1} local_unnamed_addr{/}"
      .. "{?attrs}{attrs.group}{/}{?section} section \"{section}\"{/}"
      .. "{?comdat} comdat{comdat_name}{/}{?galign != 0} align {galign}{/}"
      .. "{?haspers} personality {pers}{/}{?blocks}{md} {{{blocks}}}{/}\n",
}

-- }======================================================

-- {====================================================== numberings

-- The slot tracker of the function being printed: its unnamed arguments,
-- then each unnamed block and each unnamed non-void instruction, in order.
numbering "slot" {
  scope = "Function",
  { "params", number = false, { "a", when = "not hasname" } },
  { "blocks", when = "not hasname",
    { "insts", when = "not hasname and vty.id != VoidTyID" } },
}

-- Attribute groups #N: the module's functions' attributes in order, then
-- those of the calls of the function being printed (SlotTracker's
-- processModule, then processFunction).
local fn_set = { "attrs", number = false, { "fn", number = false, { "node" } } }
local call_sets = { "blocks", number = false, { "insts", number = false,
    { "attrs", number = false, guard = "id == " .. INSTRUCTION_VAL + OP.call, as = "I_call",
      { "fn", number = false, { "node" } } },
    { "attrs", number = false, guard = "id == " .. INSTRUCTION_VAL + OP.invoke, as = "I_invoke",
      { "fn", number = false, { "node" } } } } }
numbering "attrs" {
  scope = "Function",
  { "parent.functions", number = false, fn_set },
  call_sets,
}
-- The module's printer: its functions' attributes, then those of the
-- calls of every function, in order (each function's processFunction as
-- printModule reaches it).
-- (A numbering enters a node once per struct it is seen as: the second
-- pass over the functions sees them as FunctionBody.)
numbering "module_attrs" {
  scope = "Module",
  { "functions", number = false, fn_set },
  { "bodies", number = false, call_sets },
}

-- Named struct types %T, in the order the module's printer finds them
-- (TypeFinder: each global's type; each function's type and each
-- instruction's, its constant operands', a GEP's source and an alloca's
-- allocated type), each type before what it contains, depth first.
local STRUCT = "id == StructTyID and sd & 4 == 0"
-- (TypeFinder's worklist marks all of a type's subtypes seen before it
-- looks into the first: claim = true)
local function types_of(path, extra)
  local st = { path, when = STRUCT,
               { "sub", when = STRUCT, recurse = true, claim = true } }
  for k, v in pairs(extra or {}) do st[k] = v end
  return st
end
local CONSTANT = "id >= BlockAddressVal and id <= ConstantTokenNoneVal"
-- the types type attributes name (byval(T), sret(T): incorporateAttributes)
local function attr_types(path, extra)
  local st = { path, number = false, { "all", number = false,
      { "node", number = false, { "attrs", number = false,
          types_of("ty", { guard = "kindid == 3", as = "TypeAttr" }) } } } }
  for k, v in pairs(extra or {}) do st[k] = v end
  return st
end
numbering "module_types" {
  scope = "Module",
  { "globals", number = false, types_of("vt") },
  { "functions", number = false, types_of("valty"), attr_types("attrs"),
    { "blocks", number = false, { "insts", number = false, types_of("vty"),
        -- (constants only: not a global, an argument or a block; and
        -- the constant a metadata argument holds, dbg.value's undef)
        { "ops", number = false, { "val", number = false,
            only = CONSTANT .. " or id == MetadataAsValueVal",
            types_of("vty", { guard = CONSTANT }),
            { "md", number = false, guard = "id == MetadataAsValueVal",
              as = "MetadataAsValue",
              { "v", number = false, guard = "id == ConstantAsMetadataKind",
                as = "ValueAsMetadata", only = CONSTANT,
                types_of("vty") } } } },
        types_of("src", { guard = "id == " .. INSTRUCTION_VAL + OP.getelementptr,
                          as = "I_getelementptr" }),
        types_of("allocated", { guard = "id == " .. INSTRUCTION_VAL + OP.alloca,
                                as = "I_alloca" }),
        attr_types("attrs", { guard = "id == " .. INSTRUCTION_VAL + OP.call,
                              as = "I_call" }),
        attr_types("attrs", { guard = "id == " .. INSTRUCTION_VAL + OP.invoke,
                              as = "I_invoke" }) } } },
}

-- {====================================================== values by class

-- What a Value is, by its SubclassID: an operand prints as its class's
-- ref (an instruction or argument by name or number, a constant by its
-- value, a global by @name).
local value_cases = {
  ArgumentVal = "Argument", BasicBlockVal = "BasicBlock",
  FunctionVal = "Function", GlobalVariableVal = "GlobalVariable",
  ConstantExprVal = "AnyConstantExpr", ConstantArrayVal = "ConstantArray",
  ConstantStructVal = "ConstantStruct", ConstantVectorVal = "ConstantVector",
  UndefValueVal = "UndefValue", PoisonValueVal = "PoisonValue",
  ConstantAggregateZeroVal = "ConstantAggregateZero",
  ConstantDataArrayVal = "ConstantDataArray",
  ConstantDataVectorVal = "ConstantDataVector",
  ConstantIntVal = "ConstantInt", ConstantFPVal = "ConstantFP",
  ConstantPointerNullVal = "ConstantPointerNull",
  ConstantTokenNoneVal = "ConstantTokenNone",
  InlineAsmVal = "InlineAsm", BlockAddressVal = "BlockAddress",
  MetadataAsValueVal = "MetadataAsValue",
}
for k, v in pairs(inst_cases) do value_cases[k] = v end
struct "Value" {
  ctype = "llvm::Value",
  fields = value_fields(),
  cast = { by = "id", cases = value_cases },
  ref = "<value {id}>",
}
-- A block's instructions, by opcode (an unknown one says its number).
struct "Instruction" {
  ctype = "llvm::Instruction",
  fields = inst_fields(),
  cast = { by = "id", cases = inst_cases },
  text = "  <instruction {id}>\n",
}

-- }======================================================

-- Metadata !N (SlotTracker: processModule, then processFunction): the
-- named metadata's operands, then the printed function's attachments,
-- then each instruction's metadata arguments (of intrinsics) and
-- attachments (!dbg first, the others by kind); each node depth first
-- through its operands, MDNodes only, DIExpression and DIArgList never.
local MDNODE = "id != MDStringKind and id != ConstantAsMetadataKind"
  .. " and id != LocalAsMetadataKind and id != DistinctMDOperandPlaceholderKind"
  .. " and id != DIExpressionKind and id != DIArgListKind"
-- an MDNode's operands, each node through its own (a cycle of steps)
local operands = { "ops", number = false, as = "MDNode" }
operands[2] = { "md", only = MDNODE, operands }
-- a field `md` naming a node: the node, then its operands
local function md_of(extra)
  local st = { "md", only = MDNODE, operands }
  for k, v in pairs(extra or {}) do st[k] = v end
  return st
end
local function attachments()
  return { "md", number = false, { "sorted", number = false, md_of() } }
end
-- The steps from a module (at `m`: "parent." from a function, "" from
-- the module itself).
local function md_steps(m, t)
  t[#t + 1] = { m .. "globals", number = false, attachments() }
  t[#t + 1] = { m .. "named", number = false, { "ops", number = false,
      { "elts", number = false, md_of() } } }
  t[#t + 1] = { m .. "functions", number = false,
    attachments(),
    { "blocks", number = false, { "insts", number = false,
        { "ops", number = false, guard = "id == " .. INSTRUCTION_VAL + OP.call,
          { "val", number = false, only = "id == MetadataAsValueVal",
            md_of { as = "MetadataAsValue" } } },
        { "dbg", only = MDNODE, operands },
        attachments() } } }
  return t
end
-- (-print-after-all's slot tracker numbers the metadata of every
-- function of the module, in order, not only the printed one's; the
-- module's printer numbers them in the same order, function by function)
numbering "md" (md_steps("parent.", { scope = "Function" }))
numbering "module_md" (md_steps("", { scope = "Module" }))

-- {====================================================== reducing

-- A crash's reduce command re-runs the failing pass on the module the
-- failing function is in (the Function's parent, rendered whole as opt
-- -S prints it: a function alone is no input opt reads), as opt's
-- pipeline names the pass: -passes=sroa for SROAPass. The names below
-- are opt-14's function passes (opt-14 --print-passes, each run with
-- -debug-pass-manager to read its class).
local PASS_NAMES = {
  ADCEPass = "adce", AddDiscriminatorsPass = "add-discriminators",
  AddressSanitizerPass = "asan",
  AggressiveInstCombinePass = "aggressive-instcombine",
  AliasSetsPrinterPass = "print-alias-sets",
  AlignmentFromAssumptionsPass = "alignment-from-assumptions",
  AnnotationRemarksPass = "annotation-remarks",
  AssumeBuilderPass = "assume-builder",
  AssumeSimplifyPass = "assume-simplify",
  AssumptionPrinterPass = "print<assumptions>", BDCEPass = "bdce",
  BlockFrequencyPrinterPass = "print<block-freq>",
  BoundsCheckingPass = "bounds-checking",
  BranchProbabilityPrinterPass = "print<branch-prob>",
  BreakCriticalEdgesPass = "break-crit-edges",
  CFGOnlyPrinterPass = "dot-cfg-only", CFGOnlyViewerPass = "view-cfg-only",
  CFGPrinterPass = "dot-cfg", CFGViewerPass = "view-cfg",
  CallSiteSplittingPass = "callsite-splitting",
  ConstantHoistingPass = "consthoist",
  ConstraintEliminationPass = "constraint-elimination",
  ControlHeightReductionPass = "chr", CoroCleanupPass = "coro-cleanup",
  CoroEarlyPass = "coro-early", CoroElidePass = "coro-elide",
  CorrelatedValuePropagationPass = "correlated-propagation",
  CostModelPrinterPass = "print<cost-model>",
  CycleInfoPrinterPass = "print<cycles>", DCEPass = "dce",
  DFAJumpThreadingPass = "dfa-jump-threading", DSEPass = "dse",
  DelinearizationPrinterPass = "print<delinearization>",
  DemandedBitsPrinterPass = "print<demanded-bits>",
  DependenceAnalysisPrinterPass = "print<da>",
  DivRemPairsPass = "div-rem-pairs",
  DivergenceAnalysisPrinterPass = "print<divergence>",
  DomTreeOnlyPrinterPass = "dot-dom-only", DomTreePrinterPass = "dot-dom",
  DominanceFrontierPrinterPass = "print<domfrontier>",
  DominatorTreePrinterPass = "print<domtree>", EarlyCSEPass = "early-cse",
  EntryExitInstrumenterPass = "ee-instrument",
  FixIrreduciblePass = "fix-irreducible", FlattenCFGPass = "flattencfg",
  Float2IntPass = "float2int",
  FunctionPropertiesPrinterPass = "print<func-properties>",
  GVNHoistPass = "gvn-hoist", GVNPass = "gvn", GVNSinkPass = "gvn-sink",
  GuardWideningPass = "guard-widening", HelloWorldPass = "helloworld",
  IRCEPass = "irce", InferAddressSpacesPass = "infer-address-spaces",
  InlineCostAnnotationPrinterPass = "print<inline-cost>",
  InlineSizeEstimatorAnalysisPrinterPass = "print<inliner-size-estimator>",
  InstCombinePass = "instcombine", InstCountPass = "instcount",
  InstSimplifyPass = "instsimplify", InstructionNamerPass = "instnamer",
  JumpThreadingPass = "jump-threading", LCSSAPass = "lcssa",
  LibCallsShrinkWrapPass = "libcalls-shrinkwrap", LintPass = "lint",
  LoadStoreVectorizerPass = "load-store-vectorizer",
  LoopDataPrefetchPass = "loop-data-prefetch",
  LoopDistributePass = "loop-distribute", LoopFusePass = "loop-fusion",
  LoopLoadEliminationPass = "loop-load-elim",
  LoopPrinterPass = "print<loops>", LoopSimplifyPass = "loop-simplify",
  LoopSinkPass = "loop-sink", LoopUnrollPass = "loop-unroll",
  LoopVectorizePass = "loop-vectorize",
  LoopVersioningPass = "loop-versioning", LowerAtomicPass = "loweratomic",
  LowerConstantIntrinsicsPass = "lower-constant-intrinsics",
  LowerExpectIntrinsicPass = "lower-expect",
  LowerGuardIntrinsicPass = "lower-guard-intrinsic",
  LowerInvokePass = "lowerinvoke",
  LowerMatrixIntrinsicsPass = "lower-matrix-intrinsics",
  LowerSwitchPass = "lowerswitch",
  LowerWidenableConditionPass = "lower-widenable-condition",
  MakeGuardsExplicitPass = "make-guards-explicit",
  MemCpyOptPass = "memcpyopt", MemDerefPrinterPass = "print-memderefs",
  MemProfilerPass = "memprof", MemorySSAPrinterPass = "print<memoryssa>",
  MemorySSAWalkerPrinterPass = "print<memoryssa-walker>",
  MemorySanitizerPass = "msan", MergeICmpsPass = "mergeicmps",
  MergedLoadStoreMotionPass = "mldst-motion",
  MustExecutePrinterPass = "print-mustexecute",
  NaryReassociatePass = "nary-reassociate", NewGVNPass = "newgvn",
  NoOpFunctionPass = "no-op-function",
  ObjCARCContractPass = "objc-arc-contract",
  ObjCARCExpandPass = "objc-arc-expand", ObjCARCOptPass = "objc-arc",
  PartiallyInlineLibCallsPass = "partially-inline-libcalls",
  PhiValuesPrinterPass = "print<phi-values>",
  PostDominatorTreePrinterPass = "print<postdomtree>",
  PredicateInfoPrinterPass = "print-predicateinfo", PromotePass = "mem2reg",
  ReassociatePass = "reassociate",
  RedundantDbgInstEliminationPass = "redundant-dbg-inst-elim",
  RegToMemPass = "reg2mem", RegionInfoPrinterPass = "print<regions>",
  SCCPPass = "sccp", SLPVectorizerPass = "slp-vectorizer", SROAPass = "sroa",
  ScalarEvolutionPrinterPass = "print<scalar-evolution>",
  ScalarizeMaskedMemIntrinPass = "scalarize-masked-mem-intrin",
  ScalarizerPass = "scalarizer",
  SeparateConstOffsetFromGEPPass = "separate-const-offset-from-gep",
  SimplifyCFGPass = "simplifycfg", SinkingPass = "sink",
  SpeculativeExecutionPass = "speculative-execution",
  StackSafetyPrinterPass = "print<stack-safety-local>",
  StraightLineStrengthReducePass = "slsr",
  StructurizeCFGPass = "structurizecfg", TailCallElimPass = "tailcallelim",
  ThreadSanitizerPass = "tsan", UnifyFunctionExitNodesPass = "mergereturn",
  UnifyLoopExitsPass = "unify-loop-exits",
  VectorCombinePass = "vector-combine",
  WarnMissedTransformationsPass = "transform-warning",
}
reduce {
  input = "parent",
  rerun = "{exe} {flags} -passes={pass} {input}",
  pass_names = PASS_NAMES,
}

-- }======================================================

-- {====================================================== boundaries

-- llvm::XPass::run(Function &F, FunctionAnalysisManager &AM) returns a
-- PreservedAnalyses through a hidden pointer: `this` is $arg0, F $arg1.
-- The pass's name, as -print-after-all prints it, is the class's.
-- Analyses have the same `run` (returning their result: no section), so
-- the classes are those named ...Pass, and the five function passes of
-- libLLVM-14 that are not (InjectTLIMappings runs in default<O2>). The
-- templated RequireAnalysisPass<...> and InvalidateAnalysisPass<...> have
-- no symbol to stop at: their inline `run` is hidden in libLLVM.
local FUNCTION_PASS = "[A-Za-z0-9_]+Pass|InjectTLIMappings|ReplaceWithVeclib"
  .. "|PGOMemOPSizeOpt|StripGCRelocates|AAEvaluator"
boundary {
  functions = { match = "^llvm::(" .. FUNCTION_PASS .. ")::run\\(llvm::Function&, llvm::AnalysisManager<llvm::Function>&\\)$" },
  ir = "$arg1", sret = true, type = "Function",
  after = "caller",
  -- what a Function holds: a core deep in a pass finds its root by it
  check = { SubclassID = "llvm::Value::ValueTy::FunctionVal", IntID = 0 },
}

-- }======================================================
