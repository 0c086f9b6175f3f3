// The shapes C++ compilers keep their IR in, walked over structures built
// in this process the way LLVM and MLIR build theirs: numbers of any width
// (APInt, APFloat), named formats, and the shapes of the files under
// common/walk/ that each test names.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>
#include <jansson.h>

#include "fake_target.h"
#include "run/run.h"
#include "unit_util.h"

// The text of @p addr walked as layout type @p type, with @p nerrors
// walk errors.
static void
assert_render_as(struct unit_layout_fixture *f, uint64_t addr,
		 const char *type, const char *want, uint64_t nerrors)
{
	char *text;
	struct irs_snapshot *snap;
	struct irs_snapshot_stats st;
	struct irs_error *err = irs_snapshot_text(f->lo, fake_memory(&f->ft),
						  addr, type, NULL, &text,
						  &snap);
	if (err)
		fail_msg("snapshot: %s", irs_error_get_message(err));
	irs_snapshot_get_stats(snap, &st);
	if (st.nerrors != nerrors)
		fprintf(stderr, "%llu walk errors, the first: %s\n",
			(unsigned long long)st.nerrors,
			st.nerrors ? irs_snapshot_error(snap, 0) : "");
	assert_string_equal(text, want);
	assert_int_equal(st.nerrors, nerrors);
	irs_snapshot_destroy(snap);
	irs_free(text);
}

/* {====================================================== numbers */

// LLVM's APInt and IEEEFloat, member for member.
struct fltSem {
	int32_t maxExponent, minExponent;
	uint32_t precision, sizeInBits;
};
typedef struct APInt {
	union {
		uint64_t VAL;
		uint64_t *pVal;
	} U;
	uint32_t BitWidth;
} APInt;
typedef struct IEEEFloat {
	const struct fltSem *semantics;
	union {
		uint64_t part;
		uint64_t *parts;
	} significand;
	int32_t exponent;
	unsigned category : 3;
	unsigned sign : 1;
} IEEEFloat;
typedef struct Num {
	APInt i;
	IEEEFloat f;
	const char *name;
} Num;

static const struct fltSem sem_double = { 1023, -1022, 53, 64 };
static const struct fltSem sem_x87 = { 16383, -16382, 64, 80 };
static const struct fltSem sem_float = { 127, -126, 24, 32 };

static void
num_types(struct fake_target *ft)
{
	FAKE_TYPE(ft, Num);
	FAKE_MEMBER(ft, Num, i.U, IRS_TYPE_UNION, "union {...}", "");
	FAKE_MEMBER(ft, Num, i.U.VAL, IRS_TYPE_UINT, "uint64_t", "");
	FAKE_PTR(ft, Num, i.U.pVal, "uint64_t");
	FAKE_UINT(ft, Num, i.BitWidth);
	FAKE_PTR(ft, Num, f.semantics, "fltSem");
	FAKE_MEMBER(ft, Num, f.significand, IRS_TYPE_UNION, "union {...}",
		    "");
	FAKE_INT(ft, Num, f.exponent);
	FAKE_BITFIELD(ft, Num, f.category, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, Num, f.sign, IRS_TYPE_UINT);
	FAKE_PTR(ft, Num, name, "char");
}

static const char num_layout[] =
	"layout { name = \"n\", root = \"Num\" }\n"
	"struct \"Num\" { fields = {\n"
	"  i = apint { value = \"i.U.VAL\", words = \"i.U.pVal\",\n"
	"              width = \"i.BitWidth\" },\n"
	"  u = apint { value = \"i.U\", words = \"i.U\", width = "
	"\"i.BitWidth\", signed = false },\n"
	"  f = apfloat { semantics = \"f.semantics\", significand = "
	"\"f.significand\",\n"
	"                exponent = \"f.exponent\", category = \"f.category\","
	" sign = \"f.sign\" },\n"
	"  m = apfloat { semantics = \"f.semantics\", significand = "
	"\"f.significand\",\n"
	"                exponent = \"f.exponent\", category = \"f.category\","
	" sign = \"f.sign\", style = \"mlir\" },\n"
	"  name = cstr \"name\" },\n"
	"  text = \"{i} {u} {f} {m} @{name:llvm_name} {name:mlir_keyword}"
	"{?i == -1} minus one{/}\" }\n";

// An APInt in one word and behind a pointer, signed and not; an
// IEEEFloat in one word and (x87: 64 + 1 bits) behind a pointer, as LLVM
// and MLIR print them; names quoted as each quotes them.
static void
test_apint_apfloat_and_names(void **state)
{
	struct unit_layout_fixture *f = *state;
	num_types(&f->ft);
	unit_layout_load(&f->ft.target, num_layout, "n.lua", &f->lo);

	// 1e-7: LLVM cannot print it in six digits, MLIR prints its digits
	Num n = { .i = { .U.VAL = 0xff, .BitWidth = 8 },
		  .f = { .semantics = &sem_double, .exponent = -24,
			 .category = 2 }, .name = "fnv1a" };
	n.f.significand.part = 0x1ad7f29abcaf48ull;
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&n,
			   "-1 255 0x3E7AD7F29ABCAF48 9.9999999999999995E-8 "
			   "@fnv1a fnv1a minus one", 0, "");

	// 2^127 + 5 in two words; 1.5 as an x87 long double, its
	// significand behind a pointer
	uint64_t words[2] = { 5, 1ull << 63 };
	uint64_t sig[2] = { 0xc000000000000000ull, 0 };
	n = (Num){ .i = { .U.pVal = words, .BitWidth = 128 },
		   .f = { .semantics = &sem_x87, .exponent = 0,
			  .category = 2 }, .name = "0 a\"b" };
	n.f.significand.parts = sig;
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&n,
			   "-170141183460469231731687303715884105723 "
			   "170141183460469231731687303715884105733 "
			   "0xK3FFFC000000000000000 1.500000e+00 "
			   "@\"0 a\\22b\" \"0 a\\22b\"", 0, "");

	// a float that reads back (LLVM prints a float's value as a double)
	n = (Num){ .i = { .U.VAL = 7, .BitWidth = 3 },
		   .f = { .semantics = &sem_float, .exponent = 1,
			  .category = 2, .sign = 1 }, .name = "x" };
	n.f.significand.part = 0xa00000;	// -2.5
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&n,
			   "-1 7 -2.500000e+00 -2.500000e+00 @x x minus one",
			   0, "");

	// semantics irsnap does not know, an unreadable word: the walk
	// says so and goes on
	static const struct fltSem odd = { 1, 1, 7, 13 };
	n = (Num){ .i = { .U.pVal = (uint64_t *)8, .BitWidth = 65 },
		   .f = { .semantics = &odd, .category = 2 }, .name = "y" };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&n,
			   "<error> <error> <error> <error> @y y", 4,
			   "unreadable apint words at 0x8");
}

/* }====================================================== */

/* {====================================================== enum aliases */

typedef struct Cmp {
	uint32_t pred, id, attr;
} Cmp;

// A value with several names shows the one that is no range marker
// (FIRST_*, *FirstVal, *Begin), whichever is declared first; prefer
// overrides; every name still selects its value.
static void
test_enum_aliases(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct fake_target *ft = &f->ft;
	FAKE_TYPE(ft, Cmp);
	FAKE_ENUM(ft, Cmp, pred, "Predicate");
	FAKE_ENUM(ft, Cmp, id, "ValueTy");
	FAKE_ENUM(ft, Cmp, attr, "AttrKind");
	static const struct { const char *type, *name; int64_t v; } e[] = {
		{ "Predicate", "FCMP_FALSE", 0 },
		{ "Predicate", "FIRST_FCMP_PREDICATE", 0 },
		{ "Predicate", "FIRST_ICMP_PREDICATE", 32 },
		{ "Predicate", "ICMP_EQ", 32 },
		{ "Predicate", "ICMP_SLE", 41 },
		{ "Predicate", "LAST_ICMP_PREDICATE", 41 },
		{ "Predicate", "BAD_ICMP_PREDICATE", 42 },
		{ "ValueTy", "ConstantFirstVal", 0 },
		{ "ValueTy", "FunctionVal", 0 },
		{ "ValueTy", "ConstantDataFirstVal", 12 },
		{ "ValueTy", "UndefValueVal", 12 },
		{ "ValueTy", "TermOpsBegin", 13 },
		{ "AttrKind", "FirstIntAttr", 70 },
		{ "AttrKind", "Alignment", 70 },
		{ "AttrKind", "AllocSize", 70 },
	};
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		fake_enumerator(ft, e[i].type, e[i].name, e[i].v);
	unit_layout_load(&ft->target,
		"layout { name = \"c\", root = \"Cmp\" }\n"
		"struct \"Cmp\" { fields = { pred = enum(\"pred\", { strip = "
		"\"ICMP_\", lower = true }),\n"
		"  id = enum \"id\", attr = enum(\"attr\", { prefer = "
		"\"AllocSize\" }) },\n"
		"  text = \"{pred} {id} {attr}{?pred == FIRST_ICMP_PREDICATE} "
		"first{/}{?id == TermOpsBegin} term{/}\" }\n", "c.lua", &f->lo);
	Cmp c = { 32, 0, 70 };
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&c,
			   "eq FunctionVal AllocSize first", 0, "");
	c = (Cmp){ 41, 12, 70 };
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&c,
			   "sle UndefValueVal AllocSize", 0, "");
	c = (Cmp){ 0, 13, 1 };
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&c,
			   "fcmp_false TermOpsBegin 1 term", 0, "");
}

