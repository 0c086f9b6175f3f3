/*
 * layout/layout.h — the layout area: the sandboxed Lua state that runs a
 * layout file, the declarations and field constructors it calls, and the
 * compiler that turns what they leave behind into the C-side schema below
 * (types, fields, sequences, unions, templates, boundaries, verifiers).
 * May use: util/. Knows nothing of memory readers, walks or sessions: the
 * target answers its debug-info questions through struct irs_target.
 *
 * How a layout becomes a schema:
 *  1. sandbox.c runs the Lua file in a sandbox (strlib.c: the string
 *     library on the budget); the declarations (decl.c) and field
 *     constructors (fields.c) leave plain Lua tables behind;
 *  2. compile.c and resolve.c turn those tables into the schema below,
 *     asking the target for offsets, sizes and enumerators, and
 *     template.c compiles each text template into an opcode list;
 *  3. describe.c prints the result (ir-layout show).
 *
 * A layout is not thread-safe: its Lua state serves one walk at a time.
 */
#ifndef IRSNAP_LAYOUT_H
#define IRSNAP_LAYOUT_H

#include <stdio.h>
#include <string.h>

#include "util/util.h"

typedef struct lua_State lua_State;

/** For the small helpers the walk calls millions of times. */
#define IRS_INLINE static inline __attribute__((always_inline))

/* ==== Schema (compile.c builds it, everything else reads it) ==== */

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
	LK_GLOBAL,	/* what a path into a debuggee global names */
	LK_DELTA,	/* an integer kept as deltas from element to element
			   in a sequence of an outer node; see struct ldelta */
	LK_SHAPE,	/* one of the shapes of struct lshape (walk/shape.c
			   renders it) */
	/* Steps of a template's path (path.c), never fields of a type: */
	LK_PICK,	/* element lo of sequence index_seq of the struct
			   (negative: from the end): {ops[0]}, {ops[-1].u} */
	LK_SLICE,	/* its elements [lo:hi]: {params[1:]*, } */
	LK_UP,		/* the nearest enclosing struct of `type`: {^Fn.x} */
	LK_PREV,	/* the previous element of the sequence the struct is
			   an element of: {^prev.line} */
};

/** Whether @p kind is a path step (LK_PICK ...), not a field's kind. */
#define IRS_LK_STEP(kind) ((kind) >= LK_PICK)

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

enum lseq_kind { SEQ_ARRAY, SEQ_FIXED, SEQ_NULLTERM, SEQ_RANGE, SEQ_LIST,
		 SEQ_ZIP, SEQ_DERIVED };



enum lplace_at {
	PLACE_PTR,	/* behind a pointer (at ptr_off when outside the
			   struct, else the sequence's own pointer) */
	PLACE_BEFORE,	/* ending where the struct starts */
	PLACE_AFTER,	/* starting where the struct ends */
};

/** A number of bytes: k, or field `at` of the struct times k (k is a
 *  type's size when the layout names one). */
struct lterm {
	struct lloc at;
	bool has_at;
	int64_t k;
};

/** Where a sequence's elements lie when that is not behind a pointer in
 *  its struct (place.c): before the struct (LLVM's Use[] before a User;
 *  MLIR's results, in reverse), after it (trailing objects), behind a
 *  pointer outside it (a hung-off array at this - 8), past `skip` bytes
 *  computed from the struct's fields, or elsewhere when flag `when` is
 *  set (alt). */
struct lplace {
	uint8_t at;		/* enum lplace_at */
	bool reverse;		/* element i at first - i * stride */
	bool ptr_outside;	/* PTR: the pointer at ptr_off from the
				   struct's start, outside its bytes */
	int32_t ptr_off;
	uint32_t nskip;
	struct lterm *skip;	/* bytes between the place and element 0 */
	struct lloc when;	/* alt: used when this field is not 0 */
	const struct lplace *alt;
};

/** One array of a zip: element i lies at *base + i * stride. */
struct lzip {
	const struct lplace *place;	/* or NULL: behind base */
	struct lloc base;	/* the pointer in the owner */
	uint32_t stride;
	uint32_t size;		/* bytes of its element copied */
	uint32_t off;		/* where they go in the tuple */
	struct lcval *count;	/* or NULL: it has the zip's count; else
				   this many (less drop), the tuples past
				   them holding zeros in its place (an LLVM
				   call's attribute sets, fewer than its
				   arguments) */
	const char *count_name;	/* until linked */
	uint64_t drop;
};

struct lfield;

