// Layout fields: one field descriptor (a Lua table from fields.c)
// becomes one struct lfield, its location, width, signedness and bitfield
// position resolved through debug info and checked against what the
// constructor needs (a `cstr` on an int is an error naming both): scalars,
// enums (names from the layout or from debug info), strings, pointers,
// unions and every kind of sequence. Runs inside the compile's protected
// call (compile.c), raising "FILE:LINE: message" on a mistake.
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

/* {====================================================== enums */

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

struct enum_item {
	int64_t value;
	const char *raw;
	uint32_t rank;		/* among names of one value: lowest shown */
	uint32_t order;		/* as declared */
};

static int
cmp_item(const void *a, const void *b)
{
	const struct enum_item *x = a, *y = b;
	int c = cmp_i64(&x->value, &y->value);
	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

// Whether @p name marks the end of a range rather than naming a value of
// its own: one of its words (split at '_' and at a lower-case letter
// followed by a capital) is first, last, begin or end, as in
// FIRST_ICMP_PREDICATE, FirstIntAttr, ConstantLastVal, TermOpsBegin.
static bool
range_marker(const char *name)
{
	static const char *const words[] = { "first", "last", "begin", "end" };
	const char *p = name;
	while (*p) {
		while (*p == '_')
			p++;
		const char *w = p;
		do
			p++;
		while (*p && *p != '_' && !(p[-1] >= 'a' && p[-1] <= 'z' &&
					    *p >= 'A' && *p <= 'Z'));
		for (size_t i = 0; i < ARRAY_SIZE(words); i++)
			if ((size_t)(p - w) == strlen(words[i]) &&
			    !strncasecmp(w, words[i], (size_t)(p - w)))
				return true;
	}
	return false;
}

// Builds the table of names from @p items, applying strip and lower. A
// value with several names shows one of those in @p prefer (a list at
// that stack index, 0 for none), else one that is no range marker, else
// the first declared.
static struct lenum *
make_enum(struct irs_cc *c, struct enum_item *items, uint32_t n,
	  const char *strip, bool lower, int prefer)
{
	struct lenum *en = irs_cc_alloc(c, sizeof(*en));
	for (uint32_t i = 0; i < n; i++) {
		items[i].order = i;
		items[i].rank = range_marker(items[i].raw) ? 2 : 1;
		for (lua_Integer k = 1; prefer && k <= (lua_Integer)
		     lua_rawlen(c->L, prefer); k++) {
			lua_rawgeti(c->L, prefer, k);
			const char *p = lua_tostring(c->L, -1);
			if (p && !strcmp(p, items[i].raw))
				items[i].rank = 0;
			lua_pop(c->L, 1);
		}
	}
	qsort(items, n, sizeof(*items), cmp_item);
	en->n = n;
	en->values = irs_cc_alloc(c, (n + 1) * sizeof(int64_t));
	en->names = irs_cc_alloc(c, (n + 1) * sizeof(char *));
	en->raw = irs_cc_alloc(c, (n + 1) * sizeof(char *));
	for (uint32_t i = 0; i < n; i++) {
		const char *s = items[i].raw;
		size_t sl = strip ? strlen(strip) : 0;
		if (sl && strncmp(s, strip, sl) == 0 && s[sl])
			s += sl;
		char *d = irs_layout_strndup(c->lo, s, strlen(s));
		if (!d)
			irs_lua_raise(c->L, &irs_enomem);
		for (char *p = d; lower && *p; p++)
			*p = (char)tolower((unsigned char)*p);
		en->values[i] = items[i].value;
		en->names[i] = d;
		en->raw[i] = items[i].raw;
	}
	if (n && en->values[n - 1] - en->values[0] < 4096) {
		en->dense_min = en->values[0];
		en->ndense = (uint32_t)(en->values[n - 1] - en->values[0] + 1);
		en->dense = irs_cc_alloc(c, en->ndense * sizeof(char *));
		for (uint32_t i = n; i-- > 0;)	// first name wins
			en->dense[en->values[i] - en->dense_min] =
				en->names[i];
	}
	return en;
}

// names = { [0] = "arg", "copy", ... } or { arg = 0, copy = 1 }
static struct lenum *
enum_from_table(struct irs_cc *c, int idx, const char *strip, bool lower,
		int prefer, uint32_t line, const char *qual)
{
	lua_State *L = c->L;
	uint32_t n = 0;
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		n++;
		lua_pop(L, 1);
	}
	struct enum_item *items = irs_cc_alloc(c, (n + 1) * sizeof(*items));
	uint32_t i = 0;
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		if (lua_isinteger(L, -2) && lua_type(L, -1) == LUA_TSTRING) {
			items[i].value = lua_tointeger(L, -2);
			items[i].raw = irs_cc_strdup(c, lua_tostring(L, -1));
		} else if (lua_type(L, -2) == LUA_TSTRING &&
			   lua_isinteger(L, -1)) {
			items[i].value = lua_tointeger(L, -1);
			items[i].raw = irs_cc_strdup(c, lua_tostring(L, -2));
		} else {
			irs_lua_raisef(L, line, "%s: names maps integers to "
				       "strings ({ [0] = \"a\", \"b\" }) or "
				       "names to integers", qual);
		}
		i++;
		lua_pop(L, 1);
	}
	return make_enum(c, items, n, strip, lower, prefer);
}

// The enumerators of @p type from debug info.
static struct lenum *
enum_from_target(struct irs_cc *c, const char *type, const char *strip,
		 bool lower, int prefer, uint32_t line, const char *qual)
{
	if (!c->t || !c->t->enumerator)
		irs_lua_raisef(c->L, line, "%s: no debug info for the names of "
			       "enum '%s' (give names = {...})", qual, type);
	uint32_t cap = 64, n = 0;
	struct enum_item *items = irs_cc_alloc(c, cap * sizeof(*items));
	for (;;) {
		char name[256];
		int64_t value;
		struct irs_error *err = c->t->enumerator(c->t->arg, type, n,
							 name, sizeof(name),
							 &value);
		if (err && err->code == IRS_ERROR_NOT_FOUND && n > 0) {
			irs_error_destroy(err);
			break;
		}
		if (err) {
			char msg[400];
			snprintf(msg, sizeof(msg), "%s", err->message);
			irs_error_destroy(err);
			irs_lua_raisef(c->L, line, "%s: cannot read the names "
				       "of enum '%s' from debug info (%s)",
				       qual, type, msg);
		}
		if (n == cap) {
			if (cap >= 1u << 20)
				irs_lua_raisef(c->L, line, "%s: enum '%s' has "
					       "too many names", qual, type);
			struct enum_item *bigger =
				irs_cc_alloc(c, 2 * cap * sizeof(*items));
			memcpy(bigger, items, cap * sizeof(*items));
			items = bigger;
			cap *= 2;
		}
		name[sizeof(name) - 1] = '\0';
		// a C++ debugger names an enumerator with its scope
		// (llvm::Type::HalfTyID); the layout, as C++ code does, by
		// its identifier
		const char *id = name;
		for (const char *q = name; (q = strstr(q, "::")); q += 2)
			id = q + 2;
		items[n].value = value;
		items[n].raw = irs_cc_strdup(c, id);
		n++;
	}
	return make_enum(c, items, n, strip, lower, prefer);
}

// Whether debug info spells @p type as an enum without a name
// ("enum {...}", "<anonymous enum>"), whose enumerators only the member's
// path can find.
static bool
anonymous(const char *type)
{
	return !*type || strchr(type, '{') || strstr(type, "anonymous") ||
	       strstr(type, "unnamed");
}

