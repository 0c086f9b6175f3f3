// console/frontend.c: what the GDB and LLDB adapters' facts become, tested
// once here instead of twice through the debuggers: type spellings, dotted
// field paths and their errors, bitfield storage units, a value's integer,
// return instructions and fatal signals, boundary breakpoints paired by
// CFA, a core's signal, the debuggee's arguments, entry values.
#include <elf.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <unistd.h>

#include "console/console.h"
#include "fake_target.h"
#include "toyc.h"
#include "toyc_fake.h"
#include "unit_util.h"

/* {====================================================================
** Types, from facts
** ===================================================================== */

// The shapes of ir.h that matter: a typedef over a tagged struct, an
// enum behind a typedef, a named union, an anonymous struct, bitfields.
struct types {
	struct fake_target ft;
	uint64_t instr, opcode, u, anon, unsigned_int, chr, block;
};

static int
setup_types(void **state)
{
	struct types *t = calloc(1, sizeof(*t));
	assert_non_null(t);
	struct fake_target *ft = &t->ft;
	fake_facts_init(ft);
	uint64_t sinstr = fake_facts_type(ft, "struct Instr", "struct Instr",
					  IRS_TYPE_STRUCT, 40, 0, 0, 0);
	t->instr = fake_facts_type(ft, "Instr", "Instr", IRS_TYPE_STRUCT, 40,
				   sinstr, 0, 0);
	uint64_t eop = fake_facts_type(ft, NULL, "enum Opcode", IRS_TYPE_ENUM,
				       4, 0, 0, 0);
	fake_facts_enumerator(ft, eop, "OP_ADD", 0);
	fake_facts_enumerator(ft, eop, "OP_MUL", 7);
	t->opcode = fake_facts_type(ft, "Opcode", "Opcode", IRS_TYPE_ENUM, 4,
				    eop, 0, 0);
	t->unsigned_int = fake_facts_type(ft, "unsigned int", "unsigned int",
					  IRS_TYPE_UINT, 4, 0, 0, 0);
	t->chr = fake_facts_type(ft, "char", "char", IRS_TYPE_INT, 1, 0, 0, 0);
	t->block = fake_facts_type(ft, "struct Block", "struct Block",
				   IRS_TYPE_STRUCT, 64, 0, 0, 0);
	uint64_t pinstr = fake_facts_type(ft, NULL, "struct Instr *",
					  IRS_TYPE_POINTER, 8, 0, sinstr, 0);
	uint64_t label = fake_facts_type(ft, NULL, "char [32]",
					 IRS_TYPE_ARRAY, 32, 0, t->chr, 32);
	t->u = fake_facts_type(ft, NULL, "union {...}", IRS_TYPE_UNION, 8, 0,
			       0, 0);
	fake_facts_member(ft, t->u, "def", 0, 0, pinstr);
	fake_facts_member(ft, t->u, "cidx", 0, 0, t->unsigned_int);
	t->anon = fake_facts_type(ft, NULL, "struct {...}", IRS_TYPE_STRUCT, 8,
				  0, 0, 0);
	fake_facts_member(ft, t->anon, "prev", 0, 0, pinstr);
	fake_facts_member(ft, sinstr, "op", 0, 0, t->opcode);
	fake_facts_member(ft, sinstr, "id", 32, 0, t->unsigned_int);
	// a bitfield inside its unsigned int, one straddling two of them
	fake_facts_member(ft, sinstr, "has_result", 69, 1, t->unsigned_int);
	fake_facts_member(ft, sinstr, "wide", 92, 8, t->unsigned_int);
	fake_facts_member(ft, sinstr, "u", 128, 0, t->u);
	fake_facts_member(ft, sinstr, "", 192, 0, t->anon);
	fake_facts_member(ft, sinstr, "label", 256, 0, label);
	// an anonymous enum, only reachable through its member
	uint64_t anon_enum = fake_facts_type(ft, NULL, "enum {...}",
					     IRS_TYPE_ENUM, 4, 0, 0, 0);
	fake_facts_enumerator(ft, anon_enum, "AK_A", 0);
	fake_facts_enumerator(ft, anon_enum, "AK_B", 3);
	fake_facts_member(ft, sinstr, "akind", 100, 3, anon_enum);
	fake_facts_type(ft, "struct Decl", "struct Decl", IRS_TYPE_STRUCT, 0, 0,
			0, 0);		// declared, never defined
	*state = t;
	return 0;
}

static int
teardown_types(void **state)
{
	struct types *t = *state;
	fake_target_deinit(&t->ft);
	free(t);
	return 0;
}

static const char *
msg_of(struct irs_error *err)
{
	static char msg[512];
	assert_non_null(err);
	snprintf(msg, sizeof(msg), "%s", irs_error_get_message(err));
	irs_error_destroy(err);
	return msg;
}

// C spellings: tags dropped or added as the debugger needs, pointers and
// arrays built from their element, declared-only types refused.
static void
test_type_spellings(void **state)
{
	struct types *t = *state;
	const struct irs_target *tg = &t->ft.target;
	uint64_t size;

	assert_null(irs_frontend_type_size(tg, "Instr", &size));
	assert_int_equal(size, 40);
	assert_null(irs_frontend_type_size(tg, "Block", &size));  // + tag
	assert_int_equal(size, 64);
	assert_null(irs_frontend_type_size(tg, "union Opcode", &size));
	assert_int_equal(size, 4);				  // - tag
	assert_null(irs_frontend_type_size(tg, " struct Block * ", &size));
	assert_int_equal(size, 8);
	assert_null(irs_frontend_type_size(tg, "char [32]", &size));
	assert_int_equal(size, 32);
	assert_null(irs_frontend_type_size(tg, "Instr []", &size));
	assert_int_equal(size, 8);				  // a pointer
	assert_string_equal(msg_of(irs_frontend_type_size(tg, "Nope *",
							  &size)),
			    "no type 'Nope' in the debug info");
	assert_string_equal(msg_of(irs_frontend_type_size(tg, "Decl", &size)),
			    "type 'Decl' is incomplete in the debug info "
			    "(only declared)");
}

