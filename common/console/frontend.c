// What the front ends' facts become, once for GDB and LLDB alike: types
// from a spelling, fields from a dotted path, a value's integer, the
// boundary breakpoints and the pairing of their hits, fatal signals, a
// core's signal, the debuggee's arguments. See irsnap.h, "Facts" and
// "Front ends".
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/console.h"

/* {====================================================================
** Types: spellings, fields, enumerators
** ===================================================================== */

static const char *const tags[] = {"struct ", "union ", "enum ", "class "};

static bool
is_aggregate(uint32_t kind)
{
	return kind == IRS_TYPE_STRUCT || kind == IRS_TYPE_UNION;
}

static struct irs_error *
no_answer(const char *what)
{
	return irs_error_format(IRS_ERROR_TARGET, "the debugger gives no %s "
				"here", what);
}

static struct irs_error *
facts(const struct irs_target *t, uint64_t type, struct irs_type_facts *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!t->type_facts)
		return no_answer("type facts");
	struct irs_error *err = t->type_facts(t->arg, type, ret);
	ret->name[sizeof(ret->name) - 1] = 0;
	return err;
}

static struct irs_error *
member(const struct irs_target *t, uint64_t type, uint32_t i,
       struct irs_member_facts *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!t->type_member)
		return no_answer("members");
	struct irs_error *err = t->type_member(t->arg, type, i, ret);
	ret->name[sizeof(ret->name) - 1] = 0;
	return err;
}

// A base name, as given, else with its tag dropped or with each tag added:
// GDB knows `struct Block` by its tag, LLDB by its bare name.
static struct irs_error *
lookup_base(const struct irs_target *t, const char *name, uint64_t *ret)
{
	struct irs_error *err;
	char alt[600];

	if (!t->type_lookup)
		return no_answer("types");
	if (!(err = t->type_lookup(t->arg, name, ret)))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(tags); i++) {
		if (err->code != IRS_ERROR_NOT_FOUND)
			return err;
		size_t n = strlen(tags[i]);
		if (!strncmp(name, tags[i], n)) {
			const char *rest = name + n;
			while (*rest == ' ')
				rest++;
			snprintf(alt, sizeof(alt), "%s", rest);
		} else if (i < 3 && !strchr(name, ' ')) {
			snprintf(alt, sizeof(alt), "%s%s", tags[i], name);
		} else {
			continue;
		}
		irs_error_destroy(err);
		if (!(err = t->type_lookup(t->arg, alt, ret)))
			return NULL;
	}
	if (err->code != IRS_ERROR_NOT_FOUND)
		return err;
	// A C++ name as the compiler that wrote the DWARF spelt it: LLDB
	// finds a type by that spelling only (`4U`, `const T *`).
	static const enum irs_cxx_style styles[] = {
		IRS_CXX_CLANG, IRS_CXX_CLANG_UNSIGNED, IRS_CXX_GCC,
		IRS_CXX_GDB,
	};
	for (size_t i = 0; irs_cxx_is_template(name) &&
	     i < ARRAY_SIZE(styles); i++) {
		if (err->code != IRS_ERROR_NOT_FOUND)
			return err;
		if (!irs_cxx_spell(name, styles[i], alt, sizeof(alt)) ||
		    !strcmp(alt, name))
			continue;
		irs_error_destroy(err);
		if (!(err = t->type_lookup(t->arg, alt, ret)))
			return NULL;
	}
	if (err->code != IRS_ERROR_NOT_FOUND)
		return err;
	irs_error_destroy(err);
	return irs_error_format(IRS_ERROR_NOT_FOUND, "no type '%s' in the "
				"debug info", name);
}

static bool
all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

// A type by its C spelling: "Instr", "struct Block *", "char [32]" (an
// array), "T []" (a pointer). requires: depth bounds the recursion.
static struct irs_error *
lookup(const struct irs_target *t, const char *spelling, int depth,
       uint64_t *ret)
{
	struct irs_error *err;
	char name[300];
	uint64_t base;

	while (*spelling == ' ')
		spelling++;
	snprintf(name, sizeof(name), "%s", spelling);
	size_t n = strlen(name);
	while (n && name[n - 1] == ' ')
		name[--n] = 0;
	char *open = n && name[n - 1] == ']' ? strrchr(name, '[') : NULL;
	bool array = open && all_digits(open + 1, (size_t)(name + n - 1 -
							    open - 1));
	bool pointer = !array && n && name[n - 1] == '*';
	if ((!array && !pointer) || depth > 16)
		return lookup_base(t, name, ret);
	uint64_t count = array ? strtoull(open + 1, NULL, 10) : 0;
	bool sized = array && open[1] != ']';
	*(array ? open : name + n - 1) = 0;
	if ((err = lookup(t, name, depth + 1, &base)))
		return err;
	if (!t->type_derive)
		return no_answer("pointer or array types");
	return t->type_derive(t->arg, base, sized, count, ret);
}

struct irs_error *
irs_frontend_type_size(const struct irs_target *t, const char *type,
		       uint64_t *ret)
{
	struct irs_error *err;
	struct irs_type_facts f;
	uint64_t h;

	if ((err = lookup(t, type, 0, &h)) || (err = facts(t, h, &f)))
		return err;
	if (f.size == 0 && !f.complete)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "type '%s' is "
					"incomplete in the debug info (only "
					"declared)", type);
	*ret = f.size;
	return NULL;
}

// "struct Instr" -> "Instr": the name a layout uses.
static const char *
bare(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(tags); i++)
		if (!strncmp(s, tags[i], strlen(tags[i])))
			return s + strlen(tags[i]);
	return s;
}

// Describes a field of type @p type at bit @p bitpos (@p bitsize bits if a
// bitfield): a bitfield by its storage unit when it fits in one aligned
// unit of its declared type, else by the bytes it spans.
static struct irs_error *
fill_field(const struct irs_target *t, uint64_t type, uint64_t bitpos,
	   uint32_t bitsize, struct irs_field_info *fi)
{
	struct irs_error *err;
	struct irs_type_facts f, target;

	if ((err = facts(t, type, &f)))
		return err;
	memset(fi, 0, sizeof(*fi));
	uint64_t size = f.size;
	if (bitsize) {
		uint64_t unit = size * 8;
		uint64_t start = unit ? bitpos / unit * unit : bitpos;
		if (unit && bitpos + bitsize <= start + unit) {
			fi->offset = start / 8;
			fi->bit_offset = (uint32_t)(bitpos - start);
		} else {
			fi->offset = bitpos / 8;
			fi->bit_offset = (uint32_t)(bitpos % 8);
			size = (fi->bit_offset + bitsize + 7) / 8;
		}
		fi->bit_size = bitsize;
	} else {
		fi->offset = bitpos / 8;
	}
	fi->size = size;
	fi->kind = f.kind;
	fi->count = f.kind == IRS_TYPE_ARRAY ? f.count : 0;
	snprintf(fi->type_name, sizeof(fi->type_name), "%s", f.name);
	if (f.target) {
		if ((err = facts(t, f.target, &target)))
			return err;
		snprintf(fi->target_name, sizeof(fi->target_name), "%s",
			 bare(target.name));
	}
	return NULL;
}

