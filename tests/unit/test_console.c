// Unit tests for the ir-* console (common/console*.c): argument splitting,
// option parsing, settings, help, completion and the one-line errors.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console/console.h"
#include "toyc.h"
#include "toyc_fake.h"
#include "unit_util.h"

/* {====================================================================
** A target that answers nothing but expressions from a small table
** ===================================================================== */

struct fixture {
	struct irs_target t;
	struct irs_console *c;
	char *out;
};

static struct irs_error *
eval_table(void *arg, const char *expr, uint64_t *ret)
{
	(void)arg;
	if (!strcmp(expr, "m")) {
		*ret = 0x1000;
		return NULL;
	}
	return irs_error_format(IRS_ERROR_TARGET,
				"No symbol \"%s\" in current context.", expr);
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->t.eval = eval_table;
	assert_null(irs_console_create(&f->t, &f->c));
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	irs_console_destroy(f->c);
	irs_free(f->out);
	free(f);
	return 0;
}

// Runs a command that must fail and returns its message (static copy).
static const char *
fails(struct fixture *f, const char *name, const char *args)
{
	static char msg[1024];
	char *out = NULL;
	struct irs_error *err = irs_console_command(f->c, name, args, &out);
	assert_non_null(err);
	assert_null(out);
	snprintf(msg, sizeof(msg), "%s", irs_error_get_message(err));
	irs_error_destroy(err);
	assert_null(strchr(msg, '\n'));		// errors are one line
	return msg;
}

// Runs a command that must succeed; its output stays in f->out.
static const char *
runs(struct fixture *f, const char *name, const char *args)
{
	irs_free(f->out);
	f->out = NULL;
	struct irs_error *err = irs_console_command(f->c, name, args, &f->out);
	if (err)
		fail_msg("%s %s: %s", name, args, irs_error_get_message(err));
	assert_non_null(f->out);
	return f->out;
}

/* }====================================================================
** Argument splitting
** ===================================================================== */

// Blanks separate words; quotes and backslashes group them like a shell.
static void
test_split_quotes_and_escapes(void **state)
{
	(void)state;
	struct console_args a;
	assert_null(console_args_split("t",
		"  -o 'a b'  \"c \\\"d\\\"\" e\\ f '' -- x\t", &a));
	assert_int_equal(a.nwords, 7);
	assert_string_equal(a.words[0].text, "-o");
	assert_false(a.words[0].quoted);
	assert_string_equal(a.words[1].text, "a b");
	assert_true(a.words[1].quoted);
	assert_string_equal(a.words[2].text, "c \"d\"");
	assert_string_equal(a.words[3].text, "e f");
	assert_string_equal(a.words[4].text, "");
	assert_true(a.words[4].quoted);
	assert_string_equal(a.words[5].text, "--");
	assert_string_equal(a.words[6].text, "x");
	console_args_deinit(&a);
	assert_null(console_args_split("t", "", &a));
	assert_int_equal(a.nwords, 0);
	console_args_deinit(&a);
}

// Each word remembers where it lay, so an expression can be taken as typed.
static void
test_split_keeps_positions(void **state)
{
	(void)state;
	struct console_args a;
	assert_null(console_args_split("t", "-f json (Module *) 0x10", &a));
	assert_int_equal(a.nwords, 5);
	assert_int_equal(a.words[2].start, 8);
	assert_int_equal(a.words[4].end, strlen(a.raw));
	console_args_deinit(&a);
}

// An unterminated quote is an error naming the command and the column.
static void
test_split_unterminated_quote(void **state)
{
	(void)state;
	struct console_args a;
	struct irs_error *err = console_args_split("ir-dump", "m 'abc", &a);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_USAGE);
	assert_string_equal(err->message,
			    "ir-dump: unterminated ' quote at column 3");
	irs_error_destroy(err);
}

/* }====================================================================
** Options
** ===================================================================== */

static const struct console_option opts[] = {
	{"--output", "-o", true, 1},
	{"--verify", NULL, false, 2},
};

// Options before the first positional word; "--x=V" and "-o V" both work.
static void
test_opts_stop_at_positional(void **state)
{
	(void)state;
	struct console_args a;
	struct console_opts o = {"t", opts, 2, false, 0};
	int id;
	const char *v;

	assert_null(console_args_split("t", "-o f --output=g --verify m -o",
				       &a));
	assert_null(console_opts_next(&o, &a, &id, &v, NULL, NULL));
	assert_int_equal(id, 1);
	assert_string_equal(v, "f");
	assert_null(console_opts_next(&o, &a, &id, &v, NULL, NULL));
	assert_int_equal(id, 1);
	assert_string_equal(v, "g");
	assert_null(console_opts_next(&o, &a, &id, &v, NULL, NULL));
	assert_int_equal(id, 2);
	assert_null(console_opts_next(&o, &a, &id, &v, NULL, NULL));
	assert_int_equal(id, -1);
	assert_int_equal(o.next, 4);	// "m": the rest is positional
	console_args_deinit(&a);
}

// With anywhere, options and positional words mix; "--" ends options;
// negative numbers are not options.
static void
test_opts_anywhere(void **state)
{
	(void)state;
	struct console_args a;
	struct console_opts o = {"t", opts, 2, true, 0};
	size_t pos[8], npos = 0;
	int id;
	const char *v;

	assert_null(console_args_split("t", "on x --verify -3 -- --verify",
				       &a));
	int seen_verify = 0;
	do {
		assert_null(console_opts_next(&o, &a, &id, &v, pos, &npos));
		seen_verify += id == 2;
	} while (id >= 0);
	assert_int_equal(seen_verify, 1);
	assert_int_equal(npos, 4);
	assert_string_equal(a.words[pos[0]].text, "on");
	assert_string_equal(a.words[pos[2]].text, "-3");
	assert_string_equal(a.words[pos[3]].text, "--verify");
	console_args_deinit(&a);
}

// Unknown options list the known ones; a missing value says so.
static void
test_opts_errors(void **state)
{
	(void)state;
	struct console_args a;
	struct console_opts o = {"ir-x", opts, 2, false, 0};
	int id;
	const char *v;

	assert_null(console_args_split("t", "--bogus", &a));
	struct irs_error *err = console_opts_next(&o, &a, &id, &v, NULL, NULL);
	assert_non_null(err);
	assert_string_equal(err->message, "ir-x: unknown option '--bogus' "
			    "(options: --output, --verify)");
	irs_error_destroy(err);
	console_args_deinit(&a);

	o.next = 0;
	assert_null(console_args_split("t", "-o", &a));
	err = console_opts_next(&o, &a, &id, &v, NULL, NULL);
	assert_non_null(err);
	assert_string_equal(err->message, "ir-x: option '-o' needs a value");
	irs_error_destroy(err);
	console_args_deinit(&a);

	o.next = 0;
	assert_null(console_args_split("t", "--verify=1", &a));
	err = console_opts_next(&o, &a, &id, &v, NULL, NULL);
	assert_non_null(err);
	assert_string_equal(err->message,
			    "ir-x: option '--verify' takes no value");
	irs_error_destroy(err);
	console_args_deinit(&a);
}

