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
#include "emu/engine/game.h"
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
/* What BuildBoneMatrices returned in the last pose_orig_run on m that
 * succeeded (emulated or replayed); 0 before any. */
uint32_t pose_memo_build_ret(const pose_memo *m);

/* BuildBoneMatrices' return as the engine's facts give it: Field_Free(0x58)'s
 * value, the aligned size 0x58 (docs/engine.md). The reference side's. */
#define POSE_BUILD_RET 0x58

/*
 * The original's pose routines on one model: the frame level's (the
 * game's loaded file, pose_target_game) or one of an entity's. skeleton
 * gives a host view of the model's skeleton section and its length;
 * set_skeleton overwrites it; build and world call BuildBoneMatrices and
 * ComputeBonesWorldMatrices (emu_game_build_matrices' and
 * emu_game_world_matrices' contracts).
 */
typedef struct pose_target {
    void *self;
    const uint8_t *(*skeleton)(void *self, size_t *len);
    void (*set_skeleton)(void *self, const uint8_t *skel);
    int (*build)(void *self, uint32_t *ret, emu_fault *fault);
    int (*world)(void *self, const emu_matrix *base, emu_matrix *world, size_t cap, uint32_t *ret,
                 emu_fault *fault);
} pose_target;

pose_target pose_target_game(emu_game *g);
/* The two bases of the pose level (identity, fixed) in the engine's form. */
void pose_bases_plain(emu_matrix base[2]);

/*
 * The original's pose of target t as it is now: BuildBoneMatrices, then
 * ComputeBonesWorldMatrices under base[0] into world and under base[1]
 * into placed (each the skeleton's length: the skeleton with every bone's
 * MATRIX replaced by its world matrix). Emulated once per distinct input
 * (the bytes BuildBoneMatrices reads and both bases) and replayed from m
 * otherwise, the skeleton then set as the routine left it. *emulated is 1
 * when the original ran. Returns 0; -1 with *fault when a call faults, or
 * with err when memory runs out.
 */
int pose_orig_run(pose_memo *m, const pose_target *t, const emu_matrix base[2], uint8_t *world,
                  uint8_t *placed, int *emulated, emu_fault *fault, ff_error *err);

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
 * 48 * bones bytes, bone matrices already built under o), under the
 * identity and the fixed base (pose_ref_world) or under base[0] and
 * base[1] (pose_ref_world_under).
 */
void pose_ref_world(const uint8_t *skel, unsigned bones, const ref_pose_opts *o, uint8_t *world,
                    uint8_t *placed);
void pose_ref_world_under(const uint8_t *skel, unsigned bones, const ref_pose_opts *o,
                          const ref_matrix base[2], uint8_t *world, uint8_t *placed);
/* The identity and the fixed base, in the reference's form. */
void pose_ref_bases(ref_matrix base[2]);

/*
 * A weapon's two bases, base o attach (docs/pose.md section 5) for the identity
 * and the fixed base: the attach matrix is the rotation of the slot's s16
 * X/Y/Z angles in the order zyx (R = Rz.Ry.Rx) under o's trig and step,
 * with the slot's translation; composed with ref_pose_compose. Built by
 * the harness (the engine rebuilds it outside the routines compared), the
 * same bases go to both sides.
 */
void pose_attach_bases(const ref_pose_opts *o, const int16_t rot[3], const int16_t trans[3],
                       ref_matrix base[2]);
/* The attach matrix alone (what the engine keeps at weapon slot +36). */
void pose_attach_matrix(const ref_pose_opts *o, const int16_t rot[3], const int16_t trans[3],
                        ref_matrix *out);
/* Matrices in the engine's MATRIX form (pad 0): one, or a pair of bases. */
void pose_matrix_to_emu(const ref_matrix *in, emu_matrix *out);
void pose_bases_to_emu(const ref_matrix in[2], emu_matrix out[2]);

#endif
