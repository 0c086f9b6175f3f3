// Boundary variables read from the debug info, not the debugger's
// evaluator: where a variable path ("f", "pass->name") lives at an entry
// stop's pc, from the DWARF of the module there (libdw), so that the next
// stops at that pc read it from a register and the debuggee's memory.
// Under GDB a boundary's two paths cost its entry stop a frame (CFI
// unwinding, a Python frame object) and two evaluations: 80 us of a 390 us
// event (issue 26). A recipe is kept only when it reads back, at the stop
// it was learned at, what the debugger said; what it does not understand
// (DWARF expressions beyond a register, a register plus an offset or the
// frame base, inlined scopes, bitfields, members of base classes, "." and
// [] steps, types declared but defined elsewhere) stays with the debugger.
// Live x86-64 processes only: the DWARF register numbers below are
// x86-64's, and a core file has no stop to learn at.
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/console.h"

enum {
	MAX_RECIPES = 1024,
	MAX_MODULES_OPEN = 4,
	MAX_STEPS = 8,
	DW_RSP = 7,
	DW_RIP = 16,
};

struct recipe {
	uint64_t pc;
	char *expr;
	bool fast;		/* false: the debugger's, always */
	int reg;		/* the root: DWARF register number */
	bool in_memory;		/* at reg + off, else in the register */
	int64_t off;
	uint32_t size;		/* bytes of the root's value */
	bool is_signed;
	uint32_t nsteps;	/* "->member": load at value + off */
	struct step {
		uint64_t off;
		uint32_t size;	/* 0: an aggregate, its address the value */
		bool is_signed;
	} steps[MAX_STEPS];
	struct irs_value_facts facts;	/* the debugger's, at learning */
};

struct module {
	char *path;
	int fd;
	Elf *elf;
	Dwarf *dw;		/* NULL: no DWARF in the file */
	Dwarf_CFI *eh;		/* .eh_frame's, dwarf_cfi_end()ed */
};

struct console_framevars {
	int64_t pid;
	bool not_tracer;	/* PTRACE_GETREGS refused: the debugger's */
	struct recipe *recipes;
	size_t nrecipes, caprecipes;
	struct module modules[MAX_MODULES_OPEN];
	size_t nmodules;
};

static void
module_close(struct module *m)
{
	if (m->eh)
		dwarf_cfi_end(m->eh);
	if (m->dw)
		dwarf_end(m->dw);
	if (m->elf)
		elf_end(m->elf);
	if (m->fd >= 0)
		close(m->fd);
	free(m->path);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}

void
console_framevar_forget(struct irs_console *c)
{
	struct console_framevars *fv = c->framevars;
	if (!fv)
		return;
	for (size_t i = 0; i < fv->nrecipes; i++)
		free(fv->recipes[i].expr);
	free(fv->recipes);
	for (size_t i = 0; i < fv->nmodules; i++)
		module_close(&fv->modules[i]);
	free(fv);
	c->framevars = NULL;
}

// The recipes of the process debugged now (a new process: none).
static struct console_framevars *
framevars(struct irs_console *c)
{
	if (c->framevars && c->framevars->pid != c->t->pid)
		console_framevar_forget(c);
	if (!c->framevars && (c->framevars = calloc(1, sizeof(*c->framevars))))
		c->framevars->pid = c->t->pid;
	return c->framevars;
}

static struct recipe *
find(struct console_framevars *fv, uint64_t pc, const char *expr)
{
	for (size_t i = 0; i < fv->nrecipes; i++)
		if (fv->recipes[i].pc == pc &&
		    !strcmp(fv->recipes[i].expr, expr))
			return &fv->recipes[i];
	return NULL;
}

// Whether the fast path applies now: an entry stop of a live x86-64
// process, frame 0 selected, at a pc the kernel told.
static bool
at_entry_stop(struct irs_console *c)
{
	return c->stop.valid && c->t->pid > 0 && c->stop.pc &&
	       console_abi_machine(c) == EM_X86_64;
}

/* {====================================================================
** Reading by a recipe
** ===================================================================== */

static const char *const reg_names[] = {
	"$rax", "$rdx", "$rcx", "$rbx", "$rsi", "$rdi", "$rbp", "$rsp",
	"$r8", "$r9", "$r10", "$r11", "$r12", "$r13", "$r14", "$r15", "$rip",
};

