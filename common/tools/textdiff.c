// Line diff: Myers' O(ND) algorithm with the linear-space middle snake, in
// the shape of GNU diffseq.h, then hunks with context as `diff -u` prints.
// Lines are first numbered by content (equal lines, equal numbers) so that
// the inner loops compare integers.
//
// As GNU diff does, lines that occur on one side only are set aside before
// the search: they cannot be matched, so they are changes, and without
// them the edit distance the search pays for is that of the lines the two
// sides share. A pass that deletes half of a module's instructions
// deletes lines that are unique (each names its own value), and what is
// left to align costs a few hundred edits, not tens of thousands. A region
// still too costly is split at the lines that occur exactly once in it on
// each side (patience diff's anchors, the longest run of them in the same
// order) before it is given up and shown as replaced wholesale.
#include <limits.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "tools/tools.h"

struct line {
	const char *p;
	size_t len;		// includes the newline, if any
};

struct side {
	struct line *lines;
	uint32_t *ids;		// equivalence class of each line
	bool *changed;		// deleted (in a) or inserted (in b)
	long n;
	// The lines the other side also has, which the search aligns:
	uint32_t *kept;		// their ids
	long *at;		// their line numbers
	long nkept;
};

struct differ {
	struct side a, b;
	uint32_t nids;		// line classes, numbered 0 .. nids - 1
	long *fd, *bd;		// forward and backward furthest x per diagonal
	uint32_t *na, *nb;	// per class: occurrences in a region (anchors)
	long *last_b;		// per class: where in b it last occurred
	bool gave_up;
	bool funcname;		// hunk headers name the enclosing function
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
	free(sd->kept);
	free(sd->at);
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
	d->nids = t.next;
	free(t.keys);
	free(t.hashes);
	free(t.ids);
	return ok;
}

// Lines of @p sd whose class @p other_has: kept for the search; the rest
// are changes already.
static bool
side_keep(struct side *sd, const bool *other_has)
{
	size_t n = (size_t)sd->n + 1;
	sd->kept = malloc(n * sizeof(*sd->kept));
	sd->at = malloc(n * sizeof(*sd->at));
	if (!sd->kept || !sd->at)
		return false;
	for (long i = 0; i < sd->n; i++) {
		if (!other_has[sd->ids[i]]) {
			sd->changed[i] = true;
			continue;
		}
		sd->kept[sd->nkept] = sd->ids[i];
		sd->at[sd->nkept++] = i;
	}
	return true;
}

static bool
discard_unmatched(struct differ *d)
{
	bool *in_a = calloc((size_t)d->nids + 1, sizeof(*in_a));
	bool *in_b = calloc((size_t)d->nids + 1, sizeof(*in_b));
	bool ok = in_a && in_b;
	for (long i = 0; ok && i < d->a.n; i++)
		in_a[d->a.ids[i]] = true;
	for (long i = 0; ok && i < d->b.n; i++)
		in_b[d->b.ids[i]] = true;
	ok = ok && side_keep(&d->a, in_b) && side_keep(&d->b, in_a);
	free(in_a);
	free(in_b);
	return ok;
}

/* }==== */

/* {==== Alignment ======================================================== */

// The search works on the kept lines: x and y below index a.kept and
// b.kept.

struct snake {
	long xmid, ymid;
};

