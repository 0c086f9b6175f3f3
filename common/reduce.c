// irsnap reduce: shrinks an input while a test keeps failing the same way.
//
// The input is cut into a tree of units (reduce_units.c): functions >
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
// rendered (reduce_defuse.c), so no test is spent on a candidate that
// would only fail to parse; every candidate is hashed, so none is tested
// twice (reduce_cache.c); tests run in parallel, each in its own directory
// and process group (reduce_exec.c); with --crash, interesting means the
// same signal and top frames as the input (reduce_crashsig.c), so the
// reduction never slips to another bug.
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "reduce.h"

struct reducer {
	const struct irs_reduce_config *cfg;
	struct reduce_job job;
	struct reduce_tree *tree;
	struct reduce_state best;	/* the smallest interesting candidate */
	struct irs_buf best_text;
	struct reduce_cache cache;
	struct reduce_exec exec;
	struct irs_reduce_result res;
	FILE *log;
	const char *step;
	uint32_t round;
	bool progress;		/* the current round changed something */
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
static struct irs_error *
commit(struct reducer *r, const struct reduce_state *s, struct irs_buf *text)
{
	reduce_state_copy(&r->best, s);
	struct irs_buf tmp = r->best_text;
	r->best_text = *text;
	*text = tmp;
	r->progress = true;
	note(r, "round %u %s: %zu bytes, %llu lines, %u tests", r->round,
	      r->step, r->best_text.len,
	      (unsigned long long)count_lines(r->best_text.data,
					      r->best_text.len),
	      r->exec.runs);
	return irs_file_write(r->job.output, r->best_text.data,
			      r->best_text.len);
}

/* }=== */

/* {=== sweeping a list of items ============================================ */

// What a sweep removes: units (deleted, uses repaired), blocks' headers
// and the terminators before them (merging blocks), or uses (replaced by
// the constant).
enum item_kind { ITEM_UNIT, ITEM_MERGE, ITEM_USE };

static bool
item_live(const struct reducer *r, enum item_kind kind, uint32_t item)
{
	const struct reduce_tree *t = r->tree;
	if (kind == ITEM_UNIT)
		return !r->best.gone[item];
	if (kind == ITEM_MERGE)
		return !r->best.gone[item] && !r->best.gone[t->header[item]];
	uint32_t u = t->uses[item].unit;
	return !r->best.rep[item] && !(u != RU_NONE && r->best.gone[u]);
}

// Candidate slot: a state and its rendering.
struct cand {
	struct reduce_state st;
	struct irs_buf text;
	uint32_t first;		/* the chunk's first item index */
	bool valid;
};

// Builds the candidate without items[lo, hi); false when it is not valid
// (a deletion that cannot be repaired) or not smaller than the best.
static bool
build(struct reducer *r, struct cand *c, enum item_kind kind,
      const uint32_t *items, uint32_t lo, uint32_t hi)
{
	reduce_state_copy(&c->st, &r->best);
	if (kind == ITEM_UNIT) {
		if (!reduce_state_delete(&c->st, r->tree, items + lo, hi - lo))
			return false;
	} else if (kind == ITEM_MERGE) {
		if (!reduce_state_merge(&c->st, r->tree, items + lo, hi - lo))
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
	uint32_t size = (n + 1) / 2;
	while (n && size && !interrupted) {
		bool changed = false;
		for (uint32_t i = 0; i < n && !interrupted;) {
			char *texts[64];
			size_t lens[64];
			uint8_t verdicts[64];
			uint32_t map[64], nt = 0, next = i;
			for (uint32_t b = 0; b < jobs && next < n; b++) {
				uint32_t hi = next + size < n ? next + size : n;
				struct cand *c = &cands[b];
				c->first = next;
				c->valid = build(r, c, kind, items, next, hi);
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
			uint32_t win = RU_NONE;
			for (uint32_t k = 0; k < nt && win == RU_NONE; k++)
				if (verdicts[k] == VERDICT_INTERESTING)
					win = map[k];
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

static const struct reduce_step {
	const char *name;
	struct irs_error *(*run)(struct reducer *);
} steps[] = {
	{"delete-units", delete_units},
	{"blank-lines", blank_lines},
	{"const-operands", const_operands},
};

// One round. requires: r->best is interesting.
static struct irs_error *
reduce_once(struct reducer *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(steps) && !interrupted; i++) {
		r->step = steps[i].name;
		struct irs_error *err = steps[i].run(r);
		if (err)
			return err;
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
	if ((err = reduce_tree_from_text(text, len, &r->tree)))
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
	if (v != VERDICT_INTERESTING)
		return irs_error_format(IRS_ERROR_STATE,
			"%s: the input is not interesting%s: %s (%u run%s)",
			r->job.input, r->job.snapshot_text &&
			!strcmp(r->tree->source, "snapshot")
			? " as the layout's snapshot renders it" : "",
			v == VERDICT_TIMEOUT ? "the test timed out"
			: r->job.crash_mode ? "the command did not crash"
			: "the test did not exit with 0",
			r->exec.runs, r->exec.runs == 1 ? "" : "s");
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
	r->res.lines_before = count_lines(r->tree->text, r->tree->len);
	r->res.bytes_before = r->tree->len;
	note(r, "reducing %s (%llu lines, %u units in %u levels from %s, "
	      "%u def-use edges) with %s: %s", r->job.input,
	      (unsigned long long)r->res.lines_before, r->tree->nunits,
	      r->tree->nlevels, r->tree->source, r->tree->nuses,
	      r->job.crash_mode ? "--crash" : "--test", r->job.cmd);
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
	reduce_cache_deinit(&r->cache);
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
	*ret = r->res;
	if ((err = irs_file_write(r->job.output, r->best_text.data,
				  r->best_text.len)))
		return err;
	return reduce_write_repro(&r->job, &r->exec.want);
}

/* }=== */

struct irs_error *
irs_reduce_run(const struct irs_reduce_config *cfg,
	       struct irs_reduce_result *ret)
{
	struct irs_error *err;
	struct reducer r;
	struct sigaction sa, old;

	// Ctrl-C stops the search, not the process: the best so far is kept.
	interrupted = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);

	err = reducer_init(&r, cfg);
	if (!err)
		err = check_input(&r);
	for (r.round = 1; !err && !interrupted; r.round++) {
		r.progress = false;
		if ((err = reduce_once(&r)) || !r.progress)
			break;
	}
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
