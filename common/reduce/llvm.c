// LLVM IR's syntax, as far as the text passes need it (issue 17): which
// tokens an instruction cannot lose alone, which whole lines may go
// together, where a block ends. With these llvm-reduce's test counts are
// reachable on LLVM text that irsnap has no layout for.
#include <ctype.h>
#include <dlfcn.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "util/util.h"

// A byte range [start, end) of a text.
struct range {
	uint32_t start, end;
};

// Does line [a, e) of s (blanks skipped) hold an LLVM IR instruction
// that ends a block (ret, br...)?
static bool
llvm_terminator_at(const char *s, uint32_t a, uint32_t e)
{
	static const char *const ops[] = {"ret", "br", "switch", "indirectbr",
		"unreachable", "resume", "invoke", "callbr", "catchswitch",
		"catchret", "cleanupret"};
	while (a < e && isspace((unsigned char)s[a]))
		a++;
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i]);
		if (e - a >= n && !memcmp(s + a, ops[i], n) &&
		    (e - a == n || isspace((unsigned char)s[a + n])))
			return true;
	}
	return false;
}

// Is unit u one line ending a block of LLVM IR? A block cannot lose it
// alone (LLVM: "block does not have terminator"); it goes with its
// block, or when blocks merge.
static bool
terminator(const struct reduce_tree *t, uint32_t u)
{
	const struct reduce_unit *x = &t->units[u];
	uint32_t a = x->start, e = x->end;
	while (a < e && isspace((unsigned char)t->text[a]))
		a++;
	const char *nl = memchr(t->text + a, '\n', e - a);
	for (const char *q = nl; q && q < t->text + e; q++)
		if (!isspace((unsigned char)*q))
			return false;	// more than one line
	return llvm_terminator_at(t->text, a, nl ? (uint32_t)(nl - t->text)
						 : e);
}

// Is the input LLVM IR text: a line that starts with "define " or
// "declare " and names a function (@f)? Found once, in the input.
static bool
detect(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len;
		if ((e - i > 7 && !memcmp(s + i, "define ", 7)) ||
		    (e - i > 8 && !memcmp(s + i, "declare ", 8)))
			if (memchr(s + i, '@', e - i))
				return true;
		i = e + 1;
	}
	return false;
}

// Words of LLVM's syntax that no instruction or declaration can do
// without: types, opcodes, comparison predicates, constants and the
// keywords around them. Cutting one alone never parses.
static bool
llvm_keyword(const char *w, size_t n)
{
	static const char *const words[] = {
		"void", "half", "bfloat", "float", "double", "fp128",
		"x86_fp80", "ppc_fp128", "label", "metadata", "ptr", "token",
		"x86_mmx", "x86_amx", "opaque", "type", "define", "declare",
		"global", "constant", "to", "x", "target", "datalayout",
		"triple", "source_filename", "attributes", "align",
		"ret", "br", "switch", "indirectbr", "invoke", "resume",
		"unreachable", "callbr", "fneg", "add", "fadd", "sub", "fsub",
		"mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem", "frem",
		"shl", "lshr", "ashr", "and", "or", "xor", "extractelement",
		"insertelement", "shufflevector", "extractvalue",
		"insertvalue", "alloca", "load", "store", "fence", "cmpxchg",
		"atomicrmw", "getelementptr", "trunc", "zext", "sext",
		"fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
		"ptrtoint", "inttoptr", "bitcast", "addrspacecast", "icmp",
		"fcmp", "phi", "select", "freeze", "call", "va_arg",
		"landingpad", "catchpad", "cleanuppad", "catchswitch",
		"catchret", "cleanupret", "eq", "ne", "ugt", "uge", "ult",
		"ule", "sgt", "sge", "slt", "sle", "oeq", "ogt", "oge", "olt",
		"ole", "one", "ord", "ueq", "une", "uno", "true", "false",
		"null", "zeroinitializer", "undef", "poison",
	};
	if (n > 1 && w[0] == 'i') {	// i1, i32: integer types
		size_t k = 1;
		while (k < n && isdigit((unsigned char)w[k]))
			k++;
		if (k == n)
			return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !memcmp(words[i], w, n))
			return true;
	return false;
}

