// Unsigned integers of any width, for the formatters that must print a
// number exactly as the compiler's own big-number code does (APInt of any
// width, APFloat's decimal digits): little-endian 32-bit limbs, a few
// operations, and the decimal digits. Small numbers live in the struct;
// big ones (a 16,000-bit x87 denormal times 5^16445) on the heap.
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

void
irs_big_init(struct irs_big *b)
{
	b->w = b->small;
	b->n = 0;
	b->cap = IRS_BIG_SMALL;
	b->oom = false;
}

void
irs_big_deinit(struct irs_big *b)
{
	if (b->w != b->small)
		free(b->w);
	irs_big_init(b);
}

// Room for @p n limbs; false (oom set) when memory ran out.
static bool
reserve(struct irs_big *b, uint32_t n)
{
	if (n <= b->cap)
		return true;
	if (b->oom || n > (1u << 26))	// 2^31 bits: no real number is
		return b->oom = true, false;
	uint32_t cap = b->cap * 2 > n ? b->cap * 2 : n;
	uint32_t *p = b->w == b->small ? malloc(cap * sizeof(*p))
		: realloc(b->w, cap * sizeof(*p));
	if (!p)
		return b->oom = true, false;
	if (b->w == b->small)
		memcpy(p, b->small, b->n * sizeof(*p));
	b->w = p;
	b->cap = cap;
	return true;
}

// Drops leading zero limbs.
static void
trim(struct irs_big *b)
{
	while (b->n && !b->w[b->n - 1])
		b->n--;
}

bool
irs_big_set(struct irs_big *b, const uint64_t *words, uint32_t bits)
{
	uint32_t n = (bits + 31) / 32;
	b->n = 0;
	if (!reserve(b, n))
		return false;
	for (uint32_t i = 0; i < n; i++)
		b->w[i] = (uint32_t)(words[i / 2] >> (32 * (i % 2)));
	if (bits % 32)
		b->w[n - 1] &= (1u << (bits % 32)) - 1;
	b->n = n;
	trim(b);
	return true;
}

uint32_t
irs_big_bits(const struct irs_big *b)
{
	if (!b->n)
		return 0;
	return 32 * (b->n - 1) + 32 - (uint32_t)__builtin_clz(b->w[b->n - 1]);
}

uint32_t
irs_big_ctz(const struct irs_big *b)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (b->w[i])
			return 32 * i + (uint32_t)__builtin_ctz(b->w[i]);
	return 0;
}

bool
irs_big_shl(struct irs_big *b, uint32_t k)
{
	if (!b->n || !k)
		return true;
	uint32_t limbs = k / 32, bits = k % 32;
	if (!reserve(b, b->n + limbs + 1))
		return false;
	b->w[b->n + limbs] = 0;
	for (uint32_t i = b->n; i-- > 0;) {
		uint64_t v = (uint64_t)b->w[i] << bits;
		b->w[i + limbs + 1] |= (uint32_t)(v >> 32);
		b->w[i + limbs] = (uint32_t)v;
	}
	memset(b->w, 0, limbs * sizeof(*b->w));
	b->n += limbs + 1;
	trim(b);
	return true;
}

void
irs_big_shr(struct irs_big *b, uint32_t k)
{
	uint32_t limbs = k / 32, bits = k % 32;
	if (limbs >= b->n) {
		b->n = 0;
		return;
	}
	for (uint32_t i = 0; i + limbs < b->n; i++) {
		uint64_t v = b->w[i + limbs];
		if (i + limbs + 1 < b->n)
			v |= (uint64_t)b->w[i + limbs + 1] << 32;
		b->w[i] = (uint32_t)(v >> bits);
	}
	b->n -= limbs;
	trim(b);
}

bool
irs_big_mul_small(struct irs_big *b, uint32_t m)
{
	uint64_t carry = 0;
	for (uint32_t i = 0; i < b->n; i++) {
		uint64_t v = (uint64_t)b->w[i] * m + carry;
		b->w[i] = (uint32_t)v;
		carry = v >> 32;
	}
	if (carry) {
		if (!reserve(b, b->n + 1))
			return false;
		b->w[b->n++] = (uint32_t)carry;
	}
	return true;
}

bool
irs_big_mul_pow5(struct irs_big *b, uint32_t e)
{
	for (; e >= 13; e -= 13)		// 5^13 < 2^32
		if (!irs_big_mul_small(b, 1220703125u))
			return false;
	uint32_t m = 1;
	while (e--)
		m *= 5;
	return irs_big_mul_small(b, m);
}

uint32_t
irs_big_divmod_small(struct irs_big *b, uint32_t d)
{
	uint64_t rem = 0;
	for (uint32_t i = b->n; i-- > 0;) {
		uint64_t v = (rem << 32) | b->w[i];
		b->w[i] = (uint32_t)(v / d);
		rem = v % d;
	}
	trim(b);
	return (uint32_t)rem;
}

bool
irs_big_negate(struct irs_big *b, uint32_t bits)
{
	uint32_t n = (bits + 31) / 32;
	if (!reserve(b, n))
		return false;
	for (uint32_t i = b->n; i < n; i++)
		b->w[i] = 0;
	b->n = n;
	uint64_t carry = 1;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = (uint64_t)(uint32_t)~b->w[i] + carry;
		b->w[i] = (uint32_t)v;
		carry = v >> 32;
	}
	if (bits % 32)
		b->w[n - 1] &= (1u << (bits % 32)) - 1;
	trim(b);
	return true;
}

bool
irs_big_decimal(const struct irs_big *b, struct irs_buf *out)
{
	if (!b->n)
		return irs_buf_append(out, "0", 1);
	struct irs_big t;
	irs_big_init(&t);
	if (!reserve(&t, b->n)) {
		irs_big_deinit(&t);
		return out->oom = true, false;
	}
	memcpy(t.w, b->w, b->n * sizeof(*t.w));
	t.n = b->n;
	// nine digits per division, least significant group first
	size_t ngroups = 0, cap = (size_t)b->n * 32 / 29 + 2;
	uint32_t *groups = malloc(cap * sizeof(*groups));
	if (!groups) {
		irs_big_deinit(&t);
		return out->oom = true, false;
	}
	do	// t is not 0: one group at least
		groups[ngroups++] = irs_big_divmod_small(&t, 1000000000u);
	while (t.n);
	char tmp[16];
	int k = snprintf(tmp, sizeof(tmp), "%u", groups[ngroups - 1]);
	bool ok = irs_buf_append(out, tmp, (size_t)k);
	for (size_t i = ngroups - 1; ok && i-- > 0;) {
		k = snprintf(tmp, sizeof(tmp), "%09u", groups[i]);
		ok = irs_buf_append(out, tmp, (size_t)k);
	}
	free(groups);
	irs_big_deinit(&t);
	return ok;
}
