/*
 * console/console.h — the console area, the top of libirsnap: the ir-*
 * commands (console.c, args.c, settings.c, trace.c, dump.c) both front
 * ends forward to, and what the front ends share (frontend.c: their facts
 * made answers; adapter.c: their debugger-free chores; framevar.c: a
 * boundary's variables read from the DWARF). The public half
 * is the "Console" and "Front ends" sections of irsnap.h; front ends
 * never include this. May use: run/ and everything below it.
 *
 * Besides the settings irs_console_settings() lists, irs_console_set()
 * accepts two the front end fills in for the run directory's manifest:
 * "debugger" ("gdb 13.1") and "args" (the debuggee's arguments).
 *
 * irs_console_exited() takes a negative status for a debuggee that was
 * killed rather than exited (GDB's exited event without an exit code): the
 * run is then closed without irs_session_finish(), so it keeps the status
 * "running" (or "failed"), as the manifest format says of a killed run.
 */
#ifndef IRSNAP_CONSOLE_H
#define IRSNAP_CONSOLE_H

#include <regex.h>

#include "run/run.h"

/* ---- adapter.c: what the adapters share that needs no debugger API ----- */

/** Whether the NUL-separated arguments [@p args, + @p len) (a
 *  /proc/PID/cmdline) hold one of the blank-separated @p flags, not
 *  counting the first (the program) and stopping at "--". */
bool console_cmdline_has(const char *args, size_t len, const char *flags);

/* ---- args.c: shell-like words and options -------------------------------- */

/** One word of an argument string, unquoted, with where it lay in the raw
 *  string ([start, end) in bytes, quotes included). */
struct console_word {
	char *text;
	size_t start, end;
	bool quoted;		/* some part of it was quoted or escaped */
};

/** The words of one argument string. Owns everything; free with
 *  console_args_deinit(). */
struct console_args {
	char *raw;		/* the argument string as given */
	struct console_word *words;
	size_t nwords;
};

/**
 * Splits @p line like a POSIX shell without expansions: blanks separate
 * words, '...' is literal, "..." honours \" and \\, a backslash outside
 * quotes escapes the next byte. An unterminated quote is an IRS_ERROR_USAGE
 * naming @p cmd. On success *ret is the caller's.
 */
struct irs_error *console_args_split(const char *cmd, const char *line,
				     struct console_args *ret);
void console_args_deinit(struct console_args *a);

/** One option a command accepts. */
struct console_option {
	const char *name;	/* "--max-nodes" */
	const char *alias;	/* "-o", or NULL */
	bool has_value;		/* takes the next word (or "--x=VALUE") */
	int id;			/* returned to the caller */
};

/** State of one pass over a command's words. */
struct console_opts {
	const char *cmd;	/* "ir-dump", for messages */
	const struct console_option *table;
	size_t ntable;
	bool anywhere;		/* options may follow positional words */
	size_t next;		/* next word to look at */
};

/**
 * Finds the next option among @p a's words. Returns NULL and sets *id_ret
 * to the option's id (its value in *value_ret, borrowed from @p a), or to
 * -1 when no option is left: with anywhere=false at the first positional
 * word (its index is then o->next) or after "--"; with anywhere=true at the
 * end, positional words being collected in @p pos (indices, caller's array
 * of a->nwords entries, count in *npos). Unknown options and missing values
 * are IRS_ERROR_USAGE naming the command and the option.
 */
/** What the console hands a front end to print, @p text (taken, freed)
 *  with its control characters shown escaped (irs_printable(), newlines
 *  kept): it quotes pass names, paths and IR read from the debuggee.
 *  NULL on OOM. */
char *console_printable(char *text);
struct irs_error *console_opts_next(struct console_opts *o,
				    const struct console_args *a,
				    int *id_ret, const char **value_ret,
				    size_t *pos, size_t *npos);

/** Parses an unsigned decimal (or 0x hex) count with an optional K, M or G
 *  suffix (powers of 1024); the error names @p cmd and @p what. */
struct irs_error *console_parse_u64(const char *cmd, const char *what,
				    const char *text, uint64_t *ret);

/** The options of ir-dump, ir-break, ir-trace and ir-report (for
 *  completion; each table sits beside its command). */
