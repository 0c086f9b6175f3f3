// The reducer's unit tree: what may be deleted, nested outermost first.
// Two sources, one shape: a snapshot's JSON (the layout's rendering nests
// function > block > instruction and records every node's text span and
// every reference's span), or, for plain text, a generic splitter over
// braces, indentation and labels.
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <regex.h>

#include "reduce/reduce.h"

/* {=== tree basics ======================================================== */

void
reduce_tree_destroy(struct reduce_tree *t)
{
	if (!t)
		return;
	free(t->text);
	free(t->units);
	free(t->defs);
	free(t->uses);
	free(t->rt_order);
	free(t->header);
	free(t->footer);
	if (t->label)
		regfree(t->label);
	free(t->label);
	free(t->label_src);
	free(t);
}

static struct reduce_tree *
tree_new(void)
{
	struct reduce_tree *t = calloc(1, sizeof(*t));
	if (t) {
		t->constant = "0";
		strcpy(t->comment, ";");
	}
	return t;
}

bool
reduce_grow(void **arr, uint32_t n, uint32_t *cap, size_t elem)
{
	if (n < *cap)
		return true;
	uint32_t ncap = *cap ? *cap * 2 : 64;
	void *p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static int
unit_cmp(const void *a, const void *b)
{
	const struct reduce_unit *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;	// the container first
	return x->level < y->level ? -1 : x->level > y->level;
}

struct irs_error *
reduce_tree_nest(struct reduce_tree *t, const char *name)
{
	if (t->nunits)
		qsort(t->units, t->nunits, sizeof(*t->units), unit_cmp);
	uint32_t *stack = malloc(((size_t)t->nunits + 1) * sizeof(*stack));
	if (!stack)
		return &irs_enomem;
	uint32_t depth = 0;
	for (uint32_t i = 0; i < t->nunits; i++) {
		struct reduce_unit *u = &t->units[i];
		while (depth && t->units[stack[depth - 1]].end <= u->start)
			depth--;
		u->parent = depth ? stack[depth - 1] : RU_NONE;
		if (depth && u->end > t->units[u->parent].end) {
			free(stack);
			return irs_error_format(IRS_ERROR_FORMAT,
				"%s: unit spans [%u, %u) and [%u, %u) overlap "
				"without nesting", name,
				t->units[u->parent].start,
				t->units[u->parent].end, u->start, u->end);
		}
		stack[depth++] = i;
	}
	free(stack);
	return NULL;
}

uint32_t
reduce_tree_innermost(const struct reduce_tree *t, uint32_t start,
		      uint32_t end)
{
	// The last unit starting at or before `start` is the innermost
	// container or one of its descendants: units nest, and any unit that
	// starts after the container's start and before `start` lies inside it.
	uint32_t lo = 0, hi = t->nunits;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (t->units[mid].start <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return RU_NONE;
	uint32_t u = lo - 1;
	while (u != RU_NONE &&
	       !(t->units[u].start <= start && end <= t->units[u].end))
		u = t->units[u].parent;
	return u;
}

static int
use_cmp(const void *a, const void *b)
{
	const struct reduce_use *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

// Orders retargetable defs by scope, then by where their unit starts.
static uint64_t
rt_key(const struct reduce_tree *t, uint32_t d)
{
	const struct reduce_def *def = &t->defs[d];
	uint32_t start = def->unit == RU_NONE ? 0 : t->units[def->unit].start;
	return ((uint64_t)def->scope << 32) | start;
}

static int
rt_cmp(const void *a, const void *b, void *tree)
{
	uint64_t x = rt_key(tree, *(const uint32_t *)a);
	uint64_t y = rt_key(tree, *(const uint32_t *)b);
	return x < y ? -1 : x > y;
}

struct irs_error *
reduce_tree_finish(struct reduce_tree *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nuses; i++)
		if (t->uses[i].def < t->ndefs)
			t->uses[n++] = t->uses[i];
	t->nuses = n;
	if (t->nuses)
		qsort(t->uses, t->nuses, sizeof(*t->uses), use_cmp);
	// Overlapping reference spans cannot both be rewritten; keep the first.
	n = 0;
	for (uint32_t i = 0; i < t->nuses; i++)
		if (!n || t->uses[i].start >= t->uses[n - 1].end)
			t->uses[n++] = t->uses[i];
	t->nuses = n;
	for (uint32_t d = 0; d < t->ndefs; d++) {
		// A block is named by its label, in its header: merging it into
		// the block before deletes the header, and with it the name.
		uint32_t h = t->defs[d].unit;
		if (h != RU_NONE)
			for (h++; h < t->nunits && t->units[h].parent ==
				  t->defs[d].unit; h++)
				if (t->units[h].kind == UNIT_HEADER) {
					t->defs[d].unit = h;
					break;
				}
		uint32_t u = t->defs[d].unit;
		while (u != RU_NONE && t->units[u].parent != RU_NONE)
			u = t->units[u].parent;
		t->defs[d].scope = u;
		t->defs[d].sample = RU_NONE;
	}
	for (uint32_t k = t->nuses; k-- > 0;)
		t->defs[t->uses[k].def].sample = k;	// the first use wins
	t->nlevels = 0;
	for (uint32_t i = 0; i < t->nunits; i++)
		if (t->units[i].level + 1 > t->nlevels)
			t->nlevels = t->units[i].level + 1;

	free(t->header);
	free(t->footer);
	t->header = malloc(((size_t)t->nunits + 1) * sizeof(*t->header));
	t->footer = calloc((size_t)t->nunits + 1, 1);
	if (!t->header || !t->footer)
		return &irs_enomem;
	uint32_t *last_end = t->header;	// borrowed for the first pass
	for (uint32_t i = 0; i < t->nunits; i++)
		last_end[i] = RU_NONE;
	for (uint32_t i = 0; i < t->nunits; i++) {
		uint32_t p = t->units[i].parent;
		if (p != RU_NONE && t->units[i].kind == UNIT_NORMAL)
			last_end[p] = t->units[i].end;	// children in order
	}
	for (uint32_t i = 0; i < t->nunits; i++)
		t->footer[i] = last_end[i] != RU_NONE &&
			       last_end[i] < t->units[i].end;
	for (uint32_t i = 0; i < t->nunits; i++)
		t->header[i] = RU_NONE;
	for (uint32_t i = 0; i < t->nunits; i++)
		if (t->units[i].kind == UNIT_HEADER)
			t->header[t->units[i].parent] = i;

	free(t->rt_order);
	t->rt_order = malloc(((size_t)t->ndefs + 1) * sizeof(*t->rt_order));
	if (!t->rt_order)
		return &irs_enomem;
	t->nrt = 0;
	for (uint32_t d = 0; d < t->ndefs; d++)
		if (t->defs[d].repair == REPAIR_RETARGET &&
		    t->defs[d].unit != RU_NONE)
			t->rt_order[t->nrt++] = d;
	if (t->nrt)
		qsort_r(t->rt_order, t->nrt, sizeof(*t->rt_order), rt_cmp, t);
	for (uint32_t i = 0; i < t->nrt; i++)
		t->defs[t->rt_order[i]].rt_pos = i;
	reduce_tree_number_check(t);
	return NULL;
}

// One past the blank lines at `p` that end before `end`.
static uint32_t
skip_blank_lines(const char *s, uint32_t p, uint32_t end)
{
	for (uint32_t q = p; q < end; q++) {
		if (s[q] == '\n')
			p = q + 1;
		else if (!strchr(" \t\r", s[q]))
			break;
	}
	return p;
}

struct irs_error *
reduce_tree_pieces(struct reduce_tree *t, const char *name)
{
	uint32_t n = t->nunits;
	// At most two pieces per unit.
	struct reduce_unit *u = realloc(t->units,
		((size_t)n * 3 + 1) * sizeof(*t->units));
	if (!u)
		return &irs_enomem;
	t->units = u;
	for (uint32_t i = 0; i < n; i++) {
		if (u[i].kind != UNIT_NORMAL)
			continue;
		uint32_t body = skip_blank_lines(t->text, u[i].start, u[i].end);
		if (body > u[i].start && body < u[i].end)
			u[t->nunits++] = (struct reduce_unit){
				u[i].start, body, i, u[i].level + 1,
				UNIT_BLANK};
		// The first child follows its parent in document order.
		uint32_t c = i + 1;
		while (c < n && u[c].parent == i && u[c].kind != UNIT_NORMAL)
			c++;
		if (c < n && u[c].parent == i && u[c].start > body)
			u[t->nunits++] = (struct reduce_unit){
				body, u[c].start, i, u[i].level + 1,
				UNIT_HEADER};
	}
	return reduce_tree_nest(t, name);
}

/* }=== */

/* {=== generic splitter ==================================================== */

struct line {
	uint32_t start, end;	/* end includes the '\n' */
	int indent;
	int net;		/* '{' minus '}' outside strings and comments */
	bool blank, label, closer;
};

struct splitter {
	struct reduce_tree *t;
	struct line *lines;
	uint32_t nlines;
	uint32_t cap_units;
	bool oom;
};

static void
scan_line(const struct reduce_tree *t, const char *s, struct line *ln)
{
	int indent = 0;
	uint32_t i = ln->start;
	while (i < ln->end && (s[i] == ' ' || s[i] == '\t')) {
		indent = s[i] == '\t' ? (indent / 8 + 1) * 8 : indent + 1;
		i++;
	}
	ln->indent = indent;
	uint32_t first = i, last = i;	// last: one past the last non-space
	bool in_str = false;
	for (; i < ln->end && s[i] != '\n'; i++) {
		char c = s[i];
		if (in_str) {
			if (c == '\\' && i + 1 < ln->end)
				i++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (reduce_tree_comment_here(t, i, ln->end)) {
			break;		// a comment runs to the end of the line
		} else if (c == '{') {
			ln->net++;
		} else if (c == '}') {
			ln->net--;
		}
		if (c != ' ' && c != '\t' && c != '\r')
			last = i + 1;
	}
	ln->blank = last == first;
	ln->closer = !ln->blank && s[first] == '}';
	ln->label = !ln->blank && reduce_tree_is_label(t, first, last);
}

bool
reduce_tree_is_label(const struct reduce_tree *t, uint32_t s, uint32_t e)
{
	const char *text = t->text;
	while (s < e && (text[s] == ' ' || text[s] == '\t'))
		s++;
	while (e > s && strchr(" \t\r\n", text[e - 1]))
		e--;
	if (e - s < 2)
		return false;
	if (t->label) {
		char buf[256];
		if (e - s >= sizeof(buf))
			return false;
		memcpy(buf, text + s, e - s);
		buf[e - s] = '\0';
		return regexec(t->label, buf, 0, NULL, 0) == 0;
	}
	// One word ending in ':' ("entry:", "bb.3:", "@loop:").
	if (text[e - 1] != ':')
		return false;
	for (uint32_t k = s; k < e - 1; k++)
		if (text[k] == ' ' || text[k] == '\t')
			return false;
	return true;
}

bool
reduce_tree_comment_here(const struct reduce_tree *t, uint32_t i, uint32_t e)
{
	size_t n = strlen(t->comment);
	return n && i + n <= e && !memcmp(t->text + i, t->comment, n);
}

// A C preprocessor line, which starts with '#' and is no comment.
static bool
preprocessor(const char *s, size_t n)
{
	static const char *const words[] = {"include", "define", "if", "endif",
		"else", "elif", "undef", "pragma", "error", "line"};
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t k = strlen(words[i]);
		if (n > k && !memcmp(s + 1, words[i], k))
			return true;
	}
	return false;
}

void
reduce_syntax_detect(const char *text, size_t len, struct reduce_syntax *syn)
{
	// "--": Lua, SQL, Haskell, Ada (a C line starting "--i;" is rare)
	static const char *const markers[] = {";", "#", "//", "--"};
	enum { NMARKERS = sizeof(markers) / sizeof(markers[0]) };
	size_t votes[NMARKERS] = {0}, bare_at = 0, colon_at = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t s = i;
		while (s < end && (text[s] == ' ' || text[s] == '\t'))
			s++;
		size_t e = end;
		while (e > s && strchr(" \t\r", text[e - 1]))
			e--;
		for (size_t m = 0; m < NMARKERS; m++) {
			size_t k = strlen(markers[m]);
			if (e - s >= k && !memcmp(text + s, markers[m], k) &&
			    !(m == 1 && preprocessor(text + s, e - s)))
				votes[m]++;
		}
		// "@name" alone on a line, or "@name:".
		if (e - s >= 2 && text[s] == '@') {
			size_t k = s + 1;
			while (k < e && (isalnum((unsigned char)text[k]) ||
					 strchr("_.$-", text[k])))
				k++;
			if (k == e)
				bare_at++;
			else if (k + 1 == e && text[k] == ':')
				colon_at++;
		}
		i = end + 1;
	}
	if (!syn->comment) {
		size_t best = 0;
		for (size_t m = 1; m < NMARKERS; m++)
			if (votes[m] > votes[best])
				best = m;
		syn->comment = markers[best];
	}
	if (!syn->label && bare_at >= 2 && bare_at > colon_at)
		syn->label = "^(@[A-Za-z0-9_.$-]+:?|[A-Za-z0-9_.$%^@-]+:)$";
}

static uint32_t
add_unit(struct splitter *sp, uint32_t start, uint32_t end, uint32_t parent,
	 uint32_t level)
{
	struct reduce_tree *t = sp->t;
	if (!reduce_grow((void **)&t->units, t->nunits, &sp->cap_units,
		  sizeof(*t->units))) {
		sp->oom = true;
		return RU_NONE;
	}
	t->units[t->nunits] = (struct reduce_unit){start, end, parent, level,
						   UNIT_NORMAL};
	return t->nunits++;
}

// One past the last line of the unit headed by line `h`, within [h, hi),
// and in *kids_end one past its last child line (the footer excluded).
static uint32_t
unit_extent(const struct splitter *sp, uint32_t h, uint32_t hi,
	    uint32_t *kids_end)
{
	const struct line *L = sp->lines;
	if (L[h].net > 0) {		// braces: up to the matching close
		int depth = L[h].net;
		for (uint32_t k = h + 1; k < hi; k++) {
			depth += L[k].net;
			if (depth <= 0) {
				*kids_end = k;
				return k + 1;
			}
		}
		*kids_end = h + 1;	// unbalanced: treat as one line
		return h + 1;
	}
	// Deeper lines after it are its body (indentation); failing that, a
	// label owns the lines at its own indentation up to the next label
	// (blocks whose instructions are not indented further).
	uint32_t next = h + 1;
	while (next < hi && L[next].blank)
		next++;
	bool indented = next < hi && L[next].indent > L[h].indent;
	uint32_t end = h + 1;
	for (uint32_t k = h + 1; k < hi; k++) {
		if (L[k].blank)
			continue;
		bool body = indented ? L[k].indent > L[h].indent
			  : L[h].label && !L[k].label && !L[k].closer &&
			    L[k].indent == L[h].indent;
		if (!body)
			break;
		end = k + 1;
	}
	*kids_end = end;
	return end;
}

// Cuts lines [lo, hi) into units at `level` under `parent`. Blank lines
// go with the unit after them, so deleting a unit takes its spacing too.
static void
split_region(struct splitter *sp, uint32_t lo, uint32_t hi, uint32_t parent,
	     uint32_t level)
{
	uint32_t i = lo;
	while (i < hi && !sp->oom) {
		uint32_t h = i;
		while (h < hi && sp->lines[h].blank)
			h++;
		if (h == hi)
			break;
		uint32_t kids_end;
		uint32_t end = unit_extent(sp, h, hi, &kids_end);
		uint32_t u = add_unit(sp, sp->lines[i].start,
				      sp->lines[end - 1].end, parent, level);
		if (u != RU_NONE && kids_end > h + 1)
			split_region(sp, h + 1, kids_end, u, level + 1);
		i = end;
	}
}

static bool
split_lines(struct splitter *sp)
{
	const char *s = sp->t->text;
	size_t len = sp->t->len;
	uint32_t cap = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) + 1 : len;
		if (!reduce_grow((void **)&sp->lines, sp->nlines, &cap,
			  sizeof(*sp->lines)))
			return false;
		struct line *ln = &sp->lines[sp->nlines++];
		memset(ln, 0, sizeof(*ln));
		ln->start = (uint32_t)i;
		ln->end = (uint32_t)end;
		scan_line(sp->t, s, ln);
		i = end;
	}
	return true;
}