// Whether member @p m of a C++ class is a base class: the front ends
// report a base as a member named by its type (GDB's fields() do).
static bool
is_base(const struct irs_target *t, const struct irs_member_facts *m)
{
	struct irs_type_facts f;
	if (!m->name[0] || !strpbrk(m->name, ":<"))
		return false;
	struct irs_error *err = facts(t, m->type, &f);
	bool base = !err && is_aggregate(f.kind) && !strcmp(bare(f.name),
							     m->name);
	irs_error_destroy(err);
	return base;
}

// Whether path component @p name names member @p m: by its name, or, for
// a base class, by its short name too ("ilist_node_base" for
// "llvm::ilist_node_base<false>").
static bool
names(const struct irs_target *t, const struct irs_member_facts *m,
      const char *name)
{
	char short_name[sizeof(m->name)];
	if (!strcmp(m->name, name))
		return true;
	if (!strpbrk(m->name, ":<") || strpbrk(name, ":<") || !is_base(t, m))
		return false;
	irs_cxx_short_name(m->name, short_name, sizeof(short_name));
	return !strcmp(short_name, name);
}

// Finds member @p name of struct or union @p type, looking inside its
// anonymous members and then its base classes (depth first, in
// declaration order: C++ lookup, less its ambiguity errors); adds its
// offset in bits to *bits.
static struct irs_error *
find_member(const struct irs_target *t, uint64_t type, const char *name,
	    int depth, uint64_t *bits, struct irs_member_facts *ret,
	    bool *found)
{
	struct irs_error *err;
	struct irs_type_facts f, inner;
	struct irs_member_facts m;

	*found = false;
	if (depth > 64 || (err = facts(t, type, &f)))
		return depth > 64 ? NULL : err;
	for (uint32_t i = 0; i < f.nmembers; i++) {
		if ((err = member(t, type, i, &m)))
			return err;
		if (names(t, &m, name)) {
			*bits += m.bit_offset;
			*ret = m;
			*found = true;
			return NULL;
		}
	}
	for (uint32_t i = 0; i < f.nmembers; i++) {
		if ((err = member(t, type, i, &m)))
			return err;
		if ((m.name[0] && !is_base(t, &m)) ||
		    (err = facts(t, m.type, &inner)))
			continue;
		if (!is_aggregate(inner.kind))
			continue;
		uint64_t b = *bits + m.bit_offset;
		if ((err = find_member(t, m.type, name, depth + 1, &b, ret,
				       found)) || *found) {
			*bits = b;
			return err;
		}
	}
	return NULL;
}

// Member @p path ("u.def") of @p type, through anonymous members: *m gets
// it, *bits its offset in bits. requires: *path.
static struct irs_error *
member_at(const struct irs_target *t, const char *type, const char *path,
	  struct irs_member_facts *m, uint64_t *bits)
{
	struct irs_error *err;
	struct irs_type_facts f;
	uint64_t cur;
	bool found;

	*bits = 0;
	if ((err = lookup(t, type, 0, &cur)))
		return err;
	for (const char *part = path; part;) {
		const char *dot = strchr(part, '.');
		char name[256];
		snprintf(name, sizeof(name), "%.*s",
			 (int)(dot ? (size_t)(dot - part) : strlen(part)),
			 part);
		if ((err = facts(t, cur, &f)))
			return err;
		if (!is_aggregate(f.kind)) {
			struct irs_type_facts st;
			if ((err = facts(t, f.stripped ? f.stripped : cur,
					 &st)))
				return err;
			return irs_error_format(IRS_ERROR_NOT_FOUND,
				"'%s' in %s: %s is not a struct or union",
				path, type, st.name);
		}
		if ((err = find_member(t, cur, name, 0, bits, m, &found)))
			return err;
		if (!found && !strcmp(name, path))
			return irs_error_format(IRS_ERROR_NOT_FOUND,
				"no field '%s' in %s", path, type);
		if (!found)
			return irs_error_format(IRS_ERROR_NOT_FOUND,
				"no field '%s' (of '%s') in %s", name, path,
				type);
		cur = m->type;
		part = dot ? dot + 1 : NULL;
	}
	return NULL;
}

struct irs_error *
irs_frontend_field(const struct irs_target *t, const char *type,
		   const char *path, struct irs_field_info *ret)
{
	struct irs_error *err;
	struct irs_member_facts m;
	uint64_t cur, bits;

	if (!*path) {		// the whole type
		if ((err = lookup(t, type, 0, &cur)))
			return err;
		return fill_field(t, cur, 0, 0, ret);
	}
	if ((err = member_at(t, type, path, &m, &bits)))
		return err;
	return fill_field(t, m.type, bits, m.bit_size, ret);
}

struct irs_error *
irs_frontend_enumerator(const struct irs_target *t, const char *type,
			uint32_t index, char *name, uint64_t len,
			int64_t *value)
{
	struct irs_error *err;
	struct irs_type_facts f;
	struct irs_member_facts m;
	uint64_t h, bits;
	char owner[300];

	// "T.path": the type of member path of T, for an anonymous enum
	const char *dot = strchr(type, '.');
	if (dot) {
		snprintf(owner, sizeof(owner), "%.*s", (int)(dot - type), type);
		if ((err = member_at(t, owner, dot + 1, &m, &bits)))
			return err;
		h = m.type;
	} else if ((err = lookup(t, type, 0, &h))) {
		return err;
	}
	if ((err = facts(t, h, &f)))
		return err;
	if (f.kind != IRS_TYPE_ENUM)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s is not an "
					"enum", type);
	if (index >= f.nmembers)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "%s has %u "
					"enumerators", type, f.nmembers);
	if (!t->type_enumerator)
		return no_answer("enumerators");
	if (len)
		name[0] = 0;
	err = t->type_enumerator(t->arg, h, index, name, len, value);
	if (len)
		name[len - 1] = 0;
	return err;
}

