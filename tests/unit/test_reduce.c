// Unit tests for the reducer's pieces: the unit tree (generic splitter and
// snapshot JSON), def-use repair, rendering, the cache, crash signatures
// and shell words. The end-to-end runs are in tests/reduce/test_reduce.sh.
#include <dlfcn.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "reduce/reduce.h"
#include "toyc.h"

static const char toy[] =
	"module @m\n"
	"\n"
	"func @f(%a) {\n"
	"entry:\n"
	"  %1 = add %a, 1\n"
	"  %2 = mul %1, %1\n"
	"  condbr %2, ^then, ^done\n"
	"then:\n"
	"  %x = sub %2, %a\n"
	"  br ^done\n"
	"done:\n"
	"  ret %1\n"
	"}\n"
	"\n"
	"func @g() {\n"
	"entry:\n"
	"  %1 = call @f, 3\n"
	"  ret %1\n"
	"}\n";

static struct reduce_tree *
tree_of(const char *text)
{
	struct reduce_tree *t;
	char *copy = strdup(text);
	assert_non_null(copy);
	assert_null(reduce_tree_from_text(copy, strlen(copy), &t));
	return t;
}

static char *
unit_text(const struct reduce_tree *t, uint32_t u)
{
	return strndup(t->text + t->units[u].start,
		       t->units[u].end - t->units[u].start);
}

// The index of the unit whose text starts (after blanks) with `prefix`.
static uint32_t
find_unit(const struct reduce_tree *t, const char *prefix)
{
	for (uint32_t u = 0; u < t->nunits; u++) {
		if (t->units[u].kind != UNIT_NORMAL)
			continue;
		const char *s = t->text + t->units[u].start;
		while (*s == '\n' || *s == ' ')
			s++;
		if (!strncmp(s, prefix, strlen(prefix)))
			return u;
	}
	fail_msg("no unit starts with '%s'", prefix);
	return RU_NONE;
}

// The unit starting with `child` is a child of the one starting with
// `parent`.
static void
assert_parent(const struct reduce_tree *t, const char *child,
	      const char *parent)
{
	assert_int_equal(t->units[find_unit(t, child)].parent,
			 find_unit(t, parent));
}

static char *
render(const struct reduce_state *s, const struct reduce_tree *t)
{
	struct irs_buf b;
	irs_buf_init(&b);
	assert_true(reduce_state_render(s, t, &b));
	return irs_buf_steal(&b);
}

/* ---- the generic splitter --------------------------------------------- */

// toyc text nests function > block > instruction, with the module line and
// each function's leading blank line taken along.
static void
test_split_nests_functions_blocks_instructions(void **state)
{
	(void)state;
	struct reduce_tree *t = tree_of(toy);
	assert_int_equal(t->nlevels, 3);
	uint32_t nlevel[3] = {0}, nkind[3] = {0};
	for (uint32_t u = 0; u < t->nunits; u++) {
		nkind[t->units[u].kind]++;
		if (t->units[u].kind == UNIT_NORMAL)
			nlevel[t->units[u].level]++;
	}
	// Headers: 2 functions, 4 blocks; blank lines before the 2 functions.
	assert_int_equal(nkind[UNIT_HEADER], 6);
	assert_int_equal(nkind[UNIT_BLANK], 2);
	assert_int_equal(nlevel[0], 3);	/* module line, @f, @g */
	assert_int_equal(nlevel[1], 4);	/* entry, then, done, entry */
	assert_int_equal(nlevel[2], 8);

	uint32_t f = find_unit(t, "func @f");
	char *s = unit_text(t, f);
	assert_true(s[0] == '\n');	// the blank line before it
	assert_non_null(strstr(s, "ret %1\n}\n"));
	assert_null(strstr(s, "@g"));
	free(s);
	uint32_t then = find_unit(t, "then:");
	assert_int_equal(t->units[then].parent, f);
	s = unit_text(t, then);
	assert_string_equal(s, "then:\n  %x = sub %2, %a\n  br ^done\n");
	free(s);
	uint32_t br = find_unit(t, "br ^done");
	assert_int_equal(t->units[br].parent, then);
	reduce_tree_destroy(t);
}

