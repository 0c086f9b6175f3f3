// `irsnap merge`: the replay directories of a hunt split into shards
// (`irsnap replay --shard K/N`, one per machine or scheduler task) read
// back as one: every failure of every shard bucketed by its signature,
// one irsnap.hunt/1 document, and one failure per signature reduced.
//
// The pipeline, in irs_merge_run():
//   collect      each DIR given, or each replay-* directory below it
//   read_shard   its replay.json; what cannot be merged is one line of
//                the hunt's problems (missing, older schema, another
//                hunt, a shard number seen already), and the rest goes on
//   bucket       failures by signature, counted per shard, first seen
//   reduce       `irsnap reduce RUN` for each signature's first failure
//   write        OUT/replay.json, and the summary table
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>
#include <jansson.h>

#include "tools/tools.h"

// Counts are 64-bit and add up saturating at COUNT_MAX: a schema-valid
// shard may claim any count JSON's integers hold, and a sum must not wrap.
#define COUNT_MAX ((uint64_t)INT64_MAX)

struct shard {
	char *dir;		// absolute
	json_t *doc;		// its replay.json
	uint32_t index, count;
	const char *host, *status;
	uint64_t attempts, failures, timeouts;
};

struct bucket {
	const char *signature;	// borrowed from a shard's doc
	json_t *group;		// the first-seen shard's group object
	uint64_t count;
	uint64_t *per_shard;	// indexed like merge->shards
	uint32_t first_attempt;	// lowest attempt number over all shards
	uint32_t first_shard;	// index into merge->shards
	const char *first_run;	// relative to that shard's directory
	uint32_t *attempts;	// attempt numbers, sorted once all are in
	size_t nattempts, capattempts;
	char *reduce_cmd, *reduce_status, *reduce_line;
};

struct merge {
	const struct irs_merge_config *cfg;
	struct shard *shards;
	uint32_t nshards;
	struct bucket *buckets;
	uint32_t nbuckets, capbuckets;
	json_t *by_signature;	// signature -> index into buckets
	json_t *problems;	// one string per line
	uint64_t attempts, failures, timeouts;
	uint32_t runs;
	char *out;		// output directory, absolute
	char *self;
};

static volatile sig_atomic_t stop;

static void
on_sigint(int sig)
{
	(void)sig;
	stop = 1;
}

static struct irs_error *
problem(struct merge *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct irs_error *
problem(struct merge *m, const char *fmt, ...)
{
	va_list ap;
	char *line;
	va_start(ap, fmt);
	int n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return &irs_enomem;
	if (m->cfg->progress)
		fprintf(stderr, "irsnap merge: %s\n", line);
	json_array_append_new(m->problems, irs_json_text(line));
	free(line);
	return NULL;
}

/* {==== Reading the shards =============================================== */

static bool
is_dir(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static uint32_t
count_of(json_t *doc, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(doc, key));
	return v > 0 && v < (json_int_t)UINT32_MAX ? (uint32_t)v : 0;
}

// A count of failures or attempts, whatever its size (0 when it is none).
static uint64_t
count64_of(json_t *doc, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(doc, key));
	return v > 0 ? (uint64_t)v : 0;
}

static void
add_count(uint64_t *sum, uint64_t n)
{
	*sum = n > COUNT_MAX - *sum ? COUNT_MAX : *sum + n;
}

// Whether shard @p b belongs to the same hunt as the first one, @p a:
// the same program and arguments, layout and shard count.
static bool
same_hunt(const struct shard *a, const struct shard *b)
{
	return a->count == b->count &&
	       json_equal(json_object_get(a->doc, "command"),
			  json_object_get(b->doc, "command")) &&
	       json_equal(json_object_get(a->doc, "layout"),
			  json_object_get(b->doc, "layout"));
}

