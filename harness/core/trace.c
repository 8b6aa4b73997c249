/*
 * harness/core/trace.c: laying out, growing and reading clip traces.
 */
#include "harness/core/trace.h"

#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

void trace_layout_make(trace_layout *l, const field_set *have, unsigned bones)
{
    l->have = *have;
    l->bones = bones;
    size_t at = 0;
    for (int i = 0; i < FIELD__COUNT;) {
        if (!field_is_per_bone((field_id)i)) {
            l->stride[i] = 0;
            l->slot[i] = field_set_has(have, (field_id)i) ? (int32_t)at++ : -1;
            i++;
            continue;
        }
        /* A block of consecutive per-bone rows: the carried ones, bone by bone. */
        int end = field_block_end((field_id)i);
        uint16_t k = 0;
        for (int c = i; c < end; c++) k += (uint16_t)field_set_has(have, (field_id)c);
        uint16_t c = 0;
        for (; i < end; i++) {
            l->stride[i] = k;
            l->slot[i] = field_set_has(have, (field_id)i) ? (int32_t)(at + c++) : -1;
        }
        at += (size_t)k * bones;
    }
    l->width = at;
}

int trace_layout_field(const trace_layout *l, size_t s, field_id *f, unsigned *bone)
{
    for (int i = 0; i < FIELD__COUNT; i++) {
        if (l->slot[i] < 0 || s < (size_t)l->slot[i]) continue;
        size_t d = s - (size_t)l->slot[i];
        if (!l->stride[i] ? d == 0 : d % l->stride[i] == 0 && d / l->stride[i] < l->bones) {
            *f = (field_id)i;
            *bone = l->stride[i] ? (unsigned)(d / l->stride[i]) : 0;
            return 0;
        }
    }
    return -1;
}

void trace_init(trace *t)
{
    memset(t, 0, sizeof *t);
    field_set none = {{0, 0}};
    trace_layout_make(&t->lay, &none, 0);
}

/* t's own array back in v, the lent rows forgotten. */
static void take_back(trace *t)
{
    if (!t->lent) return;
    t->v = t->own;
    t->cap = t->own_cap;
    t->own = NULL;
    t->own_cap = 0;
    t->lent = 0;
}

void trace_lend(trace *t, const int32_t *rows, size_t n)
{
    take_back(t);
    t->own = t->v;
    t->own_cap = t->cap;
    t->v = (int32_t *)(uintptr_t)rows; /* read only: every change takes the own array back */
    t->n = t->cap = n;
    t->sparse = 0;
    t->lent = 1;
}

void trace_free(trace *t)
{
    take_back(t);
    free(t->v);
    free(t->tick);
    trace_init(t);
}

void trace_clear(trace *t, const field_set *have, unsigned bones)
{
    take_back(t);
    size_t slots = t->cap * t->lay.width;
    trace_layout_make(&t->lay, have, bones);
    /* The capacity is counted in ticks of the new width. */
    t->cap = slots / (t->lay.width ? t->lay.width : 1);
    t->n = 0;
    t->sparse = 0;
}

/* Room for n more ticks (in t's own array: lent rows are copied there first). */
static int reserve_n(trace *t, size_t n, ff_error *err)
{
    if (t->lent) {
        const int32_t *rows = t->v;
        size_t had = t->n;
        take_back(t);
        t->n = 0;
        if (reserve_n(t, had + n, err) < 0) return -1;
        memcpy(t->v, rows, had * t->lay.width * sizeof *t->v);
        t->n = had;
    }
    /* one element: a tick's row of lay.width values */
    size_t w = t->lay.width ? t->lay.width : 1;
    if (w > SIZE_MAX / sizeof *t->v || n > SIZE_MAX - t->n ||
        grow_array(&t->v, &t->cap, t->n + n, w * sizeof *t->v, 64) < 0)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory growing a trace of %zu ticks",
                            t->n);
    return 0;
}

static int reserve(trace *t, ff_error *err)
{
    return reserve_n(t, 1, err);
}

