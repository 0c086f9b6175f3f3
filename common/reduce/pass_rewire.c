// The rewire pass: an operand names another value of its type that
// dominates it (llvm-reduce's operands-to-args, MLIR's typed operands),
// chunks of operands at a time, so that the operations computing the
// values no longer used go in the next round's delete-units. The syntax
// says which value (struct reduce_lang's rewires); a syntax without
// typed operands has none.
#include "reduce/reduce.h"

static void
find(const struct reducer *r, const char *s, size_t len,
     struct reduce_spans *sp)
{
	if (r->lang->rewires)
		r->lang->rewires(s, len, sp);
}

static const struct reduce_text_pass rewire = {
	.key = 11, .find = find,
};

struct irs_error *
reduce_pass_rewire(struct reducer *r)
{
	return r->lang->rewires ? reduce_text_sweep(r, &rewire, 0) : NULL;
}
