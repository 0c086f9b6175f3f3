/*
 * tools/tools.h — the batch tools of the `irsnap` CLI, linked into it and
 * never into the library the debuggers load: replay (replay.c), the HTML
 * report (report.c), JSON Schema validation (schema.c) of run directories
 * and files (validate.c), and line diffs of two texts (textdiff.c).
 * May use: reduce/, launch/, run/, util/ (and so everything below them).
 * The CLI includes this header and irsnap.h, nothing else of common/.
 */
#ifndef IRSNAP_TOOLS_H
#define IRSNAP_TOOLS_H

#include <jansson.h>

#include "reduce/reduce.h"

/* ---- donor.c: building a layout's type donor ----------------------------- */

/**
 * Compiles the type donor layout @p layout declares (donor { ... }) with
 * the C++ compiler @p cxx (NULL: $CXX, else c++) and the extra include
 * directories @p inc into irsnap's donor cache, where ir-layout load finds
 * it. *obj_ret gets the object's path (freed with free()), *secs_ret the
 * time it took. The compiler's own messages go to stderr.
 */
struct irs_error *irs_donor_build(const char *layout, const char *cxx,
				  const char *const *inc, size_t ninc,
				  char **obj_ret, double *secs_ret);

/* ---- textdiff.c: line diff, written as a unified diff (diff -u) ---------- */

/** What a diff found. */
struct irs_textdiff_stats {
	uint64_t added, removed;	/* lines */
	bool gave_up;	/* a region was too different to align line by
			   line and had no line unique to it on both
			   sides; it is shown as removed, then added */
};

/**
 * Appends to @p out a unified diff of text @p a (called @p aname in the
 * "---" header) against @p b (called @p bname), with @p context lines of
 * context around each change; appends nothing when the texts are equal.
 * A line's identity includes its newline, and a last line without one is
 * followed by "\ No newline at end of file", as diff(1) does.
 * The alignment is Myers' O(ND) diff in linear space over the lines both
 * texts have (a line found on one side only is a change, as in GNU diff),
 * so the diff is minimal; a region that would cost too much is split at
 * the lines that occur once on each side (patience diff), which keeps it
 * near-minimal, and only a costly region without such a line is shown as
 * replaced wholesale (stats->gave_up).
 * @p ret may be NULL. Returns NULL or &irs_enomem; on error @p out may hold
 * part of the diff.
 */
struct irs_error *irs_textdiff_unified(const char *a, size_t alen,
				       const char *aname,
				       const char *b, size_t blen,
				       const char *bname, uint32_t context,
				       struct irs_buf *out,
				       struct irs_textdiff_stats *ret);

/** irs_textdiff_unified(), and with @p funcname each hunk header names
 *  the function the hunk lies in, as diff -p does: "@@ -4,3 +4,2 @@ func
 *  @f(%a) {" (the nearest unindented line above it with a parameter list,
 *  else the nearest unindented name). */
struct irs_error *irs_textdiff_unified_p(const char *a, size_t alen,
					 const char *aname,
					 const char *b, size_t blen,
					 const char *bname, uint32_t context,
					 bool funcname, struct irs_buf *out,
					 struct irs_textdiff_stats *ret);

/* ---- schema.c: JSON Schema (draft 2020-12 subset) validation ------------- */

/** One schema file, embedded in the library at build time (mk/session.mk
 *  generates the table from common/schema/<name>.schema.json). */
struct irs_schema_file {
	const char *name;		/* "manifest-1.schema.json" */
	const unsigned char *text;	/* the file's bytes */
	size_t len;
};
/** The embedded schema files, ending with a { NULL } entry. */
extern const struct irs_schema_file irs_schema_files[];

/** Problems reported one a line per validated document; past this many,
 *  one "... N more problems" line stands for the rest. */
enum { IRS_SCHEMA_MAX_LINES = 50 };

/**
 * Validates @p doc against the embedded schema for @p id
 * ("irsnap.manifest/1" is manifest-1.schema.json). Appends one line per
 * problem to @p out, "FILE: $.events[3].hash: expected string, got number",
 * with FILE = @p file, and adds their number to *nproblems.
 * Supported keywords: type, properties, required, items, prefixItems, enum,
 * const, pattern (POSIX extended regex), minimum, minItems, minLength,
 * additionalProperties, $ref to "#/...", anyOf, oneOf; any other validation
 * keyword in the schema is an error.
 * Fails (IRS_ERROR_NOT_FOUND) for an unknown @p id, IRS_ERROR_FORMAT for a
 * broken schema, or &irs_enomem.
 */
struct irs_error *irs_schema_validate(const char *id, const json_t *doc,
				      const char *file, struct irs_buf *out,
				      uint32_t *nproblems);
