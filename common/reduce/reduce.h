/*
 * reduce/reduce.h — the reduce area (irsnap reduce), linked into the CLI
 * only. May use: launch/, run/ (failure.json, run directories), util/.
 * Its entry point is irs_reduce_run(); the pieces, one per file, as
 * llvm-reduce (Delta.cpp and deltas/) and C-Vise (passes/, pass groups)
 * keep them:
 *
 *   reduce.c     the engine: rounds of the passes in passes.c's order,
 *                the search (chunks at halving granularity over a tree's
 *                items or a text's spans, the first interesting candidate
 *                in list order committed), the caches of boring cuts
 *   passes.c     the table: which passes run, in which order, and the
 *                syntaxes, in the order they are tried on the input
 *   pass_*.c     one pass family each: what it cuts (function bodies,
 *                units, operands, parameters, chains, lines, regions,
 *                arguments, tokens); adding a pass is a file and a line
 *                in passes.c
 *   llvm.c       a syntax (struct reduce_lang): LLVM IR, what its parser
 *                rejects, so no test is spent on such a candidate, its
 *                bodies, its printer (opt -S)
 *   toyc.c       toyc's syntax: its printer (toyc --verify -o)
 *   mlir.c       MLIR's generic form: operands rewired, functions'
 *                bodies, terminators, its printer (mlir-opt)
 *   tools.c      a syntax's printer: candidates go through it before
 *                the test (what it rejects is untested), the result is
 *                written in its form
 *   printsrv.c   the printer's own library (libLLVM) in server
 *                processes, instead of a printer process per candidate
 *   spans.c      pieces of a text the text passes cut
 *   progress.c   the status line, a line per round, reduce.log
 *   check.c      the input checked at the start, the result at the end
 *   units.c      the unit tree: from a snapshot's JSON (spans, refs) or
 *                from the generic splitter (braces, indentation, labels)
 *   defuse.c     def-use edges of plain text, candidate states, repair of
 *                uses whose definition goes, and rendering
 *   exec.c       the parallel test runner (temp dirs, timeouts, process
 *                groups, retries, crash signatures)
 *   cache.c      candidate hash -> verdict
 *   crashsig.c   reading what libirsnap-crashsig.so wrote
 *   input.c      a run directory's failure.json; the output paths; the
 *                input's tree
 *   verifier.c   a verifier failure's test: the same check fails
 *   snapshot.c   a plain input snapshotted under GDB (--layout)
 *
 * Unit tests include this header to reach the pieces one at a time.
 */
#ifndef IRSNAP_REDUCE_H
#define IRSNAP_REDUCE_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <signal.h>

#include "launch/launch.h"

enum { RU_NONE = UINT32_MAX };

/* ==== irs_reduce_run(): the entry point ================================ */

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
	bool progress;		/* progress line on stderr (a terminal) */
	bool round_lines;	/* a line per round on stderr instead */
	const char *comment;	/* --comment: line comment marker of plain
				   text; NULL: found in the input */
	const char *label;	/* --label: regex of a label line; NULL:
				   found in the input */
	const char *expect_crash;	/* repro.sh's check: run the --crash
				   command once on INPUT and compare the
				   signature with this text; no reduction */
	const char *exe;	/* --layout: the compiler command that parses
				   INPUT under GDB ({} = INPUT, else added
				   last); NULL: the --crash or --test
				   command, whose first word must then be
				   the compiler */
	const char *verifier_cmd;	/* --verifier: interesting when this
				   command ({} = candidate) reports the check
				   the input's first problem reports */
	const char *problem;	/* --problem: regex of its problem lines,
				   group 1 naming the check; NULL: every
				   non-blank line is one */
	const char *broken;	/* --broken: regex of a line the output must
				   hold (the pass's output is broken); NULL */
	const char *expect_check;	/* repro.sh's check, and the test of
				   each candidate: run the --verifier command
				   once on INPUT, succeed when it reports
				   this check; no reduction */
	bool no_shell;		/* --no-shell: the command's words are run
				   as they are, without a shell (what a run
				   directory's commands get) */
	bool trust;		/* --trust: run the command a run directory's
				   failure.json names even when the directory
				   is not the caller's own or others may
				   write it */
	bool no_print;		/* --no-print: candidates are tested as cut,
				   not through the syntax's printer (which
				   rejects what does not parse) */
};

struct irs_reduce_result {
	uint64_t lines_before, lines_after;
	uint64_t bytes_before, bytes_after;
	uint32_t tests;		/* test runs, all kinds */
	uint32_t interesting, boring, timeouts, cache_hits;
	uint32_t invalid;	/* candidates the printer (verifier) rejected,
				   untested */
	uint64_t tokens_before, tokens_after;
	double seconds;
	char *output;		/* the result's path; free() it */
	bool fell_back;		/* the last result did not reproduce when
				   re-checked: an earlier one is reported */
};

/**
 * Shrinks cfg->input while the test stays interesting and writes the result
 * to cfg->output plus repro.sh beside it. On SIGINT the best result so far is
 * written and IRS_ERROR_INTERRUPTED returned with *ret filled.
 */
struct irs_error *irs_reduce_run(const struct irs_reduce_config *cfg,
					 struct irs_reduce_result *ret);

/* ---- reduce/units.c: the unit tree --------------------------------------- */

