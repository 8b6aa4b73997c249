/*
 * tests/gltf/test_gltf_export.c: `export` and its library.
 *   - every .glb of the small synthetic corpus (original, all modes; a
 *     reference export under an older reading of the scale path, and one
 *     under the notes' stack, where joints are placed by their world
 *     transform) passes the Khronos glTF-Validator (npm
 *     gltf-validator, tests/js/validate.mjs) with 0 errors and 0 warnings;
 *   - on every clip where the original's and the reference's matrices are
 *     equal, both files' animation bytes are equal;
 *   - the matrices in the file recompose to the engine's world positions;
 *   - an entity composed from its two models' poses (as the run gives them)
 *     is what the engine's own lockstep (QueueAnimation, AdvanceBy1) leaves;
 *   - a second export reads the run's results cache and writes the same bytes;
 *   - a file that is not a model is reported, a corrupt one is bad input.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/fileio.h"
#include "emu/engine/entity.h"
#include "harness/gltf/export.h"
#include "harness/gltf/glb_write.h"
#include "harness/gltf/gpose.h"
#include "ref/dat.h"
#include "tests/emu/te.h"
#include "tests/gltf/tg.h"
#include "tests/support/ts.h"

#define STANDIN_POSE TS_STANDIN_POSE_BASE

static void validate(const char *scratch, const char *dir)
{
    char *script = ts_source("tests/js/validate.mjs");
    ts_out o;
    ts_sh(scratch, &o, "node %s %s/*.glb", script, dir);
    cr_assert_eq(o.status, 0, "glTF-Validator: exit %d\n%s\n%s", o.status, o.out, o.err);
    cr_assert(ts_count(o.out, "\"errors\":0,\"warnings\":0") >= 10,
              "fewer files validated than exported:\n%s", o.out);
    ts_out_free(&o);
    free(script);
}

Test(export, every_file_passes_the_khronos_validator, .timeout = 600)
{
    char *dir = ts_tempdir(), *corpus = ts_corpus(dir), *out = ts_path(dir, "glb");
    ts_out o;
    ts_cli(dir, &o, "export --corpus %s --out %s --modes all", corpus, out);
    cr_assert_eq(o.status, 0, "export: %d\n%s\n%s", o.status, o.out, o.err);
    cr_assert(strstr(o.out, "decomposition error"), "no error figure on the terminal:\n%s", o.out);
    cr_assert(strstr(o.out, "+"), "no body + weapon scene:\n%s", o.out);
    ts_out_free(&o);
    validate(dir, out);
    char *ref = ts_path(dir, "ref");
    ts_cli(dir, &o, "export --corpus %s --out %s --source reference --pose-options %s", corpus,
           ref, STANDIN_POSE);
    cr_assert_eq(o.status, 0, "export --source reference: %d\n%s", o.status, o.err);
    ts_out_free(&o);
    validate(dir, ref);
    /* The notes' layout: joints under their parents' un-scaling nodes, still valid glTF. */
    char *stack = ts_path(dir, "stack");
    ts_cli(dir, &o, "export --corpus %s --out %s --source reference --pose-options "
                    "root=model,scale=stack",
           corpus, stack);
    cr_assert_eq(o.status, 0, "export --source reference (stack): %d\n%s", o.status, o.err);
    cr_assert(strstr(o.out, "under their parent's un-scaling node"),
              "no joint under an un-scaling node under the stack:\n%s", o.out);
    ts_out_free(&o);
    validate(dir, stack);
    free(stack);
    free(ref);
    free(out);
    free(corpus);
    ts_rmtree(dir);
}

static int same_clip(const gpose_model *a, const gpose_model *b, size_t c)
{
    const gpose_clip *x = &a->clips[c], *y = &b->clips[c];
    if (x->frames != y->frames) return 0;
    for (size_t k = 0; k < x->frames; k++)
        for (unsigned j = 0; j < a->bones; j++) {
            const ref_matrix *p = gpose_at(a, x, k, j), *q = gpose_at(b, y, k, j);
            if (memcmp(p->m, q->m, sizeof p->m) || memcmp(p->t, q->t, sizeof p->t)) return 0;
        }
    return 1;
}

