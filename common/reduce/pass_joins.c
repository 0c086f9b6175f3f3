// The join-lines pass: line breaks with the indentation after them go
// (C-Vise's whitespace pass), while the language does not mind.
#include <string.h>

#include "reduce/reduce.h"

// Line breaks with the indentation after them: to one blank, or to
// nothing when there is no indentation (lines run together, as C-Vise's
// whitespace pass does; where the language minds, the test says no).
// Not after a line with the @p comment marker (NULL: none known), which
// would comment out the next: those tries would all fail, and a dozen
// failures end the pass for good.
static void
spans_joins(const char *s, size_t len, const char *comment,
	    struct reduce_spans *sp)
{
	size_t line = 0, nc = comment ? strlen(comment) : 0;
	for (size_t i = 0; i + 1 < len; i++) {
		if (s[i] != '\n')
			continue;
		bool commented = nc && memmem(s + line, i - line, comment, nc);
		line = i + 1;
		if (commented)
			continue;
		size_t e = i + 1;
		while (e < len && (s[e] == ' ' || s[e] == '\t'))
			e++;
		// a blank where the lines would run two words into one
		// ("end" and "print": "endprint")
		bool glue = i > 0 && reduce_word_char(s[i - 1]) && e < len &&
			    reduce_word_char(s[e]);
		if (e < len && s[e] != '\n')
			reduce_span_add(sp, (uint32_t)i, (uint32_t)e,
				 e - i > 1 || glue ? " " : NULL);
		i = e - 1;
	}
}

static void
find(const struct reducer *r, const char *s, size_t len,
     struct reduce_spans *sp)
{
	spans_joins(s, len, r->tree->comment, sp);
}

// A language that minds line breaks says so at once: no more tries then.
static bool
give_up(struct reducer *r, uint32_t size, uint32_t nt, uint32_t boring,
	uint32_t wins)
{
	(void)size;
	(void)nt;
	if (wins || boring < 12)
		return false;
	r->no_joins = true;
	return true;
}

static const struct reduce_text_pass joins = {
	.key = 5, .find = find, .same_len = true, .give_up = give_up,
};

struct irs_error *
reduce_pass_join_lines(struct reducer *r)
{
	return r->no_joins ? NULL : reduce_text_sweep(r, &joins, 0);
}
