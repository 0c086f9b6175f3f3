// The named text formats a template may ask for ({name:llvm_name}): how a
// compiler quotes a name or a string, applied to what the field renders.
// The walk writes them (walk/fmt_text.c); here are their names.
#include <string.h>

#include "layout/layout.h"

static const char *const names[] = {
	[IRS_TF_LLVM_NAME] = "llvm_name",
	[IRS_TF_ESCAPED] = "escaped",
	[IRS_TF_QUOTED] = "quoted",
	[IRS_TF_MLIR_KEYWORD] = "mlir_keyword",
};

bool
irs_textfmt_find(const char *name, size_t n, enum irs_textfmt *ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], name, n)) {
			*ret = (enum irs_textfmt)i;
			return true;
		}
	return false;
}

const char *
irs_textfmt_name(enum irs_textfmt f)
{
	return (size_t)f < ARRAY_SIZE(names) ? names[f] : "?";
}
