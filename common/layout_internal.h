/*
 * layout_internal.h — the compiled layout (the C-side schema), text
 * templates, the walker and its writers. Shared by layout*.c, template.c,
 * walk*.c, sink.c, emit_*.c, snapshot.c, verify.c and visited.c; unit tests
 * may include it. Front ends use irsnap.h only.
 *
 * How a layout becomes a snapshot:
 *  1. layout_lua.c runs the Lua file in a sandbox; the declarations
 *     (layout_decl.c) and field constructors (layout_fields.c) leave plain
 *     Lua tables behind;
 *  2. layout_compile.c and layout_resolve.c turn those tables into the
 *     schema below, asking the target for offsets, sizes and enumerators,
 *     and template.c compiles each text template into an opcode list;
 *  3. walker.c walks the debuggee's memory once (walk_seq.c steps through
 *     sequences, walk_json.c writes node records), rendering text into one
 *     sink and the JSON graph into another, without calling Lua unless the
 *     layout asked for a Lua function (walk_lua.c);
 *  4. snapshot.c wraps the walk into files (irs_snapshot_*), verify.c runs
 *     the Lua verifiers over a walk.
 *
 * A layout is not thread-safe: its Lua state serves one walk at a time.
 */
#ifndef IRSNAP_LAYOUT_INTERNAL_H
#define IRSNAP_LAYOUT_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "memory.h"

typedef struct lua_State lua_State;

/** For the small helpers the walk calls millions of times. */
#define IRS_INLINE static inline __attribute__((always_inline))

/* ==== Schema (layout_compile.c builds it, everything else reads it) ==== */

enum { IRS_NONE = UINT32_MAX };

/** What a field is, for the walker. */
enum lkind {
	LK_INT,		/* signed integer (also bitfields) */
	LK_UINT,	/* unsigned integer (also bitfields) */
	LK_BOOL,
	LK_FLOAT,	/* 4 or 8 bytes */
	LK_ENUM,	/* integer with names */
	LK_CSTR,	/* char *, NUL-terminated */
	LK_CHARS,	/* char[N] inline */
	LK_STRN,	/* pointer plus length */
	LK_PTR,		/* owning pointer to a struct type */
	LK_REF,		/* non-owning pointer to a struct type */
	LK_EMBED,	/* a struct type inline at the offset */
	LK_INDEX,	/* integer index into a sequence of an outer node */
	LK_UNION,	/* one of several fields, chosen by a tag field */
	LK_SEQ,		/* a sequence; see struct lseq */
	LK_COMPUTED,	/* a Lua function of the node */
};

/** Where a scalar (integer, pointer, float) lies inside its struct. */
struct lloc {
	uint32_t offset;	/* bytes from the start of the struct */
	uint8_t size;		/* 1, 2, 4 or 8 */
	uint8_t bit_off;	/* bitfields: bits from offset */
	uint8_t bit_size;	/* 0 unless a bitfield */
	bool is_signed;
};

/** Names of an enum, sorted by value; `dense` indexes small ranges. */
struct lenum {
	uint32_t n;
	int64_t *values;
	const char **names;	/* as rendered (strip, lower applied) */
	const char **raw;	/* as declared, for union cases and `by` */
	int64_t dense_min;	/* dense[v - dense_min] for v in range */
	uint32_t ndense;
	const char **dense;	/* NULL entries: no name */
};

enum lseq_kind { SEQ_ARRAY, SEQ_FIXED, SEQ_NULLTERM, SEQ_RANGE, SEQ_LIST };

struct lfield;

/** A sequence: where its elements are and how to step through them. */
struct lseq {
	enum lseq_kind kind;
	struct lloc base;	/* ARRAY, NULLTERM: the pointer; RANGE: begin;
				   FIXED: the inline array; LIST: the head
				   (sentinel link, or pointer to the first) */
	struct lloc count;	/* ARRAY: the count; RANGE: the end pointer */
	uint64_t fixed_count;	/* FIXED */
	struct lfield *elem;	/* element, at offset 0 of each element */
	uint32_t stride;	/* bytes per element */
	/* LIST: pointers point at the link member of the element */
	uint32_t link_off;	/* offset of the link in the element */
	uint32_t next_off;	/* offset of `next`, from the element start */
	uint32_t prev_off;	/* offset of `prev`, from the element start */
	uint32_t head_next_off;	/* sentinel: head.next in the owner */
	bool has_prev;
	bool sentinel;
};

/** A tagged union: the case whose value equals the tag field's value. */
struct lunion {
	const struct lfield *tag;	/* a field of the same struct */
	uint32_t ncases;
	int64_t *values;
	struct lfield **cases;
	const char **keys;		/* case names until linked */
	struct lfield *deflt;		/* or NULL */
};

/** One field of a struct type (or the element of a sequence). */
struct lfield {
	const char *name;	/* declared name; "[]" for an element */
	const char *json_key;	/* "\"name\":" ready to write */
	uint32_t json_key_len;
	enum lkind kind;
	uint32_t line;		/* where the layout declared it */
	const char *ctor;	/* constructor used: "u32", "list" */
	const char *path;	/* debug-info path, or NULL when explicit */
	struct lloc at;		/* the value itself */
	uint32_t type;		/* PTR, REF, EMBED: type index */
	uint64_t mask;		/* PTR, REF: address = value & mask */
	uint32_t nchars;	/* CHARS */
	struct lloc len;	/* STRN: the length */
	const struct lenum *en;	/* ENUM */
	struct lseq *seq;	/* SEQ */
	struct lunion *un;	/* UNION */
	uint32_t index_type;	/* INDEX: the enclosing node type */
	const struct lfield *index_seq;	/* INDEX: its sequence field */
	int fn;			/* COMPUTED: Lua registry reference */
	/* unresolved names, linked once every type is compiled */
	const char *link_name;	/* UNION: tag; INDEX: "T.seq" */
};

