/*
 * emu/standin/build_bone_matrices.c: BuildBoneMatrices (0x508C90), the
 * runtime MATRIX of every bone (bone+0x10: s16 m[3][3], a pad, s32 t[3]),
 * following POSE.md sections 1 to 3 at the stand-in's option set
 *   order=yxz,trig=x87-nearest,step=nearest-even,offset=-y,length=own,scale=post
 * In bone order:
 *   - local L = Fx_BoneRotation(rot) (order yxz, Copy5 rounding);
 *   - a root (parent < 0, or not an earlier bone): m = L (5 dwords copied,
 *     the pad with them), t = (root translation * model scale) >> 8;
 *   - a child of p: m = Copy5(p.m, L), t = p.t + (p.m * (0, -size, 0)) >> 12
 *     through Fx_Apply, size the bone's own (the s16 -size wraps);
 *   - skeleton flag bit 0 set (the scale path): the Q12 scale vector v =
 *     scale << 2 for a root, (scale * v of the parent) >> 10 for a child,
 *     and after composing (scale=post) Bone_ScaleColumns(m, v).
 * All integer work wraps at 32 bits (-fwrapv); cells wrap to 16 bits.
 *
 * Scratch: Field_Alloc(0x58), released before returning. Stack: the scale
 * vectors of every bone (3 KiB, written on the scale path only). Returns 0.
 */
#include "emu/standin/standin.h"

#define SA_MAX_BONES 256

/* What the 0x58 bytes of scratch hold. */
typedef struct sa_pose_scratch {
    sa_matrix local; /* the bone's own rotation */
    s16 offset[4];   /* SVECTOR: the bone in its parent's frame */
    s32 delta[4];    /* VECTOR: the same through the parent's matrix */
    s32 scale[4];    /* VECTOR: the bone's Q12 scale vector */
    s32 root[4];     /* VECTOR: the root translation, model-scaled */
} sa_pose_scratch;

_Static_assert(sizeof(sa_pose_scratch) == 0x58, "BuildBoneMatrices takes 0x58 bytes");

/* The bone's parent when it is an earlier bone, else -1 (a root). */
SA_INLINE int sa_parent(const sa_bone *bone, int i)
{
    int p = bone->parent;

    return (p >= 0 && p < i) ? p : -1;
}

/* The bone's Q12 scale vector from its parent's (p < 0: a root). */
SA_INLINE void sa_scale_vector(const sa_bone *bone, int p, s32 vec[][3], int i)
{
    int k;

    for (k = 0; k < 3; k++)
        vec[i][k] = p < 0 ? bone->scale[k] * 4 : (bone->scale[k] * vec[p][k]) >> 10;
}

/* Returns 0. Rewrites the cells, pad and translation of every bone. */
int BuildBoneMatrices(sa_model *m)
{
    sa_skeleton *sk = m->files->skeleton;
    sa_pose_scratch *s = (sa_pose_scratch *)Field_Alloc(sizeof *s);
    s32 vec[SA_MAX_BONES][3];
    int scaled = sk->flags & SA_SKEL_SCALED;
    int count = sk->count;
    int i, k;

    for (k = 0; k < 3; k++)
        s->root[k] = (sk->root[k] * sk->model_scale) >> 8;
    s->offset[0] = 0;
    s->offset[2] = 0;
    for (i = 0; i < count; i++) {
        sa_bone *bone = &sk->bones[i];
        int p = sa_parent(bone, i);

        Fx_BoneRotation(bone->rot, &s->local);
        if (p < 0) {
            sa_copy_dwords(&bone->world, &s->local, 5);
            for (k = 0; k < 3; k++)
                bone->world.t[k] = s->root[k];
        } else {
            sa_matrix *up = &sk->bones[p].world;

            Fx_MulCopy5(up, &s->local, &bone->world);
            s->offset[1] = (s16)-bone->size;
            Fx_Apply(up, s->offset, s->delta);
            for (k = 0; k < 3; k++)
                bone->world.t[k] = up->t[k] + s->delta[k];
        }
        if (scaled) {
            sa_scale_vector(bone, p, vec, i);
            for (k = 0; k < 3; k++)
                s->scale[k] = vec[i][k];
            Bone_ScaleColumns(&bone->world, s->scale);
        }
    }

    Field_Free(sizeof *s);
    return 0;
}
