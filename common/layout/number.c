// numbering "NAME" { scope = "T", ... }: numbers a printer gives the nodes
// it has no name for, found by walking the IR in its own order, and the
// field num "NAME" that shows a node's. LLVM's slot tracker numbers a
// function's unnamed arguments, blocks and non-void instructions %0, %1,
// ... in order; attribute groups #N and metadata !N by first use over the
// whole module, metadata depth first through its operands; MLIR numbers
// each region's values from where its parent region's stopped, sibling
// regions alike. A numbering is a list of steps, each a path from the
// struct it applies to (the scope's at the top) to a sequence, pointer or
// embedded struct whose nodes it visits in order:
//
//   numbering "slot" { scope = "Function",
//     { "args", when = "not HasName" },
//     { "blocks", when = "not HasName",
//       { "insts", when = "not HasName and VTy.ID != VoidTyID" } } }
//
// A visited node takes the next number of its step's counter when `when`
// holds (always without one), then the step's own steps run on it, then
// (recurse = true) the step itself again; claim = true marks a
// sequence's nodes entered, from the last, before it enters the first (a
// node a sibling reaches first is entered where this sequence lists it,
// a node listed twice where it is last: LLVM's TypeFinder, a worklist);
// `only` skips a node whole, and
// `guard` (a condition on the struct the step applies to) the step, and
// `as = "T"` sees that struct as T, a case of its cast. A
// node is numbered and entered once. nest = true visits the step's nodes
// after the rest of the current level, each as a level of its own whose
// counters start where the level ended (reset = { "block" } restarts
// some). The walk runs it once per scope node it meets (walk/number.c).
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

static const char numbering_key = 'n';

// numbering "NAME" { ... }: records { name, line, spec }.
static int
l_numbering_body(lua_State *L)
{
	const char *name = lua_tostring(L, lua_upvalueindex(1));
	if (lua_type(L, 1) != LUA_TTABLE)
		return luaL_error(L, "numbering \"%s\": expected a table "
				  "{ scope = \"T\", { \"path\", ... }, ... }",
				  name);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &numbering_key);
	lua_createtable(L, 0, 3);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_setfield(L, -2, "name");
	lua_pushinteger(L, irs_lua_user_line(L));
	lua_setfield(L, -2, "line");
	lua_pushvalue(L, 1);
	lua_setfield(L, -2, "spec");
	lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	return 0;
}

static int
l_numbering(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &numbering_key);
	lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, -1, i);
		lua_getfield(L, -1, "name");
		if (!strcmp(lua_tostring(L, -1), name))
			return luaL_error(L, "numbering \"%s\" declared twice",
					  name);
		lua_pop(L, 2);
	}
	lua_pushvalue(L, 1);
	lua_pushcclosure(L, l_numbering_body, 1);
	return 1;
}

// num "NAME" or num { "NAME", counter = "C" }: the node's number.
static int
l_num(lua_State *L)
{
	lua_createtable(L, 0, 2);		// the options, by name
	if (lua_type(L, 1) == LUA_TSTRING) {
		lua_pushvalue(L, 1);
		lua_setfield(L, -2, "name");
	} else {
		luaL_checktype(L, 1, LUA_TTABLE);
		lua_rawgeti(L, 1, 1);
		lua_setfield(L, -2, "name");
		lua_getfield(L, 1, "counter");
		lua_setfield(L, -2, "counter");
	}
	lua_replace(L, 1);
	lua_settop(L, 1);
	return irs_fields_table_ctor(L);	// its upvalue is "num"
}

void
irs_number_register(lua_State *L)
{
	lua_newtable(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &numbering_key);
	lua_pushcfunction(L, l_numbering);
	lua_setfield(L, -2, "numbering");
	lua_pushstring(L, "num");
	lua_pushcclosure(L, l_num, 1);
	lua_setfield(L, -2, "num");
}

/* {====================================================== compiling */

enum { MAX_STEPS = 256 };

struct ncc {
	struct irs_cc *c;
	struct lnumbering *nb;
	const char *qual;
	uint32_t line;
	struct {		// the step tables compiled: shared ones once
		const void *table;
		struct lnumstep *step;
	} seen[MAX_STEPS];
	uint32_t nseen;
};

// Counter @p name of the numbering (its index).
static uint8_t
counter(struct ncc *n, const char *name)
{
	for (uint32_t i = 0; i < n->nb->ncounters; i++)
		if (!strcmp(n->nb->counters[i], name))
			return (uint8_t)i;
	irs_lua_raisef(n->c->L, n->line, "%s: no counter '%s' (counters = "
		       "{ ... } names them)", n->qual, name);
}

static void compile_steps(struct ncc *n, const struct ltype *t, int tbl,
			  uint32_t first, struct lnumstep ***ret,
			  uint32_t *nret);

