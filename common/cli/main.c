// irsnap: the command-line tool. Dispatches to one cmd_* per subcommand.
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{"reduce", cmd_reduce,
	 "reduce INPUT|RUN (--test CMD | --crash CMD) [-o OUT] [-j N] "
	 "[--timeout S] [--retries N] [--layout L]"},
	{"replay", cmd_replay,
	 "replay [--runs N] [--debugger gdb|lldb] --layout L [--trace REGEX] "
	 "[--reduce CMD] -- PROG ARGS..."},
	{"show", cmd_show, "show RUN"},
	{"diff", cmd_diff, "diff A B"},
	{"report", cmd_report, "report RUN -o FILE.html"},
	{"validate", cmd_validate, "validate PATH"},
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: irsnap COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "  irsnap %s\n", commands[i].usage);
	fprintf(fp, "\nexit status: 0 success, 1 the thing checked is bad, "
		"2 usage or input error\n");
}

int
cli_fail(struct irs_error *err)
{
	fprintf(stderr, "irsnap: %s\n", irs_error_get_message(err));
	irs_error_destroy(err);
	return EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("irsnap %s\n", IRS_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "irsnap: unknown command '%s' (try irsnap --help)\n",
		argv[1]);
	return EXIT_USAGE;
}
