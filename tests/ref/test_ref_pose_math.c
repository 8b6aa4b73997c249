/*
 * tests/ref/test_ref_pose_math.c: the helpers of BuildBoneMatrices (docs/pose.md
 * section 2) at their edges: sin / cos per trig option, the Copy5 product
 * (ties, floors of negatives, sums that wrap), axis and local rotations per
 * order and step, (M.v) >> 12, Compose, the scale path and the MATRIX
 * bytes. Every expected value is worked out in the comment next to it; the
 * whole-range sin / cos check compares with an independent long double
 * computation. The fast paths against the general ones:
 * test_ref_pose_fast.c.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/le.h"
#include "ref/pose.h"
#include "tests/ref/tb.h"
#include "tests/support/ts.h"

#define T_N REF_TRIG_X87_NEAREST
#define T_T REF_TRIG_X87_TRUNC
#define T_F REF_TRIG_X87_FLOOR
#define T_P REF_TRIG_PSX_TABLE

/*
 * x = a * fl(pi/2048) in double. 4096 sin / cos at:
 *   0: 0 / 4096 exactly.
 *   1024: x = fl(pi)/2 = pi/2 - 6.1e-17: sin 1 - tiny -> 4096; cos 6.1e-17 -> 2.5e-13: 0 in
 *         every rounding (floor too: positive).
 *   2048: x = fl(pi) = pi - 1.22e-16: sin 1.22e-16 -> 5.0e-13: 0 (floor 0); cos -4096.
 *   3072: x = 1.5 fl(pi), exact (3 x the mantissa of fl(pi) ends in 00): 3pi/2 - 1.84e-16:
 *         sin -4096; cos -sin(1.84e-16) -> -7.5e-13: nearest 0, trunc 0, floor -1.
 *   -1:   4096 sin(2pi/4096) = 2pi - (2pi)^3 / (6 x 4096^2) = 6.283183: sin -6.283183:
 *         nearest -6, trunc -6, floor -7; cos 4096 - 4096 (2pi/4096)^2 / 2 = 4095.99518:
 *         nearest 4096, trunc 4095, floor 4095.
 *   32767 (= -1 + 8 x 4096): the same values (x off by 1e-15 at most: 1e-11 on 4096 sin).
 *   -32768: x = -16 fl(pi) = -16 pi + 1.96e-15: sin +1.96e-15 -> 8e-12: 0 (floor 0); cos 4096.
 *   -2048: sin -5.0e-13: floor -1, others 0; cos -4096.
 *   4096: x = 2 fl(pi) = 2pi - 2.45e-16: sin -1.0e-12: floor -1, others 0; cos 4096.
 *   512: 4096 sin(pi/4) = 2896.309 for both: 2896 in every rounding.
 *   1: sin 6.283183: 6, 6, 6; cos as for -1.
 * psx-table: T[i] = floor(4096 sin(2 pi i / 4096) + 0.5): T[0] 0, T[1] 6 (6.78),
 * T[512] 2896 (2896.81), T[1023] 4096 (4096.495), T[1024] 4096; sin(-1) = -T[1],
 * cos(a) = sin(a + 1024): cos(-1) = T[1023] = 4096, cos(3072) = sin(0) = 0.
 */
static const struct {
    int16_t a;
    int32_t sin[4], cos[4]; /* nearest, trunc, floor, psx-table */
} trig_cases[] = {
    {0, {0, 0, 0, 0}, {4096, 4096, 4096, 4096}},
    {1024, {4096, 4096, 4096, 4096}, {0, 0, 0, 0}},
    {2048, {0, 0, 0, 0}, {-4096, -4096, -4096, -4096}},
    {3072, {-4096, -4096, -4096, -4096}, {0, 0, -1, 0}},
    {-1, {-6, -6, -7, -6}, {4096, 4095, 4095, 4096}},
    {32767, {-6, -6, -7, -6}, {4096, 4095, 4095, 4096}},
    {-32768, {0, 0, 0, 0}, {4096, 4096, 4096, 4096}},
    {-2048, {0, 0, -1, 0}, {-4096, -4096, -4096, -4096}},
    {4096, {0, 0, -1, 0}, {4096, 4096, 4096, 4096}},
    {512, {2896, 2896, 2896, 2896}, {2896, 2896, 2896, 2896}},
    {1, {6, 6, 6, 6}, {4096, 4095, 4095, 4096}},
};

