/*
 * tests/gltf/test_gltf_layout.c: the joint layout of an export and
 * check-gltf's correspondence when a pose is not a TRS under its parent.
 *   - every model file of the synthetic corpora (small, cover), posed by the
 *     reference under the notes' layout (the defaults: the model scale on
 *     the root, the scale path's stack) and under the older readings,
 *     exported and read back: check-gltf's comparison maps it by name and
 *     finds no departure;
 *   - a skeleton posed as the scale path's stack lays it out (each bone's
 *     world a rotation times an uneven scale, built here in doubles and
 *     stored as the engine's Q12 cells): the joints whose transform under
 *     their parent is a scale under a rotation hang under their parent's
 *     un-scaling node (one per parent, no mesh, named after its joint), each
 *     joint's whole matrix composed by a viewer is the engine's, the file
 *     says so, and check-gltf accepts it by name; without un-scaling nodes
 *     (glb_meta.no_unscale) those joints are placed by their world
 *     transform, carried whole too;
 *   - one clip of 28 replaced by a wild pose: the mapping still comes from
 *     the 27 that agree, that clip is matched by name, left out of the fit
 *     and reported departing;
 *   - a joint whose name carries no bone number in a layout with no
 *     hierarchy to fall back on: the other bones map by name, that one is
 *     reported as not matched and left out.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "harness/gltf/gcheck.h"
#include "harness/gltf/glb_write.h"
#include "harness/gltf/gpose.h"
#include "harness/gltf/gread.h"
#include "ref/dat.h"
#include "tests/support/ts.h"

/* scene s exported (no_unscale: without un-scaling nodes) into dir/name.glb and read back as
 * a viewer would (v, new). */
static void export_read_as(const gpose_scene *s, const char *dir, const char *name, gview *v,
                           glb_stats *st, int no_unscale)
{
    ff_error err;
    uint8_t *glb;
    size_t len;
    glb_meta meta = {"reference", NULL, NULL, NULL, NULL, 0, no_unscale};
    TS_OK(glb_build(s, &meta, &glb, &len, st, &err), &err);
    char file[512];
    snprintf(file, sizeof file, "%s.glb", name);
    char *path = ts_path(dir, file);
    ts_write(path, glb, len);
    free(glb);
    TS_OK(gview_load(path, v, &err), &err);
    free(path);
}

static void export_read(const gpose_scene *s, const char *dir, const char *name, gview *v,
                        glb_stats *st)
{
    export_read_as(s, dir, name, v, st, 0);
}

/* check-gltf's comparison of v against s: accepted, every joint and clip by name. */
static void accepted(const gview *v, const gpose_scene *s, const char *what)
{
    ff_error err;
    gck_result r;
    TS_OK(gck_run(v, s, 0, &r, &err), &err);
    cr_assert(!r.refused, "%s: refused: %s", what, r.reason);
    const gck_clip *c = r.pic_clip >= 0 ? &r.clips[r.pic_clip] : NULL;
    cr_assert_eq(r.departing, 0,
                 "%s: %zu clips depart (clip %u, frame %ld, bone %u: game (%g, %g, %g), export "
                 "(%g, %g, %g), %g units, tolerance %g)",
                 what, r.departing, c->clip, c->first, c->first_bone, c->first_game[0],
                 c->first_game[1], c->first_game[2], c->first_viewer[0], c->first_viewer[1],
                 c->first_viewer[2], c->first_err, r.tolerance);
    cr_assert_eq(r.matched, r.nclips, "%s: %zu of %zu clips matched", what, r.matched, r.nclips);
    cr_assert_eq(r.joints_count[GCK_BY_NAME], r.bones, "%s: %u of %u joints by name", what,
                 r.joints_count[GCK_BY_NAME], r.bones);
    cr_assert_eq(r.clips_count[GCK_BY_NAME], r.nclips, "%s: clips not matched by name", what);
    cr_assert_eq(r.fit_clips, r.nclips, "%s: %zu of %zu clips in the fit", what, r.fit_clips,
                 r.nclips);
    gck_free(&r);
}

/* ---- the reference's poses of the synthetic corpora ---- */

