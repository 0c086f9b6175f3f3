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

-- The value a node has in a DenseMap<const T *, V> (LLVM's hash map of
-- pointer keys: llvm/ADT/DenseMap.h, DenseMapInfo.h): opts.map is the path
-- from the node to the map (its last field an embed or ptr of a struct
-- with Buckets and NumBuckets, M.densemap_struct's), opts.of the value: a
-- type name when it lies in the bucket, ptr "T" or ref "T" when it is a
-- pointer. The key is the node's own address, or opts.key (a field path).
-- The map is probed as LLVM probes it: hash (p >> 4) ^ (p >> 9) of the low
-- 32 bits, quadratic probing, the empty key -1 << 12.
function M.densemap(opts)
  if type(opts) ~= "table" or not opts.map or not opts.of then
    error("densemap { map = path, of = value [, key = path] }", 2)
  end
  return lookup { map = opts.map, of = opts.of, key = opts.key,
                  buckets = "Buckets", count = "NumBuckets", value = 8,
                  hash = "pointer", probe = "quadratic",
                  empty = -1 << 12, tombstone = -2 << 12 }
end

-- The struct of a DenseMap member, for the paths densemap takes: Buckets
-- at 0, NumBuckets at 16, the same in every DenseMap<K, V>.
--   struct "DenseMap" (llvm.densemap_struct())
function M.densemap_struct()
  return { size = 24, node = false,
           fields = { Buckets = u64(0), NumBuckets = u32(16) } }
end

-- The entry of a StringMap<V> whose value (opts.size bytes, at opts.at in
-- the entry: 8, after its key length) equals field opts.key of the node:
-- a StringMap searched by value, as LLVMContext::getMDKindNames turns
-- CustomMDKindNames from names to kind ids around. Every bucket is read;
-- empty ones are NULL, removed ones -1 << 3.
function M.stringmap_find(opts)
  if type(opts) ~= "table" or not opts.map or not opts.key or not opts.of then
    error("stringmap_find { map = path, key = path, of = ptr \"Entry\" "
          .. "[, at = 8, size = 4] }", 2)
  end
  return lookup { map = opts.map, key = opts.key, of = opts.of,
                  buckets = "TheTable", count = "NumBuckets", deref = true,
                  probe = "scan", key_at = opts.at or 8,
                  key_size = opts.size or 4, tombstone = -1 << 3 }
end

-- The struct of a StringMap member: TheTable at 0, NumBuckets at 8.
function M.stringmap_struct()
  return { size = 24, node = false,
           fields = { TheTable = u64(0), NumBuckets = u32(8) } }
end

return M
