// Floating-point constants printed as LLVM and MLIR print them, from the
// parts an APFloat (IEEEFloat) keeps in memory: semantics, significand,
// exponent, category, sign. LLVM does not print the shortest digits that
// read back: its AsmWriter prints APFloat::toString(6, 0, false), whose
// digits are cut by an integer division before they are rounded, and
// falls back to the double's bits in hex (0x3E7AD7F29ABCAF48 for 1e-7)
// whenever those digits would not read back; printf cannot give that, so
// this is toString's algorithm on exact big integers, checked against
// opt-14's own output (tests/unit/test_formatters.c).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

// The semantics LLVM prints differently, told apart by their precision
// and width (fltSemantics { maxExponent, minExponent, precision,
// sizeInBits }).
enum sem { SEM_OTHER, SEM_HALF, SEM_BFLOAT, SEM_SINGLE, SEM_DOUBLE,
	   SEM_X87, SEM_QUAD };

static enum sem
sem_of(const struct irs_apfloat *v)
{
	switch (v->bits) {
	case 16:
		return v->precision == 11 ? SEM_HALF : v->precision == 8
			? SEM_BFLOAT : SEM_OTHER;
	case 32:
		return v->precision == 24 ? SEM_SINGLE : SEM_OTHER;
	case 64:
		return v->precision == 53 ? SEM_DOUBLE : SEM_OTHER;
	case 80:
		return v->precision == 64 ? SEM_X87 : SEM_OTHER;
	case 128:
		return v->precision == 113 ? SEM_QUAD : SEM_OTHER;
	}
	return SEM_OTHER;
}

bool
irs_apfloat_valid(const struct irs_apfloat *v)
{
	return sem_of(v) != SEM_OTHER && v->category <= IRS_FC_ZERO;
}

// The significand's low @p n bits.
static uint64_t
sig_bits(const struct irs_apfloat *v, unsigned n)
{
	return n >= 64 ? v->sig[0] : v->sig[0] & ((1ull << n) - 1);
}

void
irs_apfloat_bits(const struct irs_apfloat *v, uint64_t out[2])
{
	// the IEEE encodings (APFloat::bitcastToAPInt): biased exponent and
	// the stored significand bits; a denormal keeps the minimum exponent
	// with its integer bit clear
	unsigned frac = v->precision - 1;	// stored fraction bits
	unsigned ebits = v->bits - v->precision;
	enum sem s = sem_of(v);
	if (s == SEM_X87)
		ebits = 15, frac = 64;	// the integer bit is stored
	int32_t bias = (1 << (ebits - 1)) - 1;
	uint64_t e, lo, hi = 0;
	switch (v->category) {
	case IRS_FC_ZERO:
		e = 0;
		lo = 0;
		break;
	case IRS_FC_INF:
		e = (1u << ebits) - 1;
		lo = s == SEM_X87 ? 1ull << 63 : 0;
		break;
	case IRS_FC_NAN:
		e = (1u << ebits) - 1;
		lo = v->sig[0];
		hi = v->sig[1];
		break;
	default:
		e = (uint64_t)(v->exponent + bias);
		lo = v->sig[0];
		hi = v->sig[1];
		// no integer bit: a denormal (exponent field 0)
		if (v->exponent == 1 - bias &&
		    !(s == SEM_QUAD ? (hi >> 48) & 1 : (lo >> (v->precision -
							       1)) & 1))
			e = 0;
		break;
	}
	if (s == SEM_QUAD) {
		out[0] = lo;
		out[1] = (hi & ((1ull << 48) - 1)) | (e << 48) |
			 ((uint64_t)v->sign << 63);
		return;
	}
	if (s == SEM_X87) {
		out[0] = lo;
		out[1] = e | ((uint64_t)v->sign << 15);
		return;
	}
	out[0] = (lo & ((1ull << frac) - 1)) | (e << frac) |
		 ((uint64_t)v->sign << (v->bits - 1));
	out[1] = 0;
}

/* {====================================================== toString */

// Digits least significant first, as APFloat's buffer keeps them.
struct digits {
	char *d;
	size_t n;
};

// APFloat's AdjustToPrecision on the digit buffer: at most @p prec
// digits, rounding half up from the first digit dropped.
static void
adjust_digits(struct digits *b, int *exp, unsigned prec)
{
	size_t n = b->n;
	if (n <= prec)
		return;
	size_t first = n - prec;
	if (b->d[first - 1] < '5') {
		while (first < n && b->d[first] == '0')
			first++;
	} else {
		size_t i;
		for (i = first; i != n; i++) {
			if (b->d[i] == '9') {
				first++;
			} else {
				b->d[i]++;
				break;
			}
		}
		if (first == n) {	// carried through: one digit, 1
			*exp += (int)first;
			b->d[0] = '1';
			b->n = 1;
			return;
		}
	}
	*exp += (int)first;
	memmove(b->d, b->d + first, n - first);
	b->n = n - first;
}

