// Number formatting for the walker's text and JSON, without printf on the
// hot path, and the check of printf formats written in templates.
#include <stdio.h>
#include <string.h>

#include "layout_internal.h"

size_t
irs_fmt_u64(char *out, uint64_t v)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

size_t
irs_fmt_i64(char *out, int64_t v)
{
	if (v >= 0)
		return irs_fmt_u64(out, (uint64_t)v);
	out[0] = '-';
	return 1 + irs_fmt_u64(out + 1, 0 - (uint64_t)v);
}

size_t
irs_fmt_hex(char *out, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0;
	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	out[0] = '0';
	out[1] = 'x';
	for (size_t i = 0; i < n; i++)
		out[2 + i] = tmp[n - 1 - i];
	return n + 2;
}

size_t
irs_fmt_double(char *out, double v)
{
	int n = snprintf(out, 32, "%g", v);
	return n < 0 ? 0 : (size_t)n;
}

// One conversion: %[flags][width][.prec][length]conv, with at most three
// digits of width and precision (a template cannot ask for a 1 GB field).
bool
irs_fmt_check(const char *fmt, size_t len, char *out, char *class_ret)
{
	size_t o = 0;
	int nconv = 0;
	for (size_t i = 0; i < len; i++) {
		char c = fmt[i];
		if (c != '%') {
			out[o++] = c;
			continue;
		}
		if (i + 1 < len && fmt[i + 1] == '%') {
			out[o++] = '%';
			out[o++] = '%';
			i++;
			continue;
		}
		if (nconv++)
			return false;
		out[o++] = '%';
		i++;
		while (i < len && strchr("-+ #0", fmt[i]))
			out[o++] = fmt[i++];
		for (int d = 0; i < len && fmt[i] >= '0' && fmt[i] <= '9'; d++)
			if (d == 3)
				return false;
			else
				out[o++] = fmt[i++];
		if (i < len && fmt[i] == '.') {
			out[o++] = fmt[i++];
			for (int d = 0; i < len && fmt[i] >= '0' &&
			     fmt[i] <= '9'; d++)
				if (d == 3)
					return false;
				else
					out[o++] = fmt[i++];
		}
		while (i < len && strchr("hlLqjzt", fmt[i]))
			i++;		// we pick the length ourselves
		if (i >= len)
			return false;
		c = fmt[i];
		if (c == 'd' || c == 'i') {
			*class_ret = 'i';
			memcpy(out + o, "lld", 3);
			o += 3;
		} else if (c && strchr("ouxX", c)) {
			*class_ret = 'u';
			out[o++] = 'l';
			out[o++] = 'l';
			out[o++] = c;
		} else if (c && strchr("eEfFgGaA", c)) {
			*class_ret = 'f';
			out[o++] = c;
		} else if (c == 'c' || c == 's') {
			*class_ret = c;
			out[o++] = c;
		} else {
			return false;
		}
	}
	out[o] = '\0';
	return nconv == 1;
}
