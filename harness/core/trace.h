/*
 * harness/core/trace.h: the trace of one clip, from either side: the state
 * after each call (StartClip at tick 0, then Battle_ReadAnimation per tick
 * up to and including the first call that returns 1), as the values of the
 * fields the trace carries (a field_set: whole levels for an engine, what
 * it supplies for an outside decoder).
 *
 * A tick is a row of int32 slots in comparison order (fields.h): scalar
 * fields one slot each, a block of per-bone fields bone by bone. Two traces
 * with the same layout compare with one memcmp per tick.
 *
 * A trace owns its array and reuses it across clips (trace_clear keeps
 * memory), so the hot path allocates only while a trace grows. Nothing
 * here knows where a trace came from.
 */
#ifndef FF8_HARNESS_CORE_TRACE_H
#define FF8_HARNESS_CORE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "harness/core/fields.h"

/* Where each field of a set sits in a tick's slots, for a bone count. */
typedef struct trace_layout {
    field_set have;
    unsigned bones;
    size_t width;                /* slots per tick */
    int32_t slot[FIELD__COUNT];  /* first slot (bone 0), -1 when not carried */
    uint16_t stride[FIELD__COUNT]; /* per-bone: slots from one bone to the next */
} trace_layout;

/* Lays out the fields of have for bones bones. */
void trace_layout_make(trace_layout *l, const field_set *have, unsigned bones);
/* The (field, bone) of slot s of a layout; -1 when s is past its width. */
int trace_layout_field(const trace_layout *l, size_t s, field_id *f, unsigned *bone);

typedef struct trace {
    trace_layout lay;
    size_t n, cap;      /* ticks, ticks allocated */
    int32_t *v;         /* n * lay.width slots */
    int sparse;         /* some tick carries fewer fields than the layout */
    field_set *tick;    /* when sparse: the fields tick i carries (cap entries) */
    size_t tick_cap;
    /* trace_lend: v is rows the trace does not own; its own array waits in own */
    int lent;
    int32_t *own;
    size_t own_cap;
} trace;

void trace_init(trace *t);
void trace_free(trace *t);
/* Forgets the ticks (keeps memory) and lays out the fields of have for bones. */
void trace_clear(trace *t, const field_set *have, unsigned bones);

/*
 * Appends the state after one call, every carried field read from the
 * game's bytes. Returns -1 (FF_E_NOMEM) when memory runs out.
 */
int trace_push_state(trace *t, const field_state *s, ff_error *err);
/*
 * Appends a tick of zeros and returns its slots, for a reader to fill with
 * trace_tick_set; NULL with err when memory runs out.
 */
int32_t *trace_push_blank(trace *t, ff_error *err);
/*
 * Appends n ticks whose slots are rows (n rows of the layout's width, in
 * its order). Returns 0, or -1 (FF_E_NOMEM) when memory runs out.
 */
int trace_push_rows(trace *t, const void *rows, size_t n, ff_error *err);
/*
 * Makes t's ticks the n rows at rows (t's layout, aligned for int32_t),
 * read in place, not copied: t is then read only, and valid while that
 * memory is. Its own memory comes back at its next change: trace_clear
 * drops the lent rows, a push copies them first, trace_free frees only its
 * own. Not for a sparse trace (t->sparse 0 after).
 */
void trace_lend(trace *t, const int32_t *rows, size_t n);
/* Copies src into dst (dst's memory reused). */
int trace_copy(trace *dst, const trace *src, ff_error *err);
/*
 * Marks tick i as carrying only the fields of have (within the layout's):
 * a frame for which an outside decoder supplied no scales. Those fields are
 * then not compared at that tick. Returns -1 (FF_E_NOMEM) when memory runs out.
 */
int trace_tick_limit(trace *t, size_t i, const field_set *have, ff_error *err);
/* The fields tick i carries (the layout's unless limited). */
static inline field_set trace_tick_fields(const trace *t, size_t i)
{
    return t->sparse ? t->tick[i] : t->lay.have;
}

static inline int trace_has(const trace *t, field_id f)
{
    return field_set_has(&t->lay.have, f);
}
static inline const int32_t *trace_row(const trace *t, size_t i)
{
    return t->v + i * t->lay.width;
}
static inline size_t trace_slot(const trace_layout *l, field_id f, unsigned bone)
{
    return (size_t)l->slot[f] + (size_t)bone * l->stride[f];
}

/* The value of a carried field (bone for per-bone fields) at tick i; 0 when not carried. */
int32_t trace_value(const trace *t, size_t i, field_id f, unsigned bone);
/* Sets a carried field at tick i (nothing when not carried); t not lent. */
void trace_set(trace *t, size_t i, field_id f, unsigned bone, int32_t v);

/*
 * The cursor (byte offset from the clip start, bit) the engine starts tick
 * i from: StartClip's (1, 0) for tick 0, else the AnimCmd after tick i-1.
 * Returns 0, or -1 when the trace does not carry the cursor (off, bit 0).
 */
int trace_cursor_at(const trace *t, size_t i, int32_t *off, int32_t *bit);

#endif
