// The sandboxed Lua state behind a layout: a memory budget (allocator), an
// instruction budget (count hook), one door into Lua (irs_lua_pcall), the
// allowlisted globals, and `require` of the irsnap.* prelude modules.
//
// Outside lua_pcall a Lua error calls abort() and would kill the user's
// debugger, so every Lua API call that may raise runs inside a protected
// function (irs_lua_protect) and irs_error values raised from C ride in
// the `pending` slot (STYLE.md, conventions 4-6).
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "layout/layout.h"

// Sanitizers make irsnap's own C (the allocator, the charges, the walker
// Lua reads through) three to four times slower: what counts as slow
// code below is as many times slower there.
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED_SLOWDOWN 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED_SLOWDOWN 4
#endif
#endif
#ifndef SANITIZED_SLOWDOWN
#define SANITIZED_SLOWDOWN 1
#endif

enum {
	HOOK_EVERY = 1000,	// VM instructions between budget checks
	// What an allocation costs the instruction budget: a flat price for
	// malloc, interning and the collector's later work on the object,
	// plus one instruction per ALLOC_BYTES bytes written (big blocks are
	// also mapped page by page). Priced at one instruction, plus one per
	// 32 bytes, a loop of `local s = tostring(i)` ran 2.9 s and one of
	// s:upper() on a 4 MiB string 0.8 s, on a budget that stops `while
	// true do end` in 0.33 s.
	ALLOC_STEPS = 32,
	ALLOC_BYTES = 8,
	// What a refused allocation costs: Lua answers it with a full
	// collection, which visits every live block (26 ns each: 400000
	// short strings in 10 ms), and retries. Near the limit, a loop that
	// makes garbage gets one collection every few allocations; free of
	// charge, 4 MiB of short strings and such a loop ran 42 s.
	GC_BLOCK_STEPS = 8,
	// A call stack this deep when memory runs out: the memory went to
	// the recursion (the memory budget comes before Lua's own limit of
	// about 200000 calls), and the message says so.
	DEEP_CALLS = 10000,
	BUDGETS_MAX = 10,	// irs_lua_budget_next() gives at most this many
	// A few VM instructions can do much work in C that no charge sees:
	// `a == b` and `a < b` of two 5 MiB strings compare them whole (0.4
	// ms), a vararg call copies all its values. So a stretch of a call
	// (CPU_LOOK_NS: the thread's CPU clock is a system call, read when
	// the cheap coarse clock says that much went by) whose instructions
	// and charges took SLOW_NS or more each spends its budget by its CPU
	// time instead, at CPU_STEP_NS per instruction (1 s of such code for
	// the default budget). Ordinary code takes 4-7 ns an instruction
	// here, 11 when it allocates without end in LLDB, 14-25 in loops of
	// C calls (gmatch over empty matches, string.format, tostring) on a
	// busy machine: it is only counted, so that where its budget runs out
	// does not depend on the machine's load (at 20 ns, a gmatch over 10
	// MB that needs 63% of its budget failed one run in three).
	CPU_STEP_NS = 10 * SANITIZED_SLOWDOWN,
	SLOW_NS = 50 * SANITIZED_SLOWDOWN,
	CPU_LOOK_NS = 5000000,
	// Code that slow has the count hook come about every HOOK_NS of CPU
	// instead of every HOOK_EVERY instructions, so that the budget (and
	// Ctrl-C) stops it soon after it runs out: 1000 comparisons of 16 MiB
	// strings are 2 s.
	HOOK_NS = 1000000,
};

