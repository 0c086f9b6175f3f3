// The "fields" object of a node record (docs/formats.md): every declared
// field by name, decoded from the node's frame. Owned nodes that the text
// did not show are visited here (their records come first: post-order), so
// the graph is complete whatever the templates render.
#include <string.h>

#include <lua.h>

#include "walk/walk.h"

static void json_field(struct walk *w, struct frame *f,
		       const struct lfield *fd, struct irs_buf *out);

static void
json_err(struct irs_buf *out, const char *fmt, uint64_t addr)
{
	char msg[96];
	snprintf(msg, sizeof(msg), fmt, (unsigned long long)addr);
	irs_json_lit(out, "{\"error\":");
	irs_buf_json_string(out, msg, strlen(msg));
	irs_json_lit(out, "}");
}

// A node owned through @p via: visited unless it already was; its id.
// Inside what a record only refers to (detached: the element an index
// names, what a global path names), the node is not visited from here,
// where its record would land inside this one: its id refers to it.
static void
json_owned(struct walk *w, const struct ltype *t, uint64_t addr,
	   const void *data, const struct lfield *via, struct irs_buf *out)
{
	if (w->trust || w->detached) {	// the text visited them all
		irs_json_addr(out, addr);
		return;
	}
	if (!irs_visited_has(&w->visited, addr))
		irs_walk_visit(w, t, addr, data, false, via);
	if (irs_visited_has(&w->visited, addr))
		irs_json_addr(out, addr);
	else if (w->stop)
		json_err(out, "not walked (a limit ran out): 0x%llx", addr);
	else
		json_err(out, "unreadable 0x%llx", addr);
}

// A struct value (node = false) as a nested object.
static void
json_value(struct walk *w, const struct ltype *t, uint64_t addr,
	   const void *data, const struct lfield *via, struct irs_buf *out)
{
	struct frame *f = irs_walk_push(w, t, addr, data, via);
	if (!f) {
		json_err(out, "unreadable 0x%llx", addr);
		return;
	}
	irs_json_fields(w, f, out, ~0ull);
	irs_walk_pop(w);
}

static void
json_struct(struct walk *w, const struct ltype *t, uint64_t addr,
	    const void *data, const struct lfield *via, struct irs_buf *out)
{
	if (t->node)
		json_owned(w, t, addr, data, via, out);
	else
		json_value(w, t, addr, data, via, out);
}

static void
json_string(struct walk *w, struct frame *f, const struct lfield *fd,
	    struct irs_buf *out)
{
	uint64_t p = irs_string_addr(f, fd);
	if (!p && fd->kind == LK_CSTR) {
		irs_json_lit(out, "null");
		return;
	}
	struct irs_error *err = NULL;
	bool cut = false;
	const char *str = "";
	size_t slen = 0;
	if (fd->kind == LK_CSTR) {
		err = irs_walk_str(w, p, &str, &slen, &cut);
	} else {
		uint64_t len = irs_string_len(f, fd);
		if (len > w->lim.max_string)
			len = w->lim.max_string;
		if (len && !p) {
			irs_json_lit(out, "null");
			return;
		}
		if (!irs_walk_strn(w, p, len, &str, &err))
			return;
		slen = len;
	}
	if (err) {
		uint64_t a = err->address ? err->address : p;
		irs_walk_unreadable_string(w, fd, p, err);
		json_err(out, "unreadable string at 0x%llx", a);
		return;
	}
	irs_json_str(out, str, slen);
}

static void
json_ref(struct walk *w, uint64_t p, uint64_t slot, struct irs_buf *out)
{
	if (!p) {
		irs_json_lit(out, "null");
		return;
	}
	irs_json_lit(out, "{\"ref\":");
	irs_json_addr(out, p);
	// where the text rendered this reference, from this node's log
	if (w->node_frame != IRS_NONE && slot) {
		size_t mark = w->frames[w->node_frame]->span_mark;
		for (size_t i = mark; i < w->nspans; i++)
			if (w->spans[i].slot == slot) {
				irs_json_lit(out, ",\"span\":");
				irs_json_span(out, w->spans[i].start,
					      w->spans[i].end);
				break;
			}
	}
	irs_json_lit(out, "}");
}

