// Hostile layouts: every way people try to get out of a Lua sandbox (run a
// program, open a file, load native code or bytecode, reach the debug
// library, the registry or the string metatable, play with _ENV), and every
// way to hang or starve the debugger from inside it (memory bombs, deep
// recursion, backtracking patterns, loops hidden in C library functions).
// Each must fail with one "FILE:LINE: message" error, at load time or as a
// walk error, and leave the process as it was: no file written, no child
// started, no descriptor opened, the next layout loading fine. The bounded
// pattern functions (layout_strlib.c) must also answer exactly as Lua's.
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "fake_target.h"
#include "layout_internal.h"

struct Pt {
	int32_t x;
	const char *s;
};

struct Bag {
	struct Pt *pts;
	uint32_t n;
};

struct fixture {
	struct fake_target ft;
	struct irs_layout *lo;
	char canary[64];	// a file no layout may create
	int nfds;		// descriptors open before the test
};

static int
count_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	fake_target_init(&f->ft);
	fake_type(&f->ft, "Pt", sizeof(struct Pt));
	fake_field(&f->ft, "Pt", "x", offsetof(struct Pt, x), 4,
		   IRS_TYPE_INT, "int32_t", "", 0);
	fake_field(&f->ft, "Pt", "s", offsetof(struct Pt, s), 8,
		   IRS_TYPE_POINTER, "const char *", "char", 0);
	fake_type(&f->ft, "Bag", sizeof(struct Bag));
	fake_field(&f->ft, "Bag", "pts", offsetof(struct Bag, pts), 8,
		   IRS_TYPE_POINTER, "struct Pt *", "Pt", 0);
	fake_field(&f->ft, "Bag", "n", offsetof(struct Bag, n), 4,
		   IRS_TYPE_UINT, "uint32_t", "", 0);
	snprintf(f->canary, sizeof(f->canary), "/tmp/irsnap-sandbox-%d",
		 (int)getpid());
	unlink(f->canary);
	f->nfds = count_fds();
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	irs_layout_destroy(f->lo);
	fake_target_deinit(&f->ft);
	unlink(f->canary);
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

#define HEAD "layout { name = \"t\", root = \"Pt\" }\n"
#define GOOD HEAD "struct \"Pt\" { fields = { x = scalar \"x\" } }\n"

// The process is as the test found it: nothing written, no child
// started, no descriptor left open, and a good layout still loads.
static void
assert_unharmed(struct fixture *f)
{
	assert_int_equal(access(f->canary, F_OK), -1);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(count_fds(), f->nfds);
	assert_null(load(f, GOOD));
}

// Loading @p src fails with "t.lua:LINE: ..." containing @p what (line 0:
// "t.lua: ..."), nothing is left behind, and the process is unharmed.
static void
assert_refused(struct fixture *f, const char *src, int line,
	       const char *what)
{
	struct irs_error *err = load(f, src);
	char prefix[32];
	if (line)
		snprintf(prefix, sizeof(prefix), "t.lua:%d: ", line);
	else
		snprintf(prefix, sizeof(prefix), "t.lua: ");
	if (!err || err->code != IRS_ERROR_LAYOUT ||
	    strncmp(err->message, prefix, strlen(prefix)) ||
	    !strstr(err->message, what))
		fprintf(stderr, "layout:\n%s\ngot: %s (code %d)\nwant: %s...%s"
			"\n", src, err ? err->message : "success",
			err ? err->code : 0, prefix, what);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_LAYOUT);
	assert_memory_equal(err->message, prefix, strlen(prefix));
	assert_non_null(strstr(err->message, what));
	assert_null(f->lo);
	irs_error_destroy(err);
	assert_unharmed(f);
}

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct hostile {
	const char *src;	// after HEAD: line 2 on
	int line;
	const char *what;
};

// Runs each of @p cases; returns how many.
static size_t
refuse_all(struct fixture *f, const struct hostile *cases, size_t n)
{
	char src[4096];
	for (size_t i = 0; i < n; i++) {
		// the canary's name stands for %s in a case
		char body[2048];
		snprintf(body, sizeof(body), cases[i].src, f->canary);
		snprintf(src, sizeof(src), HEAD "%s\n", body);
		double t0 = now();
		assert_refused(f, src, cases[i].line, cases[i].what);
		// a budget stops a runaway within seconds, not minutes
		assert_true(now() - t0 < 20.0);
	}
	return n;
}

/* {====================================================== escapes */