struct irs_lua {
	lua_State *L;
	struct irs_error *pending;	// raised from C, returned by pcall
	size_t mem_used, mem_limit;
	size_t mem_peak;		// most mem_used has been
	size_t nblocks;			// blocks allocated, not freed
	uint64_t steps_left;		// in units of HOOK_EVERY
	uint64_t step_limit;
	uint64_t c_steps;		// charged by C, not yet a unit
	uint64_t gc_steps;		// charged for collections at the limit
	bool c_spent;			// C work ran the budget out
	bool t_spent;			// CPU time ran the budget out
	bool no_time;			// irs_lua_count_time(x, false)
	uint64_t next_look;		// coarse clock: when to read it again
	uint64_t last_cpu;		// thread CPU time at the last look
	uint64_t spent_at_look;		// steps_given - steps_left then
	uint64_t since_look;		// instructions since then
	uint32_t hook_count;		// instructions between hook calls
	uint32_t sub;			// instructions short of a unit
	locale_t c_locale;		// what Lua runs in, or 0
	bool ran_out;			// the last call ran the budget out
	uint64_t steps_given;		// steps_left at the call's start
	uint64_t budget;		// instructions the call was given
	uint64_t extra_next;		// irs_lua_budget_next()
	bool running;			// inside irs_lua_pcall
	bool mem_refused;		// the budget refused an allocation
	uint32_t mem_line;		// ... while running this line
	bool mem_deep;			// ... DEEP_CALLS calls deep
	char *file;			// display name of the layout file
};

// What irs_lua_create() uses when given 0; tests and fuzzing lower them.
static size_t default_mem_limit = IRS_LUA_MEM_LIMIT;
static uint64_t default_step_limit = IRS_LUA_STEP_LIMIT;

static const char sandbox_key = 's';	// registry: the sandbox table
static const char loaded_key = 'l';	// registry: prelude modules loaded

/* {====================================================== Ctrl-C */

// While irsnap runs a layout's Lua or walks the IR, SIGINT (Ctrl-C in the
// debugger, kill -INT) only sets this flag, which the count hook, the
// charges and the walker check; the debugger's own handler would set a
// quit flag nothing looks at until the command ends.
static volatile sig_atomic_t sigint_seen;
static unsigned interrupt_depth;	// irs_interrupt_begin() nesting
static struct sigaction saved_sigint;	// the debugger's, while ours is in

static void
on_sigint(int sig)
{
	(void)sig;
	sigint_seen = 1;
}

void
irs_interrupt_begin(void)
{
	if (interrupt_depth++ > 0)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESTART;	// the debugger's reads go on
	sigemptyset(&sa.sa_mask);
	sigint_seen = 0;
	if (sigaction(SIGINT, &sa, &saved_sigint) != 0)
		saved_sigint.sa_handler = SIG_ERR;	// nothing to restore
}

void
irs_interrupt_end(void)
{
	if (interrupt_depth == 0 || --interrupt_depth > 0)
		return;
	if (saved_sigint.sa_handler != SIG_ERR)
		sigaction(SIGINT, &saved_sigint, NULL);
	sigint_seen = 0;
}

bool
irs_interrupted(void)
{
	return sigint_seen != 0;
}

// Raises "FILE:LINE: interrupted" (IRS_ERROR_INTERRUPTED).
static int __attribute__((noreturn))
raise_interrupted(lua_State *L)
{
	struct irs_lua *x = irs_lua_of(L);
	uint32_t line = irs_lua_user_line(L);
	irs_lua_raise(L, line ? irs_error_format(IRS_ERROR_INTERRUPTED,
						 "%s:%u: interrupted",
						 x->file, line)
			      : irs_error_format(IRS_ERROR_INTERRUPTED,
						 "%s: interrupted", x->file));
}

/* }====================================================== */

/* {====================================================== budgets */

static void step_hook(lua_State *L, lua_Debug *ar);

