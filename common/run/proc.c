// The debuggee's CPU time: the kernel's own account of the process, so the
// debugger's time is not counted. /proc/PID/stat counts in clock ticks
// (10 ms), coarser than most passes, so the process's CPU clock (the same
// account, in nanoseconds) is read first and the stat file is the fallback.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <time.h>
#include <unistd.h>

#include "run/run.h"

static bool
cpu_clock(int64_t pid, double *ret)
{
	// The clock of the last pid asked about: finding it is a system
	// call (glibc checks it with clock_getres), reading it another, and
	// a trace asks twice per pass.
	static _Thread_local int64_t last_pid;
	static _Thread_local clockid_t last_clk;
	clockid_t clk = last_clk;
	struct timespec ts;
	if (pid != last_pid) {
		if (clock_getcpuclockid((pid_t)pid, &clk) != 0)
			return false;
		last_pid = pid;
		last_clk = clk;
	}
	if (clock_gettime(clk, &ts) != 0) {
		last_pid = 0;
		return false;
	}
	*ret = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return true;
}

// utime + stime (fields 14 and 15) of /proc/PID/stat.
static struct irs_error *
stat_time(int64_t pid, double *ret)
{
	char path[64], *text;
	size_t len;
	unsigned long long utime, stime;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/stat", pid);
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err)
		return err;
	// The command name (field 2) is in parentheses and may itself hold
	// spaces and ')', so fields are counted from the last ')'. After it:
	// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	// cmajflt utime stime (fields 3 to 15).
	const char *p = strrchr(text, ')');
	int n = p ? sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
				  "%*u %llu %llu", &utime, &stime) : 0;
	free(text);
	if (n != 2)
		return irs_error_format(IRS_ERROR_FORMAT,
					"%s: unexpected format", path);
	long tck = sysconf(_SC_CLK_TCK);
	if (tck <= 0)
		tck = 100;
	*ret = (double)(utime + stime) / (double)tck;
	return NULL;
}

struct irs_error *
irs_proc_cpu_time(int64_t pid, double *ret)
{
	if (pid <= 0 || pid > INT32_MAX)
		return irs_error_format(IRS_ERROR_STATE,
					"no live process (pid %" PRId64 ")",
					pid);
	if (cpu_clock(pid, ret))
		return NULL;
	return stat_time(pid, ret);
}

bool
irs_proc_thread_sp(struct irs_proc_sp *keep, int64_t pid, uint64_t tid,
		   uint64_t *sp, uint64_t *pc)
{
	char path[96], text[256];
	ssize_t n = -1;

	if (pid <= 0 || pid > INT32_MAX || !tid || tid > INT32_MAX)
		return false;
	// The file kept open reads the thread it was opened on (a new
	// process with the same pid and tid is another file): pread at 0
	// makes the kernel write it anew.
	if (keep && keep->pid == pid && keep->tid == tid)
		n = pread(keep->fd, text, sizeof(text) - 1, 0);
	if (n <= 0) {
		if (keep)
			irs_proc_sp_close(keep);
		snprintf(path, sizeof(path), "/proc/%" PRId64 "/task/%" PRIu64
			 "/syscall", pid, tid);
		// One read of a small file: irs_file_read's growing buffer
		// costs more than the read, at two stops a pass.
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return false;
		n = pread(fd, text, sizeof(text) - 1, 0);
		if (keep && n > 0)
			*keep = (struct irs_proc_sp){ pid, tid, fd };
		else
			close(fd);
	}
	if (n <= 0)
		return false;
	text[n] = '\0';
	// "running" while it runs; else "NR [ARGS...] SP PC" (NR -1 outside
	// a system call, with no ARGS): SP is the last field but one.
	char *last = NULL, *prev = NULL, *save = NULL;
	for (char *f = strtok_r(text, " \n", &save); f;
	     f = strtok_r(NULL, " \n", &save)) {
		prev = last;
		last = f;
	}
	if (!prev || prev == text || strncmp(prev, "0x", 2) ||
	    strncmp(last, "0x", 2))
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(prev, &end, 16);
	if (errno || *end)
		return false;
	unsigned long long at = strtoull(last, &end, 16);
	if (errno || *end)
		return false;
	*sp = v;
	if (pc)
		*pc = at;
	return true;
}

