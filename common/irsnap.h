/*
 * irsnap.h — the public API of libirsnap, the core the GDB and LLDB front
 * ends load, and the map of its design. gdb/, lldb/ and the `irsnap` CLI
 * include this header; the CLI also includes tools/tools.h, the batch
 * tools (reduce, replay, report, validate, diff) that are linked into it
 * and never into libirsnap.so.
 *
 * The areas, one folder of common/ each, bottom to top; each header says
 * what its area owns and what it may use, and no area includes one above
 * it (scripts/check-layers checks that in CI):
 *
 *   libirsnap.so (loaded by GDB and LLDB)
 *     util/     buffers, atomic files, JSON output, number formatting,
 *               shell words, errors (error.c)
 *     mem/      memory readers (live pid, ELF core, front-end callback)
 *               behind one page cache
 *     layout/   the Lua sandbox and a layout's compilation to a C schema
 *     walk/     the walk over debuggee memory: text and JSON graph
 *     run/      session, run directory, manifest, snapshot files,
 *               verifiers, failure reports
 *     console/  the ir-* commands both front ends forward their input to,
 *               and the debuggee events they report (boundaries, signals)
 *   the irsnap CLI only
 *     launch/   running GDB or LLDB in batch mode with irsnap loaded
 *     reduce/   the reducer (units, def-use, parallel test runner)
 *     tools/    replay, report, validate (JSON Schema), text diff
 *     cli/      one cmd_<name>.c per subcommand
 *
 * What happens at a pass boundary, in order (console/trace.c drives it):
 *   1. stop      the front end's breakpoint on a boundary function fires;
 *                it calls irs_console_boundary_enter() (or _exit() at the
 *                matching return)
 *   2. boundary  the console matches the pass against ir-trace/ir-break,
 *                reads the pass name and IR root through the target (or,
 *                once it has learned where they live, console/framevar.c
 *                reads them from the registers and memory)
 *   3. walk      walk/ reads the IR through mem/'s page cache, following
 *                the compiled layout, rendering text and the JSON graph
 *   4. snapshot  run/snapshot.c writes both atomically (or copies the
 *                previous pair when the bytes read are unchanged)
 *   5. event     run/events.c appends the event (CPU time, hash, sizes)
 *                to events.jsonl in one write; run/manifest.c rewrites
 *                manifest.json at the start, the end and every few
 *                seconds, never per event
 *   6. verifier  run/verify.c runs the layout's Lua verifiers; the front
 *                end runs `call` verifiers and reports them back
 *   7. failure   on a fatal signal, irs_console_signal() writes
 *                failure.json: signal, backtrace, last before-snapshot,
 *                crash snapshot, the ready reduce command
 *   8. reduce    later and offline, `irsnap reduce RUN` (reduce/) shrinks
 *                the failing pass's input to a reproducer
 *
 * Sections below come in dependency order: errors, target, memory,
 * layouts, snapshots, session, console. Conventions, once for the file:
 *  - A fallible function returns struct irs_error * : NULL is success,
 *    otherwise an error the caller owns and frees with irs_error_destroy().
 *    Out-of-memory returns &irs_enomem, which allocates nothing.
 *  - Results go through a trailing `ret` pointer written only on success.
 *  - Strings and buffers the library hands out are freed with irs_free();
 *    Python and C++ callers never use their own free().
 *  - _create/_destroy pairs: destroy accepts NULL.
 *  - Only fixed-width integers, bool, size_t, const char * and opaque
 *    pointers cross this boundary, so ctypes can bind every function.
 *  - Nothing here calls exit(), abort() or assert() on input it did not
 *    create: the user's debugger session survives whatever irsnap is fed.
 */
#ifndef IRSNAP_H
#define IRSNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(IRS_BUILDING_LIB)
#define IRS_API __attribute__((visibility("default")))
#else
#define IRS_API
#endif

#define IRS_VERSION "0.1.0"

/* ==== Errors ============================================================ */

enum irs_error_code {
	IRS_ERROR_NOMEM = 1,	/* out of memory (&irs_enomem) */
	IRS_ERROR_USAGE,	/* bad argument or option from the user */
	IRS_ERROR_LAYOUT,	/* bad layout script: message is FILE:LINE: ... */
	IRS_ERROR_FAULT,	/* debuggee memory unreadable; see address */
	IRS_ERROR_TARGET,	/* the debugger refused: bad expression, no symbol */
	IRS_ERROR_STATE,	/* illegal call for the current state */
	IRS_ERROR_IO,		/* a file could not be read or written */
	IRS_ERROR_FORMAT,	/* an input file is malformed (JSON, ELF, IR) */
	IRS_ERROR_LIMIT,	/* a budget ran out (nodes, bytes, steps, memory) */
	IRS_ERROR_NOT_FOUND,	/* no such type, field, symbol, pass or file */
	IRS_ERROR_INTERRUPTED,	/* stopped by the user (SIGINT) */
};

struct irs_error {
	enum irs_error_code code;
	bool is_static;		/* &irs_enomem: never freed */
	uint64_t address;	/* IRS_ERROR_FAULT only */
	char *message;		/* one line, names what and where */
};

/** The static out-of-memory error; irs_error_destroy() ignores it. */
IRS_API extern struct irs_error irs_enomem;