static bool
append_zero(const struct irs_apfloat *v, unsigned prec, unsigned pad,
	    bool truncate_zero, struct irs_buf *out)
{
	if (v->sign)
		irs_buf_append(out, "-", 1);
	if (pad) {
		irs_buf_append(out, "0", 1);
	} else if (truncate_zero) {
		irs_buf_puts(out, "0.0E+0");
	} else {
		irs_buf_puts(out, "0.0");
		for (unsigned i = 1; i < prec; i++)
			irs_buf_append(out, "0", 1);
		irs_buf_puts(out, "e+00");
	}
	return !out->oom;
}

// The exact decimal digits of the value's magnitude, cut as APFloat's
// first AdjustToPrecision cuts them (an integer division by a power of
// ten: truncation, not rounding), trailing zeros dropped.
static bool
exact_digits(const struct irs_apfloat *v, unsigned prec, struct digits *b,
	     int *exp_ret)
{
	struct irs_big n;
	struct irs_buf dec;
	irs_big_init(&n);
	irs_buf_init(&dec);
	int exp = v->exponent - ((int)v->precision - 1);
	bool ok = irs_big_set(&n, v->sig, v->precision);
	uint32_t tz = irs_big_ctz(&n);
	exp += (int)tz;
	irs_big_shr(&n, tz);
	if (ok && exp > 0) {
		ok = irs_big_shl(&n, (uint32_t)exp);
		exp = 0;
	} else if (ok && exp < 0) {
		// N 2^-e == N 5^e 10^-e: exp counts tens from here on
		ok = irs_big_mul_pow5(&n, (uint32_t)-exp);
	}
	unsigned need = (prec * 196 + 58) / 59;	// bits of prec digits
	uint32_t bits = irs_big_bits(&n);
	if (ok && bits > need) {
		unsigned tens = (bits - need) * 59 / 196;
		exp += (int)tens;
		for (; tens >= 9; tens -= 9)
			irs_big_divmod_small(&n, 1000000000u);
		uint32_t p = 1;
		while (tens--)
			p *= 10;
		irs_big_divmod_small(&n, p);
	}
	ok = ok && irs_big_decimal(&n, &dec);
	irs_big_deinit(&n);
	if (!ok || !(b->d = malloc(dec.len + 1))) {
		irs_buf_deinit(&dec);
		return false;
	}
	size_t len = dec.len;
	while (len > 1 && dec.data[len - 1] == '0') {
		len--;
		exp++;
	}
	for (size_t i = 0; i < len; i++)
		b->d[i] = dec.data[len - 1 - i];
	b->n = len;
	irs_buf_deinit(&dec);
	*exp_ret = exp;
	return true;
}

