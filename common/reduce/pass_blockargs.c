// The block-arguments pass: a block's argument dropped together with the
// operand every branch to the block passes it (issue 29 item 4), which
// no cut of one list can do: a branch and its target must agree. The
// syntax finds them (struct reduce_lang's drop_block_arg; MLIR's blocks);
// its printer parses and verifies each candidate, so one it got wrong is
// only a boring test.
#include "reduce/reduce.h"

// Arguments in text order, jobs at a time; after a win, from the first
// again in the new text (what was boring is in the cache).
struct irs_error *
reduce_pass_block_args(struct reducer *r)
{
	if (!r->lang->drop_block_arg)
		return NULL;
	struct irs_error *err = NULL;
	uint32_t jobs = r->exec.jobs < 64 ? r->exec.jobs : 64;
	struct irs_buf bufs[64];
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_init(&bufs[k]);
	for (bool again = true; again && !err && !reduce_interrupted();) {
		again = false;
		const char *t = r->best_text.data;
		size_t len = r->best_text.len;
		bool more = true;
		for (uint32_t nth = 0; more && !again && !err;) {
			uint32_t nt = 0;
			while (nt < jobs) {
				enum reduce_arg_drop d = r->lang->drop_block_arg(
					t, len, nth++, &bufs[nt]);
				if (d == REDUCE_ARG_NONE) {
					more = false;
					break;
				}
				nt += d == REDUCE_ARG_DROPPED;
			}
			if (nt)
				err = reduce_try_texts(r, bufs, nt, &again);
		}
	}
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_deinit(&bufs[k]);
	return err;
}