// The inside of every define's parameter list, in text order; freed
// with free(). NULL with *n = 0 when there is none, or on OOM (*oom).
static struct range *
param_lists(const char *s, size_t len, uint32_t *n, bool *oom)
{
	struct range *v = NULL;
	uint32_t cap = 0;
	*n = 0;
	for (const char *q = s; (q = memmem(q, len - (size_t)(q - s),
					    "define ", 7)); q += 7) {
		size_t i = (size_t)(q - s);
		if (i && reduce_word_char(s[i - 1]))
			continue;
		while (i < len && s[i] != '(' && s[i] != '{' && s[i] != '\n')
			i++;
		if (i >= len || s[i] != '(')
			continue;
		size_t open = i + 1;
		int depth = 0;
		for (; i < len && s[i] != '\n'; i++)
			if (s[i] == '(')
				depth++;
			else if (s[i] == ')' && !--depth)
				break;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			void *p = realloc(v, cap * sizeof(*v));
			if (!p) {
				free(v);
				*n = 0;
				*oom = true;
				return NULL;
			}
			v = p;
		}
		v[(*n)++] = (struct range){(uint32_t)open, (uint32_t)i};
	}
	return v;
}

// Is byte @p at inside one of params[0..n)?
static bool
llvm_in_params(const struct range *params, uint32_t n, uint32_t at)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (params[mid].end <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && params[lo].start <= at;
}

// A token LLVM IR cannot lose alone: punctuation (but a parameter's
// pointer type may lose a '*' where the function does not use it), a
// number, a keyword, type or opcode (llvm_keyword), an operand (%x, @f:
// an instruction's operand count is fixed; a call's arguments go with
// the arguments pass, a parameter's name may go). What is left are the
// optional words (dso_local, noundef, nsw, inbounds, distinct...), "#0",
// "!6", strings.
// requires: params from param_lists().
static bool
fixed(const char *s, const struct range *params,
		  uint32_t nparams, uint32_t a, uint32_t e)
{
	while (a < e && isspace((unsigned char)s[a]))
		a++;
	while (e > a && isspace((unsigned char)s[e - 1]))
		e--;
	if (a == e)
		return false;
	char c = s[a];
	if (e - a == 1 && !reduce_word_char(c))
		return c != '*' || !llvm_in_params(params, nparams, a);
	// "%x = " stays: the printer writes it back (an instruction
	// without one is numbered all the same).
	if (c == '%' && s[e - 1] == '=')
		return true;
	for (uint32_t i = a; i < e; i++)
		if (!reduce_word_char(s[i]))
			return false;	// "#0", a string
	if (c == '%')
		return !llvm_in_params(params, nparams, a);
	if (c == '@')
		return true;
	uint32_t k = a + (c == '-');
	if (k < e && isdigit((unsigned char)s[k]))
		return true;	// 16, -1, 0x10, 1.5e3
	return llvm_keyword(s + a, e - a);
}


// Is the trailing item after the comma at @p comma an LLVM operand (it
// starts with a type, a value, a constant, a bracket: ", i32* %4", ",
// label %28")? An instruction's operand count is fixed, so it cannot go,
// but for a getelementptr's indices. An attribute (", align 4"), a
// metadata attachment (", !dbg !6") can.
static bool
operand_item(const char *s, size_t len, size_t comma)
{
	size_t i = comma + 1, ls = comma;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (ls > 0 && s[ls - 1] != '\n')
		ls--;
	const char *gep = memmem(s + ls, comma - ls, "getelementptr", 13);
	if (i >= len || s[i] == '!' || gep)
		return false;
	size_t j = i;
	while (j < len && reduce_word_char(s[j]))
		j++;
	if (j == i || strchr("%@-", s[i]) || isdigit((unsigned char)s[i]))
		return true;
	return j - i != 5 ? llvm_keyword(s + i, j - i)
			  : memcmp(s + i, "align", 5) &&
			    llvm_keyword(s + i, j - i);
}


