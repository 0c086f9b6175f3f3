// irsnap diff A B: two snapshots (.ir text or .json graph, each finding its
// twin beside it): a unified diff of the texts, then, when both graphs are
// there, what happened to the nodes: counts per type, and which addresses
// came and went. irsnap diff RUN PASS|SEQ: one pass's before and after (or
// crash) snapshots, as the run's manifest names them.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"

// Added or removed nodes listed by address; past this, only counted.
enum { LIST_NODES = 20 };

/* {==== Finding a snapshot's text and graph ============================= */

struct side {
	const char *arg;
	bool piped;			// arg may be a pipe (the user named it)
	char *text_path, *json_path;	// NULL when absent
	char *text;
	size_t text_len;
	json_t *graph;
};

// A twin irsnap found beside a file: a regular file, not a link.
static bool
exists(const char *path)
{
	struct stat st;
	return path && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

// A file the user named: followed if a link, and a pipe will do too (a
// shell's <(...)).
static bool
named(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 &&
	       (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) ||
		S_ISCHR(st.st_mode));
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

// @p path with its extension @p from replaced by @p to; freed with free().
static char *
swap_ext(const char *path, const char *from, const char *to)
{
	char *p;
	size_t n = strlen(path) - strlen(from);
	if (asprintf(&p, "%.*s%s", (int)n, path, to) < 0)
		return NULL;
	return p;
}

static char *
dir_join(const char *file, const char *name)
{
	const char *slash = strrchr(file, '/');
	char *p;
	if (asprintf(&p, "%.*s%s", slash ? (int)(slash - file + 1) : 0, file,
		     name) < 0)
		return NULL;
	return p;
}

static struct irs_error *
load_graph(struct side *s)
{
	json_error_t je;
	char *text;
	size_t len;

	struct irs_error *err = irs_file_read_max(s->json_path, 0, s->piped,
						  &text, &len);
	if (err)
		return err;
	s->graph = json_loadb(text, len, JSON_ALLOW_NUL, &je);
	free(text);
	if (!s->graph)
		return irs_error_format(IRS_ERROR_FORMAT, "%s:%d:%d: %s",
					s->json_path, je.line, je.column,
					je.text);
	if (!json_is_array(json_object_get(s->graph, "nodes")))
		return irs_error_format(IRS_ERROR_FORMAT, "%s: no \"nodes\" "
					"array: not an irsnap snapshot",
					s->json_path);
	return NULL;
}

// Finds the text and graph of the snapshot @p s->arg names and reads them.
static struct irs_error *
side_load(struct side *s)
{
	struct irs_error *err;
	struct stat st;

	if (stat(s->arg, &st) == 0 && S_ISDIR(st.st_mode))
		return irs_error_format(IRS_ERROR_USAGE, "%s: a directory: give "
					"two snapshot files, or a run "
					"directory and a pass name or number "
					"(irsnap diff RUN PASS|SEQ)", s->arg);
	if (!named(s->arg))
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s: no such file",
					s->arg);
	s->piped = true;
	if (ends_with(s->arg, ".json")) {
		s->json_path = strdup(s->arg);
		if (!s->json_path)
			return &irs_enomem;
		if ((err = load_graph(s)))
			return err;
		const char *tf = json_string_value(
			json_object_get(s->graph, "text_file"));
		s->text_path = tf && !strchr(tf, '/') ? dir_join(s->arg, tf)
			       : swap_ext(s->arg, ".json", ".ir");
		if (!exists(s->text_path)) {
			free(s->text_path);
			s->text_path = NULL;
		}
	} else {
		s->text_path = strdup(s->arg);
		s->json_path = ends_with(s->arg, ".ir") ?
			       swap_ext(s->arg, ".ir", ".json") : NULL;
		if (!exists(s->json_path)) {
			free(s->json_path);
			s->json_path = NULL;
		} else if ((err = load_graph(s))) {
			return err;
		}
	}
	if (s->text_path)
		return irs_file_read_max(s->text_path, 0,
					 !strcmp(s->text_path, s->arg),
					 &s->text, &s->text_len);
	return NULL;
}

/* }==== RUN PASS|SEQ ==================================================== */