/*
 * Besides the units proper, two kinds of pieces let later steps cut finer
 * than a whole unit: a unit's header (its first line, up to its first
 * child: "bb3:", "func @f(%a) {") and the blank lines at its start.
 */
enum reduce_unit_kind {
	UNIT_NORMAL,		/* a function, block, instruction, line */
	UNIT_HEADER,		/* the text before a unit's first child */
	UNIT_BLANK,		/* blank lines at the start of a unit */
};

/** A deletable piece of the text. */
struct reduce_unit {
	uint32_t start, end;	/* bytes [start, end) of the original text */
	uint32_t parent;	/* index into units, RU_NONE at top level */
	uint32_t level;		/* 0 outermost; deletion goes level by level */
	uint32_t kind;		/* enum reduce_unit_kind */
};

/** How a use is repaired when its definition is deleted. */
enum reduce_repair {
	REPAIR_CONST,		/* the use's text becomes the constant ("0") */
	REPAIR_DROP,		/* the unit holding the use goes too */
	REPAIR_RETARGET,	/* the use refers to another live definition of
				   the same kind and scope instead (a branch
				   to a deleted block goes to the next block);
				   dropped as REPAIR_DROP when there is none */
};

/** A definition something may refer to (an SSA value, a label, a function). */
struct reduce_def {
	uint32_t unit;		/* innermost unit holding it; RU_NONE: never
				   deleted */
	uint32_t repair;	/* enum reduce_repair for its uses */
	uint32_t scope;		/* top-level unit around it, or RU_NONE */
	uint32_t sample;	/* a use of it (its text names it), or
				   RU_NONE */
	uint32_t rt_pos;	/* REPAIR_RETARGET: index in tree's rt_order */
	uint32_t shadow;	/* the definition of the same name before it
				   in scope (text that is not SSA assigns a
				   name again), which its uses see when it
				   goes; RU_NONE */
	uint32_t start, end;	/* its name's text, [start + 1, end): after
				   the sigil (a label's is the byte before
				   it); 0, 0 when the text does not name it */
	uint32_t num;		/* an unnamed value or block's number (LLVM's
				   %5, "5:"), which the render renumbers when
				   one before it in its function goes;
				   RU_NONE: named, or numbered out of order */
};

/** A reference, in the text, to a definition. */
struct reduce_use {
	uint32_t start, end;	/* the reference's text span */
	uint32_t unit;		/* innermost unit holding it, or RU_NONE */
	uint32_t def;		/* index into defs */
};

/**
 * The input cut into units, with its def-use graph. Units are in document
 * order (parents before children), so parent < child; uses are sorted by
 * start. Owns everything it points to, text included.
 */
struct reduce_tree {
	char *text;
	size_t len;
	struct reduce_unit *units;
	uint32_t nunits;
	uint32_t nlevels;
	struct reduce_def *defs;
	uint32_t ndefs;
	struct reduce_use *uses;
	uint32_t nuses;
	uint32_t *header;	/* per unit: its UNIT_HEADER, or RU_NONE */
	uint8_t *footer;	/* per unit: text follows its last child */
	uint32_t *rt_order;	/* REPAIR_RETARGET defs by scope, then place */
	uint32_t nrt;
	uint32_t nunresolved;	/* local (% ^) uses with no definition */
	const char *constant;	/* what a REPAIR_CONST use becomes; static */
	const char *source;	/* "snapshot" or "text": how units were found */
	char comment[8];	/* line comment marker of plain text */
	bool comment_set;	/* given or detected, not the default */
	void *label;		/* regex_t a label line matches, or NULL:
				   one word ending in ':' */
	char *label_src;	/* its source, carried to a rebuilt tree */
};

/**
 * The syntax of plain text: its line comment marker and what a label line
 * looks like. Given on the command line (--comment, --label), else by the
 * layout (a snapshot's "reduce" object), else found in the input by
 * reduce_syntax_detect().
 */
struct reduce_syntax {
	const char *comment;	/* ";", "#", "//"; NULL: detected */
	const char *label;	/* POSIX extended regex for a whole label
				   line (blanks trimmed); NULL: detected */
};

/** Fills what @p syn leaves NULL from @p text: the comment marker that
 *  starts the most lines (";" when none does; a C preprocessor line is no
 *  comment), and for labels "^@name" lines when such lines stand alone
 *  without a ':'. Strings are static or @p syn's. */
void reduce_syntax_detect(const char *text, size_t len,
			  struct reduce_syntax *syn);
/** reduce_tree_from_text() with the syntax @p syn (NULL: detected);
 *  IRS_ERROR_USAGE for a --label regex that does not compile. */
struct irs_error *reduce_tree_from_text_syntax(char *text, size_t len,
					       const struct reduce_syntax *syn,
					       struct reduce_tree **ret);
/** Whether line [s, e) of @p t's text (blanks trimmed) is a label. */
bool reduce_tree_is_label(const struct reduce_tree *t, uint32_t s,
			  uint32_t e);
/** Whether a comment starts at byte @p i (outside a string) of a line
 *  ending at @p e. */
bool reduce_tree_comment_here(const struct reduce_tree *t, uint32_t i,
			      uint32_t e);

/** Keeps reduce_def.num only in functions numbered the LLVM way (going
 *  up in text order, each number once); called by reduce_tree_finish(). */
