/*
 * harness/gltf/gmath.h: the small double-precision algebra of the glTF
 * room: affine transforms (3x3 + translation), quaternions, a local
 * transform decomposed into translation, rotation and scale (glTF's TRS)
 * and how far such a decomposition is from the matrix it came from.
 *
 * Pure functions on plain values: no allocation, no state, no printing.
 */
#ifndef FF8_HARNESS_GLTF_GMATH_H
#define FF8_HARNESS_GLTF_GMATH_H

#include "ref/pose.h"

/* x' = a x + t */
typedef struct gm_affine {
    double a[3][3];
    double t[3];
} gm_affine;

/* T * R * S, R a unit quaternion (x, y, z, w) as glTF orders it. */
typedef struct gm_trs {
    double t[3];
    double q[4];
    double s[3];
} gm_trs;

void gm_identity(gm_affine *m);
/* An engine MATRIX (Q12 cells, integer translation) as an affine map. */
void gm_from_ref(const ref_matrix *r, gm_affine *out);
/* out = x . y (out may alias either). */
void gm_mul(const gm_affine *x, const gm_affine *y, gm_affine *out);
/* The inverse of m; -1 (out = identity) when m's 3x3 part is singular. */
int gm_inverse(const gm_affine *m, gm_affine *out);
/* m applied to point p. */
void gm_apply(const gm_affine *m, const double p[3], double out[3]);

/*
 * Decomposes m into TRS: scales are the column lengths (the first negated
 * when the determinant is negative), the rotation the nearest proper
 * rotation to the remaining columns (polar decomposition), as a unit
 * quaternion with w >= 0 unless prev (may be NULL) says otherwise: the
 * sign is chosen so that dot(q, prev) >= 0, for interpolation. Returns the
 * largest absolute cell difference between m's 3x3 part and R.S (0 for a
 * true rotation-and-scale matrix; shear and rounding show here).
 */
double gm_decompose(const gm_affine *m, const double prev[4], gm_trs *out);
/*
 * How far m's 3x3 part is from a rotation times a scale (R.S, what a TRS
 * can carry): the largest |cosine| between two of its columns (0 when they
 * are orthogonal; a column of length 0 is orthogonal to everything).
 */
double gm_shear(const double a[3][3]);
/* The affine map of a TRS. */
void gm_from_trs(const gm_trs *x, gm_affine *out);
/* The 3x3 rotation of unit quaternion q (x, y, z, w). */
void gm_quat_matrix(const double q[4], double r[3][3]);
/* Spherical interpolation between unit quaternions a and b at u in [0, 1] (shortest arc). */
void gm_slerp(const double a[4], const double b[4], double u, double out[4]);

#endif