// Indentation nests without braces, braces nest without indentation, and a
// stray brace or a missing close leaves lines as leaves, not an error.
static void
test_split_indentation_braces_and_garbage(void **state)
{
	(void)state;
	struct reduce_tree *t = tree_of("a:\n  b\n  c:\n    d\ne\n");
	assert_int_equal(t->nunits, 5 + 2);	/* and the headers a:, c: */
	assert_parent(t, "d", "c:");
	assert_parent(t, "c:", "a:");
	assert_int_equal(t->units[find_unit(t, "e")].parent, RU_NONE);
	reduce_tree_destroy(t);

	t = tree_of("x {\ny\nz {\nw\n}\n}\nq\n");
	assert_parent(t, "w", "z {");
	assert_parent(t, "z {", "x {");
	assert_int_equal(t->units[find_unit(t, "q")].parent, RU_NONE);
	reduce_tree_destroy(t);

	t = tree_of("}\n{ {\nno close\n\"{\" ; {\n");
	for (uint32_t u = 0; u < t->nunits; u++)
		assert_true(t->units[u].end <= t->len);
	reduce_tree_destroy(t);

	// Arbitrary bytes: spans stay inside the text and nest.
	srand(7);
	for (int round = 0; round < 200; round++) {
		char buf[256];
		size_t n = (size_t)(rand() % 255);
		for (size_t i = 0; i < n; i++)
			buf[i] = "{}:%^@ \n\t=ab\";"[rand() % 15];
		buf[n] = '\0';
		t = tree_of(buf);
		for (uint32_t u = 0; u < t->nunits; u++) {
			assert_true(t->units[u].start <= t->units[u].end);
			assert_true(t->units[u].end <= t->len);
			uint32_t p = t->units[u].parent;
			if (p != RU_NONE)
				assert_true(p < u && t->units[p].start <=
					    t->units[u].start &&
					    t->units[u].end <= t->units[p].end);
		}
		for (uint32_t k = 0; k < t->nuses; k++)
			assert_true(t->uses[k].end <= t->len);
		reduce_tree_destroy(t);
	}
}

/* ---- def-use and repair ------------------------------------------------ */

// %x = defines, header %params and the function's @name define, labels
// define ^label; names are scoped per function (%1 in @f is not @g's).
static void
test_defuse_finds_scoped_definitions(void **state)
{
	(void)state;
	struct reduce_tree *t = tree_of(toy);
	assert_int_equal(t->nunresolved, 0);
	// Uses: f: %a %1 %1 %2 ^then ^done %2 %a ^done %1 ; g: @f %1.
	assert_int_equal(t->nuses, 12);
	uint32_t f = find_unit(t, "func @f"), g = find_unit(t, "func @g");
	for (uint32_t k = 0; k < t->nuses; k++) {
		const struct reduce_use *u = &t->uses[k];
		uint32_t top = u->unit;
		while (t->units[top].parent != RU_NONE)
			top = t->units[top].parent;
		if (t->text[u->start] == '@') {		// call @f in @g
			assert_int_equal(top, g);
			// Named in @f's header, so it goes with the header.
			uint32_t du = t->defs[u->def].unit;
			assert_int_equal(t->units[du].kind, UNIT_HEADER);
			assert_int_equal(t->units[du].parent, f);
		} else {
			assert_int_equal(t->defs[u->def].scope, top);
		}
	}
	reduce_tree_destroy(t);
}

// Deleting a definition turns its value uses into the constant, retargets
// branches to a deleted block, and drops a call to a deleted function.
static void
test_delete_repairs_uses(void **state)
{
	(void)state;
	struct reduce_tree *t = tree_of(toy);
	struct reduce_state s;
	assert_null(reduce_state_init(&s, t));

	uint32_t u = find_unit(t, "%1 = add");
	assert_true(reduce_state_delete(&s, t, &u, 1));
	char *text = render(&s, t);
	assert_null(strstr(text, "%1 = add"));
	// The numbered values after it take one number less, as LLVM's
	// parser wants them in sequence.
	assert_non_null(strstr(text, "  %1 = mul 0, 0\n"));
	assert_non_null(strstr(text, "condbr %1, ^then, ^done\n"));
	assert_non_null(strstr(text, "  ret 0\n}\n\nfunc @g"));
	assert_non_null(strstr(text, "  ret %1\n}\n"));	// @g's own %1
	assert_true(reduce_state_consistent(&s, t));
	free(text);

	u = find_unit(t, "then:");
	assert_true(reduce_state_delete(&s, t, &u, 1));
	text = render(&s, t);
	assert_non_null(strstr(text, "condbr %1, ^done, ^done\n"));
	assert_null(strstr(text, "then"));
	free(text);

	u = find_unit(t, "func @f");
	assert_true(reduce_state_delete(&s, t, &u, 1));
	text = render(&s, t);
	assert_string_equal(text, "module @m\n\nfunc @g() {\nentry:\n"
			    "  ret 0\n}\n");
	assert_true(reduce_state_consistent(&s, t));
	free(text);
	reduce_state_deinit(&s);
	reduce_tree_destroy(t);
}

// Merging a block into the one before deletes its label and the previous
// terminator, so a chain of merges leaves straight-line code; blank lines
// are pieces of their own.
static void
test_merge_joins_blocks(void **state)
{
	(void)state;
	struct reduce_tree *t = tree_of(toy);
	struct reduce_state s;
	assert_null(reduce_state_init(&s, t));
	uint32_t entry = find_unit(t, "entry:");
	uint32_t blocks[] = {find_unit(t, "then:"), find_unit(t, "done:")};
	assert_false(reduce_tree_mergeable(t, entry));	// nothing before it
	assert_false(reduce_tree_mergeable(t, find_unit(t, "func @g")));
	assert_true(reduce_tree_mergeable(t, blocks[0]));
	assert_true(reduce_state_merge(&s, t, blocks, 2));
	assert_true(reduce_state_consistent(&s, t));
	char *text = render(&s, t);
	assert_non_null(strstr(text, "func @f(%a) {\nentry:\n  %1 = add %a, 1\n"
			       "  %2 = mul %1, %1\n  %x = sub %2, %a\n"
			       "  ret %1\n}\n"));
	free(text);

	uint32_t blank[8], n = 0;
	for (uint32_t u = 0; u < t->nunits; u++)
		if (t->units[u].kind == UNIT_BLANK)
			blank[n++] = u;
	assert_true(reduce_state_delete(&s, t, blank, n));
	text = render(&s, t);
	assert_null(strstr(text, "\n\n"));
	assert_non_null(strstr(text, "module @m\nfunc @f"));
	free(text);
	reduce_state_deinit(&s);
	reduce_tree_destroy(t);
}

