/*
 * emu/standin/fx_rot_xyz.c: Fx_RotXYZ (0x56CD50), the rotation of three
 * angles in the order xyz: R = Rx * Ry * Rz, built from the identity by
 * Fx_RotZ(a[2]), Fx_RotY(a[1]), Fx_RotX(a[0]), each product rounded by
 * Fx_MulCopy5 (docs/pose.md section 2). Not called by the stand-in's
 * BuildBoneMatrices (its order is Fx_BoneRotation's); there for the leaf
 * level. m's translation is left alone.
 */
#include "emu/standin/standin.h"

/* m->m = Rx(a[0]) * Ry(a[1]) * Rz(a[2]). */
void Fx_RotXYZ(const s16 a[3], sa_matrix *m)
{
    sa_identity(m);
    Fx_RotZ(a[2], m);
    Fx_RotY(a[1], m);
    Fx_RotX(a[0], m);
}
