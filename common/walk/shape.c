// The walk's door to the shapes (struct lshape): the walker, the JSON
// records and Lua's view each ask here how a shape field renders, whether
// it is true, what integer it holds, and hand it on to the shape's own
// file (apnum.c: apint and apfloat; lookup.c). A shape that finds a
// struct somewhere (a lookup) puts where in a slot and hands the slot to
// an ordinary field (ptr, ref or embed at offset 0) to render.
#include <lauxlib.h>

#include "walk/walk.h"

// The text of value shape @p fd into @p out; false when it has none (the
// error recorded).
static bool
text(struct walk *w, struct frame *f, const struct lfield *fd,
     struct irs_buf *out)
{
	int64_t v;
	char tmp[24];
	switch (fd->shape->kind) {
	case SH_APINT: case SH_APFLOAT:
		return irs_apnum_text(w, f, fd, out);
	case SH_NUMBER:
		if (!irs_number_of(w, f, fd, &v))
			return false;
		return irs_buf_append(out, tmp, irs_fmt_i64(tmp, v));
	default:
		return false;
	}
}

// The slot of lookup field @p fd: a frame holding the value's bytes, to
// which fd->shape->lookup->as applies; NULL when there is none (*found
// false: not in the map, nothing to say).
static struct frame *
lookup_slot(struct walk *w, struct frame *f, const struct lfield *fd,
	    bool *found)
{
	uint64_t v;
	if (!irs_lookup_find(w, f, fd, &v, found) || !*found)
		return NULL;
	struct frame *sf = irs_walk_push_slot(w, v, NULL,
					      fd->shape->lookup->value_size);
	if (!sf)
		irs_walk_error(w, fd, v, "unreadable hash map value at 0x%llx",
			       (unsigned long long)v);
	return sf;
}

void
irs_shape_render(struct walk *w, struct frame *f, const struct lfield *fd)
{
	if (fd->shape->kind == SH_LOOKUP) {
		bool found;
		struct frame *sf = lookup_slot(w, f, fd, &found);
		if (sf) {
			irs_walk_field(w, sf, fd->shape->lookup->as);
			irs_walk_pop(w);
		} else if (found && !w->stop) {
			irs_walk_write(w, "<unreadable>", 12);
		}
		return;
	}
	struct irs_buf b;
	irs_buf_init(&b);
	if (text(w, f, fd, &b))
		irs_walk_write(w, b.data ? b.data : "", b.len);
	else if (!w->stop && fd->shape->kind == SH_NUMBER)
		irs_walk_write(w, "<none>", 6);	// not numbered
	else if (!w->stop)
		irs_walk_write(w, "<error>", 7);
	irs_buf_deinit(&b);
}

bool
irs_shape_int(struct walk *w, struct frame *f, const struct lfield *fd,
	      int64_t *ret)
{
	switch (fd->shape->kind) {
	case SH_APINT:
		return irs_apint_value(w, f, fd, ret);
	case SH_NUMBER:
		return irs_number_of(w, f, fd, ret);
	default:
		return false;
	}
}

bool
irs_shape_truthy(struct walk *w, struct frame *f, const struct lfield *fd)
{
	int64_t v;
	bool found;
	uint64_t a;
	switch (fd->shape->kind) {
	case SH_NUMBER:	// numbered
		return irs_number_of(w, f, fd, &v);
	case SH_LOOKUP:	// there, and what it names is there
		if (!irs_lookup_find(w, f, fd, &a, &found) || !found)
			return false;
		if (fd->shape->lookup->as->kind == LK_EMBED)
			return true;
		struct frame *sf = lookup_slot(w, f, fd, &found);
		bool yes = sf && irs_walk_truthy(w, sf, fd->shape->lookup->as);
		if (sf)
			irs_walk_pop(w);
		return yes;
	case SH_APINT:
		return irs_apint_value(w, f, fd, &v) && v != 0;
	default:
		return true;	// a float is there to be shown
	}
}

void
irs_shape_json(struct walk *w, struct frame *f, const struct lfield *fd,
	       struct irs_buf *out)
{
	int64_t v;
	if (fd->shape->kind == SH_LOOKUP) {
		bool found;
		struct frame *sf = lookup_slot(w, f, fd, &found);
		if (sf) {
			irs_json_field(w, sf, fd->shape->lookup->as, out);
			irs_walk_pop(w);
		} else {
			irs_json_lit(out, "null");
		}
		return;
	}
	if ((fd->shape->kind == SH_APINT && irs_apint_value(w, f, fd, &v)) ||
	    (fd->shape->kind == SH_NUMBER && irs_number_of(w, f, fd, &v))) {
		irs_json_i64(out, v);
		return;
	}
	// wider integers and floats: the text, exact
	struct irs_buf b;
	irs_buf_init(&b);
	if (text(w, f, fd, &b))
		irs_buf_json_string(out, b.data ? b.data : "", b.len);
	else
		irs_json_lit(out, "null");
	irs_buf_deinit(&b);
}

void
irs_shape_lua(lua_State *L, struct walk *w, struct frame *f,
	      const struct lfield *fd)
{
	int64_t v;
	if (fd->shape->kind == SH_LOOKUP) {
		bool found;
		struct frame *sf = lookup_slot(w, f, fd, &found);
		if (sf) {
			irs_lua_push_field(L, w, sf, fd->shape->lookup->as);
			irs_walk_pop(w);
		} else {
			lua_pushnil(L);
		}
		return;
	}
	if ((fd->shape->kind == SH_APINT && irs_apint_value(w, f, fd, &v)) ||
	    (fd->shape->kind == SH_NUMBER && irs_number_of(w, f, fd, &v))) {
		lua_pushinteger(L, (lua_Integer)v);
		return;
	}
	struct irs_buf b;
	irs_buf_init(&b);
	if (text(w, f, fd, &b))
		lua_pushlstring(L, b.data ? b.data : "", b.len);
	else
		lua_pushnil(L);
	irs_buf_deinit(&b);
}