void reduce_tree_number_check(struct reduce_tree *t);

/** The tree of @p text (taken over: freed with the tree) by the generic
 *  splitter and the generic def-use model. */
struct irs_error *reduce_tree_from_text(char *text, size_t len,
					struct reduce_tree **ret);
/** The tree of @p text from the irsnap.snapshot/1 document @p json (units,
 *  spans and refs as docs/formats.md says); @p name names it in errors.
 *  @p text is taken over on success only. */
struct irs_error *reduce_tree_from_snapshot(char *text, size_t len,
					    const char *json, size_t json_len,
					    const char *name,
					    struct reduce_tree **ret);
void reduce_tree_destroy(struct reduce_tree *t);
/** Makes room for element @p n of the array *@p arr of *@p cap elements
 *  of @p elem bytes (doubling, 64 first); false on OOM, *arr unchanged. */
bool reduce_grow(void **arr, uint32_t n, uint32_t *cap, size_t elem);
/** Sorts units into document order, sets parents by span nesting. Fails
 *  when two spans overlap without nesting. */
struct irs_error *reduce_tree_nest(struct reduce_tree *t, const char *name);
/** Adds the UNIT_HEADER and UNIT_BLANK pieces of every unit with children
 *  or leading blank lines, and nests again. */
struct irs_error *reduce_tree_pieces(struct reduce_tree *t, const char *name);
/** The innermost unit whose span holds [start, end), or RU_NONE. */
uint32_t reduce_tree_innermost(const struct reduce_tree *t, uint32_t start,
			       uint32_t end);
/** Sorts uses by start, drops those whose def index is out of range, moves
 *  a def named in its unit's header to the header, sets each def's scope
 *  and sample use, rt_order and the level count. */
struct irs_error *reduce_tree_finish(struct reduce_tree *t);

/* ---- reduce/defuse.c: generic def-use model and candidate states --------- */

/**
 * Finds definitions and uses in plain text (t->units already set): a line
 * `%x = ...` defines %x; a unit's first line, when the unit has more
 * lines, defines its %params and its first @name; a label line `bb:`
 * defines ^bb; every other
 * %x, ^x, @x is a use. % and ^ names are local to their top-level unit, @
 * names global. Uses of %x are repaired with a constant, of ^x by
 * retargeting, of @x by dropping their unit. Names without a definition
 * are not tracked.
 */
struct irs_error *reduce_defuse_scan(struct reduce_tree *t);

/**
 * One candidate: which units are deleted (explicitly, or by an ancestor)
 * and which uses became the constant. Sized for one tree.
 */
struct reduce_state {
	uint8_t *del;		/* per unit: deleted itself */
	uint8_t *gone;		/* per unit: deleted or under a deleted unit */
	uint8_t *rep;		/* per use: replaced by the constant */
	uint32_t *to;		/* per use: retargeted to this def, or
				   RU_NONE */
	uint32_t nunits, nuses;
	bool as_is;		/* a value use left with no definition at all
				   stays as it is (for languages that take
				   an undefined name) instead of becoming
				   the constant */
	uint32_t ndangling;	/* such uses deletes met (the caller resets
				   it) */
};

struct irs_error *reduce_state_init(struct reduce_state *s,
				    const struct reduce_tree *t);
void reduce_state_deinit(struct reduce_state *s);
void reduce_state_copy(struct reduce_state *dst,
		       const struct reduce_state *src);
/**
 * Deletes units @p units[0..n) from @p s and repairs every use whose
 * definition went: a value use sees the live definition of its name
 * before (its shadow), else takes the constant (or, with s->as_is, stays
 * as it is; s->ndangling counts those), REPAIR_RETARGET
 * uses move to a live sibling definition, REPAIR_DROP uses take their unit
 * with them, to a fixed point. Returns false, with @p s
 * unspecified, when a use outside every unit would lose its definition (the
 * candidate would be invalid and is never produced).
 */
bool reduce_state_delete(struct reduce_state *s, const struct reduce_tree *t,
			 const uint32_t *units, uint32_t n);
/** True when unit @p u may be merged into the sibling before it: a normal
 *  unit with a header and nothing after its last child (a block: label,
 *  instructions), not the first of its parent's children. */
bool reduce_tree_mergeable(const struct reduce_tree *t, uint32_t u);
/**
 * Merges each unit @p units[i] into the live sibling before it: deletes
 * its header (the label) and that sibling's last live child (its
 * terminator), so the two run together, then repairs as
 * reduce_state_delete() does. False when a unit has no such sibling or
 * the repair is impossible.
 */
bool reduce_state_merge(struct reduce_state *s, const struct reduce_tree *t,
			const uint32_t *units, uint32_t n);
/** Replaces uses @p uses[0..n) with the constant. */
void reduce_state_replace(struct reduce_state *s, const struct reduce_tree *t,
			  const uint32_t *uses, uint32_t n);
/** For use @p k (a live value use, named as it was): the definition of
 *  another value it might use instead (operand to other operand), or
 *  RU_NONE: the nearest before it in its function computed by the same
 *  opcode (the first word after '='; parameters: another parameter), that
 *  nothing assigns again and that is live in @p s. */
uint32_t reduce_state_other_operand(const struct reduce_state *s,
				    const struct reduce_tree *t, uint32_t k);
