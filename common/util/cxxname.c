// C++ type names as the debuggers and compilers spell them. A layout
// names `llvm::SmallVector<llvm::TrackingMDRef, 4>`; clang's DWARF says
// `4U` and `const llvm::Value *`, g++'s `4` and `const llvm::Value*`, GDB
// prints `4u` and `llvm::Value const*`, and LLDB finds a type only by the
// spelling its DWARF has. So the core tries a few spellings of the one
// name, each printed from one parse, rather than each adapter guessing.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

enum { MAX_DEPTH = 32 };

struct out {
	char *p;
	size_t len, n;
	bool over;
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->n + n >= o->len) {
		o->over = true;
		return;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = 0;
}

static void
puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static const char *
blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool
word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == ':' ||
	       ch == '$' || ch == '~' || ch == '.';
}

static bool
is_word(const char *s, size_t n, const char *w)
{
	return n == strlen(w) && !strncmp(s, w, n);
}

static void print_type(struct out *o, const char **sp, enum irs_cxx_style st,
		       int depth);

// The template arguments after '<', up to and including the matching '>'.
static void
print_args(struct out *o, const char **sp, enum irs_cxx_style st, int depth)
{
	const char *s = *sp;
	bool first = true;
	puts_(o, "<");
	for (;;) {
		s = blanks(s);
		if (!*s || *s == '>')
			break;
		if (!first)
			puts_(o, ", ");
		first = false;
		print_type(o, &s, st, depth + 1);
		s = blanks(s);
		if (*s == ',')
			s++;
		else if (*s != '>')
			break;	// not a name we understand: stop here
	}
	// `> >` for clang, g++ and GDB alike: they all keep the C++03 blank
	if (o->n && o->p[o->n - 1] == '>')
		puts_(o, " ");
	puts_(o, ">");
	if (*s == '>')
		s++;
	*sp = s;
}

// An integer template argument: digits and an integer suffix.
static bool
print_number(struct out *o, const char **sp, enum irs_cxx_style st)
{
	const char *s = *sp;
	size_t n = 0;
	if (s[n] == '-')
		n++;
	if (!isdigit((unsigned char)s[n]))
		return false;
	while (isalnum((unsigned char)s[n]))
		n++;
	size_t digits = n;
	while (digits && strchr("uUlL", s[digits - 1]))
		digits--;
	if (digits == 0 || !isdigit((unsigned char)s[digits - 1]))
		digits = n;
	put(o, s, digits);
	if (st == IRS_CXX_CLANG_UNSIGNED)
		puts_(o, "U");
	else if (st == IRS_CXX_GDB)
		put(o, s + digits, n - digits);	// GDB keeps what it was given
	*sp = s + n;
	return true;
}

// One type: cv-qualifiers, a name with template arguments, then pointer
// and reference declarators, each possibly const.
static void
print_type(struct out *o, const char **sp, enum irs_cxx_style st, int depth)
{
	const char *s = blanks(*sp);
	bool is_const = false, is_volatile = false;
	char ptrs[64];
	size_t nptrs = 0;

	if (depth > MAX_DEPTH) {
		o->over = true;
		return;
	}
	if (print_number(o, &s, st)) {
		*sp = s;
		return;
	}
	// leading qualifiers and the name's words ("unsigned int")
	size_t start = o->n;
	bool named = false;
	for (;;) {
		s = blanks(s);
		size_t n = 0;
		while (word_char(s[n]))
			n++;
		if (!n)
			break;
		if (is_word(s, n, "const")) {
			is_const = true;
		} else if (is_word(s, n, "volatile")) {
			is_volatile = true;
		} else {
			if (named && s[0] != ':')
				puts_(o, " ");
			put(o, s, n);
			named = true;
			s += n;
			s = blanks(s);
			if (*s == '<') {
				s++;
				print_args(o, &s, st, depth);
				// a nested name after the arguments: A<T>::B
				if (s[0] == ':' && s[1] == ':')
					continue;
			}
			continue;
		}
		s += n;
	}
	// declarators: * & && and a const after a '*'
	for (;;) {
		s = blanks(s);
		if ((*s == '*' || *s == '&') && nptrs + 2 < sizeof(ptrs)) {
			ptrs[nptrs++] = *s++;
		} else if (!strncmp(s, "const", 5) && !word_char(s[5]) &&
			   nptrs) {
			ptrs[nptrs++] = 'c';
			s += 5;
		} else {
			break;
		}
	}
	char name[512];
	snprintf(name, sizeof(name), "%s", o->p + start);
	o->p[start] = 0;
	o->n = start;
	bool east = st == IRS_CXX_GDB;
	if (!east && is_const)
		puts_(o, "const ");
	if (!east && is_volatile)
		puts_(o, "volatile ");
	puts_(o, name);
	if (east && is_const)
		puts_(o, " const");
	if (east && is_volatile)
		puts_(o, " volatile");
	bool spaced = st == IRS_CXX_CLANG || st == IRS_CXX_CLANG_UNSIGNED;
	for (size_t i = 0; i < nptrs; i++) {
		if (ptrs[i] == 'c') {
			puts_(o, spaced ? "const" : " const");	// `T *const *`
			continue;
		}
		// clang: `T *`, `T **`, `T *const *`; g++ and GDB: `T*`
		if (spaced && (i == 0 || ptrs[i - 1] == 'c'))
			puts_(o, " ");
		put(o, &ptrs[i], 1);
	}
	*sp = s;
}

bool
irs_cxx_spell(const char *name, enum irs_cxx_style style, char *buf,
	      size_t len)
{
	struct out o = {buf, len, 0, false};
	const char *s = name;

	if (!len)
		return false;
	buf[0] = 0;
	print_type(&o, &s, style, 0);
	s = blanks(s);
	return !o.over && !*s;
}

bool
irs_cxx_is_template(const char *name)
{
	return strchr(name, '<') != NULL || strstr(name, "const") != NULL;
}

void
irs_cxx_short_name(const char *name, char *buf, size_t len)
{
	// the last component outside template arguments, without its own
	int depth = 0;
	const char *start = name, *end = NULL;
	for (const char *p = name; *p; p++) {
		if (*p == '<') {
			if (depth++ == 0)
				end = p;
		} else if (*p == '>') {
			depth--;
		} else if (depth == 0 && p[0] == ':' && p[1] == ':') {
			start = p + 2;
			end = NULL;
		}
	}
	if (!end || end < start)
		end = start + strlen(start);
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}
