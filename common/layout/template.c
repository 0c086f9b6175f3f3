// Text templates ("  {?has_result}{@ref} = {/}{op} {ops*, }\n") compiled
// once, when the layout loads, into a flat list of instructions the walker
// runs without parsing: literals, fields (with the path through ptr/ref
// fields resolved to struct lfield pointers), sequences with a separator,
// and conditionals as jumps. See docs/layout.md, "Text templates".
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"

struct tparse {
	struct irs_tpl base;	// lo, t, msg: what cond.c sees
	bool is_ref;
	struct top *ops;
	uint32_t nops;
	char *lits;
	uint32_t nlits;
	uint32_t conds[64];	// open {?}: index of the IF op
	int32_t elses[64];	// ... and of its JUMP op, or -1
	uint32_t nconds;
	bool target;		// the next op is a jump target
};

bool
irs_tpl_fail(struct irs_tpl *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return false;
}

#define fail(p, ...) irs_tpl_fail(&(p)->base, __VA_ARGS__)

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

/* {====================================================== paths */

// A path step (struct lfield of kind LK_PICK ...) named @p spelled.
static struct lfield *
new_step(struct irs_tpl *p, uint8_t kind, const char *spelled, size_t n)
{
	struct lfield *f = irs_layout_alloc(p->lo, sizeof(*f));
	char *name = irs_layout_strndup(p->lo, spelled, n);
	if (!f || !name) {
		irs_tpl_fail(p, "out of memory");
		return NULL;
	}
	f->name = name;
	f->kind = kind;
	f->type = IRS_NONE;
	f->index_type = IRS_NONE;
	f->fn = -1;	// LUA_NOREF
	return f;
}

// The struct type a path goes on through after @p f, or NULL: a ptr, ref
// or embed's, a picked element's (inline or pointed to), ^T's, ^prev's.
static const struct ltype *
struct_of(const struct irs_layout *lo, const struct lfield *f)
{
	switch (f->kind) {
	case LK_PTR: case LK_REF: case LK_EMBED: case LK_UP: case LK_PREV:
	case LK_PICK:
		return f->type != IRS_NONE ? &lo->types[f->type] : NULL;
	default:
		return NULL;
	}
}

// [lo] or [lo:hi] after sequence field @p seq: the step that replaces it.
static struct lfield *
subscript(struct irs_tpl *p, const struct lfield *seq, const struct lpc *c,
	  const char *s, size_t n)
{
	if (seq->kind != LK_SEQ)
		return irs_tpl_fail(p, "'%.*s': '%s' is %s, not a sequence "
				    "(only a sequence has elements to "
				    "subscript)", (int)n, s, seq->name,
				    irs_lkind_word(seq)), NULL;
	if (seq->seq->kind == SEQ_ZIP && c->kind == LPC_INDEX)
		return irs_tpl_fail(p, "'%.*s': the tuples of zip '%s' lie "
				    "nowhere to be picked (write {%s*SEP})",
				    (int)n, s, seq->name, seq->name), NULL;
	char name[160];
	if (c->kind == LPC_INDEX)
		snprintf(name, sizeof(name), "%s[%lld]", seq->name,
			 (long long)c->lo);
	else
		snprintf(name, sizeof(name), "%s[%.0lld:%.0lld]", seq->name,
			 (long long)c->lo, (long long)c->hi);
	struct lfield *st = new_step(p, c->kind == LPC_INDEX ? LK_PICK
				     : LK_SLICE, name, strlen(name));
	if (!st)
		return NULL;
	st->index_seq = seq;
	st->lo = c->has_lo ? c->lo : 0;
	st->hi = c->kind == LPC_INDEX || c->has_hi ? c->hi : INT64_MAX;
	// bounds given as field paths of the template's own struct
	for (int k = 0; k < 2; k++) {
		if (!c->bound_s[k])
			continue;
		// each bound is resolved by a call in this one: a hostile
		// layout nests them no deeper than this
		if (p->depth >= 4)
			return irs_tpl_fail(p, "'%.*s': slice bounds nested "
					    "more than 4 deep", (int)n, s),
			       NULL;
		struct lcval *v = irs_layout_alloc(p->lo, sizeof(*v));
		if (!v)
			return irs_tpl_fail(p, "out of memory"), NULL;
		memset(v, 0, sizeof(*v));
		p->depth++;
		bool ok = irs_tpl_path(p, c->bound_s[k], c->bound_n[k],
				       &v->path, &v->npath);
		p->depth--;
		if (!ok)
			return NULL;
		const struct lfield *b = v->path[v->npath - 1];
		if (b->kind == LK_SEQ || b->kind == LK_SLICE)
			return irs_tpl_fail(p, "'%.*s': bound '%.*s' is a "
					    "sequence, not an integer",
					    (int)n, s, (int)c->bound_n[k],
					    c->bound_s[k]), NULL;
		st->bound[k] = v;
	}
	const struct lfield *e = seq->seq->elem;
	if (e->kind == LK_EMBED || e->kind == LK_PTR || e->kind == LK_REF)
		st->type = e->type;
	return st;
}

