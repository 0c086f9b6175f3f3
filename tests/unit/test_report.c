// Unit tests for common/tools/report.c over hand-built run directories: what the
// page shows, that every byte from the run is escaped, and that a damaged
// run directory is one error naming the file. (tests/report/test_report.sh
// checks the page of a real traced run in a real browser.)
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/tools.h"
#include "unit_util.h"

struct fixture {
	char dir[64];		// the run directory
	char html[96];		// where the page goes
	char *page;		// the page, once written
};

static const char ir_before[] =
	"module @m\n\nfunc @f(%a) {\nentry:\n  %1 = add %a, 1\n"
	"  %2 = add %a, 1\n  ret %2\n}\n";
// A hostile after text: markup, quotes and a control byte.
static const char ir_after[] =
	"module @m\n\nfunc @f(%a) {\nentry:\n  %1 = add %a, 1\n"
	"  ret %1 ; </pre><script>alert(\"x\")</script> & \x01\n}\n";

static void
put(struct fixture *f, const char *rel, const char *text)
{
	unit_put(f->dir, rel, text);
}

static const char manifest_fmt[] =
	"{\"schema\": \"irsnap.manifest/1\", \"run_id\": \"20261130-051500-42\","
	" \"irsnap_version\": \"0.1.0\", \"created\": \"2026-11-30T05:15:00Z\","
	" \"updated\": \"2026-11-30T05:15:02Z\", \"status\": \"%s\","
	" \"debugger\": \"gdb 13.1\", \"debuggee\": {\"exe\": \"/bin/toyc\","
	" \"args\": \"<b>in.ir</b>\", \"pid\": 42}, \"layout\": {\"path\": "
	"\"toyc.lua\", \"name\": \"toyc\"}, \"options\": {\"changed_only\": "
	"false, \"formats\": [\"text\"]}, \"failure\": %s, \"events\": ["
	"%s]}";

static const char ev_fmt[] =
	"{\"seq\": %d, \"pass\": \"%s\", \"phase\": \"%s\", \"snapshot\": "
	"{\"text\": \"snapshots/%s\"}, \"nodes\": 7, \"bytes\": 300, \"hash\": "
	"\"0123456789abcdef\", \"walk_errors\": 0, \"cpu_s\": %s, "
	"\"changed\": true, \"verifiers\": []}";

// Two passes: cse (changed the IR, slow) and the crashing 'dce<&>' pass.
static int
setup_run(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	unit_tmpdir(f->dir, sizeof(f->dir), "report");
	snprintf(f->html, sizeof(f->html), "%s/page.html", f->dir);
	char sub[96], events[1024], e1[256], e2[256], e3[256], doc[2048];
	snprintf(sub, sizeof(sub), "%s/snapshots", f->dir);
	mkdir(sub, 0777);
	put(f, "snapshots/0001-cse.before.ir", ir_before);
	put(f, "snapshots/0001-cse.after.ir", ir_after);
	put(f, "snapshots/0002-dce___.before.ir", ir_after);
	snprintf(e1, sizeof(e1), ev_fmt, 1, "cse", "before",
		 "0001-cse.before.ir", "null");
	snprintf(e2, sizeof(e2), ev_fmt, 1, "cse", "after",
		 "0001-cse.after.ir", "0.004");
	snprintf(e3, sizeof(e3), ev_fmt, 2, "dce<&>", "before",
		 "0002-dce___.before.ir", "null");
	snprintf(events, sizeof(events), "%s, %s, %s", e1, e2, e3);
	snprintf(doc, sizeof(doc), manifest_fmt, "failed", "\"failure.json\"",
		 events);
	put(f, "manifest.json", doc);
	put(f, "failure.json",
	    "{\"schema\": \"irsnap.failure/1\", \"run_id\": "
	    "\"20261130-051500-42\", \"kind\": \"signal\", \"signal\": "
	    "{\"number\": 11, \"name\": \"SIGSEGV\"}, \"message\": null, "
	    "\"pass\": {\"name\": \"dce<&>\", \"seq\": 2}, \"backtrace\": ["
	    "{\"index\": 0, \"pc\": \"0x401234\", \"function\": \"dce_run\", "
	    "\"file\": \"dce.c\", \"line\": 88}], \"before_snapshot\": "
	    "{\"text\": \"snapshots/0002-dce___.before.ir\", \"json\": null}, "
	    "\"crash_snapshot\": null, \"reduce_command\": \"irsnap reduce "
	    "x.ir --crash 'toyc {}'\"}");
	*state = f;
	return 0;
}

static int
teardown_run(void **state)
{
	struct fixture *f = *state;
	unit_rmtree(f->dir);
	free(f->page);
	free(f);
	return 0;
}

static void
write_page(struct fixture *f)
{
	assert_null(irs_report_write(f->dir, f->html));
	assert_null(irs_file_read(f->html, &f->page, NULL));
}

static int
count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

