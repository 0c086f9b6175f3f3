// `irsnap report`: one self-contained HTML page for a run directory.
//
// The page is read top to bottom the way an engineer triages a run: what ran
// (header), what went wrong (failure), where the time went (timeline), and
// what each pass did to the IR (diffs, folded). No network, no external
// assets: CSS and a few lines of JS are inline, and every byte that comes
// from the run directory goes through irs_html_text().
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tools/tools.h"

// A run of 40,000 passes made a page of 4.4 GB with a diff per pass; the
// page now stays usable at any length: the timeline is paged past
// TIMELINE_PAGE rows, and diffs are shown for at most MAX_DIFFS passes
// (the failing one, then those nearest the end that changed the IR) and
// DIFF_BUDGET bytes; `irsnap diff RUN SEQ` shows any other.
enum {
	DIFF_CONTEXT = 3,
	MAX_SHOWN = 512 * 1024,		// bytes of one diff or text on the page
	TIMELINE_PAGE = 1000,		// timeline rows per page
	MAX_DIFFS = 200,		// passes with their diff on the page
	DIFF_BUDGET = 16 * 1024 * 1024,	// bytes of diffs on the page
	BY_NAME_MIN = 20,		// passes before the by-name table
	MAX_NAMES = 500,		// rows of the by-name table
};

struct pass_row {
	json_int_t seq;
	const char *name;
	json_t *before, *after;		// events, borrowed from the manifest
};

struct run {
	const char *dir;
	char *real;			// dir resolved (latest -> its run)
	char *href;			// dir as seen from the page, "/"-ended
	size_t nfiles;			// entries of the files list so far
	json_t *manifest;
	json_t *failure;		// NULL when the run did not fail
	struct pass_row *rows;		// in seq order
	size_t nrows;
	double max_cpu;			// slowest pass, for the bars
	bool *shown;			// per row: its diff is on the page
	size_t nshown;
	size_t nchanged;		// rows whose pass changed the IR
};

/* {==== Links to the run's files ======================================= */

