// events.jsonl: a run's pass events, one JSON object a line, appended as
// the run goes (docs/formats.md, irsnap.event/1). Each line goes out in
// one write() on an O_APPEND descriptor, so a debugger killed at any
// moment leaves every event it finished as a whole line and at most a torn
// last one, and a run of any length writes each event once: the manifest
// that listed them all was rewritten per event, a trace's bytes growing
// with the square of its length (issue 26).
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run.h"

// Ten significant digits: microseconds of a run of hours, nanoseconds of
// a pass's CPU time; jansson's default seventeen add only noise.
enum { DUMP_FLAGS = JSON_COMPACT | JSON_PRESERVE_ORDER |
		    JSON_REAL_PRECISION(10) };

/* {==== Writing ========================================================== */

struct irs_error *
irs_event_log_create(struct irs_event_log *log, const char *dir)
{
	memset(log, 0, sizeof(*log));
	log->fd = -1;
	if (!(log->path = irs_path_join(dir, IRS_EVENT_LOG)))
		return &irs_enomem;
	// A new run directory's own file: never one that was there.
	log->fd = open(log->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND |
		       O_CLOEXEC | O_NOFOLLOW, 0666);
	if (log->fd < 0) {
		struct irs_error *err = irs_error_format(IRS_ERROR_IO,
			"%s: cannot create: %s", log->path, strerror(errno));
		irs_event_log_close(log);
		return err;
	}
	return NULL;
}

void
irs_event_log_close(struct irs_event_log *log)
{
	if (log->fd >= 0)
		close(log->fd);
	free(log->path);
	irs_buf_deinit(&log->line);
	memset(log, 0, sizeof(*log));
	log->fd = -1;
}

bool
irs_event_log_rename(struct irs_event_log *log, const char *dir)
{
	char *path = irs_path_join(dir, IRS_EVENT_LOG);
	if (!path)
		return false;
	free(log->path);
	log->path = path;
	return true;
}

// Appends the line in log->line, whole or not at all: a write cut short
// (a full disk, a file size limit) is cut back off the file, so the next
// line starts a line.
static struct irs_error *
write_line(struct irs_event_log *log)
{
	const char *p = log->line.data;
	size_t left = log->line.len;
	while (left) {
		ssize_t n = write(log->fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int saved = n < 0 ? errno : ENOSPC;
			if (p != log->line.data &&
			    ftruncate(log->fd, (off_t)log->size) != 0)
				log->torn = true;
			return irs_error_format(IRS_ERROR_IO, "%s: write "
						"failed: %s", log->path,
						strerror(saved));
		}
		p += n;
		left -= (size_t)n;
	}
	log->size += log->line.len;
	log->nlines++;
	return NULL;
}

struct irs_error *
irs_event_log_append_text(struct irs_event_log *log, const char *line,
			  size_t len)
{
	if (log->fd < 0)
		return irs_error_format(IRS_ERROR_STATE, "the event log is "
					"closed");
	log->line.len = 0;
	if (log->torn)
		irs_buf_puts(&log->line, "\n");
	if (!irs_buf_append(&log->line, line, len))
		return &irs_enomem;
	struct irs_error *err = write_line(log);
	if (!err)
		log->torn = false;
	return err;
}

// A string as jansson writes it (JSON_COMPACT, not JSON_ENSURE_ASCII):
// quotes, backslashes and control characters escaped, the rest as is;
// bytes that are not UTF-8 as irs_json_text() makes them, '?'.
static void
put_string(struct irs_buf *b, const char *s)
{
	json_t *j = NULL;
	const char *v = s;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= 0x80) {	// only then can it be no UTF-8
			j = irs_json_text(s);
			v = json_string_value(j);
			break;
		}
	if (!v) {
		b->oom = true;
		json_decref(j);
		return;
	}
	irs_buf_puts(b, "\"");
	for (const char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;
		switch (c) {
		case '"': irs_buf_puts(b, "\\\""); break;
		case '\\': irs_buf_puts(b, "\\\\"); break;
		case '\b': irs_buf_puts(b, "\\b"); break;
		case '\f': irs_buf_puts(b, "\\f"); break;
		case '\n': irs_buf_puts(b, "\\n"); break;
		case '\r': irs_buf_puts(b, "\\r"); break;
		case '\t': irs_buf_puts(b, "\\t"); break;
		default:
			if (c < 0x20)
				irs_buf_printf(b, "\\u%04X", c);
			else
				irs_buf_append(b, p, 1);
		}
	}
	irs_buf_puts(b, "\"");
	json_decref(j);
}

