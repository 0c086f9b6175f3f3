// The JSON readers over fuzzed documents. An input is up to four parts
// separated by NUL bytes (JSON text holds none): manifest.json,
// failure.json, a snapshot's JSON and its text, laid out as a run directory
// (the snapshot at the paths the manifest's first event names, when they
// are plain relative paths). Then every reader of such files runs:
//  - the schema validator (schema.c) on the first part, against each of the
//    three schemas;
//  - `irsnap validate` (validate.c) on that file alone and on the run;
//  - the HTML report (report.c) of the run;
//  - the reducer's run-directory input (reduce/input.c: failure.json);
//  - the reducer's snapshot reader (reduce/units.c) on the last two parts.
// Oracles: no crash, hang or leak; embedded schemas always load; a
// rejected input gets an error with a message.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "harness.h"
#include "tools/tools.h"

static const char *const schemas[] = {
	"irsnap.snapshot/1", "irsnap.manifest/1", "irsnap.failure/1",
};

static char run[512], single[512], html[512];


void
fz_target_init(void)
{
	snprintf(run, sizeof(run), "%s/run", fz_scratch());
	snprintf(single, sizeof(single), "%s/doc.json", fz_scratch());
	snprintf(html, sizeof(html), "%s/report.html", fz_scratch());
}

struct part {
	const char *p;
	size_t n;
};

static size_t
split(const uint8_t *data, size_t size, struct part *parts, size_t max)
{
	size_t n = 0;
	const char *p = (const char *)data, *end = p + size;
	while (n < max) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		if (!nul || n == max - 1)
			nul = end;
		parts[n++] = (struct part){ p, (size_t)(nul - p) };
		if (nul == end)
			break;
		p = nul + 1;
	}
	return n;
}

static void
fail_if_silent(struct irs_error *err, const char *what)
{
	if (err && (!err->message || !*err->message))
		fz_fail("%s: an error without a message (code %d)", what,
			err->code);
	irs_error_destroy(err);
}

// Each schema accepts or rejects the document; the schemas themselves
// (embedded in the library) always load.
static void
validate_doc(const struct part *p)
{
	json_error_t je;
	json_t *doc = json_loadb(p->p, p->n, 0, &je);
	if (!doc)
		return;
	for (size_t i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++) {
		struct irs_buf out;
		uint32_t n = 0;
		irs_buf_init(&out);
		struct irs_error *err = irs_schema_validate(schemas[i], doc,
							    "fuzz.json", &out,
							    &n);
		if (err)
			fz_fail("schema %s: %s", schemas[i], err->message);
		if (n && !out.data && !out.oom)
			fz_fail("%u problems and no text", n);
		irs_buf_deinit(&out);
	}
	json_decref(doc);
}

// A relative path inside the run directory, or NULL.
static const char *
safe_rel(json_t *v)
{
	const char *s = json_string_value(v);
	if (!s || !*s || *s == '/' || strstr(s, "..") || strlen(s) > 200)
		return NULL;
	return s;
}

// Where the manifest's first event says its snapshot is.
static void
snapshot_paths(const struct part *manifest, char *json, char *text,
	       size_t len)
{
	const char *j = "snapshots/0001-p.before.json";
	const char *t = "snapshots/0001-p.before.ir";
	json_t *doc = json_loadb(manifest->p, manifest->n, 0, NULL);
	json_t *snap = json_object_get(json_array_get(
		json_object_get(doc, "events"), 0), "snapshot");
	if (safe_rel(json_object_get(snap, "json")))
		j = safe_rel(json_object_get(snap, "json"));
	if (safe_rel(json_object_get(snap, "text")))
		t = safe_rel(json_object_get(snap, "text"));
	snprintf(json, len, "%s/%s", run, j);
	snprintf(text, len, "%s/%s", run, t);
	json_decref(doc);
}

static void
write_in_run(const char *path, const struct part *p)
{
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *s = dir + strlen(run) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(dir, 0777);
		*s = '/';
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return;		// the manifest named a directory
	fz_write(path, p->p, p->n);
}

static void
make_run(const struct part *parts, size_t n)
{
	char path[1024], json[1024], text[1024];
	fz_rmtree(run);
	if (mkdir(run, 0777) != 0)
		fz_fail("mkdir %s", run);
	snprintf(path, sizeof(path), "%s/snapshots", run);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/manifest.json", run);
	fz_write(path, parts[0].p, parts[0].n);
	if (n > 1) {
		snprintf(path, sizeof(path), "%s/failure.json", run);
		fz_write(path, parts[1].p, parts[1].n);
	}
	snapshot_paths(&parts[0], json, text, sizeof(json));
	if (n > 2)
		write_in_run(json, &parts[2]);
	if (n > 3)
		write_in_run(text, &parts[3]);
}

static void
validate_files(void)
{
	struct irs_buf out;
	uint32_t np = 0, nf = 0;
	irs_buf_init(&out);
	fail_if_silent(irs_validate_path(single, &out, &np, &nf),
		       "validate file");
	irs_buf_deinit(&out);
	irs_buf_init(&out);
	fail_if_silent(irs_validate_path(run, &out, &np, &nf),
		       "validate run");
	irs_buf_deinit(&out);
}

static void
reduce_input(void)
{
	struct irs_reduce_config cfg = { .input = run };
	struct reduce_job job;
	struct irs_error *err = reduce_job_init(&job, &cfg);
	if (!err)
		reduce_job_deinit(&job);
	fail_if_silent(err, "reduce input");
}

static void
reduce_snapshot(const struct part *json, const struct part *text)
{
	char *t = malloc(text->n + 1);
	if (!t)
		return;
	memcpy(t, text->p, text->n);
	t[text->n] = '\0';
	struct reduce_tree *tree;
	struct irs_error *err = reduce_tree_from_snapshot(
		t, text->n, json->p, json->n, "fuzz.json", &tree);
	if (err) {
		free(t);
		fail_if_silent(err, "reduce snapshot");
		return;
	}
	reduce_tree_destroy(tree);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct part parts[4];
	size_t n = split(data, size, parts, 4);
	validate_doc(&parts[0]);
	fz_write(single, parts[0].p, parts[0].n);
	make_run(parts, n);
	validate_files();
	fail_if_silent(irs_report_write(run, html), "report");
	reduce_input();
	if (n > 2)
		reduce_snapshot(&parts[2], n > 3 ? &parts[3] : &parts[2]);
	return 0;
}
