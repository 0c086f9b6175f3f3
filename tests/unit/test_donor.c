// Type donors and release-build boundaries, in the core: a layout's
// donor { ... } read without a debugger (irsnap donor), the cache's answer
// (found, missing, stale: each with the command to run), a layout that
// loads its donor through the target before its types, and $argN by the
// calling convention.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "console/console.h"
#include "fake_target.h"
#include "unit_util.h"

static const char layout_src[] =
	"layout { name = \"cxx\", root = \"Pt\" }\n"
	"donor { source = \"cxx/donor.cpp\", include = { \"/inc\" },\n"
	"        flags = { \"-std=c++17\" },\n"
	"        fits = { { fact = \"f\", library = \"^libx-([0-9]+)\" },\n"
	"                 { fact = \"g\", symbol = \"x::On\", value = 1 } } }\n"
	"struct \"Pt\" { fields = {} }\n";

struct fix {
	char dir[256], cache[300], layout[300];
};

static int
setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	unit_tmpdir(f->dir, sizeof(f->dir), "donor");
	snprintf(f->cache, sizeof(f->cache), "%s/cache", f->dir);
	snprintf(f->layout, sizeof(f->layout), "%s/cxx.lua", f->dir);
	unit_put(f->dir, "cxx.lua", layout_src);
	unit_put(f->dir, "cxx/donor.cpp", "struct X { int a; };\n");
	unit_put(f->dir, "inc/x.h", "int x;\n");
	setenv("IRSNAP_CACHE", f->cache, 1);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;
	unsetenv("IRSNAP_CACHE");
	unit_rmtree(f->dir);
	free(f);
	return 0;
}

// What irsnap donor reads of a layout: the source beside it, the include
// directories, flags and fits; a source outside its directory refused.
static void
test_spec(void **state)
{
	struct fix *f = *state;
	struct irs_donor_spec d;
	char want[400];

	assert_null(irs_layout_donor_spec(f->layout, &d));
	assert_string_equal(d.layout_name, "cxx");
	snprintf(want, sizeof(want), "%s/cxx/donor.cpp", f->dir);
	assert_string_equal(d.source, want);
	assert_int_equal(d.ninclude, 1);
	assert_string_equal(d.include[0], "/inc");
	assert_int_equal(d.nflags, 1);
	assert_int_equal(d.nfits, 2);
	assert_string_equal(d.fits[0].library, "^libx-([0-9]+)");
	assert_string_equal(d.fits[1].symbol, "x::On");
	assert_int_equal(d.fits[1].value, 1);
	assert_int_equal(d.line, 2);
	irs_donor_spec_deinit(&d);

	unit_put(f->dir, "bad.lua", "layout { name = \"b\" }\n"
		 "donor { source = \"../etc/donor.cpp\" }\n");
	char bad[300];
	snprintf(bad, sizeof(bad), "%s/bad.lua", f->dir);
	struct irs_error *err = irs_layout_donor_spec(bad, &d);
	assert_non_null(err);
	assert_non_null(strstr(irs_error_get_message(err), "bad.lua:2: donor: "
			       "'source' is a path beside the layout, "
			       "without '..'"));
	irs_error_destroy(err);
}

// Puts a cache entry for the layout's donor whose stamp lists @p file.
static void
put_entry(struct fix *f, const char *file)
{
	struct irs_donor_spec d;
	char key[17], rel[300], stamp[600];
	struct stat st;

	assert_null(irs_layout_donor_spec(f->layout, &d));
	assert_null(irs_donor_key(&d, key));
	irs_donor_spec_deinit(&d);
	assert_int_equal(stat(file, &st), 0);
	snprintf(rel, sizeof(rel), "cache/donors/cxx-%s-0123456789abcdef",
		 key);
	snprintf(stamp, sizeof(stamp), "irsnap-donor 1\nfile %llu %lld.%09ld "
		 "%s\n", (unsigned long long)st.st_size,
		 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, file);
	char path[400];
	snprintf(path, sizeof(path), "%s/donor.o", rel);
	unit_put(f->dir, path, "ELF");
	snprintf(path, sizeof(path), "%s/donor.stamp", rel);
	unit_put(f->dir, path, stamp);
}

