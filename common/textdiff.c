// Line diff: Myers' O(ND) algorithm with the linear-space middle snake, in
// the shape of GNU diffseq.h, then hunks with context as `diff -u` prints.
// Lines are first numbered by content (equal lines, equal numbers) so that
// the inner loops compare integers.
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "textdiff.h"

struct line {
	const char *p;
	size_t len;		// includes the newline, if any
};

struct side {
	struct line *lines;
	uint32_t *ids;		// equivalence class of each line
	bool *changed;		// deleted (in a) or inserted (in b)
	long n;
};

struct differ {
	struct side a, b;
	long *fd, *bd;		// forward and backward furthest x per diagonal
	long max_cost;		// give up on a region past this many edits
	bool gave_up;
};

/* {==== Splitting and numbering lines =================================== */

static long
count_lines(const char *s, size_t len)
{
	long n = 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '\n')
			n++;
	return n + (len && s[len - 1] != '\n');
}

static bool
side_init(struct side *sd, const char *s, size_t len)
{
	memset(sd, 0, sizeof(*sd));
	sd->n = count_lines(s, len);
	size_t n = (size_t)sd->n + 1;	// never 0: NULL only on OOM
	sd->lines = calloc(n, sizeof(*sd->lines));
	sd->ids = calloc(n, sizeof(*sd->ids));
	sd->changed = calloc(n, sizeof(*sd->changed));
	if (!sd->lines || !sd->ids || !sd->changed)
		return false;
	long k = 0;
	for (size_t start = 0; start < len; k++) {
		const char *nl = memchr(s + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - s) + 1 : len;
		sd->lines[k] = (struct line){s + start, end - start};
		start = end;
	}
	return true;
}

static void
side_deinit(struct side *sd)
{
	free(sd->lines);
	free(sd->ids);
	free(sd->changed);
}

// Open-addressing table from line content to a small number.
struct numbering {
	const struct line **keys;
	uint64_t *hashes;
	uint32_t *ids;
	size_t cap;
	uint32_t next;
};

static uint32_t
number_line(struct numbering *t, const struct line *ln)
{
	uint64_t h = XXH64(ln->p, ln->len, 0);
	size_t i = (size_t)h & (t->cap - 1);
	for (;; i = (i + 1) & (t->cap - 1)) {
		const struct line *k = t->keys[i];
		if (!k) {
			t->keys[i] = ln;
			t->hashes[i] = h;
			return t->ids[i] = t->next++;
		}
		if (t->hashes[i] == h && k->len == ln->len &&
		    !memcmp(k->p, ln->p, ln->len))
			return t->ids[i];
	}
}

static bool
number_lines(struct differ *d)
{
	struct numbering t = {0};
	size_t total = (size_t)d->a.n + (size_t)d->b.n;
	t.cap = 16;
	while (t.cap < 2 * total)
		t.cap *= 2;
	t.keys = calloc(t.cap, sizeof(*t.keys));
	t.hashes = calloc(t.cap, sizeof(*t.hashes));
	t.ids = calloc(t.cap, sizeof(*t.ids));
	bool ok = t.keys && t.hashes && t.ids;
	for (long i = 0; ok && i < d->a.n; i++)
		d->a.ids[i] = number_line(&t, &d->a.lines[i]);
	for (long i = 0; ok && i < d->b.n; i++)
		d->b.ids[i] = number_line(&t, &d->b.lines[i]);
	free(t.keys);
	free(t.hashes);
	free(t.ids);
	return ok;
}

/* }==== */

/* {==== Alignment ======================================================== */

struct snake {
	long xmid, ymid;
};

// Finds where a shortest edit path of a[xoff, xlim) into b[yoff, ylim)
// crosses its middle, searching from both ends at once. Returns false when
// that costs more than d->max_cost edits.
// requires: both ranges non-empty, first and last lines differ.
static bool
middle_snake(struct differ *d, long xoff, long xlim, long yoff, long ylim,
	     struct snake *s)
{
	const uint32_t *xv = d->a.ids, *yv = d->b.ids;
	long *fd = d->fd, *bd = d->bd;
	long dmin = xoff - ylim, dmax = xlim - yoff;
	long fmid = xoff - yoff, bmid = xlim - ylim;
	long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
	bool odd = (fmid - bmid) & 1;

