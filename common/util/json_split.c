// Splitting a large JSON document at the elements of one array member, so
// each can be parsed on its own: a 1M-instruction snapshot is 337 MB of
// JSON, and jansson holds a document in about 14 times its size.
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static size_t
skip_ws(const char *t, size_t n, size_t i)
{
	while (i < n && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' ||
			 t[i] == '\t'))
		i++;
	return i;
}

// The offset after the string that starts at t[i] == '"', or 0.
static size_t
string_end(const char *t, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (t[i] == '\\')
			i++;
		else if (t[i] == '"')
			return i + 1;
	}
	return 0;
}

// The offset after the value that starts at t[i], or 0 when it is cut
// short. Brackets are counted, not matched: the parser of each piece
// catches a '{' closed by ']'.
static size_t
value_end(const char *t, size_t n, size_t i)
{
	if (i >= n)
		return 0;
	if (t[i] == '"')
		return string_end(t, n, i);
	if (t[i] == '{' || t[i] == '[') {
		size_t depth = 0;
		for (; i < n; i++) {
			if (t[i] == '"') {
				size_t j = string_end(t, n, i);
				if (!j)
					return 0;
				i = j - 1;
			} else if (t[i] == '{' || t[i] == '[') {
				depth++;
			} else if ((t[i] == '}' || t[i] == ']') && !--depth) {
				return i + 1;
			}
		}
		return 0;
	}
	size_t j = i;
	while (j < n && !strchr(",:}] \n\r\t{[\"", t[j]))
		j++;
	return j > i ? j : 0;
}

static bool
push(struct irs_json_split *s, size_t start, size_t end)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		size_t *at = realloc(s->at, 2 * cap * sizeof(*at));
		if (!at)
			return false;
		s->at = at;
		s->cap = cap;
	}
	s->at[2 * s->n] = start;
	s->at[2 * s->n + 1] = end;
	s->n++;
	return true;
}

// The elements of the array at t[i] == '['; false when malformed.
static bool
elements(const char *t, size_t n, size_t i, struct irs_json_split *s)
{
	s->open = i;
	i = skip_ws(t, n, i + 1);
	if (i < n && t[i] == ']') {
		s->close = i;
		return true;
	}
	for (;;) {
		size_t end = value_end(t, n, i);
		if (!end || !push(s, i, end))
			return false;
		i = skip_ws(t, n, end);
		if (i < n && t[i] == ']') {
			s->close = i;
			return true;
		}
		if (i >= n || t[i] != ',')
			return false;
		i = skip_ws(t, n, i + 1);
	}
}

bool
irs_json_split(const char *text, size_t len, const char *key,
	       struct irs_json_split *ret)
{
	memset(ret, 0, sizeof(*ret));
	size_t klen = strlen(key), i = skip_ws(text, len, 0);
	bool found = false;
	if (i >= len || text[i] != '{')
		return false;
	i = skip_ws(text, len, i + 1);
	while (i < len && text[i] != '}') {
		size_t kend = text[i] == '"' ? string_end(text, len, i) : 0;
		if (!kend)
			break;
		bool match = kend - i == klen + 2 &&
			     !memcmp(text + i + 1, key, klen);
		i = skip_ws(text, len, kend);
		if (i >= len || text[i] != ':')
			break;
		i = skip_ws(text, len, i + 1);
		size_t vend;
		if (match && !found && i < len && text[i] == '[') {
			if (!elements(text, len, i, ret))
				break;
			found = true;
			vend = ret->close + 1;
		} else if (!(vend = value_end(text, len, i))) {
			break;
		}
		i = skip_ws(text, len, vend);
		if (i < len && text[i] == ',')
			i = skip_ws(text, len, i + 1);
		else if (i >= len || text[i] != '}')
			break;
	}
	if (found && i < len && text[i] == '}' &&
	    skip_ws(text, len, i + 1) == len)
		return true;
	irs_json_split_deinit(ret);
	return false;
}

void
irs_json_split_deinit(struct irs_json_split *s)
{
	free(s->at);
	memset(s, 0, sizeof(*s));
}
