/*
 * harness/core/readcmp.c: aligning two read logs (harness/core/readcmp.h).
 */
#include "harness/core/readcmp.h"

#include <stdio.h>
#include <string.h>

const char *readcmp_diff_name(readcmp_diff d)
{
    static const char *const names[] = {
#define READCMP_DIFF_NAME(id, name, text) name,
        READCMP_DIFF_MAP(READCMP_DIFF_NAME)
#undef READCMP_DIFF_NAME
    };
    return (unsigned)d < READCMP__COUNT ? names[d] : "?";
}

const char *readcmp_diff_text(readcmp_diff d)
{
    static const char *const texts[] = {
#define READCMP_DIFF_TEXT(id, name, text) text,
        READCMP_DIFF_MAP(READCMP_DIFF_TEXT)
#undef READCMP_DIFF_TEXT
    };
    return (unsigned)d < READCMP__COUNT ? texts[d] : "?";
}

static readcmp_diff differs(const ref_read *a, const ref_read *b)
{
    if (a->routine != b->routine || a->depth != b->depth) return READCMP_SEQUENCE;
    if (a->n != b->n) return READCMP_WIDTH;
    if (a->pos != b->pos || a->bit != b->bit) return READCMP_CURSOR;
    if (a->value != b->value) return READCMP_VALUE;
    if (a->pos_after != b->pos_after || a->bit_after != b->bit_after) return READCMP_ADVANCE;
    return READCMP_NONE;
}

/* Index of the depth-0 record that record i belongs to (i itself at depth 0). */
static size_t parent_of(const ref_read_log *log, size_t i)
{
    while (i > 0 && log->reads[i].depth > 0) i--;
    return i;
}

void readcmp_class(const ref_read_log *log, size_t i, char *out, size_t n)
{
    out[0] = '\0';
    if (i >= log->n) return;
    size_t p = parent_of(log, i);
    const ref_read *r = &log->reads[p];
    const ref_read *c0 = p + 1 < log->n && log->reads[p + 1].depth > 0 ? &log->reads[p + 1] : NULL;
    const ref_read *c1 =
        c0 && p + 2 < log->n && log->reads[p + 2].depth > 0 ? &log->reads[p + 2] : NULL;
    switch (r->routine) {
    case REF_R_BITREADER:
        snprintf(out, n, "%d bit%s", r->n, r->n == 1 ? "" : "s");
        break;
    case REF_R_POSITION:
        if (c0) snprintf(out, n, "position type %d", c0->value & 3);
        break;
    case REF_R_ROTATION:
        if (c0 && c0->value == 0) snprintf(out, n, "rotation absent");
        else if (c1) snprintf(out, n, "rotation type %d", c1->value & 3);
        break;
    case REF_R_SCALE:
        if (c0) snprintf(out, n, "scale %s", c0->value ? "present" : "absent");
        break;
    default:
        break;
    }
}

/* The first difference among the children of the depth-0 records at i (both sides). */
static int child_difference(const ref_read_log *ref, const ref_read_log *orig, size_t i,
                            size_t *at)
{
    for (size_t j = i + 1;; j++) {
        int rc = j < ref->n && ref->reads[j].depth > 0;
        int oc = j < orig->n && orig->reads[j].depth > 0;
        if (!rc && !oc) return 0;
        if (rc != oc || differs(&ref->reads[j], &orig->reads[j]) != READCMP_NONE) {
            *at = j;
            return 1;
        }
    }
}

static void name_routine(char *out, size_t n, const ref_read *r)
{
    snprintf(out, n, "%s", ref_routine_name((ref_routine)r->routine));
}

int readcmp_compare(const ref_read_log *ref, const ref_read_log *orig, const char *decoder,
                    readcmp_first *out)
{
    memset(out, 0, sizeof *out);
    size_t common = ref->n < orig->n ? ref->n : orig->n, i = 0;
    while (i < common && differs(&ref->reads[i], &orig->reads[i]) == READCMP_NONE) i++;
    if (i == common && ref->n == orig->n) {
        out->index = common;
        return 0;
    }
    /* A reader that differs because one of its own calls does: name that call. */
    if (i < common && ref->reads[i].depth == 0 && orig->reads[i].depth == 0 &&
        ref->reads[i].routine == orig->reads[i].routine) {
        size_t j;
        if (child_difference(ref, orig, i, &j)) i = j;
    }
    out->index = i;
    out->have_ref = i < ref->n;
    out->have_orig = i < orig->n;
    if (out->have_ref) out->ref = ref->reads[i];
    if (out->have_orig) out->orig = orig->reads[i];
    out->diff = out->have_ref && out->have_orig ? differs(&out->ref, &out->orig) : READCMP_SEQUENCE;
    const ref_read_log *side = out->have_ref ? ref : orig;
    const ref_read *r = &side->reads[i];
    name_routine(out->routine, sizeof out->routine, r);
    if (r->depth == 0)
        snprintf(out->caller, sizeof out->caller, "%s", decoder);
    else
        name_routine(out->caller, sizeof out->caller, &side->reads[parent_of(side, i)]);
    /* Who answers: the routine itself for what it returns or how far it moves the cursor;
     * its caller for which call it makes, with which bit count, from which cursor. */
    int own = out->diff == READCMP_VALUE || out->diff == READCMP_ADVANCE;
    snprintf(out->responsible, sizeof out->responsible, "%s", own ? out->routine : out->caller);
    readcmp_class(side, i, out->cls, sizeof out->cls);
    return 1;
}
