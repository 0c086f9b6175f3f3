layout { name = "enums", root = "Const" }
struct "Symbol" { node = false, fields = { data = strn("data", "len") } }
struct "Const" {
  node = false,
  fields = {
    kind = enum("kind", { names = { [0] = "int", "float", "sym" } }),
    k2 = enum("kind", { type = "Const.kind", strip = "CK_", lower = true }),
    k3 = enum("kind", { strip = "CK_" }),      -- anonymous: by the member
    u = union { tag = "kind", cases = { int = scalar "u.i", float = scalar "u.f",
                sym = ptr("u.sym", "Symbol") }, default = u64 "u.i" },
  },
  text = { by = "kind", int = "{u}", float = "{u:%.6e}", sym = "@{u}",
           default = "?{kind}" },
}