/** A sequence: where its elements are and how to step through them. */
struct lseq {
	enum lseq_kind kind;
	struct lloc base;	/* ARRAY, NULLTERM: the pointer; RANGE: begin;
				   FIXED: the inline array; LIST: the head
				   (sentinel link, or pointer to the first) */
	struct lloc count;	/* ARRAY: the count; RANGE: the end pointer */
	struct lloc first;	/* ARRAY with has_first: the index of the first
				   element, `count` the end index (LuaJIT's
				   ir[nk] to ir[nins - 1]) */
	bool has_first;
	const struct lplace *place;	/* ARRAY: or NULL, behind base */
	uint64_t limit;		/* ARRAY, ZIP: at most this many (0: any) */
	uint64_t drop;		/* ARRAY, ZIP: count less this, at least 0 */
	uint64_t divide;	/* ARRAY, ZIP: then divided by this (pairs) */
	struct lcval *length;	/* ARRAY: the count a field path gives
				   (through pointers: LLVM's constant data
				   is as long as its type says), not count */
	const char *length_name;	/* until linked */
	const struct lexpr *present;	/* ARRAY: empty unless it holds for
					   the owner (LLVM's bundle
					   descriptors, when HasDescriptor) */
	const char *present_src;	/* until linked */
	uint64_t fixed_count;	/* FIXED */
	struct lfield *elem;	/* element, at offset 0 of each element */
	uint32_t stride;	/* bytes per element */
	uint32_t overlap;	/* ARRAY: bytes an element reads past its
				   stride, into the next (a stride less than
				   its size: LuaJIT's two-slot constants) */
	/* LIST: pointers point at the link member of the element */
	uint32_t link_off;	/* offset of the link in the element */
	uint32_t next_off;	/* offset of `next`, from the element start */
	uint32_t prev_off;	/* offset of `prev`, from the element start */
	uint32_t head_next_off;	/* sentinel: head.next in the owner */
	bool has_prev;
	bool sentinel;
	/* ZIP: parallel arrays under one count (count), element i the
	   tuple of their elements i, a value of a type of its own (elem) */
	uint32_t ncomps;
	struct lzip *comps;
	struct lderived *der;	/* DERIVED (its struct is below) */
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

/** A global variable a layout names (global "optab"); its address is
 *  asked of the target once per walk (irs_layout_global_address). */
struct lsym {
	const char *name;
	uint32_t line;		/* where the layout first named it */
};

enum lgop_code {
	GOP_OFF,	/* address += k */
	GOP_DEREF,	/* address = the pointer at address */
	GOP_INDEX,	/* address += (integer at `at` of the node) * k,
			   refused outside [0, count) when count */
};

struct lgop {
	uint8_t code;		/* enum lgop_code */
	struct lloc at;		/* INDEX: the subscript in the node */
	uint64_t k;		/* OFF: bytes; INDEX: the stride */
	uint64_t count;		/* INDEX: elements, 0 when unknown */
};

/** global("optab")[scalar "op"].name: the address steps from the
 *  symbol's, and how what lies there renders. */
struct lglob {
	uint32_t sym;		/* index into lo->syms */
	uint32_t nops;
	struct lgop *ops;
	struct lfield *value;	/* at offset 0 of value_size bytes */
	uint32_t value_size;
	const char *spelled;	/* "optab[op].name", for show and errors */
	uint32_t id;		/* numbers the layout's global fields */
};

/** delta { of = "T.s", base = "b", absolute = "a", at = "pc", value =
 *  "line" }: the value at element i of the sequence the field's struct is
 *  an element of (its index, `#`) is the last absolute entry of T.a whose
 *  `at` is at most i (else T.b, from before element 0), plus the elements
 *  of T.s after that entry up to i (Lua 5.4's luaG_getfuncline). */
struct ldelta {
	uint32_t owner;			/* T: the enclosing node type */
	const struct lfield *deltas;	/* T.s: a sequence of integers */
	const struct lfield *base;	/* T.b: an integer field */
	const struct lfield *abs;	/* T.a: sequence of structs, or NULL */
	const struct lfield *abs_at;	/* their `at` and `value` fields */
	const struct lfield *abs_value;
	const char *names[5];		/* of, base, absolute, at, value until
					   linked */
};

struct lshape;

/** One field of a struct type (or the element of a sequence). */
struct lfield {
	const char *name;	/* declared name; "[]" for an element */
	const char *json_key;	/* "\"name\":" ready to write */
	uint32_t json_key_len;
	enum lkind kind;
	uint32_t line;		/* where the layout declared it */
	uint32_t index_type;	/* INDEX: the enclosing node type */
	const char *ctor;	/* constructor used: "u32", "list" */
	const char *path;	/* debug-info path, or NULL when explicit */
	struct lloc at;		/* the value itself */
	uint32_t type;		/* PTR, REF, EMBED: type index */
	int fn;			/* COMPUTED: Lua registry reference */
	uint64_t mask;		/* PTR, REF: address = value & mask */
	uint32_t past;		/* PTR, REF: the value points this many bytes
				   past the target (past = true: the size of
				   the type), so the target is value - past */
	uint32_t nchars;	/* CHARS */
	struct lloc len;	/* STRN: the length */
	uint32_t skip;		/* STRN: bytes left out at the start
				   ({ skip = N }) */
	bool tail;		/* STRN from chars(P, LEN): the bytes lie in
				   the struct itself at at.offset (a flexible
				   tail, char contents[1]), not behind a pointer */
	bool pure;		/* COMPUTED: depends on the bytes read only */
	bool no_json;		/* json = false: for the text only, not in the
				   node records (what other fields say) */
	const struct lplace *place;	/* STRN from chars({ at = "after" },
					   LEN): the bytes after the struct,
					   past place->skip */
	const struct lenum *en;	/* ENUM */
	struct lseq *seq;	/* SEQ */
	struct lunion *un;	/* UNION */
	const struct lfield *index_seq;	/* INDEX, PICK, SLICE: its sequence
					   field */
	const struct lglob *glob;	/* GLOBAL */
	struct ldelta *delta;		/* DELTA */
	int64_t lo, hi;		/* PICK: lo; SLICE: [lo:hi] (0 and INT64_MAX
				   when left out) */
	const struct lcval *bound[2];	/* SLICE: or NULL; lo and hi given
					   as field paths of the template's
					   struct ({args[:bundles[0].begin]}):
					   one with no value is left out */
	const struct lshape *shape;	/* SHAPE */
	/* unresolved names, linked once every type is compiled */
	const char *link_name;	/* UNION: tag; INDEX: "T.seq" */
};

enum top_code {
	TOP_LIT,	/* literal text */
	TOP_FIELD,	/* {f}, {f.g}, {f:FMT}, {ops[0]}, {^Fn.x} */
	TOP_SEQ,	/* {s*SEP}, {s[1:]*SEP} */
	TOP_IF,		/* {?f}: jump to `jump` when false */
	TOP_JUMP,	/* {:} */
	TOP_SELFREF,	/* {@ref} */
	TOP_REFOF,	/* {@f}, {@s*SEP}: by the target's ref template */
	TOP_EXPR,	/* {=EXPR}, {=EXPR:FMT}: integer arithmetic */
	TOP_ADDR,	/* {&}: the struct's own address, as its id */
};

/** A field path a shape reads (a cast's tag, a lookup's map and key, a
 *  count), or a constant when npath is 0 (irs_template_path() compiles
 *  it, irs_walk_value() reads it). */
struct lcval {
	uint8_t npath;			/* 0: the constant k */
	const struct lfield **path;	/* field, then through ptr/ref/embed */
	int64_t k;
};

enum lexpr_code {
	/* integers */
	LE_NUM,		/* the constant k (is_unsigned: past INT64_MAX) */
	LE_PATH,	/* the value of a field path */
	LE_ELEM,	/* #: the index of the element being rendered */
	LE_COUNT,	/* #s: the number of elements of sequence (or slice)
			   path */
	LE_LEN,		/* len(p): the bytes {p} renders */
	LE_COL,		/* col(): the column the text is at */
	LE_NEG, LE_BNOT,		/* -a, ~a */
	LE_ADD, LE_SUB, LE_MUL,		/* a OP b, wrapping */
	LE_BAND, LE_BOR, LE_BXOR,	/* a & b, a | b, a ^ b */
	LE_SHL, LE_SHR,			/* a << b, a >> b */
	/* truth values */
	LE_EQ, LE_NE, LE_LT, LE_LE, LE_GT, LE_GE,	/* a OP b */
	LE_AND, LE_OR,	/* left to right, short-circuit */
	LE_NOT,
	LE_TEST,	/* a path is true as {?f} says */
	LE_NONZERO,	/* an integer expression is not 0 */
};

/** Whether an expression of @p code is a truth value (a condition). */
#define IRS_LE_BOOL(code) ((code) >= LE_EQ)

/**
 * An expression of a template: {=# + 1}, {=pc + sj + 2}, {?#code == 1},
 * {?kind == K_X and not (val & 0x40)}, compiled when the layout loads
 * (template.c, cond.c). Integers wrap as C's uint64_t arithmetic does;
 * an operand is unsigned when C would make it so (an unsigned field, a
 * constant past INT64_MAX, an operation with an unsigned operand).
 * At most IRS_EXPR_MAX_DEPTH deep and IRS_EXPR_MAX_NODES nodes, so the
 * walk's evaluation recurses a bounded depth.
 */
struct lexpr {
	uint8_t code;		/* enum lexpr_code */
	uint8_t npath;		/* PATH, COUNT, LEN, TEST: path */
	bool is_unsigned;	/* NUM */
	const struct lfield **path;	/* field, then through ptr/ref/embed
					   and path steps */
	int64_t k;		/* NUM */
	const struct lexpr *a, *b;
};

enum {
	IRS_EXPR_MAX_DEPTH = 256,	/* operators nested in one expression
					   (a chain of 200 `or`s is 200 deep) */
	IRS_EXPR_MAX_NODES = 4096,	/* operators and operands in one */
};

/** Named text formats, {f:NAME} (formats.c names them, walk/fmt_text.c
 *  writes them). */
enum irs_textfmt {
	IRS_TF_LLVM_NAME,	/* llvm_name: bare or "quoted\22" */
	IRS_TF_ESCAPED,		/* escaped: \XX for what does not print */
	IRS_TF_QUOTED,		/* quoted: "escaped" */
	IRS_TF_MLIR_KEYWORD,	/* mlir_keyword: bare or "quoted" */
};

/** One template instruction: 64 bytes, a cache line, as the walk runs
 *  millions of them. */
struct top {
	uint8_t code;		/* enum top_code */
	uint8_t npath;
	char fmt_class;		/* 0, or 'i' 'u' 'f' 's' 'c' (format), 'L'
				   (:lua, as Lua writes the value), 'N' (a
				   named format, textfmt) */
	uint8_t textfmt;	/* 'N': enum irs_textfmt */
	bool is_seq;		/* REFOF of a sequence */
	int16_t pad;		/* fmt is "%Ns" (N > 0) or "%-Ns" (-N) alone:
				   padded without printf */
	uint32_t pre;		/* literal text written first: offset in lits */
	uint32_t pre_len;	/* ... and length (0: none) */
	uint32_t lit;		/* LIT, SEQ, REFOF: offset in lits */
	uint32_t len;		/* ... and length */
	uint32_t jump;		/* IF, JUMP: next op when taken */
	const struct lfield **path;	/* field, then through ptr/ref */
	const char *fmt;	/* printf format for int64/uint64/double/str */
	union {
		const struct lexpr *cond;	/* IF of an expression, else
						   NULL */
		const struct lexpr *expr;	/* EXPR */
	};
	const struct lexpr *width;	/* a format's '*' width, or NULL */
};
_Static_assert(sizeof(struct top) <= 64, "a template instruction is one "
	       "cache line");

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
	bool pure;			/* LUA: on the bytes read only */
};

