/*
 * tests/ref/test_ref_pose_build.c: BuildBoneMatrices and
 * ComputeBonesWorldMatrices of the reference engine (ref/pose.h) on 1- to
 * 4-bone skeletons in the game's byte layout: the effect of each option,
 * the scale path and its 32-bit wrap, irregular parents, the pad word never
 * touched, the near masks. Every expected matrix is worked out by hand in
 * the comment above it (Q12: 4096 = 1.0; c, s = cos, sin).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "common/le.h"
#include "ref/pose.h"
#include "tests/support/ts.h"

typedef struct tbone {
    int16_t parent, len, rot[3], scale[3];
} tbone;

#define UNIT                                                                                       \
    {                                                                                              \
        1024, 1024, 1024                                                                           \
    }
#define SKEL_MAX (16 + 48 * 4)

/* Header (count, flags, model scale, root) and bones; every other byte, the
 * runtime area and its pad included, is 0xA5. */
static void skel_make(uint8_t *s, const tbone *b, unsigned n, uint8_t flags, int16_t mscale,
                      const int16_t root[3])
{
    memset(s, 0xA5, 16 + 48 * (size_t)n);
    s[0] = (uint8_t)n;
    s[1] = flags;
    le_put16(s + 2, (uint16_t)mscale);
    for (int k = 0; k < 3; k++)
        le_put16(s + 8 + 2 * k, (uint16_t)root[k]);
    for (unsigned i = 0; i < n; i++) {
        uint8_t *p = s + 16 + 48 * i;
        le_put16(p, (uint16_t)b[i].parent);
        le_put16(p + 2, (uint16_t)b[i].len);
        for (int k = 0; k < 3; k++) {
            le_put16(p + 4 + 2 * k, (uint16_t)b[i].rot[k]);
            le_put16(p + 10 + 2 * k, (uint16_t)b[i].scale[k]);
        }
    }
}

static void check_bone(const uint8_t *skel, unsigned b, const int16_t m[3][3], int32_t x, int32_t y,
                       int32_t z, const char *what)
{
    ref_matrix got;
    ref_pose_bone_load(skel, b, &got);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            cr_assert_eq(got.m[i][j], m[i][j], "%s: bone %u m[%d][%d] = %d, want %d", what, b, i, j,
                         got.m[i][j], m[i][j]);
    cr_assert(got.t[0] == x && got.t[1] == y && got.t[2] == z,
              "%s: bone %u t (%d, %d, %d), want (%d, %d, %d)", what, b, got.t[0], got.t[1],
              got.t[2], x, y, z);
}

/*
 * Most tests below work the older reading out by hand: root=none and
 * scale=pre unless the test names its own root or scale. The notes' layout
 * (root=model, scale=stack, the defaults) has its own tests at the end.
 */
static ref_pose_opts opts(const char *text)
{
    char full[256];
    snprintf(full, sizeof full, "%s%s%s", strstr(text, "root=") ? "" : "root=none,",
             strstr(text, "scale=") ? "" : "scale=pre,", text);
    size_t n = strlen(full);
    if (n && full[n - 1] == ',') full[n - 1] = '\0';
    ref_pose_opts o;
    ff_error err;
    cr_assert_eq(ref_pose_opts_parse(full, &o, &err), 0, "%s: %s", full, err.reason);
    return o;
}

static int build(uint8_t *skel, unsigned n, const char *text)
{
    ref_pose_opts o = opts(text);
    return ref_build_bone_matrices(skel, n, &o);
}

static const int16_t ID[3][3] = {{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}};
static const int16_t RX90[3][3] = {{4096, 0, 0}, {0, 0, -4096}, {0, 4096, 0}};
static const int16_t RZ512[3][3] = {{2896, -2896, 0}, {2896, 2896, 0}, {0, 0, 4096}};

/*
 * Root translation (10, -3, 30) x model scale 300 >> 8 = (11 (11.7), -4 (-3.5 down), 35).
 * Bone 0 root, rot 0, size 100: m = I. Bone 1 child of 0, rot x 1024, size 200:
 * m = I.Rx90 = Rx90, t1 = t0 + v(L1). Bone 2 child of 1, rot 0, size 50: m = Rx90,
 * t2 = t1 + Rx90.v(L2), Rx90.(x, y, z) = (x, -z, y). L1, L2 = 100, 200 (parent's)
 * or 200, 50 (own).
 */
