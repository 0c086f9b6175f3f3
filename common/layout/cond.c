// The expressions of templates, compiled when the layout loads so the walk
// only evaluates them: conditions {?kind == K_X and not (flags & 0x40)}
// and integers {=# + 1}, {=(op >> 8) & 0xff}, a format's width
// {name:%-*s:12 - len(op)}. One grammar for both, with Python's
// precedence (lowest first):
//
//   or, and, not, comparisons (== != ~= < <= > >=, one per operand pair),
//   |, ^, &, << >>, + -, *, unary - and ~, then operands:
//   a number, a field path (path.c: "u.def", "ops[0].kind", "^Fn.retty",
//   "^prev.line"), # (the element's index), #PATH (a sequence's or
//   slice's length), len(PATH) (the bytes {PATH} renders), col() (the
//   column the text is at), an enum name (of the enum on the other side,
//   or T::NAME from debug info's enum T), or a parenthesised expression.
//
// A field path is a number where a number is wanted and a test ({?f}) where
// a condition is; an integer expression where a condition is wanted is
// "not 0". Depth and size are bounded (IRS_EXPR_MAX_DEPTH, _NODES): the
// parser and the walk's evaluator recurse that deep at most.
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"

struct cparse {
	struct irs_tpl *p;
	const char *what;	// "expression" or "condition"
	const char *s;
	size_t n, i;
	uint32_t depth;		// parser recursion
	uint32_t nodes;
};

// A node being built, with what the checks need to know of it.
struct cnode {
	struct lexpr *e;
	const char *name;	// an enum name not resolved yet (e is NULL)
	size_t nlen;
	const struct lenum *en;	// the enum its value is of, when known
	const char *en_field;	// ... and the field that has it
	uint16_t depth;		// of the tree under it
	bool is_bool;
	bool is_num;		// a number literal alone
};

static bool
is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

// An excerpt of @p s for a message: its first 60 bytes.
#define EXCERPT(s, n) (int)((n) > 60 ? 60 : (n)), (s), ((n) > 60 ? "..." : "")

