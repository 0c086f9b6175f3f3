// The parameters pass: a function's parameter dropped together with the
// matching argument of every call, which no cut of one list can do.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"

// A parenthesized list after "@name(" on one line: its pieces (the
// top-level comma-separated items, blanks around them excluded).
struct arg_list {
	uint32_t open, close;	/* '(' and ')' */
	uint32_t n;
	uint32_t start[32], end[32];
};

static bool
arg_list_parse(const char *t, size_t len, uint32_t open, struct arg_list *a)
{
	a->open = open;
	a->n = 0;
	int depth = 0;
	uint32_t piece = open + 1;
	for (uint32_t i = open + 1; i < len && t[i] != '\n'; i++) {
		char c = t[i];
		if (strchr("([{<", c)) {
			depth++;
		} else if (strchr(")]}>", c) && depth) {
			depth--;
		} else if (c == ',' || c == ')') {
			if (depth)
				continue;
			uint32_t s = piece, e = i;
			while (s < e && t[s] == ' ')
				s++;
			while (e > s && t[e - 1] == ' ')
				e--;
			if (c == ')' && s == e && !a->n) {
				a->close = i;
				return true;	// "()"
			}
			if (s == e || a->n == ARRAY_SIZE(a->start))
				return false;
			a->start[a->n] = s;
			a->end[a->n++] = e;
			piece = i + 1;
			if (c == ')') {
				a->close = i;
				return true;
			}
		}
	}
	return false;
}

// Bytes [*s, *e) that cut piece i of a with its comma.
static void
arg_cut(const struct arg_list *a, uint32_t i, uint32_t *s, uint32_t *e)
{
	if (i + 1 < a->n) {
		*s = a->start[i];
		*e = a->start[i + 1];
	} else if (i > 0) {
		*s = a->end[i - 1];
		*e = a->end[i];
	} else {
		*s = a->start[i];
		*e = a->end[i];
	}
}

// Is the line holding byte i a definition or declaration (its first word
// define, declare, func, or a C-like return type before the name)?
static bool
defining_line(const char *t, uint32_t i)
{
	uint32_t s = i;
	while (s > 0 && t[s - 1] != '\n')
		s--;
	while (t[s] == ' ' || t[s] == '\t')
		s++;
	return !strncmp(t + s, "define ", 7) || !strncmp(t + s, "declare ", 8) ||
	       !strncmp(t + s, "func ", 5);
}

// A parameter's name: its last word when that is a %name, or none.
static bool
param_name(const char *t, uint32_t s, uint32_t e, uint32_t *ns)
{
	uint32_t i = e;
	while (i > s && reduce_word_char(t[i - 1]) && t[i - 1] != '%')
		i--;
	if (i == s || t[i - 1] != '%' || i == e)
		return false;
	*ns = i - 1;
	return true;
}

