// Lua's view of a node, for the slow paths the layout chose (text =
// function, computed fields) and for verifiers: a table of the node's
// fields, built from its frame. Lua is entered through irs_lua_pcall only;
// a Lua error there becomes a walk error and the walk goes on.
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout_internal.h"

static void push_field(lua_State *L, struct walk *w, struct frame *f,
		       const struct lfield *fd);

static void
push_id(lua_State *L, uint64_t addr)
{
	char tmp[24];
	lua_pushlstring(L, tmp, irs_fmt_hex(tmp, addr));
}

// A struct: nodes by id, values as nested tables.
static void
push_struct(lua_State *L, struct walk *w, const struct ltype *t,
	    uint64_t addr, const void *data, const struct lfield *via)
{
	if (t->node) {
		push_id(L, addr);
		return;
	}
	struct frame *f = irs_walk_push(w, t, addr, data, via);
	if (!f) {
		lua_pushnil(L);
		return;
	}
	irs_lua_push_node(L, w, f);
	irs_walk_pop(w);
}

static void
push_string(lua_State *L, struct walk *w, struct frame *f,
	    const struct lfield *fd)
{
	uint64_t p = irs_load_u(f->data, &fd->at);
	struct irs_buf *b = &w->scratch;
	struct irs_error *err;
	bool cut;
	if (!p) {
		lua_pushnil(L);
		return;
	}
	if (fd->kind == LK_CSTR) {
		err = irs_walk_cstr(w, p, b, &cut);
	} else {
		uint64_t len = irs_load_u(f->data, &fd->len);
		if (len > w->lim.max_string)
			len = w->lim.max_string;
		w->str_addr = 0;
		if (!irs_walk_room(b, len))
			irs_lua_raise(L, &irs_enomem);
		err = len ? irs_walk_read(w, p, b->data, len) : NULL;
		b->len = len;
	}
	if (err) {
		irs_error_destroy(err);
		lua_pushnil(L);
		return;
	}
	lua_pushlstring(L, b->data, b->len);
}

static void
push_seq(lua_State *L, struct walk *w, struct frame *f,
	 const struct lfield *fd)
{
	struct seq_iter it;
	uint64_t addr;
	const unsigned char *data;
	const struct lfield *e = fd->seq->elem;
	lua_newtable(L);
	irs_seq_begin(w, f, fd, &it);
	for (lua_Integer k = 1; irs_seq_next(w, &it, &addr, &data); k++) {
		if (e->kind == LK_EMBED) {
			push_struct(L, w, &w->lo->types[e->type], addr, data,
				    fd);
		} else {
			struct frame *sf = irs_walk_push_slot(w, addr, data,
							      fd->seq->stride);
			if (sf) {
				push_field(L, w, sf, e);
				irs_walk_pop(w);
			} else {
				lua_pushboolean(L, 0);	// keep the index
			}
		}
		lua_rawseti(L, -2, k);
	}
}

static void
push_field(lua_State *L, struct walk *w, struct frame *f,
	   const struct lfield *fd)
{
	luaL_checkstack(L, 4, "node too deep");
	switch (fd->kind) {
	case LK_INT: case LK_INDEX:
		lua_pushinteger(L, irs_field_int(f, fd));
		return;
	case LK_UINT:
		lua_pushinteger(L, (lua_Integer)irs_load_u(f->data, &fd->at));
		return;
	case LK_BOOL:
		lua_pushboolean(L, irs_load_u(f->data, &fd->at) != 0);
		return;
	case LK_FLOAT:
		lua_pushnumber(L, irs_load_f(f->data, &fd->at));
		return;
	case LK_ENUM: {
		int64_t v = irs_field_int(f, fd);
		const char *name = irs_lenum_name(fd->en, v);
		if (name)
			lua_pushstring(L, name);
		else
			lua_pushinteger(L, v);
		return;
	}
	case LK_CSTR: case LK_STRN:
		push_string(L, w, f, fd);
		return;
	case LK_CHARS: {
		const char *s = (const char *)f->data + fd->at.offset;
		const char *nul = memchr(s, 0, fd->nchars);
		lua_pushlstring(L, s, nul ? (size_t)(nul - s) : fd->nchars);
		return;
	}
	case LK_PTR: {
		uint64_t p = irs_load_ptr(f, fd);
		if (p)
			push_struct(L, w, &w->lo->types[fd->type], p, NULL, fd);
		else
			lua_pushnil(L);
		return;
	}
	case LK_REF: {
		uint64_t p = irs_load_ptr(f, fd);
		if (p)
			push_id(L, p);
		else
			lua_pushnil(L);
		return;
	}
	case LK_EMBED:
		push_struct(L, w, &w->lo->types[fd->type],
			    f->addr + fd->at.offset, f->data + fd->at.offset,
			    fd);
		return;
	case LK_UNION: {
		const struct lfield *c = irs_union_case(w, f, fd, false);
		if (c)
			push_field(L, w, f, c);
		else
			lua_pushnil(L);
		return;
	}
	case LK_SEQ:
		push_seq(L, w, f, fd);
		return;
	case LK_COMPUTED:
		lua_pushnil(L);	// no Lua from Lua
		return;
	}
}

