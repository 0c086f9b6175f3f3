// Running a debugger in batch mode with irsnap loaded: finding the
// debugger and irsnap's front end for it, running it as a child with a
// timeout, and reading why it did nothing from its log. Shared by
// `irsnap replay` and `irsnap reduce --layout`.
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch/launch.h"

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool
irs_is_file(const char *path, int mode)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, mode) == 0;
}

/* {==== Finding the debugger, the front end and programs ================ */

char *
irs_which(const char *name)
{
	if (!*name)
		return NULL;
	if (strchr(name, '/'))
		return irs_is_file(name, X_OK) ? realpath(name, NULL) : NULL;
	const char *path = getenv("PATH");
	char *copy = strdup(path && *path ? path : "/usr/bin:/bin");
	char *found = NULL;
	for (char *save = NULL, *d = copy ? strtok_r(copy, ":", &save) : NULL;
	     d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = irs_path_join(d, name);
		if (p && irs_is_file(p, X_OK))
			found = realpath(p, NULL);
		free(p);
	}
	free(copy);
	return found;
}

struct irs_error *
irs_debugger_find(const char *debugger, char **ret)
{
	bool gdb = !strcmp(debugger, "gdb");
	char *exe = irs_which(gdb ? "gdb" : "lldb-14");
	if (!exe && !gdb)
		exe = irs_which("lldb");
	if (!exe)
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"%s not found in PATH; install it with:"
					" apt-get install %s", gdb ? "gdb"
					: "lldb-14", gdb ? "gdb" : "lldb-14");
	*ret = exe;
	return NULL;
}

// The first of @p rels (relative to @p base, NULL-terminated) that exists.
static char *
first_file(const char *base, const char *const *rels)
{
	for (; base && *rels; rels++) {
		char *p = irs_path_join(base, *rels);
		if (p && irs_is_file(p, R_OK))
			return p;
		free(p);
	}
	return NULL;
}

struct irs_error *
irs_frontend_find(const char *debugger, const char *self, char **ret)
{
	static const char *const gdb_root[] = {"gdb/irsnap.py", NULL};
	static const char *const gdb_bin[] = {
		"../gdb/irsnap.py", "../share/irsnap/gdb/irsnap.py", NULL};
	static const char *const lldb_root[] = {
		"build/libirsnap-lldb.so", NULL};
	static const char *const lldb_bin[] = {
		"libirsnap-lldb.so", "../lib/libirsnap-lldb.so", NULL};
	bool gdb = !strcmp(debugger, "gdb");
	const char *root = getenv("IRSNAP_ROOT");
	char *found = NULL;
	char *bindir = strdup(self);
	if (!bindir)
		return &irs_enomem;
	char *slash = strrchr(bindir, '/');
	if (slash)
		*slash = '\0';
	if (gdb)
		found = first_file(root, gdb_root);
	if (!found && slash)
		found = first_file(bindir, gdb ? gdb_bin : lldb_bin);
	if (!found && !gdb)
		found = first_file(root, lldb_root);
	free(bindir);
	if (!found)
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"%s not found beside %s%s%s; build it "
					"with make or set IRSNAP_ROOT",
					gdb ? "gdb/irsnap.py"
					: "libirsnap-lldb.so", self,
					root ? " or under " : "",
					root ? root : "");
	*ret = found;
	return NULL;
}