// Can LLVM IR lose bytes [cs, ce) of s, whole lines, and still parse?
// Not when its braces do not balance (half a function), nor when a line
// of it assigns a value (%x = ...) that is numbered (the numbers after
// it would have a gap: deleting units renumbers, raw lines do not) or
// used elsewhere (a use with no definition). Such cuts were most of the
// lines pass's tests on LLVM IR; the units pass deletes values with
// their uses repaired.
static bool
range_cut_ok(const char *s, size_t len, uint32_t cs, uint32_t ce)
{
	int depth = 0;
	bool str = false, comment = false;
	for (uint32_t i = cs; i < ce; i++) {
		char c = s[i];
		if (c == '\n') {
			str = comment = false;
			continue;
		}
		if (comment || (str && c != '"'))
			continue;
		if (c == '"')
			str = !str;
		else if (c == ';')
			comment = true;
		else if (c == '{')
			depth++;
		else if (c == '}')
			depth--;
	}
	if (depth)
		return false;
	bool term = false, label = false, other = false;
	for (uint32_t i = cs; i < ce;) {
		const char *nl = memchr(s + i, '\n', ce - i);
		uint32_t e = nl ? (uint32_t)(nl - s) : ce;
		uint32_t a = i;
		while (a < e && (s[a] == ' ' || s[a] == '\t'))
			a++;
		const char *sc = memchr(s + a, ';', e - a);
		uint32_t code = sc ? (uint32_t)(sc - s) : e;
		while (code > a && (s[code - 1] == ' ' || s[code - 1] == '\t'))
			code--;
		bool is_label = code > a && s[code - 1] == ':' &&
				!memchr(s + a, ' ', code - a);
		uint32_t w = a + 1;
		while (w < e && reduce_word_char(s[w]) && s[w] != '%')
			w++;
		uint32_t q = w;
		while (q < e && s[q] == ' ')
			q++;
		if (a < e && s[a] == '%' && w > a + 1 && q < e && s[q] == '=' &&
		    !(e - q > 5 && !memcmp(s + q + 1, " type", 5))) {
			bool numbered = true;
			for (uint32_t k = a + 1; k < w; k++)
				numbered &= isdigit((unsigned char)s[k]) != 0;
			if (numbered || reduce_used_outside(s, len, a, w, cs, ce))
				return false;
		}
		term |= llvm_terminator_at(s, a, e);
		label |= is_label;
		other |= code > a && !is_label;
		i = e + 1;
	}
	// a block's terminator goes with the block, or with the label after
	// it (the blocks merge), never alone; a label alone leaves its block
	// numbered all the same, and the printer writes it back
	return (!term || label) && (other || !label);
}

// Drops the tokens fixed() says no cut may take alone.
static void
drop_fixed_tokens(const char *s, size_t len, struct reduce_spans *sp)
{
	uint32_t k = 0, nparams;
	struct range *params = param_lists(s, len, &nparams, &sp->oom);
	for (uint32_t i = 0; i < sp->n; i++)
		if (!fixed(s, params, nparams, sp->v[i].start, sp->v[i].end))
			sp->v[k++] = sp->v[i];
	sp->n = k;
	free(params);
}

// Linkages a declaration cannot have ("invalid linkage for function
// declaration").
static bool
definition_only(const char *w, size_t n)
{
	static const char *const words[] = {"private", "internal",
		"linkonce", "linkonce_odr", "weak", "weak_odr", "common",
		"appending", "available_externally"};
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !memcmp(words[i], w, n))
			return true;
	return false;
}

// The declaration of the function whose "define" line is [a, e), "{"
// and what a declaration cannot have left out, into @p b.
static void
declaration(const char *s, size_t a, size_t e, struct irs_buf *b)
{
	while (e > a && (s[e - 1] == '{' || isspace((unsigned char)s[e - 1])))
		e--;
	const char *p = memmem(s + a, e - a, " personality ", 13);
	if (p)
		e = (size_t)(p - s);
	irs_buf_puts(b, "declare");
	size_t i = a + 6;	// after "define"
	bool name = false;
	while (i < e) {
		size_t w = i;
		while (w < e && s[w] == ' ')
			w++;
		size_t k = w;
		if (k < e && s[k] == '@')
			name = true;
		while (k < e && s[k] != ' ')
			k++;
		if (name || !definition_only(s + w, k - w))
			irs_buf_append(b, s + i, k - i);
		i = k;
	}
	irs_buf_puts(b, "\n");
}

// Each "define ... {" to its "}" line: a span whose replacement is the
// function's declaration.
static void
bodies(const char *s, size_t len, struct reduce_spans *sp)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len;
		size_t t = e;
		while (t > i && isspace((unsigned char)s[t - 1]))
			t--;
		size_t end = 0;
		if (e - i > 7 && !memcmp(s + i, "define ", 7) && t > i &&
		    s[t - 1] == '{') {
			for (size_t k = e + 1; k < len && !end;) {
				const char *kn = memchr(s + k, '\n', len - k);
				size_t ke = kn ? (size_t)(kn - s) : len;
				if (s[k] == '}')
					end = ke < len ? ke + 1 : len;
				k = ke + 1;
			}
		}
		if (end) {
			struct irs_buf b;
			irs_buf_init(&b);
			declaration(s, i, e, &b);
			const char *repl = reduce_spans_own(sp, b.oom ? NULL
							: irs_buf_steal(&b));
			irs_buf_deinit(&b);
			if (repl)
				reduce_span_add(sp, (uint32_t)i, (uint32_t)end,
						repl);
			i = end;
			continue;
		}
		i = e + 1;
	}
}

/* {=== the printer's library, in a server process (reduce/printsrv.c) === */

