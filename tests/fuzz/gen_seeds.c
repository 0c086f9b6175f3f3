// Writes the fuzz seeds that are not text files (mk/fuzz.mk runs it into
// $(BUILD)/fuzz/seeds/ at build time):
//  walker/  memory images of real toyc IR, parsed here by toyc itself from
//           its test inputs, and of the kitchen IR (harness.h); each image
//           is checked to render exactly as the real memory does;
//  core/    small ELF core files: 64- and 32-bit, NT_FILE notes backing
//           left-out pages, segments shorter in the file than in memory,
//           extended program header numbering, a truncated one.
// Usage: gen-seeds OUTDIR
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "walk/walk.h"
#include "toyc.h"
#include "toyc_fake.h"

static const char *outdir;

static void
put_file(const char *sub, const char *name, const void *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", outdir, sub);
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		fz_fail("mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s/%s", outdir, sub, name);
	fz_write(path, data, len);
}

/* {====================================================== walker images */

// Regions added so far, so shared objects go in once.
static const void *added[65536];
static size_t nadded;

static void
add(struct fz_image_out *o, const void *p, size_t len)
{
	if (!p)
		return;
	for (size_t i = 0; i < nadded; i++)
		if (added[i] == p)
			return;
	if (nadded < sizeof(added) / sizeof(added[0]))
		added[nadded++] = p;
	fz_image_add(o, p, len);
}

static void
add_symbol(struct fz_image_out *o, const Symbol *s)
{
	if (!s)
		return;
	add(o, s, sizeof(*s));
	add(o, s->data, s->len + 1);
}

static void
add_instr(struct fz_image_out *o, const Instr *in)
{
	add(o, in, sizeof(*in));
	if (in->name)
		add(o, in->name, strlen(in->name) + 1);
	add(o, in->ops, in->nops * sizeof(Operand));
}

static void
add_module(struct fz_image_out *o, const Module *m)
{
	// the globals toyc.lua reads: the opcode table and its names
	add(o, toyc_optab, sizeof(toyc_optab));
	for (int op = 0; op < OP__COUNT; op++)
		add(o, toyc_optab[op].name, strlen(toyc_optab[op].name) + 1);
	add(o, m, sizeof(*m));
	add_symbol(o, m->name);
	add(o, m->consts, m->nconsts * sizeof(Const));
	for (uint32_t i = 0; i < m->nconsts; i++)
		if (m->consts[i].kind == CK_SYM)
			add_symbol(o, m->consts[i].u.sym);
	for (const IListNode *fl = m->funcs.next; fl != &m->funcs;
	     fl = fl->next) {
		const Function *f = container_of(fl, Function, link);
		add(o, f, sizeof(*f));
		add_symbol(o, f->name);
		add(o, f->params, f->nparams * sizeof(Instr *));
		for (uint32_t i = 0; i < f->nparams; i++)
			add_instr(o, f->params[i]);
		for (const IListNode *bl = f->blocks.next; bl != &f->blocks;
		     bl = bl->next) {
			const Block *b = container_of(bl, Block, link);
			add(o, b, sizeof(*b));
			for (const IListNode *il = b->insts.next;
			     il != &b->insts; il = il->next)
				add_instr(o, container_of(il, Instr, link));
		}
	}
}

// The text of the IR at @p root read from @p mem.
static char *
render(const struct irs_layout *lo, struct irs_memory *mem, uint64_t root)
{
	char *text;
	struct irs_snapshot *snap;
	struct irs_error *err = irs_snapshot_text(lo, mem, root, NULL, NULL,
						  &text, &snap);
	if (err)
		fz_fail("render: %s", err->message);
	irs_snapshot_destroy(snap);
	return text;
}

// Checks that image @p o renders as the real memory at @p root does.
static void
check_image(const struct irs_layout *lo, struct fake_target *ft,
	    const struct fz_image_out *o, uint64_t root, const char *name)
{
	static struct fz_image img;
	struct irs_target t;
	struct irs_memory *mem;
	fz_image_parse(&img, o->data, o->len);
	fz_image_target(&t, &img);
	if (irs_memory_create_target(&t, &mem))
		fz_fail("memory");
	char *want = render(lo, fake_memory(ft), root);
	char *got = render(lo, mem, root);
	if (strcmp(want, got))
		fz_fail("image %s renders differently:\n%s\n---\n%s", name,
			want, got);
	free(want);
	free(got);
	irs_memory_destroy(mem);
}

