// The core's facts (struct irs_target) read through LLDB's SB API: memory,
// types and their members, values, frames, instructions, the stop's
// signal. What they become is console/frontend.c's.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "glue.h"

namespace irsnap_lldb {

std::string
one_line(const char *msg)
{
	std::string first = taken(irs_frontend_one_line(msg));
	return first.empty() ? "unknown LLDB error" : first;
}

static glue *
from(void *arg)
{
	return static_cast<glue *>(arg);
}

static lldb::SBThread
target_thread(glue *gl)
{
	if (gl->in_callback)
		return gl->cb_thread;
	return gl->dbg.GetSelectedTarget().GetProcess().GetSelectedThread();
}

static lldb::SBFrame
current_frame(glue *gl)
{
	if (gl->in_callback)
		return gl->cb_thread.GetFrameAtIndex(gl->cb_frame);
	return target_thread(gl).GetSelectedFrame();
}

/* ==== Memory ============================================================ */

static struct irs_error *
read_cb(void *arg, uint64_t address, void *buf, uint64_t count)
{
	return guard([&]() -> struct irs_error * {
		lldb::SBTarget target = from(arg)->dbg.GetSelectedTarget();
		lldb::SBProcess process = target.GetProcess();
		lldb::SBError err;

		if (process.IsValid()) {
			size_t n = process.ReadMemory(address, buf, count, err);
			if (err.Success() && n == count)
				return NULL;
		} else {
			err.SetErrorString("no process");
		}
		// A core leaves read-only pages out, and with no process at
		// all there are still the files: the target reads the
		// executable and libraries.
		lldb::SBError terr;
		lldb::SBAddress where = target.ResolveLoadAddress(address);
		size_t n = target.ReadMemory(where, buf, count, terr);
		if (terr.Success() && n == count)
			return NULL;
		return irs_error_fault(address, "cannot read %" PRIu64
				       " bytes at 0x%" PRIx64 ": %s", count,
				       address,
				       one_line(err.GetCString()).c_str());
	});
}

/* ==== Types ============================================================= */

static const char *
tag_of(lldb::SBType ty)
{
	switch (ty.GetTypeClass()) {
	case lldb::eTypeClassStruct:
		return "struct ";
	case lldb::eTypeClassUnion:
		return "union ";
	case lldb::eTypeClassEnumeration:
		return "enum ";
	default:
		return NULL;
	}
}

// A type by its bare name ("Instr", "unsigned int", "struct Block"). A
// typedef wins over the struct of the same name, as in GDB, so that the
// type keeps the name it was asked by.
static lldb::SBType
find_base(lldb::SBTarget target, const std::string &name)
{
	lldb::SBType ty = target.FindFirstType(name.c_str());
	if (ty.IsValid() && !ty.IsTypedefType() && tag_of(ty)) {
		lldb::SBTypeList all = target.FindTypes(name.c_str());
		for (uint32_t i = 0; i < all.GetSize(); i++) {
			lldb::SBType t = all.GetTypeAtIndex(i);
			const char *n = t.GetName();
			if (t.IsTypedefType() && n && name == n)
				return t;
		}
	}
	return ty;
}

static uint32_t
basic_kind(lldb::BasicType b)
{
	switch (b) {
	case lldb::eBasicTypeBool:
		return IRS_TYPE_BOOL;
	case lldb::eBasicTypeHalf:
	case lldb::eBasicTypeFloat:
	case lldb::eBasicTypeDouble:
	case lldb::eBasicTypeLongDouble:
		return IRS_TYPE_FLOAT;
	case lldb::eBasicTypeChar:
	case lldb::eBasicTypeSignedChar:
	case lldb::eBasicTypeWChar:
	case lldb::eBasicTypeSignedWChar:
	case lldb::eBasicTypeShort:
	case lldb::eBasicTypeInt:
	case lldb::eBasicTypeLong:
	case lldb::eBasicTypeLongLong:
	case lldb::eBasicTypeInt128:
		return IRS_TYPE_INT;
	case lldb::eBasicTypeUnsignedChar:
	case lldb::eBasicTypeUnsignedWChar:
	case lldb::eBasicTypeChar16:
	case lldb::eBasicTypeChar32:
	case lldb::eBasicTypeUnsignedShort:
	case lldb::eBasicTypeUnsignedInt:
	case lldb::eBasicTypeUnsignedLong:
	case lldb::eBasicTypeUnsignedLongLong:
	case lldb::eBasicTypeUnsignedInt128:
		return IRS_TYPE_UINT;
	default:
		return IRS_TYPE_OTHER;
	}
}

static uint32_t
type_kind(lldb::SBType ty)
{
	ty = ty.GetCanonicalType().GetUnqualifiedType();
	switch (ty.GetTypeClass()) {
	case lldb::eTypeClassPointer:
	case lldb::eTypeClassReference:
		return IRS_TYPE_POINTER;
	case lldb::eTypeClassStruct:
	case lldb::eTypeClassClass:
		return IRS_TYPE_STRUCT;
	case lldb::eTypeClassUnion:
		return IRS_TYPE_UNION;
	case lldb::eTypeClassArray:
		return IRS_TYPE_ARRAY;
	case lldb::eTypeClassEnumeration:
		return IRS_TYPE_ENUM;
	case lldb::eTypeClassBuiltin:
		return basic_kind(ty.GetBasicType());
	default:
		return IRS_TYPE_OTHER;
	}
}

// Strips typedefs off the outside only, as GDB's strip_typedefs() does
// (a pointer's target keeps its typedef name).
static lldb::SBType
strip_typedefs(lldb::SBType ty)
{
	for (int n = 0; ty.IsTypedefType() && n < 64; n++)
		ty = ty.GetTypedefedType();
	return ty;
}

// Whether @p ty comes from C, where GDB spells bool "_Bool".
static bool
is_c(lldb::SBType ty)
{
	(void)ty;
	lldb::SBTarget target = g->dbg.GetSelectedTarget();
	lldb::SBModule exe = target.GetModuleAtIndex(0);
	switch (exe.GetCompileUnitAtIndex(0).GetLanguage()) {
	case lldb::eLanguageTypeC89:
	case lldb::eLanguageTypeC:
	case lldb::eLanguageTypeC99:
	case lldb::eLanguageTypeC11:
		return true;
	default:
		return false;
	}
}

// A type's name as GDB spells it: LLDB prints C types the C++ way, without
// the tag of a type declared through it ("Block *" for `struct Block *`)
// and with no blank before an array's bounds ("char[32]").
static std::string
gdb_spelling(lldb::SBType ty)
{
	// GetName() drops the qualifiers of a typedef ("Pass" for
	// "const Pass"); the display name keeps them.
	const char *raw = ty.GetDisplayTypeName();
	if (!raw)
		raw = ty.GetName();
	lldb::SBType base = ty;
	for (int n = 0; n < 64 && !base.IsTypedefType(); n++) {
		if (base.GetTypeClass() == lldb::eTypeClassPointer)
			base = base.GetPointeeType();
		else if (base.GetTypeClass() == lldb::eTypeClassArray)
			base = base.GetArrayElementType();
		else
			break;
	}
	bool c_bool = !base.IsTypedefType() && base.GetTypeClass() ==
		lldb::eTypeClassBuiltin && base.GetBasicType() ==
		lldb::eBasicTypeBool && is_c(ty);
	return taken(irs_frontend_gdb_spelling(str(raw).c_str(),
		base.IsTypedefType() ? NULL : tag_of(base), c_bool));
}

static void
copy_name(char *dst, size_t len, const std::string &src)
{
	snprintf(dst, len, "%s", src.c_str());
}

// Type handles: index + 1 into gl->types, until the next lookup.
static uint64_t
handle(glue *gl, lldb::SBType ty)
{
	gl->types.push_back(ty);
	return gl->types.size();
}

static lldb::SBType
type_at(glue *gl, uint64_t h)
{
	return h >= 1 && h <= gl->types.size() ? gl->types[h - 1]
					       : lldb::SBType();
}

static struct irs_error *
no_type(uint64_t h)
{
	return irs_error_format(IRS_ERROR_TARGET, "no type handle %" PRIu64,
				h);
}

static bool is_donor(glue *gl, const std::string &path);
static std::string module_path(lldb::SBModule m);

// LLDB 14 finds no class template specialization that g++ described: its
// index keeps g++'s DW_AT_name (StringMapEntry<llvm::Value*>) and a match
// must equal the name clang's printer gives (StringMapEntry<llvm::Value
// *>), so no spelling finds it. A type donor's types are looked up here
// by the name LLDB prints them with, indexed once per donor added.
static lldb::SBType
find_donor_type(glue *gl, lldb::SBTarget target, const std::string &name)
{
	if (gl->donors.empty())
		return lldb::SBType();
	if (gl->donor_types_of != gl->donors.size()) {
		gl->donor_types.clear();
		for (uint32_t i = 0; i < target.GetNumModules(); i++) {
			lldb::SBModule m = target.GetModuleAtIndex(i);
			if (!is_donor(gl, module_path(m)))
				continue;
			lldb::SBTypeList all = m.GetTypes(
				lldb::eTypeClassClass | lldb::eTypeClassStruct |
				lldb::eTypeClassUnion);
			for (uint32_t k = 0; k < all.GetSize(); k++) {
				lldb::SBType t = all.GetTypeAtIndex(k);
				const char *n = t.GetName();
				if (!n)
					continue;
				// a declaration gives way to the definition
				auto it = gl->donor_types.find(n);
				if (it == gl->donor_types.end())
					gl->donor_types.emplace(n, t);
				else if (!it->second.IsTypeComplete())
					it->second = t;
			}
		}
		gl->donor_types_of = gl->donors.size();
	}
	auto it = gl->donor_types.find(name);
	return it == gl->donor_types.end() ? lldb::SBType() : it->second;
}

static struct irs_error *
type_lookup_cb(void *arg, const char *name, uint64_t *ret)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		gl->types.clear();
		lldb::SBType ty = find_base(gl->dbg.GetSelectedTarget(), name);
		if (!ty.IsValid())
			ty = find_donor_type(gl, gl->dbg.GetSelectedTarget(),
					     name);
		if (!ty.IsValid())
			return irs_error_format(IRS_ERROR_NOT_FOUND,
						"no type '%s'", name);
		*ret = handle(gl, ty);
		return NULL;
	});
}