Test(pose_build, offset_and_length_place_each_child)
{
    static const tbone b[3] = {
        {-1, 100, {0, 0, 0}, UNIT}, {0, 200, {1024, 0, 0}, UNIT}, {1, 50, {0, 0, 0}, UNIT}};
    static const struct {
        const char *opts;
        int32_t t1[3], t2[3];
    } c[] = {
        {"offset=+z", {11, -4, 135}, {11, -204, 135}},
        {"offset=-z", {11, -4, -65}, {11, 196, -65}},
        {"offset=+y", {11, 96, 35}, {11, 96, 235}},
        {"offset=-y", {11, -104, 35}, {11, -104, -165}},
        {"offset=+x", {111, -4, 35}, {311, -4, 35}},
        {"offset=-x", {-89, -4, 35}, {-289, -4, 35}},
        {"offset=+z,length=own", {11, -4, 235}, {11, -54, 235}},
        {"offset=-z,length=own", {11, -4, -165}, {11, 46, -165}},
        {"offset=+y,length=own", {11, 196, 35}, {11, 196, 85}},
        {"offset=-y,length=own", {11, -204, 35}, {11, -204, -15}},
        {"offset=+x,length=own", {211, -4, 35}, {261, -4, 35}},
        {"offset=-x,length=own", {-189, -4, 35}, {-239, -4, 35}},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        uint8_t s[SKEL_MAX];
        skel_make(s, b, 3, 0, 300, (const int16_t[3]){10, -3, 30});
        cr_assert_eq(build(s, 3, c[i].opts), 0, "%s", c[i].opts);
        check_bone(s, 0, ID, 11, -4, 35, c[i].opts);
        check_bone(s, 1, RX90, c[i].t1[0], c[i].t1[1], c[i].t1[2], c[i].opts);
        check_bone(s, 2, RX90, c[i].t2[0], c[i].t2[1], c[i].t2[2], c[i].opts);
    }
}

/*
 * Root Rz90 (rot z 1024), child rot (1024, 1024, 0): local xyz = Rx.Ry =
 * [[0,0,1],[1,0,0],[0,1,0]], yxz = Ry.Rx = [[0,1,0],[0,0,-1],[-1,0,0]]; world =
 * Rz90.local, Rz90 rows (0,-1,0), (1,0,0), (0,0,1): xyz [[-1,0,0],[0,0,1],[0,1,0]],
 * yxz [[0,0,1],[0,1,0],[-1,0,0]]. t1 = Rz90.(0,0,100) = (0,0,100).
 */
Test(pose_build, order_shows_in_the_child_matrix)
{
    static const tbone b[2] = {{-1, 100, {0, 0, 1024}, UNIT}, {0, 60, {1024, 1024, 0}, UNIT}};
    static const int16_t rz90[3][3] = {{0, -4096, 0}, {4096, 0, 0}, {0, 0, 4096}};
    static const int16_t xyz[3][3] = {{-4096, 0, 0}, {0, 0, 4096}, {0, 4096, 0}};
    static const int16_t yxz[3][3] = {{0, 0, 4096}, {0, 4096, 0}, {-4096, 0, 0}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 2, 0, 256, (const int16_t[3]){0, 0, 0});
    cr_assert_eq(build(s, 2, "order=xyz"), 0);
    check_bone(s, 0, rz90, 0, 0, 0, "xyz");
    check_bone(s, 1, xyz, 0, 0, 100, "xyz");
    cr_assert_eq(build(s, 2, "order=yxz"), 0);
    check_bone(s, 0, rz90, 0, 0, 0, "yxz");
    check_bone(s, 1, yxz, 0, 0, 100, "yxz");
}

/*
 * Root rot z -1, size 4096; child rot 0, offset +x, L = 4096: child m = M0.I = M0,
 * t1 = M0.(4096,0,0) >> 12 = column 0 of M0. Rz(-1) = [[c,-s,0],[s,c,0],[0,0,1]]:
 * nearest and psx-table c 4096 s -6, trunc c 4095 s -6, floor c 4095 s -7.
 */
Test(pose_build, trig_shows_in_cells_and_translations)
{
    static const tbone b[2] = {{-1, 4096, {0, 0, -1}, UNIT}, {0, 9, {0, 0, 0}, UNIT}};
    static const struct {
        const char *opts;
        int16_t c, s;
    } t[] = {{"trig=x87-nearest", 4096, -6},
             {"trig=x87-trunc", 4095, -6},
             {"trig=x87-floor", 4095, -7},
             {"trig=psx-table", 4096, -6}};
    for (size_t i = 0; i < 4; i++) {
        int16_t m[3][3] = {{t[i].c, (int16_t)-t[i].s, 0}, {t[i].s, t[i].c, 0}, {0, 0, 4096}};
        uint8_t s[SKEL_MAX];
        skel_make(s, b, 2, 0, 256, (const int16_t[3]){0, 0, 0});
        char text[64];
        snprintf(text, sizeof text, "%s,offset=+x", t[i].opts);
        cr_assert_eq(build(s, 2, text), 0);
        check_bone(s, 0, m, 0, 0, 0, text);
        check_bone(s, 1, m, t[i].c, t[i].s, 0, text);
    }
}

/*
 * Root rot (0, 512, 512) (see test_ref_pose_math: xyz gives 2047.5 cells):
 * nearest-even [[2048,-2048,2896],[2896,2896,0],[-2048,2048,2896]], floor
 * [[2047,-2048,2896],[2896,2896,0],[-2048,2047,2896]]. Child rot 0, +x, L 4096:
 * m = M0, t = column 0 of M0.
 */
