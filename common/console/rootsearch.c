// The IR root of a boundary frame in a core taken deep inside a pass. A
// release build passes the root in a register that the pass's callees
// reuse (llvm::SROAPass::run's Function in %rdx): by the crash it is gone
// from every frame but, usually, a callee-saved register the boundary
// function copied it into, or its stack. So the candidates are the
// boundary frame's callee-saved registers as the unwinder restores them,
// then the words of its stack, each kept only if it holds what the
// layout's check = { PATH = VALUE } says a root holds (a stale pointer to
// another function lies in deeper frames: the check and the order decide).
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
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

// The first value of the boundary frame's callee-saved registers, then
// of its first STACK_WORDS stack words, that @p keep keeps: into *ret,
// and where it was into @p where. IRS_ERROR_NOT_FOUND when none is.
static struct irs_error *
search_frame(struct irs_console *c,
	     bool (*keep)(struct irs_console *c, const void *ctx, uint64_t v),
	     const void *ctx, uint64_t *ret, char *where, size_t len)
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
		if (v && keep(c, ctx, v)) {
			snprintf(where, len, "%s", saved_x86_64[i] + 1);
			*ret = v;
			return NULL;
		}
	}
	if ((err = console_eval(c, "$sp", EVAL_READ, &sp)) ||
	    (err = console_memory(c, &mem)))
		return err;
	for (uint32_t k = 0; k < STACK_WORDS; k++) {
		if ((err = irs_memory_read(mem, sp + 8 * k, &v, sizeof(v)))) {
			irs_error_destroy(err);	// the stack's end
			break;
		}
		if (v && keep(c, ctx, v)) {
			snprintf(where, len, "sp+%u", 8 * k);
			*ret = v;
			return NULL;
		}
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "nothing in the boundary "
				"frame's callee-saved registers or its first "
				"%u stack words", STACK_WORDS);
}

static bool
keep_root(struct irs_console *c, const void *ctx, uint64_t v)
{
	return console_root_plausible(c, *(const uint32_t *)ctx, v);
}

struct irs_error *
console_root_search(struct irs_console *c, uint32_t boundary,
		    uint64_t *ret, char *where, size_t len)
{
	struct irs_error *err = search_frame(c, keep_root, &boundary, ret,
					     where, len);
	if (err && irs_error_get_code(err) == IRS_ERROR_NOT_FOUND) {
		irs_error_destroy(err);
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no plausible IR "
					"root in the boundary frame's "
					"callee-saved registers or its first "
					"%u stack words", STACK_WORDS);
	}
	return err;
}

// The one $argN the expressions @p a and @p b read; -1 when none or more
// than one.
static int
one_arg(const char *a, const char *b)
{
	int found = -1;
	const char *exprs[] = { a, b };
	for (size_t i = 0; i < ARRAY_SIZE(exprs); i++)
		for (const char *p = exprs[i]; p && (p = strstr(p, "$arg"));
		     p += 4) {
			if (!isdigit((unsigned char)p[4]))
				continue;
			int k = p[4] - '0';
			if (isdigit((unsigned char)p[5]) || (found >= 0 &&
							    found != k))
				return -1;
			found = k;
		}
	return found;
}

// Whether the pass name of boundary @p ctx reads non-empty and printable
// with $argN = @p v.
static bool
names_pass(struct irs_console *c, const void *ctx, uint64_t v)
{
	char *pass = NULL;
	c->saved[c->saved_n] = v;
	struct irs_error *err = console_eval_pass(c, ctx, &pass, NULL);
	bool ok = !err && pass && *pass;
	for (const char *p = pass; ok && *p; p++)
		ok = isprint((unsigned char)*p);
	irs_error_destroy(err);
	free(pass);
	return ok;
}

void
console_saved_args_begin(struct irs_console *c,
			 const struct irs_boundary_info *bi, uint32_t frame)
{
	uint64_t v;
	char where[32];
	int k = bi->pass_name || !bi->pass_expr ? -1
		: one_arg(bi->pass_expr, bi->pass_len_expr);
	if (!frame || k < 0 || k >= 8)
		return;
	c->saved_args = true;
	c->saved_mask = 1u << k;
	c->saved_n = (uint32_t)k;
	struct irs_error *err = search_frame(c, names_pass, bi, &v, where,
					     sizeof(where));
	if (!err) {
		c->saved[k] = v;
		if (irs_debug('S'))
			fprintf(stderr, "irsnap: $arg%d 0x%llx from %s of "
				"frame %u\n", k, (unsigned long long)v, where,
				frame);
		return;
	}
	irs_error_destroy(err);
	console_saved_args_end(c);	// not found: as before
}

void
console_saved_args_end(struct irs_console *c)
{
	c->saved_args = false;
	c->saved_mask = 0;
}
