-- Writes a Lua 5.4 chunk of about N lines (default 50000) to stdout, the
-- same bytes for the same N: functions with loops, arithmetic on integer
-- and float constants, strings short and long, tables, upvalues and calls,
-- for the `ir-dump` against `luac -l -l` benchmark (scripts/bench).
-- Usage: lua gen_lua54.lua [N]
local n = tonumber(arg[1]) or 50000
local out, lines = {}, 0
local function emit(s) out[#out + 1] = s; lines = lines + 1 end
emit("local acc, names = 0, {}")
local f = 0
while lines < n - 15 do
  f = f + 1
  emit("do")
  emit(("local function f%d(a, b, ...)"):format(f))
  emit("  local nva = select('#', ...)")
  emit(("  local t = { %d, %d.5, \"k%d\", x = a, y = b }"):format(f, f, f))
  emit(("  for i = 1, %d do"):format(f % 97 + 3))
  emit(("    acc = acc + i * %d // 3 + (a or 0) %% %d"):format(f % 13 + 1, f % 7 + 2))
  emit(("    if i > %d then t[#t + 1] = i * 0.25 else t.x = (t.x or 0) + %d end"):format(f % 11, f))
  emit("  end")
  emit(("  local s = \"f%d: a string constant long enough to be a long string, %d\""):format(f, f))
  emit("  local function inner(c) return c .. s, nva end")
  emit(("  names[%d] = inner(tostring(a)) .. (b and \"b\" or \"nob\")"):format(f))
  emit(("  return t, acc & 0x%x, acc >> 2, -a, not b"):format(f % 255 + 1))
  emit("end")
  emit(("f%d(%d, %s)"):format(f, f, f % 2 == 0 and "true" or "nil"))
  emit("end")
end
emit("print(acc, #names)")
io.write(table.concat(out, "\n"), "\n")
