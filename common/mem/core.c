// Memory of a process as an ELF core file left it: the bytes of its PT_LOAD
// segments, and for pages the core left out (read-only file-backed mappings
// such as .text and .rodata, which gcore and the kernel skip by default) the
// files its NT_FILE note names, at the mapping's file offset. libelf reads
// the headers and notes; segment data is read with pread, never mapped, so
// a core truncated or shrunk under us is an error, not a SIGBUS.
//
// A core is untrusted: its NT_FILE note may name any file (a secret read
// as the program's .rodata), and a genuine core's program may have been
// rebuilt since. So a mapped file is read only from the files the caller
// vouches for (the program and libraries the user named or the debugger
// loaded), and only when it is the file the process mapped: its build ID
// is the one in the core's copy of its ELF headers (the kernel and gcore
// keep a mapping's first page), or, when the core kept none, its path is
// the note's. Anything else is not read, and says why.
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/procfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem/mem.h"

struct segment {		// a PT_LOAD
	uint64_t vaddr, memsz;
	uint64_t filesz;	// bytes in the core; the rest of memsz is not
	uint64_t offset;	// in the core
};

struct mapping {		// an NT_FILE entry
	uint64_t start, end;
	uint64_t offset;	// in the mapped file
	uint32_t file;		// index into files
};

struct mapped_file {
	char *path;		// as NT_FILE names it
	const char *source;	// the file read for it (an allowed one's
				// path), or NULL: not read, see why
	char *why;		// why not (NULL while source is set)
	int fd;			// -1 until opened
	int err;		// errno of a failed open, then 0 never again
};

// IDs longer than this (SHA-1's 20 bytes is the usual) are cut.
#define BUILD_ID_MAX 64

struct allowed_file {		// a file the caller vouches for
	char *path;
	char *real;		// its realpath, or NULL
	uint8_t id[BUILD_ID_MAX];
	size_t nid;		// 0: it has no build ID we could read
};

struct core_source {
	struct irs_mem_source base;
	char *path;
	int fd;
	uint64_t size;
	struct segment *segs;	// sorted by vaddr
	size_t nsegs;
	struct mapping *maps;	// sorted by start
	size_t nmaps;
	struct mapped_file *files;
	size_t nfiles;
	struct allowed_file *allowed;
	size_t nallowed;
	char *notice;		// the first file that differs, in a sentence
	const char *note_problem;	// NT_FILE may be incomplete: why
	uint64_t claimed;	// where its segments end, by their headers
	int64_t pid;		// NT_PRPSINFO's, 0 when none
	char psargs[81];	// its command line, cut at 80 bytes
	uint8_t *auxv;		// the NT_AUXV note's copy, or NULL
	size_t auxv_len;
};

static struct irs_error *
format_error(const struct core_source *c, const char *what)
{
	return irs_error_format(IRS_ERROR_FORMAT, "core file %s: %s", c->path,
				what);
}

/* {=========== parsing =================================================== */