Test(export, agreeing_clips_have_byte_identical_animation_data, .timeout = 300)
{
    char *dir = ts_tempdir(), *corpus = ts_corpus(dir), *path = NULL;
    dat_file d;
    uint8_t *data = tg_first_monster(corpus, &d, &path);
    emu_image *img = te_standin_image("standin.exe");
    ff_error err;
    gpose_scene orig, ref;
    ref_pose_opts o;
    TS_OK(ref_pose_opts_parse(STANDIN_POSE, &o, &err), &err);
    TS_OK(gexport_model_poses(img, ts_engine(), path, 1u << MODE_NORMAL | 1u << MODE_SLOW, &o, 0,
                              &orig, &err),
          &err);
    TS_OK(gpose_ref_model(&d, &o, 1u << MODE_NORMAL | 1u << MODE_SLOW, &ref, &err), &err);
    uint8_t *ga, *gb;
    size_t la, lb;
    glb_stats sa, sb;
    glb_meta ma = {"original", NULL, NULL, NULL, NULL, 0, 0}, mb = {"reference", NULL, NULL, STANDIN_POSE, NULL, 0, 0};
    TS_OK(glb_build(&orig, &ma, &ga, &la, &sa, &err), &err);
    TS_OK(glb_build(&ref, &mb, &gb, &lb, &sb, &err), &err);
    cr_assert_eq(sa.nanims, sb.nanims);
    size_t agreed = 0;
    for (size_t i = 0, c = 0; i < sa.nanims; i++, c++) {
        while (orig.model[0].clips[c].frames == 0) c++;
        if (!same_clip(&orig.model[0], &ref.model[0], c)) continue;
        agreed++;
        cr_assert_eq(sa.anims[i].data_len, sb.anims[i].data_len, "clip %u", sa.anims[i].clip);
        cr_assert(memcmp(ga + sa.bin_offset + sa.anims[i].data_offset,
                         gb + sb.bin_offset + sb.anims[i].data_offset, sa.anims[i].data_len) == 0,
                  "clip %u (%s): the matrices agree, the animation bytes differ",
                  sa.anims[i].clip, mode_name(sa.anims[i].mode));
        /* Where the matrices are TRS (up to Q12 rounding), the file's values recompose to
         * the engine's positions within float precision. */
        if (sa.anims[i].decomposition_error < 1e-3)
                cr_assert_lt(sa.anims[i].position_error, 0.5, "clip %u: %g units", sa.anims[i].clip,
                         sa.anims[i].position_error);
    }
    cr_assert_gt(agreed, 0, "no clip where both sides agree");
    free(ga);
    free(gb);
    glb_stats_free(&sa);
    glb_stats_free(&sb);
    gpose_scene_free(&orig);
    gpose_scene_free(&ref);
    emu_image_free(img);
    free(data);
    free(path);
    free(corpus);
    ts_rmtree(dir);
}

static emu_entity_file entity_file(const dat_file *d)
{
    uint32_t geom = d->nsections > 1 ? d->section[DAT_SECTION_GEOMETRY] : d->skel_off;
    return (emu_entity_file){d->data, d->size, d->skel_off, geom, d->anim_off};
}

/*
 * The engine's own lockstep of the entity loaded on e, clip by clip in the
 * scene's modes: each call's matrices of both models against the scene's
 * keyframe. Returns how many clips the weapon is longer or shorter than
 * the body in (lengths[0], lengths[1]).
 */
