/*
 * harness/core/compare.c: first divergence between two traces. The fast path is
 * a memcmp per tick; the field table is walked only where bytes differ.
 */
#include "harness/core/compare.h"

#include <string.h>

static int tick_equal(const trace *a, const trace *b, size_t i)
{
    const trace_tick *x = &a->ticks[i], *y = &b->ticks[i];
    if (x->ret != y->ret || memcmp(x->cmd, y->cmd, 8) != 0 || x->skel_flag != y->skel_flag ||
        memcmp(x->root, y->root, sizeof x->root) != 0)
        return 0;
    return memcmp(trace_bone6(a, i), trace_bone6(b, i),
                  (size_t)a->bones * 6 * sizeof(int16_t)) == 0;
}

static void set_div(cmp_divergence *d, const trace *ref, const trace *orig, size_t i,
                    field_id f, unsigned bone)
{
    d->tick = i;
    d->field = f;
    d->bone = bone;
    d->ref = trace_value(ref, i, f, bone);
    d->orig = trace_value(orig, i, f, bone);
    trace_cursor_at(ref, i, &d->cursor_off, &d->cursor_bit);
}

static int scalar_differs(const trace *ref, const trace *orig, size_t i, int from, int to,
                          cmp_divergence *d)
{
    for (int f = from; f < to; f++)
        if (trace_value(ref, i, f, 0) != trace_value(orig, i, f, 0)) {
            set_div(d, ref, orig, i, f, 0);
            return 1;
        }
    return 0;
}

int cmp_tick(const trace *ref, const trace *orig, size_t i, cmp_divergence *d)
{
    if (scalar_differs(ref, orig, i, 0, FIELD_FIRST_BONE, d)) return 1;
    const int16_t *a = trace_bone6(ref, i), *b = trace_bone6(orig, i);
    for (unsigned bone = 0; bone < ref->bones; bone++)
        for (int c = 0; c < FIELD_BONE_CHANNELS; c++)
            if (a[bone * 6 + c] != b[bone * 6 + c]) {
                set_div(d, ref, orig, i, FIELD_FIRST_BONE + c, bone);
                return 1;
            }
    return scalar_differs(ref, orig, i, FIELD_LAST_BONE + 1, FIELD__COUNT, d);
}

static uint64_t count_tick(const trace *ref, const trace *orig, size_t i)
{
    uint64_t n = 0;
    for (int f = 0; f < FIELD__COUNT; f++)
        if (!field_is_per_bone(f)) n += trace_value(ref, i, f, 0) != trace_value(orig, i, f, 0);
    const int16_t *a = trace_bone6(ref, i), *b = trace_bone6(orig, i);
    for (size_t k = 0; k < (size_t)ref->bones * 6; k++) n += a[k] != b[k];
    return n;
}

int cmp_traces(const trace *ref, const trace *orig, cmp_divergence *d)
{
    memset(d, 0, sizeof *d);
    d->ref_ticks = ref->n;
    d->orig_ticks = orig->n;
    size_t common = ref->n < orig->n ? ref->n : orig->n;
    if (ref->bones != orig->bones) {
        set_div(d, ref, orig, 0, FIELD_FIRST_BONE, 0);
        d->differing = 1;
        return 1;
    }
    size_t i = 0;
    while (i < common && tick_equal(ref, orig, i)) i++;
    if (i == common) {
        if (ref->n == orig->n) return 0;
        /*
         * One side went on after the other stopped: the longer one's extra
         * tick is compared against "no call" as a ret difference.
         */
        d->tick = common;
        d->field = FIELD_RET;
        d->ref = ref->n > common ? ref->ticks[common].ret : -1;
        d->orig = orig->n > common ? orig->ticks[common].ret : -1;
        trace_cursor_at(ref->n > common ? ref : orig, common, &d->cursor_off, &d->cursor_bit);
        d->differing = 1;
        return 1;
    }
    cmp_tick(ref, orig, i, d);
    for (size_t k = i; k < common; k++) d->differing += count_tick(ref, orig, k);
    return 1;
}
