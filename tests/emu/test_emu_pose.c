/*
 * tests/emu/test_emu_pose.c: the stand-in's BuildBoneMatrices and
 * ComputeBonesWorldMatrices called through the game layer (emu/engine/game.h) on
 * small hand-made skeletons, every cell and translation checked against
 * values worked out by hand from docs/pose.md at the stand-in's option set
 *   order=yxz,trig=x87-nearest,step=nearest-even,root=model,offset=-y,
 *   length=own,scale=stack,width=32
 * (emu/standin/README.md); the pad word is never compared. BuildBoneMatrices
 * returns Field_Free(0x58)'s value, 0x58. Also the game
 * layer's contracts: the original runs even when the frame level replaces
 * it by a return, a world call leaves the skeleton as it found it, errors.
 *
 * Trig values used (round-to-nearest-even of 4096 sin/cos of a * 2 pi / 4096):
 *   sin/cos 0 = 0/4096, 1024 = 4096/0, 2048 = 0/-4096, 300 = 1819/3670,
 *   700 = 3600/1953, 100 = 626/4048, -200 = -1237/3905, 50 = 314/4084.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "tests/emu/te.h"

#define ONE 1024 /* a bone scale of 1.0 */

/*
 * S1: model scale 300, root (10, -21, 30): root t = (10*300 >> 8, -21*300
 * >> 8, 30*300 >> 8) = (3000 >> 8, -6300 >> 8, 9000 >> 8) = (11, -25, 35)
 * (arithmetic shift: -24.6 floors to -25). root=model: the root's cells
 * times 300 >> 12 (4096 -> 300, -4096 -> -300), which reaches every bone.
 *   bone 0 root, rot (0, 1024, 0): L = Ry(1024) Rx(0) Rz(0) = Ry(1024) =
 *     [[0,0,1],[0,1,0],[-1,0,0]] (x4096); m = [[0,0,300],[0,300,0],[-300,0,0]].
 *   bone 1 child of 0, size 50, rot (1024, 0, 0): L = Rx(1024) =
 *     [[1,0,0],[0,0,-1],[0,1,0]]; m = W0 L: rows W0 row i times L, i.e.
 *     300/4096 (L row 2, L row 1, -L row 0) = [[0,300,0],[0,0,-300],[-300,0,0]];
 *     t = t0 + (W0 (0, -50, 0)) >> 12 = t0 + (0, -15000 >> 12, 0) = t0 +
 *     (0, -4, 0) = (11, -29, 35).
 *   bone 2 child of 1, size 30, rot (0, 0, 2048): L = Rz(2048) =
 *     diag(-1, -1, 1); m = W1 with columns 0 and 1 negated =
 *     [[0,-300,0],[0,0,-300],[300,0,0]]; t = t1 + (W1 col 1 * -30) >> 12 =
 *     t1 + (-9000 >> 12, 0, 0) = t1 + (-3, 0, 0).
 */
static const te_bone s1_bones[3] = {
    {-1, 100, {0, 1024, 0}, {ONE, ONE, ONE}},
    {0, 50, {1024, 0, 0}, {ONE, ONE, ONE}},
    {1, 30, {0, 0, 2048}, {ONE, ONE, ONE}},
};
static const int s1_root[3] = {10, -21, 30};
static const int s1_m[3][9] = {
    {0, 0, 300, 0, 300, 0, -300, 0, 0},
    {0, 300, 0, 0, 0, -300, -300, 0, 0},
    {0, -300, 0, 0, 0, -300, 300, 0, 0},
};
static const int s1_t[3][3] = {{11, -25, 35}, {11, -29, 35}, {8, -29, 35}};

/*
 * The world base: B = [[0,-1,0],[1,0,0],[0,0,2]] (x4096: a quarter turn
 * about z, z doubled), t = (1000, 2000, -3000). Compose(B, W): m = B W
 * (rows: -W row 1, W row 0, 2 W row 2), t = (B t_W) >> 12 + B.t =
 * (-t.y, t.x, 2 t.z) + (1000, 2000, -3000).
 */
static const emu_matrix base = {
    {{0, -4096, 0}, {4096, 0, 0}, {0, 0, 8192}}, 0, {1000, 2000, -3000}};
static const int s1_world_m[3][9] = {
    {0, -300, 0, 0, 0, 300, -600, 0, 0},
    {0, 0, 300, 0, 300, 0, -600, 0, 0},
    {0, 0, 300, 0, -300, 0, 600, 0, 0},
};
static const int s1_world_t[3][3] = {{1025, 2011, -2930}, {1029, 2011, -2930}, {1029, 2008, -2930}};

