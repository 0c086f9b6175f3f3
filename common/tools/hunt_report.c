// The HTML page of a merged hunt (irsnap.hunt/1, from `irsnap merge`):
// attempts per shard and host, failures per signature with their share
// of each shard, where each was first seen, and the reduced reproducer.
// Every string comes from untrusted files and is escaped (tools/html.c);
// links go to the files the hunt names, written as file: URLs.
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "tools/tools.h"

static const char hunt_css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}"
	"table{border-collapse:collapse;margin:1em 0}"
	"th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;"
	"vertical-align:top}th{background:#f4f4f4}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}"
	".bad{color:#a00}.warn{color:#a60}code,pre{font:12px monospace}"
	"pre{background:#f8f8f8;padding:8px;overflow:auto}"
	".bar{display:inline-block;height:10px;background:#c33}\n";

static void
str(struct irs_buf *b, json_t *v)
{
	if (json_is_string(v))
		irs_html_str(b, json_string_value(v));
	else if (json_is_integer(v))
		irs_buf_printf(b, "%lld", (long long)json_integer_value(v));
	else
		irs_buf_puts(b, "&mdash;");
}

// A link to @p path (an absolute path from the hunt), shown as @p label.
static void
put_link(struct irs_buf *b, const char *path, const char *label)
{
	if (!path || path[0] != '/') {
		irs_html_str(b, label ? label : path);
		return;
	}
	irs_buf_puts(b, "<a href=\"file://");
	for (const char *p = path; *p; p++) {	// percent-encode all but safe
		unsigned char c = (unsigned char)*p;
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789/._-~", c))
			irs_buf_append(b, p, 1);
		else
			irs_buf_printf(b, "%%%02X", c);
	}
	irs_buf_puts(b, "\">");
	irs_html_str(b, label ? label : path);
	irs_buf_puts(b, "</a>");
}

static void
put_shards(struct irs_buf *b, json_t *hunt)
{
	irs_buf_puts(b, "<h2>Shards</h2>\n<table><tr><th>shard</th><th>host"
		     "</th><th>status</th><th>attempts</th><th>failures</th>"
		     "<th>timeouts</th><th>replay directory</th></tr>\n");
	json_t *sh;
	size_t i;
	json_array_foreach(json_object_get(hunt, "shards"), i, sh) {
		json_t *k = json_object_get(sh, "shard");
		const char *st = json_string_value(json_object_get(sh,
								   "status"));
		irs_buf_puts(b, "<tr><td class=n>");
		str(b, json_object_get(k, "index"));
		irs_buf_puts(b, "/");
		str(b, json_object_get(k, "count"));
		irs_buf_puts(b, "</td><td>");
		str(b, json_object_get(sh, "host"));
		irs_buf_printf(b, "</td><td%s>", st && strcmp(st, "completed")
			       ? " class=warn" : "");
		irs_html_str(b, st);
		irs_buf_puts(b, "</td><td class=n>");
		str(b, json_object_get(sh, "attempts"));
		irs_buf_puts(b, "</td><td class=n>");
		str(b, json_object_get(sh, "failures"));
		irs_buf_puts(b, "</td><td class=n>");
		str(b, json_object_get(sh, "timeouts"));
		irs_buf_puts(b, "</td><td>");
		const char *dir = json_string_value(json_object_get(sh, "dir"));
		put_link(b, dir, NULL);
		irs_buf_puts(b, "</td></tr>\n");
	}
	irs_buf_puts(b, "</table>\n");
}

static void
put_groups(struct irs_buf *b, json_t *hunt)
{
	json_t *groups = json_object_get(hunt, "groups"), *g;
	json_int_t attempts = json_integer_value(json_object_get(hunt,
								 "attempts"));
	irs_buf_puts(b, "<h2>Failures by signature</h2>\n");
	if (!json_array_size(groups)) {
		irs_buf_puts(b, "<p>No attempt failed.</p>\n");
		return;
	}
	irs_buf_puts(b, "<table><tr><th>signature</th><th>count</th>"
		     "<th>per shard</th><th>first seen</th><th>reproducer"
		     "</th></tr>\n");
	size_t i;
	json_array_foreach(groups, i, g) {
		json_int_t count = json_integer_value(json_object_get(g,
								      "count"));
		irs_buf_puts(b, "<tr><td class=bad><code>");
		str(b, json_object_get(g, "signature"));
		irs_buf_printf(b, "</code></td><td class=n>%lld<br><span "
			       "class=bar style=\"width:%dpx\"></span></td>"
			       "<td>", (long long)count, attempts > 0
			       ? (int)(100 * count / attempts) + 1 : 1);
		json_t *s;
		size_t k;
		json_array_foreach(json_object_get(g, "shards"), k, s) {
			irs_buf_puts(b, k ? "<br>" : "");
			irs_buf_puts(b, "shard ");
			str(b, json_object_get(s, "shard"));
			irs_buf_puts(b, " (");
			str(b, json_object_get(s, "host"));
			irs_buf_puts(b, "): ");
			str(b, json_object_get(s, "count"));
		}
		json_t *fs = json_object_get(g, "first_seen");
		irs_buf_puts(b, "</td><td>attempt ");
		str(b, json_object_get(fs, "attempt"));
		irs_buf_puts(b, " on shard ");
		str(b, json_object_get(fs, "shard"));
		irs_buf_puts(b, " (");
		str(b, json_object_get(fs, "host"));
		irs_buf_puts(b, ")<br>");
		const char *run = json_string_value(json_object_get(fs, "run"));
		put_link(b, run, "run directory");
		if (run) {
			char *fj = irs_path_join(run, "failure.json");
			irs_buf_puts(b, " &middot; ");
			put_link(b, fj, "failure.json");
			free(fj);
		}
		irs_buf_puts(b, "</td><td>");
		json_t *red = json_object_get(g, "reduce");
		if (json_is_object(red)) {
			str(b, json_object_get(red, "summary"));
			irs_buf_puts(b, "<br>");
			str(b, json_object_get(red, "status"));
			char *repro = run ? irs_path_join(run, "repro") : NULL;
			irs_buf_puts(b, "<br>");
			put_link(b, repro, "repro/");
			free(repro);
		} else {
			irs_buf_puts(b, "not reduced (irsnap merge --reduce "
				     "auto)");
		}
		irs_buf_puts(b, "</td></tr>\n");
	}
	irs_buf_puts(b, "</table>\n");
}

