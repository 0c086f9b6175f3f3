// The reducer's test runner: candidates tested in parallel, each in a
// fresh directory of its own, each test a process group of its own so a
// timeout (or Ctrl-C) kills the whole group, helpers and grandchildren
// included, not just the shell.
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reduce/reduce.h"

extern char **environ;

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void
reduce_rmtree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

struct irs_error *
reduce_exec_init(struct reduce_exec *x, const char *cmd, bool crash_mode,
		 const char *input_name, uint32_t jobs, double timeout,
		 uint32_t retries, volatile sig_atomic_t *interrupted)
{
	struct irs_error *err;

	memset(x, 0, sizeof(*x));
	x->cmd = cmd;
	x->crash_mode = crash_mode;
	x->jobs = jobs ? jobs : 1;
	x->timeout = timeout > 0 ? timeout : 60;
	x->retries = retries;
	x->interrupted = interrupted;
	const char *base = strrchr(input_name, '/');
	base = base ? base + 1 : input_name;
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		base = "candidate";
	if (!(x->filename = strdup(base)))
		return &irs_enomem;
	if (crash_mode && (err = reduce_crashsig_lib(&x->preload))) {
		reduce_exec_deinit(x);
		return err;
	}
	const char *tmp = getenv("TMPDIR");
	if (asprintf(&x->tmpdir, "%s/irsnap-reduce.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") < 0) {
		x->tmpdir = NULL;
		reduce_exec_deinit(x);
		return &irs_enomem;
	}
	if (!mkdtemp(x->tmpdir)) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
				       x->tmpdir, strerror(errno));
		free(x->tmpdir);
		x->tmpdir = NULL;
		reduce_exec_deinit(x);
		return err;
	}
	return NULL;
}

void
reduce_exec_deinit(struct reduce_exec *x)
{
	if (x->tmpdir)
		reduce_rmtree(x->tmpdir);
	free(x->tmpdir);
	free(x->filename);
	free(x->preload);
	reduce_symcache_destroy(x->syms);
	memset(x, 0, sizeof(*x));
}

/* {=== one test process ==================================================== */

struct slot {
	pid_t pid;		/* 0: free */
	int pidfd;		/* -1: poll by timer */
	uint32_t cand;
	double deadline;
	char *dir, *sigfile, *errfile, *cmdline;
	char **env;
};

static void
slot_free(struct slot *s)
{
	if (s->pidfd >= 0)
		close(s->pidfd);
	if (s->dir)
		reduce_rmtree(s->dir);
	if (s->sigfile)
		unlink(s->sigfile);
	if (s->errfile)
		unlink(s->errfile);
	free(s->dir);
	free(s->sigfile);
	free(s->errfile);
	free(s->cmdline);
	irs_env_free(s->env);
	memset(s, 0, sizeof(*s));
	s->pidfd = -1;
}