/*
 * G: one general angle per axis, no scale path, model scale 4096 (1.0: the
 * root's cells unchanged), root 0.
 *   bone 0 root, rot (300, 0, 0): m = Rx(300) = [[4096,0,0],[0,3670,-1819],[0,1819,3670]].
 *   bone 1 child of 0, size 77, rot (0, 0, 700): L = Rz(700) =
 *     [[1953,-3600,0],[3600,1953,0],[0,0,4096]]; m = Copy5(W0, L):
 *     row 1: 3670*3600/4096 = 3225.59 -> 3226, 3670*1953/4096 = 1749.88 -> 1750, -1819;
 *     row 2: 1819*3600/4096 = 1598.73 -> 1599, 1819*1953/4096 = 867.31 -> 867, 3670;
 *     t = (W0 (0, -77, 0)) >> 12 = (0, -282590 >> 12, -140063 >> 12) = (0, -69, -35).
 *   bone 2 child of 1, size 45, rot (100, -200, 50): L = Ry(-200) Rx(100) Rz(50),
 *     three Copy5 steps; m = Copy5(W1, L); t = t1 + (W1 (0, -45, 0)) >> 12 =
 *     t1 + (162000, -78750, -39015) >> 12 = t1 + (39, -20, -10).
 *     (The cells of bone 2 were worked out step by step with a calculator.)
 */
static const te_bone g_bones[3] = {
    {-1, 0, {300, 0, 0}, {1100, 900, ONE}},
    {0, 77, {0, 0, 700}, {ONE, 1300, 800}},
    {1, 45, {100, -200, 50}, {700, ONE, 1500}},
};
static const int g_m[3][9] = {
    {4096, 0, 0, 0, 3670, -1819, 0, 1819, 3670},
    {1953, -3600, 0, 3226, 1750, -1819, 1599, 867, 3670},
    {1577, -3780, -33, 2620, 1118, -2944, 2726, 1112, 2848},
};
static const int g_t[3][3] = {{0, 0, 0}, {0, -69, -35}, {39, -89, -45}};

/*
 * GS: G's bones on the scale path (flag bit 0), scales (1100, 900, 1024),
 * (1024, 1300, 800), (700, 1024, 1500), model scale 4096, root (10, -21,
 * 30): t0 = root * 4096 >> 8 = (160, -336, 480). scale=stack: M without
 * bone scale, each bone's cells M's columns times its running vector.
 *   M0 = Rx(300) (times 4096 >> 12: unchanged); v0 = scale << 2 = (4400,
 *     3600, 4096); m0 = M0 columns times v0 >> 12: col 0 4400, col 1:
 *     3670*3600 >> 12 = 3225, 1819*3600 >> 12 = 1598; col 2 unchanged.
 *   M1 = Copy5(M0, Rz(700)) = G's bone 1; v1 = (scale * v0) >> 10 = (4400,
 *     4570, 3200); m1 = M1's columns times v1 >> 12, e.g. -3600*4570 >> 12 =
 *     -4016.6 -> -4017, -1819*3200 >> 12 -> -1422; t1 = t0 + (m0 (0, -77,
 *     0)) >> 12 = t0 + (0, -248325 >> 12, -123046 >> 12) = t0 + (0, -61, -31).
 *   M2 = Copy5(M1, L2) = G's bone 2; v2 = (3007, 4570, 4687); m2 = its
 *     columns times v2 >> 12, e.g. 1577*3007 >> 12 = 1157, -33*4687 >> 12 =
 *     -38; t2 = t1 + (m1 (0, -45, 0)) >> 12 = t1 + (180765 >> 12, -87840 >>
 *     12, -43515 >> 12) = t1 + (44, -22, -11).
 */
static const int gs_m[3][9] = {
    {4400, 0, 0, 0, 3225, -1819, 0, 1598, 3670},
    {2097, -4017, 0, 3465, 1952, -1422, 1717, 967, 2867},
    {1157, -4218, -38, 1923, 1247, -3369, 2001, 1240, 3258},
};
static const int gs_t[3][3] = {{160, -336, 480}, {160, -397, 449}, {204, -419, 438}};
static const int gs_root[3] = {10, -21, 30};

