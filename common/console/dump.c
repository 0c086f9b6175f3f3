// The console commands that read IR now: ir-dump, ir-verify, ir-report.
#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "console/console.h"

enum { OPT_FORMAT, OPT_OUTPUT, OPT_MAX_NODES, OPT_MAX_BYTES, OPT_MAX_DEPTH,
       OPT_BOUNDARY, OPT_SIGNAL, OPT_MESSAGE };

const struct console_option console_dump_options[] = {
	{"--format", "-f", true, OPT_FORMAT},
	{"--output", "-o", true, OPT_OUTPUT},
	{"--max-nodes", NULL, true, OPT_MAX_NODES},
	{"--max-bytes", NULL, true, OPT_MAX_BYTES},
	{"--max-depth", NULL, true, OPT_MAX_DEPTH},
	{"--boundary", NULL, false, OPT_BOUNDARY},
};
const size_t console_dump_noptions = ARRAY_SIZE(console_dump_options);

const struct console_option console_report_options[] = {
	{"--signal", NULL, true, OPT_SIGNAL},
	{"--message", NULL, true, OPT_MESSAGE},
};
const size_t console_report_noptions = ARRAY_SIZE(console_report_options);

/* {====================================================================
** EXPR [TYPE]
** ===================================================================== */

static const char *
layout_type(const struct irs_layout *lo, const char *name)
{
	for (uint32_t i = 0; i < irs_layout_ntypes(lo); i++)
		if (!strcmp(irs_layout_type_name(lo, i), name))
			return irs_layout_type_name(lo, i);
	return NULL;
}

static struct irs_error *
no_such_type(const struct irs_layout *lo, const char *cmd, const char *name)
{
	struct irs_buf b;
	irs_buf_init(&b);
	for (uint32_t i = 0; i < irs_layout_ntypes(lo); i++)
		irs_buf_printf(&b, "%s%s", i ? ", " : "",
			       irs_layout_type_name(lo, i));
	struct irs_error *err = irs_error_format(IRS_ERROR_NOT_FOUND,
		"%s: no type '%s' in layout '%s' (types: %s)", cmd, name,
		irs_layout_name(lo), b.data ? b.data : "none");
	irs_buf_deinit(&b);
	return err;
}

static bool
is_ident(const char *s, size_t len)
{
	if (!len || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

// Word @p i is an identifier right after an operand ("m Modul"): no C
// expression reads so, so it was meant as a TYPE.
static bool
looks_like_type(const struct console_args *a, size_t i)
{
	const char *w = a->words[i].text;
	const char *prev = a->words[i - 1].text;
	size_t n = strlen(prev);
	return !a->words[i].quoted && is_ident(w, strlen(w)) && n &&
	       (isalnum((unsigned char)prev[n - 1]) || prev[n - 1] == '_' ||
		prev[n - 1] == ']') && strcmp(prev, "sizeof");
}

/** The expression and type a command was given in words [first, nwords).
 *  The last word is TYPE when it names a layout type; the expression is the
 *  rest as typed (quotes kept, so C string literals survive), or the one
 *  word unquoted. *expr_ret freed with free(), *type_ret borrowed. */
static struct irs_error *
expr_type(const struct irs_console *c, const char *cmd,
	  const struct console_args *a, size_t first, char **expr_ret,
	  const char **type_ret, bool *named_ret)
{
	size_t last = a->nwords;	// one past the expression
	const char *type = irs_layout_root_type(c->layout);

	*named_ret = false;
	if (last - first >= 2 && layout_type(c->layout,
					     a->words[last - 1].text)) {
		type = layout_type(c->layout, a->words[--last].text);
		*named_ret = true;
	}
	else if (last - first >= 2 && looks_like_type(a, last - 1))
		return no_such_type(c->layout, cmd, a->words[last - 1].text);
	char *expr;
	if (last - first == 1)
		expr = strdup(a->words[first].text);
	else
		expr = strndup(a->raw + a->words[first].start,
			       a->words[last - 1].end - a->words[first].start);
	if (!expr)
		return &irs_enomem;
	if (!type) {
		free(expr);
		return irs_error_format(IRS_ERROR_LAYOUT,
			"%s: layout '%s' names no root type: give a TYPE",
			cmd, irs_layout_name(c->layout));
	}
	*expr_ret = expr;
	*type_ret = type;
	return NULL;
}

// "struct Module *" -> "Module": the pointee or type named, without
// "struct "/"union "/"class " and qualifiers; "" when not one name.
static void
base_name(const char *type, char *out, size_t len)
{
	char buf[160];
	snprintf(buf, sizeof(buf), "%s", type);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '*' ||
		     buf[n - 1] == '&'))
		buf[--n] = 0;
	const char *p = buf;
	for (;;) {
		static const char *const skip[] = {"struct ", "union ",
			"class ", "const ", "volatile ", NULL};
		bool again = false;
		for (const char *const *k = skip; *k; k++)
			if (!strncmp(p, *k, strlen(*k))) {
				p += strlen(*k);
				again = true;
			}
		if (!again)
			break;
	}
	snprintf(out, len, "%s", strchr(p, ' ') || strchr(p, '*') ? "" : p);
}