// Dotted paths go through named and anonymous members; every error names
// the path and the type as both adapters used to.
static void
test_field_paths(void **state)
{
	struct types *t = *state;
	const struct irs_target *tg = &t->ft.target;
	struct irs_field_info fi;

	assert_null(irs_frontend_field(tg, "Instr", "id", &fi));
	assert_int_equal(fi.offset, 4);
	assert_int_equal(fi.size, 4);
	assert_int_equal(fi.kind, IRS_TYPE_UINT);
	assert_string_equal(fi.type_name, "unsigned int");
	assert_null(irs_frontend_field(tg, "Instr", "u.def", &fi));
	assert_int_equal(fi.offset, 16);
	assert_int_equal(fi.kind, IRS_TYPE_POINTER);
	assert_string_equal(fi.type_name, "struct Instr *");
	assert_string_equal(fi.target_name, "Instr");	// tag dropped
	assert_null(irs_frontend_field(tg, "Instr", "prev", &fi)); // anonymous
	assert_int_equal(fi.offset, 24);
	assert_null(irs_frontend_field(tg, "Instr", "label", &fi));
	assert_int_equal(fi.kind, IRS_TYPE_ARRAY);
	assert_int_equal(fi.count, 32);
	assert_string_equal(fi.target_name, "char");
	assert_null(irs_frontend_field(tg, "Instr", "", &fi));	// whole type
	assert_int_equal(fi.size, 40);
	assert_int_equal(fi.kind, IRS_TYPE_STRUCT);
	assert_null(irs_frontend_field(tg, "Instr", "op", &fi));
	assert_int_equal(fi.kind, IRS_TYPE_ENUM);
	assert_string_equal(fi.type_name, "Opcode");

	assert_string_equal(msg_of(irs_frontend_field(tg, "Instr", "nope",
						      &fi)),
			    "no field 'nope' in Instr");
	assert_string_equal(msg_of(irs_frontend_field(tg, "Instr", "u.nope",
						      &fi)),
			    "no field 'nope' (of 'u.nope') in Instr");
	assert_string_equal(msg_of(irs_frontend_field(tg, "Instr", "op.x",
						      &fi)),
			    "'op.x' in Instr: enum Opcode is not a struct or "
			    "union");
	assert_string_equal(msg_of(irs_frontend_field(tg, "Nope", "x", &fi)),
			    "no type 'Nope' in the debug info");
}

// C++ names in each debugger's and compiler's spelling, from one parse.
static void
test_cxx_spellings(void **state)
{
	char b[256];
	(void)state;
	const char *map = "llvm::DenseMap<const llvm::Value *, "
			  "llvm::StringMapEntry<llvm::Value *> *>";
	assert_true(irs_cxx_spell(map, IRS_CXX_CLANG, b, sizeof(b)));
	assert_string_equal(b, map);
	assert_true(irs_cxx_spell(map, IRS_CXX_GCC, b, sizeof(b)));
	assert_string_equal(b, "llvm::DenseMap<const llvm::Value*, "
			    "llvm::StringMapEntry<llvm::Value*>*>");
	assert_true(irs_cxx_spell(map, IRS_CXX_GDB, b, sizeof(b)));
	assert_string_equal(b, "llvm::DenseMap<llvm::Value const*, "
			    "llvm::StringMapEntry<llvm::Value*>*>");
	assert_true(irs_cxx_spell("llvm::Value const*", IRS_CXX_CLANG, b,
				  sizeof(b)));
	assert_string_equal(b, "const llvm::Value *");
	const char *sv = "llvm::SmallVector<llvm::TrackingMDRef, 4>";
	assert_true(irs_cxx_spell(sv, IRS_CXX_CLANG_UNSIGNED, b, sizeof(b)));
	assert_string_equal(b, "llvm::SmallVector<llvm::TrackingMDRef, 4U>");
	assert_true(irs_cxx_spell("llvm::SmallVector<llvm::TrackingMDRef,4u>",
				  IRS_CXX_GCC, b, sizeof(b)));
	assert_string_equal(b, sv);
	// closing brackets, nested names, pointers to const pointers
	assert_true(irs_cxx_spell("A<B<int>>::C", IRS_CXX_CLANG, b,
				  sizeof(b)));
	assert_string_equal(b, "A<B<int> >::C");
	assert_true(irs_cxx_spell("char const* const*", IRS_CXX_CLANG, b,
				  sizeof(b)));
	assert_string_equal(b, "const char *const *");
	assert_true(irs_cxx_spell("unsigned int", IRS_CXX_GDB, b, sizeof(b)));
	assert_string_equal(b, "unsigned int");
	assert_false(irs_cxx_spell("A<B", IRS_CXX_GCC, b, sizeof(b)) &&
		     strcmp(b, "A<B>"));
	irs_cxx_short_name("llvm::ilist_node_base<false>", b, sizeof(b));
	assert_string_equal(b, "ilist_node_base");
	irs_cxx_short_name("llvm::A<llvm::B::C>::D<int>", b, sizeof(b));
	assert_string_equal(b, "D");
}

