# irsnap for GDB: thin glue between GDB and libirsnap's console.
#
# Load with `source gdb/irsnap.py` (a built tree) or
# `source PREFIX/share/irsnap/gdb/irsnap.py` (installed). Every ir-* command
# is implemented once, in C (common/console/), for GDB and LLDB alike; so
# is everything this file's facts become (console/frontend.c: type
# spellings, field paths, bitfields, call/return pairing, fatal signals).
# This file only
#   - hands the core GDB's raw facts (types and their members, values,
#     frames and their CFA, instructions, memory, the stop's signal)
#     through ctypes callbacks that never let a Python exception escape;
#   - sets and deletes the internal breakpoints the core asks for, and
#     reports their hits, fatal signals and exits;
#   - registers the ir-* commands and `set/show irsnap ...` settings and
#     forwards their argument strings to the console.
# Per-node work never happens here: a gdb.Value field costs ~7 us, so the
# walk reads memory in C (process_vm_readv or the core file).

import atexit
import contextlib
import ctypes
import os
import re
import signal
import sys
import threading

import gdb

# This file's own path. Not __file__: GDB's `source` runs a script with
# CPython's PyRun_SimpleFile, which sets __main__.__file__ only when it is
# unset, so sourced from inside another Python script (`gdb -x run.py`
# doing gdb.execute("source irsnap.py")) __file__ names that outer script.
_SELF = os.path.abspath(sys._getframe(0).f_code.co_filename)
_HERE = os.path.dirname(_SELF)

if __name__ == "__main__":
    # `source` runs this file as __main__, once per `source`. Run it once
    # per GDB as module irsnap_gdb instead, so that sourcing it again (a
    # ~/.gdbinit line, then by hand) keeps the commands and their state;
    # what follows in __main__ only defines names nobody uses.
    if "irsnap_gdb" in sys.modules:
        gdb.write("irsnap: already loaded\n")
    else:
        import importlib.util
        _spec = importlib.util.spec_from_file_location("irsnap_gdb",
                                                       _SELF)
        _module = importlib.util.module_from_spec(_spec)
        sys.modules["irsnap_gdb"] = _module
        try:
            _spec.loader.exec_module(_module)
        except BaseException:
            del sys.modules["irsnap_gdb"]
            raise

# enum irs_error_code
E_NOMEM, E_USAGE, E_LAYOUT, E_FAULT, E_TARGET, E_STATE, E_IO, E_FORMAT, \
    E_LIMIT, E_NOT_FOUND, E_INTERRUPTED = range(1, 12)

# enum irs_type_kind
K_OTHER, K_INT, K_UINT, K_BOOL, K_FLOAT, K_ENUM, K_POINTER, K_STRUCT, \
    K_UNION, K_ARRAY = range(10)

U64 = (1 << 64) - 1

# Mirrors of the structs of common/irsnap.h, each naming its C struct in
# _c_; tests/frontend/test_abi.sh checks them against irs_abi_layout().
_P = ctypes.c_void_p
_U32, _U64, _BOOL = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_bool


class _FrameInfo(ctypes.Structure):
    _c_ = "irs_frame_info"
    _fields_ = [("pc", _U64), ("function", ctypes.c_char * 256),
                ("file", ctypes.c_char * 512), ("line", _U32), ("pad", _U32)]


class _TypeFacts(ctypes.Structure):
    _c_ = "irs_type_facts"
    _fields_ = [("size", _U64), ("count", _U64), ("stripped", _U64),
                ("target", _U64), ("kind", _U32), ("nmembers", _U32),
                ("complete", _BOOL), ("name", ctypes.c_char * 128)]


class _MemberFacts(ctypes.Structure):
    _c_ = "irs_member_facts"
    _fields_ = [("bit_offset", _U64), ("type", _U64), ("bit_size", _U32),
                ("name", ctypes.c_char * 128)]


class _ValueFacts(ctypes.Structure):
    _c_ = "irs_value_facts"
    _fields_ = [("address", _U64), ("bits", _U64), ("kind", _U32),
                ("has_address", _BOOL), ("has_bits", _BOOL),
                ("is_function", _BOOL), ("type_name", ctypes.c_char * 128),
                ("why", ctypes.c_char * 256)]


def _fn(*args):
    return ctypes.CFUNCTYPE(_P, _P, *args)


_PTR = ctypes.POINTER


class _Target(ctypes.Structure):
    # The questions GDB leaves to the core's answers from facts are NULL.
    _c_ = "irs_target"
    _fields_ = [
        ("arg", _P), ("read", _fn(_U64, _P, _U64)), ("eval", _P),
        ("type_size", _P), ("field", _P), ("enumerator", _P),
        ("frame", _fn(_U32, _PTR(_FrameInfo))), ("select_frame", _fn(_U32)),
        ("pid", ctypes.c_int64), ("core_path", ctypes.c_char_p),
        ("exe_path", ctypes.c_char_p),
        ("type_lookup", _fn(ctypes.c_char_p, _PTR(_U64))),
        ("type_derive", _fn(_U64, _BOOL, _U64, _PTR(_U64))),
        ("type_facts", _fn(_U64, _PTR(_TypeFacts))),
        ("type_member", _fn(_U64, _U32, _PTR(_MemberFacts))),
        ("type_enumerator", _fn(_U64, _U32, _P, _U64,
                                _PTR(ctypes.c_int64))),
        ("eval_value", _fn(ctypes.c_char_p, _BOOL, _PTR(_ValueFacts))),
        ("cfa", _fn(_PTR(_U64))), ("arg_value", _P),
        ("stop_signal", _fn(_PTR(ctypes.c_int32), _P, _U64)),
        ("args", _fn(_P, _U64)), ("disassemble", _fn(ctypes.c_char_p, _P)),
        ("set_break", _fn(_U32, ctypes.c_char_p, _BOOL, _U64)),
        ("delete_break", ctypes.CFUNCTYPE(None, _P, _U32)),
        ("global", _P),
        ("symbol", _fn(ctypes.c_char_p, _PTR(_U64), _PTR(_U64))),
        ("module", _fn(_U32, _P, _U64)),
        ("load_types", _fn(ctypes.c_char_p)),
        ("elf_symbol", _P),     # the core answers it from ELF files
        ("thread", _fn(_PTR(_U64))),
        ("elf_bytes", _P)]      # the core answers it from ELF files