Test(pose_build, step_rounding_shows_in_cells_and_translations)
{
    static const tbone b[2] = {{-1, 4096, {0, 512, 512}, UNIT}, {0, 9, {0, 0, 0}, UNIT}};
    static const int16_t even[3][3] = {{2048, -2048, 2896}, {2896, 2896, 0}, {-2048, 2048, 2896}};
    static const int16_t down[3][3] = {{2047, -2048, 2896}, {2896, 2896, 0}, {-2048, 2047, 2896}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 2, 0, 256, (const int16_t[3]){0, 0, 0});
    cr_assert_eq(build(s, 2, "offset=+x"), 0);
    check_bone(s, 0, even, 0, 0, 0, "nearest-even");
    check_bone(s, 1, even, 2048, 2896, -2048, "nearest-even");
    cr_assert_eq(build(s, 2, "offset=+x,step=floor"), 0);
    check_bone(s, 0, down, 0, 0, 0, "floor");
    check_bone(s, 1, down, 2047, 2896, -2048, "floor");
}

/*
 * Scale path. Root rot z 512, scale 1.0: v0 = 1024 << 2 = 4096, m0 = Rz512.
 * Child rot 0, scale (1025, 1024, 1024): v1 = (1025 x 4096 >> 10, 4096, 4096) =
 * (4100, 4096, 4096).
 * pre: local = diag(4100, 4096, 4096); m = Rz512.local: column 0 = 2896 x 4100 / 4096
 *   = 2898.83: nearest 2899, floor 2898; the rest exact.
 * post: m = Rz512, then column 0 x 4100 >> 12 = 2898 (floor of 2898.83).
 * Flag bit0 clear (0xFE): no scaling at all, m = Rz512.
 */
Test(pose_build, scale_path_pre_and_post_round_differently)
{
    static const tbone b[2] = {{-1, 100, {0, 0, 512}, UNIT}, {0, 9, {0, 0, 0}, {1025, 1024, 1024}}};
    static const int16_t m2899[3][3] = {{2899, -2896, 0}, {2899, 2896, 0}, {0, 0, 4096}};
    static const int16_t m2898[3][3] = {{2898, -2896, 0}, {2898, 2896, 0}, {0, 0, 4096}};
    static const struct {
        uint8_t flags;
        const char *opts;
        const int16_t (*want)[3];
    } c[] = {
        {0x01, "scale=pre", m2899},  {0x01, "scale=pre,step=floor", m2898},
        {0x01, "scale=post", m2898}, {0x01, "scale=post,step=floor", m2898},
        {0xFE, "scale=pre", RZ512},  {0xFE, "scale=post", RZ512},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        uint8_t s[SKEL_MAX];
        skel_make(s, b, 2, c[i].flags, 256, (const int16_t[3]){0, 0, 0});
        cr_assert_eq(build(s, 2, c[i].opts), 0);
        check_bone(s, 0, RZ512, 0, 0, 0, c[i].opts);
        check_bone(s, 1, c[i].want, 0, 0, 100, c[i].opts);
    }
}

/*
 * A root's own scale: (2048, 1024, 512) -> v = (8192, 4096, 2048); Rz512 columns x 2,
 * x 1, x 0.5: [[5792,-2896,0],[5792,2896,0],[0,0,2048]], pre or post alike.
 */
Test(pose_build, root_columns_take_the_root_scale)
{
    static const tbone b[1] = {{-1, 100, {0, 0, 512}, {2048, 1024, 512}}};
    static const int16_t want[3][3] = {{5792, -2896, 0}, {5792, 2896, 0}, {0, 0, 2048}};
    for (int post = 0; post < 2; post++) {
        uint8_t s[SKEL_MAX];
        skel_make(s, b, 1, 0x01, 256, (const int16_t[3]){0, 0, 0});
        cr_assert_eq(build(s, 1, post ? "scale=post" : "scale=pre"), 0);
        check_bone(s, 0, want, 0, 0, 0, post ? "post" : "pre");
    }
}

/*
 * The garbage scales a SLOW+FAST over-read can leave (32767 on x, on two bones).
 * Root: v0 = 32767 << 2 = 131068; column 0 of I: 4096 x 131068 >> 12 = 131068, as s16
 * -4: m0 = diag(-4, 4096, 4096).
 * Child: v1.x = 32767 x 131068 = 4294705156, as s32 -262140, >> 10 = -256 (without
 * the 32-bit wrap: 4194048). Rot z 512, pre: column 0 of Rz512 x -256 >> 12 = -181
 * (2896 / 16): local [[-181,-2896,0],[-181,2896,0],[0,0,4096]]. m0.local: row0 = -4 x
 * row0 / 4096 = (0.18 -> 0, 2.83 -> 3, 0); row1 = row1; row2 = row2.
 * (With 4194048, width=64 below, the column is 2896 x 4194048 >> 12 = 2965323 -> s16
 * 16203.)
 */
Test(pose_build, scale_vectors_wrap_in_32_bits)
{
    static const tbone b[2] = {{-1, 100, {0, 0, 0}, {32767, 1024, 1024}},
                               {0, 9, {0, 0, 512}, {32767, 1024, 1024}}};
    static const int16_t m0[3][3] = {{-4, 0, 0}, {0, 4096, 0}, {0, 0, 4096}};
    static const int16_t m1[3][3] = {{0, 3, 0}, {-181, 2896, 0}, {0, 0, 4096}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 2, 0x01, 256, (const int16_t[3]){0, 0, 0});
    cr_assert_eq(build(s, 2, ""), 0);
    check_bone(s, 0, m0, 0, 0, 0, "garbage root");
    /* t1 = m0.(0,0,100) >> 12 = (0,0,100) */
    check_bone(s, 1, m1, 0, 0, 100, "garbage child");
}