// DWARF register @p reg at the stop: sp and pc from the kernel (c->stop);
// the others from the kernel too where this process traces the thread
// (GDB: 2 us for all of them, against 20 us a register through GDB's
// Python), else from the debugger's registers (no evaluator, no frame).
static bool
reg_value(struct irs_console *c, int reg, uint64_t *ret)
{
	struct console_stop *st = &c->stop;
	if (reg == DW_RSP || reg == DW_RIP) {
		*ret = reg == DW_RSP ? st->sp : st->pc;
		return true;
	}
	if (reg < 0 || reg > DW_RIP)
		return false;
	if (!st->regs && c->framevars && !c->framevars->not_tracer) {
		st->regs = irs_proc_thread_regs(st->tid, st->reg) ? 1 : -1;
		// the kernel's sp and pc are the ones /proc told: else this
		// is not the stop the debugger reports
		if (st->regs == 1 && (st->reg[DW_RSP] != st->sp ||
				      st->reg[DW_RIP] != st->pc))
			st->regs = -1;
		c->framevars->not_tracer = st->regs < 0;
	}
	if (st->regs == 1) {
		*ret = st->reg[reg];
		return true;
	}
	struct irs_error *err = console_eval(c, reg_names[reg], EVAL_READ,
					     ret);
	irs_error_destroy(err);
	return !err;
}

static uint64_t
extend(uint64_t v, uint32_t size, bool is_signed)
{
	if (size >= 8)
		return v;
	uint64_t mask = (UINT64_C(1) << (size * 8)) - 1;
	v &= mask;
	if (is_signed && (v >> (size * 8 - 1)) & 1)
		v |= ~mask;
	return v;
}

static bool
load(struct irs_memory *mem, uint64_t addr, uint32_t size, bool is_signed,
     uint64_t *ret)
{
	uint64_t v = 0;	// little-endian: the low bytes first
	struct irs_error *err = irs_memory_read(mem, addr, &v, size);
	irs_error_destroy(err);
	if (err)
		return false;
	*ret = extend(v, size, is_signed);
	return true;
}

static bool
run(struct irs_console *c, const struct recipe *r,
    struct irs_value_facts *ret)
{
	struct irs_memory *mem;
	uint64_t base, value, addr = 0;
	bool has_address = r->in_memory;
	bool has_bits = !r->in_memory || r->size != 0;

	if (!reg_value(c, r->reg, &base))
		return false;
	struct irs_error *err = console_memory(c, &mem);
	irs_error_destroy(err);
	if (err)
		return false;
	if (!r->in_memory)
		value = extend(base, r->size, r->is_signed);
	else if (r->size == 0)
		value = addr = base + (uint64_t)r->off;
	else if (!load(mem, addr = base + (uint64_t)r->off, r->size,
		       r->is_signed, &value))
		return false;
	for (uint32_t i = 0; i < r->nsteps; i++) {
		const struct step *s = &r->steps[i];
		addr = value + s->off;
		has_address = true;
		if (s->size == 0) {
			value = addr;
			has_bits = false;
		} else if (!load(mem, addr, s->size, s->is_signed, &value)) {
			return false;
		}
	}
	*ret = r->facts;
	ret->has_address = has_address;
	ret->address = has_address ? addr : 0;
	ret->has_bits = has_bits;
	ret->bits = ret->has_bits ? value : 0;
	return true;
}

bool
console_framevar_read(struct irs_console *c, const char *expr,
		      struct irs_value_facts *ret)
{
	if (!at_entry_stop(c) || !c->framevars ||
	    c->framevars->pid != c->t->pid)
		return false;
	struct recipe *r = find(c->framevars, c->stop.pc, expr);
	return r && r->fast && run(c, r, ret);
}

/* }====================================================================
** Learning a recipe from the DWARF
** ===================================================================== */

struct mapping_at {
	uint64_t pc;
	char *path;		/* the file's, strdup()ed */
	uint64_t foff;		/* where pc lies in it */
};

static bool
maps_pc(const struct irs_proc_mapping *m, void *arg)
{
	struct mapping_at *want = arg;
	if (m->path[0] != '/' || want->pc < m->start || want->pc >= m->end)
		return false;
	want->path = strdup(m->path);
	want->foff = m->offset + (want->pc - m->start);
	return true;
}

// The module file mapped at @p pc in process @p pid and where in it
// (link_address() makes that where the file links it).
static bool
mapped_at(int64_t pid, uint64_t pc, char **path_ret, uint64_t *foff_ret)
{
	struct mapping_at want = { pc, NULL, 0 };
	bool found;
	struct irs_error *err = irs_proc_mappings(pid, maps_pc, &want, &found);
	irs_error_destroy(err);
	*path_ret = want.path;
	*foff_ret = want.foff;
	return want.path != NULL;
}

