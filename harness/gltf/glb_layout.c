/*
 * harness/gltf/glb_layout.c: where each joint of a .glb hangs (glb_priv.h).
 *
 * A glTF node's transform is a translation, a rotation and a scale (TRS)
 * relative to its parent node. The engine's bone matrix relative to its
 * parent's is such a TRS when the skeleton is posed without bone scales,
 * and under the older readings of the scale path; under the layout of
 * the scale path in docs/pose.md section 2 (a stack of unscaled matrices,
 * each bone's columns scaled by its running vector) a bone's world is a
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
 * inverse(p) . c (3x3 parts) into out, and p's condition number (the
 * Frobenius norms of p and its inverse multiplied) into *cond; -1 when p is
 * singular.
 */
static int relative(const double p[3][3], const double c[3][3], double out[3][3], double *cond)
{
    double inv[3][3] = {
        {p[1][1] * p[2][2] - p[1][2] * p[2][1], p[0][2] * p[2][1] - p[0][1] * p[2][2],
         p[0][1] * p[1][2] - p[0][2] * p[1][1]},
        {p[1][2] * p[2][0] - p[1][0] * p[2][2], p[0][0] * p[2][2] - p[0][2] * p[2][0],
         p[0][2] * p[1][0] - p[0][0] * p[1][2]},
        {p[1][0] * p[2][1] - p[1][1] * p[2][0], p[0][1] * p[2][0] - p[0][0] * p[2][1],
         p[0][0] * p[1][1] - p[0][1] * p[1][0]},
    };
    double det = p[0][0] * inv[0][0] + p[0][1] * inv[1][0] + p[0][2] * inv[2][0];
    if (fabs(det) < 1e-12) return -1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            inv[i][j] /= det;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[i][j] = inv[i][0] * c[0][j] + inv[i][1] * c[1][j] + inv[i][2] * c[2][j];
    *cond = frob(p) * frob(inv);
    return 0;
}

/*
 * Marks in world each joint of model i that some keyframe wants placed by
 * its world transform: its parent singular or conditioned past
 * GLB_COND_MAX, or its shear under the parent past GLB_SHEAR_MAX and above
 * its shear in the world. A joint once marked is not looked at again.
 */
static void mark(glb_wr *w, glb_frame *ws, unsigned i, char *world)
{
    const gpose_model *md = &w->s->model[i];
    for (size_t ci = 0; ci < md->nclips; ci++)
        for (size_t k = 0; k < md->clips[ci].frames; k++) {
            glb_engine_worlds(w->s, ws, i, ci, k);
            const gm_affine *own = ws->engine[i];
            for (unsigned b = 0; b < md->bones; b++) {
                int p = md->parent[b];
                if (p < 0 || world[b]) continue;
                double l[3][3], cond, sh;
                if (relative(own[p].a, own[b].a, l, &cond) < 0 || cond > GLB_COND_MAX)
                    world[b] = 1;
                else if ((sh = gm_shear(l)) > GLB_SHEAR_MAX)
                    world[b] = gm_shear(own[b].a) < sh;
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
        char *world = calloc(n, 1);
        if (!w->place[i] || !world) {
            free(world);
            return -1;
        }
        mark(w, ws, i, world);
        w->world_joints[i] = 0;
        for (unsigned b = 0; b < md->bones; b++) {
            w->place[i][b] = world[b] ? -1 : md->parent[b];
            w->world_joints[i] += (unsigned)world[b];
        }
        free(world);
    }
    return 0;
}
