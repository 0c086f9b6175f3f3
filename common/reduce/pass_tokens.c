// The tokens pass: single tokens (C-Vise's peep passes), then pairs while
// they are of use to the input; the syntax leaves out tokens it cannot
// lose alone, and a class of tokens that never goes is given up.
#include <ctype.h>
#include <string.h>

#include "reduce/reduce.h"

enum { PAIR_TRIAL = 16 };	/* boring pairs before pairs are given up */

// Tokens: a word (letters, digits, _ . $ % @ ^ -), a string, or one other
// non-blank character, each with the blanks after it; and as tokens of
// their own, which go only as pairs, a word with the `=` after it ("%2 = "
// of an assignment) and a `#` or `!` with the word after it ("#0", "!6").
static void
spans_tokens(const char *s, size_t len, struct reduce_spans *sp)
{
	for (size_t i = 0; i < len;) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
			continue;
		}
		size_t e = i + 1;
		if ((c == '#' || c == '!') && e < len && reduce_word_char(s[e])) {
			size_t w = e;
			while (w < len && reduce_word_char(s[w]))
				w++;
			while (w < len && (s[w] == ' ' || s[w] == '\t'))
				w++;
			reduce_span_add(sp, (uint32_t)i, (uint32_t)w, NULL);
		}
		if (reduce_word_char(c)) {
			while (e < len && reduce_word_char(s[e]))
				e++;
			// A name's qualifiers ("p." of "p.x", a field of a
			// table p, as "x" a global): a cut of its own.
			for (size_t d = i + 1, n = 0; (isalpha((unsigned char)c) ||
			     c == '_') && d + 1 < e && n < 2; d++)
				if (s[d] == '.' && isalpha((unsigned char)s[d + 1])) {
					reduce_span_add(sp, (uint32_t)i,
						 (uint32_t)d + 1, NULL);
					n++;
				}
		} else if (c == '"') {
			while (e < len && s[e] != '"' && s[e] != '\n')
				e += s[e] == '\\' ? 2 : 1;
			e = e < len ? e + 1 : len;
		}
		size_t b = e;
		while (b < len && (s[b] == ' ' || s[b] == '\t'))
			b++;
		// The last token of a line takes the blanks before it instead,
		// unless it is the line's first: "ret 0" becomes "ret", not
		// "ret ".
		size_t from = i;
		if (b == len || s[b] == '\n' || s[b] == '\r') {
			while (from > 0 &&
			       (s[from - 1] == ' ' || s[from - 1] == '\t'))
				from--;
			if (from == 0 || s[from - 1] == '\n')
				from = i;
		}
		reduce_span_add(sp, (uint32_t)from, (uint32_t)b, NULL);
		if (reduce_word_char(c) && b < len && s[b] == '=' &&
		    (b + 1 == len || s[b + 1] != '=')) {
			size_t a = b + 1;
			while (a < len && (s[a] == ' ' || s[a] == '\t'))
				a++;
			reduce_span_add(sp, (uint32_t)i, (uint32_t)a, NULL);
		}
		i = e;
	}
}

static void
find(const struct reducer *r, const char *s, size_t len,
     struct reduce_spans *sp)
{
	spans_tokens(s, len, sp);
	if (r->lang->drop_fixed_tokens)
		r->lang->drop_fixed_tokens(s, len, sp);
}

// Pairs: given up after a few tries with no win.
static bool
give_up(struct reducer *r, uint32_t size, uint32_t nt, uint32_t boring,
	uint32_t wins)
{
	(void)boring;
	(void)wins;
	return size == 2 && (r->pair_tries += nt) >= PAIR_TRIAL &&
	       !r->pair_wins;
}

static void
won(struct reducer *r, uint32_t size)
{
	r->pair_wins += size == 2;
}

static const struct reduce_text_pass tokens = {
	.key = 1, .find = find, .classes = CLASSES_TOKENS,
	.give_up = give_up, .won = won,
};

struct irs_error *
reduce_pass_tokens(struct reducer *r)
{
	// One at a time (an assignment's "%2 = " is a token of its own),
	// then two ("0;" of C): groups are the lines, balanced and
	// arguments passes'.
	// Pairs, while they are of use to this input: in an IR whose
	// assignments and #0 go as single tokens, hardly ever.
	// In LLVM IR, what goes only with another word is a trailing item
	// ("align 4", "!dbg !6"), the arguments pass's: no pairs.
	struct irs_error *err = reduce_text_sweep(r, &tokens, 1);
	if (err || r->lang->no_pairs ||
	    (!r->pair_wins && r->pair_tries >= PAIR_TRIAL))
		return err;
	return reduce_text_sweep(r, &tokens, 2);
}
