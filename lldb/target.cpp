// The core's questions (struct irs_target) answered through LLDB's SB API:
// memory, expressions, types and fields from debug info, frames.
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "glue.h"

namespace irsnap_lldb {

// Drops "error: " and clang's "<user expression 0>:1:1: " from @p line.
static std::string
strip_prefixes(std::string s)
{
	if (s.compare(0, 7, "error: ") == 0)
		s.erase(0, 7);
	if (s.compare(0, 17, "<user expression ") == 0) {
		size_t colon = s.find(": ");
		if (colon != std::string::npos)
			s.erase(0, colon + 2);
	}
	while (!s.empty() && (s.back() == ' ' || s.back() == '\r'))
		s.pop_back();
	return s;
}

std::string
one_line(const char *msg)
{
	std::string all = msg ? msg : "";
	std::string first = strip_prefixes(all.substr(0, all.find('\n')));
	// "expression failed to parse:" heads the diagnostics that say why;
	// the first of them is the line worth showing.
	if (!first.empty() && first.back() == ':') {
		size_t at = all.find("\nerror: ");
		if (at != std::string::npos) {
			std::string next = all.substr(at + 1);
			next = strip_prefixes(next.substr(0, next.find('\n')));
			if (!next.empty())
				first = next;
		}
	}
	return first.empty() ? "unknown LLDB error" : first;
}

static glue *
from(void *arg)
{
	return static_cast<glue *>(arg);
}

static struct irs_error *
target_error(enum irs_error_code code, const std::string &msg)
{
	return irs_error_create(code, msg.c_str());
}

lldb::SBThread
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
	glue *gl = from(arg);
	lldb::SBTarget target = gl->dbg.GetSelectedTarget();
	lldb::SBProcess process = target.GetProcess();
	lldb::SBError err;

	if (process.IsValid()) {
		size_t n = process.ReadMemory(address, buf, count, err);
		if (err.Success() && n == count)
			return NULL;
	} else {
		err.SetErrorString("no process");
	}
	// A core leaves read-only pages out, and with no process at all there
	// are still the files: the target reads the executable and libraries.
	lldb::SBError terr;
	lldb::SBAddress where = target.ResolveLoadAddress(address);
	size_t n = target.ReadMemory(where, buf, count, terr);
	if (terr.Success() && n == count)
		return NULL;
	return irs_error_fault(address, "cannot read %" PRIu64 " bytes at 0x%"
			       PRIx64 ": %s", count, address,
			       one_line(err.GetCString()).c_str());
}

/* ==== Types ============================================================= */

static std::string
trim(std::string s)
{
	while (!s.empty() && s.back() == ' ')
		s.pop_back();
	size_t i = s.find_first_not_of(' ');
	return i == std::string::npos ? "" : s.substr(i);
}

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
	for (const char *tag : {"struct ", "union ", "enum "}) {
		size_t n = strlen(tag);
		if (!ty.IsValid() && name.compare(0, n, tag) == 0)
			ty = target.FindFirstType(trim(name.substr(n)).c_str());
	}
	return ty;
}

// A type by its C spelling, as the GDB glue reads it: "Instr",
// "struct Block *", "char [32]" (an array), "T []" (a pointer).
static lldb::SBType
find_type(lldb::SBTarget target, const std::string &spelling)
{
	std::string name = trim(spelling);

	if (!name.empty() && name.back() == ']') {
		size_t open = name.rfind('[');
		if (open == std::string::npos)
			return lldb::SBType();
		std::string count = name.substr(open + 1,
						name.size() - open - 2);
		lldb::SBType elem = find_type(target, name.substr(0, open));
		if (!elem.IsValid() || count.empty())
			return elem.IsValid() ? elem.GetPointerType() : elem;
		return elem.GetArrayType(strtoull(count.c_str(), NULL, 10));
	}
	if (!name.empty() && name.back() == '*') {
		lldb::SBType to = find_type(target,
					    name.substr(0, name.size() - 1));
		return to.IsValid() ? to.GetPointerType() : to;
	}
	return find_base(target, name);
}

static lldb::SBType
lookup(glue *gl, const char *spelling)
{
	return find_type(gl->dbg.GetSelectedTarget(), spelling);
}

