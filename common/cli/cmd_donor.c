// irsnap donor LAYOUT [--cxx CXX] [-I DIR]...: builds a layout's type donor.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
	"usage: irsnap donor LAYOUT [--cxx CXX] [-I DIR]...\n"
	"Compiles the type donor LAYOUT declares (donor { source = ... }, a\n"
	"C++ file beside it) with -g against the compiler's installed\n"
	"headers, into irsnap's donor cache ($IRSNAP_CACHE, else\n"
	"$XDG_CACHE_HOME/irsnap, else ~/.cache/irsnap), where\n"
	"`ir-layout load LAYOUT` finds it. Run it\n"
	"again when the headers change: ir-layout load says so.\n"
	"  --cxx CXX   the C++ compiler (default $CXX, else c++)\n"
	"  -I DIR      another include directory (LLVM's private headers)\n"
	"Example: irsnap donor /usr/local/share/irsnap/layouts/llvm14.lua \\\n"
	"             -I build/real/llvm-14-headers/lib/IR\n";

int
cmd_donor(int argc, char **argv)
{
	const char *layout = NULL, *cxx = NULL;
	const char **inc = calloc((size_t)argc + 1, sizeof(*inc));
	size_t ninc = 0;

	if (!inc)
		return cli_fail(&irs_enomem);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(help, stdout);
			free(inc);
			return EXIT_OK;
		} else if (!strcmp(a, "--cxx") && i + 1 < argc) {
			cxx = argv[++i];
		} else if (!strncmp(a, "--cxx=", 6)) {
			cxx = a + 6;
		} else if (!strcmp(a, "-I") && i + 1 < argc) {
			inc[ninc++] = argv[++i];
		} else if (!strncmp(a, "-I", 2) && a[2]) {
			inc[ninc++] = a + 2;
		} else if (a[0] == '-' || layout) {
			free(inc);
			return cli_usage_error("donor", "unexpected '%s'", a,
				"\nusage: irsnap donor LAYOUT [--cxx CXX] "
				"[-I DIR]...\n");
		} else {
			layout = a;
		}
	}
	if (!layout) {
		free(inc);
		fputs("usage: irsnap donor LAYOUT [--cxx CXX] [-I DIR]...\n",
		      stderr);
		return EXIT_USAGE;
	}
	char *obj = NULL;
	double secs = 0;
	struct irs_error *err = irs_donor_build(layout, cxx, inc, ninc, &obj,
						&secs);
	free(inc);
	if (err)
		return cli_fail(err);
	printf("irsnap donor: built %s in %.1f s\n", cli_shown(obj), secs);
	free(obj);
	return EXIT_OK;
}
