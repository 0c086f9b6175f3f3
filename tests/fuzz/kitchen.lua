-- The "kitchen" layout of tests/fuzz/harness.h: every kind of field,
-- sequence, template construct and Lua hook the layout language has, so that
-- the walker fuzzer (fuzz_walker.c) drives all of them over fuzzed memory.

layout { name = "kitchen", root = "KRoot" }

local ilist = require "irsnap.list"

struct "KLeaf" {
  node = false,
  fields = {
    i64 = scalar "i64", i16 = i16 "i16", u8 = u8 "u8",
    f32 = scalar "f32", f64 = f64 "f64", b = bool "b",
    color = enum("color", { names = { red = 0, green = 5, blue = -2 } }),
    flag = scalar "flag", sbits = scalar "sbits", wide = scalar "wide",
    cstr = cstr "cstr", chars = chars "chars", data = strn("data", "len"),
  },
  text = "{i64} {i16:%04d} {u8:%x} {f32} {f64:%.3e} {b} {color} "
      .. "{flag}/{sbits}/{wide} {cstr} [{chars:%-8s}] {?data}<{data}>{/}",
}

-- The same memory rendered by a Lua function (the slow path).
struct "KLeafFn" {
  ctype = "KLeaf",
  node = false,
  fields = { i64 = scalar "i64", cstr = cstr "cstr", color = enum("color",
             { names = { [0] = "red" } }) },
  text = function(n)
    return string.format("fn(%s,%s,%s)", tostring(n.i64), tostring(n.cstr),
                         tostring(n.color))
  end,
}

struct "KItem" {
  fields = {
    v = scalar "v",
    next = ptr("next", "KItem"),
    peer = ref("peer", "KItem"),
    tagged = ref("tagged", "KItem") { mask = ~7 },
    twice = computed(function(n) return n.v * 2 end),
    d = delta { of = "KRoot.one", base = "n" },
  },
  -- the expression grammar: bitwise operators, shifts past 63, widths
  -- from expressions, len(), col(), the previous element, the root
  text = "item {v} peer={@peer} {?tagged}t={@tagged}{:}-{/} {twice}"
      .. " {=v & 0xf}|{=v << 2 | 1}|{=~v >> 1}|{=v >> 70}|{=-v ^ 3}"
      .. " {v:%*d:6 - len(twice)}{=col():%-*d:v & 7}"
      .. "{?^prev and v >= ^prev.v} up{/}{?not ^prev} first{/}"
      .. " in {^KRoot.kind} d={d}\n",
  ref = "i{v}",
}

struct "KRoot" {
  fields = {
    kind = enum("kind", { names = { [0] = "item", "num", "text" } }),
    u = union { tag = "kind", cases = {
      item = ptr("u.item", "KItem"), num = scalar "u.num", text = cstr "u.str",
    } },
    items = array { ptr = "items", count = "nitems", of = "KItem" },
    one = fixed { at = "pick", of = u32 {} },   -- a plain integer's one
    n = u32 "nitems",
    pick = index("pick", "KRoot.items"),
    leaves = fixed { at = "leaves", of = "KLeaf" },
    nulls = nullterm { ptr = "nulls", of = ptr "KItem" },
    vec = range { begin = "begin", finish = "end", of = ref "KItem" },
    first = ilist.null { first = "first", of = "KItem", link = "next" },
    ring = ilist.sentinel { head = "ring", of = "KItem", link = "link",
                            prev = "prev" },
    leaf = embed("leaf", "KLeafFn"),
    child = ptr("child", "KRoot"),
    note = computed(function(n) return n._type .. "/" .. #n.items end),
  },
  text = {
    by = "kind",
    item = "root {u}[{items*; }] pick={pick} {leaves*|}\n"
        .. "picks {items[0].v} {items[-1]} [{items[1:]*,}] [{@items[:-1]*,}]"
        .. " {=#items[1:]} {@vec[-1]} {nulls[0].v} {one[0]}"
        .. "{?items[2] and items[2].v & 1 == 1} odd{/}\n"
        .. "nulls={@nulls*,} vec={@vec*,} first={first} ring={ring}"
        .. " {leaf} {note}\n{?child}child:{child}{/}",
    num = "num {u:%d} {items} {@items*,}\n",
    default = "other {kind} {leaf.i64}\n",
  },
  ref = "root",
}

verifier { name = "peers", check = function(snap)
  local problems = {}
  for n in snap:nodes "KItem" do
    if n.peer and not snap:node(n.peer) then
      problems[#problems + 1] = "item " .. n.v .. ": dangling peer"
    end
  end
  if #snap > 0 and not snap:root() then problems[#problems + 1] = "no root" end
  return problems
end }