/**
 * Uses @p uses[i] name definition @p to[i] instead; the definitions this
 * leaves without a live use go (their units, repaired as
 * reduce_state_delete() does). False when such a deletion is impossible.
 */
bool reduce_state_redirect(struct reduce_state *s, const struct reduce_tree *t,
			   const uint32_t *uses, const uint32_t *to,
			   uint32_t n);
/** The candidate's text, appended to @p out (reset first). */
bool reduce_state_render(const struct reduce_state *s,
			 const struct reduce_tree *t, struct irs_buf *out);
/** True when every live use has a live definition. */
bool reduce_state_consistent(const struct reduce_state *s,
			     const struct reduce_tree *t);

/* ---- reduce/spans.c: pieces of a text the text passes cut ------------- */

/** Bytes [start, end) of a text, deleted, or replaced by repl. */
struct reduce_span {
	uint32_t start, end;
	const char *repl;
};

/** A text's spans, sorted by start (the longer first) once found. */
struct reduce_spans {
	struct reduce_span *v;
	uint32_t n, cap;
	char **own;		/* replacements made for this text, freed
				   with the spans */
	uint32_t nown, capown;
	bool oom;		/* an addition failed: the set is partial */
};

void reduce_spans_clear(struct reduce_spans *sp);
void reduce_spans_deinit(struct reduce_spans *sp);
/** A replacement text the spans own (taken over); NULL on OOM. */
const char *reduce_spans_own(struct reduce_spans *sp, char *repl);
void reduce_span_add(struct reduce_spans *sp, uint32_t start, uint32_t end,
		     const char *repl);
/** Sorts by start, the longer of two at one start first. */
void reduce_spans_sort(struct reduce_spans *sp);
/** The text without spans [lo, hi) of @p sp (keep: without all but
 *  those), into @p out (reset first). A span overlapping one cut before
 *  it is skipped. False on OOM. With @p joins, *joins tells whether a
 *  cut ran two lines into one (text of a line before it and text of
 *  another after it): a result keeps the input's lines. */
bool reduce_spans_cut(const char *text, size_t len,
		      const struct reduce_spans *sp, uint32_t lo, uint32_t hi,
		      bool keep, struct irs_buf *out, bool *joins);

/** Whether the name [a, e) of @p s (its sigil included: "%x") occurs as
 *  a word outside bytes [cs, ce). */
bool reduce_used_outside(const char *s, size_t len, uint32_t a, uint32_t e,
			 uint32_t cs, uint32_t ce);
/** A byte of a token the text passes cut as a whole: a name, a number,
 *  a sigil (%x, @f, ^0, #0). */
static inline bool
reduce_word_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_.$%@^-", c);
}

/* ---- reduce/llvm.c ...: syntaxes ---------------------------------------- */

/**
 * What a syntax tells the passes, so that no test is spent on a candidate
 * its parser rejects. Found once, in the input (reduce_langs[] in
 * passes.c, tried in order); a hook left NULL allows every cut.
 */
/** What a syntax's drop_block_arg made of the nth block argument. */
enum reduce_arg_drop {
	REDUCE_ARG_NONE,	/* there is no nth: the last was passed */
	REDUCE_ARG_KEPT,	/* it cannot go (used; a branch not read) */
	REDUCE_ARG_DROPPED,	/* out holds the text without it */
};

struct reduce_lang {
	const char *name;
	/** Whether the input is in this syntax. */
	bool (*detect)(const char *s, size_t len);
	/** Whether unit @p u cannot go alone (a block's terminator). */
	bool (*unit_fixed)(const struct reduce_tree *t, uint32_t u);
	/** Drops from @p sp the tokens no cut may take alone. */
	void (*drop_fixed_tokens)(const char *s, size_t len,
				  struct reduce_spans *sp);
	/** Whether the trailing item after the comma at @p comma is an
	 *  operand, which an instruction cannot lose. */
	bool (*operand_item)(const char *s, size_t len, size_t comma);
	/** Adds to @p sp each function's body as a span whose replacement
	 *  is the function's declaration (its uses stay valid). */
	void (*bodies)(const char *s, size_t len, struct reduce_spans *sp);
	/** Adds to @p sp each operand as a span whose replacement names
	 *  another value of its type that dominates it (a block argument
	 *  first), so that what computed it may go. */
	void (*rewires)(const char *s, size_t len, struct reduce_spans *sp);
	/** Into @p out, the text without the @p nth block argument that
	 *  may go (counted through the text) and without what each branch
	 *  passes it (MLIR's blocks; LLVM's phis are instructions). */
	enum reduce_arg_drop (*drop_block_arg)(const char *s, size_t len,
					       uint32_t nth,
					       struct irs_buf *out);
	/** Whether the whole lines [cs, ce) may go together. */
	bool (*range_cut_ok)(const char *s, size_t len, uint32_t cs,
			     uint32_t ce);
	/** Programs the printer may be (tried in order; see tools.c), and
	 *  its arguments: {} the input, {out} the file it writes. It parses
	 *  and verifies too: exit 0 only for a text the compiler accepts. */
	const char *const *printer;
	const char *const *print_args;
	/** Prefixes of the lines it adds that a result does without
	 *  ("; ModuleID", comments); NULL-terminated, or NULL. */
	const char *const *print_strip;
	/** NULL, or the printer's own library, run in a server process
	 *  (printsrv.c): lib_open() loads the one @p printer uses (NULL
	 *  when it cannot); lib_print() prints @p text as the printer
	 *  would, its module named @p name, into @p out, false where the
	 *  printer would fail. */
	void *(*lib_open)(const char *printer);
	bool (*lib_print)(void *lib, const char *text, size_t len,
			  const char *name, struct irs_buf *out);
	bool no_pairs;		/* tokens are not cut two at a time (what
				   goes only with another word is a
				   trailing item) */
};

