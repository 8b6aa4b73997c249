/*
 * tests/gltf/test_gltf_joints.c: the joint layout of an export against its
 * position tolerance, on every model file of the synthetic vanilla preset (every
 * fourth under the sanitizers)
 * posed by the reference under the notes' layout (the defaults: the model
 * scale on the root, the scale path's stack).
 *
 * The file is read here, not through the exporter's code: the JSON's
 * nodes, their children and the animations' accessors, the binary chunk's
 * floats; each keyframe's node transforms are composed down the node tree
 * with this file's own quaternion and matrix arithmetic, and compared with
 * the engine's matrices the poses hold (Q12 cells, integer translations):
 *   - every joint, and every point that hangs on it (each child bone at its
 *     rest offset in the joint's engine frame), lands within the tolerance
 *     the file states (asset.extras.joint_tolerance.game_units) on every
 *     keyframe, except on keyframes where the engine's own matrix is no
 *     rotation times scale (no TRS anywhere can hold it: the wrapped cells
 *     of a clip past the scale channels' range);
 *   - a joint placed by its world transform is one that no TRS under its
 *     parent can hold: on some keyframe its matrix relative to its parent's
 *     is sheared (a scale under a rotation) or its parent's is singular;
 *   - a joint hangs under its parent's node, under its parent's un-scaling
 *     node (named after the parent's joint, under it, no mesh, only its
 *     scale animated: the walk above composes it like any node), or under
 *     the model's node;
 *   - files whose clips never take the scale path keep at least 95% of
 *     their joints under their parents (every one, in fact, as asserted
 *     per joint above: none of them is sheared), files whose clips take it
 *     with uneven scales too, some through un-scaling nodes, and so at
 *     least 95% of all joints; the file's own counts
 *     (asset.extras.joints_under_parent, joints_under_unscale_node) are
 *     the nodes' counts.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/manifest.h"
#include "corpus/synth.h"
#include "harness/gltf/glb_write.h"
#include "harness/gltf/gpose.h"
#include "ref/dat.h"
#include "tests/support/ts.h"

typedef struct aff {
    double a[3][3], t[3];
} aff;

static void mul(const aff *x, const aff *y, aff *o)
{
    aff r;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            r.a[i][j] = x->a[i][0] * y->a[0][j] + x->a[i][1] * y->a[1][j] + x->a[i][2] * y->a[2][j];
        r.t[i] = x->a[i][0] * y->t[0] + x->a[i][1] * y->t[1] + x->a[i][2] * y->t[2] + x->t[i];
    }
    *o = r;
}

/* The glTF node transform T . R(q) . S. */
static void from_trs(const float *t, const float *q, const float *s, aff *o)
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) o->a[i][j] = r[i][j] * s[j];
        o->t[i] = t[i];
    }
}

static void engine(const ref_matrix *m, aff *o)
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) o->a[i][j] = m->m[i][j] / 4096.0;
        o->t[i] = m->t[i];
    }
}

static double det3(const double a[3][3])
{
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* x's inverse applied to p (x's 3x3 invertible) by Cramer's rule. */
static void solve(const aff *x, const double p[3], double out[3])
{
    double b[3] = {p[0] - x->t[0], p[1] - x->t[1], p[2] - x->t[2]}, d = det3(x->a);
    for (int k = 0; k < 3; k++) {
        double m[3][3];
        memcpy(m, x->a, sizeof m);
        for (int i = 0; i < 3; i++) m[i][k] = b[i];
        out[k] = det3(m) / d;
    }
}

/* The largest |cosine| between two columns of a (0: a rotation times a scale). */
static double shear(const double a[3][3])
{
    double e = 0;
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) {
            double d = 0, ni = 0, nj = 0;
            for (int r = 0; r < 3; r++) {
                d += a[r][i] * a[r][j];
                ni += a[r][i] * a[r][i];
                nj += a[r][j] * a[r][j];
            }
            if (ni > 0 && nj > 0) e = fmax(e, fabs(d) / sqrt(ni * nj));
        }
    return e;
}

static double apart(const aff *f, const aff *e, const double x[3])
{
    double d = 0;
    for (int r = 0; r < 3; r++) {
        double v = f->t[r] - e->t[r];
        for (int c = 0; c < 3; c++) v += (f->a[r][c] - e->a[r][c]) * x[c];
        d += v * v;
    }
    return sqrt(d);
}