/** Evaluates @p expr as the IR root of layout type @p type. When the user
 *  did not name the type (@p named false) and debug info says the
 *  expression points at (or is) some other struct, the error says so in
 *  one line instead of walking a Pass as a Module. */
static struct irs_error *
eval_root(struct irs_console *c, const char *cmd, const char *expr,
	  const char *type, bool named, uint64_t *root_ret)
{
	char got[160], have[160], want[160];
	struct irs_error *err = console_eval_typed(c, expr, EVAL_USER,
						   root_ret, got,
						   sizeof(got));
	if (err)
		return irs_error_prefix(err, cmd);
	const struct ltype *lt = irs_layout_find_type(c->layout, type);
	if (named || !lt || !lt->ctype || !*got)
		return NULL;
	base_name(got, have, sizeof(have));
	base_name(lt->ctype, want, sizeof(want));
	// void *, integers, registers: nothing to check against
	if (!*have || !*want || !strcmp(have, want) || !strcmp(have, "void"))
		return NULL;
	return irs_error_format(IRS_ERROR_USAGE,
		"%s: '%s' is a %s%s, not a %s%s (layout type %s); to walk "
		"it as %s anyway, name the type: %s %s %s", cmd, expr, have,
		strchr(got, '*') ? " *" : "", want,
		strchr(got, '*') ? " *" : "", type, type, cmd, expr, type);
}

/* }====================================================================
** ir-dump
** ===================================================================== */

struct dump_req {
	const char *format;	/* text, json, both; NULL: default */
	const char *path;	/* -o, or NULL */
	struct irs_limits limits;
	bool boundary;
	char *expr;
	const char *type;
	uint64_t root;
	char where[600];	/* --boundary: "pass 'cse' at frame #2 ..." */
};

static struct irs_error *
dump_options(struct irs_console *c, const struct console_args *a,
	     struct dump_req *r, size_t *first_ret)
{
	struct irs_error *err;
	struct console_opts o = {"ir-dump", console_dump_options,
				 console_dump_noptions, false, 0};
	uint64_t v;
	int id;
	const char *value;

	r->limits = c->set.limits;
	for (;;) {
		if ((err = console_opts_next(&o, a, &id, &value, NULL, NULL)))
			return err;
		if (id < 0)
			break;
		if (id == OPT_FORMAT) {
			if (strcmp(value, "text") && strcmp(value, "json") &&
			    strcmp(value, "both"))
				return irs_error_format(IRS_ERROR_USAGE,
					"ir-dump: -f takes text, json or both, "
					"not '%s'", value);
			r->format = value;
		} else if (id == OPT_OUTPUT) {
			r->path = value;
		} else if (id == OPT_BOUNDARY) {
			r->boundary = true;
		} else {
			const char *what = id == OPT_MAX_NODES ? "--max-nodes"
					   : id == OPT_MAX_BYTES ? "--max-bytes"
					   : "--max-depth";
			if ((err = console_parse_u64("ir-dump", what, value,
						     &v)))
				return err;
			if (id == OPT_MAX_NODES)
				r->limits.max_nodes = v;
			else if (id == OPT_MAX_BYTES)
				r->limits.max_bytes = v;
			else
				r->limits.max_depth = v > UINT32_MAX ?
						      UINT32_MAX : (uint32_t)v;
		}
	}
	*first_ret = o.next;
	return NULL;
}

