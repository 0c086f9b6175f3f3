// tests/fixtures/toyc/toyc.lua against real toyc IR built in this process:
// the text irsnap renders must be byte-identical to toyc_print's, and the
// JSON graph must hold together (types, parents, refs, spans).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <jansson.h>

#include "run/run.h"
#include "toyc.h"
#include "toyc_fake.h"
#include "unit_util.h"

struct fixture {
	struct fake_target ft;
	struct irs_layout *lo;
	Module *m;
};


// What toyc_print writes for m.
static char *
toyc_text(Module *m, size_t *len)
{
	char *text;
	FILE *fp = open_memstream(&text, len);
	toyc_print(m, fp);
	fclose(fp);
	return text;
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char path[4096];
	fake_target_init(&f->ft);
	toyc_fake_register(&f->ft);
	struct irs_error *err = irs_layout_load(
		toyc_fake_path("tests/fixtures/toyc/toyc.lua", path,
			       sizeof(path)), &f->ft.target, &f->lo);
	if (err) {
		fprintf(stderr, "toyc.lua: %s\n", err->message);
		irs_error_destroy(err);
		return -1;
	}
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	if (f->m)
		module_destroy(f->m);
	irs_layout_destroy(f->lo);
	fake_target_deinit(&f->ft);
	free(f);
	return 0;
}

// Says where @p got first differs from @p want, before they are compared.
static void
show_difference(const char *got, const char *want)
{
	size_t i = 0;
	while (got[i] && got[i] == want[i])
		i++;
	fprintf(stderr, "differs at byte %zu:\n--- want\n%.200s\n--- got\n"
		"%.200s\n", i, want + (i > 80 ? i - 80 : 0),
		got + (i > 80 ? i - 80 : 0));
}

// irsnap's rendering of f->m, checked against toyc_print.
static void
assert_same_text(struct fixture *f)
{
	size_t want_len;
	char *want = toyc_text(f->m, &want_len);
	char *got;
	struct irs_snapshot *snap;
	struct irs_error *err = irs_snapshot_text(f->lo, fake_memory(&f->ft),
						  (uintptr_t)f->m, NULL, NULL,
						  &got, &snap);
	assert_null(err);
	struct irs_snapshot_stats st;
	irs_snapshot_get_stats(snap, &st);
	if (st.nerrors)
		fprintf(stderr, "first error: %s\n",
			irs_snapshot_error(snap, 0));
	assert_int_equal(st.nerrors, 0);
	assert_false(st.truncated);
	assert_int_equal(st.text_bytes, want_len);
	if (strlen(got) != want_len || memcmp(got, want, want_len))
		show_difference(got, want);
	assert_int_equal(strlen(got), want_len);
	assert_memory_equal(got, want, want_len);
	free(got);
	free(want);
	irs_snapshot_destroy(snap);
}

// The bundled input prints the same through irsnap as through toyc.
static void
test_demo_text_is_toyc_print(void **state)
{
	struct fixture *f = *state;
	f->m = unit_demo_module();
	assert_same_text(f);
}

// Phis, their values and incoming blocks zipped under one count and
// chosen by a template condition on the opcode, too.
static void
test_phi_text_is_toyc_print(void **state)
{
	struct fixture *f = *state;
	f->m = unit_toyc_module("tests/fixtures/toyc/phi.ir");
	assert_same_text(f);
}

// Generated modules (floats, symbols, negative constants, calls) too.
static void
test_generated_text_is_toyc_print(void **state)
{
	struct fixture *f = *state;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		f->m = unit_generated_module(5000, seed);
		assert_same_text(f);
		module_destroy(f->m);
		f->m = NULL;
	}
}

// A walk rooted at one function (toyc --per-function's boundary) renders
// it as toyc_print_function() does: its constants, in the module's table,
// are found through the module its `parent` link names.
static void
test_function_root_is_toyc_print_function(void **state)
{
	struct fixture *f = *state;
	Function *fn;
	uint32_t n = 0;
	f->m = unit_generated_module(3000, 2);
	FOR_EACH_FUNC(fn, f->m) {
		char *want, *got;
		size_t want_len;
		struct irs_snapshot *snap;
		struct irs_snapshot_stats st;
		FILE *fp = open_memstream(&want, &want_len);
		toyc_print_function(f->m, fn, fp);
		fclose(fp);
		assert_null(irs_snapshot_text(f->lo, fake_memory(&f->ft),
					      (uintptr_t)fn, "Function", NULL,
					      &got, &snap));
		irs_snapshot_get_stats(snap, &st);
		assert_int_equal(st.nerrors, 0);
		assert_string_equal(got, want);
		n += strstr(want, ", 1") != NULL;	// a constant operand
		free(got);
		free(want);
		irs_snapshot_destroy(snap);
	}
	assert_true(n > 0);
}

