// Calling a `call` verifier in the debuggee with what it prints captured.
//
// A compiler's verifier prints its findings (toyc_verify to the FILE * it
// is given, LLVM's verifyModule to errs(), that is fd 2) in the debuggee,
// where the debugger never sees them. So around the call irsnap points the
// debuggee's fds 1 and 2 at a temporary file of its own (tmpfile()),
// flushing stdio before and after, puts them back, and reads the file
// through /proc/PID/fd. These are calls of libc functions with integer
// arguments irsnap built, made only where the user asked for a call
// verifier; when one of them fails the verifier still runs, uncaptured,
// and the reason is given.
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "console/console.h"

// The most output kept from one verifier call.
enum { CAPTURE_MAX = 1 << 20 };

// Calls @p fmt (a libc call through a typed function pointer, so that a
// libc without debug info works in GDB and LLDB) and returns its int.
static struct irs_error *
libc_call(struct irs_console *c, int64_t *ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct irs_error *
libc_call(struct irs_console *c, int64_t *ret, const char *fmt, ...)
{
	char expr[256];
	va_list ap;
	uint64_t v;

	va_start(ap, fmt);
	vsnprintf(expr, sizeof(expr), fmt, ap);
	va_end(ap);
	struct irs_error *err = console_eval(c, expr, EVAL_CALL, &v);
	if (!err)
		*ret = (int64_t)v;
	return err;
}

// An int result: the low 32 bits, whatever the debugger extended.
static int32_t
as_int(int64_t v)
{
	return (int32_t)(uint32_t)v;
}

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct capture {
	int32_t saved[2];	// dups of the debuggee's fds 1 and 2, or -1
	uint64_t fp;		// its FILE * of the temporary file, or 0
	int32_t fd;		// that file's fd in the debuggee, or -1
};

// Points the debuggee's fds 1 and 2 at a new temporary file. On error
// what was done stays in @p cap for restore().
static struct irs_error *
redirect(struct irs_console *c, struct capture *cap)
{
	struct irs_error *err;
	int64_t v;

	if ((err = libc_call(c, &v, "((int (*)(void *))fflush)((void *)0)")))
		return err;
	for (int i = 0; i < 2; i++) {
		if ((err = libc_call(c, &v, "((int (*)(int))dup)(%d)", i + 1)))
			return err;
		if (as_int(v) < 0)
			return irs_error_format(IRS_ERROR_TARGET,
				"dup(%d) failed in the debuggee", i + 1);
		cap->saved[i] = as_int(v);
	}
	if ((err = libc_call(c, &v, "((void *(*)(void))tmpfile)()")))
		return err;
	if (!v)
		return irs_error_format(IRS_ERROR_TARGET, "tmpfile() failed "
					"in the debuggee");
	cap->fp = (uint64_t)v;
	if ((err = libc_call(c, &v, "((int (*)(void *))fileno)((void *)0x%"
			     PRIx64 ")", cap->fp)))
		return err;
	if (as_int(v) < 0)
		return irs_error_format(IRS_ERROR_TARGET, "fileno() failed in "
					"the debuggee");
	cap->fd = as_int(v);
	for (int i = 0; i < 2; i++) {
		if ((err = libc_call(c, &v, "((int (*)(int, int))dup2)(%d, %d)",
				     cap->fd, i + 1)))
			return err;
		if (as_int(v) < 0)
			return irs_error_format(IRS_ERROR_TARGET,
				"dup2() failed in the debuggee");
	}
	return NULL;
}

// Puts fds 1 and 2 back and closes what redirect() opened; best effort
// (after a call that killed the debuggee there is nothing to restore).
static void
restore(struct irs_console *c, struct capture *cap)
{
	int64_t v;
	struct irs_error *err;

	err = libc_call(c, &v, "((int (*)(void *))fflush)((void *)0)");
	irs_error_destroy(err);
	for (int i = 0; i < 2; i++) {
		if (cap->saved[i] < 0)
			continue;
		err = libc_call(c, &v, "((int (*)(int, int))dup2)(%d, %d)",
				cap->saved[i], i + 1);
		irs_error_destroy(err);
		err = libc_call(c, &v, "((int (*)(int))close)(%d)",
				cap->saved[i]);
		irs_error_destroy(err);
	}
}

// Reads the temporary file through /proc/PID/fd/FD, while it is open.
static struct irs_error *
read_capture(struct irs_console *c, const struct capture *cap, char **ret)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%" PRId64 "/fd/%d", c->t->pid,
		 cap->fd);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return irs_error_format(IRS_ERROR_IO, "cannot open %s", path);
	char *buf = malloc(CAPTURE_MAX + 1);
	if (!buf) {
		close(fd);
		return &irs_enomem;
	}
	size_t n = 0;
	for (ssize_t got; n < CAPTURE_MAX &&
	     (got = pread(fd, buf + n, CAPTURE_MAX - n, (off_t)n)) > 0;)
		n += (size_t)got;
	close(fd);
	buf[n] = 0;
	*ret = buf;
	return NULL;
}

struct irs_error *
console_call_captured(struct irs_console *c, const char *expr,
		      uint64_t *value_ret, char **output_ret,
		      char **nocapture_ret)
{
	struct capture cap = {{-1, -1}, 0, -1};
	struct irs_error *err, *why;
	int64_t v;

	*output_ret = NULL;
	*nocapture_ret = NULL;
	why = c->t->pid ? redirect(c, &cap) :
	      irs_error_format(IRS_ERROR_STATE, "no live process");
	if (why) {
		restore(c, &cap);
		cap.saved[0] = cap.saved[1] = -1;
	}
	double t0 = now();
	err = console_eval(c, expr, EVAL_CALL, value_ret);
	uint32_t limit = irs_console_call_timeout(c);
	if (err && limit && now() - t0 >= limit) {
		// The front end interrupted it (GDB: SIGINT from a timer,
		// LLDB: the expression's timeout); each says so its own way.
		irs_error_destroy(err);
		err = irs_error_format(IRS_ERROR_INTERRUPTED, "'%s' did not "
			"return within %u s (the call-timeout setting), so it "
			"was interrupted and unwound", expr, limit);
	}
	if (!why) {
		restore(c, &cap);
		why = read_capture(c, &cap, output_ret);
	}
	if (cap.fp) {
		struct irs_error *e = libc_call(c, &v, "((int (*)(void *))"
						"fclose)((void *)0x%" PRIx64
						")", cap.fp);
		irs_error_destroy(e);
	}
	if (why) {
		*nocapture_ret = strdup(irs_error_get_message(why));
		irs_error_destroy(why);
	}
	if (err) {
		free(*output_ret);
		*output_ret = NULL;
	}
	return err;
}
