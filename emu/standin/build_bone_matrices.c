/*
 * emu/standin/build_bone_matrices.c: BuildBoneMatrices (0x508C90), the
 * runtime MATRIX of every bone (bone+0x10: s16 m[3][3], a pad, s32 t[3]),
 * laid out as the byte-level notes lay the game's out (docs/pose.md section 2)
 * at the stand-in's own option set (docs/pose.md section 3)
 *   order=yxz,trig=x87-nearest,step=nearest-even,root=model,offset=-y,
 *   length=own,scale=stack,width=32
 * In bone order, s the model scale (skeleton+2):
 *   - local L = Ry * Rx * Rz of the bone's angles, built from the identity
 *     by multiplying on the left by Rz, then Rx, then Ry, each product
 *     rounded like Copy5 (Fx_BoneRotation);
 *   - the offset of a child: (0, -size, 0), size the bone's own (the s16
 *     -size wraps), through its parent's stored matrix P: t = P.t +
 *     (P.m * (0, -size, 0)) >> 12 (Fx_Apply's arithmetic);
 *   - a root (parent < 0, or not an earlier bone): t = (root translation *
 *     s) >> 8; root=model: the model scale multiplies its rotation, L's
 *     nine cells times s >> 12;
 *   - plain path (skeleton flag bit 0 clear): a root's m = L (times s,
 *     through Fx_ScaleRows with (s, s, s)); a child's m = Copy5(P.m, L);
 *   - scale path (flag bit 0 set), scale=stack: two arrays on the stack,
 *     the matrices M without bone scale and the running Q12 vectors v.
 *     Root: M = Bone_ScaleColumns(L, (s, s, s)), v = bone scale << 2;
 *     child of p: M = Copy5(M[p], L), v = (bone scale * v[p]) >> 10; then
 *     the bone's m = Bone_ScaleColumns(M, v). The child's translation uses
 *     P, the parent's stored (scaled) matrix, not M[p].
 * Integer work wraps at 32 bits (-fwrapv) except the running vectors'
 * products, in standin.h's width (sa_mul_shift); cells wrap to 16 bits.
 * (The translation's one product, an s16 cell times the s16 size, never
 * passes 2^30: no width shows there.) Scratch: Field_Alloc(0x58), released
 * before returning. Returns Field_Free(0x58)'s value (0x58).
 *
 * Variants keeping the older readings, each one key of the option set:
 *   FF_STANDIN_ROOT_NONE   root=none: the model scale never reaches the
 *                          rotations (a root's M, or m, is L itself);
 *   FF_STANDIN_SCALE_PRE   scale=pre: v's columns scale L before it is
 *                          composed with P (a root: L scaled by v);
 *   FF_STANDIN_SCALE_POST  scale=post: v's columns scale Copy5(P.m, L)
 *                          (a root: L scaled by v).
 * Under pre and post the parent's matrix the cells compose with is P, the
 * stored one, and a root's L is times s first (root=model), then times v.
 *
 * Two versions compute the same cells and translations (the pad word
 * differs; docs/pose.md never compares it):
 *
 * standin.exe (lean): under emulation a store costs far more than register
 * work and loads (docs/engine.md section 8), so a child bone's cells are worked
 * out in registers, column by column, by bone_column.h's column code, each
 * cell written once; a root takes L from Fx_BoneRotation (the call keeps
 * the game's edge BuildBoneMatrices -> Fx_BoneRotation, by which the
 * locator tells Fx_BoneRotation from Fx_RotXYZ) and its model scale
 * inline (Fx_ScaleRows' arithmetic). The scale path goes to Bone_BuildStack (bone_stack.c), a
 * routine of the stand-in's own outside this slot: the column code twice
 * does not fit the routine's 0x300 bytes. The rounding, the trig and the
 * axis order are standin.h's, shared with the helpers, so the variants
 * that change them reach this routine too (the build compiles a variant's
 * sources again by grepping for its macro): FF_MUTANT_POSE_ORDER (as
 * Fx_BoneRotation), FF_MUTANT_POSE_FLOOR (as Fx_MulCopy5).
 *
 * standin_x87.exe (FF_STANDIN_X87), and the scale=pre and scale=post
 * builds, are composed from the helpers, as the game's routine is:
 * Fx_BoneRotation into the scratch; the plain path through Fx_ScaleRows (a
 * root) and Fx_Compose (a child, the offset in the scratch matrix's
 * translation); the scale path through Bone_ScaleColumns, Fx_Apply and
 * Fx_MulCopy5, the arrays on the stack (the pad is the helpers' stack
 * garbage); the x87 build's helpers compute on the x87 and cost what the
 * game's cost. The running vectors are computed in standin.h's width
 * (FF_STANDIN_WIDTH64).
 *
 * Mutant FF_MUTANT_POSE_RET (standin.exe's version): BuildBoneMatrices
 * returns 0 instead of Field_Free's value.
 *
 * standin_calls.exe (FF_VARIANT_CALLS): another call structure, the same
 * results: a root too takes L from the column code, as a child of the
 * identity (Copy5(I, L) = L), so Fx_BoneRotation is never called: one
 * direct call fewer than the profile lists.
 */
