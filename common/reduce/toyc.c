// toyc's syntax (tests/fixtures/toyc, SPEC section 8): "module @name",
// then "func @f(%a) {" ... "}" with "label:" blocks. Its text is cut by
// the generic splitter and def-use model; what toyc adds is its printer,
// with its own parser and verifier (`toyc --passes= --verify -o OUT`),
// which candidates go through before the test and which writes the
// result in toyc_print's form.
#include <string.h>

#include "reduce/reduce.h"

// A "module @" line and a "func @" line.
static bool
detect(const char *s, size_t len)
{
	bool module = false, func = false;
	for (size_t i = 0; i < len && !(module && func);) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len;
		module |= e - i > 8 && !memcmp(s + i, "module @", 8);
		func |= e - i > 6 && !memcmp(s + i, "func @", 6);
		i = e + 1;
	}
	return module && func;
}

static const char *const toyc[] = {"toyc", NULL};
static const char *const toyc_print[] = {"--passes=", "--verify", "-o",
					 "{out}", "{}", NULL};

const struct reduce_lang reduce_lang_toyc = {
	.name = "toyc",
	.detect = detect,
	.printer = toyc,
	.print_args = toyc_print,
};
