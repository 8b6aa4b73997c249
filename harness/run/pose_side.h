/*
 * harness/run/pose_side.h: the pose level's work after each decoding call,
 * on both sides. The original: BuildBoneMatrices (0x508C90), then
 * ComputeBonesWorldMatrices (0x5095B0) under the identity base and under a
 * fixed base, emulated once per distinct input (the skeleton bytes
 * BuildBoneMatrices reads) and replayed from a per-worker memo otherwise:
 * a FAST state is a normal state (SLOW+FAST states are seldom SLOW
 * states: each of its ticks adds halves of more than one delta). The
 * reference: ref/pose.h under the run's convention.
 *
 * The memo belongs to one worker and is bounded (it is emptied when full).
 * Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_POSE_SIDE_H
#define FF8_HARNESS_RUN_POSE_SIDE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "emu/game.h"
#include "ref/pose.h"

/*
 * The fixed base of the "placed" world matrices: a rotation, a non-unit,
 * non-uniform scale and a translation, so that every cell and translation
 * of a bone reaches every output. (The other base is the identity.)
 */
void pose_base_fixed(ref_matrix *out);
/* The same bases in the engine's MATRIX form; which 0: identity, 1: fixed. */
void pose_base_emu(int which, emu_matrix *out);

typedef struct pose_memo pose_memo;

/* A memo of at most budget bytes (0: 64 MiB). NULL when memory runs out. */
pose_memo *pose_memo_new(size_t budget);
void pose_memo_free(pose_memo *m);

typedef struct pose_memo_stats {
    uint64_t hits, misses, flushes;
} pose_memo_stats;
pose_memo_stats pose_memo_get_stats(const pose_memo *m);

/*
 * The original's pose after a decoding call on g: the bone matrices land in
 * g's skeleton (as BuildBoneMatrices leaves them), and world / placed (each
 * emu_game_skeleton_size(g) bytes) receive the skeleton with every bone's
 * MATRIX replaced by its world matrix under the identity / fixed base.
 * *emulated is 1 when the original ran, 0 when the memo answered. Returns 0;
 * -1 with *fault when a call faults (g's skeleton is then as the faulting
 * routine left it, or restored by emu), or with err when memory runs out.
 */
int pose_orig_tick(pose_memo *m, emu_game *g, uint8_t *world, uint8_t *placed, int *emulated,
                   emu_fault *fault, ff_error *err);

/*
 * The reference's world / placed bytes from its posed skeleton skel (16 +
 * 48 * bones bytes, bone matrices already built under o).
 */
void pose_ref_world(const uint8_t *skel, unsigned bones, const ref_pose_opts *o, uint8_t *world,
                    uint8_t *placed);

#endif