// Running programs, opening files, loading native code.
static const struct hostile escapes[] = {
	{ "os.execute(\"touch %s\")", 2, "'os' is not available in a layout (sandbox)" },
	{ "local p = io.popen(\"touch %s\")", 2, "'io' is not available" },
	{ "local fp = io.open(\"%s\", \"w\")", 2, "'io' is not available" },
	{ "for l in io.lines(\"/etc/passwd\") do end", 2, "'io' is not available" },
	{ "local out = io.stdout", 2, "'io' is not available" },
	{ "os.exit(1)", 2, "'os' is not available" },
	{ "os.remove(\"%s\")", 2, "'os' is not available" },
	{ "local e = os.getenv(\"HOME\")", 2, "'os' is not available" },
	{ "local f = package.loadlib(\"libc.so.6\", \"system\")", 2, "'package' is not available" },
	{ "package.cpath = \"/tmp/?.so\"", 2, "'package' is not available" },
	{ "local os = require \"os\"", 2, "require \"os\": a layout may only require the irsnap.* prelude modules" },
	{ "local io = require \"io\"", 2, "a layout may only require the irsnap.* prelude modules" },
	{ "local d = require \"debug\"", 2, "a layout may only require" },
	{ "local ffi = require \"ffi\"", 2, "a layout may only require" },
	{ "local m = require \"irsnap.list/../../../../etc/passwd\"", 2, "a layout may only require" },
	{ "local m = require \"irsnap..list\"", 2, "a layout may only require" },
	{ "local m = require \"irsnap.\"", 2, "a layout may only require" },
	{ "local m = require \"irsnap.nope\"", 2, "no such prelude module" },
	{ "local m = require(\"irsnap.list\\0/x\")", 2, "a layout may only require" },
	{ "dofile(\"/etc/passwd\")", 2, "'dofile' is not available" },
	{ "local c = loadfile(\"/etc/passwd\")", 2, "'loadfile' is not available" },
	{ "local c = load(\"return 1\")", 2, "'load' is not available" },
	{ "local c = loadstring(\"return 1\")", 2, "'loadstring' is not available" },
	{ "local c = load(\"\\27Lua\\84\\0\")", 2, "'load' is not available" },
	{ "local d = string.dump(function() end)", 2, "attempt to call a nil value (field 'dump')" },
	{ "local d = (\"\").dump\nd(function() end)", 3, "attempt to call a nil value" },
	{ "local x = debug.getregistry()", 2, "'debug' is not available" },
	{ "debug.sethook()", 2, "'debug' is not available" },
	{ "local i = debug.getinfo(1)", 2, "'debug' is not available" },
	{ "local u = debug.getupvalue(require, 1)", 2, "'debug' is not available" },
	{ "print(\"hello\")", 2, "'print' is not available" },
};

// Metatables, the globals table and _ENV: nothing hidden can be reached,
// and nothing shared can be changed.
static const struct hostile reaches[] = {
	{ "local mt = getmetatable(\"\")", 2, "'getmetatable' is not available" },
	{ "getmetatable(\"\").__index = nil", 2, "'getmetatable' is not available" },
	{ "setmetatable(\"\", {})", 2, "'setmetatable' is not available" },
	{ "local t = setmetatable({}, { __gc = function() end })", 2, "'setmetatable' is not available" },
	{ "local mt = (\"\").__index\nmt.rep = nil", 3, "attempt to index a nil value" },
	{ "local s = \"x\"\ns.rep = function() end", 3, "attempt to index a string value" },
	{ ";(\"\").gsub = nil", 2, "attempt to index a string value" },
	{ "rawset(_G, \"os\", 1)", 2, "'rawset' is not available" },
	{ "local o = rawget(_ENV, \"os\")", 2, "'rawget' is not available" },
	{ "local g = _G", 2, "'_G' is not available" },
	{ "_G.os.execute(\"touch %s\")", 2, "'_G' is not available" },
	{ "_ENV.os.execute(\"touch %s\")", 2, "'os' is not available" },
	{ "local e = _ENV\ne.io.open(\"%s\", \"w\")", 3, "'io' is not available" },
	{ "for k in pairs(_ENV) do\n  if k == \"os\" or k == \"io\" or k == \"debug\" or k == \"package\"\n"
	  "     or k == \"load\" or k == \"_G\" or k == \"getmetatable\" then error(\"found \" .. k) end\nend\n"
	  "for k in pairs(string) do if k == \"dump\" then error(\"found dump\") end end\n"
	  "error(\"nothing hidden\")", 7, "nothing hidden" },
	{ "local _ENV = { struct = struct }\nstruct \"Pt\" { fields = { x = scalar \"x\" } }", 3,
	  "attempt to call a nil value (global 'scalar')" },
	{ "_ENV = nil\nstruct \"Pt\" { }", 3, "attempt to index a nil value (upvalue '_ENV')" },
	{ "_ENV.struct = nil\nstruct \"Pt\" { }", 3, "unknown name 'struct'" },
	{ "local c = coroutine.wrap(function() end)", 2, "'coroutine' is not available" },
	{ "local c = coroutine.create(print)", 2, "'coroutine' is not available" },
	{ "collectgarbage(\"stop\")", 2, "'collectgarbage' is not available" },
	{ "local ok = pcall(error, \"x\")", 2, "'pcall' is not available" },
	{ "local ok = xpcall(error, error)", 2, "'xpcall' is not available" },
	{ "local m = module(\"x\")", 2, "'module' is not available" },
};

// Errors that carry no position of their own still name the line.
static const struct hostile odd_errors[] = {
	{ "error({})", 2, "error object is a table value" },
	{ "error()", 2, "error object is a nil value" },
	{ "\nerror(\"boom\", 0)", 3, "boom" },
	{ "error(42)", 2, "42" },
	{ "assert(false)", 2, "assertion failed!" },
	{ "assert(nil, { 1 })", 2, "error object is a table value" },
};

