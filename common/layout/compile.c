// Compiles what a layout declared (Lua tables, see decl.c and
// fields.c) into the C schema of walk/walk.h: sizes from the
// target's debug info (or explicit numbers), fields (resolve.c),
// text templates compiled, names linked. Runs inside one protected call;
// every allocation belongs to the layout, so an error raised halfway leaks
// nothing (irs_layout_destroy frees it all).
//
// Order: types (names, sizes), then fields (every type known), then links
// (union tags, index targets), then texts (every field known), then
// boundaries, verifiers and reduce.
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

/* {====================================================== helpers */

void *
irs_cc_alloc(struct irs_cc *c, size_t size)
{
	void *p = irs_layout_alloc(c->lo, size);
	if (!p)
		irs_lua_raise(c->L, &irs_enomem);
	return p;
}

const char *
irs_cc_strdup(struct irs_cc *c, const char *s)
{
	char *p = irs_layout_strndup(c->lo, s, strlen(s));
	if (!p)
		irs_lua_raise(c->L, &irs_enomem);
	return p;
}

const char *
irs_cc_printf(struct irs_cc *c, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	return irs_cc_strdup(c, tmp);
}

// "\"name\":" or "\"name\"" ready to write into JSON.
const char *
irs_cc_json(struct irs_cc *c, const char *s, bool colon)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_json_string(&b, s, strlen(s));
	if (colon)
		irs_buf_append(&b, ":", 1);
	char *p = b.oom ? NULL : irs_layout_strndup(c->lo, b.data, b.len);
	irs_buf_deinit(&b);
	if (!p)
		irs_lua_raise(c->L, &irs_enomem);
	return p;
}

// The string at key @p k of the table at @p idx, or NULL.
const char *
irs_cc_str(struct irs_cc *c, int idx, const char *k, uint32_t line,
	   const char *qual)
{
	int t = lua_getfield(c->L, idx, k);
	const char *s = t == LUA_TSTRING ? lua_tostring(c->L, -1) : NULL;
	lua_pop(c->L, 1);	// the string stays alive in the table
	if (t != LUA_TNIL && !s)
		irs_lua_raisef(c->L, line, "%s: '%s' must be a string", qual,
			       k);
	return s;
}

bool
irs_cc_int(struct irs_cc *c, int idx, const char *k, uint32_t line,
	   const char *qual, int64_t *ret)
{
	int t = lua_getfield(c->L, idx, k);
	int isint;
	lua_Integer v = lua_tointegerx(c->L, -1, &isint);
	lua_pop(c->L, 1);
	if (t == LUA_TNIL)
		return false;
	if (!isint)
		irs_lua_raisef(c->L, line, "%s: '%s' must be an integer", qual,
			       k);
	*ret = v;
	return true;
}

bool
irs_cc_bool(struct irs_cc *c, int idx, const char *k, bool def)
{
	int t = lua_getfield(c->L, idx, k);
	bool v = t == LUA_TNIL ? def : lua_toboolean(c->L, -1);
	lua_pop(c->L, 1);
	return v;
}

uint32_t
irs_cc_line(struct irs_cc *c, int idx)
{
	int64_t line = 0;
	irs_cc_int(c, idx, "line", 0, "field", &line);
	return (uint32_t)line;
}

static const char *const common_keys[] = { "kind", "ctor", "line", "seq",
					    "json" };

// Raises unless every key of descriptor @p idx is common or in @p allowed.
void
irs_cc_keys(struct irs_cc *c, int idx, const char *allowed, uint32_t line,
	    const char *qual, const char *ctor)
{
	lua_State *L = c->L;
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		const char *k = lua_tostring(L, -1);
		bool ok = false;
		for (size_t i = 0; i < ARRAY_SIZE(common_keys); i++)
			ok |= !strcmp(k, common_keys[i]);
		// allowed: " key1 key2 "
		char pat[64];
		snprintf(pat, sizeof(pat), " %s ", k);
		ok |= strstr(allowed, pat) != NULL;
		if (!ok)
			irs_lua_raisef(L, line, "%s: %s has no option '%s'",
				       qual, ctor, k);
	}
}

static const char *
kind_name(uint32_t kind)
{
	static const char *const names[] = {
		"an unknown type", "a signed integer", "an unsigned integer",
		"a bool", "a float", "an enum", "a pointer", "a struct",
		"a union", "an array",
	};
	return kind < ARRAY_SIZE(names) ? names[kind] : names[0];
}

/* }====================================================== */

/* {====================================================== locations */

// Bitfields: keep bit_off under 8 so the value fits in the bytes read.
static void
normalize_bits(struct lloc *l)
{
	if (!l->bit_size)
		return;
	l->offset += l->bit_off / 8;
	l->bit_off %= 8;
	l->size = (uint8_t)((l->bit_off + l->bit_size + 7) / 8);
}

// Member @p path of type @p type (a dotted path, or "" for the type
// itself) from debug info; raises naming @p whole, the path as written.
static void
member(struct irs_cc *c, const char *type, const char *path,
       const char *whole, uint32_t line, const char *qual,
       struct irs_field_info *info)
{
	memset(info, 0, sizeof(*info));
	if (!c->t || !c->t->field)
		irs_lua_raisef(c->L, line, "%s: no debug info to find '%s' in "
			       "%s (give { offset = N })", qual, whole, type);
	struct irs_error *err = c->t->field(c->t->arg, type, path, info);
	if (err) {
		char msg[400];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		if (!*path)
			irs_lua_raisef(c->L, line, "%s: '%s': its elements are "
				       "of type '%s', which debug info does not "
				       "name (an anonymous struct?): give their "
				       "member's offset, { offset = N } (debug "
				       "info: %s)", qual, whole, type, msg);
		irs_lua_raisef(c->L, line, "%s: no field '%s' in struct %s "
			       "(debug info: %s)", qual, path, type, msg);
	}
}

// A location with subscripts ("arg[0]", "ops[2].kind", "m[1][2]"): the
// members up to each subscript are an inline array of owner's type (not
// a pointer: a location lies inside the struct), whose element type the
// rest is looked up in.
static void
lookup_elements(struct irs_cc *c, const struct ltype *owner, const char *path,
		uint32_t line, const char *qual, struct irs_field_info *info)
{
	struct lpath lp;
	char why[300], type[300], dotted[300] = "";
	uint64_t base = 0;
	if (!irs_path_parse(path, strlen(path), &lp, why, sizeof(why)))
		irs_lua_raisef(c->L, line, "%s: %s", qual, why);
	snprintf(type, sizeof(type), "%s", owner->ctype);
	for (uint32_t i = 0; i < lp.n; i++) {
		const struct lpc *k = &lp.c[i];
		size_t dl = strlen(dotted);
		if (k->kind == LPC_NAME) {
			snprintf(dotted + dl, sizeof(dotted) - dl, "%s%.*s",
				 dl ? "." : "", (int)k->n, k->s);
			continue;
		}
		if (k->kind != LPC_INDEX || !dl)
			irs_lua_raisef(c->L, line, "%s: '%s': a location is "
				       "members and subscripts [N] (^, slices "
				       "and the previous element are for "
				       "templates)", qual, path);
		if (k->lo < 0)
			irs_lua_raisef(c->L, line, "%s: '%s': a location's "
				       "subscript is 0 or more (one from the "
				       "end, [-1], is for templates)", qual,
				       path);
		struct irs_field_info a;
		member(c, type, dotted, path, line, qual, &a);
		if (a.kind == IRS_TYPE_POINTER)
			irs_lua_raisef(c->L, line, "%s: '%s': '%s' is a pointer, "
				       "and a location lies inside the struct "
				       "(what it points to is read by array { "
				       "ptr = \"%s\", ... } or ptr(...))", qual,
				       path, dotted, dotted);
		if (a.kind != IRS_TYPE_ARRAY || a.bit_size)
			irs_lua_raisef(c->L, line, "%s: '%s': '%s' is '%s', not "
				       "an array to subscript", qual, path,
				       dotted, a.type_name);
		if (a.count && (uint64_t)k->lo >= a.count)
			irs_lua_raisef(c->L, line, "%s: '%s': subscript %lld is "
				       "outside its %llu elements", qual, path,
				       (long long)k->lo,
				       (unsigned long long)a.count);
		uint64_t stride = 0;
		char elem[300];
		snprintf(elem, sizeof(elem), "%s",
			 irs_cc_unqualified(c, a.target_name));
		if (a.count) {
			stride = a.size / a.count;
		} else if (c->t->type_size) {
			struct irs_error *err = c->t->type_size(c->t->arg, elem,
								&stride);
			irs_error_destroy(err);
		}
		if (!stride)
			irs_lua_raisef(c->L, line, "%s: '%s': no size for the "
				       "elements of '%s'", qual, path, dotted);
		base += a.offset + (uint64_t)k->lo * stride;
		snprintf(type, sizeof(type), "%s", elem);
		dotted[0] = '\0';
	}
	member(c, type, dotted, path, line, qual, info);
	info->offset += base;
}

