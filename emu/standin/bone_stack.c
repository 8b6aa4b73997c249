/*
 * emu/standin/bone_stack.c: Bone_BuildStack (0x508400, an address of the
 * stand-in's own: the game has no such routine), standin.exe's
 * BuildBoneMatrices on the scale path (skeleton flag bit 0), laid out as
 * the byte-level notes lay the game's out (docs/pose.md section 2, scale=stack):
 * two arrays on the stack, the matrices M without bone scale and the
 * running Q12 vectors v. In bone order, s the model scale:
 *   - a root (parent < 0, or not an earlier bone): M = L (the column code
 *     as a child of the identity, Copy5(I, L) = L: Fx_BoneRotation keeps
 *     BuildBoneMatrices as its one caller, by which the locator tells it
 *     from Fx_RotXYZ) with its columns times (s, s, s) (Bone_ScaleColumns;
 *     root=model),
 *     v = bone scale << 2, t = (root translation * s) >> 8;
 *   - a child of p: M = Copy5(M[p], L) (the column code of bone_column.h),
 *     v = (bone scale * v[p]) >> 10 (standin.h's sa_mul_shift width),
 *     t = P.t + (P.m * (0, -size, 0)) >> 12, P the parent's stored
 *     (scaled) matrix, size the bone's own (the s16 -size wraps);
 *   - the bone's cells = Bone_ScaleColumns(M, v) (its pad is left alone).
 * The arrays hold SA_MAX_BONES bones, every count a skeleton can give (the
 * game's hold 80; a longer skeleton overruns them there, which is not the
 * stand-in's to imitate). cs is BuildBoneMatrices' scratch (the column
 * code's cosines and sines).
 *
 * Out of BuildBoneMatrices' slot because the column code twice does not
 * fit it (README.md, "Cost"). Variants reaching it: FF_STANDIN_ROOT_NONE
 * (no model scale), FF_STANDIN_WIDTH64 (the vectors in 64 bits), and
 * through bone_column.h FF_MUTANT_POSE_ORDER, FF_MUTANT_POSE_FLOOR and
 * FF_STANDIN_X87 (whose BuildBoneMatrices never calls it).
 */
#include "emu/standin/bone_column.h"

/* root=model (1) or root=none (0). */
#if defined(FF_STANDIN_ROOT_NONE)
#define SA_ROOT_MODEL 0
#else
#define SA_ROOT_MODEL 1
#endif

/* Rewrites the cells and translation of every bone of sk. */
void Bone_BuildStack(sa_skeleton *sk_arg, s32 (*cs)[2])
{
    sa_skeleton *volatile sk = sk_arg;
    /* vec[0]: the scale vector of a root's parent (unit); vec[i + 1]: bone i's. */
    s32 vec[SA_MAX_BONES + 1][3];
    /* M of bone i. */
    sa_matrix mat[SA_MAX_BONES];
#if SA_ROOT_MODEL
    s32 model[3];
#endif
    sa_matrix ident;
    sa_bone *volatile bone;
    volatile int i;
    int k;

    sa_identity(&ident);
    for (k = 0; k < 3; k++) {
        vec[0][k] = SA_ONE;
#if SA_ROOT_MODEL
        model[k] = sk->model_scale;
#endif
    }
    for (i = 0; i < sk->count; i++) {
        int p;

        bone = &sk->bones[i];
        /* vec's row of the parent (0: a root). */
        p = (unsigned)bone->parent < (unsigned)i ? bone->parent + 1 : 0;
        for (k = 0; k < 3; k++)
            vec[i + 1][k] = sa_mul_shift(bone->scale[k], vec[p][k], 10);
        /* M = Copy5(M[p], L); a root's is L itself, Copy5(I, L). */
        sa_column_compose(bone->rot, p ? &mat[p - 1] : &ident, &mat[i], cs);
        if (p) {
            const sa_matrix *pw;
            s32 len;

            /* The bone's own size along -y through the parent's stored matrix. */
            pw = &sk->bones[p - 1].world;
            len = (s16)-bone->size;
            for (k = 0; k < 3; k++)
                bone->world.t[k] = pw->t[k] + ((pw->m[k][1] * len) >> 12);
        } else {
#if SA_ROOT_MODEL
            Bone_ScaleColumns(&mat[i], model, &mat[i]);
#endif
            for (k = 0; k < 3; k++)
                bone->world.t[k] = (sk->root[k] * sk->model_scale) >> 8;
        }
        Bone_ScaleColumns(&mat[i], vec[i + 1], &bone->world);
    }
}