class IrsError(Exception):
    """An error to hand back to the core as an irs_error."""

    def __init__(self, code, message, address=0):
        super().__init__(message)
        self.code = code
        self.address = address


# {======================================================================
# The library
# =======================================================================


def _library_path():
    env = os.environ.get("IRSNAP_LIB")
    candidates = [env] if env else []
    candidates += [
        os.path.join(_HERE, "..", "build", "libirsnap.so"),  # built tree
        os.path.join(_HERE, "..", "..", "..", "lib", "libirsnap.so"),
    ]
    for path in candidates:
        if path and os.path.exists(path):
            return os.path.normpath(path)
    raise gdb.GdbError("irsnap: libirsnap.so not found (looked at %s; build "
                       "it with make, or set IRSNAP_LIB)" %
                       ", ".join(os.path.normpath(p) for p in candidates))


def _bind(lib):
    c_char_p, c_bool, c_int32 = ctypes.c_char_p, ctypes.c_bool, ctypes.c_int32
    out = ctypes.POINTER(_P)
    sigs = {
        "irs_error_create": (_P, [ctypes.c_int, c_char_p]),
        "irs_error_create_fault": (_P, [_U64, c_char_p]),
        "irs_error_destroy": (None, [_P]),
        "irs_error_get_message": (c_char_p, [_P]),
        "irs_free": (None, [_P]),
        "irs_insns_add": (None, [_P, _U64, c_char_p]),
        "irs_console_create": (_P, [ctypes.POINTER(_Target), out]),
        "irs_console_command": (_P, [_P, c_char_p, c_char_p, out]),
        "irs_console_help": (c_char_p, [c_char_p]),
        "irs_console_commands": (ctypes.POINTER(c_char_p), []),
        "irs_console_complete": (_P, [_P, c_char_p, c_char_p]),
        "irs_console_complete_args": (_P, [_P, c_char_p, c_char_p]),
        "irs_console_set": (_P, [_P, c_char_p, c_char_p]),
        "irs_console_get": (_P, [_P, c_char_p, out]),
        "irs_console_settings": (ctypes.POINTER(c_char_p), []),
        "irs_console_setting_help": (c_char_p, [c_char_p]),
        "irs_frontend_batch_mode": (c_bool, [c_char_p]),
        "irs_frontend_expr_kind": (ctypes.c_int, [c_char_p]),
        "irs_console_call_timeout": (_U32, [_P]),
        "irs_console_batch_exit": (c_int32, [_P, c_int32]),
        "irs_console_hit": (_P, [_P, _U32, ctypes.POINTER(c_bool), out]),
        "irs_console_stop": (_P, [_P, c_int32, c_char_p,
                                  ctypes.POINTER(c_bool), out]),
        "irs_console_exited": (_P, [_P, c_int32, out]),
        "irs_console_break_deleted": (c_bool, [_P, _U32]),
        "irs_console_note": (_P, [_P]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


_LIB_PATH = None     # set by _start()
_lib = None


def _text(b):
    return b.decode("utf-8", "replace") if b else ""


def _take_string(ptr):
    """A library-owned char * as str; frees it."""
    if not ptr:
        return ""
    try:
        return _text(ctypes.string_at(ptr))
    finally:
        _lib.irs_free(ptr)


def _take_error(err):
    """The message of a library-owned irs_error; frees it."""
    try:
        return _text(_lib.irs_error_get_message(err))
    finally:
        _lib.irs_error_destroy(err)


def _make_error(code, message, address=0):
    message = message.encode("utf-8", "replace")
    if code == E_FAULT and address:
        return _lib.irs_error_create_fault(address, message)
    return _lib.irs_error_create(code, message)


def _one_line(e):
    s = str(e).strip().replace("\n", " ")
    return s or type(e).__name__


def _guarded(fn):
    """Wraps a callback so that every exception becomes an irs_error: an
    exception escaping into ctypes would be printed and return NULL, which
    the core reads as success."""
    def wrapper(arg, *args):
        try:
            fn(*args)
            return None
        except IrsError as e:
            return _make_error(e.code, _one_line(e), e.address)
        except gdb.MemoryError as e:
            return _make_error(E_FAULT, _one_line(e))
        except gdb.error as e:
            return _make_error(E_TARGET, _one_line(e))
        except KeyboardInterrupt:
            return _make_error(E_INTERRUPTED, "interrupted")
        except BaseException as e:    # noqa: B902 -- nothing may escape
            try:
                return _make_error(E_TARGET, "%s: %s" %
                                   (type(e).__name__, _one_line(e)))
            except BaseException:
                return _make_error(E_TARGET, "python error")
    return wrapper


def _put(buf, length, text):
    """Copies @text, cut to a C buffer of @length bytes, into it."""
    b = text.encode("utf-8", "replace")[:max(length - 1, 0)] + b"\0"
    ctypes.memmove(buf, b, min(len(b), length))


# }======================================================================
# Facts from GDB: types, values, frames, memory
# =======================================================================

_type_cache = {}     # spelling -> gdb.Type, until the objfiles change
_handles = []        # the gdb.Type of handle i + 1, until the next lookup
_members = {}        # handle -> fields() of its stripped type


def _forget_types(*_):
    _type_cache.clear()
    _path_facts.clear()
    _state["live"] = None     # an exec: another program file


def _handle(t):
    _handles.append(t)
    return len(_handles)


def _fields(h):
    if h not in _members:
        _members[h] = _handles[h - 1].strip_typedefs().fields()
    return _members[h]


def _kind(t):
    t = t.strip_typedefs()
    code = t.code
    if code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_CHAR):
        try:
            return K_INT if t.is_signed else K_UINT
        except (AttributeError, ValueError):
            return K_UINT if str(t).startswith("unsigned") else K_INT
    return {
        gdb.TYPE_CODE_BOOL: K_BOOL, gdb.TYPE_CODE_FLT: K_FLOAT,
        gdb.TYPE_CODE_ENUM: K_ENUM, gdb.TYPE_CODE_PTR: K_POINTER,
        gdb.TYPE_CODE_REF: K_POINTER, gdb.TYPE_CODE_RVALUE_REF: K_POINTER,
        gdb.TYPE_CODE_STRUCT: K_STRUCT, gdb.TYPE_CODE_UNION: K_UNION,
        gdb.TYPE_CODE_ARRAY: K_ARRAY,
    }.get(code, K_OTHER)


@_guarded
def _cb_type_lookup(name, ret):
    del _handles[:]
    _members.clear()
    name = _text(name)
    t = _type_cache.get(name)
    if t is None:
        # A C++ name is parsed and printed as C++ even where the frame is
        # C or has no debug info (a type donor's types in a release
        # build): "llvm::Function", not "class llvm::Function".
        with _language("c++" if "::" in name else None):
            try:
                t = gdb.lookup_type(name)
            except gdb.error:
                try:
                    t = gdb.parse_and_eval("(%s *)0" % name).type.target()
                except gdb.error:
                    raise IrsError(E_NOT_FOUND, "no type '%s'" % name)
        _type_cache[name] = t
    ret[0] = _handle(t)


@contextlib.contextmanager
def _language(lang):
    """GDB's language set to @lang (None: left alone) while inside."""
    old = gdb.parameter("language") if lang else None
    if old is not None and old != lang:
        gdb.execute("set language " + lang, to_string=True)
    try:
        yield
    finally:
        if old is not None and old != lang:
            gdb.execute("set language " + old, to_string=True)


@_guarded
def _cb_symbol(name, address, ret):
    del _handles[:]
    _members.clear()
    name = _text(name)
    sym = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
    # An extern declaration (LOC_UNRESOLVED, LuaJIT's lj_ir_mode in lj_ir.h)
    # has its value through the definition's minimal symbol.
    if sym is not None and sym.symtab is not None and \
            _from_donor(sym.symtab.objfile):
        sym = None      # a type donor's globals sit at address 0
    if sym is None or not (sym.is_variable or
                           sym.addr_class == gdb.SYMBOL_LOC_UNRESOLVED):
        raise IrsError(E_NOT_FOUND, "no global variable '%s'" % name)
    try:
        address[0] = int(sym.value().address) & U64
    except gdb.error as e:
        raise IrsError(E_TARGET, _one_line(e))
    ret[0] = _handle(sym.type)


_donors = set()     # type donors loaded: their symbols are never used


def _from_donor(objfile):
    return objfile is not None and objfile.filename in _donors


@_guarded
def _cb_module(index, path, length):
    # The files GDB loaded: the program and its shared libraries (not
    # separate debug files, which have an owner, nor the vDSO, nor a type
    # donor).
    files = [o.filename for o in gdb.objfiles()
             if o.is_valid() and o.owner is None and o.filename and
             o.filename.startswith("/") and o.filename not in _donors]
    if index >= len(files):
        raise IrsError(E_NOT_FOUND, "no module #%d" % index)
    _put(path, length, files[index])


@_guarded
def _cb_load_types(path):
    path = os.path.realpath(_text(path))
    if path in _donors:
        return
    # A relocatable object: its sections at address 0, where no code of
    # the debuggee is; only its DWARF types are ever asked for.
    with _quiet_confirm():
        gdb.execute("add-symbol-file %s" % path, to_string=True)
    _donors.add(path)
    _type_cache.clear()


@contextlib.contextmanager
def _quiet_confirm():
    old = gdb.parameter("confirm")
    if old:
        gdb.execute("set confirm off")
    try:
        yield
    finally:
        if old:
            gdb.execute("set confirm on")


@_guarded
def _cb_type_derive(h, array, count, ret):
    t = _handles[h - 1]
    ret[0] = _handle(t.array(count - 1) if array else t.pointer())


_TARGETED = (gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_ARRAY, gdb.TYPE_CODE_REF,
             gdb.TYPE_CODE_RVALUE_REF)
_MEMBERED = (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_ENUM)


@_guarded
def _cb_type_facts(h, ret):
    t = _handles[h - 1]
    st = t.strip_typedefs()
    out = ret.contents
    out.size = st.sizeof
    out.kind = _kind(st)
    out.stripped = _handle(st)
    if st.code in _TARGETED:
        out.target = _handle(st.target())
    if st.code == gdb.TYPE_CODE_ARRAY:
        lo, hi = st.range()
        out.count = hi - lo + 1
    if st.code in _MEMBERED:
        out.nmembers = len(_fields(h))
    out.complete = bool(st.sizeof or out.nmembers or st.code not in
                        (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION))
    out.name = str(t).encode()[:127]


@_guarded
def _cb_type_member(h, index, ret):
    f = _fields(h)[index]
    out = ret.contents
    out.name = (f.name or "").encode()[:127]
    out.bit_offset = getattr(f, "bitpos", 0)
    out.bit_size = f.bitsize
    out.type = _handle(f.type)


@_guarded
def _cb_type_enumerator(h, index, name_buf, length, value):
    f = _fields(h)[index]
    if length:
        _put(name_buf, length, f.name)
    value[0] = int(f.enumval)


def _calls_broken():
    """GDB 13 cannot call functions on a CPU with AMX unless the xstate
    shim (gdb/xstate_fix.c) is preloaded, and a call that fails inside a
    breakpoint callback leaves GDB waiting for ever at the next stop: such
    a call must not even be tried."""
    global _broken
    if _broken is None:
        try:
            with open("/proc/cpuinfo") as f:
                amx = "amx_tile" in f.read()
            with open("/proc/self/maps") as f:
                shim = "libirsnap-gdb-xstate" in f.read()
            _broken = amx and not shim and \
                int(gdb.VERSION.split(".")[0]) <= 13
        except (OSError, ValueError):
            _broken = False
    return _broken


_broken = None


def _hint(e):
    """An evaluation error; on an AMX CPU, how to make calls work."""
    msg = _one_line(e)
    if "extended state" in msg or (_calls_broken() and
                                   "may-call-functions" in msg):
        shim = os.path.normpath(os.path.join(os.path.dirname(_LIB_PATH),
                                             "libirsnap-gdb-xstate.so"))
        msg += (" (GDB 13 on an AMX CPU: start gdb with LD_PRELOAD=%s)" %
                shim)
    return msg


# Inside a boundary stop: the user's values of the settings _evaluating
# changed, put back when the stop's work is done (_stop_settings()), so
# the two evaluations of a stop cost no `set` command each.
_stop_saved = None


def _set(k, v):
    gdb.execute("set %s %s" % (k, "on" if v else "off"))


@contextlib.contextmanager
def _evaluating(calls):
    """A layout's expressions never call into the debuggee (nor anything
    when calls cannot work); a call that faults is unwound. The user's
    settings come back afterwards."""
    if not calls or _calls_broken():
        want = {"may-call-functions": False}
    else:
        # the user's may-call-functions, should this stop have set it off
        want = {"unwindonsignal": True}
        if _stop_saved and "may-call-functions" in _stop_saved:
            want["may-call-functions"] = _stop_saved["may-call-functions"]
    old = {k: gdb.parameter(k) for k in want}
    in_stop = _stop_saved is not None and not calls
    try:
        for k, v in want.items():
            if old[k] != v:
                _set(k, v)
                if in_stop:
                    _stop_saved.setdefault(k, old[k])
        yield
    finally:
        for k, v in old.items():
            if want[k] != v and not in_stop:
                _set(k, old[k])


@contextlib.contextmanager
def _stop_settings():
    """A boundary stop's work: settings _evaluating changes stay changed
    until it is done."""
    global _stop_saved
    _stop_saved = {}
    try:
        yield
    finally:
        saved, _stop_saved = _stop_saved, None
        for k, v in saved.items():
            if gdb.parameter(k) != v:
                _set(k, v)


# What a variable path's value is, by the pc it was read at and the path:
# its static type is the same at every stop there (until the program's
# files change: _forget_types), and spelling it (str(gdb.Type)) was a
# third of what a boundary's "pass->name" cost (issue 26).
_path_facts = {}     # (pc, path) or "$reg" -> (is a reference, kind,
#                      is_function, name)


def _describe(v, out, key=None):
    facts = _path_facts.get(key) if key is not None else None
    if facts is None:
        t = v.type.strip_typedefs()
        ref = t.code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF)
        if ref:
            t = v.referenced_value().type.strip_typedefs()
        facts = (ref, _kind(t), t.code == gdb.TYPE_CODE_FUNC,
                 str(t).encode()[:127])
        if key is not None:
            _path_facts[key] = facts
    ref, out.kind, out.is_function, out.type_name = facts
    if ref:
        v = v.referenced_value()
    if v.address is not None:
        out.has_address = True
        out.address = int(v.address) & U64
    try:
        out.bits = int(v) & U64
        out.has_bits = True
    except (gdb.error, TypeError, ValueError) as e:
        out.why = _one_line(e).encode()[:255]


