// Number formatting for the walker's text and JSON, without printf on the
// hot path, and the check of printf formats written in templates.
#include <stdio.h>
#include <string.h>

#include "util/util.h"

// "00" "01" ... "99": two digits per division.
static const char digits2[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

// Decimal digits of @p v (1 for 0).
static inline size_t
ndigits(uint64_t v)
{
	size_t n = 1;
	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

size_t
irs_fmt_u64(char *out, uint64_t v)
{
	size_t n = ndigits(v);
	char *p = out + n;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
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

// "00" "01" ... "ff": two hex digits per byte.
static const char hex2[] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

size_t
irs_fmt_hex(char *out, uint64_t v)
{
	// as many digits as the highest set bit needs (one for 0)
	size_t n = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
	char *p = out + 2 + n;
	out[0] = '0';
	out[1] = 'x';
	for (; v >= 256; v >>= 8) {
		p -= 2;
		memcpy(p, hex2 + 2 * (v & 255), 2);
	}
	if (v >= 16) {
		p -= 2;
		memcpy(p, hex2 + 2 * v, 2);
	} else {
		*--p = hex2[2 * v + 1];
	}
	return n + 2;
}

size_t
irs_fmt_double(char *out, double v)
{
	int n = snprintf(out, 32, "%g", v);
	return n < 0 ? 0 : (size_t)n;
}

// One conversion: %[flags][width][.prec][length]conv, with at most three
// digits of width and precision (a template cannot ask for a 1 GB field);
// the width may be '*', for the caller to pass (bounded the same way).
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
		bool star = i < len && fmt[i] == '*';
		if (star)	// a width the caller passes
			out[o++] = fmt[i++];
		for (int d = 0; i < len && fmt[i] >= '0' && fmt[i] <= '9'; d++)
			if (d == 3 || star)
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
