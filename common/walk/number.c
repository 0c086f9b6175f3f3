// Numberings (layout/number.c): the numbers a printer gives nodes it has
// no name for. When a walk first renders a num field inside a scope node
// (a Function, an MLIR op: the outermost one on the walk's stack, since an
// op's regions hold ops), the numbering runs over that scope in the
// printer's own order, reading only, and keeps every number in a table by
// address; later num fields in the same scope look theirs up. A walk keeps
// the tables of the last few scopes it met.
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

enum { NTABS = 4 };

// One numbering over one scope node: address -> number, counter.
struct numtab {
	uint32_t numbering;
	uint64_t scope;		// 0: unused
	uint64_t *keys;		// 0: empty slot
	uint32_t *nums;
	uint8_t *ctrs;
	size_t mask, n;
	uint64_t used;		// when it was last asked (LRU)
};

struct irs_numcache {
	struct numtab tabs[NTABS];
	uint64_t clock;
};

static void
tab_clear(struct numtab *t)
{
	free(t->keys);
	free(t->nums);
	free(t->ctrs);
	memset(t, 0, sizeof(*t));
}

void
irs_number_forget(struct walk *w)
{
	if (!w->nums)
		return;
	for (int i = 0; i < NTABS; i++)
		tab_clear(&w->nums->tabs[i]);
	free(w->nums);
	w->nums = NULL;
}

static inline size_t
slot_of(uint64_t key, size_t mask)
{
	return (size_t)((key >> 3) * 0x9e3779b97f4a7c15ull >> 20) & mask;
}

static bool
tab_grow(struct numtab *t)
{
	size_t cap = t->mask ? 2 * (t->mask + 1) : 64;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint32_t *nums = malloc(cap * sizeof(*nums));
	uint8_t *ctrs = malloc(cap);
	if (!keys || !nums || !ctrs) {
		free(keys);
		free(nums);
		free(ctrs);
		return false;
	}
	for (size_t i = 0; t->mask && i <= t->mask; i++) {
		if (!t->keys[i])
			continue;
		size_t s = slot_of(t->keys[i], cap - 1);
		while (keys[s])
			s = (s + 1) & (cap - 1);
		keys[s] = t->keys[i];
		nums[s] = t->nums[i];
		ctrs[s] = t->ctrs[i];
	}
	free(t->keys);
	free(t->nums);
	free(t->ctrs);
	t->keys = keys;
	t->nums = nums;
	t->ctrs = ctrs;
	t->mask = cap - 1;
	return true;
}

// The slot of @p key (empty when it has none).
static size_t
tab_find(const struct numtab *t, uint64_t key)
{
	size_t s = slot_of(key, t->mask);
	while (t->keys[s] && t->keys[s] != key)
		s = (s + 1) & t->mask;
	return s;
}

/* {====================================================== running */

struct deferred {
	uint64_t addr;
	const struct lnumstep *step;
	uint64_t elem;		// its index in its sequence
};

struct nrun {
	struct walk *w;
	const struct lnumbering *nb;
	struct numtab *tab;
	uint32_t ctr[IRS_NUM_COUNTERS];
	struct irs_visited entered;	// each node entered once
	struct deferred *defer;
	size_t ndefer, capdefer;
	bool failed;			// out of memory
};

static void run_level(struct nrun *r, struct frame *f,
		      struct lnumstep *const *steps, uint32_t n);
static void run_steps(struct nrun *r, struct frame *f,
		      struct lnumstep *const *steps, uint32_t n);

static void
number(struct nrun *r, uint64_t addr, uint8_t counter)
{
	struct numtab *t = r->tab;
	if ((t->n + 1) * 4 > (t->mask + 1) * 3 && !tab_grow(t)) {
		r->failed = true;
		return;
	}
	size_t s = tab_find(t, addr);
	if (t->keys[s])
		return;		// numbered already: first visit wins
	t->keys[s] = addr;
	t->nums[s] = r->ctr[counter]++;
	t->ctrs[s] = counter;
	t->n++;
}

static void run_step(struct nrun *r, struct frame *f,
		     const struct lnumstep *s);

// A node entered as its step's struct: a struct and its first member (a
// zip's tuple and its first array's element) are two.
static inline uint64_t
entered_key(uint64_t addr, const struct lnumstep *s)
{
	return addr ^ ((uint64_t)(s->etype + 1) << 48);
}

