/*
 * harness/gltf/glb_layout.c: where each joint of a .glb hangs, and the
 * keyframes' TRS under that layout (glb_priv.h).
 *
 * A glTF node's transform is a translation, a rotation and a scale (TRS)
 * relative to its parent node. A joint's transform relative to its
 * parent's, as the file composes the parent, is decomposed into a TRS
 * (gm_decompose): its translation is kept whole, so the joint's own
 * position is the engine's within float precision whatever is above it;
 * what a TRS can lose is the rest of the 3x3 part (a shear: a scale under
 * a rotation, the scale path's stack in docs/pose.md section 2; the Q12
 * rounding of a model scale on the root), which moves what hangs on the
 * joint: a child composed at its rest offset, the joint's own bone shape.
 * So the rule is a position tolerance: a joint hangs under its parent when,
 * on every keyframe of every clip (one node tree serves every animation),
 * the file's composition of it puts it and each point that hangs on it (each
 * child bone at its rest offset in the joint's engine frame; for a leaf,
 * its tip: the three axes at its bone shape's length) within the tolerance
 * of where the engine's matrix puts them. Otherwise, or when its parent's
 * world as the file composes it is singular, it hangs under its parent's
 * un-scaling node: a node under the parent's with no translation or
 * rotation and a scale the inverse of the column lengths of the parent's
 * world as the file composes it. When that world is a rotation times a
 * scale, R.S (every joint's is, but under a parent composed with a shear),
 * the un-scaling node's world is R alone, and the joint's engine world
 * relative to it, R^T.E, is the joint's own R'.S' on the scale path's stack
 * (docs/pose.md section 2: each bone's world an unscaled rotation times its
 * running scale): a TRS that holds it exactly, where relative to the parent
 * itself, S^-1.R^T.R'.S', it is a scale under a rotation that none does.
 * Where that fails too (a singular parent), it is placed by its world
 * transform under the model's node, as long as that holds it within the
 * tolerance (where the engine's own matrix is no rotation times scale, no
 * node holds the joint, and it keeps its place in the hierarchy).
 *
 * The tolerance is a fraction of the skeleton's size: the diagonal of the
 * box holding the model's origin and every joint of the scene at rest (the
 * first keyframe of the first clip that has one), in game units.
 *
 * One pass decomposes every keyframe under the layout being decided and
 * keeps its TRS; a joint found out of tolerance is moved at once, under its
 * parent's un-scaling node, or from there to its world transform, and a
 * pass that moved one is followed by another (the joints below it are then
 * decomposed against its new world), until a
 * pass moves none: that pass's TRS are the file's (glb_anim.c writes
 * them), so the plain path's files cost one decomposition of each keyframe.
 *
 * What this module must not do: print, exit, allocate beyond the layout
 * and the keyframes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/glb_priv.h"

/* The length of a leaf's bone shape as a fraction of the skeleton's size (glb_mesh.c). */
#define LEAF_TIP 0.02

/* |(f - e) x + (f.t - e.t)|^2: how far apart f and e put point x, squared. */
static double apart2(const gm_affine *f, const gm_affine *e, const double x[3])
{
    double d = 0;
    for (int r = 0; r < 3; r++) {
        double v = f->t[r] - e->t[r];
        for (int c = 0; c < 3; c++) v += (f->a[r][c] - e->a[r][c]) * x[c];
        d += v * v;
    }
    return d;
}

double glb_placement_error(const glb_wr *w, const glb_frame *ws, unsigned i, double *err)
{
    const gpose_model *md = &w->s->model[i];
    const gm_affine *f = ws->file[i], *e = ws->engine[i];
    static const double zero[3] = {0, 0, 0};
    double worst = 0, tip = LEAF_TIP * w->size;
    /* Squared: a joint's origin, each child's rest offset on its parent's, a leaf's tip. */
    for (unsigned b = 0; b < md->bones; b++)
        err[b] = ws->singular[i][b] ? INFINITY : apart2(&f[b], &e[b], zero);
    for (unsigned c = 0; c < md->bones; c++) {
        int p = md->parent[c];
        if (p < 0) continue;
        double d = apart2(&f[p], &e[p], w->carry[i][c]);
        if (d > err[p]) err[p] = d;
    }
    for (unsigned b = 0; b < md->bones; b++) {
        if (!w->leaf[i][b]) continue;
        for (int a = 0; a < 3; a++) {
            double x[3] = {0, 0, 0};
            x[a] = tip;
            double d = apart2(&f[b], &e[b], x);
            if (d > err[b]) err[b] = d;
        }
    }
    for (unsigned b = 0; b < md->bones; b++) {
        err[b] = sqrt(err[b]);
        if (err[b] > worst) worst = err[b];
    }
    return worst;
}

/*
 * Whether joint b of model i placed by its world transform would be within
 * the tolerance on this keyframe: the engine's world as a TRS, checked on
 * the joint and what hangs on it. When not (the engine's own matrix is no
 * rotation times scale: cells wrapped past the scale channels' range, the
 * states SLOW+FAST reads past a clip's end), no node holds the joint, and
 * moving it would cost the hierarchy of every clip for nothing.
 */
