// The console's boundary state: ir-break and ir-trace requests, the
// functions a front end breaks on, and the debuggee events it reports
// (boundary entry and return, fatal signal, exit).
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "console/console.h"

/* {====================================================================
** Pass filters
** ===================================================================== */

// Compiles @p pattern into @p re (NOSUB: only whether it matches).
static struct irs_error *
filter_regex(regex_t *re, const char *cmd, const char *pattern, bool exact)
{
	char *whole = NULL;
	if (exact && asprintf(&whole, "^(%s)$", pattern) < 0)
		return &irs_enomem;
	int rc = regcomp(re, whole ? whole : pattern, REG_EXTENDED | REG_NOSUB);
	free(whole);
	if (!rc)
		return NULL;
	char msg[256];
	regerror(rc, re, msg, sizeof(msg));
	return irs_error_format(IRS_ERROR_USAGE, "%s: bad regex '%s': %s", cmd,
				pattern, msg);
}

struct irs_error *
console_filter_init(struct console_filter *f, const char *cmd,
		    const char *pattern, bool exact, const char *instance)
{
	struct irs_error *err;
	struct console_filter nf = {0};

	if (pattern) {
		if ((err = filter_regex(&nf.re, cmd, pattern, exact)))
			return err;
		nf.has_re = true;
		nf.exact = exact;
		if (!(nf.pattern = strdup(pattern))) {
			console_filter_deinit(&nf);
			return &irs_enomem;
		}
	}
	if (instance) {
		if ((err = filter_regex(&nf.inst, cmd, instance, false))) {
			console_filter_deinit(&nf);
			return err;
		}
		nf.has_inst = true;
		if (!(nf.inst_pattern = strdup(instance))) {
			console_filter_deinit(&nf);
			return &irs_enomem;
		}
	}
	console_filter_deinit(f);
	*f = nf;
	return NULL;
}

void
console_filter_deinit(struct console_filter *f)
{
	if (f->has_re)
		regfree(&f->re);
	if (f->has_inst)
		regfree(&f->inst);
	free(f->pattern);
	free(f->inst_pattern);
	memset(f, 0, sizeof(*f));
}

// An exact name is the pass's without its instance ("ssa" of "ssa@main",
// "lj_opt_sink" of "lj_opt_sink#3"); a regex searches the whole. A
// boundary whose pass name is empty is no pass: a layout reads the name of
// pass managers' own runs so (MLIR's OpToOpPassAdaptor, which its IR
// printer skips too), and they are neither traced nor stopped at.
bool
console_filter_match(const struct console_filter *f, const char *pass,
		     const char *instance)
{
	if (pass && !*pass)
		return false;
	if (f->has_inst && instance &&
	    regexec(&f->inst, instance, 0, NULL, 0) != 0)
		return false;
	if (!f->has_re)
		return true;
	if (!pass)
		return false;
	size_t n = strlen(pass), k = instance ? strlen(instance) : 0;
	if (f->exact && k && n > k + 1 && !strcmp(pass + n - k, instance) &&
	    (pass[n - k - 1] == '@' || pass[n - k - 1] == '#')) {
		char *bare = strndup(pass, n - k - 1);
		bool yes = bare && regexec(&f->re, bare, 0, NULL, 0) == 0;
		free(bare);
		return yes;
	}
	return regexec(&f->re, pass, 0, NULL, 0) == 0;
}

// "passes matching 'R' exactly, instances matching 'I'", or "every
// pass" when no regex was given: what ir-break, ir-trace and ir-status
// say a filter takes, never a regex the user did not type.
void
console_filter_say(const struct console_filter *f, struct irs_buf *out)
{
	if (f->has_re)
		irs_buf_printf(out, "passes matching '%s'", f->pattern);
	else
		irs_buf_puts(out, "every pass");
	if (f->exact)
		irs_buf_puts(out, " exactly");
	if (f->has_inst)
		irs_buf_printf(out, ", instances matching '%s'",
			       f->inst_pattern);
}

/* }====================================================================
** Break functions
** ===================================================================== */

static void
free_breaks(struct irs_console *c)
{
	for (uint32_t i = 0; i < c->nbreaks; i++)
		free(c->breaks[i]);
	free(c->breaks);
	c->breaks = NULL;
	c->nbreaks = 0;
}

// Whether boundary @p bi is wanted by an active request. A boundary with
// a fixed pass name can be left out when no request matches that name
// (with an instance, "NAME#N" may match where NAME does not: kept).
static bool
boundary_wanted(const struct irs_console *c,
		const struct irs_boundary_info *bi)
{
	if (!bi->pass_name || bi->instance_expr)
		return true;
	return (c->break_on &&
		console_filter_match(&c->break_filter, bi->pass_name, NULL)) ||
	       (c->trace_on &&
		console_filter_match(&c->trace_filter, bi->pass_name, NULL));
}

