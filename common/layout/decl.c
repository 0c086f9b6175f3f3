// The declarations a layout makes: layout, struct, boundary, verifier and
// reduce. Each checks its table's shape on the spot (so a mistake is
// reported at its line) and records it in one registry table; the compiler
// (compile.c) reads that table once the file has run.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

static const char decls_key = 'd';

void
irs_decl_push(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &decls_key);
}

// Raises unless every key of the table at @p idx is in @p allowed.
static void
check_keys(lua_State *L, int idx, const char *what,
	   const char *const *allowed)
{
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		const char *k = lua_type(L, -1) == LUA_TSTRING
			? lua_tostring(L, -1) : NULL;
		bool ok = false;
		for (int i = 0; k && allowed[i]; i++)
			ok |= !strcmp(k, allowed[i]);
		if (!ok)
			luaL_error(L, "%s: unknown key '%s'", what,
				   k ? k : luaL_typename(L, -1));
	}
}

// The string at key @p k of table @p idx, or NULL when absent.
static const char *
opt_string(lua_State *L, int idx, const char *k, const char *what)
{
	int t = lua_getfield(L, idx, k);
	lua_pop(L, 1);
	if (t == LUA_TNIL)
		return NULL;
	if (t != LUA_TSTRING)
		luaL_error(L, "%s: '%s' must be a string", what, k);
	lua_getfield(L, idx, k);
	const char *s = lua_tostring(L, -1);	// anchored in the table
	lua_pop(L, 1);
	return s;
}

// Raises "@p what must hold @p items" unless every element of the list
// at -1 is a string.
static void
check_strings(lua_State *L, const char *what, const char *items)
{
	lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
	for (lua_Integer i = 1; i <= n; i++) {
		if (lua_rawgeti(L, -1, i) != LUA_TSTRING)
			luaL_error(L, "%s must hold %s", what, items);
		lua_pop(L, 1);
	}
}

// Appends the table at -1, with its line, to decls[list]; pops it.
static void
record(lua_State *L, const char *list)
{
	lua_pushinteger(L, irs_lua_user_line(L));
	lua_setfield(L, -2, "line");
	irs_decl_push(L);
	lua_getfield(L, -1, list);
	lua_pushvalue(L, -3);
	lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	lua_pop(L, 3);
}

// Copies the table at @p idx (shallow) and pushes the copy.
static void
copy_table(lua_State *L, int idx)
{
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_settable(L, -4);
	}
}

// Records a copy of the table at 1, with its line, as decls[@p key]: a
// declaration a layout makes once (raises if it already did).
static void
declare_once(lua_State *L, const char *key)
{
	irs_decl_push(L);
	if (lua_getfield(L, -1, key) != LUA_TNIL)
		luaL_error(L, "%s: declared twice", key);
	lua_pop(L, 2);
	copy_table(L, 1);
	lua_pushinteger(L, irs_lua_user_line(L));
	lua_setfield(L, -2, "line");
	irs_decl_push(L);
	lua_insert(L, -2);
	lua_setfield(L, -2, key);
}

// layout { name = N, root = T }
static int
l_layout(lua_State *L)
{
	static const char *const keys[] = { "name", "root", NULL };
	luaL_checktype(L, 1, LUA_TTABLE);
	check_keys(L, 1, "layout", keys);
	if (!opt_string(L, 1, "name", "layout"))
		luaL_error(L, "layout: 'name' is required");
	opt_string(L, 1, "root", "layout");
	declare_once(L, "layout");
	return 0;
}