static uint64_t
get_word(const uint8_t *p, unsigned word)
{
	if (word == 4) {
		uint32_t v;
		memcpy(&v, p, 4);
		return v;
	}
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static int
by_vaddr(const void *a, const void *b)
{
	uint64_t x = ((const struct segment *)a)->vaddr;
	uint64_t y = ((const struct segment *)b)->vaddr;
	return x < y ? -1 : x > y;
}

static int
by_start(const void *a, const void *b)
{
	uint64_t x = ((const struct mapping *)a)->start;
	uint64_t y = ((const struct mapping *)b)->start;
	return x < y ? -1 : x > y;
}

// The index of mapped file @p name, added if new. Entries of one file come
// in a row, so the last one is checked first.
static struct irs_error *
intern_file(struct core_source *c, const char *name, uint32_t *ret)
{
	for (size_t i = c->nfiles; i-- > 0;)
		if (!strcmp(c->files[i].path, name)) {
			*ret = (uint32_t)i;
			return NULL;
		}
	struct mapped_file *f = realloc(c->files,
					(c->nfiles + 1) * sizeof(*f));
	if (!f)
		return &irs_enomem;
	c->files = f;
	f[c->nfiles].path = strdup(name);
	if (!f[c->nfiles].path)
		return &irs_enomem;
	f[c->nfiles].source = NULL;
	f[c->nfiles].why = NULL;
	f[c->nfiles].fd = -1;
	f[c->nfiles].err = 0;
	*ret = (uint32_t)c->nfiles++;
	return NULL;
}

// NT_FILE: count, page size, count x (start, end, file offset in pages),
// then count NUL-terminated file names; words of the core's class.
static struct irs_error *
parse_nt_file(struct core_source *c, const uint8_t *p, size_t len,
	      unsigned word)
{
	struct irs_error *err;

	if (len < 2 * word) {
		c->note_problem = "malformed (too short)";
		return NULL;
	}
	uint64_t count = get_word(p, word);
	uint64_t page = get_word(p + word, word);
	if (count > (len - 2 * word) / (3 * word)) {
		c->note_problem = "malformed (more entries than bytes)";
		return NULL;
	}
	const uint8_t *entry = p + 2 * word;
	const char *name = (const char *)(entry + count * 3 * word);
	const char *names_end = (const char *)p + len;
	struct mapping *maps = realloc(c->maps, (c->nmaps + count) *
					sizeof(*maps));
	if (!maps && count)
		return &irs_enomem;
	c->maps = maps;
	for (uint64_t i = 0; i < count; i++, entry += 3 * word) {
		const char *nul = memchr(name, '\0',
					 (size_t)(names_end - name));
		if (!nul) {
			c->note_problem = "malformed (names run past its end)";
			return NULL;
		}
		uint64_t start = get_word(entry, word);
		uint64_t end = get_word(entry + word, word);
		uint64_t pgoff = get_word(entry + 2 * word, word);
		bool ok = end > start && (!page || pgoff <= UINT64_MAX / page);
		if (ok) {
			struct mapping *m = &c->maps[c->nmaps];
			err = intern_file(c, name, &m->file);
			if (err)
				return err;
			m->start = start;
			m->end = end;
			m->offset = pgoff * page;
			c->nmaps++;
		}
		name = nul + 1;
	}
	return NULL;
}

// An auxiliary vector holds a few dozen pairs; more is not one.
#define AUXV_MAX 4096

static struct irs_error *
parse_notes(struct core_source *c, Elf *elf, const GElf_Phdr *ph,
	    unsigned word)
{
	GElf_Nhdr nh;
	size_t name_off, desc_off, pos = 0;

	uint64_t len = ph->p_filesz;
	if (ph->p_offset >= c->size) {
		c->note_problem = "past the end of the truncated core";
		return NULL;
	}
	if (len > c->size - ph->p_offset) {
		len = c->size - ph->p_offset;
		c->note_problem = "cut short by the truncated core";
	}
	Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph->p_offset, len,
					   ELF_T_NHDR);
	if (!d) {
		c->note_problem = "unreadable";
		return NULL;
	}
	while ((pos = gelf_getnote(d, pos, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)d->d_buf + name_off;
		if (nh.n_type == NT_PRPSINFO && nh.n_namesz == 5 &&
		    !memcmp(name, "CORE", 5) && word == 8 &&
		    nh.n_descsz >= sizeof(prpsinfo_t)) {
			// the kernel's (and gcore's) record of the process:
			// its pid and the first 80 bytes of its command line
			prpsinfo_t ps;
			memcpy(&ps, (const uint8_t *)d->d_buf + desc_off,
			       sizeof(ps));
			c->pid = ps.pr_pid;
			memcpy(c->psargs, ps.pr_psargs, sizeof(ps.pr_psargs));
			c->psargs[sizeof(ps.pr_psargs)] = 0;
			continue;
		}
		if (nh.n_type == NT_AUXV && nh.n_namesz == 5 &&
		    !memcmp(name, "CORE", 5) && word == 8 && !c->auxv &&
		    nh.n_descsz >= 16 && nh.n_descsz <= AUXV_MAX &&
		    nh.n_descsz % 16 == 0) {
			c->auxv = malloc(nh.n_descsz);
			if (!c->auxv)
				return &irs_enomem;
			memcpy(c->auxv, (const uint8_t *)d->d_buf + desc_off,
			       nh.n_descsz);
			c->auxv_len = nh.n_descsz;
			continue;
		}
		if (nh.n_type != NT_FILE || nh.n_namesz != 5 ||
		    memcmp(name, "CORE", 5))
			continue;
		struct irs_error *err = parse_nt_file(
			c, (const uint8_t *)d->d_buf + desc_off, nh.n_descsz,
			word);
		if (err)
			return err;
	}
	return NULL;
}

static struct irs_error *
add_segment(struct core_source *c, const GElf_Phdr *ph)
{
	if (ph->p_memsz == 0)
		return NULL;
	struct segment *s = realloc(c->segs, (c->nsegs + 1) * sizeof(*s));
	if (!s)
		return &irs_enomem;
	c->segs = s;
	s += c->nsegs++;
	s->vaddr = ph->p_vaddr;
	// Cut what cannot be: past the address space, more file than memory.
	s->memsz = ph->p_memsz <= UINT64_MAX - ph->p_vaddr
			   ? ph->p_memsz : UINT64_MAX - ph->p_vaddr;
	s->filesz = ph->p_filesz < s->memsz ? ph->p_filesz : s->memsz;
	s->offset = ph->p_offset;
	if (s->filesz > UINT64_MAX - s->offset)
		s->filesz = UINT64_MAX - s->offset;
	return NULL;
}

static const char *
elf_type_name(unsigned type)
{
	switch (type) {
	case ET_REL:
		return "a relocatable object";
	case ET_EXEC:
		return "an executable";
	case ET_DYN:
		return "a shared object or PIE executable";
	default:
		return "an ELF file of unknown type";
	}
}

// Checks that @p elf is a core of this machine's byte order and reads its
// program headers.
static struct irs_error *
parse_elf(struct core_source *c, Elf *elf)
{
	struct irs_error *err;
	GElf_Ehdr eh;
	size_t phnum;
	char msg[160];

	if (elf_kind(elf) != ELF_K_ELF) {
		char magic[SELFMAG];
		if (pread(c->fd, magic, SELFMAG, 0) != SELFMAG ||
		    memcmp(magic, ELFMAG, SELFMAG))
			return format_error(c, "not an ELF file");
		snprintf(msg, sizeof(msg), "truncated: %" PRIu64 " bytes, too "
			 "short for an ELF header", c->size);
		return format_error(c, msg);
	}
	if (!gelf_getehdr(elf, &eh)) {
		snprintf(msg, sizeof(msg), "truncated or malformed ELF header "
			 "(%" PRIu64 " bytes): %s", c->size, elf_errmsg(-1));
		return format_error(c, msg);
	}
	if (eh.e_type != ET_CORE) {
		snprintf(msg, sizeof(msg), "not a core file but %s",
			 elf_type_name(eh.e_type));
		return format_error(c, msg);
	}
	int host = 1;
	bool host_le = *(char *)&host == 1;
	if ((eh.e_ident[EI_DATA] == ELFDATA2LSB) != host_le)
		return format_error(c, "its byte order is not this machine's");
	unsigned word = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	// libelf counts no program headers in a file too short for them;
	// say the file is cut instead.
	if (eh.e_phnum == PN_XNUM) {
		if (elf_getphdrnum(elf, &phnum) != 0) {
			snprintf(msg, sizeof(msg), "cannot read its program "
				 "headers: %s", elf_errmsg(-1));
			return format_error(c, msg);
		}
	} else {
		phnum = eh.e_phnum;
	}
	uint64_t phsize = (uint64_t)phnum * eh.e_phentsize;
	if (eh.e_phoff > c->size || phsize > c->size - eh.e_phoff) {
		snprintf(msg, sizeof(msg), "truncated: %" PRIu64 " bytes, "
			 "but its program headers end at byte %" PRIu64,
			 c->size, (uint64_t)eh.e_phoff + phsize);
		return format_error(c, msg);
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph)) {
			snprintf(msg, sizeof(msg), "program header %zu: %s",
				 i, elf_errmsg(-1));
			return format_error(c, msg);
		}
		if ((ph.p_type == PT_LOAD || ph.p_type == PT_NOTE) &&
		    ph.p_offset + ph.p_filesz >= ph.p_offset &&
		    ph.p_offset + ph.p_filesz > c->claimed)
			c->claimed = ph.p_offset + ph.p_filesz;
		if (ph.p_type == PT_LOAD)
			err = add_segment(c, &ph);
		else if (ph.p_type == PT_NOTE)
			err = parse_notes(c, elf, &ph, word);
		else
			err = NULL;
		if (err)
			return err;
	}
	if (!c->nsegs && !c->nmaps)
		return format_error(c, "it holds no memory (no PT_LOAD "
				    "segment, no NT_FILE note)");
	if (c->nsegs)
		qsort(c->segs, c->nsegs, sizeof(*c->segs), by_vaddr);
	if (c->nmaps)
		qsort(c->maps, c->nmaps, sizeof(*c->maps), by_start);
	return NULL;
}

