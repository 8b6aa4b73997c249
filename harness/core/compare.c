/*
 * harness/core/compare.c: first divergence between two traces. When both
 * carry the same fields the fast path is a memcmp per tick and the first
 * differing slot names the field; otherwise the common fields are walked in
 * comparison order.
 */
#include "harness/core/compare.h"

#include <string.h>

field_set cmp_fields(const trace *a, const trace *b)
{
    return field_set_and(&a->lay.have, &b->lay.have);
}

/* Same slots for the same fields at every tick: rows compare as memory. */
static int same_layout(const trace *a, const trace *b)
{
    return a->lay.bones == b->lay.bones && field_set_eq(&a->lay.have, &b->lay.have) &&
           !a->sparse && !b->sparse;
}

static void set_div(cmp_divergence *d, const trace *ref, const trace *orig, size_t i,
                    field_id f, unsigned bone)
{
    d->tick = i;
    d->field = f;
    d->bone = bone;
    d->ref = i < ref->n ? trace_value(ref, i, f, bone) : 0;
    d->orig = i < orig->n ? trace_value(orig, i, f, bone) : 0;
    /* Where the tick began: the candidate's cursor, or the original's when it has none. */
    if (trace_cursor_at(ref, i, &d->cursor_off, &d->cursor_bit) < 0)
        trace_cursor_at(orig, i, &d->cursor_off, &d->cursor_bit);
}

/* Calls visit(f, bone) on every common field of a tick in comparison order until it returns 1. */
typedef int (*field_visit)(const trace *ref, const trace *orig, size_t i, field_id f,
                           unsigned bone, void *arg);

static int walk_common(const trace *ref, const trace *orig, size_t i, const field_set *only,
                       field_visit visit, void *arg)
{
    field_set a = trace_tick_fields(ref, i), b = trace_tick_fields(orig, i);
    field_set both = field_set_and(&a, &b);
    if (only) both = field_set_and(&both, only);
    unsigned bones = ref->lay.bones < orig->lay.bones ? ref->lay.bones : orig->lay.bones;
    for (int f = 0; f < FIELD__COUNT;) {
        if (!field_is_per_bone((field_id)f)) {
            if (field_set_has(&both, (field_id)f) && visit(ref, orig, i, (field_id)f, 0, arg))
                return 1;
            f++;
            continue;
        }
        int end = field_block_end((field_id)f), any = 0;
        /* A block none of whose fields both carry (the pose cells beside a frame-level
         * trace) is passed over whole, not bone by bone. */
        for (int c = f; c < end && !any; c++) any = field_set_has(&both, (field_id)c);
        for (unsigned b = 0; any && b < bones; b++)
            for (int c = f; c < end; c++)
                if (field_set_has(&both, (field_id)c) && visit(ref, orig, i, (field_id)c, b, arg))
                    return 1;
        f = end;
    }
    return 0;
}

static int first_differing(const trace *ref, const trace *orig, size_t i, field_id f,
                           unsigned bone, void *arg)
{
    if (trace_value(ref, i, f, bone) == trace_value(orig, i, f, bone)) return 0;
    set_div(arg, ref, orig, i, f, bone);
    return 1;
}

int cmp_tick_in(const trace *ref, const trace *orig, size_t i, const field_set *only,
                cmp_divergence *d)
{
    if (same_layout(ref, orig)) {
        const int32_t *a = trace_row(ref, i), *b = trace_row(orig, i);
        for (size_t s = 0; s < ref->lay.width; s++) {
            field_id f;
            unsigned bone;
            if (a[s] != b[s] && trace_layout_field(&ref->lay, s, &f, &bone) == 0 &&
                (!only || field_set_has(only, f))) {
                set_div(d, ref, orig, i, f, bone);
                return 1;
            }
        }
        return 0;
    }
    return walk_common(ref, orig, i, only, first_differing, d);
}

