/*
 * prelude.h — the Lua prelude modules a layout may `require` (the .lua
 * files of common/prelude/irsnap), embedded in the library at build time
 * by mk/prelude.mk, so that an installed libirsnap needs no data path.
 * $IRSNAP_PRELUDE=DIR loads them from DIR/irsnap/ instead (layout_lua.c),
 * for working on the prelude without rebuilding.
 */
#ifndef IRSNAP_PRELUDE_H
#define IRSNAP_PRELUDE_H

#include <stddef.h>

/** One prelude module's source text. */
struct irs_prelude_file {
	const char *name;		/* "irsnap/list.lua" */
	const unsigned char *text;	/* the file's bytes, NUL after them */
	size_t len;			/* without that NUL */
};
/** The embedded modules, ending with a { NULL } entry. */
extern const struct irs_prelude_file irs_prelude_files[];

#endif
