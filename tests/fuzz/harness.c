// Shared pieces of the fuzz targets; see harness.h.
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "tools/tools.h"
#include "util/util.h"

#ifndef IRS_SOURCE_DIR
#define IRS_SOURCE_DIR "."
#endif

void
fz_fail(const char *fmt, ...)
{
	va_list ap;
	fputs("fuzz oracle: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

bool
fz_tolerate(const char *tag)
{
	const char *list = getenv("IRSNAP_FUZZ_TOLERATE");
	size_t n = strlen(tag);
	for (const char *p = list; p && *p; p += strcspn(p, ",")) {
		p += *p == ',';
		if (!strncmp(p, tag, n) && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}

void
fz_init(void)
{
	setenv("IRSNAP_ROOT", IRS_SOURCE_DIR, 0);
}

__attribute__((weak)) void
fz_target_init(void)
{
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_init();
	fz_target_init();
	return 0;
}

struct irs_error *
fz_walk(const struct irs_layout *lo, struct irs_memory *mem, uint64_t root,
	const char *type, const struct irs_limits *limits, struct fz_walk *out)
{
	memset(out, 0, sizeof(*out));
	FILE *tf = open_memstream(&out->text, &out->tlen);
	FILE *jf = open_memstream(&out->json, &out->jlen);
	if (!tf || !jf)
		fz_fail("open_memstream");
	struct irs_error *err = irs_snapshot_stream(lo, mem, root, type,
						    limits, tf, jf, "fuzz.ir",
						    &out->snap);
	fclose(tf);
	fclose(jf);
	if (err)
		out->snap = NULL;
	return err;
}

void
fz_walk_deinit(struct fz_walk *out)
{
	irs_snapshot_destroy(out->snap);
	free(out->text);
	free(out->json);
	memset(out, 0, sizeof(*out));
}

void
fz_check_snapshot_json(const char *json, size_t len)
{
	json_error_t je;
	json_t *doc = json_loadb(json, len, JSON_ALLOW_NUL, &je);
	if (!doc)
		fz_fail("the snapshot JSON does not parse: %d:%d: %s\n%.*s",
			je.line, je.column, je.text, (int)(len < 4000 ? len
							   : 4000), json);
	struct irs_buf out;
	uint32_t n = 0;
	irs_buf_init(&out);
	struct irs_error *err = irs_schema_validate("irsnap.snapshot/1", doc,
						    "snapshot", &out, &n);
	if (err)
		fz_fail("schema: %s", err->message);
	if (n)
		fz_fail("the snapshot JSON is not a valid irsnap.snapshot/1:\n"
			"%s", out.data);
	irs_buf_deinit(&out);
	json_decref(doc);
}

const char *
fz_source_path(const char *rel)
{
	static char buf[4096];
	const char *root = getenv("IRSNAP_ROOT");
	snprintf(buf, sizeof(buf), "%s/%s", root && *root ? root
		 : IRS_SOURCE_DIR, rel);
	return buf;
}

static char scratch[256];

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void
fz_rmtree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void
remove_scratch(void)
{
	if (scratch[0])
		fz_rmtree(scratch);
}

// Removes the scratch directories of fuzz processes that are gone: a
// crash, a timeout or libFuzzer's fork mode ends them without atexit().
static void
sweep(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		int pid;
		char path[512];
		if (sscanf(e->d_name, "irsnap-fuzz-%d.", &pid) != 1 ||
		    pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", base, e->d_name);
		fz_rmtree(path);
	}
	if (d)
		closedir(d);
}

const char *
fz_scratch(void)
{
	if (scratch[0])
		return scratch;
	// tmpfs when there is one: the targets write a file per input
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm"
		: getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	sweep(base);
	snprintf(scratch, sizeof(scratch), "%s/irsnap-fuzz-%d.XXXXXX", base,
		 (int)getpid());
	if (!mkdtemp(scratch))
		fz_fail("mkdtemp %s: %s", scratch, strerror(errno));
	atexit(remove_scratch);
	return scratch;
}

void
fz_write(const char *path, const void *data, size_t size)
{
	FILE *fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		fz_fail("cannot write %s: %s", path, strerror(errno));
}

char *
fz_read(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		fz_fail("cannot read %s: %s", path, strerror(errno));
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = 2 * cap + 4096 + 1;
			buf = realloc(buf, cap);
			if (!buf)
				fz_fail("out of memory reading %s", path);
		}
		size_t got = fread(buf + n, 1, 4096, fp);
		n += got;
		if (got < 4096)
			break;
	}
	fclose(fp);
	buf[n] = '\0';
	*len = n;
	return buf;
}

struct irs_layout *
fz_layout(const char *rel, struct fake_target *ft)
{
	struct irs_layout *lo;
	struct irs_error *err = irs_layout_load(fz_source_path(rel),
						&ft->target, &lo);
	if (err)
		fz_fail("layout %s: %s", rel, err->message);
	return lo;
}

void
fz_limits(struct irs_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->max_nodes = 5000;
	l->max_bytes = 4 << 20;
	l->max_depth = 200;
	l->max_string = 4096;
}

/* {====================================================== memory images */

static uint64_t
le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int
by_addr(const void *a, const void *b)
{
	uint64_t x = ((const struct fz_seg *)a)->addr;
	uint64_t y = ((const struct fz_seg *)b)->addr;
	return x < y ? -1 : x > y;
}

bool
fz_image_parse(struct fz_image *img, const uint8_t *data, size_t size)
{
	if (size < FZ_IMAGE_HEADER)
		return false;
	img->layout = data[0];
	img->root = le64(data + 1);
	img->nsegs = 0;
	img->reads = 0;
	size_t pos = FZ_IMAGE_HEADER;
	while (pos + 10 <= size && img->nsegs < FZ_MAX_SEGS) {
		struct fz_seg *s = &img->segs[img->nsegs];
		s->addr = le64(data + pos);
		s->len = (uint32_t)data[pos + 8] | (uint32_t)data[pos + 9] << 8;
		pos += 10;
		if (s->len > size - pos)
			s->len = (uint32_t)(size - pos);
		s->data = data + pos;
		pos += s->len;
		if (s->len && s->addr <= UINT64_MAX - s->len)
			img->nsegs++;
	}
	qsort(img->segs, img->nsegs, sizeof(img->segs[0]), by_addr);
	return true;
}

// The index of the first segment that may overlap [addr, ...): segments
// are at most 65535 bytes long.
static size_t
first_seg(const struct fz_image *img, uint64_t addr)
{
	uint64_t from = addr > 65535 ? addr - 65535 : 0;
	size_t lo = 0, hi = img->nsegs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (img->segs[mid].addr < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

// Memory is readable by whole pages, as a process's is (the page cache
// relies on it): a page any segment touches reads as the segments' bytes,
// zeros elsewhere.
static bool
page_readable(const struct fz_image *img, uint64_t page)
{
	uint64_t start = page << 12;
	for (size_t i = first_seg(img, start); i < img->nsegs; i++) {
		const struct fz_seg *s = &img->segs[i];
		if (s->addr > start + 4095)
			break;
		if (s->addr + s->len > start)
			return true;
	}
	return false;
}

static struct irs_error *
image_read(void *arg, uint64_t address, void *buf, uint64_t count)
{
	struct fz_image *img = arg;
	uint8_t *out = buf;
	img->reads++;
	if (count && address > UINT64_MAX - (count - 1))
		return irs_error_fault(address, "address wraps around");
	for (uint64_t done = 0; done < count;) {
		uint64_t a = address + done;
		if (!page_readable(img, a >> 12))
			return irs_error_fault(a, "not in the image");
		uint64_t n = 4096 - (a & 4095);
		done += n < count - done ? n : count - done;
	}
	memset(out, 0, count);
	uint64_t end = address + count;	// 0 when it ends the address space
	for (size_t i = first_seg(img, address); i < img->nsegs; i++) {
		const struct fz_seg *s = &img->segs[i];
		if (end && s->addr >= end)
			break;
		uint64_t lo = s->addr > address ? s->addr : address;
		uint64_t hi = s->addr + s->len;
		if (end && hi > end)
			hi = end;
		if (lo < hi)
			memcpy(out + (lo - address), s->data + (lo - s->addr),
			       hi - lo);
	}
	return NULL;
}

void
fz_image_target(struct irs_target *t, struct fz_image *img)
{
	memset(t, 0, sizeof(*t));
	t->arg = img;
	t->read = image_read;
}

static void
out_put(struct fz_image_out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = 2 * (o->len + n) + 256;
		o->data = realloc(o->data, o->cap);
		if (!o->data)
			fz_fail("out of memory building an image");
	}
	memcpy(o->data + o->len, p, n);
	o->len += n;
}

static void
out_le(struct fz_image_out *o, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		uint8_t b = (uint8_t)(v >> (8 * i));
		out_put(o, &b, 1);
	}
}

void
fz_image_begin(struct fz_image_out *o, uint8_t layout, uint64_t root)
{
	memset(o, 0, sizeof(*o));
	out_put(o, &layout, 1);
	out_le(o, root, 8);
}

void
fz_image_add(struct fz_image_out *o, const void *addr, size_t len)
{
	const uint8_t *p = addr;
	while (len) {
		size_t n = len < 65535 ? len : 65535;
		out_le(o, (uintptr_t)p, 8);
		out_le(o, n, 2);
		out_put(o, p, n);
		p += n;
		len -= n;
	}
}

/* }====================================================== */

/* {====================================================== kitchen */

// Member @p name of struct @p type at @p offset, a struct KLink, and its
// prev and next, as debug info would list them.
static void
klink_field(struct fake_target *ft, const char *type, const char *name,
	    uint64_t offset)
{
	char path[64];
	fake_field(ft, type, name, offset, sizeof(struct KLink),
		   IRS_TYPE_STRUCT, "struct KLink", "", 0);
	snprintf(path, sizeof(path), "%s.prev", name);
	fake_field(ft, type, path, offset + offsetof(struct KLink, prev), 8,
		   IRS_TYPE_POINTER, "struct KLink *", "KLink", 0);
	snprintf(path, sizeof(path), "%s.next", name);
	fake_field(ft, type, path, offset + offsetof(struct KLink, next), 8,
		   IRS_TYPE_POINTER, "struct KLink *", "KLink", 0);
}

void
fz_kitchen_register(struct fake_target *ft)
{
	FAKE_TYPE(ft, KItem);
	FAKE_INT(ft, KItem, v);
	FAKE_PTR(ft, KItem, next, "KItem");
	klink_field(ft, "KItem", "link", offsetof(KItem, link));
	FAKE_PTR(ft, KItem, peer, "KItem");
	FAKE_UINT(ft, KItem, tagged);

	FAKE_TYPE(ft, KLeaf);
	FAKE_INT(ft, KLeaf, i64);
	FAKE_INT(ft, KLeaf, i16);
	FAKE_UINT(ft, KLeaf, u8);
	FAKE_FLOAT(ft, KLeaf, f32);
	FAKE_FLOAT(ft, KLeaf, f64);
	FAKE_BOOL(ft, KLeaf, b);
	FAKE_INT(ft, KLeaf, color);
	FAKE_BITFIELD(ft, KLeaf, flag, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, KLeaf, sbits, IRS_TYPE_INT);
	FAKE_BITFIELD(ft, KLeaf, wide, IRS_TYPE_UINT);
	FAKE_PTR(ft, KLeaf, cstr, "char");
	fake_field(ft, "KLeaf", "chars", offsetof(KLeaf, chars), 6,
		   IRS_TYPE_ARRAY, "char [6]", "char", 6);
	FAKE_PTR(ft, KLeaf, data, "char");
	FAKE_UINT(ft, KLeaf, len);

	FAKE_TYPE(ft, KRoot);
	FAKE_INT(ft, KRoot, kind);
	FAKE_MEMBER(ft, KRoot, u, IRS_TYPE_UNION, "union {...}", "");
	FAKE_PTR(ft, KRoot, u.item, "KItem");
	FAKE_INT(ft, KRoot, u.num);
	FAKE_PTR(ft, KRoot, u.str, "char");
	FAKE_PTR(ft, KRoot, items, "KItem");
	FAKE_UINT(ft, KRoot, nitems);
	FAKE_UINT(ft, KRoot, pick);
	fake_field(ft, "KRoot", "leaves", offsetof(KRoot, leaves),
		   sizeof(((KRoot *)0)->leaves), IRS_TYPE_ARRAY, "KLeaf [2]",
		   "KLeaf", 2);
	fake_field(ft, "KRoot", "nulls", offsetof(KRoot, nulls), 8,
		   IRS_TYPE_POINTER, "KItem **", "KItem *", 0);
	fake_field(ft, "KRoot", "begin", offsetof(KRoot, begin), 8,
		   IRS_TYPE_POINTER, "KItem **", "KItem *", 0);
	fake_field(ft, "KRoot", "end", offsetof(KRoot, end), 8,
		   IRS_TYPE_POINTER, "KItem **", "KItem *", 0);
	FAKE_PTR(ft, KRoot, first, "KItem");
	klink_field(ft, "KRoot", "ring", offsetof(KRoot, ring));
	FAKE_STRUCT(ft, KRoot, leaf, "KLeaf");
	FAKE_PTR(ft, KRoot, child, "KRoot");
}

static KItem k_items[3], k_loose[3];
static KItem *k_nulls[3], *k_vec[2];
static KRoot k_root, k_child;
static const char k_cstr[] = "hello", k_str[] = "txt";
static const char k_data[] = "bytes\n\x01";

static void
leaf_fill(KLeaf *l, int n)
{
	memset(l, 0, sizeof(*l));
	l->i64 = -1234567890123 * n;
	l->i16 = (int16_t)(-7 * n);
	l->u8 = (uint8_t)(200 + n);
	l->f32 = 1.5f * (float)n;
	l->f64 = 6.02e23 / (n + 1);
	l->b = n & 1;
	l->color = n == 0 ? 0 : n == 1 ? 5 : -2;
	l->flag = 1;
	l->sbits = -3;
	l->wide = 0xabcde;
	l->cstr = n ? k_cstr : NULL;
	memcpy(l->chars, "abcdef", 6);	// no NUL: the walk stops at 6
	l->data = k_data;
	l->len = sizeof(k_data) - 1;
}

KRoot *
fz_kitchen_build(int variant)
{
	memset(k_items, 0, sizeof(k_items));
	memset(k_loose, 0, sizeof(k_loose));
	for (int i = 0; i < 3; i++) {
		k_items[i].v = 10 + i;
		k_items[i].peer = &k_items[(i + 1) % 3];
		k_items[i].tagged = (uintptr_t)&k_loose[i] | (uintptr_t)i;
		k_loose[i].v = 20 + i;
		k_loose[i].next = i < 2 ? &k_loose[i + 1] : NULL;
		k_loose[i].peer = &k_loose[0];
	}
	// the ring: root.ring <-> loose[0].link <-> loose[1].link
	k_root.ring.next = &k_loose[0].link;
	k_loose[0].link.prev = &k_root.ring;
	k_loose[0].link.next = &k_loose[1].link;
	k_loose[1].link.prev = &k_loose[0].link;
	k_loose[1].link.next = &k_root.ring;
	k_root.ring.prev = &k_loose[1].link;
	k_nulls[0] = &k_items[0];
	k_nulls[1] = &k_loose[2];
	k_nulls[2] = NULL;
	k_vec[0] = &k_items[1];
	k_vec[1] = &k_loose[1];
	k_root.kind = variant;
	if (variant == KS_ITEM)
		k_root.u.item = &k_loose[2];
	else if (variant == KS_NUM)
		k_root.u.num = -42;
	else
		k_root.u.str = k_str;
	k_root.items = k_items;
	k_root.nitems = 3;
	k_root.pick = 1;
	leaf_fill(&k_root.leaves[0], 0);
	leaf_fill(&k_root.leaves[1], 1);
	k_root.nulls = k_nulls;
	k_root.begin = k_vec;
	k_root.end = k_vec + 2;
	k_root.first = &k_loose[0];
	leaf_fill(&k_root.leaf, 2);
	memset(&k_child, 0, sizeof(k_child));
	k_child.kind = KS_NUM;
	k_child.u.num = 7;
	k_child.ring.next = k_child.ring.prev = &k_child.ring;
	k_root.child = variant == KS_TEXT ? NULL : &k_child;
	return &k_root;
}

void
fz_kitchen_image(struct fz_image_out *o, const KRoot *r)
{
	(void)r;		// the objects are the static ones above
	fz_image_add(o, &k_root, sizeof(k_root));
	fz_image_add(o, &k_child, sizeof(k_child));
	fz_image_add(o, k_items, sizeof(k_items));
	fz_image_add(o, k_loose, sizeof(k_loose));
	fz_image_add(o, k_nulls, sizeof(k_nulls));
	fz_image_add(o, k_vec, sizeof(k_vec));
	fz_image_add(o, k_cstr, sizeof(k_cstr));
	fz_image_add(o, k_data, sizeof(k_data));
	fz_image_add(o, k_str, sizeof(k_str));
}

/* }====================================================== */
