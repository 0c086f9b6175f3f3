// MLIR's generic operation form (--mlir-print-op-generic, what mlir14.lua
// writes; issue 29 item 4): "dialect.op"(operands) ({regions}) {attrs} :
// (operand types) -> results, one operation a line, a region's blocks
// under "^bbN(%arg: type):" labels. The generic splitter cuts it into
// operations with their regions as units (braces); what the syntax adds:
// operands rewired to a dominating value of the same type (a function's
// argument first), a block's terminator never cut alone, attribute
// entries as the items an operation may lose where its operands and
// types are fixed, and the printer, mlir-opt, which parses and verifies
// each candidate first and writes the result in MLIR's own generic form.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "util/util.h"

// A byte range [start, end) of a text.
struct range {
	uint32_t start, end;
};

// Line [a, e) without its leading and trailing blanks.
static void
trim(const char *s, uint32_t *a, uint32_t *e)
{
	while (*a < *e && isspace((unsigned char)s[*a]))
		(*a)++;
	while (*e > *a && isspace((unsigned char)s[*e - 1]))
		(*e)--;
}

// The end of the line holding byte i (its '\n', or len).
static uint32_t
line_end(const char *s, size_t len, uint32_t i)
{
	const char *nl = memchr(s + i, '\n', len - i);
	return nl ? (uint32_t)(nl - s) : (uint32_t)len;
}

// What byte s[*i] of a scan does to the bracket depth: +1 an opening
// bracket, -1 a closing one ("->"'s '>' is none), 0 else; a string
// ("...", with escapes; *str says the scan is in one) is skipped.
static int
bracket(const char *s, uint32_t *i, bool *str)
{
	char c = s[*i];
	if (*str) {
		if (c == '\\')
			(*i)++;
		else if (c == '"' || c == '\n')
			*str = false;
		return 0;
	}
	if (c == '"')
		*str = true;
	else if (strchr("([{<", c))
		return 1;
	else if (strchr(")]}>", c) && !(c == '>' && *i && s[*i - 1] == '-'))
		return -1;
	return 0;
}

// After an operation's quoted name at @p i ("arith.addi"): the byte past
// its closing quote, or 0 when no "dialect.op" name starts there.
static uint32_t
op_name_end(const char *s, uint32_t i, uint32_t e)
{
	if (i >= e || s[i] != '"')
		return 0;
	bool dot = false;
	uint32_t k = i + 1;
	for (; k < e && s[k] != '"'; k++) {
		if (s[k] == '.')
			dot = true;
		else if (!isalnum((unsigned char)s[k]) && s[k] != '_' &&
			 s[k] != '$')
			return 0;
	}
	return k < e && dot && k > i + 2 ? k + 1 : 0;
}

// Where the operation of line [a, e) names itself: after "%r = " or
// "%r:2 = ", or at a. 0 when the line is no operation.
static uint32_t
op_start(const char *s, uint32_t a, uint32_t e)
{
	trim(s, &a, &e);
	if (a < e && s[a] == '%') {
		const char *eq = memmem(s + a, e - a, " = \"", 4);
		if (!eq)
			return 0;
		a = (uint32_t)(eq - s) + 3;
	}
	return op_name_end(s, a, e) ? a : 0;
}

// Is the text MLIR's generic form: a line that is an operation,
// "dialect.op"( with its name quoted?
static bool
detect(const char *s, size_t len)
{
	for (uint32_t i = 0; i < len;) {
		uint32_t e = line_end(s, len, i);
		uint32_t a = op_start(s, i, e);
		if (a) {
			uint32_t k = op_name_end(s, a, e);
			if (k < e && s[k] == '(')
				return true;
		}
		i = e + 1;
	}
	return false;
}

// Is unit u one operation line without results that ends its block
// (the next line closes the region or starts a block): a terminator
// (std.return, scf.yield, br), which its block cannot lose alone.
static bool
terminator(const struct reduce_tree *t, uint32_t u)
{
	const struct reduce_unit *x = &t->units[u];
	uint32_t a = x->start, e = x->end;
	trim(t->text, &a, &e);
	if (a == e || memchr(t->text + a, '\n', e - a) || t->text[a] != '"' ||
	    !op_start(t->text, a, e))
		return false;
	uint32_t i = line_end(t->text, t->len, e);
	while (i < t->len && isspace((unsigned char)t->text[i]))
		i++;
	return i >= t->len || t->text[i] == '}' || t->text[i] == '^';
}

