// Def-use edges and candidate states.
//
// A candidate is the original text with some units deleted and some uses
// replaced by a constant. Deleting a unit deletes the definitions inside
// it, and a use left without its definition would only make the candidate
// fail to parse, costing a test run for nothing. So every deletion is
// repaired before the candidate exists, three ways:
//  - a value use (%x) becomes the constant ("0"), which any operand
//    position accepts in SSA-style IRs;
//  - a branch target (^bb) is pointed at a live block of the same function
//    instead, the next one in the text (where the deleted block would have
//    fallen through), else the previous one; so deleting blocks does not
//    take the branches, and with them the terminators, along;
//  - a use that nothing can stand for (a callee @f, LLVM's metadata !7
//    defined by a "!7 = ..." line, a branch with no block left) takes its
//    own unit with it, and that unit's definitions in turn,
//    to a fixed point. When such a use sits outside every unit, the
//    deletion is impossible and the candidate is never produced.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"

/* {=== generic def-use model (plain text) ================================== */

// Name tables: (sigil, scope, name) -> def, open addressing.
struct name_entry {
	uint64_t hash;
	uint32_t start, len;	/* the name in the text */
	uint32_t scope;
	uint32_t def;		/* its first definition; RU_NONE: empty */
	uint32_t last;		/* its last definition so far (first pass) */
	uint32_t cur;		/* the one in force here (second pass) */
	char sigil;
};

struct names {
	struct name_entry *slots;
	size_t cap, count;
	const char *text;
};

static uint64_t
name_hash(const char *s, uint32_t len, uint32_t scope, char sigil)
{
	uint64_t h = reduce_hash(s, len);
	return h ^ ((uint64_t)scope * 0x9e3779b97f4a7c15ull) ^ (uint64_t)sigil;
}

static struct name_entry *
names_find(struct names *nt, uint32_t start, uint32_t len, uint32_t scope,
	   char sigil)
{
	uint64_t h = name_hash(nt->text + start, len, scope, sigil);
	for (size_t i = h & (nt->cap - 1);; i = (i + 1) & (nt->cap - 1)) {
		struct name_entry *e = &nt->slots[i];
		if (e->def == RU_NONE) {
			e->hash = h;
			return e;	// empty: the caller may fill it
		}
		if (e->hash == h && e->len == len && e->scope == scope &&
		    e->sigil == sigil &&
		    !memcmp(nt->text + e->start, nt->text + start, len))
			return e;
	}
}

static bool
names_init(struct names *nt, const char *text, size_t expect)
{
	nt->cap = 64;
	while (nt->cap < expect * 2 + 16)
		nt->cap *= 2;
	nt->slots = malloc(nt->cap * sizeof(*nt->slots));
	if (!nt->slots)
		return false;
	for (size_t i = 0; i < nt->cap; i++)
		nt->slots[i].def = RU_NONE;
	nt->text = text;
	nt->count = 0;
	return true;
}

static bool
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

struct token {
	uint32_t start, end;	/* sigil included */
	char sigil;
};

// The sigil tokens of line [s, e), outside strings and comments.
static uint32_t
line_tokens(const struct reduce_tree *t, uint32_t s, uint32_t e,
	    struct token *out, uint32_t max)
{
	const char *text = t->text;
	uint32_t n = 0;
	bool in_str = false;
	for (uint32_t i = s; i < e; i++) {
		char c = text[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"') {
			in_str = true;
			continue;
		}
		if (reduce_tree_comment_here(t, i, e))
			break;
		if ((c != '%' && c != '^' && c != '@' && c != '!') ||
		    (i > s && name_char(text[i - 1])))
			continue;
		uint32_t j = i + 1;
		while (j < e && name_char(text[j]))
			j++;
		if (j == i + 1)
			continue;
		if (n < max)
			out[n++] = (struct token){i, j, c};
		i = j - 1;
	}
	return n;
}

struct scan {
	struct reduce_tree *t;
	struct names names;
	uint32_t cap_defs, cap_uses;
	// Value definitions in the order the first pass met them (RU_NONE
	// where it made none), for the second to know which is in force.
	uint32_t *occ;
	uint32_t nocc, cap_occ, next_occ;
	bool oom;
};

static uint32_t
top_of(const struct reduce_tree *t, uint32_t u)
{
	while (u != RU_NONE && t->units[u].parent != RU_NONE)
		u = t->units[u].parent;
	return u;
}

