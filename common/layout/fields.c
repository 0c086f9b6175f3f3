// Field constructors: scalar, u32, enum, cstr, ptr, list, union, ... Each
// returns a descriptor, a plain Lua table marked by a shared metatable,
// holding what the layout said (kind, location, options) plus the line and
// a sequence number, so that fields keep their order of declaration.
// compile.c turns descriptors into struct lfield.
//
// A descriptor called with a table returns a copy with those options added:
// ptr("next", "Node") { mask = ~7 }.
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

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

// chars P, or chars(P, LEN): LEN bytes inline from P on (a flexible tail)
static int
l_chars(lua_State *L)
{
	check_loc(L, 1, "chars");
	new_desc(L, "chars", "chars");
	set_arg(L, 1, "at");
	if (!lua_isnoneornil(L, 2)) {
		check_loc(L, 2, "chars");
		set_arg(L, 2, "len");
	}
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

// index(P, "T.seq"), index(P, global "strtab.str")
static int
l_index(lua_State *L)
{
	check_loc(L, 1, "index");
	if (irs_fields_is_global(L, 2)) {
		new_desc(L, "index", "index");
		set_arg(L, 1, "at");
		set_arg(L, 2, "target");
		return 1;
	}
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

/* {====================================================== globals */

// global "optab", global "strtab.str": a variable of the debuggee by name
// and a member path. Indexing the marker makes a new one: a string is a
// member (g.name), an integer a constant subscript (g[3]), a field
// descriptor a subscript by that field of the node (g[scalar "op"]). All
// it holds is under a light userdata key, so that no member name (kind,
// line) is taken for the marker's own data: compile.c reads it with
// irs_fields_push_global().

static const char global_mt_key = 'g';
static const char global_data_key = 'd';

enum { GLOBAL_MAX_STEPS = 16 };

bool
irs_fields_is_global(lua_State *L, int idx)
{
	if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx))
		return false;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &global_mt_key);
	bool yes = lua_rawequal(L, -1, -2);
	lua_pop(L, 2);
	return yes;
}

void
irs_fields_push_global(lua_State *L, int idx)
{
	lua_rawgetp(L, idx, &global_data_key);
}

// Pushes a marker for global @p name whose steps are @p steps (a table at
// that index, or 0 for none), plus @p step (at that index, or 0).
static void
new_global(lua_State *L, const char *name, uint32_t line, int steps,
	   int step)
{
	steps = steps ? lua_absindex(L, steps) : 0;
	step = step ? lua_absindex(L, step) : 0;
	lua_newtable(L);			// the marker
	lua_rawgetp(L, LUA_REGISTRYINDEX, &global_mt_key);
	lua_setmetatable(L, -2);
	lua_createtable(L, 0, 5);		// its data
	lua_pushstring(L, name);
	lua_setfield(L, -2, "name");
	lua_pushinteger(L, line);
	lua_setfield(L, -2, "line");
	lua_pushinteger(L, ++field_seq);
	lua_setfield(L, -2, "seq");
	lua_pushstring(L, "global");
	lua_setfield(L, -2, "kind");
	lua_newtable(L);
	lua_Integer n = steps ? (lua_Integer)lua_rawlen(L, steps) : 0;
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, steps, i);
		lua_rawseti(L, -2, i);
	}
	if (step) {
		if (n >= GLOBAL_MAX_STEPS)
			luaL_error(L, "global '%s': more than %d members and "
				   "subscripts", name, GLOBAL_MAX_STEPS);
		lua_pushvalue(L, step);
		lua_rawseti(L, -2, n + 1);
	}
	lua_setfield(L, -2, "steps");
	lua_rawsetp(L, -2, &global_data_key);
}

// A step { m = "name" }, { k = 3 } or { i = descriptor }, pushed.
static void
push_step(lua_State *L, const char *key, int value)
{
	value = lua_absindex(L, value);
	lua_createtable(L, 0, 1);
	lua_pushvalue(L, value);
	lua_setfield(L, -2, key);
}

