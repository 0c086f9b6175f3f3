/*
 * mem/mem.h — the mem area: the memory readers behind irsnap.h's "Memory"
 * section, the page cache (cache.c) and the sources it reads from (pid.c,
 * core.c, target.c). May use: util/.
 */
#ifndef IRSNAP_MEM_H
#define IRSNAP_MEM_H

#include <sys/uio.h>

#include "util/util.h"

/* ---- cache.c: the page cache --------------------------------------------- */

/*
 * The cache tracks readability per 4 KiB page, the smallest page the kernel
 * maps: a page is readable as a whole, not at all, or (from sources that
 * fault mid-page) up to a byte.
 */
#define IRS_PAGE_SHIFT 12
#define IRS_PAGE_SIZE ((uint64_t)1 << IRS_PAGE_SHIFT)

/** Default bound on cached bytes. The cache only has to hold what a walk
 *  comes back to (a node's neighbourhood, the tables it indexes): a walk
 *  of a million-instruction module reads as fast with 8 MiB as with the
 *  whole IR cached, and the debugger does not grow by the IR's size. */
#define IRS_MEMORY_CAPACITY ((uint64_t)8 << 20)
/** Default read-ahead: one source call fills this many bytes of pages
 *  around a miss (aligned, power of two). */
#define IRS_MEMORY_WINDOW ((uint32_t)64 << 10)

struct irs_mem_source;

/**
 * What a source of debuggee memory does. A source reads without caching;
 * the cache calls it on a miss.
 *
 * read() reads @p count bytes at @p address into @p buf. It returns NULL
 * with *done = count, or on a short read an IRS_ERROR_FAULT error whose
 * message says why (no "cannot read" prefix: the cache adds that) and whose
 * address is address + *done, the first unreadable byte; bytes before it
 * are valid in @p buf. Any other error (out of memory) means nothing was
 * read and is passed up as is.
 *
 * readv() is the same into @p iovcnt buffers (at most IOV_MAX), for sources
 * that can scatter without a copy; NULL when the source cannot.
 *
 * gather() reads the @p n spans at @p spans (iov_base the debuggee address,
 * iov_len the length), back to back into @p buf, for sources that can in
 * fewer calls than one per span; NULL when the source cannot. A span that
 * does not read whole fails it all with an error (any code): the caller
 * reads them one by one instead.
 */
struct irs_mem_source_ops {
	struct irs_error *(*read)(struct irs_mem_source *src, uint64_t address,
				  void *buf, uint64_t count, uint64_t *done);
	struct irs_error *(*readv)(struct irs_mem_source *src,
				   uint64_t address, const struct iovec *iov,
				   int iovcnt, uint64_t *done);
	struct irs_error *(*gather)(struct irs_mem_source *src,
				    const struct iovec *spans, size_t n,
				    void *buf);
	void (*destroy)(struct irs_mem_source *src);
};

/** Embedded first in each source's own struct. */
struct irs_mem_source {
	const struct irs_mem_source_ops *ops;
	const char *kind;	/* "process", "core", "target": for debug */
	const char *notice;	/* a sentence to show the user once (a core
				   whose program was rebuilt), or NULL */
};

/**
 * A cache over @p src, which it owns from now on, even on failure.
 * On success *ret is the caller's; free it with irs_memory_destroy().
 */
struct irs_error *irs_memory_create_source(struct irs_mem_source *src,
					   struct irs_memory **ret);

/**
 * Sets the cache bound to @p capacity bytes (rounded down to pages, at
 * least 8) and the read-ahead to @p window bytes (a power of two from one
 * page up; cut to a quarter of the capacity); 0 keeps a value. Drops what
 * is cached. For tests and tuning. After an out-of-memory failure every
 * read fails with it until a later call succeeds.
 */
struct irs_error *irs_memory_configure(struct irs_memory *mem,
				       uint64_t capacity, uint32_t window);

/**
 * With @p on, a fill reads ahead as far as the walk has shown it needs: a
 * quarter of the bytes filled since the cache was last emptied, from one
 * page up to the window (a module's walk reaches the whole window after
 * its first 256 KiB). A walk of one function, a per-function pass's
 * snapshot, then reads a few pages rather than a few windows, which a
 * recording also hashes and a trace reads again to tell the IR unchanged.
 * Off (the default): every fill reads its whole window.
 */
