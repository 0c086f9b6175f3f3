// irsnap show [--json] [RUN]: a run at a glance, read straight from its
// manifest and failure report. Tolerant of what it does not find: a run
// killed half-way is exactly the one a user wants to look at. --json says
// the same as one irsnap.show/1 document, for scripts.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"

// Frames of the failing backtrace shown; the rest are counted.
enum { SHOW_FRAMES = 8 };

// Where the output goes: the terminal's text, or (--json) members of one
// document, built as the text would be printed.
struct show {
	json_t *doc;		// --json: the document; NULL: text
	int pass_width;		// the pass column: its longest name, 20..60
};

/* {==== Reading ========================================================== */

// A string member, ready to print: what a run directory holds may carry
// control characters meant for the terminal; they are shown escaped.
static const char *
str(const json_t *obj, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? cli_shown(s) : dflt;
}

// A member for the JSON document as it is (jansson escapes on output),
// null when absent.
static json_t *
member(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return v ? json_incref(v) : json_null();
}

static struct irs_error *
load(const char *path, json_t **ret)
{
	json_error_t je;
	char *text;
	size_t len;

	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err)
		return err;
	json_t *doc = json_loadb(text, len, JSON_ALLOW_NUL, &je);
	free(text);
	if (!json_is_object(doc)) {
		err = doc ? irs_error_format(IRS_ERROR_FORMAT, "%s: not a JSON "
					     "object", path)
			  : irs_error_format(IRS_ERROR_FORMAT, "%s:%d:%d: %s",
					     path, je.line, je.column, je.text);
		json_decref(doc);
		return err;
	}
	*ret = doc;
	return NULL;
}

/* }==== The pass table =================================================== */

static const char *
snapshot_path(const json_t *ev)
{
	const json_t *snap = json_object_get(ev, "snapshot");
	const char *p = json_string_value(json_object_get(snap, "text"));
	return p ? p : json_string_value(json_object_get(snap, "json"));
}

static struct irs_error *
print_row(struct show *sh, const struct irs_manifest_pass *r,
	  const json_t *failure)
{
	const json_t *last = r->after ? r->after : r->before;
	long long seq = r->seq;
	const json_t *fpass = json_object_get(failure, "pass");
	bool failed_here = json_integer_value(json_object_get(fpass, "seq"))
			   == seq && seq > 0;
	const json_t *cpu = irs_manifest_pass_cpu(r->after, r->seq, failure);
	char cpu_ms[32], verdict[80];

	if (json_is_number(cpu))
		snprintf(cpu_ms, sizeof(cpu_ms), "%.1f",
			 json_number_value(cpu) * 1000);
	else
		strcpy(cpu_ms, "-");
	const char *changed = "running";
	if (r->after)
		changed = json_is_true(json_object_get(r->after, "changed"))
			  ? "yes" : "no";
	else if (failed_here)
		changed = "FAILED";
	struct irs_verdict v = {0};
	irs_manifest_verdict(r->before, &v);
	irs_manifest_verdict(r->after, &v);
	irs_verdict_text(&v, verdict, sizeof(verdict));
	if (sh->doc) {
		const char *before = snapshot_path(r->before);
		const char *after = snapshot_path(r->after);
		json_t *row = json_pack(
			"{s:I, s:o, s:o, s:o, s:o, s:o, s:s, s:s, s:I, s:o,"
			" s:o}",
			"seq", (json_int_t)seq,
			"pass", member(last, "pass"),
			"cpu_s", json_is_number(cpu) ? json_copy((json_t *)cpu)
						     : json_null(),
			"nodes", member(last, "nodes"),
			"text_lines", member(last, "text_lines"),
			"text_bytes", member(last, "text_bytes"),
			"ir", r->after ? (*changed == 'y' ? "changed"
					  : "unchanged")
			      : failed_here ? "failed" : "running",
			"verifier", verdict,
			"problems", (json_int_t)v.problems,
			"before", before ? json_string(before) : json_null(),
			"after", after ? json_string(after) : json_null());
		json_t *rows = json_object_get(sh->doc, "passes");
		return row && !json_array_append_new(rows, row) ? NULL
		       : &irs_enomem;
	}
	// Lines, not nodes: the size every compiler's print-after-all has,
	// where nodes count irsnap's graph, which a layout may fold into
	// one (LuaJIT's trace keeps its instructions inline).
	char lines[32];
	const json_t *tl = json_object_get(last, "text_lines");
	if (json_is_integer(tl))
		snprintf(lines, sizeof(lines), "%lld",
			 (long long)json_integer_value(tl));
	else
		strcpy(lines, "-");	// a run from before text_lines
	printf("%5lld  %-*s %9s %9s %11lld  %-8s %s\n", seq,
	       sh->pass_width, str(last, "pass", "?"), cpu_ms, lines,
	       (long long)json_integer_value(json_object_get(last,
							     "text_bytes")),
	       changed, verdict);
	return NULL;
}