static void
json_index(struct walk *w, struct frame *f, const struct lfield *fd,
	   struct irs_buf *out)
{
	int64_t i = irs_field_int(f, fd);
	irs_json_lit(out, "{\"index\":");
	irs_json_i64(out, i);
	w->ctx_uses++;
	struct frame *enc = irs_seq_owner(w, fd->index_type);
	uint64_t ea;
	if (!enc) {
		irs_json_lit(out, ",\"error\":\"no enclosing node\"}");
		return;
	}
	if (i < 0 || !irs_seq_at(w, enc, fd->index_seq, (uint64_t)i, &ea)) {
		irs_walk_bad_index(w, fd, i, enc);
		irs_json_lit(out, ",\"error\":\"out of range\"}");
		return;
	}
	irs_json_lit(out, ",\"value\":");
	w->detached++;		// referred to: what it owns is not walked here
	const struct lseq *s = fd->index_seq->seq;
	if (s->elem->kind == LK_EMBED) {
		const struct ltype *t = &w->lo->types[s->elem->type];
		w->next_elem = (uint64_t)i;	// element i: {=#}, deltas
		if (t->node)
			irs_json_addr(out, ea);
		else
			json_value(w, t, ea, NULL, fd, out);
		w->next_elem = UINT64_MAX;
	} else {
		struct frame *sf = irs_walk_push_slot(w, ea, NULL, s->stride);
		if (sf) {
			json_field(w, sf, s->elem, out);
			irs_walk_pop(w);
		} else {
			json_err(out, "unreadable 0x%llx", ea);
		}
	}
	w->detached--;
	irs_json_lit(out, "}");
}

// A global field: the value it names, as an index's (a node by its id),
// plain, for its field is read in every node (an opcode name).
static void
json_global(struct walk *w, struct frame *f, const struct lfield *fd,
	    struct irs_buf *out)
{
	const struct lglob *g = fd->glob;
	uint64_t a;
	if (!irs_walk_global(w, f, fd, false, &a)) {
		char msg[300];
		int n = snprintf(msg, sizeof(msg), "no %s", g->spelled);
		irs_json_lit(out, "{\"error\":");
		irs_buf_json_string(out, msg, n > 0 && (size_t)n < sizeof(msg)
				    ? (size_t)n : strlen(msg));
		irs_json_lit(out, "}");
		return;
	}
	w->detached++;		// referred to: what it owns is not walked here
	if (g->value->kind == LK_EMBED) {
		const struct ltype *t = &w->lo->types[g->value->type];
		if (t->node)
			irs_json_addr(out, a);
		else
			json_value(w, t, a, NULL, fd, out);
	} else {
		struct frame *sf = irs_walk_push_slot(w, a, NULL,
						      g->value_size);
		if (sf) {
			json_field(w, sf, g->value, out);
			irs_walk_pop(w);
		} else {
			json_err(out, "unreadable 0x%llx", a);
		}
	}
	w->detached--;
}

static void
json_elem(struct walk *w, const struct lfield *fd, uint64_t addr,
	  const unsigned char *data, struct irs_buf *out)
{
	const struct lseq *s = fd->seq;
	const struct lfield *e = s->elem;
	if (e->kind == LK_EMBED) {
		json_struct(w, &w->lo->types[e->type], addr, data, fd, out);
		return;
	}
	struct frame *sf = irs_walk_push_slot(w, addr, data, s->stride);
	if (!sf) {
		json_err(out, "unreadable 0x%llx", addr);
		return;
	}
	json_field(w, sf, e, out);
	irs_walk_pop(w);
}

static void
json_seq(struct walk *w, struct frame *f, const struct lfield *fd,
	 struct irs_buf *out)
{
	struct seq_iter it;
	uint64_t addr;
	const unsigned char *data;
	irs_json_lit(out, "[");
	if (w->trust)
		irs_seq_begin(w, f, fd, &it);
	else
		irs_seq_begin_visit(w, f, fd, &it);
	if (w->trust && it.s->kind == SEQ_LIST) {
		// elements already walked: only their addresses are needed
		for (uint64_t k = 0; irs_seq_next(w, &it, &addr, &data); k++) {
			if (k)
				irs_json_lit(out, ",");
			irs_json_addr(out, addr);
		}
		irs_json_lit(out, "]");
		return;
	}
	for (uint64_t k = 0; irs_seq_next(w, &it, &addr, &data); k++) {
		irs_walk_step(w);
		if (k)
			irs_json_lit(out, ",");
		w->next_elem = k;	// its index, for {=#} and delta fields
		json_elem(w, fd, addr, data, out);
		w->next_elem = UINT64_MAX;
	}
	irs_json_lit(out, "]");
}

static void
json_computed(struct walk *w, struct frame *f, const struct lfield *fd,
	      struct irs_buf *out)
{
	if (!irs_walk_call_lua(w, f, fd->fn, fd, false, fd->pure)) {
		irs_json_lit(out, "{\"error\":\"Lua error\"}");
		return;
	}
	lua_State *L = irs_lua_state(w->lo->lua);
	switch (lua_type(L, -1)) {
	case LUA_TNIL:
		irs_json_lit(out, "null");
		break;
	case LUA_TBOOLEAN:
		irs_json_lit(out, lua_toboolean(L, -1) ? "true" : "false");
		break;
	case LUA_TNUMBER:
		if (lua_isinteger(L, -1))
			irs_json_i64(out, lua_tointeger(L, -1));
		else
			irs_json_double(out, lua_tonumber(L, -1));
		break;
	case LUA_TSTRING: {
		size_t len;
		const char *s = lua_tolstring(L, -1, &len);
		irs_buf_json_string(out, s, len);
		break;
	}
	default:
		irs_json_lit(out, "{\"error\":\"not a number, string or "
			     "boolean\"}");
	}
	lua_pop(L, 1);
}

