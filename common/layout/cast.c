// A node's struct chosen by a tag of its own, as C++ class hierarchies
// keep theirs: an llvm::Value is an Argument, a BasicBlock, a ConstantInt
// or one of the Instruction classes by its SubclassID, a Type by its ID,
// MLIR's types and attributes by the address of their TypeID. The layout
// declares the base struct with
//
//   cast = { by = "SubclassID", cases = { ArgumentVal = "Argument",
//            ["InstructionVal+55"] = "PHINode", ... }, default = "Value" }
//
// and the walk, having read the base, reads the node again as the case's
// struct (walk/cast.c): its text, ref, fields and JSON record are the
// case's. A key may be an enum name of the tag (plus an offset), an
// integer, or an address the debuggee fixes when it loads (address {
// lea = "getter" }: MLIR's TypeIDs), asked of the debugger when a walk
// needs it.
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

static const char addr_mt_key = 'a';

// address { lea = "fn" } | { symbol = "s" } | { load = "s" }
static int
l_address(lua_State *L)
{
	static const char *const hows[] = { "symbol", "load", "lea" };
	luaL_checktype(L, 1, LUA_TTABLE);
	int found = -1;
	for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING
			? lua_tostring(L, -2) : "";
		int i = 0;
		while (i < 3 && strcmp(k, hows[i]))
			i++;
		if (i == 3 || lua_type(L, -1) != LUA_TSTRING || found >= 0)
			return luaL_error(L, "address: one of { symbol = \"S\" "
					  "} (its address), { load = \"S\" } "
					  "(the pointer stored there) or { lea "
					  "= \"F\" } (what getter F returns)");
		found = i;
	}
	if (found < 0)
		return luaL_error(L, "address: give symbol, load or lea");
	lua_createtable(L, 0, 3);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &addr_mt_key);
	lua_setmetatable(L, -2);
	lua_pushinteger(L, found);
	lua_setfield(L, -2, "how");
	lua_getfield(L, 1, hows[found]);
	lua_setfield(L, -2, "name");
	lua_pushinteger(L, irs_lua_user_line(L));
	lua_setfield(L, -2, "line");
	return 1;
}

void
irs_cast_register(lua_State *L)
{
	lua_newtable(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &addr_mt_key);
	lua_pushcfunction(L, l_address);
	lua_setfield(L, -2, "address");
}

// Whether the value at @p idx is an address { ... } marker.
static bool
is_address(lua_State *L, int idx)
{
	if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx))
		return false;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &addr_mt_key);
	bool yes = lua_rawequal(L, -1, -2);
	lua_pop(L, 2);
	return yes;
}

// The index in lo->addrs of the marker at @p idx, added if new.
static uint32_t
address_index(struct irs_cc *c, int idx)
{
	lua_State *L = c->L;
	struct irs_layout *lo = c->lo;
	int64_t how = 0, line = 0;
	irs_cc_int(c, idx, "how", 0, "address", &how);
	irs_cc_int(c, idx, "line", 0, "address", &line);
	const char *name = irs_cc_str(c, idx, "name", 0, "address");
	for (uint32_t i = 0; i < lo->naddrs; i++)
		if (lo->addrs[i].how == how && !strcmp(lo->addrs[i].name, name))
			return i;
	struct laddr *a = irs_cc_alloc(c, (lo->naddrs + 1) * sizeof(*a));
	if (lo->naddrs)
		memcpy(a, lo->addrs, lo->naddrs * sizeof(*a));
	a[lo->naddrs].how = (uint8_t)how;
	a[lo->naddrs].name = irs_cc_strdup(c, name);
	a[lo->naddrs].line = (uint32_t)line;
	lo->addrs = a;
	(void)L;
	return lo->naddrs++;
}

