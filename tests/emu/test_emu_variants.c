/*
 * tests/emu/test_emu_variants.c: the stand-in's pose variants against
 * standin.exe. Each pose mutant, the x87 variant and the 64-bit width
 * variants differ from standin.exe only inside the routines its macro
 * reaches (image bytes compared); each pose mutant and width variant
 * changes the result of the one hand-worked case aimed at it, to the value
 * worked out by hand, and of no other case; the x87 variant changes none.
 * The x87 variants (helper-composed) agree with their lean counterpart
 * (standin.exe, standin_width64.exe) on random 30-bone skeletons (matrices
 * and world matrices).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "tests/emu/te.h"

#define ONE 1024

/* ---- only their routines differ ------------------------------------------ */

/* [start, end) of a routine: up to the next routine of the profile. */
static void routine_span(const emu_profile *p, const char *name, uint32_t *start, uint32_t *end)
{
    *start = te_routine(p, name);
    *end = 0xFFFFFFFFu;
    for (unsigned i = 0; i < p->nroutines; i++)
        if (p->routines[i].address > *start && p->routines[i].address < *end)
            *end = p->routines[i].address;
}

static void only_in(const char *exe, const char *const *names, unsigned n)
{
    emu_image *a = te_standin_image("standin.exe"), *b = te_standin_image(exe);
    const emu_profile *p = emu_image_profile(a);
    const pe_image *pe = emu_image_pe(a);
    cr_assert_eq(pe->size_of_image, emu_image_pe(b)->size_of_image, "%s", exe);
    const uint8_t *x = emu_image_layout(a), *y = emu_image_layout(b);
    unsigned inside[8] = {0};
    cr_assert_leq(n, 8u);
    for (uint32_t off = 0x1000; off < pe->size_of_image; off++) {
        if (x[off] == y[off]) continue;
        uint32_t va = pe->image_base + off;
        int ok = 0;
        for (unsigned k = 0; k < n; k++) {
            uint32_t s, e;
            routine_span(p, names[k], &s, &e);
            if (va >= s && va < e) ok = 1, inside[k]++;
        }
        cr_assert(ok, "%s differs from standin.exe at 0x%X, outside its routine", exe, va);
    }
    for (unsigned k = 0; k < n; k++)
        cr_expect(inside[k] > 0, "%s: %s is the same as standin.exe's", exe, names[k]);
    emu_image_free(a);
    emu_image_free(b);
}

/*
 * A mutant's macro changes every routine that shares the mutated step
 * (standin.h): the order and the rounding are also worked out inline by
 * standin.exe's BuildBoneMatrices and ComputeBonesWorldMatrices, which the
 * x87 variant keeps composed from its helpers. Each routine named must
 * differ (the macro reached it) and nothing else may.
 */
Test(variants, each_differs_in_its_routines_only)
{
    static const char *const order[] = {"Fx_BoneRotation", "BuildBoneMatrices"};
    static const char *const floor_[] = {"Fx_MulCopy5", "BuildBoneMatrices",
                                         "ComputeBonesWorldMatrices"};
    static const char *const sat[] = {"Bone_ScaleColumns"};
    static const char *const base[] = {"ComputeBonesWorldMatrices"};
    static const char *const x87[] = {"Fx_MulCopy5", "Fx_Cos", "Fx_Sin", "BuildBoneMatrices",
                                      "ComputeBonesWorldMatrices"};
    only_in("standin_mut_pose_order.exe", order, 2);
    only_in("standin_mut_pose_floor.exe", floor_, 3);
    only_in("standin_mut_pose_saturate.exe", sat, 1);
    only_in("standin_mut_pose_base.exe", base, 1);
    only_in("standin_x87.exe", x87, 5);
    static const char *const w64[] = {"Fx_Apply", "Fx_ComposeTo", "BuildBoneMatrices",
                                      "ComputeBonesWorldMatrices"};
    static const char *const x87w64[] = {"Fx_MulCopy5", "Fx_Cos",
                                         "Fx_Sin",      "BuildBoneMatrices",
                                         "Fx_Apply",    "ComputeBonesWorldMatrices",
                                         "Fx_ComposeTo"};
    only_in("standin_width64.exe", w64, 4);
    only_in("standin_x87_width64.exe", x87w64, 7);
}