// Counts take K/M/G suffixes and refuse junk, signs and overflow.
static void
test_parse_counts(void **state)
{
	(void)state;
	uint64_t v;
	assert_null(console_parse_u64("c", "n", "1000", &v));
	assert_int_equal(v, 1000);
	assert_null(console_parse_u64("c", "n", "64K", &v));
	assert_int_equal(v, 65536);
	assert_null(console_parse_u64("c", "n", "0x10", &v));
	assert_int_equal(v, 16);
	assert_null(console_parse_u64("c", "n", "4G", &v));
	assert_true(v == (4ULL << 30));
	const char *bad[] = {"", "-1", "12x", "K", "99999999999999999999",
			     "17179869184G", " 1"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct irs_error *err = console_parse_u64("ir-set", "max-nodes",
							  bad[i], &v);
		assert_non_null(err);
		assert_int_equal(err->code, IRS_ERROR_USAGE);
		assert_non_null(strstr(err->message, "ir-set: max-nodes"));
		irs_error_destroy(err);
	}
}

/* }====================================================================
** Commands without a layout
** ===================================================================== */

// Every command that needs a layout says how to load one.
static void
test_commands_need_layout(void **state)
{
	struct fixture *f = *state;
	assert_string_equal(fails(f, "ir-dump", "m"),
		"ir-dump: no layout loaded (ir-layout load FILE.lua)");
	assert_string_equal(fails(f, "ir-dump", "--boundary"),
		"ir-dump: no layout loaded (ir-layout load FILE.lua)");
	assert_string_equal(fails(f, "ir-trace", "on"),
		"ir-trace: no layout loaded (ir-layout load FILE.lua)");
	assert_string_equal(fails(f, "ir-break", "cse"),
		"ir-break: no layout loaded (ir-layout load FILE.lua)");
	assert_string_equal(fails(f, "ir-verify", ""),
		"ir-verify: no layout loaded (ir-layout load FILE.lua)");
	assert_string_equal(fails(f, "ir-report", ""),
		"ir-report: no layout loaded (ir-layout load FILE.lua)");
	assert_string_equal(fails(f, "ir-layout", "show"),
		"ir-layout: no layout loaded (ir-layout load FILE.lua)");
	assert_int_equal(irs_console_nbreaks(f->c), 0);
}

// Usage errors are checked before anything is looked up.
static void
test_usage_errors(void **state)
{
	struct fixture *f = *state;
	assert_string_equal(fails(f, "ir-dump", "-f xml m"),
		"ir-dump: -f takes text, json or both, not 'xml'");
	assert_string_equal(fails(f, "ir-dump", "--max-nodes lots m"),
		"ir-dump: --max-nodes must be a count (like 1000, 64K, 4G), "
		"not 'lots'");
	assert_string_equal(fails(f, "ir-dump", "--frobnicate m"),
		"ir-dump: unknown option '--frobnicate' (options: --format, "
		"--output, --max-nodes, --max-bytes, --max-depth, "
		"--boundary)");
	assert_string_equal(fails(f, "ir-layout", "load"),
		"ir-layout: usage: ir-layout load FILE.lua");
	assert_string_equal(fails(f, "ir-layout", "frob"),
		"ir-layout: expected 'load FILE.lua' or 'show', not 'frob'");
	assert_non_null(strstr(fails(f, "ir-trace", "maybe"),
			       "ir-trace: usage: ir-trace on"));
	assert_string_equal(fails(f, "ir-report", "--signal SIGFOO"),
		"ir-report: unknown signal 'SIGFOO' (like SIGSEGV or 11)");
	assert_string_equal(fails(f, "ir-status", "x"),
		"ir-status: usage: ir-status [--check]");
	assert_string_equal(fails(f, "ir-frob", ""),
		"irsnap: unknown command 'ir-frob'");
	assert_string_equal(fails(f, "ir-dump", "'m"),
		"ir-dump: unterminated ' quote at column 1");
}

// A layout that cannot be read is one line naming the file, and the
// console keeps working.
static void
test_layout_load_missing_file(void **state)
{
	struct fixture *f = *state;
	const char *msg = fails(f, "ir-layout", "load /nonexistent/x.lua");
	assert_non_null(strstr(msg, "/nonexistent/x.lua"));
	assert_string_equal(fails(f, "ir-dump", "m"),
		"ir-dump: no layout loaded (ir-layout load FILE.lua)");
}

// ir-break off and ir-trace off work without a layout and clear requests.
static void
test_off_without_layout(void **state)
{
	struct fixture *f = *state;
	assert_string_equal(runs(f, "ir-trace", "off"),
			    "irsnap: tracing off\n");
	assert_string_equal(runs(f, "ir-break", "off"),
			    "irsnap: no longer stopping at passes\n");
	assert_non_null(strstr(runs(f, "ir-status", ""), "trace: off\n"
					"break: off\n"));
}

/* }====================================================================
** Settings
** ===================================================================== */

// Defaults, changes, the K/M/G suffixes, and errors that leave the value.
static void
test_settings(void **state)
{
	struct fixture *f = *state;
	char *v;

	unsetenv("IRSNAP_DIR");
	assert_null(irs_console_get(f->c, "dir", &v));
	assert_string_equal(v, "./irsnap-out");
	irs_free(v);
	setenv("IRSNAP_DIR", "/tmp/from-env", 1);
	assert_null(irs_console_get(f->c, "dir", &v));
	assert_string_equal(v, "/tmp/from-env");
	irs_free(v);
	assert_null(irs_console_set(f->c, "dir", "/tmp/runs"));
	assert_null(irs_console_get(f->c, "dir", &v));
	assert_string_equal(v, "/tmp/runs");
	irs_free(v);
	unsetenv("IRSNAP_DIR");

	assert_null(irs_console_get(f->c, "max-nodes", &v));
	assert_string_equal(v, "50000000");
	irs_free(v);
	assert_null(irs_console_set(f->c, "max-nodes", "2M"));
	assert_null(irs_console_get(f->c, "max-nodes", &v));
	assert_string_equal(v, "2097152");
	irs_free(v);

	struct irs_error *err = irs_console_set(f->c, "max-depth", "deep");
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_USAGE);
	irs_error_destroy(err);
	assert_null(irs_console_get(f->c, "max-depth", &v));
	assert_string_equal(v, "10000");
	irs_free(v);

	assert_null(irs_console_get(f->c, "format", &v));
	assert_string_equal(v, "auto");	// the default
	irs_free(v);
	err = irs_console_set(f->c, "format", "xml");
	assert_non_null(err);
	assert_string_equal(err->message,
		"irsnap: format must be auto, text, json or both, not 'xml'");
	irs_error_destroy(err);
	assert_null(irs_console_set(f->c, "format", "json"));
	assert_null(irs_console_get(f->c, "format", &v));
	assert_string_equal(v, "json");
	irs_free(v);

	err = irs_console_set(f->c, "colour", "red");
	assert_non_null(err);
	assert_string_equal(err->message, "irsnap: unknown setting 'colour' "
		"(settings: dir, max-nodes, max-bytes, max-depth, max-text, "
		"format, call-timeout)");
	irs_error_destroy(err);
}