// Is the item after the comma at @p comma an operand, a type or a
// successor (an operation's operand and type lists must agree), rather
// than an entry of an attribute dictionary, which the operation may lose?
static bool
operand_item(const char *s, size_t len, size_t comma)
{
	(void)len;
	size_t ls = comma;
	while (ls > 0 && s[ls - 1] != '\n')
		ls--;
	char stack[64];
	size_t depth = 0, at[64];
	bool str = false;
	for (size_t i = ls; i < comma; i++) {
		char c = s[i];
		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = false;
		} else if (c == '"') {
			str = true;
		} else if (strchr("([{<", c)) {
			if (depth < ARRAY_SIZE(stack)) {
				stack[depth] = c;
				at[depth] = i;
			}
			depth++;
		} else if (strchr(")]}>", c) && depth) {
			depth--;
		}
	}
	if (!depth || depth > ARRAY_SIZE(stack))
		return true;
	// an attribute dictionary: a '{' that opens no region ("({")
	size_t k = depth - 1;
	return !(stack[k] == '{' && !(at[k] > ls && s[at[k] - 1] == '('));
}

// Can the whole lines [cs, ce) go together? Not when their brackets do
// not balance (half an operation with regions), nor when a line of them
// defines a value ("%x = ", "%x:2 = ") used elsewhere.
static bool
range_cut_ok(const char *s, size_t len, uint32_t cs, uint32_t ce)
{
	int depth = 0;
	bool str = false;
	for (uint32_t i = cs; i < ce; i++)
		depth += bracket(s, &i, &str);
	if (depth)
		return false;
	for (uint32_t i = cs; i < ce;) {
		uint32_t e = line_end(s, ce, i), a = i;
		while (a < e && isspace((unsigned char)s[a]))
			a++;
		if (a < e && s[a] == '%') {
			uint32_t w = a + 1;
			while (w < e && reduce_word_char(s[w]))
				w++;
			if (reduce_used_outside(s, len, a, w, cs, ce))
				return false;
		}
		i = e + 1;
	}
	return true;
}

// No token of an operation goes alone: its name, operands and types
// agree with each other; its attribute entries are items (operand_item).
static void
drop_fixed_tokens(const char *s, size_t len, struct reduce_spans *sp)
{
	(void)s;
	(void)len;
	sp->n = 0;
}

/* {=== rewires: operands to a dominating value of the same type =========== */

// A value: its name ("%3", "%arg0"; in the text, or "%0#1" spelt out in
// a buffer the spans own) and its type's text.
struct value {
	const char *name;
	uint32_t nlen;
	struct range type;
};

// A frame of the nest: a region (its entry block's values stay visible
// in its later blocks, which the entry dominates) or an operation with
// regions, whose operands and results wait for its closing line.
struct nest {
	bool region;
	bool isolated;		/* an operation no value crosses (a func) */
	bool started;		/* region: an operation or a label seen */
	uint32_t entry;		/* region: its entry block's values end here
				   in vals; the values after are its current
				   block's */
	uint32_t vals;		/* where its values start in vals */
	uint32_t ops, nres;	/* operation: operands at ops in uses, its
				   results' names: "%r" and how many */
	struct range res;
};

struct rewire {
	const char *s;
	size_t len;
	struct value *vals;
	uint32_t nvals, capvals;
	struct range *uses;	/* operands waiting for their types */
	uint32_t nuses, capuses;
	struct nest frames[64];
	uint32_t nframes;
	bool oom;
};

static void
value_add(struct rewire *w, const char *name, uint32_t nlen,
	  struct range type)
{
	if (!name || !reduce_grow((void **)&w->vals, w->nvals, &w->capvals,
			   sizeof(*w->vals))) {
		w->oom = true;
		return;
	}
	w->vals[w->nvals++] = (struct value){name, nlen, type};
}

static bool
same(const char *s, struct range a, struct range b)
{
	return a.end - a.start == b.end - b.start &&
	       !memcmp(s + a.start, s + b.start, a.end - a.start);
}

