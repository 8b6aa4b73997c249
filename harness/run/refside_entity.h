/*
 * harness/run/refside_entity.h: one entity clip run by the reference
 * engine into an entity trace, following the harness protocol: both
 * skeletons as loaded from their files, both AnimCmds zeroed with the
 * mode's flag bits, QueueAnimation (tick 0), then AdvanceBy1 until the
 * first call whose result (the body's) is 1. After every call, one row per
 * model; the weapon's row never carries ret (ent_weapon_fields).
 */
#ifndef FF8_HARNESS_RUN_REFSIDE_ENTITY_H
#define FF8_HARNESS_RUN_REFSIDE_ENTITY_H

#include <stdint.h>

#include "harness/core/entity.h"
#include "ref/engine.h"

/*
 * Runs clip of e (e->weapon NULL: a NULL weapon slot) in the mode given by
 * flags into out (cleared first; the body carries the fields of have).
 * Returns 0, or -1 with err (prefixed "weapon: " or "body: " by the model
 * that failed); out then holds the calls made before the error. A clip index
 * past REFSIDE_MAX_CLIP is refused.
 */
int refside_entity_clip(ref_entity *e, uint8_t flags, uint32_t clip, const field_set *have,
                        ent_trace *out, ff_error *err);

#endif
