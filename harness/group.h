/*
 * harness/group.h: the shape of a difference between a reference value
 * and an original value, the part of a mismatch's signature that says what
 * kind of bug it smells of (a missing sign extension differs by a power of
 * two, a halving by shift instead of division is off by one, ...).
 */
#ifndef FF8_HARNESS_GROUP_H
#define FF8_HARNESS_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "harness/fields.h"

/*
 * Writes the shape of (ref, orig) for field f into out:
 *   ret:        "ends_early" (original returned 1 first), "ends_late",
 *               "no_call" (one side made fewer calls)
 *   flag bytes: "xor_0xNN"
 *   values:     "orig_zero", "ref_zero", "off_by_one", "differs_by_2^k"
 *               (k >= 3), "negated", "doubled", "halved", "other"
 */
void group_shape(field_id f, int32_t ref, int32_t orig, char *out, size_t n);

#endif