static const char *
dump_usage(void)
{
	return "ir-dump: usage: ir-dump [-f text|json|both] [-o PATH] "
	       "[--max-nodes N] EXPR [TYPE] | ir-dump --boundary";
}

// Fills r->expr/type/root from the words, or from the boundary frame.
static struct irs_error *
dump_target(struct irs_console *c, const struct console_args *a,
	    size_t first, struct dump_req *r)
{
	struct irs_error *err;

	if (r->boundary) {
		if (first < a->nwords)
			return irs_error_format(IRS_ERROR_USAGE,
				"ir-dump: --boundary takes no EXPR (got '%s')",
				a->words[first].text);
		struct console_site site;
		const struct console_event *ev = console_stopped_event(c);
		err = console_find_site(c, "ir-dump", &site);
		if (err && ev) {
			// Stopped at a return, where the frame's locals are
			// often gone: the call's IR was read at its entry.
			irs_error_destroy(err);
			snprintf(r->where, sizeof(r->where),
				 "pass '%s' (stopped boundary call): ",
				 ev->pass ? ev->pass : "?");
			r->type = layout_type(c->layout, ev->type);
			r->root = ev->root;
			return r->type ? NULL : no_such_type(c->layout,
							     "ir-dump",
							     ev->type);
		}
		if (err)
			return err;
		snprintf(r->where, sizeof(r->where),
			 "pass '%s' at frame #%u (%s): ", site.pass,
			 site.frame, site.function);
		free(site.pass);
		free(site.rerun_pass);
		r->type = site.type;
		r->root = site.root;
		return NULL;
	}
	if (first >= a->nwords)
		return irs_error_format(IRS_ERROR_USAGE, "%s", dump_usage());
	bool named;
	if ((err = expr_type(c, "ir-dump", a, first, &r->expr, &r->type,
			     &named)))
		return err;
	return eval_root(c, "ir-dump", r->expr, r->type, named, &r->root);
}

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
summary(const struct dump_req *r, const struct irs_snapshot *snap,
	double secs, struct irs_buf *out)
{
	struct irs_snapshot_stats st;

	irs_snapshot_get_stats(snap, &st);
	irs_buf_printf(out, "ir-dump: %s%s at 0x%" PRIx64 ": %" PRIu64
		       " node%s, %" PRIu64 " bytes read, %u walk error%s%s, "
		       "hash %s, %.3f s\n", r->where, r->type, r->root,
		       st.nodes, st.nodes == 1 ? "" : "s", st.bytes,
		       st.nerrors,
		       st.nerrors == 1 ? "" : "s",
		       st.truncated ? " (truncated by a limit)" : "", st.hash,
		       secs);
	for (uint32_t i = 0; i < st.nerrors && i < 10; i++)
		irs_buf_printf(out, "  walk error: %s\n",
			       irs_snapshot_error(snap, i));
	if (st.nerrors > 10)
		irs_buf_printf(out, "  ... %u more (see the JSON)\n",
			       st.nerrors - 10);
}

static void
append_file(struct irs_buf *out, const char *path)
{
	char *data;
	size_t len;
	struct irs_error *err = irs_file_read(path, &data, &len);
	if (err) {
		irs_buf_printf(out, "ir-dump: %s\n",
			       irs_error_get_message(err));
		irs_error_destroy(err);
		return;
	}
	irs_buf_append(out, data, len);
	if (len && data[len - 1] != '\n')
		irs_buf_puts(out, "\n");
	free(data);
}

// A private temporary directory under $TMPDIR (or /tmp) and the two
// files a dump writes in it before they are copied where they belong.
struct dump_tmp {
	char dir[4096], text[4200], json[4200];
};

static struct irs_error *
dump_tmp_create(struct dump_tmp *t)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(t->dir, sizeof(t->dir), "%s/irsnap-dump.XXXXXX", tmp);
	if (!mkdtemp(t->dir))
		return irs_error_format(IRS_ERROR_IO, "ir-dump: cannot create "
					"a temporary directory in %s", tmp);
	snprintf(t->text, sizeof(t->text), "%s/dump.ir", t->dir);
	snprintf(t->json, sizeof(t->json), "%s/dump.json", t->dir);
	return NULL;
}