// Loads JSON document @p rel of run @p dir (no link, no FIFO).
static struct irs_error *
run_doc(const char *dir, const char *rel, json_t **ret)
{
	char *path = NULL, *text;
	size_t len;
	json_error_t je;
	struct irs_error *err = irs_rundir_file(dir, rel, &path);
	if (!err)
		err = irs_file_read(path, &text, &len);
	if (!err) {
		json_t *doc = json_loadb(text, len, JSON_ALLOW_NUL, &je);
		free(text);
		if (!json_is_object(doc))
			err = doc ? irs_error_format(IRS_ERROR_FORMAT, "%s: not "
						     "a JSON object", path)
				  : irs_error_format(IRS_ERROR_FORMAT,
						     "%s:%d:%d: %s", path,
						     je.line, je.column,
						     je.text);
		if (err)
			json_decref(doc);
		else
			*ret = doc;
	}
	free(path);
	return err;
}

// The passes of @p evs whose name is @p which with a suffix (LuaJIT's
// lj_opt_sink#3, an instance's cse@f1) or, when none is, holds it, as
// "NAME (seq N), ..." in @p b (at most 10); false when there is none.
static bool
similar_passes(const json_t *evs, const char *which, struct irs_buf *b)
{
	size_t n = strlen(which), nfound = 0, i;
	const json_t *ev;
	for (int pass = 0; pass < 2 && !nfound; pass++) {
		json_array_foreach(evs, i, ev) {
			const char *name = json_string_value(
				json_object_get(ev, "pass"));
			const char *ph = json_string_value(
				json_object_get(ev, "phase"));
			if (!name || !ph || strcmp(ph, "before"))
				continue;
			bool like = pass == 0
				? !strncmp(name, which, n) && name[n] &&
				  !isalnum((unsigned char)name[n]) &&
				  name[n] != '_'
				: strstr(name, which) != NULL;
			if (!like || nfound++ >= 10)
				continue;
			irs_buf_printf(b, "%s%s (seq %lld)", nfound > 1 ? ", "
				       : "", cli_shown(name),
				       (long long)json_integer_value(
					       json_object_get(ev, "seq")));
		}
	}
	if (nfound > 10)
		irs_buf_printf(b, ", ... %zu more", nfound - 10);
	return nfound > 0;
}

// "no pass 'X' in the manifest", with the passes named like it.
static struct irs_error *
no_such_pass(const char *dir, const json_t *evs, const char *which)
{
	struct irs_buf b;
	irs_buf_init(&b);
	struct irs_error *err = similar_passes(evs, which, &b)
		? irs_error_format(IRS_ERROR_NOT_FOUND, "%s: no pass '%s' in "
				   "the manifest; passes named like it: %s "
				   "(give one of those names, or a SEQ)", dir,
				   which, b.data)
		: irs_error_format(IRS_ERROR_NOT_FOUND, "%s: no pass '%s' in "
				   "the manifest (irsnap show lists its "
				   "passes)", dir, which);
	irs_buf_deinit(&b);
	return err;
}

// Side @p s is snapshot @p snap ({text, json}) of run @p dir: both paths
// checked to stay inside the run.
static struct irs_error *
side_from_run(struct side *s, const char *dir, const json_t *snap)
{
	struct irs_error *err = NULL;
	const char *text = json_string_value(json_object_get(snap, "text"));
	const char *js = json_string_value(json_object_get(snap, "json"));

	if (text && (err = irs_rundir_file(dir, text, &s->text_path)))
		return err;
	if (js && (err = irs_rundir_file(dir, js, &s->json_path)))
		return err;
	s->arg = s->text_path ? s->text_path : s->json_path;
	if (!s->arg)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s: the manifest "
					"names no snapshot file here", dir);
	if (s->json_path && (err = load_graph(s)))
		return err;
	if (s->text_path)
		return irs_file_read(s->text_path, &s->text, &s->text_len);
	return NULL;
}