struct irs_error *
reduce_tree_from_text(char *text, size_t len, struct reduce_tree **ret)
{
	return reduce_tree_from_text_syntax(text, len, NULL, ret);
}

// Sets @p t's comment marker (NULL: keep it) and label regex (NULL: none);
// IRS_ERROR_USAGE naming @p what for a regex that does not compile.
static struct irs_error *
tree_syntax(struct reduce_tree *t, const char *comment, const char *label,
	    const char *what)
{
	if (comment) {
		snprintf(t->comment, sizeof(t->comment), "%s", comment);
		t->comment_set = true;
	}
	if (!label)
		return NULL;
	int rc = -1;
	if (!(t->label_src = strdup(label)) ||
	    !(t->label = malloc(sizeof(regex_t))))
		return &irs_enomem;
	rc = regcomp(t->label, label, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		free(t->label);
		t->label = NULL;
		return irs_error_format(IRS_ERROR_USAGE, "%s '%s': not a "
					"regular expression", what, label);
	}
	return NULL;
}

struct irs_error *
reduce_tree_from_text_syntax(char *text, size_t len,
			     const struct reduce_syntax *given,
			     struct reduce_tree **ret)
{
	struct irs_error *err;

	if (len >= UINT32_MAX)
		return irs_error_format(IRS_ERROR_LIMIT,
					"input of %zu bytes is too large", len);
	struct reduce_syntax syn = given ? *given : (struct reduce_syntax){0};
	reduce_syntax_detect(text, len, &syn);
	struct reduce_tree *t = tree_new();
	if (!t)
		return &irs_enomem;
	if ((err = tree_syntax(t, syn.comment, syn.label, "--label"))) {
		reduce_tree_destroy(t);
		return err;
	}
	struct splitter sp = {.t = t};
	t->text = text;
	t->len = len;
	t->source = "text";
	if (!split_lines(&sp))
		sp.oom = true;
	if (!sp.oom)
		split_region(&sp, 0, sp.nlines, RU_NONE, 0);
	free(sp.lines);
	if (sp.oom) {
		t->text = NULL;		// the caller keeps it on failure
		reduce_tree_destroy(t);
		return &irs_enomem;
	}
	// Already in document order with parents set; nest() re-checks.
	err = reduce_tree_nest(t, "text");
	if (!err)
		err = reduce_tree_pieces(t, "text");
	if (!err)
		err = reduce_defuse_scan(t);
	if (!err)
		err = reduce_tree_finish(t);
	if (err) {
		t->text = NULL;
		reduce_tree_destroy(t);
		return err;
	}
	*ret = t;
	return NULL;
}

