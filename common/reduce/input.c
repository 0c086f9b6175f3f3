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

#include "reduce/reduce.h"

void
reduce_job_deinit(struct reduce_job *job)
{
	free(job->input);
	free(job->snapshot);
	free(job->cmd);
	free(job->verifier);
	free(job->problem);
	free(job->broken);
	free(job->output);
	free(job->repro);
	free(job->log);
	free(job->snapshot_text);
	if (job->snapshot_dir && !irs_debug('R'))	// R: kept to look at
		reduce_rmtree(job->snapshot_dir);
	free(job->snapshot_dir);
	memset(job, 0, sizeof(*job));
}

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

// The --test, --crash or --verifier argument of a run's reduce command
// line (and a --verifier's --problem and --broken): words run without a
// shell (a run directory, and the layout that wrote it, are untrusted; the
// layout's template could only say words).
static struct irs_error *
cmd_from_reduce_command(struct reduce_job *job, const char *line,
			const char *where)
{
	struct irs_error *err;
	char **w;

	if ((err = irs_shell_split(line, &w)))
		return irs_error_prefix(err, where);
	for (size_t i = 0; !err && w[i] && w[i + 1]; i++) {
		char **dst = !strcmp(w[i], "--verifier") ? &job->verifier
			     : !strcmp(w[i], "--problem") ? &job->problem
			     : !strcmp(w[i], "--broken") ? &job->broken
			     : !strcmp(w[i], "--crash") ||
			       !strcmp(w[i], "--test") ? &job->cmd : NULL;
		if (!dst || *dst)
			continue;
		if (dst == &job->cmd)
			job->crash_mode = !strcmp(w[i], "--crash");
		if (dst == &job->cmd || dst == &job->verifier)
			job->no_shell = true;
		if (!(*dst = strdup(w[++i])))
			err = &irs_enomem;
	}
	irs_shell_words_free(w);
	if (!err && job->verifier && !job->cmd)
		job->cmd = strdup(job->verifier);	// resolved, then made
							// a test below
	if (!err && !job->cmd)
		err = irs_error_format(IRS_ERROR_FORMAT, "%s: reduce_command "
				       "has no --test, --crash or --verifier: "
				       "%s", where, line);
	return err;
}

// Whether run directory @p dir and its failure report @p path are the
// caller's to vouch for: owned by the caller and not writable by others.
// A command taken from them runs as the caller; a run directory another
// user made or can change may name any command. An error saying which
// and how to go on otherwise.
static struct irs_error *
check_trusted(const char *dir, const char *path)
{
	const char *files[] = { dir, path };
	uid_t me = geteuid();
	for (size_t i = 0; i < 2; i++) {
		// The directory as the link names it reaches it (`latest`,
		// whose own mode is always 0777); the file itself is no link.
		struct stat st;
		if ((i == 0 ? stat : lstat)(files[i], &st) != 0)
			return irs_error_format(IRS_ERROR_IO, "%s: %s", files[i],
						strerror(errno));
		const char *why = st.st_uid != me ? "is not yours"
				  : st.st_mode & S_IWOTH ? "is world-writable"
				  : st.st_mode & S_IWGRP ? "is group-writable"
				  : NULL;
		if (why)
			return irs_error_format(IRS_ERROR_USAGE, "%s %s: its "
				"reduce_command could run anything; refusing "
				"to run it (read it, then give --trust, or "
				"give --test or --crash yourself)", files[i],
				why);
	}
	return NULL;
}

