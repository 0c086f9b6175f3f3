// Unit tests for the memory readers (common/mem/cache.c, target.c,
// mem/pid.c, mem/core.c): the page cache over a counting fake target, then
// the three readers on one stopped child process and a gcore of it, bad
// core files, and throughput figures printed as TAP comments.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gelf.h>

#include "fake_target.h"
#include "mem/mem.h"
#include "memory_child.h"
#include "unit_util.h"

#define PAGE ((uint64_t)4096)

// The files a core's mapped pages may be read from, as a debugger lists
// what it loaded (a compound literal: valid in the calling block).
#define BIN_ONLY(bin) ((const char *const[]){(bin), NULL})
#define CHILD_FILES(c) child_files(c)

// Every file the child maps (its program, libraries and test file), as a
// debugger that loaded them would list them; kept until the next call.
static const char *const *
child_files(const struct memory_child *c)
{
	static char paths[64][512];
	static const char *list[65];
	char maps[64], line[1024];
	size_t n = 0;
	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)c->pid);
	FILE *fp = fopen(maps, "r");
	while (fp && n < 64 && fgets(line, sizeof(line), fp)) {
		char *path = strchr(line, '/');
		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		bool seen = false;
		for (size_t i = 0; i < n && !seen; i++)
			seen = !strcmp(paths[i], path);
		if (!seen)
			snprintf(paths[n++], sizeof(paths[0]), "%s", path);
	}
	if (fp)
		fclose(fp);
	for (size_t i = 0; i < n; i++)
		list[i] = paths[i];
	list[n] = NULL;
	return list;
}

/* {=========== a counting fake target ==================================== */

struct hole {
	uint64_t lo, hi;	// unreadable [lo, hi)
};

struct fake {
	struct irs_target t;
	uint64_t base;
	uint8_t *bytes;
	uint64_t size;
	struct hole holes[8];
	int nholes;
	bool say_where;		// faults name the first unreadable byte
	uint64_t calls;		// read callback calls
	struct irs_memory *mem;
};

static uint8_t
fake_byte(uint64_t i)
{
	return (uint8_t)(i * 37 + (i >> 12) * 11 + 5);
}

// The first unreadable address in [a, a + n), or a + n.
static uint64_t
fake_first_bad(const struct fake *f, uint64_t a, uint64_t n)
{
	if (a < f->base || a - f->base >= f->size)
		return a;
	uint64_t first = n <= f->size - (a - f->base) ? a + n
						      : f->base + f->size;
	for (int i = 0; i < f->nholes; i++) {
		const struct hole *h = &f->holes[i];
		if (h->lo < first && h->hi > a)
			first = h->lo > a ? h->lo : a;
	}
	return first;
}

static struct irs_error *
fake_read(void *arg, uint64_t a, void *buf, uint64_t n)
{
	struct fake *f = arg;
	f->calls++;
	uint64_t bad = fake_first_bad(f, a, n);
	if (bad == a + n) {
		memcpy(buf, f->bytes + (a - f->base), n);
		return NULL;
	}
	memset(buf, 0xee, n);	// unspecified on failure: make it wrong
	if (f->say_where)
		return irs_error_fault(bad, "Cannot access memory at address "
				       "0x%" PRIx64, bad);
	return irs_error_create(IRS_ERROR_TARGET, "read failed");
}

static int
setup_fake(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	f->base = 0x10000000;
	f->size = 1 << 20;
	f->bytes = malloc(f->size);
	if (!f->bytes)
		return -1;
	for (uint64_t i = 0; i < f->size; i++)
		f->bytes[i] = fake_byte(i);
	f->say_where = true;
	f->t.arg = f;
	f->t.read = fake_read;
	if (irs_memory_create_target(&f->t, &f->mem))
		return -1;
	*state = f;
	return 0;
}

static int
teardown_fake(void **state)
{
	struct fake *f = *state;
	irs_memory_destroy(f->mem);
	free(f->bytes);
	free(f);
	return 0;
}

static void
add_hole(struct fake *f, uint64_t lo, uint64_t hi)
{
	f->holes[f->nholes++] = (struct hole){f->base + lo, f->base + hi};
}

// Reads through the cache and checks the bytes against the fake.
static void
assert_reads(struct fake *f, uint64_t off, uint64_t n)
{
	uint8_t *buf = malloc(n);
	assert_non_null(buf);
	struct irs_error *err = irs_memory_read(f->mem, f->base + off, buf, n);
	if (err)
		fail_msg("read of %" PRIu64 " at +0x%" PRIx64 ": %s", n, off,
			 err->message);
	assert_memory_equal(buf, f->bytes + off, n);
	free(buf);
}

// Reads through the cache, expects a fault at base + @p bad_off, and checks
// the message names the read; returns nothing, frees the error.
static void
assert_faults(struct fake *f, uint64_t off, uint64_t n, uint64_t bad_off)
{
	uint8_t buf[1024];
	char want[64];

	assert_true(n <= sizeof(buf));
	struct irs_error *err = irs_memory_read(f->mem, f->base + off, buf, n);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_FAULT);
	assert_int_equal(err->address, f->base + bad_off);
	snprintf(want, sizeof(want), "cannot read %" PRIu64 " bytes at 0x%"
		 PRIx64, n, f->base + off);
	if (!strstr(err->message, want))
		fail_msg("message \"%s\" lacks \"%s\"", err->message, want);
	irs_error_destroy(err);
}

/* }=========== */

/* {=========== the page cache ============================================ */

// Many small reads in one read-ahead window cost one callback call.
static void
test_small_reads_hit_the_cache(void **state)
{
	struct fake *f = *state;
	for (uint64_t off = 0; off < IRS_MEMORY_WINDOW; off += 8)
		assert_reads(f, off, 8);
	assert_int_equal(f->calls, 1);
	for (uint64_t off = 3; off < IRS_MEMORY_WINDOW - 8; off += 4093)
		assert_reads(f, off, 5);
	assert_int_equal(f->calls, 1);
	// The next window is one more call.
	assert_reads(f, IRS_MEMORY_WINDOW + 16, 8);
	assert_int_equal(f->calls, 2);
}

// Reads that span pages and windows return the right bytes.
static void
test_reads_span_pages_and_windows(void **state)
{
	struct fake *f = *state;
	assert_reads(f, PAGE - 50, 100);
	assert_reads(f, 3 * PAGE - 1, 2);
	assert_reads(f, IRS_MEMORY_WINDOW - 8, 16);
	assert_reads(f, 5 * PAGE + 7, 3 * PAGE);	// four pages, unaligned
	assert_reads(f, 0, 1);
	assert_reads(f, f->size - 1, 1);
	assert_int_equal(f->calls, 3);	// windows 0, 1 and the last
}

