// Layout fields: one field descriptor (a Lua table from layout_fields.c)
// becomes one struct lfield, its location, width, signedness and bitfield
// position resolved through debug info and checked against what the
// constructor needs (a `cstr` on an int is an error naming both): scalars,
// enums (names from the layout or from debug info), strings, pointers,
// unions and every kind of sequence. Runs inside the compile's protected
// call (layout_compile.c), raising "FILE:LINE: message" on a mistake.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout_internal.h"

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
};

static int
cmp_item(const void *a, const void *b)
{
	return cmp_i64(&((const struct enum_item *)a)->value,
		       &((const struct enum_item *)b)->value);
}

// Builds the table of names from @p items, applying strip and lower.
static struct lenum *
make_enum(struct irs_cc *c, struct enum_item *items, uint32_t n,
	  const char *strip, bool lower)
{
	struct lenum *en = irs_cc_alloc(c, sizeof(*en));
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
		uint32_t line, const char *qual)
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
	return make_enum(c, items, n, strip, lower);
}

// The enumerators of @p type from debug info.
static struct lenum *
enum_from_target(struct irs_cc *c, const char *type, const char *strip,
		 bool lower, uint32_t line, const char *qual)
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
		items[n].value = value;
		items[n].raw = irs_cc_strdup(c, name);
		n++;
	}
	return make_enum(c, items, n, strip, lower);
}

static void
compile_enum(struct irs_cc *c, int idx, const struct irs_field_info *info,
	     uint32_t line, const char *qual, struct lfield *f)
{
	const char *strip = irs_cc_str(c, idx, "strip", line, qual);
	bool lower = irs_cc_bool(c, idx, "lower", false);
	const char *type = irs_cc_str(c, idx, "type", line, qual);
	int t = lua_getfield(c->L, idx, "names");
	if (t == LUA_TTABLE) {
		f->en = enum_from_table(c, lua_gettop(c->L), strip, lower,
					line, qual);
		lua_pop(c->L, 1);
		return;
	}
	lua_pop(c->L, 1);
	if (t != LUA_TNIL)
		irs_lua_raisef(c->L, line, "%s: 'names' must be a table", qual);
	if (!type) {
		type = info->type_name;
		if (!strncmp(type, "enum ", 5))
			type += 5;
	}
	if (!*type)
		irs_lua_raisef(c->L, line, "%s: no enum type to take names "
			       "from (give names = {...} or type = \"T\")",
			       qual);
	f->en = enum_from_target(c, type, strip, lower, line, qual);
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
	if (s->stride < need)
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
		irs_cc_keys(c, idx, " ptr count of stride ", line, qual,
			    kind);
		s->kind = SEQ_ARRAY;
		seq_loc(c, owner, idx, "ptr", line, qual, K(POINTER),
			"a pointer", &s->base);
		seq_loc(c, owner, idx, "count", line, qual, K_INTEGER,
			"an integer", &s->count);
		compile_elem(c, idx, line, qual, s);
	} else if (!strcmp(kind, "fixed")) {
		irs_cc_keys(c, idx, " at count of stride ", line, qual,
			    kind);
		s->kind = SEQ_FIXED;
		lua_getfield(L, idx, "at");
		irs_cc_loc(c, owner, -1, line, qual, 0, &s->base, &info,
			   NULL);
		lua_pop(L, 1);
		irs_cc_kind(c, &info, K(ARRAY), line, qual, kind, "an array");
		compile_elem(c, idx, line, qual, s);
		int64_t n = 0;
		if (irs_cc_int(c, idx, "count", line, qual, &n))
			s->fixed_count = (uint64_t)n;
		else if (info.count)
			s->fixed_count = info.count;
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
		if (!irs_fields_is_descriptor(L, -1))
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
		if (!irs_fields_is_descriptor(L, -1))
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
	irs_cc_keys(c, idx, embed ? " at type " : " at type mask ", line,
		    qual, kind);
	const char *tname = irs_cc_str(c, idx, "type", line, qual);
	if (!tname)
		irs_lua_raisef(L, line, "%s: %s needs a type", qual, kind);
	const struct ltype *t = irs_cc_type(c, tname, line, qual);
	f->type = t->index;
	lua_getfield(L, idx, "at");
	irs_cc_loc(c, owner, -1, line, qual, 8, &f->at, &info, &f->path);
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
	irs_cc_kind(c, &info, has_mask ? K(POINTER) | K_INTEGER : K(POINTER),
		    line, qual, kind, "a pointer");
	if (info.kind == IRS_TYPE_OTHER && !owner)
		f->at.size = 8;
	irs_cc_width(c, &f->at, line, qual);
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
		allowed = " at names strip lower type size ";
	else if (!strcmp(kind, "strn"))
		allowed = " at len ";
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
			       "width = W }", qual);
	if (!strcmp(kind, "bits"))
		lua_pop(L, 1);
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
		irs_cc_kind(c, &info, K_INTEGER | K(POINTER), line, qual,
			    f->ctor, "an integer");
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
		compile_enum(c, idx, &info, line, qual, f);
	} else if (!strcmp(kind, "cstr")) {
		irs_cc_kind(c, &info, K(POINTER), line, qual, "cstr",
			    "a char * (for char[N] use chars)");
		f->kind = LK_CSTR;
	} else if (!strcmp(kind, "chars")) {
		irs_cc_kind(c, &info, K(ARRAY), line, qual, "chars",
			    "a char array (for char * use cstr)");
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
		f->kind = LK_INDEX;
		const char *target = irs_cc_str(c, idx, "target", line, qual);
		if (!target || !strchr(target, '.'))
			irs_lua_raisef(L, line, "%s: index needs a target "
				       "\"Type.sequence\"", qual);
		f->link_name = irs_cc_strdup(c, target);
	}
	irs_cc_width(c, &f->at, line, qual);
}

// Compiles the descriptor at @p idx, a field of @p owner (NULL: element).
void
irs_cc_field(struct irs_cc *c, const struct ltype *owner, const char *name,
	     const char *qual, int idx, struct lfield *f)
{
	lua_State *L = c->L;
	idx = lua_absindex(L, idx);
	uint32_t line = irs_cc_line(c, idx);
	const char *kind = irs_cc_str(c, idx, "kind", line, qual);
	f->name = name;
	f->json_key = irs_cc_json(c, name, true);
	f->json_key_len = (uint32_t)strlen(f->json_key);
	f->line = line;
	f->ctor = irs_cc_strdup(c, irs_cc_str(c, idx, "ctor", line, qual));
	f->type = IRS_NONE;
	f->index_type = IRS_NONE;
	f->fn = LUA_NOREF;
	if (!strcmp(kind, "ptr") || !strcmp(kind, "ref") ||
	    !strcmp(kind, "embed")) {
		compile_pointer(c, owner, kind, idx, line, qual, f);
	} else if (!strcmp(kind, "union")) {
		compile_union(c, owner, idx, line, qual, f);
	} else if (!strcmp(kind, "array") || !strcmp(kind, "fixed") ||
		   !strcmp(kind, "nullterm") || !strcmp(kind, "range") ||
		   !strcmp(kind, "list")) {
		compile_seq(c, owner, kind, idx, line, qual, f);
	} else if (!strcmp(kind, "computed")) {
		irs_cc_keys(c, idx, " fn ", line, qual, kind);
		f->kind = LK_COMPUTED;
		lua_getfield(L, idx, "fn");
		f->fn = luaL_ref(L, LUA_REGISTRYINDEX);
		c->lo->walk_lua = true;
	} else {
		compile_scalar(c, owner, kind, idx, line, qual, f);
	}
}

/* }====================================================== */
