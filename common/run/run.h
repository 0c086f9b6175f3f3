/*
 * run/run.h — the run area: a tracing session and everything it writes in
 * its run directory: run directory names and `latest` (rundir.c), the
 * manifest (manifest.c), snapshots as files (snapshot.c), verifiers over a
 * walk (verify.c), failure reports (failure.c), the debuggee's CPU time
 * (proc.c), and the session that drives them pass by pass (session.c).
 * The public half is the "Session" section of irsnap.h.
 * May use: walk/, layout/, mem/, util/.
 */
#ifndef IRSNAP_RUN_H
#define IRSNAP_RUN_H

#include <jansson.h>

#include "walk/walk.h"

/* ---- rundir.c: run directory names and the `latest` link ----------------- */

/** The output root: @p dir, else $IRSNAP_DIR, else "./irsnap-out";
 *  borrowed from the argument or the environment. */
const char *irs_rundir_root(const char *dir);
/**
 * Writes the first files of a run in @p stage_dir (a staging directory
 * that will be renamed to @p final_dir, the run @p id): the manifest, with
 * paths that say @p final_dir. Called again with the next id when the name
 * was taken meanwhile.
 */
typedef struct irs_error *(*irs_rundir_fill_fn)(void *arg,
						 const char *stage_dir,
						 const char *final_dir,
						 const char *id);
/**
 * Creates the run directory <root>/<YYYYMMDD-HHMMSS-pid>[-N]/ with its
 * snapshots/ folder and what @p fill writes, all at once: it is built in a
 * hidden staging directory and renamed into place, so it never exists
 * without its manifest. root is made absolute and created if needed.
 * *dir_ret (absolute path) and *id_ret are freed with free(); written only
 * on success. On failure nothing is left behind.
 */
struct irs_error *irs_rundir_create(const char *root, int64_t pid,
				    irs_rundir_fill_fn fill, void *arg,
				    char **dir_ret, char **id_ret);
/** Points <root>/latest at @p id: a symlink made under a temporary name,
 *  then renamed over `latest`, so readers never see it missing. */
struct irs_error *irs_rundir_link_latest(const char *root, const char *id);
/** Whether @p c may stand in a file name irsnap makes from a name it was
 *  given (a pass, a program): [A-Za-z0-9_.-]; other bytes become '_'. */
bool irs_rundir_name_char(char c);
/**
 * The path, relative to the run directory, of snapshot @p seq of @p pass
 * in @p phase ("before", "after", "crash") with extension @p ext ("ir",
 * "json"): "snapshots/0001-cse.before.ir". Bytes of @p pass outside
 * [A-Za-z0-9_.-] become '_' and long names are cut, so it is always one
 * safe file name. Freed with free(); NULL on OOM.
 */
char *irs_rundir_snapshot_name(uint32_t seq, const char *pass,
			       const char *phase, const char *ext);
/** "<dir>/<rel>", freed with free(); NULL on OOM. */
char *irs_path_join(const char *dir, const char *rel);
/** Makes an I/O error of irs_snapshot_write() name the file that failed by
 *  the path it was given, @p text or @p json (the writer may call it by
 *  its base name, or "text output" / "JSON output"). Takes and returns
 *  @p err; other errors are returned as they are. */
struct irs_error *irs_rundir_name_error(struct irs_error *err,
					const char *text, const char *json);
/** Removes the files of @p rel (relative to @p dir); NULL entries skipped. */
void irs_rundir_unlink(const char *dir, const char *rel);
/** Removes a run directory that never got past its manifest: the
 *  manifest, the empty snapshots/ folder, @p dir itself. */
void irs_rundir_remove_empty(const char *dir);
/**
 * "<dir>/<rel>" for a file a run directory's own documents name (or the
 * manifest itself), in *ret (freed with free()), when it stays inside the
 * run: @p rel relative, without "..", and no component of it a symbolic
 * link (irsnap writes none there, and one may point anywhere). Otherwise
 * an IRS_ERROR_FORMAT error naming the file and why. Whether the file
 * exists is the reader's business.
 */
struct irs_error *irs_rundir_file(const char *dir, const char *rel,
				  char **ret);
/** The run directory the `latest` link in @p root names, in *ret (freed
 *  with free()); IRS_ERROR_NOT_FOUND when there is no link, a format
 *  error when it names anything but a directory beside it. */
struct irs_error *irs_rundir_latest(const char *root, char **ret);

/* ---- manifest.c: manifest.json, the run's header and summary ------------- */