extern const struct console_option console_dump_options[];
extern const size_t console_dump_noptions;
extern const struct console_option console_break_options[];
extern const size_t console_break_noptions;
extern const struct console_option console_trace_options[];
extern const size_t console_trace_noptions;
extern const struct console_option console_report_options[];
extern const size_t console_report_noptions;

/** Appends to @p b the names of @p table's options starting with @p prefix,
 *  one a line. */
void console_opts_complete(const struct console_option *table, size_t n,
			   const char *prefix, struct irs_buf *b);

/* ---- console.c: state shared by the console files ------------------------ */

/** A pass filter: a POSIX extended regex the pass name contains (or is,
 *  with exact), or every pass when !has_re; and a regex its instance
 *  label contains, when has_inst. */
struct console_filter {
	bool has_re;
	bool exact;
	regex_t re;
	char *pattern;
	bool has_inst;
	regex_t inst;
	char *inst_pattern;
};

/** An argument's value at a boundary call's entry (frontend.c). */
struct console_arg {
	char *name;
	uint64_t value;
};

#define CONSOLE_NO_CFA UINT64_MAX
#define CONSOLE_NO_SP UINT64_MAX

/** An entered boundary call that has not returned yet. */
struct console_event {
	char *pass;		/* NULL when the name could not be read */
	char *instance;		/* its instance label, or NULL: "main" of
				   "ssa@main", "3" of "lj_opt_sink#3" */
	char *rerun_pass;	/* the boundary's rerun_pass, or NULL */
	uint64_t tid;		/* the thread it runs on, 0 when unknown */
	char *type;		/* layout type of the root */
	uint64_t root;		/* 0 when the IR could not be evaluated */
	uint32_t seq;		/* session event, 0 when not traced */
	uint32_t position;	/* the n-th boundary call of the process */
	uint32_t gen;		/* session generation it belongs to */
	uint64_t cfa;		/* of the call's frame, CONSOLE_NO_CFA if
				   unknown (irs_console_hit pairs by it) */
	uint64_t sp;		/* x86-64: the stack pointer at the entry
				   stop, CONSOLE_NO_SP if not taken; pairs
				   the return by stack order instead */
	struct console_arg *args;	/* integer and pointer arguments at
					   entry, for eval at the return */
	size_t nargs;
};

/** Breakpoints of one boundary function (frontend.c). */
struct console_bpfn {
	char *function;
	uint32_t entry;		/* breakpoint id; 0 when none */
	uint32_t *rets;		/* on its return instructions */
	size_t nrets;
	bool resolved;		/* its returns were found */
	bool warned;		/* said that it has none */
	bool lost;		/* the user deleted one of them */
	bool lost_said;		/* and irs_console_note() said so */
};

struct console_settings {
	char *dir;		/* NULL: $IRSNAP_DIR or ./irsnap-out */
	struct irs_limits limits;
	bool text, json;	/* format (auto: both) */
	bool format_auto;	/* "auto": a trace writes text, and JSON
				   where a failure needs it */
	char *debugger;		/* for the manifest */
	char *args;
	uint32_t call_timeout;	/* seconds; 0: none (when _set) */
	bool call_timeout_set;
};

/** The debuggee's modules and their symbols (modules.c). */
struct module;
struct console_modules {
	struct module *list;
	size_t n;
};

/** A functions = { match = RE } boundary's RE, compiled (boundaries.c). */
struct console_match {
	uint32_t boundary;	/* its index in the layout */
	regex_t re;
};

struct irs_console {
	const struct irs_target *t;
	/* the globals a layout named, found in the process or core being
	   read (globals_pid, globals_core): a walk asks for each, and a
	   trace walks at every boundary */
	struct console_global *globals;
	uint32_t nglobals;
	int64_t globals_pid;
	char *globals_core;
	struct irs_target lt;		/* what layouts ask: c->t's answers, or
					   the core's from c->t's facts */
	/* below the innermost frame, where argument registers are the
	   callees': $argN is saved[N] when bit N of saved_mask is set, and
	   an error otherwise (rootsearch.c) */
	bool saved_args;
	uint32_t saved_mask;
	uint32_t saved_n;	/* the one being searched for */
	uint64_t saved[8];
	struct console_settings set;

	struct irs_layout *layout;
	char *layout_path;

