// A syntax's own tools. Its verifier runs on every candidate before the
// test does, as llvm-reduce runs LLVM's verifier on each of its own: a
// candidate the compiler's parser or verifier rejects costs no test run.
// Its printer writes the result in the compiler's own form (LLVM IR
// through `opt -S`, toyc through toyc's printer), when that keeps it
// interesting. Both are found as a word of the test command naming one
// (the compiler the user runs), else on $PATH; without them the reducer
// works as before, untold.
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

struct irs_error *
reduce_tools_init(struct reducer *r)
{
	struct irs_error *err;
	const struct reduce_lang *lang = r->lang;

	if (lang->printer && !r->cfg->no_print)
		r->printer = tool_find(r, lang->printer);
	if (!lang->verifier || r->cfg->no_verify)
		return NULL;
	char *prog = tool_find(r, lang->verifier);
	if (!prog)
		return NULL;
	struct irs_buf cmd;
	irs_buf_init(&cmd);
	irs_shell_quote(&cmd, prog);
	irs_buf_printf(&cmd, " %s", lang->verify_args);
	free(prog);
	if (cmd.oom) {
		irs_buf_deinit(&cmd);
		return &irs_enomem;
	}
	r->verify_cmd = irs_buf_steal(&cmd);
	if ((err = reduce_exec_init(&r->verify, r->verify_cmd, false,
				    r->job.input, r->exec.jobs,
				    r->exec.timeout, 0, r->exec.interrupted)))
		return err;
	// A verifier that rejects the input (another version of the
	// compiler, an input the test needs invalid) would reject every
	// candidate: candidates are then not verified.
	const char *text = r->tree->text;
	size_t len = r->tree->len;
	uint8_t v;
	if ((err = reduce_exec_batch(&r->verify, &text, &len, 1, &v, NULL)))
		return err;
	r->verifying = v == VERDICT_INTERESTING;
	reduce_note(r, "verifier: %s%s", r->verify_cmd, r->verifying ? ""
		    : " rejects the input: candidates are not verified");
	return NULL;
}

void
reduce_tools_deinit(struct reducer *r)
{
	if (r->verify_cmd)
		reduce_exec_deinit(&r->verify);
	free(r->verify_cmd);
	free(r->printer);
}

struct irs_error *
reduce_tools_verify(struct reducer *r, const char *const *texts,
		    const size_t *lens, uint32_t n, uint8_t *valid)
{
	uint8_t v[64];
	if (!r->verifying || n > ARRAY_SIZE(v)) {
		memset(valid, 1, n);
		return NULL;
	}
	struct irs_error *err = reduce_exec_batch(&r->verify, texts, lens, n,
						  v, NULL);
	if (err)
		return err;
	for (uint32_t i = 0; i < n; i++) {
		valid[i] = v[i] == VERDICT_INTERESTING;
		r->res.invalid += v[i] == VERDICT_BORING;
	}
	return NULL;
}

// The printer's form of the best text into @p out; false when there is
// no printer or it failed.
static struct irs_error *
print_text(struct reducer *r, struct irs_buf *out, bool *ok)
{
	struct irs_error *err;
	char *in = NULL, *res = NULL, *log = NULL, *text = NULL;
	size_t len = 0;
	*ok = false;
	if (asprintf(&in, "%s/print-in-%s", r->exec.tmpdir,
		     r->exec.filename) < 0 ||
	    asprintf(&res, "%s/print-out-%s", r->exec.tmpdir,
		     r->exec.filename) < 0 ||
	    asprintf(&log, "%s/print.log", r->exec.tmpdir) < 0) {
		err = &irs_enomem;
		goto out;
	}
	if ((err = irs_file_write(in, r->best_text.data, r->best_text.len)))
		goto out;
	const char *argv[16];
	size_t n = 0;
	argv[n++] = r->printer;
	for (size_t i = 0; r->lang->print_args[i] && n + 1 < 16; i++) {
		const char *a = r->lang->print_args[i];
		argv[n++] = !strcmp(a, "{}") ? in : !strcmp(a, "{out}") ? res
			    : a;
	}
	argv[n] = NULL;
	int status;
	if ((err = irs_child_run((char *const *)argv, log, NULL,
				 r->exec.timeout, r->exec.interrupted,
				 &status)))
		goto out;
	if (status != 0 || access(res, R_OK) != 0)
		goto out;
	if ((err = irs_file_read(res, &text, &len)))
		goto out;
	// "; ModuleID = '/tmp/.../print-in-X'": the file's own name.
	out->len = 0;
	size_t inlen = strlen(in);
	for (size_t i = 0; i < len;) {
		const char *q = memmem(text + i, len - i, in, inlen);
		size_t e = q ? (size_t)(q - text) : len;
		irs_buf_append(out, text + i, e - i);
		if (q)
			irs_buf_puts(out, r->exec.filename);
		i = q ? e + inlen : len;
	}
	*ok = !out->oom && len;
	if (out->oom)
		err = &irs_enomem;
out:
	if (in)
		unlink(in);
	if (res)
		unlink(res);
	free(in);
	free(res);
	free(log);
	free(text);
	return err;
}

struct irs_error *
reduce_tools_print(struct reducer *r)
{
	struct irs_error *err;
	bool ok;
	uint64_t h = reduce_hash(r->best_text.data, r->best_text.len);
	if (!r->printer || h == r->printed)
		return NULL;
	r->printed = h;
	r->nprints++;
	struct irs_buf text;
	irs_buf_init(&text);
	err = print_text(r, &text, &ok);
	if (!err && ok && (text.len != r->best_text.len ||
			   memcmp(text.data, r->best_text.data, text.len))) {
		char *t = text.data;
		size_t len = text.len;
		uint8_t v;
		r->step = "print";
		err = reduce_evaluate(r, &t, &len, 1, &v);
		bool keep = !err && v == VERDICT_INTERESTING;
		reduce_note(r, "printed by %s: %zu bytes, %s", r->printer, len,
			    keep ? "kept" : "not interesting");
		if (keep) {
			r->printed = reduce_hash(t, len);
			err = reduce_commit_text(r, &text);
		}
	}
	irs_buf_deinit(&text);
	return err;
}
