// `ir-layout show`: the compiled layout in words, with the sizes and
// offsets debug info gave, so a user can check them against the source.
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"

static void
put_loc(struct irs_buf *b, const char *what, const struct lloc *l)
{
	irs_buf_printf(b, "%s%u", what, l->offset);
	if (l->bit_size)
		irs_buf_printf(b, " bits %u..%u", l->bit_off,
			       l->bit_off + l->bit_size - 1);
	else if (l->size)
		irs_buf_printf(b, " (%u bytes)", l->size);
}

static void
put_quoted(struct irs_buf *b, const char *s)
{
	irs_buf_append(b, "\"", 1);
	for (; *s; s++) {
		if (*s == '\n')
			irs_buf_puts(b, "\\n");
		else if (*s == '\t')
			irs_buf_puts(b, "\\t");
		else if (*s == '"' || *s == '\\')
			irs_buf_printf(b, "\\%c", *s);
		else
			irs_buf_append(b, s, 1);
	}
	irs_buf_append(b, "\"", 1);
}

static const char *
type_name(const struct irs_layout *lo, uint32_t i)
{
	return i < lo->ntypes ? lo->types[i].name : "?";
}

static void put_field(struct irs_buf *b, const struct irs_layout *lo,
		      const struct lfield *f);

static void
put_seq(struct irs_buf *b, const struct irs_layout *lo, const struct lseq *s)
{
	static const char *const kinds[] = {
		[SEQ_ARRAY] = "array", [SEQ_FIXED] = "fixed",
		[SEQ_NULLTERM] = "nullterm", [SEQ_RANGE] = "range",
		[SEQ_LIST] = "list", [SEQ_ZIP] = "zip", [SEQ_DERIVED] = "derived",
	};
	irs_buf_printf(b, "%s of ", kinds[s->kind]);
	const struct lfield *e = s->elem;
	if (e->kind == LK_EMBED)
		irs_buf_puts(b, type_name(lo, e->type));
	else if (e->kind == LK_PTR || e->kind == LK_REF)
		irs_buf_printf(b, "%s %s", e->kind == LK_PTR ? "ptr" : "ref",
			       type_name(lo, e->type));
	else
		irs_buf_puts(b, e->ctor);
	if (s->overlap)
		irs_buf_printf(b, " (%u bytes apart, each reading %u): ",
			       s->stride, s->stride + s->overlap);
	else
		irs_buf_printf(b, " (%u bytes each): ", s->stride);
	switch (s->kind) {
	case SEQ_ARRAY:
		if (s->place)
			irs_place_describe(b, s->place);
		else
			put_loc(b, "ptr at ", &s->base);
		if (s->has_first) {
			put_loc(b, ", from the index at ", &s->first);
			put_loc(b, " to the one at ", &s->count);
		} else {
			put_loc(b, ", count at ", &s->count);
		}
		break;
	case SEQ_FIXED:
		irs_buf_printf(b, "%llu at %u",
			       (unsigned long long)s->fixed_count,
			       s->base.offset);
		break;
	case SEQ_NULLTERM:
		put_loc(b, "ptr at ", &s->base);
		break;
	case SEQ_RANGE:
		put_loc(b, "begin at ", &s->base);
		put_loc(b, ", end at ", &s->count);
		break;
	case SEQ_ZIP:
		put_loc(b, "count at ", &s->count);
		for (uint32_t i = 0; i < s->ncomps; i++) {
			if (s->comps[i].place) {
				irs_buf_puts(b, ", ");
				irs_place_describe(b, s->comps[i].place);
				continue;
			}
			put_loc(b, i ? ", ptr at " : ", ptrs at ",
				&s->comps[i].base);
		}
		break;
	case SEQ_DERIVED:
		if (s->der->numbering)
			irs_buf_printf(b, "numbered by %s", s->der->numbering);
		else
			irs_buf_printf(b, "from %s", s->der->from->name);
		if (s->der->names[1])
			irs_buf_printf(b, " where %s", s->der->names[1]);
		if (s->der->names[2])
			irs_buf_printf(b, ", mapped by %s", s->der->names[2]);
		if (s->der->names[3])
			irs_buf_printf(b, ", sorted by %s", s->der->names[3]);
		break;
	case SEQ_LIST:
		irs_buf_printf(b, "%s at %u, link at +%u, next at +%u",
			       s->sentinel ? "sentinel" : "head pointer",
			       s->base.offset, s->link_off, s->next_off);
		if (s->has_prev)
			irs_buf_printf(b, ", prev at +%u", s->prev_off);
		break;
	}
	if (s->drop)
		irs_buf_printf(b, ", %llu fewer",
			       (unsigned long long)s->drop);
	if (s->limit)
		irs_buf_printf(b, ", at most %llu",
			       (unsigned long long)s->limit);
}

