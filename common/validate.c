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

enum { LOAD_FLAGS = JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL };

// Snapshot @p text (of @p file) checked in pieces: the document without
// its nodes, then each node, so memory stays near the file's size (a
// whole 1M-instruction snapshot took 4.9 GB in jansson). Problems go to
// c; *frame_ret is the document without its nodes. False, with nothing
// reported, when a piece does not parse: the caller then parses the whole
// to say where.
static bool
snapshot_pieces(struct check *c, const char *file, const char *text,
		size_t len, struct irs_error **err_ret, json_t **frame_ret)
{
	struct irs_json_split sp;
	struct irs_schema_run *run = NULL;
	struct irs_buf out, frame_text;
	uint32_t n = 0;
	bool parsed = false;

	*err_ret = NULL;
	*frame_ret = NULL;
	if (!irs_json_split(text, len, "nodes", &sp))
		return false;
	irs_buf_init(&out);
	irs_buf_init(&frame_text);
	irs_buf_append(&frame_text, text, sp.open + 1);
	irs_buf_append(&frame_text, text + sp.close, len - sp.close);
	json_t *frame = frame_text.oom ? NULL : json_loadb(frame_text.data,
				frame_text.len, LOAD_FLAGS, NULL);
	struct irs_error *err = frame_text.oom ? &irs_enomem
		: !frame ? NULL
		: irs_schema_run_start("irsnap.snapshot/1", file, &out, &run);
	if (frame && !err)
		err = irs_schema_run_check(run, "#", frame, "$");
	parsed = frame != NULL;
	for (size_t i = 0; parsed && !err && i < sp.n; i++) {
		size_t a = sp.at[2 * i], b = sp.at[2 * i + 1];
		json_t *node = json_loadb(text + a, b - a, LOAD_FLAGS, NULL);
		if (!node) {
			parsed = false;
			break;
		}
		char path[40];
		snprintf(path, sizeof(path), "$.nodes[%zu]", i);
		err = irs_schema_run_check(run, "#/properties/nodes/items",
					   node, path);
		json_decref(node);
	}
	if (run) {
		struct irs_error *end = irs_schema_run_end(run, &n);
		err = err ? err : end;
	}
	if (parsed && !err) {
		irs_buf_append(c->out, out.data ? out.data : "", out.len);
		c->nproblems += n;
		if (out.oom)
			err = &irs_enomem;
	}
	irs_buf_deinit(&out);
	irs_buf_deinit(&frame_text);
	irs_json_split_deinit(&sp);
	*err_ret = err;
	if (parsed && !err)
		*frame_ret = frame;
	else
		json_decref(frame);
	return parsed || err;
}

// A snapshot file and, with @p own_text, the text file it names beside
// itself (a run's documents name it already). Unreadable is a problem, or
// the caller's error with @p hard.
static struct irs_error *
snapshot_file(struct check *c, const char *file, bool own_text, bool hard)
{
	char *text;
	size_t len;
	json_t *frame = NULL;
	struct irs_error *err = irs_file_read(file, &text, &len);
	if (err == &irs_enomem || (err && hard))
		return err;
	mark(c, file);
	if (err) {
		problem(c, file, "%s", err->message);
		irs_error_destroy(err);
		return NULL;
	}
	if (!snapshot_pieces(c, file, text, len, &err, &frame)) {
		json_error_t je;
		json_t *doc = json_loadb(text, len, LOAD_FLAGS, &je);
		if (!doc)
			problem(c, file, "invalid JSON at line %d, column %d: "
				"%s", je.line, je.column, je.text);
		else
			err = against(c, file, doc, "irsnap.snapshot/1");
		frame = doc;
	}
	free(text);
	const char *tf = json_string_value(json_object_get(frame, "text_file"));
	if (!err && own_text && tf && !strchr(tf, '/')) {
		char *dir = dir_of(file);
		if (!dir)
			err = &irs_enomem;
		else
			need_file(c, file, "$.text_file", dir, tf);
		free(dir);
	}
	json_decref(frame);
	return err;
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
	struct irs_error *err = snapshot_file(c, p, false, false);
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

// Whether @p path says it is an irsnap.snapshot/1 document, from its
// first bytes (its "schema" comes first as irsnap writes it; any other
// layout is loaded whole, which works too).
static bool
is_snapshot(const char *path)
{
	char head[256];
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return false;
	size_t n = fread(head, 1, sizeof(head) - 1, fp);
	fclose(fp);
	head[n] = '\0';
	const char *k = strstr(head, "\"schema\"");
	if (!k)
		return false;
	k += 8;
	while (*k == ' ' || *k == '\n' || *k == '\t' || *k == '\r' || *k == ':')
		k++;
	return !strncmp(k, "\"irsnap.snapshot/1\"", 19);
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
	} else if (is_snapshot(path)) {
		err = snapshot_file(&c, path, true, true);
	} else {
		json_t *doc;
		err = load(&c, path, true, &doc);
		const char *id = json_string_value(json_object_get(doc,
								   "schema"));
		// a snapshot laid out otherwise: its text file is checked too
		if (!err && id && !strcmp(id, "irsnap.snapshot/1"))
			err = snapshot_file(&c, path, true, true);
		else if (!err && doc)
			err = against(&c, path, doc, NULL);
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
