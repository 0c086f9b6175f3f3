// String, table, utf8 and base functions of the layout sandbox that loop
// in C, where the instruction budget (a count hook: it sees VM
// instructions only) cannot stop them:
//  - pattern matching (string.find, match, gmatch, gsub) backtracks:
//    ("a"):rep(30):find(("a*"):rep(30) .. "b") runs for ages, a plain find
//    of a long near-miss needle is quadratic, and a set "[...]" as long as
//    the pattern is scanned for every character;
//  - string.rep of an empty string loops 2^62 times making nothing;
//  - table.move loops over its range, present or not;
//  - table.sort, concat, insert(t, 1, x), remove(t, 1), unpack,
//    string.byte, utf8.len and the like loop over their whole input, a
//    million elements for one instruction, allocating little or nothing.
// Here they are redone (patterns, concat) or guarded (the rest) so that
// their work is charged to the budget: a runaway call is the usual
// "FILE:LINE: instruction budget ... exhausted" error. The matcher
// implements Lua 5.4's patterns (manual, section 6.4.1) with the same
// results and error messages, counting its steps; the real functions are
// used for the rest. (What no function sees, the VM comparing two long
// strings, layout_lua.c charges by CPU time.)
#include <ctype.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

enum {
	MAX_CAPTURES = 32,	// as Lua's LUA_MAXCAPTURES
	MAX_DEPTH = 200,	// nested matches, as Lua's MAXCCALLS
	CHARGE_EVERY = 256,	// steps counted before charging them
	CAP_OPEN = -1,		// capture length: not closed yet
	CAP_POS = -2,		// capture length: a position capture "()"
};

// One match of a pattern against a subject.
struct pm {
	lua_State *L;
	const char *s0, *s_end;		// the subject
	const char *p_end;		// the end of the pattern
	int depth;
	int ncap;
	uint64_t ticks;			// steps not charged yet
	struct {
		const char *at;
		ptrdiff_t len;		// or CAP_OPEN, CAP_POS
	} cap[MAX_CAPTURES];
};

static void
pm_init(struct pm *m, lua_State *L, const char *s, size_t ls,
	const char *p, size_t lp)
{
	m->L = L;
	m->s0 = s;
	m->s_end = s + ls;
	m->p_end = p + lp;
	m->depth = 0;
	m->ncap = 0;
	m->ticks = 0;
}

static void
tick(struct pm *m)
{
	if (++m->ticks >= CHARGE_EVERY) {
		irs_lua_charge(m->L, m->ticks);
		m->ticks = 0;
	}
}

static void
pm_done(struct pm *m)
{
	irs_lua_charge(m->L, m->ticks);
	m->ticks = 0;
}

/* {====================================================== classes */

// Does character @p c belong to class %@p cl ("%a", "%S", ...)? Any other
// @p cl stands for itself ("%." is a dot).
static bool
class_has(int c, int cl)
{
	bool in;
	switch (tolower(cl)) {
	case 'a': in = isalpha(c); break;
	case 'c': in = iscntrl(c); break;
	case 'd': in = isdigit(c); break;
	case 'g': in = isgraph(c); break;
	case 'l': in = islower(c); break;
	case 'p': in = ispunct(c); break;
	case 's': in = isspace(c); break;
	case 'u': in = isupper(c); break;
	case 'w': in = isalnum(c); break;
	case 'x': in = isxdigit(c); break;
	default: return cl == c;
	}
	return isupper(cl) ? !in : in;
}

// Does @p c belong to the set "[...]" from @p p (its '[') to @p close (its
// ']')? A set may be as long as the pattern: each member is a step.
static bool
set_has(struct pm *m, int c, const char *p, const char *close)
{
	const unsigned char *q = (const unsigned char *)p + 1;
	const unsigned char *end = (const unsigned char *)close;
	bool in = true;
	if (*q == '^') {
		in = false;
		q++;
	}
	for (; q < end; q++) {
		tick(m);
		if (*q == '%') {
			q++;
			if (class_has(c, *q))
				return in;
		} else if (q + 2 < end && q[1] == '-') {
			if (q[0] <= c && c <= q[2])
				return in;
			q += 2;
		} else if (*q == c) {
			return in;
		}
	}
	return !in;
}

