// How much one struct's rendering can cost, checked when the layout loads:
// a text that shows a value field eight times, whose text shows another
// eight times, thirteen deep, renders 8^13 leaves of one node (issue 32
// item 1: the debugger hung for good). The walk bounds its work at run
// time too (steps and text, walk.h), but a layout whose texts multiply
// like this is refused here, in one line naming its struct.
//
// The cost of a template is its instructions, each plus the cost of what
// it renders in place: a value struct's text (embedded or behind a
// pointer), a referred node's ref template, an element's text (once: how
// many elements there are is memory's, bounded by the walk's limits), a
// union's costliest case. A node owned is rendered once per node, and is
// checked for itself. A type reached again on the way (a list of values
// rendered recursively) is memory's recursion, bounded by the walk's
// depth and reads: it counts once. The JSON record is costed the same
// way, by its fields.
#include <lua.h>

#include "layout/layout.h"

enum {
	// template instructions (and JSON fields) one struct may cost
	IRS_LAYOUT_MAX_EXPANSION = 1000000,
	// types inside each other on the way (the recursion here)
	EXPAND_MAX_CHAIN = 256,
};

enum { TEXT, REF, JSON, NCOST };

struct xp {
	struct irs_cc *c;
	uint64_t *cost[NCOST];		// per type, once known
	uint8_t *state[NCOST];		// 0 unknown, 1 on the way, 2 known
	uint32_t *heavy[NCOST];		// the type that costs it most
	uint32_t depth;
	uint32_t deepest;		// a type at the end of a chain too long
};

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX / 4 - b ? UINT64_MAX / 4 : a + b;
}

static uint64_t type_cost(struct xp *x, uint32_t t, int what);

// What rendering struct type @p t by @p what costs in place, noting it in
// *heavy when it is the costliest so far.
static uint64_t
child(struct xp *x, uint32_t t, int what, uint64_t *most, uint32_t *heavy)
{
	uint64_t k = type_cost(x, t, what);
	if (k > *most) {
		*most = k;
		*heavy = t;
	}
	return k;
}

// The cost of field @p f rendered as text ({f}) or written as JSON.
static uint64_t
field_cost(struct xp *x, const struct lfield *f, bool json, uint64_t *most,
	   uint32_t *heavy)
{
	const struct irs_layout *lo = x->c->lo;
	uint64_t k = 0;
	switch (f->kind) {
	case LK_EMBED: case LK_PTR: {
		const struct ltype *t = &lo->types[f->type];
		if (t->node)	// rendered once per node, or as a reference
			return json || f->kind == LK_EMBED ? 0
				: child(x, t->index, REF, most, heavy);
		return child(x, t->index, json ? JSON : TEXT, most, heavy);
	}
	case LK_REF:
		return json ? 0 : child(x, f->type, REF, most, heavy);
	case LK_UNION:
		for (uint32_t i = 0; i < f->un->ncases; i++) {
			uint64_t c = field_cost(x, f->un->cases[i], json, most,
						heavy);
			k = c > k ? c : k;
		}
		if (f->un->deflt) {
			uint64_t c = field_cost(x, f->un->deflt, json, most,
						heavy);
			k = c > k ? c : k;
		}
		return k;
	case LK_SEQ:
		return field_cost(x, f->seq->elem, json, most, heavy);
	case LK_INDEX: {
		const struct lfield *e = f->index_seq->seq->elem;
		if (e->kind == LK_EMBED && !json && !lo->types[e->type].node)
			return child(x, e->type, REF, most, heavy);
		return e->kind == LK_EMBED && json &&
		       !lo->types[e->type].node
			? child(x, e->type, JSON, most, heavy)
			: field_cost(x, e, json, most, heavy);
	}
	case LK_GLOBAL:
		return field_cost(x, f->glob->value, json, most, heavy);
	case LK_PICK: case LK_SLICE:
		return field_cost(x, f->index_seq, json, most, heavy);
	default:
		return 0;
	}
}

static uint64_t
expr_cost(struct xp *x, const struct lexpr *e, uint64_t *most,
	  uint32_t *heavy)
{
	if (!e)
		return 0;
	uint64_t k = 1;
	if (e->code == LE_LEN)		// renders its field aside
		k = sat_add(k, field_cost(x, e->path[e->npath - 1], false,
					  most, heavy));
	k = sat_add(k, expr_cost(x, e->a, most, heavy));
	return sat_add(k, expr_cost(x, e->b, most, heavy));
}

