// The balanced pass: regions in (), [] and {}, whole, then emptied
// (C-Vise's balanced pass), one at a time, as they nest.
#include <string.h>

#include "reduce/reduce.h"

// The inside of a region (o, c) over several lines, as whole lines: from
// the line after the opening bracket's to the closing one's, which keep
// theirs ("{" and "}" stay on lines of their own). False when text shares
// a line with either bracket: emptying it would run two lines into one.
static bool
inner_lines(const char *s, uint32_t o, uint32_t c, uint32_t *a, uint32_t *e)
{
	uint32_t i = o + 1;
	while (i < c && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	if (i >= c || s[i] != '\n')
		return false;
	*a = i + 1;
	uint32_t k = c;
	while (k > *a && (s[k - 1] == ' ' || s[k - 1] == '\t'))
		k--;
	if (k > *a && s[k - 1] != '\n')
		return false;
	*e = k;
	return *a < *e;
}

// Balanced regions: every (...), [...], {...} with its brackets, or
// (inner) its contents only (whole lines when it spans lines).
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
			uint32_t a = o + 1, e = (uint32_t)i;
			bool lines = memchr(s + a, '\n', e - a) != NULL;
			if (inner && a < e &&
			    (!lines || inner_lines(s, o, e, &a, &e)))
				reduce_span_add(sp, a, e, NULL);
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
