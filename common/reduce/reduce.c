// irsnap reduce: shrinks an input while a test keeps failing the same way.
//
// The input is cut into a tree of units (reduce/units.c): functions >
// blocks > instructions from a snapshot, or brace/indent/label regions >
// lines from plain text. A round of the pipeline below works level by
// level, outermost first (hierarchical delta debugging: a function goes in
// one test, not in a hundred): at each level it merges blocks into the
// block before them (label and previous terminator deleted, so a CFG can
// become straight-line code) and then deletes whole units. Then blank
// lines go, and operands become constants, which leaves their definitions
// dead for the next round. Rounds repeat until one changes nothing.
//
// Every change is repaired through the def-use graph before it is
// rendered (reduce/defuse.c), so no test is spent on a candidate that
// would only fail to parse; every candidate is hashed, so none is tested
// twice (reduce/cache.c); tests run in parallel, each in its own directory
// and process group (reduce/exec.c); with --crash, interesting means the
// same signal and top frames as the input (reduce/crashsig.c), so the
// reduction never slips to another bug.
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reduce/reduce.h"

struct reducer {
	const struct irs_reduce_config *cfg;
	struct reduce_job job;
	struct reduce_tree *tree;
	struct reduce_state best;	/* the smallest interesting candidate */
	struct irs_buf best_text;
	struct reduce_cache cache;
	struct reduce_cache failed;	/* single-span cuts found boring, by
					   their line's text (text passes) */
	struct reduce_cache classes;	/* token class -> boring cuts of it,
					   CLASS_WON once one was not */
	struct reduce_exec exec;
	struct irs_reduce_result res;
	FILE *log;
	const char *step;
	uint32_t round;
	bool progress;		/* the current round changed something */
	bool as_is;		/* uses left without a definition stay as
				   they are (learned per input) */
	uint32_t dangle_tries[2], dangle_wins[2];	/* [as_is] */
	bool no_joins;		/* joining lines never helps this input */
	bool llvm;		/* the input is LLVM IR: tokens its syntax
				   cannot lose are not cut (llvm_fixed) */
	uint32_t pair_tries, pair_wins;	/* cuts of two tokens */
	bool stale;		/* best_text changed by a text pass: the
				   tree is rebuilt from it before the next
				   tree step */
	uint32_t pass_tests[16];	/* tests per step, for the log */
	bool done[16];		/* the step found nothing, and the text has
				   changed only cosmetically since: it is
				   not run again */
	bool cosmetic;		/* the commit being made only drops optional
				   words (cosmetic_cut) */
	uint32_t *other;	/* per use: what other_operands() names
				   instead, RU_NONE */
	uint32_t ncommits;	/* results so far, each kept in
				   exec.tmpdir/commit-N for the re-check */
	bool progress_shown;	/* a progress line is on the terminal */
	double t0, last_shown;
};

static volatile sig_atomic_t interrupted;

static void
on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double
clock_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t
count_lines(const char *s, size_t len)
{
	uint64_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n + (len && s[len - 1] != '\n');
}

/* {=== progress and log ==================================================== */

static void
show_progress(struct reducer *r, bool force)
{
	if (!r->cfg->progress)
		return;
	double t = clock_now();
	if (!force && t - r->last_shown < 0.1)
		return;
	r->last_shown = t;
	fprintf(stderr, "\r\033[Kreduce: round %u %s: %llu -> %llu lines, "
		"%u tests, %.1f s", r->round, r->step,
		(unsigned long long)r->res.lines_before,
		(unsigned long long)count_lines(r->best_text.data,
						r->best_text.len),
		r->exec.runs, t - r->t0);
	fflush(stderr);
	r->progress_shown = true;
}

static void
clear_progress(struct reducer *r)
{
	if (r->progress_shown)
		fprintf(stderr, "\r\033[K");
	r->progress_shown = false;
}

