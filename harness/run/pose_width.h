/*
 * harness/run/pose_width.h: the width of the pose's sums of products
 * (ref/pose.h's width option: 32-bit wrapping or 64-bit exact), decided by
 * the comparison itself when the convention search could not settle it on
 * its sample (no sampled state tells the widths apart, or those that do
 * favour neither).
 *
 * Then every frame-level clip whose reference side is ours is posed under
 * both widths. A clip whose two traces are equal tells nothing (its verdict
 * is the same under either). A clip whose traces differ tells the widths
 * apart at its first differing call: while no width is taken, the one the
 * original agrees with up to and including that call is taken from there
 * on; once one is, a clip that tells them apart is compared under it, and
 * an original that disagrees is a mismatch like any other. The report says
 * where the width was decided: the earliest such clip in corpus order
 * (file, clip, mode) that agreed, so that the place does not depend on
 * which worker came first. (With an original that agrees with 32 bits on
 * some clips and 64 on others, which clips become mismatches does.)
 *
 * Only the frame level takes part: the entity and leaf levels compare under
 * the search's width. Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_POSE_WIDTH_H
#define FF8_HARNESS_RUN_POSE_WIDTH_H

#include <stdint.h>

#include "common/error.h"
#include "harness/core/compare.h"
#include "harness/core/modes.h"
#include "harness/core/trace.h"
#include "ref/engine.h"

struct run_ctx;

typedef struct pose_width_run {
    int open;             /* the comparison decides the width (set before the workers) */
    int decided;          /* below: under the run's lock */
    ref_pose_width width; /* the width taken (decided) */
    uint64_t clips, agreed, contradicted, neither;
    int have_at; /* the earliest agreeing clip: */
    uint32_t at_file;
    int32_t at_clip;
    mode_id at_mode;
    cmp_divergence at; /* where the widths first differ: ref = 32 bits, orig = 64 bits */
    int32_t at_orig;   /* the original's value there */
} pose_width_run;

/*
 * One clip of file (index into the run's files) in mode: rt holds the
 * reference's trace under ctx->pose (the search's width), auth the
 * original's. When the width is open, alt receives the trace under the
 * other width, the clip settles or is judged as above, and rt is left
 * holding the trace of the width the clip is to be compared under (alt
 * then holds the other). a is the reference engine of the clip's file.
 * Returns 0, or -1 with err (memory).
 */
int pose_width_settle(struct run_ctx *ctx, ref_anim *a, uint32_t file, mode_id mode,
                      uint32_t clip, trace *rt, trace *alt, const trace *auth, ff_error *err);

/*
 * After the workers: the width taken becomes ctx->pose_opts' (what the
 * replays of mismatches use), and the report's convention says how it was
 * decided (res->pose: chosen, keys, width counts and place).
 */
void pose_width_finish(struct run_ctx *ctx);

#endif
