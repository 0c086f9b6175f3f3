// What the adapters (gdb/irsnap.py, lldb/*.cpp) would otherwise each write
// in their own language, though it needs no debugger API: whether the
// debugger runs in batch mode, its version as the manifest spells it,
// argument words quoted for the console, the line of an LLDB message worth
// showing, a plain variable path, and LLDB's type names in GDB's spelling.
// See irsnap.h, "Front ends".
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/console.h"

bool
console_cmdline_has(const char *args, size_t len, const char *flags)
{
	// argv[0] is the debugger's own name; "--" ends its options.
	for (size_t at = strnlen(args, len) + 1; at < len;
	     at += strnlen(args + at, len - at) + 1) {
		const char *arg = args + at;
		size_t n = strnlen(arg, len - at);
		if (n == 2 && !strncmp(arg, "--", 2))
			break;
		for (const char *f = flags; n && *f; f += strcspn(f, " "),
		     f += strspn(f, " "))
			if (strcspn(f, " ") == n && !strncmp(f, arg, n))
				return true;
	}
	return false;
}

bool
irs_frontend_batch_mode(const char *flags)
{
	char buf[8192];
	FILE *fp = fopen("/proc/self/cmdline", "rb");
	if (!fp)
		return false;
	size_t n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	return console_cmdline_has(buf, n, flags);
}

void
irs_frontend_debugger_version(const char *name, const char *banner,
			      char *buf, size_t len)
{
	const char *v = strstr(banner, "version ");
	v = v ? v + 8 : banner + strspn(banner, " \t\n");
	int n = (int)strcspn(v, " \t\n(");
	snprintf(buf, len, n ? "%s %.*s" : "%s", name, n, v);
}

// What @p b holds, the caller's; NULL (and @p b freed) if memory ran out.
static char *
take(struct irs_buf *b)
{
	if (b->oom) {
		irs_buf_deinit(b);
		return NULL;
	}
	return irs_buf_steal(b);
}

// A word the console's splitter (console_args_split) reads back as it is:
// only blanks, quotes and backslashes need quoting there.
static void
quote_word(struct irs_buf *b, const char *w)
{
	if (*w && !strpbrk(w, " \t\n\r'\"\\")) {
		irs_buf_puts(b, w);
		return;
	}
	irs_buf_puts(b, "'");
	for (; *w; w++)
		if (*w == '\'')
			irs_buf_puts(b, "'\\''");
		else
			irs_buf_append(b, w, 1);
	irs_buf_puts(b, "'");
}

char *
irs_frontend_join_words(const char *const *argv)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	for (size_t i = 0; argv && argv[i]; i++) {
		if (i)
			irs_buf_puts(&b, " ");
		quote_word(&b, argv[i]);
	}
	return take(&b);
}

struct irs_error *
irs_frontend_launch_argv(char ***ret)
{
	*ret = NULL;
	const char *path = getenv("IRSNAP_LAUNCH_ARGV");
	if (!path || !*path)
		return NULL;
	char *text;
	size_t len;
	struct irs_error *err = irs_file_read(path, &text, &len);
	// Read once: the debuggee inherits our environment.
	unsetenv("IRSNAP_LAUNCH_ARGV");
	if (err)
		return irs_error_prefix(err, "IRSNAP_LAUNCH_ARGV");
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\0';
	if (!len || text[len - 1] != '\0') {
		free(text);
		return irs_error_format(IRS_ERROR_FORMAT, "IRSNAP_LAUNCH_ARGV: "
					"%s: not NUL-terminated words", path);
	}
	char **argv = calloc(n + 1, sizeof(*argv));
	for (size_t i = 0, k = 0; argv && i < len; k++) {
		if (!(argv[k] = strdup(text + i))) {
			irs_frontend_words_free(argv);
			argv = NULL;
			break;
		}
		i += strlen(text + i) + 1;
	}
	free(text);
	if (!argv)
		return &irs_enomem;
	*ret = argv;
	return NULL;
}

