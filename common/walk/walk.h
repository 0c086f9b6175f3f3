/*
 * walk/walk.h — the walk area: one traversal of the debuggee's memory
 * following a compiled layout, rendering the text into one sink and the
 * JSON graph into another (the render stack, the visited set, sequence
 * stepping, node records, Lua's slow-path view of nodes).
 * May use: layout/ (the schema), mem/ (the page cache), util/.
 *
 *  walker.c      the traversal and the text templates' interpreter
 *  seq.c         stepping through sequences (arrays, lists, ranges)
 *  nodes_json.c  node records of the JSON graph
 *  emit_json.c   JSON pieces for the snapshot writer
 *  lua_view.c    what a layout's Lua function sees of a node
 *  sink.c        buffered output with a position and a hash
 *  visited.c     the set of addresses already walked
 *  bignum.c      unsigned integers of any width, for the formatters
 *  fmt_apint.c   integers of any width, as LLVM's APInt prints them
 *  fmt_apfloat.c floats as LLVM's and MLIR's printers write them
 *  fmt_text.c    names and strings quoted as compilers quote them
 *
 * The walk calls Lua only where the layout asked for a Lua function.
 */
#ifndef IRSNAP_WALK_H
#define IRSNAP_WALK_H

#include "layout/layout.h"
#include "mem/mem.h"

/* ---- visited.c: open-addressing set of addresses ------------------------- */

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

/* ---- sink.c: buffered output with a position and a hash ------------------ */

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
	uint64_t lines;		/* newlines written out before buf */
	uint64_t line_start;	/* where the line flushed last began */
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
/** Newlines in everything written. */
uint64_t irs_sink_lines(const struct irs_sink *s);
/** Whether the last @p n bytes written are @p str (false when they were
 *  flushed already). */
bool irs_sink_ends_with(const struct irs_sink *s, const char *str, size_t n);
/** The bytes written since the last newline (col() of templates). */
uint64_t irs_sink_col(const struct irs_sink *s);
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

/* ---- emit_json.c: JSON pieces for the snapshot writer -------------------- */

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

/* ---- bignum.c: unsigned integers of any width ---------------------------- */

enum { IRS_BIG_SMALL = 96 };	/* limbs kept in the struct itself */

/** Little-endian 32-bit limbs, no leading zero limb (0 has none). An
 *  operation that runs out of memory returns false and sets oom. */
struct irs_big {
	uint32_t *w;
	uint32_t n, cap;
	bool oom;
	uint32_t small[IRS_BIG_SMALL];
};

void irs_big_init(struct irs_big *b);
void irs_big_deinit(struct irs_big *b);
/** The low @p bits bits of the little-endian @p words. */
bool irs_big_set(struct irs_big *b, const uint64_t *words, uint32_t bits);
/** Bits up to the highest one set (0 for 0); trailing zero bits. */
uint32_t irs_big_bits(const struct irs_big *b);
uint32_t irs_big_ctz(const struct irs_big *b);
bool irs_big_shl(struct irs_big *b, uint32_t k);
void irs_big_shr(struct irs_big *b, uint32_t k);
bool irs_big_mul_small(struct irs_big *b, uint32_t m);
bool irs_big_mul_pow5(struct irs_big *b, uint32_t e);
/** Divides by @p d (not 0) in place; returns the remainder. */
uint32_t irs_big_divmod_small(struct irs_big *b, uint32_t d);
/** Two's complement negation within @p bits bits. */
bool irs_big_negate(struct irs_big *b, uint32_t bits);
/** Appends the decimal digits. */
bool irs_big_decimal(const struct irs_big *b, struct irs_buf *out);

/* ---- fmt_apint.c, fmt_apfloat.c, fmt_text.c: formatters ------------------ */

/*
 * Pure functions from bytes to text, each printing as a compiler's own
 * printer does. They append to @p out and return false when they cannot
 * (out of memory, or a value they do not know: the caller says so).
 */

