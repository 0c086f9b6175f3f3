// Snapshots: one walk (walker.c) writing the text rendering and the JSON
// graph (docs/formats.md, irsnap.snapshot/1) as streams, to files written
// atomically or to memory, and what the walk saw (stats, errors).
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run.h"

struct irs_snapshot {
	struct irs_snapshot_stats stats;
	char **errors;		/* "TYPE at 0xADDR, field F: message" */
	uint32_t nerrors;
};

struct irs_error *
irs_layout_type_for(const struct irs_layout *lo, const char *name,
		    const struct ltype **ret)
{
	const struct ltype *t = irs_layout_find_type(lo, name ? name
						     : lo->root);
	if (t) {
		*ret = t;
		return NULL;
	}
	struct irs_buf b;
	irs_buf_init(&b);
	for (uint32_t i = 0; i < lo->ntypes; i++)
		irs_buf_printf(&b, "%s%s", i ? ", " : "", lo->types[i].name);
	struct irs_error *err = irs_error_format(IRS_ERROR_NOT_FOUND,
		"layout %s has no type '%s' (it has: %s)", lo->name, name,
		b.data ? b.data : "");
	irs_buf_deinit(&b);
	return err;
}

/* {====================================================== JSON document */

static void
put_buf(struct irs_sink *s, struct irs_buf *b)
{
	irs_sink_put(s, b->data ? b->data : "", b->len);
}

// The JSON document up to its first node, into @p b.
static void
head_buf(struct irs_buf *b, const struct irs_layout *lo, const struct ltype *t,
	 uint64_t root, const char *text_file)
{
	irs_json_lit(b, "{\"schema\":\"irsnap.snapshot/1\",\n\"layout\":");
	irs_buf_json_string(b, lo->name, strlen(lo->name));
	irs_json_lit(b, ",\n\"root\":{\"address\":");
	irs_json_addr(b, root);
	irs_json_lit(b, ",\"type\":");
	irs_json_lit(b, t->json_name);
	irs_json_lit(b, "},\n\"text_file\":");
	if (text_file)
		irs_buf_json_string(b, text_file, strlen(text_file));
	else
		irs_json_lit(b, "null");
	irs_json_lit(b, ",\n\"reduce\":{\"units\":[");
	for (uint32_t i = 0; i < lo->nunits; i++) {
		if (i)
			irs_json_lit(b, ",");
		irs_buf_json_string(b, lo->units[i], strlen(lo->units[i]));
	}
	irs_json_lit(b, "],\"defs\":");
	if (lo->defs)
		irs_buf_json_string(b, lo->defs, strlen(lo->defs));
	else
		irs_json_lit(b, "null");
	irs_json_lit(b, ",\"rerun\":");
	if (lo->rerun)
		irs_buf_json_string(b, lo->rerun, strlen(lo->rerun));
	else
		irs_json_lit(b, "null");
	// the text's syntax, when the layout says it (the reducer guesses)
	if (lo->reduce_comment) {
		irs_json_lit(b, ",\"comment\":");
		irs_buf_json_string(b, lo->reduce_comment,
				    strlen(lo->reduce_comment));
	}
	if (lo->reduce_label) {
		irs_json_lit(b, ",\"label\":");
		irs_buf_json_string(b, lo->reduce_label,
				    strlen(lo->reduce_label));
	}
	irs_json_lit(b, "}");
	if (lo->cfg_func) {	// the control-flow graph, for pictures of it
		irs_json_lit(b, ",\n\"cfg\":{\"func\":");
		irs_buf_json_string(b, lo->cfg_func, strlen(lo->cfg_func));
		irs_json_lit(b, ",\"block\":");
		irs_buf_json_string(b, lo->cfg_block, strlen(lo->cfg_block));
		irs_json_lit(b, "}");
	}
	irs_json_lit(b, ",\n\"nodes\":[\n");
}

