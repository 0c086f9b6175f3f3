// irsnap: the command-line tool. Dispatches to one cmd_* per subcommand.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{"reduce", cmd_reduce,
	 "reduce INPUT|RUN (--test CMD | --crash CMD | --verifier CMD) "
	 "[-o OUT] [-j N] [--timeout S] [--retries N] [--layout L] "
	 "[--trust]"},
	{"replay", cmd_replay,
	 "replay [--runs N] [-j N] [--shard K/N] [--debugger gdb|lldb] "
	 "--layout L [--trace REGEX] [--reduce CMD] -- PROG ARGS..."},
	{"merge", cmd_merge, "merge [-o OUT] [--reduce auto|CMD] DIR..."},
	{"show", cmd_show, "show [--json] [RUN|REPLAY]"},
	{"diff", cmd_diff,
	 "diff [--json] A B | RUN PASS|SEQ | RUN1 RUN2 [PASS|SEQ]"},
	{"report", cmd_report, "report [RUN] [-o FILE.html]"},
	{"validate", cmd_validate, "validate [--json] PATH"},
	{"donor", cmd_donor, "donor LAYOUT [--cxx CXX] [-I DIR]..."},
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: irsnap COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "  irsnap %s\n", commands[i].usage);
	fprintf(fp, "\nirsnap help COMMAND shows a command's help; irsnap "
		"help debugger lists\nthe ir-* commands of GDB and LLDB, "
		"irsnap help ir-dump (...) shows one,\nirsnap help settings "
		"their settings.\n"
		"\nexit status: 0 success, 1 the thing checked is bad, "
		"2 usage or input error\n");
}

// irsnap help debugger|settings|ir-NAME: the debugger commands' own help
// (the console's, the same GDB's `help ir-dump` and LLDB's print), to
// read without a debugger, and for the manual. False when @p topic is
// none of them.
static bool
debugger_help(const char *topic)
{
	const char *const *names = irs_console_commands();
	const char *const *keys = irs_console_settings();
	if (!strcmp(topic, "debugger")) {
		printf("The ir-* commands, the same in GDB (source "
		       "irsnap.py) and LLDB (plugin load\nlibirsnap-lldb.so); "
		       "irsnap help NAME shows one:\n");
		for (size_t i = 0; names[i]; i++) {
			const char *h = irs_console_help(names[i]);
			printf("  %-10s %.*s\n", names[i],
			       (int)strcspn(h, "\n"), h);
		}
		printf("Settings (GDB: set irsnap KEY VALUE; LLDB: ir-set KEY "
		       "VALUE): irsnap help settings.\n");
		return true;
	}
	if (!strcmp(topic, "settings")) {
		printf("Settings: GDB set irsnap KEY VALUE / show irsnap KEY; "
		       "LLDB ir-set KEY VALUE\n(ir-set KEY shows one).\n");
		for (size_t i = 0; keys[i]; i++)
			printf("  %-13s %s\n", keys[i],
			       irs_console_setting_help(keys[i]));
		return true;
	}
	const char *h = irs_console_help(topic);
	if (h)
		printf("%s\n", h);
	return h != NULL;
}

const char *
cli_opt_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n])
		return NULL;
	if (*i + 1 == argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

int
cli_usage_error(const char *cmd, const char *fmt, const char *arg,
		const char *after)
{
	fprintf(stderr, "irsnap %s: ", cmd);
	fprintf(stderr, fmt, cli_shown(arg));
	fputs(after, stderr);
	return EXIT_USAGE;
}

// Whether @p dir holds @p name (whatever it is: a link there is the
// reader's to refuse, naming it).
static bool
holds(const char *dir, const char *name)
{
	struct stat st;
	char *path = irs_path_join(dir, name);
	bool yes = path && lstat(path, &st) == 0;
	free(path);
	return yes;
}

struct irs_error *
cli_resolve(const char *arg, char **ret, bool *replay_ret)
{
	char *dir = NULL;
	struct irs_error *err = NULL;

	if (holds(arg, "manifest.json") || holds(arg, "replay.json")) {
		if (!(dir = strdup(arg)))
			return &irs_enomem;
	} else if ((err = irs_rundir_latest(arg, &dir))) {
		if (err->code != IRS_ERROR_NOT_FOUND)
			return err;
		irs_error_destroy(err);
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s: not a run "
					"directory (no manifest.json, no "
					"latest/manifest.json)", arg);
	}
	// A replay (irsnap replay, irsnap merge) has its replay.json and no
	// manifest of its own.
	*replay_ret = !holds(dir, "manifest.json") && holds(dir,
							    "replay.json");
	*ret = dir;
	return NULL;
}

