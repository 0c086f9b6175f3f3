// Sequences: how many elements there are (an absurd count, a NULL array, a
// list cycle or an unreadable link is an error at that node, found before
// any element is rendered, so every pass over the sequence agrees; a long
// list of nodes visited in order is measured a little ahead of the visit
// instead, see irs_seq_begin_visit), and stepping through them. Arrays are
// read in bulk, so a node's operand array costs one read, not one per
// operand.
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

enum {
	CHUNK_BYTES = 16 << 10,
	// a list visited in order is measured this many elements ahead
	LIST_AHEAD = 64,
};

static bool
cacheable(const struct frame *f, const struct lfield *fd)
{
	return f->t && fd >= f->t->fields &&
	       fd < f->t->fields + f->t->nfields;
}

static uint64_t
read_u64(struct walk *w, uint64_t addr, bool *ok)
{
	uint64_t v = 0;
	struct irs_error *err = irs_walk_read(w, addr, &v, 8);
	*ok = !err;
	irs_error_destroy(err);
	return v;
}

/* {====================================================== lists */

// The links of a list point at the link member of each element.
static uint64_t
list_first(const struct frame *f, const struct lseq *s, uint64_t *end)
{
	if (s->sentinel) {
		uint64_t first;
		memcpy(&first, f->data + s->head_next_off, 8);
		*end = f->addr + s->base.offset;
		return first;
	}
	*end = 0;
	return irs_load_u(f->data, &s->base);
}

static bool
list_next(struct walk *w, const struct lseq *s, uint64_t link,
	  uint64_t *next)
{
	bool ok;
	*next = read_u64(w, link - s->link_off + s->next_off, &ok);
	return ok;
}

// Brent's cycle finding on the chain from @p first: *lam is the cycle's
// length once found; returns the number of distinct elements before the
// chain comes back (mu + lambda).
static uint64_t
cycle_extent(struct walk *w, const struct lseq *s, uint64_t first,
	     uint64_t lam, uint64_t *back)
{
	uint64_t tortoise = first, hare = first, mu = 0;
	for (uint64_t i = 0; i < lam; i++)
		if (!list_next(w, s, hare, &hare))
			return lam;
	while (tortoise != hare) {
		if (!list_next(w, s, tortoise, &tortoise) ||
		    !list_next(w, s, hare, &hare))
			return lam;
		mu++;
	}
	*back = tortoise;
	return mu + lam;
}

// The next and prev links of the element whose link is at @p link, in
// one read when they are side by side.
static bool
list_links(struct walk *w, const struct lseq *s, uint64_t link,
	   uint64_t *next, uint64_t *prev)
{
	uint64_t elem = link - s->link_off;
	bool ok;
	if (!s->has_prev)
		return list_next(w, s, link, next);
	uint32_t lo = s->next_off < s->prev_off ? s->next_off : s->prev_off;
	uint32_t hi = s->next_off < s->prev_off ? s->prev_off : s->next_off;
	if (hi - lo != 8) {
		*next = read_u64(w, elem + s->next_off, &ok);
		if (ok)
			*prev = read_u64(w, elem + s->prev_off, &ok);
		return ok;
	}
	uint64_t two[2];
	struct irs_error *err = irs_walk_read(w, elem + lo, two, 16);
	if (err) {
		irs_error_destroy(err);
		return false;
	}
	*next = two[s->next_off == lo ? 0 : 1];
	*prev = two[s->prev_off == lo ? 0 : 1];
	return true;
}

// Checks elem.prev == @p expected once per list (a broken invariant).
static void
check_prev(struct walk *w, const struct lfield *fd, uint64_t link,
	   uint64_t prev, uint64_t expected, uint64_t k, bool *reported)
{
	const struct lseq *s = fd->seq;
	uint64_t elem = link - s->link_off;
	if (prev == expected || *reported)
		return;
	*reported = true;
	irs_walk_error(w, fd, elem, "list broken: element %llu at 0x%llx has "
		       "prev 0x%llx, expected 0x%llx",
		       (unsigned long long)k, (unsigned long long)elem,
		       (unsigned long long)prev,
		       (unsigned long long)expected);
}