bool
irs_tpl_path(struct irs_tpl *p, const char *s, size_t n,
	     const struct lfield ***path, uint8_t *npath)
{
	struct lpath lp;
	const struct lfield *buf[IRS_PATH_MAX];
	uint32_t np = 0;
	const struct ltype *cur = p->t;
	if (n == 0)
		return irs_tpl_fail(p, "empty field name");
	if (!irs_path_parse(s, n, &lp, p->msg, sizeof(p->msg)))
		return false;
	for (uint32_t i = 0; i < lp.n; i++) {
		const struct lpc *c = &lp.c[i];
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int)c->n, c->s);
		struct lfield *st;
		switch (c->kind) {
		case LPC_UP: {
			const struct ltype *t = irs_layout_find_type(p->lo, name);
			if (!t)
				return irs_tpl_fail(p, "'^%s': no struct %s in "
						    "the layout", name, name);
			if (!(st = new_step(p, LK_UP, s, c->n + 1)))
				return false;
			st->type = t->index;
			buf[np++] = st;
			cur = t;
			continue;
		}
		case LPC_PREV:
			if (!(st = new_step(p, LK_PREV, s, c->n + 1)))
				return false;
			st->type = p->t->index;
			p->t->uses_prev = p->lo->uses_prev = true;
			buf[np++] = st;
			cur = p->t;
			continue;
		case LPC_INDEX: case LPC_SLICE: {
			// it takes the sequence's place in the path
			const struct lfield *seq = buf[np - 1];
			if (seq->kind == LK_SLICE)
				return irs_tpl_fail(p, "'%.*s': a slice is the "
						    "end of a path", (int)n,
						    s);
			if (!(st = subscript(p, seq, c, s, n)))
				return false;
			buf[np - 1] = st;
			cur = struct_of(p->lo, st);
			continue;
		}
		}
		if (np > 0) {
			const struct lfield *prev = buf[np - 1];
			if (prev->kind == LK_SLICE)
				return irs_tpl_fail(p, "'%.*s': a slice is the "
						    "end of a path (write "
						    "{s[1:]*SEP})", (int)n, s);
			if (!cur)
				return irs_tpl_fail(p, "'%s' is %s, which has no "
						    "field '%s' (only ptr, ref "
						    "and embed fields, and "
						    "elements of structs, can "
						    "be followed)", prev->name,
						    irs_lkind_word(prev),
						    name);
		}
		const struct lfield *f = irs_ltype_field(cur, name);
		if (!f)
			return irs_tpl_fail(p, "unknown field '%s' in %s", name,
					    cur->name);
		buf[np++] = f;
		cur = struct_of(p->lo, f);
	}
	*path = irs_layout_alloc(p->lo, np * sizeof(**path));
	if (!*path)
		return irs_tpl_fail(p, "out of memory");
	memcpy(*path, buf, np * sizeof(**path));
	*npath = (uint8_t)np;
	return true;
}

// op->path of "a.b.c", "ops[0]", "^Fn.x" (@p n bytes at @p s).
static bool
parse_path(struct tparse *p, const char *s, size_t n, struct top *op)
{
	return irs_tpl_path(&p->base, s, n, &op->path, &op->npath);
}

/* }====================================================== */

static const struct lfield *
last(const struct top *op)
{
	return op->path[op->npath - 1];
}

// The first ':' of @p d (@p n bytes) outside brackets and parentheses,
// and not of a '::' (T::NAME): where a field's or expression's format
// starts. NULL when there is none.
static const char *
format_colon(const char *d, size_t n)
{
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		char c = d[i];
		if (c == '[' || c == '(')
			depth++;
		else if ((c == ']' || c == ')') && depth > 0)
			depth--;
		else if (c == ':' && depth == 0 && i + 1 < n && d[i + 1] == ':')
			i++;
		else if (c == ':' && depth == 0)
			return d + i;
	}
	return NULL;
}