// A use outside every unit cannot be dropped with anything: the deletion
// is refused rather than producing a candidate that cannot parse.
static void
test_delete_refuses_unrepairable(void **state)
{
	(void)state;
	static char text[] = "def\nuse def\n";
	struct reduce_unit units[] = {{0, 4, RU_NONE, 0, UNIT_NORMAL}};
	struct reduce_def defs[] = {{0, REPAIR_DROP, 0, RU_NONE, 0, RU_NONE, 0, 0, RU_NONE}};
	struct reduce_use uses[] = {{8, 11, RU_NONE, 0}};
	struct reduce_tree t = {
		.text = text, .len = strlen(text), .units = units, .nunits = 1,
		.nlevels = 1, .defs = defs, .ndefs = 1, .uses = uses,
		.nuses = 1, .constant = "0",
	};
	struct reduce_state s;
	assert_null(reduce_state_init(&s, &t));
	uint32_t u = 0;
	assert_false(reduce_state_delete(&s, &t, &u, 1));
	reduce_state_deinit(&s);
}

// Random deletions over a generated toyc module never leave a use without
// its definition: the rendered text, split again, resolves every name.
static void
test_repair_never_leaves_dangling_uses(void **state)
{
	(void)state;
	char *gen = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&gen, &len);
	assert_non_null(fp);
	toyc_gen(400, 3, fp);
	fclose(fp);
	struct reduce_tree *t = tree_of(gen);
	free(gen);
	assert_int_equal(t->nunresolved, 0);
	assert_true(t->nuses > 300);

	struct reduce_state s;
	assert_null(reduce_state_init(&s, t));
	srand(11);
	for (int round = 0; round < 60; round++) {
		memset(s.del, 0, s.nunits);
		memset(s.rep, 0, s.nuses);
		for (uint32_t k = 0; k < s.nuses; k++)
			s.to[k] = RU_NONE;
		uint32_t pick[8];
		uint32_t n = 1 + (uint32_t)rand() % 8;
		for (uint32_t i = 0; i < n; i++) {
			// Mostly blocks and instructions: they have the uses.
			// Of the pieces, only what the reducer deletes alone:
			// block headers (merging blocks) and blank lines.
			const struct reduce_unit *u;
			do {
				pick[i] = (uint32_t)rand() % t->nunits;
				u = &t->units[pick[i]];
			} while ((u->level == 0 && rand() % 4) ||
				 (u->kind == UNIT_HEADER && u->level < 2));
		}
		if (!reduce_state_delete(&s, t, pick, n))
			continue;
		assert_true(reduce_state_consistent(&s, t));
		char *text = render(&s, t);
		struct reduce_tree *again = tree_of(text);
		if (again->nunresolved)
			fprintf(stderr, "%s\n", text);
		assert_int_equal(again->nunresolved, 0);
		reduce_tree_destroy(again);
		free(text);
	}
	reduce_state_deinit(&s);
	reduce_tree_destroy(t);
}

/* ---- snapshot JSON ------------------------------------------------------- */

static const char snap_text[] =
	"module @m\n"
	"\n"
	"func @f() {\n"
	"b0:\n"
	"  %1 = load @g\n"
	"  %2 = xor %1, %1\n"
	"  br ^b1\n"
	"b1:\n"
	"  ret %2\n"
	"}\n";

