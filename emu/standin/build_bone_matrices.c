/*
 * emu/standin/build_bone_matrices.c: BuildBoneMatrices (0x508C90), the
 * runtime pose of every bone: world rotation = parent's * own (scaled on
 * the scale path), world translation = parent's + parent's bone length
 * along the parent's z axis. Root bones hang from a base matrix holding
 * the root translation.
 *
 * Works in two passes over a stack table (sines and cosines, and the
 * checked parent of every bone: a sizeable frame, like the engine's) and
 * 0x58 bytes of Field_Alloc scratch; every fixed-point step is a call to
 * a helper at its fixed address. Nothing here is compared by the harness:
 * it must only be deterministic and stay inside the skeleton.
 */
#include "emu/standin/standin.h"

#define SA_MAX_BONES 256

/* What the 0x58 bytes of scratch hold. */
typedef struct sa_pose_scratch {
    sa_matrix base;  /* identity rotation, root translation */
    sa_matrix local; /* the bone's own rotation (and scale) */
    s32 offset[3];   /* the parent's bone, in the parent's frame */
    s32 delta[3];    /* the same, in world space */
} sa_pose_scratch;

_Static_assert(sizeof(sa_pose_scratch) == 0x58, "BuildBoneMatrices takes 0x58 bytes");

/* A bone's parent if it is another bone of the skeleton, else -1. */
SA_INLINE int sa_checked_parent(const sa_skeleton *sk, int i)
{
    int p = sk->bones[i].parent;

    return (p >= 0 && p < sk->count && p != i) ? p : -1;
}

/* Identity rotation and the root translation. */
SA_INLINE void sa_set_base(sa_matrix *base, const sa_skeleton *sk)
{
    int i, j;

    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++)
            base->m[i][j] = (s16)(i == j ? SA_ONE : 0);
        base->t[i] = sk->root[i];
    }
}

/* Returns 0. Rewrites the world matrix of every bone. */
int BuildBoneMatrices(sa_model *m)
{
    sa_skeleton *sk = m->files->skeleton;
    sa_pose_scratch *s = (sa_pose_scratch *)Field_Alloc(sizeof *s);
    s16 trig[SA_MAX_BONES][6];
    s16 parent[SA_MAX_BONES];
    int count = sk->count;
    int i;

    for (i = 0; i < count; i++) {
        Fx_TrigOfRotation(sk->bones[i].rot, trig[i]);
        parent[i] = (s16)sa_checked_parent(sk, i);
    }

    sa_set_base(&s->base, sk);
    s->offset[0] = 0;
    s->offset[1] = 0;
    for (i = 0; i < count; i++) {
        sa_bone *bone = &sk->bones[i];
        const sa_matrix *up = &s->base;

        s->offset[2] = 0;
        if (parent[i] >= 0) {
            up = &sk->bones[parent[i]].world;
            s->offset[2] = sk->bones[parent[i]].size;
        }
        Fx_RotationFromTrig(trig[i], &s->local);
        if (sk->flags & SA_SKEL_SCALED) Fx_ScaleMatrix(&s->local, bone->scale);
        Fx_MulMatrix(up, &s->local, &bone->world);
        Fx_ApplyMatrix(up, s->offset, s->delta);
        Bone_Place(up, s->delta, &bone->world);
    }

    Field_Free(sizeof *s);
    return 0;
}
