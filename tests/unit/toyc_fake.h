/*
 * toyc_fake.h — what debug info would say about toyc's IR (ir.h), for a
 * fake_target: types, members (bitfields found at run time), enumerators.
 */
#ifndef TOYC_FAKE_H
#define TOYC_FAKE_H

#include "fake_target.h"

/** Registers every type of ir.h in @p ft. */
void toyc_fake_register(struct fake_target *ft);
/** The path of a file under the source tree ($IRSNAP_ROOT, else "."). */
const char *toyc_fake_path(const char *rel, char *buf, size_t len);

#endif
