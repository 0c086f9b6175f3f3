// Loading layouts: what a good one compiles to, and how every kind of bad
// one fails (IRS_ERROR_LAYOUT, "FILE:LINE: message", nothing left behind),
// including the sandbox and its budgets.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_target.h"
#include "walk/walk.h"
#include "unit_util.h"

struct Pt {
	int32_t x;
	uint8_t y;
	double z;
	char name[8];
	const char *s;
	struct Pt *next;
	struct {
		struct Pt *prev, *next;
	} link;
	int kind;
};

struct Holder {
	struct {
		struct Pt *prev, *next;
	} pts;
	uint32_t n;
};

// The fixture's target knows struct Pt, struct Holder and enum Kind.
static int
setup(void **state)
{
	if (unit_layout_fixture_setup(state))
		return -1;
	struct unit_layout_fixture *f = *state;
	FAKE_TYPE(&f->ft, struct Pt);
	fake_type(&f->ft, "Pt", sizeof(struct Pt));
	fake_type(&f->ft, "Holder", sizeof(struct Holder));
#define PT(m, K, N, T) fake_field(&f->ft, "Pt", #m, \
	offsetof(struct Pt, m), FAKE_SIZEOF_MEMBER(struct Pt, m), K, N, T, 0)
	PT(x, IRS_TYPE_INT, "int32_t", "");
	PT(y, IRS_TYPE_UINT, "uint8_t", "");
	PT(z, IRS_TYPE_FLOAT, "double", "");
	fake_field(&f->ft, "Pt", "name", offsetof(struct Pt, name), 8,
		   IRS_TYPE_ARRAY, "char [8]", "char", 8);
	PT(s, IRS_TYPE_POINTER, "const char *", "char");
	PT(next, IRS_TYPE_POINTER, "struct Pt *", "Pt");
	PT(link, IRS_TYPE_STRUCT, "struct {...}", "");
	PT(link.prev, IRS_TYPE_POINTER, "struct Pt *", "Pt");
	PT(link.next, IRS_TYPE_POINTER, "struct Pt *", "Pt");
	PT(kind, IRS_TYPE_ENUM, "Kind", "");
	fake_field(&f->ft, "Holder", "pts", 0, 16, IRS_TYPE_STRUCT,
		   "struct {...}", "", 0);
	fake_field(&f->ft, "Holder", "n", 16, 4, IRS_TYPE_UINT, "uint32_t",
		   "", 0);
	fake_enumerator(&f->ft, "Kind", "K_ONE", 1);
	fake_enumerator(&f->ft, "Kind", "K_TWO", 2);
	*state = f;
	return 0;
}

static struct irs_error *
load(struct unit_layout_fixture *f, const char *src)
{
	return unit_layout_try(&f->ft.target, src, "t.lua", &f->lo);
}

// Loading @p src fails with a layout error at line @p line whose message
// contains @p what; the layout out-parameter is untouched.
static void
assert_fails_at(struct unit_layout_fixture *f, const char *src, int line,
		const char *what)
{
	struct irs_error *err = load(f, src);
	assert_non_null(err);
	char prefix[32];
	snprintf(prefix, sizeof(prefix), "t.lua:%d: ", line);
	if (err->code != IRS_ERROR_LAYOUT ||
	    strncmp(err->message, prefix, strlen(prefix)) ||
	    !strstr(err->message, what))
		fprintf(stderr, "got: %s (code %d)\nwant: %s...%s\n",
			err->message, err->code, prefix, what);
	assert_int_equal(err->code, IRS_ERROR_LAYOUT);
	assert_memory_equal(err->message, prefix, strlen(prefix));
	assert_non_null(strstr(err->message, what));
	assert_null(f->lo);
	irs_error_destroy(err);
}

#define HEAD "layout { name = \"t\", root = \"Pt\" }\n"

/* {====================================================== good layouts */

// A small layout compiles: names, root, types, resolved offsets.
static void
test_minimal_layout_loads(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { x = scalar \"x\", "
		"name = chars \"name\" }, text = \"{x} {name}\" }\n"));
	assert_string_equal(irs_layout_name(f->lo), "t");
	assert_string_equal(irs_layout_root_type(f->lo), "Pt");
	assert_int_equal(irs_layout_ntypes(f->lo), 1);
	assert_string_equal(irs_layout_type_name(f->lo, 0), "Pt");
	assert_null(irs_layout_type_name(f->lo, 1));
	const struct ltype *t = irs_layout_find_type(f->lo, "Pt");
	assert_int_equal(t->size, sizeof(struct Pt));
	assert_int_equal(t->nfields, 2);
	// declaration order, not Lua's hash order
	assert_string_equal(t->fields[0].name, "x");
	assert_string_equal(t->fields[1].name, "name");
	assert_int_equal(t->fields[1].at.offset, offsetof(struct Pt, name));
	assert_int_equal(t->fields[1].nchars, 8);
	assert_int_equal(t->fields[0].kind, LK_INT);
	assert_null(irs_layout_rerun(f->lo));
	assert_int_equal(irs_layout_nboundaries(f->lo), 0);
}

// The root defaults to the first struct declared.
static void
test_root_defaults_to_first_struct(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_null(load(f, "layout { name = \"t\" }\n"
		"struct \"Holder\" { fields = { n = u32 \"n\" } }\n"
		"struct \"Pt\" { fields = { x = i32 \"x\" } }\n"));
	assert_string_equal(irs_layout_root_type(f->lo), "Holder");
}

// Both boundary forms, verifiers and reduce are answered as declared.
static void
test_boundaries_verifiers_reduce(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct irs_boundary_info bi;
	struct irs_verifier_info vi;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { next = ptr(\"next\", \"Pt\") } }\n"
		"boundary { at = \"run_pass\", pass = \"p->name\", "
		"ir = \"m\" }\n"
		"boundary { functions = { \"ssa\", \"fold\" }, ir = \"fn\", "
		"type = \"Pt\" }\n"
		"verifier { name = \"own\", call = \"check({ir})\", ok = 1 }\n"
		"verifier { name = \"lua\", check = function(s) end }\n"
		"reduce { units = { \"Pt\" }, defs = \"Pt\", "
		"rerun = \"{exe} {input}\" }\n"));
	assert_int_equal(irs_layout_nboundaries(f->lo), 3);
	assert_null(irs_layout_boundary(f->lo, 0, &bi));
	assert_string_equal(bi.function, "run_pass");
	assert_string_equal(bi.pass_expr, "p->name");
	assert_null(bi.pass_name);
	assert_string_equal(bi.ir_type, "Pt");
	assert_null(irs_layout_boundary(f->lo, 2, &bi));
	assert_string_equal(bi.function, "fold");
	assert_null(bi.pass_expr);
	assert_string_equal(bi.pass_name, "fold");
	assert_string_equal(bi.ir_expr, "fn");
	struct irs_error *err = irs_layout_boundary(f->lo, 3, &bi);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	irs_error_destroy(err);
	assert_int_equal(irs_layout_nverifiers(f->lo), 2);
	assert_null(irs_layout_verifier(f->lo, 0, &vi));
	assert_string_equal(vi.call, "check({ir})");
	assert_int_equal(vi.ok_value, 1);
	assert_null(irs_layout_verifier(f->lo, 1, &vi));
	assert_string_equal(vi.name, "lua");
	assert_null(vi.call);
	assert_string_equal(irs_layout_rerun(f->lo), "{exe} {input}");
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "fold: pass named fold, ir fn (Pt)"));
	assert_non_null(strstr(desc, "own: call check({ir}), clean when 1"));
	assert_non_null(strstr(desc, "reduce: units Pt; defs Pt"));
	free(desc);
}

