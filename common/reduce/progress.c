// What a reduction shows while it runs: a status line on a terminal, a
// line per round without one, and reduce.log (IRSNAP_DEBUG=R: stderr).
#include <ctype.h>
#include <stdarg.h>
#include <time.h>

#include "reduce/reduce.h"

double
reduce_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t
reduce_count_lines(const char *s, size_t len)
{
	uint64_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n + (len && s[len - 1] != '\n');
}

uint64_t
reduce_count_tokens(const char *s, size_t len)
{
	uint64_t n = 0;
	for (size_t i = 0; i < len;) {
		char c = s[i];
		if (isspace((unsigned char)c)) {
			i++;
			continue;
		}
		n++;
		if (reduce_word_char(c)) {
			while (i < len && reduce_word_char(s[i]))
				i++;
		} else if (c == '"') {
			for (i++; i < len && s[i] != '"' && s[i] != '\n'; i++)
				i += s[i] == '\\' && i + 1 < len;
			i += i < len && s[i] == '"';
		} else {
			i++;
		}
	}
	return n;
}

void
reduce_progress_show(struct reducer *r, bool force)
{
	if (!r->cfg->progress)
		return;
	double t = reduce_clock();
	if (!force && t - r->last_shown < 0.1)
		return;
	r->last_shown = t;
	fprintf(stderr, "\r\033[Kreduce: round %u %s: %llu -> %llu lines, "
		"%llu -> %zu bytes, %u tests, %.1f s", r->round, r->step,
		(unsigned long long)r->res.lines_before,
		(unsigned long long)reduce_count_lines(r->best_text.data,
						       r->best_text.len),
		(unsigned long long)r->res.bytes_before, r->best_text.len,
		r->exec.runs, t - r->t0);
	fflush(stderr);
	r->progress_shown = true;
}

void
reduce_progress_clear(struct reducer *r)
{
	if (r->progress_shown)
		fprintf(stderr, "\r\033[K");
	r->progress_shown = false;
}

void
reduce_note(struct reducer *r, const char *fmt, ...)
{
	va_list ap;
	if (r->log) {
		fprintf(r->log, "%8.2f s  ", reduce_clock() - r->t0);
		va_start(ap, fmt);
		vfprintf(r->log, fmt, ap);
		va_end(ap);
		fputc('\n', r->log);
	}
	if (irs_debug('R')) {
		reduce_progress_clear(r);
		fprintf(stderr, "reduce: ");
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
}

// Without a terminal to redraw a status line on, a line per round.
void
reduce_progress_round(struct reducer *r)
{
	if (!r->cfg->round_lines)
		return;
	fprintf(stderr, "irsnap reduce: round %u: %llu -> %llu lines, %llu "
		"-> %zu bytes, %u tests, %.1f s\n", r->round,
		(unsigned long long)r->res.lines_before,
		(unsigned long long)reduce_count_lines(r->best_text.data,
						       r->best_text.len),
		(unsigned long long)r->res.bytes_before, r->best_text.len,
		r->exec.runs, reduce_clock() - r->t0);
}