// One side of `irsnap diff RUN1 RUN2 [PASS|SEQ]`: in run @p run, the IR
// pass @p which (a seq, or a name: its last run) left, that is its after
// snapshot, else the crash snapshot if it failed there, else its before;
// with no @p which, the last snapshot of the run.
static struct irs_error *
run_final_side(const char *run, const char *which, struct side *s)
{
	struct irs_error *err;
	json_t *man = NULL, *fail = NULL;
	char *dir = NULL;

	if ((err = cli_run_dir(run, &dir)))
		return err;
	if ((err = run_doc(dir, "manifest.json", &man)))
		goto out;
	bool number = which && *which;
	for (const char *p = which ? which : ""; *p; p++)
		number = number && isdigit((unsigned char)*p);
	long long seq = number ? atoll(which) : -1;
	const json_t *evs = json_object_get(man, "events"), *ev;
	const json_t *snap = NULL;
	size_t i;
	// the last matching event with a snapshot: an after beats a before
	json_array_foreach(evs, i, ev) {
		long long es = json_integer_value(json_object_get(ev, "seq"));
		const char *pass = json_string_value(json_object_get(ev,
								     "pass"));
		if (which && (number ? es != seq : !pass ||
			      strcmp(pass, which)))
			continue;
		if (!number && which)
			seq = es;
		const json_t *sn = json_object_get(ev, "snapshot");
		if (json_is_object(sn))
			snap = sn;
	}
	char *fp = irs_path_join(dir, "failure.json");
	struct stat st;
	bool has_failure = fp && lstat(fp, &st) == 0;
	free(fp);
	if (has_failure && !(err = run_doc(dir, "failure.json", &fail))) {
		long long fseq = json_integer_value(json_object_get(
			json_object_get(fail, "pass"), "seq"));
		if (fseq == seq || !which)	// the crash is the last IR
			snap = json_object_get(fail, "crash_snapshot");
	}
	if (!err && !json_is_object(snap) && which && !number && seq < 0)
		err = no_such_pass(dir, evs, which);
	else if (!err && !json_is_object(snap))
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: %s%s%s has "
				       "no snapshot to compare", dir,
				       which ? "pass '" : "the run",
				       which ? which : "", which ? "'" : "");
	if (!err)
		err = side_from_run(s, dir, snap);
out:
	json_decref(man);
	json_decref(fail);
	free(dir);
	return err;
}

// @p which names one pass of run @p run: its sequence number, or its name
// when it ran once. Fills @p a (its before snapshot) and @p b (its after,
// or the crash snapshot of the pass that failed).
static struct irs_error *
run_sides(const char *run, const char *which, struct side *a, struct side *b)
{
	struct irs_error *err;
	json_t *man = NULL, *fail = NULL;
	char *dir = NULL;
	struct stat st;
	char *mp = irs_path_join(run, "manifest.json");

	if (!mp)
		return &irs_enomem;
	free(mp);
	(void)st;
	if ((err = cli_run_dir(run, &dir)))
		return err;
	if ((err = run_doc(dir, "manifest.json", &man)))
		goto out;
	bool number = *which != '\0';
	for (const char *p = which; *p; p++)
		number = number && isdigit((unsigned char)*p);
	long long seq = number ? atoll(which) : 0;
	const json_t *evs = json_object_get(man, "events");
	const json_t *before = NULL, *after = NULL, *ev;
	size_t i, nfound = 0;
	struct irs_buf seqs;
	irs_buf_init(&seqs);
	json_array_foreach(evs, i, ev) {
		long long s = json_integer_value(json_object_get(ev, "seq"));
		const char *pass = json_string_value(json_object_get(ev,
								     "pass"));
		const char *phase = json_string_value(json_object_get(ev,
								      "phase"));
		bool is_before = phase && !strcmp(phase, "before");
		if (!number && pass && !strcmp(pass, which) && is_before) {
			if (nfound++ < 10)
				irs_buf_printf(&seqs, "%s%lld", nfound > 1 ?
					       ", " : "", s);
			seq = nfound == 1 ? s : seq;
		}
	}
	if (!number && nfound > 1)
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: pass '%s' ran "
				       "%zu times (seq %s%s): give its SEQ", dir,
				       which, nfound, seqs.data ? seqs.data
				       : "", nfound > 10 ? ", ..." : "");
	else if (!number && !nfound)
		err = no_such_pass(dir, evs, which);
	if (err) {
		irs_buf_deinit(&seqs);
		goto out;
	}
	irs_buf_deinit(&seqs);
	json_array_foreach(evs, i, ev) {
		if (json_integer_value(json_object_get(ev, "seq")) != seq)
			continue;
		const char *phase = json_string_value(json_object_get(ev,
								      "phase"));
		if (phase && !strcmp(phase, "before") && !before)
			before = ev;
		else if (phase && !strcmp(phase, "after") && !after)
			after = ev;
	}
	if (!before) {
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: no pass with "
				       "seq %lld in the manifest", dir, seq);
		goto out;
	}
	const json_t *bsnap = json_object_get(before, "snapshot");
	const json_t *asnap = json_object_get(after, "snapshot");
	char *fp = irs_path_join(dir, "failure.json");
	bool has_failure = fp && lstat(fp, &st) == 0;
	free(fp);
	if (!after && has_failure && !(err = run_doc(dir, "failure.json",
						     &fail)) &&
	    json_integer_value(json_object_get(json_object_get(fail, "pass"),
					       "seq")) == seq)
		asnap = json_object_get(fail, "crash_snapshot");
	if (err)
		goto out;
	if (!json_is_object(bsnap) || !json_is_object(asnap)) {
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: pass %lld (%s)"
			" has no %s snapshot to compare", dir, seq,
			json_string_value(json_object_get(before, "pass")),
			!json_is_object(bsnap) ? "before" : after ? "after"
			: "after or crash");
		goto out;
	}
	if (!(err = side_from_run(a, dir, bsnap)))
		err = side_from_run(b, dir, asnap);
