/*
 * harness/gltf/gcheck.h: a viewer's export of a model (gread.h) checked
 * against the game's poses of the same file (gpose.h, normal mode). First
 * the correspondence, found from the data alone:
 *   - joints: the nodes the animations drive; bone <-> joint by the index
 *     in the joint names where the names carry one and the tree does not
 *     contradict it (a joint may hang under its bone's parent, under an
 *     ancestor's joint or under no joint: an export may place joints by
 *     their world transform), else by the hierarchy (rooted tree
 *     isomorphism), siblings of the same shape told apart by their motion;
 *     names that fit at least half of the bones map those, the others are
 *     reported unmatched and left out;
 *   - animations <-> clips: by the clip number in the animation's name
 *     when the key count fits and most so named agree in motion, the rest
 *     by key count and motion (a similarity-invariant signature: each
 *     joint's distance to the root over the frames, divided by the mean);
 *   - the axis convention (one of the 48 signed axis permutations) and one
 *     scale factor, fitted by least squares over the clips that agree: each
 *     clip's own best fit is a candidate, the candidate most frames agree
 *     with (within GCK_FIT_AGREE of the skeleton's size) is refitted on
 *     them, so that clips departing wildly neither spoil nor refuse it;
 *   - the frame rate: fps from each animation's duration and its clip's
 *     frame count; game frame i is read at the animation's key i x step
 *     (its keys are step x (frames - 1) + 1), never between two keys.
 * It refuses (result.refused, with the reason) when no mapping fits; when
 * the best axes and scale fit too poorly, that best mapping is still
 * compared (best_tried), so that the refusal can show its errors.
 * Then, per clip and frame, every matched joint's world position against
 * the game's, with a tolerance relative to the skeleton's size. Each joint
 * and clip says how it was matched (name, hierarchy, motion) or that it
 * was not.
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
/* A clip agrees with a fit when its RMS residual is within this fraction of the size. */
#define GCK_FIT_AGREE 0.05

/* How a joint or a clip was matched: one list for the enum and its names. */
#define GCK_BY_MAP(XX)                                                                             \
    XX(NONE, "none") XX(NAME, "name") XX(HIERARCHY, "hierarchy") XX(MOTION, "motion")
#define GCK_BY_ENUM_(name, text) GCK_BY_##name,
typedef enum gck_by { GCK_BY_MAP(GCK_BY_ENUM_) GCK_BY__COUNT } gck_by;
/* "none", "name", "hierarchy", "motion"; "?" out of range. */
const char *gck_by_name(gck_by by);

typedef struct gck_clip {
    uint32_t clip;
    int anim;          /* the viewer's animation, -1: none matched */
    gck_by by;         /* NAME, MOTION, or NONE */
    int in_fit;        /* agrees with the axes and scale (one of the clips they were fitted on) */
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
    int *joint;          /* bones entries: the viewer's node of each bone, -1: unmatched */
    gck_by *joint_by;    /* bones entries: NAME, HIERARCHY, or NONE */
    char (*joint_name)[128]; /* bones entries: that node's name ("" unmatched) */
    char joints_by[16];  /* "names" or "hierarchy" */
    unsigned joints_count[GCK_BY__COUNT]; /* bones by how they were matched */
    size_t clips_count[GCK_BY__COUNT];    /* clips by how they were matched */
    size_t fit_clips;    /* clips the axes and scale were fitted on */
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
    double *bone_err;    /* bones entries: largest error of each bone over the compared clips */
    /*
     * 1 when refused with a mapping tried (joints, clips, axes and scale
     * found, the fit too poor): the clips, bone_err and the picture (at
     * the worst frame) are then that best mapping's, under tolerance.
     */
    int best_tried;
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
