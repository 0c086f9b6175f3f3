// Text templates ("  {?has_result}{@ref} = {/}{op} {ops*, }\n") compiled
// once, when the layout loads, into a flat list of instructions the walker
// runs without parsing: literals, fields (with the path through ptr/ref
// fields resolved to struct lfield pointers), sequences with a separator,
// and conditionals as jumps. See docs/layout.md, "Text templates".
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"

struct tparse {
	struct irs_layout *lo;
	const struct ltype *t;
	bool is_ref;
	struct top *ops;
	uint32_t nops;
	char *lits;
	uint32_t nlits;
	uint32_t conds[64];	// open {?}: index of the IF op
	int32_t elses[64];	// ... and of its JUMP op, or -1
	uint32_t nconds;
	bool target;		// the next op is a jump target
	char msg[300];		// the error, when there is one
};

static bool
fail(struct tparse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool
fail(struct tparse *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return false;
}

static void
lit_char(struct tparse *p, char c)
{
	struct top *last = p->nops ? &p->ops[p->nops - 1] : NULL;
	if (!last || last->code != TOP_LIT || p->target ||
	    last->lit + last->len != p->nlits) {
		p->target = false;
		last = &p->ops[p->nops++];
		last->code = TOP_LIT;
		last->lit = p->nlits;
		last->len = 0;
	}
	p->lits[p->nlits++] = c;
	last->len++;
}

static bool
is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static const char *
kind_word(const struct lfield *f)
{
	static const char *const words[] = {
		[LK_INT] = "an integer", [LK_UINT] = "an integer",
		[LK_BOOL] = "a bool", [LK_FLOAT] = "a float",
		[LK_ENUM] = "an enum", [LK_CSTR] = "a string",
		[LK_CHARS] = "a string", [LK_STRN] = "a string",
		[LK_PTR] = "a ptr", [LK_REF] = "a ref",
		[LK_EMBED] = "an embedded struct", [LK_INDEX] = "an index",
		[LK_UNION] = "a union", [LK_SEQ] = "a sequence",
		[LK_COMPUTED] = "a computed field", [LK_GLOBAL] = "a global",
		[LK_DELTA] = "an integer", [LK_SHAPE] = "a shape",
	};
	return words[f->kind];
}

// Resolves "a.b.c" (length @p n) into op->path.
static bool
parse_path(struct tparse *p, const char *s, size_t n, struct top *op)
{
	const struct lfield *buf[32];
	const struct ltype *cur = p->t;
	size_t i = 0;
	uint32_t np = 0;
	if (n == 0)
		return fail(p, "empty field name");
	while (i < n) {
		size_t j = i;
		while (j < n && is_ident(s[j]))
			j++;
		if (j == i || (j < n && s[j] != '.'))
			return fail(p, "bad field name '%.*s'", (int)n, s);
		if (np == ARRAY_SIZE(buf))
			return fail(p, "path too long");
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int)(j - i), s + i);
		if (np > 0) {
			const struct lfield *prev = buf[np - 1];
			if (prev->kind != LK_PTR && prev->kind != LK_REF &&
			    prev->kind != LK_EMBED)
				return fail(p, "'%s' is %s, which has no field "
					    "'%s' (only ptr, ref and embed "
					    "fields can be followed)",
					    prev->name, kind_word(prev), name);
			cur = &p->lo->types[prev->type];
		}
		const struct lfield *f = irs_ltype_field(cur, name);
		if (!f)
			return fail(p, "unknown field '%s' in %s", name,
				    cur->name);
		buf[np++] = f;
		i = j + 1;
		if (j + 1 == n)
			return fail(p, "bad field name '%.*s'", (int)n, s);
	}
	op->path = irs_layout_alloc(p->lo, np * sizeof(*op->path));
	if (!op->path)
		return fail(p, "out of memory");
	memcpy(op->path, buf, np * sizeof(*op->path));
	op->npath = (uint8_t)np;
	return true;
}

static const struct lfield *
last(const struct top *op)
{
	return op->path[op->npath - 1];
}

