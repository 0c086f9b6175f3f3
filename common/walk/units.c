// Per-unit render caches (issue 18): a trace walks the same IR again at
// every pass boundary, and most passes change a few functions of many. A
// unit (a node of the layout's outermost reduce unit type, or a
// `cache = true` type, met outside any other unit) is walked once with the
// pages it read listed; at the next walk, a unit whose pages all read the
// same is emitted from its kept text, and the walk's counts and visited
// set are brought to where its walk would have left them. So a snapshot
// comes out byte for byte as a full walk's.
//
// Only where nothing else could tell the difference: text without the
// JSON graph (whose records and spans a kept unit would have to place),
// no Lua in the layout, no per-node callback, and a unit whose walk
// recorded no error and met no limit.
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

// What is kept of a unit: its text, the pages it read and the nodes it
// visited, all in one allocation, its block.
struct unit {
	uint64_t addr;		// the unit node's address; 0: empty slot
	void *block;		// owns what the pointers below point to
	const char *text;
	size_t len;
	const struct irs_mem_page *pages;
	size_t npages;
	const uint64_t *added;	// the nodes its walk visited first
	size_t nadded;
	const uint64_t *seen;	// visited nodes it found visited
	size_t nseen;
	uint64_t nodes, bytes, reads;
};

// Open addressing by address, linear probing.
struct table {
	struct unit *v;
	size_t mask;		// capacity - 1, or 0 when v is NULL
	size_t n;
};

// A growing vector of addresses, kept from one unit to the next.
struct addrs {
	uint64_t *v;
	size_t n, cap;
};

// The unit being walked and recorded: one at a time (a unit is met
// outside any other), so the cache holds one, and its vectors, emptied at
// each unit, keep their memory: a unit costs one allocation, its block.
struct irs_unit_rec {
	uint64_t addr;
	struct addrs added, seen;
	struct irs_mem_pages pages;
	uint64_t start, flushed, nfail, nodes, bytes, reads;
	bool lost;
};

struct irs_unit_cache {
	uint32_t type;		// the layout's type index
	const struct irs_layout *lo;	// for the type only; borrowed
	struct table last, next;	// the last walk's, this walk's
	uint64_t reused, walked;	// this walk's units
	struct irs_unit_rec rec;
};

static void
unit_free(struct unit *u)
{
	free(u->block);
	memset(u, 0, sizeof(*u));
}