// After the whole default pipeline has rewritten the IR, still the same.
static void
test_optimized_text_is_toyc_print(void **state)
{
	struct fixture *f = *state;
	PassManager pm;
	f->m = unit_generated_module(3000, 7);
	assert_true(pm_init(&pm, toyc_default_pipeline, stderr));
	pm.dump = stderr;
	assert_true(pm_run(&pm, f->m));
	pm_deinit(&pm);
	assert_same_text(f);
}

// Cut by max_bytes (or max_nodes) wherever it falls, the text ends with
// its <truncated> marker, and says so once (issue 32 item 17: some
// limits cut it mid-line, "%28 = add ", without the marker).
static void
test_truncated_text_ends_with_marker(void **state)
{
	struct fixture *f = *state;
	f->m = unit_generated_module(400, 7);
	uint32_t cut = 0;
	for (uint64_t max = 300; max < 60000; max += 37) {
		struct irs_limits lim = { .max_bytes = max };
		char *text;
		struct irs_snapshot *snap;
		struct irs_snapshot_stats st;
		assert_null(irs_snapshot_text(f->lo, fake_memory(&f->ft),
					      (uintptr_t)f->m, NULL, &lim,
					      &text, &snap));
		irs_snapshot_get_stats(snap, &st);
		irs_snapshot_destroy(snap);
		if (!st.truncated) {
			free(text);
			break;
		}
		cut++;
		size_t n = strlen(text);
		const char *end = n >= 11 ? text + n - 11 : text;
		if (strcmp(end, "<truncated>"))
			fprintf(stderr, "max_bytes %llu: ends \"%s\"\n",
				(unsigned long long)max,
				n > 40 ? text + n - 40 : text);
		assert_string_equal(end, "<truncated>");
		assert_null(strstr(text, "<truncated>") == end ? NULL : "twice");
		free(text);
	}
	assert_true(cut > 100);
}

/* {====================================================== annotate.lua */

// An operand as annotate.lua (and toyc's printer) writes it.
static void
annotate_operand(FILE *fp, const Module *m, const Operand *op)
{
	switch (op->kind) {
	case OPK_VALUE:
		if (op->u.def->name)
			fprintf(fp, "%%%s", op->u.def->name);
		else
			fprintf(fp, "%%%u", op->u.def->id);
		break;
	case OPK_CONST: {
		const Const *k = &m->consts[op->u.cidx];
		if (k->kind == CK_INT)
			fprintf(fp, "%lld", (long long)k->u.i);
		else if (k->kind == CK_FLOAT)
			fprintf(fp, "%.6e", k->u.f);
		else
			fprintf(fp, "@%.*s", (int)k->u.sym->len,
				k->u.sym->data);
		break;
	}
	case OPK_BLOCK:
		fprintf(fp, "^%s", op->u.block->label);
		break;
	}
}

static void
annotate_ref(FILE *fp, const Instr *i)
{
	if (i->name)
		fprintf(fp, "%%%s", i->name);
	else
		fprintf(fp, "%%%u", i->id);
}

