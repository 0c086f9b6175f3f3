// irsnap reduce: a thin front over irs_reduce_run().
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
	"usage: irsnap reduce INPUT|RUN (--test CMD | --crash CMD) [-o OUT] "
	"[-j N] [--timeout S] [--retries N] [--layout L [--exe CMD]] "
	"[--trust] [--comment C] [--label REGEX] [--test-arg A]...\n"
	"       irsnap reduce INPUT|RUN --verifier CMD [--problem RE] "
	"[--broken RE] ...\n"
	"       irsnap reduce FILE --crash CMD --expect-crash SIGNATURE\n"
	"       irsnap reduce FILE --verifier CMD ... --expect-check CHECK\n";

static const char help[] =
	"Shrinks INPUT while the test keeps failing the same way.\n"
	"  --test CMD     interesting when CMD exits 0; {} is the candidate's "
	"path\n"
	"  --test-arg A   an argument for the --test command, as llvm-reduce "
	"takes it:\n"
	"                 CMD A ... runs, with the candidate's path last "
	"unless CMD\n"
	"                 or an A is {} (repeatable)\n"
	"                 (without {}, the candidate is ./INPUT-NAME in the "
	"test's own\n"
	"                 directory, as C-Vise does)\n"
	"  --crash CMD    interesting when CMD crashes like INPUT does (same "
	"signal,\n"
	"                 same top frames)\n"
	"  --verifier CMD interesting when CMD (the compiler with its own "
	"verifier on,\n"
	"                 `toyc --verify --passes=P {}`) reports the check "
	"it reports\n"
	"                 on INPUT (the first problem's); a verifier "
	"failure's run reduces\n"
	"                 this way, with its verifier's rerun command\n"
	"  --problem RE   with --verifier: a line of CMD's output reporting a "
	"problem\n"
	"                 (extended regex; its first group names the check, "
	"numbers and\n"
	"                 %names in it not counted); default: every non-blank "
	"line\n"
	"  --broken RE    with --verifier: a line the output must also hold, "
	"saying the\n"
	"                 pass's output is broken (so an input the compiler "
	"rejects\n"
	"                 before the pass is not interesting)\n"
	"  -o OUT         result (default INPUT.reduced, RUN/repro/ for a run "
	"directory);\n"
	"                 OUT.repro.sh (RUN/repro/repro.sh) reruns the test "
	"on it; a file\n"
	"                 of that name irsnap did not write is left alone\n"
	"  -j N           tests in parallel (default: the number of cores)\n"
	"  --timeout S    seconds per test before its process group is killed "
	"(60)\n"
	"  --retries N    extra runs before a candidate counts as not "
	"interesting (0)\n"
	"  --layout L     for a plain INPUT: run the compiler on it under gdb,"
	" snapshot\n"
	"                 the IR it parsed at its first pass boundary with "
	"layout L,\n"
	"                 and reduce that snapshot's text with its units and "
	"def-use\n"
	"                 edges (the compiler's own parser, the layout's "
	"structure)\n"
	"  --exe CMD      with --layout: the compiler command to snapshot "
	"INPUT with,\n"
	"                 {} = INPUT (added last when absent); default: the "
	"--crash or\n"
	"                 --test command, whose first word must then be the "
	"compiler\n"
	"With a run directory RUN, the failing pass's before snapshot is "
	"reduced with\nthe command its failure.json names, printed before it "
	"runs. That command comes\nfrom a file, not from you: it is run only "
	"when RUN and its failure.json are\nyours and nobody else may write "
	"them; otherwise read it and give --trust (or\ngive --test or --crash "
	"yourself).\n"
	"  --trust        run the command of a RUN that is not yours or that "
	"others may\n                 write\n"
	"  --comment C    the line comment marker of plain text (default: "
	"the one of\n"
	"                 ';', '#', '//', '--' that starts the most lines)\n"
	"  --label REGEX  a label line (blanks trimmed) matches this extended "
	"regex\n"
	"                 (default: one word ending in ':'; '@name' lines too "
	"when the\n"
	"                 input has them)\n"
	"  --expect-crash SIG  run the --crash command once on FILE and exit 0 "
	"when it\n"
	"                 crashes with signature SIG (what repro.sh does)\n"
	"  --expect-check CHECK  run the --verifier command once on FILE and "
	"exit 0\n"
	"                 when it reports CHECK (each test of a --verifier "
	"reduction)\n"
	"Every option takes its value as --opt VALUE or --opt=VALUE.\n"
	"Commands resolve against your directory (./test.sh, build/toyc), "
	"though each\ntest runs in a scratch directory of its own.\n"
	"Example: irsnap reduce in.ir --crash 'build/toyc --passes=cse {}'\n"
	"         irsnap reduce in.ir --crash 'build/toyc --bug=crash {}' "
	"--layout toyc.lua\n";

