// `irsnap report`: one self-contained HTML page for a run directory.
//
// The page is read top to bottom the way an engineer triages a run: what ran
// (header), what went wrong (failure), where the time went (timeline), and
// what each pass did to the IR (diffs, folded). No network, no external
// assets: CSS and a few lines of JS are inline, and every byte that comes
// from the run directory goes through html_text().
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "session.h"
#include "textdiff.h"

enum {
	DIFF_CONTEXT = 3,
	MAX_SHOWN = 512 * 1024,		// bytes of one diff or text on the page
};

struct pass_row {
	json_int_t seq;
	const char *name;
	json_t *before, *after;		// events, borrowed from the manifest
};

struct run {
	const char *dir;
	json_t *manifest;
	json_t *failure;		// NULL when the run did not fail
	struct pass_row *rows;		// in seq order
	size_t nrows;
	double max_cpu;			// slowest pass, for the bars
};

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
	char *path = run_path(r, rel);
	if (!path)
		return &irs_enomem;
	json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
	struct irs_error *err = NULL;
	if (!j && json_error_code(&je) == json_error_cannot_open_file)
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: %s", path,
				       je.text);
	else if (!j)
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

static struct pass_row *
row_for(struct run *r, json_int_t seq, const char *name)
{
	for (size_t i = r->nrows; i-- > 0;)
		if (r->rows[i].seq == seq)
			return &r->rows[i];
	struct pass_row *rows = realloc(r->rows,
					(r->nrows + 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	r->rows = rows;
	rows[r->nrows] = (struct pass_row){.seq = seq, .name = name};
	return &rows[r->nrows++];
}

static int
row_cmp(const void *a, const void *b)
{
	json_int_t x = ((const struct pass_row *)a)->seq;
	json_int_t y = ((const struct pass_row *)b)->seq;
	return (x > y) - (x < y);
}

// Pairs before and after events by sequence number.
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
		struct pass_row *row = row_for(r, json_integer_value(seq),
					       pass);
		if (!row)
			return &irs_enomem;
		if (!strcmp(phase, "before"))
			row->before = ev;
		else
			row->after = ev;
		double cpu = json_number_value(json_object_get(ev, "cpu_s"));
		if (cpu > r->max_cpu)
			r->max_cpu = cpu;
	}
	if (r->nrows)	// qsort(NULL, 0) is undefined: a run may have no event
		qsort(r->rows, r->nrows, sizeof(*r->rows), row_cmp);
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
	bool present = access(fpath, F_OK) == 0;
	free(fpath);
	if (present || json_is_string(json_object_get(r->manifest, "failure")))
		err = load_json(r, "failure.json", &r->failure);
	if (!err && r->failure)
		err = check_schema(r, "failure.json", r->failure,
				   "irsnap.failure/1");
	return err;
}

static void
run_unload(struct run *r)
{
	json_decref(r->manifest);
	json_decref(r->failure);
	free(r->rows);
}

// True when relative path @p rel is absolute or has a ".." component.
static bool
leaves_dir(const char *rel)
{
	if (rel[0] == '/')
		return true;
	for (const char *p = rel; p; p = strchr(p, '/')) {
		p += *p == '/';
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return true;
	}
	return false;
}

// Reads a snapshot text the manifest names, relative to the run directory.
// Paths that leave the run directory are refused, so a crafted manifest
// cannot pull other files into a page that may be shared.
static struct irs_error *
read_snapshot(const struct run *r, const char *rel, char **ret, size_t *len)
{
	if (leaves_dir(rel))
		return irs_error_format(IRS_ERROR_FORMAT,
					"%s/manifest.json: snapshot path %s "
					"leaves the run directory", r->dir,
					rel);
	char *path = run_path(r, rel);
	if (!path)
		return &irs_enomem;
	struct irs_error *err = irs_file_read(path, ret, len);
	free(path);
	return err;
}

/* }==== */

/* {==== HTML text ========================================================= */

// Escapes @p len bytes for HTML text and attribute values. NUL and other C0
// controls (bar tab and newline) become U+FFFD: they are not valid HTML.
static void
html_text(struct irs_buf *b, const char *s, size_t len)
{
	size_t run = 0;		// start of the bytes not yet copied
	for (size_t i = 0; i < len; i++) {
		const char *rep;
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			rep = c < 0x20 && c != '\t' && c != '\n' ? "&#xFFFD;"
			      : NULL;
		}
		if (!rep)
			continue;
		irs_buf_append(b, s + run, i - run);
		irs_buf_puts(b, rep);
		run = i + 1;
	}
	irs_buf_append(b, s + run, len - run);
}

