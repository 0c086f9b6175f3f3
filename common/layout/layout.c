// Layouts: load a Lua layout file, compile it, answer questions about it
// (types, boundaries, verifiers, reduce) and describe it for
// `ir-layout show`. The pieces: sandbox.c (sandbox), decl.c and
// fields.c (what a file may declare), compile.c (to the C
// schema), template.c (text templates).
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

/* {====================================================== allocation */

// Every schema allocation is linked into the layout and freed with it:
// the compiler may be jumped out of by a Lua error at any point.
struct alloc_hdr {
	struct alloc_hdr *next;
	max_align_t align[];
};

void *
irs_layout_alloc(struct irs_layout *lo, size_t size)
{
	struct alloc_hdr *h = calloc(1, sizeof(*h) + size);
	if (!h)
		return NULL;
	h->next = lo->allocs;
	lo->allocs = h;
	return h->align;
}

char *
irs_layout_strndup(struct irs_layout *lo, const char *s, size_t n)
{
	char *p = irs_layout_alloc(lo, n + 1);
	if (p)
		memcpy(p, s, n);
	return p;
}

/* }====================================================== */

/* {====================================================== lookups */

const struct ltype *
irs_layout_find_type(const struct irs_layout *lo, const char *name)
{
	for (uint32_t i = 0; i < lo->ntypes; i++)
		if (!strcmp(lo->types[i].name, name))
			return &lo->types[i];
	return NULL;
}

const struct lfield *
irs_ltype_field(const struct ltype *t, const char *name)
{
	for (uint32_t i = 0; i < t->nfields; i++)
		if (!strcmp(t->fields[i].name, name))
			return &t->fields[i];
	return NULL;
}

struct irs_error *
irs_layout_global_address(const struct irs_layout *lo, uint32_t sym,
			  uint64_t *ret)
{
	struct irs_field_info info;
	const struct irs_target *t = lo->target;
	if (sym >= lo->nsyms)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no global %u",
					sym);
	if (!t || !t->global)
		return irs_error_format(IRS_ERROR_TARGET, "the debugger "
					"gives no global variables here");
	return t->global(t->arg, lo->syms[sym].name, ret, &info);
}

const char *
irs_lkind_word(const struct lfield *f)
{
	static const char *const words[] = {
		[LK_INT] = "an integer", [LK_UINT] = "an integer",
		[LK_BOOL] = "a bool", [LK_FLOAT] = "a float",
		[LK_ENUM] = "an enum", [LK_CSTR] = "a string",
		[LK_CHARS] = "a string", [LK_STRN] = "a string",
		[LK_PTR] = "a ptr", [LK_REF] = "a ref",
		[LK_EMBED] = "an embedded struct", [LK_INDEX] = "an index",
		[LK_UNION] = "a union", [LK_SEQ] = "a sequence",
		[LK_COMPUTED] = "a computed field", [LK_GLOBAL] = "a global",
		[LK_DELTA] = "an integer", [LK_PICK] = "an element",
		[LK_SLICE] = "a slice", [LK_UP] = "an enclosing struct",
		[LK_PREV] = "the previous element", [LK_SHAPE] = "a shape",
	};
	return f->kind < ARRAY_SIZE(words) && words[f->kind]
		? words[f->kind] : "a field";
}