// The end of the single-character class at @p p: ".", "x", "%a", "[...]".
static const char *
class_end(struct pm *m, const char *p)
{
	char c = *p++;
	if (c == '%') {
		if (p >= m->p_end)
			luaL_error(m->L, "malformed pattern (ends with '%%')");
		return p + 1;
	}
	if (c != '[')
		return p;
	if (p < m->p_end && *p == '^')
		p++;
	for (;;) {	// the first member is taken as is: "[]]" holds ']'
		tick(m);
		if (p >= m->p_end)
			luaL_error(m->L, "malformed pattern (missing ']')");
		if (*p++ == '%' && p < m->p_end)
			p++;
		if (p < m->p_end && *p == ']')
			return p + 1;
	}
}

// Does the subject character at @p s match the class [p, ep)?
static bool
single_match(struct pm *m, const char *s, const char *p, const char *ep)
{
	if (s >= m->s_end)
		return false;
	int c = (unsigned char)*s;
	switch (*p) {
	case '.':
		return true;
	case '%':
		return class_has(c, (unsigned char)p[1]);
	case '[':
		return set_has(m, c, p, ep - 1);
	default:
		return (unsigned char)*p == c;
	}
}

/* }====================================================== */

/* {====================================================== matching */

static const char *match(struct pm *m, const char *s, const char *p);

// x*, x+ (from its second character): the longest run first.
static const char *
max_expand(struct pm *m, const char *s, const char *p, const char *ep)
{
	ptrdiff_t i = 0;
	while (single_match(m, s + i, p, ep)) {
		i++;
		tick(m);
	}
	for (; i >= 0; i--) {
		const char *r = match(m, s + i, ep + 1);
		if (r)
			return r;
	}
	return NULL;
}

// x-: the shortest run first.
static const char *
min_expand(struct pm *m, const char *s, const char *p, const char *ep)
{
	for (;;) {
		const char *r = match(m, s, ep + 1);
		if (r)
			return r;
		if (!single_match(m, s, p, ep))
			return NULL;
		s++;
	}
}

static const char *
open_capture(struct pm *m, const char *s, const char *p, ptrdiff_t what)
{
	if (m->ncap >= MAX_CAPTURES)
		luaL_error(m->L, "too many captures");
	m->cap[m->ncap].at = s;
	m->cap[m->ncap].len = what;
	m->ncap++;
	const char *r = match(m, s, p);
	if (!r)
		m->ncap--;
	return r;
}

static const char *
close_capture(struct pm *m, const char *s, const char *p)
{
	int l = m->ncap - 1;
	while (l >= 0 && m->cap[l].len != CAP_OPEN)
		l--;
	if (l < 0)
		luaL_error(m->L, "invalid pattern capture");
	m->cap[l].len = s - m->cap[l].at;
	const char *r = match(m, s, p);
	if (!r)
		m->cap[l].len = CAP_OPEN;
	return r;
}

// %bxy at @p s, @p p after the 'b'.
static const char *
balance(struct pm *m, const char *s, const char *p)
{
	if (p + 1 >= m->p_end)
		luaL_error(m->L, "malformed pattern (missing arguments to "
			   "'%%b')");
	if (s >= m->s_end || *s != p[0])
		return NULL;
	int depth = 1;
	while (++s < m->s_end) {
		tick(m);
		if (*s == p[1]) {
			if (--depth == 0)
				return s + 1;
		} else if (*s == p[0]) {
			depth++;
		}
	}
	return NULL;
}

// %1..%9 at @p s: the same text as that capture.
static const char *
backref(struct pm *m, const char *s, int digit)
{
	int l = digit - '1';
	if (l < 0 || l >= m->ncap || m->cap[l].len == CAP_OPEN)
		luaL_error(m->L, "invalid capture index %%%d", l + 1);
	ptrdiff_t len = m->cap[l].len;
	if (len < 0 || m->s_end - s < len)
		return NULL;
	m->ticks += (uint64_t)len / 8;	// memcmp: a step per 8 bytes
	if (memcmp(m->cap[l].at, s, (size_t)len))
		return NULL;
	return s + len;
}