static void
html_str(struct irs_buf *b, const char *s)
{
	html_text(b, s ? s : "", s ? strlen(s) : 0);
}

// A JSON scalar as text: strings as they are, numbers, "—" for null/absent.
static void
html_json(struct irs_buf *b, json_t *v)
{
	if (json_is_string(v))
		html_str(b, json_string_value(v));
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
	html_text(b, s, shown);
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
	html_str(b, status);
	irs_buf_puts(b, "</span></h1>\n");
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
	html_str(b, r->dir);
	irs_buf_puts(b, "</dd>\n");
	irs_buf_printf(b, "<dt>passes</dt><dd>%zu</dd>\n", r->nrows);
	irs_buf_puts(b, "</dl>\n</header>\n");
}

static bool
is_failing_row(const struct run *r, const struct pass_row *row)
{
	json_t *p = json_object_get(r->failure, "pass");
	return r->failure && !row->after &&
	       json_integer_value(json_object_get(p, "seq")) == row->seq;
}

// "ok", "N problems" or "—" from an event's verifier results.
static void
put_verifiers(struct irs_buf *b, json_t *ev)
{
	json_t *vs = json_object_get(ev, "verifiers");
	if (!json_array_size(vs)) {
		irs_buf_puts(b, "<td class=\"muted\">&mdash;</td>");
		return;
	}
	json_int_t problems = 0;
	size_t i;
	json_t *v;
	json_array_foreach(vs, i, v)
		problems += json_integer_value(json_object_get(v, "problems"));
	if (!problems)
		irs_buf_puts(b, "<td class=\"good\">ok</td>");
	else
		irs_buf_printf(b, "<td class=\"bad\">%" JSON_INTEGER_FORMAT
			       " problem%s</td>", problems,
			       problems == 1 ? "" : "s");
}

static void
put_timeline_row(struct irs_buf *b, const struct run *r,
		 const struct pass_row *row)
{
	json_t *last = row->after ? row->after : row->before;
	json_t *cpu = json_object_get(row->after, "cpu_s");
	bool failing = is_failing_row(r, row);

	irs_buf_printf(b, "<tr%s><td class=\"num\">%" JSON_INTEGER_FORMAT
		       "</td><td><a href=\"#pass-%" JSON_INTEGER_FORMAT "\">",
		       failing ? " class=\"failing\"" : "", row->seq, row->seq);
	html_str(b, row->name);
	irs_buf_puts(b, "</a></td>");
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
	irs_buf_puts(b, "</td><td class=\"num\">");
	html_json(b, json_object_get(last, "nodes"));
	irs_buf_puts(b, "</td><td class=\"num\">");
	html_bytes(b, json_object_get(last, "bytes"));
	irs_buf_puts(b, "</td>");
	if (failing)
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

static void
put_timeline(struct irs_buf *b, const struct run *r)
{
	irs_buf_puts(b, "<section id=\"timeline\">\n<h2>Pass timeline</h2>\n");
	if (!r->nrows) {
		irs_buf_puts(b, "<p class=\"note\">No pass was recorded.</p>\n"
			     "</section>\n");
		return;
	}
	irs_buf_puts(b, "<table class=\"timeline\">\n<thead><tr><th>#</th>"
		     "<th>pass</th><th class=\"num\">CPU ms</th><th>CPU time"
		     "</th><th>nodes</th>"
		     "<th>bytes</th><th>IR</th><th>verifier</th></tr></thead>"
		     "\n<tbody>\n");
	for (size_t i = 0; i < r->nrows; i++)
		put_timeline_row(b, r, &r->rows[i]);
	irs_buf_puts(b, "</tbody>\n</table>\n");
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
	err = irs_textdiff_unified(a, alen, aname, c, clen, cname,
				   DIFF_CONTEXT, &d, &st);
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
		html_text(b, d.data + i, end - i);
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
			html_str(b, bpath);
			irs_buf_puts(b, "</summary>\n");
			html_pre(b, "ir", btext, blen);
			irs_buf_puts(b, "</details>\n");
		}
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
		html_str(b, bpath);
		irs_buf_puts(b, ":</p>\n");
		html_pre(b, "ir", btext, blen);
	}
