/*
 * harness/gltf/glb_write.c: a gpose_scene as a .glb (glb_write.h): the
 * document, its buffer views and accessors, and the GLB container. The
 * joints and their meshes are in glb_mesh.c, the animations in glb_anim.c.
 *
 * The binary chunk holds, in order: each joint's mesh (positions, then
 * indices, one buffer view each), then each animation's data in one buffer
 * view of its own (key times, then per joint translation, rotation, scale),
 * so that an animation's bytes depend on its own matrices and the joint
 * layout (glb_layout.c) only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/glb_priv.h"
#include "harness/version.h"

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

void glb_align4(strbuf *b)
{
    while (b->len % 4) sb_putc(b, 0);
}

int glb_add_view(glb_wr *w, size_t off, size_t len, int target)
{
    gj *g = &w->j;
    cJSON *v = gj_obj(g, w->views, NULL);
    gj_num(g, v, "buffer", 0);
    gj_num(g, v, "byteOffset", (double)off);
    gj_num(g, v, "byteLength", (double)len);
    if (target) gj_num(g, v, "target", target);
    return w->nviews++;
}

int glb_add_accessor(glb_wr *w, int view, size_t off, int ctype, size_t count, const char *type,
                     int ncomp, const float *min, const float *max)
{
    gj *g = &w->j;
    cJSON *a = gj_obj(g, w->accessors, NULL);
    gj_num(g, a, "bufferView", view);
    if (off) gj_num(g, a, "byteOffset", (double)off);
    gj_num(g, a, "componentType", ctype);
    gj_num(g, a, "count", (double)count);
    gj_str(g, a, "type", type);
    if (min && max) {
        cJSON *mn = gj_arr(g, a, "min"), *mx = gj_arr(g, a, "max");
        for (int i = 0; i < ncomp; i++) {
            gj_num(g, mn, NULL, min[i]);
            gj_num(g, mx, NULL, max[i]);
        }
    }
    return w->naccessors++;
}

/* The joint layout in words: "hierarchy", "world" or "mixed". */
static const char *layout_name(const glb_wr *w)
{
    unsigned nonroot = 0, world = 0;
    for (unsigned i = 0; i < w->s->nmodels; i++) {
        const gpose_model *md = &w->s->model[i];
        for (unsigned b = 0; b < md->bones; b++) nonroot += md->parent[b] >= 0;
        world += w->world_joints[i];
    }
    return world == 0 ? "hierarchy" : world == nonroot ? "world" : "mixed";
}

