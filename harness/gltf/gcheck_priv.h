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
    int *vj;          /* the viewer's joints: node indexes, B entries */
    int *vparent;     /* each viewer joint's parent joint (index into vj), -1 */
    char **gshape, **vshape; /* canonical subtree shapes */
    gm_affine *world; /* nnodes */
    int fitted;
} ck;

/* Marks r refused with a reason; returns 0. */
int gck_refuse(gck_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The game's world position of bone b at keyframe k of clip c. */
void gck_game_pos(const ck *x, const gpose_clip *c, size_t k, unsigned b, double p[3]);
/* The viewer's joint positions (raw) at frame i of clip gc on its animation; pos: B x 3. */
void gck_viewer_pos(ck *x, const gck_clip *gc, size_t i, double *pos);
/* A viewer position under the fitted axes and scale. */
void gck_mapped(const gck_result *r, const double v[3], double out[3]);

/*
 * The correspondence, step by step (gcheck_match.c). Each returns 0, a
 * refusal in x->r (gck_refuse), or -1 when memory runs out;
 * gck_by_names and gck_by_hierarchy return 1 when the joints are mapped.
 */
int gck_viewer_joints(ck *x);
int gck_by_names(ck *x);
int gck_by_hierarchy(ck *x);
int gck_match_anims(ck *x, double *pos);
void gck_fit(ck *x, double *pos);

#endif