// Sandbox escapes: none works, each is an error at its line.
static void
test_escapes_are_errors(void **state)
{
	struct fixture *f = *state;
	size_t n = refuse_all(f, escapes, ARRAY_SIZE(escapes));
	n += refuse_all(f, reaches, ARRAY_SIZE(reaches));
	n += refuse_all(f, odd_errors, ARRAY_SIZE(odd_errors));
	fprintf(stderr, "# %zu escapes refused\n", n);
}

// A precompiled chunk, whatever it is named, never runs.
static void
test_bytecode_is_refused(void **state)
{
	struct fixture *f = *state;
	lua_State *L = luaL_newstate();
	luaL_openlibs(L);
	char body[256];
	snprintf(body, sizeof(body), "os.execute(\"touch %s\")", f->canary);
	assert_int_equal(luaL_loadstring(L, body), 0);
	assert_int_equal(luaL_dostring(L, "return string.dump(...)"), 1);
	lua_settop(L, 0);
	assert_int_equal(luaL_loadstring(L, body), 0);
	lua_getglobal(L, "string");
	lua_getfield(L, -1, "dump");
	lua_pushvalue(L, 1);
	assert_int_equal(lua_pcall(L, 1, 1, 0), 0);
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
	assert_unharmed(f);
}

/* }====================================================== */

/* {====================================================== bombs */

// Memory: every allocation counts against the 32 MiB budget.
static const struct hostile memory_bombs[] = {
	{ "local s = string.rep(\"x\", 1 << 30)", 2, "memory budget of 32 MiB exhausted" },
	{ "local s = (\"ab\"):rep(1e8, \",\")", 2, "memory budget of 32 MiB exhausted" },
	{ "local s = (\"xx\"):rep(math.maxinteger)", 2, "resulting string too large" },
	{ "local s = string.rep(\"x\", 1 << 29, \"y\")", 2, "memory budget of 32 MiB exhausted" },
	{ "local s = \"x\"\nwhile true do s = s .. s end", 3, "memory budget of 32 MiB exhausted" },
	{ "local t = {}\nfor i = 1, 1e9 do t[i] = { i } end", 3, "memory budget of 32 MiB exhausted" },
	{ "local t = {}\nfor i = 1, 1e9 do t[#t + 1] = (\"x\"):rep(1000) .. i end", 3,
	  "memory budget of 32 MiB exhausted" },
	{ "local s = (\"x\"):rep(1e7)\nlocal r = s:gsub(\".\", \"%%0%%0%%0%%0%%0%%0%%0%%0\")", 3,
	  "memory budget of 32 MiB exhausted" },
	{ "local t = {}\nfor i = 1, 1e6 do t[i] = \"abcdefgh\" end\nlocal s = table.concat(t):rep(20)", 4,
	  "memory budget of 32 MiB exhausted" },
	{ "local s = utf8.char(0x7FFFFFFF):rep(1e8)", 2, "memory budget of 32 MiB exhausted" },
	{ "local t = table.pack(table.unpack({}, 1, 1e8))", 2, "too many results to unpack" },
	{ "local s = string.format(\"%%099999d\", 1)", 2, "invalid conversion" },
};

// Time: loops the instruction budget sees, and loops it could not see
// before they were charged to it (layout_strlib.c).
static const struct hostile time_bombs[] = {
	{ "while true do end", 2, "instruction budget of 100000000 exhausted" },
	{ "local function f() return f() end\nf()", 2, "instruction budget" },
	{ "repeat local x = 1 until false", 2, "instruction budget" },
	{ "local s = (\"a\"):rep(30)\nlocal i = s:find((\"a*\"):rep(30) .. \"b\")", 3,
	  "instruction budget of 100000000 exhausted (in a string or table function)" },
	{ "local s = (\"a\"):rep(5000)\nlocal m = s:match(\"^(.-)(.-)(.-)b$\")", 3, "instruction budget" },
	{ "local s = (\"a\"):rep(3000)\nfor w in s:gmatch(\"a-a-a-b\") do end", 3, "instruction budget" },
	{ "local s = (\"a\"):rep(3000)\nlocal r = s:gsub(\"a*a*a*b\", \"\")", 3, "instruction budget" },
	{ "local s = (\"(\"):rep(1e6)\nlocal x = s:find(\"%%b()%%b()%%b()x\")", 3, "instruction budget" },
	{ "table.move({}, 1, 1 << 50, 2)", 2, "instruction budget" },
	// C work behind a few instructions, its garbage collected as it goes
	{ "for i = 1, 1 << 40 do local s = (\"x\"):rep(1 << 22) end", 2, "instruction budget" },
	{ "local s = (\"x\"):rep(1 << 22)\nfor i = 1, 1 << 40 do local t = s:upper() end", 3,
	  "instruction budget of 100000000 exhausted (strings or tables built without end?)" },
	{ "local s = (\"x\"):rep(1 << 22)\nfor i = 1, 1 << 40 do local t = s .. i end", 3,
	  "instruction budget" },
	{ "local s = (\"ab\"):rep(1 << 20)\nfor i = 1, 1 << 40 do local t = s:reverse():lower() end", 3,
	  "instruction budget" },
	{ "local t = table.move({ 1 }, math.mininteger, -1, 1)", 2, "too many elements to move" },
	{ "local t = table.move({ 1 }, math.mininteger, -2, 1)", 2, "instruction budget" },
	{ "local s = string.rep(\"\", 1 << 62)\nlocal t = string.rep(\"\", 1 << 62, \"\")\n"
	  "local a = (\"a\"):rep(1e6)\nlocal b = (\"a\"):rep(5e5) .. \"b\"\n"
	  "assert(not a:find(b, 1, true) and s == \"\" and t == \"\")\nerror(\"finished\")", 7,
	  "finished" },
};

