/*
 * harness/gltf/glb_write.c: a gpose_scene as a .glb (glb_write.h).
 *
 * The binary chunk holds, in order: each joint's mesh (positions, then
 * indices, one buffer view each), then each animation's data in one buffer
 * view of its own (key times, then per joint translation, rotation, scale),
 * so that an animation's bytes depend on its own matrices only.
 */
#include "harness/gltf/glb_write.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/strbuf.h"
#include "harness/gltf/gmath.h"
#include "harness/version.h"

#define GL_FLOAT 5126
#define GL_USHORT 5123
#define GL_ARRAY_BUFFER 34962
#define GL_ELEMENT_ARRAY_BUFFER 34963

void glb_joint_name(const gpose_scene *s, unsigned i, unsigned b, char *buf, size_t n)
{
    if (s->nmodels == 1)
        snprintf(buf, n, "bone_%03u", b);
    else
        snprintf(buf, n, "%s_bone_%03u", i ? "weapon" : "body", b);
}

void glb_anim_name(uint32_t clip, mode_id mode, char *buf, size_t n)
{
    if (mode == MODE_NORMAL)
        snprintf(buf, n, "clip_%03u", clip);
    else
        snprintf(buf, n, "clip_%03u_%s", clip, mode == MODE_SLOW_FAST ? "slowfast" : mode_name(mode));
}

void glb_stats_free(glb_stats *st)
{
    if (!st) return;
    free(st->anims);
    memset(st, 0, sizeof *st);
}

typedef struct wr {
    const gpose_scene *s;
    strbuf bin;
    cJSON *views, *accessors;
    int nviews, naccessors;
    int node0[2];  /* node index of bone 0 of each model */
    int weapon_node;
    gm_trs *rest[2];  /* each joint's TRS at the first keyframe (float values) */
} wr;

static void align4(strbuf *b)
{
    while (b->len % 4) sb_putc(b, 0);
}

static int add_view(wr *w, size_t off, size_t len, int target)
{
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "buffer", 0);
    cJSON_AddNumberToObject(v, "byteOffset", (double)off);
    cJSON_AddNumberToObject(v, "byteLength", (double)len);
    if (target) cJSON_AddNumberToObject(v, "target", target);
    cJSON_AddItemToArray(w->views, v);
    return w->nviews++;
}

static int add_accessor(wr *w, int view, size_t off, int ctype, size_t count, const char *type,
                        int ncomp, const float *min, const float *max)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", view);
    if (off) cJSON_AddNumberToObject(a, "byteOffset", (double)off);
    cJSON_AddNumberToObject(a, "componentType", ctype);
    cJSON_AddNumberToObject(a, "count", (double)count);
    cJSON_AddStringToObject(a, "type", type);
    if (min && max) {
        cJSON *mn = cJSON_AddArrayToObject(a, "min"), *mx = cJSON_AddArrayToObject(a, "max");
        for (int i = 0; i < ncomp; i++) {
            cJSON_AddItemToArray(mn, cJSON_CreateNumber(min[i]));
            cJSON_AddItemToArray(mx, cJSON_CreateNumber(max[i]));
        }
    }
    cJSON_AddItemToArray(w->accessors, a);
    return w->naccessors++;
}

/* The TRS values as the file stores them (float), back in double. */
static void round_trs(gm_trs *x)
{
    for (int i = 0; i < 3; i++) x->t[i] = (float)x->t[i], x->s[i] = (float)x->s[i];
    for (int i = 0; i < 4; i++) x->q[i] = (float)x->q[i];
}

/* ---- one keyframe: local TRS of every joint, and the error measures ---- */

typedef struct frame_ws {
    gm_affine *engine[2]; /* engine world per bone (the weapon's under base o attach) */
    gm_affine *file[2];   /* world composed from the file's TRS */
    gm_trs *trs[2];       /* this keyframe's TRS */
    double *prevq[2];     /* previous keyframe's quaternions (4 per bone) */
} frame_ws;