static std::string module_path(lldb::SBModule m);
static struct irs_error *
symbol_cb(void *arg, const char *name, uint64_t *address, uint64_t *type)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		lldb::SBValueList vars = gl->dbg.GetSelectedTarget()
			.FindGlobalVariables(name, 1);
		lldb::SBValue v = vars.GetSize() ? vars.GetValueAtIndex(0)
						 : lldb::SBValue();
		// a type donor's globals sit at address 0
		if (v.IsValid() && is_donor(gl, module_path(
			v.GetAddress().GetModule())))
			v = lldb::SBValue();
		if (!v.IsValid())
			return irs_error_format(IRS_ERROR_NOT_FOUND, "no "
						"global variable '%s'", name);
		lldb::addr_t a = v.GetLoadAddress();
		if (a == LLDB_INVALID_ADDRESS)	// no process: where it links
			a = v.GetAddress().GetFileAddress();
		if (a == LLDB_INVALID_ADDRESS)
			return irs_error_format(IRS_ERROR_TARGET, "global "
						"variable '%s' has no address",
						name);
		gl->types.clear();
		*address = a;
		*type = handle(gl, v.GetType());
		return NULL;
	});
}

static struct irs_error *
type_derive_cb(void *arg, uint64_t h, bool array, uint64_t count,
	       uint64_t *ret)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		lldb::SBType ty = type_at(gl, h);
		ty = array ? ty.GetArrayType(count) : ty.GetPointerType();
		if (!ty.IsValid())
			return no_type(h);
		*ret = handle(gl, ty);
		return NULL;
	});
}

