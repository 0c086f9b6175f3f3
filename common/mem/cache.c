// The page cache in front of every memory source; see irsnap.h, "Memory",
// and mem.h.
//
// Pages are 4 KiB, hashed by address into slots. A slot holds one page's
// bytes and how many of them are readable from its start: 0 makes it a
// negative entry, so a repeated fault costs a lookup, not a syscall. A miss
// fills the uncached pages of its aligned read-ahead window in one source
// call. Past the capacity, a clock recycles slots. In front of the hash sits
// a small direct-mapped table of recently used pages (the "TLB"): the walker
// reads a few bytes at a time, millions of times, and a read inside a page
// it holds is a subtraction, two compares and a memcpy. A small cache
// remembers its pages when it is emptied ("recall"): a trace empties it at
// every boundary, then walks the same function's few pages again, and
// the first miss among them reads them all in one source call.
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <xxhash.h>

#include "mem/mem.h"

enum {
	NTLB = IRS_MEMORY_NTLB,	// recent pages, direct-mapped; power of 2
	CHUNK_SHIFT = 8,	// slots per allocation of page data: 1 MiB
	NREASONS = 64,		// distinct fault reasons remembered
	MIN_SLOTS = 8,
	RECALL_MAX = 16,	// pages recalled; a cache of more recalls none
};
#define NONE UINT32_MAX
#define NO_REASON UINT16_MAX
#define PAGE_MASK (IRS_PAGE_SIZE - 1)
// A read this large goes straight to the source: it would only push out
// the pages the walk is using, and copying it twice costs more than a call.
#define DIRECT_MIN ((uint64_t)256 << 10)

enum slot_state { SLOT_FREE, SLOT_PINNED, SLOT_USED };

struct slot {
	uint64_t page;		// address of the page, when used
	uint32_t next;		// hash chain, NONE at its end
	uint16_t valid;		// readable bytes from the page start
	uint16_t reason;	// why the rest is not: index into reasons
	uint8_t state;		// enum slot_state
	uint8_t ref;		// clock: looked up since the hand passed
	uint8_t touched;	// read since it was filled (recall)
	uint8_t unrecorded;	// recalled, recorded when first read
};

struct irs_memory {
	struct irs_mem_tlb tlb[NTLB];	// first: all the fast path touches
	struct irs_mem_source *src;
	struct slot *slots;
	uint32_t nslots;	// the capacity, in pages
	uint32_t nused;		// slots handed out since the last reset
	uint32_t hand;		// the clock's
	uint32_t *buckets;	// slot index or NONE
	uint32_t bucket_bits;
	uint32_t *free;		// slots a short fill gave back
	uint32_t nfree;
	uint32_t *pinned;	// the slots of the fill under way
	uint8_t **chunks;	// page data, 1 << CHUNK_SHIFT slots each
	uint32_t nchunks;
	uint32_t window_pages;	// read-ahead, a power of two
	bool ramp;		// irs_memory_set_ramp()
	uint64_t filled;	// bytes filled since the last reset
	uint8_t *bounce;	// window bytes, for sources without readv
	struct iovec *iov;	// window_pages entries, for those with it
	char *reasons[NREASONS];
	uint32_t nreasons;
	bool debug;
	uint64_t recall[RECALL_MAX];	// pages used before the last resets
	uint32_t nrecall;
	uint32_t nrecall_last;	// of them, those of the last reset's
	bool recalled;		// tried since the last reset
	uint8_t *recall_buf;	// RECALL_MAX pages, made on first use
	struct irs_mem_print *rec;	// recording into, or NULL
	XXH3_state_t *rec_hash;		// for fills, made on first use
	struct irs_memory_stats stats;
};

// irs_memory_peek_tlb() (mem.h) finds the TLB at the start.
_Static_assert(offsetof(struct irs_memory, tlb) == 0,
	       "the TLB comes first in struct irs_memory");

/* {=========== slots and the hash ======================================= */

static uint8_t *
slot_data(const struct irs_memory *mem, uint32_t i)
{
	return mem->chunks[i >> CHUNK_SHIFT] +
	       ((uint64_t)(i & ((1u << CHUNK_SHIFT) - 1)) << IRS_PAGE_SHIFT);
}

static uint32_t
bucket_of(const struct irs_memory *mem, uint64_t page)
{
	uint64_t h = (page >> IRS_PAGE_SHIFT) * 0x9e3779b97f4a7c15u;
	return (uint32_t)(h >> (64 - mem->bucket_bits));
}

static uint32_t
lookup(const struct irs_memory *mem, uint64_t page)
{
	uint32_t i = mem->buckets[bucket_of(mem, page)];
	while (i != NONE && mem->slots[i].page != page)
		i = mem->slots[i].next;
	return i;
}

static void
hash_insert(struct irs_memory *mem, uint32_t i)
{
	uint32_t *head = &mem->buckets[bucket_of(mem, mem->slots[i].page)];
	mem->slots[i].next = *head;
	*head = i;
}

