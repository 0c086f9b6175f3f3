// Unit tests for common/tools/schema.c (the JSON Schema validator and the
// embedded schemas) and common/tools/validate.c (`irsnap validate` on files and
// run directories built here by hand).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/tools.h"
#include "unit_util.h"

/* {==== Helpers ========================================================== */

static json_t *
parse(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &je);
	if (!j)
		fail_msg("bad test JSON at %d:%d: %s", je.line, je.column,
			 je.text);
	return j;
}

// Problems of @p doc against schema @p id, as text; *n their count.
static char *
problems(const char *id, const json_t *doc, uint32_t *n)
{
	struct irs_buf out;
	irs_buf_init(&out);
	*n = 0;
	struct irs_error *err = irs_schema_validate(id, doc, "F.json", &out, n);
	if (err)
		fail_msg("validate: %s", err->message);
	return irs_buf_steal(&out);
}

// Problems of @p doc (text) against an inline @p schema (text).
static char *
inline_problems(const char *schema, const char *doc, uint32_t *n)
{
	json_t *s = parse(schema), *d = parse(doc);
	struct irs_buf out;
	irs_buf_init(&out);
	*n = 0;
	struct irs_error *err = irs_schema_validate_with(s, d, "F.json", &out, n);
	if (err)
		fail_msg("validate: %s", err->message);
	json_decref(s);
	json_decref(d);
	return irs_buf_steal(&out);
}

static void
assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("expected \"%s\" in:\n%s", needle, hay);
}

static const char *manifest_text =
	"{ \"schema\": \"irsnap.manifest/1\", \"run_id\": \"20261130-051500-4242\","
	"  \"irsnap_version\": \"0.1.0\", \"created\": \"2026-11-30T05:15:00Z\","
	"  \"updated\": \"2026-11-30T05:15:02Z\", \"status\": \"running\","
	"  \"debugger\": \"gdb 13.1\","
	"  \"debuggee\": { \"exe\": \"/bin/toyc\", \"args\": null, \"pid\": 4242 },"
	"  \"layout\": { \"path\": \"toyc.lua\", \"name\": \"toyc\" },"
	"  \"options\": { \"changed_only\": false, \"formats\": [\"text\", \"json\"] },"
	"  \"events\": ["
	"    { \"seq\": 1, \"pass\": \"cse\", \"phase\": \"before\","
	"      \"snapshot\": { \"text\": \"snapshots/0001-cse.before.ir\","
	"                      \"json\": \"snapshots/0001-cse.before.json\" },"
	"      \"nodes\": 1, \"bytes\": 8, \"text_bytes\": 10,"
	"      \"hash\": \"22ba5f849f015805\","
	"      \"walk_errors\": 0, \"cpu_s\": null, \"verifiers\": [] },"
	"    { \"seq\": 1, \"pass\": \"cse\", \"phase\": \"after\","
	"      \"snapshot\": null, \"changed\": false,"
	"      \"nodes\": 3, \"bytes\": 100, \"hash\": \"0123456789abcdef\","
	"      \"walk_errors\": 0, \"cpu_s\": 0.01,"
	"      \"verifiers\": [ { \"name\": \"v\", \"problems\": 0, \"output\": \"\" } ] }"
	"  ],"
	"  \"failure\": null }";

// Its stats (and the manifest's event) describe the text setup_tree()
// puts beside it, "module @m\n": 10 bytes and their XXH64, which
// `irsnap validate` checks.
static const char *snapshot_text =
	"{ \"schema\": \"irsnap.snapshot/1\", \"layout\": \"toyc\","
	"  \"root\": { \"address\": \"0x1000\", \"type\": \"Module\" },"
	"  \"text_file\": \"0001-cse.before.ir\","
	"  \"nodes\": [ { \"id\": \"0x1000\", \"type\": \"Module\", \"parent\": null,"
	"                 \"span\": [0, 10], \"fields\": {} } ],"
	"  \"errors\": [],"
	"  \"stats\": { \"nodes\": 1, \"bytes\": 8, \"text_bytes\": 10,"
	"               \"truncated\": false, \"hash\": \"22ba5f849f015805\" } }";

