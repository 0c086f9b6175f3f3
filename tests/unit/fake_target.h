/*
 * fake_target.h — an in-process debuggee for unit tests: a struct irs_target
 * whose read callback reads this very process (process_vm_readv on
 * getpid(), so an unmapped address is a fault error, not a crash), and
 * whose field/type_size/enumerator callbacks answer from tables the test
 * fills from offsetof and sizeof. Tests build IR in their own memory and
 * walk it as a debugger would walk a debuggee's.
 */
#ifndef FAKE_TARGET_H
#define FAKE_TARGET_H

#include <elf.h>
#include <stddef.h>
#include <string.h>

#include "irsnap.h"

struct fake_field {
	char *type, *path;
	struct irs_field_info info;
};

struct fake_type {
	char *name;
	uint64_t size;
};

struct fake_enumerator {
	char *type, *name;
	int64_t value;
};

/** A type of the facts mode (fake_facts_init): what a debugger reports. */
struct fake_tfacts {
	char *lookup;			/* name type_lookup knows, or NULL */
	struct irs_type_facts f;	/* f.stripped 0: itself */
	struct irs_member_facts *members;
	uint32_t nmembers;
	char **enames;			/* enumerators */
	int64_t *evalues;
};

/** Owns its tables and the memory it hands out. */
struct fake_target {
	struct irs_target target;	/* hand &target to the core */
	struct fake_field *fields;
	size_t nfields;
	struct fake_type *types;
	size_t ntypes;
	struct fake_enumerator *enums;
	size_t nenums;
	struct irs_memory *mem;		/* from fake_memory(), or NULL */
	uint64_t nreads;		/* read callback calls */
	struct fake_tfacts *tf;		/* facts mode: handle i + 1 */
	size_t ntf;
	uint64_t nlookups;		/* type_lookup calls */
};

/** A fake with empty tables; free with fake_target_deinit(). */
void fake_target_init(struct fake_target *ft);
void fake_target_deinit(struct fake_target *ft);

/** Adds type @p name of @p size bytes. */
void fake_type(struct fake_target *ft, const char *name, uint64_t size);
/**
 * Adds member @p path of struct @p type: @p kind is an enum irs_type_kind;
 * @p type_name the member's C type ("Instr *"), @p target_name the pointee
 * or element type ("Instr"), @p count the array length (0 otherwise).
 */
void fake_field(struct fake_target *ft, const char *type, const char *path,
		uint64_t offset, uint64_t size, uint32_t kind,
		const char *type_name, const char *target_name,
		uint64_t count);
/** Adds a bitfield: storage unit at @p offset of @p size bytes, bits
 *  [bit_offset, bit_offset + bit_size) of it. */
void fake_bitfield(struct fake_target *ft, const char *type,
		   const char *path, uint64_t offset, uint64_t size,
		   uint32_t bit_offset, uint32_t bit_size, uint32_t kind);
/** Adds global variable @p name at @p address, its type described as
 *  fake_field() describes a member's. */
void fake_global(struct fake_target *ft, const char *name, uint64_t address,
		 uint64_t size, uint32_t kind, const char *type_name,
		 const char *target_name, uint64_t count);
/** Adds ELF symbol @p name at @p address (the target's elf_symbol). */
void fake_elf_symbol(struct fake_target *ft, const char *name,
		     uint64_t address);
/** Adds enumerator @p name = @p value of enum @p type (in order). */
void fake_enumerator(struct fake_target *ft, const char *type,
		     const char *name, int64_t value);
/** The memory over the fake (made once, then the same; cached pages are
 *  dropped, since tests change their structures between walks). */
struct irs_memory *fake_memory(struct fake_target *ft);

/**
 * Facts mode: the target answers with type facts (type_lookup, type_facts,
 * type_member, type_enumerator, type_derive) as the front ends do, not
 * with fields by path; the core (console/frontend.c) does the rest.
 */
