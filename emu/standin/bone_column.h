/*
 * emu/standin/bone_column.h: the column code of standin.exe's
 * BuildBoneMatrices and Bone_BuildStack: dst's cells = Copy5(up.m, L), L
 * the bone's local rotation, worked out in registers column by column and
 * each cell written once (emu/standin/README.md, "Cost").
 *
 * Guest code only (emu/standin/), included by the two routines that use
 * it; always inlined. The rounding, the trig and the axis order are
 * standin.h's (sa_round_q12, sa_sin / sa_cos, SA_AXIS_1..3), shared with
 * the helpers, so a variant that changes them reaches this code in every
 * routine that includes it (each names the variant's macros).
 */
#ifndef FF8_EMU_STANDIN_BONE_COLUMN_H
#define FF8_EMU_STANDIN_BONE_COLUMN_H

#include "emu/standin/standin.h"

/* The three rotations are applied in one loop, which needs each axis to be
 * the one after the previous (x, y, z, x, ...): true of yxz (z, x, y) and
 * of the order mutant's zyx (x, y, z). */
_Static_assert(SA_AXIS_2 == (SA_AXIS_1 + 1) % 3 && SA_AXIS_3 == (SA_AXIS_2 + 1) % 3,
               "the column code needs a cyclic axis order");

/*
 * dst->m = Copy5(up->m, L(rot)); dst's pad and translation are left alone.
 * cs: scratch for the three (cos, sin) pairs, in the order applied.
 *
 * What the column code reads besides its column is kept in memory (the
 * volatile locals, and the scratch, read again after the barrier at each
 * column): under emulation a load is nearly free and a spilled register is
 * a store, and the column code then has the seven registers it needs.
 */
SA_INLINE void sa_column_compose(const s16 *rot, const sa_matrix *up_arg, sa_matrix *dst_arg,
                                 s32 (*cs_arg)[2])
{
    s32(*volatile cs)[2] = cs_arg;
    const sa_matrix *volatile up = up_arg;
    sa_matrix *volatile dst = dst_arg;
    s16 *volatile top_cell;
    int k;

    for (k = 0; k < 3; k++) {
        int axis = SA_AXIS_1 + k < 3 ? SA_AXIS_1 + k : SA_AXIS_1 + k - 3;

        cs[k][0] = sa_cos(rot[axis]);
        cs[k][1] = sa_sin(rot[axis]);
    }
    /* Column by column (the top cell moves along row 0). */
    top_cell = dst->m[0];
    do {
        int j = (int)(top_cell - dst->m[0]);
        /* Column j of the identity, as its components (the rotation's axis,
         * the next, the one after): each rotation turns the last two
         * (Copy5's rounding; Copy5 keeps the first exactly), and the next
         * rotation's three are these turned once around. */
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
        /* Back to the first axis' order: a, b, d are the components
         * SA_AXIS_1, SA_AXIS_2, SA_AXIS_3. Each cell: the parent's row
         * times the column, rounded. */
        c = top_cell;
        for (row = up->m[0]; row != up->m[3]; row += 3, c += 3) {
            s32 col[3];

            col[SA_AXIS_1] = a;
            col[SA_AXIS_2] = b;
            col[SA_AXIS_3] = d;
            *c = sa_round_q12(row[0] * col[0] + row[1] * col[1] + row[2] * col[2]);
        }
        top_cell = c - 8;
    } while (top_cell != dst->m[1]);
}

#endif
