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

#include "layout_internal.h"

static void render_text(struct walk *w, struct frame *f,
			const struct ltext *tx);
static void render_field(struct walk *w, struct frame *f,
			 const struct lfield *fd, const struct top *op);

/* {====================================================== output */

static inline void
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

uint64_t
irs_load_u(const unsigned char *data, const struct lloc *l)
{
	const unsigned char *p = data + l->offset;
	uint64_t v = 0;
	switch (l->size) {
	case 1:
		v = *p;
		break;
	case 2: {
		uint16_t x;
		memcpy(&x, p, 2);
		v = x;
		break;
	}
	case 4: {
		uint32_t x;
		memcpy(&x, p, 4);
		v = x;
		break;
	}
	case 8:
		memcpy(&v, p, 8);
		break;
	default:
		memcpy(&v, p, l->size);	// bitfields spanning 3, 5.. bytes
		break;
	}
	if (l->bit_size) {
		v >>= l->bit_off;
		if (l->bit_size < 64)
			v &= (1ull << l->bit_size) - 1;
	}
	return v;
}

int64_t
irs_load_i(const unsigned char *data, const struct lloc *l)
{
	uint64_t v = irs_load_u(data, l);
	unsigned bits = l->bit_size ? l->bit_size : l->size * 8u;
	if (bits && bits < 64 && ((v >> (bits - 1)) & 1))
		v |= ~0ull << bits;
	return (int64_t)v;
}

double
irs_load_f(const unsigned char *data, const struct lloc *l)
{
	if (l->size == 4) {
		float x;
		memcpy(&x, data + l->offset, 4);
		return x;
	}
	double d;
	memcpy(&d, data + l->offset, 8);
	return d;
}

uint64_t
irs_load_ptr(const struct frame *f, const struct lfield *fd)
{
	return irs_load_u(f->data, &fd->at) & fd->mask;
}

int64_t
irs_field_int(const struct frame *f, const struct lfield *fd)
{
	if (fd->at.is_signed)
		return irs_load_i(f->data, &fd->at);
	return (int64_t)irs_load_u(f->data, &fd->at);
}

const struct lfield *
irs_union_case(struct walk *w, const struct frame *f, const struct lfield *fd,
	       bool record)
{
	const struct lunion *u = fd->un;
	int64_t tag = irs_field_int(f, u->tag);
	for (uint32_t i = 0; i < u->ncases; i++)
		if (u->values[i] == tag)
			return u->cases[i];
	if (!u->deflt && record)
		irs_walk_error(w, fd, 0, "no case for %s = %lld", u->tag->name,
			       (long long)tag);
	return u->deflt;
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
	char *full;
	if (asprintf(&full, "%s at 0x%llx, field %s: %s",
		     n ? n->t->name : "root",
		     (unsigned long long)(n ? n->addr : 0),
		     fd ? fd->name : "-", msg) < 0)
		return;
	w->errors[w->nerrors++] = full;
	json_error(w, fd, addr, msg);
	if (irs_debug('W'))
		fprintf(stderr, "irsnap: walk: %s\n", full);
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

struct irs_error *
irs_walk_read(struct walk *w, uint64_t addr, void *buf, size_t n)
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
	return irs_memory_read(w->mem, addr, buf, n);
}