// Starts measuring the list @p fd of @p f.
static void
list_start(const struct frame *f, const struct lseq *s, struct seqinfo *si)
{
	si->first = list_first(f, s, &si->end);
	si->cur = si->first;
	si->prev = si->end;
	si->tortoise = si->first;
	si->power = 1;
	si->lam = 1;
	si->more = si->cur != si->end;
}

// Goes on measuring list @p fd until @p upto elements are known or it
// ends: NULL link, absurd length, unreadable element, a cycle (found by
// Brent's method, whose state lives in @p si between calls), or the
// sentinel.
static void
list_advance(struct walk *w, const struct lfield *fd, struct seqinfo *si,
	     uint64_t upto)
{
	const struct lseq *s = fd->seq;
	uint64_t cur = si->cur, prev = si->prev, n = si->n, end = si->end;
	uint64_t tortoise = si->tortoise, power = si->power, lam = si->lam;
	bool more = si->more;
	while (more && n < upto) {
		more = false;
		if (n && !(n & 4095) && irs_walk_interrupted(w))
			break;
		if (!cur) {
			irs_walk_error(w, fd, 0, "list broken: NULL link "
				       "after %llu elements",
				       (unsigned long long)n);
			si->bad = SEQ_NULL;
			break;
		}
		if (n >= IRS_MAX_SEQ) {
			irs_walk_error(w, fd, cur, "list of more than %llu "
				       "elements", IRS_MAX_SEQ);
			si->bad = SEQ_COUNT;
			si->bad_addr = n;
			break;
		}
		uint64_t next, up = 0;
		if (!list_links(w, s, cur, &next, &up)) {
			if (w->stop)
				break;
			irs_walk_error(w, fd, cur - s->link_off, "unreadable "
				       "list element at 0x%llx (element %llu)",
				       (unsigned long long)(cur - s->link_off),
				       (unsigned long long)n);
			si->bad = SEQ_FAULT;
			si->bad_addr = cur - s->link_off;
			break;
		}
		if (s->has_prev && (n > 0 || s->sentinel))
			check_prev(w, fd, cur, up, prev, n, &si->reported);
		n++;
		if (next == end)
			break;
		if (next == tortoise) {
			uint64_t back = next;
			n = cycle_extent(w, s, si->first, lam, &back);
			irs_walk_error(w, fd, back - s->link_off, "list cycle: "
				       "element %llu links back to 0x%llx",
				       (unsigned long long)(n - 1),
				       (unsigned long long)(back -
							    s->link_off));
			si->bad = SEQ_CYCLE;
			si->bad_addr = back - s->link_off;
			break;
		}
		if (power == lam) {
			tortoise = next;
			power *= 2;
			lam = 0;
		}
		lam++;
		prev = cur;
		cur = next;
		more = true;
	}
	si->cur = cur;
	si->prev = prev;
	si->n = n;
	si->tortoise = tortoise;
	si->power = power;
	si->lam = lam;
	si->more = more;
}

/* }====================================================== */

// An array's first index: 0, or what its `first` field holds (negative
// ones are taken as 0: an index below the pointer is no element).
static uint64_t
array_first(const struct frame *f, const struct lseq *s)
{
	if (!s->has_first)
		return 0;
	if (s->first.is_signed && irs_load_i(f->data, &s->first) < 0)
		return 0;
	return irs_load_u(f->data, &s->first);
}

// Where element 0 of an array (nullterm, range: the pointer) lies.
static uint64_t
array_base(const struct frame *f, const struct lseq *s)
{
	return irs_load_u(f->data, &s->base) + array_first(f, s) * s->stride;
}

