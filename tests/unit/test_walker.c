// The walk over structures built in this process: every layout kind, the
// text and JSON they give, and corrupt memory (unreadable pointers, cycles,
// absurd counts, shared nodes, limits): bounded, recorded, the rest kept.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "fake_target.h"
#include "run/run.h"
#include "unit_util.h"

enum Color { RED, GREEN = 5, BLUE = -2 };

typedef struct Leaf {
	int64_t i64;
	int32_t i32;
	int16_t i16;
	int8_t i8;
	uint64_t u64;
	uint32_t u32;
	uint16_t u16;
	uint8_t u8;
	float f32;
	double f64;
	bool b;
	enum Color color;
	unsigned flag : 1;
	signed sbits : 5;
	unsigned wide : 20;
	const char *cstr;
	char chars[6];
	const char *data;
	uint32_t len;
} Leaf;

typedef struct Item {
	int v;
	struct Item *next;
	struct {
		struct Item *prev, *next;
	} link;
} Item;

typedef struct Bag {
	Item *items;
	uint32_t nitems;
	int fixed[4];
	Item *ptrs[3];
	Item **nulls;
	int *begin, *end;
	Item *first;
	struct {
		Item *prev, *next;
	} ring;
	Item *own;
	Item *shared;
	uintptr_t tagged;
	int kind;
	union {
		int i;
		double d;
		Item *p;
	} u;
	uint32_t idx;
	Leaf leaf;
} Bag;

// A one-word struct of bitfields, and an anonymous enum bitfield.
typedef struct Ref {
	unsigned type : 3;
	unsigned val : 29;
} Ref;

typedef struct Sym {
	Ref ref;
	enum { SK_A, SK_B, SK_C } kind : 3;
	unsigned pad : 29;
	double d;
} Sym;

// Globals: an opcode table, a string table in a struct, a pointer to it.
typedef struct OpInfo {
	const char *name;
	uint8_t nargs;
} OpInfo;
typedef struct StrTab {
	uint32_t n;
	const char *str[4];
} StrTab;
// A string kept in its own struct's flexible tail, as Lua's TString is:
// the length in one of two members, chosen by the tag.
typedef struct TStr {
	uint8_t tt;
	uint8_t shrlen;
	size_t lnglen;
	char contents[1];
} TStr;
typedef struct GNode {
	uint32_t op, sym;
	int32_t bad;
} GNode;
static const OpInfo test_optab[3] = { { "nop", 0 }, { "add", 2 },
				      { "ret", 1 } };
static StrTab test_strtab = { 3, { "zero", "one", "two", NULL } };

// Parallel arrays under one count, as a phi keeps its arguments; use is
// an array of inline structs, as LLVM keeps a phi's Use objects.
typedef struct Use {
	int32_t k;
	Item *def;
} Use;
typedef struct Phi {
	Item **arg;
	const char **blk;
	int32_t *w;
	uint32_t narg;
	Use *use;
} Phi;

// A value kept as deltas with absolute entries now and then, as Lua 5.4
// keeps its line numbers (lineinfo, abslineinfo).
typedef struct Abs {
	int32_t at, val;
} Abs;
// Deltas of 64 bits, whose sums wrap.
typedef struct BigFn {
	int64_t base;
	int64_t *deltas;
	int32_t n;
	Item *items;
} BigFn;
typedef struct Fn {
	int32_t base, n, nabs, pick;
	int8_t *deltas;
	Abs *abs;
	Item *items;
	const char *name;
} Fn;

struct fixture {
	struct fake_target ft;
	struct irs_layout *lo;
	char *text;
	json_t *json;
	struct irs_snapshot *snap;
	struct irs_snapshot_stats st;
};

static void
register_types(struct fake_target *ft)
{
	FAKE_TYPE(ft, Leaf);
	FAKE_INT(ft, Leaf, i64);
	FAKE_INT(ft, Leaf, i32);
	FAKE_INT(ft, Leaf, i16);
	FAKE_INT(ft, Leaf, i8);
	FAKE_UINT(ft, Leaf, u64);
	FAKE_UINT(ft, Leaf, u32);
	FAKE_UINT(ft, Leaf, u16);
	FAKE_UINT(ft, Leaf, u8);
	FAKE_FLOAT(ft, Leaf, f32);
	FAKE_FLOAT(ft, Leaf, f64);
	FAKE_BOOL(ft, Leaf, b);
	FAKE_ENUM(ft, Leaf, color, "Color");
	FAKE_BITFIELD(ft, Leaf, flag, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, Leaf, sbits, IRS_TYPE_INT);
	FAKE_BITFIELD(ft, Leaf, wide, IRS_TYPE_UINT);
	FAKE_PTR(ft, Leaf, cstr, "char");
	FAKE_ARRAY(ft, Leaf, chars, "char");
	FAKE_PTR(ft, Leaf, data, "char");
	FAKE_UINT(ft, Leaf, len);
	fake_enumerator(ft, "Color", "BLUE", BLUE);
	fake_enumerator(ft, "Color", "RED", RED);
	fake_enumerator(ft, "Color", "GREEN", GREEN);

	FAKE_TYPE(ft, Item);
	FAKE_INT(ft, Item, v);
	FAKE_PTR(ft, Item, next, "Item");
	FAKE_STRUCT(ft, Item, link, "struct {...}");
	FAKE_PTR(ft, Item, link.prev, "Item");
	FAKE_PTR(ft, Item, link.next, "Item");

	FAKE_TYPE(ft, Bag);
	FAKE_PTR(ft, Bag, items, "Item");
	FAKE_UINT(ft, Bag, nitems);
	FAKE_ARRAY(ft, Bag, fixed, "int");
	FAKE_ARRAY(ft, Bag, ptrs, "Item *");
	FAKE_PTR(ft, Bag, nulls, "Item *");
	FAKE_PTR(ft, Bag, begin, "int");
	FAKE_PTR(ft, Bag, end, "int");
	FAKE_PTR(ft, Bag, first, "Item");
	FAKE_STRUCT(ft, Bag, ring, "struct {...}");
	FAKE_PTR(ft, Bag, ring.prev, "Item");
	FAKE_PTR(ft, Bag, ring.next, "Item");
	FAKE_PTR(ft, Bag, own, "Item");
	FAKE_PTR(ft, Bag, shared, "Item");
	FAKE_UINT(ft, Bag, tagged);
	FAKE_INT(ft, Bag, kind);
	FAKE_INT(ft, Bag, u.i);
	FAKE_FLOAT(ft, Bag, u.d);
	FAKE_PTR(ft, Bag, u.p, "Item");
	FAKE_UINT(ft, Bag, idx);
	FAKE_STRUCT(ft, Bag, leaf, "Leaf");

	FAKE_TYPE(ft, Sym);
	FAKE_STRUCT(ft, Sym, ref, "Ref");
	FAKE_BITFIELD(ft, Sym, ref.type, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, Sym, kind, IRS_TYPE_ENUM);
	snprintf(ft->fields[ft->nfields - 1].info.type_name,
		 sizeof(ft->fields[0].info.type_name), "enum {...}");
	FAKE_FLOAT(ft, Sym, d);
	// the enumerators of an anonymous enum, asked for by member path
	fake_enumerator(ft, "Sym.kind", "SK_A", SK_A);
	fake_enumerator(ft, "Sym.kind", "SK_B", SK_B);
	fake_enumerator(ft, "Sym.kind", "SK_C", SK_C);

	FAKE_TYPE(ft, GNode);
	FAKE_UINT(ft, GNode, op);
	FAKE_UINT(ft, GNode, sym);
	FAKE_INT(ft, GNode, bad);
	FAKE_TYPE(ft, OpInfo);
	FAKE_PTR(ft, OpInfo, name, "char");
	FAKE_UINT(ft, OpInfo, nargs);
	fake_field(ft, "OpInfo", "", 0, sizeof(OpInfo), IRS_TYPE_STRUCT,
		   "OpInfo", "", 0);
	FAKE_TYPE(ft, StrTab);
	FAKE_UINT(ft, StrTab, n);
	fake_field(ft, "StrTab", "str", offsetof(StrTab, str),
		   sizeof(test_strtab.str), IRS_TYPE_ARRAY, "const char *[4]",
		   "const char *", 4);
	fake_field(ft, "StrTab", "", 0, sizeof(StrTab), IRS_TYPE_STRUCT,
		   "StrTab", "", 0);
	fake_type(ft, "char *", 8);
	fake_field(ft, "char *", "", 0, 8, IRS_TYPE_POINTER, "char *", "char",
		   0);
	FAKE_TYPE(ft, TStr);
	FAKE_UINT(ft, TStr, tt);
	FAKE_UINT(ft, TStr, shrlen);
	FAKE_UINT(ft, TStr, lnglen);
	FAKE_ARRAY(ft, TStr, contents, "char");
	FAKE_TYPE(ft, Phi);
	FAKE_PTR(ft, Phi, arg, "Item *");
	FAKE_PTR(ft, Phi, blk, "char *");
	FAKE_PTR(ft, Phi, w, "int32_t");
	FAKE_UINT(ft, Phi, narg);
	FAKE_PTR(ft, Phi, use, "Use");
	FAKE_TYPE(ft, Use);
	FAKE_INT(ft, Use, k);
	FAKE_PTR(ft, Use, def, "Item");
	FAKE_TYPE(ft, Abs);
	FAKE_INT(ft, Abs, at);
	FAKE_INT(ft, Abs, val);
	FAKE_TYPE(ft, BigFn);
	FAKE_INT(ft, BigFn, base);
	FAKE_PTR(ft, BigFn, deltas, "int64_t");
	FAKE_INT(ft, BigFn, n);
	FAKE_PTR(ft, BigFn, items, "Item");
	FAKE_TYPE(ft, Fn);
	FAKE_INT(ft, Fn, base);
	FAKE_INT(ft, Fn, n);
	FAKE_INT(ft, Fn, nabs);
	FAKE_INT(ft, Fn, pick);
	FAKE_PTR(ft, Fn, deltas, "int8_t");
	FAKE_PTR(ft, Fn, abs, "Abs");
	FAKE_PTR(ft, Fn, items, "Item");
	FAKE_PTR(ft, Fn, name, "char");
	fake_global(ft, "optab", (uintptr_t)test_optab, sizeof(test_optab),
		    IRS_TYPE_ARRAY, "const OpInfo [3]", "const OpInfo", 3);
	fake_global(ft, "strtab", (uintptr_t)&test_strtab,
		    sizeof(test_strtab), IRS_TYPE_STRUCT, "StrTab", "", 0);
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	fake_target_init(&f->ft);
	register_types(&f->ft);
	*state = f;
	return 0;
}

static void
reset(struct fixture *f)
{
	free(f->text);
	json_decref(f->json);
	irs_snapshot_destroy(f->snap);
	f->text = NULL;
	f->json = NULL;
	f->snap = NULL;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	reset(f);
	unit_layout_teardown(&f->ft, f->lo);
	free(f);
	return 0;
}