// ir-set is the same as irs_console_set; without a value it shows.
static void
test_ir_set_command(void **state)
{
	struct fixture *f = *state;
	runs(f, "ir-set", "max-bytes 1G");
	assert_string_equal(runs(f, "ir-set", "max-bytes"),
			    "max-bytes 1073741824\n");
	assert_non_null(strstr(runs(f, "ir-set", ""), "format auto\n"));
	runs(f, "ir-set", "dir '/tmp/with space'");
	assert_string_equal(runs(f, "ir-set", "dir"),
			    "dir /tmp/with space\n");
	assert_string_equal(fails(f, "ir-set", "a b c"),
		"ir-set: usage: ir-set KEY VALUE (quote a VALUE with blanks)");
	// The hidden settings a front end fills for the manifest.
	assert_null(irs_console_set(f->c, "debugger", "gdb 13.1"));
	char *v;
	assert_null(irs_console_get(f->c, "debugger", &v));
	assert_string_equal(v, "gdb 13.1");
	irs_free(v);
}

/* }====================================================================
** Help and completion
** ===================================================================== */

// Every command has help with an example; unknown names have none.
static void
test_help_for_every_command(void **state)
{
	(void)state;
	const char *const *names = irs_console_commands();
	size_t n = 0;
	for (; names[n]; n++) {
		const char *h = irs_console_help(names[n]);
		assert_non_null(h);
		assert_non_null(strstr(h, "Usage: "));
		assert_non_null(strstr(h, "Example: ir-"));
	}
	assert_int_equal(n, 8);
	assert_null(irs_console_help("ir-nothing"));
	assert_string_equal(irs_console_settings()[0], "dir");

	// In pieces, for LLDB: the first line, the Usage: lines, the rest.
	char *brief = irs_console_help_part("ir-dump", "brief");
	char *usage = irs_console_help_part("ir-dump", "usage");
	char *rest = irs_console_help_part("ir-dump", "long");
	assert_string_equal(brief, "Snapshot the IR rooted at an expression.");
	assert_string_equal(usage, "ir-dump [-f|--format text|json|both] "
			    "[-o|--output PATH]\n               [--max-nodes N] "
			    "[--max-bytes N] [--max-depth N]\n               "
			    "EXPR [TYPE]\n       ir-dump [options] --boundary");
	assert_true(strncmp(rest, "EXPR is any debuggee expression", 31) == 0);
	assert_non_null(strstr(rest, "\nExample: ir-dump -o /tmp/m.ir -f both "
			       "m Module\n"));
	irs_free(brief);
	irs_free(usage);
	irs_free(rest);
	assert_null(irs_console_help_part("ir-nothing", "brief"));
}

static void
test_complete_options_and_words(void **state)
{
	struct fixture *f = *state;
	char *s = irs_console_complete(f->c, "ir-dump", "--max");
	assert_string_equal(s, "--max-nodes\n--max-bytes\n--max-depth\n");
	irs_free(s);
	s = irs_console_complete(f->c, "ir-trace", "--");
	assert_string_equal(s, "--changed-only\n--verify\n--stop-on-verify\n"
			    "--exact\n--instance\n");
	irs_free(s);
	s = irs_console_complete(f->c, "ir-trace", "o");
	assert_string_equal(s, "on\noff\n");
	irs_free(s);
	s = irs_console_complete(f->c, "ir-layout", "");
	assert_string_equal(s, "load\nshow\n");
	irs_free(s);
	s = irs_console_complete(f->c, "ir-set", "max-n");
	assert_string_equal(s, "max-nodes\n");
	irs_free(s);
	s = irs_console_complete(f->c, "ir-status", "x");
	assert_string_equal(s, "");
	irs_free(s);
}

static void
check_completion(struct irs_console *c, const char *name, const char *args,
		 const char *want)
{
	char *s = irs_console_complete_args(c, name, args);
	assert_non_null(s);
	assert_string_equal(s, want);
	irs_free(s);
}

// After "ir-layout load" and "-o" the last word is a file name: the
// console offers the files, sorted, directories with a '/', hidden ones
// only after a '.', "~" as the home directory.
static void
test_complete_files(void **state)
{
	struct fixture *f = *state;
	char dir[256], path[1024], line[512];
	unit_tmpdir(dir, sizeof(dir), "complete");
	const char *files[] = {"toyc.lua", "b.lua", ".hidden"};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		unit_put(dir, files[i], "");
	snprintf(path, sizeof(path), "%s/tdir", dir);
	assert_int_equal(mkdir(path, 0700), 0);

	snprintf(line, sizeof(line), "load %s/", dir);
	snprintf(path, sizeof(path), "%s/b.lua\n%s/tdir/\n%s/toyc.lua\n",
		 dir, dir, dir);
	check_completion(f->c, "ir-layout", line, path);
	snprintf(line, sizeof(line), "load %s/t", dir);
	snprintf(path, sizeof(path), "%s/tdir/\n%s/toyc.lua\n", dir, dir);
	check_completion(f->c, "ir-layout", line, path);
	snprintf(line, sizeof(line), "-o %s/.h", dir);
	snprintf(path, sizeof(path), "%s/.hidden\n", dir);
	check_completion(f->c, "ir-dump", line, path);
	snprintf(line, sizeof(line), "m --output %s/nothing", dir);
	check_completion(f->c, "ir-dump", line, "");
	// a word before "load" is the subcommand, not a file
	check_completion(f->c, "ir-layout", "lo", "load\n");

	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	setenv("HOME", dir, 1);
	check_completion(f->c, "ir-layout", "load ~/b", "~/b.lua\n");
	check_completion(f->c, "ir-layout", "load ~", "~/\n");
	if (home)
		setenv("HOME", home, 1);
	else
		unsetenv("HOME");
	free(home);
	unit_rmtree(dir);
}