// {PATH*SEP} or {@PATH*SEP}: the separator goes into lits.
static bool
set_sep(struct tparse *p, struct top *op, const char *sep, size_t n)
{
	op->lit = p->nlits;
	op->len = (uint32_t)n;
	memcpy(p->lits + p->nlits, sep, n);
	p->nlits += (uint32_t)n;
	if (last(op)->kind != LK_SEQ)
		return fail(p, "'%s' is %s, not a sequence (the '*' joins "
			    "elements)", last(op)->name, kind_word(last(op)));
	return true;
}

static bool
directive_ref(struct tparse *p, const char *d, size_t n, struct top *op)
{
	if (n == 3 && !memcmp(d, "ref", 3)) {
		op->code = TOP_SELFREF;
		if (p->is_ref)
			return fail(p, "{@ref} inside %s's own ref template",
				    p->t->name);
		if (p->t->ref.kind == TX_NONE)
			return fail(p, "{@ref}: %s has no ref template",
				    p->t->name);
		return true;
	}
	op->code = TOP_REFOF;
	const char *star = memchr(d, '*', n);
	size_t pn = star ? (size_t)(star - d) : n;
	if (!parse_path(p, d, pn, op))
		return false;
	const struct lfield *f = last(op);
	if (star) {
		op->is_seq = true;
		if (!set_sep(p, op, star + 1, n - pn - 1))
			return false;
		f = f->seq->elem;
	}
	if (f->kind != LK_PTR && f->kind != LK_REF && f->kind != LK_EMBED)
		return fail(p, "{@%.*s}: '%s' is %s; {@f} renders what a ptr "
			    "or ref points to by its ref template", (int)n, d,
			    last(op)->name, kind_word(f));
	return true;
}

// N for a format that is "%Ns" alone, -N for "%-Ns", else 0: the walk
// pads such a string itself (an opcode's name, once per instruction).
static int16_t
string_pad(const char *fmt)
{
	const char *s = fmt + 1;
	bool left = *s == '-';
	int n = 0;
	if (fmt[0] != '%')
		return 0;
	s += left;
	while (*s >= '0' && *s <= '9')
		n = n * 10 + (*s++ - '0');
	if (n == 0 || strcmp(s, "s") != 0)
		return 0;
	return (int16_t)(left ? -n : n);
}

static bool
directive_field(struct tparse *p, const char *d, size_t n, struct top *op)
{
	const char *star = memchr(d, '*', n);
	const char *colon = memchr(d, ':', n);
	if (star && (!colon || star < colon)) {
		op->code = TOP_SEQ;
		size_t pn = (size_t)(star - d);
		return parse_path(p, d, pn, op) &&
		       set_sep(p, op, star + 1, n - pn - 1);
	}
	op->code = TOP_FIELD;
	size_t pn = colon ? (size_t)(colon - d) : n;
	if (!parse_path(p, d, pn, op))
		return false;
	if (!colon)
		return true;
	size_t fl = n - pn - 1;
	if (fl == 3 && !memcmp(colon + 1, "lua", 3)) {
		// as Lua writes it: %.14g plus .0, a quoted string literal
		op->fmt = "lua";
		op->fmt_class = 'L';
		return true;
	}
	enum irs_textfmt tf;
	if (irs_textfmt_find(colon + 1, fl, &tf)) {
		// as a compiler quotes it: {name:llvm_name}
		op->fmt = irs_textfmt_name(tf);
		op->fmt_class = 'N';
		op->textfmt = (uint8_t)tf;
		return true;
	}
	char *fmt = irs_layout_alloc(p->lo, 2 * fl + 16);
	if (!fmt)
		return fail(p, "out of memory");
	if (!irs_fmt_check(colon + 1, fl, fmt, &op->fmt_class))
		return fail(p, "bad format '%.*s' (one printf conversion "
			    "such as %%d, %%04x, %%.6e or %%-8s)", (int)fl,
			    colon + 1);
	op->fmt = fmt;
	op->pad = string_pad(fmt);
	const struct lfield *f = last(op);
	bool textual = f->kind == LK_CSTR || f->kind == LK_CHARS ||
		       f->kind == LK_STRN || f->kind == LK_SEQ ||
		       f->kind == LK_EMBED;
	if (op->fmt_class != 's' && textual)
		return fail(p, "format '%.*s' is numeric but '%s' is %s",
			    (int)fl, colon + 1, f->name, kind_word(f));
	return true;
}

