#!/usr/bin/env python3
"""Forges a real ELF core file (x86-64, as the kernel, gcore or LLDB wrote
it) the way an attacker would edit one, in place, for the hostile-core
tests (tests/e2e/test_hostile_files.sh).

usage: forge_core.py psargs CORE TEXT
         NT_PRPSINFO's command line (80 bytes, the kernel's record) := TEXT
       forge_core.py ntfile CORE OLD NEW
         every NT_FILE entry naming OLD names NEW instead (same length:
         the names lie one after another)
       forge_core.py files CORE
         prints the files NT_FILE names, one a line
"""
import struct
import sys

NT_PRPSINFO, NT_FILE = 3, 0x46494C45
PSARGS_AT, PSARGS_LEN = 56, 80       # in x86-64's prpsinfo_t


def notes(data):
    """(type, name, desc offset, desc size) of every note of every
    PT_NOTE segment."""
    assert data[:4] == b"\x7fELF" and data[4] == 2, "not an ELF64 file"
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if p_type != 4:     # PT_NOTE
            continue
        at, end = p_offset, p_offset + p_filesz
        while at + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", data, at)
            name = data[at + 12:at + 12 + namesz].rstrip(b"\0")
            desc = at + 12 + ((namesz + 3) & ~3)
            yield ntype, name, desc, descsz
            at = desc + ((descsz + 3) & ~3)


def nt_file_names(data, desc, size):
    """(offset, name) of each name of the NT_FILE note at desc."""
    count, = struct.unpack_from("<Q", data, desc)
    at = desc + 16 + count * 24
    for _ in range(count):
        end = data.index(b"\0", at, desc + size)
        yield at, data[at:end]
        at = end + 1


def main():
    what, core = sys.argv[1], sys.argv[2]
    data = bytearray(open(core, "rb").read())
    done = 0
    for ntype, name, desc, size in list(notes(data)):
        if name != b"CORE":
            continue
        if what == "psargs" and ntype == NT_PRPSINFO:
            text = sys.argv[3].encode()
            assert len(text) < PSARGS_LEN, "at most 79 bytes"
            at = desc + PSARGS_AT
            data[at:at + PSARGS_LEN] = text.ljust(PSARGS_LEN, b"\0")
            done += 1
        elif what in ("ntfile", "files") and ntype == NT_FILE:
            for at, path in list(nt_file_names(data, desc, size)):
                if what == "files":
                    print(path.decode(errors="replace"))
                elif path == sys.argv[3].encode():
                    new = sys.argv[4].encode()
                    assert len(new) == len(path), "NEW must be as long as OLD"
                    data[at:at + len(new)] = new
                    done += 1
    if what != "files":
        if not done:
            sys.exit("forge_core.py: nothing to change in " + core)
        open(core, "wb").write(data)


if __name__ == "__main__":
    main()