struct irs_error *
irs_frontend_global(const struct irs_target *t, const char *name,
		    uint64_t *address, struct irs_field_info *ret)
{
	struct irs_error *err;
	uint64_t h, a;

	if (!t->symbol)
		return no_answer("global variables");
	if ((err = t->symbol(t->arg, name, &a, &h)))
		return err;
	if ((err = fill_field(t, h, 0, 0, ret)))
		return err;
	*address = a;
	return NULL;
}

// The layout's questions (c->lt): the target's own answers when it gives
// them, else the core's from its facts.
static struct irs_error *
lt_type_size(void *arg, const char *type, uint64_t *ret)
{
	const struct irs_target *t = ((struct irs_console *)arg)->t;
	if (t->type_size)
		return t->type_size(t->arg, type, ret);
	return irs_frontend_type_size(t, type, ret);
}

static struct irs_error *
lt_field(void *arg, const char *type, const char *path,
	 struct irs_field_info *ret)
{
	const struct irs_target *t = ((struct irs_console *)arg)->t;
	if (t->field)
		return t->field(t->arg, type, path, ret);
	return irs_frontend_field(t, type, path, ret);
}

static struct irs_error *
lt_enumerator(void *arg, const char *type, uint32_t index, char *name,
	      uint64_t len, int64_t *value)
{
	const struct irs_target *t = ((struct irs_console *)arg)->t;
	if (t->enumerator)
		return t->enumerator(t->arg, type, index, name, len, value);
	return irs_frontend_enumerator(t, type, index, name, len, value);
}

void
console_forget_globals(struct irs_console *c)
{
	for (uint32_t i = 0; i < c->nglobals; i++)
		free(c->globals[i].name);
	free(c->globals);
	free(c->globals_core);
	c->globals = NULL;
	c->nglobals = 0;
	c->globals_pid = 0;
	c->globals_core = NULL;
}

// Whether the globals found were found in the process or core there is.
static bool
globals_current(const struct irs_console *c)
{
	const struct irs_target *t = c->t;
	return c->globals_pid == t->pid &&
	       (c->globals_core && t->core_path ?
		!strcmp(c->globals_core, t->core_path) :
		c->globals_core == t->core_path);
}

// A global's address, asked of the debugger once per process or core: a
// walk asks for each global its layout names, and a trace walks at every
// pass boundary (a symbol lookup through the debugger cost a walk of one
// function as much again). Only what was found is kept: a library loaded
// later may bring what was not.
static struct irs_error *
lt_global(void *arg, const char *name, uint64_t *address,
	  struct irs_field_info *ret)
{
	struct irs_console *c = arg;
	const struct irs_target *t = c->t;
	bool live = t->pid || t->core_path;
	if (live && !globals_current(c)) {
		console_forget_globals(c);
		c->globals_pid = t->pid;
		if (t->core_path && !(c->globals_core = strdup(t->core_path)))
			return &irs_enomem;
	}
	for (uint32_t i = 0; live && i < c->nglobals; i++)
		if (!strcmp(c->globals[i].name, name)) {
			*address = c->globals[i].address;
			*ret = c->globals[i].info;
			return NULL;
		}
	struct irs_error *err = t->global ? t->global(t->arg, name, address,
						      ret)
				: irs_frontend_global(t, name, address, ret);
	if (err || !live)
		return err;
	struct console_global *g = realloc(c->globals, (c->nglobals + 1) *
					   sizeof(*g));
	if (g) {	// else not kept: asked again next time
		c->globals = g;
		g[c->nglobals] = (struct console_global){
			.name = strdup(name), .address = *address,
			.info = *ret };
		c->nglobals += g[c->nglobals].name != NULL;
	}
	return NULL;
}

static struct irs_error *
lt_load_types(void *arg, const char *path)
{
	struct irs_console *c = arg;
	struct irs_error *err = c->t->load_types(c->t->arg, path);
	if (!err) {
		// its symbols are never the debuggee's (modules.c)
		char *copy = realpath(path, NULL);
		if (copy) {
			free(c->donor_path);
			c->donor_path = copy;
		}
	}
	return err;
}

// A layout's address { ... } keys (MLIR's TypeIDs): the core's answer,
// from the modules' ELF symbols (modules.c).
static struct irs_error *
lt_elf_symbol(void *arg, const char *name, uint64_t *address)
{
	return console_modules_address(arg, name, address);
}

static struct irs_error *
lt_elf_bytes(void *arg, const char *name, void *buf, uint64_t count)
{
	return console_modules_bytes(arg, name, buf, count);
}

void
console_frontend_init(struct irs_console *c)
{
	const struct irs_target *t = c->t;
	bool facts_only = t->type_lookup || t->type_facts;

	memset(&c->lt, 0, sizeof(c->lt));
	c->lt.arg = c;
	c->lt.type_size = t->type_size || facts_only ? lt_type_size : NULL;
	c->lt.field = t->field || facts_only ? lt_field : NULL;
	c->lt.enumerator = t->enumerator || facts_only ? lt_enumerator : NULL;
	c->lt.global = t->global || t->symbol ? lt_global : NULL;
	c->lt.load_types = t->load_types ? lt_load_types : NULL;
	c->lt.elf_symbol = lt_elf_symbol;
	c->lt.elf_bytes = lt_elf_bytes;
}

/* }====================================================================
** Values
** ===================================================================== */

struct irs_error *
irs_frontend_value(const struct irs_value_facts *v, uint64_t *ret)
{
	char type[sizeof(v->type_name)];

	snprintf(type, sizeof(type), "%.*s", (int)sizeof(type) - 1,
		 v->type_name);
	if (v->is_function || v->kind == IRS_TYPE_ARRAY ||
	    is_aggregate(v->kind)) {
		if (!v->has_address)
			return irs_error_format(IRS_ERROR_TARGET, "a %s value "
						"with no address", type);
		*ret = v->address;
		return NULL;
	}
	if (v->kind == IRS_TYPE_FLOAT)
		return irs_error_format(IRS_ERROR_TARGET, "a floating-point "
					"value (%s), not a pointer or integer",
					type);
	if (!v->has_bits)
		return irs_error_format(IRS_ERROR_TARGET, "%.*s",
					(int)sizeof(v->why) - 1,
					v->why[0] ? v->why : "no value");
	*ret = v->bits;
	return NULL;
}