static struct module *
module_open(struct console_framevars *fv, const char *path)
{
	for (size_t i = 0; i < fv->nmodules; i++)
		if (!strcmp(fv->modules[i].path, path))
			return &fv->modules[i];
	if (fv->nmodules == MAX_MODULES_OPEN)
		module_close(&fv->modules[--fv->nmodules]);
	struct module *m = &fv->modules[fv->nmodules];
	memset(m, 0, sizeof(*m));
	m->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE || !(m->path = strdup(path)))
		return NULL;
	fv->nmodules++;
	if ((m->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    !(m->elf = elf_begin(m->fd, ELF_C_READ_MMAP, NULL)))
		return m;	// known to have nothing: not opened again
	m->dw = dwarf_begin_elf(m->elf, DWARF_C_READ, NULL);
	m->eh = m->dw ? dwarf_getcfi_elf(m->elf) : NULL;
	return m;
}

// Where file offset @p foff links in @p elf: pc - that is the bias.
static bool
link_address(Elf *elf, uint64_t foff, uint64_t *ret)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    ph.p_offset <= foff && foff - ph.p_offset < ph.p_filesz &&
		    (ph.p_flags & PF_X)) {
			*ret = ph.p_vaddr + (foff - ph.p_offset);
			return true;
		}
	}
	return false;
}

// @p die's type with typedefs and qualifiers stripped.
static bool
type_of(Dwarf_Die *die, Dwarf_Die *ret)
{
	Dwarf_Attribute a;
	Dwarf_Die t = *die;
	for (int hops = 0; hops < 64; hops++) {
		if (!dwarf_attr_integrate(&t, DW_AT_type, &a) ||
		    !dwarf_formref_die(&a, ret))
			return false;
		switch (dwarf_tag(ret)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			t = *ret;
			continue;
		default:
			return true;
		}
	}
	return false;
}

// A value of type @p t: its size (0: an aggregate, read by address) and
// whether it sign-extends; false for what a recipe does not read.
static bool
value_shape(Dwarf_Die *t, uint32_t *size, bool *is_signed)
{
	Dwarf_Word enc = 0;
	Dwarf_Attribute a;
	int bytes = dwarf_bytesize(t);
	*is_signed = false;
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		*size = bytes > 0 ? (uint32_t)bytes : 8;
		return *size == 8;
	case DW_TAG_base_type:
		if (dwarf_attr(t, DW_AT_encoding, &a))
			dwarf_formudata(&a, &enc);
		if (enc == DW_ATE_float || enc == DW_ATE_complex_float)
			return false;
		*is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
		break;
	case DW_TAG_enumeration_type: {
		// signed or not as its underlying type; none said: unknown
		Dwarf_Die under;
		return type_of(t, &under) &&
		       dwarf_tag(&under) == DW_TAG_base_type &&
		       value_shape(&under, size, is_signed);
	}
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_array_type:
		*size = 0;
		return !dwarf_hasattr(t, DW_AT_declaration);
	default:
		return false;
	}
	*size = bytes > 0 ? (uint32_t)bytes : 0;
	return *size == 1 || *size == 2 || *size == 4 || *size == 8;
}

