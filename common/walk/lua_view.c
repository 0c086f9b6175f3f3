// Lua's view of a node, for the slow paths the layout chose (text =
// function, computed fields) and for verifiers: a table of the node's
// fields, built from its frame. Lua is entered through irs_lua_pcall only;
// a Lua error there becomes a walk error and the walk goes on.
//
// During a walk's call, a node table is lazy: it keeps the struct's bytes
// and reads a field (a string, a sequence, a value behind a pointer) when
// the function asks for it, so a pure function reads what it uses and no
// more (issue 27 item 11: tables read every field, and a field the text
// never shows that changed between two passes made a snapshot walked
// instead of copied). A verifier's tables are whole.
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "walk/walk.h"

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
	irs_lua_push_at(L, w, t, addr, data, via);
}

static void
push_string(lua_State *L, struct walk *w, struct frame *f,
	    const struct lfield *fd)
{
	uint64_t p = irs_string_addr(f, fd);
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
		uint64_t len = irs_string_len(f, fd);
		if (len > w->lim.max_string)
			len = w->lim.max_string;
		w->str_addr = 0;
		if (!irs_walk_room(b, len))
			irs_lua_raise(L, &irs_enomem);
		err = len ? irs_walk_read(w, p, b->data, len) : NULL;
		b->len = len;
	}
	if (err) {
		// nil to Lua, as NULL is, but never silently
		if (err->code == IRS_ERROR_NOMEM)
			irs_lua_raise(L, err);
		irs_walk_unreadable_string(w, fd, p, err);
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
		w->next_elem = (uint64_t)k - 1;	// for its delta fields
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
		w->next_elem = UINT64_MAX;
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
	case LK_DELTA: {
		int64_t v;
		if (irs_walk_delta(w, f, fd, &v))
			lua_pushinteger(L, (lua_Integer)v);
		else
			lua_pushnil(L);
		return;
	}
	case LK_SHAPE:
		irs_shape_lua(L, w, f, fd);
		return;
	case LK_GLOBAL: {	// the value it names, as JSON has it
		uint64_t a;
		const struct lglob *g = fd->glob;
		if (!irs_walk_global(w, f, fd, false, &a)) {
			lua_pushnil(L);
			return;
		}
		if (g->value->kind == LK_EMBED) {
			const struct ltype *t = &w->lo->types[g->value->type];
			if (t->node)
				push_id(L, a);
			else
				push_struct(L, w, t, a, NULL, fd);
			return;
		}
		struct frame *sf = irs_walk_push_slot(w, a, NULL,
						      g->value_size);
		if (!sf) {
			lua_pushnil(L);
			return;
		}
		push_field(L, w, sf, g->value);
		irs_walk_pop(w);
		return;
	}
	case LK_PICK: case LK_SLICE: case LK_UP: case LK_PREV:
		lua_pushnil(L);		// steps of template paths, no fields
		return;
	}
}

void
irs_lua_push_field(lua_State *L, struct walk *w, struct frame *f,
		   const struct lfield *fd)
{
	push_field(L, w, f, fd);
}

void
irs_lua_push_at(lua_State *L, struct walk *w, const struct ltype *t,
		uint64_t addr, const void *data, const struct lfield *via)
{
	struct frame *f = irs_walk_push(w, t, addr, data, via);
	if (!f) {
		lua_pushnil(L);
		return;
	}
	irs_lua_push_node(L, w, f);
	irs_walk_pop(w);
}

/* {====================================================== lazy tables */

// What a lazy node table keeps (a userdata under view_key): the struct's
// bytes and where it was, to read its fields from when they are asked.
struct lview {
	const struct ltype *t;	// the layout's, which the Lua state lives in
	uint64_t addr;
	uint64_t elem;		// its index in its sequence ({=#}, deltas)
	uint64_t gen;		// the call it was made in (walk.lua_gen)
	unsigned char data[];
};

static const char view_key = 'l';
static const char view_mt_key = 'm';
// Numbers every walk's Lua calls (a layout serves one walk at a time).
static uint64_t call_serial;