Test(pose_math, sin_and_cos_at_the_edges_per_trig_option)
{
    for (size_t i = 0; i < sizeof trig_cases / sizeof trig_cases[0]; i++)
        for (int t = 0; t < 4; t++) {
            int16_t a = trig_cases[i].a;
            cr_assert_eq(ref_pose_sin(a, (ref_pose_trig)t), trig_cases[i].sin[t],
                         "sin(%d) trig %d = %d, want %d", a, t, ref_pose_sin(a, (ref_pose_trig)t),
                         trig_cases[i].sin[t]);
            cr_assert_eq(ref_pose_cos(a, (ref_pose_trig)t), trig_cases[i].cos[t],
                         "cos(%d) trig %d = %d, want %d", a, t, ref_pose_cos(a, (ref_pose_trig)t),
                         trig_cases[i].cos[t]);
        }
    cr_assert_eq(ref_pose_sin(1024, (ref_pose_trig)4), 0, "an invalid trig gives 0");
}

Test(pose_math, psx_table_quarter_wave_is_mirrored_over_the_quadrants)
{
    /* T[256] = floor(4096 sin(pi/8) + 0.5) = floor(1567.47 + 0.5) = 1567;
     * T[2] = floor(12.566 + 0.5) = 13 (x87-trunc and floor give 12 there). */
    static const struct {
        int16_t a;
        int32_t v;
    } s[] = {{256, 1567},   {1792, 1567},  {2304, -1567},     {3840, -1567},
             {-256, -1567}, {-3840, 1567}, {2, 13},           {2046, 13},
             {-2, -13},     {4094, -13},   {4096 + 256, 1567}};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        cr_assert_eq(ref_pose_sin(s[i].a, T_P), s[i].v, "psx sin(%d) = %d, want %d", s[i].a,
                     ref_pose_sin(s[i].a, T_P), s[i].v);
    /* cos(a) = sin(a + 1024): cos(768) = sin(1792) = 1567, cos(-1280) = sin(-256) = -1567 */
    cr_assert_eq(ref_pose_cos(768, T_P), 1567);
    cr_assert_eq(ref_pose_cos(-1280, T_P), -1567);
    cr_assert_eq(ref_pose_sin(2, T_T), 12);
    cr_assert_eq(ref_pose_sin(2, T_F), 12);
    cr_assert_eq(ref_pose_sin(2, T_N), 13);
}

/* Rounds v as the x87 option t says, in long double. */
static long double round_ld(long double v, int t)
{
    if (t == T_T) return truncl(v);
    if (t == T_F) return floorl(v);
    long double f = floorl(v), d = v - f;
    if (d > 0.5L || (d == 0.5L && fmodl(f, 2.0L) != 0.0L)) f += 1.0L;
    return f;
}

/* PsyQ-style rsin over a long double quarter table: negative angles negate. */
static long double psx_ld(long a)
{
    if (a < 0) return -psx_ld(-a);
    long r = a & 4095, i = r & 2047;
    long q = i <= 1024 ? i : 2048 - i;
    long double step = (long double)(3.14159265358979323846 / 2048.0);
    long double v = floorl(4096.0L * sinl((long double)q * step) + 0.5L);
    return r < 2048 ? v : -v;
}