enum top_code {
	TOP_LIT,	/* literal text */
	TOP_FIELD,	/* {f}, {f.g}, {f:FMT} */
	TOP_SEQ,	/* {s*SEP} */
	TOP_IF,		/* {?f}: jump to `jump` when false */
	TOP_JUMP,	/* {:} */
	TOP_SELFREF,	/* {@ref} */
	TOP_REFOF,	/* {@f}, {@s*SEP}: by the target's ref template */
};

/** One template instruction. */
struct top {
	uint8_t code;		/* enum top_code */
	uint8_t npath;
	char fmt_class;		/* 0, or 'i' 'u' 'f' 's' 'c' (format) */
	bool is_seq;		/* REFOF of a sequence */
	uint32_t pre;		/* literal text written first: offset in lits */
	uint32_t pre_len;	/* ... and length (0: none) */
	uint32_t lit;		/* LIT, SEQ, REFOF: offset in lits */
	uint32_t len;		/* ... and length */
	uint32_t jump;		/* IF, JUMP: next op when taken */
	const struct lfield **path;	/* field, then through ptr/ref */
	const char *fmt;	/* printf format for int64/uint64/double/str */
};

struct ltemplate {
	uint32_t nops;
	struct top *ops;
	const char *lits;
	const char *src;	/* as written, for show */
};

enum ltext_kind { TX_NONE, TX_TEMPLATE, TX_BY, TX_LUA };

/** How a type renders: a template, a template per tag value, or Lua. */
struct ltext {
	enum ltext_kind kind;
	const struct ltemplate *tpl;	/* TEMPLATE */
	const struct lfield *by;	/* BY: the enum field */
	uint32_t ncases;
	int64_t *values;
	const struct ltemplate **cases;
	const struct ltemplate *deflt;	/* or NULL */
	int fn;				/* LUA: registry reference */
};

/** A struct type the layout declared. */
struct ltype {
	const char *name;	/* layout name */
	const char *ctype;	/* debug-info name (usually the same) */
	const char *json_name;	/* "\"name\"" ready to write */
	uint32_t index;
	uint32_t size;
	uint32_t line;
	bool node;		/* a graph node with identity (default) */
	bool owns;		/* owns nodes, directly or through values */
	uint64_t owns_mask;	/* bit i: field i owns nodes (i < 64) */
	bool size_explicit;
	uint32_t nfields;
	struct lfield *fields;	/* declaration order */
	struct ltext text, ref;
};

struct lverifier {
	const char *name;
	const char *call;	/* or NULL */
	int64_t ok;
	int fn;			/* Lua check, or LUA_NOREF */
	uint32_t line;
};

struct irs_lua;

struct irs_layout {
	const char *name;
	const char *root;		/* root type name */
	const char *file;		/* display name for messages */
	uint32_t ntypes;
	struct ltype *types;
	uint32_t nboundaries;
	struct irs_boundary_info *boundaries;
	uint32_t nverifiers;
	struct lverifier *verifiers;
	uint32_t nunits;
	const char **units;
	const char *defs;
	const char *rerun;
	const struct irs_target *target;
	struct irs_lua *lua;		/* mutable even in a const layout */
	bool walk_lua;			/* a text or field is a Lua function:
					   a walk may depend on Lua state,
					   not only on memory */
	void *allocs;			/* every schema allocation */
};

/* ---- layout.c ---------------------------------------------------------- */

/** Zeroed memory owned by @p lo, freed by irs_layout_destroy(); NULL on
 *  OOM. */
void *irs_layout_alloc(struct irs_layout *lo, size_t size);
/** A copy of @p s (@p n bytes) owned by @p lo; NULL on OOM. */
char *irs_layout_strndup(struct irs_layout *lo, const char *s, size_t n);
/** The type called @p name, or NULL. */
const struct ltype *irs_layout_find_type(const struct irs_layout *lo,
					 const char *name);
/** The field called @p name in @p t, or NULL. */
const struct lfield *irs_ltype_field(const struct ltype *t, const char *name);
/** The name of @p value in @p en, or NULL. */
const char *irs_lenum_name(const struct lenum *en, int64_t value);
/** The value named @p name in @p en (raw or displayed name). */
bool irs_lenum_value(const struct lenum *en, const char *name,
		     int64_t *ret);

/* ---- layout_lua.c: the sandboxed Lua state ----------------------------- */

/** Budgets of a layout's Lua state. The memory budget counts blocks as
 *  malloc takes them; real layouts peak under 100 KiB (IRSNAP_DEBUG=L). */
enum {
	IRS_LUA_MEM_LIMIT = 32 << 20,		/* bytes */
	IRS_LUA_STEP_LIMIT = 100000000,	/* VM instructions per call */
};

/**
 * A Lua state on a memory and instruction budget, with the sandbox table
 * (allowlisted globals) in its registry. @p file is the display name used in
 * messages. On success *ret is the caller's; free it with irs_lua_destroy().
 */
