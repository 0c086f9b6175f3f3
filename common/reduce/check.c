// Is it interesting: the input, checked before the reduction starts
// (with what a user needs to fix a test that is not: how it ended, its
// stderr, whether it is flaky), the result before it is reported, and
// repro.sh's crash check.
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "reduce/reduce.h"

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

struct irs_error *
reduce_check_input(struct reducer *r)
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
			for (int i = 0; i < 2 && !reduce_interrupted(); i++) {
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
		reduce_note(r, "input crashes: %s", s.data ? s.data : "");
		irs_buf_deinit(&s);
	}
	return NULL;
}

struct irs_error *
reduce_check_crash(struct reducer *r, const char *want)
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

// When the result does not reproduce, the results are searched for the
// last one that does (each was made from the one before, so once one is
// bad the later ones are too), the input (which did, when checked) at
// worst.
struct irs_error *
reduce_recheck(struct reducer *r)
{
	struct irs_error *err;
	bool ok;

	r->step = "re-check";
	if ((err = reproduces(r, r->best_text.data, r->best_text.len, &ok)))
		return err;
	if (ok || reduce_interrupted() || r->ncommits < 2)
		return NULL;
	uint64_t bad_lines = reduce_count_lines(r->best_text.data,
						r->best_text.len);
	uint32_t lo = 0, hi = r->ncommits - 1;
	char *text = NULL;
	size_t len = 0;
	while (hi - lo > 1 && !reduce_interrupted()) {
		uint32_t mid = lo + (hi - lo) / 2;
		char *p = reduce_commit_path(r, mid);
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
	char *p = reduce_commit_path(r, lo);
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
	reduce_progress_clear(r);
	fprintf(stderr, "irsnap: warning: the smallest result (%llu lines) "
		"did not reproduce when re-checked: the test is flaky or "
		"says \"interesting\" by chance (--retries N helps a flaky "
		"one); reporting the last result that did: %llu lines\n",
		(unsigned long long)bad_lines,
		(unsigned long long)reduce_count_lines(r->best_text.data,
						r->best_text.len));
	reduce_note(r, "re-check: the result did not reproduce; result %u "
		    "of %u is reported", lo, r->ncommits - 1);
	return irs_file_write(r->job.output, r->best_text.data,
			      r->best_text.len);
}
