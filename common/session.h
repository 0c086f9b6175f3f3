/*
 * session.h — internals of the run directory and its documents: the JSON
 * Schema validator (schema.c), run directory checks (validate.c), run
 * directory naming (rundir.c), the manifest (manifest.c), failure reports
 * (failure.c) and /proc reading (proc.c). The public half is the "Session"
 * section of irsnap.h. The `irsnap` CLI's validate command uses this too.
 */
#ifndef IRSNAP_SESSION_H
#define IRSNAP_SESSION_H

#include <jansson.h>

#include "internal.h"

/* ---- schema.c: JSON Schema (draft 2020-12 subset) validation ------------ */

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

/* ---- validate.c: run directories and files against their schemas -------- */

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

/* ---- rundir.c: run directory names and the `latest` link ---------------- */

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

/* ---- manifest.c: manifest.json, rewritten atomically after each event --- */

/** The manifest document and where it lives. Owns everything. */
struct irs_manifest {
	json_t *root;		/* the whole document */
	json_t *events;		/* borrowed from root: the "events" array */
	char *path;		/* <run dir>/manifest.json */
	char *run_id;
	char **texts;		/* event i as last written; NULL: write anew */
	size_t ntexts;		/* length of texts */
};

/**
 * Builds the first manifest of run @p run_id in @p dir (status "running",
 * no events) from @p cfg and the layout name @p layout_name (may be NULL).
 * Does not write it; call irs_manifest_save().
 */
struct irs_error *irs_manifest_init(struct irs_manifest *m, const char *dir,
				    const char *run_id,
				    const struct irs_session_config *cfg,
				    const char *layout_name);
void irs_manifest_deinit(struct irs_manifest *m);
/** Sets "updated" to now and writes the document atomically. On failure
 *  the previous manifest.json stays as it was; the error names the file. */
struct irs_error *irs_manifest_save(struct irs_manifest *m);
/** Sets "status" ("running", "completed", "failed"). */
bool irs_manifest_set_status(struct irs_manifest *m, const char *status);
/** Appends @p ev (reference stolen) to the events; false on OOM. */
bool irs_manifest_push_event(struct irs_manifest *m, json_t *ev);
/** Removes the last event (undoing a push whose save failed). */
void irs_manifest_pop_event(struct irs_manifest *m);
/** Builds an event object from what the walk saw. @p text and @p json are
 *  the snapshot's relative paths (NULL: not written); both NULL with
 *  @p skipped gives "snapshot": null. NULL on OOM. */
json_t *irs_manifest_event(uint32_t seq, const char *pass, const char *phase,
			   const char *text, const char *json, bool skipped,
			   const struct irs_snapshot_stats *st);
/** Appends verifier result {name, problems, output} to event @p ev of
 *  @p m. Events are written once and kept as text: change a pushed event
 *  only through calls that take the manifest. */
bool irs_manifest_event_verifier(struct irs_manifest *m, json_t *ev,
				 const char *name, uint32_t problems,
				 const char *output);
/** A JSON string for @p s (null for NULL); bytes that are not UTF-8
 *  become '?'. NULL on OOM. */
json_t *irs_json_text(const char *s);
/** Current UTC time as "2026-11-30T05:15:00Z" into @p buf (>= 21 bytes). */
void irs_manifest_now(char *buf, size_t len);

/* ---- failure.c: failure.json --------------------------------------------- */

/** What the session knows about the failing pass, for failure.json. */
struct irs_failure_site {
	const char *run_id;
	const char *dir;		/* run directory */
	const char *pass;		/* NULL when unknown */
	uint32_t seq;			/* 0 when unknown */
	const char *before_text;	/* relative paths, or NULL */
	const char *before_json;
	const char *exe;		/* debuggee, for the reduce command */
	const char *args;		/* its arguments, one shell-quoted
					   string, for {flags}; or NULL */
	const char *rerun;		/* the layout's template, or NULL */
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
char *irs_failure_reduce_command(const char *rerun, const char *exe,
				 const char *args, const char *pass,
				 const char *before);
/** @p s quoted for a POSIX shell when needed, appended to @p b. */
bool irs_buf_shell_quote(struct irs_buf *b, const char *s);

#endif
