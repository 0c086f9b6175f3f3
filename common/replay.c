// `irsnap replay`: run a program under GDB or LLDB in batch mode with
// ir-trace on, again and again, until it fails; group the failures by
// signature and hand the first of each group to `irsnap reduce`.
//
// The pipeline, in irs_replay_run():
//   replay_prepare   find the debugger, the front end (debugger.c), PROG,
//                    the layout
//   replay_attempt   one debugger run in <replay>/attempt-NNN/ ... N times
//   replay_reduce    `irsnap reduce RUN` for the first failure of a group
//   replay_save      replay.json and the summary table
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "debugger.h"
#include "reduce.h"
#include "session.h"

enum { NFRAMES = 3 };		// frames in a failure signature

struct group {
	char *key;		// signal|pass|f0|f1|f2: what makes two alike
	char *title;		// "SIGSEGV in cse at f0 < f1 < f2"
	char *signal, *pass;
	char *frames[NFRAMES];
	uint32_t count;
	uint32_t first;		// attempt number of the first failure
	char *run;		// its run directory, relative to the replay
	char *reduce_cmd;	// the --crash command given to the reducer
	char *reduce_status;	// NULL: not asked; "reduced", "failed ..."
	char *reduce_line;	// the reducer's last line ("reduced A -> B")
};

struct attempt {
	uint32_t n;
	char *run;		// run directory under attempt-NNN/, or NULL
	const char *status;	// completed, failed, incomplete, timeout,
				// interrupted, no run directory
	int exit_status;	// the program's, when completed; else -1
	double seconds;
	int group;		// index in groups, -1 when it did not fail
};

struct replay {
	const struct irs_replay_config *cfg;
	const char *debugger;	// "gdb" or "lldb"
	char *debugger_exe;	// /usr/bin/gdb
	char *frontend;		// gdb/irsnap.py or libirsnap-lldb.so
	char *self;		// the irsnap tool
	char *prog;		// PROG, absolute
	char *layout;		// layout file, absolute
	char *id;		// YYYYMMDD-HHMMSS-pid
	char *dir;		// replay directory as the user gave its root
	char *abs;		// the same, absolute
	struct attempt *attempts;
	uint32_t nattempts, failures, timeouts;
	struct group *groups;
	uint32_t ngroups;
};

static volatile sig_atomic_t interrupted;

static void
on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* {==== Finding the debugger, the front end and the program ============= */

static struct irs_error *
find_inputs(struct replay *rp)
{
	const struct irs_replay_config *cfg = rp->cfg;
	rp->prog = irs_which(cfg->argv[0]);
	if (!rp->prog)
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"%s: no such program (or not "
					"executable)", cfg->argv[0]);
	rp->layout = realpath(cfg->layout, NULL);
	if (!rp->layout || !irs_is_file(rp->layout, R_OK))
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"%s: no such layout file (or not "
					"readable)", cfg->layout);
	rp->self = realpath(cfg->irsnap_exe ? cfg->irsnap_exe
			    : "/proc/self/exe", NULL);
	if (!rp->self)
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"cannot find the irsnap executable: %s",
					strerror(errno));
	return NULL;
}

/* }==== */

/* {==== The replay directory ============================================= */

static char *
absolute(const char *path)
{
	if (path[0] == '/')
		return strdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	return irs_path_join(cwd, path);
}

// <root>/replay-YYYYMMDD-HHMMSS-pid[-N], created here and unique.
static struct irs_error *
make_replay_dir(struct replay *rp)
{
	struct irs_error *err;
	const char *root = irs_rundir_root(rp->cfg->dir);
	err = irs_mkdirs(root);
	if (err)
		return err;
	char stamp[32];
	time_t t = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
	for (int n = 0; n < 1000; n++) {
		free(rp->id);
		if ((n ? asprintf(&rp->id, "%s-%d-%d", stamp, (int)getpid(), n)
		     : asprintf(&rp->id, "%s-%d", stamp, (int)getpid())) < 0) {
			rp->id = NULL;
			return &irs_enomem;
		}
		free(rp->dir);
		if (asprintf(&rp->dir, "%s/replay-%s", root, rp->id) < 0) {
			rp->dir = NULL;
			return &irs_enomem;
		}
		if (mkdir(rp->dir, 0777) == 0)
			return (rp->abs = absolute(rp->dir)) ? NULL
			       : &irs_enomem;
		if (errno != EEXIST)
			break;
	}
	return irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
				rp->dir, strerror(errno));
}

