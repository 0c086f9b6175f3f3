// The debuggee's modules and their symbols, read from the ELF files
// themselves: the executable, the libraries the debugger has loaded, and
// before they are loaded (a `run` not typed yet) the libraries the
// executable names in DT_NEEDED, found as the dynamic loader would in its
// default directories. A release build has no debug info but its dynamic
// symbols: boundaries chosen by a pattern over function names
// (libLLVM-14 exports 144 `XPass::run(llvm::Function&, ...)`) and a type
// donor's fit (`llvm::DisableABIBreakingChecks`) are decided here, once
// for GDB and LLDB, whose Python and SB APIs list symbols differently or
// (GDB 13) not at all.
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <libgen.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console/console.h"

// libstdc++'s demangler (cxxabi.h), the one GDB's names come from.
char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
		     int *status);

enum { MAX_MODULES = 512, MAX_NEEDED_DEPTH = 8 };

struct msym {
	char *name;		/* demangled */
	uint64_t value;		/* st_value: where it links */
};

struct mseg {			/* a PT_LOAD: where its bytes are in the file */
	uint64_t vaddr, filesz, offset;
};

struct module {
	char *path;
	char *soname;		/* DT_SONAME, else the file's base name */
	uint64_t size;
	int64_t mtime_ns;
	char **needed;		/* DT_NEEDED */
	size_t nneeded, capneeded;
	char *runpath;		/* DT_RUNPATH or DT_RPATH, or NULL */
	char **funcs;		/* defined functions, demangled, sorted */
	size_t nfuncs, capfuncs;
	char **objects;		/* defined data symbols, demangled */
	size_t nobjects, capobjects;
	struct msym *syms;	/* every defined symbol and its value, sorted */
	size_t nsyms, capsyms;
	uint64_t first_vaddr;	/* the first PT_LOAD's, page-aligned */
	struct mseg *segs;	/* its PT_LOADs */
	size_t nsegs;
	char *core;		/* the core file where it was mapped at */
	uint64_t core_base;	/* (found once per core), or NULL */
	bool loaded;		/* the debugger has it loaded now */
};

static void
module_free(struct module *m)
{
	free(m->path);
	free(m->soname);
	for (size_t i = 0; i < m->nneeded; i++)
		free(m->needed[i]);
	free(m->needed);
	free(m->runpath);
	for (size_t i = 0; i < m->nfuncs; i++)
		free(m->funcs[i]);
	free(m->funcs);
	for (size_t i = 0; i < m->nobjects; i++)
		free(m->objects[i]);
	free(m->objects);
	for (size_t i = 0; i < m->nsyms; i++)
		free(m->syms[i].name);
	free(m->syms);
	free(m->segs);
	free(m->core);
	memset(m, 0, sizeof(*m));
}

void
console_modules_deinit(struct irs_console *c)
{
	struct console_modules *ms = &c->modules;
	for (size_t i = 0; i < ms->n; i++)
		module_free(&ms->list[i]);
	free(ms->list);
	memset(ms, 0, sizeof(*ms));
}

// Appends @p s (owned; freed when it cannot be kept). libLLVM-14 has
// some 60,000 symbols: the arrays double.
static bool
push(char ***v, size_t *n, size_t *cap, char *s)
{
	if (!s)
		return false;
	if (!irs_grow_array((void **)v, *n, cap, sizeof(**v))) {
		free(s);
		return false;
	}
	(*v)[(*n)++] = s;
	return true;
}

static char *
demangled(const char *name)
{
	int status = -1;
	if (name[0] == '_' && name[1] == 'Z') {
		char *d = __cxa_demangle(name, NULL, NULL, &status);
		if (d && status == 0)
			return d;
		free(d);
	}
	return strdup(name);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

// Drops repeats from the sorted @p v (.symtab and .dynsym name most
// functions twice).
static void
unique(char **v, size_t *n)
{
	size_t k = 0;
	for (size_t i = 0; i < *n; i++) {
		if (k && !strcmp(v[k - 1], v[i])) {
			free(v[i]);
			continue;
		}
		v[k++] = v[i];
	}
	*n = k;
}

static void
push_sym(struct module *m, char *name, uint64_t value)
{
	if (!name)
		return;
	if (!irs_grow_array((void **)&m->syms, m->nsyms, &m->capsyms,
			    sizeof(*m->syms))) {
		free(name);
		return;
	}
	m->syms[m->nsyms++] = (struct msym){ name, value };
}

static int
sym_by_name(const void *a, const void *b)
{
	return strcmp(((const struct msym *)a)->name,
		      ((const struct msym *)b)->name);
}

static void
read_symbols(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, struct module *m)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 0; data && i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym) ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    type != STT_OBJECT && type != STT_TLS)
			continue;
		char *d = demangled(name);	// once: demangling is the cost
		if (!d)
			continue;
		if (type != STT_TLS)
			push_sym(m, strdup(d), sym.st_value);
		if (type == STT_FUNC || type == STT_GNU_IFUNC)
			push(&m->funcs, &m->nfuncs, &m->capfuncs, d);
		else
			push(&m->objects, &m->nobjects, &m->capobjects, d);
	}
}