bool
irs_apfloat_tostring(const struct irs_apfloat *v, unsigned prec,
		     unsigned pad, bool truncate_zero, struct irs_buf *out)
{
	switch (v->category) {
	case IRS_FC_INF:
		return irs_buf_puts(out, v->sign ? "-Inf" : "+Inf");
	case IRS_FC_NAN:
		return irs_buf_puts(out, "NaN");
	case IRS_FC_ZERO:
		return append_zero(v, prec, pad, truncate_zero, out);
	}
	if (v->sign)
		irs_buf_append(out, "-", 1);
	// enough digits to read back, from the precision alone (Steele and
	// White), when none are asked for
	if (!prec)
		prec = 2 + v->precision * 59 / 196;
	struct digits b;
	int exp;
	if (!exact_digits(v, prec, &b, &exp))
		return out->oom = true, false;
	adjust_digits(&b, &exp, prec);
	size_t nd = b.n;
	bool sci;
	if (!pad) {
		sci = true;
	} else if (exp >= 0) {
		// 765e3 is 765000, unless it looks more precise than it is
		sci = (unsigned)exp > pad || nd + (unsigned)exp > prec;
	} else {
		int msd = exp + (int)nd - 1;	// power of the first digit
		sci = msd < 0 && (unsigned)-msd > pad;
	}
	if (sci) {
		exp += (int)nd - 1;
		irs_buf_append(out, &b.d[nd - 1], 1);
		irs_buf_append(out, ".", 1);
		if (nd == 1 && truncate_zero)
			irs_buf_append(out, "0", 1);
		for (size_t i = 1; i < nd; i++)
			irs_buf_append(out, &b.d[nd - 1 - i], 1);
		if (!truncate_zero)
			for (size_t i = nd - 1; i < prec; i++)
				irs_buf_append(out, "0", 1);
		char tmp[24];
		int k = snprintf(tmp, sizeof(tmp), truncate_zero ? "E%c%d"
				 : "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
		irs_buf_append(out, tmp, (size_t)k);
	} else if (exp >= 0) {
		for (size_t i = 0; i < nd; i++)
			irs_buf_append(out, &b.d[nd - 1 - i], 1);
		for (int i = 0; i < exp; i++)
			irs_buf_append(out, "0", 1);
	} else {
		int whole = exp + (int)nd;	// digits before the point
		size_t i = 0;
		if (whole > 0) {
			for (; i < (size_t)whole; i++)
				irs_buf_append(out, &b.d[nd - 1 - i], 1);
			irs_buf_append(out, ".", 1);
		} else {
			irs_buf_puts(out, "0.");
			for (int z = 0; z < -whole; z++)
				irs_buf_append(out, "0", 1);
		}
		for (; i < nd; i++)
			irs_buf_append(out, &b.d[nd - 1 - i], 1);
	}
	free(b.d);
	return !out->oom;
}

/* }====================================================== */

// The value as a double (exact for half, bfloat, single and double).
static double
as_double(const struct irs_apfloat *v)
{
	if (v->category == IRS_FC_ZERO)
		return v->sign ? -0.0 : 0.0;
	if (v->category == IRS_FC_INF)
		return v->sign ? -INFINITY : INFINITY;
	double m = ldexp((double)sig_bits(v, v->precision),
			 v->exponent - ((int)v->precision - 1));
	return v->sign ? -m : m;
}

// "0x" and the digits of @p x, upper case, at least @p width of them.
static void
hex_upper(struct irs_buf *out, uint64_t x, int width, bool prefix)
{
	char tmp[24];
	int k = snprintf(tmp, sizeof(tmp), "%s%0*llX", prefix ? "0x" : "",
			 width, (unsigned long long)x);
	irs_buf_append(out, tmp, (size_t)k);
}

// A float's bits as the double LLVM writes it in hex: the value converted
// (exact), a NaN's payload shifted up, quiet or signaling as it was.
static uint64_t
single_as_double_bits(const struct irs_apfloat *v)
{
	uint64_t f[2];
	irs_apfloat_bits(v, f);
	if (v->category != IRS_FC_NAN) {
		double d = as_double(v);
		uint64_t u;
		memcpy(&u, &d, 8);
		return u;
	}
	return ((uint64_t)v->sign << 63) | (0x7ffull << 52) |
	       ((f[0] & 0x7fffff) << 29);
}

bool
irs_fmt_llvm_float(const struct irs_apfloat *v, struct irs_buf *out)
{
	enum sem s = sem_of(v);
	uint64_t bits[2];
	if (s == SEM_OTHER)
		return false;
	if (s == SEM_SINGLE || s == SEM_DOUBLE) {
		// decimal when it reads back as the same double (a float's
		// value is compared as a double), else the double's bits
		if (v->category != IRS_FC_INF && v->category != IRS_FC_NAN) {
			size_t mark = out->len;
			if (!irs_apfloat_tostring(v, 6, 0, false, out))
				return false;
			if (strtod(out->data + mark, NULL) == as_double(v))
				return true;
			out->len = mark;
			out->data[mark] = '\0';
		}
		if (s == SEM_SINGLE) {
			hex_upper(out, single_as_double_bits(v), 0, true);
		} else {
			irs_apfloat_bits(v, bits);
			hex_upper(out, bits[0], 0, true);
		}
		return !out->oom;
	}
	irs_apfloat_bits(v, bits);
	switch (s) {
	case SEM_X87:
		irs_buf_puts(out, "0xK");
		hex_upper(out, bits[1] & 0xffff, 4, false);
		hex_upper(out, bits[0], 16, false);
		break;
	case SEM_QUAD:
		irs_buf_puts(out, "0xL");
		hex_upper(out, bits[0], 16, false);
		hex_upper(out, bits[1], 16, false);
		break;
	case SEM_HALF:
		irs_buf_puts(out, "0xH");
		hex_upper(out, bits[0], 4, false);
		break;
	default:	// SEM_BFLOAT
		irs_buf_puts(out, "0xR");
		hex_upper(out, bits[0], 4, false);
		break;
	}
	return !out->oom;
}

/* {====================================================== MLIR */

// @p d rounded to @p prec significand bits with the exponent range of
// @p v's semantics, to nearest even (half and bfloat, which a double
// holds exactly).
static double
round_to(const struct irs_apfloat *v, double d)
{
	if (d == 0 || !isfinite(d))
		return d;
	int emin = v->min_exp, e = ilogb(d);
	double q = ldexp(1.0, (e < emin ? emin : e) - ((int)v->precision - 1));
	double r = nearbyint(d / q) * q;
	double max = ldexp(2.0 - ldexp(1.0, 1 - (int)v->precision), v->max_exp);
	return fabs(r) > max ? copysign(INFINITY, d) : r;
}

// Whether @p s reads back as @p v, bit for bit, in @p v's own semantics
// (APFloat(semantics, s).bitwiseIsEqual(v)): strtof, strtod, strtold and
// strtof128 round correctly; half and bfloat go through a double, which
// misjudges only a decimal that lies halfway after its own rounding.
static bool
parse_same(const struct irs_apfloat *v, const char *s)
{
	uint64_t want[2], got[2] = { 0, 0 };
	irs_apfloat_bits(v, want);
	switch (sem_of(v)) {
	case SEM_SINGLE: {
		float f = strtof(s, NULL);
		uint32_t u;
		memcpy(&u, &f, 4);
		got[0] = u;
		break;
	}
	case SEM_DOUBLE: {
		double d = strtod(s, NULL);
		memcpy(got, &d, 8);
		break;
	}
	case SEM_X87: {
		long double ld = strtold(s, NULL);
		memcpy(got, &ld, 10);
		got[1] &= 0xffff;
		break;
	}
#ifdef __clang__
	case SEM_QUAD:
		// clang (the fuzz build) has no _Float128, nor glibc's
		// strtof128 for it: a quad is taken not to read back, and the
		// caller prints more digits
		return false;
#else
	case SEM_QUAD: {
		__extension__ _Float128 q = strtof128(s, NULL);
		memcpy(got, &q, 16);
		break;
	}
#endif
	default: {
		double d = round_to(v, strtod(s, NULL));
		return d == as_double(v) && signbit(d) == (v->sign != 0) &&
		       v->category != IRS_FC_NAN;
	}
	}
	return got[0] == want[0] && got[1] == want[1];
}

bool
irs_fmt_mlir_float(const struct irs_apfloat *v, struct irs_buf *out)
{
	if (sem_of(v) == SEM_OTHER)
		return false;
	if (v->category != IRS_FC_INF && v->category != IRS_FC_NAN) {
		size_t mark = out->len;
		if (!irs_apfloat_tostring(v, 6, 0, false, out))
			return false;
		if (parse_same(v, out->data + mark))
			return true;
		out->len = mark;
		out->data[mark] = '\0';
		// APFloat's default form, when it has a point
		if (!irs_apfloat_tostring(v, 0, 3, true, out))
			return false;
		if (memchr(out->data + mark, '.', out->len - mark))
			return true;
		out->len = mark;
		out->data[mark] = '\0';
	}
	uint64_t bits[2];
	irs_apfloat_bits(v, bits);
	if (bits[1])
		hex_upper(out, bits[1], 0, true), hex_upper(out, bits[0], 16,
							     false);
	else
		hex_upper(out, bits[0], 0, true);
	return !out->oom;
}

/* }====================================================== */

/* {====================================================== from bits */

// fltSemantics { maxExponent, minExponent, precision, sizeInBits }
static const struct {
	const char *name;
	int32_t max_exp, min_exp;
	uint32_t precision, bits;
} sems[] = {
	{ "half", 15, -14, 11, 16 },
	{ "bfloat", 127, -126, 8, 16 },
	{ "float", 127, -126, 24, 32 },
	{ "double", 1023, -1022, 53, 64 },
};

bool
irs_apfloat_from_bits(const char *sem, uint64_t bits, struct irs_apfloat *v)
{
	size_t k = 0;
	while (k < ARRAY_SIZE(sems) && strcmp(sems[k].name, sem))
		k++;
	if (k == ARRAY_SIZE(sems))
		return false;
	// IEEEFloat::initFromAPInt: the fields of the IEEE encoding
	memset(v, 0, sizeof(*v));
	v->max_exp = sems[k].max_exp;
	v->min_exp = sems[k].min_exp;
	v->precision = sems[k].precision;
	v->bits = sems[k].bits;
	unsigned frac = v->precision - 1, ebits = v->bits - v->precision;
	uint64_t e = (bits >> frac) & ((1ull << ebits) - 1);
	uint64_t f = bits & ((1ull << frac) - 1);
	v->sign = (bits >> (v->bits - 1)) & 1;
	v->sig[0] = f;
	if (!e && !f)
		v->category = IRS_FC_ZERO;
	else if (e == (1ull << ebits) - 1)
		v->category = f ? IRS_FC_NAN : IRS_FC_INF;
	else if (!e)
		v->category = IRS_FC_NORMAL, v->exponent = v->min_exp;
	else
		v->category = IRS_FC_NORMAL,
		v->exponent = (int32_t)e - v->max_exp,
		v->sig[0] |= 1ull << frac;
	return true;
}

/* }====================================================== */