static void same_as_lockstep(emu_entity *e, const gpose_scene *s, const gpose_model *weapon,
                             size_t lengths[2])
{
    const gpose_model *mb = &s->model[0], *mw = &s->model[1];
    for (size_t c = 0; c < mb->nclips; c++) {
        const gpose_clip *cb = &mb->clips[c], *cw = &mw->clips[c];
        const gpose_clip *alone = gpose_find(weapon, cb->clip, cb->mode);
        cr_assert(alone, "clip %u: no weapon clip", cb->clip);
        lengths[0] += alone->frames > cb->frames;
        lengths[1] += alone->frames < cb->frames;
        /* The mode through the entity's status, as the game reaches it; slow+fast no status
         * reaches (QueueAnimation sets SLOW or FAST, never both): the lockstep cannot run it. */
        int st = entity_status_of_mode(cb->mode);
        if (st < 0) continue;
        static const uint8_t pair[3] = {1, 0, 1};
        emu_entity_speed sp = {0, entity_status_byte((entity_status_id)st), pair};
        emu_entity_reset(e);
        uint32_t r;
        emu_fault f;
        TE_CALL(emu_entity_queue(e, &sp, mode_flags(cb->mode), (int16_t)cb->clip, &r, &f), &f);
        size_t k = 0;
        for (; r == 0; k++) {
            cr_assert_lt(k, cb->frames, "clip %u (%s): the engine poses more keyframes", cb->clip,
                         mode_name(cb->mode));
            for (unsigned i = 0; i < 2; i++) {
                const gpose_model *md = i ? mw : mb;
                const gpose_clip *cl = i ? cw : cb;
                const uint8_t *sk = emu_entity_skeleton(e, i ? EMU_ENTITY_WEAPON : EMU_ENTITY_BODY);
                for (unsigned b = 0; b < md->bones; b++) {
                    ref_matrix m;
                    ref_pose_bone_load(sk, b, &m);
                    const ref_matrix *want = gpose_at(md, cl, k, b);
                    cr_assert(!memcmp(m.m, want->m, sizeof m.m) && !memcmp(m.t, want->t, sizeof m.t),
                              "clip %u (%s), keyframe %zu, %s bone %u differs from the lockstep",
                              cb->clip, mode_name(cb->mode), k, i ? "weapon" : "body", b);
                }
            }
            TE_CALL(emu_entity_advance(e, &r, &f), &f);
        }
        cr_assert_eq(k, cb->frames, "clip %u (%s): %zu keyframes, the engine posed %zu", cb->clip,
                     mode_name(cb->mode), cb->frames, k);
    }
}

Test(export, an_entity_from_its_models_is_the_engines_lockstep, .timeout = 300)
{
    char *dir = ts_tempdir(), *corpus = ts_corpus(dir);
    /* A body with two weapons, and the last weapon as a body holding the body as its
     * weapon: the engine's lockstep does not care which is which, and the weapon then
     * ends first. */
    const char *files[3] = {"d4c009.dat", "d4w023.dat", "d4w024.dat"};
    const int pairs[3][2] = {{0, 1}, {0, 2}, {2, 0}};
    /* The modes an entity status reaches (the lockstep runs no other). */
    const unsigned modes = 1u << MODE_NORMAL | 1u << MODE_SLOW | 1u << MODE_FAST;
    emu_image *img = te_standin_image("standin.exe");
    ff_error err;
    ref_pose_opts o;
    TS_OK(ref_pose_opts_parse(STANDIN_POSE, &o, &err), &err);
    gpose_scene poses[3];
    uint8_t *data[3];
    dat_file d[3];
    for (int i = 0; i < 3; i++) {
        char *p = ts_path(corpus, files[i]);
        size_t size;
        data[i] = (uint8_t *)ts_read(p, &size);
        TS_OK(dat_parse(data[i], size, files[i], &d[i], &err), &err);
        TS_OK(gexport_model_poses(img, ts_engine(), p, modes, &o, 0, &poses[i], &err), &err);
        free(p);
    }
    emu_game_opts go = {1, 0, ts_engine()};
    emu_game *g;
    emu_entity *e;
    TS_OK(emu_game_open(img, &go, &g, &err), &err);
    TS_OK(emu_entity_open(g, &e, &err), &err);
    size_t lengths[2] = {0, 0};
    ref_matrix id = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {0, 0, 0}};
    for (int i = 0; i < 3; i++) {
        int b = pairs[i][0], w = pairs[i][1];
        gpose_scene s;
        TS_OK(gpose_entity_compose(&poses[b].model[0], &poses[w].model[0], &id, &s, &err), &err);
        emu_entity_file bf = entity_file(&d[b]), wf = entity_file(&d[w]);
        emu_attach att = {{0, 0, 0}, {0, 0, 0}};
        TS_OK(emu_entity_load(e, &bf, &wf, &att, &err), &err);
        same_as_lockstep(e, &s, &poses[w].model[0], lengths);
        gpose_scene_free(&s);
    }
    /* Both cases of the rule happened. */
    cr_assert_gt(lengths[0], 0, "no clip where the weapon outlasts the body");
    cr_assert_gt(lengths[1], 0, "no clip where the weapon ends first");
    emu_entity_close(e);
    emu_game_close(g);
    for (int i = 0; i < 3; i++) {
        free(data[i]);
        gpose_scene_free(&poses[i]);
    }
    emu_image_free(img);
    free(corpus);
    ts_rmtree(dir);
}

