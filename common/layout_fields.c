// Field constructors: scalar, u32, enum, cstr, ptr, list, union, ... Each
// returns a descriptor, a plain Lua table marked by a shared metatable,
// holding what the layout said (kind, location, options) plus the line and
// a sequence number, so that fields keep their order of declaration.
// layout_compile.c turns descriptors into struct lfield.
//
// A descriptor called with a table returns a copy with those options added:
// ptr("next", "Node") { mask = ~7 }.
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout_internal.h"

static const char field_mt_key = 'f';
static lua_Integer field_seq;	// order of creation, for field order

bool
irs_fields_is_descriptor(lua_State *L, int idx)
{
	if (!lua_getmetatable(L, idx))
		return false;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &field_mt_key);
	bool yes = lua_rawequal(L, -1, -2);
	lua_pop(L, 2);
	return yes;
}

// Pushes a new descriptor of @p kind made by constructor @p ctor.
static void
new_desc(lua_State *L, const char *kind, const char *ctor)
{
	lua_createtable(L, 0, 8);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &field_mt_key);
	lua_setmetatable(L, -2);
	lua_pushstring(L, kind);
	lua_setfield(L, -2, "kind");
	lua_pushstring(L, ctor);
	lua_setfield(L, -2, "ctor");
	lua_pushinteger(L, irs_lua_user_line(L));
	lua_setfield(L, -2, "line");
	lua_pushinteger(L, ++field_seq);
	lua_setfield(L, -2, "seq");
}

// Sets key @p k of the descriptor at -1 to argument @p arg (if present).
// Arguments are below the descriptor: call lua_settop(L, nargs) first.
static void
set_arg(lua_State *L, int arg, const char *k)
{
	if (arg >= lua_gettop(L) || lua_isnoneornil(L, arg))
		return;
	lua_pushvalue(L, arg);
	lua_setfield(L, -2, k);
}

// Copies every entry of the table at @p idx into the descriptor at -1.
static void
merge(lua_State *L, int idx)
{
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "field options must be named "
				   "(key = value)");
		const char *k = lua_tostring(L, -2);
		if (!strcmp(k, "kind") || !strcmp(k, "ctor") ||
		    !strcmp(k, "line") || !strcmp(k, "seq"))
			luaL_error(L, "field option '%s' is reserved", k);
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_settable(L, -4);
	}
}

// A location argument: a debug-info path, an offset, a table with an
// offset, or nothing (a sequence element, at offset 0).
static void
check_loc(lua_State *L, int arg, const char *ctor)
{
	int t = lua_type(L, arg);
	if (t == LUA_TNONE || t == LUA_TNIL || t == LUA_TSTRING ||
	    t == LUA_TTABLE || lua_isinteger(L, arg))
		return;
	luaL_error(L, "%s: expected a field path (\"name\" or \"a.b\"), an "
		   "offset or { offset = N }, got %s", ctor,
		   luaL_typename(L, arg));
}

/* {====================================================== scalars */

// scalar P, cstr P, chars P: kind from the upvalue.
static int
l_simple(lua_State *L)
{
	const char *kind = lua_tostring(L, lua_upvalueindex(1));
	check_loc(L, 1, kind);
	new_desc(L, kind, kind);
	set_arg(L, 1, "at");
	return 1;
}

// u8 ... i64, f32, f64, bool: kind and width from the upvalues.
static int
l_sized(lua_State *L)
{
	const char *ctor = lua_tostring(L, lua_upvalueindex(1));
	const char *kind = lua_tostring(L, lua_upvalueindex(2));
	check_loc(L, 1, ctor);
	new_desc(L, kind, ctor);
	set_arg(L, 1, "at");
	lua_pushvalue(L, lua_upvalueindex(3));
	lua_setfield(L, -2, "size");
	return 1;
}

// bits { offset = O, bit = B, width = W [, signed = true] }
static int
l_bits(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	new_desc(L, "bits", "bits");
	set_arg(L, 1, "at");
	return 1;
}

// enum(P [, { names = {...}, strip = "OP_", lower = true, type = T }])
static int
l_enum(lua_State *L)
{
	check_loc(L, 1, "enum");
	bool opts = !lua_isnoneornil(L, 2);
	if (opts)
		luaL_checktype(L, 2, LUA_TTABLE);
	lua_settop(L, 2);
	new_desc(L, "enum", "enum");
	set_arg(L, 1, "at");
	if (opts)
		merge(L, 2);
	return 1;
}

// strn(P, LEN)
static int
l_strn(lua_State *L)
{
	check_loc(L, 1, "strn");
	check_loc(L, 2, "strn");
	if (lua_isnoneornil(L, 2))
		return luaL_error(L, "strn: expected strn(pointer, length)");
	new_desc(L, "strn", "strn");
	set_arg(L, 1, "at");
	set_arg(L, 2, "len");
	return 1;
}

/* }====================================================== */

/* {====================================================== pointers */

