// The template language (layout/template.c, cond.c, path.c and the walk's
// interpreter of them) on structures built in this process: paths that
// pick an element or a slice of a sequence ({ops[0]}, {ops[-1]},
// {uses[1:]*, }), the enclosing node ({^Fn.retty}), the previous element
// ({^prev.line}), bitwise operators, string lengths and computed widths,
// globals in conditions and as union tags (issues 27 and 28).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fake_target.h"
#include "unit_util.h"

enum TFlag { TF_NONE = 0, TF_VOLATILE = 0x100, TF_SEXT = 0x200 };

typedef struct TIns {
	struct TIns *next;
	uint32_t op;		/* opcode in bits 0-7, TFlag bits above */
	int32_t line;
	int32_t sval;
	uint64_t big;
	const char *name;
	uint32_t nargs;
	uint32_t *args;
	struct TIns **uses;
	uint32_t nuses;
	uint32_t pair[2];	/* an inline array */
} TIns;

typedef struct TBlk {
	const char *label;
	TIns *first;
} TBlk;

typedef struct TFn {
	const char *name;
	int32_t retty;
	uint32_t nblks;
	TBlk *blks;
} TFn;

static int32_t test_level = 0;		/* globals of the tests */
static int32_t test_mode = 2;
static enum TFlag test_flag = TF_SEXT;

struct fixture {
	struct fake_target ft;
	struct irs_layout *lo;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct fake_target *ft = &f->ft;
	fake_target_init(ft);
	FAKE_TYPE(ft, TIns);
	FAKE_PTR(ft, TIns, next, "TIns");
	FAKE_UINT(ft, TIns, op);
	FAKE_INT(ft, TIns, line);
	FAKE_INT(ft, TIns, sval);
	FAKE_UINT(ft, TIns, big);
	FAKE_PTR(ft, TIns, name, "char");
	FAKE_UINT(ft, TIns, nargs);
	FAKE_PTR(ft, TIns, args, "uint32_t");
	FAKE_PTR(ft, TIns, uses, "TIns *");
	FAKE_UINT(ft, TIns, nuses);
	FAKE_ARRAY(ft, TIns, pair, "uint32_t");
	fake_type(ft, "uint32_t", 4);
	fake_field(ft, "uint32_t", "", 0, 4, IRS_TYPE_UINT, "uint32_t", "", 0);
	FAKE_TYPE(ft, TBlk);
	FAKE_PTR(ft, TBlk, label, "char");
	FAKE_PTR(ft, TBlk, first, "TIns");
	FAKE_TYPE(ft, TFn);
	FAKE_PTR(ft, TFn, name, "char");
	FAKE_INT(ft, TFn, retty);
	FAKE_UINT(ft, TFn, nblks);
	FAKE_PTR(ft, TFn, blks, "TBlk");
	fake_enumerator(ft, "TFlag", "TF_NONE", TF_NONE);
	fake_enumerator(ft, "TFlag", "TF_VOLATILE", TF_VOLATILE);
	fake_enumerator(ft, "TFlag", "TF_SEXT", TF_SEXT);
	fake_global(ft, "test_level", (uintptr_t)&test_level, 4,
		    IRS_TYPE_INT, "int32_t", "", 0);
	fake_global(ft, "test_mode", (uintptr_t)&test_mode, 4, IRS_TYPE_INT,
		    "int32_t", "", 0);
	fake_global(ft, "test_flag", (uintptr_t)&test_flag, 4, IRS_TYPE_ENUM,
		    "TFlag", "", 0);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	unit_layout_teardown(&f->ft, f->lo);
	free(f);
	return 0;
}

static void
load(struct fixture *f, const char *src)
{
	unit_layout_load(&f->ft.target, src, "t.lua", &f->lo);
}

// Loading fails at line @p line with a message containing @p what.
static void
load_fails(struct fixture *f, const char *src, int line, const char *what)
{
	struct irs_error *err = unit_layout_try(&f->ft.target, src, "t.lua",
						&f->lo);
	char prefix[32];
	snprintf(prefix, sizeof(prefix), "t.lua:%d: ", line);
	if (!err || strncmp(irs_error_get_message(err), prefix,
			    strlen(prefix)) ||
	    !strstr(irs_error_get_message(err), what))
		fprintf(stderr, "got: %s\nwant: %s...%s\n",
			err ? irs_error_get_message(err) : "(loaded)", prefix,
			what);
	assert_non_null(err);
	assert_memory_equal(irs_error_get_message(err), prefix,
			    strlen(prefix));
	assert_non_null(strstr(irs_error_get_message(err), what));
	assert_null(strchr(irs_error_get_message(err), '\n'));
	irs_error_destroy(err);
}