// reduce { comment, label }: the text's syntax for the reducer, shown, and
// checked where it is declared.
static void
test_reduce_syntax(void **state)
{
	struct unit_layout_fixture *f = *state;
	static const char pt[] =
		"struct \"Pt\" { fields = { next = ptr(\"next\", \"Pt\") } }\n";
	char src[512];
	snprintf(src, sizeof(src), HEAD "%sreduce { comment = \"#\", "
		 "label = \"^@[a-z0-9_]+$\" }\n", pt);
	assert_null(load(f, src));
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "; comment #; label ^@[a-z0-9_]+$\n"));
	free(desc);
	assert_false(irs_layout_reduces_program(f->lo));
	snprintf(src, sizeof(src), HEAD "%sreduce { input = \"program\" }\n",
		 pt);
	assert_null(load(f, src));
	assert_true(irs_layout_reduces_program(f->lo));
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "; input program\n"));
	free(desc);
	// input = FIELD: the node the root's pointer names (an LLVM
	// Function's Module); pass_names: {pass} as the rerun spells it
	snprintf(src, sizeof(src), HEAD "%sreduce { input = \"next\", "
		 "pass_names = { PtPass = \"pt\" } }\n", pt);
	assert_null(load(f, src));
	assert_string_equal(irs_layout_reduce_field(f->lo), "next");
	uint64_t loc[3];
	const char *target;
	assert_true(irs_layout_reduce_target(f->lo, NULL, loc, &target));
	assert_string_equal(target, "Pt");
	assert_string_equal(irs_layout_rerun_pass(f->lo, "PtPass"), "pt");
	assert_null(irs_layout_rerun_pass(f->lo, "Other"));
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "; input the root's next, whole\n"));
	free(desc);
	static const struct {
		const char *decl, *msg;
	} bad[] = {
		{"comment = \"\"", "reduce: 'comment' must be a line comment "
		 "marker of 1 to 7 characters and no blank"},
		{"comment = \"-- \"", "reduce: 'comment' must be"},
		{"comment = 3", "'comment' must be a string"},
		{"label = \"^(@\"", "reduce: 'label' must be a POSIX extended "
		 "regular expression"},
		{"input = \"in put\"", "reduce: 'input' is \"snapshot\" (the "
		 "failing pass's IR), \"program\" (the file the compiler "
		 "was given) or a pointer field of the root (its node, "
		 "whole), not 'in put'"},
		{"input = \"ir\"", "reduce: 'input' 'ir' is no ptr or ref "
		 "field of the root type Pt"},
		{"pass_names = 3", "reduce: 'pass_names' must be a table"},
		{"pass_names = { Pt = 1 }", "reduce: 'pass_names' maps pass "
		 "names to the names the rerun takes, strings to strings"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(src, sizeof(src), HEAD "%sreduce { %s }\n", pt,
			 bad[i].decl);
		struct irs_error *err = load(f, src);
		assert_non_null(err);
		if (!strstr(err->message, "t.lua:") ||
		    !strstr(err->message, bad[i].msg))
			fail_msg("%s: %s", bad[i].decl, err->message);
		irs_error_destroy(err);
	}
}

// reduce { rerun = T }: a layout lists the command's words, never a
// shell's syntax (issue 32: "...{input}; touch PWNED #" ran), and runs no
// program but {exe}; refused at its line, in one line.
static void
test_rerun_template(void **state)
{
	struct unit_layout_fixture *f = *state;
	static const char *const good[] = {
		"{exe} {flags} --passes={pass} {input}",
		"{exe} {flags} {input}",
		"{exe}\\t-O2 --pass-pipeline={pass} -o /dev/null {input}",
		"{exe} --in={input},x@y%z+1:2",
	};
	static const char *const good_loaded[] = {
		"{exe} {flags} --passes={pass} {input}",
		"{exe} {flags} {input}",
		"{exe}\t-O2 --pass-pipeline={pass} -o /dev/null {input}",
		"{exe} --in={input},x@y%z+1:2",
	};
	char src[512];
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		snprintf(src, sizeof(src), HEAD "struct \"Pt\" { }\n"
			 "reduce { rerun = \"%s\" }\n", good[i]);
		struct irs_error *err = load(f, src);
		if (err)
			fail_msg("%s: %s", good[i], err->message);
		assert_string_equal(irs_layout_rerun(f->lo), good_loaded[i]);
	}
	static const struct {
		const char *tmpl, *msg;
	} bad[] = {
		{"{exe} {flags} --passes={pass} {input}; touch PWNED #",
		 "';' is shell syntax: the template lists the command's words, "
		 "run without a shell"},
		{"{exe} {input} | tee log", "'|' is shell syntax"},
		{"{exe} {input} && rm -rf ~", "'&' is shell syntax"},
		{"{exe} $(id) {input}", "'$' is shell syntax"},
		{"{exe} `id` {input}", "'`' is shell syntax"},
		{"{exe} '{input}'", "''' is shell syntax"},
		{"{exe} \\\"{input}\\\"", "'\"' is shell syntax"},
		{"{exe} a\\\\b {input}", "'\\' is shell syntax"},
		{"{exe} {input} >out", "'>' is shell syntax"},
		{"{exe} *.ir {input}", "'*' is shell syntax"},
		{"{exe} ~/x {input}", "'~' is shell syntax"},
		{"{exe} {input}\\nid", "a control character (\\x0a)"},
		{"{exe} {input} {foo}", "'{' outside a placeholder"},
		{"{exe} --flags={flags} {input}", "{flags} stands for several "
		 "words: it must be a word of its own"},
		{"sh -c {input}", "the command must start with the word {exe}"},
		{"{exe}x {input}", "the command must start with the word {exe}"},
		{"{exe} --passes={pass}", "no {input}"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(src, sizeof(src), HEAD "struct \"Pt\" { }\n"
			 "reduce { rerun = \"%s\" }\n", bad[i].tmpl);
		struct irs_error *err = load(f, src);
		assert_non_null(err);
		if (strncmp(err->message, "t.lua:3: reduce: 'rerun': ", 26) ||
		    !strstr(err->message, bad[i].msg) ||
		    strchr(err->message, '\n'))
			fail_msg("%s: %s", bad[i].tmpl, err->message);
		irs_error_destroy(err);
		// a verifier's rerun is the same template, held to the same
		snprintf(src, sizeof(src), HEAD "struct \"Pt\" { }\n"
			 "verifier { name = \"v\", call = \"v({ir})\", "
			 "rerun = \"%s\" }\n", bad[i].tmpl);
		err = load(f, src);
		assert_non_null(err);
		if (strncmp(err->message, "t.lua:3: verifier 'v': 'rerun': ",
			    32) || !strstr(err->message, bad[i].msg))
			fail_msg("verifier %s: %s", bad[i].tmpl,
				 err->message);
		irs_error_destroy(err);
	}
}

