// Helpers the unit tests share; see unit_util.h.
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fake_target.h"
#include "run/run.h"
#include "toyc.h"
#include "toyc_fake.h"
#include "unit_util.h"
#include "util/util.h"

void
unit_tmpdir(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/tmp/irsnap-%s.XXXXXX", tag);
	if (!mkdtemp(buf))
		fail_msg("cannot make a directory %s", buf);
}

static int
rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

void
unit_rmtree(const char *dir)
{
	if (nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		fail_msg("cannot remove %s", dir);
}

void
unit_put(const char *dir, const char *rel, const char *text)
{
	char *path = irs_path_join(dir, rel);
	assert_non_null(path);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	assert_null(irs_mkdirs(path));
	*slash = '/';
	assert_null(irs_file_write(path, text, strlen(text)));
	free(path);
}

struct irs_error *
unit_layout_try(struct irs_target *t, const char *src, const char *name,
		struct irs_layout **lo)
{
	irs_layout_destroy(*lo);
	*lo = NULL;
	return irs_layout_create(src, strlen(src), name, t, lo);
}

void
unit_layout_load(struct irs_target *t, const char *src, const char *name,
		 struct irs_layout **lo)
{
	struct irs_error *err = unit_layout_try(t, src, name, lo);
	if (err)
		fail_msg("%s: %s", name, irs_error_get_message(err));
}

void
unit_layout_teardown(struct fake_target *ft, struct irs_layout *lo)
{
	irs_layout_destroy(lo);
	fake_target_deinit(ft);
}

int
unit_layout_fixture_setup(void **state)
{
	struct unit_layout_fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	fake_target_init(&f->ft);
	*state = f;
	return 0;
}

int
unit_layout_fixture_teardown(void **state)
{
	struct unit_layout_fixture *f = *state;
	unit_layout_teardown(&f->ft, f->lo);
	free(f);
	return 0;
}

char *
unit_render(struct irs_layout *lo, struct irs_memory *mem, uint64_t addr,
	    struct irs_snapshot_stats *st, char *error, size_t len)
{
	char *text;
	struct irs_snapshot *snap;
	struct irs_error *err = irs_snapshot_text(lo, mem, addr, NULL, NULL,
						  &text, &snap);
	if (err)
		fail_msg("snapshot of 0x%llx: %s", (unsigned long long)addr,
			 irs_error_get_message(err));
	irs_snapshot_get_stats(snap, st);
	snprintf(error, len, "%s", st->nerrors ? irs_snapshot_error(snap, 0)
						: "");
	irs_snapshot_destroy(snap);
	return text;
}

void
unit_assert_render(struct irs_layout *lo, struct irs_memory *mem,
		   uint64_t addr, const char *want, uint64_t nerrors,
		   const char *error)
{
	struct irs_snapshot_stats st;
	char first[512];
	char *text = unit_render(lo, mem, addr, &st, first, sizeof(first));
	if (st.nerrors != nerrors || (nerrors && !strstr(first, error)))
		fprintf(stderr, "%llu walk errors, the first: %s\n",
			(unsigned long long)st.nerrors, first);
	assert_string_equal(text, want);
	assert_int_equal(st.nerrors, nerrors);
	if (nerrors)
		assert_non_null(strstr(first, error));
	free(text);
}

static double
seconds_of(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double
unit_now(void)
{
	return seconds_of(CLOCK_MONOTONIC);
}

double
unit_cpu(void)
{
	return seconds_of(CLOCK_PROCESS_CPUTIME_ID);
}

static Module *
parse(const char *name, const char *text, size_t len)
{
	Module *m = toyc_parse(name, text, len, stderr);
	if (!m)
		fail_msg("toyc cannot parse %s", name);
	return m;
}

Module *
unit_toyc_module(const char *rel)
{
	char path[4096], *text;
	size_t len;
	assert_null(irs_file_read(toyc_fake_path(rel, path, sizeof(path)),
				  &text, &len));
	Module *m = parse(rel, text, len);
	free(text);
	return m;
}

Module *
unit_demo_module(void)
{
	return unit_toyc_module("tests/fixtures/toyc/demo.ir");
}

Module *
unit_generated_module(uint64_t n, uint64_t seed)
{
	char *text;
	size_t len;
	FILE *fp = open_memstream(&text, &len);
	assert_non_null(fp);
	toyc_gen(n, seed, fp);
	fclose(fp);
	Module *m = parse("gen.ir", text, len);
	free(text);
	return m;
}

const char *
unit_console_run(struct irs_console *c, const char *name, const char *args,
		 char **out)
{
	irs_free(*out);
	*out = NULL;
	struct irs_error *err = irs_console_command(c, name, args, out);
	if (err)
		fail_msg("%s %s: %s", name, args, irs_error_get_message(err));
	return *out;
}

struct irs_console *
unit_toyc_console(struct irs_target *t, const char *dir, char **out)
{
	struct irs_console *c;
	char path[4096], cmd[4200];
	assert_null(irs_console_create(t, &c));
	assert_null(irs_console_set(c, "dir", dir));
	snprintf(cmd, sizeof(cmd), "load '%s'",
		 toyc_fake_path("tests/fixtures/toyc/toyc.lua", path,
				sizeof(path)));
	unit_console_run(c, "ir-layout", cmd, out);
	return c;
}
