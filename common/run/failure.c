// failure.json (irsnap.failure/1): what failed, where, the backtrace, the
// snapshots to look at, and the command that reduces the failing input.
#include <stdlib.h>
#include <string.h>

#include "run/run.h"

// A backtrace deeper than this is a runaway recursion; its top says enough.
enum { MAX_FRAMES = 64 };

// Whether word @p i of @p argv (argv[0] the program) is an option that
// carries no separate value word. "--bug=crash" carries its value; "-v"
// before another option or last carries none; "-o" before a non-option
// word is taken to carry it (-o out.ir in.ir), unless that word is the
// only non-option argument, which is then the input (-v in.ir).
static bool
one_word_option(char *const *argv, size_t i)
{
	const char *a = argv[i], *next = argv[i + 1];
	if (a[0] != '-' || !a[1] || !strcmp(a, "--"))
		return false;
	if (strchr(a, '=') || !next || next[0] == '-')
		return true;
	size_t positional = 0;
	for (size_t k = 1; argv[k] && strcmp(argv[k], "--"); k++)
		positional += argv[k][0] != '-' || !argv[k][1];
	return positional == 1;
}

// Whether the template @p rerun sets option @p opt itself, as a literal
// word that starts like it up to '=' (--passes={pass} sets --passes;
// -passes too: LLVM's and MLIR's options take one dash or two).
static bool
template_sets(const char *rerun, const char *opt)
{
	if (opt[0] == '-' && opt[1] == '-')
		opt++;
	size_t n = strcspn(opt, "=");
	for (const char *p = rerun; *p; ) {
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t");
		const char *w = p;
		if (len > 1 && w[0] == '-' && w[1] == '-') {
			w++;
			len--;
		}
		if (len >= n && !strncmp(w, opt, n) &&
		    (len == n || w[n] == '='))
			return true;
		p = w + len;
	}
	return false;
}

// {flags}: the debuggee's one-word options from @p args (its arguments as
// one shell-quoted string), up to "--", minus those the template sets,
// each shell-quoted, separated by spaces. Arguments that do not split are
// left out: a rerun without them beats no reduce command.
static void
put_flags(struct irs_buf *b, const char *rerun, const char *args)
{
	char **argv = NULL, **words = NULL;
	struct irs_error *err = args ? irs_shell_split(args, &words)
				     : NULL;
	if (err || !words) {
		irs_error_destroy(err);
		return;
	}
	// Put a program name first, so that argv[i + 1] indexing is simple.
	size_t n = 0;
	while (words[n])
		n++;
	argv = calloc(n + 2, sizeof(*argv));
	if (!argv) {
		b->oom = true;
		goto out;
	}
	argv[0] = "";
	memcpy(argv + 1, words, n * sizeof(*argv));
	bool first = true;
	for (size_t i = 1; argv[i] && strcmp(argv[i], "--"); i++) {
		if (!one_word_option(argv, i) || template_sets(rerun, argv[i]))
			continue;
		if (!first)
			irs_buf_puts(b, " ");
		irs_shell_quote(b, argv[i]);
		first = false;
	}
out:
	free(argv);
	irs_shell_words_free(words);
}

char *
irs_failure_program(const char *args)
{
	char **words = NULL, *program = NULL;
	struct irs_error *err = args ? irs_shell_split(args, &words) : NULL;
	if (err || !words) {
		irs_error_destroy(err);
		return NULL;
	}
	size_t n = 0;
	while (words[n])
		n++;
	char **argv = calloc(n + 2, sizeof(*argv));	// argv[0] as put_flags
	if (argv) {
		argv[0] = "";
		memcpy(argv + 1, words, n * sizeof(*argv));
		for (size_t i = 1; argv[i] && strcmp(argv[i], "--"); i++) {
			if (argv[i][0] != '-' || !argv[i][1]) {
				program = strdup(argv[i]);
				break;
			}
			if (!one_word_option(argv, i) && argv[i + 1])
				i++;	// its value
		}
	}
	free(argv);
	irs_shell_words_free(words);
	return program;
}

// One word of template @p rerun (checked when the layout loaded:
// irs_rerun_check), [@p w, @p w + @p len), into @p cmd: each literal piece
// and each value shell-quoted, {input} as the reducer's {}, so the word
// stays one word whatever the values hold.
static void
put_word(struct irs_buf *cmd, const char *w, size_t len, const char *exe,
	 const char *pass)
{
	static const struct { const char *name; int what; } ph[] = {
		{"{exe}", 'e'}, {"{pass}", 'p'}, {"{input}", 'i'},
	};
	const char *end = w + len, *lit = w;
	while (w < end) {
		size_t k = 0, n = 0;
		for (; k < ARRAY_SIZE(ph); k++) {
			n = strlen(ph[k].name);
			if ((size_t)(end - w) >= n && !strncmp(w, ph[k].name, n))
				break;
		}
		if (k == ARRAY_SIZE(ph)) {
			w++;
			continue;
		}
		if (w > lit) {
			char *piece = strndup(lit, (size_t)(w - lit));
			if (!piece || !irs_shell_quote(cmd, piece))
				cmd->oom = true;
			free(piece);
		}
		if (ph[k].what == 'i')
			irs_buf_puts(cmd, "{}");	// reducer's candidate
		else
			irs_shell_quote(cmd, ph[k].what == 'e' ? exe ? exe : ""
					: pass ? pass : "");
		w += n;
		lit = w;
	}
	if (w > lit) {
		char *piece = strndup(lit, (size_t)(w - lit));
		if (!piece || !irs_shell_quote(cmd, piece))
			cmd->oom = true;
		free(piece);
	}
}