// ir = { "fn", "f" }: every name kept, in order, shown, and checked.
static void
test_boundary_ir_names(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct irs_boundary_info bi;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { next = ptr(\"next\", \"Pt\") } }\n"
		"boundary { functions = { \"ssa\", \"fold\" }, "
		"ir = { \"fn\", \"f\" } }\n"));
	assert_int_equal(irs_layout_nboundaries(f->lo), 2);
	assert_null(irs_layout_boundary(f->lo, 1, &bi));
	assert_string_equal(bi.function, "fold");
	assert_int_equal(bi.nir, 2);
	assert_string_equal(bi.ir_expr, "fn");
	assert_string_equal(bi.ir_exprs[0], "fn");
	assert_string_equal(bi.ir_exprs[1], "f");
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "fold: pass named fold, ir fn or f (Pt)"));
	free(desc);
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { functions = { \"a\" }, ir = {} }\n", 3,
			"lists 1 to 8 parameter names");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { functions = { \"a\" }, ir = { \"fn\", 3 } }\n",
			3, "ir[2] must be a string");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { functions = { \"a\" }, ir = { \"fn\", "
			"\"f++\" } }\n", 3, "ir expression 'f++'");
}

// functions = { match = RE }: one boundary for the pattern beside the
// listed ones, with the release-build keys (sret, after, a StringRef
// pass), shown; a pattern that does not compile is an error at its line.
static void
test_boundary_match(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct irs_boundary_info bi;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { next = ptr(\"next\", \"Pt\") } }\n"
		"boundary { functions = { \"ssa\", match = \"^run_(.*)$\" }, "
		"ir = \"$arg1\", sret = true, after = \"caller\" }\n"
		"boundary { at = \"should\", pass = { data = \"$arg1\", "
		"len = \"$arg2\" }, ir = \"$arg3\" }\n"));
	assert_int_equal(irs_layout_nboundaries(f->lo), 3);
	assert_null(irs_layout_boundary(f->lo, 0, &bi));
	assert_string_equal(bi.function, "ssa");
	assert_null(bi.match);
	assert_null(irs_layout_boundary(f->lo, 1, &bi));
	assert_null(bi.function);
	assert_string_equal(bi.match, "^run_(.*)$");
	assert_true(bi.sret);
	assert_true(bi.after_caller);
	assert_null(irs_layout_boundary(f->lo, 2, &bi));
	assert_string_equal(bi.pass_expr, "$arg1");
	assert_string_equal(bi.pass_len_expr, "$arg2");
	assert_false(bi.sret);
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "functions matching /^run_(.*)$/: pass "
			       "named by the match, ir $arg1 (Pt), sret, "
			       "after at the caller"));
	assert_non_null(strstr(desc, "should: pass $arg2 bytes at $arg1, ir "
			       "$arg3"));
	free(desc);
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { functions = { match = \"(\" }, ir = "
			"\"fn\" }\n", 3, "functions = { match = \"(\" }");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { functions = { mtch = \"a\" }, ir = "
			"\"fn\" }\n", 3, "unknown key 'mtch'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { functions = { \"a\" }, ir = \"fn\", "
			"after = \"later\" }\n", 3, "not 'later'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { at = \"a\", pass = { data = \"p\" }, "
			"ir = \"fn\" }\n", 3, "needs both");
}

// instance = EXPR: kept per function, shown, checked like the others.
static void
test_boundary_instance(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct irs_boundary_info bi;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { next = ptr(\"next\", \"Pt\") } }\n"
		"boundary { functions = { \"dce\", \"sink\" }, ir = \"J\", "
		"instance = \"J->traceno\" }\n"));
	assert_null(irs_layout_boundary(f->lo, 1, &bi));
	assert_string_equal(bi.pass_name, "sink");
	assert_string_equal(bi.instance_expr, "J->traceno");
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "sink: pass named sink #J->traceno, ir J"));
	free(desc);
	assert_null(load(f, HEAD "struct \"Pt\" { fields = {} }\n"
			 "boundary { functions = { \"a\" }, ir = \"fn\" }\n"));
	assert_null(irs_layout_boundary(f->lo, 0, &bi));
	assert_null(bi.instance_expr);
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { functions = { \"a\" }, ir = \"fn\", "
			"instance = 3 }\n", 3, "'instance' must be a string");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {} }\n"
			"boundary { functions = { \"a\" }, ir = \"fn\", "
			"instance = \"n++\" }\n", 3, "instance expression 'n++'");
}

// `ir-layout show` gives sizes, offsets, bitfields and paths.
static void
test_describe_shows_offsets(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { z = scalar \"z\", "
		"k = enum \"kind\", b = bits { offset = 1, bit = 3, "
		"width = 2 }, nx = ref(\"link.next\", \"Pt\") { mask = -8 } },"
		" text = \"{z}\", ref = \"#{k}\" }\n"));
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	char want[128];
	snprintf(want, sizeof(want), "z            scalar (float) at %zu "
		 "(8 bytes)", offsetof(struct Pt, z));
	assert_non_null(strstr(desc, want));
	assert_non_null(strstr(desc, "enum (2 names)"));
	assert_non_null(strstr(desc, "bits at 1 bits 3..4"));
	assert_non_null(strstr(desc, "mask 0xfffffffffffffff8"));
	assert_non_null(strstr(desc, "[link.next]"));
	assert_non_null(strstr(desc, "ref: \"#{k}\""));
	free(desc);
}

// ... a delta field, a field left out of the JSON, and a text chosen by
// an integer field, by its values.
static void
test_describe_shows_delta_and_text_only(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_null(load(f, HEAD
		"struct \"Pt\" { fields = { x = scalar \"x\", "
		"y = u8 \"y\" { json = false },\n"
		"d = fixed { at = \"name\", of = i8 {} },\n"
		"line = delta { of = \"Pt.d\", base = \"x\" } },\n"
		"text = { by = \"y\", [7] = \"{=# + line}\", default = \"-\" }"
		" }\n"));
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	assert_non_null(strstr(desc, "line         delta: Pt.d from x\n"));
	assert_non_null(strstr(desc, "(text only, json = false)"));
	assert_non_null(strstr(desc, "text by y:\n    7: \"{=# + line}\"\n"
			       "    default: \"-\""));
	free(desc);
}