/* {====================================================== conditions */

// {?EXPR}: or < and < not < comparison, as in Python; parentheses group.
// Operands are field paths, integers and enum names (of the enum field on
// the other side); all is resolved here, so the walk only compares.

enum { COND_MAX_DEPTH = 32 };	// nested not and parentheses

struct cparse {
	struct tparse *p;
	const char *what;	// "expression" ({=...}), else "condition"
	const char *s;
	size_t n, i;
	uint32_t depth;
};

// An operand as written, before it is resolved.
struct cword {
	const char *s;
	size_t len;
	bool is_num;
	int64_t num;
};

static void
skip_ws(struct cparse *c)
{
	while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t'))
		c->i++;
}

// Length of the word (identifier characters and dots) at the cursor.
static size_t
word_len(const struct cparse *c)
{
	size_t j = c->i;
	while (j < c->n && (is_ident(c->s[j]) || c->s[j] == '.'))
		j++;
	return j - c->i;
}

static bool
is_keyword(const char *s, size_t n)
{
	return (n == 3 && (!memcmp(s, "and", 3) || !memcmp(s, "not", 3))) ||
	       (n == 2 && !memcmp(s, "or", 2));
}

static bool
keyword(struct cparse *c, const char *kw)
{
	skip_ws(c);
	size_t l = strlen(kw);
	if (word_len(c) != l || memcmp(c->s + c->i, kw, l))
		return false;
	c->i += l;
	return true;
}

static bool
cfail_at(struct cparse *c, const char *what)
{
	const char *kind = c->what ? c->what : "condition";
	skip_ws(c);
	if (c->i >= c->n)
		return fail(c->p, "%s '%.*s': %s at its end", kind,
			    (int)c->n, c->s, what);
	return fail(c->p, "%s '%.*s': %s at '%.*s'", kind, (int)c->n, c->s,
		    what, (int)(c->n - c->i), c->s + c->i);
}

static bool
cword(struct cparse *c, struct cword *o)
{
	skip_ws(c);
	const char *s = c->s + c->i;
	size_t rest = c->n - c->i;
	memset(o, 0, sizeof(*o));
	size_t l = rest && s[0] == '-' ? 1 : 0;
	if (l < rest && s[l] >= '0' && s[l] <= '9') {
		while (l < rest && is_ident(s[l]))
			l++;
		char buf[32];
		if (l >= sizeof(buf))
			return cfail_at(c, "number too long");
		memcpy(buf, s, l);
		buf[l] = '\0';
		char *end;
		errno = 0;
		long long v = strtoll(buf, &end, 0);
		if (errno == ERANGE && s[0] != '-') {	// 0xffffffffffffffff
			errno = 0;
			v = (long long)strtoull(buf, &end, 0);
		}
		if (*end || errno)
			return cfail_at(c, "bad number");
		o->is_num = true;
		o->num = v;
		c->i += l;
		return true;
	}
	l = word_len(c);
	if (!l || is_keyword(s, l))
		return cfail_at(c, "expected a field, a number or an enum "
				"name");
	o->s = s;
	o->len = l;
	c->i += l;
	return true;
}

// The field path @p o names, if it names one ("kind", "u.def").
static bool
cword_path(struct cparse *c, const struct cword *o, struct lcval *v,
	   bool *is_path)
{
	char name[128];
	*is_path = false;
	if (o->is_num)
		return true;
	snprintf(name, sizeof(name), "%.*s", (int)o->len, o->s);
	if (!memchr(o->s, '.', o->len) && !irs_ltype_field(c->p->t, name))
		return true;
	struct top tmp;
	memset(&tmp, 0, sizeof(tmp));
	if (!parse_path(c->p, o->s, o->len, &tmp))
		return false;
	v->path = tmp.path;
	v->npath = tmp.npath;
	*is_path = true;
	return true;
}