// The run a replay directory stands for: its first failure's (the run
// of the first group), else its last attempt's.
static struct irs_error *
replay_run(const char *replay, char **ret)
{
	char *path, *text;
	size_t len;
	json_error_t je;
	struct irs_error *err = irs_rundir_file(replay, "replay.json", &path);
	if (!err)
		err = irs_file_read(path, &text, &len);
	if (err) {
		free(path);
		return err;
	}
	json_t *doc = json_loadb(text, len, JSON_ALLOW_NUL, &je);
	free(text);
	const json_t *attempts = json_object_get(doc, "attempts");
	const char *rel = json_string_value(json_object_get(json_array_get(
		json_object_get(doc, "groups"), 0), "run"));
	for (size_t i = json_array_size(attempts); !rel && i-- > 0; )
		rel = json_string_value(json_object_get(json_array_get(
			attempts, i), "run"));
	if (!doc)
		err = irs_error_format(IRS_ERROR_FORMAT, "%s:%d:%d: %s", path,
				       je.line, je.column, je.text);
	else if (!rel)
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: names no run "
				       "directory of an attempt", path);
	else
		err = irs_rundir_file(replay, rel, ret);
	json_decref(doc);
	free(path);
	return err;
}

struct irs_error *
cli_run_dir(const char *arg, char **ret)
{
	char *dir;
	bool replay;
	struct irs_error *err = cli_resolve(arg, &dir, &replay);
	if (err || !replay) {
		if (!err)
			*ret = dir;
		return err;
	}
	err = replay_run(dir, ret);
	free(dir);
	return err;
}

int
cli_fail(struct irs_error *err)
{
	// (error messages are made printable when they are made)
	fprintf(stderr, "irsnap: %s\n", irs_error_get_message(err));
	irs_error_destroy(err);
	return EXIT_USAGE;
}

// A row of a table takes a few strings at once: a ring of the last ones.
enum { SHOWN_RING = 32 };

const char *
cli_shown(const char *s)
{
	static char *ring[SHOWN_RING];
	static unsigned next;
	char *p = irs_printable(s, false);
	if (!p)
		return "?";
	free(ring[next % SHOWN_RING]);
	ring[next++ % SHOWN_RING] = p;
	return p;
}

void
cli_print(FILE *fp, const char *s)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_printable(&b, s ? s : "", s ? strlen(s) : 0, true);
	if (b.data)
		fputs(b.data, fp);
	irs_buf_deinit(&b);
}

int
cli_hunt_end(struct irs_error *err, char *summary, char *dir,
	     uint32_t failures)
{
	if (err && irs_error_get_code(err) != IRS_ERROR_INTERRUPTED) {
		irs_free(summary);
		irs_free(dir);
		return cli_fail(err);
	}
	cli_print(stdout, summary);	// pass names, signatures
	fflush(stdout);	// before any error line on stderr
	int status = failures ? EXIT_BAD : err ? EXIT_USAGE : EXIT_OK;
	if (err)
		cli_fail(err);
	irs_free(summary);
	irs_free(dir);
	return status;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		if (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help") ||
		    !strcmp(argv[2], "help")) {
			usage(stdout);
			return EXIT_OK;
		}
		// irsnap help CMD: that command's --help, as git does
		char *sub[] = {argv[2], "--help", NULL};
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]);
		     i++)
			if (!strcmp(argv[2], commands[i].name))
				return commands[i].run(2, sub);
		if (debugger_help(argv[2]))
			return EXIT_OK;
		fprintf(stderr, "irsnap: help: no command '%s' (irsnap "
			"--help lists them, irsnap help debugger the ir-* "
			"ones)\n", cli_shown(argv[2]));
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("irsnap %s\n", IRS_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "irsnap: unknown command '%s' (try irsnap --help)\n",
		cli_shown(argv[1]));
	return EXIT_USAGE;
}
