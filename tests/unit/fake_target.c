// The in-process fake debuggee of fake_target.h.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fake_target.h"

static char *
xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		abort();	// a test helper: no memory, no test
	return p;
}

static void *
grow(void *p, size_t n, size_t size)
{
	// tables grow one entry at a time; tests are small
	void *q = realloc(p, (n + 1) * size);
	if (!q)
		abort();
	return q;
}

// Reads this process's memory without trusting the address.
static struct irs_error *
fake_read(void *arg, uint64_t address, void *buf, uint64_t count)
{
	struct fake_target *ft = arg;
	uint64_t done = 0;
	ft->nreads++;
	while (done < count) {
		struct iovec local = { (char *)buf + done, count - done };
		struct iovec remote = { (void *)(uintptr_t)(address + done),
					count - done };
		ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1,
					     0);
		if (n <= 0)
			return irs_error_fault(address + done, "cannot read "
					       "0x%llx",
					       (unsigned long long)(address +
								    done));
		done += (uint64_t)n;
	}
	return NULL;
}

static struct irs_error *
fake_type_size(void *arg, const char *type, uint64_t *ret)
{
	struct fake_target *ft = arg;
	for (size_t i = 0; i < ft->ntypes; i++)
		if (!strcmp(ft->types[i].name, type)) {
			*ret = ft->types[i].size;
			return NULL;
		}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "no type named '%s'",
				type);
}

static struct irs_error *
fake_field_cb(void *arg, const char *type, const char *path,
	      struct irs_field_info *ret)
{
	struct fake_target *ft = arg;
	for (size_t i = 0; i < ft->nfields; i++)
		if (!strcmp(ft->fields[i].type, type) &&
		    !strcmp(ft->fields[i].path, path)) {
			*ret = ft->fields[i].info;
			return NULL;
		}
	// a pointer type itself ("T *", an array's element), as debuggers
	// answer for a type and no member
	size_t n = strlen(type);
	if (!*path && n > 2 && !strcmp(type + n - 2, " *")) {
		memset(ret, 0, sizeof(*ret));
		ret->size = sizeof(void *);
		ret->kind = IRS_TYPE_POINTER;
		snprintf(ret->type_name, sizeof(ret->type_name), "%s", type);
		snprintf(ret->target_name, sizeof(ret->target_name), "%.*s",
			 (int)(n - 2), type);
		return NULL;
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "struct %s has no "
				"member '%s'", type, path);
}

static struct irs_error *
fake_enumerator_cb(void *arg, const char *type, uint32_t index, char *name,
		   uint64_t len, int64_t *value)
{
	struct fake_target *ft = arg;
	uint32_t k = 0;
	bool known = false;
	for (size_t i = 0; i < ft->nenums; i++) {
		if (strcmp(ft->enums[i].type, type))
			continue;
		known = true;
		if (k++ != index)
			continue;
		snprintf(name, len, "%s", ft->enums[i].name);
		*value = ft->enums[i].value;
		return NULL;
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND, known
				? "enum %s has no enumerator %u"
				: "no enum named '%s' (%u)", type, index);
}

// Globals are fields of the pseudo-type "<global>", at their address.
static struct irs_error *
fake_global_cb(void *arg, const char *name, uint64_t *address,
	       struct irs_field_info *ret)
{
	struct irs_error *err = fake_field_cb(arg, "<global>", name, ret);
	if (err) {
		irs_error_destroy(err);
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no symbol '%s'",
					name);
	}
	*address = ret->offset;
	ret->offset = 0;
	return NULL;
}

void
fake_global(struct fake_target *ft, const char *name, uint64_t address,
	    uint64_t size, uint32_t kind, const char *type_name,
	    const char *target_name, uint64_t count)
{
	fake_field(ft, "<global>", name, address, size, kind, type_name,
		   target_name, count);
}

// ELF symbols are fields of the pseudo-type "<elf>", at their address.
static struct irs_error *
fake_elf_symbol_cb(void *arg, const char *name, uint64_t *address)
{
	struct irs_field_info info;
	struct irs_error *err = fake_field_cb(arg, "<elf>", name, &info);
	if (err) {
		irs_error_destroy(err);
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no symbol '%s'",
					name);
	}
	*address = info.offset;
	return NULL;
}

void
fake_elf_symbol(struct fake_target *ft, const char *name, uint64_t address)
{
	fake_field(ft, "<elf>", name, address, 8, IRS_TYPE_OTHER, "", "", 0);
}

void
fake_target_init(struct fake_target *ft)
{
	memset(ft, 0, sizeof(*ft));
	ft->target.arg = ft;
	ft->target.read = fake_read;
	ft->target.type_size = fake_type_size;
	ft->target.field = fake_field_cb;
	ft->target.enumerator = fake_enumerator_cb;
	ft->target.global = fake_global_cb;
	ft->target.elf_symbol = fake_elf_symbol_cb;
}