// The condition at key @p k of step @p st, over type @p t.
static const struct lexpr *
step_cond(struct ncc *n, const struct ltype *t, int st, const char *k)
{
	const char *src = irs_cc_str(n->c, st, k, n->line, n->qual);
	const struct lexpr *cond;
	if (!src)
		return NULL;
	struct irs_error *err = irs_template_cond(n->c->lo, t, src, &cond);
	if (err) {
		char msg[400];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		irs_lua_raisef(n->c->L, n->line, "%s: %s '%s' over %s: %s",
			       n->qual, k, src, t->name, msg);
	}
	return cond;
}

static void
compile_step(struct ncc *n, const struct ltype *t, int st,
	     struct lnumstep *s)
{
	s->owner = t->index;
	lua_State *L = n->c->L;
	struct irs_layout *lo = n->c->lo;
	for (lua_pushnil(L); lua_next(L, st); lua_pop(L, 1)) {
		if (lua_isinteger(L, -2))
			continue;
		const char *k = lua_type(L, -2) == LUA_TSTRING
			? lua_tostring(L, -2) : "?";
		static const char *const keys[] = { "when", "only", "guard",
			"counter", "recurse", "nest", "number", "as",
			"claim" };
		bool known = false;
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			known |= !strcmp(k, keys[i]);
		if (!known)
			irs_lua_raisef(L, n->line, "%s: a step has a path, "
				       "when, only, guard, counter, recurse, "
				       "nest, claim and steps, not '%s'",
				       n->qual, k);
	}
	if (lua_rawgeti(L, st, 1) != LUA_TSTRING)
		irs_lua_raisef(L, n->line, "%s: each step starts with a path "
			       "(\"blocks\", \"Parent.globals\")", n->qual);
	const char *path = lua_tostring(L, -1);
	// as = "T": the struct seen as T, one its cast picks (a call among
	// instructions, with a guard on its tag)
	const char *as = irs_cc_str(n->c, st, "as", n->line, n->qual);
	if (as)
		t = irs_cc_type(n->c, as, n->line, n->qual);
	struct irs_error *err = irs_template_path(lo, t, path, &s->path);
	if (err) {
		char msg[400];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		irs_lua_raisef(L, n->line, "%s: step '%s' of %s: %s", n->qual,
			       path, t->name, msg);
	}
	lua_pop(L, 1);
	const struct lfield *last = s->path.path[s->path.npath - 1];
	// (a zip's elements are its tuples, at its first array's elements;
	// a lookup's value is what its map holds for the struct)
	const struct lfield *e = last->kind == LK_SEQ ? last->seq->elem
		: last->kind == LK_SHAPE && last->shape->kind == SH_LOOKUP
		? last->shape->lookup->as : last;
	if (last->kind == LK_SHAPE && last->shape->kind != SH_LOOKUP)
		e = last;
	if (e->kind != LK_EMBED && e->kind != LK_PTR && e->kind != LK_REF)
		irs_lua_raisef(L, n->line, "%s: step '%s' ends at %s, not a "
			       "sequence of structs, a ptr, ref or embed",
			       n->qual, path, last->name);
	s->etype = e->type;
	const struct ltype *et = &lo->types[s->etype];
	s->if_ = step_cond(n, t, st, "guard");
	s->when = step_cond(n, et, st, "when");
	s->only = step_cond(n, et, st, "only");
	const char *cn = irs_cc_str(n->c, st, "counter", n->line, n->qual);
	s->counter = cn ? counter(n, cn) : 0;
	s->recurse = irs_cc_bool(n->c, st, "recurse", false);
	s->nest = irs_cc_bool(n->c, st, "nest", false);
	s->claim = irs_cc_bool(n->c, st, "claim", false);
	if (s->claim && (s->nest || last->kind != LK_SEQ))
		irs_lua_raisef(L, n->line, "%s: step '%s' claims its nodes: "
			       "a sequence, and not nested", n->qual, path);
	s->number = irs_cc_bool(n->c, st, "number", true);
	if (s->recurse && s->etype != t->index)
		irs_lua_raisef(L, n->line, "%s: step '%s' recurses, so its "
			       "nodes are %ss as the step's struct is, not "
			       "%ss", n->qual, path, t->name, et->name);
	compile_steps(n, et, st, 2, &s->steps, &s->nsteps);
}

