// LLDB breakpoints: the ones the core sets on the pass boundaries (struct
// irs_target's set_break, delete_break and disassemble), whose hits go to
// irs_console_hit() by id, and one on _exit to see the debuggee end.
// Their callbacks return the core's stop decision; false lets LLDB
// continue without stopping the user. A callback that fires while a
// command holds the console (a debuggee function it calls, or an
// asynchronous run) skips its event; the core then ignores the return of
// a skipped entry, since no call with its CFA is open.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <set>
#include <utility>

#include "glue.h"

namespace irsnap_lldb {

// Marks the glue as inside a breakpoint callback for the core's questions,
// and undoes it on the way out.
struct callback_scope {
	glue *gl;

	callback_scope(glue *g_, lldb::SBProcess &process,
		       lldb::SBThread &thread) : gl(g_)
	{
		gl->in_callback = true;
		gl->cb_thread = thread;
		gl->cb_frame = 0;
		gl->cb_args_valid = false;
		target_refresh(gl, (int64_t)process.GetProcessID());
	}
	~callback_scope()
	{
		gl->in_callback = false;
		gl->cb_thread = lldb::SBThread();
		gl->cb_args = lldb::SBValueList();
		gl->cb_args_valid = false;
	}
};

static void sync_exit_break(glue *gl, lldb::SBTarget target, bool want,
			    bool live);

// Runs @p body(gl) as a breakpoint callback and returns whether to stop:
// not while a command is talking to the console (no stop then), with
// writes past RLIMIT_FSIZE failing rather than killing LLDB, in a
// callback_scope; nothing @p body throws unwinds into LLDB (no stop).
template <typename F>
static bool
run_callback(lldb::SBProcess &process, lldb::SBThread &thread, F body)
{
	glue *gl = g;
	std::unique_lock<std::recursive_mutex> hold(gl->lock, std::try_to_lock);
	if (!hold.owns_lock())
		return false;	// a command is talking to the console
	try {
		xfsz_scope writes;
		callback_scope scope(gl, process, thread);
		return body(gl);
	} catch (...) {
		return false;	// nothing may unwind into LLDB
	}
}

static bool
on_hit(void *baton, lldb::SBProcess &process, lldb::SBThread &thread,
       lldb::SBBreakpointLocation &)
{
	return run_callback(process, thread, [&](glue *gl) {
		bool stop = false;
		char *out = NULL;

		track_process(gl, process);
		struct irs_error *err = irs_console_hit(
			gl->con, (uint32_t)(uintptr_t)baton, &stop, &out);
		print_event(gl, err, out);
		if (gl->want_exit_bp && !gl->exit_bp.IsValid())
			sync_exit_break(gl, process.GetTarget(), true, true);
		return stop;
	});
}

static bool
on_exit_call(void *, lldb::SBProcess &process, lldb::SBThread &thread,
	     lldb::SBBreakpointLocation &)
{
	return run_callback(process, thread, [&](glue *gl) {
		// _exit(status): the first argument, in whatever register the
		// ABI says ("arg1" is LLDB's generic name for it).
		lldb::SBValue reg = thread.GetFrameAtIndex(0)
			.FindRegister("arg1");
		lldb::SBError e;
		uint64_t status = reg.IsValid() ? reg.GetValueAsUnsigned(e, 0)
						: 0;

		track_process(gl, process);
		report_exited(gl, reg.IsValid() && e.Success() ?
			      (int32_t)(status & 0xff) : -1);
		return false;	// _exit goes on: the process ends
	});
}

static lldb::SBTarget
break_target(glue *gl)
{
	return gl->break_target.IsValid() ? gl->break_target
					  : gl->dbg.GetSelectedTarget();
}

// Every instruction of the functions named @p function (from their debug
// info, else their symbols), each once.
static struct irs_error *
disassemble_cb(void *arg, const char *function, struct irs_insns *sink)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = static_cast<glue *>(arg);
		lldb::SBTarget target = break_target(gl);
		lldb::SBSymbolContextList list = target.FindFunctions(
			function, lldb::eFunctionNameTypeAuto);
		std::set<std::pair<std::string, lldb::addr_t>> seen;

		gl->insns.clear();
		for (uint32_t i = 0; i < list.GetSize(); i++) {
			lldb::SBSymbolContext sc = list.GetContextAtIndex(i);
			bool fn = sc.GetFunction().IsValid();
			if (str(fn ? sc.GetFunction().GetName()
				   : sc.GetSymbol().GetName()) != function)
				continue;
			lldb::SBInstructionList insns = fn ?
				sc.GetFunction().GetInstructions(target) :
				sc.GetSymbol().GetInstructions(target);
			for (size_t j = 0; j < insns.GetSize(); j++) {
				lldb::SBInstruction in =
					insns.GetInstructionAtIndex(j);
				lldb::SBAddress a = in.GetAddress();
				char path[4096] = "";
				lldb::SBFileSpec fs = a.GetModule()
					.GetFileSpec();
				fs.GetPath(path, sizeof(path));
				if (!seen.insert({path, a.GetFileAddress()})
					 .second)
					continue;
				gl->insns.push_back(a);
				std::string text = str(in.GetMnemonic(target)) +
					" " + str(in.GetOperands(target));
				irs_insns_add(sink, gl->insns.size() - 1,
					      text.c_str());
			}
		}
		if (gl->insns.empty())
			return irs_error_format(IRS_ERROR_NOT_FOUND,
						"no function '%s'", function);
		return NULL;
	});
}