// Marks node @p addr of step @p s entered; false when it was (or on
// failure, recorded).
static bool
enter(struct nrun *r, const struct lnumstep *s, uint64_t addr)
{
	bool added;
	if (!irs_visited_add(&r->entered, entered_key(addr, s), &added)) {
		r->failed = true;
		return false;
	}
	return added;
}

// Visits node @p addr (its bytes @p data, or NULL) of step @p s, element
// @p k of its sequence (UINT64_MAX: none), for {=#} in conditions;
// @p claimed: marked entered already (claim = true).
static void
visit(struct nrun *r, const struct lnumstep *s, uint64_t addr,
      const void *data, uint64_t k, bool claimed)
{
	struct walk *w = r->w;
	if (!addr || r->failed || w->stop)
		return;
	if (!claimed && !enter(r, s, addr))
		return;
	w->next_elem = k;
	struct frame *ef = irs_walk_push(w, &w->lo->types[s->etype], addr,
					 data, NULL);
	w->next_elem = UINT64_MAX;
	if (!ef)
		return;		// said where it was read
	if (!s->only || irs_walk_cond(w, ef, s->only)) {
		if (s->number && (!s->when || irs_walk_cond(w, ef, s->when)))
			number(r, addr, s->counter);
		run_steps(r, ef, s->steps, s->nsteps);
		if (s->recurse)
			run_step(r, ef, s);
	}
	irs_walk_pop(w);
}

static void
defer(struct nrun *r, const struct lnumstep *s, uint64_t addr, uint64_t k)
{
	if (!addr)
		return;
	if (r->ndefer == r->capdefer) {
		size_t cap = r->capdefer ? 2 * r->capdefer : 32;
		struct deferred *p = realloc(r->defer, cap * sizeof(*p));
		if (!p) {
			r->failed = true;
			return;
		}
		r->defer = p;
		r->capdefer = cap;
	}
	r->defer[r->ndefer++] = (struct deferred){ addr, s, k };
}

// The node an element (at @p a, bytes @p d) of sequence field @p fd is.
static uint64_t
element_node(struct walk *w, const struct lfield *fd, uint64_t a,
	     const unsigned char *d, const void **data)
{
	const struct lfield *e = fd->seq->elem;
	*data = NULL;
	if (e->kind == LK_EMBED) {
		*data = d;
		return a;
	}
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
	p &= e->mask;
	return p ? p - e->past : 0;
}

// claim = true: the nodes of sequence @p fd of frame @p g not entered yet
// are marked entered, then visited in order (the others are someone
// else's to enter, wherever that is). Marked from the last, as LLVM's
// TypeFinder pushes a type's subtypes on its worklist: a node listed
// twice is entered where it is listed last.
static void
claim_seq(struct nrun *r, struct frame *g, const struct lfield *fd,
	  const struct lnumstep *s)
{
	struct walk *w = r->w;
	struct seq_iter it;
	uint64_t a;
	const unsigned char *d;
	uint64_t *nodes = NULL;
	size_t n = 0, cap = 0;
	irs_seq_begin(w, g, fd, &it);
	for (uint64_t k = 0; !r->failed && irs_seq_next(w, &it, &a, &d); k++) {
		const void *data;
		uint64_t node = element_node(w, fd, a, d, &data);
		if (!node)
			continue;
		if (n + 2 > cap) {
			size_t c = cap ? 2 * cap : 16;
			uint64_t *p = realloc(nodes, c * sizeof(*p));
			if (!p) {
				r->failed = true;
				break;
			}
			nodes = p;
			cap = c;
		}
		nodes[n++] = node;
		nodes[n++] = k;
	}
	for (size_t i = n; i > 0 && !r->failed; i -= 2)
		if (!enter(r, s, nodes[i - 2]))
			nodes[i - 2] = 0;	// entered: someone else's
	// (read again when visited: the element bytes the iterator gave are
	// gone by then)
	for (size_t i = 0; i < n && !r->failed && !w->stop; i += 2)
		visit(r, s, nodes[i], NULL, nodes[i + 1], true);
	free(nodes);
}

