// The bodies pass: a function's body goes, its definition becoming a
// declaration the rest of the module still calls (llvm-reduce's
// function-bodies, its first pass); chunks of functions at a time. The
// syntax says what a body is and what its declaration reads (LLVM IR:
// "define ... {" ... "}" to "declare ..."); a syntax without one has no
// bodies to cut.
#include "reduce/reduce.h"

static void
find(const struct reducer *r, const char *s, size_t len,
     struct reduce_spans *sp)
{
	if (r->lang->bodies)
		r->lang->bodies(s, len, sp);
}

static const struct reduce_text_pass bodies = {
	.key = 7, .find = find,
};

struct irs_error *
reduce_pass_bodies(struct reducer *r)
{
	return r->lang->bodies ? reduce_text_sweep(r, &bodies, 0) : NULL;
}