void irs_memory_set_ramp(struct irs_memory *mem, bool on);

/**
 * Reads the @p n spans @p spans (iov_base the debuggee address, iov_len the
 * length) from the source, past the cache, back to back into @p buf: a
 * process's in one system call for up to a few hundred spans. NULL when
 * all read whole; else an error (IRS_ERROR_FAULT when one did not), and
 * @p buf is unspecified.
 */
struct irs_error *irs_memory_gather(struct irs_memory *mem,
				    const struct iovec *spans, size_t n,
				    void *buf);

/** Counters since creation; the fast path of irs_memory_read() counts
 *  nothing, so reads = hits + misses does not hold. */
struct irs_memory_stats {
	uint64_t lookups;	/* slow-path page lookups */
	uint64_t misses;	/* lookups that had to fill */
	uint64_t source_calls;	/* calls into the source */
	uint64_t source_bytes;	/* bytes the source delivered */
	uint64_t evictions;
	uint64_t direct_reads;	/* large reads that bypassed the cache */
	uint64_t pages;		/* pages cached now, negative ones included */
	uint64_t capacity;	/* bytes */
	uint32_t window;	/* bytes */
};
void irs_memory_get_stats(const struct irs_memory *mem,
			  struct irs_memory_stats *ret);
/** Which source @p mem reads: "process", "core" or "target"; borrowed. */
const char *irs_memory_kind(const struct irs_memory *mem);

/*
 * The fast path, inline for the walker. struct irs_memory begins with its
 * TLB, an array of IRS_MEMORY_NTLB entries for recently used pages,
 * direct-mapped by page number (mem/cache.c checks that layout).
 */
#define IRS_MEMORY_NTLB 1024

struct irs_mem_tlb {
	uint64_t page;
	uint64_t valid;		/* readable bytes from its start; 0: empty */
	const uint8_t *data;
	uint32_t slot;
	uint32_t used;		/* hit since the clock's hand last passed */
};

/**
 * A pointer to the @p count bytes at @p address in the cache when they lie
 * in one page the TLB holds, else NULL (then read them with
 * irs_memory_read()). The bytes are the cache's: they stay valid until the
 * next read that misses the TLB, which may recycle the page.
 */
static inline __attribute__((always_inline)) const uint8_t *
irs_memory_peek_tlb(struct irs_memory *mem, uint64_t address, uint64_t count)
{
	struct irs_mem_tlb *e = (struct irs_mem_tlb *)(void *)mem +
				((address >> IRS_PAGE_SHIFT) &
				 (IRS_MEMORY_NTLB - 1));
	// Unsigned: an address below the page wraps and fails the compare.
	uint64_t off = address - e->page;
	if (off < e->valid && count <= e->valid - off) {
		e->used = 1;
		return e->data + off;
	}
	return NULL;
}

/**
 * A pointer to the bytes at @p address when its page is in the TLB, and in
 * *avail how many are readable from there to the end of the page; else
 * NULL. Valid as long as irs_memory_peek_tlb()'s.
 */
static inline __attribute__((always_inline)) const uint8_t *
irs_memory_peek_page(struct irs_memory *mem, uint64_t address,
		     uint64_t *avail)
{
	struct irs_mem_tlb *e = (struct irs_mem_tlb *)(void *)mem +
				((address >> IRS_PAGE_SHIFT) &
				 (IRS_MEMORY_NTLB - 1));
	uint64_t off = address - e->page;
	if (off < e->valid) {
		e->used = 1;
		*avail = e->valid - off;
		return e->data + off;
	}
	return NULL;
}

/*
 * What a walk read, to tell later that nothing it saw has changed. While a
 * cache records, every range it fills from its source (read-ahead
 * included, so a superset of what the walk used) is kept with how many of
 * its bytes were readable and a hash of them. Reading the ranges again
 * and comparing is a few bulk reads, where walking again visits every
 * node: a snapshot is a function of the layout, the root and these bytes.
 */