// "->member" of a value of type @p t: the member's offset and type.
static bool
member_step(Dwarf_Die *t, const char *name, struct step *s,
	    Dwarf_Die *type_ret)
{
	Dwarf_Die rec, m;
	Dwarf_Attribute a;
	Dwarf_Word off;

	if (dwarf_tag(t) != DW_TAG_pointer_type || !type_of(t, &rec))
		return false;
	int tag = dwarf_tag(&rec);
	if ((tag != DW_TAG_structure_type && tag != DW_TAG_class_type &&
	     tag != DW_TAG_union_type) ||
	    dwarf_hasattr(&rec, DW_AT_declaration) || dwarf_child(&rec, &m))
		return false;
	do {
		const char *n = dwarf_diename(&m);
		if (dwarf_tag(&m) != DW_TAG_member || !n || strcmp(n, name))
			continue;
		if (dwarf_hasattr(&m, DW_AT_bit_size) ||
		    dwarf_hasattr(&m, DW_AT_data_bit_offset))
			return false;
		if (!dwarf_attr(&m, DW_AT_data_member_location, &a))
			off = 0;	// a union's members
		else if (dwarf_formudata(&a, &off) != 0)
			return false;	// an expression (a virtual base)
		s->off = off;
		return type_of(&m, type_ret) &&
		       value_shape(type_ret, &s->size, &s->is_signed);
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

// The location of @p attr at @p addr when it is one operation.
static bool
one_op(Dwarf_Attribute *attr, Dwarf_Addr addr, Dwarf_Op *ret)
{
	Dwarf_Op *ops;
	size_t nops;
	if (dwarf_getlocation_addr(attr, addr, &ops, &nops, 1) != 1 ||
	    nops != 1)
		return false;
	*ret = ops[0];
	return true;
}

// Register + offset from operation @p op (DW_OP_bregN, DW_OP_bregx).
static bool
breg(const Dwarf_Op *op, int *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return true;
	}
	if (op->atom == DW_OP_bregx && op->number <= DW_RIP) {
		*reg = (int)op->number;
		*off = (int64_t)op->number2;
		return true;
	}
	return false;
}

// The frame base of @p fn at @p addr as register + offset.
static bool
frame_base(struct module *m, Dwarf_Die *fn, Dwarf_Addr addr, int *reg,
	   int64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Op op;
	if (!dwarf_attr_integrate(fn, DW_AT_frame_base, &a) ||
	    !one_op(&a, addr, &op))
		return false;
	if (op.atom >= DW_OP_reg0 && op.atom <= DW_OP_reg31) {
		*reg = op.atom - DW_OP_reg0;
		*off = 0;
		return true;
	}
	if (breg(&op, reg, off))
		return true;
	if (op.atom != DW_OP_call_frame_cfa)
		return false;
	// The CFA, from .debug_frame or .eh_frame: "register + offset" is
	// what a function's body has (a DWARF expression rule is not read)
	Dwarf_CFI *cfis[2] = { dwarf_getcfi(m->dw), m->eh };
	for (int i = 0; i < 2; i++) {
		Dwarf_Frame *frame;
		Dwarf_Op *ops;
		size_t nops;
		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], addr, &frame))
			continue;
		bool ok = dwarf_frame_cfa(frame, &ops, &nops) == 0 &&
			  nops == 1 && breg(&ops[0], reg, off);
		free(frame);
		if (ok)
			return true;
	}
	return false;
}

// The compilation unit with the code at @p addr. Through .debug_aranges
// when there is one; Clang writes none, so else CU by CU (once a recipe).
static bool
cu_at(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *ret)
{
	Dwarf_Off off = 0, next;
	size_t header;
	if (dwarf_addrdie(dw, addr, ret))
		return true;
	while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + header, ret) &&
		    dwarf_haspc(ret, addr) > 0)
			return true;
		off = next;
	}
	return false;
}