// Recursion: the Lua stack and the C stack are both bounded. The memory
// budget stops a Lua recursion before Lua's own limit of its stack does,
// and says what took the memory.
static const struct hostile deep[] = {
	{ "local function f(n) return 1 + f(n + 1) end\nf(1)", 2,
	  "memory budget of 32 MiB exhausted (endless recursion?)" },
	{ "local function f(s) return (s:gsub(\".\", f)) end\nf(\"ab\")", 2, "stack overflow" },
	{ "local function f(t) return f({ t }) + 1 end\nf({})", 2,
	  "memory budget of 32 MiB exhausted (endless recursion?)" },
	{ "local m = (\"x\"):rep(300):match((\"(x)\"):rep(40))", 2, "too many captures" },
	{ "local m = (\"x\"):rep(300):match((\"x?\"):rep(250))", 2, "pattern too complex" },
};

static void
test_bombs_are_errors(void **state)
{
	struct fixture *f = *state;
	size_t n = refuse_all(f, memory_bombs, ARRAY_SIZE(memory_bombs));
	n += refuse_all(f, time_bombs, ARRAY_SIZE(time_bombs));
	n += refuse_all(f, deep, ARRAY_SIZE(deep));
	fprintf(stderr, "# %zu bombs defused\n", n);
}

// Nesting in the source itself is bounded by the parser: an error, not a
// crash of the debugger.
static void
test_deep_source_is_an_error(void **state)
{
	struct fixture *f = *state;
	size_t depth = 100000;
	char *src = malloc(depth * 2 + 64);
	int n = sprintf(src, HEAD "local x = ");
	memset(src + n, '(', depth);
	src[n + depth] = '1';
	memset(src + n + depth + 1, ')', depth);
	src[n + 2 * depth + 1] = '\0';
	assert_refused(f, src, 0, "");
	sprintf(src, HEAD "local x = ");
	n = (int)strlen(src);
	for (size_t i = 0; i < depth / 4; i++)
		memcpy(src + n + 4 * i, "{{{{", 4);
	src[n + depth] = '\0';
	assert_refused(f, src, 0, "");
	free(src);
}

/* }====================================================== */

/* {====================================================== memory hogs */

static double
cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define MEM_OUT "memory budget of 32 MiB exhausted"
#define STEPS_OUT "instruction budget of 100000000 exhausted"

// Layouts that allocate without end, kept or thrown away, in every way
// we know. Each is stopped by a budget (the issue asks: within a second
// of CPU; the time is printed, not asserted, so that a busy machine does
// not fail the test) with a "t.lua:2: ..." error saying which.
static const struct {
	const char *name;
	const char *src;	// line 2
	const char *what;
} hogs[] = {
	{ "one big string", "local s = (\"x\"):rep(1 << 30)", MEM_OUT },
	{ "many small strings",
	  "local t = {} while true do t[#t + 1] = \"s\" .. #t end", MEM_OUT },
	{ "small strings as keys",
	  "local t = {} for i = 1, 1e12 do t[\"k\" .. i] = true end", MEM_OUT },
	{ "a table growing",
	  "local t = {} while true do t[#t + 1] = #t end", MEM_OUT },
	{ "tables in a table",
	  "local t = {} for i = 1, 1e12 do t[i] = { i } end", MEM_OUT },
	{ "string.rep pieces kept", "local t = {} for i = 1, 1e12 do "
	  "t[i] = (\"x\"):rep(100) .. i end", MEM_OUT },
	{ "a string doubling",
	  "local s = \"x\" while true do s = s .. s end", MEM_OUT },
	{ "a string growing by concatenation",
	  "local s = \"\" for i = 1, 1e12 do s = s .. \"x\" end",
	  STEPS_OUT " (strings or tables built without end?)" },
	{ "every prefix of a growing string kept", "local t, s = {}, \"\" "
	  "for i = 1, 1e12 do s = s .. i t[i] = s end", MEM_OUT },
	{ "table.concat results kept", "local t = {} for i = 1, 1e12 do "
	  "t[i] = table.concat({ \"a\", i, \"b\" }) end", " budget of " },
	{ "closures kept", "local t = {} for i = 1, 1e12 do "
	  "t[i] = function() return i end end", MEM_OUT },
	{ "concatenations thrown away",
	  "for i = 1, 1e12 do local s = \"s\" .. i end",
	  STEPS_OUT " (strings or tables built without end?)" },
	{ "tostring thrown away",
	  "for i = 1, 1e12 do local s = tostring(i) end", STEPS_OUT },
	{ "string.format thrown away", "for i = 1, 1e12 do "
	  "local s = string.format(\"%%d:%%s\", i, \"x\") end", STEPS_OUT },
	{ "tables thrown away",
	  "for i = 1, 1e12 do local t = { i } end", STEPS_OUT },
	{ "closures thrown away", "for i = 1, 1e12 do "
	  "local f = function() return i end end", STEPS_OUT },
	{ "4 MiB string.rep thrown away",
	  "for i = 1, 1e12 do local s = (\"x\"):rep(1 << 22) end",
	  STEPS_OUT " (in a string or table function)" },
	{ "4 MiB s:upper() thrown away", "local s = (\"x\"):rep(1 << 22) "
	  "for i = 1, 1e12 do local u = s:upper() end", STEPS_OUT },
	{ "recursion building tables",
	  "local function f(t) return f({ t }) + 1 end f({})",
	  MEM_OUT " (endless recursion?)" },
};

