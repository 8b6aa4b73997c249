/*
 * harness/run/cells_pose.h: whether a whole-turn cell (harness/core/cells.h)
 * changed the bone matrices of its tick, where the pose level runs:
 * compared on the candidate's own matrices when its trace carries them at
 * that tick, else on matrices the reference's pose (ref/pose.h, the run's
 * convention) builds twice from the file's skeleton: once with the
 * authority's values of the tick, once with the candidate's over them (each
 * stored as the engine's 16-bit field holds it). The bone's matrix (9 cells,
 * 3 translations) is compared.
 *
 * Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_CELLS_POSE_H
#define FF8_HARNESS_RUN_CELLS_POSE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/cells.h"
#include "harness/core/trace.h"
#include "ref/dat.h"
#include "ref/pose.h"

/* One clip's context for cells_pose_check. */
typedef struct cells_pose {
    const dat_file *d;
    const ref_pose_opts *o; /* the pose level's convention; NULL: no pose level */
    const trace *cand, *auth;
    uint8_t *skel; /* 2 skeletons of scratch (cells_pose_init) */
    size_t len;
    int64_t built; /* the tick both skeletons were built for, -1: none */
} cells_pose;

/* Sets c up for one clip (no allocation until needed). */
void cells_pose_init(cells_pose *c, const dat_file *d, const ref_pose_opts *o, const trace *cand,
                     const trace *auth);
void cells_pose_free(cells_pose *c);

/* A cell_check_fn on a cells_pose (arg). */
int cells_pose_check(void *arg, size_t tick, unsigned bone, cell_mat *out, cell_mat_from *from,
                     ff_error *err);

#endif