void fake_facts_init(struct fake_target *ft);
/** Adds a type: @p lookup is the name type_lookup finds it by (NULL: only
 *  reachable through another type), @p name its spelling, @p stripped and
 *  @p target handles (0: none). Returns its handle. */
uint64_t fake_facts_type(struct fake_target *ft, const char *lookup,
			 const char *name, uint32_t kind, uint64_t size,
			 uint64_t stripped, uint64_t target, uint64_t count);
/** Adds a member to struct or union @p type (a handle). */
void fake_facts_member(struct fake_target *ft, uint64_t type,
		       const char *name, uint64_t bit_offset,
		       uint32_t bit_size, uint64_t member_type);
/** Adds an enumerator to enum @p type (a handle). */
void fake_facts_enumerator(struct fake_target *ft, uint64_t type,
			   const char *name, int64_t value);

/** Finds the first set bit and the width of a bitfield in @p n bytes. */
void fake_bits(const unsigned char *ones_first, const unsigned char *all,
	       size_t n, uint32_t *first, uint32_t *width);

#define FAKE_SIZEOF_MEMBER(T, m) sizeof(((T *)0)->m)

/** struct T itself (its C name must be T, e.g. a typedef). */
#define FAKE_TYPE(ft, T) fake_type((ft), #T, sizeof(T))
/** Member m of T (m may be a path: u.def) of kind K, C type name N. */
#define FAKE_MEMBER(ft, T, m, K, N, target) \
	fake_field((ft), #T, #m, offsetof(T, m), FAKE_SIZEOF_MEMBER(T, m), \
		   (K), (N), (target), 0)
#define FAKE_INT(ft, T, m) FAKE_MEMBER(ft, T, m, IRS_TYPE_INT, "int", "")
#define FAKE_UINT(ft, T, m) FAKE_MEMBER(ft, T, m, IRS_TYPE_UINT, "unsigned", "")
#define FAKE_FLOAT(ft, T, m) FAKE_MEMBER(ft, T, m, IRS_TYPE_FLOAT, "double", "")
#define FAKE_BOOL(ft, T, m) FAKE_MEMBER(ft, T, m, IRS_TYPE_BOOL, "_Bool", "")
#define FAKE_ENUM(ft, T, m, E) FAKE_MEMBER(ft, T, m, IRS_TYPE_ENUM, E, "")
#define FAKE_PTR(ft, T, m, target) \
	FAKE_MEMBER(ft, T, m, IRS_TYPE_POINTER, target " *", target)
#define FAKE_STRUCT(ft, T, m, N) FAKE_MEMBER(ft, T, m, IRS_TYPE_STRUCT, N, "")
/** An inline array member (char[N], Operand[4]). */
#define FAKE_ARRAY(ft, T, m, elem) \
	fake_field((ft), #T, #m, offsetof(T, m), FAKE_SIZEOF_MEMBER(T, m), \
		   IRS_TYPE_ARRAY, elem "[]", elem, \
		   FAKE_SIZEOF_MEMBER(T, m) / FAKE_SIZEOF_MEMBER(T, m[0]))
/** A bitfield member: its bits found at run time by setting it. */
#define FAKE_BITFIELD(ft, T, m, K) do { \
	T one_, all_; \
	uint32_t first_, width_; \
	memset(&one_, 0, sizeof(T)); \
	memset(&all_, 0, sizeof(T)); \
	one_.m = 1; \
	all_.m = 0; \
	all_.m--; \
	fake_bits((const unsigned char *)&one_, \
		  (const unsigned char *)&all_, sizeof(T), &first_, &width_); \
	fake_bitfield((ft), #T, #m, first_ / 32 * 4, 4, first_ % 32, \
		      width_, (K)); \
} while (0)

/**
 * The ELF header of a little-endian x86-64 core file whose @p phnum
 * program headers follow it: what the core-file tests and the fuzz seed
 * generator write before their notes and segments.
 */
void fake_core_ehdr(Elf64_Ehdr *eh, Elf64_Half phnum);

#endif