char *
reduce_expand_cmd(const char *cmd, const char *path)
{
	struct irs_buf b;
	irs_buf_init(&b);
	for (const char *p = cmd; *p; p++) {
		if (p[0] == '{' && p[1] == '}') {
			irs_shell_quote(&b, path);
			p++;
		} else {
			irs_buf_append(&b, p, 1);
		}
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

struct irs_error *
reduce_cmd_words(const char *cmd, const char *path, bool verifier,
		 char ***ret)
{
	char **w;
	struct irs_error *err = irs_shell_split(cmd, &w);
	if (err)
		return err;
	if (!w[0]) {
		irs_shell_words_free(w);
		return irs_error_format(IRS_ERROR_USAGE, "empty command");
	}
	size_t n = 0;
	bool placed = false;
	for (; w[n]; n++) {
		if (!strchr(w[n], '{'))
			continue;
		struct irs_buf b;
		irs_buf_init(&b);
		irs_buf_puts(&b, "");
		for (const char *p = w[n]; *p; ) {
			size_t k = !strncmp(p, "{}", 2) ? 2
				   : verifier && !strncmp(p, "{input}", 7) ? 7
				   : 0;
			if (k) {
				irs_buf_puts(&b, path);
				placed = true;
				p += k;
			} else {
				irs_buf_append(&b, p++, 1);
			}
		}
		if (b.oom) {
			irs_buf_deinit(&b);
			irs_shell_words_free(w);
			return &irs_enomem;
		}
		free(w[n]);
		w[n] = irs_buf_steal(&b);
	}
	if (verifier && !placed) {	// the file goes last
		char **more = realloc(w, (n + 2) * sizeof(*w));
		if (!more || !(more[n] = strdup(path))) {
			irs_shell_words_free(more ? more : w);
			return &irs_enomem;
		}
		more[n + 1] = NULL;
		w = more;
	}
	*ret = w;
	return NULL;
}

// Our environment with the crash-signature library preloaded and told
// where to write, for crash mode.
static char **
crash_env(const struct reduce_exec *x, const char *sigfile)
{
	const char *old = getenv("LD_PRELOAD");
	char *set[3] = {0};
	if (asprintf(&set[0], "LD_PRELOAD=%s%s%s", x->preload,
		     old && *old ? ":" : "", old ? old : "") < 0)
		set[0] = NULL;
	if (asprintf(&set[1], "IRSNAP_CRASHSIG_FILE=%s", sigfile) < 0)
		set[1] = NULL;
	char **env = set[0] && set[1]
		     ? irs_env_edit((const char *const *)set, NULL) : NULL;
	free(set[0]);
	free(set[1]);
	return env;
}

static struct irs_error *
slot_start(struct reduce_exec *x, struct slot *s, uint32_t cand,
	   const char *text, size_t len)
{
	struct irs_error *err;
	char *path = NULL;

	uint32_t serial = x->serial++;
	s->cand = cand;
	if (asprintf(&s->dir, "%s/t%u", x->tmpdir, serial) < 0 ||
	    asprintf(&s->sigfile, "%s/t%u.sig", x->tmpdir, serial) < 0 ||
	    asprintf(&s->errfile, "%s/t%u.err", x->tmpdir, serial) < 0 ||
	    asprintf(&path, "%s/%s", s->dir, x->filename) < 0) {
		err = &irs_enomem;
		goto fail;
	}
	if (mkdir(s->dir, 0700) != 0) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
				       s->dir, strerror(errno));
		goto fail;
	}
	if ((err = irs_file_write(path, text, len)))
		goto fail;
	s->cmdline = reduce_expand_cmd(x->cmd, path);
	s->env = x->crash_mode ? crash_env(x, s->sigfile) : NULL;
	if (!s->cmdline || (x->crash_mode && !s->env)) {
		err = &irs_enomem;
		goto fail;
	}
	if (irs_debug('R'))
		fprintf(stderr, "reduce: test %u: %s\n", serial, s->cmdline);
	char *sh_argv[] = {"sh", "-c", s->cmdline, NULL};
	char **words = NULL;
	if (x->no_shell && (err = reduce_cmd_words(x->cmd, path, false, &words)))
		goto fail;
	char **envp = s->env ? s->env : environ;
	pid_t pid = fork();
	if (pid < 0) {
		irs_shell_words_free(words);
		err = irs_error_format(IRS_ERROR_IO, "fork: %s",
				       strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		// The child: only async-signal-safe calls until exec.
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		// stderr is kept, outside the test's directory, so a test
		// that is not interesting on the input can be shown.
		int null = open("/dev/null", O_RDWR);
		int errfd = open(s->errfile, O_WRONLY | O_CREAT | O_TRUNC,
				 0600);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(errfd >= 0 ? errfd : null, 2);
		}
		if (chdir(s->dir) != 0)
			_exit(127);
		if (words)
			execvpe(words[0], words, envp);
		else
			execve("/bin/sh", sh_argv, envp);
		_exit(errno == ENOENT ? 127 : 126);	// as sh says it
	}
	irs_shell_words_free(words);
	setpgid(pid, pid);	// both sides, so no kill() races the child
	s->pid = pid;
	s->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	s->deadline = now() + x->timeout;
	free(path);
	return NULL;
fail:
	free(path);
	slot_free(s);
	return err;
}

// The verdict of a finished run with wait status `status`.
static uint8_t
judge(struct reduce_exec *x, struct slot *s, int status,
      struct reduce_crashsig *sig_ret)
{
	if (!x->crash_mode)
		return WIFEXITED(status) && WEXITSTATUS(status) == 0
		       ? VERDICT_INTERESTING : VERDICT_BORING;
	struct reduce_crashsig sig;
	if (!reduce_crashsig_read(s->sigfile, &x->syms, &sig))
		return VERDICT_BORING;
	if (sig_ret) {		// learning the input's signature
		*sig_ret = sig;
		return VERDICT_INTERESTING;
	}
	return reduce_crashsig_equal(&sig, &x->want) ? VERDICT_INTERESTING
						     : VERDICT_BORING;
}

