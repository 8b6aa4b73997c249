/*
 * emu/standin/build_bone_matrices.c: BuildBoneMatrices (0x508C90), the
 * runtime MATRIX of every bone (bone+0x10: s16 m[3][3], a pad, s32 t[3]),
 * following POSE.md sections 1 to 3 at the stand-in's option set
 *   order=yxz,trig=x87-nearest,step=nearest-even,offset=-y,length=own,scale=post
 * In bone order:
 *   - local L = Ry * Rx * Rz of the bone's angles, built from the identity
 *     by multiplying on the left by Rz, then Rx, then Ry, each product
 *     rounded like Copy5 (Fx_BoneRotation);
 *   - a root (parent < 0, or not an earlier bone): m = L, t = (root
 *     translation * model scale) >> 8;
 *   - a child of p: m = Copy5(p.m, L), t = p.t + (p.m * (0, -size, 0)) >> 12
 *     (Fx_Apply's arithmetic), size the bone's own (the s16 -size wraps);
 *   - skeleton flag bit 0 set (the scale path): the Q12 scale vector v =
 *     scale << 2 for a root, (scale * v of the parent) >> 10 for a child,
 *     and after composing (scale=post) Bone_ScaleColumns(m, v).
 * Integer work wraps at 32 bits (-fwrapv) except the scale vectors'
 * products, in standin.h's width (sa_mul_shift; FF_STANDIN_WIDTH64: 64
 * bits, exact); cells wrap to 16 bits. (The translation's one product, an
 * s16 cell times the s16 size, never passes 2^30: no width shows there.)
 * Scratch: Field_Alloc(0x58), released before returning. Returns 0.
 *
 * Two versions compute the same cells and translations (the pad word
 * differs; POSE.md never compares it):
 *
 * standin.exe (lean): under Unicorn 2.0.1 every emulated store costs about
 * 0.2 us while register work and loads are nearly free (ENGINE.md section
 * 8), so a child bone is worked out in registers, column by column,
 * without calling a helper: column j of the identity goes through the
 * three axis rotations (each turns two components with Copy5's rounding;
 * Copy5 keeps the third exactly), then each cell of column j is the
 * rounded product of the parent's row with that column and is written
 * once. 25 stores a child bone (the nine cells, the translation, the six
 * cosines and sines of the bone in the scratch, the column, bone and
 * parent pointers and the bone index) against some 170 when composed from
 * the helpers. A root still takes L from
 * Fx_BoneRotation (a skeleton has one or a few): the call keeps the game's
 * edge BuildBoneMatrices -> Fx_BoneRotation, by which the locator tells
 * Fx_BoneRotation from Fx_RotXYZ (the two have the same shape). The scale
 * path, taken by few clips, calls Bone_ScaleColumns after the bone is
 * composed. The rounding, the trig and the axis order are standin.h's,
 * shared with the helpers, so the variants that change them reach this
 * routine too (the build compiles a variant's sources again by grepping
 * for its macro): FF_MUTANT_POSE_ORDER (as Fx_BoneRotation),
 * FF_MUTANT_POSE_FLOOR (as Fx_MulCopy5).
 *
 * standin_x87.exe (FF_STANDIN_X87) keeps the helper-composed version, as
 * the game's routine does: Fx_BoneRotation into the scratch, Fx_MulCopy5
 * with the parent, Fx_Apply, Bone_ScaleColumns (the pad is Copy5's stack
 * garbage); its helpers compute on the x87 and cost what the game's cost.
 *
 * Both keep the scale vectors of every bone on the stack (3 KiB).
 */
#include "emu/standin/standin.h"

#define SA_MAX_BONES 256
#define SA_SCRATCH 0x58

#if defined(FF_STANDIN_X87)

/* What the scratch holds. */
typedef struct sa_pose_scratch {
    sa_matrix local; /* the bone's own rotation */
    s16 offset[4];   /* SVECTOR: the bone in its parent's frame */
    s32 delta[4];    /* VECTOR: the same through the parent's matrix */
    s32 scale[4];    /* VECTOR: the bone's Q12 scale vector */
    s32 root[4];     /* VECTOR: the root translation, model-scaled */
} sa_pose_scratch;

_Static_assert(sizeof(sa_pose_scratch) == SA_SCRATCH, "BuildBoneMatrices takes 0x58 bytes");

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
        vec[i][k] = p < 0 ? bone->scale[k] * 4 : sa_mul_shift(bone->scale[k], vec[p][k], 10);
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

#else

/* The three rotations are applied in one loop, which needs each axis to be
 * the one after the previous (x, y, z, x, ...): true of yxz (z, x, y) and
 * of the order mutant's zyx (x, y, z). */
_Static_assert(SA_AXIS_2 == (SA_AXIS_1 + 1) % 3 && SA_AXIS_3 == (SA_AXIS_2 + 1) % 3,
               "BuildBoneMatrices needs a cyclic axis order");

