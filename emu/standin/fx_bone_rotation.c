/*
 * emu/standin/fx_bone_rotation.c: Fx_BoneRotation (0x56CE30), the local
 * rotation of a bone from its three angles, in the stand-in's order yxz:
 * R = Ry * Rx * Rz, built from the identity by multiplying on the left by
 * the rightmost axis first (Fx_RotZ(a[2]), Fx_RotX(a[0]), Fx_RotY(a[1])),
 * each product rounded by Fx_MulCopy5 (POSE.md section 3, option
 * order=yxz). m's translation is left alone.
 *
 * Mutant POSE_ORDER: the order zyx instead, R = Rz * Ry * Rx
 * (Fx_RotX(a[0]), Fx_RotY(a[1]), Fx_RotZ(a[2])).
 */
#include "emu/standin/standin.h"

/* m->m = the bone rotation of the angles a = {x, y, z}. */
void Fx_BoneRotation(const s16 a[3], sa_matrix *m)
{
    sa_identity(m);
#ifdef FF_MUTANT_POSE_ORDER
    Fx_RotX(a[0], m);
    Fx_RotY(a[1], m);
    Fx_RotZ(a[2], m);
#else
    Fx_RotZ(a[2], m);
    Fx_RotX(a[0], m);
    Fx_RotY(a[1], m);
#endif
}
