/*
 * harness/gltf/glb_layout.c: where each joint of a .glb hangs (glb_priv.h).
 *
 * A glTF node's transform is a translation, a rotation and a scale (TRS)
 * relative to its parent node. The engine's bone matrix relative to its
 * parent's is such a TRS when the skeleton is posed without bone scales,
 * and under the older readings of the scale path; under the layout of
 * POSE.md section 2's scale path (a stack of unscaled matrices, each bone's
 * columns scaled by its running vector) a bone's world matrix is a
 * rotation times a scale but relative to a parent scaled unevenly it is
 * not (a scale under a rotation). Such a joint is placed by its world
 * transform under the model's node instead of under its parent; the
 * decision is per joint and holds for every clip of the file, since one
 * node tree serves every animation. So is a joint whose parent's matrix
 * is singular or so unevenly scaled (condition number above
 * GLB_COND_MAX) that a viewer composing the file's float values would
 * misplace it. One pass over every keyframe, 3x3 parts only: an inverse,
 * a product and a few dot products per joint.
 *
 * What this module must not do: print, exit, allocate beyond the layout.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/glb_priv.h"

/* Frobenius norm of a 3x3. */
static double frob(const double a[3][3])
{
    double n = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            n += a[i][j] * a[i][j];
    return sqrt(n);
}

/*
 * The 3x3 part of inverse(p) . c into out, and p's condition number (the
 * Frobenius norms of p and its inverse multiplied) into *cond; -1 when p is
 * singular.
 */
static int relative(const gm_affine *p, const gm_affine *c, double out[3][3], double *cond)
{
    gm_affine inv, l;
    if (gm_inverse(p, &inv) < 0) return -1;
    memset(inv.t, 0, sizeof inv.t);
    gm_mul(&inv, c, &l);
    memcpy(out, l.a, sizeof l.a);
    *cond = frob(p->a) * frob(inv.a);
    return 0;
}

/*
 * Over every keyframe of model i, each joint's largest shear relative to
 * its parent (rel; INFINITY where the parent is singular or so badly
 * conditioned that a float file cannot carry the child under it) and in
 * the world (abs).
 */
static void shears(glb_wr *w, glb_frame *ws, unsigned i, double *rel, double *abs)
{
    const gpose_model *md = &w->s->model[i];
    for (size_t ci = 0; ci < md->nclips; ci++)
        for (size_t k = 0; k < md->clips[ci].frames; k++) {
            glb_engine_worlds(w->s, ws, i, ci, k);
            const gm_affine *own = ws->engine[i];
            for (unsigned b = 0; b < md->bones; b++) {
                int p = md->parent[b];
                if (p < 0) continue;
                abs[b] = fmax(abs[b], gm_shear(own[b].a));
                if (rel[b] == INFINITY) continue;
                double l[3][3], cond;
                if (relative(&own[p], &own[b], l, &cond) < 0 || cond > GLB_COND_MAX)
                    rel[b] = INFINITY;
                else
                    rel[b] = fmax(rel[b], gm_shear(l));
            }
        }
}

int glb_layout(glb_wr *w, glb_frame *ws)
{
    const gpose_scene *s = w->s;
    for (unsigned i = 0; i < s->nmodels; i++) {
        const gpose_model *md = &s->model[i];
        size_t n = md->bones ? md->bones : 1;
        w->place[i] = malloc(n * sizeof *w->place[i]);
        double *rel = calloc(n, sizeof *rel), *abs = calloc(n, sizeof *abs);
        if (!w->place[i] || !rel || !abs) {
            free(rel);
            free(abs);
            return -1;
        }
        shears(w, ws, i, rel, abs);
        w->world_joints[i] = 0;
        for (unsigned b = 0; b < md->bones; b++) {
            int world = md->parent[b] >= 0 && rel[b] > GLB_SHEAR_MAX && abs[b] < rel[b];
            w->place[i][b] = world ? -1 : md->parent[b];
            w->world_joints[i] += (unsigned)world;
        }
        free(rel);
        free(abs);
    }
    return 0;
}
