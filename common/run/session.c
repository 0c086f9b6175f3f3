// A tracing session: one run directory, its manifest (header and
// summary) and its event log, one line per pass boundary. Every public
// call leaves the directory valid: snapshot files first, then the event
// line that names them, and when a write fails the call undoes its own
// files and in-memory event, so the log on disk and the session agree.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run.h"

// Lines of passes `ir-status` shows; older ones are summed up in one line.
enum { STATUS_PASSES = 20 };

struct event {
	uint32_t seq;
	uint32_t position;	// in the pipeline (irs_session_set_position)
	char *pass;
	char *instance;		// irs_session_set_instance(), or NULL
	char *rerun_pass;	// irs_session_set_rerun_pass(), or NULL
	char *type;		// layout type of the root, NULL: the default
	uint64_t root;
	bool open;		// begun, not yet ended
	bool lost;		// its before snapshot could not be written
	bool has_cpu0;
	double cpu0;		// debuggee CPU seconds at entry
	bool has_cpu;
	double cpu_s;		// spent in the pass, once ended
	char hash[17];		// of the before text
	uint64_t nodes;		// of the before walk
	char *text, *json;	// before snapshot, relative; NULL: not written
	// its lines (before, after) as written, for writing them again with
	// what comes later (a verifier's result, a failure's JSON graph):
	// kept while the event is open and while it is the last one ended
	// (json_seq)
	char *lines[2];
	// the IR's bytes at entry, for the JSON graph of the pass's input
	// should it fail (failure_json without write_json); a reference
	struct irs_image *image;
};

// The session's last walk: what it read and the files it wrote. A later
// snapshot of the same root whose bytes all read the same is a copy of
// those files, not a walk: between one pass's after and the next pass's
// before, and across a pass that left the IR alone, nothing changes.
struct last_walk {
	bool valid;
	uint64_t root;
	char *type;		// NULL: the default
	struct irs_mem_print print;
	char *text, *json;	// its files, relative; NULL: format off
	uint32_t seq;
	const char *phase;	// static
	struct irs_snapshot_stats st;
	struct irs_image *image;	// its bytes, once kept; a reference
};

struct irs_session {
	const struct irs_layout *lo;
	struct last_walk last;
	struct irs_session_config cfg;	// strings point into the copies:
	char *debugger, *debuggee, *args, *layout_path;
	char *dir;		// the run directory, absolute
	struct irs_manifest man;
	struct irs_event_log log;
	// new snapshot files, made ahead by a thread: a file's making is the
	// costly part of writing it, and the debuggee waits at the stop
	struct irs_file_pool *files;
	uint32_t json_seq;	// the ended event whose lines are kept
	struct event *events;
	uint32_t nevents, capevents;
	uint32_t nlost;		// snapshots lost to write errors
	bool failed;
	uint32_t next_position;	// irs_session_set_position(), 0: unknown
	char *next_instance;	// irs_session_set_instance(), or NULL
	char *next_rerun_pass;	// irs_session_set_rerun_pass(), or NULL
	// the image of the pass that ended last, kept for a verifier's
	// failure, which comes after the pass returned
	struct irs_image *ended_image;
	uint32_t ended_seq;
	struct irs_image_pool pool;	// outlives every image
	// the renderings of the outermost reduce unit's nodes, kept from one
	// text-only walk of units_root as units_type to the next (NULL: none
	// made yet, or the layout has no units)
	struct irs_unit_cache *units;
	uint64_t units_root;
	char *units_type;
};

/* {==== Creation ========================================================= */

static bool
copy_str(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return !src || *dst;
}

static bool
copy_config(struct irs_session *s, const struct irs_session_config *cfg)
{
	s->cfg = *cfg;
	if (!copy_str(&s->debugger, cfg->debugger) ||
	    !copy_str(&s->debuggee, cfg->debuggee) ||
	    !copy_str(&s->args, cfg->args) ||
	    !copy_str(&s->layout_path, cfg->layout_path))
		return false;
	s->cfg.dir = NULL;	// only needed to create the directory
	s->cfg.debugger = s->debugger;
	s->cfg.debuggee = s->debuggee;
	s->cfg.args = s->args;
	s->cfg.layout_path = s->layout_path;
	// Neither format asked for is a caller who left the defaults.
	if (!s->cfg.write_text && !s->cfg.write_json)
		s->cfg.write_text = s->cfg.write_json = true;
	return true;
}

// The first manifest of the run and its empty event log, written in the
// staging directory under the name the run is about to get.
static struct irs_error *
fill_run(void *arg, const char *stage_dir, const char *final_dir,
	 const char *id)
{
	struct irs_session *s = arg;
	(void)final_dir;
	irs_manifest_deinit(&s->man);	// a name taken: start over
	irs_event_log_close(&s->log);
	struct irs_error *err = irs_manifest_init(&s->man, stage_dir, id,
		&s->cfg, s->lo ? irs_layout_name(s->lo) : NULL);
	if (!err)
		err = irs_event_log_create(&s->log, stage_dir);
	return err ? err : irs_manifest_save(&s->man);
}

struct irs_error *
irs_session_create(const struct irs_session_config *cfg,
		   const struct irs_layout *lo, struct irs_session **ret)
{
	struct irs_error *err;
	char *id = NULL;

	struct irs_session *s = calloc(1, sizeof(*s));
	if (!s)
		return &irs_enomem;
	s->log.fd = -1;
	s->lo = lo;
	if (!copy_config(s, cfg)) {
		irs_session_destroy(s);
		return &irs_enomem;
	}
	const char *root = irs_rundir_root(cfg->dir);
	err = irs_rundir_create(root, cfg->pid, fill_run, s, &s->dir, &id);
	if (err) {
		irs_session_destroy(s);
		return err;
	}
	// The manifest and the log moved with their directory.
	free(s->man.path);
	s->man.path = irs_path_join(s->dir, "manifest.json");
	// The run directory's parent, absolute: s->dir minus "/<id>".
	char *root_abs = strndup(s->dir, strlen(s->dir) - strlen(id) - 1);
	if (!s->man.path || !root_abs || !irs_event_log_rename(&s->log,
							       s->dir))
		err = &irs_enomem;
	else
		err = irs_rundir_link_latest(root_abs, id);
	free(root_abs);
	free(id);
	if (err) {
		irs_rundir_remove_empty(s->dir);	// a session that could not start
		irs_session_destroy(s);
		return err;
	}
	char *snaps = irs_path_join(s->dir, "snapshots");
	// IRSNAP_FILE_POOL=0 makes each file at its stop, to compare
	const char *env = getenv("IRSNAP_FILE_POOL");
	err = env && !strcmp(env, "0") ? NULL : !snaps ? &irs_enomem
	      : irs_file_pool_create(snaps, 16, &s->files);
	free(snaps);
	if (err) {	// the run is there: it writes without a pool
		irs_error_destroy(err);
		s->files = NULL;
	}
	if (irs_debug('S'))
		fprintf(stderr, "irsnap: session %s\n", s->dir);
	*ret = s;
	return NULL;
}

