// lookup { ... }: a value kept in one of the debuggee's hash maps, keyed
// by the node (its address) or by one of its fields, as LLVM keeps a
// Value's name in its context's ValueNames (a DenseMap<const Value *,
// ValueName *>) and an instruction's metadata in ValueMetadata. The map is
// probed as its own code probes it (walk/lookup.c): the hash, the probing
// and the empty and tombstone keys are options, so the shape is any open-
// addressing table's; prelude/irsnap/llvm.lua gives LLVM's DenseMap and
// StringMap their values.
//
//   name = lookup { map = "VTy.Context.pImpl.ValueNames",
//                   buckets = "Buckets", count = "NumBuckets",
//                   stride = 16, value = 8, hash = "pointer",
//                   empty = -4096, of = ptr "ValueName" }
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

static void
raise_path(struct irs_cc *c, uint32_t line, const char *qual, const char *k,
	   const char *path, struct irs_error *err)
{
	char msg[400];
	snprintf(msg, sizeof(msg), "%s", err->message);
	irs_error_destroy(err);
	irs_lua_raisef(c->L, line, "%s: %s '%s': %s", qual, k, path, msg);
}

// A field of the map's struct that holds an integer or pointer.
static const struct lfield *
map_field(struct irs_cc *c, const struct ltype *m, const char *name,
	  const char *k, const char *def, uint32_t line, const char *qual)
{
	if (!name)
		name = def;
	const struct lfield *f = irs_ltype_field(m, name);
	if (!f || (f->kind != LK_INT && f->kind != LK_UINT &&
		   f->kind != LK_PTR && f->kind != LK_REF))
		irs_lua_raisef(c->L, line, "%s: %s '%s' is no integer or "
			       "pointer field of %s", qual, k, name, m->name);
	return f;
}

// How the value renders: of = "T" (inline), ptr "T" or ref "T".
static const struct lfield *
value_field(struct irs_cc *c, int idx, uint32_t line, const char *qual,
	    uint32_t *size)
{
	lua_State *L = c->L;
	struct lfield *e = irs_cc_alloc(c, sizeof(*e));
	int t = lua_getfield(L, idx, "of");
	if (t == LUA_TSTRING) {
		const struct ltype *et = irs_cc_type(c, lua_tostring(L, -1),
						     line, qual);
		e->name = "[]";
		e->kind = LK_EMBED;
		e->type = et->index;
		e->line = line;
		e->ctor = "embed";
		*size = et->size;
	} else if (t == LUA_TTABLE && irs_fields_is_descriptor(L, -1)) {
		irs_cc_field(c, NULL, "[]", qual, lua_gettop(L), e);
		if (e->kind != LK_PTR && e->kind != LK_REF)
			irs_lua_raisef(L, line, "%s: of is a type name, ptr "
				       "\"T\" or ref \"T\"", qual);
		*size = 8;
	} else {
		irs_lua_raisef(L, line, "%s: lookup needs of = \"T\", ptr "
			       "\"T\" or ref \"T\" (its value)", qual);
	}
	lua_pop(L, 1);
	return e;
}

static int64_t
opt_int(struct irs_cc *c, int idx, const char *k, int64_t def,
	int64_t min, int64_t max, uint32_t line, const char *qual)
{
	int64_t v;
	if (!irs_cc_int(c, idx, k, line, qual, &v))
		return def;
	if (v < min || v > max)
		irs_lua_raisef(c->L, line, "%s: %s %lld is out of range", qual,
			       k, (long long)v);
	return v;
}

