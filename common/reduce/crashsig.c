// Crash signatures: what libirsnap-crashsig.so wrote, as the signal and
// the top function names of the crashing stack. Frames in libc, the
// dynamic loader and the preload library are skipped: an assertion's
// abort() -> raise() frames are the same for every assertion, the
// program's own frames are what tells two bugs apart. A function inlined
// at a frame's address is a frame of its own, innermost first, as GDB's
// and LLDB's backtraces show it (libdw reads that from the DWARF), so a
// signature reads the same whoever took it.
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include "reduce/reduce.h"

/* {=== function names from ELF symbol tables ============================== */

struct fsym {
	uint64_t start, end;
	char *name;
};

struct module_syms {
	struct module_syms *next;
	char *path;
	struct fsym *syms;	/* sorted by start */
	size_t nsyms;
	Dwarf *dw;		/* its debug info, or NULL */
	int dw_fd;
};

struct reduce_symcache {
	struct module_syms *modules;
};

void
reduce_symcache_destroy(struct reduce_symcache *sc)
{
	if (!sc)
		return;
	while (sc->modules) {
		struct module_syms *m = sc->modules;
		sc->modules = m->next;
		for (size_t i = 0; i < m->nsyms; i++)
			free(m->syms[i].name);
		free(m->syms);
		if (m->dw)
			dwarf_end(m->dw);
		if (m->dw_fd >= 0)
			close(m->dw_fd);
		free(m->path);
		free(m);
	}
	free(sc);
}

static int
fsym_cmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

// Functions of one symbol table section into m->syms.
static void
read_symtab(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, struct module_syms *m)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data || !sh->sh_entsize)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	struct fsym *p = realloc(m->syms, (m->nsyms + n) * sizeof(*p));
	if (!p)
		return;
	m->syms = p;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !sym.st_value || !sym.st_size)
			continue;
		const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		char *dup = strdup(name);
		if (!dup)
			return;
		m->syms[m->nsyms++] = (struct fsym){
			sym.st_value, sym.st_value + sym.st_size, dup};
	}
}

static void
load_module(struct module_syms *m)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	bool have_symtab = false;
	for (int pass = 0; elf && pass < 2 && !have_symtab; pass++) {
		// .symtab has the static functions; .dynsym is the fallback.
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			read_symtab(elf, scn, &sh, m);
			have_symtab = m->nsyms > 0;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (m->nsyms)
		qsort(m->syms, m->nsyms, sizeof(*m->syms), fsym_cmp);
	// no DWARF (stripped, or not ELF): names from the symbols alone
	m->dw_fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (m->dw_fd >= 0)
		m->dw = dwarf_begin(m->dw_fd, DWARF_C_READ);
}

// The names of the functions inlined at @p addr of @p m, innermost first,
// into @p names (at most @p max; borrowed from m's DWARF); how many.
static size_t
inlined_at(const struct module_syms *m, uint64_t addr, const char **names,
	   size_t max)
{
	Dwarf_Die cu, *scopes = NULL;
	if (!m->dw || !dwarf_addrdie(m->dw, addr, &cu))
		return 0;
	int n = dwarf_getscopes(&cu, addr, &scopes);
	size_t k = 0;
	for (int i = 0; i < n && k < max; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		// the name is its abstract origin's (dwarf_diename follows it)
		const char *name = dwarf_diename(&scopes[i]);
		if (name && *name)
			names[k++] = name;
	}
	free(scopes);
	return k;
}

// The symbol of @p path holding @p addr, or NULL; *m_ret its module.
static const char *
lookup(struct reduce_symcache **scp, const char *path, uint64_t addr,
       struct module_syms **m_ret)
{
	*m_ret = NULL;
	if (!*scp && !(*scp = calloc(1, sizeof(**scp))))
		return NULL;
	struct module_syms *m = (*scp)->modules;
	while (m && strcmp(m->path, path))
		m = m->next;
	if (!m) {
		if (!(m = calloc(1, sizeof(*m))) || !(m->path = strdup(path))) {
			free(m);
			return NULL;
		}
		m->dw_fd = -1;
		load_module(m);
		m->next = (*scp)->modules;
		(*scp)->modules = m;
	}
	*m_ret = m;
	size_t lo = 0, hi = m->nsyms;	// last symbol starting <= addr
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	// Symbols may nest (aliases); look back a few for one holding addr.
	for (size_t k = lo; k > 0 && lo - k < 8; k--)
		if (addr < m->syms[k - 1].end)
			return m->syms[k - 1].name;
	return NULL;
}

/* }=== */

static bool
system_module(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return !strncmp(base, "libc.so", 7) || !strncmp(base, "ld-linux", 8) ||
	       !strncmp(base, "libirsnap-crashsig", 18) ||
	       !strncmp(base, "libgcc_s", 8);
}

