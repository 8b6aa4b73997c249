/*
 * harness/gltf/glb_mesh.c: the joints of a .glb (glb_priv.h): a node per
 * bone at its rest transform, children linked as the layout says (under
 * their bone's parent, its un-scaling node, or the model's node:
 * glb_layout.c), the un-scaling nodes after the model's joints, and on
 * each a small mesh of its own: a bone shape toward each child at rest (in
 * the joint's own frame whatever the layout), or a diamond for a leaf.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/glb_priv.h"

static void trs_json(gj *g, cJSON *node, const gm_trs *x)
{
    cJSON *t = gj_arr(g, node, "translation"), *r = gj_arr(g, node, "rotation");
    cJSON *sc = gj_arr(g, node, "scale");
    for (int i = 0; i < 3; i++) gj_num(g, t, NULL, (float)x->t[i]);
    for (int i = 0; i < 4; i++) gj_num(g, r, NULL, (float)x->q[i]);
    for (int i = 0; i < 3; i++) gj_num(g, sc, NULL, (float)x->s[i]);
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

/* The shapes of joint b of model i into pos/idx (room for its children, at least one). */
static void joint_shapes(const glb_wr *w, unsigned i, unsigned b, double size, double *pos,
                         int *nv, uint16_t *idx, int *ni)
{
    const gpose_model *md = &w->s->model[i];
    for (unsigned c = b + 1; c < md->bones && *nv < 60000; c++) {
        if (md->parent[c] != (int)b) continue;
        const double *d = w->rest_off[i][c];
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (len > 1e-6 * size && len > 1e-9) bone_shape(d, fmin(0.1 * len, 0.03 * size), pos, nv, idx, ni);
    }
    if (*nv == 0) {
        double r = 0.02 * size, d[3] = {0, 0, r};
        bone_shape(d, 0.5 * r, pos, nv, idx, ni);
    }
}

/* Joint b of model i's mesh; its index, or -1 when memory runs out. */
static int add_mesh(glb_wr *w, cJSON *meshes, unsigned i, unsigned b, double size)
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
    joint_shapes(w, i, b, size, pos, &nv, idx, &ni);
    float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
    glb_align4(&w->bin);
    size_t at = w->bin.len;
    for (int v = 0; v < nv; v++)
        for (int d = 0; d < 3; d++) {
            float f = (float)pos[3 * v + d];
            mn[d] = fminf(mn[d], f);
            mx[d] = fmaxf(mx[d], f);
            sb_add(&w->bin, (const char *)&f, sizeof f);
        }
    int pv = glb_add_view(w, at, (size_t)nv * 12, GL_ARRAY_BUFFER);
    int pa = glb_add_accessor(w, pv, 0, GL_FLOAT, (size_t)nv, "VEC3", 3, mn, mx);
    glb_align4(&w->bin);
    at = w->bin.len;
    sb_add(&w->bin, (const char *)idx, (size_t)ni * sizeof *idx);
    int iv = glb_add_view(w, at, (size_t)ni * 2, GL_ELEMENT_ARRAY_BUFFER);
    int ia = glb_add_accessor(w, iv, 0, GL_USHORT, (size_t)ni, "SCALAR", 0, NULL, NULL);
    free(pos);
    free(idx);
    gj *g = &w->j;
    int mi = cJSON_GetArraySize(meshes);
    cJSON *m = gj_obj(g, meshes, NULL);
    cJSON *p = gj_obj(g, gj_arr(g, m, "primitives"), NULL);
    gj_num(g, gj_obj(g, p, "attributes"), "POSITION", pa);
    gj_num(g, p, "indices", ia);
    return g->failed || w->bin.failed ? -1 : mi;
}

/* Each joint's rest position in its bone parent's frame (the file's rest worlds in ws). */
static void rest_offsets(glb_wr *w, const glb_frame *ws, unsigned i)
{
    const gpose_model *md = &w->s->model[i];
    for (unsigned c = 0; c < md->bones; c++) {
        int p = md->parent[c];
        double *d = w->rest_off[i][c];
        if (p < 0 || (w->place[i][c] == p && !w->via[i][c])) {
            memcpy(d, w->rest[i][c].t, 3 * sizeof *d);
        } else { /* by its world or un-scaled parent: its position seen from the parent */
            gm_affine inv;
            gm_inverse(&ws->file[i][p], &inv);
            gm_apply(&inv, ws->file[i][c].t, d);
        }
    }
}

