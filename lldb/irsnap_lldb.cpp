// irsnap's LLDB plugin: `plugin load build/libirsnap-lldb.so`.
//
// Every ir-* command is the shared console's (irs_console_command); this
// file registers them, forwards their arguments and prints the answer, and
// reports the debuggee's events: boundary calls through breakpoint
// callbacks (breaks.cpp), fatal signals through a stop hook running the
// hidden command ir-__stop, and exits through a breakpoint on _exit or,
// failing that, the next command (track_process).
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

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

// Shell quoting the console's splitter undoes: LLDB has already removed
// the user's quotes, so a word with blanks or quotes is quoted again.
static std::string
quote_word(const char *w)
{
	if (*w && !strpbrk(w, " \t\n\r'\"\\"))
		return w;
	std::string q = "'";
	for (; *w; w++) {
		if (*w == '\'')
			q += "'\\''";
		else
			q += *w;
	}
	return q + "'";
}

static std::string
join_words(char **argv)
{
	std::string s;
	for (size_t i = 0; argv && argv[i]; i++) {
		if (i)
			s += ' ';
		s += quote_word(argv[i]);
	}
	return s;
}

// Tells the console the debuggee's arguments, for the manifest.
static void
refresh_args(glue *gl)
{
	lldb::SBLaunchInfo li = gl->dbg.GetSelectedTarget().GetLaunchInfo();
	std::string args;
	for (uint32_t i = 0; i < li.GetNumArguments(); i++) {
		if (i)
			args += ' ';
		args += quote_word(li.GetArgumentAtIndex(i));
	}
	if (args == gl->args)
		return;
	gl->args = args;
	struct irs_error *err = irs_console_set(gl->con, "args", args.c_str());
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
	gl->open.clear();
	gl->returning = open_call();
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
		gl->open.clear();
		gl->returning = open_call();
	}
	if (uid && process.GetState() == lldb::eStateExited)
		report_exited(gl, process.GetExitStatus());
}

// On a core file first seen: its signal is the one ir-report records.
static void
report_core_signal(glue *gl)
{
	if (!gl->t.core_path || gl->signal_core == gl->t.core_path)
		return;
	gl->signal_core = gl->t.core_path;
	lldb::SBThread th = gl->dbg.GetSelectedTarget().GetProcess()
		.GetSelectedThread();
	if (th.GetStopReason() != lldb::eStopReasonSignal)
		return;
	int signo = (int)th.GetStopReasonDataAtIndex(0);
	const char *name = th.GetProcess().GetUnixSignals()
		.GetSignalAsCString(signo);
	char *out = NULL;
	struct irs_error *err = irs_console_signal(gl->con, signo, name, &out);
	print_event(gl, err, out);
}

/* ==== Commands ========================================================== */

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
	std::lock_guard<std::recursive_mutex> hold(gl->lock);
	xfsz_scope writes;
	char *out = NULL;

	track_process(gl, gl->dbg.GetSelectedTarget().GetProcess());
	refresh_args(gl);
	target_refresh(gl);
	report_core_signal(gl);
	std::string args = join_words(argv);
	struct irs_error *err = irs_console_command(gl->con, name_.c_str(),
						    args.c_str(), &out);
	if (out && *out) {
		size_t len = strlen(out);
		result.Printf("%s%s", out, out[len - 1] == '\n' ? "" : "\n");
	}
	irs_free(out);
	breaks_sync(gl);	// ir-break, ir-trace and ir-layout change them
	if (err) {
		result.SetError(one_line(irs_error_get_message(err)).c_str());
		irs_error_destroy(err);
		return false;
	}
	result.SetStatus(lldb::eReturnStatusSuccessFinishResult);
	return true;
}

static bool
is_fatal(int signo)
{
	switch (signo) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGABRT:
		return true;
	default:
		return false;
	}
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

// ir-__stop, run by the stop hook at every stop of the debuggee.
class stop_command : public lldb::SBCommandPluginInterface {
public:
	bool DoExecute(lldb::SBDebugger, char **,
		       lldb::SBCommandReturnObject &result) override;
};