// struct "T" { ... }: the second call, with T's entry as upvalue.
static int
l_struct_body(lua_State *L)
{
	static const char *const keys[] = {
		"fields", "text", "ref", "size", "node", "ctype", "parent",
		"cast",
		NULL,
	};
	const char *name = lua_tostring(L, lua_upvalueindex(2));
	if (lua_type(L, 1) != LUA_TTABLE)
		return luaL_error(L, "struct \"%s\": expected a table "
				  "{ fields = ..., text = ... }", name);
	char what[160];
	snprintf(what, sizeof(what), "struct %s", name);
	check_keys(L, 1, what, keys);
	if (lua_getfield(L, lua_upvalueindex(1), "spec") != LUA_TNIL)
		return luaL_error(L, "struct \"%s\": body given twice", name);
	lua_pop(L, 1);
	int t = lua_getfield(L, 1, "fields");
	if (t != LUA_TNIL && t != LUA_TTABLE)
		return luaL_error(L, "%s: 'fields' must be a table", what);
	if (t == LUA_TTABLE) {
		lua_pushnil(L);
		while (lua_next(L, -2)) {
			if (lua_type(L, -2) != LUA_TSTRING)
				return luaL_error(L, "%s: field names must be "
						  "strings", what);
			if (!irs_fields_is_descriptor(L, -1) &&
			    !irs_fields_is_global(L, -1))
				return luaL_error(L, "%s: field '%s' is a %s, "
					"not a field (write e.g. scalar "
					"\"%s\")",
					what, lua_tostring(L, -2),
					luaL_typename(L, -1),
					lua_tostring(L, -2));
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
	t = lua_getfield(L, 1, "parent");
	if (t != LUA_TNIL && !irs_fields_is_descriptor(L, -1))
		return luaL_error(L, "%s: 'parent' must be the pointer to the "
				  "node enclosing it, e.g. ptr(\"parent\", "
				  "\"Module\")", what);
	lua_pop(L, 1);
	opt_string(L, 1, "ctype", what);
	t = lua_getfield(L, 1, "size");
	if (t != LUA_TNIL && !lua_isinteger(L, -1))
		return luaL_error(L, "%s: 'size' must be an integer", what);
	lua_pop(L, 1);
	copy_table(L, 1);
	lua_setfield(L, lua_upvalueindex(1), "spec");
	return 0;
}

// struct "T": records T (so duplicates are caught at their line) and
// returns the function that takes T's body.
static int
l_struct(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	if (!*name)
		return luaL_error(L, "struct: empty type name");
	irs_decl_push(L);
	lua_getfield(L, -1, "byname");
	if (lua_getfield(L, -1, name) != LUA_TNIL)
		return luaL_error(L, "struct \"%s\" declared twice", name);
	lua_pop(L, 1);
	lua_newtable(L);
	lua_pushvalue(L, 1);
	lua_setfield(L, -2, "name");
	lua_pushvalue(L, -1);
	lua_setfield(L, -3, name);	// byname[name] = entry
	lua_pushvalue(L, -1);
	record(L, "structs");
	lua_pushvalue(L, 1);
	lua_pushcclosure(L, l_struct_body, 2);
	return 1;
}

// boundary { at = F, pass = EXPR, ir = EXPR [, type = T] }
// boundary { functions = { F1, F2, match = RE }, ir = EXPR [, type = T] }
// sret = true, after = "caller"|"return", check = { PATH = VALUE },
// pass = { data = EXPR, len = EXPR }
// ir = { "fn", "f" }: the first of these its parameters has
// instance = EXPR: what tells one run of a pass from another, a string
// (the function's name: "ssa@main") or an integer ("lj_opt_sink#3")
// rerun_pass = { data, len, anchor = { data, len }, top = S }: a rerun's
// {pass} (compile.c)
static int
l_boundary(lua_State *L)
{
	static const char *const keys[] = {
		"at", "pass", "ir", "type", "functions", "instance", "sret",
		"after", "check", "rerun_pass", NULL,
	};
	luaL_checktype(L, 1, LUA_TTABLE);
	check_keys(L, 1, "boundary", keys);
	opt_string(L, 1, "instance", "boundary");
	const char *at = opt_string(L, 1, "at", "boundary");
	const char *pass = NULL;
	if (lua_getfield(L, 1, "pass") == LUA_TTABLE) {
		static const char *const pkeys[] = { "data", "len", NULL };
		check_keys(L, lua_gettop(L), "boundary: pass", pkeys);
		if (!opt_string(L, -1, "data", "boundary: pass") ||
		    !opt_string(L, -1, "len", "boundary: pass"))
			return luaL_error(L, "boundary: pass = { data = EXPR, "
					  "len = EXPR } (a pointer and a "
					  "length) needs both");
		pass = "";
	}
	lua_pop(L, 1);
	if (!pass)
		pass = opt_string(L, 1, "pass", "boundary");
	int st = lua_getfield(L, 1, "sret");
	lua_pop(L, 1);
	if (st != LUA_TNIL && st != LUA_TBOOLEAN)
		return luaL_error(L, "boundary: 'sret' must be true or false");
	const char *after = opt_string(L, 1, "after", "boundary");
	if (after && strcmp(after, "caller") && strcmp(after, "return"))
		return luaL_error(L, "boundary: after = \"return\" (at the "
				  "function's return instructions) or "
				  "\"caller\" (at the return address), not "
				  "'%s'", after);
	if (lua_getfield(L, 1, "check") != LUA_TNIL &&
	    lua_type(L, -1) != LUA_TTABLE)
		return luaL_error(L, "boundary: 'check' must be a table "
				  "{ PATH = VALUE, ... }");
	lua_pop(L, 1);
	int irt = lua_getfield(L, 1, "ir");	// compile.c checks a list
	lua_pop(L, 1);
	if (irt != LUA_TTABLE && !opt_string(L, 1, "ir", "boundary"))
		return luaL_error(L, "boundary: 'ir' (the IR root expression, "
				  "or a list of parameter names) is "
				  "required");
	opt_string(L, 1, "type", "boundary");
	int t = lua_getfield(L, 1, "functions");
	if (t != LUA_TNIL && t != LUA_TTABLE)
		return luaL_error(L, "boundary: 'functions' must be a list "
				  "of function names");
	if ((t == LUA_TNIL) == !at)
		return luaL_error(L, "boundary: give either 'at' (a pass "
				  "manager function) or 'functions'");
	if (at && !pass)
		return luaL_error(L, "boundary: 'pass' (the pass name "
				  "expression) is required with 'at'");
	if (t == LUA_TTABLE) {
		static const char *const fkeys[] = { "match", NULL };
		lua_pushnil(L);
		while (lua_next(L, -2)) {	// list items, or match = RE
			lua_pop(L, 1);
			if (lua_type(L, -1) == LUA_TSTRING) {
				const char *k = lua_tostring(L, -1);
				if (strcmp(k, fkeys[0]))
					return luaL_error(L, "boundary: "
						"'functions' has an unknown "
						"key '%s' (a list of names, "
						"and match = REGEX)", k);
			}
		}
		bool match = opt_string(L, -1, "match", "boundary: functions");
		if (lua_rawlen(L, -1) == 0 && !match)
			return luaL_error(L, "boundary: 'functions' is empty");
		check_strings(L, "boundary: 'functions'", "strings");
	}
	lua_pop(L, 1);
	copy_table(L, 1);
	record(L, "boundaries");
	return 0;
}

// verifier { name = N, check = function(snap) ... end }
// verifier { name = N, call = EXPR, ok = V }
// either with rerun = CMD, problem = REGEX, broken = REGEX: the same check
// offline, for the reducer
static int
l_verifier(lua_State *L)
{
	static const char *const keys[] = {
		"name", "check", "call", "ok", "rerun", "problem", "broken",
		NULL,
	};
	luaL_checktype(L, 1, LUA_TTABLE);
	check_keys(L, 1, "verifier", keys);
	if (!opt_string(L, 1, "name", "verifier"))
		return luaL_error(L, "verifier: 'name' is required");
	const char *call = opt_string(L, 1, "call", "verifier");
	int t = lua_getfield(L, 1, "check");
	lua_pop(L, 1);
	if (t != LUA_TNIL && t != LUA_TFUNCTION)
		return luaL_error(L, "verifier: 'check' must be a function");
	if ((t == LUA_TNIL) == !call)
		return luaL_error(L, "verifier: give either 'check' (a Lua "
				  "function) or 'call' (a debuggee "
				  "expression)");
	t = lua_getfield(L, 1, "ok");
	lua_pop(L, 1);
	if (t != LUA_TNIL && (!call || t != LUA_TNUMBER))
		return luaL_error(L, "verifier: 'ok' is the integer a 'call' "
				  "returns when all is well");
	bool rerun = opt_string(L, 1, "rerun", "verifier") != NULL;
	if (!rerun && (opt_string(L, 1, "problem", "verifier") ||
		       opt_string(L, 1, "broken", "verifier")))
		return luaL_error(L, "verifier: 'problem' and 'broken' read "
				  "the output of 'rerun', which is missing");
	copy_table(L, 1);
	record(L, "verifiers");
	return 0;
}

// reduce { units = { T, ... }, defs = T, rerun = TEMPLATE,
//          comment = "#", label = REGEX, input = "snapshot"|"program"|FIELD }
static int
l_reduce(lua_State *L)
{
	static const char *const keys[] = { "units", "defs", "rerun",
					    "comment", "label", "input",
					    "pass_names", NULL };
	luaL_checktype(L, 1, LUA_TTABLE);
	check_keys(L, 1, "reduce", keys);
	const char *input = opt_string(L, 1, "input", "reduce");
	bool field = input && (isalpha((unsigned char)*input) ||
			       *input == '_') &&
		     strspn(input, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
			    "OPQRSTUVWXYZ0123456789_") == strlen(input);
	if (input && !field)
		return luaL_error(L, "reduce: 'input' is \"snapshot\" (the "
				  "failing pass's IR), \"program\" (the "
				  "file the compiler was given) or a pointer "
				  "field of the root (its node, whole), not "
				  "'%s'", input);
	opt_string(L, 1, "defs", "reduce");
	opt_string(L, 1, "rerun", "reduce");
	opt_string(L, 1, "comment", "reduce");
	opt_string(L, 1, "label", "reduce");
	int t = lua_getfield(L, 1, "units");
	if (t != LUA_TNIL && t != LUA_TTABLE)
		return luaL_error(L, "reduce: 'units' must be a list of "
				  "type names");
	if (t == LUA_TTABLE)
		check_strings(L, "reduce: 'units'", "type names");
	lua_pop(L, 1);
	// pass_names = { SROAPass = "sroa", ... }: what {pass} becomes
	t = lua_getfield(L, 1, "pass_names");
	if (t != LUA_TNIL && t != LUA_TTABLE)
		return luaL_error(L, "reduce: 'pass_names' must be a table "
				  "{ PASS = \"name in the rerun\", ... }");
	if (t == LUA_TTABLE) {
		lua_pushnil(L);
		while (lua_next(L, -2)) {
			if (lua_type(L, -2) != LUA_TSTRING ||
			    lua_type(L, -1) != LUA_TSTRING)
				return luaL_error(L, "reduce: 'pass_names' "
						  "maps pass names to the "
						  "names the rerun takes, "
						  "strings to strings");
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
	declare_once(L, "reduce");
	return 0;
}

// donor { source = "llvm14/donor.cpp", include = { DIR, ... },
//         flags = { "-std=c++17", ... }, fits = { { fact = F, library = RE }
//         | { fact = F, symbol = NAME, value = V }, ... } }
static int
l_donor(lua_State *L)
{
	static const char *const keys[] = { "source", "include", "flags",
					    "fits", NULL };
	luaL_checktype(L, 1, LUA_TTABLE);
	check_keys(L, 1, "donor", keys);
	const char *src = opt_string(L, 1, "source", "donor");
	if (!src)
		return luaL_error(L, "donor: 'source' (the donor's C++ file, "
				  "beside the layout) is required");
	// beside the layout: a layout never points irsnap elsewhere
	if (src[0] == '/' || !strncmp(src, "../", 3) || strstr(src, "/../") ||
	    !strcmp(src, ".."))
		return luaL_error(L, "donor: 'source' is a path beside the "
				  "layout, without '..', not '%s'", src);
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "flags" : "include";
		int t = lua_getfield(L, 1, key);
		if (t != LUA_TNIL && t != LUA_TTABLE)
			return luaL_error(L, "donor: '%s' must be a list of "
					  "strings", key);
		if (t == LUA_TTABLE)
			check_strings(L, k ? "donor: 'flags'" :
				      "donor: 'include'", "strings");
		lua_pop(L, 1);
	}
	int t = lua_getfield(L, 1, "fits");
	if (t != LUA_TNIL && t != LUA_TTABLE)
		return luaL_error(L, "donor: 'fits' must be a list of "
				  "{ fact = F, library = RE } or { fact = F, "
				  "symbol = NAME, value = V }");
	for (lua_Integer i = 1; t == LUA_TTABLE &&
	     i <= (lua_Integer)lua_rawlen(L, -1); i++) {
		static const char *const fkeys[] = { "fact", "library",
						     "symbol", "value", NULL };
		if (lua_rawgeti(L, -1, i) != LUA_TTABLE)
			return luaL_error(L, "donor: fits[%d] must be a table",
					  (int)i);
		check_keys(L, lua_gettop(L), "donor: fits", fkeys);
		const char *lib = opt_string(L, -1, "library", "donor: fits");
		const char *sym = opt_string(L, -1, "symbol", "donor: fits");
		if (!opt_string(L, -1, "fact", "donor: fits") || !lib == !sym)
			return luaL_error(L, "donor: fits[%d] needs a 'fact' "
					  "and either 'library' or 'symbol'",
					  (int)i);
		lua_getfield(L, -1, "value");
		if (sym && !lua_isinteger(L, -1))
			return luaL_error(L, "donor: fits[%d]: 'symbol' needs "
					  "an integer 'value'", (int)i);
		lua_pop(L, 2);
	}
	lua_pop(L, 1);
	declare_once(L, "donor");
	return 0;
}

static char *
dup_or_raise(lua_State *L, const char *s)
{
	char *p = strdup(s);
	if (!p)
		luaL_error(L, "out of memory");
	return p;
}

// The strings of list @p key of the table at -1 into *v (caller-owned).
static void
donor_list(lua_State *L, const char *key, char ***v, uint32_t *n)
{
	lua_getfield(L, -1, key);
	lua_Integer len = lua_istable(L, -1) ?
		(lua_Integer)lua_rawlen(L, -1) : 0;
	if (len > 0 && !(*v = calloc((size_t)len, sizeof(**v))))
		luaL_error(L, "out of memory");
	for (lua_Integer i = 1; i <= len; i++) {
		lua_rawgeti(L, -1, i);
		(*v)[(*n)++] = dup_or_raise(L, lua_tostring(L, -1));
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

bool
irs_decl_donor(lua_State *L, const char *file, struct irs_donor_spec *ret)
{
	irs_decl_push(L);
	if (lua_getfield(L, -1, "donor") != LUA_TTABLE) {
		lua_pop(L, 2);
		return false;
	}
	lua_getfield(L, -2, "layout");
	lua_getfield(L, -1, "name");
	ret->layout_name = dup_or_raise(L, lua_isstring(L, -1) ?
					lua_tostring(L, -1) : "layout");
	lua_pop(L, 2);
	lua_getfield(L, -1, "line");
	ret->line = (uint32_t)lua_tointeger(L, -1);
	lua_pop(L, 1);
	ret->layout_file = dup_or_raise(L, file);
	lua_getfield(L, -1, "source");
	const char *src = lua_tostring(L, -1);
	const char *slash = strrchr(file, '/');
	size_t dirlen = slash ? (size_t)(slash - file) + 1 : 0;
	if (!(ret->source = malloc(dirlen + strlen(src) + 1)))
		luaL_error(L, "out of memory");
	memcpy(ret->source, file, dirlen);
	strcpy(ret->source + dirlen, src);
	lua_pop(L, 1);
	donor_list(L, "include", &ret->include, &ret->ninclude);
	donor_list(L, "flags", &ret->flags, &ret->nflags);
	lua_getfield(L, -1, "fits");
	lua_Integer n = lua_istable(L, -1) ? (lua_Integer)lua_rawlen(L, -1)
					    : 0;
	if (n > 0 && !(ret->fits = calloc((size_t)n, sizeof(*ret->fits))))
		luaL_error(L, "out of memory");
	for (lua_Integer i = 1; i <= n; i++) {
		struct irs_donor_fit *f = &ret->fits[ret->nfits++];
		lua_rawgeti(L, -1, i);
		const char *s;
		if ((s = opt_string(L, -1, "fact", "donor")))
			snprintf(f->fact, sizeof(f->fact), "%s", s);
		if ((s = opt_string(L, -1, "library", "donor")))
			snprintf(f->library, sizeof(f->library), "%s", s);
		if ((s = opt_string(L, -1, "symbol", "donor")))
			snprintf(f->symbol, sizeof(f->symbol), "%s", s);
		lua_getfield(L, -1, "value");
		f->value = lua_tointeger(L, -1);
		lua_pop(L, 2);
	}
	lua_pop(L, 3);
	return true;
}

// cfg { func = F, block = B }: the IR's control-flow graph, for pictures
// of it: the blocks (type B) of each function (type F), an edge from block
// A to every block its last child (the terminator) refers to.
static int
l_cfg(lua_State *L)
{
	static const char *const keys[] = { "func", "block", NULL };
	luaL_checktype(L, 1, LUA_TTABLE);
	check_keys(L, 1, "cfg", keys);
	if (!opt_string(L, 1, "func", "cfg") ||
	    !opt_string(L, 1, "block", "cfg"))
		return luaL_error(L, "cfg: 'func' and 'block' (type names) "
				  "are required");
	declare_once(L, "cfg");
	return 0;
}

void
irs_decl_register(lua_State *L)
{
	static const luaL_Reg fns[] = {
		{ "cfg", l_cfg },
		{ "donor", l_donor },
		{ "layout", l_layout },
		{ "struct", l_struct },
		{ "boundary", l_boundary },
		{ "verifier", l_verifier },
		{ "reduce", l_reduce },
		{ NULL, NULL },
	};
	luaL_setfuncs(L, fns, 0);
	irs_number_register(L);
	lua_newtable(L);
	lua_newtable(L);
	lua_setfield(L, -2, "structs");
	lua_newtable(L);
	lua_setfield(L, -2, "byname");
	lua_newtable(L);
	lua_setfield(L, -2, "boundaries");
	lua_newtable(L);
	lua_setfield(L, -2, "verifiers");
	lua_rawsetp(L, LUA_REGISTRYINDEX, &decls_key);
}