Test(pose_math, every_angle_agrees_with_a_long_double_computation)
{
    /* The argument a x fl(pi/2048) in long double (nearly exact), 4096 sinl / cosl,
     * rounded per option. Where that value lies farther than 2^-20 (+ 1e-9 for the
     * two precisions) from the option's boundary, the reference must agree and must
     * not flag the angle; where it lies nearer than 2^-20 - 1e-9 the reference must
     * flag it and may differ by 1. */
    const long double step = (long double)(3.14159265358979323846 / 2048.0);
    const long double lim = 1.0L / 1048576.0L, margin = 1e-9L;
    unsigned flagged[3] = {0, 0, 0};
    for (long a = -32768; a <= 32767; a++)
        for (int cosine = 0; cosine < 2; cosine++) {
            long double x = (long double)a * step;
            long double v = 4096.0L * (cosine ? cosl(x) : sinl(x));
            for (int t = 0; t < 3; t++) {
                int16_t a16 = (int16_t)a;
                int32_t got = cosine ? ref_pose_cos(a16, (ref_pose_trig)t)
                                     : ref_pose_sin(a16, (ref_pose_trig)t);
                int near = cosine ? ref_pose_cos_near(a16, (ref_pose_trig)t)
                                  : ref_pose_sin_near(a16, (ref_pose_trig)t);
                long double k = floorl(v + 0.5L), dist;
                if (t == T_N)
                    dist = fabsl(v - floorl(v) - 0.5L);
                else if (v == k || (t == T_T && k == 0.0L))
                    dist = 1.0L; /* exact, or trunc at 0 */
                else
                    dist = fabsl(v - k);
                long double want = round_ld(v, t);
                if (dist > lim + margin) {
                    cr_assert_not(near, "a %ld %s trig %d flagged at %Lg from the boundary", a,
                                  cosine ? "cos" : "sin", t, dist);
                    cr_assert_eq((long double)got, want, "a %ld %s trig %d: %d, want %.0Lf", a,
                                 cosine ? "cos" : "sin", t, got, want);
                } else if (dist < lim - margin) {
                    cr_assert(near, "a %ld %s trig %d not flagged at %Lg", a,
                              cosine ? "cos" : "sin", t, dist);
                    cr_assert(fabsl((long double)got - want) <= 1.0L, "a %ld: %d vs %.0Lf", a, got,
                              want);
                }
                flagged[t] += (unsigned)near;
            }
            int32_t psx = cosine ? ref_pose_cos((int16_t)a, T_P) : ref_pose_sin((int16_t)a, T_P);
            long double pw = psx_ld(cosine ? a + 1024 : a);
            cr_assert_eq((long double)psx, pw, "psx %s(%ld) = %d, want %.0Lf",
                         cosine ? "cos" : "sin", a, psx, pw);
            cr_assert_not(cosine ? ref_pose_cos_near((int16_t)a, T_P)
                                 : ref_pose_sin_near((int16_t)a, T_P));
        }
    /* No 4096 sin / cos of an s16 angle comes within 2^-20 of k + 0.5, nor of a non-zero
     * integer; floor sees the zero crossings (sin at multiples of 2048, cos at odd
     * multiples of 1024, except exact zeros): there are some. */
    cr_assert_eq(flagged[0], 0);
    cr_assert_eq(flagged[1], 0);
    cr_assert_gt(flagged[2], 0);
    cr_assert(ref_pose_sin_near(2048, T_F), "sin(2048) = 5e-13 sits on floor's boundary 0");
    cr_assert(ref_pose_cos_near(3072, T_F));
    cr_assert_not(ref_pose_sin_near(2048, T_T), "trunc is continuous at 0");
    cr_assert_not(ref_pose_sin_near(0, T_F), "sin(0) is exactly 0");
    cr_assert_not(ref_pose_cos_near(2048, T_F), "cos(2048) is exactly -4096");
}

/* ---- the Copy5 product ---- */

Test(pose_math, copy5_product_ties_go_to_even_floor_goes_down)
{
    /* A = 0.5 I: each cell is b / 2. 1 -> 0.5: even 0, floor 0; 3 -> 1.5: 2 / 1;
     * -1 -> -0.5: 0 / -1; 5 -> 2.5: 2 / 2; -3 -> -1.5: -2 / -2; 7 -> 3.5: 4 / 3;
     * -5 -> -2.5: -2 / -3; 2 -> 1: 1 / 1; -7 -> -3.5: -4 / -4. */
    static const int16_t a[3][3] = {{2048, 0, 0}, {0, 2048, 0}, {0, 0, 2048}};
    static const int16_t b[3][3] = {{1, 3, -1}, {5, -3, 7}, {-5, 2, -7}};
    static const int16_t even[3][3] = {{0, 2, 0}, {2, -2, 4}, {-2, 1, -4}};
    static const int16_t down[3][3] = {{0, 1, -1}, {2, -2, 3}, {-3, 1, -4}};
    int16_t out[3][3];
    ref_pose_mul(a, b, REF_STEP_NEAREST_EVEN, out);
    tb_assert_m(out, even, "nearest-even");
    ref_pose_mul(a, b, REF_STEP_FLOOR, out);
    tb_assert_m(out, down, "floor");
    /* non-ties: 3000 x 3 / 4096 = 2.197: 2 / 2; x -3: -2.197: -2 / -3; a row
     * (1000, 2000, 3000) . (1, 1, 1) = 6000 / 4096 = 1.46: 1 / 1 */
    static const int16_t c[3][3] = {{3000, 0, 0}, {0, 3000, 0}, {1000, 2000, 3000}};
    static const int16_t d[3][3] = {{3, 0, 1}, {0, -3, 1}, {0, 0, 1}};
    static const int16_t ceven[3][3] = {{2, 0, 1}, {0, -2, 1}, {1, -1, 1}};
    static const int16_t cdown[3][3] = {{2, 0, 0}, {0, -3, 0}, {0, -2, 1}};
    /* (0,2): 3000 / 4096 = 0.73: 1 / 0; (1,2) the same; row2: 3000 -> 0.73: 1 / 0;
     * -6000 -> -1.46: -1 / -2; 6000 -> 1.46: 1 / 1 */
    ref_pose_mul(c, d, REF_STEP_NEAREST_EVEN, out);
    tb_assert_m(out, ceven, "nearest-even, no ties");
    ref_pose_mul(c, d, REF_STEP_FLOOR, out);
    tb_assert_m(out, cdown, "floor, no ties");
}

