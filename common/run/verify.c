// Lua verifiers (verifier { name = N, check = function(snap) ... end }): a
// walk collects the nodes, then each check runs over a `snap` object whose
// snap:nodes "T" iterates tables of the nodes' fields (lua_view.c), and
// returns a list of problems. Verifiers that call the compiler's own
// verifier (`call = ...`) are the front end's business.
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "run/run.h"

// What a verifier may spend per node of its snapshot, on top of one
// instruction budget: a check that visits every node, building a table of
// each and looking up what its operands use, costs some 700 instructions
// a node, allocations charged (toyc's operand-defs: 80 million on a
// module of 100000 instructions); a big module must not run it out.
enum { VERIFY_NODE_STEPS = 1000 };

struct vnode {
	uint64_t addr;
	uint32_t type;
};

struct vctx {
	struct walk w;
	struct vnode *nodes;	// in walk order
	size_t n, cap;
	struct vnode *sorted;	// by address, for snap:node(id)
	uint64_t root;
	const struct ltype *root_type;
	struct irs_buf problems;
	uint32_t nproblems;
	const char *verifier;	// the one running
	struct vctx **live;	// the snap userdata pointing here
};

static bool
collect(void *arg, const struct ltype *t, uint64_t addr)
{
	struct vctx *v = arg;
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 1024;
		struct vnode *p = realloc(v->nodes, cap * sizeof(*p));
		if (!p)
			return false;
		v->nodes = p;
		v->cap = cap;
	}
	v->nodes[v->n++] = (struct vnode){ addr, t->index };
	return true;
}

/* {====================================================== snap object */

static const char snap_mt_key = 'v';
static const char snap_key = 'u';

// The context behind a snap userdata; NULL once its verifier returned.
static struct vctx *
check_snap(lua_State *L)
{
	struct vctx **p = lua_touserdata(L, 1);
	if (!p || !lua_getmetatable(L, 1))
		luaL_error(L, "expected a snapshot (write snap:nodes \"T\")");
	lua_rawgetp(L, LUA_REGISTRYINDEX, &snap_mt_key);
	if (!lua_rawequal(L, -1, -2))
		luaL_error(L, "expected a snapshot (write snap:nodes \"T\")");
	lua_pop(L, 2);
	if (!*p)
		luaL_error(L, "this snapshot is gone (kept after its "
			   "verifier returned)");
	return *p;
}

// Pushes the node table of node @p i.
static void
push_vnode(lua_State *L, struct vctx *v, const struct vnode *vn)
{
	struct walk *w = &v->w;
	irs_lua_push_at(L, w, &w->lo->types[vn->type], vn->addr, NULL, NULL);
}

static int
l_nodes_iter(lua_State *L)
{
	struct vctx **p = lua_touserdata(L, lua_upvalueindex(1));
	if (!*p)
		return luaL_error(L, "this snapshot is gone");
	struct vctx *v = *p;
	lua_Integer type = lua_tointeger(L, lua_upvalueindex(2));
	lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
	while ((size_t)i < v->n && (type >= 0 && v->nodes[i].type !=
				    (uint32_t)type))
		i++;
	if ((size_t)i >= v->n)
		return 0;
	lua_pushinteger(L, i + 1);
	lua_replace(L, lua_upvalueindex(3));
	push_vnode(L, v, &v->nodes[i]);
	return 1;
}

// snap:nodes "T" (or snap:nodes() for every node): an iterator of node
// tables in walk order.
static int
l_nodes(lua_State *L)
{
	struct vctx *v = check_snap(L);
	lua_Integer type = -1;
	if (!lua_isnoneornil(L, 2)) {
		const char *name = luaL_checkstring(L, 2);
		const struct ltype *t = irs_layout_find_type(v->w.lo, name);
		if (!t)
			return luaL_error(L, "snap:nodes: no type '%s' in the "
					  "layout", name);
		type = t->index;
	}
	lua_pushvalue(L, 1);
	lua_pushinteger(L, type);
	lua_pushinteger(L, 0);
	lua_pushcclosure(L, l_nodes_iter, 3);
	return 1;
}

static int
cmp_vnode(const void *a, const void *b)
{
	uint64_t x = ((const struct vnode *)a)->addr;
	uint64_t y = ((const struct vnode *)b)->addr;
	return (x > y) - (x < y);
}

// snap:node(id): the node table of node `id` ("0x..." or an integer), or
// nil when no node has that address.
static int
l_node(lua_State *L)
{
	struct vctx *v = check_snap(L);
	uint64_t addr;
	if (lua_isinteger(L, 2)) {
		addr = (uint64_t)lua_tointeger(L, 2);
	} else {
		const char *s = luaL_checkstring(L, 2);
		addr = strtoull(s, NULL, 0);
	}
	if (!v->sorted) {
		v->sorted = malloc((v->n + 1) * sizeof(*v->sorted));
		if (!v->sorted)
			irs_lua_raise(L, &irs_enomem);
		memcpy(v->sorted, v->nodes, v->n * sizeof(*v->sorted));
		qsort(v->sorted, v->n, sizeof(*v->sorted), cmp_vnode);
	}
	struct vnode key = { addr, 0 };
	struct vnode *hit = bsearch(&key, v->sorted, v->n, sizeof(key),
				    cmp_vnode);
	if (!hit)
		return 0;
	push_vnode(L, v, hit);
	return 1;
}