/* Computes ws->trs for keyframe k of clip index ci of every model; updates the errors. */
static void keyframe(const wr *w, frame_ws *ws, size_t ci, size_t k, int first, double *dec,
                     double *pos)
{
    const gpose_scene *s = w->s;
    for (unsigned i = 0; i < s->nmodels; i++) {
        const gpose_model *md = &s->model[i];
        const gpose_clip *c = &md->clips[ci];
        gm_affine *own = ws->engine[i];
        gm_affine att;
        gm_from_ref(&s->attach, &att);
        for (unsigned b = 0; b < md->bones; b++) {
            gm_from_ref(gpose_at(md, c, k, b), &own[b]);
            if (i == 1) gm_mul(&att, &own[b], &own[b]); /* the weapon as drawn: base o attach */
        }
        for (unsigned b = 0; b < md->bones; b++) {
            gm_affine local, inv;
            int p = md->parent[b];
            if (p >= 0) {
                gm_inverse(&own[p], &inv);
                gm_mul(&inv, &own[b], &local);
            } else {
                local = own[b];
            }
            double e = gm_decompose(&local, first ? NULL : &ws->prevq[i][4 * b], &ws->trs[i][b]);
            if (e > *dec) *dec = e;
            round_trs(&ws->trs[i][b]);
            memcpy(&ws->prevq[i][4 * b], ws->trs[i][b].q, 4 * sizeof(double));
        }
        /* The world positions a viewer composes from the file's values. */
        for (unsigned b = 0; b < md->bones; b++) {
            gm_affine l;
            gm_from_trs(&ws->trs[i][b], &l);
            int p = md->parent[b];
            if (p >= 0)
                gm_mul(&ws->file[i][p], &l, &ws->file[i][b]);
            else
                ws->file[i][b] = l;
        }
        for (unsigned b = 0; b < md->bones; b++) {
            const double *want = own[b].t;
            double d = 0;
            for (int x = 0; x < 3; x++)
                d += (ws->file[i][b].t[x] - want[x]) * (ws->file[i][b].t[x] - want[x]);
            if (sqrt(d) > *pos) *pos = sqrt(d);
        }
    }
}

static int ws_alloc(frame_ws *ws, const gpose_scene *s)
{
    memset(ws, 0, sizeof *ws);
    for (unsigned i = 0; i < s->nmodels; i++) {
        size_t n = s->model[i].bones ? s->model[i].bones : 1;
        ws->engine[i] = malloc(n * sizeof(gm_affine));
        ws->file[i] = malloc(n * sizeof(gm_affine));
        ws->trs[i] = malloc(n * sizeof(gm_trs));
        ws->prevq[i] = malloc(n * 4 * sizeof(double));
        if (!ws->engine[i] || !ws->file[i] || !ws->trs[i] || !ws->prevq[i]) return -1;
    }
    return 0;
}

static void ws_free(frame_ws *ws)
{
    for (int i = 0; i < 2; i++) {
        free(ws->engine[i]);
        free(ws->file[i]);
        free(ws->trs[i]);
        free(ws->prevq[i]);
    }
}

/* ---- animations ---- */

static void add_channel(cJSON *samplers, cJSON *channels, int input, int output, int node,
                        const char *path)
{
    int si = cJSON_GetArraySize(samplers);
    cJSON *sm = cJSON_CreateObject();
    cJSON_AddNumberToObject(sm, "input", input);
    cJSON_AddStringToObject(sm, "interpolation", "LINEAR");
    cJSON_AddNumberToObject(sm, "output", output);
    cJSON_AddItemToArray(samplers, sm);
    cJSON *ch = cJSON_CreateObject(), *tg = cJSON_CreateObject();
    cJSON_AddNumberToObject(ch, "sampler", si);
    cJSON_AddNumberToObject(tg, "node", node);
    cJSON_AddStringToObject(tg, "path", path);
    cJSON_AddItemToObject(ch, "target", tg);
    cJSON_AddItemToArray(channels, ch);
}

