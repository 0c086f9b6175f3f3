// manifest.json (irsnap.manifest/1): built as a jansson document and
// rewritten whole, atomically, after every event, so a reader (or a
// debugger killed at any moment) always finds a complete manifest. Each
// event is serialised once and its text kept: a pipeline of thousands of
// passes then rewrites a copy of the events, not a serialisation of all
// of them per event (which grew quadratically: 1,000 passes took 7 s).
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/run.h"

void
irs_manifest_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_t *
irs_json_text(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	// Names and output read from the debuggee need not be UTF-8; jansson
	// refuses those, so bytes of broken sequences become '?'.
	char *copy = strdup(s);
	if (!copy)
		return NULL;
	unsigned char *u = (unsigned char *)copy;
	for (size_t i = 0; u[i]; ) {
		size_t len = u[i] < 0x80 ? 1 : u[i] >= 0xf0 ? 4
			   : u[i] >= 0xe0 ? 3 : u[i] >= 0xc2 ? 2 : 0;
		size_t k = 1;
		while (len > 1 && k < len && (u[i + k] & 0xc0) == 0x80)
			k++;
		if (len == 0 || k < len || u[i] > 0xf4) {
			u[i++] = '?';
			continue;
		}
		i += len;
	}
	j = json_string(copy);
	if (!j) {
		// Overlong or surrogate forms: keep ASCII only.
		for (size_t i = 0; u[i]; i++)
			if (u[i] >= 0x80)
				u[i] = '?';
		j = json_string(copy);
	}
	free(copy);
	return j;
}

// A string member, or null for NULL.
static json_t *
str_or_null(const char *s)
{
	return irs_json_text(s);
}

static json_t *
formats(const struct irs_session_config *cfg)
{
	json_t *a = json_array();
	if (cfg->write_text)
		json_array_append_new(a, json_string("text"));
	if (cfg->write_json)
		json_array_append_new(a, json_string("json"));
	return a;
}

struct irs_error *
irs_manifest_init(struct irs_manifest *m, const char *dir, const char *run_id,
		  const struct irs_session_config *cfg, const char *layout_name)
{
	char now[32];

	memset(m, 0, sizeof(*m));
	irs_manifest_now(now, sizeof(now));
	m->path = irs_path_join(dir, "manifest.json");
	m->run_id = strdup(run_id);
	// json_pack's "o" steals each reference, and on any failure frees
	// what it was given, so this is all-or-nothing. The events array gets
	// an extra reference of ours to outlive a failure; dropped below.
	m->events = json_incref(json_array());
	m->root = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:n}",
		"schema", "irsnap.manifest/1",
		"run_id", run_id,
		"irsnap_version", IRS_VERSION,
		"created", now,
		"updated", now,
		"status", "running",
		"debugger", str_or_null(cfg->debugger),
		"debuggee", json_pack("{s:o, s:o, s:o, s:b, s:b}",
				      "exe", str_or_null(cfg->debuggee),
				      "args", str_or_null(cfg->args),
				      "pid", cfg->pid > 0 ?
				      json_integer(cfg->pid) : json_null(),
				      "attached", cfg->attached,
				      "core", cfg->pid_is_history),
		"layout", json_pack("{s:o, s:o}",
				    "path", str_or_null(cfg->layout_path),
				    "name", str_or_null(layout_name)),
		"options", json_pack("{s:b, s:o}",
				     "changed_only", cfg->changed_only,
				     "formats", formats(cfg)),
		"events", m->events,
		"failure");
	json_decref(m->events);		// root holds it (if any); we borrow
	if (!m->root)
		m->events = NULL;
	if (!m->path || !m->run_id || !m->root) {
		irs_manifest_deinit(m);
		return &irs_enomem;
	}
	return NULL;
}

// Forgets the text of event @p i, to be serialised anew.
static void
forget_text(struct irs_manifest *m, size_t i)
{
	if (i < m->ntexts) {
		free(m->texts[i]);
		m->texts[i] = NULL;
	}
}