// Defines the name at [start + 1, end) (its sigil at start); sigil 'L' is
// a label spelled with its own sigil ("@loop:"), whose name keeps it. A
// value (%x) may be assigned again and again (text that is not SSA):
// each assignment is a definition of its own, shadowing the one before.
// A label or function defined twice keeps its first definition.
static uint32_t
add_def(struct scan *sc, uint32_t start, uint32_t end, uint32_t unit,
	char sigil)
{
	struct reduce_tree *t = sc->t;
	uint32_t scope = sigil == '@' || sigil == '!' ? RU_NONE
						       : top_of(t, unit);
	if (sigil == 'L')
		start--;	// the whole label is the name
	// The name table keys on the name without its sigil.
	struct name_entry *e = names_find(&sc->names, start + 1,
					  end - start - 1, scope, sigil);
	if (e->def != RU_NONE && sigil != '%')
		return RU_NONE;
	if (t->ndefs == sc->cap_defs) {
		uint32_t cap = sc->cap_defs ? sc->cap_defs * 2 : 64;
		void *p = realloc(t->defs, cap * sizeof(*t->defs));
		if (!p) {
			sc->oom = true;
			return RU_NONE;
		}
		t->defs = p;
		sc->cap_defs = cap;
	}
	t->defs[t->ndefs] = (struct reduce_def){
		unit, sigil == '%' ? REPAIR_CONST
		: sigil == '^' || sigil == 'L' || sigil == 'B' ? REPAIR_RETARGET
		: REPAIR_DROP,
		RU_NONE, RU_NONE, 0, RU_NONE, start, end, RU_NONE};
	// LLVM numbers its unnamed values and blocks in one sequence per
	// function ("%5 =", "5:" and "label %5" alike, not "^5").
	if ((sigil == '%' || sigil == 'B') && end - start - 1 <= 9) {
		uint32_t num = 0, i = start + 1;
		for (; i < end && t->text[i] >= '0' && t->text[i] <= '9'; i++)
			num = num * 10 + (uint32_t)(t->text[i] - '0');
		if (i == end)
			t->defs[t->ndefs].num = num;
	}
	if (e->def != RU_NONE) {
		t->defs[t->ndefs].shadow = e->last;
		e->last = t->ndefs;
		return t->ndefs++;
	}
	*e = (struct name_entry){e->hash, start + 1, end - start - 1, scope,
				 t->ndefs, t->ndefs, RU_NONE, sigil};
	sc->names.count++;
	return t->ndefs++;
}

// The first pass's value definition number sc->nocc was @p d.
static void
note_occ(struct scan *sc, uint32_t d)
{
	if (sc->nocc == sc->cap_occ) {
		uint32_t cap = sc->cap_occ ? sc->cap_occ * 2 : 256;
		void *p = realloc(sc->occ, cap * sizeof(*sc->occ));
		if (!p) {
			sc->oom = true;
			return;
		}
		sc->occ = p;
		sc->cap_occ = cap;
	}
	sc->occ[sc->nocc++] = d;
}

// Second pass: the definition the first pass made here is in force from
// now on (for the uses after it; those on its own line came first).
static void
enter_def(struct scan *sc, const struct token *tk, uint32_t unit)
{
	if (sc->next_occ >= sc->nocc)
		return;
	uint32_t d = sc->occ[sc->next_occ++];
	if (d == RU_NONE)
		return;
	struct name_entry *e = names_find(&sc->names, tk->start + 1,
					  tk->end - tk->start - 1,
					  top_of(sc->t, unit), tk->sigil);
	if (e->def != RU_NONE)
		e->cur = d;
}

static void
add_use(struct scan *sc, const struct token *tk, uint32_t unit)
{
	struct reduce_tree *t = sc->t;
	uint32_t scope = tk->sigil == '@' || tk->sigil == '!' ? RU_NONE
							       : top_of(t, unit);
	struct name_entry *e = NULL;
	if (tk->sigil == '@')	// a label of this function ("br @loop")?
		e = names_find(&sc->names, tk->start, tk->end - tk->start,
			       top_of(t, unit), 'L');
	if (!e || e->def == RU_NONE)
		e = names_find(&sc->names, tk->start + 1,
			       tk->end - tk->start - 1, scope, tk->sigil);
	if (e->def == RU_NONE && tk->sigil == '%')	// "label %8"?
		e = names_find(&sc->names, tk->start + 1,
			       tk->end - tk->start - 1, scope, 'B');
	if (e->def == RU_NONE) {
		// @ names may be external, !dbg is an attachment's kind
		if (tk->sigil == '%' || tk->sigil == '^')
			t->nunresolved++;
		return;
	}
	// The nearest definition before the use; before any (a loop, a phi),
	// the first one.
	uint32_t d = e->cur != RU_NONE ? e->cur : e->def;
	if (t->nuses == sc->cap_uses) {
		uint32_t cap = sc->cap_uses ? sc->cap_uses * 2 : 256;
		void *p = realloc(t->uses, cap * sizeof(*t->uses));
		if (!p) {
			sc->oom = true;
			return;
		}
		t->uses = p;
		sc->cap_uses = cap;
	}
	t->uses[t->nuses++] = (struct reduce_use){tk->start, tk->end, unit, d};
}

