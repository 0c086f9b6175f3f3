// The walker's set of visited node addresses. Nodes lie in the heap, most
// of them close together and 8-byte aligned: an aligned address is a bit
// in a bitmap of its 64 KiB region (1 KiB per region, the regions in a
// small hash table, the last one used kept at hand), so a million nodes
// cost a couple of megabytes and a walk in allocation order touches them
// in order. Other keys (unaligned addresses, the error keys the walker
// hashes, regions past the bitmaps' budget when the addresses are sparse)
// go to an open-addressing hash set with linear probing.
#include <stdlib.h>

#include "walk/walk.h"

enum {
	REGION_SHIFT = IRS_VISITED_REGION_SHIFT,	// 64 KiB of addresses
	GRAIN_SHIFT = IRS_VISITED_GRAIN_SHIFT,		// one bit per 8 bytes
	REGION_WORDS = (1 << (REGION_SHIFT - GRAIN_SHIFT)) / 64,
	REGION_BYTES = REGION_WORDS * 8,
	// bitmaps may take 128 bytes per member, plus this much: sparse
	// addresses (garbage read as pointers) use the hash set instead
	BUDGET_PER_KEY = 128,
	BUDGET_BASE = 1 << 20,
};

struct irs_vregion {
	uint64_t key;		// region number + 1; 0: empty slot
	uint64_t *bits;
};

void
irs_visited_init(struct irs_visited *v)
{
	memset(v, 0, sizeof(*v));
}

void
irs_visited_deinit(struct irs_visited *v)
{
	for (size_t i = 0; v->regions && i <= v->rmask; i++)
		free(v->regions[i].bits);
	free(v->regions);
	free(v->keys);
	irs_visited_init(v);
}

/* {====================================================== hash set */

static inline size_t
slot(uint64_t key, size_t mask)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;
	return (size_t)(h ^ (h >> 29)) & mask;
}

static bool
grow(struct irs_visited *v)
{
	size_t cap = v->mask ? (v->mask + 1) * 2 : 1024;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	if (!keys)
		return false;
	for (size_t i = 0; v->keys && i <= v->mask; i++) {
		uint64_t k = v->keys[i];
		if (!k)
			continue;
		size_t s = slot(k, cap - 1);
		while (keys[s])
			s = (s + 1) & (cap - 1);
		keys[s] = k;
	}
	free(v->keys);
	v->keys = keys;
	v->mask = cap - 1;
	return true;
}

static bool
hash_has(const struct irs_visited *v, uint64_t key)
{
	if (!v->n)
		return false;
	size_t s = slot(key, v->mask);
	while (v->keys[s]) {
		if (v->keys[s] == key)
			return true;
		s = (s + 1) & v->mask;
	}
	return false;
}

static bool
hash_add(struct irs_visited *v, uint64_t key, bool *added)
{
	if ((v->n + 1) * 10 > (v->mask + 1) * 7 && !grow(v))
		return false;
	size_t s = slot(key, v->mask);
	while (v->keys[s]) {
		if (v->keys[s] == key) {
			*added = false;
			return true;
		}
		s = (s + 1) & v->mask;
	}
	v->keys[s] = key;
	v->n++;
	*added = true;
	return true;
}

static bool
hash_remove(struct irs_visited *v, uint64_t key)
{
	if (!v->n)
		return false;
	size_t s = slot(key, v->mask);
	while (v->keys[s] && v->keys[s] != key)
		s = (s + 1) & v->mask;
	if (!v->keys[s])
		return false;
	// backward-shift deletion: move later keys of the run into the hole
	// when their home slot allows it, so lookups never stop early
	size_t hole = s;
	for (size_t i = (s + 1) & v->mask; v->keys[i]; i = (i + 1) & v->mask) {
		size_t home = slot(v->keys[i], v->mask);
		bool movable = hole <= i ? (home <= hole || home > i)
			: (home <= hole && home > i);
		if (movable) {
			v->keys[hole] = v->keys[i];
			hole = i;
		}
	}
	v->keys[hole] = 0;
	v->n--;
	return true;
}

/* }====================================================== */

/* {====================================================== bitmaps */

static inline size_t
rslot(uint64_t key, size_t mask)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & mask;
}

// The region table's slot for @p key: its entry, or the empty slot where
// it would go.
static struct irs_vregion *
rfind(const struct irs_visited *v, uint64_t key)
{
	size_t s = rslot(key, v->rmask);
	while (v->regions[s].key && v->regions[s].key != key)
		s = (s + 1) & v->rmask;
	return &v->regions[s];
}

