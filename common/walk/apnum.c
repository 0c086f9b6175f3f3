// The apint and apfloat shapes: LLVM's arbitrary-precision numbers read
// from their parts and printed by fmt_apint.c and fmt_apfloat.c. An APInt
// keeps its value in one word when it is at most 64 bits wide, else
// behind a pointer to ceil(width / 64) words; an IEEEFloat keeps a pointer
// to its fltSemantics ({ maxExponent, minExponent, precision, sizeInBits },
// four 32-bit integers, defined in APFloat.cpp, so read by their place),
// its significand inline when precision + 1 bits fit a word (the x87's
// 64 + 1 do not), its exponent, category and sign.
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "walk/walk.h"

enum { MAX_APINT_BITS = 1 << 20 };	// LLVM's own limit is 2^24 - 1

// The words of apint field @p fd: in @p small when they fit, else in a
// buffer the caller frees (*heap). False (error recorded) when they
// cannot be read.
static bool
apint_words(struct walk *w, struct frame *f, const struct lfield *fd,
	    uint64_t small[2], uint64_t **heap, uint32_t *bits_ret)
{
	const struct lapint *a = fd->shape->apint;
	uint64_t bits = irs_load_u(f->data, &a->width);
	*heap = NULL;
	*bits_ret = (uint32_t)bits;
	if (bits == 0 || bits > MAX_APINT_BITS) {
		irs_walk_error(w, fd, 0, "apint of %llu bits",
			       (unsigned long long)bits);
		return false;
	}
	if (bits <= 64) {
		small[0] = irs_load_u(f->data, &a->value);
		return true;
	}
	if (!a->has_words) {
		irs_walk_error(w, fd, 0, "apint of %llu bits, and the layout "
			       "gives no words = P for its wider values",
			       (unsigned long long)bits);
		return false;
	}
	uint64_t p = irs_load_u(f->data, &a->words);
	size_t n = (size_t)(bits + 63) / 64;
	uint64_t *buf = n <= 2 ? small : malloc(n * 8);
	if (!buf) {
		w->fatal = &irs_enomem;
		w->stop = true;
		return false;
	}
	struct irs_error *err = irs_walk_read(w, p, buf, n * 8);
	if (err) {
		if (err->code != IRS_ERROR_LIMIT)
			irs_walk_error(w, fd, p, "unreadable apint words at "
				       "0x%llx", (unsigned long long)p);
		irs_error_destroy(err);
		if (buf != small)
			free(buf);
		return false;
	}
	if (buf != small)
		*heap = buf;
	return true;
}

// The apint's decimal text into @p out; false when it has none.
static bool
apint_text(struct walk *w, struct frame *f, const struct lfield *fd,
	   struct irs_buf *out)
{
	uint64_t small[2], *heap;
	uint32_t bits;
	if (!apint_words(w, f, fd, small, &heap, &bits))
		return false;
	bool ok = irs_fmt_apint(heap ? heap : small, bits,
				fd->shape->apint->is_signed, out);
	free(heap);
	if (!ok) {
		w->fatal = &irs_enomem;
		w->stop = true;
	}
	return ok;
}

bool
irs_apint_value(struct walk *w, struct frame *f, const struct lfield *fd,
		int64_t *ret)
{
	uint64_t small[2], *heap;
	uint32_t bits;
	if (!apint_words(w, f, fd, small, &heap, &bits))
		return false;
	free(heap);
	if (bits > 64)
		return false;	// no integer of a condition holds it
	uint64_t v = small[0];
	if (bits < 64) {
		v &= (1ull << bits) - 1;
		if (fd->shape->apint->is_signed && (v >> (bits - 1)) & 1)
			v |= ~0ull << bits;
	}
	*ret = (int64_t)v;
	return true;
}

// The float of apfloat field @p fd, read; false (error recorded) when it
// cannot be, or its semantics are none irsnap knows.
static bool
apfloat_read(struct walk *w, struct frame *f, const struct lfield *fd,
	     struct irs_apfloat *v)
{
	const struct lapfloat *a = fd->shape->apfloat;
	if (a->sem_name)	// an IEEE encoding
		return irs_apfloat_from_bits(a->sem_name,
					     irs_load_u(f->data, &a->bits), v);
	int32_t sem[4];
	uint64_t sp = irs_load_u(f->data, &a->sem);
	struct irs_error *err = irs_walk_read(w, sp, sem, sizeof(sem));
	if (err) {
		if (err->code != IRS_ERROR_LIMIT)
			irs_walk_error(w, fd, sp, "unreadable float semantics "
				       "at 0x%llx", (unsigned long long)sp);
		irs_error_destroy(err);
		return false;
	}
	memset(v, 0, sizeof(*v));
	v->max_exp = sem[0];
	v->min_exp = sem[1];
	v->precision = (uint32_t)sem[2];
	v->bits = (uint32_t)sem[3];
	v->exponent = (int32_t)irs_load_i(f->data, &a->exponent);
	v->category = (uint8_t)irs_load_u(f->data, &a->category);
	v->sign = irs_load_u(f->data, &a->sign) != 0;
	if (!irs_apfloat_valid(v)) {
		irs_walk_error(w, fd, sp, "float semantics of %u bits, "
			       "precision %u, category %u: none irsnap knows",
			       v->bits, v->precision, v->category);
		return false;
	}
	uint64_t sig = irs_load_u(f->data, &a->sig);
	if (v->precision + 1 <= 64) {
		v->sig[0] = sig;
		return true;
	}
	err = irs_walk_read(w, sig, v->sig, 16);
	if (err) {
		if (err->code != IRS_ERROR_LIMIT)
			irs_walk_error(w, fd, sig, "unreadable significand at "
				       "0x%llx", (unsigned long long)sig);
		irs_error_destroy(err);
		return false;
	}
	return true;
}

static bool
apfloat_text(struct walk *w, struct frame *f, const struct lfield *fd,
	     struct irs_buf *out)
{
	struct irs_apfloat v;
	if (!apfloat_read(w, f, fd, &v))
		return false;
	bool ok = fd->shape->apfloat->mlir ? irs_fmt_mlir_float(&v, out)
		: irs_fmt_llvm_float(&v, out);
	if (!ok) {
		w->fatal = &irs_enomem;
		w->stop = true;
	}
	return ok;
}

bool
irs_apnum_text(struct walk *w, struct frame *f, const struct lfield *fd,
	       struct irs_buf *out)
{
	return fd->shape->kind == SH_APINT ? apint_text(w, f, fd, out)
		: apfloat_text(w, f, fd, out);
}