static void
nullterm_length(struct walk *w, struct frame *f, const struct lfield *fd,
		struct seqinfo *si)
{
	const struct lseq *s = fd->seq;
	uint64_t base = irs_load_u(f->data, &s->base);
	unsigned char buf[512];
	uint64_t n = 0;
	if (!base)
		return;
	for (;;) {
		if (n && irs_walk_interrupted(w)) {
			si->n = n;
			return;
		}
		uint64_t a = base + n * s->stride;
		size_t room = 4096 - (a & 4095);
		size_t k = (room < sizeof(buf) ? room : sizeof(buf)) /
			   s->stride;
		if (k == 0)
			k = 1;
		struct irs_error *err = irs_walk_read(w, a, buf, k * s->stride);
		if (err) {
			if (err->code != IRS_ERROR_LIMIT)
				irs_walk_error(w, fd, a, "unreadable array "
					       "element at 0x%llx",
					       (unsigned long long)a);
			irs_error_destroy(err);
			si->bad = SEQ_FAULT;
			si->bad_addr = a;
			si->n = n;
			return;
		}
		for (size_t i = 0; i < k; i++) {
			if (!irs_load_u(buf + i * s->stride, &s->elem->at)) {
				si->n = n;
				return;
			}
			if (++n > IRS_MAX_SEQ) {
				irs_walk_error(w, fd, base, "no NULL in the "
					       "first %llu elements",
					       IRS_MAX_SEQ);
				si->bad = SEQ_COUNT;
				si->bad_addr = n;
				si->n = 0;
				return;
			}
		}
	}
}

static bool
check_count(struct walk *w, const struct lfield *fd, uint64_t n,
	    struct seqinfo *si)
{
	if (n <= IRS_MAX_SEQ)
		return true;
	irs_walk_error(w, fd, 0, "count %llu exceeds the limit of %llu "
		       "elements", (unsigned long long)n, IRS_MAX_SEQ);
	si->bad = SEQ_COUNT;
	si->bad_addr = n;
	return false;
}

// The bases of a zip's arrays, or of a placed array (place.c), checked:
// element 0 of the first in si->base.
static void
placed_bases(struct walk *w, struct frame *f, const struct lfield *fd,
	     uint64_t n, struct seqinfo *si)
{
	const struct lseq *s = fd->seq;
	for (uint32_t k = 0; k < (s->kind == SEQ_ZIP ? s->ncomps : 1); k++) {
		const struct lloc *b = s->kind == SEQ_ZIP
			? &s->comps[k].base : &s->base;
		const struct lplace *pl = s->kind == SEQ_ZIP
			? s->comps[k].place : s->place;
		uint64_t base = 0;
		if (pl && !irs_place_base(w, f, pl, b, n, s->kind == SEQ_ZIP
					  ? s->comps[k].stride : s->stride, fd,
					  &base, &si->reverse)) {
			si->bad = SEQ_FAULT;
			si->bad_addr = base;
			return;
		}
		if (!pl)
			base = irs_load_u(f->data, b);
		if (k == 0)
			si->base = base;
		// (an array of a zip with a count of its own may be absent)
		if (n && !base && !(s->kind == SEQ_ZIP && s->comps[k].count)) {
			irs_walk_error(w, fd, 0, "NULL array with a count of "
				       "%llu", (unsigned long long)n);
			si->bad = SEQ_NULL;
			return;
		}
	}
	si->n = n;
}