/* }=== */

/* {=== snapshot JSON ======================================================= */

struct snap_loader {
	struct reduce_tree *t;
	const char *name;
	json_t *nodes;		/* array */
	json_t *ids;		/* object: id -> node index */
	const char *defs_type;	/* reduce.defs, or NULL */
	uint32_t *node_def;	/* node index -> def index, or RU_NONE */
	uint32_t cap_units, cap_defs, cap_uses;
	struct irs_error *err;
};

static bool
get_span(json_t *span, size_t len, uint32_t *s, uint32_t *e)
{
	if (!json_is_array(span) || json_array_size(span) != 2)
		return false;
	json_t *a = json_array_get(span, 0), *b = json_array_get(span, 1);
	if (!json_is_integer(a) || !json_is_integer(b))
		return false;
	json_int_t x = json_integer_value(a), y = json_integer_value(b);
	if (x < 0 || y < x || (size_t)y > len)
		return false;
	*s = (uint32_t)x;
	*e = (uint32_t)y;
	return true;
}

static int32_t
level_of(json_t *units, const char *type)
{
	for (size_t i = 0; i < json_array_size(units); i++) {
		const char *u = json_string_value(json_array_get(units, i));
		if (u && type && !strcmp(u, type))
			return (int32_t)i;
	}
	return -1;
}