// @p to as seen from directory @p from, both absolute and resolved:
// "runs/X" inside it, "../../d/e" beside it; when the two share no more
// than "/", @p to itself.
static char *
relative_to(const char *from, const char *to)
{
	size_t n = strlen(from);
	if (!strcmp(from, to))
		return strdup("");
	if (!strcmp(from, "/"))
		return strdup(to + 1);
	if (!strncmp(to, from, n) && to[n] == '/')
		return strdup(to + n + 1);
	size_t common = 0;	// the last '/' both share
	for (size_t i = 0; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i;
	if (from[n - 1] != '/' && !strncmp(from, to, n) && to[n] == '/')
		common = n;
	if (!common)
		return strdup(to);
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	for (const char *p = from + common; *p; p++)
		if (*p == '/')
			irs_buf_puts(&b, "../");
	irs_buf_puts(&b, to + common + 1);
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

// Where the run lies (r->real) and how the page at @p html_path links
// into it (r->href): relative, so the page and the run move together.
static struct irs_error *
run_links(struct run *r, const char *html_path)
{
	char page_dir[PATH_MAX];
	r->real = realpath(r->dir, NULL);
	if (!r->real)
		return irs_error_format(IRS_ERROR_IO, "%s: %s", r->dir,
					strerror(errno));
	snprintf(page_dir, sizeof(page_dir), "%s", html_path);
	char *slash = strrchr(page_dir, '/');
	if (slash)
		*slash = 0;
	char *from = realpath(slash ? (*page_dir ? page_dir : "/") : ".",
			      NULL);
	char *rel = from ? relative_to(from, r->real) : NULL;
	free(from);
	if (!rel && !(rel = strdup(r->real)))
		return &irs_enomem;
	if (asprintf(&r->href, "%s%s", rel, *rel ? "/" : "") < 0)
		r->href = NULL;
	free(rel);
	return r->href ? NULL : &irs_enomem;
}

// <a href="RUN/REL">TEXT</a>: REL percent-encoded where a URL needs it.
static void
put_file_link(struct irs_buf *b, const struct run *r, const char *rel,
	      const char *text)
{
	struct irs_buf url;
	irs_buf_init(&url);
	irs_buf_puts(&url, r->href ? r->href : "");
	irs_buf_puts(&url, rel);
	if (!url.len)		// the page lies in the run: "" is no link
		irs_buf_puts(&url, "./");
	irs_buf_puts(b, "<a class=\"file\" href=\"");
	for (const unsigned char *p = (const unsigned char *)
	     (url.data ? url.data : ""); *p; p++) {
		if (isalnum(*p) || strchr("/._-~+", *p))
			irs_buf_append(b, (const char *)p, 1);
		else
			irs_buf_printf(b, "%%%02X", *p);
	}
	irs_buf_deinit(&url);
	irs_buf_puts(b, "\">");
	irs_html_str(b, text ? text : rel);
	irs_buf_puts(b, "</a>");
}

/* }==== */

/* {==== Reading the run directory ======================================= */

static char *
run_path(const struct run *r, const char *rel)
{
	char *p;
	if (asprintf(&p, "%s/%s", r->dir, rel) < 0)
		return NULL;
	return p;
}

// Loads RUN/@p rel as JSON; a missing or malformed file names itself.
static struct irs_error *
load_json(const struct run *r, const char *rel, json_t **ret)
{
	json_error_t je;
	char *text, *path;
	size_t len;
	// No link (it may point anywhere), and read by irs_file_read: a FIFO
	// or a device in the run directory is refused, not waited on.
	struct irs_error *err = irs_rundir_file(r->dir, rel, &path);
	if (err)
		return err;
	err = irs_file_read(path, &text, &len);
	if (err) {
		free(path);
		return err;
	}
	json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES |
			       JSON_ALLOW_NUL, &je);
	free(text);
	if (!j)
		err = irs_error_format(IRS_ERROR_FORMAT,
				       "%s:%d:%d: malformed JSON: %s", path,
				       je.line, je.column, je.text);
	else if (!json_is_object(j))
		err = irs_error_format(IRS_ERROR_FORMAT,
				       "%s: expected a JSON object", path);
	free(path);
	if (err) {
		json_decref(j);
		return err;
	}
	*ret = j;
	return NULL;
}

static struct irs_error *
damaged(const struct run *r, const char *file, const char *what)
{
	return irs_error_format(IRS_ERROR_FORMAT, "%s/%s: %s", r->dir, file,
				what);
}

// Checks @p doc against the schema @p id; the first problem, which names
// the file and the member, is the error.
static struct irs_error *
check_schema(const struct run *r, const char *file, json_t *doc,
	     const char *id)
{
	struct irs_error *err;
	struct irs_buf problems;
	uint32_t n = 0;
	char *path = run_path(r, file);

	if (!path)
		return &irs_enomem;
	irs_buf_init(&problems);
	err = irs_schema_validate(id, doc, path, &problems, &n);
	if (!err && n) {
		char *nl = strchr(problems.data, '\n');
		err = irs_error_format(IRS_ERROR_FORMAT, "%.*s%s",
				       (int)(nl ? nl - problems.data
					     : (ptrdiff_t)problems.len),
				       problems.data, n > 1 ? " (and more; "
				       "see irsnap validate)" : "");
	}
	irs_buf_deinit(&problems);
	free(path);
	return err;
}

// Pairs before and after events by sequence number (one sort, so a run of
// 40,000 passes costs no more than its events).
static struct irs_error *
collect_rows(struct run *r)
{
	json_t *events = json_object_get(r->manifest, "events");
	if (!json_is_array(events))
		return damaged(r, "manifest.json",
			       "\"events\" is not an array");
	size_t i;
	json_t *ev;
	json_array_foreach(events, i, ev) {
		json_t *seq = json_object_get(ev, "seq");
		const char *pass = json_string_value(json_object_get(ev,
								     "pass"));
		const char *phase = json_string_value(json_object_get(ev,
								      "phase"));
		if (!json_is_integer(seq) || !pass || !phase ||
		    (strcmp(phase, "before") && strcmp(phase, "after"))) {
			char what[96];
			snprintf(what, sizeof(what), "events[%zu]: needs an "
				 "integer seq, a pass and a phase before|after",
				 i);
			return damaged(r, "manifest.json", what);
		}
		double cpu = json_number_value(json_object_get(ev, "cpu_s"));
		if (cpu > r->max_cpu)
			r->max_cpu = cpu;
	}
	struct irs_manifest_pass *p;
	size_t n;
	struct irs_error *err = irs_manifest_passes(events, &p, &n);
	if (err)
		return err;
	r->rows = n ? calloc(n, sizeof(*r->rows)) : NULL;
	if (n && !r->rows) {
		free(p);
		return &irs_enomem;
	}
	for (i = 0; i < n; i++) {
		const json_t *first = p[i].before ? p[i].before : p[i].after;
		r->rows[i] = (struct pass_row){
			.seq = p[i].seq,
			.name = json_string_value(json_object_get(first,
								  "pass")),
			.before = (json_t *)p[i].before,
			.after = (json_t *)p[i].after,
		};
	}
	r->nrows = n;
	free(p);
	return NULL;
}

static struct irs_error *
run_load(struct run *r, const char *dir)
{
	struct irs_error *err;
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->dir = dir;
	if (stat(dir, &st) != 0)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s: %s", dir,
					strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return irs_error_format(IRS_ERROR_USAGE,
					"%s: not a run directory", dir);
	err = load_json(r, "manifest.json", &r->manifest);
	if (!err)
		err = check_schema(r, "manifest.json", r->manifest,
				   "irsnap.manifest/1");
	if (!err)
		err = collect_rows(r);
	if (err)
		return err;
	// The manifest names failure.json once it exists; a run killed
	// between the two writes still has the file, so look for it too.
	char *fpath = run_path(r, "failure.json");
	if (!fpath)
		return &irs_enomem;
	bool present = lstat(fpath, &st) == 0;
	free(fpath);
	if (present || json_is_string(json_object_get(r->manifest, "failure")))
		err = load_json(r, "failure.json", &r->failure);
	if (!err && r->failure)
		err = check_schema(r, "failure.json", r->failure,
				   "irsnap.failure/1");
	// the crashed pass's time counts for the bars too
	double cpu = json_number_value(json_object_get(json_object_get(
		r->failure, "pass"), "cpu_s"));
	if (!err && cpu > r->max_cpu)
		r->max_cpu = cpu;
	return err;
}

static void
run_unload(struct run *r)
{
	json_decref(r->manifest);
	json_decref(r->failure);
	free(r->real);
	free(r->href);
	free(r->rows);
	free(r->shown);
}

// Reads a snapshot text the manifest names, relative to the run directory.
// Paths that leave the run directory, by ".." or through a symbolic link,
// are refused, so a crafted manifest cannot pull other files into a page
// that may be shared.
static struct irs_error *
read_snapshot(const struct run *r, const char *rel, char **ret, size_t *len)
{
	char *path;
	struct irs_error *err = irs_rundir_file(r->dir, rel, &path);
	if (err)
		return irs_error_prefix(err, "manifest.json names a snapshot");
	err = irs_file_read(path, ret, len);
	free(path);
	return err;
}

/* }==== */

/* {==== HTML text ========================================================= */

// Every string of a run is untrusted: all of it goes through tools/html.c.

// A JSON scalar as text: strings as they are, numbers, "—" for null/absent.
static void
html_json(struct irs_buf *b, json_t *v)
{
	if (json_is_string(v))
		irs_html_str(b, json_string_value(v));
	else if (json_is_integer(v))
		irs_buf_printf(b, "%" JSON_INTEGER_FORMAT,
			       json_integer_value(v));
	else if (json_is_real(v))
		irs_buf_printf(b, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		irs_buf_puts(b, json_is_true(v) ? "yes" : "no");
	else
		irs_buf_puts(b, "&mdash;");
}

static void
html_bytes(struct irs_buf *b, json_t *v)
{
	if (!json_is_number(v)) {
		irs_buf_puts(b, "&mdash;");
		return;
	}
	double n = json_number_value(v);
	if (n < 10 * 1024)
		irs_buf_printf(b, "%.0f B", n);
	else if (n < 10 * 1024 * 1024)
		irs_buf_printf(b, "%.1f KiB", n / 1024);
	else
		irs_buf_printf(b, "%.1f MiB", n / (1024 * 1024));
}

// Text in a <pre>, cut at MAX_SHOWN bytes (at a line end) with a note.
static void
html_pre(struct irs_buf *b, const char *cls, const char *s, size_t len)
{
	size_t shown = len;
	if (shown > MAX_SHOWN) {
		shown = MAX_SHOWN;
		while (shown > 0 && s[shown - 1] != '\n')
			shown--;
	}
	irs_buf_printf(b, "<pre class=\"%s\">", cls);
	irs_html_text(b, s, shown);
	irs_buf_puts(b, "</pre>\n");
	if (shown < len)
		irs_buf_printf(b, "<p class=\"note\">%zu more bytes not shown."
			       "</p>\n", len - shown);
}

/* }==== */

/* {==== Page sections ==================================================== */

static const char *
status_of(const struct run *r)
{
	const char *s = json_string_value(json_object_get(r->manifest,
							  "status"));
	if (r->failure)
		return "failed";
	return s ? s : "unknown";
}

static void
dl_item(struct irs_buf *b, const char *term, json_t *v)
{
	irs_buf_printf(b, "<dt>%s</dt><dd>", term);
	html_json(b, v);
	irs_buf_puts(b, "</dd>\n");
}

static void
put_header(struct irs_buf *b, const struct run *r)
{
	json_t *m = r->manifest;
	json_t *dbg = json_object_get(m, "debuggee");
	json_t *lo = json_object_get(m, "layout");
	const char *status = status_of(r);

	irs_buf_puts(b, "<header>\n<h1>irsnap run <span class=\"id\">");
	html_json(b, json_object_get(m, "run_id"));
	irs_buf_printf(b, "</span> <span class=\"status %s\">",
		       !strcmp(status, "failed") ? "bad"
		       : !strcmp(status, "completed") ? "good" : "other");
	irs_html_str(b, status);
	irs_buf_puts(b, "</span>");
	size_t nlost = json_array_size(json_object_get(m, "lost"));
	if (nlost || json_is_true(json_object_get(m, "incomplete")))
		irs_buf_printf(b, " <span class=\"status bad\">incomplete: %zu "
			       "snapshot%s lost to write errors</span>", nlost,
			       nlost == 1 ? "" : "s");
	irs_buf_puts(b, "</h1>\n");
	irs_buf_puts(b, "<dl class=\"meta\">\n");
	dl_item(b, "debuggee", json_object_get(dbg, "exe"));
	dl_item(b, "arguments", json_object_get(dbg, "args"));
	dl_item(b, "pid", json_object_get(dbg, "pid"));
	dl_item(b, "debugger", json_object_get(m, "debugger"));
	dl_item(b, "layout", json_object_get(lo, "name"));
	dl_item(b, "layout file", json_object_get(lo, "path"));
	dl_item(b, "created", json_object_get(m, "created"));
	dl_item(b, "updated", json_object_get(m, "updated"));
	irs_buf_puts(b, "<dt>run directory</dt><dd>");
	put_file_link(b, r, "", r->real ? r->real : r->dir);
	irs_buf_puts(b, "</dd>\n");
	irs_buf_printf(b, "<dt>passes</dt><dd>%zu</dd>\n", r->nrows);
	irs_buf_puts(b, "</dl>\n</header>\n");
}

// A regular file of the run (no link followed), for the files list.
static bool
run_has(const struct run *r, const char *rel)
{
	char *path;
	struct stat st;
	if (asprintf(&path, "%s/%s", r->dir, rel) < 0)
		return false;
	bool yes = lstat(path, &st) == 0 && (S_ISREG(st.st_mode) ||
					     S_ISDIR(st.st_mode));
	free(path);
	return yes;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

// Links to every file of the run: manifest, failure report, snapshots
// (each pass's also sit in its diff below), the reducer's repro/.
static void
put_files(struct irs_buf *b, const struct run *r)
{
	static const char *const top[] = {"manifest.json", "failure.json",
					  "snapshots", "repro", NULL};
	irs_buf_puts(b, "<section id=\"files\">\n<h2>Files</h2>\n<ul "
		     "class=\"files\">\n");
	for (const char *const *f = top; *f; f++) {
		if (!run_has(r, *f))
			continue;
		irs_buf_puts(b, "<li>");
		bool dir = !strcmp(*f, "snapshots") || !strcmp(*f, "repro");
		char rel[32];
		snprintf(rel, sizeof(rel), "%s%s", *f, dir ? "/" : "");
		put_file_link(b, r, rel, rel);
		if (!strcmp(*f, "repro")) {
			// each file the reducer left, by name
			char *path = NULL;
			DIR *d = asprintf(&path, "%s/repro", r->dir) < 0 ? NULL
				 : opendir(path);
			free(path);
			if (d) {
				char *names[64];
				size_t n = 0;
				struct dirent *e;
				while (n < 64 && (e = readdir(d)))
					if (e->d_name[0] != '.' &&
					    (names[n] = strdup(e->d_name)))
						n++;
				closedir(d);
				qsort(names, n, sizeof(*names), str_cmp);
				for (size_t i = 0; i < n; i++) {
					char sub[300];
					snprintf(sub, sizeof(sub), "repro/%s",
						 names[i]);
					irs_buf_puts(b, i ? ", " : ": ");
					put_file_link(b, r, sub, names[i]);
					free(names[i]);
				}
			}
		}
		irs_buf_puts(b, "</li>\n");
	}
	irs_buf_puts(b, "</ul>\n</section>\n");
}

// A verifier's failure is reported after its pass returned.
static bool
verifier_failure(const struct run *r)
{
	const char *kind = json_string_value(json_object_get(r->failure,
							     "kind"));
	return kind && !strcmp(kind, "verifier");
}

static bool
is_failing_row(const struct run *r, const struct pass_row *row)
{
	json_t *p = json_object_get(r->failure, "pass");
	return r->failure && (!row->after || verifier_failure(r)) &&
	       json_integer_value(json_object_get(p, "seq")) == row->seq;
}

static const json_t *
row_cpu(const struct run *r, const struct pass_row *row)
{
	return irs_manifest_pass_cpu(row->after, row->seq, r->failure);
}

// "ok", "N problems", "not run" or "—" from an event's verifier results.
static void
put_verifiers(struct irs_buf *b, json_t *ev)
{
	struct irs_verdict v = {0};
	char text[80];

	irs_manifest_verdict(ev, &v);
	if (!v.nran && !v.nnotrun) {
		irs_buf_puts(b, v.nnone ? "<td class=\"muted\">no verifier"
			     "</td>" : "<td class=\"muted\">&mdash;</td>");
		return;
	}
	irs_verdict_text(&v, text, sizeof(text));
	irs_buf_printf(b, "<td class=\"%s\">%s</td>",
		       v.problems || v.nnotrun ? "bad" : "good", text);
}

static void
put_timeline_row(struct irs_buf *b, const struct run *r,
		 const struct pass_row *row)
{
	json_t *last = row->after ? row->after : row->before;
	const json_t *cpu = row_cpu(r, row);
	bool failing = is_failing_row(r, row);
	bool shown = r->shown && r->shown[row - r->rows];

	irs_buf_printf(b, "<tr%s><td class=\"num\">%" JSON_INTEGER_FORMAT
		       "</td><td>", failing ? " class=\"failing\"" : "",
		       row->seq);
	if (shown)
		irs_buf_printf(b, "<a href=\"#pass-%" JSON_INTEGER_FORMAT
			       "\">", row->seq);
	irs_html_str(b, row->name);
	irs_buf_puts(b, shown ? "</a></td>" : "</td>");
	if (json_is_number(cpu)) {
		double s = json_number_value(cpu);
		double pct = r->max_cpu > 0 ? 100 * s / r->max_cpu : 0;
		irs_buf_printf(b, "<td class=\"num\">%.*f</td>"
			       "<td class=\"bar\"><span style=\"width:%.1f%%\">"
			       "</span>",
			       s >= 0.1 ? 0 : 2, s * 1000, pct);
	} else {
		irs_buf_puts(b, "<td class=\"num muted\">&mdash;</td>"
			     "<td class=\"bar\">");
	}
	// The IR's size as irsnap show gives it: lines and bytes of text.
	irs_buf_puts(b, "</td><td class=\"num\">");
	html_json(b, json_object_get(last, "text_lines"));
	irs_buf_puts(b, "</td><td class=\"num\">");
	html_bytes(b, json_object_get(last, "text_bytes"));
	irs_buf_puts(b, "</td>");
	if (failing && verifier_failure(r))
		irs_buf_puts(b, "<td class=\"bad\">broke the IR</td>");
	else if (failing)
		irs_buf_puts(b, "<td class=\"bad\">crashed</td>");
	else if (!row->after)
		irs_buf_puts(b, "<td class=\"muted\">did not return</td>");
	else
		irs_buf_printf(b, "<td>%s</td>",
			       json_is_true(json_object_get(row->after,
							    "changed"))
			       ? "changed" : "unchanged");
	put_verifiers(b, row->after);
	irs_buf_puts(b, "</tr>\n");
}

static const struct run *sort_run;	// qsort has no argument for it

static int
by_name(const void *a, const void *b)
{
	const char *x = sort_run->rows[*(const size_t *)a].name;
	const char *y = sort_run->rows[*(const size_t *)b].name;
	int c = strcmp(x ? x : "", y ? y : "");
	if (c)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

// @p order (row indices) sorted by pass name, then seq.
static void
sort_rows_by_name(const struct run *r, size_t *order)
{
	sort_run = r;
	if (r->nrows)
		qsort(order, r->nrows, sizeof(*order), by_name);
	sort_run = NULL;
}

struct by_name_group {
	const char *name;
	size_t runs, changed, first;	// first: a row index
	double cpu, max;
};

static int
by_cpu(const void *a, const void *b)
{
	const struct by_name_group *x = a, *y = b;
	if (x->cpu != y->cpu)
		return x->cpu > y->cpu ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

// Where the time went, by pass name: a long pipeline runs the same passes
// again and again, and a row per run says little at 40,000 of them.
static void
put_by_name(struct irs_buf *b, const struct run *r)
{
	if (r->nrows < BY_NAME_MIN)
		return;
	size_t *order = malloc(r->nrows * sizeof(*order));
	struct by_name_group *g = calloc(r->nrows, sizeof(*g));
	size_t ng = 0;
	if (!order || !g) {
		free(order);
		free(g);
		b->oom = true;
		return;
	}
	for (size_t i = 0; i < r->nrows; i++)
		order[i] = i;
	sort_rows_by_name(r, order);
	for (size_t k = 0; k < r->nrows; k++) {
		const struct pass_row *row = &r->rows[order[k]];
		if (!ng || strcmp(g[ng - 1].name, row->name ? row->name : ""))
			g[ng++] = (struct by_name_group){
				.name = row->name ? row->name : "",
				.first = order[k] };
		struct by_name_group *cur = &g[ng - 1];
		double cpu = json_number_value(json_object_get(row->after,
							       "cpu_s"));
		cur->runs++;
		cur->changed += json_is_true(json_object_get(row->after,
							     "changed"));
		cur->cpu += cpu;
		if (cpu > cur->max)
			cur->max = cpu;
	}
	if (ng == r->nrows) {		// no name repeats: the timeline says it
		free(order);
		free(g);
		return;
	}
	qsort(g, ng, sizeof(*g), by_cpu);
	irs_buf_printf(b, "<section id=\"by-name\">\n<h2>Passes by name "
		       "<span class=\"muted\">%zu names, %zu runs</span></h2>\n"
		       "<table class=\"by-name\">\n<thead><tr><th>pass</th>"
		       "<th class=\"num\">runs</th><th class=\"num\">changed "
		       "the IR</th><th class=\"num\">CPU ms</th><th class=\"num\">"
		       "slowest run, ms</th><th class=\"num\">first seq</th>"
		       "</tr>"
		       "</thead>\n<tbody>\n", ng, r->nrows);
	for (size_t i = 0; i < ng && i < MAX_NAMES; i++) {
		irs_buf_puts(b, "<tr><td>");
		irs_html_str(b, g[i].name);
		irs_buf_printf(b, "</td><td class=\"num\">%zu</td><td "
			       "class=\"num\">%zu</td><td class=\"num\">%.1f"
			       "</td><td class=\"num\">%.2f</td><td class=\"num"
			       "\">%" JSON_INTEGER_FORMAT "</td></tr>\n",
			       g[i].runs, g[i].changed, g[i].cpu * 1000,
			       g[i].max * 1000, r->rows[g[i].first].seq);
	}
	irs_buf_puts(b, "</tbody>\n</table>\n");
	if (ng > MAX_NAMES)
		irs_buf_printf(b, "<p class=\"note\">%zu more names, each "
			       "using less CPU time, are not listed.</p>\n",
			       ng - MAX_NAMES);
	irs_buf_puts(b, "</section>\n");
	free(order);
	free(g);
}

// A JSON string for a <script> element: as JSON, and with <, > and &
// escaped too, so no text of the run can end the element.
static void
js_string(struct irs_buf *b, const char *s)
{
	irs_buf_puts(b, "\"");
	for (const unsigned char *p = (const unsigned char *)(s ? s : "");
	     *p; p++) {
		if (*p == '"' || *p == '\\')
			irs_buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' ||
			 *p == 0x7f)
			irs_buf_printf(b, "\\u%04x", *p);
		else
			irs_buf_append(b, p, 1);
	}
	irs_buf_puts(b, "\"");
}

// The rows of a paged timeline, as data for page_pager_js: names once,
// each row [seq, name, cpu ms, lines, text bytes, state, verifier, diff
// shown] with state 0 unchanged, 1 changed, 2 failed, 3 did not return, and
// verifier the verdict's words (irs_verdict_text(): "-" for none).
static void
put_rows_data(struct irs_buf *b, const struct run *r)
{
	// names numbered in order of first use; found by a sorted index
	size_t *order = malloc(r->nrows * sizeof(*order));
	size_t *name_of = malloc(r->nrows * sizeof(*name_of));
	if (!order || !name_of) {
		free(order);
		free(name_of);
		b->oom = true;
		return;
	}
	for (size_t i = 0; i < r->nrows; i++)
		order[i] = i;
	sort_rows_by_name(r, order);
	irs_buf_printf(b, "<script type=\"application/json\" id=\"rows\">"
		       "{\"per\":%d,\"max\":%.3f,\"failed\":\"%s\","
		       "\"names\":[", TIMELINE_PAGE, r->max_cpu * 1000,
		       verifier_failure(r) ? "broke the IR" : "crashed");
	size_t nnames = 0;
	for (size_t k = 0; k < r->nrows; k++) {
		const char *nm = r->rows[order[k]].name;
		if (k && !strcmp(nm ? nm : "",
				 r->rows[order[k - 1]].name ?
				 r->rows[order[k - 1]].name : "")) {
			name_of[order[k]] = name_of[order[k - 1]];
			continue;
		}
		name_of[order[k]] = nnames;
		if (nnames++)
			irs_buf_puts(b, ",");
		js_string(b, nm);
	}
	irs_buf_puts(b, "],\"rows\":[");
	for (size_t i = 0; i < r->nrows; i++) {
		const struct pass_row *row = &r->rows[i];
		json_t *last = row->after ? row->after : row->before;
		const json_t *cpu = row_cpu(r, row);
		json_t *nodes = json_object_get(last, "text_lines");
		json_t *bytes = json_object_get(last, "text_bytes");
		int state = is_failing_row(r, row) ? 2 : !row->after ? 3
			    : json_is_true(json_object_get(row->after,
							   "changed"));
		struct irs_verdict v = {0};
		char verdict[80];
		irs_manifest_verdict(row->after, &v);
		irs_verdict_text(&v, verdict, sizeof(verdict));
		irs_buf_printf(b, "%s[%" JSON_INTEGER_FORMAT ",%zu,", i ? ","
			       : "", row->seq, name_of[i]);
		if (json_is_number(cpu))
			irs_buf_printf(b, "%.3f", json_number_value(cpu) * 1000);
		else
			irs_buf_puts(b, "null");
		irs_buf_printf(b, ",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT
			       ",%d,", json_is_integer(nodes) ?
			       json_integer_value(nodes) : -1,
			       json_is_integer(bytes) ?
			       json_integer_value(bytes) : -1, state);
		js_string(b, verdict);
		irs_buf_printf(b, ",%d]", r->shown && r->shown[i]);
	}
	irs_buf_puts(b, "]}</script>\n");
	free(order);
	free(name_of);
}

// The controls of a paged timeline (page_pager_js makes them work).
static void
put_pager(struct irs_buf *b, const struct run *r)
{
	irs_buf_printf(b, "<p class=\"pager\" id=\"pager\">"
		       "<button type=\"button\" data-go=\"first\">&laquo; "
		       "first</button><button type=\"button\" data-go=\"prev\">"
		       "&lsaquo; previous</button> <span id=\"page-info\">rows "
		       "1&ndash;%d of %zu</span> <button type=\"button\" "
		       "data-go=\"next\">next &rsaquo;</button><button "
		       "type=\"button\" data-go=\"last\">last &raquo;</button>"
		       " <label><input type=\"checkbox\" id=\"changed-only\">"
		       " only passes that changed the IR or failed</label></p>\n",
		       TIMELINE_PAGE, r->nrows);
}

static void
put_timeline(struct irs_buf *b, const struct run *r)
{
	irs_buf_puts(b, "<section id=\"timeline\">\n<h2>Pass timeline</h2>\n");
	if (!r->nrows) {
		irs_buf_puts(b, "<p class=\"note\">No pass was recorded.</p>\n"
			     "</section>\n");
		return;
	}
	bool paged = r->nrows > TIMELINE_PAGE;
	if (paged)
		put_pager(b, r);
	irs_buf_puts(b, "<table class=\"timeline\">\n<thead><tr><th>seq</th>"
		     "<th>pass</th><th class=\"num\">CPU ms</th><th>CPU time"
		     "</th><th class=\"num\">lines</th><th class=\"num\">"
		     "text bytes</th><th>IR</th><th>verifier</th></tr></thead>"
		     "\n<tbody>\n");
	// Paged: the first page here (what a reader without scripts sees),
	// every row as data for the pager.
	for (size_t i = 0; i < r->nrows && (!paged || i < TIMELINE_PAGE); i++)
		put_timeline_row(b, r, &r->rows[i]);
	irs_buf_puts(b, "</tbody>\n</table>\n");
	if (paged)
		put_rows_data(b, r);
	if (r->max_cpu <= 0)
		irs_buf_puts(b, "<p class=\"note\">No pass used measurable CPU "
			     "time (the kernel counts it in clock ticks, "
			     "usually 10 ms).</p>\n");
	irs_buf_puts(b, "</section>\n");
}

static const char *
snapshot_text_path(json_t *ev)
{
	return json_string_value(json_object_get(json_object_get(ev,
		"snapshot"), "text"));
}

// A unified diff, one <span> per line so that CSS colours it.
static struct irs_error *
put_diff(struct irs_buf *b, const char *a, size_t alen, const char *aname,
	 const char *c, size_t clen, const char *cname, char *summary,
	 size_t summary_len)
{
	struct irs_error *err;
	struct irs_buf d;
	struct irs_textdiff_stats st;

	irs_buf_init(&d);
	// Hunks headed by their function, as irsnap diff (diff -p) does.
	err = irs_textdiff_unified_p(a, alen, aname, c, clen, cname,
				     DIFF_CONTEXT, true, &d, &st);
	if (err) {
		irs_buf_deinit(&d);
		return err;
	}
	snprintf(summary, summary_len, "+%" PRIu64 " &minus;%" PRIu64
		 " lines", st.added, st.removed);
	size_t shown = d.len < MAX_SHOWN ? d.len : MAX_SHOWN;
	irs_buf_puts(b, "<pre class=\"diff\">");
	for (size_t i = 0, line = 0; i < shown; line++) {
		const char *nl = memchr(d.data + i, '\n', d.len - i);
		size_t end = nl ? (size_t)(nl - d.data) + 1 : d.len;
		char k = d.data[i];
		const char *cls = line < 2 ? "file"	// --- and +++ lines
				  : k == '+' ? "add" : k == '-' ? "del"
				  : k == '@' ? "hunk" : k == '\\' ? "muted"
				  : "ctx";
		irs_buf_printf(b, "<span class=\"%s\">", cls);
		irs_html_text(b, d.data + i, end - i);
		irs_buf_puts(b, "</span>");
		i = end;
	}
	irs_buf_puts(b, "</pre>\n");
	if (shown < d.len)
		irs_buf_printf(b, "<p class=\"note\">diff cut at %d KiB; "
			       "compare the snapshot files for the rest.</p>\n",
			       MAX_SHOWN / 1024);
	if (st.gave_up)
		irs_buf_puts(b, "<p class=\"note\">Parts of the IR changed too "
			     "much to align line by line; they are shown as "
			     "removed, then added.</p>\n");
	irs_buf_deinit(&d);
	return NULL;
}

// The crash snapshot's text path when the failure belongs to @p row.
static const char *
crash_text_path(const struct run *r, const struct pass_row *row)
{
	if (!is_failing_row(r, row))
		return NULL;
	return json_string_value(json_object_get(json_object_get(r->failure,
		"crash_snapshot"), "text"));
}

// Body of one pass's <details>: the diff of its before and after (or crash)
// text; the input text when there is nothing to compare it with.
static struct irs_error *
put_pass_body(struct irs_buf *b, const struct run *r,
	      const struct pass_row *row, char *summary, size_t summary_len)
{
	struct irs_error *err;
	const char *bpath = snapshot_text_path(row->before);
	const char *apath = row->after ? snapshot_text_path(row->after)
			    : crash_text_path(r, row);
	char *btext = NULL, *atext = NULL;
	size_t blen = 0, alen = 0;

	if (!bpath) {
		snprintf(summary, summary_len, "no text snapshot");
		irs_buf_puts(b, "<p class=\"note\">No text snapshot was "
			     "recorded before this pass.</p>\n");
		return NULL;
	}
	err = read_snapshot(r, bpath, &btext, &blen);
	if (!err && apath)
		err = read_snapshot(r, apath, &atext, &alen);
	if (err)
		goto out;
	if (atext && (alen != blen || memcmp(atext, btext, alen))) {
		err = put_diff(b, btext, blen, bpath, atext, alen, apath,
			       summary, summary_len);
		if (!row->after) {	// a crash: the input matters most
			irs_buf_puts(b, "<details class=\"input\"><summary>"
				     "the IR this pass was given: ");
			irs_html_str(b, bpath);
			irs_buf_puts(b, "</summary>\n");
			html_pre(b, "ir", btext, blen);
			irs_buf_puts(b, "</details>\n");
		}
	} else if (atext && !row->after) {
		// The crash snapshot reads as the input: it died before
		// changing anything, which is no "unchanged" pass.
		snprintf(summary, summary_len, "crashed before changing the "
			 "IR");
		irs_buf_puts(b, "<p class=\"note bad\">The pass crashed before "
			     "changing the IR it was given ");
		irs_html_str(b, bpath);
		irs_buf_puts(b, ":</p>\n");
		html_pre(b, "ir", btext, blen);
	} else if (atext || (row->after && json_is_false(json_object_get(
			     row->after, "changed")))) {
		snprintf(summary, summary_len, "unchanged");
		irs_buf_puts(b, "<p class=\"note\">The pass left the IR as it "
			     "was.</p>\n");
	} else {
		snprintf(summary, summary_len, "%s",
			 row->after ? "no after snapshot" : "input only");
		irs_buf_puts(b, "<p class=\"note\">The IR this pass was "
			     "given ");
		irs_html_str(b, bpath);
		irs_buf_puts(b, ":</p>\n");
		html_pre(b, "ir", btext, blen);
	}
out:
	free(btext);
	free(atext);
	return err;
}

// One link in a pass's "files:" line, opening the line at the first.
static void
put_files_link(struct irs_buf *b, const struct run *r, bool *any,
	       const char *rel, const char *label)
{
	irs_buf_puts(b, *any ? " " : "<p class=\"files\">files: ");
	*any = true;
	put_file_link(b, r, rel, label);
}

// The text and JSON files a snapshot object names, linked by base name.
static void
put_snapshot_links(struct irs_buf *b, const struct run *r, bool *any,
		   json_t *snap)
{
	static const char *const keys[2] = {"text", "json"};
	for (int k = 0; k < 2; k++) {
		const char *rel = json_string_value(json_object_get(snap,
								    keys[k]));
		if (!rel)
			continue;
		const char *base = strrchr(rel, '/');
		put_files_link(b, r, any, rel, base ? base + 1 : rel);
	}
}

// "files: before.ir before.json after.ir after.json" of one pass, and
// the crash snapshot of the failing one.
static void
put_pass_files(struct irs_buf *b, const struct run *r,
	       const struct pass_row *row)
{
	bool any = false;
	put_snapshot_links(b, r, &any,
			   json_object_get(row->before, "snapshot"));
	put_snapshot_links(b, r, &any,
			   json_object_get(row->after, "snapshot"));
	if (is_failing_row(r, row)) {
		put_snapshot_links(b, r, &any,
				   json_object_get(r->failure,
						   "crash_snapshot"));
		put_files_link(b, r, &any, "failure.json", NULL);
	}
	if (any)
		irs_buf_puts(b, "</p>\n");
}

static struct irs_error *
put_pass_diff(struct irs_buf *b, const struct run *r,
	      const struct pass_row *row)
{
	struct irs_error *err;
	struct irs_buf body;
	char summary[128] = "";

	irs_buf_init(&body);
	err = put_pass_body(&body, r, row, summary, sizeof(summary));
	if (err) {
		irs_buf_deinit(&body);
		return err;
	}
	irs_buf_printf(b, "<details class=\"pass\" id=\"pass-%"
		       JSON_INTEGER_FORMAT "\"%s><summary><span class=\"num\">"
		       "%" JSON_INTEGER_FORMAT "</span> ", row->seq,
		       is_failing_row(r, row) ? " open" : "", row->seq);
	irs_html_str(b, row->name);
	irs_buf_printf(b, " <span class=\"muted\">%s</span></summary>\n",
		       summary);	// summary holds entities, no user text
	put_pass_files(b, r, row);
	irs_buf_append(b, body.data ? body.data : "", body.len);
	irs_buf_puts(b, "</details>\n");
	irs_buf_deinit(&body);
	return NULL;
}

// Whether @p row's pass is worth its diff on a long run's page: it
// changed the IR, crashed, or did not return.
static bool
worth_a_diff(const struct run *r, const struct pass_row *row)
{
	return !row->after || is_failing_row(r, row) ||
	       json_is_true(json_object_get(row->after, "changed"));
}

struct diff_part {
	size_t row;
	struct irs_buf html;
};

static int
by_row(const void *a, const void *b)
{
	size_t x = ((const struct diff_part *)a)->row;
	size_t y = ((const struct diff_part *)b)->row;
	return x < y ? -1 : x > y;
}

// The <details> of the passes whose diff goes on the page, in seq order,
// into @p out; r->shown says which. Every pass when there are at most
// MAX_DIFFS; else the failing pass, then the passes nearest the end that
// changed the IR, while DIFF_BUDGET lasts. Only their snapshots are read.
static struct irs_error *
render_diffs(struct run *r, struct irs_buf *out)
{
	struct irs_error *err = NULL;
	bool all = r->nrows <= MAX_DIFFS;
	size_t cap = all ? r->nrows : MAX_DIFFS, nparts = 0, used = 0;

	r->shown = r->nrows ? calloc(r->nrows, sizeof(*r->shown)) : NULL;
	struct diff_part *parts = cap ? calloc(cap, sizeof(*parts)) : NULL;
	if (r->nrows && (!r->shown || !parts)) {
		free(parts);
		return &irs_enomem;
	}
	size_t failing = r->nrows;
	for (size_t i = r->nrows; i-- > 0;) {
		r->nchanged += r->rows[i].after && json_is_true(
			json_object_get(r->rows[i].after, "changed"));
		if (failing == r->nrows && is_failing_row(r, &r->rows[i]))
			failing = i;
	}
	// From the end back (the failing pass first), so the budget goes to
	// the passes nearest where the run ended.
	for (size_t k = 0, i = r->nrows; !err && nparts < cap; k++) {
		size_t at;
		if (k == 0 && failing < r->nrows) {
			at = failing;
		} else {
			while (i > 0 && (i - 1 == failing ||
					 (!all && !worth_a_diff(r, &r->rows[i - 1]))))
				i--;
			if (i == 0)
				break;
			at = --i;
		}
		if (used > DIFF_BUDGET)
			break;
		struct diff_part *part = &parts[nparts++];
		part->row = at;
		irs_buf_init(&part->html);
		err = put_pass_diff(&part->html, r, &r->rows[at]);
		used += part->html.len;
		r->shown[at] = true;
		r->nshown++;
	}
	if (nparts)
		qsort(parts, nparts, sizeof(*parts), by_row);
	for (size_t k = 0; k < nparts; k++) {
		if (!err)
			irs_buf_append(out, parts[k].html.data ?
				       parts[k].html.data : "",
				       parts[k].html.len);
		irs_buf_deinit(&parts[k].html);
	}
	free(parts);
	return err;
}

// The diffs section around @p diffs (from render_diffs()), saying which
// passes it leaves out on a long run.
static void
put_diffs(struct irs_buf *b, const struct run *r, const struct irs_buf *diffs)
{
	if (!r->nrows)
		return;
	irs_buf_puts(b, "<section id=\"diffs\">\n<h2>IR changes by pass "
		     "<button type=\"button\" id=\"expand\">expand all</button>"
		     " <button type=\"button\" id=\"collapse\">collapse all"
		     "</button></h2>\n");
	if (r->nshown < r->nrows) {
		irs_buf_printf(b, "<p class=\"note\">Diffs of %zu of the %zu "
			       "passes: ", r->nshown, r->nrows);
		irs_buf_printf(b, "%s the last that changed the IR (%zu passes "
			       "changed it, %zu left it as it was). The timeline"
			       " links each diff shown; <code>irsnap diff ",
			       r->failure ? "the failing pass, then" : "",
			       r->nchanged, r->nrows - r->nchanged);
		irs_html_str(b, r->dir);
		irs_buf_puts(b, " SEQ</code> shows any other.</p>\n");
	}
	irs_buf_append(b, diffs->data ? diffs->data : "", diffs->len);
	irs_buf_puts(b, "</section>\n");
}

static void
put_frame(struct irs_buf *b, json_t *f)
{
	const char *file = json_string_value(json_object_get(f, "file"));
	json_t *line = json_object_get(f, "line");

	irs_buf_puts(b, "<tr><td class=\"num\">");
	html_json(b, json_object_get(f, "index"));
	irs_buf_puts(b, "</td><td class=\"mono\">");
	html_json(b, json_object_get(f, "pc"));
	irs_buf_puts(b, "</td><td class=\"mono\">");
	html_json(b, json_object_get(f, "function"));
	irs_buf_puts(b, "</td><td class=\"mono\">");
	if (file && *file) {
		irs_html_str(b, file);
		irs_buf_printf(b, ":%" JSON_INTEGER_FORMAT,
			       json_integer_value(line));
	} else {
		irs_buf_puts(b, "&mdash;");
	}
	irs_buf_puts(b, "</td></tr>\n");
}

static void
put_backtrace(struct irs_buf *b, json_t *bt)
{
	if (!json_array_size(bt)) {
		irs_buf_puts(b, "<p class=\"note\">No backtrace.</p>\n");
		return;
	}
	irs_buf_puts(b, "<table class=\"bt\">\n<thead><tr><th>#</th><th>pc</th>"
		     "<th>function</th><th>location</th></tr></thead>\n"
		     "<tbody>\n");
	size_t i;
	json_t *f;
	json_array_foreach(bt, i, f)
		put_frame(b, f);
	irs_buf_puts(b, "</tbody>\n</table>\n");
}

// The failure's snapshot: the IR at the crash, or the IR a verifier
// rejected (after its pass).
static void
put_walk_errors(struct irs_buf *b, json_t *crash, bool verifier)
{
	json_t *errs = json_object_get(crash, "walk_errors");
	if (!crash || json_is_null(crash)) {
		irs_buf_printf(b, "<p class=\"note\">No IR snapshot %s (no IR "
			       "root was known).</p>\n", verifier
			       ? "after the pass" : "at the crash");
		return;
	}
	irs_buf_printf(b, "<h3>%s</h3>\n<p>", verifier ? "The IR the verifier "
		       "rejected" : "Crash snapshot");
	html_json(b, json_object_get(crash, "text"));
	if (!json_array_size(errs)) {
		irs_buf_puts(b, ": read without walk errors.</p>\n");
		return;
	}
	irs_buf_printf(b, ": %zu walk error%s.</p>\n<ul class=\"errors\">\n",
		       json_array_size(errs),
		       json_array_size(errs) == 1 ? "" : "s");
	size_t i;
	json_t *e;
	json_array_foreach(errs, i, e) {
		irs_buf_puts(b, "<li class=\"mono\">");
		html_json(b, e);
		irs_buf_puts(b, "</li>\n");
	}
	irs_buf_puts(b, "</ul>\n");
}

// A note for what stops a picture: @p err (destroyed), or @p why. Returns
// what the caller returns: out of memory only.
static struct irs_error *
cfg_note(struct irs_buf *b, struct irs_error *err, const char *why)
{
	if (err == &irs_enomem)
		return err;
	irs_buf_puts(b, "<p class=\"note\">No picture of the control flow: ");
	irs_html_str(b, err ? irs_error_get_message(err) : why);
	irs_buf_puts(b, ".</p>\n");
	irs_error_destroy(err);
	return NULL;
}

// One side of the picture: @p g's function @p name in a <figure>.
static struct irs_error *
put_cfg_side(struct irs_buf *b, const struct irs_cfg *g, const char *name,
	     const char *caption)
{
	struct irs_buf svg;
	size_t n = 0;
	irs_buf_init(&svg);
	struct irs_error *err = irs_cfg_svg(g, name, &svg, &n);
	irs_buf_puts(b, "<figure><figcaption>");
	irs_html_str(b, caption);
	if (!err)
		irs_buf_printf(b, " <span class=\"muted\">%zu block%s</span>",
			       n, n == 1 ? "" : "s");
	irs_buf_puts(b, "</figcaption>\n");
	if (!err)	// dot's own XML escaping of the text; checked plain
		irs_buf_append(b, svg.data, svg.len);
	else if (err != &irs_enomem)
		err = cfg_note(b, err, NULL);
	irs_buf_puts(b, "</figure>\n");
	irs_buf_deinit(&svg);
	return err;
}

// The control-flow graph of the function the failing pass changed, before
// (its input) and after (the IR at the crash, or the IR the verifier
// rejected), drawn by Graphviz from the two snapshots' JSON graphs
// (tools/cfg.c), as -dot-cfg draws it: a picture, not text to read.
static struct irs_error *
put_cfg(struct irs_buf *b, const struct run *r)
{
	json_t *bs = json_object_get(r->failure, "before_snapshot");
	json_t *cs = json_object_get(r->failure, "crash_snapshot");
	const char *rel[4] = {
		json_string_value(json_object_get(bs, "text")),
		json_string_value(json_object_get(bs, "json")),
		json_string_value(json_object_get(cs, "text")),
		json_string_value(json_object_get(cs, "json")),
	};
	struct irs_cfg *g[2] = {NULL, NULL};
	struct irs_error *err = NULL;
	bool verifier = verifier_failure(r);

	irs_buf_puts(b, "<h3>Control flow</h3>\n");
	if (!rel[0] || !rel[1] || !rel[2] || !rel[3])
		return cfg_note(b, NULL, "the run has no JSON graph of both "
				"the failing pass's input and the IR after it "
				"(format text, or no IR at the failure)");
	for (int k = 0; !err && k < 2; k++) {
		char *text = NULL, *json = NULL;
		size_t len = 0;
		err = read_snapshot(r, rel[2 * k], &text, &len);
		if (!err)
			err = irs_rundir_file(r->dir, rel[2 * k + 1], &json);
		if (!err)
			err = irs_cfg_read(json, text, len, &g[k]);
		free(text);
		free(json);
	}
	const char *name = err ? NULL : irs_cfg_changed(g[0], g[1]);
	if (err)
		err = cfg_note(b, err, NULL);
	else if (!name)
		err = cfg_note(b, NULL, "the pass changed no function before "
			       "it failed");
	if (!err && name) {
		irs_buf_puts(b, "<p>Of <code>");
		irs_html_str(b, name);
		irs_buf_puts(b, "</code>, the first function the pass changed: "
			     "a box per block (the entry's bold), an arrow to "
			     "each block its terminator names.</p>\n"
			     "<div class=\"cfg\">\n");
		err = put_cfg_side(b, g[0], name, "before the pass");
		if (!err)
			err = put_cfg_side(b, g[1], name, verifier
					   ? "after the pass, rejected by the "
					   "verifier" : "at the crash");
		irs_buf_puts(b, "</div>\n");
	}
	irs_cfg_destroy(g[0]);
	irs_cfg_destroy(g[1]);
	return err;
}

static bool
is_log(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && !strcmp(name + n - 4, ".log");
}

// One file of RUN/repro/, folded; logs start closed, the rest open.
static struct irs_error *
put_repro_file(struct irs_buf *b, const struct run *r, const char *name)
{
	struct irs_error *err;
	char *path, *text;
	size_t len;
	struct stat st;

	if (asprintf(&path, "%s/repro/%s", r->dir, name) < 0)
		return &irs_enomem;
	// lstat: a link in repro/ may point anywhere; it is listed, not read
	bool got = lstat(path, &st) == 0;
	if (!got || !S_ISREG(st.st_mode)) {
		free(path);
		if (got && S_ISLNK(st.st_mode)) {
			irs_buf_puts(b, "<p class=\"note\">repro/");
			irs_html_str(b, name);
			irs_buf_puts(b, ": a symbolic link, not shown.</p>\n");
		}
		return NULL;
	}
	err = irs_file_read(path, &text, &len);
	free(path);
	if (err)
		return err;
	irs_buf_printf(b, "<details class=\"repro\"%s><summary>repro/",
		       is_log(name) ? "" : " open");
	irs_html_str(b, name);
	irs_buf_printf(b, " <span class=\"muted\">%zu bytes</span></summary>\n",
		       len);
	// IR keeps its lines as they are (scrolled); a script or a log
	// wraps, so a long command line is read whole, not cut at the edge.
	const char *dot = strrchr(name, '.');
	bool script = is_log(name) || (dot && !strcmp(dot, ".sh"));
	html_pre(b, script ? "cmd" : "ir", text, len);
	irs_buf_puts(b, "</details>\n");
	free(text);
	return NULL;
}

// The reduced input first, then repro.sh, logs last.
static int
name_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	if (is_log(x) != is_log(y))
		return is_log(x) - is_log(y);
	return strcmp(x, y);
}

// The reducer's output: RUN/repro/ holds the reduced input next to
// repro.sh and its log. Each file is shown, the logs folded.
static struct irs_error *
put_repro(struct irs_buf *b, const struct run *r)
{
	char *dir;
	struct stat st;
	struct irs_error *err = irs_rundir_file(r->dir, "repro", &dir);
	if (err) {
		if (err == &irs_enomem)
			return err;
		irs_buf_puts(b, "<p class=\"note\">");
		irs_html_str(b, irs_error_get_message(err));
		irs_buf_puts(b, "</p>\n");
		irs_error_destroy(err);
		return NULL;
	}
	DIR *d = lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? opendir(dir)
							     : NULL;
	free(dir);
	if (!d)
		return NULL;
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strstr(de->d_name, ".tmp."))
			continue;	// dot files, unfinished atomic writes
		char **grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown) {
			err = &irs_enomem;
			break;
		}
		names = grown;
		if (!(names[n] = strdup(de->d_name))) {
			err = &irs_enomem;
			break;
		}
		n++;
	}
	closedir(d);
	irs_buf_puts(b, "<h3>Reduced reproducer</h3>\n");
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	else if (!err)
		irs_buf_puts(b, "<p class=\"note\">repro/ is empty.</p>\n");
	for (size_t i = 0; !err && i < n; i++)
		err = put_repro_file(b, r, names[i]);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

static struct irs_error *
put_failure(struct irs_buf *b, const struct run *r)
{
	json_t *f = r->failure;
	if (!f)
		return NULL;
	json_t *sig = json_object_get(f, "signal");
	json_t *pass = json_object_get(f, "pass");
	const char *kind = json_string_value(json_object_get(f, "kind"));

	irs_buf_puts(b, "<section id=\"failure\">\n<h2>Failure</h2>\n"
		     "<p class=\"headline\">");
	json_t *ver = json_object_get(f, "verifier");
	bool verifier = verifier_failure(r);
	if (json_is_object(sig)) {
		irs_buf_puts(b, "<span class=\"sig\">");
		html_json(b, json_object_get(sig, "name"));
		irs_buf_puts(b, "</span> (signal ");
		html_json(b, json_object_get(sig, "number"));
		irs_buf_puts(b, ")");
	} else if (verifier && json_is_object(ver)) {
		json_int_t n = json_integer_value(json_object_get(ver,
								  "problems"));
		irs_buf_puts(b, "verifier <span class=\"sig\">");
		html_json(b, json_object_get(ver, "name"));
		irs_buf_printf(b, "</span> found %" JSON_INTEGER_FORMAT
			       " problem%s", n, n == 1 ? "" : "s");
	} else {
		irs_buf_puts(b, "<span class=\"sig\">");
		irs_html_str(b, kind ? kind : "failure");
		irs_buf_puts(b, "</span>");
	}
	if (json_is_object(pass)) {
		irs_buf_printf(b, " %s pass <a class=\"pass\" href=\"#pass-",
			       verifier ? "after" : "in");
		html_json(b, json_object_get(pass, "seq"));
		irs_buf_puts(b, "\">");
		html_json(b, json_object_get(pass, "name"));
		irs_buf_puts(b, "</a> (seq ");
		html_json(b, json_object_get(pass, "seq"));
		irs_buf_puts(b, ")</p>\n");
	} else {
		irs_buf_puts(b, " outside any traced pass</p>\n");
	}
	const char *msg = json_string_value(json_object_get(f, "message"));
	if (msg && *msg)
		html_pre(b, "msg", msg, strlen(msg));
	irs_buf_puts(b, "<h3>Backtrace</h3>\n");
	put_backtrace(b, json_object_get(f, "backtrace"));
	const char *bt_err = json_string_value(json_object_get(f,
		"backtrace_error"));
	if (bt_err) {
		irs_buf_puts(b, "<p class=\"note\">");
		irs_html_str(b, bt_err);
		irs_buf_puts(b, "</p>\n");
	}
	put_walk_errors(b, json_object_get(f, "crash_snapshot"), verifier);
	struct irs_error *err = put_cfg(b, r);
	if (err)
		return err;
	const char *cmd = json_string_value(json_object_get(f,
							    "reduce_command"));
	irs_buf_puts(b, "<h3>Reduce command</h3>\n");
	if (cmd) {
		html_pre(b, "cmd", cmd, strlen(cmd));
	} else {
		irs_buf_puts(b, "<p class=\"note\">The layout gives no rerun "
			     "command, so there is no ready reduce command."
			     "</p>\n");
	}
	err = put_repro(b, r);
	irs_buf_puts(b, "</section>\n");
	return err;
}

/* }==== */

/* {==== The page ========================================================== */

static const char page_css[] =
	":root{--fg:#1d2330;--muted:#6b7280;--line:#e3e6ec;--bg:#fff;"
	"--soft:#f6f7f9;--bad:#b42318;--badbg:#fdecea;--good:#067647;"
	"--goodbg:#e8f6ee;--bar:#7c9cd9}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0 auto;max-width:1200px;padding:24px 32px 64px;"
	"font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"color:var(--fg);background:var(--bg)}\n"
	"h1{font-size:22px;margin:0 0 12px}"
	"h2{font-size:18px;margin:32px 0 10px;"
	"padding-bottom:4px;border-bottom:1px solid var(--line)}"
	"h3{font-size:15px;margin:20px 0 8px}\n"
	".id,.mono,pre,code{font-family:ui-monospace,'DejaVu Sans Mono',"
	"Menlo,monospace;font-size:12.5px}\n"
	".status{font-size:13px;padding:2px 10px;border-radius:10px;"
	"vertical-align:middle}\n"
	".status.bad{background:var(--badbg);color:var(--bad)}"
	".status.good{background:var(--goodbg);color:var(--good)}"
	".status.other{background:var(--soft);color:var(--muted)}\n"
	"dl.meta{display:grid;grid-template-columns:max-content 1fr;"
	"gap:2px 16px;margin:0}dl.meta dt{color:var(--muted)}"
	"dl.meta dd{margin:0;overflow-wrap:anywhere}\n"
	"table{border-collapse:collapse;width:100%}th,td{text-align:left;"
	"padding:4px 8px;border-bottom:1px solid var(--line);"
	"vertical-align:top}th{font-weight:600;color:var(--muted);"
	"font-size:12px}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;"
	"width:1%;white-space:nowrap}\n"
	"td.bar{width:40%}.bar span{display:block;height:12px;margin-top:4px;"
	"background:var(--bar);border-radius:2px;min-width:2px}\n"
	"tr.failing td{background:var(--badbg)}"
	".bad{color:var(--bad);font-weight:600}.good{color:var(--good)}"
	".muted{color:var(--muted)}.note{color:var(--muted);margin:6px 0}\n"
	"a{color:#1f5fbf;text-decoration:none}a:hover{text-decoration:"
	"underline}\n"
	"#failure{border:1px solid #f3b8b2;background:#fffafa;"
	"border-radius:6px;padding:4px 16px 12px}#failure h2{border:0}\n"
	".headline{font-size:16px}.sig{color:var(--bad);font-weight:700}\n"
	"details{border:1px solid var(--line);border-radius:6px;"
	"margin:6px 0;background:var(--bg)}details>summary{cursor:pointer;"
	"padding:6px 10px;background:var(--soft);border-radius:6px}"
	"details[open]>summary{border-bottom:1px solid var(--line);"
	"border-radius:6px 6px 0 0}summary .num{display:inline-block;"
	"min-width:2.5em;color:var(--muted)}\n"
	"pre{margin:0;padding:8px 10px;overflow:auto;max-height:600px;"
	"white-space:pre}pre.cmd,pre.msg{background:var(--soft);"
	"border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}\n"
	"pre.diff span{display:block}pre.diff .add{background:#e6ffec}"
	"pre.diff .del{background:#ffebe9}pre.diff .hunk{color:#6639ba;"
	"background:#f3f0ff}pre.diff .file{color:var(--muted);"
	"font-weight:600}\n"
	"ul.errors{margin:4px 0;padding-left:20px}\n"
	".cfg{display:flex;gap:16px;align-items:flex-start;overflow-x:auto}"
	".cfg figure{margin:0;flex:1 1 0;min-width:0;border:1px solid "
	"var(--line);border-radius:6px;padding:6px}.cfg figcaption{"
	"font-size:12px;color:var(--muted);margin-bottom:4px}"
	".cfg svg{max-width:100%;height:auto}\n"
	"button{font:inherit;font-size:12px;margin-left:8px;padding:1px 8px;"
	"border:1px solid var(--line);border-radius:4px;background:var(--soft);"
	"cursor:pointer}\n"
	"footer{margin-top:40px;color:var(--muted);font-size:12px}\n"
	".pager{margin:6px 0}.pager button{margin:0 4px 0 0}"
	".pager label{margin-left:12px;color:var(--muted)}\n";

