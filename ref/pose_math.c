/*
 * ref/pose_math.c: the fixed-point helpers of BuildBoneMatrices (docs/pose.md
 * section 2) as pure functions on plain values: sin / cos per trig option,
 * the Copy5 product, axis and local rotations, (M.v) >> 12, Compose, the
 * scale path, the root translation and the offset vector, and the MATRIX
 * byte layout.
 *
 * Integer work outside the x87 products wraps in 32 bits like the game's
 * imul / add / sar: it is done on uint32_t (defined wrap) and converted back
 * without implementation-defined casts, so nothing here is undefined
 * behaviour for any input. The sums of products whose width is a choice
 * (REF_POSE_WIDTH_MAP) are done either that way or exactly in 64 bits
 * (|sum| < 3 * 2^46), floored by the shift, their low 32 bits kept. The x87 products are exact sums rounded once.
 * Nothing here depends on the floating-point rounding mode.
 */
#include "common/le.h"
#include "ref/dat.h"
#include "ref/pose.h"
#include "ref/pose_wrap.h"

#include <math.h>
#include <string.h>

/* pi / 2048 = 2 pi / 4096, the double the angle is multiplied by. */
static const double ANGLE_STEP = 3.14159265358979323846 / 2048.0;
/* The emulation limit: 2^-20 (docs/pose.md section 4). */
static const double NEAR_LIMIT = 1.0 / 1048576.0;

/* ---- MATRIX bytes ---- */

void ref_matrix_load(const uint8_t *p, ref_matrix *out)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out->m[i][j] = le_s16(p + 2 * (3 * i + j));
    for (int k = 0; k < 3; k++)
        out->t[k] = le_s32(p + 20 + 4 * k);
}

void ref_matrix_store(uint8_t *p, const ref_matrix *in)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            le_put16(p + 2 * (3 * i + j), (uint16_t)in->m[i][j]);
    for (int k = 0; k < 3; k++)
        le_put32(p + 20 + 4 * k, (uint32_t)in->t[k]);
}

void ref_pose_bone_load(const uint8_t *skel, unsigned b, ref_matrix *out)
{
    ref_matrix_load(skel + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b + 0x10, out);
}

/* ---- sin and cos ---- */

/* 4096 sin (or cos) of the angle, computed in double as the x87 options say. */
static double x87_value(int16_t a, int cosine)
{
    double x = (double)a * ANGLE_STEP;
    return (cosine ? cos(x) : sin(x)) * 4096.0;
}

static int32_t round_nearest_even(double v)
{
    double f = floor(v), d = v - f;
    if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0)) f += 1.0;
    return (int32_t)f;
}

/* The quarter wave T[i] = floor(4096 sin(2 pi i / 4096) + 0.5), i = 0..1024. */
static int32_t psx_quarter(unsigned i)
{
    return (int32_t)floor(4096.0 * sin((double)i * ANGLE_STEP) + 0.5);
}

/* rsin over the four quadrants of r & 4095. */
static int32_t psx_sin(unsigned r)
{
    r &= 4095u;
    if (r <= 1024u) return psx_quarter(r);
    if (r < 2048u) return psx_quarter(2048u - r);
    if (r <= 3072u) return -psx_quarter(r - 2048u);
    return -psx_quarter(4096u - r);
}

static int32_t trig(int16_t a, ref_pose_trig t, int cosine)
{
    switch (t) {
    case REF_TRIG_X87_NEAREST:
        return round_nearest_even(x87_value(a, cosine));
    case REF_TRIG_X87_TRUNC:
        return (int32_t)trunc(x87_value(a, cosine));
    case REF_TRIG_X87_FLOOR:
        return (int32_t)floor(x87_value(a, cosine));
    case REF_TRIG_PSX_TABLE:
        return psx_sin((unsigned)(uint16_t)a + (cosine ? 1024u : 0u));
    default:
        return 0;
    }
}

int32_t ref_pose_sin(int16_t a, ref_pose_trig t)
{
    return trig(a, t, 0);
}

int32_t ref_pose_cos(int16_t a, ref_pose_trig t)
{
    return trig(a, t, 1);
}

int ref_trig_table_fill(ref_trig_table *t, ref_pose_trig trig)
{
    if ((unsigned)trig >= REF_TRIG__COUNT) return -1;
    t->trig = trig;
    for (uint32_t i = 0; i < 65536u; i++) {
        int16_t a = (int16_t)(uint16_t)i;
        t->sin[i] = (int16_t)ref_pose_sin(a, trig);
        t->cos[i] = (int16_t)ref_pose_cos(a, trig);
    }
    return 0;
}