	bool break_on;		/* ir-break */
	bool break_before, break_after;
	struct console_filter break_filter;

	bool trace_on;		/* ir-trace */
	bool changed_only, verify, stop_on_verify;
	struct console_filter trace_filter;

	struct irs_session *session;	/* run directory; lazily created */
	char *last_run;			/* ir-status of the run that ended
					   last, until a new one starts */
	uint32_t gen;			/* bumped whenever session ends */
	uint32_t ntraced;		/* passes begun in this session */
	uint32_t nboundaries;		/* boundary calls of this process seen */
	bool threads_said;		/* passes on several threads: said
					   once per process (threads.c) */
	bool session_core;		/* the session examines a core file */
	bool no_rundir;			/* a run directory could not be made
					   with these settings: said once */
	uint32_t verify_failed;		/* verifier runs that failed to run */
	bool ir_broken;			/* the last verified pass failed */
	char run_failure[320];		/* the run's verifier failure, ""
					   when none: "pass 'x' (seq 2)"; a
					   later crash is its consequence */

	struct console_event *events;	/* open boundary calls, innermost
					   last */
	size_t nevents, capevents;
	struct console_event after;	/* the call that just returned, while
					   stopped after it (ir-break --after) */
	bool has_after;

	char **passes;			/* pass names seen, for completion */
	size_t npasses;

	char **breaks;			/* irs_console_break_function() */
	uint32_t nbreaks;

	struct irs_proc_sp stop_sp;	/* stop_sp()'s file, kept open */
	struct console_stop {		/* a boundary's entry stop, frame 0
					   selected (frontend.c) */
		bool valid;
		uint64_t pc, sp, tid;
		int regs;		/* framevar.c's: 0 not read yet,
					   1 read, -1 refused */
		uint64_t reg[IRS_PROC_NREGS];
	} stop;
	struct console_framevars *framevars;	/* framevar.c's */
	struct irs_memory *mem;		/* reader for the current stop */
	int64_t mem_pid;
	char *mem_core;

	int32_t signo;			/* last fatal signal, 0 if none */
	char *signame;

	/* what ir-status --check and irs_console_exit_status() report, for
	   the whole debugger session */
	struct {
		int32_t signo;		/* a fatal signal irsnap saw while
					   tracing or breaking, 0 if none */
		char what[320];		/* "SIGSEGV in pass 'cse'" */
		uint32_t nerrors;	/* ir-* commands that failed */
		char first_error[320];
		uint32_t nbroken;	/* passes whose output failed a
					   verifier */
		char broken[320];	/* the first of them */
		bool died_broken;	/* signo came after a verifier
					   failure: its consequence */
	} check;

	/* modules.c, boundaries.c */
	struct console_modules modules;
	char *donor_path;		/* the type donor loaded, realpath */
	struct console_match *matches;	/* of c->layout's boundaries */
	size_t nmatches;
	char match_pass[256];		/* a matched boundary's pass name */
	char match_function[512];

	/* abi.c */
	char *machine_exe;		/* the executable whose */
	unsigned machine;		/* ELF machine this is */

	/* frontend.c */
	struct console_event returning;	/* the call just returned from, for
					   eval of its arguments there */
	struct console_bpfn *bpfns;	/* breakpoints set, per function */
	size_t nbpfns;
	uint32_t next_bp;		/* the last breakpoint id handed out */
	struct console_caller_bp {	/* after = "caller": at return
					   addresses, kept per process */
		uint64_t address;
		uint32_t id;
	} *callers;
	size_t ncallers;
	bool in_call;			/* calling into the debuggee */
	char *signal_core;		/* core whose signal was reported */
};

/** A reader for the debuggee as it is now (cached, invalidated per call);
 *  borrowed by the caller until the next console call. */
struct irs_error *console_memory(struct irs_console *c,
				 struct irs_memory **ret);
/** Ends the current run, if any: the next traced event starts a new run
 *  directory. With @p why (the program runs on: a layout loaded, a
 *  setting changed), the run says it stopped and why; NULL when it is
 *  closed already (the program exited). ir-status goes on showing it. */
void console_end_session(struct irs_console *c, const char *why);
/** The session, created on first use from the current settings. */
struct irs_error *console_session(struct irs_console *c,
				  struct irs_session **ret);