out:
	free(btext);
	free(atext);
	return err;
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
	html_str(b, row->name);
	irs_buf_printf(b, " <span class=\"muted\">%s</span></summary>\n",
		       summary);	// summary holds entities, no user text
	irs_buf_append(b, body.data ? body.data : "", body.len);
	irs_buf_puts(b, "</details>\n");
	irs_buf_deinit(&body);
	return NULL;
}

static struct irs_error *
put_diffs(struct irs_buf *b, const struct run *r)
{
	struct irs_error *err;

	if (!r->nrows)
		return NULL;
	irs_buf_puts(b, "<section id=\"diffs\">\n<h2>IR changes by pass "
		     "<button type=\"button\" id=\"expand\">expand all</button>"
		     " <button type=\"button\" id=\"collapse\">collapse all"
		     "</button></h2>\n");
	for (size_t i = 0; i < r->nrows; i++) {
		err = put_pass_diff(b, r, &r->rows[i]);
		if (err)
			return err;
	}
	irs_buf_puts(b, "</section>\n");
	return NULL;
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
		html_str(b, file);
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

static void
put_walk_errors(struct irs_buf *b, json_t *crash)
{
	json_t *errs = json_object_get(crash, "walk_errors");
	if (!crash || json_is_null(crash)) {
		irs_buf_puts(b, "<p class=\"note\">No IR snapshot at the crash "
			     "(no IR root was known).</p>\n");
		return;
	}
	irs_buf_puts(b, "<h3>Crash snapshot</h3>\n<p>");
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
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		free(path);
		return NULL;
	}
	err = irs_file_read(path, &text, &len);
	free(path);
	if (err)
		return err;
	irs_buf_printf(b, "<details class=\"repro\"%s><summary>repro/",
		       is_log(name) ? "" : " open");
	html_str(b, name);
	irs_buf_printf(b, " <span class=\"muted\">%zu bytes</span></summary>\n",
		       len);
	html_pre(b, "ir", text, len);
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
	struct irs_error *err = NULL;
	char *dir = run_path(r, "repro");
	if (!dir)
		return &irs_enomem;
	DIR *d = opendir(dir);
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
	if (json_is_object(sig)) {
		irs_buf_puts(b, "<span class=\"sig\">");
		html_json(b, json_object_get(sig, "name"));
		irs_buf_puts(b, "</span> (signal ");
		html_json(b, json_object_get(sig, "number"));
		irs_buf_puts(b, ")");
	} else {
		irs_buf_puts(b, "<span class=\"sig\">");
		html_str(b, kind ? kind : "failure");
		irs_buf_puts(b, "</span>");
	}
	if (json_is_object(pass)) {
		irs_buf_puts(b, " in pass <a class=\"pass\" href=\"#pass-");
		html_json(b, json_object_get(pass, "seq"));
		irs_buf_puts(b, "\">");
		html_json(b, json_object_get(pass, "name"));
		irs_buf_puts(b, "</a> (#");
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
		html_str(b, bt_err);
		irs_buf_puts(b, "</p>\n");
	}
	put_walk_errors(b, json_object_get(f, "crash_snapshot"));
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
	struct irs_error *err = put_repro(b, r);
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
	"button{font:inherit;font-size:12px;margin-left:8px;padding:1px 8px;"
	"border:1px solid var(--line);border-radius:4px;background:var(--soft);"
	"cursor:pointer}\n"
	"footer{margin-top:40px;color:var(--muted);font-size:12px}\n";

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

static struct irs_error *
put_page(struct irs_buf *b, const struct run *r)
{
	struct irs_error *err;

	irs_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		     "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
		     "content=\"width=device-width\">\n<title>irsnap run ");
	html_json(b, json_object_get(r->manifest, "run_id"));
	irs_buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		       page_css);
	put_header(b, r);
	err = put_failure(b, r);
	if (err)
		return err;
	put_timeline(b, r);
	err = put_diffs(b, r);
	if (err)
		return err;
	irs_buf_printf(b, "<footer>irsnap %s report</footer>\n<script>\n%s"
		       "</script>\n</body>\n</html>\n", IRS_VERSION, page_js);
	return b->oom ? &irs_enomem : NULL;
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
		err = put_page(&page, &r);
	if (!err)
		err = irs_file_write(html_path, page.data, page.len);
	run_unload(&r);
	irs_buf_deinit(&page);
	return err;
}
