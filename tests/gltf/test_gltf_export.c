/*
 * tests/gltf/test_gltf_export.c: `export` and its library.
 *   - every .glb of the small synthetic corpus (original, all modes; and a
 *     reference export) passes the Khronos glTF-Validator (npm
 *     gltf-validator, tests/js/validate.mjs) with 0 errors and 0 warnings;
 *   - on every clip where the original's and the reference's matrices are
 *     equal, both files' animation bytes are equal;
 *   - the matrices in the file recompose to the engine's world positions;
 *   - a file that is not a model is reported, a corrupt one is bad input.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/fileio.h"
#include "harness/gltf/glb_write.h"
#include "harness/gltf/gpose.h"
#include "ref/dat.h"
#include "tests/emu/te.h"
#include "tests/support/ts.h"

#define STANDIN_POSE "order=yxz,offset=-y,length=own,scale=post"

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
    free(ref);
    free(out);
    free(corpus);
    ts_rmtree(dir);
}

/* The first model file of the small corpus that has more than one bone. */
static uint8_t *first_model(const char *corpus, dat_file *d, char **path)
{
    size_t n;
    char **names = ts_dat_names(corpus, &n);
    uint8_t *data = NULL;
    for (size_t i = 0; i < n && !data; i++) {
        char *p = ts_path(corpus, names[i]);
        size_t size;
        uint8_t *b = (uint8_t *)ts_read(p, &size);
        ff_error err;
        if (dat_parse(b, size, names[i], d, &err) == 0 && d->kind == DAT_MONSTER && d->bones > 3) {
            data = b;
            *path = p;
        } else {
            free(b);
            free(p);
        }
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    cr_assert(data, "no monster in the small corpus");
    return data;
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
    uint8_t *data = first_model(corpus, &d, &path);
    emu_image *img = te_standin_image("standin.exe");
    emu_game_opts go = {1, 0};
    emu_game *g;
    ff_error err;
    TE_OK(emu_game_open(img, &go, &g, &err), &err);
    gpose_scene orig, ref;
    TE_OK(gpose_orig_model(g, &d, 1u << MODE_NORMAL | 1u << MODE_SLOW, &orig, &err), &err);
    ref_pose_opts o;
    TE_OK(ref_pose_opts_parse(STANDIN_POSE, &o, &err), &err);
    TE_OK(gpose_ref_model(&d, &o, 1u << MODE_NORMAL | 1u << MODE_SLOW, &ref, &err), &err);
    uint8_t *ga, *gb;
    size_t la, lb;
    glb_stats sa, sb;
    glb_meta ma = {"original", NULL, NULL, NULL}, mb = {"reference", NULL, NULL, STANDIN_POSE};
    TE_OK(glb_build(&orig, &ma, &ga, &la, &sa, &err), &err);
    TE_OK(glb_build(&ref, &mb, &gb, &lb, &sb, &err), &err);
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
    emu_game_close(g);
    emu_image_free(img);
    free(data);
    free(path);
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