static uint64_t
clock_ns(clockid_t id)
{
	struct timespec ts;
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// Spends the budget by the CPU time of the stretch since the last look,
// when its instructions and charges took SLOW_NS or more each, and sets
// how often the hook comes (HOOK_NS).
static void
charge_time(struct irs_lua *x)
{
	if (x->no_time)
		return;
	uint64_t now = clock_ns(CLOCK_MONOTONIC_COARSE);
	if (now < x->next_look)
		return;
	x->next_look = now + CPU_LOOK_NS;
	uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t took = cpu > x->last_cpu ? cpu - x->last_cpu : 0;
	uint64_t count = took ? x->since_look * HOOK_NS / took : HOOK_EVERY;
	count = count < 1 ? 1 : count > HOOK_EVERY ? HOOK_EVERY : count;
	if (count != x->hook_count) {
		x->hook_count = (uint32_t)count;
		lua_sethook(x->L, step_hook, LUA_MASKCOUNT, (int)count);
	}
	x->last_cpu = cpu;
	x->since_look = 0;
	uint64_t spent = x->steps_given - x->steps_left;	// in units
	uint64_t counted = spent - x->spent_at_look;
	uint64_t by_time = took / CPU_STEP_NS / HOOK_EVERY;
	if (took >= counted * HOOK_EVERY * SLOW_NS && by_time > counted) {
		uint64_t extra = by_time - counted;
		if (extra < x->steps_left) {
			x->steps_left -= extra;
		} else {
			x->steps_left = 0;
			x->t_spent = true;
		}
	}
	x->spent_at_look = x->steps_given - x->steps_left;
}

// Charges C work that cannot raise (an allocation) to the instruction
// budget; when it runs out, the count hook raises at the next instruction.
static void
charge_quietly(struct irs_lua *x, uint64_t steps)
{
	x->c_steps += steps;
	if (x->c_steps < HOOK_EVERY)
		return;
	uint64_t units = x->c_steps / HOOK_EVERY;
	x->c_steps %= HOOK_EVERY;
	if (units < x->steps_left) {
		x->steps_left -= units;
		return;
	}
	x->steps_left = 0;
	x->c_spent = true;
	lua_sethook(x->L, step_hook, LUA_MASKCOUNT, 1);	// safe anywhere
}

// What malloc takes from the process for a block of @p n bytes: glibc's
// chunks have an 8-byte header, 16-byte granules, 32 bytes at least. Lua's
// objects are small (a short string is 25 bytes besides its text), so their
// sizes alone undercount the memory a hog takes from the debugger by half.
static size_t
chunk_size(size_t n)
{
	if (n > SIZE_MAX / 2)
		return SIZE_MAX / 2;	// refused anyway; no overflow below
	size_t c = (n + 8 + 15) & ~(size_t)15;
	return c < 32 ? 32 : c;
}

// The allocator of the state: refuses growth past the memory budget, so a
// memory hog gets LUA_ERRMEM instead of eating the debugger's memory. The
// budget counts blocks as malloc does (chunk_size).
static void *
budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct irs_lua *x = ud;
	// osize is a type tag when ptr is NULL
	size_t old = ptr ? chunk_size(osize) : 0;
	if (nsize == 0) {
		free(ptr);
		x->mem_used -= old;
		x->nblocks -= ptr != NULL;
		return NULL;
	}
	size_t want = chunk_size(nsize);
	if (want > old && want - old > x->mem_limit - x->mem_used) {
		if (x->L && x->running) {
			// the line of the last refusal in the layout: Lua
			// collects and retries, so an earlier one may have
			// succeeded, and a later one may come from Lua's
			// cleaning up after the error (a stack shrunk)
			uint32_t line = irs_lua_user_line(x->L);
			lua_Debug ar;
			if (line) {
				x->mem_line = line;
				x->mem_deep = lua_getstack(x->L, DEEP_CALLS,
							   &ar);
			}
			x->gc_steps += x->nblocks * GC_BLOCK_STEPS;
			charge_quietly(x, x->nblocks * GC_BLOCK_STEPS);
		}
		x->mem_refused = true;
		return NULL;
	}
	void *p = realloc(ptr, nsize);
	if (!p)
		return nsize <= osize ? ptr : NULL;	// shrinking never fails
	x->mem_used = x->mem_used - old + want;
	x->nblocks += ptr == NULL;
	if (x->mem_used > x->mem_peak)
		x->mem_peak = x->mem_used;
	// What is allocated is also written: a loop of a few instructions
	// building strings that the collector frees again stays under the
	// memory budget, and must not escape the instruction budget.
	if (want > old && x->running && x->L)
		charge_quietly(x, ALLOC_STEPS + (want - old) / ALLOC_BYTES);
	return p;
}