static void
render(struct fixture *f, const void *root, const char *want,
       uint64_t nerrors, const char *error)
{
	unit_assert_render(f->lo, fake_memory(&f->ft), (uintptr_t)root, want,
			   nerrors, error);
}

// The same, walking @p root as @p type.
static void
render_as(struct fixture *f, const void *root, const char *type,
	  const char *want)
{
	char *text;
	struct irs_snapshot *snap;
	struct irs_snapshot_stats st;
	assert_null(irs_snapshot_text(f->lo, fake_memory(&f->ft),
				      (uintptr_t)root, type, NULL, &text,
				      &snap));
	irs_snapshot_get_stats(snap, &st);
	irs_snapshot_destroy(snap);
	assert_string_equal(text, want);
	assert_int_equal(st.nerrors, 0);
	free(text);
}

#define INS_FIELDS \
	"next = ptr(\"next\", \"TIns\"), op = u32 \"op\", " \
	"line = scalar \"line\", sval = scalar \"sval\", big = u64 \"big\", " \
	"name = cstr \"name\", " \
	"args = array { ptr = \"args\", count = \"nargs\", of = u32 {} }, " \
	"uses = array { ptr = \"uses\", count = \"nuses\", of = ref \"TIns\" }"

#define HEAD(root) "layout { name = \"t\", root = \"" root "\" }\n"

/* {====================================================== element paths */

// {args[0]}, {args[-1]} (the last: a call's callee), a slice joined with
// a separator, its length, and a picked element in a condition.
static void
test_pick_and_slice_in_templates(void **state)
{
	struct fixture *f = *state;
	uint32_t args[4] = { 7, 8, 9, 10 };
	TIns a = { .name = "a" }, b = { .name = "b" }, c = { .name = "c" };
	TIns *uses[3] = { &a, &b, &c };
	TIns i = { .name = "i", .nargs = 4, .args = args, .uses = uses,
		   .nuses = 3 };
	load(f, HEAD("TIns")
	     "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
	     " text = \"{args[0]} {args[-1]} [{args[1:]*, }] [{args[:-2]*,}]"
	     " [{args[-9:]*,}] [{args[3:1]*,}] #{=#args[1:3]}"
	     " {?args[3] == 10}ten{/}{?args[4]}{:}no4{/}"
	     " {=args[1] * 2} {args[2]:%03d} {@uses[-1]} ({@uses[1:]*, })"
	     " {uses[0].name}\",\n"
	     " ref = \"%{name}\" }\n");
	render(f, &i, "7 10 [8, 9, 10] [7,8] [7,8,9,10] [] #2 tenno4 16 009 "
	       "%c (%b, %c) a", 0, "");
	// not there: a marker and an error where the text shows it
	i.nargs = 0;
	i.nuses = 0;
	load(f, HEAD("TIns")
	     "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
	     " text = \"{args[-1]}|{?args[0]}x{:}-{/}|{args[1:]*,}|"
	     "{uses[0].name}\", ref = \"%{name}\" }\n");
	render(f, &i, "<bad index -1>|-||<bad index 0>", 2,
	       "index -1 out of range: TIns.args has 0 elements");
}

