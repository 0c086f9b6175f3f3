// Loading layouts: what a good one compiles to, and how every kind of bad
// one fails (IRS_ERROR_LAYOUT, "FILE:LINE: message", nothing left behind),
// including the sandbox and its budgets.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <lauxlib.h>
#include <lua.h>

#include "fake_target.h"
#include "layout_internal.h"

struct Pt {
	int32_t x;
	uint8_t y;
	double z;
	char name[8];
	const char *s;
	struct Pt *next;
	struct {
		struct Pt *prev, *next;
	} link;
	int kind;
};

struct Holder {
	struct {
		struct Pt *prev, *next;
	} pts;
	uint32_t n;
};

struct fixture {
	struct fake_target ft;
	struct irs_layout *lo;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	fake_target_init(&f->ft);
	FAKE_TYPE(&f->ft, struct Pt);
	fake_type(&f->ft, "Pt", sizeof(struct Pt));
	fake_type(&f->ft, "Holder", sizeof(struct Holder));
#define PT(m, K, N, T) fake_field(&f->ft, "Pt", #m, \
	offsetof(struct Pt, m), FAKE_SIZEOF_MEMBER(struct Pt, m), K, N, T, 0)
	PT(x, IRS_TYPE_INT, "int32_t", "");
	PT(y, IRS_TYPE_UINT, "uint8_t", "");
	PT(z, IRS_TYPE_FLOAT, "double", "");
	fake_field(&f->ft, "Pt", "name", offsetof(struct Pt, name), 8,
		   IRS_TYPE_ARRAY, "char [8]", "char", 8);
	PT(s, IRS_TYPE_POINTER, "const char *", "char");
	PT(next, IRS_TYPE_POINTER, "struct Pt *", "Pt");
	PT(link, IRS_TYPE_STRUCT, "struct {...}", "");
	PT(link.prev, IRS_TYPE_POINTER, "struct Pt *", "Pt");
	PT(link.next, IRS_TYPE_POINTER, "struct Pt *", "Pt");
	PT(kind, IRS_TYPE_ENUM, "Kind", "");
	fake_field(&f->ft, "Holder", "pts", 0, 16, IRS_TYPE_STRUCT,
		   "struct {...}", "", 0);
	fake_field(&f->ft, "Holder", "n", 16, 4, IRS_TYPE_UINT, "uint32_t",
		   "", 0);
	fake_enumerator(&f->ft, "Kind", "K_ONE", 1);
	fake_enumerator(&f->ft, "Kind", "K_TWO", 2);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	irs_layout_destroy(f->lo);
	fake_target_deinit(&f->ft);
	free(f);
	return 0;
}

static struct irs_error *
load(struct fixture *f, const char *src)
{
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	return irs_layout_create(src, strlen(src), "t.lua", &f->ft.target,
				 &f->lo);
}

// Loading @p src fails with a layout error at line @p line whose message
// contains @p what; the layout out-parameter is untouched.
static void
assert_fails_at(struct fixture *f, const char *src, int line,
		const char *what)
{
	struct irs_error *err = load(f, src);
	assert_non_null(err);
	char prefix[32];
	snprintf(prefix, sizeof(prefix), "t.lua:%d: ", line);
	if (err->code != IRS_ERROR_LAYOUT ||
	    strncmp(err->message, prefix, strlen(prefix)) ||
	    !strstr(err->message, what))
		fprintf(stderr, "got: %s (code %d)\nwant: %s...%s\n",
			err->message, err->code, prefix, what);
	assert_int_equal(err->code, IRS_ERROR_LAYOUT);
	assert_memory_equal(err->message, prefix, strlen(prefix));
	assert_non_null(strstr(err->message, what));
	assert_null(f->lo);
	irs_error_destroy(err);
}

#define HEAD "layout { name = \"t\", root = \"Pt\" }\n"

/* {====================================================== good layouts */

