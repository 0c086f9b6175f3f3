// HTML text for the reports: everything they show comes from run
// directories, which are untrusted, so every byte goes through here.
#include <string.h>

#include "tools/tools.h"

void
irs_html_text(struct irs_buf *b, const char *s, size_t len)
{
	size_t run = 0;		// start of the bytes not yet copied
	for (size_t i = 0; i < len; i++) {
		const char *rep;
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			rep = c < 0x20 && c != '\t' && c != '\n' ? "&#xFFFD;"
			      : NULL;
		}
		if (!rep)
			continue;
		irs_buf_append(b, s + run, i - run);
		irs_buf_puts(b, rep);
		run = i + 1;
	}
	irs_buf_append(b, s + run, len - run);
}

void
irs_html_str(struct irs_buf *b, const char *s)
{
	irs_html_text(b, s ? s : "", s ? strlen(s) : 0);
}
