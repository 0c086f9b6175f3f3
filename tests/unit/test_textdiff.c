// Unit tests for common/tools/textdiff.c: the unified line diff the HTML report
// shows for each pass.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/tools.h"
#include "unit_util.h"

// The diff of a against b, as a malloc'd string.
static char *
udiff(const char *a, const char *b, uint32_t context,
      struct irs_textdiff_stats *stats)
{
	struct irs_buf out;
	irs_buf_init(&out);
	assert_null(irs_textdiff_unified(a, strlen(a), "A", b, strlen(b), "B",
					 context, &out, stats));
	return irs_buf_steal(&out);
}

static void
assert_diff(const char *a, const char *b, uint32_t context,
	    const char *expected)
{
	char *got = udiff(a, b, context, NULL);
	assert_string_equal(got, expected);
	free(got);
}

// Equal texts give no output at all, not even headers.
static void
test_equal_texts_give_nothing(void **state)
{
	(void)state;
	assert_diff("a\nb\n", "a\nb\n", 3, "");
	assert_diff("", "", 3, "");
}

// One changed line in the middle, with its context, as diff -u prints it.
static void
test_one_line_changed(void **state)
{
	(void)state;
	assert_diff("a\nb\nc\n", "a\nx\nc\n", 3,
		    "--- A\n+++ B\n@@ -1,3 +1,3 @@\n a\n-b\n+x\n c\n");
}

// Adding to an empty text: the old range is "0,0".
static void
test_added_to_empty(void **state)
{
	(void)state;
	assert_diff("", "p\nq\n", 3, "--- A\n+++ B\n@@ -0,0 +1,2 @@\n+p\n+q\n");
	assert_diff("p\n", "", 3, "--- A\n+++ B\n@@ -1 +0,0 @@\n-p\n");
}

// A missing final newline is a difference and is marked as diff(1) does.
static void
test_missing_newline_is_marked(void **state)
{
	(void)state;
	assert_diff("a\nb\n", "a\nb", 3,
		    "--- A\n+++ B\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n"
		    "\\ No newline at end of file\n");
}

// Changes far apart get separate hunks; close ones share one.
static void
test_hunks_split_by_context(void **state)
{
	(void)state;
	const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
	assert_diff(a, "1\nX\n3\n4\n5\n6\n7\nY\n9\n", 1,
		    "--- A\n+++ B\n"
		    "@@ -1,3 +1,3 @@\n 1\n-2\n+X\n 3\n"
		    "@@ -7,3 +7,3 @@\n 7\n-8\n+Y\n 9\n");
	assert_diff(a, "1\nX\n3\n4\nY\n6\n7\n8\n9\n", 1,
		    "--- A\n+++ B\n"
		    "@@ -1,6 +1,6 @@\n 1\n-2\n+X\n 3\n 4\n-5\n+Y\n 6\n");
}

/* Property test: applying the diff to a gives b, and it is minimal. */

static size_t
lcs(char **x, size_t n, char **y, size_t m)
{
	size_t *row = calloc((n + 1) * (m + 1), sizeof(size_t));
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;) {
			size_t *c = &row[i * (m + 1) + j];
			if (!strcmp(x[i], y[j]))
				*c = 1 + row[(i + 1) * (m + 1) + j + 1];
			else {
				size_t r = row[(i + 1) * (m + 1) + j];
				size_t d = row[i * (m + 1) + j + 1];
				*c = r > d ? r : d;
			}
		}
	size_t best = row[0];
	free(row);
	return best;
}

// Applies a unified diff (complete lines only) to lines x; returns the text.
static char *
apply(char **x, size_t n, char *patch)
{
	struct irs_buf out;
	irs_buf_init(&out);
	size_t next = 0;	// next line of x not yet copied
	for (char *line = strtok(patch, "\n"); line;
	     line = strtok(NULL, "\n")) {
		long start, count = 1;
		if (!strncmp(line, "---", 3) || !strncmp(line, "+++", 3))
			continue;
		if (sscanf(line, "@@ -%ld,%ld", &start, &count) >= 1) {
			// An empty old range names the line before it.
			size_t upto = (size_t)(count ? start - 1 : start);
			while (next < upto)
				irs_buf_printf(&out, "%s\n", x[next++]);
			continue;
		}
		if (line[0] == '+') {
			irs_buf_printf(&out, "%s\n", line + 1);
			continue;
		}
		assert_true(next < n);
		assert_string_equal(line + 1, x[next]);
		if (line[0] == ' ')
			irs_buf_printf(&out, "%s\n", x[next]);
		next++;
	}
	while (next < n)
		irs_buf_printf(&out, "%s\n", x[next++]);
	return irs_buf_steal(&out);
}

