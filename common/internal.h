/*
 * internal.h — prototypes shared inside libirsnap, grouped by file as in QBE.
 * Not for gdb/, lldb/ or the CLI, which use irsnap.h only (unit tests may
 * include this to reach internals).
 */
#ifndef IRSNAP_INTERNAL_H
#define IRSNAP_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>

#include "irsnap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- buf.c: growable byte buffer ------------------------------------- */

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
/** Room for @p extra more bytes and a NUL (doubling); false (oom set)
 *  when memory ran out. For writers that fill b->data themselves. */
bool irs_buf_reserve(struct irs_buf *b, size_t extra);
bool irs_buf_append(struct irs_buf *b, const void *p, size_t n);
bool irs_buf_puts(struct irs_buf *b, const char *s);
bool irs_buf_printf(struct irs_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** Hands data to the caller (free with free()/irs_free()); resets @p b. */
char *irs_buf_steal(struct irs_buf *b);

/* ---- file.c: atomic files and whole-file reads ------------------------- */

/** A file being written under a temporary name beside its final path. */
struct irs_atomic_file {
	FILE *fp;		/* write here */
	char *path;		/* final path */
	char *tmp;		/* temporary path, same directory */
};

/** Opens "<path>.tmp.<pid>.<n>" for writing. */
struct irs_error *irs_atomic_open(struct irs_atomic_file *af, const char *path);
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
/** Writes @p len bytes to @p path atomically. */
struct irs_error *irs_file_write(const char *path, const void *data,
				 size_t len);
/** Reads a whole file; *ret NUL-terminated, free with free(). */
struct irs_error *irs_file_read(const char *path, char **ret, size_t *len_ret);
/** mkdir -p. */
struct irs_error *irs_mkdirs(const char *path);

/* ---- json_out.c: JSON writing helpers ------------------------------------ */

/** Writes @p s as a JSON string literal (quotes included), escaping control
 *  characters and invalid UTF-8 bytes (as \u00XX). */
void irs_json_string(FILE *fp, const char *s, size_t len);
/** The same into a buffer. */
bool irs_buf_json_string(struct irs_buf *b, const char *s, size_t len);

/* ---- json_split.c: the elements of one array member, by scanning ----- */

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

/* ---- debug.c: IRSNAP_DEBUG=WSR letters ----------------------------------- */

/** True when letter @p c is in $IRSNAP_DEBUG (W walker, L layout, S session,
 *  R reducer, M memory). */
bool irs_debug(char c);

#endif