// A fault is remembered: reading the page again costs no callback call.
static void
test_unreadable_page_is_cached(void **state)
{
	struct fake *f = *state;
	add_hole(f, 3 * PAGE, 4 * PAGE);
	assert_faults(f, 3 * PAGE + 8, 8, 3 * PAGE + 8);
	uint64_t calls = f->calls;
	for (int i = 0; i < 100; i++)
		assert_faults(f, 3 * PAGE + 8 * (uint64_t)i, 8,
			      3 * PAGE + 8 * (uint64_t)i);
	assert_int_equal(f->calls, calls);
	// The pages before it came with the same call, those after it
	// take one more.
	assert_reads(f, 2 * PAGE, PAGE);
	assert_int_equal(f->calls, calls);
	assert_reads(f, 4 * PAGE, PAGE);
	assert_reads(f, 15 * PAGE, PAGE);
	assert_int_equal(f->calls, calls + 1);
}

// The fault names the first unreadable byte, not the start of the read,
// also when the callback faults in the middle of a page; the bytes before
// it are read again, since the callback's buffer is not to be trusted.
static void
test_fault_names_first_unreadable_byte(void **state)
{
	struct fake *f = *state;
	add_hole(f, 3 * PAGE, 4 * PAGE);
	add_hole(f, 5 * PAGE + 0x100, 6 * PAGE);
	assert_faults(f, 3 * PAGE - 16, 32, 3 * PAGE);
	assert_faults(f, 5 * PAGE, 0x200, 5 * PAGE + 0x100);
	assert_faults(f, 5 * PAGE + 0xf8, 9, 5 * PAGE + 0x100);
	assert_reads(f, 5 * PAGE + 0xf8, 8);		// up to the hole
	assert_reads(f, 4 * PAGE + 0x10, PAGE);		// across into 5
	assert_faults(f, f->size - 4, 8, f->size);	// past the end

	uint8_t buf[32];
	struct irs_error *err = irs_memory_read(f->mem, f->base + 3 * PAGE - 16,
						buf, 32);
	assert_non_null(err);
	char want[64];
	snprintf(want, sizeof(want), "0x%" PRIx64 " is unreadable: Cannot "
		 "access memory", f->base + 3 * PAGE);
	if (!strstr(err->message, want))
		fail_msg("message \"%s\" lacks \"%s\"", err->message, want);
	irs_error_destroy(err);
}

// A callback that cannot say where a read failed: the cache finds the
// page by itself, and the readable pages around it stay readable.
static void
test_fault_found_when_callback_does_not_say(void **state)
{
	struct fake *f = *state;
	f->say_where = false;
	add_hole(f, 6 * PAGE, 7 * PAGE);
	assert_reads(f, 9 * PAGE + 8, 8);	// same window as the hole
	assert_reads(f, 0, 6 * PAGE);
	assert_faults(f, 6 * PAGE - 8, 16, 6 * PAGE);
	assert_faults(f, 6 * PAGE + 100, 1, 6 * PAGE + 100);
	assert_reads(f, 7 * PAGE, 9 * PAGE);
	struct irs_error *err = irs_memory_read(f->mem, f->base + 6 * PAGE,
						&(uint64_t){0}, 8);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "read failed"));
	irs_error_destroy(err);
}

// After invalidate, reads see the debuggee's new bytes.
static void
test_invalidate_drops_everything(void **state)
{
	struct fake *f = *state;
	uint64_t v, old;
	add_hole(f, 10 * PAGE, 11 * PAGE);
	assert_null(irs_memory_read(f->mem, f->base + 64, &old, 8));
	assert_faults(f, 10 * PAGE, 8, 10 * PAGE);
	memset(f->bytes + 64, 0x77, 8);		// the debuggee ran,
	f->nholes = 0;				// mapped the hole
	assert_null(irs_memory_read(f->mem, f->base + 64, &v, 8));
	assert_true(v == old);			// cached: still the old bytes
	assert_faults(f, 10 * PAGE, 8, 10 * PAGE);
	uint64_t calls = f->calls;
	irs_memory_invalidate(f->mem);
	assert_null(irs_memory_read(f->mem, f->base + 64, &v, 8));
	assert_true(v == 0x7777777777777777u);
	assert_reads(f, 10 * PAGE, 8);
	assert_int_equal(f->calls, calls + 1);
	struct irs_memory_stats st;
	irs_memory_get_stats(f->mem, &st);
	assert_int_equal(st.pages, IRS_MEMORY_WINDOW / PAGE);
}

// The cache holds no more than its capacity, and evicted pages read
// correctly again.
static void
test_capacity_bounds_the_cache(void **state)
{
	struct fake *f = *state;
	struct irs_memory_stats st;
	assert_null(irs_memory_configure(f->mem, 16 * PAGE, 4 * PAGE));
	irs_memory_get_stats(f->mem, &st);
	assert_int_equal(st.capacity, 16 * PAGE);
	assert_int_equal(st.window, 4 * PAGE);
	for (uint64_t p = 0; p < 64; p++)
		assert_reads(f, p * PAGE + 8, 8);
	assert_int_equal(f->calls, 16);
	irs_memory_get_stats(f->mem, &st);
	assert_true(st.pages <= 16);
	assert_int_equal(st.evictions, 64 - st.pages);
	uint64_t calls = f->calls;
	assert_reads(f, 63 * PAGE, 8);		// still there
	assert_int_equal(f->calls, calls);
	assert_reads(f, 8, 8);			// evicted long ago
	assert_int_equal(f->calls, calls + 1);
}

// A page read again and again survives a scan through many others: the
// clock gives it a second chance, also when the fast path hides its use.
static void
test_hot_page_survives_a_scan(void **state)
{
	struct fake *f = *state;
	uint64_t v;
	assert_null(irs_memory_configure(f->mem, 32 * PAGE, PAGE));
	for (uint64_t p = 1; p < 200; p++) {
		assert_null(irs_memory_read(f->mem, f->base + 8, &v, 8));
		assert_reads(f, p * PAGE, 8);
	}
	// One call per page scanned, and the hot page once.
	assert_int_equal(f->calls, 200);
}

// Random reads of random lengths, through a small cache, over holes that
// start mid-page: every result equals what the fake says directly.
static void
test_random_reads_match_the_target(void **state)
{
	struct fake *f = *state;
	static uint8_t buf[600 << 10];
	uint64_t seed = 42;

	add_hole(f, 20 * PAGE, 22 * PAGE);
	add_hole(f, 40 * PAGE + 0x321, 41 * PAGE);
	add_hole(f, 100 * PAGE + 0x800, 130 * PAGE);
	assert_null(irs_memory_configure(f->mem, 24 * PAGE, 4 * PAGE));
	for (int i = 0; i < 20000; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		uint64_t r = seed >> 16;
		uint64_t off = r % (f->size + 2 * PAGE);
		uint64_t n = i % 500 == 0 ? (r >> 20) % sizeof(buf)
			     : i % 7 == 0 ? (r >> 20) % (3 * PAGE)
					  : 1 + (r >> 20) % 16;
		uint64_t a = f->base + off;
		uint64_t bad = fake_first_bad(f, a, n);
		struct irs_error *err = irs_memory_read(f->mem, a, buf, n);
		if (bad == a + n) {
			if (err)
				fail_msg("read %d: %" PRIu64 " at +0x%" PRIx64
					 ": %s", i, n, off, err->message);
			assert_memory_equal(buf, f->bytes + off, n);
		} else {
			if (!err)
				fail_msg("read %d: %" PRIu64 " at +0x%" PRIx64
					 " should fault at +0x%" PRIx64, i, n,
					 off, bad - f->base);
			assert_int_equal(err->address, bad);
			irs_error_destroy(err);
		}
	}
	struct irs_memory_stats st;
	irs_memory_get_stats(f->mem, &st);
	assert_true(st.pages <= 24);
	assert_true(st.evictions > 0);
	assert_true(st.direct_reads > 0);
}