// "irsnap reduce BEFORE OPT 'RERUN'", RERUN the template filled in word by
// word, then each of @p extra's pairs (option, value) whose value is set.
static char *
reduce_command(const char *rerun, const char *exe, const char *args,
	       const char *pass, const char *before, const char *opt,
	       const char *const extra[][2], size_t nextra)
{
	struct irs_buf cmd, b;

	irs_buf_init(&cmd);
	irs_buf_puts(&cmd, "");
	for (const char *p = rerun; *p; ) {
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t");
		if (!len)
			break;
		size_t at = cmd.len;
		if (at)
			irs_buf_puts(&cmd, " ");
		size_t word = cmd.len;
		if (len == 7 && !strncmp(p, "{flags}", 7))
			put_flags(&cmd, rerun, args);
		else
			put_word(&cmd, p, len, exe, pass);
		if (cmd.len == word && !cmd.oom) {
			cmd.len = at;	// {flags} of none: no blank for it
			cmd.data[at] = '\0';
		}
		p += len;
	}
	irs_buf_init(&b);
	irs_buf_puts(&b, "irsnap reduce ");
	irs_shell_quote(&b, before);
	irs_buf_printf(&b, " %s ", opt);
	irs_shell_quote(&b, cmd.data ? cmd.data : "");
	for (size_t i = 0; i < nextra; i++) {
		if (!extra[i][1])
			continue;
		irs_buf_printf(&b, " %s ", extra[i][0]);
		irs_shell_quote(&b, extra[i][1]);
	}
	bool oom = cmd.oom || b.oom;
	irs_buf_deinit(&cmd);
	if (oom) {
		irs_buf_deinit(&b);
		return NULL;
	}
	return irs_buf_steal(&b);
}

char *
irs_failure_reduce_command(const char *rerun, const char *exe,
			   const char *args, const char *pass,
			   const char *before)
{
	return reduce_command(rerun, exe, args, pass, before, "--crash",
			      NULL, 0);
}

char *
irs_failure_verify_command(const struct irs_verifier_info *v,
			   const char *exe, const char *args,
			   const char *pass, const char *before)
{
	const char *const extra[][2] = {
		{"--problem", v->problem}, {"--broken", v->broken},
	};
	return reduce_command(v->rerun, exe, args, pass, before,
			      "--verifier", extra, 2);
}

static json_t *
frame_json(const struct irs_frame_info *f, uint32_t i)
{
	char pc[32];
	snprintf(pc, sizeof(pc), "0x%llx", (unsigned long long)f->pc);
	// The front end fills fixed arrays; make sure they end.
	char function[sizeof(f->function)], file[sizeof(f->file)];
	snprintf(function, sizeof(function), "%s", f->function);
	snprintf(file, sizeof(file), "%s", f->file);
	return json_pack("{s:I, s:s, s:o, s:o, s:o}",
			 "index", (json_int_t)i,
			 "pc", pc,
			 "function", irs_json_text(*function ? function : NULL),
			 "file", irs_json_text(*file ? file : NULL),
			 "line", f->line ? json_integer(f->line) : json_null());
}

// Frames through t->frame until it says NOT_FOUND; any other error ends
// the list too and is recorded, since a partial backtrace still helps.
static struct irs_error *
backtrace(const struct irs_target *t, json_t *doc)
{
	json_t *frames = json_array();
	char *why = NULL;

	if (!frames)
		return &irs_enomem;
	for (uint32_t i = 0; t && t->frame && i < MAX_FRAMES; i++) {
		struct irs_frame_info f;
		memset(&f, 0, sizeof(f));
		struct irs_error *err = t->frame(t->arg, i, &f);
		if (err) {
			if (err->code != IRS_ERROR_NOT_FOUND)
				why = strdup(err->message);
			irs_error_destroy(err);
			break;
		}
		if (json_array_append_new(frames, frame_json(&f, i)) != 0) {
			json_decref(frames);
			free(why);
			return &irs_enomem;
		}
		// A backtrace ends at main, as GDB's does (LLDB's would go
		// on into libc's start-up code).
		f.function[sizeof(f.function) - 1] = 0;
		if (!strcmp(f.function, "main"))
			break;
	}
	if (!t || !t->frame)
		why = strdup("the debugger gave no backtrace");
	int r = json_object_set_new(doc, "backtrace", frames);
	if (why)
		r |= json_object_set_new(doc, "backtrace_error",
					 irs_json_text(why));
	free(why);
	return r ? &irs_enomem : NULL;
}