struct irs_error *
irs_hunt_report_write(const char *dir, const char *html_path)
{
	char *path = irs_path_join(dir, "replay.json"), *text = NULL;
	size_t len;
	if (!path)
		return &irs_enomem;
	struct irs_error *err = irs_file_read(path, &text, &len);
	if (err) {
		free(path);
		return err;
	}
	json_error_t je;
	json_t *hunt = json_loadb(text, len, JSON_ALLOW_NUL, &je);
	free(text);
	if (!hunt) {
		err = irs_error_format(IRS_ERROR_FORMAT, "%s:%d: %s", path,
				       je.line, je.text);
		free(path);
		return err;
	}
	struct irs_buf out;
	uint32_t np = 0;
	irs_buf_init(&out);
	err = irs_schema_validate("irsnap.hunt/1", hunt, path, &out, &np);
	if (!err && np) {
		char *nl = out.data ? strchr(out.data, '\n') : NULL;
		if (nl)
			*nl = '\0';
		err = irs_error_format(IRS_ERROR_FORMAT, "%s", out.data);
	}
	irs_buf_deinit(&out);
	free(path);
	if (err) {
		json_decref(hunt);
		return err;
	}
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_printf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		       "<meta charset=\"utf-8\">\n<title>irsnap hunt</title>\n"
		       "<style>\n%s</style>\n</head>\n<body>\n<h1>irsnap hunt"
		       "</h1>\n<p><code>", hunt_css);
	json_t *w;
	size_t i;
	json_array_foreach(json_object_get(hunt, "command"), i, w) {
		irs_buf_puts(&b, i ? " " : "");
		str(&b, w);
	}
	irs_buf_puts(&b, "</code><br>under ");
	str(&b, json_object_get(hunt, "debugger"));
	irs_buf_puts(&b, " with layout ");
	str(&b, json_object_get(hunt, "layout"));
	irs_buf_puts(&b, "</p>\n<p>");
	str(&b, json_object_get(hunt, "attempts"));
	irs_buf_puts(&b, " attempts of ");
	str(&b, json_object_get(hunt, "runs"));
	irs_buf_puts(&b, " in ");
	str(&b, json_object_get(hunt, "shard_count"));
	irs_buf_puts(&b, " shards: <b>");
	str(&b, json_object_get(hunt, "failures"));
	irs_buf_printf(&b, " failures</b> in %zu signature%s, ",
		       json_array_size(json_object_get(hunt, "groups")),
		       json_array_size(json_object_get(hunt, "groups")) == 1
		       ? "" : "s");
	str(&b, json_object_get(hunt, "timeouts"));
	irs_buf_puts(&b, " timed out.</p>\n");
	json_t *problems = json_object_get(hunt, "problems");
	if (json_array_size(problems)) {
		irs_buf_puts(&b, "<h2>Problems</h2>\n<ul>\n");
		json_array_foreach(problems, i, w) {
			irs_buf_puts(&b, "<li class=warn>");
			str(&b, w);
			irs_buf_puts(&b, "</li>\n");
		}
		irs_buf_puts(&b, "</ul>\n");
	}
	put_groups(&b, hunt);
	put_shards(&b, hunt);
	irs_buf_printf(&b, "<footer>irsnap %s hunt report</footer>\n</body>\n"
		       "</html>\n", IRS_VERSION);
	json_decref(hunt);
	err = b.oom ? &irs_enomem : irs_file_write(html_path, b.data, b.len);
	irs_buf_deinit(&b);
	return err;
}
