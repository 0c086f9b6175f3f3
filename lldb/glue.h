/*
 * glue.h — state shared by the files of the LLDB plugin (lldb/, the .cpp
 * files).
 *
 * The plugin is a thin adapter: target.cpp hands the core LLDB's raw facts
 * (struct irs_target: types and members, values, frames, instructions,
 * memory) through the SB API, breaks.cpp sets the breakpoints the core
 * asks for and reports their hits, irsnap_lldb.cpp registers the ir-*
 * commands and forwards them and the debuggee's stops and exits to the
 * shared console (common/console/). What those facts become (paths,
 * bitfields, pairing by CFA, fatal signals, error texts) is the core's.
 * Nothing here throws into LLDB: every SB string may be NULL (str()), and
 * every callback LLDB or the core calls catches whatever C++ throws.
 */
#ifndef IRSNAP_LLDB_GLUE_H
#define IRSNAP_LLDB_GLUE_H

#include <signal.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <lldb/API/LLDB.h>

#include "irsnap.h"

namespace irsnap_lldb {

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

	// While a breakpoint callback runs, the thread that hit it and the
	// frame the core selected; LLDB's selection is left alone then.
	bool in_callback = false;
	lldb::SBThread cb_thread;
	uint32_t cb_frame = 0;
	// The arguments of that frame, listed once per callback: the core
	// asks for them one index at a time at every traced entry, and each
	// GetVariables() lists them all again (issue 26).
	lldb::SBValueList cb_args;
	bool cb_args_valid = false;

	std::vector<lldb::SBType> types;	/* type handle i + 1 */
	std::vector<lldb::SBAddress> insns;	/* the last disassembly */
	lldb::SBTarget break_target;	/* where the core's breakpoints are */
	std::map<uint32_t, lldb::break_id_t> breaks;	/* core id -> LLDB's */
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
	bool batch = false;	/* lldb -b */
	std::vector<std::string> donors;	/* type donors added: their
						   symbols are never used */
	// the donors' class types by the name LLDB prints (find_donor_type),
	// built when donor_types_of, the donors indexed, falls behind
	std::map<std::string, lldb::SBType> donor_types;
	size_t donor_types_of = 0;
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

/** An SB string, which may be NULL. */
inline std::string
str(const char *s)
{
	return s ? s : "";
}

/** A string the library allocated (may be NULL), freed. */
inline std::string
taken(char *s)
{
	std::string r = s ? s : "";
	irs_free(s);
	return r;
}

/** Runs @p f, turning anything it throws into an irs_error: nothing may
 *  unwind into the core or LLDB. */
template <typename F>
struct irs_error *
guard(F f) noexcept
{
	try {
		return f();
	} catch (const std::exception &e) {
		return irs_error_format(IRS_ERROR_TARGET, "irsnap: %s",
					e.what());
	} catch (...) {
		return irs_error_create(IRS_ERROR_TARGET,
					"irsnap: an unknown C++ exception");
	}
}

/* ---- target.cpp: struct irs_target through the SB API ------------------ */

/** Fills g->t's callbacks; called once. */
void target_init(glue *gl);
/** Refreshes g->t.pid, core_path and exe_path from the selected target;
 *  @p live_pid overrides the pid (inside a breakpoint callback the public
 *  process state still says "running"). */
void target_refresh(glue *gl, int64_t live_pid = 0);
/** Whether @p process is a core file's. */
bool target_is_core(lldb::SBProcess process);
/** One line of @p msg: the first line, without LLDB's "error: " prefix. */
std::string one_line(const char *msg);

/* ---- breaks.cpp: the core's breakpoints -------------------------------- */

/** Fills g->t's breakpoint callbacks; called once. */
void breaks_init(glue *gl);
/** Tells the core which of its breakpoints the user deleted. */
void breaks_check_deleted(glue *gl);
/** Before a command: the core's breakpoints follow the selected target. */
void breaks_follow_target(glue *gl);
/** After a command: the stop hook, and the breakpoint on _exit. */
void breaks_sync(glue *gl);

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
