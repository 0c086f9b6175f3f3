// The IR's bytes at a pass's entry, kept so the pass's input can still be
// walked once the pass has changed (or wrecked) the IR: a default trace
// writes the JSON graph only where a failure asks for it, and by then the
// IR in memory is the crash's. A walk is a function of the layout, the
// root and the bytes it reads (mem.h, "What a walk read"), and the print
// of the walk at the pass's entry lists every byte it read, so a walk over
// a copy of those bytes writes what a walk at the entry would have.
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "run/run.h"

// One run of readable bytes, [addr, addr + len).
struct span {
	uint64_t addr, len;
	uint8_t *data;		// into img->data
};

struct irs_image {
	unsigned refs;
	struct irs_image_pool *pool;	// takes data back; or NULL
	struct span *spans;	// sorted, disjoint
	size_t nspans;
	uint8_t *data;
	uint64_t bytes;
	uint64_t cap;		// of data
};

static int
by_addr(const void *a, const void *b)
{
	const struct irs_mem_range *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct irs_error *
irs_image_capture(struct irs_memory *mem, const struct irs_mem_print *p,
		  struct irs_image_pool *pool, struct irs_image **ret)
{
	struct irs_error *err = NULL;
	if (p->lost || !p->n)
		return irs_error_format(IRS_ERROR_STATE, "no print of the "
					"walk to keep");
	struct irs_mem_range *r = malloc(p->n * sizeof(*r));
	struct irs_image *img = calloc(1, sizeof(*img));
	if (!r || !img) {
		free(r);
		free(img);
		return &irs_enomem;
	}
	memcpy(r, p->ranges, p->n * sizeof(*r));
	qsort(r, p->n, sizeof(*r), by_addr);
	// The readable part of each range, merged where they overlap (a page
	// read again after the cache let it go) or touch.
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++) {
		uint64_t a = r[i].addr, e = r[i].addr + r[i].valid;
		if (a == e)
			continue;
		if (n && a <= r[n - 1].addr + r[n - 1].valid) {
			uint64_t pe = r[n - 1].addr + r[n - 1].valid;
			if (e > pe)
				r[n - 1].valid = e - r[n - 1].addr;
			continue;
		}
		r[n].addr = a;
		r[n].valid = e - a;
		n++;
	}
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += r[i].valid;
	img->refs = 1;
	img->pool = pool;
	img->spans = calloc(n ? n : 1, sizeof(*img->spans));
	// A buffer the pool kept, already faulted in: a fresh one of the
	// IR's size costs more in page faults than the copy itself.
	if (pool && pool->data && pool->cap >= total) {
		img->data = pool->data;
		img->cap = pool->cap;
		pool->data = NULL;
	} else {
		// room to grow: the next pass's IR may be a little larger
		img->data = malloc(total + total / 8 + 1);
		img->cap = total + total / 8 + 1;
	}
	if (!img->spans || !img->data) {
		err = &irs_enomem;
		goto out;
	}
	uint8_t *at = img->data;
	struct iovec *iov = malloc((n ? n : 1) * sizeof(*iov));
	for (size_t i = 0; i < n; i++) {
		img->spans[i] = (struct span){ r[i].addr, r[i].valid, at };
		if (iov)
			iov[i] = (struct iovec){(void *)(uintptr_t)r[i].addr,
						r[i].valid};
		at += r[i].valid;
	}
	// All at once (one system call for a process), else span by span.
	struct irs_error *gerr = iov ? irs_memory_gather(mem, iov, n,
							 img->data)
				     : &irs_enomem;
	if (gerr != &irs_enomem)
		irs_error_destroy(gerr);
	for (size_t i = 0; gerr && i < n && !err; i++)
		err = irs_memory_read(mem, r[i].addr, img->spans[i].data,
				      r[i].valid);
	free(iov);
	img->nspans = n;
	img->bytes = total;
out:
	free(r);
	if (err) {
		img->refs = 1;
		irs_image_unref(img);
		return err;
	}
	*ret = img;
	return NULL;
}

struct irs_image *
irs_image_ref(struct irs_image *img)
{
	if (img)
		img->refs++;
	return img;
}

void
irs_image_unref(struct irs_image *img)
{
	if (!img || --img->refs)
		return;
	struct irs_image_pool *pool = img->pool;
	if (pool && img->data && (!pool->data || pool->cap < img->cap)) {
		free(pool->data);
		pool->data = img->data;
		pool->cap = img->cap;
		img->data = NULL;
	}
	free(img->spans);
	free(img->data);
	free(img);
}

void
irs_image_pool_deinit(struct irs_image_pool *pool)
{
	free(pool->data);
	memset(pool, 0, sizeof(*pool));
}