// Before and after events paired by seq (seq n is the n-th pass begun),
// linear in the passes but for a sort.
static struct irs_error *
print_passes(struct show *sh, const json_t *events, const json_t *failure)
{
	struct irs_manifest_pass *rows;
	size_t nrows;
	double total = 0;

	struct irs_error *err = irs_manifest_passes(events, &rows, &nrows);
	if (err)
		return err;
	if (sh->doc && json_object_set_new(sh->doc, "passes", json_array()))
		err = &irs_enomem;
	// LLVM's pass names run to 40 characters and more: the column takes
	// the longest (to a bound, past which one row may stand out).
	sh->pass_width = 20;
	for (size_t i = 0; i < nrows; i++) {
		const json_t *last = rows[i].after ? rows[i].after
						   : rows[i].before;
		size_t w = strlen(str(last, "pass", "?"));
		if (w > (size_t)sh->pass_width)
			sh->pass_width = w < 60 ? (int)w : 60;
	}
	if (!sh->doc)
		printf("%5s  %-*s %9s %9s %11s  %-8s %s\n", "seq",
		       sh->pass_width, "pass", "cpu ms", "lines", "text bytes",
		       "changed", "verifier");
	for (size_t i = 0; !err && i < nrows; i++) {
		err = print_row(sh, &rows[i], failure);
		total += json_number_value(irs_manifest_pass_cpu(rows[i].after,
							 rows[i].seq, failure));
	}
	if (!err && sh->doc && json_object_set_new(sh->doc, "cpu_s",
						   json_real(total)))
		err = &irs_enomem;
	if (!err && !sh->doc)
		printf("%zu pass%s, %.1f ms CPU in passes\n", nrows,
		       nrows == 1 ? "" : "es", total * 1000);
	free(rows);
	return err;
}