static void
note(struct reducer *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
note(struct reducer *r, const char *fmt, ...)
{
	va_list ap;
	if (r->log) {
		fprintf(r->log, "%8.2f s  ", clock_now() - r->t0);
		va_start(ap, fmt);
		vfprintf(r->log, fmt, ap);
		va_end(ap);
		fputc('\n', r->log);
	}
	if (irs_debug('R')) {
		clear_progress(r);
		fprintf(stderr, "reduce: ");
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
}

/* }=== */

/* {=== testing candidates ================================================== */

// Verdicts for texts[0..n): from the cache when known (a candidate is never
// run twice, not even twice in one batch), else from a test run.
static struct irs_error *
evaluate(struct reducer *r, char **texts, size_t *lens, uint32_t n,
	 uint8_t *verdicts)
{
	struct irs_error *err;
	uint64_t hashes[64];
	const char *run_texts[64];
	size_t run_lens[64];
	uint32_t run_of[64];	/* candidate -> index in the run batch */
	uint8_t run_verdicts[64];
	uint32_t nrun = 0;

	for (uint32_t i = 0; i < n; i++) {
		hashes[i] = reduce_hash(texts[i], lens[i]);
		run_of[i] = RU_NONE;
		if (reduce_cache_get(&r->cache, hashes[i], &verdicts[i])) {
			r->res.cache_hits++;
			continue;
		}
		for (uint32_t k = 0; k < i && run_of[i] == RU_NONE; k++)
			if (run_of[k] != RU_NONE && hashes[k] == hashes[i])
				run_of[i] = run_of[k];
		if (run_of[i] != RU_NONE) {
			r->res.cache_hits++;
			continue;
		}
		run_of[i] = nrun;
		run_texts[nrun] = texts[i];
		run_lens[nrun++] = lens[i];
	}
	if (nrun && (err = reduce_exec_batch(&r->exec, run_texts, run_lens,
					     nrun, run_verdicts, NULL)))
		return err;
	for (uint32_t i = 0; i < n; i++) {
		if (run_of[i] == RU_NONE)
			continue;
		verdicts[i] = run_verdicts[run_of[i]];
		if (verdicts[i] != VERDICT_INTERRUPTED)
			reduce_cache_put(&r->cache, hashes[i],
					 verdicts[i] == VERDICT_INTERESTING);
	}
	show_progress(r, false);
	return NULL;
}

// The best candidate changed: keep it on disk at once, so that even a
// killed reducer leaves its best result behind.
// Result N (0: the input) as a file of the scratch directory, so the
// final re-check can go back to the last one that reproduces.
static char *
commit_path(const struct reducer *r, uint32_t n)
{
	char *p;
	return asprintf(&p, "%s/commit-%u", r->exec.tmpdir, n) < 0 ? NULL : p;
}

static struct irs_error *
keep_commit(struct reducer *r)
{
	char *p = commit_path(r, r->ncommits);
	if (!p)
		return &irs_enomem;
	struct irs_error *err = irs_file_write(p, r->best_text.data,
					       r->best_text.len);
	free(p);
	if (!err)
		r->ncommits++;
	return err;
}

static struct irs_error *
commit(struct reducer *r, const struct reduce_state *s, struct irs_buf *text)
{
	struct irs_error *err;
	reduce_state_copy(&r->best, s);
	struct irs_buf tmp = r->best_text;
	r->best_text = *text;
	*text = tmp;
	r->progress = true;
	memset(r->done, 0, sizeof(r->done));
	note(r, "round %u %s: %zu bytes, %llu lines, %u tests", r->round,
	      r->step, r->best_text.len,
	      (unsigned long long)count_lines(r->best_text.data,
					      r->best_text.len),
	      r->exec.runs);
	if ((err = keep_commit(r)))
		return err;
	return irs_file_write(r->job.output, r->best_text.data,
			      r->best_text.len);
}

/* }=== */

/* {=== sweeping a list of items ============================================ */

// What a sweep removes: units (deleted, uses repaired), blocks' headers
// and the terminators before them (merging blocks), uses (replaced by the
// constant), or uses' definitions (the use names r->other[use] instead,
// and the definition goes when that was its last use).
enum item_kind { ITEM_UNIT, ITEM_MERGE, ITEM_USE, ITEM_OTHER };

static bool
item_live(const struct reducer *r, enum item_kind kind, uint32_t item)
{
	const struct reduce_tree *t = r->tree;
	if (kind == ITEM_UNIT)
		return !r->best.gone[item];
	if (kind == ITEM_MERGE)
		return !r->best.gone[item] && !r->best.gone[t->header[item]];
	uint32_t u = t->uses[item].unit;
	if (kind == ITEM_OTHER && (r->best.to[item] != RU_NONE ||
				   r->best.gone[t->defs[r->other[item]].unit]))
		return false;
	return !r->best.rep[item] && !(u != RU_NONE && r->best.gone[u]);
}

// Candidate slot: a state and its rendering.
struct cand {
	struct reduce_state st;
	struct irs_buf text;
	uint32_t first;		/* the chunk's first item index */
	uint32_t last;		/* one past its last */
	bool valid;
};

// Builds the candidate without items[lo, hi); false when it is not valid
// (a deletion that cannot be repaired) or not smaller than the best.
static bool
build(struct reducer *r, struct cand *c, enum item_kind kind,
      const uint32_t *items, uint32_t lo, uint32_t hi, bool as_is)
{
	reduce_state_copy(&c->st, &r->best);
	c->st.as_is = as_is;
	c->st.ndangling = 0;
	c->last = hi;
	if (kind == ITEM_UNIT) {
		if (!reduce_state_delete(&c->st, r->tree, items + lo, hi - lo))
			return false;
	} else if (kind == ITEM_MERGE) {
		if (!reduce_state_merge(&c->st, r->tree, items + lo, hi - lo))
			return false;
	} else if (kind == ITEM_OTHER) {
		uint32_t to[64], n = 0;
		for (uint32_t i = lo; i < hi && n < ARRAY_SIZE(to); i++)
			to[n++] = r->other[items[i]];
		if (hi - lo > n || !reduce_state_redirect(&c->st, r->tree,
							  items + lo, to, n))
			return false;
	} else {
		reduce_state_replace(&c->st, r->tree, items + lo, hi - lo);
	}
	// requires: every live use has a live definition (the repair's
	// whole point); a bug here would cost test runs, not correctness.
	if (!reduce_state_render(&c->st, r->tree, &c->text))
		return false;
	return c->text.len < r->best_text.len;
}

// Drops items that are no longer live; returns the new index of old
// position `pos`.
static uint32_t
compact(struct reducer *r, enum item_kind kind, uint32_t *items, uint32_t *n,
	uint32_t pos)
{
	uint32_t k = 0, newpos = 0;
	for (uint32_t i = 0; i < *n; i++) {
		if (i == pos)
			newpos = k;
		if (item_live(r, kind, items[i]))
			items[k++] = items[i];
	}
	if (pos >= *n)
		newpos = k;
	*n = k;
	return newpos;
}

// What works for a use left with no definition at all, per input: the
// constant (an SSA IR's parser rejects an undefined name) or leaving it
// as it is (a language that reads an undefined name as 0, where the
// constant would change what the code does). Counted over the candidates
// that had such uses; the other way is tried while it has few tries.
enum { LEARN_TRIES = 6 };

static void
learn(struct reducer *r, const struct cand *cands, const uint32_t *map,
      const uint8_t *verdicts, uint32_t nt, bool as_is)
{
	for (uint32_t k = 0; k < nt; k++) {
		if (!cands[map[k]].st.ndangling)
			continue;
		r->dangle_tries[as_is]++;
		r->dangle_wins[as_is] += verdicts[k] == VERDICT_INTERESTING;
	}
	bool other = !r->as_is;
	// The other way wins more often: switch to it.
	if (r->dangle_tries[other] >= 2 && r->dangle_wins[other] &&
	    r->dangle_wins[other] * r->dangle_tries[r->as_is] >
	    r->dangle_wins[r->as_is] * r->dangle_tries[other]) {
		r->as_is = other;
		note(r, "uses left without a definition: %s from now on "
		     "(%u of %u interesting that way, %u of %u the other)",
		     r->as_is ? "left as they are" : "the constant",
		     r->dangle_wins[other], r->dangle_tries[other],
		     r->dangle_wins[!other], r->dangle_tries[!other]);
	}
}

// No candidate of the batch was interesting: those that left uses
// without a definition are tried the other way, while that way has had
// few tries.
static struct irs_error *
try_other_way(struct reducer *r, struct cand *cands, const uint32_t *map,
	      uint32_t nt, enum item_kind kind, const uint32_t *items,
	      uint32_t *win)
{
	bool other = !r->as_is;
	if (r->dangle_tries[other] >= LEARN_TRIES)
		return NULL;
	char *texts[64];
	size_t lens[64];
	uint8_t verdicts[64];
	uint32_t map2[64], n = 0;
	for (uint32_t k = 0; k < nt; k++) {
		struct cand *c = &cands[map[k]];
		if (!c->st.ndangling ||
		    !build(r, c, kind, items, c->first, c->last, other))
			continue;
		texts[n] = c->text.data;
		lens[n] = c->text.len;
		map2[n++] = map[k];
	}
	struct irs_error *err;
	if (n && (err = evaluate(r, texts, lens, n, verdicts)))
		return err;
	learn(r, cands, map2, verdicts, n, other);
	for (uint32_t k = 0; k < n && *win == RU_NONE; k++)
		if (verdicts[k] == VERDICT_INTERESTING)
			*win = map2[k];
	return NULL;
}

// A single item's deletion, known by its text and how many live uses
// outside it its definitions still have: when the test found it boring,
// it is not tried again in a later round (after the tree was cut anew
// from a text pass's result) unless that count changed, as it does when
// an operand became a constant and its definition may go now.
static uint64_t
item_key(const struct reducer *r, enum item_kind kind, uint32_t item)
{
	const struct reduce_tree *t = r->tree;
	if (kind == ITEM_USE || kind == ITEM_OTHER) {
		const struct reduce_use *x = &t->uses[item];
		uint32_t ls = x->start, le = x->end;
		while (ls > 0 && t->text[ls - 1] != '\n')
			ls--;
		while (le < t->len && t->text[le - 1] != '\n')
			le++;
		return (reduce_hash(t->text + ls, le - ls) ^
			((uint64_t)(x->start - ls) << 40) ^ 0x5a ^
			((uint64_t)kind << 56)) | 2;
	}
	const struct reduce_unit *u = &t->units[item];
	uint64_t live = 0;
	for (uint32_t k = 0; k < t->nuses; k++) {
		const struct reduce_use *x = &t->uses[k];
		uint32_t du = t->defs[x->def].unit;
		if (du == RU_NONE || t->units[du].start < u->start ||
		    t->units[du].end > u->end || r->best.rep[k] ||
		    (x->start >= u->start && x->end <= u->end) ||
		    (x->unit != RU_NONE && r->best.gone[x->unit]))
			continue;
		live++;
	}
	return (reduce_hash(t->text + u->start, u->end - u->start) ^
		(live * 0x9e3779b97f4a7c15ull) ^ (uint64_t)kind) | 2;
}

// Was each of items[lo, hi) found boring alone (see chunk_known_boring)?
static bool
items_known_boring(const struct reducer *r, enum item_kind kind,
		   const uint32_t *items, uint32_t lo, uint32_t hi)
{
	uint8_t seen;
	if (hi - lo < 2)
		return false;
	for (uint32_t i = lo; i < hi; i++)
		if (!reduce_cache_get(&r->failed, item_key(r, kind, items[i]),
				      &seen))
			return false;
	return true;
}


// Removes chunks of `items` while the test stays interesting: chunks of
// half the list, then quarters, down to single items, C-Reduce style.
// Up to `jobs` chunks are tried at once; the first interesting one in list
// order wins, so the result does not depend on timing.
static struct irs_error *
sweep(struct reducer *r, enum item_kind kind, uint32_t *items, uint32_t n)
{
	struct irs_error *err = NULL;
	struct cand cands[64];
	uint32_t jobs = r->exec.jobs < 64 ? r->exec.jobs : 64;
	uint32_t ncand = 0;

	for (; ncand < jobs; ncand++) {
		irs_buf_init(&cands[ncand].text);
		if ((err = reduce_state_init(&cands[ncand].st, r->tree)))
			goto out;
	}
	// An item found boring alone, in the context it has now, is left
	// out of the chunks too: in a later round, coarse chunks that hold
	// one new item among old ones were most of the tests, and an item
	// that goes only together with another is rare.
	uint32_t fresh = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t seen;
		if (!reduce_cache_get(&r->failed, item_key(r, kind, items[i]),
				      &seen))
			items[fresh++] = items[i];
	}
	n = fresh;
	uint32_t size = (n + 1) / 2;
	while (n && size && !interrupted) {
		bool changed = false;
		for (uint32_t i = 0; i < n && !interrupted;) {
			char *texts[64];
			size_t lens[64];
			uint8_t verdicts[64];
			uint32_t map[64], nt = 0, next = i;
			uint64_t keys[64];
			for (uint32_t b = 0; b < jobs && next < n; b++) {
				uint32_t hi = next + size < n ? next + size : n;
				struct cand *c = &cands[b];
				uint8_t seen;
				if (kind == ITEM_UNIT && hi == next + 1 &&
				    r->llvm && reduce_llvm_terminator(r->tree,
							       items[next])) {
					next = hi;
					continue;
				}
				keys[nt] = hi == next + 1
					   ? item_key(r, kind, items[next]) : 0;
				if ((keys[nt] && reduce_cache_get(&r->failed,
							keys[nt], &seen)) ||
				    items_known_boring(r, kind, items, next,
						       hi)) {
					next = hi;
					continue;
				}
				c->first = next;
				c->valid = build(r, c, kind, items, next, hi,
						 r->as_is);
				if (c->valid) {
					texts[nt] = c->text.data;
					lens[nt] = c->text.len;
					map[nt++] = b;
				}
				next = hi;
			}
			if (nt && (err = evaluate(r, texts, lens, nt,
						       verdicts)))
				goto out;
			for (uint32_t k = 0; k < nt; k++)
				if (keys[k] && verdicts[k] == VERDICT_BORING)
					reduce_cache_put(&r->failed, keys[k], 1);
			uint32_t win = RU_NONE;
			for (uint32_t k = 0; k < nt && win == RU_NONE; k++)
				if (verdicts[k] == VERDICT_INTERESTING)
					win = map[k];
			learn(r, cands, map, verdicts, nt, r->as_is);
			if (win == RU_NONE && kind != ITEM_USE &&
			    (err = try_other_way(r, cands, map, nt, kind, items,
						 &win)))
				goto out;
			if (win == RU_NONE) {
				i = next;
				continue;
			}
			if ((err = commit(r, &cands[win].st, &cands[win].text)))
				goto out;
			changed = true;
			i = compact(r, kind, items, &n, cands[win].first);
		}
		if (size == 1 && !changed)
			break;
		size = size > 1 ? (size + 1) / 2 : 1;
		if (size > n)
			size = n;
	}
out:
	for (uint32_t k = 0; k < ncand; k++) {
		reduce_state_deinit(&cands[k].st);
		irs_buf_deinit(&cands[k].text);
	}
	return err;
}

/* }=== */

/* {=== generic passes over the text ======================================== */

// A piece of the best text a generic pass may cut: bytes [start, end),
// deleted, or replaced by repl.
struct span {
	uint32_t start, end;
	const char *repl;
};

struct spans {
	struct span *v;
	uint32_t n, cap;
	char **own;		/* replacements made for this text, freed
				   with the spans */
	uint32_t nown, capown;
	bool oom;
};

static void
spans_clear(struct spans *sp)
{
	for (uint32_t i = 0; i < sp->nown; i++)
		free(sp->own[i]);
	sp->nown = 0;
	sp->n = 0;
}

static void
spans_deinit(struct spans *sp)
{
	spans_clear(sp);
	free(sp->own);
	free(sp->v);
}

// A replacement text the spans own (taken over); NULL on OOM.
static const char *
spans_own(struct spans *sp, char *repl)
{
	if (repl && sp->nown == sp->capown) {
		uint32_t cap = sp->capown ? sp->capown * 2 : 16;
		void *p = realloc(sp->own, cap * sizeof(*sp->own));
		if (!p) {
			free(repl);
			repl = NULL;
		} else {
			sp->own = p;
			sp->capown = cap;
		}
	}
	if (!repl) {
		sp->oom = true;
		return NULL;
	}
	return sp->own[sp->nown++] = repl;
}

static void
span_add(struct spans *sp, uint32_t start, uint32_t end, const char *repl)
{
	if (sp->n == sp->cap) {
		uint32_t cap = sp->cap ? sp->cap * 2 : 256;
		void *p = realloc(sp->v, cap * sizeof(*sp->v));
		if (!p) {
			sp->oom = true;
			return;
		}
		sp->v = p;
		sp->cap = cap;
	}
	sp->v[sp->n++] = (struct span){start, end, repl};
}

// The text without spans [lo, hi) of sp (keep: without all but those),
// into out. Spans are sorted; one overlapping a cut one is skipped.
static bool
cut_spans(const char *text, size_t len, const struct spans *sp, uint32_t lo,
	  uint32_t hi, bool keep, struct irs_buf *out)
{
	out->len = 0;
	size_t pos = 0;
	for (uint32_t i = 0; i < sp->n; i++) {
		bool cut = (i >= lo && i < hi) != keep;
		const struct span *x = &sp->v[i];
		if (!cut || x->start < pos)
			continue;
		irs_buf_append(out, text + pos, x->start - pos);
		if (x->repl)
			irs_buf_puts(out, x->repl);
		pos = x->end;
	}
	irs_buf_append(out, text + pos, len - pos);
	if (!out->data)
		irs_buf_append(out, "", 0);
	return !out->oom;
}

// Lines, the newline included.
static void
spans_lines(const char *s, size_t len, struct spans *sp)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) + 1 : len;
		span_add(sp, (uint32_t)i, (uint32_t)e, NULL);
		i = e;
	}
}

