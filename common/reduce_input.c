// What `irsnap reduce` works on: a text file (with its snapshot JSON when
// one lies beside it) or a run directory whose failure.json names the
// failing pass's before snapshot and the command that reproduces it; and
// where the results go (INPUT.reduced, or RUN/repro/), with repro.sh.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "reduce.h"

void
reduce_job_deinit(struct reduce_job *job)
{
	free(job->input);
	free(job->snapshot);
	free(job->cmd);
	free(job->output);
	free(job->repro);
	free(job->log);
	free(job->snapshot_text);
	if (job->snapshot_dir && !irs_debug('R'))	// R: kept to look at
		reduce_rmtree(job->snapshot_dir);
	free(job->snapshot_dir);
	memset(job, 0, sizeof(*job));
}

/* {=== shell words ========================================================= */

bool
reduce_shell_quote(struct irs_buf *b, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
			       "VWXYZ0123456789_-./=:,+@%", *p) != NULL;
	if (plain)
		return irs_buf_puts(b, s);
	irs_buf_puts(b, "'");
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			irs_buf_puts(b, "'\\''");
		else
			irs_buf_append(b, p, 1);
	return irs_buf_puts(b, "'");
}

static void
free_words(char **w)
{
	for (size_t i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}

struct irs_error *
reduce_shell_split(const char *line, char ***ret)
{
	char **words = calloc(1, sizeof(*words));
	size_t n = 0;
	const char *p = line;
	if (!words)
		return &irs_enomem;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		struct irs_buf w;
		irs_buf_init(&w);
		char quote = 0;
		for (; *p && (quote || !strchr(" \t\n", *p)); p++) {
			if (quote == '\'' && *p == '\'') {
				quote = 0;
			} else if (quote == '\'') {
				irs_buf_append(&w, p, 1);
			} else if (*p == '\\' && p[1] &&
				   (!quote || strchr("\"\\$`", p[1]))) {
				irs_buf_append(&w, ++p, 1);
			} else if (quote == '"' && *p == '"') {
				quote = 0;
			} else if (!quote && (*p == '\'' || *p == '"')) {
				quote = *p;
			} else {
				irs_buf_append(&w, p, 1);
			}
		}
		if (quote) {
			irs_buf_deinit(&w);
			free_words(words);
			return irs_error_format(IRS_ERROR_FORMAT,
				"unterminated %c quote in: %s", quote, line);
		}
		irs_buf_append(&w, "", 0);
		char **nw = realloc(words, (n + 2) * sizeof(*words));
		if (w.oom || !nw) {
			irs_buf_deinit(&w);
			free_words(nw ? nw : words);
			return &irs_enomem;
		}
		words = nw;
		words[n++] = irs_buf_steal(&w);
		words[n] = NULL;
	}
	*ret = words;
	return NULL;
}

/* }=== */

static bool
is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

// The --test or --crash argument of a reduce command line.
static struct irs_error *
cmd_from_reduce_command(struct reduce_job *job, const char *line,
			const char *where)
{
	struct irs_error *err;
	char **w;

	if ((err = reduce_shell_split(line, &w)))
		return irs_error_prefix(err, where);
	for (size_t i = 0; w[i] && w[i + 1] && !job->cmd; i++) {
		if (!strcmp(w[i], "--crash") || !strcmp(w[i], "--test")) {
			job->crash_mode = !strcmp(w[i], "--crash");
			if (!(job->cmd = strdup(w[i + 1])))
				err = &irs_enomem;
		}
	}
	free_words(w);
	if (!err && !job->cmd)
		err = irs_error_format(IRS_ERROR_FORMAT, "%s: reduce_command "
				       "has no --test or --crash: %s", where,
				       line);
	return err;
}

