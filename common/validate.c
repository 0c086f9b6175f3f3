// `irsnap validate`: a run directory, a replay directory or one file
// against its schema, plus the checks a schema cannot make (every file the
// manifest names exists, every run a replay names is itself valid).
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "session.h"

struct check {
	struct irs_buf *out;
	uint32_t nproblems;
	uint32_t nfiles;	// distinct documents and text files looked at
	char **seen;		// paths already checked (failure.json names
	size_t nseen, capseen;	// snapshots the manifest named too)
};

// True when @p path was checked already.
static bool
seen(const struct check *c, const char *path)
{
	for (size_t i = 0; i < c->nseen; i++)
		if (!strcmp(c->seen[i], path))
			return true;
	return false;
}

// Counts @p path as checked, once.
static void
mark(struct check *c, const char *path)
{
	if (seen(c, path))
		return;
	c->nfiles++;
	if (c->nseen == c->capseen) {
		size_t cap = c->capseen ? 2 * c->capseen : 32;
		char **p = realloc(c->seen, cap * sizeof(*p));
		if (!p) {
			c->out->oom = true;
			return;
		}
		c->seen = p;
		c->capseen = cap;
	}
	if (!(c->seen[c->nseen] = strdup(path)))
		c->out->oom = true;
	else
		c->nseen++;
}

static void
problem(struct check *c, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
problem(struct check *c, const char *file, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	c->nproblems++;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		c->out->oom = true;
		return;
	}
	irs_buf_printf(c->out, "%s: %s\n", file, msg);
	free(msg);
}

// Parses @p file. Unreadable or malformed files are problems (NULL
// returned) unless @p hard, when unreadable is the caller's error.
static struct irs_error *
load(struct check *c, const char *file, bool hard, json_t **ret)
{
	char *text;
	size_t len;
	json_error_t je;

	*ret = NULL;
	struct irs_error *err = irs_file_read(file, &text, &len);
	if (err == &irs_enomem || (err && hard))
		return err;
	mark(c, file);
	if (err) {
		problem(c, file, "%s", err->message);
		irs_error_destroy(err);
		return NULL;
	}
	// JSON_ALLOW_NUL: strings read from debuggee memory may hold NUL bytes,
	// which the walker writes as \u0000, valid JSON.
	*ret = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
	free(text);
	if (!*ret)
		problem(c, file, "invalid JSON at line %d, column %d: %s",
			je.line, je.column, je.text);
	return NULL;
}

// Validates @p doc against @p id, or the schema its "schema" member names
// when @p id is NULL.
static struct irs_error *
against(struct check *c, const char *file, const json_t *doc, const char *id)
{
	if (!id) {
		id = json_string_value(json_object_get(doc, "schema"));
		if (!id) {
			problem(c, file, "$.schema: missing or not a string, "
				"so no schema applies");
			return NULL;
		}
	}
	struct irs_error *err = irs_schema_validate(id, doc, file, c->out,
						    &c->nproblems);
	if (err && err->code == IRS_ERROR_NOT_FOUND) {
		problem(c, file, "$.schema: %s", err->message);
		irs_error_destroy(err);
		return NULL;
	}
	return err;
}

// A path a run's document names must stay inside the run directory: not
// absolute, no ".." component.
static bool
safe_rel(const char *rel)
{
	if (!rel || !rel[0] || rel[0] == '/')
		return false;
	for (const char *p = rel; p; p = strchr(p, '/')) {
		p += *p == '/';
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return false;
	}
	return true;
}

// True when @p rel names an existing regular file in @p dir; a problem in
// @p file at @p where otherwise.
static bool
need_file(struct check *c, const char *file, const char *where,
	  const char *dir, const char *rel)
{
	struct stat st;

	if (!safe_rel(rel))
		return false;	// the schema reported it, or nothing named
	char *p = irs_path_join(dir, rel);
	if (!p) {
		c->out->oom = true;
		return false;
	}
	bool ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	if (!ok)
		problem(c, file, "%s: names %s, which is %s", where, rel,
			stat(p, &st) != 0 ? "missing" : "not a file");
	else if (strlen(rel) < 5 || strcmp(rel + strlen(rel) - 5, ".json"))
		mark(c, p);	// JSON documents are marked when loaded
	free(p);
	return ok;
}