// The first '*' of @p d outside brackets: where a sequence's separator
// starts.
static const char *
seq_star(const char *d, size_t n)
{
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		if (d[i] == '[')
			depth++;
		else if (d[i] == ']' && depth > 0)
			depth--;
		else if (d[i] == '*' && depth == 0)
			return d + i;
	}
	return NULL;
}

// {PATH*SEP} or {@PATH*SEP}: the separator goes into lits.
static bool
set_sep(struct tparse *p, struct top *op, const char *sep, size_t n)
{
	op->lit = p->nlits;
	op->len = (uint32_t)n;
	memcpy(p->lits + p->nlits, sep, n);
	p->nlits += (uint32_t)n;
	if (last(op)->kind != LK_SEQ && last(op)->kind != LK_SLICE)
		return fail(p, "'%s' is %s, not a sequence (the '*' joins "
			    "elements)", last(op)->name,
			    irs_lkind_word(last(op)));
	return true;
}

// The element field of a sequence or slice @p f.
static const struct lfield *
elem_of(const struct lfield *f)
{
	return f->kind == LK_SLICE ? f->index_seq->seq->elem : f->seq->elem;
}

static bool
directive_ref(struct tparse *p, const char *d, size_t n, struct top *op)
{
	if (n == 3 && !memcmp(d, "ref", 3)) {
		op->code = TOP_SELFREF;
		if (p->is_ref)
			return fail(p, "{@ref} inside %s's own ref template",
				    p->base.t->name);
		if (p->base.t->ref.kind == TX_NONE)
			return fail(p, "{@ref}: %s has no ref template",
				    p->base.t->name);
		return true;
	}
	op->code = TOP_REFOF;
	const char *star = seq_star(d, n);
	size_t pn = star ? (size_t)(star - d) : n;
	if (!parse_path(p, d, pn, op))
		return false;
	const struct lfield *f = last(op);
	if (star) {
		op->is_seq = true;
		if (!set_sep(p, op, star + 1, n - pn - 1))
			return false;
		f = elem_of(f);
	} else if (f->kind == LK_PICK) {
		f = f->index_seq->seq->elem;
	}
	if (f->kind != LK_PTR && f->kind != LK_REF && f->kind != LK_EMBED)
		return fail(p, "{@%.*s}: '%s' is %s; {@f} renders what a ptr "
			    "or ref points to by its ref template", (int)n, d,
			    last(op)->name, irs_lkind_word(f));
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

// FMT[:WIDTH] of @p f (@p n bytes) into op: a printf format with one
// conversion, its '*' width (if any) given by the integer expression
// after the next ':'. @p ints: only integer conversions.
static bool
format(struct tparse *p, const char *f, size_t n, struct top *op, bool ints)
{
	const char *wcolon = NULL;
	const char *star = memchr(f, '*', n);
	if (star)
		wcolon = format_colon(star, n - (size_t)(star - f));
	size_t fl = wcolon ? (size_t)(wcolon - f) : n;
	char *fmt = irs_layout_alloc(p->base.lo, 2 * fl + 16);
	if (!fmt)
		return fail(p, "out of memory");
	if (!irs_fmt_check(f, fl, fmt, &op->fmt_class) ||
	    (ints && op->fmt_class != 'i' && op->fmt_class != 'u' &&
	     op->fmt_class != 'c'))
		return fail(p, ints ? "bad format '%.*s' for an integer "
			    "expression (one integer conversion such as %%d, "
			    "%%4d, %%x or %%*d:WIDTH)" : "bad format '%.*s' "
			    "(one printf conversion such as %%d, %%04x, %%.6e, "
			    "%%-8s or %%-*s:WIDTH)", (int)fl, f);
	bool has_star = strchr(fmt, '*') != NULL;
	if (has_star != (wcolon != NULL))
		return fail(p, "format '%.*s': a '*' width is given by an "
			    "expression after another ':' ({f:%%-*s:20 - "
			    "len(g)}), and only then", (int)n, f);
	op->fmt = fmt;
	if (!has_star) {
		op->pad = string_pad(fmt);
		return true;
	}
	size_t wl = n - fl - 1;
	return (op->width = irs_cond_parse(&p->base, wcolon + 1, wl,
					   false)) != NULL;
}

static bool
directive_field(struct tparse *p, const char *d, size_t n, struct top *op)
{
	const char *star = seq_star(d, n);
	const char *colon = format_colon(d, n);
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
	const struct lfield *f = last(op);
	if (f->kind == LK_UP || f->kind == LK_PREV)
		return fail(p, "{%.*s} names a struct, not a field of it "
			    "(write {%.*s.field}; {?%.*s} tests there is one)",
			    (int)pn, d, (int)pn, d, (int)pn, d);
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
	if (!format(p, colon + 1, fl, op, false))
		return false;
	const struct lfield *v = f->kind == LK_PICK
		? f->index_seq->seq->elem : f;
	bool textual = v->kind == LK_CSTR || v->kind == LK_CHARS ||
		       v->kind == LK_STRN || v->kind == LK_SEQ ||
		       v->kind == LK_EMBED || f->kind == LK_SLICE;
	if (op->fmt_class != 's' && textual)
		return fail(p, "format '%.*s' is numeric but '%s' is %s",
			    (int)fl, colon + 1, f->name, irs_lkind_word(v));
	return true;
}

// {?EXPR} into op: a plain path as before (the walk's fast path), else
// op->cond.
static bool
directive_cond(struct tparse *p, const char *d, size_t n, struct top *op)
{
	const struct lexpr *e = irs_cond_parse(&p->base, d, n, true);
	if (!e)
		return false;
	if (e->code == LE_TEST) {	// {?f}, {?ops[0]}, {?^prev}
		op->path = e->path;
		op->npath = e->npath;
		return true;
	}
	op->cond = e;
	return true;
}

// {=EXPR} or {=EXPR:FMT} (an integer format) into op.
static bool
directive_expr(struct tparse *p, const char *d, size_t n, struct top *op)
{
	const char *colon = format_colon(d, n);
	size_t en = colon ? (size_t)(colon - d) : n;
	op->code = TOP_EXPR;
	if (!(op->expr = irs_cond_parse(&p->base, d, en, false)))
		return false;
	return !colon || format(p, colon + 1, n - en - 1, op, true);
}

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
				size_t l = strlen(p->base.msg);
				snprintf(p->base.msg + l,
					 sizeof(p->base.msg) - l,
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
	// the template's own state, for a path of no template (a shape's)
	struct irs_tpl p = { .lo = lo, .t = (struct ltype *)t };
	memset(ret, 0, sizeof(*ret));
	if (!irs_tpl_path(&p, path, strlen(path), &ret->path, &ret->npath))
		return irs_error_format(IRS_ERROR_LAYOUT, "%s", p.msg);
	return NULL;
}

struct irs_error *
irs_template_cond(struct irs_layout *lo, const struct ltype *t,
		  const char *src, const struct lexpr **ret)
{
	struct irs_tpl p = { .lo = lo, .t = (struct ltype *)t };
	const struct lexpr *k = irs_cond_parse(&p, src, strlen(src), true);
	if (!k)
		return irs_error_format(IRS_ERROR_LAYOUT, "%s", p.msg);
	*ret = k;
	return NULL;
}

struct irs_error *
irs_template_compile(struct irs_layout *lo, struct ltype *t,
		     const char *src, bool is_ref,
		     const struct ltemplate **ret)
{
	size_t len = strlen(src);
	struct ltemplate *tpl = irs_layout_alloc(lo, sizeof(*tpl));
	struct tparse p = {
		.base = { .lo = lo, .t = t }, .is_ref = is_ref,
		.ops = irs_layout_alloc(lo, (len + 1) * sizeof(struct top)),
		.lits = irs_layout_alloc(lo, len + 1),
	};
	char *copy = irs_layout_strndup(lo, src, len);
	if (!tpl || !p.ops || !p.lits || !copy)
		return &irs_enomem;
	if (len > UINT32_MAX / 2)
		return irs_error_format(IRS_ERROR_LAYOUT, "template too long");
	if (!parse(&p, src) || !fuse_literals(&p))
		return irs_error_format(IRS_ERROR_LAYOUT, "%s", p.base.msg);
	tpl->nops = p.nops;
	tpl->ops = p.ops;
	tpl->lits = p.lits;
	tpl->src = copy;
	*ret = tpl;
	return NULL;
}