// A real as jansson writes it at precision 10: %.10g, ".0" when that
// reads as an integer, the exponent without '+' or leading zeros.
static void
put_real(struct irs_buf *b, double v)
{
	char s[64];
	if (!isfinite(v)) {	// jansson makes no such real either
		irs_buf_puts(b, "null");
		return;
	}
	snprintf(s, sizeof(s), "%.10g", v);
	if (!strpbrk(s, ".e"))
		strcat(s, ".0");
	char *e = strchr(s, 'e');
	if (!e) {
		irs_buf_puts(b, s);
		return;
	}
	irs_buf_append(b, s, (size_t)(e - s) + 1);
	const char *x = e + 1;
	if (*x == '+')
		x++;
	else if (*x == '-')
		irs_buf_append(b, x++, 1);
	while (*x == '0' && x[1])
		x++;
	irs_buf_puts(b, x);
}

static void
put_u64(struct irs_buf *b, const char *key, uint64_t v)
{
	irs_buf_printf(b, ",\"%s\":%llu", key, (unsigned long long)v);
}

void
irs_event_format(struct irs_buf *b, const struct irs_event_data *e)
{
	const struct irs_snapshot_stats *st = e->st;
	bool after = !strcmp(e->phase, "after");
	irs_buf_printf(b, "{\"seq\":%u,\"pass\":", e->seq);
	put_string(b, e->pass ? e->pass : "");
	irs_buf_printf(b, ",\"phase\":\"%s\",\"snapshot\":", e->phase);
	if (e->skipped || (!e->text && !e->json)) {
		irs_buf_puts(b, "null");
	} else {
		irs_buf_puts(b, "{");
		if (e->text) {
			irs_buf_puts(b, "\"text\":");
			put_string(b, e->text);
		}
		if (e->json) {
			irs_buf_puts(b, e->text ? ",\"json\":" : "\"json\":");
			put_string(b, e->json);
		}
		irs_buf_puts(b, "}");
	}
	put_u64(b, "nodes", st->nodes);
	put_u64(b, "bytes", st->bytes);
	put_u64(b, "text_bytes", st->text_bytes);
	put_u64(b, "text_lines", st->text_lines);
	put_u64(b, "json_bytes", st->json_bytes);
	irs_buf_printf(b, ",\"truncated\":%s,\"hash\":",
		       st->truncated ? "true" : "false");
	put_string(b, st->hash);
	put_u64(b, "walk_errors", st->nerrors);
	irs_buf_puts(b, ",\"cpu_s\":");
	if (after && e->has_cpu)
		put_real(b, e->cpu_s);
	else
		irs_buf_puts(b, "null");
	irs_buf_puts(b, ",\"verifiers\":[]");
	if (e->position)
		put_u64(b, "position", e->position);
	// The root and its type: a core from a crash deep inside the pass
	// finds the IR there, when the boundary's registers are long gone.
	irs_buf_printf(b, ",\"root\":\"0x%llx\"", (unsigned long long)e->root);
	if (e->root_type) {
		irs_buf_puts(b, ",\"root_type\":");
		put_string(b, e->root_type);
	}
	if (e->instance) {
		irs_buf_puts(b, ",\"instance\":");
		put_string(b, e->instance);
	}
	if (after)
		irs_buf_printf(b, ",\"changed\":%s", e->changed ? "true"
			       : "false");
	if (e->same_as_seq)
		irs_buf_printf(b, ",\"same_as\":{\"seq\":%u,\"phase\":\"%s\"}",
			       e->same_as_seq, e->same_as_phase);
	irs_buf_puts(b, ",\"at_s\":");
	put_real(b, e->at_s);
	irs_buf_puts(b, "}\n");
}

