/*
 * tests/emu/test_emu_variants.c: the stand-in's pose variants against
 * standin.exe. Each pose mutant, the x87 variant, the width variants and
 * the older readings (root=none, scale=pre, scale=post) differ from
 * standin.exe only inside the routines its macro reaches (image bytes
 * compared); each pose mutant and reading changes the result of the one
 * hand-worked case aimed at it, to the value worked out by hand, and of no
 * other case; the x87 and width variants change none. The x87 variants
 * (helper-composed) agree with their lean counterpart on random 30-bone
 * skeletons (matrices and world matrices). Every build's pose is the
 * reference's (ref/pose.h) under the build's own option text, and the
 * older readings' and the width variants' are not under standin.exe's.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "ref/pose.h"
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
    static const char *const order[] = {"Fx_BoneRotation", "BuildBoneMatrices",
                                        "Bone_BuildStack"};
    static const char *const floor_[] = {"Fx_MulCopy5", "BuildBoneMatrices", "Bone_BuildStack",
                                         "ComputeBonesWorldMatrices"};
    static const char *const sat[] = {"Bone_ScaleColumns"};
    static const char *const base[] = {"ComputeBonesWorldMatrices"};
    static const char *const x87[] = {"Fx_MulCopy5",     "Fx_Cos",
                                      "Fx_Sin",          "BuildBoneMatrices",
                                      "Bone_BuildStack", "ComputeBonesWorldMatrices"};
    only_in("standin_mut_pose_order.exe", order, 3);
    only_in("standin_mut_pose_floor.exe", floor_, 4);
    only_in("standin_mut_pose_saturate.exe", sat, 1);
    only_in("standin_mut_pose_base.exe", base, 1);
    only_in("standin_x87.exe", x87, 6);
    only_in("standin_x87_root_none.exe", x87, 6);
    only_in("standin_x87_scale_pre.exe", x87, 6);
    only_in("standin_x87_scale_post.exe", x87, 6);
    /* standin.exe's BuildBoneMatrices has no running vector: width64
     * reaches the scale path's Bone_BuildStack only. */
    static const char *const w64[] = {"Fx_Apply", "Fx_ComposeTo", "Bone_BuildStack",
                                      "ComputeBonesWorldMatrices"};
    static const char *const mixed[] = {"Fx_Apply", "Fx_ComposeTo", "ComputeBonesWorldMatrices"};
    static const char *const x87w64[] = {"Fx_MulCopy5",     "Fx_Cos",   "Fx_Sin",
                                         "BuildBoneMatrices", "Fx_Apply", "Bone_BuildStack",
                                         "ComputeBonesWorldMatrices", "Fx_ComposeTo"};
    only_in("standin_width64.exe", w64, 4);
    only_in("standin_width_mixed.exe", mixed, 3);
    only_in("standin_x87_width64.exe", x87w64, 8);
    static const char *const root_none[] = {"BuildBoneMatrices", "Bone_BuildStack"};
    static const char *const scale_pp[] = {"BuildBoneMatrices"};
    only_in("standin_root_none.exe", root_none, 2);
    only_in("standin_scale_pre.exe", scale_pp, 1);
    only_in("standin_scale_post.exe", scale_pp, 1);
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
    {"order", 0, 4096, {{-1, 0, {1024, 1024, 1024}, {ONE, ONE, ONE}}}, 1, 0},
    {"floor", 0, 4096, {{-1, 0, {512, 512, 0}, {ONE, ONE, ONE}}}, 1, 0},
    {"saturate", 1, 4096, {{-1, 0, {0, 0, 0}, {32767, ONE, ONE}}}, 1, 0},
    {"base",
     0,
     4096,
     {{-1, 100, {0, 1024, 0}, {ONE, ONE, ONE}}, {0, 50, {1024, 0, 0}, {ONE, ONE, ONE}}},
     2,
     1},
    {"root", 0, 300, {{-1, 0, {0, 0, 0}, {ONE, ONE, ONE}}}, 1, 0},
    {"stack",
     1,
     4096,
     {{-1, 100, {0, 0, 0}, {2048, 1024, 512}}, {0, 100, {0, 1024, 0}, {1024, 2048, 1024}}},
     2,
     0},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* Case c on img's game *g (opened on first use, then loaded file after file as a
 * worker's is; the caller closes it). */
