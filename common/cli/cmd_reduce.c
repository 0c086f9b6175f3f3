// irsnap reduce: a thin front over irs_reduce_run().
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
	"usage: irsnap reduce INPUT|RUN (--test CMD | --crash CMD) [-o OUT] "
	"[-j N] [--timeout S] [--retries N] [--layout L [--exe CMD]]\n";

static const char help[] =
	"Shrinks INPUT while the test keeps failing the same way.\n"
	"  --test CMD     interesting when CMD exits 0; {} is the candidate's "
	"path\n"
	"                 (without {}, the candidate is ./INPUT-NAME in the "
	"test's own\n"
	"                 directory, as C-Vise does)\n"
	"  --crash CMD    interesting when CMD crashes like INPUT does (same "
	"signal,\n"
	"                 same top frames)\n"
	"  -o OUT         result (default INPUT.reduced, RUN/repro/ for a run "
	"directory);\n"
	"                 repro.sh is written beside it\n"
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
	"reduced with\nthe command its failure.json names.\n"
	"Example: irsnap reduce in.ir --crash 'build/toyc --passes=cse {}'\n"
	"         irsnap reduce in.ir --crash 'build/toyc --bug=crash {}' "
	"--layout toyc.lua\n";

static int
bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "irsnap reduce: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try irsnap reduce --help)\n");
	return EXIT_USAGE;
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

int
cmd_reduce(int argc, char **argv)
{
	struct irs_reduce_config cfg = {0};
	struct irs_reduce_result res = {0};

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("%s%s", usage, help);
			return EXIT_OK;
		}
		bool takes = !strcmp(a, "--test") || !strcmp(a, "--crash") ||
			     !strcmp(a, "-o") || !strcmp(a, "-j") ||
			     !strcmp(a, "--timeout") ||
			     !strcmp(a, "--retries") ||
			     !strcmp(a, "--layout") || !strcmp(a, "--exe");
		if (takes && i + 1 >= argc)
			return bad("%s needs a value", a);
		const char *v = takes ? argv[++i] : NULL;
		if (!strcmp(a, "--test")) {
			cfg.test_cmd = v;
		} else if (!strcmp(a, "--crash")) {
			cfg.crash_cmd = v;
		} else if (!strcmp(a, "-o")) {
			cfg.output = v;
		} else if (!strcmp(a, "--layout")) {
			cfg.layout = v;
		} else if (!strcmp(a, "--exe")) {
			cfg.exe = v;
		} else if (!strcmp(a, "-j")) {
			if (!parse_uint(v, &cfg.jobs) || !cfg.jobs)
				return bad("-j: '%s' is not a positive number",
					   v);
		} else if (!strcmp(a, "--retries")) {
			if (!parse_uint(v, &cfg.retries))
				return bad("--retries: '%s' is not a number",
					   v);
		} else if (!strcmp(a, "--timeout")) {
			if (!parse_seconds(v, &cfg.timeout))
				return bad("--timeout: '%s' is not a positive "
					   "number of seconds", v);
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
	cfg.progress = isatty(2);

	struct irs_error *err = irs_reduce_run(&cfg, &res);
	int code = irs_error_get_code(err);
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
	printf("reduced %llu -> %llu lines, %u tests, %.1f s\n",
	       (unsigned long long)res.lines_before,
	       (unsigned long long)res.lines_after, res.tests, res.seconds);
	if (err) {
		fflush(stdout);
		fprintf(stderr, "irsnap: %s\n", irs_error_get_message(err));
		irs_error_destroy(err);
		return 130;	// as a shell reports a Ctrl-C'd command
	}
	return EXIT_OK;
}
