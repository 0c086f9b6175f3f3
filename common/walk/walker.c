// The walk: one pass over the debuggee's IR that renders the text (by the
// compiled templates) into one sink and writes the JSON node records into
// another. Each node's struct is read once into its frame and its fields
// are decoded from that copy; a visited set keyed by address emits each
// node once, so shared and cyclic structure stays a graph.
//
// Nothing here calls Lua unless the layout chose a Lua function, and
// nothing allocates per node: frames, their buffers and the span log are
// reused from node to node. Walk errors (an unreadable pointer, a cycle, an
// absurd count, a limit) are recorded, rendered in place as <...>, and the
// walk goes on with the rest.
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <lua.h>
#include <xxhash.h>

#include "walk/walk.h"

// For the few helpers of the hot path that must not cost a call.
#define HOT static inline __attribute__((always_inline))

static void render_text(struct walk *w, struct frame *f,
			const struct ltext *tx);
static void run_template(struct walk *w, struct frame *f,
			 const struct ltemplate *tpl);
static void render_field(struct walk *w, struct frame *f,
			 const struct lfield *fd, const struct top *op);

/* {====================================================== output */

HOT void
out(struct walk *w, const char *s, size_t n)
{
	if (w->text)
		irs_sink_put(w->text, s, n);
}

static inline void
outs(struct walk *w, const char *s)
{
	out(w, s, strlen(s));
}

static void
out_addr_marker(struct walk *w, const char *what, uint64_t addr)
{
	char tmp[64];
	size_t n = strlen(what);
	tmp[0] = '<';
	memcpy(tmp + 1, what, n);
	tmp[n + 1] = ' ';
	n += 2 + irs_fmt_hex(tmp + n + 2, addr);
	tmp[n++] = '>';
	out(w, tmp, n);
}

static inline uint64_t
text_pos(const struct walk *w)
{
	return w->text ? irs_sink_pos(w->text) : 0;
}

/* }====================================================== */

/* {====================================================== decoding */

// A value an expression computes with: an integer (signed, or unsigned as
// a field may be) or a float (a float field, compared as such).
struct cnum {
	bool is_float, is_unsigned;
	int64_t i;
	double d;
};

static bool cond_field(struct walk *w, struct frame *f,
		       const struct lfield *fd, struct cnum *r);

// The value of a union's tag or a text's `by` in frame @p f: a field of it,
// or the integer a global names (false when it names none).
static bool
tag_value(struct walk *w, const struct frame *f, const struct lfield *tag,
	  int64_t *ret)
{
	if (tag->kind != LK_GLOBAL) {
		*ret = irs_field_int(f, tag);
		return true;
	}
	struct cnum n = { 0 };
	if (!cond_field(w, (struct frame *)f, tag, &n))
		return false;
	*ret = n.i;
	return true;
}

const struct lfield *
irs_union_case(struct walk *w, const struct frame *f, const struct lfield *fd,
	       bool record)
{
	const struct lunion *u = fd->un;
	int64_t tag;
	if (!tag_value(w, f, u->tag, &tag)) {
		if (!u->deflt && record)
			irs_walk_error(w, fd, 0, "no value for tag %s",
				       u->tag->name);
		return u->deflt;
	}
	for (uint32_t i = 0; i < u->ncases; i++)
		if (u->values[i] == tag)
			return u->cases[i];
	if (!u->deflt && record)
		irs_walk_error(w, fd, 0, "no case for %s = %lld", u->tag->name,
			       (long long)tag);
	return u->deflt;
}

// irs_union_case() with the search inline.
HOT const struct lfield *
union_case(struct walk *w, const struct frame *f, const struct lfield *fd)
{
	const struct lunion *u = fd->un;
	if (u->tag->kind == LK_GLOBAL)
		return irs_union_case(w, f, fd, true);
	int64_t tag = irs_field_int(f, u->tag);
	for (uint32_t i = 0; i < u->ncases; i++)
		if (u->values[i] == tag)
			return u->cases[i];
	return irs_union_case(w, f, fd, true);
}

/* }====================================================== */

/* {====================================================== errors, reads */

static void
json_error(struct walk *w, const struct lfield *fd, uint64_t addr,
	   const char *msg)
{
	struct irs_buf *b = &w->json_errors;
	const struct frame *n = w->node_frame != IRS_NONE
		? w->frames[w->node_frame] : NULL;
	if (b->len)
		irs_json_lit(b, ",\n");
	irs_json_lit(b, "{\"node\":");
	if (n)
		irs_json_addr(b, n->addr);
	else
		irs_json_lit(b, "null");
	irs_json_lit(b, ",\"type\":");
	if (n)
		irs_json_lit(b, n->t->json_name);
	else
		irs_json_lit(b, "null");
	irs_json_lit(b, ",\"field\":");
	if (fd)
		irs_buf_json_string(b, fd->name, strlen(fd->name));
	else
		irs_json_lit(b, "null");
	irs_json_lit(b, ",\"address\":");
	if (addr)
		irs_json_addr(b, addr);
	else
		irs_json_lit(b, "null");
	irs_json_lit(b, ",\"message\":");
	irs_buf_json_string(b, msg, strlen(msg));
	irs_json_lit(b, "}");
}

// Whether @p fd is a field of type @p t (or a case of one of its unions,
// the element of one of its sequences).
static bool
field_of(const struct ltype *t, const struct lfield *fd)
{
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct lfield *f = &t->fields[i];
		if (f == fd || (f->kind == LK_SEQ && f->seq->elem == fd))
			return true;
		for (uint32_t k = 0; f->kind == LK_UNION && k < f->un->ncases;
		     k++)
			if (f->un->cases[k] == fd)
				return true;
		if (f->kind == LK_UNION && f->un->deflt == fd)
			return true;
	}
	return false;
}

// The frame of a value struct inside the current node that @p fd is a
// field of, or NULL when it is the node's own (issue 27 item 12: a walk
// error inside a nested struct named only the field, which the node may
// have a field of the same name as).
static const struct frame *
value_of(const struct walk *w, const struct lfield *fd)
{
	uint32_t lo = w->node_frame == IRS_NONE ? 0 : w->node_frame;
	for (uint32_t d = w->depth; d-- > lo;) {
		const struct frame *f = w->frames[d];
		if (!f->t || !field_of(f->t, fd))
			continue;
		return d == w->node_frame || f->is_node ? NULL : f;
	}
	return NULL;
}

