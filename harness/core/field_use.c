/*
 * harness/core/field_use.c: field_use_clip, tick by tick over the field
 * classes (contracts in field_use.h).
 */
#include "harness/core/field_use.h"

#include <string.h>

static int set_empty(const field_set *s)
{
    return s->w[0] == 0 && s->w[1] == 0;
}

/* 1 when some value of the fields of a at tick i differs from the skeleton's bytes. */
static int moves(const trace *auth, size_t i, const field_set *a, const uint8_t *skel0)
{
    if (!skel0) return 1;
    field_state s0 = {.ret = 0, .cmd = NULL, .skel = skel0, .world = NULL, .placed = NULL};
    for (int f = 0; f < FIELD__COUNT; f++) {
        if (!field_set_has(a, (field_id)f)) continue;
        field_area area = field_def_of((field_id)f)->area;
        /* Only the skeleton's own bytes have a value before the clip. */
        if (area != FIELD_AREA_SKEL && area != FIELD_AREA_BONE) return 1;
        unsigned bones = field_is_per_bone((field_id)f) ? auth->lay.bones : 1;
        for (unsigned b = 0; b < bones; b++)
            if (trace_value(auth, i, (field_id)f, b) != field_read((field_id)f, b, &s0)) return 1;
    }
    return 0;
}

void field_use_clip(const field_classes *fc, const trace *cand, const trace *auth,
                    const field_set *can, const uint8_t *skel0, res_fields *out)
{
    memset(out, 0, sizeof *out);
    size_t n = cand->n < auth->n ? cand->n : auth->n;
    for (size_t i = 0; i < n; i++) {
        field_set cf = trace_tick_fields(cand, i), af = trace_tick_fields(auth, i);
        for (int k = 0; k < fc->n; k++) {
            field_set a = field_set_and(&af, &fc->fields[k]);
            field_set both = field_set_and(&a, &cf);
            if (!set_empty(&both)) {
                out->ticks[k]++;
                continue;
            }
            field_set left = field_set_and(&a, can);
            if (set_empty(&left)) continue;
            out->unsupplied[k]++;
            if (!(out->moving >> k & 1) && moves(auth, i, &left, skel0))
                out->moving |= (uint16_t)(1u << k);
        }
    }
}

unsigned field_use_unsupplied(const field_classes *fc, const res_fields *u)
{
    unsigned m = 0;
    for (int k = 0; k < fc->n; k++)
        if (u->unsupplied[k]) m |= 1u << k;
    return m;
}
