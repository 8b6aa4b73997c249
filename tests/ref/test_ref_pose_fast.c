/*
 * tests/ref/test_ref_pose_fast.c: the pose helpers' fast paths against
 * their general forms, over whole ranges and random and extreme inputs:
 * the trig table (every angle), rotations and skeletons posed with a table,
 * the Copy5 product against the whole sum rounded, rotations against the
 * general products of their axes, and world matrices under an identity
 * base against the general compose.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "ref/pose.h"
#include "tests/ref/tb.h"
#include "tests/support/ts.h"

#define T_N REF_TRIG_X87_NEAREST

/*
 * The trig table: every s16 angle (negative ones too: the table is indexed
 * by the angle's bits) holds ref_pose_sin / ref_pose_cos under its option;
 * an invalid option fills nothing.
 */
Test(pose_fast, trig_table_holds_every_angle)
{
    static ref_trig_table t;
    for (int trig = 0; trig < REF_TRIG__COUNT; trig++) {
        cr_assert_eq(ref_trig_table_fill(&t, (ref_pose_trig)trig), 0);
        cr_assert_eq(t.trig, (ref_pose_trig)trig);
        for (int32_t a = -32768; a <= 32767; a++) {
            cr_assert_eq(t.sin[(uint16_t)a], ref_pose_sin((int16_t)a, (ref_pose_trig)trig),
                         "trig %d: sin %d", trig, a);
            cr_assert_eq(t.cos[(uint16_t)a], ref_pose_cos((int16_t)a, (ref_pose_trig)trig),
                         "trig %d: cos %d", trig, a);
        }
    }
    t.trig = T_N;
    cr_assert_eq(ref_trig_table_fill(&t, REF_TRIG__COUNT), -1);
    cr_assert_eq(t.trig, T_N, "an invalid option left the table alone");
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/*
 * Rotations and whole skeletons posed with a table are those posed without,
 * for every order, trig and step and angles over the whole s16 range; a
 * table filled for another trig option is not used.
 */
Test(pose_fast, rotation_and_skeleton_with_a_table_are_the_same)
{
    static ref_trig_table table[REF_TRIG__COUNT];
    for (int trig = 0; trig < REF_TRIG__COUNT; trig++)
        cr_assert_eq(ref_trig_table_fill(&table[trig], (ref_pose_trig)trig), 0);
    uint32_t seed = 7;
    enum { BONES = 12, LEN = 16 + 48 * BONES };
    for (int round = 0; round < 2000; round++) {
        ref_pose_opts o;
        ref_pose_opts_default(&o);
        o.order = (ref_pose_order)(round % REF_ORDER__COUNT);
        o.trig = (ref_pose_trig)(round / REF_ORDER__COUNT % REF_TRIG__COUNT);
        o.step = (ref_pose_step)(round / 24 % REF_STEP__COUNT);
        const ref_trig_table *other = &table[(o.trig + 1) % REF_TRIG__COUNT];
        int16_t ang[3] = {(int16_t)lcg(&seed), (int16_t)lcg(&seed), (int16_t)lcg(&seed)};
        int16_t want[3][3], got[3][3], wrong[3][3];
        ref_pose_rotation(ang, o.order, o.trig, o.step, want);
        ref_pose_rotation_table(ang, o.order, o.trig, o.step, &table[o.trig], got);
        ref_pose_rotation_table(ang, o.order, o.trig, o.step, other, wrong);
        tb_assert_m(got, want, "rotation with its table");
        tb_assert_m(wrong, want, "rotation with another option's table");
        uint8_t a[LEN], b[LEN];
        for (size_t i = 0; i < LEN; i++) a[i] = (uint8_t)lcg(&seed);
        a[0] = BONES;
        for (unsigned k = 0; k < BONES; k++) {
            uint8_t *bone = a + 16 + 48 * k;
            int16_t parent = (int16_t)((int)k - 1 - (int)(lcg(&seed) % 3));
            bone[0] = (uint8_t)parent;
            bone[1] = (uint8_t)((uint16_t)parent >> 8);
        }
        memcpy(b, a, LEN);
        cr_assert_eq(ref_build_bone_matrices(a, BONES, &o),
                     ref_build_bone_matrices_table(b, BONES, &o, NULL, &table[o.trig]));
        ts_assert_mem(b, a, LEN, "the skeleton posed with a table");
    }
}

/* The product from the whole 64-bit sum, worked cell by cell as docs/pose.md states it. */
static int16_t wide_cell(int64_t sum, int nearest)
{
    int64_t q = sum >= 0 ? sum / 4096 : -((-sum + 4095) / 4096); /* floor */
    int64_t r = sum - q * 4096;
    if (nearest && (r > 2048 || (r == 2048 && (q & 1)))) q++;
    return (int16_t)(uint16_t)((uint64_t)q & 0xFFFFu);
}

Test(pose_fast, copy5_product_equals_the_whole_sum_rounded_on_random_and_extreme_cells)
{
    uint64_t x = 0x9E3779B97F4A7C15ull;
    static const int16_t edge[] = {-32768, -32767, -4096, -2048, -1, 0, 1, 2048, 4095, 32767};
    for (int trial = 0; trial < 20000; trial++) {
        int16_t a[3][3], b[3][3], out[3][3];
        for (int i = 0; i < 9; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            int16_t va = trial & 1 ? edge[x % 10] : (int16_t)(x >> 16);
            int16_t vb = trial & 2 ? edge[(x >> 8) % 10] : (int16_t)(x >> 40);
            a[i / 3][i % 3] = va;
            b[i / 3][i % 3] = vb;
        }
        for (int s = 0; s < 2; s++) {
            ref_pose_mul(a, b, (ref_pose_step)s, out);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    int64_t sum = (int64_t)a[i][0] * b[0][j] + (int64_t)a[i][1] * b[1][j] +
                                  (int64_t)a[i][2] * b[2][j];
                    cr_assert_eq(out[i][j], wide_cell(sum, s == REF_STEP_NEAREST_EVEN),
                                 "trial %d cell %d,%d step %d", trial, i, j, s);
                }
        }
    }
}

