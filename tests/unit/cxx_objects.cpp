// Real libstdc++ containers for the prelude test (see cxx_objects.h).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cxx_objects.h"

namespace {

struct CxxHolder {
	std::vector<int> ints;
	std::vector<CxxPt> pts;
	std::string name;
	std::string tag;
};

// vector's members are protected in its base: a derived class may name
// them, as debug info does (_M_impl._M_start, _M_impl._M_finish)
template <typename T>
struct VecPeek : std::vector<T> {
	size_t start() const
	{
		return (size_t)((const char *)&this->_M_impl._M_start -
				(const char *)this);
	}
	size_t finish() const
	{
		return (size_t)((const char *)&this->_M_impl._M_finish -
				(const char *)this);
	}
};

// std::string's are private: find the slot holding data() and the one
// holding size() in a string whose length no pointer can equal
int
string_slots(const std::string &s, size_t *p, size_t *len)
{
	const unsigned char *base = (const unsigned char *)&s;
	*p = *len = SIZE_MAX;
	for (size_t off = 0; off + 8 <= sizeof(s); off += 8) {
		uint64_t v;
		std::memcpy(&v, base + off, 8);
		if (v == (uint64_t)(uintptr_t)s.data() && *p == SIZE_MAX)
			*p = off;
		else if (v == s.size() && *len == SIZE_MAX)
			*len = off;
	}
	return *p == SIZE_MAX || *len == SIZE_MAX ? -1 : 0;
}

} // namespace

extern "C" void *
cxx_holder_create(const char *name, const char *tag)
{
	CxxHolder *h = new CxxHolder;
	h->ints.reserve(16);
	for (int v : { 1, 2, 3, 5, 8 })
		h->ints.push_back(v);
	h->pts.push_back(CxxPt{ 1, 2 });
	h->pts.push_back(CxxPt{ 3, 4 });
	h->name = name;
	h->tag = tag;
	return h;
}

extern "C" void
cxx_holder_destroy(void *holder)
{
	delete static_cast<CxxHolder *>(holder);
}

extern "C" int
cxx_offsets(struct cxx_offsets *o)
{
	VecPeek<int> vi;
	VecPeek<CxxPt> vp;
	CxxHolder h;
	h.name = "a string far too long for the inline buffer!";
	h.tag = "twenty-three bytes long";
	size_t p, len;
	o->size = sizeof(CxxHolder);
	o->ints_start = offsetof(CxxHolder, ints) + vi.start();
	o->ints_finish = offsetof(CxxHolder, ints) + vi.finish();
	o->pts_start = offsetof(CxxHolder, pts) + vp.start();
	o->pts_finish = offsetof(CxxHolder, pts) + vp.finish();
	if (string_slots(h.name, &p, &len))
		return -1;
	o->name_p = offsetof(CxxHolder, name) + p;
	o->name_len = offsetof(CxxHolder, name) + len;
	if (string_slots(h.tag, &p, &len))
		return -1;
	o->tag_p = offsetof(CxxHolder, tag) + p;
	o->tag_len = offsetof(CxxHolder, tag) + len;
	return 0;
}
