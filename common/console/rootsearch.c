// The IR root of a boundary frame in a core taken deep inside a pass. A
// release build passes the root in a register that the pass's callees
// reuse (llvm::SROAPass::run's Function in %rdx): by the crash it is gone
// from every frame but, usually, a callee-saved register the boundary
// function copied it into, or its stack. So the candidates are the
// boundary frame's callee-saved registers as the unwinder restores them,
// then the words of its stack, each kept only if it holds what the
// layout's check = { PATH = VALUE } says a root holds (a stale pointer to
// another function lies in deeper frames: the check and the order decide).
#include <string.h>

#include "console/console.h"

static const char *const saved_x86_64[] = {
	"$rbx", "$rbp", "$r12", "$r13", "$r14", "$r15",
};

enum { STACK_WORDS = 64 };	// the boundary frame's first 512 bytes

bool
console_root_plausible(struct irs_console *c, uint32_t boundary,
		       uint64_t root)
{
	const struct lbcheck *ck = irs_layout_boundary_check(c->layout,
							     boundary);
	struct irs_memory *mem;
	if (!ck || !ck->n || !root || console_memory(c, &mem))
		return root != 0;
	if (root & 7)
		return false;	// a C++ object from the heap is aligned
	for (uint32_t i = 0; i < ck->n; i++) {
		const struct irs_field_info *fi = &ck->items[i].fi;
		uint64_t v = 0;
		if (fi->size > sizeof(v) ||
		    irs_memory_read(mem, root + fi->offset, &v, fi->size))
			return false;
		if (fi->bit_size)
			v = (v >> fi->bit_offset) &
			    (fi->bit_size >= 64 ? ~0ull :
			     (1ull << fi->bit_size) - 1);
		if ((int64_t)v != ck->items[i].value)
			return false;
	}
	return true;
}

struct irs_error *
console_root_search(struct irs_console *c, uint32_t boundary,
		    uint64_t *ret, char *where, size_t len)
{
	uint64_t v, sp;
	struct irs_memory *mem;
	struct irs_error *err;

	for (size_t i = 0; i < ARRAY_SIZE(saved_x86_64); i++) {
		err = console_eval(c, saved_x86_64[i], EVAL_READ, &v);
		if (err) {
			irs_error_destroy(err);
			continue;
		}
		if (console_root_plausible(c, boundary, v)) {
			snprintf(where, len, "%s", saved_x86_64[i] + 1);
			*ret = v;
			return NULL;
		}
	}
	if ((err = console_eval(c, "$sp", EVAL_READ, &sp)) ||
	    (err = console_memory(c, &mem)))
		return err;
	for (uint32_t k = 0; k < STACK_WORDS; k++) {
		if (irs_memory_read(mem, sp + 8 * k, &v, sizeof(v)))
			break;
		if (v && console_root_plausible(c, boundary, v)) {
			snprintf(where, len, "sp+%u", 8 * k);
			*ret = v;
			return NULL;
		}
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "no plausible IR root in "
				"the boundary frame's callee-saved registers "
				"or its first %u stack words", STACK_WORDS);
}