// A large read goes straight to the source and still names its fault.
static void
test_large_read_goes_direct(void **state)
{
	struct fake *f = *state;
	struct irs_memory_stats st;
	assert_reads(f, 100, 512 << 10);
	irs_memory_get_stats(f->mem, &st);
	assert_int_equal(st.direct_reads, 1);
	assert_int_equal(st.pages, 0);
	add_hole(f, 200 * PAGE + 0x10, 201 * PAGE);
	uint8_t *buf = malloc(1 << 20);
	assert_non_null(buf);
	struct irs_error *err = irs_memory_read(f->mem, f->base, buf,
						f->size);
	assert_non_null(err);
	assert_int_equal(err->address, f->base + 200 * PAGE + 0x10);
	irs_error_destroy(err);
	free(buf);
}

// Zero bytes always succeed; a range past the top of the address space
// is a fault, not a wrap to address 0.
static void
test_edge_ranges(void **state)
{
	struct fake *f = *state;
	uint8_t buf[16];
	assert_null(irs_memory_read(f->mem, 0, buf, 0));
	struct irs_error *err = irs_memory_read(f->mem, UINT64_MAX - 3, buf,
						16);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_FAULT);
	assert_non_null(strstr(err->message, "wraps"));
	irs_error_destroy(err);
	err = irs_memory_read(f->mem, UINT64_MAX - 3, buf, 4);
	assert_non_null(err);
	assert_int_equal(err->address, UINT64_MAX - 3);
	irs_error_destroy(err);
	assert_null(irs_memory_configure(f->mem, 0, 0));
	err = irs_memory_configure(f->mem, 0, 3 * 4096);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_USAGE);
	irs_error_destroy(err);
}

// A target without a read callback cannot be read, and says so.
static void
test_target_without_read(void **state)
{
	(void)state;
	struct irs_target t = {0};
	struct irs_memory *mem = NULL;
	struct irs_error *err = irs_memory_create_target(&t, &mem);
	assert_non_null(err);
	assert_null(mem);
	irs_error_destroy(err);
	err = irs_memory_create_best(&t, &mem);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "cannot read the debuggee"));
	assert_null(mem);
	irs_error_destroy(err);
}

/* }=========== */

/* {=========== a core file made by hand ================================= */

// Writes a 64-bit core with one PT_LOAD at 0x10000 (memsz three pages,
// filesz one) and an NT_FILE note mapping file @p bin: [0x11000, 0x12000)
// at file page 0, and [0x20000, 0x22000) at file page 1. So: 0x10000 comes
// from the core, 0x11000 from the file, 0x12000 is zero (tail, no file),
// 0x20000 from the file (no segment) up to its end and zero after it in
// that page, and 0x21000 is wholly past the file's end.
static void
write_synthetic_core(const char *path, const char *bin, bool deleted_bin)
{
	uint8_t note[512] = {0};
	size_t nl = 0;
	uint64_t desc[2 + 2 * 3] = {2, PAGE, 0x11000, 0x12000, 0,
				    0x20000, 0x22000, 1};
	size_t namelen = strlen(bin) + 1;
	size_t descsz = sizeof(desc) + 2 * namelen;
	Elf64_Nhdr nh = {5, (Elf64_Word)descsz, NT_FILE};
	memcpy(note + nl, &nh, sizeof(nh));
	nl += sizeof(nh);
	memcpy(note + nl, "CORE\0\0\0", 8);
	nl += 8;
	memcpy(note + nl, desc, sizeof(desc));
	nl += sizeof(desc);
	memcpy(note + nl, bin, namelen);
	memcpy(note + nl + namelen, bin, namelen);
	nl += (2 * namelen + 3) & ~(size_t)3;

	Elf64_Ehdr eh;
	fake_core_ehdr(&eh, 2);
	uint64_t note_off = sizeof(eh) + 2 * sizeof(Elf64_Phdr);
	uint64_t load_off = (note_off + nl + PAGE - 1) & ~(PAGE - 1);
	Elf64_Phdr ph[2] = {
		{.p_type = PT_NOTE, .p_offset = note_off, .p_filesz = nl},
		{.p_type = PT_LOAD, .p_flags = PF_R | PF_W,
		 .p_offset = load_off, .p_vaddr = 0x10000,
		 .p_filesz = PAGE, .p_memsz = 3 * PAGE, .p_align = PAGE},
	};
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	fwrite(&eh, sizeof(eh), 1, fp);
	fwrite(ph, sizeof(ph), 1, fp);
	fwrite(note, nl, 1, fp);
	fseek(fp, (long)load_off, SEEK_SET);
	for (uint64_t i = 0; i < PAGE; i++)
		fputc(0xc0, fp);
	assert_int_equal(fclose(fp), 0);

	// The mapped file: two pages minus 100 bytes, 0xf0 then 0xf1.
	if (deleted_bin) {
		unlink(bin);
		return;
	}
	fp = fopen(bin, "wb");
	assert_non_null(fp);
	for (uint64_t i = 0; i < 2 * PAGE - 100; i++)
		fputc(i < PAGE ? 0xf0 : 0xf1, fp);
	assert_int_equal(fclose(fp), 0);
}

static bool
all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

// Reads one page of the synthetic core at @p addr; NULL on success.
static struct irs_error *
read_page(struct irs_memory *mem, uint64_t addr, uint8_t *page)
{
	return irs_memory_read(mem, addr, page, PAGE);
}

struct synth {
	char dir[32], core[64], bin[64];
	struct irs_memory *mem;
};

static int
setup_synth(void **state)
{
	struct synth *sy = calloc(1, sizeof(*sy));
	if (!sy)
		return -1;
	snprintf(sy->dir, sizeof(sy->dir), "/tmp/irsnap-synth-XXXXXX");
	if (!mkdtemp(sy->dir))
		return -1;
	snprintf(sy->core, sizeof(sy->core), "%s/synth.core", sy->dir);
	snprintf(sy->bin, sizeof(sy->bin), "%s/synth.bin", sy->dir);
	*state = sy;
	return 0;
}