struct irs_error *
irs_walk_cstr(struct walk *w, uint64_t addr, struct irs_buf *b, bool *cut)
{
	// "{?name}{name}" reads the same string twice in a row
	if (b == &w->scratch && addr && addr == w->str_addr) {
		*cut = w->str_cut;
		return NULL;
	}
	if (b == &w->scratch)
		w->str_addr = 0;
	// read up to page ends only, so a short string at the end of a
	// mapping does not fault on the next page
	b->len = 0;
	*cut = false;
	size_t want = 64;
	while (b->len < w->lim.max_string) {
		char chunk[1024];
		uint64_t a = addr + b->len;
		size_t n = 4096 - (a & 4095);
		if (n > want)
			n = want;
		if (n > w->lim.max_string - b->len)
			n = w->lim.max_string - b->len;
		struct irs_error *err = irs_walk_read(w, a, chunk, n);
		if (err)
			return err;
		const char *nul = memchr(chunk, 0, n);
		irs_buf_append(b, chunk, nul ? (size_t)(nul - chunk) : n);
		if (nul)
			break;
		if (want < sizeof(chunk))
			want *= 4;
	}
	if (b->oom)
		return &irs_enomem;
	*cut = b->len >= w->lim.max_string;
	if (b == &w->scratch) {
		w->str_addr = addr;
		w->str_cut = *cut;
	}
	return NULL;
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

static struct frame *
push(struct walk *w, const struct ltype *t, uint64_t addr, const void *data,
     size_t size, const struct lfield *via)
{
	if (w->depth >= w->lim.max_depth || below_stack_limit(w)) {
		irs_walk_error(w, via, addr, "too deep: more than %u levels",
			       w->depth);
		return NULL;
	}
	struct frame *f = frame_at(w, w->depth);
	if (!f) {
		w->fatal = &irs_enomem;
		w->stop = true;
		return NULL;
	}
	w->last_addr = 0;	// its buffer may be about to change
	if (t && t->nfields > f->nseqs) {
		struct seqinfo *s = realloc(f->seqs, t->nfields * sizeof(*s));
		if (!s) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return NULL;
		}
		f->seqs = s;
		f->nseqs = t->nfields;
	}
	if (data) {
		f->data = (unsigned char *)data;
	} else {
		if (!reserve(&f->own, &f->cap, size ? size : 1)) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return NULL;
		}
		struct irs_error *err = irs_walk_read(w, addr, f->own, size);
		if (err) {
			if (err->code != IRS_ERROR_LIMIT)
				irs_walk_error(w, via, addr, "unreadable "
					       "pointer 0x%llx%s%s",
					       (unsigned long long)addr,
					       t ? " to " : "",
					       t ? t->name : "");
			irs_error_destroy(err);
			return NULL;
		}
		f->data = f->own;
	}
	f->t = t;
	f->addr = addr;
	f->size = size;
	f->is_node = false;
	f->done = 0;
	f->parent_node = w->node_frame;
	if (t)
		memset(f->seqs, 0, t->nfields * sizeof(*f->seqs));
	w->depth++;
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

void
irs_walk_pop(struct walk *w)
{
	struct frame *f = w->frames[--w->depth];
	w->last_addr = f->addr;
	w->last_data = f->data;
	w->last_size = f->size;
}