/* }==== The embedded schemas ============================================= */

// The tools carry every schema, byte for byte as in common/schema/.
static void
test_embedded_schemas_match_files(void **state)
{
	(void)state;
	const char *names[] = { "failure-1.schema.json", "manifest-1.schema.json",
				"replay-1.schema.json", "replay-2.schema.json",
				"hunt-1.schema.json", "snapshot-1.schema.json" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const struct irs_schema_file *f = irs_schema_files;
		while (f->name && strcmp(f->name, names[i]))
			f++;
		assert_non_null(f->name);
		char path[256], *text;
		size_t len;
		snprintf(path, sizeof(path), "common/schema/%s", names[i]);
		assert_null(irs_file_read(path, &text, &len));
		assert_int_equal(len, f->len);
		assert_memory_equal(text, f->text, len);
		free(text);
	}
}

// Every schema parses, is draft 2020-12, and uses only keywords this
// validator supports (an unsupported one would be an error here).
static void
test_schemas_load_and_are_supported(void **state)
{
	(void)state;
	const char *ids[] = { "irsnap.snapshot/1", "irsnap.manifest/1",
			      "irsnap.failure/1", "irsnap.replay/1",
			      "irsnap.replay/2", "irsnap.hunt/1" };
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		json_t *s;
		assert_null(irs_schema_load(ids[i], &s));
		assert_string_equal(json_string_value(json_object_get(s, "$schema")),
				    "https://json-schema.org/draft/2020-12/schema");
		json_t *empty = json_object();
		uint32_t n = 0;
		struct irs_buf out;
		irs_buf_init(&out);
		assert_null(irs_schema_validate_with(s, empty, "x", &out, &n));
		assert_true(n > 0);	// {} lacks every required member
		irs_buf_deinit(&out);
		json_decref(empty);
		json_decref(s);
	}
	json_t *s;
	struct irs_error *err = irs_schema_load("irsnap.nosuch/1", &s);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	irs_error_destroy(err);
}

// Strings from debuggee memory are any bytes: what the snapshot writer
// makes of them is always a JSON string every reader accepts, and valid
// UTF-8 comes back unchanged. jansson is the reader here; it checks UTF-8
// as RFC 3629 does (overlong forms, surrogates, past U+10FFFF: invalid).
static void
test_any_bytes_escape_to_valid_json(void **state)
{
	(void)state;
	static const struct { const char *s; size_t n; bool valid; } cases[] = {
		{ "plain", 5, true },
		{ "\xc3\xa9t\xc3\xa9", 6, true },		// été
		{ "\xe2\x82\xac", 3, true },		// €
		{ "\xf0\x9f\x98\x80", 4, true },		// U+1F600
		{ "\xf4\x8f\xbf\xbf", 4, true },		// U+10FFFF
		{ "\xed\x9f\xbf", 3, true },		// U+D7FF
		{ "\xe0\x80\xaf", 3, false },		// overlong '/'
		{ "\xe0\x9f\xbf", 3, false },		// overlong
		{ "\xc0\x80", 2, false },			// overlong NUL
		{ "\xed\xa0\x80", 3, false },		// surrogate
		{ "\xf0\x8f\xbf\xbf", 4, false },	// overlong
		{ "\xf4\x90\x80\x80", 4, false },	// past U+10FFFF
		{ "\xf5\x80\x80\x80", 4, false },
		{ "\x80 stray", 7, false },
		{ "cut \xe2\x82", 6, false },
		{ "nul\0in", 6, true },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct irs_buf b;
		irs_buf_init(&b);
		assert_true(irs_buf_json_string(&b, cases[i].s, cases[i].n));
		json_error_t je;
		json_t *j = json_loadb(b.data, b.len, JSON_DECODE_ANY |
				       JSON_ALLOW_NUL, &je);
		if (!j)
			fail_msg("case %zu: %s: %s", i, b.data, je.text);
		if (cases[i].valid) {
			assert_int_equal(json_string_length(j), cases[i].n);
			assert_memory_equal(json_string_value(j), cases[i].s,
					    cases[i].n);
		}
		json_decref(j);
		irs_buf_deinit(&b);
	}
	// And random bytes, weighted towards the bytes UTF-8 is made of.
	static const unsigned char pool[] = { 0x00, 0x22, 0x5c, 0x41, 0x7f, 0x80,
		0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed,
		0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x0a, 0x1f };
	unsigned int seed = 12345;
	for (int k = 0; k < 20000; k++) {
		char s[8];
		size_t n = (size_t)(rand_r(&seed) % 8);
		for (size_t i = 0; i < n; i++)
			s[i] = (char)pool[rand_r(&seed) % sizeof(pool)];
		struct irs_buf b;
		irs_buf_init(&b);
		assert_true(irs_buf_json_string(&b, s, n));
		json_error_t je;
		json_t *j = json_loadb(b.data, b.len, JSON_DECODE_ANY |
				       JSON_ALLOW_NUL, &je);
		if (!j)
			fail_msg("random case %d: %s: %s", k, b.data, je.text);
		json_decref(j);
		irs_buf_deinit(&b);
	}
}