static struct irs_error *
bad_node(const struct snap_loader *ld, size_t i, const char *what)
{
	json_t *id = json_object_get(json_array_get(ld->nodes, i), "id");
	return irs_error_format(IRS_ERROR_FORMAT, "%s: node %zu (%s): %s",
				ld->name, i,
				json_string_value(id) ? json_string_value(id)
						      : "no id", what);
}

static struct irs_error *
load_units(struct snap_loader *ld, json_t *units)
{
	struct reduce_tree *t = ld->t;
	for (size_t i = 0; i < json_array_size(ld->nodes); i++) {
		json_t *n = json_array_get(ld->nodes, i);
		if (!json_is_object(n))
			return bad_node(ld, i, "not an object");
		json_t *id = json_object_get(n, "id");
		if (!json_is_string(id))
			return bad_node(ld, i, "no \"id\" string");
		if (json_object_set_new(ld->ids, json_string_value(id),
					json_integer((json_int_t)i)))
			return &irs_enomem;
		int32_t level = level_of(units,
			json_string_value(json_object_get(n, "type")));
		json_t *span = json_object_get(n, "span");
		if (level < 0 || !span)
			continue;
		uint32_t s, e;
		if (!get_span(span, t->len, &s, &e))
			return bad_node(ld, i, "bad \"span\"");
		if (!reduce_grow((void **)&t->units, t->nunits, &ld->cap_units,
			  sizeof(*t->units)))
			return &irs_enomem;
		t->units[t->nunits++] = (struct reduce_unit){
			s, e, RU_NONE, (uint32_t)level, UNIT_NORMAL};
	}
	return NULL;
}