// rename = { RAW = "shown", ... }: the names a printer gives enumerators
// (LLVM's Attribute::ZExt is zeroext, StructRet sret), by declared name.
static void
rename_enum(struct irs_cc *c, int idx, uint32_t line, const char *qual,
	    struct lenum *en)
{
	lua_State *L = c->L;
	int t = lua_getfield(L, idx, "rename");
	if (t == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	if (t != LUA_TTABLE)
		irs_lua_raisef(L, line, "%s: rename = { RAW = \"shown\" }",
			       qual);
	for (uint32_t i = 0; i < en->n; i++) {
		if (lua_getfield(L, -1, en->raw[i]) == LUA_TSTRING) {
			const char *old = en->names[i];
			en->names[i] = irs_cc_strdup(c, lua_tostring(L, -1));
			for (uint32_t k = 0; en->dense && k < en->ndense; k++)
				if (en->dense[k] == old)
					en->dense[k] = en->names[i];
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

static void
compile_enum(struct irs_cc *c, const struct ltype *owner, int idx,
	     const struct irs_field_info *info, uint32_t line,
	     const char *qual, struct lfield *f)
{
	const char *strip = irs_cc_str(c, idx, "strip", line, qual);
	bool lower = irs_cc_bool(c, idx, "lower", false);
	const char *type = irs_cc_str(c, idx, "type", line, qual);
	// prefer = { "ICMP_EQ" }: the names shown for values that have several
	int pt = lua_getfield(c->L, idx, "prefer");
	if (pt == LUA_TSTRING) {
		lua_createtable(c->L, 1, 0);
		lua_insert(c->L, -2);
		lua_rawseti(c->L, -2, 1);
	} else if (pt != LUA_TTABLE && pt != LUA_TNIL) {
		irs_lua_raisef(c->L, line, "%s: prefer is a name or a list of "
			       "names", qual);
	}
	int prefer = pt == LUA_TNIL ? 0 : lua_gettop(c->L);
	int t = lua_getfield(c->L, idx, "names");
	if (t == LUA_TTABLE) {
		f->en = enum_from_table(c, lua_gettop(c->L), strip, lower,
					prefer, line, qual);
		lua_pop(c->L, 2);
		rename_enum(c, idx, line, qual, (struct lenum *)f->en);
		return;
	}
	lua_pop(c->L, 1);
	if (t != LUA_TNIL)
		irs_lua_raisef(c->L, line, "%s: 'names' must be a table", qual);
	if (!type && owner && f->path && anonymous(info->type_name)) {
		// the target's enumerator question takes "T.path" for the
		// type of member path of T (irsnap.h, irs_enumerator_fn)
		type = irs_cc_printf(c, "%s.%s", owner->ctype, f->path);
	} else if (!type) {
		type = info->type_name;
		if (!strncmp(type, "enum ", 5))
			type += 5;
	}
	if (!*type)
		irs_lua_raisef(c->L, line, "%s: no enum type to take names "
			       "from (give names = {...} or type = \"T\")",
			       qual);
	f->en = enum_from_target(c, type, strip, lower, prefer, line, qual);
	lua_pop(c->L, 1);	// prefer
	rename_enum(c, idx, line, qual, (struct lenum *)f->en);
	// an enum without negative values is unsigned in C (GCC, Clang): a
	// 2-bit `kind` holding 2 is 2, not -2
	if (f->en->n && f->en->values[0] >= 0 && info->kind == IRS_TYPE_ENUM)
		f->at.is_signed = false;
}

/* }====================================================== */

/* {====================================================== sequences */

// The element of a sequence: "T" (inline structs) or a descriptor.
static void
compile_elem(struct irs_cc *c, int idx, uint32_t line, const char *qual,
	     struct lseq *s)
{
	lua_State *L = c->L;
	const char *eq = irs_cc_printf(c, "%s[]", qual);
	struct lfield *e = irs_cc_alloc(c, sizeof(*e));
	s->elem = e;
	int t = lua_getfield(L, idx, "of");
	if (t == LUA_TSTRING) {
		const char *tn = lua_tostring(L, -1);
		const struct ltype *et = irs_cc_type(c, tn, line, eq);
		e->name = "[]";
		e->kind = LK_EMBED;
		e->type = et->index;
		e->line = line;
		e->ctor = "embed";
		s->stride = et->size;
	} else if (t == LUA_TTABLE && irs_fields_is_descriptor(L, -1)) {
		irs_cc_field(c, NULL, "[]", eq, lua_gettop(L), e);
		switch (e->kind) {
		case LK_INT: case LK_UINT: case LK_BOOL: case LK_FLOAT:
		case LK_ENUM: case LK_PTR: case LK_REF: case LK_CSTR:
			if (e->at.bit_size)
				irs_lua_raisef(L, line, "%s: elements cannot "
					       "be bitfields", eq);
			s->stride = e->at.size;
			break;
		default:
			irs_lua_raisef(L, line, "%s: elements may be a type "
				       "name, ptr \"T\", ref \"T\", cstr {} or "
				       "a scalar of explicit width (u32 {})",
				       eq);
		}
	} else {
		irs_lua_raisef(L, line, "%s: 'of' must be a type name or a "
			       "field such as ptr \"T\"", qual);
	}
	lua_pop(L, 1);
	int64_t stride;
	if (irs_cc_int(c, idx, "stride", line, qual, &stride)) {
		if (stride < 1 || stride > UINT32_MAX)
			irs_lua_raisef(L, line, "%s: bad stride", qual);
		s->stride = (uint32_t)stride;
	}
	if (s->stride == 0)
		irs_lua_raisef(L, line, "%s: elements of 0 bytes", qual);
	uint32_t need = e->kind == LK_EMBED ? c->lo->types[e->type].size
		: e->at.size;
	// an array's elements may overlap: each is read whole, the bytes of
	// the next included (an element of LuaJIT's IR that is a 64-bit
	// constant keeps its value in the next slot)
	if (s->stride < need && s->kind == SEQ_ARRAY && e->kind == LK_EMBED)
		s->overlap = need - s->stride;
	else if (s->stride < need)
		irs_lua_raisef(L, line, "%s: a stride of %u bytes is less than "
			       "an element (%u bytes)", qual, s->stride, need);
}

// A named location inside @p owner, as a pointer or integer.
static void
seq_loc(struct irs_cc *c, const struct ltype *owner, int idx, const char *k,
	uint32_t line, const char *qual, unsigned kinds, const char *wants,
	struct lloc *loc)
{
	struct irs_field_info info;
	lua_getfield(c->L, idx, k);
	if (lua_isnil(c->L, -1))
		irs_lua_raisef(c->L, line, "%s: '%s' is required", qual, k);
	irs_cc_loc(c, owner, -1, line, qual, 8, loc, &info, NULL);
	lua_pop(c->L, 1);
	irs_cc_kind(c, &info, kinds, line, qual, k, wants);
	irs_cc_width(c, loc, line, qual);
}

// The offset in the element of link member @p k ("next", "prev"): a name
// inside the link struct (default: @p k itself), or an offset inside it.
static uint32_t
link_member(struct irs_cc *c, const struct ltype *et, int idx, const char *k,
	    const char *link_path, const struct lloc *link, uint32_t line,
	    const char *qual)
{
	struct irs_field_info info;
	int64_t n;
	lua_getfield(c->L, idx, k);
	bool is_int = lua_isinteger(c->L, -1);
	lua_pop(c->L, 1);
	if (is_int) {
		irs_cc_int(c, idx, k, line, qual, &n);
		if (n < 0 || n > 4096)
			irs_lua_raisef(c->L, line, "%s: bad %s offset", qual,
				       k);
		return link->offset + (uint32_t)n;
	}
	const char *name = irs_cc_str(c, idx, k, line, qual);
	if (!link_path)
		irs_lua_raisef(c->L, line, "%s: with an explicit link, give %s "
			       "as an offset inside it (%s = 8)", qual, k, k);
	char p[300];
	snprintf(p, sizeof(p), "%s.%s", link_path, name ? name : k);
	irs_cc_lookup(c, et, p, line, qual, &info);
	return (uint32_t)info.offset;
}

static void
compile_list(struct irs_cc *c, const struct ltype *owner, int idx,
	     uint32_t line, const char *qual, struct lseq *s)
{
	lua_State *L = c->L;
	struct irs_field_info info;
	const char *of = irs_cc_str(c, idx, "of", line, qual);
	if (!of)
		irs_lua_raisef(L, line, "%s: list needs of = \"T\" (the "
			       "element type)", qual);
	const struct ltype *et = irs_cc_type(c, of, line, qual);
	struct lfield *e = irs_cc_alloc(c, sizeof(*e));
	e->name = "[]";
	e->kind = LK_EMBED;
	e->type = et->index;
	e->line = line;
	e->ctor = "embed";
	s->elem = e;
	s->stride = et->size;

	// the link inside the element: a struct { next, prev } (embedded
	// link, pointers point at links) or a `T *next` member itself
	struct lloc link;
	const char *link_path;
	lua_getfield(L, idx, "link");
	if (lua_isnil(L, -1))
		irs_lua_raisef(L, line, "%s: list needs link = \"member\" (the "
			       "link inside %s)", qual, of);
	irs_cc_loc(c, et, -1, line, qual, 8, &link, &info, &link_path);
	lua_pop(L, 1);
	bool self_ptr = info.kind == IRS_TYPE_POINTER;
	s->link_off = self_ptr ? 0 : link.offset;
	s->next_off = self_ptr ? link.offset
		: link_member(c, et, idx, "next", link_path, &link, line, qual);
	lua_getfield(L, idx, "prev");
	bool has_prev = !lua_isnil(L, -1);
	lua_pop(L, 1);
	if (has_prev && self_ptr) {
		const char *prev = irs_cc_str(c, idx, "prev", line, qual);
		if (!prev)
			irs_lua_raisef(L, line, "%s: prev is a member name",
				       qual);
		irs_cc_lookup(c, et, prev, line, qual, &info);
		s->prev_off = (uint32_t)info.offset;
		s->has_prev = true;
	} else if (has_prev) {
		s->prev_off = link_member(c, et, idx, "prev", link_path, &link,
					  line, qual);
		s->has_prev = true;
	}
	if (s->next_off + 8 > et->size || (s->has_prev &&
					    s->prev_off + 8 > et->size))
		irs_lua_raisef(L, line, "%s: the link pointers are past the "
			       "end of %s", qual, of);

	s->sentinel = irs_cc_bool(c, idx, "sentinel", !self_ptr);
	lua_getfield(L, idx, "head");
	if (lua_isnil(L, -1))
		irs_lua_raisef(L, line, "%s: list needs head = \"member\"",
			       qual);
	irs_cc_loc(c, owner, -1, line, qual, 8, &s->base, &info, NULL);
	lua_pop(L, 1);
	if (s->sentinel) {
		irs_cc_kind(c, &info, K(STRUCT), line, qual, "a sentinel list",
			    "a link struct as head");
		// the sentinel is a link like the elements': its next is at
		// the same place inside it
		s->head_next_off = s->base.offset + (s->next_off - s->link_off);
		if (s->head_next_off + 8 > owner->size)
			irs_lua_raisef(L, line, "%s: head is past the end of "
				       "%s", qual, owner->name);
		s->base.size = 8;
	} else {
		irs_cc_kind(c, &info, K(POINTER), line, qual, "a list",
			    "a pointer as head (or sentinel = true)");
		irs_cc_width(c, &s->base, line, qual);
	}
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

// zip { count = C, of = { NAME = { ptr = P, of = E }, ... }, text = T }:
// element i is the tuple of each array's element i, a value of a type of
// its own ("Owner.field") whose fields are the names, in name order, and
// whose text is T (default: the names, blank-separated).
static void
compile_zip(struct irs_cc *c, const struct ltype *owner, int idx,
	    uint32_t line, const char *qual, struct lfield *f,
	    struct lseq *s)
{
	lua_State *L = c->L;
	struct irs_layout *lo = c->lo;
	if (c->depth > 1)
		irs_lua_raisef(L, line, "%s: a zip is a field of a struct "
			       "itself, not inside a union or sequence", qual);
	if (lo->ntypes >= c->ntypes_cap || c->nzips >= IRS_LAYOUT_MAX_ZIPS)
		irs_lua_raisef(L, line, "%s: more than %d zips", qual,
			       IRS_LAYOUT_MAX_ZIPS);
	if (lua_getfield(L, idx, "of") != LUA_TTABLE)
		irs_lua_raisef(L, line, "%s: zip needs of = { NAME = { ptr = "
			       "P, of = E }, ... } (the parallel arrays)",
			       qual);
	int of = lua_gettop(L);
	const char *names[16];
	uint32_t n = 0;
	lua_pushnil(L);
	while (lua_next(L, of)) {
		if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
			irs_lua_raisef(L, line, "%s: each array of a zip is "
				       "NAME = { ptr = P, of = E }", qual);
		if (n == ARRAY_SIZE(names))
			irs_lua_raisef(L, line, "%s: a zip of more than %zu "
				       "arrays", qual, ARRAY_SIZE(names));
		names[n++] = irs_cc_strdup(c, lua_tostring(L, -2));
		lua_pop(L, 1);
	}
	if (n == 0)
		irs_lua_raisef(L, line, "%s: a zip of no arrays", qual);
	qsort(names, n, sizeof(*names), cmp_str);

	struct ltype *t = &lo->types[lo->ntypes];
	t->name = irs_cc_printf(c, "%s.%s", owner->name, f->name);
	t->ctype = t->name;
	t->json_name = irs_cc_json(c, t->name, false);
	t->index = lo->ntypes;
	t->line = line;
	t->node = false;
	t->size_explicit = true;
	t->fields = irs_cc_alloc(c, n * sizeof(*t->fields));
	s->comps = irs_cc_alloc(c, n * sizeof(*s->comps));
	s->ncomps = n;
	uint32_t off = 0;
	char deflt[16 * 40] = "";
	for (uint32_t i = 0; i < n; i++) {
		lua_getfield(L, of, names[i]);
		int a = lua_gettop(L);
		const char *aq = irs_cc_printf(c, "%s.%s", qual, names[i]);
		static const char *const zkeys[] = { "ptr", "of", "stride",
			"at", "skip", "reverse", "alt", "count", "drop" };
		for (lua_pushnil(L); lua_next(L, a); lua_pop(L, 1)) {
			bool known = false;
			for (size_t k = 0; k < ARRAY_SIZE(zkeys); k++)
				known |= lua_type(L, -2) == LUA_TSTRING &&
					 !strcmp(lua_tostring(L, -2), zkeys[k]);
			if (!known)
				irs_lua_raisef(L, line, "%s: an array of a zip "
					       "has ptr, of and stride, and "
					       "where it lies (at, skip, "
					       "reverse, alt) only", aq);
		}
		struct lzip *z = &s->comps[i];
		z->place = irs_cc_place(c, owner, a, line, aq);
		lua_getfield(L, a, "ptr");
		bool has_ptr = !lua_isnil(L, -1);
		lua_pop(L, 1);
		if (!z->place || (has_ptr && !z->place->ptr_outside))
			seq_loc(c, owner, a, "ptr", line, aq, K(POINTER),
				"a pointer", &z->base);
		// a count of its own: a field path, linked later
		const char *cn = irs_cc_str(c, a, "count", line, aq);
		z->count_name = cn ? irs_cc_strdup(c, cn) : NULL;
		int64_t zd = 0;
		if (irs_cc_int(c, a, "drop", line, aq, &zd) && (zd < 0 ||
								!cn))
			irs_lua_raisef(L, line, "%s: drop = N (at least 0) "
				       "goes with a count of its own", aq);
		z->drop = (uint64_t)zd;
		struct lseq tmp;
		memset(&tmp, 0, sizeof(tmp));
		compile_elem(c, a, line, aq, &tmp);
		// An inline struct is a value here (the tuple it sits in
		// lies nowhere, so it cannot be a node of the graph).
		if (tmp.elem->kind == LK_EMBED &&
		    lo->types[tmp.elem->type].node)
			irs_lua_raisef(L, line, "%s: a zip's elements are "
				       "pointers, scalars or value structs "
				       "(of = ref \"T\", u32 {}, a struct with "
				       "node = false); %s is a node", aq,
				       lo->types[tmp.elem->type].name);
		z->stride = tmp.stride;
		z->size = tmp.elem->kind == LK_EMBED
			  ? lo->types[tmp.elem->type].size : tmp.elem->at.size;
		z->off = off;
		struct lfield *cf = &t->fields[i];
		*cf = *tmp.elem;
		cf->name = names[i];
		cf->json_key = irs_cc_json(c, names[i], true);
		cf->json_key_len = (uint32_t)strlen(cf->json_key);
		cf->at.offset = off;
		off += z->size;
		size_t dl = strlen(deflt);
		snprintf(deflt + dl, sizeof(deflt) - dl, "%s{%s}", i ? " " : "",
			 names[i]);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	t->nfields = n;
	t->size = off;
	s->stride = off;
	struct lfield *e = irs_cc_alloc(c, sizeof(*e));
	e->name = "[]";
	e->kind = LK_EMBED;
	e->type = t->index;
	e->line = line;
	e->ctor = "embed";
	s->elem = e;
	const char *text = irs_cc_str(c, idx, "text", line, qual);
	c->zips[c->nzips].t = t;
	c->zips[c->nzips++].text = irs_cc_strdup(c, text ? text : deflt);
	lo->ntypes++;
}

// limit = N (at most N elements), drop = N (N fewer than the count),
// divide = N (the count, less drop, counts N for each element: pairs).
static void
count_bounds(struct irs_cc *c, int idx, uint32_t line, const char *qual,
	     struct lseq *s)
{
	int64_t v;
	if (irs_cc_int(c, idx, "limit", line, qual, &v)) {
		if (v < 1)
			irs_lua_raisef(c->L, line, "%s: limit is at least 1",
				       qual);
		s->limit = (uint64_t)v;
	}
	if (irs_cc_int(c, idx, "drop", line, qual, &v)) {
		if (v < 0)
			irs_lua_raisef(c->L, line, "%s: drop is at least 0",
				       qual);
		s->drop = (uint64_t)v;
	}
	if (irs_cc_int(c, idx, "divide", line, qual, &v)) {
		if (v < 1)
			irs_lua_raisef(c->L, line, "%s: divide is at least 1",
				       qual);
		s->divide = (uint64_t)v;
	}
}

static void
compile_seq(struct irs_cc *c, const struct ltype *owner, const char *kind,
	    int idx, uint32_t line, const char *qual, struct lfield *f)
{
	lua_State *L = c->L;
	struct irs_field_info info;
	struct lseq *s = irs_cc_alloc(c, sizeof(*s));
	f->kind = LK_SEQ;
	f->seq = s;
	if (!owner)
		irs_lua_raisef(L, line, "%s: a sequence cannot be an element",
			       qual);
	if (!strcmp(kind, "array")) {
		irs_cc_keys(c, idx, " ptr count length first of stride at "
			    "skip reverse alt limit drop divide present ", line,
			    qual, kind);
		s->kind = SEQ_ARRAY;
		// present = "COND": no elements unless COND holds (linked
		// later, when every field of the owner is known)
		const char *pr = irs_cc_str(c, idx, "present", line, qual);
		if (pr)
			s->present_src = irs_cc_strdup(c, pr);
		// before or after its struct, behind a pointer outside it
		// (place.c), or behind its ptr
		s->place = irs_cc_place(c, owner, idx, line, qual);
		lua_getfield(L, idx, "ptr");
		bool has_ptr = !lua_isnil(L, -1);
		lua_pop(L, 1);
		if (!s->place || (has_ptr && !s->place->ptr_outside))
			seq_loc(c, owner, idx, "ptr", line, qual, K(POINTER),
				"a pointer", &s->base);
		// length = "path": a count through pointers, linked later
		const char *len = irs_cc_str(c, idx, "length", line, qual);
		if (len)
			s->length_name = irs_cc_strdup(c, len);
		else
			seq_loc(c, owner, idx, "count", line, qual, K_INTEGER,
				"an integer", &s->count);
		lua_getfield(L, idx, "first");
		s->has_first = !lua_isnil(L, -1);
		lua_pop(L, 1);
		if (s->has_first && s->place)
			irs_lua_raisef(L, line, "%s: first is for an array "
				       "behind its pointer (use drop = N)",
				       qual);
		if (s->has_first)
			seq_loc(c, owner, idx, "first", line, qual, K_INTEGER,
				"an integer", &s->first);
		count_bounds(c, idx, line, qual, s);
		compile_elem(c, idx, line, qual, s);
	} else if (!strcmp(kind, "fixed")) {
		irs_cc_keys(c, idx, " at count of stride ", line, qual,
			    kind);
		s->kind = SEQ_FIXED;
		lua_getfield(L, idx, "at");
		irs_cc_loc(c, owner, -1, line, qual, 0, &s->base, &info,
			   NULL);
		lua_pop(L, 1);
		compile_elem(c, idx, line, qual, s);
		int64_t n = 0;
		// any member: an array's elements, or what is no array taken
		// as elements of its size (a plain integer: one element; a
		// 64-bit word: two of 32 bits)
		if (irs_cc_int(c, idx, "count", line, qual, &n))
			s->fixed_count = (uint64_t)n;
		else if (info.count)
			s->fixed_count = info.count;
		else if (info.kind != IRS_TYPE_ARRAY && !info.bit_size &&
			 info.size && info.size % s->stride == 0)
			s->fixed_count = info.size / s->stride;
		else
			irs_lua_raisef(L, line, "%s: fixed needs count = N "
				       "(no array length in debug info)", qual);
		if (n < 0 || s->base.offset + s->fixed_count * s->stride >
		    owner->size)
			irs_lua_raisef(L, line, "%s: %llu elements of %u bytes "
				       "are past the end of %s", qual,
				       (unsigned long long)s->fixed_count,
				       s->stride, owner->name);
	} else if (!strcmp(kind, "nullterm")) {
		irs_cc_keys(c, idx, " ptr of stride ", line, qual, kind);
		s->kind = SEQ_NULLTERM;
		seq_loc(c, owner, idx, "ptr", line, qual, K(POINTER),
			"a pointer", &s->base);
		compile_elem(c, idx, line, qual, s);
		if (s->elem->kind != LK_PTR && s->elem->kind != LK_REF &&
		    s->elem->kind != LK_CSTR)
			irs_lua_raisef(L, line, "%s: nullterm elements are "
				       "pointers (of = ptr \"T\")", qual);
	} else if (!strcmp(kind, "range")) {
		irs_cc_keys(c, idx, " begin finish of stride ", line,
			    qual, kind);
		s->kind = SEQ_RANGE;
		seq_loc(c, owner, idx, "begin", line, qual, K(POINTER),
			"a pointer", &s->base);
		seq_loc(c, owner, idx, "finish", line, qual, K(POINTER),
			"a pointer", &s->count);
		compile_elem(c, idx, line, qual, s);
	} else if (!strcmp(kind, "derived")) {
		s->kind = SEQ_DERIVED;
		irs_cc_derived(c, owner, idx, line, qual, s);
	} else if (!strcmp(kind, "zip")) {
		irs_cc_keys(c, idx, " count of text limit drop divide ", line,
			    qual, kind);
		s->kind = SEQ_ZIP;
		seq_loc(c, owner, idx, "count", line, qual, K_INTEGER,
			"an integer", &s->count);
		count_bounds(c, idx, line, qual, s);
		compile_zip(c, owner, idx, line, qual, f, s);
	} else {
		irs_cc_keys(c, idx, " head of link next prev sentinel ",
			    line, qual, kind);
		s->kind = SEQ_LIST;
		compile_list(c, owner, idx, line, qual, s);
	}
}

/* }====================================================== */

/* {====================================================== fields */

static void
compile_union(struct irs_cc *c, const struct ltype *owner, int idx,
	      uint32_t line, const char *qual, struct lfield *f)
{
	lua_State *L = c->L;
	irs_cc_keys(c, idx, " tag cases default ", line, qual, "union");
	struct lunion *u = irs_cc_alloc(c, sizeof(*u));
	f->kind = LK_UNION;
	f->un = u;
	if (!owner)
		irs_lua_raisef(L, line, "%s: a union cannot be an element",
			       qual);
	f->link_name = irs_cc_str(c, idx, "tag", line, qual);
	if (!f->link_name)
		irs_lua_raisef(L, line, "%s: union needs tag = \"field\"",
			       qual);
	f->link_name = irs_cc_strdup(c, f->link_name);
	if (lua_getfield(L, idx, "cases") != LUA_TTABLE)
		irs_lua_raisef(L, line, "%s: union needs cases = { NAME = "
			       "field, ... }", qual);
	int cases = lua_gettop(L);
	uint32_t n = 0;
	lua_pushnil(L);
	while (lua_next(L, cases)) {
		n++;
		lua_pop(L, 1);
	}
	u->values = irs_cc_alloc(c, (n + 1) * sizeof(int64_t));
	u->cases = irs_cc_alloc(c, (n + 1) * sizeof(struct lfield *));
	u->keys = irs_cc_alloc(c, (n + 1) * sizeof(char *));
	lua_pushnil(L);
	while (lua_next(L, cases)) {
		char key[128];
		if (lua_isinteger(L, -2)) {
			u->values[u->ncases] = lua_tointeger(L, -2);
			snprintf(key, sizeof(key), "%lld",
				 (long long)lua_tointeger(L, -2));
		} else if (lua_type(L, -2) == LUA_TSTRING) {
			snprintf(key, sizeof(key), "%s", lua_tostring(L, -2));
			u->keys[u->ncases] = irs_cc_strdup(c, key);
		} else {
			irs_lua_raisef(L, line, "%s: case keys are names or "
				       "integers", qual);
		}
		// a global path is a field too (an opcode's own table)
		if (!irs_fields_is_descriptor(L, -1) &&
		    !irs_fields_is_global(L, -1))
			irs_lua_raisef(L, line, "%s: case %s is not a field",
				       qual, key);
		struct lfield *cf = irs_cc_alloc(c, sizeof(*cf));
		const char *cq = irs_cc_printf(c, "%s(%s)", qual, key);
		irs_cc_field(c, owner, f->name, cq, lua_gettop(L), cf);
		u->cases[u->ncases++] = cf;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	if (lua_getfield(L, idx, "default") != LUA_TNIL) {
		if (!irs_fields_is_descriptor(L, -1) &&
		    !irs_fields_is_global(L, -1))
			irs_lua_raisef(L, line, "%s: default is not a field",
				       qual);
		u->deflt = irs_cc_alloc(c, sizeof(*u->deflt));
		const char *cq = irs_cc_printf(c, "%s(default)", qual);
		irs_cc_field(c, owner, f->name, cq, lua_gettop(L), u->deflt);
	}
	lua_pop(L, 1);
}

// ptr, ref, embed
static void
compile_pointer(struct irs_cc *c, const struct ltype *owner, const char *kind,
		int idx, uint32_t line, const char *qual, struct lfield *f)
{
	lua_State *L = c->L;
	struct irs_field_info info;
	bool embed = !strcmp(kind, "embed");
	irs_cc_keys(c, idx, embed ? " at type " : " at type mask past ", line,
		    qual, kind);
	const char *tname = irs_cc_str(c, idx, "type", line, qual);
	if (!tname)
		irs_lua_raisef(L, line, "%s: %s needs a type", qual, kind);
	const struct ltype *t = irs_cc_type(c, tname, line, qual);
	f->type = t->index;
	// an explicit location is a pointer's 8 bytes, or the embedded type's
	lua_getfield(L, idx, "at");
	irs_cc_loc(c, owner, -1, line, qual, embed ? t->size : 8, &f->at,
		   &info, &f->path);
	lua_pop(L, 1);
	if (embed) {
		f->kind = LK_EMBED;
		irs_cc_kind(c, &info, K(STRUCT) | K(UNION), line, qual, kind,
			    "a struct member");
		if (owner && f->at.offset + (uint64_t)t->size > owner->size)
			irs_lua_raisef(L, line, "%s: %s (%u bytes) at offset "
				       "%u is past the end of %s", qual,
				       t->name, t->size, f->at.offset,
				       owner->name);
		return;
	}
	f->kind = !strcmp(kind, "ptr") ? LK_PTR : LK_REF;
	int64_t mask;
	bool has_mask = irs_cc_int(c, idx, "mask", line, qual, &mask);
	f->mask = has_mask ? (uint64_t)mask : UINT64_MAX;
	// LuaJIT's fn->pc points at the bytecode just past its GCproto
	if (irs_cc_bool(c, idx, "past", false))
		f->past = t->size;
	irs_cc_kind(c, &info, has_mask ? K(POINTER) | K_INTEGER : K(POINTER),
		    line, qual, kind, "a pointer");
	if (info.kind == IRS_TYPE_OTHER && !owner)
		f->at.size = 8;
	irs_cc_width(c, &f->at, line, qual);
}

/* {====================================================== globals */

const char *
irs_cc_unqualified(struct irs_cc *c, const char *type)
{
	for (;;) {
		if (!strncmp(type, "const ", 6))
			type += 6;
		else if (!strncmp(type, "volatile ", 9))
			type += 9;
		else
			break;
	}
	size_t n = strlen(type);
	while (n > 6 && !strncmp(type + n - 6, " const", 6))
		n -= 6;
	return irs_cc_printf(c, "%.*s", (int)n, type);
}

// The layout type whose C name is @p ctype ("struct OpInfo", "OpInfo"),
// or NULL.
static const struct ltype *
type_of_ctype(struct irs_cc *c, const char *ctype)
{
	static const char *const tags[] = { "struct ", "union ", "class " };
	for (size_t i = 0; i < ARRAY_SIZE(tags); i++)
		if (!strncmp(ctype, tags[i], strlen(tags[i])))
			ctype += strlen(tags[i]);
	for (uint32_t i = 0; i < c->lo->ntypes; i++) {
		const char *ct = c->lo->types[i].ctype;
		for (size_t k = 0; k < ARRAY_SIZE(tags); k++)
			if (!strncmp(ct, tags[k], strlen(tags[k])))
				ct += strlen(tags[k]);
		if (!strcmp(ct, ctype))
			return &c->lo->types[i];
	}
	return NULL;
}

// The index of global @p name in lo->syms, added if new.
static uint32_t
global_sym(struct irs_cc *c, const char *name, uint32_t line)
{
	struct irs_layout *lo = c->lo;
	for (uint32_t i = 0; i < lo->nsyms; i++)
		if (!strcmp(lo->syms[i].name, name))
			return i;
	struct lsym *syms = irs_cc_alloc(c, (lo->nsyms + 1) * sizeof(*syms));
	if (lo->nsyms)
		memcpy(syms, lo->syms, lo->nsyms * sizeof(*syms));
	syms[lo->nsyms].name = irs_cc_strdup(c, name);
	syms[lo->nsyms].line = line;
	lo->syms = syms;
	return lo->nsyms++;
}

// A global being compiled: where it is in its path and what is there.
struct gcc {
	struct irs_cc *c;
	const char *name;	// the global
	char spelled[256];	// "optab[op].name" so far
	uint32_t line;
	const char *qual;
	struct irs_field_info info;	// the type here
	uint64_t off;		// bytes not yet in an op
	struct lgop ops[64];	// 3 a step at most, 16 steps
	uint32_t nops;
};

static void
gcc_raise(struct gcc *g, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

static void
gcc_raise(struct gcc *g, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	irs_lua_raisef(g->c->L, g->line, "%s: global '%s': %s", g->qual,
		       g->spelled, msg);
}

static void
gcc_spell(struct gcc *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
gcc_spell(struct gcc *g, const char *fmt, ...)
{
	size_t n = strlen(g->spelled);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->spelled + n, sizeof(g->spelled) - n, fmt, ap);
	va_end(ap);
}

// Puts the offset not yet in an op into one.
static void
gcc_flush(struct gcc *g)
{
	if (!g->off)
		return;
	assert(g->nops < ARRAY_SIZE(g->ops));
	g->ops[g->nops].code = GOP_OFF;
	g->ops[g->nops++].k = g->off;
	g->off = 0;
}

static struct lgop *
gcc_op(struct gcc *g, uint8_t code)
{
	gcc_flush(g);
	assert(g->nops < ARRAY_SIZE(g->ops));
	struct lgop *op = &g->ops[g->nops++];
	memset(op, 0, sizeof(*op));
	op->code = code;
	return op;
}

// The whole type @p type, as debug info describes it.
static void
gcc_type(struct gcc *g, const char *type)
{
	const struct irs_target *t = g->c->t;
	type = irs_cc_unqualified(g->c, type);
	struct irs_error *err = t && t->field ? t->field(t->arg, type, "",
							  &g->info)
		: irs_error_format(IRS_ERROR_TARGET, "no debug info");
	if (err) {
		char msg[300];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		gcc_raise(g, "no type '%s' in the debug info (%s)", type, msg);
	}
}

static void
gcc_member(struct gcc *g, const char *m)
{
	const struct irs_target *t = g->c->t;
	if (g->info.kind == IRS_TYPE_POINTER) {		// as C's ->
		gcc_op(g, GOP_DEREF);
		gcc_type(g, g->info.target_name);
	}
	if (g->info.kind != IRS_TYPE_STRUCT && g->info.kind != IRS_TYPE_UNION)
		gcc_raise(g, "'%s' is no struct or union, so it has no member "
			  "'%s'%s", g->info.type_name, m,
			  g->info.kind == IRS_TYPE_ARRAY ? " (subscript it "
			  "first: global(\"x\")[scalar \"i\"].m)" : "");
	if (g->info.bit_size)
		gcc_raise(g, "a bitfield has no members");
	char type[sizeof(g->info.type_name)];
	snprintf(type, sizeof(type), "%s", irs_cc_unqualified(g->c,
						     g->info.type_name));
	uint64_t base = g->off;
	struct irs_error *err = t->field ? t->field(t->arg, type, m, &g->info)
		: irs_error_format(IRS_ERROR_TARGET, "no debug info");
	if (err) {
		char msg[300];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		gcc_raise(g, "no member '%s' in %s (%s)", m, type, msg);
	}
	g->off = base + g->info.offset;
	g->info.offset = 0;
	gcc_spell(g, ".%s", m);
}

// A subscript: the constant @p k, or (@p at non-NULL) the node's integer
// at @p at, spelled @p by.
static void
gcc_subscript(struct gcc *g, const struct lloc *at, int64_t k,
	      const char *by)
{
	const struct irs_target *t = g->c->t;
	uint64_t count = 0;
	if (g->info.kind == IRS_TYPE_ARRAY) {
		count = g->info.count;
	} else if (g->info.kind == IRS_TYPE_POINTER) {
		gcc_op(g, GOP_DEREF);
	} else {
		gcc_raise(g, "'%s' is no array or pointer, so it has no "
			  "elements", g->info.type_name);
	}
	char elem[sizeof(g->info.target_name)];
	snprintf(elem, sizeof(elem), "%s", g->info.target_name);
	uint64_t stride = 0;
	struct irs_error *err = t->type_size ? t->type_size(t->arg,
		irs_cc_unqualified(g->c, elem), &stride)
		: irs_error_format(IRS_ERROR_TARGET, "no debug info");
	if (err) {
		char msg[300];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		gcc_raise(g, "no size for its elements '%s' (%s)", elem, msg);
	}
	if (stride == 0 || stride > UINT32_MAX)
		gcc_raise(g, "elements of %llu bytes",
			  (unsigned long long)stride);
	if (at) {
		struct lgop *op = gcc_op(g, GOP_INDEX);
		op->at = *at;
		op->k = stride;
		op->count = count;
		gcc_spell(g, "[%s]", by);
	} else {
		if (k < 0 || (count && (uint64_t)k >= count))
			gcc_raise(g, "subscript %lld is outside its %llu "
				  "elements", (long long)k,
				  (unsigned long long)count);
		g->off += (uint64_t)k * stride;
		gcc_spell(g, "[%lld]", (long long)k);
	}
	gcc_type(g, elem);
}

// How what the path ends at renders: a string, a number, a struct the
// layout declares (its text; a pointer to one: its ref), chars.
static void
gcc_value(struct gcc *g, struct lglob *gl)
{
	struct irs_cc *c = g->c;
	struct lfield *v = irs_cc_alloc(c, sizeof(*v));
	const struct irs_field_info *in = &g->info;
	v->name = "[]";
	v->json_key = "\"value\":";
	v->json_key_len = (uint32_t)strlen(v->json_key);
	v->line = g->line;
	v->ctor = "global";
	v->type = IRS_NONE;
	v->index_type = IRS_NONE;
	v->fn = LUA_NOREF;
	uint64_t size = in->size;
	const struct ltype *lt;
	const char *target = irs_cc_unqualified(c, in->target_name);
	switch (in->kind) {
	case IRS_TYPE_POINTER:
		size = 8;
		v->mask = UINT64_MAX;
		if (!strcmp(target, "char") || !strcmp(target, "signed char") ||
		    !strcmp(target, "unsigned char")) {
			v->kind = LK_CSTR;
		} else if ((lt = type_of_ctype(c, target))) {
			v->kind = LK_REF;
			v->type = lt->index;
		} else {
			gcc_raise(g, "a pointer to '%s', which the layout "
				  "declares no struct for", target);
		}
		break;
	case IRS_TYPE_STRUCT: case IRS_TYPE_UNION:
		lt = type_of_ctype(c, irs_cc_unqualified(c, in->type_name));
		if (!lt)
			gcc_raise(g, "'%s' is a struct the layout declares no "
				  "struct \"...\" for (or name a member of it)",
				  in->type_name);
		v->kind = LK_EMBED;
		v->type = lt->index;
		size = lt->size;
		break;
	case IRS_TYPE_ARRAY:
		if (strcmp(target, "char") || !in->count ||
		    in->count > 4096)
			gcc_raise(g, "'%s' is an array: subscript it "
				  "(global(\"x\")[scalar \"i\"])",
				  in->type_name);
		v->kind = LK_CHARS;
		v->nchars = (uint32_t)in->count;
		break;
	case IRS_TYPE_INT: case IRS_TYPE_ENUM:
		v->kind = LK_INT;
		v->at.is_signed = true;
		break;
	case IRS_TYPE_UINT:
		v->kind = LK_UINT;
		break;
	case IRS_TYPE_BOOL:
		v->kind = LK_BOOL;
		break;
	case IRS_TYPE_FLOAT:
		v->kind = LK_FLOAT;
		break;
	default:
		gcc_raise(g, "its type '%s' renders as nothing a layout knows",
			  in->type_name);
	}
	if (v->kind <= LK_ENUM || v->kind == LK_CSTR || v->kind == LK_REF) {
		if (size != 1 && size != 2 && size != 4 && size != 8)
			gcc_raise(g, "a scalar of %llu bytes",
				  (unsigned long long)size);
		v->at.size = (uint8_t)size;
	}
	if (in->kind == IRS_TYPE_ENUM) {	// names from debug info
		const char *type = in->type_name;
		if (!strncmp(type, "enum ", 5))
			type += 5;
		v->kind = LK_ENUM;
		v->en = enum_from_target(c, irs_cc_unqualified(c, type), NULL,
					 false, 0, g->line, g->qual);
	}
	if (size > (1u << 20))
		gcc_raise(g, "%llu bytes", (unsigned long long)size);
	gl->value = v;
	gl->value_size = (uint32_t)(size ? size : 1);
}

// global "optab"[...] at @p gidx (a marker), a field of @p owner; @p sub
// a last subscript by the node's integer (index(P, global "x")), or NULL.
static void
compile_global(struct irs_cc *c, const struct ltype *owner, int gidx,
	       const struct lloc *sub, uint32_t line, const char *qual,
	       struct lfield *f)
{
	lua_State *L = c->L;
	struct gcc g = { .c = c, .line = line, .qual = qual };
	irs_fields_push_global(L, gidx);
	int d = lua_gettop(L);
	lua_getfield(L, d, "name");
	g.name = irs_cc_strdup(c, lua_tostring(L, -1));
	lua_pop(L, 1);
	gcc_spell(&g, "%s", g.name);
	const struct irs_target *t = c->t;
	uint64_t addr;
	struct irs_error *err = t && t->global
		? t->global(t->arg, g.name, &addr, &g.info)
		: irs_error_format(IRS_ERROR_TARGET, "the debugger gives no "
				   "global variables here");
	if (err) {
		char msg[300];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		gcc_raise(&g, "no such global variable in the debuggee (%s)",
			  msg);
	}
	struct lglob *gl = irs_cc_alloc(c, sizeof(*gl));
	gl->sym = global_sym(c, g.name, line);
	gl->id = c->lo->nglobs++ & 0x7fffffffu;	// a render cache key
	lua_getfield(L, d, "steps");
	int steps = lua_gettop(L);
	lua_Integer n = (lua_Integer)lua_rawlen(L, steps);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, steps, i);
		int s = lua_gettop(L);
		if (lua_getfield(L, s, "m") == LUA_TSTRING) {
			gcc_member(&g, lua_tostring(L, -1));
		} else if (lua_getfield(L, s, "k") == LUA_TNUMBER) {
			gcc_subscript(&g, NULL, lua_tointeger(L, -1), NULL);
		} else if (lua_getfield(L, s, "i") == LUA_TTABLE) {
			// a field of the node: where its integer lies
			struct lfield *sf = irs_cc_alloc(c, sizeof(*sf));
			if (!owner)
				gcc_raise(&g, "an element has no fields to "
					  "subscript with");
			irs_cc_field(c, owner, "[]", qual, lua_gettop(L), sf);
			if (sf->kind > LK_ENUM || sf->kind == LK_FLOAT ||
			    sf->kind == LK_BOOL)
				gcc_raise(&g, "a subscript is an integer field "
					  "of the node (scalar \"op\")");
			gcc_subscript(&g, &sf->at, 0,
				      sf->path ? sf->path : "?");
		}
		lua_settop(L, steps);
	}
	lua_pop(L, 2);		// steps, data
	if (sub)
		gcc_subscript(&g, sub, 0, f->path ? f->path : "?");
	gcc_value(&g, gl);
	gcc_flush(&g);
	gl->nops = g.nops;
	gl->ops = irs_cc_alloc(c, (g.nops + 1) * sizeof(*gl->ops));
	memcpy(gl->ops, g.ops, g.nops * sizeof(*gl->ops));
	gl->spelled = irs_cc_strdup(c, g.spelled);
	f->kind = LK_GLOBAL;
	f->glob = gl;
}

/* }====================================================== */

// Whether the location at @p idx is explicit and gives no width: an
// offset, or a table without size or width.
static bool
explicit_unsized(lua_State *L, int idx)
{
	if (lua_isinteger(L, idx))
		return true;
	if (!lua_istable(L, idx))
		return false;
	bool has = lua_getfield(L, idx, "size") != LUA_TNIL;
	lua_pop(L, 1);
	has = has || lua_getfield(L, idx, "width") != LUA_TNIL;
	lua_pop(L, 1);
	return !has;
}

// bits { at = "sym.type", bit = B, width = W [, signed = true] }: bits of
// a member found by path, whatever its declared type, counted from its
// first bit (a bitfield's own first bit). False when the table @p at
// gives no path (bits { offset = O, ... }).
static bool
bits_of_member(struct irs_cc *c, const struct ltype *owner, int at,
	       uint32_t line, const char *qual, struct lfield *f)
{
	lua_State *L = c->L;
	const char *key = "at";
	if (lua_getfield(L, at, key) != LUA_TSTRING) {
		lua_pop(L, 1);
		key = "offset";
		if (lua_getfield(L, at, key) != LUA_TSTRING) {
			lua_pop(L, 1);
			return false;
		}
	}
	const char *path = irs_cc_strdup(c, lua_tostring(L, -1));
	lua_pop(L, 1);
	if (!owner)
		irs_lua_raisef(L, line, "%s: an element has no field path; "
			       "give bits { offset = O, ... }", qual);
	struct irs_field_info info;
	irs_cc_lookup(c, owner, path, line, qual, &info);
	int64_t bit = 0, width = 0;
	irs_cc_int(c, at, "bit", line, qual, &bit);
	irs_cc_int(c, at, "width", line, qual, &width);
	uint64_t avail = info.bit_size ? info.bit_size : info.size * 8;
	if (width < 1 || width > 56 || bit < 0 ||
	    (uint64_t)bit + (uint64_t)width > avail)
		irs_lua_raisef(L, line, "%s: bits %lld..%lld (width %lld) are "
			       "not inside '%s' (%llu bits)", qual,
			       (long long)bit, (long long)(bit + width - 1),
			       (long long)width, path,
			       (unsigned long long)avail);
	uint64_t first = info.offset * 8 + info.bit_offset + (uint64_t)bit;
	if (first / 8 > UINT32_MAX)
		irs_lua_raisef(L, line, "%s: offset too large", qual);
	f->path = path;
	f->at.offset = (uint32_t)(first / 8);
	f->at.bit_off = (uint8_t)(first % 8);
	f->at.bit_size = (uint8_t)width;
	f->at.size = (uint8_t)((f->at.bit_off + width + 7) / 8);
	f->at.is_signed = irs_cc_bool(c, at, "signed", false);
	f->kind = f->at.is_signed ? LK_INT : LK_UINT;
	if (f->at.offset + (uint64_t)f->at.size > owner->size)
		irs_lua_raisef(L, line, "%s: bytes %u..%u are past the end of "
			       "%s (%u bytes)", qual, f->at.offset,
			       f->at.offset + f->at.size, owner->name,
			       owner->size);
	return true;
}

// chars({ at = "after" [, skip = ...] }, LEN): the placement into @p f.
static void
placed_chars(struct irs_cc *c, const struct ltype *owner, int idx,
	     uint32_t line, const char *qual, struct lfield *f)
{
	lua_State *L = c->L;
	lua_getfield(L, idx, "at");
	int t = lua_gettop(L);
	for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1))
		if (lua_type(L, -2) != LUA_TSTRING ||
		    (strcmp(lua_tostring(L, -2), "at") &&
		     strcmp(lua_tostring(L, -2), "skip")))
			irs_lua_raisef(L, line, "%s: chars after its struct "
				       "takes { at = \"after\", skip = ... }",
				       qual);
	f->place = irs_cc_place(c, owner, t, line, qual);
	if (!f->place || f->place->at != PLACE_AFTER)
		irs_lua_raisef(L, line, "%s: chars of a placement are at = "
			       "\"after\" their struct", qual);
	lua_pop(L, 1);
}

// enum({ at = "path", bit = B, width = W }, { names = ... }): an enum in
// bits of a member (LLVM's Bitfield::Element in Value::SubclassData),
// named by a table or by type T. False when the location is no such
// table; the location table is on the stack top.
static bool
enum_of_bits(struct irs_cc *c, const struct ltype *owner, int idx,
	     uint32_t line, const char *qual, struct lfield *f)
{
	lua_State *L = c->L;
	if (!lua_istable(L, -1))
		return false;
	bool has_width = lua_getfield(L, -1, "width") != LUA_TNIL;
	lua_pop(L, 1);
	if (!has_width ||
	    !bits_of_member(c, owner, lua_gettop(L), line, qual, f))
		return false;
	struct irs_field_info info = { .kind = IRS_TYPE_UINT, .type_name = "" };
	f->kind = LK_ENUM;
	compile_enum(c, owner, idx, &info, line, qual, f);
	return true;
}

// scalar, u8..f64, bool, bits, enum, cstr, chars, strn, index
static void
compile_scalar(struct irs_cc *c, const struct ltype *owner, const char *kind,
	       int idx, uint32_t line, const char *qual, struct lfield *f)
{
	lua_State *L = c->L;
	struct irs_field_info info;
	int64_t size = 0;
	irs_cc_int(c, idx, "size", line, qual, &size);
	bool sized = size > 0;
	const char *allowed = " at ";
	if (!strcmp(kind, "enum"))
		allowed = " at names strip lower type size prefer rename ";
	else if (!strcmp(kind, "strn") || !strcmp(kind, "chars"))
		allowed = " at len skip ";
	else if (!strcmp(kind, "index"))
		allowed = " at target ";
	else if (sized)
		allowed = " at size ";
	irs_cc_keys(c, idx, allowed, line, qual, f->ctor);
	uint32_t def = sized ? (uint32_t)size : !strcmp(kind, "enum") ? 4
		: !strcmp(kind, "index") ? 4 : 8;
	lua_getfield(L, idx, "at");
	if (!strcmp(kind, "bits") && (!lua_istable(L, -1) ||
				      lua_getfield(L, -1, "width") == LUA_TNIL))
		irs_lua_raisef(L, line, "%s: bits { offset = O, bit = B, "
			       "width = W } or bits { at = \"path\", bit = B, "
			       "width = W }", qual);
	if (!strcmp(kind, "bits")) {
		lua_pop(L, 1);
		if (bits_of_member(c, owner, lua_gettop(L), line, qual, f)) {
			lua_pop(L, 1);
			return;
		}
	}
	if (!strcmp(kind, "enum") && enum_of_bits(c, owner, idx, line, qual,
						  f)) {
		lua_pop(L, 1);
		return;
	}
	if (!strcmp(kind, "scalar") && !sized && explicit_unsized(L, -1))
		irs_lua_raisef(L, line, "%s: scalar at an explicit offset "
			       "needs its width: { offset = O, size = N } (1, "
			       "2, 4 or 8), or u32(O), i64(O), f64(O)...",
			       qual);
	bool placed = false;
	if (!strcmp(kind, "chars") && lua_istable(L, -1)) {
		placed = lua_getfield(L, -1, "at") != LUA_TNIL;
		lua_pop(L, 1);
	}
	if (placed) {
		// a placement, not a location: chars({ at = "after" }, LEN),
		// a key after a fixed header (StringMapEntry's chars)
		lua_pop(L, 1);
		lua_getfield(L, idx, "len");
		if (lua_isnil(L, -1))
			irs_lua_raisef(L, line, "%s: chars after its struct "
				       "needs its length: chars({ at = "
				       "\"after\" }, LEN)", qual);
		lua_pop(L, 1);
		placed_chars(c, owner, idx, line, qual, f);
		lua_getfield(L, idx, "len");
		irs_cc_loc(c, owner, -1, line, qual, 8, &f->len, &info, NULL);
		lua_pop(L, 1);
		irs_cc_kind(c, &info, K_INTEGER, line, qual, "chars length",
			    "an integer");
		irs_cc_width(c, &f->len, line, qual);
		f->kind = LK_STRN;
		f->tail = true;
		return;
	}
	irs_cc_loc(c, owner, -1, line, qual, def, &f->at, &info, &f->path);
	lua_pop(L, 1);
	if (!strcmp(kind, "scalar")) {
		switch (info.kind) {
		case IRS_TYPE_INT: case IRS_TYPE_ENUM:
			f->kind = LK_INT;
			break;
		case IRS_TYPE_UINT:
			f->kind = LK_UINT;
			break;
		case IRS_TYPE_BOOL:
			f->kind = LK_BOOL;
			break;
		case IRS_TYPE_FLOAT:
			f->kind = LK_FLOAT;
			break;
		case IRS_TYPE_OTHER:
			// explicit: { offset, size, signed = true }
			f->kind = f->at.is_signed ? LK_INT : LK_UINT;
			break;
		default:
			irs_cc_kind(c, &info, K_INTEGER | K(FLOAT), line, qual,
				    "scalar", "an integer, bool or float");
		}
	} else if (!strcmp(kind, "int") || !strcmp(kind, "uint") ||
		   !strcmp(kind, "bool") || !strcmp(kind, "bits")) {
		// u8..i64 read any member raw, whatever its declared type (a
		// one-word struct of bitfields, a float's bits), when the
		// sizes agree (checked below)
		unsigned ok = K_INTEGER | K(POINTER);
		if (sized)
			ok |= K(STRUCT) | K(UNION) | K(ARRAY) | K(FLOAT);
		irs_cc_kind(c, &info, ok, line, qual, f->ctor, "an integer");
		f->kind = !strcmp(kind, "bool") ? LK_BOOL
			: !strcmp(kind, "uint") ? LK_UINT
			: !strcmp(kind, "int") ? LK_INT
			: f->at.is_signed ? LK_INT : LK_UINT;
		if (f->kind == LK_INT)
			f->at.is_signed = true;
		else if (f->kind != LK_BOOL)
			f->at.is_signed = false;
		if (sized && info.kind != IRS_TYPE_OTHER && !f->at.bit_size &&
		    info.size != (uint64_t)size)
			irs_lua_raisef(L, line, "%s: %s reads %lld bytes, but "
				       "debug info says '%s' is %llu", qual,
				       f->ctor, (long long)size,
				       info.type_name,
				       (unsigned long long)info.size);
	} else if (!strcmp(kind, "float")) {
		irs_cc_kind(c, &info, K(FLOAT), line, qual, f->ctor, "a float");
		f->kind = LK_FLOAT;
		if (f->at.size != 4 && f->at.size != 8)
			irs_lua_raisef(L, line, "%s: floats are 4 or 8 bytes",
				       qual);
	} else if (!strcmp(kind, "enum")) {
		irs_cc_kind(c, &info, K_INTEGER, line, qual, "enum",
			    "an enum or integer");
		f->kind = LK_ENUM;
		compile_enum(c, owner, idx, &info, line, qual, f);
	} else if (!strcmp(kind, "cstr")) {
		irs_cc_kind(c, &info, K(POINTER), line, qual, "cstr",
			    "a char * (for char[N] use chars)");
		f->kind = LK_CSTR;
	} else if (!strcmp(kind, "chars")) {
		irs_cc_kind(c, &info, K(ARRAY), line, qual, "chars",
			    "a char array (for char * use cstr)");
		lua_getfield(L, idx, "len");
		bool tail = !lua_isnil(L, -1);
		if (tail) {
			// chars(P, LEN): a string stored in the struct's own
			// flexible tail (Lua's TString contents), LEN bytes
			// read from the debuggee past the declared array
			f->kind = LK_STRN;
			f->tail = true;
			irs_cc_loc(c, owner, -1, line, qual, 8, &f->len, &info,
				   NULL);
			lua_pop(L, 1);
			irs_cc_kind(c, &info, K_INTEGER, line, qual,
				    "chars length", "an integer");
			irs_cc_width(c, &f->len, line, qual);
			f->at.size = 0;
			return;
		}
		lua_pop(L, 1);
		f->kind = LK_CHARS;
		uint64_t n = info.count ? info.count : info.size;
		int64_t explicit_n;
		lua_getfield(L, idx, "at");
		if (lua_istable(L, -1) && irs_cc_int(c, lua_gettop(L), "size",
						     line, qual, &explicit_n))
			n = (uint64_t)explicit_n;
		lua_pop(L, 1);
		if (n == 0 || n > 1u << 20)
			irs_lua_raisef(L, line, "%s: chars needs the array "
				       "length ({ offset = O, size = N })",
				       qual);
		if (owner && f->at.offset + n > owner->size)
			irs_lua_raisef(L, line, "%s: char[%llu] is past the "
				       "end of %s", qual,
				       (unsigned long long)n, owner->name);
		f->nchars = (uint32_t)n;
		f->at.size = 0;
		return;
	} else if (!strcmp(kind, "strn")) {
		irs_cc_kind(c, &info, K(POINTER), line, qual, "strn",
			    "a pointer");
		f->kind = LK_STRN;
		lua_getfield(L, idx, "len");
		irs_cc_loc(c, owner, -1, line, qual, 8, &f->len, &info, NULL);
		lua_pop(L, 1);
		irs_cc_kind(c, &info, K_INTEGER, line, qual, "strn length",
			    "an integer");
		irs_cc_width(c, &f->len, line, qual);
	} else if (!strcmp(kind, "index")) {
		irs_cc_kind(c, &info, K_INTEGER, line, qual, "index",
			    "an integer");
		irs_cc_width(c, &f->at, line, qual);
		lua_getfield(L, idx, "target");
		if (irs_fields_is_global(L, -1)) {
			struct lloc sub = f->at;
			compile_global(c, owner, lua_gettop(L), &sub, line,
				       qual, f);
			lua_pop(L, 1);
			return;
		}
		lua_pop(L, 1);
		f->kind = LK_INDEX;
		const char *target = irs_cc_str(c, idx, "target", line, qual);
		if (!target || !strchr(target, '.'))
			irs_lua_raisef(L, line, "%s: index needs a target "
				       "\"Type.sequence\"", qual);
		f->link_name = irs_cc_strdup(c, target);
	}
	irs_cc_width(c, &f->at, line, qual);
}

// strn(P, LEN) { skip = N }, chars(P, LEN) { skip = N }: the string
// without its first N bytes (Lua's "@file" source names).
static void
compile_skip(struct irs_cc *c, int idx, uint32_t line, const char *qual,
	     struct lfield *f)
{
	int64_t skip = 0;
	if (!irs_cc_int(c, idx, "skip", line, qual, &skip))
		return;
	if (f->kind != LK_STRN || skip < 0 || skip > (1 << 20))
		irs_lua_raisef(c->L, line, "%s: skip = N (0 to 1048576) is for "
			       "strings with a length: strn(P, LEN) or "
			       "chars(P, LEN)", qual);
	f->skip = (uint32_t)skip;
}

// Refuses descriptor @p idx when it is one of those it is nested in (a
// union that is its own case, a sequence its own element), nested deeper
// than IRS_LAYOUT_MAX_NESTING, or one field too many; else enters it on
// c->path. Each level of the recursion below keeps a few values on the Lua
// stack, so it also makes room for them (unchecked, a deep nesting wrote
// past the stack and corrupted the heap).
static void
enter_field(struct irs_cc *c, int idx, uint32_t line, const char *qual)
{
	lua_State *L = c->L;
	const void *desc = lua_topointer(L, idx);
	for (uint32_t i = 0; i < c->depth; i++)
		if (c->path[i].desc == desc)
			irs_lua_raisef(L, c->path[i].line, "%s: contains "
				       "itself (a union's case or default, or "
				       "a sequence's element, is the union or "
				       "sequence around it)", qual);
	if (c->depth > IRS_LAYOUT_MAX_NESTING)
		irs_lua_raisef(L, c->path[c->depth - 1].line, "%s: fields "
			       "nested more than %d deep (unions in unions, "
			       "sequences of sequences)", qual,
			       IRS_LAYOUT_MAX_NESTING);
	if (++c->nfields > IRS_LAYOUT_MAX_FIELDS)
		irs_lua_raisef(L, c->depth ? c->path[0].line : line, "%s: more "
			       "than %d fields (a descriptor shared by the "
			       "cases of nested unions counts once per use)",
			       qual, IRS_LAYOUT_MAX_FIELDS);
	luaL_checkstack(L, 16, "layout fields nested too deep");
	c->path[c->depth].desc = desc;
	c->path[c->depth].line = line;
	c->depth++;
}

// delta { of = "T.s", base = "b" [, absolute = "a", at = "pc",
// value = "line"] }: the names, linked once every type is compiled.
static void
compile_delta(struct irs_cc *c, int idx, uint32_t line, const char *qual,
	      struct lfield *f)
{
	static const char *const keys[] = { "of", "base", "absolute", "at",
					    "value" };
	irs_cc_keys(c, idx, " of base absolute at value ", line, qual,
		    "delta");
	f->kind = LK_DELTA;
	f->delta = irs_cc_alloc(c, sizeof(*f->delta));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = irs_cc_str(c, idx, keys[i], line, qual);
		f->delta->names[i] = v ? irs_cc_strdup(c, v) : NULL;
	}
	const char *seq = f->delta->names[0];
	if (!seq || !strchr(seq, '.') || !f->delta->names[1])
		irs_lua_raisef(c->L, line, "%s: delta needs of = "
			       "\"Type.sequence\" and base = \"field\"", qual);
	if (f->delta->names[2] && (!f->delta->names[3] ||
				   !f->delta->names[4]))
		irs_lua_raisef(c->L, line, "%s: delta's absolute entries need "
			       "at = \"field\" and value = \"field\"", qual);
}

static void
init_field(struct irs_cc *c, const char *name, uint32_t line,
	   const char *ctor, struct lfield *f)
{
	f->name = name;
	f->json_key = irs_cc_json(c, name, true);
	f->json_key_len = (uint32_t)strlen(f->json_key);
	f->line = line;
	f->ctor = irs_cc_strdup(c, ctor);
	f->type = IRS_NONE;
	f->index_type = IRS_NONE;
	f->fn = LUA_NOREF;
}

// Compiles the descriptor at @p idx, a field of @p owner (NULL: element).
void
irs_cc_field(struct irs_cc *c, const struct ltype *owner, const char *name,
	     const char *qual, int idx, struct lfield *f)
{
	lua_State *L = c->L;
	idx = lua_absindex(L, idx);
	if (irs_fields_is_global(L, idx)) {
		irs_fields_push_global(L, idx);
		uint32_t gline = irs_cc_line(c, -1);
		lua_pop(L, 1);
		enter_field(c, idx, gline, qual);
		init_field(c, name, gline, "global", f);
		compile_global(c, owner, idx, NULL, gline, qual, f);
		c->depth--;
		return;
	}
	uint32_t line = irs_cc_line(c, idx);
	enter_field(c, idx, line, qual);
	const char *kind = irs_cc_str(c, idx, "kind", line, qual);
	init_field(c, name, line, irs_cc_str(c, idx, "ctor", line, qual), f);
	if (!strcmp(kind, "ptr") || !strcmp(kind, "ref") ||
	    !strcmp(kind, "embed")) {
		compile_pointer(c, owner, kind, idx, line, qual, f);
	} else if (!strcmp(kind, "union")) {
		compile_union(c, owner, idx, line, qual, f);
	} else if (!strcmp(kind, "array") || !strcmp(kind, "fixed") ||
		   !strcmp(kind, "nullterm") || !strcmp(kind, "range") ||
		   !strcmp(kind, "list") || !strcmp(kind, "zip") ||
		   !strcmp(kind, "derived")) {
		compile_seq(c, owner, kind, idx, line, qual, f);
	} else if (!strcmp(kind, "delta")) {
		compile_delta(c, idx, line, qual, f);
	} else if (irs_shape_is(kind)) {
		irs_cc_shape(c, owner, kind, idx, line, qual, f);
	} else if (!strcmp(kind, "computed")) {
		irs_cc_keys(c, idx, " fn pure ", line, qual, kind);
		f->kind = LK_COMPUTED;
		f->pure = irs_cc_bool(c, idx, "pure", false);
		lua_getfield(L, idx, "fn");
		if (!lua_isfunction(L, -1))
			irs_lua_raisef(L, line, "%s: computed needs a function",
				       qual);
		f->fn = luaL_ref(L, LUA_REGISTRYINDEX);
		if (!f->pure)
			c->lo->walk_lua = true;
	} else {
		compile_scalar(c, owner, kind, idx, line, qual, f);
		compile_skip(c, idx, line, qual, f);
	}
	f->no_json = !irs_cc_bool(c, idx, "json", true);
	c->depth--;
}

/* }====================================================== */
