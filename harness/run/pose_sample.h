/*
 * harness/run/pose_sample.h: the states the pose level's convention search
 * scores (harness/run/pose_search.c), and the original's pose of each.
 *
 * A state is a skeleton as the reference's decoding leaves it after one
 * call (the input of BuildBoneMatrices). Three kinds are sampled: plain and
 * scale-path states, spread over the corpus in normal and SLOW mode (they
 * show the rotation, translation and scale choices), and, per file and per
 * mode (all four), the state with the largest root translation and the
 * scale-path state with the largest scale product: the states most likely
 * to carry a sum of products past 2^31, the only ones that tell 32-bit from
 * 64-bit sums (ref/pose.h's width option). Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_POSE_SAMPLE_H
#define FF8_HARNESS_RUN_POSE_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/game.h"

#include "common/error.h"
#include "harness/core/modes.h"

struct run_ctx;

typedef struct pose_state {
    uint32_t file; /* index into the run's files */
    int32_t clip, tick;
    mode_id mode;
    int extreme;      /* 1: its file and mode's largest translation or scale */
    uint8_t *in;      /* the skeleton before BuildBoneMatrices */
    uint8_t *orig;    /* after the original's BuildBoneMatrices */
    uint8_t *world;   /* the original's world matrices under the identity base... */
    uint8_t *placed;  /* ...and under the fixed base (harness/run/pose_side.h) */
    size_t len;       /* bytes of each of the four */
    unsigned bones;
} pose_state;

typedef struct pose_sample {
    pose_state *s; /* file by file */
    size_t n, cap;
    size_t plain, scale, extreme; /* states of each kind kept */
} pose_sample;

/* 1 when the skeleton takes the scale path (header flag bit 0). */
int pose_state_scaled(const uint8_t *skel);

/*
 * Samples the states of ctx's corpus into *sm (zeroed by the caller).
 * Files the reference cannot read are left out (the run reports them).
 * Returns 0, or -1 with err when memory runs out (sm then holds what was
 * sampled; pose_sample_free frees it).
 */
int pose_sample_corpus(struct run_ctx *ctx, pose_sample *sm, ff_error *err);

/*
 * The original's BuildBoneMatrices, then ComputeBonesWorldMatrices under
 * both bases, on every state (one engine of its own). States the original
 * faults on, or whose file cannot be loaded, are dropped and counted in
 * *faulted. Returns 0, or -1 with err when the engine cannot start or memory
 * runs out.
 */
int pose_sample_original(struct run_ctx *ctx, pose_sample *sm, uint64_t *faulted, ff_error *err);
/* Its parts: every state on g (ok[i]: 0 when it faulted or its file could not be loaded; -1
 * with err when memory runs out), and the states not ok dropped and counted in *faulted. */
int pose_sample_run(struct run_ctx *ctx, emu_game *g, pose_sample *sm, uint8_t *ok,
                    ff_error *err);
void pose_sample_keep(pose_sample *sm, const uint8_t *ok, uint64_t *faulted);
/*
 * pose_sample_original in an engine process (pose_sample_child.c): confined
 * as the workers' are, its files loaded before its filter, its poses copied
 * back through shared memory. A process that dies drops every state (counted
 * in *faulted) and the run says why in its warnings.
 */
int pose_sample_confined(struct run_ctx *ctx, pose_sample *sm, uint64_t *faulted, ff_error *err);
/*
 * What the run takes from that process, by how it ended: started, it said
 * so on its socket before the executable's first instruction (nothing the
 * executable does can take that back); exited_zero, it exited with status
 * 0; rc and have_err, what it left in the shared memory (the executable's
 * code may have written both once it started). An error before the start
 * (the engine could not open, memory) is the run's; after it, whatever the
 * process left, at worst its states are not posed: the executable fails its
 * own sample, never the run.
 */
typedef enum pose_child_end {
    POSE_CHILD_TAKE,      /* the poses it copied */
    POSE_CHILD_RUN_ERROR, /* its error, the run's */
    POSE_CHILD_NOT_POSED, /* none of its states, a warning */
} pose_child_end;
pose_child_end pose_sample_child_end(int started, int exited_zero, int32_t rc, int have_err);

void pose_sample_free(pose_sample *sm);

#endif