static void
hash_remove(struct irs_memory *mem, uint32_t i)
{
	uint32_t *p = &mem->buckets[bucket_of(mem, mem->slots[i].page)];
	while (*p != i)
		p = &mem->slots[*p].next;	// i is in this chain
	*p = mem->slots[i].next;
}

static struct irs_mem_tlb *
tlb_of(struct irs_memory *mem, uint64_t page)
{
	return &mem->tlb[(page >> IRS_PAGE_SHIFT) & (NTLB - 1)];
}

// Puts slot @p i in the TLB. The page it pushes out hands its fast-path
// hits to its ref bit, as a CPU writes back an accessed bit.
static void
tlb_set(struct irs_memory *mem, uint32_t i, const uint8_t *data)
{
	const struct slot *s = &mem->slots[i];
	struct irs_mem_tlb *e = tlb_of(mem, s->page);
	if (e->valid && e->used)
		mem->slots[e->slot].ref = 1;
	*e = (struct irs_mem_tlb){s->page, s->valid, data, i, 0};
}

// Picks a used slot to recycle: the clock's next one neither looked up
// nor hit in the TLB since the hand last passed.
// requires: no free slot left, and unpinned slots exist.
static uint32_t
evict(struct irs_memory *mem)
{
	for (;;) {
		uint32_t i = mem->hand;
		mem->hand = i + 1 == mem->nslots ? 0 : i + 1;
		struct slot *s = &mem->slots[i];
		if (s->state != SLOT_USED)
			continue;
		if (s->ref) {
			s->ref = 0;
			continue;
		}
		struct irs_mem_tlb *e = tlb_of(mem, s->page);
		bool in_tlb = e->valid && e->slot == i;
		if (in_tlb && e->used) {
			e->used = 0;
			continue;
		}
		if (in_tlb)
			memset(e, 0, sizeof(*e));
		hash_remove(mem, i);
		mem->stats.evictions++;
		mem->stats.pages--;
		return i;
	}
}

// A pinned slot with room for a page's bytes.
static struct irs_error *
alloc_slot(struct irs_memory *mem, uint32_t *ret)
{
	uint32_t i;

	if (mem->nfree)
		i = mem->free[--mem->nfree];
	else if (mem->nused < mem->nslots)
		i = mem->nused++;
	else
		i = evict(mem);
	uint8_t **chunk = &mem->chunks[i >> CHUNK_SHIFT];
	if (!*chunk) {
		*chunk = malloc(IRS_PAGE_SIZE << CHUNK_SHIFT);
		if (!*chunk) {
			mem->slots[i].state = SLOT_FREE;
			mem->free[mem->nfree++] = i;
			return &irs_enomem;
		}
	}
	mem->slots[i].state = SLOT_PINNED;
	*ret = i;
	return NULL;
}

static void
release_slot(struct irs_memory *mem, uint32_t i)
{
	mem->slots[i].state = SLOT_FREE;
	mem->free[mem->nfree++] = i;	// at most window_pages are pinned
}

// Makes pinned slot @p i hold @p page, its bytes already in it: readable
// for @p valid bytes from its start (the rest not, for @p reason), not
// read yet.
static void
slot_hold(struct irs_memory *mem, uint32_t i, uint64_t page, uint16_t valid,
	  uint16_t reason)
{
	struct slot *s = &mem->slots[i];
	s->page = page;
	s->valid = valid;
	s->reason = valid < IRS_PAGE_SIZE ? reason : NO_REASON;
	s->state = SLOT_USED;
	s->ref = 0;	// read-ahead: not used yet
	s->touched = 0;
	s->unrecorded = 0;
	hash_insert(mem, i);
	mem->stats.pages++;
}

// The index of @p why among the remembered reasons; NO_REASON when full.
static uint16_t
intern_reason(struct irs_memory *mem, const char *why)
{
	for (uint32_t i = 0; i < mem->nreasons; i++)
		if (!strcmp(mem->reasons[i], why))
			return (uint16_t)i;
	if (mem->nreasons == NREASONS)
		return NO_REASON;
	char *copy = strdup(why);
	if (!copy)
		return NO_REASON;
	mem->reasons[mem->nreasons] = copy;
	return (uint16_t)mem->nreasons++;
}

/* }=========== */

/* {=========== recording (mem.h, "What a walk read") ================= */

static void cache_reset(struct irs_memory *mem);

void
irs_mem_print_deinit(struct irs_mem_print *p)
{
	free(p->ranges);
	memset(p, 0, sizeof(*p));
}

static void
record(struct irs_memory *mem, uint64_t addr, uint64_t len, uint64_t valid,
       uint64_t hash)
{
	struct irs_mem_print *p = mem->rec;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 256;
		struct irs_mem_range *r = realloc(p->ranges, cap * sizeof(*r));
		if (!r) {
			p->lost = true;
			return;
		}
		p->ranges = r;
		p->cap = cap;
	}
	p->ranges[p->n++] = (struct irs_mem_range){addr, len, valid, hash};
}