static bool
comparable(struct cparse *c, const struct lcval *v)
{
	const struct lfield *f = v->path[v->npath - 1];
	switch (f->kind) {
	case LK_INT: case LK_UINT: case LK_BOOL: case LK_ENUM: case LK_INDEX:
	case LK_FLOAT: case LK_PTR: case LK_REF: case LK_UNION: case LK_DELTA:
	case LK_SHAPE:
		return true;
	default:
		if (c->what)
			return fail(c->p, "%s '%.*s': '%s' is %s; arithmetic "
				    "takes integers, enums, bools, floats, "
				    "pointers and unions of them", c->what,
				    (int)c->n, c->s, f->name, kind_word(f));
		return fail(c->p, "condition '%.*s': '%s' is %s; comparisons "
			    "take integers, enums, bools, floats, pointers "
			    "and unions of them (test it alone: {?%s})",
			    (int)c->n, c->s, f->name, kind_word(f), f->name);
	}
}

// A word that is no field: a number, or a name of the enum on the other
// side.
static bool
cword_const(struct cparse *c, const struct cword *o, const struct lcval *other,
	    bool other_is_path, struct lcval *v)
{
	if (o->is_num) {
		v->k = o->num;
		return true;
	}
	const struct lfield *of = other_is_path
		? other->path[other->npath - 1] : NULL;
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)o->len, o->s);
	if (of && of->kind == LK_ENUM && irs_lenum_value(of->en, name, &v->k))
		return true;
	if (of && of->kind == LK_ENUM)
		return fail(c->p, "condition '%.*s': '%s' is neither a field "
			    "of %s nor a name of enum field '%s'", (int)c->n,
			    c->s, name, c->p->t->name, of->name);
	return fail(c->p, "condition '%.*s': unknown field '%s' in %s",
		    (int)c->n, c->s, name, c->p->t->name);
}

static struct lcond *
new_cond(struct cparse *c, uint8_t code)
{
	struct lcond *k = irs_layout_alloc(c->p->lo, sizeof(*k));
	if (!k) {
		fail(c->p, "out of memory");
		return NULL;
	}
	k->code = code;
	return k;
}

/* {------------------------------------------------------ arithmetic */

// EXPR of {=EXPR} and of a condition's operands: + - * over integers,
// with the usual precedence, parentheses and unary minus. Operands are
// integer field paths, numbers, # (the element's index) and #s (sequence
// s's length).

static struct lexpr *expr_sum(struct cparse *c);

static struct lexpr *
new_expr(struct cparse *c, uint8_t code)
{
	struct lexpr *e = irs_layout_alloc(c->p->lo, sizeof(*e));
	if (!e)
		fail(c->p, "out of memory");
	else
		e->code = code;
	return e;
}

static struct lexpr *
expr_atom(struct cparse *c)
{
	skip_ws(c);
	if (c->i >= c->n) {
		cfail_at(c, "expected an operand");
		return NULL;
	}
	char ch = c->s[c->i];
	if (ch == '(') {
		if (++c->depth > COND_MAX_DEPTH) {
			fail(c->p, "expression '%.*s' nested more than %d "
			     "deep", (int)c->n, c->s, COND_MAX_DEPTH);
			return NULL;
		}
		c->i++;
		struct lexpr *e = expr_sum(c);
		skip_ws(c);
		if (e && (c->i >= c->n || c->s[c->i] != ')')) {
			cfail_at(c, "expected ')'");
			return NULL;
		}
		c->i++;
		c->depth--;
		return e;
	}
	if (ch == '#') {
		c->i++;
		size_t l = word_len(c);
		if (!l)
			return new_expr(c, LE_ELEM);
		struct lexpr *e = new_expr(c, LE_COUNT);
		struct top tmp;
		memset(&tmp, 0, sizeof(tmp));
		if (!e || !parse_path(c->p, c->s + c->i, l, &tmp))
			return NULL;
		const struct lfield *f = tmp.path[tmp.npath - 1];
		if (f->kind != LK_SEQ) {
			fail(c->p, "'#%.*s': '%s' is %s, not a sequence (#s is "
			     "its number of elements)", (int)l, c->s + c->i,
			     f->name, kind_word(f));
			return NULL;
		}
		e->v.path = tmp.path;
		e->v.npath = tmp.npath;
		c->i += l;
		return e;
	}
	if (ch == '-' && !(c->i + 1 < c->n && c->s[c->i + 1] >= '0' &&
			   c->s[c->i + 1] <= '9')) {
		c->i++;
		struct lexpr *e = new_expr(c, LE_NEG);
		if (!e || !(e->a = expr_atom(c)))
			return NULL;
		return e;
	}
	struct cword w;
	bool is_path;
	struct lexpr *e = new_expr(c, LE_VAL);
	if (!e || !cword(c, &w) || !cword_path(c, &w, &e->v, &is_path))
		return NULL;
	if (w.is_num) {
		e->v.k = w.num;
		return e;
	}
	if (!is_path) {
		fail(c->p, "expression '%.*s': unknown field '%.*s' in %s",
		     (int)c->n, c->s, (int)w.len, w.s, c->p->t->name);
		return NULL;
	}
	return comparable(c, &e->v) ? e : NULL;
}

