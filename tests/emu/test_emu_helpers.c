/*
 * tests/emu/test_emu_helpers.c: each matrix helper of the stand-in called
 * alone at its address through emu_game_pose_helper, driven by the
 * profile's helper rows (so a wrong signature in the profile fails here),
 * with inputs and results worked out by hand from docs/pose.md; sin and cos
 * over every s16 angle against the formula evaluated on the host; the x87
 * variant against the default on many inputs; and a result returned on
 * the x87 stack.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "emu/profiles/profile_builtin.h"
#include "tests/emu/te.h"

static const double k_turn = 0x1.921fb54442d18p-10; /* the double nearest 2 pi / 4096 */

static emu_game *open_on(emu_image *img, const emu_ops *engine)
{
    emu_game *g;
    ff_error err;
    emu_game_opts o = {0, 0, engine};
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    return g;
}

/* The suite's game, on the engine under test. */
static emu_game *open_bare(emu_image *img)
{
    return open_on(img, ts_engine());
}

/*
 * A second game while the suite's is open: on Unicorn, since a process holds
 * one native engine at most (its guest memory lies at fixed addresses).
 */
static emu_game *open_second(emu_image *img)
{
    return open_on(img, ts_unicorn());
}

static void cells(emu_matrix *m, const int c[9])
{
    for (int k = 0; k < 9; k++)
        m->m[k / 3][k % 3] = (int16_t)c[k];
}

static void call(emu_game *g, profile_helper_id role, emu_pose_io *io)
{
    emu_fault f;
    TE_CALL(emu_game_pose_helper(g, role, io, &f), &f);
}

static const int ident[9] = {4096, 0, 0, 0, 4096, 0, 0, 0, 4096};

/* One game on standin.exe for the by-hand tests. */
static emu_image *img;
static emu_game *game;

static void setup(void)
{
    img = te_standin_image("standin.exe");
    game = open_bare(img);
}

static void teardown(void)
{
    emu_game_close(game);
    emu_image_free(img);
}

TestSuite(helpers, .init = setup, .fini = teardown);

/* sin/cos: 512 = 45 degrees: 4096 / sqrt 2 = 2896.31; 300: 4096 sin(26.37
 * degrees) = 1819.47, cos 3670.36; -200: sin -1236.8, cos 3904.7. */
Test(helpers, sin_cos_by_hand)
{
    static const struct {
        int angle, sin, cos;
    } v[] = {{0, 0, 4096},      {1024, 4096, 0},   {2048, 0, -4096},    {-1024, -4096, 0},
             {512, 2896, 2896}, {300, 1819, 3670}, {-200, -1237, 3905}, {4096 + 300, 1819, 3670}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        emu_pose_io io = {.angle = v[i].angle};
        call(game, PROFILE_H_SIN, &io);
        cr_expect_eq(io.value, v[i].sin, "sin %d: %d", v[i].angle, io.value);
        cr_expect_eq(io.has_st0, 0, "sin returns in EAX: the x87 stack stays empty");
        call(game, PROFILE_H_COS, &io);
        cr_expect_eq(io.value, v[i].cos, "cos %d: %d", v[i].angle, io.value);
    }
}

/* Every s16 angle, both variants: round-to-nearest-even(4096 sin(a K)). */
Test(helpers, sin_cos_every_angle_match_the_formula)
{
    static const char *const exes[] = {"standin.exe", "standin_x87.exe"};
    for (int e = 0; e < 2; e++) {
        emu_image *im = te_standin_image(exes[e]);
        emu_game *g = open_second(im);
        for (int a = -32768; a < 32768; a++) {
            emu_pose_io io = {.angle = a};
            call(g, PROFILE_H_SIN, &io);
            int s = io.value;
            call(g, PROFILE_H_COS, &io);
            double ws = nearbyint(4096.0 * sin(a * k_turn)),
                   wc = nearbyint(4096.0 * cos(a * k_turn));
            if (s != (int)ws || io.value != (int)wc)
                cr_assert_fail("%s: angle %d: sin %d cos %d, expected %d %d", exes[e], a, s,
                               io.value, (int)ws, (int)wc);
        }
        emu_game_close(g);
        emu_image_free(im);
    }
}

