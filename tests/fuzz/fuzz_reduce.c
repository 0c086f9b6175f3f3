// The reducer's text splitter and def-use model over fuzzed text
// (reduce_tree_from_text: braces, indentation, labels, %x ^bb @f names),
// then what a reduction does with the tree: candidates deleting, merging
// and replacing units chosen by a hash of the input, each rendered.
// Oracles: no crash, hang or leak; the units nest inside the text; a
// deletion the model accepts leaves a consistent candidate; a candidate
// deleting nothing renders the input unchanged.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reduce/reduce.h"


static void
check_tree(const struct reduce_tree *t)
{
	for (uint32_t i = 0; i < t->nunits; i++) {
		const struct reduce_unit *u = &t->units[i];
		if (u->start > u->end || u->end > t->len)
			fz_fail("unit %u [%u, %u) outside the text of %zu "
				"bytes", i, u->start, u->end, t->len);
		if (u->parent != RU_NONE && (u->parent >= i ||
		    t->units[u->parent].start > u->start ||
		    t->units[u->parent].end < u->end))
			fz_fail("unit %u is not inside its parent %u", i,
				u->parent);
	}
	for (uint32_t i = 0; i < t->nuses; i++)
		if (t->uses[i].def >= t->ndefs || t->uses[i].end > t->len ||
		    t->uses[i].start > t->uses[i].end)
			fz_fail("use %u is out of range", i);
}

// The unchanged candidate renders the input as it was.
static void
check_identity(const struct reduce_tree *t, struct reduce_state *s)
{
	struct irs_buf out;
	irs_buf_init(&out);
	if (!reduce_state_render(s, t, &out))
		return;
	if (!out.oom && (out.len != t->len ||
			 (t->len && memcmp(out.data, t->text, t->len))))
		fz_fail("a candidate deleting nothing renders %zu bytes, "
			"not the %zu of the input", out.len, t->len);
	irs_buf_deinit(&out);
}

static void
try_candidates(const struct reduce_tree *t, uint64_t h)
{
	struct reduce_state base, s;
	if (reduce_state_init(&base, t))
		return;
	check_identity(t, &base);
	if (reduce_state_init(&s, t)) {
		reduce_state_deinit(&base);
		return;
	}
	struct irs_buf out;
	irs_buf_init(&out);
	for (int round = 0; round < 8 && t->nunits; round++) {
		uint32_t pick[4], n = 0;
		for (int k = 0; k < 1 + (int)(h % 4); k++) {
			pick[n++] = (uint32_t)(h % t->nunits);
			h = h * 6364136223846793005ull + 1442695040888963407ull;
		}
		reduce_state_copy(&s, &base);
		bool merge = (h >> 60) % 3 == 0;
		bool ok = merge ? reduce_state_merge(&s, t, pick, n)
				: reduce_state_delete(&s, t, pick, n);
		if (ok && !reduce_state_consistent(&s, t))
			fz_fail("round %d: an accepted candidate leaves a use "
				"without its definition", round);
		if (ok && t->nuses) {
			uint32_t use = (uint32_t)(h % t->nuses);
			reduce_state_replace(&s, t, &use, 1);
		}
		if (ok)
			reduce_state_render(&s, t, &out);
		if (ok && (h >> 62))
			reduce_state_copy(&base, &s);	// build on it
	}
	irs_buf_deinit(&out);
	reduce_state_deinit(&s);
	reduce_state_deinit(&base);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	uint64_t h = reduce_hash(data, size);
	struct reduce_tree *t;
	struct irs_error *err = reduce_tree_from_text(text, size, &t);
	if (err) {
		free(text);	// taken over on success only
		if (!err->message || !*err->message)
			fz_fail("an error without a message");
		irs_error_destroy(err);
		return 0;
	}
	check_tree(t);
	try_candidates(t, h);
	reduce_tree_destroy(t);
	return 0;
}