static void
load(struct fixture *f, const char *src)
{
	unit_layout_load(&f->ft.target, src, "w.lua", &f->lo);
}

// Walks @p root as @p type into f->text and f->json.
static void
walk_limits(struct fixture *f, const void *root, const char *type,
	    const struct irs_limits *lim)
{
	reset(f);
	char *json;
	size_t tlen, jlen;
	FILE *tf = open_memstream(&f->text, &tlen);
	FILE *jf = open_memstream(&json, &jlen);
	struct irs_error *err = irs_snapshot_stream(f->lo,
		fake_memory(&f->ft), (uintptr_t)root, type, lim, tf, jf,
		"w.ir", &f->snap);
	fclose(tf);
	fclose(jf);
	if (err)
		fprintf(stderr, "walk: %s\n", err->message);
	assert_null(err);
	json_error_t jerr;
	f->json = json_loadb(json, jlen, 0, &jerr);
	if (!f->json)
		fprintf(stderr, "JSON %d: %s\n%s\n", jerr.line, jerr.text,
			json);
	assert_non_null(f->json);
	free(json);
	irs_snapshot_get_stats(f->snap, &f->st);
	assert_int_equal(f->st.text_bytes, tlen);
}

static void
walk(struct fixture *f, const void *root, const char *type)
{
	walk_limits(f, root, type, NULL);
}

static json_t *
nodes(struct fixture *f)
{
	return json_object_get(f->json, "nodes");
}

// The record of the node at @p addr.
static json_t *
node_at(struct fixture *f, const void *addr)
{
	char id[32];
	snprintf(id, sizeof(id), "0x%llx", (unsigned long long)(uintptr_t)addr);
	size_t i;
	json_t *n;
	json_array_foreach(nodes(f), i, n)
		if (!strcmp(json_string_value(json_object_get(n, "id")), id))
			return n;
	return NULL;
}

static json_t *
field(json_t *node, const char *name)
{
	return json_object_get(json_object_get(node, "fields"), name);
}

static bool
has_error(struct fixture *f, const char *what)
{
	for (uint32_t i = 0; i < f->st.nerrors && i < IRS_MAX_ERRORS; i++)
		if (strstr(irs_snapshot_error(f->snap, i), what))
			return true;
	return false;
}

#define LEAF_FIELDS \
	"i64 = scalar \"i64\", i32 = i32 \"i32\", i16 = scalar \"i16\", " \
	"i8 = i8 \"i8\", u64 = u64 \"u64\", u32 = scalar \"u32\", " \
	"u16 = u16 \"u16\", u8 = scalar \"u8\", f32 = f32 \"f32\", " \
	"f64 = scalar \"f64\", b = bool \"b\", color = enum \"color\", " \
	"flag = scalar \"flag\", sbits = scalar \"sbits\", " \
	"wide = u32 \"wide\", cstr = cstr \"cstr\", chars = chars " \
	"\"chars\", data = strn(\"data\", \"len\")"

/* {====================================================== kinds */

// Integers of every width and sign, floats, bools, enums, bitfields.
static void
test_scalars_of_every_width(void **state)
{
	struct fixture *f = *state;
	Leaf l = {
		.i64 = INT64_MIN, .i32 = -2000000000, .i16 = -300, .i8 = -5,
		.u64 = UINT64_MAX, .u32 = 4000000000u, .u16 = 65535,
		.u8 = 200, .f32 = 1.5f, .f64 = -2.25, .b = true,
		.color = BLUE, .flag = 1, .sbits = -9, .wide = 0xabcde,
	};
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS " },\n"
	     "text = \"{i64} {i32} {i16} {i8} {u64} {u32} {u16} {u8} {f32} "
	     "{f64} {b} {color} {flag} {sbits} {wide}\" }\n");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "-9223372036854775808 -2000000000 -300 "
			    "-5 18446744073709551615 4000000000 65535 200 1.5 "
			    "-2.25 true BLUE 1 -9 703710");
	json_t *n = node_at(f, &l);
	assert_int_equal(json_integer_value(field(n, "i16")), -300);
	assert_int_equal(json_integer_value(field(n, "u32")), 4000000000u);
	assert_true(json_real_value(field(n, "f64")) == -2.25);
	assert_int_equal(json_integer_value(field(n, "b")), 1);
	assert_string_equal(json_string_value(field(n, "color")), "BLUE");
	assert_int_equal(json_integer_value(field(n, "sbits")), -9);
	assert_int_equal(json_integer_value(field(n, "wide")), 0xabcde);
	// an enum value without a name prints as its number
	l.color = (enum Color)3;
	walk(f, &l, NULL);
	assert_non_null(strstr(f->text, " true 3 1 "));
}

// NUL-terminated, inline and counted strings; NULL ones.
static void
test_strings(void **state)
{
	struct fixture *f = *state;
	Leaf l = { .cstr = "hello", .chars = { 'a', 'b', 'c', 'd', 'e', 'f' },
		   .data = "xyz-not-this", .len = 3 };
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS " },\n"
	     "text = \"[{cstr}] [{chars}] [{data}] [{?cstr}y{:}n{/}]\" }\n");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "[hello] [abcdef] [xyz] [y]");
	json_t *n = node_at(f, &l);
	assert_string_equal(json_string_value(field(n, "cstr")), "hello");
	assert_string_equal(json_string_value(field(n, "data")), "xyz");
	l.cstr = NULL;
	l.chars[2] = '\0';
	l.len = 0;
	walk(f, &l, NULL);
	assert_string_equal(f->text, "[<null>] [ab] [] [n]");
	assert_true(json_is_null(field(node_at(f, &l), "cstr")));
	// the longest string read is a limit
	char big[100];
	memset(big, 'q', sizeof(big) - 1);
	big[99] = '\0';
	l.cstr = big;
	walk_limits(f, &l, NULL, &(struct irs_limits){ .max_string = 10 });
	assert_memory_equal(f->text, "[qqqqqqqqqq] ", 13);
	assert_true(has_error(f, "longer than 10 bytes"));
}

// Arrays of every shape, with and without separators.
static void
test_sequences(void **state)
{
	struct fixture *f = *state;
	Item items[3] = { { .v = 1 }, { .v = 2 }, { .v = 3 } };
	Item *nulls[] = { &items[2], &items[0], NULL };
	int ints[] = { 10, 20, 30, 40 };
	Bag bag = { .items = items, .nitems = 3, .fixed = { 4, 3, 2, 1 },
		    .ptrs = { &items[1], NULL, &items[0] }, .nulls = nulls,
		    .begin = ints, .end = ints + 4 };
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { node = false, fields = { v = scalar \"v\" },"
	     " text = \"<{v}>\" }\n"
	     "struct \"Bag\" { fields = {\n"
	     " items = array { ptr = \"items\", count = \"nitems\", "
	     "of = \"Item\" },\n"
	     " fixed = fixed { at = \"fixed\", of = i32 {} },\n"
	     " ptrs = fixed { at = \"ptrs\", of = ptr \"Item\" },\n"
	     " nulls = nullterm { ptr = \"nulls\", of = ptr \"Item\" },\n"
	     " range = range { begin = \"begin\", finish = \"end\", "
	     "of = i32 {} } },\n"
	     " text = \"{items} | {fixed*,} | {ptrs*/} | {nulls*+} | "
	     "{range*; }\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "<1><2><3> | 4,3,2,1 | <2>/<null>/<1> | "
			    "<3>+<1> | 10; 20; 30; 40");
	json_t *n = node_at(f, &bag);
	json_t *a = field(n, "items");
	assert_int_equal(json_array_size(a), 3);
	assert_int_equal(json_integer_value(json_object_get(
		json_array_get(a, 2), "v")), 3);
	assert_int_equal(json_integer_value(json_array_get(field(n, "range"),
							   3)), 40);
	assert_true(json_is_null(json_array_get(field(n, "ptrs"), 1)));
	assert_int_equal(f->st.nerrors, 0);
}

// Intrusive lists: NULL-terminated through `next`, circular through an
// embedded link with the owner's sentinel; list elements are nodes.
static void
test_intrusive_lists(void **state)
{
	struct fixture *f = *state;
	Item it[4] = { { .v = 1 }, { .v = 2 }, { .v = 3 }, { .v = 4 } };
	Bag bag = { .first = &it[0] };
	it[0].next = &it[1];
	it[1].next = &it[2];
	// ring: bag.ring <-> it[3] <-> it[1] <-> bag.ring
	bag.ring.next = (Item *)&it[3].link;
	it[3].link.next = (Item *)&it[1].link;
	it[1].link.next = (Item *)&bag.ring;
	bag.ring.prev = (Item *)&it[1].link;
	it[1].link.prev = (Item *)&it[3].link;
	it[3].link.prev = (Item *)&bag.ring;
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "local l = require \"irsnap.list\"\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" }, "
	     "text = \"{v}\", ref = \"{v}\" }\n"
	     "struct \"Bag\" { fields = {\n"
	     " first = l.null { first = \"first\", of = \"Item\", "
	     "link = \"next\" },\n"
	     " ring = l.sentinel { head = \"ring\", of = \"Item\", "
	     "link = \"link\", prev = \"prev\" } },\n"
	     " text = \"[{first*,}] [{ring*,}]\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "[1,2,3] [4,2]");
	// it[1] is in both lists: one node, owned by the first list's Bag
	assert_int_equal(f->st.nodes, 5);
	assert_int_equal(json_array_size(nodes(f)), 5);
	json_t *ring = field(node_at(f, &bag), "ring");
	assert_int_equal(json_array_size(ring), 2);
	char id[32];
	snprintf(id, sizeof(id), "0x%llx",
		 (unsigned long long)(uintptr_t)&it[3]);
	assert_string_equal(json_string_value(json_array_get(ring, 0)), id);
	assert_non_null(json_object_get(node_at(f, &it[3]), "span"));
	assert_int_equal(f->st.nerrors, 0);
	// an empty ring and an empty NULL list
	bag.first = NULL;
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "[] []");
}

// Pointers own nodes (each once: a node reached again renders by its
// ref), refs only refer; tagged pointers are masked; {@f} renders by ref.
static void
test_pointers_refs_and_tags(void **state)
{
	struct fixture *f = *state;
	Item a = { .v = 7 }, b = { .v = 8 };
	Bag bag = { .own = &a, .shared = &a, .tagged = (uintptr_t)&b | 3 };
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\", "
	     "nx = ptr(\"next\", \"Item\") }, text = \"item {v}\", "
	     "ref = \"%{v}\" }\n"
	     "struct \"Bag\" { fields = { own = ptr(\"own\", \"Item\"),\n"
	     " again = ptr(\"shared\", \"Item\"), r = ref(\"own\", \"Item\"),\n"
	     " t = ptr(\"tagged\", \"Item\") { mask = ~7 } },\n"
	     " text = \"{own}; {again}; {r}; {@own}; {t}; {own.v}\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "item 7; %7; %7; %7; item 8; 7");
	assert_int_equal(f->st.nodes, 3);
	json_t *n = node_at(f, &bag);
	char ida[32], idb[32];
	snprintf(ida, sizeof(ida), "0x%llx", (unsigned long long)(uintptr_t)&a);
	snprintf(idb, sizeof(idb), "0x%llx", (unsigned long long)(uintptr_t)&b);
	assert_string_equal(json_string_value(field(n, "own")), ida);
	assert_string_equal(json_string_value(field(n, "t")), idb);
	json_t *r = field(n, "r");
	assert_string_equal(json_string_value(json_object_get(r, "ref")), ida);
	json_t *span = json_object_get(r, "span");
	assert_int_equal(json_integer_value(json_array_get(span, 0)), 12);
	assert_int_equal(json_integer_value(json_array_get(span, 1)), 14);
	assert_string_equal(json_string_value(json_object_get(
		node_at(f, &a), "parent")), json_string_value(
			json_object_get(n, "id")));
	assert_true(json_is_null(field(node_at(f, &a), "nx")));
}