// ... and says where an array starts (first), how far its elements
// reach (overlapping ones) and how far back a pointer's target lies.
static void
test_describe_shows_first_overlap_past(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_null(load(f, HEAD
		"struct \"Q\" { node = false, size = 16, fields = {"
		" a = i32(0) } }\n"
		"struct \"Pt\" { fields = { xs = array { ptr = \"s\","
		" first = \"y\", count = \"x\", of = \"Q\", stride = 8 },"
		" back = ptr(\"next\", \"Pt\") { past = true } } }\n"));
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	char want[160];
	snprintf(want, sizeof(want), "array of Q (8 bytes apart, each reading "
		 "16): ptr at %zu (8 bytes), from the index at %zu (1 bytes) "
		 "to the one at %zu (4 bytes)", offsetof(struct Pt, s),
		 offsetof(struct Pt, y), offsetof(struct Pt, x));
	assert_non_null(strstr(desc, want));
	snprintf(want, sizeof(want), ", %zu bytes past it",
		 sizeof(struct Pt));
	assert_non_null(strstr(desc, want));
	free(desc);
	// a stride below the size is for arrays of structs only
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { xs = fixed {"
			" at = \"name\", of = i32 {}, stride = 2 } } }\n", 2,
			"a stride of 2 bytes is less than an element");
}

// Stripped builds: no debug info at all, sizes and offsets given.
static void
test_explicit_offsets_need_no_debug_info(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct irs_target bare = { 0 };		// no callbacks at all
	const char *src = HEAD
		"struct \"Pt\" { size = 64, fields = { x = i32 { offset = 0 },"
		" y = u8(4), n = chars { offset = 16, size = 8 },"
		" b = bits { offset = 4, bit = 1, width = 3, signed = true },"
		" s = cstr { offset = 24 }, nx = ptr({ offset = 32 }, \"Pt\"),"
		" e = enum({ offset = 56, size = 4 }, "
		"{ names = { [1] = \"one\" } }) } }\n";
	assert_null(irs_layout_create(src, strlen(src), "t.lua", &bare,
				      &f->lo));
	const struct ltype *t = irs_layout_find_type(f->lo, "Pt");
	assert_int_equal(t->size, 64);
	assert_true(t->size_explicit);
	const struct lfield *b = irs_ltype_field(t, "b");
	assert_int_equal(b->at.offset, 4);
	assert_int_equal(b->at.bit_off, 1);
	assert_int_equal(b->at.bit_size, 3);
	assert_int_equal(b->kind, LK_INT);
	assert_int_equal(irs_ltype_field(t, "y")->at.offset, 4);
	assert_string_equal(irs_lenum_name(irs_ltype_field(t, "e")->en, 1),
			    "one");
	// and it walks: the same bytes read at the given places
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	const char *walkable = HEAD
		"struct \"Pt\" { size = 64, fields = { x = i32 { offset = 0 },"
		" s = cstr { offset = 24 }, nx = ptr({ offset = 32 }, \"Pt\") },"
		" text = \"{x} {s} {?nx}[{nx}]{/}\" }\n";
	assert_int_equal(offsetof(struct Pt, s), 24);
	assert_int_equal(offsetof(struct Pt, next), 32);
	assert_null(irs_layout_create(walkable, strlen(walkable), "t.lua",
				      &bare, &f->lo));
	struct Pt inner = { .x = 2, .s = "in" };
	struct Pt outer = { .x = 1, .s = "out", .next = &inner };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&outer,
			   "1 out [2 in ]", 0, NULL);
	// and without a size, a struct cannot be sized
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	const char *nosize = HEAD "struct \"Pt\" { }\n";
	struct irs_error *err = irs_layout_create(nosize, strlen(nosize),
						  "t.lua", &bare, &f->lo);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "t.lua:2: struct Pt: no debug "
			       "info to size it"));
	irs_error_destroy(err);
}

// Enum names from debug info, stripped and lowered.
static void
test_enum_names_from_debug_info(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_null(load(f, HEAD "struct \"Pt\" { fields = { "
		"k = enum(\"kind\", { strip = \"K_\", lower = true }) } }\n"));
	const struct lfield *k = irs_ltype_field(
		irs_layout_find_type(f->lo, "Pt"), "k");
	assert_int_equal(k->en->n, 2);
	assert_string_equal(irs_lenum_name(k->en, 2), "two");
	assert_null(irs_lenum_name(k->en, 3));
	int64_t v;
	assert_true(irs_lenum_value(k->en, "K_ONE", &v));
	assert_int_equal(v, 1);
}

// A file on disk loads, and its name is the FILE of messages.
static void
test_load_from_file(void **state)
{
	struct unit_layout_fixture *f = *state;
	char path[] = "/tmp/irsnap-layout-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *src = HEAD "struct \"Pt\" { fields = { x = scalar "
		"\"nope\" } }\n";
	assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
	struct irs_error *err = irs_layout_load(path, &f->ft.target, &f->lo);
	assert_non_null(err);
	char want[64];
	snprintf(want, sizeof(want), "%s:2: Pt.x: no field 'nope'", path);
	assert_non_null(strstr(err->message, want));
	irs_error_destroy(err);
	unlink(path);
	err = irs_layout_load(path, &f->ft.target, &f->lo);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	assert_non_null(strstr(err->message, path));
	irs_error_destroy(err);
}

/* }====================================================== */

/* {====================================================== bad layouts */

static void
test_syntax_error(void **state)
{
	assert_fails_at(*state, HEAD "struct \"Pt\" { fields = { x = } }\n",
			2, "unexpected symbol near '}'");
}

static void
test_unknown_type(void **state)
{
	assert_fails_at(*state, HEAD "\nstruct \"Nope\" { }\n", 3,
			"struct Nope: unknown type 'Nope' in debug info");
}

static void
test_unknown_field(void **state)
{
	assert_fails_at(*state, HEAD "struct \"Pt\" { fields = {\n"
			"  x = scalar \"x\",\n  w = scalar \"nope\",\n} }\n", 4,
			"Pt.w: no field 'nope' in struct Pt");
}

// Each constructor checks what debug info says the member is.
static void
test_wrong_kind(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { s = scalar "
			"\"s\" } }\n", 2, "Pt.s: scalar needs an integer, bool "
			"or float, but debug info says 'const char *' is a "
			"pointer");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = cstr "
			"\"x\" } }\n", 2, "cstr needs a char *");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { s = chars "
			"\"s\" } }\n", 2, "chars needs a char array");
	// chars(P, LEN): P an array (the string's tail), LEN an integer
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { s = chars("
			"\"s\", \"x\") } }\n", 2, "chars needs a char array");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { s = chars("
			"\"name\", \"z\") } }\n", 2, "Pt.s: chars length "
			"needs an integer");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = u64 "
			"\"x\" } }\n", 2, "u64 reads 8 bytes, but debug info "
			"says 'int32_t' is 4");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { l = array { "
			"ptr = \"x\", count = \"y\", of = \"Pt\" } } }\n", 2,
			"ptr needs a pointer");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { n = ptr(\"next\","
			" \"Nope\") } }\n", 2, "type 'Nope' is not declared");
}

// A template naming a field it does not have, or using one wrongly.
static void
test_template_errors(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"a {nope} b\" }\n", 2,
			"struct Pt: text \"a {nope} b\": unknown field 'nope' "
			"in Pt (column 3)");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{x*, }\" }\n", 2,
			"'x' is an integer, not a sequence");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { n = chars "
			"\"name\" }, text = \"{n:%5d}\" }\n", 2,
			"format '%5d' is numeric but 'n' is a string");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{x.y}\" }\n", 2,
			"'x' is an integer, which has no field 'y'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{?x}a\" }\n", 2,
			"{?...} without its {/}");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{@ref}\" }\n", 2,
			"Pt has no ref template");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"{x:%n}\" }\n", 2, "bad format '%n'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" }, text = \"x}\" }\n", 2, "unmatched '}'");
}

// A template condition that cannot be compiled: what is wrong and where.
static void
test_condition_errors(void **state)
{
	struct unit_layout_fixture *f = *state;
#define COND(t) HEAD "struct \"Pt\" { fields = { x = scalar \"x\", " \
	"k = enum \"kind\", s = cstr \"s\", n = chars \"name\" }, " \
	"text = \"" t "\" }\n"
	assert_fails_at(f, COND("{?k == K_THREE}a{/}"), 2,
			"'K_THREE' is neither a field of Pt nor a name of "
			"enum field 'k'");
	assert_fails_at(f, COND("{?x == K_ONE}a{/}"), 2,
			"unknown field 'K_ONE' in Pt");
	assert_fails_at(f, COND("{?s == 0}a{/}"), 2,
			"'s' is a string; comparisons take integers");
	assert_fails_at(f, COND("{?x ==}a{/}"), 2,
			"expected a field, a number or an enum name at its "
			"end");
	assert_fails_at(f, COND("{?x == 1 x}a{/}"), 2,
			"expected an operator, 'and', 'or' or the end at 'x'");
	assert_fails_at(f, COND("{?(x == 1}a{/}"), 2, "expected ')'");
	assert_fails_at(f, COND("{?x == 99999999999999999999}a{/}"), 2,
			"bad number");
	assert_fails_at(f, COND("{?1}a{/}"), 2, "a number alone");
	assert_fails_at(f, COND("{?x and}a{/}"), 2, "expected a field");
	assert_fails_at(f, COND("{?x == y.z}a{/}"), 2, "unknown field 'y'");
	char deep[1200] = "";
	for (int i = 0; i < 260; i++)
		strcat(deep, "not ");
	char src[1600];
	snprintf(src, sizeof(src), COND("{?%sx}a{/}"), deep);
	assert_fails_at(f, src, 2, "nested more than 256 deep");
	assert_fails_at(f, HEAD "local x = render({})\n", 2,
			"render: only while a walk renders (in a text "
			"function or a computed field)");
	assert_null(load(f, COND("{?k == K_TWO and not (x < -1 or x >= "
				 "0x10)}a{/}")));
#undef COND
}