static bool
is_identifier(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	while (*++s)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

void
console_frontend_save_args(struct irs_console *c, struct console_event *ev)
{
	const struct irs_target *t = c->t;

	for (uint32_t i = 0; t->arg_value && i < 64; i++) {
		struct irs_value_facts v;
		char name[128];
		uint64_t u;
		memset(&v, 0, sizeof(v));
		name[0] = 0;
		struct irs_error *err = t->arg_value(t->arg, i, name,
						     sizeof(name), &v);
		if (err && err->code == IRS_ERROR_NOT_FOUND) {
			irs_error_destroy(err);
			break;
		}
		name[sizeof(name) - 1] = 0;
		if (!err)
			err = irs_frontend_value(&v, &u);
		// Integers and pointers only: what a register holds.
		bool keep = !err && *name && (v.kind == IRS_TYPE_INT ||
			v.kind == IRS_TYPE_UINT || v.kind == IRS_TYPE_BOOL ||
			v.kind == IRS_TYPE_ENUM || v.kind == IRS_TYPE_POINTER);
		irs_error_destroy(err);
		if (!keep)
			continue;
		void *p = realloc(ev->args,
				  (ev->nargs + 1) * sizeof(*ev->args));
		if (!p)
			return;
		ev->args = p;
		if (!(ev->args[ev->nargs].name = strdup(name)))
			return;
		ev->args[ev->nargs++].value = u;
	}
}

static bool
arg_of(const struct console_event *ev, const char *name, uint64_t *ret)
{
	for (size_t i = 0; i < ev->nargs; i++)
		if (!strcmp(ev->args[i].name, name)) {
			*ret = ev->args[i].value;
			return true;
		}
	return false;
}

bool
console_frontend_entry_arg(struct irs_console *c, const char *name,
			   uint64_t *ret)
{
	const struct irs_target *t = c->t;
	uint64_t cfa;

	if (!t->cfa || !is_identifier(name))
		return false;
	struct irs_error *err = t->cfa(t->arg, &cfa);
	if (err) {
		irs_error_destroy(err);
		return false;
	}
	if (cfa == CONSOLE_NO_CFA)
		return false;
	for (size_t i = c->nevents; i-- > 0;)
		if (c->events[i].cfa == cfa)
			return arg_of(&c->events[i], name, ret);
	// A call keyed by its entry's stack pointer (returning_call): frame
	// 0 is the outermost open one whose entry sp is below that CFA.
	for (size_t i = 0; i < c->nevents; i++) {
		const struct console_event *ev = &c->events[i];
		if (ev->cfa == CONSOLE_NO_CFA && ev->sp != CONSOLE_NO_SP &&
		    ev->sp < cfa)
			return arg_of(ev, name, ret);
	}
	return c->returning.cfa == cfa && arg_of(&c->returning, name, ret);
}

/* }====================================================================
** Boundary breakpoints
** ===================================================================== */

struct irs_insns {
	uint64_t *at;
	char **text;
	size_t n, cap;
	bool oom;
};

void
irs_insns_add(struct irs_insns *sink, uint64_t at, const char *text)
{
	if (!sink || sink->oom)
		return;
	if (sink->n == sink->cap) {
		size_t ncap = sink->cap ? 2 * sink->cap : 64;
		uint64_t *a = realloc(sink->at, ncap * sizeof(*a));
		if (a)
			sink->at = a;
		char **t = a ? realloc(sink->text, ncap * sizeof(*t)) : NULL;
		if (!t) {
			sink->oom = true;
			return;
		}
		sink->text = t;
		sink->cap = ncap;
	}
	if (!(sink->text[sink->n] = strdup(text ? text : ""))) {
		sink->oom = true;
		return;
	}
	sink->at[sink->n++] = at;
}

static void
insns_deinit(struct irs_insns *sink)
{
	for (size_t i = 0; i < sink->n; i++)
		free(sink->text[i]);
	free(sink->text);
	free(sink->at);
}

static bool
word_starts(const char *w, size_t len, const char *prefix)
{
	return len >= strlen(prefix) && !strncmp(w, prefix, strlen(prefix));
}

// "ret", "retq" (AT&T syntax), "rep ret" / "repz retq" (AMD's two-byte
// return), "ret" on AArch64.
bool
irs_frontend_is_return(const char *text)
{
	const char *w = text;
	while (*w == ' ' || *w == '\t')
		w++;
	size_t n = strcspn(w, " \t");
	if (word_starts(w, n, "ret"))
		return true;
	if (!word_starts(w, n, "rep"))
		return false;
	w += n;
	while (*w == ' ' || *w == '\t')
		w++;
	return word_starts(w, strcspn(w, " \t"), "ret");
}

bool
irs_frontend_fatal_signal(int32_t signo)
{
	switch (signo) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGABRT:
		return true;
	default:
		return false;
	}
}

static void
delete_fn(struct irs_console *c, struct console_bpfn *fn)
{
	const struct irs_target *t = c->t;
	if (t->delete_break && fn->entry)
		t->delete_break(t->arg, fn->entry);
	for (size_t i = 0; t->delete_break && i < fn->nrets; i++)
		if (fn->rets[i])	// 0: the user deleted it
			t->delete_break(t->arg, fn->rets[i]);
	free(fn->rets);
	free(fn->function);
}

// Breaks on the return instructions of @p fn, once they can be found. At a
// sync a function not known yet (a library not loaded) is tried again at
// its first entry; what cannot be done then is said once.
static void
resolve_returns(struct irs_console *c, struct console_bpfn *fn, bool at_hit,
		struct irs_buf *out)
{
	const struct irs_target *t = c->t;
	struct irs_insns sink = {0};

