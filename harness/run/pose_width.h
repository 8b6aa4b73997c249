/*
 * harness/run/pose_width.h: the width sites of the pose (ref/pose.h's
 * width-* keys that show only in sums: 32-bit wrapping or 64-bit exact),
 * each decided by the comparison itself when the convention search could
 * not settle it on its sample (no sampled state tells its values apart, or
 * those that do favour neither).
 *
 * Then every frame-level clip whose reference side is ours is posed under
 * the other value of each open site, one site at a time in key order, each
 * from the trace the sites before it left. A clip whose two traces are
 * equal tells nothing about that site (its verdict is the same under
 * either). A clip whose traces differ tells the values apart at its first
 * differing call: while the site is not decided, the value the original
 * agrees with up to and including that call is taken from there on; once
 * one is, a clip that tells them apart is compared under it, and an
 * original that disagrees is a mismatch like any other. The report says
 * where each site was decided: the earliest such clip in corpus order
 * (file, clip, mode) that agreed, so that the place does not depend on
 * which worker came first.
 *
 * Only the frame level takes part: the entity and leaf levels compare under
 * the search's widths. Nothing here prints or exits.
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

/* One width site as the comparison sees it. */
typedef struct pose_width_site {
    int open;             /* the comparison decides it (set before the workers) */
    int decided;          /* below: under the run's lock */
    ref_pose_width width; /* the width taken (decided) */
    uint64_t clips, agreed, contradicted, neither;
    int have_at; /* the earliest agreeing clip: */
    uint32_t at_file;
    int32_t at_clip;
    mode_id at_mode;
    cmp_divergence at; /* where the values first differ: ref = 32 bits, orig = 64 bits */
    int32_t at_orig;   /* the original's value there */
} pose_width_site;

/* Every key's site (only the width sites that show in sums are ever open). */
typedef struct pose_width_run {
    pose_width_site site[REF_POSE_KEY__COUNT];
} pose_width_run;

/* 1 when some site is open. */
int pose_width_any_open(const pose_width_run *pw);

/*
 * One clip of file (index into the run's files) in mode: rt holds the
 * reference's trace under ctx->pose (the search's widths), auth the
 * original's. For each open site, alt receives the trace under its other
 * value, the clip settles or is judged as above, and rt is left holding the
 * trace of the widths the clip is to be compared under (alt then holds
 * scratch). a is the reference engine of the clip's file.
 * Returns 0, or -1 with err (memory).
 */
int pose_width_settle(struct run_ctx *ctx, ref_anim *a, uint32_t file, mode_id mode,
                      uint32_t clip, trace *rt, trace *alt, const trace *auth, ff_error *err);

/*
 * After the workers: the widths taken become ctx->pose_opts' (what the
 * replays of mismatches use), and the report's convention says how each
 * open site was decided (res->pose: chosen, keys, per-site counts and place).
 */
void pose_width_finish(struct run_ctx *ctx);

#endif