void
irs_lua_push_node(lua_State *L, struct walk *w, struct frame *f)
{
	const struct ltype *t = f->t;
	lua_createtable(L, 0, (int)t->nfields + 3);
	for (uint32_t i = 0; i < t->nfields; i++) {
		push_field(L, w, f, &t->fields[i]);
		lua_setfield(L, -2, t->fields[i].name);
	}
	push_id(L, f->addr);
	lua_setfield(L, -2, "_id");
	lua_pushstring(L, t->name);
	lua_setfield(L, -2, "_type");
	lua_pushinteger(L, (lua_Integer)f->addr);
	lua_setfield(L, -2, "_addr");
}

struct lcall {
	struct walk *w;
	struct frame *f;
	int ref;
	bool want_string;
};

static int
l_call(lua_State *L)
{
	struct lcall *c = lua_touserdata(L, 1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, c->ref);
	irs_lua_push_node(L, c->w, c->f);
	lua_call(L, 1, 1);
	if (!c->want_string)
		return 1;
	if (lua_isnil(L, -1))
		lua_pushliteral(L, "");
	else if (lua_type(L, -1) == LUA_TNUMBER ||
		 lua_type(L, -1) == LUA_TBOOLEAN)
		luaL_tolstring(L, -1, NULL);
	else if (lua_type(L, -1) != LUA_TSTRING)
		return luaL_error(L, "a text function of %s returned a %s, "
				  "not a string", c->f->t->name,
				  luaL_typename(L, -1));
	return 1;
}

bool
irs_walk_call_lua(struct walk *w, struct frame *f, int ref,
		  const struct lfield *via, bool want_string)
{
	struct irs_lua *x = w->lo->lua;
	lua_State *L = irs_lua_state(x);
	struct lcall c = { w, f, ref, want_string };
	// A function that ran out of its budget once would do it again on
	// every node (thousands of budgets): once one has, no more Lua runs
	// in this walk; nor once the walk's calls used their shared budget.
	if (w->lua_spent) {
		irs_walk_error(w, via, f->addr, "%s:%u: not run: the layout's "
			       "Lua ran out of its instruction budget earlier "
			       "in this walk", irs_lua_file(x),
			       via ? via->line : 0);
		return false;
	}
	// a Lua error may leave frames pushed: put the walk back as it was
	uint32_t depth = w->depth, detached = w->detached;
	uint32_t node_frame = w->node_frame;
	w->ctx_uses++;		// Lua may keep state: never cache its text
	lua_pushcfunction(L, l_call);
	lua_pushlightuserdata(L, &c);
	struct irs_error *err = irs_lua_pcall(x, 1, 1);
	w->lua_steps += irs_lua_steps_used(x);
	if ((err && irs_lua_ran_out(x)) || w->lua_steps > IRS_WALK_LUA_STEPS)
		w->lua_spent = true;
	w->depth = depth;
	w->detached = detached;
	w->node_frame = node_frame;
	if (!err)
		return true;
	if (err->code == IRS_ERROR_NOMEM) {
		w->fatal = err;
		w->stop = true;
		return false;
	}
	irs_walk_error(w, via, f->addr, "%s", err->message);
	irs_error_destroy(err);
	return false;
}