static int world_holds(const glb_wr *w, const glb_frame *ws, unsigned i, unsigned b)
{
    const gpose_model *md = &w->s->model[i];
    const gm_affine *e = &ws->engine[i][b];
    gm_trs x;
    gm_affine f;
    static const double zero[3] = {0, 0, 0};
    gm_decompose(e, NULL, &x);
    for (int d = 0; d < 3; d++) x.t[d] = (float)x.t[d], x.s[d] = (float)x.s[d];
    for (int d = 0; d < 4; d++) x.q[d] = (float)x.q[d];
    gm_from_trs(&x, &f);
    double t2 = w->tolerance * w->tolerance, tip = LEAF_TIP * w->size;
    if (apart2(&f, e, zero) > t2) return 0;
    for (unsigned c = b + 1; c < md->bones; c++)
        if (md->parent[c] == (int)b && apart2(&f, e, w->carry[i][c]) > t2) return 0;
    for (int a = 0; w->leaf[i][b] && a < 3; a++) {
        double p[3] = {0, 0, 0};
        p[a] = tip;
        if (apart2(&f, e, p) > t2) return 0;
    }
    return 1;
}

/* The first clip index with keyframes, or nclips. */
static size_t rest_clip(const gpose_scene *s)
{
    size_t ci = 0;
    while (ci < s->model[0].nclips && s->model[0].clips[ci].frames == 0) ci++;
    return ci;
}

/* The skeleton's size and each joint's rest offset in its parent's engine frame. */
static void rest_measures(glb_wr *w, glb_frame *ws)
{
    const gpose_scene *s = w->s;
    size_t ci = rest_clip(s);
    double mn[3] = {0, 0, 0}, mx[3] = {0, 0, 0};
    for (unsigned i = 0; i < s->nmodels && ci < s->model[0].nclips; i++) {
        const gpose_model *md = &s->model[i];
        glb_engine_worlds(s, ws, i, ci, 0);
        const gm_affine *e = ws->engine[i];
        for (unsigned b = 0; b < md->bones; b++) {
            for (int d = 0; d < 3; d++) {
                mn[d] = fmin(mn[d], e[b].t[d]);
                mx[d] = fmax(mx[d], e[b].t[d]);
            }
            int p = md->parent[b];
            gm_affine inv;
            if (p >= 0 && gm_inverse(&e[p], &inv) == 0) gm_apply(&inv, e[b].t, w->carry[i][b]);
        }
    }
    double d = sqrt((mx[0] - mn[0]) * (mx[0] - mn[0]) + (mx[1] - mn[1]) * (mx[1] - mn[1]) +
                    (mx[2] - mn[2]) * (mx[2] - mn[2]));
    w->size = d > 1e-6 ? d : 1.0;
}

/* Keyframe k's TRS of every model (ws->trs) into the clip's keys. */
static void keep(const glb_wr *w, const glb_frame *ws, glb_clipkeys *ck, size_t k)
{
    for (unsigned i = 0; i < w->s->nmodels; i++) {
        unsigned nb = w->s->model[i].bones;
        for (unsigned b = 0; b < nb; b++) {
            glb_key *o = &ck->k[i][k * nb + b];
            const gm_trs *x = &ws->trs[i][b];
            for (int d = 0; d < 3; d++) o->t[d] = (float)x->t[d], o->s[d] = (float)x->s[d];
            for (int d = 0; d < 4; d++) o->q[d] = (float)x->q[d];
            for (int d = 0; d < 3; d++) o->h[d] = w->unscale[i][b] ? (float)ws->hs[i][b][d] : 1.0f;
        }
    }
}

/*
 * Puts joint a of model i and every ancestor above it that hangs under its
 * parent's node under its parent's un-scaling node instead. 1: some moved.
 */
static int unscale_ancestors(glb_wr *w, unsigned i, int a)
{
    int moved = 0;
    for (; a >= 0 && w->place[i][a] >= 0; a = w->place[i][a]) {
        if (w->via[i][a]) continue;
        w->via[i][a] = 1;
        w->unscale[i][w->place[i][a]] = 1;
        moved = 1;
    }
    return moved;
}

/*
 * Moves joint b of model i, out of tolerance on this keyframe, a step:
 * under its parent's un-scaling node; else its ancestors that hang under
 * their parents under theirs; else, when this keyframe was decomposed
 * under the layout as it is now (!stale) and its world transform holds it
 * or its parent is singular, to its world transform. 1: it moved.
 */
static int move(glb_wr *w, const glb_frame *ws, unsigned i, unsigned b, int stale)
{
    int p = w->place[i][b];
    if (!w->via[i][b] && !w->no_unscale) {
        w->via[i][b] = 1;
        w->unscale[i][p] = 1;
        return 1;
    }
    /* A parent composed with a shear un-scales to no rotation: un-scale the ancestors
     * that hang under theirs first (their worlds then rotations times scales). */
    if (!w->no_unscale && !ws->singular[i][b] && unscale_ancestors(w, i, p)) return 1;
    if (stale || (!ws->singular[i][b] && !world_holds(w, ws, i, b))) return 0;
    w->place[i][b] = -1;
    w->world_joints[i]++;
    return 1;
}