// A C++ class's base classes are members named by their type (as GDB's
// fields() report them): a path reaches their members by name, through
// any depth, and names a base by its full or short name; a template name
// is found in the spelling the debugger knows it by (LLDB: the DWARF's).
static void
test_cxx_bases(void **state)
{
	struct fake_target ft;
	struct irs_field_info fi;
	uint64_t size;
	(void)state;

	fake_facts_init(&ft);
	uint64_t u32 = fake_facts_type(&ft, "unsigned int", "unsigned int",
				       IRS_TYPE_UINT, 4, 0, 0, 0);
	uint64_t node = fake_facts_type(&ft, NULL, "llvm::ilist_node_base<false>",
					IRS_TYPE_STRUCT, 16, 0, 0, 0);
	uint64_t pnode = fake_facts_type(&ft, NULL,
					 "llvm::ilist_node_base<false> *",
					 IRS_TYPE_POINTER, 8, 0, node, 0);
	fake_facts_member(&ft, node, "Prev", 0, 0, pnode);
	fake_facts_member(&ft, node, "Next", 64, 0, pnode);
	uint64_t value = fake_facts_type(&ft, "llvm::Value", "llvm::Value",
					 IRS_TYPE_STRUCT, 24, 0, 0, 0);
	fake_facts_member(&ft, value, "SubclassID", 128, 0, u32);
	uint64_t user = fake_facts_type(&ft, NULL, "llvm::User",
					IRS_TYPE_STRUCT, 24, 0, 0, 0);
	fake_facts_member(&ft, user, "llvm::Value", 0, 0, value);
	uint64_t fn = fake_facts_type(&ft, "llvm::Function", "llvm::Function",
				      IRS_TYPE_STRUCT, 120, 0, 0, 0);
	fake_facts_member(&ft, fn, "llvm::User", 0, 0, user);
	fake_facts_member(&ft, fn, "llvm::ilist_node_base<false>", 448, 0,
			  node);
	fake_facts_member(&ft, fn, "NumArgs", 768, 0, u32);
	fake_facts_type(&ft, "llvm::SmallVector<llvm::Value *, 4U>",
			"llvm::SmallVector<llvm::Value *, 4U>",
			IRS_TYPE_STRUCT, 48, 0, 0, 0);
	const struct irs_target *tg = &ft.target;

	assert_null(irs_frontend_field(tg, "llvm::Function", "SubclassID",
				       &fi));
	assert_int_equal(fi.offset, 16);	// in Value, in User
	assert_null(irs_frontend_field(tg, "llvm::Function", "Next", &fi));
	assert_int_equal(fi.offset, 64);	// the ilist link's Next
	assert_null(irs_frontend_field(tg, "llvm::Function",
				       "ilist_node_base.Next", &fi));
	assert_int_equal(fi.offset, 64);
	assert_null(irs_frontend_field(tg, "llvm::Function",
				       "llvm::ilist_node_base<false>", &fi));
	assert_int_equal(fi.offset, 56);
	assert_int_equal(fi.size, 16);
	assert_null(irs_frontend_field(tg, "llvm::Function", "llvm::User."
				       "llvm::Value.SubclassID", &fi));
	assert_int_equal(fi.offset, 16);
	assert_null(irs_frontend_field(tg, "llvm::Function", "NumArgs", &fi));
	assert_int_equal(fi.offset, 96);
	assert_string_equal(msg_of(irs_frontend_field(tg, "llvm::Function",
						      "Nope", &fi)),
			    "no field 'Nope' in llvm::Function");
	assert_null(irs_frontend_type_size(tg, "llvm::SmallVector<llvm::Value*,"
					   " 4>", &size));
	assert_int_equal(size, 48);
	fake_target_deinit(&ft);
}

// A bitfield is described by its storage unit when it fits in one aligned
// unit of its declared type, else by the bytes it spans.
static void
test_bitfields(void **state)
{
	struct types *t = *state;
	const struct irs_target *tg = &t->ft.target;
	struct irs_field_info fi;

	assert_null(irs_frontend_field(tg, "Instr", "has_result", &fi));
	assert_int_equal(fi.offset, 8);		// bit 69: unit at bit 64
	assert_int_equal(fi.size, 4);
	assert_int_equal(fi.bit_offset, 5);
	assert_int_equal(fi.bit_size, 1);
	assert_null(irs_frontend_field(tg, "Instr", "wide", &fi));
	assert_int_equal(fi.offset, 11);	// bits 92..99 cross a unit
	assert_int_equal(fi.bit_offset, 4);
	assert_int_equal(fi.size, 2);
	assert_int_equal(fi.bit_size, 8);
}

static void
test_enumerators(void **state)
{
	struct types *t = *state;
	const struct irs_target *tg = &t->ft.target;
	char name[64];
	int64_t v;

	assert_null(irs_frontend_enumerator(tg, "Opcode", 1, name,
					    sizeof(name), &v));
	assert_string_equal(name, "OP_MUL");
	assert_int_equal(v, 7);
	struct irs_error *err = irs_frontend_enumerator(tg, "Opcode", 2, name,
							sizeof(name), &v);
	assert_int_equal(irs_error_get_code(err), IRS_ERROR_NOT_FOUND);
	irs_error_destroy(err);
	assert_string_equal(msg_of(irs_frontend_enumerator(tg, "Opcode", 2,
		name, sizeof(name), &v)), "Opcode has 2 enumerators");
	assert_string_equal(msg_of(irs_frontend_enumerator(tg, "Instr", 0,
		name, sizeof(name), &v)), "Instr is not an enum");
	// "T.path": the enum of a member, anonymous or not
	assert_null(irs_frontend_enumerator(tg, "Instr.akind", 1, name,
					    sizeof(name), &v));
	assert_string_equal(name, "AK_B");
	assert_int_equal(v, 3);
	assert_null(irs_frontend_enumerator(tg, "Instr.op", 0, name,
					    sizeof(name), &v));
	assert_string_equal(name, "OP_ADD");
	assert_string_equal(msg_of(irs_frontend_enumerator(tg, "Instr.nope",
		0, name, sizeof(name), &v)), "no field 'nope' in Instr");
	assert_string_equal(msg_of(irs_frontend_enumerator(tg, "Instr.id", 0,
		name, sizeof(name), &v)), "Instr.id is not an enum");
}

// The layout the console compiles asks the core, which asks the facts.
static void
test_layout_over_facts(void **state)
{
	struct types *t = *state;
	static const char src[] =
		"layout { name = 'x', root = 'Instr' }\n"
		"struct 'Instr' { fields = { id = scalar 'id',\n"
		"  op = enum 'op', def = ref('u.def', 'Instr'),\n"
		"  has_result = scalar 'has_result' }, text = '{id}' }\n";
	struct irs_layout *lo;
	char *text;

	struct irs_console *c;
	assert_null(irs_console_create(&t->ft.target, &c));
	console_frontend_init(c);
	assert_null(irs_layout_create(src, strlen(src), "x.lua", &c->lt,
				      &lo));
	assert_null(irs_layout_describe(lo, &text));
	assert_non_null(strstr(text, "Instr"));
	irs_free(text);
	irs_layout_destroy(lo);
	irs_console_destroy(c);
}

/* }====================================================================
** Values, instructions, signals
** ===================================================================== */

static struct irs_value_facts
value(uint32_t kind, bool has_address, bool has_bits, const char *type)
{
	struct irs_value_facts v;
	memset(&v, 0, sizeof(v));
	v.kind = kind;
	v.has_address = has_address;
	v.address = 0x1000;
	v.has_bits = has_bits;
	v.bits = 0x2000;
	snprintf(v.type_name, sizeof(v.type_name), "%s", type);
	return v;
}