	struct irs_boundary_info bi;
	if (fn->resolved || fn->warned || !t->disassemble)
		return;
	if (console_boundary_of(c, fn->function, &bi) && bi.after_caller)
		return;		// its after is at the caller (hit_caller)
	struct irs_error *err = t->disassemble(t->arg, fn->function, &sink);
	if (!err && sink.oom)
		err = &irs_enomem;
	for (size_t i = 0; !err && i < sink.n; i++) {
		bool dup = false;
		for (size_t j = 0; j < i; j++)
			dup = dup || sink.at[j] == sink.at[i];
		if (dup || !irs_frontend_is_return(sink.text[i]))
			continue;
		uint32_t *r = realloc(fn->rets, (fn->nrets + 1) * sizeof(*r));
		if (!r) {
			err = &irs_enomem;
			break;
		}
		fn->rets = r;
		uint32_t id = ++c->next_bp;
		struct irs_error *e = t->set_break(t->arg, id, fn->function,
						   false, sink.at[i]);
		if (e)
			irs_error_destroy(e);
		else
			fn->rets[fn->nrets++] = id;
	}
	fn->resolved = fn->nrets > 0;
	if (err && (at_hit || err->code != IRS_ERROR_NOT_FOUND)) {
		irs_buf_printf(out, "irsnap: %s: %s; no after snapshots\n",
			       fn->function, irs_error_get_message(err));
		fn->warned = true;
	} else if (!err && !fn->resolved && (sink.n || at_hit)) {
		irs_buf_printf(out, "irsnap: no return instruction found in "
			       "%s; no after snapshots\n", fn->function);
		fn->warned = true;
	}
	irs_error_destroy(err);
	insns_deinit(&sink);
}

static bool
wanted(const struct irs_console *c, const char *function)
{
	for (uint32_t i = 0; i < c->nbreaks; i++)
		if (!strcmp(c->breaks[i], function))
			return true;
	return false;
}

// What setting the breakpoints of a sync had to say, function by function:
// said as it is for a few, in one line for many (a layout of a hundred
// pass functions, a dozen of them ending in tail calls).
struct sync_notes {
	struct irs_buf lines;
	char **names;		// the functions the lines are about
	uint32_t n;
};

static void
note(struct sync_notes *sn, const char *function, struct irs_buf *said)
{
	if (!said->len)
		return;
	irs_buf_append(&sn->lines, said->data, said->len);
	char **p = realloc(sn->names, (sn->n + 1) * sizeof(*p));
	if (!p || !(p[sn->n] = strdup(function))) {
		sn->names = p ? p : sn->names;
		sn->lines.oom = true;
		return;
	}
	sn->names = p;
	sn->n++;
}

static void
notes_out(struct sync_notes *sn, struct irs_buf *out)
{
	if (sn->n > CONSOLE_LIST_MAX) {
		const char *nl = strchr(sn->lines.data, '\n');
		irs_buf_printf(out, "irsnap: %u boundary functions get no "
			       "after snapshots (no return instruction, or no "
			       "breakpoint): ", sn->n);
		console_list_names(out, (const char *const *)sn->names, sn->n);
		irs_buf_printf(out, "; the first: %.*s\n",
			       (int)(nl ? nl - sn->lines.data
				     : (ptrdiff_t)sn->lines.len),
			       sn->lines.data);
	} else if (sn->lines.len) {
		irs_buf_append(out, sn->lines.data, sn->lines.len);
	}
	for (uint32_t i = 0; i < sn->n; i++)
		free(sn->names[i]);
	free(sn->names);
	irs_buf_deinit(&sn->lines);
}

void
console_frontend_sync(struct irs_console *c, struct irs_buf *out)
{
	const struct irs_target *t = c->t;
	struct sync_notes sn = {0};

	if (!t->set_break)
		return;
	for (size_t i = 0; i < c->nbpfns;) {
		if (wanted(c, c->bpfns[i].function)) {
			i++;
			continue;
		}
		delete_fn(c, &c->bpfns[i]);
		c->bpfns[i] = c->bpfns[--c->nbpfns];
	}
	for (uint32_t i = 0; i < c->nbreaks; i++) {
		bool have = false;
		for (size_t j = 0; j < c->nbpfns; j++)
			have = have || !strcmp(c->bpfns[j].function,
					       c->breaks[i]);
		if (have)
			continue;
		void *p = realloc(c->bpfns, (c->nbpfns + 1) *
				  sizeof(*c->bpfns));
		if (!p)
			break;
		c->bpfns = p;
		struct console_bpfn *fn = &c->bpfns[c->nbpfns];
		memset(fn, 0, sizeof(*fn));
		if (!(fn->function = strdup(c->breaks[i])))
			break;
		c->nbpfns++;
		struct irs_buf said;
		irs_buf_init(&said);
		uint32_t id = ++c->next_bp;
		struct irs_error *err = t->set_break(t->arg, id, fn->function,
						     true, 0);
		if (err) {
			irs_buf_printf(&said, "irsnap: cannot break on %s: "
				       "%s\n", fn->function,
				       irs_error_get_message(err));
			irs_error_destroy(err);
		} else {
			fn->entry = id;
			resolve_returns(c, fn, false, &said);
		}
		note(&sn, fn->function, &said);
		irs_buf_deinit(&said);
	}
	notes_out(&sn, out);
}

bool
irs_console_break_deleted(struct irs_console *c, uint32_t id)
{
	// Forgotten, never deleted again (the debugger reuses nothing, but
	// the front end has no breakpoint of that id any more).
	for (size_t i = 0; id && i < c->ncallers; i++)
		if (c->callers[i].id == id) {
			c->callers[i] = c->callers[--c->ncallers];
			return true;	// set again at the next entry
		}
	for (size_t i = 0; id && i < c->nbpfns; i++) {
		struct console_bpfn *fn = &c->bpfns[i];
		bool ours = fn->entry == id;
		if (ours)
			fn->entry = 0;
		for (size_t j = 0; j < fn->nrets; j++)
			if (fn->rets[j] == id) {
				fn->rets[j] = 0;
				ours = true;
			}
		if (ours) {
			fn->lost = true;
			return true;
		}
	}
	return false;
}

// The functions the user deleted breakpoints of, said once, in a line.
char *
irs_console_note(struct irs_console *c)
{
	struct irs_buf out;
	const char *names[CONSOLE_LIST_MAX];
	uint32_t n = 0;

	irs_buf_init(&out);
	irs_buf_puts(&out, "");
	for (size_t i = 0; i < c->nbpfns; i++) {
		struct console_bpfn *fn = &c->bpfns[i];
		if (!fn->lost || fn->lost_said)
			continue;
		fn->lost_said = true;
		if (n < CONSOLE_LIST_MAX)
			names[n] = fn->function;
		n++;
	}
	if (n) {
		irs_buf_puts(&out, "irsnap: you deleted irsnap's breakpoints "
			     "at ");
		console_list_names(&out, names, n);
		irs_buf_puts(&out, ": no pass there is seen until ir-break or "
			     "ir-trace sets them again\n");
	}
	if (out.oom) {
		irs_buf_deinit(&out);
		return NULL;
	}
	return irs_buf_steal(&out);
}

