/*
 * harness/core/entity.c: entity traces, their comparison call by call
 * (weapon, body, then the call's result) and what is read from them.
 */
#include "harness/core/entity.h"

#include <string.h>

void ent_trace_init(ent_trace *t)
{
    t->armed = 0;
    trace_init(&t->weapon);
    trace_init(&t->body);
}

void ent_trace_free(ent_trace *t)
{
    trace_free(&t->weapon);
    trace_free(&t->body);
    t->armed = 0;
}

field_set ent_weapon_fields(const field_set *have)
{
    field_set s = *have;
    field_set_del(&s, FIELD_RET);
    return s;
}

void ent_trace_clear(ent_trace *t, int armed, const field_set *have, unsigned body_bones,
                     unsigned weapon_bones)
{
    field_set none = {{0, 0}}, w = ent_weapon_fields(have);
    t->armed = armed != 0;
    trace_clear(&t->body, have, body_bones);
    trace_clear(&t->weapon, armed ? &w : &none, armed ? weapon_bones : 0);
}

trace *ent_trace_model(ent_trace *t, field_model m)
{
    return m == FIELD_MODEL_WEAPON ? &t->weapon : m == FIELD_MODEL_BODY ? &t->body : NULL;
}

const trace *ent_trace_model_c(const ent_trace *t, field_model m)
{
    return m == FIELD_MODEL_WEAPON ? &t->weapon : m == FIELD_MODEL_BODY ? &t->body : NULL;
}

int ent_trace_copy(ent_trace *dst, const ent_trace *src, ff_error *err)
{
    dst->armed = src->armed;
    if (trace_copy(&dst->weapon, &src->weapon, err) < 0) return -1;
    return trace_copy(&dst->body, &src->body, err);
}

/* The first field t carries, in table order (FIELD_RET when none). */
static field_id first_field(const trace *t)
{
    for (int f = 0; f < FIELD__COUNT; f++)
        if (trace_has(t, (field_id)f)) return (field_id)f;
    return FIELD_RET;
}

/*
 * Differences that are no call's: one side armed and not the other, or a
 * model's bone counts. Returns 1 with *d at tick 0 of that model, else 0.
 */
static int shape_differs(const ent_trace *ref, const ent_trace *orig, cmp_divergence *d)
{
    size_t rt = ref->body.n, ot = orig->body.n;
    if (ref->armed != orig->armed) {
        const trace *w = ref->armed ? &ref->weapon : &orig->weapon;
        field_id f = first_field(w);
        memset(d, 0, sizeof *d);
        d->model = FIELD_MODEL_WEAPON;
        d->field = f;
        d->ref = ref->armed && ref->weapon.n ? trace_value(&ref->weapon, 0, f, 0) : 0;
        d->orig = orig->armed && orig->weapon.n ? trace_value(&orig->weapon, 0, f, 0) : 0;
        d->cursor_off = 1;
    } else if (ref->armed && ref->weapon.lay.bones != orig->weapon.lay.bones) {
        cmp_traces(&ref->weapon, &orig->weapon, d);
        d->model = FIELD_MODEL_WEAPON;
    } else if (ref->body.lay.bones != orig->body.lay.bones) {
        cmp_traces(&ref->body, &orig->body, d);
        d->model = FIELD_MODEL_BODY;
    } else {
        return 0;
    }
    d->ref_ticks = rt;
    d->orig_ticks = ot;
    d->differing = 1;
    return 1;
}

/* The first difference of call i, in comparison order; 1 with *d, else 0. */
static int call_differs(const ent_trace *ref, const ent_trace *orig, size_t i,
                        const field_set *no_ret, const field_set *ret, cmp_divergence *d)
{
    if (ref->armed && i < ref->weapon.n && i < orig->weapon.n &&
        cmp_tick(&ref->weapon, &orig->weapon, i, d)) {
        d->model = FIELD_MODEL_WEAPON;
        return 1;
    }
    if (cmp_tick_in(&ref->body, &orig->body, i, no_ret, d) ||
        cmp_tick_in(&ref->body, &orig->body, i, ret, d)) {
        d->model = FIELD_MODEL_BODY;
        return 1;
    }
    return 0;
}

int ent_cmp(const ent_trace *ref, const ent_trace *orig, cmp_divergence *d)
{
    if (shape_differs(ref, orig, d)) return 1;
    memset(d, 0, sizeof *d);
    d->ref_ticks = ref->body.n;
    d->orig_ticks = orig->body.n;
    size_t common = ref->body.n < orig->body.n ? ref->body.n : orig->body.n;
    field_set all = {{~0ull, ~0ull}}, ret = {{0, 0}};
    field_set no_ret = ent_weapon_fields(&all);
    field_set_add(&ret, FIELD_RET);
    size_t i = 0;
    while (i < common && !call_differs(ref, orig, i, &no_ret, &ret, d))
        i++;
    if (i == common) {
        if (ref->body.n == orig->body.n) return 0;
        /* One side went on: its extra call against "no call", on the body's ret. */
        const trace *longer = ref->body.n > common ? &ref->body : &orig->body;
        d->tick = common;
        d->model = FIELD_MODEL_BODY;
        d->field = FIELD_RET;
        d->ref = ref->body.n > common ? trace_value(&ref->body, common, FIELD_RET, 0) : -1;
        d->orig = orig->body.n > common ? trace_value(&orig->body, common, FIELD_RET, 0) : -1;
        if (trace_cursor_at(longer, common, &d->cursor_off, &d->cursor_bit) < 0)
            trace_cursor_at(longer == &ref->body ? &orig->body : &ref->body, common, &d->cursor_off,
                            &d->cursor_bit);
        d->differing = 1;
        return 1;
    }
    for (size_t k = i; k < common; k++) {
        if (ref->armed && k < ref->weapon.n && k < orig->weapon.n)
            d->differing += cmp_count_tick(&ref->weapon, &orig->weapon, k);
        d->differing += cmp_count_tick(&ref->body, &orig->body, k);
    }
    return 1;
}

int32_t ent_weapon_end(const trace *w)
{
    if (!w->n || !trace_has(w, FIELD_CMD_FRAME) || !trace_has(w, FIELD_CMD_TOTAL)) return -1;
    /* StartClip's own read returns 1 only when the total is 0 (the frame starts at 0). */
    if (trace_value(w, 0, FIELD_CMD_TOTAL, 0) == 0) return 0;
    for (size_t t = 1; t < w->n; t++)
        if (trace_value(w, t - 1, FIELD_CMD_FRAME, 0) >= trace_value(w, t - 1, FIELD_CMD_TOTAL, 0))
            return (int32_t)t;
    return -1;
}

int32_t ent_root_offset(const ent_trace *t, size_t i, int k)
{
    static const field_id root[3] = {FIELD_ROOT_X, FIELD_ROOT_Y, FIELD_ROOT_Z};
    if (!t->armed || k < 0 || k > 2 || i >= t->weapon.n || i >= t->body.n ||
        !trace_has(&t->weapon, root[k]) || !trace_has(&t->body, root[k]))
        return 0;
    return trace_value(&t->weapon, i, root[k], 0) - trace_value(&t->body, i, root[k], 0);
}