/** derived { from = S, where = COND, map = PATH, sort = PATH, of = ref "T" }:
 *  the elements of sequence S of the same struct that hold COND, each
 *  mapped through PATH to the node it names, sorted (stably) by the
 *  integer PATH of that node: a block's predecessors from its uses
 *  (derived.c). */
struct lderived {
	const struct lfield *from;
	uint32_t etype;		/* the struct of from's elements */
	bool eptr;		/* from's elements point at them */
	const struct lexpr *where;	/* or NULL: all */
	struct lcval map;	/* npath 0: the element itself */
	struct lcval sort;	/* npath 0: in from's order */
	const char *names[4];	/* from, where, map, sort until linked */
	const char *numbering;	/* numbering = N: its nodes, or NULL */
	uint32_t nb;		/* that numbering's index, once linked */
	uint32_t line;
};

/* ---- shapes: fields the walk reads and renders in a file of their own ---- */

enum lshape_kind {
	SH_APINT,	/* an integer of any width (apint.c) */
	SH_APFLOAT,	/* an IEEE float in APFloat's parts (apfloat.c) */
	SH_LOOKUP,	/* a value found in the debuggee's hash map (lookup.c) */
	SH_NUMBER,	/* the node's number in a numbering (number.c) */
};

enum { IRS_NUM_COUNTERS = 4 };