/** Seconds a running trace goes at most without a new manifest.json (its
 *  summary and "updated"); the events themselves are in events.jsonl.
 *  $IRSNAP_MANIFEST_PERIOD (seconds, from 0) overrides it, for tests. */
#define IRS_MANIFEST_PERIOD_S 5.0

/** The manifest document (irsnap.manifest/2) and where it lives. Owns
 *  everything. */
struct irs_manifest {
	json_t *root;		/* the whole document */
	char *path;		/* <run dir>/manifest.json */
	char *run_id;
	double started;		/* monotonic seconds at init */
	double saved_at;	/* and at the last save */
	double period;		/* IRS_MANIFEST_PERIOD_S, or the override */
};

/**
 * Builds the first manifest of run @p run_id in @p dir (status "running",
 * an empty summary) from @p cfg and the layout name @p layout_name (may be
 * NULL). Does not write it; call irs_manifest_save().
 */
struct irs_error *irs_manifest_init(struct irs_manifest *m, const char *dir,
				    const char *run_id,
				    const struct irs_session_config *cfg,
				    const char *layout_name);
void irs_manifest_deinit(struct irs_manifest *m);
/** Sets "updated" to now and writes the document atomically. On failure
 *  the previous manifest.json stays as it was; the error names the file. */
struct irs_error *irs_manifest_save(struct irs_manifest *m);
/** Whether IRS_MANIFEST_PERIOD_S have passed since the last save. */
bool irs_manifest_due(const struct irs_manifest *m);
/** Seconds since irs_manifest_init(), on the monotonic clock: an event's
 *  "at_s". */
double irs_manifest_elapsed(const struct irs_manifest *m);
/** Sets "status" ("running", "completed", "failed", "stopped"). */
bool irs_manifest_set_status(struct irs_manifest *m, const char *status);
/** Sets the "summary": events written to events.jsonl, passes begun. */
bool irs_manifest_set_summary(struct irs_manifest *m, uint64_t events,
			      uint32_t passes);
/** Appends verifier result @p r (irs_session_verifier_result()) to event
 *  @p ev. False on OOM. */
bool irs_manifest_event_verifier(json_t *ev,
				 const struct irs_verifier_result *r);
/** Names, in event @p ev (its snapshot written before), the JSON graph
 *  @p json written for it later (a failure's input), with its stats
 *  @p st: json_bytes, and bytes as that walk (a full one) read them.
 *  False on OOM or when the event names no snapshot. */
bool irs_manifest_event_json(json_t *ev, const char *json,
			     const struct irs_snapshot_stats *st);
/** A JSON string for @p s (null for NULL); bytes that are not UTF-8
 *  become '?'. NULL on OOM. */
json_t *irs_json_text(const char *s);
/** Snapshots of session @p s lost to write errors so far. */
uint32_t irs_session_lost(const struct irs_session *s);
/** Records in the manifest (optional members "lost" and "incomplete")
 *  that the @p phase snapshot of pass @p seq could not be written, and
 *  why. False on OOM. Saved with the next irs_manifest_save(). */
bool irs_manifest_lost(struct irs_manifest *m, uint32_t seq,
		       const char *pass, const char *phase,
		       const char *error);
/** One pass of a manifest read back: its events, borrowed. */
struct irs_manifest_pass {
	json_int_t seq;
	const json_t *before, *after;	/* either may be NULL */
};
/**
 * The passes of @p events (a manifest's "events"): before and after events
 * paired by seq, one pass per seq in seq order (of several events with one
 * seq and phase, the last), in O(n log n) for runs of any length. Events
 * without an integer seq and a phase "before" or "after" are left out.
 * *ret freed with free(); NULL with *n_ret 0 when there is none.
 */
struct irs_error *irs_manifest_passes(const json_t *events,
				      struct irs_manifest_pass **ret,
				      size_t *n_ret);
/** A pass's CPU seconds (a JSON number, borrowed) from its @p after event,
 *  or for the pass @p seq that crashed and has none, from @p failure's
 *  pass.cpu_s (the time up to the crash); NULL when unknown. */
const json_t *irs_manifest_pass_cpu(const json_t *after, json_int_t seq,
				    const json_t *failure);
/** What the verifier results of some events add up to. */
struct irs_verdict {
	uint32_t nran;		/* results of verifiers that ran */
	uint32_t nnotrun;	/* "not run" results */
	uint32_t nnone;		/* "none": asked for, and the layout
				   declares no verifier */
	uint64_t problems;	/* found by those that ran */
};
/** Adds event @p ev's "verifiers" to @p v (a result without "status",
 *  written before there was one, counts as run). NULL is no event. */
