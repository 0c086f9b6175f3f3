// The path grammar a layout writes in two places: a field's location in
// debug info ("u.def", "arg[0]", "ops[2].kind") and a template's field
// path ("{ops[0]}", "{ops[-1].u}", "{params[1:]*, }", "{^Fn.retty}",
// "{?line != ^prev.line}"). One grammar, parsed here into components;
// what a component means is decided where it is resolved: resolve.c
// against debug info (names and subscripts only), template.c against the
// layout's fields (all of them). A new component (a base class by name, a
// key lookup) is a new enum value here and a case where it is resolved.
//
//   path  := base? name ( '.' name | '[' sub ']' )*   |   '^prev'
//   base  := '^' TypeName '.'   (the nearest enclosing TypeName)
//          | '^prev' '.'        (the previous element of the sequence)
//   sub   := int | int? ':' int?      (int: -?[0-9]+ or 0x..., negative
//                                      ones count from the end)
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout/layout.h"

static bool
ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

static bool
fail(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool
fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return false;
}

// An identifier at @p s (at most @p n bytes): its length, 0 if none.
static size_t
ident(const char *s, size_t n)
{
	size_t i = 0;
	if (!n || !ident_start(s[0]))
		return 0;
	while (i < n && ident_char(s[i]))
		i++;
	return i;
}

// An integer of a subscript at s[*i] (blanks around it allowed); false when
// there is none or it does not fit in 64 bits.
static bool
subscript_int(const char *s, size_t n, size_t *i, int64_t *ret)
{
	char buf[32];
	size_t j = *i, k = 0;
	while (j < n && s[j] == ' ')
		j++;
	if (j < n && s[j] == '-')
		buf[k++] = s[j++];
	if (j >= n || s[j] < '0' || s[j] > '9')
		return false;
	while (j < n && ident_char(s[j])) {
		if (k + 1 >= sizeof(buf))
			return false;
		buf[k++] = s[j++];
	}
	buf[k] = '\0';
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 0);
	if (*end || errno)
		return false;
	while (j < n && s[j] == ' ')
		j++;
	*ret = v;
	*i = j;
	return true;
}

// A slice's bound given as a field path at s[*i] (up to ':' or ']' outside
// brackets: "bundles[0].begin"); false when there is none.
static bool
subscript_path(const char *s, size_t n, size_t *i, const char **ret,
	       uint32_t *retn)
{
	size_t j = *i, depth = 0;
	while (j < n && s[j] == ' ')
		j++;
	if (j >= n || !(isalpha((unsigned char)s[j]) || s[j] == '_' ||
			s[j] == '^'))
		return false;
	size_t start = j;
	for (; j < n; j++) {
		if (s[j] == '[')
			depth++;
		else if (s[j] == ']' && depth)
			depth--;
		else if (!depth && (s[j] == ':' || s[j] == ']' ||
				    s[j] == ' '))
			break;
	}
	*ret = s + start;
	*retn = (uint32_t)(j - start);
	while (j < n && s[j] == ' ')
		j++;
	*i = j;
	return true;
}

// [sub] at s[*i] (at its '['), appended to @p p.
static bool
subscript(const char *s, size_t n, size_t *i, struct lpath *p, char *why,
	  size_t len)
{
	struct lpc *c = &p->c[p->n];
	size_t j = *i + 1;
	memset(c, 0, sizeof(*c));
	c->has_lo = subscript_int(s, n, &j, &c->lo) ||
		    subscript_path(s, n, &j, &c->bound_s[0], &c->bound_n[0]);
	if (j < n && s[j] == ':') {
		j++;
		c->kind = LPC_SLICE;
		c->has_hi = subscript_int(s, n, &j, &c->hi) ||
			    subscript_path(s, n, &j, &c->bound_s[1],
					   &c->bound_n[1]);
	} else if (c->bound_s[0]) {
		return fail(why, len, "'%.*s': a subscript is [N], [-N] or a "
			    "slice [N:M] (a field gives a slice's bounds "
			    "only: [f:g])", (int)n, s);
	} else if (!c->has_lo) {
		return fail(why, len, "'%.*s': a subscript is [N], [-N] or a "
			    "slice [N:M] of integers or field paths", (int)n,
			    s);
	} else {
		c->kind = LPC_INDEX;
	}
	while (j < n && s[j] == ' ')
		j++;
	if (j >= n || s[j] != ']')
		return fail(why, len, "'%.*s': a subscript is [N], [-N] or a "
			    "slice [N:M] of integers or field paths", (int)n,
			    s);
	*i = j + 1;
	p->n++;
	return true;
}

bool
irs_path_parse(const char *s, size_t n, struct lpath *p, char *why,
	       size_t len)
{
	size_t i = 0;
	p->n = 0;
	if (n && s[0] == '^') {
		size_t l = ident(s + 1, n - 1);
		if (!l)
			return fail(why, len, "'%.*s': '^' names an enclosing "
				    "struct (^Fn.field) or the previous element "
				    "(^prev.field)", (int)n, s);
		struct lpc *c = &p->c[p->n++];
		memset(c, 0, sizeof(*c));
		c->kind = l == 4 && !memcmp(s + 1, "prev", 4) ? LPC_PREV
			: LPC_UP;
		c->s = s + 1;
		c->n = (uint32_t)l;
		i = 1 + l;
		if (i == n)
			return true;	// {?^prev}, {?^Fn}: is there one
		if (s[i] != '.')
			return fail(why, len, "'%.*s': expected '.' after "
				    "'^%.*s'", (int)n, s, (int)l, s + 1);
		i++;
	}
	for (;;) {
		if (p->n == IRS_PATH_MAX)
			return fail(why, len, "'%.*s': more than %d parts",
				    (int)n, s, IRS_PATH_MAX);
		size_t l = ident(s + i, n - i);
		if (!l)
			return fail(why, len, "bad field name '%.*s'", (int)n,
				    s);
		struct lpc *c = &p->c[p->n++];
		memset(c, 0, sizeof(*c));
		c->kind = LPC_NAME;
		c->s = s + i;
		c->n = (uint32_t)l;
		i += l;
		while (i < n && s[i] == '[') {
			if (p->n == IRS_PATH_MAX)
				return fail(why, len, "'%.*s': more than %d "
					    "parts", (int)n, s, IRS_PATH_MAX);
			if (!subscript(s, n, &i, p, why, len))
				return false;
		}
		if (i == n)
			return true;
		if (s[i] != '.')
			return fail(why, len, "bad field name '%.*s'", (int)n,
				    s);
		i++;
	}
}

size_t
irs_path_span(const char *s, size_t n)
{
	size_t i = 0;
	if (n && s[0] == '^')
		i++;
	while (i < n) {
		if (ident_char(s[i]) || s[i] == '.') {
			i++;
		} else if (s[i] == '[') {
			// to the matching ']' (a slice's bound may subscript)
			size_t depth = 0, j = i;
			for (; j < n; j++)
				if (s[j] == '[')
					depth++;
				else if (s[j] == ']' && !--depth)
					break;
			if (j == n)
				return n;	// the parse says what is wrong
			i = j + 1;
		} else {
			break;
		}
	}
	return i;
}

bool
irs_path_plain(const struct lpath *p)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (p->c[i].kind != LPC_NAME)
			return false;
	return true;
}