// The end of a match of [p, p_end) at @p s, or NULL.
static const char *
match_here(struct pm *m, const char *s, const char *p)
{
	for (;;) {
		tick(m);
		if (p >= m->p_end)
			return s;
		switch (*p) {
		case '(':
			if (p + 1 < m->p_end && p[1] == ')')
				return open_capture(m, s, p + 2, CAP_POS);
			return open_capture(m, s, p + 1, CAP_OPEN);
		case ')':
			return close_capture(m, s, p + 1);
		case '$':
			if (p + 1 == m->p_end)
				return s == m->s_end ? s : NULL;
			break;		// else an ordinary character
		case '%':
			if (p + 1 >= m->p_end)
				break;	// class_end says what is wrong
			if (p[1] == 'b') {
				if (!(s = balance(m, s, p + 2)))
					return NULL;
				p += 4;
				continue;
			}
			if (p[1] == 'f') {
				p += 2;
				if (p >= m->p_end || *p != '[')
					luaL_error(m->L, "missing '[' after "
						   "'%%f' in pattern");
				const char *ep = class_end(m, p);
				int prev = s > m->s0 ? (unsigned char)s[-1]
						     : 0;
				int cur = s < m->s_end ? (unsigned char)*s : 0;
				if (set_has(m, prev, p, ep - 1) ||
				    !set_has(m, cur, p, ep - 1))
					return NULL;
				p = ep;
				continue;
			}
			if (isdigit((unsigned char)p[1])) {
				if (!(s = backref(m, s, (unsigned char)p[1])))
					return NULL;
				p += 2;
				continue;
			}
			break;
		}
		const char *ep = class_end(m, p);
		bool ok = single_match(m, s, p, ep);
		switch (ep < m->p_end ? *ep : '\0') {
		case '?':
			if (ok) {
				const char *r = match(m, s + 1, ep + 1);
				if (r)
					return r;
			}
			p = ep + 1;
			continue;
		case '+':
			return ok ? max_expand(m, s + 1, p, ep) : NULL;
		case '*':
			return max_expand(m, s, p, ep);
		case '-':
			return min_expand(m, s, p, ep);
		default:
			if (!ok)
				return NULL;
			s++;
			p = ep;
		}
	}
}

static const char *
match(struct pm *m, const char *s, const char *p)
{
	if (++m->depth > MAX_DEPTH)
		luaL_error(m->L, "pattern too complex");
	const char *r = match_here(m, s, p);
	m->depth--;
	return r;
}

/* }====================================================== */

/* {====================================================== results */

// Pushes capture @p i of a match [s, e) (the whole match when the pattern
// has no capture and @p i is 0).
static void
push_capture(struct pm *m, int i, const char *s, const char *e)
{
	if (i >= m->ncap) {
		if (i != 0)
			luaL_error(m->L, "invalid capture index %%%d", i + 1);
		lua_pushlstring(m->L, s, (size_t)(e - s));
		return;
	}
	ptrdiff_t len = m->cap[i].len;
	if (len == CAP_OPEN)
		luaL_error(m->L, "unfinished capture");
	if (len == CAP_POS)
		lua_pushinteger(m->L, (m->cap[i].at - m->s0) + 1);
	else
		lua_pushlstring(m->L, m->cap[i].at, (size_t)len);
}

// Pushes every capture (or the whole match [s, e) when there is none and
// @p s is given); returns how many.
static int
push_captures(struct pm *m, const char *s, const char *e)
{
	int n = m->ncap == 0 && s ? 1 : m->ncap;
	luaL_checkstack(m->L, n, "too many captures");
	for (int i = 0; i < n; i++)
		push_capture(m, i, s, e);
	return n;
}

// A 1-based, possibly negative position as a 0-based offset (may be past
// the end).
static size_t
start_offset(lua_Integer pos, size_t len)
{
	if (pos > 0)
		return (size_t)pos - 1;
	if (pos == 0 || pos < -(lua_Integer)len)
		return 0;
	return len - (size_t)-pos;
}

static bool
has_specials(const char *p, size_t lp)
{
	for (size_t i = 0; i < lp; i++)
		if (p[i] && strchr("^$*+?.([%-", p[i]))
			return true;
	return false;
}

/* }====================================================== */

/* {====================================================== the functions */