// Adds replay directory @p dir, or says in a problem line why not.
static struct irs_error *
read_shard(struct merge *m, const char *dir)
{
	char *abs = realpath(dir, NULL);
	if (!abs)
		return problem(m, "%s: %s: not merged", dir, strerror(errno));
	char *path = irs_path_join(abs, "replay.json");
	if (!path) {
		free(abs);
		return &irs_enomem;
	}
	char *text = NULL;
	size_t len;
	struct irs_error *err = irs_file_read(path, &text, &len);
	free(path);
	if (err) {
		irs_error_destroy(err);
		free(abs);
		return problem(m, "%s: no readable replay.json (a shard "
			       "killed before its first attempt ended?): not "
			       "merged", dir);
	}
	json_error_t je;
	json_t *doc = json_loadb(text, len, JSON_ALLOW_NUL, &je);
	free(text);
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	struct shard sh = {.dir = abs, .doc = doc};
	if (!doc) {
		err = problem(m, "%s/replay.json:%d: %s: not merged", dir,
			      je.line, je.text);
		goto skip;
	}
	if (schema && !strcmp(schema, "irsnap.replay/1")) {
		err = problem(m, "%s: irsnap.replay/1, from an irsnap before "
			      "shards (no shard number): not merged", dir);
		goto skip;
	}
	if (!schema || strcmp(schema, "irsnap.replay/2")) {
		err = problem(m, "%s: replay.json is %s, not irsnap.replay/2: "
			      "not merged", dir, schema ? schema : "unnamed");
		goto skip;
	}
	// Checked against its schema first: what the rest reads is there.
	struct irs_buf out;
	uint32_t np = 0;
	irs_buf_init(&out);
	err = irs_schema_validate("irsnap.replay/2", doc, dir, &out, &np);
	if (!err && np) {
		char *nl = out.data ? strchr(out.data, '\n') : NULL;
		if (nl)
			*nl = '\0';
		err = problem(m, "%s: not merged", out.data ? out.data : dir);
	}
	irs_buf_deinit(&out);
	if (err || np)
		goto skip;
	json_t *shard = json_object_get(doc, "shard");
	sh.index = count_of(shard, "index");
	sh.count = count_of(shard, "count");
	sh.host = json_string_value(json_object_get(doc, "host"));
	sh.status = json_string_value(json_object_get(doc, "status"));
	sh.attempts = json_array_size(json_object_get(doc, "attempts"));
	sh.failures = count64_of(doc, "failures");
	sh.timeouts = count64_of(doc, "timeouts");
	if (m->nshards && !same_hunt(&m->shards[0], &sh)) {
		err = problem(m, "%s: another hunt (its command, layout or "
			      "shard count differ from %s's): not merged",
			      dir, m->shards[0].dir);
		goto skip;
	}
	for (uint32_t i = 0; i < m->nshards; i++) {
		if (m->shards[i].index != sh.index)
			continue;
		err = problem(m, "%s: shard %u/%u again (already read from "
			      "%s): not merged", dir, sh.index, sh.count,
			      m->shards[i].dir);
		goto skip;
	}
	if (sh.status && strcmp(sh.status, "completed"))
		err = problem(m, "%s: shard %u/%u did not finish (status %s, "
			      "%" PRIu64 " attempts recorded): merged what it "
			      "recorded", dir, sh.index, sh.count, sh.status,
			      sh.attempts);
	if (err)
		goto skip;
	struct shard *ss = realloc(m->shards, (m->nshards + 1) * sizeof(*ss));
	if (!ss) {
		err = &irs_enomem;
		goto skip;
	}
	m->shards = ss;
	ss[m->nshards++] = sh;
	return NULL;
skip:
	json_decref(doc);
	free(abs);
	return err;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

// Each DIR: a replay directory (replay.json), else a directory whose
// replay-* entries are (a hunt's shared output root).
static struct irs_error *
collect(struct merge *m)
{
	struct irs_error *err = NULL;
	for (uint32_t i = 0; !err && i < m->cfg->ndirs; i++) {
		const char *dir = m->cfg->dirs[i];
		char *rj = irs_path_join(dir, "replay.json");
		if (!rj)
			return &irs_enomem;
		bool is_replay = access(rj, F_OK) == 0;
		free(rj);
		if (is_replay || !is_dir(dir)) {
			err = read_shard(m, dir);
			continue;
		}
		DIR *d = opendir(dir);
		if (!d) {
			err = problem(m, "%s: %s", dir, strerror(errno));
			continue;
		}
		char **names = NULL;
		size_t n = 0;
		struct dirent *e;
		while ((e = readdir(d))) {
			if (strncmp(e->d_name, "replay-", 7))
				continue;
			char **nn = realloc(names, (n + 1) * sizeof(*nn));
			char *p = irs_path_join(dir, e->d_name);
			if (!nn || !p) {
				free(p);
				free(nn ? nn : names);
				names = NULL;
				n = 0;
				err = &irs_enomem;
				break;
			}
			names = nn;
			names[n++] = p;
		}
		closedir(d);
		if (!err && !n)
			err = problem(m, "%s: neither a replay directory nor a "
				      "directory of them", dir);
		qsort(names, n, sizeof(*names), name_cmp);
		for (size_t k = 0; k < n; k++) {
			if (!err && is_dir(names[k]))
				err = read_shard(m, names[k]);
			free(names[k]);
		}
		free(names);
	}
	if (!err && !m->nshards)
		return irs_error_create(IRS_ERROR_NOT_FOUND,
					"merge: no shard could be merged");
	return err;
}

// The shard numbers of the hunt nobody gave.
static struct irs_error *
missing_shards(struct merge *m)
{
	uint32_t count = m->shards[0].count;
	for (uint32_t k = 0; k < count && k < 4096; k++) {
		bool seen = false;
		for (uint32_t i = 0; i < m->nshards && !seen; i++)
			seen = m->shards[i].index == k;
		if (!seen) {
			struct irs_error *err = problem(m, "shard %u/%u: not "
							"among the directories",
							k, count);
			if (err)
				return err;
		}
	}
	return NULL;
}

/* }==== */

/* {==== Bucketing by signature =========================================== */

// The bucket of @p signature, new when none has it: found by hash, so
// that bucketing stays linear in the groups of all shards.
static struct bucket *
bucket_for(struct merge *m, const char *signature)
{
	json_t *at = json_object_get(m->by_signature, signature);
	if (at)
		return &m->buckets[json_integer_value(at)];
	if (m->nbuckets == m->capbuckets) {
		uint32_t cap = m->capbuckets ? 2 * m->capbuckets : 16;
		struct bucket *bs = realloc(m->buckets, cap * sizeof(*bs));
		if (!bs)
			return NULL;
		m->buckets = bs;
		m->capbuckets = cap;
	}
	struct bucket *b = &m->buckets[m->nbuckets];
	*b = (struct bucket){.signature = signature,
			     .first_attempt = UINT32_MAX};
	b->per_shard = calloc(m->nshards, sizeof(*b->per_shard));
	if (!b->per_shard || json_object_set_new(m->by_signature, signature,
			json_integer((json_int_t)m->nbuckets))) {
		free(b->per_shard);
		return NULL;
	}
	m->nbuckets++;
	return b;
}

static uint32_t
attempt_number(json_t *a)
{
	json_int_t v = json_integer_value(a);
	return v > 0 && v < (json_int_t)UINT32_MAX ? (uint32_t)v : 0;
}

static bool
add_attempt(struct bucket *b, uint32_t n)
{
	if (b->nattempts == b->capattempts) {
		size_t cap = b->capattempts ? 2 * b->capattempts : 8;
		uint32_t *a = realloc(b->attempts, cap * sizeof(*a));
		if (!a)
			return false;
		b->attempts = a;
		b->capattempts = cap;
	}
	b->attempts[b->nattempts++] = n;
	return true;
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int
bucket_cmp(const void *a, const void *b)
{
	const struct bucket *x = a, *y = b;
	return (x->first_attempt > y->first_attempt) -
	       (x->first_attempt < y->first_attempt);
}

// Every shard's groups into buckets: counts add up, the first failure is
// the one of the lowest attempt number (the hunt's numbers are global).
static struct irs_error *
bucket(struct merge *m)
{
	if (!(m->by_signature = json_object()))
		return &irs_enomem;
	for (uint32_t s = 0; s < m->nshards; s++) {
		struct shard *sh = &m->shards[s];
		add_count(&m->attempts, sh->attempts);
		add_count(&m->failures, sh->failures);
		add_count(&m->timeouts, sh->timeouts);
		uint32_t runs = count_of(sh->doc, "runs");
		if (runs > m->runs)
			m->runs = runs;
		json_t *groups = json_object_get(sh->doc, "groups"), *g;
		size_t i;
		json_array_foreach(groups, i, g) {
			const char *sig = json_string_value(
				json_object_get(g, "signature"));
			struct bucket *b = bucket_for(m, sig);
			if (!b)
				return &irs_enomem;
			uint64_t count = count64_of(g, "count");
			uint32_t first = count_of(g, "first_attempt");
			add_count(&b->count, count);
			add_count(&b->per_shard[s], count);
			if (first < b->first_attempt) {
				b->first_attempt = first;
				b->first_shard = s;
				b->first_run = json_string_value(
					json_object_get(g, "run"));
				b->group = g;
			}
			json_t *as = json_object_get(g, "attempts"), *a;
			size_t k;
			json_array_foreach(as, k, a)
				if (!add_attempt(b, attempt_number(a)))
					return &irs_enomem;
		}
	}
	// Sorted once, not kept sorted while they come: a group of a
	// million attempts costs n log n, not n^2.
	for (uint32_t i = 0; i < m->nbuckets; i++)
		if (m->buckets[i].nattempts)
			qsort(m->buckets[i].attempts,
			      m->buckets[i].nattempts,
			      sizeof(*m->buckets[i].attempts), u32_cmp);
	qsort(m->buckets, m->nbuckets, sizeof(*m->buckets), bucket_cmp);
	return NULL;
}

/* }==== */

/* {==== Reduction ======================================================== */

// Extra runs per candidate, as `irsnap replay` picks them: a signature
// seen f times in n attempts is taken to fail f / (n + 2) of the time.
static uint32_t
retries_for(const struct merge *m, const struct bucket *b)
{
	double p = (double)b->count / (m->attempts + 2);
	if (p <= 0)
		return 0;
	double runs = ceil(log(0.001) / log(1 - p));
	return runs > 31 ? 30 : (uint32_t)runs - 1;
}

// The run directory of bucket @p b's first failure, as validate takes it:
// inside its shard, through no link (attempt-001 -> elsewhere would have
// the reducer write repro/ there), a directory. *ret NULL, and a problem
// line saying why, when it is not one.
static struct irs_error *
bucket_run(struct merge *m, const struct bucket *b, char **ret)
{
	const char *dir = m->shards[b->first_shard].dir;
	char *run = NULL;
	struct stat st;

	*ret = NULL;
	struct irs_error *err = irs_rundir_file(dir, b->first_run, &run);
	if (err == &irs_enomem)
		return err;
	if (err) {
		struct irs_error *p = problem(m, "%s: not reduced",
					      irs_error_get_message(err));
		irs_error_destroy(err);
		return p;
	}
	if (lstat(run, &st) != 0 || !S_ISDIR(st.st_mode)) {
		free(run);
		return problem(m, "%s/%s: no run directory there: not reduced",
			       dir, b->first_run);
	}
	*ret = run;
	return NULL;
}

static struct irs_error *
reduce_buckets(struct merge *m)
{
	struct irs_error *err = NULL;
	bool is_auto = !strcmp(m->cfg->reduce, "auto");
	for (uint32_t i = 0; !err && i < m->nbuckets && !stop; i++) {
		struct bucket *b = &m->buckets[i];
		char *log = NULL, *run = NULL;
		if ((err = bucket_run(m, b, &run)))
			return err;
		if (!run)
			continue;	// said why in a problem line
		if (asprintf(&log, "%s/reduce-%u.out", m->out, i + 1) < 0) {
			free(run);
			return &irs_enomem;
		}
		if (is_auto)
			err = irs_failure_test_command(run, &b->reduce_cmd);
		else if (!(b->reduce_cmd = strdup(m->cfg->reduce)))
			err = &irs_enomem;
		if (!err && m->cfg->progress)
			fprintf(stderr, "reducing %s (attempt %u, shard "
				"%u/%u) ...\n", b->signature, b->first_attempt,
				m->shards[b->first_shard].index,
				m->shards[b->first_shard].count);
		if (!err)
			err = irs_replay_reduce(m->self, run,
						is_auto ? NULL : b->reduce_cmd,
						retries_for(m, b), false, log,
						&stop,
						&b->reduce_status,
						&b->reduce_line);
		if (!err && m->cfg->progress)
			fprintf(stderr, "  %s\n", b->reduce_line
				? b->reduce_line : b->reduce_status);
		free(run);
		free(log);
	}
	return err;
}

/* }==== */

/* {==== The hunt's document and summary ================================== */

static json_t *
shard_json(const struct shard *sh)
{
	return json_pack("{s:o, s:o, s:o, s:{s:I, s:I}, s:o, s:I, s:I, s:I}",
			 "dir", irs_json_text(sh->dir),
			 "replay_id", irs_json_text(json_string_value(
				 json_object_get(sh->doc, "replay_id"))),
			 "host", irs_json_text(sh->host),
			 "shard", "index", (json_int_t)sh->index,
			 "count", (json_int_t)sh->count,
			 "status", irs_json_text(sh->status),
			 "attempts", (json_int_t)sh->attempts,
			 "failures", (json_int_t)sh->failures,
			 "timeouts", (json_int_t)sh->timeouts);
}

static json_t *
bucket_json(const struct merge *m, const struct bucket *b)
{
	const struct shard *first = &m->shards[b->first_shard];
	json_t *per = json_array();
	for (uint32_t s = 0; s < m->nshards; s++)
		if (b->per_shard[s])
			json_array_append_new(per, json_pack("{s:I, s:o, s:I}",
				"shard", (json_int_t)m->shards[s].index,
				"host", irs_json_text(m->shards[s].host),
				"count", (json_int_t)b->per_shard[s]));
	char *run = irs_path_join(first->dir, b->first_run);
	json_t *reduce = b->reduce_status ? json_pack("{s:o, s:o, s:o}",
		"status", irs_json_text(b->reduce_status),
		"crash_command", irs_json_text(b->reduce_cmd),
		"summary", irs_json_text(b->reduce_line)) : json_null();
	json_t *g = b->group;
	json_t *attempts = json_array();
	for (size_t k = 0; attempts && k < b->nattempts; k++)
		if (json_array_append_new(attempts,
				json_integer((json_int_t)b->attempts[k]))) {
			json_decref(attempts);
			attempts = NULL;
		}
	json_t *doc = json_pack("{s:o, s:O, s:O, s:O, s:I, s:o, s:{s:I, s:I, "
				"s:o, s:o}, s:o, s:o}",
		"signature", irs_json_text(b->signature),
		"signal", json_object_get(g, "signal"),
		"pass", json_object_get(g, "pass"),
		"frames", json_object_get(g, "frames"),
		"count", (json_int_t)b->count, "shards", per,
		"first_seen", "attempt", (json_int_t)b->first_attempt,
		"shard", (json_int_t)first->index,
		"host", irs_json_text(first->host),
		"run", irs_json_text(run),
		"attempts", attempts, "reduce", reduce);
	free(run);
	return doc;
}

static struct irs_error *
write_hunt(const struct merge *m)
{
	json_t *shards = json_array(), *groups = json_array();
	for (uint32_t s = 0; s < m->nshards; s++)
		json_array_append_new(shards, shard_json(&m->shards[s]));
	for (uint32_t i = 0; i < m->nbuckets; i++)
		json_array_append_new(groups, bucket_json(m, &m->buckets[i]));
	json_t *d0 = m->shards[0].doc;
	json_t *doc = json_pack("{s:s, s:O, s:O, s:O, s:I, s:I, s:o, s:o, "
				"s:I, s:I, s:I, s:o}",
		"schema", "irsnap.hunt/1",
		"command", json_object_get(d0, "command"),
		"layout", json_object_get(d0, "layout"),
		"debugger", json_object_get(d0, "debugger"),
		"runs", (json_int_t)m->runs,
		"shard_count", (json_int_t)m->shards[0].count,
		"shards", shards, "problems", json_copy(m->problems),
		"attempts", (json_int_t)m->attempts,
		"failures", (json_int_t)m->failures,
		"timeouts", (json_int_t)m->timeouts, "groups", groups);
	return irs_json_write(m->out, "replay.json", doc, JSON_INDENT(2));
}

static char *
summary(const struct merge *m)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_printf(&b, "hunt %s: %u shard%s of %u, %" PRIu64 " attempt%s, ",
		       m->out,
		       m->nshards, m->nshards == 1 ? "" : "s",
		       m->shards[0].count, m->attempts,
		       m->attempts == 1 ? "" : "s");
	if (!m->failures)
		irs_buf_puts(&b, "no failure");
	else
		irs_buf_printf(&b, "%" PRIu64 " failure%s in %u group%s",
			       m->failures,
			       m->failures == 1 ? "" : "s", m->nbuckets,
			       m->nbuckets == 1 ? "" : "s");
	if (m->timeouts)
		irs_buf_printf(&b, ", %" PRIu64 " timed out", m->timeouts);
	size_t np = json_array_size(m->problems);
	if (np)
		irs_buf_printf(&b, ", %zu problem%s", np, np == 1 ? "" : "s");
	irs_buf_puts(&b, "\n");
	int w = (int)strlen("signature");
	for (uint32_t i = 0; i < m->nbuckets; i++)
		if ((int)strlen(m->buckets[i].signature) > w)
			w = (int)strlen(m->buckets[i].signature);
	if (m->nbuckets)
		irs_buf_printf(&b, "%-*s  count  shards  first  run directory\n",
			       w, "signature");
	for (uint32_t i = 0; i < m->nbuckets; i++) {
		const struct bucket *k = &m->buckets[i];
		uint32_t nsh = 0;
		for (uint32_t s = 0; s < m->nshards; s++)
			nsh += k->per_shard[s] > 0;
		irs_buf_printf(&b, "%-*s  %5" PRIu64 "  %6u  %5u  %s/%s\n", w,
			       k->signature, k->count, nsh, k->first_attempt,
			       m->shards[k->first_shard].dir, k->first_run);
		if (k->reduce_status)
			irs_buf_printf(&b, "  %s\n", k->reduce_line &&
				       !strcmp(k->reduce_status, "reduced")
				       ? k->reduce_line : k->reduce_status);
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

/* }==== */

// OUT, or <root>/hunt-YYYYMMDD-HHMMSS[-N], created.
static struct irs_error *
make_out(struct merge *m)
{
	const char *out = m->cfg->output;
	char *made = NULL;
	if (!out) {
		const char *root = irs_rundir_root(NULL);
		struct irs_error *err = irs_mkdirs(root);
		if (err)
			return err;
		char stamp[32];
		time_t t = time(NULL);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
		for (int n = 0; n < 100 && !made; n++) {
			char *p;
			if ((n ? asprintf(&p, "%s/hunt-%s-%d", root, stamp, n)
			     : asprintf(&p, "%s/hunt-%s", root, stamp)) < 0)
				return &irs_enomem;
			if (mkdir(p, 0777) == 0)
				made = p;
			else if (errno != EEXIST) {
				free(p);
				break;
			} else
				free(p);
		}
		if (!made)
			return irs_error_format(IRS_ERROR_IO, "%s: cannot make "
						"a hunt directory there: %s",
						root, strerror(errno));
		out = made;
	} else {
		struct irs_error *err = irs_mkdirs(out);
		if (err)
			return err;
	}
	m->out = realpath(out, NULL);
	free(made);
	return m->out ? NULL : &irs_enomem;
}

struct irs_error *
irs_merge_run(const struct irs_merge_config *cfg,
	      struct irs_merge_result *ret)
{
	struct irs_error *err;
	struct merge m = {.cfg = cfg, .problems = json_array()};
	struct sigaction sa = {.sa_handler = on_sigint}, old;

	if (!cfg->ndirs)
		return irs_error_create(IRS_ERROR_USAGE, "merge: no "
					"directory given");
	if (!m.problems)
		return &irs_enomem;
	m.self = realpath(cfg->irsnap_exe ? cfg->irsnap_exe
			  : "/proc/self/exe", NULL);
	stop = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	err = !m.self ? irs_error_format(IRS_ERROR_NOT_FOUND, "cannot find "
					 "the irsnap executable: %s",
					 strerror(errno))
		      : collect(&m);
	if (!err)
		err = missing_shards(&m);
	if (!err)
		err = bucket(&m);
	if (!err)
		err = make_out(&m);
	if (!err && cfg->reduce)
		err = reduce_buckets(&m);
	if (!err)
		err = write_hunt(&m);
	sigaction(SIGINT, &old, NULL);
	char *text = err ? NULL : summary(&m);
	if (!err && !text)
		err = &irs_enomem;
	if (!err) {
		*ret = (struct irs_merge_result){
			.shards = m.nshards,
			.attempts = m.attempts > UINT32_MAX ? UINT32_MAX
							    : (uint32_t)m.attempts,
			.failures = m.failures > UINT32_MAX ? UINT32_MAX
							    : (uint32_t)m.failures,
			.groups = m.nbuckets,
			.problems = (uint32_t)json_array_size(m.problems),
			.dir = strdup(m.out), .summary = text};
		if (!ret->dir) {
			free(text);
			err = &irs_enomem;
		}
	}
	for (uint32_t s = 0; s < m.nshards; s++) {
		json_decref(m.shards[s].doc);
		free(m.shards[s].dir);
	}
	free(m.shards);
	for (uint32_t i = 0; i < m.nbuckets; i++) {
		free(m.buckets[i].per_shard);
		free(m.buckets[i].attempts);
		free(m.buckets[i].reduce_cmd);
		free(m.buckets[i].reduce_status);
		free(m.buckets[i].reduce_line);
	}
	free(m.buckets);
	json_decref(m.by_signature);
	json_decref(m.problems);
	free(m.out);
	free(m.self);
	if (!err && stop)
		err = irs_error_create(IRS_ERROR_INTERRUPTED,
				       "merge interrupted");
	return err;
}
