/*
 * irsnap.h — the public API of libirsnap, the core shared by the GDB and LLDB
 * front ends and the `irsnap` command-line tool.
 *
 * This is the only header gdb/, lldb/ and tests include. Sections come in
 * dependency order: errors, target, memory, layout, snapshot, session,
 * reduce. Conventions, once for the whole file:
 *  - A fallible function returns struct irs_error * : NULL is success,
 *    otherwise an error the caller owns and frees with irs_error_destroy().
 *    Out-of-memory returns &irs_enomem, which allocates nothing.
 *  - Results go through a trailing `ret` pointer written only on success.
 *  - Strings and buffers the library hands out are freed with irs_free();
 *    Python and C++ callers never use their own free().
 *  - _create/_destroy pairs: destroy accepts NULL.
 *  - Only fixed-width integers, bool, size_t, const char * and opaque
 *    pointers cross this boundary, so ctypes can bind every function.
 *  - Nothing here calls exit(), abort() or assert() on input it did not
 *    create: the user's debugger session survives whatever irsnap is fed.
 */
#ifndef IRSNAP_H
#define IRSNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(IRS_BUILDING_LIB)
#define IRS_API __attribute__((visibility("default")))
#else
#define IRS_API
#endif

#define IRS_VERSION "0.1.0"

/* ==== Errors ============================================================ */

enum irs_error_code {
	IRS_ERROR_NOMEM = 1,	/* out of memory (&irs_enomem) */
	IRS_ERROR_USAGE,	/* bad argument or option from the user */
	IRS_ERROR_LAYOUT,	/* bad layout script: message is FILE:LINE: ... */
	IRS_ERROR_FAULT,	/* debuggee memory unreadable; see address */
	IRS_ERROR_TARGET,	/* the debugger refused: bad expression, no symbol */
	IRS_ERROR_STATE,	/* illegal call for the current state */
	IRS_ERROR_IO,		/* a file could not be read or written */
	IRS_ERROR_FORMAT,	/* an input file is malformed (JSON, ELF, IR) */
	IRS_ERROR_LIMIT,	/* a budget ran out (nodes, bytes, steps, memory) */
	IRS_ERROR_NOT_FOUND,	/* no such type, field, symbol, pass or file */
	IRS_ERROR_INTERRUPTED,	/* stopped by the user (SIGINT) */
};

struct irs_error {
	enum irs_error_code code;
	bool is_static;		/* &irs_enomem: never freed */
	uint64_t address;	/* IRS_ERROR_FAULT only */
	char *message;		/* one line, names what and where */
};

/** The static out-of-memory error; irs_error_destroy() ignores it. */
IRS_API extern struct irs_error irs_enomem;