// The innermost unit holding node `i`: its own span, else the first
// ancestor (by "parent") that was rendered. Bounded against cycles.
static uint32_t
unit_of_node(const struct snap_loader *ld, size_t i)
{
	size_t n = json_array_size(ld->nodes);
	for (size_t hops = 0; hops < n && i < n; hops++) {
		json_t *node = json_array_get(ld->nodes, i);
		uint32_t s, e;
		if (get_span(json_object_get(node, "span"), ld->t->len, &s, &e))
			return reduce_tree_innermost(ld->t, s, e);
		json_t *idx = json_object_get(ld->ids, json_string_value(
			json_object_get(node, "parent")));
		if (!json_is_integer(idx))
			return RU_NONE;
		i = (size_t)json_integer_value(idx);
	}
	return RU_NONE;
}

// The def of node `target`, made on first reference: values (the layout's
// `defs` type) are repaired with a constant, anything else (blocks,
// functions) by dropping what refers to it.
static uint32_t
def_of(struct snap_loader *ld, size_t target)
{
	struct reduce_tree *t = ld->t;
	if (ld->node_def[target] != RU_NONE)
		return ld->node_def[target];
	if (!reduce_grow((void **)&t->defs, t->ndefs, &ld->cap_defs,
		  sizeof(*t->defs))) {
		ld->err = &irs_enomem;
		return RU_NONE;
	}
	const char *type = json_string_value(json_object_get(
		json_array_get(ld->nodes, target), "type"));
	bool value = ld->defs_type && type && !strcmp(type, ld->defs_type);
	// Values become a constant; references to anything else (blocks) are
	// pointed at a live sibling, since no constant can stand for them.
	t->defs[t->ndefs] = (struct reduce_def){
		unit_of_node(ld, target),
		value ? REPAIR_CONST : REPAIR_RETARGET, RU_NONE, RU_NONE, 0,
		RU_NONE, 0, 0, RU_NONE};
	return ld->node_def[target] = t->ndefs++;
}

