-- irsnap.std: libstdc++ containers (the GCC C++ library's layout).
--
--   local std = require "irsnap.std"
--   fields = { vals = std.vector("vals", i32 {}), name = std.string("name") }
local M = {}

-- std::vector<T> member `path`: elements from _M_start to _M_finish. `of` is
-- a layout type name (inline elements) or a field such as ptr "T", i32 {}.
function M.vector(path, of)
  if type(path) ~= "string" or of == nil then
    error("vector(path, of): a member path and an element", 2)
  end
  return range { begin = path .. "._M_impl._M_start",
                 finish = path .. "._M_impl._M_finish", of = of }
end

-- std::string member `path`: _M_dataplus._M_p and _M_string_length.
function M.string(path)
  if type(path) ~= "string" then
    error("string(path): a member path", 2)
  end
  return strn(path .. "._M_dataplus._M_p", path .. "._M_string_length")
end

return M