static struct lexpr *
expr_prod(struct cparse *c)
{
	struct lexpr *e = expr_atom(c);
	while (e) {
		skip_ws(c);
		if (c->i >= c->n || c->s[c->i] != '*')
			break;
		c->i++;
		struct lexpr *m = new_expr(c, LE_MUL);
		if (!m || !(m->b = expr_atom(c)))
			return NULL;
		m->a = e;
		e = m;
	}
	return e;
}

static struct lexpr *
expr_sum(struct cparse *c)
{
	struct lexpr *e = expr_prod(c);
	while (e) {
		skip_ws(c);
		if (c->i >= c->n || (c->s[c->i] != '+' && c->s[c->i] != '-'))
			break;
		struct lexpr *m = new_expr(c, c->s[c->i] == '+' ? LE_ADD
					   : LE_SUB);
		c->i++;
		if (!m || !(m->b = expr_prod(c)))
			return NULL;
		m->a = e;
		e = m;
	}
	return e;
}

// Whether the operand at the cursor is arithmetic (#, or a word followed
// by + - *) rather than one word; the cursor is left where it was.
static bool
operand_is_expr(struct cparse *c)
{
	skip_ws(c);
	size_t at = c->i;
	if (at < c->n && c->s[at] == '#')
		return true;
	if (at < c->n && c->s[at] == '-') {	// -1 is a number, -x arithmetic
		if (at + 1 >= c->n || c->s[at + 1] < '0' || c->s[at + 1] > '9')
			return true;
		at++;
	}
	size_t l = 0;
	while (at + l < c->n && (is_ident(c->s[at + l]) || c->s[at + l] == '.'))
		l++;
	at += l;
	while (at < c->n && (c->s[at] == ' ' || c->s[at] == '\t'))
		at++;
	return l && at < c->n && (c->s[at] == '+' || c->s[at] == '*' ||
				  c->s[at] == '-');
}

/* }------------------------------------------------------ */

static const struct {
	const char *op;
	uint8_t code;
} relops[] = {	// longest first
	{ "==", LC_EQ }, { "!=", LC_NE }, { "~=", LC_NE }, { "<=", LC_LE },
	{ ">=", LC_GE }, { "<", LC_LT }, { ">", LC_GT },
};

static struct lcond *cond_or(struct cparse *c);

// One side of a comparison: arithmetic into v->expr, else the word.
static bool
operand(struct cparse *c, struct cword *w, struct lcval *v, bool *is_expr)
{
	*is_expr = operand_is_expr(c);
	if (!*is_expr)
		return cword(c, w);
	return (v->expr = expr_sum(c)) != NULL;
}