static int
find_or_match(lua_State *L, bool find)
{
	size_t ls, lp;
	const char *s = luaL_checklstring(L, 1, &ls);
	const char *p = luaL_checklstring(L, 2, &lp);
	size_t init = start_offset(luaL_optinteger(L, 3, 1), ls);
	if (init > ls) {
		lua_pushnil(L);
		return 1;
	}
	if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
		// memmem is linear; charge it as one step per 8 bytes
		irs_lua_charge(L, (ls - init) / 8);
		const char *hit = memmem(s + init, ls - init, p, lp);
		if (!hit) {
			lua_pushnil(L);
			return 1;
		}
		lua_pushinteger(L, (hit - s) + 1);
		lua_pushinteger(L, (lua_Integer)((size_t)(hit - s) + lp));
		return 2;
	}
	struct pm m;
	bool anchor = lp && *p == '^';
	if (anchor)
		p++, lp--;
	pm_init(&m, L, s, ls, p, lp);
	const char *s1 = s + init;
	do {
		m.ncap = 0;
		m.depth = 0;
		const char *e = match(&m, s1, p);
		if (e) {
			pm_done(&m);
			if (!find)
				return push_captures(&m, s1, e);
			lua_pushinteger(L, (s1 - s) + 1);
			lua_pushinteger(L, e - s);
			return push_captures(&m, NULL, NULL) + 2;
		}
	} while (s1++ < m.s_end && !anchor);
	pm_done(&m);
	lua_pushnil(L);
	return 1;
}

static int
l_find(lua_State *L)
{
	return find_or_match(L, true);
}

static int
l_match(lua_State *L)
{
	return find_or_match(L, false);
}

// What a gmatch iterator keeps; the subject and pattern are its upvalues
// 1 and 2, so the pointers stay good.
struct gm {
	size_t next;		// offset where the next match is tried
	size_t last;		// end of the last match, or SIZE_MAX
};

static int
gmatch_step(lua_State *L)
{
	size_t ls, lp;
	const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
	const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
	struct gm *g = lua_touserdata(L, lua_upvalueindex(3));
	struct pm m;
	pm_init(&m, L, s, ls, p, lp);
	for (size_t at = g->next; at <= ls; at++) {
		m.ncap = 0;
		m.depth = 0;
		const char *e = match(&m, s + at, p);
		if (e && (size_t)(e - s) != g->last) {
			g->next = g->last = (size_t)(e - s);
			pm_done(&m);
			return push_captures(&m, s + at, e);
		}
	}
	g->next = ls + 1;
	pm_done(&m);
	return 0;
}

static int
l_gmatch(lua_State *L)
{
	size_t ls;
	luaL_checklstring(L, 1, &ls);
	luaL_checkstring(L, 2);
	size_t init = start_offset(luaL_optinteger(L, 3, 1), ls);
	lua_settop(L, 2);
	struct gm *g = lua_newuserdatauv(L, sizeof(*g), 0);
	g->next = init > ls ? ls + 1 : init;
	g->last = SIZE_MAX;
	lua_pushcclosure(L, gmatch_step, 3);
	return 1;
}

// A replacement string: %0..%9 and %%.
static void
add_string(struct pm *m, luaL_Buffer *b, const char *s, const char *e)
{
	lua_State *L = m->L;
	size_t l;
	const char *r = lua_tolstring(L, 3, &l);
	const char *end = r + l;
	const char *pct;
	while ((pct = memchr(r, '%', (size_t)(end - r)))) {
		luaL_addlstring(b, r, (size_t)(pct - r));
		pct++;
		if (pct < end && *pct == '%') {
			luaL_addchar(b, '%');
		} else if (pct < end && *pct == '0') {
			luaL_addlstring(b, s, (size_t)(e - s));
		} else if (pct < end && isdigit((unsigned char)*pct)) {
			push_capture(m, *pct - '1', s, e);
			luaL_tolstring(L, -1, NULL);
			lua_remove(L, -2);
			luaL_addvalue(b);
		} else {
			luaL_error(L, "invalid use of '%%' in replacement "
				   "string");
		}
		r = pct + 1;
	}
	luaL_addlstring(b, r, (size_t)(end - r));
}