/** One step of a numbering: the nodes at path (a sequence's, or the one
 *  a ptr, ref or embed names), numbered in order. */
struct lnumstep {
	struct lcval path;
	uint32_t etype;		/* their struct */
	const struct lexpr *if_;	/* guard: on the struct it applies to */
	const struct lexpr *when;	/* numbered only when it holds */
	const struct lexpr *only;	/* entered only when it holds */
	uint8_t counter;
	bool recurse, nest, number;
	bool claim;		/* a sequence's nodes marked entered first */
	uint32_t nsteps;
	struct lnumstep **steps;	/* on each of its nodes (shared: a
					   step may be its own descendant) */
	uint32_t owner;		/* the struct it applies to */
};

/** numbering "NAME" { scope = "T", counters = {...}, reset = {...},
 *  steps }: see number.c. */
struct lnumbering {
	const char *name;
	uint32_t scope;		/* the struct it starts from, a type index */
	uint32_t ncounters;
	const char *counters[IRS_NUM_COUNTERS];
	uint8_t reset_mask;	/* counters restarted at each nested level */
	uint32_t nsteps;
	struct lnumstep **steps;
	uint32_t line;
};

/** num "NAME" or num { "NAME", counter = "C" }. */
struct lnum {
	const char *name, *counter_name;
	uint32_t numbering;	/* index into lo->numberings */
	uint32_t counter;	/* IRS_NONE: any */
	const char *scope_name;	/* num "N" { scope = F }: or NULL */
	const struct lfield *scope;	/* F, a ptr or ref to the scope type:
					   the node is numbered in the scope
					   it names, not the enclosing one */
};

enum lhash { HASH_POINTER, HASH_INT37 };
enum lprobe { PROBE_QUADRATIC, PROBE_LINEAR, PROBE_SCAN };

/** lookup { map = P, buckets = F, count = F, ... }: the value of the node
 *  (or of key = K) in an open-addressing hash map of the debuggee. */
struct llookup {
	struct lcval map;	/* from the node to the map: a path ending at an
				   embed or ptr of struct type mtype */
	uint32_t mtype;
	const struct lfield *buckets, *count;	/* fields of mtype */
	struct lcval key;	/* npath 0: the node's own address */
	uint32_t stride;	/* bytes per bucket */
	uint32_t key_at, key_size;	/* in the bucket (the entry: deref) */
	uint32_t value_at;	/* in the bucket (the entry: deref) */
	uint8_t hash, probe;	/* enum lhash, enum lprobe */
	bool deref;		/* buckets hold pointers to entries (StringMap) */
	uint64_t empty;		/* the key of an empty bucket: not there */
	uint64_t tombstone;	/* a removed one (scan and deref skip it) */
	const struct lfield *as;	/* the value: ptr, ref or embed at
					   offset 0 of its bytes */
	uint32_t value_size;
	const char *names[4];	/* map, buckets, count, key until linked */
	uint32_t line;
};

/** apint { value = P, words = P, width = P [, signed = false] }: the
 *  low word inline at value, or (wider than 64 bits) behind words. */
struct lapint {
	struct lloc value, words, width;
	bool has_words, is_signed;
};

/** apfloat { semantics = P, significand = P, exponent = P, category = P,
 *  sign = P [, style = "mlir"] }: llvm::detail::IEEEFloat's parts. */
struct lapfloat {
	struct lloc sem, sig, exponent, category, sign;
	bool mlir;		/* printed as MLIR prints a FloatAttr */
	struct lloc bits;	/* apfloat { bits = P, semantics = "float" }:
				   an IEEE encoding (LLVM's constant data) */
	const char *sem_name;	/* ... its semantics, or NULL */
};

/** A field whose reading and rendering live in walk/ files of their own
 *  (STYLE.md 16: a new shape is a file, not a branch in the walker). */
struct lshape {
	uint8_t kind;		/* enum lshape_kind */
	const struct lapint *apint;
	const struct lapfloat *apfloat;
	const struct llookup *lookup;
	const struct lnum *num;
};

/** How an address a layout names is found when a walk needs it (each
 *  walk asks once; address.c): MLIR's TypeIDs, fixed when the library
 *  loads. */
enum laddr_how {
	ADDR_SYMBOL,	/* the symbol's own address */
	ADDR_LOAD,	/* the pointer stored at the symbol */
	ADDR_LEA,	/* the address a getter function returns with
			   lea disp32(%rip), %rax; ret (x86-64) */
};

struct laddr {
	uint8_t how;		/* enum laddr_how */
	const char *name;	/* the ELF symbol */
	uint32_t line;
};

/** cast = { by = F, cases = { NAME = "T", ... }, default = "T" }: a
 *  node's struct chosen by a tag of its own (cast.c): the walk reads the
 *  declared struct, then reads it again as the case's type. */
struct lcast {
	struct lcval by;	/* the tag: a field path */
	uint32_t ncases;
	int64_t *values;
	uint32_t *addrs;	/* IRS_NONE, or the case's key is lo->addrs[i] */
	uint32_t *types;	/* type index of each case */
	uint32_t deflt;		/* IRS_NONE: the declared type itself */
	uint32_t line;
	int64_t dense_min;	/* dense[v - dense_min]: the type of integer */
	uint32_t ndense;	/* key v, IRS_NONE for none (keys close */
	const uint32_t *dense;	/* together), or NULL */
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
	bool uses_prev;		/* a template of it names ^prev */
	uint32_t nfields;
	struct lfield *fields;	/* declaration order */
	struct ltext text, ref;
	/* struct key parent = ptr(P, U): a walk that starts at a node of
	   this type (a per-function boundary's root) has the U that P points
	   to enclosing it, unrendered, for index() and the like; or NULL */
	const struct lfield *parent;
	const struct lcast *cast;	/* or NULL */
};