// The candidate without parameter p of the function defined at def, and
// without the matching argument of every call (calls[0..ncalls)); an
// unnamed LLVM parameter %N takes the later numbers of its function one
// down with it. False when the parameter is used in the function (the
// candidate could not parse) or on OOM.
static bool
drop_param(const char *t, size_t len, const struct arg_list *def,
	   const struct arg_list *calls, uint32_t ncalls, uint32_t p,
	   struct irs_buf *out)
{
	// The function's body: to the first line that starts with '}'.
	uint32_t body = def->close, body_end = (uint32_t)len;
	for (uint32_t i = body; i + 1 < len; i++)
		if (t[i] == '\n' && t[i + 1] == '}') {
			body_end = i + 1;
			break;
		}
	uint32_t ns = 0, num = UINT32_MAX;
	bool named = param_name(t, def->start[p], def->end[p], &ns);
	if (named) {
		uint32_t ne = def->end[p], nl = ne - ns;
		if (nl - 1 <= 9 && isdigit((unsigned char)t[ns + 1])) {
			num = 0;
			for (uint32_t i = ns + 1; i < ne; i++)
				num = isdigit((unsigned char)t[i])
				      ? num * 10 + (uint32_t)(t[i] - '0')
				      : UINT32_MAX;
		}
		for (const char *q = t + body; q && q < t + body_end;) {
			q = memmem(q, (size_t)(t + body_end - q), t + ns, nl);
			if (!q)
				break;
			if (q + nl >= t + len || !reduce_word_char(q[nl]))
				return false;	// used
			q += nl;
		}
	}
	// The cuts, in text order: calls before or after the definition.
	uint32_t cs[33], ce[33], nc = 0;
	for (uint32_t k = 0; k <= ncalls && nc < ARRAY_SIZE(cs); k++) {
		const struct arg_list *a = k < ncalls ? &calls[k] : def;
		arg_cut(a, p, &cs[nc], &ce[nc]);
		nc++;
	}
	for (uint32_t i = 1; i < nc; i++)	// insertion sort
		for (uint32_t j = i; j > 0 && cs[j] < cs[j - 1]; j--) {
			uint32_t x = cs[j]; cs[j] = cs[j - 1]; cs[j - 1] = x;
			x = ce[j]; ce[j] = ce[j - 1]; ce[j - 1] = x;
		}
	out->len = 0;
	uint32_t pos = 0;
	for (uint32_t i = 0; i < nc; i++) {
		irs_buf_append(out, t + pos, cs[i] - pos);
		pos = ce[i];
	}
	irs_buf_append(out, t + pos, len - pos);
	if (out->oom || num == UINT32_MAX)
		return !out->oom;
	// Renumber the function's %M > N, from its '(' to its '}' in the
	// new text: the old offsets less what was cut before them.
	struct irs_buf b;
	irs_buf_init(&b);
	uint32_t fs = def->open, fe = body_end;
	for (uint32_t i = 0; i < nc; i++) {
		if (ce[i] <= def->open)
			fs -= ce[i] - cs[i];
		if (ce[i] <= body_end)
			fe -= ce[i] - cs[i];
	}
	const char *o = out->data;
	size_t i = 0;
	for (; i < out->len; i++) {
		if (i < fs || i >= fe || o[i] != '%' ||
		    (i > 0 && reduce_word_char(o[i - 1])) ||
		    !isdigit((unsigned char)o[i + 1])) {
			irs_buf_append(&b, o + i, 1);
			continue;
		}
		size_t j = i + 1;
		uint64_t m = 0;
		while (j < out->len && isdigit((unsigned char)o[j]) && j - i < 10)
			m = m * 10 + (uint64_t)(o[j++] - '0');
		if (j < out->len && reduce_word_char(o[j])) {
			irs_buf_append(&b, o + i, j - i);
		} else {
			irs_buf_printf(&b, "%%%llu", (unsigned long long)
				       (m > num ? m - 1 : m));
		}
		i = j - 1;
	}
	// Block labels "M:" of the function follow the same sequence.
	struct irs_buf c;
	irs_buf_init(&c);
	o = b.data;
	size_t blen = b.len;
	fe = fe > blen ? (uint32_t)blen : fe;
	for (i = 0; i < blen; i++) {
		if (i >= fs && i < fe && (i == 0 || o[i - 1] == '\n') &&
		    isdigit((unsigned char)o[i])) {
			size_t j = i;
			uint64_t m = 0;
			while (j < blen && isdigit((unsigned char)o[j]) &&
			       j - i < 10)
				m = m * 10 + (uint64_t)(o[j++] - '0');
			if (j < blen && o[j] == ':') {
				irs_buf_printf(&c, "%llu", (unsigned long long)
					       (m > num ? m - 1 : m));
				i = j - 1;
				continue;
			}
		}
		irs_buf_append(&c, o + i, 1);
	}
	bool ok = !b.oom && !c.oom;
	irs_buf_deinit(&b);
	if (ok) {
		out->len = 0;
		irs_buf_append(out, c.data ? c.data : "", c.len);
	}
	irs_buf_deinit(&c);
	return ok && !out->oom;
}

// Parameters dropped with the matching argument of every call
// (llvm-reduce's arguments pass; C-Vise cuts one list at a time, and a
// call whose argument count no longer matches rarely parses): one
// candidate per parameter whose name the function does not use.
struct irs_error *
reduce_pass_drop_params(struct reducer *r)
{
	struct irs_error *err = NULL;
	uint32_t jobs = r->exec.jobs < 64 ? r->exec.jobs : 64;
	struct irs_buf bufs[64];
	struct arg_list *calls = malloc(32 * sizeof(*calls));
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_init(&bufs[k]);
	if (!calls)
		return &irs_enomem;
	// Functions in text order, parameters in order; after a win, from
	// the start of the new text (what was boring is in the cache).
	for (bool again = true; again && !err && !reduce_interrupted();) {
		again = false;
		const char *t = r->best_text.data;
		size_t len = r->best_text.len;
		for (uint32_t i = 0; i + 1 < len && !again && !err; i++) {
			if (t[i] != '@' || (i && reduce_word_char(t[i - 1])) ||
			    !defining_line(t, i))
				continue;
			uint32_t e = i + 1;
			while (e < len && reduce_word_char(t[e]) && t[e] != '@')
				e++;
			struct arg_list def;
			if (e >= len || t[e] != '(' ||
			    !arg_list_parse(t, len, e, &def) || !def.n)
				continue;
			// Every other "@name(" is a call with as many
			// arguments, or the function is left alone.
			uint32_t ncalls = 0, nl = e - i + 1;
			bool fits = true;
			for (const char *q = t; fits &&
			     (q = memmem(q, len - (size_t)(q - t), t + i, nl));
			     q += nl) {
				uint32_t at = (uint32_t)(q - t);
				if (at == i || (at && reduce_word_char(t[at - 1])))
					continue;
				fits = ncalls < 32 && !defining_line(t, at) &&
				       arg_list_parse(t, len, at + nl - 1,
						      &calls[ncalls]) &&
				       calls[ncalls].n == def.n;
				ncalls++;
			}
			if (!fits)
				continue;
			for (uint32_t p = 0; p < def.n && !again && !err;) {
				uint32_t nt = 0;
				for (; p < def.n && nt < jobs; p++)
					nt += drop_param(t, len, &def, calls,
							 ncalls, p, &bufs[nt]);
				if (!nt)
					break;
				err = reduce_try_texts(r, bufs, nt, &again);
			}
		}
	}
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_deinit(&bufs[k]);
	free(calls);
	return err;
}
