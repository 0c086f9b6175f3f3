// irsnap reduce: shrinks an input while a test keeps failing the same way.
//
// The input is cut into a tree of units (reduce/units.c): functions >
// blocks > instructions from a snapshot, or brace/indent/label regions >
// lines from plain text. A round runs the tree passes (units deleted
// level by level, outermost first, operands to constants...), and the
// text passes (lines, regions, tokens...) once those find nothing.
// Rounds repeat until one changes nothing.
//
// Every change is repaired through the def-use graph before it is
// rendered (reduce/defuse.c), so no test is spent on a candidate that
// would only fail to parse; every candidate is hashed, so none is tested
// twice (reduce/cache.c); tests run in parallel, each in its own directory
// and process group (reduce/exec.c); with --crash, interesting means the
// same signal and top frames as the input (reduce/crashsig.c), so the
// reduction never slips to another bug.
//
// This file is the engine: the passes (pass_*.c, in passes.c's order)
// say what to cut; the search here cuts it, chunk by chunk.
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reduce/reduce.h"


static volatile sig_atomic_t interrupted;

bool
reduce_interrupted(void)
{
	return interrupted;
}

static void
on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* {=== testing candidates ================================================== */

// Verdicts for texts[0..n): from the cache when known (a candidate is never
// run twice, not even twice in one batch), else from a test run. With a
// printer, a candidate is known by its printed form, which the test runs
// on; one the printer rejects is boring at no test's cost.
struct irs_error *
reduce_evaluate(struct reducer *r, char **texts, size_t *lens, uint32_t n,
		uint8_t *verdicts)
{
	struct irs_error *err = NULL;
	uint64_t hashes[64], keys[64];
	const char *run_texts[64];
	size_t run_lens[64];
	uint32_t run_of[64];	/* candidate -> index in the run batch */
	uint8_t run_verdicts[64];
	char *printed[64];
	size_t plens[64];
	uint32_t nrun = 0, ncanon = 0, canon_of[64];

	for (uint32_t i = 0; i < n; i++) {
		hashes[i] = reduce_hash(texts[i], lens[i]);
		canon_of[i] = RU_NONE;
		if (reduce_cache_get(&r->cache, hashes[i], &verdicts[i])) {
			r->res.cache_hits++;
			continue;
		}
		canon_of[i] = ncanon;
		run_texts[ncanon] = texts[i];
		run_lens[ncanon++] = lens[i];
	}
	if (r->printer && ncanon &&
	    (err = reduce_tools_canon(r, run_texts, run_lens, ncanon,
				      printed, plens)))
		return err;
	for (uint32_t i = 0; i < n; i++) {
		run_of[i] = RU_NONE;
		if (canon_of[i] == RU_NONE)
			continue;
		uint32_t c = canon_of[i];
		const char *t = r->printer ? printed[c] : texts[i];
		size_t len = r->printer ? plens[c] : lens[i];
		if (!t && reduce_interrupted()) {
			verdicts[i] = VERDICT_INTERRUPTED;
			continue;
		}
		if (!t) {		// the printer rejects it
			verdicts[i] = VERDICT_BORING;
			r->res.invalid++;
			reduce_cache_put(&r->cache, hashes[i], 0);
			continue;
		}
		keys[i] = r->printer ? reduce_hash(t, len) : hashes[i];
		if (r->printer && reduce_cache_get(&r->cache, keys[i],
						   &verdicts[i])) {
			r->res.cache_hits++;
			reduce_cache_put(&r->cache, hashes[i], verdicts[i]);
			continue;
		}
		for (uint32_t k = 0; k < i && run_of[i] == RU_NONE; k++)
			if (run_of[k] != RU_NONE && keys[k] == keys[i])
				run_of[i] = run_of[k];
		if (run_of[i] != RU_NONE) {
			r->res.cache_hits++;
			continue;
		}
		run_of[i] = nrun;
		run_texts[nrun] = t;
		run_lens[nrun++] = len;
	}
	if (nrun)
		err = reduce_exec_batch(&r->exec, run_texts, run_lens, nrun,
					run_verdicts, NULL);
	for (uint32_t i = 0; i < n && !err; i++) {
		if (run_of[i] == RU_NONE)
			continue;
		verdicts[i] = run_verdicts[run_of[i]];
		if (verdicts[i] == VERDICT_INTERRUPTED)
			continue;
		reduce_cache_put(&r->cache, hashes[i],
				 verdicts[i] == VERDICT_INTERESTING);
		reduce_cache_put(&r->cache, keys[i],
				 verdicts[i] == VERDICT_INTERESTING);
	}
	for (uint32_t c = 0; r->printer && c < ncanon; c++)
		free(printed[c]);
	if (!err)
		reduce_progress_show(r, false);
	return err;
}

// The best candidate changed: keep it on disk at once, so that even a
// killed reducer leaves its best result behind.
// Result N (0: the input) as a file of the scratch directory, so the
// final re-check can go back to the last one that reproduces.
char *
reduce_commit_path(const struct reducer *r, uint32_t n)
{
	char *p;
	return asprintf(&p, "%s/commit-%u", r->exec.tmpdir, n) < 0 ? NULL : p;
}

static struct irs_error *
keep_commit(struct reducer *r)
{
	char *p = reduce_commit_path(r, r->ncommits);
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
	reduce_note(r, "round %u %s: %zu bytes, %llu lines, %u tests", r->round,
		    r->step, r->best_text.len,
		    (unsigned long long)reduce_count_lines(r->best_text.data,
		    r->best_text.len),
		    r->exec.runs);
	if ((err = keep_commit(r)))
		return err;
	return irs_file_write(r->job.output, r->best_text.data,
			      r->best_text.len);
}

/* }=== */

/* {=== sweeping a list of items ============================================ */

bool
reduce_item_live(const struct reducer *r, enum reduce_item kind, uint32_t item)
{
	const struct reduce_tree *t = r->tree;
	if (kind == ITEM_UNIT)
		return !r->best.gone[item];
	if (kind == ITEM_MERGE)
		return !r->best.gone[item] && !r->best.gone[t->header[item]];
	uint32_t u = t->uses[item].unit;
	if (kind == ITEM_OTHER && (r->best.to[item] == r->other[item] ||
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
build(struct reducer *r, struct cand *c, enum reduce_item kind,
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
compact(struct reducer *r, enum reduce_item kind, uint32_t *items, uint32_t *n,
	uint32_t pos)
{
	uint32_t k = 0, newpos = 0;
	for (uint32_t i = 0; i < *n; i++) {
		if (i == pos)
			newpos = k;
		if (reduce_item_live(r, kind, items[i]))
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
		reduce_note(r, "uses left without a definition: %s from now "
			    "on (%u of %u interesting that way, %u of %u the "
			    "other)",
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
	      uint32_t nt, enum reduce_item kind, const uint32_t *items,
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
	if (n && (err = reduce_evaluate(r, texts, lens, n, verdicts)))
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
item_key(const struct reducer *r, enum reduce_item kind, uint32_t item)
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
items_known_boring(const struct reducer *r, enum reduce_item kind,
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
struct irs_error *
reduce_sweep(struct reducer *r, enum reduce_item kind, uint32_t *items,
	     uint32_t n)
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
	while (n && size && !reduce_interrupted()) {
		bool changed = false;
		for (uint32_t i = 0; i < n && !reduce_interrupted();) {
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
				    r->lang->unit_fixed &&
				    r->lang->unit_fixed(r->tree, items[next])) {
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
			if (nt && (err = reduce_evaluate(r, texts, lens, nt,
						       verdicts)))
				goto out;
			for (uint32_t k = 0; k < nt; k++)
				if (keys[k] && verdicts[k] == VERDICT_BORING)
					reduce_cache_put(&r->failed, keys[k],
							 1);
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

/* {=== the text passes' search ============================================ */

struct irs_error *
reduce_commit_text(struct reducer *r, struct irs_buf *text)
{
	struct irs_error *err;
	struct irs_buf tmp = r->best_text;
	r->best_text = *text;
	*text = tmp;
	r->progress = true;
	r->stale = true;
	if (!r->cosmetic)
		memset(r->done, 0, sizeof(r->done));
	reduce_note(r, "round %u %s: %zu bytes, %llu lines, %u tests", r->round,
		    r->step, r->best_text.len,
		    (unsigned long long)reduce_count_lines(r->best_text.data,
		    r->best_text.len), r->exec.runs);
	if ((err = keep_commit(r)))
		return err;
	return irs_file_write(r->job.output, r->best_text.data,
			      r->best_text.len);
}

struct irs_error *
reduce_try_texts(struct reducer *r, struct irs_buf *bufs, uint32_t n,
		 bool *won)
{
	char *texts[64];
	size_t lens[64];
	uint8_t verdicts[64];
	*won = false;
	if (n > 64)
		n = 64;
	for (uint32_t k = 0; k < n; k++) {
		texts[k] = bufs[k].data;
		lens[k] = bufs[k].len;
	}
	struct irs_error *err = reduce_evaluate(r, texts, lens, n, verdicts);
	for (uint32_t k = 0; !err && k < n; k++)
		if (verdicts[k] == VERDICT_INTERESTING) {
			*won = true;
			return reduce_commit_text(r, &bufs[k]);
		}
	return err;
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
span_key(const char *text, size_t len, const struct reduce_span *x, int kind)
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
// line (a whole line, its newline included, among them) or are one span
// (a region, a function's body); 0 when they do not (a cut of many lines
// is not remembered).
static uint64_t
chunk_key(const struct reducer *r, const struct reduce_spans *sp, uint32_t lo,
	  uint32_t hi, const struct reduce_text_pass *tp)
{
	struct reduce_span both = {sp->v[lo].start, sp->v[hi - 1].end, NULL};
	if (hi - lo > 1 && memchr(r->best_text.data + both.start, '\n',
				  both.end - both.start -
				  (both.end > both.start)))
		return 0;
	return span_key(r->best_text.data, r->best_text.len, &both,
			tp->key) | 1;
}

// Was each span of [lo, hi) found boring cut alone? Then so is the
// chunk, most likely: a cut that needs another cut with it to be
// interesting is rare, and in a later round, when every single cut is
// known, the coarse granularities would otherwise be tested again in
// full for nothing.
static bool
chunk_known_boring(const struct reducer *r, const struct reduce_spans *sp,
		   uint32_t lo, uint32_t hi, const struct reduce_text_pass *tp)
{
	uint8_t seen;
	if (hi - lo < 2)
		return false;
	for (uint32_t i = lo; i < hi; i++) {
		uint64_t key = chunk_key(r, sp, i, i + 1, tp);
		if (!key || !reduce_cache_get(&r->failed, key, &seen))
			return false;
	}
	return true;
}

// A token's class: its text without blanks and with each run of digits
// as one 0, so %5 and %17 are one class, #0 and #3 another (a pair of
// tokens: the pair of their classes).
static uint64_t
token_class(const char *s, const struct reduce_span *x)
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
chunk_class(const char *s, const struct reduce_spans *sp, uint32_t lo,
	    uint32_t hi)
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
count_classes(const char *s, const struct reduce_spans *sp,
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
// stays so? Commas: an item with its comma (", align 4"). After such
// cuts a step that found nothing is not run again.
static bool
cosmetic_cut(const struct reducer *r, const struct reduce_spans *sp,
	     uint32_t lo, uint32_t hi, bool commas)
{
	const char *s = r->best_text.data;
	for (uint32_t i = lo; i < hi; i++) {
		uint32_t a = sp->v[i].start, e = sp->v[i].end;
		while (e > a && isspace((unsigned char)s[e - 1]))
			e--;
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
class_batch(struct reducer *r, const struct reduce_spans *sp, uint64_t cls,
	    uint32_t from, bool commas, struct irs_buf *buf, bool *won)
{
	struct irs_error *err = NULL;
	struct reduce_spans sel = {0};
	*won = false;
	for (uint32_t i = from; i < sp->n; i++)
		if (token_class(r->best_text.data, &sp->v[i]) == cls)
			reduce_span_add(&sel, sp->v[i].start, sp->v[i].end,
				 sp->v[i].repl);
	bool joins = false;
	if (sel.oom ||
	    (sel.n >= 2 && !reduce_spans_cut(r->best_text.data,
					     r->best_text.len, &sel, 0, sel.n,
					     false, buf, &joins))) {
		err = &irs_enomem;
	} else if (sel.n >= 2 && !joins && buf->len < r->best_text.len) {
		char *text = buf->data;
		size_t len = buf->len;
		uint8_t v;
		err = reduce_evaluate(r, &text, &len, 1, &v);
		if (!err && v == VERDICT_INTERESTING) {
			r->cosmetic = cosmetic_cut(r, &sel, 0, sel.n, commas);
			err = reduce_commit_text(r, buf);
			r->cosmetic = false;
			*won = !err;
		}
	}
	reduce_spans_deinit(&sel);	// it owns no replacement texts
	return err;
}

// How many candidates a granularity has: a cut per chunk, and while the
// chunks are few, their complements (keep one chunk, cut the rest).
static uint32_t
ncandidates(uint32_t nchunks)
{
	return nchunks * (nchunks > 2 && nchunks <= 8 ? 2 : 1);
}

// The spans of tp in the best text, sorted.
static bool
find_spans(struct reducer *r, const struct reduce_text_pass *tp,
	   struct reduce_spans *sp)
{
	reduce_spans_clear(sp);
	tp->find(r, r->best_text.data, r->best_text.len, sp);
	reduce_spans_sort(sp);
	return !sp->oom;
}

struct irs_error *
reduce_text_sweep(struct reducer *r, const struct reduce_text_pass *tp,
		  uint32_t max_size)
{
	struct irs_error *err = NULL;
	struct reduce_spans sp = {0};
	struct irs_buf bufs[64];
	struct reduce_cache members;	/* token class -> tokens of it */
	uint32_t jobs = r->exec.jobs < 64 ? r->exec.jobs : 64;
	for (uint32_t k = 0; k < jobs; k++)
		irs_buf_init(&bufs[k]);
	reduce_cache_init(&members);

	bool tokens = tp->classes == CLASSES_TOKENS;
	if (!find_spans(r, tp, &sp)) {
		err = &irs_enomem;
		goto out;
	}
	if (tokens)
		count_classes(r->best_text.data, &sp, &members);
	uint32_t size = (sp.n + 1) / 2;
	bool single = max_size == 1;
	uint32_t boring = 0, wins = 0;
	if (max_size && size > max_size)
		size = max_size;
	while (sp.n && size && !reduce_interrupted()) {
		bool changed = false;
		uint32_t nchunks = (sp.n + size - 1) / size;
		uint32_t ncand = ncandidates(nchunks);
		for (uint32_t i = 0; i < ncand && !reduce_interrupted();) {
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
				bool joins;
				if (!reduce_spans_cut(r->best_text.data,
						      r->best_text.len, &sp,
						      lo, hi, keep, &bufs[b],
						      &joins)) {
					err = &irs_enomem;
					goto out;
				}
				if (joins || bufs[b].len >= r->best_text.len)
					continue;
				if (tp->cut_ok && !tp->cut_ok(r,
						r->best_text.data,
						r->best_text.len, &sp, lo, hi,
						keep))
					continue;
				uint8_t seen;
				keys[nt] = keep ? 0 : chunk_key(r, &sp, lo, hi,
								tp);
				if (keys[nt] && reduce_cache_get(&r->failed,
							keys[nt], &seen))
					continue;
				if (!keep && chunk_known_boring(r, &sp, lo, hi,
								tp))
					continue;
				cls[nt] = keep || !tokens ? 0
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
			if (nt && (err = reduce_evaluate(r, texts, lens, nt,
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
						: tokens ? cls[k]
						: tp->classes == CLASSES_ITEMS
						? token_class(r->best_text.data,
							&sp.v[first[k]])
						: 0;
					win_kept = kept[k];
				}
			if (win == RU_NONE) {
				boring += nt;
				if (tp->give_up && tp->give_up(r, size, nt,
							       boring, wins))
					goto out;
				i = next;
				continue;
			}
			wins++;
			if (tp->won)
				tp->won(r, size);
			bool items = tp->classes == CLASSES_ITEMS;
			r->cosmetic = tp->classes != CLASSES_NONE &&
				!win_kept &&
				cosmetic_cut(r, &sp, at * size,
					     at * size + size < sp.n
					     ? at * size + size : sp.n,
					     items);
			err = reduce_commit_text(r, &bufs[win]);
			r->cosmetic = false;
			if (err)
				goto out;
			changed = true;
			if (!find_spans(r, tp, &sp)) {
				err = &irs_enomem;
				goto out;
			}
			bool batch = false;
			if (win_cls && (err = class_batch(r, &sp, win_cls, at,
							  items, &bufs[win],
							  &batch)))
				goto out;
			if (batch && !find_spans(r, tp, &sp)) {
				err = &irs_enomem;
				goto out;
			}
			if (tokens)
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
	reduce_spans_deinit(&sp);
	return err;
}

/* }=== */

/* {=== rounds ============================================================== */

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

// One round: the structural steps, and the generic ones when those
// changed nothing. requires: r->best is interesting.
static struct irs_error *
reduce_once(struct reducer *r)
{
	for (int generic = 0; generic < 2 && !r->progress; generic++) {
		for (size_t i = 0; i < reduce_npasses &&
		     !reduce_interrupted(); i++) {
			const struct reduce_pass *p = &reduce_passes[i];
			if (p->generic != generic || r->done[i])
				continue;
			struct irs_error *err;
			if (!p->generic && r->stale &&
			    (err = rebuild_tree(r)))
				return err;
			r->step = p->name;
			uint32_t before = r->exec.runs;
			uint32_t commits = r->ncommits;
			size_t bytes = r->best_text.len;
			err = p->run(r);
			r->pass_tests[i] += r->exec.runs - before;
			if (err)
				return err;
			if (r->ncommits == commits)
				r->done[i] = true;
			reduce_note(r, "round %u pass %s: %u tests, %zu -> "
				    "%zu bytes", r->round, p->name,
				    r->exec.runs - before, bytes,
				    r->best_text.len);
		}
	}
	return NULL;
}

/* }=== */

/* {=== setup and teardown ================================================== */


static struct irs_error *
reducer_init(struct reducer *r, const struct irs_reduce_config *cfg)
{
	struct irs_error *err;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->t0 = reduce_clock();
	r->step = "setup";
	irs_buf_init(&r->best_text);
	reduce_cache_init(&r->cache);
	reduce_cache_init(&r->failed);
	reduce_cache_init(&r->classes);
	if ((err = reduce_job_init(&r->job, cfg)))
		return err;
	if (cfg->layout &&
	    (err = reduce_job_snapshot(&r->job, cfg, &interrupted)))
		return err;
	if (cfg->layout)
		reduce_note(r, "snapshot of %s by `%s` under gdb with layout "
			    "%s: %s", r->job.input, cfg->exe ? cfg->exe
			    : r->job.cmd, cfg->layout, r->job.snapshot_text);
	if ((err = reduce_job_tree(&r->job, cfg, &r->tree)))
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
	r->exec.no_shell = r->job.no_shell;
	if (r->job.log && !(r->log = fopen(r->job.log, "w")))
		return irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
					r->job.log, strerror(errno));
	r->lang = reduce_lang_detect(r->tree->text, r->tree->len);
	r->res.lines_before = reduce_count_lines(r->tree->text, r->tree->len);
	r->res.bytes_before = r->tree->len;
	r->res.tokens_before = reduce_count_tokens(r->tree->text,
						   r->tree->len);
	reduce_note(r, "reducing %s (%llu lines, %u units in %u levels from "
		    "%s, %u def-use edges) with %s: %s", r->job.input,
		    (unsigned long long)r->res.lines_before, r->tree->nunits,
		    r->tree->nlevels, r->tree->source, r->tree->nuses,
		    r->job.crash_mode ? "--crash" : "--test", r->job.cmd);
	reduce_note(r, "syntax: %s, comments start with '%s', labels are %s",
		    r->lang->name, r->tree->comment, r->tree->label
		    ? "'@name' lines or 'name:' (or --label)" : "'name:'");
	return NULL;
}

static void
reducer_deinit(struct reducer *r)
{
	reduce_progress_clear(r);
	if (r->log)
		fclose(r->log);
	reduce_tools_deinit(r);
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

	r->res.lines_after = reduce_count_lines(r->best_text.data,
						r->best_text.len);
	r->res.bytes_after = r->best_text.len;
	r->res.tokens_after = reduce_count_tokens(r->best_text.data,
						  r->best_text.len);
	r->res.tests = r->exec.runs;
	r->res.interesting = r->exec.interesting;
	r->res.boring = r->exec.boring;
	r->res.timeouts = r->exec.timeouts;
	r->res.seconds = reduce_clock() - r->t0;
	reduce_note(r, "reduced %llu -> %llu lines, %llu -> %llu bytes, %llu "
		    "-> %llu tokens, %u tests (%u interesting, %u not, %u "
		    "timed out, %u cache hits, %u rejected by the "
		    "printer), %.2f s%s",
		    (unsigned long long)r->res.lines_before,
		    (unsigned long long)r->res.lines_after,
		    (unsigned long long)r->res.bytes_before,
		    (unsigned long long)r->res.bytes_after,
		    (unsigned long long)r->res.tokens_before,
		    (unsigned long long)r->res.tokens_after, r->res.tests,
		    r->res.interesting, r->res.boring, r->res.timeouts,
		    r->res.cache_hits, r->res.invalid, r->res.seconds,
		    interrupted ? " (interrupted)" : "");
	if (!(r->res.output = strdup(r->job.output)))
		return &irs_enomem;
	for (size_t i = 0; i < reduce_npasses; i++)
		reduce_note(r, "pass %s: %u tests (%.0f%%)",
			    reduce_passes[i].name,
			    r->pass_tests[i], r->res.tests ? 100.0 *
			    r->pass_tests[i] / r->res.tests : 0.0);
	*ret = r->res;
	if ((err = irs_file_write(r->job.output, r->best_text.data,
				  r->best_text.len)))
		return err;
	if (r->job.repro_foreign) {
		reduce_progress_clear(r);
		fprintf(stderr, "irsnap: warning: %s exists and irsnap did "
			"not write it: left alone, no reproducer written\n",
			r->job.repro);
		return NULL;
	}
	return reduce_write_repro(&r->job, &r->exec.want,
				  r->exec.filename);
}


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
		err = reduce_check_crash(&r, cfg->expect_crash);
		reducer_deinit(&r);
		sigaction(SIGINT, &old, NULL);
		return err;
	}
	if (!err)
		err = reduce_check_input(&r);
	if (!err)
		err = reduce_tools_init(&r);
	if (!err)
		err = keep_commit(&r);
	for (r.round = 1; !err && !reduce_interrupted(); r.round++) {
		r.progress = false;
		err = reduce_once(&r);
		reduce_progress_round(&r);
		if (err || !r.progress)
			break;
	}
	// The result in the printer's form, what the tests saw and a person
	// reads (LLVM's "%5 = ", "7:" and ", align 4" come back).
	if (!err && !reduce_interrupted())
		err = reduce_tools_print(&r);
	if (!err && !reduce_interrupted())
		err = reduce_recheck(&r);
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