// Tokens: a word (letters, digits, _ . $ % @ ^ -), a string, or one other
// non-blank character, each with the blanks after it; and as tokens of
// their own, which go only as pairs, a word with the `=` after it ("%2 = "
// of an assignment) and a `#` or `!` with the word after it ("#0", "!6").
static void
spans_tokens(const char *s, size_t len, struct spans *sp)
{
	for (size_t i = 0; i < len;) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
			continue;
		}
		size_t e = i + 1;
		if ((c == '#' || c == '!') && e < len && reduce_word_char(s[e])) {
			size_t w = e;
			while (w < len && reduce_word_char(s[w]))
				w++;
			while (w < len && (s[w] == ' ' || s[w] == '\t'))
				w++;
			span_add(sp, (uint32_t)i, (uint32_t)w, NULL);
		}
		if (reduce_word_char(c)) {
			while (e < len && reduce_word_char(s[e]))
				e++;
			// A name's qualifiers ("p." of "p.x", a field of a
			// table p, as "x" a global): a cut of its own.
			for (size_t d = i + 1, n = 0; (isalpha((unsigned char)c) ||
			     c == '_') && d + 1 < e && n < 2; d++)
				if (s[d] == '.' && isalpha((unsigned char)s[d + 1])) {
					span_add(sp, (uint32_t)i,
						 (uint32_t)d + 1, NULL);
					n++;
				}
		} else if (c == '"') {
			while (e < len && s[e] != '"' && s[e] != '\n')
				e += s[e] == '\\' ? 2 : 1;
			e = e < len ? e + 1 : len;
		}
		size_t b = e;
		while (b < len && (s[b] == ' ' || s[b] == '\t'))
			b++;
		// The last token of a line takes the blanks before it instead,
		// unless it is the line's first: "ret 0" becomes "ret", not
		// "ret ".
		size_t from = i;
		if (b == len || s[b] == '\n' || s[b] == '\r') {
			while (from > 0 &&
			       (s[from - 1] == ' ' || s[from - 1] == '\t'))
				from--;
			if (from == 0 || s[from - 1] == '\n')
				from = i;
		}
		span_add(sp, (uint32_t)from, (uint32_t)b, NULL);
		if (reduce_word_char(c) && b < len && s[b] == '=' &&
		    (b + 1 == len || s[b + 1] != '=')) {
			size_t a = b + 1;
			while (a < len && (s[a] == ' ' || s[a] == '\t'))
				a++;
			span_add(sp, (uint32_t)i, (uint32_t)a, NULL);
		}
		i = e;
	}
}

// Drops the spans llvm_fixed() says no cut may take.
static void
spans_drop_fixed(const char *s, size_t len, struct spans *sp)
{
	uint32_t k = 0, nparams;
	struct reduce_range *params = reduce_llvm_params(s, len, &nparams, &sp->oom);
	for (uint32_t i = 0; i < sp->n; i++)
		if (!reduce_llvm_fixed(s, params, nparams, sp->v[i].start,
				       sp->v[i].end))
			sp->v[k++] = sp->v[i];
	sp->n = k;
	free(params);
}

// Balanced regions: every (...), [...], {...} with its brackets, or
// (inner) its contents only.
static void
spans_balanced(const char *s, size_t len, struct spans *sp, bool inner)
{
	uint32_t stack[256];
	uint32_t depth = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '(' || c == '[' || c == '{') {
			if (depth < ARRAY_SIZE(stack))
				stack[depth] = (uint32_t)i;
			depth++;
		} else if ((c == ')' || c == ']' || c == '}') && depth) {
			depth--;
			if (depth >= ARRAY_SIZE(stack))
				continue;
			uint32_t o = stack[depth];
			char want = c == ')' ? '(' : c == ']' ? '[' : '{';
			if (s[o] != want)
				continue;
			if (inner && i > o + 1)
				span_add(sp, o + 1, (uint32_t)i, NULL);
			else if (!inner)
				span_add(sp, o, (uint32_t)i + 1, NULL);
		}
	}
}

// The trailing comma-separated items of a line outside brackets
// (", align 4" in LLVM IR), each to the next comma or the line's end.
static void
spans_tails(const char *s, size_t len, bool llvm, struct spans *sp)
{
	int depth = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\n') {
			depth = 0;
		} else if (c == '(' || c == '[' || c == '{' || c == '<') {
			depth++;
		} else if ((c == ')' || c == ']' || c == '}' || c == '>') &&
			   depth) {
			depth--;
		} else if (c == ',' && !depth) {
			size_t e = i + 1;
			int d = 0;
			while (e < len && s[e] != '\n' && !(s[e] == ',' && !d)) {
				if (strchr("([{<", s[e]))
					d++;
				else if (strchr(")]}>", s[e]) && d)
					d--;
				else if (strchr(")]}>", s[e]))
					break;
				e++;
			}
			if (e < len && (s[e] == '\n' || s[e] == ',') &&
			    !(llvm && reduce_llvm_operand_item(s, len, i)))
				span_add(sp, (uint32_t)i, (uint32_t)e, NULL);
		}
	}
}

// Arguments: each comma-separated piece of a (...) list on one line, at
// the top level of its parentheses, with its comma; and the trailing
// items of a line.
static void
spans_args(const char *s, size_t len, bool llvm, struct spans *sp)
{
	spans_tails(s, len, llvm, sp);
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '(')
			continue;
		int depth = 0;
		size_t piece = i + 1;
		for (size_t k = i + 1; k < len && s[k] != '\n'; k++) {
			char c = s[k];
			if (c == '(' || c == '[' || c == '{') {
				depth++;
			} else if ((c == ']' || c == '}' ||
				    (c == ')' && depth)) && depth) {
				depth--;
			} else if (c == ',' && !depth) {
				size_t e = k + 1;
				while (e < len && s[e] == ' ')
					e++;
				span_add(sp, (uint32_t)piece, (uint32_t)e,
					 NULL);
				piece = e;
			} else if (c == ')') {
				// The last one goes with the comma before it.
				size_t b = piece;
				while (b > i + 1 && s[b - 1] == ' ')
					b--;
				if (piece > i + 1 && k > piece &&
				    s[b - 1] == ',')
					span_add(sp, (uint32_t)b - 1,
						 (uint32_t)k, NULL);
				break;
			}
		}
	}
}

static int
span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

enum text_kind { TEXT_LINES, TEXT_TOKENS, TEXT_BALANCED, TEXT_INNER,
		 TEXT_ARGS, TEXT_JOIN, TEXT_FOLD };

// One line "%x = OP [words] %y, N [comment]" of a chain fold_chains()
// may fold: spans of the text and the constant.
struct chain_op {
	uint32_t start, end;	/* the line, its newline included */
	uint32_t indent;	/* end of its indentation */
	uint32_t dst, dst_end;	/* %x */
	uint32_t op, src;	/* OP up to %y: "add i32 " */
	uint32_t src_end;	/* end of %y */
	long long k;
};

// Parses line [s, e) as a chain_op (comment: the line comment marker).
static bool
chain_parse(const char *t, uint32_t s, uint32_t e, const char *comment,
	    struct chain_op *c)
{
	uint32_t i = s, end = e;
	while (end > s && (t[end - 1] == '\n' || t[end - 1] == '\r'))
		end--;
	while (i < end && (t[i] == ' ' || t[i] == '\t'))
		i++;
	*c = (struct chain_op){.start = s, .end = e, .indent = i};
	if (i >= end || t[i] != '%')
		return false;
	c->dst = i++;
	while (i < end && reduce_word_char(t[i]) && t[i] != '%')
		i++;
	c->dst_end = i;
	while (i < end && t[i] == ' ')
		i++;
	if (i >= end || t[i] != '=' || c->dst_end == c->dst + 1)
		return false;
	for (i++; i < end && t[i] == ' '; i++)
		;
	c->op = i;
	if (!(end - i > 4 && (!strncmp(t + i, "add ", 4) ||
			      !strncmp(t + i, "sub ", 4) ||
			      !strncmp(t + i, "mul ", 4))))
		return false;
	// Words between the opcode and %y ("nsw i32") belong to the opcode.
	while (i < end && t[i] != '%') {
		if (t[i] == ',' || t[i] == '-' || t[i] == '"' ||
		    (t[i] >= '0' && t[i] <= '9' && t[i - 1] == ' '))
			return false;
		i++;
	}
	if (i >= end)
		return false;
	c->src = i++;
	while (i < end && reduce_word_char(t[i]) && t[i] != '%')
		i++;
	c->src_end = i;
	while (i < end && t[i] == ' ')
		i++;
	if (i >= end || t[i] != ',')
		return false;
	for (i++; i < end && t[i] == ' '; i++)
		;
	bool neg = i < end && t[i] == '-';
	i += neg;
	uint32_t digits = i;
	long long k = 0;
	for (; i < end && t[i] >= '0' && t[i] <= '9' && i - digits < 15; i++)
		k = k * 10 + (t[i] - '0');
	if (i == digits || (i < end && reduce_word_char(t[i])))
		return false;
	c->k = neg ? -k : k;
	while (i < end && (t[i] == ' ' || t[i] == '\t'))
		i++;
	size_t cl = strlen(comment);
	return i == end || (cl && end - i >= cl && !strncmp(t + i, comment, cl));
}

static bool
same_text(const char *t, uint32_t a, uint32_t ae, uint32_t b, uint32_t be)
{
	return ae - a == be - b && !memcmp(t + a, t + b, ae - a);
}

// How often name [a, ae) occurs in the text as a whole word.
static uint32_t
word_count(const char *t, size_t len, uint32_t a, uint32_t ae)
{
	uint32_t n = 0, wl = ae - a;
	for (const char *p = t; (p = memmem(p, len - (size_t)(p - t), t + a,
					    wl)); p += wl)
		n += (p + wl == t + len || !reduce_word_char(p[wl])) &&
		     (p == t || !reduce_word_char(p[-1]));
	return n;
}

// Does line b continue line a's chain: the same opcode, applied to what a
// computed, which nothing else sees (b assigns the same name again, text
// that is not SSA, or a's value has no other use)?
static bool
chain_continues(const char *t, size_t len, const struct chain_op *a,
		const struct chain_op *b)
{
	if (!same_text(t, a->op, a->src, b->op, b->src) ||
	    !same_text(t, a->dst, a->dst_end, b->src, b->src_end))
		return false;
	if (same_text(t, b->dst, b->dst_end, b->src, b->src_end))
		return true;
	return word_count(t, len, a->dst, a->dst_end) == 2;
}

// Chains of one opcode with constants, as one line: "%p = add %p, 3" then
// "%p = add %p, 4" is "%p = add %p, 7" (sub: the constants add up too;
// mul: they multiply). Merging a definition into its use this way keeps
// the value, which deleting either line could not; a long chain whose
// total the failure needs goes to one line in one test.
static void
spans_folds(const char *t, size_t len, const char *comment, struct spans *sp)
{
	struct chain_op first = {0}, prev = {0}, cur = {0};
	uint32_t n = 0;
	long long total = 0;
	for (uint32_t s = 0; s <= len;) {
		const char *nl = s < len ? memchr(t + s, '\n', len - s) : NULL;
		uint32_t e = nl ? (uint32_t)(nl - t) + 1 : (uint32_t)len;
		bool ok = s < len && chain_parse(t, s, e, comment, &cur);
		bool mul = n && t[first.op] == 'm';
		if (ok && n && chain_continues(t, len, &prev, &cur) &&
		    (mul ? (cur.k == 0 || llabs(total) < (1ll << 31)) &&
			   llabs(cur.k) < (1ll << 31)
			 : llabs(total) < (1ll << 60))) {
			total = mul ? total * cur.k : total + cur.k;
			prev = cur;
			n++;
		} else {
			if (n >= 2) {
				struct irs_buf b;
				irs_buf_init(&b);
				irs_buf_append(&b, t + first.start,
					       first.indent - first.start);
				irs_buf_append(&b, t + prev.dst,
					       prev.dst_end - prev.dst);
				irs_buf_puts(&b, " = ");
				irs_buf_append(&b, t + first.op,
					       first.src_end - first.op);
				irs_buf_printf(&b, ", %lld%s", total,
					       t[prev.end - 1] == '\n' ? "\n"
								      : "");
				const char *repl = spans_own(sp,
							     b.oom ? NULL
							     : irs_buf_steal(&b));
				irs_buf_deinit(&b);
				if (repl)
					span_add(sp, first.start, prev.end,
						 repl);
			}
			n = ok;
			if (ok)
				first = prev = cur, total = cur.k;
		}
		if (s == len)
			break;
		s = e;
	}
}

