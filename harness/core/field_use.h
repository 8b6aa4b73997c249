/*
 * harness/core/field_use.h: what one clip's comparison looked at, per field
 * class (fields.h field_classes): the ticks compared on each class, the
 * ticks where the authority carries a class the candidate left out, and
 * whether the authority's values there move away from the skeleton's bytes
 * before the clip (then leaving the class out hides a pose the engine
 * changes). Counts only: decides no status, allocates nothing, does not
 * know where either trace came from.
 */
#ifndef FF8_HARNESS_CORE_FIELD_USE_H
#define FF8_HARNESS_CORE_FIELD_USE_H

#include <stdint.h>

#include "harness/core/fields.h"
#include "harness/core/results.h"
#include "harness/core/trace.h"

/*
 * Fills *out for the ticks both traces have. can: the fields the
 * candidate's format can carry (a class outside it is not "left out", it
 * is not in the format). skel0: the skeleton's bytes before the clip
 * (DAT_SKEL_HEADER + 48 * bones, auth's bone count); NULL: a class left
 * out counts as moving.
 */
void field_use_clip(const field_classes *fc, const trace *cand, const trace *auth,
                    const field_set *can, const uint8_t *skel0, res_fields *out);

/* The classes (bit k) left out on some tick of u. */
unsigned field_use_unsupplied(const field_classes *fc, const res_fields *u);

#endif
