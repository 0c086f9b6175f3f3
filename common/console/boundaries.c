// Which boundary a function is: one the layout lists by name, or one a
// `functions = { match = RE }` finds among the debuggee's symbols
// (modules.c), named after RE's first group (`^llvm::(\w+)::run\(` names
// `llvm::InstCombinePass::run(...)` InstCombinePass) or, without one,
// after the function.
#include <stdlib.h>
#include <string.h>

#include "console/console.h"

void
console_boundaries_deinit(struct irs_console *c)
{
	for (size_t i = 0; i < c->nmatches; i++)
		regfree(&c->matches[i].re);
	free(c->matches);
	c->matches = NULL;
	c->nmatches = 0;
}

struct irs_error *
console_boundaries_init(struct irs_console *c)
{
	console_boundaries_deinit(c);
	if (!c->layout)
		return NULL;
	uint32_t n = irs_layout_nboundaries(c->layout);
	for (uint32_t i = 0; i < n; i++) {
		struct irs_boundary_info bi;
		struct irs_error *err = irs_layout_boundary(c->layout, i, &bi);
		if (err)
			return err;
		if (!bi.match)
			continue;
		void *p = realloc(c->matches, (c->nmatches + 1) *
				  sizeof(*c->matches));
		if (!p)
			return &irs_enomem;
		c->matches = p;
		struct console_match *m = &c->matches[c->nmatches];
		m->boundary = i;
		// the layout compiled it once already: it compiles
		if (regcomp(&m->re, bi.match, REG_EXTENDED))
			return irs_error_format(IRS_ERROR_LAYOUT, "bad match "
						"'%s'", bi.match);
		c->nmatches++;
	}
	return NULL;
}

// A frame's function may print with its parameter list where the layout
// lists it without ("ns::run(Module&)" for "ns::run").
static bool
frame_is(const char *frame_fn, const char *fn)
{
	size_t n = strlen(fn);
	return !strncmp(frame_fn, fn, n) &&
	       (frame_fn[n] == 0 || frame_fn[n] == '(');
}

bool
console_boundary_of(struct irs_console *c, const char *function,
		    struct irs_boundary_info *ret)
{
	const struct irs_layout *lo = c->layout;
	uint32_t n = lo ? irs_layout_nboundaries(lo) : 0;

	for (uint32_t i = 0; i < n; i++) {
		struct irs_error *err = irs_layout_boundary(lo, i, ret);
		if (err) {
			irs_error_destroy(err);
			continue;
		}
		if (ret->function && frame_is(function, ret->function))
			return true;
	}
	for (size_t i = 0; i < c->nmatches; i++) {
		regmatch_t mt[2];
		if (regexec(&c->matches[i].re, function, 2, mt, 0))
			continue;
		struct irs_error *err = irs_layout_boundary(
			lo, c->matches[i].boundary, ret);
		if (err) {
			irs_error_destroy(err);
			continue;
		}
		snprintf(c->match_function, sizeof(c->match_function), "%s",
			 function);
		ret->function = c->match_function;
		if (mt[1].rm_so >= 0)
			snprintf(c->match_pass, sizeof(c->match_pass), "%.*s",
				 (int)(mt[1].rm_eo - mt[1].rm_so),
				 function + mt[1].rm_so);
		else
			snprintf(c->match_pass, sizeof(c->match_pass), "%s",
				 function);
		if (!ret->pass_expr)
			ret->pass_name = c->match_pass;
		return true;
	}
	return false;
}

struct expand {
	struct irs_console *c;
	const struct console_match *m;
	bool (*wanted)(const struct irs_console *c,
		       const struct irs_boundary_info *bi);
	bool oom;
};

static void
add_break(void *arg, const char *function)
{
	struct expand *x = arg;
	struct irs_console *c = x->c;
	struct irs_boundary_info bi;

	if (x->oom || !console_boundary_of(c, function, &bi) ||
	    (x->wanted && !x->wanted(c, &bi)))
		return;
	for (uint32_t j = 0; j < c->nbreaks; j++)
		if (!strcmp(c->breaks[j], function))
			return;
	char **p = realloc(c->breaks, (c->nbreaks + 1) * sizeof(*p));
	char *copy = p ? strdup(function) : NULL;
	if (p)
		c->breaks = p;
	if (!copy) {
		x->oom = true;
		return;
	}
	c->breaks[c->nbreaks++] = copy;
}

struct irs_error *
console_boundaries_expand(struct irs_console *c,
			  bool (*wanted)(const struct irs_console *c,
					 const struct irs_boundary_info *bi))
{
	if (!c->nmatches)
		return NULL;
	console_modules_refresh(c);
	for (size_t i = 0; i < c->nmatches; i++) {
		struct expand x = {c, &c->matches[i], wanted, false};
		console_modules_functions(c, &c->matches[i].re, add_break, &x);
		if (x.oom)
			return &irs_enomem;
	}
	return NULL;
}
