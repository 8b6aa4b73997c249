/*
 * harness/core/causes.h: mismatches merged into causes across modes and
 * files. Each explained mismatch (a group's example, or every mismatching
 * clip when all were explained, and each leaf group) has signatures:
 *
 *   a read differs:   read|<routine answering>|<what differs>|<routine>|<input class>
 *                     (a different call: read|<caller>|sequence|original calls <routine>,
 *                     or read|<caller>|sequence|original omits <the reference's routine>)
 *   reads all agree:  write|<writer EIP>|<field kind>, and when the original's value
 *                     is off by one or by a power of two from the reference's,
 *                     arith|<writer's routine>|<that relation>
 *
 * Mismatches sharing any signature belong to one cause (a leaf group's
 * read signature meets the frame level's). Counts, the statement, the
 * routine and the instruction are the cause's, taken from its first
 * example. Needs only the run's results; never prints.
 */
#ifndef FF8_HARNESS_CORE_CAUSES_H
#define FF8_HARNESS_CORE_CAUSES_H

#include "harness/core/results.h"

/*
 * Builds res->causes (replacing any) from the explanations the results hold
 * and sets every group's and mismatching clip result's cause (-1: none).
 * Returns 0, -1 when memory runs out (no cause is then kept).
 */
int causes_build(run_results *res);
/*
 * The entity level's groups joined to the causes (harness/core/causes_entity.c):
 * a group whose diverging model mismatches at the frame level too (same file,
 * clip and mode) takes that cause; the others merge into "lockstep" causes by
 * routine (QueueAnimation at call 0, AdvanceBy1 after) and field with its
 * model. Called by causes_build. Returns 0, -1 when memory runs out.
 */
int causes_add_entity(run_results *res);
/*
 * A checked decoder's clips the quirk table was tried on, into causes of
 * their own (harness/core/causes_quirk.c): "quirk" (the rows that
 * reproduce them), "shape" (mismatches no row explains, by field class and
 * causes_shape) and "stopped" (clips stopped short no row explains). Only
 * clips without a cause; a frame group without one takes its example's.
 * Called by causes_build. Returns 0, -1 when memory runs out.
 */
int causes_add_quirk(run_results *res);
/*
 * The shape of a first difference of a candidate's value cand from the
 * authority's auth in field f, by the first that holds: "ending" (the ret
 * field: one side stops), "bits" (flag bits), "no_16bit_wrap" (a 16-bit
 * field off by a multiple of 65536), "neutral_scale" (a scale of 1024),
 * "off_by_one", "zero_where_nonzero" (cand 0), "nonzero_where_zero" (auth
 * 0), "sign_flip", "constant_factor" (one is 2 to 16 times the other),
 * "power_of_two_offset" (2^k, k >= 3), else "other". docs/quirks.md.
 */
const char *causes_shape(field_id f, int32_t cand, int32_t auth);
/* Frees res->causes. */
void causes_free(run_results *res);

/*
 * How an original value relates to the reference's, for a field that is
 * not a set of flag bits: "orig_lower_by_1", "orig_higher_by_1",
 * "differs_by_2^k" (k >= 3), "kept_previous" (the original's value is the
 * reference's plus the value before the call, before != 0), or "".
 */
void causes_relation(int32_t ref, int32_t orig, int32_t before, int bits, char *out, size_t n);

#endif