// Enums carved out of bits of a member: Value::SubclassData (a plain
// 16-bit member, bits 2-11 a call's calling convention) and a bitfield
// (GlobalValue::SubClassData, its low 6 bits an alignment); named by a
// table, or by an enum type of the target's.
typedef struct Carved {
	unsigned short data;
	unsigned linkage : 4;
	unsigned sub : 12;
} Carved;

static void
test_enum_in_bits_of_a_member(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct fake_target *ft = &f->ft;
	FAKE_TYPE(ft, Carved);
	FAKE_UINT(ft, Carved, data);
	fake_bitfield(ft, "Carved", "linkage", 0, 4, 16, 4, IRS_TYPE_UINT);
	fake_bitfield(ft, "Carved", "sub", 0, 4, 20, 12, IRS_TYPE_UINT);
	fake_enumerator(ft, "Ordering", "Monotonic", 2);
	fake_enumerator(ft, "Ordering", "SeqCst", 7);
	unit_layout_load(&ft->target,
		"layout { name = \"c\", root = \"Carved\" }\n"
		"struct \"Carved\" { fields = {\n"
		"  cc = enum({ at = \"data\", bit = 2, width = 10 },\n"
		"            { names = { [8] = \"fastcc\", [9] = \"coldcc\" } }),\n"
		"  ord = enum({ at = \"data\", bit = 12, width = 3 },\n"
		"             { type = \"Ordering\", lower = true }),\n"
		"  align = enum({ at = \"sub\", bit = 0, width = 6 },\n"
		"               { names = { \"1\", \"2\", \"4\", \"8\" } }) },\n"
		"  text = \"{cc} {ord}{?align != 0} align {align}{/}"
		"{?cc == fastcc} fast{/}\" }\n", "c.lua", &f->lo);
	Carved c = { .data = 8 << 2 | 7 << 12 | 3, .linkage = 15,
		     .sub = 0xfc0 | 3 };
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&c,
			   "fastcc seqcst align 4 fast", 0, "");
	c = (Carved){ .data = 9 << 2 | 2 << 12 | 1 << 15, .linkage = 0,
		      .sub = 0xfc0 };
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&c,
			   "coldcc monotonic", 0, "");
	c = (Carved){ .data = 5 << 2 };
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&c,
			   "5 0", 0, "");
	// bits past the member are refused, naming it
	struct irs_error *err = unit_layout_try(&ft->target,
		"layout { name = \"c\", root = \"Carved\" }\n"
		"struct \"Carved\" { fields = { x = enum({ at = \"sub\", "
		"bit = 8, width = 6 }, { names = {} }) } }", "bad.lua", &f->lo);
	assert_non_null(err);
	const char *msg = irs_error_get_message(err);
	if (!strstr(msg, "bad.lua:2:") ||
	    !strstr(msg, "bits 8..13 (width 6) are not inside 'sub' (12 bits)"))
		fail_msg("got %s", msg);
	irs_error_destroy(err);
}

/* }====================================================== */

/* {====================================================== placement */

// LLVM's User and its Uses: NumUserOperands Uses end where the User
// starts, or (HasHungOffUses) lie behind the pointer just before it; a
// PHI keeps its blocks after ReservedSpace Uses of that hung-off array.
typedef struct Val {
	int id;
} Val;
typedef struct Use {
	Val *val;
	struct Use *next, **prev;
	void *parent;
} Use;
typedef struct User {
	uint32_t nops : 27;
	uint32_t hung : 1;
	uint32_t reserved;
	int id;
} User;

// MLIR's Operation: inline results (16 bytes) before it in reverse, six
// at most, out-of-line ones (24 bytes) before those; after it, an
// OperandStorage when it has one, then its successors and regions.
typedef struct Res {
	uint64_t use;
	int64_t type;
} Res;
typedef struct OutRes {
	uint64_t use;
	int64_t type;
	uint64_t index;
} OutRes;
typedef struct Op {
	uint32_t nres, nsucc;
	uint32_t nregions : 31;
	uint32_t storage : 1;
	uint32_t pad;
} Op;
typedef struct Succ {
	uint64_t a, b, c;
	int64_t block;
} Succ;
typedef struct Region {
	uint64_t a, b;
	int64_t id;
} Region;

static void
place_types(struct fake_target *ft)
{
	FAKE_TYPE(ft, Val);
	FAKE_INT(ft, Val, id);
	FAKE_TYPE(ft, Use);
	FAKE_PTR(ft, Use, val, "Val");
	FAKE_TYPE(ft, User);
	FAKE_BITFIELD(ft, User, nops, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, User, hung, IRS_TYPE_UINT);
	FAKE_UINT(ft, User, reserved);
	FAKE_INT(ft, User, id);
	FAKE_TYPE(ft, Res);
	FAKE_INT(ft, Res, type);
	FAKE_TYPE(ft, OutRes);
	FAKE_INT(ft, OutRes, type);
	FAKE_TYPE(ft, Op);
	FAKE_UINT(ft, Op, nres);
	FAKE_UINT(ft, Op, nsucc);
	FAKE_BITFIELD(ft, Op, nregions, IRS_TYPE_UINT);
	FAKE_BITFIELD(ft, Op, storage, IRS_TYPE_UINT);
	FAKE_TYPE(ft, Succ);
	FAKE_INT(ft, Succ, block);
	FAKE_TYPE(ft, Region);
	FAKE_INT(ft, Region, id);
}

static const char place_layout[] =
	"layout { name = \"p\", root = \"User\" }\n"
	"struct \"Val\" { fields = { id = scalar \"id\" }, ref = \"%{id}\" }\n"
	"struct \"Use\" { node = false, fields = { val = ref(\"val\", "
	"\"Val\") }, text = \"{val}\" }\n"
	"struct \"User\" { fields = {\n"
	"  id = scalar \"id\", hung = scalar \"hung\",\n"
	"  ops = array { at = \"before\", count = \"nops\", of = \"Use\",\n"
	"                alt = { when = \"hung\", ptr = -8 } },\n"
	"  incoming = zip { count = \"nops\", text = \"[ {v}, {b} ]\", of = {\n"
	"    v = { ptr = -8, of = \"Use\" },\n"
	"    b = { ptr = -8, skip = { { \"reserved\", 32 } }, of = ref \"Val\" } } } },\n"
	"  text = \"%{id} = op {ops*, }{?hung} phi {incoming*, }{/} (#{=#ops})\" }\n"
	"struct \"Res\" { node = false, fields = { type = scalar \"type\" }, "
	"text = \"r{type}\" }\n"
	"struct \"OutRes\" { node = false, fields = { type = scalar \"type\" "
	"}, text = \"o{type}\" }\n"
	"struct \"Succ\" { node = false, fields = { block = scalar \"block\" "
	"}, text = \"^bb{block}\" }\n"
	"struct \"Region\" { node = false, fields = { id = scalar \"id\" }, "
	"text = \"({{{id}}})\" }\n"
	"struct \"Op\" { fields = {\n"
	"  res = array { at = \"before\", reverse = true, count = \"nres\","
	" limit = 6, of = \"Res\" },\n"
	"  more = array { at = \"before\", reverse = true, skip = 96, count ="
	" \"nres\", drop = 6, of = \"OutRes\" },\n"
	"  succ = array { at = \"after\", skip = { { \"storage\", 16 } }, "
	"count = \"nsucc\", of = \"Succ\" },\n"
	"  regions = array { at = \"after\", skip = { { \"storage\", 16 }, "
	"{ \"nsucc\", 32 } }, count = \"nregions\", of = \"Region\" } },\n"
	"  text = \"{res*, }{?more}, {more*, }{/} [{succ*, }] {regions*, }\" }\n";