/*
 * Copy5: out[0][0] = a[0][0] * b[0][0] / 4096 rounded to nearest, ties to
 * even (other cells 0 x anything): 2048 -> 0.5 -> 0, 6144 -> 1.5 -> 2,
 * 10240 -> 2.5 -> 2, -2048 -> 0, -6144 -> -2, 2049 -> 1, 2047 -> 0.
 * Wrap: rows and columns of 32767: 3 * 32767^2 = 3221028867, /4096 =
 * 786384.0007 -> 786384, low 16 bits: 786384 - 12 * 65536 = -48 (the 32-bit
 * wrap of the sum changes the quotient by 2^20, not its low word).
 */
Test(helpers, copy5_rounds_to_nearest_even_and_wraps)
{
    static const struct {
        int a, b, want;
    } v[] = {{1, 2048, 0},   {3, 2048, 2}, {5, 2048, 2}, {-1, 2048, 0},
             {-3, 2048, -2}, {1, 2049, 1}, {1, 2047, 0}, {4096, -4096, -4096}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        emu_pose_io io;
        memset(&io, 0, sizeof io);
        io.a.m[0][0] = (int16_t)v[i].a;
        io.b.m[0][0] = (int16_t)v[i].b;
        io.out.t[0] = 7;
        io.out.t[2] = -9;
        call(game, PROFILE_H_COPY5, &io);
        cr_expect_eq(io.out.m[0][0], v[i].want, "case %zu: %d", i, io.out.m[0][0]);
        cr_expect_eq(io.out.t[0], 7, "out's translation is left alone");
        cr_expect_eq(io.out.t[2], -9);
        cr_expect_eq(io.a.m[0][0], v[i].a, "a is only read");
    }
    emu_pose_io io;
    memset(&io, 0, sizeof io);
    for (int k = 0; k < 9; k++) {
        io.a.m[k / 3][k % 3] = 32767;
        io.b.m[k / 3][k % 3] = 32767;
    }
    call(game, PROFILE_H_COPY5, &io);
    for (int k = 0; k < 9; k++)
        cr_expect_eq(io.out.m[k / 3][k % 3], -48, "cell %d: %d", k, io.out.m[k / 3][k % 3]);
}

/* mul_into: b = a b, with a = a quarter turn about z (rows -b1, b0, b2). */
Test(helpers, mul_into_by_hand)
{
    static const int rz[9] = {0, -4096, 0, 4096, 0, 0, 0, 0, 4096};
    static const int b[9] = {100, 200, 300, 400, 500, 600, 700, 800, 900};
    static const int want[9] = {-400, -500, -600, 100, 200, 300, 700, 800, 900};
    static const int t[3] = {1, 2, 3};
    emu_pose_io io;
    memset(&io, 0, sizeof io);
    cells(&io.a, rz);
    cells(&io.b, b);
    io.b.t[0] = 1, io.b.t[1] = 2, io.b.t[2] = 3;
    call(game, PROFILE_H_MUL_INTO, &io);
    te_expect_matrix(&io.b, want, t, "mul_into", 0);
}

/* rot_x/y/z: m = R(angle) m on M = (100 .. 900), or on the identity:
 * Rx(512) I = [[4096,0,0],[0,2896,-2896],[0,2896,2896]];
 * Ry(1024) M: rows (M2, M1, -M0); Rz(2048) M: rows (-M0, -M1, M2). */
