// Casts (layout/cast.c): once a struct with a cast is read, its tag picks
// the struct the node really is, and the frame becomes that: read again
// when it is larger, its fields, text and record the case's. The tag may
// lie behind pointers (an MLIR type's TypeID in its AbstractType) and a
// case's key may be an address the debuggee fixed when it loaded
// (address.c). A case may cast again (8 steps at most).
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

// The type the tag of @p f picks (the frame's own when none does).
static const struct ltype *
pick(struct walk *w, struct frame *f, const struct lcast *k)
{
	const struct irs_layout *lo = w->lo;
	int64_t v;
	if (!irs_walk_value(w, f, &k->by, &v)) {
		irs_walk_error(w, NULL, f->addr, "%s at 0x%llx: its tag %s "
			       "cannot be read", f->t->name,
			       (unsigned long long)f->addr,
			       k->by.path[k->by.npath - 1]->name);
		return f->t;
	}
	if (k->dense && v >= k->dense_min &&
	    (uint64_t)(v - k->dense_min) < k->ndense &&
	    k->dense[v - k->dense_min] != IRS_NONE)
		return &lo->types[k->dense[v - k->dense_min]];
	// every address is found (once a walk) before any is compared, so
	// that which of them cannot be does not depend on the tag
	uint64_t a;
	for (uint32_t i = 0; i < k->ncases; i++)
		if (k->addrs[i] != IRS_NONE)
			irs_walk_address(w, k->addrs[i], &a);
	for (uint32_t i = 0; i < k->ncases; i++)
		if (k->addrs[i] == IRS_NONE ? k->values[i] == v
		    : irs_walk_address(w, k->addrs[i], &a) &&
		      a == (uint64_t)v)
			return &lo->types[k->types[i]];
	return k->deflt != IRS_NONE ? &lo->types[k->deflt] : f->t;
}

// Makes frame @p f a @p sub: room for its fields' sequence info, and its
// bytes when it is larger. False when they cannot be read (recorded).
static bool
become(struct walk *w, struct frame *f, const struct ltype *sub,
       const struct lfield *via)
{
	if (sub->nfields > f->nseqs) {
		struct seqinfo *s = realloc(f->seqs,
					    sub->nfields * sizeof(*s));
		if (!s)
			goto oom;
		memset(s + f->nseqs, 0, (sub->nfields - f->nseqs) * sizeof(*s));
		f->seqs = s;
		f->nseqs = sub->nfields;
	}
	if (sub->size > f->size) {
		if (sub->size > f->cap) {
			unsigned char *p = realloc(f->own, sub->size);
			if (!p)
				goto oom;
			f->own = p;
			f->cap = sub->size;
		}
		struct irs_error *err = irs_walk_read(w, f->addr, f->own,
						      sub->size);
		if (err) {
			if (err->code != IRS_ERROR_LIMIT)
				irs_walk_error(w, via, f->addr, "unreadable "
					       "0x%llx as %s (%u bytes)",
					       (unsigned long long)f->addr,
					       sub->name, sub->size);
			irs_error_destroy(err);
			return false;
		}
		f->data = f->own;
	}
	f->t = sub;
	f->size = sub->size;
	return true;
oom:
	w->fatal = &irs_enomem;
	w->stop = true;
	return false;
}

struct frame *
irs_cast_frame(struct walk *w, struct frame *f, const struct lfield *via)
{
	for (unsigned step = 0; step < 8 && f->t->cast; step++) {
		const struct ltype *sub = pick(w, f, f->t->cast);
		if (sub == f->t)
			break;
		if (!become(w, f, sub, via)) {
			w->depth--;	// the push fails as an unreadable one
			return NULL;
		}
	}
	return f;
}
