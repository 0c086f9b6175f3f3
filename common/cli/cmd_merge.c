// irsnap merge [-o OUT] [--reduce auto|CMD] DIR...
// Exit status: 0 no failure found, 1 a failure found, 2 usage or input.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char merge_usage[] =
	"usage: irsnap merge [-o OUT] [--reduce auto|CMD] DIR...\n";

static const char merge_help[] =
	"Merges the replay directories of a hunt split into shards (irsnap "
	"replay\n--shard K/N, one per machine or scheduler task): every "
	"failure of every shard\nbucketed by signature, with counts per "
	"shard and the first seen, into one\nOUT/replay.json (irsnap.hunt/1; "
	"default OUT: $IRSNAP_DIR/hunt-<time>). A DIR\nis a replay directory "
	"or one holding replay-* directories (the hunt's shared\n--dir). A "
	"shard that cannot be merged (killed before it wrote replay.json, "
	"an\nolder irsnap's, another hunt's, a shard number given twice) is "
	"one line on\nstderr and in the document's problems; the rest is "
	"merged.\n"
	"  -o OUT         the hunt directory to write\n"
	"  --reduce auto  reduce each signature's first failure with "
	"`irsnap reduce RUN`\n"
	"  --reduce CMD   ... with `irsnap reduce RUN --crash CMD`\n"
	"Exit status: 0 no failure, 1 a failure found, 2 usage or input "
	"error.\n"
	"example: irsnap merge -o hunt hunt-shards/   (then: irsnap report "
	"hunt -o hunt.html)\n";

int
cmd_merge(int argc, char **argv)
{
	struct irs_merge_config cfg = {.progress = true};
	struct irs_merge_result res = {0};
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	if (!dirs)
		return cli_fail(&irs_enomem);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("%s%s", merge_usage, merge_help);
			free(dirs);
			return EXIT_OK;
		}
		bool missing = false;
		const char *o = cli_opt_value(argc, argv, &i, "-o", &missing);
		if (!o && !missing)
			o = cli_opt_value(argc, argv, &i, "--output", &missing);
		const char *r = o || missing ? NULL
				: cli_opt_value(argc, argv, &i, "--reduce",
						&missing);
		if (o) {
			cfg.output = o;
		} else if (r) {
			cfg.reduce = r;
		} else if (missing || (a[0] == '-' && a[1])) {
			fprintf(stderr, "irsnap merge: %s '%s'\n%s",
				missing ? "a value is needed after"
				: "unknown option", a, merge_usage);
			free(dirs);
			return EXIT_USAGE;
		} else {
			dirs[cfg.ndirs++] = a;
		}
	}
	if (!cfg.ndirs) {
		fprintf(stderr, "irsnap merge: no directory given\n%s",
			merge_usage);
		free(dirs);
		return EXIT_USAGE;
	}
	cfg.dirs = dirs;
	struct irs_error *err = irs_merge_run(&cfg, &res);
	free(dirs);
	return cli_hunt_end(err, res.summary, res.dir, res.failures);
}
