# irsnap for GDB: thin glue between GDB and libirsnap's console.
#
# Load with `source gdb/irsnap.py` (a built tree) or
# `source PREFIX/share/irsnap/gdb/irsnap.py` (installed). Every ir-* command
# is implemented once, in C (common/console*.c), for GDB and LLDB alike; this
# file only
#   - answers the core's questions about the debuggee (types, fields, enums,
#     expressions, frames, memory) from GDB, through ctypes callbacks that
#     never let a Python exception escape into C;
#   - registers the ir-* commands and `set/show irsnap ...` settings and
#     forwards their argument strings to the console;
#   - keeps internal breakpoints at the entry and at every return
#     instruction of each pass-boundary function, so that tracing records
#     before/after snapshots without stopping the user;
#   - reports fatal signals, exits and core files to the console.
# Per-node work never happens here: a gdb.Value field costs ~7 us, so the
# walk reads memory in C (process_vm_readv or the core file).

import ctypes
import os
import re
import signal
import sys

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

FATAL_SIGNALS = ("SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL")
U64 = (1 << 64) - 1


class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("is_static", ctypes.c_bool),
                ("address", ctypes.c_uint64), ("message", ctypes.c_char_p)]


class _FieldInfo(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_uint64), ("size", ctypes.c_uint64),
                ("bit_offset", ctypes.c_uint32), ("bit_size", ctypes.c_uint32),
                ("kind", ctypes.c_uint32), ("pad", ctypes.c_uint32),
                ("count", ctypes.c_uint64),
                ("type_name", ctypes.c_char * 128),
                ("target_name", ctypes.c_char * 128)]


class _FrameInfo(ctypes.Structure):
    _fields_ = [("pc", ctypes.c_uint64), ("function", ctypes.c_char * 256),
                ("file", ctypes.c_char * 512), ("line", ctypes.c_uint32),
                ("pad", ctypes.c_uint32)]


_P = ctypes.c_void_p
_READ = ctypes.CFUNCTYPE(_P, _P, ctypes.c_uint64, _P, ctypes.c_uint64)
_EVAL = ctypes.CFUNCTYPE(_P, _P, ctypes.c_char_p,
                         ctypes.POINTER(ctypes.c_uint64))
_TYPE_SIZE = ctypes.CFUNCTYPE(_P, _P, ctypes.c_char_p,
                              ctypes.POINTER(ctypes.c_uint64))
_FIELD = ctypes.CFUNCTYPE(_P, _P, ctypes.c_char_p, ctypes.c_char_p,
                          ctypes.POINTER(_FieldInfo))
_ENUMERATOR = ctypes.CFUNCTYPE(_P, _P, ctypes.c_char_p, ctypes.c_uint32, _P,
                               ctypes.c_uint64,
                               ctypes.POINTER(ctypes.c_int64))
_FRAME = ctypes.CFUNCTYPE(_P, _P, ctypes.c_uint32, ctypes.POINTER(_FrameInfo))
_SELECT_FRAME = ctypes.CFUNCTYPE(_P, _P, ctypes.c_uint32)


class _Target(ctypes.Structure):
    _fields_ = [("arg", _P), ("read", _READ), ("eval", _EVAL),
                ("type_size", _TYPE_SIZE), ("field", _FIELD),
                ("enumerator", _ENUMERATOR), ("frame", _FRAME),
                ("select_frame", _SELECT_FRAME), ("pid", ctypes.c_int64),
                ("core_path", ctypes.c_char_p), ("exe_path", ctypes.c_char_p)]


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
        "irs_error_destroy": (None, [_P]),
        "irs_error_get_code": (ctypes.c_int, [_P]),
        "irs_error_get_message": (c_char_p, [_P]),
        "irs_free": (None, [_P]),
        "irs_console_create": (_P, [ctypes.POINTER(_Target), out]),
        "irs_console_destroy": (None, [_P]),
        "irs_console_command": (_P, [_P, c_char_p, c_char_p, out]),
        "irs_console_help": (c_char_p, [c_char_p]),
        "irs_console_commands": (ctypes.POINTER(c_char_p), []),
        "irs_console_complete": (_P, [_P, c_char_p, c_char_p]),
        "irs_console_set": (_P, [_P, c_char_p, c_char_p]),
        "irs_console_get": (_P, [_P, c_char_p, out]),
        "irs_console_settings": (ctypes.POINTER(c_char_p), []),
        "irs_console_nbreaks": (ctypes.c_uint32, [_P]),
        "irs_console_break_function": (c_char_p, [_P, ctypes.c_uint32]),
        "irs_console_boundary_enter": (_P, [_P, c_char_p,
                                            ctypes.POINTER(c_bool), out]),
        "irs_console_boundary_exit": (_P, [_P, ctypes.POINTER(c_bool), out]),
        "irs_console_signal": (_P, [_P, c_int32, c_char_p, out]),
        "irs_console_exited": (_P, [_P, c_int32, out]),
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
    err = _lib.irs_error_create(code, message.encode("utf-8", "replace"))
    if err and address:
        # irs_error_create takes no address; IRS_ERROR_FAULT wants one.
        ctypes.cast(err, ctypes.POINTER(_Error)).contents.address = address
    return err


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