// What tests/fixtures/toyc/annotate.lua renders of @p m, from toyc's own
// structures: the reference the layout's rendering must equal.
static char *
annotate_text(const Module *m, size_t *len)
{
	char *text;
	FILE *fp = open_memstream(&text, len);
	Function *fn;
	Block *b;
	Instr *i;
	fprintf(fp, "module @%.*s\n", (int)m->name->len, m->name->data);
	FOR_EACH_FUNC(fn, m) {
		fprintf(fp, "func @%.*s: %u param%s", (int)fn->name->len,
			fn->name->data, fn->nparams,
			fn->nparams != 1 ? "s" : "");
		if (fn->nparams) {
			fputs(", first ", fp);
			annotate_ref(fp, fn->params[0]);
			fputs(", last ", fp);
			annotate_ref(fp, fn->params[fn->nparams - 1]);
		}
		fputs("\n", fp);
		FOR_EACH_BLOCK(b, fn) {
			uint32_t n = 0;
			FOR_EACH_INSTR(i, b)
				n++;
			fprintf(fp, "%s: in @%.*s%s%u instructions\n", b->label,
				(int)fn->name->len, fn->name->data,
				strlen(b->label) > 6 ? "\n" : " ", n);
			const Instr *prev = NULL;
			FOR_EACH_INSTR(i, b) {
				char *line;
				size_t ll;
				FILE *lf = open_memstream(&line, &ll);
				fprintf(lf, "  %-8s", op_name(i->op));
				if (i->nops) {
					annotate_operand(lf, m, &i->ops[0]);
					if (i->nops > 1) {
						fputs(" (", lf);
						for (uint32_t k = 1; k < i->nops;
						     k++) {
							if (k > 1)
								fputs(", ", lf);
							annotate_operand(lf, m,
								&i->ops[k]);
						}
						fputs(")", lf);
					}
				}
				if ((toyc_optab[i->op].flags & 4) && i->nops &&
				    i->ops[i->nops - 1].kind == OPK_BLOCK) {
					fputs(" -> ", lf);
					annotate_operand(lf, m,
							 &i->ops[i->nops - 1]);
				}
				if (prev && prev->op == i->op)
					fputs(" (again)", lf);
				fclose(lf);
				fprintf(fp, "%s%*u\n", line, 40 - (int)ll, i->id);
				free(line);
				prev = i;
			}
		}
	}
	fclose(fp);
	return text;
}

// tests/fixtures/toyc/annotate.lua, written with element paths, ^T,
// ^prev, bitwise operators, len(), col() and '*' widths (issues 27 and
// 28), renders exactly what toyc's structures say, on the demo and on a
// generated module, with no walk error.
static void
test_annotated_listing(void **state)
{
	struct fixture *f = *state;
	char path[4096];
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	struct irs_error *err = irs_layout_load(
		toyc_fake_path("tests/fixtures/toyc/annotate.lua", path,
			       sizeof(path)), &f->ft.target, &f->lo);
	if (err)
		fail_msg("annotate.lua: %s", irs_error_get_message(err));
	for (int k = 0; k < 2; k++) {
		Module *m = k ? unit_generated_module(3000, 11)
			: unit_demo_module();
		size_t want_len;
		char *want = annotate_text(m, &want_len);
		struct irs_snapshot_stats st;
		char first[512];
		char *got = unit_render(f->lo, fake_memory(&f->ft),
					(uintptr_t)m, &st, first,
					sizeof(first));
		if (strcmp(got, want))
			show_difference(got, want);
		if (st.nerrors)
			fprintf(stderr, "first error: %s\n", first);
		assert_string_equal(got, want);
		assert_int_equal(st.nerrors, 0);
		assert_non_null(strstr(got, " (again)"));
		assert_non_null(strstr(got, " -> ^"));
		free(got);
		free(want);
		module_destroy(m);
	}
}

/* }====================================================== */

/* {====================================================== JSON */

struct graph {
	json_t *doc;
	json_t *byid;		// id -> node
	char *text;
	size_t len;
};

static void
snapshot_both(struct fixture *f, struct graph *g)
{
	char *json;
	size_t jlen;
	FILE *tf = open_memstream(&g->text, &g->len);
	FILE *jf = open_memstream(&json, &jlen);
	struct irs_snapshot *snap;
	assert_null(irs_snapshot_stream(f->lo, fake_memory(&f->ft),
					(uintptr_t)f->m, NULL, NULL, tf, jf,
					"m.ir", &snap));
	fclose(tf);
	fclose(jf);
	json_error_t jerr;
	g->doc = json_loadb(json, jlen, 0, &jerr);
	if (!g->doc)
		fprintf(stderr, "JSON line %d: %s\n", jerr.line, jerr.text);
	assert_non_null(g->doc);
	free(json);
	struct irs_snapshot_stats st;
	irs_snapshot_get_stats(snap, &st);
	assert_int_equal(st.nerrors, 0);
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(g->doc, "stats"), "nodes")), st.nodes);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(g->doc, "stats"), "hash")), st.hash);
	irs_snapshot_destroy(snap);
	g->byid = json_object();
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(g->doc, "nodes"), i, n)
		json_object_set(g->byid, json_string_value(
			json_object_get(n, "id")), n);
}

