// irsnap reduce --layout L: a plain input gets the unit tree and def-use
// edges of a snapshot by borrowing the compiler's own parser. The compiler
// runs on the input under GDB in batch mode with irsnap loaded, stops at
// its first pass boundary, and the IR it built is dumped there as text and
// JSON, exactly as `ir-dump -f both` writes them:
//
//   gdb -batch -nx -ex 'source .../gdb/irsnap.py' -ex 'ir-layout load L'
//       -ex 'ir-break --before' -ex run
//       -ex 'ir-dump --boundary -f both -o DIR/snapshot.ir' -ex kill
//       --args PROG ARGS... INPUT
//
// The reducer then cuts the snapshot's text (the compiler's own syntax, as
// its printer writes it) with the snapshot's units and edges.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reduce/reduce.h"

// Seconds the whole debugger run may take: start, parse, dump.
enum { SNAPSHOT_TIMEOUT = 300 };

// The compiler's words: @p cmd with {} the input's quoted path (added
// last when @p cmd has none), split as sh would; words[0] resolved in $PATH.
static struct irs_error *
command_words(const char *cmd, const char *input, char ***ret)
{
	struct irs_error *err;
	struct irs_buf b;
	char **words;

	irs_buf_init(&b);
	char *expanded = reduce_expand_cmd(cmd, input);
	if (!expanded)
		return &irs_enomem;
	irs_buf_puts(&b, expanded);
	if (!strstr(cmd, "{}")) {
		irs_buf_puts(&b, " ");
		irs_shell_quote(&b, input);
	}
	free(expanded);
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	err = irs_shell_split(b.data, &words);
	irs_buf_deinit(&b);
	if (err)
		return err;
	char *prog = words[0] ? irs_which(words[0]) : NULL;
	if (!prog) {
		err = irs_error_format(IRS_ERROR_USAGE, "--layout: '%s' (the "
				       "first word of the command) is not a "
				       "program; name the compiler's command "
				       "with --exe 'PROG ARGS {}'",
				       words[0] ? words[0] : "");
		irs_shell_words_free(words);
		return err;
	}
	free(words[0]);
	words[0] = prog;
	*ret = words;
	return NULL;
}

// gdb ... --args PROG ARGS...; strings it allocates go to @p owned (4).
static char **
gdb_argv(const char *gdb, const char *frontend, const char *layout,
	 const char *out, char *const *words, char **owned)
{
	size_t nwords = 0;
	while (words[nwords])
		nwords++;
	char **v = calloc(nwords + 20, sizeof(*v));
	if (!v)
		return NULL;
	size_t n = 0;
	v[n++] = (char *)gdb;
	v[n++] = "-batch";
	v[n++] = "-nx";
	owned[0] = irs_debugger_cmd("source", frontend);
	owned[1] = irs_debugger_cmd("ir-layout load", layout);
	owned[2] = irs_debugger_cmd("ir-dump --boundary -f both -o", out);
	if (!owned[0] || !owned[1] || !owned[2]) {
		free(v);
		return NULL;
	}
	const char *cmds[] = {owned[0], owned[1], "ir-break --before", "run",
			      owned[2], "kill"};
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		v[n++] = "-ex";
		v[n++] = (char *)cmds[i];
	}
	v[n++] = "--args";
	for (size_t i = 0; i < nwords; i++)
		v[n++] = words[i];
	v[n] = NULL;
	return v;
}

// GDB's own lines around the program's output.
static bool
gdb_chatter(const char *p, size_t len)
{
	return !len || p[0] == '[' ||
	       !strncmp(p, "Using host libthread_db", 23);
}

// In @p text, the program's exit line ("[Inferior 1 (process 42) exited
// with code 01]") and the last line the program wrote before it (*last,
// or NULL); false when it did not exit.
static bool
find_exit(const char *text, const char **exit_line, size_t *exit_len,
	  const char **last, size_t *last_len)
{
	*last = NULL;
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");
		if (!strncmp(p, "[Inferior ", 10) &&
		    memmem(p, l, " exited ", 8)) {
			*exit_line = p;
			*exit_len = l;
			return true;
		}
		if (!gdb_chatter(p, l)) {
			*last = p;
			*last_len = l;
		}
		p += l + (p[l] == '\n');
	}
	return false;
}