static void
add_frame(struct reduce_crashsig *sig, struct reduce_symcache **sc,
	  char *line)
{
	char *path = line, *tab = strchr(line, '\t');
	if (!tab || sig->nframes == CRASHSIG_FRAMES)
		return;
	*tab = '\0';
	char *addr_s = tab + 1, *dyn = strchr(addr_s, '\t');
	if (dyn)
		*dyn++ = '\0';
	if (system_module(path))
		return;
	uint64_t addr = strtoull(addr_s, NULL, 16);
	struct module_syms *m;
	const char *name = lookup(sc, path, addr, &m);
	if (!name && dyn && strcmp(dyn, "-"))
		name = dyn;
	const char *inl[CRASHSIG_FRAMES];
	size_t ninl = m ? inlined_at(m, addr, inl, CRASHSIG_FRAMES) : 0;
	for (size_t i = 0; i < ninl && sig->nframes < CRASHSIG_FRAMES; i++)
		snprintf(sig->frames[sig->nframes++], sizeof(sig->frames[0]),
			 "%s", inl[i]);
	if (sig->nframes == CRASHSIG_FRAMES)
		return;
	char *frame = sig->frames[sig->nframes++];
	if (name) {
		snprintf(frame, sizeof(sig->frames[0]), "%s", name);
	} else {
		const char *base = strrchr(path, '/');
		snprintf(frame, sizeof(sig->frames[0]), "%s+0x%llx",
			 base ? base + 1 : path, (unsigned long long)addr);
	}
}

bool
reduce_crashsig_read(const char *path, struct reduce_symcache **sc,
		     struct reduce_crashsig *ret)
{
	char *text;
	size_t len;
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err) {
		irs_error_destroy(err);
		return false;
	}
	struct reduce_crashsig sig = {0};
	bool ok = text && !strncmp(text, "irsnap-crashsig 1\n", 18);
	for (char *line = ok ? text : NULL, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "signal ", 7))
			sig.signo = atoi(line + 7);
		else if (!strncmp(line, "frame ", 6))
			add_frame(&sig, sc, line + 6);
	}
	free(text);
	if (!ok || sig.signo <= 0)
		return false;
	*ret = sig;
	return true;
}

bool
reduce_crashsig_equal(const struct reduce_crashsig *a,
		      const struct reduce_crashsig *b)
{
	if (a->signo != b->signo || a->nframes != b->nframes)
		return false;
	for (uint32_t i = 0; i < a->nframes; i++)
		if (strcmp(a->frames[i], b->frames[i]))
			return false;
	return true;
}

void
reduce_crashsig_format(const struct reduce_crashsig *sig, struct irs_buf *out)
{
	const char *name = sigabbrev_np(sig->signo);
	if (name)
		irs_buf_printf(out, "SIG%s", name);
	else
		irs_buf_printf(out, "signal %d", sig->signo);
	for (uint32_t i = 0; i < sig->nframes; i++)
		irs_buf_printf(out, "%s%s", i ? " < " : " at ", sig->frames[i]);
}

static char *
sibling(const char *path, const char *rel)
{
	char *slash = strrchr(path, '/');
	char *res;
	if (!slash)
		return NULL;
	if (asprintf(&res, "%.*s/%s", (int)(slash - path), path, rel) < 0)
		return NULL;
	if (access(res, R_OK) == 0)
		return res;
	free(res);
	return NULL;
}

// Any object of this file: dladdr() on it names the binary holding us.
static const char here = 0;

struct irs_error *
reduce_crashsig_lib(char **ret)
{
	const char *env = getenv("IRSNAP_CRASHSIG_LIB");
	if (env && *env) {
		if (access(env, R_OK) != 0)
			return irs_error_format(IRS_ERROR_NOT_FOUND,
				"IRSNAP_CRASHSIG_LIB=%s: not readable", env);
		return (*ret = strdup(env)) ? NULL : &irs_enomem;
	}
	// Beside whatever holds this code: build/libirsnap.so, or the irsnap
	// executable when it links libirsnap.a; installed, in ../lib.
	Dl_info info;
	char exe[PATH_MAX];
	char real[PATH_MAX];
	const char *self = NULL;
	if (dladdr(&here, &info) && info.dli_fname &&
	    strchr(info.dli_fname, '/') && realpath(info.dli_fname, real))
		self = real;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	const char *where[] = {self, n > 0 ? exe : NULL};
	for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
		if (!where[i])
			continue;
		char *p = sibling(where[i], "libirsnap-crashsig.so");
		if (!p)
			p = sibling(where[i], "../lib/libirsnap-crashsig.so");
		if (p) {
			*ret = p;
			return NULL;
		}
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND,
		"--crash needs libirsnap-crashsig.so beside irsnap (run make) "
		"or named by $IRSNAP_CRASHSIG_LIB");
}