static bool
rgrow(struct irs_visited *v)
{
	size_t cap = v->regions ? (v->rmask + 1) * 2 : 256;
	struct irs_vregion *r = calloc(cap, sizeof(*r));
	if (!r)
		return false;
	for (size_t i = 0; v->regions && i <= v->rmask; i++) {
		if (!v->regions[i].key)
			continue;
		size_t s = rslot(v->regions[i].key, cap - 1);
		while (r[s].key)
			s = (s + 1) & (cap - 1);
		r[s] = v->regions[i];
	}
	free(v->regions);
	v->regions = r;
	v->rmask = cap - 1;
	return true;
}

// A new bitmap for region @p key, or NULL: past the budget (*oom false)
// or out of memory (*oom true).
static uint64_t *
region_new(struct irs_visited *v, uint64_t key, bool *oom)
{
	if ((v->nregions + 1) * REGION_BYTES >
	    BUDGET_PER_KEY * v->total + BUDGET_BASE)
		return NULL;
	size_t cap = v->regions ? v->rmask + 1 : 0;
	if ((v->nregions + 1) * 2 > cap && !rgrow(v)) {
		*oom = true;
		return NULL;
	}
	uint64_t *bits = calloc(REGION_WORDS, sizeof(*bits));
	if (!bits) {
		*oom = true;
		return NULL;
	}
	struct irs_vregion *r = rfind(v, key);
	r->key = key;
	r->bits = bits;
	v->nregions++;
	return bits;
}

// The bitmap of region @p key, or NULL when it has none; made when
// @p create and the budget allows (*oom set when memory ran out).
static uint64_t *
region(struct irs_visited *v, uint64_t key, bool create, bool *oom)
{
	if (key == v->last_key)
		return v->last_bits;
	uint64_t *bits = NULL;
	if (v->regions) {
		struct irs_vregion *r = rfind(v, key);
		bits = r->key ? r->bits : NULL;
	}
	if (!bits && create)
		bits = region_new(v, key, oom);
	if (bits) {
		v->last_key = key;
		v->last_bits = bits;
	}
	return bits;
}

/* }====================================================== */

bool
irs_visited_add_slow(struct irs_visited *v, uint64_t addr, bool *added)
{
	if (!(addr & ((1u << GRAIN_SHIFT) - 1))) {
		bool oom = false;
		uint64_t *bits = region(v, (addr >> REGION_SHIFT) + 1, true,
					&oom);
		if (oom)
			return false;
		if (bits) {
			size_t b = (addr >> GRAIN_SHIFT) &
				   (REGION_WORDS * 64 - 1);
			uint64_t m = 1ull << (b & 63);
			*added = false;
			if (bits[b >> 6] & m)
				return true;
			// a key added before its region had a bitmap stays
			// in the hash set: every key is in one place
			if (hash_has(v, addr))
				return true;
			bits[b >> 6] |= m;
			*added = true;
			v->total++;
			return true;
		}
	}
	if (!hash_add(v, addr, added))
		return false;
	v->total += *added;
	return true;
}

bool
irs_visited_has(const struct irs_visited *v, uint64_t addr)
{
	if (!(addr & ((1u << GRAIN_SHIFT) - 1))) {
		uint64_t key = (addr >> REGION_SHIFT) + 1;
		const uint64_t *bits = key == v->last_key ? v->last_bits : NULL;
		if (!bits && v->regions) {
			const struct irs_vregion *r = rfind(v, key);
			bits = r->key ? r->bits : NULL;
		}
		if (bits) {
			size_t b = (addr >> GRAIN_SHIFT) &
				   (REGION_WORDS * 64 - 1);
			if (bits[b >> 6] & (1ull << (b & 63)))
				return true;
		}
	}
	return hash_has(v, addr);
}

void
irs_visited_remove(struct irs_visited *v, uint64_t addr)
{
	if (!(addr & ((1u << GRAIN_SHIFT) - 1))) {
		bool oom = false;
		uint64_t *bits = region(v, (addr >> REGION_SHIFT) + 1, false,
					&oom);
		if (bits) {
			size_t b = (addr >> GRAIN_SHIFT) &
				   (REGION_WORDS * 64 - 1);
			uint64_t m = 1ull << (b & 63);
			if (bits[b >> 6] & m) {
				bits[b >> 6] &= ~m;
				v->total--;
				return;
			}
		}
	}
	if (hash_remove(v, addr))
		v->total--;
}
