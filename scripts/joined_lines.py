#!/usr/bin/env python3
"""Lines of a reduced file that are not a line of its input, edited.

A reducer's result keeps its input's lines (issue 30): every line of it is
one line of the input with words cut out, names renumbered or replaced by
constants, not two lines run together. This checks that the way a person
would: a result line passes when its tokens, with every value (a %name,
@name, #N, !N, number, string or constant) seen as one kind of token, an
integer type as another (LLVM's printer may rewrite a call's types) and
`define` as `declare`, are a subsequence of some input line's (a word's
dotted parts count as tokens of their own: `x = ...` is `p.x = ...` cut). Comment lines (';'
in LLVM IR) and blank ones are left out, and the source_filename line LLVM's
printer writes.

Usage: scripts/joined_lines.py INPUT RESULT   (exit 1 and the lines that
are not an input line's, one per line, when there are any)
As a module: joined(input_bytes, result_bytes, comment) -> [lines].
"""
import re
import sys

TOKEN = re.compile(rb'[A-Za-z0-9_.$%@^-]+|"(?:[^"\\\n]|\\.)*"?|\S')
INT_TYPE = re.compile(rb'^i[0-9]+$')
VALUE = re.compile(rb'^([%@#!^]\S*|-?[0-9][0-9A-Za-z_.]*|"[^\n]*|null|undef|'
                   rb'poison|zeroinitializer|true|false)$')


DOTTED = re.compile(rb'[^.]+|\.')


def parts(line):
    """Tokens, a word's dotted parts apart (Lua's `p.x` may lose `p.`)."""
    for t in TOKEN.findall(line):
        if t.startswith(b'"') or b"." not in t:
            yield t
        else:
            yield from DOTTED.findall(t)


def norm(line):
    out = []
    for t in parts(line):
        if VALUE.match(t):
            t = b"V"
        elif INT_TYPE.match(t):
            t = b"iN"	# a type LLVM's auto-upgrade rewrote
        elif t == b"define":
            t = b"declare"
        out.append(t)
    return tuple(out)


def subsequence(small, big):
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def lines(data, comment):
    for raw in data.split(b"\n"):
        s = raw.strip()
        if s and not (comment and (s.startswith(comment) or
                                   s.startswith(b"source_filename ="))):
            yield raw


def joined(input_bytes, result_bytes, comment=None):
    inputs = {}
    for line in lines(input_bytes, comment):
        n = norm(line)
        inputs.setdefault(n[0] if n else b"", []).append(n)
    bad = []
    for line in lines(result_bytes, comment):
        n = norm(line)
        cands = [c for k, v in inputs.items() for c in v] if not n else \
            [c for k, v in inputs.items() for c in v if n[0] in c]
        if not any(subsequence(n, c) for c in cands):
            bad.append(line.decode("utf-8", "replace"))
    return bad


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n\n")[2], file=sys.stderr)
        return 2
    inp, res = (open(p, "rb").read() for p in sys.argv[1:])
    comment = b";" if sys.argv[1].endswith(".ll") else None
    bad = joined(inp, res, comment)
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
