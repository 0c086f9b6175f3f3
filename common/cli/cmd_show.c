// irsnap show RUN: a run at a glance, read straight from its manifest and
// failure report. Tolerant of what it does not find: a run killed half-way
// is exactly the one a user wants to look at.
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"
#include "session.h"

// Frames of the failing backtrace shown; the rest are counted.
enum { SHOW_FRAMES = 8 };

/* {==== Reading ========================================================== */

static const char *
str(const json_t *obj, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : dflt;
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
		json_decref(doc);
		return irs_error_format(IRS_ERROR_FORMAT, "%s:%d:%d: %s", path,
					je.line, je.column,
					doc ? "not a JSON object" : je.text);
	}
	*ret = doc;
	return NULL;
}

// RUN is a run directory, or the folder above one that holds `latest`.
static struct irs_error *
find_run(const char *arg, char **dir_ret)
{
	struct stat st;
	char *man = irs_path_join(arg, "manifest.json");
	char *latest = irs_path_join(arg, "latest/manifest.json");
	char *dir = NULL;

	if (man && stat(man, &st) == 0)
		dir = strdup(arg);
	else if (latest && stat(latest, &st) == 0)
		dir = irs_path_join(arg, "latest");
	bool oom = !man || !latest;
	free(man);
	free(latest);
	if (dir) {
		*dir_ret = dir;
		return NULL;
	}
	if (oom)
		return &irs_enomem;
	return irs_error_format(IRS_ERROR_NOT_FOUND, "%s: not a run directory "
				"(no manifest.json, no latest/manifest.json)",
				arg);
}

/* }==== The pass table =================================================== */

// One pass invocation: its before and after events.
struct row {
	const json_t *before, *after;
};

static void
put_verifiers(const json_t *ev, uint64_t *problems, uint32_t *n)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(ev, "verifiers"), i, v) {
		*problems += (uint64_t)json_integer_value(
			json_object_get(v, "problems"));
		(*n)++;
	}
}

static void
print_row(const struct row *r, const json_t *failure)
{
	const json_t *last = r->after ? r->after : r->before;
	long long seq = json_integer_value(json_object_get(last, "seq"));
	const json_t *cpu = r->after ? json_object_get(r->after, "cpu_s")
				     : NULL;
	const json_t *fpass = json_object_get(failure, "pass");
	bool failed_here = json_integer_value(json_object_get(fpass, "seq"))
			   == seq && seq > 0;
	char cpu_ms[32], verdict[32];

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
	uint64_t problems = 0;
	uint32_t nverifiers = 0;
	put_verifiers(r->before, &problems, &nverifiers);
	if (r->after)
		put_verifiers(r->after, &problems, &nverifiers);
	if (!nverifiers)
		strcpy(verdict, "-");
	else if (!problems)
		strcpy(verdict, "ok");
	else
		snprintf(verdict, sizeof(verdict), "%llu problem%s",
			 (unsigned long long)problems,
			 problems == 1 ? "" : "s");
	printf("%5lld  %-20s %9s %9lld %11lld  %-8s %s\n", seq,
	       str(last, "pass", "?"), cpu_ms,
	       (long long)json_integer_value(json_object_get(last, "nodes")),
	       (long long)json_integer_value(json_object_get(last,
							     "text_bytes")),
	       changed, verdict);
}

// Pairs before and after events by seq, in the order passes began.
static void
print_passes(const json_t *events, const json_t *failure)
{
	size_t n = json_array_size(events), nrows = 0;
	struct row *rows = calloc(n ? n : 1, sizeof(*rows));
	double total = 0;

	if (!rows)
		return;
	for (size_t i = 0; i < n; i++) {
		const json_t *ev = json_array_get(events, i);
		const json_t *seq = json_object_get(ev, "seq");
		bool after = !strcmp(str(ev, "phase", ""), "after");
		size_t k = nrows;
		while (k-- > 0) {
			const json_t *b = rows[k].before;
			if (json_equal((json_t *)json_object_get(b, "seq"),
				       (json_t *)seq))
				break;
		}
		if (after && k != (size_t)-1) {
			rows[k].after = ev;
			total += json_number_value(json_object_get(ev,
								   "cpu_s"));
		} else if (!after) {
			rows[nrows++].before = ev;
		}
	}
	printf("%5s  %-20s %9s %9s %11s  %-8s %s\n", "seq", "pass", "cpu ms",
	       "nodes", "text bytes", "changed", "verifier");
	for (size_t i = 0; i < nrows; i++)
		print_row(&rows[i], failure);
	printf("%zu pass%s, %.1f ms CPU in passes\n", nrows,
	       nrows == 1 ? "" : "es", total * 1000);
	free(rows);
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
	const char *msg = str(f, "message", NULL);
	if (msg)
		printf("  %.*s\n", (int)strcspn(msg, "\n"), msg);
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

	printf("run %s  %s  %s\n", str(m, "run_id", "?"), str(m, "status", "?"),
	       dir);
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

int
cmd_show(int argc, char **argv)
{
	struct irs_error *err;
	char *dir = NULL;
	json_t *man = NULL, *failure = NULL;

	if (argc == 2 &&
	    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: irsnap show RUN\n"
		       "RUN is a run directory or the folder holding "
		       "`latest`.\n"
		       "Example: irsnap show irsnap-out\n");
		return EXIT_OK;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: irsnap show RUN\n");
		return EXIT_USAGE;
	}
	err = find_run(argv[1], &dir);
	char *mpath = dir ? irs_path_join(dir, "manifest.json") : NULL;
	char *fpath = dir ? irs_path_join(dir, "failure.json") : NULL;
	if (!err && (!mpath || !fpath))
		err = &irs_enomem;
	if (!err)
		err = load(mpath, &man);
	// failure.json may exist before the manifest names it (the debugger
	// died between the two writes); show it either way.
	struct stat st;
	struct irs_error *ferr = NULL;
	if (!err && (json_is_string(json_object_get(man, "failure")) ||
		     stat(fpath, &st) == 0))
		ferr = load(fpath, &failure);
	if (!err) {
		print_header(man, dir);
		print_passes(json_object_get(man, "events"), failure);
		if (failure)
			print_failure(failure);
		if (ferr)
			printf("\nfailure: unreadable report: %s\n",
			       irs_error_get_message(ferr));
	}
	irs_error_destroy(ferr);
	json_decref(man);
	json_decref(failure);
	free(mpath);
	free(fpath);
	free(dir);
	return err ? cli_fail(err) : EXIT_OK;
}