// Count hook: a runaway loop runs out of steps and becomes an error at the
// line it was running.
static void
step_hook(lua_State *L, lua_Debug *ar)
{
	struct irs_lua *x = irs_lua_of(L);
	if (sigint_seen)
		raise_interrupted(L);
	if (x->steps_left > 0) {
		// hook_count instructions ran since the last call
		x->since_look += x->hook_count;
		x->sub += x->hook_count;
		if (x->sub >= HOOK_EVERY) {
			x->sub -= HOOK_EVERY;
			x->steps_left--;
		}
		charge_time(x);
		if (x->steps_left > 0 || !x->t_spent)
			return;
	}
	x->ran_out = true;
	lua_getinfo(L, "Sl", ar);
	lua_pushfstring(L, "%s:%d: instruction budget of %I exhausted (%s)",
			ar->short_src, ar->currentline, (lua_Integer)x->budget,
			x->t_spent ? "C work behind few instructions: long "
				     "strings compared?"
			: x->c_spent ? "strings or tables built without end?"
				     : "endless loop?");
	lua_error(L);
}

void
irs_lua_charge(lua_State *L, uint64_t steps)
{
	struct irs_lua *x = irs_lua_of(L);
	if (sigint_seen)
		raise_interrupted(L);
	x->c_steps += steps;
	if (x->c_steps < HOOK_EVERY)
		return;
	uint64_t units = x->c_steps / HOOK_EVERY;
	x->c_steps %= HOOK_EVERY;
	if (units <= x->steps_left) {
		x->steps_left -= units;
		// one call may run long between two instructions (a gsub
		// over a million characters): its time counts too
		charge_time(x);
		if (x->steps_left > 0 || !x->t_spent)
			return;
	}
	x->steps_left = 0;
	x->ran_out = true;
	irs_lua_raisef(L, irs_lua_user_line(L), "instruction budget of %llu "
		       "exhausted (in a string or table function)",
		       (unsigned long long)x->budget);
}

// Reached only on a bug (a Lua call outside irs_lua_pcall): say what
// happened before Lua aborts.
static int
at_panic(lua_State *L)
{
	const char *msg = lua_tostring(L, -1);
	fprintf(stderr, "irsnap: Lua error outside a protected call: %s\n",
		msg ? msg : "?");
	return 0;
}

/* }====================================================== */

/* {====================================================== the door */

struct irs_lua *
irs_lua_of(lua_State *L)
{
	return *(struct irs_lua **)lua_getextraspace(L);
}

lua_State *
irs_lua_state(struct irs_lua *x)
{
	return x->L;
}

const char *
irs_lua_file(const struct irs_lua *x)
{
	return x->file;
}

uint32_t
irs_lua_user_line(lua_State *L)
{
	lua_Debug ar;
	for (int level = 0; lua_getstack(L, level, &ar); level++) {
		lua_getinfo(L, "Sl", &ar);
		// the layout is the only chunk named "@file"; prelude modules
		// are "=irsnap/..." and C functions "=[C]"
		if (ar.currentline > 0 && ar.source[0] == '@')
			return (uint32_t)ar.currentline;
	}
	return 0;
}

int
irs_lua_raise(lua_State *L, struct irs_error *err)
{
	struct irs_lua *x = irs_lua_of(L);
	irs_error_destroy(x->pending);
	x->pending = err;		// anchored before anything can raise
	lua_pushstring(L, err->message);
	lua_error(L);
	__builtin_unreachable();	// lua_error longjmps
}

int
irs_lua_raisef(lua_State *L, uint32_t line, const char *fmt, ...)
{
	struct irs_lua *x = irs_lua_of(L);
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct irs_error *err = line
		? irs_error_format(IRS_ERROR_LAYOUT, "%s:%u: %s", x->file,
				   line, msg)
		: irs_error_format(IRS_ERROR_LAYOUT, "%s: %s", x->file, msg);
	irs_lua_raise(L, err);
}

// Lua shortens long chunk names to "...tail:LINE: msg"; put the whole file
// name back so the message names the file.
static struct irs_error *
error_from_message(struct irs_lua *x, const char *msg)
{
	if (strncmp(msg, "...", 3) == 0) {
		const char *colon = strchr(msg + 3, ':');
		size_t tail = colon ? (size_t)(colon - (msg + 3)) : 0;
		size_t flen = strlen(x->file);
		if (colon && tail <= flen &&
		    memcmp(x->file + flen - tail, msg + 3, tail) == 0)
			return irs_error_format(IRS_ERROR_LAYOUT, "%s%s",
						x->file, colon);
	}
	return irs_error_format(IRS_ERROR_LAYOUT, "%s", msg);
}

