// Names and strings as compilers quote them, for templates' named
// formats ({name:llvm_name}): LLVM's identifiers (bare when they are made
// of [-a-zA-Z$._0-9] and do not start with a digit, else quoted) and its
// escaped strings (\XX, upper-case hex, for what does not print and for
// '"' and '\'), MLIR's keyword-or-string (bare identifiers, else a quoted
// escaped string).
#include <string.h>

#include "walk/walk.h"

// The C locale's classes, whatever locale the debugger set: LLVM's are
// those (isPrint is 0x20..0x7e), and bytes past 0x7f are never letters.
static inline bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline bool
is_alpha(unsigned char c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

static inline bool
is_alnum(unsigned char c)
{
	return is_alpha(c) || is_digit(c);
}

// llvm::printEscapedString: printable bytes but '\' and '"' as they are,
// every other byte as \XX.
static bool
escaped(const char *s, size_t n, struct irs_buf *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
			run++;
			continue;
		}
		irs_buf_append(out, s + i - run, run);
		run = 0;
		char e[3] = { '\\', hex[c >> 4], hex[c & 15] };
		irs_buf_append(out, e, 3);
	}
	irs_buf_append(out, s + n - run, run);
	return !out->oom;
}

static bool
quoted(const char *s, size_t n, struct irs_buf *out)
{
	irs_buf_append(out, "\"", 1);
	escaped(s, n, out);
	return irs_buf_append(out, "\"", 1);
}

// printLLVMNameWithoutPrefix: LLVM 14 quotes a name with any byte but
// [-a-zA-Z._0-9], or one that starts with a digit ('$' too is quoted).
static bool
llvm_name(const char *s, size_t n, struct irs_buf *out)
{
	bool bare = n && !is_digit((unsigned char)s[0]);
	for (size_t i = 0; bare && i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		bare = is_alnum(c) || c == '-' || c == '.' || c == '_';
	}
	return bare ? irs_buf_append(out, s, n) : quoted(s, n, out);
}

// printKeywordOrString: a bare identifier ([a-zA-Z_][a-zA-Z0-9_$.]*) as
// it is, anything else quoted.
static bool
mlir_keyword(const char *s, size_t n, struct irs_buf *out)
{
	bool bare = n && (is_alpha((unsigned char)s[0]) || s[0] == '_');
	for (size_t i = 1; bare && i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		bare = is_alnum(c) || c == '_' || c == '$' || c == '.';
	}
	return bare ? irs_buf_append(out, s, n) : quoted(s, n, out);
}

bool
irs_fmt_text(enum irs_textfmt f, const char *s, size_t n, struct irs_buf *out)
{
	switch (f) {
	case IRS_TF_LLVM_NAME:
		return llvm_name(s, n, out);
	case IRS_TF_ESCAPED:
		return escaped(s, n, out);
	case IRS_TF_QUOTED:
		return quoted(s, n, out);
	case IRS_TF_MLIR_KEYWORD:
		return mlir_keyword(s, n, out);
	}
	return false;
}