// LuaJIT's trace IR: an array from index `first` to the end index
// `count` (ir[nk] .. ir[nins - 1]), elements that overlap (a stride less
// than their size: a 64-bit constant reads the next slot), and a pointer
// that points just past its target (fn->pc past the GCproto).
static void
test_first_overlap_and_past(void **state)
{
	struct fixture *f = *state;
	Item items[4] = { { .v = 1 }, { .v = 2 }, { .v = 3 }, { .v = 4 } };
	int ints[4] = { 10, 20, 30, 40 };
	Item a = { .v = 7 };
	Bag bag = { .items = items, .nitems = 3, .idx = 1, .begin = ints,
		    .own = &a + 1 };
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { node = false, fields = { v = scalar \"v\" },"
	     " text = \"<{v}>\" }\n"
	     "struct \"Two\" { node = false, size = 8, fields = {"
	     " a = i32(0), b = i32(4) }, text = \"{a}+{b}\" }\n"
	     "struct \"Bag\" { fields = {\n"
	     " some = array { ptr = \"items\", first = \"idx\", "
	     "count = \"nitems\", of = \"Item\" },\n"
	     " two = array { ptr = \"begin\", count = \"nitems\", of = \"Two\","
	     " stride = 4 },\n"
	     " back = ptr(\"own\", \"Item\") { past = true } },\n"
	     " text = \"{some} {two*,} {back}\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "<2><3> 10+20,20+30,30+40 <7>");
	assert_int_equal(f->st.nerrors, 0);
	json_t *n = node_at(f, &bag);
	assert_int_equal(json_array_size(field(n, "some")), 2);
	assert_int_equal(json_integer_value(json_object_get(
		json_array_get(field(n, "two"), 2), "b")), 40);
	// the end index below the first: no elements, an error; NULL
	// stays NULL
	bag.idx = 5;
	bag.own = NULL;
	walk(f, &bag, NULL);
	assert_true(has_error(f, "end index 3 is below the first, 5"));
	assert_string_equal(f->text, "<bad count 3> 10+20,20+30,30+40 <null>");
}

// Unions by their tag; texts chosen by an enum; embedded structs;
// indexes into a sequence of the nearest enclosing node.
static void
test_unions_by_and_index(void **state)
{
	struct fixture *f = *state;
	Item items[2] = { { .v = 11 }, { .v = 22 } };
	Item p = { .v = 5 };
	Bag bag = { .items = items, .nitems = 2, .kind = 2, .u.d = 0.5,
		    .idx = 1, .leaf = { .color = GREEN, .i32 = 9 } };
	const char *src =
	     "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { node = false, fields = { v = scalar \"v\" },"
	     " text = \"<{v}>\" }\n"
	     "struct \"Leaf\" { node = false, fields = { c = enum \"color\","
	     " n = scalar \"i32\" }, text = { by = \"c\", RED = \"red\","
	     " GREEN = \"green {n}\", default = \"other\" } }\n"
	     "struct \"Bag\" { fields = { kind = scalar \"kind\",\n"
	     " u = union { tag = \"kind\", cases = { [1] = scalar \"u.i\","
	     " [2] = f64 \"u.d\", [3] = ptr(\"u.p\", \"Item\") } },\n"
	     " items = array { ptr = \"items\", count = \"nitems\", "
	     "of = \"Item\" },\n"
	     " at = index(\"idx\", \"Bag.items\"), leaf = embed(\"leaf\", "
	     "\"Leaf\") },\n"
	     " text = \"{u}|{u:%.3f}|{at}|{leaf}\" }\n";
	load(f, src);
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "0.5|0.500|<22>|green 9");
	json_t *n = node_at(f, &bag);
	assert_true(json_real_value(field(n, "u")) == 0.5);
	json_t *at = field(n, "at");
	assert_int_equal(json_integer_value(json_object_get(at, "index")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		at, "value"), "v")), 22);
	assert_string_equal(json_string_value(json_object_get(
		field(n, "leaf"), "c")), "GREEN");
	bag.kind = 3;
	bag.u.p = &p;
	bag.leaf.color = BLUE;
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "<5>|<5>|<22>|other");
	// a tag with no case, an index out of range: errors, rest kept
	bag.kind = 9;
	bag.idx = 7;
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "<bad tag>|<bad tag>|<bad index 7>|"
			    "other");
	assert_true(has_error(f, "index 7 out of range: Bag.items has 2"));
	assert_true(has_error(f, "field u: no case for kind = 9"));
	assert_non_null(json_object_get(field(node_at(f, &bag), "u"),
					"error"));
}

// Formats, conditionals with else, Lua text functions and computed
// fields (the slow path).
static void
test_formats_conditionals_lua(void **state)
{
	struct fixture *f = *state;
	Leaf l = { .i32 = 42, .f64 = 3.14159, .cstr = "ab", .u8 = 0 };
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS ",\n"
	     " twice = computed(function(n) return n.i32 * 2 end) },\n"
	     " text = \"{i32:%05d}|{i32:%x}|{f64:%.2f}|{cstr:%-4s}|"
	     "{cstr:%20s}|{cstr:%1s}|{cstr:%.1s}|"
	     "{?u8}yes{:}no{/}|{twice}|{{}}\" }\n");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "00042|2a|3.14|ab  |"
			    "                  ab|ab|a|no|84|{}");
	assert_int_equal(json_integer_value(field(node_at(f, &l), "twice")),
			 84);
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS " },\n"
	     " text = function(n) return string.format(\"%s=%d:%s\", "
	     "n._type, n.i32, n.cstr) end }\n");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "Leaf=42:ab");
	// a node table reads a field when asked (pairs() all of them); one
	// kept past the call it was given to says so, on its next read
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "local kept\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS " },\n"
	     " text = function(n)\n"
	     "   local k = 0\n"
	     "   for name, v in pairs(n) do k = k + 1 end\n"
	     "   return n.cstr .. \" \" .. k\n"
	     " end }\n");
	walk(f, &l, NULL);
	// 18 fields, but data (NULL: nil), and _id, _type, _addr
	assert_string_equal(f->text, "ab 20");
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "local kept\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS " },\n"
	     " text = function(n)\n"
	     "   if kept then return tostring(kept.i16) end\n"
	     "   kept = n\n"
	     "   return n.cstr\n"
	     " end }\n");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "ab");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "<error>");
	assert_true(has_error(f, "a node table (Leaf) is read during the call "
			      "it was given to, not kept for later"));
}

// Raw reads by path whatever the member's type: u32 of a one-word struct
// of bitfields, u64 of a double's bits, bits { at = path } of a struct or
// of a bitfield; an anonymous enum's names from debug info.
static void
test_raw_reads_by_path(void **state)
{
	struct fixture *f = *state;
	Sym s = { .ref = { .type = 5, .val = 9 }, .kind = SK_C, .d = 1.0 };
	load(f, "layout { name = \"w\", root = \"Sym\" }\n"
	     "struct \"Sym\" { fields = { raw = u32 \"ref\",\n"
	     " t = bits { at = \"ref\", bit = 0, width = 3 },\n"
	     " v = bits { at = \"ref\", bit = 3, width = 29 },\n"
	     " tt = bits { at = \"ref.type\", bit = 1, width = 2 },\n"
	     " k = enum(\"kind\", { strip = \"SK_\" }), dbits = u64 \"d\" },\n"
	     " text = \"{raw} {t} {v} {tt} {k} {dbits:%llx}{?k == SK_C}!{/}\" "
	     "}\n");
	walk(f, &s, NULL);
	assert_string_equal(f->text, "77 5 9 2 C 3ff0000000000000!");
}

static const char *const *test_strs = test_strtab.str;

// Globals by name and paths into them: an opcode table subscripted by a
// field, a member of the element, a string table in a struct by index, a
// constant subscript, a pointer followed, a subscript out of range.
static void
test_globals(void **state)
{
	struct fixture *f = *state;
	fake_global(&f->ft, "strs", (uintptr_t)&test_strs, 8,
		    IRS_TYPE_POINTER, "const char **", "const char *", 0);
	GNode n = { .op = 1, .sym = 2, .bad = 7 };
	load(f, "layout { name = \"w\", root = \"GNode\" }\n"
	     "struct \"OpInfo\" { node = false, fields = { name = cstr "
	     "\"name\", nargs = u8 \"nargs\" }, text = \"{name}/{nargs}\" }\n"
	     "struct \"GNode\" { fields = {\n"
	     " opname = global(\"optab\")[scalar \"op\"].name,\n"
	     " opinfo = global(\"optab\")[scalar \"op\"],\n"
	     " nargs = global(\"optab\")[scalar \"op\"].nargs,\n"
	     " sym = index(\"sym\", global \"strtab.str\"),\n"
	     " first = global(\"strtab.str\")[0],\n"
	     " viaptr = global(\"strs\")[scalar \"sym\"],\n"
	     " count = global \"strtab.n\",\n"
	     " bad = index(\"bad\", global \"strtab.str\") },\n"
	     " text = \"{opname} {opinfo} {nargs} {sym} {first} {viaptr} "
	     "{count} {bad} {opname:%-5s}|{?nargs}yes{/}\" }\n");
	walk(f, &n, NULL);
	assert_string_equal(f->text, "add add/2 2 two zero two 3 "
			    "<bad index 7> add  |yes");
	assert_true(has_error(f, "global strtab.str[bad]: index 7 is outside "
			      "its 4 elements"));
	assert_string_equal(json_string_value(field(node_at(f, &n),
						    "opname")), "add");
	assert_int_equal(json_integer_value(field(node_at(f, &n), "count")),
			 3);
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "global optab[op].name: "));
	free(desc);

	// a global the debuggee does not have: the layout line, the name
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	const char *bad = "layout { name = \"w\", root = \"GNode\" }\n"
		"struct \"GNode\" { fields = {\n"
		" x = global(\"nope\")[scalar \"op\"] } }\n";
	struct irs_error *err = irs_layout_create(bad, strlen(bad), "w.lua",
						  &f->ft.target, &f->lo);
	assert_non_null(err);
	assert_string_equal(err->message, "w.lua:3: GNode.x: global 'nope': "
			    "no such global variable in the debuggee (no "
			    "symbol 'nope')");
	irs_error_destroy(err);
	const char *bad2 = "layout { name = \"w\", root = \"GNode\" }\n"
		"struct \"GNode\" { fields = {\n"
		" x = global(\"optab\").name } }\n";
	err = irs_layout_create(bad2, strlen(bad2), "w.lua", &f->ft.target,
				&f->lo);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "w.lua:3: GNode.x: global "
			       "'optab': 'const OpInfo [3]' is no struct or "
			       "union, so it has no member 'name' (subscript "
			       "it first"));
	irs_error_destroy(err);
}