void
irs_manifest_deinit(struct irs_manifest *m)
{
	for (size_t i = 0; i < m->ntexts; i++)
		free(m->texts[i]);
	free(m->texts);
	json_decref(m->root);
	free(m->path);
	free(m->run_id);
	memset(m, 0, sizeof(*m));
}

enum { DUMP_FLAGS = JSON_INDENT(2) | JSON_PRESERVE_ORDER };

// Event @p ev as it sits in the document: indented two levels (JSON
// strings hold no raw newline, so every '\n' starts a line).
static char *
event_text(const json_t *ev)
{
	char *flat = json_dumps(ev, DUMP_FLAGS);
	if (!flat)
		return NULL;
	size_t lines = 1, len = strlen(flat);
	for (const char *p = flat; (p = strchr(p, '\n')); p++)
		lines++;
	char *out = malloc(len + 4 * lines + 1), *q = out;
	if (out) {
		memcpy(q, "    ", 4);
		q += 4;
		for (const char *p = flat; *p; p++) {
			*q++ = *p;
			if (*p == '\n') {
				memcpy(q, "    ", 4);
				q += 4;
			}
		}
		*q = '\0';
	}
	free(flat);
	return out;
}

// The text of every event, made for those that have none.
static bool
event_texts(struct irs_manifest *m)
{
	size_t n = json_array_size(m->events);
	if (n > m->ntexts) {
		size_t cap = m->ntexts ? m->ntexts : 16;
		while (cap < n)
			cap *= 2;
		char **t = realloc(m->texts, cap * sizeof(*t));
		if (!t)
			return false;
		memset(t + m->ntexts, 0, (cap - m->ntexts) * sizeof(*t));
		m->texts = t;
		m->ntexts = cap;
	}
	for (size_t i = 0; i < n; i++)
		if (!m->texts[i] &&
		    !(m->texts[i] = event_text(json_array_get(m->events, i))))
			return false;
	return true;
}

// The document without its events, dumped with an empty array in their
// place (swapped in and back: root keeps its key order).
static char *
dump_frame(struct irs_manifest *m)
{
	json_t *events = json_incref(m->events);
	char *doc = NULL;
	if (!json_object_set_new(m->root, "events", json_array()))
		doc = json_dumps(m->root, DUMP_FLAGS);
	if (json_object_set(m->root, "events", events)) {
		// cannot put them back: no document is better than a wrong one
		free(doc);
		doc = NULL;
	}
	json_decref(events);
	return doc;
}

// Writes the document to @p fp: the frame, the event texts spliced in.
static bool
write_doc(struct irs_manifest *m, FILE *fp)
{
	static const char key[] = "\n  \"events\": []";
	char *doc = dump_frame(m);
	char *at = doc ? strstr(doc, key) : NULL;
	if (!at) {
		free(doc);
		return false;
	}
	size_t n = json_array_size(m->events);
	size_t head = (size_t)(at - doc) + sizeof(key) - 2;	// up to '['
	bool ok = fwrite(doc, 1, head, fp) == head;
	for (size_t i = 0; ok && i < n; i++)
		ok = fputs(i ? ",\n" : "\n", fp) != EOF &&
		     fputs(m->texts[i], fp) != EOF;
	ok = ok && fputs(n ? "\n  ]" : "]", fp) != EOF &&
	     fputs(at + sizeof(key) - 1, fp) != EOF && fputc('\n', fp) != EOF;
	free(doc);
	return ok;
}

struct irs_error *
irs_manifest_save(struct irs_manifest *m)
{
	char now[32];
	struct irs_atomic_file af;

	irs_manifest_now(now, sizeof(now));
	if (json_object_set_new(m->root, "updated", json_string(now)) != 0 ||
	    !event_texts(m))
		return &irs_enomem;
	struct irs_error *err = irs_atomic_open(&af, m->path);
	if (err)
		return err;
	if (!write_doc(m, af.fp)) {
		// The commit below sees the stream's error and names the file.
		if (!ferror(af.fp)) {
			irs_atomic_abort(&af);
			return irs_error_format(IRS_ERROR_IO, "%s: cannot "
						"write", m->path);
		}
	}
	return irs_atomic_commit(&af);
}