// Measures sequence @p fd of @p f; a list only up to @p upto elements
// (it may go on later, see irs_seq_begin_visit).
static void
compute(struct walk *w, struct frame *f, const struct lfield *fd,
	struct seqinfo *si, uint64_t upto)
{
	const struct lseq *s = fd->seq;
	switch (s->kind) {
	case SEQ_FIXED:
		si->n = s->fixed_count;
		return;
	case SEQ_ARRAY: case SEQ_ZIP: {
		uint64_t n;
		// a sequence that is there only when its owner says so
		if (s->present && !irs_walk_cond(w, f, s->present)) {
			si->n = 0;
			return;
		}
		if (s->count.is_signed && irs_load_i(f->data, &s->count) < 0) {
			irs_walk_error(w, fd, 0, "negative count %lld",
				       (long long)irs_load_i(f->data,
							     &s->count));
			si->bad = SEQ_COUNT;
			si->bad_addr = (uint64_t)irs_load_i(f->data, &s->count);
			return;
		}
		n = irs_load_u(f->data, &s->count);
		if (s->length) {	// through pointers
			int64_t v;
			if (!irs_walk_value(w, f, s->length, &v) || v < 0) {
				irs_walk_error(w, fd, 0, "no length for the "
					       "array");
				si->bad = SEQ_COUNT;
				return;
			}
			n = (uint64_t)v;
		}
		if (s->kind == SEQ_ARRAY && s->has_first) {
			uint64_t first = array_first(f, s);
			if (n < first) {
				irs_walk_error(w, fd, 0, "end index %llu is "
					       "below the first, %llu",
					       (unsigned long long)n,
					       (unsigned long long)first);
				si->bad = SEQ_COUNT;
				si->bad_addr = n;
				return;
			}
			n -= first;
		}
		if (s->drop || s->limit || s->divide) {
			n = n > s->drop ? n - s->drop : 0;
			if (s->divide)
				n /= s->divide;
			if (s->limit && n > s->limit)
				n = s->limit;
		}
		if (!check_count(w, fd, n, si))
			return;
		if (s->kind == SEQ_ARRAY && !s->place) {	// the usual one
			if (n && !irs_load_u(f->data, &s->base)) {
				irs_walk_error(w, fd, 0, "NULL array with a "
					       "count of %llu",
					       (unsigned long long)n);
				si->bad = SEQ_NULL;
				return;
			}
			si->n = n;
			return;
		}
		placed_bases(w, f, fd, n, si);
		return;
	}
	case SEQ_RANGE: {
		uint64_t b = irs_load_u(f->data, &s->base);
		uint64_t e = irs_load_u(f->data, &s->count);
		if (e < b || (e - b) % s->stride) {
			irs_walk_error(w, fd, b, "bad range 0x%llx..0x%llx for "
				       "elements of %u bytes",
				       (unsigned long long)b,
				       (unsigned long long)e, s->stride);
			si->bad = SEQ_COUNT;
			si->bad_addr = e - b;
			return;
		}
		if (check_count(w, fd, (e - b) / s->stride, si))
			si->n = (e - b) / s->stride;
		return;
	}
	case SEQ_NULLTERM:
		nullterm_length(w, f, fd, si);
		return;
	case SEQ_DERIVED:
		irs_derived_compute(w, f, fd, si);
		return;
	case SEQ_LIST:
		list_start(f, fd->seq, si);
		list_advance(w, fd, si, upto);
		return;
	}
}

// The node frame @p f belongs to (itself when it is one), IRS_NONE when
// it is no frame of the walk.
static uint32_t
owner_node(const struct walk *w, const struct frame *f)
{
	for (uint32_t d = w->depth; d-- > 0;)
		if (w->frames[d] == f)
			return f->is_node ? d : f->parent_node;
	return IRS_NONE;
}

