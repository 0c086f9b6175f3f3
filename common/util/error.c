// Errors: one struct, one way to fail. See irsnap.h, "Errors".
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct irs_error irs_enomem = {
	.code = IRS_ERROR_NOMEM,
	.is_static = true,
	.message = "out of memory",
};

static struct irs_error *
error_vformat(enum irs_error_code code, uint64_t address, const char *fmt,
	      va_list ap)
{
	struct irs_error *err = malloc(sizeof(*err));
	if (!err)
		return &irs_enomem;
	char *raw;
	if (vasprintf(&raw, fmt, ap) < 0) {
		free(err);
		return &irs_enomem;
	}
	// Messages quote pass names, paths and layout strings, any of which
	// may come from a hostile file: made one printable line here, once,
	// for every front end (GDB, LLDB, the CLI) that prints them.
	err->message = irs_printable(raw, false);
	free(raw);
	if (!err->message) {
		free(err);
		return &irs_enomem;
	}
	err->code = code;
	err->is_static = false;
	err->address = address;
	return err;
}

struct irs_error *
irs_error_format(enum irs_error_code code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct irs_error *err = error_vformat(code, 0, fmt, ap);
	va_end(ap);
	return err;
}

struct irs_error *
irs_error_fault(uint64_t address, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct irs_error *err = error_vformat(IRS_ERROR_FAULT, address, fmt, ap);
	va_end(ap);
	return err;
}

struct irs_error *
irs_error_create(enum irs_error_code code, const char *message)
{
	return irs_error_format(code, "%s", message ? message : "(no message)");
}

struct irs_error *
irs_error_create_fault(uint64_t address, const char *message)
{
	return irs_error_fault(address, "%s",
			       message ? message : "(no message)");
}

void
irs_error_destroy(struct irs_error *err)
{
	if (!err || err->is_static)
		return;
	free(err->message);
	free(err);
}

int
irs_error_get_code(const struct irs_error *err)
{
	return err ? (int)err->code : 0;
}

const char *
irs_error_get_message(const struct irs_error *err)
{
	return err ? err->message : "";
}

struct irs_error *
irs_error_prefix(struct irs_error *err, const char *prefix)
{
	char *msg;

	if (!err || err->is_static || !prefix)
		return err;
	char *shown = irs_printable(prefix, false);
	int n = shown ? asprintf(&msg, "%s: %s", shown, err->message) : -1;
	free(shown);
	if (n < 0)
		return err;	// keep the unprefixed message rather than lose it
	free(err->message);
	err->message = msg;
	return err;
}

void
irs_free(void *p)
{
	free(p);
}