out:
	json_decref(man);
	json_decref(fail);
	free(dir);
	return err;
}

static void
side_deinit(struct side *s)
{
	free(s->text_path);
	free(s->json_path);
	free(s->text);
	json_decref(s->graph);
}

/* }==== Node changes ===================================================== */

struct node {
	const char *id, *type;	// borrowed from the graph
	unsigned long long addr;
	long long start, end;	// its span in the text, or -1
};

static int
by_addr(const void *a, const void *b)
{
	const struct node *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

// The graph's nodes sorted by address; *n_ret their count.
static struct node *
nodes_of(const json_t *graph, size_t *n_ret)
{
	const json_t *nodes = json_object_get(graph, "nodes");
	size_t n = json_array_size(nodes);
	struct node *v = calloc(n ? n : 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const json_t *nd = json_array_get(nodes, i);
		const char *id = json_string_value(json_object_get(nd, "id"));
		const char *type = json_string_value(json_object_get(nd,
								     "type"));
		if (!id || !type)
			continue;	// irsnap validate says more
		v[k].id = id;
		v[k].type = type;
		const json_t *span = json_object_get(nd, "span");
		v[k].start = json_is_integer(json_array_get(span, 0)) ?
			     json_integer_value(json_array_get(span, 0)) : -1;
		v[k].end = json_is_integer(json_array_get(span, 1)) ?
			   json_integer_value(json_array_get(span, 1)) : -1;
		v[k++].addr = strtoull(id, NULL, 0);
	}
	qsort(v, k, sizeof(*v), by_addr);
	*n_ret = k;
	return v;
}

struct type_count {
	const char *type;
	long long before, after;
};

static void
count_type(struct type_count *t, size_t *nt, const char *type, bool after)
{
	size_t i;
	for (i = 0; i < *nt && strcmp(t[i].type, type); i++)
		;
	if (i == *nt) {
		t[i].type = type;
		t[i].before = t[i].after = 0;
		(*nt)++;
	}
	if (after)
		t[i].after++;
	else
		t[i].before++;
}

// The first line of what the text shows of node @p nd, trimmed, into *p
// and *len; false when the text does not show it.
static bool
node_line(const struct node *nd, const struct side *s, const char **p_ret,
	  size_t *len_ret)
{
	if (!s->text || nd->start < 0 || nd->end <= nd->start ||
	    (size_t)nd->end > s->text_len)
		return false;
	const char *p = s->text + nd->start;
	size_t len = (size_t)(nd->end - nd->start);
	while (len && (*p == ' ' || *p == '\n' || *p == '\t'))
		p++, len--;
	const char *nl = memchr(p, '\n', len);
	if (nl)
		len = (size_t)(nl - p);
	while (len && p[len - 1] == ' ')
		len--;
	*p_ret = p;
	*len_ret = len;
	return len > 0;
}

// {id, type, text} of a node, text its line (null when not shown).
static json_t *
node_json(const struct node *nd, const struct side *s)
{
	const char *p;
	size_t len;
	bool shown = node_line(nd, s, &p, &len);
	return json_pack("{s:s, s:s, s:o}", "id", nd->id, "type", nd->type,
			 "text", shown ? json_stringn_nocheck(p, len)
			 : json_null());
}

// A node by what the text shows of it (the first line of its span, as
// "Instr '%2 = shr %x, 9'"), else by address.
static void
put_node(const struct node *nd, const struct side *s)
{
	const char *p;
	size_t len;
	if (node_line(nd, s, &p, &len)) {
		char shown[64];
		snprintf(shown, sizeof(shown), "%.*s%s",
			 (int)(len > 48 ? 48 : len), p, len > 48 ? "..." : "");
		printf(" %s '", cli_shown(nd->type));
		printf("%s'", cli_shown(shown));
		return;
	}
	printf(" %s %s", cli_shown(nd->id), cli_shown(nd->type));
}

static void
list_nodes(const char *what, const struct node **v, size_t n,
	   const struct side *s, json_t *j)
{
	if (j) {
		json_t *a = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, node_json(v[i], s));
		json_object_set_new(j, what, a);
		return;
	}
	printf("%s (%zu):", what, n);
	for (size_t i = 0; i < n && i < LIST_NODES; i++) {
		if (i)
			putchar(',');
		put_node(v[i], s);
	}
	if (n > LIST_NODES)
		printf(", ... %zu more", n - LIST_NODES);
	putchar('\n');
}