// The seqinfo of @p fd in @p f, measured up to @p upto elements of a
// list at least.
static struct seqinfo *
info_upto(struct walk *w, struct frame *f, const struct lfield *fd,
	  struct seqinfo *tmp, uint64_t upto)
{
	struct seqinfo *si = cacheable(f, fd) ? &f->seqs[fd - f->t->fields]
		: tmp;
	if (si == tmp || si->gen != f->gen) {
		// the list state is set by list_start() when needed
		si->n = 0;
		si->bad_addr = 0;
		si->bad = SEQ_OK;
		si->more = false;
		si->reported = false;
		si->reverse = false;
		si->base = 0;
		si->gen = f->gen;
		// What is wrong with a sequence is said of the node holding
		// it, also when a deeper node measures it first (an Instr's
		// index into Module.consts found nconsts absurd: the Module's
		// count, not the Instr's).
		uint32_t saved = w->node_frame, owner = owner_node(w, f);
		if (owner != IRS_NONE)
			w->node_frame = owner;
		compute(w, f, fd, si, upto);
		w->node_frame = saved;
	} else if (si->more && si->n < upto) {
		list_advance(w, fd, si, upto);
	}
	return si;
}

const struct seqinfo *
irs_seq_compute(struct walk *w, struct frame *f, const struct lfield *fd,
		struct seqinfo *tmp)
{
	return info_upto(w, f, fd, tmp, UINT64_MAX);
}

// Where element (tuple) 0 of array or zip @p fd of @p f lies.
static uint64_t
si_base(struct walk *w, struct frame *f, const struct lfield *fd)
{
	struct seqinfo tmp;
	return irs_seq_info(w, f, fd, &tmp)->base;
}

void
irs_seq_begin(struct walk *w, struct frame *f, const struct lfield *fd,
	      struct seq_iter *it)
{
	struct seqinfo tmp;
	const struct lseq *s = fd->seq;
	memset(it, 0, sizeof(*it));
	it->s = s;
	it->f = fd;
	it->owner = f;
	it->n = irs_seq_info(w, f, fd, &tmp)->n;
	it->count = it->n;
	if (s->kind == SEQ_FIXED) {
		it->base = f->addr + s->base.offset;
	} else if (s->kind == SEQ_ZIP) {	// its first array names a tuple
		it->base = si_base(w, f, fd);
	} else if (s->kind == SEQ_LIST) {
		it->link = list_first(f, s, &it->sentinel);
	} else if (s->kind == SEQ_DERIVED) {	// element by element
		it->base = si_base(w, f, fd);
	} else if (s->place) {
		const struct seqinfo *si = irs_seq_info(w, f, fd, &tmp);
		it->base = si->base;
		it->reverse = si->reverse;
	} else {
		it->base = array_base(f, s);
	}
}

/*
 * A long list (a module's functions) measured whole before its first
 * element is visited would be read twice: once for its links, once for
 * its elements, far apart, when the memory cache does not hold the whole
 * IR. A pass that visits the elements in order measures it as it goes,
 * LIST_AHEAD elements ahead, which ends it at the same place: an element
 * found visited already (a cycle coming back) makes it measure the rest
 * before going on. Errors of the list are then recorded as they are met.
 */
void
irs_seq_begin_visit(struct walk *w, struct frame *f, const struct lfield *fd,
		    struct seq_iter *it)
{
	const struct lseq *s = fd->seq;
	const struct lfield *e = s->elem;
	if (s->kind != SEQ_LIST || w->detached || !cacheable(f, fd) ||
	    e->kind != LK_EMBED || !w->lo->types[e->type].node) {
		irs_seq_begin(w, f, fd, it);
		return;
	}
	struct seqinfo *si = info_upto(w, f, fd, NULL, LIST_AHEAD);
	memset(it, 0, sizeof(*it));
	it->s = s;
	it->f = fd;
	it->owner = f;
	it->n = si->n;
	it->si = si->more ? si : NULL;
	it->link = list_first(f, s, &it->sentinel);
}

// Measures more of the list being visited; false when it has no element
// @p i.
static bool
measure_more(struct walk *w, struct seq_iter *it, uint64_t upto,
	     uint64_t i)
{
	list_advance(w, it->f, it->si, upto);
	it->n = it->si->n;
	if (!it->si->more)
		it->si = NULL;
	return i < it->n;
}