static struct irs_error *
type_facts_cb(void *arg, uint64_t h, struct irs_type_facts *ret)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		lldb::SBType ty = type_at(gl, h);
		if (!ty.IsValid())
			return no_type(h);
		lldb::SBType st = strip_typedefs(ty), target;
		lldb::SBType canon = st.GetCanonicalType().GetUnqualifiedType();
		ret->size = st.GetByteSize();
		ret->kind = type_kind(st);
		ret->stripped = handle(gl, st);
		// GetUnqualifiedType() would strip the target's qualifiers too.
		switch (st.GetTypeClass()) {
		case lldb::eTypeClassArray: {
			target = st.GetArrayElementType();
			uint64_t esize = target.GetByteSize();
			ret->count = esize ? ret->size / esize : 0;
			break;
		}
		case lldb::eTypeClassPointer:
		case lldb::eTypeClassReference:
			target = st.GetPointeeType();
			break;
		default:
			break;
		}
		if (target.IsValid())
			ret->target = handle(gl, target);
		if (ret->kind == IRS_TYPE_ENUM)
			ret->nmembers = canon.GetEnumMembers().GetSize();
		else if (ret->kind == IRS_TYPE_STRUCT ||
			 ret->kind == IRS_TYPE_UNION)
			ret->nmembers = canon.GetNumberOfDirectBaseClasses() +
					canon.GetNumberOfFields();
		ret->complete = ty.IsTypeComplete();
		copy_name(ret->name, sizeof(ret->name), gdb_spelling(ty));
		return NULL;
	});
}