// True when @p msg starts with a position "SOURCE:LINE: ", as the errors
// Lua raises with a level do.
static bool
has_position(const char *msg)
{
	const char *colon = strchr(msg, ':');
	if (!colon || colon == msg || memchr(msg, '\n', (size_t)(colon - msg)))
		return false;
	const char *d = colon + 1;
	while (*d >= '0' && *d <= '9')
		d++;
	return d > colon + 1 && d[0] == ':' && d[1] == ' ';
}

// Message handler: the stack of the error is still there, so an error
// without a position (error("x", 0), error({}), error()) gets the layout
// line that raised it. Lua skips it for memory errors.
static int
l_msgh(lua_State *L)
{
	struct irs_lua *x = irs_lua_of(L);
	const char *msg = lua_tostring(L, 1);
	if (msg && has_position(msg))
		return 1;
	uint32_t line = irs_lua_user_line(L);
	char where[32] = "";
	if (line)
		snprintf(where, sizeof(where), ":%u", line);
	if (msg)
		lua_pushfstring(L, "%s%s: %s", x->file, where, msg);
	else
		lua_pushfstring(L, "%s%s: error object is a %s value", x->file,
				where, luaL_typename(L, 1));
	return 1;
}

struct irs_error *
irs_lua_pcall(struct irs_lua *x, int nargs, int nresults)
{
	lua_State *L = x->L;
	bool was_running = x->running;
	// a call from inside another (a prelude's require) spends the outer
	// call's budget; only an outermost call gets a fresh one
	if (!was_running) {
		x->budget = x->step_limit + x->extra_next;
		x->extra_next = 0;
		x->steps_left = x->budget / HOOK_EVERY;
		x->steps_given = x->steps_left;
		x->c_steps = 0;
		x->gc_steps = 0;
		x->c_spent = false;
		x->t_spent = false;
		x->ran_out = false;
		x->last_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		x->spent_at_look = 0;
		x->since_look = 0;
		x->next_look = clock_ns(CLOCK_MONOTONIC_COARSE) + CPU_LOOK_NS;
		x->hook_count = HOOK_EVERY;
		x->sub = 0;
		lua_sethook(L, step_hook, LUA_MASKCOUNT, HOOK_EVERY);
	}
	x->mem_refused = false;
	x->mem_line = 0;
	x->mem_deep = false;
	if (!lua_checkstack(L, 2))
		return &irs_enomem;
	int base = lua_gettop(L) - nargs;	// the function's slot
	lua_pushcfunction(L, l_msgh);
	lua_insert(L, base);
	x->running = true;
	irs_interrupt_begin();
	// the C locale whatever the debugger set: string order (`<`,
	// table.sort), %a and the like, and number formats are the same in
	// GDB and LLDB, and a comparison is strcmp, not a collation
	locale_t saved = x->c_locale && !was_running ? uselocale(x->c_locale)
						     : (locale_t)0;
	int status = lua_pcall(L, nargs, nresults, base);
	if (saved)
		uselocale(saved);
	irs_interrupt_end();
	x->running = was_running;
	lua_remove(L, base);
	// A call that met the memory budget leaves its garbage behind, and
	// the buffers of Lua's string functions are refused without a
	// collection first: give the next call its whole budget.
	if (status == LUA_OK && x->mem_refused)
		lua_gc(L, LUA_GCCOLLECT);
	if (status == LUA_OK)
		return NULL;
	struct irs_error *err = x->pending;	// structured error from C
	x->pending = NULL;
	// Near its memory budget, a layout that keeps making garbage has
	// Lua collect before every few allocations; when those collections
	// ran the instruction budget out, memory is what ran out.
	bool mem_out = x->mem_refused && (status == LUA_ERRMEM ||
		(!was_running && x->ran_out && x->gc_steps * 2 >= x->budget));
	if (mem_out && status != LUA_ERRMEM) {
		irs_error_destroy(err);
		err = NULL;
	}
	if (!err && mem_out) {
		char where[32] = "";
		if (x->mem_line)
			snprintf(where, sizeof(where), ":%u", x->mem_line);
		err = irs_error_format(IRS_ERROR_LAYOUT, "%s%s: memory budget "
				       "of %zu MiB exhausted%s", x->file, where,
				       x->mem_limit >> 20, x->mem_deep
				       ? " (endless recursion?)" : "");
	}
	if (!err && status == LUA_ERRMEM)
		err = &irs_enomem;	// the machine, not the budget
	if (!err) {
		const char *msg = lua_tostring(L, -1);
		err = error_from_message(x, msg ? msg
					 : "(error object is not a string)");
	}
	lua_pop(L, 1);
	if (x->mem_refused || status == LUA_ERRMEM)
		lua_gc(L, LUA_GCCOLLECT);	// as above
	return err;
}