int cmp_tick(const trace *ref, const trace *orig, size_t i, cmp_divergence *d)
{
    return cmp_tick_in(ref, orig, i, NULL, d);
}

static int count_differing(const trace *ref, const trace *orig, size_t i, field_id f,
                           unsigned bone, void *arg)
{
    *(uint64_t *)arg += trace_value(ref, i, f, bone) != trace_value(orig, i, f, bone);
    return 0;
}

uint64_t cmp_count_tick(const trace *ref, const trace *orig, size_t i)
{
    uint64_t n = 0;
    if (same_layout(ref, orig)) {
        const int32_t *a = trace_row(ref, i), *b = trace_row(orig, i);
        for (size_t s = 0; s < ref->lay.width; s++) n += a[s] != b[s];
        return n;
    }
    walk_common(ref, orig, i, NULL, count_differing, &n);
    return n;
}

typedef struct diff_visit {
    cmp_diff_fn fn;
    void *arg;
    int stop;
} diff_visit;

static int visit_differing(const trace *ref, const trace *orig, size_t i, field_id f,
                           unsigned bone, void *arg)
{
    diff_visit *v = arg;
    int32_t a = trace_value(ref, i, f, bone), b = trace_value(orig, i, f, bone);
    if (a != b) v->stop = v->fn(v->arg, f, bone, a, b);
    return v->stop != 0;
}

int cmp_each_differing(const trace *ref, const trace *orig, size_t i, cmp_diff_fn fn, void *arg)
{
    if (same_layout(ref, orig)) {
        const int32_t *a = trace_row(ref, i), *b = trace_row(orig, i);
        for (size_t s = 0; s < ref->lay.width; s++) {
            field_id f;
            unsigned bone;
            int rc;
            if (a[s] != b[s] && trace_layout_field(&ref->lay, s, &f, &bone) == 0 &&
                (rc = fn(arg, f, bone, a[s], b[s])) != 0)
                return rc;
        }
        return 0;
    }
    diff_visit v = {fn, arg, 0};
    walk_common(ref, orig, i, NULL, visit_differing, &v);
    return v.stop;
}

static int tick_equal(const trace *ref, const trace *orig, size_t i)
{
    if (same_layout(ref, orig))
        return memcmp(trace_row(ref, i), trace_row(orig, i), ref->lay.width * sizeof(int32_t)) ==
               0;
    cmp_divergence d;
    return !cmp_tick(ref, orig, i, &d);
}

/* The first per-bone field both carry (the bone count itself differs). */
static field_id first_bone_field(const trace *ref, const trace *orig)
{
    field_set both = cmp_fields(ref, orig);
    for (int f = 0; f < FIELD__COUNT; f++)
        if (field_is_per_bone((field_id)f) && field_set_has(&both, (field_id)f))
            return (field_id)f;
    return FIELD_RET;
}

int cmp_traces(const trace *ref, const trace *orig, cmp_divergence *d)
{
    memset(d, 0, sizeof *d);
    d->ref_ticks = ref->n;
    d->orig_ticks = orig->n;
    size_t common = ref->n < orig->n ? ref->n : orig->n;
    if (ref->lay.bones != orig->lay.bones) {
        set_div(d, ref, orig, 0, first_bone_field(ref, orig), 0);
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
        d->ref = ref->n > common ? trace_value(ref, common, FIELD_RET, 0) : -1;
        d->orig = orig->n > common ? trace_value(orig, common, FIELD_RET, 0) : -1;
        if (trace_cursor_at(ref->n > common ? ref : orig, common, &d->cursor_off,
                            &d->cursor_bit) < 0)
            trace_cursor_at(ref->n > common ? orig : ref, common, &d->cursor_off, &d->cursor_bit);
        d->differing = 1;
        return 1;
    }
    cmp_tick(ref, orig, i, d);
    for (size_t k = i; k < common; k++) d->differing += cmp_count_tick(ref, orig, k);
    return 1;
}
