// libirsnap-gdb-xstate.so: an LD_PRELOAD shim for GDB 13 on x86 CPUs with
// AMX (Sapphire Rapids and later).
//
// GDB 13 writes the extended register state (PTRACE_SETREGSET,
// NT_X86_XSTATE) with a buffer sized for the features it knows, while Linux
// insists on the full XSAVE size of the CPU (which AMX tile data makes
// ~11 KiB) and fails with EFAULT. GDB then cannot restore registers, so
// every inferior function call fails with "Couldn't write extended state
// status: Bad address." -- and with it irsnap's `call` verifiers
// (toyc_verify) and `call toyc_print(...)`. This shim reads the full state,
// lays GDB's shorter buffer over its start (header included, so GDB's
// choice of components stands) and writes the full size. It changes nothing
// on CPUs where GDB's size is already right.
//
// Use: LD_PRELOAD=build/libirsnap-gdb-xstate.so gdb ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>

typedef long (*ptrace_fn)(int, ...);

// glibc declares ptrace variadic; GDB always passes pid, addr and data.
long
ptrace(enum __ptrace_request req, ...)
{
	static ptrace_fn real;
	// GDB is single-threaded where it touches registers; a static buffer
	// avoids 64 KiB on its stack.
	static char full[65536] __attribute__((aligned(64)));
	va_list ap;

	va_start(ap, req);
	pid_t pid = va_arg(ap, pid_t);
	void *addr = va_arg(ap, void *);
	void *data = va_arg(ap, void *);
	va_end(ap);
	if (!real) {
		real = (ptrace_fn)(long)dlsym(RTLD_NEXT, "ptrace");
		if (!real) {
			errno = ENOSYS;
			return -1;
		}
	}
	if (req == PTRACE_SETREGSET && (long)addr == NT_X86_XSTATE && data) {
		struct iovec *iov = data;
		struct iovec fi = {full, sizeof(full)};
		int saved = errno;
		if (real(PTRACE_GETREGSET, pid, addr, &fi) == 0 &&
		    fi.iov_len > iov->iov_len) {
			memcpy(full, iov->iov_base, iov->iov_len);
			return real(PTRACE_SETREGSET, pid, addr, &fi);
		}
		errno = saved;
	}
	return real(req, pid, addr, data);
}