// Arrays before their struct (in order, and reversed), behind a pointer
// before it when a flag says so, after it past fields' worth of bytes,
// and a zip of two of them, as LLVM and MLIR keep operands, results,
// successors and regions.
static void
test_arrays_around_the_struct(void **state)
{
	struct unit_layout_fixture *f = *state;
	place_types(&f->ft);
	unit_layout_load(&f->ft.target, place_layout, "p.lua", &f->lo);
	Val v[5] = { { 10 }, { 11 }, { 12 }, { 13 }, { 14 } };

	// three Uses, then the User
	struct { Use u[3]; User user; } co = {
		.u = { { &v[0], 0, 0, 0 }, { &v[1], 0, 0, 0 },
		       { &v[2], 0, 0, 0 } },
		.user = { .nops = 3, .id = 7 } };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&co.user,
			   "%7 = op %10, %11, %12 (#3)", 0, "");

	// a PHI: the pointer to its Uses just before it; ReservedSpace Uses,
	// then the blocks of the incoming values
	struct { Use u[3]; Val *blocks[3]; } hung = {
		.u = { { &v[3], 0, 0, 0 }, { &v[4], 0, 0, 0 } },
		.blocks = { &v[0], &v[1], NULL } };
	struct { Use *uses; User user; } phi = {
		hung.u, { .nops = 2, .hung = 1, .reserved = 3, .id = 8 } };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&phi.user,
			   "%8 = op %13, %14 phi [ %13, %10 ], [ %14, %11 ] "
			   "(#2)", 0, "");
	// the pointer before it NULL, or unreadable: said, the rest goes on
	struct { Use *uses; User user; } null = {
		NULL, { .nops = 1, .hung = 1, .id = 9 } };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&null.user,
			   "%9 = op <null> phi <null> (#<none>)", 2,
			   "NULL array with a count of 1");
	char *pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(pages != MAP_FAILED);
	assert_int_equal(mprotect(pages, 4096, PROT_NONE), 0);
	User *lone = (User *)(pages + 4096);
	*lone = (User){ .nops = 1, .hung = 1, .id = 6 };
	char want[128];
	snprintf(want, sizeof(want), "%%6 = op <unreadable %p> phi "
		 "<unreadable %p> (#<none>)", (void *)(pages + 4088),
		 (void *)(pages + 4088));
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)lone, want,
			   2, "unreadable pointer at");
	munmap(pages, 8192);

	// an op of 8 results: six inline ones (the first nearest the op),
	// two out-of-line ones before those; an operand storage, two
	// successors and two regions after it
	struct {
		OutRes out[2];
		Res in[6];
		Op op;
		char storage[16];
		Succ succ[2];
		Region regions[2];
	} mop = {
		.out = { { 0, 107, 1 }, { 0, 106, 0 } },
		.in = { { 0, 5 }, { 0, 4 }, { 0, 3 }, { 0, 2 }, { 0, 1 },
			{ 0, 0 } },
		.op = { .nres = 8, .nsucc = 2, .nregions = 2, .storage = 1 },
		.succ = { { .block = 1 }, { .block = 2 } },
		.regions = { { .id = 30 }, { .id = 31 } } };
	assert_render_as(f, (uintptr_t)&mop.op, "Op", "r0, r1, r2, r3, r4, "
			 "r5, o106, o107 [^bb1, ^bb2] ({30}), ({31})", 0);
	mop.op = (Op){ .nres = 2, .nsucc = 1, .nregions = 1 };
	memcpy((char *)(&mop.op + 1), &mop.succ[1], sizeof(Succ));
	memcpy((char *)(&mop.op + 1) + sizeof(Succ), &mop.regions[1],
	       sizeof(Region));
	assert_render_as(f, (uintptr_t)&mop.op, "Op", "r0, r1 [^bb2] ({31})",
			 0);
}

// Loading @p src as e.lua fails with a message holding @p want and
// @p where (@p want empty: it loads).
static void
expect_load(struct unit_layout_fixture *f, const char *src, const char *where,
	    const char *want)
{
	struct irs_error *err = unit_layout_try(&f->ft.target, src, "e.lua",
						&f->lo);
	if (!*want) {
		assert_null(err);
		return;
	}
	assert_non_null(err);
	if (!strstr(irs_error_get_message(err), want) ||
	    !strstr(irs_error_get_message(err), where))
		fail_msg("%s: got %s", want, irs_error_get_message(err));
	irs_error_destroy(err);
}

// LLVM's CallBase with operand bundles: below its Uses, a size_t of
// descriptor bytes (there only when a flag says so), below that the
// bundles, each naming the operands [first, last) it takes.
typedef struct Call {
	uint32_t nops : 27;
	uint32_t desc : 1;
	int id;
} Call;
typedef struct Bundle {
	const char *tag;
	uint32_t first, last;
} Bundle;

static const char bundle_layout[] =
	"layout { name = \"b\", root = \"Call\" }\n"
	"struct \"Val\" { fields = { id = scalar \"id\" }, ref = \"%{id}\" }\n"
	"struct \"Use\" { node = false, fields = { val = ref(\"val\", "
	"\"Val\") }, text = \"{val}\" }\n"
	"struct \"Desc\" { size = 8, node = false, fields = { bytes = "
	"u64(0) } }\n"
	"struct \"Bundle\" { size = 16, node = false, fields = {\n"
	"  tag = cstr(0), first = u32(8), last = u32(12) },\n"
	"  text = '\"{tag}\"({^Call.args[first:last]*, })' }\n"
	"struct \"Call\" { fields = {\n"
	"  hasdesc = scalar \"desc\",\n"
	"  ops = array { at = \"before\", count = \"nops\", of = \"Use\" },\n"
	"  desc = array { at = \"before\", skip = { { \"nops\", 32 } }, "
	"count = \"desc\", of = \"Desc\" },\n"
	"  bundles = array { at = \"before\", skip = { 8, { \"nops\", 32 } },"
	" present = \"hasdesc\", length = \"desc[0].bytes\", divide = 16, "
	"of = \"Bundle\" },\n"
	"  args = zip { count = \"nops\", drop = 1, text = \"{u}\", of = {\n"
	"    u = { at = \"before\", skip = 32, of = \"Use\" } } } },\n"
	"  text = \"call {ops[-1]}({args[:bundles[0].first]*, })"
	"{?bundles} [ {bundles*, } ]{/} #{=#args[1:last]}\" }\n";

// A sequence present only when its owner says so, sized by a word below
// another placed sequence, and slices whose bounds are fields: the
// arguments of a call end where its first bundle's operands begin, and
// each bundle prints the operands it names.
static void
test_bundles_below_the_operands(void **state)
{
	struct unit_layout_fixture *f = *state;
	place_types(&f->ft);
	FAKE_TYPE(&f->ft, Call);
	FAKE_BITFIELD(&f->ft, Call, nops, IRS_TYPE_UINT);
	FAKE_BITFIELD(&f->ft, Call, desc, IRS_TYPE_UINT);
	FAKE_INT(&f->ft, Call, id);
	struct irs_error *err = unit_layout_try(&f->ft.target, bundle_layout,
						"b.lua", &f->lo);
	// #args[1:last]: a bound names a field of the template's struct
	assert_non_null(err);
	assert_non_null(strstr(irs_error_get_message(err), "last"));
	irs_error_destroy(err);
	char src[sizeof(bundle_layout)];
	snprintf(src, sizeof(src), "%s", bundle_layout);
	*strstr(src, " #{=#args[1:last]}") = '\0';
	strcat(src, "\" }\n");
	unit_layout_load(&f->ft.target, src, "b.lua", &f->lo);
	Val v[5] = { { 10 }, { 11 }, { 12 }, { 13 }, { 14 } };

	// no descriptor: every operand but the callee is an argument
	struct { Use u[3]; Call call; } plain = {
		.u = { { &v[0], 0, 0, 0 }, { &v[1], 0, 0, 0 },
		       { &v[2], 0, 0, 0 } },
		.call = { .nops = 3, .id = 1 } };
	unit_assert_render(f->lo, fake_memory(&f->ft),
			   (uintptr_t)&plain.call, "call %12(%10, %11)", 0,
			   "");

	// two bundles: the argument, then [1, 3) and [3, 4), then the callee
	struct { Bundle b[2]; uint64_t bytes; Use u[5]; Call call; } bun = {
		.b = { { "align", 1, 3 }, { "deopt", 3, 4 } },
		.bytes = 2 * sizeof(Bundle),
		.u = { { &v[0], 0, 0, 0 }, { &v[1], 0, 0, 0 },
		       { &v[2], 0, 0, 0 }, { &v[3], 0, 0, 0 },
		       { &v[4], 0, 0, 0 } },
		.call = { .nops = 5, .desc = 1, .id = 2 } };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&bun.call,
			   "call %14(%10) [ \"align\"(%11, %12), "
			   "\"deopt\"(%13) ]", 0, "");

	// the flag clear: the words below the Uses are not read as bundles
	bun.call.desc = 0;
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&bun.call,
			   "call %14(%10, %11, %12, %13)", 0, "");
}

