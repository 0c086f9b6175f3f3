// Console settings: irs_console_set/get and ir-set. See irsnap.h,
// "Console", and console.h for the two settings front ends fill in.
#include <stdlib.h>
#include <string.h>

#include "console/console.h"

#define DEFAULT_MAX_NODES 50000000ULL
#define DEFAULT_MAX_BYTES (4ULL << 30)
#define DEFAULT_MAX_DEPTH 10000U
#define DEFAULT_MAX_TEXT (16ULL << 30)
// Seconds a call verifier may run before the front end interrupts it.
#define DEFAULT_CALL_TIMEOUT 30U

static const char *const settings[] = {
	"dir", "max-nodes", "max-bytes", "max-depth", "format",
	"call-timeout", "max-text", NULL,
};

// What each of settings[] is, in its order: the help texts of GDB's `set
// irsnap KEY` and `show irsnap KEY`.
static const char *const helps[] = {
	"the directory run directories go to (default $IRSNAP_DIR or "
	"./irsnap-out)",
	"the most IR nodes one snapshot walks (K, M, G suffixes)",
	"the most debuggee bytes one snapshot reads",
	"the deepest nesting one snapshot follows",
	"the snapshot files written: auto, text, json or both (auto: a "
	"trace writes text, and the JSON graph of a failing pass's input "
	"and of the crash; ir-dump -o writes both)",
	"the seconds a call verifier may run in the debuggee before irsnap "
	"interrupts it (0: no limit)",
	"the most bytes of text (and of JSON) one snapshot writes",
};
_Static_assert(ARRAY_SIZE(helps) + 1 == ARRAY_SIZE(settings),
	       "a help text for every setting");

const char *const *
irs_console_settings(void)
{
	return settings;
}

const char *
irs_console_setting_help(const char *key)
{
	for (size_t i = 0; key && settings[i]; i++)
		if (!strcmp(settings[i], key))
			return helps[i];
	return NULL;
}

static struct irs_error *
set_string(char **slot, const char *value)
{
	char *v = value && *value ? strdup(value) : NULL;
	if (value && *value && !v)
		return &irs_enomem;
	free(*slot);
	*slot = v;
	return NULL;
}

static struct irs_error *
set_format(struct console_settings *s, const char *value)
{
	s->format_auto = !strcmp(value, "auto");
	if (s->format_auto)
		s->text = true, s->json = true;
	else if (!strcmp(value, "text"))
		s->text = true, s->json = false;
	else if (!strcmp(value, "json"))
		s->text = false, s->json = true;
	else if (!strcmp(value, "both"))
		s->text = true, s->json = true;
	else
		return irs_error_format(IRS_ERROR_USAGE,
			"irsnap: format must be auto, text, json or both, "
			"not '%s'",
			value);
	return NULL;
}

static struct irs_error *
set_limit(const char *key, const char *value, struct irs_limits *l)
{
	struct irs_error *err;
	uint64_t v;

	char what[64];
	snprintf(what, sizeof(what), "%s", key);
	if ((err = console_parse_u64("irsnap", what, value, &v)))
		return err;
	if (!strcmp(key, "max-nodes")) {
		l->max_nodes = v;
	} else if (!strcmp(key, "max-bytes")) {
		l->max_bytes = v;
	} else if (!strcmp(key, "max-text")) {
		l->max_text = v;
	} else {
		if (v > UINT32_MAX)
			return irs_error_format(IRS_ERROR_USAGE,
				"irsnap: max-depth %s is too large", value);
		l->max_depth = (uint32_t)v;
	}
	return NULL;
}

struct irs_error *
irs_console_set(struct irs_console *c, const char *key, const char *value)
{
	struct irs_error *err;

	if (!key || !value)
		return irs_error_format(IRS_ERROR_USAGE,
					"irsnap: usage: ir-set KEY VALUE");
	if (!strcmp(key, "debugger"))
		return set_string(&c->set.debugger, value);
	if (!strcmp(key, "args"))
		return set_string(&c->set.args, value);
	if (!strcmp(key, "call-timeout")) {
		// Not recorded in the run: no new run directory for it.
		uint64_t v;
		if ((err = console_parse_u64("irsnap", "call-timeout", value,
					     &v)))
			return err;
		c->set.call_timeout = v > 86400 ? 86400 : (uint32_t)v;
		c->set.call_timeout_set = true;
		return NULL;
	}
	struct console_settings s = c->set;
	if (!strcmp(key, "dir"))
		err = NULL;
	else if (!strcmp(key, "format"))
		err = set_format(&s, value);
	else if (!strcmp(key, "max-nodes") || !strcmp(key, "max-bytes") ||
		 !strcmp(key, "max-depth") || !strcmp(key, "max-text"))
		err = set_limit(key, value, &s.limits);
	else
		err = irs_error_format(IRS_ERROR_USAGE,
			"irsnap: unknown setting '%s' (settings: dir, "
			"max-nodes, max-bytes, max-depth, max-text, format, "
			"call-timeout)", key);
	if (!err && !strcmp(key, "dir"))
		err = set_string(&c->set.dir, value);
	if (err)
		return err;
	s.dir = c->set.dir;
	c->set = s;
	c->no_rundir = false;	// the next traced pass tries again
	// A run directory records one configuration: the next traced pass
	// starts a new run with the new settings.
	char why[96];
	snprintf(why, sizeof(why), "the %s setting changed", key);
	console_end_session(c, why);
	return NULL;
}