// The JSON examples in docs/formats.md are valid against the schemas: the
// page and the schema files say the same thing.
static void
test_format_doc_examples_are_valid(void **state)
{
	(void)state;
	char *doc;
	size_t len, nexamples = 0;
	assert_null(irs_file_read("docs/formats.md", &doc, &len));
	for (char *p = doc; (p = strstr(p, "```json\n")); ) {
		p += 8;
		char *end = strstr(p, "\n```");
		assert_non_null(end);
		*end = '\0';
		json_t *j = parse(p);
		const char *id = json_string_value(json_object_get(j, "schema"));
		assert_non_null(id);
		uint32_t n;
		char *out = problems(id, j, &n);
		if (n)
			fail_msg("docs/formats.md example %s:\n%s", id, out);
		free(out);
		json_decref(j);
		nexamples++;
		p = end + 1;
	}
	assert_int_equal(nexamples, 8);	// irsnap's five, --json's three
	free(doc);
}

/* }==== Problems and their messages ====================================== */

static void
test_valid_documents_pass(void **state)
{
	(void)state;
	uint32_t n;
	json_t *m = parse(manifest_text), *s = parse(snapshot_text);
	char *out = problems("irsnap.manifest/1", m, &n);
	assert_string_equal(out, "");
	assert_int_equal(n, 0);
	free(out);
	out = problems("irsnap.snapshot/1", s, &n);
	assert_string_equal(out, "");
	free(out);
	json_decref(m);
	json_decref(s);
}

// A wrong type names the file, the JSON path and both types.
static void
test_wrong_type_names_file_and_path(void **state)
{
	(void)state;
	uint32_t n;
	json_t *m = parse(manifest_text);
	json_t *ev = json_array_get(json_object_get(m, "events"), 1);
	json_object_set_new(ev, "hash", json_integer(7));
	char *out = problems("irsnap.manifest/1", m, &n);
	assert_int_equal(n, 1);
	assert_string_equal(out, "F.json: $.events[1].hash: expected string, "
			    "got integer\n");
	free(out);
	json_decref(m);
}

static void
test_missing_member_is_named(void **state)
{
	(void)state;
	uint32_t n;
	json_t *m = parse(manifest_text);
	json_object_del(m, "status");
	json_object_del(json_object_get(m, "debuggee"), "pid");
	char *out = problems("irsnap.manifest/1", m, &n);
	assert_int_equal(n, 2);
	assert_contains(out, "F.json: $: missing member \"status\"\n");
	assert_contains(out, "F.json: $.debuggee: missing member \"pid\"\n");
	free(out);
	json_decref(m);
}