@contextlib.contextmanager
def _bounded(calls):
    """GDB 13 has no call timeout (direct-call-timeout came in GDB 14): a
    call into the debuggee that runs longer than the call-timeout setting
    gets SIGINT from a timer, and unwindonsignal unwinds it. (The core
    words the error.)"""
    secs = _lib.irs_console_call_timeout(_console) if calls else 0
    pid = gdb.selected_inferior().pid
    if not secs or not pid:
        yield
        return
    timer = threading.Timer(secs, _interrupt, (pid,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _interrupt(pid):
    try:
        os.kill(pid, signal.SIGINT)
    except OSError:
        pass


# One step of a variable path after its first name: a member, through a
# pointer or not, or a constant index.
_PATH_STEP = re.compile(r"(->|\.)([A-Za-z_]\w*)|\[(\d+)\]")
_EXPR_VARIABLE = 1   # enum irs_expr_kind
_EXPR_REGISTER = 2


def _stop_frame():
    """The selected frame; in a boundary stop, the one its first path
    found: each gdb.selected_frame() builds a frame object anew."""
    f = _in_stop["frame"]
    if f is None:
        f = gdb.selected_frame()
        if _in_stop["on"]:
            _in_stop["frame"] = f
    return f


_exprs = {}     # expression (bytes) -> (kind, (first name, steps) or None)
# The registers a boundary stop reads (console/framevar.c, console/abi.c)
_REGISTERS = frozenset(
    "rax rbx rcx rdx rsi rdi rbp rsp r8 r9 r10 r11 r12 r13 r14 r15 rip "
    "sp pc fp".split())


def _expr(raw, expr):
    """What the core calls expression @raw (enum irs_expr_kind) and, for
    a variable path it reads to the end, its first name and steps
    ("->" name, "." name, or an index): the same expressions come at
    every boundary stop, parsed once."""
    known = _exprs.get(raw)
    if known is not None:
        return known
    kind = _lib.irs_frontend_expr_kind(raw)
    path = None
    if kind == _EXPR_VARIABLE:
        m = re.match(r"[A-Za-z_]\w*", expr)
        steps, at = [], m.end()
        while at < len(expr):
            s = _PATH_STEP.match(expr, at)
            if not s:
                steps = None
                break
            steps.append(("[]", int(s.group(3))) if s.group(3) is not None
                         else (s.group(1), s.group(2)))
            at = s.end()
        path = (m.group(0), tuple(steps)) if steps is not None else None
    if len(_exprs) < 4096:
        _exprs[raw] = (kind, path)
    return kind, path


def _simple(expr, path):
    """The value of @expr, variable path @path (from _expr(): what
    boundaries give: "pm->module", "f", "a[2].x"), read as GDB's
    evaluator would, without it: its parser, evaluator and the setting
    changes around them cost a boundary stop most of its time (a third of
    a million instructions an expression), and the pc it was read at (for
    _describe). None when this way fails: GDB's own evaluation then says
    what it says."""
    try:
        f = _stop_frame()
        v = f.read_var(path[0])
        for op, arg in path[1]:
            if op == "[]":
                v = v[arg]
            elif op == "->":
                v = v.dereference()[arg]
            else:
                v = v[arg]
        return v, (f.pc(), expr)
    except (ValueError, KeyError, TypeError, gdb.error):
        return None


@_guarded
def _cb_eval_value(expr, calls, ret):
    try:
        raw, expr = expr, _text(expr)
        kind, path = _expr(raw, expr)
        found = _simple(expr, path) if not calls and path else None
        if found is not None:
            _describe(found[0], ret.contents, found[1])
            return
        if not calls and kind == _EXPR_REGISTER:
            # "$sp": a register (or convenience variable) calls nothing,
            # so it needs none of _evaluating's `set` commands, and
            # parse_and_eval reads it from frame 0 without the frame
            # object (and the unwinding of frame 1) read_register needs.
            # A register's type is its name's (spelling it is costly); a
            # convenience variable's is whatever it holds now.
            v = gdb.parse_and_eval(expr)
            _describe(v, ret.contents,
                      expr if expr[1:] in _REGISTERS else None)
            return
        with _evaluating(calls), _bounded(calls):
            _describe(gdb.parse_and_eval(expr), ret.contents)
    except gdb.MemoryError:
        raise
    except gdb.error as e:
        raise IrsError(E_TARGET, _hint(e))


@_guarded
def _cb_read(address, buf, count):
    try:
        data = gdb.selected_inferior().read_memory(address, count)
    except gdb.MemoryError as e:
        raise IrsError(E_FAULT, _one_line(e), address)
    ctypes.memmove(buf, bytes(data), count)


def _frame_at(index):
    f = gdb.newest_frame()
    for _ in range(index):
        f = f.older()
        if f is None:
            raise IrsError(E_NOT_FOUND, "no frame #%d" % index)
    return f


@_guarded
def _cb_frame(index, ret):
    try:
        f = _frame_at(index)
    except gdb.error as e:      # no stack at all
        raise IrsError(E_NOT_FOUND, _one_line(e))
    out = ret.contents
    out.pc = f.pc() & U64
    out.function = (f.name() or "").encode()[:255]
    sal = f.find_sal()
    # fullname(): absolute, as LLDB reports it, so reports compare equal
    out.file = (sal.symtab.fullname() if sal and sal.symtab
                else "").encode()[:511]
    out.line = sal.line if sal and sal.line else 0


@_guarded
def _cb_select_frame(index):
    _in_stop["frame"] = None
    _frame_at(index).select()


_FRAME_CFA = re.compile(r"stack=(0x[0-9a-fA-F]+)")


@_guarded
def _cb_cfa(ret):
    # The caller's stack pointer as unwound: the same at the entry and at
    # a `ret` of one call. GDB's id of frame 0, which it builds at every
    # stop anyway, holds it ("{stack=0x7ffe...,code=...}"); unwinding to
    # frame 1 for its sp doubled what a boundary stop costs the glue.
    f = gdb.newest_frame()
    m = _FRAME_CFA.search(str(f))
    ret[0] = (int(m.group(1), 16) if m else
              int(f.older().read_register("sp"))) & U64


@_guarded
def _cb_thread(ret):
    # (pid, lwp, tid): the LWP is the system's id of the thread
    th = gdb.selected_thread()
    ret[0] = th.ptid[1] if th is not None else 0


@_guarded
def _cb_stop_signal(signo, name, length):
    try:
        signo[0] = int(gdb.parse_and_eval("$_siginfo.si_signo"))
        _put(name, length, signal.Signals(signo[0]).name)
    except (gdb.error, ValueError):
        signo[0] = 0


@_guarded
def _cb_args(buf, length):
    # GDB 13's gdb.parameter("args") gives "": read `show args`.
    text = gdb.execute("show args", to_string=True)
    m = re.search(r'"(.*)"\.\s*$', text, re.S)
    _put(buf, length, m.group(1) if m else "")


@_guarded
def _cb_disassemble(function, sink):
    function = _text(function)
    sym = gdb.lookup_global_symbol(function) or \
        gdb.lookup_static_symbol(function)
    if sym is None:
        sym = gdb.lookup_symbol(function)[0]
    if sym is not None and sym.symtab is not None and \
            _from_donor(sym.symtab.objfile):
        sym = None
    if sym is None or sym.addr_class != gdb.SYMBOL_LOC_BLOCK:
        raise IrsError(E_NOT_FOUND, "no function '%s' in the debug info" %
                       function)
    block = gdb.block_for_pc(int(sym.value().address))
    while block is not None and block.function is None:
        block = block.superblock
    if block is None:
        raise IrsError(E_NOT_FOUND, "no code block for '%s'" % function)
    arch = gdb.selected_inferior().architecture()
    for insn in arch.disassemble(block.start, block.end - 1):
        _lib.irs_insns_add(sink, insn["addr"] - block.start,
                           insn["asm"].encode())


# }======================================================================
# Boundary breakpoints: the core sets them and decides at each hit
# =======================================================================

_breakpoints = {}    # id -> _Break
_in_stop = {"on": False, "frame": None}     # a boundary stop's, _stop_frame


class _Break(gdb.Breakpoint):
    # Ordinary numbered breakpoints, not internal ones: a stop then says
    # "Breakpoint 2, pm_run_pass (...)" (an internal one's "Breakpoint -1"
    # means nothing to a user), and `info breakpoints` shows where irsnap
    # stops the debuggee.
    def __init__(self, spec, id_):
        super().__init__(spec, internal=False)
        self.irs_id = id_
        self.irs_deleting = False

    def stop(self):
        try:
            _refresh_at_stop()
            stop = ctypes.c_bool(False)
            _in_stop["on"] = True
            with _stop_settings():
                _event(_lib.irs_console_hit, self.irs_id,
                       ctypes.byref(stop))
            return bool(stop.value)
        except BaseException as e:     # noqa: B902 -- GDB would stop
            _print("irsnap: at %s: %s" % (self.location, _one_line(e)),
                   gdb.STDERR)
            return False
        finally:
            _in_stop["on"] = False
            _in_stop["frame"] = None


_making = []     # (spec, id) of the breakpoint _make_break() makes


def _make_break():
    spec, id_ = _making.pop()
    _breakpoints[id_] = _Break(spec, id_)


@_guarded
def _cb_set_break(id_, function, entry, at):
    # "*fn+off" is re-evaluated when a PIE executable is relocated; no
    # function: an address of this process (a return address).
    function = _text(function) if function else None
    spec = "*0x%x" % at if not function else \
        function if entry else "*%s+%d" % (function, at)
    if gdb.parameter("verbose"):
        _breakpoints[id_] = _Break(spec, id_)
        return
    # GDB says "Breakpoint N at ..." for each (and "not defined ...
    # pending" for a C++ function of a library not loaded yet), a hundred
    # lines for a layout of a hundred pass functions: made inside a
    # command whose output is kept (ir-trace says how many; `info
    # breakpoints` lists them; `set verbose on` lets GDB say each).
    _making.append((spec, id_))
    try:
        gdb.execute("python import irsnap_gdb; irsnap_gdb._make_break()",
                    to_string=True)
    finally:
        del _making[:]


def _cb_delete_break(_arg, id_):
    try:
        bp = _breakpoints.pop(id_, None)
        if bp is not None and bp.is_valid():
            bp.irs_deleting = True
            bp.delete()
    except BaseException:     # noqa: B902 -- a void callback: nothing to say
        pass


def _on_breakpoint_deleted(bp):
    # The user deleted one of irsnap's breakpoints (`delete`, `clear`):
    # the core forgets it (the next ir-break or ir-trace sets it again)
    # and has a line to say, printed once GDB is done with its own (`clear`
    # is in the middle of "Deleted breakpoint 1 2 " now): before the next
    # prompt, or as the program goes on (batch mode has no prompt). Not
    # through gdb.post_event: one still queued when GDB exits crashed it.
    try:
        if isinstance(bp, _Break) and not bp.irs_deleting:
            _breakpoints.pop(bp.irs_id, None)
            _lib.irs_console_break_deleted(_console, bp.irs_id)
    except BaseException:     # noqa: B902 -- an observer must not raise
        pass


def _say_note(*_):
    """What the core has to say between commands, before the prompt."""
    try:
        _print(_take_string(_lib.irs_console_note(_console)))
    except BaseException as e:     # noqa: B902
        _print("irsnap: %s" % _one_line(e), gdb.STDERR)


# }======================================================================
# The console and the target it asks
# =======================================================================

_target = _Target(**{name: dict(_Target._fields_)[name](fn) for name, fn in {
    "read": _cb_read, "frame": _cb_frame, "select_frame": _cb_select_frame,
    "type_lookup": _cb_type_lookup, "type_derive": _cb_type_derive,
    "type_facts": _cb_type_facts, "type_member": _cb_type_member,
    "type_enumerator": _cb_type_enumerator, "eval_value": _cb_eval_value,
    "cfa": _cb_cfa, "stop_signal": _cb_stop_signal, "args": _cb_args,
    "disassemble": _cb_disassemble, "set_break": _cb_set_break,
    "delete_break": _cb_delete_break, "symbol": _cb_symbol,
    "module": _cb_module, "load_types": _cb_load_types,
    "thread": _cb_thread}.items()})
_console = _P()
_state = {"core": None, "core_conn": None, "live": None}


def _core_path(conn):
    """The core file of connection @conn (GDB 13 has no API for it)."""
    if _state["core_conn"] == conn.num:
        return _state["core"]
    info = gdb.execute("info target", to_string=True)
    m = re.search(r"core dump file:\s*`(.*)'", info)
    _state["core_conn"] = conn.num
    _state["core"] = m.group(1) if m else None
    return _state["core"]


def _refresh():
    """Points the target at the process or core file GDB has now."""
    inf = gdb.selected_inferior()
    conn = getattr(inf, "connection", None)
    kind = conn.type if conn is not None else None
    core = _core_path(conn) if kind == "core" else None
    pid = inf.pid if kind == "native" else 0
    exe = inf.progspace.filename if inf.progspace else None
    _target.pid = pid or 0
    _target.core_path = core.encode() if core else None
    _target.exe_path = exe.encode() if exe else None
    _state["live"] = (inf.num, pid) if pid else None


def _refresh_at_stop():
    """_refresh() at a boundary stop: the live process the last one
    found needs none of its questions asked again (until the program's
    files change: _forget_types)."""
    inf = gdb.selected_inferior()
    live = _state["live"]
    if live is None or live[0] != inf.num or live[1] != inf.pid:
        _refresh()


def _print(text, stream=None):
    if text:
        gdb.write(text if text.endswith("\n") else text + "\n",
                  stream if stream is not None else gdb.STDOUT)


def _event(fn, *args):
    """Calls a console event function; prints its output and error."""
    out = _P()
    err = fn(_console, *args, ctypes.byref(out))
    _print(_take_string(out.value))
    if err:
        _print(_take_error(err), gdb.STDERR)


def _run(name, arg):
    _refresh()
    out = _P()
    err = _lib.irs_console_command(_console, name.encode(),
                                   (arg or "").encode(), ctypes.byref(out))
    _print(_take_string(out.value))
    if err:
        raise gdb.GdbError(_take_error(err))


# }======================================================================
# Debuggee events
# =======================================================================


def _on_stop(event):
    try:
        if not isinstance(event, gdb.SignalEvent):
            return
        name = event.stop_signal
        _refresh()
        fatal = ctypes.c_bool(False)
        _event(_lib.irs_console_stop, int(getattr(signal, name, 0)),
               name.encode(), ctypes.byref(fatal))
    except BaseException as e:     # noqa: B902
        _print("irsnap: on %s: %s" % (getattr(event, "stop_signal", "stop"),
                                      _one_line(e)), gdb.STDERR)


_exit = {"code": 0}


def _on_gdb_exiting(event):
    _exit["code"] = getattr(event, "exit_code", None) or 0


def _at_exit():
    """`gdb -batch` exits with its last command's status; LLDB's -b with
    128 + N when the program died of signal N, and 1 after a failed
    command. irsnap's rule (irs_console_batch_exit) makes GDB agree: it
    runs last, after GDB killed the program, and ends GDB with it."""
    sys.stdout.flush()
    sys.stderr.flush()
    status = _lib.irs_console_batch_exit(_console, _exit["code"]) \
        if _lib else 0
    if status:     # GDB's own stdio buffers flushed by then
        os._exit(status)


def _on_exited(event):
    try:
        code = getattr(event, "exit_code", None)
        _event(_lib.irs_console_exited, int(code) if code is not None
               else -1)
        _refresh()
    except BaseException as e:     # noqa: B902
        _print("irsnap: on exit: %s" % _one_line(e), gdb.STDERR)


# }======================================================================
# Commands and settings
# =======================================================================


class _IrCommand(gdb.Command):
    def __init__(self, name):
        super().__init__(name, gdb.COMMAND_DATA)
        self.name = name

    def invoke(self, arg, from_tty):
        self.dont_repeat()
        _run(self.name, arg)

    def complete(self, text, word):
        try:
            words = text.split()
            last = "" if not text or text[-1].isspace() else words[-1]
            res = _lib.irs_console_complete_args(_console, self.name.encode(),
                                                 text.encode())
            cands = [c for c in _take_string(res).split("\n") if c]
            if not cands and self.name in ("ir-dump", "ir-verify") and \
                    not last.startswith("-"):
                return gdb.COMPLETE_EXPRESSION
            # GDB replaces `word`, which may be shorter than our word
            # ("-" separates words for GDB).
            cut = len(last) - len(word or "")
            return [c[cut:] for c in cands]
        except BaseException:     # noqa: B902 -- completion must not fail
            return []


def _make_command(name):
    doc = _text(_lib.irs_console_help(name.encode()))
    cls = type("IrCommand_" + name.replace("-", "_"), (_IrCommand,),
               {"__doc__": doc})
    return cls(name)


def _setting_keys():
    keys, settings, i = [], _lib.irs_console_settings(), 0
    while settings[i]:
        keys.append(_text(settings[i]))
        i += 1
    return keys


class _SetPrefix(gdb.Command):
    def __init__(self):
        # every setting the core has, call-timeout and max-text too
        self.__doc__ = ("Change irsnap settings: %s.\n"
                        "Example: set irsnap dir /tmp/runs" %
                        ", ".join(_setting_keys()))
        super().__init__("set irsnap", gdb.COMMAND_DATA, gdb.COMPLETE_NONE,
                         True)

    def invoke(self, arg, from_tty):
        gdb.execute("help set irsnap", from_tty)


class _ShowPrefix(gdb.Command):
    def __init__(self):
        self.__doc__ = ("Show irsnap settings: %s." %
                        ", ".join(_setting_keys()))
        super().__init__("show irsnap", gdb.COMMAND_DATA, gdb.COMPLETE_NONE,
                         True)

    def invoke(self, arg, from_tty):
        # GDB's own sentences, as `show irsnap KEY` prints one
        for key in _setting_keys():
            _print("irsnap %s is %s." % (key, _get_setting(key)))


class _Overview(gdb.Command):
    """The irsnap commands at a glance (`help irsnap`, `help ir`)."""

    def __init__(self):
        lines = ["irsnap: the compiler's IR read from the debuggee's "
                 "memory at its pass boundaries.",
                 "Commands (help ir-NAME shows one):"]
        names, i = _lib.irs_console_commands(), 0
        while names[i]:
            name = _text(names[i])
            lines.append("  %-10s -- %s" % (name, _text(
                _lib.irs_console_help(name.encode())).split("\n")[0]))
            i += 1
        lines += ["Settings: set irsnap KEY VALUE, show irsnap [KEY] "
                  "(help set irsnap).",
                  "info irsnap: the run and its passes (as ir-status)."]
        self.__doc__ = "\n".join(lines)
        super().__init__("irsnap", gdb.COMMAND_SUPPORT)

    def invoke(self, arg, from_tty):
        self.dont_repeat()
        gdb.execute("help irsnap", from_tty)


class _InfoIrsnap(gdb.Command):
    """The run directory, the passes traced with their CPU times, the
layout and the break and trace requests (the same as ir-status).
Usage: info irsnap"""

    def __init__(self):
        super().__init__("info irsnap", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        self.dont_repeat()
        _run("ir-status", arg)


def _get_setting(key):
    out = _P()
    err = _lib.irs_console_get(_console, key.encode(), ctypes.byref(out))
    if err:
        raise gdb.GdbError(_take_error(err))
    return _take_string(out.value)


class _Setting(gdb.Parameter):
    def __init__(self, key):
        self.key = key
        doc = _text(_lib.irs_console_setting_help(key.encode()))
        self.__doc__ = "irsnap's %s setting: %s." % (key, doc)
        self.set_doc = "Set %s." % doc
        self.show_doc = "Show %s." % doc
        if key == "format":
            super().__init__("irsnap " + key, gdb.COMMAND_DATA,
                             gdb.PARAM_ENUM, ["auto", "text", "json", "both"])
        else:
            super().__init__("irsnap " + key, gdb.COMMAND_DATA,
                             gdb.PARAM_STRING)
        self.value = _get_setting(key)
        self.previous = self.value

    def get_set_string(self):
        value = "" if self.value is None else str(self.value)
        err = _lib.irs_console_set(_console, self.key.encode(),
                                   value.encode())
        if err:
            self.value = self.previous
            raise gdb.GdbError(_take_error(err))
        self.previous = self.value
        return ""

    def get_show_string(self, svalue):
        return "irsnap %s is %s." % (self.key, _get_setting(self.key))


# }======================================================================
# Start-up
# =======================================================================


def _start():
    global _LIB_PATH, _lib
    _LIB_PATH = _library_path()
    _lib = _bind(ctypes.CDLL(_LIB_PATH))
    err = _lib.irs_console_create(ctypes.byref(_target),
                                  ctypes.byref(_console))
    if err:
        raise gdb.GdbError(_take_error(err))
    _lib.irs_console_set(_console, b"debugger", ("gdb " + gdb.VERSION.split()
                                                 [0]).encode())
    names = _lib.irs_console_commands()
    i = 0
    while names[i]:
        _make_command(_text(names[i]))
        i += 1
    _SetPrefix()
    _ShowPrefix()
    _Overview()
    # `help ir` names the overview rather than being ambiguous among the
    # ir-* commands (a command's own name, ir-dump, is still one word)
    gdb.execute("alias ir = irsnap", to_string=True)
    _InfoIrsnap()
    settings = _lib.irs_console_settings()
    i = 0
    while settings[i]:
        _Setting(_text(settings[i]))
        i += 1
    gdb.events.stop.connect(_on_stop)
    gdb.events.exited.connect(_on_exited)
    gdb.events.breakpoint_deleted.connect(_on_breakpoint_deleted)
    gdb.events.before_prompt.connect(_say_note)
    gdb.events.cont.connect(_say_note)
    if _lib.irs_frontend_batch_mode(b"-batch --batch -batch-silent "
                                    b"--batch-silent"):
        gdb.events.gdb_exiting.connect(_on_gdb_exiting)
        atexit.register(_at_exit)
    gdb.events.new_objfile.connect(_forget_types)
    gdb.events.clear_objfiles.connect(_forget_types)


if __name__ == "irsnap_gdb":
    _start()