/** The same against a schema given as a parsed document. */
struct irs_error *irs_schema_validate_with(const json_t *schema,
					   const json_t *doc,
					   const char *file,
					   struct irs_buf *out,
					   uint32_t *nproblems);
/**
 * A validation against the schema for @p id in pieces: a document too
 * large to load whole (a snapshot's nodes) checked part by part, with the
 * schema parsed and its patterns compiled once and one cap on the lines
 * reported for @p file. run_check() validates @p x against the subschema
 * at JSON pointer @p at ("#/$defs/node"; "#" or NULL: the whole schema),
 * naming problems from @p path ("$.nodes[12]"). run_end() writes the
 * "... N more" line, adds the problems to *nproblems and frees the run
 * (always). Errors as irs_schema_validate()'s.
 */
struct irs_schema_run;
struct irs_error *irs_schema_run_start(const char *id, const char *file,
				       struct irs_buf *out,
				       struct irs_schema_run **ret);
struct irs_error *irs_schema_run_check(struct irs_schema_run *r,
				       const char *at, const json_t *x,
				       const char *path);
struct irs_error *irs_schema_run_end(struct irs_schema_run *r,
				     uint32_t *nproblems);
/** The embedded schema for @p id, parsed; *ret freed with json_decref(). */
struct irs_error *irs_schema_load(const char *id, json_t **ret);

/* ---- validate.c: run directories and files against their schemas --------- */

/**
 * Checks @p path: a run directory (its manifest.json, failure.json, every
 * snapshot JSON the manifest names, and that every named .ir exists), the
 * parent of a run directory holding `latest`, or one JSON file whose schema
 * is picked by its "schema" member. Appends one line per problem to @p out,
 * each naming its file, and sets *nproblems_ret (and *nfiles_ret, when
 * not NULL, to the number of files checked).
 * Fails only when @p path cannot be read at all or is a directory without
 * a run (IRS_ERROR_NOT_FOUND or IRS_ERROR_IO, naming it), or on
 * &irs_enomem.
 */
struct irs_error *irs_validate_path(const char *path, struct irs_buf *out,
				    uint32_t *nproblems_ret,
				    uint32_t *nfiles_ret);

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
	uint32_t runs;		/* attempts; 0: 20 (of the whole hunt, when
				   sharded: shard K makes K+1, K+1+N, ...) */
	bool all;		/* keep going after the first failure */
	double timeout;		/* seconds per attempt; 0: 300 */
	bool progress;		/* a line per attempt on stderr */
	uint32_t jobs;		/* attempts at once; 0: 1 */
	uint32_t shard, nshards; /* shard K (from 0) of N; nshards 0: 1 */
	uint32_t stop_after_failures; /* 0: no limit; else no attempt starts
				   once the hunt's marker file (in the
				   output root, shared by its shards)
				   holds this many failures */
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
 * cfg->runs times (cfg->jobs at once; this shard's attempts only) or until
 * a run fails, each attempt in its own run directory under
 * <dir>/replay-<id>/attempt-NNN/, with {attempt} in the arguments and
 * $IRSNAP_ATTEMPT its number; groups failures by
 * signature (signal or verifier, pass, top three functions), reduces the
 * first failure of each group into RUN/repro/ when asked, and writes
 * replay.json in the replay directory. A missing debugger is
 * IRS_ERROR_NOT_FOUND naming the package to install; an attempt that
 * traced nothing (the layout did not load) is IRS_ERROR_TARGET quoting
 * the debugger's error. On success *ret is filled (failures found are not
 * an error); on SIGINT the attempt is killed, *ret is filled with what was
 * seen, and IRS_ERROR_INTERRUPTED returned.
 */
struct irs_error *irs_replay_run(const struct irs_replay_config *cfg,
					 struct irs_replay_result *ret);

/** What `irsnap merge` reads and writes. */
struct irs_merge_config {
	const char *const *dirs;	/* replay directories, or directories
					   holding replay-* ones */
	uint32_t ndirs;
	const char *output;	/* NULL: <root>/hunt-YYYYMMDD-HHMMSS */
	const char *reduce;	/* NULL, "auto" or a --crash command, as
				   irsnap replay's --reduce */
	const char *irsnap_exe;	/* NULL: this process's executable */
	bool progress;		/* problems and reductions on stderr */
};

/** What a merge found. The strings are freed with irs_free(). */
struct irs_merge_result {
	uint32_t shards, attempts, failures, groups, problems;
	char *dir;		/* the hunt directory (its replay.json) */
	char *summary;		/* table: signature, count, shards, first */
};