void
irs_walk_error(struct walk *w, const struct lfield *fd, uint64_t addr,
	       const char *fmt, ...)
{
	const struct frame *n = w->node_frame != IRS_NONE
		? w->frames[w->node_frame] : NULL;
	w->nfail++;
	// record each error once, however many passes meet it
	uint64_t key[4] = { n ? n->addr : 0, (uint64_t)(uintptr_t)fd, addr,
			    (uint64_t)(uintptr_t)fmt };
	bool added;
	if (!irs_visited_add(&w->error_keys, XXH64(key, sizeof(key), 0) | 1,
			     &added)) {
		w->fatal = &irs_enomem;
		w->stop = true;
		return;
	}
	if (!added)
		return;
	w->nerrors_total++;
	if (w->nerrors >= IRS_MAX_ERRORS)
		return;
	if (w->nerrors % 64 == 0) {
		char **p = realloc(w->errors, (w->nerrors + 64) * sizeof(*p));
		if (!p)
			return;
		w->errors = p;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	char *full, of[160] = "";
	const struct frame *v = fd ? value_of(w, fd) : NULL;
	if (v)	// a field of a value inside the node: say whose
		snprintf(of, sizeof(of), " of %s at 0x%llx", v->t->name,
			 (unsigned long long)v->addr);
	if (asprintf(&full, "%s at 0x%llx, field %s%s: %s",
		     n ? n->t->name : "root",
		     (unsigned long long)(n ? n->addr : 0),
		     fd ? fd->name : "-", of, msg) < 0)
		return;
	w->errors[w->nerrors++] = full;
	json_error(w, fd, addr, msg);
	if (irs_debug('W'))
		fprintf(stderr, "irsnap: walk: %s\n", full);
}

void
irs_walk_unreadable_string(struct walk *w, const struct lfield *fd,
			   uint64_t p, struct irs_error *err)
{
	// a limit has said so already (limit_reached); the address of the
	// fault and the one format make the text, the {?f} before it, the
	// JSON record and Lua's n.f one error (irs_walk_error's key)
	if (err->code != IRS_ERROR_LIMIT)
		irs_walk_error(w, fd, err->address ? err->address : p,
			       "unreadable string at 0x%llx",
			       (unsigned long long)p);
	irs_error_destroy(err);
}

// A limit ran out: say so once and unwind.
static void
limit_reached(struct walk *w, const char *what, uint64_t limit)
{
	if (!w->truncated)
		irs_walk_error(w, NULL, 0, "walk stopped: %s of %llu reached",
			       what, (unsigned long long)limit);
	w->truncated = true;
	w->stop = true;
}

void
irs_walk_tick(struct walk *w)
{
	// at multiples of the tick: where a walk looks does not depend on
	// what a cache let it skip (a trace's walk equals a dump's)
	w->next_tick = (w->steps / IRS_WALK_TICK + 1) * IRS_WALK_TICK;
	if (w->stop || irs_walk_interrupted(w))
		return;
	if (w->steps > w->max_steps)
		limit_reached(w, "template steps (256 per node of max nodes)",
			      w->max_steps);
	else if ((w->text && irs_sink_pos(w->text) > w->lim.max_text) ||
		 (w->json && irs_sink_pos(w->json) > w->lim.max_text))
		limit_reached(w, "max text bytes", w->lim.max_text);
}

struct irs_error *
irs_walk_read_slow(struct walk *w, uint64_t addr, void *buf, size_t n)
{
	if (w->bytes + n > w->lim.max_bytes) {
		limit_reached(w, "max bytes", w->lim.max_bytes);
		return irs_error_format(IRS_ERROR_LIMIT, "byte limit");
	}
	w->bytes += n;
	w->reads++;
	if (addr + n < addr)
		return irs_error_fault(addr, "address 0x%llx wraps around",
				       (unsigned long long)addr);
	struct irs_error *err = irs_memory_read(w->mem, addr, buf, n);
	if (w->urec) {
		if (err)
			irs_units_lost(w);	// what it would read is unknown
		else
			irs_units_note_read(w, addr, n);
	}
	return err;
}

// Counts a string of @p n bytes read: its length and NUL, or the
// max_string bytes of a string cut there. The same whichever way it was
// read, so that a walk's byte count never depends on what the memory
// cache held.
static struct irs_error *
count_string(struct walk *w, uint64_t n)
{
	if (w->bytes + n > w->lim.max_bytes) {
		limit_reached(w, "max bytes", w->lim.max_bytes);
		return irs_error_format(IRS_ERROR_LIMIT, "byte limit");
	}
	w->bytes += n;
	w->reads++;
	return NULL;
}

struct irs_error *
irs_walk_cstr(struct walk *w, uint64_t addr, struct irs_buf *b, bool *cut)
{
	// read up to page ends only, so a short string at the end of a
	// mapping does not fault on the next page
	b->len = 0;
	*cut = false;
	size_t want = 64;
	while (b->len < w->lim.max_string) {
		uint64_t a = addr + b->len;
		size_t n = 4096 - (a & 4095);
		if (n > want)
			n = want;
		if (n > w->lim.max_string - b->len)
			n = w->lim.max_string - b->len;
		if (!irs_walk_room(b, b->len + n))
			return &irs_enomem;
		char *chunk = b->data + b->len;
		struct irs_error *err = irs_memory_read(w->mem, a, chunk, n);
		if (err) {
			if (w->urec)
				irs_units_lost(w);
			return err;
		}
		const char *nul = memchr(chunk, 0, n);
		b->len += nul ? (size_t)(nul - chunk) : n;
		if (nul)
			break;
		if (want < 1024)
			want *= 4;
	}
	*cut = b->len >= w->lim.max_string;
	if (b->data)
		b->data[b->len] = '\0';
	if (w->urec)	// the string and its NUL, or what was cut
		irs_units_note_read(w, addr, *cut ? b->len : b->len + 1);
	return count_string(w, *cut ? b->len : b->len + 1);
}

struct irs_error *
irs_walk_str(struct walk *w, uint64_t addr, const char **s, size_t *len,
	     bool *cut)
{
	uint64_t avail;
	const uint8_t *p = irs_memory_peek_page(w->mem, addr, &avail);
	if (p) {
		// the common case: the whole string in one cached page
		const uint8_t *nul = memchr(p, 0, avail < w->lim.max_string
					    ? avail : w->lim.max_string);
		if (nul) {
			*s = (const char *)p;
			*len = (size_t)(nul - p);
			*cut = false;
			if (w->urec)
				irs_units_note_read(w, addr, *len + 1);
			return count_string(w, *len + 1);
		}
	}
	struct irs_error *err = irs_walk_cstr(w, addr, &w->scratch, cut);
	*s = w->scratch.data ? w->scratch.data : "";
	*len = w->scratch.len;
	return err;
}

bool
irs_walk_strn(struct walk *w, uint64_t addr, uint64_t len, const char **s,
	      struct irs_error **err)
{
	const uint8_t *q;
	struct irs_buf *b = &w->scratch;

	*err = NULL;
	if (len && w->bytes + len <= w->lim.max_bytes &&
	    (q = irs_memory_peek_tlb(w->mem, addr, len))) {
		// in one cached page: no copy (counted as a read)
		w->bytes += len;
		w->reads++;
		if (w->urec)
			irs_units_note_read(w, addr, len);
		*s = (const char *)q;
		return true;
	}
	b->len = 0;
	if (!irs_walk_room(b, len)) {
		w->fatal = &irs_enomem;
		w->stop = true;
		return false;
	}
	if (len)
		*err = irs_walk_read(w, addr, b->data, len);
	b->len = len;
	*s = b->data;
	return true;
}

/* }====================================================== */

bool
irs_walk_room(struct irs_buf *b, size_t n)
{
	if (b->cap >= n + 1)
		return true;
	char *p = realloc(b->data, n + 1);
	if (!p)
		return false;
	b->data = p;
	b->cap = n + 1;
	return true;
}

/* {====================================================== frames */

static bool
below_stack_limit(const struct walk *w)
{
	return w->stack_limit && (uintptr_t)__builtin_frame_address(0) <
				 (uintptr_t)w->stack_limit;
}

static struct frame *
frame_at(struct walk *w, uint32_t d)
{
	if (d >= w->nframes) {
		uint32_t n = w->nframes ? w->nframes * 2 : 16;
		struct frame **p = realloc(w->frames, n * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + w->nframes, 0, (n - w->nframes) * sizeof(*p));
		w->frames = p;
		w->nframes = n;
	}
	if (!w->frames[d]) {
		w->frames[d] = calloc(1, sizeof(struct frame));
		if (w->frames[d])
			irs_buf_init(&w->frames[d]->json);
	}
	return w->frames[d];
}

static bool
reserve(unsigned char **p, size_t *cap, size_t n)
{
	if (n <= *cap)
		return true;
	size_t c = *cap ? *cap : 64;
	while (c < n)
		c *= 2;
	unsigned char *q = realloc(*p, c);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

// The frame at the current depth, ready for type @p t and @p size bytes:
// what it allocates is kept for every later push at that depth. NULL
// (recorded as @p via's error) when the walk is too deep.
static __attribute__((noinline)) struct frame *
frame_ready(struct walk *w, const struct ltype *t, size_t size,
	    uint64_t addr, const struct lfield *via)
{
	if (w->depth >= w->lim.max_depth || below_stack_limit(w)) {
		irs_walk_error(w, via, addr, "too deep: more than %u levels",
			       w->depth);
		w->too_deep = true;
		return NULL;
	}
	struct frame *f = frame_at(w, w->depth);
	if (!f)
		goto oom;
	if (t && t->nfields > f->nseqs) {
		struct seqinfo *s = realloc(f->seqs, t->nfields * sizeof(*s));
		if (!s)
			goto oom;
		// generation 0 is never a frame's: nothing known yet
		memset(s + f->nseqs, 0, (t->nfields - f->nseqs) * sizeof(*s));
		f->seqs = s;
		f->nseqs = t->nfields;
	}
	if ((size > f->cap || !f->own) &&
	    !reserve(&f->own, &f->cap, size ? size : 1))
		goto oom;
	return f;
oom:
	w->fatal = &irs_enomem;
	w->stop = true;
	return NULL;
}

static void
push_failed(struct walk *w, struct irs_error *err, const struct ltype *t,
	    uint64_t addr, const struct lfield *via)
{
	w->too_deep = false;
	if (err->code != IRS_ERROR_LIMIT)
		irs_walk_error(w, via, addr, "unreadable pointer 0x%llx%s%s",
			       (unsigned long long)addr, t ? " to " : "",
			       t ? t->name : "");
	irs_error_destroy(err);
}

HOT struct frame *
push(struct walk *w, const struct ltype *t, uint64_t addr, const void *data,
     size_t size, const struct lfield *via)
{
	uint32_t d = w->depth;
	struct frame *f = d < w->nframes ? w->frames[d] : NULL;
	if (!f || d >= w->lim.max_depth || below_stack_limit(w) ||
	    (t && t->nfields > f->nseqs) || size > f->cap || !f->own) {
		f = frame_ready(w, t, size, addr, via);
		if (!f)
			return NULL;
	}
	w->last_addr = 0;	// its buffer may be about to change
	if (data) {
		f->data = (unsigned char *)data;
	} else {
		struct irs_error *err = irs_walk_read(w, addr, f->own, size);
		if (err) {
			push_failed(w, err, t, addr, via);
			return NULL;
		}
		f->data = f->own;
	}
	f->t = t;
	f->gen = ++w->gen;	// what seqs[] held is another frame's
	f->elem = w->next_elem;	// {=#}, ^prev: set for this push only
	w->next_elem = UINT64_MAX;
	f->prev = w->next_prev;
	w->next_prev = 0;
	f->addr = addr;
	f->size = size;
	f->is_node = false;
	f->done = 0;
	f->parent_node = w->node_frame;
	w->depth = d + 1;
	if (t && t->cast)	// the struct its tag picks (cast.c)
		return irs_cast_frame(w, f, via);
	return f;
}

struct frame *
irs_walk_push(struct walk *w, const struct ltype *t, uint64_t addr,
	      const void *data, const struct lfield *via)
{
	return push(w, t, addr, data, t->size, via);
}

struct frame *
irs_walk_push_slot(struct walk *w, uint64_t addr, const void *data,
		   size_t size)
{
	return push(w, NULL, addr, data, size, NULL);
}

// The reason a push failed, in the text.
static void
out_fail(struct walk *w, uint64_t addr)
{
	if (w->stop)
		outs(w, "<truncated>");
	else if (w->too_deep)
		outs(w, "<too deep>");
	else
		out_addr_marker(w, "unreadable", addr);
}

/* }====================================================== */

/* {====================================================== spans of refs */

static void
log_span(struct walk *w, uint64_t slot, uint64_t start, uint64_t end)
{
	if (w->nspans == w->capspans) {
		size_t n = w->capspans ? w->capspans * 2 : 256;
		struct spanrec *p = realloc(w->spans, n * sizeof(*p));
		if (!p)
			return;		// a span less in the JSON
		w->spans = p;
		w->capspans = n;
	}
	w->spans[w->nspans++] = (struct spanrec){ slot, start, end };
}

/* }====================================================== */

/* {====================================================== rendering */

/*
 * Detached renderings (references and indexed elements) are kept in a
 * small direct-mapped cache: the same node is referred to again and again
 * (a value by each of its uses, a constant by each operand naming it), and
 * its rendering depends only on memory. An entry is keyed by the node's
 * address and the text's place in the layout, never by where the layout
 * lies in the debugger: hits, and so the bytes a walk reads, are the same
 * in every run and every debugger. Renderings that met an error, looked at
 * their context (index) or ran Lua are not kept.
 */

// The cache's entries, one table per thread kept from walk to walk: a
// table is 256 KiB, and allocating it zeroed for each walk (mmap, page
// faults, munmap) cost a walk of one function (a per-function pass's
// snapshot) more than the walk. An entry counts only for the generation
// that kept it: generations come from one counter per thread, so an entry
// a walk did not keep never answers it (rcache_table(), next_ugen()).
static _Thread_local struct rcache *rcache_table_;
static _Thread_local uint32_t rcache_gen_;

// The next generation of this thread's walks. On the counter's wrap the
// table is cleared, so no entry of 2^32 generations ago comes back.
static uint32_t
next_ugen(void)
{
	if (++rcache_gen_ == 0) {
		if (rcache_table_)
			memset(rcache_table_, 0, IRS_RCACHE_SIZE *
			       sizeof(*rcache_table_));
		rcache_gen_ = 1;
	}
	return rcache_gen_;
}

// This thread's table, made on first use (NULL when memory ran out).
static struct rcache *
rcache_table(void)
{
	if (!rcache_table_)
		rcache_table_ = calloc(IRS_RCACHE_SIZE, sizeof(*rcache_table_));
	return rcache_table_;
}

// The entry of @p key at @p addr. requires: w->rcache.
IRS_INLINE struct rcache *
rcache_at(struct walk *w, uint64_t addr, uint32_t key)
{
	uint64_t h = (addr >> 3) ^ (addr >> 15) ^ (key * 0x9e3779b1u);
	return &w->rcache[h & (IRS_RCACHE_SIZE - 1)];
}

// The cache entry type @p t's text @p tx at @p addr would have (the cache
// allocated on first use), or NULL when it cannot be kept.
HOT struct rcache *
rcache_slot(struct walk *w, const struct ltype *t, uint64_t addr,
	    const struct ltext *tx, uint32_t *key)
{
	if (!w->rcache) {
		if (!w->text || (tx->kind == TX_LUA && !tx->pure))
			return NULL;
		if (!(w->rcache = rcache_table()))
			return NULL;
	}
	*key = t->index * 2 + (tx == &t->ref) + 1;
	return rcache_at(w, addr, *key);
}

// What the walk looked like when a rendering began.
struct rmark {
	uint64_t start, nfail, ctx, flushed, bytes, steps;
};

static inline void
rcache_mark(const struct walk *w, struct rmark *m)
{
	m->start = text_pos(w);
	m->nfail = w->nfail;
	m->ctx = w->ctx_uses;
	m->flushed = w->text ? w->text->flushed : 0;
	m->bytes = w->bytes;
	m->steps = w->steps;
}

// Emits the rendering kept in @p e, counting what making it read and ran
// as a walk without the cache would; false (nothing done) when that
// would pass the byte limit or reach the next tick, for the rendering to
// meet them where a walk without the cache does: between two ticks, none
// looks at the step and text limits.
HOT bool
rcache_hit(struct walk *w, const struct rcache *e)
{
	if (w->steps + e->steps >= w->next_tick ||
	    w->bytes + e->bytes > w->lim.max_bytes)
		return false;
	out(w, e->text, e->len);
	w->bytes += e->bytes;
	w->steps += e->steps;
	return true;
}

// Keeps the text rendered since @p m in @p e when it may be kept.
static void
rcache_put(struct walk *w, struct rcache *e, uint32_t key, uint64_t addr,
	   const struct ltext *tx, const struct rmark *m)
{
	size_t n = (size_t)(text_pos(w) - m->start);
	uint64_t bytes = w->bytes - m->bytes, steps = w->steps - m->steps;
	if ((tx->kind == TX_LUA && !tx->pure) || m->nfail != w->nfail ||
	    m->ctx != w->ctx_uses || w->stop || w->text->failed ||
	    w->text->flushed != m->flushed || n > sizeof(e->text) ||
	    (bytes | steps) > UINT32_MAX)
		return;
	e->addr = addr;
	e->key = key;
	e->ugen = w->ugen;
	e->bytes = (uint32_t)bytes;
	e->steps = (uint32_t)steps;
	e->len = (uint8_t)n;
	irs_copy_small(e->text, w->text->buf + w->text->len - n, n);
}

// render_detached() when the cache does not have it.
static __attribute__((noinline)) void
render_detached_miss(struct walk *w, const struct ltype *t, uint64_t addr,
		     const struct ltext *tx, const struct lfield *via,
		     struct rcache *e, uint32_t key)
{
	struct rmark m;
	rcache_mark(w, &m);
	w->detached++;
	struct frame *f = irs_walk_push(w, t, addr, NULL, via);
	if (!f) {
		out_fail(w, addr);
	} else {
		if (f->t != t)	// cast: the case's ref, or its text
			tx = tx == &t->text ? &f->t->text
				: f->t->ref.kind != TX_NONE ? &f->t->ref
				: &f->t->text;
		render_text(w, f, tx);
		irs_walk_pop(w);
	}
	w->detached--;
	if (e && f)
		rcache_put(w, e, key, addr, tx, &m);
}

// Renders type @p t at @p addr by @p tx, detached (reading, visiting
// nothing).
HOT void
render_detached(struct walk *w, const struct ltype *t, uint64_t addr,
		const struct ltext *tx, const struct lfield *via)
{
	uint32_t key = 0;
	struct rcache *e = rcache_slot(w, t, addr, tx, &key);
	if (e && e->addr == addr && e->key == key && e->ugen == w->ugen &&
	    rcache_hit(w, e))
		return;
	render_detached_miss(w, t, addr, tx, via, e, key);
}

// {@ref}: node frame @p f by its own ref template, which is what its uses
// will render: keep it for them.
static void
render_selfref(struct walk *w, struct frame *f)
{
	const struct ltype *t = f->t;
	uint32_t key = 0;
	struct rcache *e = rcache_slot(w, t, f->addr, &t->ref, &key);
	struct rmark m;
	rcache_mark(w, &m);
	w->detached++;
	render_text(w, f, &t->ref);
	w->detached--;
	if (e)
		rcache_put(w, e, key, f->addr, &t->ref, &m);
}

// irs_walk_render_ref(), inline. Where the reference was rendered goes to
// the span log, for the JSON record of the node.
HOT void
render_ref(struct walk *w, const struct ltype *t, uint64_t addr,
	   uint64_t slot, const struct lfield *via)
{
	uint64_t start = text_pos(w);
	// a struct with a cast by its case's ref (render_detached_miss)
	render_detached(w, t, addr, t->ref.kind != TX_NONE || t->cast
			? &t->ref : &t->text, via);
	if (!w->detached && slot && w->json && w->text)
		log_span(w, slot, start, text_pos(w));
}

void
irs_walk_render_ref(struct walk *w, const struct ltype *t, uint64_t addr,
		    uint64_t slot, const struct lfield *via)
{
	render_ref(w, t, addr, slot, via);
}

// A node reached a second time renders as a reference to it.
static void
render_backref(struct walk *w, const struct ltype *t, uint64_t addr,
	       const struct lfield *via)
{
	if (t->ref.kind != TX_NONE)
		irs_walk_render_ref(w, t, addr, 0, via);
	else
		out_addr_marker(w, "see", addr);
}

static void
render_value(struct walk *w, const struct ltype *t, uint64_t addr,
	     const void *data, const struct lfield *via)
{
	struct frame *f = push(w, t, addr, data, t->size, via);
	if (!f) {
		out_fail(w, addr);
		return;
	}
	render_text(w, f, &f->t->text);
	irs_walk_pop(w);
}

// A struct of type @p t at @p addr, owned by the current node.
static void
render_struct(struct walk *w, const struct ltype *t, uint64_t addr,
	      const void *data, const struct lfield *via)
{
	if (t->node && !w->detached)
		irs_walk_visit(w, t, addr, data, true, via);
	else if (t->node && irs_visited_has(&w->visited, addr))
		render_backref(w, t, addr, via);
	else
		render_value(w, t, addr, data, via);
}

static void
render_string(struct walk *w, struct frame *f, const struct lfield *fd)
{
	uint64_t p = irs_string_addr(f, fd);
	uint64_t len = 0;
	if (fd->kind == LK_STRN) {
		len = irs_string_len(f, fd);
		if (len > w->lim.max_string) {
			irs_walk_error(w, fd, p, "string of %llu bytes cut to "
				       "%u", (unsigned long long)len,
				       w->lim.max_string);
			len = w->lim.max_string;
		}
		if (len == 0)
			return;
	}
	if (!p) {
		outs(w, "<null>");
		return;
	}
	struct irs_error *err;
	bool cut = false;
	const char *str;
	size_t slen;
	if (fd->kind == LK_STRN) {
		if (!irs_walk_strn(w, p, len, &str, &err))
			return;
		slen = len;
	} else {
		err = irs_walk_str(w, p, &str, &slen, &cut);
	}
	if (err) {
		if (err->code == IRS_ERROR_NOMEM) {
			w->fatal = err;
			w->stop = true;
			return;
		}
		bool limit = err->code == IRS_ERROR_LIMIT;
		irs_walk_unreadable_string(w, fd, p, err);
		if (!limit)	// else the walk ends with <truncated>
			out_addr_marker(w, "unreadable", p);
		return;
	}
	if (cut)
		irs_walk_error(w, fd, p, "string longer than %u bytes, cut",
			       w->lim.max_string);
	out(w, str, slen);
}

// The struct element @p addr of a sequence of @p e is (bytes in @p data
// when read): itself inline, else what it points to; 0 when none.
static uint64_t
elem_struct(struct walk *w, const struct lfield *e, uint64_t addr,
	    const unsigned char *data)
{
	uint64_t v;
	if (e->kind == LK_EMBED)
		return addr;
	if (e->kind != LK_PTR && e->kind != LK_REF)
		return 0;
	if (data) {
		v = irs_load_u(data, &e->at);
	} else {
		// an element pointer: 8 bytes at offset 0 (compile_elem)
		unsigned char buf[8] = { 0 };
		struct irs_error *err = e->at.offset + e->at.size <= 8
			? irs_walk_read(w, addr, buf, 8)
			: irs_error_format(IRS_ERROR_LIMIT, "not a pointer");
		v = err ? 0 : irs_load_u(buf, &e->at);
		irs_error_destroy(err);
	}
	v &= e->mask;
	return v ? v - e->past : 0;
}

// Whether the elements of @p e are structs whose templates name ^prev.
static bool
elem_uses_prev(const struct walk *w, const struct lfield *e)
{
	return w->lo->uses_prev && (e->kind == LK_EMBED || e->kind == LK_PTR ||
				    e->kind == LK_REF) &&
		w->lo->types[e->type].uses_prev;
}

// Element @p i of sequence @p seq of frame @p enc, referred to (by an
// index field or a picked element, @p via): detached, a struct by its ref
// template when its type has one, else its text, a pointer to a node by
// the node's ref. requires: i is in range.
HOT void
render_element_at(struct walk *w, struct frame *enc, const struct lfield *seq,
		  uint64_t i, uint64_t ea, const struct lfield *via)
{
	const struct lfield *e = seq->seq->elem;
	if (elem_uses_prev(w, e) && i > 0) {
		uint64_t pa;
		if (irs_seq_at(w, enc, seq, i - 1, &pa))
			w->next_prev = elem_struct(w, e, pa, NULL);
	}
	if (e->kind == LK_EMBED) {
		const struct ltype *t = &w->lo->types[e->type];
		w->next_elem = i;
		if (t->node)
			irs_walk_render_ref(w, t, ea, 0, via);
		else	// a value by its ref template when it has one
			render_detached(w, t, ea, t->ref.kind != TX_NONE
					? &t->ref : &t->text, via);
		w->next_elem = UINT64_MAX;
		w->next_prev = 0;
		return;
	}
	uint64_t prev = w->next_prev;
	w->next_prev = 0;
	struct frame *sf = irs_walk_push_slot(w, ea, NULL, seq->seq->stride);
	if (!sf) {
		out_fail(w, ea);
		return;
	}
	w->detached++;
	if (e->kind == LK_PTR && w->lo->types[e->type].node) {
		// a pointer to a node: the node by its ref, as for an embed
		uint64_t p = irs_load_ptr(sf, e);
		w->next_elem = i;
		w->next_prev = prev;
		if (p)
			irs_walk_render_ref(w, &w->lo->types[e->type], p, 0,
					    via);
		else
			outs(w, "<null>");
		w->next_elem = UINT64_MAX;
		w->next_prev = 0;
	} else {
		render_field(w, sf, e, NULL);
	}
	w->detached--;
	irs_walk_pop(w);
}

static void
render_index(struct walk *w, struct frame *f, const struct lfield *fd)
{
	int64_t i = irs_field_int(f, fd);
	const struct ltype *et = &w->lo->types[fd->index_type];
	w->ctx_uses++;		// the result depends on where we are
	struct frame *enc = irs_seq_owner(w, fd->index_type);
	if (!enc) {
		irs_walk_error(w, fd, 0, "no enclosing %s for index %lld",
			       et->name, (long long)i);
		outs(w, "<no ");
		outs(w, et->name);
		outs(w, ">");
		return;
	}
	uint64_t ea;
	if (i < 0 || !irs_seq_at(w, enc, fd->index_seq, (uint64_t)i, &ea)) {
		irs_walk_bad_index(w, fd, i, enc);
		char tmp[48];
		int n = snprintf(tmp, sizeof(tmp), "<bad index %lld>",
				 (long long)i);
		out(w, tmp, (size_t)n);
		return;
	}
	render_element_at(w, enc, fd->index_seq, (uint64_t)i, ea, fd);
}

// The element a path step picks ({ops[0]}, {ops[-1]}) in frame @p f,
// which holds the sequence: its index and address; false when there is
// no such element.
static bool
pick_at(struct walk *w, struct frame *f, const struct lfield *st,
	uint64_t *i, uint64_t *ea)
{
	struct seqinfo tmp;
	const struct seqinfo *si = irs_seq_info(w, f, st->index_seq, &tmp);
	uint64_t n = si->n;
	uint64_t back = -(uint64_t)st->lo;	// from the end, when lo < 0
	if (st->lo < 0 && back > n)
		return false;
	*i = st->lo < 0 ? n - back : (uint64_t)st->lo;
	return *i < n && irs_seq_at(w, f, st->index_seq, *i, ea);
}

// {ops[0]}: the element, referred to as an index field's is; one that is
// not there is <bad index N> and a walk error.
static void
render_pick(struct walk *w, struct frame *f, const struct lfield *st)
{
	uint64_t i, ea;
	w->ctx_uses++;
	if (!pick_at(w, f, st, &i, &ea)) {
		char tmp[48];
		irs_walk_bad_index(w, st, st->lo, f);
		int n = snprintf(tmp, sizeof(tmp), "<bad index %lld>",
				 (long long)st->lo);
		out(w, tmp, (size_t)n);
		return;
	}
	render_element_at(w, f, st->index_seq, i, ea, st);
}

/* {====================================================== globals */

// The address of global @p sym now: asked of the target once a walk, as
// the process may have run (and moved it) since the last.
static bool
sym_address(struct walk *w, uint32_t sym, const struct lfield *fd,
	    uint64_t *ret)
{
	const struct irs_layout *lo = w->lo;
	if (!w->gstate) {
		w->gaddr = calloc(lo->nsyms, sizeof(*w->gaddr));
		w->gstate = calloc(lo->nsyms, 1);
		if (!w->gaddr || !w->gstate) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return false;
		}
	}
	if (!w->gstate[sym]) {
		struct irs_error *err = irs_layout_global_address(lo, sym,
							&w->gaddr[sym]);
		w->gstate[sym] = err ? 2 : 1;
		if (err && err->code != IRS_ERROR_NOMEM)
			irs_walk_error(w, fd, 0, "global '%s' (%s:%u): %s",
				       lo->syms[sym].name, lo->file,
				       lo->syms[sym].line, err->message);
		irs_error_destroy(err);
	}
	*ret = w->gaddr[sym];
	return w->gstate[sym] == 1;
}

bool
irs_walk_global(struct walk *w, struct frame *f, const struct lfield *fd,
		bool say, uint64_t *ret)
{
	const struct lglob *g = fd->glob;
	uint64_t a;
	char tmp[48];
	if (!sym_address(w, g->sym, fd, &a)) {
		if (say) {
			outs(w, "<no global ");
			outs(w, w->lo->syms[g->sym].name);
			outs(w, ">");
		}
		return false;
	}
	for (uint32_t i = 0; i < g->nops; i++) {
		const struct lgop *op = &g->ops[i];
		switch (op->code) {
		case GOP_OFF:
			a += op->k;
			break;
		case GOP_DEREF: {
			uint64_t p;
			struct irs_error *err = irs_walk_read(w, a, &p, 8);
			if (err) {
				if (err->code != IRS_ERROR_LIMIT)
					irs_walk_error(w, fd, a, "global %s: "
						       "unreadable pointer at "
						       "0x%llx", g->spelled,
						       (unsigned long long)a);
				irs_error_destroy(err);
				if (say)
					out_fail(w, a);
				return false;
			}
			if (!p) {
				if (say)
					outs(w, "<null>");
				return false;
			}
			a = p;
			break;
		}
		case GOP_INDEX: {
			int64_t v = op->at.is_signed
				? irs_load_i(f->data, &op->at)
				: (int64_t)irs_load_u(f->data, &op->at);
			if (v < 0 || (op->count && (uint64_t)v >= op->count)) {
				irs_walk_error(w, fd, 0, "global %s: index "
					       "%lld is outside its %llu "
					       "elements", g->spelled,
					       (long long)v,
					       (unsigned long long)op->count);
				if (say) {
					int n = snprintf(tmp, sizeof(tmp),
						 "<bad index %lld>",
						 (long long)v);
					out(w, tmp, (size_t)n);
				}
				return false;
			}
			a += (uint64_t)v * op->k;
			break;
		}
		}
	}
	*ret = a;
	return true;
}

// {f} of a global field: what lies at the address its path names, read
// and rendered detached (a global is referred to, never owned).
static void
render_global(struct walk *w, struct frame *f, const struct lfield *fd,
	      const struct top *op)
{
	const struct lglob *g = fd->glob;
	uint64_t a;
	if (!irs_walk_global(w, f, fd, true, &a))
		return;
	const struct lfield *v = g->value;
	if (v->kind == LK_EMBED) {
		const struct ltype *t = &w->lo->types[v->type];
		if (t->node)
			irs_walk_render_ref(w, t, a, 0, fd);
		else
			render_detached(w, t, a, &t->text, fd);
		return;
	}
	// what lies at an address renders the same all walk long (an
	// opcode's name, once per opcode): kept as detached renderings are
	static const struct ltext plain = { .kind = TX_TEMPLATE };
	uint32_t key = 0x80000000u | g->id;
	struct rcache *e = NULL;
	if (w->text && (w->rcache || (w->rcache = rcache_table()))) {
		e = rcache_at(w, a, key);
		if (e->addr == a && e->key == key && e->ugen == w->ugen &&
		    rcache_hit(w, e))
			return;
	}
	struct rmark m;
	rcache_mark(w, &m);
	struct frame *sf = irs_walk_push_slot(w, a, NULL, g->value_size);
	if (!sf) {
		out_fail(w, a);
		return;
	}
	w->detached++;
	render_field(w, sf, v, op);
	w->detached--;
	irs_walk_pop(w);
	if (e)
		rcache_put(w, e, key, a, &plain, &m);
}

/* }====================================================== */

void
irs_walk_bad_index(struct walk *w, const struct lfield *fd, int64_t i,
		   struct frame *enc)
{
	struct seqinfo tmp;
	const struct seqinfo *si = irs_seq_info(w, enc, fd->index_seq, &tmp);
	if (si->bad == SEQ_COUNT)	// its count was refused: say so, not "0"
		irs_walk_error(w, fd, 0, "index %lld into %s.%s, whose count "
			       "%llu was refused", (long long)i, enc->t->name,
			       fd->index_seq->name,
			       (unsigned long long)si->bad_addr);
	else
		irs_walk_error(w, fd, 0, "index %lld out of range: %s.%s has "
			       "%llu elements", (long long)i, enc->t->name,
			       fd->index_seq->name, (unsigned long long)si->n);
}

static void
out_seq_marker(struct walk *w, const struct seqinfo *si)
{
	char tmp[80];
	int n = 0;
	switch (si->bad) {
	case SEQ_FAULT:
		out_addr_marker(w, "unreadable", si->bad_addr);
		return;
	case SEQ_CYCLE:
		out_addr_marker(w, "cycle at", si->bad_addr);
		return;
	case SEQ_COUNT:
		n = snprintf(tmp, sizeof(tmp), "<bad count %llu>",
			     (unsigned long long)si->bad_addr);
		break;
	case SEQ_NULL:
		n = snprintf(tmp, sizeof(tmp), "<null>");
		break;
	default:
		return;
	}
	out(w, tmp, (size_t)n);
}

// One element of sequence @p fd, at @p addr (bytes in @p data if read).
static void
render_elem(struct walk *w, const struct lfield *fd, uint64_t addr,
	    const unsigned char *data, bool as_ref)
{
	const struct lseq *s = fd->seq;
	const struct lfield *e = s->elem;
	if (e->kind == LK_EMBED) {
		const struct ltype *t = &w->lo->types[e->type];
		if (as_ref)
			irs_walk_render_ref(w, t, addr, 0, fd);
		else if (!t->node)
			render_value(w, t, addr, data, fd);
		else
			render_struct(w, t, addr, data, fd);
		return;
	}
	uint64_t k = w->next_elem, prev = w->next_prev;
	struct frame *sf = push(w, NULL, addr, data, s->stride, NULL);
	if (!sf) {
		out_fail(w, addr);
		return;
	}
	w->next_elem = k;	// a pointer's struct is the element ({=#})
	w->next_prev = prev;
	if (as_ref) {
		uint64_t p = irs_load_ptr(sf, e);
		if (p)
			irs_walk_render_ref(w, &w->lo->types[e->type], p, addr,
					    fd);
		else
			outs(w, "<null>");
	} else {
		render_field(w, sf, e, NULL);
	}
	w->next_prev = 0;
	irs_walk_pop(w);
}

// The bounds of slice @p sl, those given as field paths read in @p f0
// (the struct whose template names the slice); a path with no value (an
// element of an empty sequence) is a bound left out.
static void
slice_limits(struct walk *w, struct frame *f0, const struct lfield *sl,
	     int64_t b[2])
{
	b[0] = sl->lo;
	b[1] = sl->hi;
	for (int k = 0; k < 2; k++) {
		int64_t v;
		if (sl->bound[k])
			b[k] = irs_walk_value(w, f0, sl->bound[k], &v) ? v
			       : k ? INT64_MAX : 0;
	}
}

// [lo:hi] (@p lim, from slice_limits()) of a sequence of @p n elements, as
// Python takes it: negative bounds count from the end, and both are
// clamped to [0, n].
static void
slice_bounds(const int64_t lim[2], uint64_t n, uint64_t *from, uint64_t *to)
{
	int64_t b[2] = { lim[0], lim[1] };
	for (int k = 0; k < 2; k++) {
		if (b[k] < 0)
			b[k] = -(uint64_t)b[k] >= n ? 0 : (int64_t)n + b[k];
		if ((uint64_t)b[k] > n)
			b[k] = (int64_t)n;
	}
	*from = (uint64_t)b[0];
	*to = b[1] < b[0] ? *from : (uint64_t)b[1];
}

// Starts @p it on the elements of sequence @p fd of @p f that @p slice
// (an LK_SLICE step) takes; the index of its first element, and in *prev
// the struct before it when its type names ^prev.
static uint64_t
seq_begin(struct walk *w, struct frame *f, const struct lfield *fd,
	  const int64_t lim[2], struct seq_iter *it, uint64_t *prev)
{
	uint64_t from = 0, to, addr;
	const unsigned char *data;
	*prev = 0;
	irs_seq_begin(w, f, fd, it);
	slice_bounds(lim, it->n, &from, &to);
	it->n = to;
	const struct lfield *e = fd->seq->elem;
	if (fd->seq->kind != SEQ_LIST && !elem_uses_prev(w, e)) {
		it->i = from;	// element i lies at a known place
		return from;
	}
	for (uint64_t i = 0; i < from && irs_seq_next(w, it, &addr, &data);
	     i++)
		if (i + 1 == from && elem_uses_prev(w, e))
			*prev = elem_struct(w, e, addr, data);
	return from;
}

static void
render_seq(struct walk *w, struct frame *f, const struct lfield *fd,
	   const char *sep, size_t seplen, bool as_ref,
	   const int64_t *slice)
{
	struct seq_iter it;
	uint64_t addr;
	const unsigned char *data;
	const struct lfield *e = fd->seq->elem;
	const struct ltype *vt = e->kind == LK_EMBED ? &w->lo->types[e->type]
		: NULL;
	uint64_t k = 0, prev = 0;
	if (slice)
		k = seq_begin(w, f, fd, slice, &it, &prev);
	else if (as_ref)
		irs_seq_begin(w, f, fd, &it);
	else
		irs_seq_begin_visit(w, f, fd, &it);
	uint64_t first = k;
	if (!as_ref && vt && vt->node && !w->detached) {
		// nodes owned in order (instructions in a block)
		while (irs_seq_next(w, &it, &addr, &data)) {
			if (k > first)
				out(w, sep, seplen);
			irs_walk_step(w);
			w->next_elem = k++;
			w->next_prev = prev;
			irs_walk_visit(w, vt, addr, data, true, fd);
			w->next_elem = UINT64_MAX;
			prev = addr;
			if (w->stop)
				break;
		}
	} else if (!as_ref && vt && !vt->node &&
		   (vt->text.kind == TX_TEMPLATE || vt->text.kind == TX_BY)) {
		// values rendered by a template (operands): straight to it;
		// the template counts the steps
		while (irs_seq_next(w, &it, &addr, &data)) {
			if (k > first)
				out(w, sep, seplen);
			w->next_elem = k++;
			w->next_prev = prev;
			struct frame *g = push(w, vt, addr, data, vt->size, fd);
			w->next_elem = UINT64_MAX;
			prev = addr;
			if (!g) {
				out_fail(w, addr);
			} else {
				render_text(w, g, &g->t->text);
				irs_walk_pop(w);
			}
			if (w->stop)
				break;
		}
	} else {
		while (irs_seq_next(w, &it, &addr, &data)) {
			if (k > first)
				out(w, sep, seplen);
			irs_walk_step(w);
			w->next_elem = k++;
			w->next_prev = prev;
			uint64_t cur = elem_uses_prev(w, e)
				? elem_struct(w, e, addr, data) : 0;
			render_elem(w, fd, addr, data, as_ref);
			w->next_elem = UINT64_MAX;
			w->next_prev = 0;
			prev = cur;
			if (w->stop)
				break;
		}
	}
	w->next_prev = 0;	// what a push did not take
	if (w->stop)
		return;
	struct seqinfo tmp;
	const struct seqinfo *si = irs_seq_info(w, f, fd, &tmp);
	if (si->bad || it.fault) {
		if (k > first)
			out(w, sep, seplen);
		if (it.fault)
			out_addr_marker(w, "unreadable", it.fault);
		else
			out_seq_marker(w, si);
	}
}

static bool truthy(struct walk *w, struct frame *f, const struct lfield *fd,
		   uint64_t *fault);

// A non-empty string: its first byte is not the NUL. One that cannot be
// read is true, with *fault set, so that {?f} shows its marker instead of
// taking it for NULL.
static bool
truthy_cstr(struct walk *w, const struct lfield *fd, uint64_t p,
	    uint64_t *fault)
{
	char c;
	struct irs_error *err = irs_walk_read(w, p, &c, 1);
	if (err) {
		bool limit = err->code == IRS_ERROR_LIMIT;
		irs_walk_unreadable_string(w, fd, p, err);
		if (limit)
			return false;
		*fault = p;
		return true;
	}
	return c != '\0';
}

// Whether @p fd is true, as {?f} asks; *fault is set (and true returned)
// when what decides it could not be read.
static __attribute__((noinline)) bool
truthy(struct walk *w, struct frame *f, const struct lfield *fd,
       uint64_t *fault)
{
	struct seqinfo tmp;
	switch (fd->kind) {
	case LK_INT: case LK_UINT: case LK_BOOL: case LK_ENUM: case LK_INDEX:
		return irs_load_u(f->data, &fd->at) != 0;
	case LK_FLOAT:
		return irs_load_f(f->data, &fd->at) != 0.0;
	case LK_CSTR: {
		uint64_t p = irs_load_u(f->data, &fd->at);
		return p && truthy_cstr(w, fd, p, fault);
	}
	case LK_CHARS:
		return f->data[fd->at.offset] != 0;
	case LK_STRN:
		return irs_string_addr(f, fd) && irs_string_len(f, fd);
	case LK_PTR: case LK_REF:
		return irs_load_ptr(f, fd) != 0;
	case LK_EMBED:
		return true;
	case LK_UNION: {
		const struct lfield *c = irs_union_case(w, f, fd, true);
		return c && truthy(w, f, c, fault);
	}
	case LK_SEQ: {
		// a damaged sequence is shown, so that its marker is
		const struct seqinfo *si = irs_seq_info(w, f, fd, &tmp);
		return si->n > 0 || si->bad != SEQ_OK;
	}
	case LK_GLOBAL: {
		// a struct is there or not; a value is true as a field is
		uint64_t a;
		const struct lglob *g = fd->glob;
		if (!irs_walk_global(w, f, fd, false, &a))
			return false;
		if (g->value->kind == LK_EMBED)
			return true;
		struct frame *sf = irs_walk_push_slot(w, a, NULL,
						      g->value_size);
		if (!sf) {
			if (!w->stop && !w->too_deep)
				*fault = a;
			return *fault != 0;
		}
		bool yes = truthy(w, sf, g->value, fault);
		irs_walk_pop(w);
		return yes;
	}
	case LK_DELTA: {
		int64_t v;
		return irs_walk_delta(w, f, fd, &v) && v != 0;
	}
	case LK_SHAPE:
		return irs_shape_truthy(w, f, fd);
	case LK_COMPUTED: {
		if (!irs_walk_call_lua(w, f, fd->fn, fd, false,
				       fd->pure))
			return false;
		lua_State *L = irs_lua_state(w->lo->lua);
		bool v = lua_toboolean(L, -1);
		lua_pop(L, 1);
		return v;
	}
	case LK_PICK: {		// there is such an element, and it is true
		uint64_t i, ea;
		w->ctx_uses++;
		if (!pick_at(w, f, fd, &i, &ea))
			return false;
		const struct lfield *e = fd->index_seq->seq->elem;
		if (e->kind == LK_EMBED)
			return true;
		struct frame *sf = irs_walk_push_slot(w, ea, NULL,
						fd->index_seq->seq->stride);
		if (!sf) {
			if (!w->stop && !w->too_deep)
				*fault = ea;
			return *fault != 0;
		}
		bool yes = truthy(w, sf, e, fault);
		irs_walk_pop(w);
		return yes;
	}
	case LK_SLICE: {
		uint64_t from, to;
		int64_t lim[2];
		// (truthy_path() reads bounds given as fields where the
		// path starts; here the owner is all there is)
		slice_limits(w, f, fd, lim);
		const struct seqinfo *si = irs_seq_info(w, f, fd->index_seq,
							&tmp);
		slice_bounds(lim, si->n, &from, &to);
		return to > from;
	}
	case LK_UP:
		w->ctx_uses++;
		return irs_seq_owner(w, fd->type) != NULL;
	case LK_PREV:
		w->ctx_uses++;
		irs_units_lost_outside(w, f, false);
		return f->prev != 0;
	}
	return false;
}

// A byte string as Lua writes a string constant (luac's PrintString):
// quoted, C escapes, other bytes that do not print as \ddd.
static void
out_lua_string(struct walk *w, const char *s, size_t n)
{
	static const char esc[256] = {
		['"'] = '"', ['\\'] = '\\', ['\a'] = 'a', ['\b'] = 'b',
		['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
		['\v'] = 'v',
	};
	out(w, "\"", 1);
	size_t run = 0;		// bytes written as they are, not yet out
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!esc[c] && c >= 0x20 && c < 0x7f) {
			run++;
			continue;
		}
		out(w, s + i - run, run);
		run = 0;
		char tmp[8];
		int k = esc[c] ? snprintf(tmp, sizeof(tmp), "\\%c", esc[c])
			: snprintf(tmp, sizeof(tmp), "\\%03d", c);
		out(w, tmp, (size_t)k);
	}
	out(w, s + n - run, run);
	out(w, "\"", 1);
}