static int near_boundary(int16_t a, ref_pose_trig t, int cosine)
{
    if (t != REF_TRIG_X87_NEAREST && t != REF_TRIG_X87_TRUNC && t != REF_TRIG_X87_FLOOR) return 0;
    double v = x87_value(a, cosine);
    if (t == REF_TRIG_X87_NEAREST) return fabs(v - floor(v) - 0.5) <= NEAR_LIMIT;
    double k = floor(v + 0.5); /* the nearest integer */
    if (v == k) return 0;      /* exact: 0 and +-1 at the quarter turns */
    if (t == REF_TRIG_X87_TRUNC && k == 0.0) return 0;
    return fabs(v - k) <= NEAR_LIMIT;
}

int ref_pose_sin_near(int16_t a, ref_pose_trig t)
{
    return near_boundary(a, t, 0);
}

int ref_pose_cos_near(int16_t a, ref_pose_trig t)
{
    return near_boundary(a, t, 1);
}

/* ---- products ---- */

/*
 * sum / 4096 rounded as nearest (1: to nearest-even, 0: down), wrapped to s16,
 * without a branch, from the sum's low 32 bits: the cell keeps bits 0..27 of the sum
 * only (the remainder, then 16 bits of the quotient), and those are exact in
 * wrapping 32-bit arithmetic whatever the true sum's width, so the products
 * can be summed in 32-bit lanes the compiler vectorises.
 */
static inline int16_t round_cell32(uint32_t sum, uint32_t nearest)
{
    uint32_t r = sum & 4095u, q = sum >> 12;
    uint32_t up = (uint32_t)(r > 2048u) | ((uint32_t)(r == 2048u) & q & 1u);
    return (int16_t)(uint16_t)((q + (up & nearest)) & 0xFFFFu);
}

void ref_pose_mul(const int16_t a[3][3], const int16_t b[3][3], ref_pose_step step,
                  int16_t out[3][3])
{
    int16_t r[3][3];
    uint32_t nearest = step == REF_STEP_NEAREST_EVEN;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = round_cell32((uint32_t)((int32_t)a[i][0] * b[0][j]) +
                                       (uint32_t)((int32_t)a[i][1] * b[1][j]) +
                                       (uint32_t)((int32_t)a[i][2] * b[2][j]),
                                   nearest);
    memcpy(out, r, sizeof r);
}

static void identity(int16_t m[3][3])
{
    memset(m, 0, 9 * sizeof m[0][0]);
    m[0][0] = m[1][1] = m[2][2] = 4096;
}

/* The axis matrix of ref_pose_axis from its cos and sin. */
static void axis_of(int axis, int16_t c, int16_t s, int16_t out[3][3])
{
    identity(out);
    if (axis < 0 || axis > 2) return;
    int16_t ns = (int16_t)-s;
    switch (axis) {
    case 0: /* Rx */
        out[1][1] = c, out[1][2] = ns, out[2][1] = s, out[2][2] = c;
        break;
    case 1: /* Ry */
        out[0][0] = c, out[0][2] = s, out[2][0] = ns, out[2][2] = c;
        break;
    default: /* Rz */
        out[0][0] = c, out[0][1] = ns, out[1][0] = s, out[1][1] = c;
        break;
    }
}

void ref_pose_axis(int axis, int16_t a, ref_pose_trig t, int16_t out[3][3])
{
    axis_of(axis, (int16_t)ref_pose_cos(a, t), (int16_t)ref_pose_sin(a, t), out);
}

/* ref_pose_axis, from the table when it holds t's values. */
static void axis_table(int axis, int16_t a, ref_pose_trig t, const ref_trig_table *table,
                       int16_t out[3][3])
{
    if (table && table->trig == t)
        axis_of(axis, table->cos[(uint16_t)a], table->sin[(uint16_t)a], out);
    else
        ref_pose_axis(axis, a, t, out);
}

/* The axes of each order, left to right: "xyz" is R = Rx.Ry.Rz. */
static const uint8_t order_axes[REF_ORDER__COUNT][3] = {
    [REF_ORDER_XYZ] = {0, 1, 2}, [REF_ORDER_XZY] = {0, 2, 1}, [REF_ORDER_YXZ] = {1, 0, 2},
    [REF_ORDER_YZX] = {1, 2, 0}, [REF_ORDER_ZXY] = {2, 0, 1}, [REF_ORDER_ZYX] = {2, 1, 0},
};

int ref_pose_order_axis(ref_pose_order order, int k)
{
    if ((unsigned)order >= REF_ORDER__COUNT || k < 0 || k > 2) return -1;
    return order_axes[order][k];
}

/*
 * ref_pose_mul(r, m) for r an axis matrix of axis (ref_pose_axis: 4096 on
 * its own row and column, c and s on the other two): the same sums without
 * their zero terms, so the same cells. Row axis is 4096 m[axis] / 4096,
 * exactly m[axis] under either rounding.
 */