#include "emu/standin/standin.h"

#define SA_SCRATCH 0x58

/* The scale path's reading. */
#define SA_SCALE_STACK 0
#define SA_SCALE_PRE 1
#define SA_SCALE_POST 2
#if defined(FF_STANDIN_SCALE_PRE)
#define SA_SCALE SA_SCALE_PRE
#elif defined(FF_STANDIN_SCALE_POST)
#define SA_SCALE SA_SCALE_POST
#else
#define SA_SCALE SA_SCALE_STACK
#endif

/* root=model (1) or root=none (0). */
#if defined(FF_STANDIN_ROOT_NONE)
#define SA_ROOT_MODEL 0
#else
#define SA_ROOT_MODEL 1
#endif


#if defined(FF_STANDIN_X87) || SA_SCALE != SA_SCALE_STACK

/* What the scratch holds. */
typedef struct sa_pose_scratch {
    sa_matrix local; /* the bone's own rotation; its t the offset (plain path) */
    s16 offset[4];   /* SVECTOR: the bone in its parent's frame (scale path) */
    s32 delta[4];    /* VECTOR: the same through the parent's matrix */
    s32 model[4];    /* VECTOR: (s, s, s), the model scale */
    s32 root[4];     /* VECTOR: the root translation, model-scaled */
} sa_pose_scratch;

_Static_assert(sizeof(sa_pose_scratch) == SA_SCRATCH, "BuildBoneMatrices takes 0x58 bytes");

/* The bone's parent when it is an earlier bone, else -1 (a root). */
SA_INLINE int sa_parent(const sa_bone *bone, int i)
{
    int p = bone->parent;

    return (p >= 0 && p < i) ? p : -1;
}

/* The bone's Q12 running scale vector from its parent's (p < 0: a root). */
SA_INLINE void sa_scale_vector(const sa_bone *bone, int p, s32 vec[][3], int i)
{
    int k;

    for (k = 0; k < 3; k++)
        vec[i][k] = p < 0 ? bone->scale[k] * 4 : sa_mul_shift(bone->scale[k], vec[p][k], 10);
}

/* A root's translation into the bone. */
SA_INLINE void sa_root_t(sa_bone *bone, const sa_pose_scratch *s)
{
    int k;

    for (k = 0; k < 3; k++)
        bone->world.t[k] = s->root[k];
}

/* t = up.t + (up.m * (0, -size, 0)) >> 12 through Fx_Apply. */
SA_INLINE void sa_child_t(sa_bone *bone, const sa_matrix *up, sa_pose_scratch *s)
{
    int k;

    s->offset[1] = (s16)-bone->size;
    Fx_Apply(up, s->offset, s->delta);
    for (k = 0; k < 3; k++)
        bone->world.t[k] = up->t[k] + s->delta[k];
}

/* Returns Field_Free's value. Rewrites the cells, pad and translation of every bone. */
int BuildBoneMatrices(sa_model *m)
{
    sa_skeleton *sk = m->files->skeleton;
    sa_pose_scratch *s = (sa_pose_scratch *)Field_Alloc(sizeof *s);
    s32 vec[SA_MAX_BONES][3];
#if SA_SCALE == SA_SCALE_STACK
    sa_matrix mat[SA_MAX_BONES];
#endif
    int scaled = sk->flags & SA_SKEL_SCALED;
    int count = sk->count;
    int i, k;

    for (k = 0; k < 3; k++) {
        s->root[k] = (sk->root[k] * sk->model_scale) >> 8;
        s->model[k] = sk->model_scale;
    }
    s->offset[0] = 0;
    s->offset[2] = 0;
    s->local.t[0] = 0;
    for (i = 0; i < count; i++) {
        sa_bone *bone = &sk->bones[i];
        int p = sa_parent(bone, i);

        Fx_BoneRotation(bone->rot, &s->local);
        if (!scaled) {
            /* The plain path. */
            if (p < 0) {
#if SA_ROOT_MODEL
                Fx_ScaleRows(&s->local, s->model);
#endif
                sa_copy_dwords(&bone->world, &s->local, 5);
                sa_root_t(bone, s);
            } else {
                s->local.t[1] = (s16)-bone->size;
                s->local.t[2] = 0;
                Fx_Compose(&sk->bones[p].world, &s->local, &bone->world);
            }
            continue;
        }
        /* The scale path. */
        sa_scale_vector(bone, p, vec, i);
        if (p < 0) {
#if SA_SCALE == SA_SCALE_STACK
#if SA_ROOT_MODEL
            Bone_ScaleColumns(&s->local, s->model, &mat[i]);
#else
            sa_copy_dwords(&mat[i], &s->local, 5);
#endif
            Bone_ScaleColumns(&mat[i], vec[i], &bone->world);
#else
#if SA_ROOT_MODEL
            Bone_ScaleColumns(&s->local, s->model, &s->local);
#endif
            Bone_ScaleColumns(&s->local, vec[i], &bone->world);
#endif
            sa_root_t(bone, s);
        } else {
            sa_matrix *up = &sk->bones[p].world;

            sa_child_t(bone, up, s);
#if SA_SCALE == SA_SCALE_STACK
            Fx_MulCopy5(&mat[p], &s->local, &mat[i]);
            Bone_ScaleColumns(&mat[i], vec[i], &bone->world);
#elif SA_SCALE == SA_SCALE_PRE
            Bone_ScaleColumns(&s->local, vec[i], &s->local);
            Fx_MulCopy5(up, &s->local, &bone->world);
#else
            Fx_MulCopy5(up, &s->local, &bone->world);
            Bone_ScaleColumns(&bone->world, vec[i], &bone->world);
#endif
        }
    }

    return (int)Field_Free(sizeof *s);
}