// Line breaks with the indentation after them: to one blank, or to
// nothing when there is no indentation (lines run together, as C-Vise's
// whitespace pass does; where the language minds, the test says no).
// Not after a line with the @p comment marker (NULL: none known), which
// would comment out the next: those tries would all fail, and a dozen
// failures end the pass for good.
static void
spans_joins(const char *s, size_t len, const char *comment, struct spans *sp)
{
	size_t line = 0, nc = comment ? strlen(comment) : 0;
	for (size_t i = 0; i + 1 < len; i++) {
		if (s[i] != '\n')
			continue;
		bool commented = nc && memmem(s + line, i - line, comment, nc);
		line = i + 1;
		if (commented)
			continue;
		size_t e = i + 1;
		while (e < len && (s[e] == ' ' || s[e] == '\t'))
			e++;
		// a blank where the lines would run two words into one
		// ("end" and "print": "endprint")
		bool glue = i > 0 && reduce_word_char(s[i - 1]) && e < len &&
			    reduce_word_char(s[e]);
		if (e < len && s[e] != '\n')
			span_add(sp, (uint32_t)i, (uint32_t)e,
				 e - i > 1 || glue ? " " : NULL);
		i = e - 1;
	}
}

static bool
find_spans(enum text_kind kind, const char *s, size_t len, const char *comment,
	   bool llvm, struct spans *sp)
{
	spans_clear(sp);
	if (kind == TEXT_FOLD)
		spans_folds(s, len, comment, sp);
	else if (kind == TEXT_LINES)
		spans_lines(s, len, sp);
	else if (kind == TEXT_TOKENS) {
		spans_tokens(s, len, sp);
		if (llvm)
			spans_drop_fixed(s, len, sp);
	}
	else if (kind == TEXT_ARGS)
		spans_args(s, len, llvm, sp);
	else if (kind == TEXT_JOIN)
		spans_joins(s, len, comment, sp);
	else
		spans_balanced(s, len, sp, kind == TEXT_INNER);
	if (sp->n)
		qsort(sp->v, sp->n, sizeof(*sp->v), span_cmp);
	return !sp->oom;
}

// reduce_llvm_range_cut_ok() of cutting spans [lo, hi) of sp (keep: all but
// those), lines that follow each other.
static bool
llvm_lines_cut_ok(const char *s, size_t len, const struct spans *sp,
		  uint32_t lo, uint32_t hi, bool keep)
{
	if (!sp->n)
		return true;
	if (!keep)
		return reduce_llvm_range_cut_ok(s, len, sp->v[lo].start,
					 sp->v[hi - 1].end);
	return (!lo || reduce_llvm_range_cut_ok(s, len, 0, sp->v[lo].start)) &&
	       (hi >= sp->n ||
		reduce_llvm_range_cut_ok(s, len, sp->v[hi].start, (uint32_t)len));
}

// The best text is now *text (swapped in): kept, written, and the tree
// is to be cut from it again.
static struct irs_error *
commit_text(struct reducer *r, struct irs_buf *text)
{
	struct irs_error *err;
	struct irs_buf tmp = r->best_text;
	r->best_text = *text;
	*text = tmp;
	r->progress = true;
	r->stale = true;
	if (!r->cosmetic)
		memset(r->done, 0, sizeof(r->done));
	note(r, "round %u %s: %zu bytes, %llu lines, %u tests", r->round,
	     r->step, r->best_text.len,
	     (unsigned long long)count_lines(r->best_text.data,
					     r->best_text.len), r->exec.runs);
	if ((err = keep_commit(r)))
		return err;
	return irs_file_write(r->job.output, r->best_text.data,
			      r->best_text.len);
}

// How far a cut's context reaches each side, in characters other than
// blanks: two or three tokens, so that a win elsewhere in the line (or in
// text whose lines were joined into one) leaves the cut's key as it was.
enum { KEY_CONTEXT = 12 };

// FNV-1a of h and the bytes of [from, to) that are not blanks.
static uint64_t
hash_solid(uint64_t h, const char *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (!isspace((unsigned char)s[i]))
			h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

// A single span's cut, known by the kind of pass, the span and the text
// around it: a cut the test found boring is not tried again in a later
// round while its context is the same (the rest of the text changed, but
// C-Reduce's experience is that it rarely matters, and a round of single
// tokens costs a test per token). Blanks and line breaks are left out,
// so joining lines does not make every cut new.
static uint64_t
span_key(const char *text, size_t len, const struct span *x, int kind)
{
	size_t ls = x->start, le = x->end;
	for (uint32_t n = 0; ls > 0 && n < KEY_CONTEXT; ls--)
		n += !isspace((unsigned char)text[ls - 1]);
	for (uint32_t n = 0; le < len && n < KEY_CONTEXT; le++)
		n += !isspace((unsigned char)text[le]);
	uint64_t h = hash_solid(0xcbf29ce484222325ull ^ (uint64_t)kind, text,
				ls, x->start);
	h = hash_solid((h ^ 0x100) * 0x100000001b3ull, text, x->start,
		       x->end);
	return hash_solid((h ^ 0x101) * 0x100000001b3ull, text, x->end, le);
}

// The key of cutting spans [lo, hi) of sp alone, when they lie in one
// line (a whole line, its newline included, among them); 0 when they do
// not (a cut across lines is not remembered).
static uint64_t
chunk_key(const struct reducer *r, const struct spans *sp, uint32_t lo,
	  uint32_t hi, enum text_kind kind)
{
	struct span both = {sp->v[lo].start, sp->v[hi - 1].end, NULL};
	if (memchr(r->best_text.data + both.start, '\n',
		   both.end - both.start - (both.end > both.start)))
		return 0;
	return span_key(r->best_text.data, r->best_text.len, &both,
			(int)kind) | 1;
}

// Was each span of [lo, hi) found boring cut alone? Then so is the
// chunk, most likely: a cut that needs another cut with it to be
// interesting is rare, and in a later round, when every single cut is
// known, the coarse granularities would otherwise be tested again in
// full for nothing.
static bool
chunk_known_boring(const struct reducer *r, const struct spans *sp,
		   uint32_t lo, uint32_t hi, enum text_kind kind)
{
	uint8_t seen;
	if (hi - lo < 2)
		return false;
	for (uint32_t i = lo; i < hi; i++) {
		uint64_t key = chunk_key(r, sp, i, i + 1, kind);
		if (!key || !reduce_cache_get(&r->failed, key, &seen))
			return false;
	}
	return true;
}

// A token's class: its text without blanks and with each run of digits
// as one 0, so %5 and %17 are one class, #0 and #3 another (a pair of
// tokens: the pair of their classes).
static uint64_t
token_class(const char *s, const struct span *x)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint32_t i = x->start; i < x->end; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isspace(c) || (isdigit(c) && i > x->start &&
				   isdigit((unsigned char)s[i - 1])))
			continue;
		h = (h ^ (isdigit(c) ? '0' : c)) * 0x100000001b3ull;
	}
	return h | 1;
}

// A token class whose cut was boring this many times, and never
// interesting, is not cut again: most tokens of an IR (types, opcodes,
// commas, operands) never go, and trying each of them, in every round,
// was most of a reduction's tests. CLASS_WON: one went; all are tried.
// CLASS_GAVE_UP: none is tried any more.
enum { CLASS_GIVE_UP = 3, CLASS_GAVE_UP = 254, CLASS_WON = 255 };

// The class of chunk [lo, hi) of tokens, a single token or a pair; 0
// for a longer one.
static uint64_t
chunk_class(const char *s, const struct spans *sp, uint32_t lo, uint32_t hi)
{
	if (hi - lo > 2)
		return 0;
	uint64_t c = token_class(s, &sp->v[lo]);
	if (hi - lo == 2)
		c = (c * 0x9e3779b97f4a7c15ull ^ token_class(s, &sp->v[lo + 1]))
		    | 1;
	return c;
}

// How many tokens and pairs of each class the text has (up to 255).
static void
count_classes(const char *s, const struct spans *sp,
	      struct reduce_cache *members)
{
	reduce_cache_deinit(members);
	for (uint32_t i = 0; i < sp->n; i++) {
		for (uint32_t hi = i + 1; hi <= i + 2 && hi <= sp->n; hi++) {
			uint64_t c = chunk_class(s, sp, i, hi);
			uint8_t n = 0;
			reduce_cache_get(members, c, &n);
			reduce_cache_put(members, c, n < 255 ? n + 1 : n);
		}
	}
}

// Learning pays for classes with many tokens only: those of a rare one
// (the last `;` of a C line) are tried one by one all the same.
enum { CLASS_FREQUENT = 4 };

// Given up once, a class stays given up, though fewer of it are left.
static bool
class_given_up(struct reducer *r, const struct reduce_cache *members,
	       uint64_t cls, uint32_t ntokens)
{
	uint8_t n, m = 0;
	if (!reduce_cache_get(&r->classes, cls, &n) || n == CLASS_WON)
		return false;
	if (n == CLASS_GAVE_UP)
		return true;
	reduce_cache_get(members, cls, &m);
	if (n < CLASS_GIVE_UP || (m < CLASS_FREQUENT && ntokens == 1))
		return false;
	reduce_cache_put(&r->classes, cls, CLASS_GAVE_UP);
	return true;
}

static void
class_learn(struct reducer *r, uint64_t cls, uint8_t verdict)
{
	uint8_t n = 0;
	reduce_cache_get(&r->classes, cls, &n);
	if (verdict == VERDICT_INTERESTING)
		n = CLASS_WON;
	else if (verdict == VERDICT_BORING && n < CLASS_GIVE_UP)
		n++;
	reduce_cache_put(&r->classes, cls, n);
}

// Does cutting spans [lo, hi) of sp only drop optional words: no name
// (%x, @f, #0, !6), bracket, separator or line break goes, so no
// definition, use or unit changes, and what the other steps found boring
// stays so? In LLVM IR an assignment's "%5 = " too: the value keeps its
// number; commas: an item with its comma (", align 4"). After such cuts
// a step that found nothing is not run again.
static bool
cosmetic_cut(const struct reducer *r, const struct spans *sp, uint32_t lo,
	     uint32_t hi, bool commas)
{
	const char *s = r->best_text.data;
	for (uint32_t i = lo; i < hi; i++) {
		uint32_t a = sp->v[i].start, e = sp->v[i].end;
		while (e > a && isspace((unsigned char)s[e - 1]))
			e--;
		if (r->llvm && e > a && s[e - 1] == '=')
			continue;
		for (uint32_t k = a; k < e; k++)
			if (strchr("%@#!^{}()[]<>,;:=\"'\n", s[k]) &&
			    !(commas && s[k] == ','))
				return false;
	}
	return true;
}

