// Words for a POSIX shell: quoting what irsnap writes into commands
// (failure.json's reduce command, repro.sh, the debugger's command lines)
// and splitting the commands it is given back into words, as sh would.
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

bool
irs_shell_quote(struct irs_buf *b, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
			       "VWXYZ0123456789_-./=:,+@%", *p) != NULL;
	if (plain)
		return irs_buf_puts(b, s);
	irs_buf_puts(b, "'");
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			irs_buf_puts(b, "'\\''");
		else
			irs_buf_append(b, p, 1);
	return irs_buf_puts(b, "'");
}

void
irs_shell_words_free(char **w)
{
	for (size_t i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}

struct irs_error *
irs_shell_split(const char *line, char ***ret)
{
	char **words = calloc(1, sizeof(*words));
	size_t n = 0;
	const char *p = line;
	if (!words)
		return &irs_enomem;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		struct irs_buf w;
		irs_buf_init(&w);
		char quote = 0;
		for (; *p && (quote || !strchr(" \t\n", *p)); p++) {
			if (quote == '\'' && *p == '\'') {
				quote = 0;
			} else if (quote == '\'') {
				irs_buf_append(&w, p, 1);
			} else if (*p == '\\' && p[1] &&
				   (!quote || strchr("\"\\$`", p[1]))) {
				irs_buf_append(&w, ++p, 1);
			} else if (quote == '"' && *p == '"') {
				quote = 0;
			} else if (!quote && (*p == '\'' || *p == '"')) {
				quote = *p;
			} else {
				irs_buf_append(&w, p, 1);
			}
		}
		if (quote) {
			irs_buf_deinit(&w);
			irs_shell_words_free(words);
			return irs_error_format(IRS_ERROR_FORMAT,
				"unterminated %c quote in: %s", quote, line);
		}
		irs_buf_append(&w, "", 0);
		char **nw = realloc(words, (n + 2) * sizeof(*words));
		if (w.oom || !nw) {
			irs_buf_deinit(&w);
			irs_shell_words_free(nw ? nw : words);
			return &irs_enomem;
		}
		words = nw;
		words[n++] = irs_buf_steal(&w);
		words[n] = NULL;
	}
	*ret = words;
	return NULL;
}
