// manifest.json (irsnap.manifest/2): a run's header and summary, a small
// jansson document rewritten whole, atomically, when the run starts, when
// its status changes, when it ends, and at most every few seconds between
// (irs_manifest_due()), never per event: the events are lines of
// events.jsonl (events.c). Also what the readers of both versions share:
// events paired into passes, CPU times, verifier verdicts.
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

// Seconds on the monotonic clock.
static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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
	m->started = now_s();
	const char *env = getenv("IRSNAP_MANIFEST_PERIOD");
	char *end;
	m->period = env ? strtod(env, &end) : 0;
	if (!env || end == env || *end || !(m->period >= 0))
		m->period = IRS_MANIFEST_PERIOD_S;
	// json_pack's "o" steals each reference, and on any failure frees
	// what it was given, so this is all-or-nothing.
	m->root = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, "
		"s:n}",
		"schema", "irsnap.manifest/2",
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
		"event_log", json_pack("{s:s, s:s}", "file", IRS_EVENT_LOG,
				       "schema", "irsnap.event/1"),
		"summary", json_pack("{s:i, s:i}", "events", 0, "passes", 0),
		"failure");
	if (!m->path || !m->run_id || !m->root) {
		irs_manifest_deinit(m);
		return &irs_enomem;
	}
	return NULL;
}

void
irs_manifest_deinit(struct irs_manifest *m)
{
	json_decref(m->root);
	free(m->path);
	free(m->run_id);
	memset(m, 0, sizeof(*m));
}

struct irs_error *
irs_manifest_save(struct irs_manifest *m)
{
	char now[32];
	struct irs_atomic_file af;

	irs_manifest_now(now, sizeof(now));
	if (json_object_set_new(m->root, "updated", json_string(now)) != 0)
		return &irs_enomem;
	struct irs_error *err = irs_atomic_open(&af, m->path);
	if (err)
		return err;
	if (json_dumpf(m->root, af.fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER)
	    || fputc('\n', af.fp) == EOF) {
		// The commit below sees the stream's error and names the file.
		if (!ferror(af.fp)) {
			irs_atomic_abort(&af);
			return irs_error_format(IRS_ERROR_IO, "%s: cannot "
						"write", m->path);
		}
	}
	err = irs_atomic_commit(&af);
	if (!err)
		m->saved_at = now_s();
	return err;
}

bool
irs_manifest_due(const struct irs_manifest *m)
{
	return now_s() - m->saved_at >= m->period;
}

double
irs_manifest_elapsed(const struct irs_manifest *m)
{
	return now_s() - m->started;
}

bool
irs_manifest_set_summary(struct irs_manifest *m, uint64_t events,
			 uint32_t passes)
{
	return !json_object_set_new(m->root, "summary", json_pack("{s:I, s:I}",
		"events", (json_int_t)events, "passes", (json_int_t)passes));
}

bool
irs_manifest_set_status(struct irs_manifest *m, const char *status)
{
	return json_object_set_new(m->root, "status", json_string(status)) == 0;
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
irs_manifest_event_json(json_t *ev, const char *json,
			const struct irs_snapshot_stats *st)
{
	json_t *snap = json_object_get(ev, "snapshot");
	if (!json_is_object(snap))
		return false;
	// The graph's walk errors are the event's (a graph written later,
	// from the bytes kept, may miss fields its text did not show).
	return !json_object_set_new(snap, "json", json_string(json)) &&
	       !json_object_set_new(ev, "json_bytes",
				    json_integer((json_int_t)st->json_bytes)) &&
	       !json_object_set_new(ev, "bytes",
				    json_integer((json_int_t)st->bytes)) &&
	       !json_object_set_new(ev, "walk_errors",
				    json_integer((json_int_t)st->nerrors));
}

bool
irs_manifest_event_verifier(json_t *ev, const struct irs_verifier_result *r)
{
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