struct irs_error *
irs_event_log_append(struct irs_event_log *log, const json_t *ev)
{
	if (log->fd < 0)
		return irs_error_format(IRS_ERROR_STATE, "the event log is "
					"closed");
	log->line.len = 0;
	// After a cut that could not be undone, end the torn piece first:
	// it is then one bad line, not the head of this one.
	if (log->torn)
		irs_buf_puts(&log->line, "\n");
	size_t at = log->line.len;
	size_t need = json_dumpb(ev, NULL, 0, DUMP_FLAGS);
	if (!need || !irs_buf_reserve(&log->line, need + 1))
		return &irs_enomem;
	if (json_dumpb(ev, log->line.data + at, need, DUMP_FLAGS) != need)
		return &irs_enomem;
	log->line.len = at + need;
	log->line.data[log->line.len++] = '\n';
	log->line.data[log->line.len] = '\0';
	struct irs_error *err = write_line(log);
	if (!err)
		log->torn = false;
	return err;
}

/* }==== Reading ========================================================== */

// One event line's key for replacing an earlier one: its seq and phase,
// and where it came.
struct key {
	json_int_t seq;
	int phase;	// 1 before, 2 after (0: not replaceable)
	size_t at;
};

static int
by_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int
phase_code(const json_t *ev)
{
	const char *p = json_string_value(json_object_get(ev, "phase"));
	return !p ? 0 : !strcmp(p, "before") ? 1 : !strcmp(p, "after") ? 2 : 0;
}

struct irs_error *
irs_event_log_merge(json_t *lines, json_t **ret)
{
	size_t n = json_array_size(lines), nk = 0;
	struct key *k = n ? malloc(n * sizeof(*k)) : NULL;
	bool *drop = n ? calloc(n, sizeof(*drop)) : NULL;
	json_t *out = json_array();
	if ((n && (!k || !drop)) || !out)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		const json_t *ev = json_array_get(lines, i);
		const json_t *seq = json_object_get(ev, "seq");
		int phase = phase_code(ev);
		if (json_is_integer(seq) && phase)
			k[nk++] = (struct key){json_integer_value(seq), phase,
					       i};
	}
	if (nk)
		qsort(k, nk, sizeof(*k), by_key);
	// In each run of one seq and phase, the last line's object takes the
	// first line's place; the others go.
	for (size_t i = 0; i < nk;) {
		size_t j = i + 1;
		while (j < nk && k[j].seq == k[i].seq &&
		       k[j].phase == k[i].phase)
			j++;
		if (j - i > 1) {
			if (json_array_set(lines, k[i].at,
					   json_array_get(lines, k[j - 1].at)))
				goto oom;
			for (size_t m = i + 1; m < j; m++)
				drop[k[m].at] = true;
		}
		i = j;
	}
	for (size_t i = 0; i < n; i++)
		if (!drop[i] && json_array_append(out, json_array_get(lines,
								       i)))
			goto oom;
	free(k);
	free(drop);
	*ret = out;
	return NULL;
oom:
	free(k);
	free(drop);
	json_decref(out);
	return &irs_enomem;
}

struct irs_error *
irs_event_log_read(const char *path, irs_event_line_fn fn, void *arg,
		   struct irs_event_log_info *info)
{
	char *text;
	size_t len;