static struct irs_error *
set_break_cb(void *arg, uint32_t id, const char *function, bool entry,
	     uint64_t at)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = static_cast<glue *>(arg);
		lldb::SBTarget target = break_target(gl);
		if (!function) {	// an address of this process
			lldb::SBBreakpoint bp =
				target.BreakpointCreateByAddress(at);
			if (!bp.IsValid())
				return irs_error_format(IRS_ERROR_TARGET,
					"LLDB refused a breakpoint at 0x%"
					PRIx64, at);
			bp.SetCallback(on_hit, (void *)(uintptr_t)id);
			bp.AddName("irsnap");
			gl->break_target = target;
			gl->breaks[id] = bp.GetID();
			return NULL;
		}
		if (!entry && at >= gl->insns.size())
			return irs_error_format(IRS_ERROR_TARGET, "no "
						"instruction #%" PRIu64, at);
		lldb::SBBreakpoint bp = entry ?
			target.BreakpointCreateByName(function) :
			target.BreakpointCreateBySBAddress(gl->insns[at]);
		if (!bp.IsValid())
			return irs_error_format(IRS_ERROR_TARGET, "LLDB "
						"refused a breakpoint on %s",
						function);
		bp.SetCallback(on_hit, (void *)(uintptr_t)id);
		bp.AddName("irsnap");
		gl->break_target = target;
		gl->breaks[id] = bp.GetID();
		return NULL;
	});
}

static void
delete_break_cb(void *arg, uint32_t id)
{
	try {
		glue *gl = static_cast<glue *>(arg);
		auto it = gl->breaks.find(id);
		if (it == gl->breaks.end())
			return;
		gl->break_target.BreakpointDelete(it->second);
		gl->breaks.erase(it);
	} catch (...) {
	}
}

void
breaks_init(glue *gl)
{
	gl->t.disassemble = disassemble_cb;
	gl->t.set_break = set_break_cb;
	gl->t.delete_break = delete_break_cb;
}

void
breaks_check_deleted(glue *gl)
{
	// LLDB tells a plugin of no deletion: the user's `breakpoint delete`
	// is found here, before each command and at each stop.
	if (!gl->break_target.IsValid())
		return;
	for (auto it = gl->breaks.begin(); it != gl->breaks.end();) {
		if (gl->break_target.FindBreakpointByID(it->second).IsValid()) {
			++it;
			continue;
		}
		irs_console_break_deleted(gl->con, it->first);
		it = gl->breaks.erase(it);
	}
}

void
breaks_follow_target(glue *gl)
{
	lldb::SBTarget target = gl->dbg.GetSelectedTarget();
	if (gl->break_target.IsValid() && !(gl->break_target == target)) {
		irs_console_forget_breaks(gl->con);
		gl->break_target = lldb::SBTarget();
	}
}

static void
ensure_stop_hook(glue *gl, lldb::SBTarget target)
{
	for (lldb::SBTarget &t : gl->hooked)
		if (t == target)
			return;
	lldb::SBCommandReturnObject res;
	gl->dbg.GetCommandInterpreter().HandleCommand(
		"target stop-hook add -o 'ir-report --at-stop'", res);
	if (res.Succeeded())
		gl->hooked.push_back(target);
}

// Creates or deletes the breakpoint on _exit. It is created in a live
// process only (at the first boundary hit if there is none yet), once libc
// is loaded, so that LLDB does not announce each location it adds as
// libraries load.
static void
sync_exit_break(glue *gl, lldb::SBTarget target, bool want, bool live)
{
	bool have = gl->exit_bp.IsValid() && gl->exit_bp_target == target;

	gl->want_exit_bp = want;
	if (want && !live)
		return;
	if (have == want)
		return;
	if (gl->exit_bp.IsValid())
		gl->exit_bp_target.BreakpointDelete(gl->exit_bp.GetID());
	gl->exit_bp = lldb::SBBreakpoint();
	gl->exit_bp_target = lldb::SBTarget();
	if (!want)
		return;
	gl->exit_bp = target.BreakpointCreateByName("_exit");
	gl->exit_bp.SetCallback(on_exit_call, nullptr);
	gl->exit_bp.AddName("irsnap");
	gl->exit_bp_target = target;
}

void
breaks_sync(glue *gl)
{
	lldb::SBTarget target = gl->dbg.GetSelectedTarget();

	if (!target.IsValid())
		return;
	ensure_stop_hook(gl, target);
	lldb::StateType st = target.GetProcess().GetState();
	// An open run must see the program end even with nothing traced
	// any more (ir-trace off), or it would say "running" for ever.
	sync_exit_break(gl, target, irs_console_nbreaks(gl->con) > 0 ||
			irs_console_run_open(gl->con),
			st == lldb::eStateStopped || st == lldb::eStateCrashed);
}

}  // namespace irsnap_lldb
