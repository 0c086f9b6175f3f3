// The shapes C++ compilers keep their values in, as field constructors:
// apint (LLVM's APInt: one word inline, or behind a pointer when wider
// than 64 bits) and apfloat (an IEEEFloat's semantics, significand,
// exponent, category and sign). Each compiles to a struct lshape that the
// walk reads and renders in a file of its own (walk/shape.c dispatches).
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "layout/layout.h"

static const char *const kinds[] = { "apint", "apfloat", "lookup", "num",
				      NULL };

void
irs_shape_register(lua_State *L)
{
	for (size_t i = 0; kinds[i] && strcmp(kinds[i], "num"); i++) {
		lua_pushstring(L, kinds[i]);
		lua_pushcclosure(L, irs_fields_table_ctor, 1);
		lua_setfield(L, -2, kinds[i]);
	}
}

bool
irs_shape_is(const char *kind)
{
	for (size_t i = 0; kinds[i]; i++)
		if (!strcmp(kind, kinds[i]))
			return true;
	return false;
}

// Member @p k of @p owner, required, of a kind in @p ok, read as a
// scalar of 1 to 8 bytes (a bitfield too).
static void
member(struct irs_cc *c, const struct ltype *owner, int idx, const char *k,
       unsigned ok, const char *wants, uint32_t line, const char *qual,
       struct lloc *loc)
{
	struct irs_field_info info;
	if (lua_getfield(c->L, idx, k) == LUA_TNIL)
		irs_lua_raisef(c->L, line, "%s: '%s' is required", qual, k);
	irs_cc_loc(c, owner, -1, line, qual, 8, loc, &info, NULL);
	lua_pop(c->L, 1);
	irs_cc_kind(c, &info, ok, line, qual, k, wants);
	irs_cc_width(c, loc, line, qual);
}

// apint { value = P, words = P, width = P [, signed = false] }
static void
compile_apint(struct irs_cc *c, const struct ltype *owner, int idx,
	      uint32_t line, const char *qual, struct lshape *sh)
{
	struct lapint *a = irs_cc_alloc(c, sizeof(*a));
	irs_cc_keys(c, idx, " value words width signed ", line, qual,
		    "apint");
	// the word is often one member of a union with the pointer (APInt's
	// U.VAL and U.pVal): any 8 bytes
	member(c, owner, idx, "value", K_INTEGER | K(POINTER) | K(UNION),
	       "an integer", line, qual, &a->value);
	member(c, owner, idx, "width", K_INTEGER, "an integer", line, qual,
	       &a->width);
	lua_getfield(c->L, idx, "words");
	a->has_words = !lua_isnil(c->L, -1);
	lua_pop(c->L, 1);
	if (a->has_words)
		member(c, owner, idx, "words", K(POINTER) | K(UNION) |
		       K_INTEGER, "a pointer", line, qual, &a->words);
	a->is_signed = irs_cc_bool(c, idx, "signed", true);
	if (a->value.size != 8 || a->value.bit_size)
		irs_lua_raisef(c->L, line, "%s: apint's value is a whole word "
			       "(8 bytes)", qual);
	sh->apint = a;
}

// apfloat { semantics = P, significand = P, exponent = P, category = P,
// sign = P [, style = "llvm" | "mlir"] }
static void
compile_apfloat(struct irs_cc *c, const struct ltype *owner, int idx,
		uint32_t line, const char *qual, struct lshape *sh)
{
	struct lapfloat *a = irs_cc_alloc(c, sizeof(*a));
	irs_cc_keys(c, idx, " semantics significand exponent category sign "
		    "style bits ", line, qual, "apfloat");
	lua_getfield(c->L, idx, "bits");
	bool from_bits = !lua_isnil(c->L, -1);
	lua_pop(c->L, 1);
	if (from_bits) {	// an IEEE encoding: apfloat { bits, semantics }
		static const char *const sems[] = { "half", "bfloat", "float",
						    "double" };
		static const uint8_t sizes[] = { 2, 2, 4, 8 };
		const char *sem = irs_cc_str(c, idx, "semantics", line, qual);
		size_t k = 0;
		while (sem && k < ARRAY_SIZE(sems) && strcmp(sem, sems[k]))
			k++;
		if (!sem || k == ARRAY_SIZE(sems))
			irs_lua_raisef(c->L, line, "%s: apfloat of bits has "
				       "semantics = \"half\", \"bfloat\", "
				       "\"float\" or \"double\"", qual);
		struct irs_field_info info;
		lua_getfield(c->L, idx, "bits");
		irs_cc_loc(c, owner, -1, line, qual, sizes[k], &a->bits, &info,
			   NULL);
		lua_pop(c->L, 1);
		if (a->bits.size != sizes[k] || a->bits.bit_size)
			irs_lua_raisef(c->L, line, "%s: a %s is %u bytes", qual,
				       sem, sizes[k]);
		a->sem_name = sems[k];
		const char *style = irs_cc_str(c, idx, "style", line, qual);
		a->mlir = style && !strcmp(style, "mlir");
		sh->apfloat = a;
		return;
	}
	member(c, owner, idx, "semantics", K(POINTER) | K_INTEGER,
	       "a pointer", line, qual, &a->sem);
	member(c, owner, idx, "significand", K(UNION) | K(POINTER) |
	       K_INTEGER, "a word or a pointer", line, qual, &a->sig);
	member(c, owner, idx, "exponent", K_INTEGER, "an integer", line,
	       qual, &a->exponent);
	member(c, owner, idx, "category", K_INTEGER, "an integer", line,
	       qual, &a->category);
	member(c, owner, idx, "sign", K_INTEGER, "an integer", line, qual,
	       &a->sign);
	a->exponent.is_signed = true;
	a->category.is_signed = a->sign.is_signed = false;
	const char *style = irs_cc_str(c, idx, "style", line, qual);
	if (style && strcmp(style, "llvm") && strcmp(style, "mlir"))
		irs_lua_raisef(c->L, line, "%s: style is \"llvm\" or \"mlir\"",
			       qual);
	a->mlir = style && !strcmp(style, "mlir");
	if (a->sig.size != 8 || a->sem.size != 8)
		irs_lua_raisef(c->L, line, "%s: apfloat's semantics and "
			       "significand are whole words (8 bytes)", qual);
	sh->apfloat = a;
}

