/*
 * emu/standin/world_matrices.c: ComputeBonesWorldMatrices (0x5095B0),
 * every bone's MATRIX composed in place under a world base: bone.matrix =
 * Compose(base, bone.matrix) through Fx_Compose (POSE.md section 1). The
 * base is only read.
 *
 * Mutant POSE_BASE: the base's translation is forgotten (a copy of the
 * base with t = 0 is used).
 */
#include "emu/standin/standin.h"

/* Returns 0. Rewrites every bone's cells, pad and translation. */
int ComputeBonesWorldMatrices(sa_model *m, const sa_matrix *base)
{
    sa_skeleton *sk = m->files->skeleton;
    sa_bone *bone = sk->bones;
    sa_bone *end = bone + sk->count;
#ifdef FF_MUTANT_POSE_BASE
    sa_matrix copy;

    sa_copy_dwords(&copy, base, 8);
    copy.t[0] = 0;
    copy.t[1] = 0;
    copy.t[2] = 0;
    base = &copy;
#endif

    for (; bone != end; bone++)
        Fx_Compose(base, &bone->world, &bone->world);
    return 0;
}