// Removes the files (whichever were written) and the directory.
static void
dump_tmp_remove(const struct dump_tmp *t)
{
	unlink(t->text);
	unlink(t->json);
	rmdir(t->dir);
}

// Prints JSON (and text) without -o: written to a private temporary
// directory, read back, removed.
static struct irs_error *
dump_print_files(struct irs_console *c, struct irs_memory *mem,
		 struct dump_req *r, struct irs_buf *out,
		 struct irs_snapshot **snap_ret)
{
	struct irs_error *err;
	struct dump_tmp t;

	if ((err = dump_tmp_create(&t)))
		return err;
	bool both = !strcmp(r->format, "both");
	err = irs_snapshot_write(c->layout, mem, r->root, r->type, &r->limits,
				 both ? t.text : NULL, t.json, snap_ret);
	if (!err) {
		if (both)
			append_file(out, t.text);
		append_file(out, t.json);
	}
	dump_tmp_remove(&t);
	return err;
}

// Whether -o @p path is written in place: standard output ("-"), or a
// device or FIFO already there (/dev/null, a pipe), which gets the text
// and the JSON one after the other rather than a PATH.json beside it.
static bool
dump_in_place(const char *path)
{
	struct stat st;
	return !strcmp(path, "-") || (stat(path, &st) == 0 &&
				      (S_ISCHR(st.st_mode) ||
				       S_ISFIFO(st.st_mode)));
}

// -f both into one device or FIFO: the two files made in a private
// directory, then copied into it one after the other.
static struct irs_error *
dump_both_in_place(struct irs_console *c, struct irs_memory *mem,
		   struct dump_req *r, struct irs_snapshot **snap_ret)
{
	struct irs_error *err;
	struct irs_atomic_file af;
	struct dump_tmp t;

	if ((err = dump_tmp_create(&t)))
		return err;
	err = irs_snapshot_write(c->layout, mem, r->root, r->type, &r->limits,
				 t.text, t.json, snap_ret);
	if (!err && !(err = irs_atomic_open(&af, r->path))) {
		if ((err = irs_atomic_append_file(&af, t.text, 0)) ||
		    (err = irs_atomic_append_file(&af, t.json, 0)))
			irs_atomic_abort(&af);
		else
			err = irs_atomic_commit(&af);
		if (err) {
			irs_snapshot_destroy(*snap_ret);
			*snap_ret = NULL;
		}
	}
	dump_tmp_remove(&t);
	return err;
}

static struct irs_error *
dump_write(struct irs_console *c, struct irs_memory *mem, struct dump_req *r,
	   struct irs_buf *out, struct irs_snapshot **snap_ret)
{
	struct irs_error *err;

	// -o - is the console: its output goes where the debugger prints.
	if (r->path && !strcmp(r->path, "-"))
		r->path = NULL;
	if (!r->path && !strcmp(r->format, "text")) {
		char *text;
		err = irs_snapshot_text(c->layout, mem, r->root, r->type,
					&r->limits, &text, snap_ret);
		if (err)
			return err;
		irs_buf_puts(out, text);
		if (out->len && out->data[out->len - 1] != '\n')
			irs_buf_puts(out, "\n");	// a cut text
		irs_free(text);
		return NULL;
	}
	if (!r->path)
		return dump_print_files(c, mem, r, out, snap_ret);
	bool both = !strcmp(r->format, "both");
	if (both && dump_in_place(r->path)) {
		err = dump_both_in_place(c, mem, r, snap_ret);
		if (!err)
			irs_buf_printf(out, "ir-dump: wrote %s (text, then "
				       "JSON)\n", r->path);
		return err;
	}
	char *json = NULL;
	const char *text = r->path;
	if (!strcmp(r->format, "json")) {
		text = NULL;
		json = strdup(r->path);
	} else if (both) {
		if (asprintf(&json, "%s.json", r->path) < 0)
			json = NULL;
	}
	if (strcmp(r->format, "text") && !json)
		return &irs_enomem;
	err = irs_snapshot_write(c->layout, mem, r->root, r->type, &r->limits,
				 text, json, snap_ret);
	err = irs_rundir_name_error(err, text, json);	// the path as given
	if (!err)
		irs_buf_printf(out, "ir-dump: wrote %s%s%s\n",
			       text ? text : "", text && json ? " and " : "",
			       json ? json : "");
	free(json);
	return err;
}

