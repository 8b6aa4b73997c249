/*
 * harness/core/compare.h: the field-by-field comparison of two clip traces
 * (candidate vs original), tick by tick, down to the first divergence.
 *
 * Only the fields both traces carry are compared: an outside decoder that
 * supplies no scales is compared on everything else. Fields are visited in
 * comparison order within a tick (fields.h: the order the engine writes
 * in), per-bone fields bone by bone, so "first" is well defined and the same
 * for every report. Nothing here allocates.
 */
#ifndef FF8_HARNESS_CORE_COMPARE_H
#define FF8_HARNESS_CORE_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/field_model.h"
#include "harness/core/fields.h"
#include "harness/core/trace.h"

typedef struct cmp_divergence {
    size_t tick;
    field_model model;   /* the entity level's model; FIELD_MODEL_NONE for a lone model */
    field_id field;
    unsigned bone;       /* per-bone fields */
    int32_t ref, orig;   /* values at the divergence */
    int32_t cursor_off;  /* cursor (bytes from the clip start, bit) */
    int32_t cursor_bit;  /* where that tick began */
    uint64_t differing;  /* field values differing from this tick to the end of the shorter trace */
    size_t ref_ticks, orig_ticks;
} cmp_divergence;

/* The fields a comparison of a and b looks at: those both carry. */
field_set cmp_fields(const trace *a, const trace *b);

/*
 * Compares two traces of the same clip. Returns 0 when they agree (same
 * length, every common field of every tick), 1 when they differ, with *d
 * at the first differing field. Traces of different bone counts differ at
 * tick 0, on the first per-bone field they share.
 */
int cmp_traces(const trace *ref, const trace *orig, cmp_divergence *d);

/* Fills *d as the first differing field of tick i and returns 1, or returns 0 if none. */
int cmp_tick(const trace *ref, const trace *orig, size_t i, cmp_divergence *d);
/* cmp_tick on the fields of only alone (the others are not looked at). */
int cmp_tick_in(const trace *ref, const trace *orig, size_t i, const field_set *only,
                cmp_divergence *d);
/* The number of common field values that differ at tick i (both traces have it). */
uint64_t cmp_count_tick(const trace *ref, const trace *orig, size_t i);

/*
 * Calls fn on every common field value that differs at tick i (both
 * traces have it), in comparison order, until fn returns non-zero; returns
 * that value, or 0 when fn never stopped the walk.
 */
typedef int (*cmp_diff_fn)(void *arg, field_id f, unsigned bone, int32_t ref, int32_t orig);
int cmp_each_differing(const trace *ref, const trace *orig, size_t i, cmp_diff_fn fn, void *arg);

#endif
