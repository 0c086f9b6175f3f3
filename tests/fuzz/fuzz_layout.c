// The layout loader and compiler over fuzzed Lua source: irs_layout_create()
// against debug info for toyc's IR and the kitchen IR (harness.h); when the
// layout compiles, everything a front end asks of it (describe, boundaries,
// verifiers) and a walk of real IR built in this process (a toyc module
// parsed by toyc, the kitchen IR), text and JSON, plus its Lua verifiers.
// Budgets are lowered so a runaway layout costs milliseconds.
// Oracles: no crash, hang or leak; a rejected layout is one error that
// names the file ("fuzz.lua..."); a walk's JSON is a valid snapshot.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "harness.h"
#include "tools/tools.h"
#include "toyc.h"
#include "toyc_fake.h"

static struct {
	struct fake_target ft;
	Module *m;
	KRoot *k;
} g;


void
fz_target_init(void)
{
	irs_lua_default_budgets(16 << 20, 1000000);
	fake_target_init(&g.ft);
	toyc_fake_register(&g.ft);
	fz_kitchen_register(&g.ft);
	size_t len;
	char *text = fz_read(fz_source_path("tests/toyc/cases/pass-cse.ir"),
			     &len);
	g.m = toyc_parse("pass-cse.ir", text, len, stderr);
	free(text);
	if (!g.m)
		fz_fail("toyc cannot parse pass-cse.ir");
	g.k = fz_kitchen_build(0);
}

static void
walk(const struct irs_layout *lo, uint64_t root, const char *type)
{
	struct irs_limits limits;
	fz_limits(&limits);
	limits.max_nodes = 2000;
	limits.max_bytes = 1 << 20;
	struct fz_walk w;
	struct irs_error *err = fz_walk(lo, fake_memory(&g.ft), root, type,
					&limits, &w);
	if (!err)
		fz_check_snapshot_json(w.json, w.jlen);
	irs_error_destroy(err);
	fz_walk_deinit(&w);

	char *problems = NULL;
	uint32_t count;
	err = irs_layout_verify(lo, fake_memory(&g.ft), root, type,
				&problems, &count);
	irs_error_destroy(err);
	irs_free(problems);
}

static void
ask(const struct irs_layout *lo)
{
	char *desc = NULL;
	struct irs_error *err = irs_layout_describe(lo, &desc);
	irs_error_destroy(err);
	irs_free(desc);
	if (!irs_layout_name(lo) || !irs_layout_root_type(lo))
		fz_fail("a layout without a name or root type");
	for (uint32_t i = 0; i < irs_layout_ntypes(lo); i++)
		if (!irs_layout_type_name(lo, i))
			fz_fail("type %u has no name", i);
	for (uint32_t i = 0; i < irs_layout_nboundaries(lo); i++) {
		struct irs_boundary_info b;
		if ((err = irs_layout_boundary(lo, i, &b)))
			fz_fail("boundary %u: %s", i, err->message);
		if (!b.function || !b.ir_expr)
			fz_fail("boundary %u lacks a function or ir", i);
		if (b.nir < 1 || b.nir > IRS_BOUNDARY_MAX_IR ||
		    b.ir_exprs[0] != b.ir_expr)
			fz_fail("boundary %u: %u ir names", i, b.nir);
		for (uint32_t k = 0; k < b.nir; k++)
			if (!b.ir_exprs[k])
				fz_fail("boundary %u: ir name %u is NULL", i,
					k);
	}
	for (uint32_t i = 0; i < irs_layout_nverifiers(lo); i++) {
		struct irs_verifier_info v;
		if ((err = irs_layout_verifier(lo, i, &v)))
			fz_fail("verifier %u: %s", i, err->message);
		if (!v.name)
			fz_fail("verifier %u has no name", i);
	}
	(void)irs_layout_rerun(lo);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irs_layout *lo;
	struct irs_error *err = irs_layout_create((const char *)data, size,
						  "fuzz.lua", &g.ft.target,
						  &lo);
	if (getenv("IRSNAP_FUZZ_VERBOSE"))	// when replaying seeds by hand
		fprintf(stderr, "fuzz.lua: %s\n", err ? err->message
			: "compiles");
	if (err) {
		if (err->code != IRS_ERROR_NOMEM &&
		    strncmp(err->message, "fuzz.lua", 8))
			fz_fail("the error does not name the layout file: %s",
				err->message);
		irs_error_destroy(err);
		return 0;
	}
	ask(lo);
	if (irs_layout_find_type(lo, "Module"))
		walk(lo, (uintptr_t)g.m, "Module");
	if (irs_layout_find_type(lo, "KRoot"))
		walk(lo, (uintptr_t)g.k, "KRoot");
	else if (!irs_layout_find_type(lo, "Module"))
		walk(lo, (uintptr_t)g.k, NULL);
	irs_layout_destroy(lo);
	return 0;
}