static void
test_enum_const_and_pattern(void **state)
{
	(void)state;
	uint32_t n;
	json_t *m = parse(manifest_text);
	json_object_set_new(m, "status", json_string("exploded"));
	json_object_set_new(m, "schema", json_string("irsnap.manifest/2"));
	json_object_set_new(m, "run_id", json_string("yesterday"));
	char *out = problems("irsnap.manifest/1", m, &n);
	assert_int_equal(n, 3);
	assert_contains(out, "$.status: expected one of \"running\", "
			"\"completed\", \"failed\"; got \"exploded\"\n");
	assert_contains(out, "$.schema: expected \"irsnap.manifest/1\", got "
			"\"irsnap.manifest/2\"");
	assert_contains(out, "$.run_id: \"yesterday\" does not match");
	free(out);
	json_decref(m);
}

// An after event needs "changed": the oneOf picks the branch its phase
// selects and reports what that branch misses, not the phase mismatch.
static void
test_after_event_needs_changed(void **state)
{
	(void)state;
	uint32_t n;
	json_t *m = parse(manifest_text);
	json_object_del(json_array_get(json_object_get(m, "events"), 1),
			"changed");
	char *out = problems("irsnap.manifest/1", m, &n);
	assert_string_equal(out, "F.json: $.events[1]: missing member "
			    "\"changed\"\n");
	free(out);
	json_decref(m);
}

// A value of a type no alternative takes gets one line listing the types.
static void
test_alternatives_of_types(void **state)
{
	(void)state;
	uint32_t n;
	json_t *s = parse(snapshot_text);
	json_t *node = json_array_get(json_object_get(s, "nodes"), 0);
	json_object_set_new(node, "parent", json_integer(5));
	char *out = problems("irsnap.snapshot/1", s, &n);
	assert_string_equal(out, "F.json: $.nodes[0].parent: expected null or "
			    "string, got integer\n");
	free(out);
	// The right type but a bad address: the address branch speaks.
	json_object_set_new(node, "parent", json_string("0xZZ"));
	out = problems("irsnap.snapshot/1", s, &n);
	assert_string_equal(out, "F.json: $.nodes[0].parent: \"0xZZ\" does not "
			    "match ^0x[0-9a-fA-F]{1,16}$\n");
	free(out);
	json_decref(s);
}

// Readers ignore members they do not know; so does the schema.
static void
test_unknown_members_are_fine(void **state)
{
	(void)state;
	uint32_t n;
	json_t *m = parse(manifest_text);
	json_object_set_new(m, "future_member", json_pack("{s:i}", "x", 1));
	json_object_set_new(json_array_get(json_object_get(m, "events"), 0),
			    "gpu_s", json_real(1.5));
	char *out = problems("irsnap.manifest/1", m, &n);
	assert_int_equal(n, 0);
	free(out);
	json_decref(m);
}

static void
test_span_shape(void **state)
{
	(void)state;
	uint32_t n;
	json_t *s = parse(snapshot_text);
	json_t *node = json_array_get(json_object_get(s, "nodes"), 0);
	json_object_set_new(node, "span", json_pack("[i,i,i]", 1, 2, 3));
	char *out = problems("irsnap.snapshot/1", s, &n);
	assert_string_equal(out, "F.json: $.nodes[0].span[2]: unexpected item "
			    "(at most 2)\n");
	free(out);
	json_object_set_new(node, "span", json_pack("[i]", 1));
	out = problems("irsnap.snapshot/1", s, &n);
	assert_string_equal(out, "F.json: $.nodes[0].span: 1 items, at least 2 "
			    "expected\n");
	free(out);
	json_object_set_new(node, "span", json_pack("[i,i]", -1, 2));
	out = problems("irsnap.snapshot/1", s, &n);
	assert_string_equal(out, "F.json: $.nodes[0].span[0]: -1 is less than "
			    "0\n");
	free(out);
	json_decref(s);
}

/* }==== The validator itself ============================================ */