// What a present or a slice's bound may be, said at the layout's line.
static void
test_present_and_bound_errors(void **state)
{
	struct unit_layout_fixture *f = *state;
	place_types(&f->ft);
	static const struct { const char *text, *array, *error; } cases[] = {
		{ "{ops[0:nosuch]*, }", "", "unknown field 'nosuch'" },
		{ "{ops[id]}", "", "a field gives a slice's bounds only" },
		{ "{ops[0:ops]*, }", "", "is a sequence, not an integer" },
		{ "{ops*, }", "present = \"nosuch\"", "present 'nosuch'" },
		{ "{ops[:ops[:ops[:ops[:ops[:ops[:id]]]]]]*, }", "",
		  "nested more than 4 deep" },
		{ "{ops[0:id]*, }{ops[hung:]*, }", "present = \"hung\"", "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char src[1024];
		snprintf(src, sizeof(src),
			 "layout { name = \"p\", root = \"User\" }\n"
			 "struct \"Use\" { node = false, fields = {} }\n"
			 "struct \"User\" { fields = { id = scalar \"id\", "
			 "hung = scalar \"hung\",\n"
			 " ops = array { at = \"before\", count = \"nops\", "
			 "of = \"Use\", %s } },\n text = \"%s\" }\n",
			 cases[i].array, cases[i].text);
		expect_load(f, src, "e.lua:", cases[i].error);
	}
}

// A key after a fixed header (StringMapEntry<V>: the key's length, the
// value, then the chars) and two strings after a struct, the second past
// the first and its NUL (StringAttributeImpl's kind and value).
typedef struct Entry {
	uint64_t keyLength;
	uint64_t value;
} Entry;
typedef struct StrAttr {
	uint32_t kind_size, val_size;
} StrAttr;

static void
test_chars_after_the_struct(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct fake_target *ft = &f->ft;
	FAKE_TYPE(ft, Entry);
	FAKE_UINT(ft, Entry, keyLength);
	FAKE_UINT(ft, Entry, value);
	FAKE_TYPE(ft, StrAttr);
	FAKE_UINT(ft, StrAttr, kind_size);
	FAKE_UINT(ft, StrAttr, val_size);
	unit_layout_load(&ft->target,
		"layout { name = \"k\", root = \"Entry\" }\n"
		"struct \"Entry\" { fields = { value = scalar \"value\",\n"
		"  key = chars({ at = \"after\" }, \"keyLength\") },\n"
		"  text = \"{key:llvm_name}={value}{?key} set{/}\" }\n"
		"struct \"StrAttr\" { fields = {\n"
		"  kind = chars({ at = \"after\" }, \"kind_size\"),\n"
		"  val = chars({ at = \"after\", skip = { { \"kind_size\", 1 }, "
		"1 } }, \"val_size\") },\n"
		"  text = \"{kind:quoted}{?val}={val:quoted}{/}\" }\n",
		"k.lua", &f->lo);
	struct { Entry e; char key[8]; } e = { { 5, 42 }, "a.b c" };
	assert_render_as(f, (uintptr_t)&e, "Entry", "\"a.b c\"=42 set", 0);
	e.e.keyLength = 0;
	assert_render_as(f, (uintptr_t)&e, "Entry", "\"\"=42", 0);
	struct { StrAttr a; char chars[16]; } sa = {
		{ 9, 3 }, "frame-ptr\0all" };
	assert_render_as(f, (uintptr_t)&sa, "StrAttr",
			 "\"frame-ptr\"=\"all\"", 0);
	sa.a.val_size = 0;
	assert_render_as(f, (uintptr_t)&sa, "StrAttr", "\"frame-ptr\"", 0);
}

/* {====================================================== casts */

// A Value hierarchy as LLVM's: SubclassID picks the class; instructions
// (SubclassID at InstructionVal and above) are in a list of their block,
// and refer to each other and to constants as Values.
enum ValueTy { ArgumentVal, ConstIntVal, BlockVal, InstructionVal = 10 };
typedef struct Value {
	uint8_t id;
	uint8_t pad[7];
	struct Value *next;
} Value;
typedef struct ConstInt {
	Value v;
	int64_t val;
} ConstInt;
typedef struct Inst {
	Value v;
	Value *ops[2];
	int num;
} Inst;
typedef struct Fn {
	Value *first;
} Fn;

// MLIR's types: a storage points at its abstract type, which holds the
// TypeID, the address of a static that a getter returns with lea.
typedef struct Abstract {
	uint64_t dialect;
	const void *typeID;
} Abstract;
typedef struct Storage {
	const Abstract *abstract;
	uint32_t width;
} Storage;
typedef struct Holder {
	const Storage *type;
} Holder;

static void
cast_types(struct fake_target *ft)
{
	FAKE_TYPE(ft, Value);
	FAKE_ENUM(ft, Value, id, "ValueTy");
	FAKE_PTR(ft, Value, next, "Value");
	FAKE_TYPE(ft, ConstInt);
	FAKE_INT(ft, ConstInt, val);
	FAKE_TYPE(ft, Inst);
	FAKE_INT(ft, Inst, num);
	FAKE_ARRAY(ft, Inst, ops, "Value *");
	FAKE_TYPE(ft, Fn);
	FAKE_PTR(ft, Fn, first, "Value");
	fake_enumerator(ft, "ValueTy", "ArgumentVal", ArgumentVal);
	fake_enumerator(ft, "ValueTy", "ConstIntVal", ConstIntVal);
	fake_enumerator(ft, "ValueTy", "BlockVal", BlockVal);
	fake_enumerator(ft, "ValueTy", "InstructionVal", InstructionVal);
	FAKE_TYPE(ft, Abstract);
	FAKE_PTR(ft, Abstract, typeID, "void");
	FAKE_TYPE(ft, Storage);
	FAKE_PTR(ft, Storage, abstract, "Abstract");
	FAKE_UINT(ft, Storage, width);
	FAKE_TYPE(ft, Holder);
	FAKE_PTR(ft, Holder, type, "Storage");
}

static const char cast_layout[] =
	"layout { name = \"v\", root = \"Fn\" }\n"
	"struct \"Value\" { fields = { id = enum \"id\" },\n"
	"  cast = { by = \"id\", cases = { ConstIntVal = \"ConstInt\",\n"
	"           [10] = \"Add\", [11] = \"Ret\" }, default = \"Arg\" },\n"
	"  text = \"?\" }\n"
	"struct \"Arg\" { ctype = \"Value\", fields = {}, ref = \"%arg\" }\n"
	"struct \"ConstInt\" { fields = { val = scalar \"val\" }, ref = "
	"\"{val}\" }\n"
	"struct \"Add\" { ctype = \"Inst\", fields = { num = scalar \"num\",\n"
	"  a = ref(\"ops[0]\", \"Value\"), b = ref(\"ops[1]\", \"Value\") },\n"
	"  text = \"  %{num} = add {a}, {b}\\n\", ref = \"%{num}\" }\n"
	"struct \"Ret\" { ctype = \"Inst\", fields = { a = ref(\"ops[0]\", "
	"\"Value\") },\n"
	"  text = \"  ret {a}\\n\" }\n"
	"struct \"Fn\" { fields = { insts = list { head = \"first\", of = "
	"\"Value\", link = \"next\" } },\n"
	"  text = \"{insts}\" }\n";

// A node's struct chosen by its own tag: list elements declared as the
// base render as the class the tag names, references to a base as their
// class's ref, the JSON records carry the class; a tag no case names
// takes the default.
static void
test_cast_by_tag(void **state)
{
	struct unit_layout_fixture *f = *state;
	cast_types(&f->ft);
	unit_layout_load(&f->ft.target, cast_layout, "v.lua", &f->lo);
	Value arg = { .id = ArgumentVal };
	ConstInt k = { { .id = ConstIntVal }, 42 };
	Inst ret = { { .id = InstructionVal + 1 }, { NULL, NULL }, 0 };
	Inst add = { { .id = InstructionVal, .next = &ret.v },
		     { &arg, &k.v }, 3 };
	ret.ops[0] = &add.v;
	Fn fn = { &add.v };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&fn,
			   "  %3 = add %arg, 42\n  ret %3\n", 0, "");
	// the records name the classes
	char *json;
	size_t jlen;
	FILE *jf = open_memstream(&json, &jlen);
	struct irs_snapshot *snap;
	assert_null(irs_snapshot_stream(f->lo, fake_memory(&f->ft),
					(uintptr_t)&fn, NULL, NULL, NULL, jf,
					"v.ir", &snap));
	fclose(jf);
	irs_snapshot_destroy(snap);
	assert_non_null(strstr(json, "\"type\":\"Add\""));
	assert_non_null(strstr(json, "\"type\":\"Ret\""));
	free(json);
	// an unknown tag: the default
	add.v.id = 7;
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&fn,
			   "  ret %arg\n", 0, "");
}

