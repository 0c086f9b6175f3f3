/*
 * cli.h — the `irsnap` command-line tool: one cmd_<name>.c per subcommand,
 * each a thin front over libirsnap. Exit codes (SPEC section 7): 0 success,
 * 1 the thing checked is bad, 2 usage or input error (one line naming the
 * input).
 */
#ifndef IRSNAP_CLI_H
#define IRSNAP_CLI_H

#include "irsnap.h"

enum { EXIT_OK = 0, EXIT_BAD = 1, EXIT_USAGE = 2 };

/** Each subcommand: argv[0] is the subcommand's name. */
int cmd_reduce(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/** Prints "irsnap: <message>" for @p err, frees it, returns EXIT_USAGE. */
int cli_fail(struct irs_error *err);

#endif
