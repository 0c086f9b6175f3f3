// `irsnap validate`: a run directory, a replay directory or one file
// against its schema, plus the checks a schema cannot make (every file the
// manifest names exists, every run a replay names is itself valid).
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include "tools/tools.h"

struct check {
	struct irs_buf *out;
	uint32_t nproblems;
	uint32_t nfiles;	// distinct documents and text files looked at
	char **seen;		// paths already checked (failure.json names
	size_t nseen, capseen;	// snapshots the manifest named too): an
};				// open-addressed set, capseen a power of 2

// The slot of @p path in c->seen: where it is, or the empty one where it
// would go. (A run of 40,000 passes names 160,000 files: a list searched
// per file took minutes.)
static size_t
seen_slot(const struct check *c, const char *path)
{
	size_t mask = c->capseen - 1;
	size_t i = (size_t)XXH64(path, strlen(path), 0) & mask;
	while (c->seen[i] && strcmp(c->seen[i], path))
		i = (i + 1) & mask;
	return i;
}

// True when @p path was checked already.
static bool
seen(const struct check *c, const char *path)
{
	return c->capseen && c->seen[seen_slot(c, path)];
}

// Counts @p path as checked, once.
static void
mark(struct check *c, const char *path)
{
	if (seen(c, path))
		return;
	c->nfiles++;
	if (2 * (c->nseen + 1) > c->capseen) {
		struct check grown = *c;
		grown.capseen = c->capseen ? 2 * c->capseen : 64;
		grown.seen = calloc(grown.capseen, sizeof(*grown.seen));
		if (!grown.seen) {
			c->out->oom = true;
			return;
		}
		for (size_t i = 0; i < c->capseen; i++)
			if (c->seen[i])
				grown.seen[seen_slot(&grown, c->seen[i])] =
					c->seen[i];
		free(c->seen);
		c->seen = grown.seen;
		c->capseen = grown.capseen;
	}
	char **slot = &c->seen[seen_slot(c, path)];
	if (!(*slot = strdup(path)))
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

// A problem that @p err states whole (its message names the file); takes
// @p err.
static void
problem_err(struct check *c, struct irs_error *err)
{
	c->nproblems++;
	irs_buf_printf(c->out, "%s\n", err->message);
	irs_error_destroy(err);
}

// Reads @p file into *text (the caller frees it) and marks it checked.
// Unreadable is a problem, and NULL returned with *text NULL, unless
// @p hard, when it is the caller's error (as running out of memory is).
static struct irs_error *
read_checked(struct check *c, const char *file, bool hard, char **text,
	     size_t *len)
{
	struct irs_error *err = irs_file_read(file, text, len);
	if (err == &irs_enomem || (err && hard))
		return err;
	mark(c, file);
	if (err) {
		*text = NULL;
		problem(c, file, "%s", err->message);
		irs_error_destroy(err);
	}
	return NULL;
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
	struct irs_error *err = read_checked(c, file, hard, &text, &len);
	if (err || !text)
		return err;
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

// True when @p rel names an existing regular file in @p dir, reached
// without a symbolic link; a problem in @p file at @p where otherwise.
static bool
need_file(struct check *c, const char *file, const char *where,
	  const char *dir, const char *rel)
{
	struct stat st;
	char *p;

	if (!safe_rel(rel))
		return false;	// the schema reported it, or nothing named
	struct irs_error *err = irs_rundir_file(dir, rel, &p);
	if (err == &irs_enomem) {
		c->out->oom = true;
		return false;
	}
	if (err) {
		problem(c, file, "%s: names %s: %s", where, rel, err->message);
		irs_error_destroy(err);
		return false;
	}
	bool ok = lstat(p, &st) == 0 && S_ISREG(st.st_mode);
	if (!ok)
		problem(c, file, "%s: names %s, which is %s", where, rel,
			lstat(p, &st) != 0 ? "missing" : "not a file");
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
// c; *frame_ret is the document without its nodes, *n_ret their number.
// False, with nothing reported, when a piece does not parse: the caller
// then parses the whole to say where.
static bool
snapshot_pieces(struct check *c, const char *file, const char *text,
		size_t len, struct irs_error **err_ret, json_t **frame_ret,
		size_t *n_ret)
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
	*n_ret = sp.n;
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

/* {==== What the files hold against what the documents say ============= */

// A snapshot's JSON as read: the document without its nodes (stats,
// text_file, ...) and how many nodes it holds.
struct facts {
	json_t *frame;		// NULL: unreadable or not JSON (reported)
	size_t nnodes;
	uint64_t bytes;		// the file's size
};

// Size and hash of text file @p path, hashed as irsnap hashes snapshot
// text (XXH64, seed 0, as 16 hex digits); false when it cannot be read
// (need_file() has said why).
static bool
text_facts(const char *path, uint64_t *size_ret, char hash[17])
{
	int fd;
	struct irs_error *err = irs_file_open_regular(path, &fd, NULL);
	if (err) {
		irs_error_destroy(err);
		return false;
	}
	XXH64_state_t *st = XXH64_createState();
	char buf[65536];
	uint64_t size = 0;
	ssize_t n = 0;
	if (st)
		XXH64_reset(st, 0);
	while (st && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		XXH64_update(st, buf, (size_t)n);
		size += (uint64_t)n;
	}
	close(fd);
	if (st && n == 0)
		snprintf(hash, 17, "%016llx",
			 (unsigned long long)XXH64_digest(st));
	if (st)
		XXH64_freeState(st);
	*size_ret = size;
	return st && n == 0;
}

// Member @p key of @p doc (at @p where in @p file) says integer @p have,
// the number a file holds: a problem naming both when it does not.
static void
agree_n(struct check *c, const char *file, const char *where,
	const json_t *doc, const char *key, uint64_t have, const char *rel,
	const char *what)
{
	const json_t *v = json_object_get(doc, key);
	if (!json_is_integer(v) || (uint64_t)json_integer_value(v) == have)
		return;		// absent or not a number: the schema's part
	problem(c, file, "%s.%s: %" JSON_INTEGER_FORMAT ", but %s %s %" PRIu64
		" %s", where, key, json_integer_value(v), rel,
		strcmp(what, "nodes") ? "has" : "holds", have, what);
}

// The same for a hash: @p have from @p rel, said as @p how.
static void
agree_hash(struct check *c, const char *file, const char *where,
	   const json_t *doc, const char *rel, const char *have,
	   const char *how)
{
	const char *said = json_string_value(json_object_get(doc, "hash"));
	if (!said || !have || !strcmp(said, have))
		return;
	problem(c, file, "%s.hash: %s, but %s %s %s", where, said, rel, how,
		have);
}

// Text file @p rel (in @p dir) against what @p doc at @p where in @p file
// says of it: its bytes (@p key) and hash.
static void
text_agrees(struct check *c, const char *file, const char *where,
	    const json_t *doc, const char *key, const char *dir,
	    const char *rel)
{
	uint64_t size;
	char hash[17];
	char *p = NULL;
	struct irs_error *err = irs_rundir_file(dir, rel, &p);
	if (err == &irs_enomem)
		c->out->oom = true;
	irs_error_destroy(err);	// need_file() reported the rest
	if (p && text_facts(p, &size, hash)) {
		agree_n(c, file, where, doc, key, size, rel, "bytes");
		agree_hash(c, file, where, doc, rel, hash, "hashes to");
	}
	free(p);
}

// A snapshot's JSON against its own nodes: stats.nodes counts them.
static void
facts_agree(struct check *c, const char *file, const struct facts *f)
{
	const json_t *stats = json_object_get(f->frame, "stats");
	const json_t *v = json_object_get(stats, "nodes");
	if (json_is_integer(v) &&
	    (uint64_t)json_integer_value(v) != f->nnodes)
		problem(c, file, "$.stats.nodes: %" JSON_INTEGER_FORMAT ", but "
			"the file holds %zu nodes", json_integer_value(v),
			f->nnodes);
}

/* }==== */

// A snapshot file and, with @p own_text, the text file it names beside
// itself (a run's documents name it already). Unreadable is a problem, or
// the caller's error with @p hard. *f (when given) gets what it holds;
// its frame the caller's to json_decref().
static struct irs_error *
snapshot_file(struct check *c, const char *file, bool own_text, bool hard,
	      struct facts *f)
{
	char *text;
	size_t len, nnodes = 0;
	json_t *frame = NULL;
	struct irs_error *err = read_checked(c, file, hard, &text, &len);
	if (err || !text)
		return err;
	if (!snapshot_pieces(c, file, text, len, &err, &frame, &nnodes)) {
		json_error_t je;
		json_t *doc = json_loadb(text, len, LOAD_FLAGS, &je);
		if (!doc)
			problem(c, file, "invalid JSON at line %d, column %d: "
				"%s", je.line, je.column, je.text);
		else
			err = against(c, file, doc, "irsnap.snapshot/1");
		nnodes = json_array_size(json_object_get(doc, "nodes"));
		frame = doc;
	}
	free(text);
	struct facts mine = { .frame = frame, .nnodes = nnodes, .bytes = len };
	if (!err && frame)
		facts_agree(c, file, &mine);
	const char *tf = json_string_value(json_object_get(frame, "text_file"));
	if (!err && own_text && tf && !strchr(tf, '/')) {
		char *dir = dir_of(file);
		if (!dir)
			err = &irs_enomem;
		else if (need_file(c, file, "$.text_file", dir, tf))
			text_agrees(c, file, "$.stats", json_object_get(frame,
				    "stats"), "text_bytes", dir, tf);
		free(dir);
	}
	if (f && !err) {
		*f = mine;
		return NULL;
	}
	json_decref(frame);
	return err;
}

// A snapshot named by a run document: {text, json} at @p where. With
// @p ev, the manifest event naming it, its files must hold what the event
// says (bytes, hash, node count); without, the text what the JSON's stats
// say.
static struct irs_error *
named_snapshot(struct check *c, const char *file, const char *where,
	       const char *dir, const json_t *snap, const json_t *ev,
	       const char *ev_where)
{
	const char *text = json_string_value(json_object_get(snap, "text"));
	const char *jpath = json_string_value(json_object_get(snap, "json"));
	char *w;

	if (asprintf(&w, "%s.text", where) < 0)
		return &irs_enomem;
	bool text_there = need_file(c, file, w, dir, text);
	w[strlen(w) - 4] = '\0';
	strcat(w, "json");	// ".text" -> ".json": same length
	bool there = need_file(c, file, w, dir, jpath);
	free(w);
	if (text_there && ev)
		text_agrees(c, file, ev_where, ev, "text_bytes", dir, text);
	if (!there)
		return NULL;
	char *p = irs_path_join(dir, jpath);
	if (!p)
		return &irs_enomem;
	if (seen(c, p) && !ev) {
		free(p);	// checked already, as an event's snapshot
		return NULL;
	}
	struct facts f = { 0 };
	struct irs_error *err = seen(c, p) ? NULL
				: snapshot_file(c, p, false, false, &f);
	free(p);
	const json_t *stats = json_object_get(f.frame, "stats");
	if (!err && f.frame && ev) {
		agree_n(c, file, ev_where, ev, "nodes", f.nnodes, jpath,
			"nodes");
		agree_n(c, file, ev_where, ev, "json_bytes", f.bytes, jpath,
			"bytes");
		const json_t *sv;
		const char *keys[] = { "text_bytes", "bytes" };
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (json_is_integer(sv = json_object_get(stats,
								 keys[i])))
				agree_n(c, file, ev_where, ev, keys[i],
					(uint64_t)json_integer_value(sv),
					jpath, "in its stats");
		agree_hash(c, file, ev_where, ev, jpath, json_string_value(
				   json_object_get(stats, "hash")),
			   "says (its stats.hash)");
	} else if (!err && f.frame && text_there) {
		text_agrees(c, file, "$.stats", stats, "text_bytes", dir, text);
	}
	json_decref(f.frame);
	return err;
}

static struct irs_error *
failure_file(struct check *c, const char *dir, const char *run_id)
{
	struct irs_error *err;
	json_t *doc = NULL;
	char *file;

	if ((err = irs_rundir_file(dir, "failure.json", &file))) {
		if (err == &irs_enomem)
			return err;
		problem_err(c, err);
		return NULL;
	}
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
		err = named_snapshot(c, file, "$.before_snapshot", dir, before,
				     NULL, NULL);
	if (!err && json_is_object(crash))
		err = named_snapshot(c, file, "$.crash_snapshot", dir, crash,
				     NULL, NULL);
	const char *program = json_string_value(json_object_get(doc,
							"reduce_input"));
	if (!err && program)
		need_file(c, file, "$.reduce_input", dir, program);
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
		char *ev_where = strndup(where, strlen(where) -
					 strlen(".snapshot"));
		struct irs_error *err = ev_where ? named_snapshot(c, file,
			where, dir, snap, ev, ev_where) : &irs_enomem;
		free(where);
		free(ev_where);
		if (err)
			return err;
	}
	return NULL;
}

static struct irs_error *
run_dir(struct check *c, const char *dir)
{
	struct irs_error *err;
	json_t *man = NULL;
	struct stat st;
	char *file = NULL;
	char *ffile = irs_path_join(dir, "failure.json");

	if (!ffile) {
		err = &irs_enomem;
		goto out;
	}
	// The manifest may be no link either: a run is what is in its folder.
	if ((err = irs_rundir_file(dir, "manifest.json", &file))) {
		if (err != &irs_enomem) {
			problem_err(c, err);
			err = NULL;
		}
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
	bool has_failure = lstat(ffile, &st) == 0;
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
	int fd;
	struct irs_error *err = irs_file_open_regular(path, &fd, NULL);
	if (err) {
		irs_error_destroy(err);	// load() says what the file is
		return false;
	}
	ssize_t n = read(fd, head, sizeof(head) - 1);
	close(fd);
	head[n > 0 ? n : 0] = '\0';
	const char *k = strstr(head, "\"schema\"");
	if (!k)
		return false;
	k += 8;
	while (*k == ' ' || *k == '\n' || *k == '\t' || *k == '\r' || *k == ':')
		k++;
	return !strncmp(k, "\"irsnap.snapshot/1\"", 19);
}

// Whether directory @p dir holds replay.json (not through a link).
static bool
holds_replay(const char *dir)
{
	struct stat st;
	char *rp = irs_path_join(dir, "replay.json");
	bool yes = rp && lstat(rp, &st) == 0 && S_ISREG(st.st_mode);
	free(rp);
	return yes;
}

// A directory of `irsnap replay`: replay.json (@p file; NULL: the one in
// @p dir), then the run directory of every attempt it names.
static struct irs_error *
replay_dir(struct check *c, const char *dir, const char *file)
{
	json_t *doc;
	char *own = file ? NULL : irs_path_join(dir, "replay.json");
	if (!file && !own)
		return &irs_enomem;
	if (!file)
		file = own;
	struct irs_error *err = load(c, file, true, &doc);
	if (err || !doc) {
		free(own);
		return err;
	}
	// A replay of an earlier irsnap (version 1) is still readable.
	const char *id = json_string_value(json_object_get(doc, "schema"));
	err = against(c, file, doc, id && !strcmp(id, "irsnap.replay/1")
				    ? id : "irsnap.replay/2");
	json_t *attempts = json_object_get(doc, "attempts"), *a;
	size_t i;
	json_array_foreach(attempts, i, a) {
		const char *run = json_string_value(json_object_get(a, "run"));
		if (err || !run)
			continue;
		char *rdir = NULL;
		struct stat st;
		struct irs_error *perr = irs_rundir_file(dir, run, &rdir);
		if (perr == &irs_enomem)
			err = perr;
		else if (perr)
			problem_err(c, perr);
		else if (lstat(rdir, &st) != 0 || !S_ISDIR(st.st_mode))
			problem(c, file, "$.attempts[%zu].run: names %s, which "
				"is missing", i, run);
		else
			err = run_dir(c, rdir);
		free(rdir);
	}
	json_decref(doc);
	free(own);
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
		char *latest = NULL, *lman = NULL;
		char *rp = irs_path_join(path, "replay.json");
		// latest only as irsnap makes it: a link to a run beside it
		struct irs_error *lerr = irs_rundir_latest(path, &latest);
		if (lerr == &irs_enomem || (!lerr && !(lman = irs_path_join(
							latest, "manifest.json"))))
			err = &irs_enomem;
		else if (!man || !rp)
			err = &irs_enomem;
		else if (lstat(man, &st) == 0)
			err = run_dir(&c, path);
		else if (lstat(rp, &st) == 0)
			err = replay_dir(&c, path, rp);
		else if (lman && lstat(lman, &st) == 0)
			err = run_dir(&c, latest);
		else if (latest && holds_replay(latest))	// a replay's
			err = replay_dir(&c, latest, NULL);
		else if (lerr && lerr->code != IRS_ERROR_NOT_FOUND) {
			err = lerr;
			lerr = NULL;
		} else
			err = irs_error_format(IRS_ERROR_NOT_FOUND,
				"%s: not a run directory (no manifest.json, "
				"no latest/manifest.json) nor a replay "
				"directory (no replay.json)", path);
		irs_error_destroy(lerr);
		free(man);
		free(latest);
		free(lman);
		free(rp);
	} else if (is_snapshot(path)) {
		err = snapshot_file(&c, path, true, true, NULL);
	} else {
		json_t *doc;
		err = load(&c, path, true, &doc);
		const char *id = json_string_value(json_object_get(doc,
								   "schema"));
		// a snapshot laid out otherwise: its text file is checked too
		if (!err && id && !strcmp(id, "irsnap.snapshot/1"))
			err = snapshot_file(&c, path, true, true, NULL);
		else if (!err && doc)
			err = against(&c, path, doc, NULL);
		json_decref(doc);
	}
	for (size_t i = 0; i < c.capseen; i++)
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