static void
read_dynamic(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, struct module *m)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 0; data && i < n; i++) {
		GElf_Dyn dyn;
		if (!gelf_getdyn(data, (int)i, &dyn))
			continue;
		const char *s = NULL;
		if (dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_SONAME ||
		    dyn.d_tag == DT_RUNPATH || dyn.d_tag == DT_RPATH)
			s = elf_strptr(elf, sh->sh_link, dyn.d_un.d_val);
		if (!s)
			continue;
		if (dyn.d_tag == DT_NEEDED) {
			push(&m->needed, &m->nneeded, &m->capneeded, strdup(s));
		} else if (dyn.d_tag == DT_SONAME) {
			free(m->soname);
			m->soname = strdup(s);
		} else if (!m->runpath || dyn.d_tag == DT_RUNPATH) {
			free(m->runpath);
			m->runpath = strdup(s);
		}
	}
}

// Reads the ELF file @p path; false when it is none (a vDSO's name).
static bool
module_read(const char *path, struct module *m)
{
	struct stat st;
	memset(m, 0, sizeof(*m));
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		return false;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		close(fd);
		return false;
	}
	m->path = strdup(path);
	m->size = (uint64_t)st.st_size;
	m->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
		      st.st_mtim.tv_nsec;
	size_t nph = 0;
	elf_getphdrnum(elf, &nph);
	m->segs = nph ? calloc(nph, sizeof(*m->segs)) : NULL;
	bool first = true;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first)
			m->first_vaddr = ph.p_vaddr & ~(uint64_t)0xfff;
		first = false;
		if (m->segs)
			m->segs[m->nsegs++] = (struct mseg){
				ph.p_vaddr, ph.p_filesz, ph.p_offset };
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			read_symbols(elf, scn, &sh, m);
		else if (sh.sh_type == SHT_DYNAMIC)
			read_dynamic(elf, scn, &sh, m);
	}
	elf_end(elf);
	close(fd);
	if (!m->soname && m->path) {
		char *copy = strdup(path);
		m->soname = copy ? strdup(basename(copy)) : NULL;
		free(copy);
	}
	if (m->funcs)
		qsort(m->funcs, m->nfuncs, sizeof(*m->funcs), by_name);
	unique(m->funcs, &m->nfuncs);
	if (m->objects)
		qsort(m->objects, m->nobjects, sizeof(*m->objects), by_name);
	unique(m->objects, &m->nobjects);
	if (m->syms)
		qsort(m->syms, m->nsyms, sizeof(*m->syms), sym_by_name);
	return m->path && m->soname;
}

static struct module *
find(struct console_modules *ms, const char *path)
{
	for (size_t i = 0; i < ms->n; i++)
		if (!strcmp(ms->list[i].path, path))
			return &ms->list[i];
	return NULL;
}

