/*
 * emu/standin/fx_bone_rotation.c: Fx_BoneRotation (0x56CE30), the local
 * rotation of a bone from its three angles, in the stand-in's order yxz:
 * R = Ry * Rx * Rz, built from the identity by multiplying on the left by
 * the rightmost axis first (Fx_RotZ(a[2]), Fx_RotX(a[0]), Fx_RotY(a[1])),
 * each product rounded by Fx_MulCopy5 (docs/pose.md section 3, option
 * order=yxz). m's translation is left alone.
 *
 * The order is standin.h's SA_AXIS_1 .. SA_AXIS_3, which BuildBoneMatrices
 * shares. Mutant FF_MUTANT_POSE_ORDER: the order zyx instead, R = Rz * Ry
 * * Rx (Fx_RotX(a[0]), Fx_RotY(a[1]), Fx_RotZ(a[2])).
 */
#include "emu/standin/standin.h"

/* m->m = R(axis k, angle a[k]) * m->m, through the axis' own helper. */
#define SA_ROT_0 Fx_RotX
#define SA_ROT_1 Fx_RotY
#define SA_ROT_2 Fx_RotZ
#define SA_ROTATE_(k) SA_ROT_##k(a[k], m)
#define SA_ROTATE(k) SA_ROTATE_(k)

/* m->m = the bone rotation of the angles a = {x, y, z}. */
void Fx_BoneRotation(const s16 a[3], sa_matrix *m)
{
    sa_identity(m);
    SA_ROTATE(SA_AXIS_1);
    SA_ROTATE(SA_AXIS_2);
    SA_ROTATE(SA_AXIS_3);
}