static struct irs_error *
no_type(const char *type)
{
	return irs_error_format(IRS_ERROR_NOT_FOUND,
				"no type '%s' in the debug info", type);
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

static bool
is_aggregate(lldb::SBType ty)
{
	uint32_t k = type_kind(ty);
	return k == IRS_TYPE_STRUCT || k == IRS_TYPE_UNION;
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
	std::string s = raw ? raw : "";
	size_t open = s.find('[');
	if (open != std::string::npos && open > 0 && s[open - 1] != ' ')
		s.insert(open, " ");
	lldb::SBType base = ty;
	for (int n = 0; n < 64 && !base.IsTypedefType(); n++) {
		if (base.GetTypeClass() == lldb::eTypeClassPointer)
			base = base.GetPointeeType();
		else if (base.GetTypeClass() == lldb::eTypeClassArray)
			base = base.GetArrayElementType();
		else
			break;
	}
	if (!base.IsTypedefType() && base.GetTypeClass() ==
	    lldb::eTypeClassBuiltin && base.GetBasicType() ==
	    lldb::eBasicTypeBool && is_c(ty)) {
		size_t at = s.find("bool");
		if (at != std::string::npos)
			s.replace(at, 4, "_Bool");
	}
	const char *tag = base.IsTypedefType() ? NULL : tag_of(base);
	// An anonymous struct or union: GDB says "union {...}".
	for (const char *anon : {"(unnamed ", "(anonymous "}) {
		size_t at = s.find(anon);
		if (tag && at != std::string::npos) {
			size_t close = s.find(')', at);
			s.replace(at, close == std::string::npos ?
				  std::string::npos : close - at + 1,
				  std::string(tag) + "{...}");
			return s;
		}
	}
	if (!tag || s.find(tag) != std::string::npos)
		return s;
	size_t at = 0;	// after "const " and "volatile "
	for (const char *q : {"const ", "volatile ", "const "}) {
		size_t n = strlen(q);
		if (s.compare(at, n, q) == 0)
			at += n;
	}
	return s.insert(at, tag);
}

// "struct Instr" -> "Instr": the name a layout uses.
static std::string
bare(std::string s)
{
	for (const char *tag : {"struct ", "union ", "enum ", "class "})
		if (s.compare(0, strlen(tag), tag) == 0)
			return s.substr(strlen(tag));
	return s;
}

static void
copy_name(char *dst, size_t len, const std::string &src)
{
	snprintf(dst, len, "%s", src.c_str());
}

static struct irs_error *
type_size_cb(void *arg, const char *type, uint64_t *ret)
{
	lldb::SBType ty = lookup(from(arg), type);

	if (!ty.IsValid())
		return no_type(type);
	uint64_t size = ty.GetByteSize();
	if (size == 0 && !ty.IsTypeComplete())
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"type '%s' is incomplete in the debug "
					"info (only declared)", type);
	*ret = size;
	return NULL;
}

