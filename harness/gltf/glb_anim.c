/*
 * harness/gltf/glb_anim.c: the animations of a .glb (glb_priv.h): each
 * keyframe's local transforms decomposed into TRS with the error measures
 * of glb_write.h (glb_layout.c keeps them), and an animation's data, the
 * kept TRS, in a buffer view of its own.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/glb_priv.h"

/* The TRS values as the file stores them (float), back in double. */
static void round_trs(gm_trs *x)
{
    for (int i = 0; i < 3; i++) x->t[i] = (float)x->t[i], x->s[i] = (float)x->s[i];
    for (int i = 0; i < 4; i++) x->q[i] = (float)x->q[i];
}

void glb_engine_worlds(const gpose_scene *s, glb_frame *ws, unsigned i, size_t ci, size_t k)
{
    const gpose_model *md = &s->model[i];
    const gpose_clip *c = &md->clips[ci];
    gm_affine *own = ws->engine[i];
    gm_affine att;
    if (i == 1) gm_from_ref(&s->attach, &att);
    for (unsigned b = 0; b < md->bones; b++) {
        gm_from_ref(gpose_at(md, c, k, b), &own[b]);
        if (i == 1) gm_mul(&att, &own[b], &own[b]); /* the weapon as drawn: base o attach */
    }
}

/*
 * The un-scaling node of a joint whose world the file composes as f: its
 * scale h (float values) the inverse of f's column lengths, its world f.h,
 * the joint's rotation and translation alone when f is a rotation times a
 * scale. A column of length 0 keeps scale 1 (the node's world stays
 * singular: what hangs under it is placed by its world transform).
 */
static void unscale_node(const gm_affine *f, double h[3], gm_affine *hw)
{
    for (int c = 0; c < 3; c++) {
        double n = sqrt(f->a[0][c] * f->a[0][c] + f->a[1][c] * f->a[1][c] + f->a[2][c] * f->a[2][c]);
        h[c] = n > 1e-12 ? (float)(1.0 / n) : 1.0;
        if (!isfinite(h[c]) || h[c] == 0) h[c] = 1.0;
        for (int r = 0; r < 3; r++) hw->a[r][c] = f->a[r][c] * h[c];
    }
    memcpy(hw->t, f->t, sizeof hw->t);
}

/*
 * Model i's joints: engine worlds, then each joint's transform relative to
 * its node parent as the file composes it (the parent's world from the
 * file's own float values, so that an approximation above never moves a
 * joint below), decomposed into TRS (raising *dec), and the worlds a
 * viewer composes from the file's values.
 */
static void decompose(const glb_wr *w, glb_frame *ws, unsigned i, size_t ci, size_t k,
                      int first, double *dec)
{
    const gpose_model *md = &w->s->model[i];
    glb_engine_worlds(w->s, ws, i, ci, k);
    const gm_affine *own = ws->engine[i];
    for (unsigned b = 0; b < md->bones; b++) {
        gm_affine local, inv;
        int p = w->place[i][b];
        ws->singular[i][b] = 0;
        const gm_affine *pw = p < 0 ? NULL : w->via[i][b] ? &ws->hw[i][p] : &ws->file[i][p];
        if (p >= 0) {
            ws->singular[i][b] = gm_inverse(pw, &inv) < 0;
            gm_mul(&inv, &own[b], &local);
        } else {
            local = own[b];
        }
        gm_trs *x = &ws->trs[i][b];
        double e = gm_decompose(&local, first ? NULL : &ws->prevq[i][4 * b], x);
        if (e > *dec) *dec = e;
        round_trs(x);
        memcpy(&ws->prevq[i][4 * b], x->q, 4 * sizeof(double));
        gm_affine l;
        gm_from_trs(x, &l);
        if (p >= 0)
            gm_mul(pw, &l, &ws->file[i][b]);
        else
            ws->file[i][b] = l;
        if (w->unscale[i][b]) unscale_node(&ws->file[i][b], ws->hs[i][b], &ws->hw[i][b]);
    }
}