static void
graph_free(struct graph *g)
{
	json_decref(g->doc);
	json_decref(g->byid);
	free(g->text);
}

static const char *
str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

// The text between a span's bounds.
static char *
span_text(const struct graph *g, json_t *span)
{
	size_t s = (size_t)json_integer_value(json_array_get(span, 0));
	size_t e = (size_t)json_integer_value(json_array_get(span, 1));
	assert_true(s <= e && e <= g->len);
	return strndup(g->text + s, e - s);
}

static size_t
count_type(json_t *nodes, const char *type)
{
	size_t i, n = 0;
	json_t *v;
	json_array_foreach(nodes, i, v)
		n += !strcmp(str(v, "type"), type);
	return n;
}

// The graph has one node per function, block and instruction (parameters
// included), each once, children before parents, with the right parent.
static void
test_json_nodes_and_parents(void **state)
{
	struct fixture *f = *state;
	struct graph g;
	f->m = unit_demo_module();
	snapshot_both(f, &g);
	assert_string_equal(str(g.doc, "schema"), "irsnap.snapshot/1");
	assert_string_equal(str(g.doc, "layout"), "toyc");
	assert_string_equal(str(g.doc, "text_file"), "m.ir");
	json_t *nodes = json_object_get(g.doc, "nodes");
	size_t nfunc = 0, nblock = 0, ninstr = 0;
	Function *fn;
	Block *b;
	Instr *in;
	FOR_EACH_FUNC(fn, f->m) {
		nfunc++;
		ninstr += fn->nparams;
		FOR_EACH_BLOCK(b, fn) {
			nblock++;
			FOR_EACH_INSTR(in, b)
				ninstr++;
		}
	}
	assert_int_equal(count_type(nodes, "Module"), 1);
	assert_int_equal(count_type(nodes, "Function"), nfunc);
	assert_int_equal(count_type(nodes, "Block"), nblock);
	assert_int_equal(count_type(nodes, "Instr"), ninstr);
	assert_int_equal(json_object_size(g.byid), json_array_size(nodes));
	// post-order: the root comes last, every parent after its children
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n) {
		json_t *parent = json_object_get(n, "parent");
		if (json_is_null(parent)) {
			assert_int_equal(i, json_array_size(nodes) - 1);
			assert_string_equal(str(n, "type"), "Module");
			continue;
		}
		json_t *p = json_object_get(g.byid, json_string_value(parent));
		assert_non_null(p);
		const char *pt = str(p, "type"), *t = str(n, "type");
		assert_true((!strcmp(t, "Function") && !strcmp(pt, "Module")) ||
			    (!strcmp(t, "Block") && !strcmp(pt, "Function")) ||
			    (!strcmp(t, "Instr") && (!strcmp(pt, "Block") ||
						     !strcmp(pt, "Function"))));
	}
	graph_free(&g);
}