struct lverifier {
	const char *name;
	const char *call;	/* or NULL */
	const char *rerun, *problem, *broken;	/* the offline check, or
						   NULL */
	int64_t ok;
	int fn;			/* Lua check, or LUA_NOREF */
	uint32_t line;
};

/** A boundary's check = { PATH = VALUE }: what a plausible IR root
 *  holds (a core's search for one validates candidates by it). */
struct lbcheck_item {
	struct irs_field_info fi;	/* PATH in the root's C type */
	int64_t value;
};
struct lbcheck {
	uint32_t n;
	struct lbcheck_item items[8];
};

struct irs_lua;

/** One fact a type donor records (an enumerator of its enum
 *  irsnap_donor_facts) and how the debuggee tells the same: the first
 *  group of @p library matched against a module's soname or DT_NEEDED
 *  name, or @p value when a module defines @p symbol. */
struct irs_donor_fit {
	char fact[128];
	char library[256];	/* POSIX ERE, or "" */
	char symbol[256];	/* a symbol name (demangled), or "" */
	int64_t value;
};

/** A layout's donor { source, include, flags, fits }. Owns its strings;
 *  free with irs_donor_spec_deinit(). */
struct irs_donor_spec {
	char *layout_name;
	char *layout_file;	/* the layout's path, for messages */
	char *source;		/* the donor source, beside the layout */
	char **include;		/* -I directories the layout names */
	uint32_t ninclude;
	char **flags;		/* more compiler flags */
	uint32_t nflags;
	struct irs_donor_fit *fits;
	uint32_t nfits;
	uint32_t line;
};
void irs_donor_spec_deinit(struct irs_donor_spec *d);

struct irs_layout {
	const char *name;
	const char *root;		/* root type name */
	const char *file;		/* display name for messages */
	uint32_t ntypes;
	struct ltype *types;
	uint32_t nboundaries;
	struct irs_boundary_info *boundaries;
	struct lbcheck *bchecks;	/* boundary i's check */
	uint32_t nverifiers;
	struct lverifier *verifiers;
	uint32_t nunits;
	const char **units;
	const char *defs;
	const char *rerun;
	bool reduce_program;	/* reduce { input = "program" } */
	const char *reduce_field;	/* reduce { input = FIELD }: the node
					   the root's pointer FIELD names */
	const char **pass_names;	/* reduce { pass_names }: pairs */
	uint32_t npass_names;
	const char *reduce_comment;	/* the text's line comment marker */
	const char *reduce_label;	/* POSIX ERE of a label line */
	const char *cfg_func, *cfg_block;	/* cfg { }: type names, or
						   NULL */
	const struct irs_target *target;
	uint32_t nsyms;
	struct lsym *syms;		/* the globals it names */
	uint32_t nglobs;		/* global fields compiled */
	uint32_t naddrs;
	struct laddr *addrs;		/* the addresses it names */
	uint32_t nnumberings;
	struct lnumbering *numberings;
	struct irs_lua *lua;		/* mutable even in a const layout */
	struct irs_donor_spec donor;	/* donor { ... }, if declared */
	char *donor_obj;		/* the cached donor loaded, or NULL */
	bool walk_lua;			/* a text or field is a Lua function
					   not declared pure: a walk may
					   depend on Lua state, not only on
					   memory */
	bool uses_prev;			/* some type's uses_prev */
	void *allocs;			/* every schema allocation */
};

/* ---- layout.c ------------------------------------------------------------ */

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
/** Runs the layout file @p path only to read its donor { ... } (no types
 *  resolved, no debugger: for `irsnap donor`). *ret deinit by the caller. */
struct irs_error *irs_layout_donor_spec(const char *path,
					struct irs_donor_spec *ret);
/** Boundary @p i's check = { PATH = VALUE }, or NULL. */
const struct lbcheck *irs_layout_boundary_check(const struct irs_layout *lo,
						uint32_t i);
/** reduce { input = FIELD }: the name of the root's pointer field whose
 *  node, rendered whole, the reducer shrinks (an LLVM Function's Module),
 *  or NULL. */
const char *irs_layout_reduce_field(const struct irs_layout *lo);
/** Where pointer field irs_layout_reduce_field() of root type @p type
 *  (NULL: the layout's root) is: its offset, mask and past in *@p loc
 *  ({ offset, mask, past }) and the type it names in *@p target; false
 *  when that type has no such pointer field. */
bool irs_layout_reduce_target(const struct irs_layout *lo, const char *type,
			      uint64_t loc[3], const char **target);
/** reduce { pass_names = { PASS = NAME } }: the NAME {pass} takes in a
 *  rerun for pass @p pass, or NULL (then the pass's own). Borrowed. */
const char *irs_layout_rerun_pass(const struct irs_layout *lo,
				  const char *pass);
/** The donor @p lo loaded (its object in *obj_ret), or NULL. */
const struct irs_donor_spec *irs_layout_donor(const struct irs_layout *lo,
					      const char **obj_ret);
/** The address of global @p sym of @p lo now, asked of its target (each
 *  walk asks once: a process that ran again may have moved it). */
struct irs_error *irs_layout_global_address(const struct irs_layout *lo,
					    uint32_t sym, uint64_t *ret);

/* ---- sandbox.c: the sandboxed Lua state ---------------------------------- */

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
/** The instruction budget of each call: the one given to irs_lua_create(),
 *  else $IRSNAP_LUA_STEPS, else the default. */