/* }=========== */

/* {=========== reading =================================================== */

// The index of the first of the @p n entries at @p base (@p size bytes
// each, sorted by the uint64_t @p key bytes into each) whose key is above
// @p addr; n when there is none.
static size_t
first_above(const void *base, size_t n, size_t size, size_t key,
	    uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;
		memcpy(&k, (const char *)base + mid * size + key, sizeof(k));
		if (k <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

// The segment holding @p addr, or NULL; *next_ret the start of the first
// segment above it (UINT64_MAX: none).
static const struct segment *
find_segment(const struct core_source *c, uint64_t addr, uint64_t *next_ret)
{
	size_t i = first_above(c->segs, c->nsegs, sizeof(*c->segs),
			       offsetof(struct segment, vaddr), addr);
	*next_ret = i < c->nsegs ? c->segs[i].vaddr : UINT64_MAX;
	const struct segment *s = i ? &c->segs[i - 1] : NULL;
	return s && addr - s->vaddr < s->memsz ? s : NULL;
}

// The same for NT_FILE mappings.
static const struct mapping *
find_mapping(const struct core_source *c, uint64_t addr, uint64_t *next_ret)
{
	size_t i = first_above(c->maps, c->nmaps, sizeof(*c->maps),
			       offsetof(struct mapping, start), addr);
	*next_ret = i < c->nmaps ? c->maps[i].start : UINT64_MAX;
	const struct mapping *m = i ? &c->maps[i - 1] : NULL;
	return m && addr < m->end ? m : NULL;
}

// pread of @p n bytes at @p off; *got gets how many arrived before the end
// of the file or an error (errno kept).
static bool
pread_all(int fd, void *buf, uint64_t n, uint64_t off, uint64_t *got)
{
	*got = 0;
	while (*got < n) {
		if (off + *got > (uint64_t)INT64_MAX) {
			errno = 0;	// no such byte: as past the end
			return false;
		}
		ssize_t r = pread(fd, (char *)buf + *got, n - *got,
				  (off_t)(off + *got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return false;
		}
		*got += (uint64_t)r;
	}
	return true;
}

static struct irs_error *
read_core_bytes(struct core_source *c, uint64_t addr, void *buf, uint64_t n,
		uint64_t off, uint64_t *got)
{
	if (pread_all(c->fd, buf, n, off, got))
		return NULL;
	if (errno)
		return irs_error_fault(addr + *got, "core file %s: %s",
				       c->path, strerror(errno));
	return irs_error_fault(addr + *got, "core file %s is truncated "
			       "(%" PRIu64 " bytes)", c->path, c->size);
}

static struct irs_error *
read_mapped(struct core_source *c, const struct mapping *m, uint64_t addr,
	    void *buf, uint64_t n, uint64_t *got)
{
	struct mapped_file *f = &c->files[m->file];

	*got = 0;
	if (!f->source)
		return irs_error_fault(addr, "left out of core file %s, and "
				       "its mapped file %s is not read: %s",
				       c->path, f->path, f->why ? f->why
				       : "not a file the debugger loaded");
	if (f->fd < 0 && !f->err) {
		// A FIFO or a device there is not waited on nor read.
		struct stat st;
		f->fd = open(f->source, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (f->fd < 0)
			f->err = errno;
		else if (fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(f->fd);
			f->fd = -1;
			f->err = -1;	// said as "not a regular file"
		}
	}
	if (f->fd < 0)
		return irs_error_fault(addr, "left out of core file %s, and "
				       "its mapped file %s cannot be opened: "
				       "%s", c->path, f->source,
				       f->err < 0 ? "not a regular file"
				       : strerror(f->err));
	uint64_t off = m->offset + (addr - m->start);
	if (off < m->offset || off > (uint64_t)INT64_MAX)
		goto past_end;		// no such byte in any file
	if (pread_all(f->fd, buf, n, off, got))
		return NULL;
	if (errno)
		return irs_error_fault(addr + *got, "left out of core file %s,"
				       " and its mapped file %s: %s", c->path,
				       f->source, strerror(errno));
	// The file ends here. The kernel maps its last page with zeros after
	// the end; a page wholly past it would have raised SIGBUS.
	uint64_t eof = off + *got;
	uint64_t room = IRS_PAGE_SIZE - (eof & (IRS_PAGE_SIZE - 1));
	if (room < IRS_PAGE_SIZE) {
		uint64_t z = n - *got < room ? n - *got : room;
		memset((uint8_t *)buf + *got, 0, z);
		*got += z;
		if (*got == n)
			return NULL;
	}
past_end:
	return irs_error_fault(addr + *got, "left out of core file %s, and "
			       "past the end of its mapped file %s", c->path,
			       f->source);
}

static uint64_t
min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;
	return m < c ? m : c;
}

// Reads a prefix of [addr, addr + left) that has one kind of backing: core
// bytes, a mapped file, zeros, or nothing. *got gets its length.
static struct irs_error *
read_piece(struct core_source *c, uint64_t addr, uint8_t *out, uint64_t left,
	   uint64_t *got)
{
	uint64_t next_seg, next_map;
	const struct segment *s = find_segment(c, addr, &next_seg);
	if (s && addr - s->vaddr < s->filesz) {
		uint64_t in = addr - s->vaddr;
		uint64_t n = s->filesz - in < left ? s->filesz - in : left;
		return read_core_bytes(c, addr, out, n, s->offset + in, got);
	}
	const struct mapping *m = find_mapping(c, addr, &next_map);
	// Up to where this kind of backing could change.
	uint64_t limit = s ? s->vaddr + s->memsz - addr : next_seg - addr;
	if (m)
		return read_mapped(c, m, addr, out, min3(left, limit,
							 m->end - addr), got);
	if (s) {
		// A segment tail no file backs: memory the core did not need
		// to store, zero.
		uint64_t n = min3(left, limit, next_map - addr);
		memset(out, 0, n);
		*got = n;
		return NULL;
	}
	*got = 0;
	if (c->note_problem)
		return irs_error_fault(addr, "not in core file %s (its NT_FILE"
				       " note is %s, so mapped files may be "
				       "missing)", c->path, c->note_problem);
	return irs_error_fault(addr, "not in core file %s", c->path);
}

static struct irs_error *
core_read(struct irs_mem_source *src, uint64_t address, void *buf,
	  uint64_t count, uint64_t *done)
{
	struct core_source *c = (struct core_source *)src;
	uint8_t *out = buf;
	uint64_t d = 0;

	while (d < count) {
		uint64_t got;
		struct irs_error *err = read_piece(c, address + d, out + d,
						   count - d, &got);
		d += got;
		if (err) {
			*done = d;
			return err;
		}
	}
	*done = d;
	return NULL;
}

/* }=========== */

/* {=========== which mapped files are read ================================= */

// NT_GNU_BUILD_ID of the ELF image @p elf (a file, or the first page of a
// mapping as the core kept it): its PT_NOTE segments, as far as the image
// holds them. The length into *len (0: none found).
static void
elf_build_id(Elf *elf, uint8_t *id, size_t *len)
{
	size_t phnum;
	*len = 0;
	if (elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &phnum) != 0)
		return;
	for (size_t i = 0; i < phnum && i < 256 && !*len; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE ||
		    ph.p_filesz > 65536)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
						   ph.p_filesz, ELF_T_NHDR);
		GElf_Nhdr nh;
		size_t pos = 0, name_off, desc_off;
		while (d && (pos = gelf_getnote(d, pos, &nh, &name_off,
						&desc_off)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((const char *)d->d_buf + name_off, "GNU",
				   4) || !nh.n_descsz)
				continue;
			*len = nh.n_descsz < BUILD_ID_MAX ? nh.n_descsz
							   : BUILD_ID_MAX;
			memcpy(id, (const uint8_t *)d->d_buf + desc_off, *len);
			break;
		}
	}
}

