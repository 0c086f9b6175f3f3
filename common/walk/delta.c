// delta { of = "T.s", base = "b", absolute = "a", at = "pc", value = "v" }:
// a value kept as deltas from element to element (Lua 5.4's line numbers:
// lineinfo[pc] from the line before, an absolute {pc, line} in abslineinfo
// now and then). The value at element i is luaG_getfuncline's: the last
// absolute entry at or before i (else the base, before element 0) plus the
// deltas after it up to i. Elements are rendered in order, so the last
// value is kept and the next one costs one delta; any other index is
// computed from the start.
#include "walk/walk.h"

// a + b wrapping as C's unsigned arithmetic does, as {=EXPR} does: deltas
// from memory may sum past 64 bits, and a signed overflow is undefined.
static inline int64_t
wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

// Integer field @p fd of the element of sequence @p seq at @p i of @p enc
// (the element itself when @p fd is NULL: a sequence of integers).
static bool
elem_int(struct walk *w, struct frame *enc, const struct lfield *seq,
	 uint64_t i, const struct lfield *fd, int64_t *ret)
{
	uint64_t a;
	unsigned char buf[64];
	const struct lfield *e = fd ? fd : seq->seq->elem;
	size_t n = (size_t)e->at.offset + e->at.size;
	if (n > sizeof(buf) || !irs_seq_at(w, enc, seq, i, &a))
		return false;
	struct irs_error *err = irs_walk_read(w, a, buf, n);
	if (err) {
		if (err->code != IRS_ERROR_LIMIT)	// said once, stopping
			irs_walk_error(w, seq, a, "unreadable element %llu",
				       (unsigned long long)i);
		irs_error_destroy(err);
		return false;
	}
	*ret = e->at.is_signed ? irs_load_i(buf, &e->at)
		: (int64_t)irs_load_u(buf, &e->at);
	return true;
}

// The number of absolute entries, 0 when there are none.
static uint64_t
nabs(struct walk *w, struct frame *enc, const struct ldelta *d)
{
	struct seqinfo tmp;
	return d->abs ? irs_seq_info(w, enc, d->abs, &tmp)->n : 0;
}

// The value at element @p i from the start (the cache's fields set).
static bool
from_start(struct walk *w, struct frame *enc, const struct ldelta *d,
	   uint64_t i, struct irs_delta_cache *c)
{
	uint64_t n = nabs(w, enc, d), k = 0, from = 0;
	int64_t v = irs_field_int(enc, d->base), at;
	// the last entry at or before i (entries are in order)
	while (k < n) {
		if (!elem_int(w, enc, d->abs, k, d->abs_at, &at))
			return false;
		if (at < 0 || (uint64_t)at > i)
			break;
		if (!elem_int(w, enc, d->abs, k, d->abs_value, &v))
			return false;
		from = (uint64_t)at + 1;
		k++;
	}
	for (uint64_t j = from; j <= i; j++) {
		int64_t dv;
		if (!elem_int(w, enc, d->deltas, j, NULL, &dv))
			return false;
		v = wrap_add(v, dv);
	}
	c->v = v;
	c->abs_k = k;
	c->abs_at = UINT64_MAX;
	if (k < n && elem_int(w, enc, d->abs, k, d->abs_at, &at) && at >= 0)
		c->abs_at = (uint64_t)at;
	return true;
}

// The value after @p c's element, one step on.
static bool
step(struct walk *w, struct frame *enc, const struct ldelta *d,
     struct irs_delta_cache *c)
{
	uint64_t i = c->elem + 1;
	if (i == c->abs_at) {
		int64_t at;
		if (!elem_int(w, enc, d->abs, c->abs_k, d->abs_value, &c->v))
			return false;
		c->abs_k++;
		c->abs_at = UINT64_MAX;
		if (c->abs_k < nabs(w, enc, d) &&
		    elem_int(w, enc, d->abs, c->abs_k, d->abs_at, &at) &&
		    at >= 0)
			c->abs_at = (uint64_t)at;
		return true;
	}
	int64_t dv;
	if (!elem_int(w, enc, d->deltas, i, NULL, &dv))
		return false;
	c->v = wrap_add(c->v, dv);
	return true;
}

bool
irs_walk_delta(struct walk *w, const struct frame *f, const struct lfield *fd,
	       int64_t *ret)
{
	const struct ldelta *d = fd->delta;
	struct frame *enc = irs_seq_owner(w, d->owner);
	struct seqinfo tmp;
	w->ctx_uses++;		// the value depends on where we are
	if (!enc || f->elem == UINT64_MAX) {
		irs_walk_error(w, fd, 0, "no %s around this %s element",
			       enc ? "sequence" : w->lo->types[d->owner].name,
			       f->t ? f->t->name : "");
		return false;
	}
	irs_units_lost_outside(w, enc, true);	// what enc read is the unit's?
	uint64_t i = f->elem;
	if (i >= irs_seq_info(w, enc, d->deltas, &tmp)->n)
		return false;	// no deltas (NULL: no line information)
	struct irs_delta_cache *c = &w->delta;
	bool same = c->fd == fd && c->gen == enc->gen;
	if (!(same && c->elem == i)) {
		c->fd = NULL;
		if (same && c->elem + 1 == i ? !step(w, enc, d, c)
		    : !from_start(w, enc, d, i, c))
			return false;
		c->fd = fd;
		c->gen = enc->gen;
		c->elem = i;
	}
	*ret = c->v;
	return true;
}
