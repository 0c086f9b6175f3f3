// reduce { rerun = TEMPLATE }: how to run the failing pass on a candidate
// file, which the failure report turns into a command the reducer runs.
// A layout is untrusted, so its template may only list the command's
// words: blank-separated words of plain characters and the placeholders
// {exe}, {flags}, {pass} and {input}, the program being {exe} (the one the
// user debugged), never a shell's syntax. The report quotes every word and
// the reducer runs a run directory's command without a shell.
#include "layout/layout.h"

// What a shell would read as more than a character of a word: operators,
// quotes, expansions, globs, comments, history.
static const char shell_meta[] = ";&|<>()$`\\\"'*?[]{}#~!^";

static const char *const placeholders[] = {
	"{exe}", "{flags}", "{pass}", "{input}",
};

// The placeholder at @p p, or NULL.
static const char *
placeholder(const char *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(placeholders); i++)
		if (!strncmp(p, placeholders[i], strlen(placeholders[i])))
			return placeholders[i];
	return NULL;
}

bool
irs_rerun_check(const char *tmpl, char *why, size_t len)
{
	bool input = false;
	size_t nwords = 0;

	for (const char *p = tmpl; *p; ) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		const char *word = p;
		size_t wlen = strcspn(p, " \t");
		nwords++;
		if (nwords == 1 && (wlen != 5 || strncmp(word, "{exe}", 5))) {
			snprintf(why, len, "the command must start with the "
				 "word {exe}, the program debugged: a layout "
				 "names no program of its own to run");
			return false;
		}
		for (p = word; p < word + wlen; ) {
			const char *ph = placeholder(p);
			unsigned char ch = (unsigned char)*p;
			if (ph) {
				size_t n = strlen(ph);
				if (!strcmp(ph, "{flags}") &&
				    (p != word || wlen != n)) {
					snprintf(why, len, "{flags} stands for "
						 "several words: it must be a "
						 "word of its own");
					return false;
				}
				input |= !strcmp(ph, "{input}");
				p += n;
			} else if (ch < 0x20 || ch == 0x7f) {
				snprintf(why, len, "a control character "
					 "(\\x%02x): the template lists the "
					 "command's words on one line", ch);
				return false;
			} else if (strchr(shell_meta, ch)) {
				snprintf(why, len, "'%c' %s: the template "
					 "lists the command's words, run "
					 "without a shell (placeholders {exe} "
					 "{flags} {pass} {input})", ch,
					 ch == '{' || ch == '}'
					 ? "outside a placeholder"
					 : "is shell syntax");
				return false;
			} else {
				p++;
			}
		}
	}
	if (!input) {
		snprintf(why, len, "no {input}: the command must read the "
			 "candidate file");
		return false;
	}
	return true;
}