struct irs_error *
irs_console_get(const struct irs_console *c, const char *key, char **ret)
{
	const struct irs_limits *l = &c->set.limits;
	char *v = NULL;
	int rc = 0;

	if (!key)
		key = "";
	if (!strcmp(key, "dir")) {
		const char *env = getenv("IRSNAP_DIR");
		v = strdup(c->set.dir ? c->set.dir :
			   env && *env ? env : "./irsnap-out");
	} else if (!strcmp(key, "format")) {
		v = strdup(c->set.format_auto ? "auto" :
			   c->set.text && c->set.json ? "both" :
			   c->set.text ? "text" : "json");
	} else if (!strcmp(key, "max-nodes")) {
		rc = asprintf(&v, "%llu", (unsigned long long)(l->max_nodes ?
			      l->max_nodes : DEFAULT_MAX_NODES));
	} else if (!strcmp(key, "max-bytes")) {
		rc = asprintf(&v, "%llu", (unsigned long long)(l->max_bytes ?
			      l->max_bytes : DEFAULT_MAX_BYTES));
	} else if (!strcmp(key, "max-depth")) {
		rc = asprintf(&v, "%u", l->max_depth ? l->max_depth :
			      DEFAULT_MAX_DEPTH);
	} else if (!strcmp(key, "max-text")) {
		rc = asprintf(&v, "%llu", (unsigned long long)(l->max_text ?
			      l->max_text : DEFAULT_MAX_TEXT));
	} else if (!strcmp(key, "call-timeout")) {
		rc = asprintf(&v, "%u", irs_console_call_timeout(c));
	} else if (!strcmp(key, "debugger") || !strcmp(key, "args")) {
		const char *s = key[0] == 'd' ? c->set.debugger : c->set.args;
		v = strdup(s ? s : "");
	} else {
		return irs_error_format(IRS_ERROR_USAGE,
			"ir-set: unknown setting '%s' (settings: dir, "
			"max-nodes, max-bytes, max-depth, max-text, format, "
			"call-timeout)", key);
	}
	if (rc < 0 || !v)
		return &irs_enomem;
	*ret = v;
	return NULL;
}

uint32_t
irs_console_call_timeout(const struct irs_console *c)
{
	return c->set.call_timeout_set ? c->set.call_timeout
				       : DEFAULT_CALL_TIMEOUT;
}

struct irs_error *
console_cmd_set(struct irs_console *c, const struct console_args *a,
	struct irs_buf *out)
{
	struct irs_error *err;
	const char *const *k;

	if (a->nwords == 0) {
		for (k = irs_console_settings(); *k; k++) {
			char *v;
			if ((err = irs_console_get(c, *k, &v)))
				return err;
			irs_buf_printf(out, "%s %s\n", *k, v);
			irs_free(v);
		}
		return NULL;
	}
	if (a->nwords == 1) {
		char *v;
		if ((err = irs_console_get(c, a->words[0].text, &v)))
			return err;
		irs_buf_printf(out, "%s %s\n", a->words[0].text, v);
		irs_free(v);
		return NULL;
	}
	if (a->nwords != 2)
		return irs_error_format(IRS_ERROR_USAGE,
			"ir-set: usage: ir-set KEY VALUE (quote a VALUE with "
			"blanks)");
	// irs_console_set() speaks for every front end ("irsnap: ..."; GDB's
	// `set irsnap` shows it so); here the command is ir-set
	struct irs_error *err2 = irs_console_set(c, a->words[0].text,
						 a->words[1].text);
	if (err2 && err2 != &irs_enomem && err2->message &&
	    !strncmp(err2->message, "irsnap: ", 8)) {
		struct irs_error *e = irs_error_format(err2->code, "ir-set: %s",
						       err2->message + 8);
		irs_error_destroy(err2);
		return e;
	}
	return err2;
}