/* }==== */

/* {==== One attempt ====================================================== */

// The debugger's argv for one attempt writing under @p adir:
//   gdb -batch -nx -ex 'source irsnap.py' -ex 'set irsnap dir D'
//       -ex 'ir-layout load L' -ex 'ir-trace on [RE]' -ex run --args P A..
//   lldb -b -o 'plugin load P.so' -o 'ir-set dir D' -o 'ir-layout load L'
//        -o 'ir-trace on [RE]' -o run -- P A..
// Strings it allocates are added to @p owned for the caller to free.
static char **
debugger_argv(const struct replay *rp, const char *adir, char **owned)
{
	const struct irs_replay_config *cfg = rp->cfg;
	bool gdb = !strcmp(rp->debugger, "gdb");
	const char *opt = gdb ? "-ex" : "-o";
	size_t nargs = 0;
	while (cfg->argv[nargs])
		nargs++;
	char **v = calloc(nargs + 16, sizeof(*v));
	if (!v)
		return NULL;
	size_t n = 0, k = 0;
	v[n++] = rp->debugger_exe;
	if (gdb) {
		v[n++] = "-batch";
		v[n++] = "-nx";
	} else {
		v[n++] = "-b";
		v[n++] = "--no-lldbinit";
	}
	owned[k++] = irs_debugger_cmd(gdb ? "source" : "plugin load",
				      rp->frontend);
	owned[k++] = irs_debugger_cmd(gdb ? "set irsnap dir" : "ir-set dir",
				      adir);
	owned[k++] = irs_debugger_cmd("ir-layout load", rp->layout);
	owned[k++] = irs_debugger_cmd("ir-trace on", cfg->trace);
	for (size_t i = 0; i < k; i++) {
		if (!owned[i]) {
			free(v);
			return NULL;
		}
		v[n++] = (char *)opt;
		v[n++] = owned[i];
	}
	v[n++] = (char *)opt;
	v[n++] = "run";
	v[n++] = gdb ? "--args" : "--";
	v[n++] = rp->prog;
	for (size_t i = 1; i < nargs; i++)
		v[n++] = (char *)cfg->argv[i];
	v[n] = NULL;
	return v;
}

// The run directory the session made under @p adir (what its `latest`
// link names), relative to adir; NULL when there is none.
static char *
find_run(const char *adir)
{
	char *latest = irs_path_join(adir, "latest"), target[PATH_MAX];
	if (!latest)
		return NULL;
	ssize_t n = readlink(latest, target, sizeof(target) - 1);
	free(latest);
	if (n <= 0 || (size_t)n >= sizeof(target) - 1)
		return NULL;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	return strdup(base ? base + 1 : target);
}

static char *
str_member(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return strdup(s && *s ? s : "?");
}

// Frames of the C library's abort path (raise, abort, __assert_fail,
// __pthread_kill_implementation): the same for every assertion, so a
// signature skips them to tell one failing assert from another.
static bool
is_abort_frame(json_t *frame)
{
	const char *fn = json_string_value(json_object_get(frame, "function"));
	return fn && (!strncmp(fn, "__", 2) || !strcmp(fn, "raise") ||
		      !strcmp(fn, "abort") || !strcmp(fn, "gsignal"));
}

