/*
 * harness/gltf/gmath.c: affine maps, quaternions and the TRS
 * decomposition (gmath.h).
 */
#include "harness/gltf/gmath.h"

#include <math.h>
#include <string.h>

void gm_identity(gm_affine *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < 3; i++) m->a[i][i] = 1.0;
}

void gm_from_ref(const ref_matrix *r, gm_affine *out)
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out->a[i][j] = r->m[i][j] / 4096.0;
        out->t[i] = r->t[i];
    }
}

void gm_mul(const gm_affine *x, const gm_affine *y, gm_affine *out)
{
    gm_affine r;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            r.a[i][j] = x->a[i][0] * y->a[0][j] + x->a[i][1] * y->a[1][j] + x->a[i][2] * y->a[2][j];
        r.t[i] = x->a[i][0] * y->t[0] + x->a[i][1] * y->t[1] + x->a[i][2] * y->t[2] + x->t[i];
    }
    *out = r;
}

int gm_inverse(const gm_affine *m, gm_affine *out)
{
    const double(*a)[3] = m->a;
    double c[3][3] = {
        {a[1][1] * a[2][2] - a[1][2] * a[2][1], a[0][2] * a[2][1] - a[0][1] * a[2][2],
         a[0][1] * a[1][2] - a[0][2] * a[1][1]},
        {a[1][2] * a[2][0] - a[1][0] * a[2][2], a[0][0] * a[2][2] - a[0][2] * a[2][0],
         a[0][2] * a[1][0] - a[0][0] * a[1][2]},
        {a[1][0] * a[2][1] - a[1][1] * a[2][0], a[0][1] * a[2][0] - a[0][0] * a[2][1],
         a[0][0] * a[1][1] - a[0][1] * a[1][0]},
    };
    double det = a[0][0] * c[0][0] + a[0][1] * c[1][0] + a[0][2] * c[2][0];
    if (fabs(det) < 1e-12) {
        gm_identity(out);
        return -1;
    }
    gm_affine r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.a[i][j] = c[i][j] / det;
    for (int i = 0; i < 3; i++)
        r.t[i] = -(r.a[i][0] * m->t[0] + r.a[i][1] * m->t[1] + r.a[i][2] * m->t[2]);
    *out = r;
    return 0;
}

void gm_apply(const gm_affine *m, const double p[3], double out[3])
{
    double r[3];
    for (int i = 0; i < 3; i++)
        r[i] = m->a[i][0] * p[0] + m->a[i][1] * p[1] + m->a[i][2] * p[2] + m->t[i];
    memcpy(out, r, sizeof r);
}

void gm_quat_matrix(const double q[4], double r[3][3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    r[0][0] = 1 - 2 * (y * y + z * z);
    r[0][1] = 2 * (x * y - z * w);
    r[0][2] = 2 * (x * z + y * w);
    r[1][0] = 2 * (x * y + z * w);
    r[1][1] = 1 - 2 * (x * x + z * z);
    r[1][2] = 2 * (y * z - x * w);
    r[2][0] = 2 * (x * z - y * w);
    r[2][1] = 2 * (y * z + x * w);
    r[2][2] = 1 - 2 * (x * x + y * y);
}

/* A unit quaternion from a proper rotation matrix (Shepperd's method). */
static void quat_of(const double r[3][3], double q[4])
{
    double tr = r[0][0] + r[1][1] + r[2][2];
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        q[3] = 0.25 * s;
        q[0] = (r[2][1] - r[1][2]) / s;
        q[1] = (r[0][2] - r[2][0]) / s;
        q[2] = (r[1][0] - r[0][1]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        double s = sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2;
        q[3] = (r[2][1] - r[1][2]) / s;
        q[0] = 0.25 * s;
        q[1] = (r[0][1] + r[1][0]) / s;
        q[2] = (r[0][2] + r[2][0]) / s;
    } else if (r[1][1] > r[2][2]) {
        double s = sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2;
        q[3] = (r[0][2] - r[2][0]) / s;
        q[0] = (r[0][1] + r[1][0]) / s;
        q[1] = 0.25 * s;
        q[2] = (r[1][2] + r[2][1]) / s;
    } else {
        double s = sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2;
        q[3] = (r[1][0] - r[0][1]) / s;
        q[0] = (r[0][2] + r[2][0]) / s;
        q[1] = (r[1][2] + r[2][1]) / s;
        q[2] = 0.25 * s;
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++) q[i] /= n;
}

/* The nearest rotation to r (polar decomposition by averaging with the inverse transpose). */
static void orthonormalize(double r[3][3])
{
    for (int it = 0; it < 30; it++) {
        gm_affine m, inv;
        memcpy(m.a, r, sizeof m.a);
        memset(m.t, 0, sizeof m.t);
        if (gm_inverse(&m, &inv) < 0) return;
        double d = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double v = 0.5 * (r[i][j] + inv.a[j][i]);
                d = fmax(d, fabs(v - r[i][j]));
                r[i][j] = v;
            }
        if (d < 1e-15) return;
    }
}

double gm_decompose(const gm_affine *m, const double prev[4], gm_trs *out)
{
    memcpy(out->t, m->t, sizeof out->t);
    const double(*a)[3] = m->a;
    double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                 a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                 a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    double r[3][3];
    for (int j = 0; j < 3; j++) {
        double len = sqrt(a[0][j] * a[0][j] + a[1][j] * a[1][j] + a[2][j] * a[2][j]);
        if (j == 0 && det < 0) len = -len;
        out->s[j] = len;
        for (int i = 0; i < 3; i++) r[i][j] = len != 0 ? a[i][j] / len : (i == j);
    }
    orthonormalize(r);
    quat_of(r, out->q);
    double dot = prev ? prev[0] * out->q[0] + prev[1] * out->q[1] + prev[2] * out->q[2] +
                            prev[3] * out->q[3]
                      : out->q[3];
    if (dot < 0)
        for (int i = 0; i < 4; i++) out->q[i] = -out->q[i];
    gm_affine back;
    gm_from_trs(out, &back);
    double e = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) e = fmax(e, fabs(back.a[i][j] - a[i][j]));
    return e;
}

double gm_shear(const double a[3][3])
{
    double n[3], e = 0;
    for (int j = 0; j < 3; j++) n[j] = a[0][j] * a[0][j] + a[1][j] * a[1][j] + a[2][j] * a[2][j];
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) {
            if (n[i] <= 0 || n[j] <= 0) continue;
            double d = a[0][i] * a[0][j] + a[1][i] * a[1][j] + a[2][i] * a[2][j];
            e = fmax(e, fabs(d) / sqrt(n[i] * n[j]));
        }
    return e;
}

void gm_from_trs(const gm_trs *x, gm_affine *out)
{
    double r[3][3];
    gm_quat_matrix(x->q, r);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out->a[i][j] = r[i][j] * x->s[j];
        out->t[i] = x->t[i];
    }
}

void gm_slerp(const double a[4], const double b[4], double u, double out[4])
{
    double bb[4], d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    for (int i = 0; i < 4; i++) bb[i] = d < 0 ? -b[i] : b[i];
    d = fabs(d);
    double wa = 1 - u, wb = u;
    if (d < 0.9999995) {
        double th = acos(d), s = sin(th);
        wa = sin((1 - u) * th) / s;
        wb = sin(u * th) / s;
    }
    double n = 0;
    for (int i = 0; i < 4; i++) {
        out[i] = wa * a[i] + wb * bb[i];
        n += out[i] * out[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; i++) out[i] /= n;
}
