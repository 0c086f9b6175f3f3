// Per-unit render caches (issue 18): a trace walks the same IR again at
// every pass boundary, and most passes change a few functions of many. A
// unit (a node of the layout's outermost reduce unit type, or a
// `cache = true` type, met outside any other unit) is walked once with the
// bytes it read listed (where, and a hash of them); at the next walk, a
// unit whose bytes all read the same is emitted from its kept text, and
// the walk's counts and visited set are brought to where its walk would
// have left them. So a snapshot comes out byte for byte as a full walk's.
// Bytes, not pages: a pass's scratch buffers, malloc'd and freed among
// the IR's objects, write to its pages without changing what a walk
// reads.
//
// Only where nothing else could tell the difference: text without the
// JSON graph (whose records and spans a kept unit would have to place),
// no Lua in the layout but `pure` functions (whose result depends only on
// the bytes read), no per-node callback, and a unit whose walk recorded
// no error and met no limit.
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "walk/walk.h"

// A stretch of the debuggee's memory a unit's walk read.
struct range {
	uint64_t addr, len;
};

// What is kept of a unit: its text, the bytes it read (where, and a hash
// of them) and the nodes it visited, all in one allocation, its block.
struct unit {
	uint64_t addr;		// the unit node's address; 0: empty slot
	void *block;		// owns what the pointers below point to
	const char *text;
	size_t len;
	const struct range *ranges;
	size_t nranges;
	uint64_t hash;		// of the bytes of ranges, in order
	const uint64_t *added;	// the nodes its walk visited first
	size_t nadded;
	const uint64_t *seen;	// visited nodes it found visited
	size_t nseen;
	uint64_t nodes, bytes, reads, steps;
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
	struct range *ranges;
	size_t nranges, cap_ranges;
	uint64_t start, flushed, nfail, nodes, bytes, reads, steps;
	bool lost;
};

struct irs_unit_cache {
	uint32_t type;		// the layout's type index
	const struct irs_layout *lo;	// for the type only; borrowed
	struct table last, next;	// the last walk's, this walk's
	uint64_t reused, walked;	// this walk's units
	struct irs_unit_rec rec;
	struct irs_buf bytes;		// what hash_ranges() reads into
	uint64_t whole;			// the last walk's root when its text
					// was that one unit's, else 0
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
	irs_buf_init(&c->bytes);
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
	free(c->rec.ranges);
	irs_buf_deinit(&c->bytes);
	free(c);
}

void
irs_unit_cache_forget(struct irs_unit_cache *c)
{
	table_clear(&c->last);
	table_clear(&c->next);
	c->whole = 0;
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
}