/*
 * The same skeleton under width=64: v1.x = 32767 x 131068 >> 10 = 4194048 exactly.
 * Column 0 of Rz512 x 4194048 >> 12 = 2896 x 1023.9375 = 2965323, as s16 16203:
 * local [[16203,-2896,0],[16203,2896,0],[0,0,4096]]. m0.local: row0 = -4 x row0 / 4096
 * = (-15.8 -> -16, 2.83 -> 3, 0); rows 1 and 2 as they are. The root is the same in
 * both widths (v0 = s << 2 involves no product).
 */
Test(pose_build, scale_vectors_are_exact_in_64_bits)
{
    static const tbone b[2] = {{-1, 100, {0, 0, 0}, {32767, 1024, 1024}},
                               {0, 9, {0, 0, 512}, {32767, 1024, 1024}}};
    static const int16_t m0[3][3] = {{-4, 0, 0}, {0, 4096, 0}, {0, 0, 4096}};
    static const int16_t m1[3][3] = {{-16, 3, 0}, {16203, 2896, 0}, {0, 0, 4096}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 2, 0x01, 256, (const int16_t[3]){0, 0, 0});
    cr_assert_eq(build(s, 2, "width=64"), 0);
    check_bone(s, 0, m0, 0, 0, 0, "garbage root");
    check_bone(s, 1, m1, 0, 0, 100, "garbage child, exact");
}


/* Writes a MATRIX into bone b's runtime area (the pad left as it is). */
static void preset(uint8_t *s, unsigned b, const int16_t m[3][3], int32_t x, int32_t y, int32_t z)
{
    ref_matrix r;
    memcpy(r.m, m, sizeof r.m);
    r.t[0] = x, r.t[1] = y, r.t[2] = z;
    ref_matrix_store(s + 16 + 48 * b + 0x10, &r);
}

static const int16_t TWO[3][3] = {{8192, 0, 0}, {0, 8192, 0}, {0, 0, 8192}};

/*
 * Bone 0's parent is bone 1 (later): read as its bytes stand, m = 2I, t =
 * (2147483632, -2147483632, 5). Bone 0 rot 0, +x, L = bone 1's size 100:
 * m0 = 2I.I = 2I; t0 = stale t + 2I.(100,0,0) >> 12 = + (200, 0, 0):
 * 2147483832 wraps to -2147483464. Bone 1 is a root: I, root translation 0.
 */
Test(pose_build, later_parent_is_read_as_it_stands_and_translations_wrap)
{
    static const tbone b[2] = {{1, 7, {0, 0, 0}, UNIT}, {-1, 100, {0, 0, 0}, UNIT}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 2, 0, 256, (const int16_t[3]){0, 0, 0});
    preset(s, 1, TWO, 2147483632, -2147483632, 5);
    cr_assert_eq(ref_pose_parent_regular(s, 0), 0);
    cr_assert_eq(ref_pose_parent_regular(s, 1), 1);
    cr_assert_eq(build(s, 2, "offset=+x"), 1, "one irregular bone");
    check_bone(s, 0, TWO, -2147483464, -2147483632, 5, "later parent");
    check_bone(s, 1, ID, 0, 0, 0, "root");
}

/*
 * A bone that is its own parent reads its own previous MATRIX (2I, t (1,2,3))
 * before writing: m = 2I, t = (1,2,3) + 2I.(0,0,50) >> 12 = (1, 2, 103) (own size 50).
 * Under the scale path a later parent's vector is taken as 4096: scale (2048,...)
 * gives v = 2048 x 4096 >> 10 = 8192, column 0 doubled: m = 2I.diag(2,1,1).
 */
Test(pose_build, self_parent_reads_its_previous_matrix)
{
    static const tbone b[1] = {{0, 50, {0, 0, 0}, {2048, 1024, 1024}}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 1, 0, 256, (const int16_t[3]){0, 0, 0});
    preset(s, 0, TWO, 1, 2, 3);
    cr_assert_eq(build(s, 1, "length=own"), 1);
    check_bone(s, 0, TWO, 1, 2, 103, "self parent");
    static const int16_t scaled[3][3] = {{16384, 0, 0}, {0, 8192, 0}, {0, 0, 8192}};
    skel_make(s, b, 1, 0x01, 256, (const int16_t[3]){0, 0, 0});
    preset(s, 0, TWO, 1, 2, 3);
    cr_assert_eq(build(s, 1, "length=own"), 1);
    check_bone(s, 0, scaled, 1, 2, 103, "self parent, scale path");
}

/*
 * Parents outside the skeleton (5 with 2 bones, -2) pose the bone as a root: m =
 * local (Rx90), t = the root translation (4, 0, -2) x 512 >> 8 = (8, 0, -4).
 */