// Directory part of @p file ("." when none); freed with free().
static char *
dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	if (!slash)
		return strdup(".");
	if (slash == file)
		return strdup("/");
	return strndup(file, (size_t)(slash - file));
}

// A snapshot document (already loaded) and, with @p own_text, the text
// file it names beside itself (a run's documents name it already).
static struct irs_error *
snapshot_doc(struct check *c, const char *file, const json_t *doc,
	     bool own_text)
{
	struct irs_error *err = against(c, file, doc, "irsnap.snapshot/1");
	const char *text = json_string_value(json_object_get(doc, "text_file"));
	if (err || !own_text || !text || strchr(text, '/'))
		return err;
	char *dir = dir_of(file);
	if (!dir)
		return &irs_enomem;
	need_file(c, file, "$.text_file", dir, text);
	free(dir);
	return NULL;
}

// A snapshot named by a run document: {text, json} at @p where.
static struct irs_error *
named_snapshot(struct check *c, const char *file, const char *where,
	       const char *dir, const json_t *snap)
{
	const char *text = json_string_value(json_object_get(snap, "text"));
	const char *jpath = json_string_value(json_object_get(snap, "json"));
	char *w;

	if (asprintf(&w, "%s.text", where) < 0)
		return &irs_enomem;
	need_file(c, file, w, dir, text);
	w[strlen(w) - 4] = '\0';
	strcat(w, "json");	// ".text" -> ".json": same length
	bool there = need_file(c, file, w, dir, jpath);
	free(w);
	if (!there)
		return NULL;
	char *p = irs_path_join(dir, jpath);
	if (!p)
		return &irs_enomem;
	if (seen(c, p)) {
		free(p);	// checked already, as another event's snapshot
		return NULL;
	}
	json_t *doc;
	struct irs_error *err = load(c, p, false, &doc);
	if (!err && doc)
		err = snapshot_doc(c, p, doc, false);
	json_decref(doc);
	free(p);
	return err;
}

static struct irs_error *
failure_file(struct check *c, const char *dir, const char *run_id)
{
	struct irs_error *err;
	json_t *doc;
	char *file = irs_path_join(dir, "failure.json");

	if (!file)
		return &irs_enomem;
	err = load(c, file, false, &doc);
	if (err || !doc)
		goto out;
	err = against(c, file, doc, "irsnap.failure/1");
	const char *id = json_string_value(json_object_get(doc, "run_id"));
	if (!err && id && run_id && strcmp(id, run_id))
		problem(c, file, "$.run_id: \"%s\", but the manifest says "
			"\"%s\"", id, run_id);
	json_t *before = json_object_get(doc, "before_snapshot");
	json_t *crash = json_object_get(doc, "crash_snapshot");
	if (!err && json_is_object(before))
		err = named_snapshot(c, file, "$.before_snapshot", dir, before);
	if (!err && json_is_object(crash))
		err = named_snapshot(c, file, "$.crash_snapshot", dir, crash);
out:
	json_decref(doc);
	free(file);
	return err;
}

static struct irs_error *
events(struct check *c, const char *file, const char *dir, const json_t *evs)
{
	size_t i;
	json_t *ev;

	json_array_foreach(evs, i, ev) {
		json_t *snap = json_object_get(ev, "snapshot");
		if (!json_is_object(snap))
			continue;
		char *where;
		if (asprintf(&where, "$.events[%zu].snapshot", i) < 0)
			return &irs_enomem;
		struct irs_error *err = named_snapshot(c, file, where, dir,
						       snap);
		free(where);
		if (err)
			return err;
	}
	return NULL;
}