static void meta_json(gj *g, cJSON *doc, const glb_wr *w, const glb_meta *meta)
{
    const gpose_scene *s = w->s;
    cJSON *asset = gj_obj(g, doc, "asset");
    gj_str(g, asset, "version", "2.0");
    gj_str(g, asset, "generator", "ff8diff " FF8DIFF_VERSION);
    cJSON *ex = gj_obj(g, asset, "extras");
    gj_str(g, ex, "scene", s->name);
    if (meta && meta->source) gj_str(g, ex, "source", meta->source);
    if (meta && meta->exe) gj_str(g, ex, "executable_sha256", meta->exe);
    if (meta && meta->profile) gj_str(g, ex, "profile", meta->profile);
    if (meta && meta->pose) gj_str(g, ex, "pose_convention", meta->pose);
    if (meta && meta->pose_source) gj_str(g, ex, "pose_convention_source", meta->pose_source);
    gj_num(g, ex, "frames_per_second", GPOSE_FPS);
    gj_str(g, ex, "joint_names", "bone_NNN: NNN is the bone's index in the skeleton");
    gj_str(g, ex, "joint_layout", layout_name(w));
    gj_str(g, ex, "joint_layout_rule",
           "a joint hangs under its parent bone's node with its transform relative to the "
           "parent's as translation, rotation and scale wherever composing the file's nodes "
           "puts the joint and what hangs on it (each child bone at its rest offset, a leaf's "
           "tip) within joint_tolerance of the engine's matrices on every keyframe; where a "
           "scale under a rotation (the scale path's stack) keeps it from that, it hangs "
           "under its parent's un-scaling node (a node named after the parent's joint with "
           "_unscale, extras \"helper\": \"unscale\", no mesh and no joint: its scale, "
           "animated, cancels the parent's, so that its world is the parent's rotation and "
           "translation alone; the joint's extras say \"placed\": \"unscaled\"); where "
           "that fails too (a singular parent) it hangs under the model's node with its world "
           "transform (\"placed\": \"world\"). Either way the parent's world is taken as "
           "the file composes it, so every joint's position is the engine's");
    cJSON *tol = gj_obj(g, ex, "joint_tolerance");
    gj_num(g, tol, "fraction", w->tolerance / w->size);
    gj_num(g, tol, "skeleton_size", w->size);
    gj_num(g, tol, "game_units", w->tolerance);
    gj_str(g, tol, "skeleton_size_is",
           "the diagonal of the box holding the model's origin and every joint at rest (the "
           "first keyframe), in game units");
    unsigned joints = 0, under = 0, unscaled = 0;
    for (unsigned i = 0; i < s->nmodels; i++)
        for (unsigned b = 0; b < s->model[i].bones; b++) {
            joints++;
            under += s->model[i].parent[b] >= 0 && w->place[i][b] >= 0;
            unscaled += (unsigned)glb_under_unscale(w, i, b);
        }
    gj_num(g, ex, "joints", joints);
    gj_num(g, ex, "joints_under_parent", under);
    gj_num(g, ex, "joints_under_unscale_node", unscaled);
    cJSON *wj = gj_arr(g, ex, "joints_placed_by_world");
    for (unsigned i = 0; i < s->nmodels; i++)
        for (unsigned b = 0; b < s->model[i].bones; b++) {
            if (w->place[i][b] == s->model[i].parent[b]) continue;
            char name[64];
            glb_joint_name(s, i, b, name, sizeof name);
            gj_str(g, wj, NULL, name);
        }
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

/* The scene, its root node and every joint (the weapon's under a node of its own). */
static int scene_nodes(glb_wr *w, cJSON *doc, cJSON *meshes, double size)
{
    const gpose_scene *s = w->s;
    gj *g = &w->j;
    gj_num(g, doc, "scene", 0);
    cJSON *scene = gj_obj(g, gj_arr(g, doc, "scenes"), NULL);
    gj_str(g, scene, "name", s->name);
    gj_num(g, gj_arr(g, scene, "nodes"), NULL, 0);
    cJSON *nodes = gj_arr(g, doc, "nodes");
    cJSON *root = gj_obj(g, nodes, NULL);
    gj_str(g, root, "name", s->name);
    cJSON *root_kids = gj_arr(g, root, "children");
    if (g->failed || glb_add_joints(w, nodes, meshes, root_kids, 0, size) < 0) return -1;
    if (s->nmodels == 2) {
        w->weapon_node = cJSON_GetArraySize(nodes);
        cJSON *an = gj_obj(g, nodes, NULL);
        gj_str(g, an, "name", "weapon");
        cJSON *ak = gj_arr(g, an, "children");
        gj_num(g, root_kids, NULL, w->weapon_node);
        if (g->failed || glb_add_joints(w, nodes, meshes, ak, 1, size) < 0) return -1;
        if (cJSON_GetArraySize(ak) == 0) cJSON_DeleteItemFromObject(an, "children");
    }
    if (cJSON_GetArraySize(root_kids) == 0) cJSON_DeleteItemFromObject(root, "children");
    return g->failed ? -1 : 0;
}

/* Every clip with keyframes as an animation; stats per animation and in all. */
static int animations(glb_wr *w, cJSON *anims, glb_stats *stats)
{
    const gpose_scene *s = w->s;
    unsigned joints = s->model[0].bones + (s->nmodels == 2 ? s->model[1].bones : 0);
    for (size_t ci = 0; ci < s->model[0].nclips; ci++) {
        if (s->model[0].clips[ci].frames == 0 || joints == 0) continue;
        if (glb_add_anim(w, ci, anims, &stats->anims[stats->nanims]) < 0) return -1;
        glb_anim_stats *a = &stats->anims[stats->nanims++];
        stats->keyframes += a->frames;
        stats->decomposition_error = fmax(stats->decomposition_error, a->decomposition_error);
        stats->position_error = fmax(stats->position_error, a->position_error);
        stats->placement_error = fmax(stats->placement_error, a->placement_error);
    }
    return 0;
}

/* Takes arr into doc under key when it holds anything, else deletes it. */
static void put_if_any(gj *g, cJSON *doc, const char *key, cJSON *arr)
{
    if (cJSON_GetArraySize(arr))
        gj_put(g, doc, key, arr);
    else
        cJSON_Delete(arr);
}

/* The document's JSON text (malloc'd), or NULL when memory ran out. */
static char *document(glb_wr *w, glb_frame *ws, const glb_meta *meta, glb_stats *stats)
{
    gj *g = &w->j;
    cJSON *doc = gj_root(g), *meshes = cJSON_CreateArray(), *anims = cJSON_CreateArray();
    w->views = cJSON_CreateArray();
    w->accessors = cJSON_CreateArray();
    double size;
    char *json = NULL;
    if (!doc || !meshes || !anims || !w->views || !w->accessors ||
        glb_layout(w, ws, meta ? meta->joint_tolerance : 0) < 0 ||
        glb_rest_pose(w, ws, &size) < 0)
        goto out;
    meta_json(g, doc, w, meta);
    if (scene_nodes(w, doc, meshes, size) < 0 || animations(w, anims, stats) < 0) goto out;
    put_if_any(g, doc, "meshes", meshes);
    put_if_any(g, doc, "animations", anims);
    meshes = anims = NULL;
    glb_align4(&w->bin);
    if (w->bin.len) {
        gj_num(g, gj_obj(g, gj_arr(g, doc, "buffers"), NULL), "byteLength", (double)w->bin.len);
        gj_put(g, doc, "bufferViews", w->views);
        gj_put(g, doc, "accessors", w->accessors);
        w->views = w->accessors = NULL;
    }
    for (unsigned i = 0; i < w->s->nmodels; i++) {
        stats->joints += w->s->model[i].bones;
        stats->world_joints += w->world_joints[i];
        for (unsigned b = 0; b < w->s->model[i].bones; b++)
            stats->unscaled_joints += (unsigned)glb_under_unscale(w, i, b);
    }
    snprintf(stats->layout, sizeof stats->layout, "%s", layout_name(w));
    stats->skeleton_size = w->size;
    stats->tolerance = w->tolerance;
    if (!g->failed && !w->bin.failed) json = cJSON_PrintUnformatted(doc);
out:
    cJSON_Delete(meshes);
    cJSON_Delete(anims);
    cJSON_Delete(w->views);
    cJSON_Delete(w->accessors);
    cJSON_Delete(doc);
    return json;
}

int glb_build(const gpose_scene *s, const glb_meta *meta, uint8_t **out, size_t *len,
              glb_stats *st, ff_error *err)
{
    glb_wr w;
    memset(&w, 0, sizeof w);
    w.s = s;
    w.no_unscale = meta ? meta->no_unscale : 0;
    sb_init(&w.bin);
    glb_frame ws;
    memset(&ws, 0, sizeof ws);
    glb_stats stats;
    memset(&stats, 0, sizeof stats);
    size_t nanim = s->model[0].nclips;
    stats.anims = calloc(nanim ? nanim : 1, sizeof *stats.anims);
    char *json = NULL;
    if (stats.anims && glb_frame_alloc(&ws, s) == 0) json = document(&w, &ws, meta, &stats);
    int rc = json ? container(json, &w.bin, out, len, &stats.bin_offset, err)
                  : ff_error_set(err, FF_E_NOMEM, s->name, -1, "out of memory for the .glb");
    free(json);
    glb_frame_free(&ws);
    for (int i = 0; i < 2; i++) {
        free(w.rest[i]);
        free(w.rest_off[i]);
        free(w.rest_h[i]);
        free(w.hnode[i]);
    }
    glb_layout_free(&w);
    sb_free(&w.bin);
    if (rc == 0 && st)
        *st = stats;
    else
        glb_stats_free(&stats);
    return rc;
}