static struct walk *walk_in_call(lua_State *L);

// The struct a lazy table @p idx stands for, pushed as a frame of the
// walk calling Lua now; raises when that is not the call it was made in.
static struct frame *
view_frame(lua_State *L, int idx, struct walk **wret)
{
	lua_rawgetp(L, idx, &view_key);
	const struct lview *v = lua_touserdata(L, -1);
	lua_pop(L, 1);	// the table keeps it
	struct walk *w = walk_in_call(L);
	if (!v || !w || v->gen != w->lua_gen)
		luaL_error(L, "a node table (%s) is read during the call it "
			   "was given to, not kept for later", v ? v->t->name
			   : "?");
	w->next_elem = v->elem;
	struct frame *f = irs_walk_push(w, v->t, v->addr, v->data, NULL);
	if (!f)
		luaL_error(L, "%s at 0x%llx: too deep", v->t->name,
			   (unsigned long long)v->addr);
	*wret = w;
	return f;
}

// next(node, k) over what the table holds now, its view left out.
static int
l_view_next(lua_State *L)
{
	lua_settop(L, 2);
	while (lua_next(L, 1)) {
		if (lua_type(L, -2) != LUA_TLIGHTUSERDATA)
			return 2;
		lua_pop(L, 1);
	}
	return 0;
}

// node.f: field f read now, and kept in the table.
static int
l_view_index(lua_State *L)
{
	const char *name = lua_tostring(L, 2);
	lua_rawgetp(L, 1, &view_key);
	const struct lview *v = lua_touserdata(L, -1);
	lua_pop(L, 1);
	const struct lfield *fd = name && v ? irs_ltype_field(v->t, name)
		: NULL;
	if (!fd)
		return 0;	// no such field: nil, as in a plain table
	struct walk *w;
	struct frame *f = view_frame(L, 1, &w);
	uint32_t depth = w->depth - 1;
	push_field(L, w, f, fd);
	w->depth = depth;
	lua_pushvalue(L, -1);
	lua_setfield(L, 1, name);	// raw: the metatable has no __newindex
	return 1;
}

// pairs(node): every field, read now.
static int
l_view_pairs(lua_State *L)
{
	lua_rawgetp(L, 1, &view_key);
	const struct lview *v = lua_touserdata(L, -1);
	lua_pop(L, 1);
	for (uint32_t i = 0; v && i < v->t->nfields; i++) {
		lua_pushcfunction(L, l_view_index);
		lua_pushvalue(L, 1);
		lua_pushstring(L, v->t->fields[i].name);
		lua_call(L, 2, 0);
	}
	lua_pushcfunction(L, l_view_next);
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

// The table of frame @p f, its fields read when asked.
static void
push_lazy(lua_State *L, struct walk *w, const struct frame *f)
{
	const struct ltype *t = f->t;
	lua_createtable(L, 0, 4);
	struct lview *v = lua_newuserdatauv(L, sizeof(*v) + t->size, 0);
	v->t = t;
	v->addr = f->addr;
	v->elem = f->elem;
	v->gen = w->lua_gen;
	memcpy(v->data, f->data, t->size);
	lua_rawsetp(L, -2, &view_key);
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &view_mt_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_createtable(L, 0, 2);
		lua_pushcfunction(L, l_view_index);
		lua_setfield(L, -2, "__index");
		lua_pushcfunction(L, l_view_pairs);
		lua_setfield(L, -2, "__pairs");
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &view_mt_key);
	}
	lua_setmetatable(L, -2);
}

/* }====================================================== */