Test(helpers, axis_rotations_by_hand)
{
    static const int m[9] = {100, 200, 300, 400, 500, 600, 700, 800, 900};
    static const struct {
        profile_helper_id role;
        int angle;
        const int *in;
        int want[9];
    } v[] = {
        {PROFILE_H_ROT_X, 512, ident, {4096, 0, 0, 0, 2896, -2896, 0, 2896, 2896}},
        {PROFILE_H_ROT_Y, 1024, m, {700, 800, 900, 400, 500, 600, -100, -200, -300}},
        {PROFILE_H_ROT_Z, 2048, m, {-100, -200, -300, -400, -500, -600, 700, 800, 900}},
        {PROFILE_H_ROT_X, 0, m, {100, 200, 300, 400, 500, 600, 700, 800, 900}},
    };
    static const int t[3] = {7, 8, -9};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        emu_pose_io io;
        memset(&io, 0, sizeof io);
        io.angle = v[i].angle;
        cells(&io.m, v[i].in);
        io.m.t[0] = 7, io.m.t[1] = 8, io.m.t[2] = -9;
        call(game, v[i].role, &io);
        te_expect_matrix(&io.m, v[i].want, t, profile_helper_name(v[i].role), (int)i);
    }
}

/*
 * rot_xyz (0x56CD50), sv (1024, 1024, 0): Rx(1024) Ry(1024) I =
 * [[0,0,1],[1,0,0],[0,1,0]]. rot_bone (0x56CE30, order yxz), sv (1024,
 * 1024, 1024): Ry Rx Rz with Rz = [[0,-1,0],[1,0,0],[0,0,1]]: Rx Rz =
 * [[0,-1,0],[0,0,-1],[1,0,0]], then Ry: [[1,0,0],[0,0,-1],[0,1,0]].
 * And sv (1024, 1024, 0): Ry Rx = [[0,1,0],[0,0,-1],[-1,0,0]].
 */
Test(helpers, rotation_builders_by_hand)
{
    static const struct {
        profile_helper_id role;
        int16_t sv[3];
        int want[9];
    } v[] = {
        {PROFILE_H_ROT_XYZ, {1024, 1024, 0}, {0, 0, 4096, 4096, 0, 0, 0, 4096, 0}},
        {PROFILE_H_ROT_BONE, {1024, 1024, 1024}, {4096, 0, 0, 0, 0, -4096, 0, 4096, 0}},
        {PROFILE_H_ROT_BONE, {1024, 1024, 0}, {0, 4096, 0, 0, 0, -4096, -4096, 0, 0}},
    };
    static const int t[3] = {5, 6, 7};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        emu_pose_io io;
        memset(&io, 0, sizeof io);
        memcpy(io.sv, v[i].sv, sizeof v[i].sv);
        for (int k = 0; k < 9; k++)
            io.m.m[k / 3][k % 3] = 1234; /* overwritten: the builders start from I */
        io.m.t[0] = 5, io.m.t[1] = 6, io.m.t[2] = 7;
        call(game, v[i].role, &io);
        te_expect_matrix(&io.m, v[i].want, t, profile_helper_name(v[i].role), (int)i);
    }
}

/* All cells 4096, v = (8192, 4096, 2048) (x2, x1, x0.5): rows for
 * scale_uniform (in place), columns for scale_columns (a into out, three
 * arguments; a and out's translation left alone). 4096 * 131068 >> 12 =
 * 131068, whose low 16 bits are -4: cells wrap. */