struct irs_mem_range {
	uint64_t addr;
	uint64_t len;		/* asked for */
	uint64_t valid;		/* readable from addr, <= len */
	uint64_t hash;		/* XXH3 of the valid bytes */
};

struct irs_mem_print {
	struct irs_mem_range *ranges;	/* owned; free with _deinit */
	size_t n, cap;
	bool lost;		/* a range went unrecorded: matches nothing */
};

void irs_mem_print_deinit(struct irs_mem_print *p);

/**
 * Starts recording into @p p (appending; @p p is borrowed until the next
 * call), or stops when @p p is NULL. Starting empties the cache, so every
 * byte read from then on comes from a recorded fill.
 */
void irs_memory_record(struct irs_memory *mem, struct irs_mem_print *p);

/**
 * Whether every range of @p p reads the same now, through @p mem's source
 * (not its cache): same readable length, same hash. False for a lost or
 * empty print and on any error; never fails otherwise.
 */
bool irs_memory_print_matches(struct irs_memory *mem,
			      const struct irs_mem_print *p);
/**
 * Makes @p p say what its ranges hold now: each range's hash is taken
 * again, through @p mem's cache. A range that no longer reads as far as
 * it did marks @p p lost.
 */
void irs_memory_print_refresh(struct irs_memory *mem, struct irs_mem_print *p);

/* ---- target.c: reads through the front end's callback -------------------- */

/** A source over @p t->read; @p t is borrowed and must outlive it. */
struct irs_error *irs_mem_target_source(const struct irs_target *t,
					struct irs_mem_source **ret);

/* ---- pid.c: a stopped live process --------------------------------------- */

/** A source over process @p pid (process_vm_readv, else /proc/PID/mem).
 *  IRS_ERROR_NOT_FOUND when there is no such process. */
struct irs_error *irs_mem_pid_source(int64_t pid, struct irs_mem_source **ret);
/** True when /proc/PID is a live process whose executable is @p exe_path
 *  (any, when NULL): then its memory is the debuggee's. */
bool irs_mem_pid_matches(int64_t pid, const char *exe_path);

/* ---- core.c: an ELF core file -------------------------------------------- */

/** A source over the ELF core file @p path: PT_LOAD segments, then, for
 *  pages the core left out, the files of its NT_FILE note, each read only
 *  from one of @p files (NULL-terminated, or NULL: none; the program and
 *  libraries the user named or the debugger loaded) that is the file the
 *  process mapped: the same build ID as the core's copy of its headers,
 *  or, when the core kept none, the same path. A file of @p files that
 *  differs is not read, and src->notice says so. Errors name the file:
 *  IRS_ERROR_NOT_FOUND / IRS_ERROR_IO when it cannot be opened,
 *  IRS_ERROR_FORMAT when it is not a usable ELF core. */
struct irs_error *irs_mem_core_source(const char *path,
				      const char *const *files,
				      struct irs_mem_source **ret);
/** When core file @p path is shorter than its program headers say (cut
 *  while it was written, a full disk), a sentence saying so, freed with
 *  free(); NULL when it is whole, or not a core irsnap can read. */
char *irs_mem_core_truncation(const char *path);
/** Which process core file @p path is of: its pid from NT_PRPSINFO (0 when
 *  the core has none) and its whole argv, NUL-separated and NUL-ended as in
 *  /proc/PID/cmdline, read back from the initial stack the core holds; when
 *  the stack does not have it, NT_PRPSINFO's command line (cut at 80 bytes
 *  by the kernel, split at blanks). *argv_ret is NULL when neither is there,
 *  else freed with free(); *len_ret is its length. */
struct irs_error *irs_mem_core_process(const char *path, int64_t *pid_ret,
				       char **argv_ret, size_t *len_ret);

/** Where the process of core file @p path mapped ELF file @p file (the
 *  start of its mapping at file offset 0, as the core's NT_FILE note
 *  says), when @p file is the file the process mapped (as
 *  irs_mem_core_source() decides it); IRS_ERROR_NOT_FOUND, saying why,
 *  when it did not map it or mapped another build of it. */
struct irs_error *irs_mem_core_mapped_at(const char *path, const char *file,
					 uint64_t *ret);

#endif
