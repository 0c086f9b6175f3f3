-- A stripped build: no debug info, every offset and size given.
layout { name = "stripped", root = "KRoot" }

struct "KItem" {
  size = 48,
  fields = {
    v = i32(0),
    next = ptr({ offset = 8, size = 8 }, "KItem"),
    peer = ref(32, "KItem"),
    tagged = ref(40, "KItem") { mask = ~7 },
    low = bits { offset = 0, bit = 0, width = 3 },
    sign = bits { offset = 0, bit = 3, width = 4, signed = true },
  },
  text = "v={v:%+d} low={low} sign={sign} {?next}->{next}{/}",
  ref = "#{v}",
}

struct "KRoot" {
  size = 288,
  fields = {
    kind = u32(0),
    items = array { ptr = 16, count = u32(24), of = "KItem", stride = 48 },
    words = fixed { at = 32, count = 4, of = u64 {} },
    nulls = nullterm { ptr = 200, of = ptr "KItem" },
    vec = range { begin = 208, finish = 216, of = ref "KItem" },
    ring = list { head = 232, of = "KItem", link = 16, next = 8,
                  prev = 0, sentinel = true },
    first = list { head = 224, of = "KItem", link = 8, next = 0,
                   sentinel = false },
    flags = u8 { offset = 4, size = 1 },
    f = f64(8),
  },
  text = "{kind:%08x} [{items*, }] {words*,} {@nulls*;} {@vec*;} {ring} {first} {f:%g}",
}
