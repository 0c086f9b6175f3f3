// A verifier failure's interestingness: the pass's output fails the same
// verifier check. The compiler's own verifier, run offline on a candidate
// (the layout's verifier { rerun = ... }, `toyc --verify`), prints one line
// per problem; `problem`, a regex, picks those lines out, its first group
// naming the check ("block does not end with a terminator"), and `broken`,
// another, the line saying the pass's output is broken, which a candidate
// the compiler rejects as input before the pass ran does not print. A
// candidate is interesting when its output reports the check the input's
// first problem reports.
//
// The reducer runs this as a --test command, `irsnap reduce {}
// --verifier ... --expect-check CHECK`, so the test runner, its cache and
// repro.sh need nothing new.
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reduce/reduce.h"

// Output past this is not read: a verifier's first problems say it.
enum { MAX_OUTPUT = 4 << 20 };

// Whether @p c may continue a %name or @name (as toyc and LLVM spell them).
static bool
name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$' ||
	       c == '-';
}

char *
reduce_verifier_check_name(const char *s, size_t len)
{
	struct irs_buf b;
	irs_buf_init(&b);
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	for (size_t i = 0; i < len; ) {
		if (isdigit((unsigned char)s[i])) {
			irs_buf_puts(&b, "N");
			while (i < len && isalnum((unsigned char)s[i]))
				i++;	// 42, 0x5f3a
		} else if ((s[i] == '%' || s[i] == '@') && i + 1 < len &&
			   name_char(s[i + 1])) {
			irs_buf_append(&b, &s[i], 1);
			irs_buf_puts(&b, "_");
			for (i++; i < len && name_char(s[i]); i++)
				;
		} else {
			irs_buf_append(&b, &s[i++], 1);
		}
	}
	if (b.oom || !b.data) {
		irs_buf_deinit(&b);
		return b.oom ? NULL : strdup("");
	}
	return irs_buf_steal(&b);
}