// The failure's signature: signal (or "verifier"), pass, and the top
// NFRAMES functions past the C library's abort path.
static struct irs_error *
read_signature(const char *path, struct group *g)
{
	json_error_t je;
	json_t *f = json_load_file(path, JSON_ALLOW_NUL, &je);
	if (!f)
		return irs_error_format(IRS_ERROR_FORMAT, "%s:%d: %s", path,
					je.line, je.text);
	json_t *sig = json_object_get(f, "signal");
	g->signal = json_is_object(sig) ? str_member(sig, "name")
		    : str_member(f, "kind");
	g->pass = str_member(json_object_get(f, "pass"), "name");
	json_t *bt = json_object_get(f, "backtrace");
	size_t top = 0, nbt = json_array_size(bt);
	while (top < nbt && is_abort_frame(json_array_get(bt, top)))
		top++;
	if (top == nbt)
		top = 0;	// nothing else: keep what there is
	struct irs_buf key, title;
	irs_buf_init(&key);
	irs_buf_init(&title);
	irs_buf_printf(&key, "%s|%s", g->signal, g->pass);
	irs_buf_printf(&title, "%s in %s", g->signal, g->pass);
	for (size_t i = 0; i < NFRAMES && top + i < nbt; i++) {
		char *fn = str_member(json_array_get(bt, top + i), "function");
		g->frames[i] = fn;
		irs_buf_printf(&key, "|%s", fn ? fn : "");
		irs_buf_printf(&title, "%s%s", i ? " < " : " at ",
			       fn ? fn : "?");
	}
	json_decref(f);
	bool oom = key.oom || title.oom;
	g->key = irs_buf_steal(&key);
	g->title = irs_buf_steal(&title);
	if (oom || !g->key || !g->title || !g->signal || !g->pass)
		return &irs_enomem;
	return NULL;
}

static void
group_deinit(struct group *g)
{
	free(g->key);
	free(g->title);
	free(g->signal);
	free(g->pass);
	for (int i = 0; i < NFRAMES; i++)
		free(g->frames[i]);
	free(g->run);
	free(g->reduce_cmd);
	free(g->reduce_status);
	free(g->reduce_line);
}

// Counts attempt @p a's failure (described by @p g, taken over) in its
// group, opening a new group for a new signature.
static struct irs_error *
add_failure(struct replay *rp, struct attempt *a, struct group *g)
{
	for (uint32_t i = 0; i < rp->ngroups; i++) {
		if (strcmp(rp->groups[i].key, g->key))
			continue;
		rp->groups[i].count++;
		a->group = (int)i;
		group_deinit(g);
		return NULL;
	}
	struct group *gs = realloc(rp->groups,
				   (rp->ngroups + 1) * sizeof(*gs));
	if (!gs) {
		group_deinit(g);
		return &irs_enomem;
	}
	rp->groups = gs;
	g->count = 1;
	g->first = a->n;
	g->run = strdup(a->run);
	gs[rp->ngroups] = *g;
	a->group = (int)rp->ngroups++;
	return g->run ? NULL : &irs_enomem;
}