	memset(info, 0, sizeof(*info));
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err)
		return err;
	size_t lineno = 0;
	for (size_t at = 0; at < len && !err;) {
		char *nl = memchr(text + at, '\n', len - at);
		if (!nl) {	// cut short by a kill: not an event yet
			info->torn_bytes = len - at;
			break;
		}
		size_t n = (size_t)(nl - (text + at));
		lineno++;
		json_error_t jerr;
		json_t *ev = json_loadb(text + at, n, JSON_ALLOW_NUL, &jerr);
		if (ev && !json_is_object(ev)) {
			json_decref(ev);
			ev = NULL;
			snprintf(jerr.text, sizeof(jerr.text), "not a JSON "
				 "object");
			jerr.column = 0;
		}
		if (!ev) {
			if (!info->nbad++) {
				info->bad_line = lineno;
				snprintf(info->bad, sizeof(info->bad), "%s",
					 jerr.text);
			}
		} else {
			err = fn(arg, lineno, ev);	// takes ev
		}
		at += n + 1;
	}
	info->nlines = lineno;
	free(text);
	return err;
}

char *
irs_event_log_describe(const struct irs_event_log_info *info)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	if (info->nbad)
		irs_buf_printf(&b, IRS_EVENT_LOG ": %zu line%s not a JSON "
			       "object, skipped (line %zu: %s)", info->nbad,
			       info->nbad == 1 ? " is" : "s are",
			       info->bad_line, info->bad);
	if (info->torn_bytes)
		irs_buf_printf(&b, "%s" IRS_EVENT_LOG ": its last line was cut "
			       "short (%zu bytes without a newline, left by a "
			       "debugger killed as it wrote them), ignored",
			       info->nbad ? "; " : "", info->torn_bytes);
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

static struct irs_error *
collect(void *arg, size_t line, json_t *ev)
{
	(void)line;
	return json_array_append_new(arg, ev) ? &irs_enomem : NULL;
}

struct irs_error *
irs_event_log_load(const char *path, json_t **ret,
		   struct irs_event_log_info *info)
{
	json_t *lines = json_array();
	if (!lines)
		return &irs_enomem;
	struct irs_error *err = irs_event_log_read(path, collect, lines, info);
	if (!err)
		err = irs_event_log_merge(lines, ret);
	json_decref(lines);
	return err;
}

struct irs_error *
irs_run_load(const char *dir, json_t **ret, struct irs_event_log_info *info)
{
	struct irs_error *err;
	char *path = NULL, *text = NULL;
	size_t len;
	json_error_t jerr;

	memset(info, 0, sizeof(*info));
	if ((err = irs_rundir_file(dir, "manifest.json", &path)) ||
	    (err = irs_file_read(path, &text, &len))) {
		free(path);
		return err;
	}
	json_t *man = json_loadb(text, len, JSON_ALLOW_NUL, &jerr);
	free(text);
	if (!json_is_object(man)) {
		err = man ? irs_error_format(IRS_ERROR_FORMAT, "%s: not a JSON "
					     "object", path)
			  : irs_error_format(IRS_ERROR_FORMAT, "%s:%d:%d: %s",
					     path, jerr.line, jerr.column,
					     jerr.text);
		free(path);
		json_decref(man);
		return err;
	}
	free(path);
	const char *schema = json_string_value(json_object_get(man, "schema"));
	if (schema && !strcmp(schema, "irsnap.manifest/1")) {
		*ret = man;	// its events are inside
		return NULL;
	}
	if (!schema || strcmp(schema, "irsnap.manifest/2")) {
		// the message first: schema lives in man
		err = irs_error_format(IRS_ERROR_FORMAT, "%s/manifest.json: "
				       "schema %s%s%s, not irsnap.manifest/1 "
				       "or /2", dir, schema ? "\"" : "",
				       schema ? schema : "missing",
				       schema ? "\"" : "");
		json_decref(man);
		return err;
	}
	json_t *events = NULL;
	if (!(err = irs_rundir_file(dir, IRS_EVENT_LOG, &path)))
		err = irs_event_log_load(path, &events, info);
	free(path);
	if (!err && json_object_set_new(man, "events", events))
		err = &irs_enomem;
	if (err) {
		json_decref(man);
		return err;
	}
	*ret = man;
	return NULL;
}

/* }======================================================================= */