static int
teardown_synth(void **state)
{
	struct synth *sy = *state;
	irs_memory_destroy(sy->mem);
	unlink(sy->core);
	unlink(sy->bin);
	rmdir(sy->dir);
	free(sy);
	return 0;
}

// p_filesz < p_memsz, NT_FILE-only mappings, a zero tail, a file too
// short, an address nowhere: each read the way the process saw it.
static void
test_core_segment_tail_and_nt_file(void **state)
{
	struct synth *sy = *state;
	const char *core = sy->core, *bin = sy->bin;
	uint8_t page[PAGE];
	struct irs_memory *mem;
	struct irs_error *err;

	write_synthetic_core(core, bin, false);
	assert_null(irs_memory_create_core(core, BIN_ONLY(bin), &sy->mem));
	mem = sy->mem;
	assert_string_equal(irs_memory_kind(mem), "core");

	assert_null(read_page(mem, 0x10000, page));
	assert_true(all_bytes(page, PAGE, 0xc0));
	assert_null(read_page(mem, 0x11000, page));	// file page 0
	assert_true(all_bytes(page, PAGE, 0xf0));
	assert_null(read_page(mem, 0x12000, page));	// tail, no file
	assert_true(all_bytes(page, PAGE, 0));
	assert_null(read_page(mem, 0x20000, page));	// file page 1
	assert_true(all_bytes(page, PAGE - 100, 0xf1));
	assert_true(all_bytes(page + PAGE - 100, 100, 0));	// past EOF

	err = read_page(mem, 0x21000, page);	// mapped wholly past EOF
	assert_non_null(err);
	assert_int_equal(err->address, 0x21000);
	assert_non_null(strstr(err->message, bin));
	assert_non_null(strstr(err->message, "past the end"));
	irs_error_destroy(err);

	err = irs_memory_read(mem, 0x12ff8, page, 16);	// segment end
	assert_non_null(err);
	assert_int_equal(err->address, 0x13000);
	assert_non_null(strstr(err->message, core));
	assert_non_null(strstr(err->message, "not in core file"));
	irs_error_destroy(err);
	irs_memory_destroy(mem);
	sy->mem = NULL;

	// The mapped file is gone: its pages fault naming it and the core.
	write_synthetic_core(core, bin, true);
	assert_null(irs_memory_create_core(core, BIN_ONLY(bin), &sy->mem));
	mem = sy->mem;
	assert_null(read_page(mem, 0x10000, page));
	err = read_page(mem, 0x11000, page);
	assert_non_null(err);
	assert_int_equal(err->address, 0x11000);
	assert_non_null(strstr(err->message, core));
	assert_non_null(strstr(err->message, bin));
	assert_non_null(strstr(err->message, "No such file"));
	irs_error_destroy(err);
}

// Where a core's process mapped a file (a library's load address, for
// the symbols of a core's modules): its NT_FILE mapping at file offset 0,
// only for a file the core reader would read for it.
static void
test_core_mapped_at(void **state)
{
	struct synth *sy = *state;
	uint64_t at = 0;
	struct irs_error *err;

	write_synthetic_core(sy->core, sy->bin, false);
	assert_null(irs_mem_core_mapped_at(sy->core, sy->bin, &at));
	assert_int_equal(at, 0x11000);	// not 0x20000: at file page 1
	err = irs_mem_core_mapped_at(sy->core, "/nonexistent/lib.so", &at);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	assert_non_null(strstr(err->message, "maps no /nonexistent/lib.so"));
	irs_error_destroy(err);
	err = irs_mem_core_mapped_at("/nonexistent/core", sy->bin, &at);
	assert_non_null(err);
	irs_error_destroy(err);
}

/* }=========== */

/* {=========== one stopped child, three readers =========================== */

// The target callback a front end might write: plain pread of
// /proc/PID/mem, faulting at the first byte it could not read.
struct proc_target {
	struct irs_target t;
	int fd;
};

static struct irs_error *
proc_read(void *arg, uint64_t a, void *buf, uint64_t n)
{
	struct proc_target *pt = arg;
	uint64_t got = 0;
	while (got < n) {
		ssize_t r = pread(pt->fd, (char *)buf + got, n - got,
				  (off_t)(a + got));
		if (r <= 0)
			return irs_error_fault(a + got, "Cannot access memory "
					       "at address 0x%" PRIx64,
					       a + got);
		got += (uint64_t)r;
	}
	return NULL;
}

struct live {
	struct memory_child child;
	struct proc_target pt;
	struct irs_memory *readers[3];	// pid, target callback, core
};

static const char *const reader_names[3] = {"pid", "target", "core"};

static int
setup_live(void **state)
{
	char path[64];
	struct live *l = calloc(1, sizeof(*l));
	if (!l)
		return -1;
	*state = l;
	if (memory_child_start(&l->child) || memory_child_gcore(&l->child))
		return -1;
	if (!memory_child_stopped(&l->child)) {
		fprintf(stderr, "the child runs again after gcore\n");
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)l->child.pid);
	l->pt.fd = open(path, O_RDONLY);
	l->pt.t.arg = &l->pt;
	l->pt.t.read = proc_read;
	struct irs_error *err;
	if (l->pt.fd < 0 ||
	    (err = irs_memory_create_pid(l->child.pid, &l->readers[0])) ||
	    (err = irs_memory_create_target(&l->pt.t, &l->readers[1])) ||
	    (err = irs_memory_create_core(l->child.core,
					  CHILD_FILES(&l->child),
					  &l->readers[2]))) {
		fprintf(stderr, "cannot create the readers\n");
		return -1;
	}
	return 0;
}

static int
teardown_live(void **state)
{
	struct live *l = *state;
	if (!l)
		return 0;
	for (int i = 0; i < 3; i++)
		irs_memory_destroy(l->readers[i]);
	if (l->pt.fd > 0)
		close(l->pt.fd);
	memory_child_stop(&l->child);
	free(l);
	return 0;
}

// Reads @p n bytes at @p a through all three readers, checks they agree
// (bytes, or fault address), and leaves reader 0's bytes in @p buf.
// Returns the fault address, or 0.
static uint64_t
read3(struct live *l, uint64_t a, void *buf, uint64_t n)
{
	uint8_t *other = malloc(n ? n : 1);
	assert_non_null(other);
	struct irs_error *err0 = irs_memory_read(l->readers[0], a, buf, n);
	for (int r = 1; r < 3; r++) {
		struct irs_error *err = irs_memory_read(l->readers[r], a,
							other, n);
		if (!err0 != !err)
			fail_msg("at 0x%" PRIx64 " (%" PRIu64 " bytes) %s says "
				 "\"%s\", %s says \"%s\"", a, n,
				 reader_names[0], err0 ? err0->message : "ok",
				 reader_names[r], err ? err->message : "ok");
		if (err0 && err->address != err0->address)
			fail_msg("at 0x%" PRIx64 ": %s faults at 0x%" PRIx64
				 ", %s at 0x%" PRIx64, a, reader_names[0],
				 err0->address, reader_names[r], err->address);
		if (!err0 && memcmp(buf, other, n))
			fail_msg("at 0x%" PRIx64 " (%" PRIu64 " bytes) %s and "
				 "%s differ", a, n, reader_names[0],
				 reader_names[r]);
		irs_error_destroy(err);
	}
	free(other);
	uint64_t bad = err0 ? err0->address : 0;
	irs_error_destroy(err0);
	return bad;
}