// snap:root(): the root node's table.
static int
l_root(lua_State *L)
{
	struct vctx *v = check_snap(L);
	struct vnode vn = { v->root, v->root_type->index };
	push_vnode(L, v, &vn);
	return 1;
}

// #snap: the number of nodes.
static int
l_len(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)check_snap(L)->n);
	return 1;
}

/* }====================================================== */

struct vcall {
	struct vctx *v;
	int fn;
};

// Runs one check(snap) and appends its problems, one per line.
static int
l_run_check(lua_State *L)
{
	struct vcall *c = lua_touserdata(L, 1);
	// one snap userdata per Lua state, anchored in the registry, so that
	// C can always clear it when the verifier is done
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &snap_key) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_newuserdatauv(L, sizeof(struct vctx *), 0);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &snap_key);
	}
	struct vctx **p = lua_touserdata(L, -1);
	*p = c->v;
	c->v->live = p;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &snap_mt_key) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_newtable(L);
		static const luaL_Reg methods[] = {
			{"nodes", l_nodes}, {"node", l_node}, {"root", l_root},
			{NULL, NULL},
		};
		lua_newtable(L);
		luaL_setfuncs(L, methods, 0);
		lua_setfield(L, -2, "__index");
		lua_pushcfunction(L, l_len);
		lua_setfield(L, -2, "__len");
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &snap_mt_key);
	}
	lua_setmetatable(L, -2);
	int snap = lua_gettop(L);
	lua_rawgeti(L, LUA_REGISTRYINDEX, c->fn);
	lua_pushvalue(L, snap);
	lua_call(L, 1, 1);
	*p = NULL;	// kept by the script: a dead snapshot
	int res = lua_gettop(L);
	if (lua_isnil(L, res))
		return 0;
	if (lua_type(L, res) == LUA_TSTRING) {
		lua_newtable(L);
		lua_pushvalue(L, res);
		lua_rawseti(L, -2, 1);
		lua_replace(L, res);
	}
	if (!lua_istable(L, res))
		return luaL_error(L, "verifier '%s' returned a %s, not a list "
				  "of problems", c->v->verifier,
				  luaL_typename(L, res));
	lua_Integer n = (lua_Integer)lua_rawlen(L, res);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, res, i);
		size_t len;
		const char *s = luaL_tolstring(L, -1, &len);
		struct irs_buf *b = &c->v->problems;
		irs_buf_printf(b, "%s: ", c->v->verifier);
		irs_buf_append(b, s, len);
		irs_buf_append(b, "\n", 1);
		c->v->nproblems++;
		lua_pop(L, 2);
	}
	return 0;
}

struct irs_error *
irs_layout_verify(const struct irs_layout *lo, struct irs_memory *mem,
		  uint64_t root, const char *type, char **problems_ret,
		  uint32_t *count_ret)
{
	struct irs_error *err;
	const struct ltype *t;
	if ((err = irs_layout_type_for(lo, type, &t)))
		return err;
	struct vctx *v = calloc(1, sizeof(*v));
	if (!v)
		return &irs_enomem;
	irs_buf_init(&v->problems);
	v->root = root;
	v->root_type = t;
	irs_walk_init(&v->w, lo, mem, NULL);
	v->w.on_node = collect;
	v->w.on_node_arg = v;
	bool any = false;
	for (uint32_t i = 0; i < lo->nverifiers; i++)
		any |= lo->verifiers[i].fn != LUA_NOREF;
	if (any)
		err = irs_walk_root(&v->w, t, root);
	for (uint32_t i = 0; !err && i < lo->nverifiers; i++) {
		const struct lverifier *lv = &lo->verifiers[i];
		if (lv->fn == LUA_NOREF)
			continue;
		v->verifier = lv->name;
		struct vcall c = { v, lv->fn };
		uint32_t depth = v->w.depth;
		irs_lua_budget_next(lo->lua, v->n * VERIFY_NODE_STEPS);
		err = irs_lua_protect(lo->lua, l_run_check, &c);
		v->w.depth = depth;
		if (v->live)
			*v->live = NULL;
	}
	if (!err && v->problems.oom)
		err = &irs_enomem;
	if (!err) {
		*count_ret = v->nproblems;
		*problems_ret = irs_buf_steal(&v->problems);
	}
	irs_buf_deinit(&v->problems);
	irs_walk_deinit(&v->w);
	free(v->nodes);
	free(v->sorted);
	free(v);
	return err;
}