// A layout whose one struct would cost more than a million template
// steps (issue 32 item 1: value structs 13 deep, each showing the next
// 8 times, 7 * 10^10 leaves) is refused when it loads, at the line of
// that struct; so are the same in JSON records, and a value inside
// itself. Depth that multiplies little loads.
static void
test_exponential_layouts_are_refused(void **state)
{
	struct unit_layout_fixture *f = *state;
#define CHAIN(depth, text, fields) \
	"layout { name = \"t\", root = \"V1\" }\n" \
	"for i = 1, " depth " do\n" \
	"  struct(\"V\" .. i) { ctype = \"Pt\", node = false,\n" \
	"    fields = " fields ",\n" \
	"    text = " text " }\n" \
	"end\n" \
	"struct \"V" depth "x\" { ctype = \"Pt\", node = false }\n"
	assert_fails_at(f, CHAIN("13", "string.rep(\"{a}\", 8)",
				 "{ a = embed({ offset = 0 }, i < 13 and "
				 "\"V\" .. (i + 1) or \"V13x\") }"), 3,
			"struct V1: its text runs more than 1000000 template "
			"steps for one V1 (V1 -> V2 -> V3");
	assert_fails_at(f, CHAIN("13", "\"\"", "(function() local t = {} "
				 "for k = 1, 8 do t[\"a\" .. k] = embed({ "
				 "offset = 0 }, i < 13 and \"V\" .. (i + 1) or "
				 "\"V13x\") end return t end)()"), 3,
			"struct V1: its JSON record runs more than 1000000");
	assert_null(load(f, CHAIN("4", "string.rep(\"{a}\", 8)",
				  "{ a = embed({ offset = 0 }, i < 4 and "
				  "\"V\" .. (i + 1) or \"V4x\") }")));
	assert_fails_at(f, "layout { name = \"t\", root = \"S\" }\n"
			"struct \"S\" { ctype = \"Pt\", node = false,\n"
			" fields = { me = embed({ offset = 0 }, \"S\") },\n"
			" text = \"{me}\" }\n", 2, "struct S lies inside itself");
#undef CHAIN
}

// An {=EXPR} or a delta field that cannot be compiled: what is wrong and
// where; good ones compile.
static void
test_expression_and_delta_errors(void **state)
{
	struct unit_layout_fixture *f = *state;
#define EXPR(t) HEAD "struct \"Pt\" { fields = { x = scalar \"x\", " \
	"n = chars \"name\", d = fixed { at = \"name\", of = i8 {} } }, " \
	"text = \"" t "\" }\n"
	// hostile sizes (issue 32 item 2): the parser and the walk's
	// evaluator recursed once per operator; refused when the layout
	// loads, in one line naming it
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar \"x\" },"
			"\n text = \"{=\" .. string.rep(\"-\", 2000000) .. "
			"\"x}\" }\n", 2, "nested more than 256 deep");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar \"x\" },"
			"\n text = \"{=x\" .. string.rep(\"+x\", 1000000) .. "
			"\"}\" }\n", 2, "nested more than 256 deep");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar \"x\" },"
			"\n text = \"{?x\" .. string.rep(\" and x\", 1000000) "
			".. \"}a{/}\" }\n", 2, "nested more than 256 deep");
	assert_fails_at(f, HEAD "local function b(d) if d == 0 then return "
			"\"x\" end local s = b(d - 1) return \"(\" .. s .. "
			"\"+\" .. s .. \")\" end\n"
			"struct \"Pt\" { fields = { x = scalar \"x\" },"
			"\n text = \"{=\" .. b(13) .. \"}\" }\n", 3,
			"more than 4096 operators");
	assert_fails_at(f, EXPR("{=x +}"), 2,
			"expression 'x +': expected a field, a number or an enum name at its end");
	assert_fails_at(f, EXPR("{=x y}"), 2,
			"expression 'x y': expected an operator or the end at 'y'");
	assert_fails_at(f, EXPR("{=n + 1}"), 2,
			"'n' is a string; arithmetic takes integers");
	assert_fails_at(f, EXPR("{=nope * 2}"), 2,
			"expression 'nope * 2': unknown field 'nope' in Pt");
	assert_fails_at(f, EXPR("{=#x}"), 2,
			"'#x': 'x' is an integer, not a sequence");
	assert_fails_at(f, EXPR("{=x:%s}"), 2,
			"bad format '%s' for an integer expression");
	assert_fails_at(f, EXPR("{=(x + 1}"), 2, "expected ')'");
	assert_fails_at(f, EXPR("{?#d + x == n}a{/}"), 2,
			"'n' is a string; comparisons take integers");
	assert_null(load(f, EXPR("{=-(x + 1) * #d:%04d} {&} {?# - 1}a{/} "
				 "{?x * 2 > #d}b{/} {x:lua} {n:lua}")));
	irs_layout_destroy(f->lo);
	f->lo = NULL;
#undef EXPR
#define DELTA(d) HEAD "struct \"Pt\" { fields = { x = scalar \"x\", " \
	"y = scalar \"y\", d = fixed { at = \"name\", of = i8 {} }, " \
	"line = delta " d " } }\n"
	assert_fails_at(f, DELTA("{ of = \"d\", base = \"x\" }"), 2,
			"delta needs of = \"Type.sequence\" and base = "
			"\"field\"");
	assert_fails_at(f, DELTA("{ of = \"Pt.x\", base = \"x\" }"), 2,
			"delta of 'x' is not a sequence of integers of Pt");
	assert_fails_at(f, DELTA("{ of = \"Pt.d\", base = \"d\" }"), 2,
			"delta base 'd' is not an integer field of Pt");
	assert_fails_at(f, DELTA("{ of = \"Pt.d\", base = \"x\", "
				 "absolute = \"d\" }"), 2,
			"delta's absolute entries need at = \"field\" and "
			"value = \"field\"");
	assert_fails_at(f, DELTA("{ of = \"Pt.d\", base = \"x\", "
				 "absolute = \"d\", at = \"x\", "
				 "value = \"y\" }"), 2,
			"delta absolute 'd' is not a sequence of structs of "
			"Pt");
	assert_fails_at(f, DELTA("{ of = \"Pt.d\", base = \"x\", "
				 "step = 1 }"), 2, "step");
	assert_null(load(f, DELTA("{ of = \"Pt.d\", base = \"x\" }")));
	const struct ltype *t = irs_layout_find_type(f->lo, "Pt");
	const struct lfield *line = irs_ltype_field(t, "line");
	assert_int_equal(line->kind, LK_DELTA);
	assert_string_equal(line->delta->deltas->name, "d");
	assert_string_equal(line->delta->base->name, "x");
	assert_null(line->delta->abs);
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			"nx = ptr(\"next\", \"Pt\") { json = false } } }\n", 3,
			"Pt.nx: json = false on a field that owns nodes");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			"n = strn(\"s\", \"x\") { skip = -1 } } }\n", 3,
			"Pt.n: skip = N (0 to 1048576) is for strings with a "
			"length");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			"n = cstr \"s\" { skip = 1 } } }\n", 3,
			"cstr has no option 'skip'");
	assert_null(load(f, HEAD "struct \"Pt\" { fields = {\n"
			 "nx = ref(\"next\", \"Pt\") { json = false } } }\n"));
	assert_true(irs_ltype_field(irs_layout_find_type(f->lo, "Pt"),
				    "nx")->no_json);
