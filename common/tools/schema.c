// A JSON Schema validator for the draft 2020-12 subset irsnap's schemas
// use (tools.h lists it). Problems come out one a line with the file and
// the JSON path, "run/manifest.json: $.events[3].hash: expected string",
// because the user's next step is to open that file at that place.
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools.h"

// Keywords that only annotate; anything else we do not know is refused, so
// a schema never silently relies on a check this validator skips.
static const char *const annotations[] = {
	"$schema", "$id", "$comment", "$defs", "title", "description",
	"examples", "default",
};

struct pattern {
	const char *source;	// borrowed from the schema document
	regex_t *re;
};

struct vctx {
	const json_t *schema;	// the whole schema document, for $ref
	const char *file;
	struct irs_buf *out;	// NULL while trying a branch of anyOf/oneOf
	uint32_t nproblems;
	bool type_miss;		// a "type" failed at the branch's own path
	bool const_miss;	// a const or enum failed (a discriminator)
	size_t branch_depth;	// path length where the branch started
	struct irs_buf path;	// "$.events[3].hash"
	struct pattern_owner *owner;	// compiled patterns, shared
	struct irs_error *err;	// broken schema or OOM: stops everything
};

// The compiled patterns, compiled once per validation and shared by a
// context and its branch copies.
struct pattern_owner {
	struct pattern *items;
	size_t n, cap;
};

static void check(struct vctx *v, const json_t *s, const json_t *x);

/* {==== Problems and paths ============================================== */

static void
problem(struct vctx *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
problem(struct vctx *v, const char *fmt, ...)
{
	v->nproblems++;
	if (!v->out || v->nproblems > IRS_SCHEMA_MAX_LINES)
		return;
	char *msg;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		v->out->oom = true;
		return;
	}
	irs_buf_printf(v->out, "%s: %s: %s\n", v->file, v->path.data, msg);
	free(msg);
}

