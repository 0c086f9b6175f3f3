// derived { ... }: a sequence made from another one of the same struct,
// as printers derive what they print: the elements that hold a condition,
// each mapped through a path to the node it names, in the other's order or
// sorted by an integer of that node. LLVM prints a block's predecessors as
// the parents of the terminators among its uses, in use-list order,
// repeats kept; MLIR sorts them by block number.
//
//   preds = derived { from = "uses", where = "user.id >= TermOpsBegin",
//                    map = "user.parent", of = ref "BasicBlock" }
//
// Or the nodes a numbering numbered in the scope the struct is in, in
// the order of their numbers: what a printer lists after the IR that
// uses them (LLVM's attribute groups #N and metadata !N at the end of a
// module):
//
//   groups = derived { numbering = "module_attrs", of = ref "AttributeSetNode" }
//
// The walk (walk/derived.c) computes the list once per frame, reading
// only; the elements are references, like any sequence's.
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

void
irs_cc_derived(struct irs_cc *c, const struct ltype *owner, int idx,
	      uint32_t line, const char *qual, struct lseq *s)
{
	lua_State *L = c->L;
	irs_cc_keys(c, idx, " from where map sort of numbering ", line, qual,
		    "derived");
	struct lderived *der = irs_cc_alloc(c, sizeof(*der));
	static const char *const keys[] = { "from", "where", "map", "sort" };
	for (int i = 0; i < 4; i++) {
		const char *v = irs_cc_str(c, idx, keys[i], line, qual);
		der->names[i] = v ? irs_cc_strdup(c, v) : NULL;
	}
	const char *nb = irs_cc_str(c, idx, "numbering", line, qual);
	der->numbering = nb ? irs_cc_strdup(c, nb) : NULL;
	if (!der->names[0] == !der->numbering)
		irs_lua_raisef(L, line, "%s: derived needs from = \"sequence\" "
			       "(a sequence field of %s) or numbering = "
			       "\"NAME\" (the nodes it numbered), one of "
			       "them", qual, owner->name);
	if (der->numbering && (der->names[2] || der->names[3]))
		irs_lua_raisef(L, line, "%s: a numbering's nodes come in the "
			       "order of their numbers: no map or sort", qual);
	der->line = line;
	struct lfield *e = irs_cc_alloc(c, sizeof(*e));
	if (lua_getfield(L, idx, "of") != LUA_TTABLE ||
	    !irs_fields_is_descriptor(L, -1))
		irs_lua_raisef(L, line, "%s: derived needs of = ref \"T\" (the "
			       "node each element names)", qual);
	irs_cc_field(c, NULL, "[]", qual, lua_gettop(L), e);
	lua_pop(L, 1);
	if (e->kind != LK_REF && e->kind != LK_PTR)
		irs_lua_raisef(L, line, "%s: derived's elements are ref \"T\" or "
			       "ptr \"T\"", qual);
	s->elem = e;
	s->stride = 8;
	s->der = der;
}

static void
raise_err(struct irs_cc *c, uint32_t line, const char *qual, const char *k,
	  const char *what, struct irs_error *err)
{
	char msg[400];
	snprintf(msg, sizeof(msg), "%s", err->message);
	irs_error_destroy(err);
	irs_lua_raisef(c->L, line, "%s: %s '%s': %s", qual, k, what, msg);
}

// Field path @p src of type @p t into @p v.
static void
path_of(struct irs_cc *c, const struct ltype *t, const char *src,
	const char *k, uint32_t line, const char *qual, struct lcval *v)
{
	struct irs_error *err = irs_template_path(c->lo, t, src, v);
	if (err)
		raise_err(c, line, qual, k, src, err);
}

void
irs_link_derived(struct irs_cc *c, const struct ltype *owner,
		const char *qual, struct lseq *s)
{
	struct lderived *der = s->der;
	uint32_t line = der->line;
	if (der->numbering) {
		// the numbering's name is linked with the numberings
		// (number.c); the condition is on the nodes themselves
		der->etype = s->elem->type;
		der->eptr = true;
		if (der->names[1]) {
			struct irs_error *err = irs_template_cond(c->lo,
				&c->lo->types[der->etype], der->names[1],
				&der->where);
			if (err)
				raise_err(c, line, qual, "where",
					  der->names[1], err);
		}
		return;
	}
	const struct lfield *from = irs_ltype_field(owner, der->names[0]);
	if (!from || from->kind != LK_SEQ || from->seq->kind == SEQ_ZIP ||
	    from->seq->kind == SEQ_DERIVED)
		irs_lua_raisef(c->L, line, "%s: from '%s' is no sequence field "
			       "of %s (nor a zip or derived)", qual,
			       der->names[0], owner->name);
	const struct lfield *e = from->seq->elem;
	if (e->kind != LK_EMBED && e->kind != LK_PTR && e->kind != LK_REF)
		irs_lua_raisef(c->L, line, "%s: from '%s' holds no structs, so "
			       "nothing to select by", qual, der->names[0]);
	der->from = from;
	der->etype = e->type;
	der->eptr = e->kind != LK_EMBED;
	struct irs_layout *lo = c->lo;
	const struct ltype *et = &lo->types[der->etype];
	if (der->names[1]) {
		struct irs_error *err = irs_template_cond(lo, et, der->names[1],
							  &der->where);
		if (err)
			raise_err(c, line, qual, "where", der->names[1], err);
	}
	uint32_t rtype = der->etype;
	if (der->names[2]) {
		path_of(c, et, der->names[2], "map", line, qual, &der->map);
		const struct lfield *last = der->map.path[der->map.npath - 1];
		if (last->kind != LK_PTR && last->kind != LK_REF)
			irs_lua_raisef(c->L, line, "%s: map '%s' ends at %s, "
				       "not a ptr or ref", qual, der->names[2],
				       last->name);
		rtype = last->type;
	}
	if (rtype != s->elem->type)
		irs_lua_raisef(c->L, line, "%s: derived gives %s, but of names "
			       "%s", qual, lo->types[rtype].name,
			       lo->types[s->elem->type].name);
	if (der->names[3])
		path_of(c, &lo->types[rtype], der->names[3], "sort", line,
			qual, &der->sort);
}