static json_t *
pass_json(const struct irs_failure_site *site)
{
	if (!site->pass)
		return json_null();
	json_t *j = json_pack("{s:o, s:o, s:o}", "name",
			      irs_json_text(site->pass),
			      "seq", site->seq ? json_integer(site->seq)
					       : json_null(),
			      "cpu_s", site->has_cpu ? json_real(site->cpu_s)
						     : json_null());
	if (j && site->instance && json_object_set_new(j, "instance",
					irs_json_text(site->instance))) {
		json_decref(j);
		return NULL;
	}
	return j;
}

char *
irs_failure_bare_pass(const char *pass, const char *instance)
{
	size_t n = strlen(pass), k = instance ? strlen(instance) : 0;
	if (k && n > k + 1 && !strcmp(pass + n - k, instance) &&
	    pass[n - k - 1] == '@')
		return strndup(pass, n - k - 1);
	return strdup(pass);
}

static json_t *
before_json(const struct irs_failure_site *site)
{
	if (!site->before_text && !site->before_json)
		return json_null();
	return json_pack("{s:o, s:o}", "text", irs_json_text(site->before_text),
			 "json", irs_json_text(site->before_json));
}

// The reduce command for the pass's before snapshot or, when there is
// none (a core file: nothing ran under irsnap before the crash), for the
// crash snapshot @p crash, the IR as the crash left it; for the program's
// copy when the layout reduces programs (none without one: a command that
// fed IR to a compiler reading source would only mislead).
static json_t *
reduce_json(const struct irs_failure_site *site, const json_t *crash)
{
	const char *input = site->before_text;
	if (!input)
		input = json_string_value(json_object_get(crash, "text"));
	if (site->reduce_program)
		input = site->program;
	// A verifier's failure is reduced with its own offline check, a
	// crash with the layout's rerun.
	const struct irs_verifier_info *v = site->verifier;
	if (v ? !v->rerun : !site->rerun)
		return json_null();
	if (!input || !site->pass || (site->rerun_pass && !*site->rerun_pass))
		return json_null();
	// {pass} is the pass, not the instance it ran on ("ssa" of
	// "ssa@main")
	char *before = irs_path_join(site->dir, input);
	char *pass = site->rerun_pass ? strdup(site->rerun_pass)
		: irs_failure_bare_pass(site->pass, site->instance);
	char *cmd = !before || !pass ? NULL
		: v ? irs_failure_verify_command(v, site->exe, site->args,
						 pass, before)
		: irs_failure_reduce_command(site->rerun, site->exe,
					     site->args, pass, before);
	free(before);
	free(pass);
	json_t *j = cmd ? irs_json_text(cmd) : NULL;
	free(cmd);
	return j;
}

struct irs_error *
irs_failure_build(const struct irs_failure_site *site,
		  const struct irs_target *t,
		  const struct irs_failure_info *info, json_t *crash,
		  json_t **ret)
{
	// requires: signo > 0 exactly for kind "signal" (session.c checks).
	bool is_signal = info->signo > 0;
	json_t *sig = is_signal ? json_pack("{s:i, s:o}", "number",
					    (int)info->signo, "name",
					    irs_json_text(info->signame))
				: json_null();
	// "backtrace" is filled in below; setting a member keeps its place.
	json_t *doc = json_pack(
		"{s:s, s:s, s:s, s:o, s:o, s:o, s:[], s:o, s:o, s:o}",
		"schema", "irsnap.failure/1",
		"run_id", site->run_id,
		"kind", is_signal ? "signal" : "verifier",
		"signal", sig,
		"message", irs_json_text(info->message),
		"pass", pass_json(site),
		"backtrace",
		"before_snapshot", before_json(site),
		"crash_snapshot", crash ? crash : json_null(),
		"reduce_command", reduce_json(site, crash));
	if (doc && !is_signal && info->verifier &&
	    json_object_set_new(doc, "verifier", json_pack("{s:o, s:I}",
				"name", irs_json_text(info->verifier),
				"problems", (json_int_t)info->problems))) {
		json_decref(doc);
		doc = NULL;
	}
	if (doc && site->reduce_program &&
	    json_object_set_new(doc, "reduce_input",
				irs_json_text(site->program))) {
		json_decref(doc);
		doc = NULL;
	}
	if (!doc)
		return &irs_enomem;
	struct irs_error *err = backtrace(t, doc);
	if (err) {
		json_decref(doc);
		return err;
	}
	*ret = doc;
	return NULL;
}
