// Control-flow graphs of a snapshot, drawn by Graphviz for the report, as
// LLVM's -dot-cfg and Compiler Explorer's CFG view let an engineer look at
// a function instead of reading it.
//
// What a graph is comes from the layout, through the snapshot's "cfg"
// member (cfg { func = "Function", block = "Block" }): the nodes of type
// func are functions, those of type block (owned by a function) their
// blocks, in the order the text shows them, the first the entry; an edge
// goes from block A to each block A's last child (its terminator: br,
// condbr, switch) refers to. Only the terminator, so that a phi naming
// its incoming blocks is no edge. A block is drawn as its text: its label
// line and its first instructions.
//
// The snapshot JSON is read a node at a time (irs_json_split), twice:
// functions and blocks first, then the children of the blocks.
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "tools/tools.h"

enum {
	MAX_BLOCKS = 400,	// a function drawn has at most these
	BLOCK_LINES = 8,	// instructions shown per block
	LINE_CHARS = 60,	// characters shown per line
	DOT_SECONDS = 20,	// dot's time to draw one graph
};

struct cfg_func {
	char *id, *name;	// name: the first line of its text
	size_t start, end;	// its text: [start, end)
};

struct cfg_block {
	char *id;
	char *parent;		// its function's id, until link_blocks()
	uint32_t func;		// index into funcs
	size_t start, end;
	size_t last;		// span start of the last child seen + 1
	char **succ;		// ids of the blocks its last child names
	uint32_t nsucc;
};

struct irs_cfg {
	char *text;		// a copy of the snapshot's text
	size_t len;
	struct cfg_func *funcs;	// sorted by id
	size_t nfuncs;
	struct cfg_block *blocks;	// sorted by id
	size_t nblocks;
};

static int
by_id(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

// Each struct begins with its id, so one comparison finds either.
static void *
find(void *v, size_t n, size_t size, const char *id)
{
	return id && n ? bsearch(&id, v, n, size, by_id) : NULL;
}

static bool
span_of(const json_t *node, size_t len, size_t *s, size_t *e)
{
	const json_t *sp = json_object_get(node, "span");
	json_int_t a = json_integer_value(json_array_get(sp, 0));
	json_int_t b = json_integer_value(json_array_get(sp, 1));
	if (!json_is_integer(json_array_get(sp, 0)) || a < 0 || b < a ||
	    (size_t)b > len)
		return false;
	*s = (size_t)a;
	*e = (size_t)b;
	return true;
}

void
irs_cfg_destroy(struct irs_cfg *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nfuncs; i++) {
		free(g->funcs[i].id);
		free(g->funcs[i].name);
	}
	for (size_t i = 0; i < g->nblocks; i++) {
		free(g->blocks[i].id);
		free(g->blocks[i].parent);
		for (uint32_t k = 0; k < g->blocks[i].nsucc; k++)
			free(g->blocks[i].succ[k]);
		free(g->blocks[i].succ);
	}
	free(g->funcs);
	free(g->blocks);
	free(g->text);
	free(g);
}

// Room for one more element of @p v (@p n of @p size bytes, *cap of
// them allocated).
static bool
room(void **v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return true;
	size_t ncap = *cap ? 2 * *cap : 64;
	void *p = realloc(*v, ncap * size);
	if (!p)
		return false;
	*v = p;
	*cap = ncap;
	return true;
}