// The bytes at @p addr of process @p pid from the file mapped there, read
// with plain stdio: what an unmodified file mapping must hold.
static void
file_bytes_at(pid_t pid, uint64_t addr, uint8_t *buf, size_t n)
{
	char path[64], line[512], file[400];
	uint64_t lo, hi, off;
	bool found = false;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	while (!found && fgets(line, sizeof(line), fp))
		found = sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64
			       " %*s %*u %399s", &lo, &hi, &off, file) == 4 &&
			addr >= lo && addr + n <= hi;
	fclose(fp);
	assert_true(found);
	fp = fopen(file, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, (long)(off + addr - lo), SEEK_SET), 0);
	assert_int_equal(fread(buf, 1, n, fp), n);
	fclose(fp);
}

// The list, the array and the mapped file read the same through the
// process, the callback and the core, and hold what the child wrote.
static void
test_readers_agree_on_known_data(void **state)
{
	struct live *l = *state;
	const struct memory_child_info *in = &l->child.info;
	struct memory_child_node node;
	uint64_t a = in->list, i;

	for (i = 0; a; i++, a = (uint64_t)(uintptr_t)node.next) {
		assert_int_equal(read3(l, a, &node, sizeof(node)), 0);
		assert_true(node.value == memory_child_node_value(i));
		char name[16];
		snprintf(name, sizeof(name), "node%u", (unsigned)i);
		assert_string_equal(node.name, name);
	}
	assert_int_equal(i, MEMORY_CHILD_NODES);

	uint8_t *buf = malloc(MEMORY_CHILD_ARRAY);
	assert_non_null(buf);
	for (uint64_t off = 0; off < MEMORY_CHILD_ARRAY; off += 100000) {
		uint64_t n = MEMORY_CHILD_ARRAY - off < 100000
				     ? MEMORY_CHILD_ARRAY - off : 100000;
		assert_int_equal(read3(l, in->array + off, buf + off, n), 0);
	}
	for (i = 0; i < MEMORY_CHILD_ARRAY; i++)
		if (buf[i] != memory_child_array_byte(i))
			fail_msg("array byte %" PRIu64 " is %#x", i, buf[i]);

	assert_int_equal(read3(l, in->mapped, buf, 4 * PAGE), 0);
	for (i = 0; i < 4 * PAGE; i++) {
		uint8_t want = i < MEMORY_CHILD_FILE ? memory_child_file_byte(i)
						     : 0;
		if (buf[i] != want)
			fail_msg("mapped byte %" PRIu64 " is %#x", i, buf[i]);
	}
	// libc's code, which gcore leaves to the file too, as the file has
	// it.
	uint8_t code[256];
	assert_int_equal(read3(l, in->code, buf, sizeof(code)), 0);
	file_bytes_at(l->child.pid, in->code, code, sizeof(code));
	assert_memory_equal(buf, code, sizeof(code));
	free(buf);
}

// Whether the core's PT_LOAD segments hold bytes for @p addr.
static bool
core_holds(const char *core, uint64_t addr)
{
	bool found = false;
	int fd = open(core, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	size_t n;
	assert_int_equal(elf_getphdrnum(elf, &n), 0);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		assert_non_null(gelf_getphdr(elf, (int)i, &ph));
		if (ph.p_type == PT_LOAD && addr >= ph.p_vaddr &&
		    addr - ph.p_vaddr < ph.p_filesz)
			found = true;
	}
	elf_end(elf);
	close(fd);
	return found;
}

// gcore leaves the read-only file mapping out; the core reader gets its
// pages from the file the NT_FILE note names, zero after the file's end.
static void
test_core_reads_left_out_pages_from_files(void **state)
{
	struct live *l = *state;
	const struct memory_child_info *in = &l->child.info;
	uint8_t buf[4 * PAGE];

	assert_false(core_holds(l->child.core, in->mapped));
	assert_false(core_holds(l->child.core, in->code));
	assert_true(core_holds(l->child.core, in->array));
	assert_null(irs_memory_read(l->readers[2], in->mapped, buf,
				    sizeof(buf)));
	for (uint64_t i = 0; i < sizeof(buf); i++) {
		uint8_t want = i < MEMORY_CHILD_FILE ? memory_child_file_byte(i)
						     : 0;
		if (buf[i] != want)
			fail_msg("mapped byte %" PRIu64 " is %#x", i, buf[i]);
	}
}

// The core names its process: the pid, and the whole argv read back from
// the stack, although NT_PRPSINFO keeps only its first 80 bytes.
static void
test_core_process_whole_command_line(void **state)
{
	struct live *l = *state;
	char *argv, want[1024];
	size_t len, n = 0;
	int64_t pid;

	assert_null(irs_mem_core_process(l->child.core, &pid, &argv, &len));
	assert_int_equal(pid, l->child.pid);
	const char *args[] = {l->child.exe, l->child.file, "", MEMORY_CHILD_ARG};
	char fd[16];
	assert_non_null(argv);
	// the pipe's fd number is the child's second argument
	snprintf(fd, sizeof(fd), "%s", argv + strlen(argv) + 1 +
		 strlen(l->child.file) + 1);
	args[2] = fd;
	for (size_t i = 0; i < 4; i++) {
		memcpy(want + n, args[i], strlen(args[i]) + 1);
		n += strlen(args[i]) + 1;
	}
	assert_int_equal(len, n);
	assert_memory_equal(argv, want, n);
	assert_true(len > 80);
	free(argv);
}

// Each page of every mapping in /proc/PID/maps reads the same through the
// three readers: bytes, or a fault at the same address. Mappings the
// process cannot read (PROT_NONE) are compared between the live readers
// only: a core holds no bytes for them.
static void
test_readers_agree_on_every_mapping(void **state)
{
	struct live *l = *state;
	char path[64], line[512];
	uint8_t buf[PAGE], other[PAGE];
	uint64_t pages = 0, faults = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)l->child.pid);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		uint64_t lo, hi;
		char perms[8];
		assert_int_equal(sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s",
					&lo, &hi, perms), 3);
		for (uint64_t a = lo; a < hi; a += PAGE, pages++) {
			if (perms[0] == 'r') {
				faults += read3(l, a, buf, PAGE) != 0;
				continue;
			}
			struct irs_error *e0 = irs_memory_read(l->readers[0],
							       a, buf, PAGE);
			struct irs_error *e1 = irs_memory_read(l->readers[1],
							       a, other, PAGE);
			assert_true(!e0 == !e1);
			if (!e0)
				assert_memory_equal(buf, other, PAGE);
			irs_error_destroy(e0);
			irs_error_destroy(e1);
		}
	}
	fclose(fp);
	print_message("# %" PRIu64 " pages compared, %" PRIu64
		      " unreadable to all three\n", pages, faults);
	assert_true(pages > 1000);
}