static bool
is_name(const char *s, size_t n)
{
	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

// global "name" or global "name.member.member"
static int
l_global(lua_State *L)
{
	size_t len;
	const char *path = luaL_checklstring(L, 1, &len);
	const char *dot = memchr(path, '.', len);
	size_t n = dot ? (size_t)(dot - path) : len;
	if (!is_name(path, n))
		return luaL_error(L, "global: '%s' is no variable name (global "
				  "\"optab\", global \"strtab.str\")", path);
	lua_pushlstring(L, path, n);
	const char *name = lua_tostring(L, -1);
	uint32_t line = irs_lua_user_line(L);
	new_global(L, name, line, 0, 0);
	while (dot) {
		const char *m = dot + 1;
		dot = memchr(m, '.', len - (size_t)(m - path));
		size_t ml = dot ? (size_t)(dot - m) : len - (size_t)(m - path);
		if (!is_name(m, ml))
			return luaL_error(L, "global: bad member in '%s'",
					  path);
		int marker = lua_gettop(L);
		irs_fields_push_global(L, marker);
		lua_getfield(L, -1, "steps");
		lua_pushlstring(L, m, ml);
		push_step(L, "m", -1);
		new_global(L, name, line, -3, -1);
		lua_replace(L, marker);
		lua_settop(L, marker);
	}
	return 1;
}

// marker[key]: a member, a constant subscript or a subscript by a field.
static int
l_global_index(lua_State *L)
{
	irs_fields_push_global(L, 1);
	lua_getfield(L, -1, "name");
	const char *name = lua_tostring(L, -1);
	lua_getfield(L, -2, "steps");		// 5
	if (lua_type(L, 2) == LUA_TSTRING) {
		size_t n;
		const char *m = lua_tolstring(L, 2, &n);
		if (!is_name(m, n))
			return luaL_error(L, "global '%s': bad member '%s'",
					  name, m);
		push_step(L, "m", 2);
	} else if (lua_isinteger(L, 2)) {
		push_step(L, "k", 2);
	} else if (irs_fields_is_descriptor(L, 2)) {
		push_step(L, "i", 2);
	} else {
		return luaL_error(L, "global '%s'[...]: a member name, an "
				  "integer or a field of the node (scalar "
				  "\"op\"), not %s", name,
				  luaL_typename(L, 2));
	}
	lua_getfield(L, 3, "line");
	uint32_t line = (uint32_t)lua_tointeger(L, -1);
	lua_pop(L, 1);
	new_global(L, name, line, 5, -1);
	return 1;
}

static int
l_global_newindex(lua_State *L)
{
	return luaL_error(L, "a global marker is read-only");
}

/* }====================================================== */

/* {====================================================== tables */

// union{...}, array{...}, fixed{...}, nullterm{...}, range{...}, list{...}:
// the table's keys become the descriptor's.
int
irs_fields_table_ctor(lua_State *L)
{
	const char *kind = lua_tostring(L, lua_upvalueindex(1));
	if (lua_type(L, 1) != LUA_TTABLE)
		return luaL_error(L, "%s: expected a table, as in "
				  "%s { ... }", kind, kind);
	new_desc(L, kind, kind);
	merge(L, 1);
	return 1;
}

const char irs_lua_walk_key = 'w';

// render(node [, field]), deref(node, field): the walk's functions while
// a walk calls Lua (walk/lua_view.c), else an error saying where they
// work. The upvalue names the function.
static int
l_walk_fn(lua_State *L)
{
	const char *name = lua_tostring(L, lua_upvalueindex(1));
	int n = lua_gettop(L);
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &irs_lua_walk_key) !=
	    LUA_TTABLE || lua_getfield(L, -1, "w") != LUA_TLIGHTUSERDATA)
		return luaL_error(L, "%s: only while a walk renders (in a "
				  "text function or a computed field)", name);
	lua_pop(L, 1);
	lua_getfield(L, -1, name);
	lua_remove(L, -2);
	lua_insert(L, 1);
	lua_call(L, n, 1);
	return 1;
}

static const char pure_mt_key = 'p';

// pure(function(node) ... end): the layout's promise that the function's
// result depends only on the bytes it reads (no state kept between calls),
// so that its text may be cached and unchanged snapshots copied.
static int
l_pure(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TFUNCTION);
	lua_createtable(L, 1, 0);
	lua_pushvalue(L, 1);
	lua_rawseti(L, -2, 1);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &pure_mt_key);
	lua_setmetatable(L, -2);
	return 1;
}

bool
irs_fields_unwrap_pure(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx))
		return false;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &pure_mt_key);
	bool yes = lua_rawequal(L, -1, -2);
	lua_pop(L, 2);
	if (yes) {
		lua_rawgeti(L, idx, 1);
		lua_replace(L, idx);
	}
	return yes;
}

// computed(function(node) ... end), computed(pure(function ... end))
static int
l_computed(lua_State *L)
{
	bool pure = irs_fields_unwrap_pure(L, 1);
	luaL_checktype(L, 1, LUA_TFUNCTION);
	lua_settop(L, 1);
	new_desc(L, "computed", "computed");
	set_arg(L, 1, "fn");
	if (pure) {
		lua_pushboolean(L, 1);
		lua_setfield(L, -2, "pure");
	}
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
	lua_pushcfunction(L, l_chars);
	lua_setfield(L, -2, "chars");
	reg_closure(L, "ptr", l_pointer, "ptr");
	reg_closure(L, "ref", l_pointer, "ref");
	reg_closure(L, "embed", l_pointer, "embed");
	reg_closure(L, "union", irs_fields_table_ctor, "union");
	reg_closure(L, "array", irs_fields_table_ctor, "array");
	reg_closure(L, "fixed", irs_fields_table_ctor, "fixed");
	reg_closure(L, "nullterm", irs_fields_table_ctor, "nullterm");
	reg_closure(L, "range", irs_fields_table_ctor, "range");
	reg_closure(L, "list", irs_fields_table_ctor, "list");
	reg_closure(L, "zip", irs_fields_table_ctor, "zip");
	reg_closure(L, "derived", irs_fields_table_ctor, "derived");
	reg_closure(L, "delta", irs_fields_table_ctor, "delta");
	static const luaL_Reg plain[] = {
		{"bits", l_bits}, {"enum", l_enum}, {"strn", l_strn},
		{"index", l_index}, {"computed", l_computed}, {NULL, NULL},
	};
	luaL_setfuncs(L, plain, 0);

	lua_newtable(L);			// the global markers' metatable
	lua_pushcfunction(L, l_global_index);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, l_global_newindex);
	lua_setfield(L, -2, "__newindex");
	lua_rawsetp(L, LUA_REGISTRYINDEX, &global_mt_key);
	lua_pushcfunction(L, l_global);
	lua_setfield(L, -2, "global");
	lua_newtable(L);			// pure(fn)'s metatable
	lua_rawsetp(L, LUA_REGISTRYINDEX, &pure_mt_key);
	lua_pushcfunction(L, l_pure);
	lua_setfield(L, -2, "pure");
	reg_closure(L, "render", l_walk_fn, "render");
	reg_closure(L, "deref", l_walk_fn, "deref");
	irs_shape_register(L);
	irs_cast_register(L);
}