/* A .glb read back: its JSON and its binary chunk's data. */
typedef struct glb {
    cJSON *doc;
    const uint8_t *bin;
    int nnodes, *parent; /* each node's parent node, -1 for a scene root */
    int *order;          /* the nodes, each after its parent (breadth first from the roots) */
    float (*rest)[10];   /* each node's rest translation, rotation, scale (rest_of) */
    size_t *acc_off;     /* each accessor's data: its offset in the binary chunk */
    size_t nacc;
} glb;

static void rest_of(cJSON *node, float t[3], float q[4], float s[3]);

static void glb_open(const uint8_t *g, size_t len, glb *o)
{
    uint32_t jl, bl;
    cr_assert(len > 28);
    memcpy(&jl, g + 12, 4);
    cr_assert(28 + (size_t)jl <= len);
    memcpy(&bl, g + 20 + jl, 4);
    o->doc = cJSON_ParseWithLength((const char *)g + 20, jl);
    cr_assert(o->doc, "the JSON chunk does not parse");
    o->bin = g + 28 + jl;
    cJSON *nodes = cJSON_GetObjectItem(o->doc, "nodes");
    o->nnodes = cJSON_GetArraySize(nodes);
    o->parent = malloc((size_t)o->nnodes * sizeof *o->parent);
    for (int n = 0; n < o->nnodes; n++) o->parent[n] = -1;
    for (int n = 0; n < o->nnodes; n++) {
        cJSON *kids = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, n), "children"), *k;
        cJSON_ArrayForEach(k, kids) o->parent[k->valueint] = n;
    }
    o->order = malloc((size_t)o->nnodes * sizeof *o->order);
    int nord = 0;
    for (int n = 0; n < o->nnodes; n++)
        if (o->parent[n] < 0) o->order[nord++] = n;
    for (int at = 0; at < nord; at++) {
        cJSON *kids = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, o->order[at]), "children"), *k;
        cJSON_ArrayForEach(k, kids)
        {
            cr_assert_lt(nord, o->nnodes, "a node under two parents");
            o->order[nord++] = k->valueint;
        }
    }
    cr_assert_eq(nord, o->nnodes, "a node is in no tree, or in two");
    /* Read once: an item looked up by index walks cJSON's list each time. */
    cJSON *views = cJSON_GetObjectItem(o->doc, "bufferViews"), *acc, *v;
    size_t nviews = (size_t)cJSON_GetArraySize(views), k = 0;
    size_t *view_off = calloc(nviews ? nviews : 1, sizeof *view_off);
    cJSON_ArrayForEach(v, views)
    {
        cJSON *vo = cJSON_GetObjectItem(v, "byteOffset");
        view_off[k++] = (size_t)(vo ? vo->valuedouble : 0);
    }
    cJSON *accs = cJSON_GetObjectItem(o->doc, "accessors");
    o->nacc = (size_t)cJSON_GetArraySize(accs);
    o->acc_off = calloc(o->nacc + 1, sizeof *o->acc_off);
    k = 0;
    cJSON_ArrayForEach(acc, accs)
    {
        int bv = cJSON_GetObjectItem(acc, "bufferView")->valueint;
        cJSON *ao = cJSON_GetObjectItem(acc, "byteOffset");
        cr_assert(bv >= 0 && (size_t)bv < nviews, "accessor %zu: bufferView %d", k, bv);
        o->acc_off[k++] = view_off[bv] + (size_t)(ao ? ao->valuedouble : 0);
    }
    free(view_off);
    o->rest = malloc((size_t)o->nnodes * sizeof *o->rest);
    cJSON *node;
    int n = 0;
    cJSON_ArrayForEach(node, nodes)
    {
        rest_of(node, o->rest[n], o->rest[n] + 3, o->rest[n] + 7);
        n++;
    }
}

/* Accessor a's floats. */
static const float *floats(const glb *g, int a)
{
    cr_assert(a >= 0 && (size_t)a < g->nacc, "accessor %d of %zu", a, g->nacc);
    return (const float *)(const void *)(g->bin + g->acc_off[a]);
}