void
fake_target_deinit(struct fake_target *ft)
{
	for (size_t i = 0; i < ft->nfields; i++) {
		free(ft->fields[i].type);
		free(ft->fields[i].path);
	}
	for (size_t i = 0; i < ft->ntypes; i++)
		free(ft->types[i].name);
	for (size_t i = 0; i < ft->nenums; i++) {
		free(ft->enums[i].type);
		free(ft->enums[i].name);
	}
	for (size_t i = 0; i < ft->ntf; i++) {
		free(ft->tf[i].lookup);
		free(ft->tf[i].members);
		for (uint32_t j = 0; j < ft->tf[i].f.nmembers &&
		     ft->tf[i].enames; j++)
			free(ft->tf[i].enames[j]);
		free(ft->tf[i].enames);
		free(ft->tf[i].evalues);
	}
	free(ft->tf);
	free(ft->fields);
	free(ft->types);
	free(ft->enums);
	irs_memory_destroy(ft->mem);
	memset(ft, 0, sizeof(*ft));
}

void
fake_type(struct fake_target *ft, const char *name, uint64_t size)
{
	ft->types = grow(ft->types, ft->ntypes, sizeof(*ft->types));
	ft->types[ft->ntypes++] = (struct fake_type){ xstrdup(name), size };
}

void
fake_field(struct fake_target *ft, const char *type, const char *path,
	   uint64_t offset, uint64_t size, uint32_t kind,
	   const char *type_name, const char *target_name, uint64_t count)
{
	ft->fields = grow(ft->fields, ft->nfields, sizeof(*ft->fields));
	struct fake_field *f = &ft->fields[ft->nfields++];
	memset(f, 0, sizeof(*f));
	f->type = xstrdup(type);
	f->path = xstrdup(path);
	f->info.offset = offset;
	f->info.size = size;
	f->info.kind = kind;
	f->info.count = count;
	snprintf(f->info.type_name, sizeof(f->info.type_name), "%s",
		 type_name);
	snprintf(f->info.target_name, sizeof(f->info.target_name), "%s",
		 target_name);
}

void
fake_bitfield(struct fake_target *ft, const char *type, const char *path,
	      uint64_t offset, uint64_t size, uint32_t bit_offset,
	      uint32_t bit_size, uint32_t kind)
{
	fake_field(ft, type, path, offset, size, kind,
		   kind == IRS_TYPE_INT ? "int" : "unsigned int", "", 0);
	ft->fields[ft->nfields - 1].info.bit_offset = bit_offset;
	ft->fields[ft->nfields - 1].info.bit_size = bit_size;
}

void
fake_enumerator(struct fake_target *ft, const char *type, const char *name,
		int64_t value)
{
	ft->enums = grow(ft->enums, ft->nenums, sizeof(*ft->enums));
	ft->enums[ft->nenums++] = (struct fake_enumerator){
		xstrdup(type), xstrdup(name), value,
	};
}

struct irs_memory *
fake_memory(struct fake_target *ft)
{
	if (!ft->mem) {
		struct irs_error *err = irs_memory_create_target(&ft->target,
								 &ft->mem);
		if (err) {
			fprintf(stderr, "fake_memory: %s\n", err->message);
			irs_error_destroy(err);
			return NULL;
		}
	}
	irs_memory_invalidate(ft->mem);
	return ft->mem;
}

void
fake_bits(const unsigned char *one, const unsigned char *all, size_t n,
	  uint32_t *first, uint32_t *width)
{
	*first = 0;
	*width = 0;
	bool found = false;
	for (size_t i = 0; i < n * 8; i++) {
		bool o = (one[i / 8] >> (i % 8)) & 1;
		bool a = (all[i / 8] >> (i % 8)) & 1;
		if (o && !found) {
			*first = (uint32_t)i;
			found = true;
		}
		*width += a;
	}
}

/* ---- facts mode ---------------------------------------------------------- */

static struct fake_tfacts *
tf_of(struct fake_target *ft, uint64_t h)
{
	return h >= 1 && h <= ft->ntf ? &ft->tf[h - 1] : NULL;
}

static struct irs_error *
facts_lookup(void *arg, const char *name, uint64_t *ret)
{
	struct fake_target *ft = arg;
	ft->nlookups++;
	for (size_t i = 0; i < ft->ntf; i++)
		if (ft->tf[i].lookup && !strcmp(ft->tf[i].lookup, name)) {
			*ret = i + 1;
			return NULL;
		}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "fake: no '%s'", name);
}