// Looks up @p path in @p owner through the target's debug info.
void
irs_cc_lookup(struct irs_cc *c, const struct ltype *owner, const char *path,
	      uint32_t line, const char *qual, struct irs_field_info *info)
{
	if (strchr(path, '['))
		lookup_elements(c, owner, path, line, qual, info);
	else
		member(c, owner->ctype, path, path, line, qual, info);
}

// A field descriptor standing where a location goes, index(bits { at =
// "jmp.type", bit = 15, width = 1 }, ...): the integer it reads is the
// location (issue 27 item 9: it was taken for a table, its keys ignored,
// and read offset 0).
static void
descriptor_loc(struct irs_cc *c, const struct ltype *owner, int idx,
	       uint32_t line, const char *qual, struct lloc *loc,
	       struct irs_field_info *info, const char **path_ret)
{
	struct lfield tmp;
	memset(&tmp, 0, sizeof(tmp));
	irs_cc_field(c, owner, "[]", qual, idx, &tmp);
	if (tmp.kind != LK_INT && tmp.kind != LK_UINT && tmp.kind != LK_BOOL &&
	    tmp.kind != LK_ENUM)
		irs_lua_raisef(c->L, line, "%s: a field standing for a location "
			       "must read an integer (bits { ... }, u32 \"m\", "
			       "scalar \"m\"), not %s", qual,
			       irs_lkind_word(&tmp));
	*loc = tmp.at;
	info->kind = tmp.at.is_signed ? IRS_TYPE_INT : IRS_TYPE_UINT;
	info->size = tmp.at.size;
	if (path_ret)
		*path_ret = tmp.path;
}

// { offset = O | at = "path", size = S, bit = B, width = W, signed = true }
// at stack index @p idx: bits B to B + W - 1 counted from the offset, or
// from the first bit of member `at`; a key it does not take is an error
// (issue 27 item 9: `at` was ignored, the offset 0 read). Returns the size
// it gives (or @p size).
static uint64_t
table_loc(struct irs_cc *c, const struct ltype *owner, int idx, uint32_t line,
	  const char *qual, uint64_t size, struct lloc *loc,
	  struct irs_field_info *info, const char **path_ret)
{
	lua_State *L = c->L;
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		const char *k = lua_type(L, -1) == LUA_TSTRING
			? lua_tostring(L, -1) : "";
		char pat[64];
		snprintf(pat, sizeof(pat), " %s ", k);
		if (!*k || !strstr(" offset at size bit width signed ", pat))
			irs_lua_raisef(L, line, "%s: a location { ... } has no "
				       "key '%s' (it takes offset or at, size, "
				       "bit, width, signed)", qual,
				       *k ? k : "[...]");
	}
	int64_t off = 0, v = 0, width;
	uint64_t base = 0, avail = UINT64_MAX;	// in bits
	const char *at = irs_cc_str(c, idx, "at", line, qual);
	bool has_off = irs_cc_int(c, idx, "offset", line, qual, &off);
	if (at && has_off)
		irs_lua_raisef(L, line, "%s: a location has at = \"path\" or "
			       "offset = N, not both", qual);
	if (off < 0 || off > UINT32_MAX)
		irs_lua_raisef(L, line, "%s: bad offset %lld", qual,
			       (long long)off);
	struct irs_field_info m;
	if (at) {
		if (!owner)
			irs_lua_raisef(L, line, "%s: an element has no field "
				       "path; its location is offset 0", qual);
		irs_cc_lookup(c, owner, at, line, qual, &m);
		base = m.offset * 8 + m.bit_offset;
		avail = m.bit_size ? m.bit_size : m.size * 8;
		size = m.size;
		if (path_ret)
			*path_ret = irs_cc_strdup(c, at);
	} else {
		base = (uint64_t)off * 8;
	}
	if (irs_cc_int(c, idx, "size", line, qual, &v))
		size = (uint64_t)v;
	bool has_bit = irs_cc_int(c, idx, "bit", line, qual, &v);
	if (irs_cc_int(c, idx, "width", line, qual, &width)) {
		if (width < 1 || width > 56 || (has_bit && v < 0))
			irs_lua_raisef(L, line, "%s: bad bitfield width %lld "
				       "(1 to 56; a field of no bits has no value: "
				       "leave it out, and write 0 where the text "
				       "needs it, {=0})", qual, (long long)width);
		uint64_t b = has_bit ? (uint64_t)v : 0;
		if (b + (uint64_t)width > avail)
			irs_lua_raisef(L, line, "%s: bits %llu..%llu are not "
				       "inside '%s' (%llu bits)", qual,
				       (unsigned long long)b,
				       (unsigned long long)(b + width - 1), at,
				       (unsigned long long)avail);
		base += b;
		loc->bit_size = (uint8_t)width;
		loc->bit_off = (uint8_t)(base % 8);
	} else if (has_bit) {
		irs_lua_raisef(L, line, "%s: bit = B needs width = W", qual);
	} else if (at) {
		// the member as it is, a bitfield included
		*info = m;
		loc->bit_size = (uint8_t)m.bit_size;
		loc->bit_off = (uint8_t)(base % 8);
	}
	if (base / 8 > UINT32_MAX)
		irs_lua_raisef(L, line, "%s: offset too large", qual);
	loc->offset = (uint32_t)(base / 8);
	loc->is_signed = irs_cc_bool(c, idx, "signed", false);
	return size;
}

/*
 * Resolves the location at stack index @p idx (a path, an offset, a table
 * { offset, size, bit, width, signed }, or nil for an element) inside
 * @p owner (NULL for an element). @p def_size is the width when neither
 * debug info nor the table gives one. info->kind stays IRS_TYPE_OTHER when
 * the location is explicit.
 */
void
irs_cc_loc(struct irs_cc *c, const struct ltype *owner, int idx, uint32_t line,
	   const char *qual, uint32_t def_size, struct lloc *loc,
	   struct irs_field_info *info, const char **path_ret)
{
	lua_State *L = c->L;
	idx = lua_absindex(L, idx);
	memset(loc, 0, sizeof(*loc));
	memset(info, 0, sizeof(*info));
	if (path_ret)
		*path_ret = NULL;
	uint64_t size = def_size;
	int t = lua_type(L, idx);
	if (t == LUA_TNIL || t == LUA_TNONE) {
		if (owner)
			irs_lua_raisef(L, line, "%s: missing location (a field "
				       "path or { offset = N })", qual);
	} else if (t == LUA_TSTRING) {
		if (!owner)
			irs_lua_raisef(L, line, "%s: an element has no field "
				       "path; its location is offset 0", qual);
		const char *path = lua_tostring(L, idx);
		irs_cc_lookup(c, owner, path, line, qual, info);
		if (path_ret)
			*path_ret = irs_cc_strdup(c, path);
		loc->offset = (uint32_t)info->offset;
		size = info->size;
		if (info->bit_size) {
			if (info->bit_size > 56 || info->bit_offset > 4096)
				irs_lua_raisef(L, line, "%s: bitfield of %u "
					       "bits at bit %u is too wide",
					       qual, info->bit_size,
					       info->bit_offset);
			loc->offset += info->bit_offset / 8;
			loc->bit_off = (uint8_t)(info->bit_offset % 8);
			loc->bit_size = (uint8_t)info->bit_size;
		}
		loc->is_signed = info->kind == IRS_TYPE_INT ||
				 info->kind == IRS_TYPE_ENUM;
		if (info->offset > UINT32_MAX)
			irs_lua_raisef(L, line, "%s: offset %llu is too large",
				       qual,
				       (unsigned long long)info->offset);
	} else if (lua_isinteger(L, idx)) {
		lua_Integer off = lua_tointeger(L, idx);
		if (off < 0 || off > UINT32_MAX)
			irs_lua_raisef(L, line, "%s: bad offset %lld", qual,
				       (long long)off);
		loc->offset = (uint32_t)off;
	} else if (t == LUA_TTABLE && irs_fields_is_descriptor(L, idx)) {
		descriptor_loc(c, owner, idx, line, qual, loc, info, path_ret);
		return;		// checked as the field it is
	} else if (t == LUA_TTABLE) {
		size = table_loc(c, owner, idx, line, qual, size, loc, info,
				 path_ret);
	} else {
		irs_lua_raisef(L, line, "%s: expected a field path or an "
			       "offset, got %s", qual, luaL_typename(L, idx));
	}
	if (size > 255)
		size = 0;	// not a scalar; the caller checks what it needs
	loc->size = (uint8_t)size;
	normalize_bits(loc);
	if (owner && loc->offset + (uint64_t)loc->size > owner->size)
		irs_lua_raisef(L, line, "%s: bytes %u..%u are past the end of "
			       "%s (%u bytes)", qual, loc->offset,
			       loc->offset + loc->size, owner->name,
			       owner->size);
}