// Every hog is stopped by its budget, at its line, and leaves the process
// as it was (the next layout loads).
static void
test_memory_hogs_are_stopped(void **state)
{
	struct fixture *f = *state;
	double most = 0;
	for (size_t i = 0; i < ARRAY_SIZE(hogs); i++) {
		char body[512], src[1024];
		snprintf(body, sizeof(body), hogs[i].src, f->canary);
		snprintf(src, sizeof(src), HEAD "%s\n", body);
		double t0 = cpu_now();
		assert_refused(f, src, 2, hogs[i].what);
		double secs = cpu_now() - t0;	// the next layout's load too
		fprintf(stderr, "# figure: hog '%s' stopped after %.3f s CPU: "
			"t.lua:2: ...%s...\n", hogs[i].name, secs,
			hogs[i].what);
		if (secs > most)
			most = secs;
	}
	fprintf(stderr, "# figure: %zu hogs, the slowest stopped after %.3f s "
		"CPU\n", ARRAY_SIZE(hogs), most);
}

// A hog leaves its Lua state with the whole memory budget for the next
// call (computed fields and verifiers share the layout's state): 12 MiB
// built by string.rep (24 MiB at its peak) fit again. The hogs that end
// each way: memory refused, instructions spent at the memory limit, a
// deep stack, one big block.
static void
test_memory_budget_is_given_back(void **state)
{
	static const char big[] = "local s = (\"x\"):rep(12 << 20)";
	static const char *const which[] = {
		"many small strings", "table.concat results kept",
		"recursion building tables", "a string doubling",
	};
	struct irs_lua *x;
	size_t nrun = 0;
	(void)state;
	assert_null(irs_lua_create("t.lua", 0, 0, &x));
	for (size_t i = 0; i < ARRAY_SIZE(hogs); i++) {
		bool chosen = false;
		for (size_t k = 0; k < ARRAY_SIZE(which); k++)
			chosen |= !strcmp(hogs[i].name, which[k]);
		if (!chosen)
			continue;
		nrun++;
		struct irs_error *err = irs_lua_run_chunk(x, hogs[i].src,
							  strlen(hogs[i].src));
		assert_non_null(err);
		assert_non_null(strstr(err->message, " budget of "));
		irs_error_destroy(err);
		err = irs_lua_run_chunk(x, big, strlen(big));
		if (err)
			fprintf(stderr, "after '%s': %s\n", hogs[i].name,
				err->message);
		assert_null(err);
	}
	irs_lua_destroy(x);
	assert_int_equal(nrun, ARRAY_SIZE(which));
}

// A layout filling its memory budget to the brim and then making garbage
// has Lua run a full collection every few allocations; those are charged
// to the instruction budget, so it stops like the other hogs (uncharged,
// it ran 42 s). The fill that just fits is found on a 4 MiB budget.
static struct irs_error *
run_near_limit(long nlinks, int churn)
{
	char src[512];
	struct irs_lua *x;
	struct irs_error *err;
	snprintf(src, sizeof(src), "local churn, head = %d\n"
		 "for i = 1, %ld do head = { \"s\" .. i, head } end\n"
		 "for i = 1, churn * 1e12 do local s = \"y\" .. i end\n",
		 churn, nlinks);
	if ((err = irs_lua_create("t.lua", 4 << 20, 0, &x)))
		return err;
	err = irs_lua_run_chunk(x, src, strlen(src));
	irs_lua_destroy(x);
	return err;
}

static void
test_garbage_at_the_memory_limit_is_stopped(void **state)
{
	struct irs_error *err;
	long lo = 1, hi = 1 << 17;	// a fill of lo links fits, hi not
	(void)state;
	err = run_near_limit(hi, 0);
	assert_non_null(err);
	irs_error_destroy(err);
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;
		err = run_near_limit(mid, 0);
		if (err)
			hi = mid;
		else
			lo = mid;
		irs_error_destroy(err);
	}
	double t0 = cpu_now();
	err = run_near_limit(lo - 32, 1);
	double secs = cpu_now() - t0;
	fprintf(stderr, "# figure: %ld links filling a 4 MiB budget, then "
		"garbage: stopped after %.3f s CPU: %s\n", lo - 32, secs,
		err ? err->message : "(not stopped)");
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_LAYOUT);
	assert_non_null(strstr(err->message, "t.lua:3: "));
	assert_non_null(strstr(err->message, " budget of "));
	irs_error_destroy(err);
	// stopped within seconds, not minutes
	assert_true(secs < 20.0);
}

/* }====================================================== */

/* {====================================================== at walk time */