static bool
cfail(struct cparse *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool
cfail(struct cparse *c, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return irs_tpl_fail(c->p, "%s '%.*s%s': %s", c->what,
			    EXCERPT(c->s, c->n), msg);
}

static void
skip_ws(struct cparse *c)
{
	while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t'))
		c->i++;
}

static bool
cfail_at(struct cparse *c, const char *what)
{
	skip_ws(c);
	if (c->i >= c->n)
		return cfail(c, "%s at its end", what);
	size_t rest = c->n - c->i;
	return cfail(c, "%s at '%.*s%s'", what, EXCERPT(c->s + c->i, rest));
}

static bool
at(struct cparse *c, const char *tok)
{
	size_t l = strlen(tok);
	skip_ws(c);
	return c->n - c->i >= l && !memcmp(c->s + c->i, tok, l);
}

// The word operator @p kw ("and") at the cursor, taken.
static bool
keyword(struct cparse *c, const char *kw)
{
	size_t l = strlen(kw);
	if (!at(c, kw) || (c->i + l < c->n && is_ident(c->s[c->i + l])))
		return false;
	c->i += l;
	return true;
}

static bool
is_keyword(const char *s, size_t n)
{
	return (n == 3 && (!memcmp(s, "and", 3) || !memcmp(s, "not", 3))) ||
	       (n == 2 && !memcmp(s, "or", 2));
}

static bool
enter(struct cparse *c)
{
	if (++c->depth > IRS_EXPR_MAX_DEPTH)
		return cfail(c, "nested more than %d deep", IRS_EXPR_MAX_DEPTH);
	return true;
}

static struct lexpr *
new_expr(struct cparse *c, uint8_t code)
{
	if (++c->nodes > IRS_EXPR_MAX_NODES) {
		cfail(c, "more than %d operators and operands",
		      IRS_EXPR_MAX_NODES);
		return NULL;
	}
	struct lexpr *e = irs_layout_alloc(c->p->lo, sizeof(*e));
	if (!e)
		irs_tpl_fail(c->p, "out of memory");
	else
		e->code = code;
	return e;
}

/* {====================================================== operands */

static bool comparable_path(struct cparse *c, const struct lfield *const *path,
			    uint32_t npath);

// The enum the value of a path is of (its last field's, an enum element's
// of a picked element), or NULL; *field its name.
static const struct lenum *
path_enum(const struct lfield *const *path, uint32_t npath,
	  const char **field)
{
	const struct lfield *f = path[npath - 1];
	*field = f->name;
	if (f->kind == LK_PICK)
		f = f->index_seq->seq->elem;
	else if (f->kind == LK_GLOBAL)
		f = f->glob->value;
	return f->kind == LK_ENUM ? f->en : NULL;
}

// Whether C would take the value of a path as unsigned: an unsigned
// integer, enum or bitfield, a pointer (what >> needs to know).
static bool
path_unsigned(const struct lfield *const *path, uint32_t npath)
{
	const struct lfield *f = path[npath - 1];
	if (f->kind == LK_PICK)
		f = f->index_seq->seq->elem;
	else if (f->kind == LK_GLOBAL)
		f = f->glob->value;
	switch (f->kind) {
	case LK_PTR: case LK_REF:
		return true;
	case LK_UINT: case LK_ENUM: case LK_BOOL: case LK_INDEX:
		return !f->at.is_signed;
	default:
		return false;
	}
}

// NUMBER at the cursor.
static bool
number(struct cparse *c, struct cnode *r)
{
	char buf[32];
	size_t l = 0;
	const char *s = c->s + c->i;
	while (c->i + l < c->n && is_ident(s[l]))
		l++;
	if (l >= sizeof(buf))
		return cfail_at(c, "number too long");
	memcpy(buf, s, l);
	buf[l] = '\0';
	char *end;
	errno = 0;
	bool is_unsigned = false;
	long long v = strtoll(buf, &end, 0);
	if (errno == ERANGE) {			// 0xffffffffffffffff
		errno = 0;
		v = (long long)strtoull(buf, &end, 0);
		is_unsigned = true;
	}
	if (*end || errno)
		return cfail_at(c, "bad number");
	c->i += l;
	if (!(r->e = new_expr(c, LE_NUM)))
		return false;
	r->e->k = v;
	r->e->is_unsigned = is_unsigned;
	r->is_num = true;
	return true;
}

// T::NAME: enumerator NAME of enum T, from debug info.
static bool
enum_constant(struct cparse *c, const char *s, size_t tl, size_t total,
	      struct cnode *r)
{
	const struct irs_target *t = c->p->lo->target;
	char type[128], want[128], name[256];
	snprintf(type, sizeof(type), "%.*s", (int)tl, s);
	snprintf(want, sizeof(want), "%.*s", (int)(total - tl - 2),
		 s + tl + 2);
	if (!t || !t->enumerator)
		return cfail(c, "no debug info for enum '%s'", type);
	for (uint32_t i = 0; i < (1u << 20); i++) {
		int64_t v;
		struct irs_error *err = t->enumerator(t->arg, type, i, name,
						      sizeof(name), &v);
		if (err) {
			irs_error_destroy(err);
			break;
		}
		name[sizeof(name) - 1] = '\0';
		if (!strcmp(name, want)) {
			if (!(r->e = new_expr(c, LE_NUM)))
				return false;
			r->e->k = v;
			return true;
		}
	}
	return cfail(c, "enum '%s' has no '%s' in the debug info", type,
		     want);
}

// PATH, an enum name, or T::NAME at the cursor.
static bool
word(struct cparse *c, struct cnode *r)
{
	const char *s = c->s + c->i;
	size_t rest = c->n - c->i;
	size_t l = irs_path_span(s, rest);
	// T::NAME
	if (l && l + 2 < rest && s[l] == ':' && s[l + 1] == ':' &&
	    !memchr(s, '.', l) && s[0] != '^') {
		size_t k = l + 2;
		while (k < rest && is_ident(s[k]))
			k++;
		c->i += k;
		return enum_constant(c, s, l, k, r);
	}
	if (!l || (is_keyword(s, l) && (l == rest || !is_ident(s[l]))))
		return cfail_at(c, "expected a field, a number or an enum name");
	c->i += l;
	// a bare name that is no field: an enum name, resolved by the
	// operator that takes it
	bool bare = true;
	for (size_t k = 0; k < l; k++)
		bare = bare && is_ident(s[k]);
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)l, s);
	if (bare && !irs_ltype_field(c->p->t, name)) {
		r->name = s;
		r->nlen = l;
		return true;
	}
	if (!(r->e = new_expr(c, LE_PATH)) ||
	    !irs_tpl_path(c->p, s, l, &r->e->path, &r->e->npath))
		return false;
	r->en = path_enum(r->e->path, r->e->npath, &r->en_field);
	r->e->is_unsigned = path_unsigned(r->e->path, r->e->npath);
	return true;
}