/** The @p bits low bits of @p words in decimal, two's complement when
 *  @p is_signed (APInt::print). */
bool irs_fmt_apint(const uint64_t *words, uint32_t bits, bool is_signed,
		   struct irs_buf *out);

/** APFloat's fltCategory. */
enum { IRS_FC_INF, IRS_FC_NAN, IRS_FC_NORMAL, IRS_FC_ZERO };

/** An IEEEFloat as LLVM keeps it: its semantics' numbers, then the value
 *  (significand with its integer bit, unbiased exponent). */
struct irs_apfloat {
	uint32_t precision;	/* significand bits: 11, 8, 24, 53, 64, 113 */
	uint32_t bits;		/* sizeInBits: 16, 32, 64, 80, 128 */
	int32_t max_exp, min_exp;
	int32_t exponent;
	uint8_t category;	/* IRS_FC_* */
	bool sign;
	uint64_t sig[2];	/* little-endian words */
};
/** Whether irsnap knows @p v's semantics (IEEE half, single, double,
 *  quad, bfloat, x87 80-bit) and its category is one. */
bool irs_apfloat_valid(const struct irs_apfloat *v);
/** The IEEE encoding (APFloat::bitcastToAPInt): out[0] low 64 bits. */
void irs_apfloat_bits(const struct irs_apfloat *v, uint64_t out[2]);
/** APFloat::toString(@p prec, @p pad, @p truncate_zero). */
bool irs_apfloat_tostring(const struct irs_apfloat *v, unsigned prec,
			  unsigned pad, bool truncate_zero,
			  struct irs_buf *out);
/** The float of IEEE semantics @p sem ("half", "bfloat", "float",
 *  "double") whose encoding is @p bits, as APFloat keeps it. */
bool irs_apfloat_from_bits(const char *sem, uint64_t bits,
			   struct irs_apfloat *v);
/** A ConstantFP as LLVM 14's AsmWriter writes it: 1.000000e-01,
 *  0x3FB99999A0000000, 0xK3FFF8000000000000000. */
bool irs_fmt_llvm_float(const struct irs_apfloat *v, struct irs_buf *out);
/** A FloatAttr's value as MLIR 14 prints it (printFloatValue). */
bool irs_fmt_mlir_float(const struct irs_apfloat *v, struct irs_buf *out);

/** Text formatters by name, for {f:NAME} (layout.h lists the names). */
bool irs_fmt_text(enum irs_textfmt f, const char *s, size_t n,
		  struct irs_buf *out);