static void
out_blanks(struct walk *w, size_t n)
{
	static const char blanks[] = "                ";
	for (size_t k; n; n -= k) {
		k = n < sizeof(blanks) - 1 ? n : sizeof(blanks) - 1;
		out(w, blanks, k);
	}
}

// A float as Lua writes it: %.14g, and .0 when that looks like an integer.
static void
out_lua_float(struct walk *w, double d)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf) - 2, "%.14g", d);
	if (n > 0 && buf[strspn(buf, "-0123456789")] == '\0') {
		buf[n++] = '.';
		buf[n++] = '0';
	}
	if (n > 0)
		out(w, buf, (size_t)n);
}

// {f:NAME}: what f renders, quoted as a compiler quotes it.
static void
out_textfmt(struct walk *w, enum irs_textfmt tf, const char *s, size_t n)
{
	struct irs_buf b;
	irs_buf_init(&b);
	if (irs_fmt_text(tf, s, n, &b))
		out(w, b.data ? b.data : "", b.len);
	else
		w->fatal = &irs_enomem, w->stop = true;
	irs_buf_deinit(&b);
}

// Field @p fd rendered into w->fmt_sink (a sink of its own when that is
// in use, by a format inside a format); NULL on OOM (the walk stopped).
static struct irs_sink *
render_aside(struct walk *w, struct frame *f, const struct lfield *fd,
	     struct irs_sink *own)
{
	struct irs_sink *side = own;
	if (!w->fmt_sink_busy) {
		if (!w->fmt_sink_ready && !irs_sink_init(&w->fmt_sink, NULL,
							 false))
			w->fmt_sink_ready = true;
		if (w->fmt_sink_ready)
			side = &w->fmt_sink;
	}
	if (side == own && irs_sink_init(own, NULL, false)) {
		w->fatal = &irs_enomem;
		w->stop = true;
		return NULL;
	}
	struct irs_sink *saved = w->text;
	bool busy = w->fmt_sink_busy;
	side->len = 0;
	side->failed = false;
	w->fmt_sink_busy = true;
	w->text = side;
	w->detached++;
	render_field(w, f, fd, NULL);
	w->detached--;
	w->text = saved;
	w->fmt_sink_busy = busy;
	if (side->failed) {
		if (side == own)
			irs_sink_deinit(own);
		w->fatal = &irs_enomem;
		w->stop = true;
		return NULL;
	}
	return side;
}