// #PATH (a sequence's length) or # (the element's index).
static bool
count(struct cparse *c, struct cnode *r)
{
	c->i++;
	size_t l = irs_path_span(c->s + c->i, c->n - c->i);
	if (!l)
		return (r->e = new_expr(c, LE_ELEM)) != NULL;
	if (!(r->e = new_expr(c, LE_COUNT)) ||
	    !irs_tpl_path(c->p, c->s + c->i, l, &r->e->path, &r->e->npath))
		return false;
	const struct lfield *f = r->e->path[r->e->npath - 1];
	if (f->kind != LK_SEQ && f->kind != LK_SLICE)
		return cfail(c, "'#%.*s': '%s' is %s, not a sequence (#s is its "
			     "number of elements)", (int)l, c->s + c->i,
			     f->name, irs_lkind_word(f));
	c->i += l;
	return true;
}

// len(PATH), col().
static bool
function(struct cparse *c, size_t l, struct cnode *r)
{
	const char *s = c->s + c->i;
	if (l == 3 && !memcmp(s, "col", 3)) {
		c->i += l;
		if (!at(c, "(") || (c->i++, !at(c, ")")))
			return cfail_at(c, "col() takes nothing");
		c->i++;
		return (r->e = new_expr(c, LE_COL)) != NULL;
	}
	if (l != 3 || memcmp(s, "len", 3))
		return cfail(c, "unknown function '%.*s' (there are len(PATH) "
			     "and col())", (int)l, s);
	c->i += l;
	at(c, "(");
	c->i++;
	skip_ws(c);
	size_t pl = irs_path_span(c->s + c->i, c->n - c->i);
	if (!pl)
		return cfail_at(c, "len() takes a field path");
	if (!(r->e = new_expr(c, LE_LEN)) ||
	    !irs_tpl_path(c->p, c->s + c->i, pl, &r->e->path, &r->e->npath))
		return false;
	c->i += pl;
	const struct lfield *f = r->e->path[r->e->npath - 1];
	if (f->kind == LK_UP || f->kind == LK_PREV)
		return cfail(c, "len() takes a field, not '%s'", f->name);
	if (!at(c, ")"))
		return cfail_at(c, "expected ')'");
	c->i++;
	return true;
}

static bool expr_or(struct cparse *c, struct cnode *r);
static bool expr_unary(struct cparse *c, struct cnode *r);

