/*
 * harness/core/entity.h: the trace of one entity on one clip, from either
 * side, and its comparison. An entity is a body and at most one weapon
 * model driven by one clock (QueueAnimation, then AdvanceBy1 until the
 * body's end call: docs/pose.md section 5); after every call the state of both
 * models is one row of each model's trace, so both traces have one tick
 * per call.
 *
 * The call's result (EAX) is the body's: the body's trace carries the ret
 * field, the weapon's never does (the engine drops the weapon's result,
 * and nothing in memory records it). Where the weapon's own clip ended is
 * read from its AnimCmd instead (ent_weapon_end).
 *
 * Comparison order within one call: the weapon (advanced first), then the
 * body, then the call's result; fields within a model in the field table's
 * order. Which model the engine advances first cannot be seen between calls
 * (the two share no state), so it is not checked. Nothing here allocates
 * except the traces themselves.
 */
#ifndef FF8_HARNESS_CORE_ENTITY_H
#define FF8_HARNESS_CORE_ENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/compare.h"
#include "harness/core/field_model.h"
#include "harness/core/trace.h"

typedef struct ent_trace {
    int armed;    /* 1: the entity has a weapon slot and weapon holds its rows */
    trace weapon; /* no ret field */
    trace body;   /* the call's result in ret */
} ent_trace;

void ent_trace_init(ent_trace *t);
void ent_trace_free(ent_trace *t);
/*
 * Forgets the ticks (keeps memory): the body laid out with the fields of
 * have for body_bones bones, the weapon (when armed) with ent_weapon_fields.
 */
void ent_trace_clear(ent_trace *t, int armed, const field_set *have, unsigned body_bones,
                     unsigned weapon_bones);
/* The model's trace (FIELD_MODEL_WEAPON or FIELD_MODEL_BODY); NULL otherwise. */
trace *ent_trace_model(ent_trace *t, field_model m);
const trace *ent_trace_model_c(const ent_trace *t, field_model m);
/* Copies src into dst (dst's memory reused). Returns 0, or -1 (FF_E_NOMEM). */
int ent_trace_copy(ent_trace *dst, const ent_trace *src, ff_error *err);

/* The fields a weapon's trace carries of have: all but the call's result. */
field_set ent_weapon_fields(const field_set *have);

/*
 * Compares two traces of the same entity clip, tick by tick in the order
 * above. Returns 0 when they agree (same number of calls, every common
 * field of every call of both models), 1 with *d at the first difference
 * (d->model says which model; a side that made more calls than the other
 * differs on the body's ret at the first call the other did not make, -1
 * standing for "no call", as cmp_traces says). Differing armed flags or
 * bone counts differ at tick 0 on that model's first per-bone field.
 * d->differing counts the differing values of both models from that tick
 * to the end of the shorter side.
 */
int ent_cmp(const ent_trace *ref, const ent_trace *orig, cmp_divergence *d);

/*
 * The call at which the weapon's own clip ended: the first call it made
 * with its frame counter already at its total (the call that returned 1
 * for it), worked out from its AnimCmd rows. -1 when it had not ended by
 * the trace's last call, when the trace carries no cmd.frame and
 * cmd.total, or when it has no tick.
 */
int32_t ent_weapon_end(const trace *weapon);

/*
 * The weapon's root minus the body's root, axis k (0..2), at tick i: the
 * offset that places the weapon in the hand (docs/pose.md section 5). 0 when a
 * model does not carry that root field or has no tick i.
 */
int32_t ent_root_offset(const ent_trace *t, size_t i, int k);

#endif
