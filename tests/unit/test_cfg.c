// Unit tests for common/tools/cfg.c over hand-built snapshots: the blocks
// and edges it reads (a terminator's references only, not a phi's), the
// function a pass changed, the drawing Graphviz makes of it, escaped, and
// a snapshot whose layout declares no graph.
// (tests/report/test_browser.sh looks at the pictures of a real run.)
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/tools.h"
#include "unit_util.h"

struct fixture {
	char dir[64];
};

// A loop: entry -> loop, loop -> loop and exit; the phi in loop names
// entry and loop, which are no edges of loop's.
static const char text_a[] =
	"module @m\n"
	"func @f(%a) {\n"
	"entry:\n"
	"  br ^loop\n"
	"loop:\n"
	"  %1 = phi [%a, ^entry], [%2, ^loop]\n"
	"  %2 = add %1, 1\n"
	"  condbr %2, ^loop, ^exit\n"
	"exit:\n"
	"  ret %2 ; \"<x>\" \\ &\n"
	"}\n"
	"func @g() {\n"
	"entry:\n"
	"  ret\n"
	"}\n";

// The same with @f's loop cut: a pass dropped its back edge.
static const char text_b[] =
	"module @m\n"
	"func @f(%a) {\n"
	"entry:\n"
	"  br ^loop\n"
	"loop:\n"
	"  %1 = phi [%a, ^entry], [%2, ^loop]\n"
	"  %2 = add %1, 1\n"
	"  br ^exit\n"
	"exit:\n"
	"  ret %2 ; \"<x>\" \\ &\n"
	"}\n"
	"func @g() {\n"
	"entry:\n"
	"  ret\n"
	"}\n";

// [start, end) of the text from @p from to the line starting @p to (or
// the end), as "[s, e]".
static void
span(char *buf, size_t len, const char *text, const char *from,
     const char *to)
{
	const char *s = strstr(text, from);
	const char *e = to ? strstr(s + 1, to) : text + strlen(text);
	snprintf(buf, len, "[%d, %d]", (int)(s - text), (int)(e - text));
}

// A node {id, type, parent, span, fields}; @p refs the block ids its
// fields name, as a toyc instruction's operands do.
static void
node(FILE *fp, const char *id, const char *type, const char *parent,
     const char *spn, const char *refs)
{
	fprintf(fp, "{\"id\": \"%s\", \"type\": \"%s\", \"parent\": %s%s%s, "
		"\"span\": %s, \"fields\": {\"ops\": [", id, type,
		parent ? "\"" : "", parent ? parent : "null",
		parent ? "\"" : "", spn);
	for (const char *r = refs; r && *r; ) {
		size_t n = strcspn(r, " ");
		fprintf(fp, "%s{\"kind\": \"OPK_BLOCK\", \"u\": {\"ref\": "
			"\"%.*s\"}}", r == refs ? "" : ", ", (int)n, r);
		r += n + (r[n] == ' ');
	}
	fprintf(fp, "]}},\n");
}

// Writes NAME.json for @p text (text_a or text_b from "func @f" on, so
// that spans count from there), with a cfg member unless @p no_cfg.
static void
write_snapshot(struct fixture *f, const char *name, const char *text,
	       bool no_cfg)
{
	char path[128], s[64];
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "{\"schema\": \"irsnap.snapshot/1\", \"layout\": \"t\", "
		"\"root\": {\"address\": \"0x1\", \"type\": \"Module\"}, "
		"\"text_file\": null, %s\"nodes\": [\n", no_cfg ? "" :
		"\"cfg\": {\"func\": \"Function\", \"block\": \"Block\"}, ");
	// children first, as irsnap writes them
	const char *f_ = strstr(text, "func @f");
	const char *g_ = strstr(text, "func @g");
	span(s, sizeof(s), f_, "  br ^loop", "loop:");
	node(fp, "0x10", "Instr", "0xb0", s, "0xb1");
	span(s, sizeof(s), f_, "  %1 = phi", "  %2 =");
	node(fp, "0x11", "Instr", "0xb1", s, "0xb0 0xb1");
	span(s, sizeof(s), f_, "  %2 = add", "  ");
	node(fp, "0x12", "Instr", "0xb1", s, NULL);
	bool cut = strstr(f_, "  br ^exit") != NULL;
	span(s, sizeof(s), f_, cut ? "  br ^exit" : "  condbr", "exit:");
	node(fp, "0x13", "Instr", "0xb1", s, cut ? "0xb2" : "0xb1 0xb2");
	span(s, sizeof(s), f_, "  ret %2", "}");
	node(fp, "0x14", "Instr", "0xb2", s, NULL);
	span(s, sizeof(s), f_, "entry:", "loop:");
	node(fp, "0xb0", "Block", "0xf0", s, NULL);
	span(s, sizeof(s), f_, "loop:", "exit:");
	node(fp, "0xb1", "Block", "0xf0", s, NULL);
	span(s, sizeof(s), f_, "exit:", "}");
	node(fp, "0xb2", "Block", "0xf0", s, NULL);
	// spans relative to the whole text
	fprintf(fp, "{\"id\": \"0xf0\", \"type\": \"Function\", \"parent\": "
		"\"0x1\", \"span\": [%d, %d], \"fields\": {}},\n",
		(int)(f_ - text), (int)(g_ - text));
	fprintf(fp, "{\"id\": \"0xb9\", \"type\": \"Block\", \"parent\": "
		"\"0xf1\", \"span\": [%d, %d], \"fields\": {}},\n",
		(int)(strstr(g_, "entry:") - text), (int)strlen(text) - 2);
	fprintf(fp, "{\"id\": \"0xf1\", \"type\": \"Function\", \"parent\": "
		"\"0x1\", \"span\": [%d, %d], \"fields\": {}}\n",
		(int)(g_ - text), (int)strlen(text));
	fprintf(fp, "], \"errors\": [], \"stats\": {}}\n");
	fclose(fp);
}