// A small layout compiles: names, root, types, resolved offsets.
static void
test_minimal_layout_loads(void **state)
{
	struct fixture *f = *state;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { x = scalar \"x\", "
		"name = chars \"name\" }, text = \"{x} {name}\" }\n"));
	assert_string_equal(irs_layout_name(f->lo), "t");
	assert_string_equal(irs_layout_root_type(f->lo), "Pt");
	assert_int_equal(irs_layout_ntypes(f->lo), 1);
	assert_string_equal(irs_layout_type_name(f->lo, 0), "Pt");
	assert_null(irs_layout_type_name(f->lo, 1));
	const struct ltype *t = irs_layout_find_type(f->lo, "Pt");
	assert_int_equal(t->size, sizeof(struct Pt));
	assert_int_equal(t->nfields, 2);
	// declaration order, not Lua's hash order
	assert_string_equal(t->fields[0].name, "x");
	assert_string_equal(t->fields[1].name, "name");
	assert_int_equal(t->fields[1].at.offset, offsetof(struct Pt, name));
	assert_int_equal(t->fields[1].nchars, 8);
	assert_int_equal(t->fields[0].kind, LK_INT);
	assert_null(irs_layout_rerun(f->lo));
	assert_int_equal(irs_layout_nboundaries(f->lo), 0);
}

// The root defaults to the first struct declared.
static void
test_root_defaults_to_first_struct(void **state)
{
	struct fixture *f = *state;
	assert_null(load(f, "layout { name = \"t\" }\n"
		"struct \"Holder\" { fields = { n = u32 \"n\" } }\n"
		"struct \"Pt\" { fields = { x = i32 \"x\" } }\n"));
	assert_string_equal(irs_layout_root_type(f->lo), "Holder");
}

// Both boundary forms, verifiers and reduce are answered as declared.
static void
test_boundaries_verifiers_reduce(void **state)
{
	struct fixture *f = *state;
	struct irs_boundary_info bi;
	struct irs_verifier_info vi;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { next = ptr(\"next\", \"Pt\") } }\n"
		"boundary { at = \"run_pass\", pass = \"p->name\", "
		"ir = \"m\" }\n"
		"boundary { functions = { \"ssa\", \"fold\" }, ir = \"fn\", "
		"type = \"Pt\" }\n"
		"verifier { name = \"own\", call = \"check({ir})\", ok = 1 }\n"
		"verifier { name = \"lua\", check = function(s) end }\n"
		"reduce { units = { \"Pt\" }, defs = \"Pt\", "
		"rerun = \"{exe} {input}\" }\n"));
	assert_int_equal(irs_layout_nboundaries(f->lo), 3);
	assert_null(irs_layout_boundary(f->lo, 0, &bi));
	assert_string_equal(bi.function, "run_pass");
	assert_string_equal(bi.pass_expr, "p->name");
	assert_null(bi.pass_name);
	assert_string_equal(bi.ir_type, "Pt");
	assert_null(irs_layout_boundary(f->lo, 2, &bi));
	assert_string_equal(bi.function, "fold");
	assert_null(bi.pass_expr);
	assert_string_equal(bi.pass_name, "fold");
	assert_string_equal(bi.ir_expr, "fn");
	struct irs_error *err = irs_layout_boundary(f->lo, 3, &bi);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	irs_error_destroy(err);
	assert_int_equal(irs_layout_nverifiers(f->lo), 2);
	assert_null(irs_layout_verifier(f->lo, 0, &vi));
	assert_string_equal(vi.call, "check({ir})");
	assert_int_equal(vi.ok_value, 1);
	assert_null(irs_layout_verifier(f->lo, 1, &vi));
	assert_string_equal(vi.name, "lua");
	assert_null(vi.call);
	assert_string_equal(irs_layout_rerun(f->lo), "{exe} {input}");
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "fold: pass named fold, ir fn (Pt)"));
	assert_non_null(strstr(desc, "own: call check({ir}), clean when 1"));
	assert_non_null(strstr(desc, "reduce: units Pt; defs Pt"));
	free(desc);
}