struct irs_error *irs_lua_create(const char *file, size_t mem_limit,
				 uint64_t step_limit, struct irs_lua **ret);
void irs_lua_destroy(struct irs_lua *x);
/** Sets the budgets irs_lua_create() gives when passed 0 (0 here: back to
 *  IRS_LUA_MEM_LIMIT, IRS_LUA_STEP_LIMIT), for every layout created after.
 *  For tests and fuzzing, which want runaway layouts to stop sooner. */
void irs_lua_default_budgets(size_t mem_limit, uint64_t step_limit);
lua_State *irs_lua_state(struct irs_lua *x);
/** The irs_lua of a state (kept in its extra space). */
struct irs_lua *irs_lua_of(lua_State *L);
/**
 * Calls the function below @p nargs arguments (layout_pcall of STYLE.md):
 * pops it and them, leaves @p nresults results on success. Any Lua error,
 * budget exhaustion or pending irs_error comes back as an irs_error
 * (IRS_ERROR_LAYOUT "FILE:LINE: message" unless the pending error says
 * otherwise). The instruction budget restarts at each call.
 */
struct irs_error *irs_lua_pcall(struct irs_lua *x, int nargs, int nresults);
/** Runs @p fn(L) protected, with @p ud as its only argument
 *  (lightuserdata); nothing left on the stack. */
struct irs_error *irs_lua_protect(struct irs_lua *x, int (*fn)(lua_State *L),
				  void *ud);
/**
 * Gives the next outermost irs_lua_pcall() @p extra instructions on top of
 * the state's budget, up to ten budgets in all: for a call whose honest
 * work grows with its input (a verifier over a big snapshot). Later calls
 * get the state's budget again.
 */
void irs_lua_budget_next(struct irs_lua *x, uint64_t extra);
/** VM instructions (and charged C work) the last irs_lua_pcall() ran. */
uint64_t irs_lua_steps_used(const struct irs_lua *x);
/** True when the last irs_lua_pcall() failed because its instruction
 *  budget ran out. */
bool irs_lua_ran_out(const struct irs_lua *x);
/** Raises @p err as a Lua error; it comes back from irs_lua_pcall(). */
int irs_lua_raise(lua_State *L, struct irs_error *err)
	__attribute__((noreturn));