bool
irs_manifest_set_status(struct irs_manifest *m, const char *status)
{
	return json_object_set_new(m->root, "status", json_string(status)) == 0;
}

bool
irs_manifest_push_event(struct irs_manifest *m, json_t *ev)
{
	return ev && json_array_append_new(m->events, ev) == 0;
}

void
irs_manifest_pop_event(struct irs_manifest *m)
{
	size_t n = json_array_size(m->events);
	if (n) {
		forget_text(m, n - 1);
		json_array_remove(m->events, n - 1);
	}
}

json_t *
irs_manifest_event(uint32_t seq, const char *pass, const char *phase,
		   const char *text, const char *json, bool skipped,
		   const struct irs_snapshot_stats *st)
{
	json_t *snap;
	if (skipped || (!text && !json)) {
		snap = json_null();
	} else {
		snap = json_object();
		if (text)
			json_object_set_new(snap, "text", json_string(text));
		if (json)
			json_object_set_new(snap, "json", json_string(json));
	}
	return json_pack("{s:I, s:o, s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:b, "
			 "s:s, s:I, s:n, s:[]}",
			 "seq", (json_int_t)seq,
			 "pass", irs_json_text(pass ? pass : ""),
			 "phase", phase,
			 "snapshot", snap,
			 "nodes", (json_int_t)st->nodes,
			 "bytes", (json_int_t)st->bytes,
			 "text_bytes", (json_int_t)st->text_bytes,
			 "text_lines", (json_int_t)st->text_lines,
			 "json_bytes", (json_int_t)st->json_bytes,
			 "truncated", st->truncated,
			 "hash", st->hash,
			 "walk_errors", (json_int_t)st->nerrors,
			 "cpu_s",
			 "verifiers");
}

bool
irs_manifest_lost(struct irs_manifest *m, uint32_t seq, const char *pass,
		  const char *phase, const char *error)
{
	json_t *lost = json_object_get(m->root, "lost");
	if (!json_is_array(lost)) {
		if (json_object_set_new(m->root, "lost", json_array()) ||
		    !(lost = json_object_get(m->root, "lost")))
			return false;
	}
	json_t *entry = json_pack("{s:I, s:o, s:s, s:o}", "seq",
				  (json_int_t)seq, "pass",
				  irs_json_text(pass ? pass : ""), "phase",
				  phase, "error",
				  irs_json_text(error ? error : ""));
	return entry && json_array_append_new(lost, entry) == 0 &&
	       json_object_set_new(m->root, "incomplete", json_true()) == 0;
}

// An event to pair: its seq, and where it came in the array.
struct keyed {
	json_int_t seq;
	size_t at;
};

