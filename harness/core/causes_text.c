/*
 * harness/core/causes_text.c: the sentences and value lists of causes
 * (harness/core/causes_internal.h): a cause's one-line statement from its
 * example's explanation, and how one explained mismatch's values differ.
 * Pure text: no allocation, no printing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness/core/causes_internal.h"
#include "harness/core/fields.h"

/* snprintf for texts that may be cut (names from files and disassembly). */
void causes_put(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}

/* Bits [at, at + n) of a leaf case's bytes, LSB first. */
static uint32_t case_bits(const leaf_case *c, unsigned at, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n && (at + i) / 8 < sizeof c->buf; i++)
        v |= (uint32_t)((c->buf[(at + i) / 8] >> ((at + i) % 8)) & 1) << i;
    return v;
}

/* The input class of a leaf case of routine ("rotation type 3"), into out. */
void causes_leaf_class(const char *routine, const leaf_case *c, char *out, size_t n)
{
    unsigned at = (unsigned)c->bit;
    out[0] = '\0';
    if (!strcmp(routine, "bitReader"))
        snprintf(out, n, "%d bit%s", c->n, c->n == 1 ? "" : "s");
    else if (!strcmp(routine, "ReadPositionType"))
        snprintf(out, n, "position type %u", case_bits(c, at, 2));
    else if (!strcmp(routine, "ReadRotationType")) {
        if (!case_bits(c, at, 1))
            snprintf(out, n, "rotation absent");
        else
            snprintf(out, n, "rotation type %u", case_bits(c, at + 1, 2));
    } else if (!strcmp(routine, "ReadBoneScale"))
        snprintf(out, n, "scale %s", case_bits(c, at, 1) ? "present" : "absent");
}

static const char *relation_text(const res_explain *e, char *buf, size_t n)
{
    if (!strcmp(e->relation, "orig_lower_by_1")) return "; the original's is 1 lower";
    if (!strcmp(e->relation, "orig_higher_by_1")) return "; the original's is 1 higher";
    if (!strncmp(e->relation, "differs_by_", 11)) {
        causes_put(buf, n, "; they differ by %s", e->relation + 11);
        return buf;
    }
    if (!strcmp(e->relation, "kept_previous") && e->tick == 0) {
        causes_put(buf, n,
                   "; the original's is the reference's plus the value the field held before "
                   "StartClip (%d, as loaded from the file): kept instead of reset or replaced",
                   e->before);
        return buf;
    }
    if (!strcmp(e->relation, "kept_previous")) {
        causes_put(buf, n,
                   "; the original's is the reference's plus the value before the call (%d): kept "
                   "or added to instead of replaced",
                   e->before);
        return buf;
    }
    return "";
}

void causes_read_statement(const res_explain *e, char *out, size_t n)
{
    const readcmp_first *f = &e->first;
    const ref_read *r = &f->ref, *o = &f->orig;
    char where[96];
    causes_put(where, sizeof where, "%s%sread %zu of call %zu", f->cls, f->cls[0] ? ", " : "",
               f->index, e->tick);
    switch (f->diff) {
    case READCMP_VALUE:
        causes_put(out, n,
                   "%s returns %d where the reference returns %d (%s, from clip byte %lld bit %d)",
                   f->routine, o->value, r->value, where, (long long)r->pos, r->bit);
        break;
    case READCMP_ADVANCE:
        causes_put(out, n,
                   "%s leaves the cursor at byte %lld bit %d where the reference leaves it at "
                   "byte %lld bit %d (%s)",
                   f->routine, (long long)o->pos_after, o->bit_after, (long long)r->pos_after,
                   r->bit_after, where);
        break;
    case READCMP_WIDTH:
        causes_put(out, n, "%s asks %s for %d bits where the reference reads %d (%s)", f->caller,
                   f->routine, o->n, r->n, where);
        break;
    case READCMP_CURSOR:
        causes_put(out, n,
                   "%s reads from byte %lld bit %d where the reference reads from byte %lld bit %d "
                   "(%s)",
                   f->routine, (long long)o->pos, o->bit, (long long)r->pos, r->bit, where);
        break;
    default:
        causes_put(out, n, "%s calls %s where the reference calls %s (read %zu of call %zu)",
                   f->caller,
                   f->have_orig ? ref_routine_name((ref_routine)o->routine) : "nothing more",
                   f->have_ref ? ref_routine_name((ref_routine)r->routine) : "nothing more",
                   f->index, e->tick);
    }
}