// A pointer or integer stands for its value, an aggregate or a function
// for its address; a float or a value with neither is an error.
static void
test_value_to_integer(void **state)
{
	(void)state;
	uint64_t u;
	struct irs_value_facts v = value(IRS_TYPE_POINTER, true, true, "T *");

	assert_null(irs_frontend_value(&v, &u));
	assert_int_equal(u, 0x2000);
	v = value(IRS_TYPE_STRUCT, true, false, "struct M");
	assert_null(irs_frontend_value(&v, &u));
	assert_int_equal(u, 0x1000);
	v = value(IRS_TYPE_OTHER, true, false, "void (void)");
	v.is_function = true;
	assert_null(irs_frontend_value(&v, &u));
	assert_int_equal(u, 0x1000);
	v = value(IRS_TYPE_ARRAY, false, false, "char [4]");
	assert_string_equal(msg_of(irs_frontend_value(&v, &u)),
			    "a char [4] value with no address");
	v = value(IRS_TYPE_FLOAT, true, true, "double");
	assert_string_equal(msg_of(irs_frontend_value(&v, &u)),
			    "a floating-point value (double), not a pointer "
			    "or integer");
	v = value(IRS_TYPE_INT, false, false, "int");
	snprintf(v.why, sizeof(v.why), "value has been optimized out");
	assert_string_equal(msg_of(irs_frontend_value(&v, &u)),
			    "value has been optimized out");
}

static void
test_return_instructions(void **state)
{
	(void)state;
	assert_true(irs_frontend_is_return("ret"));
	assert_true(irs_frontend_is_return("retq"));
	assert_true(irs_frontend_is_return("  ret    "));
	assert_true(irs_frontend_is_return("repz ret"));
	assert_true(irs_frontend_is_return("rep retq"));
	assert_true(irs_frontend_is_return("repz\tretq "));
	assert_false(irs_frontend_is_return("rep stos %al,%es:(%rdi)"));
	assert_false(irs_frontend_is_return("call 0x1000 <ret_helper>"));
	assert_false(irs_frontend_is_return(""));
}

static void
test_fatal_signals(void **state)
{
	(void)state;
	int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
	for (size_t i = 0; i < ARRAY_SIZE(fatal); i++)
		assert_true(irs_frontend_fatal_signal(fatal[i]));
	assert_false(irs_frontend_fatal_signal(SIGCHLD));
	assert_false(irs_frontend_fatal_signal(SIGTRAP));
	assert_false(irs_frontend_fatal_signal(SIGINT));
	assert_false(irs_frontend_fatal_signal(0));
}

// The adapters' batch flag: among the debugger's own options only.
static void
test_batch_flag(void **state)
{
	(void)state;
	static const char lldb[] = "lldb\0-b\0-o\0run\0./toyc";
	static const char gdb[] = "gdb\0-q\0-batch-silent\0-x\0s.gdb";
	static const char after[] = "lldb\0--\0./toyc\0-b";
	assert_true(console_cmdline_has(lldb, sizeof(lldb), "-b --batch"));
	assert_false(console_cmdline_has(lldb, sizeof(lldb), "-batch"));
	assert_true(console_cmdline_has(gdb, sizeof(gdb),
					"-batch --batch -batch-silent"));
	assert_false(console_cmdline_has(gdb, sizeof(gdb), "-b --batch"));
	assert_false(console_cmdline_has(after, sizeof(after), "-b"));
	assert_false(console_cmdline_has("-b", 3, "-b"));	// argv[0]
	assert_false(console_cmdline_has("", 0, "-b"));
	// this test runs without any of them
	assert_false(irs_frontend_batch_mode("-b --batch -batch"));
}

static void
test_debugger_version(void **state)
{
	(void)state;
	char buf[64];
	irs_frontend_debugger_version("lldb", "lldb version 14.0.6\n  clang "
				      "revision 1234", buf, sizeof(buf));
	assert_string_equal(buf, "lldb 14.0.6");
	irs_frontend_debugger_version("lldb", "lldb version 17.0.0(git)",
				      buf, sizeof(buf));
	assert_string_equal(buf, "lldb 17.0.0");
	irs_frontend_debugger_version("gdb", "13.1", buf, sizeof(buf));
	assert_string_equal(buf, "gdb 13.1");
	irs_frontend_debugger_version("gdb", "12.1 Ubuntu", buf, sizeof(buf));
	assert_string_equal(buf, "gdb 12.1");
	irs_frontend_debugger_version("gdb", "", buf, sizeof(buf));
	assert_string_equal(buf, "gdb");
}

static void
check_taken(char *got, const char *want)
{
	assert_non_null(got);
	assert_string_equal(got, want);
	irs_free(got);
}

// Words LLDB unquoted, quoted again so that the console splits them back
// into the same words.
static void
test_join_words(void **state)
{
	(void)state;
	const char *argv[] = {"-o", "my file", "it's", "a\\b", "", "x*y",
			      NULL};
	char *joined = irs_frontend_join_words(argv);
	assert_string_equal(joined, "-o 'my file' 'it'\\''s' 'a\\b' '' x*y");
	struct console_args a;
	assert_null(console_args_split("ir-dump", joined, &a));
	assert_int_equal(a.nwords, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(a.words[i].text, argv[i]);
	console_args_deinit(&a);
	irs_free(joined);
	const char *none[] = {NULL};
	check_taken(irs_frontend_join_words(none), "");
	check_taken(irs_frontend_join_words(NULL), "");
}

static void
test_lldb_message_line(void **state)
{
	(void)state;
	check_taken(irs_frontend_one_line("error: no such process\nmore"),
		    "no such process");
	check_taken(irs_frontend_one_line("error: <user expression 3>:1:1: "
					  "use of undeclared identifier "
					  "'x'  \r\n"),
		    "use of undeclared identifier 'x'");
	check_taken(irs_frontend_one_line(
		"error: expression failed to parse:\nerror: <user expression "
		"0>:1:5: no member named 'q' in 'Pass'\nnote: here"),
		    "no member named 'q' in 'Pass'");
	check_taken(irs_frontend_one_line("heading:\nerror: \nnote"),
		    "heading:");
	check_taken(irs_frontend_one_line("memory read failed:"),
		    "memory read failed:");
	check_taken(irs_frontend_one_line(NULL), "");
	check_taken(irs_frontend_one_line("error: "), "");
}

static void
test_expression_kinds(void **state)
{
	(void)state;
	const char *vars[] = {"m", "pass->name", "pm->module.funcs", "a[2]",
			      "_x", "f->blocks[i]->ninstr"};
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++)
		assert_int_equal(irs_frontend_expr_kind(vars[i]),
				 IRS_EXPR_VARIABLE);
	assert_int_equal(irs_frontend_expr_kind("$rsp"), IRS_EXPR_REGISTER);
	assert_int_equal(irs_frontend_expr_kind("$_siginfo"),
			 IRS_EXPR_REGISTER);
	const char *other[] = {"", "$", "$r-1", "*p", "f()", "a + 1",
			       "(int)x", "2", "p-q", "p->*q"};
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		assert_int_equal(irs_frontend_expr_kind(other[i]),
				 IRS_EXPR_OTHER);
}

