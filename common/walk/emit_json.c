// JSON pieces for the snapshot writer (docs/formats.md, irsnap.snapshot/1),
// appended to irs_buf scratch buffers. Strings go through
// irs_buf_json_string (json_out.c).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk/walk.h"

void
irs_json_u64(struct irs_buf *b, uint64_t v)
{
	// JSON readers (jansson among them) hold integers in int64: larger
	// ones are written as floating point numbers
	if (v > INT64_MAX) {
		irs_json_double(b, (double)v);
		return;
	}
	char tmp[24];
	irs_json_put(b, tmp, irs_fmt_u64(tmp, v));
}

void
irs_json_i64(struct irs_buf *b, int64_t v)
{
	char tmp[24];
	irs_json_put(b, tmp, irs_fmt_i64(tmp, v));
}

void
irs_json_double(struct irs_buf *b, double v)
{
	if (!isfinite(v)) {
		irs_json_lit(b, "null");	// JSON has no NaN or infinity
		return;
	}
	char tmp[40];
	int n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	irs_json_put(b, tmp, (size_t)n);
	// keep it a JSON number that reads back as a float
	if (!strpbrk(tmp, ".eE"))
		irs_json_put(b, ".0", 2);
}

// Room for @p n more bytes and a NUL in @p b: the common case inline.
static inline bool
json_room(struct irs_buf *b, size_t n)
{
	return b->len + n + 1 <= b->cap || irs_buf_reserve(b, n);
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

// Whether a byte of @p x is zero (the high bit of that byte set).
static inline uint64_t
zero_byte(uint64_t x)
{
	return (x - ONES) & ~x & HIGHS;
}

// Whether the 8 bytes of @p x are all 0x20..0x7e and none is '"' or '\\'.
static inline bool
plain8(uint64_t x)
{
	uint64_t bad = ((x - 0x20 * ONES) & ~x & HIGHS) |	// < 0x20
		       (x & HIGHS) |				// >= 0x80
		       zero_byte(x ^ (0x7f * ONES)) |
		       zero_byte(x ^ ('"' * ONES)) |
		       zero_byte(x ^ ('\\' * ONES));
	return !bad;
}

// Whether @p s holds only such bytes: eight at a time, the last eight
// overlapping, a short string padded with spaces.
static inline bool
plain(const char *s, size_t n)
{
	uint64_t x;
	if (n < 8) {
		x = 0x20 * ONES;
		irs_copy_tiny(&x, s, n);
		return plain8(x);
	}
	for (size_t i = 0; i + 8 < n; i += 8) {
		memcpy(&x, s + i, 8);
		if (!plain8(x))
			return false;
	}
	memcpy(&x, s + n - 8, 8);
	return plain8(x);
}

void
irs_json_str(struct irs_buf *b, const char *s, size_t n)
{
	// names, labels, opcodes: printable ASCII without quote or
	// backslash, which irs_buf_json_string() would write as they are
	if (!plain(s, n)) {
		irs_buf_json_string(b, s, n);
		return;
	}
	if (!json_room(b, n + 2))
		return;
	char *p = b->data + b->len;
	p[0] = '"';
	irs_copy_tiny(p + 1, s, n);
	p[n + 1] = '"';
	p[n + 2] = '\0';
	b->len += n + 2;
}

void
irs_json_addr(struct irs_buf *b, uint64_t v)
{
	char tmp[24];
	tmp[0] = '"';
	size_t n = irs_fmt_hex(tmp + 1, v);
	tmp[n + 1] = '"';
	irs_json_put(b, tmp, n + 2);
}

void
irs_json_span(struct irs_buf *b, uint64_t start, uint64_t end)
{
	char tmp[48];
	size_t n = 0;
	tmp[n++] = '[';
	n += irs_fmt_u64(tmp + n, start);
	tmp[n++] = ',';
	n += irs_fmt_u64(tmp + n, end);
	tmp[n++] = ']';
	irs_json_put(b, tmp, n);
}