// Snapshots lost to write errors (a full disk): the passes the table
// cannot show, or shows without their after.
static void
print_lost(struct show *sh, const json_t *m)
{
	const json_t *lost = json_object_get(m, "lost"), *l;
	size_t i, n = json_array_size(lost);
	if (sh->doc) {
		json_object_set_new(sh->doc, "lost", json_is_array(lost)
				    ? json_deep_copy(lost) : json_array());
		return;
	}
	if (!n && !json_is_true(json_object_get(m, "incomplete")))
		return;
	printf("\nincomplete: %zu snapshot%s lost to write errors, so the run "
	       "lacks %s:\n", n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
	json_array_foreach(lost, i, l) {
		if (i == SHOW_FRAMES) {
			printf("  ... %zu more\n", n - SHOW_FRAMES);
			break;
		}
		printf("  %5lld  %-20s %-6s %s\n", (long long)
		       json_integer_value(json_object_get(l, "seq")),
		       str(l, "pass", "?"), str(l, "phase", "?"),
		       str(l, "error", "?"));
	}
}

/* }==== The failure ====================================================== */

static void
print_frame(const json_t *f)
{
	const json_t *line = json_object_get(f, "line");
	printf("  #%-2lld %-18s %s", (long long)json_integer_value(
		       json_object_get(f, "index")), str(f, "pc", "?"),
	       str(f, "function", "??"));
	if (json_is_string(json_object_get(f, "file"))) {
		printf(" at %s", str(f, "file", ""));
		if (json_is_integer(line))
			printf(":%lld", (long long)json_integer_value(line));
	}
	putchar('\n');
}

static void
print_snapshot(const char *label, const json_t *snap)
{
	if (!json_is_object(snap))
		return;
	const char *path = str(snap, "text", str(snap, "json", NULL));
	const json_t *errors = json_object_get(snap, "walk_errors");
	printf("  %-8s %s", label, path ? path : "(not written)");
	if (json_array_size(errors))
		printf(" (%zu walk error%s: %s)", json_array_size(errors),
		       json_array_size(errors) == 1 ? "" : "s",
		       str(json_array_get(errors, 0), NULL, "?"));
	putchar('\n');
}

// The reduction already done in RUN/repro/: its result (reduced.EXT) and
// repro.sh, as paths relative to the run; *lines_ret the result's lines.
// False when there is none.
static bool
find_reduced(const char *dir, char **file_ret, bool *repro_ret,
	     long long *lines_ret)
{
	char *repro = NULL, *path = NULL, *text = NULL;
	struct stat st;
	size_t len;
	DIR *d = NULL;
	*file_ret = NULL;
	struct irs_error *err = irs_rundir_file(dir, "repro", &repro);
	if (!err && lstat(repro, &st) == 0 && S_ISDIR(st.st_mode))
		d = opendir(repro);
	irs_error_destroy(err);
	struct dirent *e;
	while (d && !*file_ret && (e = readdir(d)))
		if (!strncmp(e->d_name, "reduced", 7) &&
		    !strstr(e->d_name, ".tmp.") &&
		    asprintf(file_ret, "repro/%s", e->d_name) < 0)
			*file_ret = NULL;
	if (d)
		closedir(d);
	free(repro);
	if (!*file_ret)
		return false;
	err = irs_rundir_file(dir, *file_ret, &path);
	if (!err)
		err = irs_file_read(path, &text, &len);
	if (err) {		// a link or a FIFO named so: not irsnap's
		irs_error_destroy(err);
		free(path);
		free(*file_ret);
		*file_ret = NULL;
		return false;
	}
	*lines_ret = 0;
	for (size_t i = 0; i < len; i++)
		*lines_ret += text[i] == '\n';
	*lines_ret += len && text[len - 1] != '\n';
	free(text);
	free(path);
	char *sh = NULL;
	*repro_ret = !irs_rundir_file(dir, "repro/repro.sh", &sh) &&
		     lstat(sh, &st) == 0 && S_ISREG(st.st_mode);
	free(sh);
	return true;
}

// "SIGSEGV (signal 11)", "verifier toyc_verify found 75 problems" into
// @p b; the word before the pass's name is *prep_ret.
static void
failure_title(const json_t *f, char *b, size_t len, const char **prep_ret)
{
	const json_t *sig = json_object_get(f, "signal");
	const json_t *ver = json_object_get(f, "verifier");
	const char *kind = str(f, "kind", "?");
	bool verifier = !strcmp(kind, "verifier");
	*prep_ret = verifier ? "after" : "in";
	if (json_is_object(sig)) {
		snprintf(b, len, "%s (signal %lld)", str(sig, "name", "signal"),
			 (long long)json_integer_value(json_object_get(
				 sig, "number")));
	} else if (verifier && json_is_object(ver)) {
		long long n = json_integer_value(json_object_get(ver,
								 "problems"));
		snprintf(b, len, "verifier %s found %lld problem%s",
			 str(ver, "name", "?"), n, n == 1 ? "" : "s");
	} else if (verifier) {
		snprintf(b, len, "a verifier failed");
	} else {
		snprintf(b, len, "%s", kind);
	}
}

static struct irs_error *
failure_json(struct show *sh, const json_t *f, const char *dir)
{
	const json_t *sig = json_object_get(f, "signal");
	const json_t *pass = json_object_get(f, "pass");
	const json_t *crash = json_object_get(f, "crash_snapshot");
	const json_t *ver = json_object_get(f, "verifier");
	char *file;
	bool repro;
	long long lines;
	json_t *reduced = json_null();
	if (find_reduced(dir, &file, &repro, &lines)) {
		reduced = json_pack("{s:s, s:I, s:o}", "file", file,
				    "lines", (json_int_t)lines, "repro", repro
				    ? json_string("repro/repro.sh")
				    : json_null());
		free(file);
	}
	const json_t *bsnap = json_object_get(f, "before_snapshot");
	json_t *j = json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
		" s:o, s:o}",
		"kind", member(f, "kind"),
		"signal", member(sig, "name"),
		"signal_number", member(sig, "number"),
		"verifier", member(ver, "name"),
		"problems", member(ver, "problems"),
		"pass", member(pass, "name"),
		"seq", member(pass, "seq"),
		"message", member(f, "message"),
		"backtrace", member(f, "backtrace"),
		"before", member(bsnap, "text"),
		"after", member(crash, "text"),
		"walk_errors", json_is_array(json_object_get(crash,
			"walk_errors")) ? member(crash, "walk_errors")
			: json_array(),
		"reduce_command", member(f, "reduce_command"),
		"reduced", reduced);
	return j && !json_object_set_new(sh->doc, "failure", j) ? NULL
	       : &irs_enomem;
}