static void
put_field(struct irs_buf *b, const struct irs_layout *lo,
	  const struct lfield *f)
{
	switch (f->kind) {
	case LK_INT: case LK_UINT: case LK_BOOL: case LK_FLOAT:
		irs_buf_printf(b, "%s%s ", f->ctor,
			       !strcmp(f->ctor, "scalar")
			       ? (f->kind == LK_INT ? " (signed)"
				  : f->kind == LK_UINT ? " (unsigned)"
				  : f->kind == LK_BOOL ? " (bool)"
				  : " (float)") : "");
		put_loc(b, "at ", &f->at);
		break;
	case LK_ENUM:
		irs_buf_printf(b, "enum (%u names) ", f->en->n);
		put_loc(b, "at ", &f->at);
		break;
	case LK_CSTR:
		put_loc(b, "cstr at ", &f->at);
		break;
	case LK_CHARS:
		irs_buf_printf(b, "chars [%u] at %u", f->nchars, f->at.offset);
		break;
	case LK_STRN:
		if (f->place) {
			irs_buf_puts(b, "chars: ");
			irs_place_describe(b, f->place);
		} else {
			put_loc(b, f->tail ? "chars: inline at "
				: "strn: ptr at ", &f->at);
		}
		put_loc(b, ", length at ", &f->len);
		if (f->skip)
			irs_buf_printf(b, ", skip %u", f->skip);
		break;
	case LK_PTR: case LK_REF:
		irs_buf_printf(b, "%s %s ", f->kind == LK_PTR ? "ptr" : "ref",
			       type_name(lo, f->type));
		put_loc(b, "at ", &f->at);
		if (f->mask != UINT64_MAX)
			irs_buf_printf(b, ", mask 0x%llx",
				       (unsigned long long)f->mask);
		if (f->past)
			irs_buf_printf(b, ", %u bytes past it", f->past);
		break;
	case LK_EMBED:
		irs_buf_printf(b, "embed %s at %u", type_name(lo, f->type),
			       f->at.offset);
		break;
	case LK_INDEX:
		irs_buf_printf(b, "index into %s.%s ",
			       type_name(lo, f->index_type),
			       f->index_seq ? f->index_seq->name : "?");
		put_loc(b, "at ", &f->at);
		break;
	case LK_UNION:
		irs_buf_printf(b, "union by %s:", f->un->tag->name);
		for (uint32_t i = 0; i < f->un->ncases; i++) {
			const char *name = f->un->tag->kind == LK_ENUM
				? irs_lenum_name(f->un->tag->en,
						 f->un->values[i]) : NULL;
			if (name)
				irs_buf_printf(b, " %s = ", name);
			else
				irs_buf_printf(b, " %lld = ",
					       (long long)f->un->values[i]);
			put_field(b, lo, f->un->cases[i]);
			irs_buf_puts(b, ";");
		}
		break;
	case LK_SEQ:
		put_seq(b, lo, f->seq);
		break;
	case LK_COMPUTED:
		irs_buf_puts(b, f->pure ? "computed (Lua, pure)"
				     : "computed (Lua)");
		break;
	case LK_GLOBAL:
		irs_buf_printf(b, "global %s: ", f->glob->spelled);
		put_field(b, lo, f->glob->value);
		break;
	case LK_SHAPE:
		irs_shape_describe(b, lo, f);
		break;
	case LK_DELTA:
		irs_buf_printf(b, "delta: %s.%s from %s", type_name(lo,
			       f->delta->owner), f->delta->deltas->name,
			       f->delta->base->name);
		if (f->delta->abs)
			irs_buf_printf(b, ", absolute %s (%s, %s)",
				       f->delta->abs->name,
				       f->delta->abs_at->name,
				       f->delta->abs_value->name);
		break;
	case LK_PICK: case LK_SLICE: case LK_UP: case LK_PREV:
		irs_buf_printf(b, "%s", f->name);	// steps of a path only
		break;
	}
}