// OPERAND [RELOP OPERAND] or ( EXPR )
static struct lcond *
cond_cmp(struct cparse *c)
{
	skip_ws(c);
	if (c->i < c->n && c->s[c->i] == '(') {
		c->i++;
		struct lcond *k = cond_or(c);
		skip_ws(c);
		if (!k)
			return NULL;
		if (c->i >= c->n || c->s[c->i] != ')') {
			cfail_at(c, "expected ')'");
			return NULL;
		}
		c->i++;
		return k;
	}
	struct cword wx, wy;
	struct lcval ex, ey;
	bool xe, ye;
	memset(&ex, 0, sizeof(ex));
	memset(&ey, 0, sizeof(ey));
	if (!operand(c, &wx, &ex, &xe))
		return NULL;
	skip_ws(c);
	uint8_t code = LC_TEST;
	for (size_t r = 0; r < ARRAY_SIZE(relops); r++) {
		size_t l = strlen(relops[r].op);
		if (c->n - c->i >= l && !memcmp(c->s + c->i, relops[r].op, l)) {
			code = relops[r].code;
			c->i += l;
			break;
		}
	}
	struct lcond *k = new_cond(c, xe && code == LC_TEST ? LC_NE : code);
	bool xp = false, yp = false;
	if (!k || (!xe && !cword_path(c, &wx, &k->x, &xp)))
		return NULL;
	if (xe && code == LC_TEST) {	// {?# - 1}: the expression is not 0
		k->x = ex;
		return k;
	}
	if (code == LC_TEST) {
		if (!xp) {
			cword_const(c, &wx, NULL, false, &k->x);
			if (wx.is_num)
				fail(c->p, "condition '%.*s': a number alone "
				     "is no condition", (int)c->n, c->s);
			return NULL;
		}
		return k;
	}
	if (!operand(c, &wy, &ey, &ye) ||
	    (!ye && !cword_path(c, &wy, &k->y, &yp)))
		return NULL;
	if (xe)
		k->x = ex;
	if (ye)
		k->y = ey;
	if ((xp && !comparable(c, &k->x)) || (yp && !comparable(c, &k->y)))
		return NULL;
	if ((!xp && !xe && !cword_const(c, &wx, &k->y, yp, &k->x)) ||
	    (!yp && !ye && !cword_const(c, &wy, &k->x, xp, &k->y)))
		return NULL;
	return k;
}

static struct lcond *
cond_not(struct cparse *c)
{
	if (++c->depth > COND_MAX_DEPTH) {
		fail(c->p, "condition '%.*s' nested more than %d deep",
		     (int)c->n, c->s, COND_MAX_DEPTH);
		return NULL;
	}
	struct lcond *k;
	if (keyword(c, "not")) {
		k = new_cond(c, LC_NOT);
		if (k && !(k->a = cond_not(c)))
			k = NULL;
	} else {
		k = cond_cmp(c);
	}
	c->depth--;
	return k;
}

static struct lcond *
cond_and(struct cparse *c)
{
	struct lcond *k = cond_not(c);
	while (k && keyword(c, "and")) {
		struct lcond *both = new_cond(c, LC_AND);
		if (!both)
			return NULL;
		both->a = k;
		if (!(both->b = cond_not(c)))
			return NULL;
		k = both;
	}
	return k;
}

static struct lcond *
cond_or(struct cparse *c)
{
	if (++c->depth > COND_MAX_DEPTH) {
		fail(c->p, "condition '%.*s' nested more than %d deep",
		     (int)c->n, c->s, COND_MAX_DEPTH);
		return NULL;
	}
	struct lcond *k = cond_and(c);
	while (k && keyword(c, "or")) {
		struct lcond *either = new_cond(c, LC_OR);
		if (!either)
			return NULL;
		either->a = k;
		if (!(either->b = cond_and(c)))
			return NULL;
		k = either;
	}
	c->depth--;
	return k;
}

// Whether @p s is a plain path ("f", "f.g"): {?f} as it always was.
static bool
plain_path(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_ident(s[i]) && s[i] != '.')
			return false;
	return n > 0 && !(s[0] >= '0' && s[0] <= '9');
}

// {?EXPR} into op: a plain path as before, else op->cond.
static bool
directive_cond(struct tparse *p, const char *d, size_t n, struct top *op)
{
	if (plain_path(d, n) && !is_keyword(d, n))
		return parse_path(p, d, n, op);
	struct cparse c = { .p = p, .s = d, .n = n };
	struct lcond *k = cond_or(&c);
	if (!k)
		return false;
	skip_ws(&c);
	if (c.i < c.n)
		return cfail_at(&c, "expected 'and', 'or' or the end");
	if (k->code == LC_TEST) {	// {? f }: the fast path of {?f}
		op->path = k->x.path;
		op->npath = k->x.npath;
		return true;
	}
	op->cond = k;
	return true;
}