// Integer @p v by op's integer format (%c, %d, %x...), its '*' width
// @p width when it has one; snprintf's result.
static int
format_int(char *buf, size_t len, const struct top *op, int width, int64_t v)
{
	if (op->fmt_class == 'c')
		return op->width ? snprintf(buf, len, op->fmt, width, (int)v)
			: snprintf(buf, len, op->fmt, (int)v);
	return op->width ? snprintf(buf, len, op->fmt, width, (long long)v)
		: snprintf(buf, len, op->fmt, (long long)v);
}

// {f:FMT}: the value converted to what the format wants.
static void
render_formatted(struct walk *w, struct frame *f, const struct lfield *fd,
		 const struct top *op)
{
	char buf[1200];
	int n = 0;
	int width = w->fmt_width;	// of a '*' (run_template set it)
	if (fd->kind == LK_UNION) {
		const struct lfield *c = irs_union_case(w, f, fd, true);
		if (c)
			render_formatted(w, f, c, op);
		else
			outs(w, "<bad tag>");
		return;
	}
	if (fd->kind == LK_PICK &&
	    fd->index_seq->seq->elem->kind != LK_EMBED) {
		// a scalar element: formatted as the element field is
		uint64_t i, ea;
		w->ctx_uses++;
		if (!pick_at(w, f, fd, &i, &ea)) {
			render_pick(w, f, fd);	// its marker and error
			return;
		}
		struct frame *sf = irs_walk_push_slot(w, ea, NULL,
						fd->index_seq->seq->stride);
		if (!sf) {
			out_fail(w, ea);
			return;
		}
		render_formatted(w, sf, fd->index_seq->seq->elem, op);
		irs_walk_pop(w);
		return;
	}
	if (op->fmt_class == 'L' && fd->kind == LK_FLOAT) {
		out_lua_float(w, irs_load_f(f->data, &fd->at));
		return;
	}
	if (op->fmt_class == 'L' && (fd->kind == LK_INT ||
				     fd->kind == LK_UINT ||
				     fd->kind == LK_BOOL ||
				     fd->kind == LK_ENUM ||
				     fd->kind == LK_DELTA)) {
		render_field(w, f, fd, NULL);
		return;
	}
	// a numeric format on what is not a number (a union's struct case,
	// say) leaves it as it renders
	if (op->fmt_class == 's' || op->fmt_class == 'L' ||
	    op->fmt_class == 'N' ||
	    fd->kind == LK_COMPUTED || fd->kind == LK_GLOBAL ||
	    fd->kind == LK_CSTR || fd->kind == LK_CHARS ||
	    fd->kind == LK_STRN || fd->kind == LK_SEQ ||
	    fd->kind == LK_EMBED || fd->kind == LK_INDEX ||
	    fd->kind == LK_PTR || fd->kind == LK_REF ||
	    fd->kind == LK_PICK || fd->kind == LK_SLICE ||
	    fd->kind == LK_SHAPE) {
		// render normally aside, then format that
		struct irs_sink own;
		struct irs_sink *side = render_aside(w, f, fd, &own);
		if (!side)
			return;
		if (op->fmt_class == 'L') {
			out_lua_string(w, side->buf, side->len);
		} else if (op->fmt_class == 'N') {
			out_textfmt(w, (enum irs_textfmt)op->textfmt,
				    side->buf, side->len);
		} else if (op->pad) {
			size_t pad = (size_t)abs(op->pad);
			size_t fill = side->len < pad ? pad - side->len : 0;
			if (op->pad > 0)
				out_blanks(w, fill);
			out(w, side->buf, side->len);
			if (op->pad < 0)
				out_blanks(w, fill);
		} else if (op->fmt_class == 's') {
			if (!irs_sink_reserve(side, 1))
				goto done;
			side->buf[side->len] = '\0';
			n = side->len >= 1000 ? -1 : op->width
				? snprintf(buf, sizeof(buf), op->fmt, width,
					   side->buf)
				: snprintf(buf, sizeof(buf), op->fmt, side->buf);
			if (n >= 0 && (size_t)n < sizeof(buf)) {
				out(w, buf, (size_t)n);
			} else {
				char *o;
				n = op->width ? asprintf(&o, op->fmt, width,
							 side->buf)
					: asprintf(&o, op->fmt, side->buf);
				if (n > 0)
					out(w, o, (size_t)n);
				if (n >= 0)
					free(o);
			}
		} else {
			out(w, side->buf, side->len);
		}
done:
		if (side == &own)
			irs_sink_deinit(&own);
		return;
	}
	if (op->fmt_class == 'f') {
		double d = fd->kind == LK_FLOAT ? irs_load_f(f->data, &fd->at)
			: fd->at.is_signed ? (double)irs_field_int(f, fd)
			: (double)irs_load_u(f->data, &fd->at);
		if (fd->kind == LK_DELTA) {
			int64_t v = 0;
			if (!irs_walk_delta(w, f, fd, &v)) {
				outs(w, "<null>");
				return;
			}
			d = (double)v;
		}
		n = op->width ? snprintf(buf, sizeof(buf), op->fmt, width, d)
			: snprintf(buf, sizeof(buf), op->fmt, d);
	} else {
		int64_t v = fd->kind == LK_FLOAT
			? (int64_t)irs_load_f(f->data, &fd->at)
			: (fd->kind == LK_PTR || fd->kind == LK_REF)
			? (int64_t)irs_load_ptr(f, fd)
			: fd->kind == LK_DELTA ? 0
			: irs_field_int(f, fd);
		if (fd->kind == LK_DELTA && !irs_walk_delta(w, f, fd, &v)) {
			outs(w, "<null>");
			return;
		}
		n = format_int(buf, sizeof(buf), op, width, v);
	}
	if (n > 0)
		out(w, buf, (size_t)n < sizeof(buf) ? (size_t)n
		    : sizeof(buf) - 1);
}