static void run_case(emu_image *img, emu_game **gp, const vcase *c, emu_matrix out[2])
{
    static const int root[3] = {10, -21, 30};
    te_file f;
    te_make_skeleton(&f, c->flags, c->model_scale, root, c->bones, c->n);
    if (*gp)
        te_load(*gp, &f);
    else
        *gp = te_game(img, 0, &f);
    emu_game *g = *gp;
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    if (c->world) {
        TE_CALL(emu_game_world_matrices(g, &vbase, out, 2, &ret, &fault), &fault);
    } else {
        for (unsigned i = 0; i < c->n; i++)
            cr_assert_eq(emu_game_bone_matrix(g, i, &out[i]), 0);
    }
}

static int same(const emu_matrix *a, const emu_matrix *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (memcmp(a[i].m, b[i].m, sizeof a[i].m) || memcmp(a[i].t, b[i].t, sizeof a[i].t))
            return 0;
    return 1;
}

/*
 * What each mutant gives on its own case (bone 0, or both bones' world);
 * model scale 4096 (x1) but in the root case, root (10, -21, 30): root t =
 * root * 4096 >> 8 = (160, -336, 480):
 *   order (zyx): Rz Ry Rx of (1024, 1024, 1024): Rx; Ry Rx = [[0,1,0],
 *     [0,0,-1],[-1,0,0]]; Rz of that: rows (-r1, r0, r2) = [[0,0,1],[0,1,0],
 *     [-1,0,0]] (standin.exe's yxz: [[1,0,0],[0,0,-1],[0,1,0]]).
 *   floor: Ry(512) Rx(512): row 0 col 1 = 2896 * 2896 / 4096 = 2047.56,
 *     floored 2047 (nearest 2048), likewise cells (0,2), (2,1), (2,2).
 *   saturate: v = 32767 << 2 = 131068, cell 4096 * 131068 >> 12 = 131068:
 *     wrapped -4, saturated 32767.
 *   base: the world matrices of bones 0 (Ry(1024)) and 1 (Ry(1024) Rx(1024)
 *     = [[0,1,0],[0,0,-1],[-1,0,0]], t1 = t0 + (0, -50, 0)) under the base
 *     B (rows -r1, r0, 2 r2) without its translation: t = (-t.y, t.x, 2 t.z)
 *     = (336, 160, 960) and (386, 160, 960).
 *   root (model scale 300, rot 0): standin.exe m = I * 300 >> 12 =
 *     diag(300, 300, 300), t = root * 300 >> 8 = (11, -25, 35); root=none:
 *     the identity.
 *   stack: bone 0 M0 = I, v0 = (8192, 4096, 2048), m0 = diag(8192, 4096,
 *     2048); bone 1 v1 = (8192, 8192, 2048), M1 = Copy5(M0, Ry(1024)) =
 *     Ry(1024), m1 = its columns times (2, 2, 0.5) = [[0,0,2048],[0,8192,0],
 *     [-8192,0,0]] (standin.exe); composing with m0 instead (scale=post):
 *     Copy5(m0, Ry(1024)) = [[0,0,8192],[0,4096,0],[-2048,0,0]], times
 *     (2, 2, 0.5) = [[0,0,4096],[0,8192,0],[-4096,0,0]]; scaling L first
 *     (scale=pre): L' = [[0,0,2048],[0,8192,0],[-8192,0,0]], Copy5(m0, L')
 *     gives the same. t1 = (m0 (0, -100, 0)) >> 12 = (0, -100, 0) + t0.
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
     {{160, -336, 480}}},
    {"standin_mut_pose_floor.exe",
     "floor",
     {{2896, 2047, 2047, 0, 2896, -2896, -2896, 2047, 2047}},
     {{160, -336, 480}}},
    {"standin_mut_pose_saturate.exe",
     "saturate",
     {{32767, 0, 0, 0, 4096, 0, 0, 0, 4096}},
     {{160, -336, 480}}},
    {"standin_mut_pose_base.exe",
     "base",
     {{0, -4096, 0, 0, 0, 4096, -8192, 0, 0}, {0, 0, 4096, 0, 4096, 0, -8192, 0, 0}},
     {{336, 160, 960}, {386, 160, 960}}},
    {"standin_root_none.exe", "root", {{4096, 0, 0, 0, 4096, 0, 0, 0, 4096}}, {{11, -25, 35}}},
    {"standin_x87_root_none.exe", "root", {{4096, 0, 0, 0, 4096, 0, 0, 0, 4096}}, {{11, -25, 35}}},
    {"standin_scale_pre.exe",
     "stack",
     {{8192, 0, 0, 0, 4096, 0, 0, 0, 2048}, {0, 0, 4096, 0, 8192, 0, -4096, 0, 0}},
     {{160, -336, 480}, {160, -436, 480}}},
    {"standin_x87_scale_pre.exe",
     "stack",
     {{8192, 0, 0, 0, 4096, 0, 0, 0, 2048}, {0, 0, 4096, 0, 8192, 0, -4096, 0, 0}},
     {{160, -336, 480}, {160, -436, 480}}},
    {"standin_scale_post.exe",
     "stack",
     {{8192, 0, 0, 0, 4096, 0, 0, 0, 2048}, {0, 0, 4096, 0, 8192, 0, -4096, 0, 0}},
     {{160, -336, 480}, {160, -436, 480}}},
    {"standin_x87_scale_post.exe",
     "stack",
     {{8192, 0, 0, 0, 4096, 0, 0, 0, 2048}, {0, 0, 4096, 0, 8192, 0, -4096, 0, 0}},
     {{160, -336, 480}, {160, -436, 480}}},
    {"standin_x87.exe", NULL, {{0}}, {{0}}},
    {"standin_width64.exe", NULL, {{0}}, {{0}}},
    {"standin_x87_width64.exe", NULL, {{0}}, {{0}}},
    {"standin_width_mixed.exe", NULL, {{0}}, {{0}}},
};

Test(variants, each_mutant_changes_its_own_case_only)
{
    emu_image *ref = te_standin_image("standin.exe");
    emu_matrix want[NCASES][2];
    emu_game *g = NULL;
    for (size_t c = 0; c < NCASES; c++)
        run_case(ref, &g, &cases[c], want[c]);
    emu_game_close(g);
    /* standin.exe itself on the aimed cases (the values the variants break). */
    static const int yxz[9] = {4096, 0, 0, 0, 0, -4096, 0, 4096, 0};
    static const int nearest[9] = {2896, 2048, 2048, 0, 2896, -2896, -2896, 2048, 2048};
    static const int wrapped[9] = {-4, 0, 0, 0, 4096, 0, 0, 0, 4096};
    static const int root_t[3] = {160, -336, 480}; /* model scale 4096: x16 */
    static const int model[9] = {300, 0, 0, 0, 300, 0, 0, 0, 300}, model_t[3] = {11, -25, 35};
    static const int stack1[9] = {0, 0, 2048, 0, 8192, 0, -8192, 0, 0}, stack_t[3] = {160, -436, 480};
    te_expect_matrix(&want[0][0], yxz, root_t, "standin.exe order case", 0);
    te_expect_matrix(&want[1][0], nearest, root_t, "standin.exe floor case", 0);
    te_expect_matrix(&want[2][0], wrapped, root_t, "standin.exe saturate case", 0);
    te_expect_matrix(&want[4][0], model, model_t, "standin.exe root case", 0);
    te_expect_matrix(&want[5][1], stack1, stack_t, "standin.exe stack case", 1);
    emu_image_free(ref);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        emu_image *img = te_standin_image(variants[v].exe);
        g = NULL;
        for (size_t c = 0; c < NCASES; c++) {
            emu_matrix got[2];
            run_case(img, &g, &cases[c], got);
            int own = variants[v].own && strcmp(variants[v].own, cases[c].name) == 0;
            cr_expect_eq(same(got, want[c], cases[c].n), !own, "%s on case %s: %s", variants[v].exe,
                         cases[c].name, own ? "no change" : "changed");
            if (!own) continue;
            for (unsigned i = 0; i < cases[c].n; i++)
                te_expect_matrix(&got[i], variants[v].m[i], variants[v].t[i], variants[v].exe,
                                 (int)i);
        }
        emu_game_close(g);
        emu_image_free(img);
    }
}

