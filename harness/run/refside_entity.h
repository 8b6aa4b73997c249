/*
 * harness/run/refside_entity.h: one entity clip run by the reference
 * engine into an entity trace, following the harness protocol: both
 * skeletons as loaded from their files, both AnimCmds zeroed with the
 * mode's flag bits, the entity's speed fields (status byte, sequence pair,
 * +2) set, QueueAnimation (tick 0), then AdvanceBy1 until the first call
 * whose result (the body's) is 1. After every call, one row per model; the
 * weapon's row never carries ret (ent_weapon_fields).
 */
#ifndef FF8_HARNESS_RUN_REFSIDE_ENTITY_H
#define FF8_HARNESS_RUN_REFSIDE_ENTITY_H

#include <stdint.h>

#include "harness/core/entity.h"
#include "harness/core/modes.h"
#include "ref/engine.h"

/* The sequence pair the entity level points +0x74 to: bytes 0 and 2 agree, so the status applies. */
extern const uint8_t refside_entity_pair[3];

/* The speed fields of an entity in status s (harness/core/modes.h): +2 zero, the valid pair. */
ref_entity_speed refside_entity_speed(entity_status_id s);

/* The pose level of an entity: the convention and each model's two world bases. */
typedef struct refside_entity_pose {
    const ref_pose_opts *opts;
    ref_matrix body[2];   /* the identity and the fixed base */
    ref_matrix weapon[2]; /* the same composed with the weapon slot's attach matrix */
} refside_entity_pose;

/* The pose of an entity whose weapon slot holds these attach fields (pose_attach_bases). */
void refside_entity_pose_make(const ref_pose_opts *opts, const int16_t attach_rot[3],
                              const int16_t attach_trans[3], refside_entity_pose *out);

/*
 * Runs clip of e (e->weapon NULL: a NULL weapon slot) with flags preset on
 * both AnimCmds and the entity's speed fields from speed (NULL: none, the
 * flags are kept, ref/engine.h's older reading) into out (cleared first; the body carries the fields of have).
 * With pose (the pose level; have then holds its fields), after every call
 * each model's bone matrices are rebuilt from its skeleton as it is and
 * its world matrices computed under its two bases, the same protocol as
 * the original's side (harness/run/run_entity.c). Returns 0, or -1 with
 * err (prefixed "weapon: " or "body: " by the model that failed); out then
 * holds the calls made before the error. A clip index past
 * REFSIDE_MAX_CLIP is refused.
 */
int refside_entity_clip(ref_entity *e, const ref_entity_speed *speed, uint8_t flags, uint32_t clip,
                        const field_set *have, const refside_entity_pose *pose, ent_trace *out,
                        ff_error *err);

#endif
