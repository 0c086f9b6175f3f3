// Growable byte buffer; see util.h.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void
irs_buf_init(struct irs_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void
irs_buf_deinit(struct irs_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

bool
irs_grow(char **data, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 64;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return false;
		n *= 2;
	}
	char *p = realloc(*data, n);
	if (!p)
		return false;
	*data = p;
	*cap = n;
	return true;
}

bool
irs_grow_array(void **arr, size_t n, size_t *cap, size_t elem)
{
	if (n < *cap)
		return true;
	size_t ncap = *cap ? *cap : 16;
	while (ncap <= n) {
		if (ncap > SIZE_MAX / 2 / (elem ? elem : 1))
			return false;
		ncap *= 2;
	}
	void *p = realloc(*arr, ncap * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

bool
irs_buf_reserve(struct irs_buf *b, size_t extra)
{
	if (b->oom)
		return false;
	if (b->len + extra + 1 <= b->cap)
		return true;
	if (!irs_grow(&b->data, &b->cap, b->len + extra + 1)) {
		b->oom = true;
		return false;
	}
	return true;
}

bool
irs_buf_append(struct irs_buf *b, const void *p, size_t n)
{
	if (!irs_buf_reserve(b, n))
		return false;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return true;
}

bool
irs_buf_puts(struct irs_buf *b, const char *s)
{
	return irs_buf_append(b, s, strlen(s));
}

bool
irs_buf_printf(struct irs_buf *b, const char *fmt, ...)
{
	va_list ap;
	// Formatted straight into the room left, which mostly holds it: a
	// second pass only to grow. (Measuring first doubled the cost of
	// every call: a trace formats a dozen numbers per events.jsonl line.)
	size_t room = b->oom || !b->data ? 0 : b->cap - b->len;
	va_start(ap, fmt);
	int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < room) {
		b->len += (size_t)n;
		return true;
	}
	if (room)
		b->data[b->len] = '\0';	// what did not fit is not there
	if (n < 0 || !irs_buf_reserve(b, (size_t)n))
		return false;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return true;
}

char *
irs_buf_steal(struct irs_buf *b)
{
	char *p = b->data;
	if (!p)
		p = calloc(1, 1);
	memset(b, 0, sizeof(*b));
	return p;
}

// Length of the well-formed UTF-8 sequence at @p s (of @p len bytes) that
// is not a C1 control (U+0080..U+009F, which terminals act on), or 0.
static size_t
utf8_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
		   : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (!n || n > len)
		return 0;
	unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	if (s[1] < lo || s[1] > hi || (c == 0xc2 && s[1] <= 0x9f))
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

bool
irs_buf_printable(struct irs_buf *b, const char *s, size_t len, bool lines)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t run = 0;		// start of the bytes not yet copied
	for (size_t i = 0; i < len;) {
		unsigned char c = u[i];
		size_t n = c < 0x80 ? 1 : utf8_len(u + i, len - i);
		bool keep = n > 1 || (n == 1 && (c >= 0x20 || c == '\t' ||
						 (c == '\n' && lines)) &&
				      c != 0x7f);
		if (keep) {
			i += n;
			continue;
		}
		irs_buf_append(b, s + run, i - run);
		if (c == '\n')
			irs_buf_puts(b, "\\n");
		else if (c == '\r')
			irs_buf_puts(b, "\\r");
		else if (c == 0x1b)
			irs_buf_puts(b, "\\e");
		else if (c == 0xc2 && i + 1 < len && u[i + 1] >= 0x80 &&
			 u[i + 1] <= 0x9f) {
			irs_buf_printf(b, "\\u%04x", u[i + 1]);	// C1
			i++;
		} else
			irs_buf_printf(b, "\\x%02x", c);
		run = ++i;
	}
	return irs_buf_append(b, s + run, len - run);
}

char *
irs_printable(const char *s, bool lines)
{
	struct irs_buf b;
	irs_buf_init(&b);
	if (!irs_buf_printable(&b, s ? s : "", s ? strlen(s) : 0, lines) ||
	    b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}