#else

#include "emu/standin/bone_column.h"

/* A root (the parent is not an earlier bone): L (already in bone) times
 * the model scale, and the root translation. */
SA_INLINE void sa_root(sa_bone *bone, const sa_skeleton *sk, s32 (*cs)[2])
{
    int k;
#if SA_ROOT_MODEL
    /* root=model: the nine cells times s >> 12 (Fx_ScaleRows' arithmetic
     * with (s, s, s), worked out here: the stand-in's call structure keeps
     * BuildBoneMatrices' callees those the locator tells apart). */
    s16 *c = bone->world.m[0];
    s32 s = sk->model_scale;

    (void)cs;
    for (k = 0; k < 9; k++)
        c[k] = (s16)((c[k] * s) >> 12);
#else
    (void)cs;
#endif
    for (k = 0; k < 3; k++)
        bone->world.t[k] = (sk->root[k] * sk->model_scale) >> 8;
}

/*
 * Returns Field_Free's value. Rewrites the cells and translation of every
 * bone: on the scale path through Bone_BuildStack, on the plain path here.
 */
int BuildBoneMatrices(sa_model *m)
{
    sa_skeleton *volatile sk = m->files->skeleton;
    /* The column code's cosines and sines. */
    s32(*volatile cs)[2] = (s32(*)[2])Field_Alloc(SA_SCRATCH);
    sa_bone *volatile bone;
    volatile int i;
    int k;
#ifdef FF_VARIANT_CALLS
    sa_matrix ident;

    sa_identity(&ident);
#endif

    if (sk->flags & SA_SKEL_SCALED) Bone_BuildStack(sk, cs);
    else
        for (i = 0; i < sk->count; i++) {
        bone = &sk->bones[i];
#ifdef FF_VARIANT_CALLS
        /* standin_calls.exe: a root too takes L from the column code, as a
         * child of the identity (Copy5(I, L) = L), so Fx_BoneRotation is
         * never called: one direct call fewer than the profile lists. */
        sa_column_compose(bone->rot,
                          (unsigned)bone->parent < (unsigned)i ? &sk->bones[bone->parent].world
                                                              : &ident,
                          &bone->world, cs);
        if ((unsigned)bone->parent >= (unsigned)i) {
            sa_root(bone, sk, cs);
            continue;
        }
        {
#else
        if ((unsigned)bone->parent < (unsigned)i) {
#endif
            /* A child (of an earlier bone): m = Copy5(P.m, L), t = P.t +
             * (P.m * (0, -size, 0)) >> 12, P its parent's matrix. */
            const sa_matrix *pw;
            s32 len;

#ifndef FF_VARIANT_CALLS
            sa_column_compose(bone->rot, &sk->bones[bone->parent].world, &bone->world, cs);
#endif
            pw = &sk->bones[bone->parent].world;
            len = (s16)-bone->size;
            for (k = 0; k < 3; k++)
                bone->world.t[k] = pw->t[k] + ((pw->m[k][1] * len) >> 12);
#ifndef FF_VARIANT_CALLS
        } else {
            Fx_BoneRotation(bone->rot, &bone->world);
            sa_root(bone, sk, cs);
#endif
        }
    }

#ifdef FF_MUTANT_POSE_RET
    /* The mutant: returns 0, not Field_Free's value. */
    Field_Free(SA_SCRATCH);
    return 0;
#else
    return (int)Field_Free(SA_SCRATCH);
#endif
}

#endif