// Finds where a shortest edit path of a[xoff, xlim) into b[yoff, ylim)
// crosses its middle, searching from both ends at once. Returns false when
// that costs more than @p max_cost edits.
// requires: both ranges non-empty, first and last lines differ.
static bool
middle_snake(struct differ *d, long xoff, long xlim, long yoff, long ylim,
	     long max_cost, struct snake *s)
{
	const uint32_t *xv = d->a.kept, *yv = d->b.kept;
	long *fd = d->fd, *bd = d->bd;
	long dmin = xoff - ylim, dmax = xlim - yoff;
	long fmid = xoff - yoff, bmid = xlim - ylim;
	long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
	bool odd = (fmid - bmid) & 1;

	fd[fmid] = xoff;
	bd[bmid] = xlim;
	for (long c = 1; c <= max_cost; c++) {
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

// Kept lines [from, to) of @p sd are changes.
static void
mark_changed(struct side *sd, long from, long to)
{
	for (long i = from; i < to; i++)
		sd->changed[sd->at[i]] = true;
}

// Work cap: about 50M snake steps per region before it is split at its
// anchors instead (or, without anchors, given up).
static long
cost_cap(long n, long m)
{
	long cap = 50000000 / (n + m + 1);
	return cap < 256 ? 256 : cap;
}

static void compare_seq(struct differ *d, long xoff, long xlim, long yoff,
			long ylim);

// Patience sorting: the longest run of @p n pairs (x ascending) whose y
// ascend too, written over the start of @p xs and @p ys; returns its
// length. @p work holds 2 * n longs.
static long
longest_run(long *xs, long *ys, long n, long *work)
{
	long *tops = work, *prev = work + n, len = 0;
	for (long i = 0; i < n; i++) {
		long lo = 0, hi = len;	// first pile whose top is >= ys[i]
		while (lo < hi) {
			long mid = (lo + hi) / 2;
			if (ys[tops[mid]] < ys[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tops[lo - 1] : -1;
		tops[lo] = i;
		len += lo == len;
	}
	// The run, back from the top of the last pile, into tops; then over
	// the start of xs and ys: its k-th pair is at index >= k, so going up
	// never reads a pair already overwritten.
	for (long k = len, i = len ? tops[len - 1] : -1; k-- > 0;
	     i = prev[i])
		tops[k] = i;
	for (long k = 0; k < len; k++) {
		xs[k] = xs[tops[k]];
		ys[k] = ys[tops[k]];
	}
	return len;
}

// Splits a region too costly to search at its anchors: kept lines whose
// class occurs exactly once in it on each side, the longest run of them
// in the same order on both. Each anchor is matched, and the stretches
// between them are compared on their own, each with its own cost cap.
// Returns false (nothing marked) when the region has no anchor.
static bool
anchor_split(struct differ *d, long xoff, long xlim, long yoff, long ylim)
{
	const uint32_t *xv = d->a.kept, *yv = d->b.kept;
	long n = xlim - xoff;
	long *xs = malloc((size_t)n * 4 * sizeof(*xs));
	if (!xs)
		return false;	// out of memory: give the region up
	long *ys = xs + n, *work = xs + 2 * n, k = 0;
	for (long x = xoff; x < xlim; x++)
		d->na[xv[x]]++;
	for (long y = yoff; y < ylim; y++) {
		d->nb[yv[y]]++;
		d->last_b[yv[y]] = y;
	}
	for (long x = xoff; x < xlim; x++) {
		uint32_t id = xv[x];
		if (d->na[id] == 1 && d->nb[id] == 1) {
			xs[k] = x;
			ys[k++] = d->last_b[id];
		}
	}
	for (long x = xoff; x < xlim; x++)
		d->na[xv[x]] = 0;
	for (long y = yoff; y < ylim; y++)
		d->nb[yv[y]] = 0;
	k = longest_run(xs, ys, k, work);
	for (long i = 0; i < k; i++) {
		compare_seq(d, xoff, xs[i], yoff, ys[i]);
		xoff = xs[i] + 1;
		yoff = ys[i] + 1;
	}
	if (k)
		compare_seq(d, xoff, xlim, yoff, ylim);
	free(xs);
	return k > 0;
}

// Marks the kept lines of a[xoff, xlim) and b[yoff, ylim) that a shortest
// edit script deletes and inserts (near-shortest, in a region split at
// its anchors).
static void
compare_seq(struct differ *d, long xoff, long xlim, long yoff, long ylim)
{
	const uint32_t *xv = d->a.kept, *yv = d->b.kept;
	struct snake s;

	while (xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff])
		xoff++, yoff++;
	while (xoff < xlim && yoff < ylim && xv[xlim - 1] == yv[ylim - 1])
		xlim--, ylim--;
	if (xoff == xlim || yoff == ylim) {
		mark_changed(&d->a, xoff, xlim);
		mark_changed(&d->b, yoff, ylim);
		return;
	}
	long cap = cost_cap(xlim - xoff, ylim - yoff);
	if (!middle_snake(d, xoff, xlim, yoff, ylim, cap, &s)) {
		if (anchor_split(d, xoff, xlim, yoff, ylim))
			return;
		d->gave_up = true;
		mark_changed(&d->a, xoff, xlim);
		mark_changed(&d->b, yoff, ylim);
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

// Whether line @p ln heads a function: unindented, starting as a name
// does, with a parameter list ("func @f(%a) {", "define i32 @f(i32 %x)").
static bool
heads_function(const struct line *ln)
{
	if (!ln->len)
		return false;
	unsigned char c = (unsigned char)ln->p[0];
	return (isalpha(c) || c == '_' || c == '$') &&
	       memchr(ln->p, '(', ln->len) != NULL;
}

// Like diff -p: the line of @p a above line @p before that heads its
// function (else the nearest unindented name, diff -p's own choice),
// after the "@@ ... @@".
static void
put_funcname(struct irs_buf *out, const struct side *a, long before)
{
	long fallback = -1;
	for (long i = before - 1; i >= 0; i--) {
		const struct line *ln = &a->lines[i];
		unsigned char c = ln->len ? (unsigned char)ln->p[0] : 0;
		if (heads_function(ln)) {
			fallback = i;
			break;
		}
		if (fallback < 0 && (isalpha(c) || c == '_' || c == '$'))
			fallback = i;
	}
	if (fallback < 0)
		return;
	const struct line *ln = &a->lines[fallback];
	size_t len = ln->len;
	while (len && (ln->p[len - 1] == '\n' || ln->p[len - 1] == '\r'))
		len--;
	if (len > 80)
		len = 80;	// as diff -p cuts it
	irs_buf_puts(out, " ");
	irs_buf_append(out, ln->p, len);
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
	irs_buf_puts(out, " @@");
	if (d->funcname)
		put_funcname(out, &d->a, e[from].ai);
	irs_buf_puts(out, "\n");
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
	free(d->na);
	free(d->nb);
	free(d->last_b);
}

static bool
differ_run(struct differ *d, const char *a, size_t alen, const char *b,
	   size_t blen)
{
	if (!side_init(&d->a, a, alen) || !side_init(&d->b, b, blen) ||
	    !number_lines(d) || !discard_unmatched(d))
		return false;
	size_t diags = (size_t)d->a.nkept + (size_t)d->b.nkept + 3;
	d->fd = malloc(diags * sizeof(long));
	d->bd = malloc(diags * sizeof(long));
	d->na = calloc((size_t)d->nids + 1, sizeof(*d->na));
	d->nb = calloc((size_t)d->nids + 1, sizeof(*d->nb));
	d->last_b = malloc(((size_t)d->nids + 1) * sizeof(*d->last_b));
	if (!d->fd || !d->bd || !d->na || !d->nb || !d->last_b)
		return false;
	// Diagonals run from -(b.nkept + 1) to a.nkept + 1.
	long *fd = d->fd, *bd = d->bd;
	d->fd += d->b.nkept + 1;
	d->bd += d->b.nkept + 1;
	compare_seq(d, 0, d->a.nkept, 0, d->b.nkept);
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
	return irs_textdiff_unified_p(a, alen, aname, b, blen, bname, context,
				      false, out, ret);
}

struct irs_error *
irs_textdiff_unified_p(const char *a, size_t alen, const char *aname,
		       const char *b, size_t blen, const char *bname,
		       uint32_t context, bool funcname, struct irs_buf *out,
		       struct irs_textdiff_stats *ret)
{
	struct differ d = {.funcname = funcname};
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