// Markup from the run never reaches the page as markup: the only <script>
// is the page's own, and the hostile text appears escaped.
static void
test_run_text_is_escaped(void **state)
{
	struct fixture *f = *state;
	write_page(f);
	assert_int_equal(count(f->page, "<script"), 1);
	assert_non_null(strstr(f->page, "&lt;/pre&gt;&lt;script&gt;alert("
				"&quot;x&quot;)&lt;/script&gt; &amp; &#xFFFD;"));
	assert_non_null(strstr(f->page, "&lt;b&gt;in.ir&lt;/b&gt;"));
	assert_non_null(strstr(f->page, " dce&lt;&amp;&gt; "));
	assert_null(strstr(f->page, "dce<&>"));
	assert_null(strstr(f->page, "\x01"));
}

// The timeline: one row per pass, the slowest pass's bar full width, and
// the failing pass marked as crashed; the failure section names the signal.
static void
test_timeline_and_failure(void **state)
{
	struct fixture *f = *state;
	write_page(f);
	assert_int_equal(count(f->page, "<tr><td class=\"num\">1</td>"), 1);
	assert_int_equal(count(f->page, "<tr class=\"failing\"><td class="
				  "\"num\">2</td>"), 1);
	assert_non_null(strstr(f->page, "<td class=\"num\">4.00</td>"
				"<td class=\"bar\"><span style=\"width:100.0%\">"));
	assert_non_null(strstr(f->page, "<td class=\"bad\">crashed</td>"));
	assert_non_null(strstr(f->page, "<span class=\"sig\">SIGSEGV</span>"));
	assert_non_null(strstr(f->page, "<td class=\"mono\">dce_run</td>"));
	assert_non_null(strstr(f->page, "irsnap reduce x.ir --crash "
				"&#39;toyc {}&#39;"));
}

// cse's diff: the removed %2 and the changed ret, in a folded <details>.
static void
test_pass_diff(void **state)
{
	struct fixture *f = *state;
	write_page(f);
	assert_non_null(strstr(f->page, "<details class=\"pass\" id=\"pass-1\">"));
	assert_non_null(strstr(f->page, "<span class=\"del\">-  %2 = add %a, 1"
				"\n</span>"));
	assert_non_null(strstr(f->page, "<span class=\"add\">+  ret %1 ;"));
	assert_non_null(strstr(f->page, "+1 &minus;2 lines"));
	// The crashed pass has no after text: its input is shown, opened.
	assert_non_null(strstr(f->page, "<details class=\"pass\" id=\"pass-2\""
				" open>"));
}

static void
assert_report_fails(struct fixture *f, enum irs_error_code code,
		    const char *in_message)
{
	struct irs_error *err = irs_report_write(f->dir, f->html);
	assert_non_null(err);
	assert_int_equal(err->code, code);
	if (!strstr(err->message, in_message))
		fail_msg("'%s' does not name '%s'", err->message, in_message);
	assert_null(strchr(err->message, '\n'));
	irs_error_destroy(err);
	assert_int_equal(access(f->html, F_OK), -1);	// no page left
}

static void
test_damaged_manifest_names_file(void **state)
{
	struct fixture *f = *state;
	put(f, "manifest.json", "{\"schema\": \"irsnap.manifest/1\", ");
	assert_report_fails(f, IRS_ERROR_FORMAT, "/manifest.json:1:");
}

static void
test_manifest_against_schema(void **state)
{
	struct fixture *f = *state;
	put(f, "manifest.json", "{\"schema\": \"irsnap.manifest/1\"}");
	assert_report_fails(f, IRS_ERROR_FORMAT, "/manifest.json: $");
}

static void
test_missing_snapshot_names_file(void **state)
{
	struct fixture *f = *state;
	char path[160];
	snprintf(path, sizeof(path), "%s/snapshots/0001-cse.after.ir", f->dir);
	unlink(path);
	assert_report_fails(f, IRS_ERROR_NOT_FOUND, "0001-cse.after.ir");
}

static void
test_damaged_failure_names_file(void **state)
{
	struct fixture *f = *state;
	put(f, "failure.json", "[]");
	assert_report_fails(f, IRS_ERROR_FORMAT, "/failure.json");
}

static void
test_missing_run_dir(void **state)
{
	struct fixture *f = *state;
	strcat(f->dir, "/nope");
	snprintf(f->html, sizeof(f->html), "/tmp/irsnap-report-never.html");
	assert_report_fails(f, IRS_ERROR_NOT_FOUND, "/nope");
	f->dir[strlen(f->dir) - strlen("/nope")] = '\0';
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup_run, teardown_run)
	const struct CMUnitTest tests[] = {
		T(test_run_text_is_escaped),
		T(test_timeline_and_failure),
		T(test_pass_diff),
		T(test_damaged_manifest_names_file),
		T(test_manifest_against_schema),
		T(test_missing_snapshot_names_file),
		T(test_damaged_failure_names_file),
		T(test_missing_run_dir),
	};
	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