// The case type @p name of @p t's cast: declared, a node as t is, and no
// smaller than t (it is t, seen whole).
static uint32_t
case_type(struct irs_cc *c, const struct ltype *t, const char *name,
	  uint32_t line, const char *qual)
{
	const struct ltype *ct = irs_cc_type(c, name, line, qual);
	if (ct->node != t->node)
		irs_lua_raisef(c->L, line, "%s: %s is %s and %s is not", qual,
			       t->node ? t->name : ct->name, "a node",
			       t->node ? ct->name : t->name);
	if (ct->size < t->size)
		irs_lua_raisef(c->L, line, "%s: %s (%u bytes) is smaller than "
			       "%s (%u bytes), whose case it is", qual,
			       ct->name, ct->size, t->name, t->size);
	return ct->index;
}

// A key "NAME" or "NAME+N" (an enumerator of the tag and an offset from
// it: an llvm::Instruction's SubclassID is InstructionVal + its opcode).
static bool
enum_key(const struct lenum *en, const char *key, int64_t *ret)
{
	const char *plus = strchr(key, '+');
	char name[128];
	snprintf(name, sizeof(name), "%.*s", plus ? (int)(plus - key)
		 : (int)strlen(key), key);
	int64_t off = 0;
	if (plus) {
		char *end;
		off = strtoll(plus + 1, &end, 0);
		if (plus[1] == '\0' || *end)
			return false;
	}
	if (!irs_lenum_value(en, name, ret))
		return false;
	*ret += off;
	return true;
}

// Whether case @p a sorts after case @p b.
static bool
case_after(const struct lcast *k, uint32_t a, uint32_t b)
{
	bool aa = k->addrs[a] != IRS_NONE, ba = k->addrs[b] != IRS_NONE;
	if (aa != ba)
		return aa;
	return aa ? k->addrs[a] > k->addrs[b] : k->values[a] > k->values[b];
}

// A table by value when the integer keys lie close together (LLVM's
// SubclassIDs): the walk finds a case in one step.
static void
dense_index(struct irs_cc *c, struct lcast *k)
{
	uint32_t n = 0;
	while (n < k->ncases && k->addrs[n] == IRS_NONE)
		n++;
	if (!n || k->values[n - 1] - k->values[0] >= 4096)
		return;
	k->dense_min = k->values[0];
	k->ndense = (uint32_t)(k->values[n - 1] - k->values[0] + 1);
	uint32_t *d = irs_cc_alloc(c, k->ndense * sizeof(*d));
	for (uint32_t i = 0; i < k->ndense; i++)
		d[i] = IRS_NONE;
	for (uint32_t i = 0; i < n; i++)
		d[k->values[i] - k->dense_min] = k->types[i];
	k->dense = d;
}