// Pass 1: a function or a block, from one node.
static bool
add_node(struct irs_cfg *g, const json_t *node, const char *ftype,
	 const char *btype, size_t *capf, size_t *capb)
{
	const char *type = json_string_value(json_object_get(node, "type"));
	const char *id = json_string_value(json_object_get(node, "id"));
	size_t s, e;
	if (!type || !id || !span_of(node, g->len, &s, &e))
		return true;	// not drawn: no text of it
	if (!strcmp(type, ftype)) {
		if (!room((void **)&g->funcs, g->nfuncs, capf,
			  sizeof(*g->funcs)))
			return false;
		// its first line of text (a span may start at a newline)
		size_t t = s;
		while (t < e && isspace((unsigned char)g->text[t]))
			t++;
		size_t nl = strcspn(g->text + t, "\n");
		struct cfg_func *f = &g->funcs[g->nfuncs];
		*f = (struct cfg_func){strdup(id), strndup(g->text + t,
			nl < e - t ? nl : e - t), s, e};
		g->nfuncs++;
		if (!f->id || !f->name)
			return false;
	} else if (!strcmp(type, btype)) {
		const char *parent = json_string_value(
			json_object_get(node, "parent"));
		if (!parent || !room((void **)&g->blocks, g->nblocks, capb,
				     sizeof(*g->blocks)))
			return parent == NULL;	// none: in no function
		struct cfg_block *b = &g->blocks[g->nblocks];
		*b = (struct cfg_block){.id = strdup(id),
					.parent = strdup(parent),
					.start = s, .end = e};
		g->nblocks++;
		if (!b->id || !b->parent)
			return false;
	}
	return true;
}

// The ids @p v refers to ({"ref": ID} anywhere in it) that are blocks of
// function @p func, appended to @p b's successors (each once).
static bool
add_refs(struct irs_cfg *g, struct cfg_block *b, const json_t *v)
{
	if (json_is_array(v)) {
		size_t i;
		const json_t *x;
		json_array_foreach(v, i, x)
			if (!add_refs(g, b, x))
				return false;
		return true;
	}
	if (!json_is_object(v))
		return true;
	const char *ref = json_string_value(json_object_get(v, "ref"));
	struct cfg_block *to = find(g->blocks, g->nblocks, sizeof(*to), ref);
	if (to && to->func == b->func) {
		for (uint32_t k = 0; k < b->nsucc; k++)
			if (!strcmp(b->succ[k], to->id))
				return true;
		char **grown = realloc(b->succ, (b->nsucc + 1) *
				       sizeof(*grown));
		if (!grown)
			return false;
		b->succ = grown;
		if (!(b->succ[b->nsucc] = strdup(to->id)))
			return false;
		b->nsucc++;
		return true;
	}
	const char *key;
	const json_t *x;
	json_object_foreach((json_t *)v, key, x)
		if (!add_refs(g, b, x))
			return false;
	return true;
}

// Pass 2: a child of a block; the last one (by its place in the text) is
// the block's terminator, whose references are its edges.
static bool
add_child(struct irs_cfg *g, const json_t *node)
{
	const char *parent = json_string_value(json_object_get(node,
							       "parent"));
	struct cfg_block *b = find(g->blocks, g->nblocks, sizeof(*b),
				   parent);
	size_t s, e;
	if (!b || !span_of(node, g->len, &s, &e) || s + 1 < b->last)
		return true;
	for (uint32_t k = 0; k < b->nsucc; k++)
		free(b->succ[k]);
	b->nsucc = 0;
	b->last = s + 1;
	return add_refs(g, b, json_object_get(node, "fields"));
}

// Resolves the blocks' parents to functions; a block owned by no
// function of the graph is left out.
static void
link_blocks(struct irs_cfg *g)
{
	size_t k = 0;
	qsort(g->funcs, g->nfuncs, sizeof(*g->funcs), by_id);
	for (size_t i = 0; i < g->nblocks; i++) {
		struct cfg_block b = g->blocks[i];
		struct cfg_func *f = find(g->funcs, g->nfuncs, sizeof(*f),
					  b.parent);
		free(b.parent);
		b.parent = NULL;
		if (!f) {
			free(b.id);
			continue;
		}
		b.func = (uint32_t)(f - g->funcs);
		g->blocks[k++] = b;
	}
	g->nblocks = k;
	qsort(g->blocks, g->nblocks, sizeof(*g->blocks), by_id);
}

