/*
 * emu/standin/fx_copy5.c: Fx_MulCopy5 (0x56C090), the product of two
 * matrices as docs/pose.md section 2 describes the game's: each cell the 32-bit
 * (wrapping) sum of three s16 products, divided by 4096 and rounded to
 * nearest, ties to even, kept as its low 16 bits (wraps, never
 * saturates); computed in a local MATRIX whose first 5 dwords (the cells
 * and the pad, stack garbage) are then copied out. out may be a or b.
 *
 * standin.exe rounds with integers, unrolled and without a branch (each
 * branch ends a translated block, which costs a block-hook call under
 * emulation). standin_x87.exe rounds as the game does on the x87: fild
 * the sum, times the float 1/4096, plus the double 2^52 + 2^31, fstp to a
 * double and keep its low word. With 53-bit precision control (the control
 * word emu sets before each call) both give the same cells for every input.
 *
 * The rounding is standin.h's sa_round_q12, which BuildBoneMatrices and
 * ComputeBonesWorldMatrices share, and so are its variants:
 * FF_STANDIN_X87 (the x87 rounding above) and FF_MUTANT_POSE_FLOOR (the
 * mutant: the quotient is floored, sum >> 12, instead).
 */
#include "emu/standin/standin.h"

/* Row i of a->m times the column (b0, b1, b2), rounded. */
#define SA_CELL(i) sa_round_q12(a->m[i][0] * b0 + a->m[i][1] * b1 + a->m[i][2] * b2)

/* out->m = a->m * b->m (cells and pad written, translation left alone). */
void Fx_MulCopy5(const sa_matrix *a, const sa_matrix *b, sa_matrix *out)
{
    sa_matrix tmp;
    int j;

    for (j = 0; j < 3; j++) {
        s32 b0 = b->m[0][j], b1 = b->m[1][j], b2 = b->m[2][j];
#if defined(FF_STANDIN_X87)
        /* A loop over the rows too, as a compiled engine would run it. */
        int i;

        for (i = 0; i < 3; i++)
            tmp.m[i][j] = SA_CELL(i);
#else
        /* The column unrolled and branch-free: one translated block. The
         * barrier keeps a's cells loaded where used, not hoisted out of
         * the loop into stack stores (a store costs more than a load under
         * emulation). */
        __asm__("" ::: "memory");
        tmp.m[0][j] = SA_CELL(0);
        tmp.m[1][j] = SA_CELL(1);
        tmp.m[2][j] = SA_CELL(2);
#endif
    }
    /* The pad is whatever the stack held: tell the compiler it is defined. */
    __asm__("" : "+m"(tmp));
    sa_copy_dwords(out, &tmp, 5);
}