	fd[fmid] = xoff;
	bd[bmid] = xlim;
	for (long c = 1; c <= d->max_cost; c++) {
		if (fmin > dmin)
			fd[--fmin - 1] = -1;
		else
			fmin++;
		if (fmax < dmax)
			fd[++fmax + 1] = -1;
		else
			fmax--;
		for (long k = fmax; k >= fmin; k -= 2) {
			long lo = fd[k - 1], hi = fd[k + 1];
			long x = lo >= hi ? lo + 1 : hi, y = x - k;
			while (x < xlim && y < ylim && xv[x] == yv[y])
				x++, y++;
			fd[k] = x;
			if (odd && bmin <= k && k <= bmax && bd[k] <= x) {
				*s = (struct snake){x, y};
				return true;
			}
		}
		if (bmin > dmin)
			bd[--bmin - 1] = LONG_MAX;
		else
			bmin++;
		if (bmax < dmax)
			bd[++bmax + 1] = LONG_MAX;
		else
			bmax--;
		for (long k = bmax; k >= bmin; k -= 2) {
			long lo = bd[k - 1], hi = bd[k + 1];
			long x = lo < hi ? lo : hi - 1, y = x - k;
			while (xoff < x && yoff < y && xv[x - 1] == yv[y - 1])
				x--, y--;
			bd[k] = x;
			if (!odd && fmin <= k && k <= fmax && x <= fd[k]) {
				*s = (struct snake){x, y};
				return true;
			}
		}
	}
	return false;
}

static void
mark_changed(bool *changed, long from, long to)
{
	for (long i = from; i < to; i++)
		changed[i] = true;
}

// Marks the lines of a[xoff, xlim) and b[yoff, ylim) that a shortest edit
// script deletes and inserts.
static void
compare_seq(struct differ *d, long xoff, long xlim, long yoff, long ylim)
{
	const uint32_t *xv = d->a.ids, *yv = d->b.ids;
	struct snake s;

	while (xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff])
		xoff++, yoff++;
	while (xoff < xlim && yoff < ylim && xv[xlim - 1] == yv[ylim - 1])
		xlim--, ylim--;
	if (xoff == xlim || yoff == ylim) {
		mark_changed(d->a.changed, xoff, xlim);
		mark_changed(d->b.changed, yoff, ylim);
		return;
	}
	if (!middle_snake(d, xoff, xlim, yoff, ylim, &s)) {
		d->gave_up = true;
		mark_changed(d->a.changed, xoff, xlim);
		mark_changed(d->b.changed, yoff, ylim);
		return;
	}
	compare_seq(d, xoff, s.xmid, yoff, s.ymid);
	compare_seq(d, s.xmid, xlim, s.ymid, ylim);
}

/* }==== */

/* {==== Unified output =================================================== */

struct edit {
	char kind;		// ' ', '-' or '+'
	long ai, bi;		// lines of a and b before this one
};

static struct edit *
edit_script(const struct differ *d, long *n_ret)
{
	struct edit *e = calloc((size_t)(d->a.n + d->b.n) + 1, sizeof(*e));
	if (!e)
		return NULL;
	long n = 0, i = 0, j = 0;
	while (i < d->a.n || j < d->b.n) {
		char kind = i < d->a.n && d->a.changed[i] ? '-'
			  : j < d->b.n && d->b.changed[j] ? '+' : ' ';
		e[n++] = (struct edit){kind, i, j};
		i += kind != '+';
		j += kind != '-';
	}
	*n_ret = n;
	return e;
}

static void
put_line(struct irs_buf *out, char kind, const struct line *ln)
{
	irs_buf_append(out, &kind, 1);
	irs_buf_append(out, ln->p, ln->len);
	if (!ln->len || ln->p[ln->len - 1] != '\n')
		irs_buf_puts(out, "\n\\ No newline at end of file\n");
}