/* One pass over every keyframe; moves joints out of tolerance (move). 1: some moved. */
static int pass(glb_wr *w, glb_frame *ws, double *err)
{
    const gpose_scene *s = w->s;
    int moved = 0;
    for (size_t ci = 0; ci < s->model[0].nclips; ci++) {
        glb_clipkeys *ck = &w->keys[ci];
        ck->dec = ck->pos = ck->place = 0;
        for (size_t k = 0; k < s->model[0].clips[ci].frames; k++) {
            glb_keyframe(w, ws, ci, k, k == 0, &ck->dec, &ck->pos);
            keep(w, ws, ck, k);
            int stale = 0; /* a joint moved since this keyframe was decomposed */
            for (unsigned i = 0; i < s->nmodels; i++) {
                const gpose_model *md = &s->model[i];
                ck->place = fmax(ck->place, glb_placement_error(w, ws, i, err));
                for (unsigned b = 0; b < md->bones; b++) {
                    if (w->place[i][b] < 0 || !(err[b] > w->tolerance)) continue;
                    if (move(w, ws, i, b, stale)) moved = stale = 1;
                }
            }
        }
    }
    return moved;
}

int glb_under_unscale(const glb_wr *w, unsigned i, unsigned b)
{
    return w->place[i][b] >= 0 && w->via[i][b];
}

int glb_has_unscale(const glb_wr *w, unsigned i, unsigned b)
{
    const gpose_model *md = &w->s->model[i];
    for (unsigned c = b + 1; c < md->bones; c++)
        if (w->place[i][c] == (int)b && w->via[i][c]) return 1;
    return 0;
}

/* Room for the layout and every clip's keyframes. -1: memory. */
static int alloc_layout(glb_wr *w)
{
    const gpose_scene *s = w->s;
    w->keys = calloc(s->model[0].nclips ? s->model[0].nclips : 1, sizeof *w->keys);
    if (!w->keys) return -1;
    for (unsigned i = 0; i < s->nmodels; i++) {
        const gpose_model *md = &s->model[i];
        size_t n = md->bones ? md->bones : 1;
        w->place[i] = malloc(n * sizeof *w->place[i]);
        w->carry[i] = calloc(n, sizeof *w->carry[i]);
        w->leaf[i] = malloc(n);
        w->via[i] = calloc(n, 1);
        w->unscale[i] = calloc(n, 1);
        if (!w->place[i] || !w->carry[i] || !w->leaf[i] || !w->via[i] || !w->unscale[i]) return -1;
        memset(w->leaf[i], 1, n);
        for (unsigned b = 0; b < md->bones; b++) {
            w->place[i][b] = md->parent[b];
            if (md->parent[b] >= 0) w->leaf[i][md->parent[b]] = 0;
        }
        w->world_joints[i] = 0;
        /* One block per model: clip ci's keys at the frames of the clips before it. */
        size_t total = 0, nc = s->model[0].nclips;
        for (size_t ci = 0; ci < nc; ci++) total += s->model[0].clips[ci].frames;
        glb_key *block = nc ? malloc((total ? total : 1) * n * sizeof *block) : NULL;
        if (nc && !block) return -1;
        for (size_t ci = 0, at = 0; ci < nc; at += s->model[0].clips[ci].frames, ci++)
            w->keys[ci].k[i] = block + at * n;
    }
    return 0;
}

int glb_layout(glb_wr *w, glb_frame *ws, double tolerance)
{
    const gpose_scene *s = w->s;
    if (alloc_layout(w) < 0) return -1;
    unsigned most = 1;
    for (unsigned i = 0; i < s->nmodels; i++) most = s->model[i].bones > most ? s->model[i].bones : most;
    double *err = malloc(most * sizeof *err);
    if (!err) return -1;
    rest_measures(w, ws);
    w->tolerance = (tolerance > 0 ? tolerance : GLB_JOINT_TOLERANCE) * w->size;
    /* Each pass that moves a joint moves at least one a step for good (under its parent's
     * un-scaling node, then to its world transform): at most two per joint. */
    for (unsigned n = 0; n <= 2 * (s->model[0].bones + s->model[1].bones) && pass(w, ws, err);
         n++) {
    }
    free(err);
    return 0;
}

void glb_layout_free(glb_wr *w)
{
    if (w->keys && w->s->model[0].nclips) { /* each model's block starts at clip 0's keys */
        free(w->keys[0].k[0]);
        free(w->keys[0].k[1]);
    }
    free(w->keys);
    w->keys = NULL;
    for (int i = 0; i < 2; i++) {
        free(w->place[i]);
        free(w->carry[i]);
        free(w->leaf[i]);
        free(w->via[i]);
        free(w->unscale[i]);
        w->via[i] = w->unscale[i] = NULL;
        w->place[i] = NULL;
        w->carry[i] = NULL;
        w->leaf[i] = NULL;
    }
}
