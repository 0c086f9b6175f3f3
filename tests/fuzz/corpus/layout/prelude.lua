-- The prelude modules over the kitchen types (the std and llvm ones look
-- for libstdc++ and LLVM members, which these types lack).
layout { name = "prelude", root = "KRoot" }
local list = require "irsnap.list"
local std = require "irsnap.std"
local llvm = require "irsnap.llvm"

struct "KItem" { fields = { v = scalar "v" }, text = "{v}" }
struct "KRoot" {
  fields = {
    ring = list.sentinel { head = "ring", of = "KItem", link = "link",
                           prev = "prev" },
    first = list.null { first = "first", of = "KItem", link = "next" },

  },
  text = "{ring*,} / {first*,}",
}