// A read running off a mapping into a hole faults at the hole, in all
// three readers; the page before it reads.
static void
test_live_fault_names_first_unreadable_address(void **state)
{
	struct live *l = *state;
	const struct memory_child_info *in = &l->child.info;
	uint8_t buf[64];

	assert_int_equal(read3(l, in->hole - 16, buf, 64), in->hole);
	assert_int_equal(read3(l, in->hole - 16, buf, 16), 0);
	assert_true(all_bytes(buf, 16, 0x5a));
	assert_int_equal(read3(l, in->hole + 100, buf, 8), in->hole + 100);
	struct irs_error *err = irs_memory_read(l->readers[0], in->hole - 8,
						buf, 16);
	assert_non_null(err);
	char want[80];
	snprintf(want, sizeof(want), "0x%" PRIx64 " is unreadable: not "
		 "mapped in process %d", in->hole, (int)l->child.pid);
	if (!strstr(err->message, want))
		fail_msg("\"%s\" lacks \"%s\"", err->message, want);
	irs_error_destroy(err);
	err = irs_memory_read(l->readers[2], in->hole - 8, buf, 16);
	assert_non_null(err);
	assert_non_null(strstr(err->message, l->child.core));
	irs_error_destroy(err);
	// A fresh pid reader, nothing cached: a small read through the
	// cache, then a large one straight from process_vm_readv, each
	// cut short at the hole.
	struct irs_memory *mem;
	assert_null(irs_memory_create_pid(l->child.pid, &mem));
	err = irs_memory_read(mem, in->hole - 8, buf, 16);
	assert_non_null(err);
	assert_int_equal(err->address, in->hole);
	irs_error_destroy(err);
	irs_memory_invalidate(mem);
	uint8_t *big = malloc(512 << 10);
	assert_non_null(big);
	err = irs_memory_read(mem, in->hole - PAGE, big, 512 << 10);
	assert_non_null(err);
	assert_int_equal(err->address, in->hole);
	irs_error_destroy(err);
	struct irs_memory_stats st;
	irs_memory_get_stats(mem, &st);
	assert_int_equal(st.direct_reads, 1);
	free(big);
	irs_memory_destroy(mem);
}

// A trace empties the cache at each stop and reads the same few pages
// again: the first miss among the pages read before the reset gathers
// them all in one call, with the same bytes; a recording covers only the
// recalled pages read since, so a print still tells what the walk read.
static void
test_recall_reads_the_last_pages_in_one_call(void **state)
{
	struct live *l = *state;
	const struct memory_child_info *in = &l->child.info;
	struct irs_memory *mem;
	struct irs_memory_stats st0, st1;
	uint8_t b;
	// page-aligned: a recording's ranges are whole pages
	uint64_t base = (in->array + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	uint64_t skip = base - in->array;

	assert_null(irs_memory_create_pid(l->child.pid, &mem));
	irs_memory_set_ramp(mem, true);
	// five pages apart from each other: five fills the first time
	for (int k = 0; k < 5; k++)
		assert_null(irs_memory_read(mem, base + 3 * k * PAGE + 7,
					    &b, 1));
	irs_memory_invalidate(mem);
	irs_memory_get_stats(mem, &st0);
	for (int k = 0; k < 5; k++) {
		assert_null(irs_memory_read(mem, base + 3 * k * PAGE + 7,
					    &b, 1));
		assert_int_equal(b, memory_child_array_byte(skip + 3 * k * PAGE + 7));
	}
	irs_memory_get_stats(mem, &st1);
	assert_int_equal(st1.source_calls - st0.source_calls, 1);
	// recorded: two of the five recalled pages read, two ranges
	struct irs_mem_print p = { 0 };
	irs_memory_record(mem, &p);
	for (int k = 0; k < 2; k++)
		assert_null(irs_memory_read(mem, base + 3 * k * PAGE,
					    &b, 1));
	irs_memory_record(mem, NULL);
	assert_false(p.lost);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.ranges[0].addr, base);
	assert_int_equal(p.ranges[1].addr, base + 3 * PAGE);
	assert_true(irs_memory_print_matches(mem, &p));
	irs_mem_print_deinit(&p);
	// a page never read before: a fill of its own, as without recall
	irs_memory_invalidate(mem);
	irs_memory_get_stats(mem, &st0);
	assert_null(irs_memory_read(mem, base + 40 * PAGE, &b, 1));
	irs_memory_get_stats(mem, &st1);
	assert_int_equal(st1.source_calls - st0.source_calls, 1);
	assert_int_equal(st1.source_bytes - st0.source_bytes, PAGE);
	irs_memory_destroy(mem);
}

// A PROT_NONE page: the debugger reads it through ptrace, and so do both
// live readers; gcore dumps it with those bytes, so the core agrees.
static void
test_guard_page(void **state)
{
	struct live *l = *state;
	const struct memory_child_info *in = &l->child.info;
	uint8_t buf[PAGE];
	uint64_t bad = read3(l, in->guard - 8, buf, PAGE);
	print_message("# PROT_NONE page: %s\n", bad ? "unreadable to all"
						   : "read by all");
	if (!bad)
		assert_true(all_bytes(buf, PAGE, 0x5a));
	else
		assert_int_equal(bad, in->guard);
}

// A mapped file that went away: the pages the core left out fault, naming
// the core and the file; the core's own pages still read.
static void
test_core_missing_mapped_file(void **state)
{
	struct live *l = *state;
	char away[128];
	uint8_t buf[64];
	struct irs_memory *mem;

	snprintf(away, sizeof(away), "%s.away", l->child.file);
	const char *const *loaded = child_files(&l->child);	// then gone
	assert_int_equal(rename(l->child.file, away), 0);
	struct irs_error *cerr = irs_memory_create_core(l->child.core, loaded,
							&mem);
	if (cerr)
		rename(away, l->child.file);
	assert_null(cerr);
	struct irs_error *err = irs_memory_read(mem, l->child.info.mapped + 8,
						buf, 8);
	struct irs_error *ok = irs_memory_read(mem, l->child.info.array, buf,
					       64);
	assert_int_equal(rename(away, l->child.file), 0);
	assert_null(ok);
	assert_non_null(err);
	assert_int_equal(err->address, l->child.info.mapped + 8);
	assert_non_null(strstr(err->message, l->child.core));
	assert_non_null(strstr(err->message, l->child.file));
	assert_non_null(strstr(err->message, "cannot be opened"));
	irs_error_destroy(err);
	irs_memory_destroy(mem);
}