// Events with no layout keep the entry/return stack paired and say why.
static void
test_events_without_layout(void **state)
{
	struct fixture *f = *state;
	bool stop = true;
	char *out = NULL;
	struct irs_error *err = irs_console_boundary_enter(f->c, "pm_run_pass",
							   &stop, &out);
	assert_non_null(err);
	assert_false(stop);
	assert_string_equal(err->message,
		"irsnap: no layout loaded (ir-layout load FILE.lua)");
	irs_error_destroy(err);
	assert_non_null(strstr(runs(f, "ir-status", ""), "open pass: ?"));
	assert_null(irs_console_boundary_exit(f->c, &stop, &out));
	assert_false(stop);
	assert_string_equal(out, "");
	irs_free(out);
	assert_null(strstr(runs(f, "ir-status", ""), "open pass"));
	// A return with nothing open is ignored.
	assert_null(irs_console_boundary_exit(f->c, &stop, &out));
	irs_free(out);
	// A signal without tracing writes nothing, and is remembered.
	assert_null(irs_console_signal(f->c, 11, "SIGSEGV", &out));
	assert_string_equal(out, "");
	irs_free(out);
	assert_null(irs_console_exited(f->c, 0, &out));
	assert_string_equal(out, "");
	irs_free(out);
}


/* {====================================================================
** With the toyc layout, over toyc IR built in this process
** ===================================================================== */

// The fake debuggee: toyc_fake's types and memory, plus the expressions,
// frames and frame selection a debugger would answer.
struct world {
	struct fake_target ft;		// first: the target's arg points here
	struct irs_console *c;
	Module *m;
	const char *pass;		// what "pass->name" points at
	const char *frames[4];		// innermost first
	uint32_t selected;		// frame made current
	uint32_t nselects;
	int64_t verify_result;		// what toyc_verify(...) returns
	char *last_call;		// the last verifier expression
	char dir[64];			// run directories go here
	char *out;
};

static struct irs_error *
world_eval(void *arg, const char *expr, uint64_t *ret)
{
	struct world *w = arg;
	// Locals live in the boundary frame only, as in a real backtrace.
	bool in_boundary = w->frames[w->selected] &&
			   !strcmp(w->frames[w->selected], "pm_run_pass");
	if (!strcmp(expr, "m") && in_boundary) {
		*ret = (uint64_t)(uintptr_t)w->m;
		return NULL;
	}
	if (!strcmp(expr, "pass->name") && in_boundary) {
		*ret = (uint64_t)(uintptr_t)w->pass;
		return NULL;
	}
	if (!strncmp(expr, "toyc_verify(", 12)) {
		free(w->last_call);
		w->last_call = strdup(expr);
		*ret = (uint64_t)w->verify_result;
		return NULL;
	}
	return irs_error_format(IRS_ERROR_TARGET,
				"No symbol \"%s\" in current context.", expr);
}

static struct irs_error *
world_frame(void *arg, uint32_t index, struct irs_frame_info *ret)
{
	struct world *w = arg;
	if (index >= ARRAY_SIZE(w->frames) || !w->frames[index])
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no frame %u",
					index);
	memset(ret, 0, sizeof(*ret));
	ret->pc = 0x1000 + index;
	snprintf(ret->function, sizeof(ret->function), "%s", w->frames[index]);
	snprintf(ret->file, sizeof(ret->file), "pm.c");
	ret->line = 80;
	return NULL;
}

static struct irs_error *
world_select(void *arg, uint32_t index)
{
	struct world *w = arg;
	w->selected = index;
	w->nselects++;
	return NULL;
}

static const char *
wruns(struct world *w, const char *name, const char *args)
{
	return unit_console_run(w->c, name, args, &w->out);
}

static const char *
wfails(struct world *w, const char *name, const char *args)
{
	static char msg[1024];
	char *out = NULL;
	struct irs_error *err = irs_console_command(w->c, name, args, &out);
	assert_non_null(err);
	snprintf(msg, sizeof(msg), "%s", irs_error_get_message(err));
	irs_error_destroy(err);
	assert_null(strchr(msg, '\n'));
	return msg;
}

static int
setup_world(void **state)
{
	struct world *w = calloc(1, sizeof(*w));
	assert_non_null(w);
	fake_target_init(&w->ft);
	toyc_fake_register(&w->ft);
	w->ft.target.eval = world_eval;
	w->ft.target.frame = world_frame;
	w->ft.target.select_frame = world_select;
	w->ft.target.exe_path = "/usr/bin/toyc";
	w->m = unit_demo_module();
	w->pass = "cse";
	w->frames[0] = "pm_run_pass";
	w->frames[1] = "pm_run";
	w->frames[2] = "main";
	unit_tmpdir(w->dir, sizeof(w->dir), "console");
	w->c = unit_toyc_console(&w->ft.target, w->dir, &w->out);
	*state = w;
	return 0;
}

static int
teardown_world(void **state)
{
	struct world *w = *state;
	irs_console_destroy(w->c);
	module_destroy(w->m);
	fake_target_deinit(&w->ft);
	free(w->last_call);
	irs_free(w->out);
	unit_rmtree(w->dir);
	free(w);
	return 0;
}

static char *
file_text(const char *path)
{
	char *text;
	size_t len;
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err)
		fail_msg("%s", irs_error_get_message(err));
	return text;
}

static bool
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

// ir-layout load reports what it loaded; the break list follows requests.
static void
test_layout_and_break_list(void **state)
{
	struct world *w = *state;
	assert_non_null(strstr(wruns(w, "ir-layout", "show"),
			       "pm_run_pass"));
	assert_non_null(strstr(wruns(w, "ir-status", ""), "layout 'toyc' ("));
	assert_int_equal(irs_console_nbreaks(w->c), 0);
	assert_non_null(strstr(wruns(w, "ir-break", "--after '^cse$'"),
		"irsnap: will stop after passes matching '^cse$' "
		"(breakpoint at pm_run_pass, pm_run_function_pass)"));
	assert_int_equal(irs_console_nbreaks(w->c), 2);
	assert_string_equal(irs_console_break_function(w->c, 0),
			    "pm_run_pass");
	assert_string_equal(irs_console_break_function(w->c, 1),
			    "pm_run_function_pass");
	assert_null(irs_console_break_function(w->c, 2));
	// The reason is the C library's regerror() text.
	assert_true(strncmp(wfails(w, "ir-trace", "on '('"),
			    "ir-trace: bad regex '(': ", 25) == 0);
	assert_string_equal(wfails(w, "ir-break", "a b"),
		"ir-break: one PASS-REGEX at most, got 'a' and 'b' "
		"(quote a regex with blanks)");
	wruns(w, "ir-break", "off");
	assert_int_equal(irs_console_nbreaks(w->c), 0);
	wruns(w, "ir-trace", "on");
	assert_int_equal(irs_console_nbreaks(w->c), 2);
	wruns(w, "ir-trace", "off");
	assert_int_equal(irs_console_nbreaks(w->c), 0);
}