// Lua that runs during a walk (computed fields, text functions) or a
// verification is just as confined: a walk error at its line, the rest of
// the snapshot kept.
static void
test_walk_time_code_is_confined(void **state)
{
	struct fixture *f = *state;
	static const char *const bodies[] = {
		"os.execute(\"touch %s\")",
		"return io.open(\"%s\", \"w\")",
		"return (\"a\"):rep(40):find((\"a*\"):rep(40) .. \"b\")",
		"return (\"x\"):rep(1 << 30)",
		"local t = {} while true do t[#t + 1] = t end",
		"return string.dump(print)",
		"error({})",
	};
	struct Pt p = { .x = 7, .s = "s" };
	for (size_t i = 0; i < ARRAY_SIZE(bodies); i++) {
		char body[256], src[1024];
		snprintf(body, sizeof(body), bodies[i], f->canary);
		snprintf(src, sizeof(src), HEAD "struct \"Pt\" { fields = {\n"
			 "  x = scalar \"x\",\n"
			 "  c = computed(function(n) %s end) },\n"
			 "  text = \"{x}:{c}:{x}\" }\n", body);
		assert_null(load(f, src));
		char *text;
		struct irs_snapshot *snap;
		assert_null(irs_snapshot_text(f->lo, fake_memory(&f->ft),
					      (uintptr_t)&p, NULL, NULL, &text,
					      &snap));
		assert_string_equal(text, "7:<error>:7");
		struct irs_snapshot_stats st;
		irs_snapshot_get_stats(snap, &st);
		assert_int_equal(st.nerrors, 1);
		const char *e = irs_snapshot_error(snap, 0);
		if (!strstr(e, "t.lua:4: "))
			fprintf(stderr, "walk error: %s\n", e);
		assert_non_null(strstr(e, "t.lua:4: "));
		free(text);
		irs_snapshot_destroy(snap);

		// the same code as a verifier
		snprintf(src, sizeof(src), GOOD "verifier { name = \"v\", "
			 "check = function(snap)\n  %s\nend }\n", body);
		assert_null(load(f, src));
		char *problems = NULL;
		uint32_t count = 0;
		struct irs_error *err = irs_layout_verify(
			f->lo, fake_memory(&f->ft), (uintptr_t)&p, NULL,
			&problems, &count);
		const char *msg = err ? err->message : problems;
		if (!msg || !strstr(msg, "t.lua:4: "))
			fprintf(stderr, "verifier: %s\n", msg ? msg : "?");
		assert_non_null(msg);
		assert_non_null(strstr(msg, "t.lua:4: "));
		irs_error_destroy(err);
		irs_free(problems);
		assert_unharmed(f);
	}
}

// A computed field that never returns, on every node of a module: one
// budget for the walk, not one per node (hours on a real module); the
// first node's error says why, the others that they were not run.
static void
test_runaway_on_every_node_costs_one_budget(void **state)
{
	struct fixture *f = *state;
	struct Pt pts[200];
	memset(pts, 0, sizeof(pts));
	struct Bag bag = { pts, 200 };
	assert_null(load(f, "layout { name = \"t\", root = \"Bag\" }\n"
			 "struct \"Pt\" { fields = { x = scalar \"x\",\n"
			 "  c = computed(function(n) while true do end end) },"
			 "\n  text = \"{c}\" }\n"
			 "struct \"Bag\" { fields = { pts = array { ptr = "
			 "\"pts\", count = \"n\", of = \"Pt\" } },\n"
			 "  text = \"{pts}\" }\n"));
	double t0 = now();
	char *text;
	struct irs_snapshot *snap;
	assert_null(irs_snapshot_text(f->lo, fake_memory(&f->ft),
				      (uintptr_t)&bag, NULL, NULL, &text,
				      &snap));
	double secs = now() - t0;
	fprintf(stderr, "# 200 runaway calls: %.2f s\n", secs);
	assert_true(secs < 10.0);
	struct irs_snapshot_stats st;
	irs_snapshot_get_stats(snap, &st);
	assert_int_equal(st.nodes, 201);
	assert_int_equal(st.nerrors, 200);
	assert_non_null(strstr(irs_snapshot_error(snap, 0),
			       "t.lua:3: instruction budget"));
	assert_non_null(strstr(irs_snapshot_error(snap, 199),
			       "t.lua:3: not run: the layout's Lua ran out"));
	free(text);
	irs_snapshot_destroy(snap);
	assert_unharmed(f);
}

/* }====================================================== */

