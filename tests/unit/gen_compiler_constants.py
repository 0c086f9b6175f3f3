#!/usr/bin/env python3
"""Writes tests/unit/data/compiler_constants.txt: constants of many bit
patterns printed by the real compilers, the table test_formatters.c checks
irsnap's formatters against. LLVM: globals of each type given by their
bits (0x..., 0xK..., decimal for integers), read back by opt-14 -S, which
prints them with its AsmWriter. MLIR: float attributes given by their bits,
printed by mlir-opt-14 in generic form.

Each line: KIND TYPE HEXBITS TEXT, KIND llvm or mlir. The patterns are
random (seeded, so a rerun gives the same file) with the edge cases added:
zeros, denormals, infinities, NaNs, decimals that do and do not read back.

Usage: tests/unit/gen_compiler_constants.py [OUT]   (needs opt-14, mlir-opt-14)
"""
import random
import re
import struct
import subprocess
import sys

rnd = random.Random(20240614)


def f64_bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f32_to_f64_bits(b):
    """The double LLVM's parser wants for a float constant: its value."""
    e = (b >> 23) & 0xff
    if e == 0xff:       # inf or NaN: payload shifted up
        return ((b >> 31) << 63) | (0x7ff << 52) | ((b & 0x7fffff) << 29)
    return f64_bits(struct.unpack('<f', struct.pack('<I', b))[0])


def rand_f64():
    k = rnd.random()
    if k < 0.55:        # any exponent, any significand
        return rnd.getrandbits(64) & ~(0x7ff << 52) | (rnd.randrange(0, 2047) << 52)
    if k < 0.85:        # a decimal with few digits, the usual source text
        digits = rnd.randrange(1, 10 ** rnd.randrange(1, 9))
        x = digits * 10.0 ** rnd.randrange(-30, 30)
        return f64_bits(-x if rnd.random() < 0.3 else x)
    if k < 0.93:        # denormals
        return rnd.getrandbits(52) | (rnd.getrandbits(1) << 63)
    return rnd.getrandbits(64)          # NaNs and infinities included


def rand_f32():
    k = rnd.random()
    if k < 0.55:
        return rnd.getrandbits(32) & ~(0xff << 23) | (rnd.randrange(0, 255) << 23)
    if k < 0.85:
        digits = rnd.randrange(1, 10 ** rnd.randrange(1, 7))
        x = digits * 10.0 ** rnd.randrange(-20, 20)
        try:
            return f32_bits(-x if rnd.random() < 0.3 else x)
        except OverflowError:
            return f32_bits(1.5)
    if k < 0.93:
        return rnd.getrandbits(23) | (rnd.getrandbits(1) << 31)
    return rnd.getrandbits(32)


def rand_f80():
    sign = rnd.getrandbits(1)
    k = rnd.random()
    if k < 0.8:
        e = rnd.randrange(1, 0x7fff)
        m = rnd.getrandbits(63) | (1 << 63)
    elif k < 0.9:
        e, m = 0, rnd.getrandbits(63)
    else:
        e, m = 0x7fff, rnd.choice([1 << 63, (1 << 63) | rnd.getrandbits(62) | 1])
    return (sign << 79) | (e << 64) | m


SPECIAL64 = [0, 1 << 63, 1, 0x000fffffffffffff, 0x0010000000000000,
             0x7fefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
             0x7ff8000000000000, 0x7ff4000000000000, 0xfff8000000000001,
             f64_bits(0.1), f64_bits(1e-7), f64_bits(1 / 3), f64_bits(3.25),
             f64_bits(1e100), f64_bits(123456.5), f64_bits(0.5), f64_bits(2.5e-3)]
SPECIAL32 = [0, 1 << 31, 1, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000,
             0xff800000, 0x7fc00000, 0x7fa00000, f32_bits(0.1), f32_bits(1e10),
             f32_bits(2.5e-3), f32_bits(1.0), f32_bits(-0.5)]


def llvm_cases():
    cases = []   # (type, bits, source constant)
    for b in SPECIAL64 + [rand_f64() for _ in range(1500)]:
        cases.append(('double', b, '0x%016X' % b))
    for b in SPECIAL32 + [rand_f32() for _ in range(1000)]:
        cases.append(('float', b, '0x%016X' % f32_to_f64_bits(b)))
    for b in [0, 1 << 79, 0x3fff8000000000000000] + [rand_f80() for _ in range(300)]:
        cases.append(('x86_fp80', b, '0xK%020X' % b))
    for _ in range(150):
        b = rnd.getrandbits(128)
        cases.append(('fp128', b, '0xL%016X%016X' % (b & (2 ** 64 - 1), b >> 64)))
    for _ in range(150):
        b = rnd.getrandbits(16)
        cases.append(('half', b, '0xH%04X' % b))
        cases.append(('bfloat', b, '0xR%04X' % b))
    for _ in range(600):
        w = rnd.choice([2, 3, 7, 8, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128,
                        129, 200, 256, 300])
        b = rnd.getrandbits(w)
        v = b - (1 << w) if b >> (w - 1) else b
        cases.append(('i%d' % w, b, str(v)))
    return cases


def run_llvm(cases):
    src = ''.join('@c%d = global %s %s\n' % (i, t, c) for i, (t, _, c) in enumerate(cases))
    out = subprocess.run(['opt-14', '-S', '-'], input=src, capture_output=True,
                         text=True, check=True).stdout
    printed = {}
    for line in out.splitlines():
        m = re.match(r'@c(\d+) = global \S+ (.*?)(, align \d+)?$', line)
        if m:
            printed[int(m.group(1))] = m.group(2)
    return [('llvm', t, b, printed[i]) for i, (t, b, _) in enumerate(cases)]


def mlir_cases():
    cases = []
    for b in SPECIAL64 + [rand_f64() for _ in range(1000)]:
        cases.append(('f64', b, '0x%016X' % b))
    for b in SPECIAL32 + [rand_f32() for _ in range(600)]:
        cases.append(('f32', b, '0x%08X' % b))
    for _ in range(200):
        b = rnd.getrandbits(16)
        cases.append(('bf16', b, '0x%04X' % b))
    return cases


def run_mlir(cases):
    body = ''.join('  %%c%d = "test.c"() {v = %s : %s} : () -> i1\n' % (i, c, t)
                   for i, (t, _, c) in enumerate(cases))
    src = 'func @f() {\n%s  return\n}\n' % body
    out = subprocess.run(['mlir-opt-14', '--allow-unregistered-dialect',
                          '--mlir-print-op-generic', '-'], input=src,
                         capture_output=True, text=True, check=True).stdout
    vals = re.findall(r'\{v = (.*?) : \w+\}', out)
    assert len(vals) == len(cases), (len(vals), len(cases))
    return [('mlir', t, b, v) for (t, b, _), v in zip(cases, vals)]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else 'tests/unit/data/compiler_constants.txt'
    rows = run_llvm(llvm_cases()) + run_mlir(mlir_cases())
    with open(path, 'w') as f:
        f.write('# written by tests/unit/gen_compiler_constants.py from opt-14 -S and\n'
                '# mlir-opt-14 --mlir-print-op-generic: KIND TYPE HEXBITS TEXT\n')
        for kind, t, b, text in rows:
            f.write('%s %s %x %s\n' % (kind, t, b, text))
    print('%d constants written to %s' % (len(rows), path))


main()