// A run directory: failure.json's before snapshot, and its reduce command
// unless the user gave one.
static struct irs_error *
job_from_run(struct reduce_job *job, const struct irs_reduce_config *cfg)
{
	struct irs_error *err = NULL;
	json_error_t jerr;
	char *path;

	if (asprintf(&path, "%s/failure.json", cfg->input) < 0)
		return &irs_enomem;
	json_t *root = json_load_file(path, JSON_ALLOW_NUL, &jerr);
	if (!root) {
		err = irs_error_format(access(path, F_OK) ? IRS_ERROR_NOT_FOUND
					: IRS_ERROR_FORMAT, "%s:%d: %s", path,
				       jerr.line, access(path, F_OK)
				       ? "no failure report here (not a failed "
					 "run directory?)" : jerr.text);
		free(path);
		return err;
	}
	json_t *before = json_object_get(root, "before_snapshot");
	const char *text = json_string_value(json_object_get(before, "text"));
	const char *js = json_string_value(json_object_get(before, "json"));
	const char *rc = json_string_value(json_object_get(root,
							   "reduce_command"));
	if (!text) {
		err = irs_error_format(IRS_ERROR_FORMAT, "%s: no "
				       "before_snapshot.text to reduce", path);
		goto out;
	}
	if (asprintf(&job->input, "%s/%s", cfg->input, text) < 0 ||
	    (js && asprintf(&job->snapshot, "%s/%s", cfg->input, js) < 0)) {
		job->input = job->snapshot = NULL;
		err = &irs_enomem;
		goto out;
	}
	if (job->snapshot && access(job->snapshot, R_OK) != 0) {
		free(job->snapshot);
		job->snapshot = NULL;
	}
	if (!cfg->test_cmd && !cfg->crash_cmd) {
		if (!rc)
			err = irs_error_format(IRS_ERROR_USAGE, "%s: no "
				"reduce_command (the layout gives no rerun "
				"template); give --test or --crash", path);
		else
			err = cmd_from_reduce_command(job, rc, path);
		if (err)
			goto out;
	}
	const char *dot = strrchr(text, '.');
	const char *slash = strrchr(text, '/');
	if (!cfg->output &&
	    asprintf(&job->output, "%s/repro/reduced%s", cfg->input,
		     dot && (!slash || dot > slash) ? dot : "") < 0) {
		job->output = NULL;
		err = &irs_enomem;
		goto out;
	}
	if (asprintf(&job->log, "%s/repro/reduce.log", cfg->input) < 0) {
		job->log = NULL;
		err = &irs_enomem;
	}
out:
	json_decref(root);
	free(path);
	return err;
}

// A text file, and its snapshot when "X.json" lies beside "X.ir".
static struct irs_error *
job_from_file(struct reduce_job *job, const struct irs_reduce_config *cfg)
{
	if (!(job->input = strdup(cfg->input)))
		return &irs_enomem;
	size_t n = strlen(cfg->input);
	if (n > 3 && !strcmp(cfg->input + n - 3, ".ir")) {
		if (asprintf(&job->snapshot, "%.*s.json", (int)(n - 3),
			     cfg->input) < 0)
			return job->snapshot = NULL, &irs_enomem;
		if (access(job->snapshot, R_OK) != 0) {
			free(job->snapshot);
			job->snapshot = NULL;
		}
	}
	if (!cfg->output && asprintf(&job->output, "%s.reduced",
				     cfg->input) < 0)
		return job->output = NULL, &irs_enomem;
	return NULL;
}