// LLDB's C++ spellings of C types, as GDB prints them.
static void
test_gdb_spellings_of_lldb_names(void **state)
{
	(void)state;
	check_taken(irs_frontend_gdb_spelling("char[32]", NULL, false),
		    "char [32]");
	check_taken(irs_frontend_gdb_spelling("char [32]", NULL, false),
		    "char [32]");
	check_taken(irs_frontend_gdb_spelling("bool *", NULL, true),
		    "_Bool *");
	check_taken(irs_frontend_gdb_spelling("bool", NULL, false), "bool");
	check_taken(irs_frontend_gdb_spelling("Block *", "struct ", false),
		    "struct Block *");
	check_taken(irs_frontend_gdb_spelling("const volatile Block *",
					      "struct ", false),
		    "const volatile struct Block *");
	check_taken(irs_frontend_gdb_spelling("struct Block *", "struct ",
					      false), "struct Block *");
	check_taken(irs_frontend_gdb_spelling("Kind[4]", "enum ", false),
		    "enum Kind [4]");
	check_taken(irs_frontend_gdb_spelling("union (unnamed union at x.c:3:"
					      "5)", "union ", false),
		    "union union {...}");
	check_taken(irs_frontend_gdb_spelling("(anonymous struct)", "struct ",
					      false), "struct {...}");
	check_taken(irs_frontend_gdb_spelling("(anonymous struct", "struct ",
					      false), "struct {...}");
	check_taken(irs_frontend_gdb_spelling("Pass", NULL, false), "Pass");
}

// Every struct a binding mirrors is in the table, with offsetof's values.
static void
test_abi_table(void **state)
{
	(void)state;
	const struct irs_abi_field *a = irs_abi_layout();
	bool target = false, facts = false;
	for (; a->type; a++) {
		if (!strcmp(a->type, "irs_target") && a->field &&
		    !strcmp(a->field, "delete_break"))
			target = a->offset == offsetof(struct irs_target,
						       delete_break);
		if (!strcmp(a->type, "irs_value_facts") && !a->field)
			facts = a->size == sizeof(struct irs_value_facts);
	}
	assert_true(target);
	assert_true(facts);
}

/* }====================================================================
** A console over a front end: breakpoints, hits, signals, arguments
** ===================================================================== */

struct bp {
	uint32_t id;
	bool entry;
	uint64_t at;
};

struct world {
	struct fake_target ft;
	struct irs_console *c;
	Module *m;
	const char *pass;
	uint64_t cfa;			// of the frame eval() uses
	unsigned ncfa;			// times the core asked for it
	uint64_t sp;			// $sp, when nonzero
	struct bp bps[16];		// set and not deleted
	size_t nbps;
	unsigned ndeleted;
	uint32_t other[16];		// pm_run_function_pass's
	size_t nother;
	bool disassembly_known;
	int32_t core_signo;		// stop_signal's answer
	unsigned nstop_signal;
	bool x_gone;			// "x" is optimized out now
	char dir[64];
	char *out;
};

static struct irs_error *
w_eval(void *arg, const char *expr, bool calls, struct irs_value_facts *ret)
{
	struct world *w = arg;
	(void)calls;
	memset(ret, 0, sizeof(*ret));
	ret->kind = IRS_TYPE_POINTER;
	ret->has_bits = true;
	if (!strcmp(expr, "m"))
		ret->bits = (uint64_t)(uintptr_t)w->m;
	else if (!strcmp(expr, "pass->name"))
		ret->bits = (uint64_t)(uintptr_t)w->pass;
	else if (!strcmp(expr, "x") && !w->x_gone)
		ret->bits = 42;
	else if (!strcmp(expr, "$sp") && w->sp)
		ret->bits = w->sp;
	else
		return irs_error_format(IRS_ERROR_TARGET, "optimized out");
	return NULL;
}

static struct irs_error *
w_cfa(void *arg, uint64_t *ret)
{
	struct world *w = arg;
	w->ncfa++;
	*ret = w->cfa;
	return NULL;
}

static struct irs_error *
w_arg(void *arg, uint32_t index, char *name, uint64_t len,
      struct irs_value_facts *ret)
{
	static const char *const names[] = {"x", "d"};
	if (index >= 2)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no more");
	snprintf(name, len, "%s", names[index]);
	memset(ret, 0, sizeof(*ret));
	ret->kind = index ? IRS_TYPE_FLOAT : IRS_TYPE_INT;	// d is kept out
	ret->has_bits = true;
	ret->bits = 42;
	(void)arg;
	return NULL;
}

static struct irs_error *
w_disassemble(void *arg, const char *function, struct irs_insns *sink)
{
	struct world *w = arg;
	if (!w->disassembly_known)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no function '%s'",
					function);
	irs_insns_add(sink, 0, "push %rbp");
	irs_insns_add(sink, 4, "ret");
	irs_insns_add(sink, 9, "repz retq");
	irs_insns_add(sink, 4, "ret");		// the same one again
	irs_insns_add(sink, 12, "rep stos %al,%es:(%rdi)");
	return NULL;
}

// The breakpoints on pm_run_pass are what the tests look at; toyc.lua's
// other boundary, --per-function's pm_run_function_pass, gets its own
// (set and deleted with them, never hit here).
static struct irs_error *
w_set_break(void *arg, uint32_t id, const char *function, bool entry,
	    uint64_t at)
{
	struct world *w = arg;
	if (!strcmp(function, "pm_run_function_pass")) {
		assert_true(w->nother < ARRAY_SIZE(w->other));
		w->other[w->nother++] = id;
		return NULL;
	}
	assert_string_equal(function, "pm_run_pass");
	assert_true(w->nbps < ARRAY_SIZE(w->bps));
	w->bps[w->nbps++] = (struct bp){id, entry, at};
	return NULL;
}