/*
 * SC: model scale 512 (x1/8), root 0; root scale (2048, 1024, 512) -> v0 =
 * (8192, 4096, 2048) (x2, x1, x0.5); child of 0, size 100, rot (0, 1024,
 * 0), scale (1024, 2048, 1024) -> v1 = (1024*8192 >> 10, 2048*4096 >> 10,
 * 1024*2048 >> 10) = (8192, 8192, 2048).
 *   on:  M0 = I * 512 >> 12 = diag(512, 512, 512); m0 = M0's columns times
 *        v0 = diag(1024, 512, 256); M1 = Copy5(M0, Ry(1024)) = [[0,0,512],
 *        [0,512,0],[-512,0,0]], m1 = its columns times (2, 2, 0.5) =
 *        [[0,0,256],[0,1024,0],[-1024,0,0]]; t1 = (m0 (0,-100,0)) >> 12 =
 *        (0, -51200 >> 12, 0) = (0, -13, 0).
 *        (Composing with m0 instead of M0 (scale=post) would give
 *        [[0,0,512],[0,1024,0],[-512,0,0]].)
 *   off: m0 = diag(512, 512, 512), m1 = Copy5(m0, Ry(1024)) = M1 above,
 *        t1 = (0, -13, 0).
 */
static const te_bone sc_bones[2] = {
    {-1, 100, {0, 0, 0}, {2048, 1024, 512}},
    {0, 100, {0, 1024, 0}, {1024, 2048, 1024}},
};
static const int sc_on_m[2][9] = {{1024, 0, 0, 0, 512, 0, 0, 0, 256},
                                  {0, 0, 256, 0, 1024, 0, -1024, 0, 0}};
static const int sc_off_m[2][9] = {{512, 0, 0, 0, 512, 0, 0, 0, 512},
                                   {0, 0, 512, 0, 512, 0, -512, 0, 0}};
static const int sc_t[2][3] = {{0, 0, 0}, {0, -13, 0}};

static const int zero3[3] = {0, 0, 0};

/* Builds the matrices on a fresh engine and checks every bone. */
static void build_and_check(const char *exe, int keep, int flags, int scale, const int root[3],
                            const te_bone *bones, unsigned n, const int m[][9], const int t[][3],
                            const char *what)
{
    emu_image *img = te_standin_image(exe);
    te_file f;
    te_make_skeleton(&f, flags, scale, root, bones, n);
    emu_game *g = te_game(img, keep, &f);
    uint32_t ret = 99;
    emu_fault fault;
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    cr_expect_eq(ret, 0x58u, "%s: BuildBoneMatrices returned %u, not Field_Free's 0x58", what,
                 ret);
    for (unsigned i = 0; i < n; i++) {
        emu_matrix got;
        cr_assert_eq(emu_game_bone_matrix(g, i, &got), 0);
        te_expect_matrix(&got, m[i], t[i], what, (int)i);
    }
    emu_game_close(g);
    emu_image_free(img);
}

Test(pose, build_s1_axis_angles_and_model_scale)
{
    build_and_check("standin.exe", 0, 0, 300, s1_root, s1_bones, 3, s1_m, s1_t, "S1");
    build_and_check("standin.exe", 1, 0, 300, s1_root, s1_bones, 3, s1_m, s1_t, "S1 kept");
}

Test(pose, build_general_angles)
{
    build_and_check("standin.exe", 0, 0, 4096, zero3, g_bones, 3, g_m, g_t, "G");
}

Test(pose, build_general_angles_scale_path)
{
    build_and_check("standin.exe", 0, 1, 4096, gs_root, g_bones, 3, gs_m, gs_t, "GS");
}

Test(pose, build_scale_path_on_and_off)
{
    build_and_check("standin.exe", 0, 1, 512, zero3, sc_bones, 2, sc_on_m, sc_t, "SC on");
    build_and_check("standin.exe", 0, 0, 512, zero3, sc_bones, 2, sc_off_m, sc_t, "SC off");
}

/* The x87 variant computes the same on every hand-worked skeleton. */
Test(pose, x87_variant_builds_the_same)
{
    build_and_check("standin_x87.exe", 0, 0, 300, s1_root, s1_bones, 3, s1_m, s1_t, "x87 S1");
    build_and_check("standin_x87.exe", 0, 0, 4096, zero3, g_bones, 3, g_m, g_t, "x87 G");
    build_and_check("standin_x87.exe", 0, 1, 4096, gs_root, g_bones, 3, gs_m, gs_t, "x87 GS");
    build_and_check("standin_x87.exe", 0, 1, 512, zero3, sc_bones, 2, sc_on_m, sc_t, "x87 SC on");
}