// Spans cut the text at the node's own lines; a reference's span is where
// "%name" was printed, and it names a node of the graph.
static void
test_json_spans_and_refs(void **state)
{
	struct fixture *f = *state;
	struct graph g;
	f->m = unit_generated_module(2000, 3);
	snapshot_both(f, &g);
	size_t i, nrefs = 0, nconsts = 0;
	json_t *n;
	json_array_foreach(json_object_get(g.doc, "nodes"), i, n) {
		const char *type = str(n, "type");
		json_t *fields = json_object_get(n, "fields");
		json_t *span = json_object_get(n, "span");
		if (!strcmp(type, "Block")) {
			char *s = span_text(&g, span);
			char want[64];
			snprintf(want, sizeof(want), "%s:\n",
				 str(fields, "label"));
			assert_memory_equal(s, want, strlen(want));
			free(s);
		}
		if (!strcmp(type, "Function")) {
			char *s = span_text(&g, span);
			assert_memory_equal(s, "\nfunc @", 7);
			assert_string_equal(s + strlen(s) - 2, "}\n");
			free(s);
		}
		if (strcmp(type, "Instr") || !span)
			continue;	// parameters have no line of their own
		char *line = span_text(&g, span);
		assert_memory_equal(line, "  ", 2);
		assert_int_equal(strchr(line, '\n') - line, strlen(line) - 1);
		assert_non_null(strstr(line, str(fields, "op")));
		free(line);
		size_t k;
		json_t *op;
		json_array_foreach(json_object_get(fields, "ops"), k, op) {
			json_t *u = json_object_get(op, "u");
			if (!strcmp(str(op, "kind"), "OPK_CONST")) {
				assert_true(json_is_integer(
					json_object_get(u, "index")));
				assert_non_null(json_object_get(u, "value"));
				nconsts++;
				continue;
			}
			if (strcmp(str(op, "kind"), "OPK_VALUE"))
				continue;
			json_t *def = json_object_get(g.byid, str(u, "ref"));
			assert_non_null(def);	// the ref resolves
			assert_string_equal(str(def, "type"), "Instr");
			char *at = span_text(&g, json_object_get(u, "span"));
			json_t *df = json_object_get(def, "fields");
			char want[128];
			if (json_is_string(json_object_get(df, "name")))
				snprintf(want, sizeof(want), "%%%s",
					 str(df, "name"));
			else
				snprintf(want, sizeof(want), "%%%lld",
					 json_integer_value(json_object_get(
						 df, "id")));
			assert_string_equal(at, want);
			free(at);
			nrefs++;
		}
	}
	assert_true(nrefs > 1000);
	assert_true(nconsts > 100);
	graph_free(&g);
}

// toyc.lua with Symbol made a node (issue 32 item 9): a constant an
// operand names by index renders the symbol it points at, which the
// module owns through its constants. The JSON record of an instruction
// must refer to that node, not walk it from inside its own record: the
// graph stays valid JSON, each Symbol once, its parent the Module or the
// Function that owns it, with no walk error.
static void
test_symbol_node_json_is_valid(void **state)
{
	struct fixture *f = *state;
	char path[4096];
	char *src;
	size_t len;
	assert_null(irs_file_read(toyc_fake_path(
		"tests/fixtures/toyc/toyc.lua", path, sizeof(path)), &src,
		&len));
	char *nf = strstr(src, "node = false,");
	assert_non_null(nf);	// Symbol's, the first
	memset(nf, ' ', strlen("node = false,"));
	irs_layout_destroy(f->lo);
	f->lo = NULL;
	assert_null(irs_layout_create(src, strlen(src), "toyc.lua",
				      &f->ft.target, &f->lo));
	free(src);
	f->m = unit_demo_module();
	struct graph g;
	snapshot_both(f, &g);	// parses, no walk error
	json_t *nodes = json_object_get(g.doc, "nodes");
	size_t i, nsym = 0;
	json_t *n;
	json_array_foreach(nodes, i, n) {
		if (strcmp(str(n, "type"), "Symbol"))
			continue;
		nsym++;
		json_t *p = json_object_get(g.byid, str(n, "parent"));
		assert_non_null(p);
		assert_true(!strcmp(str(p, "type"), "Module") ||
			    !strcmp(str(p, "type"), "Function"));
	}
	assert_true(nsym > 2);
	assert_int_equal(json_object_size(g.byid), json_array_size(nodes));
	graph_free(&g);
}

/* }====================================================== */

// The layout's Lua verifier finds nothing in a good module, and a use of
// an instruction outside the module when there is one.
static void
test_verifier_finds_foreign_def(void **state)
{
	struct fixture *f = *state;
	char *problems;
	uint32_t n;
	f->m = unit_demo_module();
	assert_null(irs_layout_verify(f->lo, fake_memory(&f->ft),
				      (uintptr_t)f->m, NULL, &problems, &n));
	assert_int_equal(n, 0);
	assert_string_equal(problems, "");
	free(problems);

	Instr *foreign = calloc(1, sizeof(Instr));
	foreign->id = 999;
	Instr *victim = NULL;
	Function *fn;
	Block *b;
	Instr *in;
	FOR_EACH_FUNC(fn, f->m) FOR_EACH_BLOCK(b, fn) FOR_EACH_INSTR(in, b)
		for (uint32_t k = 0; k < in->nops && !victim; k++)
			if (in->ops[k].kind == OPK_VALUE) {
				victim = in;
				in->ops[k].u.def = foreign;
			}
	assert_non_null(victim);
	assert_null(irs_layout_verify(f->lo, fake_memory(&f->ft),
				      (uintptr_t)f->m, NULL, &problems, &n));
	assert_int_equal(n, 1);
	assert_non_null(strstr(problems, "operand-defs: %"));
	assert_non_null(strstr(problems, "no instruction of the module"));
	free(problems);
	free(foreign);
	victim->nops = 0;	// module_destroy must not follow it
}