/* ---- the width of the sums ------------------------------------------------ */

/*
 * A scale-path case whose running vector's product passes 2^31 (the
 * saturating mutant changes it too, so it is a test of its own); model
 * scale 4096, root t = (160, -336, 480). Bone 0's v0 = 32767 << 2 = 131068
 * scales column 0 of M0 = I to 131068, s16 -4 (no sum: the same in both
 * widths). Bone 1, rot z 512 (Rz512: c = s = 2896): M1 = Copy5(M0, Rz512)
 * = Rz512 = [[2896,-2896,0],[2896,2896,0],[0,0,4096]], then column 0 times
 * v1.x >> 12, v1.x = 32767 * 131068 >> 10: wrapped in 32 bits -256, giving
 * 2896 * -256 >> 12 = -181; exact in 64 bits 4194048, giving 2965323, s16
 * 16203. t1 = t0 + (0, 4096 * -9 >> 12, 0). standin_width_mixed.exe keeps
 * the vectors in 32 bits.
 */
Test(variants, width_case_tells_32_from_64_bits)
{
    static const vcase wide = {"width",
                               1,
                               4096,
                               {{-1, 0, {0, 0, 0}, {32767, ONE, ONE}},
                                {0, 9, {0, 0, 512}, {32767, ONE, ONE}}},
                               2,
                               0};
    static const int m0[9] = {-4, 0, 0, 0, 4096, 0, 0, 0, 4096}, t0[3] = {160, -336, 480};
    static const int m32[9] = {-181, -2896, 0, -181, 2896, 0, 0, 0, 4096};
    static const int m64[9] = {16203, -2896, 0, 16203, 2896, 0, 0, 0, 4096},
                     t1[3] = {160, -345, 480};
    static const struct {
        const char *exe;
        int wide;
    } exes[] = {{"standin.exe", 0},         {"standin_x87.exe", 0},
                {"standin_width_mixed.exe", 0}, {"standin_width64.exe", 1},
                {"standin_x87_width64.exe", 1}};
    for (size_t e = 0; e < sizeof exes / sizeof exes[0]; e++) {
        emu_image *img = te_standin_image(exes[e].exe);
        emu_matrix got[2];
        emu_game *g = NULL;
        run_case(img, &g, &wide, got);
        emu_game_close(g);
        te_expect_matrix(&got[0], m0, t0, exes[e].exe, 0);
        te_expect_matrix(&got[1], exes[e].wide ? m64 : m32, t1, exes[e].exe, 1);
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

static void pose_of(emu_game *g, const te_file *f, const emu_matrix *base, emu_matrix *bones,
                    emu_matrix *world)
{
    te_load(g, f);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    for (unsigned i = 0; i < RBONES; i++)
        cr_assert_eq(emu_game_bone_matrix(g, i, &bones[i]), 0);
    TE_CALL(emu_game_world_matrices(g, base, world, RBONES, &ret, &fault), &fault);
}

#define RSKELETONS 40

/* The random skeletons and bases of composed_like_lean, and what one build gave. */
typedef struct rcase {
    te_file f;
    emu_matrix base;
    emu_matrix bones[RBONES], world[RBONES];
} rcase;

static rcase *random_cases(void)
{
    rcase *c = calloc(RSKELETONS, sizeof *c);
    cr_assert(c, "out of memory");
    rng r = rng_make(87, 0xB0E5);
    for (int n = 0; n < RSKELETONS; n++) {
        random_skeleton(&r, &c[n].f);
        emu_matrix *base = &c[n].base;
        int extreme = n % 4 == 3;
        for (int k = 0; k < 9; k++)
            base->m[k / 3][k % 3] = (int16_t)(extreme ? (rng_chance(&r, 50) ? -32768 : 32767)
                                                      : rng_range(&r, -8192, 8192));
        for (int k = 0; k < 3; k++)
            base->t[k] =
                extreme ? (int32_t)(uint32_t)rng_next(&r) : rng_range(&r, -100000, 100000);
    }
    return c;
}

/* Every case posed by one build, one game for all (closed before the next build's
 * opens: the native engine is one per process). */
static void pose_all(const char *build, rcase *c)
{
    emu_image *img = te_standin_image(build);
    emu_game *g = te_game(img, 0, &c[0].f);
    for (int n = 0; n < RSKELETONS; n++)
        pose_of(g, &c[n].f, &c[n].base, c[n].bones, c[n].world);
    emu_game_close(g);
    emu_image_free(img);
}

static void composed_like_lean(const char *lean, const char *composed)
{
    rcase *a = random_cases(), *b = random_cases();
    pose_all(lean, a);
    pose_all(composed, b);
    for (int n = 0; n < RSKELETONS; n++)
        for (int i = 0; i < RBONES; i++) {
            cr_assert(same(&a[n].bones[i], &b[n].bones[i], 1), "%s, skeleton %d bone %d: differs",
                      composed, n, i);
            cr_assert(same(&a[n].world[i], &b[n].world[i], 1),
                      "%s, skeleton %d bone %d: world differs", composed, n, i);
        }
    free(a);
    free(b);
}

Test(variants, x87_poses_random_skeletons_like_the_default)
{
    composed_like_lean("standin.exe", "standin_x87.exe");
}

Test(variants, x87_width64_poses_random_skeletons_like_width64)
{
    composed_like_lean("standin_width64.exe", "standin_x87_width64.exe");
}

Test(variants, x87_older_readings_pose_random_skeletons_like_their_lean_builds)
{
    composed_like_lean("standin_root_none.exe", "standin_x87_root_none.exe");
    composed_like_lean("standin_scale_pre.exe", "standin_x87_scale_pre.exe");
    composed_like_lean("standin_scale_post.exe", "standin_x87_scale_post.exe");
}