Test(pose_math, copy5_product_wraps_to_s16_and_never_saturates)
{
    int16_t out[3][3];
    /* all 32767: 3 x 32767^2 = 3221028867 = 4096 x 786384 + 3: 786384 in both
     * roundings; 786384 - 12 x 65536 = -48. (A 32-bit sum first would wrap by 2^32,
     * i.e. 2^20 after / 4096: the same s16.) */
    int16_t p[3][3], n[3][3];
    for (int i = 0; i < 9; i++) {
        p[i / 3][i % 3] = 32767;
        n[i / 3][i % 3] = -32768;
    }
    for (int s = 0; s < 2; s++) {
        ref_pose_mul(p, p, (ref_pose_step)s, out);
        for (int i = 0; i < 9; i++)
            cr_assert_eq(out[i / 3][i % 3], -48, "32767s step %d", s);
        /* -32768^2 x 3 = 3 x 2^30 = 786432 x 4096; 786432 = 12 x 65536: 0 */
        ref_pose_mul(n, n, (ref_pose_step)s, out);
        for (int i = 0; i < 9; i++)
            cr_assert_eq(out[i / 3][i % 3], 0, "-32768s step %d", s);
        /* -3 x 32768 x 32767 / 4096 = -786408 exactly; + 12 x 65536 = 24 */
        ref_pose_mul(n, p, (ref_pose_step)s, out);
        for (int i = 0; i < 9; i++)
            cr_assert_eq(out[i / 3][i % 3], 24, "mixed step %d", s);
    }
    /* 2.0 x 20000 = 40000 -> -25536; 2.0 x -20000 -> 25536; 2.0 x 16384 = 32768 -> -32768 */
    static const int16_t two[3][3] = {{8192, 0, 0}, {0, 8192, 0}, {0, 0, 8192}};
    static const int16_t big[3][3] = {{20000, 0, 0}, {0, -20000, 0}, {0, 0, 16384}};
    static const int16_t want[3][3] = {{-25536, 0, 0}, {0, 25536, 0}, {0, 0, -32768}};
    ref_pose_mul(two, big, REF_STEP_NEAREST_EVEN, out);
    tb_assert_m(out, want, "past 32767");
}