// `ir-layout show` gives sizes, offsets, bitfields and paths.
static void
test_describe_shows_offsets(void **state)
{
	struct fixture *f = *state;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { z = scalar \"z\", "
		"k = enum \"kind\", b = bits { offset = 1, bit = 3, "
		"width = 2 }, nx = ref(\"link.next\", \"Pt\") { mask = -8 } },"
		" text = \"{z}\", ref = \"#{k}\" }\n"));
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	char want[128];
	snprintf(want, sizeof(want), "z            scalar (float) at %zu "
		 "(8 bytes)", offsetof(struct Pt, z));
	assert_non_null(strstr(desc, want));
	assert_non_null(strstr(desc, "enum (2 names)"));
	assert_non_null(strstr(desc, "bits at 1 bits 3..4"));
	assert_non_null(strstr(desc, "mask 0xfffffffffffffff8"));
	assert_non_null(strstr(desc, "[link.next]"));
	assert_non_null(strstr(desc, "ref: \"#{k}\""));
	free(desc);
}

// Stripped builds: no debug info at all, sizes and offsets given.
static void
test_explicit_offsets_need_no_debug_info(void **state)
{
	struct fixture *f = *state;
	struct irs_target bare = { 0 };		// no callbacks at all
	const char *src = HEAD
		"struct \"Pt\" { size = 64, fields = { x = i32 { offset = 0 },"
		" y = u8(4), n = chars { offset = 16, size = 8 },"
		" b = bits { offset = 4, bit = 1, width = 3, signed = true },"
		" s = cstr { offset = 24 }, nx = ptr({ offset = 32 }, \"Pt\"),"
		" e = enum({ offset = 56, size = 4 }, "
		"{ names = { [1] = \"one\" } }) } }\n";
	assert_null(irs_layout_create(src, strlen(src), "t.lua", &bare,
				      &f->lo));
	const struct ltype *t = irs_layout_find_type(f->lo, "Pt");
	assert_int_equal(t->size, 64);
	assert_true(t->size_explicit);
	const struct lfield *b = irs_ltype_field(t, "b");
	assert_int_equal(b->at.offset, 4);
	assert_int_equal(b->at.bit_off, 1);
	assert_int_equal(b->at.bit_size, 3);
	assert_int_equal(b->kind, LK_INT);
	assert_int_equal(irs_ltype_field(t, "y")->at.offset, 4);
	assert_string_equal(irs_lenum_name(irs_ltype_field(t, "e")->en, 1),
			    "one");
	// and it walks: the same bytes read at the given places
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	const char *walkable = HEAD
		"struct \"Pt\" { size = 64, fields = { x = i32 { offset = 0 },"
		" s = cstr { offset = 24 }, nx = ptr({ offset = 32 }, \"Pt\") },"
		" text = \"{x} {s} {?nx}[{nx}]{/}\" }\n";
	assert_int_equal(offsetof(struct Pt, s), 24);
	assert_int_equal(offsetof(struct Pt, next), 32);
	assert_null(irs_layout_create(walkable, strlen(walkable), "t.lua",
				      &bare, &f->lo));
	struct Pt inner = { .x = 2, .s = "in" };
	struct Pt outer = { .x = 1, .s = "out", .next = &inner };
	char *text;
	struct irs_snapshot *snap;
	assert_null(irs_snapshot_text(f->lo, fake_memory(&f->ft),
				      (uintptr_t)&outer, NULL, NULL, &text,
				      &snap));
	assert_string_equal(text, "1 out [2 in ]");
	free(text);
	irs_snapshot_destroy(snap);
	// and without a size, a struct cannot be sized
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	const char *nosize = HEAD "struct \"Pt\" { }\n";
	struct irs_error *err = irs_layout_create(nosize, strlen(nosize),
						  "t.lua", &bare, &f->lo);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "t.lua:2: struct Pt: no debug "
			       "info to size it"));
	irs_error_destroy(err);
}

// Enum names from debug info, stripped and lowered.
static void
test_enum_names_from_debug_info(void **state)
{
	struct fixture *f = *state;
	assert_null(load(f, HEAD "struct \"Pt\" { fields = { "
		"k = enum(\"kind\", { strip = \"K_\", lower = true }) } }\n"));
	const struct lfield *k = irs_ltype_field(
		irs_layout_find_type(f->lo, "Pt"), "k");
	assert_int_equal(k->en->n, 2);
	assert_string_equal(irs_lenum_name(k->en, 2), "two");
	assert_null(irs_lenum_name(k->en, 3));
	int64_t v;
	assert_true(irs_lenum_value(k->en, "K_ONE", &v));
	assert_int_equal(v, 1);
}