static void
toyc_image(const struct irs_layout *lo, struct fake_target *ft,
	   const char *name, const char *text, size_t len)
{
	Module *m = toyc_parse(name, text, len, stderr);
	if (!m)
		fz_fail("toyc cannot parse %s", name);
	struct fz_image_out o;
	nadded = 0;
	fz_image_begin(&o, 0, (uintptr_t)m);
	add_module(&o, m);
	check_image(lo, ft, &o, (uintptr_t)m, name);
	char file[256];
	snprintf(file, sizeof(file), "toyc-%s", strrchr(name, '/') + 1);
	put_file("walker", file, o.data, o.len);
	free(o.data);
	module_destroy(m);
}

static void
walker_seeds(void)
{
	static const char *const inputs[] = {
		"tests/toyc/cases/pass-constfold.ir",
		"tests/toyc/cases/pass-cse.ir",
		"tests/toyc/cases/pass-simplifycfg.ir",
		"tests/toyc/cases/bug-corrupt-cycle.ir",
		"tests/toyc/cases/verify-valid.ir",
	};
	struct fake_target ft;
	fake_target_init(&ft);
	toyc_fake_register(&ft);
	struct irs_layout *lo = fz_layout("tests/fixtures/toyc/toyc.lua",
					  &ft);
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		size_t len;
		char *text = fz_read(fz_source_path(inputs[i]), &len);
		toyc_image(lo, &ft, inputs[i], text, len);
		free(text);
	}
	char *gen;
	size_t len;
	FILE *fp = open_memstream(&gen, &len);
	toyc_gen(12, 7, fp);
	fclose(fp);
	toyc_image(lo, &ft, "gen/gen-12.ir", gen, len);
	free(gen);
	irs_layout_destroy(lo);
	fake_target_deinit(&ft);

	fake_target_init(&ft);
	fz_kitchen_register(&ft);
	lo = fz_layout("tests/fuzz/kitchen.lua", &ft);
	for (int v = 0; v < 3; v++) {
		KRoot *r = fz_kitchen_build(v);
		struct fz_image_out o;
		fz_image_begin(&o, 1, (uintptr_t)r);
		fz_kitchen_image(&o, r);
		check_image(lo, &ft, &o, (uintptr_t)r, "kitchen");
		char file[32];
		snprintf(file, sizeof(file), "kitchen-%d", v);
		put_file("walker", file, o.data, o.len);
		free(o.data);
	}
	irs_layout_destroy(lo);
	fake_target_deinit(&ft);
}

/* }====================================================== */

/* {====================================================== core files */

struct bytes {
	uint8_t data[8192];
	size_t len;
};

static size_t
put(struct bytes *b, const void *p, size_t n)
{
	size_t at = b->len;
	if (b->len + n > sizeof(b->data))
		fz_fail("core seed too large");
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return at;
}

static void
put_word(struct bytes *b, uint64_t v, unsigned word)
{
	if (word == 4) {
		uint32_t w = (uint32_t)v;
		put(b, &w, 4);
	} else {
		put(b, &v, 8);
	}
}

// An ELF note: header, "CORE\0" padded, then @p desc padded to 4 bytes.
static void
put_note(struct bytes *b, uint32_t type, const void *desc, size_t len)
{
	static const uint8_t zero[8];
	uint32_t h[3] = { 5, (uint32_t)len, type };
	put(b, h, sizeof(h));
	put(b, "CORE\0\0\0", 8);
	put(b, desc, len);
	put(b, zero, (4 - len % 4) % 4);
}

// The NT_FILE note: a read-only page backed by this executable (the
// fuzzer's own), one by a file that does not exist.
static void
put_nt_file(struct bytes *b, unsigned word)
{
	struct bytes d = { .len = 0 };
	put_word(&d, 2, word);
	put_word(&d, 4096, word);
	put_word(&d, 0x400000, word);
	put_word(&d, 0x401000, word);
	put_word(&d, 0, word);
	put_word(&d, 0x500000, word);
	put_word(&d, 0x502000, word);
	put_word(&d, 1, word);
	put(&d, "/proc/self/exe", 15);
	put(&d, "/nonexistent/libgone.so", 24);
	put_note(b, NT_FILE, d.data, d.len);
}

struct seg {
	uint64_t vaddr, memsz, filesz;
};

static const struct seg core_segs[] = {
	{ 0x400000, 0x1000, 0 },	// left out: NT_FILE backs it
	{ 0x600000, 0x2000, 0x100 },	// a zero tail
	{ 0x7ff000, 0x1000, 0x40 },
};
#define NSEGS (sizeof(core_segs) / sizeof(core_segs[0]))