bool
irs_proc_thread_regs(uint64_t tid, uint64_t regs[IRS_PROC_NREGS])
{
#if defined(__x86_64__)
	struct user_regs_struct r;
	if (!tid || tid > INT32_MAX ||
	    ptrace(PTRACE_GETREGS, (pid_t)tid, NULL, &r) != 0)
		return false;
	// DWARF's numbering for x86-64
	const uint64_t dw[IRS_PROC_NREGS] = {
		r.rax, r.rdx, r.rcx, r.rbx, r.rsi, r.rdi, r.rbp, r.rsp,
		r.r8, r.r9, r.r10, r.r11, r.r12, r.r13, r.r14, r.r15, r.rip,
	};
	memcpy(regs, dw, sizeof(dw));
	return true;
#else
	(void)tid;
	(void)regs;
	return false;
#endif
}

void
irs_proc_sp_close(struct irs_proc_sp *keep)
{
	if (keep->pid)
		close(keep->fd);
	*keep = (struct irs_proc_sp){ 0, 0, -1 };
}

// The parent of @p pid (field 4 of /proc/PID/stat), 0 when unknown.
static int64_t
parent_of(int64_t pid)
{
	char path[64], *text;
	size_t len;
	long long ppid = 0;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/stat", pid);
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err) {
		irs_error_destroy(err);
		return 0;
	}
	const char *p = strrchr(text, ')');
	if (!p || sscanf(p + 1, " %*c %lld", &ppid) != 1)
		ppid = 0;
	free(text);
	return ppid;
}

bool
irs_proc_attached(int64_t pid)
{
	// GDB starts its debuggee itself (its parent); LLDB through
	// lldb-server (its grandparent). Anything else was attached to.
	int64_t self = getpid();
	int64_t parent = pid > 0 ? parent_of(pid) : 0;
	if (!parent)
		return false;
	return parent != self && parent_of(parent) != self;
}

struct irs_error *
irs_proc_mappings(int64_t pid, irs_proc_mapping_fn fn, void *arg,
		  bool *found)
{
	char path[64], *text;
	size_t len;

	*found = false;
	snprintf(path, sizeof(path), "/proc/%" PRId64 "/maps", pid);
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err)
		return err;
	for (char *line = text; !*found && line && line < text + len;) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		if (nl)
			*nl = '\0';
		unsigned long long lo, hi, off;
		struct irs_proc_mapping m;
		int at = 0;
		// "lo-hi perms offset dev inode   path"
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi,
			   m.perms, &off, &at) == 4 && at > 0 && hi > lo) {
			m.start = lo;
			m.end = hi;
			m.offset = off;
			m.path = line + at;
			*found = fn(&m, arg);
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return NULL;
}

struct ranges {
	struct irs_proc_range *r;
	size_t n, cap;
	bool oom;
};

// A file's mapping that nothing writes (its code and read-only data).
static bool
add_fixed(const struct irs_proc_mapping *m, void *arg)
{
	struct ranges *rs = arg;
	if (m->path[0] != '/' || m->perms[1] == 'w' || m->perms[3] != 'p')
		return false;
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 64;
		struct irs_proc_range *nr = realloc(rs->r, cap * sizeof(*nr));
		if (!nr)
			return rs->oom = true;	// stops the walk
		rs->r = nr;
		rs->cap = cap;
	}
	rs->r[rs->n++] = (struct irs_proc_range){ m->start, m->end };
	return false;
}

struct irs_error *
irs_proc_fixed_ranges(int64_t pid, struct irs_proc_range **ret,
		      size_t *n_ret)
{
	struct ranges rs = { 0 };
	bool stopped;

	*ret = NULL;
	*n_ret = 0;
	struct irs_error *err = irs_proc_mappings(pid, add_fixed, &rs,
						  &stopped);
	if (err || rs.oom) {
		free(rs.r);
		return err ? err : &irs_enomem;
	}
	*ret = rs.r;
	*n_ret = rs.n;
	return NULL;
}

char *
irs_cmdline_args(const char *argv, size_t len)
{
	struct irs_buf b;

	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	// argv[0] is the program, which the manifest names apart
	const char *end = argv + len;
	const char *p = memchr(argv, 0, len);
	for (p = p ? p + 1 : end; p < end;
	     p += strnlen(p, (size_t)(end - p)) + 1) {
		if (b.len)
			irs_buf_puts(&b, " ");
		irs_shell_quote(&b, p);
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

char *
irs_proc_args(int64_t pid)
{
	char path[64], *text;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/cmdline", pid);
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err) {
		irs_error_destroy(err);
		return NULL;
	}
	char *args = irs_cmdline_args(text, len);
	free(text);
	return args;
}