// chars(P, LEN): a string stored in the struct's flexible tail, read past
// the declared char[1] (text, JSON, Lua); and a union whose cases are
// global paths (an opcode's own table, only for the opcodes that have it).
static void
test_tail_strings_and_global_cases(void **state)
{
	struct fixture *f = *state;
	struct { TStr s; char more[64]; } buf = { 0 };
	buf.s.tt = 4;
	buf.s.shrlen = 5;
	buf.s.lnglen = 11;
	memcpy(buf.s.contents, "short, and long", 16);
	load(f, "layout { name = \"w\", root = \"TStr\" }\n"
	     "struct \"TStr\" { fields = { tt = u8 \"tt\",\n"
	     " s = union { tag = \"tt\", cases = {\n"
	     "  [4] = chars(\"contents\", \"shrlen\"),\n"
	     "  [20] = chars(\"contents\", \"lnglen\") } },\n"
	     " n = computed(pure(function(n) return #n.s end)) },\n"
	     " text = \"[{s}] {n}\" }\n");
	walk(f, &buf.s, NULL);
	assert_string_equal(f->text, "[short] 5");
	assert_string_equal(json_string_value(field(node_at(f, &buf.s), "s")),
			    "short");
	buf.s.tt = 20;
	walk(f, &buf.s, NULL);
	assert_string_equal(f->text, "[short, and ] 11");
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "chars: inline at "));
	free(desc);

	// { skip = N }: without its first N bytes, in text, JSON and Lua;
	// a string shorter than that is empty
	load(f, "layout { name = \"w\", root = \"TStr\" }\n"
	     "struct \"TStr\" { fields = { c0 = u8 \"contents\",\n"
	     " s = chars(\"contents\", \"shrlen\") { skip = 2 },\n"
	     " n = computed(pure(function(n) return #n.s end)) },\n"
	     " text = \"{c0}[{s}]{?s}+{/} {n}\" }\n");
	buf.s.tt = 4;
	buf.s.shrlen = 5;
	walk(f, &buf.s, NULL);
	assert_string_equal(f->text, "115[ort]+ 3");
	json_t *js = node_at(f, &buf.s);
	assert_string_equal(json_string_value(field(js, "s")), "ort");
	buf.s.shrlen = 1;
	walk(f, &buf.s, NULL);
	assert_string_equal(f->text, "115[] 0");
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, ", skip 2"));
	free(desc);

	irs_layout_destroy(f->lo);
	f->lo = NULL;
	GNode n = { .op = 1, .sym = 2 };
	load(f, "layout { name = \"w\", root = \"GNode\" }\n"
	     "struct \"GNode\" { fields = { op = u32 \"op\",\n"
	     " x = union { tag = \"op\", cases = {\n"
	     "  [1] = global(\"optab\")[scalar \"op\"].name },\n"
	     "  default = global(\"strtab.str\")[scalar \"sym\"] } },\n"
	     " text = \"{x}\" }\n");
	walk(f, &n, NULL);
	assert_string_equal(f->text, "add");
	n.op = 0;
	walk(f, &n, NULL);
	assert_string_equal(f->text, "two");
}

// zip: parallel arrays under one count, one sequence of tuples with a
// template of its own; in the text, the JSON, and with a NULL array.
static void
test_zip_of_parallel_arrays(void **state)
{
	struct fixture *f = *state;
	Item i1 = { .v = 1 }, i2 = { .v = 2 };
	Item *args[] = { &i1, &i2 };
	const char *blks[] = { "a", "b" };
	int32_t ws[] = { 5, -6 };
	Phi phi = { args, blks, ws, 2, NULL };
	load(f, "layout { name = \"w\", root = \"Phi\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" }, text = \"{v}\","
	     " ref = \"%{v}\" }\n"
	     "struct \"Phi\" { fields = { args = zip { count = \"narg\", of = {"
	     "\n arg = { ptr = \"arg\", of = ref \"Item\" },\n"
	     " blk = { ptr = \"blk\", of = cstr {} },\n"
	     " w = { ptr = \"w\", of = i32 {} } },\n"
	     " text = \"[@{blk} {arg}:{w}]\" },\n"
	     " plain = zip { count = \"narg\", of = { w = { ptr = \"w\", of = "
	     "i32 {} }, b = { ptr = \"blk\", of = cstr {} } } } },\n"
	     " text = \"phi {args*, }|{args}|{?args}y{/}|{plain*;}\" }\n");
	walk(f, &phi, NULL);
	assert_string_equal(f->text, "phi [@a %1:5], [@b %2:-6]|[@a %1:5]"
			    "[@b %2:-6]|y|a 5;b -6");
	json_t *a = field(node_at(f, &phi), "args");
	assert_int_equal(json_array_size(a), 2);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(a, 1), "blk")), "b");
	assert_int_equal(json_integer_value(json_object_get(
		json_array_get(a, 1), "w")), -6);
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "Phi.args"));
	free(desc);
	phi.blk = NULL;
	walk(f, &phi, NULL);
	assert_string_equal(f->text, "phi <null>|<null>|y|<null>");
	assert_true(has_error(f, "NULL array with a count of 2"));
	phi.narg = 0;
	walk(f, &phi, NULL);
	assert_string_equal(f->text, "phi |||");
}

// A zip whose array holds inline value structs (a phi's uses beside its
// blocks): each tuple's struct renders from its own bytes, in the text,
// in conditions through it, and as an object in the JSON.
static void
test_zip_of_inline_structs(void **state)
{
	struct fixture *f = *state;
	Item i1 = { .v = 1 }, i2 = { .v = 2 };
	Use uses[] = { { 7, &i1 }, { 8, &i2 }, { 9, NULL } };
	const char *blks[] = { "a", "b", "c" };
	Phi phi = { .blk = blks, .narg = 3, .use = uses };
	load(f, "layout { name = \"w\", root = \"Phi\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" }, text = \"{v}\","
	     " ref = \"%{v}\" }\n"
	     "struct \"Use\" { node = false, fields = { k = scalar \"k\","
	     " def = ref(\"def\", \"Item\") }, text = \"{k}:{def}\" }\n"
	     "struct \"Phi\" { fields = { inc = zip { count = \"narg\", of = {"
	     "\n u = { ptr = \"use\", of = \"Use\" },\n"
	     " blk = { ptr = \"blk\", of = cstr {} } },\n"
	     " text = \"[{u}, ^{blk}{?u.k == 8}!{/}]\" } },\n"
	     " text = \"phi {inc*, }\" }\n");
	walk(f, &phi, NULL);
	assert_string_equal(f->text, "phi [7:%1, ^a], [8:%2, ^b!], "
			    "[9:<null>, ^c]");
	json_t *a = field(node_at(f, &phi), "inc");
	assert_int_equal(json_array_size(a), 3);
	json_t *u = json_object_get(json_array_get(a, 1), "u");
	assert_int_equal(json_integer_value(json_object_get(u, "k")), 8);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(a, 2), "blk")), "c");
}

// Lua's access to rendering: render() of a node's field by its template,
// deref() of a ptr, ref and index to the node's table; Lua inside render()
// from Lua is refused, as a walk error.
static void
test_lua_render_and_deref(void **state)
{
	struct fixture *f = *state;
	Item items[2] = { { .v = 10 }, { .v = 20 } };
	Item own = { .v = 1 }, shared = { .v = 2 };
	Bag bag = { .items = items, .nitems = 2, .own = &own,
		    .shared = &shared, .idx = 1 };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" }, text = \"<{v}>\","
	     " ref = \"#{v}\" }\n"
	     "struct \"Bag\" { fields = {\n"
	     " items = array { ptr = \"items\", count = \"nitems\", of = "
	     "\"Item\" },\n"
	     " own = ptr(\"own\", \"Item\"), shared = ref(\"shared\", \"Item\"),"
	     "\n idx = index(\"idx\", \"Bag.items\"),\n"
	     " twice = computed(function(n) return 2 end) },\n"
	     " text = function(n) return render(n, \"own\") .. \"|\" .. "
	     "render(n, \"shared\") .. \"|\" .. deref(n, \"shared\").v .. \"|\""
	     " .. deref(n, \"idx\").v .. \"|\" .. render(n, \"idx\") .. \"|\" "
	     ".. tostring(deref(n, \"own\")._type) .. \"|\" .. render(n, "
	     "\"twice\") .. \"|\" .. render(deref(n, \"own\")) end }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "<1>|#2|2|20|#20|Item|<error>|<1>");
	assert_true(has_error(f, "not run: Lua inside render() from Lua"));
	assert_non_null(node_at(f, &own));	// the walk still visited it
}

static void *dead_page(void);

// Template conditions: comparisons of two fields, of a field and a number
// or an enum name, and/or/not with parentheses, through pointers; an
// unreadable operand makes the condition true and shows its marker.
static void
test_template_conditions(void **state)
{
	struct fixture *f = *state;
	Leaf l = { .i32 = 42, .i8 = -3, .u64 = UINT64_MAX, .f64 = 3.5,
		   .color = GREEN, .b = true, .wide = 7 };
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS " },\n"
	     " text = \"{?i32 == 42}a{/}{?i32 != 42}b{/}{?color == GREEN}g"
	     "{/}{?color == BLUE or color == RED}r{/}{?i8 < 0}n{/}"
	     "{?i8 < -3}N{/}{?u64 > 1}u{/}{?u64 > -1}U{/}{?f64 >= 3}f{/}"
	     "{?not u8 and b}x{/}{?not (i32 == 1 or i32 == 42)}y{:}z{/}"
	     "{?wide <= 7 and wide >= 7 and wide ~= 8}w{/}{?i32 > i8}c{/}"
	     "{?color == 5}5{/}{? b }B{/}\" }\n");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "agnuUfxzwc5B");

	void *bad = dead_page();
	Item one = { .v = 1 }, two = { .v = 1 };
	Bag bag = { .own = &one, .shared = &one, .first = &two };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" }, text = \"{v}\" }"
	     "\nstruct \"Bag\" { fields = { own = ptr(\"own\", \"Item\"),\n"
	     " shared = ref(\"shared\", \"Item\"), first = ref(\"first\", "
	     "\"Item\") },\n"
	     " text = \"{?own == shared}same{:}diff{/} {?own != first}ne{/} "
	     "{?own.v == first.v}eq{/} {?shared.v == 1}{own}{/}\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "same ne eq 1");
	bag.shared = bad;
	walk(f, &bag, NULL);
	char want[128];
	snprintf(want, sizeof(want), "diff ne eq <unreadable %p>1", bad);
	assert_string_equal(f->text, want);
	assert_true(f->st.nerrors >= 1);
	munmap(bad, 4096);
}


