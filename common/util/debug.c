// IRSNAP_DEBUG letters switch on debug dumps (STYLE.md, convention 8).
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

bool
irs_debug(char c)
{
	const char *v = getenv("IRSNAP_DEBUG");
	return v && strchr(v, c);
}
