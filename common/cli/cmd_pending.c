// Subcommands not built yet say so plainly instead of pretending.
// Each moves to its own cmd_<name>.c as it is written.
#include <stdio.h>

#include "cli.h"

static int
pending(const char *name)
{
	fprintf(stderr, "irsnap: '%s' is not implemented yet\n", name);
	return EXIT_USAGE;
}

int cmd_reduce(int argc, char **argv) { (void)argc; return pending(argv[0]); }
int cmd_replay(int argc, char **argv) { (void)argc; return pending(argv[0]); }
int cmd_show(int argc, char **argv) { (void)argc; return pending(argv[0]); }
int cmd_diff(int argc, char **argv) { (void)argc; return pending(argv[0]); }
int cmd_report(int argc, char **argv) { (void)argc; return pending(argv[0]); }
int cmd_validate(int argc, char **argv) { (void)argc; return pending(argv[0]); }
