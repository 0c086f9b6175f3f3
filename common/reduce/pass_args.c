// The arguments pass: each piece of a (...) list on one line, and a
// line's trailing comma-separated items (", align 4"), one at a time;
// once one item goes, the others of its class go in one cut.
#include <string.h>

#include "reduce/reduce.h"

// The trailing comma-separated items of a line outside brackets
// (", align 4" in LLVM IR), each to the next comma or the line's end.
static void
spans_tails(const char *s, size_t len, const struct reduce_lang *lang,
	    struct reduce_spans *sp)
{
	int depth = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\n') {
			depth = 0;
		} else if (c == '(' || c == '[' || c == '{' || c == '<') {
			depth++;
		} else if ((c == ')' || c == ']' || c == '}' || c == '>') &&
			   depth) {
			depth--;
		} else if (c == ',' && !depth) {
			size_t e = i + 1;
			int d = 0;
			while (e < len && s[e] != '\n' &&
			       !(s[e] == ',' && !d)) {
				if (strchr("([{<", s[e]))
					d++;
				else if (strchr(")]}>", s[e]) && d)
					d--;
				else if (strchr(")]}>", s[e]))
					break;
				e++;
			}
			if (e < len && (s[e] == '\n' || s[e] == ',') &&
			    !(lang->operand_item &&
			      lang->operand_item(s, len, i)))
				reduce_span_add(sp, (uint32_t)i, (uint32_t)e,
						NULL);
		}
	}
}

// Arguments: each comma-separated piece of a (...) list on one line, at
// the top level of its parentheses, with its comma; and the trailing
// items of a line.
static void
spans_args(const char *s, size_t len, const struct reduce_lang *lang,
	    struct reduce_spans *sp)
{
	spans_tails(s, len, lang, sp);
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '(')
			continue;
		int depth = 0;
		size_t piece = i + 1;
		for (size_t k = i + 1; k < len && s[k] != '\n'; k++) {
			char c = s[k];
			if (c == '(' || c == '[' || c == '{') {
				depth++;
			} else if ((c == ']' || c == '}' ||
				    (c == ')' && depth)) && depth) {
				depth--;
			} else if (c == ',' && !depth) {
				size_t e = k + 1;
				while (e < len && s[e] == ' ')
					e++;
				reduce_span_add(sp, (uint32_t)piece,
						(uint32_t)e, NULL);
				piece = e;
			} else if (c == ')') {
				// The last one goes with the comma before it.
				size_t b = piece;
				while (b > i + 1 && s[b - 1] == ' ')
					b--;
				if (piece > i + 1 && k > piece &&
				    s[b - 1] == ',')
					reduce_span_add(sp, (uint32_t)b - 1,
						 (uint32_t)k, NULL);
				break;
			}
		}
	}
}

static void
find(const struct reducer *r, const char *s, size_t len,
     struct reduce_spans *sp)
{
	spans_args(s, len, r->lang, sp);
}

static const struct reduce_text_pass args = {
	.key = 4, .find = find, .classes = CLASSES_ITEMS,
};

struct irs_error *
reduce_pass_arguments(struct reducer *r)
{
	return reduce_text_sweep(r, &args, 1);
}