static void
progress(const struct replay *rp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
progress(const struct replay *rp, const char *fmt, ...)
{
	if (!rp->cfg->progress)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

// What attempt @p a left behind: a run directory, maybe a failure.json.
// A run without failure.json: "completed" when the session saw the
// program exit (with its exit status), "incomplete" when the debugger ended
// first (a crash outside every traced pass, a debugger error).
static struct irs_error *
judge_run_end(struct attempt *a, const char *adir)
{
	char *path;
	if (asprintf(&path, "%s/%s/manifest.json", adir, a->run) < 0)
		return &irs_enomem;
	json_t *m = json_load_file(path, JSON_ALLOW_NUL, NULL);
	free(path);
	const char *status = json_string_value(json_object_get(m, "status"));
	json_t *code = json_object_get(m, "exit_status");
	a->status = status && !strcmp(status, "completed") ? "completed"
		    : "incomplete";
	a->exit_status = json_is_integer(code)
			 ? (int)json_integer_value(code) : -1;
	json_decref(m);
	return NULL;
}

static struct irs_error *
judge_attempt(struct replay *rp, struct attempt *a, const char *adir,
	      int status)
{
	struct irs_error *err;

	a->run = find_run(adir);
	if (status == -1) {
		a->status = interrupted ? "interrupted" : "timeout";
		rp->timeouts += !interrupted;
		return NULL;
	}
	if (!a->run) {
		a->status = "no run directory";
		return NULL;
	}
	char *fpath;
	if (asprintf(&fpath, "%s/%s/failure.json", adir, a->run) < 0)
		return &irs_enomem;
	if (access(fpath, F_OK) != 0) {
		free(fpath);
		return judge_run_end(a, adir);
	}
	struct group g = {0};
	err = read_signature(fpath, &g);
	free(fpath);
	if (err) {
		group_deinit(&g);
		return err;
	}
	a->status = "failed";
	rp->failures++;
	return add_failure(rp, a, &g);
}

// The debugger ran but no pass was traced: the layout did not load, or the
// program ended before its first pass.
static struct irs_error *
no_run_error(const struct replay *rp, uint32_t n, const char *log)
{
	char *text = NULL;
	struct irs_error *err = irs_file_read(log, &text, NULL);
	size_t len = 0;
	const char *why = err ? NULL
			  : irs_debugger_log_reason(text, &len, NULL);
	irs_error_destroy(err);
	err = irs_error_format(IRS_ERROR_TARGET, "attempt %u traced no pass "
			       "(see %s/attempt-%03u/debugger.log)%s%.*s", n,
			       rp->dir, n, why ? ": " : "",
			       (int)(len > 200 ? 200 : len), why ? why : "");
	free(text);
	return err;
}

static struct irs_error *
replay_attempt(struct replay *rp, uint32_t n)
{
	struct irs_error *err;
	struct attempt *as = realloc(rp->attempts,
				     (rp->nattempts + 1) * sizeof(*as));
	if (!as)
		return &irs_enomem;
	rp->attempts = as;
	struct attempt *a = &as[rp->nattempts++];
	*a = (struct attempt){.n = n, .group = -1, .status = "error",
			      .exit_status = -1};

	char *adir = NULL, *log = NULL, *owned[4] = {0};
	if (asprintf(&adir, "%s/attempt-%03u", rp->abs, n) < 0) {
		adir = NULL;
		return &irs_enomem;
	}
	err = irs_mkdirs(adir);
	char **argv = err ? NULL : debugger_argv(rp, adir, owned);
	if (!err && !argv)
		err = &irs_enomem;
	if (!err && !(log = irs_path_join(adir, "debugger.log")))
		err = &irs_enomem;
	int status = 0;
	double t0 = now();
	double timeout = rp->cfg->timeout > 0 ? rp->cfg->timeout : 300;
	if (!err)
		err = irs_child_run(argv, log, adir, timeout, &interrupted,
				    &status);
	a->seconds = now() - t0;
	if (!err)
		err = judge_attempt(rp, a, adir, status);
	if (!err && a->group >= 0)
		progress(rp, "attempt %u/%u: FAILED: %s (%.1f s)\n", n,
			 rp->cfg->runs, rp->groups[a->group].title, a->seconds);
	else if (!err && a->exit_status > 0)
		progress(rp, "attempt %u/%u: %s, exit status %d (%.1f s)\n", n,
			 rp->cfg->runs, a->status, a->exit_status, a->seconds);
	else if (!err)
		progress(rp, "attempt %u/%u: %s (%.1f s)\n", n, rp->cfg->runs,
			 a->status, a->seconds);
	if (!err && !strcmp(a->status, "no run directory"))
		err = no_run_error(rp, n, log);
	for (size_t i = 0; i < ARRAY_SIZE(owned); i++)
		free(owned[i]);
	free(argv);
	free(log);
	free(adir);
	return err;
}

/* }==== */

/* {==== Reduction ======================================================== */

// Replaces every {name} in @p tmpl by @p value.
static bool
expand(struct irs_buf *b, const char *tmpl, const char *name,
       const char *value)
{
	size_t nlen = strlen(name);
	for (const char *p = tmpl; *p;) {
		const char *hit = strstr(p, name);
		if (!hit) {
			irs_buf_puts(b, p);
			break;
		}
		irs_buf_append(b, p, (size_t)(hit - p));
		irs_buf_puts(b, value);
		p = hit + nlen;
	}
	return !b->oom;
}

// --reduce CMD with {pass} and {exe} filled in ({} stays: the candidate).
static char *
crash_command(const struct replay *rp, const struct group *g)
{
	struct irs_buf a, b;
	irs_buf_init(&a);
	irs_buf_init(&b);
	struct irs_buf exe;
	irs_buf_init(&exe);
	irs_buf_shell_quote(&exe, rp->prog);
	bool ok = !exe.oom && expand(&a, rp->cfg->reduce, "{pass}", g->pass) &&
		  expand(&b, a.data, "{exe}", exe.data);
	irs_buf_deinit(&a);
	irs_buf_deinit(&exe);
	if (!ok) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

// The last non-empty line of @p path ("reduced 120 -> 9 lines, ...").
static char *
last_line(const char *path)
{
	char *text;
	size_t len;
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err) {
		irs_error_destroy(err);
		return NULL;
	}
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = '\0';
	char *start = strrchr(text, '\n');
	char *line = strdup(start ? start + 1 : text);
	free(text);
	return line;
}

// Extra runs the reducer gives a candidate before calling it boring, so
// that an intermittent failure is missed in under 0.1% of tests (above all
// the first test, of the input itself, which would end the reduction):
// with f failures in n attempts the failure rate is taken as f / (n + 2),
// on the low side, since a failure on the first attempt may still be a
// rare one; then (1 - p)^(r + 1) < 0.001.
static uint32_t
reduce_retries(const struct replay *rp)
{
	double p = (double)rp->failures / (rp->nattempts + 2);
	if (p <= 0)
		return 0;
	double runs = ceil(log(0.001) / log(1 - p));
	return runs > 31 ? 30 : (uint32_t)runs - 1;
}

// One line on how the group's reduction went: the reducer's own last line
// ("reduced 2915 -> 6 lines, ...") when it worked.
static void
put_reduce_outcome(struct irs_buf *b, const struct group *g)
{
	if (!strcmp(g->reduce_status, "reduced") && g->reduce_line)
		irs_buf_printf(b, "  %s\n", g->reduce_line);
	else
		irs_buf_printf(b, "  reduce %s%s%s\n", g->reduce_status,
			       g->reduce_line ? ": " : "",
			       g->reduce_line ? g->reduce_line : "");
}

// --reduce auto: `irsnap reduce RUN` takes failure.json's reduce command as
// it is: the layout's rerun template says how to run one pass on a file,
// and its {flags} keep the options that made PROG fail (toyc
// --bug=flaky). *ret gets its test command, for replay.json and the
// progress line; NULL when there is none (the reducer says so).
static struct irs_error *
auto_command(const char *run, char **ret)
{
	struct irs_error *err = NULL;
	char **words = NULL;

	*ret = NULL;
	char *path = irs_path_join(run, "failure.json");
	if (!path)
		return &irs_enomem;
	json_t *f = json_load_file(path, JSON_ALLOW_NUL, NULL);
	free(path);
	const char *rc = json_string_value(json_object_get(f,
							   "reduce_command"));
	if (rc)
		err = reduce_shell_split(rc, &words);
	for (size_t k = 0; !err && words && words[k] && words[k + 1]; k++) {
		if (strcmp(words[k], "--crash") && strcmp(words[k], "--test"))
			continue;
		if (!(*ret = strdup(words[k + 1])))
			err = &irs_enomem;
		break;
	}
	for (size_t k = 0; words && words[k]; k++)
		free(words[k]);
	free(words);
	json_decref(f);
	return err;
}

// `irsnap reduce RUN --retries R [--crash CMD]` into RUN/repro/, its own
// output in attempt-NNN/reduce.out.
static struct irs_error *
reduce_group(struct replay *rp, struct group *g)
{
	struct irs_error *err = NULL;
	char *run = NULL, *log = NULL;
	char adir[32], retries[16];
	int status;

	bool is_auto = !strcmp(rp->cfg->reduce, "auto");
	snprintf(adir, sizeof(adir), "attempt-%03u", g->first);
	snprintf(retries, sizeof(retries), "%u", reduce_retries(rp));
	if (asprintf(&run, "%s/%s/%s", rp->abs, adir, g->run) < 0)
		run = NULL;
	if (asprintf(&log, "%s/%s/reduce.out", rp->abs, adir) < 0)
		log = NULL;
	if (!run || !log)
		err = &irs_enomem;
	else if (is_auto)
		err = auto_command(run, &g->reduce_cmd);
	else if (!(g->reduce_cmd = crash_command(rp, g)))
		err = &irs_enomem;
	if (err)
		goto out;
	char *argv[] = {rp->self, "reduce", run, "--retries", retries,
			is_auto ? NULL : "--crash", g->reduce_cmd, NULL};
	progress(rp, "reducing %s (attempt %u, %s retries%s%s) ...\n",
		 g->title, g->first, retries,
		 g->reduce_cmd ? ", crash command: " : "",
		 g->reduce_cmd ? g->reduce_cmd : "");
	err = irs_child_run(argv, log, NULL, 3600, &interrupted, &status);
	if (err)
		goto out;
	g->reduce_line = last_line(log);
	char how[32];
	if (status == -1)
		snprintf(how, sizeof(how), "stopped");
	else if (WIFEXITED(status))
		snprintf(how, sizeof(how), "exit status %d",
			 WEXITSTATUS(status));
	else
		snprintf(how, sizeof(how), "signal %d", WTERMSIG(status));
	if (!strcmp(how, "exit status 0"))
		g->reduce_status = strdup("reduced");
	else if (asprintf(&g->reduce_status, "failed (%s; see %s/%s/"
			  "reduce.out)", how, rp->dir, adir) < 0)
		g->reduce_status = NULL;
	if (!g->reduce_status) {
		err = &irs_enomem;
	} else {
		struct irs_buf line;
		irs_buf_init(&line);
		put_reduce_outcome(&line, g);
		progress(rp, "%s", line.data ? line.data : "");
		irs_buf_deinit(&line);
	}
out:
	free(run);
	free(log);
	return err;
}

static struct irs_error *
replay_reduce(struct replay *rp)
{
	struct irs_error *err;
	for (uint32_t i = 0; i < rp->ngroups && !interrupted; i++) {
		err = reduce_group(rp, &rp->groups[i]);
		if (err)
			return err;
	}
	return NULL;
}

/* }==== */

/* {==== replay.json and the summary ====================================== */

static json_t *
group_json(const struct replay *rp, const struct group *g)
{
	json_t *frames = json_array(), *attempts = json_array();
	for (int i = 0; i < NFRAMES && g->frames[i]; i++)
		json_array_append_new(frames, irs_json_text(g->frames[i]));
	for (uint32_t i = 0; i < rp->nattempts; i++)
		if (rp->attempts[i].group == (int)(g - rp->groups))
			json_array_append_new(attempts,
				json_integer(rp->attempts[i].n));
	char run[PATH_MAX];
	snprintf(run, sizeof(run), "attempt-%03u/%s", g->first, g->run);
	// Strings from the run go through irs_json_text(): json_pack() fails
	// on bytes that are not UTF-8.
	json_t *reduce = g->reduce_status ? json_pack("{s:o, s:o, s:o}",
		"status", irs_json_text(g->reduce_status),
		"crash_command", irs_json_text(g->reduce_cmd),
		"summary", irs_json_text(g->reduce_line)) : json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:i, s:i, s:o, s:o, s:o}",
			 "signature", irs_json_text(g->title),
			 "signal", irs_json_text(g->signal),
			 "pass", irs_json_text(g->pass), "frames", frames,
			 "count", (json_int_t)g->count,
			 "first_attempt", (json_int_t)g->first,
			 "attempts", attempts, "run", irs_json_text(run),
			 "reduce", reduce);
}