static struct irs_error *
type_member_cb(void *arg, uint64_t h, uint32_t index,
	       struct irs_member_facts *ret)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		lldb::SBType ty = type_at(gl, h).GetCanonicalType()
			.GetUnqualifiedType();
		// A C++ base class first, as a member named by its type, as
		// GDB's fields() give it: the core reaches its members.
		uint32_t nbases = ty.GetNumberOfDirectBaseClasses();
		lldb::SBTypeMember m = index < nbases ?
			ty.GetDirectBaseClassAtIndex(index) :
			ty.GetFieldAtIndex(index - nbases);
		if (!m.IsValid())
			return no_type(h);
		copy_name(ret->name, sizeof(ret->name), index < nbases ?
			  str(m.GetType().GetName()) : str(m.GetName()));
		ret->bit_offset = m.GetOffsetInBits();
		ret->bit_size = m.IsBitfield() ? m.GetBitfieldSizeInBits() : 0;
		ret->type = handle(gl, m.GetType());
		return NULL;
	});
}

static struct irs_error *
type_enumerator_cb(void *arg, uint64_t h, uint32_t index, char *name,
		   uint64_t len, int64_t *value)
{
	return guard([&]() -> struct irs_error * {
		lldb::SBTypeEnumMember e = type_at(from(arg), h)
			.GetCanonicalType().GetUnqualifiedType()
			.GetEnumMembers().GetTypeEnumMemberAtIndex(index);
		if (!e.IsValid())
			return no_type(h);
		if (len)
			copy_name(name, len, str(e.GetName()));
		*value = e.GetValueAsSigned();
		return NULL;
	});
}

/* ==== Values ============================================================ */