/** New error with a printf-style message; &irs_enomem if that fails. */
IRS_API struct irs_error *irs_error_format(enum irs_error_code code,
					   const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** New IRS_ERROR_FAULT error for @p address. */
IRS_API struct irs_error *irs_error_fault(uint64_t address,
					  const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** New error from a plain message (for ctypes callers: no varargs). */
IRS_API struct irs_error *irs_error_create(enum irs_error_code code,
					   const char *message);
/** Frees @p err; accepts NULL and &irs_enomem. */
IRS_API void irs_error_destroy(struct irs_error *err);
/** Accessors for bindings that cannot read the struct. */
IRS_API int irs_error_get_code(const struct irs_error *err);
IRS_API const char *irs_error_get_message(const struct irs_error *err);
/**
 * Prepends "@p prefix: " to err's message, in place, and returns err.
 * Used to add context ("layout toyc.lua", "snapshot 0003-cse") on the way up.
 */
IRS_API struct irs_error *irs_error_prefix(struct irs_error *err,
					   const char *prefix);

/** Frees memory the library handed out (strings, buffers). NULL is fine. */
IRS_API void irs_free(void *p);

/* ==== Target: what a front end tells the core ========================== */

/* Kinds of debug-info types, as the front end reports them. */
enum irs_type_kind {
	IRS_TYPE_OTHER = 0,
	IRS_TYPE_INT,		/* signed integer (and char) */
	IRS_TYPE_UINT,		/* unsigned integer */
	IRS_TYPE_BOOL,
	IRS_TYPE_FLOAT,
	IRS_TYPE_ENUM,
	IRS_TYPE_POINTER,	/* also references */
	IRS_TYPE_STRUCT,	/* struct or class */
	IRS_TYPE_UNION,
	IRS_TYPE_ARRAY,
};

/** What debug info says about a field (or about a whole type). */
struct irs_field_info {
	uint64_t offset;	/* bytes from the start of the outer struct */
	uint64_t size;		/* bytes; of the storage unit for bitfields */
	uint32_t bit_offset;	/* bits from offset; 0 unless a bitfield */
	uint32_t bit_size;	/* 0 unless a bitfield */
	uint32_t kind;		/* enum irs_type_kind of the field's type */
	uint32_t pad;
	uint64_t count;		/* element count for arrays, else 0 */
	char type_name[128];	/* e.g. "Instr *", "Opcode", "char [32]" */
	char target_name[128];	/* pointee / element type, e.g. "Instr" */
};

/** One stack frame, innermost first. */
struct irs_frame_info {
	uint64_t pc;
	char function[256];	/* "" when unknown */
	char file[512];		/* "" when unknown */
	uint32_t line;		/* 0 when unknown */
	uint32_t pad;
};

/**
 * Reads @p count bytes at @p address of the debuggee into @p buf.
 * Returns NULL on success; on failure an error the caller owns (usually from
 * irs_error_fault()); @p buf is then unspecified.
 * Callbacks must return normally: never throw (C++) or leave a Python
 * exception set. Every callback gets the target's @p arg first.
 */
typedef struct irs_error *(*irs_read_fn)(void *arg, uint64_t address,
					 void *buf, uint64_t count);
/** Evaluates a debuggee expression ("m", "pm->module", "$rdi") to a value. */
typedef struct irs_error *(*irs_eval_fn)(void *arg, const char *expr,
					 uint64_t *ret);
/** Size in bytes of the named type, from debug info. */
typedef struct irs_error *(*irs_type_size_fn)(void *arg, const char *type,
					      uint64_t *ret);
/**
 * Looks up @p path ("kind", "u.def", "link.next": dots go through nested
 * structs and unions) in struct @p type. The front end resolves the dots,
 * because nested types are often anonymous.
 */
typedef struct irs_error *(*irs_field_fn)(void *arg, const char *type,
					  const char *path,
					  struct irs_field_info *ret);
/**
 * The @p index-th enumerator of enum @p type: its name (NUL-terminated, cut
 * to @p len) and value. IRS_ERROR_NOT_FOUND past the last one.
 */
typedef struct irs_error *(*irs_enumerator_fn)(void *arg, const char *type,
					       uint32_t index, char *name,
					       uint64_t len, int64_t *value);
/** The @p index-th frame of the current thread; IRS_ERROR_NOT_FOUND past the end. */
typedef struct irs_error *(*irs_frame_fn)(void *arg, uint32_t index,
					  struct irs_frame_info *ret);
/** Makes frame @p index current, so that eval() sees its locals. */
typedef struct irs_error *(*irs_select_frame_fn)(void *arg, uint32_t index);

/**
 * The questions the core asks a debugger. A front end fills this in and
 * keeps it alive as long as anything created from it. Any callback may be
 * NULL when the front end cannot answer (the core then says so by name).
 */
struct irs_target {
	void *arg;
	irs_read_fn read;		/* general path; may be slow */
	irs_eval_fn eval;
	irs_type_size_fn type_size;
	irs_field_fn field;
	irs_enumerator_fn enumerator;
	irs_frame_fn frame;
	irs_select_frame_fn select_frame;
	int64_t pid;			/* live, stopped debuggee; 0 if none */
	const char *core_path;		/* core file being examined, or NULL */
	const char *exe_path;		/* the debuggee's executable, or NULL */
};

/* ==== Memory: page cache over live process, core file or target ======= */

struct irs_memory;

/** Reads through @p t->read. */
IRS_API struct irs_error *irs_memory_create_target(const struct irs_target *t,
						   struct irs_memory **ret);
/** Reads a stopped live process directly (process_vm_readv, /proc/PID/mem). */
IRS_API struct irs_error *irs_memory_create_pid(int64_t pid,
						struct irs_memory **ret);
/**
 * Reads an ELF core file directly: PT_LOAD segments, and for pages the core
 * left out, the files named in its NT_FILE note. Errors name the file.
 */
IRS_API struct irs_error *irs_memory_create_core(const char *core_path,
						 struct irs_memory **ret);
/**
 * Picks the fastest reader @p t allows: pid if live, else core file, else
 * the target's read callback.
 */
IRS_API struct irs_error *irs_memory_create_best(const struct irs_target *t,
						 struct irs_memory **ret);
IRS_API void irs_memory_destroy(struct irs_memory *mem);
/** Reads @p count bytes; a fault error names the first unreadable address. */
IRS_API struct irs_error *irs_memory_read(struct irs_memory *mem,
					  uint64_t address, void *buf,
					  uint64_t count);
/** Drops cached pages; call whenever the debuggee has run. */
IRS_API void irs_memory_invalidate(struct irs_memory *mem);

/* ==== Layouts =========================================================== */

struct irs_layout;

/**
 * Loads and compiles the Lua layout at @p path, resolving offsets and sizes
 * through @p t (which must outlive the layout). Errors are IRS_ERROR_LAYOUT
 * with a "FILE:LINE: message" text.
 * On success *ret is the caller's; free it with irs_layout_destroy().
 */
IRS_API struct irs_error *irs_layout_load(const char *path,
					  const struct irs_target *t,
					  struct irs_layout **ret);
/** The same from Lua source text (never bytecode); @p chunkname names it. */
IRS_API struct irs_error *irs_layout_create(const char *src, size_t len,
					    const char *chunkname,
					    const struct irs_target *t,
					    struct irs_layout **ret);
IRS_API void irs_layout_destroy(struct irs_layout *lo);
/** The layout's name (layout{ name = ... }); borrowed. */
IRS_API const char *irs_layout_name(const struct irs_layout *lo);
/** The default root type; borrowed. */
IRS_API const char *irs_layout_root_type(const struct irs_layout *lo);
/**
 * Human-readable description for `ir-layout show`: types with resolved sizes
 * and offsets, boundaries, verifiers. *ret is freed with irs_free().
 */
IRS_API struct irs_error *irs_layout_describe(const struct irs_layout *lo,
					      char **ret);
/** Number of types; irs_layout_type_name(lo, i) borrows each name. */
IRS_API uint32_t irs_layout_ntypes(const struct irs_layout *lo);
IRS_API const char *irs_layout_type_name(const struct irs_layout *lo,
					 uint32_t i);

/** A pass boundary, as the front end needs it to set breakpoints. */
struct irs_boundary_info {
	const char *function;	/* where to break, e.g. "pm_run_pass" */
	const char *pass_expr;	/* expression giving the pass name
				   ("pass->name"), or NULL: the name is
				   pass_name */
	const char *pass_name;	/* fixed name (functions = {...}), or NULL */
	const char *ir_expr;	/* expression giving the IR root ("m") */
	const char *ir_type;	/* layout type of the IR root */
};
IRS_API uint32_t irs_layout_nboundaries(const struct irs_layout *lo);
/** Fills @p ret with strings borrowed from @p lo. */
IRS_API struct irs_error *irs_layout_boundary(const struct irs_layout *lo,
					      uint32_t i,
					      struct irs_boundary_info *ret);

/** A verifier the layout declares. */
struct irs_verifier_info {
	const char *name;
	const char *call;	/* debuggee expression for an in-process
				   verifier ("toyc_verify({ir}, 0)": {ir}
				   becomes "(T *)0xADDR"), or NULL
				   for a Lua verifier */
	int64_t ok_value;	/* value of `call` meaning "no problems" */
};
IRS_API uint32_t irs_layout_nverifiers(const struct irs_layout *lo);
IRS_API struct irs_error *irs_layout_verifier(const struct irs_layout *lo,
					      uint32_t i,
					      struct irs_verifier_info *ret);
/**
 * Command template that re-runs one pass on a snapshot file
 * ("{exe} {flags} --passes={pass} {input}"), or NULL; borrowed.
 */
IRS_API const char *irs_layout_rerun(const struct irs_layout *lo);

/* ==== Snapshots: walk the IR, write text and JSON ===================== */

/** Bounds on one walk; 0 in a field means the default. */
struct irs_limits {
	uint64_t max_nodes;	/* default 50,000,000 */
	uint64_t max_bytes;	/* debuggee bytes read; default 4 GiB */
	uint32_t max_depth;	/* default 10,000 */
	uint32_t max_string;	/* longest string read; default 64 KiB */
};

/** What a walk saw. */
struct irs_snapshot_stats {
	uint64_t nodes;		/* distinct nodes visited */
	uint64_t bytes;		/* debuggee bytes read */
	uint64_t text_bytes;	/* bytes of text written */
	uint64_t json_bytes;	/* bytes of JSON written */
	uint32_t nerrors;	/* walk errors recorded */
	bool truncated;		/* a limit stopped the walk */
	char hash[17];		/* xxh64 of the text, 16 hex digits */
};

struct irs_snapshot;

/**
 * Walks the IR rooted at @p root as layout type @p type (NULL: the layout's
 * root type), reading through @p mem, and writes the text rendering to
 * @p text_path and the JSON graph (schema irsnap.snapshot/1) to @p json_path;
 * either path may be NULL to skip it. Files are written atomically
 * (temporary file, then rename).
 * Walk errors (unreadable pointer, cycle, absurd count, a limit) do not fail
 * the call: they are recorded in the snapshot and the walk goes on.
 * The call fails only when nothing useful can be written (bad type, root
 * unreadable, I/O error); then no file is left behind.
 * On success *ret is the caller's; free it with irs_snapshot_destroy().
 */
IRS_API struct irs_error *irs_snapshot_write(const struct irs_layout *lo,
					     struct irs_memory *mem,
					     uint64_t root, const char *type,
					     const struct irs_limits *limits,
					     const char *text_path,
					     const char *json_path,
					     struct irs_snapshot **ret);
/** The same, returning the text in *text_ret (freed with irs_free()). */
IRS_API struct irs_error *irs_snapshot_text(const struct irs_layout *lo,
					    struct irs_memory *mem,
					    uint64_t root, const char *type,
					    const struct irs_limits *limits,
					    char **text_ret,
					    struct irs_snapshot **ret);
IRS_API void irs_snapshot_destroy(struct irs_snapshot *snap);
IRS_API void irs_snapshot_get_stats(const struct irs_snapshot *snap,
				    struct irs_snapshot_stats *ret);
/** The i-th walk error, "TYPE at 0xADDR, field F: message"; borrowed. */
IRS_API const char *irs_snapshot_error(const struct irs_snapshot *snap,
				       uint32_t i);

/**
 * Runs the layout's Lua verifiers over the IR at @p root. *problems_ret gets
 * one problem per line ("" when none), freed with irs_free(); *count_ret the
 * number of problems.
 */
IRS_API struct irs_error *irs_layout_verify(const struct irs_layout *lo,
					    struct irs_memory *mem,
					    uint64_t root, const char *type,
					    char **problems_ret,
					    uint32_t *count_ret);

/* ==== Session: run directory, pass events, failure reports ============ */

struct irs_session;

/** Where a session writes and what it records about its world. */
struct irs_session_config {
	const char *dir;	/* output root; NULL: $IRSNAP_DIR or ./irsnap-out */
	const char *debugger;	/* "gdb 13.1", "lldb 14.0.6" */
	const char *debuggee;	/* executable path */
	const char *args;	/* debuggee arguments, one string, or NULL */
	int64_t pid;		/* debuggee pid, or 0 */
	const char *layout_path;
	bool write_text;	/* formats: .ir and/or .json snapshots
				   (both false: both) */
	bool write_json;
	bool changed_only;	/* skip an after snapshot equal to its before */
	struct irs_limits limits;
};

/**
 * Creates a new run directory <dir>/<YYYYMMDD-HHMMSS-pid>/ (unique), points
 * <dir>/latest at it and writes the first manifest.json.
 * @p lo is borrowed and must outlive the session.
 * On success *ret is the caller's; free it with irs_session_destroy().
 */
IRS_API struct irs_error *irs_session_create(const struct irs_session_config *cfg,
					     const struct irs_layout *lo,
					     struct irs_session **ret);
IRS_API void irs_session_destroy(struct irs_session *s);
/** The run directory's path; borrowed. */
IRS_API const char *irs_session_dir(const struct irs_session *s);

/**
 * Records entry into pass @p pass: takes the before snapshot of the IR at
 * @p root, reads the debuggee's CPU time from /proc/PID/stat when live, and
 * rewrites the manifest. *seq_ret gets the event's sequence number (1, 2, ...).
 */
IRS_API struct irs_error *irs_session_pass_begin(struct irs_session *s,
						 struct irs_memory *mem,
						 const char *pass,
						 uint64_t root,
						 uint32_t *seq_ret);
/** The same, walking the root as layout type @p type (a boundary's
 *  `type = T`); NULL is the layout's root type. */
IRS_API struct irs_error *irs_session_pass_begin_as(struct irs_session *s,
						    struct irs_memory *mem,
						    const char *pass,
						    uint64_t root,
						    const char *type,
						    uint32_t *seq_ret);
/**
 * Records the return from the pass begun as @p seq: the after snapshot (or,
 * with changed_only, none when its hash equals the before one), the CPU time
 * spent, and rewrites the manifest.
 */
IRS_API struct irs_error *irs_session_pass_end(struct irs_session *s,
					       struct irs_memory *mem,
					       uint32_t seq);
/**
 * Attaches a verifier result to event @p seq: @p problems counts what was
 * wrong (0 = clean), @p output is its text (may be NULL).
 */
IRS_API struct irs_error *irs_session_verified(struct irs_session *s,
					       uint32_t seq,
					       const char *verifier,
					       uint32_t problems,
					       const char *output);

/** What went wrong, for failure.json. */
struct irs_failure_info {
	const char *kind;	/* "signal" or "verifier" */
	int32_t signo;		/* 0 for a verifier failure */
	const char *signame;	/* "SIGSEGV", or NULL */
	const char *pass;	/* NULL: the pass of the open event, if any */
	const char *message;	/* verifier output or extra detail, or NULL */
	uint64_t ir_root;	/* IR at the crash for a best-effort
				   snapshot, or 0 */
};
/**
 * Writes failure.json: the failure, the pass and its sequence number, the
 * backtrace (through @p t->frame), the last before snapshot, a best-effort
 * snapshot of the IR at @p info->ir_root (walk errors recorded) and a ready
 * reduce command. Rewrites the manifest.
 */
IRS_API struct irs_error *irs_session_failure(struct irs_session *s,
					      const struct irs_target *t,
					      struct irs_memory *mem,
					      const struct irs_failure_info *info);
/**
 * Closes the run: the debuggee exited with @p exit_status. The manifest
 * gets status "completed" (or stays "failed") and the exit status.
 * Without this call a run stays "running", as if the debugger was killed.
 */
IRS_API struct irs_error *irs_session_finish(struct irs_session *s,
					     int32_t exit_status);
/** A few lines for `ir-status`; *ret freed with irs_free(). */
IRS_API struct irs_error *irs_session_status(const struct irs_session *s,
					     char **ret);

/** The debuggee's user+system CPU time in seconds: the kernel's process
 *  CPU clock (nanoseconds), else /proc/PID/stat (clock ticks). */
IRS_API struct irs_error *irs_proc_cpu_time(int64_t pid, double *ret);

/* ==== Console: the ir-* commands, shared by the GDB and LLDB front ends == */

/*
 * The console holds one debugger session's irsnap state (layout, settings,
 * run directory, open pass events) and implements every ir-* command, so
 * that both front ends have the same commands, options, output and errors.
 * A front end registers the commands, forwards their argument strings here,
 * prints what comes back, and reports debuggee events (boundary entry and
 * return, fatal signal, exit). The console reads the target's fields (pid,
 * core_path, exe_path) afresh at every call, so a front end just updates
 * them when the process changes, and it drops cached memory at every call,
 * since the debuggee may have run.
 */
struct irs_console;

/** @p t is borrowed and must outlive the console. *ret freed with
 *  irs_console_destroy(). */
IRS_API struct irs_error *irs_console_create(const struct irs_target *t,
					     struct irs_console **ret);
IRS_API void irs_console_destroy(struct irs_console *c);

/**
 * Runs ir-* command @p name ("ir-layout", "ir-dump", "ir-break",
 * "ir-trace", "ir-verify", "ir-report", "ir-status", "ir-set") with the
 * argument string @p args (shell-like quoting). *out_ret gets the text to
 * print (possibly ""), freed with irs_free(). A user error comes back as an
 * error whose message is the one line to show.
 */
IRS_API struct irs_error *irs_console_command(struct irs_console *c,
					      const char *name,
					      const char *args,
					      char **out_ret);
/** Help text of command @p name, with an example; borrowed; NULL if unknown. */
IRS_API const char *irs_console_help(const char *name);
/** The command names, NULL-terminated; borrowed. */
IRS_API const char *const *irs_console_commands(void);
/**
 * Completion candidates for the last word @p word of command @p name's
 * arguments (options, layout types, pass names seen, files are left to the
 * debugger): newline-separated, freed with irs_free().
 */
IRS_API char *irs_console_complete(struct irs_console *c, const char *name,
				   const char *word);

/**
 * Settings: "dir", "max-nodes", "max-bytes", "max-depth", "format"
 * (text|json|both). irs_console_get() returns the value as text, freed with
 * irs_free(); irs_console_settings() names them, NULL-terminated.
 * Two more, not listed, are the front end's to fill for the manifest:
 * "debugger" ("gdb 13.1") and "args" (the debuggee's arguments).
 */
IRS_API struct irs_error *irs_console_set(struct irs_console *c,
					  const char *key, const char *value);
IRS_API struct irs_error *irs_console_get(const struct irs_console *c,
					  const char *key, char **ret);
IRS_API const char *const *irs_console_settings(void);

/**
 * Functions the front end must break on, at entry, for the current ir-break
 * and ir-trace requests and the layout's boundaries. Changes after ir-break,
 * ir-trace and ir-layout; the front end re-reads it after each command.
 * Strings borrowed until the next command.
 */
IRS_API uint32_t irs_console_nbreaks(const struct irs_console *c);
IRS_API const char *irs_console_break_function(const struct irs_console *c,
					       uint32_t i);

/**
 * The debuggee stopped at the entry of boundary function @p function, frame
 * 0 selected. The console evaluates the pass name and IR root through the
 * target, takes the before snapshot when tracing, and sets *stop_ret when
 * the user asked to stop here (ir-break). The front end must report the
 * matching return with irs_console_boundary_exit() (calls nest).
 * *out_ret gets text to print, freed with irs_free(). A snapshot that
 * cannot be taken (a full disk) is returned as the error, with *stop_ret
 * and *out_ret still set: print both, and stop if asked.
 */
IRS_API struct irs_error *irs_console_boundary_enter(struct irs_console *c,
						     const char *function,
						     bool *stop_ret,
						     char **out_ret);
/** The innermost open boundary call returned: after snapshot, CPU time,
 *  verifiers (--verify); *stop_ret set for ir-break --after or a verifier
 *  failure under --stop-on-verify; errors as for the entry. */
IRS_API struct irs_error *irs_console_boundary_exit(struct irs_console *c,
						    bool *stop_ret,
						    char **out_ret);
/** The debuggee stopped on fatal signal @p signo: when tracing, writes
 *  failure.json (backtrace through the target). */
IRS_API struct irs_error *irs_console_signal(struct irs_console *c,
					     int32_t signo,
					     const char *signame,
					     char **out_ret);
/** The debuggee exited with @p status: closes the run (status completed).
 *  A negative @p status means killed, not exited: the run is closed but
 *  keeps its status ("running", or "failed"). */
IRS_API struct irs_error *irs_console_exited(struct irs_console *c,
					     int32_t status, char **out_ret);

/* ==== Reducer ============================================================ */

struct irs_reduce_config {
	const char *input;	/* file to shrink, or a run directory */
	const char *test_cmd;	/* --test: {} = candidate path, 0 = interesting */
	const char *crash_cmd;	/* --crash: same crash signature as input */
	const char *output;	/* result path; NULL: INPUT.reduced */
	const char *layout;	/* --layout: snapshot a plain INPUT under GDB
				   with this layout and reduce the snapshot
				   with its units and def-use edges; or NULL */
	uint32_t jobs;		/* 0: number of cores */
	double timeout;		/* seconds per test; 0: 60 */
	uint32_t retries;	/* extra tries before "not interesting" */
	bool progress;		/* progress line on stderr */
	const char *exe;	/* --layout: the compiler command that parses
				   INPUT under GDB ({} = INPUT, else added
				   last); NULL: the --crash or --test
				   command, whose first word must then be
				   the compiler */
};

struct irs_reduce_result {
	uint64_t lines_before, lines_after;
	uint64_t bytes_before, bytes_after;
	uint32_t tests;		/* test runs, all kinds */
	uint32_t interesting, boring, timeouts, cache_hits;
	double seconds;
};

/**
 * Shrinks cfg->input while the test stays interesting and writes the result
 * to cfg->output plus repro.sh beside it. On SIGINT the best result so far is
 * written and IRS_ERROR_INTERRUPTED returned with *ret filled.
 */
IRS_API struct irs_error *irs_reduce_run(const struct irs_reduce_config *cfg,
					 struct irs_reduce_result *ret);

/* ==== Replay and report: the irsnap tool's batch jobs ================== */

/** What `irsnap replay` runs, and how often. */
struct irs_replay_config {
	const char *const *argv;	/* PROG ARGS..., NULL-terminated */
	const char *layout;	/* layout file; required */
	const char *debugger;	/* "gdb" or "lldb"; NULL: gdb */
	const char *trace;	/* pass regex for ir-trace, NULL: every pass */
	const char *reduce;	/* NULL: no reduction; "auto": `irsnap
				   reduce RUN` with the failure's reduce
				   command as it is (the layout's rerun
				   template, whose {flags} keep PROG's
				   one-word options such as --bug=flaky);
				   else a crash test for `irsnap reduce RUN
				   --crash CMD`, {pass} and {exe} filled in,
				   {} the candidate */
	const char *dir;	/* output root; NULL: $IRSNAP_DIR or
				   ./irsnap-out */
	const char *irsnap_exe;	/* the irsnap tool, run for `irsnap reduce`
				   and used to find gdb/irsnap.py and the
				   LLDB plugin ($IRSNAP_ROOT overrides);
				   NULL: this process's executable */
	uint32_t runs;		/* attempts; 0: 20 */
	bool all;		/* keep going after the first failure */
	double timeout;		/* seconds per attempt; 0: 300 */
	bool progress;		/* a line per attempt on stderr */
};

/** What a replay found. The strings are freed with irs_free(). */
struct irs_replay_result {
	uint32_t attempts;	/* debugger runs made */
	uint32_t failures;	/* attempts that left a failure.json */
	uint32_t groups;	/* distinct failure signatures */
	char *dir;		/* the replay directory */
	char *summary;		/* table: signature, count, first attempt,
				   run directory, reproducer */
};

/**
 * Runs cfg->argv under the debugger in batch mode with ir-trace on, up to
 * cfg->runs times or until a run fails, each attempt in its own run
 * directory under <dir>/replay-<id>/attempt-NNN/; groups failures by
 * signature (signal or verifier, pass, top three functions), reduces the
 * first failure of each group into RUN/repro/ when asked, and writes
 * replay.json in the replay directory. A missing debugger is
 * IRS_ERROR_NOT_FOUND naming the package to install; an attempt that
 * traced nothing (the layout did not load) is IRS_ERROR_TARGET quoting
 * the debugger's error. On success *ret is filled (failures found are not
 * an error); on SIGINT the attempt is killed, *ret is filled with what was
 * seen, and IRS_ERROR_INTERRUPTED returned.
 */
IRS_API struct irs_error *irs_replay_run(const struct irs_replay_config *cfg,
					 struct irs_replay_result *ret);

/**
 * Writes one self-contained HTML page for run directory @p run to
 * @p html_path (atomically): header, pass timeline with CPU time bars,
 * per-pass IR diffs and the failure. A damaged run directory is
 * IRS_ERROR_FORMAT or IRS_ERROR_NOT_FOUND naming the file.
 */
IRS_API struct irs_error *irs_report_write(const char *run,
					   const char *html_path);

#ifdef __cplusplus
}
#endif
#endif /* IRSNAP_H */