/* Animation of clip index ci (frames keyframes): data, accessors, JSON. */
static int add_anim(wr *w, frame_ws *ws, size_t ci, cJSON *anims, glb_anim_stats *st)
{
    const gpose_scene *s = w->s;
    const gpose_clip *c0 = &s->model[0].clips[ci];
    size_t F = c0->frames;
    align4(&w->bin);
    size_t start = w->bin.len;
    /* Times first, then per model and joint T (F x 3), R (F x 4), S (F x 3). */
    for (size_t k = 0; k < F; k++) {
        float t = (float)k / GPOSE_FPS;
        sb_add(&w->bin, (const char *)&t, sizeof t);
    }
    size_t per_joint = F * 10 * sizeof(float), off = F * sizeof(float), total = off;
    for (unsigned i = 0; i < s->nmodels; i++) total += per_joint * s->model[i].bones;
    size_t base = w->bin.len - off;
    for (size_t z = off; z < total; z++) sb_putc(&w->bin, 0);
    if (w->bin.failed) return -1;
    double dec = 0, pos = 0;
    for (size_t k = 0; k < F; k++) {
        keyframe(w, ws, ci, k, k == 0, &dec, &pos);
        size_t o = off;
        for (unsigned i = 0; i < s->nmodels; i++)
            for (unsigned b = 0; b < s->model[i].bones; b++, o += per_joint) {
                float *p = (float *)(void *)(w->bin.s + base + o);
                const gm_trs *x = &ws->trs[i][b];
                for (int d = 0; d < 3; d++) p[3 * k + d] = (float)x->t[d];
                for (int d = 0; d < 4; d++) p[3 * F + 4 * k + d] = (float)x->q[d];
                for (int d = 0; d < 3; d++) p[7 * F + 3 * k + d] = (float)x->s[d];
            }
    }
    int view = add_view(w, start, total, 0);
    float tmin = 0, tmax = (float)(F - 1) / GPOSE_FPS;
    int input = add_accessor(w, view, 0, GL_FLOAT, F, "SCALAR", 1, &tmin, &tmax);
    cJSON *a = cJSON_CreateObject();
    char name[64];
    glb_anim_name(c0->clip, c0->mode, name, sizeof name);
    cJSON_AddStringToObject(a, "name", name);
    cJSON *channels = cJSON_AddArrayToObject(a, "channels");
    cJSON *samplers = cJSON_AddArrayToObject(a, "samplers");
    size_t o = off;
    for (unsigned i = 0; i < s->nmodels; i++)
        for (unsigned b = 0; b < s->model[i].bones; b++, o += per_joint) {
            int node = w->node0[i] + (int)b;
            int at = add_accessor(w, view, o, GL_FLOAT, F, "VEC3", 3, NULL, NULL);
            int ar = add_accessor(w, view, o + 3 * F * 4, GL_FLOAT, F, "VEC4", 4, NULL, NULL);
            int as = add_accessor(w, view, o + 7 * F * 4, GL_FLOAT, F, "VEC3", 3, NULL, NULL);
            add_channel(samplers, channels, input, at, node, "translation");
            add_channel(samplers, channels, input, ar, node, "rotation");
            add_channel(samplers, channels, input, as, node, "scale");
        }
    cJSON *ex = cJSON_AddObjectToObject(a, "extras");
    cJSON_AddNumberToObject(ex, "clip", c0->clip);
    cJSON_AddStringToObject(ex, "mode", mode_name(c0->mode));
    cJSON_AddNumberToObject(ex, "keyframes", (double)F);
    cJSON_AddNumberToObject(ex, "frames_per_second", GPOSE_FPS);
    cJSON_AddNumberToObject(ex, "max_decomposition_error", dec);
    cJSON_AddNumberToObject(ex, "max_position_error", pos);
    if (c0->note[0]) cJSON_AddStringToObject(ex, "note", c0->note);
    cJSON_AddItemToArray(anims, a);
    *st = (glb_anim_stats){c0->clip, c0->mode, F, dec, pos, start, total};
    return 0;
}