uint64_t
irs_image_bytes(const struct irs_image *img)
{
	return img ? img->bytes : 0;
}

static const struct span *find(const struct irs_image *img, uint64_t addr);

bool
irs_image_matches(const struct irs_image *img, const struct irs_mem_print *p,
		  struct irs_memory *mem)
{
	if (p->lost || !p->n)
		return false;
	for (size_t i = 0; i < p->n; i++) {
		const struct irs_mem_range *r = &p->ranges[i];
		if (r->valid) {
			// its readable part lies in one span: they are merged
			const struct span *s = find(img, r->addr);
			if (!s || r->valid > s->len - (r->addr - s->addr) ||
			    XXH3_64bits(s->data + (r->addr - s->addr),
					r->valid) != r->hash)
				return false;
		} else if (XXH3_64bits(NULL, 0) != r->hash) {
			return false;
		}
		// what was unreadable must be still
		uint8_t byte;
		struct irs_error *err = r->valid < r->len ?
			irs_memory_read(mem, r->addr + r->valid, &byte, 1) :
			NULL;
		bool faults = err && irs_error_get_code(err) == IRS_ERROR_FAULT;
		irs_error_destroy(err);
		if (r->valid < r->len && !faults)
			return false;
	}
	return true;
}

/* {==== A memory source reading the image ================================ */

struct image_source {
	struct irs_mem_source base;
	struct irs_image *img;		// a reference
	struct irs_memory *live;	// or NULL: see irs_image_memory()
	const struct irs_proc_range *fixed;
	size_t nfixed;
};

// Whether [addr, addr + n) lies in one of @p is's fixed ranges.
static bool
in_fixed(const struct image_source *is, uint64_t addr, uint64_t n)
{
	for (size_t i = 0; i < is->nfixed; i++)
		if (addr >= is->fixed[i].start && addr < is->fixed[i].end &&
		    n <= is->fixed[i].end - addr)
			return true;
	return false;
}

// The span holding @p addr, or NULL.
static const struct span *
find(const struct irs_image *img, uint64_t addr)
{
	size_t lo = 0, hi = img->nspans;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct span *s = &img->spans[mid];
		if (addr < s->addr)
			hi = mid;
		else if (addr - s->addr >= s->len)
			lo = mid + 1;
		else
			return s;
	}
	return NULL;
}

static struct irs_error *
image_read(struct irs_mem_source *src, uint64_t address, void *buf,
	   uint64_t count, uint64_t *done)
{
	const struct image_source *is = (struct image_source *)src;
	const struct irs_image *img = is->img;
	uint64_t got = 0;
	while (got < count) {
		uint64_t at = address + got;
		const struct span *s = find(img, at);
		if (!s) {
			// Not kept, but in memory nobody writes (the
			// program's .rodata): it reads now as it did then.
			// To the end of the page at most: the rest may be
			// kept.
			uint64_t k = IRS_PAGE_SIZE - (at & (IRS_PAGE_SIZE - 1));
			k = k < count - got ? k : count - got;
			if (!is->live || !in_fixed(is, at, k))
				break;
			struct irs_error *err = irs_memory_read(
				is->live, at, (uint8_t *)buf + got, k);
			if (err) {
				irs_error_destroy(err);
				break;
			}
			got += k;
			continue;
		}
		uint64_t off = at - s->addr;
		uint64_t k = s->len - off < count - got ? s->len - off
							: count - got;
		memcpy((uint8_t *)buf + got, s->data + off, k);
		got += k;
	}
	*done = got;
	if (got == count)
		return NULL;
	return irs_error_fault(address + got, "not kept from the pass's "
			       "entry (format auto keeps what its text read; "
			       "format both keeps every field)");
}

static void
image_destroy(struct irs_mem_source *src)
{
	struct image_source *is = (struct image_source *)src;
	irs_image_unref(is->img);
	free(is);
}

static const struct irs_mem_source_ops image_ops = {
	.read = image_read,
	.readv = NULL,
	.destroy = image_destroy,
};

struct irs_error *
irs_image_memory(struct irs_image *img, struct irs_memory *live,
		 const struct irs_proc_range *fixed, size_t nfixed,
		 struct irs_memory **ret)
{
	struct image_source *is = calloc(1, sizeof(*is));
	if (!is)
		return &irs_enomem;
	is->base.ops = &image_ops;
	is->base.kind = "image";
	is->img = irs_image_ref(img);
	is->live = live;
	is->fixed = fixed;
	is->nfixed = nfixed;
	return irs_memory_create_source(&is->base, ret);	// owns is
}

/* }==== */
