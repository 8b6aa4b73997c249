/*
 * harness/gltf/gread.c: a viewer's export read through Assimp (gread.h).
 * Assimp's glTF 2.0 importer keeps the file's node names and hierarchy and
 * gives key times in ticks (mTicksPerSecond per animation); no
 * post-processing step is asked for, so nothing is merged or renamed.
 * Assimp is opened here, at each read, by the soname the build found
 * (FF_ASSIMP_SONAME): the other commands start without relocating it and the
 * C++ runtime it brings (about 7 ms of every start).
 */
#include "harness/gltf/gread.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "corpus/fileio.h"

void gview_free(gview *v)
{
    if (!v) return;
    for (size_t a = 0; a < v->nanims; a++) {
        for (size_t c = 0; c < v->anims[a].nch; c++) {
            free(v->anims[a].ch[c].pos);
            free(v->anims[a].ch[c].rot);
            free(v->anims[a].ch[c].scl);
        }
        free(v->anims[a].ch);
        free(v->anims[a].times);
    }
    free(v->anims);
    free(v->nodes);
    memset(v, 0, sizeof *v);
}

static size_t count_nodes(const struct aiNode *n, unsigned depth)
{
    if (depth > 4096) return (size_t)-1;
    size_t c = 1;
    for (unsigned i = 0; i < n->mNumChildren; i++) {
        size_t k = count_nodes(n->mChildren[i], depth + 1);
        if (k == (size_t)-1) return k;
        c += k;
    }
    return c;
}

static void add_nodes(gview *v, const struct aiNode *n, int parent)
{
    gview_node *g = &v->nodes[v->nnodes];
    int me = (int)v->nnodes++;
    snprintf(g->name, sizeof g->name, "%.*s", (int)n->mName.length, n->mName.data);
    g->parent = parent;
    const struct aiMatrix4x4 *m = &n->mTransformation;
    const ai_real r[3][4] = {{m->a1, m->a2, m->a3, m->a4},
                             {m->b1, m->b2, m->b3, m->b4},
                             {m->c1, m->c2, m->c3, m->c4}};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) g->rest.a[i][j] = r[i][j];
        g->rest.t[i] = r[i][3];
    }
    gm_decompose(&g->rest, NULL, &g->rest_trs);
    for (unsigned i = 0; i < n->mNumChildren; i++) add_nodes(v, n->mChildren[i], me);
}

static int find_node(const gview *v, const struct aiString *name)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%.*s", (int)name->length, name->data);
    for (size_t i = 0; i < v->nnodes; i++)
        if (strcmp(v->nodes[i].name, buf) == 0) return (int)i;
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int add_anim(gview *v, const struct aiAnimation *src, gview_anim *a)
{
    snprintf(a->name, sizeof a->name, "%.*s", (int)src->mName.length, src->mName.data);
    double tps = src->mTicksPerSecond > 0 ? src->mTicksPerSecond : 1000.0;
    a->ch = calloc(src->mNumChannels ? src->mNumChannels : 1, sizeof *a->ch);
    if (!a->ch) return -1;
    size_t all = 0;
    for (unsigned c = 0; c < src->mNumChannels; c++) {
        const struct aiNodeAnim *na = src->mChannels[c];
        gview_chan *ch = &a->ch[a->nch];
        ch->node = find_node(v, &na->mNodeName);
        if (ch->node < 0) continue; /* a channel for a node the tree lacks: nothing to drive */
        a->nch++;
        ch->npos = na->mNumPositionKeys;
        ch->nrot = na->mNumRotationKeys;
        ch->nscl = na->mNumScalingKeys;
        ch->pos = malloc((ch->npos + 1) * 4 * sizeof(double));
        ch->rot = malloc((ch->nrot + 1) * 5 * sizeof(double));
        ch->scl = malloc((ch->nscl + 1) * 4 * sizeof(double));
        if (!ch->pos || !ch->rot || !ch->scl) return -1;
        for (size_t k = 0; k < ch->npos; k++) {
            const struct aiVectorKey *key = &na->mPositionKeys[k];
            double *p = ch->pos + 4 * k;
            p[0] = key->mTime / tps, p[1] = key->mValue.x, p[2] = key->mValue.y, p[3] = key->mValue.z;
        }
        for (size_t k = 0; k < ch->nrot; k++) {
            const struct aiQuatKey *key = &na->mRotationKeys[k];
            double *p = ch->rot + 5 * k;
            p[0] = key->mTime / tps, p[1] = key->mValue.x, p[2] = key->mValue.y;
            p[3] = key->mValue.z, p[4] = key->mValue.w;
        }
        for (size_t k = 0; k < ch->nscl; k++) {
            const struct aiVectorKey *key = &na->mScalingKeys[k];
            double *p = ch->scl + 4 * k;
            p[0] = key->mTime / tps, p[1] = key->mValue.x, p[2] = key->mValue.y, p[3] = key->mValue.z;
        }
        all += ch->npos + ch->nrot + ch->nscl;
    }
    a->times = malloc((all ? all : 1) * sizeof *a->times);
    if (!a->times) return -1;
    for (size_t c = 0; c < a->nch; c++) {
        const gview_chan *ch = &a->ch[c];
        for (size_t k = 0; k < ch->npos; k++) a->times[a->ntimes++] = ch->pos[4 * k];
        for (size_t k = 0; k < ch->nrot; k++) a->times[a->ntimes++] = ch->rot[5 * k];
        for (size_t k = 0; k < ch->nscl; k++) a->times[a->ntimes++] = ch->scl[4 * k];
    }
    qsort(a->times, a->ntimes, sizeof *a->times, cmp_double);
    size_t n = 0;
    for (size_t i = 0; i < a->ntimes; i++)
        if (n == 0 || a->times[i] - a->times[n - 1] > 1e-6) a->times[n++] = a->times[i];
    a->ntimes = n;
    return 0;
}

