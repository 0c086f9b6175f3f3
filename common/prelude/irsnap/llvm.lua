-- irsnap.llvm: LLVM's ADT containers.
--
--   local llvm = require "irsnap.llvm"
--   insts = llvm.ilist("InstList", "Instruction", { link_offset = 24 })
--   ops   = llvm.small_vector("Operands", ptr "Value")
local M = {}

-- iplist / simple_ilist member `path`: a circular list through the
-- ilist_node_base { Prev, Next } of each element, with the list's own
-- `Sentinel` as head. The node base is a base class of the element: name
-- it as a path (opts.link = "ilist_node_base": paths reach base classes by
-- name), or give its place in the element as opts.link_offset (default 0)
-- for a build without debug info or donor.
function M.ilist(path, of, opts)
  opts = opts or {}
  if type(path) ~= "string" or type(of) ~= "string" then
    error("ilist(path, type [, opts]): a member path and a type", 2)
  end
  local link, next
  if opts.link then
    link, next = opts.link, opts.next or "Next"
  else
    link, next = { offset = opts.link_offset or 0 }, opts.next_offset or 8
  end
  return list { head = path .. "." .. (opts.sentinel or "Sentinel"),
                of = of, link = link, next = next, sentinel = true }
end

-- SmallVector member `path`: BeginX and Size from SmallVectorBase.
function M.small_vector(path, of)
  if type(path) ~= "string" or of == nil then
    error("small_vector(path, of): a member path and an element", 2)
  end
  return array { ptr = path .. ".BeginX", count = path .. ".Size", of = of }
end

return M
