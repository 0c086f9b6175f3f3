/*
 * cxx_objects.h — real C++ objects (libstdc++'s std::vector and
 * std::string) for the prelude test: a holder built by C++ code, and where
 * libstdc++ put its members, found at run time from the objects
 * themselves, as debug info would give them.
 */
#ifndef CXX_OBJECTS_H
#define CXX_OBJECTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A C-compatible element for a std::vector<CxxPt>. */
typedef struct CxxPt {
	int x, y;
} CxxPt;

/** Byte offsets of the members a layout names, inside CxxHolder. */
struct cxx_offsets {
	size_t size;			/* sizeof(CxxHolder) */
	size_t ints_start, ints_finish;	/* std::vector<int> ints */
	size_t pts_start, pts_finish;	/* std::vector<CxxPt> pts */
	size_t name_p, name_len;	/* std::string name (on the heap) */
	size_t tag_p, tag_len;		/* std::string tag (short: inline) */
};

/**
 * A holder with ints = {1, 2, 3, 5, 8} (capacity 16), pts = {{1, 2},
 * {3, 4}}, name = @p name, tag = @p tag. Free with cxx_holder_destroy().
 */
void *cxx_holder_create(const char *name, const char *tag);
void cxx_holder_destroy(void *holder);
/** Finds the offsets in a holder (0 on success, -1 if they are not where
 *  libstdc++ is known to put them). */
int cxx_offsets(struct cxx_offsets *ret);

#ifdef __cplusplus
}
#endif
#endif