static void
test_additional_properties(void **state)
{
	(void)state;
	uint32_t n;
	char *out = inline_problems(
		"{\"properties\": {\"a\": {\"type\": \"integer\"}},"
		" \"additionalProperties\": false}",
		"{\"a\": 1, \"b\": 2, \"weird key\": 3}", &n);
	assert_int_equal(n, 2);
	assert_contains(out, "F.json: $.b: unexpected member\n");
	assert_contains(out, "F.json: $[\"weird key\"]: unexpected member\n");
	free(out);
	out = inline_problems(
		"{\"additionalProperties\": {\"type\": \"string\"}}",
		"{\"a\": \"x\", \"b\": true}", &n);
	assert_string_equal(out, "F.json: $.b: expected string, got boolean\n");
	free(out);
}

static void
test_integer_number_and_min_length(void **state)
{
	(void)state;
	uint32_t n;
	char *out = inline_problems(
		"{\"prefixItems\": [{\"type\": \"integer\"}, {\"type\": \"number\"},"
		" {\"type\": \"integer\"}, {\"minLength\": 2}]}",
		"[2.0, 3, 2.5, \"x\"]", &n);
	assert_string_equal(out, "F.json: $[2]: expected integer, got number\n"
			    "F.json: $[3]: 1 characters, at least 2 expected\n");
	free(out);
}

static void
test_one_of_counts_matches(void **state)
{
	(void)state;
	uint32_t n;
	char *out = inline_problems(
		"{\"oneOf\": [{\"type\": \"integer\"}, {\"minimum\": 0}]}", "3", &n);
	assert_string_equal(out, "F.json: $: matches 2 of the oneOf "
			    "alternatives, 1 expected\n");
	free(out);
	out = inline_problems(
		"{\"oneOf\": [{\"type\": \"integer\"}, {\"minimum\": 0}]}", "-3", &n);
	assert_int_equal(n, 0);
	free(out);
}

// Schemas with keywords we do not implement or $refs that lead nowhere are
// errors, not silently passed documents.
static void
test_broken_schema_is_an_error(void **state)
{
	(void)state;
	const char *bad[] = {
		"{\"maxItems\": 3}",
		"{\"$ref\": \"#/$defs/nope\"}",
		"{\"$ref\": \"http://example.com/x\"}",
		"{\"pattern\": \"(\"}",
		"{\"type\": 3}",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		json_t *s = parse(bad[i]), *d = parse("\"a\"");
		struct irs_buf out;
		uint32_t n = 0;
		irs_buf_init(&out);
		struct irs_error *err = irs_schema_validate_with(s, d, "F", &out,
								 &n);
		if (!err)
			fail_msg("schema %s was accepted", bad[i]);
		assert_int_equal(err->code, IRS_ERROR_FORMAT);
		irs_error_destroy(err);
		irs_buf_deinit(&out);
		json_decref(s);
		json_decref(d);
	}
}

// A thousand bad nodes: every one counted, fifty shown, then a summary.
static void
test_problem_lines_are_capped(void **state)
{
	(void)state;
	uint32_t n;
	json_t *s = parse(snapshot_text);
	json_t *nodes = json_object_get(s, "nodes");
	for (int i = 0; i < 1000; i++)
		json_array_append_new(nodes, json_pack("{s:i}", "id", i));
	char *out = problems("irsnap.snapshot/1", s, &n);
	// each bad node: id not a string, type/parent/fields missing
	assert_int_equal(n, 4000);
	size_t lines = 0;
	for (char *p = out; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, IRS_SCHEMA_MAX_LINES + 1);
	assert_contains(out, "F.json: ... 3950 more problems\n");
	free(out);
	json_decref(s);
}

/* }==== irsnap validate on files and run directories ==================== */

struct tree {
	char dir[64];
};

static void
put(const struct tree *t, const char *rel, const char *text)
{
	unit_put(t->dir, rel, text);
}

static int
setup_tree(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	unit_tmpdir(t->dir, sizeof(t->dir), "schema");
	// A run directory with one before snapshot (text and graph) and an
	// after event skipped by --changed-only.
	put(t, "run/manifest.json", manifest_text);
	put(t, "run/snapshots/0001-cse.before.ir", "module @m\n");
	put(t, "run/snapshots/0001-cse.before.json", snapshot_text);
	*state = t;
	return 0;
}

