// The ir-* console: state, dispatch, help, completion, ir-layout, ir-status,
// and the helpers the other console files share. See irsnap.h, "Console".
#include <dirent.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "console/console.h"

/* {====================================================================
** Lifecycle
** ===================================================================== */

struct irs_error *
irs_console_create(const struct irs_target *t, struct irs_console **ret)
{
	struct irs_console *c = calloc(1, sizeof(*c));
	if (!c)
		return &irs_enomem;
	c->t = t;
	c->set.text = true;
	c->set.json = true;
	c->set.format_auto = true;
	c->returning.cfa = CONSOLE_NO_CFA;
	c->returning.sp = CONSOLE_NO_SP;
	*ret = c;
	return NULL;
}

void
irs_console_destroy(struct irs_console *c)
{
	if (!c)
		return;
	console_end_session(c, NULL);
	free(c->last_run);
	console_clear_events(c);
	console_clear_after(c);
	console_frontend_deinit(c);
	console_boundaries_deinit(c);
	console_modules_deinit(c);
	free(c->donor_path);
	free(c->machine_exe);
	free(c->events);
	console_filter_deinit(&c->break_filter);
	console_filter_deinit(&c->trace_filter);
	for (size_t i = 0; i < c->npasses; i++)
		free(c->passes[i]);
	free(c->passes);
	for (uint32_t i = 0; i < c->nbreaks; i++)
		free(c->breaks[i]);
	free(c->breaks);
	irs_memory_destroy(c->mem);
	free(c->mem_core);
	irs_layout_destroy(c->layout);
	free(c->layout_path);
	free(c->set.dir);
	free(c->set.debugger);
	free(c->set.args);
	free(c->signame);
	free(c);
}

/* }====================================================================
** Shared helpers
** ===================================================================== */