char *
irs_debugger_cmd(const char *cmd, const char *arg)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, cmd);
	if (arg) {
		irs_buf_puts(&b, " ");
		irs_shell_quote(&b, arg);	// the console splits as sh does
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

/* }==== */

/* {==== Running a child ================================================== */

char *
irs_lldb_python_dir(void)
{
	glob_t g;
	char *dir = NULL;
	if (glob("/usr/lib/llvm-14/lib/python3*/dist-packages/lldb/"
		 "embedded_interpreter.py", 0, NULL, &g) == 0 && g.gl_pathc) {
		const char *p = g.gl_pathv[g.gl_pathc - 1];	// the newest
		dir = strndup(p, strlen(p) - strlen("/lldb/"
						    "embedded_interpreter.py"));
	}
	globfree(&g);
	return dir;
}

// PYTHONPATH=DIR[:$PYTHONPATH] for LLDB 14 (irs_lldb_python_dir()), or
// NULL when there is no such directory. Freed with free().
static char *
lldb_pythonpath(void)
{
	char *dir = irs_lldb_python_dir(), *env = NULL;
	const char *old = getenv("PYTHONPATH");
	if (dir && asprintf(&env, "PYTHONPATH=%s%s%s", dir,
			    old && *old ? ":" : "", old ? old : "") < 0)
		env = NULL;
	free(dir);
	return env;
}

// The child's environment: ours, with IRSNAP_DIR set to @p irsnap_dir
// (when not NULL), the entries of @p extra, LLDB's Python module for an
// LLDB (@p lldb), and without DEBUGINFOD_URLS.
static char **
child_env(const char *irsnap_dir, const char *const *extra, bool lldb)
{
	const char *set[16];
	size_t n = 0;
	char *dir = NULL, *py = lldb ? lldb_pythonpath() : NULL;
	if (irsnap_dir && asprintf(&dir, "IRSNAP_DIR=%s", irsnap_dir) < 0) {
		free(py);
		return NULL;
	}
	if (dir)
		set[n++] = dir;
	if (py)
		set[n++] = py;
	for (size_t i = 0; extra && extra[i] && n < ARRAY_SIZE(set) - 1; i++)
		set[n++] = extra[i];
	set[n] = NULL;
	static const char *const unset[] = {"DEBUGINFOD_URLS", NULL};
	char **env = irs_env_edit(set, unset);
	free(dir);
	free(py);
	return env;
}

struct irs_error *
irs_child_start(char *const *argv, const char *log, const char *irsnap_dir,
		const char *const *extra_env, double timeout,
		struct irs_child *ret)
{
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	char **envp = child_env(irsnap_dir, extra_env,
				!strncmp(base, "lldb", 4));
	if (!envp)
		return &irs_enomem;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		irs_env_free(envp);
		return irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
					log, strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(fd);
		irs_env_free(envp);
		return irs_error_format(IRS_ERROR_IO, "cannot fork %s: %s",
					argv[0], strerror(errno));
	}
	if (pid == 0) {	// only async-signal-safe calls from here on
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		setpgid(0, 0);
		if (null < 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0 ||
		    dup2(fd, 2) < 0)
			_exit(127);
		execve(argv[0], argv, envp);
		static const char msg[] = "irsnap: cannot run the debugger\n";
		if (write(2, msg, sizeof(msg) - 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(fd);
	irs_env_free(envp);
	setpgid(pid, pid);	// also here: no race with the child's own
	*ret = (struct irs_child){.pid = pid, .deadline = now() + timeout};
	return NULL;
}

struct irs_error *
irs_child_wait_any(struct irs_child *children, size_t n,
		   volatile sig_atomic_t *interrupted, size_t *index_ret,
		   int *status_ret)
{
	for (;;) {
		bool any = false;
		for (size_t i = 0; i < n; i++) {
			struct irs_child *c = &children[i];
			if (c->pid <= 0)
				continue;
			any = true;
			int status;
			pid_t got = waitpid(c->pid, &status, WNOHANG);
			if (got < 0 && errno != EINTR)
				return irs_error_format(IRS_ERROR_IO,
					"waiting for process %d: %s",
					(int)c->pid, strerror(errno));
			if (got != c->pid &&
			    !(interrupted && *interrupted) &&
			    now() <= c->deadline)
				continue;
			if (got != c->pid) {	// timed out or interrupted
				kill(-c->pid, SIGKILL);
				while (waitpid(c->pid, &status, 0) < 0 &&
				       errno == EINTR)
					;
				status = -1;
			}
			c->pid = 0;
			*index_ret = i;
			*status_ret = status;
			return NULL;
		}
		if (!any)
			return irs_error_create(IRS_ERROR_STATE,
						"no child to wait for");
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
}

struct irs_error *
irs_child_run(char *const *argv, const char *log, const char *irsnap_dir,
	      double timeout, volatile sig_atomic_t *interrupted,
	      int *status_ret)
{
	struct irs_child c;
	size_t i;
	struct irs_error *err = irs_child_start(argv, log, irsnap_dir, NULL,
						timeout, &c);
	return err ? err
		   : irs_child_wait_any(&c, 1, interrupted, &i, status_ret);
}

/* }==== */

/* {==== Reading the log ================================================== */

// How much line @p p (of @p len bytes) explains why nothing happened:
// 4 for LLDB's "error: ", 3 for a layout's "FILE.lua:LINE: " or an ir-*
// command's "ir-trace: ", 2 for the exception ending a Python traceback
// ("OSError: ..."), 1 for the program's exit ("[Inferior 1 (process 42)
// exited with code 01]", "Process 42 exited with status = 1"), else 0.
static int
explain_rank(const char *p, size_t len)
{
	if (!strncmp(p, "error: ", 7))
		return 4;
	const char *lua = memmem(p, len, ".lua:", 5);
	if (!strncmp(p, "ir-", 3) || (lua && lua[5] >= '0' && lua[5] <= '9'))
		return 3;
	const char *colon = memchr(p, ':', len);
	if (colon && colon - p > 5 && !memcmp(colon - 5, "Error", 5) &&
	    !memchr(p, ' ', (size_t)(colon - p)))
		return 2;
	return memmem(p, len, " exited ", 8) != NULL;
}

// The first line of the best rank, else the last line. LLDB's log is read
// from its first command on: Debian's LLDB 14 starts with a harmless
// Python traceback.
const char *
irs_debugger_log_reason(const char *text, size_t *len_ret, int *rank_ret)
{
	const char *best = NULL, *p = strstr(text, "(lldb) ");
	size_t best_len = 0;
	int best_rank = -1;
	for (p = p ? p : text; *p;) {
		size_t l = strcspn(p, "\n");
		int rank = l ? explain_rank(p, l) : -1;
		if (rank > best_rank || (rank == 0 && best_rank == 0)) {
			best = p;	// the first of a rank, the last of 0
			best_len = l;
			best_rank = rank;
		}
		p += l + (p[l] == '\n');
	}
	*len_ret = best_len;
	if (rank_ret)
		*rank_ret = best_rank;
	return best;
}

/* }==== */