// Merges the two sorted node lists; a node is the same node when its
// address and type both match. Returns true when anything changed. With
// @p j, fills its "nodes" member instead of printing.
static bool
node_changes(const struct side *sa, const struct side *sb, bool *oom,
	     json_t *doc)
{
	const json_t *ga = sa->graph, *gb = sb->graph;
	size_t na = 0, nb = 0, nt = 0, nadd = 0, nrem = 0;
	struct node *a = nodes_of(ga, &na), *b = nodes_of(gb, &nb);
	struct type_count *types = calloc(na + nb + 1, sizeof(*types));
	const struct node **added = calloc(nb + 1, sizeof(*added));
	const struct node **removed = calloc(na + 1, sizeof(*removed));
	bool changed = false;

	if (!a || !b || !types || !added || !removed) {
		*oom = true;
		goto out;
	}
	for (size_t i = 0; i < na; i++)
		count_type(types, &nt, a[i].type, false);
	for (size_t i = 0; i < nb; i++)
		count_type(types, &nt, b[i].type, true);
	for (size_t i = 0, j = 0; i < na || j < nb; ) {
		if (j == nb || (i < na && a[i].addr < b[j].addr)) {
			removed[nrem++] = &a[i++];
		} else if (i == na || b[j].addr < a[i].addr) {
			added[nadd++] = &b[j++];
		} else {
			if (strcmp(a[i].type, b[j].type)) {
				removed[nrem++] = &a[i];
				added[nadd++] = &b[j];
			}
			i++;
			j++;
		}
	}
	json_t *jn = doc ? json_pack("{s:I, s:I, s:[]}", "before",
				     (json_int_t)na, "after", (json_int_t)nb,
				     "types") : NULL;
	if (doc && (!jn || json_object_set_new(doc, "nodes", jn))) {
		*oom = true;
		goto out;
	}
	if (!doc) {
		printf("\nnodes: %zu -> %zu\n", na, nb);
		printf("  %-24s %9s %9s %9s\n", "type", "before", "after",
		       "change");
	}
	for (size_t i = 0; i < nt; i++) {
		if (jn)
			json_array_append_new(json_object_get(jn, "types"),
				json_pack("{s:s, s:I, s:I}", "type",
					  types[i].type, "before",
					  (json_int_t)types[i].before,
					  "after", (json_int_t)types[i].after));
		else
			printf("  %-24s %9lld %9lld %+9lld\n",
			       cli_shown(types[i].type), types[i].before,
			       types[i].after,
			       types[i].after - types[i].before);
	}
	list_nodes("removed", removed, nrem, sa, jn);
	list_nodes("added", added, nadd, sb, jn);
	changed = nadd || nrem;
out:
	free(a);
	free(b);
	free(types);
	free(added);
	free(removed);
	return changed;
}

/* }==== The command ====================================================== */

// Colour on a terminal, as git diff does: NO_COLOR or TERM=dumb turn it
// off, IRSNAP_COLOR=always turns it on anywhere.
static bool
colour(void)
{
	const char *force = getenv("IRSNAP_COLOR");
	if (force && !strcmp(force, "always"))
		return true;
	if (force && !strcmp(force, "never"))
		return false;
	const char *term = getenv("TERM");
	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR") &&
	       !(term && !strcmp(term, "dumb"));
}

