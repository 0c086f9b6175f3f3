// The ELF core reader over fuzzed files: irs_memory_create_core() on the
// input written to a file, then reads through the page cache where the
// file's own program headers and NT_FILE note say memory is (their first
// and last bytes, across their ends, a span over several), plus a few
// fixed addresses; and the process it names (pid, argv from the stack).
// Oracles: no crash, hang or leak; a failed open or read
// gets an error with a message, and a fault error names an address inside
// the span that was read.
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mem/mem.h"

static char path[512];


void
fz_target_init(void)
{
	snprintf(path, sizeof(path), "%s/core", fz_scratch());
	elf_version(EV_CURRENT);
}

static void
read_at(struct irs_memory *mem, uint64_t addr, uint64_t count)
{
	static uint8_t buf[3 * 4096 + 64];
	if (count > sizeof(buf))
		count = sizeof(buf);
	struct irs_error *err = irs_memory_read(mem, addr, buf, count);
	if (!err)
		return;
	if (!err->message || !*err->message)
		fz_fail("read 0x%llx: an error without a message",
			(unsigned long long)addr);
	if (err->code == IRS_ERROR_FAULT &&
	    (err->address < addr || err->address - addr >= count))
		fz_fail("read of %llu bytes at 0x%llx faults at 0x%llx, "
			"outside it", (unsigned long long)count,
			(unsigned long long)addr,
			(unsigned long long)err->address);
	irs_error_destroy(err);
}

// Reads around [start, start + len).
static void
probe(struct irs_memory *mem, uint64_t start, uint64_t len)
{
	read_at(mem, start, 16);
	read_at(mem, start - 8, 16);
	if (len) {
		read_at(mem, start + len - 8, 16);
		read_at(mem, start + len - 1, 1);
	}
	read_at(mem, start, 2 * 4096 + 8);
}

// Where the input says memory is: its PT_LOAD segments (and the first
// NT_FILE entries, read as raw words), parsed by libelf independently of
// the reader under test.
static void
probe_segments(struct irs_memory *mem, const uint8_t *data, size_t size)
{
	Elf *elf = elf_memory((char *)data, size);
	size_t n;
	if (!elf)
		return;
	if (elf_getphdrnum(elf, &n) == 0) {
		for (size_t i = 0; i < n && i < 16; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(elf, (int)i, &ph))
				break;
			if (ph.p_type == PT_LOAD)
				probe(mem, ph.p_vaddr, ph.p_memsz);
		}
	}
	elf_end(elf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_write(path, data, size);
	struct irs_memory *mem;
	// Whatever files its NT_FILE note names, the fuzzer's own program
	// is the only one it may read (as a debugger's loaded program).
	static const char *const files[] = {"/proc/self/exe", NULL};
	struct irs_error *err = irs_memory_create_core(path, files, &mem);
	if (err) {
		if (!err->message || !strstr(err->message, path))
			fz_fail("open: the error does not name the file: %s",
				err->message ? err->message : "(null)");
		irs_error_destroy(err);
		return 0;
	}
	// a copy libelf may keep pointers into
	uint8_t *copy = malloc(size ? size : 1);
	if (copy) {
		memcpy(copy, data, size);
		probe_segments(mem, copy, size);
		free(copy);
	}
	probe(mem, 0x400000, 0x1000);
	probe(mem, 0x500000, 0x2000);
	probe(mem, 0, 0);
	probe(mem, UINT64_MAX - 4, 0);
	irs_memory_invalidate(mem);
	probe(mem, 0x600000, 0x2000);
	irs_memory_destroy(mem);

	int64_t pid;
	char *argv = NULL;
	size_t len = 0;
	err = irs_mem_core_process(path, &pid, &argv, &len);
	irs_error_destroy(err);
	if (argv && (!len || argv[len - 1] != 0))
		fz_fail("the core's argv of %zu bytes does not end in NUL", len);
	free(argv);
	return 0;
}