// The end of the bracketed text opening at @p i ("(", "<", "[", "{"),
// strings skipped, or @p e.
static uint32_t
close_of(const char *s, uint32_t i, uint32_t e)
{
	int depth = 0;
	bool str = false;
	for (; i < e; i++)
		if ((depth += bracket(s, &i, &str)) == 0 && !str &&
		    strchr(")]}>", s[i]))
			return i;
	return e;
}

// The comma-separated items of [a, e) at its top level, into v[0..max):
// their count (more than max: max + 1).
static uint32_t
items(const char *s, uint32_t a, uint32_t e, struct range *v, uint32_t max)
{
	uint32_t n = 0;
	trim(s, &a, &e);
	while (a < e) {
		uint32_t k = a;
		while (k < e && s[k] != ',') {
			if (strchr("([{<", s[k]))
				k = close_of(s, k, e);
			if (k < e)
				k++;
		}
		uint32_t ie = k;
		trim(s, &a, &ie);
		if (n < max)
			v[n] = (struct range){a, ie};
		n++;
		a = k + 1;
	}
	return n > max ? max + 1 : n;
}

enum { MAX_TYPES = 64 };

// The signature ": (T, ...) -> R" of line [a, e): the colon at the
// bracket depth the line ends at. Operand types into in[], result types
// into out[]; false when the line has none.
static bool
signature(const char *s, uint32_t a, uint32_t e, struct range *in,
	  uint32_t *nin, struct range *out, uint32_t *nout)
{
	int depth = 0, at_colon = 0;
	uint32_t colon = 0;
	bool str = false;
	for (uint32_t i = a; i < e; i++) {
		bool was_str = str;
		depth += bracket(s, &i, &str);
		if (!was_str && s[i] == ':' && i > a && s[i - 1] == ' ' &&
		    i + 1 < e && s[i + 1] == ' ') {
			colon = i;
			at_colon = depth;
		}
	}
	if (!colon || at_colon != depth)
		return false;
	uint32_t p = colon + 2;
	if (p >= e || s[p] != '(')
		return false;
	uint32_t pe = close_of(s, p, e);
	const char *arrow = pe < e ? memmem(s + pe, e - pe, " -> ", 4) : NULL;
	if (!arrow)
		return false;
	*nin = items(s, p + 1, pe, in, MAX_TYPES);
	uint32_t r = (uint32_t)(arrow - s) + 4, re = e;
	trim(s, &r, &re);
	if (r < re && s[r] == '(' && close_of(s, r, re) == re - 1)
		*nout = items(s, r + 1, re - 1, out, MAX_TYPES);
	else if (r < re) {
		*nout = 1;
		out[0] = (struct range){r, re};
	} else
		*nout = 0;
	return *nin <= MAX_TYPES && *nout <= MAX_TYPES;
}

// The first value visible here of type @p type other than @p self: the
// values of the regions inside the innermost isolated operation (so a
// function's arguments first), outermost first, earliest first; a
// region's later blocks see its entry block's and their own.
static const struct value *
dominating(const struct rewire *w, struct range type, struct range self)
{
	uint32_t from = 0;
	for (uint32_t f = 0; f < w->nframes; f++)
		if (!w->frames[f].region && w->frames[f].isolated)
			from = f + 1;
	const char *s = w->s;
	for (uint32_t v = w->frames[from < w->nframes ? from : 0].vals;
	     v < w->nvals; v++) {
		const struct value *x = &w->vals[v];
		if (same(s, x->type, type) &&
		    !(x->nlen == self.end - self.start &&
		      !memcmp(x->name, s + self.start, x->nlen)))
			return x;
	}
	return NULL;
}