// Reads elements from @p i on in one go into the owner's chunk buffer.
// An array is contiguous: at the first element that cannot be read, the
// sequence ends (it->fault, recorded), however large its count.
static bool
refill(struct walk *w, struct seq_iter *it, uint64_t i)
{
	const struct lseq *s = it->s;
	struct frame *o = it->owner;
	w->last_addr = 0;	// its bytes may live in this buffer
	uint64_t count = CHUNK_BYTES / s->stride;
	if (count == 0)
		count = 1;
	if (count > it->n - i)
		count = it->n - i;
	uint64_t start = it->base + i * s->stride;
	size_t bytes = (size_t)(count * s->stride) + s->overlap;
	if (bytes > o->chunk_cap) {
		unsigned char *p = realloc(o->chunk, bytes);
		if (!p) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return false;
		}
		o->chunk = p;
		o->chunk_cap = bytes;
	}
	uint64_t good = count;
	struct irs_error *err = irs_walk_read(w, start, o->chunk, bytes);
	if (err) {
		good = 0;
		if (err->code == IRS_ERROR_FAULT && err->address > start &&
		    err->address < start + bytes)
			good = err->address - start < s->overlap ? 0
				: (err->address - start - s->overlap) /
				  s->stride;
		bool limit = err->code == IRS_ERROR_LIMIT;
		irs_error_destroy(err);
		if (limit)
			return false;
		// the buffer is unspecified after a fault: read the good
		// elements again
		if (good && (err = irs_walk_read(w, start, o->chunk,
						 good * s->stride +
						 s->overlap))) {
			irs_error_destroy(err);
			good = 0;
		}
		it->fault = start + good * s->stride;
		irs_walk_error(w, it->f, it->fault, "unreadable element %llu "
			       "at 0x%llx", (unsigned long long)(i + good),
			       (unsigned long long)it->fault);
	}
	it->chunk_first = i;
	it->chunk_n = good;
	it->chunk_gen = ++o->chunk_gen;
	return good > 0;
}

// Tuple @p i of a zip, its elements copied side by side into the owner's
// chunk buffer; false (recorded) when one cannot be read.
static bool
zip_tuple(struct walk *w, struct seq_iter *it, uint64_t i)
{
	const struct lseq *s = it->s;
	struct frame *o = it->owner;
	w->last_addr = 0;	// its bytes may live in this buffer
	if (s->stride > o->chunk_cap) {
		unsigned char *p = realloc(o->chunk, s->stride);
		if (!p) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return false;
		}
		o->chunk = p;
		o->chunk_cap = s->stride;
	}
	o->chunk_gen++;		// another iterator's elements are gone
	for (uint32_t k = 0; k < s->ncomps; k++) {
		const struct lzip *z = &s->comps[k];
		uint64_t a = irs_load_u(o->data, &z->base);
		bool rev = false;
		int64_t own;
		if (z->count && (!irs_walk_value(w, o, z->count, &own) ||
				 own < 0 || (uint64_t)own <= z->drop ||
				 i >= (uint64_t)own - z->drop)) {
			// past its own count: zeros in its place
			memset(o->chunk + z->off, 0, z->size);
			continue;
		}
		if (z->place && !irs_place_base(w, o, z->place, &z->base,
						it->count, z->stride, it->f, &a,
						&rev)) {
			it->fault = a;
			return false;
		}
		a = rev ? a - i * z->stride : a + i * z->stride;
		struct irs_error *err = irs_walk_read(w, a, o->chunk + z->off,
						      z->size);
		if (err) {
			bool limit = err->code == IRS_ERROR_LIMIT;
			irs_error_destroy(err);
			if (limit)
				return false;
			it->fault = a;
			irs_walk_error(w, it->f, a, "unreadable element %llu "
				       "of %s at 0x%llx", (unsigned long long)i,
				       w->lo->types[s->elem->type].fields[k]
				       .name, (unsigned long long)a);
			return false;
		}
	}
	return true;
}

