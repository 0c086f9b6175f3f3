// libirsnap-crashsig.so: preloaded (LD_PRELOAD) into every process of a
// `irsnap reduce --crash` test, so the reducer learns how a candidate
// crashed without running a debugger per test.
//
// When $IRSNAP_CRASHSIG_FILE names a file, a fatal signal (SEGV, BUS, ILL,
// FPE, ABRT, TRAP, SYS) writes there, once per process tree (O_EXCL: the
// first crash wins):
//
//	irsnap-crashsig 1
//	signal 11
//	frame <module path>\t<ELF address, hex>\t<dynamic symbol or ->
//	...
//
// innermost frame first, starting at the faulting instruction. The reducer
// turns module + ELF address into a function name with the module's symbol
// table: names, unlike addresses, survive ASLR and are what a user reads.
// Then the default action runs (core dump or not, exit status as usual).
//
// Only what a handler may reasonably do: no stdio, no malloc. backtrace()
// and dladdr1() are not async-signal-safe on paper; backtrace() is primed
// at load time (its first call loads libgcc_s), and the process is dying.
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

enum { MAX_FRAMES = 64 };

static char out_path[4096];
static char exe_path[4096];
static char altstack[1 << 16];	/* stack overflows need their own stack */
static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
			    SIGTRAP, SIGSYS};

static void
put(int fd, const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void
put_uint(int fd, uintptr_t v, unsigned base)
{
	char tmp[32];
	int i = (int)sizeof(tmp);
	tmp[--i] = '\0';
	do
		tmp[--i] = "0123456789abcdef"[v % base];
	while ((v /= base) && i > 0);
	put(fd, tmp + i);
}

static uintptr_t
fault_pc(void *uc_)
{
	ucontext_t *uc = uc_;
	if (!uc)
		return 0;
#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	return 0;
#endif
}

// One frame: the module holding `pc` and pc's address in its ELF file.
static void
put_frame(int fd, uintptr_t pc)
{
	Dl_info info;
	struct link_map *lm = NULL;
	if (!dladdr1((void *)pc, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm) {
		put(fd, "frame ?\t");
		put_uint(fd, pc, 16);
		put(fd, "\t-\n");
		return;
	}
	put(fd, "frame ");
	put(fd, lm->l_name && lm->l_name[0] ? lm->l_name : exe_path);
	put(fd, "\t");
	put_uint(fd, pc - (uintptr_t)lm->l_addr, 16);
	put(fd, "\t");
	put(fd, info.dli_sname ? info.dli_sname : "-");
	put(fd, "\n");
}

static void
on_fatal(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	int fd = open(out_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		void *frames[MAX_FRAMES];
		int n = backtrace(frames, MAX_FRAMES);
		uintptr_t pc = fault_pc(uc);
		// frames[0] is this handler and frames[1] the kernel's signal
		// trampoline; the faulting frame follows, normally at pc.
		int first = n > 2 ? 2 : n;
		for (int i = 0; i < n; i++)
			if (pc && (uintptr_t)frames[i] == pc)
				first = i;
		put(fd, "irsnap-crashsig 1\nsignal ");
		put_uint(fd, (uintptr_t)sig, 10);
		put(fd, "\n");
		put_frame(fd, pc ? pc : (uintptr_t)frames[first]);
		// Return addresses point after the call: step back into it.
		for (int i = first + 1; i < n; i++)
			put_frame(fd, (uintptr_t)frames[i] - 1);
		close(fd);
	}
	// The default action, as if we had never been here.
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	raise(sig);	// pending until we return (sig is blocked here)
}

__attribute__((constructor)) static void
crashsig_init(void)
{
	const char *p = getenv("IRSNAP_CRASHSIG_FILE");
	if (!p || !*p || strlen(p) >= sizeof(out_path))
		return;
	strcpy(out_path, p);
	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
	exe_path[n > 0 ? n : 0] = '\0';
	void *prime[2];
	backtrace(prime, 2);	// loads libgcc_s now, not in the handler

	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack)};
	sigaltstack(&ss, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
}