// {f} of an integer or enum field, inline; false for other kinds.
HOT bool
render_int(struct walk *w, const struct frame *f, const struct lfield *fd)
{
	char tmp[24];
	size_t n;
	switch (fd->kind) {
	case LK_INT:
		n = irs_fmt_i64(tmp, irs_load_i(f->data, &fd->at));
		break;
	case LK_UINT:
		n = irs_fmt_u64(tmp, irs_load_u(f->data, &fd->at));
		break;
	case LK_ENUM: {
		int64_t v = irs_field_int(f, fd);
		const char *name = irs_lenum_name(fd->en, v);
		if (name) {
			outs(w, name);
			return true;
		}
		n = irs_fmt_i64(tmp, v);
		break;
	}
	case LK_DELTA: {
		int64_t v;
		if (!irs_walk_delta(w, f, fd, &v)) {
			outs(w, "<null>");
			return true;
		}
		n = irs_fmt_i64(tmp, v);
		break;
	}
	default:
		return false;
	}
	out(w, tmp, n);
	return true;
}

// {f} of a number: integers and enums as render_int(), then bools and
// floats.
static void
render_number(struct walk *w, struct frame *f, const struct lfield *fd)
{
	char tmp[40];
	if (render_int(w, f, fd))
		return;
	if (fd->kind == LK_BOOL) {
		if (irs_load_u(f->data, &fd->at))
			out(w, "true", 4);
		else
			out(w, "false", 5);
		return;
	}
	out(w, tmp, irs_fmt_double(tmp, irs_load_f(f->data, &fd->at)));	// LK_FLOAT
}

static void
render_field(struct walk *w, struct frame *f, const struct lfield *fd,
	     const struct top *op)
{
	if (op && op->fmt) {
		render_formatted(w, f, fd, op);
		return;
	}
	switch (fd->kind) {
	case LK_INT: case LK_UINT: case LK_BOOL: case LK_FLOAT: case LK_ENUM:
	case LK_DELTA:
		render_number(w, f, fd);
		return;
	case LK_CSTR: case LK_STRN:
		render_string(w, f, fd);
		return;
	case LK_CHARS: {
		const char *s = (const char *)f->data + fd->at.offset;
		const char *nul = memchr(s, 0, fd->nchars);
		out(w, s, nul ? (size_t)(nul - s) : fd->nchars);
		return;
	}
	case LK_PTR: {
		uint64_t p = irs_load_ptr(f, fd);
		if (p)
			render_struct(w, &w->lo->types[fd->type], p, NULL, fd);
		else
			outs(w, "<null>");
		return;
	}
	case LK_REF: {
		uint64_t p = irs_load_ptr(f, fd);
		if (p)
			irs_walk_render_ref(w, &w->lo->types[fd->type], p,
					    f->addr + fd->at.offset, fd);
		else
			outs(w, "<null>");
		return;
	}
	case LK_EMBED:
		render_struct(w, &w->lo->types[fd->type],
			      f->addr + fd->at.offset,
			      f->data + fd->at.offset, fd);
		return;
	case LK_INDEX:
		render_index(w, f, fd);
		return;
	case LK_UNION: {
		const struct lfield *c = union_case(w, f, fd);
		if (!c)
			outs(w, "<bad tag>");
		else if (!render_int(w, f, c))
			render_field(w, f, c, op);
		return;
	}
	case LK_SEQ:
		render_seq(w, f, fd, "", 0, false, NULL);
		return;
	case LK_SLICE: {
		int64_t lim[2];
		slice_limits(w, f, fd, lim);
		render_seq(w, f, fd->index_seq, "", 0, false, lim);
		return;
	}
	case LK_PICK:
		render_pick(w, f, fd);
		return;
	case LK_UP: case LK_PREV:	// the compiler refuses {^T}
		return;
	case LK_COMPUTED: {
		if (!irs_walk_call_lua(w, f, fd->fn, fd, true,
				       fd->pure)) {
			outs(w, "<error>");
			return;
		}
		lua_State *L = irs_lua_state(w->lo->lua);
		size_t len;
		const char *s = lua_tolstring(L, -1, &len);	// a string
		out(w, s, len);
		lua_pop(L, 1);
		return;
	}
	case LK_GLOBAL:
		render_global(w, f, fd, op);
		return;
	case LK_SHAPE:
		irs_shape_render(w, f, fd);
		return;
	}
}