static int
by_seq(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

struct irs_error *
irs_manifest_passes(const json_t *events, struct irs_manifest_pass **ret,
		    size_t *n_ret)
{
	size_t n = json_array_size(events), nk = 0, np = 0;

	*ret = NULL;
	*n_ret = 0;
	if (!n)
		return NULL;
	// Sorted, not searched per event: a pipeline of 40,000 passes made
	// the search back through the passes so far quadratic (60 s).
	struct keyed *k = malloc(n * sizeof(*k));
	struct irs_manifest_pass *p = malloc(n * sizeof(*p));
	if (!k || !p) {
		free(k);
		free(p);
		return &irs_enomem;
	}
	for (size_t i = 0; i < n; i++) {
		const json_t *ev = json_array_get(events, i);
		const json_t *seq = json_object_get(ev, "seq");
		const char *phase = json_string_value(json_object_get(ev,
								      "phase"));
		if (json_is_integer(seq) && phase && (!strcmp(phase, "before") ||
						      !strcmp(phase, "after")))
			k[nk++] = (struct keyed){json_integer_value(seq), i};
	}
	if (nk)
		qsort(k, nk, sizeof(*k), by_seq);
	for (size_t i = 0; i < nk; i++) {
		if (!np || p[np - 1].seq != k[i].seq)
			p[np++] = (struct irs_manifest_pass){ .seq = k[i].seq };
		const json_t *ev = json_array_get(events, k[i].at);
		const char *phase = json_string_value(json_object_get(ev,
								      "phase"));
		if (!strcmp(phase, "before"))
			p[np - 1].before = ev;
		else
			p[np - 1].after = ev;
	}
	free(k);
	if (!np) {
		free(p);
		return NULL;
	}
	*ret = p;
	*n_ret = np;
	return NULL;
}

bool
irs_manifest_event_json(struct irs_manifest *m, json_t *ev, const char *json,
			const struct irs_snapshot_stats *st)
{
	json_t *snap = json_object_get(ev, "snapshot");
	if (!json_is_object(snap))
		return false;
	for (size_t i = json_array_size(m->events); i-- > 0;)
		if (json_array_get(m->events, i) == ev) {
			forget_text(m, i);
			break;
		}
	return !json_object_set_new(snap, "json", json_string(json)) &&
	       !json_object_set_new(ev, "json_bytes",
				    json_integer((json_int_t)st->json_bytes)) &&
	       !json_object_set_new(ev, "bytes",
				    json_integer((json_int_t)st->bytes));
}

bool
irs_manifest_event_verifier(struct irs_manifest *m, json_t *ev,
			    const struct irs_verifier_result *r)
{
	for (size_t i = json_array_size(m->events); i-- > 0;)
		if (json_array_get(m->events, i) == ev) {
			forget_text(m, i);
			break;
		}
	json_t *list = json_object_get(ev, "verifiers");
	const char *status = r->none ? "none" : !r->ran ? "not run"
			     : r->problems ? "failed" : "ok";
	json_t *v = json_pack("{s:o, s:s, s:I, s:o}", "name",
			      irs_json_text(r->name ? r->name : ""),
			      "status", status,
			      "problems", (json_int_t)(r->ran ? r->problems : 0),
			      "output", str_or_null(r->output));
	if (v && !r->ran && json_object_set_new(v, "reason",
			irs_json_text(r->reason ? r->reason : "unknown")))
		goto oom;
	if (v && r->call && json_object_set_new(v, "call",
						irs_json_text(r->call)))
		goto oom;
	if (v && r->has_value && json_object_set_new(v, "value",
				json_integer((json_int_t)r->value)))
		goto oom;
	return list && v && json_array_append_new(list, v) == 0;
oom:
	json_decref(v);
	return false;
}

const json_t *
irs_manifest_pass_cpu(const json_t *after, json_int_t seq,
		      const json_t *failure)
{
	const json_t *fpass = json_object_get(failure, "pass");
	if (after)
		return json_object_get(after, "cpu_s");
	if (seq > 0 && json_integer_value(json_object_get(fpass, "seq")) == seq)
		return json_object_get(fpass, "cpu_s");
	return NULL;
}

void
irs_manifest_verdict(const json_t *ev, struct irs_verdict *v)
{
	size_t i;
	json_t *r;

	json_array_foreach(json_object_get(ev, "verifiers"), i, r) {
		const char *st = json_string_value(json_object_get(r,
								   "status"));
		if (st && !strcmp(st, "not run")) {
			v->nnotrun++;
			continue;
		}
		if (st && !strcmp(st, "none")) {	// nothing to run
			v->nnone++;
			continue;
		}
		v->nran++;
		json_int_t n = json_integer_value(json_object_get(r,
								  "problems"));
		v->problems += n > 0 ? (uint64_t)n : 0;
	}
}

void
irs_verdict_text(const struct irs_verdict *v, char *buf, size_t len)
{
	char ran[48] = "";

	if (v->problems)
		snprintf(ran, sizeof(ran), "%llu problem%s",
			 (unsigned long long)v->problems,
			 v->problems == 1 ? "" : "s");
	else if (v->nran)
		snprintf(ran, sizeof(ran), "ok");
	if (!v->nnotrun && !*ran && v->nnone)
		snprintf(buf, len, "no verifier");
	else if (!v->nnotrun)
		snprintf(buf, len, "%s", *ran ? ran : "-");
	else if (!*ran)
		snprintf(buf, len, "not run");
	else
		snprintf(buf, len, "%s, %u not run", ran, v->nnotrun);
}