static json_t *
attempt_json(const struct replay *rp, const struct attempt *a)
{
	char run[PATH_MAX];
	if (a->run)
		snprintf(run, sizeof(run), "attempt-%03u/%s", a->n, a->run);
	return json_pack("{s:i, s:s, s:o, s:o, s:f, s:o}", "attempt",
			 (json_int_t)a->n, "status", a->status,
			 "run", irs_json_text(a->run ? run : NULL),
			 "exit_status", a->exit_status >= 0
			 ? json_integer(a->exit_status) : json_null(),
			 "seconds", a->seconds, "signature", a->group >= 0
			 ? irs_json_text(rp->groups[a->group].title)
			 : json_null());
}

// replay.json: what ran and what it found; paths relative to the replay
// directory, like the snapshot paths of a manifest.
static struct irs_error *
write_json(const struct replay *rp)
{
	json_t *cmd = json_array(), *attempts = json_array(),
	       *groups = json_array();
	for (size_t i = 0; rp->cfg->argv[i]; i++)
		json_array_append_new(cmd, irs_json_text(rp->cfg->argv[i]));
	for (uint32_t i = 0; i < rp->nattempts; i++)
		json_array_append_new(attempts,
				      attempt_json(rp, &rp->attempts[i]));
	for (uint32_t i = 0; i < rp->ngroups; i++)
		json_array_append_new(groups, group_json(rp, &rp->groups[i]));
	json_t *doc = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:i, "
				"s:b, s:o, s:i, s:i, s:o, s:o}",
		"schema", "irsnap.replay/1", "replay_id", rp->id,
		"debugger", rp->debugger,
		"debugger_exe", irs_json_text(rp->debugger_exe),
		"layout", irs_json_text(rp->layout),
		"trace", irs_json_text(rp->cfg->trace),
		"command", cmd, "runs", (json_int_t)rp->cfg->runs,
		"all", rp->cfg->all, "reduce", irs_json_text(rp->cfg->reduce),
		"failures", (json_int_t)rp->failures,
		"timeouts", (json_int_t)rp->timeouts,
		"attempts", attempts, "groups", groups);
	char *text = doc ? json_dumps(doc, JSON_INDENT(2) |
				      JSON_REAL_PRECISION(6)) : NULL;
	json_decref(doc);
	if (!text)
		return &irs_enomem;
	char *path = irs_path_join(rp->abs, "replay.json");
	struct irs_error *err = path ? irs_file_write(path, text, strlen(text))
				: &irs_enomem;
	free(path);
	free(text);
	return err;
}

