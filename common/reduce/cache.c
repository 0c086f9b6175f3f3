// The reducer's cache: xxh3 of a candidate's bytes -> its verdict, so no
// candidate is ever tested twice (two candidates reached by different
// deletions often render to the same bytes). A 64-bit hash makes a false
// hit about as likely as a cosmic ray; we accept that, as ccache does.
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "reduce/reduce.h"

uint64_t
reduce_hash(const void *data, size_t len)
{
	return XXH64(data, len, 0);
}

void
reduce_cache_init(struct reduce_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void
reduce_cache_deinit(struct reduce_cache *c)
{
	free(c->keys);
	free(c->vals);
	memset(c, 0, sizeof(*c));
}

// Key 0 marks an empty slot, so a real hash of 0 is stored as 1.
static uint64_t
slot_key(uint64_t key)
{
	return key ? key : 1;
}

static size_t
probe(const uint64_t *keys, size_t cap, uint64_t key)
{
	size_t i = (size_t)(key ^ (key >> 29)) & (cap - 1);
	while (keys[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	return i;
}

bool
reduce_cache_get(const struct reduce_cache *c, uint64_t key, uint8_t *val_ret)
{
	if (!c->cap)
		return false;
	key = slot_key(key);
	size_t i = probe(c->keys, c->cap, key);
	if (!c->keys[i])
		return false;
	*val_ret = c->vals[i];
	return true;
}

static bool
rehash(struct reduce_cache *c, size_t cap)
{
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint8_t *vals = calloc(cap, 1);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return false;
	}
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->keys[i])
			continue;
		size_t j = probe(keys, cap, c->keys[i]);
		keys[j] = c->keys[i];
		vals[j] = c->vals[i];
	}
	free(c->keys);
	free(c->vals);
	c->keys = keys;
	c->vals = vals;
	c->cap = cap;
	return true;
}

bool
reduce_cache_put(struct reduce_cache *c, uint64_t key, uint8_t val)
{
	if ((c->count + 1) * 2 > c->cap &&
	    !rehash(c, c->cap ? c->cap * 2 : 256))
		return false;
	key = slot_key(key);
	size_t i = probe(c->keys, c->cap, key);
	if (!c->keys[i])
		c->count++;
	c->keys[i] = key;
	c->vals[i] = val;
	return true;
}