const char *
irs_lenum_name(const struct lenum *en, int64_t value)
{
	if (en->dense) {
		if (value < en->dense_min ||
		    (uint64_t)(value - en->dense_min) >= en->ndense)
			return NULL;
		return en->dense[value - en->dense_min];
	}
	uint32_t lo = 0, hi = en->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (en->values[mid] < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < en->n && en->values[lo] == value ? en->names[lo] : NULL;
}

bool
irs_lenum_value(const struct lenum *en, const char *name, int64_t *ret)
{
	for (uint32_t i = 0; i < en->n; i++)
		if (!strcmp(en->raw[i], name) || !strcmp(en->names[i], name)) {
			*ret = en->values[i];
			return true;
		}
	return false;
}

/* }====================================================== */

/* {====================================================== life cycle */

static int
l_compile(lua_State *L)
{
	irs_layout_compile(L, lua_touserdata(L, 1));
	return 0;
}

static void
free_allocs(struct irs_layout *lo)
{
	struct alloc_hdr *h = lo->allocs;
	while (h) {
		struct alloc_hdr *next = h->next;
		free(h);
		h = next;
	}
	lo->allocs = NULL;
}

struct irs_error *
irs_layout_create(const char *src, size_t len, const char *chunkname,
		  const struct irs_target *t, struct irs_layout **ret)
{
	struct irs_error *err;
	if (!chunkname || !*chunkname)
		chunkname = "layout";
	if (*chunkname == '@' || *chunkname == '=')
		chunkname++;
	struct irs_layout *lo = calloc(1, sizeof(*lo));
	if (!lo)
		return &irs_enomem;
	lo->target = t;
	lo->file = irs_layout_strndup(lo, chunkname, strlen(chunkname));
	if (!lo->file) {
		free(lo);
		return &irs_enomem;
	}
	err = irs_lua_create(chunkname, 0, 0, &lo->lua);
	if (!err)
		err = irs_lua_run_chunk(lo->lua, src, len);
	if (!err)
		err = irs_lua_protect(lo->lua, l_compile, lo);
	if (err) {
		irs_layout_destroy(lo);
		return err;
	}
	lua_gc(irs_lua_state(lo->lua), LUA_GCCOLLECT);
	if (irs_debug('L'))
		fprintf(stderr, "irsnap: layout %s: %u types\n", lo->name,
			lo->ntypes);
	*ret = lo;
	return NULL;
}

struct irs_error *
irs_layout_load(const char *path, const struct irs_target *t,
		struct irs_layout **ret)
{
	char *src;
	size_t len;
	// A layout is a page of Lua, not a gigabyte: a sparse file or a
	// device given by mistake is refused before it costs memory.
	struct irs_error *err = irs_file_read_max(path, IRS_LAYOUT_MAX_BYTES,
						  false, &src, &len);
	if (err)
		return err;
	err = irs_layout_create(src, len, path, t, ret);
	free(src);
	return err;
}

void
irs_layout_destroy(struct irs_layout *lo)
{
	if (!lo)
		return;
	irs_lua_destroy(lo->lua);
	irs_donor_spec_deinit(&lo->donor);
	free(lo->donor_obj);
	free_allocs(lo);
	free(lo);
}

static int
l_donor_spec(lua_State *L)
{
	struct irs_donor_spec *d = lua_touserdata(L, 1);
	const char *file = d->layout_file;
	d->layout_file = NULL;		// irs_decl_donor fills it again
	bool has = irs_decl_donor(L, file, d);
	free((char *)file);
	if (!has)
		luaL_error(L, "declares no donor { ... }");
	return 0;
}

struct irs_error *
irs_layout_donor_spec(const char *path, struct irs_donor_spec *ret)
{
	char *src;
	size_t len;
	struct irs_lua *x;
	struct irs_donor_spec d = {0};
	struct irs_error *err = irs_file_read_max(path, IRS_LAYOUT_MAX_BYTES,
						  false, &src, &len);
	if (err)
		return err;
	err = irs_lua_create(path, 0, 0, &x);
	if (!err) {
		err = irs_lua_run_chunk(x, src, len);
		if (!err && !(d.layout_file = strdup(path)))
			err = &irs_enomem;
		if (!err)
			err = irs_lua_protect(x, l_donor_spec, &d);
		irs_lua_destroy(x);
	}
	free(src);
	if (err) {
		irs_donor_spec_deinit(&d);
		return err;
	}
	*ret = d;
	return NULL;
}

const struct irs_donor_spec *
irs_layout_donor(const struct irs_layout *lo, const char **obj_ret)
{
	*obj_ret = lo->donor_obj;
	return lo->donor_obj ? &lo->donor : NULL;
}

/* }====================================================== */

/* {====================================================== accessors */

const char *
irs_layout_name(const struct irs_layout *lo)
{
	return lo->name;
}

const char *
irs_layout_root_type(const struct irs_layout *lo)
{
	return lo->root;
}

uint32_t
irs_layout_ntypes(const struct irs_layout *lo)
{
	return lo->ntypes;
}

const char *
irs_layout_type_name(const struct irs_layout *lo, uint32_t i)
{
	return i < lo->ntypes ? lo->types[i].name : NULL;
}

uint32_t
irs_layout_nboundaries(const struct irs_layout *lo)
{
	return lo->nboundaries;
}

struct irs_error *
irs_layout_boundary(const struct irs_layout *lo, uint32_t i,
		    struct irs_boundary_info *ret)
{
	if (i >= lo->nboundaries)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "layout %s has "
					"%u boundaries, no boundary %u",
					lo->name, lo->nboundaries, i);
	*ret = lo->boundaries[i];
	ret->index = i;
	return NULL;
}

const struct lbcheck *
irs_layout_boundary_check(const struct irs_layout *lo, uint32_t i)
{
	return i < lo->nboundaries && lo->bchecks ? &lo->bchecks[i] : NULL;
}

uint32_t
irs_layout_nverifiers(const struct irs_layout *lo)
{
	return lo->nverifiers;
}

struct irs_error *
irs_layout_verifier(const struct irs_layout *lo, uint32_t i,
		    struct irs_verifier_info *ret)
{
	if (i >= lo->nverifiers)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "layout %s has "
					"%u verifiers, no verifier %u",
					lo->name, lo->nverifiers, i);
	ret->name = lo->verifiers[i].name;
	ret->call = lo->verifiers[i].call;
	ret->ok_value = lo->verifiers[i].ok;
	ret->rerun = lo->verifiers[i].rerun;
	ret->problem = lo->verifiers[i].problem;
	ret->broken = lo->verifiers[i].broken;
	return NULL;
}

const char *
irs_layout_rerun(const struct irs_layout *lo)
{
	return lo->rerun;
}

bool
irs_layout_reduces_program(const struct irs_layout *lo)
{
	return lo->reduce_program;
}

const char *
irs_layout_rerun_pass(const struct irs_layout *lo, const char *pass)
{
	for (uint32_t i = 0; pass && i < lo->npass_names; i++)
		if (!strcmp(lo->pass_names[2 * i], pass))
			return lo->pass_names[2 * i + 1];
	return NULL;
}

const char *
irs_layout_reduce_field(const struct irs_layout *lo)
{
	return lo->reduce_field;
}

bool
irs_layout_reduce_target(const struct irs_layout *lo, const char *type,
			 uint64_t loc[3], const char **target)
{
	const struct ltype *t = irs_layout_find_type(lo, type ? type
						     : lo->root);
	const struct lfield *f = t && lo->reduce_field
		? irs_ltype_field(t, lo->reduce_field) : NULL;
	if (!f || (f->kind != LK_PTR && f->kind != LK_REF))
		return false;
	loc[0] = f->at.offset;
	loc[1] = f->mask;
	loc[2] = f->past;
	*target = lo->types[f->type].name;
	return true;
}

/* }====================================================== */