void irs_manifest_verdict(const json_t *ev, struct irs_verdict *v);
/** @p v in words into @p buf: "-" (no result), "no verifier", "ok", "93
 *  problems", "not run", "ok, 1 not run", "93 problems, 1 not run". */
void irs_verdict_text(const struct irs_verdict *v, char *buf, size_t len);
/** Whether live process @p pid was attached to rather than started by
 *  this debugger (neither its parent, as GDB is, nor its grandparent, as
 *  LLDB is through lldb-server). */
bool irs_proc_attached(int64_t pid);
/** Keeps the /proc file irs_proc_thread_sp() reads open from one stop to
 *  the next (opening it cost more than reading it). Zero it to start; the
 *  owner closes it with irs_proc_sp_close(). */
struct irs_proc_sp {
	int64_t pid;
	uint64_t tid;
	int fd;		/* open when pid is not 0 */
};
/** The stack pointer and, if @p pc is not NULL, the program counter of
 *  thread @p tid of live process @p pid while it is stopped (at a
 *  breakpoint), from /proc/PID/task/TID/syscall: no call into the
 *  debugger. @p keep (NULL: none) holds the file open for the next call.
 *  false when it cannot be read (the thread runs, the kernel refuses). */
bool irs_proc_thread_sp(struct irs_proc_sp *keep, int64_t pid, uint64_t tid,
			uint64_t *sp, uint64_t *pc);
/** x86-64's general registers and rip, by DWARF number (rax, rdx, rcx,
 *  rbx, rsi, rdi, rbp, rsp, r8-r15, rip). */
#define IRS_PROC_NREGS 17
/** The registers of stopped thread @p tid, by PTRACE_GETREGS: only a
 *  process that traces it may (GDB's, which the library is loaded in; not
 *  LLDB's, whose lldb-server traces), and reading changes nothing. false
 *  when it may not, or not on x86-64. */
bool irs_proc_thread_regs(uint64_t tid, uint64_t regs[IRS_PROC_NREGS]);
/** Closes what @p keep holds open; it may be used again. */
void irs_proc_sp_close(struct irs_proc_sp *keep);
/** An address range [start, end). */
struct irs_proc_range {
	uint64_t start, end;
};
/** One line of /proc/PID/maps; path is "" for an anonymous mapping,
 *  "[stack]" and such for the kernel's. */
struct irs_proc_mapping {
	uint64_t start, end, offset;
	char perms[8];		/* "r-xp" */
	const char *path;	/* valid during the callback only */
};
typedef bool (*irs_proc_mapping_fn)(const struct irs_proc_mapping *m,
				    void *arg);
/** Calls @p fn on each mapping of live process @p pid, in order, until it
 *  returns true; *@p found says whether one did. An error when
 *  /proc/PID/maps cannot be read. */
struct irs_error *irs_proc_mappings(int64_t pid, irs_proc_mapping_fn fn,
				    void *arg, bool *found);
/** The mappings of live process @p pid that nobody writes: private
 *  mappings of a file, without write permission (.text, .rodata,
 *  .data.rel.ro after relocation), from /proc/PID/maps. *ret freed with
 *  free(); none (and *n_ret 0) when they cannot be read. */
struct irs_error *irs_proc_fixed_ranges(int64_t pid,
					struct irs_proc_range **ret,
					size_t *n_ret);
/** The arguments after argv[0] of @p argv, @p len bytes of NUL-separated
 *  strings as in /proc/PID/cmdline, as one shell-quoted string; NULL when
 *  out of memory. Freed with free(). */
char *irs_cmdline_args(const char *argv, size_t len);
/** Process @p pid's arguments after argv[0], from /proc/PID/cmdline, as
 *  with irs_cmdline_args(); NULL when unreadable. Freed with free(). */
char *irs_proc_args(int64_t pid);
/** Current UTC time as "2026-11-30T05:15:00Z" into @p buf (>= 21 bytes). */
void irs_manifest_now(char *buf, size_t len);

/* ---- events.c: events.jsonl, the append-only event log ------------------- */

/** The event log's name in a run directory. */
#define IRS_EVENT_LOG "events.jsonl"