static void
run_step(struct nrun *r, struct frame *f, const struct lnumstep *s)
{
	struct walk *w = r->w;
	if (s->if_ && !irs_walk_cond(w, f, s->if_))
		return;
	uint32_t np;
	struct frame *g = irs_walk_follow(w, f, &s->path, &np);
	const struct lfield *last = s->path.path[s->path.npath - 1];
	if (!g) {
		irs_walk_unfollow(w, np);
		return;
	}
	if (last->kind == LK_SEQ && s->claim) {
		claim_seq(r, g, last, s);
	} else if (last->kind == LK_SEQ) {
		struct seq_iter it;
		uint64_t a;
		const unsigned char *d;
		irs_seq_begin(w, g, last, &it);
		for (uint64_t k = 0; !r->failed &&
		     irs_seq_next(w, &it, &a, &d); k++) {
			const void *data;
			uint64_t node = element_node(w, last, a, d, &data);
			if (s->nest)
				defer(r, s, node, k);
			else
				visit(r, s, node, data, k, false);
		}
	} else if (last->kind == LK_SHAPE) {	// a lookup: the value found
		uint64_t v;
		bool found;
		const struct lfield *as = last->shape->lookup->as;
		if (irs_lookup_find(w, g, last, &v, &found) && found) {
			uint64_t node = v;
			if (as->kind != LK_EMBED) {
				struct irs_error *err = irs_walk_read(w, v, &node,
								      8);
				if (err)
					node = 0;
				irs_error_destroy(err);
			}
			if (s->nest)
				defer(r, s, node, UINT64_MAX);
			else
				visit(r, s, node, NULL, UINT64_MAX, false);
		}
	} else if (last->kind == LK_EMBED) {
		uint64_t a = g->addr + last->at.offset;
		if (s->nest)
			defer(r, s, a, UINT64_MAX);
		else
			visit(r, s, a, g->data + last->at.offset, UINT64_MAX,
			      false);
	} else {
		uint64_t p = irs_load_ptr(g, last);
		if (s->nest)
			defer(r, s, p, UINT64_MAX);
		else
			visit(r, s, p, NULL, UINT64_MAX, false);
	}
	irs_walk_unfollow(w, np);
}

static void
run_steps(struct nrun *r, struct frame *f, struct lnumstep *const *steps,
	  uint32_t n)
{
	for (uint32_t i = 0; i < n && !r->failed && !r->w->stop; i++)
		run_step(r, f, steps[i]);
}

// Numbers one level: its steps, then each node they deferred (nest) as a
// level of its own whose counters start where this one's stopped.
static void
run_level(struct nrun *r, struct frame *f, struct lnumstep *const *steps,
	  uint32_t n)
{
	struct walk *w = r->w;
	size_t mark = r->ndefer;
	run_steps(r, f, steps, n);
	size_t end = r->ndefer;
	uint32_t at_end[IRS_NUM_COUNTERS];
	memcpy(at_end, r->ctr, sizeof(at_end));
	for (size_t i = mark; i < end && !r->failed && !w->stop; i++) {
		struct deferred d = r->defer[i];
		for (uint32_t k = 0; k < IRS_NUM_COUNTERS; k++)
			r->ctr[k] = r->nb->reset_mask & (1u << k) ? 0
				: at_end[k];
		bool added;
		if (!irs_visited_add(&r->entered, entered_key(d.addr, d.step),
				     &added)) {
			r->failed = true;
			break;
		}
		if (!added)
			continue;
		w->next_elem = d.elem;
		struct frame *ef = irs_walk_push(w, &w->lo->types[
						 d.step->etype], d.addr, NULL,
						 NULL);
		w->next_elem = UINT64_MAX;
		if (!ef)
			continue;
		if (!d.step->only || irs_walk_cond(w, ef, d.step->only)) {
			if (d.step->number && (!d.step->when ||
					       irs_walk_cond(w, ef,
							     d.step->when)))
				number(r, d.addr, d.step->counter);
			run_level(r, ef, d.step->steps, d.step->nsteps);
		}
		irs_walk_pop(w);
	}
	r->ndefer = mark;
	memcpy(r->ctr, at_end, sizeof(at_end));
}

// Runs numbering @p nb over scope frame @p sf into @p t.
static void
compute(struct walk *w, const struct lnumbering *nb, struct frame *sf,
	struct numtab *t)
{
	struct nrun r = { .w = w, .nb = nb, .tab = t };
	irs_visited_init(&r.entered);
	uint32_t saved = w->detached;
	w->detached++;		// reading only
	if (!tab_grow(t))
		r.failed = true;
	else
		run_level(&r, sf, nb->steps, nb->nsteps);
	w->detached = saved;
	irs_visited_deinit(&r.entered);
	free(r.defer);
	if (r.failed) {
		w->fatal = &irs_enomem;
		w->stop = true;
	}
}

/* }====================================================== */

