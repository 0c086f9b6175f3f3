// The walk's door to the shapes (struct lshape): the walker, the JSON
// records and Lua's view each ask here how a shape field renders, whether
// it is true, what integer it holds, and hand it on to the shape's own
// file (apnum.c: apint and apfloat).
#include <lauxlib.h>

#include "walk/walk.h"

// The text of value shape @p fd into @p out; false when it has none (the
// error recorded).
static bool
text(struct walk *w, struct frame *f, const struct lfield *fd,
     struct irs_buf *out)
{
	switch (fd->shape->kind) {
	case SH_APINT: case SH_APFLOAT:
		return irs_apnum_text(w, f, fd, out);
	}
	return false;
}

void
irs_shape_render(struct walk *w, struct frame *f, const struct lfield *fd)
{
	struct irs_buf b;
	irs_buf_init(&b);
	if (text(w, f, fd, &b))
		irs_walk_write(w, b.data ? b.data : "", b.len);
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
	default:
		return false;
	}
}

bool
irs_shape_truthy(struct walk *w, struct frame *f, const struct lfield *fd)
{
	int64_t v;
	switch (fd->shape->kind) {
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
	if (fd->shape->kind == SH_APINT && irs_apint_value(w, f, fd, &v)) {
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
	if (fd->shape->kind == SH_APINT && irs_apint_value(w, f, fd, &v)) {
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
