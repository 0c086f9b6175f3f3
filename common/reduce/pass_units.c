// The unit passes (hierarchical delta debugging): blocks merged into the
// block before them, units deleted level by level, outermost first (a
// function goes in one test, not in a hundred), then blank lines. Every
// deletion is repaired through the def-use graph first (defuse.c).
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"

// Blocks merged into the block before them, which turns a CFG into
// straight-line code wherever the failure allows it; deleting whole
// blocks could not (a branch needs a target, a block its terminator).
static struct irs_error *
merge_units(struct reducer *r, uint32_t level, uint32_t *items)
{
	const struct reduce_tree *t = r->tree;
	uint32_t n = 0;
	for (uint32_t u = 0; u < t->nunits; u++)
		if (t->units[u].level == level && reduce_tree_mergeable(t, u) &&
		    reduce_item_live(r, ITEM_MERGE, u))
			items[n++] = u;
	return reduce_sweep(r, ITEM_MERGE, items, n);
}

// Units nothing outside them uses first (a declaration, a type, a value
// no live use names), the others after, each in text order: the first
// chunks are then those most likely to go, and they go whole (after the
// bodies pass most declarations are such, and one test takes them all).
static bool
dead_first(const struct reducer *r, uint32_t *items, uint32_t n)
{
	const struct reduce_tree *t = r->tree;
	uint8_t *used = calloc((size_t)t->nunits + 1, 1);
	uint32_t *rest = malloc(((size_t)n + 1) * sizeof(*rest));
	if (!used || !rest) {
		free(used);
		free(rest);
		return false;
	}
	for (uint32_t k = 0; k < t->nuses; k++) {
		const struct reduce_use *x = &t->uses[k];
		if (r->best.rep[k] || (x->unit != RU_NONE && r->best.gone[x->unit]))
			continue;
		for (uint32_t a = t->defs[x->def].unit; a != RU_NONE;
		     a = t->units[a].parent) {
			if (x->start >= t->units[a].start &&
			    x->end <= t->units[a].end)
				break;	// inside it, and inside its parents
			used[a] = 1;
		}
	}
	uint32_t nd = 0, nr = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (used[items[i]])
			rest[nr++] = items[i];
		else
			items[nd++] = items[i];
	}
	memcpy(items + nd, rest, nr * sizeof(*rest));
	free(used);
	free(rest);
	return true;
}

// Hierarchical delta debugging: all live units of level 0, then level 1...
// Each level's blocks are merged first, then deleted.
struct irs_error *
reduce_pass_delete_units(struct reducer *r)
{
	struct irs_error *err = NULL;
	const struct reduce_tree *t = r->tree;
	uint32_t *items = malloc(((size_t)t->nunits + 1) * sizeof(*items));
	if (!items)
		return &irs_enomem;
	for (uint32_t level = 0; level < t->nlevels && !err; level++) {
		r->step = "merge-units";
		if ((err = merge_units(r, level, items)))
			break;
		r->step = "delete-units";
		uint32_t n = 0;
		for (uint32_t u = 0; u < t->nunits; u++)
			if (t->units[u].level == level &&
			    t->units[u].kind == UNIT_NORMAL && !r->best.gone[u])
				items[n++] = u;
		if (!dead_first(r, items, n)) {
			err = &irs_enomem;
			break;
		}
		err = reduce_sweep(r, ITEM_UNIT, items, n);
	}
	free(items);
	return err;
}

// Blank lines, all at once if the test allows.
struct irs_error *
reduce_pass_blank_lines(struct reducer *r)
{
	const struct reduce_tree *t = r->tree;
	uint32_t *items = malloc(((size_t)t->nunits + 1) * sizeof(*items));
	if (!items)
		return &irs_enomem;
	uint32_t n = 0;
	for (uint32_t u = 0; u < t->nunits; u++)
		if (t->units[u].kind == UNIT_BLANK && !r->best.gone[u])
			items[n++] = u;
	struct irs_error *err = reduce_sweep(r, ITEM_UNIT, items, n);
	free(items);
	return err;
}