void
irs_lua_push_node(lua_State *L, struct walk *w, struct frame *f)
{
	const struct ltype *t = f->t;
	if (w->in_lua) {
		push_lazy(L, w, f);
	} else {
		lua_createtable(L, 0, (int)t->nfields + 3);
		for (uint32_t i = 0; i < t->nfields; i++) {
			push_field(L, w, f, &t->fields[i]);
			lua_setfield(L, -2, t->fields[i].name);
		}
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

/* {====================================================== render, deref */

// The walk calling Lua now, or NULL outside a walk's call.
static struct walk *
walk_in_call(lua_State *L)
{
	struct walk *w = NULL;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &irs_lua_walk_key) !=
	    LUA_TTABLE) {
		lua_pop(L, 1);
		return NULL;
	}
	if (lua_getfield(L, -1, "w") == LUA_TLIGHTUSERDATA)
		w = ((struct lcall *)lua_touserdata(L, -1))->w;
	lua_pop(L, 2);
	return w;
}

// The walk calling Lua now (irs_lua_walk_key's w).
static struct walk *
calling_walk(lua_State *L)
{
	return walk_in_call(L);	// l_walk_fn checked it is there
}

// The node table at 1 as a frame pushed on the walk, its field @p fname
// (NULL when none given) in *fd. Raises on a bad argument; NULL when the
// node cannot be read.
static struct frame *
node_frame(lua_State *L, struct walk *w, const char *what,
	   const struct lfield **fd)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_getfield(L, 1, "_type");
	lua_getfield(L, 1, "_addr");
	const char *tn = lua_tostring(L, -2);
	const struct ltype *t = tn ? irs_layout_find_type(w->lo, tn) : NULL;
	if (!t || !lua_isinteger(L, -1))
		luaL_error(L, "%s: expected a node (the table a text function "
			   "or computed field is given), got %s", what,
			   luaL_typename(L, 1));
	uint64_t addr = (uint64_t)lua_tointeger(L, -1);
	lua_pop(L, 2);
	const char *fname = luaL_optstring(L, 2, NULL);
	*fd = fname ? irs_ltype_field(t, fname) : NULL;
	if (fname && !*fd)
		luaL_error(L, "%s: %s has no field '%s'", what, t->name,
			   fname);
	return irs_walk_push(w, t, addr, NULL, NULL);
}

// render(node [, "field"]): the node's text, or its field's, as the
// templates render them (reading only).
static int
l_render(lua_State *L)
{
	struct walk *w = calling_walk(L);
	const struct lfield *fd;
	uint32_t depth = w->depth;
	struct frame *f = node_frame(L, w, "render", &fd);
	if (!f) {
		lua_pushnil(L);
		return 1;
	}
	if (!w->lua_sink_ready) {
		if (irs_sink_init(&w->lua_sink, NULL, false))
			irs_lua_raise(L, &irs_enomem);
		w->lua_sink_ready = true;
	}
	w->lua_sink.len = 0;
	irs_walk_render_into(w, f, fd, &w->lua_sink);
	w->depth = depth;
	if (w->lua_sink.failed)
		irs_lua_raise(L, &irs_enomem);
	// the sink is the walk's: nothing leaks if this raises
	lua_pushlstring(L, w->lua_sink.buf, w->lua_sink.len);
	return 1;
}

// deref(node, "field"): the node (or value) a ptr, ref, embed, index or
// global field names, as a table; nil when there is none.
static int
l_deref(lua_State *L)
{
	struct walk *w = calling_walk(L);
	const struct lfield *fd;
	luaL_checkstring(L, 2);
	uint32_t depth = w->depth;
	struct frame *f = node_frame(L, w, "deref", &fd);
	if (!f) {
		lua_pushnil(L);
		return 1;
	}
	const struct ltype *t = NULL;
	uint64_t a = 0;
	const unsigned char *data = NULL;
	switch (fd->kind) {
	case LK_PTR: case LK_REF:
		a = irs_load_ptr(f, fd);
		t = &w->lo->types[fd->type];
		break;
	case LK_EMBED:
		a = f->addr + fd->at.offset;
		data = f->data + fd->at.offset;
		t = &w->lo->types[fd->type];
		break;
	case LK_INDEX: {
		// the element of the enclosing node's sequence
		int64_t i = irs_field_int(f, fd);
		struct frame *enc = irs_seq_owner(w, fd->index_type);
		const struct lfield *e = fd->index_seq->seq->elem;
		if (!enc || i < 0 || e->kind != LK_EMBED ||
		    !irs_seq_at(w, enc, fd->index_seq, (uint64_t)i, &a))
			a = 0;
		t = e->kind == LK_EMBED ? &w->lo->types[e->type] : NULL;
		break;
	}
	case LK_GLOBAL:
		if (fd->glob->value->kind != LK_EMBED ||
		    !irs_walk_global(w, f, fd, false, &a))
			a = 0;
		t = fd->glob->value->kind == LK_EMBED
			? &w->lo->types[fd->glob->value->type] : NULL;
		break;
	default:
		w->depth = depth;
		return luaL_error(L, "deref: '%s' is no ptr, ref, embed, index "
				  "or global of a struct", fd->name);
	}
	struct frame *g = a && t ? irs_walk_push(w, t, a, data, fd) : NULL;
	if (g)
		irs_lua_push_node(L, w, g);
	else
		lua_pushnil(L);
	w->depth = depth;
	return 1;
}