// A snapshot of snap_text as irsnap.snapshot/1 writes it: spans and refs.
static char *
snapshot_json(const char *hash)
{
	const char *t = snap_text;
#define AT(s) (int)(strstr(t, s) - t)
	char *json;
	int n = asprintf(&json,
		"{\"schema\": \"irsnap.snapshot/1\", \"layout\": \"toyc\",\n"
		" \"reduce\": {\"units\": [\"Function\", \"Block\", \"Instr\"],"
		" \"defs\": \"Instr\"},\n"
		" \"nodes\": [\n"
		"  {\"id\": \"0x10\", \"type\": \"Instr\", \"parent\": \"0x2\","
		"   \"span\": [%d, %d], \"fields\": {\"op\": \"load\"}},\n"
		"  {\"id\": \"0x11\", \"type\": \"Instr\", \"parent\": \"0x2\","
		"   \"span\": [%d, %d], \"fields\": {\"ops\": ["
		"{\"kind\": \"OPK_VALUE\", \"u\": {\"ref\": \"0x10\", \"span\": [%d, %d]}},"
		"{\"kind\": \"OPK_VALUE\", \"u\": {\"ref\": \"0x10\", \"span\": [%d, %d]}}]}},\n"
		"  {\"id\": \"0x12\", \"type\": \"Instr\", \"parent\": \"0x2\","
		"   \"span\": [%d, %d], \"fields\": {\"ops\": ["
		"{\"kind\": \"OPK_BLOCK\", \"u\": {\"ref\": \"0x3\", \"span\": [%d, %d]}}]}},\n"
		"  {\"id\": \"0x2\", \"type\": \"Block\", \"parent\": \"0x1\","
		"   \"span\": [%d, %d], \"fields\": {}},\n"
		"  {\"id\": \"0x13\", \"type\": \"Instr\", \"parent\": \"0x3\","
		"   \"span\": [%d, %d], \"fields\": {\"ops\": ["
		"{\"kind\": \"OPK_VALUE\", \"u\": {\"ref\": \"0x11\", \"span\": [%d, %d]}}]}},\n"
		"  {\"id\": \"0x3\", \"type\": \"Block\", \"parent\": \"0x1\","
		"   \"span\": [%d, %d], \"fields\": {}},\n"
		"  {\"id\": \"0x1\", \"type\": \"Function\", \"parent\": \"0x0\","
		"   \"span\": [%d, %d], \"fields\": {}},\n"
		"  {\"id\": \"0x0\", \"type\": \"Module\", \"parent\": null,"
		"   \"span\": [0, %d], \"fields\": {}}\n"
		" ],\n"
		" \"stats\": {\"hash\": \"%s\"}}\n",
		AT("  %1 = load"), AT("  %2 = xor"),
		AT("  %2 = xor"), AT("  br"),
		AT("%1, %1"), AT("%1, %1") + 2,
		AT(", %1\n") + 2, AT(", %1\n") + 4,
		AT("  br"), AT("b1:"),
		AT("^b1"), AT("^b1") + 3,
		AT("b0:"), AT("b1:"),
		AT("  ret"), AT("}\n"),
		AT("%2\n}"), AT("%2\n}") + 2,
		AT("b1:"), AT("}\n"),
		AT("\nfunc"), (int)strlen(t),
		(int)strlen(t), hash);
#undef AT
	assert_true(n > 0);
	return json;
}

static struct irs_error *
tree_of_snapshot(const char *hash, struct reduce_tree **ret)
{
	char *json = snapshot_json(hash);
	char *text = strdup(snap_text);
	struct irs_error *err = reduce_tree_from_snapshot(
		text, strlen(text), json, strlen(json), "t.json", ret);
	if (err)
		free(text);
	free(json);
	return err;
}

/* ---- text that is not SSA, and its syntax (issue 17) ------------------ */

static const char nonssa[] =
	"# a function { with a brace in a comment }\n"
	"func @main {\n"
	"@entry\n"
	"  %x = alloc 16\n"
	"  %x = add %x, 1   # } not the end\n"
	"  %x = add %x, 2\n"
	"  br @done\n"
	"@done\n"
	"  check %x\n"
	"}\n";

// A use binds to the nearest definition of its name before it: deleting
// a reassignment needs no repair (the one before still stands); deleting
// the first leaves one use without any definition, which becomes the
// constant or, as_is, stays as it is (a language reading it as 0).
static void
test_defuse_binds_nearest_definition(void **state)
{
	(void)state;
	struct reduce_tree *t = tree_of(nonssa);
	struct reduce_state s;
	assert_null(reduce_state_init(&s, t));

	uint32_t u = find_unit(t, "%x = add %x, 1");
	assert_true(reduce_state_delete(&s, t, &u, 1));
	char *text = render(&s, t);
	assert_non_null(strstr(text, "  %x = alloc 16\n  %x = add %x, 2\n"));
	assert_non_null(strstr(text, "  check %x\n"));
	assert_int_equal(s.ndangling, 0);
	assert_true(reduce_state_consistent(&s, t));
	free(text);
	reduce_state_deinit(&s);

	assert_null(reduce_state_init(&s, t));
	u = find_unit(t, "%x = alloc");
	assert_true(reduce_state_delete(&s, t, &u, 1));
	text = render(&s, t);
	assert_non_null(strstr(text, "  %x = add 0, 1"));
	assert_non_null(strstr(text, "  %x = add %x, 2\n"));	// the add's
	assert_int_equal(s.ndangling, 1);
	free(text);
	reduce_state_deinit(&s);

	assert_null(reduce_state_init(&s, t));
	s.as_is = true;
	u = find_unit(t, "%x = alloc");
	assert_true(reduce_state_delete(&s, t, &u, 1));
	text = render(&s, t);
	assert_non_null(strstr(text, "@entry\n  %x = add %x, 1"));
	assert_int_equal(s.ndangling, 1);
	free(text);
	reduce_state_deinit(&s);
	reduce_tree_destroy(t);
}