// A run directory: failure.json's before snapshot, and its reduce command
// unless the user gave one.
static struct irs_error *
job_from_run(struct reduce_job *job, const struct irs_reduce_config *cfg)
{
	struct irs_error *err = NULL;
	json_error_t jerr;
	char *path, *doc;
	size_t len;

	// The run's documents and the files they name: inside the run, no
	// link (which may point anywhere), no FIFO.
	if ((err = irs_rundir_file(cfg->input, "failure.json", &path)))
		return err;
	err = irs_file_read(path, &doc, &len);
	if (err && err->code == IRS_ERROR_NOT_FOUND) {
		irs_error_destroy(err);
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: no "
				       "failure.json: not the run directory "
				       "of a failed run", cfg->input);
	}
	if (err) {
		free(path);
		return err;
	}
	json_t *root = json_loadb(doc, len, JSON_ALLOW_NUL, &jerr);
	free(doc);
	if (!json_is_object(root)) {
		err = root ? irs_error_format(IRS_ERROR_FORMAT, "%s: not a "
					      "JSON object", path)
			   : irs_error_format(IRS_ERROR_FORMAT, "%s:%d:%d: %s",
					      path, jerr.line, jerr.column,
					      jerr.text);
		json_decref(root);
		free(path);
		return err;
	}
	json_t *before = json_object_get(root, "before_snapshot");
	// A core's failure has no before snapshot (nothing ran under irsnap
	// before the crash): its reduce command reduces the crash snapshot,
	// the IR as the crash left it (run/failure.c), and so does this.
	if (!json_string_value(json_object_get(before, "text")))
		before = json_object_get(root, "crash_snapshot");
	const char *text = json_string_value(json_object_get(before, "text"));
	const char *js = json_string_value(json_object_get(before, "json"));
	const char *rc = json_string_value(json_object_get(root,
							   "reduce_command"));
	// A layout that reduces the program (LuaJIT's Lua, not its IR): the
	// run's copy of it, which has no graph.
	json_t *program = json_object_get(root, "reduce_input");
	if (program) {
		if (!(text = json_string_value(program))) {
			err = irs_error_format(IRS_ERROR_FORMAT, "%s: no "
					       "reduce_input to reduce (the "
					       "program could not be copied)",
					       path);
			goto out;
		}
		js = NULL;
	}
	if (!text) {
		err = irs_error_format(IRS_ERROR_FORMAT, "%s: no "
				       "before_snapshot.text or "
				       "crash_snapshot.text to reduce", path);
		goto out;
	}
	if ((err = irs_rundir_file(cfg->input, text, &job->input)) ||
	    (js && (err = irs_rundir_file(cfg->input, js, &job->snapshot)))) {
		err = irs_error_prefix(err, path);
		goto out;
	}
	if (job->snapshot && access(job->snapshot, R_OK) != 0) {
		free(job->snapshot);
		job->snapshot = NULL;
	}
	if (!cfg->test_cmd && !cfg->crash_cmd && !cfg->verifier_cmd) {
		if (!rc)
			err = irs_error_format(IRS_ERROR_USAGE, "%s: no "
				"reduce_command (the layout gives no rerun "
				"template); give --test or --crash", path);
		else if (!cfg->trust && (err = check_trusted(cfg->input,
							     path)))
			;
		else
			err = cmd_from_reduce_command(job, rc, path);
		if (err)
			goto out;
		// Said before it runs: it comes from a file, not the user.
		char *shown_path = irs_printable(path, false);
		char *shown_cmd = irs_printable(job->cmd, false);
		fprintf(stderr, "irsnap reduce: running the %s command from "
			"%s: %s\n", job->verifier ? "--verifier"
			: job->crash_mode ? "--crash" : "--test",
			shown_path ? shown_path : "?",
			shown_cmd ? shown_cmd : "?");
		free(shown_path);
		free(shown_cmd);
	}
	const char *dot = strrchr(text, '.');
	const char *slash = strrchr(text, '/');
	char *rel = NULL, *repro = NULL;
	// What goes into RUN/repro/ goes there, not through a link a hostile
	// run directory planted (repro -> ~, repro/reduce.log -> ~/.bashrc).
	if (asprintf(&rel, "repro/reduced%s", dot && (!slash || dot > slash)
		     ? dot : "") < 0)
		rel = NULL;
	if (!rel)
		err = &irs_enomem;
	else if ((!cfg->output &&
		  (err = irs_rundir_file(cfg->input, rel, &job->output))) ||
		 (err = irs_rundir_file(cfg->input, "repro/reduce.log",
					&job->log)) ||
		 (!cfg->output && (err = irs_rundir_file(cfg->input,
			"repro/repro.sh", &repro))))
		err = irs_error_prefix(err, "cannot write the reproducer");
	free(rel);
	free(repro);
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

