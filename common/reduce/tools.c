// A syntax's printer: the compiler's own parser, verifier and printer in
// one command (LLVM IR: opt -S; toyc: toyc --passes= --verify -o OUT).
// Every candidate goes through it before the test: one it rejects costs
// no test run (llvm-reduce verifies its candidates in-process the same
// way), and the test runs on the printed form, so two candidates that
// print the same (an ", align 4" the printer writes back, a label, a
// number) are one candidate, tested once. The result is written in its
// form, what a person reads. The printer is found as a word of the test
// command naming one (the compiler the user runs), else on $PATH; without
// it, or with --no-print, candidates are tested as cut.
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reduce/reduce.h"

// The program one of @p names (NULL-terminated) runs as: a word of the
// test command whose base name is one of them, else the first on $PATH.
static char *
tool_find(const struct reducer *r, const char *const *names)
{
	char **words = NULL;
	char *found = NULL;
	if (!irs_shell_split(r->job.cmd, &words) && words) {
		for (size_t i = 0; words[i] && !found; i++) {
			const char *base = strrchr(words[i], '/');
			base = base ? base + 1 : words[i];
			for (size_t k = 0; names[k] && !found; k++)
				if (!strcmp(base, names[k]) &&
				    strchr(words[i], '/'))
					found = irs_which(words[i]);
		}
		irs_shell_words_free(words);
	}
	for (size_t k = 0; names[k] && !found; k++)
		found = irs_which(names[k]);
	return found;
}

/* {=== printing in parallel =============================================== */

// One printer run: its directory holds the candidate under the input's
// name, so the module's name in the printed text is the input's.
struct printing {
	char *dir, *in, *out, *log;
	struct irs_child child;
	uint32_t text;		/* index of the text it prints */
};

static void
printing_free(struct printing *p)
{
	if (p->dir)
		reduce_rmtree(p->dir);
	free(p->dir);
	free(p->in);
	free(p->out);
	free(p->log);
	memset(p, 0, sizeof(*p));
}

static struct irs_error *
printing_start(struct reducer *r, struct printing *p, uint32_t slot,
	       uint32_t text, const char *data, size_t len)
{
	struct irs_error *err;
	const char *argv[16];
	size_t n = 0;

	p->text = text;
	if (asprintf(&p->dir, "%s/print%u", r->exec.tmpdir, slot) < 0 ||
	    asprintf(&p->in, "%s/%s", p->dir, r->exec.filename) < 0 ||
	    asprintf(&p->out, "%s/printed", p->dir) < 0 ||
	    asprintf(&p->log, "%s/log", p->dir) < 0)
		return &irs_enomem;
	if ((err = irs_mkdirs(p->dir)) ||
	    (err = irs_file_write(p->in, data, len)))
		return err;
	argv[n++] = r->printer;
	for (size_t i = 0; r->lang->print_args[i] && n + 1 < 16; i++) {
		const char *a = r->lang->print_args[i];
		argv[n++] = !strcmp(a, "{}") ? p->in
			    : !strcmp(a, "{out}") ? p->out : a;
	}
	argv[n] = NULL;
	return irs_child_start((char *const *)argv, p->log, NULL, NULL,
			       r->exec.timeout, &p->child);
}

// The printed text, the scratch file's path replaced by the input's name
// ("; ModuleID = '/tmp/.../input.ll'"); NULL when the printer failed.
static struct irs_error *
printing_read(const struct printing *p, int status, const char *name,
	      char **ret, size_t *len_ret)
{
	struct irs_error *err;
	char *text;
	size_t len;

	*ret = NULL;
	if (status != 0 || access(p->out, R_OK) != 0)
		return NULL;
	if ((err = irs_file_read(p->out, &text, &len)))
		return err;
	struct irs_buf b;
	irs_buf_init(&b);
	size_t inlen = strlen(p->in);
	for (size_t i = 0; i < len;) {
		const char *q = memmem(text + i, len - i, p->in, inlen);
		size_t e = q ? (size_t)(q - text) : len;
		irs_buf_append(&b, text + i, e - i);
		if (q)
			irs_buf_puts(&b, name);
		i = q ? e + inlen : len;
	}
	free(text);
	if (!b.data)
		irs_buf_append(&b, "", 0);
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	*len_ret = b.len;
	*ret = irs_buf_steal(&b);
	return NULL;
}