struct irs_error *
irs_cfg_read(const char *json_path, const char *text, size_t len,
	     struct irs_cfg **ret)
{
	char *doc;
	size_t dlen, capf = 0, capb = 0;
	struct irs_json_split sp;
	struct irs_error *err = irs_file_read(json_path, &doc, &dlen);
	if (err)
		return err;
	if (!irs_json_split(doc, dlen, "nodes", &sp)) {
		free(doc);
		return irs_error_format(IRS_ERROR_FORMAT, "%s: no \"nodes\" "
					"array", json_path);
	}
	// The document without its nodes says what the graph is.
	struct irs_buf head;
	irs_buf_init(&head);
	irs_buf_append(&head, doc, sp.open + 1);
	irs_buf_append(&head, doc + sp.close, dlen - sp.close);
	json_t *frame = head.oom ? NULL : json_loadb(head.data, head.len, 0,
						     NULL);
	irs_buf_deinit(&head);
	const json_t *cfg = json_object_get(frame, "cfg");
	const char *ftype = json_string_value(json_object_get(cfg, "func"));
	const char *btype = json_string_value(json_object_get(cfg, "block"));
	struct irs_cfg *g = calloc(1, sizeof(*g));
	if (!g || !(g->text = malloc(len + 1)))
		err = &irs_enomem;
	else if (!ftype || !btype)
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: the layout "
				       "declares no cfg { func, block }",
				       json_path);
	if (!err) {
		memcpy(g->text, text, len);
		g->text[len] = '\0';
		g->len = len;
	}
	for (int pass = 1; !err && pass <= 2; pass++) {
		if (pass == 2)
			link_blocks(g);
		for (size_t i = 0; !err && i < sp.n; i++) {
			size_t a = sp.at[2 * i], b = sp.at[2 * i + 1];
			json_t *node = json_loadb(doc + a, b - a, 0, NULL);
			bool ok = pass == 1 ? add_node(g, node, ftype, btype,
						       &capf, &capb)
					    : add_child(g, node);
			json_decref(node);
			if (!ok)
				err = &irs_enomem;
		}
	}
	json_decref(frame);
	irs_json_split_deinit(&sp);
	free(doc);
	if (err) {
		irs_cfg_destroy(g);
		return err;
	}
	*ret = g;
	return NULL;
}

static const struct cfg_func *
func_named(const struct irs_cfg *g, const char *name)
{
	for (size_t i = 0; i < g->nfuncs; i++)
		if (!strcmp(g->funcs[i].name, name))
			return &g->funcs[i];
	return NULL;
}

static bool
same_text(const struct irs_cfg *a, const struct cfg_func *fa,
	  const struct irs_cfg *b, const struct cfg_func *fb)
{
	return fa && fb && fa->end - fa->start == fb->end - fb->start &&
	       !memcmp(a->text + fa->start, b->text + fb->start,
		       fa->end - fa->start);
}

static int
by_start(const void *x, const void *y)
{
	const struct cfg_func *a = *(const struct cfg_func *const *)x;
	const struct cfg_func *b = *(const struct cfg_func *const *)y;
	return a->start < b->start ? -1 : a->start > b->start;
}

const char *
irs_cfg_changed(const struct irs_cfg *a, const struct irs_cfg *b)
{
	// in the order the text shows them: the first that changed
	const struct cfg_func **order = malloc((a->nfuncs + b->nfuncs + 1) *
					       sizeof(*order));
	const char *name = NULL;
	if (!order)
		return NULL;
	for (int side = 0; side < 2 && !name; side++) {
		const struct irs_cfg *g = side ? b : a, *o = side ? a : b;
		for (size_t i = 0; i < g->nfuncs; i++)
			order[i] = &g->funcs[i];
		qsort(order, g->nfuncs, sizeof(*order), by_start);
		for (size_t i = 0; i < g->nfuncs && !name; i++)
			if (!same_text(g, order[i], o, func_named(
					       o, order[i]->name)))
				name = order[i]->name;
	}
	free(order);
	return name;
}

static int
block_by_start(const void *x, const void *y)
{
	const struct cfg_block *a = *(const struct cfg_block *const *)x;
	const struct cfg_block *b = *(const struct cfg_block *const *)y;
	return a->start < b->start ? -1 : a->start > b->start;
}