static struct irs_error *
print_failure(struct show *sh, const json_t *f, const char *dir)
{
	const json_t *pass = json_object_get(f, "pass");
	const json_t *bt = json_object_get(f, "backtrace");
	bool verifier = !strcmp(str(f, "kind", ""), "verifier");
	char title[256];
	size_t i;
	json_t *frame;

	if (sh->doc)
		return failure_json(sh, f, dir);
	const char *prep;
	failure_title(f, title, sizeof(title), &prep);
	printf("\nfailure: %s", title);
	if (json_is_object(pass)) {
		printf(" %s pass %s", prep, str(pass, "name", "?"));
		if (json_is_integer(json_object_get(pass, "seq")))
			printf(" (seq %lld)", (long long)json_integer_value(
				       json_object_get(pass, "seq")));
	}
	putchar('\n');
	// The verifier's problems (a signal's detail), a few lines of them.
	const char *msg = json_string_value(json_object_get(f, "message"));
	size_t shown = 0, nlines = 0;
	for (const char *p = msg; p && *p; ) {
		size_t n = strcspn(p, "\n");
		if (n && shown < (verifier ? 3 : 1)) {
			char *line = strndup(p, n);
			printf("  %s\n", line ? cli_shown(line) : "?");
			free(line);
			shown++;
		}
		nlines += n != 0;
		p += n + (p[n] == '\n');
	}
	if (nlines > shown && verifier)
		printf("  ... %zu more line%s (failure.json's message)\n",
		       nlines - shown, nlines - shown == 1 ? "" : "s");
	json_array_foreach(bt, i, frame) {
		if (i == SHOW_FRAMES) {
			printf("  ... %zu more frames\n",
			       json_array_size(bt) - SHOW_FRAMES);
			break;
		}
		print_frame(frame);
	}
	print_snapshot("before:", json_object_get(f, "before_snapshot"));
	// A verifier's snapshot is the IR it rejected, after the pass.
	print_snapshot(verifier ? "after:" : "crash:",
		       json_object_get(f, "crash_snapshot"));
	const char *cmd = str(f, "reduce_command", NULL);
	printf("  reduce:  %s\n", cmd ? cmd : verifier ? "(the verifier has "
	       "no offline rerun, or there is no before snapshot)"
	       : "(the layout gives no rerun template, or no before "
	       "snapshot)");
	char *file;
	bool repro;
	long long lines;
	if (find_reduced(dir, &file, &repro, &lines)) {
		printf("  reduced: %s (%lld line%s)%s\n", cli_shown(file),
		       lines, lines == 1 ? "" : "s", repro ? "; rerun it: "
		       "repro/repro.sh" : "");
		free(file);
	}
	return NULL;
}

/* }==== The command ====================================================== */