// What the front ends read from the layout.
static void
test_layout_answers_front_end(void **state)
{
	struct fixture *f = *state;
	struct irs_boundary_info bi;
	struct irs_verifier_info vi;
	assert_string_equal(irs_layout_name(f->lo), "toyc");
	assert_string_equal(irs_layout_root_type(f->lo), "Module");
	assert_int_equal(irs_layout_nboundaries(f->lo), 2);
	assert_null(irs_layout_boundary(f->lo, 0, &bi));
	assert_string_equal(bi.function, "pm_run_pass");
	assert_string_equal(bi.pass_expr, "pass->name");
	assert_null(bi.pass_name);
	assert_string_equal(bi.ir_expr, "m");
	assert_string_equal(bi.ir_type, "Module");
	// --per-function's: the function is the IR
	assert_null(irs_layout_boundary(f->lo, 1, &bi));
	assert_string_equal(bi.function, "pm_run_function_pass");
	assert_string_equal(bi.ir_expr, "f");
	assert_string_equal(bi.ir_type, "Function");
	assert_int_equal(irs_layout_nverifiers(f->lo), 2);
	assert_null(irs_layout_verifier(f->lo, 0, &vi));
	assert_string_equal(vi.name, "toyc_verify");
	assert_non_null(strstr(vi.call, "{ir}"));
	assert_int_equal(vi.ok_value, 0);
	assert_null(irs_layout_verifier(f->lo, 1, &vi));
	assert_null(vi.call);
	assert_string_equal(irs_layout_rerun(f->lo),
			    "{exe} {flags} --passes={pass} {input}");
	char *desc;
	assert_null(irs_layout_describe(f->lo, &desc));
	char want[64];
	snprintf(want, sizeof(want), "struct Instr: %zu bytes, node",
		 sizeof(Instr));
	assert_non_null(strstr(desc, want));
	assert_non_null(strstr(desc, "text by kind:\n    CK_INT: \"{u}\""));
	assert_non_null(strstr(desc, "has_result"));
	assert_non_null(strstr(desc, "pm_run_pass"));
	free(desc);
}

// Without reduce{}, the units come from the nesting of the rendering and
// the defs from what `ref` fields point at.
static void
test_reduce_defaults_from_templates(void **state)
{
	struct fixture *f = *state;
	char path[4096];
	char *src;
	size_t len;
	assert_null(irs_file_read(toyc_fake_path(
		"tests/fixtures/toyc/toyc.lua", path, sizeof(path)), &src,
		&len));
	char *r = strstr(src, "\nreduce {");
	assert_non_null(r);
	*r = '\0';	// the last declaration: cut it off
	struct irs_layout *lo;
	assert_null(irs_layout_create(src, strlen(src), "toyc.lua",
				      &f->ft.target, &lo));
	free(src);
	assert_int_equal(lo->nunits, 3);
	assert_string_equal(lo->units[0], "Function");
	assert_string_equal(lo->units[1], "Block");
	assert_string_equal(lo->units[2], "Instr");
	assert_string_equal(lo->defs, "Instr");
	assert_null(irs_layout_rerun(lo));
	irs_layout_destroy(lo);
}

