// Where a placed sequence's elements lie (layout/place.c compiles the
// placement): before its struct, after it, behind a pointer outside it,
// past bytes computed from its fields, or as the alternative placement
// says when its flag is set. A pointer outside the struct costs one read;
// the rest is arithmetic on the struct's address and fields.
#include "walk/walk.h"

// The bytes placement @p pl skips, from frame @p f's fields.
static uint64_t
skipped(const struct frame *f, const struct lplace *pl)
{
	uint64_t skip = 0;	// wraps as C's unsigned arithmetic does
	for (uint32_t i = 0; i < pl->nskip; i++) {
		const struct lterm *t = &pl->skip[i];
		uint64_t v = t->has_at ? (uint64_t)(t->at.is_signed
			? irs_load_i(f->data, &t->at)
			: (int64_t)irs_load_u(f->data, &t->at)) : 1;
		skip += v * (uint64_t)t->k;
	}
	return skip;
}

uint64_t
irs_place_after(const struct frame *f, const struct lplace *pl)
{
	return f->addr + f->size + skipped(f, pl);
}

bool
irs_place_base(struct walk *w, const struct frame *f, const struct lplace *pl,
	       const struct lloc *ptr, uint64_t n, uint32_t stride,
	       const struct lfield *fd, uint64_t *base, bool *reverse)
{
	if (pl->alt && irs_load_u(f->data, &pl->when))
		pl = pl->alt;
	uint64_t skip = skipped(f, pl);
	*reverse = pl->reverse;
	switch (pl->at) {
	case PLACE_BEFORE:
		*base = f->addr - skip - (pl->reverse ? 1 : n) * stride;
		return true;
	case PLACE_AFTER:
		*base = f->addr + f->size + skip;
		return true;
	default: {
		uint64_t p;
		if (pl->ptr_outside) {
			uint64_t at = f->addr + (uint64_t)(int64_t)pl->ptr_off;
			struct irs_error *err = irs_walk_read(w, at, &p, 8);
			if (err) {
				if (err->code != IRS_ERROR_LIMIT)
					irs_walk_error(w, fd, at, "unreadable "
						       "pointer at 0x%llx",
						       (unsigned long long)at);
				irs_error_destroy(err);
				*base = at;	// where it went wrong
				return false;
			}
		} else {
			p = irs_load_u(f->data, ptr);
		}
		*base = p ? p + skip : 0;
		return true;
	}
	}
}
