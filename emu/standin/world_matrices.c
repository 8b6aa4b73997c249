/*
 * emu/standin/world_matrices.c: ComputeBonesWorldMatrices (0x5095B0),
 * moves every bone's pose into a world frame: rotation = base * bone's,
 * translation = base rotation * bone's + base translation.
 */
#include "emu/standin/standin.h"

/* Returns 0. base is read only; every bone's matrix is rewritten. */
int ComputeBonesWorldMatrices(sa_model *m, const sa_matrix *base)
{
    sa_skeleton *sk = m->files->skeleton;
    sa_bone *bone = sk->bones;
    sa_bone *end = bone + sk->count;

    for (; bone != end; bone++) {
        Fx_ApplyMatrix(base, bone->world.t, bone->world.t);
        Bone_Place(base, bone->world.t, &bone->world);
        Fx_MulMatrix(base, &bone->world, &bone->world);
    }
    return 0;
}
