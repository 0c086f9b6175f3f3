// The balanced pass: regions in (), [] and {}, whole, then emptied
// (C-Vise's balanced pass), one at a time, as they nest.
#include "reduce/reduce.h"

// Balanced regions: every (...), [...], {...} with its brackets, or
// (inner) its contents only.
static void
spans_balanced(const char *s, size_t len, struct reduce_spans *sp, bool inner)
{
	uint32_t stack[256];
	uint32_t depth = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '(' || c == '[' || c == '{') {
			if (depth < ARRAY_SIZE(stack))
				stack[depth] = (uint32_t)i;
			depth++;
		} else if ((c == ')' || c == ']' || c == '}') && depth) {
			depth--;
			if (depth >= ARRAY_SIZE(stack))
				continue;
			uint32_t o = stack[depth];
			char want = c == ')' ? '(' : c == ']' ? '[' : '{';
			if (s[o] != want)
				continue;
			if (inner && i > o + 1)
				reduce_span_add(sp, o + 1, (uint32_t)i, NULL);
			else if (!inner)
				reduce_span_add(sp, o, (uint32_t)i + 1, NULL);
		}
	}
}

static void
find_whole(const struct reducer *r, const char *s, size_t len,
	   struct reduce_spans *sp)
{
	(void)r;
	spans_balanced(s, len, sp, false);
}

static void
find_inner(const struct reducer *r, const char *s, size_t len,
	   struct reduce_spans *sp)
{
	(void)r;
	spans_balanced(s, len, sp, true);
}

static const struct reduce_text_pass whole = {
	.key = 2, .find = find_whole,
};

static const struct reduce_text_pass inner = {
	.key = 3, .find = find_inner,
};

struct irs_error *
reduce_pass_balanced(struct reducer *r)
{
	struct irs_error *err = reduce_text_sweep(r, &whole, 1);
	return err ? err : reduce_text_sweep(r, &inner, 1);
}
