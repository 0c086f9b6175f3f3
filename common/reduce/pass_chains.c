// The chains pass: consecutive "%x = add %y, N" lines of one opcode,
// each on the value before it that nothing else sees, become one line
// with the constants summed (mul: multiplied).
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"

// One line "%x = OP [words] %y, N [comment]" of a chain spans_folds()
// may fold: spans of the text and the constant.
struct chain_op {
	uint32_t start, end;	/* the line, its newline included */
	uint32_t indent;	/* end of its indentation */
	uint32_t dst, dst_end;	/* %x */
	uint32_t op, src;	/* OP up to %y: "add i32 " */
	uint32_t src_end;	/* end of %y */
	long long k;
};

// Parses line [s, e) as a chain_op (comment: the line comment marker).
static bool
chain_parse(const char *t, uint32_t s, uint32_t e, const char *comment,
	    struct chain_op *c)
{
	uint32_t i = s, end = e;
	while (end > s && (t[end - 1] == '\n' || t[end - 1] == '\r'))
		end--;
	while (i < end && (t[i] == ' ' || t[i] == '\t'))
		i++;
	*c = (struct chain_op){.start = s, .end = e, .indent = i};
	if (i >= end || t[i] != '%')
		return false;
	c->dst = i++;
	while (i < end && reduce_word_char(t[i]) && t[i] != '%')
		i++;
	c->dst_end = i;
	while (i < end && t[i] == ' ')
		i++;
	if (i >= end || t[i] != '=' || c->dst_end == c->dst + 1)
		return false;
	for (i++; i < end && t[i] == ' '; i++)
		;
	c->op = i;
	if (!(end - i > 4 && (!strncmp(t + i, "add ", 4) ||
			      !strncmp(t + i, "sub ", 4) ||
			      !strncmp(t + i, "mul ", 4))))
		return false;
	// Words between the opcode and %y ("nsw i32") belong to the opcode.
	while (i < end && t[i] != '%') {
		if (t[i] == ',' || t[i] == '-' || t[i] == '"' ||
		    (t[i] >= '0' && t[i] <= '9' && t[i - 1] == ' '))
			return false;
		i++;
	}
	if (i >= end)
		return false;
	c->src = i++;
	while (i < end && reduce_word_char(t[i]) && t[i] != '%')
		i++;
	c->src_end = i;
	while (i < end && t[i] == ' ')
		i++;
	if (i >= end || t[i] != ',')
		return false;
	for (i++; i < end && t[i] == ' '; i++)
		;
	bool neg = i < end && t[i] == '-';
	i += neg;
	uint32_t digits = i;
	long long k = 0;
	for (; i < end && t[i] >= '0' && t[i] <= '9' && i - digits < 15; i++)
		k = k * 10 + (t[i] - '0');
	if (i == digits || (i < end && reduce_word_char(t[i])))
		return false;
	c->k = neg ? -k : k;
	while (i < end && (t[i] == ' ' || t[i] == '\t'))
		i++;
	size_t cl = strlen(comment);
	return i == end ||
	       (cl && end - i >= cl && !strncmp(t + i, comment, cl));
}

static bool
same_text(const char *t, uint32_t a, uint32_t ae, uint32_t b, uint32_t be)
{
	return ae - a == be - b && !memcmp(t + a, t + b, ae - a);
}

// How often name [a, ae) occurs in the text as a whole word.
static uint32_t
word_count(const char *t, size_t len, uint32_t a, uint32_t ae)
{
	uint32_t n = 0, wl = ae - a;
	for (const char *p = t; (p = memmem(p, len - (size_t)(p - t), t + a,
					    wl)); p += wl)
		n += (p + wl == t + len || !reduce_word_char(p[wl])) &&
		     (p == t || !reduce_word_char(p[-1]));
	return n;
}

// Does line b continue line a's chain: the same opcode, applied to what a
// computed, which nothing else sees (b assigns the same name again, text
// that is not SSA, or a's value has no other use)?
static bool
chain_continues(const char *t, size_t len, const struct chain_op *a,
		const struct chain_op *b)
{
	if (!same_text(t, a->op, a->src, b->op, b->src) ||
	    !same_text(t, a->dst, a->dst_end, b->src, b->src_end))
		return false;
	if (same_text(t, b->dst, b->dst_end, b->src, b->src_end))
		return true;
	return word_count(t, len, a->dst, a->dst_end) == 2;
}

// Chains of one opcode with constants, as one line: "%p = add %p, 3" then
// "%p = add %p, 4" is "%p = add %p, 7" (sub: the constants add up too;
// mul: they multiply). Merging a definition into its use this way keeps
// the value, which deleting either line could not; a long chain whose
// total the failure needs goes to one line in one test.
static void
spans_folds(const char *t, size_t len, const char *comment,
	    struct reduce_spans *sp)
{
	struct chain_op first = {0}, prev = {0}, cur = {0};
	uint32_t n = 0;
	long long total = 0;
	for (uint32_t s = 0; s <= len;) {
		const char *nl = s < len ? memchr(t + s, '\n', len - s) : NULL;
		uint32_t e = nl ? (uint32_t)(nl - t) + 1 : (uint32_t)len;
		bool ok = s < len && chain_parse(t, s, e, comment, &cur);
		bool mul = n && t[first.op] == 'm';
		if (ok && n && chain_continues(t, len, &prev, &cur) &&
		    (mul ? (cur.k == 0 || llabs(total) < (1ll << 31)) &&
			   llabs(cur.k) < (1ll << 31)
			 : llabs(total) < (1ll << 60))) {
			total = mul ? total * cur.k : total + cur.k;
			prev = cur;
			n++;
		} else {
			if (n >= 2) {
				struct irs_buf b;
				irs_buf_init(&b);
				irs_buf_append(&b, t + first.start,
					       first.indent - first.start);
				irs_buf_append(&b, t + prev.dst,
					       prev.dst_end - prev.dst);
				irs_buf_puts(&b, " = ");
				irs_buf_append(&b, t + first.op,
					       first.src_end - first.op);
				irs_buf_printf(&b, ", %lld%s", total,
					       t[prev.end - 1] == '\n' ? "\n"
								      : "");
				const char *repl = reduce_spans_own(sp,
					b.oom ? NULL : irs_buf_steal(&b));
				irs_buf_deinit(&b);
				if (repl)
					reduce_span_add(sp, first.start,
							prev.end, repl);
			}
			n = ok;
			if (ok)
				first = prev = cur, total = cur.k;
		}
		if (s == len)
			break;
		s = e;
	}
}

static void
find(const struct reducer *r, const char *s, size_t len,
     struct reduce_spans *sp)
{
	spans_folds(s, len, r->tree->comment, sp);
}

static const struct reduce_text_pass chains = {
	.key = 6, .find = find,
};

// First of all passes: the units of a chain whose total the failure
// needs cannot go one by one, and delete-units would try each.
struct irs_error *
reduce_pass_fold_chains(struct reducer *r)
{
	return reduce_text_sweep(r, &chains, 0);
}