// The operation of frame @p fr ends at line [a, e) (its own line, or
// its regions' closing line): each operand typed by the signature gets a
// span renaming it to a dominating value of its type; its results join
// the current block.
static void
op_end(struct rewire *w, struct nest *fr, uint32_t a, uint32_t e,
       struct reduce_spans *sp)
{
	struct range in[MAX_TYPES + 1], out[MAX_TYPES + 1];
	uint32_t nin, nout, nops = w->nuses - fr->ops;
	if (signature(w->s, a, e, in, &nin, out, &nout) && nin == nops) {
		for (uint32_t k = 0; k < nops; k++) {
			struct range u = w->uses[fr->ops + k];
			const struct value *v = dominating(w, in[k], u);
			const char *r = v ? reduce_spans_own(sp,
						strndup(v->name, v->nlen))
					  : NULL;
			if (r)
				reduce_span_add(sp, u.start, u.end, r);
		}
		if (fr->nres && nout == fr->nres) {
			// "%r", or "%r#k" for each of several results,
			// spelt out in a buffer the spans own
			const char *name = w->s + fr->res.start;
			int n = (int)(fr->res.end - fr->res.start);
			for (uint32_t k = 0; k < nout; k++) {
				char *x = NULL;
				const char *o = NULL;
				if (nout == 1)
					value_add(w, name, (uint32_t)n,
						  out[k]);
				else if (asprintf(&x, "%.*s#%u", n, name,
						  k) >= 0 &&
					 (o = reduce_spans_own(sp, x)))
					value_add(w, o, (uint32_t)strlen(o),
						  out[k]);
				else
					w->oom = true;
			}
		}
	}
	w->nuses = fr->ops;
}

// Operands of the operation whose name ends at @p k, "(%a, %b#1)".
static void
operands(struct rewire *w, uint32_t k, uint32_t e)
{
	if (k >= e || w->s[k] != '(')
		return;
	uint32_t ce = close_of(w->s, k, e);
	for (uint32_t i = k + 1; i < ce;) {
		if (w->s[i] != '%') {
			i++;
			continue;
		}
		uint32_t j = i + 1;
		while (j < ce && (reduce_word_char(w->s[j]) || w->s[j] == '#'))
			j++;
		if (!reduce_grow((void **)&w->uses, w->nuses, &w->capuses,
			  sizeof(*w->uses))) {
			w->oom = true;
			return;
		}
		w->uses[w->nuses++] = (struct range){i, j};
		i = j;
	}
}

static bool
push(struct rewire *w, struct nest fr)
{
	if (w->nframes == ARRAY_SIZE(w->frames))
		return false;
	w->frames[w->nframes++] = fr;
	return true;
}

// A region opens (after "({" or "}, {"): its values start here.
static bool
region_open(struct rewire *w)
{
	return push(w, (struct nest){.region = true, .entry = UINT32_MAX,
				      .vals = w->nvals});
}

// Line [a, e), "^bb1(%x: i32, %y: f32):": a block of the innermost
// region, its arguments values of it. The entry block's values stay
// visible (it dominates the region's other blocks), the block before's
// go.
static void
block_label(struct rewire *w, uint32_t a, uint32_t e)
{
	if (!w->nframes || !w->frames[w->nframes - 1].region)
		return;
	struct nest *fr = &w->frames[w->nframes - 1];
	if (fr->started && fr->entry == UINT32_MAX)
		fr->entry = w->nvals;	// the entry block ends
	else if (fr->started)
		w->nvals = fr->entry;	// the block before ends
	fr->started = true;
	const char *p = memchr(w->s + a, '(', e - a);
	if (!p)
		return;
	uint32_t o = (uint32_t)(p - w->s), ce = close_of(w->s, o, e);
	struct range args[MAX_TYPES + 1];
	uint32_t n = items(w->s, o + 1, ce, args, MAX_TYPES);
	for (uint32_t k = 0; k < n && k < MAX_TYPES; k++) {
		const char *c = memchr(w->s + args[k].start, ':',
				       args[k].end - args[k].start);
		if (!c || w->s[args[k].start] != '%')
			continue;
		uint32_t ne = (uint32_t)(c - w->s), ts = ne + 1,
			 te = args[k].end;
		trim(w->s, &ts, &te);
		value_add(w, w->s + args[k].start, ne - args[k].start,
			  (struct range){ts, te});
	}
}

// Pops frames down to (and including) the innermost region.
static void
region_close(struct rewire *w)
{
	while (w->nframes && !w->frames[w->nframes - 1].region)
		w->nframes--;	// malformed: an operation left open
	if (w->nframes) {
		w->nvals = w->frames[w->nframes - 1].vals;
		w->nframes--;
	}
}