struct irs_error *
reduce_job_init(struct reduce_job *job, const struct irs_reduce_config *cfg)
{
	struct irs_error *err;

	memset(job, 0, sizeof(*job));
	if (!cfg->input || !*cfg->input)
		return irs_error_format(IRS_ERROR_USAGE, "no INPUT to reduce");
	if (cfg->test_cmd && cfg->crash_cmd)
		return irs_error_format(IRS_ERROR_USAGE,
					"give --test or --crash, not both");
	bool run = is_dir(cfg->input);
	if (!run && !cfg->test_cmd && !cfg->crash_cmd)
		return irs_error_format(IRS_ERROR_USAGE,
			"%s: --test CMD or --crash CMD is required",
			cfg->input);
	if (run && cfg->layout)
		return irs_error_format(IRS_ERROR_USAGE,
			"%s: --layout is for a plain INPUT; a run directory "
			"has its snapshot already", cfg->input);
	if (!cfg->layout && cfg->exe)
		return irs_error_format(IRS_ERROR_USAGE,
					"--exe goes with --layout");
	if (run && access(cfg->input, F_OK) != 0)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s: %s",
					cfg->input, strerror(errno));
	err = run ? job_from_run(job, cfg) : job_from_file(job, cfg);
	if (!err && (cfg->test_cmd || cfg->crash_cmd)) {
		job->crash_mode = cfg->crash_cmd != NULL;
		free(job->cmd);
		job->cmd = strdup(cfg->crash_cmd ? cfg->crash_cmd
						 : cfg->test_cmd);
		if (!job->cmd)
			err = &irs_enomem;
	}
	if (!err && cfg->output && !(job->output = strdup(cfg->output)))
		err = &irs_enomem;
	if (!err && !*job->cmd)
		err = irs_error_format(IRS_ERROR_USAGE, "the %s command is "
				       "empty", job->crash_mode ? "--crash"
								: "--test");
	char *dir = err ? NULL : dir_of(job->output);
	if (!err && (!dir || asprintf(&job->repro, "%s/repro.sh", dir) < 0)) {
		job->repro = NULL;
		err = &irs_enomem;
	}
	if (!err && run)
		err = irs_mkdirs(dir);
	free(dir);
	if (err)
		reduce_job_deinit(job);
	return err;
}

// repro.sh: reruns the test on the reduced file; exit 0 when the failure
// reproduces. It runs from its own directory, so the pair can be moved.
struct irs_error *
reduce_write_repro(const struct reduce_job *job,
		   const struct reduce_crashsig *sig)
{
	struct irs_buf b, cmd, file;
	irs_buf_init(&b);
	irs_buf_init(&cmd);
	irs_buf_init(&file);
	const char *base = strrchr(job->output, '/');
	irs_buf_puts(&file, "./");
	irs_buf_puts(&file, base ? base + 1 : job->output);
	for (const char *p = job->cmd; *p; p++) {
		if (p[0] == '{' && p[1] == '}') {
			reduce_shell_quote(&cmd, file.data);
			p++;
		} else {
			irs_buf_append(&cmd, p, 1);
		}
	}
	irs_buf_puts(&b, "#!/bin/sh\n# Written by irsnap reduce: reproduces "
		     "the failure on the reduced file.\n");
	irs_buf_puts(&b, "# Exit status 0: the failure reproduces.\n");
	irs_buf_puts(&b, "cd \"$(dirname \"$0\")\" || exit 2\n");
	if (!job->crash_mode) {
		irs_buf_puts(&b, "# Interesting means: this exits with 0.\n");
		irs_buf_puts(&b, "sh -c ");
		reduce_shell_quote(&b, cmd.data ? cmd.data : "");
		irs_buf_puts(&b, "\n");
	} else {
		struct irs_buf s;
		irs_buf_init(&s);
		reduce_crashsig_format(sig, &s);
		irs_buf_printf(&b, "# Expected crash: %s\n",
			       s.data ? s.data : "");
		irs_buf_puts(&b, "sh -c ");
		reduce_shell_quote(&b, cmd.data ? cmd.data : "");
		irs_buf_printf(&b, "\nstatus=$?\n"
			       "if [ \"$status\" -eq %d ]; then\n"
			       "\techo 'reproduced: %s'\n\texit 0\nfi\n"
			       "echo \"not reproduced (exit status $status)\"\n"
			       "exit 1\n", 128 + sig->signo,
			       s.data ? s.data : "");
		irs_buf_deinit(&s);
	}
	struct irs_error *err = b.oom || cmd.oom || file.oom
		? &irs_enomem : irs_file_write(job->repro, b.data, b.len);
	if (!err && chmod(job->repro, 0755) != 0)
		err = irs_error_format(IRS_ERROR_IO, "%s: chmod: %s",
				       job->repro, strerror(errno));
	irs_buf_deinit(&b);
	irs_buf_deinit(&cmd);
	irs_buf_deinit(&file);
	return err;
}