// Follows op's path through ptr/ref/embed fields; returns the frame that
// holds the last field, after pushing *npushed frames (0 for a plain
// field), or NULL when a pointer on the way is NULL or unreadable
// (rendered as such when @p say; *fault, if given, set to an unreadable
// one).
static struct frame *
follow_path(struct walk *w, struct frame *f, const struct lfield *const *path,
	    uint32_t npath, bool say, uint32_t *npushed, uint64_t *fault)
{
	*npushed = 0;
	for (uint32_t i = 0; i + 1 < npath; i++) {
		const struct lfield *fd = path[i];
		struct frame *next;
		uint64_t p = 0;
		switch (fd->kind) {
		case LK_UP:	// no push: the frame is on the walk already
			w->ctx_uses++;
			if (!(next = irs_seq_owner(w, fd->type))) {
				if (say) {
					outs(w, "<no ");
					outs(w, w->lo->types[fd->type].name);
					outs(w, ">");
				}
				return NULL;
			}
			f = next;
			continue;
		case LK_EMBED:
			next = irs_walk_push(w, &w->lo->types[fd->type],
					     f->addr + fd->at.offset,
					     f->data + fd->at.offset, fd);
			break;
		case LK_PREV:
			w->ctx_uses++;	// where f is, not memory alone
			irs_units_lost_outside(w, f, false);
			p = f->prev;
			goto pointer;
		case LK_PICK: {
			uint64_t k, ea;
			w->ctx_uses++;
			if (!pick_at(w, f, fd, &k, &ea)) {
				if (say) {
					irs_walk_bad_index(w, fd, fd->lo, f);
					char tmp[48];
					int n = snprintf(tmp, sizeof(tmp),
							 "<bad index %lld>",
							 (long long)fd->lo);
					out(w, tmp, (size_t)n);
				}
				return NULL;
			}
			p = elem_struct(w, fd->index_seq->seq->elem, ea,
					NULL);
			w->next_elem = k;	// {=#} of the element
			goto pointer;
		}
		default:	// LK_PTR, LK_REF
			p = irs_load_ptr(f, fd);
		pointer:
			if (!p) {
				w->next_elem = UINT64_MAX;
				if (say)
					outs(w, "<null>");
				return NULL;
			}
			next = irs_walk_push(w, &w->lo->types[fd->type], p,
					     NULL, fd);
			if (!next && fault && !w->stop && !w->too_deep)
				*fault = p;
			if (!next && say)
				out_fail(w, p);
		}
		if (!next)
			return NULL;
		++*npushed;
		f = next;
	}
	return f;
}

struct frame *
irs_walk_follow(struct walk *w, struct frame *f, const struct lcval *v,
		uint32_t *npushed)
{
	uint64_t fault = 0;
	return follow_path(w, f, v->path, v->npath, false, npushed, &fault);
}

static struct frame *
follow(struct walk *w, struct frame *f, const struct top *op, bool say,
       uint32_t *npushed, uint64_t *fault)
{
	return follow_path(w, f, op->path, op->npath, say, npushed, fault);
}

static void
unfollow(struct walk *w, uint32_t npushed)
{
	while (npushed--)
		irs_walk_pop(w);
}

void
irs_walk_unfollow(struct walk *w, uint32_t npushed)
{
	unfollow(w, npushed);
}

void
irs_walk_field(struct walk *w, struct frame *f, const struct lfield *fd)
{
	render_field(w, f, fd, NULL);
}

bool
irs_walk_truthy(struct walk *w, struct frame *f, const struct lfield *fd)
{
	uint64_t fault = 0;
	return truthy(w, f, fd, &fault) && !fault;
}

// {f.g}: following a path only reads, it visits nothing.
static void
run_op_path(struct walk *w, struct frame *f, const struct top *op)
{
	uint32_t np;
	w->detached++;
	struct frame *g = follow(w, f, op, true, &np, NULL);
	if (g)
		render_field(w, g, op->path[op->npath - 1], op);
	unfollow(w, np);
	w->detached--;
}

// Notes that field @p fd of node frame @p f was rendered whole when no
// error happened since @p nfail: its nodes are all visited.
static void
mark_done(struct walk *w, struct frame *f, const struct lfield *fd,
	  uint64_t nfail)
{
	size_t i = (size_t)(fd - f->t->fields);	// requires: a field of f
	if (w->nfail == nfail && !w->stop && !w->detached && i < 64)
		f->done |= 1ull << i;
}

// {f} without a format in a value's frame (an operand), for the kinds a
// value holds most: references and unions of them, inline; false for the
// others (render_field() then).
static inline bool
render_plain(struct walk *w, struct frame *f, const struct lfield *fd)
{
	if (fd->kind == LK_UNION) {
		const struct lfield *c = union_case(w, f, fd);
		if (!c) {
			outs(w, "<bad tag>");
			return true;
		}
		if (render_int(w, f, c))
			return true;
		if (c->kind != LK_REF) {
			render_field(w, f, c, NULL);
			return true;
		}
		fd = c;
	} else if (fd->kind != LK_REF) {
		return false;
	}
	uint64_t p = irs_load_ptr(f, fd);
	if (p)
		render_ref(w, &w->lo->types[fd->type], p,
			   f->addr + fd->at.offset, fd);
	else
		outs(w, "<null>");
	return true;
}

// Whether field @p fd is true, as {?f} asks: integers inline.
HOT bool
truthy_fast(struct walk *w, struct frame *f, const struct lfield *fd,
	    uint64_t *fault)
{
	switch (fd->kind) {
	case LK_INT: case LK_UINT: case LK_BOOL: case LK_ENUM: case LK_INDEX:
		return irs_load_u(f->data, &fd->at) != 0;
	default:
		return truthy(w, f, fd, fault);
	}
}

// {?f.g}: follows the path (reading, visiting nothing); an unreadable
// pointer on the way is true, as an unreadable string is.
static bool
truthy_path(struct walk *w, struct frame *f, const struct lfield *const *path,
	    uint32_t npath, uint64_t *fault)
{
	uint32_t np;
	struct frame *g = follow_path(w, f, path, npath, false, &np, fault);
	bool yes = g ? truthy(w, g, path[npath - 1], fault) : *fault != 0;
	unfollow(w, np);
	return yes;
}

// Whether the body of the {?...} at @p op shows the value at @p path:
// else its marker goes before the body, so that what could not be read is
// in the text (and its hash) whatever the body shows.
static bool
body_shows(const struct top *ops, const struct top *op,
	   const struct lfield *const *path, uint32_t npath)
{
	for (const struct top *b = op + 1; b < ops + op->jump; b++) {
		if ((b->code != TOP_FIELD && b->code != TOP_SEQ &&
		     b->code != TOP_REFOF) || b->npath != npath)
			continue;
		uint32_t i = 0;
		while (i < npath && b->path[i] == path[i])
			i++;
		if (i == npath)
			return true;
	}
	return false;
}

/* {====================================================== conditions */

// The value of field @p fd in a frame of its own at @p a (@p size bytes:
// a global's value, an element); false when it has none.
static bool
cond_at(struct walk *w, uint64_t a, size_t size, const struct lfield *fd,
	struct cnum *r, uint64_t *fault)
{
	struct frame *sf = irs_walk_push_slot(w, a, NULL, size);
	if (!sf) {
		if (!w->stop && !w->too_deep && !*fault)
			*fault = a;
		return false;
	}
	bool ok = cond_field(w, sf, fd, r);
	irs_walk_pop(w);
	return ok;
}

// The value of field @p fd of frame @p f; false when it has none (a union
// whose tag has no case: the error is recorded; an element not there).
static bool
cond_field(struct walk *w, struct frame *f, const struct lfield *fd,
	   struct cnum *r)
{
	uint64_t fault = 0;
	switch (fd->kind) {
	case LK_FLOAT:
		r->is_float = true;
		r->d = irs_load_f(f->data, &fd->at);
		return true;
	case LK_PTR: case LK_REF:
		r->is_unsigned = true;
		r->i = (int64_t)irs_load_ptr(f, fd);
		return true;
	case LK_UNION: {
		const struct lfield *c = irs_union_case(w, f, fd, true);
		return c && c->kind != LK_UNION && cond_field(w, f, c, r);
	}
	case LK_INT: case LK_UINT: case LK_BOOL: case LK_ENUM: case LK_INDEX:
		r->is_unsigned = !fd->at.is_signed;
		r->i = irs_field_int(f, fd);
		return true;
	case LK_DELTA:
		return irs_walk_delta(w, f, fd, &r->i);
	case LK_GLOBAL: {	// the value it names
		uint64_t a;
		const struct lglob *g = fd->glob;
		return g->value->kind != LK_EMBED &&
		       irs_walk_global(w, f, fd, false, &a) &&
		       cond_at(w, a, g->value_size, g->value, r, &fault);
	}
	case LK_PICK: {		// the element's value, if there is one
		uint64_t i, ea;
		const struct lseq *s = fd->index_seq->seq;
		w->ctx_uses++;
		return s->elem->kind != LK_EMBED && pick_at(w, f, fd, &i, &ea) &&
		       cond_at(w, ea, s->stride, s->elem, r, &fault);
	}
	case LK_SHAPE:
		return irs_shape_int(w, f, fd, &r->i);
	default:	// the compiler refuses the others
		return false;
	}
}

// The value of path @p e->path; false when it has none or cannot be read
// (then *fault is the address, *bad the expression).
static bool
path_value(struct walk *w, struct frame *f, const struct lexpr *e,
	   struct cnum *r, uint64_t *fault, const struct lexpr **bad)
{
	if (e->npath == 1)	// a field of this frame: nothing to follow
		return cond_field(w, f, e->path[0], r);
	uint32_t np;
	uint64_t at = 0;
	struct frame *g = follow_path(w, f, e->path, e->npath, false, &np,
				      &at);
	bool ok = g && cond_field(w, g, e->path[e->npath - 1], r);
	unfollow(w, np);
	if (at && !*fault) {
		*fault = at;
		*bad = e;
	}
	return ok;
}

// The number of elements of sequence or slice @p e->path (#s).
static bool
count_value(struct walk *w, struct frame *f, const struct lexpr *e,
	    int64_t *r, uint64_t *fault, const struct lexpr **bad)
{
	uint32_t np;
	uint64_t at = 0, from, to;
	struct seqinfo tmp;
	const struct lfield *l = e->path[e->npath - 1];
	int64_t lim[2];
	if (l->kind == LK_SLICE)
		slice_limits(w, f, l, lim);	// where the path starts
	struct frame *g = follow_path(w, f, e->path, e->npath, false, &np,
				      &at);
	const struct lfield *seq = l->kind == LK_SLICE ? l->index_seq : l;
	const struct seqinfo *si = g ? irs_seq_info(w, g, seq, &tmp) : NULL;
	bool ok = si && si->bad == SEQ_OK;
	if (ok && l->kind == LK_SLICE) {
		slice_bounds(lim, si->n, &from, &to);
		*r = (int64_t)(to - from);
	} else if (ok) {
		*r = (int64_t)si->n;
	}
	unfollow(w, np);
	if (at && !*fault) {
		*fault = at;
		*bad = e;
	}
	return ok;
}

static struct irs_sink *render_aside(struct walk *w, struct frame *f,
				     const struct lfield *fd,
				     struct irs_sink *own);

// len(PATH): the bytes {PATH} renders, rendered aside.
static bool
len_value(struct walk *w, struct frame *f, const struct lexpr *e,
	  int64_t *r)
{
	uint32_t np;
	struct irs_sink own;
	w->detached++;
	struct frame *g = follow_path(w, f, e->path, e->npath, false, &np,
				      NULL);
	struct irs_sink *side = g ? render_aside(w, g, e->path[e->npath - 1],
						 &own) : NULL;
	if (side) {
		*r = (int64_t)side->len;
		if (side == &own)
			irs_sink_deinit(&own);
	}
	unfollow(w, np);
	w->detached--;
	return side != NULL;
}

// Shifts as C does on 64 bits, defined where C is not: a count outside
// [0, 63] shifts everything out (the sign stays, for a signed >>).
static int64_t
shift(int64_t a, int64_t b, bool left, bool is_unsigned)
{
	uint64_t u = (uint64_t)a;
	if (b < 0 || b > 63)
		return left || is_unsigned || a >= 0 ? 0 : -1;
	if (left)
		return (int64_t)(u << b);
	if (is_unsigned || a >= 0)
		return (int64_t)(u >> b);
	return (int64_t)~(~u >> b);	// arithmetic, without relying on C's
}

static bool eval_bool(struct walk *w, struct frame *f, const struct lexpr *e,
		      uint64_t *fault, const struct lexpr **bad);

// The value of integer expression @p e (wrapping, as C's uint64_t
// arithmetic does; a float is truncated); false when it has none or
// cannot be read, as path_value(). The parser bounds the depth.
static bool
eval_num(struct walk *w, struct frame *f, const struct lexpr *e,
	 struct cnum *r, uint64_t *fault, const struct lexpr **bad)
{
	struct cnum x, y;
	memset(r, 0, sizeof(*r));
	switch (e->code) {
	case LE_NUM:
		r->i = e->k;
		r->is_unsigned = e->is_unsigned;
		return true;
	case LE_PATH:
		return path_value(w, f, e, r, fault, bad);
	case LE_ELEM:
		w->ctx_uses++;		// where we are, not memory alone
		irs_units_lost_outside(w, f, false);
		if (f->elem == UINT64_MAX) {
			irs_walk_error(w, NULL, f->addr, "{=#}: this %s is no "
				       "element of a sequence",
				       f->t ? f->t->name : "value");
			return false;
		}
		r->i = (int64_t)f->elem;
		return true;
	case LE_COUNT:
		return count_value(w, f, e, &r->i, fault, bad);
	case LE_LEN:
		return len_value(w, f, e, &r->i);
	case LE_COL:
		w->ctx_uses++;
		irs_units_lost(w);	// the text before the unit's
		r->i = w->text ? (int64_t)irs_sink_col(w->text) : 0;
		return true;
	default:
		break;
	}
	if (!eval_num(w, f, e->a, &x, fault, bad) ||
	    (e->b && !eval_num(w, f, e->b, &y, fault, bad)))
		return false;
	// a float is truncated; out of range (or NaN) it is 0, as the
	// conversion would be undefined
	int64_t a = !x.is_float ? x.i
		: x.d > -9.2e18 && x.d < 9.2e18 ? (int64_t)x.d : 0;
	int64_t b = !e->b || !y.is_float ? y.i
		: y.d > -9.2e18 && y.d < 9.2e18 ? (int64_t)y.d : 0;
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (e->code) {
	case LE_NEG: r->i = (int64_t)(0 - ua); break;
	case LE_BNOT: r->i = (int64_t)~ua; break;
	case LE_ADD: r->i = (int64_t)(ua + ub); break;
	case LE_SUB: r->i = (int64_t)(ua - ub); break;
	case LE_MUL: r->i = (int64_t)(ua * ub); break;
	case LE_BAND: r->i = (int64_t)(ua & ub); break;
	case LE_BOR: r->i = (int64_t)(ua | ub); break;
	case LE_BXOR: r->i = (int64_t)(ua ^ ub); break;
	case LE_SHL: r->i = shift(a, b, true, false); break;
	case LE_SHR: r->i = shift(a, b, false, e->a->is_unsigned); break;
	default: return false;	// a truth value: the compiler keeps apart
	}
	return true;
}