struct irs_error *
console_cmd_dump(struct irs_console *c, const struct console_args *a,
		 struct irs_buf *out)
{
	struct irs_error *err;
	struct dump_req r = {0};
	struct irs_memory *mem;
	struct irs_snapshot *snap;
	size_t first = 0;

	if ((err = dump_options(c, a, &r, &first)))
		return err;
	if ((err = console_need_layout(c, "ir-dump")))
		return err;
	if (!r.format)
		r.format = !r.path || !strcmp(r.path, "-") ? "text"
			   : c->set.text && c->set.json ? "both"
			   : c->set.text ? "text" : "json";
	if ((err = dump_target(c, a, first, &r)))
		goto out;
	if ((err = console_memory(c, &mem))) {
		irs_error_prefix(err, "ir-dump");
		goto out;
	}
	double t0 = now();
	// JSON to the console is the JSON alone, so that it pipes into jq
	// (`pipe ir-dump -f json m | jq .`); its stats are in it.
	bool json_only = (!r.path || !strcmp(r.path, "-")) &&
			 !strcmp(r.format, "json");
	if ((err = dump_write(c, mem, &r, out, &snap))) {
		irs_error_prefix(err, "ir-dump");
		goto out;
	}
	if (!json_only)
		summary(&r, snap, now() - t0, out);
	if (!json_only && irs_memory_notice(mem))	// a rebuilt program
		irs_buf_printf(out, "ir-dump: %s\n", irs_memory_notice(mem));
	irs_snapshot_destroy(snap);
out:
	free(r.expr);
	return err;
}

/* }====================================================================
** ir-verify
** ===================================================================== */

struct irs_error *
console_cmd_verify(struct irs_console *c, const struct console_args *a,
		   struct irs_buf *out)
{
	struct irs_error *err;
	struct irs_memory *mem;
	char *expr, *pass = NULL;
	const char *type;
	uint64_t root;
	struct console_verdict v = {0};

	if ((err = console_need_layout(c, "ir-verify")))
		return err;
	if (!irs_layout_nverifiers(c->layout))
		return irs_error_format(IRS_ERROR_STATE,
			"ir-verify: layout '%s' declares no verifier",
			irs_layout_name(c->layout));
	// Errors from finding the IR already name the command.
	if (a->nwords) {
		bool named;
		if ((err = expr_type(c, "ir-verify", a, 0, &expr, &type,
				     &named)))
			return err;
		err = eval_root(c, "ir-verify", expr, type, named, &root);
		free(expr);
		if (err)
			return err;
	} else if ((err = console_current_ir(c, "ir-verify", &pass, &type,
					     &root, NULL))) {
		return err;
	}
	uint32_t failed = c->verify_failed;
	if (!(err = console_memory(c, &mem)))
		err = console_run_verifiers(c, mem, root, type, 0, out, &v);
	// A verifier that could not run (a runaway Lua check) found nothing,
	// which is not the same as the IR being clean.
	if (!err)
		irs_buf_printf(out, "ir-verify: %s%s%s%s at 0x%" PRIx64
			       ": %s\n",
			       pass ? "pass '" : "", pass ? pass : "",
			       pass ? "', " : "", type, root,
			       v.nbad ? "problems found" :
			       c->verify_failed > failed ? "no problem found, "
			       "but a verifier could not run" :
			       "no problem found");
	free(pass);
	console_verdict_deinit(&v);
	return err ? irs_error_prefix(err, "ir-verify") : NULL;
}

/* }====================================================================
** ir-report
** ===================================================================== */

