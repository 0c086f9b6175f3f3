// irsnap's LLDB plugin: `plugin load build/libirsnap-lldb.so`.
//
// Every ir-* command is the shared console's (irs_console_command); this
// file registers them, forwards their arguments and prints the answer, and
// reports the debuggee's events: boundary calls through breakpoint
// callbacks (breaks.cpp), fatal signals through a stop hook running
// `ir-report --at-stop`, and exits through a breakpoint on _exit or,
// failing that, the next command (track_process).
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

#include "glue.h"

namespace irsnap_lldb {

glue *g;

void
print_out(glue *gl, const char *text)
{
	FILE *fp = gl->dbg.GetOutputFileHandle();
	if (!fp)
		fp = stdout;
	fputs(text, fp);
	if (*text && text[strlen(text) - 1] != '\n')
		fputc('\n', fp);
	fflush(fp);
}

void
print_error(glue *gl, struct irs_error *err)
{
	FILE *fp = gl->dbg.GetErrorFileHandle();
	if (!fp)
		fp = stderr;
	std::string msg = one_line(irs_error_get_message(err));
	// The console's event errors already say who speaks.
	fprintf(fp, "%s%s\n", msg.compare(0, 8, "irsnap: ") ? "irsnap: " : "",
		msg.c_str());
	fflush(fp);
	irs_error_destroy(err);
}

void
print_event(glue *gl, struct irs_error *err, char *out)
{
	if (out && *out)
		print_out(gl, out);
	irs_free(out);
	if (err)
		print_error(gl, err);
}

void
report_exited(glue *gl, int32_t status)
{
	char *out = NULL;

	if (gl->proc_end_reported)
		return;
	gl->proc_end_reported = true;
	struct irs_error *err = irs_console_exited(gl->con, status, &out);
	print_event(gl, err, out);
}

void
track_process(glue *gl, lldb::SBProcess process)
{
	uint32_t uid = process.IsValid() ? process.GetUniqueID() : 0;

	if (uid != gl->proc_uid) {
		// Gone without our seeing it end (killed by `run` or `kill`):
		// its status is unknown.
		if (gl->proc_uid)
			report_exited(gl, -1);
		gl->proc_uid = uid;
		gl->proc_end_reported = !uid;
	}
	if (uid && process.GetState() == lldb::eStateExited)
		report_exited(gl, process.GetExitStatus());
}

/* ==== Commands ========================================================== */

static bool report_at_stop(glue *gl, lldb::SBCommandReturnObject &result);

class console_command : public lldb::SBCommandPluginInterface {
public:
	explicit console_command(const char *name) : name_(name) {}
	bool DoExecute(lldb::SBDebugger, char **argv,
		       lldb::SBCommandReturnObject &result) override;

private:
	std::string name_;
};

bool
console_command::DoExecute(lldb::SBDebugger, char **argv,
			   lldb::SBCommandReturnObject &result)
{
	glue *gl = g;
	if (name_ == "ir-report" && argv && argv[0] &&
	    !strcmp(argv[0], "--at-stop") && !argv[1])
		return report_at_stop(gl, result);
	std::lock_guard<std::recursive_mutex> hold(gl->lock);
	xfsz_scope writes;
	char *out = NULL;
	struct irs_error *err = guard([&]() -> struct irs_error * {
		track_process(gl, gl->dbg.GetSelectedTarget().GetProcess());
		target_refresh(gl);
		breaks_follow_target(gl);
		breaks_check_deleted(gl);
		// LLDB has already removed the user's quotes.
		std::string args = taken(irs_frontend_join_words(argv));
		struct irs_error *e = irs_console_command(gl->con,
							  name_.c_str(),
							  args.c_str(), &out);
		breaks_sync(gl);
		return e;
	});
	if (out && *out) {
		size_t len = strlen(out);
		result.Printf("%s%s", out, out[len - 1] == '\n' ? "" : "\n");
	}
	irs_free(out);
	if (err) {
		result.SetError(one_line(irs_error_get_message(err)).c_str());
		irs_error_destroy(err);
		return false;
	}
	result.SetStatus(lldb::eReturnStatusSuccessFinishResult);
	return true;
}

// The thread stopped by a signal: the selected one, else any.
static lldb::SBThread
signal_thread(lldb::SBProcess p)
{
	lldb::SBThread th = p.GetSelectedThread();
	if (th.GetStopReason() == lldb::eStopReasonSignal)
		return th;
	for (uint32_t i = 0; i < p.GetNumThreads(); i++) {
		th = p.GetThreadAtIndex(i);
		if (th.GetStopReason() == lldb::eStopReasonSignal) {
			p.SetSelectedThread(th);
			return th;
		}
	}
	return lldb::SBThread();
}

// In `lldb -b`, LLDB's exit status is what `quit N` last said. Run from a
// stop hook, `quit` records the status without quitting: the -k commands
// still run, then LLDB exits with it.
static void
set_batch_exit_status(glue *gl, int status)
{
	char cmd[32];
	lldb::SBCommandReturnObject res;

	if (!gl->batch)
		return;
	snprintf(cmd, sizeof(cmd), "quit %d", status);
	gl->dbg.GetCommandInterpreter().HandleCommand(cmd, res);
}

// `ir-report --at-stop`, which the stop hook runs at every stop of the
// debuggee: the failure report of a fatal signal while irsnap watches,
// else nothing. An option of a command the user knows, rather than a
// command of its own that `help` would list.
static bool
report_at_stop(glue *gl, lldb::SBCommandReturnObject &result)
{
	std::lock_guard<std::recursive_mutex> hold(gl->lock);
	xfsz_scope writes;
	char *out = NULL;
	bool fatal = false;
	int signo = 0;

	result.SetStatus(lldb::eReturnStatusSuccessFinishNoResult);
	struct irs_error *err = guard([&]() -> struct irs_error * {
		lldb::SBProcess p = gl->dbg.GetSelectedTarget().GetProcess();
		track_process(gl, p);
		breaks_check_deleted(gl);
		std::string note = taken(irs_console_note(gl->con));
		if (!note.empty())
			result.Printf("%s", note.c_str());
		lldb::StateType st = p.GetState();
		if ((st != lldb::eStateStopped && st != lldb::eStateCrashed) ||
		    p.GetStopID() == gl->reported_signal_stop ||
		    target_is_core(p))	// a core's signal is history
			return NULL;
		lldb::SBThread th = signal_thread(p);
		if (!th.IsValid())
			return NULL;
		gl->reported_signal_stop = p.GetStopID();
		target_refresh(gl);
		signo = (int)th.GetStopReasonDataAtIndex(0);
		return irs_console_stop(gl->con, signo, p.GetUnixSignals()
					.GetSignalAsCString(signo), &fatal,
					&out);
	});
	if (out && *out)
		result.Printf("%s", out);
	irs_free(out);
	if (err) {
		result.Printf("irsnap: %s\n",
			      one_line(irs_error_get_message(err)).c_str());
		irs_error_destroy(err);
	}
	// 128 + signo when irsnap was watching (the core's rule, as GDB's)
	if (fatal && irs_console_exit_status(gl->con) > 128)
		set_batch_exit_status(gl, irs_console_exit_status(gl->con));
	return true;
}

/* ==== Loading =========================================================== */

// `irsnap replay` under LLDB: the program and its arguments from the file
// $IRSNAP_LAUNCH_ARGV names, set through the SB API. Given after `--` on
// LLDB's command line, they would become command lines of LLDB's own (a
// line break in an argument starts another command; backquotes are
// evaluated), so they never pass through LLDB's interpreter.
static void
launch_target(glue *gl)
{
	char **argv = NULL;
	struct irs_error *err = irs_frontend_launch_argv(&argv);
	if (err || !argv) {
		if (err)
			print_error(gl, err);
		return;
	}
	err = guard([&]() -> struct irs_error * {
		lldb::SBError e;
		lldb::SBTarget t = gl->dbg.CreateTarget(argv[0], nullptr,
							nullptr, true, e);
		if (!t.IsValid())
			return irs_error_format(IRS_ERROR_TARGET, "cannot make "
						"a target of %s: %s", argv[0],
						str(e.GetCString()).c_str());
		gl->dbg.SetSelectedTarget(t);
		lldb::SBLaunchInfo li = t.GetLaunchInfo();
		li.SetArguments(const_cast<const char **>(argv + 1), false);
		t.SetLaunchInfo(li);
		return NULL;
	});
	irs_frontend_words_free(argv);
	if (err)
		print_error(gl, err);
}

static void
add_commands(glue *gl)
{
	lldb::SBCommandInterpreter ci = gl->dbg.GetCommandInterpreter();

	for (const char *const *n = irs_console_commands(); n && *n; n++) {
		char *brief = irs_console_help_part(*n, "brief");
		char *usage = irs_console_help_part(*n, "usage");
		char *rest = irs_console_help_part(*n, "long");
		// LLDB owns the interface objects for the debugger's lifetime.
		lldb::SBCommand cmd = ci.AddCommand(*n, new console_command(*n),
						    brief, usage, "");
		if (cmd.IsValid())
			cmd.SetHelpLong(rest);
		irs_free(brief);
		irs_free(usage);
		irs_free(rest);
	}
}

// At the exit of `lldb -b`: a failing -k command (ir-status --check
// after a crash) would make it 1; the crash's 128 + N stands, as under
// GDB (gdb/irsnap.py does the same at GDB's exit).
static void
at_exit(void)
{
	int32_t status = irs_console_batch_exit(g ? g->con : NULL, -1);
	if (status)
		_exit(status);	// stdio flushed
}

}  // namespace irsnap_lldb

namespace lldb {
// LLDB looks this up by its C++ name; extern "C" is refused.
bool PluginInitialize(lldb::SBDebugger debugger);
}

bool
lldb::PluginInitialize(lldb::SBDebugger debugger)
{
	using namespace irsnap_lldb;

	if (g)
		return true;	// loaded twice: the first load serves
	glue *gl = new glue;
	gl->dbg = debugger;
	gl->batch = irs_frontend_batch_mode("-b --batch");
	target_init(gl);
	breaks_init(gl);
	target_refresh(gl);
	struct irs_error *err = irs_console_create(&gl->t, &gl->con);
	if (err) {
		print_error(gl, err);
		delete gl;
		return false;
	}
	char version[64];
	irs_frontend_debugger_version("lldb", lldb::SBDebugger::
				      GetVersionString(), version,
				      sizeof(version));
	err = irs_console_set(gl->con, "debugger", version);
	if (err)
		print_error(gl, err);
	g = gl;
	add_commands(gl);
	launch_target(gl);
	if (gl->batch)
		atexit(at_exit);
	return true;
}
