// Memory of a stopped live process, read without the debugger:
// process_vm_readv, and /proc/PID/mem for what it refuses (PROT_NONE pages,
// which the debugger can read through ptrace, or a kernel without it).
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mem/mem.h"

struct pid_source {
	struct irs_mem_source base;
	pid_t pid;
	int memfd;		// /proc/PID/mem
	bool no_vm;		// process_vm_readv refused: memfd only
	struct iovec local[IOV_MAX];	// scratch for one call
	struct iovec remote[IOV_MAX];
};

// Fills @p out with at most @p max entries covering the bytes
// [skip, skip + len) of the buffers @p iov; returns how many.
static int
iov_slice(const struct iovec *iov, int iovcnt, uint64_t skip, uint64_t len,
	  struct iovec *out, int max)
{
	int n = 0;

	for (int i = 0; i < iovcnt && len && n < max; i++) {
		if (skip >= iov[i].iov_len) {
			skip -= iov[i].iov_len;
			continue;
		}
		uint64_t take = iov[i].iov_len - skip;
		if (take > len)
			take = len;
		out[n++] = (struct iovec){(char *)iov[i].iov_base + skip, take};
		len -= take;
		skip = 0;
	}
	return n;
}

// process_vm_readv from @p address, stopping at the first fault. The
// remote side is cut at page boundaries: the kernel promises partial
// transfers only between iovec elements. Returns the bytes read; *errnum
// gets why it stopped short.
static uint64_t
vm_read(struct pid_source *p, uint64_t address, const struct iovec *iov,
	int iovcnt, uint64_t total, int *errnum)
{
	uint64_t got = 0;

	while (got < total) {
		int nr = 0;
		uint64_t want = 0, at = address + got;
		while (nr < IOV_MAX && got + want < total) {
			uint64_t room = IRS_PAGE_SIZE -
					((at + want) & (IRS_PAGE_SIZE - 1));
			uint64_t n = total - got - want < room
					     ? total - got - want : room;
			p->remote[nr++] = (struct iovec){
				(void *)(uintptr_t)(at + want), n};
			want += n;
		}
		int nl = iov_slice(iov, iovcnt, got, want, p->local, IOV_MAX);
		ssize_t n = process_vm_readv(p->pid, p->local,
					     (unsigned long)nl, p->remote,
					     (unsigned long)nr, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*errnum = n < 0 ? errno : EFAULT;
			return got;
		}
		got += (uint64_t)n;
		if ((uint64_t)n < want) {
			*errnum = EFAULT;
			return got;
		}
	}
	return got;
}