/** Plain text: every cut allowed. */
extern const struct reduce_lang reduce_lang_text;
/** LLVM IR text: a define or declare naming @f. */
extern const struct reduce_lang reduce_lang_llvm;
/** toyc's text: its own verifier and printer. */
extern const struct reduce_lang reduce_lang_toyc;
/** MLIR's generic operation form: "dialect.op"(...) lines. */
extern const struct reduce_lang reduce_lang_mlir;

/** The syntax of @p s: the first of reduce_langs[] that detects it. */
const struct reduce_lang *reduce_lang_detect(const char *s, size_t len);

/* ---- reduce/cache.c: candidate hash -> verdict --------------------------- */

struct reduce_cache {
	uint64_t *keys;		/* 0 = empty slot (hash 0 is remapped) */
	uint8_t *vals;
	size_t cap, count;
};

uint64_t reduce_hash(const void *data, size_t len);
void reduce_cache_init(struct reduce_cache *c);
void reduce_cache_deinit(struct reduce_cache *c);
/** True and *val_ret set when @p key is cached. */
bool reduce_cache_get(const struct reduce_cache *c, uint64_t key,
		      uint8_t *val_ret);
bool reduce_cache_put(struct reduce_cache *c, uint64_t key, uint8_t val);

/* ---- reduce/crashsig.c: crash signatures --------------------------------- */

enum { CRASHSIG_FRAMES = 3 };

/** A crash: the signal and the top frames' function names, outside libc,
 *  the dynamic loader and the preload library itself. */
struct reduce_crashsig {
	int signo;
	uint32_t nframes;
	char frames[CRASHSIG_FRAMES][128];
};

/** Function-name lookups by ELF symbol table, cached per module path. */
struct reduce_symcache;
void reduce_symcache_destroy(struct reduce_symcache *sc);

/**
 * Parses the file the preload library wrote (@p path): false when there is
 * none (the run did not crash) or it is unreadable. Frames without a
 * dynamic symbol are named from the module's ELF symbol table through
 * *@p sc (created on first use).
 */
bool reduce_crashsig_read(const char *path, struct reduce_symcache **sc,
			  struct reduce_crashsig *ret);
bool reduce_crashsig_equal(const struct reduce_crashsig *a,
			   const struct reduce_crashsig *b);
/** "SIGSEGV in f < g < h" into @p out. */
void reduce_crashsig_format(const struct reduce_crashsig *sig,
			    struct irs_buf *out);
/** The path of libirsnap-crashsig.so: $IRSNAP_CRASHSIG_LIB, else beside the
 *  binary holding libirsnap (or ../lib from it). *ret freed with free(). */
struct irs_error *reduce_crashsig_lib(char **ret);

/* ---- reduce/exec.c: running tests ---------------------------------------- */

enum reduce_verdict {
	VERDICT_BORING = 0,	/* not interesting */
	VERDICT_INTERESTING = 1,
	VERDICT_TIMEOUT = 2,	/* killed with its process group */
	VERDICT_INTERRUPTED = 3,/* SIGINT: the run was cut short */
};

struct reduce_exec {
	const char *cmd;	/* shell command; {} = candidate path */
	bool no_shell;		/* cmd's words run as they are, no shell
				   (a run directory's reduce command) */
	bool crash_mode;	/* interesting = same crash signature */
	struct reduce_crashsig want;	/* crash mode: the input's signature */
	char *preload;		/* crash mode: libirsnap-crashsig.so */
	char *tmpdir;		/* our scratch directory, removed at the end */
	char *filename;		/* candidate's file name (input's basename) */
	uint32_t jobs;
	double timeout;
	uint32_t retries;
	volatile sig_atomic_t *interrupted;	/* set by the SIGINT handler */
	struct reduce_symcache *syms;
	uint32_t serial;	/* names test directories */
	/* counts */
	uint32_t runs, interesting, boring, timeouts;
	/* the last run that finished: wait status (-1: timed out), stderr */
	int last_status;
	char last_stderr[1024];
};

struct irs_error *reduce_exec_init(struct reduce_exec *x, const char *cmd,
				   bool crash_mode, const char *input_name,
				   uint32_t jobs, double timeout,
				   uint32_t retries,
				   volatile sig_atomic_t *interrupted);
void reduce_exec_deinit(struct reduce_exec *x);

/**
 * Tests candidates @p texts[i] (@p lens[i] bytes), at most x->jobs at a
 * time, each in a fresh directory; verdicts[i] gets the verdict. A boring
 * verdict is retried x->retries times. On SIGINT, running tests are killed
 * and their verdict is VERDICT_INTERRUPTED. In crash mode with @p sig_ret
 * (n == 1 only), the crash signature of the first crashing run is stored.
 */
struct irs_error *reduce_exec_batch(struct reduce_exec *x,
				    const char *const *texts,
				    const size_t *lens, uint32_t n,
				    uint8_t *verdicts,
				    struct reduce_crashsig *sig_ret);