bool
stop_command::DoExecute(lldb::SBDebugger, char **,
			lldb::SBCommandReturnObject &result)
{
	glue *gl = g;
	std::lock_guard<std::recursive_mutex> hold(gl->lock);
	xfsz_scope writes;
	lldb::SBProcess p = gl->dbg.GetSelectedTarget().GetProcess();

	result.SetStatus(lldb::eReturnStatusSuccessFinishNoResult);
	track_process(gl, p);
	lldb::StateType st = p.GetState();
	if ((st != lldb::eStateStopped && st != lldb::eStateCrashed) ||
	    p.GetStopID() == gl->reported_signal_stop)
		return true;
	if (target_is_core(p))
		return true;	// a core's signal is history, not an event
	lldb::SBThread th = signal_thread(p);
	if (!th.IsValid())
		return true;
	int signo = (int)th.GetStopReasonDataAtIndex(0);
	if (!is_fatal(signo))
		return true;
	gl->reported_signal_stop = p.GetStopID();
	target_refresh(gl);
	const char *name = p.GetUnixSignals().GetSignalAsCString(signo);
	char *out = NULL;
	struct irs_error *err = irs_console_signal(gl->con, signo, name, &out);
	if (out && *out)
		result.Printf("%s", out);
	irs_free(out);
	if (err) {
		result.Printf("irsnap: %s\n",
			      one_line(irs_error_get_message(err)).c_str());
		irs_error_destroy(err);
	}
	if (irs_console_nbreaks(gl->con) > 0)
		set_batch_exit_status(gl, 128 + signo);
	return true;
}

/* ==== Loading =========================================================== */

// "lldb 14.0.6" from "lldb version 14.0.6\n  clang revision ...".
static std::string
debugger_version(void)
{
	std::string v = lldb::SBDebugger::GetVersionString();
	size_t at = v.find("version ");
	if (at == std::string::npos)
		return "lldb";
	v = v.substr(at + 8);
	size_t end = v.find_first_of(" \n(");
	return "lldb " + v.substr(0, end);
}

// Whether this LLDB runs with -b/--batch (its own command line says).
static bool
batch_mode(void)
{
	std::ifstream in("/proc/self/cmdline", std::ios::binary);
	std::string all((std::istreambuf_iterator<char>(in)),
			std::istreambuf_iterator<char>());
	size_t pos = all.find('\0');	// skip argv[0]
	while (pos != std::string::npos && pos + 1 < all.size()) {
		std::string arg = all.c_str() + pos + 1;
		if (arg == "--")
			break;
		if (arg == "-b" || arg == "--batch")
			return true;
		pos = all.find('\0', pos + 1);
	}
	return false;
}

// Splits the console's help into LLDB's three parts: the first line, the
// "Usage:" lines (LLDB's syntax), and the rest (the long help).
struct help_parts {
	std::string brief, syntax, rest;
};

static help_parts
split_help(const char *help)
{
	help_parts h;
	std::string text = help ? help : "";
	size_t pos = 0;
	bool first = true, in_usage = false;

	while (pos < text.size()) {
		size_t nl = text.find('\n', pos);
		std::string line = text.substr(pos, nl == std::string::npos ?
					       std::string::npos : nl - pos);
		pos = nl == std::string::npos ? text.size() : nl + 1;
		if (first) {
			h.brief = line;
			first = false;
		} else if (line.compare(0, 7, "Usage: ") == 0) {
			h.syntax += line.substr(7);
			in_usage = true;
		} else if (in_usage && line.compare(0, 1, " ") == 0) {
			h.syntax += "\n" + line;
		} else {
			in_usage = false;
			h.rest += line + "\n";
		}
	}
	return h;
}

static void
add_commands(glue *gl)
{
	lldb::SBCommandInterpreter ci = gl->dbg.GetCommandInterpreter();

	for (const char *const *n = irs_console_commands(); n && *n; n++) {
		help_parts h = split_help(irs_console_help(*n));
		// LLDB owns the interface objects for the debugger's lifetime.
		lldb::SBCommand cmd = ci.AddCommand(*n, new console_command(*n),
						    h.brief.c_str(),
						    h.syntax.c_str(), "");
		if (cmd.IsValid())
			cmd.SetHelpLong(h.rest.c_str());
	}
	ci.AddCommand("ir-__stop", new stop_command(),
		      "internal: irsnap's stop hook (reports fatal signals)",
		      nullptr, "");
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
	gl->batch = batch_mode();
	target_init(gl);
	target_refresh(gl);
	struct irs_error *err = irs_console_create(&gl->t, &gl->con);
	if (err) {
		print_error(gl, err);
		delete gl;
		return false;
	}
	err = irs_console_set(gl->con, "debugger", debugger_version().c_str());
	if (err)
		print_error(gl, err);
	g = gl;
	add_commands(gl);
	return true;
}