// The table printed at the end: one row per signature.
static char *
summary(const struct replay *rp)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_printf(&b, "replay %s: %u attempt%s, ", rp->dir,
		       rp->nattempts, rp->nattempts == 1 ? "" : "s");
	if (!rp->failures)
		irs_buf_puts(&b, "no failure");
	else
		irs_buf_printf(&b, "%u failure%s in %u group%s", rp->failures,
			       rp->failures == 1 ? "" : "s", rp->ngroups,
			       rp->ngroups == 1 ? "" : "s");
	if (rp->timeouts)
		irs_buf_printf(&b, ", %u timed out", rp->timeouts);
	irs_buf_puts(&b, "\n");
	int w = (int)strlen("signature");
	for (uint32_t i = 0; i < rp->ngroups; i++)
		if ((int)strlen(rp->groups[i].title) > w)
			w = (int)strlen(rp->groups[i].title);
	if (rp->ngroups)
		irs_buf_printf(&b, "%-*s  count  first  run directory\n", w,
			       "signature");
	for (uint32_t i = 0; i < rp->ngroups; i++) {
		const struct group *g = &rp->groups[i];
		irs_buf_printf(&b, "%-*s  %5u  %5u  %s/attempt-%03u/%s\n", w,
			       g->title, g->count, g->first, rp->dir, g->first,
			       g->run);
		if (g->reduce_status)
			put_reduce_outcome(&b, g);
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

/* }==== */

static struct irs_error *
check_config(const struct irs_replay_config *cfg)
{
	if (!cfg->argv || !cfg->argv[0])
		return irs_error_create(IRS_ERROR_USAGE, "replay: no program "
					"given (after --)");
	if (!cfg->layout)
		return irs_error_create(IRS_ERROR_USAGE, "replay: --layout is "
					"required");
	if (cfg->debugger && strcmp(cfg->debugger, "gdb") &&
	    strcmp(cfg->debugger, "lldb"))
		return irs_error_format(IRS_ERROR_USAGE, "replay: unknown "
					"debugger '%s' (gdb or lldb)",
					cfg->debugger);
	if (cfg->reduce && !*cfg->reduce)
		return irs_error_create(IRS_ERROR_USAGE, "replay: --reduce "
					"needs 'auto' or a command");
	return NULL;
}

static struct irs_error *
replay_prepare(struct replay *rp)
{
	struct irs_error *err = find_inputs(rp);
	if (!err)
		err = irs_debugger_find(rp->debugger, &rp->debugger_exe);
	if (!err)
		err = irs_frontend_find(rp->debugger, rp->self,
					&rp->frontend);
	if (!err)
		err = make_replay_dir(rp);
	return err;
}

static void
replay_deinit(struct replay *rp)
{
	free(rp->debugger_exe);
	free(rp->frontend);
	free(rp->self);
	free(rp->prog);
	free(rp->layout);
	free(rp->id);
	free(rp->dir);
	free(rp->abs);
	for (uint32_t i = 0; i < rp->nattempts; i++)
		free(rp->attempts[i].run);
	free(rp->attempts);
	for (uint32_t i = 0; i < rp->ngroups; i++)
		group_deinit(&rp->groups[i]);
	free(rp->groups);
}

// The attempts, until one fails (or all are made, with --all).
static struct irs_error *
replay_attempts(struct replay *rp)
{
	struct irs_error *err = NULL;
	struct sigaction sa = {.sa_handler = on_sigint}, old;

	interrupted = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);	// ^C ends the attempt, then the replay
	for (uint32_t n = 1; !err && n <= rp->cfg->runs && !interrupted; n++) {
		err = replay_attempt(rp, n);
		if (rp->failures && !rp->cfg->all)
			break;
	}
	if (!err && rp->cfg->reduce && !interrupted)
		err = replay_reduce(rp);
	sigaction(SIGINT, &old, NULL);
	if (!err && rp->nattempts && rp->timeouts == rp->nattempts)
		err = irs_error_format(IRS_ERROR_LIMIT, "every attempt timed "
				       "out; see %s/attempt-001/debugger.log "
				       "(--timeout S gives them longer)",
				       rp->dir);
	return err;
}