/* ---- each mutant changes its case only ----------------------------------- */

typedef struct vcase {
    const char *name;
    int flags, model_scale;
    te_bone bones[2];
    unsigned n;
    int world; /* 1: compare the world matrices under vbase */
} vcase;

/* B = quarter turn about z, z doubled, t (1000, 2000, -3000). */
static const emu_matrix vbase = {
    {{0, -4096, 0}, {4096, 0, 0}, {0, 0, 8192}}, 0, {1000, 2000, -3000}};

static const vcase cases[] = {
    {"order", 0, 256, {{-1, 0, {1024, 1024, 1024}, {ONE, ONE, ONE}}}, 1, 0},
    {"floor", 0, 256, {{-1, 0, {512, 512, 0}, {ONE, ONE, ONE}}}, 1, 0},
    {"saturate", 1, 256, {{-1, 0, {0, 0, 0}, {32767, ONE, ONE}}}, 1, 0},
    {"base",
     0,
     300,
     {{-1, 100, {0, 1024, 0}, {ONE, ONE, ONE}}, {0, 50, {1024, 0, 0}, {ONE, ONE, ONE}}},
     2,
     1},
    {"moderate scales",
     1,
     256,
     {{-1, 100, {0, 0, 0}, {2048, 1024, 512}}, {0, 100, {0, 1024, 0}, {1024, 2048, 1024}}},
     2,
     0},
};
#define NCASES (sizeof cases / sizeof cases[0])

static void run_case(emu_image *img, const vcase *c, emu_matrix out[2])
{
    static const int root[3] = {10, -21, 30};
    te_file f;
    te_make_skeleton(&f, c->flags, c->model_scale, root, c->bones, c->n);
    emu_game *g = te_game(img, 0, &f);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    if (c->world) {
        TE_CALL(emu_game_world_matrices(g, &vbase, out, 2, &ret, &fault), &fault);
    } else {
        for (unsigned i = 0; i < c->n; i++)
            cr_assert_eq(emu_game_bone_matrix(g, i, &out[i]), 0);
    }
    emu_game_close(g);
}

static int same(const emu_matrix *a, const emu_matrix *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (memcmp(a[i].m, b[i].m, sizeof a[i].m) || memcmp(a[i].t, b[i].t, sizeof a[i].t))
            return 0;
    return 1;
}

/*
 * What each mutant gives on its own case (bone 0, or both bones' world):
 *   order (zyx): Rz Ry Rx of (1024, 1024, 1024): Rx; Ry Rx = [[0,1,0],
 *     [0,0,-1],[-1,0,0]]; Rz of that: rows (-r1, r0, r2) = [[0,0,1],[0,1,0],
 *     [-1,0,0]] (standin.exe's yxz: [[1,0,0],[0,0,-1],[0,1,0]]).
 *   floor: Ry(512) Rx(512): row 0 col 1 = 2896 * 2896 / 4096 = 2047.56,
 *     floored 2047 (nearest 2048), likewise cells (0,2), (2,1), (2,2).
 *   saturate: v = 32767 << 2 = 131068, cell 4096 * 131068 >> 12 = 131068:
 *     wrapped -4, saturated 32767.
 *   base: the world translations of test_emu_pose.c's S1 bones 0 and 1
 *     without the base's: (25, 11, 70) and (75, 11, 70).
 */
static const struct {
    const char *exe;
    const char *own; /* the case it changes, NULL: none */
    int m[2][9];
    int t[2][3];
} variants[] = {
    {"standin_mut_pose_order.exe",
     "order",
     {{0, 0, 4096, 0, 4096, 0, -4096, 0, 0}},
     {{10, -21, 30}}},
    {"standin_mut_pose_floor.exe",
     "floor",
     {{2896, 2047, 2047, 0, 2896, -2896, -2896, 2047, 2047}},
     {{10, -21, 30}}},
    {"standin_mut_pose_saturate.exe",
     "saturate",
     {{32767, 0, 0, 0, 4096, 0, 0, 0, 4096}},
     {{10, -21, 30}}},
    {"standin_mut_pose_base.exe",
     "base",
     {{0, -4096, 0, 0, 0, 4096, -8192, 0, 0}, {0, 0, 4096, 0, 4096, 0, -8192, 0, 0}},
     {{25, 11, 70}, {75, 11, 70}}},
    {"standin_x87.exe", NULL, {{0}}, {{0}}},
    {"standin_width64.exe", NULL, {{0}}, {{0}}},
    {"standin_x87_width64.exe", NULL, {{0}}, {{0}}},
};