struct irs_error *
console_update_breaks(struct irs_console *c)
{
	struct irs_error *err;

	free_breaks(c);
	// A request given again sets again what the user deleted.
	console_frontend_renew_lost(c);
	if (!c->layout || !(c->break_on || c->trace_on))
		return NULL;
	uint32_t n = irs_layout_nboundaries(c->layout);
	c->breaks = calloc(n ? n : 1, sizeof(*c->breaks));
	if (!c->breaks)
		return &irs_enomem;
	for (uint32_t i = 0; i < n; i++) {
		struct irs_boundary_info bi;
		if ((err = irs_layout_boundary(c->layout, i, &bi)))
			return err;
		if (!bi.function || !boundary_wanted(c, &bi))
			continue;
		bool dup = false;
		for (uint32_t j = 0; j < c->nbreaks; j++)
			dup = dup || !strcmp(c->breaks[j], bi.function);
		if (dup)
			continue;
		if (!(c->breaks[c->nbreaks] = strdup(bi.function)))
			return &irs_enomem;
		c->nbreaks++;
	}
	return console_boundaries_expand(c, boundary_wanted);
}

uint32_t
irs_console_nbreaks(const struct irs_console *c)
{
	return c->nbreaks;
}

bool
irs_console_run_open(const struct irs_console *c)
{
	return c->session != NULL;
}

const char *
irs_console_break_function(const struct irs_console *c, uint32_t i)
{
	return i < c->nbreaks ? c->breaks[i] : NULL;
}

// The functions broken on, in a line however many: ir-status and
// `info breakpoints` (`breakpoint list`) have them all.
static void
list_breaks(const struct irs_console *c, struct irs_buf *out)
{
	if (!c->nbreaks) {
		irs_buf_puts(out, "no boundary function matches");
		return;
	}
	if (c->nbreaks > CONSOLE_LIST_MAX)
		irs_buf_printf(out, "%u breakpoints: ", c->nbreaks);
	else
		irs_buf_puts(out, "breakpoint at ");
	console_list_names(out, (const char *const *)c->breaks, c->nbreaks);
}

/* }====================================================================
** ir-break and ir-trace
** ===================================================================== */

enum { OPT_BEFORE, OPT_AFTER, OPT_BOTH, OPT_CHANGED, OPT_VERIFY,
       OPT_STOP_VERIFY, OPT_EXACT, OPT_INSTANCE };

const struct console_option console_break_options[] = {
	{"--before", NULL, false, OPT_BEFORE},
	{"--after", NULL, false, OPT_AFTER},
	{"--both", NULL, false, OPT_BOTH},
	{"--exact", NULL, false, OPT_EXACT},
	{"--instance", NULL, true, OPT_INSTANCE},
};
const size_t console_break_noptions = ARRAY_SIZE(console_break_options);

const struct console_option console_trace_options[] = {
	{"--changed-only", NULL, false, OPT_CHANGED},
	{"--verify", NULL, false, OPT_VERIFY},
	{"--stop-on-verify", NULL, false, OPT_STOP_VERIFY},
	{"--exact", NULL, false, OPT_EXACT},
	{"--instance", NULL, true, OPT_INSTANCE},
};
const size_t console_trace_noptions = ARRAY_SIZE(console_trace_options);

struct irs_error *
console_cmd_break(struct irs_console *c, const struct console_args *a,
		  struct irs_buf *out)
{
	struct irs_error *err;
	struct console_opts o = {"ir-break", console_break_options,
				 console_break_noptions, true, 0};
	size_t pos[a->nwords + 1], npos = 0;
	bool before = false, after = false, exact = false;
	const char *instance = NULL;
	int id;
	const char *value;

	do {
		if ((err = console_opts_next(&o, a, &id, &value, pos, &npos)))
			return err;
		before = before || id == OPT_BEFORE || id == OPT_BOTH;
		after = after || id == OPT_AFTER || id == OPT_BOTH;
		exact = exact || id == OPT_EXACT;
		if (id == OPT_INSTANCE)
			instance = value;
	} while (id >= 0);
	if (npos == 1 && !a->words[pos[0]].quoted &&
	    !strcmp(a->words[pos[0]].text, "off") && !before && !after &&
	    !exact && !instance) {
		c->break_on = false;
		console_filter_deinit(&c->break_filter);
		irs_buf_puts(out, "irsnap: no longer stopping at passes\n");
		return console_update_breaks(c);
	}
	if (npos > 1)
		return irs_error_format(IRS_ERROR_USAGE,
			"ir-break: one PASS-REGEX at most, got '%s' and '%s' "
			"(quote a regex with blanks)", a->words[pos[0]].text,
			a->words[pos[1]].text);
	if ((err = console_need_layout(c, "ir-break")))
		return err;
	err = console_filter_init(&c->break_filter, "ir-break",
				  npos ? a->words[pos[0]].text : NULL, exact,
				  instance);
	if (err)
		return err;
	c->break_on = true;
	c->break_before = before || !after;
	c->break_after = after;
	if ((err = console_update_breaks(c)))
		return err;
	irs_buf_printf(out, "irsnap: will stop %s ",
		       c->break_before && c->break_after ? "before and after" :
		       c->break_before ? "before" : "after");
	console_filter_say(&c->break_filter, out);
	if (!c->break_filter.has_re)
		irs_buf_puts(out, " (no PASS-REGEX given)");
	irs_buf_puts(out, " (");
	list_breaks(c, out);
	irs_buf_puts(out, ")\n");
	return NULL;
}