#undef DELTA
}

// Raw reads and explicit locations: what is refused, and how it says what
// to write instead.
static void
test_raw_reads_and_explicit_sizes(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { a = u64 \"x\" } }\n",
			2, "u64 reads 8 bytes, but debug info says 'int32_t' "
			"is 4");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" a = bits { at = \"x\", bit = 30, width = 4 } } }\n",
			3, "bits 30..33 (width 4) are not inside 'x' (32 bits)");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" a = bits { at = \"nope\", width = 4 } } }\n",
			3, "no field 'nope' in struct Pt");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" a = scalar { offset = 4 } } }\n", 3,
			"scalar at an explicit offset needs its width: "
			"{ offset = O, size = N }");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { a = scalar(4) } }"
			"\n", 2, "needs its width");
	// u32 of a struct member of 16 bytes: the sizes disagree
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { a = u32 \"link\" } "
			"}\n", 2, "u32 reads 4 bytes, but debug info says "
			"'struct {...}' is 16");
	// an explicit embed is as big as its type, not 8 bytes
	assert_null(load(f, "layout { name = \"t\", root = \"O\" }\n"
			 "struct \"I\" { size = 4, fields = { v = u32(0) } }\n"
			 "struct \"O\" { size = 16, fields = {\n"
			 " i = embed({ offset = 12 }, \"I\"),\n"
			 " b = bits { offset = 0, bit = 2, width = 3 } } }\n"));
	assert_fails_at(f, "layout { name = \"t\", root = \"O\" }\n"
			"struct \"I\" { size = 8, fields = { v = u32(0) } }\n"
			"struct \"O\" { size = 16, fields = {\n"
			" i = embed({ offset = 12 }, \"I\") } }\n", 4,
			"O.i: bytes 12..20 are past the end of O (16 bytes)");
}

// A location table takes offset or at, size, bit, width and signed, and
// nothing else; `at` names a member whose bits the table counts from; a
// field descriptor where a location goes is the integer it reads (issue
// 27 item 9: { at = ..., bit = 15, width = 1 } read offset 0, and
// index(bits { ... }, ...) four bytes at offset 0, without a word).
static void
test_location_tables_use_every_key(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" a = scalar { at = \"x\", bit = 1, width = 2, "
			"wdith = 3 } } }\n", 3, "a location { ... } has no key "
			"'wdith' (it takes offset or at, size, bit, width, "
			"signed)");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" a = scalar { at = \"x\", offset = 4, width = 2 } } }\n",
			3, "at = \"path\" or offset = N, not both");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" a = scalar { at = \"y\", bit = 6, width = 4 } } }\n",
			3, "bits 6..9 are not inside 'y' (8 bits)");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" a = scalar { offset = 0, bit = 0, width = 0 } } }\n",
			3, "a field of no bits has no value: leave it out, and "
			"write 0 where the text needs it, {=0}");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" a = index(cstr \"s\", \"Holder.pts\") } }\n", 3,
			"a field standing for a location must read an integer");
	assert_null(load(f, "layout { name = \"t\", root = \"Holder\" }\n"
			 "struct \"Pt\" { fields = {\n"
			 " a = scalar { at = \"kind\", bit = 3, width = 2 },\n"
			 " b = u8 { at = \"y\" },\n"
			 " i = index(bits { at = \"kind\", bit = 8, width = 4 },"
			 " \"Holder.pts\"),\n"
			 " e = enum(bits { at = \"x\", bit = 9, width = 2 },"
			 " { names = { [1] = \"one\" } }) } }\n"
			 "struct \"Holder\" { fields = { pts = list { head = "
			 "\"pts\", of = \"Pt\", link = \"link\" } } }\n"));
	const struct ltype *t = irs_layout_find_type(f->lo, "Pt");
	const struct lfield *a = irs_ltype_field(t, "a");
	assert_int_equal(a->at.offset, offsetof(struct Pt, kind));
	assert_int_equal(a->at.bit_off, 3);
	assert_int_equal(a->at.bit_size, 2);
	assert_string_equal(a->path, "kind");
	assert_int_equal(irs_ltype_field(t, "b")->at.offset,
			 offsetof(struct Pt, y));
	const struct lfield *i = irs_ltype_field(t, "i");
	assert_int_equal(i->kind, LK_INDEX);
	assert_int_equal(i->at.offset, offsetof(struct Pt, kind) + 1);
	assert_int_equal(i->at.bit_off, 0);
	assert_int_equal(i->at.bit_size, 4);
	const struct lfield *e = irs_ltype_field(t, "e");
	assert_int_equal(e->kind, LK_ENUM);
	assert_int_equal(e->at.offset, offsetof(struct Pt, x) + 1);
	assert_int_equal(e->at.bit_off, 1);
	assert_int_equal(e->at.bit_size, 2);
}

// zip declarations that cannot be compiled.
static void
test_zip_errors(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" z = zip { count = \"x\" } } }\n", 3,
			"Pt.z: zip needs of = { NAME = { ptr = P, of = E }");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" z = zip { count = \"x\", of = { a = { ptr = \"next\", "
			"of = \"Pt\" } } } } }\n", 3,
			"a zip's elements are pointers, scalars or value "
			"structs (of = ref \"T\", u32 {}, a struct with node = "
			"false); Pt is a node");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" z = zip { count = \"x\", of = { a = { ptr = \"next\", "
			"of = ref \"Pt\", bad = 1 } } } } }\n", 3,
			"has ptr, of and stride, and where it lies");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" z = zip { count = \"s\", of = { a = { ptr = \"next\", "
			"of = ref \"Pt\" } } } } }\n", 3, "count needs an "
			"integer");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" z = zip { count = \"x\", of = { a = { ptr = \"next\", "
			"of = ref \"Pt\" } }, text = \"{nope}\" } } }\n", 3,
			"unknown field 'nope' in Pt.z");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = {\n"
			" u = union { tag = \"x\", cases = { [1] = zip { count = "
			"\"x\", of = { a = { ptr = \"next\", of = ref \"Pt\" } }"
			" } } } } }\n", 3, "a zip is a field of a struct itself");
}

// Misspelt names and options are caught, not ignored.
static void
test_typos_are_errors(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scaler "
			"\"x\" } }\n", 2, "unknown name 'scaler'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			"\"x\" { mask = 3 } } }\n", 2,
			"Pt.x: scalar has no option 'mask'");
	assert_fails_at(f, HEAD "struct \"Pt\" { feilds = { } }\n", 2,
			"struct Pt: unknown key 'feilds'");
	assert_fails_at(f, HEAD "struct \"Pt\" { fields = { x = \"x\" } }\n",
			2, "field 'x' is a string, not a field");
	assert_fails_at(f, HEAD "struct \"Pt\" { }\nstruct \"Pt\" { }\n", 3,
			"struct \"Pt\" declared twice");
}