// The step table at @p st, over struct @p t: compiled once however many
// places name it (itself among them: an MLIR region's ops' regions).
static struct lnumstep *
step_of(struct ncc *n, const struct ltype *t, int st)
{
	const void *key = lua_topointer(n->c->L, st);
	for (uint32_t i = 0; i < n->nseen; i++) {
		if (n->seen[i].table != key)
			continue;
		if (n->seen[i].step->owner != t->index)
			irs_lua_raisef(n->c->L, n->line, "%s: a step shared "
				       "between %s and %s", n->qual,
				       n->c->lo->types[n->seen[i].step->owner]
				       .name, t->name);
		return n->seen[i].step;
	}
	if (n->nseen == MAX_STEPS)
		irs_lua_raisef(n->c->L, n->line, "%s: more than %d steps",
			       n->qual, MAX_STEPS);
	struct lnumstep *s = irs_cc_alloc(n->c, sizeof(*s));
	n->seen[n->nseen].table = key;
	n->seen[n->nseen++].step = s;
	compile_step(n, t, st, s);
	return s;
}

static void
compile_steps(struct ncc *n, const struct ltype *t, int tbl, uint32_t first,
	      struct lnumstep ***ret, uint32_t *nret)
{
	lua_State *L = n->c->L;
	uint32_t count = (uint32_t)lua_rawlen(L, tbl);
	*nret = count >= first ? count - first + 1 : 0;
	*ret = irs_cc_alloc(n->c, (*nret + 1) * sizeof(**ret));
	luaL_checkstack(L, 8, "numbering nested too deep");
	for (uint32_t i = first; i <= count; i++) {
		if (lua_rawgeti(L, tbl, i) != LUA_TTABLE)
			irs_lua_raisef(L, n->line, "%s: step %u is { \"path\", "
				       "... }", n->qual, i);
		(*ret)[i - first] = step_of(n, t, lua_gettop(L));
		lua_pop(L, 1);
	}
}