// {=EXPR}: integer arithmetic over fields, # (the element's index in its
// sequence) and #s (a sequence's length), with a format; the same
// expressions in conditions; {&}, the struct's own address.
static void
test_template_arithmetic(void **state)
{
	struct fixture *f = *state;
	Item items[3] = { { .v = 5 }, { .v = -7 }, { .v = 100 } };
	Bag bag = { .items = items, .nitems = 3, .kind = 4 };
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { node = false, fields = { v = scalar \"v\" },"
	     " text = \"{=# + 1}:{=v * 2 - 1}/{=-v}/{=(v + 1) * -2:%04d}"
	     "{?# + 1 == v}!{/}{?-v > 6}?{/}\" }\n"
	     "struct \"Bag\" { fields = { kind = scalar \"kind\",\n"
	     " items = array { ptr = \"items\", count = \"nitems\", "
	     "of = \"Item\" } },\n"
	     " text = \"{=#items} item{?#items != 1}s{/} at {&}: {items*, }"
	     " {=kind - #items * 3}\" }\n");
	walk(f, &bag, NULL);
	char want[200];
	snprintf(want, sizeof(want), "3 items at %p: 1:9/-5/-012, "
		 "2:-15/7/0012?, 3:199/-100/-202 -5", (void *)&bag);
	assert_string_equal(f->text, want);
	assert_int_equal(f->st.nerrors, 0);
	items[1].v = 2;		// the second element: 1 + 1 == v
	bag.nitems = 2;
	walk(f, &bag, NULL);
	snprintf(want, sizeof(want), "2 items at %p: 1:9/-5/-012, "
		 "2:3/-2/-006! -2", (void *)&bag);
	assert_string_equal(f->text, want);
	// # of a struct that is no element: <none>, and a walk error
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Bag\" { fields = { kind = scalar \"kind\" },"
	     " text = \"{=# + kind}\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "<none>");
	assert_true(has_error(f, "this Bag is no element of a sequence"));
}

// {f:lua}: numbers and strings as Lua writes them (luac's constants):
// floats %.14g with .0 when that looks like an integer, strings quoted
// with C escapes and \ddd for other bytes that do not print.
static void
test_lua_format(void **state)
{
	struct fixture *f = *state;
	Leaf l = { .i32 = -42, .f64 = 3.0, .f32 = 0.5f,
		   .cstr = "a\"b\\\n\t\x01\x7f\xc3\xa9z",
		   .data = "@src.lua", .len = 8 };
	const char *src = "layout { name = \"w\", root = \"Leaf\" }\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS ",\n"
	     " file = strn(\"data\", \"len\") { skip = 1 } },\n"
	     " text = \"{i32:lua} {f64:lua} {f32:lua} {cstr:lua}\" }\n";
	load(f, src);
	walk(f, &l, NULL);
	assert_string_equal(f->text, "-42 3.0 0.5 \"a\\\"b\\\\\\n\\t\\001"
			    "\\127\\195\\169z\"");
	assert_string_equal(json_string_value(field(node_at(f, &l), "file")),
			    "src.lua");
	l.f64 = 1e15;
	l.f32 = -0.0f;
	l.cstr = "";
	walk(f, &l, NULL);
	assert_string_equal(f->text, "-42 1e+15 -0.0 \"\"");
	l.f64 = 0.1;
	l.f32 = 1e10f;
	walk(f, &l, NULL);
	assert_string_equal(f->text, "-42 0.1 10000000000.0 \"\"");
}

// delta { ... }: each element's value is the last absolute entry at or
// before it (else the base) plus the deltas after it, in order or picked
// by an index; no deltas (NULL) is no value.
static void
test_delta_field(void **state)
{
	struct fixture *f = *state;
	Item items[6] = { { .v = 0 } };
	int8_t deltas[6] = { 1, 2, -128, 1, 1, -128 };
	Abs abs[2] = { { 2, 100 }, { 5, 7 } };
	Fn fn = { .base = 10, .n = 6, .nabs = 2, .pick = 4, .deltas = deltas,
		  .abs = abs, .items = items };
	load(f, "layout { name = \"w\", root = \"Fn\" }\n"
	     "struct \"Abs\" { node = false, fields = { at = scalar \"at\","
	     " val = scalar \"val\" } }\n"
	     "struct \"Item\" { node = false, fields = { v = scalar \"v\",\n"
	     " line = delta { of = \"Fn.deltas\", base = \"base\", "
	     "absolute = \"abs\", at = \"at\", value = \"val\" } },\n"
	     " text = \"{=#}={line}{?line > 100}+{/}\" }\n"
	     "struct \"Fn\" { fields = { base = scalar \"base\",\n"
	     " deltas = array { ptr = \"deltas\", count = \"n\","
	     " of = i8 {} },\n"
	     " abs = array { ptr = \"abs\", count = \"nabs\", of = \"Abs\" },\n"
	     " items = array { ptr = \"items\", count = \"n\", of = \"Item\" },"
	     "\n pick = index(\"pick\", \"Fn.items\") },\n"
	     " text = \"{items*,} [{pick}]\" }\n");
	walk(f, &fn, NULL);
	assert_string_equal(f->text, "0=11,1=13,2=100,3=101+,4=102+,5=7 "
			    "[4=102+]");
	assert_int_equal(f->st.nerrors, 0);
	json_t *js = field(node_at(f, &fn), "items");
	assert_int_equal(json_integer_value(json_object_get(
		json_array_get(js, 1), "line")), 13);
	assert_int_equal(json_integer_value(json_object_get(
		json_array_get(js, 5), "line")), 7);
	// without absolute entries: the base and every delta
	fn.nabs = 0;
	fn.pick = 2;
	walk(f, &fn, NULL);
	assert_string_equal(f->text, "0=11,1=13,2=-115,3=-114,4=-113,5=-241 "
			    "[2=-115]");
	// no deltas: no value, and the condition on it is false
	fn.deltas = NULL;
	walk(f, &fn, NULL);
	assert_string_equal(f->text, "0=<null>,1=<null>,2=<null>,3=<null>,"
			    "4=<null>,5=<null> [2=<null>]");
	assert_true(json_is_null(json_object_get(json_array_get(
		field(node_at(f, &fn), "items"), 0), "line")));
}

// A walk's work is bounded whatever its node count (issue 32 item 1):
// max_text bytes of text (and of JSON) written, 256 template steps per
// node of max_nodes. Either stops the walk with its error, and the text
// ends with <truncated>.
static void
test_text_and_steps_are_bounded(void **state)
{
	struct fixture *f = *state;
	enum { N = 2000 };
	Item *items = calloc(N, sizeof(*items));
	for (int i = 0; i < N; i++)
		items[i].v = i;
	Bag bag = { .items = items, .nitems = N };
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { node = false, fields = { v = scalar \"v\" },\n"
	     " text = \"{v}{v}{v}{v}{v}{v}{v}{v}\\n\" }\n"
	     "struct \"Bag\" { fields = { items = array { ptr = \"items\", "
	     "count = \"nitems\", of = \"Item\" } }, text = \"{items}\" }\n");
	struct irs_limits lim = { .max_text = 1000 };
	walk_limits(f, &bag, NULL, &lim);
	assert_true(f->st.truncated);
	assert_true(has_error(f, "walk stopped: max text bytes of 1000 "
			      "reached"));
	assert_true(strlen(f->text) < 40000);
	assert_string_equal(f->text + strlen(f->text) - 11, "<truncated>");
	memset(&lim, 0, sizeof(lim));
	lim.max_nodes = 4;
	walk_limits(f, &bag, NULL, &lim);
	assert_true(f->st.truncated);
	assert_true(has_error(f, "walk stopped: template steps (256 per node "
			      "of max nodes) of 1024 reached"));
	assert_string_equal(f->text + strlen(f->text) - 11, "<truncated>");
	// unlimited, the same walk is whole
	walk(f, &bag, NULL);
	assert_false(f->st.truncated);
	free(items);
}

// Deltas whose sum leaves 64 bits wrap as C's unsigned arithmetic does, as
// {=EXPR} does (issue 32 item 18: the sum overflowed a signed integer,
// which the sanitized build stops at).
static void
test_delta_sum_wraps(void **state)
{
	struct fixture *f = *state;
	Item items[3] = { { .v = 0 } };
	int64_t deltas[3] = { INT64_MAX, 2, INT64_MIN };
	BigFn fn = { .base = 1, .n = 3, .deltas = deltas, .items = items };
	load(f, "layout { name = \"w\", root = \"BigFn\" }\n"
	     "struct \"Item\" { node = false, fields = {\n"
	     " line = delta { of = \"BigFn.deltas\", base = \"base\" } },\n"
	     " text = \"{line}\" }\n"
	     "struct \"BigFn\" { fields = { base = scalar \"base\",\n"
	     " deltas = array { ptr = \"deltas\", count = \"n\", of = i64 {} },\n"
	     " items = array { ptr = \"items\", count = \"n\", of = \"Item\" } },"
	     "\n text = \"{items*,}|\" }\n");
	walk(f, &fn, NULL);
	assert_string_equal(f->text, "-9223372036854775808,"
			    "-9223372036854775806,2|");
	assert_int_equal(f->st.nerrors, 0);
}

// index() names a value by its type's ref template when it has one (its
// text is how the sequence itself lists it), and a pointer to a node by
// the node's ref, not its whole text.
static void
test_index_renders_refs(void **state)
{
	struct fixture *f = *state;
	Item items[2] = { { .v = 11 }, { .v = 22 } };
	Item a = { .v = 1 }, b = { .v = 2 };
	Item *ptrs[2] = { &a, &b };
	Bag bag = { .items = items, .nitems = 2, .idx = 1, .nulls = ptrs };
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { node = false, fields = { v = scalar \"v\" },"
	     " ref = \"#{v}\", text = \"{=#}: {@ref}\\n\" }\n"
	     "struct \"Node\" { ctype = \"Item\", fields = {"
	     " v = scalar \"v\" }, ref = \"n{v}\", text = \"<node {v}>\" }\n"
	     "struct \"Bag\" { fields = {\n"
	     " items = array { ptr = \"items\", count = \"nitems\", "
	     "of = \"Item\" },\n"
	     " nodes = array { ptr = \"nulls\", count = \"nitems\", "
	     "of = ptr \"Node\" },\n"
	     " it = index(\"idx\", \"Bag.items\"), nd = index(\"idx\", "
	     "\"Bag.nodes\") },\n"
	     " text = \"{it} {nd}\\n{items}{nodes}\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "#22 n2\n0: #11\n1: #22\n"
			    "<node 1><node 2>");
	assert_int_equal(f->st.nerrors, 0);
	assert_non_null(field(node_at(f, &bag), "it"));
}

// json = false: a field the text uses but the JSON records leave out
// (what other fields already say).
static void
test_field_without_json(void **state)
{
	struct fixture *f = *state;
	Item items[2] = { { .v = 11 }, { .v = 22 } };
	Bag bag = { .items = items, .nitems = 2, .idx = 1, .kind = 3 };
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { node = false, fields = { v = scalar \"v\","
	     " twice = bits { offset = 0, bit = 1, width = 8 } "
	     "{ json = false } }, text = \"{v}/{twice}\" }\n"
	     "struct \"Bag\" { fields = { kind = scalar \"kind\",\n"
	     " items = array { ptr = \"items\", count = \"nitems\", "
	     "of = \"Item\" },\n"
	     " it = index(\"idx\", \"Bag.items\") { json = false } },\n"
	     " text = \"{it} {items*,} {kind}\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "22/11 11/5,22/11 3");
	json_t *n = node_at(f, &bag);
	assert_null(field(n, "it"));
	assert_int_equal(json_integer_value(field(n, "kind")), 3);
	json_t *e = json_array_get(field(n, "items"), 1);
	assert_int_equal(json_integer_value(json_object_get(e, "v")), 22);
	assert_null(json_object_get(e, "twice"));
}

/* }====================================================== */

/* {====================================================== corrupt memory */

// A page that is not mapped: reading it faults.
static void *
dead_page(void)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	assert_true(p != MAP_FAILED);
	return p;
}

#define OWNERS "layout { name = \"w\", root = \"Bag\" }\n" \
	"local l = require \"irsnap.list\"\n" \
	"struct \"Item\" { fields = { v = scalar \"v\", " \
	"nx = ref(\"next\", \"Item\") }, text = \"{v}\" }\n" \
	"struct \"Bag\" { fields = {\n" \
	" items = array { ptr = \"items\", count = \"nitems\", " \
	"of = \"Item\" },\n" \
	" own = ptr(\"own\", \"Item\"), first = l.null { first = " \
	"\"first\", of = \"Item\", link = \"next\" },\n" \
	" ring = l.sentinel { head = \"ring\", of = \"Item\", " \
	"link = \"link\", prev = \"prev\" } },\n" \
	" text = \"[{items*,}] [{own}] [{first*,}] [{ring*,}] end\" }\n"

// An unreadable pointer is recorded with its address, shown as
// <unreadable 0x...>, and the walk goes on.
static void
test_unreadable_pointer(void **state)
{
	struct fixture *f = *state;
	void *bad = dead_page();
	Item ok = { .v = 1 };
	Bag bag = { .own = bad, .first = &ok };
	load(f, OWNERS);
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	walk(f, &bag, NULL);
	char want[128];
	snprintf(want, sizeof(want), "[] [<unreadable %p>] [1] [] end", bad);
	assert_string_equal(f->text, want);
	assert_int_equal(f->st.nerrors, 1);
	snprintf(want, sizeof(want), "field own: unreadable pointer %p", bad);
	assert_true(has_error(f, want));
	json_t *e = json_array_get(json_object_get(f->json, "errors"), 0);
	char addr[32];
	snprintf(addr, sizeof(addr), "%p", bad);
	assert_string_equal(json_string_value(json_object_get(e, "address")),
			    addr);
	assert_string_equal(json_string_value(json_object_get(e, "field")),
			    "own");
	assert_string_equal(json_string_value(json_object_get(e, "type")),
			    "Bag");
	assert_non_null(json_object_get(field(node_at(f, &bag), "own"),
					"error"));
	assert_non_null(node_at(f, &ok));
	munmap(bad, 4096);
}

// A list that comes back on itself: the elements before the cycle are
// walked once, the cycle is an error at that node, the walk ends.
static void
test_list_cycle(void **state)
{
	struct fixture *f = *state;
	Item it[4] = { { .v = 1 }, { .v = 2 }, { .v = 3 }, { .v = 4 } };
	Bag bag = { 0 };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	bag.first = &it[0];
	for (int i = 0; i < 3; i++)
		it[i].next = &it[i + 1];
	it[3].next = &it[1];	// 1 2 3 4 2 3 4 ...
	load(f, OWNERS);
	walk(f, &bag, NULL);
	char want[128];
	snprintf(want, sizeof(want), "[] [<null>] [1,2,3,4,<cycle at %p>] [] "
		 "end", (void *)&it[1]);
	assert_string_equal(f->text, want);
	assert_true(has_error(f, "list cycle: element 3 links back to"));
	assert_int_equal(f->st.nodes, 5);
	assert_int_equal(json_array_size(field(node_at(f, &bag), "first")),
			 4);
	// a sentinel ring whose last element misses the sentinel
	bag.first = NULL;
	bag.ring.next = (Item *)&it[0].link;
	it[0].link.next = (Item *)&it[0].link;	// itself
	it[0].link.prev = (Item *)&bag.ring;
	walk(f, &bag, NULL);
	snprintf(want, sizeof(want), "[] [<null>] [] [1,<cycle at %p>] end",
		 (void *)&it[0]);
	assert_string_equal(f->text, want);
}

// A broken back link (prev) is reported once; the list still prints.
static void
test_broken_prev_link(void **state)
{
	struct fixture *f = *state;
	Item it[2] = { { .v = 1 }, { .v = 2 } };
	Bag bag = { 0 };
	bag.ring.next = (Item *)&it[0].link;
	it[0].link.next = (Item *)&it[1].link;
	it[1].link.next = (Item *)&bag.ring;
	it[0].link.prev = (Item *)&bag.ring;
	it[1].link.prev = (Item *)&bag.ring;	// should be &it[0].link
	load(f, OWNERS);
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "[] [<null>] [] [1,2] end");
	assert_int_equal(f->st.nerrors, 1);
	assert_true(has_error(f, "list broken: element 1"));
}

// A count of 2^31 is an error at its node, found before anything is read:
// the walk neither hangs nor allocates for it.
static void
test_absurd_count(void **state)
{
	struct fixture *f = *state;
	Item it = { .v = 5 };
	Bag bag = { .items = &it, .nitems = 1u << 31, .own = &it };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	load(f, OWNERS);
	uint64_t reads0 = f->ft.nreads;
	walk(f, &bag, NULL);
	// bounded by reads, not seconds: the count is refused before any
	// element is read (one page-cache fill serves the bag and the item)
	assert_true(f->ft.nreads - reads0 <= 4);
	assert_string_equal(f->text, "[<bad count 2147483648>] [5] [] [] end");
	assert_true(has_error(f, "count 2147483648 exceeds the limit"));
	// a count the memory does not back: two elements, then a page that
	// is not mapped ends the sequence, with one error
	char *pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(pages != MAP_FAILED);
	assert_int_equal(mprotect(pages + 4096, 4096, PROT_NONE), 0);
	bag.items = (Item *)(pages + 4096 - 2 * sizeof(Item));
	bag.items[0] = (Item){ .v = 1 };
	bag.items[1] = (Item){ .v = 2 };
	bag.nitems = 1000000;
	walk(f, &bag, NULL);
	char want[128];
	snprintf(want, sizeof(want), "[1,2,<unreadable %p>] [5] [] [] end",
		 (void *)(pages + 4096));
	assert_string_equal(f->text, want);
	assert_int_equal(f->st.nerrors, 1);
	assert_true(has_error(f, "unreadable element 2"));
	assert_int_equal(json_array_size(field(node_at(f, &bag), "items")), 2);
	munmap(pages, 8192);
}

// Two lists sharing a tail (overlapping nodes): each node once, the second
// list renders the shared ones by reference; parents stay the first owner.
static void
test_overlapping_lists(void **state)
{
	struct fixture *f = *state;
	Item it[3] = { { .v = 1 }, { .v = 2 }, { .v = 3 } };
	Item shared_head = { .v = 9, .next = &it[1] };
	Bag bag = { .first = &it[0], .own = &shared_head };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	it[0].next = &it[1];
	it[1].next = &it[2];
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "local l = require \"irsnap.list\"\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" }, "
	     "text = \"{v}\", ref = \"#{v}\" }\n"
	     "struct \"Bag\" { fields = {\n"
	     " first = l.null { first = \"first\", of = \"Item\", "
	     "link = \"next\" },\n"
	     " other = l.null { first = \"own\", of = \"Item\", "
	     "link = \"next\" } },\n"
	     " text = \"{first*,} / {other*,}\" }\n");
	walk(f, &bag, NULL);
	assert_string_equal(f->text, "1,2,3 / 9,#2,#3");
	assert_int_equal(f->st.nodes, 5);
	assert_int_equal(json_array_size(nodes(f)), 5);
	assert_int_equal(json_array_size(field(node_at(f, &bag), "other")),
			 3);
}

// max_nodes stops the walk: truncated, one error, valid JSON.
static void
test_node_limit_truncates(void **state)
{
	struct fixture *f = *state;
	Item it[10];
	Bag bag = { .first = &it[0] };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	for (int i = 0; i < 10; i++) {
		it[i] = (Item){ .v = i, .next = i < 9 ? &it[i + 1] : NULL };
	}
	load(f, OWNERS);
	walk_limits(f, &bag, NULL, &(struct irs_limits){ .max_nodes = 4 });
	assert_true(f->st.truncated);
	assert_int_equal(f->st.nodes, 4);
	assert_string_equal(f->text, "[] [<null>] [0,1,2,<truncated>");
	assert_true(has_error(f, "walk stopped: max nodes of 4 reached"));
	assert_int_equal(json_array_size(nodes(f)), 4);
	assert_true(json_is_true(json_object_get(json_object_get(f->json,
		"stats"), "truncated")));
}

// A pointer chain deeper than max_depth, and one deeper than the C stack
// allows: both "too deep" errors, no crash.
static void
test_deep_chains(void **state)
{
	struct fixture *f = *state;
	enum { N = 300000 };
	Item *chain = calloc(N, sizeof(Item));
	for (int i = 0; i < N; i++) {
		chain[i].v = i;
		chain[i].next = i + 1 < N ? &chain[i + 1] : NULL;
	}
	load(f, "layout { name = \"w\", root = \"Item\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\", "
	     "nx = ptr(\"next\", \"Item\") }, text = \"{v} {nx}\" }\n");
	walk_limits(f, chain, NULL, &(struct irs_limits){ .max_depth = 5 });
	assert_string_equal(f->text, "0 1 2 3 4 <too deep>");
	assert_true(has_error(f, "too deep"));
	walk_limits(f, chain, NULL,
		    &(struct irs_limits){ .max_depth = 4000000 });
	assert_true(has_error(f, "too deep"));	// the stack guard
	assert_true(f->st.nodes > 1000);
	assert_non_null(strstr(f->text, "<too deep>"));
	free(chain);
}

// A string that cannot be read is never taken for a NULL one: {?s} is
// true so that the body shows its <unreadable 0x...> marker (a body that
// does not show s gets the marker in front), the error is recorded once
// however many places meet it (text, condition, JSON, Lua), and the hash
// differs from the intact and the NULL string's. So is a pointer on a
// condition's path ({?own.v}).
static void
test_unreadable_string_is_an_error(void **state)
{
	struct fixture *f = *state;
	char *bad = dead_page();
	Leaf l = { .i32 = 42, .cstr = "ab" };
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS ",\n"
	     " c = computed(function(n) return tostring(n.cstr) end) },\n"
	     " text = \"{?cstr}%{cstr}{:}#{i32}{/};{?cstr}named{/};{c}\" }\n");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "%ab;named;ab");
	assert_int_equal(f->st.nerrors, 0);
	char intact[17];
	memcpy(intact, f->st.hash, sizeof(intact));
	l.cstr = NULL;
	walk(f, &l, NULL);
	assert_string_equal(f->text, "#42;;nil");
	assert_int_equal(f->st.nerrors, 0);
	char null[17];
	memcpy(null, f->st.hash, sizeof(null));

	l.cstr = bad;
	walk(f, &l, NULL);
	char want[160];
	snprintf(want, sizeof(want), "%%<unreadable %p>;<unreadable %p>named;"
		 "nil", (void *)bad, (void *)bad);
	assert_string_equal(f->text, want);
	assert_int_equal(f->st.nerrors, 1);
	snprintf(want, sizeof(want), "field cstr: unreadable string at %p",
		 (void *)bad);
	assert_true(has_error(f, want));
	assert_int_equal(json_array_size(json_object_get(f->json, "errors")),
			 1);
	assert_non_null(json_object_get(field(node_at(f, &l), "cstr"),
					"error"));
	assert_true(strcmp(f->st.hash, intact) != 0);
	assert_true(strcmp(f->st.hash, null) != 0);

	// where only the JSON reads it, it is still a walk error
	load(f, "layout { name = \"w\", root = \"Leaf\" }\n"
	     "struct \"Leaf\" { fields = { " LEAF_FIELDS " },\n"
	     " text = \"{i32}\" }\n");
	walk(f, &l, NULL);
	assert_string_equal(f->text, "42");
	assert_int_equal(f->st.nerrors, 1);
	assert_true(has_error(f, want));

	// a pointer on a condition's path
	Bag bag = { .own = (Item *)bad };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" } }\n"
	     "struct \"Bag\" { fields = { own = ref(\"own\", \"Item\") },\n"
	     " text = \"[{?own.v}v={own.v}{/}][{?own.v}x{/}]\" }\n");
	walk(f, &bag, NULL);
	snprintf(want, sizeof(want), "[v=<unreadable %p>][<unreadable %p>x]",
		 (void *)bad, (void *)bad);
	assert_string_equal(f->text, want);
	assert_int_equal(f->st.nerrors, 1);
	munmap(bad, 4096);
}