void causes_combine_statement(const res_explain *e, const clip_result *r, char *out, size_t n)
{
    char name[48], rel[160];
    field_name(r->div.field, r->div.bone, name, sizeof name);
    const char *how = relation_text(e, rel, sizeof rel);
    const emu_writer *w = &e->writer;
    char where[EMU_OWNER_NAME + 32];
    if (!w->routine[0]) causes_put(where, sizeof where, "in no routine walked");
    else if (w->routine_in_profile)
        causes_put(where, sizeof where, "%s+0x%x", w->routine, w->routine_offset);
    else causes_put(where, sizeof where, "in %s, +0x%x", w->routine, w->routine_offset);
    if (e->have_writer && w->writes)
        causes_put(out, n,
                   "every read of call %zu agrees (%zu reads), yet %s differs: reference %d, "
                   "original %d%s; the original wrote it with `%s` at 0x%x (%s)",
                   e->tick, e->orig_reads, name, r->div.ref, r->div.orig, how, w->insn, w->eip,
                   where);
    else
        causes_put(out, n,
                   "every read of call %zu agrees (%zu reads), yet %s differs: reference %d, "
                   "original %d%s; the original did not write it in that call",
                   e->tick, e->orig_reads, name, r->div.ref, r->div.orig, how);
}

/* The class of a read for the values list: its reader's input, else the routine. */
static const char *read_class(const readcmp_first *f)
{
    return f->cls[0] ? f->cls : f->routine;
}

void causes_value_text(const res_explain *e, const leaf_result *l, const clip_result *r, char *out,
                       size_t n, size_t *cls_len)
{
    char cls[48] = "";
    out[0] = '\0';
    if (!e) {
        if (!l) return;
        causes_leaf_class(l->routine, &l->first, cls, sizeof cls);
        if (!cls[0]) snprintf(cls, sizeof cls, "%s", l->routine);
        causes_put(out, n, "%s: AX %d vs %d, cursor %lld.%d vs %lld.%d", cls, l->first.orig_ax,
                   l->first.ref_ax, (long long)l->first.orig_pos, l->first.orig_bit,
                   (long long)l->first.ref_pos, l->first.ref_bit);
    } else if (e->state == RES_EXPL_READ) {
        const readcmp_first *f = &e->first;
        const ref_read *o = &f->orig, *r = &f->ref;
        snprintf(cls, sizeof cls, "%s", read_class(f));
        if (f->diff == READCMP_WIDTH)
            causes_put(out, n, "%s: %d vs %d bits", cls, o->n, r->n);
        else if (f->diff == READCMP_VALUE)
            causes_put(out, n, "%s: %d vs %d", cls, o->value, r->value);
        else if (f->diff == READCMP_CURSOR)
            causes_put(out, n, "%s: from byte %lld bit %d vs byte %lld bit %d", cls,
                       (long long)o->pos, o->bit, (long long)r->pos, r->bit);
        else if (f->diff == READCMP_ADVANCE)
            causes_put(out, n, "%s: to byte %lld bit %d vs byte %lld bit %d", cls,
                       (long long)o->pos_after, o->bit_after, (long long)r->pos_after,
                       r->bit_after);
        else
            causes_put(out, n, "%s: calls %s vs %s", cls,
                       f->have_orig ? ref_routine_name((ref_routine)o->routine) : "nothing",
                       f->have_ref ? ref_routine_name((ref_routine)r->routine) : "nothing");
    } else {
        if (!r) return;
        field_name(r->div.field, r->div.bone, cls, sizeof cls);
        causes_put(out, n, "%s: %d vs %d", cls, r->div.orig, r->div.ref);
    }
    *cls_len = strlen(cls);
}

void causes_add_value(res_cause *k, const char *v, size_t cls_len)
{
    for (unsigned i = 0; i < k->nvalues; i++)
        if (!strncmp(k->values[i], v, cls_len + 1)) return;
    if (k->nvalues == RES_CAUSE_VALUES) {
        k->more_values++;
        return;
    }
    causes_put(k->values[k->nvalues++], sizeof k->values[0], "%s", v);
}