/** New error with a printf-style message; &irs_enomem if that fails. */
IRS_API struct irs_error *irs_error_format(enum irs_error_code code,
					   const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** New IRS_ERROR_FAULT error for @p address. */
IRS_API struct irs_error *irs_error_fault(uint64_t address,
					  const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** New error from a plain message (for ctypes callers: no varargs). */
IRS_API struct irs_error *irs_error_create(enum irs_error_code code,
					   const char *message);
/** New IRS_ERROR_FAULT error for @p address from a plain message. */
IRS_API struct irs_error *irs_error_create_fault(uint64_t address,
						 const char *message);
/** Frees @p err; accepts NULL and &irs_enomem. */
IRS_API void irs_error_destroy(struct irs_error *err);
/** Accessors for bindings that cannot read the struct. */
IRS_API int irs_error_get_code(const struct irs_error *err);
IRS_API const char *irs_error_get_message(const struct irs_error *err);
/**
 * Prepends "@p prefix: " to err's message, in place, and returns err.
 * Used to add context ("layout toyc.lua", "snapshot 0003-cse") on the way up.
 */
IRS_API struct irs_error *irs_error_prefix(struct irs_error *err,
					   const char *prefix);

/** Frees memory the library handed out (strings, buffers). NULL is fine. */
IRS_API void irs_free(void *p);

/* ==== Target: what a front end tells the core ========================== */

/* Kinds of debug-info types, as the front end reports them. */
enum irs_type_kind {
	IRS_TYPE_OTHER = 0,
	IRS_TYPE_INT,		/* signed integer (and char) */
	IRS_TYPE_UINT,		/* unsigned integer */
	IRS_TYPE_BOOL,
	IRS_TYPE_FLOAT,
	IRS_TYPE_ENUM,
	IRS_TYPE_POINTER,	/* also references */
	IRS_TYPE_STRUCT,	/* struct or class */
	IRS_TYPE_UNION,
	IRS_TYPE_ARRAY,
};

/** What debug info says about a field (or about a whole type). */
struct irs_field_info {
	uint64_t offset;	/* bytes from the start of the outer struct */
	uint64_t size;		/* bytes; of the storage unit for bitfields */
	uint32_t bit_offset;	/* bits from offset; 0 unless a bitfield */
	uint32_t bit_size;	/* 0 unless a bitfield */
	uint32_t kind;		/* enum irs_type_kind of the field's type */
	uint32_t pad;
	uint64_t count;		/* element count for arrays, else 0 */
	char type_name[128];	/* e.g. "Instr *", "Opcode", "char [32]" */
	char target_name[128];	/* pointee / element type, e.g. "Instr" */
};

/** One stack frame, innermost first. */
struct irs_frame_info {
	uint64_t pc;
	char function[256];	/* "" when unknown */
	char file[512];		/* "" when unknown */
	uint32_t line;		/* 0 when unknown */
	uint32_t pad;
};

/**
 * Reads @p count bytes at @p address of the debuggee into @p buf.
 * Returns NULL on success; on failure an error the caller owns (usually from
 * irs_error_fault()); @p buf is then unspecified.
 * Callbacks must return normally: never throw (C++) or leave a Python
 * exception set. Every callback gets the target's @p arg first.
 */
typedef struct irs_error *(*irs_read_fn)(void *arg, uint64_t address,
					 void *buf, uint64_t count);
/** Evaluates a debuggee expression ("m", "pm->module", "$rdi") to a value. */
typedef struct irs_error *(*irs_eval_fn)(void *arg, const char *expr,
					 uint64_t *ret);
/** Size in bytes of the named type, from debug info. */
typedef struct irs_error *(*irs_type_size_fn)(void *arg, const char *type,
					      uint64_t *ret);
/**
 * Looks up @p path ("kind", "u.def", "link.next": dots go through nested
 * structs and unions) in struct @p type. The front end resolves the dots,
 * because nested types are often anonymous.
 */
typedef struct irs_error *(*irs_field_fn)(void *arg, const char *type,
					  const char *path,
					  struct irs_field_info *ret);
/**
 * The @p index-th enumerator of enum @p type: its name (NUL-terminated, cut
 * to @p len) and value. IRS_ERROR_NOT_FOUND past the last one. @p type may
 * be "T.path", the type of member path of struct T: how a layout names an
 * anonymous enum (`enum { ... } kind : 3`).
 */
typedef struct irs_error *(*irs_enumerator_fn)(void *arg, const char *type,
					       uint32_t index, char *name,
					       uint64_t len, int64_t *value);
/**
 * The global (or file-static) variable @p name of the debuggee: its address
 * and what debug info says of its type, as irs_field_fn says of a member
 * (offset 0). IRS_ERROR_NOT_FOUND when there is none. Reads only.
 */
typedef struct irs_error *(*irs_global_fn)(void *arg, const char *name,
					   uint64_t *address,
					   struct irs_field_info *ret);
/** The @p index-th frame of the current thread; IRS_ERROR_NOT_FOUND past the end. */
typedef struct irs_error *(*irs_frame_fn)(void *arg, uint32_t index,
					  struct irs_frame_info *ret);
/** Makes frame @p index current, so that eval() sees its locals. */
typedef struct irs_error *(*irs_select_frame_fn)(void *arg, uint32_t index);

/*
 * Facts. The callbacks above are the questions the layout and the console
 * ask; a front end answers them with the raw facts below instead, and the
 * core (console/frontend.c) does the rest once for both debuggers: type
 * spellings ("struct Block *", "char [32]"), dotted field paths through
 * anonymous members, bitfield storage units, every error text, a value's
 * integer, pairing boundary calls with their returns (by stack order on
 * x86-64, from the kernel's sp of the stopped thread; else by CFA), spotting
 * return instructions, the fatal-signal list. A test fake may still answer
 * field/type_size/enumerator/eval itself; the core uses those when set.
 */

/** A type as the debugger describes it. Types are named by handles, which
 *  the front end hands out and keeps valid until its next type_lookup. */
struct irs_type_facts {
	uint64_t size;		/* bytes; 0 for a type only declared */
	uint64_t count;		/* elements of an array, else 0 */
	uint64_t stripped;	/* handle of the type without its outer
				   typedefs (its own handle when none) */
	uint64_t target;	/* handle of the stripped type's pointee or
				   element (pointers, references, arrays),
				   else 0 */
	uint32_t kind;		/* enum irs_type_kind, typedefs stripped */
	uint32_t nmembers;	/* members of a struct or union, enumerators
				   of an enum (typedefs stripped) */
	bool complete;		/* false: declared, never defined */
	char name[128];		/* as GDB spells it: "struct Block *",
				   "char [32]", "union {...}" */
};

/** A member of a struct or union. */
struct irs_member_facts {
	uint64_t bit_offset;	/* from the start of the containing type */
	uint64_t type;		/* handle of its type */
	uint32_t bit_size;	/* 0 unless a bitfield */
	char name[128];		/* "" for an anonymous struct or union */
};

/** What an expression evaluated to. A reference is described as the
 *  value it refers to. */
struct irs_value_facts {
	uint64_t address;	/* where it lies, if has_address */
	uint64_t bits;		/* its value as an integer, if has_bits */
	uint32_t kind;		/* enum irs_type_kind, typedefs stripped */
	bool has_address;
	bool has_bits;
	bool is_function;
	char type_name[128];	/* its type, typedefs stripped */
	char why[256];		/* why it has no bits, when it has none */
};

/** The instructions of a function, as irs_disassemble_fn reports them. */
struct irs_insns;

/** The type spelled exactly @p name in the debugger's own lookup (no
 *  pointers or arrays: the core builds those); IRS_ERROR_NOT_FOUND if none.
 *  Starts a new set of handles. */
typedef struct irs_error *(*irs_type_lookup_fn)(void *arg, const char *name,
						uint64_t *ret);
/** A pointer to @p type, or with @p array an array of @p count of them. */
typedef struct irs_error *(*irs_type_derive_fn)(void *arg, uint64_t type,
						bool array, uint64_t count,
						uint64_t *ret);
typedef struct irs_error *(*irs_type_facts_fn)(void *arg, uint64_t type,
					       struct irs_type_facts *ret);
/** The @p index-th member of struct or union @p type (typedefs stripped). */
typedef struct irs_error *(*irs_type_member_fn)(void *arg, uint64_t type,
						uint32_t index,
						struct irs_member_facts *ret);
/** The @p index-th enumerator of enum @p type (typedefs stripped): its name
 *  (NUL-terminated, cut to @p len) and value. */
typedef struct irs_error *(*irs_type_enumerator_fn)(void *arg, uint64_t type,
						    uint32_t index, char *name,
						    uint64_t len,
						    int64_t *value);
/**
 * Evaluates debuggee expression @p expr in the current frame. With @p calls
 * false it must not call into the debuggee or change it (GDB: with
 * may-call-functions off; LLDB: without JIT); with @p calls true it may
 * call functions, and a call that faults must be unwound, never leave the
 * debuggee stopped inside it.
 */
typedef struct irs_error *(*irs_eval_value_fn)(void *arg, const char *expr,
					       bool calls,
					       struct irs_value_facts *ret);
/** The canonical frame address of the frame eval() uses (frame 0 at a
 *  breakpoint): the same at a function's entry and at its returns. */
typedef struct irs_error *(*irs_cfa_fn)(void *arg, uint64_t *ret);
/** The @p index-th argument of the frame eval() uses: its name and value;
 *  IRS_ERROR_NOT_FOUND past the last. */
typedef struct irs_error *(*irs_arg_value_fn)(void *arg, uint32_t index,
					      char *name, uint64_t len,
					      struct irs_value_facts *ret);
/** The signal the debuggee is stopped by (a core file's: the one that
 *  killed it); *signo 0 when none. @p name gets its name ("SIGSEGV"). */
typedef struct irs_error *(*irs_stop_signal_fn)(void *arg, int32_t *signo,
						char *name, uint64_t len);
/** The system id of the thread the debuggee is stopped on (Linux: its
 *  LWP; the main thread's is the process's id), *tid 0 when unknown. */
typedef struct irs_error *(*irs_thread_fn)(void *arg, uint64_t *tid);
/** The debuggee's arguments as one shell-quoted string. */
typedef struct irs_error *(*irs_args_fn)(void *arg, char *buf, uint64_t len);
/** The path of the @p index-th file the debugger loaded for the debuggee
 *  (its program, its shared libraries) into @p buf; IRS_ERROR_NOT_FOUND
 *  past the last. On a core, only these are read for the pages the core
 *  left out, not whatever files the core names. */
typedef struct irs_error *(*irs_module_fn)(void *arg, uint32_t index,
					   char *buf, uint64_t len);
/**
 * Reports every instruction of @p function through irs_insns_add(@p sink,
 * at, text): `at` is what the front end needs to break on it from the
 * next set_break calls (GDB: the offset from the function's start, which
 * survives relocation; LLDB: an index into this disassembly), `text` the
 * mnemonic and operands. IRS_ERROR_NOT_FOUND while the function is not
 * known (a library not loaded yet).
 */
typedef struct irs_error *(*irs_disassemble_fn)(void *arg,
						const char *function,
						struct irs_insns *sink);
/** The global (or file-static) variable @p name, from the symbols (live or
 *  core): its address and the handle of its type (a new set of handles, as
 *  type_lookup starts); IRS_ERROR_NOT_FOUND when there is none. */
typedef struct irs_error *(*irs_symbol_fn)(void *arg, const char *name,
					   uint64_t *address, uint64_t *type);
/** The address of the ELF symbol @p name (a function or an object, with
 *  or without debug info; its C++ name as the debugger demangles it, or
 *  its linkage name), live or in a core; IRS_ERROR_NOT_FOUND when there
 *  is none. What a layout's address { ... } keys ask (MLIR's TypeIDs).
 *  The core answers it (from the modules' ELF symbols); a front end
 *  leaves it NULL, and the core never reads it from a front end's
 *  target. */
typedef struct irs_error *(*irs_elf_symbol_fn)(void *arg, const char *name,
					       uint64_t *address);
/** The first @p count bytes at ELF symbol @p name as its module's file on
 *  disk holds them (what its code is where the debuggee's memory does
 *  not hold it: a core file leaves code out). Only position-independent
 *  bytes read the same as the loaded ones. Like elf_symbol, the core
 *  answers it and a front end leaves it NULL. */
typedef struct irs_error *(*irs_elf_bytes_fn)(void *arg, const char *name,
					      void *buf, uint64_t count);
/** Sets breakpoint @p id at the entry of @p function, or when !@p entry on
 *  its instruction @p at (from disassemble), or when @p function is NULL
 *  at the address @p at of this process (a return address). When it is
 *  hit, the front end calls irs_console_hit(c, id, ...) and stops only if
 *  told to. */
typedef struct irs_error *(*irs_set_break_fn)(void *arg, uint32_t id,
					      const char *function,
					      bool entry, uint64_t at);
typedef void (*irs_delete_break_fn)(void *arg, uint32_t id);
/** The file path of the @p index-th module (executable or library) the
 *  debugger has loaded, into @p path (cut to @p len); IRS_ERROR_NOT_FOUND
 *  past the last. The core reads their symbols itself. */
typedef struct irs_error *(*irs_module_fn)(void *arg, uint32_t index,
					   char *path, uint64_t len);
/** Loads the types of object file @p path (a type donor: DWARF only, its
 *  code and data at address 0) so that type_lookup finds them; its symbols
 *  must never answer symbol, disassemble or a breakpoint. Loading the same
 *  path again does nothing. */
typedef struct irs_error *(*irs_load_types_fn)(void *arg, const char *path);

/**
 * The questions the core asks a debugger. A front end fills this in and
 * keeps it alive as long as anything created from it. Any callback may be
 * NULL when the front end cannot answer (the core then says so by name).
 */
struct irs_target {
	void *arg;
	irs_read_fn read;		/* general path; may be slow */
	irs_eval_fn eval;
	irs_type_size_fn type_size;
	irs_field_fn field;
	irs_enumerator_fn enumerator;
	irs_frame_fn frame;
	irs_select_frame_fn select_frame;
	int64_t pid;			/* live, stopped debuggee; 0 if none */
	const char *core_path;		/* core file being examined, or NULL */
	const char *exe_path;		/* the debuggee's executable, or NULL */
	/* facts (see above) */
	irs_type_lookup_fn type_lookup;
	irs_type_derive_fn type_derive;
	irs_type_facts_fn type_facts;
	irs_type_member_fn type_member;
	irs_type_enumerator_fn type_enumerator;
	irs_eval_value_fn eval_value;
	irs_cfa_fn cfa;
	irs_arg_value_fn arg_value;
	irs_stop_signal_fn stop_signal;
	irs_args_fn args;
	irs_disassemble_fn disassemble;
	irs_set_break_fn set_break;
	irs_delete_break_fn delete_break;
	irs_global_fn global;		/* a question, like field */
	irs_symbol_fn symbol;		/* its fact */
	irs_module_fn module;		/* the files the debugger loaded */
	irs_load_types_fn load_types;
	irs_elf_symbol_fn elf_symbol;	/* front ends leave it NULL: the
					   core reads the modules' ELF files */
	irs_thread_fn thread;		/* NULL: threads are not told apart */
	irs_elf_bytes_fn elf_bytes;	/* front ends leave it NULL, as
					   elf_symbol */
};

/* ==== Memory: page cache over live process, core file or target ======= */

struct irs_memory;

/** Reads through @p t->read. */
IRS_API struct irs_error *irs_memory_create_target(const struct irs_target *t,
						   struct irs_memory **ret);
/** Reads a stopped live process directly (process_vm_readv, /proc/PID/mem). */
IRS_API struct irs_error *irs_memory_create_pid(int64_t pid,
						struct irs_memory **ret);
/**
 * Reads an ELF core file directly: PT_LOAD segments, and for pages the core
 * left out, the files named in its NT_FILE note, each read only from one of
 * @p files (NULL-terminated; NULL: none), the program and libraries the
 * user named or the debugger loaded, that is the file the process mapped
 * (its build ID, or its path when the core kept no build ID); a core is
 * untrusted. Errors name the file.
 */
IRS_API struct irs_error *irs_memory_create_core(const char *core_path,
						 const char *const *files,
						 struct irs_memory **ret);
/** A sentence for the user about what @p mem cannot read (a core whose
 *  program was rebuilt since), or NULL; borrowed, valid while @p mem is. */
IRS_API const char *irs_memory_notice(const struct irs_memory *mem);
/**
 * Picks the fastest reader @p t allows: pid if live, else core file (its
 * mapped files read from t->exe_path and what t->module lists), else the
 * target's read callback.
 */
IRS_API struct irs_error *irs_memory_create_best(const struct irs_target *t,
						 struct irs_memory **ret);
IRS_API void irs_memory_destroy(struct irs_memory *mem);
/** Reads @p count bytes; a fault error names the first unreadable address. */
IRS_API struct irs_error *irs_memory_read(struct irs_memory *mem,
					  uint64_t address, void *buf,
					  uint64_t count);
/** Drops cached pages; call whenever the debuggee has run. */
IRS_API void irs_memory_invalidate(struct irs_memory *mem);

/* ==== Layouts =========================================================== */

struct irs_layout;

/**
 * Loads and compiles the Lua layout at @p path, resolving offsets and sizes
 * through @p t (which must outlive the layout). Errors are IRS_ERROR_LAYOUT
 * with a "FILE:LINE: message" text.
 * On success *ret is the caller's; free it with irs_layout_destroy().
 */
IRS_API struct irs_error *irs_layout_load(const char *path,
					  const struct irs_target *t,
					  struct irs_layout **ret);
/** The same from Lua source text (never bytecode); @p chunkname names it. */
IRS_API struct irs_error *irs_layout_create(const char *src, size_t len,
					    const char *chunkname,
					    const struct irs_target *t,
					    struct irs_layout **ret);
IRS_API void irs_layout_destroy(struct irs_layout *lo);
/** The layout's name (layout{ name = ... }); borrowed. */
IRS_API const char *irs_layout_name(const struct irs_layout *lo);
/** The default root type; borrowed. */
IRS_API const char *irs_layout_root_type(const struct irs_layout *lo);
/**
 * Human-readable description for `ir-layout show`: types with resolved sizes
 * and offsets, boundaries, verifiers. *ret is freed with irs_free().
 */
IRS_API struct irs_error *irs_layout_describe(const struct irs_layout *lo,
					      char **ret);
/** Number of types; irs_layout_type_name(lo, i) borrows each name. */
IRS_API uint32_t irs_layout_ntypes(const struct irs_layout *lo);
IRS_API const char *irs_layout_type_name(const struct irs_layout *lo,
					 uint32_t i);

/** A pass boundary, as the front end needs it to set breakpoints. */
enum { IRS_BOUNDARY_MAX_IR = 8 };	/* names in a boundary's ir = {...} */

struct irs_boundary_info {
	const char *function;	/* where to break, e.g. "pm_run_pass" */
	const char *pass_expr;	/* expression giving the pass name
				   ("pass->name"), or NULL: the name is
				   pass_name */
	const char *pass_name;	/* fixed name (functions = {...}), or NULL */
	const char *instance_expr; /* expression telling apart runs of one
				   pass on different units: a C string (the
				   function's name, "fn->name") names the
				   pass "NAME@LABEL", an integer (LuaJIT's
				   "J->cur.traceno") "NAME#N"; or NULL */
	const char *ir_expr;	/* expression giving the IR root ("m") */
	const char *ir_type;	/* layout type of the IR root */
	/* ir = { "fn", "f" }: the first that names a parameter of the
	   frame is the IR root (ir_expr is ir_exprs[0]) */
	uint32_t nir;
	const char *ir_exprs[IRS_BOUNDARY_MAX_IR];
	/* functions = { match = RE }: every function of the debuggee's
	   modules whose name (demangled) RE (POSIX extended) finds; then
	   function is NULL until the console picks one, and the pass is
	   named by RE's first group, else the function's name */
	const char *match;
	bool sret;		/* sret = true: the result comes back through a
				   hidden pointer, so $argN counts from the
				   register after it (x86-64) */
	bool after_caller;	/* after = "caller": the after snapshot at the
				   return address, not the return
				   instructions (no debug info needed, and
				   tail calls return there too) */
	const char *pass_len_expr; /* pass = { data = E, len = L }: the name
				   is L bytes at E (a StringRef); pass_expr
				   is E */
	/* rerun_pass = { data = E, len = L, anchor = { data = E2, len =
	   L2 }, top = S }: what a rerun template's {pass} becomes, the
	   pass as the compiler's pipeline option names it, nested under
	   the name of the unit it ran on, "ANCHOR(PASS)" (MLIR:
	   "builtin.func(cse)"), or bare on the top unit S or without an
	   anchor. All NULL: {pass} is the pass's name. */
	const char *rerun_pass_expr, *rerun_pass_len_expr;
	const char *rerun_anchor_expr, *rerun_anchor_len_expr;
	const char *rerun_top;
	uint32_t index;		/* its place among the layout's */
};
IRS_API uint32_t irs_layout_nboundaries(const struct irs_layout *lo);
/** Fills @p ret with strings borrowed from @p lo. */
IRS_API struct irs_error *irs_layout_boundary(const struct irs_layout *lo,
					      uint32_t i,
					      struct irs_boundary_info *ret);

/** A verifier the layout declares. */
struct irs_verifier_info {
	const char *name;
	const char *call;	/* debuggee expression for an in-process
				   verifier ("toyc_verify({ir}, 0)": {ir}
				   becomes "(T *)0xADDR"), or NULL
				   for a Lua verifier */
	int64_t ok_value;	/* value of `call` meaning "no problems" */
	const char *rerun;	/* the same check run offline on a file, a
				   template as irs_layout_rerun()'s
				   ("{exe} {flags} --verify --passes={pass}
				   {input}"), or NULL */
	const char *problem;	/* extended regex of a line of rerun's
				   output reporting a problem; its first
				   group names the check; or NULL */
	const char *broken;	/* extended regex of the line saying the
				   pass's output (not its input) is broken,
				   or NULL */
};
IRS_API uint32_t irs_layout_nverifiers(const struct irs_layout *lo);
IRS_API struct irs_error *irs_layout_verifier(const struct irs_layout *lo,
					      uint32_t i,
					      struct irs_verifier_info *ret);
/**
 * Command template that re-runs one pass on a snapshot file
 * ("{exe} {flags} --passes={pass} {input}"), or NULL; borrowed.
 */
IRS_API const char *irs_layout_rerun(const struct irs_layout *lo);
/**
 * Whether the reducer shrinks the program the compiler was given (its first
 * non-option argument, reduce { input = "program" }: LuaJIT compiles
 * traces from a Lua program and reads no IR text) rather than the failing
 * pass's before snapshot.
 */
IRS_API bool irs_layout_reduces_program(const struct irs_layout *lo);

/* ==== Snapshots: walk the IR, write text and JSON ===================== */

/** Bounds on one walk; 0 in a field means the default. */
struct irs_limits {
	uint64_t max_nodes;	/* default 50,000,000; a walk also runs at
				   most 256 template steps per node */
	uint64_t max_bytes;	/* debuggee bytes read; default 4 GiB */
	uint32_t max_depth;	/* default 10,000 */
	uint32_t max_string;	/* longest string read; default 64 KiB */
	uint64_t max_text;	/* text (and JSON) written; default 16 GiB */
};

/** What a walk saw. */
struct irs_snapshot_stats {
	uint64_t nodes;		/* distinct nodes visited */
	uint64_t bytes;		/* debuggee bytes read */
	uint64_t text_bytes;	/* bytes of text rendered (and written, when
				   a text file was asked for) */
	uint64_t text_lines;	/* ... and its lines */
	uint64_t json_bytes;	/* bytes of JSON written */
	uint32_t nerrors;	/* walk errors recorded */
	bool truncated;		/* a limit stopped the walk */
	char hash[17];		/* xxh64 of the text, 16 hex digits */
};

struct irs_snapshot;

/**
 * Walks the IR rooted at @p root as layout type @p type (NULL: the layout's
 * root type), reading through @p mem, and writes the text rendering to
 * @p text_path and the JSON graph (schema irsnap.snapshot/1) to @p json_path;
 * either path may be NULL to skip it. Files are written atomically
 * (temporary file, then rename).
 * Walk errors (unreadable pointer, cycle, absurd count, a limit) do not fail
 * the call: they are recorded in the snapshot and the walk goes on.
 * The call fails only when nothing useful can be written (bad type, root
 * unreadable, I/O error); then no file is left behind.
 * On success *ret is the caller's; free it with irs_snapshot_destroy().
 */
IRS_API struct irs_error *irs_snapshot_write(const struct irs_layout *lo,
					     struct irs_memory *mem,
					     uint64_t root, const char *type,
					     const struct irs_limits *limits,
					     const char *text_path,
					     const char *json_path,
					     struct irs_snapshot **ret);
/** The same, returning the text in *text_ret (freed with irs_free()). */
IRS_API struct irs_error *irs_snapshot_text(const struct irs_layout *lo,
					    struct irs_memory *mem,
					    uint64_t root, const char *type,
					    const struct irs_limits *limits,
					    char **text_ret,
					    struct irs_snapshot **ret);
IRS_API void irs_snapshot_destroy(struct irs_snapshot *snap);
IRS_API void irs_snapshot_get_stats(const struct irs_snapshot *snap,
				    struct irs_snapshot_stats *ret);
/** The i-th walk error, "TYPE at 0xADDR, field F: message"; borrowed. */
IRS_API const char *irs_snapshot_error(const struct irs_snapshot *snap,
				       uint32_t i);

/**
 * Runs the layout's Lua verifiers over the IR at @p root. *problems_ret gets
 * one problem per line ("" when none), freed with irs_free(); *count_ret the
 * number of problems.
 */
IRS_API struct irs_error *irs_layout_verify(const struct irs_layout *lo,
					    struct irs_memory *mem,
					    uint64_t root, const char *type,
					    char **problems_ret,
					    uint32_t *count_ret);

/* ==== Session: run directory, pass events, failure reports ============ */

struct irs_session;

/** Where a session writes and what it records about its world. */
struct irs_session_config {
	const char *dir;	/* output root; NULL: $IRSNAP_DIR or ./irsnap-out */
	const char *debugger;	/* "gdb 13.1", "lldb 14.0.6" */
	const char *debuggee;	/* executable path */
	const char *args;	/* debuggee arguments, one string, or NULL */
	int64_t pid;		/* debuggee pid, or 0 */
	bool pid_is_history;	/* a core file's run: @p pid is the dead
				   process's, recorded, never read (/proc) */
	bool attached;		/* the debugger attached to a running
				   process (recorded in the manifest) */
	bool args_from_core;	/* @p args are what a core file says, not
				   what the user gave: no file they name is
				   read (reduce { input = "program" }) */
	const char *layout_path;
	bool write_text;	/* formats: .ir and/or .json snapshots
				   (both false: both) */
	bool write_json;
	bool changed_only;	/* skip an after snapshot equal to its before */
	struct irs_limits limits;
	bool failure_json;	/* with write_json off, still the JSON graph
				   of a failing pass's input (its before
				   snapshot, from the IR's bytes kept at
				   its entry) and of the crash */
};

/**
 * Creates a new run directory <dir>/<YYYYMMDD-HHMMSS-pid>/ (unique), points
 * <dir>/latest at it and writes the first manifest.json.
 * @p lo is borrowed and must outlive the session.
 * On success *ret is the caller's; free it with irs_session_destroy().
 */
IRS_API struct irs_error *irs_session_create(const struct irs_session_config *cfg,
					     const struct irs_layout *lo,
					     struct irs_session **ret);
IRS_API void irs_session_destroy(struct irs_session *s);
/** The run directory's path; borrowed. */
IRS_API const char *irs_session_dir(const struct irs_session *s);

/**
 * Records entry into pass @p pass: takes the before snapshot of the IR at
 * @p root, reads the debuggee's CPU time from /proc/PID/stat when live, and
 * rewrites the manifest. *seq_ret gets the event's sequence number (1, 2, ...).
 */
IRS_API struct irs_error *irs_session_pass_begin(struct irs_session *s,
						 struct irs_memory *mem,
						 const char *pass,
						 uint64_t root,
						 uint32_t *seq_ret);
/** The same, walking the root as layout type @p type (a boundary's
 *  `type = T`); NULL is the layout's root type. */
IRS_API struct irs_error *irs_session_pass_begin_as(struct irs_session *s,
						    struct irs_memory *mem,
						    const char *pass,
						    uint64_t root,
						    const char *type,
						    uint32_t *seq_ret);
/**
 * The pass the next irs_session_pass_begin*() records is the @p position-th
 * pass boundary call of the process (counting every pass, traced or not:
 * with `ir-trace on dce`, the first dce of the pipeline is position 4 but
 * seq 1); its before and after events carry it as "position".
 */
IRS_API void irs_session_set_position(struct irs_session *s,
				      uint32_t position);
/**
 * The pass the next irs_session_pass_begin*() records is instance
 * @p instance of it (a boundary's `instance = EXPR`: the function it runs
 * on, "main" of "ssa@main"), or NULL: its before and after events carry
 * it as "instance". @p instance is copied.
 */
IRS_API struct irs_error *irs_session_set_instance(struct irs_session *s,
						   const char *instance);
/**
 * The pass the next irs_session_pass_begin*() records is rerun as
 * @p rerun_pass (a boundary's rerun_pass: "builtin.func(cse)"), or NULL:
 * a failure in it fills the layout's rerun template's {pass} with that
 * instead of the pass's name. @p rerun_pass is copied.
 */
IRS_API struct irs_error *irs_session_set_rerun_pass(struct irs_session *s,
						     const char *rerun_pass);
/**
 * Records the return from the pass begun as @p seq: the after snapshot (or,
 * with changed_only, none when its hash equals the before one), the CPU time
 * spent, and rewrites the manifest.
 */
IRS_API struct irs_error *irs_session_pass_end(struct irs_session *s,
					       struct irs_memory *mem,
					       uint32_t seq);
/**
 * Attaches a verifier result to event @p seq: @p problems counts what was
 * wrong (0 = clean), @p output is its text (may be NULL).
 */
IRS_API struct irs_error *irs_session_verified(struct irs_session *s,
					       uint32_t seq,
					       const char *verifier,
					       uint32_t problems,
					       const char *output);

/** One verifier's run (or the reason it did not run), for the manifest. */
struct irs_verifier_result {
	const char *name;
	bool ran;		/* false: not run; @p reason says why */
	uint32_t problems;	/* what it found, 0 = clean (0 when !ran) */
	const char *output;	/* Lua: its problems, one a line; call: what
				   the call printed on stdout and stderr;
				   NULL when none */
	const char *reason;	/* why it did not run, or NULL */
	const char *call;	/* call verifiers: the expression called */
	bool has_value;		/* call verifiers that ran: what it returned */
	int64_t value;
	bool none;		/* verification was asked for and the layout
				   declares no verifier: status "none" */
};
/**
 * Attaches @p r to event @p seq as
 * {name, status ("ok", "failed", "not run" or "none"), problems, output,
 * ...}.
 */
IRS_API struct irs_error *irs_session_verifier_result(
	struct irs_session *s, uint32_t seq,
	const struct irs_verifier_result *r);

/** What went wrong, for failure.json. */
struct irs_failure_info {
	const char *kind;	/* "signal" or "verifier" */
	int32_t signo;		/* 0 for a verifier failure */
	const char *signame;	/* "SIGSEGV", or NULL */
	const char *pass;	/* NULL: the pass of the open event, if any */
	const char *rerun_pass;	/* the rerun's {pass} (the boundary's
				   rerun_pass), or NULL: the open event's,
				   else the pass's name; "": unknown, no
				   reduce command */
	const char *message;	/* verifier output or extra detail, or NULL */
	const char *verifier;	/* kind "verifier": the layout's verifier
				   that failed (its offline rerun makes the
				   reduce command), or NULL */
	uint32_t problems;	/* ... and how many problems it found */
	uint64_t ir_root;	/* IR at the crash for a best-effort
				   snapshot, or 0 */
};
/**
 * Writes failure.json: the failure, the pass and its sequence number, the
 * backtrace (through @p t->frame), the last before snapshot, a best-effort
 * snapshot of the IR at @p info->ir_root (walk errors recorded) and a ready
 * reduce command. Rewrites the manifest.
 */
IRS_API struct irs_error *irs_session_failure(struct irs_session *s,
					      const struct irs_target *t,
					      struct irs_memory *mem,
					      const struct irs_failure_info *info);
/**
 * Closes the run: the debuggee exited with @p exit_status. The manifest
 * gets status "completed" (or stays "failed") and the exit status.
 * Without this call a run stays "running", as if the debugger was killed.
 */
IRS_API struct irs_error *irs_session_finish(struct irs_session *s,
					     int32_t exit_status);
/**
 * Closes a run the program goes on past: the trace stopped because of
 * @p why ("a layout was loaded (ir-layout load)"). A run still "running"
 * gets status "stopped" and "stopped_by": @p why; a finished or failed one
 * is left as it is. Call before irs_session_destroy() when the program has
 * not exited.
 */
IRS_API struct irs_error *irs_session_stop(struct irs_session *s,
					   const char *why);
/** A few lines for `ir-status`; *ret freed with irs_free(). */
IRS_API struct irs_error *irs_session_status(const struct irs_session *s,
					     char **ret);

/** The debuggee's user+system CPU time in seconds: the kernel's process
 *  CPU clock (nanoseconds), else /proc/PID/stat (clock ticks). */
IRS_API struct irs_error *irs_proc_cpu_time(int64_t pid, double *ret);

/* ==== Console: the ir-* commands, shared by the GDB and LLDB front ends == */

/*
 * The console holds one debugger session's irsnap state (layout, settings,
 * run directory, open pass events) and implements every ir-* command, so
 * that both front ends have the same commands, options, output and errors.
 * A front end registers the commands, forwards their argument strings here,
 * prints what comes back, and reports debuggee events (boundary entry and
 * return, fatal signal, exit). The console reads the target's fields (pid,
 * core_path, exe_path) afresh at every call, so a front end just updates
 * them when the process changes, and it drops cached memory at every call,
 * since the debuggee may have run.
 */
struct irs_console;

/** @p t is borrowed and must outlive the console. *ret freed with
 *  irs_console_destroy(). */
IRS_API struct irs_error *irs_console_create(const struct irs_target *t,
					     struct irs_console **ret);
IRS_API void irs_console_destroy(struct irs_console *c);

/**
 * Runs ir-* command @p name ("ir-layout", "ir-dump", "ir-break",
 * "ir-trace", "ir-verify", "ir-report", "ir-status", "ir-set") with the
 * argument string @p args (shell-like quoting). *out_ret gets the text to
 * print (possibly ""), freed with irs_free(). A user error comes back as an
 * error whose message is the one line to show.
 */
IRS_API struct irs_error *irs_console_command(struct irs_console *c,
					      const char *name,
					      const char *args,
					      char **out_ret);
/**
 * The exit status a debugger in batch mode ends with, the same in GDB and
 * LLDB: 128 + N when the traced (or broken-on) program died of fatal signal
 * N, as a shell reports it; else 1 when an ir-* command failed in this
 * session; else 0 (the debugger's own status stands).
 */
IRS_API int32_t irs_console_exit_status(const struct irs_console *c);
/**
 * At a batch debugger's exit, the status it must end with instead of its
 * own @p debugger_status (-1: one that is already 1 after a failed
 * command, as `lldb -b`'s), or 0 when its own stands: 128 + N always, a
 * failed command's 1 only over a 0. When not 0, the C streams (the
 * debugger's own buffered output) are flushed first, for a front end that
 * then ends the process with _exit() before the debugger's exit handlers
 * rewrite the status.
 */
IRS_API int32_t irs_console_batch_exit(const struct irs_console *c,
				       int32_t debugger_status);
/** Help text of command @p name, with an example; borrowed; NULL if unknown. */
IRS_API const char *irs_console_help(const char *name);
/** Part @p part of that help, for debuggers that take it in pieces:
 *  "brief" (the first line), "usage" (the Usage: lines, without the word)
 *  or "long" (the rest). Freed with irs_free(); NULL if unknown. */
IRS_API char *irs_console_help_part(const char *name, const char *part);
/** The command names, NULL-terminated; borrowed. */
IRS_API const char *const *irs_console_commands(void);
/**
 * Completion candidates for the last word @p word of command @p name's
 * arguments (options, layout types, pass names seen, files are left to the
 * debugger): newline-separated, freed with irs_free().
 */
IRS_API char *irs_console_complete(struct irs_console *c, const char *name,
				   const char *word);
/**
 * The same for the last word of @p args, command @p name's whole argument
 * string as typed so far (a trailing blank: a new word), in its context:
 * "-f " offers text/json/both, "ir-set format " the formats, "ir-trace on "
 * the passes seen, "-o " and "ir-layout load " the files (a directory's
 * with a '/'; hidden ones after a '.'), which a debugger's own completer
 * cannot, seeing the whole argument string rather than the last word.
 */
IRS_API char *irs_console_complete_args(struct irs_console *c,
					const char *name, const char *args);

/**
 * Settings: "dir", "max-nodes", "max-bytes", "max-depth", "format"
 * (text|json|both). irs_console_get() returns the value as text, freed with
 * irs_free(); irs_console_settings() names them, NULL-terminated.
 * Two more, not listed, are the front end's to fill for the manifest:
 * "debugger" ("gdb 13.1") and "args" (the debuggee's arguments).
 */
IRS_API struct irs_error *irs_console_set(struct irs_console *c,
					  const char *key, const char *value);
IRS_API struct irs_error *irs_console_get(const struct irs_console *c,
					  const char *key, char **ret);
IRS_API const char *const *irs_console_settings(void);
/** What setting @p key is, one phrase for a debugger's help ("the deepest
 *  nesting one snapshot follows"); borrowed; NULL for a key not listed. */
IRS_API const char *irs_console_setting_help(const char *key);
/**
 * The "call-timeout" setting: seconds a call verifier may run in the
 * debuggee (default 30; 0: no limit). The front end interrupts a call
 * that runs longer and unwinds it, so that a verifier that never returns
 * is reported as not run instead of hanging the debugger.
 */
IRS_API uint32_t irs_console_call_timeout(const struct irs_console *c);

/**
 * Functions the front end must break on, at entry, for the current ir-break
 * and ir-trace requests and the layout's boundaries. Changes after ir-break,
 * ir-trace and ir-layout; the front end re-reads it after each command.
 * Strings borrowed until the next command.
 */
IRS_API uint32_t irs_console_nbreaks(const struct irs_console *c);
/**
 * Whether a run directory is open: the front end must then report the
 * debuggee's exit (irs_console_exited()) even when nothing is broken on
 * any more (ir-trace off), or the run would say "running" for ever.
 */
IRS_API bool irs_console_run_open(const struct irs_console *c);
IRS_API const char *irs_console_break_function(const struct irs_console *c,
					       uint32_t i);

/**
 * The debuggee stopped at the entry of boundary function @p function, frame
 * 0 selected. The console evaluates the pass name and IR root through the
 * target, takes the before snapshot when tracing, and sets *stop_ret when
 * the user asked to stop here (ir-break). The front end must report the
 * matching return with irs_console_boundary_exit() (calls nest).
 * *out_ret gets text to print, freed with irs_free(). A snapshot that
 * cannot be taken (a full disk) is returned as the error, with *stop_ret
 * and *out_ret still set: print both, and stop if asked.
 */
IRS_API struct irs_error *irs_console_boundary_enter(struct irs_console *c,
						     const char *function,
						     bool *stop_ret,
						     char **out_ret);
/** The innermost open boundary call returned: after snapshot, CPU time,
 *  verifiers (--verify); *stop_ret set for ir-break --after or a verifier
 *  failure under --stop-on-verify; errors as for the entry. */
IRS_API struct irs_error *irs_console_boundary_exit(struct irs_console *c,
						    bool *stop_ret,
						    char **out_ret);
/** The debuggee stopped on fatal signal @p signo: when tracing, writes
 *  failure.json (backtrace through the target). */
IRS_API struct irs_error *irs_console_signal(struct irs_console *c,
					     int32_t signo,
					     const char *signame,
					     char **out_ret);
/** The debuggee exited with @p status: closes the run (status completed).
 *  A negative @p status means killed, not exited: the run is closed but
 *  keeps its status ("running", or "failed"). */
IRS_API struct irs_error *irs_console_exited(struct irs_console *c,
					     int32_t status, char **out_ret);


/**
 * Breakpoints, for a front end that fills the target's set_break,
 * delete_break and disassemble: the console keeps them in step with
 * irs_console_break_function() itself after every command. When one is
 * hit, the front end reports its id here, frame 0 selected: the console
 * pairs returns with their entries (on a live x86-64 process by the
 * stopped thread's stack pointer, which it reads from
 * /proc/PID/task/TID/syscall with the thread() callback's id; else by
 * the cfa() callback's CFA; a return from a call entered
 * before tracing began is ignored; a return past calls that never
 * returned, a longjmp, closes them too), takes the snapshots and sets
 * *stop_ret when the user asked to stop. Output and errors as for
 * irs_console_boundary_enter().
 */
IRS_API struct irs_error *irs_console_hit(struct irs_console *c, uint32_t id,
					  bool *stop_ret, char **out_ret);
/** Deletes every breakpoint the console set (the front end switched to
 *  another debuggee); the next command sets them again. */
IRS_API void irs_console_forget_breaks(struct irs_console *c);
/**
 * The user deleted breakpoint @p id the console set (GDB's `delete`,
 * LLDB's `breakpoint delete`): the console forgets it, the next ir-break
 * or ir-trace sets its function's breakpoints again, and ir-status says
 * they are gone until then. Returns whether @p id was the console's.
 * What the console has to say about it waits for irs_console_note() (or
 * leads the next command's output): a front end prints it when the
 * debugger is done with its own line.
 */
IRS_API bool irs_console_break_deleted(struct irs_console *c, uint32_t id);
/** What the console has to say between commands, in whole lines (the
 *  breakpoints the user deleted), or "" when nothing; freed with
 *  irs_free(); NULL on OOM. Said once. */
IRS_API char *irs_console_note(struct irs_console *c);
/**
 * The debuggee stopped on signal @p signo (@p signame as the debugger
 * names it): the console decides whether it is fatal (*fatal_ret) and then
 * reports it as irs_console_signal() does. A signal while the console
 * itself is calling into the debuggee (a verifier) is the call's, not the
 * compiler's, and is ignored.
 */
IRS_API struct irs_error *irs_console_stop(struct irs_console *c,
					   int32_t signo, const char *signame,
					   bool *fatal_ret, char **out_ret);

/* ==== Front ends: what both debuggers' adapters share ================== */

/** Adds instruction @p text at @p at to @p sink (irs_disassemble_fn). */
IRS_API void irs_insns_add(struct irs_insns *sink, uint64_t at,
			   const char *text);
/** Whether instruction @p text ("ret", "retq", "repz ret") returns. */
IRS_API bool irs_frontend_is_return(const char *text);
/** Whether signal @p signo ends a compiler run: SIGSEGV, SIGBUS, SIGILL,
 *  SIGFPE, SIGABRT. */
IRS_API bool irs_frontend_fatal_signal(int32_t signo);
/**
 * The core file this process has open (mapped or as a file descriptor),
 * for a debugger whose API does not say which core it examines (LLDB 14):
 * only an ELF file of type ET_CORE counts. False when there is none.
 */
IRS_API bool irs_frontend_core_path(char *buf, size_t len);
/** Whether this debugger runs in batch mode: one of the blank-separated
 *  @p flags ("-b --batch") among its own arguments (/proc/self/cmdline),
 *  before a "--". */
IRS_API bool irs_frontend_batch_mode(const char *flags);
/** "@p name VERSION" into @p buf (cut to @p len), VERSION the word after
 *  "version " in the debugger's @p banner ("lldb version 14.0.6 (...)"),
 *  else its first word ("13.1"); the manifest's "debugger" setting. */
IRS_API void irs_frontend_debugger_version(const char *name,
					   const char *banner, char *buf,
					   size_t len);
/**
 * The program and its arguments a batch job left for the debugger in the
 * file $IRSNAP_LAUNCH_ARGV names, read once (the variable is then unset):
 * `irsnap replay` under LLDB, whose command line would run an argument's
 * line breaks as commands and evaluate its backquotes. The file's
 * NUL-terminated words, argv[0] the program, NULL-terminated; freed with
 * irs_frontend_words_free(). *ret NULL when the variable is not set.
 */
IRS_API struct irs_error *irs_frontend_launch_argv(char ***ret);
IRS_API void irs_frontend_words_free(char **words);
/** The NULL-terminated words @p argv joined by blanks, each quoted where
 *  the console's splitter would otherwise split it (blanks, quotes,
 *  backslashes), for a debugger that hands a command its words unquoted.
 *  Freed with irs_free(); NULL when memory ran out. */
IRS_API char *irs_frontend_join_words(const char *const *argv);
/** The line of an LLDB message @p msg worth showing: its first, without
 *  "error: " or clang's "<user expression N>:L:C: ", or after a heading
 *  ending in ':' ("expression failed to parse:") the first "error: " line
 *  below it. "" when there is none; freed with irs_free(); NULL on OOM. */
IRS_API char *irs_frontend_one_line(const char *msg);
/** What an expression is, for a debugger that answers the first two
 *  without compiling it. */
enum irs_expr_kind {
	IRS_EXPR_OTHER,		/* compile it: "a + 1", "f()", "*p" */
	IRS_EXPR_VARIABLE,	/* a path: "m", "pass->name", "a[2].x" */
	IRS_EXPR_REGISTER,	/* "$rsp" */
};
IRS_API enum irs_expr_kind irs_frontend_expr_kind(const char *expr);
/** LLDB's type @p name as GDB spells it, for a C program: a blank before
 *  an array's bounds ("char [32]"), "_Bool" for "bool" when @p c_bool, and
 *  the tag @p tag ("struct ", or NULL when the innermost pointee or
 *  element is a typedef or has no tag) that LLDB leaves out, inserted
 *  after the qualifiers ("const struct Block *"); an anonymous one becomes
 *  "union {...}". Freed with irs_free(); NULL on OOM. */
IRS_API char *irs_frontend_gdb_spelling(const char *name, const char *tag,
					bool c_bool);
/** The questions of struct irs_target answered from its facts. */
IRS_API struct irs_error *irs_frontend_type_size(const struct irs_target *t,
						 const char *type,
						 uint64_t *ret);
IRS_API struct irs_error *irs_frontend_field(const struct irs_target *t,
					     const char *type, const char *path,
					     struct irs_field_info *ret);
IRS_API struct irs_error *irs_frontend_enumerator(const struct irs_target *t,
						  const char *type,
						  uint32_t index, char *name,
						  uint64_t len, int64_t *value);
IRS_API struct irs_error *irs_frontend_global(const struct irs_target *t,
					      const char *name,
					      uint64_t *address,
					      struct irs_field_info *ret);
/** The integer a value stands for: a pointer's or integer's value, the
 *  address of an array, struct, union or function. */
IRS_API struct irs_error *irs_frontend_value(const struct irs_value_facts *v,
					     uint64_t *ret);

/** One field of a struct this header declares, for bindings that mirror
 *  the structs (gdb/irsnap.py's ctypes): field NULL for the whole struct. */
struct irs_abi_field {
	const char *type;	/* "irs_field_info" */
	const char *field;	/* "offset", or NULL */
	uint32_t offset;
	uint32_t size;
};
/** The table, ended by an entry whose type is NULL; static. */
IRS_API const struct irs_abi_field *irs_abi_layout(void);

#ifdef __cplusplus
}
#endif
#endif /* IRSNAP_H */