// Tags that are addresses the debuggee fixed when it loaded: MLIR's
// TypeIDs, the address of a static that TypeIDExported::get<T>()
// returns with lea (decoded from its code, after an endbr64 or not), or
// the pointer stored in a symbol. An address that cannot be found is one
// walk error; the node keeps its declared struct.
static char tid_int, tid_float;
static void
test_cast_by_address(void **state)
{
	struct unit_layout_fixture *f = *state;
	cast_types(&f->ft);
	// the getters' code: lea disp32(%rip), %rax; ret
	static unsigned char code[2][16];
	for (int i = 0; i < 2; i++) {
		unsigned char *c = code[i];
		unsigned off = i ? 4 : 0;
		if (i)
			memcpy(c, "\xf3\x0f\x1e\xfa", 4);
		c[off] = 0x48;
		c[off + 1] = 0x8d;
		c[off + 2] = 0x05;
		int32_t disp = (int32_t)((intptr_t)&tid_int -
					 ((intptr_t)c + off + 7));
		memcpy(c + off + 3, &disp, 4);
		c[off + 7] = 0xc3;
	}
	static const void *float_id = &tid_float;
	fake_elf_symbol(&f->ft, "get<IntegerType>()", (uintptr_t)code[0]);
	fake_elf_symbol(&f->ft, "get<IndexType>()", (uintptr_t)code[1]);
	fake_elf_symbol(&f->ft, "FloatType::id", (uintptr_t)&float_id);
	fake_elf_symbol(&f->ft, "no_lea", (uintptr_t)&tid_float);
	unit_layout_load(&f->ft.target,
		"layout { name = \"m\", root = \"Holder\" }\n"
		"struct \"Abstract\" { fields = { id = u64 \"typeID\" } }\n"
		"struct \"Storage\" { fields = { abstract = ptr(\"abstract\", "
		"\"Abstract\") },\n"
		"  cast = { by = \"abstract.id\", cases = {\n"
		"    [address { lea = \"get<IntegerType>()\" }] = \"Int\",\n"
		"    [address { load = \"FloatType::id\" }] = \"Float\" } },\n"
		"  text = \"<unknown type>\" }\n"
		"struct \"Int\" { ctype = \"Storage\", fields = { width = scalar "
		"\"width\" }, text = \"i{width}\" }\n"
		"struct \"Float\" { ctype = \"Storage\", fields = {}, text = "
		"\"f32\" }\n"
		"struct \"Holder\" { fields = { type = ptr(\"type\", "
		"\"Storage\") }, text = \"{type}\" }\n", "m.lua", &f->lo);
	Abstract ai = { 0, &tid_int }, af = { 0, &tid_float };
	Storage si = { &ai, 32 }, sf = { &af, 0 };
	Holder h = { &si };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&h, "i32", 0,
			   "");
	h.type = &sf;
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&h, "f32", 0,
			   "");
	// the second getter starts with endbr64 and names int's too
	unit_layout_load(&f->ft.target,
		"layout { name = \"m\", root = \"Holder\" }\n"
		"struct \"Abstract\" { fields = { id = u64 \"typeID\" } }\n"
		"struct \"Storage\" { fields = { abstract = ptr(\"abstract\", "
		"\"Abstract\") },\n"
		"  cast = { by = \"abstract.id\", cases = {\n"
		"    [address { lea = \"no_lea\" }] = \"Float\",\n"
		"    [address { lea = \"get<IndexType>()\" }] = \"Int\",\n"
		"    [address { symbol = \"missing\" }] = \"Float\" } },\n"
		"  text = \"<unknown type>\" }\n"
		"struct \"Int\" { ctype = \"Storage\", fields = { width = scalar "
		"\"width\" }, text = \"index{width}\" }\n"
		"struct \"Float\" { ctype = \"Storage\", fields = {}, text = "
		"\"f32\" }\n"
		"struct \"Holder\" { fields = { type = ptr(\"type\", "
		"\"Storage\") }, text = \"{type}\" }\n", "m.lua", &f->lo);
	h.type = &si;
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&h,
			   "index32", 2, "");
	h.type = &sf;
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&h,
			   "<unknown type>", 2, "");
}

/* }====================================================== */

/* {====================================================== lookups */

// LLVM's context keeps value names in a DenseMap<const Value *,
// StringMapEntry<Value *> *> and metadata kind names in a
// StringMap<unsigned>, searched by value.
typedef struct DMap {
	uint64_t *buckets;	// pairs { key, value }
	uint32_t entries, tombstones, nbuckets;
} DMap;
typedef struct SMap {
	void **table;
	uint32_t nbuckets, items, tombstones, itemsize;
} SMap;
typedef struct Ctx {
	DMap names;
	SMap kinds;
} Ctx;
typedef struct Node {
	Ctx *ctx;
	uint32_t kind;
} Node;
typedef struct NameEntry {
	uint64_t len;
	uint64_t value;
} NameEntry;		// its key's chars follow it
typedef struct KeyedEntry {
	NameEntry e;
	char key[16];
} KeyedEntry;

static const uint64_t dm_empty = (uint64_t)-1 << 12;
static const uint64_t dm_tomb = (uint64_t)-2 << 12;

// Inserts @p key -> @p value as LLVM's DenseMap does.
static void
dmap_put(DMap *m, const void *key, const void *value)
{
	uint64_t k = (uintptr_t)key;
	uint32_t b = (((uint32_t)k >> 4) ^ ((uint32_t)k >> 9)) &
		     (m->nbuckets - 1);
	for (uint32_t step = 1; m->buckets[2 * b] != dm_empty &&
	     m->buckets[2 * b] != dm_tomb;
	     b = (b + step++) & (m->nbuckets - 1))
		;
	m->buckets[2 * b] = k;
	m->buckets[2 * b + 1] = (uintptr_t)value;
}

// A value's name from the context's DenseMap (its own address the key,
// colliding keys found by quadratic probing past a tombstone), a kind's
// name from a StringMap by its value; a key not in the map renders
// nothing and is false.
static void
test_lookup_in_hash_maps(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct fake_target *ft = &f->ft;
	FAKE_TYPE(ft, Ctx);
	FAKE_STRUCT(ft, Ctx, names, "DMap");
	FAKE_STRUCT(ft, Ctx, kinds, "SMap");
	FAKE_TYPE(ft, Node);
	FAKE_PTR(ft, Node, ctx, "Ctx");
	FAKE_UINT(ft, Node, kind);
	FAKE_TYPE(ft, NameEntry);
	FAKE_UINT(ft, NameEntry, len);
	unit_layout_load(&ft->target,
		"local llvm = require \"irsnap.llvm\"\n"
		"layout { name = \"l\", root = \"Node\" }\n"
		"struct \"DenseMap\" (llvm.densemap_struct())\n"
		"struct \"StringMap\" (llvm.stringmap_struct())\n"
		"struct \"Ctx\" { node = false, fields = {\n"
		"  names = embed(\"names\", \"DenseMap\"),\n"
		"  kinds = embed(\"kinds\", \"StringMap\") } }\n"
		"struct \"Name\" { ctype = \"NameEntry\", node = false, fields "
		"= {\n"
		"  key = chars({ at = \"after\" }, \"len\") }, text = \"{key}\" }\n"
		"struct \"Node\" { fields = { ctx = ptr(\"ctx\", \"Ctx\"),\n"
		"  name = llvm.densemap { map = \"ctx.names\", of = ptr "
		"\"Name\" },\n"
		"  kname = llvm.stringmap_find { map = \"ctx.kinds\", key = "
		"\"kind\", of = ptr \"Name\" },\n"
		"  kind = u32 \"kind\" },\n"
		"  text = \"{?name}%{name:llvm_name}{:}unnamed{/} !{kname}\" }\n",
		"l.lua", &f->lo);
	KeyedEntry e[3] = { { { 3, 0 }, "sum" }, { { 4, 0 }, "a.b$" },
			    { { 3, 7 }, "dbg" } };
	Node nodes[40];
	uint64_t buckets[2 * 64];
	for (int i = 0; i < 64; i++)
		buckets[2 * i] = dm_empty;
	Ctx ctx = { { buckets, 0, 0, 64 }, { (void **)0, 0, 0, 0, 16 } };
	void *table[8] = { NULL, (void *)(intptr_t)-8, &e[1], NULL,
			   &e[2], NULL, NULL, NULL };
	ctx.kinds.table = table;
	ctx.kinds.nbuckets = 8;
	for (int i = 0; i < 40; i++)
		nodes[i] = (Node){ &ctx, 7 };
	// a tombstone where node 5 would land first: probing goes past it
	uint32_t b5 = (((uint32_t)(uintptr_t)&nodes[5] >> 4) ^
		       ((uint32_t)(uintptr_t)&nodes[5] >> 9)) & 63;
	buckets[2 * b5] = dm_tomb;
	for (int i = 0; i < 40; i++)
		if (i != 9)
			dmap_put(&ctx.names, &nodes[i], &e[i % 2]);
	for (int i = 0; i < 40; i++) {
		const char *want = i == 9 ? "unnamed !dbg" : i % 2
			? "%\"a.b$\" !dbg" : "%sum !dbg";
		unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&nodes[i],
				   want, 0, "");
	}
	// a kind no entry has; a count that is no power of two
	nodes[0].kind = 3;
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&nodes[0],
			   "%sum !", 0, "");
	ctx.names.nbuckets = 48;
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&nodes[0],
			   "unnamed !", 1, "48 buckets is no power of two");
}

/* }====================================================== */

/* {====================================================== select */

// LLVM's blocks: a block's uses, a list through Use::next, each naming
// its user; a terminator's parent is the block it ends.
typedef struct SBlock SBlock;
typedef struct SInst {
	uint32_t op;		// >= 100: a terminator
	SBlock *parent;
} SInst;
typedef struct SUse {
	SBlock *val;
	struct SUse *next;
	SInst *user;
} SUse;
struct SBlock {
	int num;
	SUse *uses;
};

static void
select_types(struct fake_target *ft)
{
	FAKE_TYPE(ft, SInst);
	FAKE_UINT(ft, SInst, op);
	FAKE_PTR(ft, SInst, parent, "SBlock");
	FAKE_TYPE(ft, SUse);
	FAKE_PTR(ft, SUse, next, "SUse");
	FAKE_PTR(ft, SUse, user, "SInst");
	FAKE_TYPE(ft, SBlock);
	FAKE_INT(ft, SBlock, num);
	FAKE_PTR(ft, SBlock, uses, "SUse");
}