static void
w_delete_break(void *arg, uint32_t id)
{
	struct world *w = arg;
	for (size_t i = 0; i < w->nbps; i++)
		if (w->bps[i].id == id) {
			w->bps[i] = w->bps[--w->nbps];
			w->ndeleted++;
			return;
		}
	for (size_t i = 0; i < w->nother; i++)
		if (w->other[i] == id) {
			w->other[i] = w->other[--w->nother];
			return;
		}
	fail_msg("deleted breakpoint %u twice", id);
}

static struct irs_error *
w_stop_signal(void *arg, int32_t *signo, char *name, uint64_t len)
{
	struct world *w = arg;
	w->nstop_signal++;
	*signo = w->core_signo;
	snprintf(name, len, "SIGSEGV");
	return NULL;
}

static struct irs_error *
w_args(void *arg, char *buf, uint64_t len)
{
	(void)arg;
	snprintf(buf, len, "--passes=cse 'my input.ir'");
	return NULL;
}

static const char *
wrun(struct world *w, const char *name, const char *args)
{
	return unit_console_run(w->c, name, args, &w->out);
}

static int
setup_world(void **state)
{
	struct world *w = calloc(1, sizeof(*w));
	assert_non_null(w);
	fake_target_init(&w->ft);
	toyc_fake_register(&w->ft);
	struct irs_target *t = &w->ft.target;
	t->arg = w;	// every callback below finds the world; fake_read
			// needs only a struct fake_target, which w starts with
	t->eval_value = w_eval;
	t->cfa = w_cfa;
	t->arg_value = w_arg;
	t->disassemble = w_disassemble;
	t->set_break = w_set_break;
	t->delete_break = w_delete_break;
	t->stop_signal = w_stop_signal;
	t->args = w_args;
	t->exe_path = "/usr/bin/toyc";
	w->m = unit_demo_module();
	w->pass = "cse";
	w->disassembly_known = true;
	unit_tmpdir(w->dir, sizeof(w->dir), "frontend");
	w->c = unit_toyc_console(t, w->dir, &w->out);
	*state = w;
	return 0;
}

static int
teardown_world(void **state)
{
	struct world *w = *state;
	irs_console_destroy(w->c);
	module_destroy(w->m);
	fake_target_deinit(&w->ft);
	irs_free(w->out);
	unit_rmtree(w->dir);
	free(w);
	return 0;
}

static uint32_t
bp_id(const struct world *w, bool entry, uint64_t at)
{
	for (size_t i = 0; i < w->nbps; i++)
		if (w->bps[i].entry == entry && (entry || w->bps[i].at == at))
			return w->bps[i].id;
	fail_msg("no breakpoint %s %llu", entry ? "entry" : "at",
		 (unsigned long long)at);
	return 0;
}

// hit: reports breakpoint @p id at CFA @p cfa; returns the stop decision.
static bool
hit(struct world *w, uint32_t id, uint64_t cfa)
{
	bool stop;
	char *out;
	w->cfa = cfa;
	struct irs_error *err = irs_console_hit(w->c, id, &stop, &out);
	if (err)
		fail_msg("hit %u: %s", id, irs_error_get_message(err));
	irs_free(w->out);
	w->out = out;
	return stop;
}

// The latest run as readers see it: its events as "events".
static json_t *
manifest(const struct world *w)
{
	char path[200];
	json_t *doc;
	struct irs_event_log_info info;
	snprintf(path, sizeof(path), "%s/latest", w->dir);
	assert_null(irs_run_load(path, &doc, &info));
	return doc;
}

// The console sets the entry and each distinct return instruction, and
// deletes them all when nothing is traced any more.
static void
test_breakpoints_follow_requests(void **state)
{
	struct world *w = *state;

	assert_int_equal(w->nbps, 0);
	wrun(w, "ir-trace", "on");
	assert_int_equal(w->nbps, 3);
	bp_id(w, true, 0);
	bp_id(w, false, 4);
	bp_id(w, false, 9);
	wrun(w, "ir-break", "cse");	// the same function: nothing new
	assert_int_equal(w->nbps, 3);
	wrun(w, "ir-trace", "off");
	assert_int_equal(w->nbps, 3);
	wrun(w, "ir-break", "off");
	assert_int_equal(w->nbps, 0);
	assert_int_equal(w->ndeleted, 3);
	wrun(w, "ir-trace", "on");
	assert_int_equal(w->nbps, 3);
	irs_console_forget_breaks(w->c);
	assert_int_equal(w->nbps, 0);
	wrun(w, "ir-status", "");	// the next command sets them again
	assert_int_equal(w->nbps, 3);
}

// Breakpoints the user deleted: the console forgets them (never deletes
// them again), says so once, shows them gone in ir-status, and the next
// ir-break sets them again; an id not its own is not its business.
static void
test_user_deleted_breakpoints(void **state)
{
	struct world *w = *state;
	wrun(w, "ir-break", "cse");
	uint32_t entry = bp_id(w, true, 0), ret = bp_id(w, false, 9);
	size_t nbps = w->nbps;
	assert_false(irs_console_break_deleted(w->c, 999));
	// the debugger deleted them: gone from the fake's table
	for (size_t i = 0; i < w->nbps;)
		if (w->bps[i].id == entry || w->bps[i].id == ret)
			w->bps[i] = w->bps[--w->nbps];
		else
			i++;
	assert_true(irs_console_break_deleted(w->c, entry));
	assert_true(irs_console_break_deleted(w->c, ret));
	char *note = irs_console_note(w->c);
	assert_string_equal(note, "irsnap: you deleted irsnap's breakpoints "
			    "at pm_run_pass: no pass there is seen until "
			    "ir-break or ir-trace sets them again\n");
	irs_free(note);
	note = irs_console_note(w->c);
	assert_string_equal(note, "");		// said once
	irs_free(note);
	assert_non_null(strstr(wrun(w, "ir-status", ""), "\nbreakpoints at: "
			       "pm_run_pass, pm_run_function_pass; deleted by "
			       "you: pm_run_pass (ir-break or ir-trace sets "
			       "them again)\n"));
	assert_int_equal(w->nbps, nbps - 2);	// ir-status sets nothing
	unsigned deleted = w->ndeleted;
	wrun(w, "ir-break", "--after cse");
	assert_int_equal(w->nbps, nbps);	// all of them again
	assert_int_equal(w->ndeleted, deleted + 1);	// the one left, not
							// the user's two
	assert_null(strstr(wrun(w, "ir-status", ""), "deleted"));
}