// Finds member @p name of struct or union @p ty, looking inside anonymous
// members too; adds its offset in bits to *bits.
static bool
find_member(lldb::SBType ty, const char *name, uint64_t *bits,
	    lldb::SBTypeMember *ret)
{
	ty = ty.GetCanonicalType().GetUnqualifiedType();
	uint32_t n = ty.GetNumberOfFields();
	for (uint32_t i = 0; i < n; i++) {
		lldb::SBTypeMember m = ty.GetFieldAtIndex(i);
		const char *mname = m.GetName();
		if (mname && !strcmp(mname, name)) {
			*bits += m.GetOffsetInBits();
			*ret = m;
			return true;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		lldb::SBTypeMember m = ty.GetFieldAtIndex(i);
		const char *mname = m.GetName();
		if ((mname && *mname) || !is_aggregate(m.GetType()))
			continue;
		uint64_t b = *bits + m.GetOffsetInBits();
		if (find_member(m.GetType(), name, &b, ret)) {
			*bits = b;
			return true;
		}
	}
	return false;
}

// Fills @p fi for a field of type @p ty at bit @p bitpos (@p bitsize bits
// if a bitfield), exactly as the GDB glue does, so that both debuggers
// give the layout engine the same schema.
static void
fill_field(struct irs_field_info *fi, lldb::SBType ty, uint64_t bitpos,
	   uint32_t bitsize)
{
	lldb::SBType st = strip_typedefs(ty);
	uint64_t size = st.GetByteSize();

	*fi = {};
	if (bitsize) {
		// A bitfield is described by its storage unit when it fits in
		// one aligned unit of its declared type, else by the bytes it
		// spans.
		uint64_t unit = size * 8;
		uint64_t start = unit ? bitpos / unit * unit : bitpos;
		if (unit && bitpos + bitsize <= start + unit) {
			fi->offset = start / 8;
			fi->bit_offset = (uint32_t)(bitpos - start);
		} else {
			fi->offset = bitpos / 8;
			fi->bit_offset = (uint32_t)(bitpos % 8);
			size = (fi->bit_offset + bitsize + 7) / 8;
		}
		fi->bit_size = bitsize;
	} else {
		fi->offset = bitpos / 8;
	}
	fi->size = size;
	fi->kind = type_kind(st);
	lldb::SBType target;
	// GetUnqualifiedType() would strip the target's qualifiers too.
	switch (st.GetTypeClass()) {
	case lldb::eTypeClassArray: {
		target = st.GetArrayElementType();
		uint64_t esize = target.GetByteSize();
		fi->count = esize ? st.GetByteSize() / esize : 0;
		break;
	}
	case lldb::eTypeClassPointer:
	case lldb::eTypeClassReference:
		target = st.GetPointeeType();
		break;
	default:
		break;
	}
	copy_name(fi->type_name, sizeof(fi->type_name), gdb_spelling(ty));
	if (target.IsValid())
		copy_name(fi->target_name, sizeof(fi->target_name),
			  bare(gdb_spelling(target)));
}

static struct irs_error *
field_cb(void *arg, const char *type, const char *path,
	 struct irs_field_info *ret)
{
	lldb::SBType ty = lookup(from(arg), type);
	std::string all = path, rest = path;
	lldb::SBTypeMember m;
	uint64_t bits = 0;

	if (!ty.IsValid())
		return no_type(type);
	if (all.empty()) {	// the whole type
		fill_field(ret, ty, 0, 0);
		return NULL;
	}
	lldb::SBType cur = ty;
	for (;;) {
		size_t dot = rest.find('.');
		std::string part = rest.substr(0, dot);
		if (!is_aggregate(cur))
			return irs_error_format(IRS_ERROR_NOT_FOUND,
				"'%s' in %s: %s is not a struct or union",
				path, type,
				gdb_spelling(strip_typedefs(cur)).c_str());
		if (!find_member(cur, part.c_str(), &bits, &m)) {
			if (part == all)
				return irs_error_format(IRS_ERROR_NOT_FOUND,
					"no field '%s' in %s", path, type);
			return irs_error_format(IRS_ERROR_NOT_FOUND,
				"no field '%s' (of '%s') in %s", part.c_str(),
				path, type);
		}
		cur = m.GetType();
		if (dot == std::string::npos)
			break;
		rest = rest.substr(dot + 1);
	}
	fill_field(ret, m.GetType(), bits,
		   m.IsBitfield() ? m.GetBitfieldSizeInBits() : 0);
	return NULL;
}

static struct irs_error *
enumerator_cb(void *arg, const char *type, uint32_t index, char *name,
	      uint64_t len, int64_t *value)
{
	lldb::SBType ty = lookup(from(arg), type);

	if (!ty.IsValid())
		return no_type(type);
	lldb::SBType canon = ty.GetCanonicalType().GetUnqualifiedType();
	if (canon.GetTypeClass() != lldb::eTypeClassEnumeration)
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"%s is not an enum", type);
	lldb::SBTypeEnumMemberList list = canon.GetEnumMembers();
	if (index >= list.GetSize())
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"%s has %" PRIu32 " enumerators", type,
					list.GetSize());
	lldb::SBTypeEnumMember e = list.GetTypeEnumMemberAtIndex(index);
	if (len) {
		const char *n = e.GetName();
		snprintf(name, len, "%s", n ? n : "");
	}
	*value = e.GetValueAsSigned();
	return NULL;
}

/* ==== Expressions ======================================================= */

