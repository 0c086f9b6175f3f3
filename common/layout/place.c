// Where a sequence lies when no pointer of its struct says so, as C++
// compilers lay objects out around one another: before the struct
// (LLVM's User keeps its Use[NumUserOperands] just before itself; MLIR's
// Operation its results, in reverse), after it (trailing objects:
// AttributeSetNode's Attribute[], mlir::Operation's BlockOperand[] and
// Region[]), behind a pointer outside it (a hung-off Use array at
// this - 8), past bytes computed from its fields (a PHI's blocks after
// ReservedSpace Uses), or elsewhere when a flag says so
// (HasHungOffUses). walk/place.c computes the address.
//
//   array { at = "before", count = "NumUserOperands", of = "Use",
//           alt = { when = "HasHungOffUses", ptr = -8 } }
//   array { at = "after", skip = { 16, { "numSuccs", 32 } },
//           count = "numRegions", of = "Region" }
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

enum { MAX_SKIP = 8 };

bool
irs_place_ptr_outside(struct irs_cc *c, int idx)
{
	lua_getfield(c->L, idx, "ptr");
	bool outside = lua_isinteger(c->L, -1) && lua_tointeger(c->L, -1) < 0;
	lua_pop(c->L, 1);
	return outside;
}

// skip = N | { N, "Type", { "field", K }, ... }
static void
skip_terms(struct irs_cc *c, const struct ltype *owner, int idx,
	   uint32_t line, const char *qual, struct lplace *pl)
{
	lua_State *L = c->L;
	int t = lua_getfield(L, idx, "skip");
	if (t == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	pl->skip = irs_cc_alloc(c, MAX_SKIP * sizeof(*pl->skip));
	if (lua_isinteger(L, -1)) {
		pl->skip[0].k = lua_tointeger(L, -1);
		pl->nskip = 1;
		lua_pop(L, 1);
		return;
	}
	if (t != LUA_TTABLE)
		irs_lua_raisef(L, line, "%s: skip is a number of bytes, or a "
			       "list of numbers, type names (their size) and "
			       "{ \"field\", bytes } pairs", qual);
	int list = lua_gettop(L);
	lua_Integer n = (lua_Integer)lua_rawlen(L, list);
	if (n > MAX_SKIP)
		irs_lua_raisef(L, line, "%s: skip of more than %d terms", qual,
			       MAX_SKIP);
	for (lua_Integer i = 1; i <= n; i++) {
		struct lterm *term = &pl->skip[pl->nskip++];
		lua_rawgeti(L, list, i);
		if (lua_isinteger(L, -1)) {
			term->k = lua_tointeger(L, -1);
			lua_pop(L, 1);
			continue;
		}
		if (lua_type(L, -1) == LUA_TSTRING) {	// a type's size
			term->k = irs_cc_type(c, lua_tostring(L, -1), line,
					      qual)->size;
			lua_pop(L, 1);
			continue;
		}
		if (!lua_istable(L, -1) || lua_rawgeti(L, -1, 2) != LUA_TNUMBER
		    || !lua_isinteger(L, -1))
			irs_lua_raisef(L, line, "%s: skip term %d is a number "
				       "or { \"field\", bytes }", qual, (int)i);
		term->k = lua_tointeger(L, -1);
		lua_pop(L, 1);
		struct irs_field_info info;
		lua_rawgeti(L, -1, 1);
		irs_cc_loc(c, owner, -1, line, qual, 8, &term->at, &info,
			   NULL);
		irs_cc_kind(c, &info, K_INTEGER, line, qual, "skip",
			    "an integer field");
		irs_cc_width(c, &term->at, line, qual);
		term->has_at = true;
		lua_pop(L, 2);
	}
	lua_pop(L, 1);
}

// The placement keys of the table at @p idx into @p pl; false when it has
// none of them.
static bool
place_keys(struct irs_cc *c, const struct ltype *owner, int idx,
	   uint32_t line, const char *qual, struct lplace *pl, bool nested)
{
	lua_State *L = c->L;
	const char *at = irs_cc_str(c, idx, "at", line, qual);
	bool outside = irs_place_ptr_outside(c, idx);
	bool any = at || outside;
	if (at && !strcmp(at, "before")) {
		pl->at = PLACE_BEFORE;
	} else if (at && !strcmp(at, "after")) {
		pl->at = PLACE_AFTER;
	} else if (at) {
		irs_lua_raisef(L, line, "%s: at is \"before\" (the elements "
			       "end where the struct starts) or \"after\" "
			       "(they start where it ends)", qual);
	} else if (outside) {
		int64_t off;
		irs_cc_int(c, idx, "ptr", line, qual, &off);
		if (off < -(1 << 20))
			irs_lua_raisef(L, line, "%s: ptr offset %lld is too "
				       "far", qual, (long long)off);
		pl->at = PLACE_PTR;
		pl->ptr_outside = true;
		pl->ptr_off = (int32_t)off;
	}
	pl->reverse = irs_cc_bool(c, idx, "reverse", false);
	if (pl->reverse && pl->at != PLACE_BEFORE)
		irs_lua_raisef(L, line, "%s: reverse = true is for at = "
			       "\"before\" (element 0 nearest the struct)",
			       qual);
	lua_getfield(L, idx, "skip");
	any |= !lua_isnil(L, -1);
	lua_pop(L, 1);
	skip_terms(c, owner, idx, line, qual, pl);
	if (lua_getfield(L, idx, "alt") == LUA_TNIL) {
		lua_pop(L, 1);
		return any;
	}
	if (nested || !lua_istable(L, -1))
		irs_lua_raisef(L, line, "%s: alt is { when = \"flag\", ... "
			       "another placement }, once", qual);
	int alt = lua_gettop(L);
	for (lua_pushnil(L); lua_next(L, alt); lua_pop(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING
			? lua_tostring(L, -2) : "?";
		if (strcmp(k, "when") && strcmp(k, "at") && strcmp(k, "ptr") &&
		    strcmp(k, "skip") && strcmp(k, "reverse"))
			irs_lua_raisef(L, line, "%s: alt has when, at, ptr, "
				       "skip and reverse, not '%s'", qual, k);
	}
	struct irs_field_info info;
	if (lua_getfield(L, alt, "when") == LUA_TNIL)
		irs_lua_raisef(L, line, "%s: alt needs when = \"flag\"", qual);
	irs_cc_loc(c, owner, -1, line, qual, 8, &pl->when, &info, NULL);
	irs_cc_kind(c, &info, K_INTEGER, line, qual, "alt's when",
		    "an integer or bitfield");
	irs_cc_width(c, &pl->when, line, qual);
	lua_pop(L, 1);
	struct lplace *a = irs_cc_alloc(c, sizeof(*a));
	lua_getfield(L, alt, "ptr");
	bool has_ptr = !lua_isnil(L, -1);
	lua_pop(L, 1);
	if (!place_keys(c, owner, alt, line, qual, a, true) || (has_ptr &&
							       !a->ptr_outside))
		irs_lua_raisef(L, line, "%s: alt places the elements with at "
			       "= \"before\" or \"after\", or ptr = a negative "
			       "offset", qual);
	pl->alt = a;
	lua_pop(L, 1);
	return true;
}

const struct lplace *
irs_cc_place(struct irs_cc *c, const struct ltype *owner, int idx,
	     uint32_t line, const char *qual)
{
	struct lplace *pl = irs_cc_alloc(c, sizeof(*pl));
	if (!place_keys(c, owner, idx, line, qual, pl, false))
		return NULL;
	if (!owner)
		irs_lua_raisef(c->L, line, "%s: an element has no place of "
			       "its own", qual);
	return pl;
}

static void
describe_one(struct irs_buf *b, const struct lplace *pl)
{
	if (pl->at == PLACE_BEFORE)
		irs_buf_puts(b, pl->reverse ? "before its struct, reversed"
			     : "before its struct");
	else if (pl->at == PLACE_AFTER)
		irs_buf_puts(b, "after its struct");
	else if (pl->ptr_outside)
		irs_buf_printf(b, "behind the pointer at %d", pl->ptr_off);
	else
		irs_buf_puts(b, "behind its pointer");
	for (uint32_t i = 0; i < pl->nskip; i++) {
		if (pl->skip[i].has_at)
			irs_buf_printf(b, "%s [%u] * %lld", i ? " +" : ", past",
				       pl->skip[i].at.offset,
				       (long long)pl->skip[i].k);
		else
			irs_buf_printf(b, "%s %lld", i ? " +" : ", past",
				       (long long)pl->skip[i].k);
	}
}

void
irs_place_describe(struct irs_buf *b, const struct lplace *pl)
{
	describe_one(b, pl);
	if (pl->alt) {
		irs_buf_printf(b, "; when [%u] is set, ", pl->when.offset);
		describe_one(b, pl->alt);
	}
}

// Field path @p name of @p owner into a new lcval.
static struct lcval *
link_path(struct irs_cc *c, const struct ltype *owner, const char *qual,
	  const struct lfield *f, const char *k, const char *name)
{
	struct lcval *v = irs_cc_alloc(c, sizeof(*v));
	struct irs_error *err = irs_template_path(c->lo, owner, name, v);
	if (err) {
		char msg[400];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		irs_lua_raisef(c->L, f->line, "%s: %s '%s': %s", qual, k, name,
			       msg);
	}
	return v;
}

void
irs_link_zip(struct irs_cc *c, const struct ltype *owner, const char *qual,
	     struct lfield *f)
{
	struct lseq *s = f->seq;
	if (s->length_name)
		s->length = link_path(c, owner, qual, f, "length",
				      s->length_name);
	if (s->present_src) {
		struct irs_error *err = irs_template_cond(c->lo, owner,
							  s->present_src,
							  &s->present);
		if (err) {
			char msg[400];
			snprintf(msg, sizeof(msg), "%s", err->message);
			irs_error_destroy(err);
			irs_lua_raisef(c->L, f->line, "%s: present '%s': %s",
				       qual, s->present_src, msg);
		}
	}
	for (uint32_t k = 0; k < s->ncomps; k++) {
		struct lzip *z = &s->comps[k];
		if (!z->count_name)
			continue;
		z->count = link_path(c, owner, qual, f, "count",
				     z->count_name);
	}
}