// What @p v is; a reference is described as what it refers to.
static void
describe(lldb::SBValue v, struct irs_value_facts *out)
{
	lldb::SBType ty = v.GetType().GetCanonicalType();
	if (ty.GetTypeClass() == lldb::eTypeClassReference) {
		v = v.Dereference();
		ty = v.GetType().GetCanonicalType();
	}
	out->kind = type_kind(ty);
	out->is_function = ty.GetTypeClass() == lldb::eTypeClassFunction;
	copy_name(out->type_name, sizeof(out->type_name), gdb_spelling(ty));
	lldb::addr_t a = v.GetLoadAddress();
	out->has_address = a != LLDB_INVALID_ADDRESS;
	out->address = out->has_address ? a : 0;
	lldb::SBError err;
	out->bits = v.GetValueAsUnsigned(err, 0);
	out->has_bits = err.Success();
	if (err.Fail())
		copy_name(out->why, sizeof(out->why),
			  one_line(err.GetCString()));
}

// A call may take the call-timeout setting's seconds (LLDB then
// interrupts and unwinds it); 0 is no limit.
static uint32_t
call_timeout_us(glue *gl)
{
	uint32_t s = gl->con ? irs_console_call_timeout(gl->con) : 30;
	return s > 4000 ? 4000u * 1000 * 1000 : s * 1000 * 1000;
}

static struct irs_error *
eval_value_cb(void *arg, const char *expr, bool calls,
	      struct irs_value_facts *ret)
{
	return guard([&]() -> struct irs_error * {
		lldb::SBFrame frame = current_frame(from(arg));
		if (!frame.IsValid())
			return irs_error_create(IRS_ERROR_STATE, "no stopped "
						"process to evaluate it in");
		lldb::SBValue v;
		enum irs_expr_kind kind = irs_frontend_expr_kind(expr);
		if (kind == IRS_EXPR_VARIABLE)
			v = frame.GetValueForVariablePath(
				expr, lldb::eNoDynamicValues);
		else if (kind == IRS_EXPR_REGISTER)
			v = frame.FindRegister(expr + 1);
		// Anything frame variables cannot answer goes to clang; without
		// its JIT the expression cannot call into the debuggee.
		if (!v.IsValid() || v.GetError().Fail()) {
			lldb::SBExpressionOptions opts;
			opts.SetIgnoreBreakpoints(true);  // not our boundaries
			opts.SetUnwindOnError(true);
			opts.SetSuppressPersistentResult(true);
			opts.SetFetchDynamicValue(lldb::eNoDynamicValues);
			opts.SetAllowJIT(calls);
			if (calls)
				opts.SetTimeoutInMicroSeconds(
					call_timeout_us(from(arg)));
			v = frame.EvaluateExpression(expr, opts);
		}
		if (!v.IsValid())
			return irs_error_create(IRS_ERROR_TARGET, "no value");
		if (v.GetError().Fail())
			return irs_error_create(IRS_ERROR_TARGET, one_line(
				v.GetError().GetCString()).c_str());
		describe(v, ret);
		return NULL;
	});
}

static struct irs_error *
arg_value_cb(void *arg, uint32_t index, char *name, uint64_t len,
	     struct irs_value_facts *ret)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		lldb::SBValueList vars;
		if (gl->in_callback && gl->cb_args_valid) {
			vars = gl->cb_args;
		} else {
			vars = current_frame(gl).GetVariables(true, false,
							      false, true);
			if (gl->in_callback) {
				gl->cb_args = vars;
				gl->cb_args_valid = true;
			}
		}
		if (index >= vars.GetSize())
			return irs_error_create(IRS_ERROR_NOT_FOUND, "no more");
		lldb::SBValue v = vars.GetValueAtIndex(index);
		if (v.GetError().Fail())
			return irs_error_create(IRS_ERROR_TARGET, "unreadable");
		copy_name(name, len, str(v.GetName()));
		describe(v, ret);
		return NULL;
	});
}

static struct irs_error *
cfa_cb(void *arg, uint64_t *ret)
{
	return guard([&]() -> struct irs_error * {
		lldb::addr_t cfa = current_frame(from(arg)).GetCFA();
		if (cfa == LLDB_INVALID_ADDRESS)
			return irs_error_create(IRS_ERROR_TARGET, "no CFA");
		*ret = cfa;
		return NULL;
	});
}

/* ==== Frames ============================================================ */