/** Raises IRS_ERROR_LAYOUT "FILE:LINE: message" (no LINE when 0). */
int irs_lua_raisef(lua_State *L, uint32_t line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
/**
 * Charges @p steps units of work a C function did for the layout (about
 * one VM instruction each) to the instruction budget; raises "FILE:LINE:
 * instruction budget ... exhausted" when it runs out.
 */
void irs_lua_charge(lua_State *L, uint64_t steps);
/** Pushes the sandbox table (the _ENV of layout code). */
void irs_lua_push_sandbox(lua_State *L);
/**
 * The line in the layout file being run: the innermost frame that is not a
 * prelude module, so a mistake passed through `ilist.sentinel{...}` names
 * the user's line. 0 when unknown.
 */
uint32_t irs_lua_user_line(lua_State *L);
/** The display name of the layout file. */
const char *irs_lua_file(const struct irs_lua *x);
/** Runs the chunk @p src (text only) with the sandbox as _ENV. */
struct irs_error *irs_lua_run_chunk(struct irs_lua *x, const char *src,
				    size_t len);
/** The prelude directory $IRSNAP_PRELUDE, else NULL: the modules built
 *  into the library (prelude.h). */
const char *irs_prelude_dir(void);

/* ---- layout_strlib.c: library functions on the budget ------------------ */

/**
 * Replaces, in the string library table at the stack top, the functions
 * that loop in C beyond what the instruction budget sees (find, match,
 * gmatch, gsub: backtracking patterns; rep of nothing) with versions that
 * charge their work to it. May raise (out of memory): call it protected.
 */
void irs_strlib_bound(lua_State *L);
/** The same for the table library at the stack top (move). */
void irs_tablib_bound(lua_State *L);

/* ---- layout_decl.c: layout, struct, boundary, verifier, reduce --------- */

/** Adds the declaration functions to the sandbox table at the stack top. */
void irs_decl_register(lua_State *L);
/** Pushes the table of everything declared so far. */
void irs_decl_push(lua_State *L);

/* ---- layout_fields.c: field constructors ------------------------------- */

/** Adds the field constructors to the sandbox table at the stack top. */
void irs_fields_register(lua_State *L);
/** True when the value at @p idx came from a field constructor. */
bool irs_fields_is_descriptor(lua_State *L, int idx);

/* ---- layout_compile.c -------------------------------------------------- */

/** Compiles the declarations into @p lo (its target set); raises on error.
 *  Called from a protected function with the Lua state of lo->lua. */
void irs_layout_compile(lua_State *L, struct irs_layout *lo);

/*
 * The compiler's helpers, shared with layout_resolve.c. All run inside the
 * compile's protected call: they raise "FILE:LINE: ..." (or OOM) instead of
 * returning errors, and what they allocate belongs to the layout.
 */
struct irs_cc {
	lua_State *L;
	struct irs_layout *lo;
	const struct irs_target *t;
};

#define K(x) (1u << IRS_TYPE_##x)	/* sets of enum irs_type_kind */
#define K_INTEGER (K(INT) | K(UINT) | K(BOOL) | K(ENUM))

void *irs_cc_alloc(struct irs_cc *c, size_t size);
const char *irs_cc_strdup(struct irs_cc *c, const char *s);
const char *irs_cc_printf(struct irs_cc *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** "\"s\"" (and ":" when @p colon) ready to write into JSON. */
const char *irs_cc_json(struct irs_cc *c, const char *s, bool colon);
/** Key @p k of the table at @p idx: NULL/false when absent, raises when
 *  of the wrong type. */
const char *irs_cc_str(struct irs_cc *c, int idx, const char *k,
		       uint32_t line, const char *qual);
bool irs_cc_int(struct irs_cc *c, int idx, const char *k, uint32_t line,
		const char *qual, int64_t *ret);
bool irs_cc_bool(struct irs_cc *c, int idx, const char *k, bool def);
/** The line a declaration or descriptor at @p idx was written on. */
uint32_t irs_cc_line(struct irs_cc *c, int idx);
/** Raises unless each key of descriptor @p idx is common or in @p allowed
 *  (" key1 key2 "). */
void irs_cc_keys(struct irs_cc *c, int idx, const char *allowed,
		 uint32_t line, const char *qual, const char *ctor);
/** Debug info of member @p path of @p owner; raises when there is none. */
void irs_cc_lookup(struct irs_cc *c, const struct ltype *owner,
		   const char *path, uint32_t line, const char *qual,
		   struct irs_field_info *info);
/**
 * Resolves the location at stack index @p idx (a path, an offset, a table
 * { offset, size, bit, width, signed }, or nil for an element) inside
 * @p owner (NULL: an element). @p def_size is the width when neither debug
 * info nor the table gives one; info->kind stays IRS_TYPE_OTHER when the
 * location is explicit; *path_ret (if given) gets the path or NULL.
 */
void irs_cc_loc(struct irs_cc *c, const struct ltype *owner, int idx,
		uint32_t line, const char *qual, uint32_t def_size,
		struct lloc *loc, struct irs_field_info *info,
		const char **path_ret);
/** Raises unless @p loc is 1, 2, 4 or 8 bytes (or a bitfield). */
void irs_cc_width(struct irs_cc *c, const struct lloc *loc, uint32_t line,
		  const char *qual);
/** Raises when debug info's kind is known and not in the set @p ok. */
void irs_cc_kind(struct irs_cc *c, const struct irs_field_info *info,
		 unsigned ok, uint32_t line, const char *qual, const char *ctor,
		 const char *wants);
/** The layout type @p name; raises when the layout declares none. */
const struct ltype *irs_cc_type(struct irs_cc *c, const char *name,
				uint32_t line, const char *qual);

/* ---- layout_resolve.c: field descriptors to struct lfield -------------- */

/** Compiles the descriptor at @p idx, field @p name of @p owner (NULL: a
 *  sequence element); @p qual names it in messages ("Instr.ops"). */
void irs_cc_field(struct irs_cc *c, const struct ltype *owner,
		  const char *name, const char *qual, int idx,
		  struct lfield *f);

/* ---- template.c -------------------------------------------------------- */

/**
 * Compiles template @p src for type @p t of @p lo (every field of every type
 * compiled; the ref templates before the texts); @p is_ref when it is t's
 * own ref template. On error returns an IRS_ERROR_LAYOUT whose message
 * says what is wrong, without a position (the caller adds it).
 */
struct irs_error *irs_template_compile(struct irs_layout *lo,
				       const struct ltype *t, const char *src,
				       bool is_ref,
				       const struct ltemplate **ret);

/* ==== The walk ============================================================ */

/* ---- visited.c: open-addressing set of addresses ----------------------- */

struct irs_vregion;

struct irs_visited {
	/* 8-byte aligned addresses: a bitmap per 64 KiB region */
	struct irs_vregion *regions;	/* hash table of bitmaps, or NULL */
	size_t rmask;			/* its capacity - 1 */
	size_t nregions;
	uint64_t last_key;		/* the region used last (0: none) */
	uint64_t *last_bits;
	/* other keys: open addressing, linear probing */
	uint64_t *keys;		/* 0 = empty slot */
	size_t mask;		/* capacity - 1 (capacity a power of two) */
	size_t n;		/* keys in the hash set */
	size_t total;		/* keys in the set */
};

void irs_visited_init(struct irs_visited *v);
void irs_visited_deinit(struct irs_visited *v);
/** irs_visited_add() but for the case it takes inline. */
bool irs_visited_add_slow(struct irs_visited *v, uint64_t addr, bool *added);

#define IRS_VISITED_REGION_SHIFT 16
#define IRS_VISITED_GRAIN_SHIFT 3

/** Adds @p addr (not 0). *added says whether it was new. False on OOM.
 *  Memory: about 1 KiB per 64 KiB of address space holding members, at
 *  most 128 bytes per member beyond the first MiB (sparse members go to a
 *  hash set of 8 to 16 bytes per member). */
IRS_INLINE bool
irs_visited_add(struct irs_visited *v, uint64_t addr, bool *added)
{
	// the common case: an aligned address in the region used last, when
	// no key is in the hash set
	if (!(addr & ((1u << IRS_VISITED_GRAIN_SHIFT) - 1)) && !v->n &&
	    (addr >> IRS_VISITED_REGION_SHIFT) + 1 == v->last_key) {
		size_t b = (addr >> IRS_VISITED_GRAIN_SHIFT) &
			   ((1u << (IRS_VISITED_REGION_SHIFT -
				    IRS_VISITED_GRAIN_SHIFT)) - 1);
		uint64_t m = 1ull << (b & 63);
		uint64_t *word = &v->last_bits[b >> 6];
		*added = !(*word & m);
		*word |= m;
		v->total += *added;
		return true;
	}
	return irs_visited_add_slow(v, addr, added);
}
bool irs_visited_has(const struct irs_visited *v, uint64_t addr);
/** Removes @p addr if present. */
void irs_visited_remove(struct irs_visited *v, uint64_t addr);

/* ---- sink.c: buffered output with a position and a hash ---------------- */

/**
 * Where text or JSON goes: a big buffer flushed to @p fp, or, when fp is
 * NULL, kept whole in memory. Writes never fail on the spot: an I/O error or
 * OOM sets `failed`, later writes are dropped, and irs_sink_finish() says
 * so.
 */
struct irs_sink {
	char *buf;
	size_t len, cap;
	uint64_t flushed;	/* bytes written out before buf */
	FILE *fp;
	void *hash;		/* XXH64_state_t *, or NULL */
	bool failed;
	int err_no;		/* errno of a failed write, 0 for OOM */
};

struct irs_error *irs_sink_init(struct irs_sink *s, FILE *fp, bool hash);
void irs_sink_deinit(struct irs_sink *s);
/** Makes room for @p n more bytes (flushing or growing); false if failed. */
bool irs_sink_reserve(struct irs_sink *s, size_t n);
/** Flushes; returns the write error or NULL; @p name names the output. */
struct irs_error *irs_sink_finish(struct irs_sink *s, const char *name);
/** xxh64 of everything written, 16 lower-case hex digits + NUL. */
void irs_sink_hash(struct irs_sink *s, char out[17]);
/** Takes the in-memory contents (fp NULL); free with free(). */
char *irs_sink_steal(struct irs_sink *s, size_t *len_ret);
/**
 * Lends the sink's buffer as @p b: what is appended to @p b goes straight
 * into the sink (growing its buffer), written once irs_sink_take_back()
 * gives it back. Nothing else may use @p s in between.
 */
void irs_sink_lend(struct irs_sink *s, struct irs_buf *b);
void irs_sink_take_back(struct irs_sink *s, struct irs_buf *b);

static inline uint64_t
irs_sink_pos(const struct irs_sink *s)
{
	return s->flushed + s->len;
}

/** memcpy for the few bytes of a name or a number, without a call. */
IRS_INLINE void
irs_copy_tiny(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n > 0 && n < 4) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	} else if (n) {
		memcpy(d, s, n);
	}
}