static struct irs_error *
run_dir(struct check *c, const char *dir)
{
	struct irs_error *err;
	json_t *man;
	struct stat st;
	char *file = irs_path_join(dir, "manifest.json");
	char *ffile = irs_path_join(dir, "failure.json");

	if (!file || !ffile) {
		err = &irs_enomem;
		goto out;
	}
	err = load(c, file, true, &man);
	if (err || !man)
		goto out;
	err = against(c, file, man, "irsnap.manifest/1");
	json_t *evs = json_object_get(man, "events");
	if (!err && json_is_array(evs))
		err = events(c, file, dir, evs);
	const char *status = json_string_value(json_object_get(man, "status"));
	json_t *failure = json_object_get(man, "failure");
	bool has_failure = stat(ffile, &st) == 0;
	if (!err && json_is_string(failure) && !has_failure)
		problem(c, file, "$.failure: names failure.json, which is "
			"missing");
	if (!err && status && !strcmp(status, "failed") &&
	    !json_is_string(failure))
		problem(c, file, "$.failure: null, but status is \"failed\"");
	// failure.json without the manifest naming it: the debugger died
	// between the two writes. Still a report worth checking.
	if (!err && has_failure)
		err = failure_file(c, dir, json_string_value(
					json_object_get(man, "run_id")));
	json_decref(man);
out:
	free(file);
	free(ffile);
	return err;
}

// A directory of `irsnap replay`: replay.json, then the run directory of
// every attempt it names.
static struct irs_error *
replay_dir(struct check *c, const char *dir, const char *file)
{
	json_t *doc;
	struct irs_error *err = load(c, file, true, &doc);
	if (err || !doc)
		return err;
	err = against(c, file, doc, "irsnap.replay/1");
	json_t *attempts = json_object_get(doc, "attempts"), *a;
	size_t i;
	json_array_foreach(attempts, i, a) {
		const char *run = json_string_value(json_object_get(a, "run"));
		if (err || !run)
			continue;
		char *rdir = irs_path_join(dir, run);
		struct stat st;
		if (!rdir)
			err = &irs_enomem;
		else if (stat(rdir, &st) != 0 || !S_ISDIR(st.st_mode))
			problem(c, file, "$.attempts[%zu].run: names %s, which "
				"is missing", i, run);
		else
			err = run_dir(c, rdir);
		free(rdir);
	}
	json_decref(doc);
	return err;
}

struct irs_error *
irs_validate_path(const char *path, struct irs_buf *out,
		  uint32_t *nproblems_ret, uint32_t *nfiles_ret)
{
	struct irs_error *err;
	struct check c = { .out = out };
	struct stat st;

	if (stat(path, &st) != 0)
		return irs_error_format(errno == ENOENT ? IRS_ERROR_NOT_FOUND
					: IRS_ERROR_IO, "%s: %s", path,
					strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		char *man = irs_path_join(path, "manifest.json");
		char *latest = irs_path_join(path, "latest");
		char *lman = latest ? irs_path_join(latest, "manifest.json")
				    : NULL;
		char *rp = irs_path_join(path, "replay.json");
		if (!man || !latest || !lman || !rp)
			err = &irs_enomem;
		else if (stat(man, &st) == 0)
			err = run_dir(&c, path);
		else if (stat(rp, &st) == 0)
			err = replay_dir(&c, path, rp);
		else if (stat(lman, &st) == 0)
			err = run_dir(&c, latest);
		else
			err = irs_error_format(IRS_ERROR_NOT_FOUND,
				"%s: not a run directory (no manifest.json, "
				"no latest/manifest.json) nor a replay "
				"directory (no replay.json)", path);
		free(man);
		free(latest);
		free(lman);
		free(rp);
	} else {
		json_t *doc;
		err = load(&c, path, true, &doc);
		if (!err && doc) {
			const char *id = json_string_value(
				json_object_get(doc, "schema"));
			if (id && !strcmp(id, "irsnap.snapshot/1"))
				err = snapshot_doc(&c, path, doc, true);
			else
				err = against(&c, path, doc, NULL);
		}
		json_decref(doc);
	}
	for (size_t i = 0; i < c.nseen; i++)
		free(c.seen[i]);
	free(c.seen);
	if (!err && out->oom)
		err = &irs_enomem;
	if (err)
		return err;
	*nproblems_ret = c.nproblems;
	if (nfiles_ret)
		*nfiles_ret = c.nfiles;
	return NULL;
}