// '#' starts the most lines, so it is the comment marker and the '}' in a
// comment ends nothing; "@name" lines are labels, owning what follows
// them; "br @done" refers to the label, so deleting that block takes the
// branch along (no other label is ever named, to retarget it to). Given ';' as the marker instead, the comment's '}' counts.
static void
test_syntax_from_the_input_or_given(void **state)
{
	(void)state;
	struct reduce_tree *t = tree_of(nonssa);
	assert_string_equal(t->comment, "#");
	assert_non_null(t->label);
	// (a comment line goes with the unit after it, as a blank line does)
	uint32_t f = find_unit(t, "# a function");
	assert_int_equal(t->units[f].end, strlen(nonssa));
	assert_parent(t, "%x = alloc", "@entry");
	assert_parent(t, "check %x", "@done");
	struct reduce_state s;
	assert_null(reduce_state_init(&s, t));
	uint32_t u = find_unit(t, "@done");
	assert_true(reduce_state_delete(&s, t, &u, 1));
	char *text = render(&s, t);
	assert_null(strstr(text, "br @done"));	// no dangling branch
	assert_null(strstr(text, "check"));
	assert_non_null(strstr(text, "  %x = add %x, 2\n}\n"));
	free(text);
	reduce_state_deinit(&s);
	reduce_tree_destroy(t);

	struct reduce_syntax syn = {";", NULL};
	char *copy = strdup(nonssa);
	assert_null(reduce_tree_from_text_syntax(copy, strlen(copy), &syn,
						 &t));
	assert_string_equal(t->comment, ";");
	f = find_unit(t, "# a function");
	assert_true(t->units[f].end < strlen(nonssa));	// at "} not the end"
	reduce_tree_destroy(t);

	syn = (struct reduce_syntax){"#", "^L[0-9]+$"};
	copy = strdup("f {\nL1\n  a\nL2\n  b\n}\n");
	assert_null(reduce_tree_from_text_syntax(copy, strlen(copy), &syn,
						 &t));
	assert_parent(t, "a", "L1");
	assert_parent(t, "b", "L2");
	reduce_tree_destroy(t);

	// "--" (Lua, SQL) when it starts the most lines; ";" over it else
	t = tree_of("-- a program\nlocal x = 1\n-- its end\nprint(x)\n");
	assert_string_equal(t->comment, "--");
	reduce_tree_destroy(t);
	t = tree_of("; a\n; b\n-- c\nx\n");
	assert_string_equal(t->comment, ";");
	reduce_tree_destroy(t);

	syn = (struct reduce_syntax){"#", "(unclosed"};
	copy = strdup("x\n");
	struct irs_error *err = reduce_tree_from_text_syntax(copy, 2, &syn,
							      &t);
	assert_non_null(err);
	assert_int_equal(irs_error_get_code(err), IRS_ERROR_USAGE);
	assert_non_null(strstr(irs_error_get_message(err), "--label"));
	irs_error_destroy(err);
	free(copy);
}


// Units come from the layout's unit types with their spans, uses from refs;
// deleting the load makes its uses the constant, deleting b1 retargets the
// branch to the block that is left.
static void
test_snapshot_units_and_refs(void **state)
{
	(void)state;
	char hash[17];
	snprintf(hash, sizeof(hash), "%016llx",
		 (unsigned long long)reduce_hash(snap_text, strlen(snap_text)));
	struct reduce_tree *t;
	assert_null(tree_of_snapshot(hash, &t));
	assert_string_equal(t->source, "snapshot");
	uint32_t normal = 0;
	for (uint32_t u = 0; u < t->nunits; u++)
		normal += t->units[u].kind == UNIT_NORMAL;
	assert_int_equal(normal, 7);	/* 1 function, 2 blocks, 4 instrs */
	assert_int_equal(t->nunits, 7 + 4);	/* 3 headers, 1 blank line */
	assert_int_equal(t->nlevels, 3);
	assert_int_equal(t->nuses, 4);

	struct reduce_state s;
	assert_null(reduce_state_init(&s, t));
	uint32_t load = find_unit(t, "%1 = load");
	assert_int_equal(t->units[load].level, 2);
	assert_true(reduce_state_delete(&s, t, &load, 1));
	char *text = render(&s, t);
	assert_non_null(strstr(text, "b0:\n  %2 = xor 0, 0\n  br ^b1\n"));
	free(text);
	uint32_t b1 = find_unit(t, "b1:");
	assert_true(reduce_state_delete(&s, t, &b1, 1));
	text = render(&s, t);
	// ^b1's only stand-in would be b0, which nothing refers to by name,
	// so the branch goes with its block's terminator: the unit is dropped.
	assert_null(strstr(text, "b1"));
	assert_true(reduce_state_consistent(&s, t));
	free(text);

	// Merging b1 into b0 instead: one block, the xor and the ret.
	reduce_state_deinit(&s);
	assert_null(reduce_state_init(&s, t));
	assert_true(reduce_state_merge(&s, t, &b1, 1));
	text = render(&s, t);
	assert_string_equal(text, "module @m\n\nfunc @f() {\nb0:\n"
			    "  %1 = load @g\n  %2 = xor %1, %1\n  ret %2\n}\n");
	free(text);
	reduce_state_deinit(&s);
	reduce_tree_destroy(t);
}