// The layout of the select tests, up to SBlock's derived fields.
#define SELECT_HEAD \
	"layout { name = \"s\", root = \"SBlock\" }\n" \
	"struct \"SInst\" { fields = { op = scalar \"op\",\n" \
	"  parent = ref(\"parent\", \"SBlock\") } }\n" \
	"struct \"SUse\" { node = false, fields = {\n" \
	"  user = ref(\"user\", \"SInst\") } }\n" \
	"struct \"SBlock\" { fields = { num = scalar \"num\",\n" \
	"  uses = list { head = \"uses\", of = \"SUse\", link = " \
	"\"next\" },\n"

// A block's predecessors: its uses whose user is a terminator, mapped to
// the terminator's block, in use-list order with repeats (LLVM), or
// sorted by block number (MLIR); a count, a test and an empty one.
static void
test_select_filter_map_sort(void **state)
{
	struct unit_layout_fixture *f = *state;
	select_types(&f->ft);
	unit_layout_load(&f->ft.target,
		SELECT_HEAD
		"  preds = derived { from = \"uses\", where = \"user.op >= 100\","
		"\n    map = \"user.parent\", of = ref \"SBlock\" },\n"
		"  sorted = derived { from = \"uses\", where = \"user.op >= 100\","
		"\n    map = \"user.parent\", sort = \"num\", of = ref "
		"\"SBlock\" } },\n"
		"  ref = \"%{num}\",\n"
		"  text = \"{?preds}{=#preds}: {preds*, } | {sorted*, }{:}none{/}"
		"\" }\n", "s.lua", &f->lo);
	SBlock b[4] = { { 4, NULL }, { 2, NULL }, { 7, NULL }, { 1, NULL } };
	SInst br2 = { 100, &b[1] }, br7 = { 101, &b[2] }, sw1 = { 102, &b[3] };
	SInst add = { 5, &b[2] };
	SUse u[5] = { { &b[0], &u[1], &br7 }, { &b[0], &u[2], &add },
		      { &b[0], &u[3], &br2 }, { &b[0], &u[4], &sw1 },
		      { &b[0], NULL, &br7 } };
	b[0].uses = &u[0];
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&b[0],
			   "4: %7, %2, %1, %7 | %1, %2, %7, %7", 0, "");
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&b[1],
			   "none", 0, "");
	// the record: references to the blocks, in order
	char *json;
	size_t jlen;
	FILE *jf = open_memstream(&json, &jlen);
	struct irs_snapshot *snap;
	assert_null(irs_snapshot_stream(f->lo, fake_memory(&f->ft),
					(uintptr_t)&b[0], NULL, NULL, NULL, jf,
					"s.ir", &snap));
	fclose(jf);
	irs_snapshot_destroy(snap);
	json_t *doc = json_loadb(json, jlen, 0, NULL);
	assert_non_null(doc);
	json_t *node = json_array_get(json_object_get(doc, "nodes"), 0);
	json_t *preds = json_object_get(json_object_get(node, "fields"),
					"preds");
	assert_int_equal(json_array_size(preds), 4);
	char id[32];
	snprintf(id, sizeof(id), "%p", (void *)&b[3]);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(preds, 2), "ref")), id);
	json_decref(doc);
	free(json);
}

// A sorted derived sequence with nothing in it, computed before any other
// in the walk: nothing to order, nothing read (its buffer is not there
// yet, and a sanitized build says so if it is touched).
static void
test_select_sort_empty(void **state)
{
	struct unit_layout_fixture *f = *state;
	select_types(&f->ft);
	unit_layout_load(&f->ft.target,
		SELECT_HEAD
		"  sorted = derived { from = \"uses\", map = \"user.parent\",\n"
		"    sort = \"num\", of = ref \"SBlock\" } },\n"
		"  ref = \"%{num}\", text = \"{=#sorted} [{sorted*, }]\" }\n",
		"s.lua", &f->lo);
	SBlock alone = { 3, NULL };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&alone,
			   "0 []", 0, "");
}

/* }====================================================== */

/* {====================================================== numberings */

// A function as LLVM's: arguments, blocks of instructions, each named or
// not, instructions of type void or not; metadata nodes with operands,
// shared and cyclic, some never numbered (DIExpression).
typedef struct NInst {
	const char *name;
	int isvoid;
	struct NMd *md;
	struct NInst *next;
} NInst;
typedef struct NBlock {
	const char *name;
	NInst *insts;
	struct NBlock *next;
} NBlock;
typedef struct NMd {
	int expr;		// an expression: printed inline, never numbered
	uint32_t nops;
	struct NMd **ops;
} NMd;
typedef struct NFn {
	NInst *args;
	uint32_t nargs;
	NBlock *blocks;
	NMd *own;
} NFn;

static void
num_fn_types(struct fake_target *ft)
{
	FAKE_TYPE(ft, NInst);
	FAKE_PTR(ft, NInst, name, "char");
	FAKE_INT(ft, NInst, isvoid);
	FAKE_PTR(ft, NInst, md, "NMd");
	FAKE_PTR(ft, NInst, next, "NInst");
	FAKE_TYPE(ft, NBlock);
	FAKE_PTR(ft, NBlock, name, "char");
	FAKE_PTR(ft, NBlock, insts, "NInst");
	FAKE_PTR(ft, NBlock, next, "NBlock");
	FAKE_TYPE(ft, NMd);
	FAKE_INT(ft, NMd, expr);
	FAKE_UINT(ft, NMd, nops);
	FAKE_PTR(ft, NMd, ops, "NMd *");
	FAKE_TYPE(ft, NFn);
	FAKE_PTR(ft, NFn, args, "NInst");
	FAKE_UINT(ft, NFn, nargs);
	FAKE_PTR(ft, NFn, blocks, "NBlock");
	FAKE_PTR(ft, NFn, own, "NMd");
}

static const char num_fn_layout[] =
	"layout { name = \"f\", root = \"NFn\" }\n"
	"struct \"NMd\" { fields = { expr = scalar \"expr\",\n"
	"  ops = array { ptr = \"ops\", count = \"nops\", of = ref "
	"\"NMd\" },\n"
	"  n = num \"md\" },\n"
	"  ref = \"{?expr}!E({ops*, }){:}!{n}{/}\" }\n"
	"struct \"NInst\" { fields = { name = cstr \"name\", isvoid = scalar "
	"\"isvoid\",\n"
	"  md = ref(\"md\", \"NMd\"), slot = num \"slot\" },\n"
	"  ref = \"%{?name}{name}{:}{slot}{/}\",\n"
	"  text = \"  {?isvoid}{:}{@ref} = {/}i{?md}, !x {md}{/}\\n\" }\n"
	"struct \"NBlock\" { fields = { name = cstr \"name\",\n"
	"  insts = list { head = \"insts\", of = \"NInst\", link = "
	"\"next\" },\n"
	"  slot = num \"slot\" },\n"
	"  text = \"{?name}{name}{:}{slot}{/}:\\n{insts}\" }\n"
	"struct \"NFn\" { fields = {\n"
	"  args = array { ptr = \"args\", count = \"nargs\", of = "
	"\"NInst\" },\n"
	"  blocks = list { head = \"blocks\", of = \"NBlock\", link = "
	"\"next\" },\n"
	"  own = ref(\"own\", \"NMd\") },\n"
	"  text = \"f({@args*, }) !f {own}\\n{blocks}\" }\n"
	"numbering \"slot\" { scope = \"NFn\",\n"
	"  { \"args\", when = \"not name\" },\n"
	"  { \"blocks\", when = \"not name\",\n"
	"    { \"insts\", when = \"not name and not isvoid\" } } }\n"
	"numbering \"md\" { scope = \"NFn\",\n"
	"  { \"own\", only = \"not expr\", { \"ops\", only = \"not expr\", "
	"recurse = true } },\n"
	"  { \"blocks\", number = false, { \"insts\", number = false,\n"
	"    { \"md\", only = \"not expr\", { \"ops\", only = \"not expr\","
	" recurse = true } } } } }\n";

// LLVM's slot tracker: unnamed arguments, blocks and non-void
// instructions numbered in order; metadata by first use, depth first
// through operands, shared and cyclic nodes once, expressions never.
static void
test_numbering_slots_and_metadata(void **state)
{
	struct unit_layout_fixture *f = *state;
	num_fn_types(&f->ft);
	unit_layout_load(&f->ft.target, num_fn_layout, "f.lua", &f->lo);
	NMd leaf = { 0, 0, NULL }, expr = { 1, 0, NULL };
	NMd *cyc_ops[2];
	NMd cyc = { 0, 2, cyc_ops };
	cyc_ops[0] = &cyc;		// a cycle back to itself
	cyc_ops[1] = &leaf;
	NMd *top_ops[3] = { &expr, &cyc, &leaf };
	NMd top = { 0, 3, top_ops };
	NMd *loc_ops[1] = { &leaf };
	NMd loc = { 0, 1, loc_ops };
	NInst i3 = { NULL, 1, &expr, NULL };
	NInst i2 = { "x", 0, &loc, &i3 };
	NInst i1 = { NULL, 1, &top, &i2 };
	NInst i0 = { NULL, 0, NULL, &i1 };
	NBlock b1 = { NULL, &i3, NULL };
	i2.next = NULL;
	NBlock b0 = { "entry", &i0, &b1 };
	NInst args[3] = { { NULL, 0, NULL, NULL }, { "p", 0, NULL, NULL },
			  { NULL, 0, NULL, NULL } };
	NFn fn = { args, 3, &b0, &loc };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&fn,
			   "f(%0, %p, %1) !f !0\n"
			   "entry:\n  %2 = i\n  i, !x !2\n  %x = i, !x !0\n"
			   "3:\n  i, !x !E()\n", 0, "");
}