Test(helpers, scale_rows_and_columns_by_hand)
{
    static const int all[9] = {4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096};
    static const int rows[9] = {8192, 8192, 8192, 4096, 4096, 4096, 2048, 2048, 2048};
    static const int cols[9] = {8192, 4096, 2048, 8192, 4096, 2048, 8192, 4096, 2048};
    static const int wrap[9] = {-4, 4096, 4096, -4, 4096, 4096, -4, 4096, 4096};
    static const int t[3] = {1, -1, 2}, out_t[3] = {7, 8, 9};
    emu_pose_io io;
    memset(&io, 0, sizeof io);
    io.m.t[0] = 1, io.m.t[1] = -1, io.m.t[2] = 2;
    io.v[0] = 8192, io.v[1] = 4096, io.v[2] = 2048;
    cells(&io.m, all);
    call(game, PROFILE_H_SCALE_UNIFORM, &io);
    te_expect_matrix(&io.m, rows, t, "scale_uniform", 0);
    io.a.t[0] = 1, io.a.t[1] = -1, io.a.t[2] = 2;
    io.out.t[0] = 7, io.out.t[1] = 8, io.out.t[2] = 9;
    cells(&io.a, all);
    call(game, PROFILE_H_SCALE_COLUMNS, &io);
    te_expect_matrix(&io.out, cols, out_t, "scale_columns", 0);
    te_expect_matrix(&io.a, all, t, "scale_columns leaves a", 0);
    io.v[0] = 131068, io.v[1] = 4096, io.v[2] = 4096;
    call(game, PROFILE_H_SCALE_COLUMNS, &io);
    te_expect_matrix(&io.out, wrap, out_t, "scale_columns wrap", 0);
}

/*
 * apply: vout = (a sv) >> 12 with an arithmetic shift and 32-bit sums.
 * a = raw identity (cells 1): (-1 >> 12, 4095 >> 12, 8191 >> 12) = (-1, 0, 1).
 * a rows of 32767, sv 32767: 3 * 32767^2 = 3221028867 wraps to -1073938429
 * = -262192 * 4096 + 3, >> 12 = -262192 (without the wrap: 786384).
 */