// Garbage that looks like IR: a buffer of small numbers and pointers back
// into itself, walked as a Module from many places. Whatever it finds
// (absurd counts, cycles, bad tags, wild strings), the walk ends within
// its limits, records errors and never crashes.
static void
test_garbage_memory_is_bounded(void **state)
{
	struct fixture *f = *state;
	enum { WORDS = 1 << 14 };
	uint64_t *buf = malloc(WORDS * sizeof(uint64_t));
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < WORDS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (x % 4) {
		case 0:		// a pointer into the buffer, maybe misaligned
			buf[i] = (uintptr_t)(buf + (x >> 8) % WORDS) +
				 (x >> 40) % 3;
			break;
		case 1:		// a small number
			buf[i] = (x >> 16) % 5;
			break;
		default:
			buf[i] = x;
		}
	}
	struct irs_limits lim = { .max_nodes = 20000, .max_bytes = 8 << 20,
				  .max_string = 256 };
	uint64_t total_errors = 0;
	for (int k = 0; k < 64; k++) {
		FILE *devnull = fopen("/dev/null", "w");
		struct irs_snapshot *snap;
		uintptr_t root = (uintptr_t)(buf + (size_t)k * 97 % (WORDS - 16));
		struct irs_error *err = irs_snapshot_stream(f->lo,
			fake_memory(&f->ft), root, NULL, &lim, devnull, devnull,
			"g.ir", &snap);
		fclose(devnull);
		assert_null(err);
		struct irs_snapshot_stats st;
		irs_snapshot_get_stats(snap, &st);
		assert_true(st.nodes <= lim.max_nodes);
		assert_true(st.bytes <= lim.max_bytes + 65536);
		total_errors += st.nerrors;
		irs_snapshot_destroy(snap);
	}
	assert_true(total_errors > 0);
	free(buf);
}

// Walk speed on a generated module of a million instructions: printed as
// a TAP comment, not asserted (machines differ); the text must still be
// toyc's.
static void
test_walk_speed_1m(void **state)
{
	struct fixture *f = *state;
	f->m = unit_generated_module(1000000, 1);
	struct irs_memory *mem = fake_memory(&f->ft);
	char *got;
	struct irs_snapshot *snap;
	struct irs_snapshot_stats st;

	double t0 = unit_now();
	size_t want_len;
	char *want = toyc_text(f->m, &want_len);
	double t_print = unit_now() - t0;

	t0 = unit_now();
	double c0 = unit_cpu();
	assert_null(irs_snapshot_text(f->lo, mem, (uintptr_t)f->m, NULL, NULL,
				      &got, &snap));
	double t_text = unit_now() - t0, c_text = unit_cpu() - c0;
	irs_snapshot_get_stats(snap, &st);
	irs_snapshot_destroy(snap);
	assert_int_equal(st.nerrors, 0);
	assert_int_equal(st.text_bytes, want_len);
	assert_memory_equal(got, want, want_len);
	free(got);
	free(want);

	FILE *devnull = fopen("/dev/null", "w");
	irs_memory_invalidate(mem);
	t0 = unit_now();
	assert_null(irs_snapshot_stream(f->lo, mem, (uintptr_t)f->m, NULL,
					NULL, devnull, devnull, "m.ir", &snap));
	double t_both = unit_now() - t0;
	struct irs_snapshot_stats sb;
	irs_snapshot_get_stats(snap, &sb);
	irs_snapshot_destroy(snap);
	fclose(devnull);

	printf("# walk: %.0f nodes/s, %.0f MB/s of text (%llu nodes, "
	       "%.1f MB text in %.3f s, %.3f s CPU; toyc_print %.3f s)\n",
	       st.nodes / t_text, st.text_bytes / t_text / 1e6,
	       (unsigned long long)st.nodes, st.text_bytes / 1e6, t_text,
	       c_text, t_print);
	printf("# walk with JSON: %.0f nodes/s, %.3f s, %.1f MB JSON\n",
	       sb.nodes / t_both, t_both, sb.json_bytes / 1e6);
	fflush(stdout);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_phi_text_is_toyc_print,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_demo_text_is_toyc_print,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_generated_text_is_toyc_print, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_function_root_is_toyc_print_function, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_optimized_text_is_toyc_print, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_truncated_text_ends_with_marker, setup, teardown),
		cmocka_unit_test_setup_teardown(test_annotated_listing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json_nodes_and_parents,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_spans_and_refs,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_symbol_node_json_is_valid, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_verifier_finds_foreign_def, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_answers_front_end,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_reduce_defaults_from_templates, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_garbage_memory_is_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_speed_1m, setup,
						teardown),
	};
	return cmocka_run_group_tests_name("toyc_layout", tests, NULL, NULL);
}