// layout{} and reduce{} are made once; their lists hold names.
static void
test_declarations_once_and_lists_of_names(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD HEAD, 2, "layout: declared twice");
	assert_fails_at(f, HEAD "reduce { }\nreduce { }\n", 3,
			"reduce: declared twice");
	assert_fails_at(f, HEAD "reduce { units = { \"Pt\", 3 } }\n", 2,
			"reduce: 'units' must hold type names");
	assert_fails_at(f, HEAD "boundary { functions = { \"a\", {} }, "
			"ir = \"fn\" }\n", 2,
			"boundary: 'functions' must hold strings");
	assert_fails_at(f, HEAD "boundary { functions = { }, ir = \"fn\" }\n",
			2, "boundary: 'functions' is empty");
}

// Without layout{} there is nothing to name the layout by.
static void
test_missing_layout_declaration(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct irs_error *err = load(f, "struct \"Pt\" { }\n");
	assert_int_equal(err->code, IRS_ERROR_LAYOUT);
	assert_string_equal(err->message, "t.lua: no layout { name = ..., "
			    "root = ... } declaration");
	irs_error_destroy(err);
}

// A mistake passed through a prelude function is reported at the user's
// line, not inside the prelude.
static void
test_prelude_errors_name_user_line(void **state)
{
	assert_fails_at(*state, HEAD "local ilist = require \"irsnap.list\"\n"
			"struct \"Holder\" { fields = {\n"
			"  pts = ilist.sentinel { head = \"nope\", "
			"of = \"Pt\", link = \"link\" },\n} }\n"
			"struct \"Pt\" { }\n", 4,
			"no field 'nope' in struct Holder");
	assert_fails_at(*state, HEAD "local ilist = require \"irsnap.list\"\n"
			"local l = ilist.sentinel { head = \"pts\", "
			"off = 1 }\n",
			3, "sentinel: unknown key 'off'");
}

/* }====================================================== */

/* {====================================================== nesting */

// @p depth unions around a scalar, as the issue's `for i = 1, N do f =
// union { ... cases = { OP = f } } end`, each with @p body after its tag;
// the unions are made on line 3.
static void
nested_unions(char *src, size_t size, int depth, const char *body)
{
	snprintf(src, size, HEAD "local f = scalar \"x\"\n"
		 "for i = 1, %d do f = union { tag = \"kind\", %s } end\n"
		 "struct \"Pt\" { fields = { kind = enum \"kind\", u = f },\n"
		 "  text = \"{u}\" }\n", depth, body);
}

// Unions nest up to IRS_LAYOUT_MAX_NESTING deep and walk; one more is an
// error at the line of the union that is too deep, not a heap corrupted
// by the compiler's recursion (depth 200 aborted GDB, 60 crashed it).
static void
test_nested_unions_are_bounded(void **state)
{
	struct unit_layout_fixture *f = *state;
	char src[1024];
	static const int too_deep[] = { IRS_LAYOUT_MAX_NESTING + 1, 30, 60,
					200, 5000 };
	for (size_t i = 0; i < ARRAY_SIZE(too_deep); i++) {
		nested_unions(src, sizeof(src), too_deep[i],
			      "cases = { K_ONE = f }");
		assert_fails_at(f, src, 3, "fields nested more than 16 deep");
	}
	nested_unions(src, sizeof(src), IRS_LAYOUT_MAX_NESTING,
		      "cases = { K_ONE = f }");
	assert_null(load(f, src));
	struct Pt p = { .x = 42, .kind = 1 };
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&p, "42", 0,
			   NULL);
	// a descriptor shared by many cases is compiled once per use: three
	// cases on each of 12 levels would be 3^12 fields
	nested_unions(src, sizeof(src), 12,
		      "cases = { K_ONE = f, K_TWO = f, [7] = f }");
	assert_fails_at(f, src, 3, "more than 65536 fields");
}

// A union that is its own case (or default, or a case of its case), or a
// sequence its own element, is an error naming it, not an endless
// recursion.
static void
test_self_referencing_descriptors_are_errors(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "local cases = {}\n"
			"local u = union { tag = \"kind\", cases = cases }\n"
			"cases.K_ONE = u\n"
			"struct \"Pt\" { fields = { kind = enum \"kind\", "
			"u = u } }\n", 3,
			"Pt.u(K_ONE): contains itself");
	assert_fails_at(f, HEAD "local u = union { tag = \"kind\", "
			"cases = {} }\n"
			"u.default = u\n"
			"struct \"Pt\" { fields = { kind = enum \"kind\", "
			"u = u } }\n", 2,
			"Pt.u(default): contains itself");
	assert_fails_at(f, HEAD "local ca, cb = {}, {}\n"
			"local a = union { tag = \"kind\", cases = ca }\n"
			"local b = union { tag = \"kind\", cases = cb }\n"
			"ca.K_ONE, cb.K_TWO = b, a\n"
			"struct \"Pt\" { fields = { kind = enum \"kind\", "
			"u = a } }\n", 3,
			"Pt.u(K_ONE)(K_TWO): contains itself");
	assert_fails_at(f, HEAD "local a = array { ptr = \"next\", "
			"count = \"x\" }\n"
			"a.of = a\n"
			"struct \"Pt\" { fields = { a = a } }\n", 2,
			"Pt.a[]: contains itself");
	// the same descriptor twice side by side is no cycle
	assert_null(load(f, HEAD "local x = scalar \"x\"\n"
			 "local u = union { tag = \"kind\", cases = { "
			 "K_ONE = x, K_TWO = x }, default = x }\n"
			 "struct \"Pt\" { fields = { kind = enum \"kind\", "
			 "u = u, v = u } }\n"));
}

/* }====================================================== */

/* {====================================================== sandbox */

// An endless loop runs out of instructions, at its line, within seconds.
static void
test_step_budget_stops_infinite_loop(void **state)
{
	// Counted, not timed: the error names the budget it used up.
	assert_fails_at(*state, HEAD "local n = 0\nwhile true do n = n + 1 "
			"end\n", 3, "instruction budget of 100000000 "
			"exhausted");
}

// A memory hog hits the memory budget, an error at its line.
static void
test_memory_budget_is_an_error(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "local t = {}\nfor i = 1, 1e9 do t[i] = i "
			"end\n", 3, "memory budget of 32 MiB exhausted");
	assert_fails_at(f, HEAD "local s = string.rep(\"x\", 1 << 30)\n", 2,
			"memory budget of 32 MiB exhausted");
	// and the state is still usable for the next layout
	assert_null(load(f, HEAD "struct \"Pt\" { }\n"));
}

