// `irsnap replay`: run a program under GDB or LLDB in batch mode with
// ir-trace on, again and again, until it fails; group the failures by
// signature and hand the first of each group to `irsnap reduce`.
//
// The pipeline, in irs_replay_run():
//   replay_prepare   find the debugger, the front end (launch/launch.c), PROG,
//                    the layout; make the replay directory
//   replay_attempts  debugger runs in <replay>/attempt-NNN/, -j at a time,
//                    this shard's numbers only (--shard K/N), replay.json
//                    rewritten after each
//   replay_reduce    `irsnap reduce RUN` for the first failure of a group
//   write_json       replay.json, then the summary table
//
// A hunt split into shards (--shard K/N, one `irsnap replay` per machine
// or scheduler task) numbers its attempts 1..runs across all shards:
// shard K takes K+1, K+1+N, ... so shards never repeat an attempt, and
// {attempt} in PROG's arguments (and $IRSNAP_ATTEMPT) gives each attempt
// a seed of its own. `irsnap merge` (tools/merge.c) reads the shards back.
#include <errno.h>
#include <fcntl.h>
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

#include "tools/tools.h"

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
	uint32_t n;		// global attempt number, 1..runs
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
	char *host;		// this machine's name, as in the id
	uint32_t shard, nshards;	// shard K of N (0 of 1 unsharded)
	char *marker;		// <root>/hunt-failures.txt
	const char *status;	// running, completed, interrupted
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

// This machine's name as an id may hold it: letters, digits, '.', '_'
// and '-' ("node-7.cluster"); anything else becomes '_'.
static char *
host_name(void)
{
	char h[256] = "";
	if (gethostname(h, sizeof(h) - 1) != 0 || !h[0])
		strcpy(h, "localhost");
	for (char *p = h; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", *p))
			*p = '_';
	return strdup(h);
}

// <root>/replay-YYYYMMDD-HHMMSS-HOST-pid[-sK-of-N][-M], created here and
// unique: shards started at the same second on two machines, or on one,
// differ by host, pid and shard.
static struct irs_error *
make_replay_dir(struct replay *rp)
{
	struct irs_error *err;
	const char *root = irs_rundir_root(rp->cfg->dir);
	err = irs_mkdirs(root);
	if (err)
		return err;
	if (asprintf(&rp->marker, "%s/hunt-failures.txt", root) < 0) {
		rp->marker = NULL;
		return &irs_enomem;
	}
	char stamp[160], shard[48] = "";
	time_t t = time(NULL);
	strftime(stamp, 32, "%Y%m%d-%H%M%S", localtime(&t));
	if (rp->nshards > 1)
		snprintf(shard, sizeof(shard), "-s%u-of-%u", rp->shard,
			 rp->nshards);
	snprintf(stamp + strlen(stamp), sizeof(stamp) - strlen(stamp),
		 "-%.64s-%d%s", rp->host, (int)getpid(), shard);
	for (int n = 0; n < 1000; n++) {
		free(rp->id);
		if ((n ? asprintf(&rp->id, "%s-%d", stamp, n)
		     : asprintf(&rp->id, "%s", stamp)) < 0) {
			rp->id = NULL;
			return &irs_enomem;
		}
		free(rp->dir);
		if (asprintf(&rp->dir, "%s/replay-%s", root, rp->id) < 0) {
			rp->dir = NULL;
			return &irs_enomem;
		}
		if (mkdir(rp->dir, 0777) == 0) {
			// <root>/latest names the replay, as it names a
			// traced run: `irsnap show` and `irsnap report` with
			// no run given find it. Best effort, as a shard's: a
			// link that cannot be made loses no attempt.
			char *name = NULL;
			if (asprintf(&name, "replay-%s", rp->id) >= 0)
				irs_error_destroy(irs_rundir_link_latest(root,
									 name));
			free(name);
			return (rp->abs = absolute(rp->dir)) ? NULL
			       : &irs_enomem;
		}
		if (errno != EEXIST)
			break;
	}
	return irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
				rp->dir, strerror(errno));
}

/* }==== */

/* {==== One attempt ====================================================== */