// The diff, each line escaped (cli_print) and, on a terminal, coloured.
static void
print_diff(const char *text)
{
	if (!colour()) {
		cli_print(stdout, text);
		return;
	}
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *on = !strncmp(p, "+++ ", 4) ||
				 !strncmp(p, "--- ", 4) ? "\033[1m"
				 : *p == '+' ? "\033[32m"
				 : *p == '-' ? "\033[31m"
				 : !strncmp(p, "@@ ", 3) ? "\033[36m" : NULL;
		char *line = strndup(p, len);
		if (on)
			fputs(on, stdout);
		cli_print(stdout, line ? line : "");
		if (on)
			fputs("\033[m", stdout);
		putchar('\n');
		free(line);
		p += len + (nl != NULL);
	}
}

static int
usage(FILE *fp, int rc)
{
	fprintf(fp, "usage: irsnap diff [--json] A B | irsnap diff [--json] "
		"RUN PASS|SEQ |\n"
		"       irsnap diff [--json] RUN1 RUN2 [PASS|SEQ]\n"
		"A and B are snapshots: .ir text or .json graph files (each "
		"finds its twin\nbeside it). Prints a unified diff of the "
		"texts and, when both graphs are\nthere, node counts per type "
		"and the nodes added and removed by address.\n"
		"With a run directory: the before and after (or crash) "
		"snapshots of the pass\nwith that seq (its sequence number in "
		"the run, irsnap show's first column),\nor of the pass of that "
		"name when it ran once.\n"
		"With two run directories: the IR that pass left in each (its "
		"after snapshot,\nelse its crash snapshot, else its before), "
		"or without PASS|SEQ each run's last.\n"
		"Hunk headers name the enclosing function, as diff -p does; "
		"on a terminal the\ndiff is coloured (NO_COLOR turns it off, "
		"IRSNAP_COLOR=always|never decides).\n"
		"  --json   one irsnap.diff/1 document on stdout instead: the "
		"hunks, each with\n"
		"           its function, and the node changes (docs/"
		"formats.md)\n"
		"Exit status: 0 same, 1 different, 2 trouble.\n"
		"Example: irsnap diff snapshots/0003-cse.before.ir "
		"snapshots/0003-cse.after.ir\n");
	return rc;
}

// {text, json} of a side, for --json.
static json_t *
side_json(const struct side *s)
{
	return json_pack("{s:o, s:o}", "text", s->text_path ?
			 json_string(s->text_path) : json_null(), "json",
			 s->json_path ? json_string(s->json_path)
			 : json_null());
}

// "-A[,B]" or "+A[,B]" of a hunk header at *p: A and B (1 when absent).
static bool
range(const char **p, char sign, unsigned long *start, unsigned long *n)
{
	char *end;
	if (**p != sign)
		return false;
	*start = strtoul(*p + 1, &end, 10);
	*n = 1;
	if (*end == ',')
		*n = strtoul(end + 1, &end, 10);
	*p = end;
	return true;
}

// The unified diff @p d as hunks: {header, function, old_start,
// old_lines, new_start, new_lines, lines}, lines as diff writes them
// ("-x", "+y", " z", "\\ No newline at end of file").
static json_t *
hunks_json(const char *d)
{
	json_t *hunks = json_array(), *cur = NULL;
	for (const char *p = d; hunks && p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		unsigned long a, b, c, e;
		const char *q = p + 3;
		if (!strncmp(p, "@@ ", 3) && range(&q, '-', &a, &b) &&
		    *q++ == ' ' && range(&q, '+', &c, &e) &&
		    !strncmp(q, " @@", 3)) {
			const char *fn = q + 3;
			while (*fn == ' ')
				fn++;
			size_t fl = len - (size_t)(fn - p);
			cur = json_pack("{s:o, s:o, s:I, s:I, s:I, s:I, s:[]}",
					"header", json_stringn_nocheck(p, len),
					"function", fl ? json_stringn_nocheck(
						fn, fl) : json_null(),
					"old_start", (json_int_t)a,
					"old_lines", (json_int_t)b,
					"new_start", (json_int_t)c,
					"new_lines", (json_int_t)e, "lines");
			if (json_array_append_new(hunks, cur))
				cur = NULL;
		} else if (cur) {
			json_array_append_new(json_object_get(cur, "lines"),
					      json_stringn_nocheck(p, len));
		}
		p = nl ? nl + 1 : NULL;
	}
	return hunks;
}

