-- MLIR 14's IR, read from a release build that links Debian's
-- libMLIR.so.14 (no debug info) through a type donor, and printed as
-- `--mlir-print-op-generic --print-ir-after-all` prints an operation
-- after a pass: the op, its regions, blocks and ops nested in them.
--
--   irsnap donor common/layouts/mlir14.lua
--   (gdb) ir-layout load common/layouts/mlir14.lua
--   (gdb) ir-trace on
--   (gdb) run --mlir-disable-threading -pass-pipeline='...' in.mlir
--
-- The offsets of MLIR's public classes (Operation, Block, Region, the
-- values, the abstract types) come from the donor's DWARF; those of the
-- storages of builtin types and attributes, which MLIR keeps in private
-- headers Debian does not install (lib/IR/TypeDetail.h,
-- AttributeDetail.h), are written here, from MLIR 14's source. Builtin
-- types and attributes are told apart by their TypeID, the address of a
-- static that libMLIR's exported TypeIDExported::get<T>() returns (found
-- when the layout loads, from the getter's code). A type or attribute
-- this layout does not know (a dialect's own) prints <unknown type> or
-- <unknown attribute> and is a walk error, never a wrong text.
layout { name = "mlir14", root = "Op0" }

donor {
  source  = "mlir14/donor.cpp",
  include = { "/usr/lib/llvm-14/include" },
  flags   = { "-std=c++17", "-DNDEBUG", "-fno-exceptions" },
  fits = {
    { fact = "irsnap_llvm_version_major", library = "^libMLIR\\.so\\.([0-9]+)" },
    { fact = "irsnap_abi_breaking_checks", symbol = "llvm::EnableABIBreakingChecks", value = 1 },
    { fact = "irsnap_abi_breaking_checks", symbol = "llvm::DisableABIBreakingChecks", value = 0 },
  },
}

local llvm = require "irsnap.llvm"
local std = require "irsnap.std"

-- How deep ops nest in what one snapshot prints: an op's indentation is
-- its depth (two blanks a level), so each depth has structs of its own.
local DEPTH = 12

local function tid(class)
  return address { lea = "mlir::TypeID mlir::detail::TypeIDExported::get<mlir::"
                         .. class .. ">()" }
end

-- {====================================================== types

-- TypeStorage { AbstractType *abstractType } heads every type's storage;
-- AbstractType::typeID says which it is.
struct "Abstract" {
  ctype = "mlir::AbstractType", node = false,
  fields = { id = u64 "typeID" },
}

-- A shape's dimension, ShapedType::kDynamicSize (-1) as '?'.
struct "Dim" { size = 8, node = false, fields = { d = i64(0) },
               text = "{?d < 0}?{:}{d}{/}x" }

local M = "irsnap_mlir14::"	-- the donor's mirrors of MLIR's storages
local function type_struct(name, ctype, fields, text)
  fields.abs = ptr("abstractType", "Abstract")
  struct(name) { ctype = ctype, fields = fields, text = text, ref = text }
end
local function shape(extra)
  local f = { shape = array { ptr = "shape.Data", count = "shape.Length", of = "Dim" },
              elt = ref("elementType.impl", "Type") }
  for k, v in pairs(extra or {}) do f[k] = v end
  return f
end

type_struct("IntegerType", M .. "IntegerTypeStorage",
  { w = scalar "width", s = scalar "signedness" },
  "{?s == 1}si{/}{?s == 2}ui{/}i{w}")
for _, t in ipairs {
  { "IndexType", "index" }, { "Float16Type", "f16" },
  { "BFloat16Type", "bf16" }, { "Float32Type", "f32" },
  { "Float64Type", "f64" }, { "Float80Type", "f80" },
  { "Float128Type", "f128" }, { "NoneType", "none" },
} do
  type_struct(t[1], "mlir::TypeStorage", {}, t[2])
end
-- a function type's inputs, then its results, in one array; one result
-- is printed bare unless it is a function type itself (OneResult: a type
-- as Type prints it, a function type in parentheses)
local function function_fields()
  return {
    ins  = array { ptr = "inputsAndResults", count = "numInputs", of = ref "Type" },
    outs = zip { count = "numResults", text = "{t}", of = {
      t = { ptr = "inputsAndResults", skip = { { "numInputs", 8 } }, of = ref "Type" } } },
    one  = zip { count = "numResults", text = "{t}", of = {
      t = { ptr = "inputsAndResults", skip = { { "numInputs", 8 } }, of = ref "OneResult" } } },
    nr = scalar "numResults",
  }
end
local FUNCTION = "({ins*, }) -> {?nr == 1}{one}{:}({outs*, }){/}"
type_struct("FunctionType", M .. "FunctionTypeStorage", function_fields(), FUNCTION)
type_struct("FunctionResult", M .. "FunctionTypeStorage", function_fields(),
            "(" .. FUNCTION .. ")")
type_struct("VectorType", M .. "VectorTypeStorage", shape {
  scalable = scalar "numScalableDims",
  bad = union { tag = "scalable", cases = { [0] = u8(0) } },
}, "vector<{?scalable != 0}<scalable>{bad}{:}{shape}{elt}{/}>")
type_struct("RankedTensorType", M .. "RankedTensorTypeStorage", shape {
  enc = ref("encoding.impl", "Attr"),
}, "tensor<{shape}{elt}{?enc}, {enc}{/}>")
type_struct("UnrankedTensorType", M .. "UnrankedTensorTypeStorage",
  { elt = ref("elementType.impl", "Type") }, "tensor<*x{elt}>")
-- A memref's layout is printed when it is not the identity map (MLIR 14
-- gives every memref an AffineMapAttr); this layout prints an identity
-- map as MLIR does (nothing) and marks any other, a walk error, as it
-- marks a memory space (TODO: affine maps and memory spaces' texts).
struct "AffineExpr" {
  ctype = M .. "AffineDimExprStorage", node = false,
  fields = { kind = scalar "kind", pos = scalar "position",
             bad = union { tag = "kind", cases = { [-1] = u8(0) } } },
  -- AffineExprKind::DimId is 6: the identity's i-th result is d<i>
  text = "{?kind != 6 or pos != #}, <layout>{bad}{/}",
}
struct "AffineMap" {
  ctype = M .. "AffineMapStorage", node = false,
  fields = { nd = scalar "numDims", nr = scalar "results.Length",
             results = array { ptr = "results.Data", count = "results.Length",
                               of = ptr "AffineExpr" },
             bad = union { tag = "nd", cases = { [-1] = u8(0) } } },
  text = "{?nd != nr}, <layout>{bad}{:}{results}{/}",
}
struct "Layout" {
  ctype = M .. "AffineMapAttrStorage", node = false,
  fields = { abs = ptr("abstractAttribute", "AbstractAttr"),
             map = ptr("value", "AffineMap"),
             absp = u64 "abstractAttribute",
             bad = union { tag = "absp", cases = { [0] = u8(0) } } },
  cast = { by = "abs.id", cases = { [tid "AffineMapAttr"] = "LayoutMap" } },
  text = ", <layout>{bad}",
}
struct "LayoutMap" {
  ctype = M .. "AffineMapAttrStorage", node = false,
  fields = { map = ptr("value", "AffineMap") }, text = "{map}",
}
type_struct("MemRefType", M .. "MemRefTypeStorage", shape {
  layout = ptr("layout", "Layout"),
  space = u64 "memorySpace",
  bad = union { tag = "space", cases = { [0] = u8(0) } },
}, "memref<{shape}{elt}{layout}{?space != 0}, <memory space>{bad}{/}>")
type_struct("ComplexType", M .. "ComplexTypeStorage",
  { elt = ref("elementType.impl", "Type") }, "complex<{elt}>")
type_struct("TupleType", M .. "TupleTypeStorage", {
  elts = array { at = "after", count = "numElements", of = ref "Type" },
}, "tuple<{elts*, }>")

local type_cases, one_cases = {}, {}
local TYPES = { "IntegerType", "IndexType", "Float16Type", "BFloat16Type",
                "Float32Type", "Float64Type", "Float80Type", "Float128Type",
                "NoneType", "FunctionType", "VectorType", "RankedTensorType",
                "UnrankedTensorType", "MemRefType", "TupleType", "ComplexType" }
for _, c in ipairs(TYPES) do
  type_cases[tid(c)] = c
  one_cases[tid(c)] = c == "FunctionType" and "FunctionResult" or c
end
-- A storage told apart by its abstract's TypeID (`cases`); one this
-- layout does not know prints `shown` and is a walk error (no case of the
-- union `unknown` for its abstract's address, which is never 0).
local function by_typeid(name, ctype, abstract, abstract_type, cases, shown)
  local t = shown .. "{unknown}"
  struct(name) {
    ctype = ctype,
    fields = {
      abs = ptr(abstract, abstract_type),
      absp = u64(abstract),
      unknown = union { tag = "absp", cases = { [0] = u8(0) } },
    },
    cast = { by = "abs.id", cases = cases },
    text = t, ref = t,
  }
end
by_typeid("Type", "mlir::TypeStorage", "abstractType", "Abstract",
          type_cases, "<unknown type>")
by_typeid("OneResult", "mlir::TypeStorage", "abstractType", "Abstract",
          one_cases, "<unknown type>")

-- }======================================================

-- {====================================================== attributes

struct "AbstractAttr" {
  ctype = "mlir::AbstractAttribute", node = false,
  fields = { id = u64 "typeID" },
}

-- AttributeStorage { Type type; AbstractAttribute *abstractAttribute }
-- heads every attribute's storage, the attribute's own parts after it.
-- Each kind is declared twice: as an attribute ("A_") and as the value
-- of a named attribute ("N_": " = " and the attribute; a UnitAttr is its
-- name alone).
local attr_kinds = {}
local function attr_struct(name, ctype, fields, text)
  attr_kinds[#attr_kinds + 1] = name
  for _, p in ipairs { { "A_", "" }, { "N_", " = " } } do
    local f = { abs = ptr("abstractAttribute", "AbstractAttr"),
                ty = ref("type.impl", "Type") }
    for k, v in pairs(fields) do f[k] = v end
    local t = (name == "UnitAttr" and p[1] == "N_") and "" or p[2] .. text
    struct(p[1] .. name) { ctype = ctype, fields = f, text = t, ref = t }
  end
end

-- an APInt, signed; an i1 prints true or false
attr_struct("IntegerAttr", M .. "IntegerAttrStorage", {
  v = apint { value = "value.U.VAL", words = "value.U.pVal",
              width = "value.BitWidth", signed = true },
  bw = scalar "value.BitWidth",
}, "{?bw == 1 and v == 1}true{:}{?bw == 1 and v == 0}false{:}{v} : {ty}{/}{/}")
attr_struct("FloatAttr", M .. "FloatAttrStorage", {
  v = apfloat { semantics = "value.U.IEEE.semantics",
                significand = "value.U.IEEE.significand",
                exponent = "value.U.IEEE.exponent",
                category = "value.U.IEEE.category",
                sign = "value.U.IEEE.sign", style = "mlir" },
}, "{v} : {ty}")
attr_struct("StringAttr", M .. "StringAttrStorage",
  { s = strn("value.Data", "value.Length") }, "{s:quoted}")
attr_struct("TypeAttr", M .. "TypeAttrStorage",
  { t = ref("value.impl", "Type") }, "{t}")
attr_struct("SymbolRefAttr", M .. "SymbolRefAttrStorage", {
  root = ref("rootReference", "A_StringAttr"),
  nested = array { ptr = "nestedReferences.Data", count = "nestedReferences.Length",
                   of = "NestedRef" },
}, "@{root.s:mlir_keyword}{nested}")
attr_struct("UnitAttr", "mlir::AttributeStorage", {}, "unit")
attr_struct("ArrayAttr", M .. "ArrayAttrStorage", {
  elts = array { ptr = "value.Data", count = "value.Length", of = ref "Attr" },
}, "[{elts*, }]")
attr_struct("DictionaryAttr", M .. "DictionaryAttrStorage", {
  elts = array { ptr = "value.Data", count = "value.Length", of = "NamedAttr" },
}, "{{{elts*, }}}")

struct "NestedRef" { size = 8, node = false,
  fields = { r = ref({ offset = 0 }, "A_StringAttr") },
  text = "::@{r.s:mlir_keyword}" }

-- (DenseIntOrFPElementsAttr's two structs are below)
attr_kinds[#attr_kinds + 1] = "DenseIntOrFPElementsAttr"
local attr_cases, named_cases = {}, {}
for _, k in ipairs(attr_kinds) do
  attr_cases[tid(k)] = "A_" .. k
  named_cases[tid(k)] = "N_" .. k
end
by_typeid("Attr", "mlir::AttributeStorage", "abstractAttribute",
          "AbstractAttr", attr_cases, "<unknown attribute>")
by_typeid("NamedValue", "mlir::AttributeStorage", "abstractAttribute",
          "AbstractAttr", named_cases, " = <unknown attribute>")
-- NamedAttribute { StringAttr name; Attribute value }
struct "NamedAttr" {
  ctype = M .. "NamedAttribute", node = false,
  fields = { name = ref("name", "A_StringAttr"),
             value = ref("value", "NamedValue") },
  text = "{name.s:mlir_keyword}{value}",
}

-- DenseIntOrFPElementsAttrStorage: isSplat, then the raw data (an
-- ArrayRef<char>); its type a vector or ranked tensor (shape at 8,
-- element type at 24) whose element type and width pick how the data is
-- read. One dimension, integers of 8 to 64 bits, f32 and f64 here;
-- another shape or element type is marked and a walk error.
struct "Shaped" {
  ctype = M .. "ShapedTypeStorage", node = false,
  fields = { rank = scalar "shape.Length", elt = ref("elementType.impl", "Elt") },
}
struct "Elt" {
  ctype = M .. "IntegerTypeStorage", node = false,
  fields = { abs = ptr("abstractType", "Abstract"), w = scalar "width" },
}
struct "F32" { size = 4, node = false,
  fields = { v = apfloat { bits = u32(0), semantics = "float", style = "mlir" } },
  text = "{v}" }
struct "F64" { size = 8, node = false,
  fields = { v = apfloat { bits = u64(0), semantics = "double", style = "mlir" } },
  text = "{v}" }
local function dense_fields(extra)
  local f = {
    abs = ptr("abstractAttribute", "AbstractAttr"),
    ty = ref("type.impl", "Type"),
    sh = ref("type.impl", "Shaped"),
    splat = scalar "isSplat",
    -- a case that cannot be printed: no case of this union for its rank
    bad = union { tag = "splat", cases = { [-1] = u8(0) } },
  }
  for k, v in pairs(extra or {}) do f[k] = v end
  return f
end
for _, p in ipairs { { "A_", "" }, { "N_", " = " } } do
  local ints = {}
  for _, d in ipairs {
    { "I8", 1, i8 {} }, { "I16", 2, i16 {} }, { "I32", 4, i32 {} },
    { "I64", 8, i64 {} }, { "F32", 4, "F32" }, { "F64", 8, "F64" },
  } do
    struct(p[1] .. "Dense" .. d[1]) {
      ctype = M .. "DenseIntOrFPElementsAttrStorage",
      fields = dense_fields {
        elts = array { ptr = "data.Data", count = "data.Length", divide = d[2], of = d[3] },
      },
      text = p[2] .. "{?sh.rank != 1}<unsupported dense>{bad}{:}"
          .. "dense<{?splat}{elts}{:}[{elts*, }]{/}> : {ty}{/}",
      ref = p[2] .. "{?sh.rank != 1}<unsupported dense>{bad}{:}"
          .. "dense<{?splat}{elts}{:}[{elts*, }]{/}> : {ty}{/}",
    }
    if d[1]:match("^I") then ints[d[2] * 8] = p[1] .. "Dense" .. d[1] end
  end
  struct(p[1] .. "DenseInt") {
    ctype = M .. "DenseIntOrFPElementsAttrStorage", fields = dense_fields(),
    cast = { by = "sh.elt.w", cases = ints },
    text = p[2] .. "<unsupported dense>{bad}", ref = p[2] .. "<unsupported dense>{bad}",
  }
  struct(p[1] .. "DenseIntOrFPElementsAttr") {
    ctype = M .. "DenseIntOrFPElementsAttrStorage", fields = dense_fields(),
    cast = { by = "sh.elt.abs.id", cases = {
      [tid "IntegerType"] = p[1] .. "DenseInt",
      [tid "Float32Type"] = p[1] .. "DenseF32",
      [tid "Float64Type"] = p[1] .. "DenseF64",
    } },
    text = p[2] .. "<unsupported dense>{bad}", ref = p[2] .. "<unsupported dense>{bad}",
  }
end

-- }======================================================

-- {====================================================== values

-- A Value is a ValueImpl *: firstUse, then typeAndKind, a
-- PointerIntPair<Type, 3, Kind>: kind 0 to 5 is an inline result of that
-- number (its op 16 * (kind + 1) bytes after it), 6 an out-of-line
-- result, 7 a block argument.
local function vtype(path)
  return ref(path, "Type") { mask = ~7 }
end
-- The op a result belongs to, for its number: only what that needs.
struct "OpOf" {
  ctype = "mlir::Operation", node = false,
  fields = { n = num { "ssa", counter = "value" }, nres = u32 "numResults" },
}
local value_cases = { [6] = "ResultOut", [7] = "BlockArg" }
for k = 0, 5 do
  value_cases[k] = "Result" .. k
  struct("Result" .. k) {
    ctype = "mlir::detail::InlineOpResult", size = 16 * (k + 1) + 64,
    fields = { op = embed({ offset = 16 * (k + 1) }, "OpOf") },
    ref = "%{op.n}{?op.nres > 1}#" .. k .. "{/}",
  }
end
-- TODO: results past the sixth (OutOfLineOpResult: their op lies past
-- outOfLineIndex more of them), marked and a walk error.
struct "ResultOut" {
  ctype = "mlir::detail::OutOfLineOpResult",
  fields = { idx = u64 "outOfLineIndex",
             bad = union { tag = "idx", cases = { [-1] = u8(0) } } },
  ref = "<out-of-line result>{bad}",
}
-- BlockArgumentImpl: an entry block's arguments are %argN, the others
-- take value numbers.
struct "BlockArg" {
  ctype = "mlir::detail::BlockArgumentImpl",
  fields = { a = num { "ssa", counter = "arg" },
             v = num { "ssa", counter = "value" },
             ty = vtype "typeAndKind.Value" },
  ref = "{?a}%arg{a}{:}%{v}{/}",
  text = "{@ref}: {ty}",
}
struct "Value" {
  ctype = "mlir::detail::ValueImpl",
  fields = { kind = bits { at = "typeAndKind.Value", bit = 0, width = 3 } },
  cast = { by = "kind", cases = value_cases },
  ref = "<value>",
}
struct "ValueType" {
  ctype = "mlir::detail::ValueImpl", node = false,
  fields = { ty = vtype "typeAndKind.Value" }, text = "{ty}",
}

-- An op's operands: OpOperand { nextUse, back, owner, Value value }
struct "Operand" { ctype = "mlir::OpOperand", node = false,
  fields = { v = ref("value.impl", "Value") }, text = "{v}" }
struct "OperandType" { ctype = "mlir::OpOperand", node = false,
  fields = { t = ptr("value.impl", "ValueType") }, text = "{t}" }
-- OperandStorage (after the op when it has one): the operands' array
struct "Operands" { ctype = "mlir::detail::OperandStorage", node = false,
  fields = { ops = array { ptr = "operandStorage", count = "numOperands",
                           of = "Operand" } },
  text = "{ops*, }" }
struct "OperandTypes" { ctype = "mlir::detail::OperandStorage", node = false,
  fields = { ops = array { ptr = "operandStorage", count = "numOperands",
                           of = "OperandType" } },
  text = "{ops*, }" }
-- Results lie before the op, in reverse: their types
struct "ResultType" { ctype = "mlir::detail::InlineOpResult", node = false,
  fields = { ty = vtype "typeAndKind.Value" }, text = "{ty}" }
struct "ResultOutType" { ctype = "mlir::detail::OutOfLineOpResult", node = false,
  fields = { ty = vtype "typeAndKind.Value" }, text = "{ty}" }

-- }======================================================

-- {====================================================== operations

struct "OpName" { ctype = M .. "OperationNameImpl", node = false,
  fields = { s = ref("name", "A_StringAttr") } }
-- The op's attribute dictionary, after a blank when it has any
struct "OpAttrs" {
  ctype = M .. "DictionaryAttrStorage", node = false,
  fields = { elts = array { ptr = "value.Data", count = "value.Length", of = "NamedAttr" } },
  text = "{?elts} {{{elts*, }}}{/}",
}
-- A block by its number in its region, and the block of an op
struct "BlockRef" { ctype = "mlir::Block", node = false,
  fields = { b = num { "ssa", counter = "block" } }, text = "^bb{b}" }
struct "Succ" { ctype = "mlir::BlockOperand", node = false,
  fields = { b = ref("value", "BlockRef") }, text = "{b}" }
struct "OpOwner" { ctype = "mlir::Operation", node = false,
  fields = { block = ref("block", "BlockRef") } }
struct "BlockUse" { ctype = "mlir::BlockOperand", node = false,
  fields = { owner = ref("owner", "OpOwner") } }

local function ind(d) return string.rep("  ", d) end

-- Op<d>: an op nested d levels below the one printed, indented so; its
-- regions Region<d>, their blocks Block<d>, holding Op<d+1>.
for d = 0, DEPTH do
  local op, region, block, inner = "Op" .. d, "Region" .. d, "Block" .. d,
                                   "Op" .. d + 1
  local fields = {
    name   = ref("name.impl", "OpName"),
    nres   = u32 "numResults",
    n      = num { "ssa", counter = "value" },
    parent = u64 "block",
    results = array { at = "before", reverse = true, count = "numResults",
                      limit = 6, of = "ResultType" },
    more   = array { at = "before", reverse = true, skip = 96,
                     count = "numResults", drop = 6, of = "ResultOutType" },
    operands = array { at = "after", count = "hasOperandStorage", of = "Operands" },
    optypes  = array { at = "after", count = "hasOperandStorage", of = "OperandTypes" },
    succs  = array { at = "after", skip = { { "hasOperandStorage", 16 } },
                     count = "numSuccs", of = "Succ" },
    nregions = scalar "numRegions",
    -- (a DictionaryAttr: its storage pointer, the class's one member)
    attrs  = ref({ offset = 56 }, "OpAttrs"),
  }
  local regions = ""
  if d < DEPTH then
    fields.regions = array { at = "after",
                             skip = { { "hasOperandStorage", 16 }, { "numSuccs", 32 } },
                             count = "numRegions", of = region }
    regions = "{?regions} ({regions*, }){/}"
  else
    fields.deep = union { tag = "nregions", cases = { [0] = u8(0) } }
    regions = "{?nregions != 0} (<nested too deep>{deep}){/}"
  end
  struct(op) {
    ctype = "mlir::Operation",
    fields = fields,
    text = ind(d) .. "{?nres == 1}%{n} = {/}{?nres > 1}%{n}:{nres} = {/}"
        .. "{name.s.s:quoted}({operands}){?succs}[{succs*, }]{/}" .. regions
        .. "{attrs} : ({optypes}) -> "
        .. "{?nres == 1}{results}{:}({results*, }{?more}, {more*, }{/}){/}"
        .. (d == 0 and "\n{?parent == 0}\n{/}" or "\n"),
  }
  if d < DEPTH then
    struct(region) {
      ctype = "mlir::Region", node = false,
      fields = { blocks = llvm.ilist("blocks", block, { link_offset = 8 }) },
      text = "{{\n{blocks}" .. ind(d) .. "}}",
    }
    -- an entry block's header is left out when it has no arguments and
    -- some ops; predecessors sorted by block number
    struct(block) {
      ctype = "mlir::Block",
      fields = {
        b     = num { "ssa", counter = "block" },
        args  = std.vector("arguments", ptr "BlockArg"),
        ops   = llvm.ilist("operations", inner, { link_offset = 0 }),
        uses  = list { head = "firstUse", of = "BlockUse", link = "nextUse" },
        preds = derived { from = "uses", map = "owner.block", sort = "b",
                          of = ref "BlockRef" },
      },
      ref = "^bb{b}",
      text = "{?# == 0 and not args and ops}{:}" .. ind(d)
          .. "^bb{b}{?args}({args*, }){/}:"
          .. "{?#preds == 0}{?# != 0}  // no predecessors{/}"
          .. "{:}{?#preds == 1}  // pred: {@preds*, }"
          .. "{:}  // {=#preds} preds: {@preds*, }{/}{/}\n{/}{ops}",
    }
  end
end

-- MLIR's SSANameState: the printed op's regions, each a level whose
-- blocks' arguments and ops' results are numbered before the regions
-- nested in them, which start from the counters as they are then
-- (sibling regions alike); entry blocks' arguments %argN on a counter of
-- their own; blocks per region.
local function region_step(d)
  local ops = { "ops", when = "nres > 0", counter = "value" }
  if d + 1 < DEPTH then ops[#ops + 1] = region_step(d + 1) end
  return { "regions", nest = true, number = false,
           { "blocks", counter = "block",
             { "args", guard = "# == 0", counter = "arg" },
             { "args", guard = "# != 0", counter = "value" },
             ops } }
end
numbering "ssa" {
  scope = "Op0", counters = { "value", "arg", "block" }, reset = { "block" },
  region_step(0),
}

-- }======================================================

-- {====================================================== boundaries

-- OpToOpPassAdaptor::run(Pass *pass, Operation *op, AnalysisManager am,
-- bool verifyPasses, unsigned parentInitGeneration) runs every pass on
-- every op it applies to: $arg0 the pass, $arg1 the op. The pass's name
-- is what its virtual getName() returns (vtable slot 2), read without a
-- call: a tablegen'd pass's getName() is `lea disp32(%rip), %rax; mov
-- $len, %edx; ret`, the name at fn + 7 + disp. The adaptors' own
-- getName() is code of another shape: their name is empty, and snapshots
-- of a pass without a name are not taken (MLIR's printer skips them too).
local GETNAME = "(*(long *)(*(long *)$arg0 + 16))"
-- A rerun of the failing pass (failure.json's reduce command) names it as
-- -pass-pipeline does, by its argument: getArgument(), vtable slot 4,
-- code of the same shape ("cse"), nested under the name of the op it ran
-- on ("builtin.func(cse)"; on the module, which the snapshot file is, the
-- pass alone). The op's name: Operation::name (an OperationName::Impl *,
-- at 48), whose first member is its StringAttr, whose storage holds the
-- name's StringRef at 16 (MLIR 14's x86-64 layout; a boundary's
-- expressions read raw memory, not the donor's types).
local GETARG = "(*(long *)(*(long *)$arg0 + 32))"
local OPNAME = "(*(long *)*(long *)($arg1 + 48))"
local function strref(fn)
  return { data = fn .. " + 7 + *(int *)(" .. fn .. " + 3)",
           len = "(*(unsigned short *)" .. fn .. " == 0x8d48 && *(unsigned char *)("
              .. fn .. " + 7) == 0xba) ? *(int *)(" .. fn .. " + 8) : 0" }
end
local arg = strref(GETARG)
-- In a core taken deep inside a pass (a crash below this frame), $arg0
-- and $arg1 are long gone from their registers: irsnap finds the pass
-- where the frame saved it (the first value its name reads from), and
-- the op through it: run() has set the pass's passState
-- (Optional<PassExecutionState> at 40, whose first member is the op, a
-- PointerIntPair with a flag in bit 0) before it ran the pass.
local PASSOP = "(*(long *)($arg0 + 40) & -8)"
boundary {
  at = "mlir::detail::OpToOpPassAdaptor::run(mlir::Pass*, mlir::Operation*, mlir::AnalysisManager, bool, unsigned int)",
  pass = strref(GETNAME),
  ir = { "$arg1", PASSOP }, type = "Op0",
  after = "caller",
  rerun_pass = { data = arg.data, len = arg.len, top = "builtin.module",
                 anchor = { data = "*(long *)(" .. OPNAME .. " + 16)",
                            len = "*(long *)(" .. OPNAME .. " + 24)" } },
}

-- The failing pass rerun on a snapshot by the tool that ran it, the
-- user's one-word options along (-pass-pipeline's own left out).
reduce { rerun = "{exe} {flags} --pass-pipeline={pass} {input}" }

-- }======================================================