/* ---- nodes and meshes ---- */

static cJSON *trs_json(cJSON *node, const gm_trs *x)
{
    cJSON *t = cJSON_AddArrayToObject(node, "translation");
    cJSON *r = cJSON_AddArrayToObject(node, "rotation");
    cJSON *sc = cJSON_AddArrayToObject(node, "scale");
    for (int i = 0; i < 3; i++) cJSON_AddItemToArray(t, cJSON_CreateNumber((float)x->t[i]));
    for (int i = 0; i < 4; i++) cJSON_AddItemToArray(r, cJSON_CreateNumber((float)x->q[i]));
    for (int i = 0; i < 3; i++) cJSON_AddItemToArray(sc, cJSON_CreateNumber((float)x->s[i]));
    return node;
}

/* A bone shape from the origin to d (6 vertices, 8 triangles) appended to pos/idx. */
static void bone_shape(const double d[3], double r, double *pos, int *nv, uint16_t *idx, int *ni)
{
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), u[3], v[3], a[3];
    int k = fabs(d[0]) < fabs(d[1]) ? (fabs(d[0]) < fabs(d[2]) ? 0 : 2) : (fabs(d[1]) < fabs(d[2]) ? 1 : 2);
    a[0] = a[1] = a[2] = 0;
    a[k] = 1;
    u[0] = d[1] * a[2] - d[2] * a[1], u[1] = d[2] * a[0] - d[0] * a[2], u[2] = d[0] * a[1] - d[1] * a[0];
    double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; i++) u[i] = u[i] / ul * r;
    v[0] = d[1] * u[2] - d[2] * u[1], v[1] = d[2] * u[0] - d[0] * u[2], v[2] = d[0] * u[1] - d[1] * u[0];
    for (int i = 0; i < 3; i++) v[i] = v[i] / len;
    int b = *nv;
    double *p = pos + 3 * b;
    for (int i = 0; i < 3; i++) {
        p[i] = 0;
        p[3 + i] = d[i];
        p[6 + i] = 0.2 * d[i] + u[i];
        p[9 + i] = 0.2 * d[i] + v[i];
        p[12 + i] = 0.2 * d[i] - u[i];
        p[15 + i] = 0.2 * d[i] - v[i];
    }
    static const uint16_t tri[24] = {0, 3, 2, 0, 4, 3, 0, 5, 4, 0, 2, 5,
                                     1, 2, 3, 1, 3, 4, 1, 4, 5, 1, 5, 2};
    for (int i = 0; i < 24; i++) idx[*ni + i] = (uint16_t)(b + tri[i]);
    *nv += 6;
    *ni += 24;
}