/** rm -rf @p path (no error when missing). */
void reduce_rmtree(const char *path);
/** @p cmd with every {} replaced by @p path, shell-quoted; freed with
 *  free(), NULL on OOM. */
char *reduce_expand_cmd(const char *cmd, const char *path);

/* ---- reduce/snapshot.c: a plain input snapshotted under GDB (--layout) --- */

/**
 * Runs the compiler command @p cmd on @p input under GDB in batch mode with
 * irsnap and layout @p layout loaded ({} in @p cmd is the input's path;
 * without {}, the path is added last; the first word is the program),
 * stops at the first pass boundary and dumps the IR there into directory
 * @p dir as text and JSON. *text_ret and *json_ret (freed with free())
 * name the two files. No boundary reached: IRS_ERROR_TARGET quoting the
 * debugger's output; a missing gdb or front end: IRS_ERROR_NOT_FOUND.
 */
struct irs_error *reduce_snapshot_input(const char *input, const char *cmd,
					const char *layout, const char *dir,
					volatile sig_atomic_t *interrupted,
					char **text_ret, char **json_ret);
/** Fails, naming @p json_path, when the irsnap.snapshot/1 document
 *  @p json is not whole: walk errors, or truncated by a limit. */
struct irs_error *reduce_snapshot_check(const char *json_path,
					const char *json, size_t json_len);

/* ---- reduce/verifier.c: a verifier failure's interestingness ------------- */

/** A --verifier test: the command and how to read its output. */
struct reduce_verifier {
	const char *cmd;	/* {} or {input}: the file (else added last) */
	const char *problem;	/* regex of a problem line, or NULL */
	const char *broken;	/* regex the output must match, or NULL */
	double timeout;		/* seconds; 0: 60 */
	bool no_shell;		/* cmd's words run as they are, no shell */
};

/** The name of a check from the text @p s (@p len bytes) a problem line
 *  gave for it: trimmed, numbers as N, %names and @names as %_ and @_,
 *  so the same check at another place has the same name. free() it. */
char *reduce_verifier_check_name(const char *s, size_t len);
/**
 * Runs @p v on @p file. With @p want NULL, *check_ret is the check of the
 * first problem its output reports; else @p want (a copy) when one of its
 * problems is that check. When there is none (or no --broken line, or a
 * timeout), *check_ret is NULL and *why_ret one line saying what the
 * output showed. Both freed with free().
 */
struct irs_error *reduce_verifier_check(const struct reduce_verifier *v,
					const char *file, const char *want,
					char **check_ret, char **why_ret);
/**
 * The words of @p cmd (split as sh would, no expansion) with every {} in
 * them replaced by @p path: a run directory's command, run without a
 * shell. With @p verifier, {input} too, and @p path added last when it
 * names neither. NULL-terminated, freed with irs_shell_words_free().
 */
struct irs_error *reduce_cmd_words(const char *cmd, const char *path,
				   bool verifier, char ***ret);
/** cfg->expect_check: NULL when the --verifier command on cfg->input
 *  reports that check, else IRS_ERROR_STATE saying what it did report. */
struct irs_error *reduce_verifier_expect(const struct irs_reduce_config *cfg);
/**
 * The check @p v reports on @p input (IRS_ERROR_STATE when none), and
 * the --test command that keeps it: `irsnap reduce {} --verifier ...
 * --expect-check CHECK`, this executable's path first. Both freed with
 * free().
 */
struct irs_error *reduce_verifier_test(const struct reduce_verifier *v,
				       const char *input, char **cmd_ret,
				       char **check_ret);

/* ---- reduce/input.c: what to reduce, with what, into where --------------- */

/** Everything the pipeline needs, resolved from the config. */
struct reduce_job {
	char *input;		/* text file to shrink */
	char *snapshot;		/* its irsnap.snapshot/1 JSON, or NULL */
	char *snapshot_text;	/* --layout: the snapshot's text, reduced
				   instead of input's own; else NULL */
	char *snapshot_dir;	/* --layout: scratch directory holding them */
	char *cmd;		/* test or crash command */
	bool crash_mode;
	char *verifier;		/* --verifier command (failure.json's, or
				   the caller's), made into a test command
				   by reduce_verifier_test(); or NULL */
	char *problem, *broken;	/* its regexes, or NULL */
	bool no_shell;		/* cmd came from a run directory (its layout's
				   rerun template): its words are run without
				   a shell */
	char *output;		/* reduced file */
	char *repro;		/* OUT.repro.sh, RUN/repro/repro.sh */
	bool repro_foreign;	/* a file irsnap did not write is there:
				   left alone, no reproducer written */
	char *log;		/* reduce.log (run directories), or NULL */
};

/** Resolves @p cfg: a run directory's failure.json (pass, before snapshot,
 *  reduce_command), a sibling .json snapshot, default output paths. */
struct irs_error *reduce_job_init(struct reduce_job *job,
				  const struct irs_reduce_config *cfg);
void reduce_job_deinit(struct reduce_job *job);
/** Writes repro.sh for @p job: the test on a copy of the reduced file
 *  named @p name (the candidates' name), as the reducer ran it. */
struct irs_error *reduce_write_repro(const struct reduce_job *job,
				     const struct reduce_crashsig *sig,
				     const char *name);