int
cmd_diff(int argc, char **argv)
{
	struct irs_error *err = NULL;
	struct irs_textdiff_stats st = {0};
	struct irs_buf out;
	bool differ = false, oom = false, json = false;
	char *ops[4];
	int nops = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return usage(stdout, EXIT_OK);
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-' || nops == 3)
			return usage(stderr, EXIT_USAGE);
		else
			ops[nops++] = argv[i];
	}
	if (nops < 2)
		return usage(stderr, EXIT_USAGE);
	struct side a = { .arg = ops[0] };
	struct side b = { .arg = ops[1] };
	json_t *doc = json ? json_pack("{s:s}", "schema", "irsnap.diff/1")
		      : NULL;
	if (json && !doc)
		return cli_fail(&irs_enomem);
	irs_buf_init(&out);
	struct stat sa, sb;
	bool adir = stat(ops[0], &sa) == 0 && S_ISDIR(sa.st_mode);
	bool bdir = stat(ops[1], &sb) == 0 && S_ISDIR(sb.st_mode);
	if (nops == 3 && !(adir && bdir)) {
		irs_buf_deinit(&out);
		json_decref(doc);
		return usage(stderr, EXIT_USAGE);
	}
	const char *which = NULL;
	if (adir && bdir) {
		// two runs: the same pass (or the end) in each
		a.arg = b.arg = NULL;
		which = nops == 3 ? ops[2] : NULL;
		for (int k = 0; k < 2; k++) {
			char *d = NULL;
			if ((err = cli_run_dir(ops[k], &d))) {
				struct irs_error *e = irs_error_format(
					err->code, "%s: a directory, but not a "
					"run directory: give two snapshot "
					"files, a run directory and a pass, "
					"or two run directories", ops[k]);
				irs_error_destroy(err);
				err = e;
				goto out;
			}
			free(d);
		}
		if ((err = run_final_side(ops[0], which, &a)) ||
		    (err = run_final_side(ops[1], which, &b)))
			goto out;
	} else if (adir) {
		a.arg = b.arg = NULL;
		which = ops[1];
		if ((err = run_sides(ops[0], ops[1], &a, &b)))
			goto out;
	} else if ((err = side_load(&a)) || (err = side_load(&b))) {
		goto out;
	}
	if (!a.text != !b.text) {
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: no text "
				       "snapshot beside it to compare with %s",
				       a.text ? b.arg : a.arg,
				       a.text ? a.arg : b.arg);
		goto out;
	}
	if (a.text) {
		err = irs_textdiff_unified_p(a.text, a.text_len, a.text_path,
					     b.text, b.text_len, b.text_path,
					     3, true, &out, &st);
		if (err)
			goto out;
		differ = st.added || st.removed;
		if (!json) {
			print_diff(out.len ? out.data : "");	// IR text
			printf("%s%llu line%s removed, %llu added%s\n",
			       out.len ? "" : "texts are identical: ",
			       (unsigned long long)st.removed,
			       st.removed == 1 ? "" : "s",
			       (unsigned long long)st.added,
			       st.gave_up ? " (a region too different to "
			       "align is shown whole)" : "");
		}
	}
	if (a.graph && b.graph)
		differ |= node_changes(&a, &b, &oom, doc);
	if (doc && !oom && (json_object_set_new(doc, "a", side_json(&a)) ||
			    json_object_set_new(doc, "b", side_json(&b)) ||
			    json_object_set_new(doc, "which", which ?
				json_string(which) : json_null()) ||
			    json_object_set_new(doc, "same",
						json_boolean(!differ)) ||
			    json_object_set_new(doc, "lines_removed",
						json_integer((json_int_t)
							     st.removed)) ||
			    json_object_set_new(doc, "lines_added",
						json_integer((json_int_t)
							     st.added)) ||
			    json_object_set_new(doc, "gave_up",
						json_boolean(st.gave_up)) ||
			    json_object_set_new(doc, "hunks", hunks_json(
				    out.len ? out.data : "")) ||
			    (!json_object_get(doc, "nodes") &&
			     json_object_set_new(doc, "nodes", json_null()))))
		oom = true;
	if (doc && !oom) {
		char *text = json_dumps(doc, JSON_INDENT(2) |
					JSON_PRESERVE_ORDER);
		if (text)
			puts(text);
		oom = !text;
		free(text);
	}
	if (oom)
		err = &irs_enomem;
out:
	irs_buf_deinit(&out);
	side_deinit(&a);
	side_deinit(&b);
	json_decref(doc);
	if (err)
		return cli_fail(err);
	return differ ? EXIT_BAD : EXIT_OK;
}
