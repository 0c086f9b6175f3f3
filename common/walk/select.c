// select { ... } (layout/select.c): the elements of another sequence of
// the frame that hold a condition, mapped through a path to the node each
// names, sorted by an integer of that node when asked. Computed once per
// frame (with the frame's other sequence information) into the walk's
// select buffer, which a walk only appends to; reading only, visiting
// nothing.
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

struct keyed {
	int64_t key;
	uint64_t i;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);	// stable
}

static bool
append(struct walk *w, uint64_t v)
{
	if (w->nsel == w->capsel) {
		size_t cap = w->capsel ? 2 * w->capsel : 256;
		uint64_t *p = realloc(w->sel, cap * sizeof(*p));
		if (!p) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return false;
		}
		w->sel = p;
		w->capsel = cap;
	}
	w->sel[w->nsel++] = v;
	return true;
}

// The node element @p e (at @p a, its bytes @p d or NULL) of `from` names:
// its address, or 0.
static uint64_t
element(struct walk *w, const struct lselect *sel, uint64_t a,
	const unsigned char *d)
{
	if (!sel->eptr)
		return a;
	const struct lfield *e = sel->from->seq->elem;
	uint64_t p = 0;
	if (d) {
		memcpy(&p, d + e->at.offset, 8);
	} else {
		struct irs_error *err = irs_walk_read(w, a + e->at.offset, &p,
						      8);
		irs_error_destroy(err);
		if (err)
			return 0;
	}
	return (p & e->mask) ? (p & e->mask) - e->past : 0;
}

// The node the path of @p sel maps frame @p ef to, or 0.
static uint64_t
mapped(struct walk *w, struct frame *ef, const struct lselect *sel)
{
	if (!sel->map.npath)
		return ef->addr;
	uint32_t np;
	struct frame *g = irs_walk_follow(w, ef, &sel->map, &np);
	uint64_t r = g ? irs_load_ptr(g, sel->map.path[sel->map.npath - 1])
		: 0;
	irs_walk_unfollow(w, np);
	return r;
}

// Sorts the @p n results from w->sel[@p start] by their sort key.
static void
sort_results(struct walk *w, const struct lfield *fd, size_t start, size_t n)
{
	const struct lselect *sel = fd->seq->sel;
	const struct ltype *rt = &w->lo->types[fd->seq->elem->type];
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));
	uint64_t *copy = malloc((n ? n : 1) * sizeof(*copy));
	if (!k || !copy) {
		free(k);
		free(copy);
		w->fatal = &irs_enomem;
		w->stop = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		k[i].i = i;
		k[i].key = 0;
		struct frame *rf = irs_walk_push(w, rt, w->sel[start + i], NULL,
						 fd);
		if (rf) {
			if (!irs_walk_value(w, rf, &sel->sort, &k[i].key))
				irs_walk_error(w, fd, rf->addr, "no sort key "
					       "for %s at 0x%llx", rt->name,
					       (unsigned long long)rf->addr);
			irs_walk_pop(w);
		}
	}
	qsort(k, n, sizeof(*k), cmp_keyed);
	memcpy(copy, w->sel + start, n * sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		w->sel[start + i] = copy[k[i].i];
	free(k);
	free(copy);
}

void
irs_select_compute(struct walk *w, struct frame *f, const struct lfield *fd,
		   struct seqinfo *si)
{
	const struct lselect *sel = fd->seq->sel;
	const struct ltype *et = &w->lo->types[sel->etype];
	size_t start = w->nsel;
	struct seq_iter it;
	uint64_t a;
	const unsigned char *d;
	irs_seq_begin(w, f, sel->from, &it);
	while (irs_seq_next(w, &it, &a, &d)) {
		uint64_t ea = element(w, sel, a, d);
		if (!ea)
			continue;
		struct frame *ef = irs_walk_push(w, et, ea, sel->eptr ? NULL
						 : d, fd);
		if (!ef)
			continue;	// said where it was read
		uint64_t r = !sel->where || irs_walk_cond(w, ef, sel->where)
			? mapped(w, ef, sel) : 0;
		irs_walk_pop(w);
		if (r && !append(w, r))
			return;
		if (w->stop)
			return;
	}
	if (sel->sort.npath)
		sort_results(w, fd, start, w->nsel - start);
	si->base = start;
	si->n = w->nsel - start;
}
