// The walker's set of visited node addresses: open addressing with linear
// probing over a power-of-two table of 8-byte keys (0 marks an empty slot;
// a node is never at address 0). 8 bytes per slot at most 70 % full keeps
// it near 12 bytes per node, the walker's only per-node memory.
#include <stdlib.h>

#include "layout_internal.h"

void
irs_visited_init(struct irs_visited *v)
{
	v->keys = NULL;
	v->mask = 0;
	v->n = 0;
}

void
irs_visited_deinit(struct irs_visited *v)
{
	free(v->keys);
	irs_visited_init(v);
}

static inline size_t
slot(uint64_t addr, size_t mask)
{
	// Nodes allocated together lie together: keep neighbours in
	// neighbouring slots (few cache misses on a million nodes), and fold
	// the megabyte and the high bits in so distant regions spread out.
	uint64_t h = (addr >> 4) ^ ((addr >> 20) * 0x9e3779b97f4a7c15ull);
	return (size_t)h & mask;
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

bool
irs_visited_add(struct irs_visited *v, uint64_t addr, bool *added)
{
	if ((v->n + 1) * 10 > (v->mask + 1) * 7 && !grow(v))
		return false;
	size_t s = slot(addr, v->mask);
	while (v->keys[s]) {
		if (v->keys[s] == addr) {
			*added = false;
			return true;
		}
		s = (s + 1) & v->mask;
	}
	v->keys[s] = addr;
	v->n++;
	*added = true;
	return true;
}

bool
irs_visited_has(const struct irs_visited *v, uint64_t addr)
{
	if (!v->keys)
		return false;
	size_t s = slot(addr, v->mask);
	while (v->keys[s]) {
		if (v->keys[s] == addr)
			return true;
		s = (s + 1) & v->mask;
	}
	return false;
}

void
irs_visited_remove(struct irs_visited *v, uint64_t addr)
{
	if (!v->keys)
		return;
	size_t s = slot(addr, v->mask);
	while (v->keys[s] && v->keys[s] != addr)
		s = (s + 1) & v->mask;
	if (!v->keys[s])
		return;
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
}