static void
json_field(struct walk *w, struct frame *f, const struct lfield *fd,
	   struct irs_buf *out)
{
	switch (fd->kind) {
	case LK_INT:
		irs_json_i64(out, irs_load_i(f->data, &fd->at));
		return;
	case LK_UINT:
		irs_json_u64(out, irs_load_u(f->data, &fd->at));
		return;
	case LK_BOOL:
		irs_json_lit(out, irs_load_u(f->data, &fd->at) ? "1" : "0");
		return;
	case LK_FLOAT:
		irs_json_double(out, irs_load_f(f->data, &fd->at));
		return;
	case LK_ENUM: {
		int64_t v = irs_field_int(f, fd);
		const char *name = irs_lenum_name(fd->en, v);
		if (name)
			irs_json_str(out, name, strlen(name));
		else
			irs_json_i64(out, v);
		return;
	}
	case LK_CSTR: case LK_STRN:
		json_string(w, f, fd, out);
		return;
	case LK_CHARS: {
		const char *s = (const char *)f->data + fd->at.offset;
		const char *nul = memchr(s, 0, fd->nchars);
		irs_json_str(out, s, nul ? (size_t)(nul - s) : fd->nchars);
		return;
	}
	case LK_PTR: {
		uint64_t p = irs_load_ptr(f, fd);
		if (p)
			json_struct(w, &w->lo->types[fd->type], p, NULL, fd,
				    out);
		else
			irs_json_lit(out, "null");
		return;
	}
	case LK_REF:
		json_ref(w, irs_load_ptr(f, fd), f->addr + fd->at.offset, out);
		return;
	case LK_EMBED:
		json_struct(w, &w->lo->types[fd->type],
			    f->addr + fd->at.offset, f->data + fd->at.offset,
			    fd, out);
		return;
	case LK_INDEX:
		json_index(w, f, fd, out);
		return;
	case LK_UNION: {
		const struct lfield *c = irs_union_case(w, f, fd, true);
		if (c)
			json_field(w, f, c, out);
		else
			json_err(out, "no case for the tag (%llu)",
				 irs_load_u(f->data, &fd->un->tag->at));
		return;
	}
	case LK_SEQ:
		json_seq(w, f, fd, out);
		return;
	case LK_COMPUTED:
		json_computed(w, f, fd, out);
		return;
	case LK_GLOBAL:
		json_global(w, f, fd, out);
		return;
	case LK_DELTA: {
		int64_t v;
		if (irs_walk_delta(w, f, fd, &v))
			irs_json_i64(out, v);
		else
			irs_json_lit(out, "null");
		return;
	}
	case LK_PICK: case LK_SLICE: case LK_UP: case LK_PREV:
		irs_json_lit(out, "null");	// steps of template paths
		return;
	case LK_SHAPE:
		irs_shape_json(w, f, fd, out);
		return;
	}
}

void
irs_json_field(struct walk *w, struct frame *f, const struct lfield *fd,
	       struct irs_buf *out)
{
	json_field(w, f, fd, out);
}

// Whether field @p fd holds nodes directly (not through values), so that
// rendering it whole visited every one of them.
static bool
direct_owner(const struct irs_layout *lo, const struct lfield *fd)
{
	if (fd->kind == LK_SEQ)
		fd = fd->seq->elem;
	return (fd->kind == LK_PTR || fd->kind == LK_EMBED) &&
	       lo->types[fd->type].node;
}

void
irs_json_fields(struct walk *w, struct frame *f, struct irs_buf *out,
		uint64_t only)
{
	const struct ltype *t = f->t;
	bool saved = w->trust;
	bool first = true;
	irs_json_put(out, "{", 1);
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct lfield *fd = &t->fields[i];
		if ((i < 64 && !(only & (1ull << i))) || fd->no_json)
			continue;
		irs_walk_step(w);
		if (!first)
			irs_json_put(out, ",", 1);
		first = false;
		irs_json_put(out, fd->json_key, fd->json_key_len);
		w->trust = i < 64 && (f->done & (1ull << i)) &&
			   direct_owner(w->lo, fd);
		json_field(w, f, fd, out);
		if (w->stop && w->fatal)
			break;
	}
	w->trust = saved;
	irs_json_put(out, "}", 1);
}