// A path may pick elements of structs and go on through them, and a
// location may pick an element of an inline array ("pair[1]").
static void
test_pick_goes_through_structs(void **state)
{
	struct fixture *f = *state;
	TIns x = { .name = "x", .line = 4 }, y = { .name = "y", .line = 9 };
	TBlk blks[2] = { { "entry", &x }, { "exit", &y } };
	TFn fn = { .name = "main", .retty = 3, .nblks = 2, .blks = blks };
	TIns i = { .name = "i", .pair = { 11, 22 } };
	load(f, HEAD("TFn")
	     "struct \"TIns\" { fields = { " INS_FIELDS ", "
	     "p1 = u32 \"pair[1]\", p0 = scalar \"pair[0]\" }, text = \"\" }\n"
	     "struct \"TBlk\" { node = false, fields = { label = cstr "
	     "\"label\", first = ptr(\"first\", \"TIns\") }, text = \"\" }\n"
	     "struct \"TFn\" { fields = { name = cstr \"name\",\n"
	     " blks = array { ptr = \"blks\", count = \"nblks\", of = \"TBlk\" }"
	     " },\n text = \"{blks[1].label} {blks[-1].first.line} "
	     "{blks[0].first.name}{?blks[0].first.line < blks[1].first.line}"
	     " <{/}\" }\n");
	render(f, &fn, "exit 9 x <", 0, "");
	load(f, HEAD("TIns")
	     "struct \"TIns\" { fields = { p1 = u32 \"pair[1]\", "
	     "p0 = scalar \"pair[0]\", b = bits { at = \"pair[1]\", bit = 1, "
	     "width = 3 } }, text = \"{p0} {p1} {b}\" }\n");
	render(f, &i, "11 22 3", 0, "");
	load_fails(f, HEAD("TIns")
		   "struct \"TIns\" { fields = { p = u32 \"pair[2]\" } }\n", 2,
		   "subscript 2 is outside its 2 elements");
	load_fails(f, HEAD("TIns")
		   "struct \"TIns\" { fields = { p = u32 \"args[0]\" } }\n",
		   2, "'args' is a pointer");
	load_fails(f, HEAD("TIns")
		   "struct \"TIns\" { fields = { p = u32 \"pair[-1]\" } }\n",
		   2, "pair[-1]");
}

// A member that is no array is a sequence of elements of its size (issue
// 27 item 8: fixed { ... } refused a plain integer): one element for an
// integer, two 32-bit halves for a 64-bit word.
static void
test_plain_integer_as_sequence(void **state)
{
	struct fixture *f = *state;
	TIns i = { .line = 42, .big = 0x500000007ull };
	load(f, HEAD("TIns")
	     "struct \"TIns\" { fields = { one = fixed { at = \"line\", "
	     "of = i32 {} },\n halves = fixed { at = \"big\", of = u32 {} } "
	     "},\n text = \"{one*,} {one[0]} {=#one} {halves*,} "
	     "{halves[-1]}\" }\n");
	render(f, &i, "42 42 1 7,5 5", 0, "");
}

// Paths a template cannot take: what to write instead.
static void
test_path_errors(void **state)
{
	struct fixture *f = *state;
#define TPL(t) HEAD("TIns") "struct \"TIns\" { fields = { " INS_FIELDS \
	" }, text = \"" t "\" }\n"
	load_fails(f, TPL("{line[0]}"), 2, "'line' is an integer, not a "
		   "sequence");
	load_fails(f, TPL("{args[1:].x}"), 2, "a slice is the end of a path");
	load_fails(f, TPL("{args[0].x}"), 2, "'args[0]' is an element, which "
		   "has no field 'x'");
	load_fails(f, TPL("{args[x]}"), 2, "a subscript is [N], [-N] or a "
		   "slice [N:M]");
	load_fails(f, TPL("{^Nope.x}"), 2, "'^Nope': no struct Nope");
	load_fails(f, TPL("{^prev}"), 2, "names a struct, not a field of it");
	load_fails(f, TPL("{args[0]*,}"), 2, "not a sequence (the '*' joins");
#undef TPL
}

/* }====================================================== */

/* {====================================================== context */

// {^Fn.retty}: a field of the nearest enclosing Fn, from a block's text;
// none around: <no Fn> and nothing is true of it.
static void
test_enclosing_node(void **state)
{
	struct fixture *f = *state;
	TIns x = { .name = "x" };
	TBlk blks[2] = { { "entry", &x }, { "exit", NULL } };
	TFn fn = { .name = "main", .retty = 3, .nblks = 2, .blks = blks };
	load(f, HEAD("TFn")
	     "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
	     " text = \"  {name} in {^TFn.name}{?^TFn.retty == 3} ret3{/}\\n\" }\n"
	     "struct \"TBlk\" { node = false, fields = { label = cstr "
	     "\"label\", first = ptr(\"first\", \"TIns\") },\n"
	     " text = \"{label}: retc {^TFn.retty}\\n{first}\" }\n"
	     "struct \"TFn\" { fields = { name = cstr \"name\", retty = scalar "
	     "\"retty\",\n blks = array { ptr = \"blks\", count = \"nblks\", "
	     "of = \"TBlk\" } },\n text = \"fn {name}\\n{blks}\" }\n");
	render(f, &fn, "fn main\nentry: retc 3\n  x in main ret3\nexit: retc 3\n"
	       "<null>", 0, "");
	// an instruction walked as the root has no function around it
	render_as(f, &x, "TIns", "  x in <no TFn>\n");
}