uint64_t irs_lua_step_limit(const struct irs_lua *x);
/** Whether CPU time is charged to the instruction budget (on by default):
 *  off, the steps a chunk takes depend on what it does alone, not on how
 *  busy the machine is (for tests that count them). */
void irs_lua_count_time(struct irs_lua *x, bool on);
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
/**
 * Ctrl-C: from the outermost irs_interrupt_begin() to its irs_interrupt_end()
 * (calls nest; irs_lua_pcall() and the walk make them), SIGINT only sets a
 * flag, and the debugger's handler is restored after. Lua then raises
 * "FILE:LINE: interrupted" (IRS_ERROR_INTERRUPTED) and the walk stops.
 */
void irs_interrupt_begin(void);
void irs_interrupt_end(void);
/** True once SIGINT came since the outermost irs_interrupt_begin(). */
bool irs_interrupted(void);
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
 *  into the library (irs_prelude_files below). */
const char *irs_prelude_dir(void);

/* ---- strlib.c: library functions on the budget --------------------------- */

/**
 * Replaces, in the string library table at the stack top, the functions
 * that loop in C beyond what the instruction budget sees (find, match,
 * gmatch, gsub: backtracking patterns; rep of nothing) with versions that
 * charge their work to it. May raise (out of memory): call it protected.
 */
void irs_strlib_bound(lua_State *L);
/** The same for the table library at the stack top (move, sort, concat,
 *  insert, remove, unpack, pack). */
void irs_tablib_bound(lua_State *L);
/** The same for the utf8 library at the stack top (len, codepoint,
 *  offset, codes, char). */
void irs_utf8lib_bound(lua_State *L);
/** The same for the sandbox's base functions at the stack top (select,
 *  tonumber, rawequal). */
void irs_baselib_bound(lua_State *L);

/* ---- decl.c: layout, struct, boundary, verifier, reduce, donor ----------- */

/** Adds the declaration functions to the sandbox table at the stack top. */
void irs_decl_register(lua_State *L);
/** Pushes the table of everything declared so far. */
void irs_decl_push(lua_State *L);
/** Fills @p ret from the layout's donor { ... } (the layout file @p file
 *  names its directory); false when it declares none. May raise; @p ret is
 *  the caller's, to deinit whatever happened. */
bool irs_decl_donor(lua_State *L, const char *file,
		    struct irs_donor_spec *ret);

/* ---- donor.c: type donors' cache ----------------------------------------- */

/** The directory donors are cached in (IRSNAP_CACHE, XDG_CACHE_HOME or
 *  ~/.cache, then irsnap/donors). */
struct irs_error *irs_donor_cache_dir(char *buf, size_t len);
/** The hash of what the donor is built from: the layout's name, the
 *  source's bytes, its include directories and flags. */
struct irs_error *irs_donor_key(const struct irs_donor_spec *d,
				char out[17]);
/** The freshest cached donor.o of @p d whose files are unchanged; else
 *  IRS_ERROR_NOT_FOUND saying it is missing or stale and the command that
 *  builds it. *obj_ret freed with free(). Runs nothing. */
struct irs_error *irs_donor_find(const struct irs_donor_spec *d,
				 char **obj_ret);

/* ---- fields.c: field constructors ---------------------------------------- */

/** Adds the field constructors to the sandbox table at the stack top. */
void irs_fields_register(lua_State *L);
/** union{...}, array{...}, ...: a descriptor of the kind its upvalue names
 *  whose keys are the table's (for other files' constructors). */
int irs_fields_table_ctor(lua_State *L);
/** True when the value at @p idx came from a field constructor. */
bool irs_fields_is_descriptor(lua_State *L, int idx);
/** True when the value at @p idx is a global "name" marker. */
bool irs_fields_is_global(lua_State *L, int idx);
/**
 * The registry key of the walk's Lua helpers: a table { render = f,
 * deref = f, w = the walk (light userdata, false between walks) } that
 * walk/lua_view.c sets while a walk calls Lua. The sandbox's render() and
 * deref() forward to it, and say they only work there otherwise.
 */
extern const char irs_lua_walk_key;
/** When the value at @p idx is pure(fn), replaces it with fn and returns
 *  true. */
bool irs_fields_unwrap_pure(lua_State *L, int idx);
/** Pushes the data of the global marker at @p idx: { name, line, seq,
 *  kind = "global", steps = { { m = "member" } | { k = 3 } |
 *  { i = descriptor }, ... } }. */
void irs_fields_push_global(lua_State *L, int idx);

/* ---- compile.c ----------------------------------------------------------- */

/** Compiles the declarations into @p lo (its target set); raises on error.
 *  Called from a protected function with the Lua state of lo->lua. */
void irs_layout_compile(lua_State *L, struct irs_layout *lo);

/*
 * The compiler's helpers, shared with resolve.c. All run inside the
 * compile's protected call: they raise "FILE:LINE: ..." (or OOM) instead of
 * returning errors, and what they allocate belongs to the layout.
 */
enum {
	/* a field inside at most this many unions or sequences (their cases,
	   defaults, elements): the compiler and the walker recurse that deep */
	IRS_LAYOUT_MAX_NESTING = 16,
	/* fields compiled for one layout, each use of a shared descriptor
	   counted: nested unions sharing one descriptor grow exponentially */
	IRS_LAYOUT_MAX_FIELDS = 65536,
};

enum { IRS_LAYOUT_MAX_ZIPS = 256 };	/* zip fields in one layout */