// A plain variable path ("m", "pass->name", "pm->module.funcs", "a[2]"),
// which frame variables answer without compiling an expression.
static bool
is_var_path(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++) {
		if (isalnum((unsigned char)*s) || *s == '_' || *s == '.' ||
		    *s == '[' || *s == ']')
			continue;
		if (s[0] == '-' && s[1] == '>') {
			s++;
			continue;
		}
		return false;
	}
	return true;
}

static bool
is_register(const char *s)
{
	if (*s != '$' || !*++s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

// Reduces @p v to the integer it stands for, as the GDB glue does: a
// pointer's or integer's value, the address of an array, struct, union or
// function; a reference stands for what it refers to.
static struct irs_error *
value_to_u64(lldb::SBValue v, uint64_t *ret)
{
	lldb::SBType ty = v.GetType().GetCanonicalType();
	if (ty.GetTypeClass() == lldb::eTypeClassReference) {
		v = v.Dereference();
		ty = v.GetType().GetCanonicalType();
	}
	switch (ty.GetTypeClass()) {
	case lldb::eTypeClassArray:
	case lldb::eTypeClassStruct:
	case lldb::eTypeClassClass:
	case lldb::eTypeClassUnion:
	case lldb::eTypeClassFunction: {
		lldb::addr_t a = v.GetLoadAddress();
		if (a == LLDB_INVALID_ADDRESS)
			return irs_error_format(IRS_ERROR_TARGET,
				"a %s value with no address",
				gdb_spelling(ty).c_str());
		*ret = a;
		return NULL;
	}
	case lldb::eTypeClassBuiltin:
		if (basic_kind(ty.GetUnqualifiedType().GetBasicType()) ==
		    IRS_TYPE_FLOAT)
			return irs_error_format(IRS_ERROR_TARGET,
				"a floating-point value (%s), not a pointer "
				"or integer", gdb_spelling(ty).c_str());
		break;
	default:
		break;
	}
	lldb::SBError err;
	uint64_t u = v.GetValueAsUnsigned(err, 0);
	if (err.Fail())
		return target_error(IRS_ERROR_TARGET,
				    one_line(err.GetCString()));
	*ret = u;
	return NULL;
}

void
target_save_args(lldb::SBFrame frame, std::map<std::string, uint64_t> &ret)
{
	lldb::SBValueList vars = frame.GetVariables(true, false, false, true);
	for (uint32_t i = 0; i < vars.GetSize(); i++) {
		lldb::SBValue v = vars.GetValueAtIndex(i);
		uint64_t u;
		const char *name = v.GetName();
		if (!name || v.GetError().Fail())
			continue;
		switch (type_kind(v.GetType())) {
		case IRS_TYPE_INT: case IRS_TYPE_UINT: case IRS_TYPE_BOOL:
		case IRS_TYPE_ENUM: case IRS_TYPE_POINTER: {
			struct irs_error *err = value_to_u64(v, &u);
			if (!err)
				ret[name] = u;
			irs_error_destroy(err);
			break;
		}
		default:
			break;
		}
	}
}

// The value argument @p name had when the boundary call @p frame is in was
// entered, if it is one.
static bool
entry_value(glue *gl, lldb::SBFrame frame, const char *name, uint64_t *ret)
{
	lldb::addr_t cfa = frame.GetCFA();
	if (cfa == LLDB_INVALID_ADDRESS)
		return false;
	std::vector<const open_call *> calls;
	for (auto it = gl->open.rbegin(); it != gl->open.rend(); ++it)
		calls.push_back(&*it);
	calls.push_back(&gl->returning);	// stopped at its return
	for (const open_call *oc : calls) {
		if (oc->cfa != cfa)
			continue;
		auto it = oc->args.find(name);
		if (it == oc->args.end())
			return false;
		*ret = it->second;
		return true;
	}
	return false;
}

static bool
is_identifier(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	while (*++s)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static struct irs_error *
eval_cb(void *arg, const char *expr, uint64_t *ret)
{
	glue *gl = from(arg);
	lldb::SBFrame frame = current_frame(gl);

	if (!frame.IsValid())
		return target_error(IRS_ERROR_STATE,
				    "no stopped process to evaluate it in");
	lldb::SBValue v;
	if (is_var_path(expr))
		v = frame.GetValueForVariablePath(expr, lldb::eNoDynamicValues);
	else if (is_register(expr))
		v = frame.FindRegister(expr + 1);
	// Anything frame variables cannot answer goes to clang.
	if (!v.IsValid() || v.GetError().Fail()) {
		lldb::SBExpressionOptions opts;
		opts.SetIgnoreBreakpoints(true);	// not our boundaries
		opts.SetUnwindOnError(true);
		opts.SetSuppressPersistentResult(true);
		opts.SetFetchDynamicValue(lldb::eNoDynamicValues);
		v = frame.EvaluateExpression(expr, opts);
	}
	if (!v.IsValid())
		return target_error(IRS_ERROR_TARGET, "no value");
	if (v.GetError().Fail()) {
		// An argument optimized away by now: its value at entry, as
		// GDB finds it through DW_OP_entry_value.
		if (is_identifier(expr) &&
		    gl->proc_uid == frame.GetThread().GetProcess()
			    .GetUniqueID() &&
		    entry_value(gl, frame, expr, ret))
			return NULL;
		return target_error(IRS_ERROR_TARGET,
				    one_line(v.GetError().GetCString()));
	}
	return value_to_u64(v, ret);
}

/* ==== Frames ============================================================ */

// Whether frame @p index lies beyond main: GDB's backtraces end at main
// (its "backtrace past-main" is off), LLDB's go on into libc and _start.
static bool
past_main(lldb::SBThread thread, uint32_t index)
{
	for (uint32_t k = 0; k < index; k++) {
		const char *fn = thread.GetFrameAtIndex(k).GetFunctionName();
		if (fn && !strcmp(fn, "main"))
			return true;
	}
	return false;
}

static struct irs_error *
frame_cb(void *arg, uint32_t index, struct irs_frame_info *ret)
{
	glue *gl = from(arg);
	lldb::SBThread thread = target_thread(gl);
	struct irs_frame_info fr = {};

	if (!thread.IsValid())
		return target_error(IRS_ERROR_NOT_FOUND, "No stack.");
	if (index >= thread.GetNumFrames() || past_main(thread, index))
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"no frame #%" PRIu32, index);
	lldb::SBFrame f = thread.GetFrameAtIndex(index);
	// The frames of inlined calls share their concrete frame's pc, as
	// GDB reports them (LLDB gives the caller the inlined call's site).
	uint32_t k = index;
	while (k > 0 && thread.GetFrameAtIndex(k - 1).IsInlined())
		k--;
	fr.pc = thread.GetFrameAtIndex(k).GetPC();
	copy_name(fr.function, sizeof(fr.function), f.GetFunctionName());
	lldb::SBLineEntry le = f.GetLineEntry();
	if (le.IsValid()) {
		lldb::SBFileSpec fs = le.GetFileSpec();
		if (fs.IsValid())
			fs.GetPath(fr.file, sizeof(fr.file));
		fr.line = le.GetLine();
	}
	*ret = fr;
	return NULL;
}

static struct irs_error *
select_frame_cb(void *arg, uint32_t index)
{
	glue *gl = from(arg);
	lldb::SBThread thread = target_thread(gl);

	if (!thread.IsValid())
		return target_error(IRS_ERROR_NOT_FOUND, "No stack.");
	if (index >= thread.GetNumFrames())
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"no frame #%" PRIu32, index);
	if (gl->in_callback)
		gl->cb_frame = index;
	else
		thread.SetSelectedFrame(index);
	return NULL;
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
		gl->core = core_file_path(process);
		gl->t.core_path = gl->core.empty() ? NULL : gl->core.c_str();
		return;
	}
	lldb::StateType st = process.GetState();
	if (st == lldb::eStateStopped || st == lldb::eStateCrashed ||
	    st == lldb::eStateSuspended)
		gl->t.pid = (int64_t)process.GetProcessID();
}

void
target_init(glue *gl)
{
	gl->t.arg = gl;
	gl->t.read = read_cb;
	gl->t.eval = eval_cb;
	gl->t.type_size = type_size_cb;
	gl->t.field = field_cb;
	gl->t.enumerator = enumerator_cb;
	gl->t.frame = frame_cb;
	gl->t.select_frame = select_frame_cb;
}

}  // namespace irsnap_lldb
