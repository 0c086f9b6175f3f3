// The lines pass: chunks of whole lines, halving (C-Vise's lines pass),
// those the syntax says cannot go together left out.
#include <string.h>

#include "reduce/reduce.h"

// Lines, the newline included.
static void
spans_lines(const char *s, size_t len, struct reduce_spans *sp)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) + 1 : len;
		reduce_span_add(sp, (uint32_t)i, (uint32_t)e, NULL);
		i = e;
	}
}

static void
find(const struct reducer *r, const char *s, size_t len,
     struct reduce_spans *sp)
{
	(void)r;
	spans_lines(s, len, sp);
}

// Cutting spans [lo, hi) of sp (keep: all but those), lines that follow
// each other, by the syntax's range_cut_ok().
static bool
cut_ok(const struct reducer *r, const char *s, size_t len,
       const struct reduce_spans *sp, uint32_t lo, uint32_t hi, bool keep)
{
	bool (*ok)(const char *, size_t, uint32_t, uint32_t) =
		r->lang->range_cut_ok;
	if (!ok || !sp->n)
		return true;
	if (!keep)
		return ok(s, len, sp->v[lo].start, sp->v[hi - 1].end);
	return (!lo || ok(s, len, 0, sp->v[lo].start)) &&
	       (hi >= sp->n || ok(s, len, sp->v[hi].start, (uint32_t)len));
}

static const struct reduce_text_pass lines = {
	.key = 0, .find = find, .cut_ok = cut_ok,
};

struct irs_error *
reduce_pass_lines(struct reducer *r)
{
	return reduce_text_sweep(r, &lines, 0);
}