// {^prev.line}: the previous element's field, in a list of nodes and an
// array of values; the first has none ({?^prev} is false).
static void
test_previous_element(void **state)
{
	struct fixture *f = *state;
	TIns i3 = { .name = "c", .line = 2 };
	TIns i2 = { .next = &i3, .name = "b", .line = 1 };
	TIns i1 = { .next = &i2, .name = "a", .line = 1 };
	TBlk blk = { "entry", &i1 };
	load(f, HEAD("TBlk")
	     "struct \"TIns\" { fields = { line = scalar \"line\", "
	     "name = cstr \"name\" },\n"
	     " text = \"{?not ^prev or line != ^prev.line}; line {line}\\n{/}"
	     "  {name}{?^prev} after {^prev.name}{/}\\n\" }\n"
	     "struct \"TBlk\" { fields = { label = cstr \"label\",\n"
	     " insts = list { head = \"first\", of = \"TIns\", link = \"next\" }"
	     " }, text = \"{label}:\\n{insts}\" }\n");
	render(f, &blk, "entry:\n; line 1\n  a\n  b after a\n; line 2\n"
	       "  c after b\n", 0, "");
	// elements that are values, and a slice: the element before the
	// slice's first is its previous
	uint32_t lines[5] = { 5, 5, 6, 6, 9 };
	uint32_t *arr = lines;
	TIns holder = { .nargs = 5, .args = arr };
	load(f, HEAD("TIns")
	     "struct \"L\" { ctype = \"uint32_t\", size = 4, node = false,\n"
	     " fields = { v = u32(0) },\n"
	     " text = \"{?^prev and v == ^prev.v}={:}{v}{/}\" }\n"
	     "struct \"TIns\" { fields = { ls = array { ptr = \"args\", "
	     "count = \"nargs\", of = \"L\" } },\n"
	     " text = \"{ls*,} [{ls[1:]*,}] {ls[3]}\" }\n");
	render(f, &holder, "5,=,6,=,9 [=,6,=,9] =", 0, "");
}

/* }====================================================== */

// A walk error inside a value struct says whose field it is (issue 27
// item 12: "TFn at 0x..., field name" for the name of a block, which the
// function has a field of the same name as).
static void
test_error_names_the_nested_struct(void **state)
{
	struct fixture *f = *state;
	TBlk blks[2] = { { "entry", NULL }, { (const char *)8, NULL } };
	TFn fn = { .name = "main", .nblks = 2, .blks = blks };
	load(f, HEAD("TFn")
	     "struct \"TBlk\" { node = false, fields = { name = cstr "
	     "\"label\" },\n text = \"{name};\" }\n"
	     "struct \"TFn\" { fields = { name = cstr \"name\",\n"
	     " blks = array { ptr = \"blks\", count = \"nblks\", of = \"TBlk\" }"
	     " },\n text = \"{name}: {blks}\" }\n");
	char want[200];
	snprintf(want, sizeof(want), "TFn at %p, field name of TBlk at %p: "
		 "unreadable string at 0x8", (void *)&fn, (void *)&blks[1]);
	render(f, &fn, "main: entry;<unreadable 0x8>;", 1, want);
}

/* {====================================================== operators */

// & | ^ ~ << >> with C's meaning, Python's precedence (a & b == c is
// (a & b) == c), enum names of the other side or T::NAME.
static void
test_bitwise_operators(void **state)
{
	struct fixture *f = *state;
	TIns i = { .op = 0x2a | TF_VOLATILE, .sval = -8,
		   .big = 0x8000000000000001ull };
	load(f, HEAD("TIns")
	     "struct \"TIns\" { fields = { " INS_FIELDS ",\n"
	     " flags = enum(\"op\", { type = \"TFlag\" }) },\n"
	     " text = \"{=op & 0xff} {=op >> 8} {=~0} {=1 << 4 | 1} "
	     "{=op ^ 0x2a} {=sval >> 1} {=big >> 63} {=1 << 64} {=sval >> 99}"
	     " {=(op & 0xff) + 1 << 1} {=op & 0xff:%x}"
	     "{?op & 0x100 == 0x100} v{/}{?op & TFlag::TF_SEXT} s{/}"
	     "{?flags & TF_VOLATILE} V{/}{?not op & 1} even{/}\" }\n");
	render(f, &i, "42 1 -1 17 256 -4 1 0 -1 86 2a v V even", 0, "");
	load_fails(f, HEAD("TIns")
		   "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
		   " text = \"{?op && 1}x{/}\" }\n", 2,
		   "write 'and' and 'or' for conditions");
	load_fails(f, HEAD("TIns")
		   "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
		   " text = \"{?op & TF_NOPE}x{/}\" }\n", 2,
		   "T::NAME names an enumerator of enum T");
	load_fails(f, HEAD("TIns")
		   "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
		   " text = \"{?op & TFlag::TF_NOPE}x{/}\" }\n", 2,
		   "enum 'TFlag' has no 'TF_NOPE'");
}