static struct irs_error *
trace_on(struct irs_console *c, const char *pattern, bool exact,
	 const char *instance, bool changed, bool verify, bool stop_verify,
	 struct irs_buf *out)
{
	struct irs_error *err;

	if ((err = console_need_layout(c, "ir-trace")))
		return err;
	if ((err = console_filter_init(&c->trace_filter, "ir-trace",
				       pattern, exact, instance)))
		return err;
	// --changed-only shapes the run directory: a change starts a new run.
	if (c->session && c->changed_only != changed)
		console_end_session(c, changed ? "ir-trace on --changed-only"
				    : "ir-trace on without --changed-only");
	c->trace_on = true;
	c->changed_only = changed;
	c->verify = verify || stop_verify;
	c->stop_on_verify = stop_verify;
	c->no_rundir = false;	// try again
	if ((err = console_update_breaks(c)))
		return err;
	char *dir;
	if ((err = irs_console_get(c, "dir", &dir)))
		return err;
	irs_buf_puts(out, "irsnap: tracing ");
	console_filter_say(&c->trace_filter, out);
	irs_buf_puts(out, " (");
	list_breaks(c, out);
	if (c->session)
		irs_buf_printf(out, ") into %s\n", irs_session_dir(c->session));
	else
		irs_buf_printf(out, ") into a new run directory under %s\n",
			       dir);
	irs_free(dir);
	if (c->verify && !irs_layout_nverifiers(c->layout))
		irs_buf_printf(out, "irsnap: layout '%s' declares no "
			       "verifier: --verify has nothing to run (each "
			       "pass is recorded as \"no verifier\")\n",
			       irs_layout_name(c->layout));
	return NULL;
}

struct irs_error *
console_cmd_trace(struct irs_console *c, const struct console_args *a,
		  struct irs_buf *out)
{
	struct irs_error *err;
	struct console_opts o = {"ir-trace", console_trace_options,
				 console_trace_noptions, true, 0};
	size_t pos[a->nwords + 1], npos = 0;
	bool changed = false, verify = false, stop_verify = false;
	bool exact = false;
	const char *instance = NULL;
	int id;
	const char *value;

	do {
		if ((err = console_opts_next(&o, a, &id, &value, pos, &npos)))
			return err;
		changed = changed || id == OPT_CHANGED;
		verify = verify || id == OPT_VERIFY;
		stop_verify = stop_verify || id == OPT_STOP_VERIFY;
		exact = exact || id == OPT_EXACT;
		if (id == OPT_INSTANCE)
			instance = value;
	} while (id >= 0);
	const char *sub = npos ? a->words[pos[0]].text : "";
	if (!strcmp(sub, "off") && npos == 1 && !changed && !verify &&
	    !stop_verify && !exact && !instance) {
		c->trace_on = false;
		console_filter_deinit(&c->trace_filter);
		irs_buf_puts(out, "irsnap: tracing off\n");
		return console_update_breaks(c);
	}
	if (strcmp(sub, "on"))
		return irs_error_format(IRS_ERROR_USAGE,
			"ir-trace: usage: ir-trace on [PASS-REGEX] [--exact] "
			"[--instance REGEX] [--changed-only] [--verify] "
			"[--stop-on-verify] | ir-trace off");
	if (npos > 2)
		return irs_error_format(IRS_ERROR_USAGE,
			"ir-trace: one PASS-REGEX at most, got '%s' and '%s' "
			"(quote a regex with blanks)", a->words[pos[1]].text,
			a->words[pos[2]].text);
	return trace_on(c, npos == 2 ? a->words[pos[1]].text : NULL, exact,
			instance, changed, verify, stop_verify, out);
}

/* }====================================================================
** Verifiers
** ===================================================================== */