static struct irs_error *
frame_cb(void *arg, uint32_t index, struct irs_frame_info *ret)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		lldb::SBThread thread = target_thread(gl);
		struct irs_frame_info fr = {};

		if (!thread.IsValid())
			return irs_error_create(IRS_ERROR_NOT_FOUND,
						"No stack.");
		if (index >= thread.GetNumFrames())
			return irs_error_format(IRS_ERROR_NOT_FOUND,
						"no frame #%" PRIu32, index);
		lldb::SBFrame f = thread.GetFrameAtIndex(index);
		// The frames of inlined calls share their concrete frame's
		// pc, as GDB reports them (LLDB gives the caller the inlined
		// call's site).
		uint32_t k = index;
		while (k > 0 && thread.GetFrameAtIndex(k - 1).IsInlined())
			k--;
		fr.pc = thread.GetFrameAtIndex(k).GetPC();
		copy_name(fr.function, sizeof(fr.function),
			  str(f.GetFunctionName()));
		lldb::SBLineEntry le = f.GetLineEntry();
		if (le.IsValid()) {
			lldb::SBFileSpec fs = le.GetFileSpec();
			if (fs.IsValid())
				fs.GetPath(fr.file, sizeof(fr.file));
			fr.line = le.GetLine();
		}
		*ret = fr;
		return NULL;
	});
}

static struct irs_error *
select_frame_cb(void *arg, uint32_t index)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		lldb::SBThread thread = target_thread(gl);

		if (!thread.IsValid())
			return irs_error_create(IRS_ERROR_NOT_FOUND,
						"No stack.");
		if (index >= thread.GetNumFrames())
			return irs_error_format(IRS_ERROR_NOT_FOUND,
						"no frame #%" PRIu32, index);
		if (gl->in_callback) {
			gl->cb_frame = index;
			gl->cb_args_valid = false;
		} else
			thread.SetSelectedFrame(index);
		return NULL;
	});
}

/* ==== Process fields ==================================================== */

bool
target_is_core(lldb::SBProcess process)
{
	const char *plugin = process.GetPluginName();
	return plugin && (!strcmp(plugin, "elf-core") ||
			  !strcmp(plugin, "minidump") ||
			  !strcmp(plugin, "mach-o-core"));
}

void
target_refresh(glue *gl, int64_t live_pid)
{
	lldb::SBTarget target = gl->dbg.GetSelectedTarget();
	lldb::SBProcess process = target.GetProcess();
	char path[4096] = "";

	gl->exe.clear();
	if (target.IsValid() && target.GetExecutable().IsValid())
		target.GetExecutable().GetPath(path, sizeof(path));
	gl->exe = path;
	gl->t.exe_path = gl->exe.empty() ? NULL : gl->exe.c_str();
	gl->t.pid = 0;
	gl->t.core_path = NULL;
	if (live_pid) {
		gl->t.pid = live_pid;
		return;
	}
	if (!process.IsValid())
		return;
	if (target_is_core(process)) {
		// LLDB 14's SB API does not say which core it examines.
		static uint32_t uid;
		if (process.GetUniqueID() != uid || gl->core.empty())
			gl->core = irs_frontend_core_path(path, sizeof(path)) ?
				   path : "";
		uid = process.GetUniqueID();
		gl->t.core_path = gl->core.empty() ? NULL : gl->core.c_str();
		return;
	}
	lldb::StateType st = process.GetState();
	if (st == lldb::eStateStopped || st == lldb::eStateCrashed ||
	    st == lldb::eStateSuspended)
		gl->t.pid = (int64_t)process.GetProcessID();
}

static struct irs_error *
stop_signal_cb(void *arg, int32_t *signo, char *name, uint64_t len)
{
	return guard([&]() -> struct irs_error * {
		lldb::SBThread th = from(arg)->dbg.GetSelectedTarget()
			.GetProcess().GetSelectedThread();
		*signo = 0;
		if (th.GetStopReason() != lldb::eStopReasonSignal)
			return NULL;
		*signo = (int32_t)th.GetStopReasonDataAtIndex(0);
		copy_name(name, len, str(th.GetProcess().GetUnixSignals()
					 .GetSignalAsCString(*signo)));
		return NULL;
	});
}

