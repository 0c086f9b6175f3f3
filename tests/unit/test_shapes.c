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

#include <cmocka.h>
#include <jansson.h>

#include "fake_target.h"
#include "run/run.h"
#include "unit_util.h"

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
	};
	return cmocka_run_group_tests_name("shapes", tests, NULL, NULL);
}