/** Names a console line shows before "and N more": a layout of 98 pass
 *  functions is said in a line, not listed (ir-layout show lists them). */
#define CONSOLE_LIST_MAX 5
/** Appends the first names of a list of @p total as "a, b, c", or past
 *  CONSOLE_LIST_MAX as "a, b, c, d, e and 93 more": @p names holds at
 *  least the first min(@p total, CONSOLE_LIST_MAX). */
void console_list_names(struct irs_buf *out, const char *const *names,
			uint32_t total);
/** A global variable as the debugger found it (console_frontend_global()). */
struct console_global {
	char *name;
	uint64_t address;
	struct irs_field_info info;
};
/** Forgets the globals found (the process they were found in ended). */
void console_forget_globals(struct irs_console *c);
/** Reads the NUL-terminated string at @p addr (at most 4 KiB).
 *  *ret freed with free(). */
struct irs_error *console_read_cstr(struct irs_memory *mem, uint64_t addr,
				    char **ret);
/** How an expression may touch the debuggee. */
enum console_eval_how {
	EVAL_READ,	/* a layout's (ir, pass): reads only */
	EVAL_USER,	/* typed by the user: may call, as `print` may */
	EVAL_CALL,	/* a call verifier the core built */
};
/** Evaluates @p expr through the target; errors say "cannot evaluate". */
struct irs_error *console_eval(struct irs_console *c, const char *expr,
			       enum console_eval_how how, uint64_t *ret);
/** console_eval(), and into @p type (@p type_len bytes) the type of a
 *  pointer or struct expression as debug info spells it, typedefs
 *  stripped ("Pass *", "struct Module *"); "" for any other value or when
 *  the debugger gives none. */
struct irs_error *console_eval_typed(struct irs_console *c, const char *expr,
				     enum console_eval_how how, uint64_t *ret,
				     char *type, size_t type_len);
/** The IR root of boundary @p bi in the frame eval() uses: its ir
 *  expression, or of ir = { "fn", "f" } the first that names a parameter
 *  of the frame (without parameter names, the first that evaluates). */
struct irs_error *console_eval_ir(struct irs_console *c,
				  const struct irs_boundary_info *bi,
				  uint64_t *ret);
/** The pass name of boundary @p bi: the layout's literal name, or the C
 *  string its pass expression points at in the frame eval() uses, with
 *  the instance after it when the boundary has an instance expression:
 *  "@LABEL" when it is a string (a char *: the function's name), "#N" when
 *  an integer. *ret (and *instance_ret, the label or N, when not NULL)
 *  freed with free(); untouched on error. */
struct irs_error *console_eval_pass(struct irs_console *c,
				    const struct irs_boundary_info *bi,
				    char **ret, char **instance_ret);
/** What a rerun's {pass} is at boundary @p bi (its rerun_pass, read in
 *  the frame eval() uses): "ANCHOR(PASS)", or PASS on the top unit or
 *  without an anchor; *ret NULL when the boundary has no rerun_pass.
 *  Freed with free(); untouched on error. */
struct irs_error *console_eval_rerun_pass(struct irs_console *c,
					  const struct irs_boundary_info *bi,
					  char **ret);
/* ---- threads.c ----------------------------------------------------------- */

/** Notes the thread boundary call @p ev (the innermost open one) runs on,
 *  and says in one line in @p out, once per process, when it is not the
 *  main thread or another open call runs on another thread. */
void console_threads_check(struct irs_console *c, struct console_event *ev,
			   struct irs_buf *out);

/** The error "no layout loaded" for @p cmd, or NULL when one is. */
struct irs_error *console_need_layout(const struct irs_console *c,
				      const char *cmd);
/** Remembers @p pass for completion. */
void console_note_pass(struct irs_console *c, const char *pass);

/** Where a boundary call found in the backtrace lives. */
struct console_site {
	uint32_t frame;		/* its index in the backtrace */
	char function[256];
	char *pass;		/* freed with free() */
	char *type;		/* borrowed from the layout */
	uint64_t root;
	char *rerun_pass;	/* the rerun's name of the pass, or NULL;
				   freed with free() */
};
/**
 * Finds the innermost frame whose function is a layout boundary, selects
 * it, evaluates the boundary's pass name and IR root there, and selects
 * frame 0 again. Errors name @p cmd.
 */
