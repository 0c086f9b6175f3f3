// LLDB breakpoints on the pass boundaries: one at the entry of each
// function irs_console_break_function() names, one on each of its return
// instructions, and one on _exit to see the debuggee end. Their callbacks
// report to the console and return its stop decision; returning false lets
// LLDB continue without stopping the user. A callback that fires while a
// command holds the console (a debuggee function it calls, or an
// asynchronous run) skips its event; the return of a skipped entry then
// finds no call to pair with and is skipped too.
#include <cstring>
#include <set>

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
		target_refresh(gl, (int64_t)process.GetProcessID());
	}
	~callback_scope()
	{
		gl->in_callback = false;
		gl->cb_thread = lldb::SBThread();
	}
};

static void sync_exit_break(glue *gl, lldb::SBTarget target, bool want,
			    bool live);

// Frame 0's canonical frame address: the caller's stack pointer, the same
// at a function's entry and at its return instructions, so it pairs them.
static lldb::addr_t
frame_cfa(lldb::SBThread &thread)
{
	return thread.GetFrameAtIndex(0).GetCFA();
}

static bool
on_entry(void *baton, lldb::SBProcess &process, lldb::SBThread &thread,
	 lldb::SBBreakpointLocation &)
{
	fn_breaks *fb = static_cast<fn_breaks *>(baton);
	glue *gl = g;
	std::unique_lock<std::recursive_mutex> hold(gl->lock, std::try_to_lock);
	if (!hold.owns_lock())
		return false;	// a command is talking to the console
	xfsz_scope writes;
	callback_scope scope(gl, process, thread);
	bool stop = false;
	char *out = NULL;

	track_process(gl, process);
	gl->returning = open_call();
	gl->open.push_back({frame_cfa(thread), fb->function, {}});
	target_save_args(thread.GetFrameAtIndex(0), gl->open.back().args);
	struct irs_error *err = irs_console_boundary_enter(
		gl->con, fb->function.c_str(), &stop, &out);
	print_event(gl, err, out);
	breaks_resolve_exits(gl, fb);	// a library loaded since the sync
	if (gl->want_exit_bp && !gl->exit_bp.IsValid())
		sync_exit_break(gl, fb->target, true, true);
	return stop;
}

// At a return instruction: reports the return of the call with this CFA,
// and of the calls above it that never returned (a longjmp out of them).
static bool
on_return(void *, lldb::SBProcess &process, lldb::SBThread &thread,
	  lldb::SBBreakpointLocation &)
{
	glue *gl = g;
	std::unique_lock<std::recursive_mutex> hold(gl->lock, std::try_to_lock);
	if (!hold.owns_lock())
		return false;	// a command is talking to the console
	xfsz_scope writes;
	callback_scope scope(gl, process, thread);
	lldb::addr_t cfa = frame_cfa(thread);
	bool known = false, stop = false;

	track_process(gl, process);
	for (const open_call &oc : gl->open)
		known = known || oc.cfa == cfa ||
			oc.cfa == LLDB_INVALID_ADDRESS;
	if (!known)
		return false;	// a call entered before we broke on it
	while (!gl->open.empty()) {
		lldb::addr_t top = gl->open.back().cfa;
		gl->returning = std::move(gl->open.back());
		gl->open.pop_back();
		bool flag = false;
		char *out = NULL;
		struct irs_error *err = irs_console_boundary_exit(gl->con,
								   &flag, &out);
		print_event(gl, err, out);
		stop = stop || flag;
		if (top == cfa || top == LLDB_INVALID_ADDRESS)
			break;
	}
	return stop;
}

static bool
on_exit_call(void *, lldb::SBProcess &process, lldb::SBThread &thread,
	     lldb::SBBreakpointLocation &)
{
	glue *gl = g;
	std::unique_lock<std::recursive_mutex> hold(gl->lock, std::try_to_lock);
	if (!hold.owns_lock())
		return false;	// a command is talking to the console
	xfsz_scope writes;
	callback_scope scope(gl, process, thread);
	// _exit(status): the first argument, in whatever register the ABI
	// says ("arg1" is LLDB's generic name for it).
	lldb::SBValue reg = thread.GetFrameAtIndex(0).FindRegister("arg1");
	lldb::SBError e;
	uint64_t status = reg.IsValid() ? reg.GetValueAsUnsigned(e, 0) : 0;

	track_process(gl, process);
	report_exited(gl, reg.IsValid() && e.Success() ?
		      (int32_t)(status & 0xff) : -1);
	return false;
}