Test(variants, each_mutant_changes_its_own_case_only)
{
    emu_image *ref = te_standin_image("standin.exe");
    emu_matrix want[NCASES][2];
    for (size_t c = 0; c < NCASES; c++)
        run_case(ref, &cases[c], want[c]);
    /* standin.exe itself on the aimed cases (the values the mutants break). */
    static const int yxz[9] = {4096, 0, 0, 0, 0, -4096, 0, 4096, 0};
    static const int nearest[9] = {2896, 2048, 2048, 0, 2896, -2896, -2896, 2048, 2048};
    static const int wrapped[9] = {-4, 0, 0, 0, 4096, 0, 0, 0, 4096};
    static const int root_t[3] = {10, -21, 30}; /* model scale 256: x1 */
    te_expect_matrix(&want[0][0], yxz, root_t, "standin.exe order case", 0);
    te_expect_matrix(&want[1][0], nearest, root_t, "standin.exe floor case", 0);
    te_expect_matrix(&want[2][0], wrapped, root_t, "standin.exe saturate case", 0);
    emu_image_free(ref);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        emu_image *img = te_standin_image(variants[v].exe);
        for (size_t c = 0; c < NCASES; c++) {
            emu_matrix got[2];
            run_case(img, &cases[c], got);
            int own = variants[v].own && strcmp(variants[v].own, cases[c].name) == 0;
            cr_expect_eq(same(got, want[c], cases[c].n), !own, "%s on case %s: %s", variants[v].exe,
                         cases[c].name, own ? "no change" : "changed");
            if (!own) continue;
            for (unsigned i = 0; i < cases[c].n; i++)
                te_expect_matrix(&got[i], variants[v].m[i], variants[v].t[i], variants[v].exe,
                                 (int)i);
        }
        emu_image_free(img);
    }
}

/* ---- the width of the sums ------------------------------------------------ */

/*
 * A scale-path case whose scale vector's product passes 2^31 (the
 * saturating mutant changes it too, so it is a test of its own). Bone 0's
 * v0 = 32767 << 2 = 131068 scales column 0 of I to 131068, s16 -4 (no
 * product: the same in both widths). Bone 1, rot z 512 (Rz512: c = s =
 * 2896): Copy5(diag(-4, 4096, 4096), Rz512) = [[-3,3,0],[2896,2896,0],
 * [0,0,4096]], then column 0 times v1.x >> 12, v1.x = 32767 * 131068 >> 10:
 * wrapped in 32 bits -256, giving -3 * -256 >> 12 = 0 and 2896 * -256 >> 12
 * = -181; exact in 64 bits 4194048, giving -12582144 >> 12 = -3072 and
 * 2965323, s16 16203. t1 = (10, -21, 30) + (0, 4096 * -9 >> 12, 0).
 */
Test(variants, width_case_tells_32_from_64_bits)
{
    static const vcase wide = {"width",
                               1,
                               256,
                               {{-1, 0, {0, 0, 0}, {32767, ONE, ONE}},
                                {0, 9, {0, 0, 512}, {32767, ONE, ONE}}},
                               2,
                               0};
    static const int m0[9] = {-4, 0, 0, 0, 4096, 0, 0, 0, 4096}, t0[3] = {10, -21, 30};
    static const int m32[9] = {0, 3, 0, -181, 2896, 0, 0, 0, 4096};
    static const int m64[9] = {-3072, 3, 0, 16203, 2896, 0, 0, 0, 4096}, t1[3] = {10, -30, 30};
    static const char *const exes[] = {"standin.exe", "standin_x87.exe", "standin_width64.exe",
                                       "standin_x87_width64.exe"};
    for (int e = 0; e < 4; e++) {
        emu_image *img = te_standin_image(exes[e]);
        emu_matrix got[2];
        run_case(img, &wide, got);
        te_expect_matrix(&got[0], m0, t0, exes[e], 0);
        te_expect_matrix(&got[1], e < 2 ? m32 : m64, t1, exes[e], 1);
        emu_image_free(img);
    }
}

