/*
 * util/util.h — the util area, the bottom of libirsnap: growable buffers,
 * atomic files and whole-file reads, JSON writing and scanning, number
 * formatting, shell quoting and splitting, IRSNAP_DEBUG letters.
 * May use: irsnap.h (errors) and the C library only.
 *
 * Every header of common/ is internal: gdb/, lldb/ and the CLI use irsnap.h
 * (the CLI also the batch tools' tools/tools.h); unit tests may include an
 * area's header to reach its internals.
 */
#ifndef IRSNAP_UTIL_H
#define IRSNAP_UTIL_H

#include <stdarg.h>
#include <stdio.h>

#include "irsnap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- buf.c: growable byte buffer ----------------------------------------- */

/** A byte buffer that is always NUL-terminated once anything is appended.
 *  Owns data; free with irs_buf_deinit(). Appends fail only on OOM and then
 *  set oom, which sticks, so a caller may check once at the end. */
struct irs_buf {
	char *data;
	size_t len, cap;
	bool oom;
};

void irs_buf_init(struct irs_buf *b);
void irs_buf_deinit(struct irs_buf *b);
/** Grows the @p *cap bytes at *data (realloc) to hold @p need, doubling
 *  *cap (from 64 when 0); false, both untouched, past SIZE_MAX or when
 *  memory ran out. */
bool irs_grow(char **data, size_t *cap, size_t need);
/** Room in the array *@p arr (of @p *cap elements of @p elem bytes, @p n
 *  used) for one more, doubling *cap (from 16 when 0): appends one at a
 *  time in amortized O(1), where realloc by one element is quadratic under
 *  allocators that copy on every realloc (ASan's). False, both untouched,
 *  when memory ran out. */
bool irs_grow_array(void **arr, size_t n, size_t *cap, size_t elem);
/** Room for @p extra more bytes and a NUL (doubling); false (oom set)
 *  when memory ran out. For writers that fill b->data themselves. */