static void
compile_numbering(struct irs_cc *c, int e, struct lnumbering *nb)
{
	lua_State *L = c->L;
	int64_t line = 0;
	irs_cc_int(c, e, "line", 0, "numbering", &line);
	nb->line = (uint32_t)line;
	nb->name = irs_cc_strdup(c, irs_cc_str(c, e, "name", 0, "numbering"));
	// the compiler's state: big (seen[]), so the layout's, not the stack's
	struct ncc *n = irs_cc_alloc(c, sizeof(*n));
	n->c = c;
	n->nb = nb;
	n->qual = irs_cc_printf(c, "numbering \"%s\"", nb->name);
	n->line = nb->line;
	lua_getfield(L, e, "spec");
	int spec = lua_gettop(L);
	for (lua_pushnil(L); lua_next(L, spec); lua_pop(L, 1))
		if (!lua_isinteger(L, -2) && (lua_type(L, -2) != LUA_TSTRING ||
		    (strcmp(lua_tostring(L, -2), "scope") &&
		     strcmp(lua_tostring(L, -2), "counters") &&
		     strcmp(lua_tostring(L, -2), "reset"))))
			irs_lua_raisef(L, n->line, "%s: keys are scope, "
				       "counters, reset and the steps",
				       n->qual);
	const char *scope = irs_cc_str(c, spec, "scope", n->line, n->qual);
	if (!scope)
		irs_lua_raisef(L, n->line, "%s needs scope = \"T\" (the struct "
			       "whose nodes it numbers)", n->qual);
	const struct ltype *st = irs_cc_type(c, scope, n->line, n->qual);
	nb->scope = st->index;
	nb->counters[0] = "n";
	nb->ncounters = 1;
	if (lua_getfield(L, spec, "counters") == LUA_TTABLE) {
		uint32_t k = (uint32_t)lua_rawlen(L, -1);
		if (k < 1 || k > IRS_NUM_COUNTERS)
			irs_lua_raisef(L, n->line, "%s: 1 to %d counters",
				       n->qual, IRS_NUM_COUNTERS);
		for (uint32_t i = 0; i < k; i++) {
			lua_rawgeti(L, -1, i + 1);
			const char *cn = lua_tostring(L, -1);
			if (!cn)
				irs_lua_raisef(L, n->line, "%s: counters are "
					       "names", n->qual);
			nb->counters[i] = irs_cc_strdup(c, cn);
			lua_pop(L, 1);
		}
		nb->ncounters = k;
	}
	lua_pop(L, 1);
	if (lua_getfield(L, spec, "reset") == LUA_TTABLE) {
		uint32_t k = (uint32_t)lua_rawlen(L, -1);
		for (uint32_t i = 1; i <= k; i++) {
			lua_rawgeti(L, -1, i);
			const char *cn = lua_tostring(L, -1);
			nb->reset_mask |= (uint8_t)(1u << counter(n, cn ? cn
								  : "?"));
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
	compile_steps(n, st, spec, 1, &nb->steps, &nb->nsteps);
	lua_pop(L, 1);
}

// The num fields of @p f (in unions too) linked to their numberings.

// num "N" { scope = F }: F, a field of the numbered struct, points at
// the node whose numbering numbers it (a ptr or ref to the numbering's
// scope type).
static void
link_scope(struct irs_cc *c, const struct ltype *t, const struct lfield *f,
	   const struct lnumbering *nb, struct lnum *nm)
{
	for (uint32_t j = 0; j < t->nfields; j++) {
		const struct lfield *s = &t->fields[j];
		if (strcmp(s->name, nm->scope_name))
			continue;
		if ((s->kind != LK_PTR && s->kind != LK_REF) ||
		    s->type != nb->scope)
			break;
		nm->scope = s;
		return;
	}
	irs_lua_raisef(c->L, f->line, "%s.%s: scope '%s' is no ptr or ref "
		       "field of %s pointing at a %s (numbering \"%s\"'s "
		       "scope)", t->name, f->name, nm->scope_name, t->name,
		       c->lo->types[nb->scope].name, nb->name);
}

static void
link_nums(struct irs_cc *c, const struct ltype *t, struct lfield *f)
{
	if (f->kind == LK_UNION) {
		for (uint32_t i = 0; i < f->un->ncases; i++)
			link_nums(c, t, f->un->cases[i]);
		if (f->un->deflt)
			link_nums(c, t, f->un->deflt);
		return;
	}
	if (f->kind == LK_SEQ && f->seq->kind == SEQ_DERIVED &&
	    f->seq->der->numbering) {
		struct lderived *der = f->seq->der;
		for (uint32_t i = 0; i < c->lo->nnumberings; i++)
			if (!strcmp(c->lo->numberings[i].name,
				    der->numbering)) {
				der->nb = i;
				return;
			}
		irs_lua_raisef(c->L, f->line, "%s.%s: no numbering \"%s\" "
			       "(declare numbering \"%s\" { ... })", t->name,
			       f->name, der->numbering, der->numbering);
	}
	if (f->kind != LK_SHAPE || f->shape->kind != SH_NUMBER)
		return;
	struct lnum *nm = (struct lnum *)f->shape->num;
	const struct irs_layout *lo = c->lo;
	for (uint32_t i = 0; i < lo->nnumberings; i++) {
		const struct lnumbering *nb = &lo->numberings[i];
		if (strcmp(nb->name, nm->name))
			continue;
		nm->numbering = i;
		nm->counter = IRS_NONE;
		for (uint32_t k = 0; nm->counter_name && k < nb->ncounters;
		     k++)
			if (!strcmp(nb->counters[k], nm->counter_name))
				nm->counter = k;
		if (nm->counter_name && nm->counter == IRS_NONE)
			irs_lua_raisef(c->L, f->line, "%s.%s: numbering \"%s\" "
				       "has no counter '%s'", t->name, f->name,
				       nm->name, nm->counter_name);
		if (nm->scope_name)
			link_scope(c, t, f, nb, nm);
		return;
	}
	irs_lua_raisef(c->L, f->line, "%s.%s: no numbering \"%s\" (declare "
		       "numbering \"%s\" { ... })", t->name, f->name, nm->name,
		       nm->name);
}

void
irs_cc_numberings(struct irs_cc *c)
{
	lua_State *L = c->L;
	struct irs_layout *lo = c->lo;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &numbering_key);
	int list = lua_gettop(L);
	uint32_t n = (uint32_t)lua_rawlen(L, list);
	lo->numberings = irs_cc_alloc(c, (n + 1) * sizeof(*lo->numberings));
	for (uint32_t i = 0; i < n; i++) {
		lua_rawgeti(L, list, i + 1);
		compile_numbering(c, lua_gettop(L), &lo->numberings[i]);
		lo->nnumberings = i + 1;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	for (uint32_t i = 0; i < lo->ntypes; i++)
		for (uint32_t j = 0; j < lo->types[i].nfields; j++)
			link_nums(c, &lo->types[i], &lo->types[i].fields[j]);
}

void
irs_cc_num(struct irs_cc *c, int idx, uint32_t line, const char *qual,
	   struct lnum *nm)
{
	irs_cc_keys(c, idx, " name counter scope ", line, qual, "num");
	const char *name = irs_cc_str(c, idx, "name", line, qual);
	if (!name)
		irs_lua_raisef(c->L, line, "%s: num \"NAME\" names a numbering",
			       qual);
	nm->name = irs_cc_strdup(c, name);
	const char *cn = irs_cc_str(c, idx, "counter", line, qual);
	nm->counter_name = cn ? irs_cc_strdup(c, cn) : NULL;
	const char *sn = irs_cc_str(c, idx, "scope", line, qual);
	nm->scope_name = sn ? irs_cc_strdup(c, sn) : NULL;
	nm->numbering = IRS_NONE;
}

/* }====================================================== */