// The layout's syntax of the text (reduce { comment, label }) comes with
// the snapshot; a label regex that does not compile is an error naming it.
static void
test_snapshot_carries_the_layouts_syntax(void **state)
{
	(void)state;
	char hash[17];
	snprintf(hash, sizeof(hash), "%016llx",
		 (unsigned long long)reduce_hash(snap_text, strlen(snap_text)));
	char *json = snapshot_json(hash);
	const char *at = "\"defs\": \"Instr\"";
	char *cut = strstr(json, at);
	assert_non_null(cut);
	// only b1 is a label by it (the default, one word and ':', has b0 too)
	const char *labels[] = {"^b1:$", "^(b"};
	for (int bad = 0; bad < 2; bad++) {
		char *doc;
		assert_true(asprintf(&doc, "%.*s\"comment\": \"//\", "
				     "\"label\": \"%s\", %s",
				     (int)(cut - json), json, labels[bad],
				     cut) > 0);
		char *text = strdup(snap_text);
		struct reduce_tree *t = NULL;
		struct irs_error *err = reduce_tree_from_snapshot(
			text, strlen(text), doc, strlen(doc), "t.json", &t);
		free(doc);
		if (bad) {
			assert_non_null(err);
			assert_non_null(strstr(err->message,
				"the layout's reduce.label '^(b': not a "
				"regular expression"));
			irs_error_destroy(err);
			free(text);
			continue;
		}
		assert_null(err);
		assert_string_equal(t->comment, "//");
		assert_true(t->comment_set);
		assert_string_equal(t->label_src, labels[0]);
		uint32_t s0 = (uint32_t)(strstr(t->text, "b0:") - t->text);
		uint32_t s1 = (uint32_t)(strstr(t->text, "b1:") - t->text);
		assert_false(reduce_tree_is_label(t, s0, s0 + 3));
		assert_true(reduce_tree_is_label(t, s1, s1 + 3));
		reduce_tree_destroy(t);
	}
	free(json);
}

// A snapshot whose hash is not the text's describes another file: refused.
static void
test_snapshot_of_other_text_is_refused(void **state)
{
	(void)state;
	struct reduce_tree *t;
	struct irs_error *err = tree_of_snapshot("0123456789abcdef", &t);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_FORMAT);
	assert_non_null(strstr(err->message, "t.json"));
	irs_error_destroy(err);

	char *text = strdup(snap_text);
	err = reduce_tree_from_snapshot(text, strlen(text), "{\"nodes\": [",
					11, "bad.json", &t);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "bad.json:"));
	irs_error_destroy(err);
	free(text);
}

/* ---- cache ------------------------------------------------------------------ */

// What goes in comes out, across growth, including the hash 0.
static void
test_cache_remembers_verdicts(void **state)
{
	(void)state;
	struct reduce_cache c;
	reduce_cache_init(&c);
	uint8_t v;
	assert_false(reduce_cache_get(&c, 42, &v));
	for (uint64_t k = 0; k < 5000; k++)
		assert_true(reduce_cache_put(&c, k * 0x9e3779b97f4a7c15ull,
					     (uint8_t)(k & 1)));
	for (uint64_t k = 0; k < 5000; k++) {
		assert_true(reduce_cache_get(&c, k * 0x9e3779b97f4a7c15ull, &v));
		assert_int_equal(v, k & 1);
	}
	assert_false(reduce_cache_get(&c, 12345, &v));
	assert_int_equal(c.count, 5000);
	assert_true(reduce_cache_put(&c, 0, 1));	// overwrite, not add
	assert_int_equal(c.count, 5000);
	reduce_cache_deinit(&c);

	assert_true(reduce_hash("abc", 3) != reduce_hash("abd", 3));
	assert_true(reduce_hash("abc", 3) == reduce_hash("abc", 3));
}

/* ---- crash signatures -------------------------------------------------------- */

__attribute__((noinline)) void crashsig_probe(void);
__attribute__((noinline)) void
crashsig_probe(void)
{
	__asm__ volatile("");
}

// Frames in libc are skipped; a frame in this test binary is named from
// its ELF symbol table though it has no dynamic symbol.
static void
test_crashsig_names_frames(void **state)
{
	(void)state;
	Dl_info info;
	struct link_map *lm;
	void *probe;
	*(void (**)(void))(void *)&probe = crashsig_probe;
	assert_true(dladdr1(probe, &info, (void **)&lm, RTLD_DL_LINKMAP));
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	char path[] = "/tmp/irsnap-sig-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *fp = fdopen(fd, "w");
	fprintf(fp, "irsnap-crashsig 1\nsignal 11\n"
		"frame /lib/x86_64-linux-gnu/libc.so.6\t1234\tmemcpy\n"
		"frame %s\t%lx\t-\n"
		"frame /nonexistent/libfoo.so\t42\tfoo_dyn\n"
		"frame /nonexistent/libbar.so\t43\t-\n"
		"frame %s\t%lx\t-\n",
		exe, (unsigned long)((uintptr_t)probe - lm->l_addr),
		exe, (unsigned long)((uintptr_t)probe - lm->l_addr));
	fclose(fp);

	struct reduce_symcache *sc = NULL;
	struct reduce_crashsig sig, sig2;
	assert_true(reduce_crashsig_read(path, &sc, &sig));
	assert_int_equal(sig.signo, 11);
	assert_int_equal(sig.nframes, 3);
	assert_string_equal(sig.frames[0], "crashsig_probe");
	assert_string_equal(sig.frames[1], "foo_dyn");
	assert_string_equal(sig.frames[2], "libbar.so+0x43");
	assert_true(reduce_crashsig_read(path, &sc, &sig2));
	assert_true(reduce_crashsig_equal(&sig, &sig2));
	sig2.signo = 6;
	assert_false(reduce_crashsig_equal(&sig, &sig2));
	struct irs_buf b;
	irs_buf_init(&b);
	reduce_crashsig_format(&sig, &b);
	assert_string_equal(b.data, "SIGSEGV at crashsig_probe < foo_dyn < "
			    "libbar.so+0x43");
	irs_buf_deinit(&b);

	unlink(path);
	assert_false(reduce_crashsig_read(path, &sc, &sig));	// no crash
	reduce_symcache_destroy(sc);
}