// @p cmd with {} and {input} replaced by @p file, shell-quoted, or with
// the file added last when it names neither. Freed with free().
static char *
expand(const char *cmd, const char *file)
{
	struct irs_buf b;
	bool placed = false;
	irs_buf_init(&b);
	for (const char *p = cmd; *p; ) {
		size_t n = !strncmp(p, "{}", 2) ? 2
			   : !strncmp(p, "{input}", 7) ? 7 : 0;
		if (n) {
			irs_shell_quote(&b, file);
			placed = true;
			p += n;
		} else {
			irs_buf_append(&b, p++, 1);
		}
	}
	if (!placed) {
		irs_buf_puts(&b, " ");
		irs_shell_quote(&b, file);
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

// Runs @p v's command on @p file, its output into a scratch file;
// *out_ret that output (freed with free()), *status_ret the wait status
// (-1: timed out, then killed). The shell stays in our process group, so
// the reducer's kill of a test (a timeout, ^C) takes it down with us.
static struct irs_error *
run(const struct reduce_verifier *v, const char *file, char **out_ret,
    size_t *len_ret, int *status_ret)
{
	struct irs_error *err = NULL;
	const char *tmp = getenv("TMPDIR");
	char *log = NULL, *cmd = expand(v->cmd, file);
	if (!cmd || asprintf(&log, "%s/irsnap-verify.XXXXXX",
			     tmp && *tmp ? tmp : "/tmp") < 0) {
		free(cmd);
		return &irs_enomem;
	}
	char **words = NULL;
	if (v->no_shell && (err = reduce_cmd_words(v->cmd, file, true, &words)))
		goto out;
	int fd = mkstemp(log);
	if (fd < 0) {
		err = irs_error_format(IRS_ERROR_IO, "%s: %s", log,
				       strerror(errno));
		goto out;
	}
	unlink(log);	// read back through fd
	pid_t pid = fork();
	if (pid < 0) {
		err = irs_error_format(IRS_ERROR_IO, "fork: %s",
				       strerror(errno));
		close(fd);
		goto out;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (words)
			execvp(words[0], words);
		else
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	double limit = v->timeout > 0 ? v->timeout : 60;
	struct timespec tick = {0, 10 * 1000 * 1000};
	int status = 0;
	for (double waited = 0; ; waited += 0.01) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (waited >= limit) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			status = -1;
			break;
		}
		nanosleep(&tick, NULL);
	}
	*status_ret = status;
	struct irs_buf b;
	irs_buf_init(&b);
	char chunk[65536];
	ssize_t n;
	lseek(fd, 0, SEEK_SET);
	while (b.len < MAX_OUTPUT && (n = read(fd, chunk, sizeof(chunk))) > 0)
		irs_buf_append(&b, chunk, (size_t)n);
	close(fd);
	if (b.oom) {
		irs_buf_deinit(&b);
		err = &irs_enomem;
		goto out;
	}
	*len_ret = b.len;
	*out_ret = b.data ? irs_buf_steal(&b) : strdup("");
	if (!*out_ret)
		err = &irs_enomem;
out:
	irs_shell_words_free(words);
	free(log);
	free(cmd);
	return err;
}

// Reads @p out line by line: *found_ret is the check of the first problem
// line when @p want is NULL, else @p want when a problem line has it;
// *broken_ret whether a line matches @p broken (true without one).
static struct irs_error *
scan(const struct reduce_verifier *v, const char *out, size_t len,
     const char *want, char **found_ret, bool *broken_ret, uint32_t *nprob)
{
	regex_t pre, bre;
	regmatch_t m[2];
	struct irs_error *err = NULL;
	bool has_pre = v->problem != NULL, has_bre = v->broken != NULL;

	*found_ret = NULL;
	*broken_ret = !has_bre;
	*nprob = 0;
	if (has_pre && regcomp(&pre, v->problem, REG_EXTENDED) != 0)
		return irs_error_format(IRS_ERROR_USAGE, "--problem: '%s' is "
					"no extended regular expression",
					v->problem);
	if (has_bre && regcomp(&bre, v->broken, REG_EXTENDED | REG_NOSUB)) {
		if (has_pre)
			regfree(&pre);
		return irs_error_format(IRS_ERROR_USAGE, "--broken: '%s' is "
					"no extended regular expression",
					v->broken);
	}
	for (const char *p = out; !err && p < out + len; ) {
		const char *nl = memchr(p, '\n', (size_t)(out + len - p));
		char *line = strndup(p, nl ? (size_t)(nl - p)
					  : (size_t)(out + len - p));
		p = nl ? nl + 1 : out + len;
		if (!line) {
			err = &irs_enomem;
			break;
		}
		if (has_bre && regexec(&bre, line, 0, NULL, 0) == 0)
			*broken_ret = true;
		bool hit = has_pre ? regexec(&pre, line, 2, m, 0) == 0
			   : line[strspn(line, " \t\r")] != '\0';
		if (hit && !has_pre) {	// the whole line is the check
			m[0] = (regmatch_t){0, (regoff_t)strlen(line)};
			m[1].rm_so = -1;
		}
		if (hit) {
			(*nprob)++;
			regmatch_t *g = m[1].rm_so >= 0 ? &m[1] : &m[0];
			char *name = reduce_verifier_check_name(line +
				g->rm_so, (size_t)(g->rm_eo - g->rm_so));
			if (!name)
				err = &irs_enomem;
			else if (!*found_ret && (!want || !strcmp(name, want)))
				*found_ret = name, name = NULL;
			free(name);
		}
		free(line);
	}
	if (has_pre)
		regfree(&pre);
	if (has_bre)
		regfree(&bre);
	if (err) {
		free(*found_ret);
		*found_ret = NULL;
	}
	return err;
}

struct irs_error *
reduce_verifier_check(const struct reduce_verifier *v, const char *file,
		      const char *want, char **check_ret, char **why_ret)
{
	char *out = NULL, *found = NULL;
	size_t len = 0;
	int status;
	bool broken;
	uint32_t nprob;

	*check_ret = NULL;
	*why_ret = NULL;
	struct irs_error *err = run(v, file, &out, &len, &status);
	if (!err)
		err = scan(v, out, len, want, &found, &broken, &nprob);
	free(out);
	if (err)
		return err;
	int rc = 0;
	if (status == -1)
		rc = asprintf(why_ret, "the verifier command timed out");
	else if (!broken && found)
		rc = asprintf(why_ret, "%u problem line%s but no line "
			      "matching --broken '%s' (the input itself was "
			      "rejected?)", nprob, nprob == 1 ? "" : "s",
			      v->broken);
	else if (!found && nprob)
		rc = asprintf(why_ret, "%u problem line%s, none of check "
			      "'%s'", nprob, nprob == 1 ? "" : "s", want);
	else if (!found)
		rc = asprintf(why_ret, "no problem line%s%s%s (exit status "
			      "%d)", v->problem ? " matching --problem '" : "",
			      v->problem ? v->problem : "",
			      v->problem ? "'" : "",
			      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (rc < 0) {
		*why_ret = NULL;
		free(found);
		return &irs_enomem;
	}
	if (*why_ret) {
		free(found);
		return NULL;
	}
	*check_ret = found;
	return NULL;
}

struct irs_error *
reduce_verifier_expect(const struct irs_reduce_config *cfg)
{
	struct reduce_verifier v = {cfg->verifier_cmd, cfg->problem,
				    cfg->broken, cfg->timeout,
				    cfg->no_shell};
	char *check, *why;
	struct irs_error *err = reduce_verifier_check(&v, cfg->input,
						      cfg->expect_check,
						      &check, &why);
	if (err)
		return err;
	free(check);
	if (!why)
		return NULL;
	err = irs_error_format(IRS_ERROR_STATE, "not reproduced: %s", why);
	free(why);
	return err;
}

struct irs_error *
reduce_verifier_test(const struct reduce_verifier *v, const char *input,
		     char **cmd_ret, char **check_ret)
{
	char *check, *why, self[4096];
	struct irs_error *err = reduce_verifier_check(v, input, NULL, &check,
						      &why);
	if (err)
		return err;
	if (why) {
		err = irs_error_format(IRS_ERROR_STATE, "%s: the verifier does "
				       "not fail on the input: %s", input, why);
		free(why);
		return err;
	}
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	// The reducer replaces every {} of its test with the candidate: the
	// verifier command inside says {input} instead.
	struct irs_buf b, inner;
	irs_buf_init(&b);
	irs_buf_init(&inner);
	for (const char *p = v->cmd; *p; p++) {
		if (p[0] == '{' && p[1] == '}')
			irs_buf_puts(&inner, "{input}"), p++;
		else
			irs_buf_append(&inner, p, 1);
	}
	irs_shell_quote(&b, n > 0 ? self : "irsnap");
	irs_buf_puts(&b, " reduce {} --verifier ");
	irs_shell_quote(&b, inner.data ? inner.data : "");
	if (v->problem) {
		irs_buf_puts(&b, " --problem ");
		irs_shell_quote(&b, v->problem);
	}
	if (v->broken) {
		irs_buf_puts(&b, " --broken ");
		irs_shell_quote(&b, v->broken);
	}
	if (v->timeout > 0)
		irs_buf_printf(&b, " --timeout %g", v->timeout);
	if (v->no_shell)
		irs_buf_puts(&b, " --no-shell");
	irs_buf_puts(&b, " --expect-check ");
	irs_shell_quote(&b, check);
	bool oom = b.oom || inner.oom;
	irs_buf_deinit(&inner);
	if (oom) {
		irs_buf_deinit(&b);
		free(check);
		return &irs_enomem;
	}
	*cmd_ret = irs_buf_steal(&b);
	*check_ret = check;
	return NULL;
}