/** An event log being written. Owns its descriptor and path. */
struct irs_event_log {
	int fd;			/* O_APPEND; -1 when closed */
	char *path;
	uint64_t size;		/* bytes of whole lines written */
	uint64_t nlines;	/* lines written */
	bool torn;		/* a cut-short line could not be cut off */
	struct irs_buf line;	/* the line being written, reused */
};

/** Creates <dir>/events.jsonl, empty, for appending (it must not exist). */
struct irs_error *irs_event_log_create(struct irs_event_log *log,
				       const char *dir);
/** Closes the log; a closed (or zeroed, fd -1) log is fine too. */
void irs_event_log_close(struct irs_event_log *log);
/** The log's directory was renamed to @p dir (its descriptor follows the
 *  file): messages name it there. False on OOM. */
bool irs_event_log_rename(struct irs_event_log *log, const char *dir);
/** What a new event line says (irsnap.event/1), for irs_event_format(). */
struct irs_event_data {
	uint32_t seq;
	const char *pass;
	const char *phase;		/* "before" or "after" */
	const char *text, *json;	/* its files, relative; NULL: none */
	bool skipped;			/* "snapshot": null (--changed-only) */
	const struct irs_snapshot_stats *st;
	uint32_t position;		/* 0: not known */
	uint64_t root;			/* the IR root the pass was given */
	const char *root_type;		/* its layout type; NULL: not said */
	const char *instance;		/* what the pass ran on (a function),
					   the boundary's label; NULL: none */
	bool changed;			/* after events */
	bool has_cpu;			/* after events: the pass's CPU time */
	double cpu_s;
	uint32_t same_as_seq;		/* a copy of that walk's files; 0: none */
	const char *same_as_phase;
	double at_s;
};
/**
 * Appends event @p e to @p b as one line with its newline, built as
 * text: what jansson writes for the same object with
 * irs_event_log_append()'s flags, so that a line written again (a
 * verifier's result added) reads alike, in a fraction of the time (a trace
 * writes one at every pass boundary).
 */
void irs_event_format(struct irs_buf *b, const struct irs_event_data *e);
/** Appends the line @p line (@p len bytes, its newline included) as
 *  irs_event_log_append() does. */
struct irs_error *irs_event_log_append_text(struct irs_event_log *log,
					    const char *line, size_t len);
/**
 * Appends @p ev as one line, in one write(): a line whose seq and phase
 * repeat an earlier one's stands for it (the event written again with a
 * verifier's result, or the JSON graph a failure added). A write that
 * fails leaves no part of the line behind; the error names the file.
 */
struct irs_error *irs_event_log_append(struct irs_event_log *log,
				       const json_t *ev);

/** What reading an event log found besides its events. */
struct irs_event_log_info {
	size_t nlines;		/* whole lines (ending in a newline) */
	size_t torn_bytes;	/* bytes after the last newline: a line cut
				   short by a kill, ignored; 0 when none */
	size_t nbad;		/* whole lines that are no JSON object,
				   skipped */
	size_t bad_line;	/* the first of them (1-based), or 0 */
	char bad[160];		/* and why */
};
/** Called per event line that parses: @p ev (an object, reference
 *  stolen) from line @p line (1-based). An error ends the reading. */
typedef struct irs_error *(*irs_event_line_fn)(void *arg, size_t line,
					       json_t *ev);
/** Reads event log @p path line by line, calling @p fn; *info says what
 *  else it found. Errors: the file's, @p fn's. */
struct irs_error *irs_event_log_read(const char *path, irs_event_line_fn fn,
				     void *arg,
				     struct irs_event_log_info *info);
/** What @p info says besides the events, in one line ("events.jsonl: its
 *  last line was cut short ..."), "" when nothing; freed with free(),
 *  NULL on OOM. */
char *irs_event_log_describe(const struct irs_event_log_info *info);
/** The events of @p lines (in log order) as readers see them: a later line
 *  of an event (the same seq and phase) in the place of its first. *ret
 *  freed with json_decref(); @p lines is left with the later lines
 *  moved. */
struct irs_error *irs_event_log_merge(json_t *lines, json_t **ret);
/** irs_event_log_read() and irs_event_log_merge(): the log's events as
 *  one array, in *ret (freed with json_decref()). */
struct irs_error *irs_event_log_load(const char *path, json_t **ret,
				     struct irs_event_log_info *info);
/**
 * Run directory @p dir as one document, as readers of either version want
 * it: its manifest.json, with for irsnap.manifest/2 the events of its
 * events.jsonl (irs_event_log_load()) as "events" (irsnap.manifest/1 has
 * them inside; *info is then zero). Files are taken as irs_rundir_file()
 * allows. *ret freed with json_decref(). A manifest of another schema is
 * an IRS_ERROR_FORMAT error naming it.
 */