// -o PATH: text to PATH; -f json to PATH exactly; -f both adds PATH.json.
static void
test_dump_output_paths(void **state)
{
	struct world *w = *state;
	char args[300], path[200], json[220];

	snprintf(path, sizeof(path), "%s/d.ir", w->dir);
	snprintf(json, sizeof(json), "%s/d.ir.json", w->dir);
	snprintf(args, sizeof(args), "-f text -o %s m", path);
	const char *out = wruns(w, "ir-dump", args);
	assert_non_null(strstr(out, "ir-dump: wrote "));
	assert_non_null(strstr(out, " nodes, "));
	assert_non_null(strstr(out, " 0 walk errors, hash "));
	assert_true(exists(path));
	assert_false(exists(json));
	char *text = file_text(path);
	assert_true(strncmp(text, "module @", 8) == 0);

	// Without -o the same text is printed, then the summary.
	out = wruns(w, "ir-dump", "m");
	assert_true(strncmp(out, text, strlen(text)) == 0);
	assert_true(strncmp(out + strlen(text), "ir-dump: Module at 0x",
			    21) == 0);
	free(text);

	snprintf(args, sizeof(args), "-f both -o %s m Module", path);
	wruns(w, "ir-dump", args);
	assert_true(exists(json));
	snprintf(path, sizeof(path), "%s/only.json", w->dir);
	snprintf(args, sizeof(args), "-f json --output=%s m", path);
	wruns(w, "ir-dump", args);
	json_t *doc = json_load_file(path, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")),
			    "irsnap.snapshot/1");
	json_decref(doc);
	// Printed JSON without -o: the document, then the summary.
	out = wruns(w, "ir-dump", "-f json m");
	assert_true(strncmp(out, "{", 1) == 0);
	assert_non_null(strstr(out, "\"irsnap.snapshot/1\""));
}

// Expression and type errors are one line naming what and where.
static void
test_dump_errors(void **state)
{
	struct world *w = *state;
	assert_string_equal(wfails(w, "ir-dump", "nosuch"),
		"ir-dump: cannot evaluate 'nosuch': No symbol \"nosuch\" in "
		"current context.");
	const char *msg = wfails(w, "ir-dump", "m Modul");
	assert_true(strncmp(msg, "ir-dump: no type 'Modul' in layout 'toyc' "
			    "(types: ", 42) == 0);
	assert_non_null(strstr(msg, "Module"));
	assert_string_equal(wfails(w, "ir-dump", "--boundary m"),
		"ir-dump: --boundary takes no EXPR (got 'm')");
	assert_non_null(strstr(wfails(w, "ir-dump", ""),
			       "ir-dump: usage: ir-dump"));
	// The raw expression is passed as typed, quotes and all.
	msg = wfails(w, "ir-dump", "f(\"a b\", 1)");
	assert_string_equal(msg, "ir-dump: cannot evaluate 'f(\"a b\", 1)': "
			    "No symbol \"f(\"a b\", 1)\" in current context.");
	// And the console still works.
	assert_non_null(strstr(wruns(w, "ir-dump", "--max-nodes 3 m"),
			       "(truncated by a limit)"));
}

// --boundary walks the backtrace, selects the boundary frame to evaluate
// there, and selects frame 0 again.
static void
test_dump_boundary(void **state)
{
	struct world *w = *state;
	w->frames[0] = "pass_cse";
	w->frames[1] = "pm_run_pass";
	w->frames[2] = "main";
	const char *out = wruns(w, "ir-dump", "--boundary -f text");
	assert_non_null(strstr(out, "ir-dump: pass 'cse' at frame #1 "
			       "(pm_run_pass): Module at 0x"));
	assert_int_equal(w->selected, 0);
	assert_int_equal(w->nselects, 2);
	w->frames[1] = "main";
	w->frames[2] = NULL;
	assert_string_equal(wfails(w, "ir-dump", "--boundary"),
		"ir-dump: no pass boundary of layout 'toyc' in the backtrace "
		"(2 frames)");
}

// Tracing: the run directory appears at the first traced pass; events
// pair; the filter picks passes; --after and --before stop.
static void
test_trace_events(void **state)
{
	struct world *w = *state;
	bool stop;
	char *out;

	wruns(w, "ir-trace", "on '^(cse|dce)$'");
	wruns(w, "ir-break", "--both dce");
	w->pass = "constfold";
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_false(stop);
	assert_string_equal(out, "");		// not traced: no run yet
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	irs_free(out);
	assert_false(exists(strcat(strcpy((char[128]){0}, w->dir),
				   "/latest")));

	w->pass = "cse";
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_false(stop);
	assert_non_null(strstr(out, "irsnap: tracing into "));
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_false(stop);
	irs_free(out);

	w->pass = "dce";
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_true(stop);
	assert_non_null(strstr(out, "irsnap: stopped before pass 'dce'"));
	irs_free(out);
	assert_non_null(strstr(wruns(w, "ir-status", ""), "open pass: dce"));
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_true(stop);
	assert_non_null(strstr(out, "irsnap: stopped after pass 'dce'"));
	irs_free(out);
	// Stopped at the return, where locals are gone: commands without an
	// EXPR still mean dce's IR.
	w->frames[0] = "somewhere";
	assert_non_null(strstr(wruns(w, "ir-verify", ""),
			       "ir-verify: pass 'dce', Module at 0x"));
	assert_non_null(strstr(wruns(w, "ir-dump", "--boundary"),
			       "ir-dump: pass 'dce' (stopped boundary call): "
			       "Module at 0x"));
	w->frames[0] = "pm_run_pass";

	char path[200];
	struct irs_event_log_info info;
	json_t *man;
	snprintf(path, sizeof(path), "%s/latest", w->dir);
	assert_null(irs_run_load(path, &man, &info));
	json_t *events = json_object_get(man, "events");
	assert_int_equal(json_array_size(events), 4);
	const char *want[][2] = {{"cse", "before"}, {"cse", "after"},
				 {"dce", "before"}, {"dce", "after"}};
	for (size_t i = 0; i < 4; i++) {
		json_t *ev = json_array_get(events, i);
		assert_string_equal(json_string_value(
			json_object_get(ev, "pass")), want[i][0]);
		assert_string_equal(json_string_value(
			json_object_get(ev, "phase")), want[i][1]);
	}
	json_decref(man);

	assert_null(irs_console_exited(w->c, 0, &out));
	assert_non_null(strstr(out, "irsnap: debuggee exited (status 0): 2 "
			       "passes traced in "));
	irs_free(out);
	assert_null(irs_run_load(path, &man, &info));
	assert_string_equal(json_string_value(json_object_get(man, "status")),
			    "completed");
	json_decref(man);
	// Pass names seen complete ir-break and ir-trace regexes.
	char *cands = irs_console_complete(w->c, "ir-break", "c");
	assert_string_equal(cands, "constfold\ncse\n");
	irs_free(cands);
	cands = irs_console_complete(w->c, "ir-dump", "Fu");
	assert_string_equal(cands, "Function\n");
	irs_free(cands);
}