struct irs_error *console_find_site(struct irs_console *c, const char *cmd,
				    struct console_site *ret);
/** The boundary call the debuggee is stopped in or just after: the call
 *  ir-break --after stopped behind, else the innermost open call whose IR
 *  was read; NULL when none. Borrowed until the next event. */
const struct console_event *console_stopped_event(const struct irs_console *c);
/**
 * The pass name and IR root for ir-verify and ir-report: the call
 * console_stopped_event() gives, else console_find_site(). *pass_ret is
 * freed with free(); *type_ret borrowed. @p rerun_ret (when not NULL)
 * gets the site's rerun name of the pass (a core's: no event read it),
 * or NULL; freed with free().
 */
struct irs_error *console_current_ir(struct irs_console *c, const char *cmd,
				     char **pass_ret, const char **type_ret,
				     uint64_t *root_ret, char **rerun_ret);

/* ---- console_filter (in trace.c) ----------------------------------------- */

/** Compiles @p pattern (NULL: match everything) into @p f; errors name
 *  @p cmd. @p f is written only on success. */
/** A filter of pass names by @p pattern (NULL: every pass), whole names
 *  only when @p exact, and of instance labels by @p instance (or NULL). */
struct irs_error *console_filter_init(struct console_filter *f,
				      const char *cmd, const char *pattern,
				      bool exact, const char *instance);
void console_filter_deinit(struct console_filter *f);
/** Appends what @p f takes: "passes matching 'R'" (with " exactly" and
 *  its instances), or "every pass" without a regex. */
void console_filter_say(const struct console_filter *f, struct irs_buf *out);
/** Whether pass @p pass of instance @p instance passes @p f; an instance
 *  not known yet (NULL) passes an instance regex. */
bool console_filter_match(const struct console_filter *f, const char *pass,
			  const char *instance);

/* ---- settings.c ---------------------------------------------------------- */

/** ir-set [KEY [VALUE]]. */
struct irs_error *console_cmd_set(struct irs_console *c,
				  const struct console_args *a,
				  struct irs_buf *out);

/* ---- trace.c: ir-break, ir-trace and debuggee events --------------------- */

struct irs_error *console_cmd_break(struct irs_console *c,
				    const struct console_args *a,
				    struct irs_buf *out);
struct irs_error *console_cmd_trace(struct irs_console *c,
				    const struct console_args *a,
				    struct irs_buf *out);
/** Recomputes c->breaks from the layout and the break/trace requests. */
struct irs_error *console_update_breaks(struct irs_console *c);
/** Drops every open event (the debuggee is gone). */
void console_clear_events(struct irs_console *c);
/** Frees what @p ev owns and zeroes it. */
void console_event_deinit(struct console_event *ev);
/** What a boundary call's entry stop knows of where the call is: its
 *  frame's CFA or the stack pointer (either may be unknown:
 *  CONSOLE_NO_CFA, CONSOLE_NO_SP), and its thread (0: unknown). */
struct console_call {
	uint64_t cfa, sp, tid;
};
/** irs_console_boundary_enter() for the call @p call says (NULL: nothing
 *  known). */
struct irs_error *console_boundary_enter(struct irs_console *c,
					 const char *function,
					 const struct console_call *call,
					 bool *stop_ret, char **out_ret);
/** How stop messages name @p ev's pass run, into @p buf: "seq 4" when
 *  traced, else its place among the process's boundary calls. */
void console_event_number(const struct console_event *ev, char *buf,
			  size_t len);
/* ---- framevar.c: boundary variables read from the debug info ----------- */

/** Reads variable path @p expr ("f", "pass->name") at the entry stop
 *  c->stop from the recipe learned for it at that pc: true with *ret
 *  filled as the debugger would have, false when there is none (the
 *  debugger evaluates it, then console_framevar_learn()). */
bool console_framevar_read(struct irs_console *c, const char *expr,
			   struct irs_value_facts *ret);
/** Learns where @p expr lives at c->stop's pc from the DWARF of the module
 *  there, given what the debugger said it is (@p said); the recipe is kept
 *  only when it reads @p said back now. */
void console_framevar_learn(struct irs_console *c, const char *expr,
			    const struct irs_value_facts *said);