void
irs_lua_budget_next(struct irs_lua *x, uint64_t extra)
{
	uint64_t most = (BUDGETS_MAX - 1) * x->step_limit;
	x->extra_next = extra < most ? extra : most;
}

uint64_t
irs_lua_step_limit(const struct irs_lua *x)
{
	return x->step_limit;
}

void
irs_lua_count_time(struct irs_lua *x, bool on)
{
	x->no_time = !on;
}

uint64_t
irs_lua_steps_used(const struct irs_lua *x)
{
	return (x->steps_given - x->steps_left) * HOOK_EVERY;
}

bool
irs_lua_ran_out(const struct irs_lua *x)
{
	return x->ran_out;
}

struct irs_error *
irs_lua_protect(struct irs_lua *x, int (*fn)(lua_State *L), void *ud)
{
	// pushing a C function and a light userdata never allocates: the
	// stack always has LUA_MINSTACK free slots here
	lua_pushcfunction(x->L, fn);
	lua_pushlightuserdata(x->L, ud);
	return irs_lua_pcall(x, 1, 0);
}

/* }====================================================== */

/* {====================================================== sandbox */

const char *
irs_prelude_dir(void)
{
	const char *dir = getenv("IRSNAP_PRELUDE");
	return dir && *dir ? dir : NULL;
}

// The text of prelude module @p rel ("irsnap/list.lua"): read from
// $IRSNAP_PRELUDE when that is set (then *owned_ret is the malloc'd text,
// the caller's to free), else the one embedded at build time.
static struct irs_error *
prelude_text(const char *rel, char **owned_ret, const char **text_ret,
	     size_t *len_ret)
{
	struct irs_error *err;
	const char *dir = irs_prelude_dir();

	*owned_ret = NULL;
	if (dir) {
		char *path;
		if (asprintf(&path, "%s/%s", dir, rel) < 0)
			return &irs_enomem;
		err = irs_file_read_max(path, IRS_LAYOUT_MAX_BYTES, false,
					owned_ret, len_ret);
		free(path);
		if (err)
			return irs_error_prefix(err, "IRSNAP_PRELUDE");
		*text_ret = *owned_ret;
		return NULL;
	}
	for (const struct irs_prelude_file *f = irs_prelude_files; f->name;
	     f++) {
		if (!strcmp(f->name, rel)) {
			*text_ret = (const char *)f->text;
			*len_ret = f->len;
			return NULL;
		}
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "not among the %s "
				"modules built into libirsnap",
				"common/prelude/irsnap");
}

void
irs_lua_push_sandbox(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &sandbox_key);
}

