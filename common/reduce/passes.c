// Which passes run, in which order (C-Vise's pass groups, llvm-reduce's
// list of deltas), and the syntaxes, in the order they are tried on the
// input. Adding a pass: its file, pass_NAME.c, and a line here.
#include "reduce/reduce.h"

// Tree passes first, on the unit tree; the generic ones on the text once
// those find nothing more.
const struct reduce_pass reduce_passes[] = {
	// First, where the syntax has them: whole bodies, the functions
	// still called.
	{"bodies", reduce_pass_bodies, false},
	// The units of a chain whose total the failure needs cannot go one
	// by one, and delete-units would try each.
	{"fold-chains", reduce_pass_fold_chains, false},
	{"delete-units", reduce_pass_delete_units, false},
	{"blank-lines", reduce_pass_blank_lines, false},
	{"other-operands", reduce_pass_other_operands, false},
	// Where the syntax has typed operands (MLIR): each renamed to a
	// dominating value of its type, so what computed it goes next round.
	{"rewire", reduce_pass_rewire, false},
	// A block argument the rewires left unused, with what each branch
	// passes it (MLIR).
	{"block-args", reduce_pass_block_args, false},
	{"const-operands", reduce_pass_const_operands, false},
	{"drop-params", reduce_pass_drop_params, false},
	{"lines", reduce_pass_lines, true},
	{"balanced", reduce_pass_balanced, true},
	{"arguments", reduce_pass_arguments, true},
	{"tokens", reduce_pass_tokens, true},
};

const size_t reduce_npasses = ARRAY_SIZE(reduce_passes);

// The first that detects the input is its syntax; plain text, last,
// detects anything.
const struct reduce_lang *const reduce_langs[] = {
	&reduce_lang_llvm,
	&reduce_lang_toyc,
	&reduce_lang_mlir,
	&reduce_lang_text,
};

static bool
any_text(const char *s, size_t len)
{
	(void)s;
	(void)len;
	return true;
}

const struct reduce_lang reduce_lang_text = {
	.name = "text",
	.detect = any_text,
};

const struct reduce_lang *
reduce_lang_detect(const char *s, size_t len)
{
	for (size_t i = 0;; i++)
		if (reduce_langs[i]->detect(s, len))
			return reduce_langs[i];
}