// What the last finished run said: its wait status (-1: timed out) and
// the first bytes of its stderr.
static void
keep_last(struct reduce_exec *x, const struct slot *s, int status)
{
	x->last_status = status;
	x->last_stderr[0] = '\0';
	int fd = open(s->errfile, O_RDONLY);
	if (fd < 0)
		return;
	ssize_t n = read(fd, x->last_stderr, sizeof(x->last_stderr) - 1);
	x->last_stderr[n > 0 ? n : 0] = '\0';
	close(fd);
}

/* }=== */

// Waits until some running slot may have finished or hit its deadline.
static void
wait_some(struct slot *slots, uint32_t nslots)
{
	struct pollfd pfd[64];
	nfds_t n = 0;
	double t = now(), next = t + 1;
	bool blind = false;
	for (uint32_t i = 0; i < nslots && n < ARRAY_SIZE(pfd); i++) {
		if (!slots[i].pid)
			continue;
		if (slots[i].deadline < next)
			next = slots[i].deadline;
		if (slots[i].pidfd < 0)
			blind = true;
		else
			pfd[n++] = (struct pollfd){slots[i].pidfd, POLLIN, 0};
	}
	double wait = next - t;
	if (blind && wait > 0.005)
		wait = 0.005;	// no pidfd (old kernel): poll the clock
	int ms = wait <= 0 ? 0 : (int)(wait * 1000) + 1;
	poll(pfd, n, ms);	// EINTR (SIGINT) just returns early
}

struct irs_error *
reduce_exec_batch(struct reduce_exec *x, const char *const *texts,
		  const size_t *lens, uint32_t n, uint8_t *verdicts,
		  struct reduce_crashsig *sig_ret)
{
	struct irs_error *err = NULL;
	uint32_t nslots = x->jobs < n ? x->jobs : n;
	if (nslots > 64)
		nslots = 64;
	struct slot *slots = calloc(nslots ? nslots : 1, sizeof(*slots));
	uint32_t *tries = calloc(n ? n : 1, sizeof(*tries));
	uint32_t *queue = malloc((n ? n : 1) * sizeof(*queue));
	if (!slots || !tries || !queue) {
		free(slots);
		free(tries);
		free(queue);
		return &irs_enomem;
	}
	for (uint32_t i = 0; i < nslots; i++)
		slots[i].pidfd = -1;
	// The queue holds candidates to (re)run; retries go to its back.
	uint32_t qhead = 0, qtail = 0, running = 0;
	for (uint32_t i = 0; i < n; i++) {
		verdicts[i] = VERDICT_INTERRUPTED;
		queue[qtail++ % n] = i;
	}
	while ((qhead != qtail || running) && !err) {
		bool stop = x->interrupted && *x->interrupted;
		for (uint32_t i = 0; i < nslots && qhead != qtail && !stop;
		     i++) {
			if (slots[i].pid)
				continue;
			uint32_t c = queue[qhead++ % n];
			err = slot_start(x, &slots[i], c, texts[c], lens[c]);
			if (err)
				break;
			tries[c]++;
			running++;
		}
		if (err || !running)
			break;
		wait_some(slots, nslots);
		stop = x->interrupted && *x->interrupted;
		double t = now();
		for (uint32_t i = 0; i < nslots; i++) {
			struct slot *s = &slots[i];
			int status = 0;
			if (!s->pid)
				continue;
			pid_t w = waitpid(s->pid, &status, WNOHANG);
			bool late = w == 0 && t >= s->deadline;
			if (w == 0 && !late && !stop)
				continue;
			kill(-s->pid, SIGKILL);	// the group's stragglers too
			if (w == 0)
				waitpid(s->pid, &status, 0);
			uint32_t c = s->cand;
			uint8_t v;
			if (w == 0 && !late) {
				v = VERDICT_INTERRUPTED;
			} else if (late) {
				v = VERDICT_TIMEOUT;
				x->timeouts++;
				x->runs++;
			} else {
				v = judge(x, s, status, sig_ret);
				x->runs++;
				if (v == VERDICT_INTERESTING)
					x->interesting++;
				else
					x->boring++;
			}
			verdicts[c] = v;
			if (v != VERDICT_INTERRUPTED)
				keep_last(x, s, late ? -1 : status);
			if (v == VERDICT_BORING && tries[c] <= x->retries &&
			    !stop)
				queue[qtail++ % n] = c;	// flaky? once more
			slot_free(s);
			running--;
		}
		if (stop)
			qhead = qtail;	// start nothing more
	}
	for (uint32_t i = 0; i < nslots; i++) {
		if (slots[i].pid) {
			kill(-slots[i].pid, SIGKILL);
			waitpid(slots[i].pid, NULL, 0);
		}
		slot_free(&slots[i]);
	}
	free(slots);
	free(tries);
	free(queue);
	return err;
}
