// Unit tests for common/textdiff.c: the unified line diff the HTML report
// shows for each pass.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "textdiff.h"

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
	};
	return cmocka_run_group_tests_name("textdiff", tests, NULL, NULL);
}