// The reason a push failed, in the text.
static void
out_fail(struct walk *w, uint64_t addr)
{
	if (w->stop)
		outs(w, "<truncated>");
	else if (w->depth >= w->lim.max_depth || below_stack_limit(w))
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
 * Renders type @p t at @p addr by @p tx, detached (reading, visiting
 * nothing): references and indexed elements. The same node is referred to
 * again and again (a value by each of its uses, a constant by each operand
 * naming it), and its rendering depends only on memory, so short results
 * are kept in a small direct-mapped cache. Renderings that met an error,
 * looked at their context (index) or ran Lua are not kept.
 */
static void
render_detached(struct walk *w, const struct ltype *t, uint64_t addr,
		const struct ltext *tx, const struct lfield *via)
{
	struct rcache *e = NULL;
	if (w->text && tx->kind != TX_LUA) {
		if (!w->rcache)
			w->rcache = calloc(IRS_RCACHE_SIZE, sizeof(*w->rcache));
		size_t h = (size_t)((addr >> 4) ^
				    ((uintptr_t)tx * 0x9e3779b1u));
		e = w->rcache ? &w->rcache[h & (IRS_RCACHE_SIZE - 1)] : NULL;
		if (e && e->addr == addr && e->tx == tx) {
			out(w, e->text, e->len);
			return;
		}
	}
	uint64_t start = text_pos(w), nfail = w->nfail, ctx = w->ctx_uses;
	uint64_t flushed = w->text ? w->text->flushed : 0;
	w->detached++;
	struct frame *f = irs_walk_push(w, t, addr, NULL, via);
	if (!f) {
		out_fail(w, addr);
	} else {
		render_text(w, f, tx);
		irs_walk_pop(w);
	}
	w->detached--;
	size_t n = (size_t)(text_pos(w) - start);
	if (e && f && nfail == w->nfail && ctx == w->ctx_uses && !w->stop &&
	    !w->text->failed && w->text->flushed == flushed &&
	    n <= sizeof(e->text)) {
		e->addr = addr;
		e->tx = tx;
		e->len = (uint8_t)n;
		memcpy(e->text, w->text->buf + w->text->len - n, n);
	}
}

void
irs_walk_render_ref(struct walk *w, const struct ltype *t, uint64_t addr,
		    uint64_t slot, const struct lfield *via)
{
	uint64_t start = text_pos(w);
	render_detached(w, t, addr, t->ref.kind != TX_NONE ? &t->ref : &t->text,
			via);
	if (!w->detached && slot && w->text)
		log_span(w, slot, start, text_pos(w));
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
	struct frame *f = irs_walk_push(w, t, addr, data, via);
	if (!f) {
		out_fail(w, addr);
		return;
	}
	render_text(w, f, &t->text);
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
	uint64_t p = irs_load_u(f->data, &fd->at);
	uint64_t len = 0;
	if (fd->kind == LK_STRN) {
		len = irs_load_u(f->data, &fd->len);
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
	struct irs_buf *b = &w->scratch;
	struct irs_error *err;
	bool cut = false;
	if (fd->kind == LK_STRN) {
		b->len = 0;
		w->str_addr = 0;
		if (!irs_walk_room(b, len)) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return;
		}
		err = irs_walk_read(w, p, b->data, len);
		b->len = len;
	} else {
		err = irs_walk_cstr(w, p, b, &cut);
	}
	if (err) {
		if (err->code == IRS_ERROR_NOMEM) {
			w->fatal = err;
			w->stop = true;
			return;
		}
		if (err->code != IRS_ERROR_LIMIT)
			irs_walk_error(w, fd, err->address ? err->address : p,
				       "unreadable string at 0x%llx",
				       (unsigned long long)p);
		irs_error_destroy(err);
		out_addr_marker(w, "unreadable", p);
		return;
	}
	if (cut)
		irs_walk_error(w, fd, p, "string longer than %u bytes, cut",
			       w->lim.max_string);
	out(w, b->data, b->len);
}

static void
render_index(struct walk *w, struct frame *f, const struct lfield *fd)
{
	int64_t i = irs_field_int(f, fd);
	const struct ltype *et = &w->lo->types[fd->index_type];
	struct frame *enc = NULL;
	w->ctx_uses++;		// the result depends on where we are
	for (uint32_t d = w->depth; d-- > 0;)
		if (w->frames[d]->t == et) {
			enc = w->frames[d];
			break;
		}
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
	// an indexed element is referred to, not owned: detached
	const struct lfield *e = fd->index_seq->seq->elem;
	if (e->kind == LK_EMBED) {
		const struct ltype *t = &w->lo->types[e->type];
		if (t->node)
			irs_walk_render_ref(w, t, ea, 0, fd);
		else
			render_detached(w, t, ea, &t->text, fd);
		return;
	}
	struct frame *sf = irs_walk_push_slot(w, ea, NULL,
					      fd->index_seq->seq->stride);
	if (!sf) {
		out_fail(w, ea);
		return;
	}
	w->detached++;
	render_field(w, sf, e, NULL);
	w->detached--;
	irs_walk_pop(w);
}

void
irs_walk_bad_index(struct walk *w, const struct lfield *fd, int64_t i,
		   struct frame *enc)
{
	struct seqinfo tmp;
	irs_walk_error(w, fd, 0, "index %lld out of range: %s.%s has %llu "
		       "elements", (long long)i, enc->t->name,
		       fd->index_seq->name,
		       (unsigned long long)irs_seq_info(w, enc, fd->index_seq,
							&tmp)->n);
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
		else
			render_struct(w, t, addr, data, fd);
		return;
	}
	struct frame *sf = irs_walk_push_slot(w, addr, data, s->stride);
	if (!sf) {
		out_fail(w, addr);
		return;
	}
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
	irs_walk_pop(w);
}

static void
render_seq(struct walk *w, struct frame *f, const struct lfield *fd,
	   const char *sep, size_t seplen, bool as_ref)
{
	struct seq_iter it;
	uint64_t addr;
	const unsigned char *data;
	uint64_t k = 0;
	irs_seq_begin(w, f, fd, &it);
	while (irs_seq_next(w, &it, &addr, &data)) {
		if (k++)
			out(w, sep, seplen);
		render_elem(w, fd, addr, data, as_ref);
		if (w->stop)
			break;
	}
	struct seqinfo tmp;
	const struct seqinfo *si = irs_seq_info(w, f, fd, &tmp);
	if (w->stop)
		return;
	if (si->bad || it.fault) {
		if (k)
			out(w, sep, seplen);
		if (it.fault)
			out_addr_marker(w, "unreadable", it.fault);
		else
			out_seq_marker(w, si);
	}
}