struct irs_cc {
	lua_State *L;
	struct irs_layout *lo;
	const struct irs_target *t;
	uint32_t ndeclared;	/* types the layout declares; zips' after */
	uint32_t ntypes_cap;	/* room in lo->types */
	struct {
		struct ltype *t;	/* a zip's tuple type */
		const char *text;	/* its template, compiled last */
	} zips[IRS_LAYOUT_MAX_ZIPS];
	uint32_t nzips;
	uint32_t nfields;	/* irs_cc_field() calls so far */
	uint32_t depth;		/* descriptors on the way to this one */
	struct {
		const void *desc;	/* its Lua table, to find cycles */
		uint32_t line;
	} path[IRS_LAYOUT_MAX_NESTING + 1];
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
/** "const OpInfo" -> "OpInfo" (a copy the layout owns): how debug info is
 *  asked for a type, and how the layout's types are matched to it. */
const char *irs_cc_unqualified(struct irs_cc *c, const char *type);
/** The layout type @p name; raises when the layout declares none. */
const struct ltype *irs_cc_type(struct irs_cc *c, const char *name,
				uint32_t line, const char *qual);

/* ---- rerun.c: reduce { rerun = TEMPLATE } -------------------------------- */

/**
 * Whether @p tmpl is a rerun template: blank-separated words of characters
 * no shell reads as syntax, and the placeholders {exe} (the first word),
 * {flags} (a word of its own), {pass} and {input} (at least once). Else
 * false, and why (one line, no file or line) in @p why.
 */
bool irs_rerun_check(const char *tmpl, char *why, size_t len);
/* ---- expand.c ------------------------------------------------------------ */

/** Raises when one struct's text, ref template or JSON record would cost
 *  more than a million template steps (values shown many times inside
 *  values shown many times), or a value struct lies inside itself.
 *  requires: every template compiled. */
void irs_cc_check_expansion(struct irs_cc *c);
/* ---- formats.c: named text formats --------------------------------------- */

/** The format called @p name (@p n bytes), for {f:NAME}; false if none. */
bool irs_textfmt_find(const char *name, size_t n, enum irs_textfmt *ret);
/** Its name. */
const char *irs_textfmt_name(enum irs_textfmt f);

/* ---- place.c: where a sequence lies relative to its struct -------------- */

/**
 * The placement keys of descriptor @p idx (at, skip, reverse, alt, and a
 * ptr that is a negative offset), or NULL when it has none: its elements
 * are then behind its ptr. @p owner is the struct the sequence is a field
 * of; @p ptr_key the name of its pointer key ("ptr").
 */
const struct lplace *irs_cc_place(struct irs_cc *c, const struct ltype *owner,
				  int idx, uint32_t line, const char *qual);
/** Whether descriptor @p idx gives ptr as an offset outside its struct
 *  (ptr = -8: the pointer before it). */
bool irs_place_ptr_outside(struct irs_cc *c, int idx);
/** What ir-layout show says of @p pl. */
void irs_place_describe(struct irs_buf *b, const struct lplace *pl);
/** Links the counts of zip field @p f's arrays that have their own, or
 *  array @p f's length path. */
void irs_link_zip(struct irs_cc *c, const struct ltype *owner,
		  const char *qual, struct lfield *f);

/* ---- derived.c: filtered, mapped and sorted sequences -------------------- */

/** Compiles derived { ... } descriptor @p idx into @p s (its element from
 *  `of`; the rest is linked later). */
void irs_cc_derived(struct irs_cc *c, const struct ltype *owner, int idx,
		   uint32_t line, const char *qual, struct lseq *s);
/** Resolves its names, once every field is compiled. */
void irs_link_derived(struct irs_cc *c, const struct ltype *owner,
		     const char *qual, struct lseq *s);

/* ---- number.c: numberings ------------------------------------------------ */

/** Adds numbering and num to the sandbox table at the stack top. */
void irs_number_register(lua_State *L);
/** Compiles the numberings (every field known) and links num fields. */
void irs_cc_numberings(struct irs_cc *c);
/** Compiles num descriptor @p idx into @p nm. */
void irs_cc_num(struct irs_cc *c, int idx, uint32_t line, const char *qual,
		struct lnum *nm);

/* ---- cast.c: a node's struct chosen by a tag of its own ----------------- */

/** Adds address { ... } to the sandbox table at the stack top. */
void irs_cast_register(lua_State *L);
/** Compiles the cast = { ... } of every struct (every field known). */
void irs_cc_casts(struct irs_cc *c, int decls);
/** What ir-layout show says of @p t's cast. */
void irs_cast_describe(struct irs_buf *b, const struct irs_layout *lo,
		       const struct ltype *t);

/* ---- shape.c: compiling the fields of struct lshape ---------------------- */

/** Adds the constructors of the shapes (apint, apfloat, ...) to the sandbox
 *  table at the stack top. */
void irs_shape_register(lua_State *L);
/** Whether @p kind (a descriptor's kind) is a shape's. */
bool irs_shape_is(const char *kind);
/** Compiles shape descriptor @p idx of kind @p kind into @p f (LK_SHAPE). */
void irs_cc_shape(struct irs_cc *c, const struct ltype *owner,
		  const char *kind, int idx, uint32_t line, const char *qual,
		  struct lfield *f);

/** lookup.c: compiles lookup { ... } descriptor @p idx into @p lk. */
void irs_cc_lookup_shape(struct irs_cc *c, const struct ltype *owner, int idx,
			 uint32_t line, const char *qual, struct llookup *lk);
/** Resolves its paths, once every field is compiled. */
void irs_link_lookup(struct irs_cc *c, const struct ltype *owner,
		     const char *qual, struct llookup *lk);
/** Links shape field @p f of @p owner (its paths), once every field is
 *  compiled. */
void irs_link_shape(struct irs_cc *c, const struct ltype *owner,
		    const char *qual, struct lfield *f);
/** What ir-layout show says of shape field @p f. */
void irs_shape_describe(struct irs_buf *b, const struct irs_layout *lo,
			const struct lfield *f);

/* ---- expr.c: the debuggee expressions a layout gives --------------------- */

/** Whether @p expr only reads the debuggee: no call of a function (or of
 *  a GDB convenience function), no assignment, ++ or --, no string
 *  literal. If not, @p why says what it does. */
bool irs_expr_reads_only(const char *expr, char *why, size_t len);
/** Whether @p call is FUNCTION(ARGS), each argument {ir}, an integer, a
 *  string literal or a variable name: what a `call` verifier may be. */
bool irs_expr_is_call(const char *call);

/* ---- path.c: the path grammar of locations and templates ----------------- */

enum lpc_kind {
	LPC_NAME,	/* a member or field: "u", "def" */
	LPC_INDEX,	/* [lo], lo < 0 from the end */
	LPC_SLICE,	/* [lo:hi], either left out */
	LPC_UP,		/* ^Name: the nearest enclosing struct Name */
	LPC_PREV,	/* ^prev: the previous element */
};

/** One component of a path; @p s points into the path's text. */
struct lpc {
	uint8_t kind;		/* enum lpc_kind */
	bool has_lo, has_hi;	/* SLICE: bounds given */
	uint32_t n;		/* NAME, UP: the name's length */
	const char *s;		/* ... and its bytes */
	int64_t lo, hi;		/* INDEX: lo; SLICE: [lo:hi] */
	const char *bound_s[2];	/* SLICE: a bound given as a field path */
	uint32_t bound_n[2];	/* ... and its length */
};

enum { IRS_PATH_MAX = 32 };	/* components of one path */

struct lpath {
	uint32_t n;
	struct lpc c[IRS_PATH_MAX];
};

/** Parses path @p s (@p n bytes) into @p p; false with a message in @p why
 *  when it is no path of the grammar (path.c's header). */
bool irs_path_parse(const char *s, size_t n, struct lpath *p, char *why,
		    size_t len);
/** The bytes a path may take at @p s (a scanner's first cut: names, dots,
 *  a leading '^', subscripts). */
size_t irs_path_span(const char *s, size_t n);
/** Whether every component of @p p is a name ("u.def"). */
bool irs_path_plain(const struct lpath *p);

/* ---- resolve.c: field descriptors to struct lfield ----------------------- */

/** Compiles the descriptor at @p idx, field @p name of @p owner (NULL: a
 *  sequence element); @p qual names it in messages ("Instr.ops"). */
void irs_cc_field(struct irs_cc *c, const struct ltype *owner,
		  const char *name, const char *qual, int idx,
		  struct lfield *f);

/* ---- template.c ---------------------------------------------------------- */

/** What template.c and cond.c share while a template compiles. */
struct irs_tpl {
	struct irs_layout *lo;
	struct ltype *t;	/* the type whose template it is */
	uint32_t depth;		/* slice bounds being resolved, one in
				   another ({s[:a[:b[0].x][0].y]}) */
	char msg[400];		/* the error, when there is one */
};

/** Sets @p p's error message; returns false. */
bool irs_tpl_fail(struct irs_tpl *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/**
 * Resolves template path @p s (@p n bytes, path.c's grammar) against the
 * fields of p->t: each name a field of the struct the part before names
 * (through ptr, ref and embed fields, a picked element, ^T, ^prev), each
 * subscript a sequence's element or slice. On success *path (the
 * layout's) holds the fields and steps, *npath their number.
 */
bool irs_tpl_path(struct irs_tpl *p, const char *s, size_t n,
		  const struct lfield ***path, uint8_t *npath);
/** "an integer", "a sequence"...: what a field is, for messages. */
const char *irs_lkind_word(const struct lfield *f);

/* ---- cond.c: the expressions of templates -------------------------------- */

/**
 * Compiles expression @p s (@p n bytes) of a template of p->t: a condition
 * when @p want_bool ({?...}), else an integer ({=...}, a '*' width). NULL
 * with the message in p->msg on error. The tree is the layout's.
 */
const struct lexpr *irs_cond_parse(struct irs_tpl *p, const char *s,
				   size_t n, bool want_bool);

/**
 * Compiles template @p src for type @p t of @p lo (every field of every type
 * compiled; the ref templates before the texts); @p is_ref when it is t's
 * own ref template. On error returns an IRS_ERROR_LAYOUT whose message
 * says what is wrong, without a position (the caller adds it).
 */
struct irs_error *irs_template_compile(struct irs_layout *lo,
				       struct ltype *t, const char *src,
				       bool is_ref,
				       const struct ltemplate **ret);

/** Resolves field path @p path ("f", "f.g": through ptr, ref and embed
 *  fields) of type @p t into @p ret, as a template would; an
 *  IRS_ERROR_LAYOUT saying what is wrong otherwise. */
struct irs_error *irs_template_path(struct irs_layout *lo,
				    const struct ltype *t, const char *path,
				    struct lcval *ret);

/** Compiles condition @p src ("kind == K_X and not dead", as {?...}
 *  takes) over type @p t. */
struct irs_error *irs_template_cond(struct irs_layout *lo,
				    const struct ltype *t, const char *src,
				    const struct lexpr **ret);

/* ---- prelude: the Lua modules a layout may `require` --------------------- */

/*
 * The .lua files of common/prelude/irsnap, embedded in the library at build
 * time by mk/prelude.mk, so that an installed libirsnap needs no data path.
 * $IRSNAP_PRELUDE=DIR loads them from DIR/irsnap/ instead (sandbox.c), for
 * working on the prelude without rebuilding.
 */

/** One prelude module's source text. */
struct irs_prelude_file {
	const char *name;		/* "irsnap/list.lua" */
	const unsigned char *text;	/* the file's bytes, NUL after them */
	size_t len;			/* without that NUL */
};
/** The embedded modules, ending with a { NULL } entry. */
extern const struct irs_prelude_file irs_prelude_files[];

#endif
