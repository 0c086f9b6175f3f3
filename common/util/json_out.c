// JSON string literals for the hand-written streaming writers (snapshots are
// too large to build as jansson trees first; see emit_json.c).
#include <stdio.h>
#include <string.h>

#include "util/util.h"

// Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. Valid
// as RFC 3629 has it, as every JSON reader checks: no overlong forms
// (E0 80..9F, F0 80..8F), no surrogates (ED A0..BF), nothing past
// U+10FFFF (F4 90..BF).
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	if (s[0] < 0x80)
		return 1;
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (len == 0 || len > n || s[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	unsigned char lo = 0x80, hi = 0xbf;	// the second byte's range
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	return s[1] >= lo && s[1] <= hi ? len : 0;
}

// Calls emit(ctx, bytes, n) with the escaped form of s.
static void
escape(const char *s, size_t len,
       void (*emit)(void *ctx, const char *p, size_t n), void *ctx)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t run = 0, i = 0;
	emit(ctx, "\"", 1);
	while (i < len) {
		unsigned char c = u[i];
		const char *esc = NULL;
		char hex[8];
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\t': esc = "\\t"; break;
		case '\r': esc = "\\r"; break;
		default:
			break;
		}
		size_t ulen = c >= 0x80 ? utf8_len(u + i, len - i) : 1;
		if (!esc && (c < 0x20 || ulen == 0)) {
			// control byte, or a byte of broken UTF-8 from the
			// debuggee: keep it visible and the JSON valid
			snprintf(hex, sizeof(hex), "\\u%04x", c);
			esc = hex;
			ulen = 1;
		}
		if (esc) {
			if (run)
				emit(ctx, s + i - run, run);
			run = 0;
			emit(ctx, esc, strlen(esc));
			i++;
			continue;
		}
		run += ulen;
		i += ulen;
	}
	if (run)
		emit(ctx, s + len - run, run);
	emit(ctx, "\"", 1);
}

static void
emit_file(void *ctx, const char *p, size_t n)
{
	fwrite(p, 1, n, ctx);
}

static void
emit_buf(void *ctx, const char *p, size_t n)
{
	irs_buf_append(ctx, p, n);
}

void
irs_json_string(FILE *fp, const char *s, size_t len)
{
	escape(s, len, emit_file, fp);
}

bool
irs_buf_json_string(struct irs_buf *b, const char *s, size_t len)
{
	escape(s, len, emit_buf, b);
	return !b->oom;
}