// "-1,3" in a hunk header: first line (the one before, when empty) and count.
static void
put_range(struct irs_buf *out, char sign, long first, long count)
{
	long start = count ? first + 1 : first;
	if (count == 1)
		irs_buf_printf(out, "%c%ld", sign, start);
	else
		irs_buf_printf(out, "%c%ld,%ld", sign, start, count);
}

static void
put_hunk(struct irs_buf *out, const struct differ *d, const struct edit *e,
	 long from, long to)
{
	long na = 0, nb = 0;
	for (long k = from; k < to; k++) {
		na += e[k].kind != '+';
		nb += e[k].kind != '-';
	}
	irs_buf_puts(out, "@@ ");
	put_range(out, '-', e[from].ai, na);
	irs_buf_puts(out, " ");
	put_range(out, '+', e[from].bi, nb);
	irs_buf_puts(out, " @@\n");
	for (long k = from; k < to; k++) {
		if (e[k].kind == '+')
			put_line(out, '+', &d->b.lines[e[k].bi]);
		else
			put_line(out, e[k].kind, &d->a.lines[e[k].ai]);
	}
}

// Changes at most 2 * context unchanged lines apart share a hunk.
static void
put_hunks(struct irs_buf *out, const struct differ *d, const struct edit *e,
	  long n, long context)
{
	long k = 0;
	while (k < n) {
		while (k < n && e[k].kind == ' ')
			k++;
		if (k == n)
			break;
		long from = k > context ? k - context : 0;
		long last = k;	// last changed edit of the hunk
		for (long m = k + 1; m < n && m - last - 1 <= 2 * context; m++)
			if (e[m].kind != ' ')
				last = m;
		long to = last + 1 + context < n ? last + 1 + context : n;
		put_hunk(out, d, e, from, to);
		k = last + 1;
	}
}

/* }==== */

static void
differ_deinit(struct differ *d)
{
	side_deinit(&d->a);
	side_deinit(&d->b);
	free(d->fd);
	free(d->bd);
}

// Work cap: about 50M snake steps per region before giving up on it.
static long
cost_cap(long n, long m)
{
	long cap = 50000000 / (n + m + 1);
	return cap < 256 ? 256 : cap;
}

static bool
differ_run(struct differ *d, const char *a, size_t alen, const char *b,
	   size_t blen)
{
	if (!side_init(&d->a, a, alen) || !side_init(&d->b, b, blen) ||
	    !number_lines(d))
		return false;
	size_t diags = (size_t)d->a.n + (size_t)d->b.n + 3;
	d->fd = malloc(diags * sizeof(long));
	d->bd = malloc(diags * sizeof(long));
	if (!d->fd || !d->bd)
		return false;
	d->max_cost = cost_cap(d->a.n, d->b.n);
	// Diagonals run from -(b.n + 1) to a.n + 1.
	long *fd = d->fd, *bd = d->bd;
	d->fd += d->b.n + 1;
	d->bd += d->b.n + 1;
	compare_seq(d, 0, d->a.n, 0, d->b.n);
	d->fd = fd;
	d->bd = bd;
	return true;
}

struct irs_error *
irs_textdiff_unified(const char *a, size_t alen, const char *aname,
		     const char *b, size_t blen, const char *bname,
		     uint32_t context, struct irs_buf *out,
		     struct irs_textdiff_stats *ret)
{
	struct differ d = {0};
	struct irs_textdiff_stats stats = {0};
	struct edit *e = NULL;
	long n = 0;

	if (!differ_run(&d, a, alen, b, blen) ||
	    !(e = edit_script(&d, &n))) {
		differ_deinit(&d);
		return &irs_enomem;
	}
	for (long k = 0; k < n; k++) {
		stats.added += e[k].kind == '+';
		stats.removed += e[k].kind == '-';
	}
	stats.gave_up = d.gave_up;
	if (stats.added || stats.removed) {
		irs_buf_printf(out, "--- %s\n+++ %s\n", aname, bname);
		put_hunks(out, &d, e, n, context);
	}
	free(e);
	differ_deinit(&d);
	if (out->oom)
		return &irs_enomem;
	if (ret)
		*ret = stats;
	return NULL;
}