static void
compile_cast(struct irs_cc *c, struct ltype *t, int spec)
{
	lua_State *L = c->L;
	uint32_t line = t->line;
	char qual[300];
	snprintf(qual, sizeof(qual), "struct %s: cast", t->name);
	int ct = lua_getfield(L, spec, "cast");
	if (ct == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	if (ct != LUA_TTABLE)
		irs_lua_raisef(L, line, "%s must be { by = \"field\", cases = "
			       "{ NAME = \"Type\", ... } }", qual);
	int cast = lua_gettop(L);
	for (lua_pushnil(L); lua_next(L, cast); lua_pop(L, 1))
		if (lua_type(L, -2) != LUA_TSTRING ||
		    (strcmp(lua_tostring(L, -2), "by") &&
		     strcmp(lua_tostring(L, -2), "cases") &&
		     strcmp(lua_tostring(L, -2), "default")))
			irs_lua_raisef(L, line, "%s: keys are by, cases and "
				       "default", qual);
	struct lcast *k = irs_cc_alloc(c, sizeof(*k));
	k->line = line;
	const char *by = irs_cc_str(c, cast, "by", line, qual);
	if (!by)
		irs_lua_raisef(L, line, "%s needs by = \"field\" (the tag)",
			       qual);
	struct irs_error *err = irs_template_path(c->lo, t, by, &k->by);
	if (err) {
		char msg[400];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		irs_lua_raisef(L, line, "%s: by '%s': %s", qual, by, msg);
	}
	const struct lfield *tag = k->by.path[k->by.npath - 1];
	if (tag->kind != LK_INT && tag->kind != LK_UINT &&
	    tag->kind != LK_ENUM && tag->kind != LK_BOOL &&
	    tag->kind != LK_PTR && tag->kind != LK_REF)
		irs_lua_raisef(L, line, "%s: by '%s' is no integer, enum or "
			       "pointer field", qual, by);
	if (lua_getfield(L, cast, "cases") != LUA_TTABLE)
		irs_lua_raisef(L, line, "%s needs cases = { NAME = \"Type\", "
			       "... }", qual);
	int cases = lua_gettop(L);
	uint32_t n = 0;
	for (lua_pushnil(L); lua_next(L, cases); lua_pop(L, 1))
		n++;
	k->values = irs_cc_alloc(c, (n + 1) * sizeof(*k->values));
	k->addrs = irs_cc_alloc(c, (n + 1) * sizeof(*k->addrs));
	k->types = irs_cc_alloc(c, (n + 1) * sizeof(*k->types));
	for (lua_pushnil(L); lua_next(L, cases); lua_pop(L, 1)) {
		uint32_t i = k->ncases++;
		k->addrs[i] = IRS_NONE;
		if (lua_type(L, -1) != LUA_TSTRING)
			irs_lua_raisef(L, line, "%s: each case is a type name",
				       qual);
		if (is_address(L, -2)) {
			k->addrs[i] = address_index(c, lua_absindex(L, -2));
		} else if (lua_isinteger(L, -2)) {
			k->values[i] = lua_tointeger(L, -2);
		} else if (lua_type(L, -2) == LUA_TSTRING &&
			   tag->kind == LK_ENUM &&
			   enum_key(tag->en, lua_tostring(L, -2),
				    &k->values[i])) {
		} else {
			irs_lua_raisef(L, line, "%s: case '%s' is no integer, "
				       "address { ... } or name of enum field "
				       "'%s'", qual, lua_type(L, -2) ==
				       LUA_TSTRING ? lua_tostring(L, -2) : "?",
				       tag->name);
		}
		k->types[i] = case_type(c, t, lua_tostring(L, -1), line,
					qual);
	}
	lua_pop(L, 1);
	// by value, so that show and the search do not depend on Lua's
	// hashing; addresses last
	for (uint32_t i = 1; i < k->ncases; i++)
		for (uint32_t j = i; j > 0 && case_after(k, j - 1, j); j--) {
			int64_t v = k->values[j];
			uint32_t a = k->addrs[j], ty = k->types[j];
			k->values[j] = k->values[j - 1];
			k->addrs[j] = k->addrs[j - 1];
			k->types[j] = k->types[j - 1];
			k->values[j - 1] = v;
			k->addrs[j - 1] = a;
			k->types[j - 1] = ty;
		}
	dense_index(c, k);
	const char *deflt = irs_cc_str(c, cast, "default", line, qual);
	k->deflt = deflt ? case_type(c, t, deflt, line, qual) : IRS_NONE;
	lua_pop(L, 1);
	t->cast = k;
}

void
irs_cc_casts(struct irs_cc *c, int decls)
{
	lua_State *L = c->L;
	lua_getfield(L, decls, "structs");
	for (uint32_t i = 0; i < c->ndeclared; i++) {
		lua_rawgeti(L, -1, i + 1);
		lua_getfield(L, -1, "spec");
		compile_cast(c, &c->lo->types[i], lua_gettop(L));
		lua_pop(L, 2);
	}
	lua_pop(L, 1);
}

void
irs_cast_describe(struct irs_buf *b, const struct irs_layout *lo,
		  const struct ltype *t)
{
	const struct lcast *k = t->cast;
	if (!k)
		return;
	irs_buf_printf(b, "  cast by %s:", k->by.path[k->by.npath - 1]->name);
	for (uint32_t i = 0; i < k->ncases; i++) {
		if (k->addrs[i] != IRS_NONE)
			irs_buf_printf(b, " &%s", lo->addrs[k->addrs[i]].name);
		else
			irs_buf_printf(b, " %lld", (long long)k->values[i]);
		irs_buf_printf(b, " = %s;", lo->types[k->types[i]].name);
	}
	if (k->deflt != IRS_NONE)
		irs_buf_printf(b, " default %s", lo->types[k->deflt].name);
	irs_buf_puts(b, "\n");
}