// Where line [s, e) starts and ends without blanks.
static void
trim(const char *text, uint32_t *s, uint32_t *e)
{
	while (*s < *e && (text[*s] == ' ' || text[*s] == '\t'))
		(*s)++;
	while (*e > *s && strchr(" \t\r\n", text[*e - 1]))
		(*e)--;
}

// Is the line starting at line_start (blanks skipped) the first line of
// unit u, with more lines of u after it (a function's header, say)?
static bool
is_header(const struct reduce_tree *t, uint32_t u, uint32_t line_start,
	  uint32_t line_end)
{
	if (u == RU_NONE)
		return false;
	uint32_t s = t->units[u].start;
	while (s < t->len && strchr(" \t\r\n", t->text[s]))
		s++;
	uint32_t e = line_end;
	while (e < t->units[u].end && strchr(" \t\r\n", t->text[e]))
		e++;
	return s == line_start && e < t->units[u].end;
}

// Is the assignment whose name ends at @p i, on a line ending at @p e,
// "= type" (LLVM's named types)?
static bool
defines_type(const char *text, uint32_t i, uint32_t e)
{
	while (i < e && (text[i] == ' ' || text[i] == '\t'))
		i++;
	if (i >= e || text[i++] != '=')
		return false;
	while (i < e && (text[i] == ' ' || text[i] == '\t'))
		i++;
	return e - i >= 4 && !memcmp(text + i, "type", 4) &&
	       (e - i == 4 || !name_char(text[i + 4]));
}

// One line: its definitions (defs = true) or its uses (defs = false).
static void
scan_line(struct scan *sc, uint32_t s, uint32_t e, bool defs)
{
	struct reduce_tree *t = sc->t;
	struct token tk[64];

	trim(t->text, &s, &e);
	if (s == e)
		return;
	uint32_t unit = reduce_tree_innermost(t, s, e);
	uint32_t n = line_tokens(t, s, e, tk, ARRAY_SIZE(tk));
	bool header = (unit != RU_NONE &&
		       t->units[unit].kind == UNIT_HEADER) ||
		      is_header(t, unit, s, e);
	// A label with a comment after it ("5:  ; preds = %4", LLVM's) is
	// a label all the same.
	uint32_t ce = s;
	while (ce < e && !reduce_tree_comment_here(t, ce, e))
		ce++;
	while (ce > s && (t->text[ce - 1] == ' ' || t->text[ce - 1] == '\t'))
		ce--;
	bool label = ce > s && reduce_tree_is_label(t, s, ce);
	if (label && defs) {
		// "bb:" defines ^bb; the name table keys on the bare name.
		// "@loop:" and "@loop" define the label @loop, local like ^bb.
		uint32_t ne = t->text[ce - 1] == ':' ? ce - 1 : ce;
		uint32_t c = s;
		while (c < ne && t->text[c] != ' ' && t->text[c] != '\t' &&
		       !reduce_tree_comment_here(t, c, ne))
			c++;
		if (strchr("@%^", t->text[s])) {
			add_def(sc, s, c, unit, 'L');
		} else {
			add_def(sc, s - 1, c, unit, '^');
			// LLVM IR names a block "8:" and branches to it as
			// "label %8": a %name use may mean the label too.
			add_def(sc, s - 1, c, unit, 'B');
		}
		return;
	}
	if (label)
		return;		// a label's own name is no use
	bool seen_at = false;
	bool isdef[64];
	for (uint32_t k = 0; k < n; k++) {
		bool def = false;
		if (header && tk[k].sigil == '%')
			def = true;		// a parameter
		else if (header && tk[k].sigil == '@' && !seen_at)
			def = true;		// the function's own name
		else if (k == 0 && tk[k].start == s &&
			 (tk[k].sigil == '%' || tk[k].sigil == '!')) {
			uint32_t j = tk[k].end;
			while (j < e && strchr(" \t", t->text[j]))
				j++;
			def = j < e && t->text[j] == '=' &&
			      (j + 1 >= e || t->text[j + 1] != '=');
		}
		if (tk[k].sigil == '@')
			seen_at = true;
		isdef[k] = def;
		if (def && defs) {
			uint32_t d = add_def(sc, tk[k].start, tk[k].end, unit,
					     tk[k].sigil);
			if (tk[k].sigil == '%')
				note_occ(sc, d);
			// "%T = type {...}" (LLVM) names a type: no constant
			// can stand for it, its uses go with their units.
			if (d != RU_NONE && k == 0 && !header &&
			    defines_type(t->text, tk[k].end, e))
				t->defs[d].repair = REPAIR_DROP;
		} else if (!def && !defs) {
			add_use(sc, &tk[k], unit);
		}
	}
	for (uint32_t k = 0; k < n && !defs; k++)
		if (isdef[k] && tk[k].sigil == '%')
			enter_def(sc, &tk[k], unit);
}

