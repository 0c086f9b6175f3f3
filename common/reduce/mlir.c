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
	.no_pairs = true,
};
