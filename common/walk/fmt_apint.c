// Integers of any width as LLVM's APInt::print writes them: decimal,
// two's complement when signed (a ConstantInt is printed signed, so an
// i8 holding 255 is -1, and an i128 of 2^127 is
// -170141183460469231731687303715884105728).
#include "walk/walk.h"

bool
irs_fmt_apint(const uint64_t *words, uint32_t bits, bool is_signed,
	      struct irs_buf *out)
{
	struct irs_big n;
	irs_big_init(&n);
	bool neg = is_signed && bits &&
		   (words[(bits - 1) / 64] >> ((bits - 1) % 64)) & 1;
	bool ok = irs_big_set(&n, words, bits) &&
		  (!neg || irs_big_negate(&n, bits)) &&
		  (!neg || irs_buf_append(out, "-", 1)) &&
		  irs_big_decimal(&n, out);
	irs_big_deinit(&n);
	return ok;
}
