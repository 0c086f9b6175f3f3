// The debuggee expressions a layout gives, checked when it is compiled:
// a boundary's `ir` and `pass` only read the debuggee, and a verifier's
// `call` is a call of one named function with plain arguments. The front
// ends also evaluate the former with calls disabled; these checks make a
// hostile or mistaken layout a layout error naming its line, before any
// debuggee runs anything.
#include <ctype.h>
#include <stdio.h>

#include "layout/layout.h"

static bool
ident_start(char ch)
{
	return isalpha((unsigned char)ch) || ch == '_';
}

static bool
ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

// Operators that look like calls but only read.
static bool
call_like(const char *s, size_t n)
{
	static const char *const words[] = {
		"sizeof", "alignof", "_Alignof", "__alignof__",
	};
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !strncmp(s, words[i], n))
			return true;
	return false;
}

bool
irs_expr_reads_only(const char *s, char *why, size_t len)
{
	for (size_t i = 0; s[i];) {
		char ch = s[i];
		if (ident_start(ch) || (ch == '$' && ident_start(s[i + 1]))) {
			size_t start = i++;
			while (ident_char(s[i]))
				i++;
			size_t j = i;
			while (s[j] == ' ' || s[j] == '\t')
				j++;
			// a function, or one of GDB's convenience functions
			// ($_shell runs a command)
			if (s[j] == '(' && !call_like(s + start, i - start)) {
				snprintf(why, len, "calls %.*s()",
					 (int)(i - start), s + start);
				return false;
			}
		} else if (isdigit((unsigned char)ch)) {
			while (ident_char(s[i]) || s[i] == '.')
				i++;
		} else if (ch == '"') {
			snprintf(why, len, "has a string literal (which the "
				 "debugger would copy into the debuggee)");
			return false;
		} else if ((ch == '+' || ch == '-') && s[i + 1] == ch) {
			snprintf(why, len, "changes the debuggee (%c%c)", ch,
				 ch);
			return false;
		} else if (ch == '=' && s[i + 1] == '=') {
			i += 2;
		} else if (ch == '=' && (i == 0 || !strchr("!<>", s[i - 1]) ||
			   (i >= 2 && s[i - 2] == s[i - 1]))) {
			snprintf(why, len, "assigns (=)");
			return false;
		} else {
			i++;
		}
	}
	return true;
}

// A C string literal at @p s: "...", escapes allowed, on one line.
static size_t
string_literal(const char *s)
{
	size_t i = 1;
	for (; s[i] && s[i] != '"' && s[i] != '\n'; i++)
		if (s[i] == '\\' && s[i + 1] && s[i + 1] != '\n')
			i++;
	return s[i] == '"' ? i + 1 : 0;
}

// One argument at @p s: {ir}, an integer, a string or a variable name;
// its length, or 0.
static size_t
argument(const char *s)
{
	size_t i = 0;
	if (!strncmp(s, "{ir}", 4))
		return 4;
	if (*s == '"')
		return string_literal(s);
	if (ident_start(*s)) {
		while (ident_char(s[i]))
			i++;
		return i;
	}
	if (*s == '-')
		i++;
	if (!isdigit((unsigned char)s[i]))
		return 0;
	if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
	    isxdigit((unsigned char)s[i + 2]))
		for (i += 2; isxdigit((unsigned char)s[i]); i++)
			;
	else
		while (isdigit((unsigned char)s[i]))
			i++;
	while (s[i] == 'u' || s[i] == 'U' || s[i] == 'l' || s[i] == 'L')
		i++;
	return ident_char(s[i]) ? 0 : i;
}

static size_t
blanks(const char *s)
{
	size_t i = 0;
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return i;
}

bool
irs_expr_is_call(const char *s)
{
	size_t i = blanks(s);
	if (!ident_start(s[i]))
		return false;
	while (ident_char(s[i]))
		i++;
	i += blanks(s + i);
	if (s[i++] != '(')
		return false;
	i += blanks(s + i);
	for (bool first = true; s[i] != ')'; first = false) {
		if (!first && s[i++] != ',')
			return false;
		i += blanks(s + i);
		size_t n = argument(s + i);
		if (!n)
			return false;
		i += n;
		i += blanks(s + i);
	}
	i++;
	return s[i + blanks(s + i)] == 0;
}