static void
json_head(struct irs_sink *j, const struct irs_layout *lo,
	  const struct ltype *t, uint64_t root, const char *text_file)
{
	struct irs_buf b;
	irs_buf_init(&b);
	head_buf(&b, lo, t, root, text_file);
	if (b.oom)
		j->failed = true;
	put_buf(j, &b);
	irs_buf_deinit(&b);
}

static void
json_tail(struct irs_sink *j, struct walk *w,
	  const struct irs_snapshot_stats *st)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_json_lit(&b, "\n],\n\"errors\":[\n");
	irs_buf_append(&b, w->json_errors.data ? w->json_errors.data : "",
		       w->json_errors.len);
	irs_json_lit(&b, "\n],\n\"stats\":{\"nodes\":");
	irs_json_u64(&b, st->nodes);
	irs_json_lit(&b, ",\"bytes\":");
	irs_json_u64(&b, st->bytes);
	irs_json_lit(&b, ",\"text_bytes\":");
	irs_json_u64(&b, st->text_bytes);
	irs_json_lit(&b, ",\"text_lines\":");
	irs_json_u64(&b, st->text_lines);
	irs_json_lit(&b, ",\"walk_errors\":");
	irs_json_u64(&b, w->nerrors_total);
	irs_json_lit(&b, ",\"truncated\":");
	irs_json_lit(&b, st->truncated ? "true" : "false");
	irs_json_lit(&b, ",\"hash\":\"");
	irs_json_lit(&b, st->hash);
	irs_json_lit(&b, "\"}}\n");
	if (b.oom)
		j->failed = true;
	put_buf(j, &b);
	irs_buf_deinit(&b);
}

/* }====================================================== */

// The walk itself, into sinks @p text and @p json (either may be NULL).
static struct irs_error *
run(const struct irs_layout *lo, struct irs_memory *mem, uint64_t root,
    const char *type, const struct irs_limits *limits, struct irs_sink *text,
    struct irs_sink *json, const char *text_file,
    struct irs_unit_cache *units, struct irs_snapshot **ret)
{
	struct irs_error *err;
	const struct ltype *t;
	struct walk w;
	if ((err = irs_layout_type_for(lo, type, &t)))
		return err;
	struct irs_snapshot *snap = calloc(1, sizeof(*snap));
	if (!snap)
		return &irs_enomem;
	irs_walk_init(&w, lo, mem, limits);
	w.text = text;
	w.json = json;
	w.ucache = units;
	if (json)
		json_head(json, lo, t, root, text_file);
	err = irs_walk_root(&w, t, root);
	if (err) {
		irs_walk_deinit(&w);
		free(snap);
		return err;
	}
	struct irs_snapshot_stats *st = &snap->stats;
	st->nodes = w.nodes;
	st->bytes = w.bytes;
	st->truncated = w.truncated;
	st->nerrors = w.nerrors_total > UINT32_MAX ? UINT32_MAX
		: (uint32_t)w.nerrors_total;
	// Rendered for its hash only (JSON alone asked for), the text still
	// has its size: the stats describe the IR, whatever was written.
	if (text) {
		st->text_bytes = irs_sink_pos(text);
		if (text->fp)
			err = irs_sink_finish(text, text_file);
		st->text_lines = irs_sink_lines(text);
		irs_sink_hash(text, st->hash);
	} else {
		snprintf(st->hash, sizeof(st->hash), "%016llx", 0ull);
	}
	if (json && !err) {
		json_tail(json, &w, st);
		st->json_bytes = irs_sink_pos(json);
	}
	uint64_t reads = w.reads;
	snap->errors = w.errors;	// the snapshot keeps them
	snap->nerrors = w.nerrors;
	w.errors = NULL;
	w.nerrors = 0;
	irs_walk_deinit(&w);
	if (err) {
		irs_snapshot_destroy(snap);
		return err;
	}
	if (irs_debug('W'))
		fprintf(stderr, "irsnap: walk: %llu nodes, %llu bytes read "
			"in %llu reads, %llu text bytes, %u errors\n",
			(unsigned long long)st->nodes,
			(unsigned long long)st->bytes,
			(unsigned long long)reads,
			(unsigned long long)st->text_bytes, st->nerrors);
	*ret = snap;
	return NULL;
}