Test(helpers, apply_by_hand)
{
    static const int raw_ident[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    emu_pose_io io;
    memset(&io, 0, sizeof io);
    cells(&io.a, raw_ident);
    io.sv[0] = -1, io.sv[1] = 4095, io.sv[2] = 8191;
    call(game, PROFILE_H_APPLY, &io);
    cr_expect_eq(io.vout[0], -1);
    cr_expect_eq(io.vout[1], 0);
    cr_expect_eq(io.vout[2], 1);
    for (int k = 0; k < 9; k++)
        io.a.m[k / 3][k % 3] = 32767;
    io.sv[0] = io.sv[1] = io.sv[2] = 32767;
    call(game, PROFILE_H_APPLY, &io);
    for (int k = 0; k < 3; k++)
        cr_expect_eq(io.vout[k], -262192, "vout[%d] %d", k, (int)io.vout[k]);
}

/*
 * compose and compose_to: the world base of test_emu_pose.c ([[0,-1,0],
 * [1,0,0],[0,0,2]], t (1000, 2000, -3000)) on S1's bone 0 ([[0,0,1],
 * [0,1,0],[-1,0,0]], t (11, -25, 35)): m = [[0,-1,0],[0,0,1],[-2,0,0]],
 * t = (25, 11, 70) + base t. Wrap: a = identity, t (1, 2, 3), b.t =
 * (2^20, 2^20 + 1, -2^20): 4096 * 2^20 = 2^32 wraps to 0, so out.t =
 * (0 + 1, (4096 >> 12) + 2, 0 + 3) = (1, 3, 3); out.m = b.m.
 */
Test(helpers, compose_by_hand)
{
    static const int base[9] = {0, -4096, 0, 4096, 0, 0, 0, 0, 8192};
    static const int bone[9] = {0, 0, 4096, 0, 4096, 0, -4096, 0, 0};
    static const int want[9] = {0, -4096, 0, 0, 0, 4096, -8192, 0, 0};
    static const int want_t[3] = {1025, 2011, -2930};
    static const int wrap_t[3] = {1, 3, 3};
    static const profile_helper_id roles[2] = {PROFILE_H_COMPOSE, PROFILE_H_COMPOSE_TO};
    for (int r = 0; r < 2; r++) {
        emu_pose_io io;
        memset(&io, 0, sizeof io);
        cells(&io.a, base);
        io.a.t[0] = 1000, io.a.t[1] = 2000, io.a.t[2] = -3000;
        cells(&io.b, bone);
        io.b.t[0] = 11, io.b.t[1] = -25, io.b.t[2] = 35;
        call(game, roles[r], &io);
        te_expect_matrix(&io.out, want, want_t, profile_helper_name(roles[r]), 0);
        cr_expect_eq(io.b.t[1], -25, "b is only read");
        cells(&io.a, ident);
        io.a.t[0] = 1, io.a.t[1] = 2, io.a.t[2] = 3;
        io.b.t[0] = 1 << 20, io.b.t[1] = (1 << 20) + 1, io.b.t[2] = -(1 << 20);
        call(game, roles[r], &io);
        te_expect_matrix(&io.out, bone, wrap_t, profile_helper_name(roles[r]), 1);
    }
}

static int16_t rnd_cell(rng *r)
{
    switch (rng_below(r, 4)) {
    case 0:
        return (int16_t)rng_range(r, -32768, 32767);
    case 1:
        return (int16_t)(rng_chance(r, 50) ? 32767 : -32768);
    default:
        return (int16_t)rng_range(r, -4096, 4096);
    }
}

/* The x87 variant's Copy5 and Compose agree with the default's on random
 * and extreme operands (any s16 cell; translations over the s32 range). */
Test(helpers, x87_products_equal_the_default)
{
    emu_image *xi = te_standin_image("standin_x87.exe");
    emu_game *x = open_second(xi);
    rng r = rng_make(12, 0x5eed);
    for (int n = 0; n < 3000; n++) {
        emu_pose_io a, b;
        memset(&a, 0, sizeof a);
        for (int k = 0; k < 9; k++) {
            a.a.m[k / 3][k % 3] = rnd_cell(&r);
            a.b.m[k / 3][k % 3] = rnd_cell(&r);
        }
        for (int k = 0; k < 3; k++) {
            a.a.t[k] = (int32_t)rng_next(&r);
            a.b.t[k] = rng_range(&r, -(1 << 20), 1 << 20);
        }
        profile_helper_id role = n % 2 ? PROFILE_H_COMPOSE : PROFILE_H_COPY5;
        b = a;
        call(game, role, &a);
        call(x, role, &b);
        for (int k = 0; k < 9; k++)
            if (a.out.m[k / 3][k % 3] != b.out.m[k / 3][k % 3])
                cr_assert_fail("case %d (%s) cell %d: %d against x87 %d", n,
                               profile_helper_name(role), k, a.out.m[k / 3][k % 3],
                               b.out.m[k / 3][k % 3]);
        cr_assert_arr_eq(a.out.t, b.out.t, sizeof a.out.t, "case %d translation", n);
    }
    emu_game_close(x);
    emu_image_free(xi);
}

/* A helper the profile says returns on the x87 stack: Test_X87Result
 * (fild of its argument) standing in for sin; and Fx_Sin claimed as st0,
 * which leaves the stack empty: the wrong signature is reported. */
Test(helpers, st0_results_and_a_wrong_signature)
{
    emu_profile p;
    te_standin_profile(&p);
    profile_routine *sin_row = &p.routines[p.helpers[PROFILE_H_SIN]];
    uint32_t fx_sin = sin_row->address;
    sin_row->address = te_routine(&p, "Test_X87Result");
    sin_row->result = PROFILE_RES_ST0;
    p.helpers[PROFILE_H_COPY5] = -1;
    emu_image *im;
    ff_error err;
    char warn[256];
    TS_OK(emu_image_load(te_standin_path("standin.exe"), &p, &im, warn, sizeof warn, &err), &err);
    emu_game *g = open_second(im);
    emu_pose_io io = {.angle = -12345};
    call(g, PROFILE_H_SIN, &io);
    cr_expect_eq(io.has_st0, 1);
    cr_expect(io.st0 == -12345.0, "st0 %g", io.st0);
    /* -12345 as 80-bit: sign, exponent 16383 + 13, mantissa 12345 << 50. */
    static const uint8_t raw[10] = {0, 0, 0, 0, 0, 0, 0xE4, 0xC0, 0x0C, 0xC0};
    cr_expect_arr_eq(io.st0_raw, raw, 10);
    cr_expect_eq(io.value, 0, "no integer result for st0");
    emu_fault f;
    cr_expect_eq(emu_game_pose_helper(g, PROFILE_H_COPY5, &io, &f), -1);
    cr_expect(strstr(f.detail, "copy5") != NULL, "%s", f.detail);
    emu_game_close(g);
    emu_image_free(im);

    sin_row->address = fx_sin;
    TS_OK(emu_image_load(te_standin_path("standin.exe"), &p, &im, warn, sizeof warn, &err), &err);
    g = open_second(im);
    cr_expect_eq(emu_game_pose_helper(g, PROFILE_H_SIN, &io, &f), -1);
    cr_expect_eq(f.kind, EMU_FAULT_EMU);
    cr_expect(strstr(f.detail, "x87 stack empty") != NULL, "%s", f.detail);
    emu_game_close(g);
    emu_image_free(im);
}

/*
 * The game's profile describes the helpers the pose leaf level calls (sin, cos, copy5,
 * apply, compose) with the public notes' addresses and arities; the stand-in has its
 * helpers at those addresses with those arities, so its own profile with the game's rows
 * put in their place calls them alike: the rows are usable as they stand.
 */
Test(helpers, the_game_profiles_leaf_rows_call_as_the_standins)
{
    static const profile_helper_id roles[] = {PROFILE_H_SIN, PROFILE_H_COS, PROFILE_H_COPY5,
                                              PROFILE_H_APPLY, PROFILE_H_COMPOSE};
    emu_profile game_p, p;
    ff_error err;
    TS_OK(profile_builtin_by_name("ff8_en_steam2013", &game_p, &err), &err);
    te_standin_profile(&p);
    for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++) {
        const profile_routine *row = profile_helper(&game_p, roles[i]);
        cr_assert(row, "the game's profile has no %s row", profile_helper_name(roles[i]));
        profile_routine *mine = &p.routines[p.helpers[roles[i]]];
        cr_assert_eq(mine->address, row->address, "%s", profile_helper_name(roles[i]));
        mine->args = row->args;
        memcpy(mine->params, row->params, sizeof mine->params);
        mine->result = row->result;
    }
    emu_image *im;
    char warn[256];
    TS_OK(emu_image_load(te_standin_path("standin.exe"), &p, &im, warn, sizeof warn, &err), &err);
    emu_game *g = open_second(im);
    rng r = rng_make(27, 0x1eaf);
    for (int n = 0; n < 200; n++) {
        profile_helper_id role = roles[n % 5];
        emu_pose_io a;
        memset(&a, 0, sizeof a);
        a.angle = (int16_t)rnd_cell(&r);
        for (int k = 0; k < 9; k++) {
            a.a.m[k / 3][k % 3] = rnd_cell(&r);
            a.b.m[k / 3][k % 3] = rnd_cell(&r);
        }
        for (int k = 0; k < 3; k++) {
            a.a.t[k] = rng_range(&r, -(1 << 20), 1 << 20);
            a.b.t[k] = rng_range(&r, -(1 << 20), 1 << 20);
            a.sv[k] = rnd_cell(&r);
        }
        emu_pose_io b = a;
        call(game, role, &a);
        call(g, role, &b);
        const char *what = profile_helper_name(role);
        cr_assert_eq(a.value, b.value, "case %d (%s)", n, what);
        cr_assert_arr_eq(a.vout, b.vout, sizeof a.vout, "case %d (%s)", n, what);
        cr_assert_arr_eq(a.out.m, b.out.m, sizeof a.out.m, "case %d (%s)", n, what);
        cr_assert_arr_eq(a.out.t, b.out.t, sizeof a.out.t, "case %d (%s)", n, what);
    }
    emu_game_close(g);
    emu_image_free(im);
}
