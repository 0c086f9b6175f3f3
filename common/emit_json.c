// JSON pieces for the snapshot writer (docs/formats.md, irsnap.snapshot/1),
// appended to irs_buf scratch buffers. Strings go through
// irs_buf_json_string (json_out.c).
#include <math.h>
#include <stdio.h>

#include "layout_internal.h"

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
