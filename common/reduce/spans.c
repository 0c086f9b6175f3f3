// Spans: the pieces of a text a text pass may cut (lines, tokens,
// regions, items), each deleted or replaced, and a text without some of
// them. The passes find them (pass_*.c); the engine cuts chunks of them.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"

void
reduce_spans_clear(struct reduce_spans *sp)
{
	for (uint32_t i = 0; i < sp->nown; i++)
		free(sp->own[i]);
	sp->nown = 0;
	sp->n = 0;
}

void
reduce_spans_deinit(struct reduce_spans *sp)
{
	reduce_spans_clear(sp);
	free(sp->own);
	free(sp->v);
}

const char *
reduce_spans_own(struct reduce_spans *sp, char *repl)
{
	if (repl && sp->nown == sp->capown) {
		uint32_t cap = sp->capown ? sp->capown * 2 : 16;
		void *p = realloc(sp->own, cap * sizeof(*sp->own));
		if (!p) {
			free(repl);
			repl = NULL;
		} else {
			sp->own = p;
			sp->capown = cap;
		}
	}
	if (!repl) {
		sp->oom = true;
		return NULL;
	}
	return sp->own[sp->nown++] = repl;
}

void
reduce_span_add(struct reduce_spans *sp, uint32_t start, uint32_t end,
		const char *repl)
{
	if (sp->n == sp->cap) {
		uint32_t cap = sp->cap ? sp->cap * 2 : 256;
		void *p = realloc(sp->v, cap * sizeof(*sp->v));
		if (!p) {
			sp->oom = true;
			return;
		}
		sp->v = p;
		sp->cap = cap;
	}
	sp->v[sp->n++] = (struct reduce_span){start, end, repl};
}

static int
span_cmp(const void *a, const void *b)
{
	const struct reduce_span *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

void
reduce_spans_sort(struct reduce_spans *sp)
{
	if (sp->n)
		qsort(sp->v, sp->n, sizeof(*sp->v), span_cmp);
}

// Does a cut of [a, b) (text before it already in @p out) run two lines
// into one: a line break inside it, and something other than blanks both
// before it on its line and after it on the line it ends in?
static bool
runs_together(const char *text, size_t len, const struct irs_buf *out,
	      size_t a, size_t b)
{
	if (!memchr(text + a, '\n', b - a))
		return false;
	bool left = false, right = false;
	for (size_t i = out->len; i > 0 && out->data[i - 1] != '\n'; i--)
		left |= !isspace((unsigned char)out->data[i - 1]);
	for (size_t i = b; i < len && text[i] != '\n'; i++)
		right |= !isspace((unsigned char)text[i]);
	return left && right;
}

bool
reduce_spans_cut(const char *text, size_t len, const struct reduce_spans *sp,
		 uint32_t lo, uint32_t hi, bool keep, struct irs_buf *out,
		 bool *joins)
{
	out->len = 0;
	size_t pos = 0;
	if (joins)
		*joins = false;
	for (uint32_t i = 0; i < sp->n; i++) {
		bool cut = (i >= lo && i < hi) != keep;
		const struct reduce_span *x = &sp->v[i];
		if (!cut || x->start < pos)
			continue;
		irs_buf_append(out, text + pos, x->start - pos);
		if (joins && !x->repl && out->data &&
		    runs_together(text, len, out, x->start, x->end))
			*joins = true;
		if (x->repl)
			irs_buf_puts(out, x->repl);
		pos = x->end;
	}
	irs_buf_append(out, text + pos, len - pos);
	if (!out->data)
		irs_buf_append(out, "", 0);
	return !out->oom;
}

// Does %name (at [a, e), its sigil included) occur as a word outside
// bytes [cs, ce) of s?
bool
reduce_used_outside(const char *s, size_t len, uint32_t a, uint32_t e,
		    uint32_t cs, uint32_t ce)
{
	size_t n = e - a;
	for (const char *q = s; (q = memmem(q, len - (size_t)(q - s), s + a,
					    n)); q++) {
		size_t at = (size_t)(q - s);
		if ((at >= cs && at < ce) || (at && reduce_word_char(s[at - 1])) ||
		    (at + n < len && reduce_word_char(s[at + n])))
			continue;
		return true;
	}
	return false;
}