struct irs_error *
irs_replay_run(const struct irs_replay_config *cfg,
	       struct irs_replay_result *ret)
{
	struct irs_error *err;
	struct irs_replay_config c = *cfg;
	struct replay rp = {.cfg = &c};

	err = check_config(cfg);
	if (err)
		return err;
	c.runs = cfg->runs ? cfg->runs : 20;
	rp.debugger = cfg->debugger ? cfg->debugger : "gdb";
	err = replay_prepare(&rp);
	if (err)
		goto out;
	progress(&rp, "replay %s: %s under %s, up to %u run%s\n", rp.dir,
		 cfg->argv[0], rp.debugger, c.runs, c.runs == 1 ? "" : "s");
	err = replay_attempts(&rp);
	// replay.json also when an attempt went wrong: it says which.
	struct irs_error *jerr = write_json(&rp);
	if (!err)
		err = jerr;
	else
		irs_error_destroy(jerr);
	if (err)
		goto out;
	char *text = summary(&rp), *dir = strdup(rp.dir);
	if (!text || !dir) {
		free(text);
		free(dir);
		err = &irs_enomem;
		goto out;
	}
	*ret = (struct irs_replay_result){
		.attempts = rp.nattempts, .failures = rp.failures,
		.groups = rp.ngroups, .dir = dir, .summary = text};
	if (interrupted)
		err = irs_error_create(IRS_ERROR_INTERRUPTED,
				       "replay interrupted");
out:
	replay_deinit(&rp);
	return err;
}