// The build ID of mapped file @p f as the process mapped it, from the
// core's copy of the first page of its mapping at file offset 0 (core
// bytes only: never the file itself). 0 when the core kept none.
static size_t
core_build_id(struct core_source *c, uint32_t f, uint8_t *id)
{
	size_t len = 0;
	for (size_t i = 0; i < c->nmaps && !len; i++) {
		const struct mapping *m = &c->maps[i];
		uint64_t next;
		const struct segment *s = find_segment(c, m->start, &next);
		if (m->file != f || m->offset != 0 || !s ||
		    m->start - s->vaddr >= s->filesz)
			continue;
		uint64_t in = m->start - s->vaddr, n = s->filesz - in, got;
		if (n > 16 * IRS_PAGE_SIZE)
			n = 16 * IRS_PAGE_SIZE;
		if (n > m->end - m->start)
			n = m->end - m->start;
		char *page = malloc(n);
		struct irs_error *err = page ? read_core_bytes(c, m->start,
				page, n, s->offset + in, &got) : NULL;
		if (page && !err) {
			Elf *elf = elf_memory(page, n);
			if (elf) {
				elf_build_id(elf, id, &len);
				elf_end(elf);
			}
		}
		irs_error_destroy(err);
		free(page);
	}
	return len;
}

static void
hex(char *out, const uint8_t *id, size_t len)
{
	for (size_t i = 0; i < len && i < BUILD_ID_MAX; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * (len < BUILD_ID_MAX ? len : BUILD_ID_MAX)] = '\0';
}