// The root variable @p name at @p addr of module @p m into @p r, and its
// type into @p type.
static bool
locate(struct module *m, Dwarf_Addr addr, const char *name, struct recipe *r,
       Dwarf_Die *type)
{
	Dwarf_Die cu, var, *scopes = NULL;
	Dwarf_Attribute a;
	Dwarf_Op op;
	bool ok = false;

	if (!m->dw || !cu_at(m->dw, addr, &cu))
		return false;
	int n = dwarf_getscopes(&cu, addr, &scopes);
	int at = n > 0 ? dwarf_getscopevar(scopes, n, name, 0, NULL, 0, 0,
					  &var) : -1;
	// A variable of the function the stop is in, not of a function
	// inlined there (the debugger's frame 0 would be that one's)
	for (int i = 0; at >= 0 && i <= at; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			at = -1;
	int fn = at;
	while (fn >= 0 && fn < n && dwarf_tag(&scopes[fn]) != DW_TAG_subprogram)
		fn++;
	if (at >= 0 && fn < n &&
	    dwarf_attr_integrate(&var, DW_AT_location, &a) &&
	    one_op(&a, addr, &op) && type_of(&var, type) &&
	    value_shape(type, &r->size, &r->is_signed)) {
		if (op.atom >= DW_OP_reg0 && op.atom <= DW_OP_reg31) {
			r->reg = op.atom - DW_OP_reg0;
			r->in_memory = false;
			ok = r->size != 0;
		} else if (op.atom == DW_OP_regx && op.number <= DW_RIP) {
			r->reg = (int)op.number;
			r->in_memory = false;
			ok = r->size != 0;
		} else if (breg(&op, &r->reg, &r->off)) {
			r->in_memory = ok = true;
		} else if (op.atom == DW_OP_fbreg &&
			   frame_base(m, &scopes[fn], addr, &r->reg, &r->off)) {
			r->off += (int64_t)op.number;
			r->in_memory = ok = true;
		}
	}
	free(scopes);
	return ok && r->reg >= 0 && r->reg <= DW_RIP;
}

// Whether the recipe reads what the debugger said, as the core takes it
// (a pointer's bits, a struct's address: LLDB gives a pointer in a
// register the address it points to, GDB none).
static bool
same(const struct irs_value_facts *got, const struct irs_value_facts *said)
{
	uint64_t a, b;
	struct irs_error *ea = irs_frontend_value(got, &a);
	struct irs_error *eb = irs_frontend_value(said, &b);
	bool ok = !ea && !eb && a == b;
	irs_error_destroy(ea);
	irs_error_destroy(eb);
	return ok;
}

static bool
learn(struct module *m, uint64_t addr, const char *expr, struct recipe *r)
{
	char name[256];
	const char *p = expr;
	size_t k = strcspn(p, "-.[");
	Dwarf_Die type;

	if (k >= sizeof(name))
		return false;
	memcpy(name, p, k);
	name[k] = 0;
	if (!locate(m, addr, name, r, &type))
		return false;
	for (p += k; *p;) {
		// "->member" only: "." and [] stay with the debugger
		if (strncmp(p, "->", 2) || r->nsteps == MAX_STEPS)
			return false;
		p += 2;
		k = strcspn(p, "-.[");
		if (!k || k >= sizeof(name))
			return false;
		memcpy(name, p, k);
		name[k] = 0;
		p += k;
		Dwarf_Die next;
		struct step *s = &r->steps[r->nsteps];
		// a step from an aggregate (size 0) has no pointer to follow
		uint32_t from = r->nsteps ? r->steps[r->nsteps - 1].size :
					    r->size;
		if (from != 8 || !member_step(&type, name, s, &next))
			return false;
		r->nsteps++;
		type = next;
	}
	return true;
}

// IRSNAP_FRAMEVARS=0: every boundary variable through the debugger, to
// compare (ir-status says which way they went).
static bool
turned_off(void)
{
	const char *env = getenv("IRSNAP_FRAMEVARS");
	return env && !strcmp(env, "0");
}

void
console_framevar_learn(struct irs_console *c, const char *expr,
		       const struct irs_value_facts *said)
{
	if (!at_entry_stop(c) || turned_off() ||
	    irs_frontend_expr_kind(expr) != IRS_EXPR_VARIABLE)
		return;
	struct console_framevars *fv = framevars(c);
	if (!fv || find(fv, c->stop.pc, expr) || fv->nrecipes == MAX_RECIPES)
		return;
	if (fv->nrecipes == fv->caprecipes) {
		size_t cap = fv->caprecipes ? 2 * fv->caprecipes : 16;
		struct recipe *nr = realloc(fv->recipes, cap * sizeof(*nr));
		if (!nr)
			return;
		fv->recipes = nr;
		fv->caprecipes = cap;
	}
	struct recipe r = { .pc = c->stop.pc, .facts = *said };
	if (!(r.expr = strdup(expr)))
		return;
	char *path = NULL;
	uint64_t foff, linked;
	struct module *m = mapped_at(c->t->pid, c->stop.pc, &path, &foff) ?
			   module_open(fv, path) : NULL;
	free(path);
	struct irs_value_facts got = { 0 };
	r.fast = m && m->elf && link_address(m->elf, foff, &linked) &&
		 learn(m, linked, expr, &r) && run(c, &r, &got) &&
		 same(&got, said);
	if (irs_debug('V')) {
		char where[64] = "the debugger's (no recipe)";
		const char *members = r.nsteps ? ", then its members" : "";
		if (r.fast && r.in_memory)
			snprintf(where, sizeof(where), "[%s%+" PRId64 "]%s",
				 reg_names[r.reg] + 1, r.off, members);
		else if (r.fast)
			snprintf(where, sizeof(where), "%s%s",
				 reg_names[r.reg] + 1, members);
		fprintf(stderr, "irsnap: boundary variable %s at pc 0x%" PRIx64
			": %s\n", expr, r.pc, where);
	}
	fv->recipes[fv->nrecipes++] = r;
}

void
console_framevar_status(struct irs_console *c, struct irs_buf *out)
{
	// the last process's, after it exited too
	const struct console_framevars *fv = c->framevars;
	size_t fast = 0;
	for (size_t i = 0; fv && i < fv->nrecipes; i++)
		fast += fv->recipes[i].fast;
	if (turned_off())
		irs_buf_puts(out, "boundary variables: read by the debugger "
			     "(IRSNAP_FRAMEVARS=0)\n");
	else if (fv && fv->nrecipes)
		irs_buf_printf(out, "boundary variables: %zu of %zu read from "
			       "the debug info, the rest by the debugger\n",
			       fast, fv->nrecipes);
}

/* }==================================================================== */