void glb_keyframe(const glb_wr *w, glb_frame *ws, size_t ci, size_t k, int first, double *dec,
                  double *pos)
{
    const gpose_scene *s = w->s;
    for (unsigned i = 0; i < s->nmodels; i++) {
        decompose(w, ws, i, ci, k, first, dec);
        for (unsigned b = 0; b < s->model[i].bones; b++) {
            const double *want = ws->engine[i][b].t, *got = ws->file[i][b].t;
            double d = 0;
            for (int x = 0; x < 3; x++) d += (got[x] - want[x]) * (got[x] - want[x]);
            if (sqrt(d) > *pos) *pos = sqrt(d);
        }
    }
}

int glb_frame_alloc(glb_frame *ws, const gpose_scene *s)
{
    memset(ws, 0, sizeof *ws);
    for (unsigned i = 0; i < s->nmodels; i++) {
        size_t n = s->model[i].bones ? s->model[i].bones : 1;
        ws->engine[i] = malloc(n * sizeof(gm_affine));
        ws->file[i] = malloc(n * sizeof(gm_affine));
        ws->trs[i] = malloc(n * sizeof(gm_trs));
        ws->prevq[i] = malloc(n * 4 * sizeof(double));
        ws->singular[i] = calloc(n, 1);
        ws->hs[i] = malloc(n * sizeof *ws->hs[i]);
        ws->hw[i] = malloc(n * sizeof(gm_affine));
        if (!ws->engine[i] || !ws->file[i] || !ws->trs[i] || !ws->prevq[i] || !ws->singular[i] ||
            !ws->hs[i] || !ws->hw[i])
            return -1;
        for (size_t b = 0; b < n; b++) ws->hs[i][b][0] = ws->hs[i][b][1] = ws->hs[i][b][2] = 1;
    }
    return 0;
}

void glb_frame_free(glb_frame *ws)
{
    for (int i = 0; i < 2; i++) {
        free(ws->engine[i]);
        free(ws->file[i]);
        free(ws->trs[i]);
        free(ws->prevq[i]);
        free(ws->singular[i]);
        free(ws->hs[i]);
        free(ws->hw[i]);
    }
}

static void add_channel(gj *g, cJSON *samplers, cJSON *channels, int input, int output, int node,
                        const char *path)
{
    int si = cJSON_GetArraySize(samplers);
    cJSON *sm = gj_obj(g, samplers, NULL);
    gj_num(g, sm, "input", input);
    gj_str(g, sm, "interpolation", "LINEAR");
    gj_num(g, sm, "output", output);
    cJSON *ch = gj_obj(g, channels, NULL);
    gj_num(g, ch, "sampler", si);
    cJSON *tg = gj_obj(g, ch, "target");
    gj_num(g, tg, "node", node);
    gj_str(g, tg, "path", path);
}

/*
 * Clip ci's key times, then per model and joint T (F x 3), R (F x 4), S (F x
 * 3), then per model and joint with an un-scaling node its S (F x 3), as floats.
 */
static int anim_data(glb_wr *w, size_t ci, size_t off, size_t per_joint, size_t total)
{
    const gpose_scene *s = w->s;
    const glb_clipkeys *ck = &w->keys[ci];
    size_t F = s->model[0].clips[ci].frames;
    uint8_t *data = calloc(1, total ? total : 1);
    if (!data) return -1;
    for (size_t k = 0; k < F; k++) {
        float t = (float)k / GPOSE_FPS;
        memcpy(data + k * sizeof t, &t, sizeof t);
    }
    size_t o = off;
    for (unsigned i = 0; i < s->nmodels; i++) {
        unsigned nb = s->model[i].bones;
        for (unsigned b = 0; b < nb; b++, o += per_joint) {
            float *p = (float *)(void *)(data + o);
            for (size_t k = 0; k < F; k++) {
                const glb_key *x = &ck->k[i][k * nb + b];
                memcpy(p + 3 * k, x->t, sizeof x->t);
                memcpy(p + 3 * F + 4 * k, x->q, sizeof x->q);
                memcpy(p + 7 * F + 3 * k, x->s, sizeof x->s);
            }
        }
    }
    for (unsigned i = 0; i < s->nmodels; i++) {
        unsigned nb = s->model[i].bones;
        for (unsigned b = 0; b < nb; b++) {
            if (w->hnode[i][b] < 0) continue;
            float *p = (float *)(void *)(data + o);
            for (size_t k = 0; k < F; k++) memcpy(p + 3 * k, ck->k[i][k * nb + b].h, 3 * sizeof(float));
            o += F * 3 * sizeof(float);
        }
    }
    sb_add(&w->bin, (const char *)data, total);
    free(data);
    return w->bin.failed ? -1 : 0;
}