/*
 * Returns 0. Rewrites the cells and translation of every bone.
 *
 * What the column code reads besides its column is kept in memory (the
 * volatile locals, and the scratch, read again after the barrier at each
 * column): under emulation a load is nearly free and a spilled register is
 * a store, and the column code then has the seven registers it needs.
 */
int BuildBoneMatrices(sa_model *m)
{
    sa_skeleton *volatile sk = m->files->skeleton;
    /* The bone's cosine and sine per rotation, in the order applied. */
    s32(*volatile cs)[2] = (s32(*)[2])Field_Alloc(SA_SCRATCH);
    /* vec[0]: the scale vector of a root's parent; vec[i + 1]: bone i's
     * (the scale path only). */
    s32 vec[SA_MAX_BONES + 1][3];
    /* The bone, its parent's matrix, the top cell of the column being
     * worked out. */
    sa_bone *volatile bone;
    const sa_matrix *volatile up;
    s16 *volatile top_cell;
    volatile int i;
    int k;

#ifdef FF_VARIANT_CALLS
    sa_matrix ident;

    sa_identity(&ident);
#endif
    for (k = 0; k < 3; k++)
        vec[0][k] = SA_ONE;
    for (i = 0; i < sk->count; i++) {
        bone = &sk->bones[i];
#ifdef FF_VARIANT_CALLS
        /* standin_calls.exe: a root too takes L from the column code, as a
         * child of the identity (Copy5(I, L) = L), so Fx_BoneRotation is
         * never called: one direct call fewer than the profile lists. */
        if (1) {
            up = (unsigned)bone->parent < (unsigned)i ? &sk->bones[bone->parent].world : &ident;
#else
        if ((unsigned)bone->parent < (unsigned)i) {
            /* A child (of an earlier bone): m = Copy5(up.m, L), t = up.t +
             * (up.m * (0, -size, 0)) >> 12. */
            up = &sk->bones[bone->parent].world;
#endif
            for (k = 0; k < 3; k++) {
                int axis = SA_AXIS_1 + k < 3 ? SA_AXIS_1 + k : SA_AXIS_1 + k - 3;

                cs[k][0] = sa_cos(bone->rot[axis]);
                cs[k][1] = sa_sin(bone->rot[axis]);
            }
            /* Column by column (the top cell moves along row 0). */
            top_cell = bone->world.m[0];
            do {
                int j = (int)(top_cell - bone->world.m[0]);
                /* Column j of the identity, as its components (the
                 * rotation's axis, the next, the one after): each rotation
                 * turns the last two (Copy5's rounding; Copy5 keeps the
                 * first exactly), and the next rotation's three are these
                 * turned once around. */
                s32 a = (j == SA_AXIS_1) << 12, b = (j == SA_AXIS_2) << 12;
                s32 d = (j == SA_AXIS_3) << 12;
                const s32(*r)[2] = cs;
                const s16 *row;
                s16 *c;

                __asm__("" : "+r"(r) : : "memory");
                for (k = 0; k < 3; k++, r++) {
                    s32 nb = sa_round_q12(r[0][0] * b - r[0][1] * d);
                    s32 nd = sa_round_q12(r[0][1] * b + r[0][0] * d);

                    b = nd;
                    d = a;
                    a = nb;
                }
                /* Back to the first axis' order: a, b, d are the
                 * components SA_AXIS_1, SA_AXIS_2, SA_AXIS_3. Each cell:
                 * the parent's row times the column, rounded. */
                c = top_cell;
                for (row = up->m[0]; row != up->m[3]; row += 3, c += 3) {
                    s32 col[3];

                    col[SA_AXIS_1] = a;
                    col[SA_AXIS_2] = b;
                    col[SA_AXIS_3] = d;
                    *c = sa_round_q12(row[0] * col[0] + row[1] * col[1] + row[2] * col[2]);
                }
                top_cell = c - 8;
            } while (top_cell != bone->world.m[1]);
            /* The bone's own size along -y, the s16 wrapping. */
            for (k = 0; k < 3; k++)
#ifdef FF_VARIANT_CALLS
                bone->world.t[k] = up == &ident
                                       ? (sk->root[k] * sk->model_scale) >> 8
                                       : up->t[k] + ((up->m[k][1] * (s16)-bone->size) >> 12);
#else
                bone->world.t[k] = up->t[k] + ((up->m[k][1] * (s16)-bone->size) >> 12);
#endif
        } else {
            /* A root (the parent is not an earlier bone): L itself. */
            Fx_BoneRotation(bone->rot, &bone->world);
            for (k = 0; k < 3; k++)
                bone->world.t[k] = (sk->root[k] * sk->model_scale) >> 8;
        }
        if (sk->flags & SA_SKEL_SCALED) {
            int p = (unsigned)bone->parent < (unsigned)i ? bone->parent + 1 : 0;

            for (k = 0; k < 3; k++)
                vec[i + 1][k] = sa_mul_shift(bone->scale[k], vec[p][k], 10);
            Bone_ScaleColumns(&bone->world, vec[i + 1]);
        }
    }

    Field_Free(SA_SCRATCH);
    return 0;
}

#endif