// One line of block text as a DOT label line: printable, at most
// LINE_CHARS characters, quotes and backslashes escaped, then "\l".
static void
dot_line(struct irs_buf *b, const char *s, size_t len)
{
	struct irs_buf p;
	irs_buf_init(&p);
	irs_buf_printable(&p, s, len < LINE_CHARS ? len : LINE_CHARS, false);
	for (size_t i = 0; p.data && i < p.len; i++) {
		if (p.data[i] == '"' || p.data[i] == '\\')
			irs_buf_puts(b, "\\");
		irs_buf_append(b, &p.data[i], 1);
	}
	if (len > LINE_CHARS)
		irs_buf_puts(b, "...");
	irs_buf_puts(b, "\\l");
	b->oom |= p.oom;
	irs_buf_deinit(&p);
}

// The DOT text of function @p f's graph; *n_ret its blocks.
static bool
dot_of(const struct irs_cfg *g, const struct cfg_func *f, struct irs_buf *b,
       size_t *n_ret)
{
	size_t fi = (size_t)(f - g->funcs), n = 0;
	const struct cfg_block **v = malloc((g->nblocks + 1) * sizeof(*v));
	if (!v)
		return false;
	for (size_t i = 0; i < g->nblocks; i++)
		if (g->blocks[i].func == fi)
			v[n++] = &g->blocks[i];
	qsort(v, n, sizeof(*v), block_by_start);
	*n_ret = n;
	irs_buf_puts(b, "digraph cfg {\n"
		     "graph [fontname=\"DejaVu Sans Mono\", fontsize=10, "
		     "nodesep=0.3, ranksep=0.35];\n"
		     "node [shape=box, fontname=\"DejaVu Sans Mono\", "
		     "fontsize=9, margin=\"0.08,0.04\"];\n"
		     "edge [arrowsize=0.6];\n");
	for (size_t i = 0; i < n && i < MAX_BLOCKS; i++) {
		const char *s = g->text + v[i]->start;
		const char *e = g->text + v[i]->end;
		irs_buf_printf(b, "b%zu [label=\"", i);
		for (int k = 0; s < e && k <= BLOCK_LINES; k++) {
			const char *nl = memchr(s, '\n', (size_t)(e - s));
			size_t len = nl ? (size_t)(nl - s) : (size_t)(e - s);
			if (k == BLOCK_LINES) {
				size_t more = 0;
				for (const char *p = s; p < e; p++)
					more += *p == '\n';
				irs_buf_printf(b, "  ... %zu more\\l", more);
				break;
			}
			if (len)
				dot_line(b, s, len);
			s += len + 1;
		}
		irs_buf_printf(b, "\"%s];\n", i ? "" : ", penwidth=2");
	}
	for (size_t i = 0; i < n && i < MAX_BLOCKS; i++)
		for (uint32_t k = 0; k < v[i]->nsucc; k++)
			for (size_t j = 0; j < n && j < MAX_BLOCKS; j++)
				if (!strcmp(v[j]->id, v[i]->succ[k]))
					irs_buf_printf(b, "b%zu -> b%zu;\n",
						       i, j);
	irs_buf_puts(b, "}\n");
	free(v);
	return !b->oom;
}

// The <svg> element of @p svg (dot's output, past its XML prolog), or
// NULL when it holds anything but drawing: what the report inlines must
// not be able to run or load anything.
static const char *
svg_element(const char *svg)
{
	const char *p = strstr(svg, "<svg");
	if (!p)
		return NULL;
	for (const char *q = p; *q; q++)
		if (*q == '<' && (!strncasecmp(q, "<script", 7) ||
				  !strncasecmp(q, "<foreignObject", 14) ||
				  !strncasecmp(q, "<a ", 3) ||
				  !strncasecmp(q, "<image", 6)))
			return NULL;
	return p;
}