static bool
is_ident(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

// Appends ".key" (or ["key"]) to the path; returns the old length.
static size_t
path_push_key(struct vctx *v, const char *key)
{
	size_t old = v->path.len;
	if (is_ident(key)) {
		irs_buf_append(&v->path, ".", 1);
		irs_buf_puts(&v->path, key);
	} else {
		irs_buf_puts(&v->path, "[");
		irs_buf_json_string(&v->path, key, strlen(key));
		irs_buf_puts(&v->path, "]");
	}
	return old;
}

static size_t
path_push_index(struct vctx *v, size_t i)
{
	char tmp[32];
	size_t old = v->path.len;
	int n = snprintf(tmp, sizeof(tmp), "[%zu]", i);
	irs_buf_append(&v->path, tmp, (size_t)n);
	return old;
}

static void
path_pop(struct vctx *v, size_t len)
{
	v->path.len = len;
	if (v->path.data)
		v->path.data[len] = '\0';
}

static const char *
type_name(const json_t *x)
{
	switch (json_typeof(x)) {
	case JSON_OBJECT: return "object";
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "integer";
	case JSON_REAL: return "number";
	case JSON_TRUE:
	case JSON_FALSE: return "boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

// A short rendering of a value for messages: scalars in full (cut), and
// containers by kind.
static char *
show(const json_t *x)
{
	if (json_is_object(x))
		return strdup("an object");
	if (json_is_array(x))
		return strdup("an array");
	char *s = json_dumps(x, JSON_ENCODE_ANY);
	if (s && strlen(s) > 60)
		strcpy(s + 56, json_is_string(x) ? "...\"" : "...");
	return s;
}

static void
schema_error(struct vctx *v, const char *fmt, const char *what)
{
	if (!v->err)
		v->err = irs_error_format(IRS_ERROR_FORMAT, fmt, what);
}

/* }==== Keywords ======================================================== */

static bool
type_is(const json_t *x, const char *t)
{
	if (!strcmp(t, "object"))
		return json_is_object(x);
	if (!strcmp(t, "array"))
		return json_is_array(x);
	if (!strcmp(t, "string"))
		return json_is_string(x);
	if (!strcmp(t, "boolean"))
		return json_is_boolean(x);
	if (!strcmp(t, "null"))
		return json_is_null(x);
	if (!strcmp(t, "number"))
		return json_is_number(x);
	if (!strcmp(t, "integer")) {
		if (json_is_integer(x))
			return true;
		double d = json_is_real(x) ? json_real_value(x) : 0.5;
		return isfinite(d) && d == floor(d);
	}
	return false;
}

// True when @p x is of the type(s) @p t names; sets *bad for a bad "type".
static bool
type_matches(const json_t *t, const json_t *x, bool *bad)
{
	size_t i;
	json_t *e;

	if (json_is_string(t))
		return type_is(x, json_string_value(t));
	if (!json_is_array(t)) {
		*bad = true;
		return false;
	}
	json_array_foreach(t, i, e) {
		if (!json_is_string(e)) {
			*bad = true;
			return false;
		}
		if (type_is(x, json_string_value(e)))
			return true;
	}
	return false;
}

static void
check_type(struct vctx *v, const json_t *t, const json_t *x)
{
	struct irs_buf want;
	bool bad = false;
	size_t i;
	json_t *e;

	if (type_matches(t, x, &bad))
		return;
	if (bad) {
		schema_error(v, "schema: %s", "bad \"type\"");
		return;
	}
	if (v->path.len == v->branch_depth)
		v->type_miss = true;
	if (!v->out || v->nproblems >= IRS_SCHEMA_MAX_LINES) {
		v->nproblems++;		// counted, not shown: skip the text
		return;
	}
	irs_buf_init(&want);
	if (json_is_string(t))
		irs_buf_puts(&want, json_string_value(t));
	json_array_foreach(t, i, e)
		irs_buf_printf(&want, "%s%s", i ? " or " : "",
			       json_string_value(e));
	problem(v, "expected %s, got %s", want.data ? want.data : "?",
		type_name(x));
	irs_buf_deinit(&want);
}

static void
check_const(struct vctx *v, const json_t *c, const json_t *x)
{
	if (json_equal((json_t *)c, (json_t *)x))
		return;
	v->const_miss = true;
	char *want = show(c), *got = show(x);
	problem(v, "expected %s, got %s", want ? want : "?", got ? got : "?");
	free(want);
	free(got);
}

static void
check_enum(struct vctx *v, const json_t *e, const json_t *x)
{
	size_t i;
	json_t *c;

	if (!json_is_array(e)) {
		schema_error(v, "schema: %s", "\"enum\" is not an array");
		return;
	}
	json_array_foreach(e, i, c)
		if (json_equal(c, (json_t *)x))
			return;
	v->const_miss = true;
	struct irs_buf want;
	irs_buf_init(&want);
	json_array_foreach(e, i, c) {
		char *one = show(c);
		irs_buf_printf(&want, "%s%s", i ? ", " : "", one ? one : "?");
		free(one);
	}
	char *got = show(x);
	problem(v, "expected one of %s; got %s", want.data ? want.data : "?",
		got ? got : "?");
	irs_buf_deinit(&want);
	free(got);
}

static regex_t *
compiled(struct vctx *v, const char *source)
{
	struct pattern_owner *o = v->owner;
	for (size_t i = 0; i < o->n; i++)
		if (o->items[i].source == source)
			return o->items[i].re;
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 8;
		struct pattern *p = realloc(o->items, cap * sizeof(*p));
		if (!p) {
			v->err = &irs_enomem;
			return NULL;
		}
		o->items = p;
		o->cap = cap;
	}
	regex_t *re = malloc(sizeof(*re));
	if (!re) {
		v->err = &irs_enomem;
		return NULL;
	}
	if (regcomp(re, source, REG_EXTENDED | REG_NOSUB) != 0) {
		free(re);
		schema_error(v, "schema: bad pattern %s", source);
		return NULL;
	}
	o->items[o->n].source = source;
	o->items[o->n++].re = re;
	return re;
}

static void
check_pattern(struct vctx *v, const json_t *p, const json_t *x)
{
	if (!json_is_string(p)) {
		schema_error(v, "schema: %s", "\"pattern\" is not a string");
		return;
	}
	if (!json_is_string(x))
		return;
	regex_t *re = compiled(v, json_string_value(p));
	if (!re)
		return;
	// A string with a NUL inside cannot match a pattern meant for text.
	if (strlen(json_string_value(x)) == json_string_length(x) &&
	    regexec(re, json_string_value(x), 0, NULL, 0) == 0)
		return;
	char *got = show(x);
	problem(v, "%s does not match %s", got ? got : "string",
		json_string_value(p));
	free(got);
}

static void
check_minimum(struct vctx *v, const json_t *m, const json_t *x)
{
	if (!json_is_number(m)) {
		schema_error(v, "schema: %s", "\"minimum\" is not a number");
		return;
	}
	if (!json_is_number(x))
		return;
	if (json_is_integer(m) && json_is_integer(x)) {
		if (json_integer_value(x) < json_integer_value(m))
			problem(v, "%lld is less than %lld",
				(long long)json_integer_value(x),
				(long long)json_integer_value(m));
		return;
	}
	if (json_number_value(x) < json_number_value(m))
		problem(v, "%g is less than %g", json_number_value(x),
			json_number_value(m));
}

static void
check_min_count(struct vctx *v, const json_t *m, const json_t *x,
		const char *kw)
{
	if (!json_is_integer(m)) {
		schema_error(v, "schema: \"%s\" is not an integer", kw);
		return;
	}
	long long want = (long long)json_integer_value(m);
	if (!strcmp(kw, "minItems") && json_is_array(x) &&
	    (long long)json_array_size(x) < want)
		problem(v, "%zu items, at least %lld expected",
			json_array_size(x), want);
	if (!strcmp(kw, "minLength") && json_is_string(x) &&
	    (long long)json_string_length(x) < want)
		problem(v, "%zu characters, at least %lld expected",
			json_string_length(x), want);
}

static void
check_required(struct vctx *v, const json_t *r, const json_t *x)
{
	size_t i;
	json_t *k;

	if (!json_is_array(r)) {
		schema_error(v, "schema: %s", "\"required\" is not an array");
		return;
	}
	if (!json_is_object(x))
		return;
	json_array_foreach(r, i, k) {
		if (!json_is_string(k)) {
			schema_error(v, "schema: %s", "bad \"required\"");
			return;
		}
		if (!json_object_get(x, json_string_value(k)))
			problem(v, "missing member \"%s\"",
				json_string_value(k));
	}
}

static void
check_properties(struct vctx *v, const json_t *s, const json_t *x)
{
	const json_t *props = json_object_get(s, "properties");
	const json_t *extra = json_object_get(s, "additionalProperties");
	const char *key;
	json_t *val;

	if (props && !json_is_object(props)) {
		schema_error(v, "schema: %s",
			     "\"properties\" is not an object");
		return;
	}
	if (!json_is_object(x))
		return;
	json_object_foreach((json_t *)x, key, val) {
		const json_t *sub = props ? json_object_get(props, key) : NULL;
		if (!sub)
			sub = extra;	// NULL: anything goes
		if (!sub)
			continue;
		size_t old = path_push_key(v, key);
		if (json_is_false(sub) && sub == extra)
			problem(v, "unexpected member");
		else
			check(v, sub, val);
		path_pop(v, old);
		if (v->err)
			return;
	}
}

static void
check_items(struct vctx *v, const json_t *s, const json_t *x)
{
	const json_t *prefix = json_object_get(s, "prefixItems");
	const json_t *items = json_object_get(s, "items");
	size_t nprefix = prefix ? json_array_size(prefix) : 0;

	if (prefix && !json_is_array(prefix)) {
		schema_error(v, "schema: %s",
			     "\"prefixItems\" is not an array");
		return;
	}
	if (!json_is_array(x))
		return;
	for (size_t i = 0; i < json_array_size(x) && !v->err; i++) {
		const json_t *sub = i < nprefix ? json_array_get(prefix, i)
						: items;
		if (!sub)
			continue;
		size_t old = path_push_index(v, i);
		if (json_is_false(sub))
			problem(v, "unexpected item (at most %zu)", nprefix);
		else
			check(v, sub, json_array_get(x, i));
		path_pop(v, old);
	}
}

/* }==== $ref, anyOf and oneOf ============================================ */

// Resolves "#/$defs/name" (any JSON pointer within the document).
static const json_t *
resolve(struct vctx *v, const json_t *ref)
{
	const char *r = json_string_value(ref);
	if (!r || r[0] != '#') {
		schema_error(v, "schema: unsupported $ref %s", r ? r : "?");
		return NULL;
	}
	const json_t *at = v->schema;
	const char *p = r + 1;
	while (*p == '/' && at) {
		char key[256];
		size_t n = 0;
		for (p++; *p && *p != '/' && n + 1 < sizeof(key); p++) {
			if (p[0] == '~' && p[1] == '0') {
				key[n++] = '~';
				p++;
			} else if (p[0] == '~' && p[1] == '1') {
				key[n++] = '/';
				p++;
			} else {
				key[n++] = *p;
			}
		}
		key[n] = '\0';
		if (json_is_array(at))
			at = json_array_get(at, strtoul(key, NULL, 10));
		else
			at = json_object_get(at, key);
	}
	if (!at || *p)
		schema_error(v, "schema: $ref %s leads nowhere", r);
	return *p ? NULL : at;
}

// How well a failed branch fits: lower is a better guess of what the
// writer meant. A branch whose type or discriminator (const) did not match
// was plainly not meant.
static unsigned long
branch_score(const struct vctx *b)
{
	return (b->type_miss ? 1UL << 40 : 0) + (b->const_miss ? 1UL << 30 : 0)
	       + b->nproblems;
}

static void
branch_init(struct vctx *b, const struct vctx *v, struct irs_buf *out)
{
	*b = *v;
	b->out = out;
	b->nproblems = 0;
	b->type_miss = b->const_miss = false;
	b->branch_depth = v->path.len;
	// The path buffer is shared: a branch pushes and pops symmetrically.
}

// Appends the type an alternative demands ("null", "string or null") to
// @p b, following $ref; false when it demands none we can name.
static bool
branch_types(struct vctx *v, const json_t *s, struct irs_buf *b)
{
	for (int hops = 0; hops < 16 && json_is_object(s); hops++) {
		const json_t *t = json_object_get(s, "type");
		const json_t *ref = json_object_get(s, "$ref");
		if (json_is_string(t)) {
			irs_buf_printf(b, "%s%s", b->len ? " or " : "",
				       json_string_value(t));
			return true;
		}
		if (json_is_array(t)) {
			size_t i;
			json_t *e;
			json_array_foreach(t, i, e)
				irs_buf_printf(b, "%s%s", b->len ? " or " : "",
					       json_string_value(e) ?
					       json_string_value(e) : "?");
			return true;
		}
		if (!ref)
			return false;
		s = resolve(v, ref);
	}
	return false;
}

// Runs each alternative of anyOf/oneOf; when none fits (or, for oneOf,
// several do) reports the best-fitting alternative's problems, or one
// "expected A or B" line when the value's type fits none of them.
static void
check_alternatives(struct vctx *v, const json_t *alts, const json_t *x,
		   bool one)
{
	size_t nmatch = 0, best = 0;
	unsigned long best_score = ~0UL;
	bool all_type_miss = true;
	struct irs_buf types;

	if (!json_is_array(alts) || json_array_size(alts) == 0) {
		schema_error(v, "schema: %s", "bad anyOf/oneOf");
		return;
	}
	irs_buf_init(&types);
	for (size_t i = 0; i < json_array_size(alts) && !v->err; i++) {
		struct vctx b;
		const json_t *alt = json_array_get(alts, i);
		branch_init(&b, v, NULL);
		check(&b, alt, x);
		v->path = b.path;	// the buffer may have moved
		v->err = b.err;
		if (b.nproblems == 0) {
			nmatch++;
			continue;
		}
		if (!b.type_miss || !branch_types(v, alt, &types))
			all_type_miss = false;
		if (branch_score(&b) < best_score) {
			best_score = branch_score(&b);
			best = i;
		}
	}
	if (v->err || (one ? nmatch == 1 : nmatch > 0)) {
		irs_buf_deinit(&types);
		return;
	}
	if (nmatch > 1) {
		problem(v, "matches %zu of the oneOf alternatives, 1 expected",
			nmatch);
	} else if (all_type_miss) {
		if (v->path.len == v->branch_depth)
			v->type_miss = true;
		problem(v, "expected %s, got %s",
			types.data ? types.data : "?", type_name(x));
	} else {
		// Re-run the best guess, this time reporting into our output.
		struct vctx b;
		branch_init(&b, v, v->out);
		b.nproblems = v->nproblems;
		check(&b, json_array_get(alts, best), x);
		v->path = b.path;
		v->err = b.err;
		v->nproblems = b.nproblems;
		v->const_miss |= b.const_miss;
	}
	irs_buf_deinit(&types);
}

/* }==== The walk ========================================================= */

static bool
known_keyword(const char *k)
{
	static const char *const kws[] = {
		"type", "properties", "required", "items", "prefixItems",
		"enum", "const", "pattern", "minimum", "minItems", "minLength",
		"additionalProperties", "$ref", "anyOf", "oneOf",
	};
	for (size_t i = 0; i < ARRAY_SIZE(kws); i++)
		if (!strcmp(k, kws[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(annotations); i++)
		if (!strcmp(k, annotations[i]))
			return true;
	return false;
}

// Applies schema @s to instance @x at the current path.
static void
check(struct vctx *v, const json_t *s, const json_t *x)
{
	const char *kw;
	json_t *arg;

	if (v->err)
		return;
	if (json_is_true(s))
		return;
	if (json_is_false(s)) {
		problem(v, "not allowed here");
		return;
	}
	if (!json_is_object(s)) {
		schema_error(v, "schema: %s", "a schema is not an object");
		return;
	}
	json_object_foreach((json_t *)s, kw, arg) {
		if (v->err)
			return;
		if (!strcmp(kw, "type"))
			check_type(v, arg, x);
		else if (!strcmp(kw, "const"))
			check_const(v, arg, x);
		else if (!strcmp(kw, "enum"))
			check_enum(v, arg, x);
		else if (!strcmp(kw, "pattern"))
			check_pattern(v, arg, x);
		else if (!strcmp(kw, "minimum"))
			check_minimum(v, arg, x);
		else if (!strcmp(kw, "minItems") || !strcmp(kw, "minLength"))
			check_min_count(v, arg, x, kw);
		else if (!strcmp(kw, "required"))
			check_required(v, arg, x);
		else if (!strcmp(kw, "$ref")) {
			const json_t *target = resolve(v, arg);
			if (target)
				check(v, target, x);
		} else if (!strcmp(kw, "anyOf"))
			check_alternatives(v, arg, x, false);
		else if (!strcmp(kw, "oneOf"))
			check_alternatives(v, arg, x, true);
		else if (!known_keyword(kw))
			schema_error(v, "schema: unsupported keyword "
				     "\"%s\"", kw);
	}
	// These depend on each other (additionalProperties on properties,
	// items on prefixItems), so they run once per schema object.
	if (json_object_get(s, "properties") ||
	    json_object_get(s, "additionalProperties"))
		check_properties(v, s, x);
	if (json_object_get(s, "items") || json_object_get(s, "prefixItems"))
		check_items(v, s, x);
}

struct irs_schema_run {
	struct vctx v;
	struct pattern_owner owner;
	json_t *own;		// the schema, when the run loaded it
};

// The embedded schemas, parsed and their patterns compiled once per
// process: `irsnap validate` of a run of 40,000 passes checks 160,000
// files, and parsing the schema and compiling its patterns for each took
// most of its time. Kept until exit (the CLI's, never the debugger's:
// tools are not linked into libirsnap).
struct cached_schema {
	const struct irs_schema_file *file;
	json_t *doc;
	struct pattern_owner patterns;
};
static struct cached_schema *cached;
static size_t ncached;

// The patterns compiled for @p schema when it is a cached one, else NULL.
static struct pattern_owner *
cached_patterns(const json_t *schema)
{
	for (size_t i = 0; i < ncached; i++)
		if (cached[i].doc == schema)
			return &cached[i].patterns;
	return NULL;
}

static struct irs_error *
run_start(const json_t *schema, const char *file, struct irs_buf *out,
	  struct irs_schema_run **ret)
{
	struct irs_schema_run *r = calloc(1, sizeof(*r));
	if (!r)
		return &irs_enomem;
	r->v.schema = schema;
	r->v.file = file;
	r->v.out = out;
	r->v.owner = cached_patterns(schema);
	if (!r->v.owner)
		r->v.owner = &r->owner;
	irs_buf_init(&r->v.path);
	*ret = r;
	return NULL;
}

struct irs_error *
irs_schema_run_start(const char *id, const char *file, struct irs_buf *out,
		     struct irs_schema_run **ret)
{
	json_t *schema;
	struct irs_error *err = irs_schema_load(id, &schema);
	if (err)
		return irs_error_prefix(err, id);
	if ((err = run_start(schema, file, out, ret))) {
		json_decref(schema);
		return err;
	}
	(*ret)->own = schema;
	return NULL;
}

struct irs_error *
irs_schema_run_check(struct irs_schema_run *r, const char *at,
		     const json_t *x, const char *path)
{
	struct vctx *v = &r->v;
	if (v->err)
		return v->err;
	const json_t *s = v->schema;
	if (at && strcmp(at, "#")) {
		json_t *ref = json_string(at);
		s = ref ? resolve(v, ref) : NULL;
		json_decref(ref);
		if (!ref)
			return &irs_enomem;
		if (!s)
			return v->err;
	}
	path_pop(v, 0);
	irs_buf_puts(&v->path, path ? path : "$");
	v->branch_depth = v->path.len;
	check(v, s, x);
	if (!v->err && v->path.oom)
		v->err = &irs_enomem;
	return v->err;
}

struct irs_error *
irs_schema_run_end(struct irs_schema_run *r, uint32_t *nproblems)
{
	struct vctx *v = &r->v;
	struct irs_error *err = v->err;
	if (!err && v->nproblems > IRS_SCHEMA_MAX_LINES)
		irs_buf_printf(v->out, "%s: ... %u more problems\n", v->file,
			       v->nproblems - IRS_SCHEMA_MAX_LINES);
	if (!err && v->out->oom)
		err = &irs_enomem;
	for (size_t i = 0; i < r->owner.n; i++) {
		regfree(r->owner.items[i].re);
		free(r->owner.items[i].re);
	}
	free(r->owner.items);
	irs_buf_deinit(&v->path);
	if (!err)
		*nproblems += v->nproblems;
	json_decref(r->own);
	free(r);
	return err;
}

struct irs_error *
irs_schema_validate_with(const json_t *schema, const json_t *doc,
			 const char *file, struct irs_buf *out,
			 uint32_t *nproblems)
{
	struct irs_schema_run *r = NULL;
	struct irs_error *err = run_start(schema, file, out, &r);
	if (err)
		return err;
	err = irs_schema_run_check(r, "#", doc, "$");
	struct irs_error *end = irs_schema_run_end(r, nproblems);
	return err ? err : end;
}

/* }==== Embedded schemas ================================================= */

struct irs_error *
irs_schema_load(const char *id, json_t **ret)
{
	// "irsnap.manifest/1" lives in manifest-1.schema.json.
	char name[128];
	const char *dot = strchr(id, '.');
	const char *slash = dot ? strchr(dot, '/') : NULL;
	if (!slash || strncmp(id, "irsnap.", 7) ||
	    (size_t)(slash - dot) + strlen(slash) + 16 > sizeof(name))
		return irs_error_format(IRS_ERROR_NOT_FOUND,
					"unknown schema \"%s\"", id);
	snprintf(name, sizeof(name), "%.*s-%s.schema.json",
		 (int)(slash - dot - 1), dot + 1, slash + 1);
	for (const struct irs_schema_file *f = irs_schema_files; f->name; f++) {
		if (strcmp(f->name, name))
			continue;
		for (size_t i = 0; i < ncached; i++)
			if (cached[i].file == f) {
				*ret = json_incref(cached[i].doc);
				return NULL;
			}
		json_error_t je;
		json_t *doc = json_loadb((const char *)f->text, f->len, 0, &je);
		if (!doc)
			return irs_error_format(IRS_ERROR_FORMAT,
				"%s:%d: %s", f->name, je.line, je.text);
		// Room for every embedded schema at once, never moved: a
		// run holds a pointer to its entry's patterns while another
		// schema gets cached (validate checks a snapshot file in the
		// middle of an event log's run).
		size_t nfiles = 0;
		while (irs_schema_files[nfiles].name)
			nfiles++;
		if (!cached)
			cached = calloc(nfiles, sizeof(*cached));
		if (cached && ncached < nfiles)	// else uncached: slower
			cached[ncached++] = (struct cached_schema){
				.file = f, .doc = json_incref(doc)};
		*ret = doc;
		return NULL;
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "unknown schema \"%s\"",
				id);
}

struct irs_error *
irs_schema_validate(const char *id, const json_t *doc, const char *file,
		    struct irs_buf *out, uint32_t *nproblems)
{
	json_t *schema;
	struct irs_error *err = irs_schema_load(id, &schema);
	if (err)
		return err;
	err = irs_schema_validate_with(schema, doc, file, out, nproblems);
	json_decref(schema);
	return irs_error_prefix(err, id);
}