/** ir-status's line on how the boundary variables of the process (or the
 *  last one) were read: none before the first boundary stop. */
void console_framevar_status(struct irs_console *c, struct irs_buf *out);
/** Forgets every recipe and closes the modules' DWARF (a new process). */
void console_framevar_forget(struct irs_console *c);

/** Forgets c->after: the debuggee moved on. */
void console_clear_after(struct irs_console *c);
/** What the verifiers said of one IR. */
struct console_verdict {
	uint32_t nbad;		/* verifiers that found problems */
	char *bad_name;		/* the first of them and its problems */
	char *bad_output;	/* (output), or NULL; freed by _deinit() */
	uint32_t bad_problems;	/* how many it found */
};
/** Runs every verifier of the layout on @p root; one line per verifier
 *  into @p out; *ret says which found problems (console_verdict_deinit()
 *  it). When @p seq is non-zero the results are recorded in the session,
 *  a layout without verifiers as "none". */
struct irs_error *console_run_verifiers(struct irs_console *c,
					struct irs_memory *mem,
					uint64_t root, const char *type,
					uint32_t seq, struct irs_buf *out,
					struct console_verdict *ret);
void console_verdict_deinit(struct console_verdict *v);

/* ---- vcall.c: a call verifier's call ------------------------------------- */

/**
 * Calls @p expr (a call verifier the core built) in the debuggee with its
 * stdout and stderr captured: *value_ret gets the result, *output_ret what
 * it printed (freed with free()), or NULL with *nocapture_ret saying why
 * it could not be captured (then the call still ran). An error when the
 * call itself failed (a fault, a timeout), with both NULL.
 */
struct irs_error *console_call_captured(struct irs_console *c,
					const char *expr, uint64_t *value_ret,
					char **output_ret,
					char **nocapture_ret);

/* ---- frontend.c: what the front ends' facts become ----------------------- */

/** Fills c->lt, the target layouts are compiled against. */
void console_frontend_init(struct irs_console *c);
/** Frees the breakpoint table (the target's breakpoints are left). */
void console_frontend_deinit(struct irs_console *c);
/** Before a command: a core file first seen reports its signal; output
 *  into @p out. */
void console_frontend_refresh(struct irs_console *c, struct irs_buf *out);
/** After a command: the target's breakpoints follow c->breaks. */
void console_frontend_sync(struct irs_console *c, struct irs_buf *out);
/** Drops the functions some of whose breakpoints the user deleted, so
 *  that the next sync sets them all again (ir-break, ir-trace). */
void console_frontend_renew_lost(struct irs_console *c);
/** Appends to @p out "; deleted: F, G (...)" when the user deleted
 *  breakpoints of functions the console breaks on. */
void console_frontend_say_lost(const struct irs_console *c,
			       struct irs_buf *out);
/** Deletes the breakpoints at return addresses (after = "caller"): the
 *  process they were set in is gone. */
void console_frontend_forget_callers(struct irs_console *c);
/** Records frame 0's integer and pointer arguments into @p ev. */
void console_frontend_save_args(struct irs_console *c,
				struct console_event *ev);
/** The value argument @p name had at the entry of the call whose frame is
 *  the one eval() uses, if any. */
bool console_frontend_entry_arg(struct irs_console *c, const char *name,
				uint64_t *ret);
/** The debuggee's arguments for the manifest: the target's, else the
 *  "args" setting; *ret freed with free(), NULL for none. */
char *console_frontend_args(struct irs_console *c);

/* ---- abi.c: boundary arguments by the calling convention ----------------- */

/** @p expr with each $argN made the register the N-th integer argument
 *  word is passed in (after the hidden result pointer when @p sret), for
 *  the debuggee's machine (x86-64 System V, AArch64). */
struct irs_error *console_abi_expr(struct irs_console *c, bool sret,
				   const char *expr, char *out, size_t len);
/** The debuggee's machine (EM_X86_64, EM_AARCH64...) from its executable's
 *  ELF header, EM_X86_64 when unknown; read once per executable. */
unsigned console_abi_machine(struct irs_console *c);
/** console_eval() of a boundary expression (reads only, $argN as above). */
struct irs_error *console_eval_arg(struct irs_console *c,
				   const struct irs_boundary_info *bi,
				   const char *expr, uint64_t *ret);