bool
irs_seq_next_slow(struct walk *w, struct seq_iter *it, uint64_t *addr,
		  const unsigned char **data)
{
	const struct lseq *s = it->s;
	if (w->stop || irs_walk_interrupted(w))
		return false;
	if (it->i >= it->n &&
	    (!it->si || !measure_more(w, it, it->i + LIST_AHEAD, it->i)))
		return false;
	uint64_t i = it->i++;
	*data = NULL;
	switch (s->kind) {
	case SEQ_FIXED:
		*addr = it->base + i * s->stride;
		*data = it->owner->data + s->base.offset + i * s->stride;
		return true;
	case SEQ_LIST:
		if (i > 0) {
			// the element just walked was read whole: its next
			// link is in the walker's last frame
			uint64_t elem = it->link - s->link_off;
			const unsigned char *d = w->last_data;
			if (w->last_addr == elem &&
			    s->next_off + 8 <= w->last_size &&
			    w->bytes + 8 <= w->lim.max_bytes) {
				memcpy(&it->link, d + s->next_off, 8);
				w->bytes += 8;	// as irs_seq_next() counts
			} else if (!list_next(w, s, it->link, &it->link)) {
				return false;
			}
		}
		*addr = it->link - s->link_off;
		if (it->si && irs_visited_has(&w->visited, *addr) &&
		    !measure_more(w, it, UINT64_MAX, i)) {
			it->i = it->n;
			return false;
		}
		return true;
	case SEQ_DERIVED:	// a result: the node, in a slot of its own
		it->cur = w->dbuf[it->base + i];
		*addr = 0;
		*data = (const unsigned char *)&it->cur;
		return true;
	case SEQ_ZIP:
		*addr = it->base + i * s->comps[0].stride;
		if (it->fault || !zip_tuple(w, it, i)) {
			it->i = it->n;	// the rest is not there
			return false;
		}
		*data = it->owner->chunk;
		return true;
	default:
		if (it->reverse) {	// element by element, back from the struct
			*addr = it->base - i * s->stride;
			return true;
		}
		*addr = it->base + i * s->stride;
		if (i < it->chunk_first || i >= it->chunk_first + it->chunk_n ||
		    it->chunk_gen != it->owner->chunk_gen) {
			if (it->fault || !refill(w, it, i)) {
				it->i = it->n;	// the rest is not there
				return false;
			}
		}
		*data = it->owner->chunk + (i - it->chunk_first) * s->stride;
		return true;
	}
}

struct frame *
irs_seq_owner(struct walk *w, uint32_t type)
{
	const struct ltype *t = &w->lo->types[type];
	for (uint32_t d = w->depth; d-- > 0;)
		if (w->frames[d]->t == t)
			return w->frames[d];
	return NULL;
}

bool
irs_seq_at(struct walk *w, struct frame *f, const struct lfield *fd,
	   uint64_t i, uint64_t *addr)
{
	struct seqinfo tmp;
	const struct lseq *s = fd->seq;
	if (i >= irs_seq_info(w, f, fd, &tmp)->n)
		return false;
	switch (s->kind) {
	case SEQ_FIXED:
		*addr = f->addr + s->base.offset + i * s->stride;
		return true;
	case SEQ_LIST: {
		uint64_t end, link = list_first(f, s, &end);
		for (uint64_t k = 0; k < i; k++)
			if ((k && !(k & 4095) && irs_walk_interrupted(w)) ||
			    !list_next(w, s, link, &link))
				return false;
		*addr = link - s->link_off;
		return true;
	}
	case SEQ_ZIP: case SEQ_DERIVED:	// nowhere (compile.c refuses)
		return false;
	default:
		if (s->place) {
			const struct seqinfo *si = irs_seq_info(w, f, fd, &tmp);
			*addr = si->reverse ? si->base - i * s->stride
				: si->base + i * s->stride;
			return true;
		}
		*addr = array_base(f, s) + i * s->stride;
		return true;
	}
}