/* Node n's rest TRS. */
static void rest_of(cJSON *node, float t[3], float q[4], float s[3])
{
    float dt[3] = {0, 0, 0}, dq[4] = {0, 0, 0, 1}, ds[3] = {1, 1, 1};
    memcpy(t, dt, sizeof dt), memcpy(q, dq, sizeof dq), memcpy(s, ds, sizeof ds);
    cJSON *x;
    int i = 0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(node, "translation")) t[i++] = (float)x->valuedouble;
    i = 0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(node, "rotation")) q[i++] = (float)x->valuedouble;
    i = 0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(node, "scale")) s[i++] = (float)x->valuedouble;
}

typedef struct tally {
    unsigned joints, under, plain_joints, plain_under, unscaled;
    unsigned scale_joints, scale_under; /* of the files whose clips take the scale path */
    double worst; /* largest error / tolerance on keyframes whose engine matrices are R.S */
} tally;

/* Checks one model file's export; md its poses, g its file read back. */
static void check_file(const gpose_model *md, const glb *g, tally *ty, int plain)
{
    cJSON *nodes = cJSON_GetObjectItem(g->doc, "nodes");
    cJSON *ex = cJSON_GetObjectItem(cJSON_GetObjectItem(g->doc, "asset"), "extras");
    double tol = cJSON_GetObjectItem(cJSON_GetObjectItem(ex, "joint_tolerance"), "game_units")
                     ->valuedouble;
    cr_assert(tol > 0, "%s: no tolerance stated", md->name);
    /* Joint b's node is node 1 + b (node 0: the model's), named bone_NNN; it hangs under its
     * parent's node, or under its parent's un-scaling node (a node of no bone after the
     * joints', under the parent's, named bone_PPP_unscale, its scale alone animated), or
     * under the model's node. */
    unsigned under = 0, unscaled = 0;
    int *world = calloc(md->bones, sizeof *world), *sheared = calloc(md->bones, sizeof *sheared);
    for (unsigned b = 0; b < md->bones; b++) {
        char want[32];
        snprintf(want, sizeof want, "bone_%03u", b);
        cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 1 + (int)b), "name")->valuestring,
                         want);
        int pn = g->parent[1 + b], p = md->parent[b];
        if (p >= 0 && pn == 1 + p) under++;
        else if (p >= 0 && pn > (int)md->bones) {
            char helper[48];
            snprintf(helper, sizeof helper, "bone_%03d" GLB_UNSCALE_SUFFIX, p);
            cJSON *hn = cJSON_GetArrayItem(nodes, pn);
            cr_assert_str_eq(cJSON_GetObjectItem(hn, "name")->valuestring, helper);
            cr_assert_eq(g->parent[pn], 1 + p, "%s: %s not under its joint", md->name, helper);
            cr_assert_null(cJSON_GetObjectItem(hn, "mesh"));
            under++, unscaled++;
        } else if (p >= 0) {
            cr_assert_eq(pn, 0, "%s bone %u: under node %d", md->name, b, pn);
            world[b] = 1;
        }
    }
    cr_assert_eq(cJSON_GetObjectItem(ex, "joints_under_parent")->valueint, (int)under,
                 "%s: the file's count is not its nodes'", md->name);
    cr_assert_eq(cJSON_GetObjectItem(ex, "joints_under_unscale_node")->valueint, (int)unscaled,
                 "%s: the file's count of joints under un-scaling nodes is not its nodes'",
                 md->name);
    ty->joints += md->bones;
    unsigned roots = 0;
    for (unsigned b = 0; b < md->bones; b++) roots += md->parent[b] < 0;
    ty->under += under + roots;
    ty->unscaled += unscaled;
    if (plain) ty->plain_joints += md->bones, ty->plain_under += under + roots;
    else ty->scale_joints += md->bones, ty->scale_under += under + roots;
    /* Rest offsets of each bone in its parent's engine frame (first keyframe of the first clip). */
    double (*off)[3] = calloc(md->bones, sizeof *off);
    size_t c0 = 0;
    while (c0 < md->nclips && !md->clips[c0].frames) c0++;
    cr_assert(c0 < md->nclips);
    for (unsigned b = 0; b < md->bones; b++) {
        aff ep, eb;
        if (md->parent[b] < 0) continue;
        engine(gpose_at(md, &md->clips[c0], 0, (unsigned)md->parent[b]), &ep);
        engine(gpose_at(md, &md->clips[c0], 0, b), &eb);
        if (fabs(det3(ep.a)) > 1e-12) solve(&ep, eb.t, off[b]);
    }
    aff *file = malloc((size_t)g->nnodes * sizeof *file), *eng = malloc(md->bones * sizeof *eng);
    cJSON *anims = cJSON_GetObjectItem(g->doc, "animations"), *an;
    size_t ci = 0;
    cJSON_ArrayForEach(an, anims)
    {
        while (ci < md->nclips && !md->clips[ci].frames) ci++;
        cr_assert(ci < md->nclips);
        const gpose_clip *cl = &md->clips[ci++];
        size_t F = (size_t)cJSON_GetObjectItem(cJSON_GetObjectItem(an, "extras"), "keyframes")->valueint;
        cr_assert_eq(F, cl->frames);
        /* Each joint's channels: translation, rotation, scale samplers' outputs. */
        const float **ch = calloc((size_t)g->nnodes * 3, sizeof *ch);
        cJSON *samplers = cJSON_GetObjectItem(an, "samplers"), *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(an, "channels"))
        {
            cJSON *tg = cJSON_GetObjectItem(c, "target");
            int node = cJSON_GetObjectItem(tg, "node")->valueint;
            const char *path = cJSON_GetObjectItem(tg, "path")->valuestring;
            int k = !strcmp(path, "translation") ? 0 : !strcmp(path, "rotation") ? 1 : 2;
            /* An un-scaling node: its scale alone is animated. */
            cr_assert(node <= (int)md->bones || k == 2, "%s: node %d's %s animated", md->name,
                      node, path);
            cJSON *sm = cJSON_GetArrayItem(samplers, cJSON_GetObjectItem(c, "sampler")->valueint);
            ch[3 * node + k] = floats(g, cJSON_GetObjectItem(sm, "output")->valueint);
        }
        for (size_t k = 0; k < F; k++) {
            for (int o = 0; o < g->nnodes; o++) { /* parents before children */
                int n = g->order[o];
                float t[3], q[4], s[3];
                memcpy(t, g->rest[n], sizeof t);
                memcpy(q, g->rest[n] + 3, sizeof q);
                memcpy(s, g->rest[n] + 7, sizeof s);
                if (ch[3 * n]) memcpy(t, ch[3 * n] + 3 * k, sizeof t);
                if (ch[3 * n + 1]) memcpy(q, ch[3 * n + 1] + 4 * k, sizeof q);
                if (ch[3 * n + 2]) memcpy(s, ch[3 * n + 2] + 3 * k, sizeof s);
                aff l;
                from_trs(t, q, s, &l);
                if (g->parent[n] >= 0) mul(&file[g->parent[n]], &l, &file[n]);
                else file[n] = l;
            }
            for (unsigned b = 0; b < md->bones; b++) engine(gpose_at(md, cl, k, b), &eng[b]);
            static const double zero[3] = {0, 0, 0};
            for (unsigned b = 0; b < md->bones; b++) {
                int p = md->parent[b];
                if (p >= 0) { /* what a TRS under the parent would have to hold */
                    aff rel, inv;
                    if (fabs(det3(eng[p].a)) < 1e-12) sheared[b] = 1;
                    else {
                        inv = eng[p];
                        double d = det3(eng[p].a);
                        for (int i = 0; i < 3; i++) /* the inverse's columns: solve on e_i */
                            for (int j = 0; j < 3; j++) {
                                double m[3][3];
                                memcpy(m, eng[p].a, sizeof m);
                                for (int r = 0; r < 3; r++) m[r][j] = r == i;
                                inv.a[j][i] = det3(m) / d;
                            }
                        memset(inv.t, 0, sizeof inv.t);
                        mul(&inv, &eng[b], &rel);
                        if (shear(rel.a) > 1e-3) sheared[b] = 1;
                    }
                }
                if (shear(eng[b].a) > 1e-2 || (p >= 0 && shear(eng[p].a) > 1e-2))
                    continue; /* the engine's own matrix is no R.S: nothing can hold it */
                const aff *f = &file[1 + b];
                double e = apart(f, &eng[b], zero);
                for (unsigned cb = b + 1; cb < md->bones; cb++)
                    if (md->parent[cb] == (int)b) e = fmax(e, apart(f, &eng[b], off[cb]));
                ty->worst = fmax(ty->worst, e / tol);
                cr_assert(e <= tol, "%s %s keyframe %zu bone %u (%s): %g units off, tolerance %g",
                          md->name, cJSON_GetObjectItem(an, "name")->valuestring, k, b,
                          world[b] ? "world" : "under its parent", e, tol);
            }
        }
        free(ch);
    }
    for (unsigned b = 0; b < md->bones; b++)
        cr_assert(!world[b] || sheared[b],
                  "%s bone %u placed by world though a TRS under its parent holds it", md->name, b);
    free(file);
    free(eng);
    free(off);
    free(world);
    free(sheared);
}