// Adds the replacement of match [s, e); false when a function or table
// gave false or nil (the match stays as it was).
static bool
add_value(struct pm *m, luaL_Buffer *b, const char *s, const char *e,
	  int tr)
{
	lua_State *L = m->L;
	if (tr == LUA_TFUNCTION) {
		lua_pushvalue(L, 3);
		int n = push_captures(m, s, e);
		lua_call(L, n, 1);
	} else if (tr == LUA_TTABLE) {
		push_capture(m, 0, s, e);
		lua_gettable(L, 3);
	} else {
		add_string(m, b, s, e);
		return true;
	}
	if (!lua_toboolean(L, -1)) {
		lua_pop(L, 1);
		luaL_addlstring(b, s, (size_t)(e - s));
		return false;
	}
	if (!lua_isstring(L, -1))
		luaL_error(L, "invalid replacement value (a %s)",
			   luaL_typename(L, -1));
	luaL_addvalue(b);
	return true;
}

static int
l_gsub(lua_State *L)
{
	size_t ls, lp;
	const char *src = luaL_checklstring(L, 1, &ls);
	const char *p = luaL_checklstring(L, 2, &lp);
	const char *last = NULL;
	int tr = lua_type(L, 3);
	lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
	luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING ||
			 tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
			 "string/function/table");
	bool anchor = lp && *p == '^';
	if (anchor)
		p++, lp--;
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	struct pm m;
	pm_init(&m, L, src, ls, p, lp);
	lua_Integer n = 0;
	bool changed = false;
	while (n < max) {
		m.ncap = 0;
		m.depth = 0;
		const char *e = match(&m, src, p);
		if (e && e != last) {
			n++;
			m.ticks += 4;	// the replacement: 20 ns or so
			changed = add_value(&m, &b, src, e, tr) || changed;
			src = last = e;
		} else if (src < m.s_end) {
			tick(&m);	// copied as it is
			luaL_addchar(&b, *src++);
		} else {
			break;
		}
		if (anchor)
			break;
	}
	pm_done(&m);
	if (!changed) {
		lua_pushvalue(L, 1);
	} else {
		luaL_addlstring(&b, src, (size_t)(m.s_end - src));
		luaL_pushresult(&b);
	}
	lua_pushinteger(L, n);
	return 2;
}