static const char repro_mark[] = "# Written by irsnap reduce";

// False when @p path exists and is not a reproducer irsnap wrote: a
// user's file by that name is left alone.
static bool
written_by_us(const char *path)
{
	char head[128] = "";
	FILE *fp = fopen(path, "r");
	if (!fp)
		return errno == ENOENT;
	size_t n = fread(head, 1, sizeof(head) - 1, fp);
	fclose(fp);
	head[n] = '\0';
	char *nl = strchr(head, '\n');
	return nl && !strncmp(nl + 1, repro_mark, sizeof(repro_mark) - 1);
}

/* {=== commands resolved against the caller's directory ==================== */

static bool
shell_operator(char c)
{
	return strchr(";|&()<>", c) != NULL;
}

// One shell word of @p cmd at @p i: its unquoted value into @p val, one
// past its end returned. *plain is false when the word has something the
// shell would expand (unquoted $ ` * ? [ ~, or {}), so it is left alone.
static size_t
shell_word(const char *cmd, size_t i, struct irs_buf *val, bool *plain)
{
	char q = 0;
	*plain = true;
	irs_buf_init(val);
	for (; cmd[i]; i++) {
		char c = cmd[i];
		if (q == '\'') {
			if (c == '\'')
				q = 0;
			else
				irs_buf_append(val, &c, 1);
		} else if (q == '"') {
			if (c == '"')
				q = 0;
			else if (c == '\\' && cmd[i + 1] &&
				 strchr("\"\\$`", cmd[i + 1]))
				irs_buf_append(val, &cmd[++i], 1);
			else if (c == '$' || c == '`')
				*plain = false;
			else
				irs_buf_append(val, &c, 1);
		} else if (c == '\'' || c == '"') {
			q = c;
		} else if (c == '\\' && cmd[i + 1]) {
			irs_buf_append(val, &cmd[++i], 1);
		} else if (c == ' ' || c == '\t' || c == '\n' ||
			   shell_operator(c)) {
			break;
		} else {
			if (strchr("$`*?[~", c))
				*plain = false;
			irs_buf_append(val, &c, 1);
		}
	}
	if (val->data && strstr(val->data, "{}"))
		*plain = false;
	return i;
}

// Should word @p w, as the caller typed it, name a file of the caller's
// directory: a relative path to something there ("./test.sh",
// "build/toyc"), or a bare name of a regular file there ("test.sh" in
// "sh test.sh {}"), but not the candidate's own name (C-Vise's form: the
// test reads ./INPUT in its own directory), an option or an assignment.
static bool
names_callers_file(const char *w, const char *candidate)
{
	struct stat st;
	if (!*w || *w == '/' || *w == '-' || strchr(w, '=') ||
	    !strcmp(w, candidate) || stat(w, &st) != 0)
		return false;
	return strchr(w, '/') || S_ISREG(st.st_mode);
}