/* Every model file of corpus under pose options spec; returns how many were checked. */
static unsigned corpus_accepted(const char *dir, const char *corpus, const char *spec,
                                unsigned *unscaled)
{
    ff_error err;
    ref_pose_opts o;
    TS_OK(ref_pose_opts_parse(spec, &o, &err), &err);
    size_t n;
    char **names = ts_dat_names(corpus, &n);
    unsigned checked = 0;
    for (size_t i = 0; i < n; i++) {
        char *p = ts_path(corpus, names[i]);
        size_t size;
        uint8_t *data = (uint8_t *)ts_read(p, &size);
        dat_file d;
        TS_OK(dat_parse(data, size, p, &d, &err), &err);
        if (dat_kind_has_model(d.kind)) {
            gpose_scene s;
            TS_OK(gpose_ref_model(&d, &o, 1u << MODE_NORMAL, &s, &err), &err);
            size_t posed = 0;
            for (size_t c = 0; c < s.model[0].nclips; c++) {
                const gpose_clip *cl = &s.model[0].clips[c];
                posed += cl->frames;
                /* A skeleton past the stack's 80 slots: every clip stops, saying why. */
                cr_assert(cl->frames || cl->note[0], "%s clip %u: no pose and no reason",
                          names[i], cl->clip);
            }
            if (!posed) {
                gpose_scene_free(&s);
                free(data);
                free(p);
                free(names[i]);
                continue;
            }
            gview v;
            glb_stats st;
            export_read(&s, dir, names[i], &v, &st);
            char what[600];
            snprintf(what, sizeof what, "%s under %s", names[i], spec);
            accepted(&v, &s, what);
            checked++;
            *unscaled += st.unscaled_joints;
            glb_stats_free(&st);
            gview_free(&v);
            gpose_scene_free(&s);
        }
        free(data);
        free(p);
        free(names[i]);
    }
    free(names);
    return checked;
}

Test(layout, each_files_own_export_is_accepted_under_every_scale_reading)
{
    char *dir = ts_tempdir();
    /* The defaults (root=model, scale=stack: the notes' layout), then the older readings. */
    static const char *const readings[] = {"", "scale=pre", "scale=post", "root=none,scale=post"};
    static const synth_preset presets[] = {SYNTH_SMALL, SYNTH_COVER};
    for (size_t k = 0; k < sizeof presets / sizeof *presets; k++) {
        char *corpus = ts_path(dir, synth_preset_name(presets[k]));
        ff_error err;
        synth_summary sum;
        TS_OK(synth_write(corpus, presets[k], 1, &sum, &err), &err);
        /* The scale path runs, with scales other than 1.0 (the synthetic scales are random). */
        cr_assert_gt(sum.scale_clips, 0, "%s: no clip takes the scale path", corpus);
        for (size_t i = 0; i < sizeof readings / sizeof *readings; i++) {
            unsigned unscaled = 0;
            cr_assert_gt(corpus_accepted(dir, corpus, readings[i], &unscaled), 0, "%s: no model",
                         corpus);
            /* Under the stack, uneven scales put joints under no TRS of their parent's: they
             * hang under its un-scaling node, which check-gltf leaves out. */
            if (presets[k] == SYNTH_SMALL && !readings[i][0])
                cr_assert_gt(unscaled, 0, "no joint under an un-scaling node");
        }
        free(corpus);
    }
    ts_rmtree(dir);
}

/* ---- a skeleton posed as the scale path's stack lays it out ---- */

static double rnd(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void mul3(const double a[3][3], const double b[3][3], double out[3][3])
{
    double r[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(out, r, sizeof r);
}

/* R = Rx(a[0]) . Ry(a[1]) . Rz(a[2]), radians. */
static void rotation(const double a[3], double r[3][3])
{
    double cx = cos(a[0]), sx = sin(a[0]), cy = cos(a[1]), sy = sin(a[1]), cz = cos(a[2]),
           sz = sin(a[2]);
    double x[3][3] = {{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}};
    double y[3][3] = {{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}};
    double z[3][3] = {{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}};
    mul3(x, y, r);
    mul3(r, z, r);
}

/*
 * One keyframe of md posed as docs/pose.md section 2 lays out the scale path:
 * M = M[parent] . rotation (the root's times the model scale), v = scale x
 * v[parent], bone = M . diag(v) (Q12 cells), t = t[parent] + bone[parent] .
 * (0, 0, L of the parent). Scales per axis in [0.7, 1.4].
 */
static void stack_pose(const gpose_model *md, uint64_t *seed, ref_matrix *out)
{
    double M[24][3][3], v[24][3], t[24][3], W[24][3][3];
    for (unsigned b = 0; b < md->bones; b++) {
        double ang[3], r[3][3];
        for (int k = 0; k < 3; k++)
            ang[k] = (rnd(seed) - 0.5) * 6.0;
        rotation(ang, r);
        int p = md->parent[b];
        for (int k = 0; k < 3; k++)
            v[b][k] = (0.7 + 0.7 * rnd(seed)) * (p >= 0 ? v[p][k] : 1);
        if (p < 0) {
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    M[b][i][j] = 0.8 * r[i][j];
            for (int k = 0; k < 3; k++)
                t[b][k] = (rnd(seed) - 0.5) * 400;
        } else {
            mul3(M[p], r, M[b]);
            for (int k = 0; k < 3; k++)
                t[b][k] = t[p][k] + W[p][k][2] * md->size[p];
        }
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                W[b][i][j] = M[b][i][j] * v[b][j];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++)
                out[b].m[i][j] = (int16_t)lround(W[b][i][j] * 4096);
            out[b].t[i] = (int32_t)lround(t[b][i]);
        }
    }
}