// libLLVM's C API: the calls opt -S makes (parse with the debug info
// upgraded, verify the module, print it), without a process per
// candidate and the 0.1 s of CPU opt spends loading libLLVM each time.
// The handles are opaque pointers; the LLVMBool is an int.
struct llvm_lib {
	void *dl;
	void *(*context_create)(void);
	void (*context_dispose)(void *ctx);
	void *(*buffer_copy)(const char *data, size_t len, const char *name);
	int (*parse)(void *ctx, void *buf, void **mod, char **msg);
	int (*verify)(void *mod, int action, char **msg);
	char *(*print)(void *mod);
	void (*dispose_message)(char *msg);
	void (*dispose_module)(void *mod);
};

enum { LLVM_RETURN_STATUS_ACTION = 2 };	// LLVMVerifierFailureAction

// The libLLVM the printer program links against: PREFIX/lib/ beside
// PREFIX/bin/opt (Debian: /usr/lib/llvm-14/lib/libLLVM-14.so.1), so the
// library parses, verifies and prints as the printer does.
static void *
lib_open(const char *printer)
{
	char real[PATH_MAX], pat[PATH_MAX + 32];
	if (!realpath(printer, real))
		return NULL;
	for (int up = 0; up < 2; up++) {
		char *slash = strrchr(real, '/');
		if (!slash)
			return NULL;
		*slash = 0;
	}
	snprintf(pat, sizeof(pat), "%s/lib/libLLVM-*.so.1", real);
	glob_t g;
	void *dl = NULL;
	if (!glob(pat, 0, NULL, &g) && g.gl_pathc)
		dl = dlopen(g.gl_pathv[0], RTLD_NOW | RTLD_LOCAL);
	globfree(&g);
	struct llvm_lib *lib = dl ? calloc(1, sizeof(*lib)) : NULL;
	if (!lib) {
		if (dl)
			dlclose(dl);
		return NULL;
	}
	lib->dl = dl;
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
		{"LLVMContextCreate",
		 offsetof(struct llvm_lib, context_create)},
		{"LLVMContextDispose",
		 offsetof(struct llvm_lib, context_dispose)},
		{"LLVMCreateMemoryBufferWithMemoryRangeCopy",
		 offsetof(struct llvm_lib, buffer_copy)},
		{"LLVMParseIRInContext", offsetof(struct llvm_lib, parse)},
		{"LLVMVerifyModule", offsetof(struct llvm_lib, verify)},
		{"LLVMPrintModuleToString", offsetof(struct llvm_lib, print)},
		{"LLVMDisposeMessage",
		 offsetof(struct llvm_lib, dispose_message)},
		{"LLVMDisposeModule",
		 offsetof(struct llvm_lib, dispose_module)},
	};
	for (size_t i = 0; i < ARRAY_SIZE(syms); i++) {
		void *f = dlsym(dl, syms[i].name);
		if (!f) {
			dlclose(dl);
			free(lib);
			return NULL;
		}
		// POSIX: a dlsym result converts to a function pointer
		memcpy((char *)lib + syms[i].off, &f, sizeof(f));
	}
	return lib;
}

// @p text as opt -S prints it, the module named @p name, into @p out;
// false when the parser or the verifier rejects it.
static bool
lib_print(void *handle, const char *text, size_t len, const char *name,
	  struct irs_buf *out)
{
	struct llvm_lib *lib = handle;
	void *mod = NULL;
	char *msg = NULL;
	void *ctx = lib->context_create();	// a fresh one: a reused context
						// would rename named types
	void *buf = lib->buffer_copy(text, len, name);	// parse owns it
	bool ok = !lib->parse(ctx, buf, &mod, &msg);
	if (msg)
		lib->dispose_message(msg);
	msg = NULL;
	if (ok && lib->verify(mod, LLVM_RETURN_STATUS_ACTION, &msg))
		ok = false;
	if (msg)
		lib->dispose_message(msg);
	if (ok) {
		char *s = lib->print(mod);
		irs_buf_puts(out, s);
		lib->dispose_message(s);
	}
	if (mod)
		lib->dispose_module(mod);
	lib->context_dispose(ctx);
	return ok;
}

/* }=== */

static const char *const opt[] = {"opt-14", "opt", NULL};
static const char *const opt_print[] = {"-S", "{}", "-o", "{out}", NULL};
static const char *const opt_adds[] = {";", "source_filename = ", NULL};

const struct reduce_lang reduce_lang_llvm = {
	.name = "llvm",
	.printer = opt,
	.print_args = opt_print,
	.print_strip = opt_adds,
	.lib_open = lib_open,
	.lib_print = lib_print,
	.detect = detect,
	.unit_fixed = terminator,
	.bodies = bodies,
	.drop_fixed_tokens = drop_fixed_tokens,
	.operand_item = operand_item,
	.range_cut_ok = range_cut_ok,
	.no_pairs = true,
};