static void
fill_data(struct bytes *b, size_t n, uint8_t salt)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t c = (uint8_t)(i * 7 + salt);
		put(b, &c, 1);
	}
}

// A 64-bit core; @p xnum uses extended numbering (e_phnum = PN_XNUM,
// the count in section header 0); @p cut drops the last segment's data.
static void
core64(const char *name, bool xnum, bool cut)
{
	struct bytes b = { .len = 0 };
	struct bytes notes = { .len = 0 };
	uint8_t prstatus[336] = { 0 };
	put_note(&notes, NT_PRSTATUS, prstatus, sizeof(prstatus));
	put_nt_file(&notes, 8);

	Elf64_Ehdr eh;
	size_t nph = 1 + NSEGS;
	fake_core_ehdr(&eh, xnum ? PN_XNUM : (Elf64_Half)nph);
	size_t data_at = sizeof(eh) + nph * sizeof(Elf64_Phdr);
	if (xnum) {
		eh.e_shoff = data_at;
		eh.e_shentsize = sizeof(Elf64_Shdr);
		eh.e_shnum = 1;
		data_at += sizeof(Elf64_Shdr);
	}
	put(&b, &eh, sizeof(eh));
	Elf64_Phdr ph = { 0 };
	ph.p_type = PT_NOTE;
	ph.p_offset = data_at;
	ph.p_filesz = notes.len;
	ph.p_align = 4;
	put(&b, &ph, sizeof(ph));
	uint64_t off = data_at + notes.len;
	for (size_t i = 0; i < NSEGS; i++) {
		memset(&ph, 0, sizeof(ph));
		ph.p_type = PT_LOAD;
		ph.p_flags = PF_R | PF_W;
		ph.p_offset = off;
		ph.p_vaddr = core_segs[i].vaddr;
		ph.p_memsz = core_segs[i].memsz;
		ph.p_filesz = core_segs[i].filesz;
		ph.p_align = 1;
		put(&b, &ph, sizeof(ph));
		off += core_segs[i].filesz;
	}
	if (xnum) {
		Elf64_Shdr sh = { 0 };
		sh.sh_info = (Elf64_Word)nph;
		put(&b, &sh, sizeof(sh));
	}
	put(&b, notes.data, notes.len);
	for (size_t i = 0; i < NSEGS; i++) {
		if (cut && i == NSEGS - 1)
			break;
		fill_data(&b, core_segs[i].filesz, (uint8_t)i);
	}
	put_file("core", name, b.data, b.len);
}

static void
core32(const char *name)
{
	struct bytes b = { .len = 0 };
	struct bytes notes = { .len = 0 };
	put_nt_file(&notes, 4);

	Elf32_Ehdr eh = { 0 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_386;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf32_Phdr);
	eh.e_phnum = 1 + NSEGS;
	size_t data_at = sizeof(eh) + eh.e_phnum * sizeof(Elf32_Phdr);
	put(&b, &eh, sizeof(eh));
	Elf32_Phdr ph = { 0 };
	ph.p_type = PT_NOTE;
	ph.p_offset = (Elf32_Off)data_at;
	ph.p_filesz = (Elf32_Word)notes.len;
	put(&b, &ph, sizeof(ph));
	uint32_t off = (uint32_t)(data_at + notes.len);
	for (size_t i = 0; i < NSEGS; i++) {
		memset(&ph, 0, sizeof(ph));
		ph.p_type = PT_LOAD;
		ph.p_offset = off;
		ph.p_vaddr = (Elf32_Addr)core_segs[i].vaddr;
		ph.p_memsz = (Elf32_Word)core_segs[i].memsz;
		ph.p_filesz = (Elf32_Word)core_segs[i].filesz;
		put(&b, &ph, sizeof(ph));
		off += (uint32_t)core_segs[i].filesz;
	}
	put(&b, notes.data, notes.len);
	for (size_t i = 0; i < NSEGS; i++)
		fill_data(&b, core_segs[i].filesz, (uint8_t)(i + 3));
	put_file("core", name, b.data, b.len);
}

/* }====================================================== */

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen-seeds OUTDIR\n");
		return 2;
	}
	outdir = argv[1];
	if (mkdir(outdir, 0777) != 0 && errno != EEXIST)
		fz_fail("mkdir %s: %s", outdir, strerror(errno));
	fz_init();
	walker_seeds();
	core64("core64", false, false);
	core64("core64-xnum", true, false);
	core64("core64-cut", false, true);
	core32("core32");
	return 0;
}