static void
last_forget(struct last_walk *l)
{
	free(l->type);
	free(l->text);
	free(l->json);
	irs_image_unref(l->image);
	irs_mem_print_deinit(&l->print);
	memset(l, 0, sizeof(*l));
}

// Drops the lines @p ev keeps: nothing will be added to them.
static void
event_retire(struct event *ev)
{
	free(ev->lines[0]);
	free(ev->lines[1]);
	ev->lines[0] = ev->lines[1] = NULL;
}

static void
event_deinit(struct event *ev)
{
	event_retire(ev);
	free(ev->pass);
	free(ev->instance);
	free(ev->rerun_pass);
	free(ev->type);
	free(ev->text);
	free(ev->json);
	irs_image_unref(ev->image);
}

void
irs_session_destroy(struct irs_session *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nevents; i++)
		event_deinit(&s->events[i]);
	free(s->events);
	free(s->next_instance);
	free(s->next_rerun_pass);
	last_forget(&s->last);
	irs_image_unref(s->ended_image);
	irs_image_pool_deinit(&s->pool);
	irs_unit_cache_destroy(s->units);
	free(s->units_type);
	irs_event_log_close(&s->log);
	irs_file_pool_destroy(s->files);
	irs_manifest_deinit(&s->man);
	free(s->dir);
	free(s->debugger);
	free(s->debuggee);
	free(s->args);
	free(s->layout_path);
	free(s);
}

const char *
irs_session_dir(const struct irs_session *s)
{
	return s->dir;
}

/* }==== Snapshots ======================================================== */

// One snapshot's two files, relative to the run directory (NULL when the
// format is off).
struct names {
	char *text, *json;
};

static void
names_deinit(struct names *n)
{
	free(n->text);
	free(n->json);
	memset(n, 0, sizeof(*n));
}