// Makes render() and deref() work during call @p c (protected: it may
// allocate the helpers' table once).
static void
helpers_on(lua_State *L, struct lcall *c)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &irs_lua_walk_key) !=
	    LUA_TTABLE) {
		lua_pop(L, 1);
		lua_createtable(L, 0, 3);
		lua_pushcfunction(L, l_render);
		lua_setfield(L, -2, "render");
		lua_pushcfunction(L, l_deref);
		lua_setfield(L, -2, "deref");
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &irs_lua_walk_key);
	}
	lua_pushlightuserdata(L, c);
	lua_setfield(L, -2, "w");
	lua_pop(L, 1);
}

// After the call: w = false (the key exists: no allocation, no raise).
static void
helpers_off(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &irs_lua_walk_key) ==
	    LUA_TTABLE) {
		lua_pushboolean(L, 0);
		lua_setfield(L, -2, "w");
	}
	lua_pop(L, 1);
}

/* }====================================================== */

static int
l_call(lua_State *L)
{
	struct lcall *c = lua_touserdata(L, 1);
	helpers_on(L, c);
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
		  const struct lfield *via, bool want_string, bool pure)
{
	struct irs_lua *x = w->lo->lua;
	lua_State *L = irs_lua_state(x);
	struct lcall c = { w, f, ref, want_string };
	// A function that ran out of its budget once would do it again on
	// every node (thousands of budgets): once one has, no more Lua runs
	// in this walk; nor once the walk's calls used their shared budget.
	if (w->in_lua) {	// render() of a Lua field: no Lua from Lua
		irs_walk_error(w, via, f->addr, "%s:%u: not run: Lua inside "
			       "render() from Lua", irs_lua_file(x),
			       via ? via->line : 0);
		return false;
	}
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
	if (!pure)
		w->ctx_uses++;	// Lua may keep state: never cache its text
	w->lua_gen = ++call_serial;	// the node tables of this call
					// are its own, in any walk
	lua_pushcfunction(L, l_call);
	lua_pushlightuserdata(L, &c);
	w->in_lua = true;
	struct irs_error *err = irs_lua_pcall(x, 1, 1);
	w->in_lua = false;
	helpers_off(L);
	w->lua_steps += irs_lua_steps_used(x);
	if ((err && irs_lua_ran_out(x)) ||
	    w->lua_steps > IRS_WALK_LUA_BUDGETS * irs_lua_step_limit(x))
		w->lua_spent = true;
	w->depth = depth;
	w->detached = detached;
	w->node_frame = node_frame;
	if (!err)
		return true;
	if (err->code == IRS_ERROR_NOMEM ||
	    err->code == IRS_ERROR_INTERRUPTED) {
		if (w->fatal)
			irs_error_destroy(err);	// the first one says why
		else
			w->fatal = err;
		w->stop = true;
		return false;
	}
	irs_walk_error(w, via, f->addr, "%s", err->message);
	irs_error_destroy(err);
	return false;
}