int glb_rest_pose(glb_wr *w, glb_frame *ws, double *size)
{
    const gpose_scene *s = w->s;
    double dec = 0, pos = 0, mn[3] = {0, 0, 0}, mx[3] = {0, 0, 0};
    size_t ci = 0;
    while (ci < s->model[0].nclips && s->model[0].clips[ci].frames == 0) ci++;
    for (unsigned i = 0; i < s->nmodels; i++) {
        size_t n = s->model[i].bones ? s->model[i].bones : 1;
        w->rest[i] = malloc(n * sizeof(gm_trs));
        w->rest_off[i] = calloc(n, sizeof *w->rest_off[i]);
        w->rest_h[i] = malloc(n * sizeof *w->rest_h[i]);
        if (!w->rest[i] || !w->rest_off[i] || !w->rest_h[i]) return -1;
        for (size_t b = 0; b < n; b++) {
            w->rest[i][b] = (gm_trs){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
            w->rest_h[i][b][0] = w->rest_h[i][b][1] = w->rest_h[i][b][2] = 1;
        }
    }
    if (ci < s->model[0].nclips) {
        glb_keyframe(w, ws, ci, 0, 1, &dec, &pos);
        for (unsigned i = 0; i < s->nmodels; i++) {
            memcpy(w->rest[i], ws->trs[i], s->model[i].bones * sizeof(gm_trs));
            memcpy(w->rest_h[i], ws->hs[i], s->model[i].bones * sizeof *w->rest_h[i]);
            rest_offsets(w, ws, i);
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

/* The children array of node n (made when it has none). */
static cJSON *children(gj *g, cJSON *n)
{
    cJSON *kids = cJSON_GetObjectItem(n, "children");
    return kids ? kids : gj_arr(g, n, "children");
}

/*
 * The un-scaling nodes of model i (after its joints), each under its
 * joint's node: no mesh, no translation or rotation, the scale at rest
 * (glb_layout.c). Their indices into w->hnode. -1: memory.
 */
static int add_unscale_nodes(glb_wr *w, cJSON *nodes, unsigned i)
{
    const gpose_model *md = &w->s->model[i];
    gj *g = &w->j;
    w->hnode[i] = malloc((md->bones ? md->bones : 1) * sizeof *w->hnode[i]);
    if (!w->hnode[i]) return -1;
    w->nhelpers[i] = 0;
    for (unsigned b = 0; b < md->bones; b++) {
        w->hnode[i][b] = -1;
        if (!glb_has_unscale(w, i, b)) continue;
        w->hnode[i][b] = cJSON_GetArraySize(nodes);
        w->nhelpers[i]++;
        cJSON *n = gj_obj(g, nodes, NULL);
        char name[80];
        glb_joint_name(w->s, i, b, name, sizeof name - sizeof GLB_UNSCALE_SUFFIX);
        strcat(name, GLB_UNSCALE_SUFFIX);
        gj_str(g, n, "name", name);
        cJSON *sc = gj_arr(g, n, "scale");
        for (int d = 0; d < 3; d++) gj_num(g, sc, NULL, (float)w->rest_h[i][b][d]);
        cJSON *ex = gj_obj(g, n, "extras");
        gj_str(g, ex, "helper", "unscale");
        gj_num(g, ex, "of_bone", b);
        gj_num(g, children(g, cJSON_GetArrayItem(nodes, w->node0[i] + (int)b)), NULL,
               w->hnode[i][b]);
    }
    return g->failed ? -1 : 0;
}

int glb_add_joints(glb_wr *w, cJSON *nodes, cJSON *meshes, cJSON *parent_kids, unsigned i,
                   double size)
{
    const gpose_model *md = &w->s->model[i];
    gj *g = &w->j;
    w->node0[i] = cJSON_GetArraySize(nodes);
    for (unsigned b = 0; b < md->bones; b++) {
        cJSON *n = gj_obj(g, nodes, NULL);
        char name[64];
        glb_joint_name(w->s, i, b, name, sizeof name);
        gj_str(g, n, "name", name);
        trs_json(g, n, &w->rest[i][b]);
        int mesh = add_mesh(w, meshes, i, b, size);
        if (mesh < 0) return -1;
        gj_num(g, n, "mesh", mesh);
        cJSON *ex = gj_obj(g, n, "extras");
        gj_num(g, ex, "bone", b);
        gj_num(g, ex, "parent", md->parent[b]);
        /* local: the node's TRS is relative to its bone parent's node (a root's: the model's
         * node); world: the node hangs under the model's node with its world TRS. */
        gj_str(g, ex, "placed", glb_under_unscale(w, i, b)      ? "unscaled"
                                : w->place[i][b] == md->parent[b] ? "local"
                                                                  : "world");
    }
    if (add_unscale_nodes(w, nodes, i) < 0) return -1;
    for (unsigned b = 0; b < md->bones; b++) {
        int p = w->place[i][b];
        cJSON *kids = parent_kids;
        if (p >= 0) {
            int pi = glb_under_unscale(w, i, b) ? w->hnode[i][p] : w->node0[i] + p;
            kids = children(g, cJSON_GetArrayItem(nodes, pi));
        }
        gj_num(g, kids, NULL, w->node0[i] + (int)b);
    }
    return g->failed ? -1 : 0;
}