int glb_add_anim(glb_wr *w, size_t ci, cJSON *anims, glb_anim_stats *st)
{
    const gpose_scene *s = w->s;
    const gpose_clip *c0 = &s->model[0].clips[ci];
    size_t F = c0->frames;
    glb_align4(&w->bin);
    size_t start = w->bin.len;
    size_t per_joint = F * 10 * sizeof(float), off = F * sizeof(float), total = off;
    for (unsigned i = 0; i < s->nmodels; i++)
        total += per_joint * s->model[i].bones + F * 3 * sizeof(float) * w->nhelpers[i];
    double dec = w->keys[ci].dec, pos = w->keys[ci].pos, place = w->keys[ci].place;
    if (anim_data(w, ci, off, per_joint, total) < 0) return -1;
    int view = glb_add_view(w, start, total, 0);
    float tmin = 0, tmax = (float)(F - 1) / GPOSE_FPS;
    int input = glb_add_accessor(w, view, 0, GL_FLOAT, F, "SCALAR", 1, &tmin, &tmax);
    gj *g = &w->j;
    cJSON *a = gj_obj(g, anims, NULL);
    char name[64];
    glb_anim_name(c0->clip, c0->mode, name, sizeof name);
    gj_str(g, a, "name", name);
    cJSON *channels = gj_arr(g, a, "channels"), *samplers = gj_arr(g, a, "samplers");
    size_t o = off;
    for (unsigned i = 0; i < s->nmodels; i++)
        for (unsigned b = 0; b < s->model[i].bones; b++, o += per_joint) {
            int node = w->node0[i] + (int)b;
            int at = glb_add_accessor(w, view, o, GL_FLOAT, F, "VEC3", 3, NULL, NULL);
            int ar = glb_add_accessor(w, view, o + 3 * F * 4, GL_FLOAT, F, "VEC4", 4, NULL, NULL);
            int as = glb_add_accessor(w, view, o + 7 * F * 4, GL_FLOAT, F, "VEC3", 3, NULL, NULL);
            add_channel(g, samplers, channels, input, at, node, "translation");
            add_channel(g, samplers, channels, input, ar, node, "rotation");
            add_channel(g, samplers, channels, input, as, node, "scale");
        }
    for (unsigned i = 0; i < s->nmodels; i++) /* the un-scaling nodes: their scale alone */
        for (unsigned b = 0; b < s->model[i].bones; b++) {
            if (w->hnode[i][b] < 0) continue;
            int as = glb_add_accessor(w, view, o, GL_FLOAT, F, "VEC3", 3, NULL, NULL);
            add_channel(g, samplers, channels, input, as, w->hnode[i][b], "scale");
            o += F * 3 * sizeof(float);
        }
    cJSON *ex = gj_obj(g, a, "extras");
    gj_num(g, ex, "clip", c0->clip);
    gj_str(g, ex, "mode", mode_name(c0->mode));
    gj_num(g, ex, "keyframes", (double)F);
    gj_num(g, ex, "frames_per_second", GPOSE_FPS);
    gj_num(g, ex, "max_decomposition_error", dec);
    gj_num(g, ex, "max_position_error", pos);
    gj_num(g, ex, "max_placement_error", place);
    if (c0->note[0]) gj_str(g, ex, "note", c0->note);
    *st = (glb_anim_stats){c0->clip, c0->mode, F, dec, pos, place, start, total};
    return g->failed ? -1 : 0;
}