// derived { numbering = N }: the nodes N numbered, in the order of their
// numbers (a module's metadata definitions after its functions), those
// that hold `where` alone when it is given.
static void
test_numbering_nodes_in_order(void **state)
{
	static const char layout[] =
		"layout { name = \"f\", root = \"NFn\" }\n"
		"struct \"NMd\" { fields = { expr = scalar \"expr\",\n"
		"  ops = array { ptr = \"ops\", count = \"nops\", of = ref "
		"\"NMd\" },\n"
		"  n = num \"md\" },\n"
		"  ref = \"{?expr}!E{:}!{n}{/}\" }\n"
		"struct \"NMdDef\" { ctype = \"NMd\", fields = {\n"
		"  nops = scalar \"nops\",\n"
		"  ops = array { ptr = \"ops\", count = \"nops\", of = ref "
		"\"NMd\" },\n"
		"  n = num \"md\" },\n"
		"  ref = \"!{n} = !{{{ops*, }}}\\n\" }\n"
		"struct \"NInst\" { fields = { md = ref(\"md\", \"NMd\") } }\n"
		"struct \"NBlock\" { fields = {\n"
		"  insts = list { head = \"insts\", of = \"NInst\", link = "
		"\"next\" } } }\n"
		"struct \"NFn\" { fields = {\n"
		"  blocks = list { head = \"blocks\", of = \"NBlock\", link = "
		"\"next\" },\n"
		"  own = ref(\"own\", \"NMd\"),\n"
		"  defs = derived { numbering = \"md\", of = ref \"NMdDef\" },\n"
		"  some = derived { numbering = \"md\", where = \"nops != 0\",\n"
		"                   of = ref \"NMdDef\" } },\n"
		"  text = \"{defs}--\\n{some}\" }\n"
		"numbering \"md\" { scope = \"NFn\",\n"
		"  { \"own\", only = \"not expr\", { \"ops\", only = \"not expr\", "
		"recurse = true } },\n"
		"  { \"blocks\", number = false, { \"insts\", number = false,\n"
		"    { \"md\", only = \"not expr\", { \"ops\", only = \"not expr\","
		" recurse = true } } } } }\n";
	struct unit_layout_fixture *f = *state;
	num_fn_types(&f->ft);
	unit_layout_load(&f->ft.target, layout, "f.lua", &f->lo);
	NMd leaf = { 0, 0, NULL }, expr = { 1, 0, NULL };
	NMd *cyc_ops[2];
	NMd cyc = { 0, 2, cyc_ops };
	cyc_ops[0] = &cyc;
	cyc_ops[1] = &leaf;
	NMd *top_ops[3] = { &expr, &cyc, &leaf };
	NMd top = { 0, 3, top_ops };
	NMd *loc_ops[1] = { &leaf };
	NMd loc = { 0, 1, loc_ops };
	NInst i1 = { NULL, 1, &top, NULL };
	NInst i0 = { NULL, 0, &expr, &i1 };
	NBlock b0 = { NULL, &i0, NULL };
	NFn fn = { NULL, 0, &b0, &loc };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&fn,
			   "!0 = !{!1}\n!1 = !{}\n!2 = !{!E, !3, !1}\n"
			   "!3 = !{!3, !1}\n--\n"
			   "!0 = !{!1}\n!2 = !{!E, !3, !1}\n!3 = !{!3, !1}\n",
			   0, "");
}

// num "N" { scope = F }: a node numbered in the scope its field F names,
// wherever it is printed: LLVM's blockaddress(@f, %3) names a block by
// its number in f, in a global's initializer (no function around) or in
// another function (whose numbering does not hold it).
typedef struct OFn OFn;
typedef struct OBlock {
	const char *name;
	OFn *fn;
	struct OBlock *next;
} OBlock;
struct OFn {
	OBlock *blocks;
	OBlock *target;
	OFn *next;
};
typedef struct OMod {
	OFn *fns;
	OBlock *addr;
} OMod;

static void
scope_types(struct fake_target *ft)
{
	FAKE_TYPE(ft, OBlock);
	FAKE_PTR(ft, OBlock, name, "char");
	FAKE_PTR(ft, OBlock, fn, "OFn");
	FAKE_PTR(ft, OBlock, next, "OBlock");
	FAKE_TYPE(ft, OFn);
	FAKE_PTR(ft, OFn, blocks, "OBlock");
	FAKE_PTR(ft, OFn, target, "OBlock");
	FAKE_PTR(ft, OFn, next, "OFn");
	FAKE_TYPE(ft, OMod);
	FAKE_PTR(ft, OMod, fns, "OFn");
	FAKE_PTR(ft, OMod, addr, "OBlock");
}

static const char scope_layout[] =
	"layout { name = \"m\", root = \"OMod\" }\n"
	"struct \"OBlock\" { fields = { name = cstr \"name\",\n"
	"  fn = ref(\"fn\", \"OFn\"), slot = num \"slot\" %s },\n"
	"  ref = \"%%{?name}{name}{:}{slot}{/}\", text = \"{@ref}\\n\" }\n"
	"struct \"OFn\" { fields = {\n"
	"  blocks = list { head = \"blocks\", of = \"OBlock\", link = "
	"\"next\" },\n"
	"  target = ref(\"target\", \"OBlock\") },\n"
	"  text = \"f:\\n{blocks} -> {target}\\n\" }\n"
	"struct \"OMod\" { fields = {\n"
	"  fns = list { head = \"fns\", of = \"OFn\", link = \"next\" },\n"
	"  addr = ref(\"addr\", \"OBlock\") },\n"
	"  text = \"blockaddress {addr}\\n{fns}\" }\n"
	"numbering \"slot\" { scope = \"OFn\", { \"blocks\", when = \"not "
	"name\" } }\n";

static void
test_numbering_own_scope(void **state)
{
	struct unit_layout_fixture *f = *state;
	scope_types(&f->ft);
	char src[2048];
	snprintf(src, sizeof(src), scope_layout, "{ scope = \"fn\" }");
	unit_layout_load(&f->ft.target, src, "m.lua", &f->lo);
	OFn f1, f2;
	OBlock c2 = { NULL, &f1, NULL }, c1 = { "e", &f1, &c2 },
	       c0 = { NULL, &f1, &c1 };
	OBlock d2 = { NULL, &f2, NULL }, d1 = { NULL, &f2, &d2 },
	       d0 = { "x", &f2, &d1 };
	f1 = (OFn){ &c0, &d1, &f2 };
	f2 = (OFn){ &d0, &c2, NULL };
	OMod m = { &f1, &d2 };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&m,
			   "blockaddress %1\n"
			   "f:\n%0\n%e\n%1\n -> %0\n"
			   "f:\n%x\n%0\n%1\n -> %1\n", 0, "");
}

// Without it, a block outside any function has no number, and one of
// another function none in this one's; a scope that is no pointer to the
// numbering's scope type is an error at load.
static void
test_numbering_own_scope_needed(void **state)
{
	struct unit_layout_fixture *f = *state;
	scope_types(&f->ft);
	char src[2048];
	snprintf(src, sizeof(src), scope_layout, "");
	unit_layout_load(&f->ft.target, src, "m.lua", &f->lo);
	OFn f1;
	OBlock c0 = { NULL, &f1, NULL };
	f1 = (OFn){ &c0, &c0, NULL };
	OMod m = { &f1, &c0 };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&m,
			   "blockaddress %<none>\nf:\n%0\n -> %0\n", 1,
			   "numbering \"slot\": no enclosing OFn");
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	snprintf(src, sizeof(src), scope_layout, "{ scope = \"name\" }");
	expect_load(f, src, "e.lua:3:",
		    "OBlock.slot: scope 'name' is no ptr or ref field of OBlock "
		    "pointing at a OFn (numbering \"slot\"'s scope)");
}

// claim = true: LLVM's TypeFinder pushes a type's subtypes on a worklist,
// each marked seen as it is pushed, from the last: a type a sibling's
// subtypes reach is listed where its own list has it, and a type listed
// twice where it is listed last. Depth first, A = { G, B, G }, B = { G,
// H } lists A G B H; the worklist A B H G.
typedef struct CTy {
	const char *name;
	uint32_t nsub;
	struct CTy **sub;
} CTy;