IRS_INLINE void
irs_sink_put(struct irs_sink *s, const void *p, size_t n)
{
	if (s->len + n > s->cap && !irs_sink_reserve(s, n))
		return;
	irs_copy_tiny(s->buf + s->len, p, n);
	s->len += n;
}

IRS_INLINE void
irs_sink_putc(struct irs_sink *s, char c)
{
	if (s->len + 1 > s->cap && !irs_sink_reserve(s, 1))
		return;
	s->buf[s->len++] = c;
}

/* ---- emit_text.c: number formatting for text and JSON ------------------ */

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

/* ---- emit_json.c: JSON pieces for the snapshot writer ------------------ */

void irs_json_u64(struct irs_buf *b, uint64_t v);
void irs_json_i64(struct irs_buf *b, int64_t v);
void irs_json_double(struct irs_buf *b, double v);
/** irs_buf_json_string() with plain printable ASCII copied at once. */
void irs_json_str(struct irs_buf *b, const char *s, size_t n);
/** An address as "0x..." (quotes included). */
void irs_json_addr(struct irs_buf *b, uint64_t v);
void irs_json_span(struct irs_buf *b, uint64_t start, uint64_t end);
/** irs_buf_append with the common case inline (the JSON of a million
 *  nodes is a hundred million small appends). */
IRS_INLINE void
irs_json_put(struct irs_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 <= b->cap) {
		irs_copy_tiny(b->data + b->len, s, n);
		b->len += n;
		b->data[b->len] = '\0';
	} else {
		irs_buf_append(b, s, n);
	}
}

static inline void
irs_json_lit(struct irs_buf *b, const char *s)
{
	irs_json_put(b, s, strlen(s));	// constant-folded for literals
}

/* ---- walker.c ---------------------------------------------------------- */

/** The maximum elements of one sequence (an absurd count is an error). */
#define IRS_MAX_SEQ 100000000ull
/** Walk errors kept in memory and in the JSON; more are only counted. */
#define IRS_MAX_ERRORS 10000

struct frame;

/** Detached renderings kept (see render_detached in walker.c). */
#define IRS_RCACHE_SIZE 4096
struct rcache {
	uint64_t addr;
	uint32_t key;		/* 1 + type index * 2 (+ 1: ref); 0 empty */
	uint8_t len;
	char text[51];
};

/** Called for every node visited (irs_layout_verify collects them). */
typedef bool (*irs_node_fn)(void *arg, const struct ltype *t, uint64_t addr);