void
console_frontend_renew_lost(struct irs_console *c)
{
	for (size_t i = 0; i < c->nbpfns;) {
		if (!c->bpfns[i].lost) {
			i++;
			continue;
		}
		delete_fn(c, &c->bpfns[i]);	// what the user left of them
		c->bpfns[i] = c->bpfns[--c->nbpfns];
	}
}

void
console_frontend_say_lost(const struct irs_console *c, struct irs_buf *out)
{
	const char *names[CONSOLE_LIST_MAX];
	uint32_t n = 0;

	for (size_t i = 0; i < c->nbpfns; i++)
		if (c->bpfns[i].lost && n++ < CONSOLE_LIST_MAX)
			names[n - 1] = c->bpfns[i].function;
	if (!n)
		return;
	irs_buf_puts(out, "; deleted by you: ");
	console_list_names(out, names, n);
	irs_buf_puts(out, " (ir-break or ir-trace sets them again)");
}

void
irs_console_forget_breaks(struct irs_console *c)
{
	for (size_t i = 0; i < c->nbpfns; i++)
		delete_fn(c, &c->bpfns[i]);
	free(c->bpfns);
	c->bpfns = NULL;
	c->nbpfns = 0;
	console_frontend_forget_callers(c);
}

void
console_frontend_deinit(struct irs_console *c)
{
	console_forget_globals(c);
	for (size_t i = 0; i < c->nbpfns; i++) {
		free(c->bpfns[i].rets);
		free(c->bpfns[i].function);
	}
	free(c->bpfns);
	c->bpfns = NULL;
	c->nbpfns = 0;
	free(c->callers);
	c->callers = NULL;
	c->ncallers = 0;
	console_event_deinit(&c->returning);
	free(c->signal_core);
	c->signal_core = NULL;
	irs_proc_sp_close(&c->stop_sp);
	console_framevar_forget(c);
}

static uint64_t
frame_cfa(const struct irs_console *c)
{
	uint64_t cfa;
	if (!c->t->cfa)
		return CONSOLE_NO_CFA;
	struct irs_error *err = c->t->cfa(c->t->arg, &cfa);
	if (!err)
		return cfa;
	irs_error_destroy(err);
	return CONSOLE_NO_CFA;
}

static void
append(struct irs_buf *b, char *text)
{
	if (text)
		irs_buf_puts(b, text);
	irs_free(text);
}

// The stopped thread and its stack pointer. From the kernel on a live
// x86-64 process (/proc/PID/task/TID/syscall): a boundary stop's stack
// pointer was the costliest fact the core asked the debugger for, a
// tenth of a traced GDB run (issue 26). Else the debugger's $sp. @p pc
// (NULL: not wanted) gets the kernel's pc with it, 0 without it.
static bool
stop_sp(struct irs_console *c, uint64_t *sp, uint64_t *tid, uint64_t *pc)
{
	const struct irs_target *t = c->t;
	struct irs_error *err = NULL;

	*tid = 0;
	if (pc)
		*pc = 0;
	if (t->thread && (err = t->thread(t->arg, tid))) {
		irs_error_destroy(err);
		*tid = 0;
	}
	if (t->pid > 0 && *tid && console_abi_machine(c) == EM_X86_64 &&
	    irs_proc_thread_sp(&c->stop_sp, t->pid, *tid, sp, pc))
		return true;
	if ((err = console_eval(c, "$sp", EVAL_READ, sp))) {
		irs_error_destroy(err);
		return false;
	}
	return true;
}

// At the entry stop of a boundary call: what pairs its return with it.
// On x86-64 the stack pointer: any stop inside the call (after its
// `call` pushed the return address) has sp <= its CFA - 8, and every
// call outside it has sp >= its CFA, whatever the prologue did (pushes,
// a realigned stack). Elsewhere the debugger's CFA.
static struct console_call
entry_key(struct irs_console *c)
{
	struct console_call k = { CONSOLE_NO_CFA, CONSOLE_NO_SP, 0 };
	uint64_t pc;
	if (console_abi_machine(c) != EM_X86_64 ||
	    !stop_sp(c, &k.sp, &k.tid, &pc)) {
		k.sp = CONSOLE_NO_SP;
		k.cfa = frame_cfa(c);
	} else if (pc) {
		// what framevar.c reads the boundary's variables at
		c->stop = (struct console_stop){ .valid = true, .pc = pc,
						 .sp = k.sp, .tid = k.tid };
	}
	return k;
}

// Which open call a stop at one of its returns ends: the index into
// c->events, or -1 for a call entered before irsnap broke on it. At a
// return instruction (@p at_caller false) x86-64's sp is the callee's
// CFA - 8; at the caller's return address (true) it is the CFA. Calls
// above the one found never returned (a longjmp, an exception out of
// them). *cfa_ret: the CFA of the call ended, CONSOLE_NO_CFA if unknown.
static ptrdiff_t
returning_call(struct irs_console *c, bool at_caller, uint64_t *cfa_ret)
{
	uint64_t sp = 0, tid = 0;
	bool have_sp = stop_sp(c, &sp, &tid, NULL);
	bool x86 = console_abi_machine(c) == EM_X86_64;
	uint64_t cfa = !have_sp ? CONSOLE_NO_CFA : at_caller ? sp :
		       x86 ? sp + 8 : CONSOLE_NO_CFA;
	bool asked = false;	// the debugger for the CFA
	ptrdiff_t found = -1;

	for (size_t i = c->nevents; i-- > 0;) {
		const struct console_event *ev = &c->events[i];
		if (ev->sp != CONSOLE_NO_SP) {
			// by stack order, on the event's own thread's stack
			if (!have_sp || !x86 || (tid && ev->tid && ev->tid != tid))
				continue;
			if (at_caller ? ev->sp < sp : ev->sp <= sp)
				found = (ptrdiff_t)i;	// an outer one may too
			else if (found >= 0)
				break;
			continue;
		}
		if (found >= 0)
			break;
		if (ev->cfa == CONSOLE_NO_CFA) {
			found = (ptrdiff_t)i;	// unknown: the innermost
			break;
		}
		if (cfa == CONSOLE_NO_CFA && !asked && !at_caller) {
			cfa = frame_cfa(c);
			asked = true;
		}
		if (cfa != CONSOLE_NO_CFA && ev->cfa == cfa) {
			found = (ptrdiff_t)i;
			break;
		}
	}
	*cfa_ret = cfa;
	return found;
}