// A file on disk loads, and its name is the FILE of messages.
static void
test_load_from_file(void **state)
{
	struct fixture *f = *state;
	char path[] = "/tmp/irsnap-layout-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *src = HEAD "struct \"Pt\" { fields = { x = scalar "
		"\"nope\" } }\n";
	assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
	struct irs_error *err = irs_layout_load(path, &f->ft.target, &f->lo);
	assert_non_null(err);
	char want[64];
	snprintf(want, sizeof(want), "%s:2: Pt.x: no field 'nope'", path);
	assert_non_null(strstr(err->message, want));
	irs_error_destroy(err);
	unlink(path);
	err = irs_layout_load(path, &f->ft.target, &f->lo);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	assert_non_null(strstr(err->message, path));
	irs_error_destroy(err);
}

/* }====================================================== */

/* {====================================================== bad layouts */

static void
test_syntax_error(void **state)
{
	assert_fails_at(*state, HEAD "struct \"Pt\" { fields = { x = } }\n",
			2, "unexpected symbol near '}'");
}

static void
test_unknown_type(void **state)
{
	assert_fails_at(*state, HEAD "\nstruct \"Nope\" { }\n", 3,
			"struct Nope: unknown type 'Nope' in debug info");
}

static void
test_unknown_field(void **state)
{
	assert_fails_at(*state, HEAD "struct \"Pt\" { fields = {\n"
			"  x = scalar \"x\",\n  w = scalar \"nope\",\n} }\n", 4,
			"Pt.w: no field 'nope' in struct Pt");
}

// Each constructor checks what debug info says the member is.
static void
test_wrong_kind(void **state)
{
	struct fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { s = scalar "
			"\"s\" } }\n", 2, "Pt.s: scalar needs an integer, bool "
			"or float, but debug info says 'const char *' is a "
			"pointer");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = cstr "
			"\"x\" } }\n", 2, "cstr needs a char *");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { s = chars "
			"\"s\" } }\n", 2, "chars needs a char array");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = u64 "
			"\"x\" } }\n", 2, "u64 reads 8 bytes, but debug info "
			"says 'int32_t' is 4");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { l = array { "
			"ptr = \"x\", count = \"y\", of = \"Pt\" } } }\n", 2,
			"ptr needs a pointer");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { n = ptr(\"next\","
			" \"Nope\") } }\n", 2, "type 'Nope' is not declared");
}

// A template naming a field it does not have, or using one wrongly.
static void
test_template_errors(void **state)
{
	struct fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"a {nope} b\" }\n", 2,
			"struct Pt: text \"a {nope} b\": unknown field 'nope' "
			"in Pt (column 3)");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{x*, }\" }\n", 2,
			"'x' is an integer, not a sequence");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { n = chars "
			"\"name\" }, text = \"{n:%5d}\" }\n", 2,
			"format '%5d' is numeric but 'n' is a string");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{x.y}\" }\n", 2,
			"'x' is an integer, which has no field 'y'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{?x}a\" }\n", 2,
			"{?...} without its {/}");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{@ref}\" }\n", 2,
			"Pt has no ref template");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{x:%n}\" }\n", 2, "bad format '%n'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"x}\" }\n", 2, "unmatched '}'");
}

// Misspelt names and options are caught, not ignored.
static void
test_typos_are_errors(void **state)
{
	struct fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scaler "
			"\"x\" } }\n", 2, "unknown name 'scaler'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" { mask = 3 } } }\n", 2,
			"Pt.x: scalar has no option 'mask'");
	assert_fails_at(f, HEAD "struct \"Pt\" { feilds = { } }\n", 2,
			"struct Pt: unknown key 'feilds'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = \"x\" } }\n",
			2, "field 'x' is a string, not a field");
	assert_fails_at(f, HEAD "struct \"Pt\" { }\nstruct \"Pt\" { }\n", 3,
			"struct \"Pt\" declared twice");
}