static int
teardown_tree(void **state)
{
	struct tree *t = *state;
	unit_rmtree(t->dir);
	free(t);
	return 0;
}

// Runs irs_validate_path on @p rel; returns its problem lines.
static char *
validate(const struct tree *t, const char *rel, uint32_t *n)
{
	struct irs_buf out;
	irs_buf_init(&out);
	char *p = irs_path_join(t->dir, rel);
	struct irs_error *err = irs_validate_path(p, &out, n, NULL);
	if (err)
		fail_msg("validate %s: %s", rel, err->message);
	free(p);
	return irs_buf_steal(&out);
}

static void
test_valid_run_directory(void **state)
{
	struct tree *t = *state;
	uint32_t n, nfiles;
	char *out = validate(t, "run", &n);
	assert_string_equal(out, "");
	assert_int_equal(n, 0);
	free(out);
	// The folder above, through `latest`.
	char *link = irs_path_join(t->dir, "latest");
	assert_int_equal(symlink("run", link), 0);
	free(link);
	struct irs_buf b;
	irs_buf_init(&b);
	assert_null(irs_validate_path(t->dir, &b, &n, &nfiles));
	assert_int_equal(n, 0);
	assert_int_equal(nfiles, 3);	// manifest, .ir, .json
	irs_buf_deinit(&b);
}

static void
test_missing_snapshot_file(void **state)
{
	struct tree *t = *state;
	uint32_t n;
	char *p = irs_path_join(t->dir, "run/snapshots/0001-cse.before.ir");
	unlink(p);
	free(p);
	char *out = validate(t, "run", &n);
	assert_int_equal(n, 1);
	assert_contains(out, "/run/manifest.json: $.events[0].snapshot.text: "
			"names snapshots/0001-cse.before.ir, which is missing\n");
	free(out);
}

static void
test_truncated_snapshot_json(void **state)
{
	struct tree *t = *state;
	uint32_t n;
	char trunc[80];
	snprintf(trunc, sizeof(trunc), "%.60s", snapshot_text);
	put(t, "run/snapshots/0001-cse.before.json", trunc);
	char *out = validate(t, "run", &n);
	assert_int_equal(n, 1);
	assert_contains(out, "/run/snapshots/0001-cse.before.json: invalid "
			"JSON at line 1");
	free(out);
}

// A manifest that says failed must have its failure.json, and that one
// is checked too.
static void
test_failure_report_checked(void **state)
{
	struct tree *t = *state;
	uint32_t n;
	json_t *m = parse(manifest_text);
	json_object_set_new(m, "status", json_string("failed"));
	json_object_set_new(m, "failure", json_string("failure.json"));
	char *text = json_dumps(m, 0);
	put(t, "run/manifest.json", text);
	free(text);
	json_decref(m);
	char *out = validate(t, "run", &n);
	assert_int_equal(n, 1);
	assert_contains(out, "/run/manifest.json: $.failure: names "
			"failure.json, which is missing\n");
	free(out);
	put(t, "run/failure.json",
	    "{\"schema\": \"irsnap.failure/1\", \"run_id\": \"20261130-051500-4242\","
	    " \"kind\": \"signal\", \"signal\": null, \"message\": null,"
	    " \"pass\": {\"name\": \"cse\", \"seq\": 1}, \"backtrace\": [],"
	    " \"before_snapshot\": {\"text\": \"snapshots/0001-cse.before.ir\","
	    "                       \"json\": \"snapshots/0009-x.json\"},"
	    " \"crash_snapshot\": null, \"reduce_command\": null}");
	out = validate(t, "run", &n);
	// kind "signal" with a null signal; a before snapshot that is missing
	assert_int_equal(n, 2);
	assert_contains(out, "/run/failure.json: $.signal: expected object, "
			"got null\n");
	assert_contains(out, "/run/failure.json: $.before_snapshot.json: names "
			"snapshots/0009-x.json, which is missing\n");
	free(out);
}

