/*
 * textdiff.h — line diff of two texts, written as a unified diff (diff -u).
 * Internal to libirsnap (the HTML report shows per-pass IR diffs with it).
 */
#ifndef IRSNAP_TEXTDIFF_H
#define IRSNAP_TEXTDIFF_H

#include "internal.h"

/** What a diff found. */
struct irs_textdiff_stats {
	uint64_t added, removed;	/* lines */
	bool gave_up;	/* a region was too different to align line by
			   line and had no line unique to it on both
			   sides; it is shown as removed, then added */
};

/**
 * Appends to @p out a unified diff of text @p a (called @p aname in the
 * "---" header) against @p b (called @p bname), with @p context lines of
 * context around each change; appends nothing when the texts are equal.
 * A line's identity includes its newline, and a last line without one is
 * followed by "\ No newline at end of file", as diff(1) does.
 * The alignment is Myers' O(ND) diff in linear space over the lines both
 * texts have (a line found on one side only is a change, as in GNU diff),
 * so the diff is minimal; a region that would cost too much is split at
 * the lines that occur once on each side (patience diff), which keeps it
 * near-minimal, and only a costly region without such a line is shown as
 * replaced wholesale (stats->gave_up).
 * @p ret may be NULL. Returns NULL or &irs_enomem; on error @p out may hold
 * part of the diff.
 */
struct irs_error *irs_textdiff_unified(const char *a, size_t alen,
				       const char *aname,
				       const char *b, size_t blen,
				       const char *bname, uint32_t context,
				       struct irs_buf *out,
				       struct irs_textdiff_stats *ret);

#endif