/* The rotation of three axes equals the products of ref_pose_axis matrices, in every order. */
Test(pose_fast, rotation_equals_the_general_products_of_its_axes)
{
    uint64_t x = 0x243F6A8885A308D3ull;
    for (int trial = 0; trial < 3000; trial++) {
        int16_t ang[3];
        for (int k = 0; k < 3; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            ang[k] = (int16_t)(x >> 20);
        }
        for (int o = 0; o < REF_ORDER__COUNT; o++)
            for (int s = 0; s < 2; s++) {
                int16_t got[3][3], m[3][3], r[3][3];
                ref_pose_rotation(ang, (ref_pose_order)o, REF_TRIG_X87_NEAREST, (ref_pose_step)s,
                                  got);
                int a = ref_pose_order_axis((ref_pose_order)o, 2);
                ref_pose_axis(a, ang[a], REF_TRIG_X87_NEAREST, m);
                for (int k = 1; k >= 0; k--) {
                    a = ref_pose_order_axis((ref_pose_order)o, k);
                    ref_pose_axis(a, ang[a], REF_TRIG_X87_NEAREST, r);
                    ref_pose_mul(r, m, (ref_pose_step)s, m);
                }
                for (int i = 0; i < 9; i++)
                    cr_assert_eq(got[i / 3][i % 3], m[i / 3][i % 3],
                                 "trial %d order %d step %d cell %d", trial, o, s, i);
            }
    }
}

/* ComputeBonesWorldMatrices under an identity base (the harness's first base) takes a
 * shorter path: every bone's world matrix must still be the general compose's, in both
 * widths and steps, with translations past 2^19 (where 4096 t wraps in 32 bits). */
Test(pose_fast, world_matrices_under_an_identity_base_equal_the_general_compose)
{
    enum { BONES = 7, LEN = 16 + 48 * BONES };
    uint64_t x = 0x452821E638D01377ull;
    static const int32_t edge[] = {0, 1, -1, 524287, 524288, -524288, -524289, 0x7FFFFFFF,
                                   (int32_t)0x80000000u, 1 << 20};
    for (int trial = 0; trial < 4000; trial++) {
        uint8_t skel[LEN], want[LEN];
        for (size_t i = 0; i < LEN; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            skel[i] = (uint8_t)(x >> 24);
        }
        for (unsigned b = 0; b < BONES; b++)
            for (int k = 0; k < 3; k++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                if (trial & 1)
                    le_put32(skel + 16 + 48 * b + 0x10 + 20 + 4 * k, (uint32_t)edge[x % 10]);
            }
        ref_matrix base = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {0, 0, 0}};
        if (trial & 2)
            for (int k = 0; k < 3; k++) base.t[k] = (int32_t)(uint32_t)(x >> (8 * k));
        ref_pose_opts o;
        ref_pose_opts_default(&o);
        o.step = (ref_pose_step)(trial & 4 ? 1 : 0);
        o.width_t = trial & 8 ? REF_WIDTH_64 : REF_WIDTH_32;
        memcpy(want, skel, LEN);
        for (unsigned b = 0; b < BONES; b++) {
            ref_matrix m;
            ref_matrix_load(want + 16 + 48 * b + 0x10, &m);
            ref_pose_compose(&base, &m, o.step, o.width_t, &m);
            ref_matrix_store(want + 16 + 48 * b + 0x10, &m);
        }
        cr_assert_eq(ref_world_matrices(skel, BONES, &base, &o), 0);
        cr_assert(memcmp(skel, want, LEN) == 0, "trial %d: the world matrices differ", trial);
    }
}