// A verifier's budget grows with its snapshot: one that looks up each of
// 400000 nodes (more than one budget's worth of work, as toyc's
// operand-defs on a big module) runs to the end, and one that never
// returns still stops, saying the budget it had.
static void
test_verifier_budget_grows_with_the_snapshot(void **state)
{
	struct fixture *f = *state;
	enum { N = 400000 };
	struct Pt *pts = calloc(N, sizeof(*pts));
	assert_non_null(pts);
	for (uint32_t i = 0; i < N; i++)
		pts[i].x = (int32_t)(i % 1000);
	struct Bag bag = { pts, N };
	static const char *const checks[] = {
		"local bad, seen = {}, {}\n"
		"  for n in snap:nodes \"Pt\" do seen[n.x] = true end\n"
		"  for n in snap:nodes \"Pt\" do\n"
		"    local m = snap:node(n._id)\n"
		"    if not m or not seen[m.x] then bad[#bad + 1] = n._id end\n"
		"  end\n"
		"  return bad",
		"while true do end",
	};
	for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
		char src[1024];
		snprintf(src, sizeof(src), "layout { name = \"t\", root = "
			 "\"Bag\" }\nstruct \"Pt\" { fields = { x = scalar "
			 "\"x\" } }\nstruct \"Bag\" { fields = { pts = array { "
			 "ptr = \"pts\", count = \"n\", of = \"Pt\" } } }\n"
			 "verifier { name = \"v\", check = function(snap)\n"
			 "  %s\nend }\n", checks[i]);
		assert_null(load(f, src));
		char *problems = NULL;
		uint32_t count = 0;
		double t0 = cpu_now();
		struct irs_error *err = irs_layout_verify(
			f->lo, fake_memory(&f->ft), (uintptr_t)&bag, NULL,
			&problems, &count);
		double secs = cpu_now() - t0;
		uint64_t steps = irs_lua_steps_used(f->lo->lua);
		fprintf(stderr, "# figure: verifier %zu over %d nodes: %llu "
			"instructions, %.3f s CPU: %s\n", i + 1, N + 1,
			(unsigned long long)steps, secs,
			err ? err->message : "ran to the end");
		if (i == 0) {
			assert_null(err);
			assert_int_equal(count, 0);
			// more than the budget of any other call
			assert_true(steps > IRS_LUA_STEP_LIMIT);
		} else {
			// one budget and 1000 instructions per node
			assert_non_null(err);
			assert_non_null(strstr(err->message, "t.lua:5: "
					       "instruction budget of "
					       "500001000 exhausted"));
		}
		irs_error_destroy(err);
		irs_free(problems);
	}
	free(pts);
}

/* {====================================================== Lua's patterns */

// Each line: an expression over s and p; its value as a string.
static const char prologue[] =
	"local function cat(...)\n"
	"  local t = table.pack(...)\n"
	"  for i = 1, t.n do t[i] = tostring(t[i]) end\n"
	"  return table.concat(t, \",\")\n"
	"end\n"
	"local function all(s, p, init)\n"
	"  local r = {}\n"
	"  for a, b in string.gmatch(s, p, init) do r[#r + 1] = cat(a, b) end\n"
	"  return table.concat(r, \";\")\n"
	"end\n";

static const char *const calls[] = {
	"cat(string.find(s, p))",
	"cat(string.find(s, p, 3))",
	"cat(string.find(s, p, -4))",
	"cat(string.find(s, p, 1, true))",
	"cat(string.match(s, p))",
	"cat(string.match(s, p, 2))",
	"all(s, p)",
	"all(s, p, -3)",
	"cat(string.gsub(s, p, \"<%0>\"))",
	"cat(string.gsub(s, p, \"[%1]\", 2))",
	"cat(string.gsub(s, p, function(a) return a and #a > 1 and a:upper() end))",
	"cat(string.gsub(s, p, { a = \"A\", [\"\"] = \"E\" }))",
	"cat(s:find(p))",
};

// Evaluates "R = cat(...)" for s, p in the reference state (plain Lua) and
// in the sandbox; *out gets "ok:VALUE" or "error:MESSAGE" (no position).
static void
eval_ref(lua_State *L, const char *s, const char *p, const char *call,
	 char *out, size_t len)
{
	lua_pushstring(L, s);
	lua_setglobal(L, "s");
	lua_pushstring(L, p);
	lua_setglobal(L, "p");
	char code[2048];
	snprintf(code, sizeof(code), "%sreturn %s", prologue, call);
	if (luaL_loadstring(L, code) || lua_pcall(L, 0, 1, 0)) {
		const char *m = lua_tostring(L, -1);
		const char *pos = strstr(m, "]:");	// [string "..."]:N:
		if (pos && (pos = strstr(pos + 2, ": ")))
			m = pos + 2;
		snprintf(out, len, "error:%s", m);
	} else {
		snprintf(out, len, "ok:%s", lua_tostring(L, -1));
	}
	lua_settop(L, 0);
}

static void
eval_sandbox(struct fixture *f, const char *s, const char *p,
	     const char *call, char *out, size_t len)
{
	struct irs_lua *x;
	assert_null(irs_lua_create("t.lua", 0, 0, &x));
	char chunk[4096];
	// s and p as long strings ([==[...]==]) so any byte survives
	snprintf(chunk, sizeof(chunk), "%slocal s = [==[\n%s]==]\n"
		 "local p = [==[\n%s]==]\nerror(\"ok:\" .. %s, 0)\n",
		 prologue, s, p, call);
	struct irs_error *err = irs_lua_run_chunk(x, chunk, strlen(chunk));
	assert_non_null(err);
	const char *m = err->message;
	// "t.lua:LINE: ok:VALUE" or "t.lua:LINE: MESSAGE"
	const char *pos = strstr(m, ": ");
	m = pos ? pos + 2 : m;
	if (!strncmp(m, "ok:", 3))
		snprintf(out, len, "%s", m);
	else
		snprintf(out, len, "error:%s", m);
	irs_error_destroy(err);
	irs_lua_destroy(x);
	(void)f;
}

