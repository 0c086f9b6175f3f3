// irsnap show RUN: a run at a glance, read straight from its manifest and
// failure report. Tolerant of what it does not find: a run killed half-way
// is exactly the one a user wants to look at.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"

// Frames of the failing backtrace shown; the rest are counted.
enum { SHOW_FRAMES = 8 };

/* {==== Reading ========================================================== */

// A string member, ready to print: what a run directory holds may carry
// control characters meant for the terminal; they are shown escaped.
static const char *
str(const json_t *obj, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? cli_shown(s) : dflt;
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

static void
print_row(const struct irs_manifest_pass *r, const json_t *failure)
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
	printf("%5lld  %-20s %9s %9lld %11lld  %-8s %s\n", seq,
	       str(last, "pass", "?"), cpu_ms,
	       (long long)json_integer_value(json_object_get(last, "nodes")),
	       (long long)json_integer_value(json_object_get(last,
							     "text_bytes")),
	       changed, verdict);
}

// Before and after events paired by seq (seq n is the n-th pass begun),
// linear in the passes but for a sort.
static struct irs_error *
print_passes(const json_t *events, const json_t *failure)
{
	struct irs_manifest_pass *rows;
	size_t nrows;
	double total = 0;

	struct irs_error *err = irs_manifest_passes(events, &rows, &nrows);
	if (err)
		return err;
	printf("%5s  %-20s %9s %9s %11s  %-8s %s\n", "seq", "pass", "cpu ms",
	       "nodes", "text bytes", "changed", "verifier");
	for (size_t i = 0; i < nrows; i++) {
		print_row(&rows[i], failure);
		total += json_number_value(irs_manifest_pass_cpu(rows[i].after,
							 rows[i].seq, failure));
	}
	printf("%zu pass%s, %.1f ms CPU in passes\n", nrows,
	       nrows == 1 ? "" : "es", total * 1000);
	free(rows);
	return NULL;
}

// Snapshots lost to write errors (a full disk): the passes the table
// cannot show, or shows without their after.
static void
print_lost(const json_t *m)
{
	const json_t *lost = json_object_get(m, "lost"), *l;
	size_t i, n = json_array_size(lost);
	if (!n && !json_is_true(json_object_get(m, "incomplete")))
		return;
	printf("\nincomplete: %zu snapshot%s lost to write errors, so the run "
	       "lacks %s:\n", n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
	json_array_foreach(lost, i, l) {
		if (i == SHOW_FRAMES) {
			printf("  ... %zu more\n", n - SHOW_FRAMES);
			break;
		}
		printf("  %5lld  %-20s %-6s %s\n", (long long)json_integer_value(
			       json_object_get(l, "seq")), str(l, "pass", "?"),
		       str(l, "phase", "?"), str(l, "error", "?"));
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
		       json_string_value(json_array_get(errors, 0)) ?
		       json_string_value(json_array_get(errors, 0)) : "?");
	putchar('\n');
}

static void
print_failure(const json_t *f)
{
	const json_t *sig = json_object_get(f, "signal");
	const json_t *pass = json_object_get(f, "pass");
	const json_t *bt = json_object_get(f, "backtrace");
	size_t i;
	json_t *frame;

	printf("\nfailure: ");
	if (json_is_object(sig)) {
		const json_t *num = json_object_get(sig, "number");
		printf("%s (signal %lld)", str(sig, "name", "signal"),
		       (long long)json_integer_value(num));
	}
	else
		printf("%s", str(f, "kind", "?"));
	if (json_is_object(pass)) {
		printf(" in pass %s", str(pass, "name", "?"));
		if (json_is_integer(json_object_get(pass, "seq")))
			printf(" (seq %lld)", (long long)json_integer_value(
				       json_object_get(pass, "seq")));
	}
	putchar('\n');
	const char *msg = json_string_value(json_object_get(f, "message"));
	if (msg) {
		char *line = strndup(msg, strcspn(msg, "\n"));
		printf("  %s\n", line ? cli_shown(line) : "?");
		free(line);
	}
	json_array_foreach(bt, i, frame) {
		if (i == SHOW_FRAMES) {
			printf("  ... %zu more frames\n",
			       json_array_size(bt) - SHOW_FRAMES);
			break;
		}
		print_frame(frame);
	}
	print_snapshot("before:", json_object_get(f, "before_snapshot"));
	print_snapshot("crash:", json_object_get(f, "crash_snapshot"));
	const char *cmd = str(f, "reduce_command", NULL);
	printf("  reduce:  %s\n", cmd ? cmd : "(the layout gives no rerun "
	       "template, or no before snapshot)");
}

/* }==== The command ====================================================== */

static void
print_header(const json_t *m, const char *dir)
{
	const json_t *dbg = json_object_get(m, "debuggee");
	const json_t *lo = json_object_get(m, "layout");
	const json_t *pid = json_object_get(dbg, "pid");

	bool incomplete = json_is_true(json_object_get(m, "incomplete")) ||
			  json_array_size(json_object_get(m, "lost"));
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
}

// irsnap show REPLAY: what a replay (or a merged hunt) ran and found,
// from its replay.json: attempts, and one line per failure signature.
static int
show_replay(const char *dir, const char *path)
{
	json_t *r;
	struct irs_error *err = load(path, &r);
	if (err)
		return cli_fail(err);
	const json_t *attempts = json_object_get(r, "attempts");
	const json_t *groups = json_object_get(r, "groups");
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
	size_t i;
	json_t *g;
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
	return EXIT_OK;
}

int
cmd_show(int argc, char **argv)
{
	struct irs_error *err;
	char *dir = NULL;
	json_t *man = NULL, *failure = NULL;
	int rc;

	if (cli_one_operand(argc, argv, "usage: irsnap show RUN|REPLAY\n"
			    "RUN is a run directory or the folder holding "
			    "`latest`;\nREPLAY a directory irsnap replay or "
			    "irsnap merge wrote (its replay.json).\n"
			    "Example: irsnap show irsnap-out\n",
			    "usage: irsnap show RUN", &rc))
		return rc;
	// A replay directory (irsnap replay, irsnap merge) has replay.json.
	char *rj = irs_path_join(argv[1], "replay.json");
	struct stat rst;
	if (rj && lstat(rj, &rst) == 0 && S_ISREG(rst.st_mode)) {
		rc = show_replay(argv[1], rj);
		free(rj);
		return rc;
	}
	free(rj);
	err = cli_run_dir(argv[1], &dir);
	char *fpath = NULL;
	struct irs_event_log_info info;
	// No document through a link: a run is what is in its folder.
	if (!err)
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
	if (!err) {
		print_header(man, dir);
		char *note = irs_event_log_describe(&info);
		if (note && *note)
			printf("note: %s\n\n", note);
		free(note);
		err = print_passes(json_object_get(man, "events"), failure);
		print_lost(man);
		if (failure)
			print_failure(failure);
		if (ferr)
			printf("\nfailure: unreadable report: %s\n",
			       irs_error_get_message(ferr));
	}
	irs_error_destroy(ferr);
	json_decref(man);
	json_decref(failure);
	free(fpath);
	free(dir);
	return err ? cli_fail(err) : EXIT_OK;
}