/*
 * A bone whose parent is not an earlier bone (itself, a later bone, or
 * past the count) hangs from the root like a parent -1: rot 0 gives the
 * identity, times the model scale (512: cells 512), and the root
 * translation (model scale 512: root * 2).
 */
Test(pose, parents_that_are_not_earlier_bones_are_roots)
{
    static const te_bone bones[3] = {
        {1, 10, {0, 0, 0}, {ONE, ONE, ONE}},
        {1, 10, {0, 0, 0}, {ONE, ONE, ONE}},
        {77, 10, {0, 0, 0}, {ONE, ONE, ONE}},
    };
    static const int root[3] = {5, -6, 7};
    static const int m[3][9] = {{512, 0, 0, 0, 512, 0, 0, 0, 512},
                                {512, 0, 0, 0, 512, 0, 0, 0, 512},
                                {512, 0, 0, 0, 512, 0, 0, 0, 512}};
    static const int t[3][3] = {{10, -12, 14}, {10, -12, 14}, {10, -12, 14}};
    build_and_check("standin.exe", 0, 0, 512, root, bones, 3, m, t, "wild parents");
}

static void world_and_check(const char *exe, const int m[][9], const int t[][3], const char *what)
{
    emu_image *img = te_standin_image(exe);
    te_file f;
    te_make_skeleton(&f, 0, 300, s1_root, s1_bones, 3);
    emu_game *g = te_game(img, 0, &f);
    uint32_t ret = 99;
    emu_fault fault;
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    size_t n = emu_game_skeleton_size(g);
    cr_assert_eq(n, 16u + 3 * 48);
    uint8_t *before = malloc(n);
    memcpy(before, emu_game_skeleton(g), n);
    emu_matrix world[3];
    TE_CALL(emu_game_world_matrices(g, &base, world, 3, &ret, &fault), &fault);
    cr_expect_eq(ret, 0u);
    for (int i = 0; i < 3; i++)
        te_expect_matrix(&world[i], m[i], t[i], what, i);
    cr_expect_arr_eq(emu_game_skeleton(g), before, n, "%s: the skeleton is put back", what);
    /* The same base again gives the same: it starts from the bone matrices. */
    emu_matrix again[3];
    TE_CALL(emu_game_world_matrices(g, &base, again, 3, &ret, &fault), &fault);
    for (int i = 0; i < 3; i++)
        te_expect_matrix(&again[i], m[i], t[i], what, i);
    free(before);
    emu_game_close(g);
    emu_image_free(img);
}

Test(pose, world_s1_under_a_rotated_scaled_translated_base)
{
    world_and_check("standin.exe", s1_world_m, s1_world_t, "world");
    world_and_check("standin_x87.exe", s1_world_m, s1_world_t, "x87 world");
}

/* Under the identity base every bone keeps its matrix. */
Test(pose, world_identity_base_keeps_the_bones)
{
    emu_image *img = te_standin_image("standin.exe");
    te_file f;
    te_make_skeleton(&f, 1, 4096, gs_root, g_bones, 3);
    emu_game *g = te_game(img, 1, &f);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    const emu_matrix id = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, 0, {0, 0, 0}};
    emu_matrix world[3];
    TE_CALL(emu_game_world_matrices(g, &id, world, 3, &ret, &fault), &fault);
    for (int i = 0; i < 3; i++)
        te_expect_matrix(&world[i], gs_m[i], gs_t[i], "identity", i);
    emu_game_close(g);
    emu_image_free(img);
}

/*
 * The frame level replaces BuildBoneMatrices by a return: a decoding call
 * leaves the matrices alone, yet emu_game_build_matrices runs the original
 * (and the return is back for the next decoding call).
 */