// A token (or a trailing item) of class cls went: the others of its
// class from span `from` on may well go too (the "%7 = " of every
// assignment, every "noundef", every ", align 4"), in one cut rather than
// a test each (commas: they are items). *won: they did.
static struct irs_error *
class_batch(struct reducer *r, const struct spans *sp, uint64_t cls,
	    uint32_t from, bool commas, struct irs_buf *buf, bool *won)
{
	struct irs_error *err = NULL;
	struct spans sel = {0};
	*won = false;
	for (uint32_t i = from; i < sp->n; i++)
		if (token_class(r->best_text.data, &sp->v[i]) == cls)
			span_add(&sel, sp->v[i].start, sp->v[i].end,
				 sp->v[i].repl);
	if (sel.oom ||
	    (sel.n >= 2 && !cut_spans(r->best_text.data, r->best_text.len,
				      &sel, 0, sel.n, false, buf))) {
		err = &irs_enomem;
	} else if (sel.n >= 2 && buf->len < r->best_text.len) {
		char *text = buf->data;
		size_t len = buf->len;
		uint8_t v;
		err = evaluate(r, &text, &len, 1, &v);
		if (!err && v == VERDICT_INTERESTING) {
			r->cosmetic = cosmetic_cut(r, &sel, 0, sel.n, commas);
			err = commit_text(r, buf);
			r->cosmetic = false;
			*won = !err;
		}
	}
	spans_deinit(&sel);	// it owns no replacement texts
	return err;
}

enum { PAIR_TRIAL = 16 };	/* boring pairs before pairs are given up */

// How many candidates a granularity has: a cut per chunk, and while the
// chunks are few, their complements (keep one chunk, cut the rest).
static uint32_t
ncandidates(uint32_t nchunks)
{
	return nchunks * (nchunks > 2 && nchunks <= 8 ? 2 : 1);
}

// Delta debugging over the spans of the best text (ddmin, C-Vise's
// passes): chunks of half of them, then quarters, down to one, with
// complements at the coarse granularities; chunks of at most max_size
// spans (0: no limit; 1: regions that nest, balanced ones, one at a
// time).
static struct irs_error *
text_sweep(struct reducer *r, enum text_kind kind, uint32_t max_size)
{
	struct irs_error *err = NULL;
	struct spans sp = {0};
	struct irs_buf bufs[64];
	struct reduce_cache members;	/* token class -> tokens of it */
	uint32_t jobs = r->exec.jobs < 64 ? r->exec.jobs : 64;
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_init(&bufs[k]);
	reduce_cache_init(&members);

	if (!find_spans(kind, r->best_text.data, r->best_text.len,
			r->tree->comment, r->llvm, &sp)) {
		err = &irs_enomem;
		goto out;
	}
	if (kind == TEXT_TOKENS)
		count_classes(r->best_text.data, &sp, &members);
	uint32_t size = (sp.n + 1) / 2;
	bool single = max_size == 1;
	uint32_t boring = 0, wins = 0;
	if (max_size && size > max_size)
		size = max_size;
	while (sp.n && size && !interrupted) {
		bool changed = false;
		uint32_t nchunks = (sp.n + size - 1) / size;
		uint32_t ncand = ncandidates(nchunks);
		for (uint32_t i = 0; i < ncand && !interrupted;) {
			char *texts[64];
			size_t lens[64];
			uint8_t verdicts[64];
			uint32_t map[64], first[64], nt = 0, next = i;
			uint64_t keys[64], cls[64];
			bool kept[64];
			for (uint32_t b = 0; b < jobs && next < ncand; next++) {
				bool keep = next >= nchunks;
				uint32_t c = keep ? next - nchunks : next;
				uint32_t lo = c * size;
				uint32_t hi = lo + size < sp.n ? lo + size
							       : sp.n;
				if (!cut_spans(r->best_text.data,
					       r->best_text.len, &sp, lo, hi,
					       keep, &bufs[b])) {
					err = &irs_enomem;
					goto out;
				}
				// (a join that keeps two words apart with a
				// blank is no shorter, but has a line less)
				if (bufs[b].len > r->best_text.len ||
				    (bufs[b].len == r->best_text.len &&
				     kind != TEXT_JOIN))
					continue;
				if (kind == TEXT_LINES && r->llvm &&
				    !llvm_lines_cut_ok(r->best_text.data,
						       r->best_text.len, &sp,
						       lo, hi, keep))
					continue;
				uint8_t seen;
				keys[nt] = keep ? 0 : chunk_key(r, &sp, lo, hi,
								kind);
				if (keys[nt] && reduce_cache_get(&r->failed,
							keys[nt], &seen))
					continue;
				if (!keep && chunk_known_boring(r, &sp, lo, hi,
								kind))
					continue;
				cls[nt] = keep || kind != TEXT_TOKENS ? 0
					  : chunk_class(r->best_text.data, &sp,
							lo, hi);
				if (cls[nt] && class_given_up(r, &members,
							      cls[nt], hi - lo))
					continue;
				texts[nt] = bufs[b].data;
				lens[nt] = bufs[b].len;
				first[nt] = keep ? 0 : c;
				kept[nt] = keep;
				map[nt++] = b++;
			}
			if (nt && (err = evaluate(r, texts, lens, nt,
						  verdicts)))
				goto out;
			for (uint32_t k = 0; k < nt; k++) {
				if (keys[k] && verdicts[k] == VERDICT_BORING)
					reduce_cache_put(&r->failed, keys[k],
							 1);
				if (cls[k])
					class_learn(r, cls[k], verdicts[k]);
			}
			uint32_t win = RU_NONE, at = 0;
			uint64_t win_cls = 0;
			bool win_kept = false;
			for (uint32_t k = 0; k < nt && win == RU_NONE; k++)
				if (verdicts[k] == VERDICT_INTERESTING) {
					win = map[k];
					at = first[k];
					win_cls = size != 1 || kept[k] ? 0
						: kind == TEXT_TOKENS ? cls[k]
						: kind == TEXT_ARGS
						? token_class(r->best_text.data,
							&sp.v[first[k]])
						: 0;
					win_kept = kept[k];
				}
			if (win == RU_NONE) {
				boring += nt;
				// Joining lines: a language that minds line
				// breaks says so at once; no more tries then.
				if (kind == TEXT_JOIN && !wins && boring >= 12) {
					r->no_joins = true;
					goto out;
				}
				// Pairs: the same, after a few more tries.
				if (kind == TEXT_TOKENS && size == 2 &&
				    (r->pair_tries += nt) >= PAIR_TRIAL &&
				    !r->pair_wins)
					goto out;
				i = next;
				continue;
			}
			wins++;
			r->pair_wins += kind == TEXT_TOKENS && size == 2;
			r->cosmetic = (kind == TEXT_TOKENS ||
				       kind == TEXT_ARGS) && !win_kept &&
				cosmetic_cut(r, &sp, at * size,
					     at * size + size < sp.n
					     ? at * size + size : sp.n,
					     kind == TEXT_ARGS);
			err = commit_text(r, &bufs[win]);
			r->cosmetic = false;
			if (err)
				goto out;
			changed = true;
			if (!find_spans(kind, r->best_text.data,
					r->best_text.len, r->tree->comment,
					r->llvm, &sp)) {
				err = &irs_enomem;
				goto out;
			}
			bool batch = false;
			if (win_cls && (err = class_batch(r, &sp, win_cls, at,
							  kind == TEXT_ARGS,
							  &bufs[win], &batch)))
				goto out;
			if (batch && !find_spans(kind, r->best_text.data,
						 r->best_text.len,
						 r->tree->comment, r->llvm,
						 &sp)) {
				err = &irs_enomem;
				goto out;
			}
			if (kind == TEXT_TOKENS)
				count_classes(r->best_text.data, &sp, &members);
			// On at the same place: what followed the cut chunk
			// is there now (after a complement, from the start).
			nchunks = sp.n ? (sp.n + size - 1) / size : 0;
			ncand = ncandidates(nchunks);
			i = at < nchunks ? at : ncand;
		}
		if (size == 1 && (!changed || single))
			break;
		size = size > 1 ? (size + 1) / 2 : 1;
	}
out:
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_deinit(&bufs[k]);
	reduce_cache_deinit(&members);
	spans_deinit(&sp);
	return err;
}

// A parenthesized list after "@name(" on one line: its pieces (the
// top-level comma-separated items, blanks around them excluded).
struct arg_list {
	uint32_t open, close;	/* '(' and ')' */
	uint32_t n;
	uint32_t start[32], end[32];
};

static bool
arg_list_parse(const char *t, size_t len, uint32_t open, struct arg_list *a)
{
	a->open = open;
	a->n = 0;
	int depth = 0;
	uint32_t piece = open + 1;
	for (uint32_t i = open + 1; i < len && t[i] != '\n'; i++) {
		char c = t[i];
		if (strchr("([{<", c)) {
			depth++;
		} else if (strchr(")]}>", c) && depth) {
			depth--;
		} else if (c == ',' || c == ')') {
			if (depth)
				continue;
			uint32_t s = piece, e = i;
			while (s < e && t[s] == ' ')
				s++;
			while (e > s && t[e - 1] == ' ')
				e--;
			if (c == ')' && s == e && !a->n) {
				a->close = i;
				return true;	// "()"
			}
			if (s == e || a->n == ARRAY_SIZE(a->start))
				return false;
			a->start[a->n] = s;
			a->end[a->n++] = e;
			piece = i + 1;
			if (c == ')') {
				a->close = i;
				return true;
			}
		}
	}
	return false;
}

// Bytes [*s, *e) that cut piece i of a with its comma.
static void
arg_cut(const struct arg_list *a, uint32_t i, uint32_t *s, uint32_t *e)
{
	if (i + 1 < a->n) {
		*s = a->start[i];
		*e = a->start[i + 1];
	} else if (i > 0) {
		*s = a->end[i - 1];
		*e = a->end[i];
	} else {
		*s = a->start[i];
		*e = a->end[i];
	}
}

// Is the line holding byte i a definition or declaration (its first word
// define, declare, func, or a C-like return type before the name)?
static bool
defining_line(const char *t, uint32_t i)
{
	uint32_t s = i;
	while (s > 0 && t[s - 1] != '\n')
		s--;
	while (t[s] == ' ' || t[s] == '\t')
		s++;
	return !strncmp(t + s, "define ", 7) || !strncmp(t + s, "declare ", 8) ||
	       !strncmp(t + s, "func ", 5);
}

// A parameter's name: its last word when that is a %name, or none.
static bool
param_name(const char *t, uint32_t s, uint32_t e, uint32_t *ns)
{
	uint32_t i = e;
	while (i > s && reduce_word_char(t[i - 1]) && t[i - 1] != '%')
		i--;
	if (i == s || t[i - 1] != '%' || i == e)
		return false;
	*ns = i - 1;
	return true;
}