/** The tree of the job's input: its snapshot's units and edges (a stale
 *  or unusable snapshot warns and falls back to the text), else the
 *  text's, cut with the command line's syntax; *ret destroyed by the
 *  caller with reduce_tree_destroy(). */
struct irs_error *reduce_job_tree(struct reduce_job *job,
				  const struct irs_reduce_config *cfg,
				  struct reduce_tree **ret);
/** --layout: the input as the compiler parsed it, snapshotted under GDB
 *  at its first pass boundary into a scratch directory
 *  (job->snapshot_dir), whose files then stand for the input's. */
struct irs_error *reduce_job_snapshot(struct reduce_job *job,
				      const struct irs_reduce_config *cfg,
				      volatile sig_atomic_t *interrupted);

/* ---- reduce/reduce.c: the engine, as the passes see it ------------------- */

enum { REDUCE_MAX_PASSES = 32 };

/** One reduction: the best candidate so far, in its tree and as text. */
struct reducer {
	const struct irs_reduce_config *cfg;
	struct reduce_job job;
	struct reduce_tree *tree;
	struct reduce_state best;	/* the smallest interesting candidate */
	struct irs_buf best_text;
	struct reduce_cache cache;
	struct reduce_cache failed;	/* single-span cuts found boring, by
					   their line's text (text passes) */
	struct reduce_cache classes;	/* token class -> boring cuts of it,
					   CLASS_WON once one was not */
	struct reduce_exec exec;
	struct irs_reduce_result res;
	FILE *log;
	const char *step;
	uint32_t round;
	bool progress;		/* the current round changed something */
	bool as_is;		/* uses left without a definition stay as
				   they are (learned per input) */
	uint32_t dangle_tries[2], dangle_wins[2];	/* [as_is] */
	const struct reduce_lang *lang;	/* the input's syntax */
	uint32_t pair_tries, pair_wins;	/* cuts of two tokens */
	bool stale;		/* best_text changed by a text pass: the
				   tree is rebuilt from it before the next
				   tree step */
	uint32_t pass_tests[REDUCE_MAX_PASSES];	/* tests per pass, for the
						   log */
	bool done[REDUCE_MAX_PASSES];	/* the pass found nothing, and the
					   text has changed only cosmetically
					   since: it is not run again */
	bool cosmetic;		/* the commit being made only drops optional
				   words (cosmetic_cut) */
	uint32_t *other;	/* per use: what other_operands() names
				   instead, RU_NONE */
	char *printer;		/* the syntax's printer program, or NULL:
				   candidates are tested as cut */
	struct reduce_printsrv *srv;	/* the printer's library in server
					   processes (printsrv.c), or NULL */
	uint32_t nsrv;
	uint32_t ncommits;	/* results so far, each kept in
				   exec.tmpdir/commit-N for the re-check */
	bool progress_shown;	/* a progress line is on the terminal */
	double t0, last_shown;
};

/** Whether Ctrl-C stopped the search: passes end their loops. */
bool reduce_interrupted(void);
/** Result N (0: the input) kept in the scratch directory; free()d. */
char *reduce_commit_path(const struct reducer *r, uint32_t n);

/** Verdicts of texts[0..n): from the cache when known, else tested. */
struct irs_error *reduce_evaluate(struct reducer *r, char **texts,
				  size_t *lens, uint32_t n,
				  uint8_t *verdicts);
/** *text (swapped in) is the best text now: kept, written, and the tree
 *  is cut from it again before the next tree pass. */
struct irs_error *reduce_commit_text(struct reducer *r, struct irs_buf *text);
/** Evaluates the texts of bufs[0..n) (n at most 64) and commits the
 *  first interesting one (swapped with the best text, as
 *  reduce_commit_text does); *won tells whether one was. */
struct irs_error *reduce_try_texts(struct reducer *r, struct irs_buf *bufs,
				   uint32_t n, bool *won);

/** What a tree sweep removes: units (deleted, uses repaired), blocks'
 *  headers and the terminators before them (merging blocks), uses
 *  (replaced by the constant), or uses' definitions (the use names
 *  r->other[use] instead, and the definition goes when that was its last
 *  use). */
enum reduce_item { ITEM_UNIT, ITEM_MERGE, ITEM_USE, ITEM_OTHER };

bool reduce_item_live(const struct reducer *r, enum reduce_item kind,
		      uint32_t item);
/** Removes chunks of @p items[0..n) (reordered) while the test stays
 *  interesting: halves, quarters, down to single items. */
struct irs_error *reduce_sweep(struct reducer *r, enum reduce_item kind,
			       uint32_t *items, uint32_t n);

/** How a text pass's wins teach the engine about the others of a class. */
enum reduce_classes {
	CLASSES_NONE,
	CLASSES_TOKENS,		/* a token class cut often and never
				   interesting is given up; a class that
				   went is cut at once everywhere */
	CLASSES_ITEMS,		/* trailing items: the second half only */
};