// Appends the <svg> element @p el without the namespace declarations of
// its start tag: inline SVG in HTML needs none, and a page that names no
// address at all is one nobody need check for loads.
static void
put_svg(struct irs_buf *out, const char *el)
{
	const char *end = strchr(el, '>');
	for (const char *p = el; end && p < end; ) {
		const char *ns = strstr(p, " xmlns");
		if (!ns || ns > end) {
			irs_buf_append(out, p, (size_t)(end - p));
			break;
		}
		irs_buf_append(out, p, (size_t)(ns - p));
		const char *q = strchr(ns, '"');	// xmlns[:x]="..."
		q = q && q < end ? strchr(q + 1, '"') : NULL;
		p = q && q < end ? q + 1 : end;
	}
	irs_buf_puts(out, end ? end : el);
}

struct irs_error *
irs_cfg_svg(const struct irs_cfg *g, const char *name, struct irs_buf *out,
	    size_t *nblocks_ret)
{
	struct irs_error *err = NULL;
	const struct cfg_func *f = func_named(g, name);
	if (!f)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no function "
					"'%s' here", name);
	char *dot = irs_which("dot");
	if (!dot)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "Graphviz's dot "
					"is not installed (Debian: apt-get "
					"install graphviz)");
	struct irs_buf src;
	irs_buf_init(&src);
	size_t n = 0;
	const char *tmp = getenv("TMPDIR");
	char *dir = NULL, *in = NULL, *svg = NULL, *log = NULL;
	if (!dot_of(g, f, &src, &n) ||
	    asprintf(&dir, "%s/irsnap-cfg.XXXXXX", tmp && *tmp ? tmp
		     : "/tmp") < 0) {
		dir = NULL;
		err = &irs_enomem;
		goto out;
	}
	*nblocks_ret = n;
	if (n > MAX_BLOCKS) {
		err = irs_error_format(IRS_ERROR_USAGE, "%zu blocks, more "
				       "than the %d a picture shows", n,
				       MAX_BLOCKS);
		goto out;
	}
	if (!mkdtemp(dir)) {
		err = irs_error_format(IRS_ERROR_IO, "%s: %s", dir,
				       strerror(errno));
		free(dir);
		dir = NULL;
		goto out;
	}
	in = irs_path_join(dir, "cfg.dot");
	svg = irs_path_join(dir, "cfg.svg");
	log = irs_path_join(dir, "dot.log");
	if (!in || !svg || !log) {
		err = &irs_enomem;
		goto out;
	}
	if ((err = irs_file_write(in, src.data, src.len)))
		goto out;
	// -Kdot: dot picks its layout engine by the name it was run as,
	// and irs_which() resolves Debian's /usr/bin/dot link to another
	char *argv[] = {dot, "-Kdot", "-Tsvg", "-o", svg, in, NULL};
	int status;
	err = irs_child_run(argv, log, NULL, DOT_SECONDS, NULL, &status);
	char *text = NULL;
	size_t len;
	if (!err && (status == -1 || !WIFEXITED(status) ||
		     WEXITSTATUS(status))) {
		char *why = NULL;
		irs_error_destroy(irs_file_read(log, &why, &len));
		err = irs_error_format(IRS_ERROR_TARGET, "dot %s%s%.200s",
				       status == -1 ? "took too long"
				       : "failed", why && *why ? ": " : "",
				       why ? why : "");
		free(why);
	}
	if (!err)
		err = irs_file_read(svg, &text, &len);
	const char *el = text ? svg_element(text) : NULL;
	if (!err && !el)
		err = irs_error_format(IRS_ERROR_FORMAT, "dot wrote no plain "
				       "SVG drawing");
	if (!err)
		put_svg(out, el);
	free(text);
out:
	if (in)
		unlink(in);
	if (svg)
		unlink(svg);
	if (log)
		unlink(log);
	if (dir)
		rmdir(dir);
	free(in);
	free(svg);
	free(log);
	free(dir);
	free(dot);
	irs_buf_deinit(&src);
	return err ? err : out->oom ? &irs_enomem : NULL;
}