Test(pose, build_runs_the_original_under_the_frame_stub)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game_opts o = {0, 0, ts_engine()};
    emu_game *g;
    ff_error err;
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    te_file f;
    te_make_file(&f, 1, NULL);
    /* Model scale 4096 (the file's 0 would zero every cell: root=model). */
    le_put16(f.data + TE_SKEL_OFF + 2, 4096);
    TS_OK(emu_game_load_file(g, f.data, f.size, TE_SKEL_OFF, TE_GEOM_OFF, TE_ANIM_OFF, &err), &err);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
    emu_matrix m0;
    cr_assert_eq(emu_game_bone_matrix(g, 0, &m0), 0);
    cr_expect_eq(m0.m[0][0], 0, "the frame call did not build");
    /* After frame 0: root (4, -3, 0), bone 0 rot (10, 0, -7) (te.h), model
     * scale 4096: t0 = root * 4096 >> 8 = (64, -48, 0). */
    TE_CALL(emu_game_build_matrices(g, &ret, &fault), &fault);
    cr_assert_eq(emu_game_bone_matrix(g, 0, &m0), 0);
    cr_expect_neq(m0.m[0][0], 0, "the original built");
    cr_expect_eq(m0.t[0], 64);
    cr_expect_eq(m0.t[1], -48);
    TE_CALL(emu_game_read_animation(g, &ret, &fault), &fault);
    emu_matrix m1;
    cr_assert_eq(emu_game_bone_matrix(g, 0, &m1), 0);
    cr_expect_arr_eq(&m1, &m0, sizeof m0, "the decoding call did not rebuild again");
    cr_expect_eq(emu_game_bone_matrix(g, 2, &m1), -1, "bone 2 of 2");
    emu_game_close(g);
    emu_image_free(img);
}

Test(pose, errors_without_file_or_room)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g;
    ff_error err;
    emu_game_opts o = {0, 0, ts_engine()};
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    uint32_t ret;
    emu_fault fault;
    emu_matrix world[3], m;
    cr_expect_eq(emu_game_build_matrices(g, &ret, &fault), -1);
    cr_expect_eq(fault.kind, EMU_FAULT_EMU);
    cr_expect_eq(emu_game_world_matrices(g, &base, world, 3, &ret, &fault), -1);
    cr_expect_eq(emu_game_bone_matrix(g, 0, &m), -1);
    cr_expect_eq(emu_game_skeleton_size(g), 0u);
    emu_game_close(g);
    te_file f;
    te_make_skeleton(&f, 0, 300, s1_root, s1_bones, 3);
    g = te_game(img, 0, &f);
    cr_expect_eq(emu_game_world_matrices(g, &base, world, 2, &ret, &fault), -1);
    cr_expect(strstr(fault.detail, "no room") != NULL, "%s", fault.detail);
    emu_game_close(g);
    emu_image_free(img);
}

/* A call that faults (here: out of its instruction budget half-way) leaves
 * the skeleton as it was before the call, bone matrices included. */
Test(pose, a_fault_puts_the_skeleton_back)
{
    emu_image *img = te_standin_image("standin.exe");
    te_file f;
    te_make_skeleton(&f, 0, 300, s1_root, s1_bones, 3);
    /* A budget of 1500 instructions stops the call half-way: Unicorn only (EMU_CAP_BUDGET;
     * a native budget is CPU time, 20 ms at least). */
    emu_game_opts o = {0, 1500, ts_unicorn()};
    emu_game *g;
    ff_error err;
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    uint32_t geom = (uint32_t)f.size - 20;
    TS_OK(emu_game_load_file(g, f.data, f.size, TE_SKEL_OFF, geom, geom + 16, &err), &err);
    uint32_t ret;
    emu_fault fault;
    cr_assert_eq(emu_game_build_matrices(g, &ret, &fault), -1, "3 bones in 1500 instructions");
    cr_expect_eq(fault.kind, EMU_FAULT_BUDGET, "%s", fault.detail);
    cr_expect_arr_eq(emu_game_skeleton(g), f.data, emu_game_skeleton_size(g));
    emu_game_close(g);
    emu_image_free(img);
}

/* A MATRIX's 32 bytes: nine s16 cells row by row, the pad word, three s32; and back. */
Test(pose, matrix_bytes_decode_to_their_fields_and_encode_back)
{
    uint8_t b[EMU_MATRIX_BYTES], back[EMU_MATRIX_BYTES];
    for (int i = 0; i < EMU_MATRIX_BYTES; i++) b[i] = (uint8_t)(0x81 + 37 * i);
    emu_matrix m;
    emu_matrix_decode(b, &m);
    for (int k = 0; k < 9; k++)
        cr_assert_eq(m.m[k / 3][k % 3], le_s16(b + 2 * k), "cell %d", k);
    cr_assert_eq(m.pad, le_u16(b + 18));
    for (int k = 0; k < 3; k++)
        cr_assert_eq(m.t[k], le_s32(b + 20 + 4 * k), "t[%d]", k);
    memset(back, 0, sizeof back);
    emu_matrix_encode(&m, back);
    cr_assert(memcmp(back, b, sizeof b) == 0, "encode gives the bytes back");
}