/* A model of 24 bones (a binary tree) with clips of frames keyframes, normal mode. */
static void stack_scene(gpose_scene *s, unsigned clips, unsigned frames, uint64_t seed)
{
    gpose_scene_init(s);
    s->nmodels = 1;
    snprintf(s->name, sizeof s->name, "stack");
    for (int k = 0; k < 3; k++)
        s->attach.m[k][k] = 4096;
    gpose_model *md = &s->model[0];
    snprintf(md->name, sizeof md->name, "stack.dat");
    md->bones = 24;
    md->parent = malloc(md->bones * sizeof *md->parent);
    md->size = malloc(md->bones * sizeof *md->size);
    md->clips = calloc(clips, sizeof *md->clips);
    cr_assert(md->parent && md->size && md->clips);
    for (unsigned b = 0; b < md->bones; b++) {
        md->parent[b] = (int16_t)(b ? ((int)b - 1) / 2 : -1);
        md->size[b] = (int16_t)(100 + 300 * rnd(&seed));
    }
    md->nclips = clips;
    for (unsigned c = 0; c < clips; c++) {
        gpose_clip *cl = &md->clips[c];
        cl->clip = c;
        cl->mode = MODE_NORMAL;
        cl->frames = frames;
        cl->m = malloc(frames * md->bones * sizeof *cl->m);
        cr_assert(cl->m);
        for (unsigned k = 0; k < frames; k++)
            stack_pose(md, &seed, &cl->m[k * md->bones]);
    }
}

/* The .glb's JSON chunk (path), parsed. */
static cJSON *glb_json(const char *path)
{
    size_t len;
    char *b = ts_read(path, &len);
    uint32_t jl;
    cr_assert_gt(len, 20);
    memcpy(&jl, b + 12, 4);
    cr_assert_leq(20 + (size_t)jl, len);
    cJSON *j = cJSON_ParseWithLength(b + 20, jl);
    cr_assert(j, "the .glb's JSON does not parse");
    free(b);
    return j;
}

/* Each joint's whole matrix (rotation and uneven scale) in v's composition against s's. */
static void carried_whole(const gview *v, const gpose_model *md)
{
    int node[24];
    for (unsigned b = 0; b < md->bones; b++) {
        char name[16];
        snprintf(name, sizeof name, "bone_%03u", b);
        node[b] = -1;
        for (size_t n = 0; n < v->nnodes; n++)
            if (!strcmp(v->nodes[n].name, name)) node[b] = (int)n;
        cr_assert_geq(node[b], 0, "no node %s", name);
    }
    gm_affine *world = malloc(v->nnodes * sizeof *world);
    cr_assert(world);
    for (size_t a = 0; a < v->nanims; a++) {
        const gpose_clip *c = &md->clips[a];
        for (size_t k = 0; k < c->frames; k++) {
            gview_pose(v, a, v->anims[a].times[k], world);
            for (unsigned b = 0; b < md->bones; b++) {
                const ref_matrix *m = gpose_at(md, c, k, b);
                for (int r = 0; r < 9; r++)
                    cr_assert_float_eq(world[node[b]].a[r / 3][r % 3], m->m[r / 3][r % 3] / 4096.0,
                                       2e-3, "clip %zu, keyframe %zu, bone %u, cell %d", a, k, b,
                                       r);
                for (int r = 0; r < 3; r++)
                    cr_assert_float_eq(world[node[b]].t[r], m->t[r], 1e-2,
                                       "clip %zu, keyframe %zu, bone %u, translation %d", a, k, b, r);
            }
        }
    }
    free(world);
}