struct irs_error *
reduce_defuse_scan(struct reduce_tree *t)
{
	struct scan sc = {.t = t};
	size_t nlines = 0;
	for (size_t i = 0; i < t->len; i++)
		nlines += t->text[i] == '\n';
	if (!names_init(&sc.names, t->text, nlines + 1))
		return &irs_enomem;
	// Two passes: all definitions first, so a use may come before its
	// definition (loops, phi-like operands).
	for (int pass = 0; pass < 2 && !sc.oom; pass++) {
		for (uint32_t s = 0; s < t->len && !sc.oom;) {
			const char *nl = memchr(t->text + s, '\n', t->len - s);
			uint32_t e = nl ? (uint32_t)(nl - t->text) + 1
					: (uint32_t)t->len;
			scan_line(&sc, s, e, pass == 0);
			s = e;
		}
	}
	free(sc.names.slots);
	free(sc.occ);
	return sc.oom ? &irs_enomem : NULL;
}

/* }=== */

/* {=== candidate states ==================================================== */

struct irs_error *
reduce_state_init(struct reduce_state *s, const struct reduce_tree *t)
{
	memset(s, 0, sizeof(*s));
	s->nunits = t->nunits;
	s->nuses = t->nuses;
	s->del = calloc((size_t)t->nunits + 1, 1);
	s->gone = calloc((size_t)t->nunits + 1, 1);
	s->rep = calloc((size_t)t->nuses + 1, 1);
	s->to = malloc(((size_t)t->nuses + 1) * sizeof(*s->to));
	if (!s->del || !s->gone || !s->rep || !s->to) {
		reduce_state_deinit(s);
		return &irs_enomem;
	}
	for (uint32_t k = 0; k < t->nuses; k++)
		s->to[k] = RU_NONE;
	return NULL;
}

void
reduce_state_deinit(struct reduce_state *s)
{
	free(s->del);
	free(s->gone);
	free(s->rep);
	free(s->to);
	memset(s, 0, sizeof(*s));
}

void
reduce_state_copy(struct reduce_state *dst, const struct reduce_state *src)
{
	dst->as_is = src->as_is;
	memcpy(dst->del, src->del, src->nunits);
	memcpy(dst->gone, src->gone, src->nunits);
	memcpy(dst->rep, src->rep, src->nuses);
	memcpy(dst->to, src->to, src->nuses * sizeof(*src->to));
}

static void
update_gone(struct reduce_state *s, const struct reduce_tree *t)
{
	// Parents come before children, so one forward pass suffices.
	for (uint32_t i = 0; i < t->nunits; i++) {
		uint32_t p = t->units[i].parent;
		s->gone[i] = s->del[i] || (p != RU_NONE && s->gone[p]);
	}
}

// s->to[k] of a use left as it is, its name defined nowhere.
#define DANGLING (UINT32_MAX - 1)

static bool
def_gone(const struct reduce_state *s, const struct reduce_tree *t,
	 uint32_t def)
{
	if (def == DANGLING)		// as it is, on purpose
		return false;
	uint32_t u = t->defs[def].unit;
	return u != RU_NONE && s->gone[u];
}

// The definition use k refers to now.
static uint32_t
use_def(const struct reduce_state *s, const struct reduce_tree *t, uint32_t k)
{
	return s->to[k] != RU_NONE ? s->to[k] : t->uses[k].def;
}

static bool
use_live(const struct reduce_state *s, const struct reduce_tree *t,
	 uint32_t k)
{
	uint32_t u = t->uses[k].unit;
	return !s->rep[k] && !(u != RU_NONE && s->gone[u]);
}

