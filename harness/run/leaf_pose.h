/*
 * harness/run/leaf_pose.h: the leaf level of the pose helpers (sin, cos,
 * the Copy5 product, Compose, the vector apply), run with `--levels
 * leaf,pose`: each helper called alone on generated operands through the
 * signature its profile row gives, compared with ref/pose.h under the run's
 * convention. One unit per helper the profile describes.
 */
#ifndef FF8_HARNESS_RUN_LEAF_POSE_H
#define FF8_HARNESS_RUN_LEAF_POSE_H

#include <stddef.h>

#include "common/error.h"
#include "emu/engine/game.h"
#include "harness/core/results.h"

struct run_ctx;
struct run_unit;

/* Fills ctx->res->pose_leaf (the helpers and their profile rows); *nunits = helpers to run. */
int leaf_pose_setup(struct run_ctx *ctx, size_t *nunits);
/* The units of the helpers the profile describes, into units[0 .. *nunits). */
void leaf_pose_units(struct run_ctx *ctx, struct run_unit *units);
/*
 * Runs every case of one helper on g, and under --engine both on g2 too
 * (NULL: no second engine), its results compared with g's. Returns 0
 * (faults, mismatches and disagreements are results).
 */
int leaf_pose_run_unit(struct run_ctx *ctx, emu_game *g, emu_game *g2, const struct run_unit *u,
                       ff_error *err);
/*
 * leaf_pose_run_unit's two halves: the helper's cases into *local (plain data: it may
 * come from an engine process as bytes), and their merge into the run's.
 */

/* One engine's answer to one case of a helper (a fault's kind and instruction). */
typedef struct pose_answer {
    emu_matrix out;
    int32_t value, vout[3];
    uint32_t eip;
    uint8_t faulted, kind;
} pose_answer;
/*
 * One engine's answers to a helper's cases, nothing compared: plain data,
 * so that an engine process sends them as bytes and its worker compares
 * (remote.h: an engine process sends no verdict).
 */
typedef struct pose_leaf_answers {
    uint64_t n; /* cases answered, from the first */
    int have_fault;
    uint64_t fault_index;   /* the first faulting case (have_fault) */
    char fault_detail[256]; /* ... its fault in one sentence */
    pose_answer a[];
} pose_leaf_answers;
/* The bytes of answers to n cases; unit u's number of cases; room (malloc'd) for u's answers. */
size_t leaf_pose_answers_size(uint64_t n);
uint64_t leaf_pose_cases(const struct run_unit *u);
pose_leaf_answers *leaf_pose_answers_new(const struct run_unit *u);
/* leaf_pose_run_unit's parts: the original's answers on g (no lock taken, nothing compared). */
void leaf_pose_answer(struct run_ctx *ctx, emu_game *g, const struct run_unit *u,
                      pose_leaf_answers *out);
/*
 * Whether len bytes of answers from an engine process are sound for unit u:
 * one for each case, faults of known kinds, the first fault the first
 * faulting case's; strings ended. 1 when sound.
 */
int leaf_pose_answers_sound(const struct run_unit *u, pose_leaf_answers *a, size_t len);
/* The comparison of u: the reference against first, and second against first (NULL: none). */
void leaf_pose_judge(struct run_ctx *ctx, const struct run_unit *u, const pose_leaf_answers *first,
                     const pose_leaf_answers *second, pose_leaf_result *out);
void leaf_pose_merge(struct run_ctx *ctx, const struct run_unit *u, const pose_leaf_result *local);
/* The result of a unit whose engine process died (why): every case a fault. */
void leaf_pose_lost(const struct run_unit *u, const char *why, pose_leaf_result *local);

#endif
