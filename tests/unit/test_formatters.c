// The formatters of walk/fmt_*.c against what the compilers themselves
// print: every row of tests/unit/data/compiler_constants.txt (written by
// gen_compiler_constants.py from opt-14 -S and mlir-opt-14) is a constant's
// bits and the text the compiler printed for it; the APFloat is decomposed
// as LLVM's APFloat keeps it (initFromAPInt) and formatted here. Also the
// quoting of names and strings, and APInt of any width.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "toyc_fake.h"
#include "walk/walk.h"

// fltSemantics { maxExponent, minExponent, precision, sizeInBits }
struct sem {
	const char *llvm, *mlir;
	int32_t max_exp, min_exp;
	uint32_t precision, bits;
};

static const struct sem sems[] = {
	{ "half", "f16", 15, -14, 11, 16 },
	{ "bfloat", "bf16", 127, -126, 8, 16 },
	{ "float", "f32", 127, -126, 24, 32 },
	{ "double", "f64", 1023, -1022, 53, 64 },
	{ "x86_fp80", "f80", 16383, -16382, 64, 80 },
	{ "fp128", "f128", 16383, -16382, 113, 128 },
};

// The IEEEFloat LLVM makes of these bits (initFromAPInt).
static void
decompose(const struct sem *s, const uint64_t bits[2], struct irs_apfloat *v)
{
	memset(v, 0, sizeof(*v));
	v->precision = s->precision;
	v->bits = s->bits;
	v->max_exp = s->max_exp;
	v->min_exp = s->min_exp;
	if (s->bits == 80) {
		uint64_t m = bits[0];
		uint32_t e = bits[1] & 0x7fff;
		v->sign = (bits[1] >> 15) & 1;
		v->sig[0] = m;
		if (!e && !m)
			v->category = IRS_FC_ZERO;
		else if (e == 0x7fff && m == 1ull << 63)
			v->category = IRS_FC_INF;
		else if (e == 0x7fff || (e && !(m >> 63)))
			v->category = IRS_FC_NAN;
		else
			v->category = IRS_FC_NORMAL,
			v->exponent = e ? (int32_t)e - 16383 : -16382;
		return;
	}
	unsigned frac = s->precision - 1, ebits = s->bits - s->precision;
	uint64_t lo = bits[0], hi = bits[1];
	uint64_t e, f0, f1 = 0;
	if (s->bits == 128) {
		e = (hi >> 48) & 0x7fff;
		f0 = lo;
		f1 = hi & ((1ull << 48) - 1);
		v->sign = hi >> 63;
	} else {
		e = (lo >> frac) & ((1ull << ebits) - 1);
		f0 = lo & ((1ull << frac) - 1);
		v->sign = (lo >> (s->bits - 1)) & 1;
	}
	uint64_t emax = (1ull << ebits) - 1;
	v->sig[0] = f0;
	v->sig[1] = f1;
	if (!e && !f0 && !f1) {
		v->category = IRS_FC_ZERO;
	} else if (e == emax) {
		v->category = f0 || f1 ? IRS_FC_NAN : IRS_FC_INF;
	} else {
		v->category = IRS_FC_NORMAL;
		v->exponent = e ? (int32_t)e - s->max_exp : s->min_exp;
		if (e && s->bits == 128)
			v->sig[1] |= 1ull << 48;
		else if (e)
			v->sig[0] |= 1ull << frac;
	}
}

// Parses "1a2b..." into little-endian words.
static void
hex_words(const char *h, uint64_t *w, size_t nw)
{
	memset(w, 0, nw * sizeof(*w));
	size_t n = strlen(h);
	for (size_t i = 0; i < n; i++) {
		char c = h[n - 1 - i];
		uint64_t d = c <= '9' ? (uint64_t)(c - '0')
			: (uint64_t)((c | 0x20) - 'a' + 10);
		assert_true(i / 16 < nw);
		w[i / 16] |= d << (4 * (i % 16));
	}
}

static const struct sem *
sem_named(const char *kind, const char *type)
{
	for (size_t i = 0; i < sizeof(sems) / sizeof(sems[0]); i++)
		if (!strcmp(!strcmp(kind, "llvm") ? sems[i].llvm
			    : sems[i].mlir, type))
			return &sems[i];
	return NULL;
}