struct irs_error *
reduce_tools_canon(struct reducer *r, const char *const *texts,
		   const size_t *lens, uint32_t n, char **out, size_t *outlen)
{
	struct irs_error *err = NULL;
	struct printing slots[64];
	struct irs_child kids[64];
	uint32_t nslots = r->exec.jobs < 64 ? r->exec.jobs : 64;
	uint32_t next = 0, running = 0;
	bool done[64] = {false};

	memset(slots, 0, sizeof(slots));
	for (uint32_t i = 0; i < n; i++)
		out[i] = NULL;
	if (r->nsrv && n <= 64)
		err = reduce_printsrv_canon(r, texts, lens, n, out, outlen,
					    done);
	while (next < n && done[next])
		next++;
	while ((next < n || running) && !err) {
		for (uint32_t s = 0; s < nslots && next < n && !err; s++) {
			if (slots[s].dir)
				continue;
			err = printing_start(r, &slots[s], s, next,
					     texts[next], lens[next]);
			next++;
			while (next < n && done[next])
				next++;
			running++;
		}
		if (err)
			break;
		for (uint32_t s = 0; s < nslots; s++)
			kids[s] = slots[s].dir ? slots[s].child
					       : (struct irs_child){0};
		size_t which;
		int status;
		if ((err = irs_child_wait_any(kids, nslots,
					      r->exec.interrupted, &which,
					      &status)))
			break;
		struct printing *p = &slots[which];
		err = printing_read(p, status, r->exec.filename,
				    &out[p->text], &outlen[p->text]);
		printing_free(p);
		running--;
	}
	for (uint32_t s = 0; s < nslots; s++) {
		if (slots[s].dir && slots[s].child.pid > 0) {
			kids[0] = slots[s].child;
			kids[0].deadline = 0;	// kill it now
			size_t which;
			int status;
			irs_child_wait_any(kids, 1, NULL, &which, &status);
		}
		printing_free(&slots[s]);
	}
	if (err)
		for (uint32_t i = 0; i < n; i++) {
			free(out[i]);
			out[i] = NULL;
		}
	return err;
}

/* }=== */

// The printer's library in servers, used only when it prints the input
// byte for byte as the printer program did (@p printed), so the tests
// see what they would have seen.
static struct irs_error *
lib_init(struct reducer *r, const char *printed, size_t len)
{
	struct irs_error *err;
	char *again = NULL;
	size_t alen = 0;
	bool done = false;

	if ((err = reduce_printsrv_start(r)) || !r->nsrv)
		return err;
	const char *text = r->tree->text;
	err = reduce_printsrv_canon(r, &text, &r->tree->len, 1, &again,
				    &alen, &done);
	bool same = !err && done && again && alen == len &&
		    !memcmp(again, printed, len);
	free(again);
	if (same)
		reduce_note(r, "printer: its library in %u processes", r->nsrv);
	else
		reduce_note(r, "printer: its library prints the input "
			    "otherwise: not used");
	if (!same)
		reduce_printsrv_stop(r);
	return err;
}

struct irs_error *
reduce_tools_init(struct reducer *r)
{
	struct irs_error *err;
	char *printed;
	size_t len;

	if (!r->lang->printer || r->cfg->no_print ||
	    !(r->printer = tool_find(r, r->lang->printer)))
		return NULL;
	const char *text = r->tree->text;
	if ((err = reduce_tools_canon(r, &text, &r->tree->len, 1, &printed,
				      &len)))
		return err;
	// What the test will see of every candidate must be interesting
	// on the input, or the printer is no use here.
	uint8_t v = VERDICT_BORING;
	if (printed && (err = reduce_exec_batch(&r->exec,
						(const char *const *)&printed,
						&len, 1, &v, NULL))) {
		free(printed);
		return err;
	}
	reduce_note(r, "printer: %s%s", r->printer,
		    v == VERDICT_INTERESTING ? "" : !printed
		    ? " rejects the input: not used"
		    : ": the printed input is not interesting: not used");
	if (v != VERDICT_INTERESTING) {
		free(printed);
		free(r->printer);
		r->printer = NULL;
		return NULL;
	}
	err = lib_init(r, printed, len);
	free(printed);
	return err;
}

void
reduce_tools_deinit(struct reducer *r)
{
	reduce_printsrv_stop(r);
	free(r->printer);
}

// Whether the line [s, e) of the printed text is one the printer adds
// that a reader does without (the syntax's print_strip prefixes).
static bool
strippable(const struct reduce_lang *lang, const char *s, size_t e)
{
	for (size_t i = 0; lang->print_strip && lang->print_strip[i]; i++) {
		size_t n = strlen(lang->print_strip[i]);
		if (e >= n && !memcmp(s, lang->print_strip[i], n))
			return true;
	}
	return false;
}

struct irs_error *
reduce_tools_print(struct reducer *r)
{
	struct irs_error *err;
	char *printed;
	size_t len;

	if (!r->printer)
		return NULL;
	const char *text = r->best_text.data;
	if ((err = reduce_tools_canon(r, &text, &r->best_text.len, 1,
				      &printed, &len)))
		return err;
	if (!printed)
		return NULL;
	// The printed form without the lines the printer adds ("; ModuleID
	// = ...", comments): what the test saw, as a person reads it.
	struct irs_buf b;
	irs_buf_init(&b);
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(printed + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - printed) + 1 : len;
		// (and the blank lines the stripped ones leave at the top)
		if (!strippable(r->lang, printed + i, e - i) &&
		    (b.len || e - i > 1))
			irs_buf_append(&b, printed + i, e - i);
		i = e;
	}
	free(printed);
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	char *t = b.data;
	size_t tl = b.len;
	uint8_t v = VERDICT_BORING;
	r->step = "print";
	if (b.data && (tl != r->best_text.len ||
		       memcmp(t, r->best_text.data, tl)))
		err = reduce_evaluate(r, &t, &tl, 1, &v);
	if (!err && v == VERDICT_INTERESTING) {
		reduce_note(r, "the result as %s writes it: %zu bytes",
			    r->printer, tl);
		err = reduce_commit_text(r, &b);
	}
	irs_buf_deinit(&b);
	return err;
}