// The facts of what world_eval answers, with the types a debugger gives:
// "m->name->data" is a char *, "fnum" an int (instances, below).
static struct irs_error *
world_eval_value(void *arg, const char *expr, bool calls,
		 struct irs_value_facts *ret)
{
	struct world *w = arg;
	(void)calls;
	memset(ret, 0, sizeof(*ret));
	if (!strcmp(expr, "m->name->data")) {
		ret->bits = (uint64_t)(uintptr_t)w->m->name->data;
		ret->kind = IRS_TYPE_POINTER;
		snprintf(ret->type_name, sizeof(ret->type_name),
			 "const char *");
	} else if (!strcmp(expr, "fnum")) {
		ret->bits = 7;
		ret->kind = IRS_TYPE_INT;
		snprintf(ret->type_name, sizeof(ret->type_name), "int");
	} else {
		struct irs_error *err = world_eval(arg, expr, &ret->bits);
		if (err)
			return err;
		ret->kind = IRS_TYPE_POINTER;
		snprintf(ret->type_name, sizeof(ret->type_name), "void *");
	}
	ret->has_bits = true;
	return NULL;
}

// A boundary's instance (issue 27 item 6): a string (the function's name,
// here the module's) names the pass "cse@gen" in events, files and
// messages, and carries "instance" in the events; an integer "cse#7".
// --instance REGEX picks runs by it, --exact takes the pass regex as the
// whole name, the instance left out (pass regexes are searches, else).
static void
test_instance_labels_and_filters(void **state)
{
	struct world *w = *state;
	bool stop;
	char *out;
	char src[4096], path[300];
	snprintf(path, sizeof(path), "%s/inst.lua", w->dir);
	char *toyc;
	size_t len;
	assert_null(irs_file_read(toyc_fake_path("tests/fixtures/toyc/toyc.lua",
					       src, sizeof(src)), &toyc, &len));
	char *b = strstr(toyc, "boundary { at = \"pm_run_pass\", pass = "
			 "\"pass->name\", ir = \"m\" }");
	assert_non_null(b);
	*b = '\0';
	FILE *fp = fopen(path, "w");
	fprintf(fp, "%sboundary { at = \"pm_run_pass\", pass = \"pass->name\", "
		"ir = \"m\", instance = \"m->name->data\" }\n", toyc);
	fclose(fp);
	free(toyc);
	w->ft.target.eval_value = world_eval_value;
	char load[320];
	snprintf(load, sizeof(load), "load %s", path);
	wruns(w, "ir-layout", load);
	assert_non_null(strstr(wruns(w, "ir-trace", "on cs --exact "
				     "--instance '^ge'"),
			       "irsnap: tracing passes matching 'cs' exactly, "
			       "instances matching '^ge'"));
	w->pass = "cse";	// not "cs" exactly
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_string_equal(out, "");
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	irs_free(out);
	wruns(w, "ir-trace", "on cse --exact --instance '^ge'");
	wruns(w, "ir-break", "--after --instance nope");
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_false(stop);	// no instance "nope"
	irs_free(out);
	wruns(w, "ir-break", "--after --instance gen");
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_true(stop);
	assert_non_null(strstr(out, "irsnap: stopped after pass 'cse@gen'"));
	irs_free(out);
	snprintf(path, sizeof(path), "%s/latest", w->dir);
	json_t *man = NULL;
	struct irs_event_log_info info;
	assert_null(irs_run_load(path, &man, &info));
	json_t *events = json_object_get(man, "events");
	assert_int_equal(json_array_size(events), 4);
	json_t *ev = json_array_get(events, 3);
	assert_string_equal(json_string_value(json_object_get(ev, "pass")),
			    "cse@gen");
	assert_string_equal(json_string_value(json_object_get(ev, "instance")),
			    "gen");
	assert_non_null(strstr(json_string_value(json_object_get(
		json_object_get(ev, "snapshot"), "text")), "0002-cse@gen.after"));
	json_decref(man);
	// an integer instance
	snprintf(path, sizeof(path), "%s/inst.lua", w->dir);
	char *lua;
	assert_null(irs_file_read(path, &lua, &len));
	char *at = strstr(lua, "instance = \"m->name->data\" }");
	assert_non_null(at);
	fp = fopen(path, "w");
	fprintf(fp, "%.*sinstance = \"fnum\" }\n", (int)(at - lua), lua);
	fclose(fp);
	free(lua);
	wruns(w, "ir-layout", load);
	wruns(w, "ir-break", "--before '^cse$' --exact --instance '^7$'");
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_true(stop);
	assert_non_null(strstr(out, "irsnap: stopped before pass 'cse#7'"));
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	irs_free(out);
}

// A fatal signal while tracing writes failure.json for the open pass.
static void
test_signal_writes_failure(void **state)
{
	struct world *w = *state;
	bool stop;
	char *out, path[200];

	wruns(w, "ir-trace", "on");
	w->pass = "cse";
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	irs_free(out);
	assert_null(irs_console_signal(w->c, 11, "SIGSEGV", &out));
	assert_non_null(strstr(out, "irsnap: SIGSEGV in pass 'cse' (seq 1); "
			       "failure report: "));
	assert_non_null(strstr(out, "/failure.json\n"));
	irs_free(out);
	snprintf(path, sizeof(path), "%s/latest/failure.json", w->dir);
	json_t *doc = json_load_file(path, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(doc, "pass"), "name")), "cse");
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(doc, "signal"), "number")), 11);
	json_decref(doc);
}

// ir-report needs a signal: the last one reported, or --signal.
static void
test_report(void **state)
{
	struct world *w = *state;
	assert_string_equal(wfails(w, "ir-report", ""),
		"ir-report: no fatal signal at this stop (name one: "
		"ir-report --signal SIGSEGV)");
	const char *out = wruns(w, "ir-report", "--signal segv");
	assert_true(strncmp(out, "ir-report: SIGSEGV in pass 'cse': ",
			    34) == 0);
	char *o;
	assert_null(irs_console_signal(w->c, 6, "SIGABRT", &o));
	irs_free(o);
	out = wruns(w, "ir-report", "--message 'by hand'");
	assert_true(strncmp(out, "ir-report: SIGABRT in pass 'cse': ",
			    34) == 0);
}

