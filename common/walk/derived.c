// derived { ... } (layout/derived.c): the elements of another sequence of
// the frame that hold a condition, mapped through a path to the node each
// names, sorted by an integer of that node when asked. Computed once per
// frame (with the frame's other sequence information) into the walk's
// derived buffer (w->dbuf), which a walk only appends to; reading only, visiting
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
	if (w->ndbuf == w->capdbuf) {
		size_t cap = w->capdbuf ? 2 * w->capdbuf : 256;
		uint64_t *p = realloc(w->dbuf, cap * sizeof(*p));
		if (!p) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return false;
		}
		w->dbuf = p;
		w->capdbuf = cap;
	}
	w->dbuf[w->ndbuf++] = v;
	return true;
}

// The node element @p e (at @p a, its bytes @p d or NULL) of `from` names:
// its address, or 0.
static uint64_t
element(struct walk *w, const struct lderived *der, uint64_t a,
	const unsigned char *d)
{
	if (!der->eptr)
		return a;
	const struct lfield *e = der->from->seq->elem;
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

// The node the path of @p der maps frame @p ef to, or 0.
static uint64_t
mapped(struct walk *w, struct frame *ef, const struct lderived *der)
{
	if (!der->map.npath)
		return ef->addr;
	uint32_t np;
	struct frame *g = irs_walk_follow(w, ef, &der->map, &np);
	uint64_t r = g ? irs_load_ptr(g, der->map.path[der->map.npath - 1])
		: 0;
	irs_walk_unfollow(w, np);
	return r;
}

// Sorts the @p n results from w->dbuf[@p start] by their sort key.
static void
sort_results(struct walk *w, const struct lfield *fd, size_t start, size_t n)
{
	if (!n)		// nothing to order; w->dbuf may still be NULL
		return;
	const struct lderived *der = fd->seq->der;
	const struct ltype *rt = &w->lo->types[fd->seq->elem->type];
	struct keyed *k = malloc(n * sizeof(*k));
	uint64_t *copy = malloc(n * sizeof(*copy));
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
		struct frame *rf = irs_walk_push(w, rt, w->dbuf[start + i], NULL,
						 fd);
		if (rf) {
			if (!irs_walk_value(w, rf, &der->sort, &k[i].key))
				irs_walk_error(w, fd, rf->addr, "no sort key "
					       "for %s at 0x%llx", rt->name,
					       (unsigned long long)rf->addr);
			irs_walk_pop(w);
		}
	}
	qsort(k, n, sizeof(*k), cmp_keyed);
	memcpy(copy, w->dbuf + start, n * sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		w->dbuf[start + i] = copy[k[i].i];
	free(k);
	free(copy);
}

// derived { numbering = N }: the nodes N numbered, by number, that hold
// the condition.
static void
numbered(struct walk *w, struct frame *f, const struct lfield *fd,
	 struct seqinfo *si)
{
	const struct lderived *der = fd->seq->der;
	const struct ltype *et = &w->lo->types[der->etype];
	size_t start = w->ndbuf, n = 0;
	uint64_t *nodes = NULL;
	uint32_t *nums = NULL;
	si->base = start;
	si->n = 0;
	if (!irs_number_nodes(w, f, fd, der->nb, &nodes, &nums, &n))
		return;
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));
	if (!k) {
		free(nodes);
		free(nums);
		w->fatal = &irs_enomem;
		w->stop = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){ nums[i], nodes[i] };
	qsort(k, n, sizeof(*k), cmp_keyed);	// by number, ties by address
	for (size_t i = 0; i < n; i++)
		nodes[i] = k[i].i;
	free(k);
	free(nums);
	for (size_t i = 0; i < n && !w->stop; i++) {
		bool keep = true;
		if (der->where) {
			struct frame *ef = irs_walk_push(w, et, nodes[i],
							 NULL, fd);
			if (!ef)
				continue;
			keep = irs_walk_cond(w, ef, der->where);
			irs_walk_pop(w);
		}
		if (keep && !append(w, nodes[i]))
			break;
	}
	free(nodes);
	si->n = w->ndbuf - start;
}

void
irs_derived_compute(struct walk *w, struct frame *f, const struct lfield *fd,
		   struct seqinfo *si)
{
	const struct lderived *der = fd->seq->der;
	if (der->numbering) {
		numbered(w, f, fd, si);
		return;
	}
	const struct ltype *et = &w->lo->types[der->etype];
	size_t start = w->ndbuf;
	struct seq_iter it;
	uint64_t a;
	const unsigned char *d;
	irs_seq_begin(w, f, der->from, &it);
	while (irs_seq_next(w, &it, &a, &d)) {
		uint64_t ea = element(w, der, a, d);
		if (!ea)
			continue;
		struct frame *ef = irs_walk_push(w, et, ea, der->eptr ? NULL
						 : d, fd);
		if (!ef)
			continue;	// said where it was read
		uint64_t r = !der->where || irs_walk_cond(w, ef, der->where)
			? mapped(w, ef, der) : 0;
		irs_walk_pop(w);
		if (r && !append(w, r))
			return;
		if (w->stop)
			return;
	}
	if (der->sort.npath)
		sort_results(w, fd, start, w->ndbuf - start);
	si->base = start;
	si->n = w->ndbuf - start;
}
