/*
 * tests/emu/test_emu_reference.c: every stand-in build's posed skeleton is
 * the reference's (ref/pose.h) under the build's own option text, on random
 * well-formed skeletons (parents -1 or earlier, at most 80 bones, both
 * paths, garbage scales now and then) and under random bases, extreme ones
 * among them (the world matrices' sums then pass 2^31): the bone matrices
 * of BuildBoneMatrices and the world matrices of ComputeBonesWorldMatrices,
 * cells and translations. And each build that keeps an older reading, or
 * another width, is told apart: on some skeleton its pose is not the
 * reference's under standin.exe's option text.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "common/rng.h"
#include "ref/pose.h"
#include "tests/emu/te.h"

/* standin.exe's choices where they are not the reference's defaults. */
#define STANDIN_TEXT "order=yxz,offset=-y,length=own"

static const struct {
    const char *exe;
    const char *text; /* the build's option text */
} builds[] = {
    {"standin.exe", STANDIN_TEXT},
    {"standin_x87.exe", STANDIN_TEXT},
    {"standin_root_none.exe", STANDIN_TEXT ",root=none"},
    {"standin_x87_root_none.exe", STANDIN_TEXT ",root=none"},
    {"standin_scale_pre.exe", STANDIN_TEXT ",scale=pre"},
    {"standin_x87_scale_pre.exe", STANDIN_TEXT ",scale=pre"},
    {"standin_scale_post.exe", STANDIN_TEXT ",scale=post"},
    {"standin_x87_scale_post.exe", STANDIN_TEXT ",scale=post"},
    {"standin_width64.exe", STANDIN_TEXT ",width=64"},
    {"standin_x87_width64.exe", STANDIN_TEXT ",width=64"},
    {"standin_width_mixed.exe", STANDIN_TEXT ",width-t=64,width-vec=32"},
};
#define NBUILDS (sizeof builds / sizeof builds[0])
#define NSKEL 48
#define MAXB 40

typedef struct rcase {
    te_file f;
    unsigned bones;
    emu_matrix base;
} rcase;

static void random_case(rng *r, int n, rcase *c)
{
    te_bone b[MAXB];
    c->bones = (unsigned)rng_range(r, 1, MAXB);
    for (unsigned i = 0; i < c->bones; i++) {
        b[i].parent = i == 0 || rng_chance(r, 10) ? -1 : rng_range(r, 0, (int)i - 1);
        b[i].size = rng_range(r, -300, 300);
        for (int k = 0; k < 3; k++) {
            b[i].rot[k] = rng_range(r, -32768, 32767);
            b[i].scale[k] =
                rng_chance(r, 85) ? rng_range(r, 600, 1500) : rng_range(r, -32768, 32767);
        }
    }
    int root[3] = {rng_range(r, -32768, 32767), rng_range(r, -32768, 32767),
                   rng_range(r, -32768, 32767)};
    int model = rng_chance(r, 80) ? rng_range(r, 100, 6000) : rng_range(r, -32768, 32767);
    /* Every other skeleton takes the scale path. */
    te_make_skeleton(&c->f, n % 2, model, root, b, c->bones);
    memset(&c->base, 0, sizeof c->base);
    int extreme = n % 4 == 3;
    for (int k = 0; k < 9; k++)
        c->base.m[k / 3][k % 3] = (int16_t)(extreme ? (rng_chance(r, 50) ? -32768 : 32767)
                                                    : rng_range(r, -8192, 8192));
    for (int k = 0; k < 3; k++)
        c->base.t[k] = extreme ? (int32_t)(uint32_t)rng_next(r) : rng_range(r, -100000, 100000);
}

/* The original's bone and world matrices of c, on g (one game a build, as a worker
 * keeps one engine for file after file). */
static void original(emu_game *g, const rcase *c, emu_matrix *bones, emu_matrix *world)
{
    te_load(g, &c->f);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    cr_assert_eq(ret, 0x58u, "BuildBoneMatrices returns Field_Free(0x58)'s value");
    for (unsigned i = 0; i < c->bones; i++)
        cr_assert_eq(emu_game_bone_matrix(g, i, &bones[i]), 0);
    TE_CALL(emu_game_world_matrices(g, &c->base, world, c->bones, &ret, &fault), &fault);
}

/* The number of bones whose matrices (bone or world) differ from the
 * reference's under text; 0: the same pose. */
static unsigned differences(const rcase *c, const char *text, const emu_matrix *bones,
                            const emu_matrix *world)
{
    ref_pose_opts o;
    ff_error err;
    cr_assert_eq(ref_pose_opts_parse(text, &o, &err), 0, "%s: %s", text, err.reason);
    size_t len = 16 + 48 * (size_t)c->bones;
    uint8_t skel[16 + 48 * MAXB];
    memcpy(skel, c->f.data + TE_SKEL_OFF, len);
    cr_assert_eq(ref_build_bone_matrices(skel, c->bones, &o), 0);
    ref_matrix base;
    memcpy(base.m, c->base.m, sizeof base.m);
    memcpy(base.t, c->base.t, sizeof base.t);
    uint8_t placed[16 + 48 * MAXB];
    memcpy(placed, skel, len);
    cr_assert_eq(ref_world_matrices(placed, c->bones, &base, &o), 0);
    unsigned n = 0;
    for (unsigned i = 0; i < c->bones; i++) {
        emu_matrix rb, rw;
        emu_matrix_decode(skel + 16 + 48 * i + 0x10, &rb);
        emu_matrix_decode(placed + 16 + 48 * i + 0x10, &rw);
        if (memcmp(rb.m, bones[i].m, sizeof rb.m) || memcmp(rb.t, bones[i].t, sizeof rb.t) ||
            memcmp(rw.m, world[i].m, sizeof rw.m) || memcmp(rw.t, world[i].t, sizeof rw.t))
            n++;
    }
    return n;
}

Test(reference, every_build_poses_as_the_reference_under_its_own_options)
{
    for (size_t b = 0; b < NBUILDS; b++) {
        emu_image *img = te_standin_image(builds[b].exe);
        rng r = rng_make(27, 0x5EF);
        unsigned told_apart = 0;
        emu_game *g = NULL;
        for (int n = 0; n < NSKEL; n++) {
            rcase c;
            emu_matrix bones[MAXB], world[MAXB];
            random_case(&r, n, &c);
            if (!g) g = te_game(img, 0, &c.f);
            original(g, &c, bones, world);
            unsigned d = differences(&c, builds[b].text, bones, world);
            cr_assert_eq(d, 0u, "%s, skeleton %d: %u bones differ from the reference under %s",
                         builds[b].exe, n, d, builds[b].text);
            if (strcmp(builds[b].text, STANDIN_TEXT) != 0)
                told_apart += differences(&c, STANDIN_TEXT, bones, world) > 0;
        }
        if (strcmp(builds[b].text, STANDIN_TEXT) != 0)
            cr_expect_gt(told_apart, 0u, "%s poses as standin.exe's options on every skeleton",
                         builds[b].exe);
        emu_game_close(g);
        emu_image_free(img);
    }
}