/**
 * Reads the shards' replay directories of a hunt (irsnap.replay/2, each
 * from `irsnap replay --shard K/N`), buckets every failure by signature
 * across them (counts per shard, the first by attempt number), reduces
 * each signature's first failure when asked, and writes one
 * irsnap.hunt/1 replay.json into the hunt directory. A shard that cannot
 * be merged (no replay.json, an older schema, another hunt, a shard
 * number already read) is one line of the document's "problems", and the
 * rest is merged; none at all is IRS_ERROR_NOT_FOUND.
 */
struct irs_error *irs_merge_run(const struct irs_merge_config *cfg,
				struct irs_merge_result *ret);

/**
 * Runs `irsnap reduce RUN --retries R [--trust] [--crash CMD]` (@p self
 * the irsnap executable; @p crash_cmd NULL: the run's own reduce command;
 * @p trust for a run this process made itself) with its
 * output in @p log, killed when *@p stop becomes non-zero. *status_ret is
 * "reduced" or "failed (how; see LOG)", *line_ret the reducer's last line
 * (or NULL); both freed with free().
 */
struct irs_error *irs_replay_reduce(const char *self, const char *run,
				    const char *crash_cmd, uint32_t retries,
				    bool trust, const char *log,
				    volatile sig_atomic_t *stop,
				    char **status_ret, char **line_ret);
/** The --crash or --test command of run directory @p run's failure.json
 *  reduce command, into *ret (freed with free(); NULL when it has none). */
struct irs_error *irs_failure_test_command(const char *run, char **ret);

/* ---- cfg.c: control-flow graphs, drawn by Graphviz ------------------- */

/** The functions, blocks and edges of one snapshot (its "cfg" member,
 *  from the layout's cfg { func, block }). */
struct irs_cfg;
/**
 * Reads the control-flow graphs of the snapshot JSON @p json_path whose
 * text is @p text (@p len bytes, copied): functions and blocks are nodes
 * of the types its "cfg" names, in text order, an edge from a block to
 * each block its last child (its terminator) refers to. *ret freed with
 * irs_cfg_destroy(). IRS_ERROR_NOT_FOUND when the layout declares no cfg.
 */
struct irs_error *irs_cfg_read(const char *json_path, const char *text,
			       size_t len, struct irs_cfg **ret);
void irs_cfg_destroy(struct irs_cfg *g);
/** The first function (in text order, @p a's then @p b's) whose text
 *  differs between @p a and @p b, by its first line (borrowed); NULL when
 *  none does. */
const char *irs_cfg_changed(const struct irs_cfg *a, const struct irs_cfg *b);
/**
 * Appends to @p out the SVG drawing (an <svg> element, drawn by Graphviz's
 * dot) of function @p name (its first line) of @p g: a box per block with
 * its text, the entry's in bold, an arrow per edge. *nblocks_ret its
 * blocks. IRS_ERROR_NOT_FOUND without such a function or without dot;
 * IRS_ERROR_USAGE past 400 blocks; IRS_ERROR_TARGET when dot fails.
 */
struct irs_error *irs_cfg_svg(const struct irs_cfg *g, const char *name,
			      struct irs_buf *out, size_t *nblocks_ret);

/* ---- json_file.c: documents as files ---------------------------------- */

/** Writes @p doc (reference stolen; NULL is out of memory) as DIR/NAME,
 *  atomically, rendered with jansson's @p flags. */
struct irs_error *irs_json_write(const char *dir, const char *name,
				 json_t *doc, size_t flags);

/* ---- html.c: HTML text ------------------------------------------------- */

/** Appends @p len bytes of @p s escaped for HTML text and attribute values;
 *  C0 controls but tab and newline become U+FFFD. */
void irs_html_text(struct irs_buf *b, const char *s, size_t len);
/** The same for a NUL-terminated string (NULL: nothing). */
void irs_html_str(struct irs_buf *b, const char *s);

/**
 * Writes the HTML page of the merged hunt in directory @p dir (its
 * replay.json, irsnap.hunt/1) to @p html_path, atomically: shards, the
 * failures per signature and shard, first seen, reproducers, problems.
 * A replay.json that is not a valid hunt is IRS_ERROR_FORMAT naming it.
 */
struct irs_error *irs_hunt_report_write(const char *dir,
					const char *html_path);

/**
 * Writes one self-contained HTML page for run directory @p run to
 * @p html_path (atomically): header, pass timeline with CPU time bars,
 * per-pass IR diffs and the failure. A damaged run directory is
 * IRS_ERROR_FORMAT or IRS_ERROR_NOT_FOUND naming the file.
 */
struct irs_error *irs_report_write(const char *run,
					   const char *html_path);

#endif