/** One walk: what it reads, where it writes, what it found. */
struct walk {
	const struct irs_layout *lo;
	struct irs_memory *mem;
	struct irs_limits lim;
	struct irs_sink *text;		/* NULL: no text */
	struct irs_sink *json;		/* NULL: no JSON */
	irs_node_fn on_node;		/* or NULL */
	void *on_node_arg;

	struct irs_visited visited;
	uint64_t gen;			/* frames pushed so far */
	struct frame **frames;		/* frames[0..depth) in use */
	uint32_t nframes, depth;
	uint32_t detached;		/* > 0: rendering a ref, no visits */
	uint32_t node_frame;		/* innermost node frame or NONE */

	struct spanrec { uint64_t slot, start, end; } *spans;
	size_t nspans, capspans;

	char **errors;			/* "T at 0xADDR, field F: msg" */
	uint32_t nerrors;
	uint64_t nerrors_total;
	struct irs_buf json_errors;	/* the "errors" array's items */
	struct irs_visited error_keys;	/* to record each error once */

	uint64_t nodes, bytes, reads;
	uint64_t nodes_written;		/* JSON records so far */
	uint64_t nfail;			/* irs_walk_error calls */
	/* the struct popped last, still in its frame's buffer: a list
	   takes the next link from it instead of reading it again */
	uint64_t last_addr;
	const unsigned char *last_data;
	size_t last_size;
	struct rcache *rcache;		/* or NULL */
	uint64_t ctx_uses;		/* renderings that used context */
	uint64_t str_addr;		/* unused: scratch keeps no string */
	bool str_cut;			/* between reads (walk_lua.c clears) */
	bool trust;			/* the field's nodes all visited */
	struct irs_buf scratch;		/* strings being read */
	bool truncated;
	bool too_deep;			/* why the last push failed */
	bool stop;			/* a limit ran out: unwind */
	struct irs_error *fatal;	/* OOM, Lua state broken: give up */
	const char *stack_limit;	/* C stack guard */
	uint64_t lua_steps;		/* VM instructions its Lua calls ran */
	bool lua_spent;			/* a call ran out: call no more */
};

/** Prepares @p w for one walk. */
struct irs_error *irs_walk_init(struct walk *w, const struct irs_layout *lo,
				struct irs_memory *mem,
				const struct irs_limits *limits);
void irs_walk_deinit(struct walk *w);
/**
 * Walks the IR at @p root as type @p t: renders text into w->text, writes
 * node records (comma-separated, one per line) into w->json. Walk errors
 * are recorded in @p w; the result is an error only when the root cannot be
 * read or the walk could not go on (OOM).
 */
struct irs_error *irs_walk_root(struct walk *w, const struct ltype *t,
				uint64_t root);

/* walker internals shared with walk_json.c, walk_seq.c, walk_lua.c */

/** What is known about one sequence field of a frame. */
struct seqinfo {
	uint64_t n;		/* elements that can be walked */
	uint64_t bad_addr;	/* where it went wrong */
	uint64_t gen;		/* known for the frame of this gen */
	uint8_t bad;		/* enum seq_bad */
	bool more;		/* a list known up to n only (walk_seq.c) */
	bool reported;		/* a list: a broken prev link was reported */
	/* a list while more: where finding its length goes on */
	uint64_t first, end, cur, prev, tortoise, power, lam;
};

enum seq_bad { SEQ_OK, SEQ_FAULT, SEQ_COUNT, SEQ_CYCLE, SEQ_NULL };

struct frame {
	const struct ltype *t;	/* NULL for a bare element slot */
	uint64_t gen;		/* this push's number: seqs[i] valid when
				   seqs[i].gen matches */
	uint64_t addr;
	unsigned char *data;	/* the struct's bytes, read once */
	size_t size;
	unsigned char *own;	/* frame-owned buffer behind data */
	size_t cap;
	bool is_node;
	size_t span_mark;	/* this node's entries in w->spans */
	uint64_t done;		/* bit i: field i rendered whole */
	uint32_t parent_node;	/* frame index of the owning node */
	struct seqinfo *seqs;	/* per field of t, computed once */
	uint32_t nseqs;
	struct irs_buf json;	/* node frames: the fields being written */
	unsigned char *chunk;	/* inline elements read in bulk */
	size_t chunk_cap;
};

/** The Lua calls of one walk (computed fields, text functions) share
 *  this many VM instructions, besides each call's own budget: a slow
 *  function on every node of a big module must end too. */
#define IRS_WALK_LUA_STEPS (10ull * IRS_LUA_STEP_LIMIT)

/** Records a walk error at the current node. */
void irs_walk_error(struct walk *w, const struct lfield *f, uint64_t addr,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/** Reads debuggee memory, counting bytes; a fault is returned. */
struct irs_error *irs_walk_read_slow(struct walk *w, uint64_t addr,
				     void *buf, size_t n);

/** memcpy for the few bytes of a struct or a link, without a call. */
IRS_INLINE void
irs_copy_small(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (n > 16 && n <= 32) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n > 32 && n <= 64) {
		memcpy(d, s, 32);
		memcpy(d + n - 32, s + n - 32, 32);
	} else if (n > 64 && n <= 128) {
		memcpy(d, s, 64);
		memcpy(d + n - 64, s + n - 64, 64);
	} else {
		irs_copy_tiny(d, s, n);
	}
}

/** irs_walk_read_slow() with the common case inline: within the byte
 *  limit, in a page the memory cache's TLB holds. */