// "toyc_verify({ir}, 0)" -> "toyc_verify((Module *)0x4052a0, 0)".
static char *
verifier_expr(const char *call, const char *type, uint64_t root)
{
	struct irs_buf b;
	char ir[320];

	snprintf(ir, sizeof(ir), "(%s *)0x%" PRIx64, type, root);
	irs_buf_init(&b);
	for (const char *p = call; *p;) {
		if (!strncmp(p, "{ir}", 4)) {
			irs_buf_puts(&b, ir);
			p += 4;
		} else {
			irs_buf_append(&b, p++, 1);
		}
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

static void
indent_lines(struct irs_buf *out, const char *text, unsigned max)
{
	unsigned n = 0;
	while (*text && n < max) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		irs_buf_printf(out, "  %.*s\n", (int)len, text);
		text += len + (nl != NULL);
		n++;
	}
	if (*text)
		irs_buf_puts(out, "  ...\n");
}

// The layout's Lua verifiers run together; *names_ret joins their names.
static struct irs_error *
lua_names(const struct irs_layout *lo, char **names_ret)
{
	struct irs_error *err;
	struct irs_buf b;

	irs_buf_init(&b);
	for (uint32_t i = 0; i < irs_layout_nverifiers(lo); i++) {
		struct irs_verifier_info vi;
		if ((err = irs_layout_verifier(lo, i, &vi))) {
			irs_buf_deinit(&b);
			return err;
		}
		if (!vi.call)
			irs_buf_printf(&b, "%s%s", b.len ? "," : "", vi.name);
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	// NULL when there is none: "" would run no check and be called ok
	*names_ret = b.len ? irs_buf_steal(&b) : NULL;
	irs_buf_deinit(&b);
	return NULL;
}

struct verify_state {
	struct irs_console *c;
	struct irs_memory *mem;
	uint64_t root;
	const char *type;
	uint32_t seq;
	struct irs_buf *out;
	uint32_t nbad, nfailed;
	bool interrupted;	// Ctrl-C stopped a Lua check: run no more
	char *bad_name;		// the first verifier finding problems,
	char *bad_output;	// what it said (both ours), and how
	uint32_t bad_problems;	// many problems
};

// Remembers the first verifier that found problems: the failure is its.
static void
note_bad(struct verify_state *v, const char *name, const char *output,
	 uint32_t problems)
{
	if (v->bad_name)
		return;
	v->bad_problems = problems;
	v->bad_name = strdup(name);
	v->bad_output = output ? strdup(output) : NULL;
}

static void
record(struct verify_state *v, const struct irs_verifier_result *r)
{
	if (!v->seq || !v->c->session)
		return;
	struct irs_error *err = irs_session_verifier_result(v->c->session,
							    v->seq, r);
	if (err) {
		irs_buf_printf(v->out, "irsnap: cannot record verifier %s: "
			       "%s\n", r->name, irs_error_get_message(err));
		irs_error_destroy(err);
	}
}

// A verifier that did not run: said on the console and recorded as
// "not run" with @p reason, never taken for a clean result.
static void
not_run(struct verify_state *v, const char *name, const char *call,
	const char *reason)
{
	irs_buf_printf(v->out, "verifier %s: could not run: %s\n", name,
		       reason);
	struct irs_verifier_result r = {
		.name = name, .ran = false, .reason = reason, .call = call,
	};
	record(v, &r);
	v->nfailed++;
}

static void
verify_lua(struct verify_state *v)
{
	struct irs_error *err;
	char *names, *problems;
	uint32_t count;

	if ((err = lua_names(v->c->layout, &names))) {
		irs_buf_printf(v->out, "verifier: %s\n",
			       irs_error_get_message(err));
		irs_error_destroy(err);
		v->nfailed++;
		return;
	}
	if (!names)
		return;
	err = irs_layout_verify(v->c->layout, v->mem, v->root, v->type,
				&problems, &count);
	if (err) {
		v->interrupted = irs_error_get_code(err) ==
				 IRS_ERROR_INTERRUPTED;
		not_run(v, names, NULL, irs_error_get_message(err));
		irs_error_destroy(err);
	} else {
		if (count)
			irs_buf_printf(v->out, "verifier %s: %u problem%s\n",
				       names, count, count == 1 ? "" : "s");
		else
			irs_buf_printf(v->out, "verifier %s: ok\n", names);
		indent_lines(v->out, problems, 20);
		struct irs_verifier_result r = {
			.name = names, .ran = true, .problems = count,
			.output = problems,
		};
		record(v, &r);
		v->nbad += count != 0;
		if (count)
			note_bad(v, names, problems, count);
		irs_free(problems);
	}
	free(names);
}

// Why a call verifier cannot be called on the IR now, into @p why; false
// when it can. Calling the compiler's verifier on a root that is not its
// IR would crash the debuggee in the verifier, and that crash would be
// taken for the compiler's.
static bool
call_blocked(struct verify_state *v, char *why, size_t len)
{
	uint8_t byte;

	if (!v->c->t->pid) {
		snprintf(why, len, "it calls into the debuggee: live process "
			 "only");
		return true;
	}
	if (!v->root) {
		snprintf(why, len, "the IR root (%s) is a NULL pointer",
			 v->type);
		return true;
	}
	struct irs_error *err = irs_memory_read(v->mem, v->root, &byte, 1);
	if (err) {
		snprintf(why, len, "the IR root (%s at 0x%" PRIx64 ") is not "
			 "readable: %s", v->type, v->root,
			 irs_error_get_message(err));
		irs_error_destroy(err);
		return true;
	}
	return false;
}

// The count of problems a call verifier's result @p value means: the
// value itself for a verifier that returns a count (ok = 0, value > 0, as
// toyc_verify does), else one (LLVM's verifyModule returns true).
static uint32_t
call_problems(int64_t value, int64_t ok)
{
	if (value == ok)
		return 0;
	if (ok == 0 && value > 0)
		return value > UINT32_MAX ? UINT32_MAX : (uint32_t)value;
	return 1;
}

static void
verify_call(struct verify_state *v, const struct irs_verifier_info *vi)
{
	struct irs_error *err;
	uint64_t value;
	char why[512], *output = NULL, *nocapture = NULL;

	char *expr = verifier_expr(vi->call, v->type, v->root);
	if (!expr) {
		v->nfailed++;
		return;
	}
	if (call_blocked(v, why, sizeof(why))) {
		not_run(v, vi->name, expr, why);
		free(expr);
		return;
	}
	err = console_call_captured(v->c, expr, &value, &output, &nocapture);
	irs_memory_invalidate(v->mem);	// the debuggee ran code
	if (err) {
		not_run(v, vi->name, expr, irs_error_get_message(err));
		irs_error_destroy(err);
		free(expr);
		free(output);
		free(nocapture);
		return;
	}
	uint32_t problems = call_problems((int64_t)value, vi->ok_value);
	if (problems)
		irs_buf_printf(v->out, "verifier %s: %u problem%s (%s = %"
			       PRId64 ", expected %" PRId64 ")\n", vi->name,
			       problems, problems == 1 ? "" : "s", expr,
			       (int64_t)value, vi->ok_value);
	else
		irs_buf_printf(v->out, "verifier %s: ok\n", vi->name);
	if (output && problems)
		indent_lines(v->out, output, 20);
	if (nocapture)
		irs_buf_printf(v->out, "verifier %s: its output was not "
			       "captured: %s\n", vi->name, nocapture);
	struct irs_verifier_result r = {
		.name = vi->name, .ran = true, .problems = problems,
		.output = output, .call = expr, .has_value = true,
		.value = (int64_t)value,
	};
	record(v, &r);
	v->nbad += problems != 0;
	if (problems)
		note_bad(v, vi->name, output, problems);
	free(expr);
	free(output);
	free(nocapture);
}

struct irs_error *
console_run_verifiers(struct irs_console *c, struct irs_memory *mem,
		      uint64_t root, const char *type, uint32_t seq,
		      struct irs_buf *out, struct console_verdict *ret)
{
	struct irs_error *err = NULL;
	struct verify_state v = {c, mem, root, type, seq, out, 0, 0, false,
				 NULL, NULL, 0};

	if (!irs_layout_nverifiers(c->layout)) {
		// Asked for and nothing to run: "no verifier", never "ok".
		struct irs_verifier_result r = {.none = true};
		record(&v, &r);
	}
	// Lua first: it only reads, while a call runs debuggee code.
	verify_lua(&v);
	for (uint32_t i = 0; !err && !v.interrupted &&
	     i < irs_layout_nverifiers(c->layout); i++) {
		struct irs_verifier_info vi;
		if (!(err = irs_layout_verifier(c->layout, i, &vi)) &&
		    vi.call)
			verify_call(&v, &vi);
	}
	c->verify_failed += v.nfailed;
	if (err) {
		free(v.bad_name);
		free(v.bad_output);
		return err;
	}
	*ret = (struct console_verdict){v.nbad, v.bad_name, v.bad_output,
					v.bad_problems};
	return NULL;
}

void
console_verdict_deinit(struct console_verdict *v)
{
	free(v->bad_name);
	free(v->bad_output);
	memset(v, 0, sizeof(*v));
}

/* }====================================================================
** Debuggee events
** ===================================================================== */

void
console_event_deinit(struct console_event *ev)
{
	free(ev->pass);
	free(ev->instance);
	free(ev->rerun_pass);
	free(ev->type);
	for (size_t i = 0; i < ev->nargs; i++)
		free(ev->args[i].name);
	free(ev->args);
	memset(ev, 0, sizeof(*ev));
	ev->cfa = CONSOLE_NO_CFA;
	ev->sp = CONSOLE_NO_SP;
}

void
console_clear_events(struct irs_console *c)
{
	for (size_t i = 0; i < c->nevents; i++)
		console_event_deinit(&c->events[i]);
	c->nevents = 0;
}

void
console_clear_after(struct irs_console *c)
{
	if (!c->has_after)
		return;
	console_event_deinit(&c->after);
	c->has_after = false;
}

static struct console_event *
push_event(struct irs_console *c)
{
	if (c->nevents == c->capevents) {
		size_t ncap = c->capevents ? 2 * c->capevents : 16;
		void *p = realloc(c->events, ncap * sizeof(*c->events));
		if (!p)
			return NULL;
		c->events = p;
		c->capevents = ncap;
	}
	struct console_event *ev = &c->events[c->nevents++];
	memset(ev, 0, sizeof(*ev));
	ev->cfa = CONSOLE_NO_CFA;
	ev->sp = CONSOLE_NO_SP;
	return ev;
}

// Fills @p ev's pass, type and root from boundary @p bi in frame 0.
static struct irs_error *
event_eval(struct irs_console *c, const struct irs_boundary_info *bi,
	   struct console_event *ev)
{
	struct irs_error *err;

	const char *type = bi->ir_type ? bi->ir_type :
			   irs_layout_root_type(c->layout);
	if (!(ev->type = strdup(type)))
		return &irs_enomem;
	if ((err = console_eval_pass(c, bi, &ev->pass, &ev->instance)) ||
	    (err = console_eval_rerun_pass(c, bi, &ev->rerun_pass)))
		return err;
	console_note_pass(c, ev->pass);
	return console_eval_ir(c, bi, &ev->root);
}

static struct irs_error *
trace_begin(struct irs_console *c, struct console_event *ev,
	    struct irs_buf *out)
{
	struct irs_error *err;
	struct irs_session *s;
	struct irs_memory *mem;

	bool fresh = !c->session;
	if (!c->session && c->no_rundir)
		return NULL;	// said at the first pass; not at each one
	if ((err = console_session(c, &s))) {
		c->no_rundir = true;
		if (err == &irs_enomem)
			return err;
		struct irs_error *e = irs_error_format(err->code, "%s (no "
			"more tracing until a setting changes or ir-trace on "
			"is given again)", err->message);
		irs_error_destroy(err);
		return e;
	}
	if (fresh)
		irs_buf_printf(out, "irsnap: tracing into %s\n",
			       irs_session_dir(s));
	if ((err = console_memory(c, &mem)))
		return err;
	irs_session_set_position(s, ev->position);
	if ((err = irs_session_set_instance(s, ev->instance)) ||
	    (err = irs_session_set_rerun_pass(s, ev->rerun_pass)))
		return err;
	if ((err = irs_session_pass_begin_as(s, mem, ev->pass, ev->root,
					     ev->type, &ev->seq)))
		return err;
	ev->gen = c->gen;
	c->ntraced++;
	return NULL;
}

// Hands @p out over as *out_ret, made printable (console_printable()).
// Takes and returns @p err, or destroys it and returns &irs_enomem when
// the output ran out of memory: a half-written message is no message.
static struct irs_error *
hand_out(struct irs_buf *out, char **out_ret, struct irs_error *err)
{
	if (out->oom) {
		irs_buf_deinit(out);
		irs_error_destroy(err);
		return &irs_enomem;
	}
	if (!(*out_ret = console_printable(irs_buf_steal(out)))) {
		irs_error_destroy(err);
		return &irs_enomem;
	}
	return err;
}

struct irs_error *
irs_console_boundary_enter(struct irs_console *c, const char *function,
			   bool *stop_ret, char **out_ret)
{
	return console_boundary_enter(c, function, NULL, stop_ret, out_ret);
}

struct irs_error *
console_boundary_enter(struct irs_console *c, const char *function,
		       const struct console_call *call, bool *stop_ret,
		       char **out_ret)
{
	struct irs_error *err;
	struct irs_boundary_info bi;
	struct irs_buf out;

	*stop_ret = false;
	*out_ret = NULL;
	console_clear_after(c);
	// Pushed first and whatever happens: the return pairs with it.
	struct console_event *ev = push_event(c);
	if (!ev)
		return &irs_enomem;
	if (call) {
		ev->cfa = call->cfa;
		ev->sp = call->sp;
		ev->tid = call->tid;
	}
	console_frontend_save_args(c, ev);
	if (!function)
		function = "";
	if ((err = console_need_layout(c, "irsnap")))
		return err;
	if (!console_boundary_of(c, function, &bi))
		return irs_error_format(IRS_ERROR_NOT_FOUND,
			"irsnap: %s is not a pass boundary of layout '%s'",
			function, irs_layout_name(c->layout));
	ev->position = ++c->nboundaries;
	if ((err = event_eval(c, &bi, ev))) {
		char where[300];
		snprintf(where, sizeof(where), "irsnap: at %s", function);
		return irs_error_prefix(err, where);
	}
	irs_buf_init(&out);
	irs_buf_puts(&out, "");
	if (ev->pass && *ev->pass)
		console_threads_check(c, ev, &out);
	if (c->trace_on && console_filter_match(&c->trace_filter, ev->pass,
						ev->instance) &&
	    (err = trace_begin(c, ev, &out))) {
		char where[300];
		snprintf(where, sizeof(where), "irsnap: pass '%s'", ev->pass);
		irs_error_prefix(err, where);
	}
	// A snapshot that could not be written (a full disk) is no reason to
	// run past the stop the user asked for: it is reported beside it.
	if (c->break_on && c->break_before &&
	    console_filter_match(&c->break_filter, ev->pass, ev->instance)) {
		*stop_ret = true;
		char number[64];
		console_event_number(ev, number, sizeof(number));
		irs_buf_printf(&out, "irsnap: stopped before pass '%s' (%s; "
			       "IR: %s at 0x%" PRIx64 ")\n", ev->pass, number,
			       ev->type, ev->root);
	}
	return hand_out(&out, out_ret, err);
}

// A traced pass is told by its seq, as everywhere else; one not traced
// has none, so by its place among the process's boundary calls.
void
console_event_number(const struct console_event *ev, char *buf, size_t len)
{
	if (ev->seq)
		snprintf(buf, len, "seq %u", ev->seq);
	else
		snprintf(buf, len, "the pipeline's pass %u, untraced",
			 ev->position);
}

// failure.json for the verifier failure @p v after @p ev's pass: the
// failing verifier's own problems, and its name, whose offline rerun
// makes the reduce command.
static struct irs_error *
verify_failure(struct irs_console *c, struct irs_memory *mem,
	       const struct console_event *ev,
	       const struct console_verdict *v)
{
	struct irs_failure_info info = {
		.kind = "verifier",
		.pass = ev->pass,
		.message = v->bad_output,
		.verifier = v->bad_name,
		.problems = v->bad_problems,
		.ir_root = ev->root,
	};
	return irs_session_failure(c->session, c->t, mem, &info);
}

// After snapshot and verifiers of traced event @p ev.
static struct irs_error *
trace_end(struct irs_console *c, const struct console_event *ev,
	  bool *stop_ret, struct irs_buf *out)
{
	struct irs_error *err;
	struct irs_memory *mem;
	struct irs_buf report;
	struct console_verdict v = {0};
	uint32_t failed = c->verify_failed;

	if ((err = console_memory(c, &mem)))
		return err;
	if ((err = irs_session_pass_end(c->session, mem, ev->seq)))
		return err;
	if (!c->verify)
		return NULL;
	irs_buf_init(&report);
	irs_buf_puts(&report, "");
	err = console_run_verifiers(c, mem, ev->root, ev->type, ev->seq,
				    &report, &v);
	if (!err && v.nbad && c->ir_broken && !c->stop_on_verify) {
		// Name the pass that broke it once, not every pass after.
		irs_buf_printf(out, "irsnap: the IR is still broken after "
			       "pass '%s' (seq %u)\n", ev->pass, ev->seq);
	} else if (!err && v.nbad) {
		c->ir_broken = true;
		if (!c->check.nbroken++)
			snprintf(c->check.broken, sizeof(c->check.broken),
				 "pass '%s' (seq %u of %s) broke the IR",
				 ev->pass, ev->seq,
				 irs_session_dir(c->session));
		irs_buf_printf(out, "irsnap: pass '%s' (seq %u) broke the "
			       "IR:\n", ev->pass, ev->seq);
		indent_lines(out, report.data, 40);
		// The report is written with or without a stop: a broken IR
		// is the run's failure, and reducible as one.
		err = verify_failure(c, mem, ev, &v);
		if (!err && !c->run_failure[0])
			snprintf(c->run_failure, sizeof(c->run_failure),
				 "pass '%s' (seq %u)", ev->pass, ev->seq);
		if (!err)
			irs_buf_printf(out, "irsnap: %s pass '%s' (seq %u); "
				       "failure report: %s/failure.json\n",
				       c->stop_on_verify ? "stopped after"
				       : "a verifier failed after", ev->pass,
				       ev->seq, irs_session_dir(c->session));
		if (c->stop_on_verify)
			*stop_ret = true;
	} else if (!err && failed == 0 && c->verify_failed) {
		// Say once that a verifier cannot run, not at every pass.
		irs_buf_printf(out, "irsnap: after pass '%s':\n", ev->pass);
		indent_lines(out, report.data, 40);
	}
	if (!err && !v.nbad)
		c->ir_broken = false;
	console_verdict_deinit(&v);
	irs_buf_deinit(&report);
	return err;
}

struct irs_error *
irs_console_boundary_exit(struct irs_console *c, bool *stop_ret,
			  char **out_ret)
{
	struct irs_error *err = NULL;
	struct irs_buf out;

	*stop_ret = false;
	*out_ret = NULL;
	console_clear_after(c);
	irs_buf_init(&out);
	irs_buf_puts(&out, "");
	if (c->nevents) {
		// Popped before the work, so the stack stays paired on error.
		struct console_event ev = c->events[--c->nevents];
		if (ev.seq && ev.gen == c->gen && c->session)
			err = trace_end(c, &ev, stop_ret, &out);
		if (err) {
			char where[300];
			snprintf(where, sizeof(where),
				 "irsnap: after pass '%s'", ev.pass);
			irs_error_prefix(err, where);
		}
		// The request in force at the return decides: an ir-break
		// --after given while stopped before this very pass stops
		// after it, not after a later one. Even if err, as above.
		if (c->break_on && c->break_after &&
		    console_filter_match(&c->break_filter, ev.pass,
					 ev.instance)) {
			*stop_ret = true;
			char number[64];
			console_event_number(&ev, number, sizeof(number));
			irs_buf_printf(&out, "irsnap: stopped after pass '%s' "
				       "(%s; IR: %s at 0x%" PRIx64 ")\n",
				       ev.pass, number, ev.type, ev.root);
		}
		if (*stop_ret && ev.root) {
			// Stopped behind the call: ir-verify, ir-report and
			// ir-dump --boundary still mean its IR.
			c->after = ev;
			c->has_after = true;
		} else {
			console_event_deinit(&ev);
		}
	}
	return hand_out(&out, out_ret, err);
}

static struct irs_error *
remember_signal(struct irs_console *c, int32_t signo, const char *signame)
{
	char *name = signame ? strdup(signame) : NULL;
	if (signame && !name)
		return &irs_enomem;
	free(c->signame);
	c->signame = name;
	c->signo = signo;
	return NULL;
}

// *out_ret made printable (console_printable()); takes and returns @p err.
static struct irs_error *
printable_out(char **out_ret, struct irs_error *err)
{
	if (*out_ret && !(*out_ret = console_printable(*out_ret))) {
		irs_error_destroy(err);
		return &irs_enomem;
	}
	return err;
}

static struct irs_error *
signal_event(struct irs_console *c, int32_t signo, const char *signame,
	     char **out_ret)
{
	struct irs_error *err;
	struct irs_session *s;
	struct irs_memory *mem;

	*out_ret = NULL;
	console_clear_after(c);
	if ((err = remember_signal(c, signo, signame)))
		return err;
	const struct console_event *ev = c->nevents ?
					 &c->events[c->nevents - 1] : NULL;
	const char *pass = ev && ev->pass ? ev->pass : NULL;
	const char *sig = signame ? signame : "signal";
	char number[64] = "", where[400] = "a pass";
	if (pass) {
		console_event_number(ev, number, sizeof(number));
		snprintf(where, sizeof(where), "pass '%s' (%s)", pass, number);
	}
	if (!c->trace_on) {
		if (pass && asprintf(out_ret, "irsnap: %s in %s; ir-report "
				     "writes failure.json\n", sig, where) < 0)
			return &irs_enomem;
		if (!*out_ret && !(*out_ret = strdup("")))
			return &irs_enomem;
		return NULL;
	}
	if ((err = console_session(c, &s)) || (err = console_memory(c, &mem)))
		return err;
	if (c->run_failure[0]) {
		// The first failure is the failure: a crash after a pass broke
		// the IR is its consequence, and failure.json, show and the
		// reduce command keep blaming that pass.
		if (asprintf(out_ret, "irsnap: %s in %s, after %s broke the "
			     "IR (the crash is its consequence); failure "
			     "report: %s/failure.json\n", sig, where,
			     c->run_failure, irs_session_dir(s)) < 0)
			return &irs_enomem;
		return NULL;
	}
	struct irs_failure_info info = {
		.kind = "signal",
		.signo = signo,
		.signame = signame,
		.pass = pass,
		.ir_root = ev ? ev->root : 0,
	};
	if ((err = irs_session_failure(s, c->t, mem, &info)))
		return irs_error_prefix(err, "irsnap: failure report");
	int rc;
	if (pass)
		rc = asprintf(out_ret, "irsnap: %s in %s; failure report: "
			      "%s/failure.json\n", sig, where,
			      irs_session_dir(s));
	else
		rc = asprintf(out_ret, "irsnap: %s outside any traced pass; "
			      "failure report: %s/failure.json\n", sig,
			      irs_session_dir(s));
	return rc < 0 ? &irs_enomem : NULL;
}

struct irs_error *
irs_console_signal(struct irs_console *c, int32_t signo, const char *signame,
		   char **out_ret)
{
	return printable_out(out_ret, signal_event(c, signo, signame,
						   out_ret));
}

static struct irs_error *
exit_event(struct irs_console *c, int32_t status, char **out_ret)
{
	int rc = 0;

	*out_ret = NULL;
	struct irs_error *err = NULL;
	char lost[96] = "";
	uint32_t nlost = c->session ? irs_session_lost(c->session) : 0;
	if (nlost)
		snprintf(lost, sizeof(lost), "; incomplete: %u snapshot%s lost "
			 "to write errors", nlost, nlost == 1 ? "" : "s");
	if (c->session && status >= 0) {
		err = irs_session_finish(c->session, status);
		rc = asprintf(out_ret, "irsnap: debuggee exited (status %d): "
			      "%u passes traced in %s%s\n", status,
			      c->ntraced, irs_session_dir(c->session), lost);
	} else if (c->session && c->session_core) {
		// A core file closed: nothing was killed, nothing traced.
		rc = asprintf(out_ret, "irsnap: closed the core file; its run "
			      "directory: %s\n", irs_session_dir(c->session));
	} else if (c->session) {
		// Killed, not finished: the run keeps its status.
		rc = asprintf(out_ret, "irsnap: debuggee killed: %u passes "
			      "traced in %s%s\n", c->ntraced,
			      irs_session_dir(c->session), lost);
	}
	console_end_session(c, NULL);	// finished, or killed: it says which
	console_forget_globals(c);	// the next process has its own
	console_clear_events(c);
	console_clear_after(c);
	console_event_deinit(&c->returning);
	c->nboundaries = 0;	// the next process counts its own
	c->threads_said = false;
	c->signo = 0;
	free(c->signame);
	c->signame = NULL;
	if (rc < 0 || (!*out_ret && !(*out_ret = strdup("")))) {
		irs_error_destroy(err);
		free(*out_ret);
		*out_ret = NULL;
		return &irs_enomem;
	}
	if (err) {
		free(*out_ret);
		*out_ret = NULL;
		return irs_error_prefix(err, "irsnap: closing the run");
	}
	return NULL;
}

struct irs_error *
irs_console_exited(struct irs_console *c, int32_t status, char **out_ret)
{
	console_frontend_forget_callers(c);
	return printable_out(out_ret, exit_event(c, status, out_ret));
}