void
irs_frontend_words_free(char **words)
{
	for (size_t i = 0; words && words[i]; i++)
		free(words[i]);
	free(words);
}

// Drops "error: " and clang's "<user expression 0>:1:1: " from the line
// [s, s + n) and trailing blanks; appends the rest to @p b.
static void
put_stripped(struct irs_buf *b, const char *s, size_t n)
{
	if (n >= 7 && !strncmp(s, "error: ", 7))
		s += 7, n -= 7;
	if (n >= 17 && !strncmp(s, "<user expression ", 17)) {
		const char *colon = strstr(s, ": ");
		if (colon && colon < s + n)
			n -= (size_t)(colon + 2 - s), s = colon + 2;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	irs_buf_append(b, s, n);
}

char *
irs_frontend_one_line(const char *msg)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, "");
	if (!msg)
		msg = "";
	put_stripped(&b, msg, strcspn(msg, "\n"));
	// "expression failed to parse:" heads the diagnostics that say why;
	// the first of them is the line worth showing.
	const char *next = strstr(msg, "\nerror: ");
	if (b.len && b.data[b.len - 1] == ':' && next) {
		next++;
		size_t keep = b.len;
		put_stripped(&b, next, strcspn(next, "\n"));
		if (b.len > keep) {
			memmove(b.data, b.data + keep, b.len - keep);
			b.len -= keep;
		}
		b.data[b.len] = '\0';
	}
	return take(&b);
}

enum irs_expr_kind
irs_frontend_expr_kind(const char *s)
{
	if (*s == '$') {
		// A register: "$" and a name.
		if (!*++s)
			return IRS_EXPR_OTHER;
		for (; *s; s++)
			if (!isalnum((unsigned char)*s) && *s != '_')
				return IRS_EXPR_OTHER;
		return IRS_EXPR_REGISTER;
	}
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return IRS_EXPR_OTHER;
	for (; *s; s++) {
		if (isalnum((unsigned char)*s) || *s == '_' || *s == '.' ||
		    *s == '[' || *s == ']')
			continue;
		if (s[0] == '-' && s[1] == '>') {
			s++;
			continue;
		}
		return IRS_EXPR_OTHER;
	}
	return IRS_EXPR_VARIABLE;
}

// Replaces [at, at + n) of @p b with @p with.
static void
splice(struct irs_buf *b, size_t at, size_t n, const char *with)
{
	size_t m = strlen(with);
	if (!irs_buf_reserve(b, m))
		return;
	memmove(b->data + at + m, b->data + at + n, b->len - at - n + 1);
	memcpy(b->data + at, with, m);
	b->len = b->len - n + m;
}

char *
irs_frontend_gdb_spelling(const char *name, const char *tag, bool c_bool)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_puts(&b, name);
	char *open = b.data ? strchr(b.data, '[') : NULL;
	if (open && open > b.data && open[-1] != ' ')
		splice(&b, (size_t)(open - b.data), 0, " ");
	char *at = c_bool && b.data ? strstr(b.data, "bool") : NULL;
	if (at)
		splice(&b, (size_t)(at - b.data), 4, "_Bool");
	// An anonymous struct or union: GDB says "union {...}".
	for (int i = 0; i < 2 && tag && b.data; i++) {
		at = strstr(b.data, i ? "(anonymous " : "(unnamed ");
		if (!at)
			continue;
		char *close = strchr(at, ')');
		char with[32];
		snprintf(with, sizeof(with), "%s{...}", tag);
		splice(&b, (size_t)(at - b.data), close ? (size_t)(close - at +
		       1) : strlen(at), with);
		tag = NULL;
	}
	if (tag && b.data && !strstr(b.data, tag)) {
		size_t skip = 0;	// after "const " and "volatile "
		for (const char *const *q = (const char *const[]){"const ",
		     "volatile ", "const ", NULL}; *q; q++)
			if (!strncmp(b.data + skip, *q, strlen(*q)))
				skip += strlen(*q);
		splice(&b, skip, 0, tag);
	}
	return take(&b);
}