// A scalar location must be 1, 2, 4 or 8 bytes.
void
irs_cc_width(struct irs_cc *c, const struct lloc *loc, uint32_t line,
	     const char *qual)
{
	if (loc->bit_size)
		return;
	if (loc->size != 1 && loc->size != 2 && loc->size != 4 &&
	    loc->size != 8)
		irs_lua_raisef(c->L, line, "%s: a value of %u bytes cannot be "
			       "read as a scalar (1, 2, 4 or 8)", qual,
			       loc->size);
}

// Raises when debug info says the field is of kind @p kind and that is
// not one of @p ok (a bit mask of enum irs_type_kind).
void
irs_cc_kind(struct irs_cc *c, const struct irs_field_info *info, unsigned ok,
	    uint32_t line, const char *qual, const char *ctor,
	    const char *wants)
{
	if (info->kind == IRS_TYPE_OTHER || (ok & (1u << info->kind)))
		return;
	irs_lua_raisef(c->L, line, "%s: %s needs %s, but debug info says "
		       "'%s' is %s", qual, ctor, wants,
		       info->type_name[0] ? info->type_name : "?",
		       kind_name(info->kind));
}

const struct ltype *
irs_cc_type(struct irs_cc *c, const char *name, uint32_t line,
	    const char *qual)
{
	const struct ltype *t = irs_layout_find_type(c->lo, name);
	if (!t)
		irs_lua_raisef(c->L, line, "%s: type '%s' is not declared in "
			       "the layout (add struct \"%s\" { ... })", qual,
			       name, name);
	return t;
}

/* }====================================================== */

/* {====================================================== links */

// Union case names and `by` names resolve against the tag's enum.
static int64_t
case_value(struct irs_cc *c, const struct lfield *tag, const char *key,
	   uint32_t line, const char *qual)
{
	int64_t v;
	if (tag->kind == LK_GLOBAL)
		tag = tag->glob->value;
	if (tag->kind == LK_ENUM && irs_lenum_value(tag->en, key, &v))
		return v;
	char *end;
	long long n = strtoll(key, &end, 0);
	if (*key && !*end)
		return n;
	irs_lua_raisef(c->L, line, "%s: '%s' is not a name of enum field "
		       "'%s'", qual, key, tag->name);
}

// A union's tag or a text's `by`: an integer or enum field of @p owner,
// or a global naming one.
static const struct lfield *
tag_field(struct irs_cc *c, const struct ltype *owner, const char *name,
	  uint32_t line, const char *qual)
{
	const struct lfield *tag = irs_ltype_field(owner, name);
	if (!tag)
		irs_lua_raisef(c->L, line, "%s: tag '%s' is not a field of %s",
			       qual, name, owner->name);
	const struct lfield *v = tag->kind == LK_GLOBAL ? tag->glob->value
		: tag;
	if (v->kind != LK_ENUM && v->kind != LK_INT &&
	    v->kind != LK_UINT && v->kind != LK_BOOL)
		irs_lua_raisef(c->L, line, "%s: tag '%s' must be an enum or "
			       "integer field (or a global of one)", qual,
			       name);
	return tag;
}

// The field @p name of @p t that is @p want (an integer, a sequence of
// integers or of structs), for delta field @p f.
static const struct lfield *
delta_part(struct irs_cc *c, const struct ltype *t, const char *name,
	   const char *key, char want, const struct lfield *f,
	   const char *qual)
{
	const struct lfield *p = irs_ltype_field(t, name);
	bool integer = p && (p->kind == LK_INT || p->kind == LK_UINT ||
			     p->kind == LK_ENUM || p->kind == LK_BOOL);
	const struct lfield *e = p && p->kind == LK_SEQ &&
		p->seq->kind != SEQ_ZIP ? p->seq->elem : NULL;
	bool ok = want == 'i' ? integer
		: want == 's' ? e && (e->kind == LK_INT || e->kind == LK_UINT)
		: e && e->kind == LK_EMBED;
	if (!ok)
		irs_lua_raisef(c->L, f->line, "%s: delta %s '%s' is not %s of "
			       "%s", qual, key, name, want == 'i'
			       ? "an integer field" : want == 's'
			       ? "a sequence of integers"
			       : "a sequence of structs", t->name);
	return p;
}

// delta { of = "T.s", base = "b", absolute = "a", at = "pc",
// value = "line" }: every name is a field of T (or of a's elements).
static void
link_delta(struct irs_cc *c, struct lfield *f, const char *qual)
{
	struct ldelta *d = f->delta;
	const char *seq = d->names[0];
	const char *dot = strrchr(seq, '.');
	char tname[256];
	snprintf(tname, sizeof(tname), "%.*s", (int)(dot - seq), seq);
	const struct ltype *t = irs_cc_type(c, tname, f->line, qual);
	d->owner = t->index;
	d->deltas = delta_part(c, t, dot + 1, "of", 's', f, qual);
	d->base = delta_part(c, t, d->names[1], "base", 'i', f, qual);
	if (!d->names[2])
		return;
	d->abs = delta_part(c, t, d->names[2], "absolute", 'a', f, qual);
	const struct ltype *at = &c->lo->types[d->abs->seq->elem->type];
	d->abs_at = delta_part(c, at, d->names[3], "at", 'i', f, qual);
	d->abs_value = delta_part(c, at, d->names[4], "value", 'i', f, qual);
}