// Why the debugger run left no snapshot, from its log: irsnap's own error
// before the program ended (a layout that does not load), else the
// program's exit and its last words when it ended before a boundary,
// else the debugger's best line.
static struct irs_error *
no_snapshot(const char *input, const char *prog, const char *log,
	    int status)
{
	char *text = NULL;
	size_t len = 0, last_len = 0;
	const char *why = NULL, *last = NULL, *exit_line = NULL;
	int rank = IRS_LOG_OTHER;
	struct irs_error *err = irs_file_read(log, &text, NULL);
	irs_error_destroy(err);
	bool exited = text && status != -1 &&
		      find_exit(text, &exit_line, &len, &last, &last_len);
	if (exited) {
		size_t cut = (size_t)(exit_line - text);
		char saved = text[cut];		// irsnap's errors before it
		text[cut] = '\0';
		why = irs_debugger_log_reason(text, &len, &rank);
		text[cut] = saved;
		if (rank < IRS_LOG_IRSNAP)
			find_exit(text, &why, &len, &last, &last_len);
	} else if (text) {
		why = irs_debugger_log_reason(text, &len, &rank);
	}
	if (exited && rank < IRS_LOG_IRSNAP)
		err = irs_error_format(IRS_ERROR_TARGET, "--layout: no "
			"snapshot of %s: %s ended before its first pass "
			"boundary under gdb: %.*s%s%.*s", input, prog,
			(int)(len > 100 ? 100 : len), why,
			last ? "; its last output: " : "",
			(int)(last_len > 200 ? 200 : last_len),
			last ? last : "");
	else
		err = irs_error_format(IRS_ERROR_TARGET, "--layout: no "
			"snapshot of %s: %s %s under gdb%s%.*s", input, prog,
			status == -1 ? "timed out" : "reached no pass boundary",
			why ? ": " : "", (int)(len > 200 ? 200 : len),
			why ? why : "");
	free(text);
	return err;
}

struct irs_error *
reduce_snapshot_input(const char *input, const char *cmd, const char *layout,
		      const char *dir, volatile sig_atomic_t *interrupted,
		      char **text_ret, char **json_ret)
{
	struct irs_error *err;
	char *gdb = NULL, *frontend = NULL, *self = NULL, *abs_input = NULL;
	char *abs_layout = NULL, *text = NULL, *json = NULL, *log = NULL;
	char **words = NULL, **argv = NULL, *owned[3] = {0};

	abs_input = realpath(input, NULL);
	abs_layout = realpath(layout, NULL);
	if (!abs_input || !abs_layout) {
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: %s",
				       abs_input ? layout : input,
				       strerror(errno));
		goto out;
	}
	self = realpath("/proc/self/exe", NULL);
	if ((err = irs_debugger_find("gdb", &gdb)) ||
	    (err = irs_frontend_find("gdb", self ? self : "irsnap",
				     &frontend)) ||
	    (err = command_words(cmd, abs_input, &words)))
		goto out;
	text = irs_path_join(dir, "snapshot.ir");
	log = irs_path_join(dir, "gdb.log");
	if (text && asprintf(&json, "%s.json", text) < 0)
		json = NULL;
	if (!text || !log || !json ||
	    !(argv = gdb_argv(gdb, frontend, abs_layout, text, words,
			      owned))) {
		err = &irs_enomem;
		goto out;
	}
	int status;
	err = irs_child_run(argv, log, NULL, SNAPSHOT_TIMEOUT, interrupted,
			    &status);
	if (err)
		goto out;
	if (interrupted && *interrupted) {
		err = irs_error_format(IRS_ERROR_INTERRUPTED, "interrupted "
				       "while snapshotting %s", input);
		goto out;
	}
	if (access(text, R_OK) != 0 || access(json, R_OK) != 0) {
		err = no_snapshot(input, words[0], log, status);
		goto out;
	}
	*text_ret = text;
	*json_ret = json;
	text = json = NULL;
out:
	for (size_t i = 0; i < ARRAY_SIZE(owned); i++)
		free(owned[i]);
	free(argv);
	irs_shell_words_free(words);
	free(gdb);
	free(frontend);
	free(self);
	free(abs_input);
	free(abs_layout);
	free(text);
	free(json);
	free(log);
	return err;
}

// Whether the snapshot is whole: a walk error or a limit leaves markers
// (<unreadable ...>) or gaps in the text that no compiler would parse.
struct irs_error *
reduce_snapshot_check(const char *json_path, const char *json,
		      size_t json_len)
{
	json_error_t jerr;
	json_t *root = json_loadb(json, json_len, JSON_ALLOW_NUL, &jerr);
	if (!root)
		return irs_error_format(IRS_ERROR_FORMAT, "%s:%d:%d: %s",
					json_path, jerr.line, jerr.column,
					jerr.text);
	json_t *stats = json_object_get(root, "stats");
	json_int_t nerr = json_integer_value(json_object_get(stats,
							     "walk_errors"));
	bool truncated = json_is_true(json_object_get(stats, "truncated"));
	json_decref(root);
	if (truncated)
		return irs_error_format(IRS_ERROR_LIMIT, "%s: the walk was "
					"truncated by a limit", json_path);
	if (nerr)
		return irs_error_format(IRS_ERROR_FORMAT, "%s: %lld walk "
					"error%s", json_path, (long long)nerr,
					nerr == 1 ? "" : "s");
	return NULL;
}