// The files the caller vouches for, with their build IDs.
static struct irs_error *
read_allowed(struct core_source *c, const char *const *files)
{
	size_t n = 0;
	while (files && files[n])
		n++;
	if (!n)
		return NULL;
	if (!(c->allowed = calloc(n, sizeof(*c->allowed))))
		return &irs_enomem;
	for (size_t i = 0; i < n; i++) {
		struct allowed_file *a = &c->allowed[c->nallowed];
		if (!*files[i])
			continue;
		if (!(a->path = strdup(files[i])))
			return &irs_enomem;
		a->real = realpath(files[i], NULL);
		c->nallowed++;
		struct stat st;
		int fd = open(files[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
			Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
			if (elf) {
				elf_build_id(elf, a->id, &a->nid);
				elf_end(elf);
			}
		}
		close(fd);
	}
	return NULL;
}

// Whether allowed file @p a is @p path (its realpath @p real, or NULL).
static bool
same_path(const struct allowed_file *a, const char *path, const char *real)
{
	return !strcmp(a->path, path) ||
	       (real && a->real && !strcmp(real, a->real));
}

// Decides, for each file NT_FILE names, which allowed file (if any) is
// read for it, or why none is. Notes the first file that differs from
// the one the process mapped.
static struct irs_error *
match_files(struct core_source *c)
{
	for (uint32_t i = 0; i < c->nfiles; i++) {
		struct mapped_file *f = &c->files[i];
		uint8_t id[BUILD_ID_MAX];
		size_t nid = core_build_id(c, i, id);
		const struct allowed_file *by_id = NULL, *by_path = NULL;
		char *real = c->nallowed ? realpath(f->path, NULL) : NULL;
		for (size_t k = 0; k < c->nallowed; k++) {
			const struct allowed_file *a = &c->allowed[k];
			bool same = same_path(a, f->path, real);
			if (nid && a->nid == nid && !memcmp(a->id, id, nid) &&
			    (!by_id || same))
				by_id = a;
			if (same && !by_path)
				by_path = a;
		}
		free(real);
		if (by_id || (!nid && by_path)) {
			f->source = (by_id ? by_id : by_path)->path;
			continue;
		}
		if (!by_path)
			continue;	// not a file the debugger loaded
		char was[2 * BUILD_ID_MAX + 1], is[2 * BUILD_ID_MAX + 1];
		hex(was, id, nid);
		hex(is, by_path->id, by_path->nid);
		if (asprintf(&f->why, "it is not the file the process mapped "
			     "(build ID %s in the core, %s on disk: rebuilt "
			     "since?)", was, by_path->nid ? is : "none") < 0) {
			f->why = NULL;
			return &irs_enomem;
		}
		if (!c->notice && asprintf(&c->notice, "core file %s: %s %s: "
					   "the pages the core left out of it "
					   "are not read", c->path, f->path,
					   f->why + 3) < 0) {
			c->notice = NULL;
			return &irs_enomem;
		}
	}
	return NULL;
}

/* }=========== */

static void
core_destroy(struct irs_mem_source *src)
{
	struct core_source *c = (struct core_source *)src;
	for (size_t i = 0; i < c->nfiles; i++) {
		if (c->files[i].fd >= 0)
			close(c->files[i].fd);
		free(c->files[i].path);
		free(c->files[i].why);
	}
	free(c->files);
	for (size_t i = 0; i < c->nallowed; i++) {
		free(c->allowed[i].path);
		free(c->allowed[i].real);
	}
	free(c->allowed);
	free(c->notice);
	free(c->maps);
	free(c->segs);
	free(c->auxv);
	if (c->fd >= 0)
		close(c->fd);
	free(c->path);
	free(c);
}

static const struct irs_mem_source_ops core_ops = {
	.read = core_read,
	.destroy = core_destroy,
};

static struct irs_error *
core_open(struct core_source *c, const char *const *files)
{
	struct stat st;

	// O_NONBLOCK: a FIFO named as the core must not block the debugger
	// in open(); it is refused as not a regular file below.
	c->fd = open(c->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0 || fstat(c->fd, &st) != 0) {
		int e = errno;
		return irs_error_format(e == ENOENT ? IRS_ERROR_NOT_FOUND
						    : IRS_ERROR_IO,
					"cannot open core file %s: %s",
					c->path, strerror(e));
	}
	if (!S_ISREG(st.st_mode))
		return format_error(c, "not a regular file");
	c->size = (uint64_t)st.st_size;
	if (c->size == 0)
		return format_error(c, "empty file");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return format_error(c, elf_errmsg(-1));
	Elf *elf = elf_begin(c->fd, ELF_C_READ, NULL);
	if (!elf)
		return format_error(c, elf_errmsg(-1));
	struct irs_error *err = parse_elf(c, elf);
	elf_end(elf);
	if (!err)
		err = read_allowed(c, files);
	if (!err)
		err = match_files(c);
	c->base.notice = c->notice;
	return err;
}

struct irs_error *
irs_mem_core_source(const char *path, const char *const *files,
		    struct irs_mem_source **ret)
{
	if (!path || !*path)
		return irs_error_format(IRS_ERROR_USAGE, "no core file named");
	struct core_source *c = calloc(1, sizeof(*c));
	if (!c)
		return &irs_enomem;
	c->base.ops = &core_ops;
	c->base.kind = "core";
	c->fd = -1;
	c->path = strdup(path);
	if (!c->path) {
		core_destroy(&c->base);
		return &irs_enomem;
	}
	struct irs_error *err = core_open(c, files);
	if (err) {
		core_destroy(&c->base);
		return err;
	}
	*ret = &c->base;
	return NULL;
}

char *
irs_mem_core_truncation(const char *path)
{
	struct irs_mem_source *src;
	char *msg = NULL;
	struct irs_error *err = irs_mem_core_source(path, NULL, &src);
	if (err) {
		// cut before its headers end: the opening says so already
		if (strstr(irs_error_get_message(err), "truncated"))
			msg = strdup(irs_error_get_message(err));
		irs_error_destroy(err);
		return msg;
	}
	const struct core_source *c = (const struct core_source *)src;
	if (c->claimed > c->size &&
	    asprintf(&msg, "core file %s is truncated: %" PRIu64 " bytes, but "
		     "its program headers say %" PRIu64 ", so the stack and "
		     "other memory past byte %" PRIu64 " are missing", c->path,
		     c->size, c->claimed, c->size) < 0)
		msg = NULL;
	src->ops->destroy(src);
	return msg;
}

struct irs_error *
irs_mem_core_mapped_at(const char *path, const char *file, uint64_t *ret)
{
	struct irs_mem_source *src;
	const char *const files[] = { file, NULL };
	struct irs_error *err = irs_mem_core_source(path, files, &src);
	if (err)
		return err;
	const struct core_source *c = (const struct core_source *)src;
	const char *why = NULL;
	bool found = false;
	// maps are sorted by start: the first at offset 0 is the ELF header
	for (size_t i = 0; i < c->nmaps && !found; i++) {
		const struct mapping *m = &c->maps[i];
		const struct mapped_file *f = &c->files[m->file];
		if (m->offset != 0)
			continue;
		if (f->source)
			found = true, *ret = m->start;
		else if (f->why && !why)
			why = f->why;
	}
	if (found)
		err = NULL;
	else if (why)
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "core file %s: %s "
				       "%s", path, file, why);
	else
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "core file %s "
				       "maps no %s (its NT_FILE note%s%s)",
				       path, file, c->note_problem ? " is "
				       : " names no such file",
				       c->note_problem ? c->note_problem : "");
	src->ops->destroy(src);
	return err;
}

