// Memory through the front end's read callback (GDB, LLDB): the slowest
// source, and the one that works wherever the debugger does (remote
// targets, core files it opened its own way).
#include <stdlib.h>

#include "mem/mem.h"

struct target_source {
	struct irs_mem_source base;
	const struct irs_target *t;
};

static bool
is_fatal(const struct irs_error *err)
{
	return err->code == IRS_ERROR_NOMEM ||
	       err->code == IRS_ERROR_INTERRUPTED;
}

// Makes @p err the fault of the source contract: at @p at, whatever the
// callback called it.
static struct irs_error *
as_fault(struct irs_error *err, uint64_t at)
{
	err->code = IRS_ERROR_FAULT;
	err->address = at;
	return err;
}

// Where in [address, address + count) @p err says reading stopped, or
// count when it does not say.
static uint64_t
fault_offset(const struct irs_error *err, uint64_t address, uint64_t count)
{
	if (err->code == IRS_ERROR_FAULT && err->address >= address &&
	    err->address - address < count)
		return err->address - address;
	return count;
}

// Reads [address, address + count) a page at a time, to find the first
// unreadable byte when the callback would not say where it is.
// *done gets the readable prefix.
static struct irs_error *
read_pages(const struct irs_target *t, uint64_t address, uint8_t *buf,
	   uint64_t count, uint64_t *done)
{
	uint64_t d = 0;

	while (d < count) {
		uint64_t at = address + d;
		uint64_t room = IRS_PAGE_SIZE - (at & (IRS_PAGE_SIZE - 1));
		uint64_t n = count - d < room ? count - d : room;
		struct irs_error *err = t->read(t->arg, at, buf + d, n);
		if (!err) {
			d += n;
			continue;
		}
		*done = d;
		if (is_fatal(err))
			return err;
		uint64_t k = fault_offset(err, at, n);
		// The callback leaves buf unspecified on failure: read the
		// bytes before the fault again.
		if (k > 0 && k < n) {
			struct irs_error *again = t->read(t->arg, at, buf + d,
							  k);
			if (!again)
				d += k;
			irs_error_destroy(again);
		}
		*done = d;
		return as_fault(err, address + d);
	}
	*done = d;
	return NULL;
}

static struct irs_error *
target_read(struct irs_mem_source *src, uint64_t address, void *buf,
	    uint64_t count, uint64_t *done)
{
	const struct irs_target *t = ((struct target_source *)src)->t;

	struct irs_error *err = t->read(t->arg, address, buf, count);
	if (!err) {
		*done = count;
		return NULL;
	}
	if (is_fatal(err))
		return err;
	uint64_t k = fault_offset(err, address, count);
	if (k == 0) {
		*done = 0;
		return as_fault(err, address);
	}
	if (k < count) {
		as_fault(err, address + k);
		// buf is unspecified after a failure: read the prefix again.
		struct irs_error *again = t->read(t->arg, address, buf, k);
		if (!again) {
			*done = k;
			return err;
		}
		irs_error_destroy(again);
	}
	// The callback did not say where (or contradicted itself): find out.
	struct irs_error *perr = read_pages(t, address, buf, k, done);
	if (perr || k == count) {
		irs_error_destroy(err);
		return perr;
	}
	return err;		// the fault at address + k
}

static void
target_destroy(struct irs_mem_source *src)
{
	free(src);
}

static const struct irs_mem_source_ops target_ops = {
	.read = target_read,
	.destroy = target_destroy,
};

struct irs_error *
irs_mem_target_source(const struct irs_target *t, struct irs_mem_source **ret)
{
	if (!t || !t->read)
		return irs_error_format(IRS_ERROR_USAGE, "cannot read the "
					"debuggee's memory: the target has no "
					"read callback");
	struct target_source *ts = calloc(1, sizeof(*ts));
	if (!ts)
		return &irs_enomem;
	ts->base.ops = &target_ops;
	ts->base.kind = "target";
	ts->t = t;
	*ret = &ts->base;
	return NULL;
}