// Tests run in scratch directories of their own, so @p cmd's words that
// name the caller's files are made absolute, as C-Vise does with its
// test script: `--test ./test.sh` and `--crash 'build/toyc {}'` work as
// typed. The rest of the command is kept byte for byte.
static struct irs_error *
resolve_cmd(const char *cmd, const char *input, char **ret)
{
	struct irs_buf out, val;
	char cwd[4096];
	const char *base = strrchr(input, '/');
	base = base ? base + 1 : input;

	if (!getcwd(cwd, sizeof(cwd)))
		return (*ret = strdup(cmd)) ? NULL : &irs_enomem;
	irs_buf_init(&out);
	for (size_t i = 0; cmd[i];) {
		char c = cmd[i];
		if (c == ' ' || c == '\t' || c == '\n' || shell_operator(c)) {
			irs_buf_append(&out, &c, 1);
			i++;
			continue;
		}
		bool plain;
		size_t end = shell_word(cmd, i, &val, &plain);
		if (plain && val.data && names_callers_file(val.data, base)) {
			struct irs_buf abs;
			irs_buf_init(&abs);
			irs_buf_printf(&abs, "%s/%s", cwd, val.data);
			if (abs.oom || !irs_shell_quote(&out, abs.data))
				out.oom = true;
			irs_buf_deinit(&abs);
			irs_buf_deinit(&val);
		} else {
			irs_buf_deinit(&val);
			irs_buf_append(&out, cmd + i, end - i);
		}
		i = end;
	}
	if (out.oom) {
		irs_buf_deinit(&out);
		return &irs_enomem;
	}
	if (!out.data)
		irs_buf_append(&out, "", 0);
	*ret = irs_buf_steal(&out);
	return *ret ? NULL : &irs_enomem;
}

/* }=== */

// A verifier failure is reduced by a test command: job->cmd (the verifier
// command, resolved) becomes `irsnap reduce {} --verifier CMD ...
// --expect-check CHECK`, CHECK what it reports on the input.
static struct irs_error *
verifier_test(struct reduce_job *job, double timeout)
{
	struct reduce_verifier v = {job->cmd, job->problem, job->broken,
				    timeout, job->no_shell};
	char *test, *check;
	struct irs_error *err = reduce_verifier_test(&v, job->input, &test,
						     &check);
	if (err)
		return err;
	char *shown = irs_printable(check, false);
	fprintf(stderr, "irsnap reduce: the verifier reports \"%s\" on the "
		"input; a candidate is interesting when it reports that "
		"check\n", shown ? shown : "?");
	free(shown);
	free(check);
	free(job->cmd);
	job->cmd = test;
	job->crash_mode = false;
	return NULL;
}

struct irs_error *
reduce_job_init(struct reduce_job *job, const struct irs_reduce_config *cfg)
{
	struct irs_error *err;

	memset(job, 0, sizeof(*job));
	if (!cfg->input || !*cfg->input)
		return irs_error_format(IRS_ERROR_USAGE, "no INPUT to reduce");
	if (!!cfg->test_cmd + !!cfg->crash_cmd + !!cfg->verifier_cmd > 1)
		return irs_error_format(IRS_ERROR_USAGE, "give one of --test, "
					"--crash and --verifier");
	bool run = is_dir(cfg->input);
	if (!run && !cfg->test_cmd && !cfg->crash_cmd && !cfg->verifier_cmd)
		return irs_error_format(IRS_ERROR_USAGE,
			"%s: --test CMD, --crash CMD or --verifier CMD is "
			"required", cfg->input);
	if (cfg->verifier_cmd && cfg->layout)
		return irs_error_format(IRS_ERROR_USAGE, "--layout goes with "
					"--test or --crash");
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
	if (!err && (cfg->test_cmd || cfg->crash_cmd || cfg->verifier_cmd)) {
		job->crash_mode = cfg->crash_cmd != NULL;
		job->no_shell = cfg->no_shell;	// the user's own: a shell's
						// syntax, unless told
		free(job->cmd);
		job->cmd = NULL;
		err = resolve_cmd(cfg->crash_cmd ? cfg->crash_cmd
				  : cfg->test_cmd ? cfg->test_cmd
				  : cfg->verifier_cmd, job->input, &job->cmd);
		if (!err && cfg->verifier_cmd) {
			free(job->verifier);
			free(job->problem);
			free(job->broken);
			job->problem = job->broken = NULL;
			job->verifier = strdup(cfg->verifier_cmd);
			if (!job->verifier ||
			    (cfg->problem && !(job->problem =
					       strdup(cfg->problem))) ||
			    (cfg->broken && !(job->broken =
					      strdup(cfg->broken))))
				err = &irs_enomem;
		}
	}
	if (!err && job->verifier)
		err = verifier_test(job, cfg->timeout);
	if (!err && cfg->output && !(job->output = strdup(cfg->output)))
		err = &irs_enomem;
	if (!err && !*job->cmd)
		err = irs_error_format(IRS_ERROR_USAGE, "the %s command is "
				       "empty", job->crash_mode ? "--crash"
								: "--test");
	char *dir = err ? NULL : dir_of(job->output);
	if (!err && !dir)
		err = &irs_enomem;
	// A run directory's reproducer is RUN/repro/repro.sh (job_from_run
	// checked the path); any other is named after the result, so two
	// reductions in one directory do not overwrite each other's.
	if (!err && run && !cfg->output &&
	    asprintf(&job->repro, "%s/repro.sh", dir) < 0)
		job->repro = NULL, err = &irs_enomem;
	else if (!err && !job->repro &&
		 asprintf(&job->repro, "%s.repro.sh", job->output) < 0)
		job->repro = NULL, err = &irs_enomem;
	if (!err && run)
		err = irs_mkdirs(dir);
	// RUN/repro/ holds the log even when -o puts the result elsewhere.
	char *log_dir = !err && run && job->log ? dir_of(job->log) : NULL;
	if (!err && run && job->log)
		err = log_dir ? irs_mkdirs(log_dir) : &irs_enomem;
	free(log_dir);
	// Checked before the first test, not after an hour of them.
	if (!err && (!is_dir(dir) || access(dir, W_OK) != 0))
		err = irs_error_format(IRS_ERROR_USAGE, "-o %s: %s: %s",
			job->output, dir, !is_dir(dir)
			? "no such directory" : strerror(errno));
	if (!err)
		job->repro_foreign = !written_by_us(job->repro);
	free(dir);
	if (err)
		reduce_job_deinit(job);
	return err;
}

