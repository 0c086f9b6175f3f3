-- The same backtracking, at walk time, inside a text function.
layout { name = "bomb", root = "Module" }
struct "Module" {
  fields = { nconsts = scalar "nconsts" },
  text = function(m)
    return (("a"):rep(40):gsub(("a-"):rep(20) .. "b", "x"))
  end,
}