void
irs_memory_record(struct irs_memory *mem, struct irs_mem_print *p)
{
	if (p)
		cache_reset(mem);
	mem->rec = p;
}

// Whether ranges [i, j) of @p p, all readable whole when recorded, read
// the same now, gathered in one source call where it can.
static bool
batch_matches(struct irs_memory *mem, const struct irs_mem_print *p,
	      size_t i, size_t j, struct iovec *spans, uint8_t *buf)
{
	for (size_t k = i; k < j; k++)
		spans[k - i] = (struct iovec){
			(void *)(uintptr_t)p->ranges[k].addr,
			p->ranges[k].len};
	struct irs_error *err = irs_memory_gather(mem, spans, j - i, buf);
	if (err) {
		irs_error_destroy(err);
		return false;
	}
	for (size_t k = i; k < j; buf += p->ranges[k++].len)
		if (XXH3_64bits(buf, p->ranges[k].len) != p->ranges[k].hash)
			return false;
	return true;
}

// The readable ranges of @p p in batches of at most this many bytes: a
// few system calls for a walk of one function, bounded memory for one of
// a module.
#define GATHER_BYTES ((uint64_t)4 << 20)

static bool
gathered_matches(struct irs_memory *mem, const struct irs_mem_print *p)
{
	uint64_t total = 0;
	for (size_t i = 0; i < p->n; i++)
		total += p->ranges[i].len;
	struct iovec *spans = malloc(p->n * sizeof(*spans));
	uint8_t *buf = malloc(total < GATHER_BYTES ? total : GATHER_BYTES);
	bool same = spans && buf;
	for (size_t i = 0; same && i < p->n;) {
		size_t j = i;
		uint64_t bytes = 0;
		while (j < p->n && (j == i || bytes + p->ranges[j].len <=
				    GATHER_BYTES)) {
			if (p->ranges[j].len > GATHER_BYTES) {
				same = false;	// the caller's way, then
				break;
			}
			bytes += p->ranges[j++].len;
		}
		same = same && batch_matches(mem, p, i, j, spans, buf);
		i = j;
	}
	free(spans);
	free(buf);
	return same;
}

void
irs_memory_print_refresh(struct irs_memory *mem, struct irs_mem_print *p)
{
	uint8_t *buf = NULL;
	uint64_t cap = 0;
	for (size_t i = 0; !p->lost && i < p->n; i++) {
		struct irs_mem_range *r = &p->ranges[i];
		if (r->valid > cap) {
			free(buf);
			cap = r->valid;
			if (!(buf = malloc(cap))) {
				p->lost = true;
				break;
			}
		}
		struct irs_error *err = irs_memory_read(mem, r->addr, buf,
							r->valid);
		if (err) {
			irs_error_destroy(err);
			p->lost = true;
			break;
		}
		r->hash = XXH3_64bits(buf, r->valid);
	}
	free(buf);
}

bool
irs_memory_print_matches(struct irs_memory *mem,
			 const struct irs_mem_print *p)
{
	if (!p || p->lost || !p->n)
		return false;
	// Every range readable whole when recorded (a walk that met no
	// fault): read them all together.
	bool whole = true;
	for (size_t i = 0; whole && i < p->n; i++)
		whole = p->ranges[i].valid == p->ranges[i].len &&
			p->ranges[i].len <= GATHER_BYTES;
	if (whole)
		return gathered_matches(mem, p);
	uint64_t most = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->ranges[i].len > most)
			most = p->ranges[i].len;
	uint8_t *buf = malloc(most);
	if (!buf)
		return false;
	bool same = true;
	struct irs_mem_source *src = mem->src;
	for (size_t i = 0; same && i < p->n; i++) {
		const struct irs_mem_range *r = &p->ranges[i];
		uint64_t done = 0;
		struct irs_error *err = src->ops->read(src, r->addr, buf,
						       r->len, &done);
		if (!err)
			done = r->len;
		else if (err->code != IRS_ERROR_FAULT)
			same = false;
		irs_error_destroy(err);
		if (done > r->len)
			done = r->len;
		same = same && done == r->valid &&
		       XXH3_64bits(buf, done) == r->hash;
	}
	free(buf);
	return same;
}

/* }=========== */

/* {=========== filling ================================================== */

// Reads @p n pages from @p start into pinned slots @p idx.
static struct irs_error *
source_read(struct irs_memory *mem, uint64_t start, const uint32_t *idx,
	    uint32_t n, uint64_t *done)
{
	struct irs_mem_source *src = mem->src;
	uint64_t len = (uint64_t)n << IRS_PAGE_SHIFT;

	mem->stats.source_calls++;
	if (src->ops->readv) {
		for (uint32_t k = 0; k < n; k++)
			mem->iov[k] = (struct iovec){slot_data(mem, idx[k]),
						     IRS_PAGE_SIZE};
		return src->ops->readv(src, start, mem->iov, (int)n, done);
	}
	struct irs_error *err = src->ops->read(src, start, mem->bounce, len,
					       done);
	uint64_t got = *done < len ? *done : len;
	for (uint32_t k = 0; (uint64_t)k << IRS_PAGE_SHIFT < got; k++) {
		uint64_t off = (uint64_t)k << IRS_PAGE_SHIFT;
		uint64_t m = got - off < IRS_PAGE_SIZE ? got - off
						       : IRS_PAGE_SIZE;
		memcpy(slot_data(mem, idx[k]), mem->bounce + off, m);
	}
	return err;
}