// ptr(P, T), ref(P, T), embed(P, T); ptr(T) and ref(T) for elements.
static int
l_pointer(lua_State *L)
{
	const char *kind = lua_tostring(L, lua_upvalueindex(1));
	int n = lua_gettop(L);
	if (n == 1 && strcmp(kind, "embed") != 0) {
		luaL_checkstring(L, 1);		// element: ptr "T"
		new_desc(L, kind, kind);
		set_arg(L, 1, "type");
		return 1;
	}
	check_loc(L, 1, kind);
	luaL_checkstring(L, 2);
	if (n > 2)
		luaL_checktype(L, 3, LUA_TTABLE);
	new_desc(L, kind, kind);
	set_arg(L, 1, "at");
	set_arg(L, 2, "type");
	if (n > 2)
		merge(L, 3);
	return 1;
}

// index(P, "T.seq")
static int
l_index(lua_State *L)
{
	check_loc(L, 1, "index");
	const char *target = luaL_checkstring(L, 2);
	if (!strchr(target, '.'))
		return luaL_error(L, "index: the target is \"Type.sequence\", "
				  "got \"%s\"", target);
	new_desc(L, "index", "index");
	set_arg(L, 1, "at");
	set_arg(L, 2, "target");
	return 1;
}

/* }====================================================== */

/* {====================================================== tables */

// union{...}, array{...}, fixed{...}, nullterm{...}, range{...}, list{...}:
// the table's keys become the descriptor's.
static int
l_table_ctor(lua_State *L)
{
	const char *kind = lua_tostring(L, lua_upvalueindex(1));
	if (lua_type(L, 1) != LUA_TTABLE)
		return luaL_error(L, "%s: expected a table, as in "
				  "%s { ... }", kind, kind);
	new_desc(L, kind, kind);
	merge(L, 1);
	return 1;
}

// computed(function(node) ... end)
static int
l_computed(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TFUNCTION);
	new_desc(L, "computed", "computed");
	set_arg(L, 1, "fn");
	return 1;
}

// descriptor { options }: a copy with the options added.
static int
l_desc_call(lua_State *L)
{
	luaL_checktype(L, 2, LUA_TTABLE);
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_settable(L, -4);
	}
	lua_rawgetp(L, LUA_REGISTRYINDEX, &field_mt_key);
	lua_setmetatable(L, -2);
	merge(L, 2);
	return 1;
}

/* }====================================================== */

static void
reg_closure(lua_State *L, const char *name, lua_CFunction fn,
	    const char *kind)
{
	lua_pushstring(L, kind);
	lua_pushcclosure(L, fn, 1);
	lua_setfield(L, -2, name);
}

void
irs_fields_register(lua_State *L)
{
	static const struct {
		const char *name, *kind;
		int size;
	} sized[] = {
		{ "u8", "uint", 1 }, { "u16", "uint", 2 },
		{ "u32", "uint", 4 }, { "u64", "uint", 8 },
		{ "i8", "int", 1 }, { "i16", "int", 2 },
		{ "i32", "int", 4 }, { "i64", "int", 8 },
		{ "f32", "float", 4 }, { "f64", "float", 8 },
		{ "bool", "bool", 1 },
	};
	lua_newtable(L);			// the descriptors' metatable
	lua_pushcfunction(L, l_desc_call);
	lua_setfield(L, -2, "__call");
	lua_rawsetp(L, LUA_REGISTRYINDEX, &field_mt_key);

	for (size_t i = 0; i < ARRAY_SIZE(sized); i++) {
		lua_pushstring(L, sized[i].name);
		lua_pushstring(L, sized[i].kind);
		lua_pushinteger(L, sized[i].size);
		lua_pushcclosure(L, l_sized, 3);
		lua_setfield(L, -2, sized[i].name);
	}
	reg_closure(L, "scalar", l_simple, "scalar");
	reg_closure(L, "cstr", l_simple, "cstr");
	reg_closure(L, "chars", l_simple, "chars");
	reg_closure(L, "ptr", l_pointer, "ptr");
	reg_closure(L, "ref", l_pointer, "ref");
	reg_closure(L, "embed", l_pointer, "embed");
	reg_closure(L, "union", l_table_ctor, "union");
	reg_closure(L, "array", l_table_ctor, "array");
	reg_closure(L, "fixed", l_table_ctor, "fixed");
	reg_closure(L, "nullterm", l_table_ctor, "nullterm");
	reg_closure(L, "range", l_table_ctor, "range");
	reg_closure(L, "list", l_table_ctor, "list");
	lua_pushcfunction(L, l_bits);
	lua_setfield(L, -2, "bits");
	lua_pushcfunction(L, l_enum);
	lua_setfield(L, -2, "enum");
	lua_pushcfunction(L, l_strn);
	lua_setfield(L, -2, "strn");
	lua_pushcfunction(L, l_index);
	lua_setfield(L, -2, "index");
	lua_pushcfunction(L, l_computed);
	lua_setfield(L, -2, "computed");
}