// Without layout{} there is nothing to name the layout by.
static void
test_missing_layout_declaration(void **state)
{
	struct fixture *f = *state;
	struct irs_error *err = load(f, "struct \"Pt\" { }\n");
	assert_int_equal(err->code, IRS_ERROR_LAYOUT);
	assert_string_equal(err->message, "t.lua: no layout { name = ..., "
			    "root = ... } declaration");
	irs_error_destroy(err);
}

// A mistake passed through a prelude function is reported at the user's
// line, not inside the prelude.
static void
test_prelude_errors_name_user_line(void **state)
{
	assert_fails_at(*state, HEAD "local ilist = require \"irsnap.list\"\n"
			"struct \"Holder\" { fields = {\n"
			"  pts = ilist.sentinel { head = \"nope\", "
			"of = \"Pt\", link = \"link\" },\n} }\n"
			"struct \"Pt\" { }\n", 4,
			"no field 'nope' in struct Holder");
	assert_fails_at(*state, HEAD "local ilist = require \"irsnap.list\"\n"
			"local l = ilist.sentinel { head = \"pts\", "
			"off = 1 }\n",
			3, "sentinel: unknown key 'off'");
}

/* }====================================================== */

/* {====================================================== sandbox */

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

// An endless loop runs out of instructions, at its line, within seconds.
static void
test_step_budget_stops_infinite_loop(void **state)
{
	double t0 = now();
	assert_fails_at(*state, HEAD "local n = 0\nwhile true do n = n + 1 "
			"end\n", 3, "instruction budget of 100000000 "
			"exhausted");
	assert_true(now() - t0 < 10.0);
}

// A memory hog hits the memory budget, an error at its line.
static void
test_memory_budget_is_an_error(void **state)
{
	struct fixture *f = *state;
	assert_fails_at(f, HEAD "local t = {}\nfor i = 1, 1e9 do t[i] = i "
			"end\n", 3, "memory budget of 32 MiB exhausted");
	assert_fails_at(f, HEAD "local s = string.rep(\"x\", 1 << 30)\n", 2,
			"memory budget of 32 MiB exhausted");
	// and the state is still usable for the next layout
	assert_null(load(f, HEAD "struct \"Pt\" { }\n"));
}

// No os, io, debug, load, pcall, bytecode; require of prelude only.
static void
test_sandbox_hides_io_and_bytecode(void **state)
{
	struct fixture *f = *state;
	assert_fails_at(f, HEAD "os.execute(\"touch /tmp/irsnap-pwned\")\n",
			2, "'os' is not available in a layout (sandbox)");
	assert_fails_at(f, HEAD "local fp = io.open(\"/etc/passwd\")\n", 2,
			"'io' is not available");
	assert_fails_at(f, HEAD "local os = require \"os\"\n", 2,
			"require \"os\": a layout may only require the "
			"irsnap.* prelude modules");
	assert_fails_at(f, HEAD "require \"irsnap.nope\"\n", 2,
			"require \"irsnap.nope\": no such prelude module");
	assert_fails_at(f, HEAD "load(\"return 1\")\n", 2,
			"'load' is not available");
	assert_fails_at(f, HEAD "local d = string.dump(function() end)\n", 2,
			"attempt to call a nil value (field 'dump')");
	assert_fails_at(f, HEAD "local d = (\"\").dump\nd(function() end)\n",
			3, "attempt to call a nil value");
	assert_fails_at(f, HEAD "debug.sethook()\n", 2,
			"'debug' is not available");
	assert_fails_at(f, HEAD "pcall(error, \"x\")\n", 2,
			"'pcall' is not available");
	assert_fails_at(f, HEAD "getmetatable(\"\").__index = nil\n", 2,
			"'getmetatable' is not available");
	assert_fails_at(f, HEAD "collectgarbage()\n", 2,
			"'collectgarbage' is not available");
	assert_int_equal(access("/tmp/irsnap-pwned", F_OK), -1);
}