// The candidate without parameter p of the function defined at def, and
// without the matching argument of every call (calls[0..ncalls)); an
// unnamed LLVM parameter %N takes the later numbers of its function one
// down with it. False when the parameter is used in the function (the
// candidate could not parse) or on OOM.
static bool
drop_param(const char *t, size_t len, const struct arg_list *def,
	   const struct arg_list *calls, uint32_t ncalls, uint32_t p,
	   struct irs_buf *out)
{
	// The function's body: to the first line that starts with '}'.
	uint32_t body = def->close, body_end = (uint32_t)len;
	for (uint32_t i = body; i + 1 < len; i++)
		if (t[i] == '\n' && t[i + 1] == '}') {
			body_end = i + 1;
			break;
		}
	uint32_t ns = 0, num = UINT32_MAX;
	bool named = param_name(t, def->start[p], def->end[p], &ns);
	if (named) {
		uint32_t ne = def->end[p], nl = ne - ns;
		if (nl - 1 <= 9 && isdigit((unsigned char)t[ns + 1])) {
			num = 0;
			for (uint32_t i = ns + 1; i < ne; i++)
				num = isdigit((unsigned char)t[i])
				      ? num * 10 + (uint32_t)(t[i] - '0')
				      : UINT32_MAX;
		}
		for (const char *q = t + body; q && q < t + body_end;) {
			q = memmem(q, (size_t)(t + body_end - q), t + ns, nl);
			if (!q)
				break;
			if (q + nl >= t + len || !reduce_word_char(q[nl]))
				return false;	// used
			q += nl;
		}
	}
	// The cuts, in text order: calls before or after the definition.
	uint32_t cs[33], ce[33], nc = 0;
	for (uint32_t k = 0; k <= ncalls && nc < ARRAY_SIZE(cs); k++) {
		const struct arg_list *a = k < ncalls ? &calls[k] : def;
		arg_cut(a, p, &cs[nc], &ce[nc]);
		nc++;
	}
	for (uint32_t i = 1; i < nc; i++)	// insertion sort
		for (uint32_t j = i; j > 0 && cs[j] < cs[j - 1]; j--) {
			uint32_t x = cs[j]; cs[j] = cs[j - 1]; cs[j - 1] = x;
			x = ce[j]; ce[j] = ce[j - 1]; ce[j - 1] = x;
		}
	out->len = 0;
	uint32_t pos = 0;
	for (uint32_t i = 0; i < nc; i++) {
		irs_buf_append(out, t + pos, cs[i] - pos);
		pos = ce[i];
	}
	irs_buf_append(out, t + pos, len - pos);
	if (out->oom || num == UINT32_MAX)
		return !out->oom;
	// Renumber the function's %M > N, from its '(' to its '}' in the
	// new text: the old offsets less what was cut before them.
	struct irs_buf b;
	irs_buf_init(&b);
	uint32_t fs = def->open, fe = body_end;
	for (uint32_t i = 0; i < nc; i++) {
		if (ce[i] <= def->open)
			fs -= ce[i] - cs[i];
		if (ce[i] <= body_end)
			fe -= ce[i] - cs[i];
	}
	const char *o = out->data;
	size_t i = 0;
	for (; i < out->len; i++) {
		if (i < fs || i >= fe || o[i] != '%' ||
		    (i > 0 && reduce_word_char(o[i - 1])) ||
		    !isdigit((unsigned char)o[i + 1])) {
			irs_buf_append(&b, o + i, 1);
			continue;
		}
		size_t j = i + 1;
		uint64_t m = 0;
		while (j < out->len && isdigit((unsigned char)o[j]) && j - i < 10)
			m = m * 10 + (uint64_t)(o[j++] - '0');
		if (j < out->len && reduce_word_char(o[j])) {
			irs_buf_append(&b, o + i, j - i);
		} else {
			irs_buf_printf(&b, "%%%llu", (unsigned long long)
				       (m > num ? m - 1 : m));
		}
		i = j - 1;
	}
	// Block labels "M:" of the function follow the same sequence.
	struct irs_buf c;
	irs_buf_init(&c);
	o = b.data;
	size_t blen = b.len;
	fe = fe > blen ? (uint32_t)blen : fe;
	for (i = 0; i < blen; i++) {
		if (i >= fs && i < fe && (i == 0 || o[i - 1] == '\n') &&
		    isdigit((unsigned char)o[i])) {
			size_t j = i;
			uint64_t m = 0;
			while (j < blen && isdigit((unsigned char)o[j]) &&
			       j - i < 10)
				m = m * 10 + (uint64_t)(o[j++] - '0');
			if (j < blen && o[j] == ':') {
				irs_buf_printf(&c, "%llu", (unsigned long long)
					       (m > num ? m - 1 : m));
				i = j - 1;
				continue;
			}
		}
		irs_buf_append(&c, o + i, 1);
	}
	bool ok = !b.oom && !c.oom;
	irs_buf_deinit(&b);
	if (ok) {
		out->len = 0;
		irs_buf_append(out, c.data ? c.data : "", c.len);
	}
	irs_buf_deinit(&c);
	return ok && !out->oom;
}

// Parameters dropped with the matching argument of every call
// (llvm-reduce's arguments pass; C-Vise cuts one list at a time, and a
// call whose argument count no longer matches rarely parses): one
// candidate per parameter whose name the function does not use.
static struct irs_error *
drop_params(struct reducer *r)
{
	struct irs_error *err = NULL;
	uint32_t jobs = r->exec.jobs < 64 ? r->exec.jobs : 64;
	struct irs_buf bufs[64];
	struct arg_list *calls = malloc(32 * sizeof(*calls));
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_init(&bufs[k]);
	if (!calls)
		return &irs_enomem;
	// Functions in text order, parameters in order; after a win, from
	// the start of the new text (what was boring is in the cache).
	for (bool again = true; again && !err && !interrupted;) {
		again = false;
		const char *t = r->best_text.data;
		size_t len = r->best_text.len;
		for (uint32_t i = 0; i + 1 < len && !again && !err; i++) {
			if (t[i] != '@' || (i && reduce_word_char(t[i - 1])) ||
			    !defining_line(t, i))
				continue;
			uint32_t e = i + 1;
			while (e < len && reduce_word_char(t[e]) && t[e] != '@')
				e++;
			struct arg_list def;
			if (e >= len || t[e] != '(' ||
			    !arg_list_parse(t, len, e, &def) || !def.n)
				continue;
			// Every other "@name(" is a call with as many
			// arguments, or the function is left alone.
			uint32_t ncalls = 0, nl = e - i + 1;
			bool fits = true;
			for (const char *q = t; fits &&
			     (q = memmem(q, len - (size_t)(q - t), t + i, nl));
			     q += nl) {
				uint32_t at = (uint32_t)(q - t);
				if (at == i || (at && reduce_word_char(t[at - 1])))
					continue;
				fits = ncalls < 32 && !defining_line(t, at) &&
				       arg_list_parse(t, len, at + nl - 1,
						      &calls[ncalls]) &&
				       calls[ncalls].n == def.n;
				ncalls++;
			}
			if (!fits)
				continue;
			for (uint32_t p = 0; p < def.n && !again;) {
				char *texts[64];
				size_t lens[64];
				uint8_t verdicts[64];
				uint32_t nt = 0;
				for (; p < def.n && nt < jobs; p++) {
					if (!drop_param(t, len, &def, calls,
							ncalls, p, &bufs[nt]))
						continue;
					texts[nt] = bufs[nt].data;
					lens[nt] = bufs[nt].len;
					nt++;
				}
				if (!nt)
					break;
				if ((err = evaluate(r, texts, lens, nt,
						    verdicts)))
					break;
				for (uint32_t k = 0; k < nt && !again; k++) {
					if (verdicts[k] != VERDICT_INTERESTING)
						continue;
					if ((err = commit_text(r, &bufs[k])))
						break;
					again = true;
				}
			}
		}
	}
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_deinit(&bufs[k]);
	free(calls);
	return err;
}

static struct irs_error *
fold_chains(struct reducer *r)
{
	return text_sweep(r, TEXT_FOLD, 0);
}

static struct irs_error *
text_lines(struct reducer *r)
{
	return text_sweep(r, TEXT_LINES, 0);
}

static struct irs_error *
text_balanced(struct reducer *r)
{
	struct irs_error *err = text_sweep(r, TEXT_BALANCED, 1);
	return err ? err : text_sweep(r, TEXT_INNER, 1);
}

static struct irs_error *
text_args(struct reducer *r)
{
	return text_sweep(r, TEXT_ARGS, 1);
}

static struct irs_error *
text_joins(struct reducer *r)
{
	return r->no_joins ? NULL : text_sweep(r, TEXT_JOIN, 0);
}

static struct irs_error *
text_tokens(struct reducer *r)
{
	// One at a time (an assignment's "%2 = " is a token of its own),
	// then two ("0;" of C): groups are the lines, balanced and
	// arguments passes'.
	// Pairs, while they are of use to this input: in an IR whose
	// assignments and #0 go as single tokens, hardly ever.
	// In LLVM IR, what goes only with another word is a trailing item
	// ("align 4", "!dbg !6"), the arguments pass's: no pairs.
	struct irs_error *err = text_sweep(r, TEXT_TOKENS, 1);
	if (err || r->llvm ||
	    (!r->pair_wins && r->pair_tries >= PAIR_TRIAL))
		return err;
	return text_sweep(r, TEXT_TOKENS, 2);
}

/* }=== */

/* {=== the steps =========================================================== */

// Blocks merged into the block before them, which turns a CFG into
// straight-line code wherever the failure allows it; deleting whole
// blocks could not (a branch needs a target, a block its terminator).
static struct irs_error *
merge_units(struct reducer *r, uint32_t level, uint32_t *items)
{
	const struct reduce_tree *t = r->tree;
	uint32_t n = 0;
	for (uint32_t u = 0; u < t->nunits; u++)
		if (t->units[u].level == level && reduce_tree_mergeable(t, u) &&
		    item_live(r, ITEM_MERGE, u))
			items[n++] = u;
	return sweep(r, ITEM_MERGE, items, n);
}

// Hierarchical delta debugging: all live units of level 0, then level 1...
// Each level's blocks are merged first, then deleted.
static struct irs_error *
delete_units(struct reducer *r)
{
	struct irs_error *err = NULL;
	const struct reduce_tree *t = r->tree;
	uint32_t *items = malloc(((size_t)t->nunits + 1) * sizeof(*items));
	if (!items)
		return &irs_enomem;
	for (uint32_t level = 0; level < t->nlevels && !err; level++) {
		r->step = "merge-units";
		if ((err = merge_units(r, level, items)))
			break;
		r->step = "delete-units";
		uint32_t n = 0;
		for (uint32_t u = 0; u < t->nunits; u++)
			if (t->units[u].level == level &&
			    t->units[u].kind == UNIT_NORMAL && !r->best.gone[u])
				items[n++] = u;
		err = sweep(r, ITEM_UNIT, items, n);
	}
	free(items);
	return err;
}

// Blank lines, all at once if the test allows.
static struct irs_error *
blank_lines(struct reducer *r)
{
	const struct reduce_tree *t = r->tree;
	uint32_t *items = malloc(((size_t)t->nunits + 1) * sizeof(*items));
	if (!items)
		return &irs_enomem;
	uint32_t n = 0;
	for (uint32_t u = 0; u < t->nunits; u++)
		if (t->units[u].kind == UNIT_BLANK && !r->best.gone[u])
			items[n++] = u;
	struct irs_error *err = sweep(r, ITEM_UNIT, items, n);
	free(items);
	return err;
}