// The table of numbering @p k over scope frame @p sf, computed when new.
static struct numtab *
table_of(struct walk *w, struct frame *sf, uint32_t k)
{
	const struct lnumbering *nb = &w->lo->numberings[k];
	// (a node is numbered by the one scope it is in, so its number does
	// not depend on where the walk renders it: renderings that show it
	// may be kept)
	if (!w->nums && !(w->nums = calloc(1, sizeof(*w->nums)))) {
		w->fatal = &irs_enomem;
		w->stop = true;
		return NULL;
	}
	struct irs_numcache *c = w->nums;
	struct numtab *lru = &c->tabs[0];
	for (int i = 0; i < NTABS; i++) {
		struct numtab *t = &c->tabs[i];
		if (t->scope == sf->addr && t->numbering == k) {
			t->used = ++c->clock;
			return t;
		}
		if (t->used < lru->used)
			lru = t;
	}
	tab_clear(lru);
	lru->numbering = k;
	lru->scope = sf->addr;
	lru->used = ++c->clock;
	compute(w, nb, sf, lru);
	return w->stop ? NULL : lru;
}

// The table of numbering @p k for the scope around frame @p f; NULL when
// there is no scope (the error recorded).
static struct numtab *
table(struct walk *w, struct frame *f, const struct lfield *fd, uint32_t k)
{
	const struct lnumbering *nb = &w->lo->numberings[k];
	// the outermost: a scope may hold nodes of its own type (an MLIR
	// op's regions hold ops), which it numbers
	struct frame *sf = NULL;
	for (uint32_t d = 0; d < w->depth && !sf; d++)
		if (w->frames[d]->t && w->frames[d]->t->index == nb->scope)
			sf = w->frames[d];
	if (!sf) {
		irs_walk_error(w, fd, f->addr, "numbering \"%s\": no enclosing "
			       "%s", nb->name, w->lo->types[nb->scope].name);
		return NULL;
	}
	return table_of(w, sf, k);
}

// The table of the scope field @p sfd of frame @p f names (num { scope =
// F }): that scope's frame if the walk is in it, else one pushed for the
// time of the numbering (reading only). NULL: no scope (error recorded).
static struct numtab *
table_named(struct walk *w, struct frame *f, const struct lfield *fd,
	    const struct lfield *sfd, uint32_t k)
{
	const struct lnumbering *nb = &w->lo->numberings[k];
	uint64_t p = irs_load_ptr(f, sfd);
	if (!p) {
		irs_walk_error(w, fd, f->addr, "numbering \"%s\": its scope "
			       "'%s' is NULL", nb->name, sfd->name);
		return NULL;
	}
	for (uint32_t d = 0; d < w->depth; d++)
		if (w->frames[d]->t && w->frames[d]->t->index == nb->scope &&
		    w->frames[d]->addr == p)
			return table_of(w, w->frames[d], k);
	uint32_t saved = w->detached;
	w->detached++;
	struct frame *sf = irs_walk_push(w, &w->lo->types[nb->scope], p, NULL,
					 fd);
	struct numtab *t = sf ? table_of(w, sf, k) : NULL;
	if (sf)
		irs_walk_pop(w);
	w->detached = saved;
	return t;
}

bool
irs_number_of(struct walk *w, struct frame *f, const struct lfield *fd,
	      int64_t *ret)
{
	const struct lnum *nm = fd->shape->num;
	struct numtab *t = nm->scope ?
		table_named(w, f, fd, nm->scope, nm->numbering) :
		table(w, f, fd, nm->numbering);
	if (!t)
		return false;
	size_t s = tab_find(t, f->addr);
	if (!t->keys[s] || (nm->counter != IRS_NONE &&
			    t->ctrs[s] != nm->counter))
		return false;
	*ret = t->nums[s];
	return true;
}

bool
irs_number_nodes(struct walk *w, struct frame *f, const struct lfield *fd,
		 uint32_t k, uint64_t **addrs, uint32_t **nums, size_t *n)
{
	struct numtab *t = table(w, f, fd, k);
	if (!t)
		return false;
	uint64_t *a = malloc((t->n ? t->n : 1) * sizeof(*a));
	uint32_t *v = malloc((t->n ? t->n : 1) * sizeof(*v));
	if (!a || !v) {
		free(a);
		free(v);
		w->fatal = &irs_enomem;
		w->stop = true;
		return false;
	}
	size_t m = 0;
	for (size_t i = 0; t->mask && i <= t->mask && m < t->n; i++)
		if (t->keys[i]) {
			a[m] = t->keys[i];
			v[m++] = t->nums[i];
		}
	*addrs = a;
	*nums = v;
	*n = m;
	return true;
}