static bool truthy(struct walk *w, struct frame *f, const struct lfield *fd);

// A non-empty string: read it whole, a {name} usually follows.
static bool
truthy_cstr(struct walk *w, uint64_t p)
{
	bool cut;
	struct irs_error *err = irs_walk_cstr(w, p, &w->scratch, &cut);
	if (err) {
		irs_error_destroy(err);
		return false;
	}
	return w->scratch.len > 0;
}

static bool
truthy(struct walk *w, struct frame *f, const struct lfield *fd)
{
	struct seqinfo tmp;
	switch (fd->kind) {
	case LK_INT: case LK_UINT: case LK_BOOL: case LK_ENUM: case LK_INDEX:
		return irs_load_u(f->data, &fd->at) != 0;
	case LK_FLOAT:
		return irs_load_f(f->data, &fd->at) != 0.0;
	case LK_CSTR: {
		uint64_t p = irs_load_u(f->data, &fd->at);
		return p && truthy_cstr(w, p);
	}
	case LK_CHARS:
		return f->data[fd->at.offset] != 0;
	case LK_STRN:
		return irs_load_u(f->data, &fd->at) &&
		       irs_load_u(f->data, &fd->len);
	case LK_PTR: case LK_REF:
		return irs_load_ptr(f, fd) != 0;
	case LK_EMBED:
		return true;
	case LK_UNION: {
		const struct lfield *c = irs_union_case(w, f, fd, true);
		return c && truthy(w, f, c);
	}
	case LK_SEQ:
		return irs_seq_info(w, f, fd, &tmp)->n > 0;
	case LK_COMPUTED: {
		if (!irs_walk_call_lua(w, f, fd->fn, fd, false))
			return false;
		lua_State *L = irs_lua_state(w->lo->lua);
		bool v = lua_toboolean(L, -1);
		lua_pop(L, 1);
		return v;
	}
	}
	return false;
}

// {f:FMT}: the value converted to what the format wants.
static void
render_formatted(struct walk *w, struct frame *f, const struct lfield *fd,
		 const struct top *op)
{
	char buf[1200];
	int n = 0;
	if (fd->kind == LK_UNION) {
		const struct lfield *c = irs_union_case(w, f, fd, true);
		if (c)
			render_formatted(w, f, c, op);
		else
			outs(w, "<bad tag>");
		return;
	}
	// a numeric format on what is not a number (a union's struct case,
	// say) leaves it as it renders
	if (op->fmt_class == 's' || fd->kind == LK_COMPUTED ||
	    fd->kind == LK_CSTR || fd->kind == LK_CHARS ||
	    fd->kind == LK_STRN || fd->kind == LK_SEQ ||
	    fd->kind == LK_EMBED || fd->kind == LK_INDEX ||
	    fd->kind == LK_PTR || fd->kind == LK_REF) {
		// render normally into a side sink, then format that
		struct irs_sink side, *saved = w->text;
		if (irs_sink_init(&side, NULL, false)) {
			w->fatal = &irs_enomem;
			w->stop = true;
			return;
		}
		w->text = &side;
		w->detached++;
		render_field(w, f, fd, NULL);
		w->detached--;
		w->text = saved;
		char *s = irs_sink_steal(&side, NULL);
		irs_sink_deinit(&side);
		if (!s)
			return;
		if (op->fmt_class == 's') {
			char *o;
			n = asprintf(&o, op->fmt, s);
			if (n > 0)
				out(w, o, (size_t)n);
			if (n >= 0)
				free(o);
		} else {
			out(w, s, strlen(s));
		}
		free(s);
		return;
	}
	if (op->fmt_class == 'f') {
		double d = fd->kind == LK_FLOAT ? irs_load_f(f->data, &fd->at)
			: fd->at.is_signed ? (double)irs_field_int(f, fd)
			: (double)irs_load_u(f->data, &fd->at);
		n = snprintf(buf, sizeof(buf), op->fmt, d);
	} else {
		int64_t v = fd->kind == LK_FLOAT
			? (int64_t)irs_load_f(f->data, &fd->at)
			: (fd->kind == LK_PTR || fd->kind == LK_REF)
			? (int64_t)irs_load_ptr(f, fd)
			: irs_field_int(f, fd);
		if (op->fmt_class == 'c')
			n = snprintf(buf, sizeof(buf), op->fmt, (int)v);
		else
			n = snprintf(buf, sizeof(buf), op->fmt, (long long)v);
	}
	if (n > 0)
		out(w, buf, (size_t)n < sizeof(buf) ? (size_t)n
		    : sizeof(buf) - 1);
}