static void mul_axis(int axis, const int16_t r[3][3], const int16_t m[3][3], ref_pose_step step,
                     int16_t out[3][3])
{
    int16_t o[3][3];
    uint32_t nearest = step == REF_STEP_NEAREST_EVEN;
    int p = (axis + 1) % 3, q = (axis + 2) % 3;
    for (int j = 0; j < 3; j++) {
        o[axis][j] = m[axis][j];
        o[p][j] = round_cell32((uint32_t)((int32_t)r[p][p] * m[p][j]) +
                                   (uint32_t)((int32_t)r[p][q] * m[q][j]),
                               nearest);
        o[q][j] = round_cell32((uint32_t)((int32_t)r[q][p] * m[p][j]) +
                                   (uint32_t)((int32_t)r[q][q] * m[q][j]),
                               nearest);
    }
    memcpy(out, o, sizeof o);
}

void ref_pose_rotation_table(const int16_t ang[3], ref_pose_order order, ref_pose_trig trig,
                             ref_pose_step step, const ref_trig_table *table, int16_t out[3][3])
{
    int16_t m[3][3], r[3][3];
    if ((unsigned)order >= REF_ORDER__COUNT) {
        identity(out);
        return;
    }
    /* The first product, Rc . I, is exact under either rounding: Rc itself. */
    int axis = ref_pose_order_axis(order, 2);
    axis_table(axis, ang[axis], trig, table, m);
    for (int k = 1; k >= 0; k--) {
        axis = ref_pose_order_axis(order, k);
        axis_table(axis, ang[axis], trig, table, r);
        mul_axis(axis, r, m, step, m);
    }
    memcpy(out, m, sizeof m);
}

void ref_pose_rotation(const int16_t ang[3], ref_pose_order order, ref_pose_trig trig,
                       ref_pose_step step, int16_t out[3][3])
{
    ref_pose_rotation_table(ang, order, trig, step, NULL, out);
}

/* Low 32 bits of floor(sum / 2^n) for an exact sum (the 64-bit width's shrd). */
static int32_t shift64(int64_t sum, int n)
{
    int64_t r = (int64_t)((uint64_t)sum & ((1u << n) - 1u)); /* sum mod 2^n */
    int64_t q = (sum - r) / ((int64_t)1 << n);                /* an exact division */
    return pw_s32((uint32_t)((uint64_t)q & 0xFFFFFFFFu));
}

/* (a[0] b[0] + a[1] b[1] + a[2] b[2]) >> n in width w. */
static int32_t dot_shift(const int16_t a[3], const int32_t b[3], ref_pose_width w, int n)
{
    if (w == REF_WIDTH_64) {
        int64_t sum = 0;
        for (int k = 0; k < 3; k++)
            sum += (int64_t)a[k] * b[k];
        return shift64(sum, n);
    }
    uint32_t sum = 0;
    for (int k = 0; k < 3; k++)
        sum += pw_mul(a[k], b[k]);
    return pw_sar(sum, n);
}

void ref_pose_apply(const int16_t m[3][3], const int16_t v[3], ref_pose_width w, int32_t out[3])
{
    const int32_t v32[3] = {v[0], v[1], v[2]};
    for (int i = 0; i < 3; i++)
        out[i] = dot_shift(m[i], v32, w, 12);
}

void ref_pose_compose(const ref_matrix *a, const ref_matrix *b, ref_pose_step step,
                      ref_pose_width w, ref_matrix *out)
{
    ref_matrix r;
    ref_pose_mul(a->m, b->m, step, r.m);
    for (int i = 0; i < 3; i++)
        r.t[i] = pw_add(dot_shift(a->m[i], b->t, w, 12), a->t[i]);
    *out = r;
}

/* ---- the scale path, root translation, offset ---- */

void ref_pose_scale_columns(int16_t m[3][3], const int32_t v[3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = pw_s16((uint32_t)pw_sar(pw_mul(m[i][j], v[j]), 12));
}

void ref_pose_scale_root(const int16_t s[3], int32_t v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = pw_s32((uint32_t)s[k] << 2);
}

void ref_pose_scale_child(const int16_t s[3], const int32_t parent[3], ref_pose_width w,
                          int32_t v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = w == REF_WIDTH_64 ? shift64((int64_t)s[k] * parent[k], 10)
                                 : pw_sar(pw_mul(s[k], parent[k]), 10);
}

void ref_pose_root_translation(const int16_t root[3], int16_t model_scale, int32_t t[3])
{
    for (int k = 0; k < 3; k++)
        t[k] = pw_sar(pw_mul(root[k], model_scale), 8);
}

void ref_pose_offset_vector(ref_pose_offset offset, int16_t length, int16_t v[3])
{
    v[0] = v[1] = v[2] = 0;
    if ((unsigned)offset >= REF_OFFSET__COUNT) return;
    /* +z -z +y -y +x -x: axis 2, 2, 1, 1, 0, 0; odd values negate. */
    int axis = 2 - (int)offset / 2;
    v[axis] = (offset & 1) ? pw_s16(0u - (uint32_t)length) : length;
}