// {=EXPR}: the integer, by the format if there is one; a value that
// cannot be read renders its marker, one that is missing <none>.
static void
run_expr(struct walk *w, struct frame *f, const struct top *op)
{
	uint64_t fault = 0;
	const struct lexpr *bad = NULL;
	struct cnum v;
	char tmp[1100];
	if (!eval_num(w, f, op->expr, &v, &fault, &bad)) {
		if (fault)
			out_addr_marker(w, "unreadable", fault);
		else if (!w->stop)	// else the walk ends with <truncated>
			outs(w, "<none>");
		return;
	}
	if (!op->fmt) {
		out(w, tmp, irs_fmt_i64(tmp, v.i));
		return;
	}
	int n = format_int(tmp, sizeof(tmp), op, w->fmt_width, v.i);
	if (n > 0)
		out(w, tmp, (size_t)n < sizeof(tmp) ? (size_t)n
		    : sizeof(tmp) - 1);
}

// The value of field path @p v (a constant when it has no path); false
// when it has none or cannot be read (the shapes' paths: cast tags, lookup
// keys, counts).
bool
irs_walk_value(struct walk *w, struct frame *f, const struct lcval *v,
	       int64_t *ret)
{
	struct cnum n;
	memset(&n, 0, sizeof(n));
	if (!v->npath) {
		*ret = v->k;
		return true;
	}
	bool ok;
	if (v->npath == 1) {	// a field of this frame: nothing to follow
		ok = cond_field(w, f, v->path[0], &n);
	} else {
		uint32_t np;
		uint64_t at = 0;
		struct frame *g = follow_path(w, f, v->path, v->npath, false,
					      &np, &at);
		ok = g && cond_field(w, g, v->path[v->npath - 1], &n) && !at;
		unfollow(w, np);
	}
	if (!ok)
		return false;
	*ret = n.is_float ? (int64_t)n.d : n.i;
	return true;
}

// -1, 0 or 1 as x is less than, equal to or greater than y; integers
// compare by value whatever their signedness.
static int
cnum_cmp(const struct cnum *x, const struct cnum *y)
{
	if (x->is_float || y->is_float) {
		double a = x->is_float ? x->d : x->is_unsigned
			? (double)(uint64_t)x->i : (double)x->i;
		double b = y->is_float ? y->d : y->is_unsigned
			? (double)(uint64_t)y->i : (double)y->i;
		return (a > b) - (a < b);
	}
	bool xneg = !x->is_unsigned && x->i < 0;
	bool yneg = !y->is_unsigned && y->i < 0;
	if (xneg != yneg)
		return xneg ? -1 : 1;
	uint64_t a = (uint64_t)x->i, b = (uint64_t)y->i;
	return (a > b) - (a < b);
}

// An operand of a comparison: a path alone keeps its own kind (a float,
// an unsigned integer); arithmetic is a signed 64-bit integer.
static bool
cmp_operand(struct walk *w, struct frame *f, const struct lexpr *e,
	    struct cnum *r, uint64_t *fault, const struct lexpr **bad)
{
	if (!eval_num(w, f, e, r, fault, bad))
		return false;
	if (e->code != LE_PATH && e->code != LE_NUM)
		r->is_unsigned = false;
	return true;
}

// Whether condition @p e holds; a value that cannot be read sets *fault
// (and *bad), and the caller takes the condition as true.
static bool
eval_bool(struct walk *w, struct frame *f, const struct lexpr *e,
	  uint64_t *fault, const struct lexpr **bad)
{
	struct cnum x, y;
	switch (e->code) {
	case LE_TEST: {
		uint64_t at = 0;
		bool yes = truthy_path(w, f, e->path, e->npath, &at);
		if (at && !*fault) {
			*fault = at;
			*bad = e;
		}
		return yes;
	}
	case LE_AND:
		return eval_bool(w, f, e->a, fault, bad) &&
		       eval_bool(w, f, e->b, fault, bad);
	case LE_OR:
		return eval_bool(w, f, e->a, fault, bad) ||
		       eval_bool(w, f, e->b, fault, bad);
	case LE_NOT:
		return !eval_bool(w, f, e->a, fault, bad);
	case LE_NONZERO:
		return eval_num(w, f, e->a, &x, fault, bad) &&
		       (x.is_float ? x.d != 0.0 : x.i != 0);
	default:
		break;
	}
	if (!cmp_operand(w, f, e->a, &x, fault, bad) ||
	    !cmp_operand(w, f, e->b, &y, fault, bad))
		return false;
	int c = cnum_cmp(&x, &y);
	switch (e->code) {
	case LE_EQ: return c == 0;
	case LE_NE: return c != 0;
	case LE_LT: return c < 0;
	case LE_LE: return c <= 0;
	case LE_GT: return c > 0;
	default: return c >= 0;		// LE_GE
	}
}

bool
irs_walk_cond(struct walk *w, struct frame *f, const struct lexpr *k)
{
	uint64_t fault = 0;
	const struct lexpr *bad = NULL;
	bool yes = eval_bool(w, f, k, &fault, &bad);
	return yes && !fault;
}

// {?EXPR} at @p op: true, with the marker, when a value it needs cannot be
// read, as {?f} is.
static bool
run_cond(struct walk *w, struct frame *f, const struct top *ops,
	 const struct top *op)
{
	uint64_t fault = 0;
	const struct lexpr *bad = NULL;
	bool yes = eval_bool(w, f, op->cond, &fault, &bad);
	if (!fault)
		return yes;
	if (!body_shows(ops, op, bad->path, bad->npath))
		out_addr_marker(w, "unreadable", fault);
	return true;
}

/* }====================================================== */

// {s*SEP}, {@f}, {@s*SEP} through a path or not.
static void
run_op_seq(struct walk *w, struct frame *f, const struct ltemplate *tpl,
	   const struct top *op)
{
	uint32_t np;
	uint64_t nfail = w->nfail;
	const struct lfield *fd = op->path[op->npath - 1];
	int64_t lim[2];
	if (fd->kind == LK_SLICE)
		slice_limits(w, f, fd, lim);	// in the template's struct
	if (op->npath > 1)
		w->detached++;
	struct frame *g = follow(w, f, op, true, &np, NULL);
	if (g && fd->kind == LK_SLICE) {
		render_seq(w, g, fd->index_seq, tpl->lits + op->lit, op->len,
			   op->code == TOP_REFOF, lim);
	} else if (g && (op->code == TOP_SEQ || op->is_seq)) {
		render_seq(w, g, fd, tpl->lits + op->lit, op->len,
			   op->code == TOP_REFOF, NULL);
		if (op->code == TOP_SEQ && op->npath == 1 && f->is_node)
			mark_done(w, f, fd, nfail);
	} else if (g && fd->kind == LK_PICK) {	// {@ops[-1]}
		uint64_t i, ea, p;
		const struct lfield *e = fd->index_seq->seq->elem;
		w->ctx_uses++;
		if (!pick_at(w, g, fd, &i, &ea)) {
			render_pick(w, g, fd);		// its marker, its error
		} else if ((p = elem_struct(w, e, ea, NULL))) {
			w->next_elem = i;
			irs_walk_render_ref(w, &w->lo->types[e->type], p,
					    e->kind == LK_EMBED ? 0 : ea, fd);
			w->next_elem = UINT64_MAX;
		} else {
			outs(w, "<null>");
		}
	} else if (g && fd->kind == LK_EMBED) {
		irs_walk_render_ref(w, &w->lo->types[fd->type],
				    g->addr + fd->at.offset, 0, fd);
	} else if (g && irs_load_ptr(g, fd)) {
		irs_walk_render_ref(w, &w->lo->types[fd->type],
				    irs_load_ptr(g, fd),
				    g->addr + fd->at.offset, fd);
	} else if (g) {
		outs(w, "<null>");
	}
	unfollow(w, np);
	if (op->npath > 1)
		w->detached--;
}

// The '*' width of op's format ({f:%-*s:EXPR}) into w->fmt_width, for
// render_formatted(): at most 999 either way, as a written width; 0 when
// EXPR has no value.
static void
format_width(struct walk *w, struct frame *f, const struct top *op)
{
	uint64_t fault = 0;
	const struct lexpr *bad = NULL;
	struct cnum v;
	int64_t k = eval_num(w, f, op->width, &v, &fault, &bad) ? v.i : 0;
	w->fmt_width = k < -999 ? -999 : k > 999 ? 999 : (int)k;
}

static void
run_template(struct walk *w, struct frame *f, const struct ltemplate *tpl)
{
	// in locals: what out() writes might alias anything in memory
	const struct top *ops = tpl->ops, *op = ops, *end = ops + tpl->nops;
	const char *lits = tpl->lits;
	// its instructions count as steps, whichever run: one count a
	// template, the same in every walk
	w->steps += tpl->nops;
	if (w->steps >= w->next_tick)
		irs_walk_tick(w);
	while (op < end) {
		// the walk stops after any instruction but a jump, a literal
		// prefix (struct top's pre) included
		if (op->pre_len) {
			out(w, lits + op->pre, op->pre_len);
			if (w->stop)
				return;
		}
		switch (op->code) {
		case TOP_LIT:
			out(w, lits + op->lit, op->len);
			break;
		case TOP_FIELD: {
			const struct lfield *fd = op->path[0];
			if (op->fmt) {
				if (op->width)
					format_width(w, f, op);
			} else if (op->npath == 1) {
				if (render_int(w, f, fd))
					break;
				if (!f->is_node && render_plain(w, f, fd))
					break;
			}
			if (op->npath > 1) {
				run_op_path(w, f, op);
				break;
			}
			uint64_t nfail = w->nfail;
			render_field(w, f, fd, op);
			if (f->is_node && !IRS_LK_STEP(fd->kind))
				mark_done(w, f, fd, nfail);
			break;
		}
		case TOP_SEQ: case TOP_REFOF:
			run_op_seq(w, f, tpl, op);
			break;
		case TOP_IF: {
			uint64_t fault = 0;
			bool yes = op->cond ? run_cond(w, f, ops, op)
				: op->npath == 1
				? truthy_fast(w, f, op->path[0], &fault)
				: truthy_path(w, f, op->path, op->npath,
					      &fault);
			if (fault && !body_shows(ops, op, op->path,
						 op->npath))
				out_addr_marker(w, "unreadable", fault);
			if (!yes) {
				op = ops + op->jump;
				continue;
			}
			break;
		}
		case TOP_JUMP:
			op = ops + op->jump;
			continue;
		case TOP_SELFREF:
			render_selfref(w, f);
			break;
		case TOP_EXPR:
			if (op->width)
				format_width(w, f, op);
			run_expr(w, f, op);
			break;
		case TOP_ADDR: {
			char tmp[24];
			out(w, tmp, irs_fmt_hex(tmp, f->addr));
			break;
		}
		}
		if (w->stop)
			return;
		op++;
	}
}

static void
render_text(struct walk *w, struct frame *f, const struct ltext *tx)
{
	switch (tx->kind) {
	case TX_NONE:
		return;
	case TX_TEMPLATE:
		run_template(w, f, tx->tpl);
		return;
	case TX_BY: {
		int64_t v = 0;
		if (!tag_value(w, f, tx->by, &v))
			v = INT64_MIN;	// no text for it, as none matches
		for (uint32_t i = 0; i < tx->ncases; i++)
			if (tx->values[i] == v) {
				run_template(w, f, tx->cases[i]);
				return;
			}
		if (tx->deflt) {
			run_template(w, f, tx->deflt);
			return;
		}
		irs_walk_error(w, tx->by, 0, "no text for %s = %lld",
			       tx->by->name, (long long)v);
		outs(w, "<bad ");
		outs(w, tx->by->name);
		outs(w, ">");
		return;
	}
	case TX_LUA: {
		if (!irs_walk_call_lua(w, f, tx->fn, NULL, true,
				       tx->pure)) {
			outs(w, "<error>");
			return;
		}
		lua_State *L = irs_lua_state(w->lo->lua);
		size_t len;
		const char *s = lua_tolstring(L, -1, &len);
		out(w, s, len);
		lua_pop(L, 1);
		return;
	}
	}
}