static void
scan_refs(struct snap_loader *ld, size_t node, json_t *v, int depth)
{
	if (ld->err || depth > 64)
		return;
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			scan_refs(ld, node, json_array_get(v, i), depth + 1);
		return;
	}
	if (!json_is_object(v))
		return;
	json_t *ref = json_object_get(v, "ref");
	if (json_is_string(ref)) {
		json_t *idx = json_object_get(ld->ids, json_string_value(ref));
		uint32_t s, e;
		if (!json_is_integer(idx))
			return;		// a reference outside the snapshot
		if (!get_span(json_object_get(v, "span"), ld->t->len, &s, &e)) {
			ld->err = bad_node(ld, node, "reference without a "
					   "valid \"span\"");
			return;
		}
		uint32_t d = def_of(ld, (size_t)json_integer_value(idx));
		struct reduce_tree *t = ld->t;
		if (d == RU_NONE || !reduce_grow((void **)&t->uses, t->nuses,
					  &ld->cap_uses, sizeof(*t->uses))) {
			if (!ld->err)
				ld->err = &irs_enomem;
			return;
		}
		t->uses[t->nuses++] = (struct reduce_use){
			s, e, reduce_tree_innermost(t, s, e), d};
		return;
	}
	const char *key;
	json_t *val;
	json_object_foreach(v, key, val)
		scan_refs(ld, node, val, depth + 1);
}