static bool
atom(struct cparse *c, struct cnode *r)
{
	memset(r, 0, sizeof(*r));
	skip_ws(c);
	if (c->i >= c->n)
		return cfail_at(c, "expected a field, a number or an enum name");
	char ch = c->s[c->i];
	if (ch == '(') {
		c->i++;
		if (!enter(c) || !expr_or(c, r))
			return false;
		if (!at(c, ")"))
			return cfail_at(c, "expected ')'");
		c->i++;
		c->depth--;
		r->is_num = false;	// (3) is a number, not "3 alone"
		return true;
	}
	if (ch == '#')
		return count(c, r);
	if (ch >= '0' && ch <= '9')
		return number(c, r);
	size_t l = 0;
	while (c->i + l < c->n && is_ident(c->s[c->i + l]))
		l++;
	size_t j = c->i + l;
	while (j < c->n && c->s[j] == ' ')
		j++;
	if (l && j < c->n && c->s[j] == '(')
		return function(c, l, r);
	return word(c, r);
}

/* }====================================================== */

/* {====================================================== types */

// A bare name that no operator resolved: no field and no enum's name.
static bool
unresolved(struct cparse *c, const struct cnode *n)
{
	return cfail(c, "unknown field '%.*s' in %s (an enum's name is taken "
		     "from the enum field on the other side; T::NAME names an "
		     "enumerator of enum T)", (int)n->nlen, n->name,
		     c->p->t->name);
}

// Resolves a bare name @p n against the enum of the other side, @p o.
static bool
resolve_name(struct cparse *c, struct cnode *n, const struct cnode *o)
{
	const struct lenum *en = o->en;
	if (n->e || !n->name)
		return true;
	char name[128];
	int64_t v;
	snprintf(name, sizeof(name), "%.*s", (int)n->nlen, n->name);
	if (!en || !irs_lenum_value(en, name, &v)) {
		if (en)
			return cfail(c, "'%s' is neither a field of %s nor a "
				     "name of enum field '%s'", name,
				     c->p->t->name, o->en_field);
		return unresolved(c, n);
	}
	if (!(n->e = new_expr(c, LE_NUM)))
		return false;
	n->e->k = v;
	n->en = en;
	n->en_field = o->en_field;
	n->name = NULL;
	return true;
}

// @p n as an integer operand.
static bool
to_int(struct cparse *c, struct cnode *n)
{
	if (!n->e)
		return unresolved(c, n);
	if (n->is_bool)
		return cfail(c, "a condition is not a number (compare numbers, "
			     "then combine with and, or, not)");
	if (n->e->code == LE_PATH &&
	    !comparable_path(c, n->e->path, n->e->npath))
		return false;
	return true;
}

// @p n as a condition: a path is a test, an integer expression "not 0".
static bool
to_bool(struct cparse *c, struct cnode *n)
{
	if (!n->e)
		return unresolved(c, n);
	if (n->is_bool)
		return true;
	if (n->is_num)
		return cfail(c, "a number alone is no condition");
	if (n->e->code == LE_PATH) {
		n->e->code = LE_TEST;
	} else {
		struct lexpr *z = new_expr(c, LE_NONZERO);
		if (!z)
			return false;
		z->a = n->e;
		n->e = z;
		if (++n->depth > IRS_EXPR_MAX_DEPTH)
			return cfail(c, "nested more than %d deep",
				     IRS_EXPR_MAX_DEPTH);
	}
	n->is_bool = true;
	return true;
}

// a OP b into @p a.
static bool
binary(struct cparse *c, uint8_t code, struct cnode *a, struct cnode *b)
{
	bool logic = code == LE_AND || code == LE_OR;
	if (!logic) {
		// an enum name takes the other side's enum
		if (!resolve_name(c, a, b) || !resolve_name(c, b, a) ||
		    !to_int(c, a) || !to_int(c, b))
			return false;
	} else if (!to_bool(c, a) || !to_bool(c, b)) {
		return false;
	}
	struct lexpr *e = new_expr(c, code);
	if (!e)
		return false;
	e->a = a->e;
	e->b = b->e;
	// unsigned as C's usual conversions make it (a shift: its left side)
	e->is_unsigned = !IRS_LE_BOOL(code) && (a->e->is_unsigned ||
		(code != LE_SHL && code != LE_SHR && b->e->is_unsigned));
	a->e = e;
	if (!a->en) {
		a->en = b->en;
		a->en_field = b->en_field;
	}
	a->depth = (uint16_t)((a->depth > b->depth ? a->depth : b->depth) + 1);
	a->is_bool = IRS_LE_BOOL(code);
	a->is_num = false;
	if (a->depth > IRS_EXPR_MAX_DEPTH)
		return cfail(c, "nested more than %d deep", IRS_EXPR_MAX_DEPTH);
	return true;
}