// The graph of snapshot NAME, whose text is @p text.
static struct irs_cfg *
read_cfg(struct fixture *f, const char *name, const char *text)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	struct irs_cfg *g = NULL;
	struct irs_error *err = irs_cfg_read(path, text, strlen(text), &g);
	if (err)
		fail_msg("irs_cfg_read: %s", irs_error_get_message(err));
	return g;
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	unit_tmpdir(f->dir, sizeof(f->dir), "cfg");
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	unit_rmtree(f->dir);
	free(f);
	return 0;
}

static size_t
count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

// Edges from terminators only: entry->loop, loop->loop, loop->exit, not
// loop->entry, which only the phi names.
static void
test_edges_are_the_terminators(void **state)
{
	struct fixture *f = *state;
	// the spans count from "func @f"
	const char *text = strstr(text_a, "func @f");
	write_snapshot(f, "a.json", text, false);
	struct irs_cfg *g = read_cfg(f, "a.json", text);
	struct irs_buf svg;
	size_t n = 0;
	irs_buf_init(&svg);
	struct irs_error *err = irs_cfg_svg(g, "func @f(%a) {", &svg, &n);
	if (err)
		fail_msg("irs_cfg_svg: %s", irs_error_get_message(err));
	assert_int_equal(n, 3);
	assert_true(!strncmp(svg.data, "<svg", 4));
	assert_int_equal(count(svg.data, "class=\"node\""), 3);
	assert_int_equal(count(svg.data, "class=\"edge\""), 3);
	assert_non_null(strstr(svg.data, "<title>b0&#45;&gt;b1</title>"));
	assert_non_null(strstr(svg.data, "<title>b1&#45;&gt;b1</title>"));
	assert_non_null(strstr(svg.data, "<title>b1&#45;&gt;b2</title>"));
	assert_null(strstr(svg.data, "<title>b1&#45;&gt;b0</title>"));
	// the block's text, escaped: no markup of the IR's makes it through
	assert_non_null(strstr(svg.data, "&lt;x&gt;"));
	assert_null(strstr(svg.data, "<x>"));
	irs_buf_deinit(&svg);
	irs_cfg_destroy(g);
}

// The function a pass changed is found by its text; one it left alone
// is not; and with nothing changed, none is.
static void
test_changed_function(void **state)
{
	struct fixture *f = *state;
	const char *ta = strstr(text_a, "func @f"), *tb = strstr(text_b,
								 "func @f");
	write_snapshot(f, "a.json", ta, false);
	write_snapshot(f, "b.json", tb, false);
	struct irs_cfg *a = read_cfg(f, "a.json", ta);
	struct irs_cfg *b = read_cfg(f, "b.json", tb);
	struct irs_cfg *a2 = read_cfg(f, "a.json", ta);
	assert_string_equal(irs_cfg_changed(a, b), "func @f(%a) {");
	assert_null(irs_cfg_changed(a, a2));
	struct irs_buf svg;
	size_t n = 0;
	irs_buf_init(&svg);
	assert_null(irs_cfg_svg(b, "func @f(%a) {", &svg, &n));
	assert_int_equal(count(svg.data, "class=\"edge\""), 2);	// cut
	irs_buf_deinit(&svg);
	irs_cfg_destroy(a);
	irs_cfg_destroy(b);
	irs_cfg_destroy(a2);
}

// A layout without cfg { }: NOT_FOUND, saying so.
static void
test_no_cfg_declared(void **state)
{
	struct fixture *f = *state;
	const char *text = strstr(text_a, "func @f");
	char path[128];
	write_snapshot(f, "n.json", text, true);
	snprintf(path, sizeof(path), "%s/n.json", f->dir);
	struct irs_cfg *g = NULL;
	struct irs_error *err = irs_cfg_read(path, text, strlen(text), &g);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	assert_non_null(strstr(err->message, "declares no cfg"));
	assert_null(g);
	irs_error_destroy(err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_edges_are_the_terminators,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_changed_function, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_cfg_declared, setup,
						teardown),
	};
	return cmocka_run_group_tests_name("cfg", tests, NULL, NULL);
}