/* ---- shell words ---------------------------------------------------------- */

static void
test_shell_split_and_quote(void **state)
{
	(void)state;
	char **w;
	assert_null(irs_shell_split("irsnap reduce a.ir --crash "
				       "'/x/toyc --passes=cse {}' \"b c\" d\\ e",
				       &w));
	assert_string_equal(w[0], "irsnap");
	assert_string_equal(w[3], "--crash");
	assert_string_equal(w[4], "/x/toyc --passes=cse {}");
	assert_string_equal(w[5], "b c");
	assert_string_equal(w[6], "d e");
	assert_null(w[7]);
	for (int i = 0; w[i]; i++)
		free(w[i]);
	free(w);
	struct irs_error *err = irs_shell_split("a 'b", &w);
	assert_non_null(err);
	irs_error_destroy(err);

	struct irs_buf b;
	irs_buf_init(&b);
	irs_shell_quote(&b, "it's a {}");
	assert_null(irs_shell_split(b.data, &w));
	assert_string_equal(w[0], "it's a {}");
	assert_null(w[1]);
	free(w[0]);
	free(w);
	irs_buf_deinit(&b);
}

// MLIR's block arguments: one a block other than its region's first does
// not use goes, with the operand each branch to the block passes it
// (cond_br's segment shrinks, br's list and signature too); a used one,
// and an entry block's (the function's parameters), stay.
static void
test_mlir_drops_block_arguments(void **state)
{
	(void)state;
	static const char head[] =
		"\"builtin.module\"() ({\n"
		"  \"builtin.func\"() ({\n"
		"  ^bb0(%arg0: i32, %arg1: i1):\n"
		"    %0 = \"arith.constant\"() {value = 1 : i32} : () -> i32\n"
		"    %1 = \"arith.addi\"(%arg0, %0) : (i32, i32) -> i32\n";
	static const char tail[] =
		"    \"std.return\"(%arg0) : (i32) -> ()\n"
		"  }) {sym_name = \"f\", type = (i32, i1) -> i32} : () -> ()\n"
		"}) : () -> ()\n";
	static const char body[] =
		"    \"std.cond_br\"(%arg1, %1, %arg0, %arg0)[^bb1, ^bb2] "
		"{operand_segment_sizes = dense<[1, 2, 1]> : vector<3xi32>} : "
		"(i1, i32, i32, i32) -> ()\n"
		"  ^bb1(%2: i32, %3: i32):  // pred: ^bb0\n"
		"    %4 = \"arith.muli\"(%2, %2) : (i32, i32) -> i32\n"
		"    \"std.br\"(%4)[^bb2] : (i32) -> ()\n"
		"  ^bb2(%5: i32):  // 2 preds: ^bb0, ^bb1\n";
	static const char no3[] =
		"    \"std.cond_br\"(%arg1, %1, %arg0)[^bb1, ^bb2] "
		"{operand_segment_sizes = dense<[1, 1, 1]> : vector<3xi32>} : "
		"(i1, i32, i32) -> ()\n"
		"  ^bb1(%2: i32):  // pred: ^bb0\n"
		"    %4 = \"arith.muli\"(%2, %2) : (i32, i32) -> i32\n"
		"    \"std.br\"(%4)[^bb2] : (i32) -> ()\n"
		"  ^bb2(%5: i32):  // 2 preds: ^bb0, ^bb1\n";
	static const char no5[] =
		"    \"std.cond_br\"(%arg1, %1, %arg0)[^bb1, ^bb2] "
		"{operand_segment_sizes = dense<[1, 2, 0]> : vector<3xi32>} : "
		"(i1, i32, i32) -> ()\n"
		"  ^bb1(%2: i32, %3: i32):  // pred: ^bb0\n"
		"    %4 = \"arith.muli\"(%2, %2) : (i32, i32) -> i32\n"
		"    \"std.br\"()[^bb2] : () -> ()\n"
		"  ^bb2:  // 2 preds: ^bb0, ^bb1\n";
	char *text, *want3, *want5;
	assert_true(asprintf(&text, "%s%s%s", head, body, tail) > 0);
	assert_true(asprintf(&want3, "%s%s%s", head, no3, tail) > 0);
	assert_true(asprintf(&want5, "%s%s%s", head, no5, tail) > 0);
	size_t len = strlen(text);
	struct irs_buf b;
	irs_buf_init(&b);
	// %2 is used: it stays
	assert_int_equal(reduce_lang_mlir.drop_block_arg(text, len, 0, &b),
			 REDUCE_ARG_KEPT);
	assert_int_equal(reduce_lang_mlir.drop_block_arg(text, len, 1, &b),
			 REDUCE_ARG_DROPPED);
	assert_int_equal(b.len, strlen(want3));
	assert_memory_equal(b.data, want3, b.len);
	assert_int_equal(reduce_lang_mlir.drop_block_arg(text, len, 2, &b),
			 REDUCE_ARG_DROPPED);
	assert_int_equal(b.len, strlen(want5));
	assert_memory_equal(b.data, want5, b.len);
	// ^bb0's are the function's: never counted
	assert_int_equal(reduce_lang_mlir.drop_block_arg(text, len, 3, &b),
			 REDUCE_ARG_NONE);
	irs_buf_deinit(&b);
	free(text);
	free(want3);
	free(want5);
}