static bool
same_name(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

// Deletes @p n's files; the last walk's, when they were, can no longer be
// copied.
static void
names_unlink(struct irs_session *s, const struct names *n)
{
	irs_rundir_unlink(s->dir, n->text);
	irs_rundir_unlink(s->dir, n->json);
	if (same_name(s->last.text, n->text) ||
	    same_name(s->last.json, n->json))
		last_forget(&s->last);
}

// The names of the formats @p text and @p json.
static struct irs_error *
names_init_as(struct names *n, uint32_t seq, const char *pass,
	      const char *phase, bool text, bool json)
{
	memset(n, 0, sizeof(*n));
	if (text &&
	    !(n->text = irs_rundir_snapshot_name(seq, pass, phase, "ir")))
		return &irs_enomem;
	if (json &&
	    !(n->json = irs_rundir_snapshot_name(seq, pass, phase, "json"))) {
		names_deinit(n);
		return &irs_enomem;
	}
	return NULL;
}

static struct irs_error *
names_init(struct names *n, const struct irs_session *s, uint32_t seq,
	   const char *pass, const char *phase)
{
	return names_init_as(n, seq, pass, phase, s->cfg.write_text,
			     s->cfg.write_json);
}

static bool same_type(const char *a, const char *b);

// The unit cache for a walk of @p root as @p type into @p n, or NULL: a
// walk with JSON does not use one, and one of another root or type
// starts empty.
static struct irs_unit_cache *
units_for(struct irs_session *s, uint64_t root, const char *type,
	  const struct names *n)
{
	const struct ltype *t;
	if (n->json || !n->text || !s->lo->nunits)
		return NULL;
	// IRSNAP_UNIT_CACHE=0 walks every unit, to compare
	const char *env = getenv("IRSNAP_UNIT_CACHE");
	if (env && !strcmp(env, "0"))
		return NULL;
	if (!s->units) {
		struct irs_error *err = irs_layout_type_for(s->lo,
							    s->lo->units[0],
							    &t);
		if (!err)
			err = irs_unit_cache_create(s->lo, t->index,
						    &s->units);
		if (err) {
			irs_error_destroy(err);
			return NULL;
		}
	}
	if (s->units_root != root || !same_type(s->units_type, type)) {
		irs_unit_cache_forget(s->units);
		free(s->units_type);
		s->units_type = NULL;
		s->units_root = 0;
		if (type && !(s->units_type = strdup(type)))
			return NULL;
		s->units_root = root;
	}
	return s->units;
}

// Walks the IR at @p root into the files @p n names.
static struct irs_error *
snapshot(struct irs_session *s, struct irs_memory *mem, uint64_t root,
	 const char *type, const struct names *n, struct irs_snapshot **ret)
{
	struct irs_error *err = NULL;
	char *text = NULL, *json = NULL;

	if ((n->text && !(text = irs_path_join(s->dir, n->text))) ||
	    (n->json && !(json = irs_path_join(s->dir, n->json))))
		err = &irs_enomem;
	struct irs_unit_cache *units = err ? NULL
		: units_for(s, root, type, n);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!err)
		err = irs_snapshot_write_files(s->lo, mem, root, type,
					       &s->cfg.limits, text, json,
					       units, s->files, ret);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!err && irs_debug('S')) {
		uint64_t reused = 0, walked = 0;
		if (units)
			irs_unit_cache_stats(units, &reused, &walked);
		fprintf(stderr, "irsnap: session: %s: %llu units from the "
			"cache, %llu walked, %.4f s\n",
			n->text ? n->text : n->json,
			(unsigned long long)reused,
			(unsigned long long)walked,
			(double)(t1.tv_sec - t0.tv_sec) +
			(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	}
	if (err) {
		// One of the pair may already be in place; neither is wanted.
		names_unlink(s, n);
		err = irs_rundir_name_error(err, text, json);
		// Say which snapshot, unless the error does.
		const char *path = text ? text : json;
		if (path && !strstr(err->message, s->dir))
			err = irs_error_prefix(err, path);
	}
	free(text);
	free(json);
	return err;
}

static bool
same_type(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

// Whether a walk of @p root as @p type would write what the last one did:
// the same bytes read the same, and the layout renders from memory alone.
// With @p keep (a pass's entry, whose bytes keep_image() will want), the
// bytes are copied while they are compared: one read for both.
static bool
unchanged(struct irs_session *s, struct irs_memory *mem, uint64_t root,
	  const char *type, const struct names *n, bool keep)
{
	struct last_walk *l = &s->last;
	if (!(l->valid && !s->lo->walk_lua && l->root == root &&
	      same_type(l->type, type) && (!n->text || l->text) &&
	      (!n->json || l->json)))
		return false;
	if (!keep || l->image) {
		if (irs_memory_print_matches(mem, &l->print))
			return true;
		// Pages differ; the bytes the walk read may not: a pass's
		// scratch buffers share pages with the IR (a per-function
		// pass that changed nothing, about half of them, issue 26).
		struct irs_unit_cache *units = keep ? NULL
			: units_for(s, root, type, n);
		if (!units || !irs_unit_cache_whole_unchanged(units, mem, root))
			return false;
		// The pages as they are now, for the checks to come; bytes
		// kept from before hold other scratch than these pages.
		irs_memory_print_refresh(mem, &l->print);
		irs_image_unref(l->image);
		l->image = NULL;
		return true;
	}
	struct irs_image *img;
	struct irs_error *err = irs_image_capture(mem, &l->print, &s->pool,
						  &img);
	if (err) {
		irs_error_destroy(err);
		return false;
	}
	if (!irs_image_matches(img, &l->print, mem)) {
		irs_image_unref(img);
		return false;
	}
	l->image = img;
	return true;
}

// Copies the last walk's files to @p n; false (nothing written) when that
// cannot be done, for a walk to do it instead.
static bool
copy_last(struct irs_session *s, uint64_t root, const char *type,
	  const struct names *n)
{
	const struct last_walk *l = &s->last;
	if (same_name(l->text, n->text) || same_name(l->json, n->json))
		return false;	// the same files: nothing to copy from
	char *paths[4] = {
		n->text ? irs_path_join(s->dir, l->text) : NULL,
		n->json ? irs_path_join(s->dir, l->json) : NULL,
		n->text ? irs_path_join(s->dir, n->text) : NULL,
		n->json ? irs_path_join(s->dir, n->json) : NULL,
	};
	struct irs_error *err = NULL;
	if ((n->text && (!paths[0] || !paths[2])) ||
	    (n->json && (!paths[1] || !paths[3])))
		err = &irs_enomem;
	else
		err = irs_snapshot_copy(s->lo, root, type, paths[0], paths[1],
					paths[2], paths[3]);
	if (err && irs_debug('S'))
		fprintf(stderr, "irsnap: session: walking, not copying: %s\n",
			err->message);
	irs_error_destroy(err);
	for (int i = 0; i < 4; i++)
		free(paths[i]);
	return !err;
}

// Records the walk that wrote @p n as the session's last.
static void
last_set(struct irs_session *s, uint64_t root, const char *type,
	 const struct names *n, uint32_t seq, const char *phase,
	 struct irs_mem_print *print, const struct irs_snapshot_stats *st)
{
	struct last_walk *l = &s->last;
	last_forget(l);
	l->print = *print;
	memset(print, 0, sizeof(*print));
	l->root = root;
	l->seq = seq;
	l->phase = phase;
	l->st = *st;
	l->valid = (!type || (l->type = strdup(type))) &&
		   (!n->text || (l->text = strdup(n->text))) &&
		   (!n->json || (l->json = strdup(n->json)));
	if (!l->valid)
		last_forget(l);
}

// The snapshot of a pass event into the files @p n names, with its stats
// in *st: a copy of the last walk's files when nothing it read has
// changed (*copied), else a walk that becomes the last.
static struct irs_error *
take(struct irs_session *s, struct irs_memory *mem, uint64_t root,
     const char *type, const struct names *n, uint32_t seq,
     const char *phase, struct irs_snapshot_stats *st, bool *copied)
{
	*copied = false;
	bool keep = !strcmp(phase, "before") && s->cfg.failure_json && !n->json;
	if (unchanged(s, mem, root, type, n, keep) &&
	    copy_last(s, root, type, n)) {
		*st = s->last.st;
		*copied = true;
		// The copy's JSON names its own text file, so its size can
		// differ from the original's by that name's length.
		struct stat jst;
		char *jp = n->json ? irs_path_join(s->dir, n->json) : NULL;
		if (jp && stat(jp, &jst) == 0)
			st->json_bytes = (uint64_t)jst.st_size;
		free(jp);
		return NULL;
	}
	struct irs_mem_print print = { 0 };
	struct irs_snapshot *snap;
	irs_memory_record(mem, &print);
	struct irs_error *err = snapshot(s, mem, root, type, n, &snap);
	irs_memory_record(mem, NULL);
	if (err) {
		irs_mem_print_deinit(&print);
		last_forget(&s->last);
		return err;
	}
	irs_snapshot_get_stats(snap, st);
	irs_snapshot_destroy(snap);
	last_set(s, root, type, n, seq, phase, &print, st);
	irs_mem_print_deinit(&print);
	return NULL;
}

// The bytes of the last walk, which read the same now (it was just taken,
// or copied because nothing it read has changed), kept for event @p ev:
// the JSON graph of its input, should the pass fail, is a walk over them.
// Best effort: without them a failure's input has its text alone.
static void
keep_image(struct irs_session *s, struct irs_memory *mem, struct event *ev)
{
	struct last_walk *l = &s->last;
	if (!l->valid || l->root != ev->root || !same_type(l->type, ev->type))
		return;
	if (!l->image) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		struct irs_error *err = irs_image_capture(mem, &l->print,
							  &s->pool, &l->image);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (err && irs_debug('S'))
			fprintf(stderr, "irsnap: session: the IR's bytes at "
				"%s's entry not kept: %s\n", ev->pass,
				err->message);
		irs_error_destroy(err);
		if (!err && irs_debug('S'))
			fprintf(stderr, "irsnap: session: kept %llu bytes of "
				"the IR at %s's entry, %.4f s\n",
				(unsigned long long)irs_image_bytes(l->image),
				ev->pass, (double)(t1.tv_sec - t0.tv_sec) +
				(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	}
	ev->image = irs_image_ref(l->image);
}

/* }==== Pass events ====================================================== */

static struct event *
find_event(struct irs_session *s, uint32_t seq)
{
	if (seq == 0 || seq > s->nevents)
		return NULL;
	return &s->events[seq - 1];	// seq n is the n-th event begun
}

static void
cpu_now(const struct irs_session *s, bool *has, double *cpu)
{
	*has = false;
	if (s->cfg.pid <= 0 || s->cfg.pid_is_history)
		return;
	struct irs_error *err = irs_proc_cpu_time(s->cfg.pid, cpu);
	*has = !err;
	irs_error_destroy(err);	// a process gone is "no time", not a failure
}

static struct irs_error *
check_begin(struct irs_session *s, struct irs_memory *mem,
	    const char *pass, uint64_t root)
{
	if (!s->lo)
		return irs_error_format(IRS_ERROR_STATE,
					"no layout: cannot snapshot pass %s",
					pass ? pass : "(null)");
	if (!pass || !mem || !root)
		return irs_error_format(IRS_ERROR_USAGE, "pass %s: %s",
					pass ? pass : "(null)",
					!pass ? "no pass name" : !mem ?
					"no memory reader" : "no IR root");
	if (s->nevents == s->capevents) {
		// Grown here, before anything is written, so no later step
		// can fail for lack of a slot.
		uint32_t cap = s->capevents ? 2 * s->capevents : 16;
		struct event *e = realloc(s->events, cap * sizeof(*e));
		if (!e)
			return &irs_enomem;
		s->events = e;
		s->capevents = cap;
	}
	return NULL;
}

// Saves the manifest with the summary as it stands.
static struct irs_error *
save(struct irs_session *s)
{
	if (!irs_manifest_set_summary(&s->man, s->log.nlines, s->nevents))
		return &irs_enomem;
	return irs_manifest_save(&s->man);
}

// Records that the @p phase snapshot of pass @p seq was lost to @p err, a
// write error (a full disk), so the manifest lists it and says the run is
// incomplete; true then. Other errors (an unreadable root) record nothing
// and leave no trace of the pass, as before. Best effort: the save may
// fail as the snapshot did, and then the next one that works carries it.
static bool
lose(struct irs_session *s, uint32_t seq, const char *pass, const char *phase,
     const struct irs_error *err)
{
	if (irs_error_get_code(err) != IRS_ERROR_IO ||
	    !irs_manifest_lost(&s->man, seq, pass, phase,
			       irs_error_get_message(err)))
		return false;
	s->nlost++;
	irs_error_destroy(save(s));
	return true;
}

uint32_t
irs_session_lost(const struct irs_session *s)
{
	return s->nlost;
}

// A new manifest.json now and then, for its summary (best effort: the
// next one, or the run's end, says it too).
static void
checkpoint(struct irs_session *s)
{
	if (irs_manifest_due(&s->man))
		irs_error_destroy(save(s));
}

// Writes event @p d as a new line of the log, *line_ret the line kept
// (freed with free()). Its at_s is now: when each pass ran, for a
// timeline (and a measure of what a trace costs per event).
static struct irs_error *
write_event(struct irs_session *s, struct irs_event_data *d,
	    char **line_ret)
{
	struct irs_buf b;
	irs_buf_init(&b);
	d->at_s = irs_manifest_elapsed(&s->man);
	irs_event_format(&b, d);
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	struct irs_error *err = irs_event_log_append_text(&s->log, b.data,
							  b.len);
	if (err) {
		irs_buf_deinit(&b);
		return err;
	}
	*line_ret = irs_buf_steal(&b);
	return NULL;
}

// Writes the event of *line again, with what @p amend adds to it (@p arg
// its argument; false on OOM): its later line stands for the first.
// *line is replaced only when that is written.
static struct irs_error *
rewrite_event(struct irs_session *s, char **line,
	      bool (*amend)(json_t *ev, const void *arg), const void *arg)
{
	json_error_t je;
	json_t *ev = json_loads(*line, JSON_ALLOW_NUL, &je);
	if (!ev || !amend(ev, arg)) {
		json_decref(ev);
		return &irs_enomem;	// our own line: it parses
	}
	struct irs_error *err = irs_event_log_append(&s->log, ev);
	json_decref(ev);
	if (err)
		return err;
	char *kept = strndup(s->log.line.data, s->log.line.len);
	if (kept) {	// else the old one stays, for the next amendment
		free(*line);
		*line = kept;
	}
	return NULL;
}

struct irs_error *
irs_session_pass_begin_as(struct irs_session *s, struct irs_memory *mem,
			  const char *pass, uint64_t root, const char *type,
			  uint32_t *seq_ret)
{
	struct irs_error *err;
	struct irs_snapshot_stats st;
	struct names n;
	struct event ev = {0};
	bool copied;

	err = check_begin(s, mem, pass, root);
	if (err)
		return err;
	ev.seq = s->nevents + 1;
	ev.root = root;
	ev.open = true;
	if (!copy_str(&ev.pass, pass) || !copy_str(&ev.type, type))
		goto oom;
	// The last pass's verifiers have had their say: its image can go
	// back to the pool for this pass's.
	irs_image_unref(s->ended_image);
	s->ended_image = NULL;
	s->ended_seq = 0;
	err = names_init(&n, s, ev.seq, pass, "before");
	if (err)
		goto fail;
	cpu_now(s, &ev.has_cpu0, &ev.cpu0);
	err = take(s, mem, root, type, &n, ev.seq, "before", &st, &copied);
	if (err)
		goto fail_names;
	memcpy(ev.hash, st.hash, sizeof(ev.hash));
	ev.nodes = st.nodes;
	if (!n.json && s->cfg.failure_json)
		keep_image(s, mem, &ev);
	ev.position = s->next_position;
	s->next_position = 0;
	ev.instance = s->next_instance;
	s->next_instance = NULL;
	ev.rerun_pass = s->next_rerun_pass;
	s->next_rerun_pass = NULL;
	struct irs_event_data d = {
		.seq = ev.seq, .pass = pass, .phase = "before",
		.text = n.text, .json = n.json, .st = &st,
		.position = ev.position, .root = ev.root, .root_type = ev.type,
		.instance = ev.instance,
		.same_as_seq = copied ? s->last.seq : 0,
		.same_as_phase = s->last.phase,
	};
	if ((err = write_event(s, &d, &ev.lines[0])))
		goto fail_files;
	ev.text = n.text;	// the event owns the names now
	ev.json = n.json;
	s->events[s->nevents++] = ev;
	*seq_ret = ev.seq;
	checkpoint(s);
	return NULL;
oom:
	err = &irs_enomem;
	goto fail;
fail_files:
	names_unlink(s, &n);
fail_names:
	names_deinit(&n);
fail:
	// The pass began all the same: it keeps its seq (the next pass's
	// files do not take its name) and the manifest lists it as lost.
	if (lose(s, ev.seq, pass, "before", err) && ev.pass) {
		irs_image_unref(ev.image);
		ev.image = NULL;
		event_retire(&ev);
		ev.open = false;
		ev.lost = true;
		s->events[s->nevents++] = ev;	// check_begin made room
	} else {
		event_deinit(&ev);
	}
	return err;
}

void
irs_session_set_position(struct irs_session *s, uint32_t position)
{
	s->next_position = position;
}

// *slot becomes a copy of @p value (or NULL), the old one freed; *slot
// unchanged on OOM.
static struct irs_error *
set_copy(char **slot, const char *value)
{
	char *copy = value ? strdup(value) : NULL;
	if (value && !copy)
		return &irs_enomem;
	free(*slot);
	*slot = copy;
	return NULL;
}

struct irs_error *
irs_session_set_instance(struct irs_session *s, const char *instance)
{
	return set_copy(&s->next_instance, instance);
}

struct irs_error *
irs_session_set_rerun_pass(struct irs_session *s, const char *rerun_pass)
{
	return set_copy(&s->next_rerun_pass, rerun_pass);
}

struct irs_error *
irs_session_pass_begin(struct irs_session *s, struct irs_memory *mem,
		       const char *pass, uint64_t root, uint32_t *seq_ret)
{
	return irs_session_pass_begin_as(s, mem, pass, root, NULL, seq_ret);
}

// Writes the after event of @p ev from the walk's stats (@p copied: a
// copy of the last walk's files); with changed_only and an unchanged
// text, the after files are deleted and not named.
static struct irs_error *
after_event(struct irs_session *s, struct event *ev, struct names *n,
	    const struct irs_snapshot_stats *st, bool copied)
{
	bool changed = strcmp(st->hash, ev->hash) != 0;
	bool skipped = s->cfg.changed_only && !changed;
	if (skipped)
		names_unlink(s, n);
	struct irs_event_data d = {
		.seq = ev->seq, .pass = ev->pass, .phase = "after",
		.text = n->text, .json = n->json, .skipped = skipped,
		.st = st, .position = ev->position, .root = ev->root,
		.root_type = ev->type, .instance = ev->instance,
		.changed = changed,
		.has_cpu = ev->has_cpu, .cpu_s = ev->cpu_s,
		.same_as_seq = copied ? s->last.seq : 0,
		.same_as_phase = s->last.phase,
	};
	return write_event(s, &d, &ev->lines[1]);
}

struct irs_error *
irs_session_pass_end(struct irs_session *s, struct irs_memory *mem,
		     uint32_t seq)
{
	struct irs_error *err;
	struct irs_snapshot_stats st;
	struct names n;
	struct event *ev = find_event(s, seq);
	bool copied;

	if (!ev || !ev->open)
		return irs_error_format(IRS_ERROR_STATE, "pass event %u is "
					"not open", seq);
	if (!mem)
		return irs_error_format(IRS_ERROR_USAGE, "pass %s: no memory "
					"reader", ev->pass);
	// The debuggee has left the pass whatever happens below.
	ev->open = false;
	irs_image_unref(s->ended_image);
	s->ended_image = ev->image;
	s->ended_seq = seq;
	ev->image = NULL;
	bool has_cpu1;
	double cpu1;
	cpu_now(s, &has_cpu1, &cpu1);
	ev->has_cpu = ev->has_cpu0 && has_cpu1 && cpu1 >= ev->cpu0;
	ev->cpu_s = ev->has_cpu ? cpu1 - ev->cpu0 : 0;
	err = names_init(&n, s, seq, ev->pass, "after");
	if (err) {
		lose(s, seq, ev->pass, "after", err);
		return err;
	}
	err = take(s, mem, ev->root, ev->type, &n, seq, "after", &st, &copied);
	if (err)
		goto out;
	err = after_event(s, ev, &n, &st, copied);
	if (err) {
		names_unlink(s, &n);
		goto out;
	}
	// Its lines are the ones a verifier's result or a failure may add
	// to now; the previous ended event's are done.
	if (s->json_seq && s->json_seq != seq) {
		struct event *old = find_event(s, s->json_seq);
		if (old && !old->open)
			event_retire(old);
	}
	s->json_seq = seq;
	checkpoint(s);
out:
	if (err)
		lose(s, seq, ev->pass, "after", err);
	names_deinit(&n);
	return err;
}

static bool
add_verifier(json_t *ev, const void *arg)
{
	return irs_manifest_event_verifier(ev, arg);
}

struct irs_error *
irs_session_verifier_result(struct irs_session *s, uint32_t seq,
			    const struct irs_verifier_result *r)
{
	struct event *ev = find_event(s, seq);
	if (!ev)
		return irs_error_format(IRS_ERROR_STATE, "no pass event %u",
					seq);
	// The result belongs to the IR the verifier saw: the latest snapshot.
	char **target = ev->lines[1] ? &ev->lines[1] : &ev->lines[0];
	if (!*target)
		return irs_error_format(IRS_ERROR_STATE, "pass event %u is "
					"closed: other passes ended since",
					seq);
	return rewrite_event(s, target, add_verifier, r);
}

struct irs_error *
irs_session_verified(struct irs_session *s, uint32_t seq,
		     const char *verifier, uint32_t problems,
		     const char *output)
{
	struct irs_verifier_result r = {
		.name = verifier, .ran = true, .problems = problems,
		.output = output,
	};
	return irs_session_verifier_result(s, seq, &r);
}

struct irs_error *
irs_session_finish(struct irs_session *s, int32_t exit_status)
{
	if (!irs_manifest_set_status(&s->man, s->failed ? "failed"
						       : "completed") ||
	    json_object_set_new(s->man.root, "exit_status",
				json_integer(exit_status)))
		return &irs_enomem;
	return save(s);
}

struct irs_error *
irs_session_stop(struct irs_session *s, const char *why)
{
	const char *status = json_string_value(json_object_get(s->man.root,
							       "status"));
	if (s->failed || (status && strcmp(status, "running")))
		return NULL;
	if (!irs_manifest_set_status(&s->man, "stopped") ||
	    json_object_set_new(s->man.root, "stopped_by",
				irs_json_text(why ? why : "unknown")))
		return &irs_enomem;
	return save(s);
}

/* }==== Failure ========================================================== */

// The event a failure belongs to: the innermost open event (of @p pass
// when given). A verifier runs after its pass returned, so for one the
// latest event of @p pass will do; a crash in a pass that was not traced
// has no event.
static struct event *
failing_event(struct irs_session *s, const char *pass, bool verifier)
{
	for (uint32_t i = s->nevents; i-- > 0; )
		if (s->events[i].open &&
		    (!pass || !strcmp(s->events[i].pass, pass)))
			return &s->events[i];
	for (uint32_t i = s->nevents; verifier && pass && i-- > 0; )
		if (!strcmp(s->events[i].pass, pass))
			return &s->events[i];
	return NULL;
}

// The best-effort snapshot of the IR at the crash; the walk may fail
// outright (the IR is often what crashed), which is recorded, not raised.
static json_t *
crash_snapshot(struct irs_session *s, struct irs_memory *mem,
	       const struct irs_failure_info *info, const struct event *ev,
	       const char *pass, struct names *n)
{
	struct irs_snapshot *snap = NULL;
	json_t *errors = json_array();

	// A verifier's failure names the IR it rejected, not a crash's.
	const char *phase = !strcmp(info->kind, "verifier") ? "broken"
			    : "crash";
	if (!errors || names_init_as(n, ev ? ev->seq : 0, pass, phase,
				     s->cfg.write_text, s->cfg.write_json ||
				     s->cfg.failure_json)) {
		json_decref(errors);
		return NULL;
	}
	struct irs_error *err = snapshot(s, mem, info->ir_root,
					 ev ? ev->type : NULL, n, &snap);
	if (err) {
		json_array_append_new(errors, irs_json_text(err->message));
		irs_error_destroy(err);
		names_deinit(n);	// no file was left behind
	} else {
		struct irs_snapshot_stats st;
		irs_snapshot_get_stats(snap, &st);
		for (uint32_t i = 0; i < st.nerrors; i++)
			json_array_append_new(errors, irs_json_text(
					irs_snapshot_error(snap, i)));
		irs_snapshot_destroy(snap);
	}
	return json_pack("{s:o, s:o, s:o}", "text", irs_json_text(n->text),
			 "json", irs_json_text(n->json), "walk_errors", errors);
}

struct graph_name {
	const char *name;
	const struct irs_snapshot_stats *st;
};

static bool
add_graph(json_t *ev, const void *arg)
{
	const struct graph_name *g = arg;
	return irs_manifest_event_json(ev, g->name, g->st);
}

// Writes @p ev's before event again, naming JSON graph @p name (stats
// @p st): its later line stands for the first.
static struct irs_error *
name_graph(struct irs_session *s, struct event *ev, const char *name,
	   const struct irs_snapshot_stats *st)
{
	struct graph_name g = { name, st };
	return rewrite_event(s, &ev->lines[0], add_graph, &g);
}

// The JSON graph of failing pass @p ev's input when the trace wrote its
// text alone: a walk over the bytes kept at its entry (@p img), named in
// its before event. Written only when it renders what the before
// snapshot did (the same hash and nodes), so it is what a trace writing
// both formats would have written; best effort otherwise.
static void
input_graph(struct irs_session *s, struct event *ev, struct irs_image *img,
	    struct irs_memory *mem)
{
	struct irs_memory *fm = NULL;
	struct irs_snapshot *snap = NULL;
	struct irs_snapshot_stats st;
	const char *text = ev->text ? strrchr(ev->text, '/') : NULL;
	char *name = irs_rundir_snapshot_name(ev->seq, ev->pass, "before",
					      "json");
	char *path = name ? irs_path_join(s->dir, name) : NULL;
	// Fields the text did not show were not kept; those in memory that
	// nobody writes (strings in the program's .rodata) still read as
	// they did. The others are walk errors of the graph, counted in
	// its event (irs_manifest_event_json), each naming its field.
	struct irs_proc_range *fixed = NULL;
	size_t nfixed = 0;
	if (mem && s->cfg.pid > 0 && !s->cfg.pid_is_history)
		irs_error_destroy(irs_proc_fixed_ranges(s->cfg.pid, &fixed,
							&nfixed));
	struct irs_error *err = path ? irs_image_memory(img, mem, fixed,
							nfixed, &fm)
				     : &irs_enomem;
	if (!err)
		err = irs_snapshot_write_json(s->lo, fm, ev->root, ev->type,
					      &s->cfg.limits, path,
					      text ? text + 1 : ev->text,
					      &snap);
	irs_memory_destroy(fm);
	free(fixed);
	if (!err) {
		irs_snapshot_get_stats(snap, &st);
		irs_snapshot_destroy(snap);
		if (strcmp(st.hash, ev->hash) || st.nodes != ev->nodes)
			err = irs_error_format(IRS_ERROR_STATE, "the walk of "
					       "the kept bytes renders another "
					       "IR (hash %s, not %s)", st.hash,
					       ev->hash);
		else
			err = name_graph(s, ev, name, &st);
		if (err)
			unlink(path);
	}
	if (err && irs_debug('S'))
		fprintf(stderr, "irsnap: session: no JSON graph of %s's "
			"input: %s\n", ev->pass, err->message);
	if (!err) {
		ev->json = name;
		name = NULL;
	}
	irs_error_destroy(err);
	free(name);
	free(path);
}

static struct irs_error *
check_failure(const struct irs_failure_info *info)
{
	const char *kind = info->kind ? info->kind : "";
	if (!strcmp(kind, "signal") && info->signo <= 0)
		return irs_error_format(IRS_ERROR_USAGE, "failure of kind "
					"signal needs a signal number");
	if (strcmp(kind, "signal") && strcmp(kind, "verifier"))
		return irs_error_format(IRS_ERROR_USAGE, "unknown failure "
					"kind \"%s\" (signal or verifier)",
					kind);
	return NULL;
}

static struct irs_error *
write_json(const char *path, const json_t *doc)
{
	struct irs_atomic_file af;
	struct irs_error *err = irs_atomic_open(&af, path);
	if (err)
		return err;
	if (json_dumpf(doc, af.fp, JSON_INDENT(2)) != 0 && !ferror(af.fp)) {
		irs_atomic_abort(&af);
		return irs_error_format(IRS_ERROR_IO, "%s: cannot write", path);
	}
	fputc('\n', af.fp);
	return irs_atomic_commit(&af);	// sees any stream error
}

// reduce { input = "program" }: a copy of the program the debuggee was
// given, as input/NAME in the run, for the reducer: the run then holds
// what it reduces, and `irsnap reduce RUN` reads nothing outside it.
// A relative name is the debuggee's, so it is read from the debuggee's
// working directory (GDB's `set cwd`, a process attached to), not ours.
// A core's command line is the core's word, not the user's: no file it
// names is read. NULL when there is no program or it cannot be read or
// copied (it may have moved since); the reduce command is then null.
// Freed with free().
static char *
copy_program(struct irs_session *s)
{
	char *text = NULL, *rel = NULL, *dir = NULL, *path = NULL;
	char *where = NULL;
	size_t len;
	if (s->cfg.args_from_core)
		return NULL;
	char *program = irs_failure_program(s->cfg.args);
	if (!program)
		return NULL;
	const char *base = strrchr(program, '/');
	base = base ? base + 1 : program;
	if (program[0] != '/' && s->cfg.pid > 0 && !s->cfg.pid_is_history &&
	    asprintf(&where, "/proc/%lld/cwd/%s", (long long)s->cfg.pid,
		     program) < 0)
		where = NULL;
	struct irs_error *err = irs_file_read(where ? where : program, &text,
					      &len);
	if (err || !*base || !strcmp(base, ".") || !strcmp(base, "..") ||
	    asprintf(&rel, "input/%s", base) < 0) {
		rel = NULL;
		goto out;
	}
	for (char *p = rel + 6; *p; p++)	// as snapshot names are spelt
		if (!irs_rundir_name_char(*p))
			*p = '_';
	dir = irs_path_join(s->dir, "input");
	path = irs_path_join(s->dir, rel);
	if (!dir || !path || (mkdir(dir, 0777) != 0 && errno != EEXIST) ||
	    (err = irs_file_write(path, text, len))) {
		free(rel);
		rel = NULL;
	}
out:
	irs_error_destroy(err);
	free(program);
	free(where);
	free(text);
	free(dir);
	free(path);
	return rel;
}

// reduce { input = FIELD }: the node the IR root's pointer FIELD names
// (an LLVM Function's Module), rendered whole as the failure left it, as
// input/NNNN-PASS.TYPE.ll in the run: what the reducer shrinks and the
// rerun reads, where the failing pass's own snapshot (a function) is no
// input the compiler takes. NULL when it cannot be rendered (said under
// IRSNAP_DEBUG=S); the reduce command is then null. Freed with free().
static char *
reduce_node(struct irs_session *s, struct irs_memory *mem, uint64_t root,
	    const char *type, uint32_t seq, const char *pass)
{
	uint64_t loc[3], p = 0;
	const char *target;
	struct names n = {0};
	struct irs_snapshot *snap = NULL;
	char *name = NULL, *rel = NULL, *dir = NULL;
	struct irs_error *err = NULL;

	if (!irs_layout_reduce_target(s->lo, type, loc, &target))
		return NULL;
	if ((err = irs_memory_read(mem, root + loc[0], &p, sizeof(p))))
		goto out;
	p &= loc[1];
	p = p ? p - loc[2] : 0;
	if (!p) {
		err = irs_error_format(IRS_ERROR_FAULT, "the root's %s is "
				       "NULL", irs_layout_reduce_field(s->lo));
		goto out;
	}
	name = irs_rundir_snapshot_name(seq, pass, target, "ll");
	const char *base = name ? strchr(name, '/') : NULL;
	dir = irs_path_join(s->dir, "input");
	if (!base || !dir || asprintf(&rel, "input%s", base) < 0) {
		rel = NULL;
		err = &irs_enomem;
		goto out;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		err = irs_error_format(IRS_ERROR_IO, "%s: %s", dir,
				       strerror(errno));
		goto out;
	}
	n.text = rel;
	err = snapshot(s, mem, p, target, &n, &snap);
	n.text = NULL;
	if (!err) {
		struct irs_snapshot_stats st;
		irs_snapshot_get_stats(snap, &st);
		for (uint32_t i = 0; i < st.nerrors && irs_debug('S'); i++)
			fprintf(stderr, "irsnap: session: %s: %s\n", rel,
				irs_snapshot_error(snap, i));
		irs_snapshot_destroy(snap);
	}
out:
	if (err && irs_debug('S'))
		fprintf(stderr, "irsnap: session: no reduce input: %s\n",
			err->message);
	if (err) {
		free(rel);
		rel = NULL;
	}
	irs_error_destroy(err);
	free(name);
	free(dir);
	return rel;
}

// The verifier @p name of layout @p lo into @p ret.
static bool
find_verifier(const struct irs_layout *lo, const char *name,
	      struct irs_verifier_info *ret)
{
	for (uint32_t i = 0; i < irs_layout_nverifiers(lo); i++) {
		struct irs_error *err = irs_layout_verifier(lo, i, ret);
		if (err)
			irs_error_destroy(err);
		else if (!strcmp(ret->name, name))
			return true;
	}
	return false;
}

struct irs_error *
irs_session_failure(struct irs_session *s, const struct irs_target *t,
		    struct irs_memory *mem,
		    const struct irs_failure_info *info)
{
	struct irs_error *err;
	struct names n = {0};
	json_t *crash = NULL, *doc;

	err = check_failure(info);
	if (err)
		return err;
	bool verifier = !strcmp(info->kind, "verifier");
	// A verifier failure after the run's failure (the IR still broken,
	// or broken again) is its consequence: the first report stays.
	if (verifier && s->failed)
		return NULL;
	struct event *ev = failing_event(s, info->pass, verifier);
	const char *pass = info->pass ? info->pass : ev ? ev->pass : NULL;
	struct irs_failure_info fi = *info;
	if (verifier)
		fi.signo = 0;
	struct irs_image *img = !ev ? NULL : ev->image ? ev->image
		: ev->seq == s->ended_seq ? s->ended_image : NULL;
	if (img && !ev->json && ev->lines[0] && s->lo)
		input_graph(s, ev, img, mem);
	if (info->ir_root && mem && s->lo) {
		crash = crash_snapshot(s, mem, info, ev, pass, &n);
		if (!crash)
			goto oom;
	}
	// the CPU time the pass spent up to a crash (a verifier's failure
	// comes after the pass ended: its after event has the time)
	bool has_cpu1 = false;
	double cpu1 = 0;
	if (ev && ev->open && ev->has_cpu0 && !verifier)
		cpu_now(s, &has_cpu1, &cpu1);
	struct irs_failure_site site = {
		.has_cpu = has_cpu1 && cpu1 >= ev->cpu0,
		.cpu_s = has_cpu1 && cpu1 >= ev->cpu0 ? cpu1 - ev->cpu0 : 0,
		.run_id = s->man.run_id,
		.dir = s->dir,
		.pass = pass,
		.instance = ev ? ev->instance : NULL,
		.rerun_pass = info->rerun_pass ? info->rerun_pass
			: ev ? ev->rerun_pass : NULL,
		.seq = ev ? ev->seq : 0,
		.before_text = ev ? ev->text : NULL,
		.before_json = ev ? ev->json : NULL,
		.exe = s->cfg.debuggee,
		.args = s->cfg.args,
		.rerun = s->lo ? irs_layout_rerun(s->lo) : NULL,
		.reduce_program = s->lo && irs_layout_reduces_program(s->lo),
	};
	char *bare = pass ? irs_failure_bare_pass(pass, site.instance) : NULL;
	// The boundary's own reading wins; else the layout's name for it
	// (SROAPass -> sroa).
	if (!site.rerun_pass && s->lo)
		site.rerun_pass = irs_layout_rerun_pass(s->lo, bare);
	free(bare);
	struct irs_verifier_info vi;
	if (verifier && info->verifier && s->lo &&
	    find_verifier(s->lo, info->verifier, &vi))
		site.verifier = &vi;
	char *program = site.reduce_program ? copy_program(s) : NULL;
	if (!verifier && info->ir_root && mem && s->lo &&
	    irs_layout_reduce_field(s->lo)) {
		program = reduce_node(s, mem, info->ir_root,
				      ev ? ev->type : NULL, ev ? ev->seq : 0,
				      pass);
		site.reduce_program = true;	// what it names is the input
	}
	site.program = program;
	err = irs_failure_build(&site, t, &fi, crash, &doc);
	free(program);
	if (err)
		goto fail;
	char *path = irs_path_join(s->dir, "failure.json");
	err = path ? write_json(path, doc) : &irs_enomem;
	free(path);
	json_decref(doc);
	if (err)
		goto fail;
	// failure.json is on disk now, so the session is failed even if the
	// manifest cannot say so yet: the next save will.
	s->failed = true;
	if (!irs_manifest_set_status(&s->man, "failed") ||
	    json_object_set_new(s->man.root, "failure",
				json_string("failure.json"))) {
		names_deinit(&n);
		return &irs_enomem;
	}
	names_deinit(&n);
	return save(s);
oom:
	err = &irs_enomem;
fail:
	names_unlink(s, &n);
	names_deinit(&n);
	return err;
}

/* }==== Status =========================================================== */

static void
status_pass(struct irs_buf *b, const struct event *ev)
{
	irs_buf_printf(b, "  %04u %-24s ", ev->seq, ev->pass);
	if (ev->lost)
		irs_buf_puts(b, "    (lost: not written)\n");
	else if (ev->open)
		irs_buf_puts(b, "    (running)\n");
	else if (ev->has_cpu)
		irs_buf_printf(b, "%10.1f ms\n", ev->cpu_s * 1000);
	else
		irs_buf_puts(b, "         - ms\n");
}

struct irs_error *
irs_session_status(const struct irs_session *s, char **ret)
{
	struct irs_buf b;
	uint32_t nopen = 0;
	double total = 0;

	for (uint32_t i = 0; i < s->nevents; i++) {
		nopen += s->events[i].open;
		total += s->events[i].has_cpu ? s->events[i].cpu_s : 0;
	}
	const char *status = json_string_value(
		json_object_get(s->man.root, "status"));
	irs_buf_init(&b);
	irs_buf_printf(&b, "run directory: %s\n", s->dir);
	irs_buf_printf(&b, "layout: %s (%s)\n",
		       s->lo ? irs_layout_name(s->lo) : "none",
		       s->layout_path ? s->layout_path : "no file");
	irs_buf_printf(&b, "status: %s, %u passes (%u running), "
		       "%.1f ms CPU in passes\n", status ? status : "?",
		       s->nevents, nopen, total * 1000);
	if (s->nlost)
		irs_buf_printf(&b, "incomplete: %u snapshot%s lost to write "
			       "errors (the manifest lists them under "
			       "\"lost\")\n", s->nlost, s->nlost == 1 ? ""
			       : "s");
	uint32_t first = s->nevents > STATUS_PASSES ?
			 s->nevents - STATUS_PASSES : 0;
	if (first)
		irs_buf_printf(&b, "  ... %u earlier passes\n", first);
	for (uint32_t i = first; i < s->nevents; i++)
		status_pass(&b, &s->events[i]);
	if (s->failed)
		irs_buf_printf(&b, "failure report: %s/failure.json\n", s->dir);
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	*ret = irs_buf_steal(&b);
	return NULL;
}