// Records a fill of pinned slots @p idx, hashing the pages in order.
static void
record_fill(struct irs_memory *mem, uint64_t start, uint64_t len,
	    uint64_t done, const uint32_t *idx)
{
	XXH3_state_t *st = mem->rec_hash;
	if (!st && !(st = mem->rec_hash = XXH3_createState())) {
		mem->rec->lost = true;
		return;
	}
	XXH3_64bits_reset(st);
	for (uint32_t k = 0; (uint64_t)k << IRS_PAGE_SHIFT < done; k++) {
		uint64_t off = (uint64_t)k << IRS_PAGE_SHIFT;
		XXH3_64bits_update(st, slot_data(mem, idx[k]),
				   done - off < IRS_PAGE_SIZE ? done - off
							      : IRS_PAGE_SIZE);
	}
	record(mem, start, len, done, XXH3_64bits_digest(st));
}

// Caches the @p n pages from @p start with one source call. On a short
// read, the pages before the fault are cached whole, the faulting one with
// its readable prefix (maybe none), and those after it are left unknown.
// *ncached_ret says how many pages, from start, are now cached.
static struct irs_error *
fill_range(struct irs_memory *mem, uint64_t start, uint32_t n,
	   uint32_t *ncached_ret)
{
	struct irs_error *err;
	uint32_t *idx = mem->pinned;	// n <= window_pages
	uint32_t k;
	uint64_t done = 0;

	for (k = 0; k < n; k++) {
		err = alloc_slot(mem, &idx[k]);
		if (err) {
			while (k--)
				release_slot(mem, idx[k]);
			return err;
		}
	}
	err = source_read(mem, start, idx, n, &done);
	if (err && err->code != IRS_ERROR_FAULT) {
		if (mem->rec)
			mem->rec->lost = true;
		for (k = 0; k < n; k++)
			release_slot(mem, idx[k]);
		return err;
	}
	uint64_t len = (uint64_t)n << IRS_PAGE_SHIFT;
	if (!err || done > len)
		done = len;
	mem->stats.source_bytes += done;
	mem->filled += len;
	if (mem->rec)
		record_fill(mem, start, len, done, idx);
	uint16_t reason = err ? intern_reason(mem, err->message) : NO_REASON;
	irs_error_destroy(err);

	uint32_t ncached = 0;
	for (k = 0; k < n; k++) {
		uint64_t off = (uint64_t)k << IRS_PAGE_SHIFT;
		if (off > done) {
			release_slot(mem, idx[k]);
			continue;
		}
		slot_hold(mem, idx[k], start + off,
			  (uint16_t)(done - off < IRS_PAGE_SIZE ? done - off
							       : IRS_PAGE_SIZE),
			  reason);
		ncached++;
	}
	*ncached_ret = ncached;
	return NULL;
}

static uint64_t
page_at(uint64_t base, uint32_t k)
{
	return base + ((uint64_t)k << IRS_PAGE_SHIFT);
}

// The read-ahead of the next fill, in pages: the window, or with ramp on
// a quarter of what was filled since the cache was emptied, from one
// page up to the window.
static uint32_t
window_now(const struct irs_memory *mem)
{
	if (!mem->ramp)
		return mem->window_pages;
	uint64_t want = mem->filled >> (IRS_PAGE_SHIFT + 2);
	uint32_t n = 1;
	while (n < mem->window_pages && 2 * (uint64_t)n <= want)
		n *= 2;
	return n;
}

static bool
recalls(const struct irs_memory *mem, uint64_t page)
{
	for (uint32_t k = 0; k < mem->nrecall; k++)
		if (mem->recall[k] == page)
			return true;
	return false;
}