static bool
valid_module_name(const char *s)
{
	if (strncmp(s, "irsnap.", 7) != 0 || !s[7])
		return false;
	for (s += 7; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return false;
	return true;
}

// require "irsnap.list": loads common/prelude/irsnap/list.lua (as built
// into the library, or from $IRSNAP_PRELUDE) as text into the same
// sandbox, once.
static int
l_require(lua_State *L)
{
	size_t nlen;
	const char *name = luaL_checklstring(L, 1, &nlen);
	if (strlen(name) != nlen || !valid_module_name(name))
		return luaL_error(L, "require \"%s\": a layout may only "
				  "require the irsnap.* prelude modules", name);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &loaded_key);
	if (lua_getfield(L, -1, name) != LUA_TNIL)
		return 1;
	lua_pop(L, 1);
	// "irsnap.list" -> irsnap/list.lua, chunk "=irsnap/list.lua"; one
	// more string keeps the stack as the lua_setfield below expects.
	const char *rel = lua_pushfstring(L, "irsnap/%s.lua", name + 7);
	const char *chunk = lua_pushfstring(L, "=%s", rel);
	lua_pushstring(L, rel);
	char *src;
	const char *text = NULL;
	size_t len = 0;
	struct irs_error *err = prelude_text(rel, &src, &text, &len);
	if (err) {
		uint32_t line = irs_lua_user_line(L);
		char msg[600];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		irs_lua_raisef(L, line, "require \"%s\": no such prelude "
			       "module (%s)", name, msg);
	}
	// src is ours until freed: lua_load reports errors by status
	int status = luaL_loadbufferx(L, text, len, chunk, "t");
	free(src);
	if (status != LUA_OK)
		return lua_error(L);
	irs_lua_push_sandbox(L);
	lua_setupvalue(L, -2, 1);
	lua_call(L, 0, 1);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		lua_pushboolean(L, 1);
	}
	lua_pushvalue(L, -1);
	lua_setfield(L, -6, name);	// loaded[name]
	return 1;
}

static const char *const forbidden[] = {
	"os", "io", "debug", "package", "load", "loadfile", "dofile",
	"loadstring", "collectgarbage", "pcall", "xpcall", "setmetatable",
	"getmetatable", "rawset", "rawget", "print", "coroutine", "module",
	"_G", NULL,
};

// __index of the sandbox: reading an undefined name is a mistake in a
// declarative file (a typo such as `scaler "x"`), and reaching for a
// forbidden library deserves a plain answer.
static int
l_undefined(lua_State *L)
{
	const char *name = lua_tostring(L, 2);
	if (!name)
		return luaL_error(L, "undefined global");
	for (int i = 0; forbidden[i]; i++)
		if (!strcmp(name, forbidden[i]))
			return luaL_error(L, "'%s' is not available in a "
					  "layout (sandbox)", name);
	return luaL_error(L, "unknown name '%s'", name);
}

// Copies library table @p lib (opened by @p open) into the sandbox at -1.
static void
copy_library(lua_State *L, const char *lib, lua_CFunction open)
{
	luaL_requiref(L, lib, open, 0);
	if (!strcmp(lib, "string")) {
		// string.dump turns functions into bytecode; take it off the
		// real table too, since ("").dump reaches it; the same for the
		// functions whose loops the budget cannot see
		lua_pushnil(L);
		lua_setfield(L, -2, "dump");
		irs_strlib_bound(L);
	}
	if (!strcmp(lib, "table"))
		irs_tablib_bound(L);
	if (!strcmp(lib, "utf8"))
		irs_utf8lib_bound(L);
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, -3)) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_settable(L, -4);
	}
	lua_setfield(L, -3, lib);
	lua_pop(L, 1);
}

static const char *const base_allowed[] = {
	"assert", "error", "ipairs", "pairs", "next", "select", "tonumber",
	"tostring", "type", "rawequal", "rawlen", NULL,
};

static int
l_setup(lua_State *L)
{
	lua_settop(L, 0);
	luaL_requiref(L, "_G", luaopen_base, 0);	// only in the registry
	lua_newtable(L);				// the sandbox
	for (int i = 0; base_allowed[i]; i++) {
		lua_getfield(L, 1, base_allowed[i]);
		lua_setfield(L, 2, base_allowed[i]);
	}
	irs_baselib_bound(L);		// on the sandbox, at the top
	copy_library(L, "string", luaopen_string);
	copy_library(L, "table", luaopen_table);
	copy_library(L, "math", luaopen_math);
	copy_library(L, "utf8", luaopen_utf8);
	lua_pushcfunction(L, l_require);
	lua_setfield(L, 2, "require");
	irs_decl_register(L);
	irs_fields_register(L);
	lua_newtable(L);				// its metatable
	lua_pushcfunction(L, l_undefined);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, 2);
	lua_pushvalue(L, 2);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &sandbox_key);
	lua_newtable(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &loaded_key);
	return 0;
}