/* The stack scene (4 clips of 12 frames) exported into a new scratch folder, with or without
 * un-scaling nodes, and read back; the folder's path returned. */
static char *stack_exported(gpose_scene *s, gview *v, glb_stats *st, int no_unscale)
{
    char *dir = ts_tempdir();
    stack_scene(s, 4, 12, 0x9E3779B97F4A7C15ull);
    export_read_as(s, dir, "stack", v, st, no_unscale);
    return dir;
}

/* check-gltf accepts the stack's export v of s, each clip carried whole; then all is freed. */
static void stack_accepted_then_freed(gview *v, gpose_scene *s, glb_stats *st, char *dir)
{
    accepted(v, s, "the stack's poses");
    carried_whole(v, &s->model[0]);
    glb_stats_free(st);
    gview_free(v);
    gpose_scene_free(s);
    ts_rmtree(dir);
}

Test(layout, a_scale_under_a_rotation_hangs_under_unscaling_nodes_and_is_carried_whole)
{
    gpose_scene s;
    gview v;
    glb_stats st;
    char *dir = stack_exported(&s, &v, &st, 0);
    const gpose_model *md = &s.model[0];
    /* Every bone's world is a rotation times its own uneven scale: relative to its parent a
     * scale under a rotation, which no TRS holds; relative to its parent's un-scaling node,
     * its own rotation and scale. */
    cr_assert_str_eq(st.layout, "hierarchy");
    cr_assert_eq(st.world_joints, 0, "%u joints placed by world", st.world_joints);
    cr_assert_eq(st.unscaled_joints, md->bones - 1, "%u joints under un-scaling nodes",
                 st.unscaled_joints);
    char *path = ts_path(dir, "stack.glb");
    cJSON *j = glb_json(path);
    const cJSON *ex = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "asset"), "extras");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(ex, "joint_layout")), "hierarchy");
    cr_assert_eq(cJSON_GetObjectItem(ex, "joints_under_parent")->valueint, (int)md->bones - 1);
    cr_assert_eq(cJSON_GetObjectItem(ex, "joints_under_unscale_node")->valueint,
                 (int)md->bones - 1);
    /* The un-scaling nodes: one per bone with children, under its joint, no mesh, named after
     * it, its joints' parent node. */
    const cJSON *nodes = cJSON_GetObjectItem(j, "nodes"), *n;
    unsigned helpers = 0, parents = 0;
    for (unsigned b = 0; b < md->bones; b++)
        for (unsigned c = b + 1; c < md->bones; c++)
            if (md->parent[c] == (int)b) {
                parents++;
                break;
            }
    int idx = 0;
    cJSON_ArrayForEach(n, nodes)
    {
        const cJSON *nx = cJSON_GetObjectItem(n, "extras");
        if (nx && cJSON_GetObjectItem(nx, "helper")) {
            helpers++;
            cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(nx, "helper")), "unscale");
            int of = cJSON_GetObjectItem(nx, "of_bone")->valueint;
            char want[32];
            snprintf(want, sizeof want, "bone_%03d" GLB_UNSCALE_SUFFIX, of);
            cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(n, "name")), want);
            cr_assert_null(cJSON_GetObjectItem(n, "mesh"));
            cr_assert_null(cJSON_GetObjectItem(n, "translation"));
            cr_assert_null(cJSON_GetObjectItem(n, "rotation"));
            const cJSON *joint = cJSON_GetArrayItem(nodes, 1 + of), *k;
            int found = 0;
            cJSON_ArrayForEach(k, cJSON_GetObjectItem(joint, "children")) found |= k->valueint == idx;
            cr_assert(found, "%s is not under bone %d's node", want, of);
            cJSON_ArrayForEach(k, cJSON_GetObjectItem(n, "children"))
            {
                const cJSON *cx = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, k->valueint), "extras");
                cr_assert_eq(cJSON_GetObjectItem(cx, "parent")->valueint, of);
                cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cx, "placed")), "unscaled");
            }
        }
        idx++;
    }
    cr_assert_eq(helpers, parents, "%u un-scaling nodes for %u parents", helpers, parents);
    cJSON_Delete(j);
    free(path);
    /* check-gltf leaves the un-scaling nodes out: every joint by name, nothing departs. */
    stack_accepted_then_freed(&v, &s, &st, dir);
}

