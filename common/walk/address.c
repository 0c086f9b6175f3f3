// The addresses a layout names (address { symbol | load | lea = NAME }),
// found once per walk, as a global's is: the process may have run (and
// loaded its libraries elsewhere) since the last. A getter's address is
// decoded from its first instruction, lea disp32(%rip), %reg (after an
// endbr64), which is how MLIR's exported TypeIDExported::get<T>() returns
// the TypeID of a builtin type: read from memory in a live process, from
// the module's ELF file on a core (which holds no code) or when memory
// fails; never by calling it. An address that cannot be found is a walk
// error, once.
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

// The target of the `lea disp32(%rip), %reg` at the start of the code at
// @p fn (its first 16 bytes in @p code); false when it starts otherwise.
static bool
decode_lea(uint64_t fn, const unsigned char *code, uint64_t *ret)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	unsigned i = memcmp(code, endbr64, 4) ? 0 : 4;
	if ((code[i] & 0xfb) != 0x48 || code[i + 1] != 0x8d ||
	    (code[i + 2] & 0xc7) != 0x05)
		return false;
	int32_t disp;
	memcpy(&disp, code + i + 3, 4);
	*ret = fn + i + 7 + (uint64_t)(int64_t)disp;
	return true;
}

static struct irs_error *
resolve(struct walk *w, const struct laddr *a, uint64_t *ret)
{
	const struct irs_target *t = w->lo->target;
	uint64_t sym;
	if (!t || !t->elf_symbol)
		return irs_error_format(IRS_ERROR_TARGET, "the debugger gives "
					"no symbols here");
	struct irs_error *err = t->elf_symbol(t->arg, a->name, &sym);
	if (err || a->how == ADDR_SYMBOL) {
		*ret = sym;
		return err;
	}
	unsigned char code[16];
	// A getter's code from its module's file when the memory does not
	// hold it (a core file leaves code out; a process's may not read):
	// the lea is position-independent, so the file's bytes are the
	// loaded ones. A stored pointer is data, relocated: memory only.
	bool core = !strcmp(irs_memory_kind(w->mem), "core");
	if (a->how == ADDR_LEA && t->elf_bytes && core)
		err = t->elf_bytes(t->arg, a->name, code, 16);
	else if ((err = irs_walk_read(w, sym, code,
				      a->how == ADDR_LOAD ? 8 : 16)) &&
		 a->how == ADDR_LEA && t->elf_bytes &&
		 err->code == IRS_ERROR_FAULT) {
		irs_error_destroy(err);
		err = t->elf_bytes(t->arg, a->name, code, 16);
	}
	if (err)
		return err;
	if (a->how == ADDR_LOAD) {
		memcpy(ret, code, 8);
		return NULL;
	}
	if (!decode_lea(sym, code, ret))
		return irs_error_fault(sym, "its code at 0x%llx "
					"does not start with lea disp32(%%rip) "
					"(%02x %02x %02x %02x)",
					(unsigned long long)sym, code[0],
					code[1], code[2], code[3]);
	return NULL;
}

bool
irs_walk_address(struct walk *w, uint32_t i, uint64_t *ret)
{
	const struct irs_layout *lo = w->lo;
	if (!w->astate) {
		w->aval = calloc(lo->naddrs, sizeof(*w->aval));
		w->astate = calloc(lo->naddrs, 1);
		if (!w->aval || !w->astate) {
			free(w->aval);
			free(w->astate);
			w->aval = NULL;
			w->astate = NULL;
			w->fatal = &irs_enomem;
			w->stop = true;
			return false;
		}
	}
	if (!w->astate[i]) {
		const struct laddr *a = &lo->addrs[i];
		struct irs_error *err = resolve(w, a, &w->aval[i]);
		w->astate[i] = err ? 2 : 1;
		// (each walk finds it once: the error is the walk's, and
		// where it went wrong tells two of them apart)
		if (err && err->code != IRS_ERROR_LIMIT &&
		    err->code != IRS_ERROR_NOMEM)
			irs_walk_error(w, NULL, err->address, "address of "
				       "'%s' (%s:%u): %s", a->name, lo->file,
				       a->line, err->message);
		irs_error_destroy(err);
	}
	*ret = w->aval[i];
	return w->astate[i] == 1;
}

void
irs_walk_address_forget(struct walk *w)
{
	free(w->aval);
	free(w->astate);
	w->aval = NULL;
	w->astate = NULL;
}