// A root that cannot be read fails the call and leaves no file.
static void
test_unreadable_root_fails(void **state)
{
	struct fixture *f = *state;
	void *bad = dead_page();
	load(f, OWNERS);
	char *text;
	struct irs_snapshot *snap = NULL;
	struct irs_error *err = irs_snapshot_text(f->lo, fake_memory(&f->ft),
						  (uintptr_t)bad, NULL, NULL,
						  &text, &snap);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_FAULT);
	assert_non_null(strstr(err->message, "cannot read the IR root, a Bag"));
	irs_error_destroy(err);
	char dir[] = "/tmp/irsnap-walk-XXXXXX", tp[64], jp[64];
	assert_non_null(mkdtemp(dir));
	snprintf(tp, sizeof(tp), "%s/s.ir", dir);
	snprintf(jp, sizeof(jp), "%s/s.json", dir);
	err = irs_snapshot_write(f->lo, fake_memory(&f->ft), (uintptr_t)bad,
				 NULL, NULL, tp, jp, &snap);
	assert_non_null(err);
	irs_error_destroy(err);
	assert_int_equal(rmdir(dir), 0);	// empty: nothing left behind
	err = irs_snapshot_text(f->lo, fake_memory(&f->ft), 0x1000, "Nope",
				NULL, &text, &snap);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	assert_non_null(strstr(err->message, "no type 'Nope' (it has: Item, "
			       "Bag)"));
	irs_error_destroy(err);
	munmap(bad, 4096);
}