static void
link_field(struct irs_cc *c, const struct ltype *owner, struct lfield *f)
{
	char qual[300];
	snprintf(qual, sizeof(qual), "%s.%s", owner->name, f->name);
	if (f->kind == LK_UNION) {
		struct lunion *u = f->un;
		u->tag = tag_field(c, owner, f->link_name, f->line, qual);
		for (uint32_t i = 0; i < u->ncases; i++) {
			if (u->keys[i])
				u->values[i] = case_value(c, u->tag,
							  u->keys[i], f->line,
							  qual);
			link_field(c, owner, u->cases[i]);
		}
		// order cases by value, so `show` is stable
		for (uint32_t i = 1; i < u->ncases; i++)
			for (uint32_t j = i; j > 0 &&
			     u->values[j - 1] > u->values[j]; j--) {
				int64_t v = u->values[j];
				u->values[j] = u->values[j - 1];
				u->values[j - 1] = v;
				struct lfield *cf = u->cases[j];
				u->cases[j] = u->cases[j - 1];
				u->cases[j - 1] = cf;
			}
		if (u->deflt)
			link_field(c, owner, u->deflt);
	} else if (f->kind == LK_INDEX) {
		const char *dot = strrchr(f->link_name, '.');
		char tname[256];
		snprintf(tname, sizeof(tname), "%.*s",
			 (int)(dot - f->link_name), f->link_name);
		const struct ltype *t = irs_cc_type(c, tname, f->line, qual);
		const struct lfield *s = irs_ltype_field(t, dot + 1);
		if (!s || s->kind != LK_SEQ || s->seq->kind == SEQ_ZIP ||
		    s->seq->kind == SEQ_DERIVED)
			irs_lua_raisef(c->L, f->line, "%s: index target '%s' "
				       "is not a sequence field of %s%s", qual,
				       dot + 1, t->name, s && s->kind == LK_SEQ
				       ? " (a zip's tuples and a select's "
				       "results lie nowhere)" : "");
		f->index_type = t->index;
		f->index_seq = s;
	} else if (f->kind == LK_DELTA) {
		link_delta(c, f, qual);
	} else if (f->kind == LK_SHAPE) {
		irs_link_shape(c, owner, qual, f);
	} else if (f->kind == LK_SEQ && f->seq->kind == SEQ_DERIVED) {
		irs_link_derived(c, owner, qual, f->seq);
	} else if (f->kind == LK_SEQ && (f->seq->kind == SEQ_ZIP ||
					 f->seq->length_name ||
					 f->seq->present_src)) {
		irs_link_zip(c, owner, qual, f);
	}
}

/* }====================================================== */

/* {====================================================== types */

struct field_order {
	const char *name;
	int64_t seq;
};

static int
cmp_order(const void *a, const void *b)
{
	const struct field_order *x = a, *y = b;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return strcmp(x->name, y->name);
}

// Pass 1: names and sizes of every struct.
// The zip fields of the @p n structs in @p structs (direct fields only:
// resolve.c refuses the others), at most IRS_LAYOUT_MAX_ZIPS.
static uint32_t
count_zips(struct irs_cc *c, int structs, uint32_t n)
{
	lua_State *L = c->L;
	uint32_t nz = 0;
	for (uint32_t i = 1; i <= n; i++) {
		lua_rawgeti(L, structs, i);
		if (lua_type(L, -1) == LUA_TTABLE &&
		    lua_getfield(L, -1, "spec") == LUA_TTABLE &&
		    lua_getfield(L, -1, "fields") == LUA_TTABLE) {
			lua_pushnil(L);
			while (lua_next(L, -2)) {
				if (irs_fields_is_descriptor(L, -1)) {
					lua_getfield(L, -1, "kind");
					const char *k = lua_tostring(L, -1);
					nz += k && !strcmp(k, "zip");
					lua_pop(L, 1);
				}
				lua_pop(L, 1);
			}
		}
		lua_settop(L, structs);
	}
	return nz < IRS_LAYOUT_MAX_ZIPS ? nz : IRS_LAYOUT_MAX_ZIPS;
}

static void
compile_types(struct irs_cc *c, int decls)
{
	lua_State *L = c->L;
	struct irs_layout *lo = c->lo;
	lua_getfield(L, decls, "structs");
	uint32_t n = (uint32_t)lua_rawlen(L, -1);
	// a zip field's tuples are a type of their own, made as it compiles
	c->ntypes_cap = n + count_zips(c, lua_gettop(L), n);
	lo->types = irs_cc_alloc(c, (c->ntypes_cap + 1) * sizeof(*lo->types));
	for (uint32_t i = 0; i < n; i++) {
		lua_rawgeti(L, -1, i + 1);
		int e = lua_gettop(L);
		struct ltype *t = &lo->types[i];
		uint32_t line = irs_cc_line(c, e);
		t->name = irs_cc_strdup(c, irs_cc_str(c, e, "name", line,
						      "struct"));
		t->json_name = irs_cc_json(c, t->name, false);
		t->index = i;
		t->line = line;
		if (lua_getfield(L, e, "spec") != LUA_TTABLE)
			irs_lua_raisef(L, line, "struct \"%s\" has no body "
				       "(write struct \"%s\" { fields = ... })",
				       t->name, t->name);
		int spec = lua_gettop(L);
		const char *ctype = irs_cc_str(c, spec, "ctype", line, t->name);
		t->ctype = ctype ? irs_cc_strdup(c, ctype) : t->name;
		t->node = irs_cc_bool(c, spec, "node", true);
		int64_t size;
		if (irs_cc_int(c, spec, "size", line, t->name, &size)) {
			if (size <= 0 || size > (1 << 30))
				irs_lua_raisef(L, line, "struct %s: bad size "
					       "%lld", t->name,
					       (long long)size);
			t->size = (uint32_t)size;
			t->size_explicit = true;
		} else {
			uint64_t sz = 0;
			if (!c->t || !c->t->type_size)
				irs_lua_raisef(L, line, "struct %s: no debug "
					       "info to size it (give size = "
					       "N and explicit offsets)",
					       t->name);
			struct irs_error *err = c->t->type_size(c->t->arg,
								t->ctype, &sz);
			if (err) {
				char msg[400];
				snprintf(msg, sizeof(msg), "%s", err->message);
				irs_error_destroy(err);
				irs_lua_raisef(L, line, "struct %s: unknown "
					       "type '%s' in debug info (%s)",
					       t->name, t->ctype, msg);
			}
			if (sz == 0 || sz > (1u << 30))
				irs_lua_raisef(L, line, "struct %s: debug info "
					       "gives a size of %llu bytes",
					       t->name, (unsigned long long)sz);
			t->size = (uint32_t)sz;
		}
		lo->ntypes = i + 1;
		lua_pop(L, 2);
	}
	lua_pop(L, 1);
}

