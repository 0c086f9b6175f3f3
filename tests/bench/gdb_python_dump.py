# The benchmark's baseline: toyc's module printed by a plain GDB Python walk
# over gdb.Value fields, the way pretty-printers read data structures.
#
# It is written the straightforward way on purpose, as someone would write
# a pretty-printer: types and the opcode table are looked up once, then
# every field is read through gdb.Value. It prints the same text as
# toyc_print() (tests/fixtures/toyc/print.c), byte for byte; the benchmark
# checks that, or it would not be the same work.
#
# Usage, in GDB stopped where a Module * is in scope:
#   (gdb) source tests/bench/gdb_python_dump.py
#   (gdb) bench-py-dump m /tmp/m.ir
import gdb


def _ilist(head, ptr_type):
    # An intrusive list with a sentinel: head is the sentinel IListNode
    # (a value inside the owner); each element's link is its first member.
    sentinel = head.address
    node = head["next"]
    while node != sentinel:
        yield node.cast(ptr_type).dereference()
        node = node["next"]


class ModulePrinter:
    def __init__(self):
        self.func_p = gdb.lookup_type("Function").pointer()
        self.block_p = gdb.lookup_type("Block").pointer()
        self.instr_p = gdb.lookup_type("Instr").pointer()
        self.opnames = {}
        for f in gdb.lookup_type("Opcode").fields():
            self.opnames[f.enumval] = f.name[3:].lower()
        # Const.kind is an anonymous enum bitfield: its type by the member
        ck = [f for f in gdb.lookup_type("Const").fields()
              if f.name == "kind"][0].type
        self.ck = {f.name: f.enumval for f in ck.fields()}
        opk = gdb.lookup_type("OperandKind")
        self.opk = {f.name: f.enumval for f in opk.fields()}

    @staticmethod
    def symbol(sym):
        return sym["data"].string(length=int(sym["len"]))

    @staticmethod
    def value(ins):
        name = ins["name"]
        if name:
            return "%" + name.string()
        return "%" + str(int(ins["id"]))

    def const(self, m, cidx):
        if cidx >= int(m["nconsts"]):
            return "<bad const>"
        k = m["consts"][cidx]
        kind = int(k["kind"])
        if kind == self.ck["CK_INT"]:
            return str(int(k["u"]["i"]))
        if kind == self.ck["CK_FLOAT"]:
            return "%.6e" % float(k["u"]["f"])
        return "@" + self.symbol(k["u"]["sym"].dereference())

    def operand(self, m, op):
        kind = int(op["kind"])
        if kind == self.opk["OPK_VALUE"]:
            return self.value(op["u"]["def"].dereference())
        if kind == self.opk["OPK_CONST"]:
            return self.const(m, int(op["u"]["cidx"]))
        return "^" + op["u"]["block"]["label"].string()

    def function(self, m, f, out):
        out.write("\nfunc @" + self.symbol(f["name"].dereference()) + "(")
        params = f["params"]
        out.write(", ".join(self.value(params[k].dereference())
                            for k in range(int(f["nparams"]))))
        out.write(") {\n")
        for b in _ilist(f["blocks"], self.block_p):
            out.write(b["label"].string() + ":\n")
            for ins in _ilist(b["insts"], self.instr_p):
                line = "  "
                if int(ins["has_result"]):
                    line += self.value(ins) + " = "
                line += self.opnames.get(int(ins["op"]), "?")
                ops = ins["ops"]
                n = int(ins["nops"])
                if n:
                    line += " " + ", ".join(
                            self.operand(m, ops[k])
                            for k in range(n))
                out.write(line + "\n")
        out.write("}\n")

    def module(self, m, out):
        out.write("module @" + self.symbol(m["name"].dereference())
                  + "\n")
        for f in _ilist(m["funcs"], self.func_p):
            self.function(m, f, out)


class BenchPyDump(gdb.Command):
    """Print toyc's module with a plain gdb.Value walk.
Usage: bench-py-dump EXPR PATH
Example: bench-py-dump m /tmp/m.ir"""

    def __init__(self):
        super().__init__("bench-py-dump", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if len(argv) != 2:
            raise gdb.GdbError("usage: bench-py-dump EXPR PATH")
        m = gdb.parse_and_eval(argv[0]).dereference()
        with open(argv[1], "w") as out:
            ModulePrinter().module(m, out)


BenchPyDump()
