// Buffered output for the walker: one big buffer, written out in large
// blocks (or kept whole in memory), with the byte position needed for
// spans and a running xxh64 of everything written. Writes never fail on
// the spot; the first error sticks and irs_sink_finish() reports it.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "walk/walk.h"

// A file sink writes in blocks of SINK_BLOCK; an in-memory one starts at
// SINK_SMALL and doubles, since many are short (a formatted field renders
// into one).
enum { SINK_BLOCK = 1 << 20, SINK_SMALL = 4096 };

struct irs_error *
irs_sink_init(struct irs_sink *s, FILE *fp, bool hash)
{
	memset(s, 0, sizeof(*s));
	s->fp = fp;
	s->cap = fp ? SINK_BLOCK : SINK_SMALL;
	s->buf = malloc(s->cap);
	if (!s->buf)
		return &irs_enomem;
	if (hash) {
		s->hash = XXH64_createState();
		if (!s->hash) {
			free(s->buf);
			return &irs_enomem;
		}
		XXH64_reset(s->hash, 0);
	}
	return NULL;
}

void
irs_sink_deinit(struct irs_sink *s)
{
	free(s->buf);
	if (s->hash)
		XXH64_freeState(s->hash);
	memset(s, 0, sizeof(*s));
}

static uint64_t
count_lines(const char *p, size_t len)
{
	uint64_t n = 0;
	for (const char *end = p + len; (p = memchr(p, '\n',
						       (size_t)(end - p)));
	     p++)
		n++;
	return n;
}

static void
flush(struct irs_sink *s)
{
	if (!s->len)
		return;
	if (s->hash)
		XXH64_update(s->hash, s->buf, s->len);
	s->lines += count_lines(s->buf, s->len);
	if (!s->failed && fwrite(s->buf, 1, s->len, s->fp) != s->len) {
		s->failed = true;
		s->err_no = errno ? errno : EIO;
	}
	s->flushed += s->len;
	s->len = 0;
}

bool
irs_sink_reserve(struct irs_sink *s, size_t n)
{
	if (s->failed)
		return false;
	if (s->fp) {
		flush(s);
		if (n <= s->cap)
			return !s->failed;
	}
	// in memory (or one write bigger than the buffer): grow
	if (s->len + n <= s->cap)
		return true;
	if (!irs_grow(&s->buf, &s->cap, s->len + n)) {
		s->failed = true;
		s->err_no = 0;	// ran out of memory (or SIZE_MAX), not a write
		return false;
	}
	return true;
}

void
irs_sink_lend(struct irs_sink *s, struct irs_buf *b)
{
	b->data = s->buf;
	b->len = s->len;
	b->cap = s->cap;
	b->oom = false;
}

void
irs_sink_take_back(struct irs_sink *s, struct irs_buf *b)
{
	size_t len = s->len;
	s->buf = b->data;
	s->cap = b->cap;
	s->len = b->len;
	if (b->oom) {
		s->failed = true;
		s->err_no = 0;
	}
	if (s->failed)
		s->len = len;	// dropped, as writes to a failed sink are
	else if (s->fp && s->len >= SINK_BLOCK)
		flush(s);
}

struct irs_error *
irs_sink_finish(struct irs_sink *s, const char *name)
{
	if (s->fp)
		flush(s);
	if (!s->failed)
		return NULL;
	if (!s->err_no)
		return &irs_enomem;
	return irs_error_format(IRS_ERROR_IO, "%s: write failed: %s",
				name ? name : "output", strerror(s->err_no));
}

uint64_t
irs_sink_lines(const struct irs_sink *s)
{
	return s->lines + (s->buf ? count_lines(s->buf, s->len) : 0);
}

void
irs_sink_hash(struct irs_sink *s, char out[17])
{
	uint64_t h = 0;
	if (s->hash && s->fp)
		h = XXH64_digest(s->hash);	// irs_sink_finish flushed all
	else if (s->hash)
		h = XXH64(s->buf, s->len, 0);	// in memory: never flushed
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

char *
irs_sink_steal(struct irs_sink *s, size_t *len_ret)
{
	if (!irs_sink_reserve(s, 1))
		return NULL;
	s->buf[s->len] = '\0';
	char *p = s->buf;
	if (len_ret)
		*len_ret = s->len;
	s->buf = NULL;
	s->len = s->cap = 0;
	return p;
}