// PROG's arguments argv[1..] with every {attempt} replaced by @p num, as
// one buffer of NUL-terminated strings; free() it. NULL on OOM.
static char *
with_attempt(const char *const *argv, const char *num)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_append(&b, "", 0);
	for (size_t i = 1; argv[i]; i++) {
		for (const char *p = argv[i]; *p;) {
			const char *hit = strstr(p, "{attempt}");
			if (!hit) {
				irs_buf_puts(&b, p);
				break;
			}
			irs_buf_append(&b, p, (size_t)(hit - p));
			irs_buf_puts(&b, num);
			p = hit + strlen("{attempt}");
		}
		irs_buf_append(&b, "", 1);
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

// The debugger's argv for one attempt writing under @p adir:
//   gdb -batch -nx -ex 'source irsnap.py' -ex 'set irsnap dir D'
//       -ex 'ir-layout load L' -ex 'ir-trace on [RE]' -ex run --args P A..
//   lldb -b -o 'plugin load P.so' -o 'ir-set dir D' -o 'ir-layout load L'
//        -o 'ir-trace on [RE]' -o run -- P A..
// Strings it allocates are added to @p owned for the caller to free.
static char **
debugger_argv(const struct replay *rp, const char *adir, uint32_t attempt,
	      char **owned)
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
	char num[16];
	snprintf(num, sizeof(num), "%u", attempt);
	owned[k++] = with_attempt(cfg->argv, num);
	for (size_t i = 0; i < k; i++) {
		if (!owned[i]) {
			free(v);
			return NULL;
		}
		if (i == k - 1)
			break;	// the arguments' copy, used below
		v[n++] = (char *)opt;
		v[n++] = owned[i];
	}
	v[n++] = (char *)opt;
	v[n++] = "run";
	v[n++] = gdb ? "--args" : "--";
	v[n++] = rp->prog;
	// PROG's arguments with {attempt} replaced, NUL-separated in one
	// string (owned[k - 1]).
	char *arg = owned[k - 1];
	for (size_t i = 1; i < nargs; i++, arg += strlen(arg) + 1)
		v[n++] = arg;
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

// A JSON document of an attempt's run directory, read as irs_file_read()
// reads (a FIFO there does not hang the replay); NULL when unreadable or
// malformed, with @p je filled for the latter.
static json_t *
load_doc(const char *path, json_error_t *je)
{
	char *text;
	size_t len;
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err) {
		if (je)
			snprintf(je->text, sizeof(je->text), "%s",
				 irs_error_get_message(err));
		if (je)
			je->line = je->column = 0;
		irs_error_destroy(err);
		return NULL;
	}
	json_t *doc = json_loadb(text, len, JSON_ALLOW_NUL, je);
	free(text);
	return doc;
}

