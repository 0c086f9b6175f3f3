/*
 * glue.h — state shared by the files of the LLDB plugin (lldb/, the .cpp
 * files).
 *
 * The plugin is a thin adapter: target.cpp answers the core's questions
 * (struct irs_target) through the SB API, irsnap_lldb.cpp registers the
 * ir-* commands and forwards them and the debuggee's events to the shared
 * console (common/console*.c), and breaks.cpp keeps LLDB's breakpoints in
 * step with irs_console_break_function(). Nothing here throws: every SB call
 * reports failure through its return value or an SBError.
 */
#ifndef IRSNAP_LLDB_GLUE_H
#define IRSNAP_LLDB_GLUE_H

#include <signal.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <lldb/API/LLDB.h>

#include "irsnap.h"

namespace irsnap_lldb {

/** The breakpoints of one boundary function. */
struct fn_breaks {
	std::string function;
	lldb::SBTarget target;
	lldb::SBBreakpoint entry;
	std::vector<lldb::SBBreakpoint> exits;	/* on its return instructions */
	bool exits_resolved = false;
	bool warned = false;	/* said that it has no return instruction */
};

/** A boundary call entered and not returned yet. */
struct open_call {
	// Frame 0's CFA: the same at the entry and at the return.
	lldb::addr_t cfa = LLDB_INVALID_ADDRESS;
	std::string function;
	// The integer and pointer arguments at entry: at a return
	// instruction optimized code has often lost them, and LLDB 14 cannot
	// always evaluate DW_OP_entry_value as GDB does.
	std::map<std::string, uint64_t> args;
};

/** One plugin, one debugger: the whole adapter state. */
struct glue {
	lldb::SBDebugger dbg;
	struct irs_target t = {};
	struct irs_console *con = nullptr;
	// The console is not thread-safe, and in LLDB's asynchronous mode a
	// user's command runs on the main thread while breakpoint callbacks
	// run on the private state thread. Commands wait for the lock; a
	// callback that finds it taken skips its event (see breaks.cpp).
	std::recursive_mutex lock;
	std::string exe, core;	/* t.exe_path and t.core_path point here */
	std::string args;	/* debuggee arguments the console has */

	// While a breakpoint callback runs, the thread that hit it and the
	// frame the core selected; LLDB's selection is left alone then.
	bool in_callback = false;
	lldb::SBThread cb_thread;
	uint32_t cb_frame = 0;

	std::map<std::string, std::unique_ptr<fn_breaks>> breaks;
	std::vector<open_call> open;	/* innermost last */
	open_call returning;	/* the call stopped at its return, if any */
	lldb::SBBreakpoint exit_bp;	/* on _exit, while anything is traced */
	lldb::SBTarget exit_bp_target;
	bool want_exit_bp = false;	/* set at the first boundary hit */
	std::vector<lldb::SBTarget> hooked;	/* targets with our stop hook */

	// The process the console's events are about (its
	// SBProcess::GetUniqueID(), 0 for none), and whether its end was
	// reported: each process ends exactly once for the console.
	uint32_t proc_uid = 0;
	bool proc_end_reported = false;
	uint32_t reported_signal_stop = 0;	/* SBProcess::GetStopID() */
	std::string signal_core;	/* core whose signal was reported */
	bool batch = false;	/* lldb -b */
};

/** Held while the console works, which writes snapshots and manifests: a
 *  file size limit (`ulimit -f`) then makes a write fail with EFBIG, which
 *  irsnap reports, instead of killing LLDB with SIGXFSZ (GDB ignores the
 *  signal; LLDB does not). The disposition is restored afterwards, so what
 *  LLDB starts (lldb-server, the debuggee) is left as it was. */
struct xfsz_scope {
	struct sigaction saved;
	xfsz_scope()
	{
		struct sigaction ign = {};
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		sigaction(SIGXFSZ, &ign, &saved);
	}
	~xfsz_scope() { sigaction(SIGXFSZ, &saved, nullptr); }
	xfsz_scope(const xfsz_scope &) = delete;
	xfsz_scope &operator=(const xfsz_scope &) = delete;
};

/** The single instance, created by PluginInitialize and never freed (LLDB
 *  may still call back into it while the process exits). */
extern glue *g;

/* ---- target.cpp: struct irs_target through the SB API ------------------ */

/** Fills g->t's callbacks; called once. */
void target_init(glue *gl);
/** Refreshes g->t.pid, core_path and exe_path from the selected target;
 *  @p live_pid overrides the pid (inside a breakpoint callback the public
 *  process state still says "running"). */
void target_refresh(glue *gl, int64_t live_pid = 0);
/** The thread the core talks about: the callback's, else the selected one. */
lldb::SBThread target_thread(glue *gl);
/** Whether @p process is a core file's. */
bool target_is_core(lldb::SBProcess process);
/** The core file LLDB has open for @p process, or "" (see core_path.cpp). */
std::string core_file_path(lldb::SBProcess process);
/** Records the integer and pointer arguments of @p frame into @p ret. */
void target_save_args(lldb::SBFrame frame,
		      std::map<std::string, uint64_t> &ret);
/** One line of @p msg: the first line, without LLDB's "error: " prefix. */
std::string one_line(const char *msg);

/* ---- breaks.cpp: breakpoints on the boundaries ------------------------- */

/** Makes LLDB's breakpoints match irs_console_break_function() on the
 *  selected target; adds the stop hook once per target. */
void breaks_sync(glue *gl);
/** Creates the breakpoints on @p fb's return instructions, if not yet. */
void breaks_resolve_exits(glue *gl, fn_breaks *fb);

/* ---- irsnap_lldb.cpp: events -------------------------------------------- */

/** Prints @p text (console output) on the debugger's output stream. */
void print_out(glue *gl, const char *text);
/** Prints "irsnap: MSG" on the debugger's error stream and frees @p err. */
void print_error(glue *gl, struct irs_error *err);
/** Prints what a console event call gave back, and frees both; either may
 *  be NULL. */
void print_event(glue *gl, struct irs_error *err, char *out);
/** Follows the debuggee: a process that exited, or that another replaced
 *  (`run` again kills the old one), is reported to the console as exited,
 *  once. Called before anything else talks to the console. */
void track_process(glue *gl, lldb::SBProcess process);
/** Reports the end of the current process with @p status. */
void report_exited(glue *gl, int32_t status);

}  // namespace irsnap_lldb

#endif