/*
 * Every model file, or under the sanitizers every fourth (the whole preset took a minute
 * there; memory errors show on any file, the values are checked whole in the other builds).
 */
#ifdef FF_TEST_SANITIZED
#define FILE_STRIDE 4
#else
#define FILE_STRIDE 1
#endif

Test(joints, vanilla_layout_within_its_tolerance, .timeout = 600)
{
    char *dir = ts_tempdir(), *corpus = ts_path(dir, "vanilla");
    ff_error err;
    synth_summary sum;
    TS_OK(synth_write(corpus, SYNTH_VANILLA, 1, &sum, &err), &err);
    ref_pose_opts o;
    ref_pose_opts_default(&o);
    size_t n;
    char **names = ts_dat_names(corpus, &n);
    tally ty = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned files = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % FILE_STRIDE) {
            free(names[i]);
            continue;
        }
        char *p = ts_path(corpus, names[i]);
        size_t size;
        uint8_t *data = (uint8_t *)ts_read(p, &size);
        dat_file d;
        TS_OK(dat_parse(data, size, p, &d, &err), &err);
        gpose_scene s;
        size_t posed = 0;
        int plain = 1;
        if (dat_kind_has_model(d.kind)) {
            TS_OK(gpose_ref_model(&d, &o, 1u << MODE_NORMAL, &s, &err), &err);
            for (size_t c = 0; c < s.model[0].nclips; c++) posed += s.model[0].clips[c].frames;
            if (!posed) gpose_scene_free(&s);
        }
        if (posed) {
            manifest_entry e;
            TS_OK(manifest_analyze(p, data, size, &e, &err), &err);
            plain = e.scale_clips == 0;
            manifest_entry_clear(&e);
            uint8_t *g;
            size_t len;
            glb_stats st;
            glb_meta meta = {"reference", NULL, NULL, NULL, NULL, 0, 0};
            TS_OK(glb_build(&s, &meta, &g, &len, &st, &err), &err);
            glb rd;
            glb_open(g, len, &rd);
            check_file(&s.model[0], &rd, &ty, plain);
            cJSON_Delete(rd.doc);
            free(rd.parent);
            free(rd.order);
            free(rd.rest);
            free(rd.acc_off);
            free(g);
            glb_stats_free(&st);
            gpose_scene_free(&s);
            files++;
        }
        free(data);
        free(p);
        free(names[i]);
    }
    free(names);
    cr_assert_gt(files * FILE_STRIDE, 100, "only %u model files", files);
    cr_assert_gt(ty.plain_joints, ty.joints / 2);
    cr_assert_geq(ty.plain_under * 100, ty.plain_joints * 95, "%u of %u joints of the plain files",
                  ty.plain_under, ty.plain_joints);
    /* The files whose clips take the scale path with uneven scales keep theirs too, through
     * their parents' un-scaling nodes; and so at least 95% of all. */
    cr_assert_gt(ty.scale_joints, 0, "no file takes the scale path");
    cr_assert_gt(ty.unscaled, 0, "no joint under an un-scaling node");
    cr_assert_geq(ty.scale_under * 100, ty.scale_joints * 95,
                  "%u of %u joints of the scale-path files", ty.scale_under, ty.scale_joints);
    cr_assert_geq(ty.under * 100, ty.joints * 95, "%u of %u joints", ty.under, ty.joints);
    cr_log_info("joints under their parents: %u of %u (plain-path files %u of %u, scale-path "
                "files %u of %u; %u under un-scaling nodes); worst error %.3g of the tolerance",
                ty.under, ty.joints, ty.plain_under, ty.plain_joints, ty.scale_under,
                ty.scale_joints, ty.unscaled, ty.worst);
    ts_rmtree(dir);
}