// Each operand an operation uses: a span renaming it to the first value
// of its type that dominates it, where that is another value.
static void
rewires(const char *s, size_t len, struct reduce_spans *sp)
{
	struct rewire w = {.s = s, .len = len};
	region_open(&w);	// the top level
	for (uint32_t i = 0; i < len && !w.oom;) {
		uint32_t e = line_end(s, len, i), a = i, te = e;
		trim(s, &a, &te);
		uint32_t k = a;
		if (a < te && s[a] == '}') {
			// "}, {": the operation's next region; "})...": its end
			region_close(&w);
			if (te - a >= 4 && !memcmp(s + a, "}, {", 4)) {
				region_open(&w);
			} else if (w.nframes &&
				   !w.frames[w.nframes - 1].region) {
				struct nest fr = w.frames[--w.nframes];
				op_end(&w, &fr, a, te, sp);
			}
		} else if (a < te && s[a] == '^') {
			block_label(&w, a, te);
		} else if ((k = op_start(s, a, te))) {
			struct nest fr = {.ops = w.nuses, .vals = w.nvals};
			if (w.nframes && w.frames[w.nframes - 1].region)
				w.frames[w.nframes - 1].started = true;
			if (s[a] == '%') {
				uint32_t ne = a + 1;
				while (ne < te && reduce_word_char(s[ne]))
					ne++;
				fr.res = (struct range){a, ne};
				fr.nres = 1;
				if (ne < te && s[ne] == ':')
					fr.nres = (uint32_t)atoi(s + ne + 1);
			}
			uint32_t ne = op_name_end(s, k, te);
			fr.isolated = (ne - k > 6 &&
				       !memcmp(s + ne - 6, ".func\"", 6)) ||
				      (ne - k > 8 &&
				       !memcmp(s + ne - 8, ".module\"", 8));
			operands(&w, ne, te);
			if (te - a >= 3 && !memcmp(s + te - 3, " ({", 3)) {
				if (!push(&w, fr) || !region_open(&w))
					break;
			} else {
				op_end(&w, &fr, a, te, sp);
			}
		}
		i = e + 1;
	}
	free(w.vals);
	free(w.uses);
	if (w.oom)
		sp->oom = true;
}

/* }=== */

/* {=== block arguments: one dropped with what each branch passes it ====== */

// An edit of the text: bytes [start, end) become repl ("" to cut), or
// buf when repl is NULL (edits are sorted: no pointer into one).
struct edit {
	uint32_t start, end;
	const char *repl;
	char buf[16];
};

enum { MAX_EDITS = 256 };

struct edits {
	struct edit v[MAX_EDITS];
	uint32_t n;
};

static bool
edit_add(struct edits *ed, uint32_t start, uint32_t end, const char *repl)
{
	if (ed->n == MAX_EDITS)
		return false;
	ed->v[ed->n++] = (struct edit){.start = start, .end = end,
				       .repl = repl};
	return true;
}

// The bytes that cut item @p i of the @p n items v[] with its comma.
static bool
edit_cut_item(struct edits *ed, const struct range *v, uint32_t n, uint32_t i)
{
	if (i + 1 < n)
		return edit_add(ed, v[i].start, v[i + 1].start, "");
	if (i > 0)
		return edit_add(ed, v[i - 1].end, v[i].end, "");
	return edit_add(ed, v[i].start, v[i].end, "");
}