// Operands to a constant: each live value use becomes "0", which frees its
// definition for deletion in the next round.
static struct irs_error *
const_operands(struct reducer *r)
{
	const struct reduce_tree *t = r->tree;
	uint32_t *items = malloc(((size_t)t->nuses + 1) * sizeof(*items));
	if (!items)
		return &irs_enomem;
	uint32_t n = 0;
	for (uint32_t k = 0; k < t->nuses; k++)
		if (t->defs[t->uses[k].def].repair == REPAIR_CONST &&
		    item_live(r, ITEM_USE, k))
			items[n++] = k;
	struct irs_error *err = sweep(r, ITEM_USE, items, n);
	free(items);
	return err;
}

// Operands to another operand (llvm-reduce's operands-skip, C-Vise has
// none): a use names an earlier value of the same opcode instead, and its
// own definition goes when that was its last use (two loads of one
// address, the second of them gone).
static struct irs_error *
other_operands(struct reducer *r)
{
	const struct reduce_tree *t = r->tree;
	free(r->other);
	r->other = malloc(((size_t)t->nuses + 1) * sizeof(*r->other));
	uint32_t *items = malloc(((size_t)t->nuses + 1) * sizeof(*items));
	if (!r->other || !items) {
		free(items);
		return &irs_enomem;
	}
	uint32_t n = 0;
	for (uint32_t k = 0; k < t->nuses; k++) {
		r->other[k] = reduce_state_other_operand(&r->best, t, k);
		if (r->other[k] != RU_NONE)
			items[n++] = k;
	}
	// Chunks of at most 64 uses: what build() redirects at once.
	struct irs_error *err = NULL;
	for (uint32_t i = 0; i < n && !err; i += 64)
		err = sweep(r, ITEM_OTHER, items + i, n - i < 64 ? n - i : 64);
	free(items);
	return err;
}

// The tree is cut from the best text again after a text pass changed it
// (a snapshot's structure gives way to the generic splitter's then).
static struct irs_error *
rebuild_tree(struct reducer *r)
{
	struct irs_error *err;
	struct reduce_tree *t;
	char *copy = malloc(r->best_text.len + 1);
	if (!copy)
		return &irs_enomem;
	memcpy(copy, r->best_text.data, r->best_text.len);
	copy[r->best_text.len] = '\0';
	// the syntax the tree had: the command line's, the layout's, or the
	// one detected in the input (the text passes keep it valid)
	struct reduce_syntax syn = {
		r->cfg->comment ? r->cfg->comment
		: r->tree->comment_set ? r->tree->comment : NULL,
		r->cfg->label ? r->cfg->label : r->tree->label_src};
	if ((err = reduce_tree_from_text_syntax(copy, r->best_text.len, &syn,
						&t))) {
		free(copy);
		return err;
	}
	reduce_state_deinit(&r->best);
	reduce_tree_destroy(r->tree);
	r->tree = t;
	r->stale = false;
	return reduce_state_init(&r->best, r->tree);
}

// Structural steps first, on the unit tree; the generic passes on the
// text once those find nothing more (C-Vise's and llvm-reduce's kinds).
static const struct reduce_step {
	const char *name;
	struct irs_error *(*run)(struct reducer *);
	bool generic;		/* works on the text, not the tree */
} steps[] = {
	// First: the units of a chain whose total the failure needs
	// cannot go one by one, and delete-units would try each.
	{"fold-chains", fold_chains, false},
	{"delete-units", delete_units, false},
	{"blank-lines", blank_lines, false},
	{"other-operands", other_operands, false},
	{"const-operands", const_operands, false},
	{"drop-params", drop_params, false},
	{"lines", text_lines, true},
	{"balanced", text_balanced, true},
	{"arguments", text_args, true},
	{"tokens", text_tokens, true},
	{"join-lines", text_joins, true},
};

// One round: the structural steps, and the generic ones when those
// changed nothing. requires: r->best is interesting.
static struct irs_error *
reduce_once(struct reducer *r)
{
	for (int generic = 0; generic < 2 && !r->progress; generic++) {
		for (size_t i = 0; i < ARRAY_SIZE(steps) && !interrupted;
		     i++) {
			if (steps[i].generic != generic || r->done[i])
				continue;
			struct irs_error *err;
			if (!steps[i].generic && r->stale &&
			    (err = rebuild_tree(r)))
				return err;
			r->step = steps[i].name;
			uint32_t before = r->exec.runs;
			uint32_t commits = r->ncommits;
			size_t bytes = r->best_text.len;
			err = steps[i].run(r);
			r->pass_tests[i] += r->exec.runs - before;
			if (err)
				return err;
			if (r->ncommits == commits)
				r->done[i] = true;
			note(r, "round %u pass %s: %u tests, %zu -> %zu bytes",
			     r->round, steps[i].name, r->exec.runs - before,
			     bytes, r->best_text.len);
		}
	}
	return NULL;
}

/* }=== */

/* {=== setup and teardown ================================================== */

// The tree of the snapshot's text, cut by its JSON's units and edges.
static struct irs_error *
snapshot_tree(struct reducer *r)
{
	struct irs_error *err;
	char *text = NULL, *json = NULL;
	size_t len, json_len;
	const char *path = r->job.snapshot_text ? r->job.snapshot_text
						: r->job.input;

	if ((err = irs_file_read(r->job.snapshot, &json, &json_len)))
		return err;
	if (r->job.snapshot_text)
		err = reduce_snapshot_check(r->job.snapshot, json, json_len);
	if (!err)
		err = irs_file_read(path, &text, &len);
	if (!err)
		err = reduce_tree_from_snapshot(text, len, json, json_len,
						r->job.snapshot, &r->tree);
	if (err)
		free(text);
	free(json);
	return err;
}

static struct irs_error *
load_tree(struct reducer *r)
{
	struct irs_error *err;
	char *text;
	size_t len;

	if ((err = irs_file_read(r->job.input, &text, &len)))
		return err;
	if (!len) {
		free(text);
		return irs_error_format(IRS_ERROR_USAGE, "%s: empty input",
					r->job.input);
	}
	if (r->job.snapshot) {
		err = snapshot_tree(r);
		if (!err || err == &irs_enomem) {
			free(text);
			return err;
		}
		// A stale or unusable snapshot costs structure, not the run.
		fprintf(stderr, "irsnap: warning: %s; cutting %s as plain "
			"text\n", irs_error_get_message(err), r->job.input);
		irs_error_destroy(err);
	}
	struct reduce_syntax syn = {r->cfg->comment, r->cfg->label};
	if ((err = reduce_tree_from_text_syntax(text, len, &syn, &r->tree)))
		free(text);
	return err;
}

// --layout: the input as the compiler parsed it, snapshotted under GDB at
// its first pass boundary, into a scratch directory.
static struct irs_error *
snapshot_input(struct reducer *r)
{
	struct irs_error *err;
	const char *cmd = r->cfg->exe ? r->cfg->exe : r->job.cmd;
	const char *tmp = getenv("TMPDIR");

	if (asprintf(&r->job.snapshot_dir, "%s/irsnap-layout.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") < 0) {
		r->job.snapshot_dir = NULL;
		return &irs_enomem;
	}
	if (!mkdtemp(r->job.snapshot_dir)) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
				       r->job.snapshot_dir, strerror(errno));
		free(r->job.snapshot_dir);
		r->job.snapshot_dir = NULL;
		return err;
	}
	free(r->job.snapshot);	// a sibling X.json: the layout's wins
	r->job.snapshot = NULL;
	err = reduce_snapshot_input(r->job.input, cmd, r->cfg->layout,
				    r->job.snapshot_dir, &interrupted,
				    &r->job.snapshot_text, &r->job.snapshot);
	if (!err)
		note(r, "snapshot of %s by `%s` under gdb with layout %s: %s",
		     r->job.input, cmd, r->cfg->layout, r->job.snapshot_text);
	return err;
}

// How the last test run ended, for a user who must fix the test: "exited
// with status 1", "was not found (exit status 127)".
static void
describe_last_run(const struct reduce_exec *x, struct irs_buf *b)
{
	int st = x->last_status;
	if (st == -1)
		irs_buf_printf(b, "the test timed out (--timeout %g s)",
			       x->timeout);
	else if (WIFSIGNALED(st))
		irs_buf_printf(b, "the test was killed by signal %d",
			       WTERMSIG(st));
	else if (WEXITSTATUS(st) == 127)
		irs_buf_puts(b, "the test command was not found (exit status "
			     "127)");
	else if (WEXITSTATUS(st) == 126)
		irs_buf_puts(b, "the test command could not be run (exit "
			     "status 126: not executable?)");
	else if (x->crash_mode)
		irs_buf_printf(b, "the command did not crash (exit status %d)",
			       WEXITSTATUS(st));
	else
		irs_buf_printf(b, "the test exited with status %d",
			       WEXITSTATUS(st));
}

// Up to three lines of the last run's stderr, on one line: "; its stderr:
// a | b | c".
static void
last_stderr(const struct reduce_exec *x, struct irs_buf *b)
{
	const char *p = x->last_stderr;
	for (int i = 0; i < 3 && *p; i++) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		irs_buf_puts(b, i ? " | " : "; its stderr: ");
		irs_buf_printable(b, p, n < 200 ? n : 200, false);
		p += n + (nl != NULL);
	}
}

static struct irs_error *
check_input(struct reducer *r)
{
	struct irs_error *err;
	uint8_t v;
	const char *text = r->tree->text;
	size_t len = r->tree->len;

	r->step = "check-input";
	err = reduce_exec_batch(&r->exec, &text, &len, 1, &v,
				r->job.crash_mode ? &r->exec.want : NULL);
	if (err)
		return err;
	if (v == VERDICT_INTERRUPTED)
		return irs_error_format(IRS_ERROR_INTERRUPTED, "interrupted "
					"while testing the input; nothing "
					"written");
	if (v != VERDICT_INTERESTING) {
		struct irs_buf why, serr;
		irs_buf_init(&why);
		irs_buf_init(&serr);
		describe_last_run(&r->exec, &why);
		last_stderr(&r->exec, &serr);
		// Twice more: a test that is sometimes interesting on the
		// input needs --retries, and saying so saves a user the hunt.
		uint32_t again = 0;
		if (!r->cfg->retries && v == VERDICT_BORING) {
			const char *tt[2] = {text, text};
			size_t ll[2] = {len, len};
			uint8_t vv[2];
			struct reduce_crashsig sig;
			for (int i = 0; i < 2 && !interrupted; i++) {
				if ((err = reduce_exec_batch(&r->exec, tt, ll,
					1, vv, r->job.crash_mode ? &sig
					: NULL))) {
					irs_buf_deinit(&why);
					irs_buf_deinit(&serr);
					return err;
				}
				again += vv[0] == VERDICT_INTERESTING;
			}
		}
		const char *shown = r->job.snapshot_text &&
			!strcmp(r->tree->source, "snapshot")
			? " as the layout's snapshot renders it" : "";
		if (again)
			err = irs_error_format(IRS_ERROR_STATE,
				"%s: the test is flaky: interesting in %u of "
				"%u runs on the input; give --retries N (N "
				"extra runs before a candidate counts as not "
				"interesting); the first run: %s%s",
				r->job.input, again, r->exec.runs,
				why.data ? why.data : "",
				serr.data ? serr.data : "");
		else
			err = irs_error_format(IRS_ERROR_STATE,
				"%s: the input is not interesting%s: %s (%u "
				"run%s)%s", r->job.input, shown,
				why.data ? why.data : "", r->exec.runs,
				r->exec.runs == 1 ? "" : "s",
				serr.data ? serr.data : "");
		irs_buf_deinit(&why);
		irs_buf_deinit(&serr);
		return err;
	}
	reduce_cache_put(&r->cache, reduce_hash(text, len), 1);
	if (r->job.crash_mode) {
		struct irs_buf s;
		irs_buf_init(&s);
		reduce_crashsig_format(&r->exec.want, &s);
		note(r, "input crashes: %s", s.data ? s.data : "");
		irs_buf_deinit(&s);
	}
	return NULL;
}