/* ---- walker.c ------------------------------------------------------------ */

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
	uint32_t ugen;		/* walk.ugen when kept: units.c */
	uint32_t bytes;		/* what rendering it read and ran: a hit */
	uint32_t steps;		/* counts them too, as a walk without the
				   cache would */
	uint8_t len;
	char text[39];
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
	uint64_t steps;			/* template instructions run, sequence
					   elements and JSON fields written */
	uint64_t next_tick;		/* irs_walk_tick() when steps reach it */
	uint64_t max_steps;		/* 256 per node of max_nodes */
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
	bool str_cut;			/* between reads (lua_view.c clears) */
	bool trust;			/* the field's nodes all visited */
	struct irs_buf scratch;		/* strings being read */
	bool truncated;
	bool too_deep;			/* why the last push failed */
	bool stop;			/* a limit ran out: unwind */
	struct irs_error *fatal;	/* OOM, Lua state broken: give up */
	const char *stack_limit;	/* C stack guard */
	uint64_t lua_steps;		/* VM instructions its Lua calls ran */
	bool lua_spent;			/* a call ran out: call no more */
	struct irs_sink lua_sink;	/* render() from Lua writes here */
	struct irs_sink fmt_sink;	/* {f:%-9s} renders f here first */
	bool fmt_sink_ready, fmt_sink_busy;
	int fmt_width;			/* the '*' width of the format being
					   rendered ({f:%*s:EXPR}) */
	bool lua_sink_ready;
	bool in_lua;			/* a Lua call runs: no Lua in it */
	uint64_t lua_gen;		/* the Lua call running: a lazy node
					   table is read in its own only */
	uint64_t *gaddr;		/* lo->syms' addresses, asked once */
	uint8_t *gstate;		/* ... 0 not yet, 1 known, 2 none */
	uint64_t *dbuf;			/* derived results (derived.c): each */
	size_t ndbuf, capdbuf;		/* derived's a run, never shrinking */
	struct irs_numcache *nums;	/* numberings' tables (number.c) */
	uint64_t *aval;			/* lo->addrs, found once (address.c) */
	uint8_t *astate;		/* ... 0 not yet, 1 known, 2 none */
	struct irs_unit_cache *ucache;	/* per-unit renderings, or NULL */
	struct irs_unit_rec *urec;	/* the unit being recorded, or NULL */
	uint32_t ugen;			/* bumped at a unit's start and end:
					   a detached rendering kept in
					   one unit is not another's */
	uint32_t unit_type;		/* the outermost reduce unit's type
					   index, or IRS_NONE */
	bool in_unit;			/* walking one */
	uint64_t next_elem;		/* the next push is element this of its
					   sequence (UINT64_MAX: none) */
	uint64_t next_prev;		/* ... and the element before it lies
					   here (0: none), for ^prev */
	struct irs_delta_cache {	/* the last delta field's value */
		const struct lfield *fd;
		uint64_t gen, elem;	/* owner frame's gen, element index */
		int64_t v;
		uint64_t abs_k;		/* the next absolute entry */
		uint64_t abs_at;	/* ... and its index, or UINT64_MAX */
	} delta;
};

/* ---- units.c: per-unit render caches ------------------------------------ */

struct irs_unit_cache;
struct irs_unit_rec;

/**
 * An empty cache of the renderings of type @p type's units (an index into
 * @p lo's types; @p lo is borrowed and must outlive it), kept from one
 * walk to the next. *ret is the caller's: irs_unit_cache_destroy().
 */
struct irs_error *irs_unit_cache_create(const struct irs_layout *lo,
					uint32_t type,
					struct irs_unit_cache **ret);
void irs_unit_cache_destroy(struct irs_unit_cache *c);
/** Drops every unit kept (another root, another layout). */
void irs_unit_cache_forget(struct irs_unit_cache *c);
uint32_t irs_unit_cache_type(const struct irs_unit_cache *c);
/** Units of the last walk emitted from the cache, and walked. */
void irs_unit_cache_stats(const struct irs_unit_cache *c, uint64_t *reused,
			  uint64_t *walked);
/** Whether a walk from @p root would write what the last one did, told
 *  from the bytes it read (not pages, which a pass's scratch buffers
 *  share with the IR): true only when the last walk was of @p root, a
 *  unit, and its text was that unit's alone. Reads through @p mem. */
bool irs_unit_cache_whole_unchanged(struct irs_unit_cache *c,
				    struct irs_memory *mem, uint64_t root);

/* walker.c's side (requires: w->ucache) */
bool irs_units_usable(const struct walk *w);
void irs_units_walk_begin(struct walk *w);
void irs_units_walk_end(struct walk *w, bool ok, uint64_t root);
bool irs_units_reuse(struct walk *w, uint64_t addr);
void irs_units_note_visit(struct walk *w, uint64_t addr, bool added);
/** The unit being recorded (w->urec) read @p len bytes at @p addr. */
void irs_units_note_read(struct walk *w, uint64_t addr, uint64_t len);
void irs_units_lost(struct walk *w);
/** irs_units_lost() unless frame @p f was pushed inside the unit being
 *  recorded (or is its node, when @p self_ok): a rendering that depends
 *  on where @p f is ({=#} of the unit's own node) or on what it read
 *  (a delta's owner) is the unit's only then. */