Test(pose_build, parent_outside_the_skeleton_poses_a_root)
{
    int16_t parents[2] = {5, -2};
    for (int i = 0; i < 2; i++) {
        tbone b[2] = {{-1, 100, {0, 0, 0}, UNIT}, {parents[i], 9, {1024, 0, 0}, UNIT}};
        uint8_t s[SKEL_MAX];
        skel_make(s, b, 2, 0, 512, (const int16_t[3]){4, 0, -2});
        cr_assert_eq(ref_pose_parent_regular(s, 1), 0);
        cr_assert_eq(build(s, 2, ""), 1, "parent %d", parents[i]);
        check_bone(s, 0, ID, 8, 0, -4, "root");
        check_bone(s, 1, RX90, 8, 0, -4, "outside parent");
    }
}

/* Bytes every pose writer may change: m (18 bytes) and t (12) of each bone. */
static int writable(size_t off)
{
    if (off < 16) return 0;
    size_t in = (off - 16) % 48;
    return (in >= 0x10 && in < 0x22) || in >= 0x24;
}

static void check_only_runtime_changed(const uint8_t *before, const uint8_t *after, size_t n,
                                       const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (!writable(i))
            cr_assert_eq(after[i], before[i],
                         "%s: byte %zu (header, or bone byte 16 + 48 b + k) "
                         "changed",
                         what, i);
}

Test(pose_build, pad_word_and_every_read_field_stay_untouched)
{
    /* 4 bones, scale path on, irregular parent included, in every combination. */
    static const tbone b[4] = {{-1, 300, {100, -700, 2048}, {1100, 900, 1024}},
                               {0, -250, {1024, 3000, -1}, {32767, -32768, 1024}},
                               {3, 40, {-2048, 77, 512}, UNIT},
                               {1, 32767, {32767, -32768, 1}, {700, 1024, 2000}}};
    uint8_t s[SKEL_MAX], before[SKEL_MAX];
    skel_make(s, b, 4, 0x01, -1234, (const int16_t[3]){-300, 200, 32767});
    for (unsigned k = 0; k < 4; k++) {
        s[16 + 48 * k + 0x22] = 0x5A; /* the pad: a pattern of its own */
        s[16 + 48 * k + 0x23] = 0xC3;
    }
    memcpy(before, s, sizeof s);
    ref_matrix base = {{{0, -8192, 0}, {4096, 0, 0}, {0, 0, 2048}}, {INT32_MAX, -5, 7}};
    ref_matrix base_copy = base;
    for (unsigned i = 0; i < REF_POSE_OPTS_COUNT; i++) {
        ref_pose_opts o;
        ref_pose_opts_at(i, &o);
        char what[REF_POSE_OPTS_TEXT_MAX];
        ref_pose_opts_format(&o, what, sizeof what);
        cr_assert_eq(ref_build_bone_matrices(s, 4, &o), 1, "%s", what);
        check_only_runtime_changed(before, s, sizeof s, what);
        cr_assert_eq(ref_world_matrices(s, 4, &base, &o), 0, "%s", what);
        check_only_runtime_changed(before, s, sizeof s, what);
        cr_assert(!memcmp(base.m, base_copy.m, sizeof base.m) &&
                      !memcmp(base.t, base_copy.t, sizeof base.t),
                  "%s: base changed", what);
    }
}

/*
 * World matrices. base m = [[0,-8192,0],[4096,0,0],[0,0,2048]], t (1000,-2000,3000);
 * bone m = [[4096,0,0],[0,2896,-2896],[3,2899,-3]], t (100, 200, -301).
 * m: row0 = -2 x bone row1 = (0,-5792,5792); row1 = bone row0; row2 = 0.5 x bone row2
 *    = (1.5, 1449.5, -1.5): nearest-even (2, 1450, -2), floor (1, 1449, -2).
 * t: -8192 x 200 >> 12 = -400 -> 600; 4096 x 100 >> 12 = 100 -> -1900;
 *    2048 x -301 = -616448 >> 12 = -151 (-150.5 down) -> 2849.
 */
Test(pose_build, world_matrices_compose_the_base_onto_every_bone)
{
    static const tbone b[2] = {{-1, 1, {0, 0, 0}, UNIT}, {0, 1, {0, 0, 0}, UNIT}};
    static const int16_t bm[3][3] = {{4096, 0, 0}, {0, 2896, -2896}, {3, 2899, -3}};
    static const int16_t even[3][3] = {{0, -5792, 5792}, {4096, 0, 0}, {2, 1450, -2}};
    static const int16_t down[3][3] = {{0, -5792, 5792}, {4096, 0, 0}, {1, 1449, -2}};
    const ref_matrix base = {{{0, -8192, 0}, {4096, 0, 0}, {0, 0, 2048}}, {1000, -2000, 3000}};
    for (int step = 0; step < 2; step++) {
        uint8_t s[SKEL_MAX];
        skel_make(s, b, 2, 0, 256, (const int16_t[3]){0, 0, 0});
        preset(s, 0, bm, 100, 200, -301);
        preset(s, 1, ID, 0, 0, 0);
        ref_pose_opts o = opts(step ? "step=floor" : "");
        cr_assert_eq(ref_world_matrices(s, 2, &base, &o), 0);
        check_bone(s, 0, step ? down : even, 600, -1900, 2849, "world");
        /* I under the base: the base itself */
        check_bone(s, 1, base.m, 1000, -2000, 3000, "identity bone");
    }
    /* the identity base with t 0 leaves every bone as it was */
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 2, 0, 256, (const int16_t[3]){0, 0, 0});
    preset(s, 0, bm, 100, 200, -301);
    preset(s, 1, ID, 7, 8, 9);
    const ref_matrix id = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {0, 0, 0}};
    ref_pose_opts o = opts("");
    cr_assert_eq(ref_world_matrices(s, 2, &id, &o), 0);
    check_bone(s, 0, bm, 100, 200, -301, "identity base");
    check_bone(s, 1, ID, 7, 8, 9, "identity base");
    /* the base translation wraps: INT32_MAX + (4096 x 1 >> 12) = INT32_MIN */
    const ref_matrix far = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {INT32_MAX, 0, 0}};
    preset(s, 0, ID, 1, 0, 0);
    cr_assert_eq(ref_world_matrices(s, 1, &far, &o), 0);
    check_bone(s, 0, ID, INT32_MIN, 0, 0, "wrapped");
}