static struct irs_error *
check_hash(json_t *root, const struct reduce_tree *t, const char *name)
{
	const char *want = json_string_value(json_object_get(
		json_object_get(root, "stats"), "hash"));
	if (!want)
		return NULL;
	char have[17];
	snprintf(have, sizeof(have), "%016llx",
		 (unsigned long long)reduce_hash(t->text, t->len));
	if (strcmp(want, have))
		return irs_error_format(IRS_ERROR_FORMAT,
			"%s: its stats.hash %s is not the text's (%s): the "
			"snapshot describes another file", name, want, have);
	return NULL;
}

static struct irs_error *
load_snapshot(struct snap_loader *ld, json_t *root)
{
	struct irs_error *err;

	const char *schema = json_string_value(json_object_get(root, "schema"));
	if (!schema || strncmp(schema, "irsnap.snapshot/", 16))
		return irs_error_format(IRS_ERROR_FORMAT,
			"%s: not an irsnap.snapshot document", ld->name);
	if ((err = check_hash(root, ld->t, ld->name)))
		return err;
	json_t *reduce = json_object_get(root, "reduce");
	json_t *units = json_object_get(reduce, "units");
	if (!json_is_array(units) || !json_array_size(units))
		return irs_error_format(IRS_ERROR_NOT_FOUND,
			"%s: no \"reduce\".\"units\" (the layout declares "
			"no reduce units)", ld->name);
	ld->defs_type = json_string_value(json_object_get(reduce, "defs"));
	// the layout's syntax of the text, for the text passes after these
	if ((err = tree_syntax(ld->t, json_string_value(json_object_get(
				       reduce, "comment")),
			       json_string_value(json_object_get(reduce,
								  "label")),
			       "the layout's reduce.label")))
		return err;
	ld->nodes = json_object_get(root, "nodes");
	if (!json_is_array(ld->nodes))
		return irs_error_format(IRS_ERROR_FORMAT,
					"%s: no \"nodes\" array", ld->name);
	if ((err = load_units(ld, units)))
		return err;
	if ((err = reduce_tree_nest(ld->t, ld->name)) ||
	    (err = reduce_tree_pieces(ld->t, ld->name)))
		return err;
	size_t n = json_array_size(ld->nodes);
	ld->node_def = malloc((n + 1) * sizeof(*ld->node_def));
	if (!ld->node_def)
		return &irs_enomem;
	for (size_t i = 0; i < n; i++)
		ld->node_def[i] = RU_NONE;
	for (size_t i = 0; i < n && !ld->err; i++)
		scan_refs(ld, i, json_object_get(json_array_get(ld->nodes, i),
						 "fields"), 0);
	return ld->err;
}

struct irs_error *
reduce_tree_from_snapshot(char *text, size_t len, const char *json,
			  size_t json_len, const char *name,
			  struct reduce_tree **ret)
{
	struct irs_error *err;
	json_error_t jerr;

	if (len >= UINT32_MAX)
		return irs_error_format(IRS_ERROR_LIMIT,
					"input of %zu bytes is too large", len);
	json_t *root = json_loadb(json, json_len, JSON_ALLOW_NUL, &jerr);
	if (!root)
		return irs_error_format(IRS_ERROR_FORMAT, "%s:%d:%d: %s", name,
					jerr.line, jerr.column, jerr.text);
	struct reduce_tree *t = tree_new();
	struct snap_loader ld = {.t = t, .name = name, .ids = json_object()};
	if (!t || !ld.ids) {
		err = &irs_enomem;
		goto out;
	}
	t->text = text;
	t->len = len;
	t->source = "snapshot";
	err = load_snapshot(&ld, root);
	if (!err)
		err = reduce_tree_finish(t);
out:
	free(ld.node_def);
	json_decref(ld.ids);
	json_decref(root);
	if (err) {
		if (t)
			t->text = NULL;	// stays the caller's
		reduce_tree_destroy(t);
		return err;
	}
	*ret = t;
	return NULL;
}

/* }=== */
