// irsnap replay [--runs N] [-j N] [--shard K/N] [--stop-after-failures M]
//               [--debugger gdb|lldb] --layout L [--trace REGEX]
//               [--reduce auto|CMD] [--all] [--timeout S] [--dir DIR]
//               -- PROG ARGS...
// Exit status: 0 no failure found, 1 a failure found, 2 usage or input.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char replay_usage[] =
	"usage: irsnap replay [--runs N] [-j N] [--shard K/N] "
	"[--stop-after-failures M]\n"
	"                     [--debugger gdb|lldb] --layout L "
	"[--trace REGEX]\n"
	"                     [--reduce auto|CMD] [--all] [--timeout S] "
	"[--dir DIR] -- PROG ARGS...\n";

static const char replay_help[] =
	"Runs PROG under the debugger in batch mode with ir-trace on, up to N "
	"times\n(default 20) or until it fails; every attempt gets its own run "
	"directory under\nDIR/replay-<id>/ (DIR: $IRSNAP_DIR or ./irsnap-out). "
	"Failures are grouped by\nsignature (signal, pass, top three frames).\n"
	"  --debugger D   gdb (default) or lldb\n"
	"  --trace REGEX  trace only the passes it matches (default: all)\n"
	"  --all          keep going after the first failure\n"
	"  --reduce auto  reduce each group's first failure with `irsnap "
	"reduce RUN`, the\n"
	"                 failure's reduce command plus PROG's one-word "
	"options\n"
	"  --reduce CMD   ... with `irsnap reduce RUN --crash CMD` ({} the "
	"candidate,\n"
	"                 {pass} the failing pass, {exe} PROG)\n"
	"  --timeout S    seconds per attempt before it is killed (default "
	"300)\n"
	"  -j N           N attempts at once, each debugger in its own "
	"process group\n"
	"  --shard K/N    shard K (0..N-1) of a hunt of --runs attempts split "
	"N ways:\n"
	"                 attempts K+1, K+1+N, ...; one shard per machine or "
	"scheduler\n"
	"                 task, all with the same --dir; `irsnap merge` reads "
	"them back\n"
	"  --stop-after-failures M\n"
	"                 start no attempt once the hunt's shards found M "
	"failures\n"
	"                 between them (DIR/hunt-failures.txt counts them)\n"
	"{attempt} in ARGS, and $IRSNAP_ATTEMPT, is the attempt's number "
	"(1..N across\nshards): a seed of its own for each.\n"
	"Exit status: 0 no failure, 1 a failure found, 2 usage or input "
	"error.\n"
	"example: irsnap replay --runs 30 --layout toyc.lua --reduce auto -- "
	"build/toyc --bug=flaky demo.ir\n";

static int
replay_fail_usage(const char *fmt, const char *arg)
{
	cli_usage_error("replay", fmt, arg, "\n");
	fputs(replay_usage, stderr);
	return EXIT_USAGE;
}

static bool
parse_number(const char *s, double min, double *ret)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || v < min || v > 1e9)
		return false;
	*ret = v;
	return true;
}

int
cmd_replay(int argc, char **argv)
{
	struct irs_replay_config cfg = {.progress = true};
	struct irs_replay_result res = {0};
	int i;

	for (i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		double num;
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (argv[i][0] != '-')
			break;	// PROG: the rest are its arguments
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("%s%s", replay_usage, replay_help);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--all")) {
			cfg.all = true;
		} else if ((v = cli_opt_value(argc, argv, &i, "--runs",
					  &missing))) {
			if (!parse_number(v, 1, &num) || num != (uint32_t)num)
				return replay_fail_usage("--runs needs a "
					"positive whole number, not '%s'", v);
			cfg.runs = (uint32_t)num;
		} else if (!strncmp(argv[i], "-j", 2) && argv[i][2]) {
			if (!parse_number(argv[i] + 2, 1, &num) ||
			    num != (uint32_t)num)
				return replay_fail_usage("-j needs a positive "
					"whole number, not '%s'", argv[i] + 2);
			cfg.jobs = (uint32_t)num;
		} else if ((v = cli_opt_value(argc, argv, &i, "-j",
					      &missing)) ||
			   (v = cli_opt_value(argc, argv, &i, "--jobs",
					  &missing))) {
			if (!parse_number(v, 1, &num) || num != (uint32_t)num)
				return replay_fail_usage("-j needs a positive "
					"whole number, not '%s'", v);
			cfg.jobs = (uint32_t)num;
		} else if ((v = cli_opt_value(argc, argv, &i, "--shard",
					  &missing))) {
			unsigned k, n;
			char end;
			if (sscanf(v, "%u/%u%c", &k, &n, &end) != 2 || !n ||
			    k >= n)
				return replay_fail_usage("--shard needs K/N "
					"with 0 <= K < N, not '%s'", v);
			cfg.shard = k;
			cfg.nshards = n;
		} else if ((v = cli_opt_value(argc, argv, &i,
					  "--stop-after-failures",
					  &missing))) {
			if (!parse_number(v, 1, &num) || num != (uint32_t)num)
				return replay_fail_usage("--stop-after-failures"
					" needs a positive whole number, not "
					"'%s'", v);
			cfg.stop_after_failures = (uint32_t)num;
		} else if ((v = cli_opt_value(argc, argv, &i, "--timeout",
					  &missing))) {
			if (!parse_number(v, 0.001, &cfg.timeout))
				return replay_fail_usage("--timeout needs "
					"seconds, not '%s'", v);
		} else if ((v = cli_opt_value(argc, argv, &i, "--debugger",
					  &missing))) {
			cfg.debugger = v;
		} else if ((v = cli_opt_value(argc, argv, &i, "--layout",
					  &missing))) {
			cfg.layout = v;
		} else if ((v = cli_opt_value(argc, argv, &i, "--trace",
					  &missing))) {
			cfg.trace = v;
		} else if ((v = cli_opt_value(argc, argv, &i, "--reduce",
					  &missing))) {
			cfg.reduce = v;
		} else if ((v = cli_opt_value(argc, argv, &i, "--dir",
					  &missing))) {
			cfg.dir = v;
		} else {
			return replay_fail_usage(missing ? "%s needs a value"
						 : "unknown option '%s'",
						 argv[i]);
		}
	}
	if (i >= argc)
		return replay_fail_usage("%s", "no program given (put it "
					 "after --)");
	if (!cfg.layout)
		return replay_fail_usage("%s", "--layout is required");
	cfg.argv = (const char *const *)(argv + i);
	struct irs_error *err = irs_replay_run(&cfg, &res);
	return cli_hunt_end(err, res.summary, res.dir, res.failures);
}
