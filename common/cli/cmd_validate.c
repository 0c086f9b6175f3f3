// irsnap validate PATH: a run directory, or one file, against its schema.
#include <stdio.h>
#include <string.h>

#include "cli.h"

int
cmd_validate(int argc, char **argv)
{
	struct irs_buf out;
	uint32_t nproblems = 0, nfiles = 0;
	int rc;

	if (cli_one_operand(argc, argv, "usage: irsnap validate PATH\n"
			    "Checks a run directory (manifest.json, "
			    "events.jsonl, failure.json, every snapshot\nthey "
			    "name), or one JSON file (schema from its "
			    "\"schema\" member), or one\nevent log (*.jsonl, "
			    "each line an irsnap.event/1) against irsnap's "
			    "schemas.\nA last line of events.jsonl cut short "
			    "(a debugger killed as it wrote it) is\nnoted, "
			    "not counted: readers ignore it.\n"
			    "Exit status: 0 valid, 1 invalid, 2 unreadable.\n"
			    "Example: irsnap validate irsnap-out/latest\n",
			    "usage: irsnap validate PATH", &rc))
		return rc;
	irs_buf_init(&out);
	struct irs_error *err = irs_validate_path(argv[1], &out, &nproblems,
						  &nfiles);
	if (err) {
		irs_buf_deinit(&out);
		return cli_fail(err);
	}
	if (out.len)
		cli_print(stdout, out.data);	// quotes the files checked
	irs_buf_deinit(&out);
	if (nproblems) {
		printf("%s: invalid: %u problem%s in %u file%s checked\n",
		       cli_shown(argv[1]), nproblems, nproblems == 1 ? "" : "s", nfiles,
		       nfiles == 1 ? "" : "s");
		return EXIT_BAD;
	}
	printf("%s: valid (%u file%s checked)\n", cli_shown(argv[1]), nfiles,
	       nfiles == 1 ? "" : "s");
	return EXIT_OK;
}