static struct irs_error *
facts_facts(void *arg, uint64_t type, struct irs_type_facts *ret)
{
	struct fake_tfacts *t = tf_of(arg, type);
	if (!t)
		return irs_error_format(IRS_ERROR_TARGET, "fake: handle %llu",
					(unsigned long long)type);
	*ret = t->f;
	if (!ret->stripped)
		ret->stripped = type;
	// counts and kind are the stripped type's, as debuggers report them
	struct fake_tfacts *st = tf_of(arg, ret->stripped);
	ret->nmembers = st->f.nmembers;
	ret->kind = st->f.kind;
	return NULL;
}

static struct fake_tfacts *
stripped(struct fake_target *ft, uint64_t type)
{
	struct fake_tfacts *t = tf_of(ft, type);
	return t && t->f.stripped ? tf_of(ft, t->f.stripped) : t;
}

static struct irs_error *
facts_member(void *arg, uint64_t type, uint32_t index,
	     struct irs_member_facts *ret)
{
	struct fake_tfacts *t = stripped(arg, type);
	if (!t || !t->members || index >= t->f.nmembers)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "fake: member");
	*ret = t->members[index];
	return NULL;
}

static struct irs_error *
facts_enumerator(void *arg, uint64_t type, uint32_t index, char *name,
		 uint64_t len, int64_t *value)
{
	struct fake_tfacts *t = stripped(arg, type);
	if (!t || !t->enames || index >= t->f.nmembers)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "fake: enum");
	snprintf(name, len, "%s", t->enames[index]);
	*value = t->evalues[index];
	return NULL;
}

static struct irs_error *
facts_derive(void *arg, uint64_t type, bool array, uint64_t count,
	     uint64_t *ret)
{
	struct fake_target *ft = arg;
	struct fake_tfacts *t = tf_of(ft, type);
	char name[300];
	if (!t)
		return irs_error_format(IRS_ERROR_TARGET, "fake: derive");
	size_t n = strlen(t->f.name);
	if (array)
		snprintf(name, sizeof(name), "%s [%llu]", t->f.name,
			 (unsigned long long)count);
	else
		snprintf(name, sizeof(name), "%s%s*", t->f.name,
			 n && t->f.name[n - 1] == '*' ? "" : " ");
	*ret = fake_facts_type(ft, NULL, name, array ? IRS_TYPE_ARRAY :
			       IRS_TYPE_POINTER, array ? count * t->f.size : 8,
			       0, type, array ? count : 0);
	return NULL;
}

void
fake_facts_init(struct fake_target *ft)
{
	fake_target_init(ft);
	ft->target.type_size = NULL;
	ft->target.field = NULL;
	ft->target.enumerator = NULL;
	ft->target.type_lookup = facts_lookup;
	ft->target.type_facts = facts_facts;
	ft->target.type_member = facts_member;
	ft->target.type_enumerator = facts_enumerator;
	ft->target.type_derive = facts_derive;
}

uint64_t
fake_facts_type(struct fake_target *ft, const char *lookup, const char *name,
		uint32_t kind, uint64_t size, uint64_t stripped_h,
		uint64_t target, uint64_t count)
{
	ft->tf = grow(ft->tf, ft->ntf, sizeof(*ft->tf));
	struct fake_tfacts *t = &ft->tf[ft->ntf++];
	memset(t, 0, sizeof(*t));
	t->lookup = lookup ? xstrdup(lookup) : NULL;
	t->f.kind = kind;
	t->f.size = size;
	t->f.stripped = stripped_h;
	t->f.target = target;
	t->f.count = count;
	t->f.complete = size != 0;
	snprintf(t->f.name, sizeof(t->f.name), "%s", name);
	return ft->ntf;
}

void
fake_facts_member(struct fake_target *ft, uint64_t type, const char *name,
		  uint64_t bit_offset, uint32_t bit_size, uint64_t member_type)
{
	struct fake_tfacts *t = tf_of(ft, type);
	t->members = grow(t->members, t->f.nmembers, sizeof(*t->members));
	struct irs_member_facts *m = &t->members[t->f.nmembers++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->bit_offset = bit_offset;
	m->bit_size = bit_size;
	m->type = member_type;
}

void
fake_facts_enumerator(struct fake_target *ft, uint64_t type,
		      const char *name, int64_t value)
{
	struct fake_tfacts *t = tf_of(ft, type);
	t->enames = grow(t->enames, t->f.nmembers, sizeof(*t->enames));
	t->evalues = grow(t->evalues, t->f.nmembers, sizeof(*t->evalues));
	t->enames[t->f.nmembers] = xstrdup(name);
	t->evalues[t->f.nmembers++] = value;
}

void
fake_core_ehdr(Elf64_Ehdr *eh, Elf64_Half phnum)
{
	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = phnum;
}