/* }====================================================== */

/* {====================================================== operators */

static bool
expr_unary(struct cparse *c, struct cnode *r)
{
	skip_ws(c);
	if (c->i < c->n && (c->s[c->i] == '-' || c->s[c->i] == '~')) {
		uint8_t code = c->s[c->i] == '-' ? LE_NEG : LE_BNOT;
		c->i++;
		if (!enter(c) || !expr_unary(c, r) || !to_int(c, r))
			return false;
		c->depth--;
		if (code == LE_NEG && r->e->code == LE_NUM) {	// -1
			r->e->k = (int64_t)(0 - (uint64_t)r->e->k);
			r->e->is_unsigned = false;
			return true;
		}
		struct lexpr *e = new_expr(c, code);
		if (!e)
			return false;
		e->a = r->e;
		e->is_unsigned = r->e->is_unsigned;
		r->e = e;
		r->is_num = false;
		if (++r->depth > IRS_EXPR_MAX_DEPTH)
			return cfail(c, "nested more than %d deep",
				     IRS_EXPR_MAX_DEPTH);
		return true;
	}
	return atom(c, r);
}

// One level of left-associative binary operators: @p ops, longest first,
// each with its code, and @p next the level above.
struct binop {
	const char *tok;
	uint8_t code;
};

static bool
level(struct cparse *c, struct cnode *r, const struct binop *ops, size_t nops,
      bool (*next)(struct cparse *, struct cnode *))
{
	if (!next(c, r))
		return false;
	for (;;) {
		size_t k;
		for (k = 0; k < nops; k++)
			if (at(c, ops[k].tok))
				break;
		if (k == nops)
			return true;
		// "&" is not "&&", "|" not "||": say what to write
		const char *t = ops[k].tok;
		size_t l = strlen(t);
		if (l == 1 && c->i + 1 < c->n && c->s[c->i + 1] == t[0] &&
		    (t[0] == '&' || t[0] == '|'))
			return cfail_at(c, "write 'and' and 'or' for conditions");
		c->i += l;
		struct cnode b;
		if (!next(c, &b) || !binary(c, ops[k].code, r, &b))
			return false;
	}
}

static bool
expr_prod(struct cparse *c, struct cnode *r)
{
	static const struct binop ops[] = { { "*", LE_MUL } };
	return level(c, r, ops, 1, expr_unary);
}

static bool
expr_sum(struct cparse *c, struct cnode *r)
{
	static const struct binop ops[] = { { "+", LE_ADD }, { "-", LE_SUB } };
	return level(c, r, ops, 2, expr_prod);
}

static bool
expr_shift(struct cparse *c, struct cnode *r)
{
	static const struct binop ops[] = { { "<<", LE_SHL },
					    { ">>", LE_SHR } };
	return level(c, r, ops, 2, expr_sum);
}

static bool
expr_band(struct cparse *c, struct cnode *r)
{
	static const struct binop ops[] = { { "&", LE_BAND } };
	return level(c, r, ops, 1, expr_shift);
}

static bool
expr_bxor(struct cparse *c, struct cnode *r)
{
	static const struct binop ops[] = { { "^", LE_BXOR } };
	return level(c, r, ops, 1, expr_band);
}

static bool
expr_bor(struct cparse *c, struct cnode *r)
{
	static const struct binop ops[] = { { "|", LE_BOR } };
	return level(c, r, ops, 1, expr_bxor);
}