/* Joint b of model i's mesh: toward each child at rest, or a diamond; returns the mesh index. */
static int add_mesh(wr *w, cJSON *meshes, unsigned i, unsigned b, double size)
{
    const gpose_model *md = &w->s->model[i];
    unsigned kids = 0;
    for (unsigned c = b + 1; c < md->bones; c++) kids += md->parent[c] == (int)b;
    size_t cap = (size_t)(kids ? kids : 1);
    double *pos = malloc(cap * 18 * sizeof *pos);
    uint16_t *idx = malloc(cap * 24 * sizeof *idx);
    if (!pos || !idx) {
        free(pos);
        free(idx);
        return -1;
    }
    int nv = 0, ni = 0;
    for (unsigned c = b + 1; c < md->bones && nv < 60000; c++) {
        if (md->parent[c] != (int)b) continue;
        const double *d = w->rest[i][c].t;
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (len > 1e-6 * size && len > 1e-9) bone_shape(d, fmin(0.1 * len, 0.03 * size), pos, &nv, idx, &ni);
    }
    if (nv == 0) {
        static const double dir[3] = {0, 0, 1};
        double r = 0.02 * size, d[3] = {dir[0] * r, dir[1] * r, dir[2] * r};
        bone_shape(d, 0.5 * r, pos, &nv, idx, &ni);
    }
    float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
    align4(&w->bin);
    size_t at = w->bin.len;
    for (int v = 0; v < nv; v++)
        for (int d = 0; d < 3; d++) {
            float f = (float)pos[3 * v + d];
            mn[d] = fminf(mn[d], f);
            mx[d] = fmaxf(mx[d], f);
            sb_add(&w->bin, (const char *)&f, sizeof f);
        }
    int pv = add_view(w, at, (size_t)nv * 12, GL_ARRAY_BUFFER);
    int pa = add_accessor(w, pv, 0, GL_FLOAT, (size_t)nv, "VEC3", 3, mn, mx);
    align4(&w->bin);
    at = w->bin.len;
    sb_add(&w->bin, (const char *)idx, (size_t)ni * sizeof *idx);
    int iv = add_view(w, at, (size_t)ni * 2, GL_ELEMENT_ARRAY_BUFFER);
    int ia = add_accessor(w, iv, 0, GL_USHORT, (size_t)ni, "SCALAR", 0, NULL, NULL);
    free(pos);
    free(idx);
    cJSON *m = cJSON_CreateObject(), *prims = cJSON_AddArrayToObject(m, "primitives");
    cJSON *p = cJSON_CreateObject(), *attr = cJSON_AddObjectToObject(p, "attributes");
    cJSON_AddNumberToObject(attr, "POSITION", pa);
    cJSON_AddNumberToObject(p, "indices", ia);
    cJSON_AddItemToArray(prims, p);
    int mi = cJSON_GetArraySize(meshes);
    cJSON_AddItemToArray(meshes, m);
    return mi;
}

