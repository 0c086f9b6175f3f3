// irsnap diff A B: two snapshots (.ir text or .json graph, each finding its
// twin beside it): a unified diff of the texts, then, when both graphs are
// there, what happened to the nodes: counts per type, and which addresses
// came and went.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"
#include "session.h"
#include "textdiff.h"

// Added or removed nodes listed by address; past this, only counted.
enum { LIST_NODES = 20 };

/* {==== Finding a snapshot's text and graph ============================= */

struct side {
	const char *arg;
	char *text_path, *json_path;	// NULL when absent
	char *text;
	size_t text_len;
	json_t *graph;
};

static bool
exists(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
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

	struct irs_error *err = irs_file_read(s->json_path, &text, &len);
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

	if (!exists(s->arg))
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s: no such file",
					s->arg);
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
		return irs_file_read(s->text_path, &s->text, &s->text_len);
	return NULL;
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

static void
list_nodes(const char *what, const struct node **v, size_t n)
{
	printf("%s (%zu):", what, n);
	for (size_t i = 0; i < n && i < LIST_NODES; i++)
		printf("%s %s %s", i ? "," : "", v[i]->id, v[i]->type);
	if (n > LIST_NODES)
		printf(", ... %zu more", n - LIST_NODES);
	putchar('\n');
}

// Merges the two sorted node lists; a node is the same node when its
// address and type both match. Returns true when anything changed.
static bool
node_changes(const json_t *ga, const json_t *gb, bool *oom)
{
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
	printf("\nnodes: %zu -> %zu\n", na, nb);
	printf("  %-24s %9s %9s %9s\n", "type", "before", "after", "change");
	for (size_t i = 0; i < nt; i++)
		printf("  %-24s %9lld %9lld %+9lld\n", types[i].type,
		       types[i].before, types[i].after,
		       types[i].after - types[i].before);
	list_nodes("removed", removed, nrem);
	list_nodes("added", added, nadd);
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

static int
usage(FILE *fp, int rc)
{
	fprintf(fp, "usage: irsnap diff A B\n"
		"A and B are snapshots: .ir text or .json graph files (each "
		"finds its twin\nbeside it). Prints a unified diff of the "
		"texts and, when both graphs are\nthere, node counts per type "
		"and the nodes added and removed by address.\n"
		"Exit status: 0 same, 1 different, 2 trouble.\n"
		"Example: irsnap diff snapshots/0003-cse.before.ir "
		"snapshots/0003-cse.after.ir\n");
	return rc;
}

int
cmd_diff(int argc, char **argv)
{
	struct irs_error *err = NULL;
	struct side a = { .arg = argc > 1 ? argv[1] : NULL };
	struct side b = { .arg = argc > 2 ? argv[2] : NULL };
	struct irs_textdiff_stats st = {0};
	struct irs_buf out;
	bool differ = false, oom = false;

	if (argc == 2 &&
	    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return usage(stdout, EXIT_OK);
	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-')
		return usage(stderr, EXIT_USAGE);
	irs_buf_init(&out);
	if ((err = side_load(&a)) || (err = side_load(&b)))
		goto out;
	if (!a.text != !b.text) {
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: no text "
				       "snapshot beside it to compare with %s",
				       a.text ? b.arg : a.arg,
				       a.text ? a.arg : b.arg);
		goto out;
	}
	if (a.text) {
		err = irs_textdiff_unified(a.text, a.text_len, a.text_path,
					   b.text, b.text_len, b.text_path, 3,
					   &out, &st);
		if (err)
			goto out;
		fputs(out.len ? out.data : "", stdout);
		differ = st.added || st.removed;
		printf("%s%llu line%s removed, %llu added%s\n",
		       out.len ? "" : "texts are identical: ",
		       (unsigned long long)st.removed,
		       st.removed == 1 ? "" : "s",
		       (unsigned long long)st.added,
		       st.gave_up ? " (a region too different to align "
		       "is shown whole)" : "");
	}
	if (a.graph && b.graph)
		differ |= node_changes(a.graph, b.graph, &oom);
	if (oom)
		err = &irs_enomem;
out:
	irs_buf_deinit(&out);
	side_deinit(&a);
	side_deinit(&b);
	if (err)
		return cli_fail(err);
	return differ ? EXIT_BAD : EXIT_OK;
}