/* }====================================================== */

// $IRSNAP_LUA_STEPS: the instruction budget of each call into Lua, for a
// layout whose honest work needs more (or a test that needs a long run to
// interrupt); 0 in *ret when it is not set.
static struct irs_error *
steps_from_env(uint64_t *ret)
{
	const char *v = getenv("IRSNAP_LUA_STEPS");
	*ret = 0;
	if (!v || !*v)
		return NULL;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	// at most 1e15 (a day of CPU): ten budgets stay far from overflow
	if (errno || *end || v[0] == '-' || n == 0 || n > 1000000000000000ull)
		return irs_error_format(IRS_ERROR_USAGE, "IRSNAP_LUA_STEPS=%s: "
					"not an instruction budget (a whole "
					"number from 1 to 10^15)", v);
	*ret = n;
	return NULL;
}

struct irs_error *
irs_lua_create(const char *file, size_t mem_limit, uint64_t step_limit,
	       struct irs_lua **ret)
{
	struct irs_error *err;
	uint64_t env_steps = 0;
	// the environment speaks for the user, not for a test's lower default
	if (!step_limit && default_step_limit == IRS_LUA_STEP_LIMIT &&
	    (err = steps_from_env(&env_steps)))
		return err;
	struct irs_lua *x = calloc(1, sizeof(*x));
	if (!x)
		return &irs_enomem;
	x->mem_limit = mem_limit ? mem_limit : default_mem_limit;
	x->step_limit = step_limit ? step_limit
		: env_steps ? env_steps : default_step_limit;
	x->file = strdup(file);
	if (!x->file) {
		free(x);
		return &irs_enomem;
	}
	lua_State *L = lua_newstate(budget_alloc, x);
	if (!L) {
		free(x->file);
		free(x);
		return &irs_enomem;
	}
	x->L = L;
	x->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	*(struct irs_lua **)lua_getextraspace(L) = x;
	lua_atpanic(L, at_panic);
	lua_sethook(L, step_hook, LUA_MASKCOUNT, HOOK_EVERY);
	err = irs_lua_protect(x, l_setup, NULL);
	if (err) {
		irs_lua_destroy(x);
		return err;
	}
	*ret = x;
	return NULL;
}

void
irs_lua_default_budgets(size_t mem_limit, uint64_t step_limit)
{
	default_mem_limit = mem_limit ? mem_limit : IRS_LUA_MEM_LIMIT;
	default_step_limit = step_limit ? step_limit : IRS_LUA_STEP_LIMIT;
}

void
irs_lua_destroy(struct irs_lua *x)
{
	if (!x)
		return;
	if (irs_debug('L'))
		fprintf(stderr, "irsnap: layout %s: Lua memory peak %zu KiB "
			"of the %zu KiB budget\n", x->file, x->mem_peak >> 10,
			x->mem_limit >> 10);
	if (x->L)
		lua_close(x->L);
	if (x->c_locale)
		freelocale(x->c_locale);
	irs_error_destroy(x->pending);
	free(x->file);
	free(x);
}

struct run_chunk {
	const char *src;
	size_t len;
	const char *chunkname;
};

static int
l_run_chunk(lua_State *L)
{
	struct run_chunk *rc = lua_touserdata(L, 1);
	if (luaL_loadbufferx(L, rc->src, rc->len, rc->chunkname, "t") !=
	    LUA_OK)
		return lua_error(L);
	irs_lua_push_sandbox(L);
	lua_setupvalue(L, -2, 1);
	lua_call(L, 0, 0);
	return 0;
}

struct irs_error *
irs_lua_run_chunk(struct irs_lua *x, const char *src, size_t len)
{
	char *chunkname;
	if (asprintf(&chunkname, "@%s", x->file) < 0)
		return &irs_enomem;
	struct run_chunk rc = { src, len, chunkname };
	struct irs_error *err = irs_lua_protect(x, l_run_chunk, &rc);
	free(chunkname);
	return err;
}
