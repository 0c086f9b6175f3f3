// irsnap report RUN [-o FILE.html]: one self-contained HTML page for a run.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static int
report_usage(const char *why)
{
	fprintf(stderr, "irsnap report: %s\n"
		"usage: irsnap report [RUN] [-o FILE.html]\n", why);
	return EXIT_USAGE;
}

// The schema a replay directory's replay.json says it is, or NULL.
static const char *
replay_schema(const char *dir, json_t **doc_ret)
{
	char *rj = NULL;
	struct stat st;
	*doc_ret = NULL;
	if (asprintf(&rj, "%s/replay.json", dir) < 0)
		return NULL;
	if (lstat(rj, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size < (64 << 20))
		*doc_ret = json_load_file(rj, JSON_ALLOW_NUL, NULL);
	free(rj);
	return json_string_value(json_object_get(*doc_ret, "schema"));
}

int
cmd_report(int argc, char **argv)
{
	const char *arg = NULL, *out = NULL;
	char *fallback = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: irsnap report [RUN] [-o FILE.html]\n"
			       "Writes one self-contained HTML page for run "
			       "directory RUN (default FILE:\nRUN/report.html;"
			       " default RUN: $IRSNAP_DIR/latest, else "
			       "./irsnap-out/latest).\nFor a replay directory "
			       "(irsnap replay), the page of the run of its "
			       "first\nfailure; for a hunt directory (irsnap "
			       "merge), the hunt's page.\n"
			       "example: irsnap report irsnap-out/latest "
			       "-o run.html\n");
			return EXIT_OK;
		}
		bool missing = false;
		const char *v = cli_opt_value(argc, argv, &i, "-o", &missing);
		if (!v && !missing)
			v = cli_opt_value(argc, argv, &i, "--output", &missing);
		if (missing)
			return report_usage("-o needs a file name");
		if (v) {
			out = v;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "irsnap report: unknown option '%s'\n",
				cli_shown(argv[i]));
			return report_usage("see the usage below");
		} else if (arg) {
			return report_usage("one run directory at a time");
		} else {
			arg = argv[i];
		}
	}
	char *dir = NULL, *run = NULL;
	bool replay = false;
	struct irs_error *err = cli_resolve(arg ? arg : irs_rundir_root(NULL),
					    &dir, &replay);
	if (err)
		return cli_fail(err);
	// A merged hunt (irsnap merge) has a replay.json of its own kind and
	// a page of its own; a replay's page is its failing run's.
	json_t *doc = NULL;
	const char *id = replay ? replay_schema(dir, &doc) : NULL;
	bool hunt = id && !strcmp(id, "irsnap.hunt/1");
	json_decref(doc);
	if (!hunt && replay)
		err = cli_run_dir(dir, &run);
	if (!err && !out) {
		// Into the run, and so not through a link it may hold.
		err = irs_rundir_file(run ? run : dir, "report.html",
				      &fallback);
		out = fallback;
	}
	if (!err)
		err = hunt ? irs_hunt_report_write(dir, out)
			   : irs_report_write(run ? run : dir, out);
	if (err) {
		free(fallback);
		free(dir);
		free(run);
		return cli_fail(err);
	}
	printf("report: %s", cli_shown(out));
	if (run)
		printf(" (run %s of replay %s)", cli_shown(run),
		       cli_shown(dir));
	putchar('\n');
	free(fallback);
	free(dir);
	free(run);
	return EXIT_OK;
}