Test(layout, without_unscaling_nodes_a_scale_under_a_rotation_is_placed_by_world)
{
    gpose_scene s;
    gview v;
    glb_stats st;
    char *dir = stack_exported(&s, &v, &st, 1);
    const gpose_model *md = &s.model[0];
    cr_assert_str_eq(st.layout, "world");
    cr_assert_eq(st.world_joints, md->bones - 1, "%u joints placed by world", st.world_joints);
    cr_assert_eq(st.unscaled_joints, 0);
    char *path = ts_path(dir, "stack.glb");
    cJSON *j = glb_json(path);
    const cJSON *ex = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "asset"), "extras");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(ex, "joint_layout")), "world");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(ex, "joints_placed_by_world")),
                 (int)md->bones - 1);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "nodes")), (int)md->bones + 1,
                 "nodes besides the model's and the joints'");
    cJSON_Delete(j);
    free(path);
    stack_accepted_then_freed(&v, &s, &st, dir);
}

Test(layout, one_wild_clip_of_28_departs_and_the_others_still_map)
{
    char *dir = ts_tempdir();
    gpose_scene s, wild;
    ff_error err;
    stack_scene(&s, 28, 6, 12345);
    TS_OK(gpose_scene_copy(&wild, &s, &err), &err);
    /* Clip 5 of the export: every joint far away and squashed, from its first keyframe. */
    gpose_clip *w5 = &wild.model[0].clips[5];
    for (size_t i = 0; i < w5->frames * wild.model[0].bones; i++) {
        ref_matrix *m = &w5->m[i];
        int32_t x = m->t[0];
        m->t[0] = 3 * m->t[1] + 20000;
        m->t[1] = -x;
        m->t[2] /= 5;
    }
    gview v;
    glb_stats st;
    export_read(&wild, dir, "wild", &v, &st);
    gck_result r;
    TS_OK(gck_run(&v, &s, 0, &r, &err), &err);
    cr_assert(!r.refused, "refused: %s", r.reason);
    cr_assert_str_eq(r.axes, "x=+x,y=+y,z=+z");
    cr_assert_float_eq(r.scale, 1.0, 1e-4);
    cr_assert_eq(r.matched, 28);
    cr_assert_eq(r.fit_clips, 27, "fitted on %zu clips", r.fit_clips);
    cr_assert_eq(r.departing, 1, "%zu clips depart", r.departing);
    for (size_t c = 0; c < r.nclips; c++) {
        const gck_clip *g = &r.clips[c];
        cr_assert_eq(g->by, GCK_BY_NAME, "clip %u matched by %s", g->clip, gck_by_name(g->by));
        cr_assert_eq(g->in_fit, g->clip != 5, "clip %u", g->clip);
        cr_assert_eq(g->first >= 0, g->clip == 5, "clip %u", g->clip);
    }
    cr_assert_eq(r.clips[5].first, 0);
    gck_free(&r);
    glb_stats_free(&st);
    gview_free(&v);
    gpose_scene_free(&wild);
    gpose_scene_free(&s);
    ts_rmtree(dir);
}

Test(layout, a_joint_its_name_does_not_number_is_reported_unmatched)
{
    char *dir = ts_tempdir();
    gpose_scene s;
    stack_scene(&s, 3, 8, 777);
    gview v;
    glb_stats st;
    export_read_as(&s, dir, "stack", &v, &st, 1);
    /* Every joint under the scene root: the tree cannot stand in for the names. */
    for (size_t n = 0; n < v.nnodes; n++)
        if (!strcmp(v.nodes[n].name, "bone_005"))
            snprintf(v.nodes[n].name, sizeof v.nodes[n].name, "wing");
    ff_error err;
    gck_result r;
    TS_OK(gck_run(&v, &s, 0, &r, &err), &err);
    cr_assert(!r.refused, "refused: %s", r.reason);
    cr_assert_str_eq(r.joints_by, "names");
    cr_assert_eq(r.joints_count[GCK_BY_NAME], 23);
    cr_assert_eq(r.joints_count[GCK_BY_NONE], 1);
    cr_assert_eq(r.joint_by[5], GCK_BY_NONE);
    cr_assert_eq(r.joint[5], -1);
    cr_assert_eq(r.departing, 0, "%zu clips depart", r.departing);
    cr_assert_eq(r.matched, 3);
    gck_free(&r);
    glb_stats_free(&st);
    gview_free(&v);
    gpose_scene_free(&s);
    ts_rmtree(dir);
}