// A live stand-in for deleted def d: the same kind in the same scope, the
// nearest one after d in the text (the block a deleted block would have
// fallen through to), else the nearest before. RU_NONE when none is left.
static uint32_t
retarget(const struct reduce_state *s, const struct reduce_tree *t,
	 uint32_t d)
{
	const struct reduce_def *dd = &t->defs[d];
	// rt_order has this scope's candidates together, in text order.
	for (int dir = 1; dir >= -1; dir -= 2) {
		for (int64_t i = (int64_t)dd->rt_pos + dir;
		     i >= 0 && i < (int64_t)t->nrt; i += dir) {
			const struct reduce_def *de = &t->defs[t->rt_order[i]];
			if (de->scope != dd->scope)
				break;
			if (de->sample != RU_NONE && !s->gone[de->unit])
				return t->rt_order[i];
		}
	}
	return RU_NONE;
}

bool
reduce_state_delete(struct reduce_state *s, const struct reduce_tree *t,
		    const uint32_t *units, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		s->del[units[i]] = 1;
	for (;;) {
		update_gone(s, t);
		bool dropped = false;
		for (uint32_t k = 0; k < t->nuses; k++) {
			uint32_t d = use_def(s, t, k);
			if (!use_live(s, t, k) || !def_gone(s, t, d))
				continue;
			uint32_t repair = t->defs[t->uses[k].def].repair;
			if (repair == REPAIR_CONST) {
				// Not SSA: the assignment before still
				// stands, and the text names it already.
				uint32_t sh = t->defs[d].shadow;
				while (sh != RU_NONE && def_gone(s, t, sh))
					sh = t->defs[sh].shadow;
				if (sh != RU_NONE) {
					s->to[k] = sh;
					continue;
				}
				s->ndangling++;
				if (s->as_is) {
					s->to[k] = DANGLING;
					continue;
				}
				s->rep[k] = 1;
				continue;
			}
			if (repair == REPAIR_RETARGET &&
			    (s->to[k] = retarget(s, t, d)) != RU_NONE)
				continue;
			if (t->uses[k].unit == RU_NONE)
				return false;	// nothing to drop it with
			s->del[t->uses[k].unit] = 1;
			dropped = true;
		}
		if (!dropped)
			return true;
	}
}

bool
reduce_tree_mergeable(const struct reduce_tree *t, uint32_t u)
{
	const struct reduce_unit *x = &t->units[u];
	if (x->kind != UNIT_NORMAL || t->header[u] == RU_NONE || t->footer[u])
		return false;
	for (uint32_t i = u; i-- > 0;) {	// an earlier sibling?
		if (t->units[i].parent == x->parent &&
		    t->units[i].kind == UNIT_NORMAL)
			return true;
		if (t->units[i].end <= x->start && t->units[i].parent ==
		    x->parent)
			break;
	}
	return false;
}

// The last live normal child of the live normal sibling before u, or
// RU_NONE. Siblings come before u in document order, their descendants
// between them.
static uint32_t
prev_terminator(const struct reduce_state *s, const struct reduce_tree *t,
		uint32_t u)
{
	uint32_t parent = t->units[u].parent, sib = RU_NONE;
	for (uint32_t i = u; i-- > 0 && sib == RU_NONE;) {
		if (parent != RU_NONE && i <= parent)
			break;
		if (t->units[i].parent == parent &&
		    t->units[i].kind == UNIT_NORMAL && !s->gone[i])
			sib = i;
	}
	if (sib == RU_NONE || t->footer[sib])
		return RU_NONE;
	uint32_t last = RU_NONE;
	for (uint32_t i = sib + 1; i < u; i++)
		if (t->units[i].parent == sib &&
		    t->units[i].kind == UNIT_NORMAL && !s->gone[i])
			last = i;
	return last;
}

bool
reduce_state_merge(struct reduce_state *s, const struct reduce_tree *t,
		   const uint32_t *units, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t u = units[i];
		if (!reduce_tree_mergeable(t, u) || s->gone[u])
			return false;
		uint32_t term = prev_terminator(s, t, u);
		if (term == RU_NONE)
			return false;
		// Deleted one by one, so the next unit of the chunk finds
		// this one as its live sibling, with its own terminator.
		uint32_t cut[2] = {t->header[u], term};
		if (!reduce_state_delete(s, t, cut, 2))
			return false;
	}
	return true;
}

void
reduce_state_replace(struct reduce_state *s, const struct reduce_tree *t,
		     const uint32_t *uses, uint32_t n)
{
	(void)t;
	for (uint32_t i = 0; i < n; i++)
		s->rep[uses[i]] = 1;
}

