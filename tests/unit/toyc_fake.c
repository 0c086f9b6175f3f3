// toyc's IR as debug info would describe it; see toyc_fake.h.
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"
#include "toyc_fake.h"

#define E(ft, T, x) fake_enumerator((ft), #T, #x, (x))

static void
register_links(struct fake_target *ft)
{
	FAKE_TYPE(ft, IListNode);
	FAKE_PTR(ft, IListNode, prev, "IListNode");
	FAKE_PTR(ft, IListNode, next, "IListNode");
}

static void
register_values(struct fake_target *ft)
{
	FAKE_TYPE(ft, Symbol);
	FAKE_UINT(ft, Symbol, len);
	FAKE_UINT(ft, Symbol, hash);
	FAKE_PTR(ft, Symbol, data, "char");

	FAKE_TYPE(ft, Const);
	FAKE_BITFIELD(ft, Const, kind, IRS_TYPE_ENUM);	// enum {...} kind : 2
	snprintf(ft->fields[ft->nfields - 1].info.type_name,
		 sizeof(ft->fields[0].info.type_name), "enum {...}");
	FAKE_MEMBER(ft, Const, u, IRS_TYPE_UNION, "union {...}", "");
	FAKE_INT(ft, Const, u.i);
	FAKE_FLOAT(ft, Const, u.f);
	FAKE_PTR(ft, Const, u.sym, "Symbol");

	FAKE_TYPE(ft, Operand);
	FAKE_ENUM(ft, Operand, kind, "OperandKind");
	FAKE_MEMBER(ft, Operand, u, IRS_TYPE_UNION, "union {...}", "");
	FAKE_PTR(ft, Operand, u.def, "Instr");
	FAKE_UINT(ft, Operand, u.cidx);
	FAKE_PTR(ft, Operand, u.block, "Block");
}

// An IListNode member @p m of @p T and its prev and next, as debug info
// lists them.
#define FAKE_ILIST(ft, T, m) do { \
	FAKE_STRUCT(ft, T, m, "IListNode"); \
	FAKE_PTR(ft, T, m.prev, "IListNode"); \
	FAKE_PTR(ft, T, m.next, "IListNode"); \
} while (0)

static void
register_nodes(struct fake_target *ft)
{
	FAKE_TYPE(ft, Instr);
	FAKE_ILIST(ft, Instr, link);
	FAKE_ENUM(ft, Instr, op, "Opcode");
	FAKE_UINT(ft, Instr, id);
	FAKE_PTR(ft, Instr, name, "char");
	FAKE_BITFIELD(ft, Instr, has_result, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, Instr, dead, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, Instr, visited, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, Instr, spare, IRS_TYPE_UINT);
	FAKE_UINT(ft, Instr, nops);
	FAKE_UINT(ft, Instr, npreds);
	FAKE_PTR(ft, Instr, preds, "Block *");
	FAKE_PTR(ft, Instr, ops, "Operand");
	FAKE_PTR(ft, Instr, parent, "Block");

	FAKE_TYPE(ft, Block);
	FAKE_ILIST(ft, Block, link);
	FAKE_ARRAY(ft, Block, label, "char");
	FAKE_ILIST(ft, Block, insts);
	FAKE_PTR(ft, Block, parent, "Function");

	FAKE_TYPE(ft, Function);
	FAKE_ILIST(ft, Function, link);
	FAKE_PTR(ft, Function, name, "Symbol");
	FAKE_UINT(ft, Function, nparams);
	FAKE_PTR(ft, Function, params, "Instr *");
	FAKE_ILIST(ft, Function, blocks);
	FAKE_UINT(ft, Function, next_id);
	FAKE_PTR(ft, Function, parent, "Module");

	FAKE_TYPE(ft, Module);
	FAKE_PTR(ft, Module, name, "Symbol");
	FAKE_ILIST(ft, Module, funcs);
	FAKE_UINT(ft, Module, nconsts);
	FAKE_UINT(ft, Module, cap_consts);
	FAKE_PTR(ft, Module, consts, "Const");
	FAKE_PTR(ft, Module, strtab, "StrTab");
}

static void
register_enums(struct fake_target *ft)
{
	E(ft, Opcode, OP_ARG); E(ft, Opcode, OP_COPY); E(ft, Opcode, OP_NEG);
	E(ft, Opcode, OP_ADD); E(ft, Opcode, OP_SUB); E(ft, Opcode, OP_MUL);
	E(ft, Opcode, OP_DIV); E(ft, Opcode, OP_REM); E(ft, Opcode, OP_AND);
	E(ft, Opcode, OP_OR); E(ft, Opcode, OP_XOR); E(ft, Opcode, OP_SHL);
	E(ft, Opcode, OP_SHR); E(ft, Opcode, OP_EQ); E(ft, Opcode, OP_LT);
	E(ft, Opcode, OP_LOAD); E(ft, Opcode, OP_STORE);
	E(ft, Opcode, OP_CALL); E(ft, Opcode, OP_BR);
	E(ft, Opcode, OP_CONDBR); E(ft, Opcode, OP_RET); E(ft, Opcode, OP_PHI);
	E(ft, Opcode, OP__COUNT);
	// the anonymous enum of Const.kind, by its member
	fake_enumerator(ft, "Const.kind", "CK_INT", CK_INT);
	fake_enumerator(ft, "Const.kind", "CK_FLOAT", CK_FLOAT);
	fake_enumerator(ft, "Const.kind", "CK_SYM", CK_SYM);
	E(ft, OperandKind, OPK_VALUE); E(ft, OperandKind, OPK_CONST);
	E(ft, OperandKind, OPK_BLOCK);
}

// The globals toyc.lua reads: the opcode table, this process's own (the
// fakes' IR is built by toyc's code linked in).
static void
register_globals(struct fake_target *ft)
{
	FAKE_TYPE(ft, OpInfo);
	FAKE_PTR(ft, OpInfo, name, "char");
	FAKE_UINT(ft, OpInfo, flags);
	fake_field(ft, "OpInfo", "", 0, sizeof(OpInfo), IRS_TYPE_STRUCT,
		   "OpInfo", "", 0);
	fake_global(ft, "toyc_optab", (uintptr_t)toyc_optab,
		    sizeof(toyc_optab), IRS_TYPE_ARRAY, "const OpInfo [22]",
		    "const OpInfo", OP__COUNT);
}

void
toyc_fake_register(struct fake_target *ft)
{
	register_globals(ft);
	register_links(ft);
	register_values(ft);
	register_nodes(ft);
	register_enums(ft);
}

const char *
toyc_fake_path(const char *rel, char *buf, size_t len)
{
	const char *root = getenv("IRSNAP_ROOT");
	snprintf(buf, len, "%s/%s", root && *root ? root : ".", rel);
	return buf;
}