struct irs_error *irs_run_load(const char *dir, json_t **ret,
			       struct irs_event_log_info *info);

/* ---- image.c: the IR's bytes at a pass's entry, kept ------------------- */

/** A copy of the bytes a walk read, shared by reference. */
struct irs_image;
/** A buffer an image no longer needs, kept for the next (zeroed: none);
 *  it must outlive the images made with it. */
struct irs_image_pool {
	uint8_t *data;
	uint64_t cap;
};
void irs_image_pool_deinit(struct irs_image_pool *pool);

/**
 * Copies, from @p mem now, every byte print @p p lists (the walk's reads,
 * read-ahead included), for a walk over them later (irs_image_memory()),
 * into a buffer of @p pool (or NULL) when it has one big enough, which
 * goes back there when the image is dropped. Call while those bytes read
 * as they did for the walk. *ret has one reference, dropped with
 * irs_image_unref().
 */
struct irs_error *irs_image_capture(struct irs_memory *mem,
				    const struct irs_mem_print *p,
				    struct irs_image_pool *pool,
				    struct irs_image **ret);
/**
 * Whether @p img, captured now from print @p p, shows that every range of
 * @p p reads as it did (its hash, its readable length; a byte unreadable
 * then is probed through @p mem): irs_memory_print_matches() without a
 * second read of the bytes.
 */
bool irs_image_matches(const struct irs_image *img,
		       const struct irs_mem_print *p, struct irs_memory *mem);
/** Another reference to @p img (NULL: NULL). */
struct irs_image *irs_image_ref(struct irs_image *img);
/** Drops a reference; NULL is ignored. */
void irs_image_unref(struct irs_image *img);
/** The bytes @p img holds (0 for NULL). */
uint64_t irs_image_bytes(const struct irs_image *img);
/**
 * A memory reading @p img (it takes a reference of its own): the bytes
 * captured read as they did; a byte not captured reads from @p live when
 * it lies in one of the @p nfixed ranges @p fixed (memory nobody writes,
 * irs_proc_fixed_ranges(), so it reads as it did at the capture; both
 * borrowed, may be NULL), else faults saying it was not kept. *ret freed
 * with irs_memory_destroy(), before @p live and @p fixed.
 */
struct irs_error *irs_image_memory(struct irs_image *img,
				   struct irs_memory *live,
				   const struct irs_proc_range *fixed,
				   size_t nfixed, struct irs_memory **ret);

/* ---- failure.c: failure.json --------------------------------------------- */

/** What the session knows about the failing pass, for failure.json. */
struct irs_failure_site {
	const char *run_id;
	const char *dir;		/* run directory */
	const char *pass;		/* NULL when unknown */
	const char *instance;		/* its instance label, or NULL:
					   "main" of "ssa@main" */
	const char *rerun_pass;		/* the rerun template's {pass}: the
					   boundary's rerun_pass, else the
					   layout's pass_names for the pass,
					   else NULL (the pass without its
					   instance); "" when the boundary
					   has one that could not be read */
	uint32_t seq;			/* 0 when unknown */
	const char *before_text;	/* relative paths, or NULL */
	const char *before_json;
	const char *exe;		/* debuggee, for the reduce command */
	const char *args;		/* its arguments, one shell-quoted
					   string, for {flags}; or NULL */
	const char *rerun;		/* the layout's template, or NULL */
	const struct irs_verifier_info *verifier;	/* the verifier that
					   failed (kind "verifier"), whose
					   own rerun the reduce command
					   uses; or NULL */
	bool reduce_program;		/* the layout reduces the program: */
	const char *program;		/* its copy in the run (relative),
					   or NULL when it could not be read */
	bool has_cpu;			/* the debuggee's CPU seconds in the */
	double cpu_s;			/* pass up to the failure, when known */
};

/**
 * Builds the failure document: @p info, the site, the backtrace through
 * @p t->frame (innermost first, at most 64 frames), and @p crash (an object
 * {text, json, walk_errors}, reference stolen, or NULL). *ret freed with
 * json_decref().
 */
struct irs_error *irs_failure_build(const struct irs_failure_site *site,
				    const struct irs_target *t,
				    const struct irs_failure_info *info,
				    json_t *crash, json_t **ret);
