#!/usr/bin/env bash
# gdb/irsnap.py mirrors the structs of common/irsnap.h in ctypes; a field
# added, moved or resized on one side only would have the core read
# garbage (a callback pointer past the end of _Target). Inside the real
# GDB, every ctypes Structure of the glue that names its C struct (_c_) is
# compared, field by field, with the library's own table, irs_abi_layout().
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb

cat >"$TMP/abi.py" <<'EOF'
import ctypes, sys
glue = sys.modules["irsnap_gdb"]

class Row(ctypes.Structure):
    _fields_ = [("type", ctypes.c_char_p), ("field", ctypes.c_char_p),
                ("offset", ctypes.c_uint32), ("size", ctypes.c_uint32)]

lib = ctypes.CDLL(glue._LIB_PATH)
lib.irs_abi_layout.restype = ctypes.POINTER(Row)
rows, i = lib.irs_abi_layout(), 0
c = {}
while rows[i].type:
    r = rows[i]
    c.setdefault(r.type.decode(), {})[
        r.field.decode() if r.field else None] = (r.offset, r.size)
    i += 1
mirrors = [v for v in vars(glue).values() if isinstance(v, type) and
           issubclass(v, ctypes.Structure) and hasattr(v, "_c_")]
for m in sorted(mirrors, key=lambda m: m._c_):
    want = c.get(m._c_)
    if want is None:
        print("bad %s: no such struct in irs_abi_layout()" % m._c_)
        continue
    have = {name: (getattr(m, name).offset, getattr(m, name).size)
            for name, _ in m._fields_}
    have[None] = (0, ctypes.sizeof(m))
    diff = ["%s: C %s, ctypes %s" % (k or "sizeof", want.get(k), have.get(k))
            for k in sorted(set(want) | set(have), key=str)
            if want.get(k) != have.get(k)]
    print(("bad %s: %s" % (m._c_, "; ".join(diff))) if diff else
          "same %s (%d fields)" % (m._c_, len(m._fields_)))
EOF
run_gdb "$TMP/abi.log" -ex "source $TMP/abi.py"
check "GDB ran the comparison" grep -q '^same irs_target ' "$TMP/abi.log"
for s in irs_target irs_frame_info irs_type_facts irs_member_facts \
	irs_value_facts; do
	check "ctypes mirrors struct $s: same fields, offsets and sizes" \
		grep -q "^same $s " "$TMP/abi.log"
done
check_eq "no mirror differs from C" 0 "$(grep -c '^bad ' "$TMP/abi.log")"

# The check itself catches a mismatch: a copy of the glue whose member
# facts have a 64-bit bit_size (and so a name 4 bytes further on).
sed 's/("type", _U64), ("bit_size", _U32),/("type", _U64), ("bit_size", _U64),/' \
	"$IRSNAP_ROOT/gdb/irsnap.py" >"$TMP/irsnap.py"
check "(the broken copy differs from the glue)" \
	bash -c "! cmp -s '$IRSNAP_ROOT/gdb/irsnap.py' '$TMP/irsnap.py'"
LD_PRELOAD=$GDB_PRELOAD timeout 60 gdb -nx -q -batch \
	-ex "source $TMP/irsnap.py" -ex "source $TMP/abi.py" \
	>"$TMP/broken.log" 2>&1
check "... and a field of the wrong width is caught" \
	grep -q '^bad irs_member_facts: bit_size: .*name: ' "$TMP/broken.log"

done_testing