void irs_units_lost_outside(struct walk *w, const struct frame *f,
			    bool self_ok);

/** Starts recording the unit at @p addr (its struct @p size bytes): the
 *  record, the cache's, to hand to irs_units_end(). */
struct irs_unit_rec *irs_units_begin(struct walk *w, uint64_t addr,
				     size_t size);
void irs_units_end(struct walk *w, struct irs_unit_rec *r);

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

/* walker internals shared with nodes_json.c, seq.c, lua_view.c */

/** What is known about one sequence field of a frame. */
struct seqinfo {
	uint64_t n;		/* elements that can be walked */
	uint64_t bad_addr;	/* where it went wrong */
	uint64_t gen;		/* known for the frame of this gen */
	uint8_t bad;		/* enum seq_bad */
	bool more;		/* a list known up to n only (seq.c) */
	bool reported;		/* a list: a broken prev link was reported */
	bool reverse;		/* a placed array: element i at base - i * stride */
	uint64_t base;		/* a placed array: where element 0 lies */
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
	uint64_t chunk_gen;	/* bumped at each fill: an iterator whose
				   fill it is not reads again (an element
				   that walks another sequence of the same
				   owner, {^Call.args[first:last]}) */
	uint64_t elem;		/* its index in the sequence it is an element
				   of ({=#}), or UINT64_MAX */
	uint64_t prev;		/* the struct of the element before it
				   ({^prev.f}), or 0 */
};

/** The Lua calls of one walk (computed fields, text functions) share
 *  this many budgets of VM instructions (irs_lua_step_limit()), besides
 *  each call's own: a slow function on every node of a big module must
 *  end too. */
#define IRS_WALK_LUA_BUDGETS 10u

/** Steps between two looks at Ctrl-C and the step and text limits. */
#define IRS_WALK_TICK 4096u
/** Template steps a walk may run per node it may visit (max_nodes). */
#define IRS_WALK_STEPS_PER_NODE 256u

/** Looks at Ctrl-C and the step and text limits (every IRS_WALK_TICK
 *  steps): sets w->stop when one says so. */
void irs_walk_tick(struct walk *w);

/** One step of work (a template instruction, a sequence element, a JSON
 *  field): every loop of the walk counts its rounds, so a layout whose
 *  texts nest and repeat cannot run unbounded, and Ctrl-C is seen. */
IRS_INLINE void
irs_walk_step(struct walk *w)
{
	if (++w->steps >= w->next_tick)
		irs_walk_tick(w);
}