// A core is untrusted (issue 32, 4): the files its NT_FILE note names are
// read only when the caller vouches for them (the debugger loaded them).
// The child's mapped file exists, and the core names it, but nobody gave
// it: its pages fault saying why, in one line; the core's own pages read.
static void
test_core_reads_only_files_given(void **state)
{
	struct live *l = *state;
	uint8_t buf[64];
	struct irs_memory *mem;
	const char *const exe_only[] = {l->child.exe, NULL};

	for (int i = 0; i < 2; i++) {
		assert_null(irs_memory_create_core(l->child.core,
						   i ? exe_only : NULL, &mem));
		struct irs_error *err = irs_memory_read(
			mem, l->child.info.mapped + 8, buf, 8);
		assert_null(irs_memory_read(mem, l->child.info.array, buf,
					    64));
		assert_non_null(err);
		assert_int_equal(err->address, l->child.info.mapped + 8);
		if (!strstr(err->message, l->child.file) ||
		    !strstr(err->message, "is not read: not a file the "
			    "debugger loaded") || strchr(err->message, '\n'))
			fail_msg("%s", err->message);
		irs_error_destroy(err);
		assert_null(irs_memory_notice(mem));
		irs_memory_destroy(mem);
	}
}

static void
assert_bad_core(const char *path, int code, const char *what)
{
	struct irs_memory *mem = NULL;
	struct irs_error *err = irs_memory_create_core(path, NULL, &mem);
	assert_non_null(err);
	assert_null(mem);
	assert_int_equal(err->code, code);
	if (!strstr(err->message, path) || !strstr(err->message, what))
		fail_msg("\"%s\" should name %s and say \"%s\"", err->message,
			 path, what);
	irs_error_destroy(err);
}

static void
copy_prefix(const char *from, const char *to, off_t n)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT |
						   O_TRUNC, 0600);
	assert_true(in >= 0 && out >= 0);
	while (n > 0) {
		ssize_t r = read(in, buf, n < (off_t)sizeof(buf)
					      ? (size_t)n : sizeof(buf));
		assert_true(r > 0);
		assert_int_equal(write(out, buf, (size_t)r), r);
		n -= r;
	}
	close(in);
	close(out);
}

// A core cut in half opens; what it still holds reads the same as the
// whole core, what it lost faults naming the file and saying it is
// truncated. A core cut inside its headers does not open.
static void
test_truncated_core(void **state)
{
	struct live *l = *state;
	char cut[128];
	struct stat st;
	struct irs_memory *mem = NULL;
	uint8_t a[256], b[256];

	snprintf(cut, sizeof(cut), "%s/cut.core", l->child.dir);
	assert_int_equal(stat(l->child.core, &st), 0);
	copy_prefix(l->child.core, cut, st.st_size / 2);
	assert_null(irs_memory_create_core(cut, CHILD_FILES(&l->child), &mem));
	int lost = 0, kept = 0;
	for (uint64_t off = 0; off < MEMORY_CHILD_ARRAY; off += 256 * PAGE) {
		uint64_t addr = l->child.info.array + off;
		struct irs_error *err = irs_memory_read(mem, addr, a, 256);
		if (err) {
			assert_non_null(strstr(err->message, cut));
			assert_non_null(strstr(err->message, "truncated"));
			assert_true(err->address >= addr);
			irs_error_destroy(err);
			lost++;
			continue;
		}
		assert_null(irs_memory_read(l->readers[2], addr, b, 256));
		assert_memory_equal(a, b, 256);
		kept++;
	}
	print_message("# core cut to %lld bytes: %d array samples kept, %d "
		      "lost\n", (long long)st.st_size / 2, kept, lost);
	assert_true(lost > 0);
	irs_memory_destroy(mem);

	const off_t sizes[] = {0, 10, 63, 100};
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		copy_prefix(l->child.core, cut, sizes[i]);
		assert_bad_core(cut, IRS_ERROR_FORMAT,
				sizes[i] ? "truncated" : "empty");
	}
}

// Files that are no core: clear errors naming them.
static void
test_bad_core_files(void **state)
{
	struct live *l = *state;
	char path[128];

	snprintf(path, sizeof(path), "%s/notelf", l->child.dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("this is not an ELF file, it only has enough bytes to look "
	      "like one might be here\n", fp);
	fclose(fp);
	assert_bad_core(path, IRS_ERROR_FORMAT, "not an ELF file");
	assert_bad_core("/bin/true", IRS_ERROR_FORMAT, "not a core file");
	snprintf(path, sizeof(path), "%s/no-such.core", l->child.dir);
	assert_bad_core(path, IRS_ERROR_NOT_FOUND, "No such file");
	assert_bad_core(l->child.dir, IRS_ERROR_FORMAT, "not a regular file");
}

// The files a debugger says it loaded (irs_target.module).
static const char *modules[2];

static struct irs_error *
list_modules(void *arg, uint32_t index, char *buf, uint64_t len)
{
	(void)arg;
	if (index >= 1 || !modules[index])
		return irs_error_create(IRS_ERROR_NOT_FOUND, "no more");
	snprintf(buf, len, "%s", modules[index]);
	return NULL;
}

// create_best: a core file wins over a pid, a pid that is the debuggee
// gives the process reader, a pid that is not gives the callback, and a
// core that will not open falls back to the callback.
static void
test_create_best_picks_the_reader(void **state)
{
	struct live *l = *state;
	struct irs_target t = l->pt.t;
	struct irs_memory *mem;

	t.pid = l->child.pid;
	t.exe_path = l->child.exe;
	assert_null(irs_memory_create_best(&t, &mem));
	assert_string_equal(irs_memory_kind(mem), "process");
	irs_memory_destroy(mem);

	t.core_path = l->child.core;
	assert_null(irs_memory_create_best(&t, &mem));
	assert_string_equal(irs_memory_kind(mem), "core");
	// ... which reads a mapped file only when the debugger loaded it
	uint8_t byte;
	struct irs_error *ferr = irs_memory_read(mem, l->child.info.mapped,
						 &byte, 1);
	assert_non_null(ferr);
	irs_error_destroy(ferr);
	irs_memory_destroy(mem);
	modules[0] = l->child.file;
	t.module = list_modules;
	assert_null(irs_memory_create_best(&t, &mem));
	assert_null(irs_memory_read(mem, l->child.info.mapped, &byte, 1));
	assert_int_equal(byte, memory_child_file_byte(0));
	irs_memory_destroy(mem);
	t.module = NULL;

	t.core_path = "/bin/true";	// GDB opened it somehow: ask GDB
	assert_null(irs_memory_create_best(&t, &mem));
	assert_string_equal(irs_memory_kind(mem), "target");
	irs_memory_destroy(mem);
	t.read = NULL;			// ... unless it cannot be asked
	struct irs_error *err = irs_memory_create_best(&t, &mem);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "/bin/true"));
	irs_error_destroy(err);
	t.read = proc_read;

	t.core_path = NULL;
	t.exe_path = "/bin/true";	// the pid runs something else
	assert_null(irs_memory_create_best(&t, &mem));
	assert_string_equal(irs_memory_kind(mem), "target");
	irs_memory_destroy(mem);
	t.exe_path = NULL;
	t.pid = INT_MAX;		// no such process
	assert_null(irs_memory_create_best(&t, &mem));
	assert_string_equal(irs_memory_kind(mem), "target");
	irs_memory_destroy(mem);
	err = irs_memory_create_pid(INT_MAX, &mem);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	irs_error_destroy(err);
}