static int
write_chunk(lua_State *L, const void *p, size_t n, void *ud)
{
	(void)L;
	luaL_addlstring(ud, p, n);
	return 0;
}

// A precompiled chunk is refused before it runs.
static void
test_bytecode_file_is_refused(void **state)
{
	struct fixture *f = *state;
	lua_State *L = luaL_newstate();
	assert_int_equal(luaL_loadstring(L, HEAD "struct \"Pt\" { }"), 0);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	lua_pushvalue(L, -2);
	lua_dump(L, write_chunk, &b, 0);
	lua_pop(L, 1);
	luaL_pushresult(&b);
	size_t len;
	const char *bc = lua_tolstring(L, -1, &len);
	struct irs_error *err = irs_layout_create(bc, len, "t.lua",
						  &f->ft.target, &f->lo);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_LAYOUT);
	assert_non_null(strstr(err->message, "attempt to load a binary "
			       "chunk"));
	assert_null(f->lo);
	irs_error_destroy(err);
	lua_close(L);
}

// $IRSNAP_PRELUDE points require at an installed prelude.
static void
test_prelude_dir_from_environment(void **state)
{
	struct fixture *f = *state;
	char dir[] = "/tmp/irsnap-prelude-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char sub[64], file[96];
	snprintf(sub, sizeof(sub), "%s/irsnap", dir);
	snprintf(file, sizeof(file), "%s/mine.lua", sub);
	assert_int_equal(mkdir(sub, 0700), 0);
	FILE *fp = fopen(file, "w");
	fputs("return { x = function() return scalar \"x\" end }\n", fp);
	fclose(fp);
	setenv("IRSNAP_PRELUDE", dir, 1);
	struct irs_error *err = load(f, HEAD "local m = require "
				     "\"irsnap.mine\"\nstruct \"Pt\" { fields "
				     "= { x = m.x() } }\n");
	unsetenv("IRSNAP_PRELUDE");
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	assert_null(err);
	assert_int_equal(irs_ltype_field(irs_layout_find_type(f->lo, "Pt"),
					 "x")->at.offset,
			 offsetof(struct Pt, x));
}

// A runaway Lua text function stops at its budget during a walk and is
// a walk error, not a hang; the rest of the text is there.
static void
test_budget_applies_to_text_functions(void **state)
{
	struct fixture *f = *state;
	struct Pt p = { .x = 7 };
	assert_null(load(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			 "\"x\", c = computed(function(n) while true do end "
			 "end) }, text = \"{x}:{c}:{x}\" }\n"));
	char *text;
	struct irs_snapshot *snap;
	assert_null(irs_snapshot_text(f->lo, fake_memory(&f->ft),
				      (uintptr_t)&p, NULL, NULL, &text,
				      &snap));
	assert_string_equal(text, "7:<error>:7");
	struct irs_snapshot_stats st;
	irs_snapshot_get_stats(snap, &st);
	assert_int_equal(st.nerrors, 1);
	assert_non_null(strstr(irs_snapshot_error(snap, 0),
			       "t.lua:2: instruction budget"));
	free(text);
	irs_snapshot_destroy(snap);
}

/* }====================================================== */

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_minimal_layout_loads),
		T(test_root_defaults_to_first_struct),
		T(test_boundaries_verifiers_reduce),
		T(test_describe_shows_offsets),
		T(test_explicit_offsets_need_no_debug_info),
		T(test_enum_names_from_debug_info),
		T(test_load_from_file),
		T(test_syntax_error),
		T(test_unknown_type),
		T(test_unknown_field),
		T(test_wrong_kind),
		T(test_template_errors),
		T(test_typos_are_errors),
		T(test_missing_layout_declaration),
		T(test_prelude_errors_name_user_line),
		T(test_step_budget_stops_infinite_loop),
		T(test_memory_budget_is_an_error),
		T(test_sandbox_hides_io_and_bytecode),
		T(test_bytecode_file_is_refused),
		T(test_prelude_dir_from_environment),
		T(test_budget_applies_to_text_functions),
	};
	return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