IRS_INLINE struct irs_error *
irs_walk_read(struct walk *w, uint64_t addr, void *buf, size_t n)
{
	const uint8_t *p;
	if (w->bytes + n <= w->lim.max_bytes &&
	    (p = irs_memory_peek_tlb(w->mem, addr, n))) {
		w->bytes += n;
		w->reads++;
		irs_copy_small(buf, p, n);
		return NULL;
	}
	return irs_walk_read_slow(w, addr, buf, n);
}
/** Pushes a frame for type @p t at @p addr; reads it unless @p data gives
 *  its bytes. NULL (error recorded as @p f's) when unreadable or too deep. */
struct frame *irs_walk_push(struct walk *w, const struct ltype *t,
			    uint64_t addr, const void *data,
			    const struct lfield *f);
IRS_INLINE void
irs_walk_pop(struct walk *w)
{
	struct frame *f = w->frames[--w->depth];
	w->last_addr = f->addr;
	w->last_data = f->data;
	w->last_size = f->size;
}
/** A frame for one element slot (no type): data is the element's bytes. */
struct frame *irs_walk_push_slot(struct walk *w, uint64_t addr,
				 const void *data, size_t size);

/** Scalar decoding from a frame's bytes (inline: millions per walk). */
IRS_INLINE uint64_t
irs_load_u(const unsigned char *data, const struct lloc *l)
{
	const unsigned char *p = data + l->offset;
	uint64_t v = 0;
	switch (l->size) {
	case 1:
		v = *p;
		break;
	case 2: {
		uint16_t x;
		memcpy(&x, p, 2);
		v = x;
		break;
	}
	case 4: {
		uint32_t x;
		memcpy(&x, p, 4);
		v = x;
		break;
	}
	case 8:
		memcpy(&v, p, 8);
		break;
	default:
		memcpy(&v, p, l->size);	// bitfields spanning 3, 5.. bytes
		break;
	}
	if (l->bit_size) {
		v >>= l->bit_off;
		if (l->bit_size < 64)
			v &= (1ull << l->bit_size) - 1;
	}
	return v;
}

IRS_INLINE int64_t
irs_load_i(const unsigned char *data, const struct lloc *l)
{
	uint64_t v = irs_load_u(data, l);
	unsigned bits = l->bit_size ? l->bit_size : l->size * 8u;
	if (bits && bits < 64 && ((v >> (bits - 1)) & 1))
		v |= ~0ull << bits;
	return (int64_t)v;
}

static inline double
irs_load_f(const unsigned char *data, const struct lloc *l)
{
	if (l->size == 4) {
		float x;
		memcpy(&x, data + l->offset, 4);
		return x;
	}
	double d;
	memcpy(&d, data + l->offset, 8);
	return d;
}

/** The pointer a PTR/REF field holds (masked). */
IRS_INLINE uint64_t
irs_load_ptr(const struct frame *f, const struct lfield *fd)
{
	return irs_load_u(f->data, &fd->at) & fd->mask;
}

/** The integer a scalar-like field (INT/UINT/BOOL/ENUM/INDEX) holds. */
IRS_INLINE int64_t
irs_field_int(const struct frame *f, const struct lfield *fd)
{
	if (fd->at.is_signed)
		return irs_load_i(f->data, &fd->at);
	return (int64_t)irs_load_u(f->data, &fd->at);
}
/** The chosen case of a union in frame @p f, or NULL (error recorded). */
const struct lfield *irs_union_case(struct walk *w, const struct frame *f,
				    const struct lfield *fd, bool record);
/** Makes room for @p n bytes (and a NUL) in @p b; false on OOM. */
bool irs_walk_room(struct irs_buf *b, size_t n);
/** Records that index @p i of @p fd is out of the range of @p enc's. */
void irs_walk_bad_index(struct walk *w, const struct lfield *fd, int64_t i,
			struct frame *enc);
/** Reads a C string at @p addr (at most max_string bytes) into @p b. */
struct irs_error *irs_walk_cstr(struct walk *w, uint64_t addr,
				struct irs_buf *b, bool *cut);
/** The same without a copy when it can: *s points at the string's bytes in
 *  the memory cache or in w->scratch, valid until the walk's next read. */
struct irs_error *irs_walk_str(struct walk *w, uint64_t addr, const char **s,
			       size_t *len, bool *cut);

/** Visits node @p addr of type @p t, owned by the current node; renders its
 *  text when @p render (a node already visited renders as a reference). */
void irs_walk_visit(struct walk *w, const struct ltype *t, uint64_t addr,
		    const void *data, bool render, const struct lfield *via);
/** Renders type @p t at @p addr by its ref template, detached. */
void irs_walk_render_ref(struct walk *w, const struct ltype *t,
			 uint64_t addr, uint64_t slot,
			 const struct lfield *via);

/* ---- walk_seq.c: stepping through sequences ---------------------------- */

struct seq_iter {
	const struct lseq *s;
	const struct lfield *f;
	struct frame *owner;
	struct seqinfo *si;	/* a list still being measured, or NULL */
	uint64_t n;		/* elements to visit */
	uint64_t i;
	uint64_t base;		/* arrays: first element */
	uint64_t link;		/* lists: link of the current element */
	uint64_t sentinel;	/* lists: the sentinel link, or 0 */
	uint64_t chunk_first, chunk_n;	/* elements in owner->chunk */
	uint64_t fault;		/* the element that could not be read */
};