// Every constant of the table formats as the compiler printed it.
static void
test_compiler_constants(void **state)
{
	(void)state;
	char path[4096];
	FILE *fp = fopen(toyc_fake_path("tests/unit/data/compiler_constants.txt",
					path, sizeof(path)), "r");
	assert_non_null(fp);
	char line[4096];
	unsigned nfloat = 0, nint = 0, nbad = 0;
	while (fgets(line, sizeof(line), fp)) {
		char kind[8], type[16], hex[600], want[3000];
		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%7s %15s %599s %2999[^\n]", kind,
					type, hex, want), 4);
		uint64_t words[32];
		hex_words(hex, words, 32);
		struct irs_buf out;
		irs_buf_init(&out);
		const struct sem *s = sem_named(kind, type);
		if (s) {
			struct irs_apfloat v;
			decompose(s, words, &v);
			assert_true(irs_apfloat_valid(&v));
			bool ok = !strcmp(kind, "llvm")
				? irs_fmt_llvm_float(&v, &out)
				: irs_fmt_mlir_float(&v, &out);
			assert_true(ok);
			nfloat++;
		} else {
			assert_true(type[0] == 'i');
			uint32_t width = (uint32_t)atoi(type + 1);
			assert_true(irs_fmt_apint(words, width, true, &out));
			nint++;
		}
		if (strcmp(out.data, want)) {
			if (nbad++ < 20)
				fprintf(stderr, "%s %s %s: got %s, want %s\n",
					kind, type, hex, out.data, want);
		}
		irs_buf_deinit(&out);
	}
	fclose(fp);
	// the table is not tuned to a few values
	assert_true(nfloat >= 5000);
	assert_true(nint >= 400);
	assert_int_equal(nbad, 0);
}

static char *
fmt_text(enum irs_textfmt f, const char *s, size_t n)
{
	struct irs_buf b;
	irs_buf_init(&b);
	assert_true(irs_fmt_text(f, s, n, &b));
	return irs_buf_steal(&b);
}

static void
expect_text(enum irs_textfmt f, const char *in, size_t n, const char *want)
{
	char *got = fmt_text(f, in, n);
	assert_string_equal(got, want);
	free(got);
}

// LLVM's identifiers and strings, MLIR's keyword-or-string, as
// AsmWriter's printLLVMNameWithoutPrefix and printEscapedString and MLIR's
// printKeywordOrString write them.
static void
test_names_and_strings(void **state)
{
	(void)state;
	expect_text(IRS_TF_LLVM_NAME, "fnv1a", 5, "fnv1a");
	expect_text(IRS_TF_LLVM_NAME, ".sroa.0.0-x_y", 13, ".sroa.0.0-x_y");
	expect_text(IRS_TF_LLVM_NAME, "0abc", 4, "\"0abc\"");
	expect_text(IRS_TF_LLVM_NAME, "a$b", 3, "\"a$b\"");
	expect_text(IRS_TF_LLVM_NAME, "a b\"c\\", 6, "\"a b\\22c\\5C\"");
	expect_text(IRS_TF_LLVM_NAME, "caf\xc3\xa9", 5, "\"caf\\C3\\A9\"");
	expect_text(IRS_TF_LLVM_NAME, "", 0, "\"\"");
	expect_text(IRS_TF_ESCAPED, "value \"%d\"\n\t\0", 13,
		    "value \\22%d\\22\\0A\\09\\00");
	expect_text(IRS_TF_QUOTED, "x\x7f", 2, "\"x\\7F\"");
	expect_text(IRS_TF_MLIR_KEYWORD, "sym_name", 8, "sym_name");
	expect_text(IRS_TF_MLIR_KEYWORD, "_a$b.c9", 7, "_a$b.c9");
	expect_text(IRS_TF_MLIR_KEYWORD, "9a", 2, "\"9a\"");
	expect_text(IRS_TF_MLIR_KEYWORD, "$a", 2, "\"$a\"");
	expect_text(IRS_TF_MLIR_KEYWORD, "a-b", 3, "\"a-b\"");
}

// APInt::print, signed and unsigned, at widths around the word size.
static void
test_apint_widths(void **state)
{
	(void)state;
	static const struct {
		uint64_t w[3];
		uint32_t bits;
		bool is_signed;
		const char *want;
	} cases[] = {
		{ { 0xff }, 8, true, "-1" },
		{ { 0xff }, 8, false, "255" },
		{ { 0x80 }, 8, true, "-128" },
		{ { 1 }, 1, true, "-1" },
		{ { 0 }, 64, true, "0" },
		{ { 0x8000000000000000ull }, 64, true,
		  "-9223372036854775808" },
		{ { 0, 0x8000000000000000ull }, 128, true,
		  "-170141183460469231731687303715884105728" },
		{ { ~0ull, ~0ull }, 128, false,
		  "340282366920938463463374607431768211455" },
		{ { 0, 0, 1 }, 129, false,
		  "340282366920938463463374607431768211456" },
		{ { 0, 0, 1 }, 129, true,
		  "-340282366920938463463374607431768211456" },
		{ { 1ull << 36 | 5 }, 37, true, "-68719476731" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct irs_buf b;
		irs_buf_init(&b);
		assert_true(irs_fmt_apint(cases[i].w, cases[i].bits,
					  cases[i].is_signed, &b));
		assert_string_equal(b.data, cases[i].want);
		irs_buf_deinit(&b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compiler_constants),
		cmocka_unit_test(test_names_and_strings),
		cmocka_unit_test(test_apint_widths),
	};
	return cmocka_run_group_tests_name("formatters", tests, NULL, NULL);
}
