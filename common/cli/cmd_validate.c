// irsnap validate [--json] PATH: a run directory, or one file, against its
// schema.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char validate_help[] =
	"usage: irsnap validate [--json] PATH\n"
	"Checks a run directory (manifest.json, failure.json, every snapshot "
	"they name)\nor one JSON file (schema from its \"schema\" member) "
	"against irsnap's schemas.\n"
	"  --json   one irsnap.validate/1 document on stdout: each problem's "
	"file,\n           JSON path and message (docs/formats.md)\n"
	"Exit status: 0 valid, 1 invalid, 2 unreadable.\n"
	"Example: irsnap validate irsnap-out/latest\n";

// One problem line, "FILE: $.a.b: message" (or "FILE: message"), as an
// object {file, where, message}; a line of another shape ("... 3 more
// problems") is its message alone.
static json_t *
problem_json(const char *line, size_t len)
{
	const char *sep = NULL;
	for (size_t i = 0; i + 1 < len; i++)
		if (line[i] == ':' && line[i + 1] == ' ') {
			sep = line + i;
			break;
		}
	if (!sep)
		return json_pack("{s:n, s:n, s:o}", "file", "where", "message",
				 json_stringn_nocheck(line, len));
	const char *rest = sep + 2, *end = line + len;
	const char *where_end = NULL;
	if (*rest == '$')
		for (const char *p = rest; p + 1 < end; p++)
			if (p[0] == ':' && p[1] == ' ') {
				where_end = p;
				break;
			}
	const char *msg = where_end ? where_end + 2 : rest;
	return json_pack("{s:o, s:o, s:o}",
			 "file", json_stringn_nocheck(line,
						      (size_t)(sep - line)),
			 "where", where_end ? json_stringn_nocheck(rest,
				(size_t)(where_end - rest)) : json_null(),
			 "message", json_stringn_nocheck(msg,
							 (size_t)(end - msg)));
}

static int
print_json(const char *path, const char *out, uint32_t nproblems,
	   uint32_t nfiles)
{
	json_t *problems = json_array();
	for (const char *p = out; problems && p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len)
			json_array_append_new(problems, problem_json(p, len));
		p = nl ? nl + 1 : NULL;
	}
	json_t *doc = json_pack("{s:s, s:s, s:b, s:I, s:I, s:o}",
				"schema", "irsnap.validate/1", "path", path,
				"valid", nproblems == 0,
				"files", (json_int_t)nfiles,
				"problem_count", (json_int_t)nproblems,
				"problems", problems);
	char *text = doc ? json_dumps(doc, JSON_INDENT(2) |
				      JSON_PRESERVE_ORDER) : NULL;
	json_decref(doc);
	if (!text)
		return cli_fail(&irs_enomem);
	puts(text);
	free(text);
	return nproblems ? EXIT_BAD : EXIT_OK;
}

int
cmd_validate(int argc, char **argv)
{
	struct irs_buf out;
	uint32_t nproblems = 0, nfiles = 0;
	const char *path = NULL;
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(validate_help, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (argv[i][0] == '-' || path) {
			fputs("usage: irsnap validate [--json] PATH\n", stderr);
			return EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fputs("usage: irsnap validate [--json] PATH\n", stderr);
		return EXIT_USAGE;
	}
	irs_buf_init(&out);
	struct irs_error *err = irs_validate_path(path, &out, &nproblems,
						  &nfiles);
	if (err) {
		irs_buf_deinit(&out);
		return cli_fail(err);
	}
	if (json) {
		int rc = print_json(path, out.data ? out.data : "", nproblems,
				    nfiles);
		irs_buf_deinit(&out);
		return rc;
	}
	if (out.len)
		cli_print(stdout, out.data);	// quotes the files checked
	irs_buf_deinit(&out);
	if (nproblems) {
		printf("%s: invalid: %u problem%s in %u file%s checked\n",
		       cli_shown(path), nproblems, nproblems == 1 ? "" : "s",
		       nfiles, nfiles == 1 ? "" : "s");
		return EXIT_BAD;
	}
	printf("%s: valid (%u file%s checked)\n", cli_shown(path), nfiles,
	       nfiles == 1 ? "" : "s");
	return EXIT_OK;
}