// One file: the schema comes from its "schema" member; a snapshot also
// needs its text file beside it.
static void
test_single_files(void **state)
{
	struct tree *t = *state;
	uint32_t n;
	char *out = validate(t, "run/snapshots/0001-cse.before.json", &n);
	assert_int_equal(n, 0);
	free(out);
	put(t, "other.json", "{\"schema\": \"irsnap.unknown/9\"}");
	out = validate(t, "other.json", &n);
	assert_string_equal(strstr(out, "other.json: "), "other.json: $.schema: "
			    "unknown schema \"irsnap.unknown/9\"\n");
	free(out);
	put(t, "plain.json", "[1, 2]");
	out = validate(t, "plain.json", &n);
	assert_int_equal(n, 1);
	assert_contains(out, "plain.json: $.schema: missing or not a string");
	free(out);
	put(t, "lonely/0001-x.before.json", snapshot_text);
	out = validate(t, "lonely/0001-x.before.json", &n);
	assert_contains(out, "lonely/0001-x.before.json: $.text_file: names "
			"0001-cse.before.ir, which is missing\n");
	free(out);
}

// A snapshot of @p n nodes as irsnap writes it (one node a line), node
// @p bad_at's "span" replaced by @p bad (NULL: none).
static char *
big_snapshot(size_t n, size_t bad_at, const char *bad)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, "{\"schema\":\"irsnap.snapshot/1\",\n\"layout\":\"toyc\",\n"
		     "\"root\":{\"address\":\"0x1000\",\"type\":\"Module\"},\n"
		     "\"text_file\":null,\n\"nodes\":[\n");
	for (size_t i = 0; i < n; i++)
		irs_buf_printf(&b, "%s{\"id\":\"0x%zx\",\"type\":\"Instr\","
			       "\"parent\":\"0x1000\",\"span\":%s,\"fields\":"
			       "{\"op\":\"add\",\"name\":\"x\\u00e9\"}}",
			       i ? ",\n" : "", 0x2000 + 16 * i,
			       bad && i == bad_at ? bad : "[0,4]");
	irs_buf_printf(&b, "\n],\n\"errors\":[\n],\n\"stats\":{\"nodes\":%zu,"
		       "\"bytes\":8,\"text_bytes\":12,\"truncated\":false,"
		       "\"hash\":\"0123456789abcdef\"}}\n", n);
	return irs_buf_steal(&b);
}

// What validating @p text whole says, as irs_validate_path words it.
static char *
whole_says(const char *file, const char *text, uint32_t *n)
{
	struct irs_buf out;
	irs_buf_init(&out);
	*n = 0;
	json_error_t je;
	json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES |
				 JSON_ALLOW_NUL, &je);
	if (!doc) {
		irs_buf_printf(&out, "%s: invalid JSON at line %d, column %d: "
			       "%s\n", file, je.line, je.column, je.text);
		*n = 1;
	} else {
		assert_null(irs_schema_validate("irsnap.snapshot/1", doc, file,
						&out, n));
	}
	json_decref(doc);
	return irs_buf_steal(&out);
}

// Snapshots are validated a node at a time (a whole one took 14 times its
// size in memory): what that says about any snapshot, valid or broken
// anywhere, is what validating the whole document says, to the byte.
static void
test_snapshot_checked_in_pieces_as_whole(void **state)
{
	struct tree *t = *state;
	static const char *bads[] = {
		"[1]", "\"0x1\"", "[0,4,", "[0,4]]", "[0, 01]", "[0,4],",
		"[0,4],\"span\":[1,2]", "{}", "[0,\"\\ud800\"]", "null",
	};
	char *path = irs_path_join(t->dir, "big.json");
	for (size_t k = 0; k <= ARRAY_SIZE(bads) + 2; k++) {
		char *text;
		if (k < ARRAY_SIZE(bads))
			text = big_snapshot(300, 17 * k, bads[k]);
		else if (k == ARRAY_SIZE(bads))
			text = big_snapshot(300, 0, NULL);	// valid
		else {
			// every node bad: the 50-line cap covers the file
			text = big_snapshot(300, 0, NULL);
			for (char *p = text; (p = strstr(p, "[0,4]")); p++)
				p[1] = '"';
			if (k == ARRAY_SIZE(bads) + 2)	// and cut short
				text[strlen(text) / 2] = '\0';
		}
		put(t, "big.json", text);
		uint32_t n_whole, n_pieces;
		char *want = whole_says(path, text, &n_whole);
		char *got = validate(t, "big.json", &n_pieces);
		if (strcmp(want, got) || n_whole != n_pieces)
			fail_msg("case %zu: whole (%u) says:\n%s\npieces (%u) "
				 "say:\n%s", k, n_whole, want, n_pieces, got);
		free(want);
		free(got);
		free(text);
	}
	free(path);
}