/* Per-tick field sets for ticks 0..n-1 (the layout's for the ticks before). */
static int reserve_ticks(trace *t, size_t n, ff_error *err)
{
    if (GROW(t->tick, t->tick_cap, n, 64) < 0)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory growing a trace");
    if (!t->sparse)
        for (size_t i = 0; i < t->n; i++) t->tick[i] = t->lay.have;
    t->sparse = 1;
    return 0;
}

int trace_tick_limit(trace *t, size_t i, const field_set *have, ff_error *err)
{
    if (i >= t->n) return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "no tick %zu to limit", i);
    if (reserve_ticks(t, t->n, err) < 0) return -1;
    t->tick[i] = field_set_and(have, &t->lay.have);
    return 0;
}

int32_t *trace_push_blank(trace *t, ff_error *err)
{
    if (reserve(t, err) < 0 || (t->sparse && reserve_ticks(t, t->n + 1, err) < 0)) return NULL;
    if (t->sparse) t->tick[t->n] = t->lay.have;
    int32_t *row = t->v + t->n * t->lay.width;
    memset(row, 0, t->lay.width * sizeof *row);
    t->n++;
    return row;
}

int trace_push_rows(trace *t, const void *rows, size_t n, ff_error *err)
{
    if (!n) return 0;
    if (reserve_n(t, n, err) < 0 || (t->sparse && reserve_ticks(t, t->n + n, err) < 0)) return -1;
    for (size_t i = 0; t->sparse && i < n; i++)
        t->tick[t->n + i] = t->lay.have;
    memcpy(t->v + t->n * t->lay.width, rows, n * t->lay.width * sizeof *t->v);
    t->n += n;
    return 0;
}

int trace_push_state(trace *t, const field_state *s, ff_error *err)
{
    if (reserve(t, err) < 0 || (t->sparse && reserve_ticks(t, t->n + 1, err) < 0)) return -1;
    if (t->sparse) t->tick[t->n] = t->lay.have;
    const trace_layout *l = &t->lay;
    int32_t *row = t->v + t->n * l->width;
    for (int f = 0; f < FIELD__COUNT; f++) {
        if (l->slot[f] < 0) continue;
        if (!l->stride[f]) {
            row[l->slot[f]] = field_read((field_id)f, 0, s);
            continue;
        }
        field_read_bones((field_id)f, s, l->bones, row + l->slot[f], l->stride[f]);
    }
    t->n++;
    return 0;
}

int trace_copy(trace *dst, const trace *src, ff_error *err)
{
    trace_clear(dst, &src->lay.have, src->lay.bones);
    if (trace_push_rows(dst, src->v, src->n, err) < 0) return -1;
    for (size_t i = 0; src->sparse && i < src->n; i++)
        if (trace_tick_limit(dst, i, &src->tick[i], err) < 0) return -1;
    return 0;
}

int32_t trace_value(const trace *t, size_t i, field_id f, unsigned bone)
{
    if (!trace_has(t, f) || (t->lay.stride[f] && bone >= t->lay.bones)) return 0;
    return trace_row(t, i)[trace_slot(&t->lay, f, t->lay.stride[f] ? bone : 0)];
}

void trace_set(trace *t, size_t i, field_id f, unsigned bone, int32_t v)
{
    if (!trace_has(t, f) || (t->lay.stride[f] && bone >= t->lay.bones)) return;
    t->v[i * t->lay.width + trace_slot(&t->lay, f, t->lay.stride[f] ? bone : 0)] = v;
}

int trace_cursor_at(const trace *t, size_t i, int32_t *off, int32_t *bit)
{
    *off = 1;
    *bit = 0;
    if (i == 0) return 0;
    if (!trace_has(t, FIELD_CMD_OFF) || !trace_has(t, FIELD_CMD_BIT) || i > t->n) return -1;
    *off = trace_value(t, i - 1, FIELD_CMD_OFF, 0);
    *bit = trace_value(t, i - 1, FIELD_CMD_BIT, 0);
    return 0;
}