/**
 * The ready reduce command "irsnap reduce BEFORE --crash 'RERUN'", RERUN
 * being @p rerun with {exe}, {pass} and {input} replaced by @p exe, @p pass
 * and {} (the reducer's candidate), and {flags} by the debuggee's one-word
 * options taken from @p args (its arguments as one shell-quoted string, or
 * NULL): those starting with '-' that carry no separate value word, except
 * any the template sets literally (compared up to '='). Every value is
 * shell-quoted. Freed with free(); NULL on OOM.
 */
/** @p pass without "@INSTANCE" at its end (the pass a rerun runs: "ssa"
 *  of "ssa@main"), a copy freed with free(); NULL on OOM. */
char *irs_failure_bare_pass(const char *pass, const char *instance);
char *irs_failure_reduce_command(const char *rerun, const char *exe,
				 const char *args, const char *pass,
				 const char *before);
/**
 * The same for a verifier failure: "irsnap reduce BEFORE --verifier 'RERUN'
 * [--problem RE] [--broken RE]", RERUN from @p v->rerun (which must be
 * set) as above, the regexes @p v's.
 */
char *irs_failure_verify_command(const struct irs_verifier_info *v,
				 const char *exe, const char *args,
				 const char *pass, const char *before);
/**
 * The program the debuggee was given: the first word of @p args (one
 * shell-quoted string) that is neither an option nor an option's value
 * (as {flags} tells them apart), up to "--". Freed with free(); NULL when
 * there is none or on OOM.
 */
char *irs_failure_program(const char *args);

/* ---- snapshot.c ---------------------------------------------------------- */

/**
 * Walks the IR at @p root as type @p type (NULL: the root type) and writes
 * the text to @p text and the JSON document to @p json (either may be NULL);
 * @p text_file is what the JSON calls the text file (or NULL). The streams
 * are flushed, not closed. On success *ret is the caller's.
 */
struct irs_error *irs_snapshot_stream(const struct irs_layout *lo,
				      struct irs_memory *mem, uint64_t root,
				      const char *type,
				      const struct irs_limits *limits,
				      FILE *text, FILE *json,
				      const char *text_file,
				      struct irs_snapshot **ret);
/**
 * irs_snapshot_write() with the renderings of the units of @p units (or
 * NULL) kept from the last walk and for the next (walk/units.c): a unit
 * whose bytes read the same is not walked again. Only a text-only walk
 * uses them.
 */
struct irs_error *irs_snapshot_write_units(const struct irs_layout *lo,
					   struct irs_memory *mem,
					   uint64_t root, const char *type,
					   const struct irs_limits *limits,
					   const char *text_path,
					   const char *json_path,
					   struct irs_unit_cache *units,
					   struct irs_snapshot **ret);
/** irs_snapshot_write_units() writing new files (paths that do not exist
 *  yet) with files @p pool made ahead (NULL: none). */
struct irs_error *irs_snapshot_write_files(const struct irs_layout *lo,
					   struct irs_memory *mem,
					   uint64_t root, const char *type,
					   const struct irs_limits *limits,
					   const char *text_path,
					   const char *json_path,
					   struct irs_unit_cache *units,
					   struct irs_file_pool *pool,
					   struct irs_snapshot **ret);
/**
 * Writes the JSON graph of a walk of @p root as @p type to @p json_path
 * (atomically) without a text file, whose name the JSON still gives as
 * @p text_file: the graph, stats included, is what a walk writing both
 * would write. On success *ret is the caller's.
 */
struct irs_error *irs_snapshot_write_json(const struct irs_layout *lo,
					  struct irs_memory *mem,
					  uint64_t root, const char *type,
					  const struct irs_limits *limits,
					  const char *json_path,
					  const char *text_file,
					  struct irs_snapshot **ret);
/** The layout type called @p name (NULL: the root type), or an error that
 *  names the types there are. */
struct irs_error *irs_layout_type_for(const struct irs_layout *lo,
				      const char *name,
				      const struct ltype **ret);
/**
 * Writes a snapshot of @p root as @p type, to @p text_path and/or
 * @p json_path, as a copy of an earlier one's files @p from_text and
 * @p from_json (each present when its new path is): for a walk that
 * would read the same bytes. The JSON's text_file names the new text file.
 * IRS_ERROR_FORMAT when @p from_json does not begin as that walk's would
 * (then nothing is written).
 */
struct irs_error *irs_snapshot_copy(const struct irs_layout *lo, uint64_t root,
				    const char *type, const char *from_text,
				    const char *from_json,
				    const char *text_path,
				    const char *json_path);

#endif
