/*
 * cli.h — the `irsnap` command-line tool: one cmd_<name>.c per subcommand,
 * each a thin front over libirsnap. Exit codes (SPEC section 7): 0 success,
 * 1 the thing checked is bad, 2 usage or input error (one line naming the
 * input).
 */
#ifndef IRSNAP_CLI_H
#define IRSNAP_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/tools.h"

enum { EXIT_OK = 0, EXIT_BAD = 1, EXIT_USAGE = 2 };

/** Each subcommand: argv[0] is the subcommand's name. */
int cmd_reduce(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_donor(int argc, char **argv);

/**
 * Option @p name of argv[*i], given as "NAME VALUE" or "NAME=VALUE" (as
 * GNU getopt_long takes a long option): the value, *i advanced past it;
 * NULL when argv[*i] is not this option, or is it without a value, when
 * *missing is set.
 */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name,
			  bool *missing);
/** Prints "irsnap @p cmd: " and @p fmt with @p arg (cli_shown()) to
 *  stderr, then @p after; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, const char *arg,
		    const char *after);
/**
 * What @p arg names: a run directory (it holds manifest.json) or a replay
 * directory (replay.json, from irsnap replay or merge), or a folder whose
 * `latest` link names one beside it (as irsnap makes it). *ret (freed with
 * free()) and *replay_ret written on success only.
 */
struct irs_error *cli_resolve(const char *arg, char **ret, bool *replay_ret);
/** The run directory @p arg names (cli_resolve()); for a replay, the run of
 *  its first failure, else of its last attempt. *ret freed with free(),
 *  written on success only. */
struct irs_error *cli_run_dir(const char *arg, char **ret);
/** Prints "irsnap: <message>" for @p err, frees it, returns EXIT_USAGE. */
int cli_fail(struct irs_error *err);
/** @p s with its control characters shown escaped, for printing what a
 *  run directory or snapshot holds; valid for the next 32 calls. */
const char *cli_shown(const char *s);
/** fputs() of @p s (lines kept) with its control characters escaped. */
void cli_print(FILE *fp, const char *s);
/**
 * How `replay` and `merge` end, @p err what the run returned: an error
 * other than an interruption alone is printed; otherwise the hunt's
 * @p summary, then the interruption. Exit status: 1 when the hunt found
 * failures, 2 on an error, else 0. Frees @p summary and @p dir.
 */
int cli_hunt_end(struct irs_error *err, char *summary, char *dir,
		 uint32_t failures);

#endif