/** irs_seq_info() when it is not known yet. */
const struct seqinfo *irs_seq_compute(struct walk *w, struct frame *f,
				      const struct lfield *fd,
				      struct seqinfo *tmp);

/** What is known of sequence @p fd in @p f (its length), computed once
 *  per frame; errors (cycle, absurd count, unreadable link) are recorded
 *  when found. @p tmp holds it when it cannot be cached. */
IRS_INLINE const struct seqinfo *
irs_seq_info(struct walk *w, struct frame *f, const struct lfield *fd,
	     struct seqinfo *tmp)
{
	const struct ltype *t = f->t;
	if (t && fd >= t->fields && fd < t->fields + t->nfields) {
		const struct seqinfo *si = &f->seqs[fd - t->fields];
		if (si->gen == f->gen && !si->more)
			return si;
	}
	return irs_seq_compute(w, f, fd, tmp);
}
void irs_seq_begin(struct walk *w, struct frame *f, const struct lfield *fd,
		   struct seq_iter *it);
/**
 * The same for a pass that visits the elements (nodes) in order: a long
 * list is measured as the pass goes, a chunk ahead of it, so its elements
 * are read together (see walk_seq.c).
 */
void irs_seq_begin_visit(struct walk *w, struct frame *f,
			 const struct lfield *fd, struct seq_iter *it);
/**
 * The next element's address, and its bytes in *data when they were read
 * in bulk (else NULL). False at the end (or on a fault, recorded).
 */
bool irs_seq_next_slow(struct walk *w, struct seq_iter *it, uint64_t *addr,
		       const unsigned char **data);

IRS_INLINE bool
irs_seq_next(struct walk *w, struct seq_iter *it, uint64_t *addr,
	     const unsigned char **data)
{
	uint64_t i = it->i;
	const struct lseq *s = it->s;
	if (i >= it->n || w->stop)
		return irs_seq_next_slow(w, it, addr, data);
	// an array element already read in bulk
	if (i >= it->chunk_first && i < it->chunk_first + it->chunk_n) {
		it->i = i + 1;
		*addr = it->base + i * s->stride;
		*data = it->owner->chunk + (i - it->chunk_first) * s->stride;
		return true;
	}
	// a list element after the one just walked, measured already: its
	// next link is in the walker's last frame
	if (s->kind == SEQ_LIST && i > 0 && !it->si &&
	    w->last_addr == it->link - s->link_off &&
	    s->next_off + 8 <= w->last_size) {
		memcpy(&it->link, w->last_data + s->next_off, 8);
		it->i = i + 1;
		*addr = it->link - s->link_off;
		*data = NULL;
		return true;
	}
	return irs_seq_next_slow(w, it, addr, data);
}
/** The address of element @p i (for index references); false if out of
 *  range or unreadable (the caller says so). */
bool irs_seq_at(struct walk *w, struct frame *f, const struct lfield *fd,
		uint64_t i, uint64_t *addr);

/* ---- walk_json.c: node records ----------------------------------------- */

/** Writes the "fields" object of frame @p f into @p out, visiting owned
 *  children not yet visited (their records come first). Only fields whose
 *  bit is in @p only are written (fields past 64 always are). */
void irs_json_fields(struct walk *w, struct frame *f, struct irs_buf *out,
		     uint64_t only);

/* ---- walk_lua.c: Lua's view of nodes (slow path) ----------------------- */

/** Pushes a Lua table of frame @p f's fields; raises on error. */
void irs_lua_push_node(lua_State *L, struct walk *w, struct frame *f);
/**
 * Calls Lua function @p ref with the node table of @p f; on success its
 * result is left on the Lua stack (as a string when @p want_string) and the
 * caller pops it. Errors are recorded as walk errors of field @p via.
 */
bool irs_walk_call_lua(struct walk *w, struct frame *f, int ref,
		       const struct lfield *via, bool want_string);

/* ---- snapshot.c -------------------------------------------------------- */

/**
 * Walks the IR at @p root as type @p type (NULL: the root type) and writes
 * the text to @p text and the JSON document to @p json (either may be NULL);
 * @p text_file is what the JSON calls the text file (or NULL). The streams
 * are flushed, not closed. On success *ret is the caller's.
 */
struct irs_error *irs_snapshot_stream(const struct irs_layout *lo,
				      struct irs_memory *mem, uint64_t root,
				      const char *type,
				      const struct irs_limits *limits,
				      FILE *text, FILE *json,
				      const char *text_file,
				      struct irs_snapshot **ret);
/** The layout type called @p name (NULL: the root type), or an error that
 *  names the types there are. */
struct irs_error *irs_layout_type_for(const struct irs_layout *lo,
				      const char *name,
				      const struct ltype **ret);
/**
 * Writes a snapshot of @p root as @p type, to @p text_path and/or
 * @p json_path, as a copy of an earlier one's files @p from_text and
 * @p from_json (each present when its new path is): for a walk that
 * would read the same bytes. The JSON's text_file names the new text file.
 * IRS_ERROR_FORMAT when @p from_json does not begin as that walk's would
 * (then nothing is written).
 */
struct irs_error *irs_snapshot_copy(const struct irs_layout *lo, uint64_t root,
				    const char *type, const char *from_text,
				    const char *from_json,
				    const char *text_path,
				    const char *json_path);

#endif