// len(f): the bytes {f} renders; col(): the column the text is at; a
// '*' width from an expression (negative: left-justified, as in C).
static void
test_lengths_and_widths(void **state)
{
	struct fixture *f = *state;
	TIns a = { .name = "add", .line = 3 };
	TIns b = { .name = "sub.long.name", .line = 12 };
	TBlk blk1 = { "entry", &a };
	TBlk blk2 = { "a_long_label", &b };
	load(f, HEAD("TIns")
	     "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
	     " text = \"{name}{line:%*d:8 - len(name)}|{name:%-*s:6}|"
	     "{name:%*s:-6}|{=line:%*d:4}|{=len(name)}\" }\n");
	render(f, &a, "add    3|add   |add   |   3|3", 0, "");
	render(f, &b, "sub.long.name12   |sub.long.name|sub.long.name|  12|13",
	       0, "");
	// pad to column 12, whatever came before; a newline after a long
	// label
	load(f, HEAD("TBlk")
	     "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
	     " text = \"  {name}{line:%*d:16 - col()}\" }\n"
	     "struct \"TBlk\" { fields = { label = cstr \"label\", "
	     "first = ptr(\"first\", \"TIns\") },\n"
	     " text = \"{label}:{?len(label) > 6}\\n{/}{first}\\n\" }\n");
	render(f, &blk1, "entry:  add    3\n", 0, "");
	render(f, &blk2, "a_long_label:\n  sub.long.name12\n", 0, "");
	load_fails(f, HEAD("TIns")
		   "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
		   " text = \"{name:%*s}\" }\n", 2, "a '*' width is given by "
		   "an expression after another ':'");
	load_fails(f, HEAD("TIns")
		   "struct \"TIns\" { fields = { " INS_FIELDS " },\n"
		   " text = \"{=len(line.x)}\" }\n", 2, "has no field 'x'");
}

/* }====================================================== */

/* {====================================================== globals */

// {?G} is the global's value (issue 27 item 10: it was true whenever the
// global was found); a global compares, and chooses a union's case; a
// global of an enum type renders its name (it crashed: no names).
static void
test_globals_in_conditions_and_tags(void **state)
{
	struct fixture *f = *state;
	TIns i = { .line = 5, .sval = -1 };
	load(f, HEAD("TIns")
	     "struct \"TIns\" { fields = { " INS_FIELDS ",\n"
	     " level = global \"test_level\", mode = global \"test_mode\",\n"
	     " flag = global \"test_flag\",\n"
	     " u = union { tag = \"mode\", cases = { [1] = scalar \"line\","
	     " [2] = scalar \"sval\" } } },\n"
	     " text = \"{?level}L{:}l{/}{?mode}M{/}{?level != 0}!{/}"
	     "{?mode == 2}2{/}{?mode > level}>{/} {u} {flag}"
	     "{?flag == TF_SEXT} s{/}\" }\n");
	test_level = 0;
	test_mode = 2;
	render(f, &i, "lM2> -1 TF_SEXT s", 0, "");
	test_level = 7;
	test_mode = 1;
	render(f, &i, "LM! 5 TF_SEXT s", 0, "");
	test_level = 0;
}

/* }====================================================== */

int
main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_pick_and_slice_in_templates),
		T(test_pick_goes_through_structs),
		T(test_plain_integer_as_sequence),
		T(test_path_errors),
		T(test_enclosing_node),
		T(test_previous_element),
		T(test_error_names_the_nested_struct),
		T(test_bitwise_operators),
		T(test_lengths_and_widths),
		T(test_globals_in_conditions_and_tags),
	};
#undef T
	return cmocka_run_group_tests_name("template", tests, NULL, NULL);
}