static bool
same_name(const struct reduce_tree *t, uint32_t a, uint32_t b)
{
	const struct reduce_def *x = &t->defs[a], *y = &t->defs[b];
	return x->end - x->start == y->end - y->start &&
	       !memcmp(t->text + x->start, t->text + y->start,
		       x->end - x->start);
}

// The opcode of value definition d: its first word after '=', [*a, *e);
// empty for one without '=' (a parameter).
static void
def_opcode(const struct reduce_tree *t, uint32_t d, uint32_t *a, uint32_t *e)
{
	uint32_t i = t->defs[d].end;
	while (i < t->len && (t->text[i] == ' ' || t->text[i] == '\t'))
		i++;
	*a = *e = i;
	if (i >= t->len || t->text[i] != '=')
		return;
	for (i++; i < t->len && (t->text[i] == ' ' || t->text[i] == '\t');
	     i++)
		;
	*a = i;
	while (i < t->len && name_char(t->text[i]))
		i++;
	*e = i;
}

// Is value definition d assigned again later (text that is not SSA)?
// Then its name means another value further on.
static bool
reassigned(const struct reduce_tree *t, uint32_t d)
{
	for (uint32_t i = d + 1; i < t->ndefs &&
	     t->defs[i].scope == t->defs[d].scope; i++)
		if (t->defs[i].shadow == d)
			return true;
	return false;
}

// How far back reduce_state_other_operand() looks: the nearest value of
// the kind is what a reduction wants, and the search is per use.
enum { OTHER_REACH = 64 };

// The type written before byte @p at, [*a, *e): the word before it
// ("i32* %2", a use's), or the first word after the '(' or ',' before it
// ("(i32 noundef %0", a parameter's); empty when there is none.
static void
type_before(const struct reduce_tree *t, uint32_t at, bool param,
	    uint32_t *a, uint32_t *e)
{
	uint32_t i = at;
	*a = *e = 0;
	if (param) {
		while (i > 0 && !strchr("(,\n", t->text[i - 1]))
			i--;
		if (i == 0 || t->text[i - 1] == '\n')
			return;
		while (i < at && t->text[i] == ' ')
			i++;
		*a = i;
		while (i < at && t->text[i] != ' ')
			i++;
		*e = i < at ? i : *a;	// no word before the name: none
		return;
	}
	while (i > 0 && t->text[i - 1] == ' ')
		i--;
	*e = i;
	while (i > 0 && !strchr(" \t\n(,", t->text[i - 1]))
		i--;
	*a = i;
}

// A parameter of the use's function written with the type the use is
// written with ("shl i32 %3" may read "shl i32 %0"; llvm-reduce's
// operands-to-args): what a function's -O0 loads of its own arguments
// come down to. RU_NONE when there is none.
static uint32_t
param_operand(const struct reduce_state *s, const struct reduce_tree *t,
	      uint32_t k)
{
	uint32_t d = use_def(s, t, k), ua, ue;
	type_before(t, t->uses[k].start, false, &ua, &ue);
	if (ua == ue)
		return RU_NONE;
	for (uint32_t i = d; i-- > 0 && t->defs[i].scope == t->defs[d].scope;) {
		const struct reduce_def *y = &t->defs[i];
		uint32_t b, f;
		def_opcode(t, i, &b, &f);
		if (b != f || y->repair != REPAIR_CONST || y->end == 0 ||
		    y->sample == RU_NONE || y->shadow != RU_NONE ||
		    y->unit == RU_NONE || s->gone[y->unit] ||
		    t->text[y->start] != '%' || reassigned(t, i))
			continue;
		type_before(t, y->start, true, &b, &f);
		if (f - b == ue - ua && !memcmp(t->text + b, t->text + ua,
						ue - ua))
			return i;
	}
	return RU_NONE;
}

