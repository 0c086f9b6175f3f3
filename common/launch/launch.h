/*
 * launch/launch.h — the launch area, linked into the CLI only: running a
 * debugger in batch mode with irsnap loaded, for the irsnap tool's batch
 * jobs: `irsnap replay` (tools/replay.c) and `irsnap reduce --layout`
 * (reduce/snapshot.c). Finding programs, the debugger and
 * irsnap's front end for it; running a child with a timeout; reading why a
 * debugger run did nothing from its log. May use: run/ (failure.json,
 * run directories), util/.
 */
#ifndef IRSNAP_LAUNCH_H
#define IRSNAP_LAUNCH_H

#include <signal.h>
#include <sys/types.h>

#include "run/run.h"

/** True when @p path is a regular file that access() allows @p mode on. */
bool irs_is_file(const char *path, int mode);

/** The executable @p name runs as: @p name itself when it holds a '/',
 *  else the first in $PATH; absolute, freed with free(). NULL when there
 *  is none (or on OOM). */
char *irs_which(const char *name);

/** The debugger @p debugger ("gdb" or "lldb") from $PATH (lldb-14 before
 *  lldb); *ret absolute, freed with free(). IRS_ERROR_NOT_FOUND naming the
 *  package to install. */
struct irs_error *irs_debugger_find(const char *debugger, char **ret);

/**
 * irsnap's front end for @p debugger: gdb/irsnap.py or libirsnap-lldb.so,
 * under $IRSNAP_ROOT (a source tree), else beside @p self (the irsnap
 * executable, an absolute path) in a built tree (build/irsnap) or an
 * installed one (PREFIX/bin/irsnap). *ret freed with free().
 * IRS_ERROR_NOT_FOUND naming what was looked for.
 */
struct irs_error *irs_frontend_find(const char *debugger, const char *self,
				    char **ret);

/**
 * The directory holding LLDB 14's Python module (lldb/__init__.py and
 * embedded_interpreter.py), or NULL. Debian's python3-lldb-14 puts it in
 * /usr/lib/llvm-14/lib/python3.X/dist-packages, where `lldb-14 -P` does
 * not look (it names /usr/lib/local/...), and its /usr/lib/python3 link
 * holds only the shared objects, so LLDB starts with "ModuleNotFoundError:
 * No module named 'lldb.embedded_interpreter'" unless PYTHONPATH names
 * this directory; irsnap sets it for the LLDB it starts. Freed with free().
 */
char *irs_lldb_python_dir(void);
/** "CMD 'ARG'" (ARG shell-quoted, as the console splits it), one argument
 *  of the debugger's -ex or -o; @p arg NULL gives CMD. NULL on OOM. */
char *irs_debugger_cmd(const char *cmd, const char *arg);

/**
 * Runs @p argv (argv[0] a path) with stdin from /dev/null and stdout and
 * stderr into the file @p log, in its own process group so that a timeout
 * or ^C takes down a debugger and its debuggee together. The environment
 * is ours without DEBUGINFOD_URLS (a debugger must not wait on the network
 * for symbols), with IRSNAP_DIR=@p irsnap_dir when that is not NULL.
 * *status_ret gets the wait status, or -1 when @p timeout seconds passed
 * or *@p interrupted became non-zero (then the group was killed).
 */
struct irs_error *irs_child_run(char *const *argv, const char *log,
				const char *irsnap_dir, double timeout,
				volatile sig_atomic_t *interrupted,
				int *status_ret);

/** A child started by irs_child_start(); pid 0 once it was waited for. */
struct irs_child {
	pid_t pid;
	double deadline;	/* CLOCK_MONOTONIC seconds */
};

/**
 * Starts @p argv as irs_child_run() does, with the entries of @p extra_env
 * ("NAME=VALUE", NULL-terminated, or NULL) added to its environment, and
 * returns at once. Wait for it with irs_child_wait_any().
 */
struct irs_error *irs_child_start(char *const *argv, const char *log,
				  const char *irsnap_dir,
				  const char *const *extra_env, double timeout,
				  struct irs_child *ret);
/**
 * Waits until one of the @p n children with a pid ends, passes its
 * deadline or *@p interrupted becomes non-zero (then its process group is
 * killed and its status is -1). *index_ret names it (its pid is then 0),
 * *status_ret its wait status. IRS_ERROR_STATE when none has a pid.
 */
struct irs_error *irs_child_wait_any(struct irs_child *children, size_t n,
				     volatile sig_atomic_t *interrupted,
				     size_t *index_ret, int *status_ret);

/** How much a line of debugger output explains (irs_debugger_log_reason). */
enum {
	IRS_LOG_OTHER = 0,	/* any line */
	IRS_LOG_EXIT = 1,	/* the program's exit */
	IRS_LOG_PYTHON = 2,	/* the exception ending a Python traceback */
	IRS_LOG_IRSNAP = 3,	/* an ir-* command's or a layout's error */
	IRS_LOG_LLDB = 4,	/* LLDB's "error: " */
};

/**
 * The line of debugger output @p text that best says why the run did
 * nothing: the first of the highest IRS_LOG_* rank, else the last line.
 * Points into @p text; *len_ret its length (no newline), *rank_ret (when
 * not NULL) its rank. NULL for an empty text.
 */
const char *irs_debugger_log_reason(const char *text, size_t *len_ret,
				    int *rank_ret);

#endif