// Returns pair with entries by CFA: a return from a call entered before
// tracing is ignored, and a return past a call that never returned (a
// longjmp out of it) closes that one too.
static void
test_hits_pair_by_cfa(void **state)
{
	struct world *w = *state;
	wrun(w, "ir-trace", "on");
	uint32_t entry = bp_id(w, true, 0), ret = bp_id(w, false, 9);

	assert_false(hit(w, ret, 0x7000));	// entered before we looked
	assert_string_equal(w->out, "");
	assert_false(hit(w, entry, 0x7100));
	assert_non_null(strstr(w->out, "irsnap: tracing into "));
	w->pass = "dce";
	assert_false(hit(w, entry, 0x7000));	// nested (a recursive pass)
	assert_false(hit(w, ret, 0x6f00));	// some other call's return
	assert_int_equal(w->c->nevents, 2);
	assert_false(hit(w, ret, 0x7100));	// the outer returns: both end
	assert_int_equal(w->c->nevents, 0);

	json_t *man = manifest(w);
	json_t *events = json_object_get(man, "events");
	const char *want[][2] = {{"cse", "before"}, {"dce", "before"},
				 {"dce", "after"}, {"cse", "after"}};
	assert_int_equal(json_array_size(events), 4);
	for (size_t i = 0; i < 4; i++) {
		json_t *ev = json_array_get(events, i);
		assert_string_equal(json_string_value(
			json_object_get(ev, "pass")), want[i][0]);
		assert_string_equal(json_string_value(
			json_object_get(ev, "phase")), want[i][1]);
	}
	// The debuggee's arguments come from the target, when the run
	// directory is made.
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		man, "debuggee"), "args")), "--passes=cse 'my input.ir'");
	json_decref(man);

	wrun(w, "ir-break", "--after dce");
	w->pass = "dce";
	assert_false(hit(w, entry, 0x7200));
	assert_true(hit(w, ret, 0x7200));
	assert_non_null(strstr(w->out, "irsnap: stopped after pass 'dce'"));
}

// hit_sp: reports breakpoint @p id with the stack pointer at @p sp and a
// CFA that pairs nothing: what pairs is the stack order.
static bool
hit_sp(struct world *w, uint32_t id, uint64_t sp)
{
	w->sp = sp;
	return hit(w, id, 0xdead0);
}

// On x86-64 a return pairs with an entry by stack order: the entry stop's
// sp (after the prologue) is at most the call's CFA - 8, where a return
// instruction's sp is, and every outer call's is at least that CFA. No CFA
// is asked of the debugger, at the entry or the return.
static void
test_returns_pair_by_sp(void **state)
{
	struct world *w = *state;
	wrun(w, "ir-trace", "on");
	uint32_t entry = bp_id(w, true, 0), ret = bp_id(w, false, 9);
	unsigned asked = w->ncfa;

	hit_sp(w, entry, 0x70e0);		// CFA 0x7100, 3 pushes
	hit_sp(w, ret, 0x70f8);			// its ret: CFA - 8
	assert_int_equal(w->c->nevents, 0);
	assert_int_equal(w->ncfa, asked);	// the debugger's CFA unasked
	json_t *man = manifest(w);
	assert_int_equal(json_array_size(json_object_get(man, "events")), 2);
	json_decref(man);

	hit_sp(w, entry, 0x70e0);		// an outer call
	w->pass = "dce";
	hit_sp(w, entry, 0x6fe0);		// nested (a recursive pass)
	hit_sp(w, ret, 0x6ef8);			// a deeper call's return
	assert_int_equal(w->c->nevents, 2);
	hit_sp(w, ret, 0x6ff8);			// the inner one returns
	assert_int_equal(w->c->nevents, 1);
	hit_sp(w, ret, 0x70f8);			// the outer one
	assert_int_equal(w->c->nevents, 0);

	hit_sp(w, entry, 0x70e0);
	hit_sp(w, entry, 0x6fe0);		// never returns (a longjmp)
	hit_sp(w, ret, 0x70f8);			// the outer's return ends both
	assert_int_equal(w->c->nevents, 0);

	hit_sp(w, entry, 0x70e0);
	assert_false(hit_sp(w, ret, 0x6ff8));	// a call entered before we
	assert_int_equal(w->c->nevents, 1);	// looked: still open
	assert_int_equal(w->ncfa, asked);

	man = manifest(w);
	json_t *events = json_object_get(man, "events");
	const char *want[][2] = {
		{"cse", "before"}, {"cse", "after"}, {"cse", "before"},
		{"dce", "before"}, {"dce", "after"}, {"dce", "after"},
		{"dce", "before"}, {"dce", "before"}, {"dce", "after"},
		{"dce", "after"}, {"dce", "before"}};
	assert_int_equal(json_array_size(events), ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		json_t *ev = json_array_get(events, i);
		assert_string_equal(json_string_value(
			json_object_get(ev, "phase")), want[i][1]);
	}
	json_decref(man);
}

// Another machine's return instruction leaves no fixed distance between
// sp and the CFA (AArch64's leaves sp at the CFA): the entry and the
// return are paired by the debugger's CFA.
static void
test_returns_pair_by_cfa_elsewhere(void **state)
{
	struct world *w = *state;
	char exe[128];
	snprintf(exe, sizeof(exe), "%s/aarch64-exe", w->dir);
	unsigned char h[64] = {0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB,
			       EV_CURRENT};
	h[18] = EM_AARCH64 & 0xff;
	h[19] = EM_AARCH64 >> 8;
	FILE *f = fopen(exe, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(h, 1, sizeof(h), f), sizeof(h));
	fclose(f);
	w->ft.target.exe_path = exe;
	wrun(w, "ir-trace", "on");
	uint32_t entry = bp_id(w, true, 0), ret = bp_id(w, false, 9);
	unsigned asked = w->ncfa;

	w->sp = 0x70e0;
	hit(w, entry, 0x7100);
	assert_int_equal(w->ncfa, asked + 1);
	w->sp = 0x7100;
	hit(w, ret, 0x7000);			// sp would pair it: the CFA not
	assert_int_equal(w->c->nevents, 1);
	hit(w, ret, 0x7100);
	assert_int_equal(w->c->nevents, 0);
	w->ft.target.exe_path = "/usr/bin/toyc";
}