uint32_t
reduce_state_other_operand(const struct reduce_state *s,
			   const struct reduce_tree *t, uint32_t k)
{
	// A use redirected before may go further back: its load's value to
	// an argument, once the second load went to the first.
	uint32_t d = use_def(s, t, k);
	if (d == DANGLING || !use_live(s, t, k))
		return RU_NONE;
	const struct reduce_def *x = &t->defs[d];
	if (x->repair != REPAIR_CONST || x->end == 0 || x->scope == RU_NONE ||
	    x->unit == RU_NONE)
		return RU_NONE;
	uint32_t a, e;
	def_opcode(t, d, &a, &e);
	for (uint32_t i = d, n = 0; i-- > 0 && n < OTHER_REACH; n++) {
		const struct reduce_def *y = &t->defs[i];
		if (y->scope != x->scope)
			break;
		uint32_t b, f;
		if (y->repair != REPAIR_CONST || y->end == 0 ||
		    y->end > t->uses[k].start || y->sample == RU_NONE ||
		    y->shadow != RU_NONE || y->unit == RU_NONE ||
		    s->gone[y->unit] || same_name(t, d, i))
			continue;
		def_opcode(t, i, &b, &f);
		if (f - b == e - a && !memcmp(t->text + a, t->text + b, e - a) &&
		    !reassigned(t, i))
			return i;
	}
	// only for a load: -O0's copy of an argument (other values going to
	// an argument were tests that did not pay, on llvm-lj-strscan-llc)
	return e - a != 4 || memcmp(t->text + a, "load", 4) ? RU_NONE
	       : param_operand(s, t, k);
}

bool
reduce_state_redirect(struct reduce_state *s, const struct reduce_tree *t,
		      const uint32_t *uses, const uint32_t *to, uint32_t n)
{
	// the definitions the uses name now (an earlier redirect's target)
	uint32_t *was = malloc(((size_t)n + 1) * sizeof(*was));
	uint32_t *dead = malloc(((size_t)n + 1) * sizeof(*dead)), ndead = 0;
	if (!dead || !was) {
		free(was);
		free(dead);
		return false;
	}
	for (uint32_t i = 0; i < n; i++) {
		was[i] = use_def(s, t, uses[i]);
		s->to[uses[i]] = to[i];
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t d = was[i];
		if (d == DANGLING)
			continue;
		uint32_t u = t->defs[d].unit;
		bool used = u == RU_NONE || t->units[u].kind != UNIT_NORMAL;
		for (uint32_t k = 0; k < t->nuses && !used; k++)
			used = use_live(s, t, k) && use_def(s, t, k) == d;
		for (uint32_t j = 0; j < ndead && !used; j++)
			used = dead[j] == u;
		if (!used)
			dead[ndead++] = u;
	}
	bool ok = reduce_state_delete(s, t, dead, ndead);
	free(was);
	free(dead);
	return ok;
}

bool
reduce_state_consistent(const struct reduce_state *s,
			const struct reduce_tree *t)
{
	for (uint32_t k = 0; k < t->nuses; k++)
		if (use_live(s, t, k) && def_gone(s, t, use_def(s, t, k)))
			return false;
	return true;
}

void
reduce_tree_number_check(struct reduce_tree *t)
{
	// A function whose numbers do not go up in text order, or that
	// assigns one twice, is no LLVM numbering: its names stay as they are.
	for (uint32_t d = 0, first = 0; d <= t->ndefs; d++) {
		if (d < t->ndefs && t->defs[d].scope == t->defs[first].scope)
			continue;
		bool in_order = true;
		uint32_t last = RU_NONE;
		for (uint32_t i = first; i < d && in_order; i++) {
			const struct reduce_def *x = &t->defs[i];
			if (x->num == RU_NONE)
				continue;
			in_order = x->shadow == RU_NONE && x->unit != RU_NONE &&
				   x->scope != RU_NONE &&
				   (last == RU_NONE || x->num > last);
			last = x->num;
		}
		for (uint32_t i = first; i < d && !in_order; i++)
			t->defs[i].num = RU_NONE;
		first = d;
	}
}

// Per def of @p t, its number in the candidate: each deleted number
// before it in its function takes one off, as LLVM counts anew when it
// reads the text (the gaps it leaves on purpose, an unnamed entry block
// taking a number, stay). RU_NONE for what is named or gone. NULL when
// nothing is numbered, or on OOM (*oom set).
static uint32_t *
renumber(const struct reduce_state *s, const struct reduce_tree *t, bool *oom)
{
	uint32_t d = 0;
	while (d < t->ndefs && t->defs[d].num == RU_NONE)
		d++;
	if (d == t->ndefs)
		return NULL;
	uint32_t *nn = malloc(((size_t)t->ndefs + 1) * sizeof(*nn));
	if (!nn) {
		*oom = true;
		return NULL;
	}
	uint32_t shift = 0, scope = RU_NONE;
	for (d = 0; d < t->ndefs; d++) {
		const struct reduce_def *x = &t->defs[d];
		nn[d] = RU_NONE;
		if (x->num == RU_NONE)
			continue;
		if (x->scope != scope)
			shift = 0;
		scope = x->scope;
		if (s->gone[x->unit])
			shift++;
		else
			nn[d] = x->num - shift;
	}
	return nn;
}

