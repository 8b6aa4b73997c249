/*
 * emu/standin/world_matrices.c: ComputeBonesWorldMatrices (0x5095B0),
 * every bone's MATRIX composed in place under a world base: bone.matrix =
 * Compose(base, bone.matrix) (docs/pose.md section 1): m = Copy5(base.m, m),
 * t = ((base.m * t) >> 12) + base.t, the products and sum in standin.h's
 * sa_dot_shift width (32 bits wrapping; FF_STANDIN_WIDTH64 and
 * FF_STANDIN_WIDTH_MIXED: 64 bits, exact), an arithmetic shift. The base
 * is only read (it must not lie in the skeleton). Returns 0.
 *
 * standin.exe (lean): under Unicorn 2.0.1 every emulated store costs about
 * 0.2 us while register work and loads are nearly free (docs/engine.md section
 * 8), so each bone is composed in place without calling Fx_Compose:
 * column j of the result depends on column j of the bone's cells only, so
 * each column is read into registers and its three cells written once;
 * the translation likewise. 13 stores a bone (the cells, the translation,
 * the bone pointer) against 46 through Fx_Compose. The pad word is left
 * as it is (docs/pose.md never compares it). The cell rounding is standin.h's
 * sa_round_q12, shared with Fx_MulCopy5, and so is its mutant
 * FF_MUTANT_POSE_FLOOR (the floor mutant changes this routine too).
 *
 * standin_x87.exe (FF_STANDIN_X87) keeps the helper-composed version, as
 * the game's routine does: Fx_Compose(base, bone, bone) per bone (its
 * Copy5 computes on the x87; the pad is Compose's stack garbage).
 *
 * Mutant FF_MUTANT_POSE_BASE (lean version): the base's translation is
 * forgotten (composed as if it were 0).
 */
#include "emu/standin/standin.h"

#if defined(FF_STANDIN_X87)

/* Returns 0. Rewrites every bone's cells, pad and translation. */
int ComputeBonesWorldMatrices(sa_model *m, const sa_matrix *base)
{
    sa_skeleton *sk = m->files->skeleton;
    sa_bone *bone = sk->bones;
    sa_bone *end = bone + sk->count;

    for (; bone != end; bone++)
        Fx_Compose(base, &bone->world, &bone->world);
    return 0;
}

#else

/* The base's translation along axis i (the mutant forgets it). */
#if defined(FF_MUTANT_POSE_BASE)
#define SA_BASE_T(i) 0
#else
#define SA_BASE_T(i) b->t[i]
#endif

/*
 * Returns 0. Rewrites every bone's cells and translation. The base and the
 * bone pointers are kept in memory (volatile) and loaded where used: under
 * emulation a load is nearly free and a spilled register is a store, and
 * the column code then has the seven registers it needs (the column, the
 * cell and base row pointers, two for the sum).
 */
int ComputeBonesWorldMatrices(sa_model *m, const sa_matrix *base_arg)
{
    sa_skeleton *sk = m->files->skeleton;
    const sa_matrix *volatile base = base_arg;
    sa_bone *volatile bone = sk->bones;
    sa_bone *end = sk->bones + sk->count;

    for (; bone != end; bone++) {
        const sa_matrix *b = base;
        s32 *t = bone->world.t;
        s32 t0 = t[0], t1 = t[1], t2 = t[2];
        s16 *c = bone->world.m[0];
        int i;

        /* (Rolled up in 64 bits, whose sums take more code, to fit the slot.) */
#if defined(FF_STANDIN_WIDTH64) || defined(FF_STANDIN_WIDTH_MIXED)
#pragma GCC unroll 1
#else
#pragma GCC unroll 3
#endif
        for (i = 0; i < 3; i++)
            t[i] = sa_dot_shift(b->m[i][0], t0, b->m[i][1], t1, b->m[i][2], t2, 12) + SA_BASE_T(i);
        /* Column by column: c walks down the column, then on to the top
         * of the next. */
        do {
            s32 c0 = c[0], c1 = c[3], c2 = c[6];
            const s16 *row = base->m[0];

            do {
                *c = sa_round_q12(row[0] * c0 + row[1] * c1 + row[2] * c2);
                c += 3;
                row += 3;
            } while (row != base->m[3]);
            c -= 8;
        } while (c != bone->world.m[1]);
    }
    return 0;
}

#endif