/* The three entry points of Assimp's C API this reader calls. */
typedef struct assimp_api {
    void *lib;
    const struct aiScene *(*import_file)(const char *, unsigned int);
    const char *(*error_string)(void);
    void (*release_import)(const struct aiScene *);
} assimp_api;

static int assimp_symbol(assimp_api *api, const char *name, void *fn, ff_error *err)
{
    void *p = dlsym(api->lib, name);
    if (!p)
        return ff_error_set(err, FF_E_INTERNAL, FF_ASSIMP_SONAME, -1, "Assimp lacks %s", name);
    memcpy(fn, &p, sizeof p);
    return 0;
}

static int assimp_open(assimp_api *api, ff_error *err)
{
    api->lib = dlopen(FF_ASSIMP_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!api->lib)
        return ff_error_set(err, FF_E_INTERNAL, FF_ASSIMP_SONAME, -1,
                            "cannot load Assimp, which reads glTF files: %s", dlerror());
    if (assimp_symbol(api, "aiImportFile", &api->import_file, err) < 0 ||
        assimp_symbol(api, "aiGetErrorString", &api->error_string, err) < 0 ||
        assimp_symbol(api, "aiReleaseImport", &api->release_import, err) < 0) {
        dlclose(api->lib);
        return -1;
    }
    return 0;
}

static int load_scene(const assimp_api *api, const struct aiScene *sc, const char *path,
                      gview *out, ff_error *err);

int gview_load(const char *path, gview *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    uint64_t size;
    int fd = file_open_regular(path, 0, GVIEW_MAX_FILE, &size, err);
    if (fd < 0) return -1;
    close(fd);
    assimp_api api = {0};
    if (assimp_open(&api, err) < 0) return -1;
    const struct aiScene *sc = api.import_file(path, 0);
    int rc = sc ? load_scene(&api, sc, path, out, err)
                : ff_error_set(err, FF_E_FORMAT, path, -1, "not a scene Assimp can read: %s",
                               api.error_string());
    dlclose(api.lib);
    return rc;
}

/* The scene's nodes and animations into out; releases the scene. */
static int load_scene(const assimp_api *api, const struct aiScene *sc, const char *path,
                      gview *out, ff_error *err)
{
    int rc = 0;
    size_t n = sc->mRootNode ? count_nodes(sc->mRootNode, 0) : 0;
    if (n == 0 || n == (size_t)-1)
        rc = ff_error_set(err, FF_E_FORMAT, path, -1, "the file holds no usable node tree");
    else if (!(out->nodes = calloc(n, sizeof *out->nodes)) ||
             !(out->anims = calloc(sc->mNumAnimations ? sc->mNumAnimations : 1, sizeof *out->anims)))
        rc = ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    if (rc == 0) add_nodes(out, sc->mRootNode, -1);
    for (unsigned a = 0; rc == 0 && a < sc->mNumAnimations; a++, out->nanims++)
        if (add_anim(out, sc->mAnimations[a], &out->anims[a]) < 0)
            rc = ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    api->release_import(sc);
    if (rc < 0) gview_free(out);
    return rc;
}

int gview_animated(const gview *v, size_t a, size_t n)
{
    for (size_t c = 0; c < v->anims[a].nch; c++)
        if (v->anims[a].ch[c].node == (int)n) return 1;
    return 0;
}

/* Keys of stride w (time first) around t: index i and weight u between i and i+1. */
static void bracket(const double *k, size_t n, int w, double t, size_t *i, double *u)
{
    *u = 0;
    if (n == 1 || t <= k[0]) {
        *i = 0;
        return;
    }
    if (t >= k[(n - 1) * w]) {
        *i = n - 1;
        return;
    }
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (k[mid * w] <= t) lo = mid;
        else hi = mid;
    }
    *i = lo;
    double d = k[hi * w] - k[lo * w];
    *u = d > 0 ? (t - k[lo * w]) / d : 0;
}

static void lerp3(const double *k, size_t n, double t, double out[3])
{
    size_t i;
    double u;
    bracket(k, n, 4, t, &i, &u);
    for (int d = 0; d < 3; d++)
        out[d] = u > 0 ? k[4 * i + 1 + d] * (1 - u) + k[4 * (i + 1) + 1 + d] * u : k[4 * i + 1 + d];
}

void gview_pose(const gview *v, size_t a, double t, gm_affine *world)
{
    const gview_anim *an = &v->anims[a];
    for (size_t n = 0; n < v->nnodes; n++) {
        const gview_node *nd = &v->nodes[n];
        gm_affine local = nd->rest;
        for (size_t c = 0; c < an->nch; c++) {
            const gview_chan *ch = &an->ch[c];
            if (ch->node != (int)n) continue;
            gm_trs x = nd->rest_trs;
            if (ch->npos) lerp3(ch->pos, ch->npos, t, x.t);
            if (ch->nscl) lerp3(ch->scl, ch->nscl, t, x.s);
            if (ch->nrot) {
                size_t i;
                double u;
                bracket(ch->rot, ch->nrot, 5, t, &i, &u);
                if (u > 0) gm_slerp(ch->rot + 5 * i + 1, ch->rot + 5 * (i + 1) + 1, u, x.q);
                else memcpy(x.q, ch->rot + 5 * i + 1, sizeof x.q);
            }
            gm_from_trs(&x, &local);
            break;
        }
        if (nd->parent >= 0) gm_mul(&world[nd->parent], &local, &world[n]);
        else world[n] = local;
    }
}