static uint64_t
template_cost(struct xp *x, const struct ltype *t,
	      const struct ltemplate *tpl, uint64_t *most, uint32_t *heavy)
{
	uint64_t k = 0;
	for (uint32_t i = 0; tpl && i < tpl->nops; i++) {
		const struct top *op = &tpl->ops[i];
		k = sat_add(k, 1);
		k = sat_add(k, expr_cost(x, op->cond, most, heavy));	// or expr
		k = sat_add(k, expr_cost(x, op->width, most, heavy));
		if (op->code == TOP_SELFREF)
			k = sat_add(k, child(x, t->index, REF, most, heavy));
		if (op->code == TOP_REFOF) {
			const struct lfield *f = op->path[op->npath - 1];
			const struct lfield *e = f->kind == LK_SEQ
				? f->seq->elem : f->kind == LK_PICK ||
				  f->kind == LK_SLICE
				? f->index_seq->seq->elem : f;
			k = sat_add(k, child(x, e->type, REF, most, heavy));
		} else if ((op->code == TOP_FIELD || op->code == TOP_SEQ) &&
			   op->npath) {
			k = sat_add(k, field_cost(x, op->path[op->npath - 1],
						  false, most, heavy));
		}
	}
	return k;
}

// The cost of text @p tx of @p t: its costliest template.
static uint64_t
text_cost(struct xp *x, const struct ltype *t, const struct ltext *tx,
	  uint64_t *most, uint32_t *heavy)
{
	uint64_t k = tx->kind == TX_LUA ? 1 : 0;
	if (tx->kind == TX_TEMPLATE)
		k = template_cost(x, t, tx->tpl, most, heavy);
	for (uint32_t i = 0; tx->kind == TX_BY && i <= tx->ncases; i++) {
		const struct ltemplate *tpl = i < tx->ncases ? tx->cases[i]
			: tx->deflt;
		uint64_t c = template_cost(x, t, tpl, most, heavy);
		k = c > k ? c : k;
	}
	return k;
}

static uint64_t
type_cost(struct xp *x, uint32_t ti, int what)
{
	const struct ltype *t = &x->c->lo->types[ti];
	if (x->state[what][ti] == 2)
		return x->cost[what][ti];
	if (x->state[what][ti] == 1)
		return 1;	// reached again: memory's recursion
	if (x->depth >= EXPAND_MAX_CHAIN) {
		x->deepest = ti;
		return UINT64_MAX / 4;
	}
	x->state[what][ti] = 1;
	x->depth++;
	uint64_t most = 0, k = 0;
	uint32_t heavy = IRS_NONE;
	if (what == JSON) {
		for (uint32_t i = 0; i < t->nfields; i++)
			k = sat_add(k, sat_add(1, field_cost(x, &t->fields[i],
						true, &most, &heavy)));
	} else {
		const struct ltext *tx = what == REF && t->ref.kind != TX_NONE
			? &t->ref : &t->text;
		k = text_cost(x, t, tx, &most, &heavy);
	}
	x->depth--;
	x->state[what][ti] = 2;
	x->cost[what][ti] = k;
	x->heavy[what][ti] = heavy;
	return k;
}

// "A -> B -> C": the costliest chain from @p t, for the message.
static const char *
chain(struct xp *x, uint32_t t, int what)
{
	char buf[200] = "";
	size_t n = 0;
	for (int i = 0; i < 8 && t != IRS_NONE; i++) {
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      i ? " -> " : "",
				      x->c->lo->types[t].name);
		if (n >= sizeof(buf))
			break;
		uint32_t next = x->heavy[what][t];
		if (what == REF || what == TEXT)
			what = TEXT;
		t = next;
	}
	return irs_cc_strdup(x->c, buf);
}

// Adds to @p out the types field @p f lays inline (an embed, a fixed
// array's elements, a union's cases): no read between the two. NULL @p out
// counts them.
static uint32_t
inline_types(const struct lfield *f, uint32_t *out)
{
	uint32_t n = 0;
	switch (f->kind) {
	case LK_EMBED:
		if (out)
			out[n] = f->type;
		return 1;
	case LK_SEQ:
		return f->seq->kind == SEQ_FIXED
			? inline_types(f->seq->elem, out) : 0;
	case LK_UNION:
		for (uint32_t i = 0; i < f->un->ncases; i++)
			n += inline_types(f->un->cases[i], out ? out + n : NULL);
		if (f->un->deflt)
			n += inline_types(f->un->deflt, out ? out + n : NULL);
		return n;
	default:
		return 0;
	}
}