/* }====================================================== */

// irs_snapshot_write: both files, atomically, the same text as in memory,
// the JSON in the documented shape.
static void
test_snapshot_write_files(void **state)
{
	struct fixture *f = *state;
	Item it[2] = { { .v = 1, .next = &it[1] }, { .v = 2 } };
	Bag bag = { .first = &it[0] };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	// with the text's syntax for the reducer, which the JSON carries
	load(f, OWNERS "reduce { comment = \"#\", label = \"^@[a-z]+$\" }\n");
	char dir[] = "/tmp/irsnap-walk-XXXXXX", tp[64], jp[64];
	assert_non_null(mkdtemp(dir));
	snprintf(tp, sizeof(tp), "%s/0001-p.before.ir", dir);
	snprintf(jp, sizeof(jp), "%s/0001-p.before.json", dir);
	struct irs_snapshot *snap;
	assert_null(irs_snapshot_write(f->lo, fake_memory(&f->ft),
				       (uintptr_t)&bag, "Bag", NULL, tp, jp,
				       &snap));
	char *text, *mem;
	size_t len;
	struct irs_snapshot *s2;
	assert_null(irs_file_read(tp, &text, &len));
	assert_null(irs_snapshot_text(f->lo, fake_memory(&f->ft),
				      (uintptr_t)&bag, NULL, NULL, &mem, &s2));
	assert_string_equal(text, mem);
	assert_string_equal(text, "[] [<null>] [1,2] [] end");
	struct irs_snapshot_stats a, b;
	irs_snapshot_get_stats(snap, &a);
	irs_snapshot_get_stats(s2, &b);
	assert_string_equal(a.hash, b.hash);
	assert_int_equal(strlen(a.hash), 16);
	json_t *doc = json_load_file(jp, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")),
			    "irsnap.snapshot/1");
	assert_string_equal(json_string_value(json_object_get(doc,
			    "text_file")), "0001-p.before.ir");
	json_t *root = json_object_get(doc, "root");
	assert_string_equal(json_string_value(json_object_get(root, "type")),
			    "Bag");
	json_t *red = json_object_get(doc, "reduce");
	assert_true(json_is_array(json_object_get(red, "units")));
	assert_string_equal(json_string_value(json_object_get(red, "comment")),
			    "#");
	assert_string_equal(json_string_value(json_object_get(red, "label")),
			    "^@[a-z]+$");
	assert_int_equal(json_array_size(json_object_get(doc, "errors")), 0);
	json_t *st = json_object_get(doc, "stats");
	assert_int_equal(json_integer_value(json_object_get(st, "nodes")), 3);
	assert_int_equal(json_integer_value(json_object_get(st,
			 "text_bytes")), strlen(text));
	assert_string_equal(json_string_value(json_object_get(st, "hash")),
			    a.hash);
	json_decref(doc);
	free(text);
	free(mem);
	irs_snapshot_destroy(snap);
	irs_snapshot_destroy(s2);
	unlink(tp);
	unlink(jp);
	assert_int_equal(rmdir(dir), 0);	// no temporary file left
}

// Lua verifiers see node tables through snap:nodes and snap:node; a
// snapshot kept past its verifier is dead, not a dangling pointer; a
// verifier that fails is a layout error.
static void
test_lua_verifiers(void **state)
{
	struct fixture *f = *state;
	Item it[3] = { { .v = 1 }, { .v = -2 }, { .v = 3 } };
	Bag bag = { .first = &it[0] };
	bag.ring.next = bag.ring.prev = (Item *)&bag.ring;
	it[0].next = &it[1];
	it[1].next = &it[2];
	load(f, OWNERS
	     "verifier { name = \"positive\", check = function(snap)\n"
	     "  local p = {}\n"
	     "  for n in snap:nodes \"Item\" do\n"
	     "    if n.v < 0 then p[#p + 1] = n._id .. \" is \" .. n.v end\n"
	     "    if n.nx and not snap:node(n.nx) then p[#p + 1] = \"lost\" end\n"
	     "  end\n"
	     "  if #snap ~= 4 or #snap:root().first ~= 3 then "
	     "p[#p + 1] = \"count\" end\n"
	     "  kept = snap\n"
	     "  return p\n"
	     "end }\n"
	     "verifier { name = \"silent\", call = \"check({ir})\" }\n");
	char *problems;
	uint32_t n;
	struct irs_error *err = irs_layout_verify(f->lo, fake_memory(&f->ft),
						  (uintptr_t)&bag, NULL,
						  &problems, &n);
	if (err)
		fprintf(stderr, "verify: %s\n", err->message);
	assert_null(err);
	char want[96];
	snprintf(want, sizeof(want), "positive: %p is -2\n", (void *)&it[1]);
	assert_string_equal(problems, want);
	assert_int_equal(n, 1);
	free(problems);
	// kept past its verifier, the snapshot is dead, not dangling
	load(f, "layout { name = \"w\", root = \"Item\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\",\n"
	     " c = computed(function(n) for _ in kept:nodes() do end end) },\n"
	     " text = \"{v}:{c}\" }\n"
	     "verifier { name = \"a\", check = function(snap) kept = snap "
	     "end }\n");
	assert_null(irs_layout_verify(f->lo, fake_memory(&f->ft),
				      (uintptr_t)&it[0], NULL, &problems, &n));
	assert_int_equal(n, 0);
	free(problems);
	walk(f, &it[0], NULL);
	assert_string_equal(f->text, "1:<error>");
	assert_true(has_error(f, "w.lua:3: this snapshot is gone"));
	// a verifier that fails is the layout's error, at its line
	load(f, "layout { name = \"w\", root = \"Item\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" } }\n"
	     "verifier { name = \"boom\", check = function(snap)\n"
	     "  error(\"boom\") end }\n");
	err = irs_layout_verify(f->lo, fake_memory(&f->ft), (uintptr_t)&it[0],
				NULL, &problems, &n);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_LAYOUT);
	assert_string_equal(err->message, "w.lua:4: boom");
	irs_error_destroy(err);
}

// The visited set: adds, lookups and removals agree with a plain array.
static void
test_visited_set(void **state)
{
	(void)state;
	struct irs_visited v;
	irs_visited_init(&v);
	enum { N = 50000 };
	uint64_t *keys = malloc(N * sizeof(*keys));
	bool added;
	for (int i = 0; i < N; i++) {
		keys[i] = 0x10000 + (uint64_t)(i * 48) + (i % 7) * 0x1000000;
		assert_true(irs_visited_add(&v, keys[i], &added));
		assert_true(added);
	}
	assert_true(irs_visited_add(&v, keys[5], &added));
	assert_false(added);
	for (int i = 0; i < N; i += 3)
		irs_visited_remove(&v, keys[i]);
	for (int i = 0; i < N; i++)
		assert_int_equal(irs_visited_has(&v, keys[i]), i % 3 != 0);
	assert_false(irs_visited_has(&v, 8));
	irs_visited_deinit(&v);
	free(keys);
}

/* {====================================================================
** Per-unit render caches (walk/units.c)
** ===================================================================== */