// Call verifiers get the root as (T *)0xADDR, and need a live process.
static void
test_verify_call_and_lua(void **state)
{
	struct world *w = *state;
	char want[200];

	const char *out = wruns(w, "ir-verify", "");
	assert_non_null(strstr(out, "verifier operand-defs: ok\n"));
	// a verifier that did not run says so, and why: not "ok"
	assert_non_null(strstr(out, "verifier toyc_verify: could not run: it "
			       "calls into the debuggee: live process "
			       "only\n"));
	assert_non_null(strstr(out, ": no problem found, but a verifier could "
			       "not run\n"));
	assert_null(w->last_call);

	w->ft.target.pid = getpid();
	w->verify_result = 2;
	out = wruns(w, "ir-verify", "m");
	snprintf(want, sizeof(want), "toyc_verify((Module *)0x%llx, stderr)",
		 (unsigned long long)(uintptr_t)w->m);
	assert_string_equal(w->last_call, want);
	assert_non_null(strstr(out, "verifier toyc_verify: "));
	// toyc_verify returns its count of problems: the count is the count
	assert_non_null(strstr(out, "verifier toyc_verify: 2 problems ("));
	assert_non_null(strstr(out, " = 2, expected 0)\n"));
	assert_non_null(strstr(out, ": problems found\n"));
	w->verify_result = 0;
	out = wruns(w, "ir-verify", "m Module");
	assert_non_null(strstr(out, "verifier toyc_verify: ok\n"));
	assert_non_null(strstr(out, ": no problem found\n"));
	w->ft.target.pid = 0;
}

// The latest run's failure.json, checked to be of @p kind in @p pass.
static json_t *
latest_failure(const struct world *w, const char *kind, const char *pass)
{
	char path[200];
	snprintf(path, sizeof(path), "%s/latest/failure.json", w->dir);
	json_t *doc = json_load_file(path, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "kind")),
			    kind);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(doc, "pass"), "name")), pass);
	return doc;
}

// --stop-on-verify stops after the pass whose output fails a verifier and
// names it; failure.json is a verifier failure of that pass.
static void
test_stop_on_verify(void **state)
{
	struct world *w = *state;
	bool stop;
	char *out;

	w->ft.target.pid = getpid();
	wruns(w, "ir-trace", "on --stop-on-verify");
	w->pass = "cse";
	w->verify_result = 0;
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_false(stop);
	assert_string_equal(out, "");
	irs_free(out);
	w->pass = "simplifycfg";
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	irs_free(out);
	w->verify_result = 1;
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_true(stop);
	assert_non_null(strstr(out, "irsnap: pass 'simplifycfg' (seq 2) "
			       "broke the IR:\n"));
	assert_non_null(strstr(out, "irsnap: stopped after pass "
			       "'simplifycfg' (seq 2); failure report: "));
	irs_free(out);
	json_t *doc = latest_failure(w, "verifier", "simplifycfg");
	// the verifier that failed, not the one that passed
	json_t *ver = json_object_get(doc, "verifier");
	assert_string_equal(json_string_value(json_object_get(ver, "name")),
			    "toyc_verify");
	assert_int_equal(json_integer_value(json_object_get(ver, "problems")),
			 1);
	json_decref(doc);
	w->ft.target.pid = 0;
}

// --verify alone names the pass that broke the IR once, then says it is
// still broken; it writes the failure report of that pass without a stop,
// and a killed debuggee leaves the run "failed", never "completed".
static void
test_verify_names_breaker_once(void **state)
{
	struct world *w = *state;
	bool stop;
	char *out, path[200];
	const char *passes[] = {"cse", "simplifycfg", "strength"};
	int64_t results[] = {0, 3, 3};
	char *outs[3];

	w->ft.target.pid = getpid();
	wruns(w, "ir-trace", "on --verify");
	for (int i = 0; i < 3; i++) {
		w->pass = passes[i];
		w->verify_result = 0;
		assert_null(irs_console_boundary_enter(w->c, "pm_run_pass",
						       &stop, &out));
		irs_free(out);
		w->verify_result = results[i];
		assert_null(irs_console_boundary_exit(w->c, &stop, &outs[i]));
		assert_false(stop);
	}
	assert_string_equal(outs[0], "");
	assert_non_null(strstr(outs[1], "irsnap: pass 'simplifycfg' (seq 2) "
			       "broke the IR:\n  verifier "));
	assert_non_null(strstr(outs[1], "irsnap: a verifier failed after "
			       "pass 'simplifycfg' (seq 2); failure report: "));
	assert_string_equal(outs[2], "irsnap: the IR is still broken after "
			    "pass 'strength' (seq 3)\n");
	for (int i = 0; i < 3; i++)
		irs_free(outs[i]);
	assert_null(irs_console_exited(w->c, -1, &out));
	assert_non_null(strstr(out, "irsnap: debuggee killed: 3 passes "
			       "traced in "));
	irs_free(out);
	snprintf(path, sizeof(path), "%s/latest/manifest.json", w->dir);
	json_t *man = json_load_file(path, 0, NULL);
	assert_non_null(man);
	assert_string_equal(json_string_value(json_object_get(man, "status")),
			    "failed");
	json_decref(man);
	snprintf(path, sizeof(path), "%s/latest/failure.json", w->dir);
	json_t *doc = json_load_file(path, 0, NULL);
	assert_non_null(doc);	// the first break's, not the next pass's
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		doc, "pass"), "seq")), 2);
	json_decref(doc);
	w->ft.target.pid = 0;
}

// The first failure is the failure: a crash after a pass broke the IR
// (--verify) leaves failure.json, and ir-status --check, to the verifier's
// pass, and says the crash is its consequence.
static void
test_crash_after_verifier_failure(void **state)
{
	struct world *w = *state;
	bool stop, fatal;
	char *out;
	const char *passes[] = {"simplifycfg", "constfold"};

	w->ft.target.pid = getpid();
	wruns(w, "ir-trace", "on --verify");
	for (int i = 0; i < 2; i++) {
		w->pass = passes[i];
		w->verify_result = 0;
		assert_null(irs_console_boundary_enter(w->c, "pm_run_pass",
						       &stop, &out));
		irs_free(out);
		if (i == 1)
			break;	// constfold crashes
		w->verify_result = 3;
		assert_null(irs_console_boundary_exit(w->c, &stop, &out));
		irs_free(out);
	}
	assert_null(irs_console_stop(w->c, 11, "SIGSEGV", &fatal, &out));
	assert_true(fatal);
	assert_non_null(strstr(out, "irsnap: SIGSEGV in pass 'constfold' "
			       "(seq 2), after pass 'simplifycfg' (seq 1) "
			       "broke the IR (the crash is its consequence); "
			       "failure report: "));
	irs_free(out);
	json_t *doc = latest_failure(w, "verifier", "simplifycfg");
	char *reduce = json_dumps(json_object_get(doc, "reduce_command"),
				  JSON_ENCODE_ANY);
	assert_non_null(strstr(reduce, "simplifycfg"));
	free(reduce);
	json_decref(doc);
	const char *check = wfails(w, "ir-status", "--check");
	assert_non_null(strstr(check, "ir-status: a verifier failed: pass "
			       "'simplifycfg' (seq 1 of "));
	assert_non_null(strstr(check, ") broke the IR; the program then died: "
			       "SIGSEGV in pass 'constfold'"));
	w->ft.target.pid = 0;
}

