-- Deltas whose sum leaves 64 bits (issue 32 item 18): the bits of the
-- kitchen leaves' doubles (6.02e23 and 3.01e23 are 0x44df... and
-- 0x44cf..., each about 5 * 10^18) read as u64 deltas; from element 11 on
-- the sum passes 2^63, a signed overflow the sanitized build stopped at.
layout { name = "overflow", root = "KRoot" }
struct "W" { size = 8, node = false,
  fields = { v = u64(0), d = delta { of = "KRoot.bits", base = "kind" } },
  text = "{d} " }
struct "KRoot" {
  fields = {
    kind = scalar "kind",
    bits = fixed { at = "leaves", of = u64 {}, count = 18 },
    ws   = fixed { at = "leaves", of = "W", count = 18 },
  },
  text = "{ws}",
}
