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
void leaf_pose_compute(struct run_ctx *ctx, emu_game *g, emu_game *g2, const struct run_unit *u,
                       pose_leaf_result *local);
void leaf_pose_merge(struct run_ctx *ctx, const struct run_unit *u, const pose_leaf_result *local);
/* The result of a unit whose engine process died (why): every case a fault. */
void leaf_pose_lost(const struct run_unit *u, const char *why, pose_leaf_result *local);

#endif