/* {=========== the command line =========================================== */

// How much of the stack below AT_EXECFN's string is searched for argv: the
// kernel caps argument and environment strings at a quarter of an 8 MiB
// stack, and a core's claims beyond that are not believed.
#define ARGV_WINDOW ((uint64_t)4 << 20)

// The word at byte @p i of @p w (8-byte words).
static uint64_t
word_at(const uint8_t *w, uint64_t i)
{
	uint64_t v;
	memcpy(&v, w + i, 8);
	return v;
}

// The process's whole argv, NUL-separated as in /proc/PID/cmdline, from the
// core's copy of its initial stack: NT_PRPSINFO keeps only 80 bytes. execve
// lays the stack out as argc, argv[], NULL, envp[], NULL, auxv[], and the
// NT_AUXV note holds the same auxv, so it is found by its bytes in the
// segment that holds AT_EXECFN's string, and argv is walked back from it.
// NULL when the core does not hold all of that (a truncated core, a stack
// left out) or it does not agree with NT_PRPSINFO; the core is untrusted,
// so every step is bounded and checked.
static char *
stack_argv(struct core_source *c, size_t *len_ret)
{
	uint64_t execfn = 0, next;
	for (size_t i = 0; i + 16 <= c->auxv_len; i += 16)
		if (word_at(c->auxv, i) == AT_EXECFN)
			execfn = word_at(c->auxv, i + 8);
	const struct segment *s = find_segment(c, execfn, &next);
	if (!execfn || !s || execfn - s->vaddr >= s->filesz)
		return NULL;
	uint64_t lo = execfn - s->vaddr > ARGV_WINDOW ? execfn - ARGV_WINDOW
						      : s->vaddr;
	lo &= ~(uint64_t)7;
	if (lo < s->vaddr)
		lo += 8;
	uint64_t n = (execfn - lo) & ~(uint64_t)7, got;
	uint8_t *w = malloc(n ? n : 1);
	if (!w)
		return NULL;
	char *out = NULL;
	size_t len = 0;
	if (n < c->auxv_len + 24 ||
	    read_core_bytes(c, lo, w, n, s->offset + (lo - s->vaddr), &got))
		goto fail;
	// the last copy of auxv below the strings is the kernel's
	uint64_t at = UINT64_MAX;
	for (uint64_t i = 0; i + c->auxv_len <= n; i += 8)
		if (!memcmp(w + i, c->auxv, c->auxv_len))
			at = i;
	if (at == UINT64_MAX || at < 16 || word_at(w, at - 8) != 0)
		goto fail;
	uint64_t i = at - 16;	// the last envp entry, or argv's NULL
	while (i >= 8 && word_at(w, i) != 0)
		i -= 8;
	if (word_at(w, i) != 0)
		goto fail;
	uint64_t argv_null = i, argc = 0;
	while (i >= 8) {
		i -= 8;
		if (word_at(w, i) == argc && argc > 0)
			break;
		argc++;
	}
	if (word_at(w, i) != argc || argc == 0)
		goto fail;
	// execve copied the strings above the vectors, below AT_EXECFN's
	uint64_t first = word_at(w, argv_null - 8 * argc) - lo;
	uint64_t last = word_at(w, argv_null - 8) - lo;
	if (first < at || first >= n || last < first || last >= n)
		goto fail;
	const char *end = memchr(w + last, 0, n - last);
	if (!end)
		goto fail;
	len = (size_t)((const uint8_t *)end + 1 - (w + first));
	// they lie one after another, as /proc/PID/cmdline shows them
	for (uint64_t k = 1, p = first; k < argc; k++) {
		p += strlen((const char *)w + p) + 1;
		if (p > last || p != word_at(w, argv_null - 8 * (argc - k)) - lo)
			goto fail;
	}
	if (!(out = malloc(len)))
		goto fail;
	memcpy(out, w + first, len);
	// what the kernel kept must be how this starts, blanks for NULs
	for (size_t k = 0; k < len && c->psargs[k]; k++)
		if (c->psargs[k] != (out[k] ? out[k] : ' '))
			goto fail;
	free(w);
	*len_ret = len;
	return out;
fail:
	free(w);
	free(out);
	return NULL;
}

struct irs_error *
irs_mem_core_process(const char *path, int64_t *pid_ret, char **argv_ret,
		     size_t *len_ret)
{
	struct irs_mem_source *src;
	struct irs_error *err = irs_mem_core_source(path, NULL, &src);
	if (err)
		return err;
	struct core_source *c = (struct core_source *)src;
	size_t len = 0;
	char *argv = stack_argv(c, &len);
	if (!argv && c->psargs[0]) {
		// only the kernel's 80 bytes: blanks are the best guess at
		// where one argument ends
		len = strlen(c->psargs) + 1;
		argv = strdup(c->psargs);
		if (!argv) {
			src->ops->destroy(src);
			return &irs_enomem;
		}
		for (char *p = argv; *p; p++)
			if (*p == ' ')
				*p = 0;
	}
	*pid_ret = c->pid;
	*argv_ret = argv;
	*len_ret = argv ? len : 0;
	src->ops->destroy(src);
	return NULL;
}

/* }=========== */