// Does use k's text change, and to what (@p buf holds a new number).
static bool
use_edit(const struct reduce_state *s, const struct reduce_tree *t,
	 const uint32_t *nn, uint32_t k, char buf[16], const char **text,
	 size_t *len)
{
	uint32_t u = t->uses[k].unit;
	if (u != RU_NONE && s->gone[u])
		return false;		// goes with its unit
	if (s->rep[k]) {
		// After a pointer type ("i32* %2"), LLVM's constant is null:
		// "i32* 0" does not parse.
		uint32_t b = t->uses[k].start;
		bool ptr = b >= 2 && t->text[b - 1] == ' ' &&
			   t->text[b - 2] == '*' && !strcmp(t->constant, "0");
		*text = ptr ? "null" : t->constant;
		*len = strlen(*text);
		return true;
	}
	if (s->to[k] == DANGLING)
		return false;
	uint32_t d = use_def(s, t, k);
	if (nn && nn[d] != RU_NONE &&
	    (s->to[k] != RU_NONE || nn[d] != t->defs[d].num)) {
		int n = snprintf(buf, 16, "%c%u", t->text[t->uses[k].start],
				 nn[d]);
		*text = buf;
		*len = (size_t)n;
		return true;
	}
	if (s->to[k] == RU_NONE || t->defs[s->to[k]].sample == RU_NONE)
		return false;	// as it is (a shadow is named the same)
	const struct reduce_use *sample = &t->uses[t->defs[s->to[k]].sample];
	*text = t->text + sample->start;
	*len = sample->end - sample->start;
	return true;
}

// Does def d's own name change (renumbered), and to what.
static bool
def_edit(const struct reduce_tree *t, const uint32_t *nn, uint32_t d,
	 char buf[16], const char **text, size_t *len)
{
	if (!nn || nn[d] == RU_NONE || nn[d] == t->defs[d].num)
		return false;
	*len = (size_t)snprintf(buf, 16, "%u", nn[d]);
	*text = buf;
	return true;
}

static bool
cut_here(const struct reduce_state *s, const struct reduce_tree *t,
	 uint32_t u)
{
	uint32_t p = t->units[u].parent;
	return s->gone[u] && (p == RU_NONE || !s->gone[p]);
}

bool
reduce_state_render(const struct reduce_state *s, const struct reduce_tree *t,
		    struct irs_buf *out)
{
	out->len = 0;
	if (out->data)
		out->data[0] = '\0';
	bool oom = false;
	uint32_t *nn = renumber(s, t, &oom);
	if (oom)
		return false;
	size_t pos = 0;
	uint32_t ui = 0, ki = 0, di = 0;
	const char *ktext = NULL, *dtext = NULL;
	size_t klen = 0, dlen = 0;
	char kbuf[16], dbuf[16];
	for (;;) {
		// Next top-most deleted unit, next edited use, next renamed
		// definition; uses and definitions never overlap.
		while (ui < t->nunits && !cut_here(s, t, ui))
			ui++;
		while (ki < t->nuses &&
		       !use_edit(s, t, nn, ki, kbuf, &ktext, &klen))
			ki++;
		while (di < t->ndefs && !def_edit(t, nn, di, dbuf, &dtext,
						  &dlen))
			di++;
		size_t us = ui < t->nunits ? t->units[ui].start : SIZE_MAX;
		size_t ks = ki < t->nuses ? t->uses[ki].start : SIZE_MAX;
		size_t ds = di < t->ndefs ? t->defs[di].start + 1 : SIZE_MAX;
		if (us == SIZE_MAX && ks == SIZE_MAX && ds == SIZE_MAX)
			break;
		size_t start, end;
		const char *rtext = NULL;
		size_t rlen = 0;
		if (us <= ks && us <= ds) {
			start = us, end = t->units[ui++].end;
		} else if (ks <= ds) {
			start = ks, end = t->uses[ki++].end;
			rtext = ktext, rlen = klen;
		} else {
			start = ds, end = t->defs[di++].end;
			rtext = dtext, rlen = dlen;
		}
		if (start >= pos) {
			irs_buf_append(out, t->text + pos, start - pos);
			if (rtext)
				irs_buf_append(out, rtext, rlen);
			pos = end;
		} else if (end > pos) {
			pos = end;	// overlaps what is already cut
		}
	}
	irs_buf_append(out, t->text + pos, t->len - pos);
	if (!out->data)
		irs_buf_append(out, "", 0);
	free(nn);
	return !out->oom;
}

/* }=== */