// At the first miss since the cache was emptied on a page it recalls:
// every recalled page not cached, read in one gather. Nothing when the
// source cannot gather or a page no longer reads whole (fill() then
// reads as it would have). A recording gets each page when it is read.
static void
recall(struct irs_memory *mem, uint64_t page)
{
	struct irs_mem_source *src = mem->src;
	struct iovec spans[RECALL_MAX];
	uint32_t n = 0;

	mem->recalled = true;
	if (!src->ops->gather || !recalls(mem, page))
		return;
	if (!mem->recall_buf &&
	    !(mem->recall_buf = malloc(RECALL_MAX * IRS_PAGE_SIZE)))
		return;
	for (uint32_t k = 0; k < mem->nrecall; k++)
		if (lookup(mem, mem->recall[k]) == NONE)
			spans[n++] = (struct iovec){
				(void *)(uintptr_t)mem->recall[k],
				IRS_PAGE_SIZE};
	if (n < 2)
		return;		// a fill reads the one as well
	mem->stats.source_calls++;
	struct irs_error *err = src->ops->gather(src, spans, n,
						 mem->recall_buf);
	if (err) {
		irs_error_destroy(err);
		return;
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i;
		if ((err = alloc_slot(mem, &i))) {
			irs_error_destroy(err);
			return;
		}
		memcpy(slot_data(mem, i), mem->recall_buf + k * IRS_PAGE_SIZE,
		       IRS_PAGE_SIZE);
		slot_hold(mem, i, (uint64_t)(uintptr_t)spans[k].iov_base,
			  IRS_PAGE_SIZE, NO_REASON);
		// A page the walk does not read now stays out of its print.
		mem->slots[i].unrecorded = mem->rec != NULL;
		mem->stats.source_bytes += IRS_PAGE_SIZE;
	}
}

// Caches @p page, together with the uncached pages next to it in its
// aligned read-ahead window. When the window's start faults before
// @p page, a second call starts at the page itself.
static struct irs_error *
fill(struct irs_memory *mem, uint64_t page, uint32_t *ret)
{
	struct irs_error *err;
	uint32_t ncached;
	uint32_t npages = window_now(mem);
	uint64_t wsize = (uint64_t)npages << IRS_PAGE_SHIFT;
	uint64_t base = page & ~(wsize - 1);
	uint32_t at = (uint32_t)((page - base) >> IRS_PAGE_SHIFT);
	uint32_t lo = at, hi = at + 1;

	if (!mem->recalled) {
		recall(mem, page);
		uint32_t i = lookup(mem, page);
		if (i != NONE) {
			mem->stats.misses++;
			*ret = i;
			return NULL;
		}
	}
	while (lo > 0 && lookup(mem, page_at(base, lo - 1)) == NONE)
		lo--;
	while (hi < npages && lookup(mem, page_at(base, hi)) == NONE)
		hi++;
	mem->stats.misses++;
	err = fill_range(mem, page_at(base, lo), hi - lo, &ncached);
	if (err)
		return err;
	if (lo + ncached <= at) {
		err = fill_range(mem, page, hi - at, &ncached);
		if (err)
			return err;
	}
	*ret = lookup(mem, page);
	return NULL;
}

/* }=========== */

/* {=========== reading ================================================== */

static struct irs_error *
fault(const struct irs_memory *mem, uint64_t address, uint64_t count,
      uint64_t first, uint16_t reason)
{
	const char *why = reason < mem->nreasons ? mem->reasons[reason]
						 : "unreadable";
	if (first == address)
		return irs_error_fault(first, "cannot read %" PRIu64
				       " bytes at 0x%" PRIx64 ": %s",
				       count, address, why);
	return irs_error_fault(first, "cannot read %" PRIu64 " bytes at 0x%"
			       PRIx64 ": 0x%" PRIx64 " is unreadable: %s",
			       count, address, first, why);
}

// A large read, straight from the source.
static struct irs_error *
read_direct(struct irs_memory *mem, uint64_t address, void *buf,
	    uint64_t count)
{
	uint64_t done = 0;

	mem->stats.direct_reads++;
	mem->stats.source_calls++;
	struct irs_error *err = mem->src->ops->read(mem->src, address, buf,
						    count, &done);
	if (!err) {
		mem->stats.source_bytes += count;
		if (mem->rec)
			record(mem, address, count, count,
			       XXH3_64bits(buf, count));
		return NULL;
	}
	if (err->code != IRS_ERROR_FAULT) {
		if (mem->rec)
			mem->rec->lost = true;
		return err;
	}
	if (done > count)
		done = count;
	mem->stats.source_bytes += done;
	if (mem->rec)
		record(mem, address, count, done, XXH3_64bits(buf, done));
	// Word it as the cache would, with the source's reason.
	const char *why = err->message;
	struct irs_error *f;
	if (done == 0)
		f = irs_error_fault(address, "cannot read %" PRIu64
				    " bytes at 0x%" PRIx64 ": %s",
				    count, address, why);
	else
		f = irs_error_fault(address + done, "cannot read %" PRIu64
				    " bytes at 0x%" PRIx64 ": 0x%" PRIx64
				    " is unreadable: %s", count, address,
				    address + done, why);
	irs_error_destroy(err);
	return f;
}