static int
edit_cmp(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

// The line's indentation: its leading blanks.
static uint32_t
indent(const char *s, uint32_t a, uint32_t e)
{
	uint32_t k = a;
	while (k < e && s[k] == ' ')
		k++;
	return k - a;
}

// Line [a, e) an operation directly in the region whose labels are at
// indentation @p lab, branching to the block named [bn, bn + bl): the
// edits that take argument @p arg of @p nargs from what each of its
// successors that is that block is passed. mlir-opt prints a block's
// operations two blanks deeper than its label. An operand_segment_sizes
// attribute gives the successors' operands its last segments, one a
// successor (cf.cond_br); without it, one successor takes the last
// operands (cf.br). False when the line cannot be read so.
static bool
branch_edits(const char *s, uint32_t a, uint32_t e, const char *bn,
	     uint32_t bl, uint32_t arg, uint32_t nargs, struct edits *ed)
{
	uint32_t k = op_start(s, a, e), ne = k ? op_name_end(s, k, e) : 0;
	if (!ne || ne >= e || s[ne] != '(')
		return true;
	uint32_t oc = close_of(s, ne, e);
	if (oc + 1 >= e || s[oc + 1] != '[')
		return true;		// no successors
	uint32_t sc = close_of(s, oc + 1, e);
	struct range succ[MAX_TYPES + 1], ops[MAX_TYPES + 1];
	struct range in[MAX_TYPES + 1], out[MAX_TYPES + 1];
	uint32_t nsucc = items(s, oc + 2, sc, succ, MAX_TYPES);
	uint32_t nops = items(s, ne + 1, oc, ops, MAX_TYPES);
	uint32_t nin, nout;
	bool hit = false;
	for (uint32_t j = 0; j < nsucc && j < MAX_TYPES; j++)
		hit |= succ[j].end - succ[j].start == bl &&
		       !memcmp(s + succ[j].start, bn, bl);
	if (!hit)
		return true;
	if (nsucc > MAX_TYPES || nops > MAX_TYPES ||
	    !signature(s, a, e, in, &nin, out, &nout) || nin != nops)
		return false;
	// the segments, when the operation has them
	struct range seg[MAX_TYPES + 1];
	uint32_t nseg = 0, segv[MAX_TYPES];
	const char *sa = memmem(s + sc, e - sc, "operand_segment_sizes = "
				"dense<[", 31);
	if (sa) {
		uint32_t o = (uint32_t)(sa - s) + 30;
		nseg = items(s, o + 1, close_of(s, o, e), seg, MAX_TYPES);
		if (nseg > MAX_TYPES || nseg < nsucc)
			return false;
		for (uint32_t q = 0; q < nseg; q++)
			segv[q] = (uint32_t)strtoul(s + seg[q].start, NULL,
						    10);
	} else if (nsucc != 1) {
		return false;
	}
	for (uint32_t j = 0; j < nsucc; j++) {
		if (succ[j].end - succ[j].start != bl ||
		    memcmp(s + succ[j].start, bn, bl))
			continue;
		uint32_t first = nops - nargs, q = 0;
		if (nseg) {
			q = nseg - nsucc + j;
			first = 0;
			for (uint32_t p = 0; p < q; p++)
				first += segv[p];
			if (segv[q] != nargs)
				return false;
		} else if (nops < nargs) {
			return false;
		}
		if (first + arg >= nops)
			return false;
		if (!edit_cut_item(ed, ops, nops, first + arg) ||
		    !edit_cut_item(ed, in, nin, first + arg))
			return false;
		if (nseg) {
			if (ed->n == MAX_EDITS)
				return false;
			struct edit *x = &ed->v[ed->n++];
			*x = (struct edit){.start = seg[q].start,
					   .end = seg[q].end};
			snprintf(x->buf, sizeof(x->buf), "%u", segv[q] - 1);
		}
	}
	return true;
}

// Argument @p arg of the block labelled at line [la, le) (its argument
// list v[0..n)), a block other than its region's first: into @p out the
// text without it and without what each branch to the block passes it.
// False when it is used, or a branch to it cannot be read.
static bool
drop_arg(const char *s, size_t len, uint32_t la, uint32_t le,
	 const struct range *v, uint32_t n, uint32_t arg, struct irs_buf *out)
{
	uint32_t lab = indent(s, la, le);
	uint32_t a0 = la + lab, bl = 0;
	while (a0 + 1 + bl < le && reduce_word_char(s[a0 + 1 + bl]))
		bl++;
	const char *bn = s + a0;
	bl++;			// "^bbN"
	// the region: back to the line at the labels' depth that opens it,
	// on to the one that closes it
	uint32_t rs = la, re = (uint32_t)len;
	while (rs > 0) {
		uint32_t ps = rs - 1;
		while (ps > 0 && s[ps - 1] != '\n')
			ps--;
		uint32_t pe = line_end(s, len, ps);
		rs = ps;
		if (indent(s, ps, pe) <= lab && s[ps + indent(s, ps, pe)] != '^')
			break;
	}
	for (uint32_t i = le + 1; i < len;) {
		uint32_t e = line_end(s, len, i);
		if (indent(s, i, e) <= lab && i + lab < e &&
		    s[i + indent(s, i, e)] != '^') {
			re = i;
			break;
		}
		i = e + 1;
	}
	// its name ("%4" of "%4: i32") used nowhere else in the region
	const char *c = memchr(s + v[arg].start, ':', v[arg].end - v[arg].start);
	if (!c || s[v[arg].start] != '%')
		return false;
	uint32_t ns = v[arg].start, nl = (uint32_t)(c - s) - ns;
	while (nl && s[ns + nl - 1] == ' ')
		nl--;
	for (const char *q = s + rs; q && q < s + re; q += nl) {
		q = memmem(q, (size_t)(s + re - q), s + ns, nl);
		if (!q || q >= s + re)
			break;
		uint32_t at = (uint32_t)(q - s);
		if (at != ns && (at + nl >= len || !reduce_word_char(s[at + nl])))
			return false;
	}
	struct edits *ed = calloc(1, sizeof(*ed));
	if (!ed)
		return false;
	bool ok = true;
	if (n == 1) {		// "^bb1(%4: i32):" -> "^bb1:"
		uint32_t o = (uint32_t)((const char *)memchr(s + la, '(',
							   le - la) - s);
		ok = edit_add(ed, o, close_of(s, o, le) + 1, "");
	} else {
		ok = edit_cut_item(ed, v, n, arg);
	}
	for (uint32_t i = rs; ok && i < re;) {
		uint32_t e = line_end(s, len, i);
		if (indent(s, i, e) == lab + 2)
			ok = branch_edits(s, i, e, bn, bl, arg, n, ed);
		i = e + 1;
	}
	if (ok) {
		qsort(ed->v, ed->n, sizeof(*ed->v), edit_cmp);
		out->len = 0;
		uint32_t pos = 0;
		for (uint32_t k = 0; k < ed->n; k++) {
			if (ed->v[k].start < pos) {
				ok = false;	// overlapping: not understood
				break;
			}
			irs_buf_append(out, s + pos, ed->v[k].start - pos);
			irs_buf_puts(out, ed->v[k].repl ? ed->v[k].repl
						      : ed->v[k].buf);
			pos = ed->v[k].end;
		}
		irs_buf_append(out, s + pos, len - pos);
		ok = ok && !out->oom;
	}
	free(ed);
	return ok;
}

// The @p nth argument of a block that is not its region's first (whose
// arguments are the operation's: a function's parameters, a loop's
// induction variable), counted through the text: into @p out the text
// without it and without what each branch passes it. REDUCE_ARG_NONE
// past the last, REDUCE_ARG_KEPT when that one cannot go (used, or a
// branch not read).
static enum reduce_arg_drop
drop_block_arg(const char *s, size_t len, uint32_t nth, struct irs_buf *out)
{
	uint32_t seen = 0;
	bool entry = true;	// the next label opens its region
	for (uint32_t i = 0; i < len;) {
		uint32_t e = line_end(s, len, i), a = i, te = e;
		trim(s, &a, &te);
		if (a < te && s[a] == '^') {
			const char *p = memchr(s + a, '(', te - a);
			bool first = entry;
			entry = false;
			if (p && !first) {
				uint32_t o = (uint32_t)(p - s);
				struct range v[MAX_TYPES + 1];
				uint32_t n = items(s, o + 1, close_of(s, o, te),
						   v, MAX_TYPES);
				if (n <= MAX_TYPES && nth < seen + n)
					return drop_arg(s, len, i, e, v, n,
							nth - seen, out)
					       ? REDUCE_ARG_DROPPED
					       : REDUCE_ARG_KEPT;
				seen += n <= MAX_TYPES ? n : 0;
			}
		} else if (a < te) {
			// "({" or "}, {" opens a region: its first label is
			// its entry block's
			entry = (te - a >= 2 && !memcmp(s + te - 2, "({", 2)) ||
				(te - a >= 4 && !memcmp(s + a, "}, {", 4));
		}
		i = e + 1;
	}
	return REDUCE_ARG_NONE;
}

/* }=== */

static const char *const mlir_opt[] = {"mlir-opt-14", "mlir-opt", NULL};
static const char *const mlir_print[] = {"--allow-unregistered-dialect",
	"--mlir-print-op-generic", "{}", "-o", "{out}", NULL};

const struct reduce_lang reduce_lang_mlir = {
	.name = "mlir",
	.printer = mlir_opt,
	.print_args = mlir_print,
	.detect = detect,
	.unit_fixed = terminator,
	.drop_fixed_tokens = drop_fixed_tokens,
	.operand_item = operand_item,
	.range_cut_ok = range_cut_ok,
	.rewires = rewires,
	.drop_block_arg = drop_block_arg,
	.no_pairs = true,
};