static struct irs_error *
print_header(struct show *sh, const json_t *m, const char *dir)
{
	const json_t *dbg = json_object_get(m, "debuggee");
	const json_t *lo = json_object_get(m, "layout");
	const json_t *pid = json_object_get(dbg, "pid");

	bool incomplete = json_is_true(json_object_get(m, "incomplete")) ||
			  json_array_size(json_object_get(m, "lost"));
	if (sh->doc) {
		json_t *j = json_pack(
			"{s:s, s:s, s:s, s:o, s:o, s:b, s:{s:o, s:o, s:o},"
			" s:o, s:{s:o, s:o}, s:o, s:o}",
			"schema", "irsnap.show/1", "kind", "run", "dir", dir,
			"run_id", member(m, "run_id"),
			"status", member(m, "status"),
			"incomplete", incomplete,
			"debuggee", "exe", member(dbg, "exe"),
			"args", member(dbg, "args"), "pid", member(dbg, "pid"),
			"debugger", member(m, "debugger"),
			"layout", "name", member(lo, "name"),
			"path", member(lo, "path"),
			"created", member(m, "created"),
			"updated", member(m, "updated"));
		if (!j || json_object_update(sh->doc, j)) {
			json_decref(j);
			return &irs_enomem;
		}
		json_decref(j);
		return NULL;
	}
	printf("run %s  %s%s  %s\n", str(m, "run_id", "?"),
	       str(m, "status", "?"), incomplete ? ", INCOMPLETE" : "",
	       cli_shown(dir));
	printf("debuggee  %s%s%s", str(dbg, "exe", "?"),
	       json_is_string(json_object_get(dbg, "args")) ? " " : "",
	       str(dbg, "args", ""));
	if (json_is_integer(pid))
		printf("  (pid %lld)", (long long)json_integer_value(pid));
	printf("\ndebugger  %s   layout %s (%s)\n", str(m, "debugger", "?"),
	       str(lo, "name", "?"), str(lo, "path", "?"));
	printf("created   %s   updated %s\n\n", str(m, "created", "?"),
	       str(m, "updated", "?"));
	return NULL;
}

// irsnap show REPLAY: what a replay (or a merged hunt) ran and found,
// from its replay.json: attempts, and one line per failure signature.
static struct irs_error *
show_replay(struct show *sh, const char *dir)
{
	json_t *r;
	char *path;
	struct irs_error *err = irs_rundir_file(dir, "replay.json", &path);
	if (!err)
		err = load(path, &r);
	free(path);
	if (err)
		return err;
	const json_t *attempts = json_object_get(r, "attempts");
	const json_t *groups = json_object_get(r, "groups");
	size_t i;
	json_t *g;
	if (sh->doc) {
		json_t *gs = json_array();
		json_array_foreach(groups, i, g)
			json_array_append_new(gs, json_pack(
				"{s:o, s:o, s:o, s:o, s:o}",
				"signature", member(g, "signature"),
				"count", member(g, "count"),
				"first_attempt", member(g, "first_attempt"),
				"run", member(g, "run"),
				"reduce", member(json_object_get(g, "reduce"),
						 "status")));
		// A merged hunt counts its attempts; a replay lists them.
		json_int_t na = (json_int_t)json_array_size(attempts);
		json_t *n = json_is_array(attempts) ? json_integer(na)
			    : member(r, "attempts");
		json_t *j = json_pack(
			"{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			" s:o}",
			"schema", "irsnap.show/1", "kind", "replay", "dir", dir,
			"replay_id", member(r, "replay_id"),
			"status", member(r, "status"),
			"debugger", member(r, "debugger"),
			"layout", member(r, "layout"),
			"attempts", n, "failures", member(r, "failures"),
			"timeouts", member(r, "timeouts"), "groups", gs);
		err = !j || json_object_update(sh->doc, j) ? &irs_enomem
							   : NULL;
		json_decref(j);
		json_decref(r);
		return err;
	}
	printf("replay %s  %s  %s\n", str(r, "replay_id", "?"),
	       str(r, "status", "?"), cli_shown(dir));
	printf("debugger  %s   layout  %s\n", str(r, "debugger", "?"),
	       str(r, "layout", "?"));
	printf("attempts  %zu, %lld failed, %lld timed out, %zu "
	       "signature%s\n", json_array_size(attempts),
	       (long long)json_integer_value(json_object_get(r, "failures")),
	       (long long)json_integer_value(json_object_get(r, "timeouts")),
	       json_array_size(groups), json_array_size(groups) == 1 ? ""
	       : "s");
	if (json_array_size(groups))
		printf("\n%5s  %-7s  %s\n", "count", "first", "signature / "
		       "run directory / reduction");
	json_array_foreach(groups, i, g) {
		const json_t *red = json_object_get(g, "reduce");
		printf("%5lld  %-7lld  %s\n", (long long)json_integer_value(
			       json_object_get(g, "count")),
		       (long long)json_integer_value(json_object_get(
			       g, "first_attempt")), str(g, "signature", "?"));
		printf("%16s%s\n", "", str(g, "run", "-"));
		if (json_is_object(red))
			printf("%16sreduce: %s\n", "", str(red, "status", "?"));
	}
	json_decref(r);
	return NULL;
}