// A function not known at the sync (its library not loaded yet) gets its
// return breakpoints at its first entry; one that has none says so once.
static void
test_returns_resolved_late(void **state)
{
	struct world *w = *state;
	w->disassembly_known = false;
	const char *out = wrun(w, "ir-trace", "on");
	assert_null(strstr(out, "no after snapshots"));	// silent for now
	assert_int_equal(w->nbps, 1);
	w->disassembly_known = true;
	hit(w, bp_id(w, true, 0), 0x7000);
	assert_int_equal(w->nbps, 3);

	wrun(w, "ir-trace", "off");
	assert_int_equal(w->nbps, 0);
	w->disassembly_known = false;
	wrun(w, "ir-trace", "on");
	irs_free(w->out);	// replaced below
	w->out = NULL;
	assert_null(irs_console_exited(w->c, -1, &w->out));	// a new process
	hit(w, bp_id(w, true, 0), 0x7000);
	assert_non_null(strstr(w->out, "irsnap: pm_run_pass: no function "
			       "'pm_run_pass'; no after snapshots\n"));
	hit(w, bp_id(w, true, 0), 0x6000);
	assert_null(strstr(w->out, "no after snapshots"));	// said once
}

// At the return, where an argument is optimized out, eval finds the value
// it had at the entry of the call with this CFA (integers and pointers).
static void
test_entry_values(void **state)
{
	struct world *w = *state;
	uint64_t v;
	wrun(w, "ir-trace", "on");
	uint32_t entry = bp_id(w, true, 0), ret = bp_id(w, false, 4);

	hit(w, entry, 0x7000);
	w->x_gone = true;
	w->cfa = 0x7000;
	assert_null(console_eval(w->c, "x", EVAL_USER, &v));
	assert_int_equal(v, 42);
	struct irs_error *err = console_eval(w->c, "d", EVAL_USER, &v);
	assert_non_null(err);
	irs_error_destroy(err);
	hit(w, ret, 0x7000);
	assert_null(console_eval(w->c, "x", EVAL_USER, &v));	// stopped
	w->cfa = 0x5000;					// elsewhere
	err = console_eval(w->c, "x", EVAL_USER, &v);
	assert_string_equal(msg_of(err), "cannot evaluate 'x': optimized out");
}

// Only fatal signals are reported, and not while the console calls into
// the debuggee; a core file's signal is taken once per core.
static void
test_signals(void **state)
{
	struct world *w = *state;
	bool fatal;
	char *out;

	assert_null(irs_console_stop(w->c, SIGCHLD, "SIGCHLD", &fatal, &out));
	assert_false(fatal);
	irs_free(out);
	w->c->in_call = true;
	assert_null(irs_console_stop(w->c, SIGSEGV, "SIGSEGV", &fatal, &out));
	assert_false(fatal);
	assert_int_equal(w->c->signo, 0);
	irs_free(out);
	w->c->in_call = false;
	assert_null(irs_console_stop(w->c, SIGSEGV, "SIGSEGV", &fatal, &out));
	assert_true(fatal);
	assert_int_equal(w->c->signo, SIGSEGV);
	irs_free(out);

	assert_null(irs_console_exited(w->c, -1, &out));
	irs_free(out);
	w->ft.target.core_path = "/tmp/core.1";
	w->core_signo = SIGBUS;
	wrun(w, "ir-status", "");
	wrun(w, "ir-status", "");
	assert_int_equal(w->nstop_signal, 1);
	assert_int_equal(w->c->signo, SIGBUS);
	w->ft.target.core_path = "/tmp/core.2";
	w->core_signo = 0;
	wrun(w, "ir-status", "");
	assert_int_equal(w->nstop_signal, 2);
	w->ft.target.core_path = NULL;
}

// What a batch debugger ends with: a fatal signal's 128 + N over any
// status of its own, a failed command's 1 only over a 0 (LLDB's -b, -1
// here, says 1 itself after one).
static void
test_batch_exit(void **state)
{
	struct world *w = *state;
	char *out = NULL;

	assert_int_equal(irs_console_batch_exit(w->c, 0), 0);
	assert_int_equal(irs_console_batch_exit(NULL, 0), 0);
	struct irs_error *err = irs_console_command(w->c, "ir-set",
						    "format xml", &out);
	assert_non_null(err);
	irs_error_destroy(err);
	irs_free(out);
	assert_int_equal(irs_console_batch_exit(w->c, 0), 1);
	assert_int_equal(irs_console_batch_exit(w->c, 2), 0);
	assert_int_equal(irs_console_batch_exit(w->c, -1), 0);
	w->c->check.signo = SIGSEGV;
	assert_int_equal(irs_console_batch_exit(w->c, 0), 128 + SIGSEGV);
	assert_int_equal(irs_console_batch_exit(w->c, 1), 128 + SIGSEGV);
	assert_int_equal(irs_console_batch_exit(w->c, -1), 128 + SIGSEGV);
}

/* }==================================================================== */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_type_spellings,
						setup_types, teardown_types),
		cmocka_unit_test(test_cxx_spellings),
		cmocka_unit_test(test_cxx_bases),
		cmocka_unit_test_setup_teardown(test_field_paths,
						setup_types, teardown_types),
		cmocka_unit_test_setup_teardown(test_bitfields,
						setup_types, teardown_types),
		cmocka_unit_test_setup_teardown(test_enumerators,
						setup_types, teardown_types),
		cmocka_unit_test_setup_teardown(test_layout_over_facts,
						setup_types, teardown_types),
		cmocka_unit_test(test_value_to_integer),
		cmocka_unit_test(test_return_instructions),
		cmocka_unit_test(test_fatal_signals),
		cmocka_unit_test(test_batch_flag),
		cmocka_unit_test(test_debugger_version),
		cmocka_unit_test(test_join_words),
		cmocka_unit_test(test_lldb_message_line),
		cmocka_unit_test(test_expression_kinds),
		cmocka_unit_test(test_gdb_spellings_of_lldb_names),
		cmocka_unit_test(test_abi_table),
		cmocka_unit_test_setup_teardown(test_breakpoints_follow_requests,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_user_deleted_breakpoints,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_hits_pair_by_cfa,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_returns_pair_by_sp,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_returns_pair_by_cfa_elsewhere,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_returns_resolved_late,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_entry_values,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_signals,
						setup_world, teardown_world),
		cmocka_unit_test_setup_teardown(test_batch_exit,
						setup_world, teardown_world),
	};
	return cmocka_run_group_tests_name("frontend", tests, NULL, NULL);
}
