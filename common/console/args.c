// Console argument strings: shell-like words, options, counts.
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "console/console.h"

void
console_args_deinit(struct console_args *a)
{
	for (size_t i = 0; i < a->nwords; i++)
		free(a->words[i].text);
	free(a->words);
	free(a->raw);
	memset(a, 0, sizeof(*a));
}

static bool
is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

// Reads one word starting at line[*pos] (not a blank) into @p w.
static struct irs_error *
split_word(const char *cmd, const char *line, size_t *pos,
	   struct console_word *w)
{
	struct irs_buf b;
	size_t i = *pos;
	char quote = 0;

	irs_buf_init(&b);
	irs_buf_puts(&b, "");	// an empty quoted word is still a word
	w->start = i;
	w->quoted = false;
	for (; line[i] && (quote || !is_blank(line[i])); i++) {
		char ch = line[i];
		if (quote == '\'') {
			if (ch == '\'')
				quote = 0;
			else
				irs_buf_append(&b, &ch, 1);
		} else if (quote == '"') {
			if (ch == '"') {
				quote = 0;
			} else if (ch == '\\' && (line[i + 1] == '"' ||
						  line[i + 1] == '\\')) {
				irs_buf_append(&b, &line[++i], 1);
			} else {
				irs_buf_append(&b, &ch, 1);
			}
		} else if (ch == '\'' || ch == '"') {
			quote = ch;
			w->quoted = true;
		} else if (ch == '\\' && line[i + 1]) {
			w->quoted = true;
			irs_buf_append(&b, &line[++i], 1);
		} else {
			irs_buf_append(&b, &ch, 1);
		}
	}
	if (quote) {
		irs_buf_deinit(&b);
		return irs_error_format(IRS_ERROR_USAGE, "%s: unterminated "
					"%c quote at column %zu", cmd, quote,
					w->start + 1);
	}
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	w->text = irs_buf_steal(&b);
	w->end = i;
	*pos = i;
	return NULL;
}

struct irs_error *
console_args_split(const char *cmd, const char *line, struct console_args *ret)
{
	struct irs_error *err;
	struct console_args a = {0};
	size_t pos = 0, cap = 0;

	if (!line)
		line = "";
	a.raw = strdup(line);
	if (!a.raw)
		return &irs_enomem;
	for (;;) {
		while (is_blank(line[pos]))
			pos++;
		if (!line[pos])
			break;
		if (a.nwords == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			void *p = realloc(a.words, ncap * sizeof(*a.words));
			if (!p) {
				console_args_deinit(&a);
				return &irs_enomem;
			}
			a.words = p;
			cap = ncap;
		}
		err = split_word(cmd, line, &pos, &a.words[a.nwords]);
		if (err) {
			console_args_deinit(&a);
			return err;
		}
		a.nwords++;
	}
	*ret = a;
	return NULL;
}

static const struct console_option *
find_option(const struct console_opts *o, const char *word, size_t len)
{
	for (size_t i = 0; i < o->ntable; i++) {
		const struct console_option *opt = &o->table[i];
		if (strlen(opt->name) == len && !strncmp(opt->name, word, len))
			return opt;
		if (opt->alias && strlen(opt->alias) == len &&
		    !strncmp(opt->alias, word, len))
			return opt;
	}
	return NULL;
}

static struct irs_error *
unknown_option(const struct console_opts *o, const char *word)
{
	struct irs_buf b;
	struct irs_error *err;

	irs_buf_init(&b);
	for (size_t i = 0; i < o->ntable; i++)
		irs_buf_printf(&b, "%s%s", i ? ", " : "", o->table[i].name);
	if (o->ntable)
		err = irs_error_format(IRS_ERROR_USAGE,
				       "%s: unknown option '%s' (options: %s)",
				       o->cmd, word, b.data ? b.data : "");
	else
		err = irs_error_format(IRS_ERROR_USAGE,
				       "%s: unknown option '%s' (none taken)",
				       o->cmd, word);
	irs_buf_deinit(&b);
	return err;
}

// A word that looks like an option: "-x" or "--x", unquoted, not "-" alone
// and not a negative number.
static bool
looks_like_option(const struct console_word *w)
{
	const char *s = w->text;
	return !w->quoted && s[0] == '-' && s[1] &&
	       !isdigit((unsigned char)s[1]);
}

struct irs_error *
console_opts_next(struct console_opts *o, const struct console_args *a,
		  int *id_ret, const char **value_ret, size_t *pos,
		  size_t *npos)
{
	*id_ret = -1;
	*value_ret = NULL;
	while (o->next < a->nwords) {
		const struct console_word *w = &a->words[o->next];
		if (!w->quoted && !strcmp(w->text, "--")) {
			o->next++;
			if (!o->anywhere)
				return NULL;
			while (o->next < a->nwords)
				pos[(*npos)++] = o->next++;
			return NULL;
		}
		if (!looks_like_option(w)) {
			if (!o->anywhere)
				return NULL;
			pos[(*npos)++] = o->next++;
			continue;
		}
		const char *eq = strchr(w->text, '=');
		size_t len = eq ? (size_t)(eq - w->text) : strlen(w->text);
		const struct console_option *opt = find_option(o, w->text, len);
		if (!opt) {
			if (eq)
				return irs_error_format(IRS_ERROR_USAGE,
					"%s: unknown option '%.*s'", o->cmd,
					(int)len, w->text);
			return unknown_option(o, w->text);
		}
		o->next++;
		if (opt->has_value && eq) {
			*value_ret = eq + 1;
		} else if (opt->has_value) {
			if (o->next >= a->nwords)
				return irs_error_format(IRS_ERROR_USAGE,
					"%s: option '%s' needs a value",
					o->cmd, w->text);
			*value_ret = a->words[o->next++].text;
		} else if (eq) {
			return irs_error_format(IRS_ERROR_USAGE,
				"%s: option '%s' takes no value", o->cmd,
				opt->name);
		}
		*id_ret = opt->id;
		return NULL;
	}
	return NULL;
}

struct irs_error *
console_parse_u64(const char *cmd, const char *what, const char *text,
		  uint64_t *ret)
{
	char *end;
	uint64_t mult = 1;

	if (!text || !*text || *text == '-' || isspace((unsigned char)*text))
		goto bad;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 0);
	if (errno || end == text)
		goto bad;
	switch (*end) {
	case 'k': case 'K': mult = 1ULL << 10; end++; break;
	case 'm': case 'M': mult = 1ULL << 20; end++; break;
	case 'g': case 'G': mult = 1ULL << 30; end++; break;
	default: break;
	}
	if (*end || (v && mult > UINT64_MAX / v))
		goto bad;
	*ret = (uint64_t)v * mult;
	return NULL;
bad:
	return irs_error_format(IRS_ERROR_USAGE,
				"%s: %s must be a count (like 1000, 64K, 4G), "
				"not '%s'", cmd, what, text ? text : "");
}

void
console_opts_complete(const struct console_option *table, size_t n,
		      const char *prefix, struct irs_buf *b)
{
	size_t len = strlen(prefix);
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(table[i].name, prefix, len))
			irs_buf_printf(b, "%s\n", table[i].name);
		if (table[i].alias && len &&
		    !strncmp(table[i].alias, prefix, len))
			irs_buf_printf(b, "%s\n", table[i].alias);
	}
}