static const struct binop relops[] = {	// longest first
	{ "==", LE_EQ }, { "!=", LE_NE }, { "~=", LE_NE }, { "<=", LE_LE },
	{ ">=", LE_GE }, { "<", LE_LT }, { ">", LE_GT },
};

// a [RELOP b]: one comparison, not a chain.
static bool
expr_cmp(struct cparse *c, struct cnode *r)
{
	if (!expr_bor(c, r))
		return false;
	for (size_t k = 0; k < ARRAY_SIZE(relops); k++) {
		if (!at(c, relops[k].tok))
			continue;
		c->i += strlen(relops[k].tok);
		struct cnode b;
		if (!expr_bor(c, &b) || !binary(c, relops[k].code, r, &b))
			return false;
		for (size_t j = 0; j < ARRAY_SIZE(relops); j++)
			if (at(c, relops[j].tok))
				return cfail_at(c, "one comparison at a time "
						"(a < b and b < c)");
		return true;
	}
	return true;
}

static bool
expr_not(struct cparse *c, struct cnode *r)
{
	if (!keyword(c, "not"))
		return expr_cmp(c, r);
	if (!enter(c) || !expr_not(c, r) || !to_bool(c, r))
		return false;
	c->depth--;
	struct lexpr *e = new_expr(c, LE_NOT);
	if (!e)
		return false;
	e->a = r->e;
	r->e = e;
	if (++r->depth > IRS_EXPR_MAX_DEPTH)
		return cfail(c, "nested more than %d deep", IRS_EXPR_MAX_DEPTH);
	return true;
}

static bool
expr_and(struct cparse *c, struct cnode *r)
{
	if (!expr_not(c, r))
		return false;
	while (keyword(c, "and")) {
		struct cnode b;
		if (!expr_not(c, &b) || !binary(c, LE_AND, r, &b))
			return false;
	}
	return true;
}

static bool
expr_or(struct cparse *c, struct cnode *r)
{
	if (!expr_and(c, r))
		return false;
	while (keyword(c, "or")) {
		struct cnode b;
		if (!expr_and(c, &b) || !binary(c, LE_OR, r, &b))
			return false;
	}
	return true;
}

/* }====================================================== */

// Whether a path's value can be a number: integers, enums, bools, floats,
// pointers (their address), unions of them, globals naming one, and an
// element of a sequence of them.
static bool
comparable_path(struct cparse *c, const struct lfield *const *path,
		uint32_t npath)
{
	const struct lfield *f = path[npath - 1];
	const struct lfield *v = f->kind == LK_PICK ? f->index_seq->seq->elem
		: f->kind == LK_GLOBAL ? f->glob->value : f;
	switch (v->kind) {
	case LK_INT: case LK_UINT: case LK_BOOL: case LK_ENUM: case LK_INDEX:
	case LK_FLOAT: case LK_PTR: case LK_REF: case LK_UNION: case LK_DELTA:
	case LK_SHAPE:
		return true;
	default:
		if (!strcmp(c->what, "condition"))
			return cfail(c, "'%s' is %s; comparisons take integers, "
				     "enums, bools, floats, pointers and unions "
				     "of them (test it alone: {?%s})", f->name,
				     irs_lkind_word(v), f->name);
		return cfail(c, "'%s' is %s; arithmetic takes integers, enums, "
			     "bools, floats, pointers and unions of them",
			     f->name, irs_lkind_word(v));
	}
}

const struct lexpr *
irs_cond_parse(struct irs_tpl *p, const char *s, size_t n, bool want_bool)
{
	struct cparse c = { .p = p, .s = s, .n = n,
			    .what = want_bool ? "condition" : "expression" };
	struct cnode r;
	if (!expr_or(&c, &r))
		return NULL;
	skip_ws(&c);
	if (c.i < c.n) {
		cfail_at(&c, want_bool ? "expected an operator, 'and', 'or' "
			 "or the end" : "expected an operator or the end");
		return NULL;
	}
	if (want_bool ? !to_bool(&c, &r) : !to_int(&c, &r))
		return NULL;
	return r.e;
}