// ir-break --after given while stopped before a pass stops after that
// very pass, and every stop names its pass run: seq when traced, its place
// in the pipeline when not.
static void
test_break_after_while_before(void **state)
{
	struct world *w = *state;
	bool stop;
	char *out;

	wruns(w, "ir-break", "cse");
	w->pass = "dce";
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_false(stop);
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	irs_free(out);
	w->pass = "cse";
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_true(stop);
	assert_non_null(strstr(out, "irsnap: stopped before pass 'cse' (the "
			       "pipeline's pass 2, untraced; IR: Module at "));
	irs_free(out);
	wruns(w, "ir-break", "--after cse");
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_true(stop);
	assert_non_null(strstr(out, "irsnap: stopped after pass 'cse' (the "
			       "pipeline's pass 2, untraced; IR: Module at "));
	irs_free(out);
	// traced: the seq
	wruns(w, "ir-trace", "on");
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_false(stop);
	irs_free(out);
	wruns(w, "ir-break", "off");
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_false(stop);	// off before the return: no stop
	irs_free(out);
	wruns(w, "ir-break", "--both cse");
	assert_null(irs_console_boundary_enter(w->c, "pm_run_pass", &stop,
					       &out));
	assert_true(stop);
	assert_non_null(strstr(out, "irsnap: stopped before pass 'cse' (seq "
			       "2; IR: Module at "));
	irs_free(out);
	assert_null(irs_console_boundary_exit(w->c, &stop, &out));
	assert_non_null(strstr(out, "irsnap: stopped after pass 'cse' (seq "
			       "2; IR: Module at "));
	irs_free(out);
}

// Every option completion offers is in its command's help, and every
// setting in ir-set's (LLDB's `help ir-set`, the manual's).
static void
test_help_names_every_option_and_setting(void **state)
{
	(void)state;
	static const struct {
		const char *cmd;
		const struct console_option *table;
		const size_t *n;
	} tables[] = {
		{"ir-dump", console_dump_options, &console_dump_noptions},
		{"ir-break", console_break_options, &console_break_noptions},
		{"ir-trace", console_trace_options, &console_trace_noptions},
		{"ir-report", console_report_options,
		 &console_report_noptions},
	};
	for (size_t t = 0; t < ARRAY_SIZE(tables); t++) {
		const char *help = irs_console_help(tables[t].cmd);
		for (size_t i = 0; i < *tables[t].n; i++) {
			const struct console_option *o = &tables[t].table[i];
			if (!strstr(help, o->name) ||
			    (o->alias && !strstr(help, o->alias)))
				fail_msg("help %s lacks %s", tables[t].cmd,
					 o->name);
		}
	}
	const char *set = irs_console_help("ir-set");
	for (const char *const *k = irs_console_settings(); *k; k++)
		if (!strstr(set, *k))
			fail_msg("help ir-set lacks %s", *k);
}

// ir-break and ir-trace without a regex say they take every pass, as
// ir-status does, rather than a '.*' nobody typed.
static void
test_no_regex_says_every_pass(void **state)
{
	struct world *w = *state;

	assert_non_null(strstr(wruns(w, "ir-break", ""),
			       "irsnap: will stop before every pass (no "
			       "PASS-REGEX given) (breakpoint at "));
	assert_non_null(strstr(wruns(w, "ir-trace", "on"),
			       "irsnap: tracing every pass (breakpoint at "));
	const char *status = wruns(w, "ir-status", "");
	assert_non_null(strstr(status, "\ntrace: every pass\n"));
	assert_non_null(strstr(status, "\nbreak: before every pass\n"));
	assert_null(strstr(status, ".*"));
}

// Loading a bad layout keeps the previous one.
static void
test_bad_layout_keeps_previous(void **state)
{
	struct world *w = *state;
	char path[200], args[220];
	snprintf(path, sizeof(path), "%s/bad.lua", w->dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("layout { name = \"bad\" }\n\nstruct \"X\" {{\n", fp);
	fclose(fp);
	snprintf(args, sizeof(args), "load %s", path);
	const char *msg = wfails(w, "ir-layout", args);
	assert_true(strncmp(msg, path, strlen(path)) == 0);
	assert_true(msg[strlen(path)] == ':');
	assert_non_null(strstr(wruns(w, "ir-status", ""), "layout 'toyc' ("));
	assert_non_null(strstr(wruns(w, "ir-dump", "m"), "module @"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_quotes_and_escapes),
		cmocka_unit_test(test_split_keeps_positions),
		cmocka_unit_test(test_split_unterminated_quote),
		cmocka_unit_test(test_opts_stop_at_positional),
		cmocka_unit_test(test_opts_anywhere),
		cmocka_unit_test(test_opts_errors),
		cmocka_unit_test(test_parse_counts),
		cmocka_unit_test_setup_teardown(test_commands_need_layout,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_usage_errors,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_load_missing_file,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_off_without_layout,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_settings,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ir_set_command,
						setup, teardown),
		cmocka_unit_test(test_help_for_every_command),
		cmocka_unit_test_setup_teardown(test_complete_files, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_complete_options_and_words,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_events_without_layout,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_and_break_list,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_dump_output_paths,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_dump_errors,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_dump_boundary,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_trace_events,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(
			test_instance_labels_and_filters, setup_world,
			teardown_world),
		cmocka_unit_test_setup_teardown(test_signal_writes_failure,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_report,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_verify_call_and_lua,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_crash_after_verifier_failure,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_break_after_while_before,
						setup_world, teardown_world),
		cmocka_unit_test(test_help_names_every_option_and_setting),
		cmocka_unit_test_setup_teardown(test_no_regex_says_every_pass,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_stop_on_verify,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_verify_names_breaker_once,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_bad_layout_keeps_previous,
						setup_world, teardown_world),
	};
	return cmocka_run_group_tests_name("console", tests, NULL, NULL);
}