static size_t
random_text(char *text, char **lines, size_t max, unsigned *seed)
{
	size_t n = (size_t)rand_r(seed) % max;
	char *p = text;
	for (size_t i = 0; i < n; i++) {
		p += sprintf(p, "%c\n", 'a' + rand_r(seed) % 4);
		lines[i] = p - 2;
	}
	*p = '\0';
	return n;
}

static void
test_random_diffs_apply_and_are_minimal(void **state)
{
	(void)state;
	unsigned seed = 12345;
	for (int round = 0; round < 500; round++) {
		char ta[200], tb[200], *la[64], *lb[64];
		size_t n = random_text(ta, la, 40, &seed);
		size_t m = random_text(tb, lb, 40, &seed);
		struct irs_textdiff_stats st;
		char *d = udiff(ta, tb, (uint32_t)(rand_r(&seed) % 4), &st);
		// Split line pointers only now: udiff needed the whole text.
		char *xa[64], *xb[64];
		for (size_t i = 0; i < n; i++) {
			la[i][1] = '\0';
			xa[i] = la[i];
		}
		for (size_t i = 0; i < m; i++) {
			lb[i][1] = '\0';
			xb[i] = lb[i];
		}
		char *got = apply(xa, n, d);
		char tb2[200], *p = tb2;
		*p = '\0';
		for (size_t i = 0; i < m; i++)
			p += sprintf(p, "%s\n", xb[i]);
		assert_string_equal(got, tb2);
		size_t common = lcs(xa, n, xb, m);
		assert_int_equal(st.removed, n - common);
		assert_int_equal(st.added, m - common);
		assert_false(st.gave_up);
		free(got);
		free(d);
	}
}

/* A real pass on a big module. */