// The returns of the open calls down to c->events[@p call], which has CFA
// @p cfa (CONSOLE_NO_CFA: unknown).
static struct irs_error *
pop_returns(struct irs_console *c, size_t call, uint64_t cfa, bool *stop_ret,
	    struct irs_buf *out)
{
	struct irs_error *first = NULL;

	while (c->nevents > call) {
		struct console_event *top = &c->events[c->nevents - 1];
		// Its arguments, for eval while stopped at its return.
		console_event_deinit(&c->returning);
		c->returning.cfa = c->nevents - 1 == call &&
			cfa != CONSOLE_NO_CFA ? cfa : top->cfa;
		c->returning.args = top->args;
		c->returning.nargs = top->nargs;
		top->args = NULL;
		top->nargs = 0;
		bool flag = false;
		char *text = NULL;
		struct irs_error *err = irs_console_boundary_exit(c, &flag,
								  &text);
		append(out, text);
		if (err && first) {
			irs_buf_printf(out, "%s\n", irs_error_get_message(err));
			irs_error_destroy(err);
		} else if (err) {
			first = err;
		}
		*stop_ret = *stop_ret || flag;
	}
	return first;
}

// At a return instruction of a boundary function, or (@p at_caller) at the
// return address of its caller: the return of the open call it ends.
static struct irs_error *
hit_return(struct irs_console *c, bool at_caller, bool *stop_ret,
	   struct irs_buf *out)
{
	uint64_t cfa;
	ptrdiff_t call = returning_call(c, at_caller, &cfa);
	if (call < 0)
		return NULL;	// a call entered before we broke on it
	return pop_returns(c, (size_t)call, cfa, stop_ret, out);
}

// after = "caller": a breakpoint at the return address of the call just
// entered (frame 1's pc), one per address, kept while the process lives,
// so a release build's pass, without debug info or with a tail call at
// its end, still returns through a stop irsnap sees.
static void
break_at_caller(struct irs_console *c, const char *function,
		struct irs_buf *out)
{
	const struct irs_target *t = c->t;
	struct irs_boundary_info bi;
	struct irs_frame_info fi;

	if (!c->nevents || !t->set_break || !t->frame ||
	    !console_boundary_of(c, function, &bi) || !bi.after_caller)
		return;
	struct irs_error *err = t->frame(t->arg, 1, &fi);
	if (!err && !fi.pc)
		err = irs_error_format(IRS_ERROR_TARGET, "no return address");
	for (size_t i = 0; !err && i < c->ncallers; i++)
		if (c->callers[i].address == fi.pc)
			return;
	void *p = err ? NULL : realloc(c->callers, (c->ncallers + 1) *
				       sizeof(*c->callers));
	if (!err && !p)
		err = &irs_enomem;
	if (!err) {
		c->callers = p;
		uint32_t id = ++c->next_bp;
		if (!(err = t->set_break(t->arg, id, NULL, false, fi.pc))) {
			c->callers[c->ncallers].address = fi.pc;
			c->callers[c->ncallers++].id = id;
		}
	}
	if (err) {
		irs_buf_printf(out, "irsnap: %s: cannot break at its caller: "
			       "%s; no after snapshot\n", function,
			       irs_error_get_message(err));
		irs_error_destroy(err);
	}
}

void
console_frontend_forget_callers(struct irs_console *c)
{
	const struct irs_target *t = c->t;
	for (size_t i = 0; t->delete_break && i < c->ncallers; i++)
		t->delete_break(t->arg, c->callers[i].id);
	free(c->callers);
	c->callers = NULL;
	c->ncallers = 0;
}

struct irs_error *
irs_console_hit(struct irs_console *c, uint32_t id, bool *stop_ret,
		char **out_ret)
{
	struct irs_error *err = NULL;
	struct irs_buf out;

	*stop_ret = false;
	*out_ret = NULL;
	irs_buf_init(&out);
	irs_buf_puts(&out, "");
	struct console_bpfn *fn = NULL;
	bool entry = false;
	for (size_t i = 0; !fn && id && i < c->nbpfns; i++) {
		entry = c->bpfns[i].entry == id;
		for (size_t j = 0; !entry && j < c->bpfns[i].nrets; j++)
			if (c->bpfns[i].rets[j] == id)
				fn = &c->bpfns[i];
		if (entry)
			fn = &c->bpfns[i];
	}
	bool caller = false;
	for (size_t i = 0; !fn && id && i < c->ncallers; i++)
		caller = caller || c->callers[i].id == id;
	if (fn && entry) {
		console_event_deinit(&c->returning);
		char *text = NULL;
		struct console_call call = entry_key(c);
		err = console_boundary_enter(c, fn->function, &call,
					     stop_ret, &text);
		append(&out, text);
		break_at_caller(c, fn->function, &out);
		// a library loaded since the sync: its returns now
		resolve_returns(c, fn, true, &out);
	} else if (fn || caller) {
		err = hit_return(c, caller, stop_ret, &out);
	}
	c->stop.valid = false;	// the debuggee goes on
	if (out.oom) {
		irs_buf_deinit(&out);
		irs_error_destroy(err);
		return &irs_enomem;
	}
	*out_ret = irs_buf_steal(&out);
	return err;
}

/* }====================================================================
** Signals and the debuggee's arguments
** ===================================================================== */

struct irs_error *
irs_console_stop(struct irs_console *c, int32_t signo, const char *signame,
		 bool *fatal_ret, char **out_ret)
{
	*fatal_ret = false;
	*out_ret = NULL;
	if (!irs_frontend_fatal_signal(signo) || c->in_call) {
		*out_ret = strdup("");
		return *out_ret ? NULL : &irs_enomem;
	}
	*fatal_ret = true;
	if (irs_console_nbreaks(c) > 0 && !c->check.signo) {
		// the program irsnap watched died: the batch's exit status
		const struct console_event *ev = c->nevents ?
			&c->events[c->nevents - 1] : NULL;
		c->check.signo = signo;
		c->check.died_broken = c->check.nbroken > 0;
		snprintf(c->check.what, sizeof(c->check.what), "%s%s%s%s",
			 signame ? signame : "a signal",
			 ev && ev->pass ? " in pass '" : "",
			 ev && ev->pass ? ev->pass : "",
			 ev && ev->pass ? "'" : "");
	}
	return irs_console_signal(c, signo, signame, out_ret);
}