// Kept out of line so that irs_memory_read() stays a leaf with no frame.
static __attribute__((noinline)) struct irs_error *
read_slow(struct irs_memory *mem, uint64_t address, void *buf,
	  uint64_t count)
{
	struct irs_error *err;
	uint8_t *out = buf;
	uint64_t cur = address, left = count;

	if (count == 0)
		return NULL;
	if (!mem->slots)
		return &irs_enomem;	// a failed irs_memory_configure()
	if (count - 1 > UINT64_MAX - address)
		return irs_error_fault(address, "cannot read %" PRIu64
				       " bytes at 0x%" PRIx64 ": the range "
				       "wraps around the address space",
				       count, address);
	if (count >= DIRECT_MIN)
		return read_direct(mem, address, buf, count);
	while (left) {
		uint64_t page = cur & ~PAGE_MASK;
		uint32_t i = lookup(mem, page);
		mem->stats.lookups++;
		// A page earns its ref bit by being used again after the read
		// that brought it in: a scan through many pages then pushes
		// out only pages of that scan, not the ones used over and over.
		if (i != NONE) {
			mem->slots[i].ref = 1;
		} else {
			err = fill(mem, page, &i);
			if (err)
				return err;
		}
		struct slot *s = &mem->slots[i];
		s->touched = 1;
		if (s->unrecorded && mem->rec)
			record_fill(mem, s->page, IRS_PAGE_SIZE, IRS_PAGE_SIZE,
				    &i);
		s->unrecorded = 0;
		uint64_t off = cur - page;
		if (off >= s->valid)
			return fault(mem, address, count, cur, s->reason);
		uint64_t n = s->valid - off < left ? s->valid - off : left;
		const uint8_t *data = slot_data(mem, i);
		memcpy(out, data + off, n);
		tlb_set(mem, i, data);
		out += n;
		cur += n;
		left -= n;
	}
	return NULL;
}

struct irs_error *
irs_memory_read(struct irs_memory *mem, uint64_t address, void *buf,
		uint64_t count)
{
	const uint8_t *p = irs_memory_peek_tlb(mem, address, count);
	if (p) {
		// Constant sizes compile to a load and a store, not a call.
		if (count == 8)
			memcpy(buf, p, 8);
		else if (count == 4)
			memcpy(buf, p, 4);
		else
			memcpy(buf, p, count);
		return NULL;
	}
	return read_slow(mem, address, buf, count);
}

/* }=========== */

/* {=========== lifecycle ================================================ */

// What the cache recalls after a reset: the whole pages read since the
// last, with those read before the reset before (a pass boundary reads a
// pass name, then walks the IR: two resets), when they are few.
static void
remember(struct irs_memory *mem)
{
	uint64_t keep[RECALL_MAX];
	uint32_t n = 0;
	bool many = mem->nused > 4 * RECALL_MAX;
	for (uint32_t i = 0; !many && i < mem->nused; i++) {
		const struct slot *s = &mem->slots[i];
		if (s->state != SLOT_USED || !s->touched)
			continue;
		if (n == RECALL_MAX)
			many = true;
		else if (s->valid == IRS_PAGE_SIZE)
			keep[n++] = s->page;
	}
	if (many) {
		mem->nrecall = mem->nrecall_last = 0;
		return;
	}
	if (!n)
		return;		// nothing read: the last reset's still hold
	uint32_t m = n;
	for (uint32_t k = 0; k < mem->nrecall_last && m < RECALL_MAX; k++) {
		bool dup = false;
		for (uint32_t j = 0; !dup && j < n; j++)
			dup = keep[j] == mem->recall[k];
		if (!dup)
			keep[m++] = mem->recall[k];
	}
	memcpy(mem->recall, keep, m * sizeof(*keep));
	mem->nrecall = m;
	mem->nrecall_last = n;
}

// Empties the cache, keeping its allocations for the next fills. After a
// few fills, only the TLB entries and hash chains their pages can be in
// are cleared: a trace empties the cache at every pass boundary, and
// clearing 48 KiB of tables each time cost more than a small walk's
// reads. (A slot's page is in the TLB and the hash only while the slot
// holds it: eviction takes it out of both.)
static void
cache_reset(struct irs_memory *mem)
{
	if (!mem->slots)
		return;		// nothing since a failed configure
	remember(mem);
	mem->recalled = false;
	if (mem->nused < NTLB / 8) {
		for (uint32_t i = 0; i < mem->nused; i++) {
			uint64_t page = mem->slots[i].page;
			memset(tlb_of(mem, page), 0, sizeof(struct irs_mem_tlb));
			mem->buckets[bucket_of(mem, page)] = NONE;
		}
	} else {
		memset(mem->tlb, 0, sizeof(mem->tlb));
		memset(mem->buckets, 0xff,
		       sizeof(uint32_t) << mem->bucket_bits);
	}
	for (uint32_t i = 0; i < mem->nused; i++)
		mem->slots[i].state = SLOT_FREE;
	mem->nused = 0;
	mem->nfree = 0;
	mem->hand = 0;
	for (uint32_t i = 0; i < mem->nreasons; i++)
		free(mem->reasons[i]);
	mem->nreasons = 0;
	mem->stats.pages = 0;
	mem->filled = 0;
}