// No os, io, debug, load, pcall, bytecode; require of prelude only.
static void
test_sandbox_hides_io_and_bytecode(void **state)
{
	struct unit_layout_fixture *f = *state;
	assert_fails_at(f, HEAD "os.execute(\"touch /tmp/irsnap-pwned\")\n",
			2, "'os' is not available in a layout (sandbox)");
	assert_fails_at(f, HEAD "local fp = io.open(\"/etc/passwd\")\n", 2,
			"'io' is not available");
	assert_fails_at(f, HEAD "local os = require \"os\"\n", 2,
			"require \"os\": a layout may only require the "
			"irsnap.* prelude modules");
	assert_fails_at(f, HEAD "require \"irsnap.nope\"\n", 2,
			"require \"irsnap.nope\": no such prelude module");
	assert_fails_at(f, HEAD "load(\"return 1\")\n", 2,
			"'load' is not available");
	assert_fails_at(f, HEAD "local d = string.dump(function() end)\n", 2,
			"attempt to call a nil value (field 'dump')");
	assert_fails_at(f, HEAD "local d = (\"\").dump\nd(function() end)\n",
			3, "attempt to call a nil value");
	assert_fails_at(f, HEAD "debug.sethook()\n", 2,
			"'debug' is not available");
	assert_fails_at(f, HEAD "pcall(error, \"x\")\n", 2,
			"'pcall' is not available");
	assert_fails_at(f, HEAD "getmetatable(\"\").__index = nil\n", 2,
			"'getmetatable' is not available");
	assert_fails_at(f, HEAD "collectgarbage()\n", 2,
			"'collectgarbage' is not available");
	assert_int_equal(access("/tmp/irsnap-pwned", F_OK), -1);
}

// $IRSNAP_PRELUDE points require at an installed prelude.
static void
test_prelude_dir_from_environment(void **state)
{
	struct unit_layout_fixture *f = *state;
	char dir[] = "/tmp/irsnap-prelude-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char sub[64], file[96];
	snprintf(sub, sizeof(sub), "%s/irsnap", dir);
	snprintf(file, sizeof(file), "%s/mine.lua", sub);
	assert_int_equal(mkdir(sub, 0700), 0);
	FILE *fp = fopen(file, "w");
	fputs("return { x = function() return scalar \"x\" end }\n", fp);
	fclose(fp);
	setenv("IRSNAP_PRELUDE", dir, 1);
	struct irs_error *err = load(f, HEAD "local m = require "
				     "\"irsnap.mine\"\nstruct \"Pt\" { fields "
				     "= { x = m.x() } }\n");
	unsetenv("IRSNAP_PRELUDE");
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	assert_null(err);
	assert_int_equal(irs_ltype_field(irs_layout_find_type(f->lo, "Pt"),
					 "x")->at.offset,
			 offsetof(struct Pt, x));
}

// A runaway Lua text function stops at its budget during a walk and is
// a walk error, not a hang; the rest of the text is there.
static void
test_budget_applies_to_text_functions(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct Pt p = { .x = 7 };
	assert_null(load(f, HEAD "struct \"Pt\" { fields = { x = scalar "
			 "\"x\", c = computed(function(n) while true do end "
			 "end) }, text = \"{x}:{c}:{x}\" }\n"));
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)&p,
			   "7:<error>:7", 1, "t.lua:2: instruction budget");
}

// A boundary's expressions only read: a call (a GDB convenience function
// too), an assignment, ++/-- or a string literal is a layout error at its
// line; casts, paths, sizeof and comparisons are fine.
static void
test_boundary_expressions_only_read(void **state)
{
	struct unit_layout_fixture *f = *state;
	static const char *const good[] = {
		"m", "pm->module", "(Module *)$rdi", "*mp", "&fn->blocks[2]",
		"sizeof (m) == 8 ? m : 0", "a <= b", "a != b", "x >> 2",
		"(struct Module *)0x4051a0", "static_cast<Module *>(p)",
	};
	static const char *const bad[][2] = {
		{"(system(\\\"touch pwned\\\"), m)", "calls system()"},
		{"$_shell(0)", "calls $_shell()"},
		{"(m = 0)", "assigns"},
		{"m += 1", "assigns"},
		{"m <<= 1", "assigns"},
		{"i++", "(++)"},
		{"--i", "(--)"},
		{"(char *)\\\"x\\\"", "string literal"},
	};
	char src[512];
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		snprintf(src, sizeof(src), HEAD "struct \"Pt\" { size = 8 }\n"
			 "boundary { at = \"f\", pass = \"p->name\", "
			 "ir = \"%s\" }\n", good[i]);
		struct irs_error *err = load(f, src);
		if (err)
			fail_msg("%s: %s", good[i], err->message);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(src, sizeof(src), HEAD "struct \"Pt\" { size = 8 }\n"
			 "boundary { at = \"f\", pass = \"p->name\",\n"
			 "  ir = \"%s\" }\n", bad[i][0]);
		assert_fails_at(f, src, 3, bad[i][1]);
	}
	assert_fails_at(f, HEAD "struct \"Pt\" { size = 8 }\n"
		"boundary { at = \"f\", pass = \"name(p)\", ir = \"m\" }\n", 3,
		"boundary: pass expression 'name(p)' calls name()");
}

// A call verifier is FUNCTION(ARGS) with {ir}, integers, strings and
// variable names as arguments, nothing else.
static void
test_verifier_call_syntax(void **state)
{
	struct unit_layout_fixture *f = *state;
	static const char *const good[] = {
		"check({ir})", "toyc_verify({ir}, stderr)", " v ( {ir} , 0x1F ) ",
		"v({ir}, -1, 7u, \\\"a \\\\\\\"q\\\\\\\" b\\\")", "pwn()",
	};
	static const char *const bad[] = {
		"(system(\\\"touch pwned\\\"), check({ir}))",
		"check({ir}, system(\\\"x\\\"))", "check({ir}) + 1",
		"check({ir}", "check({ir},)", "(*fp)({ir})", "check(m->x)",
		"check({ir}, 1x)", "check(\\\"open)", "check",
	};
	char src[512];
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		snprintf(src, sizeof(src), HEAD "struct \"Pt\" { size = 8 }\n"
			 "verifier { name = \"v\", call = \"%s\" }\n", good[i]);
		struct irs_error *err = load(f, src);
		if (err)
			fail_msg("%s: %s", good[i], err->message);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(src, sizeof(src), HEAD "struct \"Pt\" { size = 8 }\n"
			 "verifier { name = \"v\", call = \"%s\" }\n", bad[i]);
		assert_fails_at(f, src, 3, "verifier 'v': call '");
	}
}

/* }====================================================== */

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, \
		unit_layout_fixture_teardown)
	const struct CMUnitTest tests[] = {
		T(test_minimal_layout_loads),
		T(test_root_defaults_to_first_struct),
		T(test_boundaries_verifiers_reduce),
		T(test_reduce_syntax),
		T(test_rerun_template),
		T(test_describe_shows_offsets),
		T(test_describe_shows_first_overlap_past),
		T(test_explicit_offsets_need_no_debug_info),
		T(test_enum_names_from_debug_info),
		T(test_load_from_file),
		T(test_syntax_error),
		T(test_unknown_type),
		T(test_unknown_field),
		T(test_wrong_kind),
		T(test_boundary_ir_names),
		T(test_boundary_match),
		T(test_boundary_instance),
		T(test_condition_errors),
		T(test_expression_and_delta_errors),
		T(test_exponential_layouts_are_refused),
		T(test_describe_shows_delta_and_text_only),
		T(test_zip_errors),
		T(test_raw_reads_and_explicit_sizes),
		T(test_location_tables_use_every_key),
		T(test_template_errors),
		T(test_typos_are_errors),
		T(test_declarations_once_and_lists_of_names),
		T(test_missing_layout_declaration),
		T(test_prelude_errors_name_user_line),
		T(test_nested_unions_are_bounded),
		T(test_self_referencing_descriptors_are_errors),
		T(test_step_budget_stops_infinite_loop),
		T(test_memory_budget_is_an_error),
		T(test_sandbox_hides_io_and_bytecode),
		T(test_prelude_dir_from_environment),
		T(test_budget_applies_to_text_functions),
		T(test_boundary_expressions_only_read),
		T(test_verifier_call_syntax),
	};
	return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