/* ---- rootsearch.c: a boundary's IR root in a core ----------------------- */

/** Whether @p root holds what boundary @p boundary's check says a root
 *  holds (no check: any non-NULL root). */
bool console_root_plausible(struct irs_console *c, uint32_t boundary,
			    uint64_t root);
/** Searches the selected frame (a boundary's) for a plausible root: its
 *  callee-saved registers, then its stack; @p where gets which. */
struct irs_error *console_root_search(struct irs_console *c,
				      uint32_t boundary, uint64_t *ret,
				      char *where, size_t len);
/** Below the innermost frame, the one $argN the pass name expressions of
 *  boundary @p bi read (an MLIR pass's `this`): searched for as the root
 *  is, the first value with which the name reads non-empty and printable
 *  (a release build's pass names itself through its vtable: a stale
 *  pointer does not). From then on, until console_saved_args_end(),
 *  $argN reads that value and the other $argK are errors (their
 *  registers are the callees'), so that a layout's next `ir` expression
 *  may reach the root through it. Says where under IRSNAP_DEBUG=S. */
void console_saved_args_begin(struct irs_console *c,
			      const struct irs_boundary_info *bi,
			      uint32_t frame);
void console_saved_args_end(struct irs_console *c);

/* ---- modules.c: the debuggee's modules and their symbols ----------------- */

/** Reads the modules the debugger has loaded and, from the executable's
 *  DT_NEEDED, those it will load (each ELF file once while unchanged). */
void console_modules_refresh(struct irs_console *c);
void console_modules_deinit(struct irs_console *c);
/** Calls @p each with every defined function (demangled) of the modules
 *  that @p re finds; returns how many. */
uint32_t console_modules_functions(struct irs_console *c, const regex_t *re,
				   void (*each)(void *arg,
						const char *function),
				   void *arg);
/** The soname of a module defining symbol @p name (demangled), or NULL. */
const char *console_modules_symbol(const struct irs_console *c,
				   const char *name);
/** The address in the debuggee of ELF symbol @p name (demangled) of its
 *  modules: its value plus where its module is mapped (in a core file,
 *  as its NT_FILE note says, when the module is the file the process
 *  mapped; live, the process's /proc/PID/maps); an error when it is not
 *  mapped. */
struct irs_error *console_modules_address(const struct irs_console *c,
					  const char *name, uint64_t *ret);
/** The first @p n bytes of ELF symbol @p name as its module's file holds
 *  them (the code a core file leaves out). */
struct irs_error *console_modules_bytes(const struct irs_console *c,
					const char *name, void *buf,
					uint64_t n);
/** The first module soname (or DT_NEEDED name) @p re finds, its first
 *  group (else the whole match) into @p capture; NULL when none. */
const char *console_modules_library(const struct irs_console *c,
				    const regex_t *re, char *capture,
				    size_t len);

/* ---- boundaries.c: which boundary a function is -------------------------- */

/** Compiles the match = RE of c->layout's boundaries (after a load). */
struct irs_error *console_boundaries_init(struct irs_console *c);
void console_boundaries_deinit(struct irs_console *c);
/** The boundary @p function (a symbol, or a frame's function, which may
 *  add a parameter list) is, if any: a listed function, or one a match
 *  finds, then with function and pass_name filled (borrowed from @p c
 *  until the next call). */
bool console_boundary_of(struct irs_console *c, const char *function,
			 struct irs_boundary_info *ret);
/** Adds every function a match boundary finds in the modules to c->breaks
 *  (@p wanted filters them by pass name). */
struct irs_error *console_boundaries_expand(
	struct irs_console *c,
	bool (*wanted)(const struct irs_console *c,
		       const struct irs_boundary_info *bi));

/* ---- dump.c: ir-dump, ir-verify, ir-report ------------------------------- */

struct irs_error *console_cmd_dump(struct irs_console *c,
				   const struct console_args *a,
				   struct irs_buf *out);
struct irs_error *console_cmd_verify(struct irs_console *c,
				     const struct console_args *a,
				     struct irs_buf *out);
struct irs_error *console_cmd_report(struct irs_console *c,
				     const struct console_args *a,
				     struct irs_buf *out);

#endif