// Module @p path, read once while its size and time stay the same.
static struct module *
add(struct console_modules *ms, const char *path, bool loaded)
{
	struct stat st;
	struct module *m = find(ms, path);
	if (m && stat(path, &st) == 0 && (uint64_t)st.st_size == m->size &&
	    (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec ==
	    m->mtime_ns) {
		m->loaded = m->loaded || loaded;
		return m;
	}
	struct module fresh;
	if (ms->n >= MAX_MODULES || !module_read(path, &fresh)) {
		if (!m)
			return NULL;
		module_free(m);		// gone or replaced by a non-ELF
		*m = ms->list[--ms->n];
		return NULL;
	}
	fresh.loaded = loaded;
	if (m) {
		module_free(m);
		*m = fresh;
		return m;
	}
	void *p = realloc(ms->list, (ms->n + 1) * sizeof(*ms->list));
	if (!p) {
		module_free(&fresh);
		return NULL;
	}
	ms->list = p;
	ms->list[ms->n] = fresh;
	return &ms->list[ms->n++];
}

// Where the dynamic loader looks for @p name needed by @p m: its
// RUNPATH ($ORIGIN expanded), then the default directories (ld.so.cache
// and LD_LIBRARY_PATH are left out: a library found only through them is
// seen once the debugger has loaded it).
static bool
resolve(const struct module *m, const char *name, char *out, size_t len)
{
	static const char *const dirs[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
		"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
		"/lib64", "/usr/lib64", "/lib", "/usr/lib",
	};
	struct stat st;
	if (strchr(name, '/'))
		return snprintf(out, len, "%s", name) < (int)len &&
		       stat(out, &st) == 0;
	char origin[4096];
	snprintf(origin, sizeof(origin), "%s", m->path);
	char *slash = strrchr(origin, '/');
	if (slash)
		*slash = 0;
	for (const char *p = m->runpath; p && *p;) {
		size_t n = strcspn(p, ":");
		char dir[8200];
		if (n >= 7 && !strncmp(p, "$ORIGIN", 7))
			snprintf(dir, sizeof(dir), "%s%.*s", origin,
				 (int)(n - 7), p + 7);
		else
			snprintf(dir, sizeof(dir), "%.*s", (int)n, p);
		if (snprintf(out, len, "%s/%s", dir, name) < (int)len &&
		    stat(out, &st) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (snprintf(out, len, "%s/%s", dirs[i], name) < (int)len &&
		    stat(out, &st) == 0)
			return true;
	return false;
}

static void
add_needed(struct console_modules *ms, const char *path, int depth)
{
	struct module *m = add(ms, path, false);
	if (!m || depth >= MAX_NEEDED_DEPTH)
		return;
	// m may move as the list grows: keep what is needed
	size_t idx = (size_t)(m - ms->list);
	for (size_t i = 0; i < ms->list[idx].nneeded; i++) {
		char lib[4096];
		const struct module *cur = &ms->list[idx];
		if (!resolve(cur, cur->needed[i], lib, sizeof(lib)))
			continue;
		char real[4096];
		if (!realpath(lib, real))
			continue;
		if (!find(ms, real))
			add_needed(ms, real, depth + 1);
	}
}

void
console_modules_refresh(struct irs_console *c)
{
	const struct irs_target *t = c->t;
	struct console_modules *ms = &c->modules;
	char path[4096], real[4096];

	for (size_t i = 0; i < ms->n; i++)
		ms->list[i].loaded = false;
	for (uint32_t i = 0; t->module && i < MAX_MODULES; i++) {
		path[0] = 0;
		struct irs_error *err = t->module(t->arg, i, path,
						  sizeof(path));
		if (err) {
			irs_error_destroy(err);
			break;
		}
		path[sizeof(path) - 1] = 0;
		// a type donor's symbols sit at address 0: never used
		if (!*path || !realpath(path, real) ||
		    (c->donor_path && !strcmp(real, c->donor_path)))
			continue;
		add(ms, real, true);
	}
	if (t->exe_path && realpath(t->exe_path, real))
		add_needed(ms, real, 0);
}

uint32_t
console_modules_functions(struct irs_console *c, const regex_t *re,
			  void (*each)(void *arg, const char *function),
			  void *arg)
{
	uint32_t n = 0;
	for (size_t i = 0; i < c->modules.n; i++) {
		const struct module *m = &c->modules.list[i];
		for (size_t j = 0; j < m->nfuncs; j++)
			if (!regexec(re, m->funcs[j], 0, NULL, 0)) {
				each(arg, m->funcs[j]);
				n++;
			}
	}
	return n;
}

const char *
console_modules_symbol(const struct irs_console *c, const char *name)
{
	for (size_t i = 0; i < c->modules.n; i++) {
		const struct module *m = &c->modules.list[i];
		char *key = (char *)name;
		// bsearch takes no NULL array, even of none
		if ((m->nobjects && bsearch(&key, m->objects, m->nobjects,
					    sizeof(char *), by_name)) ||
		    (m->nfuncs && bsearch(&key, m->funcs, m->nfuncs,
					  sizeof(char *), by_name)))
			return m->soname;
	}
	return NULL;
}

const char *
console_modules_library(const struct irs_console *c, const regex_t *re,
			char *capture, size_t len)
{
	regmatch_t mt[2];
	for (size_t i = 0; i < c->modules.n; i++) {
		const struct module *m = &c->modules.list[i];
		const char *names[64];
		size_t nn = 0;
		names[nn++] = m->soname;
		for (size_t j = 0; j < m->nneeded && nn < ARRAY_SIZE(names);
		     j++)
			names[nn++] = m->needed[j];
		for (size_t j = 0; j < nn; j++) {
			if (regexec(re, names[j], 2, mt, 0))
				continue;
			int at = mt[1].rm_so >= 0 ? 1 : 0;
			snprintf(capture, len, "%.*s",
				 (int)(mt[at].rm_eo - mt[at].rm_so),
				 names[j] + mt[at].rm_so);
			return names[j];
		}
	}
	return NULL;
}

struct mapping_of {
	const char *path;
	uint64_t start;
};

static bool
maps_file_start(const struct irs_proc_mapping *m, void *arg)
{
	struct mapping_of *want = arg;
	if (m->offset || strcmp(m->path, want->path))
		return false;
	want->start = m->start;
	return true;
}

// Where module @p path is mapped in live process @p pid: the start of its
// mapping at file offset 0 (/proc/PID/maps); false when it is not.
static bool
mapped_at(int64_t pid, const char *path, uint64_t *ret)
{
	struct mapping_of want = { path, 0 };
	bool found;
	struct irs_error *err = irs_proc_mappings(pid, maps_file_start, &want,
						  &found);
	irs_error_destroy(err);
	if (found)
		*ret = want.start;
	return found;
}

// The module defining ELF symbol @p name, and the symbol; NULL when none.
static struct module *
find_symbol(const struct irs_console *c, const char *name,
	    const struct msym **ret)
{
	for (size_t i = 0; i < c->modules.n; i++) {
		struct module *m = &c->modules.list[i];
		struct msym key = { (char *)name, 0 };
		*ret = m->nsyms
			? bsearch(&key, m->syms, m->nsyms, sizeof(*m->syms),
				  sym_by_name) : NULL;
		if (*ret)
			return m;
	}
	return NULL;
}

// Where module @p m is mapped: in the process of the core file being
// examined, as the core's NT_FILE note says (the mapping GDB's `info proc
// mappings` and LLDB's module list show), when the file on disk is the
// one it mapped (found once per core); else in the live process (its
// /proc/PID/maps). A core first: GDB still reports the dead process's
// pid, which may be another process's by now.
static struct irs_error *
module_base(struct module *m, const struct irs_target *t, uint64_t *ret)
{
	if (t->core_path && *t->core_path) {
		if (m->core && !strcmp(m->core, t->core_path)) {
			*ret = m->core_base;
			return NULL;
		}
		struct irs_error *err = irs_mem_core_mapped_at(t->core_path,
							       m->path, ret);
		if (err)
			return err;
		free(m->core);
		m->core = strdup(t->core_path);	// else found again
		m->core_base = *ret;
		return NULL;
	}
	if (t->pid <= 0)
		return irs_error_format(IRS_ERROR_STATE, "%s is not mapped: "
					"no process, no core file", m->soname);
	if (!mapped_at(t->pid, m->path, ret))
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s is not "
					"loaded", m->soname);
	return NULL;
}

struct irs_error *
console_modules_address(const struct irs_console *c, const char *name,
			uint64_t *ret)
{
	const struct msym *s;
	struct module *m = find_symbol(c, name, &s);
	if (!m)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no symbol %s in "
					"the debuggee's modules", name);
	uint64_t base;
	struct irs_error *err = module_base(m, c->t, &base);
	if (err)
		return err;
	*ret = base - m->first_vaddr + s->value;
	return NULL;
}

struct irs_error *
console_modules_bytes(const struct irs_console *c, const char *name,
		      void *buf, uint64_t n)
{
	const struct msym *s;
	const struct module *m = find_symbol(c, name, &s);
	if (!m)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no symbol %s in "
					"the debuggee's modules", name);
	const struct mseg *g = NULL;
	for (size_t i = 0; i < m->nsegs && !g; i++)
		if (s->value >= m->segs[i].vaddr &&
		    s->value - m->segs[i].vaddr < m->segs[i].filesz &&
		    n <= m->segs[i].filesz - (s->value - m->segs[i].vaddr))
			g = &m->segs[i];
	if (!g)
		return irs_error_format(IRS_ERROR_FORMAT, "%s: %s is not in "
					"a segment of the file", m->path, name);
	int fd = open(m->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return irs_error_format(IRS_ERROR_IO, "%s: %s", m->path,
					strerror(errno));
	ssize_t got = pread(fd, buf, n, (off_t)(g->offset + s->value -
						 g->vaddr));
	int e = errno;
	close(fd);
	if (got != (ssize_t)n)
		return irs_error_format(IRS_ERROR_IO, "%s: reading %s: %s",
					m->path, name, got < 0 ? strerror(e)
					: "cut short");
	return NULL;
}