void
irs_cc_lookup_shape(struct irs_cc *c, const struct ltype *owner, int idx,
		    uint32_t line, const char *qual, struct llookup *lk)
{
	lua_State *L = c->L;
	irs_cc_keys(c, idx, " map buckets count key key_at key_size value "
		    "stride hash probe empty tombstone deref of ", line, qual,
		    "lookup");
	// the paths are resolved once every field is compiled (link)
	lk->names[0] = irs_cc_str(c, idx, "map", line, qual);
	if (!lk->names[0])
		irs_lua_raisef(L, line, "%s: lookup needs map = \"path\" (from "
			       "the node to the hash map)", qual);
	lk->names[1] = irs_cc_str(c, idx, "buckets", line, qual);
	lk->names[2] = irs_cc_str(c, idx, "count", line, qual);
	lk->names[3] = irs_cc_str(c, idx, "key", line, qual);
	for (int i = 0; i < 4; i++)
		if (lk->names[i])
			lk->names[i] = irs_cc_strdup(c, lk->names[i]);
	lk->line = line;
	(void)owner;
	lk->as = value_field(c, idx, line, qual, &lk->value_size);
	lk->deref = irs_cc_bool(c, idx, "deref", false);
	if (lk->deref && lk->as->kind == LK_EMBED)
		irs_lua_raisef(L, line, "%s: the value of a map of pointers to "
			       "entries is the entry: of = ptr \"T\"", qual);
	lk->key_at = (uint32_t)opt_int(c, idx, "key_at", 0, 0, 1 << 16, line,
				       qual);
	lk->key_size = (uint32_t)opt_int(c, idx, "key_size", 8, 1, 8, line,
					 qual);
	if (lk->key_size & (lk->key_size - 1))
		irs_lua_raisef(L, line, "%s: key_size is 1, 2, 4 or 8", qual);
	lk->value_at = (uint32_t)opt_int(c, idx, "value", lk->deref ? 0 : 8,
					 0, 1 << 16, line, qual);
	uint32_t end = lk->value_at + lk->value_size;
	if (lk->key_at + lk->key_size > end)
		end = lk->key_at + lk->key_size;
	lk->stride = (uint32_t)opt_int(c, idx, "stride", lk->deref ? 8
				       : (end + 7) / 8 * 8, 1, 1 << 20, line,
				       qual);
	if (!lk->deref && lk->stride < end)
		irs_lua_raisef(L, line, "%s: buckets of %u bytes cannot hold "
			       "the key and value (%u bytes)", qual, lk->stride,
			       end);
	static const char *const hashes[] = { "pointer", "int37", NULL };
	static const char *const probes[] = { "quadratic", "linear", "scan",
					      NULL };
	const char *h = irs_cc_str(c, idx, "hash", line, qual);
	const char *p = irs_cc_str(c, idx, "probe", line, qual);
	lk->hash = HASH_POINTER;
	for (uint8_t i = 0; h && hashes[i]; i++)
		if (!strcmp(h, hashes[i]))
			lk->hash = i, h = NULL;
	lk->probe = PROBE_QUADRATIC;
	for (uint8_t i = 0; p && probes[i]; i++)
		if (!strcmp(p, probes[i]))
			lk->probe = i, p = NULL;
	if (h || p)
		irs_lua_raisef(L, line, "%s: hash is \"pointer\" ((p >> 4) ^ (p "
			       ">> 9), LLVM's) or \"int37\"; probe is "
			       "\"quadratic\", \"linear\" or \"scan\"", qual);
	if (lk->deref && lk->probe != PROBE_SCAN)
		irs_lua_raisef(L, line, "%s: a map of pointers to entries is "
			       "searched whole: probe = \"scan\"", qual);
	lk->empty = (uint64_t)opt_int(c, idx, "empty", 0, INT64_MIN,
				      INT64_MAX, line, qual);
	lk->tombstone = (uint64_t)opt_int(c, idx, "tombstone", 0, INT64_MIN,
					  INT64_MAX, line, qual);
}

void
irs_link_lookup(struct irs_cc *c, const struct ltype *owner, const char *qual,
		struct llookup *lk)
{
	uint32_t line = lk->line;
	const char *map = lk->names[0], *key = lk->names[3];
	struct irs_error *err = irs_template_path(c->lo, owner, map, &lk->map);
	if (err)
		raise_path(c, line, qual, "map", map, err);
	const struct lfield *last = lk->map.path[lk->map.npath - 1];
	if (last->kind != LK_EMBED && last->kind != LK_PTR)
		irs_lua_raisef(c->L, line, "%s: map '%s' ends at %s, not an "
			       "embed or ptr of the map's struct", qual, map,
			       last->name);
	const struct ltype *m = &c->lo->types[last->type];
	lk->mtype = m->index;
	lk->buckets = map_field(c, m, lk->names[1], "buckets", "Buckets", line,
				qual);
	lk->count = map_field(c, m, lk->names[2], "count", "NumBuckets", line,
			      qual);
	if (key && strcmp(key, "&")) {
		err = irs_template_path(c->lo, owner, key, &lk->key);
		if (err)
			raise_path(c, line, qual, "key", key, err);
	}
}