// The same through /proc/PID/mem, for bytes [got, total) of the range
// at @p address; returns where it stopped.
static uint64_t
mem_read(struct pid_source *p, uint64_t address, const struct iovec *iov,
	 int iovcnt, uint64_t got, uint64_t total, int *errnum)
{
	while (got < total) {
		if (address + got > (uint64_t)INT64_MAX) {
			*errnum = EFAULT;	// beyond what an off_t reaches
			return got;
		}
		int nl = iov_slice(iov, iovcnt, got, total - got, p->local,
				   IOV_MAX);
		ssize_t n = preadv(p->memfd, p->local, nl,
				   (off_t)(address + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			// 0: the process has no memory any more.
			*errnum = n < 0 ? errno : ESRCH;
			return got;
		}
		got += (uint64_t)n;
	}
	return got;
}

static struct irs_error *
pid_readv(struct irs_mem_source *src, uint64_t address,
	  const struct iovec *iov, int iovcnt, uint64_t *done)
{
	struct pid_source *p = (struct pid_source *)src;
	uint64_t total = 0, got = 0;
	int errnum = 0;

	for (int i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	if (!p->no_vm) {
		got = vm_read(p, address, iov, iovcnt, total, &errnum);
		if (errnum == ENOSYS || errnum == EPERM)
			p->no_vm = true;
		if (errnum == ESRCH)
			goto out;
	}
	if (got < total)
		got = mem_read(p, address, iov, iovcnt, got, total, &errnum);
out:
	*done = got;
	if (got == total)
		return NULL;
	if (errnum == ESRCH)
		return irs_error_fault(address + got, "process %d has exited",
				       (int)p->pid);
	if (errnum == EIO || errnum == EFAULT)
		return irs_error_fault(address + got, "not mapped in process "
				       "%d", (int)p->pid);
	return irs_error_fault(address + got, "process %d: %s", (int)p->pid,
			       strerror(errnum));
}

// The spans in as few process_vm_readv calls as IOV_MAX allows, each
// cut at page boundaries (partial transfers come between elements only).
static struct irs_error *
pid_gather(struct irs_mem_source *src, const struct iovec *spans, size_t n,
	   void *buf)
{
	struct pid_source *p = (struct pid_source *)src;
	char *out = buf;
	size_t i = 0;
	uint64_t off = 0;	// into spans[i]

	if (p->no_vm)
		return irs_error_format(IRS_ERROR_TARGET, "no "
					"process_vm_readv");
	while (i < n) {
		int nr = 0;
		uint64_t want = 0;
		while (nr < IOV_MAX && i < n) {
			uint64_t at = (uint64_t)(uintptr_t)spans[i].iov_base +
				      off;
			uint64_t left = spans[i].iov_len - off;
			uint64_t room = IRS_PAGE_SIZE -
					(at & (IRS_PAGE_SIZE - 1));
			uint64_t k = left < room ? left : room;
			if (k)
				p->remote[nr++] = (struct iovec){
					(void *)(uintptr_t)at, k};
			want += k;
			off += k;
			if (off == spans[i].iov_len) {
				i++;
				off = 0;
			}
		}
		struct iovec local = {out, want};
		ssize_t got;
		do
			got = process_vm_readv(p->pid, &local, 1, p->remote,
					       (unsigned long)nr, 0);
		while (got < 0 && errno == EINTR);
		if (got != (ssize_t)want)
			return irs_error_fault(0, "process %d: a span does "
					       "not read whole", (int)p->pid);
		out += want;
	}
	return NULL;
}

static struct irs_error *
pid_read(struct irs_mem_source *src, uint64_t address, void *buf,
	 uint64_t count, uint64_t *done)
{
	struct iovec iov = {buf, count};
	return pid_readv(src, address, &iov, 1, done);
}

static void
pid_destroy(struct irs_mem_source *src)
{
	struct pid_source *p = (struct pid_source *)src;
	close(p->memfd);
	free(p);
}

static const struct irs_mem_source_ops pid_ops = {
	.read = pid_read,
	.readv = pid_readv,
	.gather = pid_gather,
	.destroy = pid_destroy,
};

struct irs_error *
irs_mem_pid_source(int64_t pid, struct irs_mem_source **ret)
{
	char path[64];

	if (pid <= 0 || pid > INT_MAX)
		return irs_error_format(IRS_ERROR_USAGE, "bad process id %"
					PRId64, pid);
	snprintf(path, sizeof(path), "/proc/%" PRId64 "/mem", pid);
	// Opened once: the file keeps naming this process's memory, even
	// if the pid is reused.
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return irs_error_format(e == ENOENT ? IRS_ERROR_NOT_FOUND
						    : IRS_ERROR_IO,
					"cannot read process %" PRId64
					": %s: %s", pid, path, strerror(e));
	}
	struct pid_source *p = calloc(1, sizeof(*p));
	if (!p) {
		close(fd);
		return &irs_enomem;
	}
	p->base.ops = &pid_ops;
	p->base.kind = "process";
	p->pid = (pid_t)pid;
	p->memfd = fd;
	*ret = &p->base;
	return NULL;
}

bool
irs_mem_pid_matches(int64_t pid, const char *exe_path)
{
	char path[64];
	struct stat proc, exe;

	if (pid <= 0 || pid > INT_MAX)
		return false;
	snprintf(path, sizeof(path), "/proc/%" PRId64 "/exe", pid);
	// Fails for no such process, a zombie, or a kernel thread.
	if (stat(path, &proc) != 0)
		return false;
	if (!exe_path || !*exe_path)
		return true;
	// An executable we cannot see locally means a remote target whose
	// pid says nothing about this machine.
	if (stat(exe_path, &exe) != 0)
		return false;
	return proc.st_dev == exe.st_dev && proc.st_ino == exe.st_ino;
}