// string.rep: the real one, except that nothing repeated is "" at once
// (the real one loops n times copying nothing). Anything else it makes is
// as big as its loop is long, so the memory budget bounds one call; its n
// copies are charged after it, so that many calls add up.
static int
l_rep(lua_State *L)
{
	size_t l, lsep;
	luaL_checklstring(L, 1, &l);
	lua_Integer n = luaL_checkinteger(L, 2);
	luaL_optlstring(L, 3, "", &lsep);
	if (n > 0 && l + lsep == 0) {
		lua_pushliteral(L, "");
		return 1;
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	if (n > 0)
		irs_lua_charge(L, (uint64_t)n);
	return 1;
}

// table.move: the real one, its range charged first.
static int
l_move(lua_State *L)
{
	lua_Integer f = luaL_checkinteger(L, 2);
	lua_Integer e = luaL_checkinteger(L, 3);
	// a range the real one refuses ("too many elements") is its to say
	if (e >= f && (f > 0 || e < LUA_MAXINTEGER + f))
		irs_lua_charge(L, (lua_Unsigned)e - (lua_Unsigned)f + 1);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

/* }====================================================== */

/* {====================================================== the C loops */

// What the rest of the library charges, in steps of about one VM
// instruction (5 ns here) per unit of the work it does in C, measured
// against Lua 5.4.4: table.sort 31 ns per comparison (n log2 n of them),
// table.concat 21 ns per element, insert and remove 9-14 ns per element
// moved, unpack, string.byte and utf8.codepoint 3-5 ns per value, utf8.len
// 2.4 ns per byte, skipping bytes (utf8.offset, codes) 0.5 ns. Each is
// charged before the work (or, where only the result tells, after it:
// one call's work is bounded by its input, which the memory budget
// bounds), so that a loop of calls stops at its budget, as a loop of
// instructions does.
enum {
	SORT_STEPS = 4,		// per element and level of the sort
	CONCAT_STEPS = 4,	// per element
	MOVE_STEPS = 2,		// per element insert or remove shifts
	MAX_RESULTS = 1000000,	// Lua's stack limit: more is an error
};

// Runs the real function (upvalue 1, a C function of Lua's library, which
// has no upvalues) in this call, so that its errors name the function as
// the layout called it ("bad argument #2 to 'insert'"); returns its number
// of results, on the top of the stack.
static int
call_real(lua_State *L)
{
	lua_CFunction real = lua_tocfunction(L, lua_upvalueindex(1));
	return real(L);
}

// Argument @p arg as an integer, as luaL_optinteger reads it (1e6 and "7"
// included), or @p d when it is absent or no integer (the real function
// then says what is wrong).
static lua_Integer
opt_int(lua_State *L, int arg, lua_Integer d)
{
	int ok;
	lua_Integer v = lua_tointegerx(L, arg, &ok);
	return ok ? v : d;
}

// The length the table functions see of argument @p idx (a table has no
// metatable in a layout; anything else with a __len is measured by it);
// -1 when it has none, and the real function raises.
static lua_Integer
tab_len(lua_State *L, int idx)
{
	if (lua_type(L, idx) == LUA_TTABLE)
		return (lua_Integer)lua_rawlen(L, idx);
	if (luaL_getmetafield(L, idx, "__len") == LUA_TNIL)
		return -1;
	lua_pop(L, 1);
	return luaL_len(L, idx);
}

// A Lua position @p pos in a string of @p len bytes, as string.byte takes
// its first one (lstrlib.c posrelatI): from 1 on.
static size_t
pos_first(lua_Integer pos, size_t len)
{
	if (pos > 0)
		return (size_t)pos;
	if (pos == 0 || pos < -(lua_Integer)len)
		return 1;
	return len + (size_t)pos + 1;
}

// ... and its last one (getendpos): at most @p len.
static size_t
pos_last(lua_Integer pos, size_t len)
{
	if (pos > (lua_Integer)len)
		return len;
	if (pos >= 0)
		return (size_t)pos;
	if (pos < -(lua_Integer)len)
		return 0;
	return len + (size_t)pos + 1;
}

// table.sort: the real one, n log2 n comparisons charged first (its own
// comparator, if any, runs on the instruction budget besides).
static int
l_sort(lua_State *L)
{
	lua_Integer n = tab_len(L, 1);
	if (n > 1) {
		uint64_t levels = 0;
		for (uint64_t k = (uint64_t)n; k > 1; k >>= 1)
			levels++;
		irs_lua_charge(L, SORT_STEPS * (uint64_t)n * (levels + 1));
	}
	return call_real(L);
}

// Adds t[i] to @p b; false (nothing added) when it is no string or
// number, which the real function is left to say.
static bool
concat_field(lua_State *L, luaL_Buffer *b, lua_Integer i)
{
	lua_geti(L, 1, i);
	if (!lua_isstring(L, -1))
		return false;
	luaL_addvalue(b);
	return true;
}

// table.concat over a table: ltablib.c's, each element charged (a million
// empty strings allocate nothing the allocator could charge); anything
// else, and a bad element, goes to the real one, so that the errors are
// its own.
static int
l_concat(lua_State *L)
{
	int nargs = lua_gettop(L);
	if (lua_type(L, 1) != LUA_TTABLE)
		return call_real(L);
	luaL_Buffer b;
	lua_Integer last = (lua_Integer)lua_rawlen(L, 1);
	size_t lsep;
	const char *sep = luaL_optlstring(L, 2, "", &lsep);
	lua_Integer i = luaL_optinteger(L, 3, 1);
	last = luaL_optinteger(L, 4, last);
	luaL_buffinit(L, &b);
	uint64_t ticks = 0;
	bool good = true;
	for (; good && i < last; i++) {
		good = concat_field(L, &b, i);
		luaL_addlstring(&b, sep, lsep);
		if (++ticks == CHARGE_EVERY) {
			irs_lua_charge(L, CONCAT_STEPS * ticks);
			ticks = 0;
		}
	}
	if (good && i == last)
		good = concat_field(L, &b, i);
	irs_lua_charge(L, CONCAT_STEPS * (ticks + 1));
	if (!good) {
		lua_settop(L, nargs);	// the buffer is dropped
		return call_real(L);
	}
	luaL_pushresult(&b);
	return 1;
}

// table.insert(t, pos, v): the elements it shifts up charged first.
static int
l_insert(lua_State *L)
{
	lua_Integer e = tab_len(L, 1);
	if (lua_gettop(L) == 3 && e >= 0) {
		lua_Integer pos = opt_int(L, 2, 0);
		if (pos >= 1 && pos <= e)
			irs_lua_charge(L, MOVE_STEPS * (uint64_t)(e + 1 - pos));
	}
	return call_real(L);
}

// table.remove(t, pos): the elements it shifts down charged first.
static int
l_remove(lua_State *L)
{
	lua_Integer size = tab_len(L, 1);
	if (size > 0) {
		lua_Integer pos = opt_int(L, 2, size);
		if (pos >= 1 && pos < size)
			irs_lua_charge(L, MOVE_STEPS * (uint64_t)(size - pos));
	}
	return call_real(L);
}

// table.unpack(t, i, j): its j - i + 1 values charged first (no more than
// Lua's stack can take: the real one refuses more).
static int
l_unpack(lua_State *L)
{
	lua_Integer i = opt_int(L, 2, 1);
	lua_Integer e = opt_int(L, 3, lua_isnoneornil(L, 3) ? tab_len(L, 1)
						       : 0);
	if (e >= i) {
		lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i;
		irs_lua_charge(L, n < MAX_RESULTS ? n + 1 : MAX_RESULTS);
	}
	return call_real(L);
}

// Functions that take or make one value per argument (table.pack, select,
// string.char, utf8.char): the arguments charged, as the VM copied them
// in without counting.
static int
l_per_arg(lua_State *L)
{
	irs_lua_charge(L, (uint64_t)lua_gettop(L));
	return call_real(L);
}

// string.byte(s, i, j): one value per byte of the range.
static int
l_byte(lua_State *L)
{
	size_t l;
	if (lua_type(L, 1) == LUA_TSTRING) {
		lua_tolstring(L, 1, &l);
		lua_Integer i = opt_int(L, 2, 1);
		lua_Integer j = opt_int(L, 3, i);
		size_t a = pos_first(i, l), b = pos_last(j, l);
		if (a <= b)
			irs_lua_charge(L, b - a + 1);
	}
	return call_real(L);
}

// string.pack, packsize, unpack: four steps per byte of the format (an
// item of string.unpack takes 20-25 ns; the strings they make are charged
// as allocations).
static int
l_per_format(lua_State *L)
{
	size_t l = 0;
	if (lua_type(L, 1) == LUA_TSTRING)
		lua_tolstring(L, 1, &l);
	irs_lua_charge(L, 4 * (uint64_t)l + (uint64_t)lua_gettop(L));
	return call_real(L);
}

// The bytes of string argument 1 in [i, j] (argument @p ai and @p aj,
// defaults @p di and @p dj), as utf8.len and utf8.codepoint take them.
static size_t
utf8_range(lua_State *L, int ai, lua_Integer di, int aj, lua_Integer dj)
{
	size_t l;
	if (lua_type(L, 1) != LUA_TSTRING)
		return 0;
	lua_tolstring(L, 1, &l);
	lua_Integer i = opt_int(L, ai, di);
	lua_Integer j = opt_int(L, aj, !lua_isnoneornil(L, aj) ? 0
				: dj == 0 ? i : dj);
	size_t a = pos_first(i, l), b = pos_last(j, l);
	return a <= b ? b - a + 1 : 0;
}

// utf8.len(s, i, j): it decodes the range, a step per 2 bytes.
static int
l_utf8_len(lua_State *L)
{
	irs_lua_charge(L, utf8_range(L, 2, 1, 3, -1) / 2 + 1);
	return call_real(L);
}

// utf8.codepoint(s, i, j): a value per byte of the range, at most.
static int
l_utf8_codepoint(lua_State *L)
{
	irs_lua_charge(L, utf8_range(L, 2, 1, 3, 0) + 1);
	return call_real(L);
}

// Charges a function that skipped bytes of a string of @p len bytes, from
// position @p from to @p to: a step per 8 bytes, no more than the string.
static void
charge_skip(lua_State *L, size_t len, lua_Integer from, lua_Integer to)
{
	lua_Unsigned d = to > from ? (lua_Unsigned)to - (lua_Unsigned)from
		: (lua_Unsigned)from - (lua_Unsigned)to;
	irs_lua_charge(L, (d < len ? d : len) / 8 + 1);
}

// utf8.offset(s, n, i): it skips continuation bytes, as far as the
// string is long; charged after, by how far it went (to the end when it
// found nothing).
static int
l_utf8_offset(lua_State *L)
{
	size_t l = 0;
	if (lua_type(L, 1) == LUA_TSTRING)
		lua_tolstring(L, 1, &l);
	lua_Integer n = opt_int(L, 2, 1);
	lua_Integer from = opt_int(L, 3, n >= 0 ? 1 : (lua_Integer)l + 1);
	int nres = call_real(L);
	lua_Integer to = nres > 0 && lua_isinteger(L, -1)
		? lua_tointeger(L, -1) : (lua_Integer)l;
	charge_skip(L, l, from, to);
	return nres;
}

// The iterator utf8.codes gives: the real one (upvalue 1), which skips
// continuation bytes up to the next character; charged by how far.
static int
codes_step(lua_State *L)
{
	size_t l = 0;
	if (lua_type(L, 1) == LUA_TSTRING)
		lua_tolstring(L, 1, &l);
	lua_Integer from = opt_int(L, 2, 0);
	int nres = call_real(L);
	lua_Integer to = nres >= 2 && lua_isinteger(L, -nres)
		? lua_tointeger(L, -nres) : (lua_Integer)l;
	charge_skip(L, l, from, to);
	return nres;
}

// utf8.codes(s): the real one, its iterator wrapped.
static int
l_utf8_codes(lua_State *L)
{
	int nres = call_real(L);
	int iter = lua_gettop(L) - nres + 1;
	if (nres >= 1 && lua_iscfunction(L, iter)) {
		lua_pushvalue(L, iter);
		lua_pushcclosure(L, codes_step, 1);
		lua_replace(L, iter);
	}
	return nres;
}

// tonumber(s [, base]): it reads the whole string, a step per 4 bytes.
static int
l_tonumber(lua_State *L)
{
	if (lua_type(L, 1) == LUA_TSTRING)
		irs_lua_charge(L, lua_rawlen(L, 1) / 4 + 1);
	return call_real(L);
}

// rawequal(a, b): two long strings of one length are compared whole.
static int
l_rawequal(lua_State *L)
{
	if (lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING &&
	    lua_rawlen(L, 1) == lua_rawlen(L, 2))
		irs_lua_charge(L, lua_rawlen(L, 1) / 8 + 1);
	return call_real(L);
}

/* }====================================================== */

// Replaces field @p name of the table at -1 by @p fn, with the old value
// as its upvalue when @p wrap.
static void
replace(lua_State *L, const char *name, lua_CFunction fn, bool wrap)
{
	if (wrap) {
		lua_getfield(L, -1, name);
		lua_pushcclosure(L, fn, 1);
	} else {
		lua_pushcfunction(L, fn);
	}
	lua_setfield(L, -2, name);
}

void
irs_strlib_bound(lua_State *L)
{
	replace(L, "find", l_find, false);
	replace(L, "match", l_match, false);
	replace(L, "gmatch", l_gmatch, false);
	replace(L, "gsub", l_gsub, false);
	replace(L, "rep", l_rep, true);
	replace(L, "byte", l_byte, true);
	replace(L, "char", l_per_arg, true);
	replace(L, "pack", l_per_format, true);
	replace(L, "packsize", l_per_format, true);
	replace(L, "unpack", l_per_format, true);
}

void
irs_tablib_bound(lua_State *L)
{
	replace(L, "move", l_move, true);
	replace(L, "sort", l_sort, true);
	replace(L, "concat", l_concat, true);
	replace(L, "insert", l_insert, true);
	replace(L, "remove", l_remove, true);
	replace(L, "unpack", l_unpack, true);
	replace(L, "pack", l_per_arg, true);
}

void
irs_utf8lib_bound(lua_State *L)
{
	replace(L, "len", l_utf8_len, true);
	replace(L, "codepoint", l_utf8_codepoint, true);
	replace(L, "offset", l_utf8_offset, true);
	replace(L, "codes", l_utf8_codes, true);
	replace(L, "char", l_per_arg, true);
}

void
irs_baselib_bound(lua_State *L)
{
	replace(L, "select", l_per_arg, true);
	replace(L, "tonumber", l_tonumber, true);
	replace(L, "rawequal", l_rawequal, true);
}