// "PATH: write failed: REASON" for a stream whose last flush failed (a
// full disk, a file size limit), right after the failing call. PATH is
// the file's, from /proc/self/fd, named as it will be once renamed into
// place when it is an irs_atomic_open() file ("<path>.tmp.<pid>.<n>");
// @p fallback when the stream is no file.
static struct irs_error *
flush_error(FILE *fp, const char *fallback)
{
	int saved = errno ? errno : EIO;
	char link[64], path[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fileno(fp));
	ssize_t n = fileno(fp) < 0 ? -1 : readlink(link, path,
						   sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	char *base = strrchr(path, '/'), *tmp = NULL;
	for (char *p = base; p && (p = strstr(p, ".tmp.")); p++)
		tmp = p;
	unsigned pid, k;
	int end = 0;
	if (tmp && sscanf(tmp, ".tmp.%u.%u%n", &pid, &k, &end) == 2 &&
	    !tmp[end])
		*tmp = '\0';
	return irs_error_format(IRS_ERROR_IO, "%s: write failed: %s",
				path[0] == '/' ? path : fallback,
				strerror(saved));
}

static struct irs_error *
stream(const struct irs_layout *lo, struct irs_memory *mem, uint64_t root,
       const char *type, const struct irs_limits *limits, FILE *text,
       FILE *json, const char *text_file, struct irs_unit_cache *units,
       struct irs_snapshot **ret)
{
	struct irs_error *err;
	struct irs_sink ts, js;
	struct irs_snapshot *snap = NULL;
	// JSON only: the text is still rendered, into nothing, for the
	// content hash (xxh64 of the text) that events and dumps report and
	// that tells a changed pass from one that left the IR alone.
	FILE *discard = NULL;
	if (!text && json && !(text = discard = fopen("/dev/null", "w")))
		return irs_error_format(IRS_ERROR_IO, "cannot open /dev/null");
	if (text && (err = irs_sink_init(&ts, text, true))) {
		if (discard)
			fclose(discard);
		return err;
	}
	if (json && (err = irs_sink_init(&js, json, false))) {
		if (text)
			irs_sink_deinit(&ts);
		if (discard)
			fclose(discard);
		return err;
	}
	err = run(lo, mem, root, type, limits, text ? &ts : NULL,
		  json ? &js : NULL, discard ? NULL : text_file, units, &snap);
	if (discard) {
		irs_sink_deinit(&ts);
		fclose(discard);
		text = NULL;
	}
	if (!err && json)
		err = irs_sink_finish(&js, "JSON output");
	if (!err && text && ts.failed)
		err = irs_sink_finish(&ts, "text output");
	if (text)
		irs_sink_deinit(&ts);
	if (json)
		irs_sink_deinit(&js);
	if (!err && text && fflush(text))
		err = flush_error(text, text_file ? text_file : "text output");
	if (!err && json && fflush(json))
		err = flush_error(json, "JSON output");
	if (err) {
		irs_snapshot_destroy(snap);
		return err;
	}
	*ret = snap;
	return NULL;
}

struct irs_error *
irs_snapshot_stream(const struct irs_layout *lo, struct irs_memory *mem,
		    uint64_t root, const char *type,
		    const struct irs_limits *limits, FILE *text, FILE *json,
		    const char *text_file, struct irs_snapshot **ret)
{
	return stream(lo, mem, root, type, limits, text, json, text_file,
		      NULL, ret);
}

// Commits the text file @p tf, then the JSON @p jf unless that failed
// (then it aborts it); either may be NULL.
static struct irs_error *
commit_files(struct irs_atomic_file *tf, struct irs_atomic_file *jf)
{
	struct irs_error *err = tf ? irs_atomic_commit(tf) : NULL;
	if (jf) {
		if (err)
			irs_atomic_abort(jf);
		else
			err = irs_atomic_commit(jf);
	}
	return err;
}

struct irs_error *
irs_snapshot_write(const struct irs_layout *lo, struct irs_memory *mem,
		   uint64_t root, const char *type,
		   const struct irs_limits *limits, const char *text_path,
		   const char *json_path, struct irs_snapshot **ret)
{
	return irs_snapshot_write_units(lo, mem, root, type, limits,
					text_path, json_path, NULL, ret);
}

struct irs_error *
irs_snapshot_write_units(const struct irs_layout *lo,
			 struct irs_memory *mem, uint64_t root,
			 const char *type, const struct irs_limits *limits,
			 const char *text_path, const char *json_path,
			 struct irs_unit_cache *units,
			 struct irs_snapshot **ret)
{
	struct irs_error *err;
	struct irs_atomic_file tf = { 0 }, jf = { 0 };
	struct irs_snapshot *snap;
	if (text_path && (err = irs_atomic_open(&tf, text_path)))
		return err;
	if (json_path && (err = irs_atomic_open(&jf, json_path))) {
		if (text_path)
			irs_atomic_abort(&tf);
		return err;
	}
	const char *base = NULL;
	if (text_path) {
		base = strrchr(text_path, '/');
		base = base ? base + 1 : text_path;
	}
	err = stream(lo, mem, root, type, limits, text_path ? tf.fp : NULL,
		     json_path ? jf.fp : NULL, base, units, &snap);
	if (err) {
		if (text_path)
			irs_atomic_abort(&tf);
		if (json_path)
			irs_atomic_abort(&jf);
		return err;
	}
	err = commit_files(text_path ? &tf : NULL, json_path ? &jf : NULL);
	if (err) {
		irs_snapshot_destroy(snap);
		return err;
	}
	*ret = snap;
	return NULL;
}

struct irs_error *
irs_snapshot_write_json(const struct irs_layout *lo, struct irs_memory *mem,
			uint64_t root, const char *type,
			const struct irs_limits *limits,
			const char *json_path, const char *text_file,
			struct irs_snapshot **ret)
{
	struct irs_error *err;
	struct irs_atomic_file jf = { 0 };
	struct irs_snapshot *snap;
	// The text is rendered into nothing but counted and hashed, as it is
	// for a text file: the stats come out as a walk writing both gives.
	FILE *discard = fopen("/dev/null", "w");
	if (!discard)
		return irs_error_format(IRS_ERROR_IO, "cannot open /dev/null");
	if ((err = irs_atomic_open(&jf, json_path))) {
		fclose(discard);
		return err;
	}
	err = stream(lo, mem, root, type, limits, discard, jf.fp, text_file,
		     NULL, &snap);
	fclose(discard);
	if (err) {
		irs_atomic_abort(&jf);
		return err;
	}
	if ((err = irs_atomic_commit(&jf))) {
		irs_snapshot_destroy(snap);
		return err;
	}
	*ret = snap;
	return NULL;
}

struct irs_error *
irs_snapshot_text(const struct irs_layout *lo, struct irs_memory *mem,
		  uint64_t root, const char *type,
		  const struct irs_limits *limits, char **text_ret,
		  struct irs_snapshot **ret)
{
	struct irs_error *err;
	struct irs_sink ts;
	struct irs_snapshot *snap;
	if ((err = irs_sink_init(&ts, NULL, true)))
		return err;
	err = run(lo, mem, root, type, limits, &ts, NULL, NULL, NULL,
		  &snap);
	if (err) {
		irs_sink_deinit(&ts);
		return err;
	}
	char *text = ts.failed ? NULL : irs_sink_steal(&ts, NULL);
	irs_sink_deinit(&ts);
	if (!text) {
		irs_snapshot_destroy(snap);
		return &irs_enomem;
	}
	*text_ret = text;
	*ret = snap;
	return NULL;
}

void
irs_snapshot_destroy(struct irs_snapshot *snap)
{
	if (!snap)
		return;
	for (uint32_t i = 0; i < snap->nerrors; i++)
		free(snap->errors[i]);
	free(snap->errors);
	free(snap);
}

void
irs_snapshot_get_stats(const struct irs_snapshot *snap,
		       struct irs_snapshot_stats *ret)
{
	*ret = snap->stats;
}

const char *
irs_snapshot_error(const struct irs_snapshot *snap, uint32_t i)
{
	return i < snap->nerrors ? snap->errors[i] : NULL;
}

static const char *
base_name(const char *path)
{
	const char *base = path ? strrchr(path, '/') : NULL;
	return base ? base + 1 : path;
}

// Whether file @p path begins with the @p n bytes at @p want.
static struct irs_error *
check_head(const char *path, const char *want, size_t n)
{
	int fd;
	struct irs_error *err = irs_file_open_regular(path, &fd, NULL);
	if (err)
		return err;
	FILE *fp = fdopen(fd, "rb");
	if (!fp) {
		close(fd);
		return &irs_enomem;
	}
	char buf[4096];
	size_t at = 0;
	bool same = true;
	while (same && at < n) {
		size_t k = n - at < sizeof(buf) ? n - at : sizeof(buf);
		same = fread(buf, 1, k, fp) == k && !memcmp(buf, want + at, k);
		at += k;
	}
	fclose(fp);
	if (!same)
		return irs_error_format(IRS_ERROR_FORMAT, "%s: not the "
					"snapshot expected", path);
	return NULL;
}

static struct irs_error *
copy_json(const struct irs_layout *lo, const struct ltype *t, uint64_t root,
	  const char *from_text, const char *from_json, const char *text_path,
	  const char *json_path, struct irs_atomic_file *jf)
{
	struct irs_error *err;
	struct irs_buf old, head;
	irs_buf_init(&old);
	irs_buf_init(&head);
	head_buf(&old, lo, t, root, base_name(from_text));
	head_buf(&head, lo, t, root, base_name(text_path));
	if (old.oom || head.oom)
		err = &irs_enomem;
	else if (!(err = check_head(from_json, old.data, old.len)) &&
		 !(err = irs_atomic_open(jf, json_path))) {
		if (fwrite(head.data, 1, head.len, jf->fp) != head.len)
			err = irs_error_format(IRS_ERROR_IO, "%s: write "
					       "failed: %s", json_path,
					       strerror(errno));
		else
			err = irs_atomic_append_file(jf, from_json, old.len);
		if (err)
			irs_atomic_abort(jf);
	}
	irs_buf_deinit(&old);
	irs_buf_deinit(&head);
	return err;
}

struct irs_error *
irs_snapshot_copy(const struct irs_layout *lo, uint64_t root, const char *type,
		  const char *from_text, const char *from_json,
		  const char *text_path, const char *json_path)
{
	struct irs_error *err;
	const struct ltype *t;
	struct irs_atomic_file tf = { 0 }, jf = { 0 };
	if ((err = irs_layout_type_for(lo, type, &t)))
		return err;
	if ((text_path && !from_text) || (json_path && !from_json))
		return irs_error_format(IRS_ERROR_USAGE, "snapshot copy: no "
					"file to copy");
	// The JSON first: it is the one that can turn out not to fit.
	if (json_path && (err = copy_json(lo, t, root, from_text, from_json,
					  text_path, json_path, &jf)))
		return err;
	// The text is the same bytes: a hard link to them, where the file
	// system has them, costs no space (snapshots are never rewritten).
	bool linked = false;
	if (text_path) {
		struct irs_error *lerr = irs_atomic_link(from_text, text_path);
		linked = !lerr;
		irs_error_destroy(lerr);
	}
	if (text_path && !linked &&
	    (err = irs_atomic_open(&tf, text_path)) == NULL &&
	    (err = irs_atomic_append_file(&tf, from_text, 0)))
		irs_atomic_abort(&tf);
	if (err) {
		if (json_path)
			irs_atomic_abort(&jf);
		return err;
	}
	err = commit_files(text_path && !linked ? &tf : NULL,
			   json_path ? &jf : NULL);
	if (err && linked)
		unlink(text_path);
	return err;
}