// Walks @p bag text only into @p path with @p uc (or none); returns the
// text, stats in *st.
static char *
walk_units(struct fixture *f, const Bag *bag, struct irs_unit_cache *uc,
	   const char *path, struct irs_snapshot_stats *st)
{
	struct irs_memory *mem = fake_memory(&f->ft);
	irs_memory_invalidate(mem);	// as a stop after the debuggee ran
	struct irs_snapshot *snap;
	struct irs_error *err = irs_snapshot_write_units(f->lo, mem,
		(uintptr_t)bag, NULL, NULL, path, NULL, uc, &snap);
	if (err)
		fprintf(stderr, "walk: %s\n", err->message);
	assert_null(err);
	irs_snapshot_get_stats(snap, st);
	irs_snapshot_destroy(snap);
	char *text = NULL;
	assert_null(irs_file_read(path, &text, NULL));
	return text;
}

// @p n items v = 1..n, one a page, so a change is one unit's, and a bag on
// a page of its own whose nulls (NULL-terminated) point at them (a unit's
// text may depend on the nodes around it, so their pages are the unit's
// too); *pages is the caller's to free.
static Bag *
unit_pages(int n, Item **it, char **pages)
{
	char *p = aligned_alloc(4096, (size_t)(n + 1) * 4096);
	assert_non_null(p);
	memset(p, 0, (size_t)(n + 1) * 4096);
	Bag *bag = (Bag *)(p + n * 4096);
	Item **ptrs = (Item **)(bag + 1);
	for (int k = 0; k < n; k++) {
		it[k] = (Item *)(p + k * 4096);
		it[k]->v = k + 1;
		ptrs[k] = it[k];
	}
	bag->nulls = ptrs;
	*pages = p;
	return bag;
}

// A unit whose pages read the same comes from the cache, the others are
// walked, and the snapshot is a full walk's: text, node count, hash. A
// node another unit visited first is that unit's, as in a full walk.
static void
test_unit_cache_is_a_full_walk(void **state)
{
	struct fixture *f = *state;
	char dir[64], path[96];
	unit_tmpdir(dir, sizeof(dir), "units");
	snprintf(path, sizeof(path), "%s/w.ir", dir);
	char *pages;
	Item *it[4];
	const Bag *bag = unit_pages(4, it, &pages);
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\","
	     " next = ptr(\"next\", \"Item\") },"
	     " text = \"<{v}{?next} {next}{/}>\\n\" }\n"
	     "struct \"Bag\" { fields = {\n"
	     " nulls = nullterm { ptr = \"nulls\", of = ptr \"Item\" } },\n"
	     " text = \"{nulls}\" }\n"
	     "reduce { units = { \"Item\" } }\n");
	struct irs_unit_cache *uc;
	const struct ltype *t;
	assert_null(irs_layout_type_for(f->lo, "Item", &t));
	assert_null(irs_unit_cache_create(f->lo, t->index, &uc));
	struct irs_snapshot_stats st, full;
	uint64_t reused, walked;

	char *a = walk_units(f, bag, uc, path, &st);
	irs_unit_cache_stats(uc, &reused, &walked);
	assert_int_equal(reused, 0);
	assert_int_equal(walked, 4);
	free(a);

	// 1: one unit changed
	it[1]->v = 20;
	a = walk_units(f, bag, uc, path, &st);
	irs_unit_cache_stats(uc, &reused, &walked);
	assert_int_equal(reused, 3);
	assert_int_equal(walked, 1);
	char *b = walk_units(f, bag, NULL, path, &full);
	assert_string_equal(a, b);
	assert_string_equal(a, "<1>\n<20>\n<3>\n<4>\n");
	assert_int_equal(st.nodes, full.nodes);
	assert_int_equal(st.bytes, full.bytes);
	assert_string_equal(st.hash, full.hash);
	free(a);
	free(b);

	// 2: the first unit takes the third's node; the third is its
	// back reference, as a full walk has it
	it[0]->next = it[2];
	a = walk_units(f, bag, uc, path, &st);
	b = walk_units(f, bag, NULL, path, &full);
	assert_string_equal(a, b);
	assert_int_equal(st.nodes, full.nodes);
	assert_int_equal(st.bytes, full.bytes);
	assert_string_equal(st.hash, full.hash);
	free(a);
	free(b);
	irs_unit_cache_stats(uc, &reused, &walked);

	// 3: and gives it back
	it[0]->next = NULL;
	a = walk_units(f, bag, uc, path, &st);
	b = walk_units(f, bag, NULL, path, &full);
	assert_string_equal(a, b);
	assert_string_equal(a, "<1>\n<20>\n<3>\n<4>\n");
	assert_int_equal(st.nodes, full.nodes);
	assert_int_equal(st.bytes, full.bytes);
	assert_string_equal(st.hash, full.hash);
	irs_unit_cache_stats(uc, &reused, &walked);
	assert_int_equal(reused, 2);	// the second and the fourth
	free(a);
	free(b);

	// 4: nothing changed: all from the cache
	a = walk_units(f, bag, uc, path, &st);
	irs_unit_cache_stats(uc, &reused, &walked);
	assert_int_equal(reused, 4);
	assert_int_equal(walked, 0);
	assert_int_equal(st.nodes, full.nodes);
	assert_int_equal(st.bytes, full.bytes);
	assert_string_equal(st.hash, full.hash);
	free(a);

	irs_unit_cache_destroy(uc);
	free(pages);
	unit_rmtree(dir);
}

// A unit whose text says where it is ({=#}: its index among its owner's
// elements) is walked again when that changes, its own pages unchanged.
static void
test_unit_cache_and_element_index(void **state)
{
	struct fixture *f = *state;
	char dir[64], path[96];
	unit_tmpdir(dir, sizeof(dir), "units-index");
	snprintf(path, sizeof(path), "%s/w.ir", dir);
	char *pages;
	Item *it[3];
	Bag *bagp = unit_pages(3, it, &pages);
	Item **ptrs = bagp->nulls;
	load(f, "layout { name = \"w\", root = \"Bag\" }\n"
	     "struct \"Item\" { fields = { v = scalar \"v\" },"
	     " text = \"{=#}:{v}\\n\" }\n"
	     "struct \"Bag\" { fields = {\n"
	     " nulls = nullterm { ptr = \"nulls\", of = ptr \"Item\" } },\n"
	     " text = \"{nulls}\" }\n"
	     "reduce { units = { \"Item\" } }\n");
	struct irs_unit_cache *uc;
	const struct ltype *t;
	assert_null(irs_layout_type_for(f->lo, "Item", &t));
	assert_null(irs_unit_cache_create(f->lo, t->index, &uc));
	struct irs_snapshot_stats st, full;
	char *a = walk_units(f, bagp, uc, path, &st);
	assert_string_equal(a, "0:1\n1:2\n2:3\n");
	free(a);
	ptrs[0] = it[1];	// the first two change places
	ptrs[1] = it[0];
	a = walk_units(f, bagp, uc, path, &st);
	char *b = walk_units(f, bagp, NULL, path, &full);
	assert_string_equal(b, "0:2\n1:1\n2:3\n");
	assert_string_equal(a, b);
	assert_string_equal(st.hash, full.hash);
	free(a);
	free(b);
	irs_unit_cache_destroy(uc);
	free(pages);
	unit_rmtree(dir);
}

// A unit rendered by a pure Lua function (its text depends only on the
// bytes it read) is kept like a template's; an impure one, which may
// depend on anything, turns the cache off and every unit is walked.
static void
test_unit_cache_with_pure_lua(void **state)
{
	struct fixture *f = *state;
	static const char *const texts[] = {
		"pure(function(n) return '<' .. n.v .. '>\\n' end)",
		"function(n) return '<' .. n.v .. '>\\n' end",
	};
	char dir[64], path[96];
	unit_tmpdir(dir, sizeof(dir), "units-lua");
	snprintf(path, sizeof(path), "%s/w.ir", dir);
	for (int impure = 0; impure < 2; impure++) {
		char *pages;
		Item *it[3];
		const Bag *bag = unit_pages(3, it, &pages);
		char src[1024];
		snprintf(src, sizeof(src),
			 "layout { name = \"w\", root = \"Bag\" }\n"
			 "struct \"Item\" { fields = { v = scalar \"v\" },"
			 " text = %s }\n"
			 "struct \"Bag\" { fields = {\n"
			 " nulls = nullterm { ptr = \"nulls\","
			 " of = ptr \"Item\" } },\n"
			 " text = \"{nulls}\" }\n"
			 "reduce { units = { \"Item\" } }\n", texts[impure]);
		load(f, src);
		struct irs_unit_cache *uc;
		const struct ltype *t;
		assert_null(irs_layout_type_for(f->lo, "Item", &t));
		assert_null(irs_unit_cache_create(f->lo, t->index, &uc));
		struct irs_snapshot_stats st, full;
		uint64_t reused, walked;
		free(walk_units(f, bag, uc, path, &st));
		it[1]->v = 20;
		char *a = walk_units(f, bag, uc, path, &st);
		irs_unit_cache_stats(uc, &reused, &walked);
		assert_int_equal(reused, impure ? 0 : 2);
		assert_int_equal(walked, impure ? 0 : 1);
		char *b = walk_units(f, bag, NULL, path, &full);
		assert_string_equal(b, "<1>\n<20>\n<3>\n");
		assert_string_equal(a, b);
		assert_int_equal(st.nodes, full.nodes);
		assert_string_equal(st.hash, full.hash);
		free(a);
		free(b);
		irs_unit_cache_destroy(uc);
		free(pages);
	}
	unit_rmtree(dir);
}

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_scalars_of_every_width),
		T(test_strings),
		T(test_sequences),
		T(test_unit_cache_is_a_full_walk),
		T(test_unit_cache_and_element_index),
		T(test_unit_cache_with_pure_lua),
		T(test_intrusive_lists),
		T(test_pointers_refs_and_tags),
		T(test_first_overlap_and_past),
		T(test_unions_by_and_index),
		T(test_template_conditions),
		T(test_template_arithmetic),
		T(test_lua_format),
		T(test_delta_field),
		T(test_delta_sum_wraps),
		T(test_text_and_steps_are_bounded),
		T(test_index_renders_refs),
		T(test_field_without_json),
		T(test_raw_reads_by_path),
		T(test_globals),
		T(test_tail_strings_and_global_cases),
		T(test_zip_of_parallel_arrays),
		T(test_zip_of_inline_structs),
		T(test_lua_render_and_deref),
		T(test_formats_conditionals_lua),
		T(test_unreadable_pointer),
		T(test_list_cycle),
		T(test_broken_prev_link),
		T(test_absurd_count),
		T(test_overlapping_lists),
		T(test_node_limit_truncates),
		T(test_deep_chains),
		T(test_unreadable_string_is_an_error),
		T(test_unreadable_root_fails),
		T(test_snapshot_write_files),
		T(test_lua_verifiers),
		cmocka_unit_test(test_visited_set),
	};
	return cmocka_run_group_tests_name("walker", tests, NULL, NULL);
}