// {=EXPR} or {=EXPR:FMT} (an integer format) into op.
static bool
directive_expr(struct tparse *p, const char *d, size_t n, struct top *op)
{
	const char *colon = memchr(d, ':', n);
	size_t en = colon ? (size_t)(colon - d) : n;
	struct cparse c = { .p = p, .what = "expression", .s = d, .n = en };
	op->code = TOP_EXPR;
	if (!(op->expr = expr_sum(&c)))
		return false;
	skip_ws(&c);
	if (c.i < c.n)
		return cfail_at(&c, "expected + - * or the end");
	if (!colon)
		return true;
	size_t fl = n - en - 1;
	char *fmt = irs_layout_alloc(p->lo, 2 * fl + 16);
	if (!fmt)
		return fail(p, "out of memory");
	if (!irs_fmt_check(colon + 1, fl, fmt, &op->fmt_class) ||
	    (op->fmt_class != 'i' && op->fmt_class != 'u' &&
	     op->fmt_class != 'c'))
		return fail(p, "bad format '%.*s' for an integer expression "
			    "(one integer conversion such as %%d, %%4d or "
			    "%%x)", (int)fl, colon + 1);
	op->fmt = fmt;
	return true;
}

/* }====================================================== */

// One {...} directive, @p d its inside.
static bool
directive(struct tparse *p, const char *d, size_t n)
{
	struct top *op = &p->ops[p->nops];
	memset(op, 0, sizeof(*op));
	if (n >= 1 && d[0] == '?') {
		if (p->nconds == ARRAY_SIZE(p->conds))
			return fail(p, "conditionals nested too deep");
		op->code = TOP_IF;
		if (!directive_cond(p, d + 1, n - 1, op))
			return false;
		p->conds[p->nconds] = p->nops;
		p->elses[p->nconds++] = -1;
	} else if (n == 1 && d[0] == ':') {
		if (!p->nconds || p->elses[p->nconds - 1] >= 0)
			return fail(p, "{:} without an open {?...}");
		op->code = TOP_JUMP;
		p->elses[p->nconds - 1] = (int32_t)p->nops;
		p->ops[p->conds[p->nconds - 1]].jump = p->nops + 1;
	} else if (n == 1 && d[0] == '/') {
		if (!p->nconds)
			return fail(p, "{/} without an open {?...}");
		p->nconds--;
		int32_t e = p->elses[p->nconds];
		if (e >= 0)
			p->ops[e].jump = p->nops;
		else
			p->ops[p->conds[p->nconds]].jump = p->nops;
		p->target = true;	// what follows starts a new op
		return true;		// no op of its own
	} else if (n >= 1 && d[0] == '@') {
		if (!directive_ref(p, d + 1, n - 1, op))
			return false;
	} else if (n >= 1 && d[0] == '=') {
		if (!directive_expr(p, d + 1, n - 1, op))
			return false;
	} else if (n == 1 && d[0] == '&') {
		op->code = TOP_ADDR;
	} else if (!directive_field(p, d, n, op)) {
		return false;
	}
	p->nops++;
	return true;
}

static bool
parse(struct tparse *p, const char *src)
{
	for (size_t i = 0; src[i];) {
		char c = src[i];
		if ((c == '{' || c == '}') && src[i + 1] == c) {
			lit_char(p, c);
			i += 2;
		} else if (c == '}') {
			return fail(p, "unmatched '}' at column %zu (write }} "
				    "for a brace)", i + 1);
		} else if (c == '{') {
			const char *end = strchr(src + i + 1, '}');
			if (!end)
				return fail(p, "unclosed '{' at column %zu",
					    i + 1);
			if (!directive(p, src + i + 1,
				       (size_t)(end - (src + i + 1)))) {
				size_t l = strlen(p->msg);
				snprintf(p->msg + l, sizeof(p->msg) - l,
					 " (column %zu)", i + 1);
				return false;
			}
			i = (size_t)(end - src) + 1;
		} else {
			lit_char(p, c);
			i++;
		}
	}
	if (p->nconds)
		return fail(p, "{?...} without its {/}");
	return true;
}