void
console_frontend_refresh(struct irs_console *c, struct irs_buf *out)
{
	const struct irs_target *t = c->t;
	int32_t signo = 0;
	char name[64] = "";

	if (!t->core_path || !t->stop_signal || (c->signal_core &&
	    !strcmp(c->signal_core, t->core_path)))
		return;
	// A new core file: its signal is the one ir-report records.
	char *core = strdup(t->core_path);
	if (!core)
		return;
	free(c->signal_core);
	c->signal_core = core;
	struct irs_error *err = t->stop_signal(t->arg, &signo, name,
					       sizeof(name));
	name[sizeof(name) - 1] = 0;
	if (!err && signo > 0) {
		char *text = NULL;
		err = irs_console_signal(c, signo, *name ? name : NULL, &text);
		append(out, text);
	}
	if (err)
		irs_buf_printf(out, "%s\n", irs_error_get_message(err));
	irs_error_destroy(err);
}

char *
console_frontend_args(struct irs_console *c)
{
	const struct irs_target *t = c->t;
	enum { MAX = 16384 };

	if (!t->args)
		return c->set.args ? strdup(c->set.args) : NULL;
	char *buf = calloc(1, MAX);
	if (!buf)
		return NULL;
	struct irs_error *err = t->args(t->arg, buf, MAX);
	buf[MAX - 1] = 0;
	if (err) {
		irs_error_destroy(err);
		free(buf);
		return NULL;
	}
	return buf;
}

/* }====================================================================
** The core file this very process has open
** ===================================================================== */

static bool
is_elf_core(const char *path)
{
	unsigned char h[18];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, h, sizeof(h));
	close(fd);
	// e_type is at byte 16, in the byte order EI_DATA (byte 5) says.
	if (n != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) != 0)
		return false;
	unsigned type = h[5] == 2 ? (h[16] << 8 | h[17]) : (h[17] << 8 | h[16]);
	return type == 4;	// ET_CORE
}

static void
consider(const char *path, char *buf, size_t len)
{
	if (path[0] == '/' && strncmp(path, "/proc/", 6) &&
	    strncmp(path, "/dev/", 5) && is_elf_core(path))
		snprintf(buf, len, "%s", path);
}

struct core_found {
	char *buf;
	size_t len;
};

static bool
consider_mapping(const struct irs_proc_mapping *m, void *arg)
{
	struct core_found *f = arg;
	if (m->offset == 0)
		consider(m->path, f->buf, f->len);
	return false;	// all of them
}

bool
irs_frontend_core_path(char *buf, size_t len)
{
	char link[300], path[4096];
	struct core_found f = { buf, len };
	bool stopped;

	buf[0] = 0;
	// Files mapped from offset 0 (LLDB's elf-core plugin maps the core
	// whole), then open files. Several cores open at once (several core
	// targets in one session) are not told apart: the last one wins.
	irs_error_destroy(irs_proc_mappings(getpid(), consider_mapping, &f,
					    &stopped));
	DIR *d = opendir("/proc/self/fd");
	for (struct dirent *e; d && (e = readdir(d));) {
		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(link, path, sizeof(path) - 1);
		if (n <= 0)
			continue;
		path[n] = 0;
		consider(path, buf, len);
	}
	if (d)
		closedir(d);
	return buf[0] != 0;
}

/* }====================================================================
** The structs bindings mirror
** ===================================================================== */

#define ROW(T, f) {#T, #f, (uint32_t)offsetof(struct T, f), \
		   (uint32_t)sizeof(((struct T *)0)->f)}
#define SIZE(T) {#T, NULL, 0, (uint32_t)sizeof(struct T)}

static const struct irs_abi_field abi[] = {
	SIZE(irs_field_info), ROW(irs_field_info, offset),
	ROW(irs_field_info, size), ROW(irs_field_info, bit_offset),
	ROW(irs_field_info, bit_size), ROW(irs_field_info, kind),
	ROW(irs_field_info, pad), ROW(irs_field_info, count),
	ROW(irs_field_info, type_name), ROW(irs_field_info, target_name),
	SIZE(irs_frame_info), ROW(irs_frame_info, pc),
	ROW(irs_frame_info, function), ROW(irs_frame_info, file),
	ROW(irs_frame_info, line), ROW(irs_frame_info, pad),
	SIZE(irs_type_facts), ROW(irs_type_facts, size),
	ROW(irs_type_facts, count), ROW(irs_type_facts, stripped),
	ROW(irs_type_facts, target), ROW(irs_type_facts, kind),
	ROW(irs_type_facts, nmembers), ROW(irs_type_facts, complete),
	ROW(irs_type_facts, name),
	SIZE(irs_member_facts), ROW(irs_member_facts, bit_offset),
	ROW(irs_member_facts, type), ROW(irs_member_facts, bit_size),
	ROW(irs_member_facts, name),
	SIZE(irs_value_facts), ROW(irs_value_facts, address),
	ROW(irs_value_facts, bits), ROW(irs_value_facts, kind),
	ROW(irs_value_facts, has_address), ROW(irs_value_facts, has_bits),
	ROW(irs_value_facts, is_function), ROW(irs_value_facts, type_name),
	ROW(irs_value_facts, why),
	SIZE(irs_target), ROW(irs_target, arg), ROW(irs_target, read),
	ROW(irs_target, eval), ROW(irs_target, type_size),
	ROW(irs_target, field), ROW(irs_target, enumerator),
	ROW(irs_target, frame), ROW(irs_target, select_frame),
	ROW(irs_target, pid), ROW(irs_target, core_path),
	ROW(irs_target, exe_path), ROW(irs_target, type_lookup),
	ROW(irs_target, type_derive), ROW(irs_target, type_facts),
	ROW(irs_target, type_member), ROW(irs_target, type_enumerator),
	ROW(irs_target, eval_value), ROW(irs_target, cfa),
	ROW(irs_target, arg_value), ROW(irs_target, stop_signal),
	ROW(irs_target, args), ROW(irs_target, disassemble),
	ROW(irs_target, set_break), ROW(irs_target, delete_break),
	ROW(irs_target, global), ROW(irs_target, symbol),
	ROW(irs_target, module), ROW(irs_target, load_types),
	ROW(irs_target, elf_symbol), ROW(irs_target, thread),
	ROW(irs_target, elf_bytes),
	{NULL, NULL, 0, 0},
};

const struct irs_abi_field *
irs_abi_layout(void)
{
	return abi;
}

/* }==================================================================== */