# }======================================================================
# Answers from GDB: types, fields, expressions, frames, memory
# =======================================================================

_type_cache = {}


def _forget_types(*_):
    _type_cache.clear()


def _lookup_base(name):
    try:
        return gdb.lookup_type(name)
    except gdb.error:
        pass
    for tag in ("struct ", "union ", "enum "):
        if not name.startswith(tag):
            try:
                return gdb.lookup_type(tag + name)
            except gdb.error:
                pass
    try:
        return gdb.parse_and_eval("(%s *)0" % name).type.target()
    except gdb.error:
        raise IrsError(E_NOT_FOUND, "no type '%s' in the debug info" % name)


def _lookup_type(name):
    """A gdb.Type for a C spelling: "Instr", "struct Block *", "char [32]"."""
    name = name.strip()
    t = _type_cache.get(name)
    if t is not None:
        return t
    m = re.match(r"^(.*?)\s*\[(\d*)\]$", name)
    if m:
        base = _lookup_type(m.group(1))
        t = base.array(int(m.group(2)) - 1) if m.group(2) else base.pointer()
    elif name.endswith("*"):
        t = _lookup_type(name[:-1]).pointer()
    else:
        t = _lookup_base(name)
    _type_cache[name] = t
    return t


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


def _bare(t):
    """"struct Instr" -> "Instr": the name a layout uses."""
    return re.sub(r"^(struct|union|enum|class) ", "", str(t))


