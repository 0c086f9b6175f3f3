// Boundary arguments by the platform's calling convention. A release
// build has no debug info to name a pass function's parameters, so a
// layout names them by position: $argN is the N-th integer argument word
// (`this` is $arg0; a small struct passed in registers, a StringRef,
// takes two), and `sret = true` says the result comes back through a
// hidden pointer first. On x86-64 (System V) that pointer takes %rdi, so
// llvm::InstCombinePass::run(Function &F, FunctionAnalysisManager &AM),
// which returns a PreservedAnalyses, has `this` in %rsi and F in %rdx:
// $arg1. On AArch64 the hidden pointer is x8 and shifts nothing.
#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/console.h"

static const char *const sysv_x86_64[] = {
	"rdi", "rsi", "rdx", "rcx", "r8", "r9",
};
static const char *const aapcs64[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7",
};

// The debuggee's machine, from its executable's ELF header.
static unsigned
machine(const struct irs_console *c)
{
	unsigned char h[20];
	const char *exe = c->t->exe_path;
	int fd = exe ? open(exe, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	if (fd < 0)
		return EM_X86_64;
	ssize_t n = read(fd, h, sizeof(h));
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return EM_X86_64;
	return h[EI_DATA] == ELFDATA2MSB ? (unsigned)(h[18] << 8 | h[19])
					 : (unsigned)(h[19] << 8 | h[18]);
}

unsigned
console_abi_machine(struct irs_console *c)
{
	// Asked at every boundary stop: the header is read again only when
	// the debugger runs another executable.
	const char *exe = c->t->exe_path ? c->t->exe_path : "";
	if (c->machine && c->machine_exe && !strcmp(c->machine_exe, exe))
		return c->machine;
	char *copy = strdup(exe);
	if (!copy)
		return machine(c);
	free(c->machine_exe);
	c->machine_exe = copy;
	return c->machine = machine(c);
}

struct irs_error *
console_abi_expr(struct irs_console *c, bool sret, const char *expr,
		 char *out, size_t len)
{
	const char *const *regs = sysv_x86_64;
	size_t nregs = ARRAY_SIZE(sysv_x86_64), shift = sret;
	size_t n = 0;

	if (!strstr(expr, "$arg")) {
		snprintf(out, len, "%s", expr);
		return NULL;
	}
	if (console_abi_machine(c) == EM_AARCH64) {
		regs = aapcs64;
		nregs = ARRAY_SIZE(aapcs64);
		shift = 0;	// x8 carries the result's address
	}
	for (const char *p = expr; *p;) {
		if (!strncmp(p, "$arg", 4) && isdigit((unsigned char)p[4])) {
			char *end;
			unsigned long k = strtoul(p + 4, &end, 10);
			if (isalnum((unsigned char)*end) || *end == '_')
				goto copy;	// $argument: a convenience var
			if (c->saved_args) {
				// below the innermost frame (rootsearch.c)
				if (k >= 8 || !(c->saved_mask >> k & 1))
					return irs_error_format(
						IRS_ERROR_TARGET, "cannot "
						"evaluate '%s': $arg%lu is not"
						" saved below the innermost "
						"frame", expr, k);
				int w = snprintf(out + n, len - n, "0x%llx",
						 (unsigned long long)
						 c->saved[k]);
				if (w < 0 || (size_t)w >= len - n)
					break;
				n += (size_t)w;
				p = end;
				continue;
			}
			if (k + shift >= nregs)
				return irs_error_format(IRS_ERROR_TARGET,
					"cannot evaluate '%s': $arg%lu is not "
					"passed in a register%s", expr, k,
					sret ? " (after the sret pointer)" :
					"");
			int w = snprintf(out + n, len - n, "$%s",
					 regs[k + shift]);
			if (w < 0 || (size_t)w >= len - n)
				break;
			n += (size_t)w;
			p = end;
			continue;
		}
copy:
		if (n + 1 >= len)
			break;
		out[n++] = *p++;
	}
	out[n < len ? n : len - 1] = 0;
	return NULL;
}