Test(export, a_second_export_reads_the_results_cache_and_writes_the_same_bytes, .timeout = 300)
{
    char *dir = ts_tempdir(), *corpus = ts_corpus(dir), *cache = ts_path(dir, "cache");
    char *out[2] = {ts_path(dir, "a"), ts_path(dir, "b")};
    for (int i = 0; i < 2; i++) {
        ts_out o;
        ts_cli(dir, &o, "export --corpus %s --out %s --cache-dir %s --modes normal,fast -q",
               corpus, out[i], cache);
        cr_assert_eq(o.status, 0, "export %d: %d\n%s", i, o.status, o.err);
        if (i == 0)
            cr_assert(strstr(o.out, " 0 from the results cache"), "the cache was not empty:\n%s",
                      o.out);
        else
            cr_assert(strstr(o.out, "poses: 0 clips emulated, 0 shared with identical clips,") &&
                          !strstr(o.out, " 0 from the results cache"),
                      "the second export did not take the cache's poses:\n%s", o.out);
        ts_out_free(&o);
    }
    ts_out o;
    ts_sh(dir, &o, "diff -r %s %s && ls %s | wc -l", out[0], out[1], out[0]);
    cr_assert_eq(o.status, 0, "the second export differs:\n%s", o.out);
    cr_assert_gt(strtol(o.out, NULL, 10), 10, "too few files: %s", o.out);
    ts_out_free(&o);
    free(out[0]);
    free(out[1]);
    free(cache);
    free(corpus);
    ts_rmtree(dir);
}

Test(export, a_corrupt_file_is_bad_input_and_the_others_are_written, .timeout = 300)
{
    char *dir = ts_tempdir(), *corpus = ts_corpus(dir), *out = ts_path(dir, "glb");
    char *bad = ts_path(corpus, "c0m099.dat");
    ts_write(bad, "\x05\x00\x00\x00garbage", 11);
    ts_out o;
    ts_cli(dir, &o, "export --corpus %s --out %s -q", corpus, out);
    cr_assert_eq(o.status, 2, "exit %d\n%s\n%s", o.status, o.out, o.err);
    cr_assert(strstr(o.err, "c0m099.dat"), "the bad file is not named:\n%s", o.err);
    cr_assert(strstr(o.out, "11 .glb written, 1 failed"), "the others are not written:\n%s", o.out);
    ts_out_free(&o);
    free(bad);
    free(out);
    free(corpus);
    ts_rmtree(dir);
}