static void
table_clear(struct table *t)
{
	for (size_t i = 0; t->v && i <= t->mask; i++)
		if (t->v[i].addr)
			unit_free(&t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static size_t
slot_of(const struct table *t, uint64_t addr)
{
	uint64_t h = (addr >> 3) * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 20) & t->mask;
	while (t->v[i].addr && t->v[i].addr != addr)
		i = (i + 1) & t->mask;
	return i;
}

static struct unit *
table_find(struct table *t, uint64_t addr)
{
	if (!t->v)
		return NULL;
	struct unit *u = &t->v[slot_of(t, addr)];
	return u->addr ? u : NULL;
}

// Makes @p t (empty) hold @p n units without growing; false on OOM.
static bool
table_reserve(struct table *t, size_t n)
{
	size_t cap = 256;
	while (cap < n * 2)
		cap *= 2;
	if (t->v || cap == 256)
		return true;
	if (!(t->v = calloc(cap, sizeof(struct unit))))
		return false;
	t->mask = cap - 1;
	return true;
}

// Moves @p u (its contents) into @p t; false (u untouched) on OOM or
// when @p t has it already.
static bool
table_put(struct table *t, struct unit *u)
{
	if (!t->v || (t->n + 1) * 2 > t->mask + 1) {
		size_t cap = t->v ? (t->mask + 1) * 2 : 256;
		struct table g = { calloc(cap, sizeof(struct unit)), cap - 1,
				   0 };
		if (!g.v)
			return false;
		for (size_t i = 0; t->v && i <= t->mask; i++)
			if (t->v[i].addr) {
				g.v[slot_of(&g, t->v[i].addr)] = t->v[i];
				g.n++;
			}
		free(t->v);
		*t = g;
	}
	struct unit *dst = &t->v[slot_of(t, u->addr)];
	if (dst->addr)
		return false;
	*dst = *u;
	memset(u, 0, sizeof(*u));
	t->n++;
	return true;
}

struct irs_error *
irs_unit_cache_create(const struct irs_layout *lo, uint32_t type,
		      struct irs_unit_cache **ret)
{
	struct irs_unit_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return &irs_enomem;
	c->lo = lo;
	c->type = type;
	*ret = c;
	return NULL;
}

void
irs_unit_cache_destroy(struct irs_unit_cache *c)
{
	if (!c)
		return;
	table_clear(&c->last);
	table_clear(&c->next);
	free(c->rec.added.v);
	free(c->rec.seen.v);
	irs_mem_pages_deinit(&c->rec.pages);
	free(c);
}

void
irs_unit_cache_forget(struct irs_unit_cache *c)
{
	table_clear(&c->last);
	table_clear(&c->next);
}

void
irs_unit_cache_stats(const struct irs_unit_cache *c, uint64_t *reused,
		     uint64_t *walked)
{
	*reused = c->reused;
	*walked = c->walked;
}

// requires: w->ucache.
bool
irs_units_usable(const struct walk *w)
{
	return w->text && !w->json && !w->on_node && !w->lo->walk_lua;
}

void
irs_units_walk_begin(struct walk *w)
{
	struct irs_unit_cache *c = w->ucache;
	table_clear(&c->next);
	// as many units as last time, most likely: no rehashing on the way
	// (a failure here only means it grows)
	(void)table_reserve(&c->next, c->last.n);
	c->reused = c->walked = 0;
	// every TLB fill from now on is logged, so a unit's start can make
	// the pages the walk used before miss again
	irs_memory_track(w->mem, NULL);
}

void
irs_units_walk_end(struct walk *w, bool ok)
{
	struct irs_unit_cache *c = w->ucache;
	irs_memory_untrack(w->mem);
	table_clear(&c->last);
	if (ok) {
		c->last = c->next;
		memset(&c->next, 0, sizeof(c->next));
	} else {
		table_clear(&c->next);	// a failed walk keeps nothing
	}
}

static bool
push_addr(struct addrs *a, uint64_t addr)
{
	if (a->n == a->cap) {
		size_t c = a->cap ? a->cap * 2 : 256;
		uint64_t *p = realloc(a->v, c * sizeof(*p));
		if (!p)
			return false;
		a->v = p;
		a->cap = c;
	}
	a->v[a->n++] = addr;
	return true;
}

void
irs_units_note_visit(struct walk *w, uint64_t addr, bool added)
{
	struct irs_unit_rec *r = w->urec;
	if (!push_addr(added ? &r->added : &r->seen, addr))
		r->lost = true;
}

void
irs_units_lost(struct walk *w)
{
	if (w->urec)
		w->urec->lost = true;
}

// Emits the unit at @p addr from the last walk when its pages read the
// same and the walk is where that unit's walk began (none of its nodes
// visited yet, every node it found visited visited now); true when done.
bool
irs_units_reuse(struct walk *w, uint64_t addr)
{
	struct irs_unit_cache *c = w->ucache;
	struct unit *u = table_find(&c->last, addr);
	if (!u)
		return false;
	if (w->nodes + u->nodes > w->lim.max_nodes ||
	    w->bytes + u->bytes > w->lim.max_bytes)
		return false;	// the walk meets the limit: say where
	for (size_t k = 0; k < u->nadded; k++)
		if (irs_visited_has(&w->visited, u->added[k]))
			return false;
	if (!irs_memory_pages_match(w->mem, u->pages, u->npages))
		return false;
	size_t k;
	bool added;
	for (k = 0; k < u->nadded; k++)
		if (!irs_visited_add(&w->visited, u->added[k], &added))
			break;
	bool ok = k == u->nadded;
	for (size_t j = 0; ok && j < u->nseen; j++)
		ok = irs_visited_has(&w->visited, u->seen[j]);
	if (!ok) {
		while (k--)
			irs_visited_remove(&w->visited, u->added[k]);
		return false;
	}
	irs_sink_put(w->text, u->text, u->len);
	w->nodes += u->nodes;
	w->bytes += u->bytes;
	w->reads += u->reads;
	// moved on; the slot keeps its address so probes still pass it
	struct unit moved = *u;
	memset(u, 0, sizeof(*u));
	u->addr = moved.addr;
	if (!table_put(&c->next, &moved))
		unit_free(&moved);
	c->reused++;
	return true;
}

// Reads a byte of each page of [addr, addr + size), for the page list.
static void
touch(struct walk *w, struct irs_unit_rec *r, uint64_t addr, uint64_t size)
{
	uint8_t byte;
	for (uint64_t p = addr & ~(IRS_PAGE_SIZE - 1); p < addr + size;
	     p += IRS_PAGE_SIZE) {
		uint64_t a = p < addr ? addr : p;
		struct irs_error *err = irs_memory_read(w->mem, a, &byte, 1);
		if (err) {
			irs_error_destroy(err);
			r->lost = true;
		}
	}
}

struct irs_unit_rec *
irs_units_begin(struct walk *w, uint64_t addr, size_t size)
{
	struct irs_unit_rec *r = &w->ucache->rec;
	r->addr = addr;
	r->added.n = r->seen.n = 0;
	r->pages.n = 0;
	r->pages.lost = false;
	r->lost = false;
	r->start = irs_sink_pos(w->text);
	r->flushed = w->text->flushed;
	r->nfail = w->nfail;
	r->nodes = w->nodes;
	r->bytes = w->bytes;
	r->reads = w->reads;
	w->urec = r;
	irs_memory_track(w->mem, &r->pages);
	// Its own struct and those of the frames around it were read before
	// it began, and its text may use them (a table the enclosing node
	// points to): list their pages too.
	touch(w, r, addr, size);
	for (uint32_t d = 0; d < w->depth; d++)
		touch(w, r, w->frames[d]->addr, w->frames[d]->size);
	return r;
}

// memcpy() that takes a NULL @p src when @p n is 0; returns @p dst.
static void *
put(void *dst, const void *src, size_t n)
{
	if (n)
		memcpy(dst, src, n);
	return dst;
}

// One allocation for what unit @p r recorded, text @p len bytes at @p
// text: the page list, the node lists, then the text (for alignment).
static bool
unit_keep(struct unit *u, const struct irs_unit_rec *r, const char *text,
	  size_t len)
{
	size_t pages = r->pages.n * sizeof(*r->pages.v);
	size_t added = r->added.n * sizeof(uint64_t);
	size_t seen = r->seen.n * sizeof(uint64_t);
	unsigned char *p = malloc(pages + added + seen + len + 1);
	if (!p)
		return false;
	memset(u, 0, sizeof(*u));
	u->addr = r->addr;
	u->block = p;
	u->pages = put(p, r->pages.v, pages);
	u->npages = r->pages.n;
	u->added = put(p + pages, r->added.v, added);
	u->nadded = r->added.n;
	u->seen = put(p + pages + added, r->seen.v, seen);
	u->nseen = r->seen.n;
	u->text = put(p + pages + added + seen, text, len);
	u->len = len;
	u->nodes = r->nodes;
	u->bytes = r->bytes;
	u->reads = r->reads;
	return true;
}

void
irs_units_end(struct walk *w, struct irs_unit_rec *r)
{
	struct irs_unit_cache *c = w->ucache;
	irs_memory_track(w->mem, NULL);
	w->urec = NULL;
	c->walked++;
	struct irs_sink *s = w->text;
	uint64_t end = irs_sink_pos(s);
	// the text must still be in the sink's buffer
	if (r->lost || r->pages.lost || w->nfail != r->nfail || w->stop ||
	    w->fatal || s->failed || r->start < s->flushed)
		return;
	// the counts the unit added, for unit_keep()
	r->nodes = w->nodes - r->nodes;
	r->bytes = w->bytes - r->bytes;
	r->reads = w->reads - r->reads;
	struct unit u;
	if (!unit_keep(&u, r, s->buf + (r->start - s->flushed),
		       (size_t)(end - r->start)))
		return;
	if (!table_put(&c->next, &u))
		unit_free(&u);
}

uint32_t
irs_unit_cache_type(const struct irs_unit_cache *c)
{
	return c->type;
}