// repro.sh: reruns the test on the reduced file the way the reducer ran
// it, on a copy named as the candidates were (@p name: the input's name)
// in a scratch directory of its own, so a test that reads ./INPUT-NAME
// (C-Vise's form) reads the reduced file, not the input beside it. Exit
// 0 when the failure reproduces. It runs from its own directory, so the
// pair can be moved.
struct irs_error *
reduce_write_repro(const struct reduce_job *job,
		   const struct reduce_crashsig *sig, const char *name)
{
	struct irs_buf b, cmd, file;
	irs_buf_init(&b);
	irs_buf_init(&cmd);
	irs_buf_init(&file);
	const char *base = strrchr(job->output, '/');
	irs_buf_puts(&file, "./");
	irs_buf_puts(&file, base ? base + 1 : job->output);
	// {} is the copy's path, the script's "$1".
	for (const char *p = job->cmd; *p; p++) {
		if (p[0] == '{' && p[1] == '}') {
			irs_buf_puts(&cmd, "\"$1\"");
			p++;
		} else {
			irs_buf_append(&cmd, p, 1);
		}
	}
	irs_buf_printf(&b, "#!/bin/sh\n%s: reproduces ", repro_mark);
	irs_buf_puts(&b, "the failure on the reduced file.\n");
	irs_buf_puts(&b, "# Exit status 0: the failure reproduces.\n");
	irs_buf_puts(&b, "cd \"$(dirname \"$0\")\" || exit 2\n");
	irs_buf_puts(&b, "# As the reducer ran the test: on a copy named as "
		     "the input, in a\n# directory of its own.\n");
	irs_buf_puts(&b, "d=$(mktemp -d \"${TMPDIR:-/tmp}/irsnap-repro."
		     "XXXXXX\") || exit 2\n"
		     "trap 'rm -rf \"$d\"' EXIT\n"
		     "trap 'exit 130' INT TERM\n"
		     "f=$d/");
	irs_shell_quote(&b, name);
	irs_buf_puts(&b, "\ncp ");
	irs_shell_quote(&b, file.data ? file.data : "");
	irs_buf_puts(&b, " \"$f\" || exit 2\n");
	if (!job->crash_mode) {
		irs_buf_puts(&b, "# Interesting means: this exits with 0.\n");
		irs_buf_puts(&b, "(cd \"$d\" && sh -c ");
		irs_shell_quote(&b, cmd.data ? cmd.data : "");
		irs_buf_puts(&b, " sh \"$f\")\n");
	} else {
		struct irs_buf s;
		irs_buf_init(&s);
		reduce_crashsig_format(sig, &s);
		irs_buf_printf(&b, "# Expected crash: %s\n"
			       "# Checked by irsnap: the same signal and top "
			       "frames, not just the exit status.\n",
			       s.data ? s.data : "");
		char exe[4096];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		irs_buf_puts(&b, "IRSNAP=${IRSNAP:-");
		irs_shell_quote(&b, n > 0 ? exe : "irsnap");
		irs_buf_puts(&b, "}\n\"$IRSNAP\" reduce \"$f\" --crash ");
		irs_shell_quote(&b, job->cmd);
		irs_buf_puts(&b, " --expect-crash ");
		irs_shell_quote(&b, s.data ? s.data : "");
		irs_buf_puts(&b, "\n");
		b.oom |= s.oom;
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

/* {=== the input's tree ==================================================== */

// The tree of the snapshot's text, cut by its JSON's units and edges.
static struct irs_error *
snapshot_tree(const struct reduce_job *job, struct reduce_tree **ret)
{
	struct irs_error *err;
	char *text = NULL, *json = NULL;
	size_t len, json_len;
	const char *path = job->snapshot_text ? job->snapshot_text
					      : job->input;

	if ((err = irs_file_read(job->snapshot, &json, &json_len)))
		return err;
	if (job->snapshot_text)
		err = reduce_snapshot_check(job->snapshot, json, json_len);
	if (!err)
		err = irs_file_read(path, &text, &len);
	if (!err)
		err = reduce_tree_from_snapshot(text, len, json, json_len,
						job->snapshot, ret);
	if (err)
		free(text);
	free(json);
	return err;
}

struct irs_error *
reduce_job_tree(struct reduce_job *job, const struct irs_reduce_config *cfg,
		struct reduce_tree **ret)
{
	struct irs_error *err;
	char *text;
	size_t len;

	if ((err = irs_file_read(job->input, &text, &len)))
		return err;
	if (!len) {
		free(text);
		return irs_error_format(IRS_ERROR_USAGE, "%s: empty input",
					job->input);
	}
	if (job->snapshot) {
		err = snapshot_tree(job, ret);
		if (!err || err == &irs_enomem) {
			free(text);
			return err;
		}
		// A stale or unusable snapshot costs structure, not the run.
		fprintf(stderr, "irsnap: warning: %s; cutting %s as plain "
			"text\n", irs_error_get_message(err), job->input);
		irs_error_destroy(err);
	}
	struct reduce_syntax syn = {cfg->comment, cfg->label};
	if ((err = reduce_tree_from_text_syntax(text, len, &syn, ret)))
		free(text);
	return err;
}

struct irs_error *
reduce_job_snapshot(struct reduce_job *job,
		    const struct irs_reduce_config *cfg,
		    volatile sig_atomic_t *interrupted)
{
	struct irs_error *err;
	const char *cmd = cfg->exe ? cfg->exe : job->cmd;
	const char *tmp = getenv("TMPDIR");

	if (asprintf(&job->snapshot_dir, "%s/irsnap-layout.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") < 0) {
		job->snapshot_dir = NULL;
		return &irs_enomem;
	}
	if (!mkdtemp(job->snapshot_dir)) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
				       job->snapshot_dir, strerror(errno));
		free(job->snapshot_dir);
		job->snapshot_dir = NULL;
		return err;
	}
	free(job->snapshot);	// a sibling X.json: the layout's wins
	job->snapshot = NULL;
	return reduce_snapshot_input(job->input, cmd, cfg->layout,
				     job->snapshot_dir, interrupted,
				     &job->snapshot_text, &job->snapshot);
}

/* }=== */