// A literal always followed by the same instruction becomes that
// instruction's prefix (struct top's pre): one instruction less for the
// walker to dispatch. A jump to the literal lands on the instruction,
// which writes it first; an instruction that is a jump target itself
// keeps its literal apart.
static bool
fuse_literals(struct tparse *p)
{
	uint32_t n = p->nops;
	bool *target = calloc(n + 1, sizeof(*target));
	uint32_t *map = calloc(n + 1, sizeof(*map));
	if (!target || !map) {
		free(target);
		free(map);
		return fail(p, "out of memory");
	}
	for (uint32_t i = 0; i < n; i++)
		if (p->ops[i].code == TOP_IF || p->ops[i].code == TOP_JUMP)
			target[p->ops[i].jump] = true;
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct top *op = &p->ops[i];
		if (op->code == TOP_LIT && i + 1 < n &&
		    p->ops[i + 1].code != TOP_LIT && !target[i + 1]) {
			p->ops[i + 1].pre = op->lit;
			p->ops[i + 1].pre_len = op->len;
			map[i] = k;	// the next op lands at k
			continue;
		}
		map[i] = k;
		p->ops[k++] = *op;
	}
	map[n] = k;
	for (uint32_t i = 0; i < k; i++)
		if (p->ops[i].code == TOP_IF || p->ops[i].code == TOP_JUMP)
			p->ops[i].jump = map[p->ops[i].jump];
	p->nops = k;
	free(target);
	free(map);
	return true;
}

struct irs_error *
irs_template_path(struct irs_layout *lo, const struct ltype *t,
		  const char *path, struct lcval *ret)
{
	struct tparse p = { .lo = lo, .t = t };
	struct top op;
	memset(&op, 0, sizeof(op));
	if (!parse_path(&p, path, strlen(path), &op))
		return irs_error_format(IRS_ERROR_LAYOUT, "%s", p.msg);
	memset(ret, 0, sizeof(*ret));
	ret->path = op.path;
	ret->npath = op.npath;
	return NULL;
}

struct irs_error *
irs_template_cond(struct irs_layout *lo, const struct ltype *t,
		  const char *src, const struct lcond **ret)
{
	struct tparse p = { .lo = lo, .t = t };
	struct cparse c = { .p = &p, .s = src, .n = strlen(src) };
	struct lcond *k = cond_or(&c);
	if (k) {
		skip_ws(&c);
		if (c.i < c.n && !cfail_at(&c, "expected 'and', 'or' or the "
					       "end"))
			k = NULL;
	}
	if (!k)
		return irs_error_format(IRS_ERROR_LAYOUT, "%s", p.msg);
	*ret = k;
	return NULL;
}

struct irs_error *
irs_template_compile(struct irs_layout *lo, const struct ltype *t,
		     const char *src, bool is_ref,
		     const struct ltemplate **ret)
{
	size_t len = strlen(src);
	struct ltemplate *tpl = irs_layout_alloc(lo, sizeof(*tpl));
	struct tparse p = {
		.lo = lo, .t = t, .is_ref = is_ref,
		.ops = irs_layout_alloc(lo, (len + 1) * sizeof(struct top)),
		.lits = irs_layout_alloc(lo, len + 1),
	};
	char *copy = irs_layout_strndup(lo, src, len);
	if (!tpl || !p.ops || !p.lits || !copy)
		return &irs_enomem;
	if (len > UINT32_MAX / 2)
		return irs_error_format(IRS_ERROR_LAYOUT, "template too long");
	if (!parse(&p, src) || !fuse_literals(&p))
		return irs_error_format(IRS_ERROR_LAYOUT, "%s", p.msg);
	tpl->nops = p.nops;
	tpl->ops = p.ops;
	tpl->lits = p.lits;
	tpl->src = copy;
	*ret = tpl;
	return NULL;
}