// struct "T" { parent = ptr(P, U) }: the pointer a walk rooted at a T
// follows to the U enclosing it (a function's module).
static void
compile_parent(struct irs_cc *c, struct ltype *t, int spec)
{
	lua_State *L = c->L;
	if (lua_getfield(L, spec, "parent") == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	struct lfield *f = irs_cc_alloc(c, sizeof(*f));
	const char *qual = irs_cc_printf(c, "%s.parent", t->name);
	irs_cc_field(c, t, "parent", qual, lua_gettop(L), f);
	if (f->kind != LK_PTR && f->kind != LK_REF)
		irs_lua_raisef(L, f->line, "%s: a pointer to the struct "
			       "enclosing a %s, ptr(P, T) or ref(P, T), not "
			       "%s", qual, t->name,
			       f->ctor ? f->ctor : "another field");
	t->parent = f;
	lua_pop(L, 1);
}

// Pass 2: the fields of type @p t, in declaration order.
static void
compile_fields(struct irs_cc *c, struct ltype *t, int spec)
{
	lua_State *L = c->L;
	compile_parent(c, t, spec);
	if (lua_getfield(L, spec, "fields") != LUA_TTABLE) {
		lua_pop(L, 1);
		return;
	}
	int fields = lua_gettop(L);
	uint32_t n = 0;
	lua_pushnil(L);
	while (lua_next(L, fields)) {
		n++;
		lua_pop(L, 1);
	}
	struct field_order *order = irs_cc_alloc(c, (n + 1) * sizeof(*order));
	uint32_t i = 0;
	lua_pushnil(L);
	while (lua_next(L, fields)) {
		order[i].name = irs_cc_strdup(c, lua_tostring(L, -2));
		if (irs_fields_is_global(L, -1))	// its data is hidden
			irs_fields_push_global(L, -1);
		else
			lua_pushvalue(L, -1);
		irs_cc_int(c, lua_gettop(L), "seq", 0, "field", &order[i].seq);
		lua_pop(L, 1);
		i++;
		lua_pop(L, 1);
	}
	qsort(order, n, sizeof(*order), cmp_order);
	t->fields = irs_cc_alloc(c, (n + 1) * sizeof(*t->fields));
	for (i = 0; i < n; i++) {
		lua_getfield(L, fields, order[i].name);
		irs_cc_field(c, t, order[i].name,
			     irs_cc_printf(c, "%s.%s", t->name, order[i].name),
			     lua_gettop(L), &t->fields[i]);
		t->nfields = i + 1;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

static const struct ltemplate *
compile_template(struct irs_cc *c, struct ltype *t, const char *src,
		 const char *what)
{
	const struct ltemplate *tpl;
	struct irs_error *err = irs_template_compile(c->lo, t, src,
						     !strcmp(what, "ref"),
						     &tpl);
	if (err) {
		if (err->code == IRS_ERROR_NOMEM)
			irs_lua_raise(c->L, err);
		char msg[600];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		// a template may be long: quote its start
		size_t n = strlen(src);
		irs_lua_raisef(c->L, t->line, "struct %s: %s \"%.*s%s\": %s",
			       t->name, what, (int)(n > 80 ? 80 : n), src,
			       n > 80 ? "..." : "", msg);
	}
	return tpl;
}

// text = "..." | { by = F, NAME = "...", default = "..." } | function
static void
compile_text(struct irs_cc *c, struct ltype *t, int spec, const char *key,
	     struct ltext *tx)
{
	lua_State *L = c->L;
	int ty = lua_getfield(L, spec, key);
	tx->fn = LUA_NOREF;
	if (ty == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	if (ty == LUA_TSTRING) {
		tx->kind = TX_TEMPLATE;
		tx->tpl = compile_template(c, t, lua_tostring(L, -1), key);
		lua_pop(L, 1);
		return;
	}
	if (ty == LUA_TTABLE && irs_fields_unwrap_pure(L, -1)) {
		ty = LUA_TFUNCTION;
		tx->pure = true;
	}
	if (ty == LUA_TFUNCTION) {
		tx->kind = TX_LUA;
		tx->fn = luaL_ref(L, LUA_REGISTRYINDEX);
		if (!tx->pure)
			c->lo->walk_lua = true;
		return;
	}
	if (ty != LUA_TTABLE)
		irs_lua_raisef(L, t->line, "struct %s: %s must be a template "
			       "string, a function or { by = F, ... }",
			       t->name, key);
	int tbl = lua_gettop(L);
	char qual[200];
	snprintf(qual, sizeof(qual), "struct %s: %s", t->name, key);
	const char *by = irs_cc_str(c, tbl, "by", t->line, qual);
	if (!by)
		irs_lua_raisef(L, t->line, "%s: a table needs by = \"field\"",
			       qual);
	tx->kind = TX_BY;
	tx->by = tag_field(c, t, by, t->line, qual);
	uint32_t n = 0;
	lua_pushnil(L);
	while (lua_next(L, tbl)) {
		n++;
		lua_pop(L, 1);
	}
	tx->values = irs_cc_alloc(c, (n + 1) * sizeof(int64_t));
	tx->cases = irs_cc_alloc(c, (n + 1) * sizeof(*tx->cases));
	lua_pushnil(L);
	while (lua_next(L, tbl)) {
		char k[128];
		if (lua_type(L, -2) == LUA_TSTRING)
			snprintf(k, sizeof(k), "%s", lua_tostring(L, -2));
		else if (lua_isinteger(L, -2))
			snprintf(k, sizeof(k), "%lld",
				 (long long)lua_tointeger(L, -2));
		else
			irs_lua_raisef(L, t->line, "%s: keys are names", qual);
		if (!strcmp(k, "by")) {
			lua_pop(L, 1);
			continue;
		}
		if (lua_type(L, -1) != LUA_TSTRING)
			irs_lua_raisef(L, t->line, "%s: case %s must be a "
				       "template string", qual, k);
		const struct ltemplate *tpl =
			compile_template(c, t, lua_tostring(L, -1), key);
		if (!strcmp(k, "default")) {
			tx->deflt = tpl;
		} else {
			tx->values[tx->ncases] = case_value(c, tx->by, k,
							    t->line, qual);
			tx->cases[tx->ncases++] = tpl;
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	// by value, so the order does not depend on Lua's hashing
	for (uint32_t i = 1; i < tx->ncases; i++)
		for (uint32_t j = i; j > 0 && tx->values[j - 1] > tx->values[j];
		     j--) {
			int64_t v = tx->values[j];
			tx->values[j] = tx->values[j - 1];
			tx->values[j - 1] = v;
			const struct ltemplate *tp = tx->cases[j];
			tx->cases[j] = tx->cases[j - 1];
			tx->cases[j - 1] = tp;
		}
}

/* }====================================================== */

/* {====================================================== the rest */

// A boundary's expressions are evaluated at every pass: they may only
// read the debuggee (the front ends evaluate them with calls disabled too).
static void
check_reads(struct irs_cc *c, const char *what, const char *expr,
	    uint32_t line)
{
	char why[160];
	if (expr && !irs_expr_reads_only(expr, why, sizeof(why)))
		irs_lua_raisef(c->L, line, "boundary: %s expression '%s' %s; "
			       "a layout's expressions only read the "
			       "debuggee", what, expr, why);
}

// ir = "m", or ir = { "fn", "f" }: the names one of which each pass
// function calls its IR parameter (the console takes the first it has).
static void
boundary_ir(struct irs_cc *c, int b, uint32_t line,
	    struct irs_boundary_info *bi)
{
	lua_State *L = c->L;
	if (lua_getfield(L, b, "ir") != LUA_TTABLE) {
		lua_pop(L, 1);
		bi->ir_expr = irs_cc_strdup(c, irs_cc_str(c, b, "ir", line,
							  "boundary"));
		check_reads(c, "ir", bi->ir_expr, line);
		bi->ir_exprs[0] = bi->ir_expr;
		bi->nir = bi->ir_expr ? 1 : 0;
		return;
	}
	int t = lua_gettop(L);
	lua_Unsigned n = lua_rawlen(L, t);
	if (n == 0 || n > IRS_BOUNDARY_MAX_IR)
		irs_lua_raisef(L, line, "boundary: ir = { \"fn\", \"f\" } "
			       "lists 1 to %d parameter names",
			       IRS_BOUNDARY_MAX_IR);
	for (lua_Unsigned i = 1; i <= n; i++) {
		if (lua_rawgeti(L, t, (lua_Integer)i) != LUA_TSTRING)
			irs_lua_raisef(L, line, "boundary: ir[%u] must be a "
				       "string (a parameter name or an "
				       "expression)", (unsigned)i);
		const char *e = irs_cc_strdup(c, lua_tostring(L, -1));
		lua_pop(L, 1);
		check_reads(c, "ir", e, line);
		bi->ir_exprs[bi->nir++] = e;
	}
	bi->ir_expr = bi->ir_exprs[0];
	lua_pop(L, 1);
}

// pass = EXPR (a C string), or pass = { data = EXPR, len = EXPR }
static void
boundary_pass(struct irs_cc *c, int b, uint32_t line,
	      struct irs_boundary_info *bi)
{
	lua_State *L = c->L;
	if (lua_getfield(L, b, "pass") == LUA_TTABLE) {
		int p = lua_gettop(L);
		bi->pass_expr = irs_cc_strdup(c, irs_cc_str(c, p, "data", line,
							    "boundary"));
		bi->pass_len_expr = irs_cc_strdup(c, irs_cc_str(c, p, "len",
								line,
								"boundary"));
		check_reads(c, "pass", bi->pass_len_expr, line);
	} else if (lua_isstring(L, -1)) {
		bi->pass_expr = irs_cc_strdup(c, lua_tostring(L, -1));
	}
	lua_pop(L, 1);
	check_reads(c, "pass", bi->pass_expr, line);
	// rerun_pass = { data = E, len = L, anchor = { data, len }, top = S }
	if (lua_getfield(L, b, "rerun_pass") == LUA_TTABLE) {
		int p = lua_gettop(L);
		irs_cc_keys(c, p, " data len anchor top ", line, "boundary",
			    "rerun_pass");
		bi->rerun_pass_expr = irs_cc_strdup(c, irs_cc_str(c, p, "data",
							line, "rerun_pass"));
		bi->rerun_pass_len_expr = irs_cc_strdup(c, irs_cc_str(c, p,
							"len", line, "rerun_pass"));
		bi->rerun_top = irs_cc_strdup(c, irs_cc_str(c, p, "top", line,
							    "rerun_pass"));
		if (lua_getfield(L, p, "anchor") == LUA_TTABLE) {
			int a = lua_gettop(L);
			bi->rerun_anchor_expr = irs_cc_strdup(c, irs_cc_str(c,
						a, "data", line, "anchor"));
			bi->rerun_anchor_len_expr = irs_cc_strdup(c,
				irs_cc_str(c, a, "len", line, "anchor"));
		}
		lua_pop(L, 1);
		if (!bi->rerun_pass_expr || !bi->rerun_pass_len_expr)
			irs_lua_raisef(L, line, "boundary: rerun_pass needs "
				       "data and len");
		if (!bi->rerun_anchor_expr != !bi->rerun_anchor_len_expr)
			irs_lua_raisef(L, line, "boundary: rerun_pass's anchor "
				       "needs data and len");
		check_reads(c, "rerun_pass", bi->rerun_pass_expr, line);
		check_reads(c, "rerun_pass", bi->rerun_pass_len_expr, line);
		check_reads(c, "rerun_pass", bi->rerun_anchor_expr, line);
		check_reads(c, "rerun_pass", bi->rerun_anchor_len_expr, line);
	} else if (!lua_isnil(L, -1)) {
		irs_lua_raisef(L, line, "boundary: rerun_pass is a table "
			       "{ data = E, len = L, anchor = {...}, top = S }");
	}
	lua_pop(L, 1);
}

// functions = { match = RE }: RE must compile here, not at the first run.
static void
boundary_match(struct irs_cc *c, const char *re, uint32_t line)
{
	regex_t rx;
	int rc = regcomp(&rx, re, REG_EXTENDED);
	if (rc) {
		char why[160];
		regerror(rc, &rx, why, sizeof(why));
		irs_lua_raisef(c->L, line, "boundary: functions = { match = "
			       "\"%s\" }: %s", re, why);
	}
	regfree(&rx);
}

// check = { PATH = VALUE, ... }: what makes an address a plausible IR
// root (a core's search for one): each member PATH of the root's C type
// holds VALUE, an integer or an enumerator of its enum type.
static void
boundary_check(struct irs_cc *c, int b, uint32_t line, const struct ltype *t,
	       struct lbcheck *ret)
{
	lua_State *L = c->L;
	if (lua_getfield(L, b, "check") != LUA_TTABLE) {
		lua_pop(L, 1);
		return;
	}
	int tab = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, tab)) {
		if (ret->n == ARRAY_SIZE(ret->items))
			irs_lua_raisef(L, line, "boundary: check holds at most "
				       "%zu members", ARRAY_SIZE(ret->items));
		if (lua_type(L, -2) != LUA_TSTRING)
			irs_lua_raisef(L, line, "boundary: check = { PATH = "
				       "VALUE }: a key is not a member path");
		const char *path = lua_tostring(L, -2);
		struct lbcheck_item *it = &ret->items[ret->n++];
		struct irs_error *err = c->t && c->t->field ?
			c->t->field(c->t->arg, t->ctype, path, &it->fi) :
			irs_error_format(IRS_ERROR_TARGET, "no debug info");
		if (err) {
			char msg[300];
			snprintf(msg, sizeof(msg), "%s", err->message);
			irs_error_destroy(err);
			irs_lua_raisef(L, line, "boundary: check '%s' of %s: "
				       "%s", path, t->ctype, msg);
		}
		if (lua_isinteger(L, -1)) {
			it->value = lua_tointeger(L, -1);
		} else if (lua_type(L, -1) == LUA_TSTRING) {
			const char *want = lua_tostring(L, -1);
			// "llvm::Value::ValueTy::FunctionVal": an enumerator
			// of that enum, for a member that is a plain integer
			char etype[256];
			snprintf(etype, sizeof(etype), "%s", it->fi.type_name);
			const char *sep = strrchr(want, ':');
			if (sep && sep - want >= 2 && sep[-1] == ':') {
				snprintf(etype, sizeof(etype), "%.*s",
					 (int)(sep - 1 - want), want);
				want = sep + 1;
			}
			bool found = false;
			for (uint32_t i = 0; !found && c->t->enumerator &&
			     i < 100000; i++) {
				char name[128];
				int64_t v;
				err = c->t->enumerator(c->t->arg, etype, i,
						       name, sizeof(name), &v);
				if (err) {
					irs_error_destroy(err);
					break;
				}
				if (!strcmp(name, want) ||
				    (strlen(name) > strlen(want) &&
				     !strcmp(name + strlen(name) -
					     strlen(want), want) &&
				     name[strlen(name) - strlen(want) - 1] ==
				     ':')) {
					it->value = v;
					found = true;
				}
			}
			if (!found)
				irs_lua_raisef(L, line, "boundary: check '%s': "
					       "no enumerator '%s' in %s",
					       path, want, etype);
		} else {
			irs_lua_raisef(L, line, "boundary: check '%s': the "
				       "value must be an integer or an "
				       "enumerator's name", path);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

static void
compile_boundaries(struct irs_cc *c, int decls)
{
	lua_State *L = c->L;
	struct irs_layout *lo = c->lo;
	lua_getfield(L, decls, "boundaries");
	int list = lua_gettop(L);
	uint32_t n = (uint32_t)lua_rawlen(L, list), total = 0;
	for (uint32_t i = 1; i <= n; i++) {
		lua_rawgeti(L, list, i);
		if (lua_getfield(L, -1, "functions") == LUA_TTABLE) {
			total += (uint32_t)lua_rawlen(L, -1);
			lua_getfield(L, -1, "match");
			total += !lua_isnil(L, -1);
			lua_pop(L, 1);
		} else {
			total++;
		}
		lua_pop(L, 2);
	}
	lo->bchecks = irs_cc_alloc(c, (total + 1) * sizeof(*lo->bchecks));
	lo->boundaries = irs_cc_alloc(c, (total + 1) * sizeof(*lo->boundaries));
	for (uint32_t i = 1; i <= n; i++) {
		lua_rawgeti(L, list, i);
		int b = lua_gettop(L);
		uint32_t line = irs_cc_line(c, b);
		const char *type = irs_cc_str(c, b, "type", line, "boundary");
		if (type)
			irs_cc_type(c, type, line, "boundary");
		struct irs_boundary_info proto = {
			.instance_expr = irs_cc_str(c, b, "instance", line,
						    "boundary"),
			.ir_type = irs_cc_strdup(c, type ? type : lo->root),
		};
		boundary_pass(c, b, line, &proto);
		lua_getfield(L, b, "sret");
		proto.sret = lua_toboolean(L, -1);
		lua_pop(L, 1);
		const char *after = irs_cc_str(c, b, "after", line, "boundary");
		proto.after_caller = after && !strcmp(after, "caller");
		struct lbcheck check = {0};
		boundary_check(c, b, line, irs_cc_type(c, proto.ir_type, line,
						       "boundary"), &check);
		boundary_ir(c, b, line, &proto);
		if (proto.instance_expr)
			proto.instance_expr = irs_cc_strdup(c,
							    proto.instance_expr);
		check_reads(c, "instance", proto.instance_expr, line);
		if (lua_getfield(L, b, "functions") == LUA_TTABLE) {
			uint32_t m = (uint32_t)lua_rawlen(L, -1);
			for (uint32_t j = 1; j <= m; j++) {
				lua_rawgeti(L, -1, j);
				const char *fn = lua_tostring(L, -1);
				lo->bchecks[lo->nboundaries] = check;
				struct irs_boundary_info *bi =
					&lo->boundaries[lo->nboundaries++];
				*bi = proto;
				bi->function = irs_cc_strdup(c, fn);
				if (!bi->pass_expr)
					bi->pass_name = bi->function;
				lua_pop(L, 1);
			}
			const char *re = irs_cc_str(c, -1, "match", line,
						    "boundary");
			if (re) {
				boundary_match(c, re, line);
				lo->bchecks[lo->nboundaries] = check;
				struct irs_boundary_info *bi =
					&lo->boundaries[lo->nboundaries++];
				*bi = proto;
				bi->match = irs_cc_strdup(c, re);
			}
		} else {
			lo->bchecks[lo->nboundaries] = check;
			struct irs_boundary_info *bi =
				&lo->boundaries[lo->nboundaries++];
			*bi = proto;
			const char *at = irs_cc_str(c, b, "at", line,
						    "boundary");
			bi->function = irs_cc_strdup(c, at);
		}
		lua_pop(L, 2);
	}
	lua_pop(L, 1);
}

// A verifier's offline form: the command that runs the same check on a
// file, and the regexes the reducer reads its output with, compiled here
// so that a typo is FILE:LINE at load, not a reducer that finds nothing.
static void
compile_verifier_rerun(struct irs_cc *c, int v, struct lverifier *lv)
{
	const char *keys[] = {"rerun", "problem", "broken"};
	const char **dst[] = {&lv->rerun, &lv->problem, &lv->broken};
	for (size_t k = 0; k < 3; k++) {
		const char *s = irs_cc_str(c, v, keys[k], lv->line,
					   "verifier");
		regex_t re;
		int rc = k && s ? regcomp(&re, s, REG_EXTENDED) : 0;
		if (k && s && !rc)
			regfree(&re);
		if (rc)
			irs_lua_raisef(c->L, lv->line, "verifier '%s': %s "
				       "'%s' is no extended regular "
				       "expression", lv->name, keys[k], s);
		// the rerun is reduce's rerun: words, run without a shell
		char why[200];
		if (!k && s && !irs_rerun_check(s, why, sizeof(why)))
			irs_lua_raisef(c->L, lv->line, "verifier '%s': "
				       "'rerun': %s", lv->name, why);
		*dst[k] = s ? irs_cc_strdup(c, s) : NULL;
	}
}

static void
compile_verifiers(struct irs_cc *c, int decls)
{
	lua_State *L = c->L;
	struct irs_layout *lo = c->lo;
	lua_getfield(L, decls, "verifiers");
	int list = lua_gettop(L);
	uint32_t n = (uint32_t)lua_rawlen(L, list);
	lo->verifiers = irs_cc_alloc(c, (n + 1) * sizeof(*lo->verifiers));
	for (uint32_t i = 1; i <= n; i++) {
		lua_rawgeti(L, list, i);
		int v = lua_gettop(L);
		struct lverifier *lv = &lo->verifiers[lo->nverifiers];
		lv->line = irs_cc_line(c, v);
		lv->name = irs_cc_strdup(c, irs_cc_str(c, v, "name", lv->line,
						       "verifier"));
		for (uint32_t j = 0; j < lo->nverifiers; j++)
			if (!strcmp(lo->verifiers[j].name, lv->name))
				irs_lua_raisef(L, lv->line, "verifier '%s' "
					       "declared twice", lv->name);
		const char *call = irs_cc_str(c, v, "call", lv->line,
					      "verifier");
		// The one way a layout calls into the debuggee, and only
		// under --verify or ir-verify: a call of a named function.
		if (call && !irs_expr_is_call(call))
			irs_lua_raisef(L, lv->line, "verifier '%s': call '%s' "
				       "must be FUNCTION(ARGS), each argument "
				       "{ir}, an integer, a string or a "
				       "variable name", lv->name, call);
		lv->call = call ? irs_cc_strdup(c, call) : NULL;
		irs_cc_int(c, v, "ok", lv->line, "verifier", &lv->ok);
		compile_verifier_rerun(c, v, lv);
		lv->fn = LUA_NOREF;
		if (lua_getfield(L, v, "check") == LUA_TFUNCTION)
			lv->fn = luaL_ref(L, LUA_REGISTRYINDEX);
		else
			lua_pop(L, 1);
		lo->nverifiers++;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

// Default units: node types whose text is rendered as elements of a
// sequence, outermost first, following the templates from the root.
static void
derive_units(struct irs_cc *c, const struct ltype *root)
{
	struct irs_layout *lo = c->lo;
	uint32_t *queue = irs_cc_alloc(c, (lo->ntypes + 1) * sizeof(uint32_t));
	bool *seen = irs_cc_alloc(c, lo->ntypes + 1);
	uint32_t head = 0, tail = 0;
	lo->units = irs_cc_alloc(c, (lo->ntypes + 1) * sizeof(char *));
	queue[tail++] = root->index;
	seen[root->index] = true;
	while (head < tail) {
		const struct ltype *t = &lo->types[queue[head++]];
		uint32_t ntpl = t->text.kind == TX_TEMPLATE ? 1
			: t->text.kind == TX_BY ? t->text.ncases : 0;
		for (uint32_t k = 0; k < ntpl; k++) {
			const struct ltemplate *tpl =
				t->text.kind == TX_TEMPLATE ? t->text.tpl
				: t->text.cases[k];
			for (uint32_t i = 0; i < tpl->nops; i++) {
				const struct top *op = &tpl->ops[i];
				if (op->code != TOP_FIELD &&
				    op->code != TOP_SEQ)
					continue;
				const struct lfield *f = op->path[0];
				if (op->npath != 1 || f->kind != LK_SEQ)
					continue;
				const struct lfield *e = f->seq->elem;
				if (e->kind != LK_EMBED && e->kind != LK_PTR)
					continue;
				const struct ltype *et = &lo->types[e->type];
				if (!et->node || seen[et->index])
					continue;
				seen[et->index] = true;
				queue[tail++] = et->index;
				lo->units[lo->nunits++] = et->name;
			}
		}
	}
}

// The syntax of the rendered text, for the reducer's text passes (it
// guesses them otherwise): comment = "#", label = "^@[a-z0-9_.]+$".
static void
compile_reduce_syntax(struct irs_cc *c, int r, uint32_t line)
{
	const char *comment = irs_cc_str(c, r, "comment", line, "reduce");
	if (comment && (!*comment || strlen(comment) > 7 ||
			strpbrk(comment, " \t\r\n")))
		irs_lua_raisef(c->L, line, "reduce: 'comment' must be a line "
			       "comment marker of 1 to 7 characters and no "
			       "blank, such as \"#\" or \"//\"");
	c->lo->reduce_comment = comment ? irs_cc_strdup(c, comment) : NULL;
	const char *label = irs_cc_str(c, r, "label", line, "reduce");
	if (!label)
		return;
	regex_t re;
	int rc = strlen(label) > 256 ? -1
		 : regcomp(&re, label, REG_EXTENDED | REG_NOSUB);
	if (rc)
		irs_lua_raisef(c->L, line, "reduce: 'label' must be a POSIX "
			       "extended regular expression of at most 256 "
			       "characters (a whole label line)");
	regfree(&re);
	c->lo->reduce_label = irs_cc_strdup(c, label);
}

static void
compile_cfg(struct irs_cc *c, int decls)
{
	lua_State *L = c->L;
	if (lua_getfield(L, decls, "cfg") == LUA_TTABLE) {
		int t = lua_gettop(L);
		uint32_t line = irs_cc_line(c, t);
		c->lo->cfg_func = irs_cc_type(c, irs_cc_str(c, t, "func", line,
							     "cfg"),
					      line, "cfg")->name;
		c->lo->cfg_block = irs_cc_type(c, irs_cc_str(c, t, "block",
							      line, "cfg"),
					       line, "cfg")->name;
	}
	lua_pop(L, 1);
}

static void
compile_reduce(struct irs_cc *c, int decls, const struct ltype *root)
{
	lua_State *L = c->L;
	struct irs_layout *lo = c->lo;
	if (lua_getfield(L, decls, "reduce") != LUA_TTABLE) {
		lua_pop(L, 1);
		derive_units(c, root);
		return;
	}
	int r = lua_gettop(L);
	uint32_t line = irs_cc_line(c, r);
	const char *defs = irs_cc_str(c, r, "defs", line, "reduce");
	if (defs)
		lo->defs = irs_cc_type(c, defs, line, "reduce")->name;
	const char *rerun = irs_cc_str(c, r, "rerun", line, "reduce");
	char why[200];
	if (rerun && !irs_rerun_check(rerun, why, sizeof(why)))
		irs_lua_raisef(L, line, "reduce: 'rerun': %s", why);
	lo->rerun = rerun ? irs_cc_strdup(c, rerun) : NULL;
	const char *input = irs_cc_str(c, r, "input", line, "reduce");
	lo->reduce_program = input && !strcmp(input, "program");
	if (input && strcmp(input, "program") && strcmp(input, "snapshot")) {
		const struct lfield *f = root ? irs_ltype_field(root, input)
					      : NULL;
		if (!f || (f->kind != LK_PTR && f->kind != LK_REF))
			irs_lua_raisef(L, line, "reduce: 'input' '%s' is no "
				       "ptr or ref field of the root type %s",
				       input, root ? root->name : "(none)");
		lo->reduce_field = irs_cc_strdup(c, input);
	}
	compile_reduce_syntax(c, r, line);
	if (lua_getfield(L, r, "pass_names") == LUA_TTABLE) {
		uint32_t n = 0;
		for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
			n++;
		lo->pass_names = irs_cc_alloc(c, (2 * n + 1) *
					      sizeof(char *));
		for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
			lo->pass_names[2 * lo->npass_names] =
				irs_cc_strdup(c, lua_tostring(L, -2));
			lo->pass_names[2 * lo->npass_names++ + 1] =
				irs_cc_strdup(c, lua_tostring(L, -1));
		}
	}
	lua_pop(L, 1);
	if (lua_getfield(L, r, "units") == LUA_TTABLE) {
		uint32_t n = (uint32_t)lua_rawlen(L, -1);
		lo->units = irs_cc_alloc(c, (n + 1) * sizeof(char *));
		for (uint32_t i = 1; i <= n; i++) {
			lua_rawgeti(L, -1, i);
			lo->units[lo->nunits++] =
				irs_cc_type(c, lua_tostring(L, -1), line,
					    "reduce")->name;
			lua_pop(L, 1);
		}
	} else {
		derive_units(c, root);
	}
	lua_pop(L, 2);
}

// Default defs: the first type that a `ref` field points at.
static void
derive_defs(struct irs_layout *lo)
{
	for (uint32_t i = 0; i < lo->ntypes && !lo->defs; i++)
		for (uint32_t j = 0; j < lo->types[i].nfields; j++) {
			const struct lfield *f = &lo->types[i].fields[j];
			if (f->kind == LK_UNION)
				for (uint32_t k = 0; k < f->un->ncases; k++)
					if (f->un->cases[k]->kind == LK_REF) {
						f = f->un->cases[k];
						break;
					}
			if (f->kind == LK_SEQ)
				f = f->seq->elem;
			if (f->kind == LK_REF) {
				lo->defs = lo->types[f->type].name;
				break;
			}
		}
}

/* }====================================================== */

static bool field_owns(const struct irs_layout *lo, const struct lfield *f);

static bool
type_owns(const struct irs_layout *lo, uint32_t t)
{
	return lo->types[t].node || lo->types[t].owns;
}

// Whether walking @p f may visit nodes (owned through it).
static bool
field_owns(const struct irs_layout *lo, const struct lfield *f)
{
	switch (f->kind) {
	case LK_PTR:
	case LK_EMBED:
		return type_owns(lo, f->type);
	case LK_SEQ:
		return field_owns(lo, f->seq->elem);
	case LK_UNION:
		for (uint32_t i = 0; i < f->un->ncases; i++)
			if (field_owns(lo, f->un->cases[i]))
				return true;
		return f->un->deflt && field_owns(lo, f->un->deflt);
	default:
		return false;
	}
}

// ltype.owns, to a fixed point (value types may contain each other).
static void
compute_owns(struct irs_layout *lo)
{
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < lo->ntypes; i++) {
			struct ltype *t = &lo->types[i];
			for (uint32_t j = 0; j < t->nfields; j++) {
				if (!field_owns(lo, &t->fields[j]))
					continue;
				if (!t->owns)
					t->owns = changed = true;
				if (j < 64)
					t->owns_mask |= 1ull << j;
			}
		}
	}
}

// json = false on a field that owns nodes would leave them out of the
// graph.
static void
check_no_json(struct irs_cc *c)
{
	for (uint32_t i = 0; i < c->lo->ntypes; i++) {
		const struct ltype *t = &c->lo->types[i];
		for (uint32_t j = 0; j < t->nfields; j++) {
			const struct lfield *f = &t->fields[j];
			if (f->no_json && field_owns(c->lo, f))
				irs_lua_raisef(c->L, f->line, "%s.%s: json = "
					       "false on a field that owns "
					       "nodes (the JSON graph needs "
					       "them)", t->name, f->name);
		}
	}
}

// donor { ... }: the cached donor's DWARF, loaded before any type is
// looked up. Building it is `irsnap donor`'s: a layout runs no command.
static void
compile_donor(struct irs_cc *c)
{
	struct irs_layout *lo = c->lo;
	if (!irs_decl_donor(c->L, lo->file, &lo->donor))
		return;
	char *obj = NULL;
	struct irs_error *err = irs_donor_find(&lo->donor, &obj);
	if (!err && (!c->t || !c->t->load_types))
		err = irs_error_format(IRS_ERROR_TARGET, "the debugger loads "
				       "no type donor here");
	if (!err)
		err = c->t->load_types(c->t->arg, obj);
	if (err) {
		free(obj);
		if (err == &irs_enomem)
			irs_lua_raise(c->L, err);
		char msg[1200];
		snprintf(msg, sizeof(msg), "%s", err->message);
		irs_error_destroy(err);
		irs_lua_raisef(c->L, lo->donor.line, "donor: %s", msg);
	}
	lo->donor_obj = obj;
}

void
irs_layout_compile(lua_State *L, struct irs_layout *lo)
{
	struct irs_cc c = { .L = L, .lo = lo, .t = lo->target };
	irs_decl_push(L);
	int decls = lua_gettop(L);
	if (lua_getfield(L, decls, "layout") != LUA_TTABLE)
		irs_lua_raisef(L, 0, "no layout { name = ..., root = ... } "
			       "declaration");
	uint32_t line = irs_cc_line(&c, -1);
	int top = lua_gettop(L);
	lo->name = irs_cc_strdup(&c, irs_cc_str(&c, top, "name", line,
						"layout"));
	const char *root = irs_cc_str(&c, top, "root", line, "layout");
	lua_pop(L, 1);

	compile_donor(&c);
	compile_types(&c, decls);
	if (lo->ntypes == 0)
		irs_lua_raisef(L, line, "layout declares no struct");
	c.ndeclared = lo->ntypes;
	lo->root = root ? irs_cc_type(&c, root, line, "layout")->name
		: lo->types[0].name;

	lua_getfield(L, decls, "structs");
	for (uint32_t i = 0; i < c.ndeclared; i++) {
		lua_rawgeti(L, -1, i + 1);
		lua_getfield(L, -1, "spec");
		compile_fields(&c, &lo->types[i], lua_gettop(L));
		lua_pop(L, 2);
	}
	for (uint32_t i = 0; i < lo->ntypes; i++)
		for (uint32_t j = 0; j < lo->types[i].nfields; j++)
			link_field(&c, &lo->types[i], &lo->types[i].fields[j]);
	irs_cc_casts(&c, decls);
	irs_cc_numberings(&c);
	// refs first: a text's {@ref} needs to know its type has one
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < c.ndeclared; i++) {
			struct ltype *t = &lo->types[i];
			lua_rawgeti(L, -1, i + 1);
			lua_getfield(L, -1, "spec");
			compile_text(&c, t, lua_gettop(L),
				     pass ? "text" : "ref",
				     pass ? &t->text : &t->ref);
			lua_pop(L, 2);
		}
	lua_pop(L, 1);
	// a zip's element template last: it may show refs ({@arg})
	for (uint32_t i = 0; i < c.nzips; i++) {
		struct ltype *t = c.zips[i].t;
		t->text.kind = TX_TEMPLATE;
		t->text.fn = LUA_NOREF;
		t->ref.fn = LUA_NOREF;
		t->text.tpl = compile_template(&c, t, c.zips[i].text, "text");
	}

	compile_boundaries(&c, decls);
	compile_verifiers(&c, decls);
	compile_cfg(&c, decls);
	compile_reduce(&c, decls, irs_layout_find_type(lo, lo->root));
	if (!lo->defs)
		derive_defs(lo);
	compute_owns(lo);
	check_no_json(&c);
	irs_cc_check_expansion(&c);
	lua_pop(L, 1);
}