// What cannot be read at all is an error (exit 2), not a problem (exit 1).
static void
test_unreadable_path_is_an_error(void **state)
{
	struct tree *t = *state;
	struct irs_buf out;
	uint32_t n = 0;
	irs_buf_init(&out);
	char *p = irs_path_join(t->dir, "nothing-here");
	struct irs_error *err = irs_validate_path(p, &out, &n, NULL);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_NOT_FOUND);
	assert_non_null(strstr(err->message, "nothing-here"));
	irs_error_destroy(err);
	free(p);
	// A directory that holds no run.
	p = irs_path_join(t->dir, "run/snapshots");
	err = irs_validate_path(p, &out, &n, NULL);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "not a run directory"));
	irs_error_destroy(err);
	free(p);
	irs_buf_deinit(&out);
}

// A manifest naming a path outside the run is reported by the schema and
// never followed.
static void
test_paths_stay_inside_the_run(void **state)
{
	struct tree *t = *state;
	uint32_t n;
	json_t *m = parse(manifest_text);
	json_t *snap = json_object_get(json_array_get(json_object_get(m, "events"),
						      0), "snapshot");
	json_object_set_new(snap, "json", json_string("../../etc/passwd"));
	char *text = json_dumps(m, 0);
	put(t, "run/manifest.json", text);
	free(text);
	json_decref(m);
	char *out = validate(t, "run", &n);
	assert_int_equal(n, 1);
	assert_contains(out, "$.events[0].snapshot.json: \"../../etc/passwd\" "
			"does not match");
	free(out);
}

/* }====================================================================== */

int
main(void)
{
	const struct CMUnitTest schema[] = {
		cmocka_unit_test(test_embedded_schemas_match_files),
		cmocka_unit_test(test_schemas_load_and_are_supported),
		cmocka_unit_test(test_format_doc_examples_are_valid),
		cmocka_unit_test(test_any_bytes_escape_to_valid_json),
		cmocka_unit_test(test_valid_documents_pass),
		cmocka_unit_test(test_wrong_type_names_file_and_path),
		cmocka_unit_test(test_missing_member_is_named),
		cmocka_unit_test(test_enum_const_and_pattern),
		cmocka_unit_test(test_after_event_needs_changed),
		cmocka_unit_test(test_alternatives_of_types),
		cmocka_unit_test(test_unknown_members_are_fine),
		cmocka_unit_test(test_span_shape),
		cmocka_unit_test(test_additional_properties),
		cmocka_unit_test(test_integer_number_and_min_length),
		cmocka_unit_test(test_one_of_counts_matches),
		cmocka_unit_test(test_broken_schema_is_an_error),
		cmocka_unit_test(test_problem_lines_are_capped),
	};
	const struct CMUnitTest validate_tests[] = {
		cmocka_unit_test_setup_teardown(test_valid_run_directory,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_missing_snapshot_file,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_truncated_snapshot_json,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_failure_report_checked,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_single_files,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(
			test_snapshot_checked_in_pieces_as_whole,
			setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_unreadable_path_is_an_error,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_paths_stay_inside_the_run,
						setup_tree, teardown_tree),
	};
	int failed = cmocka_run_group_tests_name("schema", schema, NULL, NULL);
	failed += cmocka_run_group_tests_name("validate", validate_tests, NULL,
					      NULL);
	return failed;
}
