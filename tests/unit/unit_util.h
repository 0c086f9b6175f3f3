/*
 * unit_util.h — what unit tests share beside their fake target: scratch
 * directories, files in them, the toyc demo module, console commands.
 * Each helper fails the running cmocka test (fail_msg) when it cannot do
 * its job, so call them from a test or a setup only.
 */
#ifndef UNIT_UTIL_H
#define UNIT_UTIL_H

#include <stddef.h>
#include <stdint.h>

struct fake_target;
struct Module;		/* toyc's (tests/fixtures/toyc/ir.h) */
#include "irsnap.h"

/** Makes a fresh directory /tmp/irsnap-TAG.XXXXXX, its path in @p buf. */
void unit_tmpdir(char *buf, size_t len, const char *tag);
/** Removes @p dir and everything below it (links are not followed). */
void unit_rmtree(const char *dir);
/** Writes @p text to DIR/REL, making the directories REL names. */
void unit_put(const char *dir, const char *rel, const char *text);
/**
 * Replaces *lo (destroyed, then NULL) with the layout @p src compiled as
 * file @p name against @p t; returns the error, which the caller owns.
 */
struct irs_error *unit_layout_try(struct irs_target *t, const char *src,
				  const char *name, struct irs_layout **lo);
/** The same, failing the test (with the message) unless it compiles. */
void unit_layout_load(struct irs_target *t, const char *src,
		      const char *name, struct irs_layout **lo);
/** Destroys @p lo, then the fake target @p ft it was compiled against
 *  (in that order: a layout holds what the target told it). */
void unit_layout_teardown(struct fake_target *ft, struct irs_layout *lo);
/**
 * The text of the snapshot layout @p lo takes of @p addr over @p mem
 * (free() it), failing the test unless it is taken. Its stats go to *st
 * and its first walk error (or "") to @p error, @p len bytes.
 */
char *unit_render(struct irs_layout *lo, struct irs_memory *mem,
		  uint64_t addr, struct irs_snapshot_stats *st, char *error,
		  size_t len);
/**
 * The same, checked: the text is @p want, with @p nerrors walk errors of
 * which the first contains @p error (when @p nerrors is not 0).
 */
void unit_assert_render(struct irs_layout *lo, struct irs_memory *mem,
			uint64_t addr, const char *want, uint64_t nerrors,
			const char *error);
#ifdef FAKE_TARGET_H	/* it embeds one; some tests have fakes of their own */
/** What a layout test works on: a fake target, and the layout compiled
 *  against it (NULL until one is). */
struct unit_layout_fixture {
	struct fake_target ft;
	struct irs_layout *lo;
};
#endif
/** cmocka setup: a fresh fixture in *state, its target knowing no type. */
int unit_layout_fixture_setup(void **state);
/** cmocka teardown: the layout, the target, then the fixture. */
int unit_layout_fixture_teardown(void **state);
/** Seconds on the monotonic clock, for timing what a test runs. */
double unit_now(void);
/** CPU seconds this process has used: steadier than the clock on a busy
 *  machine. */
double unit_cpu(void);
/** The toyc file @p rel (under the source tree) parsed by toyc; free it
 *  with module_destroy. */
struct Module *unit_toyc_module(const char *rel);
/** The same for tests/fixtures/toyc/demo.ir. */
struct Module *unit_demo_module(void);
/** The module of about @p n instructions that `toyc --gen=N --seed=S`
 *  writes, parsed by toyc. */
struct Module *unit_generated_module(uint64_t n, uint64_t seed);
/**
 * Runs the console command NAME ARGS and returns its output, which
 * replaces (and frees) the previous one in *out; fails the test if the
 * command fails.
 */
const char *unit_console_run(struct irs_console *c, const char *name,
			     const char *args, char **out);
/**
 * A console over @p t writing run directories under @p dir, with toyc's
 * layout loaded (its output in *out, as unit_console_run leaves it).
 * Destroy with irs_console_destroy().
 */
struct irs_console *unit_toyc_console(struct irs_target *t, const char *dir,
				      char **out);

#endif