/** Records a walk error at the current node. */
void irs_walk_error(struct walk *w, const struct lfield *f, uint64_t addr,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/** True (the walk stopping with an "interrupted" error) once Ctrl-C came
 *  (irs_interrupted()). */
bool irs_walk_interrupted(struct walk *w);
/** Records that the string of @p f at @p p could not be read (@p err, a
 *  fault or a limit, freed here): one error wherever the walk meets it. */
void irs_walk_unreadable_string(struct walk *w, const struct lfield *f,
				uint64_t p, struct irs_error *err);
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
		if (w->urec)
			irs_units_note_read(w, addr, n);
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

/** place.c: where what placement @p pl puts after frame @p f's struct
 *  starts (at = "after": no memory read). */
uint64_t irs_place_after(const struct frame *f, const struct lplace *pl);

// Where a string field's bytes start: behind its pointer, or (chars with a
// length) inside the struct at @p f's own address; past the bytes it skips.
IRS_INLINE uint64_t
irs_string_addr(const struct frame *f, const struct lfield *fd)
{
	uint64_t p = fd->place ? irs_place_after(f, fd->place)
		: fd->tail ? f->addr + fd->at.offset
		: irs_load_u(f->data, &fd->at);
	return p ? p + fd->skip : 0;
}

// The length of a pointer-plus-length string, less the bytes it skips.
IRS_INLINE uint64_t
irs_string_len(const struct frame *f, const struct lfield *fd)
{
	uint64_t len = irs_load_u(f->data, &fd->len);
	return len > fd->skip ? len - fd->skip : 0;
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

/** The pointer a PTR/REF field holds (masked), as the address of its
 *  target (`past` bytes back; NULL stays NULL). */
IRS_INLINE uint64_t
irs_load_ptr(const struct frame *f, const struct lfield *fd)
{
	uint64_t v = irs_load_u(f->data, &fd->at) & fd->mask;
	return v ? v - fd->past : 0;
}

/** The integer a scalar-like field (INT/UINT/BOOL/ENUM/INDEX) holds. */
IRS_INLINE int64_t
irs_field_int(const struct frame *f, const struct lfield *fd)
{
	if (fd->at.is_signed)
		return irs_load_i(f->data, &fd->at);
	return (int64_t)irs_load_u(f->data, &fd->at);
}
/** delta.c: the value of delta field @p fd of element frame @p f; false
 *  when it has none (no deltas, or not an element: the error recorded). */
bool irs_walk_delta(struct walk *w, const struct frame *f,
		    const struct lfield *fd, int64_t *ret);
/** The address global field @p fd of frame @p f names now; false when it
 *  names none (the error recorded; with @p say its marker written). */
bool irs_walk_global(struct walk *w, struct frame *f, const struct lfield *fd,
		     bool say, uint64_t *ret);
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
/** The @p len bytes of a counted string at @p addr in *s: in the memory
 *  cache when they lie in one page (no copy, counted as a read), else read
 *  into w->scratch, a read error in *err; *s is valid until the walk's
 *  next read. False when the scratch cannot grow: the walk is stopped. */
bool irs_walk_strn(struct walk *w, uint64_t addr, uint64_t len,
		   const char **s, struct irs_error **err);

/** Visits node @p addr of type @p t, owned by the current node; renders its
 *  text when @p render (a node already visited renders as a reference). */
void irs_walk_visit(struct walk *w, const struct ltype *t, uint64_t addr,
		    const void *data, bool render, const struct lfield *via);
/** Renders type @p t at @p addr by its ref template, detached. */
void irs_walk_render_ref(struct walk *w, const struct ltype *t,
			 uint64_t addr, uint64_t slot,
			 const struct lfield *via);

/* ---- seq.c: stepping through sequences ----------------------------------- */

struct seq_iter {
	const struct lseq *s;
	const struct lfield *f;
	struct frame *owner;
	struct seqinfo *si;	/* a list still being measured, or NULL */
	uint64_t n;		/* elements to visit */
	uint64_t i;
	uint64_t count;		/* zips: tuples in all (a slice visits
				   fewer; placed arrays lie by this) */
	uint64_t base;		/* arrays: first element */
	uint64_t link;		/* lists: link of the current element */
	uint64_t sentinel;	/* lists: the sentinel link, or 0 */
	uint64_t chunk_first, chunk_n;	/* elements in owner->chunk */
	uint64_t chunk_gen;	/* ... as owner->chunk_gen was then */
	uint64_t fault;		/* the element that could not be read */
	bool reverse;		/* element i at base - i * stride */
	uint64_t cur;		/* a derived element: its node's address */
};

/** The integer operand @p v (a field path, through ptr, ref and embed
 *  fields, or a constant) has in frame @p f; false when it has none or a
 *  pointer on the way cannot be read. */
bool irs_walk_value(struct walk *w, struct frame *f, const struct lcval *v,
		    int64_t *ret);

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
 * are read together (see seq.c).
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
	if (i >= it->chunk_first && i < it->chunk_first + it->chunk_n &&
	    it->chunk_gen == it->owner->chunk_gen) {
		it->i = i + 1;
		*addr = it->base + i * s->stride;
		*data = it->owner->chunk + (i - it->chunk_first) * s->stride;
		return true;
	}
	// a list element after the one just walked, measured already: its
	// next link is in the walker's last frame (counted as read, as a
	// walk that had not kept it reads it: units.c)
	if (s->kind == SEQ_LIST && i > 0 && !it->si &&
	    w->last_addr == it->link - s->link_off &&
	    s->next_off + 8 <= w->last_size &&
	    w->bytes + 8 <= w->lim.max_bytes) {
		memcpy(&it->link, w->last_data + s->next_off, 8);
		w->bytes += 8;
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
/** The nearest frame of layout type @p type on the walk's stack (the
 *  node whose table an index field counts into), or NULL. */
struct frame *irs_seq_owner(struct walk *w, uint32_t type);

/* ---- nodes_json.c: node records ------------------------------------------ */

/** Writes the "fields" object of frame @p f into @p out, visiting owned
 *  children not yet visited (their records come first). Only fields whose
 *  bit is in @p only are written (fields past 64 always are). */
void irs_json_fields(struct walk *w, struct frame *f, struct irs_buf *out,
		     uint64_t only);

/* ---- lua_view.c: Lua's view of nodes (slow path) ------------------------- */

/** Renders field @p fd of frame @p f (NULL: f's own text) into @p side
 *  instead of the text, detached (reading, visiting nothing). */
void irs_walk_render_into(struct walk *w, struct frame *f,
			  const struct lfield *fd, struct irs_sink *side);
/** Pushes a Lua table of frame @p f's fields; raises on error. */
void irs_lua_push_node(lua_State *L, struct walk *w, struct frame *f);
/** The same for type @p t at @p addr (its bytes @p data, or read when
 *  NULL), in a frame of its own; nil when the frame cannot be had. */
void irs_lua_push_at(lua_State *L, struct walk *w, const struct ltype *t,
		     uint64_t addr, const void *data,
		     const struct lfield *via);
/**
 * Calls Lua function @p ref with the node table of @p f; on success its
 * result is left on the Lua stack (as a string when @p want_string) and the
 * caller pops it. Errors are recorded as walk errors of field @p via. A
 * call not @p pure makes what is being rendered uncacheable.
 */
bool irs_walk_call_lua(struct walk *w, struct frame *f, int ref,
		       const struct lfield *via, bool want_string,
		       bool pure);

/* ---- shape.c, apnum.c: the shapes of struct lshape ---------------------- */

/** Writes @p n bytes to the walk's text (nothing when it renders none). */
IRS_INLINE void
irs_walk_write(struct walk *w, const char *s, size_t n)
{
	if (w->text)
		irs_sink_put(w->text, s, n);
}

/** {f} of shape field @p fd of frame @p f. */
void irs_shape_render(struct walk *w, struct frame *f, const struct lfield *fd);
/** {?f}. */
bool irs_shape_truthy(struct walk *w, struct frame *f, const struct lfield *fd);
/** The integer a condition or {=...} sees; false when it has none. */
bool irs_shape_int(struct walk *w, struct frame *f, const struct lfield *fd,
		   int64_t *ret);
/** Its value in the node's JSON record. */
void irs_shape_json(struct walk *w, struct frame *f, const struct lfield *fd,
		    struct irs_buf *out);
/** Pushes its value as Lua sees it (nil when it has none). */
void irs_shape_lua(lua_State *L, struct walk *w, struct frame *f,
		   const struct lfield *fd);
/** apnum.c: the text of an apint or apfloat field; false (error recorded)
 *  when it has none. */
bool irs_apnum_text(struct walk *w, struct frame *f, const struct lfield *fd,
		    struct irs_buf *out);
/** The apint's value, sign-extended, when it is at most 64 bits wide. */
bool irs_apint_value(struct walk *w, struct frame *f, const struct lfield *fd,
		     int64_t *ret);

/* ---- place.c: where placed sequences lie --------------------------------- */

/**
 * Where element 0 of a sequence placed by @p pl lies, for frame @p f (its
 * own pointer @p ptr when the placement is behind it), @p n elements of
 * @p stride bytes: *base (0: a NULL pointer), *reverse when element i
 * lies at *base - i * stride. False when a pointer outside the struct
 * cannot be read (the error recorded as @p fd's; *base its address).
 */
bool irs_place_base(struct walk *w, const struct frame *f,
		    const struct lplace *pl, const struct lloc *ptr,
		    uint64_t n, uint32_t stride, const struct lfield *fd,
		    uint64_t *base, bool *reverse);

/* ---- cast.c, address.c: a node's struct chosen by its tag ---------------- */

/** Makes the frame just pushed for a struct with a cast (@p f, its bytes
 *  read) the struct its tag picks; NULL (popped, the error recorded as
 *  @p via's) when that cannot be read. */
struct frame *irs_cast_frame(struct walk *w, struct frame *f,
			     const struct lfield *via);
/** The address lo->addrs[@p i] names in this walk; false when it has none
 *  (the error recorded once). */
bool irs_walk_address(struct walk *w, uint32_t i, uint64_t *ret);
/** Forgets the addresses found (the end of a walk). */
void irs_walk_address_forget(struct walk *w);

/* ---- lookup.c: values in the debuggee's hash maps ------------------------ */

/** Follows path @p v (through ptr, ref and embed fields) from @p f to the
 *  frame holding its last field, pushing *npushed frames (undo them with
 *  irs_walk_unfollow()); NULL when a pointer on the way is NULL or cannot
 *  be read. */
struct frame *irs_walk_follow(struct walk *w, struct frame *f,
			      const struct lcval *v, uint32_t *npushed);
void irs_walk_unfollow(struct walk *w, uint32_t npushed);
/** {f} of any field: what render_field writes. */
void irs_walk_field(struct walk *w, struct frame *f, const struct lfield *fd);
/** {?f} of any field; an unreadable one is false here. */
bool irs_walk_truthy(struct walk *w, struct frame *f, const struct lfield *fd);
/** nodes_json.c: field @p fd's value in a record. */
void irs_json_field(struct walk *w, struct frame *f, const struct lfield *fd,
		    struct irs_buf *out);
/** lua_view.c: field @p fd's value as Lua sees it, pushed. */
void irs_lua_push_field(lua_State *L, struct walk *w, struct frame *f,
			const struct lfield *fd);
/**
 * Where the value of lookup field @p fd of @p f lies: *found false (and
 * true returned) when the map has no such key; false when the map cannot
 * be read (the error recorded).
 */
bool irs_lookup_find(struct walk *w, struct frame *f, const struct lfield *fd,
		     uint64_t *value, bool *found);

/* ---- derived.c: filtered, mapped and sorted sequences --------------------- */

/** Computes derived field @p fd of @p f into @p si: n results from
 *  w->dbuf[si->base]. */
void irs_derived_compute(struct walk *w, struct frame *f,
			const struct lfield *fd, struct seqinfo *si);
/** irs_walk_cond(): whether condition @p k holds for frame @p f (false
 *  when a value it needs cannot be read). */
bool irs_walk_cond(struct walk *w, struct frame *f, const struct lexpr *k);

/* ---- number.c: numberings ------------------------------------------------ */

struct irs_numcache;
/** The number num field @p fd gives node frame @p f in the scope around
 *  it; false when it has none (not numbered, or no scope: recorded). */
bool irs_number_of(struct walk *w, struct frame *f, const struct lfield *fd,
		   int64_t *ret);
/** The *n nodes numbering @p k numbered in the scope around frame @p f,
 *  in no order: their addresses in *addrs and numbers in *nums (free()
 *  both); false when there is no scope (recorded) or memory ran out. */
bool irs_number_nodes(struct walk *w, struct frame *f, const struct lfield *fd,
		      uint32_t k, uint64_t **addrs, uint32_t **nums, size_t *n);
/** Frees the numberings' tables. */
void irs_number_forget(struct walk *w);

#endif