// Expand/collapse all, and open a pass's diff when its link is followed.
static const char page_js[] =
	"(function(){'use strict';\n"
	"function all(open){document.querySelectorAll('details.pass')"
	".forEach(function(d){d.open=open;});}\n"
	"var e=document.getElementById('expand'),"
	"c=document.getElementById('collapse');\n"
	"if(e)e.addEventListener('click',function(){all(true);});\n"
	"if(c)c.addEventListener('click',function(){all(false);});\n"
	"function openHash(){var d=document.getElementById("
	"decodeURIComponent(location.hash.slice(1)));"
	"if(d&&d.tagName==='DETAILS')d.open=true;}\n"
	"window.addEventListener('hashchange',openHash);openHash();\n"
	"})();\n";

// The pager of a long timeline: pages of the rows in the "rows" data,
// drawn with textContent only (the data is the run's, never markup); a
// hash #page-N opens page N.
static const char page_pager_js[] =
	"(function(){'use strict';\n"
	"var el=document.getElementById('rows');if(!el)return;\n"
	"var d=JSON.parse(el.textContent),per=d.per,all=d.rows,rows=all,"
	"page=0;\n"
	"var tb=document.querySelector('table.timeline tbody'),"
	"info=document.getElementById('page-info'),"
	"only=document.getElementById('changed-only');\n"
	"var states=['unchanged','changed',d.failed,'did not return'];\n"
	"function td(tr,text,cls){var c=document.createElement('td');"
	"if(cls)c.className=cls;if(text!==null)c.textContent=text;"
	"tr.appendChild(c);return c;}\n"
	"function size(n){return n<0?'\\u2014':n<10240?n+' B':n<10485760?"
	"(n/1024).toFixed(1)+' KiB':(n/1048576).toFixed(1)+' MiB';}\n"
	"function draw(){var n=Math.max(1,Math.ceil(rows.length/per));"
	"if(page>=n)page=n-1;if(page<0)page=0;"
	"var f=document.createDocumentFragment(),a=page*per,"
	"b=Math.min(rows.length,a+per);\n"
	"for(var i=a;i<b;i++){var r=rows[i],tr=document.createElement('tr');"
	"if(r[5]===2)tr.className='failing';td(tr,String(r[0]),'num');"
	"var c=td(tr,null);if(r[7]){var l=document.createElement('a');"
	"l.href='#pass-'+r[0];l.textContent=d.names[r[1]];c.appendChild(l);}"
	"else c.textContent=d.names[r[1]];\n"
	"if(r[2]===null){td(tr,'\\u2014','num muted');td(tr,null,'bar');}"
	"else{td(tr,r[2]>=100?r[2].toFixed(0):r[2].toFixed(2),'num');"
	"var s=document.createElement('span');s.style.width="
	"(d.max>0?100*r[2]/d.max:0).toFixed(1)+'%';td(tr,null,'bar')"
	".appendChild(s);}\n"
	"td(tr,r[3]<0?'\\u2014':String(r[3]),'num');td(tr,size(r[4]),'num');"
	"td(tr,states[r[5]],r[5]===2?'bad':r[5]===3?'muted':'');"
	"td(tr,r[6]==='-'?'\\u2014':r[6],"
	"r[6]==='-'?'muted':r[6]==='ok'?'good':'bad');f.appendChild(tr);}\n"
	"tb.textContent='';tb.appendChild(f);"
	"info.textContent=rows.length?'rows '+(a+1)+'\\u2013'+b+' of '+"
	"rows.length+(rows===all?'':' shown ('+all.length+' passes)'):"
	"'no pass';}\n"
	"function go(w){var n=Math.ceil(rows.length/per);page=w==='first'?0:"
	"w==='last'?n-1:w==='next'?page+1:w==='prev'?page-1:page;draw();}\n"
	"document.querySelectorAll('#pager button').forEach(function(x){"
	"x.addEventListener('click',function(){go(x.getAttribute("
	"'data-go'));});});\n"
	"only.addEventListener('change',function(){rows=only.checked?"
	"all.filter(function(r){return r[5]!==0;}):all;page=0;draw();});\n"
	"var m=/^#page-([0-9]+)$/.exec(location.hash);"
	"if(m){page=parseInt(m[1],10)-1;draw();}\n"
	"})();\n";