static void
test_numbering_claim(void **state)
{
	static const char layout[] =
		"layout { name = \"c\", root = \"CTy\" }\n"
		"struct \"CNode\" { ctype = \"CTy\", fields = { name = cstr "
		"\"name\", n = num \"types\" },\n"
		"  ref = \"{n}{name} \" }\n"
		"struct \"CTy\" { fields = { name = cstr \"name\",\n"
		"  sub = array { ptr = \"sub\", count = \"nsub\", of = ref "
		"\"CTy\" },\n"
		"  all = derived { numbering = \"types\", of = ref \"CNode\" } "
		"},\n"
		"  text = \"{all}\" }\n"
		"numbering \"types\" { scope = \"CTy\",\n"
		"  { \"sub\", recurse = true %s } }\n";
	struct unit_layout_fixture *f = *state;
	FAKE_TYPE(&f->ft, CTy);
	FAKE_PTR(&f->ft, CTy, name, "char");
	FAKE_UINT(&f->ft, CTy, nsub);
	FAKE_PTR(&f->ft, CTy, sub, "CTy *");
	CTy g = { "G", 0, NULL }, h = { "H", 0, NULL };
	CTy *b_sub[2] = { &g, &h };
	CTy b = { "B", 2, b_sub };
	CTy *a_sub[3] = { &g, &b, &g };
	CTy a = { "A", 3, a_sub };
	CTy *root_sub[1] = { &a };
	CTy root = { "root", 1, root_sub };
	char src[1024];
	snprintf(src, sizeof(src), layout, "");
	unit_layout_load(&f->ft.target, src, "c.lua", &f->lo);
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&root,
			   "0A 1G 2B 3H ", 0, "");
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	snprintf(src, sizeof(src), layout, ", claim = true");
	unit_layout_load(&f->ft.target, src, "c.lua", &f->lo);
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&root,
			   "0A 1B 2H 3G ", 0, "");
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	snprintf(src, sizeof(src), layout, ", claim = true, nest = true");
	expect_load(f, src, "e.lua:",
		    "step 'sub' claims its nodes: a sequence, and not nested");
}

// MLIR's operations: regions of blocks of operations; a block's
// arguments, an op's results (one number however many).
typedef struct MOp MOp;
typedef struct MArg {
	int pad;
} MArg;
typedef struct MBlock {
	MArg *args;
	uint32_t nargs;
	MOp *ops;
	struct MBlock *next;
} MBlock;
typedef struct MRegion {
	MBlock *blocks;
} MRegion;
struct MOp {
	const char *name;
	uint32_t nres, nregions;
	MRegion *regions;
	MOp *next;
};

// MLIR's region-stack numbering: each region's values from where its
// parent region's stopped, sibling regions alike; entry blocks' arguments
// %argN on a counter of their own; block numbers per region.
static void
test_numbering_nested_regions(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct fake_target *ft = &f->ft;
	FAKE_TYPE(ft, MArg);
	FAKE_TYPE(ft, MBlock);
	FAKE_PTR(ft, MBlock, args, "MArg");
	FAKE_UINT(ft, MBlock, nargs);
	FAKE_PTR(ft, MBlock, ops, "MOp");
	FAKE_PTR(ft, MBlock, next, "MBlock");
	FAKE_TYPE(ft, MRegion);
	FAKE_PTR(ft, MRegion, blocks, "MBlock");
	FAKE_TYPE(ft, MOp);
	FAKE_PTR(ft, MOp, name, "char");
	FAKE_UINT(ft, MOp, nres);
	FAKE_UINT(ft, MOp, nregions);
	FAKE_PTR(ft, MOp, regions, "MRegion");
	FAKE_PTR(ft, MOp, next, "MOp");
	unit_layout_load(&ft->target,
		"layout { name = \"m\", root = \"MOp\" }\n"
		"struct \"MArg\" { fields = { a = num { \"ssa\", counter = "
		"\"arg\" },\n"
		"  v = num { \"ssa\", counter = \"value\" } },\n"
		"  ref = \"{?a}%arg{a}{:}%{v}{/}\" }\n"
		"struct \"MBlock\" { fields = {\n"
		"  args = array { ptr = \"args\", count = \"nargs\", of = "
		"\"MArg\" },\n"
		"  ops = list { head = \"ops\", of = \"MOp\", link = "
		"\"next\" },\n"
		"  b = num { \"ssa\", counter = \"block\" } },\n"
		"  text = \"^bb{b}({@args*, }): {ops*; }\" }\n"
		"struct \"MRegion\" { node = false, fields = { blocks = list { "
		"head = \"blocks\",\n"
		"  of = \"MBlock\", link = \"next\" } }, text = \"{{{blocks*"
		" }}}\" }\n"
		"struct \"MOp\" { fields = { name = cstr \"name\", nres = "
		"scalar \"nres\",\n"
		"  regions = array { ptr = \"regions\", count = \"nregions\", "
		"of = \"MRegion\" },\n"
		"  n = num { \"ssa\", counter = \"value\" } },\n"
		"  text = \"{?nres}%{n} = {/}{name}{?regions} ({regions*, }){/}\" "
		"}\n"
		"local region = { \"regions\", nest = true, number = false }\n"
		"local ops = { \"ops\", when = \"nres > 0\", counter = "
		"\"value\", region }\n"
		"region[2] = { \"blocks\", counter = \"block\",\n"
		"  { \"args\", guard = \"# == 0\", counter = \"arg\" },\n"
		"  { \"args\", guard = \"# != 0\", counter = \"value\" },\n"
		"  ops }\n"
		"numbering \"ssa\" { scope = \"MOp\", counters = { \"value\", "
		"\"arg\", \"block\" },\n"
		"  reset = { \"block\" }, region }\n", "m.lua", &f->lo);
	MArg a0[2], a1[1];
	MOp y = { "y", 1, 0, NULL, NULL }, x = { "x", 1, 0, NULL, NULL };
	MBlock tb = { NULL, 0, &x, NULL }, eb = { NULL, 0, &y, NULL };
	MRegion ifr[2] = { { &tb }, { &eb } };
	MOp c = { "c", 1, 0, NULL, NULL };
	MOp b = { "b", 1, 0, NULL, NULL };
	MOp iff = { "if", 1, 2, ifr, &b };
	MOp a = { "a", 1, 0, NULL, &iff };
	MBlock bb1 = { a1, 1, &c, NULL }, bb0 = { a0, 2, &a, &bb1 };
	MRegion body = { &bb0 };
	MOp fn = { "func", 0, 1, &body, NULL };
	unit_assert_render(f->lo, fake_memory(ft), (uintptr_t)&fn,
			   "func ({^bb0(%arg0, %arg1): %0 = a; %1 = if "
			   "({^bb0(): %5 = x}, {^bb0(): %5 = y}); %2 = b "
			   "^bb1(%3): %4 = c})", 0, "");
}

/* }====================================================== */

// A placement the layout gets wrong is an error at its line, saying what
// it takes.
static void
test_placement_errors(void **state)
{
	struct unit_layout_fixture *f = *state;
	place_types(&f->ft);
	static const struct { const char *array, *error; } cases[] = {
		{ "at = \"inside\"", "at is \"before\"" },
		{ "at = \"after\", reverse = true", "reverse = true is for" },
		{ "at = \"before\", skip = { { \"nops\" } }",
		  "skip term 1 is a number" },
		{ "at = \"before\", skip = \"x\"", "skip is a number" },
		{ "at = \"before\", alt = { ptr = -8 }", "alt needs when" },
		{ "at = \"before\", alt = { when = \"hung\" }",
		  "alt places the elements" },
		{ "at = \"before\", alt = { when = \"hung\", ptr = -8, "
		  "alt = {} }", "alt has when" },
		{ "at = \"before\", first = \"nops\"", "first is for an array" },
		{ "ptr = -8, limit = 0", "limit is at least 1" },
		{ "at = \"before\", alt = { when = \"id\", ptr = -8 }", "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char src[1024];
		snprintf(src, sizeof(src),
			 "layout { name = \"p\", root = \"User\" }\n"
			 "struct \"Use\" { node = false, fields = {} }\n"
			 "struct \"User\" { fields = {\n"
			 " ops = array { count = \"nops\", of = \"Use\", "
			 "%s } } }\n", cases[i].array);
		expect_load(f, src, "e.lua:4:", cases[i].error);
	}
}

/* }====================================================== */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_apint_apfloat_and_names,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_enum_aliases,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_enum_in_bits_of_a_member,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_arrays_around_the_struct,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_bundles_below_the_operands,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_present_and_bound_errors,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_placement_errors,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_chars_after_the_struct,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_cast_by_tag,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_cast_by_address,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_lookup_in_hash_maps,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_select_filter_map_sort,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_select_sort_empty,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(
			test_numbering_slots_and_metadata,
			unit_layout_fixture_setup,
			unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_numbering_nodes_in_order,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_numbering_claim,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_numbering_own_scope,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(
			test_numbering_own_scope_needed,
			unit_layout_fixture_setup,
			unit_layout_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_numbering_nested_regions,
						unit_layout_fixture_setup,
						unit_layout_fixture_teardown),
	};
	return cmocka_run_group_tests_name("shapes", tests, NULL, NULL);
}