// "SIGSEGV", "segv" or "11".
static struct irs_error *
parse_signal(const char *text, int32_t *signo_ret, const char **name_ret)
{
	static char name[32];
	char *end;
	long n = strtol(text, &end, 10);

	if (*text && !*end && n > 0 && n < NSIG && sigabbrev_np((int)n)) {
		snprintf(name, sizeof(name), "SIG%s", sigabbrev_np((int)n));
		*signo_ret = (int32_t)n;
		*name_ret = name;
		return NULL;
	}
	const char *bare = strncasecmp(text, "SIG", 3) ? text : text + 3;
	for (int i = 1; i < NSIG; i++) {
		const char *abbrev = sigabbrev_np(i);
		if (abbrev && !strcasecmp(abbrev, bare)) {
			snprintf(name, sizeof(name), "SIG%s", abbrev);
			*signo_ret = i;
			*name_ret = name;
			return NULL;
		}
	}
	return irs_error_format(IRS_ERROR_USAGE,
				"ir-report: unknown signal '%s' (like SIGSEGV "
				"or 11)", text);
}

struct irs_error *
console_cmd_report(struct irs_console *c, const struct console_args *a,
		   struct irs_buf *out)
{
	struct irs_error *err;
	struct console_opts o = {"ir-report", console_report_options,
				 console_report_noptions, false, 0};
	struct irs_failure_info info = {.kind = "signal", .signo = c->signo,
					.signame = c->signame};
	struct irs_session *s;
	struct irs_memory *mem;
	char *pass = NULL;
	const char *type;
	int id;
	const char *value;

	for (;;) {
		if ((err = console_opts_next(&o, a, &id, &value, NULL, NULL)))
			return err;
		if (id < 0)
			break;
		if (id == OPT_MESSAGE)
			info.message = value;
		else if ((err = parse_signal(value, &info.signo,
					     &info.signame)))
			return err;
	}
	if (o.next < a->nwords)
		return irs_error_format(IRS_ERROR_USAGE,
			"ir-report: usage: ir-report [--signal SIG] "
			"[--message TEXT]");
	if ((err = console_need_layout(c, "ir-report")))
		return err;
	if (info.signo <= 0)
		return irs_error_format(IRS_ERROR_STATE,
			"ir-report: no fatal signal at this stop (name one: "
			"ir-report --signal SIGSEGV)");
	char *site_rerun = NULL;
	err = console_current_ir(c, "ir-report", &pass, &type, &info.ir_root,
				 &site_rerun);
	if (err && err->code != IRS_ERROR_NOT_FOUND)
		return err;
	if (err) {
		// Still worth a report: signal and backtrace, no pass.
		irs_buf_printf(out, "%s\n", irs_error_get_message(err));
		irs_error_destroy(err);
	}
	info.pass = pass;
	// the rerun's {pass}: the innermost open boundary call's (read at
	// its entry, traced or not); a core has none, and a pass named
	// otherwise than its rerun wants ("" to the session) gives no
	// reduce command rather than a wrong one
	if (c->nevents && c->events[c->nevents - 1].rerun_pass)
		info.rerun_pass = c->events[c->nevents - 1].rerun_pass;
	else if (site_rerun && *site_rerun)
		info.rerun_pass = site_rerun;	// read at the boundary frame
	for (uint32_t i = 0; !info.rerun_pass &&
	     i < irs_layout_nboundaries(c->layout); i++) {
		struct irs_boundary_info bi;
		struct irs_error *e = irs_layout_boundary(c->layout, i, &bi);
		if (!e && bi.rerun_pass_expr)
			info.rerun_pass = "";
		irs_error_destroy(e);
	}
	if (!(err = console_session(c, &s)) && !(err = console_memory(c, &mem)))
		err = irs_session_failure(s, c->t, mem, &info);
	if (!err)
		irs_buf_printf(out, "ir-report: %s%s%s%s: %s/failure.json\n",
			       info.signame ? info.signame : "signal",
			       pass ? " in pass '" : "", pass ? pass : "",
			       pass ? "'" : "", irs_session_dir(s));
	if (!err && irs_memory_notice(mem))
		irs_buf_printf(out, "ir-report: %s\n", irs_memory_notice(mem));
	free(pass);
	free(site_rerun);
	return err ? irs_error_prefix(err, "ir-report") : NULL;
}