// MLIR's generic form: found by its quoted op names; each operand gets a
// span naming the first dominating value of its type (a function's
// arguments first, never a value of another type, never one from a
// sibling region or an isolated function), multi-result values as %r#k.
static void
test_mlir_rewires_to_dominating_values(void **state)
{
	(void)state;
	static const char text[] =
		"\"builtin.module\"() ({\n"
		"  \"builtin.func\"() ({\n"
		"  ^bb0(%arg0: i32, %arg1: f32):\n"
		"    %0:2 = \"test.two\"() : () -> (f32, i32)\n"
		"    %1 = \"arith.addi\"(%0#1, %arg0) : (i32, i32) -> i32\n"
		"    \"scf.if\"(%c) ({\n"
		"      %2 = \"arith.mulf\"(%0#0, %arg1) : (f32, f32) -> f32\n"
		"      \"scf.yield\"() : () -> ()\n"
		"    }, {\n"
		"      %3 = \"arith.negf\"(%2) : (f32) -> f32\n"
		"      \"scf.yield\"() : () -> ()\n"
		"    }) : (i1) -> ()\n"
		"    \"std.return\"(%1) : (i32) -> ()\n"
		"  }) {sym_name = \"f\", type = (i32, f32) -> i32} : () -> ()\n"
		"}) : () -> ()\n";
	size_t len = sizeof(text) - 1;
	assert_ptr_equal(reduce_lang_detect(text, len), &reduce_lang_mlir);
	assert_ptr_equal(reduce_lang_detect("define i32 @f() {\n}\n", 20),
			 &reduce_lang_llvm);

	struct reduce_spans sp = {0};
	reduce_lang_mlir.rewires(text, len, &sp);
	reduce_spans_sort(&sp);
	// each operand, by its text, and what it becomes
	static const char *const want[][2] = {
		{"%0#1", "%arg0"},	// the i32 argument first
		{"%arg0", "%0#1"},	// not itself: the next i32
		{"%0#0", "%arg1"},
		{"%arg1", "%0#0"},
		{"%2", "%arg1"},	// in the sibling region: the f32s
					// that dominate it
		{"%1", "%arg0"},
	};
	uint32_t k = 0;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_true(k < sp.n);
		const struct reduce_span *x = &sp.v[k++];
		assert_int_equal(x->end - x->start, strlen(want[i][0]));
		assert_memory_equal(text + x->start, want[i][0],
				    strlen(want[i][0]));
		assert_string_equal(x->repl, want[i][1]);
	}
	assert_int_equal(sp.n, k);	// %c has no definition: untouched
	reduce_spans_deinit(&sp);

}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_nests_functions_blocks_instructions),
		cmocka_unit_test(test_split_indentation_braces_and_garbage),
		cmocka_unit_test(test_defuse_finds_scoped_definitions),
		cmocka_unit_test(test_delete_repairs_uses),
		cmocka_unit_test(test_merge_joins_blocks),
		cmocka_unit_test(test_delete_refuses_unrepairable),
		cmocka_unit_test(test_repair_never_leaves_dangling_uses),
		cmocka_unit_test(test_snapshot_units_and_refs),
		cmocka_unit_test(test_snapshot_carries_the_layouts_syntax),
		cmocka_unit_test(test_snapshot_of_other_text_is_refused),
		cmocka_unit_test(test_cache_remembers_verdicts),
		cmocka_unit_test(test_crashsig_names_frames),
		cmocka_unit_test(test_shell_split_and_quote),
		cmocka_unit_test(test_defuse_binds_nearest_definition),
		cmocka_unit_test(test_syntax_from_the_input_or_given),
		cmocka_unit_test(test_mlir_rewires_to_dominating_values),
		cmocka_unit_test(test_mlir_drops_block_arguments),
	};
	return cmocka_run_group_tests_name("reduce", tests, NULL, NULL);
}