static char loaded[600];

static struct irs_error *
record_load(void *arg, const char *path)
{
	(void)arg;
	snprintf(loaded, sizeof(loaded), "%s", path);
	return NULL;
}

// The cache: missing and stale donors say the command that builds them;
// a fresh one is found; loading a layout asks the target to load it,
// before its types, and never builds anything.
static void
test_cache(void **state)
{
	struct fix *f = *state;
	struct irs_donor_spec d;
	char *obj = NULL, header[300], msg[1200];

	assert_null(irs_layout_donor_spec(f->layout, &d));
	struct irs_error *err = irs_donor_find(&d, &obj);
	assert_non_null(err);
	snprintf(msg, sizeof(msg), "no type donor built for layout 'cxx' "
		 "(%s/cxx/donor.cpp): run `irsnap donor %s`", f->dir,
		 f->layout);
	assert_string_equal(irs_error_get_message(err), msg);
	irs_error_destroy(err);

	// a layout whose donor is missing does not load, at its donor's line
	struct fake_target ft;
	struct irs_layout *lo = NULL;
	fake_target_init(&ft);
	fake_type(&ft, "Pt", 8);
	ft.target.load_types = record_load;
	loaded[0] = 0;
	err = irs_layout_load(f->layout, &ft.target, &lo);
	assert_non_null(err);
	assert_non_null(strstr(irs_error_get_message(err), "cxx.lua:2: donor: "
			       "no type donor built for layout 'cxx'"));
	irs_error_destroy(err);

	snprintf(header, sizeof(header), "%s/inc/x.h", f->dir);
	put_entry(f, header);
	assert_null(irs_donor_find(&d, &obj));
	assert_non_null(strstr(obj, "/cache/donors/cxx-"));
	// and loads it through the target when it is there
	assert_null(irs_layout_load(f->layout, &ft.target, &lo));
	assert_string_equal(loaded, obj);
	irs_layout_destroy(lo);
	fake_target_deinit(&ft);
	free(obj);

	unit_put(f->dir, "inc/x.h", "int x, y;\n");	// the header changed
	err = irs_donor_find(&d, &obj);
	assert_non_null(err);
	snprintf(msg, sizeof(msg), "the type donor of layout 'cxx' is stale "
		 "(%s changed since it was built): run `irsnap donor %s`",
		 header, f->layout);
	assert_string_equal(irs_error_get_message(err), msg);
	irs_error_destroy(err);
	irs_donor_spec_deinit(&d);
}

// $argN: the N-th integer argument register of x86-64 System V, after
// the hidden result pointer with sret.
static void
test_abi_args(void **state)
{
	struct fake_target ft;
	struct irs_console *c;
	char out[128];
	(void)state;

	fake_target_init(&ft);
	assert_null(irs_console_create(&ft.target, &c));
	assert_null(console_abi_expr(c, true, "$arg1", out, sizeof(out)));
	assert_string_equal(out, "$rdx");
	assert_null(console_abi_expr(c, false, "$arg1", out, sizeof(out)));
	assert_string_equal(out, "$rsi");
	assert_null(console_abi_expr(c, false, "((T *)$arg0)->n + $arg5",
				     out, sizeof(out)));
	assert_string_equal(out, "((T *)$rdi)->n + $r9");
	assert_null(console_abi_expr(c, false, "$argument", out,
				     sizeof(out)));
	assert_string_equal(out, "$argument");
	struct irs_error *err = console_abi_expr(c, true, "$arg5", out,
						 sizeof(out));
	assert_non_null(err);
	assert_string_equal(irs_error_get_message(err), "cannot evaluate "
			    "'$arg5': $arg5 is not passed in a register "
			    "(after the sret pointer)");
	irs_error_destroy(err);
	irs_console_destroy(c);
	fake_target_deinit(&ft);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_spec, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache, setup, teardown),
		cmocka_unit_test(test_abi_args),
	};
	return cmocka_run_group_tests_name("donor", tests, NULL, NULL);
}