static void
cache_deinit(struct irs_memory *mem)
{
	for (uint32_t i = 0; i < mem->nreasons; i++)
		free(mem->reasons[i]);
	mem->nreasons = 0;
	for (uint32_t i = 0; mem->chunks && i < mem->nchunks; i++)
		free(mem->chunks[i]);
	free(mem->chunks);
	mem->nchunks = 0;
	free(mem->slots);
	free(mem->buckets);
	free(mem->free);
	free(mem->pinned);
	free(mem->bounce);
	free(mem->iov);
	free(mem->recall_buf);
	mem->recall_buf = NULL;
	mem->nrecall = mem->nrecall_last = 0;
	mem->chunks = NULL;
	mem->slots = NULL;
	mem->buckets = NULL;
	mem->free = NULL;
	mem->pinned = NULL;
	mem->bounce = NULL;
	mem->iov = NULL;
}

// Sizes the cache for @p capacity bytes with a read-ahead of @p window.
static struct irs_error *
cache_init(struct irs_memory *mem, uint64_t capacity, uint32_t window)
{
	uint64_t nslots = capacity >> IRS_PAGE_SHIFT;
	if (nslots < MIN_SLOTS)
		nslots = MIN_SLOTS;
	if (nslots > UINT32_MAX / 2)
		nslots = UINT32_MAX / 2;
	uint32_t wp = 1;
	while ((uint64_t)wp << (IRS_PAGE_SHIFT + 1) <= window &&
	       wp * 2 <= nslots / 4 && wp * 2 <= IOV_MAX)
		wp *= 2;
	uint32_t bits = 4;
	while (((uint64_t)1 << bits) < nslots)
		bits++;

	memset(mem->tlb, 0, sizeof(mem->tlb));
	mem->nslots = (uint32_t)nslots;
	mem->window_pages = wp;
	mem->bucket_bits = bits;
	mem->nchunks = (uint32_t)((nslots + (1u << CHUNK_SHIFT) - 1) >>
				  CHUNK_SHIFT);
	mem->slots = calloc(nslots, sizeof(*mem->slots));
	mem->buckets = malloc(sizeof(uint32_t) << bits);
	mem->free = malloc(wp * sizeof(*mem->free));
	mem->pinned = malloc(wp * sizeof(*mem->pinned));
	mem->chunks = calloc(mem->nchunks, sizeof(*mem->chunks));
	if (mem->src->ops->readv)
		mem->iov = malloc(wp * sizeof(*mem->iov));
	else
		mem->bounce = malloc((uint64_t)wp << IRS_PAGE_SHIFT);
	if (!mem->slots || !mem->buckets || !mem->free || !mem->pinned ||
	    !mem->chunks ||
	    (!mem->iov && !mem->bounce)) {
		cache_deinit(mem);
		return &irs_enomem;
	}
	mem->nused = mem->nfree = mem->hand = 0;
	memset(mem->buckets, 0xff, sizeof(uint32_t) << bits);
	mem->stats.pages = 0;
	mem->stats.capacity = nslots << IRS_PAGE_SHIFT;
	mem->stats.window = wp << IRS_PAGE_SHIFT;
	return NULL;
}

struct irs_error *
irs_memory_create_source(struct irs_mem_source *src, struct irs_memory **ret)
{
	struct irs_error *err;

	struct irs_memory *mem = calloc(1, sizeof(*mem));
	if (!mem) {
		src->ops->destroy(src);
		return &irs_enomem;
	}
	mem->src = src;
	mem->debug = irs_debug('M');
	err = cache_init(mem, IRS_MEMORY_CAPACITY, IRS_MEMORY_WINDOW);
	if (err) {
		irs_memory_destroy(mem);
		return err;
	}
	*ret = mem;
	return NULL;
}

static void
debug_stats(const struct irs_memory *mem, const char *when)
{
	const struct irs_memory_stats *s = &mem->stats;
	fprintf(stderr, "irsnap: memory (%s) %s: %" PRIu64 " lookups, %"
		PRIu64 " misses, %" PRIu64 " source calls, %" PRIu64
		" bytes, %" PRIu64 " evictions, %" PRIu64 " pages cached\n",
		mem->src->kind, when, s->lookups, s->misses, s->source_calls,
		s->source_bytes, s->evictions, s->pages);
}

void
irs_memory_destroy(struct irs_memory *mem)
{
	if (!mem)
		return;
	if (mem->debug)
		debug_stats(mem, "destroyed");
	cache_deinit(mem);
	XXH3_freeState(mem->rec_hash);
	mem->src->ops->destroy(mem->src);
	free(mem);
}

struct irs_error *
irs_memory_gather(struct irs_memory *mem, const struct iovec *spans,
		  size_t n, void *buf)
{
	struct irs_mem_source *src = mem->src;
	if (src->ops->gather) {
		mem->stats.source_calls++;
		struct irs_error *err = src->ops->gather(src, spans, n, buf);
		if (!err)
			return NULL;
		irs_error_destroy(err);		// one by one, to say where
	}
	char *out = buf;
	for (size_t i = 0; i < n; i++) {
		uint64_t done = 0;
		mem->stats.source_calls++;
		struct irs_error *err = src->ops->read(src,
			(uint64_t)(uintptr_t)spans[i].iov_base, out,
			spans[i].iov_len, &done);
		if (err)
			return err;
		out += spans[i].iov_len;
	}
	return NULL;
}