static void
render_number(struct walk *w, struct frame *f, const struct lfield *fd)
{
	char tmp[40];
	size_t n;
	switch (fd->kind) {
	case LK_INT:
		n = irs_fmt_i64(tmp, irs_load_i(f->data, &fd->at));
		break;
	case LK_UINT:
		n = irs_fmt_u64(tmp, irs_load_u(f->data, &fd->at));
		break;
	case LK_BOOL:
		if (irs_load_u(f->data, &fd->at))
			out(w, "true", 4);
		else
			out(w, "false", 5);
		return;
	case LK_FLOAT:
		n = irs_fmt_double(tmp, irs_load_f(f->data, &fd->at));
		break;
	default: {	// LK_ENUM
		int64_t v = irs_field_int(f, fd);
		const char *name = irs_lenum_name(fd->en, v);
		if (name) {
			outs(w, name);
			return;
		}
		n = irs_fmt_i64(tmp, v);
	}
	}
	out(w, tmp, n);
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
		const struct lfield *c = irs_union_case(w, f, fd, true);
		if (c)
			render_field(w, f, c, op);
		else
			outs(w, "<bad tag>");
		return;
	}
	case LK_SEQ:
		render_seq(w, f, fd, "", 0, false);
		return;
	case LK_COMPUTED: {
		if (!irs_walk_call_lua(w, f, fd->fn, fd, true)) {
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
	}
}