// Refuses a value struct that lies inside itself (a same-sized embed at
// offset 0, through other values or not): rendering it renders it again
// at the same place, as deep as the walk goes, with nothing read. A
// colored depth-first search over "lies inline in", with a stack of its
// own (a layout may declare many types).
static void
check_inside_itself(struct irs_cc *c)
{
	struct irs_layout *lo = c->lo;
	uint32_t n = lo->ntypes, nedges = 0;
	uint32_t *first = irs_cc_alloc(c, (n + 2) * sizeof(*first));
	for (uint32_t i = 0; i < n; i++) {
		first[i] = nedges;
		for (uint32_t k = 0; k < lo->types[i].nfields; k++)
			nedges += inline_types(&lo->types[i].fields[k], NULL);
	}
	first[n] = nedges;
	uint32_t *edge = irs_cc_alloc(c, (nedges + 1) * sizeof(*edge));
	for (uint32_t i = 0, e = 0; i < n; i++)
		for (uint32_t k = 0; k < lo->types[i].nfields; k++)
			e += inline_types(&lo->types[i].fields[k], edge + e);
	uint8_t *color = irs_cc_alloc(c, n + 1);	// 0 new, 1 open, 2 done
	uint32_t *stack = irs_cc_alloc(c, (n + 1) * sizeof(*stack));
	uint32_t *next = irs_cc_alloc(c, (n + 1) * sizeof(*next));
	for (uint32_t s0 = 0; s0 < n; s0++) {
		if (color[s0])
			continue;
		uint32_t sp = 0;
		stack[sp++] = s0;
		color[s0] = 1;
		next[s0] = first[s0];
		while (sp) {
			uint32_t i = stack[sp - 1];
			if (next[i] == first[i + 1]) {
				color[i] = 2;
				sp--;
				continue;
			}
			uint32_t j = edge[next[i]++];
			if (lo->types[j].node)	// a node is visited once
				continue;
			if (color[j] == 1)
				irs_lua_raisef(c->L, lo->types[j].line,
					       "struct %s lies inside itself "
					       "(an embed, a fixed array or a "
					       "union case of it, at its own "
					       "offset): it would render itself "
					       "without end", lo->types[j].name);
			if (!color[j]) {
				color[j] = 1;
				next[j] = first[j];
				stack[sp++] = j;
			}
		}
	}
}

void
irs_cc_check_expansion(struct irs_cc *c)
{
	struct irs_layout *lo = c->lo;
	struct xp x = { .c = c };
	check_inside_itself(c);
	for (int k = 0; k < NCOST; k++) {
		x.cost[k] = irs_cc_alloc(c, (lo->ntypes + 1) * sizeof(uint64_t));
		x.state[k] = irs_cc_alloc(c, lo->ntypes + 1);
		x.heavy[k] = irs_cc_alloc(c, (lo->ntypes + 1) *
					  sizeof(uint32_t));
	}
	static const char *const what[] = { "its text", "its ref template",
					    "its JSON record" };
	for (uint32_t t = 0; t < lo->ntypes; t++)
		for (int k = 0; k < NCOST; k++) {
			x.deepest = IRS_NONE;
			uint64_t cost = type_cost(&x, t, k);
			if (x.deepest != IRS_NONE)
				irs_lua_raisef(c->L, lo->types[t].line,
					       "struct %s: %s shows structs "
					       "inside each other more than %d "
					       "deep (through %s)",
					       lo->types[t].name, what[k],
					       EXPAND_MAX_CHAIN,
					       lo->types[x.deepest].name);
			if (cost > IRS_LAYOUT_MAX_EXPANSION)
				irs_lua_raisef(c->L, lo->types[t].line,
					       "struct %s: %s runs more than "
					       "%d template steps for one %s "
					       "(%s: a field shown many times "
					       "whose text shows another many "
					       "times multiplies); show each "
					       "value once", lo->types[t].name,
					       what[k], IRS_LAYOUT_MAX_EXPANSION,
					       lo->types[t].name,
					       chain(&x, t, k));
		}
}
