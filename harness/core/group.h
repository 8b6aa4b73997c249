/*
 * harness/core/group.h: the shape of a difference between a reference value
 * and an original value, the part of a mismatch's signature that says what
 * kind of bug it smells of (a missing sign extension differs by a power of
 * two, a halving by shift instead of division is off by one, ...).
 */
#ifndef FF8_HARNESS_CORE_GROUP_H
#define FF8_HARNESS_CORE_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/fields.h"
#include "harness/core/results.h"
#include "harness/core/trace.h"

/*
 * Writes the shape of (ref, orig) for field f into out:
 *   ret:        "ends_early" (original returned 1 first), "ends_late",
 *               "no_call" (one side made fewer calls)
 *   flag bytes: "xor_0xNN"
 *   16-bit fields: "missing_16bit_wrap" (equal modulo 2^16: the candidate
 *               did not wrap where the engine's field does)
 *   scales:     "neutral_scale" (the candidate says 1.0, the engine's bytes
 *               a non-zero other value: an absent scale taken as identity)
 *   values:     "orig_zero", "ref_zero", "off_by_one", "differs_by_2^k"
 *               (k >= 3), "negated", "doubled", "halved", "other"
 */
void group_shape(field_id f, int32_t ref, int32_t orig, char *out, size_t n);

/*
 * Files mismatching frame result idx (its div already set) under its
 * signature, keeping the earliest example's diverging channel and, for a
 * pose field when parents (the skeleton's parent indexes) is given, its
 * posed skeleton at the divergence for a picture. The run calls it under
 * its lock. Returns 0, -1 when memory runs out (the result then belongs to
 * no group).
 */
int group_add_frame(run_results *res, size_t idx, const trace *ref, const trace *orig,
                    const int16_t *parents);
/* Frees a group's figure and leaves it empty (bones 0). */
void group_figure_free(res_figure *fig);
/*
 * The same for entity result idx: the signature's field is the kind with
 * its model ("weapon.rot.x"); ref and orig are the diverging model's traces.
 */
int group_add_entity(run_results *res, size_t idx, const trace *ref, const trace *orig);
/* Files leaf result leaf's mismatches (none: nothing). Returns 0 or -1 as above. */
int group_add_leaf(run_results *res, unsigned leaf);
/* Orders groups by count then signature and renumbers the results' group indexes. */
void group_sort(run_results *res);

#endif