void
irs_memory_set_ramp(struct irs_memory *mem, bool on)
{
	mem->ramp = on;
}

void
irs_memory_invalidate(struct irs_memory *mem)
{
	if (!mem)
		return;
	if (mem->debug)
		debug_stats(mem, "invalidated");
	cache_reset(mem);
}

struct irs_error *
irs_memory_configure(struct irs_memory *mem, uint64_t capacity,
		     uint32_t window)
{
	if (window && (window & (window - 1)))
		return irs_error_format(IRS_ERROR_USAGE, "memory cache: "
					"read-ahead %" PRIu32 " is not a "
					"power of two", window);
	if (!capacity)
		capacity = mem->stats.capacity;
	if (!window)
		window = mem->stats.window;
	cache_deinit(mem);
	return cache_init(mem, capacity, window);
}

void
irs_memory_get_stats(const struct irs_memory *mem,
		     struct irs_memory_stats *ret)
{
	*ret = mem->stats;
}

const char *
irs_memory_kind(const struct irs_memory *mem)
{
	return mem->src->kind;
}

/* }=========== */

/* {=========== constructors ============================================= */

struct irs_error *
irs_memory_create_target(const struct irs_target *t, struct irs_memory **ret)
{
	struct irs_mem_source *src;
	struct irs_error *err = irs_mem_target_source(t, &src);
	if (err)
		return err;
	return irs_memory_create_source(src, ret);
}

struct irs_error *
irs_memory_create_pid(int64_t pid, struct irs_memory **ret)
{
	struct irs_mem_source *src;
	struct irs_error *err = irs_mem_pid_source(pid, &src);
	if (err)
		return err;
	return irs_memory_create_source(src, ret);
}

struct irs_error *
irs_memory_create_core(const char *core_path, const char *const *files,
		       struct irs_memory **ret)
{
	struct irs_mem_source *src;
	struct irs_error *err = irs_mem_core_source(core_path, files, &src);
	if (err)
		return err;
	return irs_memory_create_source(src, ret);
}

const char *
irs_memory_notice(const struct irs_memory *mem)
{
	return mem->src->notice;
}

// The files a core's mapped pages may be read from: the program the user
// named, then what the debugger loaded. NULL-terminated, freed with
// irs_shell_words_free(); NULL on OOM.
static char **
target_files(const struct irs_target *t)
{
	size_t n = 0, cap = 8;
	char **v = calloc(cap + 1, sizeof(*v));
	if (v && t->exe_path && *t->exe_path && !(v[n++] = strdup(t->exe_path)))
		goto oom;
	for (uint32_t i = 0; v && t->module && i < 65536; i++) {
		char path[4096] = "";
		struct irs_error *err = t->module(t->arg, i, path, sizeof(path));
		if (err) {
			irs_error_destroy(err);	// NOT_FOUND: the last one
			break;
		}
		path[sizeof(path) - 1] = '\0';
		if (!*path)
			continue;
		if (n == cap) {
			char **nv = realloc(v, (2 * cap + 1) * sizeof(*v));
			if (!nv)
				goto oom;
			v = nv;
			cap *= 2;
		}
		if (!(v[n++] = strdup(path)))
			goto oom;
		v[n] = NULL;
	}
	return v;
oom:
	irs_shell_words_free(v);
	return NULL;
}

// create_best passes over a reader that failed; says why under
// IRSNAP_DEBUG=M and frees @p err.
static void
passed_over(struct irs_error *err, const char *what)
{
	if (irs_debug('M'))
		fprintf(stderr, "irsnap: memory: not reading %s: %s\n", what,
			err->message);
	irs_error_destroy(err);
}

struct irs_error *
irs_memory_create_best(const struct irs_target *t, struct irs_memory **ret)
{
	struct irs_error *err;

	// A core file first: GDB still reports the dead process's pid, and
	// that pid may belong to someone else by now.
	if (t->core_path && *t->core_path) {
		char **files = target_files(t);
		if (!files)
			return &irs_enomem;
		err = irs_memory_create_core(t->core_path,
					     (const char *const *)files, ret);
		irs_shell_words_free(files);
		if (!err || !t->read)
			return err;
		passed_over(err, "the core file directly");
	} else if (t->pid > 0 && irs_mem_pid_matches(t->pid, t->exe_path)) {
		err = irs_memory_create_pid(t->pid, ret);
		if (!err || !t->read)
			return err;
		passed_over(err, "the process directly");
	}
	if (!t->read)
		return irs_error_format(IRS_ERROR_STATE, "cannot read the "
					"debuggee's memory: no live process, "
					"core file or read callback");
	return irs_memory_create_target(t, ret);
}

/* }=========== */
