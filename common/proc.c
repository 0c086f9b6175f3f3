// The debuggee's CPU time: the kernel's own account of the process, so the
// debugger's time is not counted. /proc/PID/stat counts in clock ticks
// (10 ms), coarser than most passes, so the process's CPU clock (the same
// account, in nanoseconds) is read first and the stat file is the fallback.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static bool
cpu_clock(int64_t pid, double *ret)
{
	clockid_t clk;
	struct timespec ts;
	if (clock_getcpuclockid((pid_t)pid, &clk) != 0 ||
	    clock_gettime(clk, &ts) != 0)
		return false;
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
