// The operand passes: a use becomes the constant, or names another
// value instead (llvm-reduce's operands-zero and operands-skip); either
// leaves a definition dead for the unit passes of the next round.
#include <stdlib.h>

#include "reduce/reduce.h"

// Operands to a constant: each live value use becomes "0", which frees its
// definition for deletion in the next round.
struct irs_error *
reduce_pass_const_operands(struct reducer *r)
{
	const struct reduce_tree *t = r->tree;
	uint32_t *items = malloc(((size_t)t->nuses + 1) * sizeof(*items));
	if (!items)
		return &irs_enomem;
	uint32_t n = 0;
	for (uint32_t k = 0; k < t->nuses; k++)
		if (t->defs[t->uses[k].def].repair == REPAIR_CONST &&
		    reduce_item_live(r, ITEM_USE, k))
			items[n++] = k;
	struct irs_error *err = reduce_sweep(r, ITEM_USE, items, n);
	free(items);
	return err;
}

// Operands to another operand (llvm-reduce's operands-skip, C-Vise has
// none): a use names an earlier value of the same opcode instead, and its
// own definition goes when that was its last use (two loads of one
// address, the second of them gone).
struct irs_error *
reduce_pass_other_operands(struct reducer *r)
{
	const struct reduce_tree *t = r->tree;
	free(r->other);
	r->other = malloc(((size_t)t->nuses + 1) * sizeof(*r->other));
	uint32_t *items = malloc(((size_t)t->nuses + 1) * sizeof(*items));
	if (!r->other || !items) {
		free(items);
		return &irs_enomem;
	}
	uint32_t n = 0;
	for (uint32_t k = 0; k < t->nuses; k++) {
		r->other[k] = reduce_state_other_operand(&r->best, t, k);
		if (r->other[k] != RU_NONE)
			items[n++] = k;
	}
	// Chunks of at most 64 uses: what build() redirects at once.
	struct irs_error *err = NULL;
	for (uint32_t i = 0; i < n && !err; i += 64)
		err = reduce_sweep(r, ITEM_OTHER, items + i,
				   n - i < 64 ? n - i : 64);
	free(items);
	return err;
}
