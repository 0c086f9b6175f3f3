// Running a debugger in batch mode with irsnap loaded: finding the
// debugger and irsnap's front end for it, running it as a child with a
// timeout, and reading why it did nothing from its log. Shared by
// `irsnap replay` and `irsnap reduce --layout`.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "debugger.h"
#include "session.h"

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
		irs_buf_shell_quote(&b, arg);	// the console splits as sh does
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

/* }==== */

/* {==== Running a child ================================================== */

static void
free_env(char **envp)
{
	for (char **e = envp; *e; e++)
		free(*e);
	free(envp);
}

// The child's environment: ours, with IRSNAP_DIR set to @p irsnap_dir
// (when not NULL) and without DEBUGINFOD_URLS.
static char **
child_env(const char *irsnap_dir)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **envp = calloc(n + 2, sizeof(*envp));
	if (!envp)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(environ[i], "DEBUGINFOD_URLS=", 16) ||
		    (irsnap_dir && !strncmp(environ[i], "IRSNAP_DIR=", 11)))
			continue;
		if (!(envp[k++] = strdup(environ[i])))
			goto oom;
	}
	if (irsnap_dir && asprintf(&envp[k++], "IRSNAP_DIR=%s", irsnap_dir) < 0)
		goto oom;
	return envp;
oom:
	envp[k - 1] = NULL;
	free_env(envp);
	return NULL;
}

struct irs_error *
irs_child_run(char *const *argv, const char *log, const char *irsnap_dir,
	      double timeout, volatile sig_atomic_t *interrupted,
	      int *status_ret)
{
	char **envp = child_env(irsnap_dir);
	if (!envp)
		return &irs_enomem;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		free_env(envp);
		return irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
					log, strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(fd);
		free_env(envp);
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
	free_env(envp);
	setpgid(pid, pid);	// also here: no race with the child's own
	double deadline = now() + timeout;
	int status;
	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return irs_error_format(IRS_ERROR_IO,
						"waiting for %s: %s", argv[0],
						strerror(errno));
		if ((interrupted && *interrupted) || now() > deadline) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			status = -1;
			break;
		}
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
	*status_ret = status;
	return NULL;
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