bool irs_buf_reserve(struct irs_buf *b, size_t extra);
bool irs_buf_append(struct irs_buf *b, const void *p, size_t n);
bool irs_buf_puts(struct irs_buf *b, const char *s);
bool irs_buf_printf(struct irs_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** Hands data to the caller (free with free()/irs_free()); resets @p b. */
char *irs_buf_steal(struct irs_buf *b);
/**
 * Appends @p len bytes of @p s with what a terminal would act on made
 * visible: control characters (all C0 but tab, and newline unless
 * @p lines; DEL; the C1 controls U+0080..U+009F) as \n, \r, \e, \xNN or
 * \u00NN, and bytes that are not UTF-8 as \xNN. For all text irsnap prints
 * that comes from a layout, a run directory, a core or the debuggee, so a
 * hostile name cannot rewrite the terminal.
 */
bool irs_buf_printable(struct irs_buf *b, const char *s, size_t len,
		       bool lines);
/** @p s made printable so (NULL: ""), freed with free(); NULL on OOM. */
char *irs_printable(const char *s, bool lines);

/* ---- cxxname.c: C++ type names as debuggers and compilers spell them ---- */

/** The spellings of one C++ type name. */
enum irs_cxx_style {
	IRS_CXX_CLANG,		/* clang's DWARF: `const T *`, `4` */
	IRS_CXX_CLANG_UNSIGNED,	/* the same with unsigned integers: `4U` */
	IRS_CXX_GCC,		/* g++'s DWARF: `const T*`, `4` */
	IRS_CXX_GDB,		/* GDB's printing: `T const*`, `4u` kept */
};
/** @p name ("llvm::DenseMap<const llvm::Value *, unsigned int>") spelt in
 *  @p style into @p buf; false when it does not parse as a type name or
 *  does not fit (then @p buf holds a prefix). */
bool irs_cxx_spell(const char *name, enum irs_cxx_style style, char *buf,
		   size_t len);
/** Whether @p name has template arguments or qualifiers a spelling may
 *  change. */
bool irs_cxx_is_template(const char *name);
/** The last component of @p name without its template arguments:
 *  "llvm::ilist_node_base<false>" -> "ilist_node_base". */
void irs_cxx_short_name(const char *name, char *buf, size_t len);

/* ---- file.c: atomic files and whole-file reads --------------------------- */

struct irs_file_pool;

/** A file being written under a temporary name beside its final path, or
 *  under none (a file of a pool, named when committed). */
struct irs_atomic_file {
	FILE *fp;		/* write here */
	char *path;		/* final path */
	char *tmp;		/* temporary path, same directory */
	bool unnamed;		/* an irs_file_pool file: no name yet */
};

/** Opens "<path>.tmp.<pid>.<n>" for writing. */
struct irs_error *irs_atomic_open(struct irs_atomic_file *af, const char *path);
/** The same with a file @p pool (made in @p path's directory; NULL: none)
 *  made ahead, when it has one; for a @p path that does not exist yet
 *  (a new snapshot's). */
struct irs_error *irs_atomic_open_pool(struct irs_atomic_file *af,
				       const char *path,
				       struct irs_file_pool *pool);
/** Flushes, closes and renames over the final path; on any error removes
 *  the temporary file and says which path failed. Frees @p af's members. */
struct irs_error *irs_atomic_commit(struct irs_atomic_file *af);
/** Closes and removes the temporary file; the final path is untouched. */
void irs_atomic_abort(struct irs_atomic_file *af);
/**
 * Appends the bytes of file @p src from @p offset to its end to @p af, in
 * the kernel where it can (copy_file_range). Errors name @p src or the
 * file being written.
 */
struct irs_error *irs_atomic_append_file(struct irs_atomic_file *af,
					 const char *src, uint64_t offset);
/* ---- file_pool.c: files made ahead by a thread -------------------------- */

/** Unnamed files (O_TMPFILE) made ahead in one directory. */
struct irs_file_pool;
/** A pool keeping up to @p depth files ready in @p dir, made by a thread
 *  of its own (which takes no signal). Where the file system makes no
 *  unnamed files the pool is empty for good, and takes give -1. *ret
 *  freed with irs_file_pool_destroy() (NULL is fine). */
struct irs_error *irs_file_pool_create(const char *dir, unsigned depth,
				       struct irs_file_pool **ret);
void irs_file_pool_destroy(struct irs_file_pool *p);
/** An unnamed file of the pool's directory open for writing, the caller's
 *  to close (or name, irs_atomic_commit()); -1 when there is none, and
 *  in a process forked from the one that made the pool. */
int irs_file_pool_take(struct irs_file_pool *p);

/** Makes @p path a hard link to the file @p from, atomically (a link under
 *  a temporary name, renamed over @p path): a copy that costs no bytes,
 *  for files never written again. An IRS_ERROR_IO error when the file
 *  system cannot (the caller copies instead). */
struct irs_error *irs_atomic_link(const char *from, const char *path);
/** Writes @p len bytes to @p path atomically. */
struct irs_error *irs_file_write(const char *path, const void *data,
				 size_t len);
/** Reads a whole regular file (opened without blocking, so a FIFO cannot
 *  hang the caller), at most irs_file_read_cap() bytes; anything else is
 *  an error naming @p path. *ret NUL-terminated, free with free(). */
struct irs_error *irs_file_read(const char *path, char **ret, size_t *len_ret);
/** irs_file_read() with a cap of @p max bytes (0: the default); with
 *  @p devices a FIFO or character device the user named (/dev/stdin, a
 *  shell's <(...)) is read too, to its end or the cap. */
struct irs_error *irs_file_read_max(const char *path, uint64_t max,
				    bool devices, char **ret, size_t *len_ret);
/** The default cap: IRS_FILE_READ_CAP, or $IRSNAP_MAX_READ_MB MiB. */
uint64_t irs_file_read_cap(void);
#define IRS_FILE_READ_CAP (1ull << 30)
/** The cap for a layout or prelude module. */
#define IRS_LAYOUT_MAX_BYTES (16ull << 20)
/** Opens @p path for reading when it is a regular file (without blocking
 *  on a FIFO); *fd_ret the caller's to close(). */
struct irs_error *irs_file_open_regular(const char *path, int *fd_ret,
					uint64_t *size_ret);
/** mkdir -p. */
struct irs_error *irs_mkdirs(const char *path);

/* ---- json_out.c: JSON writing helpers ------------------------------------ */

/** Writes @p s as a JSON string literal (quotes included), escaping control
 *  characters and invalid UTF-8 bytes (as \u00XX). */
void irs_json_string(FILE *fp, const char *s, size_t len);
/** The same into a buffer. */
bool irs_buf_json_string(struct irs_buf *b, const char *s, size_t len);

/* ---- json_split.c: the elements of one array member, by scanning --------- */

/**
 * Where the elements of array member @p key of the top-level object in
 * @p text lie, found by a scan that checks structure only (strings,
 * nesting, separators), not values: a parser reads each piece. For
 * documents too large to parse whole (a snapshot's nodes).
 */
struct irs_json_split {
	size_t open, close;	/* offsets of the array's '[' and ']' */
	size_t *at;		/* element i: [at[2i], at[2i+1]) */
	size_t n, cap;
};
/** False when @p text has no such member or its structure is broken (a
 *  parser of the whole says where); *ret is then empty. */
bool irs_json_split(const char *text, size_t len, const char *key,
		    struct irs_json_split *ret);
void irs_json_split_deinit(struct irs_json_split *s);

/* ---- numfmt.c: number formatting for text and JSON ----------------------- */

/** Decimal digits of @p v into @p out (>= 21 bytes); returns the length. */
size_t irs_fmt_u64(char *out, uint64_t v);
size_t irs_fmt_i64(char *out, int64_t v);
/** "0x" and lower-case hex digits of @p v into @p out (>= 19 bytes). */
size_t irs_fmt_hex(char *out, uint64_t v);
/** A double as %g (text) into @p out (>= 32 bytes). */
size_t irs_fmt_double(char *out, double v);
/**
 * Checks a printf format from a template ("%04d", "%.6e", "%s") and rewrites
 * it for int64_t/uint64_t/double/char * arguments into @p out (>= 2x+8
 * bytes). *class_ret: 'i', 'u', 'f', 's' or 'c'. False when malformed.
 */
bool irs_fmt_check(const char *fmt, size_t len, char *out, char *class_ret);

/* ---- shell.c: words for a POSIX shell ------------------------------------ */

/** Appends @p s to @p b quoted for a POSIX shell where needed (bytes sh
 *  leaves alone outside quotes are appended as they are). */
bool irs_shell_quote(struct irs_buf *b, const char *s);
/** Splits a shell command line into words ('..', "..", \), as sh would;
 *  *ret is NULL-terminated, each word and the array freed with free().
 *  IRS_ERROR_FORMAT for an unterminated quote. */
struct irs_error *irs_shell_split(const char *line, char ***ret);
/** Frees what irs_shell_split() returned (NULL is fine). */
void irs_shell_words_free(char **words);

/* ---- env.c: environments for child processes ----------------------------- */

/**
 * A copy of our environment with each entry of @p set ("NAME=VALUE", a
 * NULL-terminated list, or NULL) in place of any variable of that name,
 * and without the variables named in @p unset (NULL-terminated, or NULL).
 * The entries of @p set come first. Free with irs_env_free(); NULL on OOM.
 */
char **irs_env_edit(const char *const *set, const char *const *unset);
/** Frees what irs_env_edit() returned (NULL is fine). */
void irs_env_free(char **env);

/* ---- debug.c: IRSNAP_DEBUG=WSR letters ----------------------------------- */

/** True when letter @p c is in $IRSNAP_DEBUG (W walker, L layout, S session,
 *  R reducer, M memory). */
bool irs_debug(char c);

#endif