// repro.sh's check in --crash mode: one run of the command on the input,
// with the crash signature compared, not just the exit status.
static struct irs_error *
check_crash(struct reducer *r, const char *want)
{
	struct irs_error *err;
	struct reduce_crashsig sig;
	uint8_t v;
	const char *text = r->tree->text;
	size_t len = r->tree->len;

	if ((err = reduce_exec_batch(&r->exec, &text, &len, 1, &v, &sig)))
		return err;
	struct irs_buf got;
	irs_buf_init(&got);
	if (v == VERDICT_INTERESTING)
		reduce_crashsig_format(&sig, &got);
	else {
		describe_last_run(&r->exec, &got);
		last_stderr(&r->exec, &got);
	}
	if (got.oom) {
		irs_buf_deinit(&got);
		return &irs_enomem;
	}
	if (v == VERDICT_INTERESTING && !strcmp(got.data, want)) {
		printf("reproduced: %s\n", got.data);
		irs_buf_deinit(&got);
		return NULL;
	}
	err = irs_error_format(IRS_ERROR_STATE, "not reproduced: %s%s (want "
			       "%s)", v == VERDICT_INTERESTING
			       ? "another crash: " : "", got.data, want);
	irs_buf_deinit(&got);
	return err;
}

// Without a terminal to redraw a status line on, a line per round.
static void
round_line(struct reducer *r)
{
	if (!r->cfg->round_lines)
		return;
	fprintf(stderr, "irsnap reduce: round %u: %llu -> %llu lines, %u "
		"tests, %.1f s\n", r->round,
		(unsigned long long)r->res.lines_before,
		(unsigned long long)count_lines(r->best_text.data,
						r->best_text.len),
		r->exec.runs, clock_now() - r->t0);
}

static struct irs_error *
reducer_init(struct reducer *r, const struct irs_reduce_config *cfg)
{
	struct irs_error *err;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->t0 = clock_now();
	r->step = "setup";
	irs_buf_init(&r->best_text);
	reduce_cache_init(&r->cache);
	reduce_cache_init(&r->failed);
	reduce_cache_init(&r->classes);
	if ((err = reduce_job_init(&r->job, cfg)))
		return err;
	if (cfg->layout && (err = snapshot_input(r)))
		return err;
	if ((err = load_tree(r)))
		return err;
	if (r->job.snapshot_dir && !irs_debug('R')) {
		reduce_rmtree(r->job.snapshot_dir);	// the tree has it all
		free(r->job.snapshot_dir);
		r->job.snapshot_dir = NULL;
	}
	if ((err = reduce_state_init(&r->best, r->tree)))
		return err;
	if (!irs_buf_append(&r->best_text, r->tree->text, r->tree->len))
		return &irs_enomem;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t jobs = cfg->jobs ? cfg->jobs : cores > 0 ? (uint32_t)cores : 1;
	if ((err = reduce_exec_init(&r->exec, r->job.cmd, r->job.crash_mode,
				    r->job.input, jobs, cfg->timeout,
				    cfg->retries, &interrupted)))
		return err;
	if (r->job.log && !(r->log = fopen(r->job.log, "w")))
		return irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
					r->job.log, strerror(errno));
	r->llvm = reduce_llvm_text(r->tree->text, r->tree->len);
	r->res.lines_before = count_lines(r->tree->text, r->tree->len);
	r->res.bytes_before = r->tree->len;
	note(r, "reducing %s (%llu lines, %u units in %u levels from %s, "
	      "%u def-use edges) with %s: %s", r->job.input,
	      (unsigned long long)r->res.lines_before, r->tree->nunits,
	      r->tree->nlevels, r->tree->source, r->tree->nuses,
	      r->job.crash_mode ? "--crash" : "--test", r->job.cmd);
	note(r, "syntax: comments start with '%s', labels are %s",
	     r->tree->comment, r->tree->label ? "'@name' lines or 'name:'"
	     " (or --label)" : "'name:'");
	return NULL;
}

static void
reducer_deinit(struct reducer *r)
{
	clear_progress(r);
	if (r->log)
		fclose(r->log);
	reduce_exec_deinit(&r->exec);
	reduce_state_deinit(&r->best);
	irs_buf_deinit(&r->best_text);
	free(r->other);
	reduce_cache_deinit(&r->cache);
	reduce_cache_deinit(&r->failed);
	reduce_cache_deinit(&r->classes);
	reduce_tree_destroy(r->tree);
	reduce_job_deinit(&r->job);
}

// The results: the best file, repro.sh, counts.
static struct irs_error *
finish(struct reducer *r, struct irs_reduce_result *ret)
{
	struct irs_error *err;

	r->res.lines_after = count_lines(r->best_text.data, r->best_text.len);
	r->res.bytes_after = r->best_text.len;
	r->res.tests = r->exec.runs;
	r->res.interesting = r->exec.interesting;
	r->res.boring = r->exec.boring;
	r->res.timeouts = r->exec.timeouts;
	r->res.seconds = clock_now() - r->t0;
	note(r, "reduced %llu -> %llu lines, %u tests (%u interesting, %u "
	      "not, %u timed out, %u cache hits), %.2f s%s",
	      (unsigned long long)r->res.lines_before,
	      (unsigned long long)r->res.lines_after, r->res.tests,
	      r->res.interesting, r->res.boring, r->res.timeouts,
	      r->res.cache_hits, r->res.seconds,
	      interrupted ? " (interrupted)" : "");
	if (!(r->res.output = strdup(r->job.output)))
		return &irs_enomem;
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		note(r, "pass %s: %u tests (%.0f%%)", steps[i].name,
		     r->pass_tests[i], r->res.tests ? 100.0 *
		     r->pass_tests[i] / r->res.tests : 0.0);
	*ret = r->res;
	if ((err = irs_file_write(r->job.output, r->best_text.data,
				  r->best_text.len)))
		return err;
	if (r->job.repro_foreign) {
		clear_progress(r);
		fprintf(stderr, "irsnap: warning: %s exists and irsnap did "
			"not write it: left alone, no reproducer written\n",
			r->job.repro);
		return NULL;
	}
	return reduce_write_repro(&r->job, &r->exec.want);
}

// Does @p text reproduce, every time, in three runs (each with its
// --retries)? A test that says "interesting" at random now and then
// passes all three by chance in under one in 30,000 results.
static struct irs_error *
reproduces(struct reducer *r, const char *text, size_t len, bool *ret)
{
	const char *tt[3] = {text, text, text};
	size_t ll[3] = {len, len, len};
	uint8_t v[3];
	struct irs_error *err = reduce_exec_batch(&r->exec, tt, ll, 3, v,
						  NULL);
	if (err)
		return err;
	*ret = v[0] == VERDICT_INTERESTING && v[1] == VERDICT_INTERESTING &&
	       v[2] == VERDICT_INTERESTING;
	return NULL;
}

// The result is re-run before it is reported. When it does not
// reproduce, the results are searched for the last one that does (each
// was made from the one before, so once one is bad the later ones are
// too), the input (which did, when checked) at worst.
static struct irs_error *
recheck(struct reducer *r)
{
	struct irs_error *err;
	bool ok;

	r->step = "re-check";
	if ((err = reproduces(r, r->best_text.data, r->best_text.len, &ok)))
		return err;
	if (ok || interrupted || r->ncommits < 2)
		return NULL;
	uint64_t bad_lines = count_lines(r->best_text.data, r->best_text.len);
	uint32_t lo = 0, hi = r->ncommits - 1;
	char *text = NULL;
	size_t len = 0;
	while (hi - lo > 1 && !interrupted) {
		uint32_t mid = lo + (hi - lo) / 2;
		char *p = commit_path(r, mid);
		if (!p)
			return &irs_enomem;
		err = irs_file_read(p, &text, &len);
		free(p);
		if (!err)
			err = reproduces(r, text, len, &ok);
		free(text);
		if (err)
			return err;
		if (ok)
			lo = mid;
		else
			hi = mid;
	}
	char *p = commit_path(r, lo);
	if (!p)
		return &irs_enomem;
	err = irs_file_read(p, &text, &len);
	free(p);
	if (err)
		return err;
	r->best_text.len = 0;
	if (!irs_buf_append(&r->best_text, text, len)) {
		free(text);
		return &irs_enomem;
	}
	free(text);
	r->res.fell_back = true;
	clear_progress(r);
	fprintf(stderr, "irsnap: warning: the smallest result (%llu lines) "
		"did not reproduce when re-checked: the test is flaky or "
		"says \"interesting\" by chance (--retries N helps a flaky "
		"one); reporting the last result that did: %llu lines\n",
		(unsigned long long)bad_lines,
		(unsigned long long)count_lines(r->best_text.data,
						r->best_text.len));
	note(r, "re-check: the result did not reproduce; result %u of %u "
	     "is reported", lo, r->ncommits - 1);
	return irs_file_write(r->job.output, r->best_text.data,
			      r->best_text.len);
}

/* }=== */

struct irs_error *
irs_reduce_run(const struct irs_reduce_config *cfg,
	       struct irs_reduce_result *ret)
{
	struct irs_error *err;
	struct reducer r;
	struct sigaction sa, old;

	if (cfg->expect_check)		// a test run, not a reduction
		return reduce_verifier_expect(cfg);
	// Ctrl-C stops the search, not the process: the best so far is kept.
	interrupted = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);

	err = reducer_init(&r, cfg);
	if (!err && cfg->expect_crash) {
		err = check_crash(&r, cfg->expect_crash);
		reducer_deinit(&r);
		sigaction(SIGINT, &old, NULL);
		return err;
	}
	if (!err)
		err = check_input(&r);
	if (!err)
		err = keep_commit(&r);
	for (r.round = 1; !err && !interrupted; r.round++) {
		r.progress = false;
		err = reduce_once(&r);
		round_line(&r);
		if (err || !r.progress)
			break;
	}
	if (!err && !interrupted)
		err = recheck(&r);
	if (!err && !r.job.output)
		err = irs_error_format(IRS_ERROR_STATE, "no output path");
	if (!err)
		err = finish(&r, ret);
	if (!err && interrupted)
		err = irs_error_format(IRS_ERROR_INTERRUPTED,
			"interrupted: the best result so far is in %s",
			r.job.output);
	reducer_deinit(&r);
	sigaction(SIGINT, &old, NULL);
	return err;
}
