-- irsnap.list: intrusive linked lists (docs/layout.md, "Prelude modules").
--
--   local ilist = require "irsnap.list"
--   funcs = ilist.sentinel { head = "funcs", of = "Function", link = "link" }
--   uses  = ilist.null { first = "uses", of = "Use", link = "next" }
local M = {}

-- Raises at the caller's line when t has a key outside allowed.
local function check(t, what, allowed)
  if type(t) ~= "table" then
    error(what .. ": expected a table { ... }", 3)
  end
  for k in pairs(t) do
    if not allowed[k] then
      error(what .. ": unknown key '" .. tostring(k) .. "'", 3)
    end
  end
end

-- A circular list whose head is a sentinel link inside the owner (LLVM's
-- ilist, Linux's list_head): the walk starts at head.next and stops when it
-- comes back to the head. `link` is the link member of each element;
-- `next` (default "next") and `prev` name the pointers inside a link. With
-- `prev`, each element's back pointer is checked.
function M.sentinel(t)
  check(t, "sentinel", { head = true, of = true, link = true, next = true,
                         prev = true })
  return list { head = t.head, of = t.of, link = t.link,
                next = t.next or "next", prev = t.prev, sentinel = true }
end

-- A NULL-terminated list: `first` is the owner's pointer to the first
-- element; `link` is either the element's `T *next` member, or an embedded
-- link struct whose `next` (default "next") points at the next link.
function M.null(t)
  check(t, "null", { first = true, of = true, link = true, next = true,
                     prev = true })
  return list { head = t.first, of = t.of, link = t.link, next = t.next,
                prev = t.prev, sentinel = false }
end

return M