static int
bad(const char *fmt, const char *arg)
{
	return cli_usage_error("reduce", fmt, arg,
			       " (try irsnap reduce --help)\n");
}

static bool
parse_uint(const char *s, uint32_t *ret)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *end || errno || v > 100000 || *s == '-')
		return false;
	*ret = (uint32_t)v;
	return true;
}

static bool
parse_seconds(const char *s, double *ret)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !(v > 0) || v > 1e6)
		return false;
	*ret = v;
	return true;
}

// --test CMD --test-arg A --test-arg B, as llvm-reduce takes them: CMD A B
// and, unless CMD places it with {}, the candidate's path last (llvm-reduce
// runs `TEST ARGS... FILE`). Freed with free(); NULL when out of memory.
static char *
with_test_args(const char *cmd, const char *const *args, int nargs)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, cmd);
	for (int k = 0; k < nargs; k++) {
		irs_buf_puts(&b, " ");
		if (!strcmp(args[k], "{}"))
			irs_buf_puts(&b, "{}");	// the candidate, here
		else
			irs_shell_quote(&b, args[k]);
	}
	if (b.data && !strstr(b.data, "{}"))
		irs_buf_puts(&b, " {}");
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

int
cmd_reduce(int argc, char **argv)
{
	struct irs_reduce_config cfg = {0};
	struct irs_reduce_result res = {0};
	const char *test_args[argc > 0 ? argc : 1];
	int ntest_args = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("%s%s", usage, help);
			return EXIT_OK;
		}
		if (!strncmp(a, "-j", 2) && a[2]) {
			// -j4, as make and C-Vise take it
			if (!parse_uint(a + 2, &cfg.jobs) || !cfg.jobs)
				return bad("-j: '%s' is not a positive number",
					   a + 2);
			continue;
		}
		// Each option takes "--opt VALUE" or "--opt=VALUE".
		static const char *const valued[] = {
			"--test", "--crash", "-o", "--output", "-j", "--jobs",
			"--timeout", "--retries", "--layout", "--exe",
			"--expect-crash", "--comment", "--label", "--test-arg",
			"--verifier", "--problem", "--broken",
			"--expect-check", NULL,
		};
		const char *v = NULL, *opt = a;
		bool missing = false;
		for (const char *const *o = valued; *o && !v && !missing; o++)
			if ((v = cli_opt_value(argc, argv, &i, *o, &missing)))
				opt = *o;
		if (missing)
			return bad("%s needs a value", a);
		if (v && !strcmp(opt, "--test")) {
			cfg.test_cmd = v;
		} else if (v && !strcmp(opt, "--crash")) {
			cfg.crash_cmd = v;
		} else if (v && !strcmp(opt, "--verifier")) {
			cfg.verifier_cmd = v;
		} else if (v && !strcmp(opt, "--problem")) {
			cfg.problem = v;
		} else if (v && !strcmp(opt, "--broken")) {
			cfg.broken = v;
		} else if (v && !strcmp(opt, "--expect-check")) {
			cfg.expect_check = v;
		} else if (v && !strcmp(opt, "--test-arg")) {
			test_args[ntest_args++] = v;
		} else if (v && (!strcmp(opt, "-o") ||
				 !strcmp(opt, "--output"))) {
			cfg.output = v;
		} else if (v && !strcmp(opt, "--layout")) {
			cfg.layout = v;
		} else if (v && !strcmp(opt, "--exe")) {
			cfg.exe = v;
		} else if (v && !strcmp(opt, "--comment")) {
			if (!*v || strlen(v) > 7)
				return bad("--comment: '%s' is not a comment "
					   "marker of 1 to 7 characters", v);
			cfg.comment = v;
		} else if (v && !strcmp(opt, "--label")) {
			cfg.label = v;
		} else if (v && !strcmp(opt, "--expect-crash")) {
			cfg.expect_crash = v;
		} else if (v && (!strcmp(opt, "-j") ||
				 !strcmp(opt, "--jobs"))) {
			if (!parse_uint(v, &cfg.jobs) || !cfg.jobs)
				return bad("-j: '%s' is not a positive number",
					   v);
		} else if (v && !strcmp(opt, "--retries")) {
			if (!parse_uint(v, &cfg.retries))
				return bad("--retries: '%s' is not a number",
					   v);
		} else if (v && !strcmp(opt, "--timeout")) {
			if (!parse_seconds(v, &cfg.timeout))
				return bad("--timeout: '%s' is not a positive "
					   "number of seconds", v);
		} else if (!strcmp(a, "--trust")) {
			cfg.trust = true;
		} else if (a[0] == '-' && a[1]) {
			return bad("unknown option '%s'", a);
		} else if (cfg.input) {
			return bad("one INPUT only ('%s' is extra)", a);
		} else {
			cfg.input = a;
		}
	}
	if (!cfg.input)
		return bad("%s", "no INPUT given");
	if (cfg.expect_crash && !cfg.crash_cmd)
		return bad("%s", "--expect-crash goes with --crash");
	if (cfg.expect_check && !cfg.verifier_cmd)
		return bad("%s", "--expect-check goes with --verifier");
	if ((cfg.problem || cfg.broken) && !cfg.verifier_cmd)
		return bad("%s", "--problem and --broken go with --verifier");
	if (ntest_args && !cfg.test_cmd)
		return bad("%s", "--test-arg goes with --test");
	char *test_cmd = NULL;
	if (ntest_args) {
		if (!(test_cmd = with_test_args(cfg.test_cmd, test_args,
						ntest_args)))
			return cli_fail(&irs_enomem);
		cfg.test_cmd = test_cmd;
	}
	bool expect = cfg.expect_crash || cfg.expect_check;
	cfg.progress = isatty(2) && !expect;
	cfg.round_lines = !isatty(2) && !expect;

	struct irs_error *err = irs_reduce_run(&cfg, &res);
	free(test_cmd);
	int code = irs_error_get_code(err);
	if (expect) {		// repro.sh's check: said already
		if (!err)
			return EXIT_OK;
		fprintf(stderr, "%s\n", irs_error_get_message(err));
		irs_error_destroy(err);
		return code == IRS_ERROR_STATE ? EXIT_BAD : EXIT_USAGE;
	}
	if (err && code != IRS_ERROR_INTERRUPTED) {
		// The test does not fail on the input: nothing to reduce.
		int rc = code == IRS_ERROR_STATE ? EXIT_BAD : EXIT_USAGE;
		cli_fail(err);
		return rc;
	}
	if (err && !res.lines_before) {		// stopped before any result
		fprintf(stderr, "irsnap: %s\n", irs_error_get_message(err));
		irs_error_destroy(err);
		return 130;
	}
	// The summary comes last: scripts (irsnap replay) read the last line.
	printf("tests: %u interesting, %u not interesting, %u timed out, "
	       "%u cache hits\n", res.interesting, res.boring, res.timeouts,
	       res.cache_hits);
	char *where = irs_printable(res.output, false);
	printf("reduced %llu -> %llu lines, %u tests, %.1f s: %s\n",
	       (unsigned long long)res.lines_before,
	       (unsigned long long)res.lines_after, res.tests, res.seconds,
	       where ? where : "?");
	free(where);
	free(res.output);
	if (err) {
		fflush(stdout);
		fprintf(stderr, "irsnap: %s\n", irs_error_get_message(err));
		irs_error_destroy(err);
		return 130;	// as a shell reports a Ctrl-C'd command
	}
	return EXIT_OK;
}