/* The rest TRS (first keyframe of the first clip that has one) and the skeleton's size. */
static int rest_pose(wr *w, frame_ws *ws, double *size)
{
    const gpose_scene *s = w->s;
    double dec = 0, pos = 0, mn[3] = {0, 0, 0}, mx[3] = {0, 0, 0};
    size_t ci = 0;
    while (ci < s->model[0].nclips && s->model[0].clips[ci].frames == 0) ci++;
    for (unsigned i = 0; i < s->nmodels; i++) {
        size_t n = s->model[i].bones ? s->model[i].bones : 1;
        if (!(w->rest[i] = malloc(n * sizeof(gm_trs)))) return -1;
        for (size_t b = 0; b < n; b++) w->rest[i][b] = (gm_trs){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    }
    if (ci < s->model[0].nclips) {
        keyframe(w, ws, ci, 0, 1, &dec, &pos);
        for (unsigned i = 0; i < s->nmodels; i++) {
            memcpy(w->rest[i], ws->trs[i], s->model[i].bones * sizeof(gm_trs));
            for (unsigned b = 0; b < s->model[i].bones; b++)
                for (int d = 0; d < 3; d++) {
                    mn[d] = fmin(mn[d], ws->file[i][b].t[d]);
                    mx[d] = fmax(mx[d], ws->file[i][b].t[d]);
                }
        }
    }
    double e = sqrt((mx[0] - mn[0]) * (mx[0] - mn[0]) + (mx[1] - mn[1]) * (mx[1] - mn[1]) +
                    (mx[2] - mn[2]) * (mx[2] - mn[2]));
    *size = e > 1e-6 ? e : 1.0;
    return 0;
}

/* The joint nodes of model i, children linked; each with its mesh. */
static int add_joints(wr *w, cJSON *nodes, cJSON *meshes, cJSON *parent_kids, unsigned i,
                      double size)
{
    const gpose_model *md = &w->s->model[i];
    w->node0[i] = cJSON_GetArraySize(nodes);
    for (unsigned b = 0; b < md->bones; b++) {
        cJSON *n = cJSON_CreateObject();
        char name[64];
        glb_joint_name(w->s, i, b, name, sizeof name);
        cJSON_AddStringToObject(n, "name", name);
        trs_json(n, &w->rest[i][b]);
        int mesh = add_mesh(w, meshes, i, b, size);
        if (mesh < 0) {
            cJSON_Delete(n);
            return -1;
        }
        cJSON_AddNumberToObject(n, "mesh", mesh);
        cJSON *ex = cJSON_AddObjectToObject(n, "extras");
        cJSON_AddNumberToObject(ex, "bone", b);
        cJSON_AddNumberToObject(ex, "parent", md->parent[b]);
        cJSON_AddItemToArray(nodes, n);
    }
    for (unsigned b = 0; b < md->bones; b++) {
        int p = md->parent[b];
        cJSON *kids = p < 0 ? parent_kids : NULL;
        if (p >= 0) {
            cJSON *pn = cJSON_GetArrayItem(nodes, w->node0[i] + p);
            kids = cJSON_GetObjectItem(pn, "children");
            if (!kids) kids = cJSON_AddArrayToObject(pn, "children");
        }
        cJSON_AddItemToArray(kids, cJSON_CreateNumber(w->node0[i] + (int)b));
    }
    return 0;
}

static void meta_json(cJSON *doc, const gpose_scene *s, const glb_meta *meta)
{
    cJSON *asset = cJSON_AddObjectToObject(doc, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "ff8diff " FF8DIFF_VERSION);
    cJSON *ex = cJSON_AddObjectToObject(asset, "extras");
    cJSON_AddStringToObject(ex, "scene", s->name);
    if (meta && meta->source) cJSON_AddStringToObject(ex, "source", meta->source);
    if (meta && meta->exe) cJSON_AddStringToObject(ex, "executable_sha256", meta->exe);
    if (meta && meta->profile) cJSON_AddStringToObject(ex, "profile", meta->profile);
    if (meta && meta->pose) cJSON_AddStringToObject(ex, "pose_convention", meta->pose);
    cJSON_AddNumberToObject(ex, "frames_per_second", GPOSE_FPS);
    cJSON_AddStringToObject(ex, "joint_names", "bone_NNN: NNN is the bone's index in the skeleton");
}

/* The GLB container around json and the binary chunk. */
static int container(const char *json, const strbuf *bin, uint8_t **out, size_t *len,
                     size_t *bin_at, ff_error *err)
{
    size_t jl = strlen(json), jp = (jl + 3) & ~(size_t)3, bp = (bin->len + 3) & ~(size_t)3;
    uint64_t total = 12 + 8 + (uint64_t)jp + 8 + bp;
    if (total > 0xFFFFFFFFu)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "the .glb would pass 4 GiB");
    uint8_t *g = calloc(1, (size_t)total);
    if (!g) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the .glb");
    uint32_t h[5] = {0x46546C67u, 2, (uint32_t)total, (uint32_t)jp, 0x4E4F534Au};
    memcpy(g, h, sizeof h);
    memcpy(g + 20, json, jl);
    memset(g + 20 + jl, ' ', jp - jl);
    uint32_t bh[2] = {(uint32_t)bp, 0x004E4942u};
    memcpy(g + 20 + jp, bh, sizeof bh);
    if (bin->len) memcpy(g + 28 + jp, bin->s, bin->len);
    *bin_at = 28 + jp;
    *out = g;
    *len = (size_t)total;
    return 0;
}

