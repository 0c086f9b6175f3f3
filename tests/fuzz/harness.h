/*
 * harness.h — what the fuzz targets (tests/fuzz/fuzz_*.c) and the seed
 * generator (gen_seeds.c) share: a scratch directory, oracle failures, the
 * memory-image format the walker's target reads, and the "kitchen" IR whose
 * layout (tests/fuzz/kitchen.lua) uses every kind of field.
 */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fake_target.h"

/*
 * libFuzzer's entry points. Every target defines LLVMFuzzerTestOneInput;
 * the harness defines LLVMFuzzerInitialize, which calls fz_init() and then
 * the target's fz_target_init() (a target without one gets an empty one).
 */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fz_target_init(void);

/** Points $IRSNAP_ROOT at the source tree unless it is set. */
void fz_init(void);
/** A path under the source tree, in a static buffer. */
const char *fz_source_path(const char *rel);
/** A private scratch directory, made once, removed at exit. */
const char *fz_scratch(void);
/** Writes @p size bytes to @p path (truncating); aborts when it cannot:
 *  the harness, not the code under test, failed. */
void fz_write(const char *path, const void *data, size_t size);
/** rm -rf @p path. */
void fz_rmtree(const char *path);
/** Reads a whole file; aborts when it cannot. Freed with free(). */
char *fz_read(const char *path, size_t *len);
/** An oracle failed: prints why and aborts, which libFuzzer reports as a
 *  crash with this input. */
void fz_fail(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/** Loads the layout at @p rel (under the source tree) for @p ft; aborts
 *  when it does not compile. */
struct irs_layout *fz_layout(const char *rel, struct fake_target *ft);
/**
 * True when open issue @p tag (reported, fixed elsewhere) is listed in
 * $IRSNAP_FUZZ_TOLERATE (comma-separated): long fuzzing runs then go on
 * past it. The regression inputs in tests/fuzz/regress/ replay without it,
 * so an open issue keeps failing there until it is fixed.
 */
bool fz_tolerate(const char *tag);
/** Budgets small enough for thousands of runs a second. */
void fz_limits(struct irs_limits *l);
/** What fz_walk wrote: text and JSON (freed with free()) and the
 *  snapshot (NULL after an error; irs_snapshot_destroy()). */
struct fz_walk {
	char *text, *json;
	size_t tlen, jlen;
	struct irs_snapshot *snap;
};
/** irs_snapshot_stream() of @p root (as @p type, NULL for the root type)
 *  into memory; returns its error, which the caller owns. */
struct irs_error *fz_walk(const struct irs_layout *lo,
			  struct irs_memory *mem, uint64_t root,
			  const char *type, const struct irs_limits *limits,
			  struct fz_walk *out);
/** Frees what fz_walk wrote. */
void fz_walk_deinit(struct fz_walk *out);
/** Fails (fz_fail) unless @p json is a valid irsnap.snapshot/1 document:
 *  what a walk writes must be, whatever memory held. */
void fz_check_snapshot_json(const char *json, size_t len);

/* ---- memory images ------------------------------------------------------
 *
 * A fuzzed debuggee: byte 0 picks the layout, bytes 1..8 are the root
 * address (little-endian), then segments follow, each an 8-byte address, a
 * 2-byte length and that many bytes (the last one may be cut short).
 * Addresses outside every segment are unreadable.
 */
enum { FZ_IMAGE_HEADER = 9, FZ_MAX_SEGS = 4096 };

struct fz_seg {
	uint64_t addr;
	uint32_t len;
	const uint8_t *data;	/* borrowed from the input */
};

struct fz_image {
	uint8_t layout;
	uint64_t root;
	struct fz_seg segs[FZ_MAX_SEGS];	/* sorted by address */
	size_t nsegs;
	uint64_t reads;
};

/** Parses @p data (borrowed until the next parse); false when shorter
 *  than the header. */
bool fz_image_parse(struct fz_image *img, const uint8_t *data, size_t size);
/** A target whose read callback reads @p img. */
void fz_image_target(struct irs_target *t, struct fz_image *img);

/** Builds an image file: the header, then one segment per add. */
struct fz_image_out {
	uint8_t *data;
	size_t len, cap;
};
void fz_image_begin(struct fz_image_out *o, uint8_t layout, uint64_t root);
/** Adds @p len bytes at @p addr (cut into segments of at most 65535). */
void fz_image_add(struct fz_image_out *o, const void *addr, size_t len);

/* ---- the kitchen IR (tests/fuzz/kitchen.lua) ----------------------------- */

enum kshape { KS_ITEM, KS_NUM, KS_TEXT };

struct KLink {
	struct KLink *prev, *next;
};

typedef struct KItem {
	int32_t v;
	struct KItem *next;	/* NULL-terminated list from KRoot.first */
	struct KLink link;	/* in KRoot.ring (sentinel, prev checked) */
	struct KItem *peer;	/* a reference */
	uintptr_t tagged;	/* KItem * with a tag in the low 3 bits */
} KItem;

typedef struct KLeaf {
	int64_t i64;
	int16_t i16;
	uint8_t u8;
	float f32;
	double f64;
	bool b;
	int color;		/* names from the layout */
	unsigned flag : 1;
	signed sbits : 5;
	unsigned wide : 20;
	const char *cstr;
	char chars[6];
	const char *data;
	uint32_t len;
} KLeaf;

typedef struct KRoot {
	int kind;		/* enum kshape: union tag, text chooser */
	union {
		KItem *item;
		int64_t num;
		const char *str;
	} u;
	KItem *items;		/* array with a count */
	uint32_t nitems;
	uint32_t pick;		/* index into items */
	KLeaf leaves[2];	/* fixed */
	KItem **nulls;		/* NULL-terminated array of pointers */
	KItem **begin, **end;	/* range */
	KItem *first;		/* NULL-terminated list */
	struct KLink ring;	/* sentinel list */
	KLeaf leaf;		/* embedded */
	struct KRoot *child;
} KRoot;

/** Registers the kitchen types in @p ft, as debug info would. */
void fz_kitchen_register(struct fake_target *ft);
/** A kitchen IR in static memory, every field in use; @p variant (0..2)
 *  picks the root's kind. The same objects each call. */
KRoot *fz_kitchen_build(int variant);
/** Adds every object of the IR at @p r to @p o. */
void fz_kitchen_image(struct fz_image_out *o, const KRoot *r);

#endif