// Lines of @p text as NUL-terminated strings (newlines overwritten).
static char **
split_lines(char *text, size_t *n_ret)
{
	size_t n = 0, cap = 1024;
	char **lines = malloc(cap * sizeof(*lines));
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');
		if (n == cap)
			lines = realloc(lines, (cap *= 2) * sizeof(*lines));
		lines[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	*n_ret = n;
	return lines;
}

// The output of `sh -c CMD`, as a number.
static long
shell_number(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	long v = -1;
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%ld", &v), 1);
	pclose(p);
	return v;
}

// Section @p which ("Before", "After") of toyc's --print-*-all dump.
static char *
dump_section(const char *dumps, const char *which)
{
	char banner[64];
	snprintf(banner, sizeof(banner), "; *** IR Dump %s dce ***\n", which);
	const char *start = strstr(dumps, banner);
	assert_non_null(start);
	start += strlen(banner);
	const char *end = strstr(start, "; *** IR Dump ");
	if (!end)
		end = start + strlen(start);
	return strndup(start, (size_t)(end - start));
}

static double
seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// A scratch directory and toyc's absolute path, for the big tests.
struct big {
	char dir[64];
	char toyc[4096];
};

static void
big_init(struct big *g)
{
	const char *build = getenv("BUILD");
	char rel[4096];
	snprintf(rel, sizeof(rel), "%s/toyc", build && *build ? build
		 : "build");
	assert_int_equal(access(rel, X_OK), 0);		// run make first
	assert_non_null(realpath(rel, g->toyc));
	unit_tmpdir(g->dir, sizeof(g->dir), "textdiff");
}

static void
big_deinit(struct big *g)
{
	unit_rmtree(g->dir);
}

// `cd DIR && CMD` with %T standing for toyc's path.
static void
big_run(const struct big *g, const char *fmt)
{
	struct irs_buf cmd;
	irs_buf_init(&cmd);
	irs_buf_printf(&cmd, "cd %s && ", g->dir);
	for (const char *p = fmt; *p; p++) {
		if (p[0] == '%' && p[1] == 'T') {
			irs_buf_printf(&cmd, "'%s'", g->toyc);
			p++;
		} else {
			irs_buf_append(&cmd, p, 1);
		}
	}
	assert_int_equal(system(cmd.data), 0);
	irs_buf_deinit(&cmd);
}

static char *
big_read(const struct big *g, const char *name)
{
	char path[128], *text;
	snprintf(path, sizeof(path), "%s/%s", g->dir, name);
	assert_null(irs_file_read(path, &text, NULL));
	return text;
}

// Diffs DIR/a.ir against DIR/b.ir and checks the result against GNU diff
// --minimal: removes and adds at most @p permille more lines than it, is
// never given up, and turns a into b. How long it took is printed.
static void
big_check(const struct big *g, long permille, long *removed_ret)
{
	char cmd[256];
	// GNU diff --minimal once: on 47,000 lines it takes seconds
	snprintf(cmd, sizeof(cmd), "cd %s && { diff --minimal a.ir b.ir "
		 ">minimal.diff; grep -c '^<' minimal.diff; }", g->dir);
	long want_removed = shell_number(cmd);
	snprintf(cmd, sizeof(cmd), "cd %s && grep -c '^>' minimal.diff",
		 g->dir);
	long want_added = shell_number(cmd);
	char *a = big_read(g, "a.ir"), *b = big_read(g, "b.ir");

	struct irs_buf out;
	struct irs_textdiff_stats st;
	irs_buf_init(&out);
	double t0 = seconds();
	assert_null(irs_textdiff_unified(a, strlen(a), "a.ir", b, strlen(b),
					 "b.ir", 3, &out, &st));
	double took = seconds() - t0;
	print_message("removed %llu (GNU diff --minimal: %ld), added %llu "
		      "(%ld), %.2f s\n", (unsigned long long)st.removed,
		      want_removed, (unsigned long long)st.added, want_added,
		      took);
	assert_true((long)st.removed >= want_removed);	// it is minimal
	assert_true((long)st.removed <= want_removed +
		    want_removed * permille / 1000);
	assert_true((long)st.added <= want_added + want_added * permille /
		    1000);
	assert_false(st.gave_up);	// its time is a figure, not a check

	size_t na;
	char *a_copy = strdup(a);
	char **la = split_lines(a_copy, &na);
	char *patch = irs_buf_steal(&out);
	char *got = apply(la, na, patch);
	assert_true(strcmp(got, b) == 0);	// no 2 MB string diff
	free(patch);
	*removed_ret = (long)st.removed;
	free(got);
	free(la);
	free(a_copy);
	free(a);
	free(b);
}

// toyc's dce on 100,000 generated instructions deletes some 47,000 lines
// of 122,000: the diff finds exactly as many (lines that occur on one side
// only are set aside before the search, as GNU diff does), in seconds,
// with no region given up and shown removed and added whole.
static void
test_big_real_pass(void **state)
{
	(void)state;
	struct big g;
	big_init(&g);
	big_run(&g, "%T --gen=100000 >g.ir && %T --passes=dce "
		"--print-before-all --print-after-all g.ir 2>dumps >/dev/null");
	char *dumps = big_read(&g, "dumps");
	char *a = dump_section(dumps, "Before"), *b = dump_section(dumps,
								  "After");
	char path[128];
	snprintf(path, sizeof(path), "%s/a.ir", g.dir);
	assert_null(irs_file_write(path, a, strlen(a)));
	snprintf(path, sizeof(path), "%s/b.ir", g.dir);
	assert_null(irs_file_write(path, b, strlen(b)));
	free(dumps);
	free(a);
	free(b);
	long removed;
	big_check(&g, 1, &removed);
	assert_true(removed > 40000);	// the pass did delete a lot
	big_deinit(&g);
}

// Two unrelated modules of 20,000 instructions: the edit distance is far
// past the search's budget, so the regions are split at their anchors
// (lines that occur once on each side); the result stays a correct diff
// within 5% of the minimum (its time is printed).
static void
test_big_unrelated_texts(void **state)
{
	(void)state;
	struct big g;
	big_init(&g);
	big_run(&g, "%T --gen=20000 --seed=1 >a.ir && "
		"%T --gen=20000 --seed=2 >b.ir");
	long removed;
	big_check(&g, 50, &removed);
	big_deinit(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal_texts_give_nothing),
		cmocka_unit_test(test_one_line_changed),
		cmocka_unit_test(test_added_to_empty),
		cmocka_unit_test(test_missing_newline_is_marked),
		cmocka_unit_test(test_hunks_split_by_context),
		cmocka_unit_test(test_random_diffs_apply_and_are_minimal),
		cmocka_unit_test(test_big_real_pass),
		cmocka_unit_test(test_big_unrelated_texts),
	};
	return cmocka_run_group_tests_name("textdiff", tests, NULL, NULL);
}