// Follows op's path through ptr/ref/embed fields; returns the frame that
// holds the last field, after pushing *npushed frames (0 for a plain
// field), or NULL when a pointer on the way is NULL or unreadable
// (rendered as such when @p say).
static struct frame *
follow(struct walk *w, struct frame *f, const struct top *op, bool say,
       uint32_t *npushed)
{
	*npushed = 0;
	for (uint32_t i = 0; i + 1 < op->npath; i++) {
		const struct lfield *fd = op->path[i];
		const struct ltype *t = &w->lo->types[fd->type];
		struct frame *next;
		if (fd->kind == LK_EMBED) {
			next = irs_walk_push(w, t, f->addr + fd->at.offset,
					     f->data + fd->at.offset, fd);
		} else {
			uint64_t p = irs_load_ptr(f, fd);
			if (!p) {
				if (say)
					outs(w, "<null>");
				return NULL;
			}
			next = irs_walk_push(w, t, p, NULL, fd);
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

static void
unfollow(struct walk *w, uint32_t npushed)
{
	while (npushed--)
		irs_walk_pop(w);
}

// {f.g}: following a path only reads, it visits nothing.
static void
run_op_path(struct walk *w, struct frame *f, const struct top *op)
{
	uint32_t np;
	w->detached++;
	struct frame *g = follow(w, f, op, true, &np);
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
	size_t i = (size_t)(fd - f->t->fields);
	if (w->nfail == nfail && !w->stop && !w->detached && i < 64)
		f->done |= 1ull << i;
}

static void
run_template(struct walk *w, struct frame *f, const struct ltemplate *tpl)
{
	const struct top *ops = tpl->ops;
	for (uint32_t pc = 0; pc < tpl->nops;) {
		const struct top *op = &ops[pc];
		uint64_t nfail = w->nfail;
		switch (op->code) {
		case TOP_LIT:
			out(w, tpl->lits + op->lit, op->len);
			break;
		case TOP_FIELD:
			if (op->npath > 1) {
				run_op_path(w, f, op);
				break;
			}
			render_field(w, f, op->path[0], op);
			if (f->is_node)
				mark_done(w, f, op->path[0], nfail);
			break;
		case TOP_SEQ: case TOP_REFOF: {
			uint32_t np;
			if (op->npath > 1)
				w->detached++;
			struct frame *g = follow(w, f, op, true, &np);
			const struct lfield *fd = op->path[op->npath - 1];
			if (g && (op->code == TOP_SEQ || op->is_seq)) {
				render_seq(w, g, fd, tpl->lits + op->lit,
					   op->len, op->code == TOP_REFOF);
				if (op->code == TOP_SEQ && op->npath == 1 &&
				    f->is_node)
					mark_done(w, f, fd, nfail);
			} else if (g && fd->kind == LK_EMBED)
				irs_walk_render_ref(w,
					&w->lo->types[fd->type],
					g->addr + fd->at.offset, 0, fd);
			else if (g && irs_load_ptr(g, fd))
				irs_walk_render_ref(w,
					&w->lo->types[fd->type],
					irs_load_ptr(g, fd),
					g->addr + fd->at.offset, fd);
			else if (g)
				outs(w, "<null>");
			unfollow(w, np);
			if (op->npath > 1)
				w->detached--;
			break;
		}
		case TOP_IF: {
			uint32_t np;
			struct frame *g = follow(w, f, op, false, &np);
			bool yes = g && truthy(w, g, op->path[op->npath - 1]);
			unfollow(w, np);
			if (!yes) {
				pc = op->jump;
				continue;
			}
			break;
		}
		case TOP_JUMP:
			pc = op->jump;
			continue;
		case TOP_SELFREF:
			w->detached++;
			render_text(w, f, &f->t->ref);
			w->detached--;
			break;
		}
		if (w->stop)
			return;
		pc++;
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
		int64_t v = irs_field_int(f, tx->by);
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
		if (!irs_walk_call_lua(w, f, tx->fn, NULL, true)) {
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

/* }====================================================== */

/* {====================================================== nodes */

static void
write_record(struct walk *w, struct frame *f, bool spanned, uint64_t start,
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
	irs_sink_put(j, f->json.data, f->json.len);
	irs_sink_put(j, "}", 1);
}

void
irs_walk_visit(struct walk *w, const struct ltype *t, uint64_t addr,
	       const void *data, bool render, const struct lfield *via)
{
	if (w->stop) {
		if (render)
			outs(w, "<truncated>");
		return;
	}
	// one probe of the visited set per node: add, and take it back if
	// the node turns out unreadable
	bool added;
	if (!irs_visited_add(&w->visited, addr, &added)) {
		w->fatal = &irs_enomem;
		w->stop = true;
		return;
	}
	if (!added) {
		if (render)
			render_backref(w, t, addr, via);
		return;
	}
	if (w->nodes >= w->lim.max_nodes) {
		irs_visited_remove(&w->visited, addr);
		limit_reached(w, "max nodes", w->lim.max_nodes);
		if (render)
			outs(w, "<truncated>");
		return;
	}
	struct frame *f = irs_walk_push(w, t, addr, data, via);
	if (!f) {
		irs_visited_remove(&w->visited, addr);
		if (render)
			out_fail(w, addr);
		return;
	}
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
	if (need || (!w->json && t->owns && t->nfields > 64)) {
		f->json.len = 0;
		irs_json_fields(w, f, &f->json, need);
		if (f->json.oom) {
			w->fatal = &irs_enomem;
			w->stop = true;
		}
	}
	if (w->json)
		write_record(w, f, spanned, start, end);
	w->nspans = f->span_mark;
	w->node_frame = saved_node;
	irs_walk_pop(w);
}

/* }====================================================== */

/* {====================================================== the walk */

// The lowest address the walk may push the C stack to: recursion through
// deep IR becomes a "too deep" error instead of a crash.
static const char *
stack_limit(void)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return NULL;
	int rc = pthread_attr_getstack(&attr, &addr, &size);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return NULL;
	size_t reserve = 256 << 10;	// for Lua, printf, the debugger
	if (size < 2 * reserve)
		reserve = size / 2;
	return (const char *)addr + reserve;
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
	w->node_frame = IRS_NONE;
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
	free(w->rcache);
	irs_error_destroy(w->fatal);
	memset(w, 0, sizeof(*w));
}

struct irs_error *
irs_walk_root(struct walk *w, const struct ltype *t, uint64_t root)
{
	if (!root)
		return irs_error_format(IRS_ERROR_FAULT, "the IR root (%s) is "
					"a NULL pointer", t->name);
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
	if (t->node)
		irs_walk_visit(w, t, root, data, true, NULL);
	else
		render_value(w, t, root, data, NULL);
	free(data);
	if (w->fatal) {
		err = w->fatal;
		w->fatal = NULL;
		return err;
	}
	return NULL;
}

/* }====================================================== */
