// Passes on several threads (issue 29 item 2). A pass manager that runs a
// pass on its units in parallel (MLIR's, on a thread pool) stops on
// worker threads, and several calls of the boundary are open at once:
// the stack of open calls pairs each return with the innermost entry,
// so a snapshot may be taken of another thread's unit, and the order of
// the passes is the threads' interleaving. irsnap says so, once per
// process, in one line naming the remedy, rather than leave a trace
// quietly mixed up.
#include <inttypes.h>

#include "console/console.h"

void
console_threads_check(struct irs_console *c, struct console_event *ev,
		      struct irs_buf *out)
{
	const struct irs_target *t = c->t;
	uint64_t tid = ev->tid;	// the entry stop's, when it asked
	if (!tid && !t->thread)
		return;
	struct irs_error *err = tid ? NULL : t->thread(t->arg, &tid);
	if (err || !tid) {
		irs_error_destroy(err);
		return;
	}
	ev->tid = tid;
	if (c->threads_said)
		return;
	// the main thread's id is the process's (Linux)
	if (t->pid > 0 && tid != (uint64_t)t->pid) {
		irs_buf_printf(out, "irsnap: pass '%s' runs on thread %" PRIu64
			       ", not the main thread (%" PRId64 "): the "
			       "pipeline runs passes on several threads, and "
			       "snapshots may pair with the wrong pass; run it "
			       "on one (MLIR: --mlir-disable-threading)\n",
			       ev->pass, tid, t->pid);
		c->threads_said = true;
		return;
	}
	// ev is the innermost open call; the others are still running
	for (size_t i = 0; i + 1 < c->nevents; i++) {
		const struct console_event *o = &c->events[i];
		if (o->tid && o->tid != tid && o->pass && *o->pass) {
			irs_buf_printf(out, "irsnap: pass '%s' began on "
				       "thread %" PRIu64 " while pass '%s' "
				       "runs on thread %" PRIu64 ": the "
				       "pipeline runs passes on several "
				       "threads, and snapshots may pair "
				       "with the wrong pass; run it on one "
				       "(MLIR: --mlir-disable-threading)\n",
				       ev->pass, tid, o->pass, o->tid);
			c->threads_said = true;
			return;
		}
	}
}