/* }=========== */

/* {=========== throughput ================================================= */

// Small reads per second, cycling over @p span bytes already cached; the
// best of three runs.
static double
small_reads_per_s(struct irs_memory *mem, uint64_t base, uint64_t span)
{
	const uint64_t n = 10000000;
	double best = 1e9;
	uint64_t sum = 0, v;
	for (uint64_t off = 0; off < span; off += PAGE)
		assert_null(irs_memory_read(mem, base + off, &v, 8));
	for (int run = 0; run < 3; run++) {
		double t0 = unit_now();
		for (uint64_t i = 0; i < n; i++) {
			uint64_t off = (i * 8 * 613) & (span - 8); // span: 2^k
			if (irs_memory_read(mem, base + off, &v, 8))
				fail();
			sum += v;
		}
		double dt = unit_now() - t0;
		best = dt < best ? dt : best;
	}
	assert_true(sum != 1);	// keep the loop
	return (double)n / best;
}

// MB/s reading the child's array in @p chunk-byte reads, cold; the best
// of three runs, since other processes share the machine.
static double
bulk_mb_per_s(struct irs_memory *mem, uint64_t base, uint64_t chunk)
{
	double best = 1e9;
	uint8_t *buf = malloc(chunk);
	assert_non_null(buf);
	for (int run = 0; run < 3; run++) {
		irs_memory_invalidate(mem);
		double t0 = unit_now();
		for (uint64_t off = 0; off < MEMORY_CHILD_ARRAY; off += chunk)
			assert_null(irs_memory_read(mem, base + off, buf,
						    chunk));
		double dt = unit_now() - t0;
		best = dt < best ? dt : best;
	}
	assert_int_equal(buf[0], memory_child_array_byte(MEMORY_CHILD_ARRAY
							 - chunk));
	free(buf);
	return (double)MEMORY_CHILD_ARRAY / best / 1e6;
}

// Figures for the report; nothing here is timed against a bound.
static void
test_throughput(void **state)
{
	struct live *l = *state;
	struct fake f = {.base = 0x10000000, .size = 16 << 20};
	f.bytes = calloc(1, f.size);
	assert_non_null(f.bytes);
	f.t.arg = &f;
	f.t.read = fake_read;
	struct irs_memory *mem;
	assert_null(irs_memory_create_target(&f.t, &mem));
	print_message("# small reads, 8 bytes, cached: %.0f M/s within 64 KiB,"
		      " %.0f M/s over 4 MiB, %.0f M/s over 16 MiB\n",
		      small_reads_per_s(mem, f.base, 64 << 10) / 1e6,
		      small_reads_per_s(mem, f.base, 4 << 20) / 1e6,
		      small_reads_per_s(mem, f.base, 16 << 20) / 1e6);
	irs_memory_destroy(mem);
	free(f.bytes);

	uint64_t array = l->child.info.array;
	const char *kinds[] = {"process", "pread /proc/PID/mem callback",
			       "core"};
	for (int r = 0; r < 3; r++) {
		struct irs_memory *m = l->readers[r];
		print_message("# bulk %s, 16 MiB cold: %.0f MB/s in 8-byte "
			      "reads, %.0f MB/s in 4 KiB, %.0f MB/s in 1 MiB\n",
			      kinds[r], bulk_mb_per_s(m, array, 8),
			      bulk_mb_per_s(m, array, 4096),
			      bulk_mb_per_s(m, array, 1 << 20));
	}
	const uint32_t windows[] = {4096, 16 << 10, 64 << 10, 256 << 10};
	for (size_t i = 0; i < ARRAY_SIZE(windows); i++) {
		struct irs_memory *m = l->readers[0];
		assert_null(irs_memory_configure(m, 0, windows[i]));
		print_message("# process, read-ahead %3u KiB: %.0f MB/s in "
			      "8-byte reads, %.0f MB/s in 4 KiB\n",
			      windows[i] >> 10, bulk_mb_per_s(m, array, 8),
			      bulk_mb_per_s(m, array, 4096));
	}
	assert_null(irs_memory_configure(l->readers[0], 0, IRS_MEMORY_WINDOW));
}

/* }=========== */

int
main(void)
{
	const struct CMUnitTest cache_tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup_fake, teardown_fake)
		T(test_small_reads_hit_the_cache),
		T(test_reads_span_pages_and_windows),
		T(test_unreadable_page_is_cached),
		T(test_fault_names_first_unreadable_byte),
		T(test_fault_found_when_callback_does_not_say),
		T(test_invalidate_drops_everything),
		T(test_capacity_bounds_the_cache),
		T(test_hot_page_survives_a_scan),
		T(test_random_reads_match_the_target),
		T(test_large_read_goes_direct),
		T(test_edge_ranges),
#undef T
		cmocka_unit_test(test_target_without_read),
		cmocka_unit_test_setup_teardown(
			test_core_segment_tail_and_nt_file, setup_synth,
			teardown_synth),
		cmocka_unit_test_setup_teardown(
			test_core_mapped_at, setup_synth, teardown_synth),
	};
	const struct CMUnitTest live_tests[] = {
		cmocka_unit_test(test_readers_agree_on_known_data),
		cmocka_unit_test(test_core_reads_left_out_pages_from_files),
		cmocka_unit_test(test_core_process_whole_command_line),
		cmocka_unit_test(test_readers_agree_on_every_mapping),
		cmocka_unit_test(
			test_live_fault_names_first_unreadable_address),
		cmocka_unit_test(test_recall_reads_the_last_pages_in_one_call),
		cmocka_unit_test(test_guard_page),
		cmocka_unit_test(test_core_missing_mapped_file),
		cmocka_unit_test(test_core_reads_only_files_given),
		cmocka_unit_test(test_truncated_core),
		cmocka_unit_test(test_bad_core_files),
		cmocka_unit_test(test_create_best_picks_the_reader),
		cmocka_unit_test(test_throughput),
	};
	int failed = cmocka_run_group_tests_name("memory cache", cache_tests,
						 NULL, NULL);
	failed += cmocka_run_group_tests_name("memory readers", live_tests,
					      setup_live, teardown_live);
	return failed ? 1 : 0;
}