static void
assert_same(struct fixture *f, lua_State *ref, const char *s, const char *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(calls); i++) {
		char want[1024], got[1024];
		eval_ref(ref, s, p, calls[i], want, sizeof(want));
		eval_sandbox(f, s, p, calls[i], got, sizeof(got));
		if (strcmp(want, got))
			fprintf(stderr, "s = \"%s\", p = \"%s\": %s\n"
				"  Lua:     %s\n  sandbox: %s\n", s, p,
				calls[i], want, got);
		assert_string_equal(want, got);
	}
}

// Patterns: every construct of the manual's section 6.4.1, and the
// malformed ones.
static void
test_patterns_answer_as_lua(void **state)
{
	static const char *const cases[][2] = {
		{ "hello world", "o" }, { "hello world", "o w" },
		{ "hello world", "l+" }, { "hello world", "l*" },
		{ "hello world", "l-o" }, { "hello world", "x?h" },
		{ "hello world", "^h" }, { "hello world", "^e" },
		{ "hello world", "d$" }, { "hello world", "o$" },
		{ "hello world", "(o)(r)" }, { "hello world", "()ll()" },
		{ "hello world", "(h)(e)(l)" }, { "hello world", "" },
		{ "hello world", "%a+" }, { "hello world", "%A" },
		{ "  trim  me  ", "^%s*(.-)%s*$" },
		{ "key = value", "(%w+)%s*=%s*(%w+)" },
		{ "a,b,,c", "([^,]*)" }, { "a1b22c333", "%d+" },
		{ "THE (quick) fox", "%f[%a]%a+" }, { "x(a(b)c)y", "%b()" },
		{ "[[x]]", "%[(.-)%]" }, { "a.b.c", "%." }, { "a]b", "[]]" },
		{ "a-b", "[a-]" }, { "a^b", "[%^]" }, { "abc", "[^a]+" },
		{ "hello hello", "(h%a+) %1" }, { "aaa", "a-" },
		{ "aaa", "()" }, { "abc", "$" }, { "a$b", "$b" },
		{ "abc", "[a" }, { "abc", "%" }, { "abc", "(a" },
		{ "abc", "a)" }, { "abc", "%b" }, { "abc", "%f" },
		{ "abc", "%1" }, { "abc", "(a%1)" }, { "a.b", "[%w.]+" },
		{ "\t\n x", "%c" }, { "AbC", "%u%l%u" }, { "0x1F", "%x+" },
		{ "a+b", "%p" }, { "tab\there", "%g+" }, { "x", "[%a-z]" },
		{ "café", "[\x80-\xff]+" }, { "a\0b", "%z" },
		{ "one two  three", "%s+" }, { "abc", ".-$" },
		{ "aXbXc", "X" }, { "abab", "(ab)%1" }, { "f(a,b)", "%((.-)%)" },
	};
	struct fixture *f = *state;
	lua_State *ref = luaL_newstate();
	luaL_openlibs(ref);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_same(f, ref, cases[i][0], cases[i][1]);
	fprintf(stderr, "# %zu pattern cases x %zu calls as Lua's\n",
		ARRAY_SIZE(cases), ARRAY_SIZE(calls));
	lua_close(ref);
}

// Random short subjects and patterns from a small alphabet: the bounded
// matcher agrees with Lua's on every one, errors included.
static void
test_random_patterns_answer_as_lua(void **state)
{
	static const char *const atoms[] = {
		"a", "b", ".", "%a", "%d", "%s", "[ab]", "[^a]", "(", ")",
		"()", "*", "+", "-", "?", "^", "$", "%b()", "%f[a]", "%1",
		"[a-c]", "%", "]", "[",
	};
	static const char subject_chars[] = "aab( )b1 a";
	struct fixture *f = *state;
	lua_State *ref = luaL_newstate();
	luaL_openlibs(ref);
	srand(12345);
	int n = 0;
	for (int round = 0; round < 150; round++) {
		char s[16], p[64] = "";
		int ls = rand() % 12;
		for (int i = 0; i < ls; i++)
			s[i] = subject_chars[rand() % (sizeof(subject_chars) - 1)];
		s[ls] = '\0';
		int np = 1 + rand() % 5;
		for (int i = 0; i < np; i++)
			strcat(p, atoms[rand() % ARRAY_SIZE(atoms)]);
		// the reference hangs on the same bombs; these are short
		assert_same(f, ref, s, p);
		n++;
	}
	fprintf(stderr, "# %d random patterns as Lua's\n", n);
	lua_close(ref);
}

/* }====================================================== */

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_escapes_are_errors),
		T(test_bytecode_is_refused),
		T(test_bombs_are_errors),
		T(test_deep_source_is_an_error),
		T(test_memory_hogs_are_stopped),
		T(test_memory_budget_is_given_back),
		T(test_garbage_at_the_memory_limit_is_stopped),
		T(test_walk_time_code_is_confined),
		T(test_runaway_on_every_node_costs_one_budget),
		T(test_verifier_budget_grows_with_the_snapshot),
		T(test_patterns_answer_as_lua),
		T(test_random_patterns_answer_as_lua),
	};
	return cmocka_run_group_tests_name("sandbox", tests, NULL, NULL);
}