static struct irs_error *
put_page(struct irs_buf *b, struct run *r)
{
	struct irs_error *err;
	struct irs_buf diffs;

	// The diffs first: the timeline links those on the page.
	irs_buf_init(&diffs);
	err = render_diffs(r, &diffs);
	if (err) {
		irs_buf_deinit(&diffs);
		return err;
	}
	irs_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		     "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
		     "content=\"width=device-width\">\n<title>irsnap run ");
	html_json(b, json_object_get(r->manifest, "run_id"));
	irs_buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		       page_css);
	put_header(b, r);
	put_files(b, r);
	err = put_failure(b, r);
	if (!err) {
		put_by_name(b, r);
		put_timeline(b, r);
		put_diffs(b, r, &diffs);
	}
	bool diffs_oom = diffs.oom;
	irs_buf_deinit(&diffs);
	if (err)
		return err;
	irs_buf_printf(b, "<footer>irsnap %s report</footer>\n<script>\n%s%s"
		       "</script>\n</body>\n</html>\n", IRS_VERSION, page_js,
		       r->nrows > TIMELINE_PAGE ? page_pager_js : "");
	return b->oom || diffs_oom ? &irs_enomem : NULL;
}

/* }==== */

struct irs_error *
irs_report_write(const char *run, const char *html_path)
{
	struct irs_error *err;
	struct run r;
	struct irs_buf page;

	if (!run || !html_path)
		return irs_error_create(IRS_ERROR_USAGE,
					"report needs a run directory and an "
					"output file");
	irs_buf_init(&page);
	err = run_load(&r, run);
	if (!err)
		err = run_links(&r, html_path);
	if (!err)
		err = put_page(&page, &r);
	if (!err)
		err = irs_file_write(html_path, page.data, page.len);
	run_unload(&r);
	irs_buf_deinit(&page);
	return err;
}