/* ---- x87 against the default on random skeletons ------------------------- */

/* standin.exe works BuildBoneMatrices and ComputeBonesWorldMatrices out
 * inline, the x87 variant composes them from its helpers (as the game's):
 * both must give the same cells and translations, wrap-arounds included
 * (garbage scales, cells past the s16 range on the scale path, and every
 * fourth base with extreme cells and translation, whose sums wrap at 32
 * bits); so must standin_width64.exe and standin_x87_width64.exe, whose
 * sums are exact. */

#define RBONES 30

static void random_skeleton(rng *r, te_file *f)
{
    te_bone b[RBONES];
    for (int i = 0; i < RBONES; i++) {
        /* Mostly an earlier bone, sometimes -1, sometimes a bone that is
         * not an earlier one (a root as well). */
        b[i].parent = i == 0 || rng_chance(r, 10) ? -1 : rng_range(r, 0, i - 1);
        if (rng_chance(r, 5)) b[i].parent = rng_range(r, -40, RBONES + 40);
        b[i].size = rng_range(r, -300, 300);
        for (int k = 0; k < 3; k++) {
            b[i].rot[k] = rng_range(r, -32768, 32767);
            /* Mostly near 1.0, sometimes anything (garbage past a clip's end). */
            b[i].scale[k] =
                rng_chance(r, 80) ? rng_range(r, 600, 1500) : rng_range(r, -32768, 32767);
        }
    }
    int root[3] = {rng_range(r, -32768, 32767), rng_range(r, -32768, 32767),
                   rng_range(r, -32768, 32767)};
    te_make_skeleton(f, rng_chance(r, 50), rng_range(r, -32768, 32767), root, b, RBONES);
}

static void pose_of(emu_image *img, const te_file *f, const emu_matrix *base, emu_matrix *bones,
                    emu_matrix *world)
{
    emu_game *g = te_game(img, 0, f);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    for (unsigned i = 0; i < RBONES; i++)
        cr_assert_eq(emu_game_bone_matrix(g, i, &bones[i]), 0);
    TE_CALL(emu_game_world_matrices(g, base, world, RBONES, &ret, &fault), &fault);
    emu_game_close(g);
}

static void composed_like_lean(const char *lean, const char *composed)
{
    emu_image *soft = te_standin_image(lean), *x87 = te_standin_image(composed);
    rng r = rng_make(87, 0xB0E5);
    for (int n = 0; n < 40; n++) {
        te_file f;
        random_skeleton(&r, &f);
        emu_matrix base = {{{0}}, 0, {0}};
        int extreme = n % 4 == 3;
        for (int k = 0; k < 9; k++)
            base.m[k / 3][k % 3] = (int16_t)(extreme ? (rng_chance(&r, 50) ? -32768 : 32767)
                                                     : rng_range(&r, -8192, 8192));
        for (int k = 0; k < 3; k++)
            base.t[k] = extreme ? (int32_t)(uint32_t)rng_next(&r) : rng_range(&r, -100000, 100000);
        emu_matrix a[RBONES], b[RBONES], wa[RBONES], wb[RBONES];
        pose_of(soft, &f, &base, a, wa);
        pose_of(x87, &f, &base, b, wb);
        for (int i = 0; i < RBONES; i++) {
            cr_assert(same(&a[i], &b[i], 1), "%s, skeleton %d bone %d: differs", composed, n, i);
            cr_assert(same(&wa[i], &wb[i], 1), "%s, skeleton %d bone %d: world differs", composed,
                      n, i);
        }
    }
    emu_image_free(soft);
    emu_image_free(x87);
}

Test(variants, x87_poses_random_skeletons_like_the_default)
{
    composed_like_lean("standin.exe", "standin_x87.exe");
}

Test(variants, x87_width64_poses_random_skeletons_like_width64)
{
    composed_like_lean("standin_width64.exe", "standin_x87_width64.exe");
}