void
irs_cc_shape(struct irs_cc *c, const struct ltype *owner, const char *kind,
	     int idx, uint32_t line, const char *qual, struct lfield *f)
{
	struct lshape *sh = irs_cc_alloc(c, sizeof(*sh));
	if (!owner)
		irs_lua_raisef(c->L, line, "%s: %s cannot be an element (its "
			       "parts are members of a struct)", qual, kind);
	f->kind = LK_SHAPE;
	f->shape = sh;
	if (!strcmp(kind, "apint")) {
		sh->kind = SH_APINT;
		compile_apint(c, owner, idx, line, qual, sh);
	} else if (!strcmp(kind, "num")) {
		struct lnum *nm = irs_cc_alloc(c, sizeof(*nm));
		sh->kind = SH_NUMBER;
		sh->num = nm;
		irs_cc_num(c, idx, line, qual, nm);
	} else if (!strcmp(kind, "lookup")) {
		struct llookup *lk = irs_cc_alloc(c, sizeof(*lk));
		sh->kind = SH_LOOKUP;
		sh->lookup = lk;
		irs_cc_lookup_shape(c, owner, idx, line, qual, lk);
		f->type = lk->as->type;
	} else {
		sh->kind = SH_APFLOAT;
		compile_apfloat(c, owner, idx, line, qual, sh);
	}
}

void
irs_shape_describe(struct irs_buf *b, const struct irs_layout *lo,
		   const struct lfield *f)
{
	const struct lshape *sh = f->shape;
	switch (sh->kind) {
	case SH_APINT:
		irs_buf_printf(b, "apint: word at %u, width at %u%s%s",
			       sh->apint->value.offset,
			       sh->apint->width.offset,
			       sh->apint->has_words ? ", wider behind a "
			       "pointer" : "", sh->apint->is_signed
			       ? ", signed" : "");
		break;
	case SH_LOOKUP: {
		const struct llookup *lk = sh->lookup;
		static const char *const probes[] = { "quadratic", "linear",
						      "scan" };
		irs_buf_printf(b, "lookup in %s (%s probing, %u-byte "
			       "buckets%s) of %s: %s %s",
			       lo->types[lk->mtype].name, probes[lk->probe],
			       lk->stride, lk->deref ? " of pointers" : "",
			       lk->key.npath ? lk->key.path[lk->key.npath -
							   1]->name
			       : "its address", lk->as->kind == LK_EMBED
			       ? "embed" : lk->as->kind == LK_PTR ? "ptr"
			       : "ref", lo->types[lk->as->type].name);
		break;
	}
	case SH_NUMBER:
		irs_buf_printf(b, "num: its number in \"%s\"%s%s",
			       sh->num->name, sh->num->counter_name
			       ? ", counter " : "", sh->num->counter_name
			       ? sh->num->counter_name : "");
		break;
	case SH_APFLOAT:
		irs_buf_printf(b, "apfloat: semantics at %u, significand at "
			       "%u, exponent at %u (%s)",
			       sh->apfloat->sem.offset,
			       sh->apfloat->sig.offset,
			       sh->apfloat->exponent.offset,
			       sh->apfloat->mlir ? "as MLIR prints it"
			       : "as LLVM prints it");
		break;
	}
}

void
irs_link_shape(struct irs_cc *c, const struct ltype *owner, const char *qual,
	       struct lfield *f)
{
	if (f->shape->kind == SH_LOOKUP)
		irs_link_lookup(c, owner, qual,
				(struct llookup *)f->shape->lookup);
}