// The failure's signature: signal (or "verifier"), pass, and the top
// NFRAMES functions past the C library's abort path.
static struct irs_error *
read_signature(const char *path, struct group *g)
{
	json_error_t je;
	json_t *f = load_doc(path, &je);
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
		struct group *old = &rp->groups[i];
		old->count++;
		a->group = (int)i;
		group_deinit(g);
		if (a->n < old->first) {	// -j: attempts end out of order
			char *run = strdup(a->run);
			if (!run)
				return &irs_enomem;
			free(old->run);
			old->run = run;
			old->first = a->n;
		}
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
	json_t *m = load_doc(path, NULL);
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

/* {==== The hunt's failure marker (--stop-after-failures) ================ */

// The shards of a hunt share an output root; each failure any of them
// finds is one line "HOST SHARD ATTEMPT SIGNATURE" of <root>/
// hunt-failures.txt, appended with O_APPEND so lines from shards on one
// file system do not mix, and read before each attempt starts.

static struct irs_error *
mark_hunt_failure(const struct replay *rp, const struct attempt *a)
{
	struct irs_buf line;
	irs_buf_init(&line);
	irs_buf_printf(&line, "%s %u/%u %u ", rp->host, rp->shard,
		       rp->nshards, a->n);
	for (const char *p = rp->groups[a->group].title; *p; p++)
		irs_buf_append(&line, *p == '\n' ? " " : p, 1);
	irs_buf_puts(&line, "\n");
	if (line.oom) {
		irs_buf_deinit(&line);
		return &irs_enomem;
	}
	int fd = open(rp->marker, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
		      O_NOFOLLOW, 0666);
	ssize_t w = fd < 0 ? -1 : write(fd, line.data, line.len);
	int e = w < 0 ? errno : EIO;
	bool whole = w >= 0 && (size_t)w == line.len;
	if (fd >= 0)
		close(fd);
	irs_buf_deinit(&line);
	if (!whole)
		return irs_error_format(IRS_ERROR_IO, "%s: cannot append: %s",
					rp->marker, strerror(e));
	return NULL;
}

// The failures all shards of the hunt have marked so far (0 when there
// is no marker yet).
static uint32_t
hunt_failures(const struct replay *rp)
{
	FILE *fp = fopen(rp->marker, "re");
	if (!fp)
		return 0;
	uint32_t n = 0;
	int c;
	while ((c = getc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

/* }==== */

// One attempt under way: its debugger, its files, its attempt index.
struct slot {
	struct irs_child child;	// pid 0: free
	uint32_t index;		// in rp->attempts
	char *adir, *log, *owned[5], **argv;
	double t0;
};

static void
slot_clear(struct slot *sl)
{
	for (size_t i = 0; i < ARRAY_SIZE(sl->owned); i++)
		free(sl->owned[i]);
	free(sl->argv);
	free(sl->log);
	free(sl->adir);
	*sl = (struct slot){0};
}

// Starts attempt @p n in free slot @p sl.
static struct irs_error *
attempt_start(struct replay *rp, struct slot *sl, uint32_t n)
{
	struct irs_error *err;
	struct attempt *as = realloc(rp->attempts,
				     (rp->nattempts + 1) * sizeof(*as));
	if (!as)
		return &irs_enomem;
	rp->attempts = as;
	sl->index = rp->nattempts++;
	as[sl->index] = (struct attempt){.n = n, .group = -1,
					 .status = "error", .exit_status = -1};
	if (asprintf(&sl->adir, "%s/attempt-%03u", rp->abs, n) < 0) {
		sl->adir = NULL;
		return &irs_enomem;
	}
	err = irs_mkdirs(sl->adir);
	if (!err && !(sl->argv = debugger_argv(rp, sl->adir, n, sl->owned)))
		err = &irs_enomem;
	if (!err && !(sl->log = irs_path_join(sl->adir, "debugger.log")))
		err = &irs_enomem;
	char env_attempt[32], env_shard[48];
	snprintf(env_attempt, sizeof(env_attempt), "IRSNAP_ATTEMPT=%u", n);
	snprintf(env_shard, sizeof(env_shard), "IRSNAP_SHARD=%u/%u",
		 rp->shard, rp->nshards);
	const char *env[] = {env_attempt, env_shard, NULL};
	double timeout = rp->cfg->timeout > 0 ? rp->cfg->timeout : 300;
	sl->t0 = now();
	if (!err)
		err = irs_child_start(sl->argv, sl->log, sl->adir, env, timeout,
				      &sl->child);
	return err;
}

// Judges the attempt of slot @p sl, whose debugger ended with @p status.
static struct irs_error *
attempt_finish(struct replay *rp, struct slot *sl, int status)
{
	struct irs_error *err;
	struct attempt *a = &rp->attempts[sl->index];
	uint32_t n = a->n;
	a->seconds = now() - sl->t0;
	err = judge_attempt(rp, a, sl->adir, status);
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
		err = no_run_error(rp, n, sl->log);
	if (!err && a->group >= 0 &&
	    (rp->nshards > 1 || rp->cfg->stop_after_failures))
		err = mark_hunt_failure(rp, a);
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
	irs_shell_quote(&exe, rp->prog);
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
// --bug=flaky).
struct irs_error *
irs_failure_test_command(const char *run, char **ret)
{
	struct irs_error *err = NULL;
	char **words = NULL;

	*ret = NULL;
	char *path = irs_path_join(run, "failure.json");
	if (!path)
		return &irs_enomem;
	json_t *f = load_doc(path, NULL);
	free(path);
	const char *rc = json_string_value(json_object_get(f,
							   "reduce_command"));
	if (rc)
		err = irs_shell_split(rc, &words);
	for (size_t k = 0; !err && words && words[k] && words[k + 1]; k++) {
		if (strcmp(words[k], "--crash") && strcmp(words[k], "--test"))
			continue;
		if (!(*ret = strdup(words[k + 1])))
			err = &irs_enomem;
		break;
	}
	irs_shell_words_free(words);
	json_decref(f);
	return err;
}

struct irs_error *
irs_replay_reduce(const char *self, const char *run, const char *crash_cmd,
		  uint32_t retries, bool trust, const char *log,
		  volatile sig_atomic_t *stop, char **status_ret,
		  char **line_ret)
{
	struct irs_error *err;
	char nretries[16];
	int status;

	snprintf(nretries, sizeof(nretries), "%u", retries);
	char *argv[9] = {(char *)self, "reduce", (char *)run, "--retries",
			 nretries};
	size_t n = 5;
	if (trust)
		argv[n++] = "--trust";
	if (crash_cmd) {
		argv[n++] = "--crash";
		argv[n++] = (char *)crash_cmd;
	}
	argv[n] = NULL;
	err = irs_child_run(argv, log, NULL, 3600, stop, &status);
	if (err)
		return err;
	char how[32];
	if (status == -1)
		snprintf(how, sizeof(how), "stopped");
	else if (WIFEXITED(status))
		snprintf(how, sizeof(how), "exit status %d",
			 WEXITSTATUS(status));
	else
		snprintf(how, sizeof(how), "signal %d", WTERMSIG(status));
	char *st = NULL;
	if (!strcmp(how, "exit status 0"))
		st = strdup("reduced");
	else if (asprintf(&st, "failed (%s; see %s)", how, log) < 0)
		st = NULL;
	if (!st)
		return &irs_enomem;
	*status_ret = st;
	*line_ret = last_line(log);
	return NULL;
}

// `irsnap reduce RUN --retries R [--crash CMD]` into RUN/repro/, its own
// output in attempt-NNN/reduce.out.
static struct irs_error *
reduce_group(struct replay *rp, struct group *g)
{
	struct irs_error *err = NULL;
	char *run = NULL, *log = NULL;

	bool is_auto = !strcmp(rp->cfg->reduce, "auto");
	uint32_t retries = reduce_retries(rp);
	if (asprintf(&run, "%s/attempt-%03u/%s", rp->abs, g->first,
		     g->run) < 0)
		run = NULL;
	if (asprintf(&log, "%s/attempt-%03u/reduce.out", rp->dir,
		     g->first) < 0)
		log = NULL;
	if (!run || !log)
		err = &irs_enomem;
	else if (is_auto)
		err = irs_failure_test_command(run, &g->reduce_cmd);
	else if (!(g->reduce_cmd = crash_command(rp, g)))
		err = &irs_enomem;
	if (err)
		goto out;
	progress(rp, "reducing %s (attempt %u, %u retries%s%s) ...\n",
		 g->title, g->first, retries,
		 g->reduce_cmd ? ", crash command: " : "",
		 g->reduce_cmd ? g->reduce_cmd : "");
	// --trust: this replay made the run a moment ago (its failure.json
	// is the debugger's, not a stranger's), whatever the umask let others
	// do to it since.
	err = irs_replay_reduce(rp->self, run, is_auto ? NULL : g->reduce_cmd,
				retries, true, log, &interrupted, &g->reduce_status,
				&g->reduce_line);
	if (!err) {
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

// Where @p n goes in the ascending array of integers @p a.
static size_t
sorted_place(json_t *a, uint32_t n)
{
	size_t i = json_array_size(a);
	while (i && json_integer_value(json_array_get(a, i - 1)) > n)
		i--;
	return i;
}

static json_t *
group_json(const struct replay *rp, const struct group *g)
{
	json_t *frames = json_array(), *attempts = json_array();
	for (int i = 0; i < NFRAMES && g->frames[i]; i++)
		json_array_append_new(frames, irs_json_text(g->frames[i]));
	for (uint32_t i = 0; i < rp->nattempts; i++)	// in number order
		if (rp->attempts[i].group == (int)(g - rp->groups))
			json_array_insert_new(attempts,
					      sorted_place(attempts,
							   rp->attempts[i].n),
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

static int
attempt_cmp(const void *a, const void *b)
{
	const struct attempt *x = *(const struct attempt *const *)a;
	const struct attempt *y = *(const struct attempt *const *)b;
	return (x->n > y->n) - (x->n < y->n);
}

// replay.json: what ran and what it found; paths relative to the replay
// directory, like the snapshot paths of a manifest. Attempts in number
// order, whatever order -j finished them in; status "running" until the
// replay ends, so a shard killed mid-hunt leaves what it had found.
static struct irs_error *
write_json(const struct replay *rp)
{
	json_t *cmd = json_array(), *attempts = json_array(),
	       *groups = json_array();
	for (size_t i = 0; rp->cfg->argv[i]; i++)
		json_array_append_new(cmd, irs_json_text(rp->cfg->argv[i]));
	const struct attempt **order = calloc(rp->nattempts + 1,
					      sizeof(*order));
	if (!order) {
		json_decref(cmd);
		json_decref(attempts);
		json_decref(groups);
		return &irs_enomem;
	}
	for (uint32_t i = 0; i < rp->nattempts; i++)
		order[i] = &rp->attempts[i];
	qsort(order, rp->nattempts, sizeof(*order), attempt_cmp);
	for (uint32_t i = 0; i < rp->nattempts; i++)
		json_array_append_new(attempts, attempt_json(rp, order[i]));
	free(order);
	for (uint32_t i = 0; i < rp->ngroups; i++)
		json_array_append_new(groups, group_json(rp, &rp->groups[i]));
	json_t *shard = json_pack("{s:i, s:i}", "index", (json_int_t)rp->shard,
				  "count", (json_int_t)rp->nshards);
	json_t *doc = json_pack("{s:s, s:s, s:s, s:o, s:o, s:i, s:s, s:o, "
				"s:o, s:o, s:o, s:o, s:i, s:b, s:o, s:i, s:i, "
				"s:o, s:o}",
		"schema", "irsnap.replay/2", "replay_id", rp->id,
		"status", rp->status, "host", irs_json_text(rp->host),
		"shard", shard, "jobs", (json_int_t)(rp->cfg->jobs
						       ? rp->cfg->jobs : 1),
		"debugger", rp->debugger,
		"stop_after_failures", rp->cfg->stop_after_failures
			? json_integer(rp->cfg->stop_after_failures)
			: json_null(),
		"debugger_exe", irs_json_text(rp->debugger_exe),
		"layout", irs_json_text(rp->layout),
		"trace", irs_json_text(rp->cfg->trace),
		"command", cmd, "runs", (json_int_t)rp->cfg->runs,
		"all", rp->cfg->all, "reduce", irs_json_text(rp->cfg->reduce),
		"failures", (json_int_t)rp->failures,
		"timeouts", (json_int_t)rp->timeouts,
		"attempts", attempts, "groups", groups);
	return irs_json_write(rp->abs, "replay.json", doc,
			      JSON_INDENT(2) | JSON_REAL_PRECISION(6));
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
	if (cfg->nshards && cfg->shard >= cfg->nshards)
		return irs_error_format(IRS_ERROR_USAGE, "replay: --shard "
					"%u/%u: K counts from 0 and stays "
					"below N", cfg->shard, cfg->nshards);
	if (cfg->jobs > 256)
		return irs_error_format(IRS_ERROR_USAGE, "replay: -j %u: at "
					"most 256 attempts at once",
					cfg->jobs);
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
	free(rp->host);
	free(rp->marker);
	for (uint32_t i = 0; i < rp->nattempts; i++)
		free(rp->attempts[i].run);
	free(rp->attempts);
	for (uint32_t i = 0; i < rp->ngroups; i++)
		group_deinit(&rp->groups[i]);
	free(rp->groups);
}

// Whether this shard should start no more attempts: ^C, a failure (unless
// --all), or --stop-after-failures M met by the failures all shards of
// the hunt wrote to the marker file.
static bool
should_stop(const struct replay *rp)
{
	if (interrupted || (rp->failures && !rp->cfg->all))
		return true;
	uint32_t m = rp->cfg->stop_after_failures;
	return m && hunt_failures(rp) >= m;
}

// The attempts of this shard, -j at a time, until one fails (or all are
// made, with --all). Attempts under way when the replay stops starting
// new ones run to their end: their outcome is real data, and a killed
// debugger would leave a half-written run behind.
static struct irs_error *
replay_attempts(struct replay *rp)
{
	struct irs_error *err = NULL;
	struct sigaction sa = {.sa_handler = on_sigint}, old;
	uint32_t jobs = rp->cfg->jobs ? rp->cfg->jobs : 1;
	struct slot *slots = calloc(jobs, sizeof(*slots));
	struct irs_child *children = calloc(jobs, sizeof(*children));
	if (!slots || !children) {
		free(slots);
		free(children);
		return &irs_enomem;
	}
	interrupted = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);	// ^C ends the attempts, then the replay
	uint32_t next = rp->shard + 1, running = 0;
	for (;;) {
		for (uint32_t k = 0; !err && k < jobs && next <= rp->cfg->runs &&
		     !should_stop(rp); k++) {
			if (slots[k].child.pid)
				continue;
			err = attempt_start(rp, &slots[k], next);
			next += rp->nshards;
			if (err) {
				slot_clear(&slots[k]);
				break;
			}
			running++;
		}
		if (!running)
			break;
		for (uint32_t k = 0; k < jobs; k++)
			children[k] = slots[k].child;
		size_t done;
		int status;
		struct irs_error *werr = irs_child_wait_any(children, jobs,
							    &interrupted,
							    &done, &status);
		if (werr) {
			irs_error_destroy(err);
			err = werr;
			break;
		}
		slots[done].child.pid = 0;
		running--;
		struct irs_error *ferr = attempt_finish(rp, &slots[done],
							status);
		slot_clear(&slots[done]);
		if (!err)
			err = ferr;
		else
			irs_error_destroy(ferr);
		struct irs_error *jerr = write_json(rp);	// as it goes
		if (!err)
			err = jerr;
		else
			irs_error_destroy(jerr);
		if (err)
			interrupted = 1;	// wind down the others
	}
	for (uint32_t k = 0; k < jobs; k++)
		slot_clear(&slots[k]);
	free(slots);
	free(children);
	if (!err && rp->cfg->reduce && !interrupted)
		err = replay_reduce(rp);
	sigaction(SIGINT, &old, NULL);
	if (!err && rp->nattempts && rp->timeouts == rp->nattempts)
		err = irs_error_format(IRS_ERROR_LIMIT, "every attempt timed "
				       "out; see %s/attempt-%03u/debugger.log "
				       "(--timeout S gives them longer)",
				       rp->dir, rp->attempts[0].n);
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
	rp.shard = cfg->nshards ? cfg->shard : 0;
	rp.nshards = cfg->nshards ? cfg->nshards : 1;
	rp.status = "running";
	if (!(rp.host = host_name())) {
		err = &irs_enomem;
		goto out;
	}
	err = replay_prepare(&rp);
	if (err)
		goto out;
	uint32_t mine = c.runs > rp.shard
			? (c.runs - rp.shard + rp.nshards - 1) / rp.nshards : 0;
	if (rp.nshards > 1)
		progress(&rp, "replay %s: %s under %s, shard %u of %u: up to "
			 "%u of %u runs%s\n", rp.dir, cfg->argv[0],
			 rp.debugger, rp.shard, rp.nshards, mine, c.runs,
			 c.jobs > 1 ? "" : "");
	else
		progress(&rp, "replay %s: %s under %s, up to %u run%s\n",
			 rp.dir, cfg->argv[0], rp.debugger, c.runs,
			 c.runs == 1 ? "" : "s");
	err = replay_attempts(&rp);
	rp.status = interrupted ? "interrupted" : "completed";
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