static struct irs_error *
show_run(struct show *sh, const char *dir)
{
	struct irs_error *err;
	json_t *man = NULL, *failure = NULL;
	char *fpath = NULL;
	struct irs_event_log_info info;

	// No document through a link: a run is what is in its folder.
	err = irs_run_load(dir, &man, &info);
	// failure.json may exist before the manifest names it (the debugger
	// died between the two writes); show it either way.
	struct stat st;
	struct irs_error *ferr = NULL;
	if (!err && !(fpath = irs_path_join(dir, "failure.json")))
		err = &irs_enomem;
	if (!err && (json_is_string(json_object_get(man, "failure")) ||
		     lstat(fpath, &st) == 0)) {
		free(fpath);
		fpath = NULL;
		ferr = irs_rundir_file(dir, "failure.json", &fpath);
		if (!ferr)
			ferr = load(fpath, &failure);
	}
	if (!err)
		err = print_header(sh, man, dir);
	if (!err) {
		// A torn or bad line of events.jsonl: said, never fatal.
		char *note = irs_event_log_describe(&info);
		if (note && *note && sh->doc)
			json_object_set_new(sh->doc, "events_note",
					    json_string(note));
		else if (note && *note)
			printf("note: %s\n\n", note);
		free(note);
	}
	if (!err)
		err = print_passes(sh, json_object_get(man, "events"),
				   failure);
	if (!err)
		print_lost(sh, man);
	if (!err && failure)
		err = print_failure(sh, failure, dir);
	else if (!err && sh->doc)
		json_object_set_new(sh->doc, "failure", json_null());
	if (!err && ferr && sh->doc)
		json_object_set_new(sh->doc, "failure_error",
				    json_string(irs_error_get_message(ferr)));
	else if (!err && ferr)
		printf("\nfailure: unreadable report: %s\n",
		       cli_shown(irs_error_get_message(ferr)));
	irs_error_destroy(ferr);
	json_decref(man);
	json_decref(failure);
	free(fpath);
	return err;
}

static const char show_help[] =
	"usage: irsnap show [--json] [RUN|REPLAY]\n"
	"A run at a glance: its passes (seq, CPU time, lines and bytes of IR "
	"text, "
	"whether the\nIR changed, the verifiers' verdict), the failure and "
	"its reduce command, and\nthe reduction already made in RUN/repro/. "
	"RUN is a run directory or the\nfolder holding `latest` (default: "
	"$IRSNAP_DIR, else ./irsnap-out); REPLAY a\ndirectory irsnap replay "
	"or irsnap merge wrote (its replay.json).\n"
	"  --json   one irsnap.show/1 document on stdout instead (docs/"
	"formats.md)\n"
	"Example: irsnap show irsnap-out/latest\n";

int
cmd_show(int argc, char **argv)
{
	struct show sh = {0};
	const char *arg = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(show_help, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			if (!sh.doc && !(sh.doc = json_object()))
				return cli_fail(&irs_enomem);
		} else if (argv[i][0] == '-' || arg) {
			json_decref(sh.doc);
			return cli_usage_error("show", argv[i][0] == '-'
				? "unknown option '%s'" : "one run at a time "
				"('%s' is extra)", argv[i],
				"\nusage: irsnap show [--json] [RUN|REPLAY]\n");
		} else {
			arg = argv[i];
		}
	}
	char *dir = NULL;
	bool replay = false;
	struct irs_error *err = cli_resolve(arg ? arg : irs_rundir_root(NULL),
					    &dir, &replay);
	if (!err)
		err = replay ? show_replay(&sh, dir) : show_run(&sh, dir);
	if (!err && sh.doc) {
		char *text = json_dumps(sh.doc, JSON_INDENT(2) |
					JSON_PRESERVE_ORDER);
		if (text)
			puts(text);
		else
			err = &irs_enomem;
		free(text);
	}
	json_decref(sh.doc);
	free(dir);
	return err ? cli_fail(err) : EXIT_OK;
}
