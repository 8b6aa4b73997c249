/*
 * harness/gltf/gcheck_priv.h: what the two halves of check-gltf's
 * comparison share: gcheck_match.c finds the correspondence (joints,
 * animations, axes and scale), gcheck.c compares under it. Not for use
 * outside harness/gltf/.
 */
#ifndef FF8_HARNESS_GLTF_GCHECK_PRIV_H
#define FF8_HARNESS_GLTF_GCHECK_PRIV_H

#include "harness/gltf/gcheck.h"

/* One comparison under way. */
typedef struct ck {
    const gview *v;
    const gpose_model *md;
    gck_result *r;
    unsigned B;
    unsigned nv;      /* the viewer's joints */
    unsigned rb;      /* the first matched bone: the root of the motion signature */
    int *vj;          /* the viewer's joints: node indexes, nv entries (room for every node) */
    int *vparent;     /* each viewer joint's nearest joint above it (index into vj), -1 */
    char **gshape, **vshape; /* canonical subtree shapes */
    gm_affine *world; /* nnodes */
    int fitted;
} ck;

/* Marks r refused with a reason; returns 0. */
int gck_refuse(gck_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The game's world position of bone b at keyframe k of clip c. */
void gck_game_pos(const ck *x, const gpose_clip *c, size_t k, unsigned b, double p[3]);
/* The viewer's joint positions (raw) at frame i of clip gc on its animation; pos: B x 3
 * (an unmatched bone's: NAN). */
void gck_viewer_pos(ck *x, const gck_clip *gc, size_t i, double *pos);
/*
 * The viewer's time of game frame i of clip gc on its animation: the key
 * the frame mapping puts it on (exact: no interpolation between keys, which
 * fast motion would turn into error), i / fps past the first key otherwise.
 */
double gck_frame_time(const ck *x, const gck_clip *gc, size_t i);
/* A viewer position under the fitted axes and scale. */
void gck_mapped(const gck_result *r, const double v[3], double out[3]);

/*
 * The correspondence, step by step (gcheck_match.c, gcheck_fit.c). Each
 * returns 0, a refusal in x->r (gck_refuse), or -1 when memory runs out;
 * gck_by_names returns how many bones its names map consistently (each
 * mapped bone in r->joint, the others -1), gck_by_hierarchy 1 when every
 * bone is mapped. gck_fit sets the axes, scale, fit_rms and each clip's
 * in_fit from the clips that agree.
 */
int gck_viewer_joints(ck *x);
int gck_by_names(ck *x);
int gck_by_hierarchy(ck *x);
int gck_match_anims(ck *x, double *pos);
int gck_fit(ck *x, double *pos);

#endif
