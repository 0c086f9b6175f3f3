// lookup { ... } (layout/lookup.c): the value a node has in one of the
// debuggee's open-addressing hash maps, found by probing the map as its
// own code does: the key's hash masked by the (power of two) bucket count,
// then buckets one, two, three... further (quadratic, LLVM's DenseMap) or
// one by one, until the key or an empty bucket; or a scan of every bucket
// for a map searched by value (StringMap<unsigned> from kind id back to its
// name). A probe reads a key or two, through the page cache; the whole map
// is never read.
#include <string.h>

#include "walk/walk.h"

static uint32_t
hash_of(const struct llookup *lk, uint64_t key)
{
	if (lk->hash == HASH_INT37)
		return (uint32_t)(key * 37u);
	// DenseMapInfo<T *>: the low 32 bits, shifted
	return ((uint32_t)key >> 4) ^ ((uint32_t)key >> 9);
}

static uint64_t
masked(const struct llookup *lk, uint64_t v)
{
	return lk->key_size == 8 ? v : v & ((1ull << (8 * lk->key_size)) - 1);
}

// The key of @p size bytes at @p a; false (recorded) when it cannot be
// read.
static bool
read_key(struct walk *w, const struct lfield *fd, uint64_t a, uint32_t size,
	 uint64_t *ret)
{
	uint64_t k = 0;
	uint32_t k4 = 0;
	uint16_t k2 = 0;
	uint8_t k1 = 0;
	struct irs_error *err;
	switch (size) {	// constant sizes: the inline copy wants them
	case 1:
		err = irs_walk_read(w, a, &k1, 1);
		k = k1;
		break;
	case 2:
		err = irs_walk_read(w, a, &k2, 2);
		k = k2;
		break;
	case 4:
		err = irs_walk_read(w, a, &k4, 4);
		k = k4;
		break;
	default:
		err = irs_walk_read(w, a, &k, 8);
		break;
	}
	if (err) {
		if (err->code != IRS_ERROR_LIMIT)
			irs_walk_error(w, fd, a, "unreadable hash map key at "
				       "0x%llx", (unsigned long long)a);
		irs_error_destroy(err);
		return false;
	}
	*ret = k;
	return true;
}

// The buckets and their count of the map @p fd names from @p f.
static bool
the_map(struct walk *w, struct frame *f, const struct lfield *fd,
	uint64_t *buckets, uint64_t *n)
{
	const struct llookup *lk = fd->shape->lookup;
	uint32_t np;
	struct frame *g = irs_walk_follow(w, f, &lk->map, &np);
	if (!g) {
		irs_walk_error(w, fd, 0, "the hash map '%s' cannot be reached",
			       lk->map.path[lk->map.npath - 1]->name);
		return false;
	}
	const struct lfield *last = lk->map.path[lk->map.npath - 1];
	uint64_t m = last->kind == LK_EMBED ? g->addr + last->at.offset
		: irs_load_ptr(g, last);
	irs_walk_unfollow(w, np);
	if (!m)
		return false;
	struct frame *mf = irs_walk_push(w, &w->lo->types[lk->mtype], m,
					 NULL, fd);
	if (!mf)
		return false;
	*buckets = irs_load_u(mf->data, &lk->buckets->at);
	*n = irs_load_u(mf->data, &lk->count->at);
	irs_walk_pop(w);
	if (*n && !*buckets) {
		irs_walk_error(w, fd, m, "hash map at 0x%llx: %llu buckets at "
			       "NULL", (unsigned long long)m,
			       (unsigned long long)*n);
		return false;
	}
	if (*n > (1u << 30) || (lk->probe != PROBE_SCAN && (*n & (*n - 1)))) {
		irs_walk_error(w, fd, m, "hash map at 0x%llx: %llu buckets is "
			       "no power of two up to 2^30",
			       (unsigned long long)m, (unsigned long long)*n);
		return false;
	}
	return true;
}

bool
irs_lookup_find(struct walk *w, struct frame *f, const struct lfield *fd,
		uint64_t *value, bool *found)
{
	const struct llookup *lk = fd->shape->lookup;
	uint64_t key = f->addr, buckets, n, k;
	*found = false;
	if (lk->key.npath) {
		int64_t v;
		if (!irs_walk_value(w, f, &lk->key, &v))
			return false;
		key = (uint64_t)v;
	}
	key = masked(lk, key);
	if (!the_map(w, f, fd, &buckets, &n))
		return false;
	uint64_t empty = masked(lk, lk->empty), tomb = lk->tombstone;
	if (lk->probe == PROBE_SCAN) {
		for (uint64_t b = 0; b < n; b++) {
			uint64_t at = buckets + b * lk->stride;
			if (lk->deref) {	// a pointer to the entry
				if (!read_key(w, fd, at, 8, &k))
					return false;
				if (!k || k == tomb)
					continue;
				at = k;
			}
			if (!read_key(w, fd, at + lk->key_at, lk->key_size,
				      &k))
				return false;
			if (masked(lk, k) == key) {
				*value = buckets + b * lk->stride +
					 lk->value_at;
				*found = true;
				return true;
			}
		}
		return true;
	}
	uint64_t mask = n - 1, b = hash_of(lk, key) & mask;
	for (uint64_t i = 0, step = 1; i < n; i++) {
		uint64_t at = buckets + b * lk->stride;
		if (!read_key(w, fd, at + lk->key_at, lk->key_size, &k))
			return false;
		k = masked(lk, k);
		if (k == key) {
			*value = at + lk->value_at;
			*found = true;
			return true;
		}
		if (k == empty)
			return true;
		b = (b + (lk->probe == PROBE_QUADRATIC ? step++ : 1)) & mask;
	}
	return true;
}