/*
 * Near masks under x87-floor. Root rot z 2048: c = -4096 exactly, s = floor(5e-13) = 0,
 * flagged: Rz cells (0,1), (1,0). Child rot 0, +x: m = M0.I keeps (0,1), (1,0);
 * t = M0.(L,0,0): t.y uses m[1][0], flagged. +z: no translation flag. x87-nearest:
 * nothing. World under base Rx90 (rows (1,0,0), (0,0,-1), (0,1,0)): world (0,j) from
 * bone (0,j), (1,j) from bone (2,j), (2,j) from bone (1,j): (0,1), (2,0); t.z from t.y.
 * Root scale (1024, 0, 1024): column 1 is scaled by 0, its flag drops.
 */
Test(pose_build, near_masks_follow_the_flagged_sin_and_cos)
{
    static const tbone b[2] = {{-1, 10, {0, 0, 2048}, {1024, 0, 1024}}, {0, 9, {0, 0, 0}, UNIT}};
    const uint16_t rz = REF_POSE_NEAR_CELL(0, 1) | REF_POSE_NEAR_CELL(1, 0);
    static const int16_t m[3][3] = {{-4096, 0, 0}, {0, -4096, 0}, {0, 0, 4096}};
    uint8_t s[SKEL_MAX];
    uint16_t near[2] = {0xFFFF, 0xFFFF};
    skel_make(s, b, 2, 0, 256, (const int16_t[3]){0, 0, 0});
    ref_pose_opts o = opts("trig=x87-floor,offset=+x");
    cr_assert_eq(ref_build_bone_matrices_near(s, 2, &o, near), 0);
    check_bone(s, 0, m, 0, 0, 0, "floor");
    cr_assert_eq(near[0], rz, "root mask 0x%x", near[0]);
    cr_assert_eq(near[1], rz | REF_POSE_NEAR_T(1), "child mask 0x%x", near[1]);
    const ref_matrix rx90 = {{{4096, 0, 0}, {0, 0, -4096}, {0, 4096, 0}}, {0, 0, 0}};
    ref_pose_near_world(&rx90, near, 2);
    const uint16_t w = REF_POSE_NEAR_CELL(0, 1) | REF_POSE_NEAR_CELL(2, 0);
    cr_assert_eq(near[0], w, "world root mask 0x%x", near[0]);
    cr_assert_eq(near[1], w | REF_POSE_NEAR_T(2), "world child mask 0x%x", near[1]);

    o = opts("trig=x87-floor,offset=+z");
    cr_assert_eq(ref_build_bone_matrices_near(s, 2, &o, near), 0);
    cr_assert_eq(near[1], rz, "+z: no translation flag, 0x%x", near[1]);
    o = opts("offset=+x");
    cr_assert_eq(ref_build_bone_matrices_near(s, 2, &o, near), 0);
    cr_assert(near[0] == 0 && near[1] == 0, "x87-nearest flags nothing");

    s[1] = 0x01;
    o = opts("trig=x87-floor,offset=+x");
    cr_assert_eq(ref_build_bone_matrices_near(s, 2, &o, near), 0);
    cr_assert_eq(near[0], REF_POSE_NEAR_CELL(1, 0), "column 1 scaled by 0: 0x%x", near[0]);
}

Test(pose_build, bad_arguments_write_nothing)
{
    static const tbone b[1] = {{-1, 10, {0, 0, 0}, UNIT}};
    uint8_t s[SKEL_MAX], before[SKEL_MAX];
    skel_make(s, b, 1, 0, 256, (const int16_t[3]){0, 0, 0});
    memcpy(before, s, sizeof s);
    ref_pose_opts o = opts(""), bad = o;
    bad.trig = (ref_pose_trig)4;
    ref_matrix base = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {1, 1, 1}};
    cr_assert_eq(ref_build_bone_matrices(NULL, 1, &o), -1);
    cr_assert_eq(ref_build_bone_matrices(s, 1, NULL), -1);
    cr_assert_eq(ref_build_bone_matrices(s, 1, &bad), -1);
    cr_assert_eq(ref_build_bone_matrices(s, REF_POSE_MAX_BONES + 1, &o), -1);
    cr_assert_eq(ref_world_matrices(s, 1, NULL, &o), -1);
    cr_assert_eq(ref_world_matrices(s, 1, &base, &bad), -1);
    cr_assert_eq(ref_world_matrices(s, REF_POSE_MAX_BONES + 1, &base, &o), -1);
    ts_assert_mem(s, before, sizeof s, "skeleton after refused calls");
    cr_assert_eq(ref_build_bone_matrices(s, 0, &o), 0, "no bones: nothing to do");
    ts_assert_mem(s, before, sizeof s, "skeleton after 0 bones");
}