def _find_field(t, name):
    """(field, bit position) of member @name of struct/union @t, looking
    through anonymous members, or (None, 0)."""
    for f in t.fields():
        if f.name == name:
            return f, getattr(f, "bitpos", 0)
    for f in t.fields():
        if not f.name and f.type.strip_typedefs().code in (
                gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            inner, bits = _find_field(f.type.strip_typedefs(), name)
            if inner is not None:
                return inner, getattr(f, "bitpos", 0) + bits
    return None, 0


def _fill_field(ret, ftype, bitpos, bitsize):
    st = ftype.strip_typedefs()
    size = st.sizeof
    if bitsize:
        # Describe a bitfield by its storage unit when it fits in one
        # aligned unit of its declared type, else by the bytes it spans.
        unit = size * 8
        start = (bitpos // unit) * unit if unit else bitpos
        if unit and bitpos + bitsize <= start + unit:
            ret.offset, ret.bit_offset = start // 8, bitpos - start
        else:
            ret.offset, ret.bit_offset = bitpos // 8, bitpos % 8
            size = (ret.bit_offset + bitsize + 7) // 8
        ret.bit_size = bitsize
    else:
        ret.offset, ret.bit_offset, ret.bit_size = bitpos // 8, 0, 0
    ret.size = size
    ret.kind = _kind(st)
    ret.count = 0
    if st.code == gdb.TYPE_CODE_ARRAY:
        lo, hi = st.range()
        ret.count = hi - lo + 1
    ret.type_name = str(ftype).encode()[:127]
    target = b""
    if st.code in (gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_ARRAY,
                   gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
        target = _bare(st.target()).encode()
    ret.target_name = target[:127]


@_guarded
def _cb_field(type_name, path, ret):
    type_name, path = _text(type_name), _text(path)
    t = _lookup_type(type_name)
    out = ret.contents
    if not path:
        _fill_field(out, t, 0, 0)
        return
    bitpos = 0
    field = None
    cur = t
    for part in path.split("."):
        st = cur.strip_typedefs()
        if st.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            raise IrsError(E_NOT_FOUND, "'%s' in %s: %s is not a struct or "
                           "union" % (path, type_name, st))
        field, bits = _find_field(st, part)
        if field is None:
            raise IrsError(E_NOT_FOUND, "no field '%s' in %s" %
                           (path if part == path else
                            "%s' (of '%s)" % (part, path), type_name))
        bitpos += bits
        cur = field.type
    _fill_field(out, field.type, bitpos, field.bitsize)


@_guarded
def _cb_type_size(type_name, ret):
    ret[0] = _lookup_type(_text(type_name)).sizeof


@_guarded
def _cb_enumerator(type_name, index, name_buf, length, value):
    name = _text(type_name)
    t = _lookup_type(name).strip_typedefs()
    if t.code != gdb.TYPE_CODE_ENUM:
        raise IrsError(E_NOT_FOUND, "%s is not an enum" % name)
    fields = t.fields()
    if index >= len(fields):
        raise IrsError(E_NOT_FOUND, "%s has %d enumerators" %
                       (name, len(fields)))
    if length:
        b = fields[index].name.encode()[:length - 1] + b"\0"
        ctypes.memmove(name_buf, b, len(b))
    value[0] = int(fields[index].enumval)


def _value_address(v):
    """The integer a gdb.Value stands for: a pointer's target, an array's or
    struct's address, an integer's value."""
    t = v.type.strip_typedefs()
    if t.code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
        v = v.referenced_value()
        t = v.type.strip_typedefs()
    if t.code in (gdb.TYPE_CODE_ARRAY, gdb.TYPE_CODE_STRUCT,
                  gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_FUNC):
        if v.address is None:
            raise IrsError(E_TARGET, "a %s value with no address" % t)
        return int(v.address) & U64
    if t.code == gdb.TYPE_CODE_FLT:
        raise IrsError(E_TARGET, "a floating-point value (%s), not a "
                       "pointer or integer" % t)
    return int(v) & U64


def _xstate_hint(e):
    """GDB 13 cannot call functions on AMX CPUs; say how to fix it."""
    msg = _one_line(e)
    if "extended state" in msg:
        shim = os.path.normpath(os.path.join(os.path.dirname(_LIB_PATH),
                                             "libirsnap-gdb-xstate.so"))
        msg += (" (GDB 13 on an AMX CPU: start gdb with LD_PRELOAD=%s)" %
                shim)
    return msg


@_guarded
def _cb_eval(expr, ret):
    try:
        value = gdb.parse_and_eval(_text(expr))
    except gdb.MemoryError:
        raise
    except gdb.error as e:
        raise IrsError(E_TARGET, _xstate_hint(e))
    ret[0] = _value_address(value)


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
    _frame_at(index).select()


# }======================================================================
# The console and the target it asks
# =======================================================================

_callbacks = (_READ(_cb_read), _EVAL(_cb_eval), _TYPE_SIZE(_cb_type_size),
              _FIELD(_cb_field), _ENUMERATOR(_cb_enumerator),
              _FRAME(_cb_frame), _SELECT_FRAME(_cb_select_frame))
_target = _Target(None, *_callbacks, 0, None, None)
_console = _P()
_state = {"core": None, "core_conn": None, "signal_core": None,
          "args": None, "pid": None}


def _core_path(conn):
    """The core file of connection @conn (GDB 13 has no API for it)."""
    if _state["core_conn"] == conn.num:
        return _state["core"]
    info = gdb.execute("info target", to_string=True)
    m = re.search(r"core dump file:\s*`(.*)'", info)
    _state["core_conn"] = conn.num
    _state["core"] = m.group(1) if m else None
    return _state["core"]


def _core_signal():
    try:
        signo = int(gdb.parse_and_eval("$_siginfo.si_signo"))
        return signo, signal.Signals(signo).name
    except (gdb.error, ValueError):
        return 0, None


def _gdb_args():
    """The debuggee's arguments: GDB 13's gdb.parameter("args") gives "",
    so read them from `show args`."""
    try:
        text = gdb.execute("show args", to_string=True)
    except gdb.error:
        return ""
    m = re.search(r'"(.*)"\.\s*$', text, re.S)
    return m.group(1) if m else ""


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
    if pid != _state["pid"] or not pid:
        # Arguments change only before a process starts.
        _state["pid"] = pid
        args = _gdb_args()
        if args != _state["args"]:
            _state["args"] = args
            _lib.irs_console_set(_console, b"args", args.encode())
    if core and core != _state["signal_core"]:
        # A new core file: its signal is the one ir-report records.
        _state["signal_core"] = core
        signo, name = _core_signal()
        if signo:
            _event(_lib.irs_console_signal, signo,
                   name.encode() if name else None)


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
    _sync_breakpoints()
    if err:
        raise gdb.GdbError(_take_error(err))


# }======================================================================
# Boundary breakpoints
# =======================================================================

# Per boundary function: [entry breakpoint, return breakpoints...].
_breakpoints = {}
# Open boundary calls, innermost last: (CFA, function). Pairs returns with
# entries and ignores returns from calls entered before tracing began.
_open = []


def _cfa():
    """The canonical frame address of frame 0: the caller's stack pointer as
    unwound, the same at the entry and at a `ret` of one call."""
    try:
        return int(gdb.newest_frame().older().read_register("sp"))
    except (gdb.error, AttributeError):
        return None


class _EntryBreakpoint(gdb.Breakpoint):
    def __init__(self, function):
        super().__init__(function, internal=True)
        self.function = function

    def stop(self):
        try:
            _refresh()
            _open.append((_cfa(), self.function))
            stop = ctypes.c_bool(False)
            _event(_lib.irs_console_boundary_enter, self.function.encode(),
                   ctypes.byref(stop))
            return bool(stop.value)
        except BaseException as e:     # noqa: B902 -- GDB would stop
            _print("irsnap: at %s: %s" % (self.function, _one_line(e)),
                   gdb.STDERR)
            return False


class _ReturnBreakpoint(gdb.Breakpoint):
    def __init__(self, function, spec):
        super().__init__(spec, internal=True)
        self.function = function

    def stop(self):
        try:
            cfa = _cfa()
            if not any(c == cfa or c is None for c, _ in _open):
                return False    # a call entered before we broke on it
            _refresh()
            stop = False
            while _open:
                top, _ = _open.pop()
                flag = ctypes.c_bool(False)
                _event(_lib.irs_console_boundary_exit, ctypes.byref(flag))
                stop = stop or flag.value
                if top == cfa or top is None:
                    break
            return bool(stop)
        except BaseException as e:     # noqa: B902 -- GDB would stop
            _print("irsnap: at return of %s: %s" %
                   (self.function, _one_line(e)), gdb.STDERR)
            return False


def _return_offsets(function):
    """Offsets of the return instructions in @function's code."""
    sym = gdb.lookup_global_symbol(function) or \
        gdb.lookup_static_symbol(function)
    if sym is None:
        sym = gdb.lookup_symbol(function)[0]
    if sym is None or sym.addr_class != gdb.SYMBOL_LOC_BLOCK:
        raise IrsError(E_NOT_FOUND, "no function '%s' in the debug info" %
                       function)
    block = gdb.block_for_pc(int(sym.value().address))
    while block is not None and block.function is None:
        block = block.superblock
    if block is None:
        raise IrsError(E_NOT_FOUND, "no code block for '%s'" % function)
    arch = gdb.selected_inferior().architecture()
    offsets = []
    for insn in arch.disassemble(block.start, block.end - 1):
        words = insn["asm"].split()
        if words and (words[0].startswith("ret") or
                      (len(words) > 1 and words[0] in ("rep", "repz") and
                       words[1].startswith("ret"))):
            offsets.append(insn["addr"] - block.start)
    return offsets


def _set_breakpoints(function):
    bps = [_EntryBreakpoint(function)]
    try:
        offsets = _return_offsets(function)
    except (IrsError, gdb.error) as e:
        offsets = []
        _print("irsnap: %s: %s; no after snapshots" % (function,
                                                         _one_line(e)),
               gdb.STDERR)
    if bps and not offsets:
        _print("irsnap: no return instruction found in %s; no after "
               "snapshots" % function, gdb.STDERR)
    for off in offsets:
        # "*fn+off" is re-evaluated when a PIE executable is relocated.
        bps.append(_ReturnBreakpoint(function, "*%s+%d" % (function, off)))
    return bps


def _sync_breakpoints():
    want = []
    for i in range(_lib.irs_console_nbreaks(_console)):
        fn = _lib.irs_console_break_function(_console, i)
        if fn:
            want.append(_text(fn))
    for fn in list(_breakpoints):
        if fn not in want:
            for bp in _breakpoints.pop(fn):
                if bp.is_valid():
                    bp.delete()
    for fn in want:
        if fn not in _breakpoints:
            try:
                _breakpoints[fn] = _set_breakpoints(fn)
            except gdb.error as e:
                _print("irsnap: cannot break on %s: %s" %
                       (fn, _one_line(e)), gdb.STDERR)


# }======================================================================
# Debuggee events
# =======================================================================


def _on_stop(event):
    try:
        if not isinstance(event, gdb.SignalEvent):
            return
        name = event.stop_signal
        if name not in FATAL_SIGNALS:
            return
        _refresh()
        _event(_lib.irs_console_signal, int(getattr(signal, name)),
               name.encode())
    except BaseException as e:     # noqa: B902
        _print("irsnap: on %s: %s" % (getattr(event, "stop_signal", "stop"),
                                      _one_line(e)), gdb.STDERR)


def _on_exited(event):
    try:
        del _open[:]
        code = getattr(event, "exit_code", None)
        _event(_lib.irs_console_exited, int(code) if code is not None
               else -1)
        _refresh()
    except BaseException as e:     # noqa: B902
        _print("irsnap: on exit: %s" % _one_line(e), gdb.STDERR)


def _on_new_objfile(_event_):
    _forget_types()


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
            before = words[:-1] if last else words
            if (self.name == "ir-layout" and before[:1] == ["load"]) or \
                    before[-1:] in (["-o"], ["--output"]):
                cands = _complete_file(last)
            else:
                res = _lib.irs_console_complete(_console,
                                                self.name.encode(),
                                                last.encode())
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


def _complete_file(prefix):
    """File names starting with @prefix. GDB's own filename completer only
    sees the whole argument string, which here starts with other words."""
    import glob
    path = os.path.expanduser(prefix)
    out = []
    for m in sorted(glob.glob(glob.escape(path) + "*")):
        m = prefix + m[len(path):]
        out.append(m + "/" if os.path.isdir(os.path.expanduser(m)) else m)
    return out


def _make_command(name):
    doc = _text(_lib.irs_console_help(name.encode()))
    cls = type("IrCommand_" + name.replace("-", "_"), (_IrCommand,),
               {"__doc__": doc})
    return cls(name)


class _SetPrefix(gdb.Command):
    """Change irsnap settings: dir, max-nodes, max-bytes, max-depth, format.
Example: set irsnap dir /tmp/runs"""

    def __init__(self):
        super().__init__("set irsnap", gdb.COMMAND_DATA, gdb.COMPLETE_NONE,
                         True)

    def invoke(self, arg, from_tty):
        gdb.execute("help set irsnap", from_tty)


class _ShowPrefix(gdb.Command):
    """Show irsnap settings: dir, max-nodes, max-bytes, max-depth, format."""

    def __init__(self):
        super().__init__("show irsnap", gdb.COMMAND_DATA, gdb.COMPLETE_NONE,
                         True)

    def invoke(self, arg, from_tty):
        _run("ir-set", "")


def _get_setting(key):
    out = _P()
    err = _lib.irs_console_get(_console, key.encode(), ctypes.byref(out))
    if err:
        raise gdb.GdbError(_take_error(err))
    return _take_string(out.value)


_SETTING_DOCS = {
    "dir": "the directory run directories go to (default $IRSNAP_DIR or "
           "./irsnap-out)",
    "max-nodes": "the most IR nodes one snapshot walks (K, M, G suffixes)",
    "max-bytes": "the most debuggee bytes one snapshot reads",
    "max-depth": "the deepest nesting one snapshot follows",
    "format": "the snapshot files written: text, json or both",
}


class _Setting(gdb.Parameter):
    def __init__(self, key):
        self.key = key
        self.__doc__ = "irsnap's %s setting: %s." % (key, _SETTING_DOCS[key])
        self.set_doc = "Set %s." % _SETTING_DOCS[key]
        self.show_doc = "Show %s." % _SETTING_DOCS[key]
        if key == "format":
            super().__init__("irsnap " + key, gdb.COMMAND_DATA,
                             gdb.PARAM_ENUM, ["text", "json", "both"])
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
    settings = _lib.irs_console_settings()
    i = 0
    while settings[i]:
        _Setting(_text(settings[i]))
        i += 1
    gdb.events.stop.connect(_on_stop)
    gdb.events.exited.connect(_on_exited)
    gdb.events.new_objfile.connect(_on_new_objfile)
    gdb.events.clear_objfiles.connect(_on_new_objfile)


if __name__ == "irsnap_gdb":
    _start()
