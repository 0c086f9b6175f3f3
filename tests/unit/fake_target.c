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

void
fake_target_init(struct fake_target *ft)
{
	memset(ft, 0, sizeof(*ft));
	ft->target.arg = ft;
	ft->target.read = fake_read;
	ft->target.type_size = fake_type_size;
	ft->target.field = fake_field_cb;
	ft->target.enumerator = fake_enumerator_cb;
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