void
irs_walk_render_into(struct walk *w, struct frame *f, const struct lfield *fd,
		     struct irs_sink *side)
{
	struct irs_sink *saved = w->text;
	w->text = side;
	w->detached++;
	if (fd)
		render_field(w, f, fd, NULL);
	else
		render_text(w, f, &f->t->text);
	w->detached--;
	w->text = saved;
}

/* }====================================================== */

/* {====================================================== nodes */

// The node record of @p f up to its fields.
static void
write_head(struct walk *w, struct frame *f, bool spanned, uint64_t start,
	   uint64_t end)
{
	struct irs_sink *j = w->json;
	char tmp[96];
	size_t n;
	if (w->nodes_written++)
		irs_sink_put(j, ",\n", 2);
	irs_sink_put(j, "{\"id\":\"", 7);
	n = irs_fmt_hex(tmp, f->addr);
	irs_sink_put(j, tmp, n);
	irs_sink_put(j, "\",\"type\":", 9);
	irs_sink_put(j, f->t->json_name, strlen(f->t->json_name));
	if (f->parent_node != IRS_NONE) {
		irs_sink_put(j, ",\"parent\":\"", 11);
		n = irs_fmt_hex(tmp, w->frames[f->parent_node]->addr);
		irs_sink_put(j, tmp, n);
		irs_sink_put(j, "\"", 1);
	} else {
		irs_sink_put(j, ",\"parent\":null", 14);
	}
	if (spanned) {
		n = 0;
		memcpy(tmp, ",\"span\":[", 9);
		n = 9 + irs_fmt_u64(tmp + 9, start);
		tmp[n++] = ',';
		n += irs_fmt_u64(tmp + n, end);
		tmp[n++] = ']';
		irs_sink_put(j, tmp, n);
	}
	irs_sink_put(j, ",\"fields\":", 10);
}

// The record of a node whose fields are in its frame's buffer.
static void
write_record(struct walk *w, struct frame *f, bool spanned, uint64_t start,
	     uint64_t end)
{
	write_head(w, f, spanned, start, end);
	irs_sink_put(w->json, f->json.data, f->json.len);
	irs_sink_put(w->json, "}", 1);
}

// The record of a node that owns no nodes: no other record can come in
// the middle of its fields, which go straight into the sink.
static void
write_leaf(struct walk *w, struct frame *f, bool spanned, uint64_t start,
	   uint64_t end)
{
	struct irs_buf b;
	write_head(w, f, spanned, start, end);
	irs_sink_lend(w->json, &b);
	irs_json_fields(w, f, &b, ~0ull);
	bool oom = b.oom;
	irs_sink_take_back(w->json, &b);
	irs_sink_put(w->json, "}", 1);
	if (oom) {
		w->fatal = &irs_enomem;
		w->stop = true;
	}
}

bool
irs_walk_interrupted(struct walk *w)
{
	if (!irs_interrupted())
		return false;
	if (!w->fatal)
		w->fatal = irs_error_format(IRS_ERROR_INTERRUPTED,
					    "interrupted after %llu nodes",
					    (unsigned long long)w->nodes);
	w->stop = true;
	return true;
}

static void visit_node(struct walk *w, const struct ltype *t,
		       uint64_t addr, const void *data, bool render,
		       const struct lfield *via);

// A unit's walk begins or ends: detached renderings kept before are
// not its, nor is the struct a list would take its next link from.
static inline void
unit_open(struct walk *w)
{
	w->in_unit = true;
	if (!w->ucache)
		return;	// a walk without the cache keeps them: ir-dump's speed
	w->ugen = next_ugen();
	w->last_addr = 0;
}

static inline void
unit_close(struct walk *w)
{
	w->in_unit = false;
	if (!w->ucache)
		return;
	w->ugen = next_ugen();
	w->last_addr = 0;
}

static inline void
irs_units_lost_if(struct walk *w)
{
	if (w->urec)
		irs_units_lost(w);
}

void
irs_walk_visit(struct walk *w, const struct ltype *t, uint64_t addr,
	       const void *data, bool render, const struct lfield *via)
{
	if (w->stop || irs_walk_interrupted(w)) {
		if (render)
			outs(w, "<truncated>");
		return;
	}
	// one probe of the visited set per node: add, and take it back if
	// the node turns out unreadable
	// a unit of the render cache, outside any other: emitted from the
	// last walk's rendering, or walked and recorded
	// (with the cache, what a unit reads depends on the unit alone, so
	// such a walk counts more bytes read than one without: ir-dump keeps
	// its detached renderings across units, 10% of its time)
	struct irs_unit_rec *unit = NULL;
	bool opens = false;
	if (t->index == w->unit_type && !w->in_unit && render &&
	    !w->detached && w->text && !irs_visited_has(&w->visited, addr)) {
		if (w->ucache && irs_units_reuse(w, addr))
			return;
		if (w->ucache)
			unit = irs_units_begin(w, addr, t->size);
		unit_open(w);
		opens = true;
	}
	bool added;
	if (!irs_visited_add(&w->visited, addr, &added)) {
		w->fatal = &irs_enomem;
		w->stop = true;
	} else {
		if (w->urec)
			irs_units_note_visit(w, addr, added);
		if (!added) {
			if (render)
				render_backref(w, t, addr, via);
		} else {
			visit_node(w, t, addr, data, render, via);
		}
	}
	if (unit)
		irs_units_end(w, unit);
	if (opens)
		unit_close(w);
}

// irs_walk_visit() of a node just added to the visited set.
static void
visit_node(struct walk *w, const struct ltype *t, uint64_t addr,
	   const void *data, bool render, const struct lfield *via)
{
	if (w->nodes >= w->lim.max_nodes) {
		irs_units_lost_if(w);
		irs_visited_remove(&w->visited, addr);
		limit_reached(w, "max nodes", w->lim.max_nodes);
		if (render)
			outs(w, "<truncated>");
		return;
	}
	struct frame *f = irs_walk_push(w, t, addr, data, via);
	if (!f) {
		irs_units_lost_if(w);
		irs_visited_remove(&w->visited, addr);
		if (render)
			out_fail(w, addr);
		return;
	}
	t = f->t;	// the case a cast picked
	w->nodes++;
	if (w->on_node && !w->on_node(w->on_node_arg, t, addr)) {
		w->fatal = &irs_enomem;
		w->stop = true;
	}
	uint32_t saved_node = w->node_frame;
	f->is_node = true;
	f->span_mark = w->nspans;
	w->node_frame = w->depth - 1;

	bool spanned = render && w->text;
	uint64_t start = text_pos(w);
	if (spanned)
		render_text(w, f, &t->text);
	uint64_t end = text_pos(w);
	// the fields, which also visits owned nodes the text did not show;
	// without JSON, only the fields that may still hold such nodes
	uint64_t need = w->json ? ~0ull : t->owns_mask & ~f->done;
	if (w->json && !t->owns) {
		write_leaf(w, f, spanned, start, end);
	} else if (need || (!w->json && t->owns && t->nfields > 64)) {
		f->json.len = 0;
		irs_json_fields(w, f, &f->json, need);
		if (f->json.oom) {
			w->fatal = &irs_enomem;
			w->stop = true;
		}
	}
	if (w->json && t->owns)
		write_record(w, f, spanned, start, end);
	w->nspans = f->span_mark;
	w->node_frame = saved_node;
	irs_walk_pop(w);
}

/* }====================================================== */

/* {====================================================== the walk */

// The lowest address the walk may push the C stack to: recursion through
// deep IR becomes a "too deep" error instead of a crash. Found once per
// thread: for the main thread glibc reads /proc/self/maps to answer,
// which cost a trace event more than its walk.
static const char *
stack_limit(void)
{
	static _Thread_local bool known;
	static _Thread_local const char *limit;
	pthread_attr_t attr;
	void *addr;
	size_t size;
	if (known)
		return limit;
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return NULL;
	int rc = pthread_attr_getstack(&attr, &addr, &size);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return NULL;
	size_t reserve = 256 << 10;	// for Lua, printf, the debugger
	if (size < 2 * reserve)
		reserve = size / 2;
	limit = (const char *)addr + reserve;
	known = true;
	return limit;
}

struct irs_error *
irs_walk_init(struct walk *w, const struct irs_layout *lo,
	      struct irs_memory *mem, const struct irs_limits *limits)
{
	memset(w, 0, sizeof(*w));
	w->lo = lo;
	w->mem = mem;
	if (limits)
		w->lim = *limits;
	if (!w->lim.max_nodes)
		w->lim.max_nodes = 50000000;
	if (!w->lim.max_bytes)
		w->lim.max_bytes = 4ull << 30;
	if (!w->lim.max_depth)
		w->lim.max_depth = 10000;
	if (!w->lim.max_string)
		w->lim.max_string = 64 << 10;
	if (!w->lim.max_text)
		w->lim.max_text = 16ull << 30;
	w->max_steps = w->lim.max_nodes > UINT64_MAX / IRS_WALK_STEPS_PER_NODE
		? UINT64_MAX : w->lim.max_nodes * IRS_WALK_STEPS_PER_NODE;
	w->next_tick = IRS_WALK_TICK;
	w->node_frame = IRS_NONE;
	w->unit_type = IRS_NONE;
	w->next_elem = UINT64_MAX;
	w->ugen = next_ugen();	// no entry of an earlier walk answers it
	irs_visited_init(&w->visited);
	irs_visited_init(&w->error_keys);
	irs_buf_init(&w->json_errors);
	irs_buf_init(&w->scratch);
	w->stack_limit = stack_limit();
	return NULL;
}

void
irs_walk_deinit(struct walk *w)
{
	for (uint32_t i = 0; i < w->nframes; i++) {
		struct frame *f = w->frames[i];
		if (!f)
			continue;
		free(f->own);
		free(f->seqs);
		free(f->chunk);
		irs_buf_deinit(&f->json);
		free(f);
	}
	free(w->frames);
	free(w->spans);
	for (uint32_t i = 0; i < w->nerrors; i++)
		free(w->errors[i]);
	free(w->errors);
	irs_buf_deinit(&w->json_errors);
	irs_buf_deinit(&w->scratch);
	irs_visited_deinit(&w->visited);
	irs_visited_deinit(&w->error_keys);
	// w->rcache is the thread's table (rcache_table()): kept
	free(w->gaddr);
	free(w->gstate);
	irs_walk_address_forget(w);
	irs_number_forget(w);
	free(w->dbuf);
	if (w->lua_sink_ready)
		irs_sink_deinit(&w->lua_sink);
	if (w->fmt_sink_ready)
		irs_sink_deinit(&w->fmt_sink);
	irs_error_destroy(w->fatal);
	memset(w, 0, sizeof(*w));
}

// The walk from the root, Ctrl-C making it stop (irs_walk_interrupted).
static struct irs_error *
walk_root(struct walk *w, const struct ltype *t, uint64_t root)
{
	unsigned char *data = malloc(t->size);
	if (!data)
		return &irs_enomem;
	struct irs_error *err = irs_walk_read(w, root, data, t->size);
	if (err) {
		struct irs_error *e = irs_error_fault(root, "cannot read the "
			"IR root, a %s at 0x%llx: %s", t->name,
			(unsigned long long)root, err->message);
		irs_error_destroy(err);
		free(data);
		return e;
	}
	// A root with an enclosing node (a function, its module): that node
	// stands below it, unrendered, for what its fields look up there.
	const struct lfield *up = t->parent;
	uint64_t upaddr = 0;
	if (up) {
		uint64_t v = irs_load_u(data, &up->at) & up->mask;
		upaddr = v ? v - up->past : 0;
	}
	bool pushed = upaddr && irs_walk_push(w, &w->lo->types[up->type],
					      upaddr, NULL, up);
	if (t->node)
		irs_walk_visit(w, t, root, data, true, NULL);
	else
		render_value(w, t, root, data, NULL);
	if (pushed)
		irs_walk_pop(w);
	free(data);
	return NULL;
}

// The type index of the layout's outermost reduce unit, or IRS_NONE.
static uint32_t
unit_type(const struct irs_layout *lo)
{
	for (uint32_t i = 0; lo->nunits && i < lo->ntypes; i++)
		if (!strcmp(lo->types[i].name, lo->units[0]))
			return i;
	return IRS_NONE;
}

struct irs_error *
irs_walk_root(struct walk *w, const struct ltype *t, uint64_t root)
{
	if (!root)
		return irs_error_format(IRS_ERROR_FAULT, "the IR root (%s) is "
					"a NULL pointer", t->name);
	w->unit_type = unit_type(w->lo);
	if (w->ucache && (!irs_units_usable(w) ||
			  irs_unit_cache_type(w->ucache) != w->unit_type))
		w->ucache = NULL;	// the walk goes without
	if (w->ucache)
		irs_units_walk_begin(w);
	irs_interrupt_begin();
	struct irs_error *err = walk_root(w, t, root);
	irs_interrupt_end();
	// a limit stops the walk where it is, mid-line perhaps: the text
	// says so at its end, once
	if (!err && w->truncated && w->text &&
	    !irs_sink_ends_with(w->text, "<truncated>", 11))
		outs(w, "<truncated>");
	if (w->ucache)
		irs_units_walk_end(w, !err && !w->fatal && !w->stop, root);
	if (err)
		return err;
	if (w->fatal) {
		err = w->fatal;
		w->fatal = NULL;
		return err;
	}
	return NULL;
}

/* }====================================================== */