int glb_build(const gpose_scene *s, const glb_meta *meta, uint8_t **out, size_t *len,
              glb_stats *st, ff_error *err)
{
    wr w;
    memset(&w, 0, sizeof w);
    w.s = s;
    sb_init(&w.bin);
    frame_ws ws;
    memset(&ws, 0, sizeof ws);
    glb_stats stats;
    memset(&stats, 0, sizeof stats);
    cJSON *doc = cJSON_CreateObject();
    char *json = NULL;
    int rc = -1;
    double size;
    size_t nanim = s->model[0].nclips;
    stats.anims = calloc(nanim ? nanim : 1, sizeof *stats.anims);
    if (!doc || !stats.anims || ws_alloc(&ws, s) < 0) goto nomem;
    if (rest_pose(&w, &ws, &size) < 0) goto nomem;
    meta_json(doc, s, meta);
    cJSON_AddNumberToObject(doc, "scene", 0);
    cJSON *scene = cJSON_CreateObject(), *scenes = cJSON_AddArrayToObject(doc, "scenes");
    cJSON_AddStringToObject(scene, "name", s->name);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(scene, "nodes"), cJSON_CreateNumber(0));
    cJSON_AddItemToArray(scenes, scene);
    cJSON *nodes = cJSON_AddArrayToObject(doc, "nodes");
    cJSON *meshes = cJSON_CreateArray();
    w.views = cJSON_CreateArray();
    w.accessors = cJSON_CreateArray();
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", s->name);
    cJSON *root_kids = cJSON_AddArrayToObject(root, "children");
    cJSON_AddItemToArray(nodes, root);
    if (add_joints(&w, nodes, meshes, root_kids, 0, size) < 0) goto nomem;
    if (s->nmodels == 2) {
        cJSON *an = cJSON_CreateObject();
        cJSON_AddStringToObject(an, "name", "weapon");
        cJSON *ak = cJSON_AddArrayToObject(an, "children");
        w.weapon_node = cJSON_GetArraySize(nodes);
        cJSON_AddItemToArray(nodes, an);
        cJSON_AddItemToArray(root_kids, cJSON_CreateNumber(w.weapon_node));
        if (add_joints(&w, nodes, meshes, ak, 1, size) < 0) goto nomem;
        if (cJSON_GetArraySize(ak) == 0) cJSON_DeleteItemFromObject(an, "children");
    }
    if (cJSON_GetArraySize(root_kids) == 0) cJSON_DeleteItemFromObject(root, "children");
    if (cJSON_GetArraySize(meshes)) cJSON_AddItemToObject(doc, "meshes", meshes);
    else cJSON_Delete(meshes);
    cJSON *anims = cJSON_CreateArray();
    for (size_t ci = 0; ci < nanim; ci++) {
        if (s->model[0].clips[ci].frames == 0 || s->model[0].bones + (s->nmodels == 2 ? s->model[1].bones : 0) == 0) continue;
        if (add_anim(&w, &ws, ci, anims, &stats.anims[stats.nanims]) < 0) {
            cJSON_Delete(anims);
            goto nomem;
        }
        glb_anim_stats *a = &stats.anims[stats.nanims++];
        stats.keyframes += a->frames;
        stats.decomposition_error = fmax(stats.decomposition_error, a->decomposition_error);
        stats.position_error = fmax(stats.position_error, a->position_error);
    }
    if (cJSON_GetArraySize(anims)) cJSON_AddItemToObject(doc, "animations", anims);
    else cJSON_Delete(anims);
    align4(&w.bin);
    if (w.bin.failed) goto nomem;
    if (w.bin.len) {
        cJSON *buf = cJSON_CreateObject();
        cJSON_AddNumberToObject(buf, "byteLength", (double)w.bin.len);
        cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "buffers"), buf);
        cJSON_AddItemToObject(doc, "bufferViews", w.views);
        cJSON_AddItemToObject(doc, "accessors", w.accessors);
    } else {
        cJSON_Delete(w.views);
        cJSON_Delete(w.accessors);
    }
    w.views = w.accessors = NULL;
    json = cJSON_PrintUnformatted(doc);
    if (!json) goto nomem;
    rc = container(json, &w.bin, out, len, &stats.bin_offset, err);
    goto done;
nomem:
    ff_error_set(err, FF_E_NOMEM, s->name, -1, "out of memory for the .glb");
done:
    cJSON_Delete(w.views);
    cJSON_Delete(w.accessors);
    cJSON_Delete(doc);
    free(json);
    ws_free(&ws);
    free(w.rest[0]);
    free(w.rest[1]);
    sb_free(&w.bin);
    if (rc == 0 && st)
        *st = stats;
    else
        glb_stats_free(&stats);
    return rc;
}
