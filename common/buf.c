// Growable byte buffer; see internal.h.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
irs_buf_reserve(struct irs_buf *b, size_t extra)
{
	if (b->oom)
		return false;
	if (b->len + extra + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + extra + 1) {
		if (cap > SIZE_MAX / 2) {
			b->oom = true;
			return false;
		}
		cap *= 2;
	}
	char *p = realloc(b->data, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
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
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
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