/** A text pass: what its spans are, and what the search may cut. */
struct reduce_text_pass {
	int key;		/* salts the keys of cuts found boring */
	void (*find)(const struct reducer *r, const char *s, size_t len,
		     struct reduce_spans *sp);
	/** NULL, or whether cutting spans [lo, hi) (keep: all but those)
	 *  may leave a text the syntax accepts. */
	bool (*cut_ok)(const struct reducer *r, const char *s, size_t len,
		       const struct reduce_spans *sp, uint32_t lo,
		       uint32_t hi, bool keep);
	enum reduce_classes classes;
	/** NULL, or whether to give the sweep up after a boring batch of
	 *  @p nt candidates at chunk size @p size (@p boring in all, after
	 *  @p wins wins); */
	bool (*give_up)(struct reducer *r, uint32_t size, uint32_t nt,
			uint32_t boring, uint32_t wins);
	/** NULL, or told of a win at chunk size @p size. */
	void (*won)(struct reducer *r, uint32_t size);
};

/** Delta debugging over @p tp's spans of the best text (ddmin): halves
 *  down to single spans, with complements at the coarse granularities;
 *  chunks of at most @p max_size spans (0: no limit; 1: one at a
 *  time). */
struct irs_error *reduce_text_sweep(struct reducer *r,
				    const struct reduce_text_pass *tp,
				    uint32_t max_size);

/* ---- reduce/progress.c: what a reduction shows while it runs ----------- */

/** Seconds on the monotonic clock. */
double reduce_clock(void);
uint64_t reduce_count_lines(const char *s, size_t len);
/** Tokens as the text passes see them: a word (reduce_word_char), a
 *  string, or one other character, blanks apart. */
uint64_t reduce_count_tokens(const char *s, size_t len);
/** A line in reduce.log (and on stderr with IRSNAP_DEBUG=R). */
void reduce_note(struct reducer *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** The status line on a terminal, at most ten times a second unless
 *  @p force. */
void reduce_progress_show(struct reducer *r, bool force);
/** Clears the status line before other output. */
void reduce_progress_clear(struct reducer *r);
/** Without a terminal: a line on stderr at the end of a round. */
void reduce_progress_round(struct reducer *r);

/* ---- reduce/tools.c: the syntax's printer ------------------------------ */

/** Finds the syntax's printer (r->printer), used only when it accepts the
 *  input and the printed input is interesting (one test). */
struct irs_error *reduce_tools_init(struct reducer *r);
void reduce_tools_deinit(struct reducer *r);
/** The printed forms of texts[0..n), out[i] (free()d by the caller) or
 *  NULL where the printer rejects it (or was interrupted). */
struct irs_error *reduce_tools_canon(struct reducer *r,
				     const char *const *texts,
				     const size_t *lens, uint32_t n,
				     char **out, size_t *outlen);
/** The best text as the printer writes it, less the lines print_strip
 *  names, committed when interesting (though it may be larger). */
struct irs_error *reduce_tools_print(struct reducer *r);

/* ---- reduce/printsrv.c: the printer's library in server processes ---- */

/** Starts -j servers of the syntax's printer library (lib_open) when it
 *  has one and r->printer is set; none (r->nsrv 0) when it cannot load. */
struct irs_error *reduce_printsrv_start(struct reducer *r);
void reduce_printsrv_stop(struct reducer *r);
/** Prints texts[0..n) through the servers as reduce_tools_canon() does:
 *  out[i] (free()d by the caller) or NULL where rejected, done[i] true;
 *  done[i] false where no server could answer (the printer program
 *  must). */
struct irs_error *reduce_printsrv_canon(struct reducer *r,
					const char *const *texts,
					const size_t *lens, uint32_t n,
					char **out, size_t *outlen,
					bool *done);

/* ---- reduce/passes.c: the passes, in order ------------------------------- */

struct reduce_pass {
	const char *name;
	struct irs_error *(*run)(struct reducer *r);
	bool generic;		/* works on the text, not the tree: runs
				   once the tree passes find nothing */
};

extern const struct reduce_pass reduce_passes[];
extern const size_t reduce_npasses;
extern const struct reduce_lang *const reduce_langs[];

/* One file each, pass_*.c. */
struct irs_error *reduce_pass_bodies(struct reducer *r);
struct irs_error *reduce_pass_fold_chains(struct reducer *r);
struct irs_error *reduce_pass_delete_units(struct reducer *r);
struct irs_error *reduce_pass_blank_lines(struct reducer *r);
struct irs_error *reduce_pass_other_operands(struct reducer *r);
struct irs_error *reduce_pass_rewire(struct reducer *r);
struct irs_error *reduce_pass_const_operands(struct reducer *r);
struct irs_error *reduce_pass_drop_params(struct reducer *r);
struct irs_error *reduce_pass_block_args(struct reducer *r);
struct irs_error *reduce_pass_lines(struct reducer *r);
struct irs_error *reduce_pass_balanced(struct reducer *r);
struct irs_error *reduce_pass_arguments(struct reducer *r);
struct irs_error *reduce_pass_tokens(struct reducer *r);

/* ---- reduce/check.c: is it interesting -------------------------------- */

/** The input: interesting, else an error saying how the test ended (and
 *  whether it is flaky); in crash mode its signature is learnt. */
struct irs_error *reduce_check_input(struct reducer *r);
/** repro.sh's check in --crash mode: one run on the input, the crash
 *  signature compared with @p want. */
struct irs_error *reduce_check_crash(struct reducer *r, const char *want);
/** The result re-run before it is reported; when it does not reproduce,
 *  the last result that does replaces it, with a warning. */
struct irs_error *reduce_recheck(struct reducer *r);

#endif