static struct irs_error *
thread_cb(void *arg, uint64_t *tid)
{
	return guard([&]() -> struct irs_error * {
		// the thread a breakpoint callback runs for, else the
		// selected one; on Linux its id is the system's (its LWP)
		lldb::SBThread th = target_thread(from(arg));
		*tid = th.IsValid() ? (uint64_t)th.GetThreadID() : 0;
		return NULL;
	});
}

static struct irs_error *
args_cb(void *arg, char *buf, uint64_t len)
{
	return guard([&]() -> struct irs_error * {
		lldb::SBLaunchInfo li = from(arg)->dbg.GetSelectedTarget()
			.GetLaunchInfo();
		std::vector<const char *> argv;
		for (uint32_t i = 0; i < li.GetNumArguments(); i++)
			argv.push_back(li.GetArgumentAtIndex(i) ?
				       li.GetArgumentAtIndex(i) : "");
		argv.push_back(nullptr);
		copy_name(buf, len, taken(irs_frontend_join_words(
			argv.data())));
		return NULL;
	});
}

static std::string
module_path(lldb::SBModule m)
{
	char path[4096] = "";
	m.GetFileSpec().GetPath(path, sizeof(path));
	return path;
}

static bool
is_donor(glue *gl, const std::string &path)
{
	for (const std::string &d : gl->donors)
		if (d == path)
			return true;
	return false;
}

// The files LLDB loaded for the target: its program and shared libraries
// (not a type donor).
static struct irs_error *
module_cb(void *arg, uint32_t index, char *path, uint64_t len)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		lldb::SBTarget target = gl->dbg.GetSelectedTarget();
		uint32_t k = 0;
		for (uint32_t i = 0; i < target.GetNumModules(); i++) {
			std::string p = module_path(target.GetModuleAtIndex(i));
			if (p.empty() || p[0] != '/' || is_donor(gl, p) ||
			    k++ != index)
				continue;
			copy_name(path, len, p);
			return NULL;
		}
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no module #%"
					PRIu32, index);
	});
}

static struct irs_error *
load_types_cb(void *arg, const char *path)
{
	return guard([&]() -> struct irs_error * {
		glue *gl = from(arg);
		char real[4096];
		std::string p = realpath(path, real) ? real : path;
		if (is_donor(gl, p))
			return NULL;
		// A relocatable object, never loaded at an address: LLDB
		// takes types from it all the same.
		lldb::SBModule m = gl->dbg.GetSelectedTarget().AddModule(
			p.c_str(), nullptr, nullptr);
		if (!m.IsValid())
			return irs_error_format(IRS_ERROR_TARGET, "LLDB could "
						"not add the type donor %s",
						p.c_str());
		gl->donors.push_back(p);
		return NULL;
	});
}

void
target_init(glue *gl)
{
	gl->t.arg = gl;
	gl->t.read = read_cb;
	gl->t.frame = frame_cb;
	gl->t.select_frame = select_frame_cb;
	gl->t.type_lookup = type_lookup_cb;
	gl->t.type_derive = type_derive_cb;
	gl->t.type_facts = type_facts_cb;
	gl->t.type_member = type_member_cb;
	gl->t.type_enumerator = type_enumerator_cb;
	gl->t.eval_value = eval_value_cb;
	gl->t.cfa = cfa_cb;
	gl->t.arg_value = arg_value_cb;
	gl->t.stop_signal = stop_signal_cb;
	gl->t.thread = thread_cb;
	gl->t.args = args_cb;
	gl->t.symbol = symbol_cb;
	gl->t.module = module_cb;
	gl->t.load_types = load_types_cb;
}

}  // namespace irsnap_lldb