/*
 * World translations past 2^31. Base m = diag(8192, 4096, 4096), t (5, 0, 0); a bone at
 * I, t (300000, 524288, -1): row0 8192 x 300000 = 2457600000 passes 2^31; row1 4096 x
 * 2^19 = 2^31 passes it too; row2 -4096 >> 12 = -1.
 *   64: (600000 + 5, 524288, -1);
 *   32: 2457600000 - 2^32 >> 12 = -448576, + 5 = -448571; 2^31 as s32 is -2^31, >> 12
 *       = -524288; -1. Each wrapped sum lies 2^20 below the exact one.
 */
Test(pose_build, world_translations_take_the_width)
{
    static const tbone b[1] = {{-1, 1, {0, 0, 0}, UNIT}};
    const ref_matrix base = {{{8192, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {5, 0, 0}};
    static const int16_t m[3][3] = {{8192, 0, 0}, {0, 4096, 0}, {0, 0, 4096}};
    static const int32_t want[2][3] = {{-448571, -524288, -1}, {600005, 524288, -1}};
    for (int w = 0; w < 2; w++) {
        uint8_t s[SKEL_MAX];
        skel_make(s, b, 1, 0, 256, (const int16_t[3]){0, 0, 0});
        preset(s, 0, ID, 300000, 524288, -1);
        ref_pose_opts o = opts(w ? "width=64" : "width=32");
        cr_assert_eq(ref_world_matrices(s, 1, &base, &o), 0);
        check_bone(s, 0, m, want[w][0], want[w][1], want[w][2], w ? "64" : "32");
    }
}

/* ---- the notes' layout: the model scale on the root, the scale path's stack ---- */

/*
 * Model scale 262 (the vanilla value), root rot z 512, root (1, 2, 3):
 * root=model: Rz512's cells x 262 >> 12: 2896 x 262 = 758752 -> 185.24 -> 185,
 * -2896 -> -185.24 -> -186 (down), 4096 -> 262; t0 = root x 262 >> 8 = (1, 2, 3).
 * Child rot 0, +z, L = the root's size 100: m1 = m0.I = m0 (Copy5 exact),
 * t1 = t0 + m0.(0, 0, 100) >> 12 = (1, 2, 3 + 26200 >> 12 = 3 + 6).
 * root=none: m0 = Rz512, t1 = t0 + (0, 0, 100).
 */
Test(pose_build, model_scale_multiplies_the_root_rotation)
{
    static const tbone b[2] = {{-1, 100, {0, 0, 512}, UNIT}, {0, 9, {0, 0, 0}, UNIT}};
    static const int16_t scaled[3][3] = {{185, -186, 0}, {185, 185, 0}, {0, 0, 262}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 2, 0x00, 262, (const int16_t[3]){1, 2, 3});
    cr_assert_eq(build(s, 2, "root=model"), 0);
    check_bone(s, 0, scaled, 1, 2, 3, "root=model");
    check_bone(s, 1, scaled, 1, 2, 9, "root=model, child");
    skel_make(s, b, 2, 0x00, 262, (const int16_t[3]){1, 2, 3});
    cr_assert_eq(build(s, 2, "root=none"), 0);
    check_bone(s, 0, RZ512, 1, 2, 3, "root=none");
    check_bone(s, 1, RZ512, 1, 2, 103, "root=none, child");
    /* the default is root=model, and model scale 4096 leaves the rotation as it is */
    ref_pose_opts def;
    ref_pose_opts_default(&def);
    skel_make(s, b, 2, 0x00, 262, (const int16_t[3]){1, 2, 3});
    cr_assert_eq(ref_build_bone_matrices(s, 2, &def), 0);
    check_bone(s, 0, scaled, 1, 2, 3, "default");
    skel_make(s, b, 2, 0x00, 4096, (const int16_t[3]){1, 2, 3});
    cr_assert_eq(build(s, 2, "root=model"), 0);
    check_bone(s, 0, RZ512, 16, 32, 48, "model scale 4096");
}

/*
 * Scale path, stack. R = Rz512. Bone 0 root, rot z 512, scale (2048, 1024, 1024):
 * w0 = (8192, 4096, 4096); M0 = R; bone 0 = R, column 0 x 2 =
 * [[5792,-2896,0],[5792,2896,0],[0,0,4096]]. Bone 1 child, rot z 512, scale 1.0:
 * w1 = (1024 x 8192 >> 10, 4096, 4096) = (8192, 4096, 4096); M1 = M0.R (R, not bone 0's
 * scaled matrix): [0][1] = -2 x 2896^2 / 4096 = -4095.125 -> -4095, [1][0] = 4095,
 * [0][0] = [1][1] = 0: M1 = [[0,-4095,0],[4095,0,0],[0,0,4096]]; bone 1 = M1 column 0
 * x 2 = [[0,-4095,0],[8190,0,0],[0,0,4096]]; t1 = t0 + bone0.(0, 0, 100) >> 12 =
 * (0, 0, 100). Bone 2 child of 1, rot 0, scale (1024, 2048, 1024): w2 = (8192, 8192,
 * 4096); M2 = M1.I = M1; bone 2 = M1 columns 0 and 1 x 2 = [[0,-8190,0],[8190,0,0],
 * [0,0,4096]]; t2 = t1 + bone1.(0, 0, 50) >> 12 = (0, 0, 150).
 * post composes with bone 0's scaled matrix instead: bone 1 [0][0] = (5792 x 2896 -
 * 2896^2) / 4096 = 2047.56 -> 2048, then x 2 = 4096: not stack's 0.
 */
Test(pose_build, scale_path_stack_composes_without_bone_scale)
{
    static const tbone b[3] = {{-1, 100, {0, 0, 512}, {2048, 1024, 1024}},
                               {0, 50, {0, 0, 512}, UNIT},
                               {1, 9, {0, 0, 0}, {1024, 2048, 1024}}};
    static const int16_t m0[3][3] = {{5792, -2896, 0}, {5792, 2896, 0}, {0, 0, 4096}};
    static const int16_t m1[3][3] = {{0, -4095, 0}, {8190, 0, 0}, {0, 0, 4096}};
    static const int16_t m2[3][3] = {{0, -8190, 0}, {8190, 0, 0}, {0, 0, 4096}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 3, 0x01, 4096, (const int16_t[3]){0, 0, 0});
    cr_assert_eq(build(s, 3, "scale=stack"), 0);
    check_bone(s, 0, m0, 0, 0, 0, "stack root");
    check_bone(s, 1, m1, 0, 0, 100, "stack child");
    check_bone(s, 2, m2, 0, 0, 150, "stack grandchild");
    skel_make(s, b, 3, 0x01, 4096, (const int16_t[3]){0, 0, 0});
    cr_assert_eq(build(s, 3, "scale=post"), 0);
    ref_matrix post;
    ref_pose_bone_load(s, 1, &post);
    cr_assert_eq(post.m[0][0], 4096, "post: %d", post.m[0][0]);
}

/*
 * Stack with the model scale: model scale 2048 on the root: M0 = R x 2048 >> 12 =
 * [[1448,-1448,0],[1448,1448,0],[0,0,2048]], bone 0 = M0 column 0 x 2 =
 * [[2896,-1448,0],[2896,1448,0],[0,0,2048]]. Bone 1 (rot 0, scale 1.0): M1 = M0.I = M0,
 * w1 = (8192, 4096, 4096): bone 1 = bone 0; t1 = bone0.(0, 0, 100) >> 12 = (0, 0, 50).
 */
Test(pose_build, scale_path_stack_takes_the_model_scale_on_the_root)
{
    static const tbone b[2] = {{-1, 100, {0, 0, 512}, {2048, 1024, 1024}},
                               {0, 50, {0, 0, 0}, UNIT}};
    static const int16_t m0[3][3] = {{2896, -1448, 0}, {2896, 1448, 0}, {0, 0, 2048}};
    uint8_t s[SKEL_MAX];
    skel_make(s, b, 2, 0x01, 2048, (const int16_t[3]){0, 0, 0});
    cr_assert_eq(build(s, 2, "root=model,scale=stack"), 0);
    check_bone(s, 0, m0, 0, 0, 0, "stack root, model scale");
    check_bone(s, 1, m0, 0, 0, 50, "stack child, model scale");
}

/* More than 80 bones on the scale path under stack: REF_POSE_OVERRUN, bone 80 on untouched. */
Test(pose_build, stack_overrun_is_reported_not_invented)
{
    enum { N = REF_POSE_STACK_SLOTS + 1 };
    static uint8_t s[16 + 48 * N], before[16 + 48 * N];
    static tbone b[N];
    for (unsigned i = 0; i < N; i++)
        b[i] = (tbone){(int16_t)((int)i - 1), 10, {0, 0, 0}, UNIT};
    static const struct {
        uint8_t flags;
        const char *opts;
        unsigned n;
        int want;
    } c[] = {
        {0x01, "scale=stack", N, REF_POSE_OVERRUN},
        {0x01, "scale=stack", N - 1, 0},
        {0x00, "scale=stack", N, 0},
        {0x01, "scale=pre", N, 0},
        {0x01, "scale=post", N, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        skel_make(s, b, c[i].n, c[i].flags, 4096, (const int16_t[3]){0, 0, 0});
        memcpy(before, s, sizeof s);
        cr_assert_eq(build(s, c[i].n, c[i].opts), c[i].want, "%s, %u bones, flags %u", c[i].opts,
                     c[i].n, c[i].flags);
        const uint8_t *last = s + 16 + 48 * (size_t)(c[i].n - 1);
        int untouched = memcmp(last, before + (last - s), 48) == 0;
        cr_assert_eq(untouched, c[i].want == REF_POSE_OVERRUN, "%s: the last bone", c[i].opts);
    }
}