Test(pose_math, copy5_product_may_alias_its_inputs)
{
    int16_t a[3][3] = {{0, -4096, 0}, {4096, 0, 0}, {0, 0, 4096}}; /* Rz 90 */
    int16_t b[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    /* Rz90 . b: row0 = -row1 of b, row1 = row0 of b, row2 = row2 of b */
    static const int16_t want[3][3] = {{-4, -5, -6}, {1, 2, 3}, {7, 8, 9}};
    ref_pose_mul(a, b, REF_STEP_NEAREST_EVEN, b);
    tb_assert_m(b, want, "out = b");
    int16_t c[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    ref_pose_mul(a, c, REF_STEP_NEAREST_EVEN, a);
    tb_assert_m(a, want, "out = a");
}

/* ---- rotations ---- */

Test(pose_math, axis_matrices_in_the_psyq_sign_convention)
{
    int16_t m[3][3];
    static const int16_t rx[3][3] = {{4096, 0, 0}, {0, 0, -4096}, {0, 4096, 0}};
    static const int16_t ry[3][3] = {{0, 0, 4096}, {0, 4096, 0}, {-4096, 0, 0}};
    static const int16_t rz[3][3] = {{0, -4096, 0}, {4096, 0, 0}, {0, 0, 4096}};
    ref_pose_axis(0, 1024, T_N, m);
    tb_assert_m(m, rx, "Rx(1024)");
    ref_pose_axis(1, 1024, T_N, m);
    tb_assert_m(m, ry, "Ry(1024)");
    ref_pose_axis(2, 1024, T_N, m);
    tb_assert_m(m, rz, "Rz(1024)");
    /* Rz(-1) under floor: c 4095, s -7 */
    static const int16_t rzf[3][3] = {{4095, 7, 0}, {-7, 4095, 0}, {0, 0, 4096}};
    ref_pose_axis(2, -1, T_F, m);
    tb_assert_m(m, rzf, "Rz(-1) floor");
    static const int16_t id[3][3] = {{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}};
    ref_pose_axis(3, 1024, T_N, m);
    tb_assert_m(m, id, "no such axis");
}

Test(pose_math, rotation_order_puts_the_rightmost_axis_first)
{
    /* Quarter turns (c 0, s 1): Rx.Ry = [[0,0,1],[1,0,0],[0,1,0]],
     * Ry.Rx = [[0,1,0],[0,0,-1],[-1,0,0]]; with z too: Rx.Ry.Rz =
     * [[0,0,1],[0,-1,0],[1,0,0]], Rz.Ry.Rx = [[0,0,1],[0,1,0],[-1,0,0]]. */
    static const struct {
        int16_t ang[3];
        ref_pose_order order;
        int16_t want[3][3];
    } c[] = {
        {{1024, 1024, 0}, REF_ORDER_XYZ, {{0, 0, 4096}, {4096, 0, 0}, {0, 4096, 0}}},
        {{1024, 1024, 0}, REF_ORDER_YXZ, {{0, 4096, 0}, {0, 0, -4096}, {-4096, 0, 0}}},
        {{1024, 1024, 0}, REF_ORDER_YZX, {{0, 4096, 0}, {0, 0, -4096}, {-4096, 0, 0}}},
        {{1024, 1024, 1024}, REF_ORDER_XYZ, {{0, 0, 4096}, {0, -4096, 0}, {4096, 0, 0}}},
        {{1024, 1024, 1024}, REF_ORDER_ZYX, {{0, 0, 4096}, {0, 4096, 0}, {-4096, 0, 0}}},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        int16_t m[3][3];
        ref_pose_rotation(c[i].ang, c[i].order, T_N, REF_STEP_NEAREST_EVEN, m);
        tb_assert_m(m, c[i].want, "order case");
    }
    cr_assert_eq(ref_pose_order_axis(REF_ORDER_ZXY, 0), 2);
    cr_assert_eq(ref_pose_order_axis(REF_ORDER_ZXY, 2), 1);
    cr_assert_eq(ref_pose_order_axis(REF_ORDER__COUNT, 0), -1);
}

Test(pose_math, rotation_rounds_each_step)
{
    /* y = z = 512: c = s = 2896. xyz: Rz, then Ry.Rz: row0 (c,0,s) . columns of Rz:
     * c^2 / 4096 = 8386816 / 4096 = 2047.5 (even 2048, floor 2047); -c s: -2047.5
     * (-2048 both); s: 2896. row1 (s, c, 0). row2 (-s,0,c): -2047.5, 2047.5, 2896.
     * Rx(0) leaves it. zyx: Ry, then Rz.Ry: row0 (c,-s,0): 2047.5, -2896, 2047.5;
     * row1 (s,c,0): 2047.5, 2896, 2047.5; row2 (-s, 0, c). */
    static const int16_t ang[3] = {0, 512, 512};
    static const int16_t xyz_even[3][3] = {
        {2048, -2048, 2896}, {2896, 2896, 0}, {-2048, 2048, 2896}};
    static const int16_t xyz_floor[3][3] = {
        {2047, -2048, 2896}, {2896, 2896, 0}, {-2048, 2047, 2896}};
    static const int16_t zyx_even[3][3] = {
        {2048, -2896, 2048}, {2048, 2896, 2048}, {-2896, 0, 2896}};
    static const int16_t zyx_floor[3][3] = {
        {2047, -2896, 2047}, {2047, 2896, 2047}, {-2896, 0, 2896}};
    int16_t m[3][3];
    ref_pose_rotation(ang, REF_ORDER_XYZ, T_N, REF_STEP_NEAREST_EVEN, m);
    tb_assert_m(m, xyz_even, "xyz nearest-even");
    ref_pose_rotation(ang, REF_ORDER_XYZ, T_N, REF_STEP_FLOOR, m);
    tb_assert_m(m, xyz_floor, "xyz floor");
    ref_pose_rotation(ang, REF_ORDER_ZYX, T_N, REF_STEP_NEAREST_EVEN, m);
    tb_assert_m(m, zyx_even, "zyx nearest-even");
    ref_pose_rotation(ang, REF_ORDER_ZYX, T_N, REF_STEP_FLOOR, m);
    tb_assert_m(m, zyx_floor, "zyx floor");
    /* z = -1 only: Rz(-1) in every order, its cells per trig (see the sin/cos table) */
    static const int16_t z1[3] = {0, 0, -1};
    static const int16_t zw[4][3][3] = {
        {{4096, 6, 0}, {-6, 4096, 0}, {0, 0, 4096}},
        {{4095, 6, 0}, {-6, 4095, 0}, {0, 0, 4096}},
        {{4095, 7, 0}, {-7, 4095, 0}, {0, 0, 4096}},
        {{4096, 6, 0}, {-6, 4096, 0}, {0, 0, 4096}},
    };
    for (int t = 0; t < 4; t++)
        for (int o = 0; o < 6; o++) {
            ref_pose_rotation(z1, (ref_pose_order)o, (ref_pose_trig)t, REF_STEP_NEAREST_EVEN, m);
            tb_assert_m(m, zw[t], "Rz(-1)");
        }
}

/* ---- (M.v) >> 12, Compose, the scale path ---- */

Test(pose_math, apply_shifts_down_and_wraps_in_32_bits)
{
    static const int16_t id[3][3] = {{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}};
    int32_t out[3];
    ref_pose_apply(id, (const int16_t[3]){1, -1, 32767}, REF_WIDTH_32, out);
    cr_assert(out[0] == 1 && out[1] == -1 && out[2] == 32767);
    /* 3000 x -5 = -15000; / 4096 = -3.66: -4 (arithmetic shift) */
    static const int16_t m[3][3] = {{3000, 0, 0}, {32767, 32767, 32767}, {-32768, -32768, -32768}};
    /* row1 . (32767 x 3) = 3221028867, as s32 -1073938429, >> 12: -262192 (-262191.9993);
     * row2 . (-32768 x 3) = 3 x 2^30 = 3221225472, as s32 -2^30, >> 12: -262144 */
    ref_pose_apply(m, (const int16_t[3]){-5, 0, 0}, REF_WIDTH_32, out);
    cr_assert_eq(out[0], -4);
    ref_pose_apply(m, (const int16_t[3]){32767, 32767, 32767}, REF_WIDTH_32, out);
    cr_assert_eq(out[1], -262192, "%d", out[1]);
    ref_pose_apply(m, (const int16_t[3]){-32768, -32768, -32768}, REF_WIDTH_32, out);
    cr_assert_eq(out[2], -262144, "%d", out[2]);
}

Test(pose_math, apply_in_64_bits_is_exact)
{
    /* The sums above, exact: 3221028867 >> 12 = 786384 (786384.0007) and
     * 3 x 2^30 >> 12 = 786432, each 2^32 >> 12 = 2^20 above the wrapped one;
     * -15000 >> 12 is -4 in both widths. */
    static const int16_t m[3][3] = {{3000, 0, 0}, {32767, 32767, 32767}, {-32768, -32768, -32768}};
    int32_t out[3];
    ref_pose_apply(m, (const int16_t[3]){-5, 0, 0}, REF_WIDTH_64, out);
    cr_assert_eq(out[0], -4);
    ref_pose_apply(m, (const int16_t[3]){32767, 32767, 32767}, REF_WIDTH_64, out);
    cr_assert_eq(out[1], 786384, "%d", out[1]);
    ref_pose_apply(m, (const int16_t[3]){-32768, -32768, -32768}, REF_WIDTH_64, out);
    cr_assert_eq(out[2], 786432, "%d", out[2]);
    /* One non-zero component (BuildBoneMatrices' offsets): the widths agree everywhere. */
    for (int32_t c = -32768; c <= 32767; c += 4369)
        for (int32_t l = -32768; l <= 32767; l += 4369) {
            const int16_t mc[3][3] = {{0, (int16_t)c, 0}, {(int16_t)c, 0, 0}, {0, 0, (int16_t)c}};
            const int16_t v[3] = {0, (int16_t)l, 0};
            int32_t a[3], b[3];
            ref_pose_apply(mc, v, REF_WIDTH_32, a);
            ref_pose_apply(mc, v, REF_WIDTH_64, b);
            cr_assert(a[0] == b[0] && a[1] == b[1] && a[2] == b[2], "cell %d, length %d", c, l);
        }
}

static void assert_t(const int32_t t[3], int32_t x, int32_t y, int32_t z, const char *what)
{
    cr_assert(t[0] == x && t[1] == y && t[2] == z, "%s: t (%d, %d, %d), want (%d, %d, %d)", what,
              t[0], t[1], t[2], x, y, z);
}

Test(pose_math, compose_multiplies_and_carries_the_translation)
{
    /* a = Rz90, t (100, 200, 300); b = I, t (4096, 0, 8):
     * m = a.m; t = a.m.(4096, 0, 8) >> 12 + a.t = (0, 4096, 8) + a.t */
    ref_matrix a = {{{0, -4096, 0}, {4096, 0, 0}, {0, 0, 4096}}, {100, 200, 300}};
    ref_matrix b = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {4096, 0, 8}};
    ref_matrix out;
    ref_pose_compose(&a, &b, REF_STEP_NEAREST_EVEN, REF_WIDTH_32, &out);
    tb_assert_m(out.m, a.m, "a.I");
    assert_t(out.t, 100, 4296, 308, "Rz90");
    /* b.t (-5, 0, 0) under a.m[0][0] = 3000: -15000 >> 12 = -4 */
    ref_matrix c = {{{3000, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {0, 0, 0}};
    ref_matrix d = {{{2048, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {-5, 0, 0}};
    /* m[0][0] = 3000 x 2048 / 4096 = 1500 exactly */
    ref_pose_compose(&c, &d, REF_STEP_FLOOR, REF_WIDTH_32, &out);
    assert_t(out.t, -4, 0, 0, "floor of a negative");
    cr_assert_eq(out.m[0][0], 1500);
    /* out may alias: b = compose(a, b) */
    ref_pose_compose(&a, &b, REF_STEP_NEAREST_EVEN, REF_WIDTH_32, &b);
    assert_t(b.t, 100, 4296, 308, "aliased");
}

Test(pose_math, compose_translation_wraps_in_32_bits)
{
    /* 4096 x 2^20 = 2^32 wraps to 0: t = a.t; 4096 x 3 >> 12 = 3 */
    ref_matrix a = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {0, 0, 0}};
    ref_matrix b = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {1 << 20, -(1 << 20), 3}};
    ref_matrix out;
    ref_pose_compose(&a, &b, REF_STEP_NEAREST_EVEN, REF_WIDTH_32, &out);
    assert_t(out.t, 0, 0, 3, "products wrap");
    /* INT32_MAX + 1 -> INT32_MIN; INT32_MIN + (-1) -> INT32_MAX */
    a.t[0] = INT32_MAX;
    a.t[1] = INT32_MIN;
    b.t[0] = 1; /* 4096 x 1 >> 12 = 1 */
    b.t[1] = -1;
    b.t[2] = 0;
    ref_pose_compose(&a, &b, REF_STEP_NEAREST_EVEN, REF_WIDTH_32, &out);
    assert_t(out.t, INT32_MIN, INT32_MAX, 0, "sums wrap");
}

Test(pose_math, compose_translation_in_64_bits_is_exact)
{
    /* 4096 x 2^20 = 2^32 exact: >> 12 = 2^20 (the 32-bit sum wrapped to 0);
     * the addition of a.t still wraps in 32 bits (shrd keeps the low word). */
    ref_matrix a = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {0, 0, 0}};
    ref_matrix b = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {1 << 20, -(1 << 20), 3}};
    ref_matrix out;
    ref_pose_compose(&a, &b, REF_STEP_NEAREST_EVEN, REF_WIDTH_64, &out);
    assert_t(out.t, 1 << 20, -(1 << 20), 3, "exact products");
    /* 8192 x 300000 = 2457600000 passes 2^31: >> 12 is 600000 exact, 600000 - 2^20
     * wrapped, then + 7. t.z: 4096 x 1 >> 12 = 1 added to INT32_MAX wraps to
     * INT32_MIN in both widths (the addition is 32-bit). */
    ref_matrix c = {{{8192, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {7, 0, INT32_MAX}};
    ref_matrix d = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {300000, 0, 1}};
    ref_pose_compose(&c, &d, REF_STEP_NEAREST_EVEN, REF_WIDTH_64, &out);
    assert_t(out.t, 600007, 0, INT32_MIN, "64 bits");
    ref_pose_compose(&c, &d, REF_STEP_NEAREST_EVEN, REF_WIDTH_32, &out);
    assert_t(out.t, 600007 - (1 << 20), 0, INT32_MIN, "32 bits: 2^20 below");
}

Test(pose_math, scale_columns_shift_down_and_wrap)
{
    /* v = (8192, 6000, 131072). col0: 4096 -> 8192; 32767 x 8192 = 268427264 >> 12
     * = 65534 -> s16 -2; 1 -> 2. col1: 3 x 6000 = 18000 >> 12 = 4 (4.39); 0; -18000 >> 12
     * = -5 (-4.39). col2: -3 x 2^17 >> 12 = -96; 4096 x 2^17 = 2^29 >> 12 = 2^17 -> s16 0;
     * 32767 x 2^17 = 2^32 - 2^17 wraps to -131072, >> 12 = -32. (The 32-bit wrap moves
     * the result by a multiple of 2^20, which the s16 store cannot see; saturating
     * anywhere would: 32767 in (1,0) and (2,2).) */
    int16_t m[3][3] = {{4096, 3, -3}, {32767, 0, 4096}, {1, -3, 32767}};
    static const int16_t want[3][3] = {{8192, 4, -96}, {-2, 0, 0}, {2, -5, -32}};
    ref_pose_scale_columns(m, (const int32_t[3]){8192, 6000, 131072});
    tb_assert_m(m, want, "scaled");
}

Test(pose_math, scale_vectors_wrap_in_32_bits_or_not_in_64)
{
    int32_t v[3], w[3];
    /* root: s << 2 */
    ref_pose_scale_root((const int16_t[3]){1024, -32768, 32767}, v);
    assert_t(v, 4096, -131072, 131068, "root");
    /* child: 32767 x 131068 = 4294705156, as s32 -262140, >> 10 = -256 (-255.996);
     * -32768 x -131072 = 2^32 wraps to 0; 1024 x 4096 >> 10 = 4096 */
    ref_pose_scale_child((const int16_t[3]){32767, -32768, 1024},
                         (const int32_t[3]){131068, -131072, 4096}, REF_WIDTH_32, w);
    assert_t(w, -256, 0, 4096, "child, wrapping");
    /* exact: 4294705156 >> 10 = 4194048 (4194048.004); 2^32 >> 10 = 2^22 */
    ref_pose_scale_child((const int16_t[3]){32767, -32768, 1024},
                         (const int32_t[3]){131068, -131072, 4096}, REF_WIDTH_64, w);
    assert_t(w, 4194048, 4194304, 4096, "child, 64 bits");
    /* 1025 x 4096 >> 10 = 4100; 512 -> 2048; -1024 -> -4096 */
    for (int k = 0; k < REF_WIDTH__COUNT; k++) {
        ref_pose_scale_child((const int16_t[3]){1025, 512, -1024},
                             (const int32_t[3]){4096, 4096, 4096}, (ref_pose_width)k, w);
        assert_t(w, 4100, 2048, -4096, "child");
    }
}

Test(pose_math, root_translation_and_offset_vectors)
{
    int32_t t[3];
    /* 10 x 100 = 1000 >> 8 = 3 (3.9); -300 >> 8 = -2 (-1.17); 32767 x 100 = 3276700 >> 8 = 12799 */
    ref_pose_root_translation((const int16_t[3]){10, -3, 32767}, 100, t);
    assert_t(t, 3, -2, 12799, "root");
    /* -32768 x -32768 = 2^30 >> 8 = 2^22 */
    ref_pose_root_translation((const int16_t[3]){-32768, 0, 1}, -32768, t);
    assert_t(t, 4194304, 0, -128, "extremes");
    static const struct {
        ref_pose_offset o;
        int16_t len, v[3];
    } c[] = {
        {REF_OFFSET_PZ, 100, {0, 0, 100}},    {REF_OFFSET_NZ, 100, {0, 0, -100}},
        {REF_OFFSET_PY, 100, {0, 100, 0}},    {REF_OFFSET_NY, 100, {0, -100, 0}},
        {REF_OFFSET_PX, 100, {100, 0, 0}},    {REF_OFFSET_NX, 100, {-100, 0, 0}},
        {REF_OFFSET_NX, -5, {5, 0, 0}},       {REF_OFFSET_NZ, -32768, {0, 0, -32768}},
        {(ref_pose_offset)6, 100, {0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        int16_t v[3];
        ref_pose_offset_vector(c[i].o, c[i].len, v);
        cr_assert(v[0] == c[i].v[0] && v[1] == c[i].v[1] && v[2] == c[i].v[2],
                  "offset %d length %d: (%d, %d, %d)", c[i].o, c[i].len, v[0], v[1], v[2]);
    }
}

Test(pose_math, matrix_bytes_skip_the_pad)
{
    uint8_t buf[32];
    memset(buf, 0xA5, sizeof buf);
    ref_matrix m = {{{1, 2, 3}, {4, 5, 6}, {7, 8, -2}}, {0x11223344, -1, 2}};
    ref_matrix_store(buf, &m);
    static const uint8_t want[32] = {
        1,    0,    2,    0,    3,    0,    4,    0,    5,    0,    6,    0,    7, 0, 8, 0,
        0xFE, 0xFF, 0xA5, 0xA5, 0x44, 0x33, 0x22, 0x11, 0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0};
    ts_assert_mem(buf, want, sizeof want, "stored MATRIX");
    ref_matrix back;
    ref_matrix_load(buf, &back);
    cr_assert_eq(memcmp(back.m, m.m, sizeof m.m), 0);
    cr_assert_eq(memcmp(back.t, m.t, sizeof m.t), 0);
}
