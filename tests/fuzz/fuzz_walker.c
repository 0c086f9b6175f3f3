// The walker over a fuzzed debuggee: a memory image (harness.h) read
// through the page cache, walked with a fixed layout (byte 0 picks toyc.lua
// over toyc's debug info, or the kitchen layout with every kind of field),
// writing text and JSON, then the layout's Lua verifiers over the same IR.
// Oracles: no crash, hang or leak whatever the bytes; the walk finishes
// within its limits; its JSON parses and is a valid irsnap.snapshot/1.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <lua.h>

#include "harness.h"
#include "tools/tools.h"
#include "toyc_fake.h"

static struct {
	struct fake_target ft[2];	// debug info for each layout
	struct irs_layout *lo[2];
	struct fz_image img;
	struct irs_target target;	// reads img
	struct irs_memory *mem;
} g;

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed);

void
fz_target_init(void)
{
	fake_target_init(&g.ft[0]);
	toyc_fake_register(&g.ft[0]);
	g.lo[0] = fz_layout("tests/fixtures/toyc/toyc.lua", &g.ft[0]);
	fake_target_init(&g.ft[1]);
	fz_kitchen_register(&g.ft[1]);
	g.lo[1] = fz_layout("tests/fuzz/kitchen.lua", &g.ft[1]);
	fz_image_target(&g.target, &g.img);
}

// `irsnap validate` accepts the files the walk wrote (the JSON beside its
// text file).
static void
check_validates(const char *text, size_t tlen, const char *json, size_t jlen)
{
	static char jpath[512], tpath[512];
	if (!jpath[0]) {
		snprintf(jpath, sizeof(jpath), "%s/snap.json", fz_scratch());
		snprintf(tpath, sizeof(tpath), "%s/fuzz.ir", fz_scratch());
	}
	fz_write(tpath, text, tlen);
	fz_write(jpath, json, jlen);
	struct irs_buf out;
	uint32_t np = 0, nf = 0;
	irs_buf_init(&out);
	struct irs_error *err = irs_validate_path(jpath, &out, &np, &nf);
	if (err)
		fz_fail("validate: %s", err->message);
	if (np)
		fz_fail("irsnap validate rejects the snapshot the walk wrote:"
			"\n%s", out.data);
	irs_buf_deinit(&out);
}

static void
walk(const struct irs_layout *lo)
{
	struct irs_limits limits;
	fz_limits(&limits);
	struct fz_walk w;
	struct irs_error *err = fz_walk(lo, g.mem, g.img.root, NULL, &limits,
					&w);
	if (!err) {
		struct irs_snapshot_stats st;
		irs_snapshot_get_stats(w.snap, &st);
		if (st.nodes > limits.max_nodes)
			fz_fail("%llu nodes past a limit of %llu",
				(unsigned long long)st.nodes,
				(unsigned long long)limits.max_nodes);
		for (uint32_t i = 0; i < st.nerrors && i < 8; i++)
			if (!irs_snapshot_error(w.snap, i))
				fz_fail("walk error %u has no message", i);
		fz_check_snapshot_json(w.json, w.jlen);
		check_validates(w.text, w.tlen, w.json, w.jlen);
	} else if (!err->message || !*err->message) {
		fz_fail("an error without a message (code %d)", err->code);
	}
	irs_error_destroy(err);
	fz_walk_deinit(&w);
}

static void
verify(const struct irs_layout *lo)
{
	char *problems = NULL;
	uint32_t count = 0;
	struct irs_error *err = irs_layout_verify(lo, g.mem, g.img.root, NULL,
						  &problems, &count);
	if (!err && !problems)
		fz_fail("irs_layout_verify succeeded without problems text");
	irs_error_destroy(err);
	irs_free(problems);
}

/* {====================================================== mutations */

// Where each segment's bytes are in a raw input.
struct raw_seg {
	size_t at, len;		// offset and length of its bytes
	uint64_t addr;
};

static size_t
raw_segs(const uint8_t *data, size_t size, struct raw_seg *segs, size_t max)
{
	size_t n = 0, pos = FZ_IMAGE_HEADER;
	while (pos + 10 <= size && n < max) {
		uint64_t addr = 0;
		for (int i = 7; i >= 0; i--)
			addr = addr << 8 | data[pos + i];
		size_t len = data[pos + 8] | (size_t)data[pos + 9] << 8;
		pos += 10;
		if (len > size - pos)
			len = size - pos;
		segs[n++] = (struct raw_seg){ pos, len, addr };
		pos += len;
	}
	return n;
}

static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

// Pointer surgery: an aligned word of one segment becomes an address in
// another (its start, inside it, one past its end), NULL, itself with
// tag bits, or a count of the sizes that matter (0, 1, huge). Corrupt IR
// looks like this: dangling and shared pointers, cycles, absurd counts.
size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			unsigned int seed)
{
	static struct raw_seg segs[FZ_MAX_SEGS];
	uint64_t r = seed | 1;
	if (next_rand(&r) % 3 == 0 || size < FZ_IMAGE_HEADER)
		return LLVMFuzzerMutate(data, size, max);
	size_t n = raw_segs(data, size, segs, FZ_MAX_SEGS);
	if (!n)
		return LLVMFuzzerMutate(data, size, max);
	for (int k = 1 + (int)(next_rand(&r) % 3); k > 0; k--) {
		const struct raw_seg *a = &segs[next_rand(&r) % n];
		const struct raw_seg *b = &segs[next_rand(&r) % n];
		if (a->len < 8)
			continue;
		size_t slot = a->at + (next_rand(&r) % (a->len / 8)) * 8;
		uint64_t v;
		switch (next_rand(&r) % 8) {
		case 0: v = b->addr; break;
		case 1: v = b->addr + (b->len ? next_rand(&r) % b->len : 0)
			    / 8 * 8; break;
		case 2: v = b->addr + b->len; break;
		case 3: v = 0; break;
		case 4: v = b->addr | (next_rand(&r) % 8); break;
		case 5: v = a->addr; break;	// a self-loop
		case 6: {
			static const uint64_t counts[] = {
				0, 1, 2, 255, 65536, 100000001, UINT32_MAX,
			};
			v = counts[next_rand(&r) % 7];
			break;
		}
		default: v = next_rand(&r); break;
		}
		// counts are 4 bytes wide as often as 8
		int width = next_rand(&r) % 2 ? 4 : 8;
		for (int i = 0; i < width; i++)
			data[slot + i] = (uint8_t)(v >> (8 * i));
	}
	return size;
}

/* }====================================================== */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fz_image_parse(&g.img, data, size))
		return 0;
	const struct irs_layout *lo = g.lo[g.img.layout & 1];
	// a cache per input, so that each input frees what it allocates
	// (libFuzzer then skips its costly leak scan)
	struct irs_error *err = irs_memory_create_target(&g.target, &g.mem);
	if (err)
		fz_fail("memory: %s", err->message);
	walk(lo);
	irs_memory_invalidate(g.mem);
	verify(lo);
	irs_memory_destroy(g.mem);
	// and the garbage its Lua calls left, for the same reason
	lua_gc(irs_lua_state(lo->lua), LUA_GCCOLLECT, 0);
	return 0;
}