static void
put_text(struct irs_buf *b, const char *what, const struct ltext *tx)
{
	switch (tx->kind) {
	case TX_NONE:
		return;
	case TX_TEMPLATE:
		irs_buf_printf(b, "  %s: ", what);
		put_quoted(b, tx->tpl->src);
		break;
	case TX_BY:
		irs_buf_printf(b, "  %s by %s:", what, tx->by->name);
		for (uint32_t i = 0; i < tx->ncases; i++) {
			const char *name = tx->by->kind == LK_ENUM
				? irs_lenum_name(tx->by->en, tx->values[i])
				: NULL;
			if (name)
				irs_buf_printf(b, "\n    %s: ", name);
			else	// an integer tag (TValue's tt_)
				irs_buf_printf(b, "\n    %lld: ",
					       (long long)tx->values[i]);
			put_quoted(b, tx->cases[i]->src);
		}
		if (tx->deflt) {
			irs_buf_puts(b, "\n    default: ");
			put_quoted(b, tx->deflt->src);
		}
		break;
	case TX_LUA:
		irs_buf_printf(b, "  %s: Lua function%s", what,
			       tx->pure ? " (pure)" : "");
		break;
	}
	irs_buf_puts(b, "\n");
}

struct irs_error *
irs_layout_describe(const struct irs_layout *lo, char **ret)
{
	struct irs_buf b;
	irs_buf_init(&b);
	irs_buf_printf(&b, "layout %s (%s), root %s, %u types\n", lo->name,
		       lo->file, lo->root, lo->ntypes);
	for (uint32_t i = 0; i < lo->ntypes; i++) {
		const struct ltype *t = &lo->types[i];
		irs_buf_printf(&b, "struct %s: %u bytes, %s", t->name,
			       t->size, t->node ? "node" : "value");
		if (t->size_explicit)
			irs_buf_puts(&b, " (size given)");
		if (strcmp(t->ctype, t->name))
			irs_buf_printf(&b, ", C type %s", t->ctype);
		irs_buf_puts(&b, "\n");
		for (uint32_t j = 0; j < t->nfields; j++) {
			const struct lfield *f = &t->fields[j];
			irs_buf_printf(&b, "  %-12s ", f->name);
			put_field(&b, lo, f);
			if (f->path && strcmp(f->path, f->name))
				irs_buf_printf(&b, "  [%s]", f->path);
			if (f->no_json)
				irs_buf_puts(&b, " (text only, json = false)");
			irs_buf_puts(&b, "\n");
		}
		put_text(&b, "ref", &t->ref);
		put_text(&b, "text", &t->text);
		irs_cast_describe(&b, lo, t);
	}
	if (lo->nboundaries)
		irs_buf_puts(&b, "boundaries:\n");
	for (uint32_t i = 0; i < lo->nboundaries; i++) {
		const struct irs_boundary_info *bi = &lo->boundaries[i];
		if (bi->match)
			irs_buf_printf(&b, "  functions matching /%s/: pass ",
				       bi->match);
		else
			irs_buf_printf(&b, "  %s: pass ", bi->function);
		if (bi->pass_len_expr)
			irs_buf_printf(&b, "%s bytes at %s", bi->pass_len_expr,
				       bi->pass_expr);
		else if (bi->pass_expr)
			irs_buf_puts(&b, bi->pass_expr);
		else if (bi->match)
			irs_buf_puts(&b, "named by the match");
		else
			irs_buf_printf(&b, "named %s", bi->pass_name);
		irs_buf_printf(&b, "%s%s, ir %s",
			       bi->instance_expr ? " #" : "",
			       bi->instance_expr ? bi->instance_expr : "",
			       bi->ir_expr);
		for (uint32_t k = 1; k < bi->nir; k++)	// the first it has
			irs_buf_printf(&b, " or %s", bi->ir_exprs[k]);
		irs_buf_printf(&b, " (%s)%s%s\n", bi->ir_type,
			       bi->sret ? ", sret" : "",
			       bi->after_caller ? ", after at the caller" : "");
		for (uint32_t k = 0; k < lo->bchecks[i].n; k++)
			irs_buf_printf(&b, "    check: at %llu (%llu bytes) "
				       "== %lld\n",
				       (unsigned long long)
				       lo->bchecks[i].items[k].fi.offset,
				       (unsigned long long)
				       lo->bchecks[i].items[k].fi.size,
				       (long long)lo->bchecks[i].items[k].value);
		if (bi->rerun_pass_expr)
			irs_buf_printf(&b, "    rerun's {pass}: %s bytes at %s"
				       "%s%s%s%s%s%s\n", bi->rerun_pass_len_expr,
				       bi->rerun_pass_expr,
				       bi->rerun_anchor_expr ? ", nested in "
				       "the unit's name, " : "",
				       bi->rerun_anchor_len_expr ?
				       bi->rerun_anchor_len_expr : "",
				       bi->rerun_anchor_expr ? " bytes at " : "",
				       bi->rerun_anchor_expr ?
				       bi->rerun_anchor_expr : "",
				       bi->rerun_top ? ", bare on " : "",
				       bi->rerun_top ? bi->rerun_top : "");
	}
	if (lo->nverifiers)
		irs_buf_puts(&b, "verifiers:\n");
	for (uint32_t i = 0; i < lo->nverifiers; i++) {
		const struct lverifier *v = &lo->verifiers[i];
		if (v->call)
			irs_buf_printf(&b, "  %s: call %s, clean when %lld\n",
				       v->name, v->call, (long long)v->ok);
		else
			irs_buf_printf(&b, "  %s: Lua check (line %u)\n",
				       v->name, v->line);
		if (v->rerun)
			irs_buf_printf(&b, "    offline: %s (problem %s, "
				       "broken %s)\n", v->rerun,
				       v->problem ? v->problem : "any line",
				       v->broken ? v->broken : "-");
	}
	if (lo->cfg_func)
		irs_buf_printf(&b, "cfg: blocks %s of each %s, edges from "
			       "their terminators\n", lo->cfg_block,
			       lo->cfg_func);
	irs_buf_puts(&b, "reduce: units");
	for (uint32_t i = 0; i < lo->nunits; i++)
		irs_buf_printf(&b, "%s %s", i ? "," : "", lo->units[i]);
	if (!lo->nunits)
		irs_buf_puts(&b, " (none)");
	irs_buf_printf(&b, "; defs %s; rerun %s",
		       lo->defs ? lo->defs : "(none)",
		       lo->rerun ? lo->rerun : "(none)");
	if (lo->reduce_comment)
		irs_buf_printf(&b, "; comment %s", lo->reduce_comment);
	if (lo->reduce_label)
		irs_buf_printf(&b, "; label %s", lo->reduce_label);
	if (lo->reduce_program)
		irs_buf_puts(&b, "; input program");
	if (lo->reduce_field)
		irs_buf_printf(&b, "; input the root's %s, whole",
			       lo->reduce_field);
	irs_buf_puts(&b, "\n");
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	*ret = irs_buf_steal(&b);
	return NULL;
}
