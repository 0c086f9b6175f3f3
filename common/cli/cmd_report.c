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
		"usage: irsnap report RUN -o FILE.html\n", why);
	return EXIT_USAGE;
}

int
cmd_report(int argc, char **argv)
{
	const char *run = NULL, *out = NULL;
	char *fallback = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: irsnap report RUN -o FILE.html\n"
			       "Writes one self-contained HTML page for run "
			       "directory RUN (default FILE: RUN/report.html),\nor for a hunt directory that irsnap merge wrote."
			       "\nexample: irsnap report irsnap-out/latest "
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
		} else if (run) {
			return report_usage("one run directory at a time");
		} else {
			run = argv[i];
		}
	}
	if (!run)
		return report_usage("which run? give its directory");
	if (!out) {
		// Into the run, and so not through a link it may hold.
		struct irs_error *err = irs_rundir_file(run, "report.html",
							&fallback);
		if (err)
			return cli_fail(err);
		out = fallback;
	}
	// A merged hunt (irsnap merge) has a replay.json of its own kind.
	char *rj = NULL;
	struct stat st;
	if (asprintf(&rj, "%s/replay.json", run) < 0)
		return cli_fail(&irs_enomem);
	json_t *doc = stat(rj, &st) == 0 && S_ISREG(st.st_mode) &&
		      st.st_size < (64 << 20)
		      ? json_load_file(rj, JSON_ALLOW_NUL, NULL) : NULL;
	const char *id = json_string_value(json_object_get(doc, "schema"));
	bool hunt = id && !strcmp(id, "irsnap.hunt/1");
	json_decref(doc);
	free(rj);
	struct irs_error *err = hunt ? irs_hunt_report_write(run, out)
				     : irs_report_write(run, out);
	if (err) {
		free(fallback);
		return cli_fail(err);
	}
	printf("report: %s\n", cli_shown(out));
	free(fallback);
	return EXIT_OK;
}