void
irs_units_walk_end(struct walk *w, bool ok, uint64_t root)
{
	struct irs_unit_cache *c = w->ucache;
	table_clear(&c->last);
	c->whole = 0;
	if (!ok) {
		table_clear(&c->next);	// a failed walk keeps nothing
		return;
	}
	c->last = c->next;
	memset(&c->next, 0, sizeof(c->next));
	// A walk of one unit, its root (a function, in a trace of a
	// per-function pipeline), that wrote nothing else: while the unit's
	// bytes read the same, so does the whole walk's text.
	const struct unit *u = c->last.n == 1 ? table_find(&c->last, root)
					       : NULL;
	if (u && u->len == irs_sink_pos(w->text))
		c->whole = root;
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

void
irs_units_lost_outside(struct walk *w, const struct frame *f, bool self_ok)
{
	if (!w->urec)
		return;
	for (uint32_t d = 0; d < w->depth; d++) {
		const struct frame *u = w->frames[d];
		if (!u->t || u->t->index != w->unit_type || !u->is_node)
			continue;
		// u is the unit's node (units are outermost): f is inside
		// when pushed after it
		if (u == f && self_ok)
			return;
		for (uint32_t e = d + 1; e < w->depth; e++)
			if (w->frames[e] == f)
				return;
		break;
	}
	w->urec->lost = true;
}

// A read that starts in one of the last RANGE_LOOK ranges, or within
// RANGE_GAP bytes of its end, extends it: what lies between (a malloc
// chunk's header) is hashed too, which can only make a unit miss, never
// match wrongly. A walk goes back and forth between a few places (an
// instruction, its operands, the opcode table), each moving forward.
enum { RANGE_GAP = 32, RANGE_LOOK = 2 };

void
irs_units_note_read(struct walk *w, uint64_t addr, uint64_t len)
{
	struct irs_unit_rec *r = w->urec;
	if (!len)
		return;
	for (size_t k = r->nranges; k > 0 && k + RANGE_LOOK > r->nranges;
	     k--) {
		struct range *g = &r->ranges[k - 1];
		uint64_t end = g->addr + g->len;
		if (addr >= g->addr && addr <= end + RANGE_GAP) {
			if (addr + len > end)
				g->len = addr + len - g->addr;
			return;
		}
	}
	if (r->nranges == r->cap_ranges) {
		size_t c = r->cap_ranges ? r->cap_ranges * 2 : 256;
		struct range *p = realloc(r->ranges, c * sizeof(*p));
		if (!p) {
			r->lost = true;
			return;
		}
		r->ranges = p;
		r->cap_ranges = c;
	}
	r->ranges[r->nranges++] = (struct range){ addr, len };
}

// The hash of the bytes of @p v[0..n) read now from @p mem, through its
// cache, with @p b to read into; false when one of them cannot be read
// (or out of memory).
static bool
hash_mem(struct irs_memory *mem, struct irs_buf *b, const struct range *v,
	 size_t n, uint64_t *ret)
{
	uint64_t h = 0;
	for (size_t k = 0; k < n; k++) {
		// in one cached page (most): hashed where it lies
		const uint8_t *p = irs_memory_peek_tlb(mem, v[k].addr,
						       v[k].len);
		if (p) {
			h = XXH3_64bits_withSeed(p, v[k].len, h);
			continue;
		}
		if (!irs_walk_room(b, v[k].len))
			return false;
		struct irs_error *err = irs_memory_read(mem, v[k].addr,
							b->data, v[k].len);
		if (err) {
			irs_error_destroy(err);
			return false;
		}
		h = XXH3_64bits_withSeed(b->data, v[k].len, h);
	}
	*ret = h;
	return true;
}

static bool
hash_ranges(struct walk *w, const struct range *v, size_t n, uint64_t *ret)
{
	return hash_mem(w->mem, &w->ucache->bytes, v, n, ret);
}

bool
irs_unit_cache_whole_unchanged(struct irs_unit_cache *c,
			       struct irs_memory *mem, uint64_t root)
{
	uint64_t h;
	const struct unit *u = c->whole && c->whole == root
			       ? table_find(&c->last, root) : NULL;
	return u && hash_mem(mem, &c->bytes, u->ranges, u->nranges, &h) &&
	       h == u->hash;
}

// Emits the unit at @p addr from the last walk when the bytes it read
// read the same and the walk is where that unit's walk began (none of its nodes
// visited yet, every node it found visited visited now); true when done.
bool
irs_units_reuse(struct walk *w, uint64_t addr)
{
	struct irs_unit_cache *c = w->ucache;
	struct unit *u = table_find(&c->last, addr);
	if (!u)
		return false;
	if (w->nodes + u->nodes > w->lim.max_nodes ||
	    w->bytes + u->bytes > w->lim.max_bytes ||
	    w->steps + u->steps > w->max_steps ||
	    irs_sink_pos(w->text) + u->len > w->lim.max_text)
		return false;	// the walk meets the limit: say where
	for (size_t k = 0; k < u->nadded; k++)
		if (irs_visited_has(&w->visited, u->added[k]))
			return false;
	uint64_t h;
	if (!hash_ranges(w, u->ranges, u->nranges, &h) || h != u->hash)
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
	w->steps += u->steps;
	if (w->steps >= w->next_tick)
		irs_walk_tick(w);
	// moved on; the slot keeps its address so probes still pass it
	struct unit moved = *u;
	memset(u, 0, sizeof(*u));
	u->addr = moved.addr;
	if (!table_put(&c->next, &moved))
		unit_free(&moved);
	c->reused++;
	return true;
}

struct irs_unit_rec *
irs_units_begin(struct walk *w, uint64_t addr, size_t size)
{
	struct irs_unit_rec *r = &w->ucache->rec;
	r->addr = addr;
	r->added.n = r->seen.n = 0;
	r->nranges = 0;
	r->lost = false;
	r->start = irs_sink_pos(w->text);
	r->flushed = w->text->flushed;
	r->nfail = w->nfail;
	r->nodes = w->nodes;
	r->bytes = w->bytes;
	r->reads = w->reads;
	r->steps = w->steps;
	w->urec = r;
	// Its own struct and those of the frames around it were read before
	// it began, and its text may use them (a table the enclosing node
	// points to): their bytes count too.
	irs_units_note_read(w, addr, size);
	for (uint32_t d = 0; d < w->depth; d++)
		irs_units_note_read(w, w->frames[d]->addr,
				    w->frames[d]->size);
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
// text: the ranges, the node lists, then the text (for alignment).
static bool
unit_keep(struct unit *u, const struct irs_unit_rec *r, const char *text,
	  size_t len)
{
	size_t ranges = r->nranges * sizeof(*r->ranges);
	size_t added = r->added.n * sizeof(uint64_t);
	size_t seen = r->seen.n * sizeof(uint64_t);
	unsigned char *p = malloc(ranges + added + seen + len + 1);
	if (!p)
		return false;
	memset(u, 0, sizeof(*u));
	u->addr = r->addr;
	u->block = p;
	u->ranges = put(p, r->ranges, ranges);
	u->nranges = r->nranges;
	u->added = put(p + ranges, r->added.v, added);
	u->nadded = r->added.n;
	u->seen = put(p + ranges + added, r->seen.v, seen);
	u->nseen = r->seen.n;
	u->text = put(p + ranges + added + seen, text, len);
	u->len = len;
	u->nodes = r->nodes;
	u->bytes = r->bytes;
	u->reads = r->reads;
	u->steps = r->steps;
	return true;
}

void
irs_units_end(struct walk *w, struct irs_unit_rec *r)
{
	struct irs_unit_cache *c = w->ucache;
	w->urec = NULL;
	c->walked++;
	struct irs_sink *s = w->text;
	uint64_t end = irs_sink_pos(s);
	// the text must still be in the sink's buffer
	uint64_t h;
	if (r->lost || w->nfail != r->nfail || w->stop || w->fatal ||
	    s->failed || r->start < s->flushed ||
	    !hash_ranges(w, r->ranges, r->nranges, &h))
		return;
	// the counts the unit added, for unit_keep()
	r->nodes = w->nodes - r->nodes;
	r->bytes = w->bytes - r->bytes;
	r->reads = w->reads - r->reads;
	r->steps = w->steps - r->steps;
	struct unit u;
	if (!unit_keep(&u, r, s->buf + (r->start - s->flushed),
		       (size_t)(end - r->start)))
		return;
	u.hash = h;
	if (!table_put(&c->next, &u))
		unit_free(&u);
}

uint32_t
irs_unit_cache_type(const struct irs_unit_cache *c)
{
	return c->type;
}