static bool
starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

// "ret", "retq" (AT&T syntax), "rep ret" / "repz retq" (AMD's two-byte
// return), "ret" on AArch64.
static bool
is_return(lldb::SBTarget target, lldb::SBInstruction in)
{
	const char *mn = in.GetMnemonic(target);
	if (starts_with(mn, "ret"))
		return true;
	return (starts_with(mn, "rep")) &&
	       starts_with(in.GetOperands(target), "ret");
}

// Instructions of the function with symbol context @p sc: from its debug
// info, else from its symbol.
static lldb::SBInstructionList
instructions(lldb::SBTarget target, lldb::SBSymbolContext sc)
{
	if (sc.GetFunction().IsValid())
		return sc.GetFunction().GetInstructions(target);
	return sc.GetSymbol().GetInstructions(target);
}

static const char *
context_name(lldb::SBSymbolContext sc)
{
	if (sc.GetFunction().IsValid())
		return sc.GetFunction().GetName();
	return sc.GetSymbol().GetName();
}

void
breaks_resolve_exits(glue *gl, fn_breaks *fb)
{
	if (fb->exits_resolved)
		return;
	lldb::SBTarget target = fb->target;
	lldb::SBSymbolContextList list = target.FindFunctions(
		fb->function.c_str(), lldb::eFunctionNameTypeAuto);
	std::set<lldb::addr_t> seen;

	for (uint32_t i = 0; i < list.GetSize(); i++) {
		lldb::SBSymbolContext sc = list.GetContextAtIndex(i);
		const char *name = context_name(sc);
		if (!name || fb->function != name)
			continue;
		lldb::SBInstructionList insns = instructions(target, sc);
		for (size_t j = 0; j < insns.GetSize(); j++) {
			lldb::SBInstruction in = insns.GetInstructionAtIndex(j);
			if (!is_return(target, in))
				continue;
			lldb::SBAddress a = in.GetAddress();
			if (!seen.insert(a.GetFileAddress()).second)
				continue;
			lldb::SBBreakpoint bp =
				target.BreakpointCreateBySBAddress(a);
			bp.SetCallback(on_return, fb);
			bp.AddName("irsnap");
			fb->exits.push_back(bp);
		}
	}
	fb->exits_resolved = !fb->exits.empty();
	if (!fb->exits_resolved && list.GetSize() > 0 && !fb->warned) {
		fb->warned = true;
		print_error(gl, irs_error_format(IRS_ERROR_NOT_FOUND,
			"no return instruction found in %s; no after "
			"snapshots", fb->function.c_str()));
	}
}

static void
delete_breaks(fn_breaks *fb)
{
	fb->target.BreakpointDelete(fb->entry.GetID());
	for (lldb::SBBreakpoint &bp : fb->exits)
		fb->target.BreakpointDelete(bp.GetID());
	fb->exits.clear();
}

static void
ensure_stop_hook(glue *gl, lldb::SBTarget target)
{
	for (lldb::SBTarget &t : gl->hooked)
		if (t == target)
			return;
	lldb::SBCommandReturnObject res;
	gl->dbg.GetCommandInterpreter().HandleCommand(
		"target stop-hook add -o ir-__stop", res);
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
	std::set<std::string> want;

	if (!target.IsValid())
		return;
	ensure_stop_hook(gl, target);
	uint32_t n = irs_console_nbreaks(gl->con);
	for (uint32_t i = 0; i < n; i++) {
		const char *fn = irs_console_break_function(gl->con, i);
		if (fn && *fn)
			want.insert(fn);
	}
	for (auto it = gl->breaks.begin(); it != gl->breaks.end();) {
		if (want.count(it->first) && it->second->target == target) {
			++it;
			continue;
		}
		delete_breaks(it->second.get());
		it = gl->breaks.erase(it);
	}
	for (const std::string &fn : want) {
		if (gl->breaks.count(fn))
			continue;
		auto fb = std::make_unique<fn_breaks>();
		fb->function = fn;
		fb->target = target;
		fb->entry = target.BreakpointCreateByName(fn.c_str());
		fb->entry.SetCallback(on_entry, fb.get());
		fb->entry.AddName("irsnap");
		breaks_resolve_exits(gl, fb.get());
		gl->breaks[fn] = std::move(fb);
	}
	lldb::StateType st = target.GetProcess().GetState();
	sync_exit_break(gl, target, !want.empty(),
			st == lldb::eStateStopped || st == lldb::eStateCrashed);
}

}  // namespace irsnap_lldb
