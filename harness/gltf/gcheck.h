/*
 * harness/gltf/gcheck.h: a viewer's export of a model (gread.h) checked
 * against the game's poses of the same file (gpose.h, normal mode). First
 * the correspondence, found from the data alone:
 *   - joints: the nodes the animations drive; bone <-> joint by the index
 *     in the joint names when every name carries one and the hierarchy
 *     agrees, else by the hierarchy (rooted tree isomorphism), siblings of
 *     the same shape told apart by their motion;
 *   - animations <-> clips: by key counts (frame mapping) and by motion
 *     (a similarity-invariant signature: each joint's distance to the root
 *     over the frames, divided by the mean);
 *   - the axis convention (one of the 48 signed axis permutations) and one
 *     scale factor, fitted by least squares over every matched frame;
 *   - the frame rate: game frame i at t = i / fps, fps from each
 *     animation's duration and its clip's frame count.
 * It refuses (result.refused, with the reason) when no mapping fits.
 * Then, per clip and frame, every joint's world position against the
 * game's, with a tolerance relative to the skeleton's size.
 *
 * What this module must not do: print, exit, write files.
 */
#ifndef FF8_HARNESS_GLTF_GCHECK_H
#define FF8_HARNESS_GLTF_GCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "harness/gltf/gpose.h"
#include "harness/gltf/gread.h"

/* Default tolerance: this fraction of the skeleton's size (its bounding box diagonal). */
#define GCK_TOLERANCE 1e-3

typedef struct gck_clip {
    uint32_t clip;
    int anim;          /* the viewer's animation, -1: none matched */
    char anim_name[128];
    size_t frames;
    double fps;
    double match_cost; /* the motion signature's distance */
    double *err;       /* frames: largest joint error per frame (game units) */
    double max_err;
    size_t max_frame;
    unsigned max_bone;
    long first;        /* first departing frame, -1: none */
    unsigned first_bone;
    double first_err, first_game[3], first_viewer[3];
} gck_clip;

typedef struct gck_result {
    int refused;
    char reason[512];
    unsigned bones;
    int *joint;          /* bones entries: the viewer's node of each bone */
    char (*joint_name)[128]; /* bones entries: that node's name */
    char joints_by[16];  /* "names" or "hierarchy" */
    int perm[3], sign[3]; /* game axis k = sign[k] * viewer axis perm[k] */
    char axes[32];       /* "x=+x,y=-z,z=+y": each game axis from the viewer's */
    double scale;        /* game units per viewer unit */
    double fit_rms;      /* RMS residual of the fit, game units */
    double fps;          /* median over matched clips */
    double size, tolerance;
    size_t nclips;
    gck_clip *clips;     /* every clip of the game, in clip order */
    size_t matched, departing, unmatched_anims;
    /* The picture: both skeletons at the first departing frame (or the worst frame). */
    long pic_clip;       /* index into clips, -1: none */
    size_t pic_frame;
    unsigned pic_bone;
    double *pic_game, *pic_viewer; /* bones x 3 */
    int16_t *parent;     /* the game's tree (bones entries) */
} gck_result;

/*
 * Checks v against the normal-mode clips of game's model 0 with tolerance
 * tol_rel (of the skeleton's size; 0: GCK_TOLERANCE). Returns 0 with *out
 * filled (out->refused says when no mapping fits), or -1 with err when
 * memory runs out. *out is new (gck_free) either way.
 */
int gck_run(const gview *v, const gpose_scene *game, double tol_rel, gck_result *out,
            ff_error *err);
void gck_free(gck_result *r);

#endif