static bool
same_core(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

struct irs_error *
console_memory(struct irs_console *c, struct irs_memory **ret)
{
	struct irs_error *err;
	const struct irs_target *t = c->t;

	if (c->mem && c->mem_pid == t->pid && same_core(c->mem_core,
							 t->core_path)) {
		// A core file never changes; a process may have run.
		if (!t->core_path || t->pid)
			irs_memory_invalidate(c->mem);
		*ret = c->mem;
		return NULL;
	}
	irs_memory_destroy(c->mem);
	free(c->mem_core);
	c->mem = NULL;
	c->mem_core = NULL;
	struct irs_memory *mem;
	err = irs_memory_create_best(t, &mem);
	if (err)
		return err;
	char *core = t->core_path ? strdup(t->core_path) : NULL;
	if (t->core_path && !core) {
		irs_memory_destroy(mem);
		return &irs_enomem;
	}
	// Read ahead no further than a walk proves to need: a pass's
	// snapshot may be one function of a module, a pass name one string.
	irs_memory_set_ramp(mem, true);
	c->mem = mem;
	c->mem_pid = t->pid;
	c->mem_core = core;
	*ret = mem;
	return NULL;
}

void
console_end_session(struct irs_console *c, const char *why)
{
	if (!c->session)
		return;
	// A run the program goes on past is closed, not "running" for ever.
	// Best effort: a run that cannot say so any more is what a killed
	// debugger leaves.
	if (why)
		irs_error_destroy(irs_session_stop(c->session, why));
	free(c->last_run);
	c->last_run = NULL;
	struct irs_error *err = irs_session_status(c->session, &c->last_run);
	if (err) {
		irs_error_destroy(err);
		c->last_run = NULL;
	}
	irs_session_destroy(c->session);
	c->session = NULL;
	c->ntraced = 0;
	c->ir_broken = false;
	c->run_failure[0] = 0;
	c->gen++;	// open events of the old run lose their session
}

struct irs_error *
console_session(struct irs_console *c, struct irs_session **ret)
{
	struct irs_error *err;

	if (c->session) {
		*ret = c->session;
		return NULL;
	}
	if ((err = console_need_layout(c, "irsnap")))
		return err;
	char *args = console_frontend_args(c);
	int64_t pid = c->t->pid;
	bool args_from_core = false;
	if (!pid && c->t->core_path) {
		// A core: the debugger runs nothing, but the core says which
		// process it was and how it was started.
		char *argv = NULL, *core_args = NULL;
		size_t len = 0;
		struct irs_error *e = irs_mem_core_process(c->t->core_path,
							   &pid, &argv, &len);
		irs_error_destroy(e);
		if (argv)
			core_args = irs_cmdline_args(argv, len);
		free(argv);
		if (core_args && (!args || !*args)) {
			free(args);
			args = core_args;
			args_from_core = true;
		} else {
			free(core_args);
		}
	}
	bool attached = c->t->pid && irs_proc_attached(c->t->pid);
	if (attached && (!args || !*args)) {
		// the debugger knows no arguments of a process it attached to
		free(args);
		args = irs_proc_args(c->t->pid);
	}
	struct irs_session_config cfg = {
		.dir = c->set.dir,
		.debugger = c->set.debugger ? c->set.debugger : "unknown",
		.debuggee = c->t->exe_path,
		.args = args,
		.pid = pid,
		.pid_is_history = !c->t->pid && c->t->core_path,
		.attached = attached,
		.args_from_core = args_from_core,
		.layout_path = c->layout_path,
		.write_text = c->set.text,
		.write_json = c->set.json && !c->set.format_auto,
		.failure_json = c->set.json,
		.changed_only = c->changed_only,
		.limits = c->set.limits,
	};
	err = irs_session_create(&cfg, c->layout, &c->session);
	c->session_core = cfg.pid_is_history;
	free(args);
	if (err)
		return irs_error_prefix(err, "cannot create a run directory");
	free(c->last_run);	// a new run: the last one is history
	c->last_run = NULL;
	*ret = c->session;
	return NULL;
}

struct irs_error *
console_read_cstr(struct irs_memory *mem, uint64_t addr, char **ret)
{
	struct irs_error *err;
	enum { CHUNK = 64, MAX = 4096 };
	struct irs_buf b;

	if (!addr)
		return irs_error_fault(0, "NULL string pointer");
	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	while (b.len < MAX) {
		// Aligned chunks never cross a page, so a string that ends
		// just before an unmapped page still reads.
		char chunk[CHUNK];
		uint64_t n = CHUNK - (addr + b.len) % CHUNK;
		err = irs_memory_read(mem, addr + b.len, chunk, n);
		if (err) {
			irs_buf_deinit(&b);
			return err;
		}
		char *nul = memchr(chunk, 0, n);
		irs_buf_append(&b, chunk, nul ? (size_t)(nul - chunk) : n);
		if (nul)
			break;
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	*ret = irs_buf_steal(&b);
	return NULL;
}

struct irs_error *
console_eval(struct irs_console *c, const char *expr,
	     enum console_eval_how how, uint64_t *ret)
{
	return console_eval_typed(c, expr, how, ret, NULL, 0);
}

struct irs_error *
console_eval_typed(struct irs_console *c, const char *expr,
		   enum console_eval_how how, uint64_t *ret, char *type,
		   size_t type_len)
{
	struct irs_error *err;
	const struct irs_target *t = c->t;

	if (type_len)
		type[0] = 0;
	if (t->eval_value) {
		struct irs_value_facts v;
		memset(&v, 0, sizeof(v));
		// A signal the debuggee gets while it runs our call is the
		// call's (irs_console_stop ignores it).
		c->in_call = how == EVAL_CALL;
		bool read = how == EVAL_READ &&
			    console_framevar_read(c, expr, &v);
		err = read ? NULL :
		      t->eval_value(t->arg, expr, how != EVAL_READ, &v);
		c->in_call = false;
		if (!err && !read && how == EVAL_READ)
			console_framevar_learn(c, expr, &v);
		if (!err)
			err = irs_frontend_value(&v, ret);
		// pointers and structs only: an integer ($rdi, 0x4052a0) has
		// no pointee to check
		if (!err && type_len && (v.kind == IRS_TYPE_POINTER ||
					 v.kind == IRS_TYPE_STRUCT ||
					 v.kind == IRS_TYPE_UNION))
			snprintf(type, type_len, "%.*s",
				 (int)sizeof(v.type_name) - 1, v.type_name);
	} else if (t->eval) {
		err = t->eval(t->arg, expr, ret);
	} else {
		return irs_error_format(IRS_ERROR_TARGET,
			"cannot evaluate '%s': the debugger evaluates no "
			"expressions here", expr);
	}
	if (!err)
		return NULL;
	// An argument optimized away by now (at a return instruction): its
	// value at the entry, as GDB finds it through DW_OP_entry_value.
	if (err->code != IRS_ERROR_NOMEM && how != EVAL_CALL &&
	    console_frontend_entry_arg(c, expr, ret)) {
		irs_error_destroy(err);
		return NULL;
	}
	struct irs_error *wrapped = irs_error_format(
		err->code == IRS_ERROR_NOMEM ? IRS_ERROR_TARGET : err->code,
		"cannot evaluate '%s': %s", expr, irs_error_get_message(err));
	irs_error_destroy(err);
	return wrapped;
}

// Whether the frame eval() uses has a parameter called @p name.
static bool
has_param(const struct irs_target *t, const char *name)
{
	for (uint32_t i = 0; t->arg_value && i < 64; i++) {
		struct irs_value_facts v;
		char got[128];
		memset(&v, 0, sizeof(v));
		got[0] = 0;
		struct irs_error *err = t->arg_value(t->arg, i, got,
						     sizeof(got), &v);
		bool end = err && err->code == IRS_ERROR_NOT_FOUND;
		irs_error_destroy(err);
		if (end)
			return false;
		got[sizeof(got) - 1] = 0;
		if (!strcmp(got, name))
			return true;
	}
	return false;
}

struct irs_error *
console_eval_arg(struct irs_console *c, const struct irs_boundary_info *bi,
		 const char *expr, uint64_t *ret)
{
	char regs[1024];
	struct irs_error *err = console_abi_expr(c, bi->sret, expr, regs,
						 sizeof(regs));
	return err ? err : console_eval(c, regs, EVAL_READ, ret);
}

struct irs_error *
console_eval_ir(struct irs_console *c, const struct irs_boundary_info *bi,
		uint64_t *ret)
{
	if (bi->nir <= 1)
		return console_eval_arg(c, bi, bi->ir_expr, ret);
	for (uint32_t k = 0; k < bi->nir; k++)
		if (has_param(c->t, bi->ir_exprs[k]))
			return console_eval(c, bi->ir_exprs[k], EVAL_READ, ret);
	struct irs_error *first = NULL;
	for (uint32_t k = 0; k < bi->nir; k++) {
		// ($argN too: below the innermost frame, the next one may
		// reach the root through an argument that was saved)
		struct irs_error *err = console_eval_arg(c, bi,
							 bi->ir_exprs[k], ret);
		if (!err) {
			irs_error_destroy(first);
			return NULL;
		}
		if (first)
			irs_error_destroy(err);
		else
			first = err;
	}
	return first;	// the first name's: "cannot evaluate 'fn': ..."
}

// Whether debug info spells @p type as a pointer to characters (a C
// string): "char *", "const char *", "unsigned char *"...
static bool
is_char_pointer(const char *type)
{
	static const char *const quals[] = { "const ", "volatile ",
					     "unsigned ", "signed " };
	bool more = true;
	while (more) {
		more = false;
		for (size_t i = 0; i < ARRAY_SIZE(quals); i++)
			if (!strncmp(type, quals[i], strlen(quals[i]))) {
				type += strlen(quals[i]);
				more = true;
			}
	}
	return !strcmp(type, "char *") || !strcmp(type, "char const *");
}

// The instance label of a C string at @p addr: at most 128 bytes, each
// that does not print as '?', so that it names a file and a line.
static struct irs_error *
label_at(struct irs_console *c, uint64_t addr, char **ret)
{
	struct irs_error *err;
	struct irs_memory *mem;
	char *s;
	if (!addr)
		return (*ret = strdup("(null)")) ? NULL : &irs_enomem;
	if ((err = console_memory(c, &mem)) ||
	    (err = console_read_cstr(mem, addr, &s)))
		return err;
	if (strlen(s) > 128)
		s[128] = '\0';
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	*ret = s;
	return NULL;
}

// "NAME@LABEL" or "NAME#N": @p name, which this takes, and the value of
// @p bi's instance expression (read-only as the pass expression is): a C
// string (the function's name, say) is a label, an integer a number.
static struct irs_error *
name_instance(struct irs_console *c, const struct irs_boundary_info *bi,
	      char *name, char **ret, char **instance_ret)
{
	uint64_t n;
	char type[128];
	char *full, *label = NULL;
	struct irs_error *err = console_eval_typed(c, bi->instance_expr,
						   EVAL_READ, &n, type,
						   sizeof(type));
	bool string = !err && is_char_pointer(type);
	if (string)
		err = label_at(c, n, &label);
	else if (!err && asprintf(&label, "%llu", (unsigned long long)n) < 0)
		err = &irs_enomem;
	if (err) {
		free(name);
		return irs_error_prefix(err, bi->instance_expr);
	}
	int len = asprintf(&full, "%s%c%s", name, string ? '@' : '#', label);
	free(name);
	if (len < 0) {
		free(label);
		return &irs_enomem;
	}
	*ret = full;
	if (instance_ret)
		*instance_ret = label;
	else
		free(label);
	return NULL;
}

// The @p len_expr bytes at @p expr (an llvm::StringRef: no NUL after
// it), as a C string freed with free().
static struct irs_error *
eval_strn(struct irs_console *c, const struct irs_boundary_info *bi,
	  const char *expr, const char *len_expr, char **ret)
{
	struct irs_error *err;
	struct irs_memory *mem;
	uint64_t addr, n;

	if ((err = console_eval_arg(c, bi, expr, &addr)) ||
	    (err = console_eval_arg(c, bi, len_expr, &n)) ||
	    (err = console_memory(c, &mem)))
		return err;
	if (n > 4096)
		return irs_error_format(IRS_ERROR_TARGET, "the name at %s is "
			"%llu bytes long (%s)", expr, (unsigned long long)n,
			len_expr);
	char *s = calloc(1, n + 1);
	if (!s)
		return &irs_enomem;
	if ((err = irs_memory_read(mem, addr, s, n))) {
		free(s);
		return irs_error_prefix(err, expr);
	}
	*ret = s;
	return NULL;
}

struct irs_error *
console_eval_rerun_pass(struct irs_console *c,
			const struct irs_boundary_info *bi, char **ret)
{
	struct irs_error *err;
	char *pass = NULL, *anchor = NULL;

	if (!bi->rerun_pass_expr) {
		*ret = NULL;
		return NULL;
	}
	if ((err = eval_strn(c, bi, bi->rerun_pass_expr,
			     bi->rerun_pass_len_expr, &pass)))
		return err;
	if (bi->rerun_anchor_expr &&
	    (err = eval_strn(c, bi, bi->rerun_anchor_expr,
			     bi->rerun_anchor_len_expr, &anchor))) {
		free(pass);
		return err;
	}
	// the top unit is the one the rerun's input is: the pass runs on
	// it bare; a unit inside it is found by its name
	if (anchor && *anchor && !(bi->rerun_top &&
				   !strcmp(anchor, bi->rerun_top))) {
		char *nested = NULL;
		if (asprintf(&nested, "%s(%s)", anchor, pass) < 0)
			nested = NULL;
		free(pass);
		pass = nested;
	}
	free(anchor);
	if (!pass)
		return &irs_enomem;
	*ret = pass;
	return NULL;
}

struct irs_error *
console_eval_pass(struct irs_console *c, const struct irs_boundary_info *bi,
		  char **ret, char **instance_ret)
{
	struct irs_error *err;
	struct irs_memory *mem;
	uint64_t addr;
	char *pass;

	if (bi->pass_name) {
		if (!(pass = strdup(bi->pass_name)))
			return &irs_enomem;
	} else if (bi->pass_len_expr) {
		if ((err = eval_strn(c, bi, bi->pass_expr, bi->pass_len_expr,
				     &pass)))
			return err;
	} else {
		if ((err = console_eval_arg(c, bi, bi->pass_expr, &addr)))
			return err;
		if ((err = console_memory(c, &mem)))
			return err;
		if ((err = console_read_cstr(mem, addr, &pass)))
			return irs_error_prefix(err, bi->pass_expr);
	}
	if (bi->instance_expr)
		return name_instance(c, bi, pass, ret, instance_ret);
	*ret = pass;
	return NULL;
}

struct irs_error *
console_need_layout(const struct irs_console *c, const char *cmd)
{
	if (c->layout)
		return NULL;
	return irs_error_format(IRS_ERROR_STATE, "%s: no layout loaded "
				"(ir-layout load FILE.lua)", cmd);
}

void
console_note_pass(struct irs_console *c, const char *pass)
{
	for (size_t i = 0; i < c->npasses; i++)
		if (!strcmp(c->passes[i], pass))
			return;
	if (c->npasses >= 4096)
		return;		// completion only; a bound keeps this linear
	char **p = realloc(c->passes, (c->npasses + 1) * sizeof(*p));
	if (!p)
		return;
	c->passes = p;
	if ((p[c->npasses] = strdup(pass)))
		c->npasses++;
}

/* }====================================================================
** Finding the boundary in the backtrace
** ===================================================================== */

// The root's own argument, once the root is known otherwise below the
// innermost frame: `ir = "$argN"` says $argN is the root, so that the
// boundary's other expressions (a rerun's anchor) read it.
static void
root_arg(struct irs_console *c, const struct irs_boundary_info *bi,
	 uint64_t root)
{
	unsigned k;
	int end = 0;
	if (c->saved_args && sscanf(bi->ir_expr, "$arg%u%n", &k, &end) == 1 &&
	    !bi->ir_expr[end] && k < 8) {
		c->saved[k] = root;
		c->saved_mask |= 1u << k;
	}
}

// Evaluates the pass name, IR root and rerun name of boundary @p bi in
// the selected frame. *pass_ret and *rerun_ret (NULL when the boundary
// names none) freed with free().
static struct irs_error *
site_eval(struct irs_console *c, const struct irs_boundary_info *bi,
	  uint32_t frame, char **pass_ret, uint64_t *root_ret,
	  char **rerun_ret)
{
	struct irs_error *err;
	uint64_t root = 0;
	char *pass, *rerun = NULL;
	char where[32];

	// Below the innermost frame the argument registers are the callees'
	// by the ABI (a release build's root in %rdx is long gone): where the
	// layout says how to tell a root, look where it was saved first; a
	// pass that names itself through an argument (MLIR's) is looked for
	// the same way, and the layout's next `ir` may reach the root from it.
	console_saved_args_begin(c, bi, frame);
	const struct lbcheck *ck = irs_layout_boundary_check(c->layout,
							     bi->index);
	bool searched = false;
	if (frame > 0 && ck && ck->n) {
		struct irs_error *e = console_root_search(c, bi->index, &root,
							  where,
							  sizeof(where));
		searched = !e;
		irs_error_destroy(e);
	}
	if (!searched) {
		if ((err = console_eval_ir(c, bi, &root)))
			goto out;
		if (ck && ck->n && !console_root_plausible(c, bi->index,
							   root)) {
			err = irs_error_format(IRS_ERROR_NOT_FOUND, "the IR "
				"root %s gives here, 0x%llx, fails the "
				"boundary's check, and %s", bi->ir_expr,
				(unsigned long long)root, frame ? "no saved "
				"register or stack word passes it" : "the "
				"frame is the innermost");
			goto out;
		}
	} else if (irs_debug('S')) {
		fprintf(stderr, "irsnap: IR root 0x%llx from %s of frame %u\n",
			(unsigned long long)root, where, frame);
	}
	root_arg(c, bi, root);
	if ((err = console_eval_pass(c, bi, &pass, NULL)))
		goto out;
	// (below the innermost frame, only through a saved argument: the
	// argument registers there would name a pass at random)
	if (rerun_ret && bi->rerun_pass_expr && (!frame || c->saved_args)) {
		// a name it cannot read is no reduce command, not no report
		struct irs_error *e = console_eval_rerun_pass(c, bi, &rerun);
		irs_error_destroy(e);
	}
	*pass_ret = pass;
	*root_ret = root;
	if (rerun_ret)
		*rerun_ret = rerun;
out:
	console_saved_args_end(c);
	return err;
}

struct irs_error *
console_find_site(struct irs_console *c, const char *cmd,
		  struct console_site *ret)
{
	struct irs_error *err;
	const struct irs_target *t = c->t;
	struct irs_frame_info fi;
	struct irs_boundary_info bi;
	uint32_t i;

	if ((err = console_need_layout(c, cmd)))
		return err;
	if (!t->frame || !t->select_frame)
		return irs_error_format(IRS_ERROR_TARGET,
			"%s: the debugger gives no backtrace here", cmd);
	for (i = 0;; i++) {
		if (i == 100000 || (err = t->frame(t->arg, i, &fi))) {
			if (err && err->code != IRS_ERROR_NOT_FOUND)
				return irs_error_prefix(err, cmd);
			irs_error_destroy(err);
			// A short backtrace on a core is often a core cut
			// short: its stack was never written. Say so.
			char *cut = t->core_path ?
				irs_mem_core_truncation(t->core_path) : NULL;
			err = irs_error_format(IRS_ERROR_NOT_FOUND,
				"%s: no pass boundary of layout '%s' in the "
				"backtrace (%u frames)%s%s", cmd,
				irs_layout_name(c->layout), i,
				cut ? ": " : "", cut ? cut : "");
			free(cut);
			return err;
		}
		fi.function[sizeof(fi.function) - 1] = 0;
		if (console_boundary_of(c, fi.function, &bi))
			break;
		if (!strcmp(fi.function, "main"))	// as failure.c's
			return irs_error_format(IRS_ERROR_NOT_FOUND,
				"%s: no pass boundary of layout '%s' in the "
				"backtrace (%u frames)", cmd,
				irs_layout_name(c->layout), i + 1);
	}
	c->stop.valid = false;	// framevar.c's recipes read frame 0
	if ((err = t->select_frame(t->arg, i)))
		return irs_error_prefix(err, cmd);
	ret->frame = i;
	snprintf(ret->function, sizeof(ret->function), "%s", fi.function);
	ret->type = (char *)(bi.ir_type ? bi.ir_type :
			     irs_layout_root_type(c->layout));
	ret->rerun_pass = NULL;
	err = site_eval(c, &bi, i, &ret->pass, &ret->root, &ret->rerun_pass);
	struct irs_error *back = t->select_frame(t->arg, 0);
	irs_error_destroy(back);	// frame 0 always exists
	if (err)
		return irs_error_prefix(err, cmd);
	return NULL;
}

const struct console_event *
console_stopped_event(const struct irs_console *c)
{
	if (c->has_after)
		return &c->after;
	if (c->nevents && c->events[c->nevents - 1].root)
		return &c->events[c->nevents - 1];
	return NULL;
}

struct irs_error *
console_current_ir(struct irs_console *c, const char *cmd, char **pass_ret,
		   const char **type_ret, uint64_t *root_ret, char **rerun_ret)
{
	struct irs_error *err;

	if (rerun_ret)
		*rerun_ret = NULL;
	const struct console_event *ev = console_stopped_event(c);
	if (ev) {
		char *pass = strdup(ev->pass ? ev->pass : "?");
		if (!pass)
			return &irs_enomem;
		*pass_ret = pass;
		// The event's copy of the type name may outlive a layout
		// reload; hand out the layout's own spelling when it has one.
		*type_ret = ev->type;
		for (uint32_t i = 0; i < irs_layout_ntypes(c->layout); i++)
			if (!strcmp(irs_layout_type_name(c->layout, i),
				    ev->type))
				*type_ret = irs_layout_type_name(c->layout, i);
		*root_ret = ev->root;
		return NULL;
	}
	struct console_site site;
	if ((err = console_find_site(c, cmd, &site)))
		return err;
	*pass_ret = site.pass;
	*type_ret = site.type;
	*root_ret = site.root;
	if (rerun_ret)
		*rerun_ret = site.rerun_pass;
	else
		free(site.rerun_pass);
	return NULL;
}

/* }====================================================================
** ir-layout, ir-status
** ===================================================================== */

void
console_list_names(struct irs_buf *out, const char *const *names,
		   uint32_t total)
{
	uint32_t shown = total > CONSOLE_LIST_MAX ? CONSOLE_LIST_MAX : total;
	for (uint32_t i = 0; i < shown; i++)
		irs_buf_printf(out, "%s%s", i ? ", " : "", names[i]);
	if (shown < total)
		irs_buf_printf(out, " and %u more", total - shown);
}

static void
describe_layout(const struct irs_console *c, struct irs_buf *out)
{
	const struct irs_layout *lo = c->layout;
	uint32_t nb = irs_layout_nboundaries(lo), n = 0;
	const char *names[CONSOLE_LIST_MAX];
	char matching[CONSOLE_LIST_MAX][128];

	irs_buf_printf(out, "layout '%s' (%s): %u types, root %s",
		       irs_layout_name(lo), c->layout_path,
		       irs_layout_ntypes(lo), irs_layout_root_type(lo));
	for (uint32_t i = 0; i < nb && n < CONSOLE_LIST_MAX; i++) {
		struct irs_boundary_info bi;
		struct irs_error *err = irs_layout_boundary(lo, i, &bi);
		if (!err && bi.match) {
			snprintf(matching[n], sizeof matching[n],
				 "functions matching /%.*s/",
				 (int)sizeof matching[n] - 24, bi.match);
			names[n] = matching[n];
		} else {
			names[n] = err ? "?" : bi.function;
		}
		n++;
		irs_error_destroy(err);
	}
	if (nb) {
		irs_buf_printf(out, ", boundar%s: ", nb == 1 ? "y" : "ies");
		console_list_names(out, names, nb);
		if (nb > CONSOLE_LIST_MAX)
			irs_buf_puts(out, " (ir-layout show lists them)");
	}
	irs_buf_printf(out, ", %u verifiers\n", irs_layout_nverifiers(lo));
}

// The value the type donor recorded for @p fact (an enumerator of its
// enum irsnap_donor_facts).
static bool
donor_fact(struct irs_console *c, const char *fact, int64_t *ret)
{
	for (uint32_t i = 0; c->lt.enumerator && i < 4096; i++) {
		char name[128];
		struct irs_error *err = c->lt.enumerator(
			c->lt.arg, "irsnap_donor_facts", i, name, sizeof(name),
			ret);
		if (err) {
			irs_error_destroy(err);
			return false;
		}
		const char *bare = strrchr(name, ':');
		if (!strcmp(bare ? bare + 1 : name, fact))
			return true;
	}
	return false;
}

// A donor built against other headers than the debuggee's library (another
// LLVM, another LLVM_ENABLE_ABI_BREAKING_CHECKS) lays out some classes
// differently: it is refused, in one line naming both. A fact the
// debuggee does not tell (no such library or symbol loaded or needed) is
// not checked.
static struct irs_error *
check_fits(struct irs_console *c, const struct irs_layout *lo)
{
	const char *obj;
	const struct irs_donor_spec *d = irs_layout_donor(lo, &obj);
	if (!d || !d->nfits)
		return NULL;
	console_modules_refresh(c);
	for (uint32_t i = 0; i < d->nfits; i++) {
		const struct irs_donor_fit *f = &d->fits[i];
		int64_t want, have;
		char why[400] = "";
		if (!donor_fact(c, f->fact, &want))
			return irs_error_format(IRS_ERROR_LAYOUT, "ir-layout: "
				"the type donor %s records no fact '%s' (enum "
				"irsnap_donor_facts): rebuild it with `irsnap "
				"donor %s`", obj, f->fact, d->layout_file);
		if (*f->library) {
			regex_t re;
			char cap[64];
			if (regcomp(&re, f->library, REG_EXTENDED))
				return irs_error_format(IRS_ERROR_LAYOUT,
					"ir-layout: donor fits: bad library "
					"pattern '%s'", f->library);
			const char *lib = console_modules_library(c, &re, cap,
								  sizeof(cap));
			regfree(&re);
			if (!lib)
				continue;
			have = strtoll(cap, NULL, 10);
			snprintf(why, sizeof(why), "%s says %lld", lib,
				 (long long)have);
		} else {
			const char *lib = console_modules_symbol(c, f->symbol);
			if (!lib)
				continue;
			have = f->value;
			snprintf(why, sizeof(why), "%s has %lld (it defines "
				 "%s)", lib, (long long)have, f->symbol);
		}
		if (have != want)
			return irs_error_format(IRS_ERROR_LAYOUT, "ir-layout: "
				"the type donor of layout '%s' does not fit "
				"the debuggee: it was built with %s %lld (%s) "
				"and %s: build it against the debuggee's "
				"headers with `irsnap donor %s`",
				d->layout_name, f->fact, (long long)want, obj,
				why, d->layout_file);
	}
	return NULL;
}

static struct irs_error *
layout_load(struct irs_console *c, const char *path, struct irs_buf *out)
{
	struct irs_error *err;
	struct irs_layout *lo;

	console_frontend_init(c);	// what the target answers, now
	err = irs_layout_load(path, &c->lt, &lo);
	if (err) {
		// Layout errors already read "FILE:LINE: message".
		if (strncmp(irs_error_get_message(err), path, strlen(path)))
			irs_error_prefix(err, "ir-layout");
		return err;
	}
	if ((err = check_fits(c, lo))) {
		irs_layout_destroy(lo);
		return err;
	}
	char *abs = realpath(path, NULL);
	if (!abs && !(abs = strdup(path))) {
		irs_layout_destroy(lo);
		return &irs_enomem;
	}
	// the run borrowed the old layout
	console_end_session(c, "a layout was loaded (ir-layout load)");
	irs_layout_destroy(c->layout);
	free(c->layout_path);
	c->layout = lo;
	c->layout_path = abs;
	if ((err = console_boundaries_init(c)) ||
	    (err = console_update_breaks(c)))
		return err;
	irs_buf_puts(out, "irsnap: loaded ");
	describe_layout(c, out);
	return NULL;
}

static void
list_match(void *arg, const char *function)
{
	irs_buf_printf(arg, "  %s\n", function);
}

// The functions each match = RE finds in the debuggee's modules now.
static void
show_matches(struct irs_console *c, struct irs_buf *out)
{
	if (!c->nmatches)
		return;
	console_modules_refresh(c);
	for (size_t i = 0; i < c->nmatches; i++) {
		struct irs_boundary_info bi;
		struct irs_error *err = irs_layout_boundary(
			c->layout, c->matches[i].boundary, &bi);
		if (err) {
			irs_error_destroy(err);
			continue;
		}
		struct irs_buf list;
		irs_buf_init(&list);
		irs_buf_puts(&list, "");
		uint32_t n = console_modules_functions(c, &c->matches[i].re,
						       list_match, &list);
		irs_buf_printf(out, "functions matching /%s/ in the debuggee's "
			       "modules: %u%s\n%s", bi.match, n,
			       n ? "" : " (none loaded yet, or none "
			       "matches)", list.data ? list.data : "");
		irs_buf_deinit(&list);
	}
}

static struct irs_error *
cmd_layout(struct irs_console *c, const struct console_args *a,
	   struct irs_buf *out)
{
	struct irs_error *err;
	const char *sub = a->nwords ? a->words[0].text : "";

	if (!strcmp(sub, "load")) {
		if (a->nwords != 2)
			return irs_error_format(IRS_ERROR_USAGE,
				"ir-layout: usage: ir-layout load FILE.lua");
		return layout_load(c, a->words[1].text, out);
	}
	if (!strcmp(sub, "show")) {
		if (a->nwords != 1)
			return irs_error_format(IRS_ERROR_USAGE,
				"ir-layout: usage: ir-layout show");
		if ((err = console_need_layout(c, "ir-layout")))
			return err;
		char *text;
		if ((err = irs_layout_describe(c->layout, &text)))
			return irs_error_prefix(err, "ir-layout");
		irs_buf_puts(out, text);
		irs_free(text);
		show_matches(c, out);
		return NULL;
	}
	return irs_error_format(IRS_ERROR_USAGE,
		"ir-layout: expected 'load FILE.lua' or 'show', not '%s'", sub);
}

static void
status_requests(const struct irs_console *c, struct irs_buf *out)
{
	if (c->trace_on) {
		irs_buf_puts(out, "trace: ");
		console_filter_say(&c->trace_filter, out);
		irs_buf_printf(out, "%s%s%s\n",
			       c->changed_only ? " --changed-only" : "",
			       c->verify ? " --verify" : "",
			       c->stop_on_verify ? " --stop-on-verify" : "");
	} else {
		irs_buf_puts(out, "trace: off\n");
	}
	if (c->break_on) {
		irs_buf_printf(out, "break: %s ", c->break_before &&
			       c->break_after ? "before and after" :
			       c->break_before ? "before" : "after");
		console_filter_say(&c->break_filter, out);
		irs_buf_puts(out, "\n");
	} else {
		irs_buf_puts(out, "break: off\n");
	}
	for (uint32_t i = 0; i < c->nbreaks; i++)
		irs_buf_printf(out, "%s%s", i ? ", " : "breakpoints at: ",
			       c->breaks[i]);
	if (c->nbreaks) {
		console_frontend_say_lost(c, out);
		irs_buf_puts(out, "\n");
	}
}

// ir-status --check: an error, the one line a script's exit status
// shows, when the program died of a fatal signal while traced, an ir-*
// command failed, or a pass broke the IR (--verify), in this session.
static struct irs_error *
status_check(const struct irs_console *c)
{
	if (c->check.signo && c->check.died_broken)
		return irs_error_format(IRS_ERROR_STATE, "ir-status: a "
			"verifier failed: %s; the program then died: %s",
			c->check.broken, c->check.what);
	if (c->check.signo)
		return irs_error_format(IRS_ERROR_STATE, "ir-status: the "
			"program died: %s", c->check.what);
	if (c->check.nerrors)
		return irs_error_format(IRS_ERROR_STATE, "ir-status: %u "
			"irsnap command%s failed, the first: %s",
			c->check.nerrors, c->check.nerrors == 1 ? "" : "s",
			c->check.first_error);
	if (c->check.nbroken)
		return irs_error_format(IRS_ERROR_STATE, "ir-status: a "
			"verifier failed: %s", c->check.broken);
	return NULL;
}

int32_t
irs_console_exit_status(const struct irs_console *c)
{
	if (c->check.signo)
		return 128 + c->check.signo;
	return c->check.nerrors ? 1 : 0;
}

int32_t
irs_console_batch_exit(const struct irs_console *c, int32_t debugger_status)
{
	int32_t status = c ? irs_console_exit_status(c) : 0;
	if (status <= 128 && !(status && debugger_status == 0))
		return 0;
	fflush(NULL);
	return status;
}

static struct irs_error *
cmd_status(struct irs_console *c, const struct console_args *a,
	   struct irs_buf *out)
{
	struct irs_error *err;

	bool check = a->nwords == 1 && !strcmp(a->words[0].text, "--check");
	if (a->nwords && !check)
		return irs_error_format(IRS_ERROR_USAGE,
			"ir-status: usage: ir-status [--check]");
	if (c->layout)
		describe_layout(c, out);
	else
		irs_buf_puts(out, "layout: none (ir-layout load FILE.lua)\n");
	status_requests(c, out);
	console_framevar_status(c, out);
	for (size_t i = c->nevents; i-- > 0;)
		irs_buf_printf(out, "open pass: %s (IR %s at 0x%llx)\n",
			       c->events[i].pass ? c->events[i].pass : "?",
			       c->events[i].type,
			       (unsigned long long)c->events[i].root);
	if (!c->session) {
		char *dir;
		if ((err = irs_console_get(c, "dir", &dir)))
			return err;
		if (c->last_run)	// names its run directory first
			irs_buf_printf(out, "last run, ended (the next traced "
				       "pass starts a new one under %s):\n%s",
				       dir, c->last_run);
		else
			irs_buf_printf(out, "run directory: none yet (the "
				       "first traced pass creates one under "
				       "%s)\n", dir);
		irs_free(dir);
	} else {
		char *text;
		if ((err = irs_session_status(c->session, &text)))
			return irs_error_prefix(err, "ir-status");
		irs_buf_puts(out, text);	// names the run directory first
		irs_free(text);
	}
	return check ? status_check(c) : NULL;
}

/* }====================================================================
** Commands: table, dispatch, help, completion
** ===================================================================== */

typedef struct irs_error *(*command_fn)(struct irs_console *,
					const struct console_args *,
					struct irs_buf *);

static const struct command {
	const char *name;
	command_fn run;
	const char *help;
} commands[] = {
	{"ir-layout", cmd_layout,
	 "Load an irsnap layout (Lua) or show the loaded one.\n"
	 "Usage: ir-layout load FILE.lua | ir-layout show\n"
	 "A layout says how the compiler's IR lies in memory, how to print\n"
	 "it, where the pass boundaries are and what to verify. A bad layout\n"
	 "gives FILE:LINE: message and keeps the previous layout. 'show'\n"
	 "lists the types with their resolved sizes and offsets, the\n"
	 "boundaries (and the functions a pattern finds) and the verifiers.\n"
	 "A layout for a release build names a type donor: build it first\n"
	 "with `irsnap donor FILE.lua`; load never compiles it, and says so\n"
	 "when it is missing, stale or built against other headers.\n"
	 "Example: ir-layout load tests/fixtures/toyc/toyc.lua"},
	{"ir-dump", console_cmd_dump,
	 "Snapshot the IR rooted at an expression.\n"
	 "Usage: ir-dump [-f|--format text|json|both] [-o|--output PATH]\n"
	 "               [--max-nodes N] [--max-bytes N] [--max-depth N]\n"
	 "               EXPR [TYPE]\n"
	 "       ir-dump [options] --boundary\n"
	 "EXPR is any debuggee expression (m, pm->module, $rdi,\n"
	 "'(Module *)0x4051a0'); TYPE is a layout type (default: the layout's\n"
	 "root type). Without -o the text is printed. With -o, -f text or\n"
	 "-f json writes PATH; -f both writes the text to PATH and the JSON\n"
	 "to PATH.json (the default is the 'format' setting; auto: both).\n"
	 "--max-nodes, --max-bytes and --max-depth bound this walk as the\n"
	 "settings of the same names do (K, M, G suffixes).\n"
	 "A file is replaced atomically (a symbolic link: the file it names);\n"
	 "a device or FIFO (/dev/null, a pipe) is written in place, -f both\n"
	 "the text then the JSON into it; -o - prints, as without -o.\n"
	 "--boundary dumps the IR of the innermost pass boundary in the\n"
	 "backtrace (works on a core file). A summary line ends the output:\n"
	 "nodes, bytes read, walk errors, content hash.\n"
	 "Example: ir-dump -o /tmp/m.ir -f both m Module"},
	{"ir-break", console_cmd_break,
	 "Stop at pass boundaries.\n"
	 "Usage: ir-break [--before|--after|--both] [PASS-REGEX] [--exact]\n"
	 "                [--instance REGEX]\n"
	 "       ir-break off\n"
	 "Stops before (the default), after, or both around every pass whose\n"
	 "name matches the POSIX extended regex; without one, at every pass\n"
	 "(ir-break alone stops before each pass, and says so). The\n"
	 "regex is searched in the name, as GDB's rbreak does: 'cse' also\n"
	 "stops at 'cse2'; --exact matches the whole name ('^(cse)$'),\n"
	 "without its instance. --instance picks the runs whose instance (a\n"
	 "boundary's `instance`: the function a pass runs on, 'main' of\n"
	 "'ssa@main') the regex is found in. A new ir-break replaces the\n"
	 "previous one.\n"
	 "Example: ir-break --after '^(cse|dce)$'\n"
	 "         ir-break ssa --exact --instance '^main$'"},
	{"ir-trace", console_cmd_trace,
	 "Record before/after snapshots at every matching pass boundary.\n"
	 "Usage: ir-trace on [PASS-REGEX] [--exact] [--instance REGEX]\n"
	 "                   [--changed-only] [--verify] [--stop-on-verify]\n"
	 "       ir-trace off\n"
	 "From then on the debugger's own run/continue records, without\n"
	 "stopping, a before and an after snapshot of each matching pass,\n"
	 "(the regex is searched in the pass name: 'cse' matches 'cse2';\n"
	 "--exact takes the whole name, its instance left out; --instance\n"
	 "picks the runs whose instance label it is found in: 'main' of\n"
	 "'ssa@main'),\n"
	 "its CPU time, and with --verify the layout's verifiers after it, in\n"
	 "a run directory under the 'dir' setting (made at the first pass).\n"
	 "--changed-only skips an after snapshot identical to its before one.\n"
	 "The first pass whose output fails a verifier gets failure.json (a\n"
	 "verifier failure, reducible with the verifier's offline check);\n"
	 "--stop-on-verify also stops after it. A fatal signal writes\n"
	 "failure.json.\n"
	 "The files follow the 'format' setting: auto (the default) writes\n"
	 "the text, and the JSON graph only of a failing pass's input and of\n"
	 "the crash; both writes the graph of every snapshot. Each event is a\n"
	 "line of the run's events.jsonl as it happens. ir-trace says how\n"
	 "many functions it breaks on and names the first few; ir-status and\n"
	 "the debugger's breakpoint list name them all (GDB: set verbose on\n"
	 "shows each as it is set). A run ends with the program, or when a\n"
	 "layout is loaded, a setting changes or ir-trace on takes other\n"
	 "options: it then says 'stopped' and why.\n"
	 "Example: ir-trace on 'cse|dce' --verify"},
	{"ir-verify", console_cmd_verify,
	 "Run the layout's verifiers on the IR now.\n"
	 "Usage: ir-verify [EXPR [TYPE]]\n"
	 "Without EXPR: the IR of the pass the debuggee is stopped in (the\n"
	 "innermost pass boundary). Lua verifiers run everywhere; verifiers\n"
	 "that call into the debuggee need a live process.\n"
	 "Example: ir-verify m"},
	{"ir-report", console_cmd_report,
	 "Write failure.json for the current stop (live or core file).\n"
	 "Usage: ir-report [--signal SIG] [--message TEXT]\n"
	 "Records the signal (default: the last fatal signal the debuggee\n"
	 "got, or the core file's), the pass of the innermost boundary in the\n"
	 "backtrace, the backtrace, the snapshots and a ready reduce command.\n"
	 "Example: ir-report --signal SIGSEGV"},
	{"ir-status", cmd_status,
	 "Show irsnap's state.\n"
	 "Usage: ir-status [--check]\n"
	 "The layout, trace and break requests, the run directory and the\n"
	 "passes recorded so far with their timings; once the run ended (the\n"
	 "program exited), that run, until the next traced pass starts a new\n"
	 "one. With --check it also\n"
	 "fails, so that a batch script's exit status shows it, when the\n"
	 "program died of a fatal signal while traced, an ir-* command\n"
	 "failed, or a pass broke the IR (--verify) in this session.\n"
	 "Example: ir-status --check"},
	{"ir-set", console_cmd_set,
	 "Change or show an irsnap setting.\n"
	 "Usage: ir-set [KEY [VALUE]]\n"
	 "Settings: dir (run directories; default $IRSNAP_DIR or\n"
	 "./irsnap-out), max-nodes, max-bytes, max-depth, max-text (walk and\n"
	 "text limits; counts take K, M, G suffixes), format (auto, text,\n"
	 "json or both), call-timeout (seconds a call verifier may run in\n"
	 "the debuggee; 0: no limit). A change starts a new run directory at\n"
	 "the next traced pass. Without VALUE: show.\n"
	 "Example: ir-set max-nodes 2M"},
};

static const char *const command_names[] = {
	"ir-layout", "ir-dump", "ir-break", "ir-trace", "ir-verify",
	"ir-report", "ir-status", "ir-set", NULL,
};

const char *const *
irs_console_commands(void)
{
	return command_names;
}

static const struct command *
find_command(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

const char *
irs_console_help(const char *name)
{
	const struct command *cmd = find_command(name);
	return cmd ? cmd->help : NULL;
}

char *
irs_console_help_part(const char *name, const char *part)
{
	const char *text = irs_console_help(name);
	struct irs_buf b;
	bool first = true, in_usage = false;

	if (!text || !part)
		return NULL;
	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		bool usage = !strncmp(line, "Usage: ", 7) ||
			     (in_usage && line[0] == ' ');
		const char *want = first ? "brief" : usage ? "usage" : "long";
		in_usage = !strcmp(want, "usage");
		if (!strcmp(want, part)) {
			bool lead = !first && !strncmp(line, "Usage: ", 7);
			if (in_usage && b.len)
				irs_buf_puts(&b, "\n");
			irs_buf_append(&b, line + (lead ? 7 : 0),
				       len - (lead ? 7 : 0));
			if (!strcmp(want, "long"))
				irs_buf_puts(&b, "\n");
		}
		first = false;
		line += len + (line[len] == '\n');
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

char *
console_printable(char *text)
{
	if (!text)
		return NULL;
	char *shown = irs_printable(text, true);
	free(text);
	return shown;
}

struct irs_error *
irs_console_command(struct irs_console *c, const char *name, const char *args,
		    char **out_ret)
{
	struct irs_error *err;
	struct console_args a;
	struct irs_buf out;

	const struct command *cmd = find_command(name);
	if (!cmd)
		return irs_error_format(IRS_ERROR_USAGE,
					"irsnap: unknown command '%s'",
					name ? name : "");
	if ((err = console_args_split(name, args, &a)))
		return err;
	irs_buf_init(&out);
	irs_buf_puts(&out, "");
	char *note = irs_console_note(c);	// not said yet: said first
	if (note)
		irs_buf_puts(&out, note);
	irs_free(note);
	console_frontend_refresh(c, &out);
	err = cmd->run(c, &a, &out);
	console_args_deinit(&a);
	if (err && strcmp(name, "ir-status")) {
		// ir-status --check reports the others; it is not one
		if (!c->check.nerrors++)
			snprintf(c->check.first_error,
				 sizeof(c->check.first_error), "%s",
				 irs_error_get_message(err));
	}
	// ir-break, ir-trace and ir-layout change the functions to break on.
	console_frontend_sync(c, &out);
	if (!err && out.oom)
		err = &irs_enomem;
	if (err) {
		irs_buf_deinit(&out);
		return err;
	}
	*out_ret = console_printable(irs_buf_steal(&out));
	if (!*out_ret)
		return &irs_enomem;
	return NULL;
}

static void
complete_words(const char *const *words, const char *prefix,
	       struct irs_buf *b)
{
	size_t len = strlen(prefix);
	for (; *words; words++)
		if (!strncmp(*words, prefix, len))
			irs_buf_printf(b, "%s\n", *words);
}

static void
complete_passes(const struct irs_console *c, const char *prefix,
		struct irs_buf *b)
{
	size_t len = strlen(prefix);
	for (size_t i = 0; i < c->npasses; i++)
		if (!strncmp(c->passes[i], prefix, len))
			irs_buf_printf(b, "%s\n", c->passes[i]);
}

static void
complete_types(const struct irs_console *c, const char *prefix,
	       struct irs_buf *b)
{
	size_t len = strlen(prefix);
	uint32_t n = c->layout ? irs_layout_ntypes(c->layout) : 0;
	for (uint32_t i = 0; i < n; i++) {
		const char *t = irs_layout_type_name(c->layout, i);
		if (!strncmp(t, prefix, len))
			irs_buf_printf(b, "%s\n", t);
	}
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

// The files starting with @p prefix, sorted, a directory's with a '/', as
// a shell completes them: "~" is the home directory, and hidden files show
// only when the name typed starts with a '.'. The debugger's own file
// completer would see the whole argument string, not the last word.
static void
complete_files(const char *prefix, struct irs_buf *b)
{
	struct irs_buf path;	// @p prefix with "~" or "~user" expanded
	irs_buf_init(&path);
	const char *rest = prefix;
	if (*prefix == '~') {
		rest = prefix + 1 + strcspn(prefix + 1, "/");
		char *user = strndup(prefix + 1, (size_t)(rest - prefix - 1));
		struct passwd *pw = user && *user ? getpwnam(user) : NULL;
		const char *home = user && !*user ? getenv("HOME") : pw ?
				   pw->pw_dir : NULL;
		free(user);
		if (!home)
			rest = prefix;	// left as typed, as Python does
		irs_buf_puts(&path, home ? home : "");
	}
	irs_buf_puts(&path, rest);
	if (path.oom)
		return;
	const char *slash = strrchr(path.data, '/');
	const char *base = slash ? slash + 1 : path.data;
	size_t nbase = strlen(base);
	char *dir = slash ? strndup(path.data, (size_t)(slash - path.data) +
				    1) : strdup(".");
	DIR *d = dir ? opendir(dir) : NULL;
	char **names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (strncmp(e->d_name, base, nbase) || (e->d_name[0] == '.' &&
		    base[0] != '.') || !strcmp(e->d_name, ".") ||
		    !strcmp(e->d_name, ".."))
			continue;
		char *name = strdup(e->d_name);
		if (!name || !irs_grow((char **)&names, &cap,
				       (n + 1) * sizeof(*names))) {
			free(name);
			b->oom = true;
			break;
		}
		names[n++] = name;
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		char *full = NULL;
		bool isdir = asprintf(&full, "%s%s", slash ? dir : "",
				      names[i]) >= 0 && !stat(full, &st) &&
			     S_ISDIR(st.st_mode);
		irs_buf_printf(b, "%s%s%s\n", prefix, names[i] + nbase,
			       isdir ? "/" : "");
		free(full);
		free(names[i]);
	}
	free(names);
	free(dir);
	irs_buf_deinit(&path);
}

static void
command_options(const char *name, const struct console_option **ret,
		size_t *nret)
{
	*ret = NULL;
	*nret = 0;
	if (!name)
		return;
	if (!strcmp(name, "ir-dump"))
		*ret = console_dump_options, *nret = console_dump_noptions;
	else if (!strcmp(name, "ir-break"))
		*ret = console_break_options, *nret = console_break_noptions;
	else if (!strcmp(name, "ir-trace"))
		*ret = console_trace_options, *nret = console_trace_noptions;
	else if (!strcmp(name, "ir-report"))
		*ret = console_report_options, *nret = console_report_noptions;
}

char *
irs_console_complete_args(struct irs_console *c, const char *name,
			  const char *args)
{
	static const char *const formats[] = {"text", "json", "both", NULL};
	static const char *const setting_formats[] = {"auto", "text", "json",
						      "both", NULL};
	struct console_args a;
	struct irs_error *err;

	if (!args)
		args = "";
	size_t n = strlen(args);
	bool fresh = !n || args[n - 1] == ' ' || args[n - 1] == '\t';
	if ((err = console_args_split(name ? name : "", args, &a))) {
		irs_error_destroy(err);
		return strdup("");	// inside a quote: nothing to offer
	}
	size_t nw = a.nwords;
	const char *word = !fresh && nw ? a.words[nw - 1].text : "";
	size_t nbefore = fresh ? nw : nw - 1;	// words before the one typed
	const char *prev = nbefore ? a.words[nbefore - 1].text : "";
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	bool done = true;
	if ((name && !strcmp(name, "ir-layout") && nbefore &&
	     !strcmp(a.words[0].text, "load")) || !strcmp(prev, "-o") ||
	    !strcmp(prev, "--output")) {
		complete_files(word, &b);
	} else if (name && (!strcmp(prev, "-f") || !strcmp(prev, "--format")) &&
	    !strcmp(name, "ir-dump")) {
		complete_words(formats, word, &b);
	} else if (name && !strcmp(name, "ir-set") && nbefore == 1 &&
		   !strcmp(prev, "format")) {
		complete_words(setting_formats, word, &b);
	} else if (name && !strcmp(name, "ir-set") && nbefore == 0) {
		complete_words(irs_console_settings(), word, &b);
	} else if (name && !strcmp(name, "ir-set")) {
		// a value of a setting other than format: nothing to offer
	} else if (name && !strcmp(name, "ir-trace") && nbefore >= 1 &&
		   word[0] != '-') {
		// after "on": the passes seen so far
		if (!strcmp(a.words[0].text, "on"))
			complete_passes(c, word, &b);
	} else {
		done = false;
	}
	if (!done) {
		irs_buf_deinit(&b);
		char *res = irs_console_complete(c, name, word);
		console_args_deinit(&a);	// word lies in it
		return res;
	}
	console_args_deinit(&a);
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return console_printable(irs_buf_steal(&b));
}

char *
irs_console_complete(struct irs_console *c, const char *name,
		     const char *word)
{
	static const char *const layout_words[] = {"load", "show", NULL};
	static const char *const trace_words[] = {"on", "off", NULL};
	static const char *const break_words[] = {"off", NULL};
	static const char *const formats[] = {"auto", "text", "json", "both",
					      NULL};
	struct irs_buf b;

	if (!word)
		word = "";
	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	const struct console_option *opts = NULL;
	size_t nopts = 0;
	command_options(name, &opts, &nopts);
	if (word[0] == '-') {
		console_opts_complete(opts, nopts, word, &b);
	} else if (name && !strcmp(name, "ir-layout")) {
		complete_words(layout_words, word, &b);
	} else if (name && !strcmp(name, "ir-dump")) {
		complete_types(c, word, &b);
	} else if (name && !strcmp(name, "ir-trace")) {
		complete_words(trace_words, word, &b);
		complete_passes(c, word, &b);
	} else if (name && !strcmp(name, "ir-break")) {
		complete_words(break_words, word, &b);
		complete_passes(c, word, &b);
	} else if (name && !strcmp(name, "ir-set")) {
		complete_words(irs_console_settings(), word, &b);
		complete_words(formats, word, &b);
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	// pass names come from the debuggee
	return console_printable(irs_buf_steal(&b));
}
